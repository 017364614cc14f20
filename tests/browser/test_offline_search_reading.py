"""The offline pack's search page says what the server's page says about a question: how it
was read ("Read as", "Left out as names"), each hit's reasons ("matched: …"), and it keeps
its note on what the pack leaves out (card knowledge) once a query has run. Opened
from file:// in headless chromium with the network off. One case per line."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest

from kb.query import KnowledgeBase
from web.export import ExportResult

from .conftest import PageWatch

pytestmark = pytest.mark.browser

# (question, the names the page says were left out; the rest is compared with the server's answer)
QUESTIONS = [
    ("can I play Veiled Ambusher during a showdown", ["Veiled Ambusher"]),
    ("who acts first in a showdown", []),
    ("the stack", []),
]


def _texts(page: PageWatch, selector: str) -> list[str]:
    return [t.strip() for t in page.locator(selector).all_inner_texts()]


@pytest.mark.parametrize("question, names", QUESTIONS)
def test_the_offline_page_says_how_a_question_was_read_and_why_each_hit(
        exported_site: ExportResult, site_kb: KnowledgeBase, page: PageWatch, browser_context: Any,
        question: str, names: list[str]) -> None:
    page.route(re.compile(r"^https?://"), lambda route: route.abort())
    url = (exported_site.folder / "search.html").resolve().as_uri()
    page.goto(f"{url}?q={quote(question)}&ruleset=riftbound&edition=1.4")
    page.locator("ol.results > li").first.wait_for()
    # the server's answer with its rulings, which the pack carries (kb.export.rulings)
    server = site_kb.search(question, "riftbound", "1.4", limit=20)
    understood = server["understood"]
    read = _texts(page, "p.understood")
    assert f"Read as: {', '.join(understood['concepts'])}" in read, read
    named = [t for t in read if t.startswith("Left out as names")]
    assert understood["names"] == names
    if names:
        assert len(named) == 1 and ", ".join(names) in named[0], read
        assert "server" in named[0]  # a name may be a card only the server knows
    else:
        assert named == [], read
    matched = _texts(page, "ol.results > li p.matched")
    assert matched == [f"matched: {', '.join(h['matched'])}" for h in server["results"] if h["matched"]]
    assert matched  # each hit's reasons are shown
    note = page.locator("p.offline-leaves-out")
    assert note.is_visible() and "card knowledge" in note.inner_text()
    assert page.problems == []
