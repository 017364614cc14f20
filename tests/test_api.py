"""The JSON API: every operation, its errors and its schema (Flask's test client).

Every answer these tests get goes through :func:`web.openapi.response_problems`: a status
the operation does not document, or a body that is not its documented shape, fails the test
that asked, whatever else the test checks.
"""

from __future__ import annotations

from html import escape, unescape
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kb.cli.serve import listening_url
from kb.graph import build_edition
from kb.query import KnowledgeBase
from kb.read import read_text
from web import create_app
from web.api.timing import EXAMPLE_SCENARIO
from web.openapi import ENDPOINTS, endpoint_of, response_problems


def request_endpoint(app: Flask, method: str, path: str) -> str | None:
    """The name of the view a request for ``path`` reaches (None when none does)."""
    try:
        return app.url_map.bind("localhost").match(path, method=method)[0]
    except Exception:
        return None


class CheckedClient:
    """A test client whose every answer is checked against the API's description."""

    def __init__(self, app: Flask):
        self.app = app
        self.client: FlaskClient = app.test_client()

    def open(self, method: str, url: str, **kw: Any) -> Any:
        resp = self.client.open(url, method=method, **kw)
        path = url.split("?", 1)[0]
        if path.startswith("/api/") and method != "OPTIONS":
            if resp.status_code != 304 and method != "HEAD":
                ep = endpoint_of(request_endpoint(self.app, method, path))
                media_type = ep.media_type if ep is not None and resp.status_code == 200 else "application/json"
                assert resp.mimetype == media_type, (url, resp.mimetype, resp.data[:200])
                body = resp.get_json() if media_type == "application/json" else resp.get_data(as_text=True)
                problems = response_problems(self.app, method, path, resp.status_code, body)
                assert not problems, problems
                assert b"Traceback" not in resp.data
        return resp

    def get(self, url: str, **kw: Any) -> Any:
        return self.open("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> Any:
        return self.open("POST", url, **kw)


@pytest.fixture(scope="module")
def api(excerpt_home: Path) -> CheckedClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60), "the health case expects a warmed build"
    return CheckedClient(app)


@pytest.fixture(scope="module")
def full_api(full_kb: KnowledgeBase) -> CheckedClient:
    return CheckedClient(create_app(kb=full_kb))


@pytest.fixture(scope="module")
def two_editions_api(excerpt_kb: KnowledgeBase) -> CheckedClient:
    """The excerpt as edition 1.4, and an older "1.3" in which one rule reads differently:
    enough to compare editions without ../shared."""
    excerpt = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"
    text = excerpt.read_text(encoding="utf-8")
    assert text.count(OLD_WORDING[1]) == 1
    older = build_edition(read_text(text.replace(*reversed(OLD_WORDING)), str(excerpt), "riftbound-md"),
                          ruleset="riftbound", edition="1.3", date="2026-03-30", partial=True)
    newest = excerpt_kb.edition("riftbound", "1.4")
    return CheckedClient(create_app(kb=KnowledgeBase.from_graphs([older, newest])))


# (the older wording, the newer one) of rule 337.1.a in two_editions_api
OLD_WORDING = ("**337.1.a.** Finalizing an item to the chain does not pass Priority to anyone.",
               "**337.1.a.** Finalizing an item to the chain does not pass Priority.")


R = "/api/v1/rulesets/riftbound"
REPO = Path(__file__).resolve().parent.parent

