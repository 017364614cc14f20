"""The learned re-ranker (kb/search/rerank.py): learn its weights, measure them held out.

    .venv/bin/python -m bench.rerank            # learn, measure, write kb/search/rerank-weights.json
    .venv/bin/python -m bench.rerank --dry-run  # learn and measure, write nothing
    .venv/bin/python -m bench.rerank --check    # learn again; fail if the shipped weights differ
    .venv/bin/python -m bench.rerank --cv       # + 5-fold cross-validation over the judges' sets

What it learns from: for every training question, the searcher's best 40 rules (the search
as shipped, learned model off) with the features :mod:`kb.search.rerank` computes; a rule its
answer cites is a positive (the 86-question set: its answers), the parent of one (which
``bench/search.py`` counts as found) is left out of the pairs, the rest are negatives. Model:
pairwise logistic regression (every positive against every negative of its question; each
training set weighing the same in total; L2-regularised; features standardised and the
weights brought back to raw units), solved by Newton's method with numpy (a bench dependency,
never imported at run time), then, when it raises the CV figure, one pass of coordinate
ascent on the training questions' MRR: deterministic, no random start. The L2, the depth and
the ascent are chosen by 5-fold CV within the training questions.

Training sets: the synthetic Magic 2026 quiz (471), the 86-question set and the development
questions in players' words of ``bench/training`` (98 Riftbound, 80 Magic; their candidates
searched with the made-up card lists they name, so the card features learn too). Held out,
never trained on: the 38 real Riftbound 1.4 judge questions and ``bench/questions/own-*.tsv``
(each also measured with its card list). ``--cv``: 5 folds over the judges' sets (real, quiz,
players' words) dealt as ``bench/search.py --cv`` deals them (round-robin within each set and
shape), each fold's model learned on the other folds and the 86-question set. Needs ../shared
(``RULEKB_SHARED`` to point elsewhere).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import functools
import math
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.build import cpu_seconds
from bench.search import (HELD_OUT, HELD_OUT_DIR, REPO, SHARED, TRAINING, TRAINING_DIR, DevQuestion,
                          Fts5, accepted_answers, deal_folds, dev_scores, latencies, load_card_lists,
                          load_dev_cards, load_dev_questions, load_graph, load_questions, shape_of)
from kb.graph import RuleGraph
from kb.search import EditionSearcher, SearchError, parse_query
from kb.search.cards import CardList
from kb.search.index import memory_index
from kb.search.query import Clause, ParsedQuery
from kb.search.rerank import DEFAULT_DEPTH, FEATURES, WEIGHTS, LearnedRanking, RerankModel, load_model
from kb.search.scoring import Scores

EDITION_OF = {"riftbound": "1.4", "mtg": "2026-01-16"}
OWN_SETS = REPO / "bench" / "questions"
TOP = 10
L2 = 1.0           # the regularisation, in standardised units, per question
NEWTON_STEPS = 30


@dataclass
class Asked:
    """One question of any set: where it is asked, the rules that count as found, the rules
    its answer cites (for the cited-rules-only MRR), which set it is from and its shape."""

    ruleset: str
    edition: str
    query: str
    accepted: set[str]
    cited: set[str]
    group: str
    shape: str
    kind: str = ""


class Recorder(LearnedRanking):
    """A re-ranker that reorders nothing and keeps the last question's candidate features."""

    last: list[tuple[int, list[float]]]

    def reorder(self, parsed: ParsedQuery, scores: Scores,
                parts: list[tuple[Clause, list[Scores]]], reasons: dict[int, list[str]]) -> Scores:
        self.last = self.features(parsed, scores, parts, reasons)
        return scores


