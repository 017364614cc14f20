"""Load, rebuild-while-serving and a killed build, against a real ``rulekb serve``.

    .venv/bin/python -m bench.load                       # 60 s at 16 clients, 10 rebuilds, 1 killed build
    .venv/bin/python -m bench.load --seconds 20 --rebuilds 3 --json /tmp/load.json
    .venv/bin/python -m bench.load --seconds 20 --abuse-seconds 20 --per-kind-seconds 0 \
        --baseline-seconds 0 --rebuilds 0              # the abuse phase, under two minutes

What it does, in order:

1. a fresh data directory (a temp ``RULEKB_HOME``) into which ``rulekb import`` brings every
   real edition of ``../shared/corpora`` (Riftbound 1.0, 1.2, 1.3, 1.4, Magic 2010-10-01 and
   2026-01-16, the Riftbound Tournament Rules) plus a small *canary* edition
   (ruleset ``canary``, edition ``live``) whose rule 101.1 names the rebuild round; then
   ``rulekb build``;
2. ``rulekb serve`` on a free loopback port, as a subprocess (``RULEKB_API_HELLO=1`` adds
   the bare ``/api/_hello`` view, measured first as the ceiling of this server);
3. the mixed workload from separate load processes (``--procs`` processes, ``--clients``
   keep-alive connections in all, each one request at a time), for ``--seconds``: rule
   lookups (numbers drawn from every edition's table of contents), searches (the judges'
   questions of ``bench/relevance.yaml``), ``POST /api/v1/timing/next`` (the state the API
   documents as its example, and states of the worked scenarios' frames) and
   ``POST /api/v1/citations/annotate`` (the lesson articles of ``tests/fixtures/cite``), each
   kind only when the served OpenAPI document has its operation; then the server's peak
   memory (``VmHWM`` of /proc/PID/status) and the CPU time it used per request;
4. with ``--abuse-seconds``, the mixed load again with the abusive requests of
   :mod:`bench.abuse` (issue 21: timing scenarios over their budgets, a 62 KB pasted
   scenario, unknown scenario names, the web-input cases) mixed in as one more kind
   (``abuse``, 10 % of the requests). Each abusive answer must be its expected 4xx naming
   its limit; every honest answer must still be right; no answer may be a 5xx; the
   server's memory before and after is recorded;
5. the same load again while ``rulekb import`` re-imports the canary (a new round number)
   and rebuilds, ``--rebuilds`` times, and then a ``rulekb build`` is SIGKILLed halfway
   (after it has written some editions into its temporary folder).

Every answer is checked, not only counted: status 200, JSON, an ``X-Rulekb-Build`` header,
``X-Rulekb-Edition`` equal to what the body says it answered from (``ruleset`` and
``edition``, or the ``candidates`` it looked in), the edition asked for; and for the canary,
that the round in the body is the round of the build the header names (one build, one
round: a mixed answer would pair a build with another build's text), and that no client
ever sees an older round after a newer one. After the killed build, ``current`` must still
point at the last good build and the server must still answer from it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import os
import queue
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import abuse
from bench.corpora import CORPORA, CORPUS_EDITIONS, REPO

# The six editions and the tournament rules.
CORPUS = CORPUS_EDITIONS
CANARY = ("canary", "live")
CANARY_RULE = "101.1"
ARTICLES = REPO / "tests" / "fixtures" / "cite"
QUESTIONS = REPO / "bench" / "relevance.yaml"
# The `rulekb` console script's entry point, run from the checkout (so the bench measures
# the working tree whatever the venv's install says).
RULEKB = [sys.executable, "-c", "import sys; from kb.cli import main; sys.exit(main())"]
WEIGHTS = {"rule": 50, "search": 25, "timing": 10, "annotate": 5, "canary": 0, "hello": 0, "abuse": 0}
ABUSE_WEIGHT = 10  # of the abuse phase's requests, against the 90 of the honest mix
_ROUND = re.compile(r"rebuild round (\d+)")


# -- the data directory ------------------------------------------------------------------
def canary_document(round_no: int) -> str:
    """The canary edition of one rebuild round: rule 101.1 names the round."""
    return (f"# Canary Rules\n\nCanary Rules\nLast Updated: 2026-01-01\n\n## 100. Canary\n\n"
            f"**101.** This edition is imported again and rebuilt while the server answers.\n\n"
            f"**101.1.** This is rebuild round {round_no}.\n\n"
            f"**101.2.** See rule 101.1 for the round.\n")


def rulekb(home: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a ``rulekb`` command against ``home``; raise with its stderr when it fails."""
    proc = subprocess.run([*RULEKB, *args], cwd=REPO, env={**os.environ, "RULEKB_HOME": str(home)},
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"rulekb {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc


def import_canary(home: Path, round_no: int, build: bool = True) -> float:
    """Import the canary edition of ``round_no`` (and rebuild); returns the seconds taken."""
    doc = home / "canary-source" / f"canary-{round_no}.md"
    doc.parent.mkdir(parents=True, exist_ok=True)
    doc.write_text(canary_document(round_no), encoding="utf-8")
    started = time.perf_counter()
    rulekb(home, "import", "-r", CANARY[0], "-e", CANARY[1], "--date", "2026-01-01",
           "--format", "riftbound-md", *(() if build else ("--no-build",)), str(doc))
    return time.perf_counter() - started


def prepare_home(home: Path, corpus: list[tuple[str, str, str, str]] = CORPUS) -> float:
    """Import ``corpus`` (files under ../shared/corpora) and the canary round 0, then build."""
    started = time.perf_counter()
    for ruleset, edition, date, rel in corpus:
        rulekb(home, "import", "--no-build", "-r", ruleset, "-e", edition, "--date", date,
               str(CORPORA / rel))
    import_canary(home, 0, build=False)
    rulekb(home, "build")
    return time.perf_counter() - started


def current_target(home: Path) -> str | None:
    try:
        return os.path.basename(os.readlink(home / "current"))
    except OSError:
        return None


# -- the server --------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``rulekb serve`` on a free loopback port, as a subprocess."""

    def __init__(self, home: Path, threads: int = 8, hello: bool = True):
        self.home, self.port = home, free_port()
        env = {**os.environ, "RULEKB_HOME": str(home), "RULEKB_API_HELLO": "1" if hello else "0"}
        self.log = tempfile.TemporaryFile(mode="w+")
        self.proc = subprocess.Popen(
            [*RULEKB, "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--threads", str(threads)], cwd=REPO, env=env, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 180) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"rulekb serve exited ({self.proc.returncode}):\n{self.output()}")
            try:
                if get(self.port, "/api/v1/rulesets")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"rulekb serve did not answer within {timeout}s:\n{self.output()}")

    def memory(self) -> dict[str, int]:
        """VmHWM (peak resident set) and VmRSS of the server, in kB."""
        return memory_kb(self.proc.pid)

    def cpu_seconds(self) -> float:
        """User + system CPU time the server has used so far."""
        with open(f"/proc/{self.proc.pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read()[-4000:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> Server:
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def memory_kb(pid: int) -> dict[str, int]:
    """VmHWM (peak resident set) and VmRSS of process ``pid``, in kB (/proc/PID/status)."""
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0])
    return out