# (url, status, dotted path into the body, expected value); "" checks nothing more.
CASES = [
    ("/api/v1/rulesets", 200, "rulesets.0.name", "mtg"),  # sorted by name: mtg, riftbound
    ("/api/v1/health", 200, "ready", True),
    ("/api/v1/health", 200, "warming", []),
    ("/api/v1/rulesets/riftbound/editions", 200, "newest", "1.4"),
    ("/api/v1/rulesets/nonesuch/editions", 404, "error.detail.rulesets.1", "riftbound"),
    (f"{R}/changes.atom", 200, "", None),  # the feeds' contents: tests/test_feeds.py
    (f"{R}/changes.atom?section=300", 200, "", None),
    (f"{R}/changes.atom?section=999", 404, "error.detail.chapter", "999"),
    ("/api/v1/rulesets/nonesuch/changes.atom", 404, "error.detail.rulesets.1", "riftbound"),
    (f"{R}/rules/337.2/changes.atom", 200, "", None),
    (f"{R}/rules/999.9/changes.atom", 404, "error.detail.number", "999.9"),
    (f"{R}/rules/337.1.a", 200, "number", "337.1.a"),
    (f"{R}/rules/337.1a", 200, "number", "337.1.a"),
    (f"{R}/rules/rule%20337.1.a.", 200, "number", "337.1.a"),
    (f"{R}/rules/337.1A", 200, "number", "337.1.a"),
    (f"{R}/rules/337.1a", 200, "ancestors.1.number", "337"),
    (f"{R}/rules/337.1a", 200, "edition", "1.4"),
    (f"{R}/rules/337.1a?edition=1.4", 200, "edition", "1.4"),
    (f"{R}/rules/337.1a?date=2026-08-01", 200, "edition", "1.4"),
    (f"{R}/rules/337.1a?edition=", 400, "error.detail.parameter", "edition"),
    (f"{R}/rules/337?subrules=true", 200, "subrules.0.number", "337.1"),
    (f"{R}/rules/337.9", 404, "error.detail.number", "337.9"),
    (f"{R}/rules/xyz", 400, "error.detail.parameter", "number"),
    (f"{R}/rules/337.1a?edition=9.9", 404, "error.detail.editions.1", "1.4"),  # 1.3, 1.4
    (f"{R}/rules/337.1a?date=2001-01-01", 404, "error.status", 404),
    ("/api/v1/rulesets/mtg/rules/117.3?edition=2015-06-01", 404, "error.detail.in_force", "2010-10-01"),
    ("/api/v1/rulesets/mtg/rules/116.3?date=2015-06-01", 200, "edition", "2010-10-01"),
    (f"{R}/rules/337.1a?date=yesterday", 400, "error.detail.parameter", "date"),
    (f"{R}/rules/337.1a?date=2026-04-31", 400, "error.detail.date", "2026-04-31"),  # no such day
    (f"{R}/editions?date=2026-13-01", 400, "error.detail.date", "2026-13-01"),
    (f"{R}/diff?from=2026-04-31&to=1.4", 400, "error.detail.date", "2026-04-31"),
    (f"{R}/rules/337.1a?edition=1.4&date=2026-08-01", 200, "edition", "1.4"),
    (f"{R}/rules/337.1a?subrules=maybe", 400, "error.detail.parameter", "subrules"),
    (f"{R}/rules/337.1a?editon=1.4", 400, "error.detail.parameter", "editon"),
    (f"{R}/rules/337.1a?edition=1.4&edition=1.4", 400, "error.detail.parameter", "edition"),
    ("/api/v1/rulesets/nonesuch/rules/337", 404, "error.detail.rulesets.1", "riftbound"),
    ("/api/v1/rulesets/Not%20A%20Name/rules/337", 400, "error.detail.parameter", "ruleset"),
    (f"{R}/structure", 200, "nodes.0.depth", 0),
    (f"{R}/structure?edition=0.1", 404, "error.status", 404),
    (f"{R}/graph/337.1.a", 200, "center", "337.1.a"),
    (f"{R}/graph/337?depth=0", 200, "nodes.0.number", "337"),
    (f"{R}/graph/337?depth=4", 400, "error.detail.parameter", "depth"),
    (f"{R}/graph/337?depth=two", 400, "error.detail.parameter", "depth"),
    (f"{R}/graph/999.9", 404, "error.detail.number", "999.9"),
    (f"{R}/rules/337.1.c.3", 404, "error.detail.elsewhere.here", "337.4"),  # 1.3's number: 337.4 now
    (f"{R}/rules/337.1.c.3", 404, "error.detail.nearest.0", "337.4"),
    ("/api/v1/rulesets/mtg/rules/116.3d", 404, "error.detail.elsewhere.edition", "2010-10-01"),
    (f"{R}/terms", 200, "edition", "1.4"),
    (f"{R}/terms/chain", 200, "key", "chain"),
    (f"{R}/terms/CHAIN", 200, "key", "chain"),
    (f"{R}/terms/chian", 404, "error.detail.nearest.0", "chain"),
    ("/api/v1/stats", 200, "editions.2.ruleset", "riftbound"),  # after mtg's two
    ("/api/openapi.json", 200, "openapi", "3.1.0"),
    ("/api/v1/search?q=finalize+chain+item", 200, "results.0.match", "words"),
    ("/api/v1/search?q=337.1a", 200, "jump", "337.1.a"),
    ("/api/v1/search?q=what+is+a+task&ruleset=riftbound", 200, "term.term", "Task"),
    ("/api/v1/search?q=chian", 200, "did_you_mean", "chain"),
    ("/api/v1/search?q=priority&limit=2&offset=1", 200, "offset", 1),
    ("/api/v1/search?q=priority&section=337", 200, "results.0.breadcrumbs.1.number", "337"),
    ("/api/v1/search?q=priority&edition=1.4", 200, "edition", "1.4"),
    ("/api/v1/search?q=%22unclosed", 400, "error.detail.position", 0),
    ("/api/v1/search", 400, "error.detail.parameter", "q"),
    ("/api/v1/search?q=priority&limit=0", 400, "error.detail.parameter", "limit"),
    ("/api/v1/search?q=priority&limit=101", 400, "error.detail.parameter", "limit"),
    ("/api/v1/search?q=priority&offset=-1", 400, "error.detail.parameter", "offset"),
    ("/api/v1/search?q=priority&section=999", 404, "error.detail.section", "999"),
    ("/api/v1/search?q=priority&ruleset=nonesuch", 404, "error.detail.rulesets.1", "riftbound"),
    (f"{R}/rules/337.1a/history", 200, "editions.0.status", "present"),
    (f"{R}/rules/337.1a/history?edition=1.4", 200, "number", "337.1.a"),
    (f"{R}/rules/337.9/history", 404, "error.detail.number", "337.9"),
    (f"{R}/rules/337.1a/map?from=1.4&to=1.4", 200, "status", "same"),
    (f"{R}/rules/337.1a/map?from=1.4", 400, "error.detail.parameter", "to"),
    (f"{R}/rules/337.1a/map?from=1.4&to=0.9", 404, "error.detail.editions.1", "1.4"),
    (f"{R}/diff?from=1.4&to=1.4", 400, "error.detail.edition", "1.4"),
    (f"{R}/diff?from=1.4", 400, "error.detail.parameter", "to"),
    (f"{R}/diff?from=1.4&to=1.4&only=added,gone", 400, "error.detail.parameter", "only"),
    (f"{R}/diff?from=0.1&to=1.4", 404, "error.status", 404),
    # rulings and articles: the samples of rules/records/ (tests/test_records*.py go further)
    ("/api/v1/rulings", 200, "records.0.id", "riftbound-who-acts-after-finalizing"),
    ("/api/v1/rulings?stale=true&ruleset=riftbound", 200, "records.0.changed.0", "337.1.c.3"),
    ("/api/v1/rulings?ruleset=nonesuch", 404, "error.detail.rulesets.1", "riftbound"),
    ("/api/v1/rulings/search?q=who+may+act+after+finalizing", 200, "hits.0.rules.numbers.0", "337.4"),
    ("/api/v1/rulings/search", 400, "error.detail.parameter", "q"),
    ("/api/v1/rulings/stale.atom", 200, "", None),
    ("/api/v1/rulings/riftbound-who-acts-after-finalizing", 200, "citations.0.now", "337.4"),
    ("/api/v1/rulings/no-such-ruling", 404, "error.detail.id", "no-such-ruling"),
    ("/api/v1/rulings/Not%20An%20Id", 400, "error.detail.parameter", "id"),
    ("/api/v1/articles", 200, "records.0.written_for", "2010-10-01"),
    ("/api/v1/articles/mtg-passing-priority", 200, "citations.0.status", "renumbered"),
    (f"{R}/rules/337.4", 200, "cited_by.rulings", 1),
    ("/api/v1/rulesets/mtg/rules/117.3d", 200, "cited_by.articles", 1),
    (f"{R}/rules/337.4", 200, "cited_by.next", None),  # one page holds the one ruling
    (f"{R}/rules/337.1.c.3/cited-by?edition=1.3", 200, "records.0.cited_as", "337.1.c.3"),
    ("/api/v1/rulesets/mtg/rules/117.3d/cited-by?kind=article&limit=1", 200, "records.0.kind", "article"),
    (f"{R}/rules/337.4/cited-by?offset=1", 404, "error.detail.matching", 1),
    (f"{R}/rules/337.4/cited-by?kind=rules", 400, "error.detail.parameter", "kind"),
    ("/api/v1/cards", 200, "total", 0),  # no card list is shipped; imports: test_search_cards.py
    ("/api/v1/cards?ruleset=nonesuch", 404, "error.detail.rulesets.1", "riftbound"),
    ("/api/v1/nothing-here", 404, "error.detail.path", "/api/v1/nothing-here"),
    ("/api/v2/rulesets", 404, "error.status", 404),
]


