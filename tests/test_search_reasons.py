"""A hit's reasons from the timing model: the summaries of its rule that the question matched
are one reason ("in the timing model: a · b"), not the prefix once per summary; the offline
search says the same. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import corpus_graph
from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, searcher
from kb.search import parse_query
from kb.search.schema import model_answers
from kb.search.searcher import SUMMARY_JOINER, TIMING_MODEL_REASON

# (question, a hit, summaries of its rule the question matches): a rule the timing model
# summarises several times gives one reason listing them.
GROUPED = [
    ("who gets focus", "313.2", ["focus passes to the next player", "the player with focus receives priority"]),
    ("when is an item undone", "358.5", ["an Ambush unit's location became invalid: its play is undone",
                                         "an item whose cost cannot be paid as it is finalized is undone"]),
    ("what happens when my unit dies", "370.1", ["a replacement effect replaces a unit's death as it happens",
                                                 "a replacement effect checks whether the dying unit has Deathknell"]),
]


def _told(hit: dict) -> list[list[str]]:
    return [m.removeprefix(TIMING_MODEL_REASON).split(SUMMARY_JOINER)
            for m in hit["matched"] if m.startswith(TIMING_MODEL_REASON)]


@pytest.mark.parametrize("question,number,summaries", GROUPED, ids=[c[0] for c in GROUPED])
def test_a_hits_timing_model_summaries_are_one_reason(excerpt_kb: KnowledgeBase, question: str, number: str,
                                                       summaries: list[str]) -> None:
    data = excerpt_kb.search(question, "riftbound", "1.4", limit=20)
    hit = next(r for r in data["results"] if r["number"] == number)
    told = _told(hit)
    assert len(told) == 1, hit["matched"]
    assert set(summaries) <= set(told[0]), told
    for r in data["results"]:  # never two such reasons, never a summary twice
        assert len(_told(r)) <= 1 and all(len(t) == len(set(t)) for t in _told(r)), r["matched"]


def test_no_timing_model_summary_holds_the_joiner() -> None:
    """The joiner splits a grouped reason back into its summaries: no summary may hold it."""
    for ruleset, edition in (("riftbound", "1.4"), ("mtg", "2026-01-16")):
        said = [a for summaries in model_answers(corpus_graph(ruleset, edition)).values() for a in summaries]
        assert said and not [a for a in said if SUMMARY_JOINER in a], (ruleset, edition)


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_groups_the_summaries_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    shared = searcher(excerpt_kb, "riftbound", "1.4")
    script = tmp_path / "1.4.js"
    script.write_text(index_script(build_search_index(excerpt_kb.edition("riftbound", "1.4"), shared,
                                                      lambda n: n)), encoding="utf-8")
    questions = [q for q, _n, _s in GROUPED]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in questions])
    for (question, number, summaries), offline in zip(GROUPED, answers):
        server = shared.search(parse_query(question), limit=10)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], question
    hit = next(h for h in answers[0]["results"] if h["number"] == "313.2")
    assert len(_told(hit)) == 1 and set(GROUPED[0][2]) <= set(_told(hit)[0]), hit["matched"]
