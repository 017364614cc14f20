"""Reading and building every real edition: the foundation's cost, per stage.

For each document in ../shared/corpora: decoding it (the baseline: what any reader must
pay), reading it into raw rules, and building its graph (hierarchy, references, terms);
medians of several runs in one process, with ratios to the baseline.

    .venv/bin/python -m bench.build [--runs 5]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not CORPORA.is_dir():
        raise SystemExit(f"needs the real documents in {CORPORA}")
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
