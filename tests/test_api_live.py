"""A served knowledge base follows rebuilds without a restart (kb/live.py, web.get_kb)."""

from __future__ import annotations

import logging
import os
import shutil
import threading
from pathlib import Path

import pytest

from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase, QueryError
from kb.store import build
from web import create_app, get_kb

RULE = "/api/v1/rulesets/riftbound/rules/337.1a"


@pytest.fixture()
def home(own_home: Path) -> Path:
    """A data directory of its own (the session's excerpt_home is shared, never rebuilt):
    a copy of it, rebuilt by the tests that need a new build."""
    return own_home


def test_a_new_build_is_served_without_a_restart(home: Path) -> None:
    app = create_app(home, config={"RULEKB_RELOAD_INTERVAL": 0.0})
    client = app.test_client()
    first = client.get(RULE)
    before = first.headers["X-Rulekb-Build"]
    build(home)
    app.extensions["rulekb"].refresh()
    second = client.get(RULE)
    assert second.headers["X-Rulekb-Build"] != before
    assert second.headers["ETag"] != first.headers["ETag"], "the ETag follows the build"
    assert client.get(RULE, headers={"If-None-Match": first.headers["ETag"]}).status_code == 200
    assert client.get("/api/v1/rulesets").get_json()["build"]["build_id"] == second.headers["X-Rulekb-Build"]


def test_a_request_keeps_the_build_it_started_with(home: Path) -> None:
    app = create_app(home, config={"RULEKB_RELOAD_INTERVAL": 0.0})
    live: LiveKnowledgeBase = app.extensions["rulekb"]
    with app.test_request_context(RULE):
        during = get_kb(app)
        build(home)
        live.refresh()
        assert get_kb(app) is during, "one request, one build"
    with app.test_request_context(RULE):
        assert get_kb(app) is not during


def test_readers_keep_the_old_build_until_the_new_one_is_loaded(home: Path) -> None:
    release = threading.Event()
    entered = threading.Event()

    def slow_open(path: Path) -> KnowledgeBase:
        if live_ready.is_set():
            entered.set()
            release.wait(10)
        return KnowledgeBase.open(path)

    live_ready = threading.Event()
    live = LiveKnowledgeBase(home, interval=0.0, loader=slow_open)
    live_ready.set()
    old = live.current()
    build(home)
    assert live.current() is old  # notices the new build, starts loading it in the background
    assert entered.wait(10)
    assert live.current() is old, "still loading: the old build answers"
    release.set()
    new = live.refresh()
    assert new is not old and new.build_id != old.build_id
    assert live.current() is new


def test_a_build_that_fails_to_load_leaves_the_old_one_in_service(
        home: Path, caplog: pytest.LogCaptureFixture) -> None:
    live = LiveKnowledgeBase(home, interval=0.0)
    old = live.current()
    broken = home / "builds" / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json", encoding="utf-8")
    tmp_link = home / "current.tmp"
    os.symlink(Path("builds") / "broken", tmp_link)
    os.replace(tmp_link, home / "current")
    with caplog.at_level(logging.ERROR, logger="kb.live"):
        assert live.refresh() is old
    assert "could not load" in caplog.text
    assert live.current() is old  # and it does not retry the same broken build
    shutil.rmtree(broken)
    build(home)
    assert live.refresh() is not old


def test_the_symlink_is_read_at_most_once_per_interval(home: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    live = LiveKnowledgeBase(home, interval=3600.0)
    calls = []
    real = os.readlink
    monkeypatch.setattr(os, "readlink", lambda p: calls.append(p) or real(p))
    for _ in range(100):
        live.current()
    assert calls == []


def test_a_knowledge_base_given_in_memory_never_reloads(excerpt_kb: KnowledgeBase) -> None:
    live = LiveKnowledgeBase(kb=excerpt_kb, interval=0.0)
    assert not live.follows and live.current() is excerpt_kb and live.refresh() is excerpt_kb


def test_nothing_built_yet_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(QueryError) as err:
        LiveKnowledgeBase(tmp_path)
    assert err.value.status == 503 and "rulekb build" in err.value.message


def test_kept_answers_are_the_same_and_a_new_build_empties_them(home: Path) -> None:
    app = create_app(home, config={"RULEKB_RELOAD_INTERVAL": 0.0})
    client = app.test_client()
    fresh = client.get(RULE)
    kept = client.get(RULE)
    assert kept.data == fresh.data and kept.headers["ETag"] == fresh.headers["ETag"]
    assert kept.headers["X-Rulekb-Edition"] == fresh.headers["X-Rulekb-Edition"]
    build(home)
    app.extensions["rulekb"].refresh()
    after = client.get(RULE)
    assert after.headers["X-Rulekb-Build"] != fresh.headers["X-Rulekb-Build"]
    assert after.get_json()["number"] == "337.1.a"


def test_the_answer_cache_can_be_turned_off(excerpt_kb: KnowledgeBase) -> None:
    app = create_app(kb=excerpt_kb, config={"RULEKB_API_CACHE_BYTES": 0})
    assert "rulekb.answers" not in app.extensions
    assert app.test_client().get(RULE).status_code == 200
