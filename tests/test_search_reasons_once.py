"""The timing model's summaries are said once a page (kb/search/searcher.py ``_result``'s
``said``; web/static/offline-search.js ``result``): sibling rules cite the same transitions, and
each hit repeated their long summaries ("in the timing model: the turn player holds a
battlefield they control" on 315.2.b and again on 315.2.b.2; acceptance finding F-G). A hit
lists only the summaries no hit above it on the page gave; the offline search says the same.
One case a line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, searcher
from kb.search import parse_query
from kb.search.schema import model_answers
from kb.search.searcher import SUMMARY_JOINER, TIMING_MODEL_REASON

QUESTIONS = [
    "can I score the same battlefield twice in one turn",
    "who gets focus",
    "what happens when my unit dies",
    "when is an item undone",
]


def _told(hit: dict) -> list[str]:
    return [s for m in hit["matched"] if m.startswith(TIMING_MODEL_REASON)
            for s in m.removeprefix(TIMING_MODEL_REASON).split(SUMMARY_JOINER)]


@pytest.mark.parametrize("question", QUESTIONS)
def test_a_summary_is_said_once_a_page(excerpt_kb: KnowledgeBase, question: str) -> None:
    results = searcher(excerpt_kb, "riftbound", "1.4").search(parse_query(question), limit=20)["results"]
    answers = model_answers(excerpt_kb.edition("riftbound", "1.4"))
    said: list[str] = []
    for hit in results:
        told = _told(hit)
        assert not set(told) & set(said), (hit["number"], told)
        assert set(told) <= set(answers.get(hit["number"], ())), (hit["number"], told)
        said.extend(told)
    assert said, question


def test_a_summary_shared_by_sibling_rules_is_left_out_below(excerpt_kb: KnowledgeBase) -> None:
    """The finding's case: sibling rules cite one transition (315.2.b and 315.2.b.2); a hit
    below the one that said its summary has it among its rule's summaries and leaves it out."""
    shared = searcher(excerpt_kb, "riftbound", "1.4")
    answers = model_answers(excerpt_kb.edition("riftbound", "1.4"))
    left_out = []
    for question in QUESTIONS + ["who holds a battlefield in the beginning phase"]:
        results = shared.search(parse_query(question), limit=20)["results"]
        for i, hit in enumerate(results):
            for summary in _told(hit):
                left_out += [(question, hit["number"], later["number"], summary) for later in results[i + 1:]
                             if summary in answers.get(later["number"], ())
                             and summary not in _told(later)]
    assert left_out  # the case happens: a later hit's rule has a summary a hit above said


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_says_a_summary_once_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    shared = searcher(excerpt_kb, "riftbound", "1.4")
    script = tmp_path / "1.4.js"
    script.write_text(index_script(build_search_index(excerpt_kb.edition("riftbound", "1.4"), shared,
                                                      lambda n: n)), encoding="utf-8")
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in QUESTIONS])
    for question, offline in zip(QUESTIONS, answers):
        server = shared.search(parse_query(question), limit=10)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], question
