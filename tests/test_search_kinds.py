"""Kinds read from the rules' own lists (kb/search/kinds.py ``kinds_of``): a named rule
under a plural heading that lists a few ("Non-Board Zones" › "Banishments"), or an item of a
sentence listing one of the edition's terms ("There are normally seven zones: library, …"),
is a kind of it, and a question about the kind also matches what the rules say of the whole.
One case per line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.search import open_searcher, parse_query
from kb.search.schema import analyse
from kb.search.kinds import _listings, kinds_of
from kb.search.searcher import DEFAULT_RANKING

from tests.conftest import corpus_graph

# (a rule's text, the (plural, items) it lists)
LISTINGS = [
    ("There are normally seven zones: library, hand, battlefield, graveyard, stack, exile, and command.",
     [("zones", ["library", "hand", "battlefield", "graveyard", "stack", "exile", "command"])]),
    ("Non-Board zones corresponding to a player include Main Deck, Rune Deck, Trash, Hand, Chosen "
     "Champion zone, and Banishment.",
     [("Non-Board zones", ["Main Deck", "Rune Deck", "Trash", "Hand", "Chosen Champion zone", "Banishment"])]),
    ("The card types are artifact, battle, creature, enchantment, instant, land, planeswalker, and sorcery.",
     [("The card types", ["artifact", "battle", "creature", "enchantment", "instant", "land",
                          "planeswalker", "sorcery"])]),
    ("Units include Champions and Tokens.", []),  # two items: not a list of kinds
    ("A player may concede the game at any time.", []),
    ("Costs include paying energy, paying power, exhausting the card or killing a unit that "
     "you control.", []),  # the items are whole clauses, not names
    ("", []),
]


@pytest.mark.parametrize("text, lists", LISTINGS)
def test_a_listing_sentence_names_kinds(text: str, lists: list[tuple[str, list[str]]]) -> None:
    assert _listings(text) == lists


# (ruleset, edition, a kind, the heading or term it is one of, or None: not read as a kind)
KINDS = [
    ("riftbound", "1.4", "banishment", "Non-Board Zones"),  # 108.6 Banishments under 108
    ("riftbound", "1.4", "trash", "Non-Board Zones"),
    ("riftbound", "1.4", "champion zone", "Non-Board Zones"),
    ("riftbound", "1.4", "control", None),  # "Tokens" › "Control", "Winning": parts, not kinds
    ("riftbound", "1.4", "showdown", None),  # under "Main Phase": singular, a part
    ("mtg", "2026-01-16", "exile", "zones"),  # 400.1 "There are normally seven zones: …"
    ("mtg", "2026-01-16", "sorcery", "The card types"),
    ("mtg", "2026-01-16", "e", None),  # "The vowels are …": vowels are no term of the rules
]


@pytest.mark.parametrize("ruleset, edition, kind, of", KINDS)
def test_kinds_are_read_from_the_rules(ruleset: str, edition: str, kind: str, of: str | None) -> None:
    found = [a.text for a in kinds_of(corpus_graph(ruleset, edition)).get(tuple(analyse(kind)), [])]
    assert (of in found) if of else found == [], found


# (question, a reason one of its first hits gives) with kinds on
EXPLAINED = [
    ("What happens if a spell banishes a token?", "banishes → Non-Board Zones"),
    ("do buffs stay on a unit that returns to my hand?", "hand → Non-Board Zones"),
]


@pytest.mark.parametrize("question, reason", EXPLAINED)
def test_a_kind_brings_in_what_the_rules_say_of_the_whole(question: str, reason: str) -> None:
    rg = corpus_graph("riftbound", "1.4")
    searcher = open_searcher(rg, None, replace(DEFAULT_RANKING, kind_weight=0.8))
    results = searcher.search(parse_query(question), limit=5)["results"]
    assert any(reason in h["matched"] for h in results), [h["matched"] for h in results]


def test_without_kinds_a_question_is_read_as_before() -> None:
    rg = corpus_graph("riftbound", "1.4")
    off = open_searcher(rg, None, replace(DEFAULT_RANKING, kind_weight=0.0))
    out = off.search(parse_query("What happens if a spell banishes a token?"), limit=10)
    assert not any("Non-Board Zones" in m for h in out["results"] for m in h["matched"])


# Questions whose reading uses a kind or the long-question coordination, for the offline port.
PARITY = [
    "What happens if a spell banishes a token?",
    "do buffs stay on a unit that returns to my hand?",
    "what is the trash?",
    "If I kill the unit after its triggered ability has gone onto the chain, does the ability still "
    "resolve and does its controller keep priority during the showdown?",
    "can I play a unit from my hand to a battlefield where my opponent has units during combat?",
]


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_kinds_and_long_questions_as_the_server(tmp_path: Path) -> None:
    rg = corpus_graph("riftbound", "1.4")
    ranking = replace(DEFAULT_RANKING, kind_weight=0.8, coord_long=0.5, long_question=10)
    searcher = open_searcher(rg, None, ranking)
    script = tmp_path / "1.4.js"
    script.write_text(index_script(build_search_index(rg, searcher, lambda n: n)), encoding="utf-8")
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in PARITY])
    for question, offline in zip(PARITY, answers):
        server = searcher.search(parse_query(question), limit=10)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], question
        assert offline["understood"] == server["understood"], question
    # the case above does go through a kind in both
    assert any("banishes → Non-Board Zones" in m for h in answers[0]["results"] for m in h["matched"])
