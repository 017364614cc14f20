"""Asking a ruling's own question again (issue #18, finding 3): the rules the ruling cites come
within the first 3 hits, where they ranked 6th and 10th when its question words ("can", "I",
"being") counted against how fully the question asks the ruling's. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.query import KnowledgeBase, searcher
from kb.records import load_folder
from kb.records.search import as_asked, ruling_evidence
from kb.search import parse_query

FIXTURES = Path(__file__).parent / "fixtures"

# (the folder of rulings, the ruling asked again, the edition searched, the rules it cites there)
OWN_QUESTIONS = [
    ("ruling-own-question", "r-12", "riftbound", "1.4", ["337.2", "349"]),
    ("ruling-questions", "riftbound-standard-move-exhausts", "riftbound", "1.4", ["144.2"]),
    ("ruling-questions", "riftbound-everyone-passed-in-a-showdown", "riftbound", "1.4", ["347.2.a"]),
    ("ruling-questions", "mtg-response-to-a-spell", "mtg", "2010-10-01", ["116.3c", "116.3d"]),
]


@pytest.mark.parametrize("folder, ruling_id, ruleset, edition, cited", OWN_QUESTIONS)
def test_asking_a_rulings_own_question_brings_its_rules_into_the_top_3(
        excerpt_kb: KnowledgeBase, folder: str, ruling_id: str, ruleset: str, edition: str,
        cited: list[str]) -> None:
    rulings = load_folder(FIXTURES / folder)
    ruling = rulings.get("ruling", ruling_id)
    assert ruling is not None and not rulings.diagnostics
    source = ruling_evidence(excerpt_kb, ruleset, edition, records=rulings)
    hits = searcher(excerpt_kb, ruleset, edition).search(parse_query(ruling.question), limit=10,
                                                         evidence=source)["results"]
    top = [h["number"] for h in hits[:3]]
    assert all(rule in top for rule in cited), (top, cited)
    assert all(e.strength == 1.0 for e in source(parse_query(ruling.question)) if e.number in cited)


# (a ruling's question, ruleset, the words the rule search asks of it)
AS_ASKED = [
    ("Can I respond to a unit being played?", "riftbound", "respond unit played"),
    ("My unit walked over to another battlefield. Can it still attack?", "riftbound",
     "unit walked over another battlefield attack"),
    ("Can I?", "mtg", "can i"),  # nothing but question words: kept as it is
]


@pytest.mark.parametrize("question, ruleset, asked", AS_ASKED)
def test_a_rulings_question_is_read_as_the_search_reads_one(question: str, ruleset: str, asked: str) -> None:
    assert as_asked(question, ruleset) == asked
