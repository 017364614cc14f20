"""Slow and expensive requests cannot starve the others (issue 21), against a live server.

A real ``rulekb serve`` (waitress, 8 threads) on loopback, as ``tests/test_load.py`` starts
it. An honest client asks for rules one at a time on a keep-alive connection the whole time;
an abusive client sends every case of :data:`bench.abuse.CASES` (the issue's repro in its
400-round and 9,000-step forms, the card with 100 ``play`` instructions, the 62 KB scenario
pasted on ``/timing``, unknown scenario names, …) again and again for a few seconds. Each
abusive request must be answered with its 4xx naming its limit in under a second, the
server's resident memory must stay within 100 MB of what it was before, and the honest
client's p99 latency must stay under 50 ms, or, on a machine other jobs load, under four times
its own p99 measured just before the abuse (a ratio to a same-run baseline, not a wall-time bound).

Cases are one line each in :data:`bench.abuse.CASES`; other areas add theirs there.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from pathlib import Path

import pytest

from bench import abuse, load
from conftest import copy_home

ABUSE_SECONDS = 12.0
ATTACKERS = 1  # the setting: one abusive client beside one honest one
HONEST_P99_MS = 50.0  # the goal on a quiet machine
HONEST_P99_TIMES_ALONE = 4.0  # on a loaded one: at most this many times its p99 before the abuse


@pytest.fixture(scope="module")
def server(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory):
    home = copy_home(excerpt_home, tmp_path_factory.mktemp("abuse-home"))
    with load.Server(home, threads=8, hello=False) as srv:
        yield srv


def _rule_paths(port: int) -> list[str]:
    _, _, structure = load.get(port, "/api/v1/rulesets/riftbound/structure")
    numbers = [n["number"] for n in structure["nodes"] if n["kind"] == "rule"]
    return [f"/api/v1/rulesets/riftbound/rules/{n}" for n in numbers[::max(1, len(numbers) // 200)]]


class Honest(threading.Thread):
    """Rule lookups one at a time until stopped; latencies in ms, and every failure."""

    def __init__(self, port: int, paths: list[str]):
        super().__init__(daemon=True)
        self.port, self.paths = port, paths
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        i = 0
        while not self.stop.is_set():
            path = self.paths[i % len(self.paths)]
            i += 1
            t0 = time.perf_counter()
            try:
                conn.request("GET", path)
                resp = conn.getresponse()
                body = resp.read()
            except (OSError, http.client.HTTPException) as exc:
                self.failures.append(f"{path}: {type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                continue
            self.latencies.append((time.perf_counter() - t0) * 1000)
            if resp.status != 200 or b'"number"' not in body:
                self.failures.append(f"{path}: HTTP {resp.status} {body[:120]!r}")
        conn.close()


def send(port: int, case: abuse.Abuse) -> tuple[int, float, bytes]:
    """One abusive request on a fresh connection: status, seconds, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        t0 = time.perf_counter()
        conn.request(case.method, case.path, body=case.body, headers=case.headers)
        resp = conn.getresponse()
        body = resp.read()
        return resp.status, time.perf_counter() - t0, body
    finally:
        conn.close()


def problems_of(case: abuse.Abuse, status: int, seconds: float, body: bytes) -> list[str]:
    """What is wrong with the answer to one abusive request (empty: nothing)."""
    out = []
    if status != case.status:
        out.append(f"{case.name}: HTTP {status}, expected {case.status}: {body[:200]!r}")
    if seconds >= 1.0:
        out.append(f"{case.name}: answered in {seconds:.2f} s")
    if case.limit and not abuse.limit_named(case.path, case.limit, body):
        out.append(f"{case.name}: the error does not name {case.limit}: {body[:200]!r}"
                   if case.path.startswith("/api/") else f"{case.name}: the page does not name {case.limit}")
    return out


def _rss_kb(server: load.Server) -> int:
    return server.memory()["VmRSS"]


