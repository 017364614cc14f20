"""Browser tests: headless Debian chromium driven by Playwright against a live server.

The server is the real app on waitress, in a thread, on a free loopback port. The browser
is the system's ``/usr/bin/chromium`` (Playwright's own browser downloads are never used);
tests skip with the reason when it or the ``playwright`` package is missing.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kb.query import KnowledgeBase


CHROMIUM = os.environ.get("RULEKB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt install chromium, or set RULEKB_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = _missing()
    here = Path(__file__).resolve().parent
    for item in items:
        if Path(str(item.fspath)).resolve().parent == here:
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


class LiveServer:
    """The app served by waitress on 127.0.0.1 in a background thread."""

    def __init__(self, kb: KnowledgeBase):
        import waitress.server

        from web import create_app
        self.app = create_app(kb=kb)
        self.server = waitress.server.create_server(self.app, host="127.0.0.1", port=0, threads=4,
                                                    ident="rulekb-test")
        self.url = f"http://127.0.0.1:{self.server.effective_port}"  # type: ignore[union-attr]
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.close()
        self.thread.join(timeout=5)


@pytest.fixture(scope="session")
def live_server(site_kb: KnowledgeBase) -> Iterator[LiveServer]:
    server = LiveServer(site_kb)
    yield server
    server.close()


@pytest.fixture(scope="session")
def browser_context() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright
    profile = tempfile.mkdtemp(prefix="rulekb-chromium-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900})
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


class PageWatch:
    """A page that records console errors, page errors and failed requests."""

    def __init__(self, page: Any):
        self.page = page
        self.problems: list[str] = []
        page.on("console", lambda m: self.problems.append(f"console {m.type}: {m.text}")
                if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        # (a request the browser cancelled because the page was left, such as the manifest or
        # the icon of a page the test leaves at once, is not a failure)
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url}")
                if r.failure != "net::ERR_ABORTED" else None)
        page.on("response", lambda r: self.problems.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)


@pytest.fixture()
def page(browser_context: Any) -> Iterator[PageWatch]:
    p = browser_context.new_page()
    p.set_default_timeout(10_000)
    watch = PageWatch(p)
    yield watch
    # Don't wait for the page to finish closing: Chromium sometimes never reports a page
    # closed (seen after stepping through the timing explorer), which hung the suite.
    p.close(run_before_unload=True)


def screenshot(page: Any, name: str) -> None:
    """Save the page at phone width (390 px) and desktop width (1280 px) for review."""
    SCREENSHOTS.mkdir(exist_ok=True)
    original = page.viewport_size
    for width, height in ((390, 844), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(original)
