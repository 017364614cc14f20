"""The rules browser website, through Flask's test client: every page, redirects, error
pages, escaping of hostile rule text, relative links and page sizes."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from kb.timing import load_scenario
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


def frame_state(k: KnowledgeBase, name: str, frame: int) -> dict[str, Any]:
    """The state at a 1-based frame of a worked scenario, run afresh."""
    return k.timing_run(load_scenario(name), f"{name}.yaml")["frames"][frame - 1]["state"]


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
    ("/riftbound/1.4/337.1.a/history", "Rule 337.1.a in every edition"),
    ("/testgame/2/101.2", "Every edition of rule 101.2"),  # the rule page links its whole history
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
    ("/riftbound/glossary", 302, "/riftbound/1.4/glossary"),
    ("/glossary", 302, "/riftbound/1.4/glossary"),
    ("/contents", 302, "/riftbound/1.4/"),
    ("/riftbound/contents", 302, "/riftbound/1.4/"),
    ("/riftbound/1.3/contents", 302, "/riftbound/1.3/"),
    ("/glossary/", 308, "/glossary"),
    ("/testgame/101.2", 302, "/testgame/2/101.2"),
    ("/testgame/1/101.2a", 308, "/testgame/1/101.2.a"),
    ("/riftbound/1.4/337.1a/history", 308, "/riftbound/1.4/337.1.a/history"),
    ("/mtg/2015-06-01/116.3", 302, "/mtg/2010-10-01/116.3"),  # a date: the edition in force then
    ("/mtg/2015-06-01/", 302, "/mtg/2010-10-01/"),
    ("/mtg/2015-06-01/glossary?x=1", 302, "/mtg/2010-10-01/glossary?x=1"),
    ("/timing/", 308, "/timing"),
    ("/search/?q=focus", 308, "/search?q=focus"),
]


WELL_KNOWN_FILES = [
    # (url, content type, text in the answer): asked for without a link, never a redirect
    ("/favicon.ico", "image/svg+xml", "<svg"),
    ("/robots.txt", "text/plain", "User-agent: *\nAllow: /"),
]


@pytest.mark.parametrize("url,mimetype,text", WELL_KNOWN_FILES)
def test_well_known_files_are_served_where_asked(client: FlaskClient, url: str, mimetype: str,
                                                   text: str) -> None:
    r = client.get(url)
    assert r.status_code == 200 and r.mimetype == mimetype and text in r.get_data(as_text=True)


# (statuses of a rule's history, newest first, * marking the edition read: e1 is the oldest)
# -> the rows its page shows: an edition as itself, a run of unchanged or absent editions as
# oldest…newest×count(status)
COMPACT_HISTORY = [
    ("changed* unchanged unchanged unchanged present", "e5 e2…e4×3(unchanged) e1"),
    ("unchanged* unchanged changed unchanged present", "e5 e4×1(unchanged) e3 e2×1(unchanged) e1"),
    ("unchanged unchanged* changed absent absent", "e5×1(unchanged) e4 e3 e1…e2×2(absent)"),
    ("removed unchanged* present absent", "e4 e3 e2 e1×1(absent)"),
    ("unchanged absent* unchanged unchanged", "e4×1(unchanged) e3 e1…e2×2(unchanged)"),
]


@pytest.mark.parametrize("statuses,rows", COMPACT_HISTORY)
def test_a_rules_history_collapses_runs_of_the_same_wording(statuses: str, rows: str) -> None:
    from web.site.pages import compact_history
    words = statuses.split()
    history = [{"edition": f"e{len(words) - i}", "status": w.rstrip("*"), "current": w.endswith("*")}
               for i, w in enumerate(words)]
    shown = [f"{r['first']}{'…' + r['last'] if r['count'] > 1 else ''}×{r['count']}({r['run']})" if r["run"]
             else r["edition"] for r in compact_history(history)]
    assert " ".join(shown) == rows


@pytest.mark.parametrize("url,status,location", REDIRECTS)
def test_redirects_to_canonical(client: FlaskClient, url: str, status: int, location: str) -> None:
    r = client.get(url)
    assert r.status_code == status
    assert r.headers["Location"].endswith(location)


ERRORS = [
    # (url, status, text on the error page)
    ("/riftbound/1.4/999", 404, "it is beyond the last rule, 829 Flow"),  # past the last rule (A18)
    ("/riftbound/1.4/337.99", 404, "Nearest rules in riftbound 1.4"),
    ("/riftbound/1.4/337.9", 404, "337.4"),
    ("/riftbound/9.9/337.1", 404, "Editions of riftbound"),
    ("/mtg/2001-06-01/116.3", 404, "No edition of mtg was in force on 2001-06-01."),  # before every edition
    ("/nosuchgame/1/100", 404, "Unknown ruleset"),
    ("/riftbound/1.4/not-a-number", 400, "Not a rule number"),
    ("/mtg/2026-01-16/116.3d", 404, "2010-10-01's rule 116.3d (If a player has priority and chooses not "
                                    "to take any actions, …) is rule 117.3d in 2026-01-16"),
    ("/riftbound/337.1.c.3", 404, "1.3's rule 337.1.c.3"),
    ("/riftbound/1.4/300?part=99", 404, "part"),
    ("/riftbound/1.4/300?part=x", 400, "Part must be"),
    ("/riftbound/1.4/glossary/zz", 404, "one letter"),
    ("/no/such/page/at/all", 404, "no page at this address"),
    ("/no/such/page/", 404, "no page at this address"),
]


@pytest.mark.parametrize("url,status,text", ERRORS)
def test_error_pages_are_html(client: FlaskClient, url: str, status: int, text: str) -> None:
    r, page = get(client, url, status)
    assert r.mimetype == "text/html"
    assert text in page.plain
    assert "Traceback" not in page.plain


@pytest.mark.parametrize("url", ["/", "/riftbound/1.4/337.1.a", "/cite", "/timing", "/offline", "/api"])
def test_every_page_has_one_main_landmark_and_one_heading_1(client: FlaskClient, url: str) -> None:
    _, page = get(client, url)
    tags = [tag for tag, _ in page.tags]
    assert (tags.count("main"), tags.count("h1")) == (1, 1), url


def test_every_page_links_the_api_for_people(client: FlaskClient) -> None:
    for url in ("/", "/riftbound/1.4/337.1.a"):
        _, page = get(client, url)
        api = [link for link in page.links if link.rstrip("/").endswith("api")]
        assert api, (url, page.links)
        assert client.get(urljoin(url, api[0]), follow_redirects=True).status_code == 200


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


# -- search --------------------------------------------------------------------------------
def test_search_finds_the_rule_a_judge_means(client: FlaskClient) -> None:
    r, page = get(client, "/search?q=controller+of+the+next+item+gains+priority&ruleset=riftbound")
    assert page.links[page.links.index("riftbound/1.4/337.4")] == "riftbound/1.4/337.4"
    html = r.get_data(as_text=True)
    first = html.index('class="results"')
    assert html.index("337.4", first) < html.index("</li>", first)      # ranked first
    assert "<mark>" in html and "300 Playing the Game" in page.plain      # excerpt, breadcrumbs


def test_search_offers_did_you_mean_and_the_term(client: FlaskClient) -> None:
    _, page = get(client, "/search?q=priorty&ruleset=riftbound")
    assert "Did you mean priority ?" in page.plain
    assert any("q=priority" in link for link in page.links)


def test_search_for_a_number_jumps_to_the_rule(client: FlaskClient) -> None:
    r = client.get("/search?q=337.1a&ruleset=riftbound")
    assert r.status_code == 302 and r.headers["Location"].endswith("/riftbound/1.4/337.1.a")


@pytest.mark.parametrize("query,said,link", [
    ("116.3d&ruleset=mtg", "2010-10-01's rule 116.3d (If a player has priority and chooses not to take any "
                           "actions, …) is rule 117.3d in 2026-01-16.", "mtg/2026-01-16/117.3d"),
    ("337.1.c.3&ruleset=riftbound", "1.3's rule 337.1.c.3", "riftbound/1.4/337.4"),
])
def test_search_for_an_older_editions_number_says_where_it_went(client: FlaskClient, query: str, said: str,
                                                                 link: str) -> None:
    _, page = get(client, "/search?q=" + query)
    assert said in page.plain and any(href.endswith(link) for href in page.links), page.plain[:500]


def test_search_pages(client: FlaskClient) -> None:
    _, first = get(client, "/search?q=chain&ruleset=riftbound")
    assert "1–20 of" in first.plain
    assert any("page=2" in link for link in first.links)
    _, second = get(client, "/search?q=chain&ruleset=riftbound&page=2")
    assert "21–40 of" in second.plain


SEARCH_ERRORS = [
    # (query string, status, text)
    ("q=%22unbalanced&ruleset=riftbound", 400, "Unbalanced quote: the \" at position 0 is never closed."),
    ("q=chain&ruleset=riftbound&page=0", 400, "Page must be"),
    ("q=chain&ruleset=riftbound&page=x", 400, "Page must be"),
    ("q=chain&ruleset=nosuch", 404, "Unknown ruleset"),
    ("q=chain&ruleset=riftbound&edition=9", 404, "Unknown edition"),
]


@pytest.mark.parametrize("query,status,text", SEARCH_ERRORS)
def test_search_errors_are_pages(client: FlaskClient, query: str, status: int, text: str) -> None:
    _, page = get(client, "/search?" + query, status)
    assert text in page.plain


def test_search_query_with_script_is_inert(client: FlaskClient) -> None:
    r, page = get(client, "/search?q=%3Cscript%3Ealert(1)%3C/script%3E+chain&ruleset=riftbound")
    html = r.get_data(as_text=True)
    assert "<script>alert" not in html and all(s.get("src") for s in page.scripts)


# -- timing explorer ------------------------------------------------------------------------
SCENARIO = "000-your-own-spell-starts-the-chain"


def test_explorer_lists_the_worked_scenarios(client: FlaskClient) -> None:
    _, page = get(client, "/timing")
    assert any(f"scenario={SCENARIO}" in link for link in page.links)


def test_explorer_steps_through_frames_without_script(client: FlaskClient) -> None:
    r, page = get(client, f"/timing?scenario={SCENARIO}&frame=2")
    html = r.get_data(as_text=True)
    assert "Frame 2 of" in page.plain and "Ann plays Fireball." in page.plain
    assert f"timing?scenario={SCENARIO}&amp;frame=3" in html and f"timing?scenario={SCENARIO}&amp;frame=1" in html
    assert 'class="tm-state on"' in html                       # the diagram lights a state
    assert "riftbound/1.4/338.1" in page.links                  # cited rules link to their pages
    assert "Fireball" in page.plain and "pending" in page.plain or "finalized" in page.plain


EXPLORER_ERRORS = [
    (f"/timing?scenario={SCENARIO}&frame=999", 404, "does not exist"),
    (f"/timing?scenario={SCENARIO}&frame=x", 400, "Frame must be"),
    ("/timing?scenario=no-such-scenario", 404, "No worked scenario"),
]


@pytest.mark.parametrize("url,status,text", EXPLORER_ERRORS)
def test_explorer_errors(client: FlaskClient, url: str, status: int, text: str) -> None:
    _, page = get(client, url, status)
    assert text in page.plain


PASTED = """
name: A pasted scenario <script>window.__pwned = 1</script>
ruleset: riftbound
edition: "1.4"
players: [Ann, Bo]
cards:
  Fireball: {type: spell, effects: [{draw: 1}]}