def get(port: int, path: str) -> tuple[int, dict[str, str], Any]:
    """One GET on a fresh connection: status, headers, JSON body (None when not JSON)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path)
        resp = conn.getresponse()
        raw = resp.read()
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        return resp.status, dict(resp.getheaders()), body
    finally:
        conn.close()


# -- the workload ------------------------------------------------------------------------
@dataclass(frozen=True)
class Req:
    """One request of the workload, and the edition(s) its answer must name."""

    kind: str
    method: str
    path: str
    body: bytes | None = None
    edition: str | None = None  # the X-Rulekb-Edition the answer must carry, when known
    status: int = 200  # the status it must get (an abusive request: its 4xx)
    content_type: str | None = None  # of the body (default: JSON)
    limit: str | None = None  # the budget an abusive request's error must name


def _q(**params: Any) -> str:
    return urllib.parse.urlencode({k: v for k, v in params.items() if v is not None})


def workload(port: int, rules_per_edition: int = 150, seed: int = 9) -> dict[str, list[Req]]:
    """Requests of every kind the served API has, drawn from what the server holds."""
    rnd = random.Random(seed)
    status, _, spec = get(port, "/api/openapi.json")
    assert status == 200, "no /api/openapi.json"
    paths = spec["paths"]
    status, _, listing = get(port, "/api/v1/rulesets")
    out: dict[str, list[Req]] = defaultdict(list)
    newest: dict[str, str] = {}
    for rs in listing["rulesets"]:
        newest[rs["name"]] = rs["newest"]
        if rs["name"] == CANARY[0]:
            continue
        for ed in rs["editions"]:
            _, _, structure = get(port, f"/api/v1/rulesets/{rs['name']}/structure?{_q(edition=ed)}")
            numbers = [n["number"] for n in structure["nodes"] if n["kind"] == "rule"]
            for n in rnd.sample(numbers, min(rules_per_edition, len(numbers))):
                named = rnd.random() < 0.8 or ed != rs["newest"]
                written = n if rnd.random() < 0.75 else f"rule {n}"
                out["rule"].append(Req(
                    "rule", "GET", f"/api/v1/rulesets/{rs['name']}/rules/"
                    f"{urllib.parse.quote(written)}" + (f"?{_q(edition=ed)}" if named else ""),
                    edition=f"{rs['name']} {ed}"))
    if "/api/v1/search" in paths:
        import yaml
        for q in yaml.safe_load(QUESTIONS.read_text(encoding="utf-8")):
            if (q["ruleset"], str(q["edition"])) in {(r["name"], e) for r in listing["rulesets"]
                                                     for e in r["editions"]}:
                out["search"].append(Req(
                    "search", "GET", "/api/v1/search?" + _q(q=q["query"], ruleset=q["ruleset"],
                                                            edition=str(q["edition"])),
                    edition=f"{q['ruleset']} {q['edition']}"))
    if "/api/v1/timing/next" in paths:
        op = paths["/api/v1/timing/next"]["post"]
        content = op.get("requestBody", {}).get("content", {}).get("application/json", {})
        examples = [content["example"]] if "example" in content else []
        examples += [e["value"] for e in content.get("examples", {}).values() if "value" in e]
        if "/api/v1/timing/run" in paths:  # and the states of every worked scenario's frames
            examples += scenario_states(port, rnd)
        for ex in examples:
            out["timing"].append(Req("timing", "POST", "/api/v1/timing/next", json.dumps(ex).encode()))
    if "/api/v1/citations/annotate" in paths:
        for article in sorted(ARTICLES.glob("*.md")):
            body = {"markdown": article.read_text(encoding="utf-8"), "format": "html",
                    "style": "footnotes", "source": article.name}
            out["annotate"].append(Req("annotate", "POST", "/api/v1/citations/annotate",
                                       json.dumps(body).encode()))
    if CANARY[0] in newest:
        out["canary"].append(Req("canary", "GET", f"/api/v1/rulesets/{CANARY[0]}/rules/{CANARY_RULE}",
                                 edition=" ".join(CANARY)))
    out["hello"].append(Req("hello", "GET", "/api/_hello"))
    out["abuse"] = abusive_requests()
    return dict(out)


def abusive_requests(unknown_names: int = 50) -> list[Req]:
    """Every case of :data:`bench.abuse.CASES`, and ``unknown_names`` distinct unknown
    scenario names, as requests of the kind ``abuse``."""
    return [Req("abuse", c.method, c.path, c.body, status=c.status, content_type=c.content_type,
                limit=c.limit) for c in [*abuse.CASES, *abuse.unknown_names(unknown_names)]]


def scenario_states(port: int, rnd: random.Random, most: int = 60) -> list[Any]:
    """States of the frames of the worked scenarios (``kb/timing/scenarios``), run by the API."""
    import yaml
    states: list[Any] = []
    for file in sorted((REPO / "kb" / "timing" / "scenarios").glob("*/*.yaml")):
        scenario = yaml.safe_load(file.read_text(encoding="utf-8"))
        status, _, body = post(port, "/api/v1/timing/run", scenario)
        if status == 200:
            states += [f["state"] for f in body.get("frames", []) if f.get("state")]
    return rnd.sample(states, min(most, len(states)))


def post(port: int, path: str, data: Any) -> tuple[int, dict[str, str], Any]:
    """One JSON POST on a fresh connection: status, headers, JSON body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", path, body=json.dumps(data).encode(),
                     headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        raw = resp.read()
        try:
            return resp.status, dict(resp.getheaders()), json.loads(raw)
        except ValueError:
            return resp.status, dict(resp.getheaders()), None
    finally:
        conn.close()


