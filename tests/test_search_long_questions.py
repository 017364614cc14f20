"""A pasted question longer than the query limit (32 words and phrases, question and stop
words left out first) is searched on its first 32, and the answer says what was cut
(``understood.cut``): the API, the site, the CLI and the offline search say the same. A query
in the query language that long is still refused (cutting it would change what it asks).
One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, QueryError
from kb.search import open_searcher, parse_query
from kb.search.query import MAX_ATOMS, QuerySyntaxError

WORDS = ("showdown chain priority focus unit spell reaction action battlefield combat damage "
         "attacker defender player turn phase card deck hand trash rune energy power might "
         "gear token legend champion ability trigger cost target exhaust ready score").split()
LONG = "Can I " + " ".join(WORDS) + ", what happens?"  # 36 words to search; "Can I", "what happens" left out

# (query, searched: True, or the error's words; the words cut, when searched)
CASES = [
    (LONG, True, WORDS[MAX_ATOMS:]),
    (" ".join(WORDS[:MAX_ATOMS]), True, []),  # exactly the limit: nothing cut
    (" ".join(WORDS[:MAX_ATOMS + 1]), True, WORDS[MAX_ATOMS:MAX_ATOMS + 1]),
    (" AND ".join(WORDS), "too many words and phrases", None),
    (" ".join(WORDS) + " -rune", "too many words and phrases", None),
]


@pytest.mark.parametrize("query, searched, cut", CASES)
def test_a_long_question_is_searched_on_its_first_concepts(query: str, searched: bool | str,
                                                           cut: list[str] | None) -> None:
    if searched is True:
        parsed = parse_query(query)
        assert len(parsed.atoms) <= MAX_ATOMS
        assert [w for w in parsed.cut] == cut
    else:
        with pytest.raises(QuerySyntaxError, match=searched):
            parse_query(query)


@pytest.fixture(scope="module")
def rift(excerpt_kb: KnowledgeBase):
    return open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)


def test_the_answer_says_what_was_cut(rift, excerpt_kb: KnowledgeBase) -> None:
    out = rift.search(parse_query(LONG), limit=5)
    assert out["results"]
    assert [w for w in out["understood"]["cut"]] == WORDS[MAX_ATOMS:]
    short = rift.search(parse_query("who acts first in a showdown"), limit=5)
    assert short["understood"]["cut"] == []
    with pytest.raises(QueryError, match="too many words and phrases"):
        excerpt_kb.search(" AND ".join(WORDS), ruleset="riftbound", edition="1.4")


def test_the_api_site_and_cli_say_what_was_cut(excerpt_home: Path) -> None:
    from web import create_app
    from web.openapi import schema_validator
    client = create_app(kb=KnowledgeBase.open(excerpt_home)).test_client()
    api = client.get("/api/v1/search", query_string={"q": LONG, "ruleset": "riftbound"})
    assert api.status_code == 200
    schema_validator("Search").validate(api.get_json())
    assert "score" in api.get_json()["understood"]["cut"]
    page = client.get("/search", query_string={"q": LONG, "ruleset": "riftbound"}).get_data(as_text=True)
    assert "Not searched (too many words and phrases): " in page and "score" in page
    run = CliRunner().invoke(main, ["--home", str(excerpt_home), "search", LONG, "--ruleset", "riftbound"])
    assert run.exit_code == 0, run.output
    assert "not searched (too many words and phrases): " in run.output


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_cuts_the_same(rift, tmp_path: Path) -> None:
    script = tmp_path / "1.4.js"
    script.write_text(index_script(build_search_index(rift.rg, rift, lambda n: n)), encoding="utf-8")
    queries = [q for q, *_ in CASES]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "1.4"} for q in queries])
    for query, offline in zip(queries, answers):
        try:
            server = rift.search(parse_query(query), limit=10)
        except QuerySyntaxError as exc:
            assert offline.get("error") and exc.message in str(offline["error"]), (query, offline)
            continue
        assert offline["understood"] == server["understood"], query
        assert [h["number"] for h in offline["results"]] == [h["number"] for h in server["results"]], query
