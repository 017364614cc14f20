"""``Ranking.card_alone`` (kb/search/searcher.py): in a question, a rule that holds none of the
question's own concepts keeps only this share of what a named card's concepts give it, so a
card's unasked keyword (Trample on a card in an "ETB trigger, does it use the stack" question)
does not outrank the question's concepts (acceptance finding F-G). Off by default (1.0): on the
held-out sets it traded one question for another (RESULTS.md, task A2); measured with
``bench.search --ranking card_alone=0.3``. The cards are made up, as in
tests/fixtures/cards/README.md. One case a line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.cards import Card, CardList
from kb.search.searcher import DEFAULT_RANKING

ELK = Card("Mossgrove Elk", "Creature — Elk", ("Trample",), "When this creature enters, you gain 2 life.")

# (ruleset, card, question, card_alone, the card's keyword's rules, the top 3 may hold them)
CASES = [
    ("mtg", ELK, "Mossgrove Elk ETB trigger, does it use the stack", 0.3, "702.19", False),
    ("mtg", ELK, "Mossgrove Elk ETB trigger, does it use the stack", 1.0, "702.19", True),
    # the question names what the card's keyword is about: the keyword's rules stay first
    ("mtg", ELK, "Mossgrove Elk is blocked, how does its trample damage work", 0.3, "702.19", True),
]


@pytest.mark.parametrize("ruleset, card, question, alone, family, may_hold", CASES,
                         ids=[f"{c[2]}-{c[3]}" for c in CASES])
def test_a_cards_concepts_alone_keep_card_alone_of_their_score(
        excerpt_kb: KnowledgeBase, ruleset: str, card: Card, question: str, alone: float,
        family: str, may_hold: bool) -> None:
    edition = {"riftbound": "1.4", "mtg": "2026-01-16"}[ruleset]
    searcher = open_searcher(excerpt_kb.edition(ruleset, edition), None, replace(DEFAULT_RANKING, card_alone=alone))
    top = [h["number"] for h in searcher.search(parse_query(question), limit=10,
                                                cards=CardList(ruleset, (card,)))["results"][:3]]
    held = [n for n in top if n == family or n.startswith(family)]
    assert bool(held) == may_hold, top
