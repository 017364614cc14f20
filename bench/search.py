"""Search: relevance and speed of rulekb's search against bare whoosh and SQLite FTS5.

    .venv/bin/python -m bench.search                 # relevance, speed, index build
    .venv/bin/python -m bench.search --variants      # + the ranking variants (field boosts …)
    .venv/bin/python -m bench.search --show          # + each question's top 3 per engine

Relevance: the questions of ``bench/relevance.yaml`` (each with the rule(s) that answer it),
MRR over the top 10 and recall@3, for rulekb, a plain SQLite FTS5 BM25 index of the same rules
(words OR-ed, and AND-ed) and bare whoosh (one text field, default analyzer, OR parser), all
built in the same run. Speed: median and p99 latency of every question of the speed edition
(full Magic 2026-01-16) asked ``--rounds`` times, in the same process, each engine warmed by
one round first; index build time of rulekb's index vs bare whoosh's (median of 5). Needs the
real documents in ../shared/corpora (``RULEKB_SHARED`` to point elsewhere).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from whoosh.fields import ID, TEXT, Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.qparser import OrGroup, QueryParser

from kb.graph import RuleGraph, build_edition
from kb.model import DocumentError
from kb.query import KnowledgeBase, QueryError
from kb.read import read_document
from kb.search import Ranking, build_index
from kb.search.searcher import DEFAULT_RANKING
from kb.store import edition_summary

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULEKB_SHARED", REPO.parent / "shared"))
QUESTIONS = Path(__file__).with_name("relevance.yaml")
EDITIONS = {
    ("riftbound", "1.4"): ("2026-07-16", "riftbound/core-rules-2026-07-16.md"),
    ("mtg", "2026-01-16"): ("2026-01-16", "mtg/comprehensive-rules-2026-01-16.txt"),
}
SPEED_EDITION = ("mtg", "2026-01-16")
TOP = 10
_WORDS = re.compile(r"\w+")


@dataclass
class Question:
    ruleset: str
    edition: str
    query: str
    answers: list[str]
    note: str = ""


def load_questions() -> list[Question]:
    data = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    return [Question(q["ruleset"], str(q["edition"]), str(q["query"]), [str(a) for a in q["answers"]],
                     q.get("note", "")) for q in data]


def load_graph(ruleset: str, edition: str) -> RuleGraph:
    date, rel = EDITIONS[(ruleset, edition)]
    result, fmt = read_document(SHARED / "corpora" / rel)
    return build_edition(result, ruleset=ruleset, edition=edition, date=date,
                         source=str(SHARED / "corpora" / rel), source_format=fmt)


def rule_rows(rg: RuleGraph) -> list[tuple[str, str, str, str]]:
    """(number, title, text, examples) of every numbered node: what the baselines index."""
    return [(n, r.title, r.text, " ".join(r.examples)) for n, r in rg.edition.rules.items()]


# -- the engines ---------------------------------------------------------------------
class Fts5:
    """A plain SQLite FTS5 table (unicode61 tokenizer, bm25 rank) of the same rules."""

    def __init__(self, rg: RuleGraph):
        self.con = sqlite3.connect(":memory:", check_same_thread=False)
        self.con.execute("CREATE VIRTUAL TABLE rules USING fts5(number UNINDEXED, title, text, examples)")
        self.con.executemany("INSERT INTO rules VALUES (?, ?, ?, ?)", rule_rows(rg))
        self.con.commit()

    def search(self, query: str, joiner: str = " OR ") -> list[str]:
        words = _WORDS.findall(query)
        if not words:
            return []
        match = joiner.join(f'"{w}"' for w in words)
        return [row[0] for row in self.con.execute(
            "SELECT number FROM rules WHERE rules MATCH ? ORDER BY rank LIMIT ?", (match, TOP))]


class BareWhoosh:
    """whoosh as it comes: one TEXT field with the default analyzer, the default query
    parser with OR between words, BM25F, a searcher held open."""

    def __init__(self, rg: RuleGraph, folder: Path):
        folder.mkdir(parents=True, exist_ok=True)
        self.ix = bare_whoosh_index(rg, folder)
        self.searcher = self.ix.searcher()
        self.parser = QueryParser("content", self.ix.schema, group=OrGroup)

    def search(self, query: str) -> list[str]:
        return [hit["number"] for hit in self.searcher.search(self.parser.parse(query), limit=TOP)]


def bare_whoosh_index(rg: RuleGraph, folder: Path) -> Any:
    ix = FileStorage(str(folder)).create_index(Schema(number=ID(stored=True, unique=True),
                                                      content=TEXT))
    writer = ix.writer()
    for number, title, text, examples in rule_rows(rg):
        writer.add_document(number=number, content=f"{title} {text} {examples}")
    writer.commit()
    return ix


class Rulekb:
    """rulekb's search through the facade, on an index built the way ``rulekb build`` builds it."""

    def __init__(self, rg: RuleGraph, build_dir: Path, ranking: Ranking = DEFAULT_RANKING):
        build_index(rg, build_dir)
        self.kb = KnowledgeBase(build_dir, {"build_id": "bench", "rulesets": {},
                                            "editions": [edition_summary(rg)]},
                                {(rg.edition.ruleset, rg.edition.name): rg})
        self.ruleset, self.edition = rg.edition.ruleset, rg.edition.name
        if ranking is not DEFAULT_RANKING:
            from kb.search import open_searcher
            self.kb.cached(f"search:{self.ruleset}:{self.edition}",
                           lambda: open_searcher(rg, build_dir, ranking))

    def search(self, query: str) -> list[str]:
        try:
            data = self.kb.search(query, self.ruleset, self.edition, limit=TOP)
        except QueryError:
            return []
        return [r["number"] for r in data["results"]]


