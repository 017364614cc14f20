"""The offline pack's search page says a range of rule numbers past the edition's rules, or
written high to low, as the server's page does: the same sentence (what was read, what it
was clamped to) and the same rules on its first page. Opened from file:// in headless
chromium with the network off. One case per line."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

from kb.query import KnowledgeBase
from web.export import ExportResult
from web.site.pages import PAGE_SIZE

from .conftest import PageWatch

pytestmark = pytest.mark.browser

# (typed): a range the server's answer says it clamped or read low to high
CLAMPED = ["1-9999", "9999-1", "1-1000000", "10000-9999", "340-337", "337.1-99"]


@pytest.mark.parametrize("typed", CLAMPED)
def test_the_offline_page_says_the_clamp_as_the_server(exported_site: ExportResult, site_kb: KnowledgeBase,
                                                       page: PageWatch, browser_context: Any, typed: str) -> None:
    page.route(re.compile(r"^https?://"), lambda route: route.abort())
    url = (exported_site.folder / "search.html").resolve().as_uri()
    page.goto(f"{url}?q={quote(typed)}&ruleset=riftbound&edition=1.4")
    said = page.locator("p.meta.clamped")
    said.wait_for()
    server = site_kb.search(typed, "riftbound", "1.4", limit=PAGE_SIZE)
    assert server["clamped"] is not None and said.inner_text().strip() == server["clamped"]["message"]
    shown = [t.strip() for t in page.locator("ol.results > li .num").all_inner_texts()]
    assert shown == [h["number"] for h in server["results"]]
    assert page.problems == []
