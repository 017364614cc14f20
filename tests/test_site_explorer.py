"""The timing explorer's "what happens next" without JavaScript (Flask's test client): from a
frame of a worked scenario, from a frame of a pasted scenario, and from a pasted state; bad
input answered on the page; "Checked here" read as sentences; scenarios grouped by ruleset;
stepping controls that keep their place."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from kb.limits import TIMING_PASTED
from kb.query import KnowledgeBase
from web.site.checks import fact, sentence

from test_site import Page, app, client, frame_state, site_kb  # noqa: F401 (the site's fixtures)

RIFTBOUND = "000-your-own-spell-starts-the-chain"
MTG = "002-a-counterspell-goes-above-the-spell-it-counters"


def shows_the_answer(page: Page, answer: dict[str, Any]) -> None:
    """The page says who decides and lists every legal and illegal option the facade gives."""
    d = answer["decision"]
    assert f"{d['decider']} decides" in page.plain
    assert f"Legal options for {d['decider']} ({len(d['options'])})" in page.plain
    for o in d["options"] + d["illegal"]:
        assert o["label"] in page.plain, o["label"]
    if d["illegal"]:
        assert f"Not legal now ({len(d['illegal'])})" in page.plain
        assert d["illegal"][0]["forbidden_by"][0]["summary"] in page.plain


# -- from a frame of a worked scenario ------------------------------------------------------
@pytest.mark.parametrize("name,frame", [(RIFTBOUND, 2), (MTG, 4)])
def test_next_from_a_worked_frame(client: FlaskClient, site_kb: KnowledgeBase, name: str, frame: int) -> None:
    r = client.get(f"/timing/next?scenario={name}&frame={frame}")
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    answer = site_kb.timing_next(frame_state(site_kb, name, frame))
    shows_the_answer(page, answer)
    assert f"From frame {frame} of" in page.plain
    assert f"../timing?scenario={name}&frame={frame}" in page.links       # back to the frame
    # Each option's rules link to their pages and are quoted (the first option's first rule).
    first = answer["decision"]["options"][0]["rules"][0]
    assert any(link.endswith(f"/{answer['edition']}/{first}") for link in page.links), first
    text = site_kb.rule(answer["ruleset"], first, answer["edition"])["text"]
    assert " ".join(text.split())[:60] in page.plain


def test_links_from_the_next_page_climb_out_of_it() -> None:
    from web.site.links import relative
    assert relative("/timing", "/timing/next") == "../timing"    # "." would be /timing/, a 404
    assert relative("/timing/next", "/timing") == "timing/next"


def test_a_worked_frame_links_to_what_happens_next(client: FlaskClient) -> None:
    r = client.get(f"/timing?scenario={RIFTBOUND}&frame=3")
    page = Page(r.get_data(as_text=True))
    assert f"timing/next?scenario={RIFTBOUND}&frame=3" in page.links
    assert "What happens next from here?" in page.plain


def test_next_from_the_automatic_steps_shows_them_with_their_rules(client: FlaskClient,
                                                                   site_kb: KnowledgeBase) -> None:
    answer = site_kb.timing_next(frame_state(site_kb, RIFTBOUND, 2))
    assert answer["steps"], "frame 2 plays Fireball: finalizing it is automatic"
    page = Page(client.get(f"/timing/next?scenario={RIFTBOUND}&frame=2").get_data(as_text=True))
    assert "First, by the rules alone" in page.plain and answer["steps"][0]["summary"] in page.plain


# -- from a frame of a pasted scenario ------------------------------------------------------
PASTED = """
name: Pasted
ruleset: riftbound
edition: "1.4"
players: [Ann, Bo]
cards:
  Fireball: {type: spell, effects: [{draw: 1}]}
steps:
  - play: {player: Ann, card: Fireball}
  - pass: Ann
