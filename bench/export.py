"""Export: time and size of the offline judge pack, and its search against the server's.

    .venv/bin/python -m bench.export                 # 3 runs, Riftbound 1.4 + Magic 2026-01-16
    .venv/bin/python -m bench.export --runs 5

* **Time**: ``export_site`` for Riftbound 1.4 + Magic 2026-01-16 (goal: under 30 s), from a
  knowledge base loaded as ``rulekb export`` loads it (graphs and the built search index),
  each run with fresh caches; median wall and CPU seconds, per stage. Baselines in the same
  process: copying the exported folder (the files alone), and the live site's one page per
  rule, timed on a sample of rules and scaled to all of them (why sections are pages).
* **Size**: the folder, by kind of file; the search indexes also gzipped (what a static host
  sends).
* **Search**: the relevance questions of ``bench/relevance.yaml`` asked of the server
  (``KnowledgeBase.search``) and of the exported index through ``offline-search.js`` in node:
  MRR over the top 10 and recall@3 of each (goal: offline within 10 % of the server), and how
  many questions get the same top 10.

Needs the real documents in ../shared/corpora (``RULEKB_SHARED`` to point elsewhere) and node.
"""

from __future__ import annotations

import argparse
import gzip
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.search import EDITIONS, load_graph, load_questions, scores
from kb.export import check_site
from kb.export.jsrun import node_path, run_queries
from kb.query import KnowledgeBase, QueryError
from kb.search import build_index
from kb.store import edition_summary
from web.export import ExportResult, export_site

EXPORTED = [("riftbound", "1.4"), ("mtg", "2026-01-16")]
SAMPLE = 300  # rules per edition rendered one page each for the per-rule baseline


def knowledge_base(graphs: list[Any], build_dir: Path) -> KnowledgeBase:
    """The editions with their search index built as ``rulekb build`` builds it."""
    for rg in graphs:
        build_index(rg, build_dir)
    manifest = {"build_id": "bench", "rulesets": {"riftbound": {"title": "Riftbound Core Rules"},
                                                  "mtg": {"title": "Magic: The Gathering Comprehensive Rules"}},
                "editions": [edition_summary(rg) for rg in graphs]}
    return KnowledgeBase(build_dir, manifest, {(rg.edition.ruleset, rg.edition.name): rg for rg in graphs})


def timed_exports(graphs: list[Any], build_dir: Path, tmp: Path, runs: int) -> tuple[list[ExportResult], list[float]]:
    results, cpu = [], []
    for i in range(runs):
        kb = knowledge_base(graphs, build_dir)  # fresh caches: every run renders from scratch
        start = time.process_time()
        results.append(export_site(kb, tmp / f"run{i}", EXPORTED))
        cpu.append(time.process_time() - start)
    return results, cpu


def copy_time(folder: Path, tmp: Path, runs: int) -> float:
    times = []
    for i in range(runs):
        start = time.perf_counter()
        shutil.copytree(folder, tmp / f"copy{i}")
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def per_rule_estimate(graphs: list[Any], build_dir: Path) -> tuple[float, int]:
    """Seconds to render every rule as its own page (the live site's URLs), from a random
    sample of rules per edition rendered after the section export warmed the caches."""
    from web import create_app
    kb = knowledge_base(graphs, build_dir)
    client = create_app(kb=kb).test_client()
    total, count = 0.0, 0
    rng = random.Random(7)
    for rg in graphs:
        rules = list(rg.edition.rules)
        sample = rng.sample(rules, min(SAMPLE, len(rules)))
        for n in sample[:20]:  # warm the edition's caches (spans, titles, terms)
            client.get(f"/{rg.edition.ruleset}/{rg.edition.name}/{n}")
        start = time.perf_counter()
        for n in sample:
            client.get(f"/{rg.edition.ruleset}/{rg.edition.name}/{n}")
        total += (time.perf_counter() - start) / len(sample) * len(rules)
        count += len(rules)
    return total, count