# -- the questions ------------------------------------------------------------------------
def own_questions(graphs: dict[tuple[str, str], RuleGraph]) -> list[Asked]:
    """``bench/questions/own-*.tsv`` (held out): a header row naming ``question``,
    ``ruleset`` and ``cited_rules`` (comma-separated) at least."""
    out = []
    for path in sorted(OWN_SETS.glob("own-*.tsv")):
        lines = path.read_text(encoding="utf-8").splitlines()
        if not lines:
            continue
        head = [h.strip() for h in lines[0].split("\t")]
        if not {"question", "ruleset", "cited_rules"} <= set(head):
            print(f"{path.name}: no question/ruleset/cited_rules header; left out", file=sys.stderr)
            continue
        for line in lines[1:]:
            row = dict(zip(head, line.split("\t")))
            ruleset = row.get("ruleset", "").strip()
            key = (ruleset, EDITION_OF.get(ruleset, ""))
            if key not in graphs or not row.get("question", "").strip():
                continue
            cited = [c.strip() for c in row.get("cited_rules", "").split(",") if c.strip()]
            out.append(Asked(*key, row["question"].strip(), accepted_answers(graphs[key], cited),
                             set(cited), path.stem, shape_of(row["question"])))
    return out


# The training sets in players' words (bench/training), by their set's name here.
PLAYERS = {"riftbound": "players riftbound", "mtg": "players mtg"}


def all_questions(graphs: dict[tuple[str, str], RuleGraph]) -> dict[str, list[Asked]]:
    """Every set, by name: 'quiz' and 'real' (../shared/questions), '86' (relevance.yaml),
    'players riftbound' and 'players mtg' (bench/training) and W's own held-out sets."""
    sets: dict[str, list[Asked]] = {"quiz": [], "real": [], "86": [], **{p: [] for p in PLAYERS.values()}}
    for q in load_dev_questions(SHARED / "questions"):
        key = (q.ruleset, q.edition)
        if key in graphs:
            name = "real" if q.kind == "real" else "quiz"
            sets[name].append(Asked(*key, q.query, accepted_answers(graphs[key], q.cited), set(q.cited),
                                    name, q.shape, q.kind))
    for q in load_questions():
        key = (q.ruleset, q.edition)
        if key in graphs:
            sets["86"].append(Asked(*key, q.query, set(q.answers), set(q.answers), "86", shape_of(q.query)))
    for q in load_dev_questions(TRAINING_DIR, TRAINING):
        key = (q.ruleset, q.edition)
        if key in graphs:
            name = PLAYERS[q.ruleset]
            sets[name].append(Asked(*key, q.query, accepted_answers(graphs[key], q.cited), set(q.cited),
                                    name, q.shape, q.kind))
    for q in own_questions(graphs):
        sets.setdefault(q.group, []).append(q)
    return sets


# -- searching -----------------------------------------------------------------------------
class Bench:
    """One searcher per edition (the shipped ranking) and the card list of each set: the
    development list of the real questions, the made-up lists of the players' words and of
    the held-out sets."""

    def __init__(self, graphs: dict[tuple[str, str], RuleGraph]):
        self.graphs = graphs
        self.searchers = {k: EditionSearcher(rg, *memory_index(rg)) for k, rg in graphs.items()}
        self.cards: dict[tuple[str, str], CardList | None] = {k: load_dev_cards(k[0]) for k in graphs}
        training = load_card_lists(TRAINING_DIR, TRAINING)
        held_out = load_card_lists(HELD_OUT_DIR, HELD_OUT)
        # set name → edition → its card list ('real': the development list)
        self.set_cards: dict[str, dict[tuple[str, str], CardList | None]] = {"real": self.cards}
        for (ruleset, edition), cards in training.items():
            self.set_cards.setdefault(PLAYERS[ruleset], {})[(ruleset, edition)] = cards
        for name, (ruleset, edition, _kind, _file) in HELD_OUT.items():
            if (ruleset, edition) in held_out:
                stem = name.rsplit(".", 1)[0]  # own_questions names a set by its file's stem
                self.set_cards.setdefault(stem, {})[(ruleset, edition)] = held_out[(ruleset, edition)]

    def cards_of(self, q: Asked) -> CardList | None:
        """The card list the question's set names (None: its set names none)."""
        return self.set_cards.get(q.group, {}).get((q.ruleset, q.edition))

    def ranked(self, q: Asked, model: RerankModel | None, cards: bool = False) -> list[str]:
        """The first 10 rules for a question, with the model (None: the search as shipped);
        ``cards``: asked with its set's card list."""
        s = self.searchers[(q.ruleset, q.edition)]
        s.learned = LearnedRanking(model, s.impacts) if model is not None else None
        try:
            out = s.search(parse_query(q.query), limit=TOP, cards=self.cards_of(q) if cards else None)
        except SearchError:
            return []
        finally:
            s.learned = None
        return [h["number"] for h in out["results"]]

    def candidates(self, q: Asked) -> Candidates:
        """A question's candidates: their features and rule numbers in the search's order,
        and the rules the search pins before them (a typed number, a named term). A question
        in players' words is asked with its set's card list (the card features learn there)."""
        s = self.searchers[(q.ruleset, q.edition)]
        # the deepest the grid looks, whatever the shipped model's depth
        recorder = Recorder(RerankModel(tuple(0.0 for _ in FEATURES), max(d for _, d in GRID)), s.impacts)
        recorder.last = []
        s.learned = recorder
        try:
            out = s.search(parse_query(q.query), limit=TOP,
                           cards=self.cards_of(q) if q.group in PLAYERS.values() else None)
        except SearchError:
            return Candidates(q, [], [], [])
        finally:
            s.learned = None
        numbers = s.impacts.number
        return Candidates(q, [row for _, row in recorder.last], [numbers[d] for d, _ in recorder.last],
                          [h["number"] for h in out["results"] if h["match"] != "words"])


