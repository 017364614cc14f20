"""The API's descriptions are for people: Markdown prose, no Sphinx roles or internal names.

The /api page and the OpenAPI document show each operation's docstring and each parameter's
description as they are written; a reST role (``:meth:`...```) or a module path
(``kb.feeds.X``) would reach users as raw markup or as names they cannot use.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.openapi import ENDPOINTS

# What does not belong in prose written for API users, with why.
NOT_PROSE = [
    (re.compile(r":[a-z]+:`"), "a Sphinx/reST role"),
    (re.compile(r"^\.\. [a-z-]+::", re.M), "a reST directive"),
    (re.compile(r"`[^`]*<[^>`]+>`_"), "a reST link"),
    (re.compile(r"\b(?:kb|web)\.[a-z_]+\.[A-Za-z_]"), "an internal module path"),
]


def _texts() -> list[tuple[str, str]]:
    out = []
    for name, ep in sorted(ENDPOINTS.items()):
        if ep.hidden:
            continue
        out.append((f"{name}: description", ep.description))
        out.append((f"{name}: summary", ep.summary))
        out.extend((f"{name}: parameter {p.name}", p.description) for p in ep.params)
    return out


@pytest.mark.parametrize(("where", "text"), _texts(), ids=[w for w, _ in _texts()])
def test_description_is_prose(where: str, text: str) -> None:
    for pattern, what in NOT_PROSE:
        found = pattern.search(text)
        assert found is None, f"{where} holds {what}: {text[max(0, found.start() - 30):found.end() + 30]!r}"


@pytest.mark.parametrize(("text", "bad"), [
    ("the default (:meth:`~kb.loaded.LoadedEditions.default_edition`).", True),
    ("ten steps (``kb.feeds.FEED_STEPS``)", True),
    (".. note::\n   hidden", True),
    ("see `the guide <https://x>`_", True),
    ("``newest``: the default edition (e.g. 337.1.a, `kb` home).", False),
])
def test_the_check_catches_markup(text: str, bad: bool) -> None:
    assert any(p.search(text) for p, _ in NOT_PROSE) is bad


def test_api_page_shows_no_raw_roles(excerpt_home: Path) -> None:
    page = create_app(excerpt_home).test_client().get("/api")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert not re.search(r":[a-z]+:<code>|:[a-z]+:`", html)
