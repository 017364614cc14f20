"""A ruling hit brings in the rules it cites (issue #20): the rule search's evidence from
earlier rulings (:func:`kb.records.search.ruling_evidence`), wired into the facade's search.

The rulings of tests/fixtures/ruling-questions/ are asked again in other words
(``questions.yaml``, one case a line of data); the facade's answer says which ruling brought
a rule in, and a knowledge base without rulings answers as the rule search alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kb.query import KnowledgeBase, searcher
from kb.records import RecordSet, load_folder
from kb.records.citing import attach_records
from kb.records.search import _quoted, ruling_evidence
from kb.search import parse_query

FOLDER = Path(__file__).parent / "fixtures" / "ruling-questions"
CASES: list[dict[str, Any]] = yaml.safe_load((FOLDER / "questions.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rulings() -> RecordSet:
    found = load_folder(FOLDER)
    assert not found.diagnostics, found.diagnostics
    return found


@pytest.fixture(scope="module")
def ruled_kb(excerpt_home: Path, rulings: RecordSet) -> KnowledgeBase:
    """The default build answering from the test rulings only (its own instance)."""
    kb = KnowledgeBase.open(excerpt_home)
    attach_records(kb, rulings)
    return kb


def ranked(kb: KnowledgeBase, case: dict[str, Any], rulings: RecordSet | None) -> list[dict[str, Any]]:
    """The hits of a case's question, with the rulings as evidence (or without, for None)."""
    source = ruling_evidence(kb, case["ruleset"], case["edition"], records=rulings) if rulings else None
    return searcher(kb, case["ruleset"], case["edition"]).search(
        parse_query(case["question"]), limit=20, evidence=source)["results"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_question_an_earlier_ruling_asked_brings_in_its_rules(
        excerpt_kb: KnowledgeBase, rulings: RecordSet, case: dict[str, Any]) -> None:
    plain = [h["number"] for h in ranked(excerpt_kb, case, None)]
    hits = ranked(excerpt_kb, case, rulings)
    numbers = [h["number"] for h in hits]
    if "keeps_first" in case:
        assert numbers[:case["keeps_first"]] == plain[:case["keeps_first"]]
        return
    rule, within = case["brings_in"], case["within"]
    assert rule not in plain[:within], f"{rule} is already in the top {within} without rulings: {plain}"
    assert rule in numbers[:within], numbers
    ruling = rulings.get("ruling", case["ruling"])
    assert ruling is not None
    why = f"cited by ruling {ruling.id}: '{ruling.question}'"
    assert why in hits[numbers.index(rule)]["matched"]


def test_the_facade_search_says_which_ruling_brought_a_rule_in(ruled_kb: KnowledgeBase) -> None:
    # riftbound-standard-move-exhausts was written for 1.3: 144.2 there is 144.2 in 1.4.
    data = ruled_kb.search("my unit moved to a different battlefield, can it still attack")
    hit = next(h for h in data["results"] if h["number"] == "144.2")
    assert data["edition"] == "1.4" and data["results"].index(hit) < 3
    assert ("cited by ruling riftbound-standard-move-exhausts: 'My unit walked over to another "
            "battlefield. Can it still attack or use its abilities afterwards?'") in hit["matched"]


def test_without_rulings_the_facade_answers_as_the_rule_search_alone(excerpt_home: Path) -> None:
    kb = KnowledgeBase.open(excerpt_home)
    attach_records(kb, RecordSet())
    for case in CASES:
        alone = searcher(kb, case["ruleset"], case["edition"]).search(parse_query(case["question"]), limit=10)
        answer = kb.search(case["question"], case["ruleset"], case["edition"])
        assert answer == {**alone, "clamped": None, "no_such_rule": None, "other_rulesets": []}


def test_a_weak_ruling_match_adds_less_than_asking_its_question_again(
        excerpt_kb: KnowledgeBase, rulings: RecordSet) -> None:
    source = ruling_evidence(excerpt_kb, "riftbound", "1.4", records=rulings)
    ruling = rulings.get("ruling", "riftbound-standard-move-exhausts")
    assert ruling is not None
    again = {e.number: e.strength for e in source(parse_query(ruling.question))}
    paraphrased = {e.number: e.strength for e in source(parse_query("my unit moved to a different battlefield, can it still attack"))}
    one_word = {e.number: e.strength for e in source(parse_query("can I respond to a spell"))}
    assert 0.85 < again["144.2"] <= 1.0  # its question words ("can", "still") are not asked
    assert 0.3 < paraphrased["144.2"] < again["144.2"]
    assert one_word.get("144.2", 0.0) < 0.1


# a ruling's question, how a hit's reason quotes it
QUOTED = [
    ("Can I respond to a unit being played?", "'Can I respond to a unit being played?'"),
    ("Two  lines\nof question", "'Two lines of question'"),
    ("word " * 40, "'" + " ".join(["word"] * 24) + "…'"),
]


@pytest.mark.parametrize("question,quoted", QUOTED)
def test_a_reason_quotes_the_rulings_question_cut_at_a_word(question: str, quoted: str) -> None:
    assert _quoted(question) == quoted


# a query with words required, excluded or quoted, a rule a ruling it resembles cites
STRICT = [
    ("battlefield walked -unit", "144.2"),
    ("battlefield AND walked AND attack", "144.2"),
    ('"battlefield walked" attack', "144.2"),  # a quoted phrase keeps its words together too
]


@pytest.mark.parametrize("query,cited", STRICT)
def test_required_and_excluded_words_keep_their_word_over_a_ruling(
        ruled_kb: KnowledgeBase, query: str, cited: str) -> None:
    """Evidence only ranks up rules that match such a query, never brings in one that does not."""
    assert cited in {e.number for e in ruling_evidence(ruled_kb, "riftbound", "1.4")(parse_query(query))}
    alone = searcher(ruled_kb, "riftbound", "1.4").search(parse_query(query), limit=100)
    data = ruled_kb.search(query, limit=100)
    assert {h["number"] for h in data["results"]} == {h["number"] for h in alone["results"]}
    assert cited not in {h["number"] for h in data["results"]}


def test_rulings_false_answers_from_the_rules_alone_as_the_offline_pack_does(ruled_kb: KnowledgeBase) -> None:
    question = "my unit moved to a different battlefield, can it still attack"
    alone = searcher(ruled_kb, "riftbound", "1.4").search(parse_query(question), limit=10)
    # The facade adds only its rule-number fields (None: the question is not a number).
    assert ruled_kb.search(question, rulings=False) == {**alone, "clamped": None, "no_such_rule": None, "other_rulesets": []}
    assert ruled_kb.search(question) != {**alone, "clamped": None, "no_such_rule": None, "other_rulesets": []}
