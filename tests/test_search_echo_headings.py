"""A heading whose whole text names a term defined elsewhere ("652.5.c. Priority" inside 652
Removal of a Player; Priority is defined in 312.1) is a local case of that term: in it and
the rules under it the term's words count less (kb.search.scoring.echo_headings), so core
rules that say something about the term outrank it, while a question about that case still
finds it. One case per line."""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.search import open_searcher
from kb.search.scoring import echo_headings


@pytest.fixture(scope="module")
def rift(excerpt_kb: KnowledgeBase):
    return open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)


# (rule, whether it echoes a term defined elsewhere, the stems echoed)
ECHOES = [
    ("652.5.c", True, {"prioriti"}),     # "Priority" under Removal of a Player
    ("652.5.c.2", True, {"prioriti"}),   # a rule under that heading
    ("652.5.b", True, {"focu"}),         # "Focus" likewise
    ("312.1", False, set()),             # Priority's own definition
    ("341", False, set()),               # "Showdowns": a section of its chapter, not a local case
    ("805", False, set()),               # a keyword's heading: its term is defined under it
    ("340.4", False, set()),             # a rule that says something
]


@pytest.mark.parametrize("number, echoes, stems", ECHOES)
def test_a_heading_echoing_a_term_is_known(rift, number: str, echoes: bool, stems: set[str]) -> None:
    impacts = rift.impacts
    if number not in impacts.docnum:
        pytest.skip(f"{number} is not in the excerpt")
    found = echo_headings(rift.rg, impacts.docnum).get(impacts.docnum[number])
    assert (found is not None) == echoes
    assert set(found or ()) == stems


def _top(kb: KnowledgeBase, question: str, n: int) -> list[str]:
    found = kb.search(question, "riftbound", "1.4", limit=n)
    return [r["number"] for r in found["results"]]


# (question, a rule that must not be in the first n, n); both were there before
OUTRANKED = [
    ("can I hold priority and play another spell on top of my own", "652.5.c", 6),
    ("who has priority after a spell resolves", "652.5.c.2", 4),
]


@pytest.mark.parametrize("question, rule, n", OUTRANKED)
def test_a_local_heading_does_not_outrank_core_rules(excerpt_kb: KnowledgeBase, question: str, rule: str,
                                                     n: int) -> None:
    assert rule not in _top(excerpt_kb, question, n)


# (question, a rule of the local case that stays in the first n, n)
STILL_FOUND = [
    ("what happens to priority when a player is removed", "652.5.c", 1),
    ("a player conceded during a chain who gets priority", "652.5.c.1", 1),
]


@pytest.mark.parametrize("question, rule, n", STILL_FOUND)
def test_a_question_about_the_local_case_still_finds_it(excerpt_kb: KnowledgeBase, question: str, rule: str,
                                                        n: int) -> None:
    assert rule in _top(excerpt_kb, question, n)
