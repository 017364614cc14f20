"""Choosing an option on "what happens next" and continuing, without JavaScript (Flask's test
client), for both games: from a frame of a worked scenario (GET: a choice is a URL, so back and
forward are the browser's), from a pasted state and from a pasted scenario's frame (POST: the
form carries the origin and the choices); every page matches the facade's answer after the same
choices; going back to a decision; bad choices answered with their place. And the facade's
``choose`` itself: a legal option taken, an illegal one refused with its rules."""

from __future__ import annotations

import json
from typing import Any

import pytest
from flask.testing import FlaskClient

from kb.errors import QueryError
from kb.query import KnowledgeBase
from kb.timing import load_scenario

from test_site import Page, app, client, frame_state, site_kb  # noqa: F401 (the site's fixtures)

# (scenario, frame, the options chosen in turn): two choices each, in both games.
WALKS = [
    ("000-your-own-spell-starts-the-chain", 3, [0, 0]),
    ("002-a-counterspell-goes-above-the-spell-it-counters", 4, [0, 0]),
    ("002-an-instant-can-be-cast-whenever-you-have-priority", 2, [1, 0]),
]


def facade_after(k: KnowledgeBase, state: dict[str, Any], path: list[int]) -> tuple[dict[str, Any], list[str]]:
    """The facade's answer after choosing ``path`` from ``state``, and the labels chosen."""
    answer, labels = k.timing_next(state), []
    for n in path:
        option = answer["decision"]["options"][n]
        labels.append(option["label"])
        answer = k.timing_next(answer["state"], choose=option["action"])
    return answer, labels


def shows(page: Page, answer: dict[str, Any], labels: list[str]) -> None:
    """The page is the facade's answer: the option chosen last, the trail, who decides now and
    every legal option with a Choose button."""
    if labels:
        assert f"Chosen: {labels[-1]}" in page.plain
        assert f"Choices so far ({len(labels)})" in page.plain
        for label in labels:
            assert label in page.plain
    d = answer["decision"]
    if d is None:
        return
    assert f"{d['decider']} decides" in page.plain
    for o in d["options"]:
        assert o["label"] in page.plain
    buttons = [a["value"] for t, a in page.tags if t == "button" and a.get("name") == "choose"]
    assert buttons == [str(i) for i in range(len(d["options"]))]


@pytest.mark.parametrize("name,frame,path", WALKS, ids=[w[0] for w in WALKS])
def test_choose_and_continue_from_a_worked_frame(client: FlaskClient, site_kb: KnowledgeBase, name: str,
                                                 frame: int, path: list[int]) -> None:
    url = f"/timing/next?scenario={name}&frame={frame}"
    for i, n in enumerate(path):
        r = client.get(f"{url}&path={'.'.join(map(str, path[:i]))}&choose={n}")
        assert r.status_code == 302  # a choice is a page of its own: the URL of the path so far
        target = f"path={'.'.join(map(str, path[:i + 1]))}"
        assert target.replace(".", "%2E") in r.location or target in r.location, r.location
        page = Page(client.get(r.location).get_data(as_text=True))
        shows(page, *facade_after(site_kb, frame_state(site_kb, name, frame), path[:i + 1]))
    # Back to the first decision: the trail's button names the path before it.
    backs = [a["value"] for t, a in page.tags if t == "button" and a.get("name") == "path"]
    assert backs == [".".join(map(str, path[:i])) for i in range(len(path))]
    first = Page(client.get(f"{url}&path=").get_data(as_text=True))
    shows(first, site_kb.timing_next(frame_state(site_kb, name, frame)), [])


