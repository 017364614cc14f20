"""Other search languages' syntax (``focus^3``, ``~focus``, ``title:focus``, ``[a TO z]``) is
not read: it is left out, its words searched, and the answer says which syntax was left out
(``understood.unread``), on the server and in the offline search alike (A28). One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export import build_search_index, index_script
from kb.export.jsrun import node_path, run_queries
from kb.query import KnowledgeBase, searcher
from kb.search import parse_query

# (query, the words searched, the syntax said as left out)
CASES = [
    ("focus^3", ["focus"], ["^ (a weight)"]),
    ("focus^0.5 chain", ["focus", "chain"], ["^ (a weight)"]),
    ("~focus^2", ["focus"], ["^ (a weight)", "~ (fuzzy or near)"]),
    ("focus~2", ["focus"], ["~ (fuzzy or near)"]),
    ("title:focus", ["focus"], ["title: (a field)"]),
    ("TEXT:priority", ["priority"], ["text: (a field)"]),
    ("[chain TO focus]", ["chain", "focus"], ["[ TO ] (a range)"]),
    # braces are mana symbols, brackets without TO an earlier question's
    ("{T}: add {G}", ["add", "g"], []),
    ("[follow-up to: focus] chain", ["follow up", "focus", "chain"], []),
    # what the language reads is unchanged
    ("focus:priority", ["focus priority"], []),
    ("+1/+1 counters", ["1 1", "counters"], []),
    ("in:337 priority", ["priority"], []),
    ("337.1.a", ["337.1.a"], []),
]


@pytest.mark.parametrize("query, words, unread", CASES)
def test_unread_syntax_is_left_out_and_said(query: str, words: list[str], unread: list[str]) -> None:
    parsed = parse_query(query)
    assert [" ".join(a.words) or a.text for a in parsed.atoms] == words
    assert parsed.unread == unread


# (query, the least number of rules it finds now: "0 matching" before)
FOUND = [
    ("focus^3", 10),
    ("title:focus", 10),
    ("~focus^2", 10),
]


@pytest.mark.parametrize("query, least", FOUND)
def test_the_server_answers_with_the_words_and_the_note(excerpt_kb: KnowledgeBase, query: str, least: int) -> None:
    found = excerpt_kb.search(query, "riftbound", "1.4")
    assert found["total"] >= least
    assert found["understood"]["unread"] == parse_query(query).unread


@pytest.fixture(scope="module")
def script(excerpt_kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> Path:
    if node_path() is None:
        pytest.skip("needs node to run the offline search script")
    path = tmp_path_factory.mktemp("offline-unread") / "riftbound-1.4.js"
    path.write_text(index_script(build_search_index(excerpt_kb.edition("riftbound", "1.4"),
                                                    searcher(excerpt_kb, "riftbound", "1.4"), lambda n: n)),
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("query, words, unread", CASES)
def test_the_offline_search_says_the_same(excerpt_kb: KnowledgeBase, script: Path, query: str,
                                          words: list[str], unread: list[str]) -> None:
    plain = " ".join(words) if unread else query
    asked = [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in (query, plain)]
    (offline, offline_plain), _ = run_queries([script], asked)
    server = excerpt_kb.search(query, "riftbound", "1.4")
    assert ((offline.get("understood") or {}).get("unread") or []) == unread
    assert ((server.get("understood") or {}).get("unread") or []) == unread
    # the words searched are the words without the syntax, in either (a bracketed word is
    # read as a word, not as the term it names: the same number in both)
    assert offline["total"] == server["total"] or offline["total"] == offline_plain["total"]
    if not query.startswith("["):
        assert offline["total"] == offline_plain["total"]
        assert server["total"] == excerpt_kb.search(plain, "riftbound", "1.4")["total"]
