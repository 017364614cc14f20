"""A card name with an apostrophe, typed as imported (kb/search/cards.py ``name_key``,
``name_forms``; kb/search/understand.py ``_cards_named``): "Vex's Lantern" is read as the
card whether typed with a straight or a curly apostrophe or none, and with a possessive
after the name ("Tideborn Summoner's"); a word of a read name is never spelling-corrected,
and a "did you mean" never offers a correction that finds nothing (kb/search/searcher.py
``_correct``). The cards are made up, as in tests/fixtures/cards/README.md."""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.cards import Card, CardList, name_forms, name_key

LANTERN = Card("Vex's Lantern", "Gear", ("Equip",), "Equip 1. The attached unit gets +2 Might.")
ECHO = Card("Stormcaller's Echo", "Spell", ("Repeat",), "Deal 2 to a unit. Repeat 2.")
SUMMONER = Card("Tideborn Summoner", "Unit", ("Legion",), "Legion — Draw 1.")
KORVASH = Card("Kor'vash the Unbroken", "Legendary Creature — Giant", ("Vigilance", "Haste"),
               "Vigilance, haste.")
REBORN = Card("Kor'vash the Reborn", "Legendary Creature — Giant", ("Trample",), "Trample.")
CHAMPION = Card("Kor'vash the Unbroken", "Champion Unit", ("Shield",), "Shield 2.")
GUARD = Card("Keeper the Bold", "Unit", (), "")
NEGATE = Card("Negate the Spark", "Instant", (), "Counter target spell.")
CURLY = Card("Ashe’s Volley", "Spell", ("Action",), "Deal 3 to a unit at a battlefield.")


@pytest.fixture(scope="module")
def searchers(excerpt_kb: KnowledgeBase) -> dict:
    return {"riftbound": open_searcher(excerpt_kb.edition("riftbound", "1.4"), None),
            "mtg": open_searcher(excerpt_kb.edition("mtg", "2026-01-16"), None)}


# (typed, its name key, its key when it ends a name)
FORMS = [
    ("Vex's", "vexs", "vex"),
    ("Vex’s", "vexs", "vex"),
    ("Vex‘s", "vexs", "vex"),
    ("Vexʼs", "vexs", "vex"),
    ("Vexs", "vexs", "vexs"),
    ("Kor'vash", "korvash", "korvash"),
    ("Summoner's", "summoners", "summoner"),
    ("Summoners'", "summoners", "summoners"),
    ("(Lantern's?", "lanterns", "lantern"),
    ("state-based", "state based", "state based"),
    ("!!", "", ""),
]


@pytest.mark.parametrize("typed, key, end", FORMS)
def test_a_name_word_is_compared_without_its_apostrophe(typed: str, key: str, end: str) -> None:
    assert name_forms(typed) == (key, end)


@pytest.mark.parametrize("a, b", [("Vex's Lantern", "Vex’s Lantern"), ("Vex's Lantern", "Vexs Lantern"),
                                  ("Kor'vash the Unbroken", "KORVASH THE UNBROKEN"),
                                  ("Vex, Apathetic", "vex apathetic")])
