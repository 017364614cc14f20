"""The learned re-ranker (kb/search/rerank.py): its shipped weights, what it may change in a
search's answer and what it may not.

Runs on the embedded excerpts; the weights are learned by ``python -m bench.rerank`` (which
``--check`` reproduces on ../shared), so here they are only read, never learned.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from kb.query import KnowledgeBase
from kb.search import Ranking, open_searcher, parse_query
from kb.search.rerank import (DEFAULT_DEPTH, FEATURES, WEIGHTS, LearnedRanking, RerankModel,
                              WeightsError, load_model, model_from_json)
from kb.search.searcher import DEFAULT_RANKING, TIMING_MODEL_REASON, EditionSearcher

# Judges' questions on the excerpts: (ruleset, question).
QUESTIONS = [
    ("riftbound", "can I respond to a unit being played"),
    ("riftbound", "who gets priority after the chain resolves"),
    ("riftbound", "what happens when a showdown ends"),
    ("riftbound", "does Deathknell trigger if the unit is banished"),
    ("riftbound", "pass priority chain"),
    ("mtg", "can I cast an instant during combat"),
    ("mtg", "when are state-based actions checked"),
    ("mtg", "who gets priority after a spell resolves"),
]


@pytest.fixture(scope="module")
def searchers(excerpt_kb: KnowledgeBase) -> dict[str, tuple[EditionSearcher, EditionSearcher]]:
    """Per ruleset: the search as shipped, and the same with the learned model."""
    out = {}
    for ruleset in ("riftbound", "mtg"):
        rg = excerpt_kb.edition(ruleset)
        out[ruleset] = (open_searcher(rg), open_searcher(rg, ranking=Ranking(learned=True)))
    return out


def ask(searcher: EditionSearcher, question: str, limit: int = 40) -> dict[str, Any]:
    return searcher.search(parse_query(question), limit=limit)


# -- the shipped weights ----------------------------------------------------------------
def test_the_shipped_weights_have_the_features_the_code_computes() -> None:
    data = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES)
    model = load_model()
    assert len(model.weights) == len(FEATURES) and all(math.isfinite(w) for w in model.weights)
    assert 10 <= model.depth <= 200  # at least a page of results is reordered


@pytest.mark.parametrize("key", ["learned_by", "model", "training", "held_out", "commit", "date"])
def test_the_shipped_weights_say_where_they_come_from(key: str) -> None:
    assert load_model().provenance.get(key), f"rerank-weights.json: no provenance '{key}'"


def test_the_real_questions_are_held_out_not_trained_on() -> None:
    provenance = load_model().provenance
    # the 38 real Riftbound judge questions (../shared/questions) and W's held-out sets are
    # never trained on; the players' words of bench/training are a development set
    assert not any("real" in name.lower() or "judge" in name.lower() or "own-" in name
                   for name in provenance["training"])
    assert "real" in provenance["held_out"] and "own-riftbound-1.4" in provenance["held_out"]


# (how the file is spoilt, what the refusal says)
BAD_FILES = [
    (lambda d: {**d, "features": d["features"][:-1]}, f"missing [{FEATURES[-1]!r}]"),
    (lambda d: {**d, "features": [*d["features"], "rule_number"]}, "unknown ['rule_number']"),
    (lambda d: {**d, "weights": d["weights"][:-1]}, f"must be {len(FEATURES)} finite numbers"),
    (lambda d: {**d, "weights": [float("nan")] * len(FEATURES)}, "finite numbers"),
    (lambda d: {**d, "weights": ["1"] * len(FEATURES)}, "finite numbers"),
    (lambda d: {**d, "depth": 1}, "'depth' must be a whole number from 2 to 200"),
    (lambda d: {**d, "depth": "40"}, "'depth' must be a whole number"),
    (lambda d: {**d, "features": d["features"][::-1]}, "the same ones in another order"),
    (lambda d: {**d, "features": 7}, "'features' must be a list of the features' names"),
    (lambda d: {**d, "weights": [True] * len(FEATURES)}, "finite numbers"),
    (lambda d: [d], "not a weights file"),
]


@pytest.mark.parametrize(("spoil", "message"), BAD_FILES)
def test_a_weights_file_that_does_not_fit_is_refused_saying_why(spoil: Any, message: str) -> None:
    data = spoil(json.loads(WEIGHTS.read_text(encoding="utf-8")))
    with pytest.raises(WeightsError, match=message.replace("[", r"\[").replace("]", r"\]")) as err:
        model_from_json(data, "rerank-weights.json")
    assert str(err.value).startswith("rerank-weights.json: ")


# (what the file holds, what the refusal says)
UNREADABLE_FILES = [
    ("{\"features\": [", "cannot be read as JSON"),
    ("", "cannot be read as JSON"),
]


@pytest.mark.parametrize(("text", "message"), UNREADABLE_FILES)
def test_a_weights_file_that_is_no_json_is_refused_naming_it(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken-weights.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(WeightsError, match=message) as err:
        load_model(path)
    assert str(err.value).startswith("broken-weights.json: ")


def test_a_weights_file_round_trips(tmp_path: Path) -> None:
    model = RerankModel(tuple(float(i) for i in range(len(FEATURES))), 25, {"date": "today"})
    path = tmp_path / "w.json"
    path.write_text(json.dumps(model.to_json()), encoding="utf-8")
    assert load_model(path) == model


# -- what re-ranking changes, and what it may not ---------------------------------------
@pytest.mark.parametrize(("ruleset", "question"), QUESTIONS)
def test_reranking_only_reorders_the_best_rules(searchers: dict, ruleset: str, question: str) -> None:
    plain, learned = searchers[ruleset]
    before, after = ask(plain, question, 100), ask(learned, question, 100)
    assert after["total"] == before["total"]
    pinned = [r["number"] for r in before["results"] if r["match"] != "words"]
    assert [r["number"] for r in after["results"][:len(pinned)]] == pinned  # pins stay first
    # the best `depth` rules the words found (and the pins) are reordered among themselves;
    # the rest stays as the search gave it
    head = load_model().depth + len(pinned)
    assert {r["number"] for r in after["results"][:head]} == {r["number"] for r in before["results"][:head]}
    assert [r["number"] for r in after["results"][head:]] == [r["number"] for r in before["results"][head:]]


@pytest.mark.parametrize(("ruleset", "question"), QUESTIONS)
def test_a_reranked_hit_keeps_its_own_reasons(searchers: dict, ruleset: str, question: str) -> None:
    """The timing model's summaries are said once a page, by the first hit in the page's order
    (e5a074e), so which hit says one follows the order; every other reason is the hit's own."""
    def own(matched: list[str]) -> list[str]:
        return [m for m in matched if not m.startswith(TIMING_MODEL_REASON)]
    plain, learned = searchers[ruleset]
    matched = {r["number"]: (own(r["matched"]), r["excerpt"]) for r in ask(plain, question)["results"]}
    for r in ask(learned, question)["results"]:
        assert (own(r["matched"]), r["excerpt"]) == matched[r["number"]], r["number"]


