"""Rulings and articles over HTTP (issue #20): the API's answers (each checked against its
OpenAPI schema), the site's pages with the stale banner, the rule page's "Cited by", the
search page's rulings, and the stale-rulings feed as Atom. One home holds the test corpus
(tests/fixtures/records) besides the samples of rules/records/.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from kb.query import KnowledgeBase
from kb.records import import_records
from kb.store import build
from tests.test_api import CheckedClient, dig
from tests.test_site import Page
from web import create_app

CORPUS = Path(__file__).parent / "fixtures" / "records"
ATOM = "{http://www.w3.org/2005/Atom}"
RB = "/api/v1/rulesets/riftbound"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> CheckedClient:
    home = tmp_path_factory.mktemp("records-web")
    build(home)
    kb = KnowledgeBase.open(home)
    import_records(home, [CORPUS / "rulings"], "ruling", kb)
    import_records(home, [CORPUS / "articles"], "article", kb)
    build(home)  # as `rulings import` does: a new build answers from the records
    app = create_app(home)
    assert app.extensions["rulekb"].wait_ready(60)
    return CheckedClient(app)


# url, dotted path into the answer, expected value
API = [
    ("/api/v1/rulings", "total", 9),  # the corpus's 8 and the sample
    ("/api/v1/rulings", "stale", 7),
    ("/api/v1/rulings?stale=true&ruleset=mtg", "total", 2),
    ("/api/v1/rulings?ruleset=riftbound", "citations.removed", 1),
    ("/api/v1/rulings/riftbound-passing-priority", "citations.0.now", "338.1.b"),
    ("/api/v1/rulings/riftbound-passing-priority", "changed", ["338.1.c"]),
    ("/api/v1/rulings/mtg-legend-rule", "citations.0.status", "renumbered"),
    ("/api/v1/rulings/riftbound-finalizing-keeps-priority", "citations.0.status", "reworded"),
    ("/api/v1/rulings/riftbound-standard-move-closed-state", "stale", False),
    ("/api/v1/rulings?limit=2&offset=8", "records.0.id", "riftbound-standard-move-closed-state"),
    ("/api/v1/rulings?limit=2&offset=8", "total", 9),
    ("/api/v1/articles", "total", 3),
    ("/api/v1/articles", "records.0.file", "mtg-passing-priority.md"),  # by name: no server path
    ("/api/v1/rulings/riftbound-passing-priority", "file", "riftbound-passing-priority.yaml"),
    ("/api/v1/articles/mtg-priority-primer", "written_for", "2010-10-01"),
    ("/api/v1/rulings/search?q=two+legendary+creatures+same+name", "hits.0.ruling.id", "mtg-legend-rule"),
    ("/api/v1/rulings/search?q=holding+a+battlefield&ruleset=riftbound", "hits.0.rules.numbers",
     ["190.3", "190.4"]),
    (f"{RB}/rules/338.1.b", "cited_by.records.0.cited_as", "338.1.c"),
    (f"{RB}/rules/190.3", "cited_by.total", 2),
    (f"{RB}/rules/187.3?edition=1.3", "cited_by.total", 2),
    ("/api/v1/rulesets/mtg/rules/704.5f", "cited_by.rulings", 2),
    ("/api/v1/rulesets/mtg/rules/704.5k", "cited_by.total", 0),
    ("/api/v1/rulesets/mtg/rules/704.5j", "cited_by.rulings", 1),  # the legend rule, 2010's 704.5k
]


@pytest.mark.parametrize("url,where,expected", API)
def test_api_answers(client: CheckedClient, url: str, where: str, expected: Any) -> None:
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_json()
    assert dig(resp.get_json(), where) == expected


# url, status, dotted path into the error
API_ERRORS = [
    ("/api/v1/rulings/no-such-ruling", 404, "error.detail.known.0", "mtg-legend-rule"),
    ("/api/v1/articles/no-such-article", 404, "error.detail.id", "no-such-article"),
    ("/api/v1/rulings?ruleset=nonesuch", 404, "error.detail.rulesets.1", "riftbound"),
    ("/api/v1/rulings?stale=perhaps", 400, "error.detail.parameter", "stale"),
    ("/api/v1/rulings?limit=0", 400, "error.detail.parameter", "limit"),
    ("/api/v1/rulings?limit=99999999999999999999", 400, "error.message",
     "query parameter 'limit' must be an integer of at most 9 digits"),
    ("/api/v1/articles?offset=-1", 400, "error.detail.parameter", "offset"),
    ("/api/v1/rulings/search?q=priority&ruleset=nonesuch", 404, "error.detail.rulesets.1", "riftbound"),
    ("/api/v1/rulings/search?q=priority&limit=500", 400, "error.detail.parameter", "limit"),
    ("/api/v1/rulings/search?q=" + "word+" * 120, 400, "error.detail.parameter", "q"),
]


@pytest.mark.parametrize("url,status,where,expected", API_ERRORS)
def test_api_errors_have_the_one_shape(client: CheckedClient, url: str, status: int, where: str,
                                       expected: Any) -> None:
    resp = client.get(url)
    assert resp.status_code == status
    assert dig(resp.get_json(), where) == expected


def test_a_rule_search_brings_in_the_rules_an_earlier_ruling_cites(client: CheckedClient) -> None:
    """The ruling was written for 1.3 (187.3, 187.4): the hits are 1.4's numbers, each saying why."""
    resp = client.get("/api/v1/search?q=my+opponent+moved+a+unit+onto+my+battlefield,+when+do+I+lose+control")
    assert resp.status_code == 200, resp.get_json()
    results = resp.get_json()["results"]
    ruled = [r["number"] for r in results[:5]
             if any(m.startswith("cited by ruling riftbound-holding-a-battlefield: ") for m in r["matched"])]
    assert set(ruled) == {"190.3", "190.4"}, [(r["number"], r["matched"]) for r in results[:5]]


