"""Offline counts: how many questions the offline pack counts and lists as the server does.

    .venv/bin/python -m bench.offline_counts --home DIR   # a home built with `rulekb build`

Every question of ``bench/relevance.yaml`` whose edition the home has, asked of the server
(``KnowledgeBase.search`` as the CLI, API and site ask it: with the earlier rulings) and of
each edition's offline index through ``offline-search.js`` in node, three ways: as the pack's
page asks it (the rulings it carries, :mod:`kb.export.rulings`), as the pack asked before it
carried them (the rules alone), and the rules alone on both sides. For each: the questions
whose ``total`` differs and those whose first 100 rules differ (number and order), and the
first few that differ. Then the ranges of rule numbers past the edition's rules or high to
low (``clamped``, :func:`kb.query.range_asked`): each one's rules listed and the server's median
milliseconds over 20 asks (the facade's answer cache is per build, so this is the repeat's
cost; the first ask's is printed beside it). Needs node.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.search import load_questions
from kb.export.jsrun import run_queries
from kb.query import KnowledgeBase
from web.pack import search_index_script

LIMIT = 100
RANGES = ["337-340", "1-9999", "9999-1", "1-1000000", "1-" + "9" * 190, "0-5"]
WAYS = {  # name: (the server asks with its rulings, the offline search with the pack's)
    "as the page asks (rulings on both)": (True, True),
    "before: the pack without rulings": (True, False),
    "the rules alone on both": (False, False),
}


def _listed(answer: dict[str, Any]) -> list[str]:
    return [h["number"] for h in answer.get("results", [])]


def main() -> None:
    """Print, for each way of asking, how many questions differ in count and in rules."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True, help="a data home built with rulekb build")
    args = parser.parse_args()
    kb = KnowledgeBase.open(args.home)
    built = {(e["ruleset"], e["edition"]) for e in kb.manifest["editions"]}
    questions = [q for q in load_questions() if (q.ruleset, q.edition) in built]
    with tempfile.TemporaryDirectory() as folder:
        indexes = []
        for ruleset, edition in sorted({(q.ruleset, q.edition) for q in questions}):
            path = Path(folder) / f"{ruleset}-{edition}.js"
            path.write_text(search_index_script(kb, ruleset, edition, lambda n: n), encoding="utf-8")
            indexes.append(path)
        print(f"{len(questions)} questions of bench/relevance.yaml, {len(indexes)} editions, limit {LIMIT}")
        for way, (server_rulings, offline_rulings) in WAYS.items():
            answers, _ = run_queries(indexes, [{"query": q.query, "ruleset": q.ruleset, "edition": q.edition,
                                                "limit": LIMIT, "rulings": offline_rulings} for q in questions])
            counts, rules = [], []
            for q, offline in zip(questions, answers):
                server = kb.search(q.query, q.ruleset, q.edition, limit=LIMIT, rulings=server_rulings)
                if offline.get("total") != server["total"]:
                    counts.append(f"{q.ruleset} {q.query!r}: server {server['total']}, offline {offline.get('total')}")
                if _listed(offline) != _listed(server):
                    rules.append(q.query)
            print(f"{way}: total differs for {len(counts)}, rules differ for {len(rules)}")
            for line in counts[:5]:
                print("   ", line)
    for ruleset in sorted({q.ruleset for q in questions}):
        for query in RANGES:
            started = time.perf_counter()
            answer = kb.search(query, ruleset, limit=10)
            first = time.perf_counter() - started
            times = []
            for _ in range(20):
                started = time.perf_counter()
                kb.search(query, ruleset, limit=10)
                times.append(time.perf_counter() - started)
            said = (answer["clamped"] or {}).get("message", "not clamped")
            print(f"{ruleset} {query[:24]}: {answer['total']} rules, first {first * 1000:.1f} ms, "
                  f"median {statistics.median(times) * 1000:.2f} ms; {said}")


if __name__ == "__main__":
    main()