def check(req: Req, status: int, headers: http.client.HTTPMessage, raw: bytes) -> tuple[str, str, int]:
    """(problem or "", build, canary round or -1) of one answer."""
    if req.kind == "hello":
        return ("" if status == 200 and raw == b"hello" else f"HTTP {status}"), "", -1
    if req.kind == "abuse":
        return abuse_problem(req, status, raw), headers.get("X-Rulekb-Build") or "", -1
    build = headers.get("X-Rulekb-Build") or ""
    if status != 200:
        return f"HTTP {status}: {raw[:160]!r}", build, -1
    try:
        body = json.loads(raw)
    except ValueError:
        return "answer is not JSON", build, -1
    if not build:
        return "no X-Rulekb-Build header", build, -1
    header = headers.get("X-Rulekb-Edition")
    if isinstance(body.get("ruleset"), str) and isinstance(body.get("edition"), str):
        said = f"{body['ruleset']} {body['edition']}"
    elif isinstance(body.get("candidates"), list):
        said = ", ".join(body["candidates"])
    else:
        said = None
    if said is not None and header != said:
        return f"X-Rulekb-Edition {header!r} but the body answers from {said!r}", build, -1
    if req.edition is not None and header != req.edition:
        return f"asked {req.edition!r}, answered from {header!r}", build, -1
    round_no = -1
    if req.kind == "canary":
        found = _ROUND.search(body.get("text", ""))
        if not found:
            return "canary rule without its round", build, -1
        round_no = int(found.group(1))
    return "", build, round_no