def test_the_stale_feed_parses_as_atom_and_links_each_ruling_page(client: CheckedClient) -> None:
    resp = client.get("/api/v1/rulings/stale.atom")
    assert resp.mimetype == "application/atom+xml"
    root = ET.fromstring(resp.data)
    entries = root.findall(f"{ATOM}entry")
    assert root.tag == f"{ATOM}feed" and len(entries) == 7
    assert root.findtext(f"{ATOM}author/{ATOM}name"), "RFC 4287 4.1.1: the feed names its author"
    for e in entries:
        link = e.find(f"{ATOM}link").get("href")
        assert client.get(link).status_code == 200, link
    only_mtg = ET.fromstring(client.get("/api/v1/rulings/stale.atom?ruleset=mtg").data)
    assert len(only_mtg.findall(f"{ATOM}entry")) == 2
    again = client.get("/api/v1/rulings/stale.atom", headers={"If-None-Match": resp.headers["ETag"]})
    assert again.status_code == 304


# url, words the page shows
PAGES = [
    ("/rulings/riftbound-passing-priority", "This ruling may be out of date"),
    ("/rulings/riftbound-passing-priority", "rule 338.1.c is now rule 338.1.b"),
    ("/rulings/mtg-legend-rule", "rule 704.5k is now rule 704.5j"),
    ("/rulings/riftbound-finalizing-keeps-priority", "rule 337.1.a was reworded"),
    ("/articles/mtg-priority-primer", "rule 116.1a is now rule 117.1a"),
    ("/articles/mtg-priority-primer", "Instants may be cast whenever you hold priority"),
    ("/rulings/", "9 rulings, 7 stale"),
    ("/rulings/?q=legendary+creatures+with+the+same+name", "Rulings on “legendary creatures with the same name”"),
    ("/articles/", "3 articles, 3 stale"),
    ("/riftbound/1.4/190.3", "Cited by 1 ruling, 1 article"),
    ("/riftbound/1.4/190.3", "as 187.3"),
    ("/riftbound/1.4/144.1.a", "No ruling or article cites 144.1.a"),
    ("/search?q=two+legendary+creatures+with+the+same+name&ruleset=mtg", "Earlier rulings"),
    ("/search?q=my+opponent+moved+a+unit+onto+my+battlefield%2C+when+do+I+lose+control",
     "cited by ruling riftbound-holding-a-battlefield: 'My opponent moved a unit onto my "
     "battlefield; when do I lose control of it?'"),
]


@pytest.mark.parametrize("url,words", PAGES)
def test_pages_show(client: CheckedClient, url: str, words: str) -> None:
    resp = client.client.get(url)
    assert resp.status_code == 200, (url, resp.data[:300])
    assert words in Page(resp.get_data(as_text=True)).plain


def test_no_banner_on_a_ruling_nothing_changed_under(client: CheckedClient) -> None:
    page = Page(client.client.get("/rulings/riftbound-standard-move-closed-state").get_data(as_text=True))
    assert "may be out of date" not in page.plain and "144.1.b" in page.plain


def test_the_banner_links_the_rule_then_and_now(client: CheckedClient) -> None:
    page = Page(client.client.get("/rulings/riftbound-passing-priority").get_data(as_text=True))
    # links are relative to the page (the site works from a static export too)
    assert "../riftbound/1.3/338.1.c" in page.links and "../riftbound/1.4/338.1.b" in page.links


def test_an_article_page_links_its_citations_relative_to_itself(client: CheckedClient) -> None:
    page = Page(client.client.get("/articles/mtg-priority-primer").get_data(as_text=True))
    # like every link of the site, so that it works under any prefix it is served at
    assert "../mtg/2010-10-01/116.1a" in page.links and not any(link.startswith("/") for link in page.links)


def test_the_rulings_page_links_its_feed(client: CheckedClient) -> None:
    page = Page(client.client.get("/rulings/").get_data(as_text=True))
    alternate = [a for tag, a in page.tags if tag == "link" and a.get("rel") == "alternate"]
    assert alternate and alternate[0]["href"] == "../api/v1/rulings/stale.atom"


# url, status, words the error page shows
PAGE_ERRORS = [
    ("/rulings/no-such-ruling", 404, "No ruling 'no-such-ruling'"),
    ("/articles/no-such-article", 404, "No article 'no-such-article'"),
    ("/rulings/?ruleset=nonesuch", 404, "Unknown ruleset 'nonesuch'"),
    ("/articles/?ruleset=nonesuch", 404, "Unknown ruleset 'nonesuch'"),
    ("/rulings/?q=" + "word+" * 120, 400, "search.query"),
    ("/rulings/?q=%FF", 400, "not UTF-8"),
]


@pytest.mark.parametrize("url,status,words", PAGE_ERRORS)
def test_a_bad_records_page_is_an_html_error_naming_it(client: CheckedClient, url: str, status: int,
                                                       words: str) -> None:
    resp = client.client.get(url)
    assert resp.status_code == status and resp.mimetype == "text/html", resp.data[:300]
    assert words in Page(resp.get_data(as_text=True)).plain