# Cases answered from two_editions_api: the excerpt as 1.4, and an older 1.3 that differs.
TWO_EDITION_CASES = [
    (f"{R}/diff?from=1.3&to=1.4", 200, "to.edition", "1.4"),
    (f"{R}/diff?from=1.4&to=1.3", 200, "from.edition", "1.4"),
    (f"{R}/diff?from=2026-04-01&to=2026-08-01", 200, "from.edition", "1.3"),
    (f"{R}/diff?from=1.3&to=1.4&only=added,removed", 200, "total", 0),
    (f"{R}/diff?from=1.3&to=1.4&unchanged=true&limit=2", 200, "entries.1.status", "unchanged"),
    (f"{R}/diff?from=1.3&to=1.4&chapter=300", 200, "filter.chapter", "300"),
    (f"{R}/diff?from=1.3&to=1.4&chapter=999", 404, "error.detail.chapter", "999"),
    (f"{R}/diff?from=1.3&to=1.4&limit=0", 400, "error.detail.parameter", "limit"),
    (f"{R}/rules/337.1a/map?from=1.3&to=1.4", 200, "reworded", True),
    (f"{R}/rules/337.1b/map?from=1.3&to=1.4", 200, "target", "337.1.b"),
    (f"{R}/rules/337.1a/history", 200, "editions.1.status", "changed"),
    (f"{R}/rules/337.1a/history?date=2026-04-01", 200, "edition", "1.3"),
    (f"{R}/rules/337.1a?edition=1.3", 200, "text", "Finalizing an item to the chain does not pass "
                                                   "Priority to anyone."),
]


