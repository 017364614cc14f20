"""The rules browser website, through Flask's test client: every page, redirects, error
pages, escaping of hostile rule text, relative links and page sizes."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app

from browser.testgame import site_knowledge_base

MAX_PAGE = 100_000  # bytes of HTML for any page, the largest section included


@pytest.fixture(scope="module")
def site_kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return site_knowledge_base(excerpt_kb)


@pytest.fixture(scope="module")
def app(site_kb: KnowledgeBase) -> Flask:
    return create_app(kb=site_kb)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


class Page(HTMLParser):
    """Links, ids, scripts and text of a page, read by a real HTML parser."""

    def __init__(self, html: str):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[dict[str, Any]] = []
        self.tags: list[tuple[str, dict[str, Any]]] = []
        self.text: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "a" and a.get("href"):
            self.links.append(a["href"] or "")
        if a.get("id"):
            self.ids.add(a["id"] or "")
        if tag == "script":
            self.scripts.append(a)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def plain(self) -> str:
        return " ".join(" ".join(self.text).split())

    def attrs_with(self, name: str) -> list[str]:
        """Every attribute called ``name`` (event handlers must never appear)."""
        return [k for _, a in self.tags for k in a if k == name]


def get(client: FlaskClient, url: str, status: int = 200) -> tuple[Any, Page]:
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code, r.data[:500])
    return r, Page(r.get_data(as_text=True))


# -- pages answer --------------------------------------------------------------------------
PAGES = [
    # (url, text the page must show)
    ("/", "Riftbound Core Rules"),
    ("/riftbound/1.4/", "Step 1: Finalize"),
    ("/riftbound/1.4/337.1.a", "Finalizing an item to the chain does not pass Priority."),
    ("/riftbound/1.4/337", "Step 1: Finalize"),
    ("/riftbound/1.4/300", "Playing the Game"),
    ("/riftbound/1.4/glossary", "Glossary"),
    ("/testgame/2/101.2", "The player with Priority may pass or act."),
    ("/testgame/2/glossary", "Priority is the exclusive right to act."),
]


@pytest.mark.parametrize("url,text", PAGES)
def test_page_renders(client: FlaskClient, url: str, text: str) -> None:
    r, page = get(client, url)
    assert r.mimetype == "text/html"
    assert text in page.plain
    assert len(r.data) < MAX_PAGE
    assert "script-src 'self'" in r.headers["Content-Security-Policy"]


REDIRECTS = [
    # (url, status, location)
    ("/riftbound/1.4/337.1a", 308, "/riftbound/1.4/337.1.a"),
    ("/riftbound/1.4/rule%20337.1a.", 308, "/riftbound/1.4/337.1.a"),
    ("/riftbound/337.1.a", 302, "/riftbound/1.4/337.1.a"),
    ("/riftbound/337.1a", 302, "/riftbound/1.4/337.1.a"),
    ("/riftbound/1.4", 308, "/riftbound/1.4/"),
    ("/riftbound/", 302, "/riftbound/1.4/"),
    ("/testgame/101.2", 302, "/testgame/2/101.2"),
    ("/testgame/1/101.2a", 308, "/testgame/1/101.2.a"),
]


@pytest.mark.parametrize("url,status,location", REDIRECTS)
def test_redirects_to_canonical(client: FlaskClient, url: str, status: int, location: str) -> None:
    r = client.get(url)
    assert r.status_code == status
    assert r.headers["Location"].endswith(location)


ERRORS = [
    # (url, status, text on the error page)
    ("/riftbound/1.4/999", 404, "Nearest rules in riftbound 1.4"),
    ("/riftbound/1.4/337.9", 404, "337.4"),
    ("/riftbound/9.9/337.1", 404, "Editions of riftbound"),
    ("/nosuchgame/1/100", 404, "unknown ruleset"),
    ("/riftbound/1.4/not-a-number", 400, "not a rule number"),
    ("/riftbound/1.4/300?part=99", 404, "part"),
    ("/riftbound/1.4/300?part=x", 400, "part must be"),
    ("/riftbound/1.4/glossary/zz", 404, "one letter"),
    ("/no/such/page/at/all", 404, "no page at this address"),
]


@pytest.mark.parametrize("url,status,text", ERRORS)
def test_error_pages_are_html(client: FlaskClient, url: str, status: int, text: str) -> None:
    r, page = get(client, url, status)
    assert r.mimetype == "text/html"
    assert text in page.plain
    assert "Traceback" not in page.plain


def test_error_page_links_the_nearest_rules(client: FlaskClient) -> None:
    _, page = get(client, "/riftbound/1.4/337.9", 404)
    assert "337.4" in page.links


def test_unknown_api_path_keeps_the_json_error_shape(client: FlaskClient) -> None:
    r = client.get("/api/v1/no-such-thing")
    assert r.status_code == 404
    assert r.is_json and r.get_json()["error"]["status"] == 404


def test_wrong_method_is_an_html_405(client: FlaskClient) -> None:
    r = client.post("/riftbound/1.4/337.1.a")
    assert r.status_code == 405 and r.mimetype == "text/html"


# -- the rule page -------------------------------------------------------------------------
def test_rule_page_has_breadcrumbs_anchors_and_neighbours(client: FlaskClient) -> None:
    r, page = get(client, "/riftbound/1.4/337.1")
    crumbs = Page(re.search(r'<nav class="crumbs".*?</nav>', r.get_data(as_text=True), re.S).group(0))  # type: ignore[union-attr]
    assert crumbs.plain == "Home › Riftbound Core Rules 1.4 › 300 Playing the Game › 337 Step 1: Finalize › 337.1".replace(" › ", " ")
    assert crumbs.links == ["../../", "./", "300", "337"]
    assert {"337.1", "337.1.a", "337.1.b"} <= page.ids
    assert "337" in page.links and "337.1.a" in page.links      # previous / next, relative
    assert "349" in page.links                                   # "See rule 349. Playing Cards"
    svg = re.search(r"<svg class=\"neighbourhood\".*?</svg>", client.get("/riftbound/1.4/337.1").get_data(as_text=True), re.S)
    assert svg and 'href="349"' in svg.group(0) and 'href="337"' in svg.group(0)


def test_rule_page_lists_what_cites_it(client: FlaskClient) -> None:
    _, page = get(client, "/riftbound/1.4/349")
    assert "Referenced by" in page.plain
    assert "337.1" in page.links


def test_terms_link_to_their_definition_on_the_page(client: FlaskClient) -> None:
    r, page = get(client, "/riftbound/1.4/337.1.a")
    terms = [a for t, a in page.tags if t == "a" and "term" in (a.get("class") or "").split()]
    assert terms, "a defined term is marked"
    for a in terms:
        target = (a["href"] or "")[1:]
        assert target in page.ids and a["aria-describedby"] == target


def test_defining_rule_marks_the_term_as_a_definition(client: FlaskClient) -> None:
    r = client.get("/testgame/2/101.1")
    assert '<dfn class="defined"' in r.get_data(as_text=True)


def test_edition_switcher_links_the_same_rule_in_other_editions(client: FlaskClient) -> None:
    _, page = get(client, "/testgame/2/101.2")
    assert "../1/101.2" in page.links
    _, page = get(client, "/testgame/2/101.3")              # not in edition 1
    assert not any(link.startswith("../1/") for link in page.links if "101.3" in link)


def test_long_headings_are_split_into_parts_under_the_size_limit(client: FlaskClient) -> None:
    r, page = get(client, "/riftbound/1.4/300")
    assert "Part 1 of" in page.plain
    parts = int(re.search(r"Part 1 of (\d+)", page.plain).group(1))  # type: ignore[union-attr]
    for n in range(2, parts + 1):
        r, _ = get(client, f"/riftbound/1.4/300?part={n}")
        assert len(r.data) < MAX_PAGE


def test_links_are_relative(client: FlaskClient) -> None:
    for url in ["/", "/riftbound/1.4/", "/riftbound/1.4/337.1.a", "/riftbound/1.4/glossary"]:
        r = client.get(url)
        html = r.get_data(as_text=True)
        absolute = re.findall(r'(?:href|src|action)="(/[^"]*|https?://[^"]*)"', html)
        assert absolute == [], (url, absolute[:5])


# -- hostile text --------------------------------------------------------------------------
HOSTILE_PAGES = ["/testgame/2/101", "/testgame/2/101.2", "/testgame/2/101.2.a", "/testgame/1/101",
                 "/testgame/2/", "/testgame/2/glossary", "/", "/testgame/2/100"]


@pytest.mark.parametrize("url", HOSTILE_PAGES)
def test_rule_text_with_script_renders_inert(client: FlaskClient, url: str) -> None:
    r, page = get(client, url)
    html = r.get_data(as_text=True)
    assert all(s.get("src") for s in page.scripts), "only the site's own script file"
    assert "<script>window" not in html and "<img src=x" not in html and "<b onmouseover" not in html
    assert page.attrs_with("onerror") == [] and page.attrs_with("onmouseover") == []


def test_hostile_text_is_shown_as_written(client: FlaskClient) -> None:
    _, page = get(client, "/testgame/2/101.2")
    assert "<script>window.__pwned = 'text'</script>" in page.plain
    _, page = get(client, "/testgame/2/101.2.a")
    assert "<img src=x onerror=\"window.__pwned = 'example'\">" in page.plain


# -- page sizes on the real documents ---------------------------------------------------------
@pytest.mark.corpora
def test_largest_pages_of_the_real_documents_stay_under_100kb(full_kb: KnowledgeBase) -> None:
    client = create_app(kb=full_kb).test_client()
    for ruleset in ("riftbound", "mtg"):
        for e in full_kb.editions(ruleset):
            ed = e["edition"]
            for url in [f"/{ruleset}/{ed}/", f"/{ruleset}/{ed}/glossary"]:
                r = client.get(url)
                assert r.status_code == 200 and len(r.data) < MAX_PAGE, (url, len(r.data))
            structure = full_kb.structure(ruleset, ed)
            biggest = max((s for s in structure if s["kind"] != "rule"), key=lambda s: s["children"])
            r = client.get(f"/{ruleset}/{ed}/{biggest['number']}")
            assert r.status_code == 200 and len(r.data) < MAX_PAGE, (biggest["number"], len(r.data))
