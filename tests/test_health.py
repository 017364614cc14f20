"""Readiness (issue 19): ``/api/v1/health`` says ready only once the build in service is
loaded and warmed, and a starting server (``RULEKB_WAIT_READY``, which ``rulekb serve``
sets) answers every other page and operation 503 with ``Retry-After`` until then."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from kb.cli import main
from kb.live import RETRY_AFTER, LiveKnowledgeBase
from kb.query import KnowledgeBase
from kb.timing.examples import first_steps
from kb.store import build
from web import create_app
from web.openapi import ENDPOINTS, document, response_problems

HEALTH = "/api/v1/health"
RULE = "/api/v1/rulesets/riftbound/rules/337.1a"


class HeldWarming(KnowledgeBase):
    """A knowledge base whose warming waits on an event before its real steps."""

    hold: threading.Event

    def warm_steps(self) -> list[tuple[str, Callable[[], Any]]]:
        return [("held by the test", lambda: self.hold.wait(30)), *super().warm_steps()]


def held(kb: KnowledgeBase) -> HeldWarming:
    copy = HeldWarming(kb.build_dir, kb.manifest, dict(kb.graphs))
    copy.hold = threading.Event()
    return copy


@pytest.fixture()
def warming(excerpt_kb: KnowledgeBase) -> Iterator[tuple[Flask, HeldWarming]]:
    kb = held(excerpt_kb)
    app = create_app(kb=kb, config={"RULEKB_WAIT_READY": True})
    yield app, kb
    kb.hold.set()


def checked(client: FlaskClient, path: str) -> Any:
    """GET ``path``; the answer must be one its operation documents."""
    resp = client.get(path)
    if path.startswith("/api"):
        assert response_problems(client.application, "GET", path, resp.status_code, resp.get_json()) == []
    return resp


def test_health_says_warming_until_the_build_is_warmed(warming: tuple[Flask, HeldWarming]) -> None:
    app, kb = warming
    client = app.test_client()
    before = checked(client, HEALTH)
    assert before.status_code == 503 and before.headers["Retry-After"] == str(RETRY_AFTER)
    body = before.get_json()
    assert body["ready"] is False and body["status"] == "warming"
    assert body["build"]["build_id"] == kb.build_id and "riftbound 1.4" in body["editions"]
    assert body["warming"][0] == "held by the test"
    assert "searcher riftbound 1.4" in body["warming"] and "timing model mtg 2026-01-16" in body["warming"]
    assert body["retry_after"] == RETRY_AFTER
    assert before.headers["Cache-Control"] == "no-store" and "ETag" not in before.headers

    kb.hold.set()
    assert app.extensions["rulekb"].wait_ready(30)
    after = checked(client, HEALTH)
    assert after.status_code == 200 and "Retry-After" not in after.headers
    body = after.get_json()
    assert body["ready"] is True and body["status"] == "ready" and body["warming"] == []
    assert body["build"]["build_id"] == kb.build_id and body["retry_after"] is None
    assert after.headers["X-Rulekb-Build"] == kb.build_id
    assert sorted(body["editions"]) == sorted(f"{r} {e}" for r, e in kb.graphs)


def test_every_page_and_operation_answers_503_until_ready(warming: tuple[Flask, HeldWarming]) -> None:
    app, kb = warming
    client = app.test_client()
    api = checked(client, RULE)
    assert api.status_code == 503 and api.headers["Retry-After"] == str(RETRY_AFTER)
    error = api.get_json()["error"]
    assert error["status"] == 503 and "still warming" in error["message"]
    assert error["detail"]["status"] == "warming" and error["detail"]["health"] == HEALTH
    assert checked(client, "/api/no/such/thing").status_code == 503, "not even routing runs"

    page = client.get("/")
    assert page.status_code == 503 and page.headers["Retry-After"] == str(RETRY_AFTER)
    assert page.mimetype == "text/html" and b"rulekb is starting" in page.data
    assert b'http-equiv="refresh"' in page.data and page.headers["Content-Security-Policy"]
    assert client.get("/rules/riftbound/337.1a").status_code == 503
    style = client.get("/static/site.css")
    assert style.status_code == 200, "the starting page's style"
    style.close()
    for path in ("/favicon.ico", "/robots.txt"):  # asked for by the browser, by crawlers
        answer = client.get(path)
        assert answer.status_code == 200, path
        answer.close()

    kb.hold.set()
    assert app.extensions["rulekb"].wait_ready(30)
    assert checked(client, RULE).status_code == 200
    assert client.get("/").status_code == 200


def test_a_starting_server_has_the_first_rule_page_ready_before_it_answers(
        warming: tuple[Flask, HeldWarming]) -> None:
    """What the first rule page used to wait for (2 s): its templates compiled, the
    worked scenarios its transitions link to run."""
    app, kb = warming
    kb.hold.set()
    assert app.extensions["rulekb"].wait_ready(60)
    assert all(first_steps.is_held(kb, ruleset) for ruleset in kb.ruleset_names())
    app.extensions["rulekb_templates"].join(30)
    assert app.jinja_env.cache is not None
    compiled = {name for _, name in app.jinja_env.cache.keys()}
    assert set(app.jinja_env.list_templates()) <= compiled


def test_the_templates_compile_once_every_filter_they_use_is_registered(
        excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiling thread started before the blueprints registered their filters: rule.html
    then failed to compile in it ('No filter named term_id') and the first rule page compiled
    it again."""
    filters_at_start: list[set[str]] = []

    class Recording(threading.Thread):
        def start(self) -> None:
            if self.name == "rulekb-templates":
                filters_at_start.append(set(self._args[0].jinja_env.filters))  # type: ignore[attr-defined]
            super().start()
    monkeypatch.setattr(threading, "Thread", Recording)
    app = create_app(kb=excerpt_kb, config={"RULEKB_WAIT_READY": True})
    monkeypatch.undo()
    app.extensions["rulekb_templates"].join(60)
    assert len(filters_at_start) == 1 and {"term_id", "crumb"} <= filters_at_start[0]
    assert app.jinja_env.cache is not None
    assert set(app.jinja_env.list_templates()) <= {name for _, name in app.jinja_env.cache.keys()}