def dig(data: Any, dotted: str) -> Any:
    for key in dotted.split("."):
        data = data[int(key)] if isinstance(data, list) else data[key]
    return data


@pytest.mark.parametrize(("url", "status", "where", "expected"), CASES)
def test_operation(api: CheckedClient, url: str, status: int, where: str, expected: Any) -> None:
    resp = api.get(url)
    assert resp.status_code == status, resp.get_json()
    if where:
        assert dig(resp.get_json(), where) == expected


@pytest.mark.parametrize(("url", "status", "where", "expected"), TWO_EDITION_CASES)
def test_operation_over_two_editions(two_editions_api: CheckedClient, url: str, status: int,
                                     where: str, expected: Any) -> None:
    resp = two_editions_api.get(url)
    assert resp.status_code == status, resp.get_json()
    assert dig(resp.get_json(), where) == expected


def test_diff_shows_the_reworded_rule(two_editions_api: CheckedClient) -> None:
    data = two_editions_api.get(f"{R}/diff?from=1.3&to=1.4&only=changed&limit=1000").get_json()
    entry = next(e for e in data["entries"] if e["new_number"] == "337.1.a")
    assert entry["status"] == "changed" and entry["old_number"] == "337.1.a"
    assert [op["old"].strip() for op in entry["ops"] if op["op"] != "equal"] == ["to anyone"]
    assert all(e["status"] == "changed" for e in data["entries"])


def test_every_operation_is_covered_by_a_case() -> None:
    """A new operation without a test case fails here (the POST ones have tests of their own)."""
    from werkzeug.routing import Map, Rule
    covered = set()
    for ep in ENDPOINTS.values():
        m = Map([Rule(ep.rule, endpoint=ep.name, methods=[ep.method])]).bind("localhost")
        for url, status, *_ in CASES + TWO_EDITION_CASES + POST_CASES:
            try:
                m.match(url.split("?")[0], method=ep.method)
            except Exception:
                continue
            if status == 200:
                covered.add(ep.name)
    missing = {ep.name for ep in ENDPOINTS.values() if not ep.hidden} - covered
    assert not missing, f"operations without a passing case: {sorted(missing)}"


def test_rule_answer_has_every_part(api: CheckedClient) -> None:
    data = api.get(f"{R}/rules/337.1a").get_json()
    assert [a["number"] for a in data["ancestors"]] == ["300", "337", "337.1"]
    assert data["previous"]["number"] == "337.1" and data["next"]["number"] == "337.1.b"
    assert "chain" in {t["key"] for t in data["terms"]}
    assert "subrules" not in data
    assert {"finalize"} <= {t["name"] for t in data["transitions"]}
    assert all("337.1.a" in t["rules"] for t in data["transitions"])


def test_subrules_are_the_whole_subtree_in_order(api: CheckedClient) -> None:
    data = api.get(f"{R}/rules/337?subrules=true").get_json()
    structure = [n["number"] for n in api.get(f"{R}/structure").get_json()["nodes"]]
    inside = [n for n in structure if n.startswith("337.")]
    assert [s["number"] for s in data["subrules"]] == inside


def test_unknown_rule_names_the_nearest(api: CheckedClient) -> None:
    detail = api.get(f"{R}/rules/337.9").get_json()["error"]["detail"]
    assert detail["nearest"] and all(n.startswith("337") for n in detail["nearest"])
    assert detail["partial"] is True


def test_structure_has_no_text(api: CheckedClient) -> None:
    nodes = api.get(f"{R}/structure").get_json()["nodes"]
    assert nodes and all("text" not in n for n in nodes)


def test_graph_edges_join_listed_nodes(api: CheckedClient) -> None:
    data = api.get(f"{R}/graph/337?depth=2").get_json()
    numbers = {n["number"] for n in data["nodes"]}
    assert data["edges"] and all(e["source"] in numbers and e["target"] in numbers for e in data["edges"])


# -- conventions --------------------------------------------------------------------------

