"""The JSON API over HTTP: rule lookups and searches against a running ``rulekb serve``.

    .venv/bin/python -m bench.api                      # 1 and 16 clients, 3 runs of 4 s each
    .venv/bin/python -m bench.api --no-cache           # every answer computed afresh
    .venv/bin/python -m bench.api --runs 5 --seconds 6 --clients 1 4 16

The bench builds a data directory (the embedded corpus, plus the full Riftbound 1.4 and
Magic 2026-01-16 documents when ../shared/corpora is there), starts ``rulekb serve`` on a
free loopback port as a subprocess (waitress, its default threads) with the hidden bare
Flask view ``/api/_hello`` turned on (``RULEKB_API_HELLO=1``), and drives it from a separate
load process: N client threads, each with its own keep-alive connection, asking in a loop
for a fixed duration. Scenarios:

- ``hello``: the bare Flask view on the same server, the ceiling;
- ``rule``: ``GET /api/v1/rulesets/{ruleset}/rules/{number}`` over a fixed sample of rules;
- ``search``: ``GET /api/v1/search?q=…`` over judge-style questions.

Each (scenario, clients) is measured ``--runs`` times, interleaved, after a warm-up pass over
every URL (so with the server's cache of recent answers on, the default, the timed
lookups are answered from it; ``--no-cache`` measures the facade on every request); the
table gives the median over runs of the median latency, the p99 latency and
requests/s, and the errors summed over runs (a non-200 answer or a failed request). Ratios
compare with ``hello`` at the same number of clients. The goal (issue 11) at 16 clients:
zero errors, rule lookups at more than half the requests/s of ``hello`` and their p99 within
2x of its p99.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import quote

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULEKB_SHARED", REPO.parent / "shared"))
FULL = [("riftbound", "1.4", "2026-07-16", "riftbound/core-rules-2026-07-16.md"),
        ("mtg", "2026-01-16", "2026-01-16", "mtg/comprehensive-rules-2026-01-16.txt")]
QUESTIONS = ["finalize chain item", "what is a task", "priority pass", "showdown focus",
             "combat damage", "state-based actions", "hidden information", "legend ability",
             "337.1a", "chain pending", "in:337 priority", "conquer battlefield", "mulligan",
             "draw a card", "triggered ability", "\"pass priority\""]


# -- the server ---------------------------------------------------------------------------
def prepare_home(folder: Path) -> list[str]:
    """Build a data directory; the editions in it."""
    from kb.store import build, import_document
    notes = []
    if (SHARED / "corpora").is_dir():
        for ruleset, edition, date, rel in FULL:
            import_document(folder, SHARED / "corpora" / rel, ruleset=ruleset, edition=edition, date=date)
            notes.append(f"{ruleset} {edition}")
    report = build(folder)
    return notes or [f"{e['ruleset']} {e['edition']} (embedded excerpt)" for e in report.editions]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(home: Path, port: int, log: Path, cache: bool = True) -> subprocess.Popen[bytes]:
    """``rulekb serve`` on loopback; its log goes to a file (a pipe nobody reads would fill
    up with waitress's queue warnings and stall the server)."""
    rulekb = Path(sys.executable).with_name("rulekb")
    env = {**os.environ, "RULEKB_HOME": str(home), "RULEKB_API_HELLO": "1"}
    if not cache:
        env["RULEKB_API_CACHE_BYTES"] = "0"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(rulekb), "serve", "--host", "127.0.0.1", "--port", str(port)],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"rulekb serve exited:\n{log.read_text(errors='replace')}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/_hello")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("rulekb serve did not answer within 60 s")