def test_names_written_either_way_are_one_name(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


# (card list entry, ruleset, typed question, expected card read ("" for none), expected words
# left out as names)
NAMED = [
    (LANTERN, "riftbound", "Vex's Lantern equip", "Vex's Lantern", []),
    (LANTERN, "riftbound", "Vex’s Lantern equip", "Vex's Lantern", []),
    (LANTERN, "riftbound", "Vex‘s Lantern equip", "Vex's Lantern", []),
    (LANTERN, "riftbound", "vexs lantern equip", "Vex's Lantern", []),
    (LANTERN, "riftbound", "Vexs Lantern equip", "Vex's Lantern", []),
    (LANTERN, "riftbound", "can I equip Vex's Lantern during a showdown", "Vex's Lantern", []),
    (LANTERN, "riftbound", "does Vex's Lantern's equip work", "Vex's Lantern", []),  # possessive after it
    (LANTERN, "riftbound", "does Vex’s Lantern’s equip work", "Vex's Lantern", []),
    (LANTERN, "riftbound", "what does Vex's ability do", "", ["Vex's"]),  # no card is "Vex"
    (ECHO, "riftbound", "Stormcaller's Echo repeat", "Stormcaller's Echo", []),
    (ECHO, "riftbound", "Stormcaller’s Echo repeat", "Stormcaller's Echo", []),
    (ECHO, "riftbound", "Stormcallers Echo repeat", "Stormcaller's Echo", []),
    (SUMMONER, "riftbound", "Tideborn Summoner's legion", "Tideborn Summoner", []),
    (SUMMONER, "riftbound", "Tideborn Summoner’s ability", "Tideborn Summoner", []),
    (CURLY, "riftbound", "Ashe's Volley at a battlefield", "Ashe’s Volley", []),  # imported curly
    (CURLY, "riftbound", "Ashe’s Volley at a battlefield", "Ashe’s Volley", []),
    (KORVASH, "mtg", "Kor'vash the Unbroken attacks", "Kor'vash the Unbroken", []),
    (KORVASH, "mtg", "Kor’vash the Unbroken attacks", "Kor'vash the Unbroken", []),
    (KORVASH, "mtg", "Korvash the Unbroken attacks", "Kor'vash the Unbroken", []),
    (KORVASH, "mtg", "does Kor'vash the Unbroken's vigilance work", "Kor'vash the Unbroken", []),
    # a legendary card's name before its title is its short name (Magic CR 201.5c), when no
    # other card has it; another card's words before "the" are no name of it
    (KORVASH, "mtg", "Kor'vash attacks does it tap", "Kor'vash the Unbroken", []),
    (KORVASH, "mtg", "does Korvash have haste", "Kor'vash the Unbroken", []),
    ((KORVASH, REBORN), "mtg", "does Kor'vash have haste", "", ["Kor'vash"]),
    # a Riftbound champion's likewise (its type says champion, not legendary); a plain unit's not
    (CHAMPION, "riftbound", "does Kor'vash get shield when he defends", "Kor'vash the Unbroken", []),
    (CHAMPION, "riftbound", "does Korvash have shield", "Kor'vash the Unbroken", []),
    (GUARD, "riftbound", "does Keeper have shield", "", ["Keeper"]),
    (NEGATE, "mtg", "does a spell I Negate go to the graveyard", "", ["Negate"]),
]


@pytest.mark.parametrize("card, ruleset, question, read, names", NAMED)
def test_a_card_name_with_an_apostrophe_is_read(searchers: dict, card: Card | tuple[Card, ...], ruleset: str,
                                                question: str, read: str, names: list[str]) -> None:
    listed = CardList(ruleset, card if isinstance(card, tuple) else (card,))
    found = searchers[ruleset].search(parse_query(question), limit=5, cards=listed)
    understood = found["understood"] or {}
    cards = understood.get("cards") or []
    assert [c.split(" (", 1)[0] for c in cards] == ([read] if read else [])
    assert not any("read from" in c for c in cards)  # typed as imported: no slip
    assert (understood.get("names") or []) == names
    # A word of the name read is never "corrected" into a rule's word.
    assert found["did_you_mean"] is None


# (ruleset, query with no card list, the "did you mean" offered)
CORRECTED = [
    # "kor" is no rule's word and has no correction: "Or'vash" finds nothing either
    ("mtg", "Kor'vash the Unbroken attacks", None),
    ("mtg", "Kor'vash attacks", None),
    ("riftbound", "priorty", "priority"),
    ("mtg", "what does priorty mean", "what does priority mean"),
]


@pytest.mark.parametrize("ruleset, query, suggested", CORRECTED)
def test_did_you_mean_is_offered_only_when_it_finds_a_rule(searchers: dict, ruleset: str, query: str,
                                                           suggested: str | None) -> None:
    searcher = searchers[ruleset]
    found = searcher.search(parse_query(query), limit=5, cards=CardList(ruleset, ()))
    assert found["did_you_mean"] == suggested
    if suggested:
        again = searcher.search(parse_query(suggested), limit=5, cards=CardList(ruleset, ()))
        assert again["total"] >= found["total"] > 0
