"""No background thread of the app outlives the test that started it (tests/conftest.py).

A warm-up left running used to read the worked scenarios while a later test had patched
``yaml.safe_load``. The first two tests run in this order (one file runs whole on one
worker): the first leaves a slow warm-up behind, the second finds it finished.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from conftest import BACKGROUND_THREADS, background_threads, finish_background_threads
from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase

STEP_SECONDS = 0.5
done: list[str] = []


class SlowWarming(KnowledgeBase):
    """A knowledge base whose one warming step takes ``STEP_SECONDS`` and says when it ended."""

    def warm_steps(self) -> list[tuple[str, Callable[[], Any]]]:
        return [("slow step", lambda: (time.sleep(STEP_SECONDS), done.append("slow step")))]


def test_a_test_may_leave_a_warm_up_running(excerpt_kb: KnowledgeBase) -> None:
    slow = SlowWarming(excerpt_kb.build_dir, excerpt_kb.manifest, dict(excerpt_kb.graphs))
    live = LiveKnowledgeBase(kb=slow, warm=True)
    assert not live.ready() and [t.name for t in background_threads()] == ["rulekb-warm"]
    assert done == []


def test_the_next_test_finds_it_finished() -> None:
    assert done == ["slow step"], "the warm-up of the test before ran into this one"
    assert background_threads() == []


# (thread name, whether a test's teardown waits for it)
CASES = [(name, True) for name in sorted(BACKGROUND_THREADS)] + [("someone-else", False)]


@pytest.mark.parametrize("name,waited", CASES, ids=[name for name, _ in CASES])
def test_the_teardown_waits_for_the_apps_threads_and_reports_one_still_running(name: str, waited: bool) -> None:
    hold = threading.Event()
    thread = threading.Thread(target=hold.wait, args=(30,), name=name, daemon=True)
    thread.start()
    try:
        assert (thread in background_threads()) is waited
        assert finish_background_threads(0.05) == ([thread] if waited else [])
    finally:
        hold.set()
    assert finish_background_threads(30) == []
    thread.join(30)
    assert not thread.is_alive()
