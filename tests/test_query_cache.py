"""Derived data (kb.derived): one make per build and arguments, and a slow make never blocks
another key."""

import threading
from typing import Any

import pytest

from kb.derived import derived
from kb.loaded import LoadedEditions
from kb.query import KnowledgeBase, searcher

calls: list[str] = []


@derived
def counted(kb: LoadedEditions, name: str, times: int = 1) -> str:
    """A derived value that records each make."""
    calls.append(name)
    return name * times


@derived
def failing(kb: LoadedEditions, name: str) -> Any:
    """A derived value whose make always fails, as a lookup of an unknown name does."""
    raise KeyError(name)


@pytest.fixture
def kb() -> KnowledgeBase:
    calls.clear()
    return KnowledgeBase.from_graphs([])


def test_a_slow_make_does_not_block_another_key(kb: KnowledgeBase) -> None:
    other_done = threading.Event()

    @derived
    def slow(kb: LoadedEditions) -> str:
        # Waits for a make of another key that runs in a second thread meanwhile.
        worker = threading.Thread(target=lambda: counted(kb, "b") and other_done.set())
        worker.start()
        worker.join(timeout=10)
        return "a" if other_done.is_set() else "blocked"

    assert slow(kb) == "a"


def test_each_key_is_made_once_under_concurrency(kb: KnowledgeBase) -> None:
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        assert counted(kb, "k") == "k"
    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls == ["k"]


def test_a_make_may_ask_for_another_derived_value(kb: KnowledgeBase) -> None:
    @derived
    def outer(kb: LoadedEditions) -> str:
        return counted(kb, "inner") + "!"
    assert outer(kb) == "inner!"


@pytest.mark.parametrize("first, second", [
    ((("x",), {}), (("x", 1), {})),            # a default left out is the same value
    ((("x",), {"times": 1}), (("x", 1), {})),  # so is an argument given by name
    ((("x", 2), {}), (("x",), {"times": 2})),
])
def test_arguments_are_bound_to_the_signature(kb: KnowledgeBase, first: Any, second: Any) -> None:
    assert counted(kb, *first[0], **first[1]) == counted(kb, *second[0], **second[1])
    assert calls == ["x"]


def test_each_build_has_its_own_values(kb: KnowledgeBase) -> None:
    other = KnowledgeBase.from_graphs([])
    counted(kb, "x")
    counted(other, "x")
    assert calls == ["x", "x"] and counted.is_held(kb, "x") and counted.is_held(other, "x")


def test_a_failed_make_keeps_no_value_and_no_lock(kb: KnowledgeBase) -> None:
    counted(kb, "kept")
    keys, pending = kb.derived.keys(), kb.derived.pending()
    for i in range(100):
        with pytest.raises(KeyError):
            failing(kb, f"unknown-{i}")
    assert kb.derived.keys() == keys and kb.derived.pending() == pending == []
    assert not failing.is_held(kb, "unknown-0")


def test_warming_builds_mappings_and_searchers(excerpt_kb: KnowledgeBase) -> None:
    excerpt_kb.warm()
    assert searcher.is_held(excerpt_kb, "riftbound", "1.4")
