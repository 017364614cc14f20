"""Editions: how long a diff between two editions takes, and how good the mapping is.

    .venv/bin/python -m bench.editions              # 5 rounds
    .venv/bin/python -m bench.editions --rounds 9

Needs ``../shared/corpora``. For each pair of adjacent editions (Riftbound 1.0→1.2, 1.2→1.3,
1.3→1.4; Magic 2010-10-01→2026-01-16), measured in the same process on graphs already built:

- mapping: :func:`kb.editions.mapping.map_editions` (exact, near-identical, structure);
- diff: the mapping plus :func:`kb.editions.diff.diff_editions` (word-level changes of every
  paired rule, counts per chapter): what a first ``rulekb diff`` computes;
- facade, warm: ``KnowledgeBase.diff`` once the diff is cached (filtering, paging);
- baselines: building both editions' graphs from their read documents (what ``rulekb build``
  spends on the pair), and a naive line diff (``difflib.SequenceMatcher`` over the two lists
  of rule texts, which finds no moves and no word changes).

Medians over the rounds (one warm-up round first). Then precision and recall of the mapping
on each hand-labelled sample in ``tests/fixtures/editions``.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.editions.diff import diff_editions, display_text
from kb.editions.evaluate import load_sample, score
from kb.editions.mapping import map_editions
from kb.graph import RuleGraph, build_edition
from kb.model import ReadResult
from bench.corpora import CORPORA, CORPUS_EDITIONS
from kb.query import KnowledgeBase
from kb.read import read_document

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "tests" / "fixtures" / "editions"

EDITIONS = {(rs, ed): (date, rel) for rs, ed, date, rel in CORPUS_EDITIONS}
PAIRS = [("riftbound", "1.0", "1.2"), ("riftbound", "1.2", "1.3"), ("riftbound", "1.3", "1.4"),
         ("mtg", "2010-10-01", "2026-01-16")]


def timed(fn: Callable[[], Any], rounds: int) -> float:
    """Median seconds of ``fn`` over ``rounds`` runs, after one warm-up run."""
    fn()
    times = []
    gc.disable()
    try:
        for _ in range(rounds):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return statistics.median(times)


def naive_line_diff(old: RuleGraph, new: RuleGraph) -> int:
    a = [display_text(r) for r in old.edition.rules.values()]
    b = [display_text(r) for r in new.edition.rules.values()]
    return sum(1 for tag, *_ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
               if tag != "equal")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    if not CORPORA.is_dir():
        print(f"needs the rule documents in {CORPORA}", file=sys.stderr)
        return 2
    read: dict[tuple[str, str], tuple[ReadResult, str]] = {}
    graphs: dict[tuple[str, str], RuleGraph] = {}
    for key, (date, rel) in EDITIONS.items():
        read[key] = read_document(CORPORA / rel)
        graphs[key] = build_edition(read[key][0], ruleset=key[0], edition=key[1], date=date,
                                    source_format=read[key][1])
    kb = KnowledgeBase.from_graphs(list(graphs.values()))

    print(f"rounds: {args.rounds}\n")
    print("| editions | rules (old → new) | build both (baseline) | naive line diff | mapping | "
          "diff (mapping + words) | × build | facade, warm |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for ruleset, a, b in PAIRS:
        old, new = graphs[(ruleset, a)], graphs[(ruleset, b)]

        def build_both(ruleset: str = ruleset, a: str = a, b: str = b) -> None:
            for ed in (a, b):
                result, _ = read[(ruleset, ed)]
                build_edition(result, ruleset=ruleset, edition=ed)

        t_build = timed(build_both, args.rounds)
        t_naive = timed(lambda: naive_line_diff(old, new), args.rounds)
        t_map = timed(lambda: map_editions(old, new), args.rounds)
        t_diff = timed(lambda: diff_editions(old, new, map_editions(old, new)), args.rounds)
        kb.diff(ruleset, a, b)
        t_facade = timed(lambda: kb.diff(ruleset, a, b, only=["moved"]), args.rounds)
        print(f"| {ruleset} {a} → {b} | {len(old.edition.rules)} → {len(new.edition.rules)} | "
              f"{t_build * 1000:.0f} ms | {t_naive * 1000:.0f} ms | {t_map * 1000:.0f} ms | "
              f"{t_diff * 1000:.0f} ms | {t_diff / t_build:.2f}× | {t_facade * 1000:.1f} ms |")

    print("\n| sample | labelled | with a counterpart | removed | answered | correct | "
          "precision | recall | misses |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for path in sorted(SAMPLES.glob("*.yaml")):
        sample = load_sample(path)
        result = score(kb.edition_mapping(sample.ruleset, sample.source, sample.target), sample)
        misses = ", ".join(f"{e['number']}→{e['expected'] or '∅'} (got {e['got'] or '∅'})"
                           for e in result.errors) or "—"
        print(f"| {sample.ruleset} {sample.source} → {sample.target} | {result.labelled} | "
              f"{result.true_pairs} | {result.labelled - result.true_pairs} | {result.answered} | "
              f"{result.correct} | {result.precision:.3f} | {result.recall:.3f} | {misses} |")

    data = kb.diff("mtg", "2010-10-01", "2026-01-16")["summary"]
    print(f"\nMagic 2010-10-01 → 2026-01-16: {data['added']} added, {data['removed']} removed, "
          f"{data['changed']} changed, {data['moved']} moved ({data['renumbered_only']} renumbered only), "
          f"{data['unchanged']} unchanged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