"""


def test_next_from_a_pasted_scenarios_frame(client: FlaskClient, site_kb: KnowledgeBase) -> None:
    frame_page = Page(client.post("/timing", data={"yaml": PASTED, "frame": "2"}).get_data(as_text=True))
    ask = [a for t, a in frame_page.tags if t == "button" and "ask-next" in (a.get("class") or "")]
    assert ask and ask[0]["formaction"].endswith("timing/next") and ask[0]["value"] == "2"
    r = client.post("/timing/next", data={"yaml": PASTED, "frame": "2"})
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    run = site_kb.timing_run(load_scenario_text(PASTED), "pasted")
    shows_the_answer(page, site_kb.timing_next(run["frames"][1]["state"]))
    # The way back re-posts the scenario to its frame.
    back = [a for t, a in page.tags if t == "button" and a.get("value") == "2" and a.get("name") == "frame"]
    assert back and "From frame 2 of" in page.plain


def load_scenario_text(text: str) -> dict[str, Any]:
    import yaml
    return yaml.safe_load(text)


FAILING = PASTED + """  - pass: Bo
  - expect: {resolved: [Fireball]}
  - expect: {priority: Bo}
"""


def test_a_failed_expectation_is_named_with_the_frame_that_shows_it(client: FlaskClient) -> None:
    page = Page(client.post("/timing", data={"yaml": FAILING}).get_data(as_text=True))
    assert "1 of 2 expectations fail (the first at step 5: see frame" in page.plain
    see = [a for t, a in page.tags if t == "button" and a.get("class") == "see-failed"]
    assert see and see[0]["form"] == "stepper-form"
    there = Page(client.post("/timing", data={"yaml": FAILING, "frame": see[0]["value"]}).get_data(as_text=True))
    assert "✗ Bo has priority. Actually: Ann has priority." in there.plain


# -- from a pasted state --------------------------------------------------------------------
def test_the_state_form_without_input(client: FlaskClient) -> None:
    r = client.get("/timing/next")
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    assert any(t == "textarea" and a.get("name") == "state" and a.get("maxlength") == str(TIMING_PASTED.value)
               for t, a in page.tags)


@pytest.mark.parametrize("name,frame", [(RIFTBOUND, 3), (MTG, 6)])
def test_next_from_a_pasted_state(client: FlaskClient, site_kb: KnowledgeBase, name: str, frame: int) -> None:
    state = frame_state(site_kb, name, frame)
    r = client.post("/timing/next", data={"state": json.dumps(state)})
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    answer = site_kb.timing_next(state)
    shows_the_answer(page, answer)
    assert "This state as JSON" in page.plain


def test_a_hostile_pasted_state_is_shown_as_text(client: FlaskClient, site_kb: KnowledgeBase) -> None:
    state = json.loads(json.dumps(frame_state(site_kb, RIFTBOUND, 3)).replace(
        '"Ann"', json.dumps("Ann<script>window.__pwned=1</script>")))
    r = client.post("/timing/next", data={"state": json.dumps(state)})
    html = r.get_data(as_text=True)
    assert r.status_code == 200, html[:2000]
    assert "<script>window" not in html and "Ann<script>window.__pwned=1</script> decides" in Page(html).plain


STATE_ERRORS = [
    # (state text, status, message on the page)
    ('{"ruleset": "mtg", ', 400, "not valid JSON: line 1, column 20"),
    ("[1, 2]", 400, "a state is a JSON object"),
    ("   ", 400, "paste a state"),
    ('{"ruleset": "chess"}', 404, "no timing model for ruleset 'chess'"),
    ('{"ruleset": "mtg", "players": ["Ann"]}', 400, "players"),
    ('{"ruleset": "riftbound", "turn_state": "neutral-closed", "priority": "Ann", "focus": null, "chain": [],'
     ' "players": ["Ann", "Bo"], "turn_player": "Ann", "phase": "main", "passes": 0}', 422,
     "the rules cannot produce this state"),
    ('{"a": "\\ud800"}', 400, "lone surrogate"),
    ("[" * 5000 + "]" * 5000, 422, "nest"),
]


@pytest.mark.parametrize("text,status,message", STATE_ERRORS)
def test_bad_states_are_answered_on_the_page(client: FlaskClient, text: str, status: int, message: str) -> None:
    r = client.post("/timing/next", data={"state": text})
    assert r.status_code == status and r.mimetype == "text/html"
    page = Page(r.get_data(as_text=True))
    assert message in page.plain, page.plain[:1500]
    assert any(t == "textarea" and a.get("name") == "state" for t, a in page.tags)   # kept to be fixed
    if text.strip() and len(text) < 300:
        assert text.strip()[:15] in r.get_data(as_text=True).replace("&#34;", '"').replace("&#39;", "'")


def test_a_state_over_the_budget_is_refused_before_parsing(client: FlaskClient) -> None:
    r = client.post("/timing/next", data={"state": " " * (TIMING_PASTED.value + 1)})
    assert r.status_code == 413 and "timing.pasted" in r.get_data(as_text=True)


def test_the_rules_a_state_breaks_are_quoted(client: FlaskClient) -> None:
    text, status, _ = STATE_ERRORS[5]
    page = Page(client.post("/timing/next", data={"state": text}).get_data(as_text=True))
    assert "309.1" in page.plain and "Closed" in page.plain                  # the rule's own words


FRAME_ERRORS = [
    (f"/timing/next?scenario={RIFTBOUND}&frame=999", 404, "does not exist"),
    (f"/timing/next?scenario={RIFTBOUND}&frame=0", 400, "Frame must be a positive whole number"),  # A30
    (f"/timing?scenario={RIFTBOUND}&frame=0", 400, "Frame must be a positive whole number"),
    (f"/timing?scenario={RIFTBOUND}&frame=999", 404, "does not exist"),
    (f"/timing?scenario={RIFTBOUND}&frame=99999999999999999999", 400, "Frame must be a positive whole number"),
    (f"/timing/next?scenario={RIFTBOUND}&frame=x", 400, "Frame must be"),
    ("/timing/next?scenario=no-such-scenario", 404, "No worked scenario"),
]


@pytest.mark.parametrize("url,status,text", FRAME_ERRORS)
def test_bad_frames_are_answered_on_the_page(client: FlaskClient, url: str, status: int, text: str) -> None:
    r = client.get(url)
    assert r.status_code == status and r.mimetype == "text/html"
    assert text in Page(r.get_data(as_text=True)).plain


def test_a_broken_pasted_scenario_is_answered_on_the_next_page(client: FlaskClient) -> None:
    r = client.post("/timing/next", data={"yaml": "name: [unclosed", "frame": "1"})
    assert r.status_code == 400 and "not valid YAML" in Page(r.get_data(as_text=True)).plain


# -- "Checked here" as sentences ------------------------------------------------------------
def test_checked_here_reads_as_sentences(client: FlaskClient) -> None:
    page = Page(client.get(f"/timing?scenario={MTG}&frame=2").get_data(as_text=True))
    assert "Checked here" in page.plain
    assert "Ann has priority" in page.plain and "priority = " not in page.plain


@pytest.mark.parametrize("key,value,words", [
    ("priority", "Ann", "Ann has priority"),
    ("priority", None, "nobody has priority"),
    ("focus", "Bo", "Bo has focus"),
    ("chain", [{"name": "Fireball", "status": "finalized"}, "Strike"],
     "the chain holds, bottom to top: Fireball (finalized), Strike"),
    ("stack", [], "the stack is empty"),
    ("resolved", ["A", "B"], "A, B resolved, in that order"),
    ("drawn", {"Ann": 1, "Bo": 2}, "Ann drew 1 card; Bo drew 2 cards"),
    ("life", {"Ann": 20}, "life: Ann 20"),
    ("showdown", False, "no showdown is under way"),
    ("state", "neutral-open", "the turn state is neutral-open"),
    ("control", {"Sunken Temple": "Ann"}, "control: Sunken Temple (Ann)"),
    ("legion", {"Ann": False}, "legion: Ann: no"),
])
def test_facts_read_as_words(key: str, value: Any, words: str) -> None:
    assert fact(key, value) == words


def test_a_failed_check_says_what_was_found() -> None:
    said = sentence({"kind": "expect", "ok": False, "expected": {"priority": "Ann", "focus": "Bo"},
                     "actual": {"priority": "Bo", "focus": "Bo"}, "failed": ["priority"]})
    assert said == {"text": "Ann has priority; Bo has focus", "rules": [], "actually": "Bo has priority"}


def test_an_illegal_action_reads_with_the_rules_that_forbid_it() -> None:
    said = sentence({"kind": "expect_illegal", "ok": True,
                     "expected": {"cast": {"player": "Bo", "card": "Lightning Bolt", "target": "Ann"}, "illegal": True},
                     "actual": {"illegal": True, "rules": ["116.1"]},
                     "forbidden_by": [{"check": "has-priority", "summary": "only the player with priority",
                                       "rules": ["116.1", "116.3a"]}]})
    assert said["text"] == "Bo cannot cast Lightning Bolt targeting Ann now"
    assert said["rules"] == ["116.1", "116.3a"]


# -- the scenario list, the stepper -------------------------------------------------------
def test_scenarios_are_grouped_by_ruleset(client: FlaskClient) -> None:
    html = client.get("/timing").get_data(as_text=True)
    page = Page(html)
    assert {"worked-riftbound", "worked-mtg"} <= page.ids
    assert "Riftbound Core Rules" in page.plain and "Magic: The Gathering Comprehensive Rules" in page.plain
    # Every scenario sits in its own ruleset's group.
    mtg_part = html[html.index('id="worked-mtg"'):]
    mtg_part = mtg_part[:mtg_part.index("</section>")]
    rift_part = html[html.index('id="worked-riftbound"'):]
    rift_part = rift_part[:rift_part.index("</section>")]
    assert f"scenario={MTG}" in mtg_part and f"scenario={MTG}" not in rift_part
    assert f"scenario={RIFTBOUND}" in rift_part and f"scenario={RIFTBOUND}" not in mtg_part


def test_every_stepping_control_keeps_its_place(client: FlaskClient) -> None:
    def controls(url: str) -> list[str]:
        html = client.get(url).get_data(as_text=True)
        part = html[html.index("data-stepper"):]
        part = part[:part.index("</div>")]
        return [a.get("class") or t for t, a in Page("<div " + part).tags
                if t == "a" or (t == "span" and a.get("class") in ("pos", "button disabled"))]
    first, middle, last = (controls(f"/timing?scenario={RIFTBOUND}&frame={n}") for n in (1, 2, 18))
    assert len(first) == len(middle) == len(last) == 5
    assert first[:2] == ["button disabled"] * 2 and last[3:] == ["button disabled"] * 2
    assert middle == ["button"] * 2 + [middle[2]] + ["button"] * 2


# -- a quoted rule is kept per rule, never per spelling or miss ---------------------------------
@pytest.mark.parametrize("number,quoted", [
    ("337.1.a", True),
    ("337.1a", True),          # the same rule written loosely
    ("rule 337.1.a.", True),
    ("999.9", False),          # no such rule
    ("not a number", False),
])
def test_a_cited_rule_is_quoted_when_the_edition_has_it(site_kb: KnowledgeBase, number: str, quoted: bool) -> None:
    from web.site.explorer import _rule_text
    assert (_rule_text(site_kb, "riftbound", "1.4", number) is not None) == quoted


def test_citations_a_pasted_scenario_makes_up_keep_nothing(site_kb: KnowledgeBase) -> None:
    from web.site.explorer import _rule_text
    _rule_text(site_kb, "riftbound", "1.4", "337.1.a")
    held = len(site_kb.derived)
    for i in range(500):
        _rule_text(site_kb, "riftbound", "1.4", f"{900 + i % 99}.{i}")   # misses
        _rule_text(site_kb, "riftbound", "1.4", "rule " + " " * (i % 40) + "337.1a")  # spellings of a hit
    assert len(site_kb.derived) == held