def abuse_problem(req: Req, status: int, raw: bytes) -> str:
    """What is wrong with the answer to an abusive request ("" when it is its 4xx, naming
    its limit)."""
    if status != req.status:
        return f"HTTP {status}, expected {req.status}: {raw[:160]!r}"
    if req.limit is None or abuse.limit_named(req.path, req.limit, raw):
        return ""
    if req.path.startswith("/api/"):
        return f"the error does not name {req.limit}: {raw[:160]!r}"
    return f"the page does not name {req.limit}"


# -- load processes ----------------------------------------------------------------------
# One answer: kind, start (epoch s), latency (ms), status, problem, build, canary round, client.
Record = tuple[str, float, float, int, str, str, int, int]


def _client(port: int, reqs: dict[str, list[Req]], weights: dict[str, int], deadline: float,
            max_requests: int, stop: Any, client: int, out: list[Record]) -> None:
    rnd = random.Random(client)
    kinds = [k for k in reqs if weights.get(k, 0) > 0]
    cum = [weights[k] for k in kinds]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    n = 0
    while n < max_requests and time.monotonic() < deadline and not stop.is_set():
        req = rnd.choice(reqs[rnd.choices(kinds, cum)[0]])
        headers = {"Content-Type": req.content_type or "application/json"} if req.body is not None else {}
        started, t0 = time.time(), time.perf_counter()
        try:
            conn.request(req.method, req.path, body=req.body, headers=headers)
            resp = conn.getresponse()
            raw = resp.read()
            latency = (time.perf_counter() - t0) * 1000
            problem, build, round_no = check(req, resp.status, resp.headers, raw)
            out.append((req.kind, started, latency, resp.status, problem, build, round_no, client))
        except (OSError, http.client.HTTPException) as exc:
            latency = (time.perf_counter() - t0) * 1000
            out.append((req.kind, started, latency, 0, f"{type(exc).__name__}: {exc}", "", -1, client))
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        n += 1
    conn.close()