@pytest.mark.parametrize(("ruleset", "question"), QUESTIONS)
def test_reranking_is_deterministic_and_scores_fall(searchers: dict, ruleset: str, question: str) -> None:
    _, learned = searchers[ruleset]
    first, again = ask(learned, question), ask(learned, question)
    assert [r["number"] for r in first["results"]] == [r["number"] for r in again["results"]]
    words = [r["score"] for r in first["results"] if r["match"] == "words"]
    assert words == sorted(words, reverse=True)


def _only(feature: str, weight: float) -> RerankModel:
    return RerankModel(tuple(weight if f == feature else 0.0 for f in FEATURES), DEFAULT_DEPTH)


# (a model, what it does to the search's order of its best rules)
MODELS = [
    ("rank kept", _only("reciprocal_rank", 1.0), lambda order: order),
    ("score kept", _only("score_share", 2.0), lambda order: order),
    ("rank reversed", _only("reciprocal_rank", -1.0), lambda order: order[::-1]),
    ("all weights zero", RerankModel(tuple(0.0 for _ in FEATURES)), lambda order: order),
]


@pytest.mark.parametrize(("name", "model", "expected"), MODELS, ids=[m[0] for m in MODELS])
@pytest.mark.parametrize(("ruleset", "question"), QUESTIONS[:3] + QUESTIONS[5:6])
def test_the_model_decides_the_order(searchers: dict, ruleset: str, question: str, name: str,
                                     model: RerankModel, expected: Any) -> None:
    plain, _ = searchers[ruleset]
    ranked = LearnedRanking(model, plain.impacts)
    base = ask(plain, question)["results"]
    assert all(r["match"] == "words" for r in base), "a question with no pinned rule, so the order is the model's"
    base_order = [r["number"] for r in base]
    plain.learned = ranked
    try:
        order = [r["number"] for r in ask(plain, question)["results"] if r["match"] == "words"]
    finally:
        plain.learned = None
    assert order == expected(base_order)


# -- the features -------------------------------------------------------------------------
SHARES = [f for f in FEATURES if f not in ("log_score_share", "depth", "log_length", "log_cited_by")]


@pytest.mark.parametrize(("ruleset", "question"), QUESTIONS)
def test_features_are_numbers_of_the_pair_not_of_the_ruleset(searchers: dict, ruleset: str,
                                                             question: str) -> None:
    plain, learned = searchers[ruleset]
    parsed = parse_query(question)
    rows: list[tuple[int, list[float]]] = []

    class Keep(LearnedRanking):
        def reorder(self, p: Any, scores: Any, parts: Any, reasons: Any) -> Any:
            rows.extend(self.features(p, scores, parts, reasons))
            return scores
    plain.learned = Keep(load_model(), plain.impacts)
    try:
        first = plain.search(parsed, limit=1)["results"]
    finally:
        plain.learned = None
    assert rows and all(len(row) == len(FEATURES) and all(math.isfinite(x) for x in row) for _, row in rows)
    for _, row in rows:
        for name in SHARES:
            assert 0.0 <= row[FEATURES.index(name)] <= 1.0, name
    if first and first[0]["match"] == "words":  # the search's best rule is the first candidate
        assert plain.impacts.number[rows[0][0]] == first[0]["number"]
    assert rows[0][1][FEATURES.index("reciprocal_rank")] == 1.0
    assert rows[0][1][FEATURES.index("score_share")] == 1.0


def test_the_learned_ranking_is_off_by_default() -> None:
    """On by default, the offline pack's search (web/static/offline-search.js) would have to
    mirror it (bench/RESULTS.md, "Learned re-ranker", says why it is off)."""
    assert DEFAULT_RANKING.learned is False
