"""Reading and building every real edition: the foundation's cost, per stage.

For each document in ../shared/corpora: decoding it (the baseline: what any reader must
pay), reading it into raw rules, and building its graph (hierarchy, references, terms);
medians of several runs in one process, with ratios to the baseline.

    .venv/bin/python -m bench.build [--runs 5]
    .venv/bin/python -m bench.build --archive [--runs 1]   # read only: the 70 Magic releases
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from bench.corpora import CORPORA, CORPUS_EDITIONS
from kb.graph import build_edition
from kb.read import read_text
from kb.read.text import decode

def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cpu_seconds(fn: Callable[[], object], runs: int) -> float:
    """The median CPU time of ``fn`` (what a shared, busy machine does not inflate)."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--archive", action="store_true",
                        help="read cost of each Magic archive release (read only)")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        raise SystemExit(f"needs the real documents in {CORPORA}")
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
