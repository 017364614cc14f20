"""Findings F2/F20: a question's weak word matching the timing model's summaries ("goes on the
chain first", "what is there stays") outranked the rules that answer it. A word counts in
the summaries (the "answers" field, their statements' boost) as much as the rules' own words
use it (kb.search.scoring.Impacts.rules_share, Ranking.model_words). One case per line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.schema import analyse
from kb.search.searcher import DEFAULT_RANKING, EditionSearcher
from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

OFF = replace(DEFAULT_RANKING, model_words=False)

# (word, the least and the most of its share in the real Riftbound 1.4)
SHARES = [
    ("goes", 0.0, 0.5),     # the summaries' "goes on the chain", 2 rules' texts say it
    ("stays", 0.0, 0.5),    # "what is there stays"
    ("first", 1.0, 1.0),    # the rules say it more than the summaries
    ("recalled", 1.0, 1.0),
    ("turn", 1.0, 1.0),
    ("buffs", 1.0, 1.0),    # no summary says it
]


@pytest.fixture(scope="module")
def rift(full_kb: KnowledgeBase) -> EditionSearcher:
    return open_searcher(full_kb.edition("riftbound", "1.4"), None)


@pytest.fixture(scope="module")
def rift_off(full_kb: KnowledgeBase) -> EditionSearcher:
    return open_searcher(full_kb.edition("riftbound", "1.4"), None, OFF)


@pytest.mark.parametrize("word, least, most", SHARES)
def test_a_word_of_the_summaries_counts_as_the_rules_use_it(rift, word: str, least: float, most: float) -> None:
    share = rift.impacts.rules_share(analyse(word)[0])
    assert least <= share <= most, share


# (word, a rule holding it only in the timing model's summary of it, a rule holding it in its text)
SCORED = [
    ("goes", "808.1", "377.3.a.1"),
    ("stays", "652.2", "821.1.c.5"),
]


@pytest.mark.parametrize("word, summary_only, own", SCORED)
def test_only_a_summarys_weak_word_scores_less(rift, rift_off, word: str, summary_only: str, own: str) -> None:
    w = analyse(word)[0]
    on, off = rift.impacts.word(w), rift_off.impacts.word(w)
    d, e = rift.impacts.docnum[summary_only], rift.impacts.docnum[own]
    assert on[d] < off[d]
    assert on[e] == pytest.approx(off[e])


# (question, a rule the summaries' weak words brought first, without model_words)
QUESTIONS = [
    ("do buffs stay when my unit gets recalled", "652.2"),
]


@pytest.mark.parametrize("question, wrong", QUESTIONS)
def test_a_weak_word_no_longer_brings_a_summary_first(rift, rift_off, question: str, wrong: str) -> None:
    first = lambda s: [h["number"] for h in s.search(parse_query(question), limit=3)["results"]]  # noqa: E731
    assert first(rift_off)[0] == wrong
    assert wrong not in first(rift)


PARITY = ["who goes first", "do buffs stay when my unit gets recalled",
          "can i concede during my opponents turn", "champion unit dies where does it go"]


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
@pytest.mark.parametrize("ranking", [DEFAULT_RANKING, OFF], ids=["model_words", "off"])
def test_the_offline_search_weighs_the_summaries_words_as_the_server(full_kb: KnowledgeBase, tmp_path: Path,
                                                                   ranking) -> None:
    assert_offline_answers_as_the_server(full_kb, tmp_path, [("riftbound", "1.4", q) for q in PARITY],
                                         searcher_with(full_kb, ranking))
