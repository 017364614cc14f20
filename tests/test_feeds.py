"""Atom feeds of what changed between editions (kb/feeds.py, web/api/feeds.py).

On the embedded default (Riftbound 1.3 → 1.4, Magic 2010-10-01 → 2026-01-16, excerpts):
every feed is an Atom 1.0 document a reader accepts (RFC 4287's required elements), says
what changed with the edition diff's numbers, and lists nothing for a rule that did not
change; pages link the feeds that follow them.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from kb.editions.lineage import stored_changes
from kb.editions.queries import diff
from kb.errors import QueryError
from kb.feeds import ENTRY_CHANGES, Feed, FeedEntry, ops_html, render_atom
from kb.query import KnowledgeBase
from web import create_app

A = "{http://www.w3.org/2005/Atom}"
R = "/api/v1/rulesets/riftbound"


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


def atom(client: FlaskClient, url: str) -> ET.Element:
    """The feed at ``url``, checked against RFC 4287's required elements."""
    resp = client.get(url)
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml", resp.data[:300]
    root = ET.fromstring(resp.data)
    assert root.tag == f"{A}feed"
    for required in ("id", "title", "updated"):
        assert (root.findtext(f"{A}{required}") or "").strip(), required
    assert root.find(f"{A}link[@rel='self']") is not None
    # RFC 4287 4.1.1: an author on the feed, or on every entry
    feed_author = (root.findtext(f"{A}author/{A}name") or "").strip()
    ids = []
    for entry in root.findall(f"{A}entry"):
        for required in ("id", "title", "updated"):
            assert (entry.findtext(f"{A}{required}") or "").strip(), required
        assert entry.find(f"{A}link[@rel='alternate']").get("href")
        assert feed_author or (entry.findtext(f"{A}author/{A}name") or "").strip(), "author"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", entry.findtext(f"{A}updated"))
        ids.append(entry.findtext(f"{A}id"))
    assert len(ids) == len(set(ids)), "entry ids are unique"
    return root


def entries(root: ET.Element) -> list[dict[str, Any]]:
    return [{"id": e.findtext(f"{A}id"), "title": e.findtext(f"{A}title"),
             "summary": e.findtext(f"{A}summary") or "",
             "link": e.find(f"{A}link[@rel='alternate']").get("href")} for e in root.findall(f"{A}entry")]


def test_a_ruleset_feed_has_one_entry_per_step_between_editions(client: FlaskClient, excerpt_kb: KnowledgeBase) -> None:
    [entry] = entries(atom(client, f"{R}/changes.atom"))
    summary = excerpt_kb.diff("riftbound", "1.3", "1.4")["summary"]
    assert entry["id"] == "urn:rulekb:riftbound:changes:1.3:1.4"
    assert f"{summary['changed']} reworded" in entry["title"] and f"{summary['moved']} renumbered" in entry["title"]
    assert entry["link"] == "/riftbound/compare/1.3/1.4"
    shown = excerpt_kb.diff("riftbound", "1.3", "1.4", limit=ENTRY_CHANGES)["entries"]
    listed = re.findall(r"<li><strong>(?:<a [^>]+>)?([^<]+)", entry["summary"])
    assert listed == [e["new_number"] or e["old_number"] for e in shown], "the diff's changes, in its order"
    moved = next(e for e in shown if e["status"] == "moved")
    assert (f'<a href="/riftbound/1.4/{moved["new_number"]}">{moved["new_number"]}</a> '
            f'(was {moved["old_number"]})') in entry["summary"]
    assert "the whole comparison" in entry["summary"], "a long step links the rest"


def test_a_section_feed_lists_only_the_section(client: FlaskClient, excerpt_kb: KnowledgeBase) -> None:
    [entry] = entries(atom(client, f"{R}/changes.atom?section=100"))
    assert entry["title"].endswith(" in 100")
    numbers = re.findall(r'<a href="/riftbound/1\.4/([^"]+)">', entry["summary"])
    # Section 100 of 1.4 holds 201 "Costs" too (the document has no section 200).
    inside = set(excerpt_kb.edition("riftbound", "1.4").subtree("100"))
    assert numbers and set(numbers) <= inside
    whole = entries(atom(client, f"{R}/changes.atom"))[0]["summary"]
    outside = set(re.findall(r'<a href="/riftbound/1\.4/([^"]+)">', whole)) - inside
    assert outside and not outside & set(numbers), "the whole ruleset's feed lists rules the section's leaves out"


def test_a_rule_feed_follows_the_rule_under_its_old_number(client: FlaskClient) -> None:
    [entry] = entries(atom(client, f"{R}/rules/337.2/changes.atom"))
    assert entry["title"] == "337.2 renumbered from 337.1.c and reworded in 1.4"
    assert entry["link"] == "/riftbound/1.4/337.2"
    assert "<del>Units</del><ins>If</ins>" in entry["summary"]


def test_an_unchanged_rule_has_an_empty_feed(client: FlaskClient, excerpt_kb: KnowledgeBase) -> None:
    unchanged = next(e["new_number"] for e in excerpt_kb.diff("riftbound", "1.3", "1.4", only=["unchanged"])["entries"]
                     if e["kind"] == "rule")
    root = atom(client, f"{R}/rules/{unchanged}/changes.atom")
    assert entries(root) == []
    assert root.findtext(f"{A}updated") == "1970-01-01T00:00:00+00:00", "no change, no new date"


def test_magic_feeds_carry_the_2009_era_numbers_forward(client: FlaskClient) -> None:
    [entry] = entries(atom(client, "/api/v1/rulesets/mtg/rules/117.3d/changes.atom"))
    assert entry["title"].startswith("117.3d renumbered from 116.3d")


