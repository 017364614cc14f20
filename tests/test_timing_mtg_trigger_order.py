"""Magic: each player puts their own simultaneous triggered abilities on the stack in the order
they choose, the active player first (603.3b, 101.4; A12). The order is a decision like the
blockers' order: listed up to a bound (saying how many there are), made by a scenario's
``order`` step, and, when a scenario leaves it out, taken by default with the frame saying so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kb.timing import engine
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.mtg.bindings import LISTED_ORDERS
from kb.timing.scenario import ScenarioError, loads, run

SCENARIOS = Path(__file__).parent / "scenarios" / "mtg"


def upkeep(ann: list[str], bo: list[str], edition: str = "2026-01-16", steps: list[Any] | None = None
           ) -> dict[str, Any]:
    """Artifacts whose abilities trigger at the beginning of each upkeep: all trigger at once."""
    cards = {n: {"type": "artifact", "triggers": [{"on": "beginning", "step": "upkeep", "whose": "each",
                                                   "name": f"{n}'s ability", "effects": [{"draw": 1}]}]}
             for n in dict.fromkeys(ann + bo)}
    return {"name": "Upkeep triggers.", "ruleset": "mtg", "edition": edition,
            "players": [{"name": "Ann", "battlefield": ann}, {"name": "Bo", "battlefield": bo}],
            "cards": cards, "start": {"step": "upkeep"}, "steps": steps or []}


def decision_at_start(data: dict[str, Any]) -> engine.Decision | None:
    model, state = mtg_scenario.setup(data)
    return engine.decision(model, engine.advance(model, state, with_illegal=False).state, with_illegal=False)


def ran(data: dict[str, Any]) -> Any:
    return run(loads(yaml.safe_dump(data, sort_keys=False), "s.yaml"))


# (what, Ann's artifacts, Bo's, who decides first, orders listed, the words the listing adds)
LISTINGS = [
    ("one trigger each: no order to choose", ["Sentry"], ["Sentry"], "Ann", 0, ""),
    ("two of Ann's: two orders", ["Altar", "Bell"], [], "Ann", 2, ""),
    ("three of Ann's: all six orders", ["Altar", "Bell", "Crown"], [], "Ann", 6, ""),
    ("four of Ann's: the first six of 24", ["Altar", "Bell", "Crown", "Drum"], [], "Ann", LISTED_ORDERS,
     "one of 24 orders, the first 6 listed"),
    ("two copies of one card: one order only", ["Sentry", "Sentry"], [], "Ann", 0, ""),
    ("Ann has one, Bo two: Bo orders once Ann's is on", ["Sentry"], ["Altar", "Bell"], "Bo", 2, ""),
]


@pytest.mark.parametrize("what,ann,bo,decider,listed,words", LISTINGS, ids=[c[0] for c in LISTINGS])
def test_the_orders_a_player_may_put_their_triggers_on_the_stack_in_are_listed_up_to_a_bound(
        what: str, ann: list[str], bo: list[str], decider: str, listed: int, words: str) -> None:
    found = decision_at_start(upkeep(ann, bo))
    assert found is not None
    orders = [o for o in found.options if o.transition.name == "order-triggers"]
    assert len(orders) == listed
    if listed:
        assert found.decider == decider and {o.player for o in orders} == {decider}
        assert len({o.params["order"] for o in orders}) == listed
        assert all(words in o.label for o in orders)
        assert orders[0].transition.rules == ("603.3b", "101.4", "603.3")
    else:
        assert found.decider == "Ann" and not orders  # straight to priority


# (what, the steps, the stack wanted bottom first, a frame note wanted)
RUNS = [
    ("no order step: the order they triggered, said to be the default", [],
     ["Altar's ability", "Bell's ability", "Crown's ability"], "by default (the scenario gives no order)"),
    ("an order step chooses it", [{"order": ["Crown's ability", "Altar's ability", "Bell's ability"]}],
     ["Crown's ability", "Altar's ability", "Bell's ability"], ""),
    ("an order step with its player", [{"order": {"player": "Ann", "triggers": [
        "Bell's ability", "Crown's ability", "Altar's ability"]}}],
     ["Bell's ability", "Crown's ability", "Altar's ability"], ""),
]


@pytest.mark.parametrize("what,steps,stack,note", RUNS, ids=[c[0] for c in RUNS])
def test_a_scenario_chooses_the_order_or_takes_the_default_and_says_so(what: str, steps: list[Any],
                                                                       stack: list[str], note: str) -> None:
    result = ran(upkeep(["Altar", "Bell", "Crown"], [], steps=[*steps, {"expect": {
        "stack": stack, "priority": "Ann", "cited": ["603.3b", "101.4"]}}]))
    assert result.ok, result.expectations
    notes = [f.note for f in result.frames if f.note]
    assert (any(note in n for n in notes) if note else not notes)
    said = [n.label for f in result.frames for n in f.node.walk() if n.name == "triggers-ordered"]
    assert said == [f"Ann puts {', '.join(stack)} on the stack in that order, so {stack[-1]} resolves first"]


# (what, the step, the field the error names, words in it)
BAD_STEPS = [
    ("a trigger not waiting", {"order": ["Drum's ability", "Altar's ability"]}, "order[0]", "no triggered ability"),
    ("no trigger named", {"order": []}, "order", "name the triggered abilities"),
    ("an unknown key", {"order": {"player": "Ann", "abilities": []}}, "order", "abilities"),
]


@pytest.mark.parametrize("what,step,field,words", BAD_STEPS, ids=[c[0] for c in BAD_STEPS])
def test_a_malformed_order_step_is_refused_naming_its_place(what: str, step: dict[str, Any], field: str,
                                                            words: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        ran(upkeep(["Altar", "Bell"], [], steps=[step]))
    assert caught.value.field == field and words in str(caught.value)


# (what, the step, the check that refuses it)
REFUSED = [
    ("Bo before Ann", {"order": {"player": "Bo", "triggers": ["Crown's ability", "Drum's ability"]}},
     "orders-triggers-now"),
    ("Ann leaving one of hers out", {"order": ["Bell's ability"]}, "trigger-order"),
]


@pytest.mark.parametrize("what,step,check", REFUSED, ids=[c[0] for c in REFUSED])
def test_an_order_out_of_turn_or_incomplete_is_refused_citing_603_3b(what: str, step: dict[str, Any],
                                                                     check: str) -> None:
    result = ran(upkeep(["Altar", "Bell"], ["Crown", "Drum"], steps=[{"expect_illegal": step}]))
    (found,) = result.expectations
    assert found.ok and check in [f["check"] for f in found.forbidden_by]
    assert "603.3b" in found.actual["rules"]


@pytest.mark.parametrize("edition,rules", [("2026-01-16", ["603.3b", "101.4"]), ("2010-10-01", ["603.3b", "101.4"])])
def test_the_order_cites_603_3b_and_101_4_in_each_editions_numbering(edition: str, rules: list[str]) -> None:
    found = decision_at_start(upkeep(["Altar", "Bell"], [], edition))
    assert found is not None
    option = next(o for o in found.options if o.transition.name == "order-triggers")
    assert list(option.transition.rules[:2]) == rules


def test_a_listed_order_written_as_a_step_replays_it() -> None:
    found = decision_at_start(upkeep(["Altar", "Bell", "Crown"], []))
    assert found is not None
    last = [o for o in found.options if o.transition.name == "order-triggers"][-1]
    step = mtg_scenario.option_action(last)
    result = ran(upkeep(["Altar", "Bell", "Crown"], [], steps=[step, {"expect": {"stack": list(step["order"][
        "triggers"])}}]))
    assert result.ok and step["order"]["triggers"][-1] == "Altar's ability"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*simultaneous-triggers-on-the-stack-in-the-order-they-choose*")),
                         ids=lambda p: p.stem)
def test_the_scenarios_of_both_editions_pass(path: Path) -> None:
    assert run(loads(path.read_text(), str(path))).ok
