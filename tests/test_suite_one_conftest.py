"""The suite's shared fixtures module is one module under both names test files import it by
(``conftest``, ``tests.conftest``), so its session caches (``corpus_graph``) are read once."""

from __future__ import annotations

import importlib

import pytest

import conftest


@pytest.mark.parametrize("name", ["conftest", "tests.conftest"])
def test_each_import_name_is_the_module_pytest_loaded(name: str) -> None:
    assert importlib.import_module(name) is conftest


def test_a_cached_edition_is_one_object_under_both_names() -> None:
    from tests.conftest import corpus_graph
    assert corpus_graph is conftest.corpus_graph
