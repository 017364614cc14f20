"""Finding F28: a hit ranked by its children's evidence (the roll-up: 608.2 lifted by 608.2n)
reported an empty ``matched``; it now says what matched in its best child, with that child's
number (kb.search.searcher.LIFTED_REASON), in the server's search and the offline one alike.
One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase
from kb.search.searcher import DEFAULT_RANKING
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

# (ruleset, edition, question, a rule holding none of its concepts itself, the child it says)
LIFTED = [
    ("mtg", "2026-01-16", "my token dies, does it stay in the graveyard", "608.2", "608.2n"),
    ("mtg", "2026-01-16", "can I concede on my opponent's turn", "104.3", "104.3a"),
    ("mtg", "2026-01-16", "can I concede on my opponent's turn", "101", "101.1"),
]


def _hit(kb: KnowledgeBase, ruleset: str, edition: str, question: str, number: str) -> dict:
    results = kb.search(question, ruleset, edition, limit=20)["results"]
    return next(h for h in results if h["number"] == number)


@pytest.mark.parametrize("ruleset, edition, question, lifted, child", LIFTED)
def test_a_lifted_hit_says_what_matched_in_its_child(full_kb: KnowledgeBase, ruleset: str, edition: str,
                                                     question: str, lifted: str, child: str) -> None:
    said = _hit(full_kb, ruleset, edition, question, lifted)["matched"]
    held = _hit(full_kb, ruleset, edition, question, child)["matched"]
    concepts = [m for m in held if not m.startswith(("referred to by", "in the timing model", "in players' words",
                                                     "one statement holds", "as the keyword's"))]
    assert said and said[0] == f"in its rule {child}: " + ", ".join(concepts)


# (ruleset, edition, question, a hit that holds concepts of its own: said as before)
OWN = [
    ("mtg", "2026-01-16", "can I concede on my opponent's turn", "104.3a"),
]


@pytest.mark.parametrize("ruleset, edition, question, number", OWN)
def test_a_hit_with_concepts_of_its_own_says_only_those(full_kb: KnowledgeBase, ruleset: str, edition: str,
                                                         question: str, number: str) -> None:
    assert not any(m.startswith("in its rule ") for m in _hit(full_kb, ruleset, edition, question, number)["matched"])


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_says_a_lifted_hits_child_as_the_server(full_kb: KnowledgeBase, tmp_path: Path) -> None:
    answers = assert_offline_answers_as_the_server(
        full_kb, tmp_path, sorted({(r, e, q) for r, e, q, _l, _c in LIFTED}), searcher_with(full_kb, DEFAULT_RANKING))
    assert any(m.startswith("in its rule ") for a in answers for h in a["results"] for m in h["matched"])