@dataclass
class Candidates:
    """What the search gave a question: its candidates' features and numbers (best first)
    and the rules it pinned before them."""

    question: Asked
    rows: list[list[float]]
    numbers: list[str]
    pinned: list[str]

    @functools.cached_property
    def matrix(self) -> np.ndarray:
        """The candidates' features as a matrix (a row each)."""
        return np.asarray(self.rows, dtype=float).reshape(len(self.rows), len(FEATURES))

    def order(self, weights: Sequence[float] | None, depth: int) -> list[str]:
        """The first 10 rules the search gives with these weights reordering the best
        ``depth`` candidates (None: as the search gives them), without searching again."""
        idx = list(range(min(depth, len(self.rows))))
        if weights is not None and idx:
            learned = (self.matrix[:len(idx)] @ np.asarray(weights, dtype=float)).tolist()
            idx.sort(key=lambda i: (-learned[i], i))
        out = list(dict.fromkeys(self.pinned))
        out += [n for n in [self.numbers[i] for i in idx] + self.numbers[len(idx):] if n not in out]
        return out[:TOP]


Labelled = tuple[list[list[float]], list[bool | None], float]


def labelled(q: Asked, rows: list[list[float]], numbers: list[str], weight: float = 1.0) -> Labelled:
    """A question's candidates as training data: a rule its answer cites is a positive; the
    parent of one (which counts as found, but is not the rule) is left out of the pairs, so
    the model does not learn to bury the rule under its heading; the rest are negatives."""
    return rows, [True if n in q.cited else None if n in q.accepted else False for n in numbers], weight


# -- learning -----------------------------------------------------------------------------
def training(collected: list[Candidates], depth: int = DEFAULT_DEPTH) -> list[Labelled]:
    """Labelled candidates of these questions, every set weighing the same in total (the
    quiz's 471 questions would otherwise drown the 86-question set)."""
    per_set: dict[str, int] = {}
    for c in collected:
        per_set[c.question.group] = per_set.get(c.question.group, 0) + 1
    share = len(collected) / max(1, len(per_set))
    return [labelled(c.question, c.rows[:depth], c.numbers[:depth], share / per_set[c.question.group])
            for c in collected]


def pairs(data: list[Labelled]) -> tuple[np.ndarray, np.ndarray]:
    """Every (positive − negative) difference of a question's candidates, and its weight
    (each question weighs its own weight, shared among its pairs)."""
    diffs, weights = [], []
    for rows, found, weight in data:
        pos = [r for r, f in zip(rows, found) if f is True]
        neg = [r for r, f in zip(rows, found) if f is False]
        if not pos or not neg:
            continue
        w = weight / (len(pos) * len(neg))
        for p in pos:
            for n in neg:
                diffs.append([a - b for a, b in zip(p, n)])
                weights.append(w)
    return np.asarray(diffs, dtype=float), np.asarray(weights, dtype=float)