def _load_process(port: int, reqs: dict[str, list[Req]], weights: dict[str, int], seconds: float,
                  max_requests: int, stop: Any, clients: list[int], queue: Any) -> None:
    deadline = time.monotonic() + seconds
    outs: list[list[Record]] = [[] for _ in clients]
    threads = [threading.Thread(target=_client, args=(port, reqs, weights, deadline, max_requests,
                                                      stop, c, o)) for c, o in zip(clients, outs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    queue.put([r for o in outs for r in o])


class Load:
    """The workload from ``procs`` separate processes with ``clients`` connections in all,
    until ``seconds`` pass, each connection has sent ``max_requests`` or :meth:`stop`."""

    def __init__(self, port: int, reqs: dict[str, list[Req]], weights: dict[str, int], *,
                 seconds: float, clients: int = 16, procs: int = 4, max_requests: int = 200_000):
        ctx = mp.get_context("spawn")
        self._stop, self._queue = ctx.Event(), ctx.Queue()
        groups = [list(range(clients))[i::procs] for i in range(procs)]
        self._procs = [ctx.Process(target=_load_process, daemon=True,
                                   args=(port, reqs, weights, seconds, max_requests, self._stop,
                                         g, self._queue)) for g in groups if g]
        self.started = time.time()
        for p in self._procs:
            p.start()

    def stop(self) -> None:
        self._stop.set()

    def join(self) -> list[Record]:
        records: list[Record] = []
        pending = len(self._procs)
        while pending:
            try:
                records += self._queue.get(timeout=1.0)
                pending -= 1
            except queue.Empty:
                if not any(p.is_alive() for p in self._procs) and self._queue.empty():
                    raise RuntimeError("a load process died without its results") from None
        for p in self._procs:
            p.join()
        return records


def run_load(port: int, reqs: dict[str, list[Req]], weights: dict[str, int], seconds: float,
             clients: int = 16, procs: int = 4) -> tuple[list[Record], float]:
    load = Load(port, reqs, weights, seconds=seconds, clients=clients, procs=procs)
    records = load.join()
    return records, _span(records)


def _span(records: list[Record]) -> float:
    if not records:
        return 0.0
    return max(r[1] + r[2] / 1000 for r in records) - min(r[1] for r in records)


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def summary(records: list[Record], seconds: float) -> dict[str, Any]:
    """Requests/s, median and p99 latency (ms), errors: overall and per kind."""
    def one(rs: list[Record]) -> dict[str, Any]:
        lat = [r[2] for r in rs]
        return {"requests": len(rs), "rps": round(len(rs) / seconds, 1) if seconds else 0.0,
                "median_ms": round(statistics.median(lat), 2) if lat else None,
                "p99_ms": round(pct(lat, 99), 2) if lat else None,
                "max_ms": round(max(lat), 1) if lat else None,
                "errors": sum(1 for r in rs if r[4])}
    by_kind: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_kind[r[0]].append(r)
    problems = Counter(r[4] for r in records if r[4])
    return {"seconds": round(seconds, 1), "all": one(records),
            "kinds": {k: one(v) for k, v in sorted(by_kind.items())},
            "honest_errors": sum(1 for r in records if r[4] and r[0] != "abuse"),
            "server_errors_5xx": sum(1 for r in records if r[3] >= 500),
            "problems": dict(problems.most_common(10))}


# -- rebuilds and a killed build -----------------------------------------------------------
@dataclass
class RebuildReport:
    rounds: list[dict[str, Any]] = field(default_factory=list)  # round, build, seconds
    killed: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def rebuild_loop(home: Path, rounds: int, first_round: int = 1) -> RebuildReport:
    """Re-import the canary with a new round number and rebuild, ``rounds`` times."""
    report = RebuildReport()
    for k in range(first_round, first_round + rounds):
        seconds = import_canary(home, k)
        report.rounds.append({"round": k, "build": current_target(home), "seconds": round(seconds, 2)})
    return report


def killed_build(home: Path, port: int, after_editions: int) -> dict[str, Any]:
    """Start ``rulekb build`` from nothing (the stored edition objects removed, so it reads
    every document again), SIGKILL it once it has built ``after_editions`` editions (written
    into the object store, not yet into a build), then check that ``current`` and the served
    build are still the last good one."""
    before = current_target(home)
    shutil.rmtree(home / "objects", ignore_errors=True)  # builds keep their own links to them
    proc = subprocess.Popen([*RULEKB, "build"], cwd=REPO, env={**os.environ, "RULEKB_HOME": str(home)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = 0
    for line in proc.stderr:
        if ": read " in line:
            seen += 1
            if seen >= after_editions:
                break
    partial = sorted(p.name for p in (home / "builds").glob(".tmp-*"))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    proc.stderr.close()
    leftovers = [p for p in (home / "builds").glob(".tmp-*") if p.name in partial]
    written = sum(1 for p in leftovers for _ in p.glob("editions/*/*.pickle"))
    written += sum(1 for _ in (home / "objects" / "editions").glob("*/graph.pickle"))
    time.sleep(2.5)  # more than the server's reload interval
    status, headers, body = get(port, f"/api/v1/rulesets/{CANARY[0]}/rules/{CANARY_RULE}")
    return {"killed": proc.returncode == -signal.SIGKILL, "returncode": proc.returncode,
            "editions_read_before_kill": seen, "pickles_in_temp_folder": written,
            "current_before": before, "current_after": current_target(home),
            "served_after": headers.get("X-Rulekb-Build"), "status_after": status,
            "round_after": int(_ROUND.search(body["text"]).group(1)) if status == 200 else None}


def consistency(records: list[Record], build_round: dict[str, int]) -> list[str]:
    """Mixed answers among the canary records: a build paired with another build's round,
    a build nobody made, or a client seeing an older round after a newer one."""
    problems: list[str] = []
    seen: dict[str, set[int]] = defaultdict(set)
    for r in records:
        if r[0] == "canary" and not r[4]:
            seen[r[5]].add(r[6])
    for build, rounds in sorted(seen.items()):
        if build not in build_round:
            problems.append(f"answers from build {build}, which no rebuild made (rounds {sorted(rounds)})")
        elif rounds != {build_round[build]}:
            problems.append(f"build {build} (round {build_round[build]}) answered rounds {sorted(rounds)}")
    last: dict[int, tuple[float, int]] = {}
    for r in sorted((r for r in records if r[0] == "canary" and not r[4]), key=lambda r: r[1]):
        prev = last.get(r[7])
        if prev is not None and r[6] < prev[1]:
            problems.append(f"client {r[7]} saw round {r[6]} after round {prev[1]}")
        last[r[7]] = (r[1], r[6])
    return problems


def wait_for_round(port: int, round_no: int, timeout: float = 60) -> float | None:
    """Seconds until the server answers the canary of ``round_no`` (None on timeout)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        status, _, body = get(port, f"/api/v1/rulesets/{CANARY[0]}/rules/{CANARY_RULE}")
        if status == 200 and _ROUND.search(body.get("text", "")) and \
                int(_ROUND.search(body["text"]).group(1)) == round_no:
            return time.monotonic() - started
        time.sleep(0.1)
    return None


def rebuild_under_load(home: Path, port: int, reqs: dict[str, list[Req]], *, rounds: int,
                       kill_after: int, clients: int, procs: int,
                       weights: dict[str, int] | None = None,
                       max_seconds: float = 1800) -> dict[str, Any]:
    """The rebuild loop and a killed build while the workload (with canary lookups) runs."""
    weights = weights or {**WEIGHTS, "canary": 20}
    build_round = {current_target(home) or "": 0}
    load_before = os.getloadavg()[0]
    load = Load(port, reqs, weights, seconds=max_seconds, clients=clients, procs=procs)
    try:
        time.sleep(1.0)
        report = rebuild_loop(home, rounds)
        for r in report.rounds:
            build_round[r["build"]] = r["round"]
        served_last = wait_for_round(port, rounds)
        report.killed = killed_build(home, port, kill_after) if kill_after >= 0 else {}
        time.sleep(1.0)
    finally:
        load.stop()
        records = load.join()
    k = report.killed
    if k:
        if not k["killed"]:
            report.problems.append(f"the build was not killed halfway (exit {k['returncode']})")
        if k["current_after"] != k["current_before"]:
            report.problems.append(f"killed build moved current to {k['current_after']}")
        if k["served_after"] != k["current_before"] or k["round_after"] != rounds:
            report.problems.append(f"after the killed build the server answers from "
                                   f"{k['served_after']} round {k['round_after']}")
    if served_last is None:
        report.problems.append(f"the server never answered round {rounds}")
    mixed = consistency(records, build_round)
    return {"rounds": report.rounds, "killed": report.killed, "last_round_served_after_s":
            None if served_last is None else round(served_last, 2),
            "builds_seen": len({r[5] for r in records if r[0] == "canary" and r[5]}),
            "load": {**summary(records, _span(records)),
                     "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)]},
            "mixed": mixed,
            "failed": sum(1 for r in records if r[4]),
            "problems": report.problems + mixed}


# -- the command -------------------------------------------------------------------------
def _table(results: dict[str, dict[str, Any]]) -> str:
    lines = ["| phase | kind | requests | req/s | median ms | p99 ms | max ms | errors "
             "| server CPU ms/req | load avg (1 min) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for phase, s in results.items():
        for kind, v in [("all", s["all"]), *s["kinds"].items()]:
            cpu = s.get("server_cpu_ms_per_request", "") if kind == "all" else ""
            load = "→".join(map(str, s.get("load_average_1min", []))) if kind == "all" else ""
            lines.append(f"| {phase} | {kind} | {v['requests']} | {v['rps']} | {v['median_ms']} | "
                         f"{v['p99_ms']} | {v['max_ms']} | {v['errors']} | {cpu} | {load} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=60, help="Length of the load phase.")
    ap.add_argument("--baseline-seconds", type=float, default=10,
                    help="Length of the bare /api/_hello phase (0: none).")
    ap.add_argument("--per-kind-seconds", type=float, default=8,
                    help="Length of a phase of each kind alone, after the mixed one (0: none).")
    ap.add_argument("--clients", type=int, default=16, help="Concurrent keep-alive connections.")
    ap.add_argument("--procs", type=int, default=4, help="Load processes the clients share.")
    ap.add_argument("--threads", type=int, default=8, help="Server worker threads.")
    ap.add_argument("--abuse-seconds", type=float, default=0,
                    help="Length of the mixed load with abusive requests mixed in (0: none).")
    ap.add_argument("--rebuilds", type=int, default=10, help="Import+rebuild rounds under load.")
    ap.add_argument("--no-kill", action="store_true", help="Skip the killed build.")
    ap.add_argument("--home", type=Path, default=None, help="Keep the data directory here.")
    ap.add_argument("--json", type=Path, default=None, help="Write every figure as JSON here.")
    args = ap.parse_args(argv)
    if not CORPORA.is_dir():
        print(f"needs the real rule documents in {CORPORA}", file=sys.stderr)
        return 2
    tmp = None
    if args.home is None:
        tmp = tempfile.TemporaryDirectory(prefix="rulekb-load-")
        args.home = Path(tmp.name)
    print(f"data directory {args.home}: importing {len(CORPUS)} editions and the canary", file=sys.stderr)
    prepared = prepare_home(args.home)
    out: dict[str, Any] = {"prepare_s": round(prepared, 1), "clients": args.clients,
                           "procs": args.procs, "server_threads": args.threads}
    with Server(args.home, threads=args.threads) as server:
        reqs = workload(server.port)
        out["kinds"] = {k: len(v) for k, v in reqs.items()}
        out["memory_started_kb"] = server.memory()
        print(f"serving on port {server.port}; kinds {out['kinds']}", file=sys.stderr)
        phases: dict[str, dict[str, Any]] = {}
        run_load(server.port, reqs, WEIGHTS, 3, args.clients, args.procs)  # warm caches

        def measure(name: str, weights: dict[str, int], seconds: float) -> None:
            cpu, load_before = server.cpu_seconds(), os.getloadavg()[0]
            recs, span = run_load(server.port, reqs, weights, seconds, args.clients, args.procs)
            cpu = server.cpu_seconds() - cpu
            phases[name] = {**summary(recs, span),
                            "server_cpu_ms_per_request": round(1000 * cpu / max(1, len(recs)), 3),
                            "server_cpu_share": round(cpu / span, 2) if span else None,
                            "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)]}
        if args.baseline_seconds:
            measure("hello (ceiling)", {"hello": 1}, args.baseline_seconds)
        measure("mixed", WEIGHTS, args.seconds)
        for kind in (k for k in WEIGHTS if WEIGHTS[k] and k in reqs and args.per_kind_seconds):
            measure(f"{kind} alone", {kind: 1}, args.per_kind_seconds)
        out["memory_after_load_kb"] = server.memory()
        if args.abuse_seconds:
            rss_before = server.memory()["VmRSS"]
            measure("mixed + abuse", {**WEIGHTS, "abuse": ABUSE_WEIGHT}, args.abuse_seconds)
            out["memory_after_abuse_kb"] = server.memory()
            out["abuse"] = {"rss_growth_mb": round((out["memory_after_abuse_kb"]["VmRSS"] - rss_before) / 1024, 1),
                            "honest_errors": phases["mixed + abuse"]["honest_errors"],
                            "server_errors_5xx": phases["mixed + abuse"]["server_errors_5xx"]}
        print(_table(phases), file=sys.stderr)
        if args.rebuilds:
            out["rebuild"] = rebuild_under_load(
                args.home, server.port, reqs, rounds=args.rebuilds,
                kill_after=-1 if args.no_kill else len(CORPUS) // 2,
                clients=args.clients, procs=args.procs)
            phases["during rebuilds"] = out["rebuild"]["load"]
            out["memory_after_rebuilds_kb"] = server.memory()
        out["phases"] = phases
    print(_table(phases))
    print(json.dumps({k: v for k, v in out.items() if k != "phases"}, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    if tmp is not None:
        tmp.cleanup()
    failed = phases["mixed"]["all"]["errors"] + len(out.get("rebuild", {}).get("problems", []))
    if "mixed + abuse" in phases:
        failed += phases["mixed + abuse"]["all"]["errors"] + phases["mixed + abuse"]["server_errors_5xx"]
    failed += out.get("rebuild", {}).get("failed", 0)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
