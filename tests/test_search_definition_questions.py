"""A question asking what a term means ("what does it mean to destroy or sacrifice a
creature?", "define mighty") brings the term's defining rule first, or in the first three
when it names two terms (``Ranking.defining_weight``, the shape whose prior is "definition"
in kb/search/vocabulary); a question that only names a term ("can I destroy a creature
with …") ranks as it did; the offline search ranks and says the same. One case per line,
over the embedded excerpt and, where ../shared is present, the full Riftbound 1.4 and
Magic 2026-01-16."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase, searcher
from kb.search import EditionSearcher, Ranking, parse_query
from kb.search.searcher import DEFAULT_RANKING, DEFINING_REASON
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

EDITION = {"mtg": "2026-01-16", "riftbound": "1.4"}
EDITION_OF_MTG = ("mtg", EDITION["mtg"])
OFF = Ranking(defining_weight=0.0)

# (question, ruleset, the defining rule it asks for, where at most in the excerpt, … in the
# full document; None: that build does not define the term).
DEFINING = [
    ("what does it mean to destroy or sacrifice a creature?", "mtg", "701.8a", 3, 3),
    ("what does it mean to destroy or sacrifice a creature?", "mtg", "701.21a", 1, 1),
    ("what does it mean to sacrifice a permanent?", "mtg", "701.21a", 1, 1),
    ("what's the difference between destroy and sacrifice?", "mtg", "701.21a", 1, 1),
    ("what does it mean when a creature is destroyed?", "mtg", "701.8a", 3, 3),
    ("what does indestructible mean for a creature?", "mtg", "702.12b", 1, 1),
    ("what does it mean to counter a spell?", "mtg", "701.6a", None, 1),
    ("whats the defintion of trample damage", "mtg", "702.19b", 1, 1),
    ("what does it mean for a unit to be mighty?", "riftbound", "707", None, 1),
    ("what does it mean to exhaust a unit?", "riftbound", "414.1", None, 1),
    ("what does it mean to kill a unit?", "riftbound", "428.1", None, 3),
    ("what does deflect mean on a unit?", "riftbound", "809.1", 3, 3),
    ("define mighty", "riftbound", "707", None, 1),
    ("whats a showdwn", "riftbound", "316.8.c", 1, 1),
]

# (question, ruleset): it names a term but does not ask what it means; the prior leaves it.
ONLY_NAMING = [
    ("can I destroy a creature with deathtouch?", "mtg"),
    ("if my creature is destroyed, does its aura go to the graveyard?", "mtg"),
    ("can I sacrifice a creature in response to removal?", "mtg"),
    ("who acts first in a showdown?", "riftbound"),
    ("can I exhaust a unit to pay for a spell during a showdown?", "riftbound"),
]

# (question, ruleset, whether its shape asks what a term means). A question that is one term
# alone once its question words are left out ("what is a showdown?") is no question read but
# the term's card, its defining rules pinned first (Ranking.pin_terms).
SHAPES = [
    ("what does it mean to destroy a creature?", "mtg", True),
    ("What does 'deathtouch' mean for a blocker?", "mtg", True),
    ("waht does regenrate mean for a creature?", "mtg", True),
    ("what is meant by the stack?", "mtg", True),
    ("how is a permanent defined?", "mtg", True),
    ("the definition of flash, please", "mtg", True),
    ("what counts as a permanent?", "mtg", True),
    ("what's the difference between hexproof and shroud?", "mtg", True),
    ("what is a showdown in combat?", "riftbound", True),
    ("define mighty for a unit", "riftbound", True),
    ("how does quickdraw work on gear?", "riftbound", True),
    ("can I destroy a creature with deathtouch?", "mtg", False),
    ("what happens when a creature with deathtouch is blocked?", "mtg", False),
    ("what is the most damage trample can assign if the blocker has 2 toughness?", "mtg", False),
    ("who acts first in a showdown?", "riftbound", False),
    ("does deflect trigger when my opponent targets the unit?", "riftbound", False),
]


def _searcher(kb: KnowledgeBase, ruleset: str, ranking: Ranking = DEFAULT_RANKING) -> EditionSearcher:
    shared = searcher(kb, ruleset, EDITION[ruleset])
    return EditionSearcher(kb.edition(ruleset, EDITION[ruleset]), shared.index, shared.speller.counts, ranking)


def _numbers(kb: KnowledgeBase, ruleset: str, question: str, ranking: Ranking = DEFAULT_RANKING) -> list[str]:
    return [h["number"] for h in _searcher(kb, ruleset, ranking).search(parse_query(question), limit=20)["results"]]


def _check_defining(kb: KnowledgeBase, question: str, ruleset: str, rule: str, within: int | None) -> None:
    if within is None:
        pytest.skip("this build does not define the term")
    found = _numbers(kb, ruleset, question)
    assert rule in found[:within], (found[:8], _numbers(kb, ruleset, question, OFF)[:8])


@pytest.mark.parametrize("question,ruleset,rule,in_excerpt,_in_full", DEFINING, ids=[f"{c[0]}-{c[2]}" for c in DEFINING])
def test_the_defining_rule_comes_first_in_the_excerpt(excerpt_kb: KnowledgeBase, question: str, ruleset: str,
                                                      rule: str, in_excerpt: int | None, _in_full: int | None) -> None:
    _check_defining(excerpt_kb, question, ruleset, rule, in_excerpt)


@pytest.mark.parametrize("question,ruleset,rule,_in_excerpt,in_full", DEFINING, ids=[f"{c[0]}-{c[2]}" for c in DEFINING])
def test_the_defining_rule_comes_first_in_the_full_documents(full_kb: KnowledgeBase, question: str, ruleset: str,
                                                             rule: str, _in_excerpt: int | None,
                                                             in_full: int | None) -> None:
    _check_defining(full_kb, question, ruleset, rule, in_full)


@pytest.mark.parametrize("question,ruleset", ONLY_NAMING, ids=[c[0] for c in ONLY_NAMING])
def test_a_question_only_naming_a_term_ranks_as_without_the_prior(excerpt_kb: KnowledgeBase, question: str,
                                                                  ruleset: str) -> None:
    on = _searcher(excerpt_kb, ruleset).search(parse_query(question), limit=20)["results"]
    off = _searcher(excerpt_kb, ruleset, OFF).search(parse_query(question), limit=20)["results"]
    assert [(h["number"], h["score"], h["matched"]) for h in on] == [(h["number"], h["score"], h["matched"]) for h in off]


@pytest.mark.parametrize("question,ruleset,asks", SHAPES, ids=[c[0] for c in SHAPES])
def test_the_shape_asking_what_a_term_means(excerpt_kb: KnowledgeBase, question: str, ruleset: str, asks: bool) -> None:
    s = _searcher(excerpt_kb, ruleset)
    shapes = {x.name: x.prior for x in s.vocabulary.shapes}
    read = s.search(parse_query(question), limit=1)["understood"]
    shape = read["shape"] if read else None
    assert (shapes.get(shape) == "definition") == asks, shape


def test_a_defining_rule_says_why_it_ranks_up(excerpt_kb: KnowledgeBase) -> None:
    question = "what does it mean to destroy or sacrifice a creature?"
    hits = _searcher(excerpt_kb, "mtg").search(parse_query(question), limit=5)["results"]
    said = {h["number"]: [m for m in h["matched"] if DEFINING_REASON in m] for h in hits}
    assert said["701.21a"] == [f"'what does X mean' → {DEFINING_REASON}Sacrifice"]
    assert said["701.8a"] == [f"'what does X mean' → {DEFINING_REASON}Destroy"]
    off = _searcher(excerpt_kb, "mtg", OFF).search(parse_query(question), limit=10)["results"]
    assert not any(DEFINING_REASON in m for h in off for m in h["matched"])


def test_a_heading_only_naming_the_term_gets_no_prior_the_rules_under_it_do(excerpt_kb: KnowledgeBase) -> None:
    s = _searcher(excerpt_kb, "mtg")
    rules = excerpt_kb.edition(*EDITION_OF_MTG).edition.rules
    assert rules["701.8"].text == "Destroy" and excerpt_kb.edition(*EDITION_OF_MTG).edition.terms["destroy"].defined_by == ["701.8"]
    under = {n for n, rule in rules.items() if rule.parent == "701.8"}
    assert under and {s.impacts.number[d] for d in s._defining_docs("destroy")} == under


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_ranks_definition_questions_as_the_server(excerpt_kb: KnowledgeBase,
                                                                    tmp_path: Path) -> None:
    asked = [(rs, EDITION[rs], q) for q, rs, *_ in DEFINING] + [(rs, EDITION[rs], q) for q, rs in ONLY_NAMING]
    answers = assert_offline_answers_as_the_server(excerpt_kb, tmp_path, asked,
                                                   searcher_with(excerpt_kb, DEFAULT_RANKING))
    assert any(DEFINING_REASON in m for a in answers for h in a["results"] for m in h["matched"])