def learn(data: list[Labelled], l2: float = L2) -> tuple[float, ...]:
    """Pairwise logistic regression by Newton's method; the weights in raw feature units."""
    x, w = pairs(data)
    if not len(x):
        return tuple(0.0 for _ in FEATURES)
    sd = x.std(axis=0)
    sd[sd < 1e-9] = 1.0
    z = x / sd
    theta = np.zeros(z.shape[1])
    for _ in range(NEWTON_STEPS):
        margin = z @ theta
        p = 1.0 / (1.0 + np.exp(margin))           # P(pair misordered)
        grad = -(z.T @ (w * p)) + l2 * theta
        hess = (z.T * (w * p * (1 - p))) @ z + l2 * np.eye(len(theta))
        step = np.linalg.solve(hess, grad)
        theta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return tuple(float(v) for v in theta / sd)


# -- measuring ----------------------------------------------------------------------------
def figures(bench: Bench, questions: list[Asked], model: RerankModel | None,
            cards: bool = False) -> dict[str, float]:
    """MRR@10, recall@3, recall@10 and the cited-rules-only MRR of a set."""
    rows = []
    for q in questions:
        found = bench.ranked(q, model, cards)
        rows.append((*dev_scores(found, q.accepted), dev_scores(found, q.cited)[0]))
    if not rows:
        return {}
    return {k: statistics.fmean(r[i] for r in rows)
            for i, k in enumerate(("mrr", "recall@3", "recall@10", "mrr_cited"))}


def _row(name: str, n: int, base: dict[str, float], learned: dict[str, float]) -> str:
    cells = " | ".join(f"{base[k]:.3f} → {learned[k]:.3f}" for k in ("mrr", "recall@3", "recall@10", "mrr_cited"))
    return f"| {name} | {n} | {cells} |"


def measure(bench: Bench, sets: dict[str, list[Asked]], model: RerankModel) -> dict[str, Any]:
    """Every set with the search as shipped and with the model; printed as a table."""
    out: dict[str, Any] = {}
    print("\n| set | n | MRR@10 | recall@3 | recall@10 | MRR, cited rules only |\n|---|---|---|---|---|---|")
    for name, qs in sets.items():
        if not qs:
            continue
        base, learned = figures(bench, qs, None), figures(bench, qs, model)
        out[name] = {"n": len(qs), "without": _rounded(base), "with": _rounded(learned)}
        print(_row(name, len(qs), base, learned))
        if any(bench.set_cards.get(name, {}).values()):
            label = f"{name} + {'dev' if name == 'real' else 'own'} cards"
            base_c, learned_c = figures(bench, qs, None, True), figures(bench, qs, model, True)
            out[label] = {"n": len(qs), "without": _rounded(base_c), "with": _rounded(learned_c)}
            print(_row(label, len(qs), base_c, learned_c))
    return out


def _rounded(d: dict[str, float]) -> dict[str, float]:
    return {k: round(v, 3) for k, v in d.items()}


