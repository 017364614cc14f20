"""Every error the search page can show reads as one sentence of its own (web/site/pages.py
``as_sentence``, web/templates/search.html): the knowledge base's message, which already
says what is wrong, with a capital and a full stop, never behind a lead of the page's own
("That query cannot be read: nothing to search for in …" doubled it). What the search
page cannot answer at all (a ruleset or edition it does not have, a page past the last) is
the error page, its one message; a rule number the edition lacks is said once."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from kb.errors import QueryError
from kb.query import KnowledgeBase
from kb.search.query import MAX_QUERY_CHARS
from web import create_app
from web.site.pages import as_sentence

LONG = "a" * (MAX_QUERY_CHARS + 100)

# (query string, status, the one sentence the page says)
SEARCH_ERRORS = [
    # empty after cleaning
    ({"q": "🔥🔥🔥"}, 400, "Nothing to search for in '🔥🔥🔥' (left out: emoji): type words, a phrase "
                        "in quotes or a rule number."),
    ({"q": "   "}, 400, "Nothing to search for in '   ' (left out: spaces): type words, a phrase in "
                      "quotes or a rule number."),
    ({"q": "the of"}, 400, "Nothing to search for: 'the of' has only words too common to search; add a "
                         "word from the rules."),
    # malformed
    ({"q": '"abc'}, 400, 'Unbalanced quote: the " at position 0 is never closed.'),
    ({"q": "NOT priority"}, 400, "NOT and '-' only leave rules out: add a word to search for."),
    ({"q": "in:"}, 400, "in: needs a value, e.g. in:337."),  # the filter's name, as typed
    ({"q": "priority", "in": "abc"}, 400, "A section filter needs a rule number, e.g. in:337 (got 'abc')."),
    # too long
    ({"q": LONG}, 400, f"The query is too long ({len(LONG)} characters; at most {MAX_QUERY_CHARS})."),
    # a ruleset, an edition or a page the search does not have: the error page, a sentence too
    ({"q": "chain", "ruleset": "nosuch"}, 404, "Unknown ruleset 'nosuch'."),
    ({"q": "ruleset:nosuch chain"}, 404, "Unknown ruleset 'nosuch'."),
    ({"q": "chain", "ruleset": "riftbound", "edition": "9.9"}, 404, "Unknown edition '9.9' of riftbound."),
    ({"q": "chain", "page": "99"}, 400, "Page must be between 1 and 50."),
    # a rule number the edition lacks
    # ({nearest}: the edition's own nearest numbers, which move as the excerpt grows)
    ({"q": "337.99"}, 200, "No rule 337.99 in Riftbound Core Rules 1.4; the nearest: {nearest}."),
    ({"q": "999.9"}, 200, "No rule 999.9 in Riftbound Core Rules 1.4."),  # past the last rule: none near (A18)
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).replace("\n", " ").strip()


def _said(page: str) -> list[str]:
    """What the page says went wrong: the search page's alert and its no-such-rule line,
    or the error page's message."""
    found = re.findall(r'<p class="note" role="alert">(.*?)</p>', page, re.S)
    found += re.findall(r'<p class="didyoumean no-such-rule">(.*?)</p>', page, re.S)
    found += re.findall(r'<p class="lede">(.*?)</p>', page, re.S)
    return [_text(f) for f in found]


@pytest.mark.parametrize(("args", "status", "sentence"), SEARCH_ERRORS)
def test_each_search_error_is_said_once_as_one_sentence(client: FlaskClient, excerpt_kb: KnowledgeBase,
                                                        args: dict[str, str], status: int,
                                                        sentence: str) -> None:
    resp = client.get("/search", query_string=args)
    assert resp.status_code == status
    page = resp.get_data(as_text=True)
    if "{nearest}" in sentence:
        nearest = excerpt_kb.search(args["q"], "riftbound")["no_such_rule"]["nearest"]
        sentence = sentence.replace("{nearest}", ", ".join(nearest[:5]))
    assert _said(page) == [sentence]
    plain = _text(page.split("<main", 1)[-1])
    assert "cannot be read" not in plain
    assert "matches." not in plain  # not "No rule of … matches." beside it


@pytest.mark.parametrize(("args", "status", "sentence"), [row for row in SEARCH_ERRORS if row[1] == 400
                                                          and "page" not in row[0]])
def test_the_page_says_the_knowledge_bases_message(excerpt_kb: KnowledgeBase, args: dict[str, str],
                                                   status: int, sentence: str) -> None:
    """The sentence is the message the facade gives (the API's and the CLI's), only written
    as a sentence: nothing added to it, nothing taken away."""
    with pytest.raises(QueryError) as raised:
        excerpt_kb.search(args["q"], args.get("ruleset"), args.get("edition"), section=args.get("in"))
    assert raised.value.status == 400
    assert as_sentence(raised.value.message) == sentence


@pytest.mark.parametrize(("message", "sentence"), [
    ("unbalanced quote: the \" at position 0 is never closed", "Unbalanced quote: the \" at position 0 is never closed."),
    ("in: needs a value, e.g. in:337", "in: needs a value, e.g. in:337."),
    ("ruleset: needs a value, e.g. ruleset:mtg", "ruleset: needs a value, e.g. ruleset:mtg."),
    ("NOT at position 0 needs a word after it", "NOT at position 0 needs a word after it."),
    ("'*' at position 3 is only allowed at the end of a word (prio*)",
     "'*' at position 3 is only allowed at the end of a word (prio*)."),
    ("Already a sentence.", "Already a sentence."),
    ("is it?", "Is it?"),
    ("  spaced  ", "Spaced."),
    ("", ""),
])
def test_a_message_as_a_sentence(message: str, sentence: str) -> None:
    assert as_sentence(message) == sentence