# -- the load process -------------------------------------------------------------------------
def load(port: int, urls: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """Run in the load process: ``clients`` threads asking in a loop for ``seconds``."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    errors = [0] * clients
    start = threading.Barrier(clients + 1)
    stop_at = [0.0]

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine, i = latencies[k], k * 7919
        start.wait()
        while True:
            url = urls[i % len(urls)]
            i += 1
            t0 = time.perf_counter()
            if t0 >= stop_at[0]:
                break
            try:
                conn.request("GET", url)
                resp = conn.getresponse()
                body = resp.read()
                if resp.status != 200 or not body:
                    errors[k] += 1
            except (OSError, http.client.HTTPException):
                errors[k] += 1
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - t0)
        conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    began = time.perf_counter()
    stop_at[0] = began + seconds
    start.wait()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - began
    every = sorted(x for lat in latencies for x in lat)
    return {"requests": len(every), "errors": sum(errors), "rps": len(every) / elapsed,
            "median_ms": 1000 * statistics.median(every) if every else float("nan"),
            "p99_ms": 1000 * every[min(len(every) - 1, int(len(every) * 0.99))] if every else float("nan")}


def _load_entry(conn: Any, port: int, urls: list[str], clients: int, seconds: float) -> None:
    conn.send(load(port, urls, clients, seconds))
    conn.close()


def measure(port: int, urls: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """One measurement from a separate (spawned) load process."""
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_load_entry, args=(child, port, urls, clients, seconds))
    proc.start()
    result = parent.recv()
    proc.join()
    return result


# -- the scenarios ----------------------------------------------------------------------------
def scenarios(port: int) -> dict[str, list[str]]:
    """URLs per scenario, from what the server says it holds (a fixed sample)."""
    import json
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def get(url: str) -> Any:
        conn.request("GET", url)
        return json.loads(conn.getresponse().read())
    rng = random.Random(11)
    rules = []
    for rs in get("/api/v1/rulesets")["rulesets"]:
        if rs["name"] not in ("riftbound", "mtg"):
            continue
        nodes = [n["number"] for n in get(f"/api/v1/rulesets/{rs['name']}/structure")["nodes"]]
        rules += [f"/api/v1/rulesets/{rs['name']}/rules/{quote(n)}" for n in rng.sample(nodes, min(150, len(nodes)))]
    rng.shuffle(rules)
    searches = [f"/api/v1/search?q={quote(q)}&ruleset=riftbound" for q in QUESTIONS]
    return {"hello": ["/api/_hello"], "rule": rules, "search": searches}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--no-cache", action="store_true",
                        help="Turn off the server's cache of recent answers (every lookup is "
                             "answered afresh by the facade).")
    parser.add_argument("--home", type=Path, default=None,
                        help="Serve this data directory instead of building one.")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="rulekb-bench-api-") as tmp:
        home = args.home or Path(tmp) / "home"
        editions = ["(as built)"] if args.home else prepare_home(home)
        port = free_port()
        server = start_server(home, port, Path(tmp) / "serve.log", cache=not args.no_cache)
        try:
            urls = scenarios(port)
            for name, group in urls.items():  # warm every URL once (opens the search index)
                for url in group:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    conn.request("GET", url)
                    status = conn.getresponse().status
                    if status != 200:
                        raise SystemExit(f"{url} answered {status} during warm-up")
            results: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for run in range(args.runs):
                for clients in args.clients:
                    for name, group in urls.items():
                        r = measure(port, group, clients, args.seconds)
                        results.setdefault((name, clients), []).append(r)
                        print(f"run {run + 1}: {name:<6} {clients:>2} clients  {r['rps']:7.0f} req/s  "
                              f"median {r['median_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  "
                              f"errors {r['errors']}", file=sys.stderr)
        finally:
            server.terminate()
            server.wait(timeout=10)

    print(f"\nAnswer cache {'off' if args.no_cache else 'on'}. "
          f"Editions served: {', '.join(editions)}; {len(urls['rule'])} rules, "
          f"{len(urls['search'])} questions; {args.runs} runs x {args.seconds:g} s per row; "
          f"{os.cpu_count()} cores.\n")
    print("| scenario | clients | median ms | p99 ms | req/s | errors | req/s vs hello | p99 vs hello |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    summary = {}
    for (name, clients), runs in results.items():
        med = {k: statistics.median(r[k] for r in runs) for k in ("median_ms", "p99_ms", "rps")}
        summary[(name, clients)] = {**med, "errors": sum(r["errors"] for r in runs)}
    for (name, clients), s in sorted(summary.items(), key=lambda kv: (kv[0][1], kv[0][0] != "hello", kv[0][0])):
        base = summary[("hello", clients)]
        print(f"| {name} | {clients} | {s['median_ms']:.2f} | {s['p99_ms']:.2f} | {s['rps']:.0f} | "
              f"{s['errors']} | {s['rps'] / base['rps']:.2f} | {s['p99_ms'] / base['p99_ms']:.2f} |")
    top = max(args.clients)
    rule, base = summary[("rule", top)], summary[("hello", top)]
    errors = sum(s["errors"] for s in summary.values())
    print(f"\nGoal at {top} clients: zero errors ({'met' if errors == 0 else f'NOT met: {errors}'}); "
          f"rule req/s > 0.5x hello ({rule['rps'] / base['rps']:.2f}x, "
          f"{'met' if rule['rps'] > 0.5 * base['rps'] else 'NOT met'}); rule p99 within 2x hello "
          f"({rule['p99_ms'] / base['p99_ms']:.2f}x, {'met' if rule['p99_ms'] <= 2 * base['p99_ms'] else 'NOT met'}).")


if __name__ == "__main__":
    main()