# -- relevance -------------------------------------------------------------------------
def scores(found: list[str], answers: list[str]) -> tuple[float, float, float]:
    """(reciprocal rank within the top 10, hit within the top 3, share of answers in the top 3)."""
    rr = next((1.0 / (i + 1) for i, n in enumerate(found[:TOP]) if n in answers), 0.0)
    top3 = set(found[:3])
    return rr, float(bool(top3 & set(answers))), len(top3 & set(answers)) / min(3, len(answers))


# -- speed -------------------------------------------------------------------------------
def latencies(search: Callable[[str], Any], queries: list[str], rounds: int,
              warm: bool = True) -> list[float]:
    for q in queries if warm else ():  # warm: caches, mmaps, the OS page cache
        search(q)
    times = []
    gc.disable()
    try:
        for _ in range(rounds):
            for q in queries:
                start = time.perf_counter()
                search(q)
                times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return times


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def build_times(rg: RuleGraph, tmp: Path, runs: int = 5) -> dict[str, float]:
    """Median seconds to build each index; the engines take turns in every run, so a busy
    moment on a shared machine hits them alike."""
    makers: dict[str, Callable[[Path], Any]] = {
        "rulekb": lambda f: build_index(rg, f),
        "bare whoosh": lambda f: bare_whoosh_index(rg, f),
        "FTS5": lambda f: Fts5(rg),
    }
    times: dict[str, list[float]] = {name: [] for name in makers}
    for i in range(runs):
        for j, (name, make) in enumerate(makers.items()):
            folder = tmp / f"{i}-{j}"
            folder.mkdir(parents=True)
            start = time.perf_counter()
            make(folder)
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


