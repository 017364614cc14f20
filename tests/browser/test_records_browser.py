"""Rulings and articles in a real browser: the pages fit a phone, the stale banner names
the rule that changed and links it, and no page logs an error."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import LiveServer, PageWatch, screenshot

SAMPLE = "riftbound-who-acts-after-finalizing"  # rules/records/rulings/


@pytest.fixture(autouse=True)
def _clean_console(page: PageWatch) -> Any:
    yield
    assert page.problems == [], page.problems


@pytest.mark.parametrize("width", [390, 1280])
def test_record_pages_fit_the_screen(page: PageWatch, live_server: LiveServer, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    for path in ["/rulings/", f"/rulings/{SAMPLE}", "/articles/mtg-passing-priority",
                 "/riftbound/1.4/337.4", "/rulings/?q=who+may+act+after+finalizing"]:
        page.goto(live_server.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (path, overflow)
    page.goto(live_server.url + f"/rulings/{SAMPLE}")
    screenshot(page, f"ruling-{width}")


def test_the_banner_leads_to_the_rule_as_numbered_today(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + f"/rulings/{SAMPLE}")
    banner = page.locator(".stale-banner")
    assert "rule 337.1.c.3 is now rule 337.4" in " ".join(banner.inner_text().split())
    banner.get_by_role("link", name="rule 337.4").click()
    page.wait_for_url("**/riftbound/1.4/337.4")
    assert "Cited by" in page.locator("aside").inner_text()


# (question asked on the search page, phone width): the rulings it finds never push the
# first rule result below the first screen.
FIRST_SCREEN = [
    ("who may act after finalizing", 375),
    ("who may act after finalizing a chain item", 375),
    ("everything on the chain has been finalized and nothing is pending who may act next", 375),
]


@pytest.mark.parametrize("question,width", FIRST_SCREEN)
def test_the_first_rule_result_is_on_a_phones_first_screen(page: PageWatch, live_server: LiveServer,
                                                            question: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 667})
    page.goto(live_server.url + "/search?ruleset=riftbound&q=" + question.replace(" ", "+"))
    assert page.locator("#rulings-h").count() == 1, "the question finds the sample ruling"
    first = page.locator("ol.results > li").first.locator(".hit-title").bounding_box()
    assert first is not None and first["y"] + first["height"] <= 667, first
    screenshot(page, f"search-rulings-{width}")
