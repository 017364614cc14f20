"""Finding F23: a keyword typed closed up ("quickdraw", "doublestrike") found nothing and said no
"did you mean". A word no rule uses reads as the rules' hyphenated word with its letters
("Quick-Draw") or as a cut of it into two words naming a term or keyword ("double strike"),
before the question is read (kb.search.spelling.Speller.splits,
EditionSearcher._split_compounds), in the server's search and the offline one alike. One case
per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase
from kb.search.searcher import DEFAULT_RANKING
from kb.search.spelling import Speller
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

# (the edition's words and how many rules use each, a word typed, its readings, likeliest first)
SPLITS = [
    ({"quick-draw": 3, "draw": 9}, "quickdraw", [("quick", "draw")]),
    ({"double": 5, "strike": 4}, "doublestrike", [("double", "strike")]),
    ({"first": 9, "strike": 4, "firsts": 1, "trike": 1}, "firststrike", [("first", "strike"), ("firsts", "trike")]),
    ({"double": 5, "strike": 4}, "Doublestrike".lower(), [("double", "strike")]),
    ({"double": 5, "strike": 4}, "double", []),            # a word the rules use
    ({"end": 5, "step": 4}, "endstep1", []),                # not letters only
    ({"in": 5, "play": 4}, "inplay", []),                   # a part shorter than three letters
    ({"mana": 5, "value": 4}, "manaval", []),               # "val" is no word of the rules
]


@pytest.mark.parametrize("vocabulary, word, readings", SPLITS)
def test_a_closed_up_word_reads_as_the_rules_words(vocabulary: dict[str, int], word: str,
                                                   readings: list[tuple[str, ...]]) -> None:
    assert Speller(vocabulary, english=frozenset()).splits(word) == readings


# (ruleset, edition, query, did you mean, a rule among the first 3, the term pinned or None)
FOUND = [
    ("mtg", "2026-01-16", "doublestrike", "double strike", "702.4", "Double Strike"),
    ("mtg", "2026-01-16", "firststrike", "first strike", "702.7", "First Strike"),
    ("mtg", "2026-01-16", "manavalue", "mana value", "202.3", "Mana Value"),
    ("mtg", "2026-01-16", "how many times does doublestrike deal damage",
     "how many times does double strike deal damage", "510.4", None),
    ("riftbound", "1.4", "quickdraw", "quick-draw", "819", "Quick-Draw"),
    ("riftbound", "1.4", "Quickdraw", "Quick-draw", "819", "Quick-Draw"),
    ("riftbound", "1.4", "how does quickdraw work on equipment", "how does quick-draw work on equipment",
     "819.1", None),
]


@pytest.mark.parametrize("ruleset, edition, query, said, rule, term", FOUND)
def test_a_closed_up_keyword_is_found_and_said(full_kb: KnowledgeBase, ruleset: str, edition: str, query: str,
                                              said: str, rule: str, term: str | None) -> None:
    data = full_kb.search(query, ruleset, edition, limit=3)
    assert data["did_you_mean"] == said
    assert rule in [h["number"] for h in data["results"]]
    assert (data["term"] or {}).get("term") == term


# (ruleset, edition, query): words the rules use, or no compound of theirs: no reading offered
KEPT = [
    ("riftbound", "1.4", "burnout"),     # a word of 431.3.c
    ("mtg", "2026-01-16", "anyway"),
    ("mtg", "2026-01-16", "-doublestrike trample"),  # a word excluded stays as typed
]


@pytest.mark.parametrize("ruleset, edition, query", KEPT)
def test_no_compound_is_read_into_other_words(full_kb: KnowledgeBase, ruleset: str, edition: str, query: str) -> None:
    assert full_kb.search(query, ruleset, edition, limit=3)["did_you_mean"] is None


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_splits_as_the_server(full_kb: KnowledgeBase, tmp_path: Path) -> None:
    answers = assert_offline_answers_as_the_server(
        full_kb, tmp_path, [(r, e, q) for r, e, q, *_ in FOUND], searcher_with(full_kb, DEFAULT_RANKING))
    assert sorted(a["did_you_mean"] for a in answers) == sorted(said for *_, said, _r, _t in FOUND)
