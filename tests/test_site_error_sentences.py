"""Every error the site shows is a sentence: a capital letter and a full stop (web/site/errors.py,
web.site.frame.as_sentence). The knowledge base writes its messages in lower case without a
full stop, which the API's JSON keeps as they are; the error page, the search page's alert and
the linker's say each as a sentence of its own, the same words. A search for a number only the
rule lookup reads (``9999.9``: a head longer than any rule's) says there is no such rule, with
the nearest numbers as links, as ``999.9`` and the rule page do. On the embedded excerpts.
"""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from kb.errors import QueryError
from kb.query import KnowledgeBase
from web import create_app
from web.site.frame import as_sentence

# (the site's endpoint, method, address, status, the sentence the page says); one error a line
ERRORS: list[tuple[str, str, str, int, str]] = [
    ("site.article", "GET", "/articles/no-such-article", 404, "No article 'no-such-article'."),
    ("site.articles", "GET", "/articles/?page=2", 404, "This list has 1 page(s), not 2."),
    ("site.articles", "GET", "/articles/?ruleset=nosuch", 404, "Unknown ruleset 'nosuch'."),
    ("site.compare", "GET", "/riftbound/compare/1.3/9.9", 404, "Unknown edition '9.9' of riftbound."),
    ("site.compare", "GET", "/riftbound/compare/1.3/1.4?chapter=999", 404, "No chapter 999 in either edition."),
    ("site.contents", "GET", "/riftbound/abc/", 404, "Unknown edition 'abc' of riftbound."),
    ("site.glossary", "GET", "/riftbound/9.9/glossary", 404, "Unknown edition '9.9' of riftbound."),
    ("site.glossary_letter", "GET", "/riftbound/1.4/glossary/ab", 404, "A glossary page is named by one letter."),
    ("site.newest_rule", "GET", "/riftbound/9999.9", 404, "Rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow."),
    ("site.rule", "GET", "/riftbound/1.4/9999.9", 404, "Rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow."),
    ("site.rule", "GET", "/riftbound/1.4/banana", 400, "Not a rule number: 'banana'."),
    ("site.rule", "GET", "/riftbound/1.4/337?part=99", 404, "Rule 337 has 1 part(s), not 99."),
    ("site.rule_history_page", "GET", "/riftbound/1.4/9999.9/history", 404,
     "Rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow."),
    ("site.ruleset_home", "GET", "/nosuch/", 404, "Unknown ruleset 'nosuch'."),
    ("site.ruling", "GET", "/rulings/no-such-ruling", 404, "No ruling 'no-such-ruling'."),
    ("site.rulings", "GET", "/rulings/?page=0", 404, "This list has 1 page(s), not 0."),
    ("site.rulings", "GET", "/rulings/?page=two", 400, "Page must be a positive whole number."),
    ("site.search", "GET", "/search?q=chain&ruleset=nosuch", 404, "Unknown ruleset 'nosuch'."),
    ("site.search", "GET", "/search?q=chain&page=99", 400, "Page must be between 1 and 50."),
    ("site.search", "GET", "/search?q=%22abc", 400, 'Unbalanced quote: the " at position 0 is never closed.'),
    ("site.search", "POST", "/search", 405, "This page does not accept that kind of request."),
    ("site.explorer", "GET", "/timing?frame=x", 400, "Frame must be a positive whole number."),
    ("site.explorer", "GET", "/timing?scenario=nosuch", 404, "No worked scenario 'nosuch'."),
    ("site.explorer_path", "GET", "/timing/nosuch", 404,
     "No worked scenario 'nosuch'; the worked scenarios are listed below."),
    ("site.explorer_next", "GET", "/timing/next?frame=x", 400, "Frame must be a positive whole number."),
    ("site.explorer_next", "GET", "/timing/next?scenario=nosuch", 404, "No worked scenario 'nosuch'."),
    ("site.linker", "POST", "/cite", 400, "Style must be one of footnotes, preview."),
    ("site.linker", "POST", "/cite?ruleset=nosuch", 404, "Unknown ruleset 'nosuch'."),
    (None, "GET", "/no-such-page/at/all/here", 404, "There is no page at this address."),  # type: ignore[list-item]
]

# The site's pages that have no error of their own to say: they answer or redirect.
NO_ERROR: dict[str, str] = {
    "site.home": "the start page takes no input",
    "site.favicon": "a file",
    "site.robots": "a file",
    "site.default_ruleset_page": "/contents and /glossary redirect to the default ruleset's newest edition",
}

