"""The apps the suite makes over the session's embedded home share one loaded build
(tests/conftest.py, ``load_for_app``); every other load is the test's own."""

from __future__ import annotations

from pathlib import Path

from kb.query import KnowledgeBase
from web import create_app


def served(home: Path) -> KnowledgeBase:
    """The knowledge base an app over ``home`` answers from."""
    return create_app(home).extensions["rulekb"].current()


def test_apps_over_the_embedded_home_serve_one_loaded_build(excerpt_home: Path) -> None:
    assert served(excerpt_home) is served(excerpt_home)


def test_an_app_over_a_home_of_its_own_loads_its_own(excerpt_home: Path, own_home: Path) -> None:
    mine = served(own_home)
    assert mine is not served(excerpt_home) and mine is not served(own_home)


def test_a_build_loaded_by_the_test_itself_is_a_fresh_one(excerpt_home: Path) -> None:
    fresh = KnowledgeBase.open(excerpt_home)
    assert fresh is not served(excerpt_home) and fresh.derived.keys() == []
