"""A rules site with many records: a rule hundreds of rulings cite, and long lists
(web/site/records.py, _cited_by.html, records.html).

The acceptance run imported 3,000 rulings citing one rule: the rule page was 518 KB (every
citing ruling listed) and the rulings page 532 KB (every ruling on one page). A rule page's
"Cited by" now lists the first CITED_BY_SHOWN records, its counts are of all of them and it
links the API's cited-by operation, which lists them all a page at a time (the rule's API
answer, 495 KB then, lists the first CITED_BY_PAGE with the counts); the rulings and articles lists are paged; the
stale-rulings feed (3 MB for 3,000) lists the newest FEED_ENTRIES and says how many there are.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import urljoin

import pytest
from flask.testing import FlaskClient

from kb.feeds import FEED_ENTRIES
from kb.query import KnowledgeBase
from kb.records import CITED_BY_PAGE, import_records
from kb.store import build
from tests.test_site import Page
from web import create_app
from web.site.records import CITED_BY_SHOWN, RECORDS_PER_PAGE

ATOM = "{http://www.w3.org/2005/Atom}"
MANY = 450  # rulings citing 1.3's 337.1.c.3 (337.4 in 1.4), besides the sample ruling
ARTICLES = 2  # articles citing 337.1.c.3 too: listed although hundreds of rulings come first


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> FlaskClient:
    home = tmp_path_factory.mktemp("records-many")
    rulings = tmp_path_factory.mktemp("many-rulings")
    for i in range(MANY):
        stale = i % 3 == 0  # a third cite a rule 1.4 renumbered, the rest one it kept as it was
        cited = "rule 337.1.c.3" if stale else "rule 340.2"
        (rulings / f"r{i:03d}.yaml").write_text(
            f"id: many-{i:03d}\nquestion: Question {i} about who acts next?\n"
            f"answer: The answer rests on {cited}.\nsource: test\ndate: 2026-04-01\n"
            f"ruleset: riftbound\nedition: '1.3'\n", encoding="utf-8")
    articles = tmp_path_factory.mktemp("many-articles")
    for i in range(ARTICLES):
        (articles / f"a{i}.md").write_text(f"---\nruleset: riftbound\nedition: '1.3'\n---\nArticle {i}: "
                                           "the newest item's controller gets priority (rule 337.1.c.3).\n",
                                           encoding="utf-8")
    build(home)
    import_records(home, [rulings], "ruling", KnowledgeBase.open(home))
    import_records(home, [articles], "article", KnowledgeBase.open(home))
    build(home)
    app = create_app(home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


# rule page, rulings and articles citing it (the sample ruling cites both 337.1.c.3 and
# 340.2; the sample article neither)
RULES = [("/riftbound/1.4/337.4", MANY // 3 + 1, ARTICLES), ("/riftbound/1.4/340.2", MANY - MANY // 3 + 1, 0)]


@pytest.mark.parametrize("url,citing,articles", RULES)
def test_a_rule_page_lists_the_first_citing_records_and_counts_them_all(client: FlaskClient, url: str,
                                                                        citing: int, articles: int) -> None:
    resp = client.get(url)
    assert resp.status_code == 200
    page = Page(resp.get_data(as_text=True))
    assert f"{citing} rulings, {articles} article{'s' if articles != 1 else ''}" in page.plain
    listed = [link for link in page.links if "rulings/many-" in link or "rulings/riftbound-" in link]
    listed_articles = [link for link in page.links if "articles/a" in link]
    assert len(listed_articles) == articles, "the articles are not crowded out by the rulings"
    assert len(listed) + len(listed_articles) == CITED_BY_SHOWN
    assert f"and {citing + articles - CITED_BY_SHOWN} more" in page.plain
    number = url.rsplit("/", 1)[1]
    api = next(link for link in page.links if f"api/v1/rulesets/riftbound/rules/{number}/cited-by" in link)
    assert "edition=1.4" in api
    rule = client.get(f"/api/v1/rulesets/riftbound/rules/{number}?edition=1.4")
    answer = rule.get_json()["cited_by"]
    assert (answer["total"], answer["rulings"], answer["articles"]) == (citing + articles, citing, articles)
    assert len(answer["records"]) == CITED_BY_PAGE and answer["more"] == citing + articles - CITED_BY_PAGE
    assert len(rule.data) < 40_000, "the rule's answer lists a page of them, not all"
    seen, link, pages = [], urljoin(url, api), 0
    while link:  # the API lists them all, a page at a time, each page leading to the next
        got = client.get(link)
        assert got.status_code == 200, link
        data = got.get_json()
        assert len(data["records"]) <= data["limit"] and data["total"] == citing + articles
        seen += [r["id"] for r in data["records"]]
        link, pages = data["next"], pages + 1
    assert len(seen) == len(set(seen)) == citing + articles and pages == -(-len(seen) // CITED_BY_PAGE)
    only = client.get(f"/api/v1/rulesets/riftbound/rules/{number}/cited-by?edition=1.4&kind=article").get_json()
    assert [r["kind"] for r in only["records"]] == ["article"] * articles, "asked for, no ruling hides them"
    assert len(resp.data) < 100_000


def test_a_rule_few_records_cite_lists_them_all(client: FlaskClient) -> None:
    page = Page(client.get("/riftbound/1.4/337.1").get_data(as_text=True))
    assert "No ruling or article cites 337.1." in page.plain and " more" not in page.plain.split("Cited by")[1][:200]


# list page, how many listed there, the status line
LISTS = [
    ("/rulings/", RECORDS_PER_PAGE, f"{MANY + 1} rulings"),
    ("/rulings/?page=2", RECORDS_PER_PAGE, f"Showing {RECORDS_PER_PAGE + 1}–{2 * RECORDS_PER_PAGE}."),
    ("/rulings/?page=3", MANY + 1 - 2 * RECORDS_PER_PAGE, f"Showing {2 * RECORDS_PER_PAGE + 1}–{MANY + 1}."),
    ("/rulings/?stale=1", MANY // 3 + 1, f"{MANY // 3 + 1} rulings"),
    ("/articles/", ARTICLES + 1, f"{ARTICLES + 1} articles"),
]


@pytest.mark.parametrize("url,listed,status", LISTS)
def test_the_lists_are_paged(client: FlaskClient, url: str, listed: int, status: str) -> None:
    resp = client.get(url)
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    [items] = re.findall(r'<ul class="records">(.*?)</ul>', html, re.S)
    assert items.count("<li>") == listed
    assert status in Page(html).plain
    assert len(resp.data) < 100_000


def test_a_pages_links_keep_its_filters(client: FlaskClient) -> None:
    page = Page(client.get("/rulings/?ruleset=riftbound&page=2").get_data(as_text=True))
    pager = [link for link in page.links if "page=" in link]
    assert pager and all("ruleset=riftbound" in link for link in pager), pager
    assert any("page=3" in link for link in pager) and any("page=" not in link and "ruleset=riftbound" in link
                                                           for link in page.links), "page 1 is the plain list"


PAGE_ERRORS = [
    ("/rulings/?page=4", 404, "This list has 3 page(s), not 4"),
    ("/rulings/?page=0", 404, "not 0"),
    ("/rulings/?page=two", 400, "Page must be a positive whole number"),
    ("/articles/?page=2", 404, "This list has 1 page(s), not 2"),
]


@pytest.mark.parametrize("url,status,words", PAGE_ERRORS)
def test_a_page_past_the_end_is_an_error_page(client: FlaskClient, url: str, status: int, words: str) -> None:
    resp = client.get(url)
    assert resp.status_code == status and resp.mimetype == "text/html"
    assert words in Page(resp.get_data(as_text=True)).plain


def test_the_stale_feed_lists_the_newest_and_counts_them_all(client: FlaskClient) -> None:
    resp = client.get("/api/v1/rulings/stale.atom")
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml"
    root = ET.fromstring(resp.data)
    assert len(root.findall(f"{ATOM}entry")) == FEED_ENTRIES
    assert f"{MANY // 3 + 1} are stale; the {FEED_ENTRIES} newest are listed here" in root.findtext(f"{ATOM}subtitle")
    ids = [e.findtext(f"{ATOM}id") for e in root.findall(f"{ATOM}entry")]
    assert len(set(ids)) == len(ids) and all(":stale:1.4" in i for i in ids)
    assert len(resp.data) < 200_000
