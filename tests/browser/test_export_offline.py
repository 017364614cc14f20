"""The offline judge pack in a real browser (headless chromium), with the network off.

* The exported folder opened from ``file://``: navigate from the home page to a rule, search
  "focus passes" and jump to a rule by number (the search runs in the page), open a term,
  step through a timing walkthrough by link and by key.
* The live site's service worker: visit, keep an edition offline, go offline, reload a kept
  rule page, open a rule never visited (it opens inside its section page), search offline.

Every page must log no console error and load nothing that fails; no request may leave for
the network (``http(s)`` is aborted for the file:// tests, the context is offline).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from web.export import ExportResult

from .conftest import LiveServer, PageWatch, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def pack(exported_site: ExportResult) -> ExportResult:
    """The session's pack of the excerpt plus ``testgame`` (tests/conftest.py), whose files
    tests/test_export.py reads."""
    return exported_site


@pytest.fixture()
def offline(browser_context: Any, page: PageWatch) -> Iterator[list[str]]:
    """The network off for the test's page: the context offline, every http(s) request aborted
    (and recorded)."""
    attempts: list[str] = []

    def refuse(route: Any) -> None:
        attempts.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^https?://"), refuse)
    browser_context.set_offline(True)
    try:
        yield attempts
    finally:
        browser_context.set_offline(False)


def url_of(pack: ExportResult, rel: str) -> str:
    return (pack.folder / rel).resolve().as_uri()


def test_pack_reads_searches_and_steps_from_file_without_network(
        pack: ExportResult, page: PageWatch, offline: list[str]) -> None:
    assert pack.problems == []
    page.goto(url_of(pack, "index.html"))
    assert page.url.startswith("file://")
    page.get_by_role("link", name="Edition 1.4").first.click()
    page.wait_for_url("**/riftbound/1.4/index.html")
    page.get_by_role("link", name=re.compile(r"^337 Step 1: Finalize")).click()
    page.wait_for_url("**/riftbound/1.4/337.html")
    assert page.locator("h1").inner_text() == "337. Step 1: Finalize"
    screenshot(page, "export-rule")

    # search, in the page: the words of the lesson, then a number jump
    box = page.get_by_role("searchbox", name="Search the rules").first
    box.fill("focus passes")
    box.press("Enter")
    page.wait_for_url("**/search.html?**")
    first = page.locator("ol.results > li").first
    first.wait_for()
    assert first.locator("mark").count() >= 1
    assert page.locator("form.filters [name=q]").input_value() == "focus passes"
    screenshot(page, "export-search")
    number = first.locator(".num").inner_text()
    first.locator("a.hit-title").click()
    page.wait_for_url(re.compile(r"/riftbound/1\.4/[0-9.a-z]+\.html(#.*)?$"))
    assert page.locator(f'[id="{number}"]').count() == 1
    box = page.get_by_role("searchbox", name="Search the rules").first
    box.fill("337.1a")
    box.press("Enter")
    page.wait_for_url("**/riftbound/1.4/337.html#337.1.a")

    # a term: its tooltip on the rule page, then its definition in the glossary
    term = page.locator("a.term").first
    name = term.inner_text()
    term.click()
    tip = page.locator(".tooltip")
    tip.wait_for()
    assert name.lower().rstrip("s") in tip.inner_text().lower()
    page.locator("dl.terms a", has_text="glossary").first.click()
    page.wait_for_url("**/riftbound/1.4/glossary.html#term-*")
    assert page.locator(page.url.split("#", 1)[1].join(["[id='", "']"])).is_visible()

    # a walkthrough, frame by frame: by link, then by key
    page.goto(url_of(pack, "timing/index.html"))
    page.locator("ul.scenarios a").first.click()
    page.wait_for_url("**/timing/*/1.html")
    count = int(re.search(r"Frame 1 of (\d+)", page.locator(".stepper .pos").inner_text()).group(1))
    assert count >= 3
    page.locator("[data-step=next]").first.click()
    page.wait_for_url("**/2.html")
    assert page.locator(".stepper .pos").inner_text() == f"Frame 2 of {count}"
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/3.html")
    screenshot(page, "export-timing")
    assert offline == []  # nothing tried to reach a network
    assert page.problems == []


def test_offline_search_reports_a_malformed_query_in_the_page(
        pack: ExportResult, page: PageWatch, offline: list[str]) -> None:
    page.goto(url_of(pack, "search.html") + '?q=%22focus&ruleset=riftbound&edition=1.4')
    alert = page.get_by_role("alert")
    alert.wait_for()
    # Said as the site says it (pages.as_sentence): the message alone, one sentence.
    said = alert.inner_text()
    assert said.startswith("Unbalanced quote") and said.endswith(".") and "cannot be read" not in said
    page.goto(url_of(pack, "search.html") + "?q=priorty&ruleset=riftbound&edition=1.4")
    page.locator("p.didyoumean").wait_for()
    assert "priority" in page.locator("p.didyoumean").inner_text()
    assert offline == [] and page.problems == []


def _clear_workers(page: Any) -> None:
    page.evaluate("""async () => {
        for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
        for (const k of await caches.keys()) await caches.delete(k);
    }""")


def test_live_site_keeps_working_offline_after_a_visit(page: PageWatch, live_server: LiveServer,
                                                       browser_context: Any) -> None:
    base = live_server.url
    page.goto(base + "/riftbound/1.4/337.1.a")
    # A promise with no end of its own: bound it, so a worker that never activates fails the test.
    assert page.evaluate("""() => Promise.race([navigator.serviceWorker.ready.then(() => true),
        new Promise(done => setTimeout(() => done(false), 30000))])"""), "the service worker never became ready"
    page.reload()  # now under the worker's control: this visit is kept
    assert page.evaluate("!!navigator.serviceWorker.controller")
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    assert manifest and page.request.get(base + "/manifest.webmanifest").json()["start_url"] == "./"

    page.goto(base + "/offline")
    row = page.locator('[data-ruleset="riftbound"][data-edition="1.4"]')
    row.locator("input").check()
    page.get_by_role("button", name="Keep the checked editions").click()
    row.locator(".kept", has_text="kept offline").wait_for(timeout=60_000)
    try:
        browser_context.set_offline(True)
        page.goto(base + "/riftbound/1.4/337.1.a")  # visited: the kept copy
        assert page.locator("h1").inner_text() == "Rule 337.1.a"
        page.goto(base + "/riftbound/1.4/340.2.a")  # never visited: its section page, at the rule
        page.wait_for_url("**/riftbound/1.4/340#340.2.a")
        assert page.locator('[id="340.2.a"]').is_visible()
        # a rule's other addresses: a loose number, and the newest kept edition's short form
        for address in ("/riftbound/1.4/340.2a", "/riftbound/340.2.a", "/riftbound/rule%20340.2.a."):
            page.goto(base + address)
            page.wait_for_url("**/riftbound/1.4/340#340.2.a")
        page.goto(base + "/riftbound/1.4/999.9")  # not kept: the offline page says so, at its own address
        page.wait_for_url("**/offline?missing=*")
        assert "/riftbound/1.4/999.9 was not kept" in page.locator("[data-offline-missing]").inner_text()
        assert page.locator("h1").inner_text() == "Read the rules offline"
        page.goto(base + "/search?q=focus+passes&ruleset=riftbound&edition=1.4")
        page.locator("ol.results > li").first.wait_for()
        screenshot(page, "offline-search")
    finally:
        browser_context.set_offline(False)
        _clear_workers(page)
    # going offline makes the browser report the aborted requests; only those are expected
    page.problems[:] = [p for p in page.problems if "ERR_INTERNET_DISCONNECTED" not in p]
    assert page.problems == []
