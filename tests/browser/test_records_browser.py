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
