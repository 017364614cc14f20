"""The facade's cache: one build per key, and a slow build never blocks other keys."""

import threading

from kb.query import KnowledgeBase


def test_a_slow_build_does_not_block_another_key() -> None:
    kb = KnowledgeBase.from_graphs([])
    other_done = threading.Event()

    def slow() -> str:
        # Waits for a build of another key that runs in a second thread meanwhile.
        worker = threading.Thread(target=lambda: kb.cached("b", lambda: other_done.set() or "b"))
        worker.start()
        worker.join(timeout=10)
        return "a" if other_done.is_set() else "blocked"

    assert kb.cached("a", slow) == "a"


def test_each_key_is_built_once_under_concurrency() -> None:
    kb = KnowledgeBase.from_graphs([])
    calls = []
    barrier = threading.Barrier(8)

    def make() -> int:
        calls.append(1)
        return 42

    def worker() -> None:
        barrier.wait()
        assert kb.cached("k", make) == 42
    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1


def test_nested_builds_of_other_keys_work() -> None:
    kb = KnowledgeBase.from_graphs([])
    assert kb.cached("outer", lambda: kb.cached("inner", lambda: 1) + 1) == 2


def test_warming_builds_mappings_and_searchers(excerpt_kb: KnowledgeBase) -> None:
    excerpt_kb.warm()
    assert "search:riftbound:1.4" in excerpt_kb._cache
