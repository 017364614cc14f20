"""A query typed with nothing searchable in it (emoji, punctuation or spaces only) is told so
in one wording, with what was typed and what search left out of it (kb/search/query.py
``nothing_searchable``), the same on the API (its one JSON error shape, 400), the CLI (exit
2) and the site (400, the message shown); a query with a word beside them is searched. The
offline pack's port says the same (tests/test_offline_port.py, MALFORMED)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.query import KnowledgeBase
from kb.search.query import QuerySyntaxError, ignored_kinds, parse_query
from web.site.pages import as_sentence

TAIL = ": type words, a phrase in quotes or a rule number"

# (query, the message every face gives)
NOTHING = [
    ("🔥🔥🔥", "nothing to search for in '🔥🔥🔥' (left out: emoji)" + TAIL),
    ("((((", "nothing to search for in '((((' (left out: punctuation)" + TAIL),
    ("?!…", "nothing to search for in '?!…' (left out: punctuation)" + TAIL),
    ("   ", "nothing to search for in '   ' (left out: spaces)" + TAIL),
    ("  🔥 ((  ", "nothing to search for in '🔥 ((' (left out: emoji, punctuation)" + TAIL),
    ("❤️", "nothing to search for in '❤️' (left out: emoji)" + TAIL),  # with its variation selector
    ("© → +", "nothing to search for in '© → +' (left out: symbols)" + TAIL),
    ("🔥" * 45, f"nothing to search for in '{'🔥' * 40}…' (left out: emoji)" + TAIL),
    # words too common to search are said as before
    ("the of", "nothing to search for: 'the of' has only words too common to search; add a word from the rules"),
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase):
    from web import create_app
    return create_app(kb=excerpt_kb).test_client()


def _alert(page: str) -> str:
    found = re.search(r'role="alert">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)).strip() if found else ""


@pytest.mark.parametrize("query, message", NOTHING)
def test_the_reader_says_what_it_left_out(query: str, message: str) -> None:
    with pytest.raises(QuerySyntaxError) as raised:
        parse_query(query)
    assert raised.value.message == message


@pytest.mark.parametrize("query, message", NOTHING)
def test_the_api_says_it_in_its_error_shape(client, query: str, message: str) -> None:
    got = client.get("/api/v1/search", query_string={"q": query})
    assert got.status_code == 400
    assert got.get_json() == {"error": {"status": 400, "message": message,
                                        "detail": {"query": query, "position": None}}}


@pytest.mark.parametrize("query, message", NOTHING)
def test_the_cli_says_it(excerpt_home: Path, query: str, message: str) -> None:
    got = CliRunner().invoke(main, ["--home", str(excerpt_home), "search", query])
    assert got.exit_code == 2
    assert got.output.strip() == f"error: {message}"


@pytest.mark.parametrize("query, message", NOTHING)
def test_the_site_says_it(client, query: str, message: str) -> None:
    got = client.get("/search", query_string={"q": query})
    assert got.status_code == 400
    page = got.get_data(as_text=True)
    assert _alert(page) == as_sentence(message)  # the message alone, as one sentence
    assert "matches." not in page  # not "No rule of … matches."


def test_nothing_typed_is_the_search_form_on_the_site_and_empty_elsewhere(client, excerpt_home: Path) -> None:
    page = client.get("/search", query_string={"q": ""})
    assert page.status_code == 200 and 'role="alert"' not in page.get_data(as_text=True)
    with pytest.raises(QuerySyntaxError, match="the query is empty"):
        parse_query("")
    got = CliRunner().invoke(main, ["--home", str(excerpt_home), "search", ""])
    assert got.exit_code == 2 and "the query is empty" in got.output


@pytest.mark.parametrize("query", ["🔥 priority", "((priority))", "priority ?!"])
def test_a_word_beside_them_is_searched(client, query: str) -> None:
    got = client.get("/api/v1/search", query_string={"q": query})
    assert got.status_code == 200 and got.get_json()["total"] > 0


# (what was typed, what is said to be left out)
KINDS = [
    ("🔥", "emoji"), ("☀", "emoji"), ("⭐", "emoji"), ("©", "symbols"), ("+", "symbols"),
    ("((", "punctuation"), ("🔥(", "emoji, punctuation"), ("→?", "symbols, punctuation"),
    ("🔥 © !", "emoji, symbols, punctuation"), ("  ", "spaces"), ("\u0301", "other characters"),
    ("\ue000 ", "other characters"),
]


@pytest.mark.parametrize("typed, kinds", KINDS)
def test_what_is_left_out_is_named_by_kind(typed: str, kinds: str) -> None:
    assert ignored_kinds(typed) == kinds
