"""A card whose title holds a small word ("Shatter the Line", "Blade of the Quickdraw") is
read as that card when a question names it as printed, although the reader drops "the" and
"of" as too common to search (kb/search/understand.py, ``_cards_named``). One case per line."""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.cards import Card, CardList

TITLED = CardList("riftbound", (
    Card("Shatter the Line", "Spell", ("Action",), "Deal 3 to a unit."),
    Card("Blade of the Quickdraw", "Gear", (), "Your units have +1 might."),
    Card("Veiled Ambusher", "Unit", ("Ambush",), ""),
))

# (question, the cards read, in order of the question, the names left out, None: not asked)
CASES = [
    ("can I play Shatter the Line during my opponent's turn", ["Shatter the Line"], []),
    ("Can I play Shatter the Line in a showdown?", ["Shatter the Line"], []),
    ("does Blade of the Quickdraw give might to a unit", ["Blade of the Quickdraw"], []),
    ("what does blade of the quickdraw do", ["Blade of the Quickdraw"], []),
    # a small word before a name is no part of it
    ("can I play a Veiled Ambusher during a showdown", ["Veiled Ambusher"], []),
    ("can I play the Veiled Ambusher and Shatter the Line together",
     ["Veiled Ambusher", "Shatter the Line"], []),
    # other words between two names end the name: neither card is claimed
    ("can I play Shatter then Line", [], ["Shatter", "Line"]),
    ("I played Shatter. The Line held?", [], None),
]


@pytest.fixture(scope="module")
def rift(excerpt_kb: KnowledgeBase):
    return open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)


@pytest.mark.parametrize("question, cards, names", CASES)
def test_a_title_with_small_words_names_its_card(rift, question: str, cards: list[str],
                                                 names: list[str] | None) -> None:
    read = rift.search(parse_query(question), limit=5, cards=TITLED)["understood"] or {}
    assert [c.split(" (")[0] for c in read.get("cards", [])] == cards, read
    assert names is None or read.get("names", []) == names, read


def test_the_card_read_brings_in_its_type_and_keyword(rift) -> None:
    read = rift.search(parse_query("can I play Shatter the Line during my opponent's turn"), limit=5,
                       cards=TITLED)["understood"]
    assert read["cards"][0].startswith("Shatter the Line (card: Spell; keywords: Action"), read
    assert not any(c.lower().startswith(("shatter", "line")) for c in read["concepts"]), read