def abuse_window(server: load.Server, cases: list[abuse.Abuse]) -> tuple[dict, list[str], list[str]]:
    """One window of abuse beside an honest client: its report, the wrong answers (status,
    limit not named, honest failures, memory) and the missed latency goals (an abusive
    answer of a second or more, the honest p99 at 50 ms and four times its own p99 before the
    abuse or more)."""
    port = server.port
    paths = _rule_paths(port)
    rss_start = _rss_kb(server)
    honest = Honest(port, paths)
    honest.start()
    time.sleep(2.0)
    baseline = len(honest.latencies)
    alone = honest.latencies[:baseline]

    peak = [rss_start]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            peak[0] = max(peak[0], _rss_kb(server))
            time.sleep(0.05)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    found: list[str] = []
    answered: list[tuple[str, int, float]] = []
    deadline = time.monotonic() + ABUSE_SECONDS

    def attack(offset: int) -> None:
        i = offset
        while time.monotonic() < deadline:
            case = cases[i % len(cases)]
            i += 1
            status, seconds, body = send(port, case)
            answered.append((case.name, status, seconds))
            found.extend(problems_of(case, status, seconds, body))
    attackers = [threading.Thread(target=attack, args=(k * 7,), daemon=True) for k in range(ATTACKERS)]
    for t in attackers:
        t.start()
    for t in attackers:
        t.join(ABUSE_SECONDS + 60)
    honest.stop.set()
    honest.join(30)
    sampling.set()
    sampler.join(5)

    during = sorted(honest.latencies[baseline:])
    p99 = load.pct(during, 99)
    report = {"abusive": len(answered), "honest": len(during), "honest_p99_ms": round(p99, 1),
              "honest_alone_p99_ms": round(load.pct(alone, 99), 1),
              "honest_median_ms": round(load.pct(during, 50), 1),
              "slowest_abusive_s": round(max((s for _, _, s in answered), default=0.0), 3),
              "rss_start_mb": rss_start // 1024, "rss_peak_mb": peak[0] // 1024,
              "load_average": round(os.getloadavg()[0], 2)}
    slowest: dict[str, float] = {}
    for name, _, seconds in answered:
        kind = "site: unknown scenario names" if name.startswith("site: unknown scenario name ") else name
        slowest[kind] = max(slowest.get(kind, 0.0), round(seconds, 3))
    print(json.dumps({**report, "slowest_by_case_s": slowest}, indent=1))

    wrong = [f for f in found if "answered in" not in f]
    slow = [f for f in found if "answered in" in f]
    if not {name for name, _, _ in answered} >= {c.name for c in abuse.CASES}:
        wrong.append("not every case was sent")
    wrong += [f"abusive answer HTTP {s} ({name})" for name, s, _ in answered if not 400 <= s < 500]
    wrong += [f"honest client: {f}" for f in honest.failures[:5]]
    if len(during) <= 100:
        wrong.append(f"the honest client got only {len(during)} answers")
    if peak[0] - rss_start >= 100 * 1024:
        wrong.append(f"server memory grew {(peak[0] - rss_start) // 1024} MB")
    # 50 ms is the goal on a quiet machine; on a shared one the honest client's own p99 before
    # the abuse is the baseline: starving it means a multiple of that, not the machine's load.
    alone_p99 = load.pct(alone, 99)
    if p99 >= max(HONEST_P99_MS, HONEST_P99_TIMES_ALONE * alone_p99):
        slow.append(f"honest p99 {p99:.1f} ms ({alone_p99:.1f} ms before the abuse)")
    return report, wrong, slow