def cross_validate(bench: Bench, collected: list[Candidates], folds: int = 5, l2: float = L2,
                   depth: int = DEFAULT_DEPTH, ascent: bool = False) -> dict[str, Any]:
    """k folds over the judges' sets (real, quiz and players' words) as bench/search.py deals
    them: each fold's model learned on the other folds and the 86-question set, scored on
    its fold."""
    own = [c for c in collected if c.question.group == "86"]
    judges = [c for c in collected if c.question.group in ("real", "quiz", *PLAYERS.values())]
    fold_of = deal_folds([c.question for c in judges], folds)
    print(f"\n## Cross-validation ({folds} folds over {len(judges)} judges' questions)\n")
    print("| fold | test n | MRR without → with | real MRR without → with | real recall@3 without → with |"
          "\n|---|---|---|---|---|")
    per_fold: list[dict[str, float]] = []
    for f in range(folds):
        train = own + [judges[i] for i in fold_of if fold_of[i] != f]
        weights = learn(training(train, depth), l2)
        model = RerankModel(ascend(train, weights, depth) if ascent else weights, depth)
        test = [judges[i].question for i in fold_of if fold_of[i] == f]
        real = [q for q in test if q.kind == "real"]
        b, m = figures(bench, test, None), figures(bench, test, model)
        rb, rm = figures(bench, real, None), figures(bench, real, model)
        per_fold.append({"mrr": m["mrr"], "mrr_without": b["mrr"], "mrr_cited": m["mrr_cited"],
                         "mrr_cited_without": b["mrr_cited"], "real_mrr": rm["mrr"],
                         "real_mrr_without": rb["mrr"], "real_r3": rm["recall@3"],
                         "real_r3_without": rb["recall@3"]})
        print(f"| {f + 1} | {len(test)} | {b['mrr']:.3f} → {m['mrr']:.3f} | {rb['mrr']:.3f} → {rm['mrr']:.3f} | "
              f"{rb['recall@3']:.3f} → {rm['recall@3']:.3f} |")
    summary = {k: {"mean": round(statistics.fmean(p[k] for p in per_fold), 3),
                   "sd": round(statistics.pstdev(p[k] for p in per_fold), 3)} for k in per_fold[0]}
    print("\nmean ± sd over the folds: " + ", ".join(f"{k} {v['mean']:.3f} ± {v['sd']:.3f}"
                                                     for k, v in summary.items()))
    return summary


def speed(bench: Bench, model: RerankModel, long_questions: Sequence[str] = (),
          rounds: int = 8) -> dict[str, float]:
    """Median latency on the full Magic edition (the 86-set's Magic questions), FTS5 beside,
    the three engines taking turns round by round; and on the process clock, also over
    ``long_questions`` (quiz paragraphs: many concepts, the features' dearest case)."""
    key = ("mtg", "2026-01-16")
    if key not in bench.graphs:
        return {}
    queries = [q.query for q in load_questions() if (q.ruleset, q.edition) == key]
    s = bench.searchers[key]
    fts = Fts5(bench.graphs[key])

    def ask(model_on: bool) -> Callable[[str], Any]:
        learned = LearnedRanking(model, s.impacts) if model_on else None

        def one(query: str) -> Any:
            s.learned = learned
            try:
                return s.search(parse_query(query), limit=TOP)
            except SearchError:
                return None
        return one
    engines = {"FTS5 (OR)": fts.search, "rulekb": ask(False), "rulekb + learned": ask(True)}
    times: dict[str, list[float]] = {name: [] for name in engines}
    for name, engine in engines.items():  # warm: each word's scores, each rule's features
        latencies(engine, queries, 1)
    for _ in range(rounds):  # the engines take turns, so a busy moment hits them alike
        for name, engine in engines.items():
            times[name] += latencies(engine, queries, 1, warm=False)
    # CPU time (the process clock), which other jobs on a busy machine do not inflate: per
    # question the median of its rounds, then the median over the questions.
    cpu = {name: [cpu_seconds(lambda q=q: engine(q), rounds) for q in queries] for name, engine in engines.items()}
    if long_questions:
        for name, engine in engines.items():  # warm
            latencies(engine, list(long_questions), 0)
        cpu.update({f"{name}, long questions": [cpu_seconds(lambda q=q: engine(q), 3) for q in long_questions]
                    for name, engine in engines.items()})
    s.learned = None
    out = {k: round(statistics.median(v) * 1000, 3) for k, v in times.items()}
    out.update({f"{k}, CPU": round(statistics.median(v) * 1000, 3) for k, v in cpu.items()})
    print(f"\nSpeed, median ms over {len(queries)} Magic questions × {rounds} rounds: " +
          ", ".join(f"{k} {v}" for k, v in out.items()) +
          f" (learned / FTS5 = {out['rulekb + learned'] / out['FTS5 (OR)']:.2f}× wall, "
          f"{out['rulekb + learned, CPU'] / out['FTS5 (OR), CPU']:.2f}× CPU"
          + (f"; {len(long_questions)} long questions, CPU: "
             f"{out['rulekb + learned, long questions, CPU'] / out['FTS5 (OR), long questions, CPU']:.2f}×"
             if long_questions else "") + ")")
    return out


