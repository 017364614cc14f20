"""Reading a judge's question (kb/search/understand.py): a bracketed earlier question is
context, not the question. One case per line."""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.search import Ranking, open_searcher, parse_query

FOLLOW_UP = '[follow-up to: "how does the showdown work?"] and who starts with focus?'

# (question, a concept it is read with, or None, a concept it must not have)
READ = [
    (FOLLOW_UP, "focus (term)", "[follow-up"),
    (FOLLOW_UP, "showdown (term)", "follow"),
    ('[follow-up to: "can I play a unit in a showdown?"] and a spell?', "spell", "up"),
    ("[context] who starts with focus?", "focus (term)", "[context]"),
]


@pytest.mark.parametrize("question, present, absent", READ)
def test_a_bracketed_label_is_left_out(excerpt_kb: KnowledgeBase, question: str, present: str,
                                       absent: str) -> None:
    concepts = excerpt_kb.search(question)["understood"]["concepts"]
    assert present in concepts and absent not in concepts, concepts


def test_the_earlier_question_weighs_less_than_the_question(excerpt_kb: KnowledgeBase) -> None:
    rg = excerpt_kb.edition("riftbound", "1.4")
    parsed = parse_query(FOLLOW_UP)
    def weights(context_weight: float) -> dict[str, float]:
        from kb.search.understand import understand
        s = open_searcher(rg, None, Ranking(context_weight=context_weight))
        read = understand(parsed, s.vocabulary, lambda w: len(s.impacts.word(w)), s._terms, s._term_kind,
                          term_weight=1.5, quote_weight=0.5, context_weight=context_weight)
        return {c.label or c.atoms[0].text: c.weight for c in read.clauses}
    low, high = weights(0.25), weights(1.0)
    assert low["showdown (term)"] == pytest.approx(1.5 * 0.25)
    assert high["showdown (term)"] == pytest.approx(1.5)
    assert low["focus (term)"] == high["focus (term)"] == pytest.approx(1.5)  # the question itself


# (question, read as a long one: ten concepts or more)
LENGTHS = [
    ("who starts with focus in a showdown?", False),
    ("can I play a reaction when the chain is closed?", False),
    ("If I kill the unit after its triggered ability has gone onto the chain, does the ability still "
     "resolve and does its controller keep priority during the showdown?", True),
]


@pytest.mark.parametrize("question, long", LENGTHS)
def test_a_long_questions_coordination_is_softer(excerpt_kb: KnowledgeBase, question: str, long: bool) -> None:
    rg = excerpt_kb.edition("riftbound", "1.4")
    def scores(coord_long: float) -> list[tuple[str, float]]:
        s = open_searcher(rg, None, Ranking(coord_long=coord_long, long_question=10))
        return [(h["number"], h["score"]) for h in s.search(parse_query(question), limit=10)["results"]]
    soft, strict = scores(0.5), scores(1.0)
    assert (soft != strict) == long
    if long:  # a share below 1 raised to 0.5 is larger: no rule loses score
        assert min(s for _, s in soft) >= min(s for _, s in strict)


# (ruleset, edition, question, a rule among its first ten, the rule that refers to it)
REFERRED = [
    ("riftbound", "1.4", "how does deflect change the cost of a spell?", "809", "356.2.a.2"),
    ("riftbound", "1.4", "what happens when a unit with deathknell dies?", "808", "323.4"),
    ("mtg", "2026-01-16", "what happens when a creature with deathtouch deals damage?", "702.2", "120.4a"),
]


@pytest.mark.parametrize("ruleset, edition, question, rule, by", REFERRED)
def test_a_rule_referred_to_by_a_hit_gains_and_says_so(ruleset: str, edition: str, question: str,
                                                      rule: str, by: str) -> None:
    from tests.conftest import corpus_graph
    rg = corpus_graph(ruleset, edition)
    assert rule in rg.references(by)
    def hit(referrers: float) -> dict[str, object] | None:
        s = open_searcher(rg, None, Ranking(from_referrers=referrers))
        results = s.search(parse_query(question), limit=10)["results"]
        return next((h for h in results if h["number"] == rule), None)
    on, off = hit(0.1), hit(0.0)
    assert on is not None and f"referred to by {by}" in on["matched"]
    assert off is None or (off["score"] < on["score"] and not any("referred" in m for m in off["matched"]))