@pytest.mark.load
def test_abusive_requests_are_refused_quickly_and_starve_no_one(server: load.Server) -> None:
    """Every window must answer every abusive request rightly within the memory bound. The
    latency goals are about the server, not the machine: when another job shares the two
    cores during the first window and a goal is missed, a second window decides."""
    port = server.port
    cases = [*abuse.CASES, *abuse.unknown_names(100)]
    for case in abuse.CASES:  # each once, so every cache a legitimate answer fills is filled
        send(port, case)
    for path in _rule_paths(port):
        load.get(port, path)
    report, wrong, slow = abuse_window(server, cases)
    assert not wrong, (wrong[:10], report)
    if slow:
        print(f"latency goals missed in the first window ({slow[:5]}); measuring a second one")
        report, wrong, slow = abuse_window(server, cases)
        assert not wrong, (wrong[:10], report)
    assert not slow, (slow[:10], report)


def test_problems_of_finds_a_wrong_answer() -> None:
    case = abuse.Abuse("x", "POST", "/api/v1/timing/run", b"{}", abuse.JSON, 413, "timing.steps")
    good = json.dumps({"error": {"status": 413, "message": "", "detail": {"limit": "timing.steps"}}}).encode()
    assert problems_of(case, 413, 0.1, good) == []
    assert "HTTP 500" in problems_of(case, 500, 0.1, good)[0]
    assert "answered in 1.50 s" in problems_of(case, 413, 1.5, good)[0]
    assert "does not name" in problems_of(case, 413, 0.1, b"{}")[0]
    page = abuse.Abuse("y", "POST", "/timing", b"", abuse.FORM, 413, "timing.pasted")
    assert problems_of(page, 413, 0.1, b"<p>over the limit timing.pasted</p>") == []
    assert "does not name" in problems_of(page, 413, 0.1, b"<p>too big</p>")[0]


def test_serve_shortens_the_gil_interval_and_caps_malloc_arenas(monkeypatch: pytest.MonkeyPatch,
                                                                excerpt_home: Path) -> None:
    import errno
    import sys

    import waitress.server
    from click.testing import CliRunner

    from kb.cli import main
    from kb.cli import serve as serve_module

    capped: list[int] = []
    monkeypatch.setattr(serve_module, "few_malloc_arenas", lambda: capped.append(1) or True)

    def busy(*args, **kwargs):
        raise OSError(errno.EADDRINUSE, "in use")
    monkeypatch.setattr(waitress.server, "create_server", busy)
    monkeypatch.setattr(sys, "setswitchinterval", lambda s: capped.append(s))
    CliRunner().invoke(main, ["--home", str(excerpt_home), "serve", "--port", "8999"])
    assert capped == [serve_module.SWITCH_INTERVAL, 1] and serve_module.SWITCH_INTERVAL <= 0.001


def test_malloc_arenas_are_capped_unless_the_environment_says(monkeypatch: pytest.MonkeyPatch) -> None:
    import ctypes.util
    import sys

    from kb.cli.serve import few_malloc_arenas
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert few_malloc_arenas() is False
    monkeypatch.delenv("MALLOC_ARENA_MAX")
    glibc = sys.platform.startswith("linux") and "libc.so" in (ctypes.util.find_library("c") or "")
    assert few_malloc_arenas() is glibc


def test_the_load_bench_checks_abusive_answers() -> None:
    reqs = load.abusive_requests(unknown_names=2)
    assert len(reqs) == len(abuse.CASES) + 2 and all(r.kind == "abuse" for r in reqs)
    steps = next(r for r in reqs if r.limit == "timing.steps" and r.path.startswith("/api/"))
    named = json.dumps({"error": {"status": 413, "detail": {"limit": "timing.steps"}}}).encode()
    h = load.http.client.HTTPMessage()
    assert load.check(steps, 413, h, named) == ("", "", -1)
    assert load.check(steps, 500, h, named)[0].startswith("HTTP 500, expected 413")
    assert "does not name timing.steps" in load.check(steps, 413, h, b'{"error": {}}')[0]
    summary = load.summary([("abuse", 0.0, 1.0, 500, "HTTP 500", "", -1, 0),
                            ("rule", 0.0, 1.0, 200, "", "b", -1, 1)], 1.0)
    assert summary["server_errors_5xx"] == 1 and summary["honest_errors"] == 0
