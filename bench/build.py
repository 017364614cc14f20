"""Reading and building every real edition: the foundation's cost, per stage.

For each document in ../shared/corpora: decoding it (the baseline: what any reader must
pay), reading it into raw rules, and building its graph (hierarchy, references, terms);
medians of several runs in one process, with ratios to the baseline.

    .venv/bin/python -m bench.build [--runs 5]
    .venv/bin/python -m bench.build --archive [--runs 1]   # read only: the 70 Magic releases
    .venv/bin/python -m bench.build --history-home /tmp/rulekb-history   # issue #19's figures

``--history-home DIR`` (a fresh folder, never your data) imports the 70 Magic archive
releases one at a time, each import rebuilding (the cost of the k-th import against k), then
one more import (the 2026-01-16 release), a full build from nothing (objects removed), a
server started on it (ready after, first answers, RSS with every edition available) and a
rule's history across every edition. ``--steps`` picks some of: imports, more, full, serve,
noop (a rebuild with nothing changed), history, importall (the 71 imported without
building), stats (``rulekb stats`` on the home); a later step reuses the home an earlier
run left.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from bench.corpora import CORPORA, CORPUS_EDITIONS
from bench.load import memory_kb
from kb.graph import build_edition
from kb.read import read_text
from kb.read.text import decode

def median_seconds(fn: Callable[[], object], runs: int,
                   clock: Callable[[], float] = time.perf_counter) -> float:
    """The median time of ``fn`` on ``clock`` (wall time unless told)."""
    times = []
    for _ in range(runs):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def cpu_seconds(fn: Callable[[], object], runs: int) -> float:
    """The median CPU time of ``fn`` (what a shared, busy machine does not inflate)."""
    return median_seconds(fn, runs, time.process_time)


def archive(runs: int) -> None:
    """Read cost per Magic archive release (decode + read, no graph): a row per edition."""
    files = sorted((CORPORA / "mtg" / "archive").glob("comprehensive-rules-*.txt"))
    print("| release | entries | reader notes | read (CPU) | per 1,000 entries |")
    print("|---|---:|---:|---:|---:|")
    total_cpu = total_entries = 0.0
    for path in files:
        data = path.read_bytes()
        result = read_text(decode(data), path.name)
        cpu = cpu_seconds(lambda: read_text(decode(data), path.name), runs)
        notes = sum(d.severity != "error" for d in result.diagnostics)
        total_cpu += cpu
        total_entries += len(result.rules)
        print(f"| {path.name.removeprefix('comprehensive-rules-').removesuffix('.txt')} | "
              f"{len(result.rules)} | {notes} | {cpu * 1000:.0f} ms | "
              f"{cpu * 1e6 / len(result.rules):.0f} ms |")
    print(f"| all {len(files)} | {total_entries:.0f} | | {total_cpu:.1f} s | "
          f"{total_cpu * 1e6 / total_entries:.0f} ms |")


def _cpu_now() -> float:
    """CPU seconds of this process and its finished children (the build's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def _timed_import(home: Path, file: Path, edition: str) -> dict:
    """Import one Magic release and rebuild; wall and CPU seconds, what was built and reused."""
    from kb.store import build, import_document
    report = {}
    wall, cpu = time.perf_counter(), _cpu_now()
    import_document(home, file, ruleset="mtg", edition=edition,
                    rebuild=lambda: report.setdefault("r", build(home, rules=home / "no-embedded-rules")))
    r = report["r"]
    return {"edition": edition, "wall": time.perf_counter() - wall, "cpu": _cpu_now() - cpu,
            "built": len(r.built), "reused": len(r.reused), "mappings_built": len(r.mappings_built),
            "build_wall": r.seconds}


def history_imports(home: Path) -> None:
    """The 70 archive releases imported one at a time: the k-th import's cost against k."""
    files = sorted((CORPORA / "mtg" / "archive").glob("comprehensive-rules-*.txt"))
    print(f"imports into {home} ({_load()} at the start)")
    print("| k (editions after the import) | edition | import + build (wall) | CPU | editions built | reused | mappings built |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    rows = []
    for k, file in enumerate(files, 1):
        row = _timed_import(home, file, file.stem.removeprefix("comprehensive-rules-"))
        rows.append(row)
        if k in (1, 2, 5) or k % 10 == 0 or k == len(files):
            print(f"| {k} | {row['edition']} | {row['wall']:.1f} s | {row['cpu']:.1f} s | {row['built']} | "
                  f"{row['reused']} | {row['mappings_built']} |", flush=True)
    print(f"all {len(files)} imports: {sum(r['wall'] for r in rows):.0f} s wall, "
          f"{sum(r['cpu'] for r in rows):.0f} s CPU ({_load()} at the end)")
    (home / "bench-imports.json").write_text(json.dumps(rows), encoding="utf-8")


def history_more(home: Path) -> None:
    """One more import (the full 2026-01-16 release) into the home holding the 70 (a
    previous run's import of it is removed first, and the home rebuilt without it)."""
    from kb.store import build
    if (home / "imports" / "mtg" / "2026-01-16").exists():
        shutil.rmtree(home / "imports" / "mtg" / "2026-01-16")
        build(home, rules=home / "no-embedded-rules")
    for obj in (home / "objects" / "editions").glob("*/object.json"):  # its stored object too:
        if json.loads(obj.read_text(encoding="utf-8"))["summary"]["edition"] == "2026-01-16":
            shutil.rmtree(obj.parent)  # a new document, not one seen before (old builds keep links)
    row = _timed_import(home, CORPORA / "mtg" / "comprehensive-rules-2026-01-16.txt", "2026-01-16")
    print(f"one more import (mtg 2026-01-16, build included): {row['wall']:.1f} s wall, {row['cpu']:.1f} s CPU; "
          f"{row['built']} edition and {row['mappings_built']} mapping built, {row['reused']} editions reused "
          f"(the build alone {row['build_wall']:.1f} s; {_load()})")


def history_full(home: Path) -> None:
    """A full build from nothing: every stored object and build removed first."""
    from kb.store import build
    for folder in ("objects", "builds"):
        shutil.rmtree(home / folder, ignore_errors=True)
    (home / "current").unlink(missing_ok=True)
    wall, cpu = time.perf_counter(), _cpu_now()
    r = build(home, rules=home / "no-embedded-rules")
    print(f"full build from nothing: {len(r.built)} editions and {len(r.mappings_built)} mappings in "
          f"{time.perf_counter() - wall:.0f} s wall, {_cpu_now() - cpu:.0f} s CPU over {os.cpu_count()} "
          f"workers ({_load()})")


def history_noop(home: Path, runs: int) -> None:
    """A rebuild with nothing changed: what every import pays for the editions it reuses."""
    from kb.store import build
    from kb.query import KnowledgeBase
    editions = len(KnowledgeBase.open(home).manifest["editions"])
    wall, cpu = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), _cpu_now()
        build(home, rules=home / "no-embedded-rules")
        wall.append(time.perf_counter() - w)
        cpu.append(_cpu_now() - c)
    print(f"rebuild with nothing changed, {editions} editions reused: median {statistics.median(wall):.2f} s wall, "
          f"{statistics.median(cpu):.2f} s CPU ({statistics.median(cpu) * 1000 / editions:.1f} ms CPU per edition; "
          f"{_load()})")


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _rss_mb(pid: int) -> float:
    return memory_kb(pid)["VmRSS"] / 1024


def history_serve(home: Path) -> None:
    """``rulekb serve`` on the home: seconds until ready, the first answers' latency, RSS."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "RULEKB_HOME": str(home)}
    started = time.perf_counter()
    server = subprocess.Popen([str(Path(sys.executable).with_name("rulekb")), "serve", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}/api/v1"
    try:
        while True:
            if server.poll() is not None:
                raise SystemExit(f"rulekb serve exited: {server.stderr.read() if server.stderr else ''}")
            try:
                status, body = _get(f"{base}/health")
                if status == 200 and json.loads(body).get("ready"):
                    break
            except OSError:
                pass
            time.sleep(0.05)
        ready = time.perf_counter() - started
        print(f"server ready {ready:.1f} s after start, RSS {_rss_mb(server.pid):.0f} MB ({_load()})")
        eds = json.loads(_get(f"{base}/rulesets/mtg/editions")[1])["editions"]
        for what, url in [("rule 117.3 (newest)", f"{base}/rulesets/mtg/rules/117.3"),
                          ("rule 117.3 again", f"{base}/rulesets/mtg/rules/117.3"),
                          ("search 'priority' (newest)", f"{base}/search?q=priority&ruleset=mtg"),
                          ("history of 117.3, all editions", f"{base}/rulesets/mtg/rules/117.3/history"),
                          ("history of 117.3 again", f"{base}/rulesets/mtg/rules/117.3/history"),
                          (f"rule 100.1 of {eds[0]['edition']} (oldest)",
                           f"{base}/rulesets/mtg/rules/100.1?edition={eds[0]['edition']}")]:
            t = time.perf_counter()
            status, _ = _get(url)
            print(f"  {what}: {status} in {(time.perf_counter() - t) * 1000:.0f} ms")
        for e in eds:  # every edition asked once: the LRU keeps memory bounded
            _get(f"{base}/rulesets/mtg/rules/100.1?edition={e['edition']}")
        print(f"after one rule from each of the {len(eds)} editions: RSS {_rss_mb(server.pid):.0f} MB")
        t = time.perf_counter()
        for e in eds:  # and one search in each: the searchers go with their graphs
            _get(f"{base}/search?q=priority&ruleset=mtg&edition={e['edition']}")
        print(f"after one search in each of the {len(eds)} editions too: RSS {_rss_mb(server.pid):.0f} MB "
              f"({(time.perf_counter() - t) / len(eds) * 1000:.0f} ms per search, graph load included)")
        t = time.perf_counter()
        for e in eds[:20]:  # old editions' first rule answers (their timing citations stored)
            _get(f"{base}/rulesets/mtg/rules/117.3?edition={e['edition']}")
        print(f"rule 117.3 of the 20 oldest editions again: {(time.perf_counter() - t) / 20 * 1000:.0f} ms each; "
              f"RSS {_rss_mb(server.pid):.0f} MB ({_load()})")
    finally:
        server.terminate()
        server.wait(timeout=30)


def history_import_all(home: Path) -> None:
    """The 70 archive releases and the 2026-01-16 release imported without building (the
    quickest way to a home for ``full``, ``serve`` and ``stats``)."""
    from kb.store import CutShortError, import_document
    files = sorted((CORPORA / "mtg" / "archive").glob("comprehensive-rules-*.txt"))
    files.append(CORPORA / "mtg" / "comprehensive-rules-2026-01-16.txt")
    for file in files:
        edition = file.stem.removeprefix("comprehensive-rules-")
        try:
            import_document(home, file, ruleset="mtg", edition=edition)
        except CutShortError:  # the archive's 2013-02-01 file is cut short: kept as an excerpt
            import_document(home, file, ruleset="mtg", edition=edition, partial=True)
    print(f"imported {len(files)} editions without building ({_load()})")


def history_stats(home: Path) -> None:
    """``rulekb stats --json`` on the home, wall and CPU (its own process)."""
    wall, cpu = time.perf_counter(), _cpu_now()
    done = subprocess.run([str(Path(sys.executable).with_name("rulekb")), "--home", str(home), "stats", "--json"],
                          capture_output=True, text=True, check=True)
    print(f"rulekb stats --json over {len(json.loads(done.stdout))} editions: {time.perf_counter() - wall:.1f} s wall, "
          f"{_cpu_now() - cpu:.1f} s CPU ({_load()})")


def history_query(home: Path, runs: int) -> None:
    """A rule's history across every edition, in process: the first call and the median."""
    from kb.query import KnowledgeBase
    kb = KnowledgeBase.open(home)
    for number in ("117.3", "100.1", "702.2"):
        t = time.perf_counter()
        first = kb.history("mtg", number)
        cold = time.perf_counter() - t
        warm = median_seconds(lambda: kb.history("mtg", number), runs)
        moved = sum(row["status"] == "moved" for row in first["editions"])
        print(f"history of {number}: {len(first['editions'])} editions ({moved} moves), first {cold * 1000:.0f} ms, "
              f"median {warm * 1000:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--archive", action="store_true",
                        help="read cost of each Magic archive release (read only)")
    parser.add_argument("--history-home", type=Path, default=None,
                        help="issue #19's figures, in this (fresh) data directory")
    parser.add_argument("--steps", default="imports,more,full,serve,history",
                        help="with --history-home: which steps, comma-separated")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        raise SystemExit(f"needs the real documents in {CORPORA}")
    if args.history_home is not None:
        steps = {"imports": history_imports, "more": history_more, "full": history_full,
                 "serve": history_serve, "noop": lambda home: history_noop(home, args.runs),
                 "importall": history_import_all, "stats": history_stats, "history": lambda home: history_query(home, args.runs)}
        args.history_home.mkdir(parents=True, exist_ok=True)
        (args.history_home / "no-embedded-rules").mkdir(exist_ok=True)
        for step in args.steps.split(","):
            steps[step](args.history_home)
        return
    if args.archive:
        archive(args.runs)
        return
    print("| edition | rules | decode (baseline) | read | build graph | read ÷ decode | build ÷ decode |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for ruleset, edition, _, rel in CORPUS_EDITIONS:
        data = (CORPORA / rel).read_bytes()
        text = decode(data)
        result = read_text(text, rel)
        t_decode = median_seconds(lambda: decode(data), args.runs)
        t_read = median_seconds(lambda: read_text(text, rel), args.runs)
        t_build = median_seconds(lambda: build_edition(result, ruleset=ruleset, edition=edition), args.runs)
        rules = len(result.rules)
        print(f"| {ruleset} {edition} | {rules} | {t_decode * 1000:.1f} ms | {t_read * 1000:.0f} ms | "
              f"{t_build * 1000:.0f} ms | {t_read / t_decode:.0f}× | {t_build / t_decode:.0f}× |")


if __name__ == "__main__":
    main()
