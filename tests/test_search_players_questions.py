"""Findings F20, F24 and F27: questions in players' words the acceptance asked of the real
documents, each answered by the vocabulary where such words belong (kb/search/vocabulary):
players' synonyms ("extra turn" is Riftbound's Additional Turn, "additional turn" Magic's extra
turn; "goes first" the starting player; "on my opponent's turn" any time), situations told
without their name (acting with a unit or creature the turn it was played: entering exhausted,
summoning sickness; who may see a zone's cards: a zone's privacy, Magic's public and hidden
zones) and a rule in players' words (704.5m: an Aura whose creature is gone; 446.3.c: a move
can't be reacted to; 605.3b: mana abilities don't use the stack). One case per line; the
offline search answers them as the server does."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase
from kb.search.searcher import DEFAULT_RANKING
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

# (ruleset, edition, question, a rule that answers it, within the first n)
ANSWERED = [
    ("riftbound", "1.4", "extra turn", "734", 1),
    ("riftbound", "1.4", "my opponent gets an extra turn, does that change who plays after them", "737", 3),
    ("mtg", "2026-01-16", "additional turn", "500.7", 1),
    ("mtg", "2026-01-16", "extra turn", "500.7", 1),
    ("riftbound", "1.4", "who goes first", "115.1.b.1", 3),
    ("mtg", "2026-01-16", "who goes first", "103.1", 3),
    ("riftbound", "1.4", "can I attack the turn I play it", "143.4", 3),
    ("mtg", "2026-01-16", "can I attack the turn I play it", "302.6", 1),
    ("mtg", "2026-01-16", "my opponent stole my creature, can they swing with it right away", "302.6", 1),
    ("riftbound", "1.4", "can I concede on my opponent's turn", "650", 1),
    ("mtg", "2026-01-16", "can I concede on my opponent's turn", "104.3a", 1),
    ("riftbound", "1.4", "where does a dead champion go", "108.3", 3),
    ("riftbound", "1.4", "where does a dead champion go", "428.1", 1),   # "dead": killed, to the trash
    ("mtg", "2026-01-16", "aura when enchanted creature dies", "704.5m", 1),
    ("riftbound", "1.4", "can my opponent see my hand", "108.7.c", 3),      # who may see a zone: Private
    ("riftbound", "1.4", "is the order of my main deck secret", "108.4.d", 1),
    ("mtg", "2026-01-16", "can I look through the cards in a graveyard", "400.2", 1),  # a public zone
    ("riftbound", "1.4", "can I react when my opponent's unit moves", "446.3.c", 1),  # moving is no chain item
    ("mtg", "2026-01-16", "do mana abilities use the stack", "605.3b", 3),
    ("riftbound", "1.4", "my rune deck runs out, can I still channel", "315.3.b.1", 1),  # no Burn Out
    ("riftbound", "1.4", "there are no cards left in my rune deck, what happens on my channel phase", "315.3.b.1", 3),
    ("riftbound", "1.4", "a card lets me do it but another card says I can't, who wins", "054.1", 1),  # can't beats can
    ("riftbound", "1.4", "how many cards in my opening hand", "116", 3),
    ("riftbound", "1.4", "I'm the only player remaining, do I win the game", "195", 3),
    ("riftbound", "1.4", "does playing my unit to a battlefield count as moving it", "446.2", 3),
    ("riftbound", "1.4", "is a rune a permanent", "161.1.a", 3),
    ("riftbound", "1.4", "can I equip my gear during combat", "151.2", 3),
    ("mtg", "2026-01-16", "when does damage wear off", "514.2", 3),
    ("mtg", "2026-01-16", "my commander died, can it go back to the command zone", "903.9a", 3),
    ("mtg", "2026-01-16", "who gets priority first in my draw step", "117.3a", 3),
    ("riftbound", "1.4", "my opponent's trigger and mine go off from the same thing, whose goes on the chain first", "383.3.d.1", 3),
]


@pytest.mark.parametrize("ruleset, edition, question, rule, within", ANSWERED)
def test_a_players_question_finds_its_rule(full_kb: KnowledgeBase, ruleset: str, edition: str, question: str,
                                           rule: str, within: int) -> None:
    found = [h["number"] for h in full_kb.search(question, ruleset, edition, limit=10)["results"]]
    assert rule in found[:within], found


# (ruleset, edition, question, a concept it must not be read into: the synonym's sense is not this)
NOT_READ = [
    ("riftbound", "1.4", "does my unit play first or second in the showdown", "'acting with a unit the turn it is played'"),
    ("mtg", "2026-01-16", "can I attack with a creature that has been out since last turn", "'acting with a creature the turn it came under your control'"),
]


@pytest.mark.parametrize("ruleset, edition, question, concept", NOT_READ)
def test_a_situation_needs_all_its_parts(full_kb: KnowledgeBase, ruleset: str, edition: str, question: str,
                                         concept: str) -> None:
    understood = full_kb.search(question, ruleset, edition, limit=3)["understood"] or {}
    assert concept not in understood.get("concepts", [])


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_answers_them_as_the_server(full_kb: KnowledgeBase, tmp_path: Path) -> None:
    assert_offline_answers_as_the_server(full_kb, tmp_path, sorted({(r, e, q) for r, e, q, _n, _w in ANSWERED}),
                                         searcher_with(full_kb, DEFAULT_RANKING))