def test_without_the_gate_pages_answer_while_warming(excerpt_kb: KnowledgeBase) -> None:
    kb = held(excerpt_kb)
    app = create_app(kb=kb, config={"RULEKB_WAIT_READY": False})
    client = app.test_client()
    try:
        assert client.get(RULE).status_code == 200
        # A knowledge base handed over in memory without the gate is taken as it is.
        assert checked(client, HEALTH).get_json()["ready"] is True
    finally:
        kb.hold.set()


@pytest.fixture()
def home(own_home: Path) -> Path:
    """A data directory of its own with a build in service (a copy of the session's)."""
    return own_home


def test_the_first_build_loads_in_the_background(home: Path) -> None:
    release, entered = threading.Event(), threading.Event()

    def slow_open(path: Path) -> KnowledgeBase:
        entered.set()
        release.wait(30)
        return KnowledgeBase.open(path)

    live = LiveKnowledgeBase(home, loader=slow_open, background=True)
    assert entered.wait(10)
    state = live.readiness()
    assert state["status"] == "loading" and state["build"] is None and state["editions"] == []
    with pytest.raises(Exception) as refused:
        live.current()
    assert getattr(refused.value, "status", None) == 503
    release.set()
    assert live.wait_ready(30)
    assert live.readiness()["build"]["build_id"] == live.current().build_id


def test_a_first_build_warming_in_the_background_answers_503_naming_it(home: Path) -> None:
    # rulekb serve loads its first build in the background: while it warmed, readiness named
    # no build and every operation answered 500 (a TypeError formatting the 503's message).
    kbs: list[HeldWarming] = []

    def held_open(path: Path) -> KnowledgeBase:
        kbs.append(held(KnowledgeBase.open(path)))
        return kbs[-1]

    app = create_app(home, config={"RULEKB_WAIT_READY": True})
    live = LiveKnowledgeBase(home, interval=0.0, loader=held_open, background=True)
    app.extensions["rulekb"] = live
    try:
        for _ in range(600):  # the loader thread has opened the build and holds its warming
            if live.readiness()["status"] != "loading":
                break
            live.wait_ready(0.05)
        assert live.readiness()["status"] == "warming"
        client = app.test_client()
        health = checked(client, HEALTH).get_json()
        assert health["build"]["build_id"] == kbs[0].build_id and "riftbound 1.4" in health["editions"]
        api = checked(client, RULE)
        assert api.status_code == 503 and f"build {kbs[0].build_id} is still warming" in api.get_json()["error"]["message"]
        assert client.get("/").status_code == 503
    finally:
        for kb in kbs:
            kb.hold.set()
    assert live.wait_ready(30) and checked(client, RULE).status_code == 200


def test_a_newer_build_warms_beside_the_ready_one(home: Path) -> None:
    release, entered = threading.Event(), threading.Event()
    calls = []

    def open_second_slowly(path: Path) -> KnowledgeBase:
        calls.append(path)
        if len(calls) > 1:
            entered.set()
            release.wait(30)
        return KnowledgeBase.open(path)

    live = LiveKnowledgeBase(home, interval=0.0, loader=open_second_slowly, background=True)
    assert live.wait_ready(30)
    old = live.current().build_id
    build(home)
    live.current()
    assert entered.wait(10)
    state = live.readiness()
    assert state["ready"] and state["build"]["build_id"] == old and state["next_build_loading"]
    release.set()
    assert live.refresh().build_id != old and live.ready()


