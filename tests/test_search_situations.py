"""Situations told without their name, and words read in their sense (kb/search/understand.py:
the vocabulary's ``situations``, ``senses`` and an entry's ``only_with``; task J's misses).

"my 2 guys walk onto the battlefield where his unit is" tells a combat without the word: the
situation brings in the rules' words for it, at ``Ranking.situation_weight``. "the card holds a
counter" is no Hold (Riftbound's scoring term): a term with a sense is the term only beside a
word of that sense. "my unit lands at a battlefield" is no Magic land (a Riftbound rune): a
players' word with ``only_with`` is the rules' concept only beside a word of its sense. One case
per line; the offline search reads the questions as the server does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase, searcher
from kb.search import Ranking, parse_query
from kb.search.understand import understand

from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

EDITION = {"riftbound": "1.4", "mtg": "2026-01-16"}

# (ruleset, question, the situations it tells: their labels)
SITUATIONS = [
    ("riftbound", "my 2 guys walk onto the battlefield where his unit is sitting, what happens now",
     ["'units of two players at one battlefield'"]),
    ("riftbound", "can I move my unit to a battlefield?", []),
    ("riftbound", "does my opponent get to respond to my standard move before my unit arrives at the battlefield?", []),
    ("riftbound", "I moved into an empty battlefield, who gets focus?", ["'a unit moves to a battlefield no one holds'"]),
    ("riftbound", "I need to draw for turn but my deck is empty, do I lose?", ["'a draw from an empty deck'"]),
    ("riftbound", "my rune deck runs out, can I still channel?", ["'a rune deck running out'"]),
    ("riftbound", "there are no cards left in my rune deck", ["'a rune deck running out'"]),
    ("riftbound", "how many runes go in a rune deck?", []),
    ("riftbound", "I have to draw 2 but there's only 1 card left in my deck", ["'a draw from an empty deck'"]),
    ("riftbound", "only one card left in my rune deck, what happens when I channel", ["'a rune deck running out'"]),
    ("riftbound", "my token unit got killed, does it go to my trash?", ["'a token leaving the board'"]),
    ("riftbound", "how do I make a token?", []),
    ("riftbound", "what happens if an effect banishes a token?", ["'a token leaving the board'"]),
    ("mtg", "I have 9 cards at the end of my turn, what do I do", ["'too many cards in hand at the end of a turn'"]),
    ("mtg", "I drew 2 cards at the end of my opponent's turn", []),
    ("mtg", "what happens at the end of my turn?", []),
    ("mtg", "I didn't spend my mana in my upkeep, do I keep it for my draw step?", ["'mana left over'"]),
    ("mtg", "how do I add mana to my mana pool?", []),
    ("riftbound", "after theirs resolves who gets to act next", ["'what follows an item resolving'"]),
    ("riftbound", "I didn't spend all my energy, can I keep it for my opponent's turn?", ["'resources left over'"]),
    ("riftbound", "my attackers survived but so did his defender, what now?",
     ["'attackers and defenders both still there after combat damage'"]),
    ("mtg", "I played a second copy of my legendary creature, what happens?", ["'two of the same legendary permanent'"]),
    ("mtg", "what does legendary mean?", []),
    ("mtg", "my blocker got bolted before damage, does the attacker hit me now", ["'a blocker gone before damage'"]),
    ("mtg", "my token creature died, does its dies trigger still happen?", ["'a token leaving the battlefield'"]),
    ("mtg", "who gets priority after my spell resolves", ["'what follows a spell resolving'"]),
    ("mtg", "after they targeted it, what happens when their spell resolves?", []),
    ("mtg", "opp bolts my bear, I respond with giant growth, which one resolves first",
     ["'which spell resolves first'"]),
    ("riftbound", "does damage stay on my units after combat?", ["'damage wearing off'"]),
    ("riftbound", "what does damage do to a unit?", []),
    ("riftbound", "can my opponent look at the cards in my hand?", ["'who may see a zone's cards'"]),
    ("riftbound", "is the order of my deck secret?", ["'who may see a zone's cards'"]),
    ("riftbound", "when does a card go to my trash?", []),
    ("mtg", "can I look through my opponent's graveyard whenever I want", ["'who may see a zone's cards'"]),
    ("mtg", "is my library public?", ["'who may see a zone's cards'"]),
    ("mtg", "what happens when my creature is put into my graveyard?", []),
]

# (ruleset, question, the concept's label as the question reads it)
SENSES = [
    ("riftbound", "the card holds a counter, what happens when it dies", "holds"),
    ("riftbound", "my unit holds the battlefield, do I score", "holds (term)"),
    ("riftbound", "when does a hold trigger at a battlefield I control?", "hold (term)"),
]

# (ruleset, question, the players' word, whether it brings in the rules' concept)
ONLY_WITH = [
    ("riftbound", "when my unit lands on a battlefield does it trigger", "lands", False),
    ("riftbound", "do my lands untap at the start of my turn", "lands", True),
    ("riftbound", "can I tap lands for mana on my opponent's turn", "lands", True),
    ("riftbound", "how much mana do I get", "mana", True),
]

# (ruleset, question, the players' phrase, whether it is read as its entry): a word right before
# it that makes it another thing (Entry.not_after: a Rune Deck running out is no Burn Out)
NOT_AFTER = [
    ("riftbound", "my rune deck is out of runes, can I still channel?", "deck is out", False),
    ("riftbound", "my deck is out, do I lose?", "deck is out", True),
    ("riftbound", "my main deck is out of cards, what happens", "deck is out", True),
]


def _read(kb: KnowledgeBase, ruleset: str, question: str, **ranking: object) -> dict:
    s = searcher(kb, ruleset, EDITION[ruleset])
    r = Ranking(**ranking)  # type: ignore[arg-type]
    read = understand(parse_query(question), s.vocabulary, lambda w: len(s.impacts.word(w)), s._terms,
                      s._term_kind, term_weight=r.term_weight, named_once=r.named_once,
                      situation_weight=r.situation_weight)
    return {(c.label or c.atoms[0].text.strip(" ,.?!;:")): c for c in read.clauses}


@pytest.mark.parametrize("ruleset, question, told", SITUATIONS)
def test_a_situation_told_brings_in_its_concept(excerpt_kb: KnowledgeBase, ruleset: str, question: str,
                                                told: list[str]) -> None:
    read = _read(excerpt_kb, ruleset, question, situation_weight=0.5)
    names = {s.name for s in searcher(excerpt_kb, ruleset, EDITION[ruleset]).vocabulary.situations}
    found = [k for k in read if k.strip("'") in names]
    assert found == told
    assert all(read[k].weight == 0.5 and read[k].origin == "shape" for k in found)


def test_no_situation_at_weight_zero(excerpt_kb: KnowledgeBase) -> None:
    ruleset, question, told = SITUATIONS[0]
    assert told and not set(told) & set(_read(excerpt_kb, ruleset, question, situation_weight=0.0))


@pytest.mark.parametrize("ruleset, question, label", SENSES)
def test_a_term_with_a_sense_is_the_term_only_beside_its_words(excerpt_kb: KnowledgeBase, ruleset: str,
                                                               question: str, label: str) -> None:
    read = _read(excerpt_kb, ruleset, question)
    assert label in read, list(read)
    assert (read[label].origin == "term") == label.endswith("(term)")


@pytest.mark.parametrize("ruleset, question, word, brought", ONLY_WITH)
def test_a_players_word_is_the_rules_concept_only_in_its_sense(excerpt_kb: KnowledgeBase, ruleset: str,
                                                               question: str, word: str, brought: bool) -> None:
    read = _read(excerpt_kb, ruleset, question)
    assert word in read, list(read)
    assert ("rune" in [a.text for a in read[word].atoms]) == brought


@pytest.mark.parametrize("ruleset, question, phrase, read_as_entry", NOT_AFTER)
def test_a_players_phrase_after_another_things_word_is_not_its_entry(excerpt_kb: KnowledgeBase, ruleset: str,
                                                                     question: str, phrase: str,
                                                                     read_as_entry: bool) -> None:
    read = _read(excerpt_kb, ruleset, question)
    assert (phrase in read and read[phrase].origin == "vocabulary") == read_as_entry, list(read)
    assert any("burn out" in [a.text for a in c.atoms] for c in read.values()) == read_as_entry


# (ruleset, edition, question) asked of the offline search and of the server
OFFLINE = [
    ("riftbound", "1.4", "my 2 guys walk onto the battlefield where his unit is sitting, what happens now"),
    ("riftbound", "1.4", "the card holds a counter, what happens when it dies"),
    ("riftbound", "1.4", "my unit holds the battlefield, do I score"),
    ("riftbound", "1.4", "when my unit lands on a battlefield does it trigger"),
    ("riftbound", "1.4", "do my lands untap at the start of my turn"),
    ("riftbound", "1.4", "I play a spell, my opponent responds, after theirs resolves who gets to act next"),
    ("mtg", "2026-01-16", "I played a second copy of my legendary creature, what happens to them"),
    ("riftbound", "1.4", "can my opponent look at the cards in my hand?"),
    ("mtg", "2026-01-16", "can I look through my opponent's graveyard whenever I want"),
    ("riftbound", "1.4", "my token unit got killed, does it go to my trash?"),
    ("riftbound", "1.4", "I have to draw 2 but there's only 1 card left in my deck"),
    ("mtg", "2026-01-16", "I have 9 cards at the end of my turn, what do I do"),
    ("riftbound", "1.4", "my rune deck is out of runes, can I still channel?"),
    ("riftbound", "1.4", "my deck is out, do I lose?"),
]


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_them_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    answers = assert_offline_answers_as_the_server(excerpt_kb, tmp_path, OFFLINE,
                                                   searcher_with(excerpt_kb, Ranking(situation_weight=1.0)))
    read = dict(zip(sorted(OFFLINE, key=lambda q: q[:2]), answers))  # asked edition by edition
    assert "'units of two players at one battlefield'" in read[OFFLINE[0]]["understood"]["concepts"]
    assert "holds" in read[OFFLINE[1]]["understood"]["concepts"]  # no Hold here