def test_answers_name_their_edition_and_build(api: CheckedClient) -> None:
    resp = api.get(f"{R}/rules/337.1a")
    assert resp.headers["X-Rulekb-Edition"] == "riftbound 1.4"
    assert resp.headers["X-Rulekb-Build"]
    assert api.get("/api/v1/rulesets").get_json()["build"]["build_id"] == resp.headers["X-Rulekb-Build"]


@pytest.mark.parametrize("header", ["If-None-Match", "If-Modified-Since"])
def test_conditional_get_answers_304(api: CheckedClient, header: str) -> None:
    first = api.get(f"{R}/rules/337.1a")
    value = first.headers["ETag"] if header == "If-None-Match" else first.headers["Last-Modified"]
    again = api.get(f"{R}/rules/337.1a", headers={header: value})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == first.headers["ETag"]


def test_etags_differ_between_answers(api: CheckedClient) -> None:
    a = api.get(f"{R}/rules/337.1a").headers["ETag"]
    b = api.get(f"{R}/rules/337.1b").headers["ETag"]
    c = api.get(f"{R}/rules/337.1a?subrules=true").headers["ETag"]
    assert len({a, b, c}) == 3
    stale = api.get(f"{R}/rules/337.1b", headers={"If-None-Match": a})
    assert stale.status_code == 200


def test_errors_are_not_cached(api: CheckedClient) -> None:
    resp = api.get(f"{R}/rules/337.9")
    assert "ETag" not in resp.headers


def test_cors_is_open_for_get(api: CheckedClient) -> None:
    resp = api.get(f"{R}/rules/337.1a", headers={"Origin": "https://example.org"})
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in resp.headers
    assert "X-Rulekb-Edition" in resp.headers["Access-Control-Expose-Headers"]
    assert api.get(f"{R}/rules/337.9").headers["Access-Control-Allow-Origin"] == "*"
    pre = api.open("OPTIONS", f"{R}/rules/337.1a", headers={
        "Origin": "https://example.org", "Access-Control-Request-Method": "GET"})
    assert pre.status_code == 200 and "GET" in pre.headers["Access-Control-Allow-Methods"]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
def test_wrong_method_is_405_with_allow(api: CheckedClient, method: str) -> None:
    resp = api.open(method, f"{R}/rules/337.1a")
    assert resp.status_code == 405
    assert "GET" in resp.headers["Allow"]
    assert resp.get_json()["error"]["detail"]["allowed"] == ["GET", "HEAD", "OPTIONS"]


def test_head_has_no_body(api: CheckedClient) -> None:
    resp = api.open("HEAD", f"{R}/rules/337.1a")
    assert resp.status_code == 200 and resp.data == b"" and resp.headers["ETag"]