def commit_of_head() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


GRID = [(l2, depth) for l2 in (0.1, 1.0, 10.0) for depth in (20, 40)]


def set_mrr(collected: list[Candidates], weights: Sequence[float] | None, depth: int) -> dict[str, float]:
    """MRR@10 per set of these questions, reordered without searching again."""
    per: dict[str, list[float]] = {}
    for c in collected:
        found = c.order(weights, depth)
        per.setdefault(c.question.group, []).append(dev_scores(found, c.question.accepted)[0])
    return {k: statistics.fmean(v) for k, v in per.items()}


def mean_mrr(questions: list[Candidates], weights: Sequence[float], depth: int) -> float:
    """The mean over the sets of their MRR@10 with these weights (each set counting the same)."""
    return statistics.fmean(set_mrr(questions, weights, depth).values())


ASCENT_STEPS = (-1.0, -0.3, 0.3, 1.0)


def ascend(train: list[Candidates], weights: Sequence[float], depth: int) -> tuple[float, ...]:
    """Coordinate ascent on the training questions' MRR (the mean over the sets), from the
    regression's weights: one pass over the features, each moved by the step of
    :data:`ASCENT_STEPS` that raises it most (or left). MRR is what the regression's pairs
    only stand in for: a pair deep in the list counts there as much as the first place."""
    w = list(weights)
    best = mean_mrr(train, w, depth)
    for j in range(len(w)):
        base = w[j]
        for step in ASCENT_STEPS:
            w[j] = base + step
            found = mean_mrr(train, w, depth)
            if found > best + 1e-9:
                best, base_best = found, w[j]
                break
        else:
            base_best = base
        w[j] = base_best
    return tuple(w)


