"""The change feeds a page links (web/site/feeds.py) are offered only for a rule some
edition holds: the page saying there is no rule 9999.9 links no feed of it (the feed would
answer 404), while a rule the newest edition removed keeps its feed, for it has a history;
so does a comparison limited to a chapter no edition has. Every feed a page links answers."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app

RULESET_FEED = "/api/v1/rulesets/{rs}/changes.atom"
RULE_FEED = "/api/v1/rulesets/{rs}/rules/{n}/changes.atom"
SECTION_FEED = "/api/v1/rulesets/{rs}/changes.atom?section={n}"

# (page, its status, the feeds it links, most specific first)
PAGES = [
    # numbers no edition has: no feed of the number, the ruleset's feed kept
    ("/riftbound/1.4/9999.9", 404, [RULESET_FEED.format(rs="riftbound")]),
    ("/riftbound/1.4/999.9", 404, [RULESET_FEED.format(rs="riftbound")]),
    ("/riftbound/1.4/999", 404, [RULESET_FEED.format(rs="riftbound")]),  # nor a section's
    ("/riftbound/9999.9", 404, [RULESET_FEED.format(rs="riftbound")]),
    ("/mtg/2026-01-16/999.9z", 404, [RULESET_FEED.format(rs="mtg")]),
    ("/riftbound/compare/1.3/1.4?chapter=999", 404, [RULESET_FEED.format(rs="riftbound")]),
    # removed in the newest edition (held by the one before): the feed is its history
    ("/riftbound/1.4/461.2", 404, [RULE_FEED.format(rs="riftbound", n="461.2"),
                                   RULESET_FEED.format(rs="riftbound")]),
    ("/mtg/2026-01-16/509.6", 404, [RULE_FEED.format(rs="mtg", n="509.6"), RULESET_FEED.format(rs="mtg")]),
    # renumbered: the old number's feed follows the rule under it
    ("/riftbound/1.4/142.3", 404, [RULE_FEED.format(rs="riftbound", n="142.3"),
                                   RULESET_FEED.format(rs="riftbound")]),
    # an edition the ruleset lacks, a rule its editions have
    ("/riftbound/9.9/337.2", 404, [RULE_FEED.format(rs="riftbound", n="337.2"),
                                   RULESET_FEED.format(rs="riftbound")]),
    # rules that exist, as before
    ("/riftbound/1.4/337.2", 200, [RULE_FEED.format(rs="riftbound", n="337.2"),
                                   RULESET_FEED.format(rs="riftbound")]),
    ("/riftbound/1.4/337", 200, [RULE_FEED.format(rs="riftbound", n="337"),
                                 SECTION_FEED.format(rs="riftbound", n="337"),
                                 RULESET_FEED.format(rs="riftbound")]),
    ("/riftbound/compare/1.3/1.4?chapter=300", 200, [SECTION_FEED.format(rs="riftbound", n="300"),
                                                     RULESET_FEED.format(rs="riftbound")]),
]

# Numbers the table takes as removed in the newest edition of the embedded excerpt.
REMOVED = [("riftbound", "1.3", "1.4", "461.2"), ("mtg", "2010-10-01", "2026-01-16", "509.6")]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


def _linked_feeds(page: str, html: str) -> list[str]:
    """The feeds in the page's head (``rel="alternate"``), as absolute paths."""
    head = html.split("</head>", 1)[0]
    hrefs = re.findall(r'<link rel="alternate" type="application/atom\+xml" title="[^"]*" href="([^"]+)"', head)
    base = "http://x" + page.split("?", 1)[0]
    return [urljoin(base, h.replace("&amp;", "&"))[len("http://x"):] for h in hrefs]


@pytest.mark.parametrize(("page", "status", "feeds"), PAGES)
def test_a_page_links_the_feeds_of_rules_that_exist(client: FlaskClient, page: str, status: int,
                                                    feeds: list[str]) -> None:
    resp = client.get(page)
    assert resp.status_code == status
    html = resp.get_data(as_text=True)
    assert _linked_feeds(page, html) == feeds
    footer = html.split('<p class="feeds">', 1)[-1].split("</p>", 1)[0]
    assert footer.count('type="application/atom+xml"') == len(feeds), "the footer links the same feeds"
    for feed in feeds:
        assert client.get(feed).status_code == 200, feed


@pytest.mark.parametrize(("page", "status", "feeds"), [row for row in PAGES if row[1] == 404])
def test_the_feed_left_out_is_one_that_would_not_answer(client: FlaskClient, page: str, status: int,
                                                        feeds: list[str]) -> None:
    """The missing number's own feed, had the page linked it, answers 404 (or 400: a number
    no ruleset writes): leaving it out is right, not a link merely lost."""
    ruleset, rest = page.strip("/").split("/", 1)
    number = rest.split("?")[0].rsplit("/", 1)[-1]
    chapter = re.search(r"chapter=([^&]+)", page)
    own = (SECTION_FEED.format(rs=ruleset, n=chapter.group(1)) if chapter
           else RULE_FEED.format(rs=ruleset, n=number))
    if own in feeds:
        return
    assert client.get(own).status_code in (400, 404), own


@pytest.mark.parametrize(("ruleset", "old", "new", "number"), REMOVED)
def test_the_removed_rules_of_the_table_are_removed(excerpt_kb: KnowledgeBase, ruleset: str, old: str,
                                                    new: str, number: str) -> None:
    """The table's premise: the older edition holds the number, the newest does not."""
    held = {s["number"] for s in excerpt_kb.structure(ruleset, old)}
    newest = {s["number"] for s in excerpt_kb.structure(ruleset, new)}
    assert number in held and number not in newest
    assert excerpt_kb.editions(ruleset)[-1]["edition"] == new
