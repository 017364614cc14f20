"""A running server notices a rebuild without a request discovering it: the health check reads
the ``current`` symlink (it named the old build until some other request came), and a watcher
thread, started for a server's background loading, loads and warms the new build while nobody
asks; it stops with the server (:meth:`LiveKnowledgeBase.close`). One case a line."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from kb.live import LiveKnowledgeBase
from kb.store import build, import_document
from web import create_app

DOC = """# Test Core Rules

Test Core Rules
Last Updated: {date}


## 100. Game Concepts


### 101. Players


**101.1.** A game is played by two or more players, each with their own deck.

**101.2.** A player who has no cards left to draw loses the game at the next check.
"""
PATIENCE = 120.0  # seconds a test waits for a load on a busy machine (a bound, not a measure)


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data home built from one small document (no repository excerpts)."""
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    home = tmp_path / "home"
    rebuild(home, tmp_path, "1.0", "2026-01-01")
    return home


def rebuild(home: Path, tmp_path: Path, edition: str, date: str) -> str:
    """Import one more edition and build; the new build's id."""
    doc = tmp_path / f"{edition}.md"
    doc.write_text(DOC.format(date=date), encoding="utf-8")
    report: dict = {}
    import_document(home, doc, ruleset="test", edition=edition,
                    rebuild=lambda: report.setdefault("r", build(home, tmp_path / "no-rules")))
    return report["r"].build.name


def until(condition, what: str) -> None:
    """Wait (bounded) until ``condition()`` holds."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def served(live: LiveKnowledgeBase) -> str:
    """The build the live knowledge base serves, read without asking it for one."""
    return Path(str(live._kb.build_dir)).name if live._kb is not None else ""


# (how the server is made, whether a watcher runs, what is asked after the rebuild)
CASES = [
    ("background", True, "nothing"),    # the watcher alone loads the new build
    ("background", True, "health"),
    ("foreground", False, "health"),    # no watcher: the health check notices it
]


@pytest.mark.parametrize("mode, watching, asked", CASES)
def test_a_rebuild_is_noticed_without_a_request(home: Path, tmp_path: Path, mode: str, watching: bool,
                                               asked: str) -> None:
    live = LiveKnowledgeBase(home, interval=0.05, background=(mode == "background"))
    try:
        assert live.wait_ready(PATIENCE)
        old = served(live)
        assert (live._watcher is not None) is watching
        new = rebuild(home, tmp_path, "1.1", "2026-05-01")
        assert new != old
        if asked == "health":
            time.sleep(0.06)  # past the interval: the next look reads the symlink
            state = live.readiness()  # this look starts loading it, if the watcher has not
            assert state["next_build_loading"] or state["build"]["build_id"] == new
            until(lambda: live.readiness()["build"]["build_id"] == new, "health names the new build")
        else:
            until(lambda: served(live) == new, "the watcher loads the new build")
        until(lambda: served(live) == new and live.ready(), "the new build serves, warmed")
        assert "test 1.1" in live.readiness()["editions"]
    finally:
        live.close()
    if live._watcher is not None:
        assert not live._watcher.is_alive()  # the watcher stopped with close()


def test_the_health_endpoint_names_the_new_build(home: Path, tmp_path: Path) -> None:
    app = create_app(home, config={"RULEKB_RELOAD_INTERVAL": 0.0})
    client = app.test_client()
    live: LiveKnowledgeBase = app.extensions["rulekb"]
    try:
        until(lambda: client.get("/api/v1/health").get_json()["ready"], "the first build is ready")
        first = client.get("/api/v1/health").get_json()["build"]["build_id"]
        new = rebuild(home, tmp_path, "1.1", "2026-05-01")
        until(lambda: client.get("/api/v1/health").get_json()["build"]["build_id"] != first,
              "health names the new build")
        state = client.get("/api/v1/health").get_json()
        assert state["build"]["build_id"] == new
        assert "test 1.1" in state["editions"]
    finally:
        live.close()


def test_close_stops_the_watcher_and_answering_goes_on(home: Path) -> None:
    live = LiveKnowledgeBase(home, interval=0.05, background=True)
    assert live.wait_ready(PATIENCE)
    watcher = live._watcher
    assert watcher is not None and watcher.is_alive() and watcher.daemon
    live.close()
    assert not watcher.is_alive() and watcher not in threading.enumerate()
    assert live.current().build_id  # still answers from the build it has