def choose(train: list[Candidates], folds: int = 5) -> tuple[float, int, bool]:
    """The regularisation and depth of :data:`GRID` with the best mean (over the training
    sets) MRR by k-fold cross-validation *within the training questions*, and whether the
    coordinate ascent after the regression raises that CV figure: the held-out sets play no
    part in the choice."""
    fold_of = deal_folds([c.question for c in train], folds)
    print(f"\nChoosing L2 and depth by {folds}-fold CV within the training questions "
          "(mean over the sets of the held-out folds' MRR@10):\n")
    print("| L2 | depth | " + " | ".join(sorted({c.question.group for c in train})) + " | mean |\n|---|---|---|---|---|")
    best, best_mrr = GRID[0], -1.0
    for l2, depth in GRID:
        per: dict[str, list[float]] = {}
        for f in range(folds):
            weights = learn(training([train[i] for i in fold_of if fold_of[i] != f], depth), l2)
            for k, v in set_mrr([train[i] for i in fold_of if fold_of[i] == f], weights, depth).items():
                per.setdefault(k, []).append(v)
        means = {k: statistics.fmean(v) for k, v in sorted(per.items())}
        mean = statistics.fmean(means.values())
        print(f"| {l2:g} | {depth} | " + " | ".join(f"{v:.3f}" for v in means.values()) + f" | {mean:.3f} |")
        if mean > best_mrr + 1e-9:
            best, best_mrr = (l2, depth), mean
    l2, depth = best
    ascended = []
    for f in range(folds):
        fold_train = [train[i] for i in fold_of if fold_of[i] != f]
        weights = ascend(fold_train, learn(training(fold_train, depth), l2), depth)
        ascended.append(mean_mrr([train[i] for i in fold_of if fold_of[i] == f], weights, depth))
    # the mean over the folds of the sets' means: the grid's figure, the two means swapped
    with_ascent = statistics.fmean(ascended)
    use = with_ascent > best_mrr + 1e-9
    print(f"\nchosen: L2 {l2:g}, depth {depth}; with coordinate ascent after the regression the "
          f"same CV gives {with_ascent:.3f} ({'kept' if use else 'not kept'})")
    return l2, depth, use


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.rerank", description=__doc__.split("\n")[0])
    ap.add_argument("--dry-run", action="store_true", help="learn and measure; write no weights")
    ap.add_argument("--check", action="store_true", help="learn again and fail when the shipped "
                    "weights differ (no measuring)")
    ap.add_argument("--cv", action="store_true", help="also 5-fold cross-validation over the judges' sets")
    ap.add_argument("--no-speed", action="store_true", help="do not measure latency")
    args = ap.parse_args(argv)
    if not (SHARED / "corpora").is_dir():
        print(f"needs the real rule documents in {SHARED / 'corpora'}", file=sys.stderr)
        return 2
    graphs = {key: load_graph(*key) for key in EDITION_OF.items()}
    sets = all_questions(graphs)
    bench = Bench(graphs)
    collected = [bench.candidates(q) for name in ("86", "real", "quiz", *PLAYERS.values()) for q in sets[name]]
    trained_on = ("86", "quiz", *PLAYERS.values())
    train = [c for c in collected if c.question.group in trained_on]  # never the real questions
    l2, depth, ascent = choose(train)
    weights = learn(training(train, depth), l2)
    if ascent:
        weights = ascend(train, weights, depth)
    model = RerankModel(weights, depth)
    if args.check:
        shipped = load_model()
        worst = max(abs(a - b) for a, b in zip(weights, shipped.weights)) if depth == shipped.depth else math.inf
        print(f"largest difference from the shipped weights: {worst:.2e}")
        if worst >= 1e-4:
            learned_at = (shipped.provenance or {}).get("commit", "unknown")
            print(f"the shipped weights were learned at {learned_at}: the search's candidates move "
                  "with the timing model's summaries, the readers and the vocabulary, so they are "
                  "reproduced on that tree (git archive it to leave uncommitted edits out); after a "
                  "change that moves them, learn again: python -m bench.rerank --cv", file=sys.stderr)
        return 0 if worst < 1e-4 else 1
    print(f"learned on {len(train)} questions (86-question set, Magic quiz, players' words; each "
          f"set weighing the same), L2 {l2:g}, depth {depth}" + (", then coordinate ascent" if ascent else ""))
    for name, w in sorted(zip(FEATURES, weights), key=lambda p: -abs(p[1])):
        print(f"  {name:<24} {w:+.4f}")
    held = measure(bench, sets, model)
    cv = cross_validate(bench, collected, l2=l2, depth=depth, ascent=ascent) if args.cv else None
    long_questions = [q.query for q in sets["quiz"]][::3]  # every third quiz paragraph
    latency = {} if args.no_speed else speed(bench, model, long_questions)
    if args.dry_run:
        return 0
    model = RerankModel(weights, model.depth, {
        "learned_by": "python -m bench.rerank" + (" --cv" if args.cv else ""),
        "model": f"pairwise logistic regression, L2 {l2:g} (standardised), Newton's method"
                 + ("; then one pass of coordinate ascent on the training questions' MRR" if ascent else "")
                 + "; L2, depth and the ascent chosen by 5-fold CV within the training questions",
        "training": {"86-question set (bench/relevance.yaml)": len(sets["86"]),  # equal weight
                     "Magic 2026 synthetic quiz (../shared/questions)": len(sets["quiz"]),
                     **{f"{name} (bench/training, with its cards)": len(sets[name]) for name in PLAYERS.values()}},
        "held_out": {k: v for k, v in held.items() if k.split(" + ")[0] not in trained_on},
        "training_sets_figures": {k: v for k, v in held.items() if k.split(" + ")[0] in trained_on},
        "cross_validation": cv, "latency_ms": latency,
        "commit": commit_of_head(), "date": dt.date.today().isoformat()})
    WEIGHTS.write_text(json.dumps(model.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwrote {WEIGHTS.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