@pytest.mark.parametrize("name,frame,path", WALKS, ids=[w[0] for w in WALKS])
def test_choose_and_continue_from_a_pasted_state(client: FlaskClient, site_kb: KnowledgeBase, name: str,
                                                 frame: int, path: list[int]) -> None:
    state = frame_state(site_kb, name, frame)
    text = json.dumps(state)
    for i, n in enumerate(path):
        r = client.post("/timing/next", data={"state": text, "path": ".".join(map(str, path[:i])), "choose": str(n)})
        assert r.status_code == 200
        page = Page(r.get_data(as_text=True))
        shows(page, *facade_after(site_kb, state, path[:i + 1]))
        # The forms carry the pasted state as it was pasted, and the choices so far.
        carried = [a["value"] for t, a in page.tags if t == "input" and a.get("name") == "state"]
        assert carried and all(json.loads(v) == state for v in carried)
        kept = [a["value"] for t, a in page.tags if t == "input" and a.get("name") == "path"]
        assert kept == [".".join(map(str, path[:i + 1]))]


def test_choose_from_a_pasted_scenarios_frame(client: FlaskClient, site_kb: KnowledgeBase) -> None:
    import yaml
    text = (load_scenario.__globals__["scenario_files"]("mtg")[0]).read_text(encoding="utf-8")
    run = site_kb.timing_run(yaml.safe_load(text), "pasted")
    r = client.post("/timing/next", data={"yaml": text, "frame": "2", "choose": "0"})
    assert r.status_code == 200
    page = Page(r.get_data(as_text=True))
    shows(page, *facade_after(site_kb, run["frames"][1]["state"], [0]))
    assert [a["value"] for t, a in page.tags if t == "input" and a.get("name") == "yaml"]


# (the query, the status, what the page says): a choice is refused naming it.
BAD_CHOICES = [
    ("path=first", 400, "Path is option numbers joined by dots"),
    ("path=0.x", 400, "Path is option numbers joined by dots"),
    ("path=&choose=-1", 400, "Choose is option numbers joined by dots"),
    ("path=99", 404, "Choice 1 is option 100"),
    ("path=0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
     "0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
     "0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
     "0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0",
     413, "timing.steps"),
]


@pytest.mark.parametrize("query,status,message", BAD_CHOICES, ids=[b[2][:30] + str(b[1]) for b in BAD_CHOICES])
def test_bad_choices_are_answered_with_their_place(client: FlaskClient, query: str, status: int, message: str) -> None:
    name, frame, _ = WALKS[1]
    r = client.get(f"/timing/next?scenario={name}&frame={frame}&{query}")
    assert r.status_code == status
    assert message in Page(r.get_data(as_text=True)).plain


# -- the facade's choose -------------------------------------------------------------------
# (the action chosen at the decision of frame 4 of the counterspell scenario: "legal" or "illegal"
# for the first such option there, or an action; the status, or 0 when it is taken; what the
# refusal says)
CHOOSE = [
    ("legal", 0, ""),
    ({"pass": "Zed"}, 422, "not one of"),
    ("illegal", 422, "not legal now"),
]


@pytest.mark.parametrize("action,status,says", CHOOSE, ids=["legal", "not-an-option", "illegal"])
def test_the_facade_takes_a_legal_option_and_refuses_others(site_kb: KnowledgeBase, action: Any, status: int,
                                                            says: str) -> None:
    name, frame, _ = WALKS[1]
    reached = site_kb.timing_next(frame_state(site_kb, name, frame))
    if action in ("legal", "illegal"):
        action = reached["decision"]["options" if action == "legal" else "illegal"][0]["action"]
    if status:
        with pytest.raises(QueryError) as err:
            site_kb.timing_next(reached["state"], choose=action)
        assert err.value.status == status and says in err.value.message
        return
    after = site_kb.timing_next(reached["state"], choose=action)
    assert after["chosen"]["action"] == action and after["chosen"]["rules"]
    assert after["state"] != reached["state"]


def test_nothing_to_choose_when_the_game_is_over(site_kb: KnowledgeBase) -> None:
    state = {"ruleset": "mtg", "players": ["Ann", "Bo"], "lost": ["Bo"], "life": {"Bo": 0}}
    with pytest.raises(QueryError) as err:
        site_kb.timing_next(state, choose={"pass": "Ann"})
    assert err.value.status == 422 and "nobody decides" in err.value.message
