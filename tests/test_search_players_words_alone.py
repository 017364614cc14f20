"""A players' phrase typed alone ("the stack", "ETB") is read as it is inside a question: the
rules' words join it (kb/search/understand.py), a term they name is pinned ("chain"), and a
players' word in capitals ("ETBs") is no name. The offline search reads it the same. One
case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query

# (query, read as a question, the concept it holds, the term pinned or None)
ALONE = [
    ("the stack", True, "stack", "Chain"),
    ("what is the stack", True, "stack", "Chain"),
    ("stack", True, "stack", "Chain"),
    ("ETB", True, "ETB", None),
    ("etb", True, "etb", None),
    ("what happens when a unit ETBs", True, "ETBs", None),
    # a term of the edition alone is still the term's lookup, as typed
    ("showdown", False, None, "Showdown"),
    # a word no vocabulary entry holds, alone, is as typed
    ("example", False, None, None),
]


@pytest.fixture(scope="module")
def rift(excerpt_kb: KnowledgeBase):
    return open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)


@pytest.mark.parametrize("query, read, concept, term", ALONE)
def test_a_players_phrase_alone_is_read_as_in_a_question(rift, query: str, read: bool, concept: str | None,
                                                         term: str | None) -> None:
    out = rift.search(parse_query(query), limit=10)
    understood = out["understood"]
    assert (understood is not None) == read, understood
    if concept is not None:
        assert concept in understood["concepts"], understood
        assert understood["names"] == []
    assert (out["term"] or {}).get("term") == term, out["term"]
    assert out["did_you_mean"] is None


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_a_phrase_alone_as_the_server(rift, tmp_path: Path) -> None:
    script = tmp_path / "1.4.js"
    script.write_text(index_script(build_search_index(rift.rg, rift, lambda n: n)), encoding="utf-8")
    queries = [q for q, *_ in ALONE]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in queries])
    for query, offline in zip(queries, answers):
        server = rift.search(parse_query(query), limit=10)
        assert offline["understood"] == server["understood"], query
        assert (offline["term"] or {}).get("term") == (server["term"] or {}).get("term"), query
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], query


# (query, a rule among the first three in the real Riftbound 1.4)
RANKED = [
    ("the stack", "328"),
    ("what is the stack", "328"),
    ("ETB", "359.2.c"),
    ("what happens when a unit ETBs", "143.4"),
    ("what happens when a unit ETBs", "359.2.c"),
]


@pytest.mark.parametrize("query, rule", RANKED)
def test_the_rules_a_phrase_alone_names_come_first(full_kb: KnowledgeBase, query: str, rule: str) -> None:
    found = [h["number"] for h in full_kb.search(query, ruleset="riftbound", edition="1.4", limit=5)["results"]]
    assert rule in found[:3], found
