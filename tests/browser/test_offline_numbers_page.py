"""The offline pack's search page answers rule numbers typed as judges type them as the
server's page does: a range or list lists its rules in order, a number the edition lacks is
said with its nearest numbers (each a link to its rule's page) and no second "Did you mean".
Opened from file:// in headless chromium with the network off. One case per line."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

from kb.query import KnowledgeBase
from web.export import ExportResult

from .conftest import PageWatch

pytestmark = pytest.mark.browser

# (typed): a range or list, listed as the server lists it
LISTED = ["337-340", "337.1a and 337.4", "337.1a; 337.4"]
# (typed): a number riftbound 1.4 lacks, or one typed with its dots misplaced
MISSING = ["337.9", "3.3.7.1.a", "3371a"]


def _open(page: PageWatch, exported_site: ExportResult, typed: str) -> None:
    page.route(re.compile(r"^https?://"), lambda route: route.abort())
    url = (exported_site.folder / "search.html").resolve().as_uri()
    page.goto(f"{url}?q={quote(typed)}&ruleset=riftbound&edition=1.4")


@pytest.mark.parametrize("typed", LISTED)
def test_a_range_or_list_lists_its_rules(exported_site: ExportResult, site_kb: KnowledgeBase, page: PageWatch,
                                         browser_context: Any, typed: str) -> None:
    _open(page, exported_site, typed)
    page.locator("ol.results > li").first.wait_for()
    server = site_kb.search(typed, "riftbound", "1.4", limit=20, rulings=False)
    shown = [t.strip() for t in page.locator("ol.results > li .num").all_inner_texts()]
    assert shown == [h["number"] for h in server["results"]] and len(shown) >= 2
    assert page.problems == []


@pytest.mark.parametrize("typed", MISSING)
def test_a_missing_number_is_said_with_its_nearest(exported_site: ExportResult, site_kb: KnowledgeBase,
                                                   page: PageWatch, browser_context: Any, typed: str) -> None:
    _open(page, exported_site, typed)
    said = page.locator("p.no-such-rule")
    said.wait_for()
    missing = site_kb.search(typed, "riftbound", "1.4", rulings=False)["no_such_rule"]
    text = said.inner_text()
    assert text.startswith(f"No rule {missing['number']} in ") and "the nearest: " in text
    assert [a.strip() for a in said.locator("a").all_inner_texts()] == missing["nearest"]
    hrefs = [a.get_attribute("href") or "" for a in said.locator("a").all()]
    assert [h for h in hrefs if not (exported_site.folder / h.split("#")[0]).is_file()] == [], hrefs
    assert page.locator("p.didyoumean:not(.no-such-rule)").count() == 0
    assert page.problems == []
