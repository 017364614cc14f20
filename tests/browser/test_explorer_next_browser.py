"""The timing explorer's "what happens next" in a real browser (headless chromium), for both
games at phone (390 px) and desktop (1280 px) width: from a frame of a worked scenario, from
a pasted state, and the stepping controls that stay put on a phone. Screenshots go to
tests/browser/screenshots/ (``next-*``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kb.query import KnowledgeBase
from kb.timing import load_scenario

from test_site_next_steps import facade_after as _after

from .conftest import SCREENSHOTS, LiveServer, PageWatch

# (game, worked scenario, a frame where someone decides)
FRAMES = [("riftbound", "000-your-own-spell-starts-the-chain", 2),
          ("mtg", "002-a-counterspell-goes-above-the-spell-it-counters", 4)]
WIDTHS = [(390, 844), (1280, 900)]


@pytest.fixture(autouse=True)
def _clean_console(page: PageWatch) -> Any:
    yield
    assert page.problems == [], page.problems


def _shot(page: PageWatch, name: str) -> None:
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def _no_overflow(page: PageWatch) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, (page.url, overflow)


def _checks_the_answer(page: PageWatch, answer: dict[str, Any]) -> None:
    d = answer["decision"]
    assert page.locator("#next-h").inner_text() == f"{d['decider']} decides"
    options = page.locator("ul.options:not(.illegal) > li")
    assert options.count() == len(d["options"])
    assert page.locator("ul.options.illegal > li").count() == len(d["illegal"])
    # Opening an option shows the rules it follows, quoted, each linking to its page.
    first = options.first
    first.locator("summary").click()
    quote = first.locator(".cited li").first
    quote.wait_for(state="visible")
    assert quote.locator("a.num").inner_text() == d["options"][0]["rules"][0]
    assert len(quote.inner_text()) > 20
    if d["illegal"]:
        wrong = page.locator("ul.options.illegal > li").first
        assert d["illegal"][0]["forbidden_by"][0]["summary"] in wrong.inner_text()


@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("game,name,frame", FRAMES, ids=[f[0] for f in FRAMES])
def test_what_happens_next_from_a_frame(page: PageWatch, live_server: LiveServer, site_kb: KnowledgeBase,
                                        game: str, name: str, frame: int, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(live_server.url + f"/timing?scenario={name}&frame={frame}")
    page.get_by_role("link", name="What happens next from here?").click()
    page.wait_for_url(f"**/timing/next?scenario={name}&frame={frame}")
    state = site_kb.timing_run(load_scenario(name), name)["frames"][frame - 1]["state"]
    _checks_the_answer(page, site_kb.timing_next(state))
    _no_overflow(page)
    _shot(page, f"next-frame-{game}-{width}")
    page.get_by_role("link", name="back to the frame").click()
    page.wait_for_url(f"**/timing?scenario={name}&frame={frame}")


@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("game,name,frame", FRAMES, ids=[f[0] for f in FRAMES])
def test_what_happens_next_from_a_pasted_state(page: PageWatch, live_server: LiveServer, site_kb: KnowledgeBase,
                                               game: str, name: str, frame: int, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    state = site_kb.timing_run(load_scenario(name), name)["frames"][frame]["state"]   # the next frame's
    page.goto(live_server.url + "/timing")
    page.get_by_role("link", name="a state you paste").click()
    page.wait_for_url("**/timing/next")
    page.locator("#state").fill(json.dumps(state, indent=1))
    page.get_by_role("button", name="What happens next?").click()
    page.wait_for_selector("#next-h")
    _checks_the_answer(page, site_kb.timing_next(state))
    _no_overflow(page)
    _shot(page, f"next-state-{game}-{width}")
    # The state reached can be read back as JSON (and pasted again).
    page.get_by_text("This state as JSON").click()
    assert json.loads(page.locator(".reached-json code").inner_text())["ruleset"] == game


def test_a_bad_pasted_state_is_answered_on_the_page(page: PageWatch, live_server: LiveServer) -> None:
    page.goto(live_server.url + "/timing/next")
    page.locator("#state").fill('{"ruleset": "mtg", "players": ')
    page.get_by_role("button", name="What happens next?").click()
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "not valid JSON" in alert.inner_text()
    assert page.locator("#state").input_value() == '{"ruleset": "mtg", "players": '
    page.problems.clear()              # the page's own 400 is the answer asked for, not a fault


@pytest.mark.parametrize("game,name,frame", FRAMES, ids=[f[0] for f in FRAMES])
def test_next_button_stays_put_on_a_phone(page: PageWatch, live_server: LiveServer, game: str, name: str,
                                          frame: int) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + f"/timing?scenario={name}&frame=1")
    boxes = []
    for n in (2, 3):
        button = page.locator(".stepper [data-step=next]")
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box    # on screen without scrolling
        boxes.append(box)
        button.click()
        page.wait_for_url(f"**frame={n}")
    after = page.locator(".stepper [data-step=next]").bounding_box()
    assert all(b == after for b in boxes), (boxes, after)
    # Scrolled to the end of a long frame, the controls are still where they were.
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert page.locator(".stepper [data-step=next]").bounding_box() == after
    _shot(page, f"next-stepper-{game}-390")
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SCREENSHOTS / f"next-stepper-{game}-390-viewport.png"))


# -- choose an option and continue ----------------------------------------------------------
def _choose(page: PageWatch, n: int) -> None:
    """Press the Choose button of the legal option ``n`` (from 0) and wait for the next page."""
    with page.expect_navigation():
        page.locator("ul.options:not(.illegal) > li").nth(n).locator("button.choose").click()
    page.wait_for_selector("#next-h")


def _shows_after(page: PageWatch, answer: dict[str, Any], labels: list[str]) -> None:
    """The page after choices: the option chosen last, the trail, and the new decision."""
    assert page.locator(".chosen").inner_text().startswith(f"Chosen: {labels[-1]}")
    assert page.locator("#trail-h").inner_text() == f"Choices so far ({len(labels)})"
    assert page.locator(".trail-list > li").count() == len(labels)
    _checks_the_answer(page, answer)
    _no_overflow(page)


@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("game,name,frame", FRAMES, ids=[f[0] for f in FRAMES])
def test_choose_and_continue_from_a_frame(page: PageWatch, live_server: LiveServer, site_kb: KnowledgeBase,
                                          game: str, name: str, frame: int, width: int, height: int) -> None:
    """From a worked frame each choice is a URL: choosing twice, then back and forward."""
    page.set_viewport_size({"width": width, "height": height})
    state = site_kb.timing_run(load_scenario(name), name)["frames"][frame - 1]["state"]
    page.goto(live_server.url + f"/timing/next?scenario={name}&frame={frame}")
    for path in ([0], [0, 0]):
        _choose(page, path[-1])
        page.wait_for_url(f"**path={'.'.join(map(str, path))}")
        _shows_after(page, *_after(site_kb, state, path))
    _shot(page, f"next-choose-frame-{game}-{width}")
    page.go_back()
    page.wait_for_url("**path=0")
    _shows_after(page, *_after(site_kb, state, [0]))
    page.go_forward()
    page.wait_for_url("**path=0.0")
    _shows_after(page, *_after(site_kb, state, [0, 0]))
    # Back to the first decision from the trail.
    with page.expect_navigation():
        page.locator(".trail-list > li").first.get_by_role("button", name="Back to here").click()
    assert page.locator(".trail").count() == 0 and page.locator(".chosen").count() == 0
    _checks_the_answer(page, site_kb.timing_next(state))


@pytest.mark.parametrize("width,height", WIDTHS, ids=["phone", "desktop"])
@pytest.mark.parametrize("game,name,frame", FRAMES, ids=[f[0] for f in FRAMES])
def test_choose_and_continue_from_a_pasted_state(page: PageWatch, live_server: LiveServer, site_kb: KnowledgeBase,
                                                 game: str, name: str, frame: int, width: int, height: int) -> None:
    """From a pasted state the form carries the state and the choices: choosing twice, then back
    to the second decision from the trail."""
    page.set_viewport_size({"width": width, "height": height})
    state = site_kb.timing_run(load_scenario(name), name)["frames"][frame - 1]["state"]
    page.goto(live_server.url + "/timing/next")
    page.locator("#state").fill(json.dumps(state, indent=1))
    page.get_by_role("button", name="What happens next?").click()
    page.wait_for_selector("#next-h")
    _choose(page, 0)
    _shows_after(page, *_after(site_kb, state, [0]))
    _choose(page, 0)
    _shows_after(page, *_after(site_kb, state, [0, 0]))
    _shot(page, f"next-choose-state-{game}-{width}")
    with page.expect_navigation():
        page.locator(".trail-list > li").nth(1).get_by_role("button", name="Back to here").click()
    _shows_after(page, *_after(site_kb, state, [0]))