FORMS = {"/cite": {"article": "rule 337.1", "style": "bogus"},
         "/cite?ruleset=nosuch": {"article": "rule 337.1", "style": "footnotes", "ruleset": "nosuch"}}


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


def _text(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", fragment)).split())


def _said(page: str) -> list[str]:
    """What a page says went wrong: the error page's message, or the page's own alert."""
    found = re.findall(r'<p class="lede">(.*?)</p>', page, re.S) if "<h1>" in page and 'class="status"' in page else []
    found += re.findall(r'<p class="note" role="alert">(.*?)</p>', page, re.S)
    return [_text(f) for f in found]


def _is_sentence(text: str) -> bool:
    return bool(text) and text[0].isupper() and text.endswith((".", "!", "?"))


@pytest.mark.parametrize("endpoint,method,url,status,sentence", ERRORS)
def test_each_error_is_said_as_a_sentence(client: FlaskClient, endpoint: str | None, method: str, url: str,
                                          status: int, sentence: str) -> None:
    resp = client.open(url, method=method, data=FORMS.get(url))
    assert resp.status_code == status
    said = _said(resp.get_data(as_text=True))
    assert said == [sentence]
    assert _is_sentence(said[0])


def test_every_page_of_the_site_has_its_errors_in_the_table(client: FlaskClient) -> None:
    endpoints = {r.endpoint for r in client.application.url_map.iter_rules() if r.endpoint.startswith("site.")}
    tested = {endpoint for endpoint, *_ in ERRORS if endpoint}
    assert endpoints - set(NO_ERROR) <= tested, sorted(endpoints - set(NO_ERROR) - tested)
    assert not set(NO_ERROR) & tested


# (the site's address, the API's for the same question): one message, said two ways
SAME_MESSAGE = [
    ("/riftbound/1.4/9999.9", "/api/v1/rulesets/riftbound/rules/9999.9?edition=1.4"),
    ("/rulings/no-such-ruling", "/api/v1/rulings/no-such-ruling"),
    ("/riftbound/9.9/337.2", "/api/v1/rulesets/riftbound/rules/337.2?edition=9.9"),
]


@pytest.mark.parametrize("page,api", SAME_MESSAGE)
def test_the_api_keeps_its_message_and_the_site_says_it_as_a_sentence(client: FlaskClient, page: str,
                                                                       api: str) -> None:
    answer = client.get(api)
    message = answer.get_json()["error"]["message"]
    assert message[0].islower() and not message.endswith(".")  # the API's shape, as before
    assert _said(client.get(page).get_data(as_text=True)) == [as_sentence(message)]


# (query, what the search page says: {nearest}, the rule page's nearest numbers)
MISSING_NUMBERS = [
    ("9999.9", "No rule 9999.9 in Riftbound Core Rules 1.4."),  # only a lookup reads it; past the last rule (829)
    ("2026.1", "No rule 2026.1 in Riftbound Core Rules 1.4."),
    ("337.99", "No rule 337.99 in Riftbound Core Rules 1.4; the nearest: {nearest}."),  # search reads it
    ("337.1.z", "No rule 337.1.z in Riftbound Core Rules 1.4; the nearest: {nearest}."),
    ("999.9", "No rule 999.9 in Riftbound Core Rules 1.4."),
]


@pytest.mark.parametrize("q,sentence", MISSING_NUMBERS)
def test_a_search_for_a_number_no_edition_has_names_it_and_its_nearest(
        client: FlaskClient, excerpt_kb: KnowledgeBase, q: str, sentence: str) -> None:
    resp = client.get("/search", query_string={"q": q})
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    rg = excerpt_kb.edition("riftbound", "1.4")
    with pytest.raises(QueryError) as lookup:
        excerpt_kb.locate_rule(rg, q)  # the rule page's answer
    numbers = lookup.value.detail["nearest"]
    line = re.search(r'<p class="didyoumean no-such-rule">(.*?)</p>', page, re.S)
    assert line is not None and _text(line.group(1)) == sentence.format(nearest=", ".join(numbers))
    for n in numbers:
        assert f'href="riftbound/1.4/{n}"' in line.group(1)
    assert "No rule of Riftbound Core Rules 1.4 matches." not in page


def test_a_number_only_the_lookup_reads_jumps_to_its_rule(client: FlaskClient) -> None:
    resp = client.get("/search", query_string={"q": "337.1(a)"})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/riftbound/1.4/337.1.a")
