"""The rules browser in a real browser (headless chromium) against a live server.

Each test also asserts that the page logged no console error, threw nothing and loaded
no resource that failed. Screenshots at 390 px and 1280 px go to tests/browser/screenshots/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import LiveServer, PageWatch, screenshot

SCENARIO = "000-your-own-spell-starts-the-chain"


@pytest.fixture(autouse=True)
def _clean_console(page: PageWatch) -> Any:
    yield
    assert page.problems == [], page.problems


def test_contents_to_a_rule_and_back(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/riftbound/1.4/")
    screenshot(page, "contents")
    page.get_by_role("link", name=re.compile(r"^337 Step 1: Finalize")).click()
    page.wait_for_url("**/riftbound/1.4/337")
    assert page.locator("h1").inner_text() == "337. Step 1: Finalize"
    page.get_by_role("link", name=re.compile(r"^337\.1$")).first.click()
    page.wait_for_url("**/riftbound/1.4/337.1")
    screenshot(page, "rule")
    page.go_back()
    page.wait_for_url("**/riftbound/1.4/337")
    page.locator("nav.crumbs").get_by_role("link", name=re.compile("1.4")).click()
    page.wait_for_url("**/riftbound/1.4/")
    assert page.locator("ul.toc").is_visible()


def test_search_finds_337_4(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/")
    screenshot(page, "home")
    box = page.get_by_role("searchbox", name="Search the rules").first
    box.fill("controller of the next item gains priority")
    box.press("Enter")
    page.wait_for_url("**/search?**")
    screenshot(page, "search")
    first = page.locator("ol.results > li").first
    assert first.locator(".num").inner_text() == "337.4"
    assert first.locator("mark").count() >= 3
    first.locator("a.hit-title").click()
    page.wait_for_url("**/riftbound/1.4/337.4")
    assert "controller of the next item on the chain gains Priority" in page.locator(".rules").inner_text()


def test_term_tooltip_by_hover_keyboard_and_tap(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/riftbound/1.4/337.1.a")
    term = page.locator("a.term").first
    name = term.inner_text()
    term.hover()
    tip = page.locator(".tooltip[role=tooltip]")
    tip.wait_for(state="visible")
    assert name.lower().rstrip("s") in tip.inner_text().lower()
    screenshot(page, "tooltip")
    page.mouse.move(0, 0)
    tip.wait_for(state="detached")
    term.focus()                                   # keyboard
    tip.wait_for(state="visible")
    page.keyboard.press("Escape")
    tip.wait_for(state="detached")
    term.click()                                   # a tap shows it instead of jumping away
    tip.wait_for(state="visible")
    assert page.url.endswith("/riftbound/1.4/337.1.a")


def test_reference_link(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/riftbound/1.4/337.1")
    page.locator("a.ref", has_text="349").first.click()
    page.wait_for_url("**/riftbound/1.4/349")
    assert page.locator("h1").inner_text().startswith("349")
    assert page.locator("#refby-h + ul").get_by_role("link", name=re.compile(r"^337\.1\b")).count() == 1


def test_edition_switcher(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/testgame/2/101.1")
    switch = page.get_by_role("navigation", name="Editions of this rule")
    assert switch.locator("[aria-current=page]").inner_text() == "2"
    switch.get_by_role("link", name=re.compile(r"^1")).click()
    page.wait_for_url("**/testgame/1/101.1")
    assert "Priority is the right to act." in page.locator(".rules").inner_text()
    switch = page.get_by_role("navigation", name="Editions of this rule")
    assert switch.locator("[aria-current=page]").inner_text() == "1"


def test_stepping_through_a_timing_scenario(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + f"/timing?scenario={SCENARIO}")
    assert "Frame 1 of" in page.locator(".stepper").inner_text()
    page.get_by_role("link", name="Next →").click()
    page.wait_for_url("**frame=2")
    assert "Ann plays Fireball." in page.locator(".frame-title").inner_text()
    assert page.locator(".chain li").count() == 1
    page.keyboard.press("ArrowRight")               # the script's keyboard stepping
    page.wait_for_url("**frame=3")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**frame=2")
    assert page.locator("svg.timing .tm-state.on").count() == 2
    screenshot(page, "timing")
    page.keyboard.press("End")
    page.wait_for_url(re.compile(r"frame=\d+$"))
    assert page.locator(".stepper [data-step=next]").count() == 0


def test_pasted_scenario_steps_by_posting(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/timing")
    page.locator("#yaml").fill("name: Pasted\nruleset: riftbound\nedition: '1.4'\nplayers: [Ann, Bo]\n"
                               "cards:\n  Fireball: {type: spell, effects: [{draw: 1}]}\n"
                               "steps:\n  - play: {player: Ann, card: Fireball}\n  - pass: Ann\n")
    page.get_by_role("button", name="Run and step through").click()
    page.wait_for_selector(".stepper")
    page.keyboard.press("ArrowRight")
    page.locator(".stepper .pos", has_text="Frame 2 of").wait_for()


def test_citation_linker(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/cite")
    page.get_by_role("button", name="Link citations").click()
    page.wait_for_selector("table.report")
    screenshot(page, "linker")
    assert page.locator(".article-out a.rule-citation").count() >= 3
    page.locator(".article-out a.rule-citation", has_text="337.1.a").first.click()
    page.wait_for_url("**/riftbound/1.4/337.1.a")


HOSTILE = ["/testgame/2/101", "/testgame/2/101.2", "/testgame/2/101.2.a", "/testgame/2/glossary",
           "/testgame/compare/1/2", "/search?q=%3Cscript%3Ewindow.__pwned%3D1%3C/script%3E&ruleset=testgame"]


def test_script_in_rule_text_is_inert(page: PageWatch, live_server: LiveServer) -> None:
    for path in HOSTILE:
        page.goto(live_server.url + path)
        assert page.evaluate("typeof window.__pwned") == "undefined", path
    page.goto(live_server.url + "/testgame/2/101.2")
    assert "<script>window.__pwned = 'text'</script>" in page.locator(".rules").inner_text()
    page.locator("a.term").first.hover()                     # a hostile term name in a tooltip
    page.goto(live_server.url + "/testgame/2/101.2.a")
    page.locator("a.term").first.hover()
    page.locator(".tooltip").wait_for(state="visible")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    screenshot(page, "hostile")


def test_pages_fit_a_phone(page: PageWatch, live_server: LiveServer) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    for path in ["/", "/riftbound/1.4/", "/riftbound/1.4/337.1", "/riftbound/1.4/glossary",
                 f"/timing?scenario={SCENARIO}&frame=3", "/cite", "/search?q=focus&ruleset=riftbound",
                 "/testgame/compare/1/2", "/api", "/rulings/", "/offline"]:
        page.goto(live_server.url + path)
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, (path, overflow)
    page.goto(live_server.url + "/testgame/compare/1/2")  # a wide table scrolls; its name stays in view
    assert page.evaluate("document.getElementById('counts-caption').getBoundingClientRect().right") <= 390
    page.goto(live_server.url + "/riftbound/1.4/glossary")
    screenshot(page, "glossary")


def test_copy_link_and_citation(page: PageWatch, live_server: LiveServer, browser_context: Any) -> None:
    browser_context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto(live_server.url + "/riftbound/1.4/337.4#337.4")
    page.get_by_role("button", name="Copy citation").click()
    page.locator(".copied", has_text="Copied").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == "Riftbound Core Rules 1.4 (2026-07-16), rule 337.4"
    page.get_by_role("button", name="Copy link").click()
    assert page.evaluate("navigator.clipboard.readText()") == live_server.url + "/riftbound/1.4/337.4"
