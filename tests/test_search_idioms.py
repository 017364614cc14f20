"""Finding F26: the idiom "right away" was read as the rule word "right" (Magic's 803.1b "attack
right") and "away". English idioms (kb/search/vocabulary/common.yaml ``idioms``) are read as one
unit before the words are matched: the rules' words for what the idiom means are searched
("at the same time" → simultaneously), or an idiom that means nothing for the rules ("right
away": the question's other words say when) is left out, in the server's search and the offline
one alike. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase
from kb.search.searcher import DEFAULT_RANKING
from kb.search.understand import vocabulary
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

# (ruleset, edition, question, a concept it is read into, a concept it must not hold)
READ = [
    ("mtg", "2026-01-16", "do both triggers go on the stack at the same time", "at the same time", "same"),
    ("riftbound", "1.4", "do two units die at once", "at once", "once"),
    ("riftbound", "1.4", "As soon as my unit dies, can I play a reaction", "As soon as", "soon"),
]


def _concepts(kb: KnowledgeBase, ruleset: str, edition: str, question: str) -> list[str]:
    return (kb.search(question, ruleset, edition, limit=3)["understood"] or {}).get("concepts", [])


@pytest.mark.parametrize("ruleset, edition, question, concept, absent", READ)
def test_an_idiom_is_read_as_one_unit(excerpt_kb: KnowledgeBase, ruleset: str, edition: str, question: str,
                                      concept: str, absent: str) -> None:
    concepts = _concepts(excerpt_kb, ruleset, edition, question)
    assert concept in concepts and absent not in concepts, concepts


# (ruleset, edition, question, a word of it left out as an idiom's)
LEFT_OUT = [
    ("mtg", "2026-01-16", "can I sacrifice it right away", "right"),
    ("mtg", "2026-01-16", "my creature has haste, can it attack right away", "away"),
    ("riftbound", "1.4", "can my unit move right away", "right"),
    ("riftbound", "1.4", "Right away, can I play a reaction", "Right"),
    ("mtg", "2026-01-16", "by the way, can I respond to a land", "way"),
    ("riftbound", "1.4", "is a showdown kind of like combat", "kind"),
]


@pytest.mark.parametrize("ruleset, edition, question, word", LEFT_OUT)
def test_an_idiom_meaning_nothing_for_the_rules_is_left_out(excerpt_kb: KnowledgeBase, ruleset: str, edition: str,
                                                            question: str, word: str) -> None:
    concepts = _concepts(excerpt_kb, ruleset, edition, question)
    assert not any(word in c.split() for c in concepts), concepts


# (ruleset, edition, question, a word of an idiom that stays a word: the idiom's words are apart)
APART = [
    ("mtg", "2026-01-16", "can I attack right, away from my other creatures", "right"),
]


@pytest.mark.parametrize("ruleset, edition, question, word", APART)
def test_an_idioms_words_apart_are_words(excerpt_kb: KnowledgeBase, ruleset: str, edition: str, question: str,
                                         word: str) -> None:
    assert word in _concepts(excerpt_kb, ruleset, edition, question)


@pytest.mark.parametrize("ruleset", ["riftbound", "mtg"])
def test_every_ruleset_reads_the_idioms_longest_first(ruleset: str) -> None:
    idioms = vocabulary(ruleset).idioms
    assert ("right", "away") in [words for words, _rules in idioms]
    assert dict(idioms)[("right", "away")] == ()
    assert [len(w) for w, _r in idioms] == sorted((len(w) for w, _r in idioms), reverse=True)


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_idioms_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    questions = [(r, e, q) for r, e, q, *_ in READ + LEFT_OUT + APART]
    answers = assert_offline_answers_as_the_server(excerpt_kb, tmp_path, questions,
                                                   searcher_with(excerpt_kb, DEFAULT_RANKING))
    server = [(excerpt_kb.search(q, r, e, limit=10)["understood"] or {}).get("concepts")
              for r, e in sorted({(r, e) for r, e, _q in questions}) for rr, ee, q in questions if (rr, ee) == (r, e)]
    assert [(a["understood"] or {}).get("concepts") for a in answers] == server