steps:
  - play: {player: Ann, card: Fireball}
  - expect: {priority: Ann}
  - pass: Ann
"""


def test_explorer_runs_a_pasted_scenario_and_steps_by_posting(client: FlaskClient) -> None:
    r = client.post("/timing", data={"yaml": PASTED, "frame": "2"})
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    assert "Frame 2 of" in page.plain and "A pasted scenario <script>" in page.plain
    assert "<script>window" not in r.get_data(as_text=True)
    assert any(t == "button" and a.get("name") == "frame" and a.get("value") == "3" for t, a in page.tags)


PASTED_ERRORS = [
    # (yaml, status, text)
    ("name: [unclosed", 400, "not valid YAML"),
    ("- just\n- a list", 400, "YAML mapping"),
    ("a: &x [1]\nb: *x", 400, "aliases"),
    ("name: x\nruleset: riftbound\nplayers: [Ann]\nsteps: [{fly: Ann}]", 422, "cannot run"),
]


@pytest.mark.parametrize("text,status,message", PASTED_ERRORS)
def test_explorer_refuses_broken_scenarios_in_the_form(client: FlaskClient, text: str, status: int,
                                                       message: str) -> None:
    r = client.post("/timing", data={"yaml": text})
    assert r.status_code == status
    page = Page(r.get_data(as_text=True))
    assert message in page.plain and text.split("\n")[0] in page.plain   # kept in the form


# -- citation linker ------------------------------------------------------------------------
def test_linker_renders_an_article_with_its_report(client: FlaskClient) -> None:
    _, page = get(client, "/cite")
    assert "Article" in page.plain
    article = ("---\nruleset: riftbound\n---\nFinalizing does not pass priority (rule 337.1.a); "
               "see rule 999.9.\n\n<script>window.__pwned = 1</script>\n")
    r = client.post("/cite", data={"article": article, "style": "footnotes"})
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    page = Page(html)
    assert "riftbound/1.4/337.1.a" in page.links
    assert "Finalizing an item to the chain does not pass Priority." in page.plain   # footnote
    assert "not found" in page.plain and "<script>window" not in html


def test_linker_names_its_default_target_truthfully(client: FlaskClient) -> None:
    """Without a ruleset (or front matter), an article is linked against every ruleset's newest
    edition; the form said the first ruleset's title (Magic's, once two were built)."""
    r, _ = get(client, "/cite")
    html = r.get_data(as_text=True)
    assert '<option value="">from the article, else every ruleset</option>' in html
    both = client.post("/cite", data={"article": "See rule 337.1.a and CR 117.3d.", "style": "footnotes"})
    assert both.status_code == 200
    links = Page(both.get_data(as_text=True)).links
    assert any("riftbound/1.4/337.1.a" in u for u in links) and any("mtg/2026-01-16/117.3d" in u for u in links)


def test_linker_refuses_a_bad_style(client: FlaskClient) -> None:
    r = client.post("/cite", data={"article": "rule 337.1", "style": "bogus"})
    assert r.status_code == 400 and r.mimetype == "text/html"


# -- editions: diff and history -------------------------------------------------------------
def test_compare_shows_word_level_changes_and_counts(client: FlaskClient) -> None:
    r, page = get(client, "/testgame/compare/1/2")
    html = r.get_data(as_text=True)
    assert "<ins>exclusive </ins>" in html or "<ins>exclusive" in html
    assert "Added" in page.plain and "unchanged rule" in page.plain
    assert "<script>window" not in html


COMPARE_ERRORS = [
    ("/testgame/compare/2/2", 400, "two different editions"),
    ("/testgame/compare/1/9", 404, "Unknown edition"),
    ("/testgame/compare/1/2?page=9", 404, "page"),
]


@pytest.mark.parametrize("url,status,text", COMPARE_ERRORS)
def test_compare_errors(client: FlaskClient, url: str, status: int, text: str) -> None:
    _, page = get(client, url, status)
    assert text in page.plain


def test_rule_page_shows_the_rule_in_other_editions(client: FlaskClient) -> None:
    r, page = get(client, "/testgame/2/101.1")
    assert "In other editions" in page.plain
    assert "../1/101.1" in page.links
    assert "<ins>" in r.get_data(as_text=True)


def test_rule_page_links_transitions_to_the_explorer(client: FlaskClient) -> None:
    _, page = get(client, "/riftbound/1.4/337.4")
    assert "priority-to-next-item" in page.plain
    assert any(link.startswith("../../timing?scenario=") for link in page.links)


@pytest.mark.parametrize("url,ruleset", [
    ("/riftbound/1.4/340.1", "riftbound"),   # resolve: both games name it
    ("/riftbound/1.4/338.1.a", "riftbound"), # activate: both games name it
])
def test_rule_page_shows_a_scenario_of_its_own_ruleset(client: FlaskClient, url: str, ruleset: str) -> None:
    from kb.timing import list_scenarios
    own = {s["name"] for s in list_scenarios(ruleset)}
    _, page = get(client, url)
    shown = {link.split("scenario=", 1)[1].split("&", 1)[0] for link in page.links if "timing?scenario=" in link}
    assert shown and shown <= own


def test_explorer_shows_a_magic_scenario_with_its_stack(client: FlaskClient) -> None:
    r, page = get(client, "/timing?scenario=002-a-counterspell-goes-above-the-spell-it-counters&frame=4")
    assert "Stack" in page.plain and "Frame 4 of" in page.plain
    assert 'class="tm-state on"' in r.get_data(as_text=True)      # Magic has its own diagram


def test_explorer_names_the_item_a_magic_state_is_resolving() -> None:
    from web.site.explorer import state_view
    state = {"turn": 1, "active": "Ann", "step": "main-1", "priority": None,
             "resolving": {"item": {"name": "Smallpox", "controller": "Ann"}, "index": 1}, "stack": []}
    assert ("Resolving", "Smallpox") in state_view(state)["rows"]


def many_editions_kb(count: int, changes: dict[int, str]) -> KnowledgeBase:
    """A ruleset ``long`` of ``count`` editions (1..count, dated one a month from 2001) whose
    rule 101.1 reads "Players pass priority." until an edition of ``changes`` rewords it."""
    from kb.graph import build_edition
    from kb.model import RawRule, ReadResult
    from kb.numbers import parse_number
    graphs, wording = [], "Players pass priority."
    for n in range(1, count + 1):
        wording = changes.get(n, wording)
        date = f"{2001 + (n - 1) // 12}-{(n - 1) % 12 + 1:02d}-01"
        rules = [RawRule(parse_number("101"), "section", "", 1, title="Priority"),
                 RawRule(parse_number("101.1"), "rule", wording, 2)]
        graphs.append(build_edition(ReadResult(rules, [], title="Long Game", date=date), ruleset="long",
                                    edition=str(n), date=date, title="Long Game"))
    return KnowledgeBase.from_graphs(graphs)


def test_a_rule_page_shows_only_the_editions_that_changed_its_wording() -> None:
    kb = many_editions_kb(40, {10: "Players pass priority in turn.", 30: "Each player passes priority in turn."})
    client = create_app(kb=kb).test_client()
    r, page = get(client, "/long/40/101.1")
    html = r.get_data(as_text=True)
    assert "same wording in 31 … 39, 9 editions" in page.plain
    assert "same wording in 11 … 29, 19 editions" in page.plain
    assert "same wording in 2 … 9, 8 editions" in page.plain
    assert html.count('class="htext"') == 4, "40 (read), 30 and 10 (reworded), 1 (first)"
    assert "<ins>" in html and "history" in " ".join(page.links)
    _, full = get(client, "/long/40/101.1/history")
    assert "40 editions" in full.plain and "3 where the rule came, went, moved or changed" in full.plain


# (unchanged words before, changed word, unchanged words after, words kept beside a change)
# -> the diff shown: a long unchanged run keeps that many words beside each change
ELIDED_DIFFS = [
    ("a b c d e f g", "X", "h i j k l m n", 2, "… f g <del>x</del><ins>X</ins> h i …"),
    ("a b c", "X", "d e f", 2, "a b c <del>x</del><ins>X</ins> d e f"),
    ("a b c d e f g", "X", "", 3, "… e f g <del>x</del><ins>X</ins>"),
    ("a b c d e f g", "X", "h", None, "a b c d e f g <del>x</del><ins>X</ins> h"),
]


@pytest.mark.parametrize("before,changed,after,context,shown", ELIDED_DIFFS)
def test_a_long_rules_history_keeps_the_words_beside_each_change(before: str, changed: str, after: str,
                                                                  context: int | None, shown: str) -> None:
    from web.site.markup import inline_diff
    ops = [{"op": "equal", "new": before + " "}, {"op": "replace", "old": "x", "new": changed}]
    if after:
        ops.append({"op": "equal", "new": " " + after})
    assert str(inline_diff(ops, context)).strip() == shown
