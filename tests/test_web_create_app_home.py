"""``web.create_app(home)`` takes the data home as text, a Path or any os.PathLike.

``create_app('/some/str')`` raised TypeError in current_build (it joined the home with
``/``): the home is read as a Path whatever it was given as, so a caller embedding the
app (a WSGI file, a test) can pass the text of a path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

from kb.errors import QueryError
from web import create_app


class _Home(os.PathLike):
    """A PathLike that is no Path (as a library's own path type would be)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __fspath__(self) -> str:
        return str(self.path)


# how the home is given
FORMS: list[tuple[str, Callable[[Path], object]]] = [
    ("Path", lambda p: p),
    ("str", str),
    ("PathLike", _Home),
]


@pytest.mark.parametrize(("form", "given"), FORMS, ids=[f[0] for f in FORMS])
def test_the_home_may_be_given_as_any_path(excerpt_home: Path, form: str, given: Callable[[Path], object]) -> None:
    app = create_app(given(excerpt_home))  # type: ignore[arg-type]
    assert app.config["RULEKB_HOME"] == excerpt_home and isinstance(app.config["RULEKB_HOME"], Path)
    answer = app.test_client().get("/api/v1/rulesets")
    assert answer.status_code == 200
    assert answer.get_json()["build"] == create_app(excerpt_home).test_client().get("/api/v1/rulesets").get_json()["build"]


@pytest.mark.parametrize(("form", "given"), FORMS, ids=[f[0] for f in FORMS])
def test_a_home_never_built_is_said_as_for_a_path(tmp_path: Path, form: str, given: Callable[[Path], object]) -> None:
    home = tmp_path / "never-built"
    with pytest.raises(QueryError) as caught:  # not a TypeError from joining text with "/"
        create_app(given(home))  # type: ignore[arg-type]
    assert caught.value.status == 503
    assert caught.value.message == f"no knowledge base is built in {home}; run `rulekb build`"