# -- ranking variants ------------------------------------------------------------------------
def variants() -> dict[str, Ranking]:
    """The rankings compared by ``--variants``: the default, then one change at a time."""
    d = DEFAULT_RANKING
    flat = {"title": 1.0, "path": 1.0, "text": 1.0, "examples": 1.0, "terms": 1.0}

    def boost(**changes: float) -> Ranking:
        return replace(d, boosts={**d.boosts, **changes})
    return {
        "default": d,
        "flat boosts (all 1)": replace(d, boosts=flat),
        "text only": replace(d, boosts={"text": 1.0}),
        "no heading path": boost(path=0.0),
        "path 0.5": boost(path=0.5),
        "path 2.0": boost(path=2.0),
        "title 1.0": boost(title=1.0),
        "title 4.0": boost(title=4.0),
        "examples 0": boost(examples=0.0),
        "examples 1.0": boost(examples=1.0),
        "terms 0": boost(terms=0.0),
        "terms 5.0": boost(terms=5.0),
        "no coordination bonus": replace(d, coord=0.0),
        "coordination 2.0": replace(d, coord=2.0),
        "no word-pair bonus": replace(d, pair_boost=0.0),
        "word pairs ×2": replace(d, pair_boost=d.pair_boost * 2),
        "term scope ×1.5": replace(d, term_scope=0.5),
        "no term pinning": replace(d, pin_terms=False),
        "BM25 B=0.75": replace(d, bm25_b=0.75),
        "BM25 B=1.0": replace(d, bm25_b=1.0),
        "BM25 K1=0.8": replace(d, bm25_k1=0.8),
        "BM25 K1=2.0": replace(d, bm25_k1=2.0),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.search", description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=20, help="times each speed query is asked")
    ap.add_argument("--variants", action="store_true", help="also score the ranking variants")
    ap.add_argument("--show", action="store_true", help="print each question's top 3 per engine")
    ap.add_argument("--no-speed", action="store_true", help="relevance only")
    args = ap.parse_args(argv)
    if not (SHARED / "corpora").is_dir():
        print(f"needs the real rule documents in {SHARED / 'corpora'}", file=sys.stderr)
        return 2
    questions = load_questions()
    graphs: dict[tuple[str, str], RuleGraph] = {}
    for key in EDITIONS:
        try:
            graphs[key] = load_graph(*key)
        except DocumentError as exc:
            print(f"skipped {key[0]} {key[1]}: the document does not read yet ({exc.diagnostics[0]})")
    for q in questions:
        rg = graphs.get((q.ruleset, q.edition))
        if rg is not None:
            missing = [a for a in q.answers if a not in rg.edition.rules]
            if missing:
                raise SystemExit(f"relevance.yaml: {q.query!r}: no rule {', '.join(missing)} in "
                                 f"{q.ruleset} {q.edition}")
    asked = [q for q in questions if (q.ruleset, q.edition) in graphs]
    print(f"{len(asked)} questions over " + ", ".join(f"{r} {e} ({len(g.edition.rules)} rules)"
                                                       for (r, e), g in graphs.items()))
    with tempfile.TemporaryDirectory(prefix="bench-search-") as tmpname:
        tmp = Path(tmpname)
        engines: dict[tuple[str, str], dict[str, Any]] = {}
        for key, rg in graphs.items():
            engines[key] = {"rulekb": Rulekb(rg, tmp / "build" / "-".join(key)), "FTS5": Fts5(rg),
                            "bare whoosh": BareWhoosh(rg, tmp / "bare" / "-".join(key))}

        def score_all(name: str, pick: Callable[[dict[str, Any], str], list[str]]) -> None:
            for label, subset in [("all", asked)] + [(f"{r} {e}", [q for q in asked if (q.ruleset, q.edition) == (r, e)])
                                                     for r, e in graphs]:
                rows = [scores(pick(engines[(q.ruleset, q.edition)], q.query), q.answers) for q in subset]
                table.setdefault(label, {})[name] = tuple(statistics.fmean(r[i] for r in rows) for i in range(3))
                if args.show and label == "all":
                    for q, r in zip(subset, rows):
                        found = pick(engines[(q.ruleset, q.edition)], q.query)[:3]
                        print(f"  {'ok  ' if r[1] else 'MISS'} {name:<11} {q.query[:50]!r:<52} → {found} (want {q.answers[:3]})")

        table: dict[str, dict[str, tuple[float, ...]]] = {}
        score_all("rulekb", lambda e, q: e["rulekb"].search(q))
        score_all("FTS5 (OR)", lambda e, q: e["FTS5"].search(q))
        score_all("FTS5 (AND)", lambda e, q: e["FTS5"].search(q, " AND "))
        score_all("bare whoosh", lambda e, q: e["bare whoosh"].search(q))
        print("\n## Relevance (MRR@10, hit@3 = an answering rule in the top 3, recall@3 = share of "
              "the answering rules in the top 3, at most 3)\n")
        print("| questions | engine | MRR | hit@3 | recall@3 |\n|---|---|---|---|---|")
        for label, rows in table.items():
            n = len(asked) if label == "all" else sum(1 for q in asked if f"{q.ruleset} {q.edition}" == label)
            for name, (mrr, hit, rec) in rows.items():
                print(f"| {label} ({n}) | {name} | {mrr:.3f} | {hit:.3f} | {rec:.3f} |")
        best_fts = max(table["all"]["FTS5 (OR)"][0], table["all"]["FTS5 (AND)"][0])
        print(f"\nrulekb MRR / best FTS5 MRR = {table['all']['rulekb'][0] / best_fts:.2f}× (goal ≥ 1.5×)")

        if args.variants:
            names = [f"{r} {e}" for r, e in graphs]
            print("\n## Ranking variants\n\n| variant | MRR | hit@3 | recall@3 | "
                  + " | ".join(f"MRR {n}" for n in names) + " |\n|---|---|---|---|" + "---|" * len(names))
            for i, (name, ranking) in enumerate(variants().items()):
                vk = {key: Rulekb(rg, tmp / "variants" / str(i) / "-".join(key), ranking)
                      for key, rg in graphs.items()}
                rows = [scores(vk[(q.ruleset, q.edition)].search(q.query), q.answers) for q in asked]
                mrr, hit, rec = (statistics.fmean(r[i] for r in rows) for i in range(3))
                split = [statistics.fmean(r[0] for q, r in zip(asked, rows) if f"{q.ruleset} {q.edition}" == n)
                         for n in names]
                print(f"| {name} | {mrr:.3f} | {hit:.3f} | {rec:.3f} | " + " | ".join(f"{m:.3f}" for m in split) + " |")

        if args.no_speed:
            return 0
        speed_key = SPEED_EDITION if SPEED_EDITION in graphs else next(iter(graphs))
        if speed_key != SPEED_EDITION:
            print(f"\n(speed measured on {speed_key[0]} {speed_key[1]}: {SPEED_EDITION} does not read yet)")
        rg = graphs[speed_key]
        queries = [q.query for q in questions if (q.ruleset, q.edition) == speed_key]
        e = engines[speed_key]
        timings = {"rulekb": latencies(e["rulekb"].search, queries, args.rounds),
                   "bare whoosh": latencies(e["bare whoosh"].search, queries, args.rounds),
                   "FTS5 (OR)": latencies(e["FTS5"].search, queries, args.rounds)}
        print(f"\n## Speed on {speed_key[0]} {speed_key[1]} ({len(rg.edition.rules)} rules; "
              f"{len(queries)} queries × {args.rounds} rounds)\n")
        print("| engine | median ms | p99 ms | median vs FTS5 |\n|---|---|---|---|")
        fts_median = statistics.median(timings["FTS5 (OR)"])
        for name, values in timings.items():
            med = statistics.median(values)
            print(f"| {name} | {med * 1000:.3f} | {percentile(values, 99) * 1000:.3f} | {med / fts_median:.1f}× |")
        # Cold: a freshly loaded build. Opening reads the stored numbers and field lengths;
        # each word's scores are computed from its postings the first time a query uses it.
        cold = Rulekb(rg, tmp / "cold")
        from kb.search import open_searcher
        start = time.perf_counter()
        cold.kb.cached(f"search:{cold.ruleset}:{cold.edition}", lambda: open_searcher(rg, tmp / "cold"))
        opened = time.perf_counter() - start
        first = latencies(cold.search, queries, 1, warm=False)
        print(f"\nrulekb cold: opening the edition's searcher {opened * 1000:.1f} ms; first round "
              f"(every word new) median {statistics.median(first) * 1000:.3f} ms, "
              f"p99 {percentile(first, 99) * 1000:.3f} ms")
        builds = build_times(rg, tmp / "builds")
        print("\n| index build | seconds (median of 5) | vs bare whoosh |\n|---|---|---|")
        for name, seconds in builds.items():
            print(f"| {name} | {seconds:.3f} | {seconds / builds['bare whoosh']:.2f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