def test_a_feed_reader_polling_gets_304(client: FlaskClient) -> None:
    first = client.get(f"{R}/changes.atom")
    again = client.get(f"{R}/changes.atom", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    kept = client.get(f"{R}/changes.atom")  # a kept answer keeps its media type
    assert kept.mimetype == "application/atom+xml" and kept.data == first.data


@pytest.mark.parametrize(("url", "status"), [
    ("/api/v1/rulesets/nonesuch/changes.atom", 404),
    (f"{R}/changes.atom?section=999", 404),
    (f"{R}/changes.atom?section=%3Cx%3E", 400),
    (f"{R}/changes.atom?sectoin=300", 400),
    (f"{R}/rules/999.9/changes.atom", 404),
])
def test_a_bad_feed_address_answers_the_error_shape(client: FlaskClient, url: str, status: int) -> None:
    resp = client.get(url)
    assert resp.status_code == status and resp.mimetype == "application/json"
    assert set(resp.get_json()["error"]) == {"status", "message", "detail"}


@pytest.mark.parametrize(("page", "feeds"), [
    ("/riftbound/1.4/337.2", ["/api/v1/rulesets/riftbound/rules/337.2/changes.atom",
                              "/api/v1/rulesets/riftbound/changes.atom"]),
    ("/riftbound/1.4/337", ["/api/v1/rulesets/riftbound/rules/337/changes.atom",
                            "/api/v1/rulesets/riftbound/changes.atom?section=337",
                            "/api/v1/rulesets/riftbound/changes.atom"]),
    ("/riftbound/1.4/", ["/api/v1/rulesets/riftbound/changes.atom"]),
    ("/riftbound/compare/1.3/1.4?chapter=300", ["/api/v1/rulesets/riftbound/changes.atom?section=300",
                                                "/api/v1/rulesets/riftbound/changes.atom"]),
    ("/", []),
])
def test_pages_link_the_feeds_that_follow_them(client: FlaskClient, page: str, feeds: list[str]) -> None:
    html = client.get(page).get_data(as_text=True)
    head = html.split("</head>", 1)[0]
    hrefs = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="[^"]*" href="([^"]+)"', head)
    base = page.split("?", 1)[0]
    resolved = [_resolve(base, h) for h in hrefs]
    assert resolved == feeds
    for feed in feeds:  # and a visible link in the footer, to a feed that answers
        assert client.get(feed).status_code == 200


def _resolve(base: str, href: str) -> str:
    from urllib.parse import urljoin
    return urljoin("http://x" + base, href.replace("&amp;", "&"))[len("http://x"):]


@pytest.mark.parametrize(("ops", "html"), [
    (None, "a &lt;b&gt;"),
    ([{"op": "equal", "old": "a ", "new": "a "}, {"op": "replace", "old": "b", "new": "c"}], "a <del>b</del><ins>c</ins>"),
    ([{"op": "insert", "old": "", "new": "<x>"}], "<ins>&lt;x&gt;</ins>"),
    ([{"op": "delete", "old": "gone", "new": ""}], "<del>gone</del>"),
])
def test_word_changes_render_as_html(ops: Any, html: str) -> None:
    assert ops_html(ops, "a <b>") == html


def test_any_entries_render_as_atom() -> None:
    """The function the stale-rulings feed uses: entries newest first, escaped."""
    from datetime import datetime, timezone
    day = datetime(2026, 7, 16, tzinfo=timezone.utc)
    feed = Feed(id="urn:x", title="T & <t>", subtitle="s", link="/x",
                entries=(FeedEntry("urn:x:1", "one", day, "/1", "<p>a</p>"),))
    root = ET.fromstring(render_atom(feed, "/x.atom"))
    assert root.findtext(f"{A}title") == "T & <t>" and root.findtext(f"{A}updated").startswith("2026-07-16")
    assert root.find(f"{A}entry").findtext(f"{A}summary") == "<p>a</p>"


# ruleset, older edition, newer edition, the section (None: everything; 458 is 1.3's combat only)
STEPS = [
    ("riftbound", "1.3", "1.4", None),
    ("riftbound", "1.3", "1.4", "300"),
    ("riftbound", "1.3", "1.4", "337"),
    ("riftbound", "1.3", "1.4", "458"),
    ("mtg", "2010-10-01", "2026-01-16", None),
    ("mtg", "2010-10-01", "2026-01-16", "1"),
    ("mtg", "2010-10-01", "2026-01-16", "116"),
    ("mtg", "2010-10-01", "2026-01-16", "117"),
    ("mtg", "2010-10-01", "2026-01-16", "704"),
]


@pytest.mark.parametrize("ruleset,older,newer,section", STEPS)
def test_a_steps_stored_changes_are_what_its_diff_says(excerpt_kb: KnowledgeBase, ruleset: str, older: str,
                                                       newer: str, section: str | None) -> None:
    """A feed reads each step's changes as the build stored them (no graph loaded): the
    same entries, in the same order, as the diff between the two editions."""
    stored = stored_changes(excerpt_kb, ruleset, older, newer, section)
    assert stored is not None
    assert stored == diff(excerpt_kb, ruleset, older, newer, chapter=section)["entries"]


def test_a_section_neither_edition_has_is_404_from_the_stored_changes(excerpt_kb: KnowledgeBase) -> None:
    for changes in (lambda: stored_changes(excerpt_kb, "mtg", "2010-10-01", "2026-01-16", "999"),
                    lambda: diff(excerpt_kb, "mtg", "2010-10-01", "2026-01-16", chapter="999")):
        with pytest.raises(QueryError) as err:
            changes()
        assert err.value.status == 404
