"""Stopping ``rulekb serve`` (acceptance run, finding 10): SIGTERM or Ctrl-C is a clean stop.

The server stops accepting, answers the requests it has, says it stopped and exits 0,
instead of dying by the signal (under ``make run``: "make: *** [Makefile:27: run]
Terminated", exit 2). Each server runs in a subprocess of its own (a signal there cannot
reach the test runner); the timeouts only guard against a hang, nothing is timed.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from web.serving import Stopped

REPO = Path(__file__).resolve().parent.parent
RULEKB = [sys.executable, "-c", "import sys; from kb.cli import main; sys.exit(main())"]
GUARD = 120.0  # seconds: a hang fails the test instead of blocking the suite
LISTENING = re.compile(r"serving rulekb on http://127\.0\.0\.1:(\d+)/")

# A waitress server whose one page blocks until a file appears, run as rulekb serve runs it:
# the test holds a request in progress while it stops the server.
HELD = """
import sys, time
from pathlib import Path
from waitress.server import create_server
from web.serving import serve_until_stopped
entered, release = Path(sys.argv[1]), Path(sys.argv[2])
def app(environ, start_response):
    entered.touch()
    while not release.exists():
        time.sleep(0.01)
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"answered after the stop"]
server = create_server(app, host="127.0.0.1", port=0, threads=2)
print(f"serving rulekb on http://127.0.0.1:{server.effective_port}/", file=sys.stderr, flush=True)
print(serve_until_stopped(server, grace=float(sys.argv[3])).sentence(), file=sys.stderr, flush=True)
"""


def _until(predicate: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + GUARD
    while not predicate():
        assert time.monotonic() < deadline, f"not {what} within {GUARD} s"
        time.sleep(0.05)


def _port(log: Path, proc: subprocess.Popen[str]) -> int:
    found: list[int] = []

    def announced() -> bool:
        assert proc.poll() is None, log.read_text()
        m = LISTENING.search(log.read_text())
        if m:
            found.append(int(m.group(1)))
        return bool(found)
    _until(announced, "listening")
    return found[0]


def _refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
        return False
    except OSError:
        return True


def _start(args: list[str], log: Path) -> subprocess.Popen[str]:
    with log.open("w") as output:  # the server keeps its own copy of the file
        return subprocess.Popen(args, cwd=REPO, stdout=output, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "PYTHONPATH": str(REPO)})


def _stop(proc: subprocess.Popen[str]) -> int:
    try:
        return proc.wait(timeout=GUARD)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGINT"])
def test_rulekb_serve_stops_cleanly_on_a_signal(own_home: Path, tmp_path: Path, signame: str) -> None:
    log = tmp_path / "serve.log"
    proc = _start([*RULEKB, "--home", str(own_home), "serve", "--port", "0", "--threads", "2"], log)
    try:
        port = _port(log, proc)
        # It answers (503 while the build loads, 200 once ready): it is serving, not starting.
        try:
            status = urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/health", timeout=GUARD).status
        except urllib.error.HTTPError as exc:
            status = exc.code
        assert status in (200, 503)
        proc.send_signal(getattr(signal, signame))
    finally:
        code = _stop(proc)
    out = log.read_text()
    assert code == 0, out
    assert f"rulekb stopped on {signame}: no request was in progress" in out, out
    assert "Traceback" not in out and _refused(port)


def test_rulekb_serve_with_workers_says_it_stopped(own_home: Path, tmp_path: Path) -> None:
    """--workers 2 runs gunicorn, whose SIGTERM is its graceful stop: exit 0, and it says so."""
    pytest.importorskip("gunicorn.app.base", reason="gunicorn does not run on this platform")
    from bench.load import free_port
    log, port = tmp_path / "serve.log", free_port()
    proc = _start([*RULEKB, "--home", str(own_home), "serve", "--port", str(port), "--workers", "2",
                   "--threads", "1"], log)
    try:
        def listening() -> bool:  # gunicorn sets its signal handlers before it listens
            assert proc.poll() is None, log.read_text()
            return not _refused(port)
        _until(listening, "listening")
        proc.send_signal(signal.SIGTERM)
    finally:
        code = _stop(proc)
    out = log.read_text()
    assert code == 0, out
    assert "rulekb stopped: on SIGTERM gunicorn's workers answered the requests they had" in out, out
    assert out.count("rulekb stopped") == 1 and "Traceback" not in out, out  # the master's, not each worker's


@pytest.mark.parametrize("second_signal", [False, True])
def test_the_request_in_progress_is_answered_before_it_ends(tmp_path: Path, second_signal: bool) -> None:
    entered, release, log = tmp_path / "entered", tmp_path / "release", tmp_path / "held.log"
    proc = _start([sys.executable, "-c", HELD, str(entered), str(release), str(GUARD)], log)
    answers: list[object] = []
    try:
        port = _port(log, proc)

        def ask() -> None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=GUARD) as resp:
                    answers.append((resp.status, resp.read()))
            except OSError as exc:
                answers.append(exc)
        client = threading.Thread(target=ask)
        client.start()
        _until(entered.exists, "in the request")
        proc.send_signal(signal.SIGTERM)
        _until(lambda: _refused(port), "refusing new connections")  # stopping, the request still held
        if second_signal:  # a second signal cuts the wait short: the held request is cut off
            proc.send_signal(signal.SIGTERM)
            code = _stop(proc)
            release.touch()
        else:
            release.touch()
            code = _stop(proc)
        client.join(GUARD)
    finally:
        release.touch()
        code = _stop(proc)
    out = log.read_text()
    assert code == 0, out
    if second_signal:
        assert "stopped on SIGTERM: 0 of 1 request(s) in progress answered, 1 cut off" in out, out
        assert answers and isinstance(answers[0], Exception)
    else:
        assert "stopped on SIGTERM: 1 of 1 request(s) in progress answered" in out, out
        assert answers == [(200, b"answered after the stop")]


@pytest.mark.parametrize("stopped,sentence", [
    (Stopped("SIGTERM", 0, 0), "rulekb stopped on SIGTERM: no request was in progress"),
    (Stopped("SIGINT", 3, 0), "rulekb stopped on SIGINT: 3 of 3 request(s) in progress answered"),
    (Stopped("SIGTERM", 3, 1), "rulekb stopped on SIGTERM: 2 of 3 request(s) in progress answered, 1 cut off"),
    (Stopped(None, 0, 0), "rulekb stopped: no request was in progress"),
])
def test_what_the_stop_says(stopped: Stopped, sentence: str) -> None:
    assert stopped.sentence() == sentence


def test_port_0_needs_one_worker(own_home: Path) -> None:
    from click.testing import CliRunner

    from kb.cli import main
    result = CliRunner().invoke(main, ["--home", str(own_home), "serve", "--port", "0", "--workers", "2"])
    assert result.exit_code != 0 and "--port 0 (a free port) needs --workers 1" in result.stderr