def test_a_bug_answers_500_in_the_error_shape(excerpt_kb: KnowledgeBase,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("secret internals")
    app = create_app(kb=excerpt_kb)
    monkeypatch.setattr(KnowledgeBase, "structure", broken)
    resp = app.test_client().get(f"{R}/structure")
    assert resp.status_code == 500 and resp.mimetype == "application/json"
    assert resp.get_json()["error"]["detail"] == {"exception": "RuntimeError"}
    assert b"secret" not in resp.data and b"Traceback" not in resp.data


def test_site_paths_keep_their_own_errors(api: CheckedClient) -> None:
    """The API's handlers answer only under /api: the site's pages stay HTML."""
    resp = api.client.get("/no/such/page/at/all")
    assert resp.status_code in (404, 308) and resp.mimetype != "application/json"


@pytest.mark.parametrize("host,port,base", [
    ("127.0.0.1", 8031, "http://127.0.0.1:8031"),
    ("0.0.0.0", 8080, "http://0.0.0.0:8080"),
    ("::1", 8031, "http://[::1]:8031"),
])
def test_the_api_pages_examples_start_where_serve_listens(excerpt_kb: KnowledgeBase, host: str, port: int,
                                                          base: str) -> None:
    assert listening_url(host, port) == base
    app = create_app(kb=excerpt_kb, config={"RULEKB_LISTENING": listening_url(host, port)})
    html = app.test_client().get("/api").get_data(as_text=True)
    assert f"{base}/api/v1/" in html and "127.0.0.1:8000" not in html


def test_api_page_lists_every_operation(api: CheckedClient) -> None:
    resp = api.client.get("/api")
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    html = resp.get_data(as_text=True)
    for ep in ENDPOINTS.values():
        if not ep.hidden:
            assert ep.path in html, ep.path
            for example in ep.examples:
                assert escape(example, quote=False) in html
    # Nothing from other hosts: the only absolute URLs are the curl examples' placeholder
    # (no public URL is configured), the only links the page's own stylesheet and icon.
    assert "http://" not in html.replace("http://127.0.0.1:8000/api/", "")
    assert "https://" not in html and "<script" not in html
    assert html.count("<link") == 2 and '<link rel="stylesheet" href="/static/api.css">' in html
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    assert "`" not in html, "descriptions are rendered, not shown as Markdown"


def test_every_example_link_of_the_api_page_answers_2xx_on_the_default_build(api: CheckedClient) -> None:
    """The links the /api page shows, as a reader clicks them on a fresh clone's build."""
    page = api.client.get("/api").get_data(as_text=True)
    links = [unescape(u) for u in re.findall(r'<p>Example: <a href="([^"]+)">', page)]
    shown = [e for ep in ENDPOINTS.values() if ep.method == "GET" and not ep.hidden for e in ep.examples]
    assert sorted(links) == sorted(shown) and len(links) >= 19
    failing = [(url, resp.status_code, resp.get_data(as_text=True)[:200])
               for url in links if not 200 <= (resp := api.get(url)).status_code < 300]
    assert failing == []


def test_hello_exists_only_when_asked(excerpt_kb: KnowledgeBase) -> None:
    assert create_app(kb=excerpt_kb).test_client().get("/api/_hello").status_code == 404
    hello = create_app(kb=excerpt_kb, config={"RULEKB_API_HELLO": True}).test_client()
    assert hello.get("/api/_hello").data == b"hello"


# -- POST operations ------------------------------------------------------------------------
LOOKUP, ANNOTATE = "/api/v1/citations/lookup", "/api/v1/citations/annotate"
NEXT, RUN = "/api/v1/timing/next", "/api/v1/timing/run"
JSON = "application/json"

# (url, status, body as text, content type, dotted path into the answer, expected value)
POST_CASES: list[tuple[str, int, str, str, str, Any]] = [
    (LOOKUP, 200, '{"text": "See rule 337.1a."}', JSON, "citations.0.number", "337.1.a"),
    (LOOKUP, 200, '{"text": "See rule 337.1a.", "base_url": ""}', JSON,
     "citations.0.url", "/riftbound/1.4/337.1.a"),
    # Without a base_url or a configured public URL, links are relative: never the Host header.
    (LOOKUP, 200, '{"text": "See rule 337.1a."}', JSON, "citations.0.url",
     "/riftbound/1.4/337.1.a"),
    (LOOKUP, 200, '{"text": "rule 337.9", "ruleset": "riftbound"}', JSON,
     "citations.0.status", "not_found"),
    (LOOKUP, 200, '{"text": "no citations here"}', JSON, "summary.total", 0),
    (LOOKUP, 200, '{"text": "rule 337.1a"}', "application/vnd.api+json", "summary.ok", 1),
    (LOOKUP, 404, '{"text": "rule 337.1a", "ruleset": "nonesuch"}', JSON, "error.status", 404),
    (LOOKUP, 404, '{"text": "rule 337.1a", "ruleset": "riftbound", "edition": "0.1"}', JSON,
     "error.detail.editions.1", "1.4"),
    (LOOKUP, 415, '{"text": "rule 337.1a"}', "text/plain", "error.detail.content_type", "text/plain"),
    (LOOKUP, 415, '{"text": "rule 337.1a"}', "", "error.status", 415),
    (LOOKUP, 400, '{"text": ', JSON, "error.detail.line", 1),
    (LOOKUP, 400, "\xff\xfe", JSON, "error.status", 400),
    (LOOKUP, 422, "[" * 100_000, JSON, "error.detail.limit", "input.nesting"),
    (LOOKUP, 422, "[]", JSON, "error.detail.errors.0.path", "/"),
    (LOOKUP, 422, "{}", JSON, "error.detail.errors.0.message", "'text' is a required property"),
    (LOOKUP, 422, '{"text": 3}', JSON, "error.detail.errors.0.path", "/text"),
    (LOOKUP, 422, '{"text": "x", "rulset": "mtg"}', JSON, "error.status", 422),
    (LOOKUP, 422, '{"text": "x", "ruleset": "Not a name"}', JSON,
     "error.detail.errors.0.path", "/ruleset"),
    (ANNOTATE, 200, '{"markdown": "See rule 337.1a."}', JSON, "footnotes.0.number", "337.1.a"),
    (ANNOTATE, 200, '{"markdown": "See rule 337.1a.", "format": "markdown", "base_url": ""}', JSON,
     "citations.0.url", "/riftbound/1.4/337.1.a"),
    (ANNOTATE, 200, '{"markdown": "See rule 337.1a.", "format": "json"}', JSON, "output", None),
    (ANNOTATE, 200, '{"markdown": "---\\nedition: \\"1.4\\"\\n---\\nrule 337.1a"}', JSON,
     "front_matter.edition", "1.4"),
    (ANNOTATE, 422, '{"markdown": "x", "style": "endnotes"}', JSON,
     "error.detail.errors.0.path", "/style"),
    (ANNOTATE, 422, '{"text": "x"}', JSON, "error.status", 422),
    (NEXT, 200, '{"players": ["Ann", "Bo"]}', JSON, "decision.decider", "Ann"),
    (NEXT, 200, '{"players": ["Ann", "Bo"], "turn_state": "neutral-closed", "priority": "Ann", '
                '"chain": [{"name": "Bolt", "controller": "Ann", "status": "pending"}]}', JSON,
     "steps.0.event", "finalize"),
    (NEXT + "?edition=1.4&ruleset=riftbound", 200, '{"players": ["Ann", "Bo"]}', JSON, "edition", "1.4"),
    (NEXT, 400, '{"players": ["Ann"]}', JSON, "error.detail.field", "players"),
    (NEXT, 422, '{"players": ["Ann", "Bo"], "priority": ["Ann", "Bo"]}', JSON,
     "error.detail.violations.0.field", "priority"),
    (NEXT, 422, '["Ann", "Bo"]', JSON, "error.detail.errors.0.path", "/"),
    (NEXT, 404, '{"players": ["Ann", "Bo"], "ruleset": "riftbound-tournament"}', JSON, "error.detail.field", "ruleset"),
    (NEXT + "?edition=1.3", 200, '{"players": ["Ann", "Bo"]}', JSON, "edition", "1.3"),  # carried from 1.4
    (NEXT + "?depth=1", 400, '{"players": ["Ann", "Bo"]}', JSON, "error.detail.parameter", "depth"),
    (NEXT, 415, '{"players": ["Ann", "Bo"]}', "application/x-www-form-urlencoded", "error.status", 415),
    # choose: take a legal option (its action, as the options list it) and answer what follows it.
    (NEXT, 200, '{"players": ["Ann", "Bo"], "priority": "Ann", "chain": [{"name": "Bolt", "controller": "Ann", '
                '"status": "finalized"}], "choose": {"pass": "Ann"}}', JSON, "chosen.transition", "pass-priority"),
    (NEXT, 200, '{"players": ["Ann", "Bo"], "priority": "Ann", "chain": [{"name": "Bolt", "controller": "Ann", '
                '"status": "finalized"}], "choose": {"pass": "Ann"}}', JSON, "decision.decider", "Bo"),
    (NEXT + "?ruleset=mtg", 200, '{"players": ["Ann", "Bo"], "priority": "Ann", "choose": {"pass": "Ann"}}', JSON,
     "chosen.player", "Ann"),
    (NEXT, 422, '{"players": ["Ann", "Bo"], "choose": {"pass": "Bo"}}', JSON, "error.detail.field", "choose"),
    (NEXT, 422, '{"players": ["Ann", "Bo"], "choose": "pass"}', JSON, "error.detail.errors.0.path", "/choose"),
    (RUN, 200, json.dumps(EXAMPLE_SCENARIO), JSON, "ok", True),
    (RUN, 200, json.dumps({**EXAMPLE_SCENARIO, "steps": [{"expect": {"priority": "Bo"}}]}), JSON,
     "expectations.0.failed.0", "priority"),
    (RUN, 200, json.dumps({**EXAMPLE_SCENARIO, "steps": [{"pass": "Bo"}]}), JSON,
     "error.type", "illegal-step"),
    (RUN, 422, json.dumps({**EXAMPLE_SCENARIO, "steps": [{"bogus": 1}]}), JSON,
     "error.detail.field", "bogus"),
    (RUN, 422, json.dumps({**EXAMPLE_SCENARIO, "steps": []}), JSON, "error.detail.errors.0.path", "/steps"),
    (RUN, 422, '{"name": "x"}', JSON, "error.status", 422),
]


@pytest.mark.parametrize(("url", "status", "body", "ctype", "where", "expected"), POST_CASES)
def test_post_operation(api: CheckedClient, url: str, status: int, body: str, ctype: str,
                        where: str, expected: Any) -> None:
    data = body.encode("latin-1") if body.startswith("\xff") else body.encode()
    headers = {"Content-Type": ctype} if ctype else {}
    resp = api.post(url, data=data, headers=headers)
    assert resp.status_code == status, resp.get_json()
    assert dig(resp.get_json(), where) == expected


def test_post_answers_are_not_cached_or_shared_cross_origin(api: CheckedClient) -> None:
    resp = api.post(LOOKUP, json={"text": "rule 337.1a", "ruleset": "riftbound"},
                    headers={"Origin": "https://example.org"})
    assert resp.status_code == 200 and resp.headers["X-Rulekb-Edition"] == "riftbound 1.4"
    assert "ETag" not in resp.headers and "Access-Control-Allow-Origin" not in resp.headers


def test_oversized_body_is_413(excerpt_kb: KnowledgeBase) -> None:
    client = CheckedClient(create_app(kb=excerpt_kb, config={"MAX_CONTENT_LENGTH": 1000}))
    resp = client.post(LOOKUP, json={"text": "rule 337.1a " * 200})
    assert resp.status_code == 413
    error = resp.get_json()["error"]
    assert error["detail"] == {"max_bytes": 1000, "limit": "request.bytes"}
    assert error["message"] == "over the limit request.bytes: size of a request body (at most 1,000 bytes)"


def test_post_examples_of_the_api_page_answer_200(api: CheckedClient) -> None:
    for ep in ENDPOINTS.values():
        if ep.method == "POST":
            for url in ep.examples:
                assert api.post(url, json=ep.example_body).status_code == 200, url


# -- the real corpora ---------------------------------------------------------------------------

FULL_CASES = [
    ("/api/v1/rulesets/mtg/rules/117.3d", 200, "number", "117.3d"),
    ("/api/v1/rulesets/mtg/rules/CR%20117.3D", 200, "number", "117.3d"),
    ("/api/v1/rulesets/mtg/rules/116.3d", 404, "error.detail.nearest.0", "117.3d"),  # 2010's 116.3d
    ("/api/v1/rulesets/mtg/rules/116.3d?edition=2010-10-01", 200, "edition", "2010-10-01"),
    ("/api/v1/rulesets/mtg/rules/116.3d?date=2020-01-01", 200, "edition", "2010-10-01"),
    ("/api/v1/rulesets/riftbound/rules/101?date=2026-01-01", 200, "edition", "1.2"),
    ("/api/v1/rulesets/riftbound/rules/101?date=2025-01-01", 404, "error.status", 404),
    ("/api/v1/rulesets/riftbound/rules/101?date=2026-01-01&edition=1.2", 200, "edition", "1.2"),
    ("/api/v1/rulesets/riftbound/rules/101?date=2026-01-01&edition=1.4", 404,
     "error.detail.in_force", "1.2"),
    ("/api/v1/rulesets/riftbound/editions", 200, "newest", "1.4"),
    ("/api/v1/rulesets/riftbound/editions", 200, "editions.0.edition", "1.0"),
    ("/api/v1/rulesets/riftbound-tournament/editions", 200, "newest", "2026-05-02"),
    ("/api/v1/rulesets/mtg/graph/601.2?depth=1", 200, "center", "601.2"),
    ("/api/v1/rulesets/mtg/terms/flying", 200, "key", "flying"),
    ("/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4", 200, "to.edition", "1.4"),
    ("/api/v1/rulesets/riftbound/diff?from=2026-04-01&to=2026-08-01", 200, "from.edition", "1.3"),
    ("/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&only=added&limit=2", 200, "entries.1.status", "added"),
    ("/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&limit=1&offset=1", 200, "offset", 1),
    ("/api/v1/rulesets/riftbound/rules/337.1.a/map?from=1.4&to=1.3", 200, "target", "337.1.a"),
    ("/api/v1/rulesets/riftbound/rules/337.1.a/history", 200, "editions.3.edition", "1.4"),
]


@pytest.mark.corpora
@pytest.mark.parametrize(("url", "status", "where", "expected"), FULL_CASES)
def test_operation_on_the_real_corpora(full_api: CheckedClient, url: str, status: int,
                                       where: str, expected: Any) -> None:
    resp = full_api.get(url)
    assert resp.status_code == status, resp.get_json()
    assert dig(resp.get_json(), where) == expected


@pytest.mark.corpora
def test_diff_pages_and_names_both_editions(full_api: CheckedClient) -> None:
    url = "/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&only=added,removed,changed,moved"
    whole = full_api.get(url + "&limit=1000")
    assert whole.headers["X-Rulekb-Edition"] == "riftbound 1.3, riftbound 1.4"
    data = whole.get_json()
    assert data["total"] >= len(data["entries"]) > 10
    assert {e["status"] for e in data["entries"]} <= {"added", "removed", "changed", "moved"}
    page = full_api.get(url + "&limit=5&offset=5").get_json()
    assert page["entries"] == data["entries"][5:10] and page["total"] == data["total"]


@pytest.mark.corpora
def test_every_real_edition_answers_its_structure(full_api: CheckedClient) -> None:
    for rs in full_api.get("/api/v1/rulesets").get_json()["rulesets"]:
        for ed in rs["editions"]:
            resp = full_api.get(f"/api/v1/rulesets/{rs['name']}/structure?edition={ed}")
            assert resp.status_code == 200 and len(resp.get_json()["nodes"]) > 100