def test_a_first_build_that_cannot_load_is_reported_until_a_good_one(home: Path) -> None:
    tries = []

    def broken_once(path: Path) -> KnowledgeBase:
        tries.append(path)
        if len(tries) == 1:
            raise ValueError("damaged")
        return KnowledgeBase.open(path)

    app = create_app(home, config={"RULEKB_WAIT_READY": True})
    live = LiveKnowledgeBase(home, interval=0.0, loader=broken_once, background=True)
    app.extensions["rulekb"] = live
    live.wait_ready(10)
    client = app.test_client()
    body = checked(client, HEALTH).get_json()
    assert body["status"] == "failed" and "could not be loaded (ValueError)" in body["error"]
    assert "cannot be served" in checked(client, RULE).get_json()["error"]["message"]
    assert b"cannot serve yet" in client.get("/").data
    build(home)  # a good build: the refusing server notices it without a restart
    assert live.wait_ready(30) and checked(client, RULE).status_code == 200


def test_a_starting_server_without_a_build_refuses_at_once(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="no knowledge base is built"):
        create_app(tmp_path, config={"RULEKB_WAIT_READY": True})


def test_the_openapi_document_describes_health_and_the_503_of_every_operation() -> None:
    paths = document()["paths"]
    health = paths[HEALTH]["get"]
    assert health["responses"]["503"]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Health"}
    for path, ops in paths.items():
        for method, op in ops.items():
            assert "Retry-After" in op["responses"]["503"]["headers"], f"{method} {path}"
    assert not ENDPOINTS["api.health"].cached


# -- rulekb serve --workers ---------------------------------------------------------------------
def test_workers_without_gunicorn_say_so_in_one_line(excerpt_home: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gunicorn.app.base", None)  # as where fcntl is missing
    interval = sys.getswitchinterval()
    try:
        result = CliRunner().invoke(main, ["--home", str(excerpt_home), "serve", "--workers", "2"])
    finally:
        sys.setswitchinterval(interval)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "--workers 2 needs gunicorn" in lines[0] and "--workers 1" in lines[0]


def test_workers_on_a_busy_port_say_so_in_one_line(excerpt_home: Path) -> None:
    pytest.importorskip("gunicorn.app.base", reason="gunicorn does not run on this platform")
    import socket
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        interval = sys.getswitchinterval()
        try:
            result = CliRunner().invoke(main, ["--home", str(excerpt_home), "serve", "--workers", "2",
                                               "--port", str(port)])
        finally:
            sys.setswitchinterval(interval)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and f"port {port} on 127.0.0.1 is in use" in lines[0]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_without_a_build_says_so_in_one_line(tmp_path: Path, workers: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import waitress.server

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the server started")
    monkeypatch.setattr(waitress.server, "create_server", never)
    if workers != "1":
        pytest.importorskip("gunicorn.app.base", reason="gunicorn does not run on this platform")
        import gunicorn.app.base
        monkeypatch.setattr(gunicorn.app.base.BaseApplication, "run", never)
    interval = sys.getswitchinterval()
    try:
        result = CliRunner().invoke(main, ["--home", str(tmp_path), "serve", "--workers", workers])
    finally:
        sys.setswitchinterval(interval)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no knowledge base is built in" in lines[0] and "rulekb build" in lines[0]


def test_workers_are_a_range() -> None:
    result = CliRunner().invoke(main, ["serve", "--workers", "0"])
    assert result.exit_code == 2 and "0 is not in the range 1<=x<=64" in result.stderr


def test_serve_with_two_workers_live(own_home: Path, tmp_path: Path) -> None:
    """A real ``rulekb serve --workers 2`` in a subprocess: ready, answers, stops."""
    pytest.importorskip("gunicorn.app.base", reason="gunicorn does not run on this platform")
    from bench import load
    home = own_home
    port = load.free_port()
    import os
    import subprocess
    import time
    log = tmp_path / "serve.log"
    with log.open("w") as output:  # the server keeps its own copy of the file
        proc = subprocess.Popen([*load.RULEKB, "--home", str(home), "serve", "--port", str(port),
                                 "--workers", "2", "--threads", "2"], cwd=load.REPO,
                                env={**os.environ, "RULEKB_HOME": str(home)},
                                stdout=output, stderr=subprocess.STDOUT, text=True)
    try:
        deadline, status = time.monotonic() + 60, 0
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                status, headers, body = load.get(port, HEALTH)
                if status == 200:
                    break
                assert status == 503 and headers.get("Retry-After") == str(RETRY_AFTER)
            except OSError:
                pass
            time.sleep(0.1)
        assert status == 200, "not ready within 60 s"
        assert body["ready"] and body["build"]["build_id"] and "riftbound 1.4" in body["editions"]
        # Both workers come up ready, each with its own build loaded (each says so once). Until
        # then the other worker may answer 503 "still warming" with Retry-After, as readiness
        # is each worker's own: a health 200 from one says nothing of the other.
        deadline = time.monotonic() + 30
        while log.read_text().count("ready after") < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        for _ in range(4):  # each worker, whichever the kernel hands the connection to
            status, headers, rule = load.get(port, RULE)
            assert status == 200 and rule["number"] == "337.1.a"
        assert load.get(port, HEALTH)[0] == 200
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    out = log.read_text()
    assert proc.returncode == 0, out
    assert "with 2 gunicorn workers" in out and out.count("ready after") == 2, out
