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