def sizes(folder: Path) -> dict[str, tuple[int, int]]:
    """Bytes and files per kind: rule pages, timing frames, diffs, search indexes, the rest."""
    out: dict[str, list[int]] = {}
    for p in folder.rglob("*"):
        if not p.is_file():
            continue
        rel = p.relative_to(folder).as_posix()
        kind = ("search indexes" if rel.startswith("search/") else "timing frames" if rel.startswith("timing/")
                else "static" if rel.startswith("static/") else "diffs" if "/compare/" in rel
                else "glossary" if "/glossary" in rel else "edition pages" if rel.count("/") >= 2 else "other")
        entry = out.setdefault(kind, [0, 0])
        entry[0] += p.stat().st_size
        entry[1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def relevance(kb: KnowledgeBase, folder: Path) -> dict[str, Any]:
    questions = [q for q in load_questions() if (q.ruleset, q.edition) in EXPORTED]
    server: list[list[str]] = []
    for q in questions:
        try:
            server.append([r["number"] for r in kb.search(q.query, q.ruleset, q.edition, limit=10)["results"]])
        except QueryError:
            server.append([])
    answers, ms = run_queries([folder / "search" / r / f"{e}.js" for r, e in EXPORTED],
                              [{"query": q.query, "ruleset": q.ruleset, "edition": q.edition, "limit": 10}
                               for q in questions])
    offline = [[r["number"] for r in a.get("results", [])] for a in answers]
    def summary(found: list[list[str]]) -> tuple[float, float]:
        s = [scores(f, q.answers) for f, q in zip(found, questions)]
        return statistics.mean(x[0] for x in s), statistics.mean(x[1] for x in s)
    return {"questions": len(questions), "server": summary(server), "offline": summary(offline),
            "same_top10": sum(1 for a, b in zip(server, offline) if a == b), "node_ms": ms,
            "differ": [(q.query, a[:3], b[:3]) for q, a, b in zip(questions, server, offline) if a != b]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if node_path() is None:
        raise SystemExit("bench.export needs node for the offline search")
    tick = time.perf_counter()
    graphs = [load_graph(r, e) for r, e in EXPORTED if (r, e) in EDITIONS]
    print(f"read {', '.join(f'{g.edition.ruleset} {g.edition.name} ({len(g.edition.rules)} rules)' for g in graphs)} "
          f"in {time.perf_counter() - tick:.1f} s (not part of the export)\n")
    with tempfile.TemporaryDirectory(prefix="bench-export-") as name:
        tmp = Path(name)
        build_dir = tmp / "build"
        results, cpu = timed_exports(graphs, build_dir, tmp, args.runs)
        walls = [r.seconds["total"] for r in results]
        median_run = sorted(results, key=lambda r: r.seconds["total"])[len(results) // 2]
        folder = median_run.folder
        checked, problems = check_site(folder)
        copy = copy_time(folder, tmp, args.runs)
        per_rule, rule_count = per_rule_estimate(graphs, build_dir)
        rel = relevance(knowledge_base(graphs, build_dir), folder)
        size = sizes(folder)

        print(f"## Export of {' + '.join(f'{r} {e}' for r, e in EXPORTED)} ({args.runs} runs, median)\n")
        print("| measure | value |\n|---|---|")
        print(f"| export, wall (median of {args.runs}) | {statistics.median(walls):.1f} s "
              f"(runs: {', '.join(f'{w:.1f}' for w in walls)}) |")
        print(f"| export, CPU of this process (median) | {statistics.median(cpu):.1f} s |")
        for stage, secs in median_run.seconds.items():
            if stage != "total":
                print(f"| · {stage} | {secs:.2f} s |")
        print(f"| pages written | {median_run.pages} ({median_run.files} files) |")
        print(f"| baseline: copying the exported folder | {copy:.2f} s |")
        print(f"| baseline: one page per rule ({rule_count} rules, sampled {SAMPLE}/edition) | "
              f"{per_rule:.1f} s for the rule pages alone |")
        print(f"| links checked / broken | {checked} / {len(problems)} |\n")
        print("| files | size | count |\n|---|---|---|")
        for kind, (nbytes, count) in size.items():
            print(f"| {kind} | {nbytes / 1e6:.1f} MB | {count} |")
        total = sum(b for b, _ in size.values())
        print(f"| **total** | **{total / 1e6:.1f} MB** | {sum(c for _, c in size.values())} |")
        for r, e in EXPORTED:
            raw = (folder / "search" / r / f"{e}.js").read_bytes()
            print(f"| search index {r} {e} | {len(raw) / 1e6:.2f} MB, gzipped {len(gzip.compress(raw)) / 1e6:.2f} MB | 1 |")
        print()
        s_mrr, s_r3 = rel["server"]
        o_mrr, o_r3 = rel["offline"]
        print(f"| search ({rel['questions']} questions) | MRR | recall@3 |\n|---|---|---|")
        print(f"| server (KnowledgeBase.search) | {s_mrr:.3f} | {s_r3:.3f} |")
        print(f"| offline (offline-search.js in node) | {o_mrr:.3f} | {o_r3:.3f} |")
        print(f"| offline / server | {o_mrr / s_mrr:.3f} | {o_r3 / s_r3 if s_r3 else 0:.3f} |\n")
        print(f"same top 10 for {rel['same_top10']} of {rel['questions']} questions; node answered all of them "
              f"in {rel['node_ms']:.0f} ms ({rel['node_ms'] / rel['questions']:.1f} ms each, first use of "
              "each word included)")
        for query, a, b in rel["differ"]:
            print(f"  differs: {query!r}: server {a}, offline {b}")


if __name__ == "__main__":
    main()
