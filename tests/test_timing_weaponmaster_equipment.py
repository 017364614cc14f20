"""Weaponmaster's choice of Equipment (821.1.c) in the timing model: any card its controller
controls with the Equipment tag, with an Equip ability or not (821.1.c.1). A gear's
``equipment: true`` is the tag on a gear without Equip (150.1; gear with ``equip: COST`` has it,
818.1.a). An Equipment without an Equip cost cannot be paid for (821.1.c.4) and stays where it
is (821.1.c.5); one with Equip is paid for, one Power less, and detaches from the unit it was
on as it attaches to the new one (434.1.f)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from exploring import explore_checked
from kb.timing import engine
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, scenario as rift_scenario, state_io
from kb.timing.scenario import RunResult, ScenarioError, loads, run

CARDS = {"Armsmaster": {"type": "unit", "might": 2, "cost": 2, "keywords": ["Weaponmaster"]},
         "Guard": {"type": "unit"},
         "Longsword": {"type": "gear", "equip": {"energy": 1, "power": 1}, "might_bonus": 2},
         "Banner": {"type": "gear", "equipment": True, "might_bonus": 1},
         "Lantern": {"type": "gear"}}
PLAY = {"play": {"player": "Ann", "card": "Armsmaster"}}
PERFORM = {"perform": {"player": "Ann", "item": "Armsmaster's Weaponmaster"}}  # "you may choose …" (402.1)
PASSES = [{"pass": "Ann"}, {"pass": "Bo"}]
EQUIP_GUARD = [{"activate": {"player": "Ann", "ability": "Longsword's Equip", "target": "Guard"}}, *PASSES]


def scenario(steps: list[Any], cards: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ann with Guard, Longsword, Banner and Lantern at base, 6 runes and Armsmaster in hand."""
    return {"name": "Weaponmaster.", "ruleset": "riftbound", "edition": "1.4",
            "players": [{"name": "Ann", "runes": 6, "base": ["Guard", "Longsword", "Banner", "Lantern"],
                         "hand": ["Armsmaster"]}, {"name": "Bo"}],
            "cards": {**CARDS, **(cards or {})}, "steps": steps}


def ran(data: dict[str, Any]) -> RunResult:
    return run(loads(yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False), "wm.yaml"))


def choose(gear: str) -> dict[str, Any]:
    return {"choose": {"player": "Ann", "item": "Armsmaster's Weaponmaster", "choice": gear}}


def test_weaponmaster_may_choose_each_equipment_with_equip_or_not_and_no_other_gear() -> None:
    result = ran(scenario([PLAY, PERFORM]))
    listed = {o.params["choice"] for o in engine.decision(result.model, result.final).options
              if o.transition.name == "choose-attachment"}
    assert listed == {"Longsword", "Banner"}


# (what happens, the steps before playing Armsmaster, the Equipment chosen, where each gear is attached
#  at the end, Ann's ready runes at the end, rules cited, rules not cited)
RUNS = [
    ("an Equipment without Equip stays where it is, nothing paid", [], "Banner",
     {"Longsword": None, "Banner": None}, 4, {"821.1.c.1", "821.1.c.4", "821.1.c.5"}, {"821.1.c.3", "434.4"}),
    ("an Equipment with Equip is paid for less one Power and attached", [], "Longsword",
     {"Longsword": "Armsmaster", "Banner": None}, 3, {"821.1.c.3", "434.4", "821.1.c.6"}, {"821.1.c.4"}),
    ("an Equipment taken from another unit detaches from it", EQUIP_GUARD, "Longsword",
     {"Longsword": "Armsmaster", "Banner": None}, 2, {"434.1.f", "821.1.c.3"}, {"821.1.c.4"}),
]


@pytest.mark.parametrize("what,before,gear,attached,ready,rules,not_rules", RUNS, ids=[r[0] for r in RUNS])
def test_weaponmaster_attaches_what_it_can_pay_for(what: str, before: list[Any], gear: str,
                                                   attached: dict[str, str | None], ready: int, rules: set[str],
                                                   not_rules: set[str]) -> None:
    result = ran(scenario([*before, PLAY, choose(gear), *PASSES]))
    assert result.error is None, result.error
    assert {g.name: g.attached_to for g in result.final.board if g.name in attached} == attached
    assert dict((p, r) for p, r, _ in result.final.runes)["Ann"] == ready
    found = {r for f in result.frames for n in f.node.walk() for r in n.rules}
    assert rules <= found and not (not_rules & found), (rules - found, not_rules & found)


def test_an_equipment_without_equip_attached_to_another_unit_stays_on_it() -> None:
    """A pasted state: Banner is attached to Guard; Weaponmaster chooses it and cannot pay (821.1.c.5)."""
    state = dict(ran(scenario([PLAY, PERFORM])).frames[-1].state)
    state["board"] = [{**u, "attached_to": "Guard"} if u["name"] == "Banner" else u for u in state["board"]]
    model, s, _ = state_io.state_from_json(state)
    assert model.might(s.permanent("Guard"), s) == 2  # Banner's Might Bonus while attached (718.4)
    out = engine.next_steps(model, engine.apply(model, s, "choose-attachment", {
        "player": "Ann", "item": "Armsmaster's Weaponmaster", "choice": "Banner"}).after)
    for player in ("Ann", "Bo"):
        out = engine.next_steps(model, engine.apply(model, out.state, "pass-priority", {"player": player}).after)
    assert out.state.permanent("Banner").attached_to == "Guard"


# -- every decision sequence -------------------------------------------------------------------------
def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """Only Equipment is chosen (821.1.c); one without Equip is never attached by Weaponmaster
    (821.1.c.4, 821.1.c.5), and nothing is paid for it."""
    if node.name == "choose-attachment" and not model.cards[node.after.permanent(node.params["choice"]).card].equipment:
        yield "Weaponmaster chose a gear without the Equipment tag (821.1.c)"
    banner_before, banner_after = node.before.permanent("Banner"), node.after.permanent("Banner")
    if banner_before and banner_after and banner_after.attached_to != banner_before.attached_to:
        yield "Banner, without Equip, was attached (821.1.c.4)"
    if node.name == "weaponmaster-no-equip-cost" and node.before.runes != node.after.runes:
        yield "something was paid for an Equipment without an Equip cost (821.1.c.4)"


def test_every_decision_sequence_chooses_only_equipment_and_never_attaches_one_without_equip(capsys: Any) -> None:
    model, start = rift_scenario.setup({"players": [{"name": "Ann", "runes": 6, "hand": ["Armsmaster"],
                                                     "base": ["Guard", "Longsword", "Banner", "Lantern"]},
                                                    {"name": "Bo"}], "cards": CARDS})
    ex, taken, wrong = explore_checked(model, start, 6, node_violations)
    with capsys.disabled():
        print(f"\n  Weaponmaster's Equipment, 2 players, depth 6: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("choose-attachment", "weaponmaster-attaches",
                                                       "weaponmaster-no-equip-cost")))
    assert not wrong, wrong[:5]
    assert taken["weaponmaster-attaches"] and taken["weaponmaster-no-equip-cost"]


# (what is wrong, the card, the field the refusal names, words in it)
BAD_CARDS = [
    ("the Equipment tag on a unit", {"type": "unit", "equipment": True}, "cards.Banner.equipment", "gear can have"),
    ("the Equipment tag not true or false", {"type": "gear", "equipment": "yes"}, "cards.Banner.equipment",
     "equipment is true"),
    ("a Might Bonus on gear that is no Equipment", {"type": "gear", "might_bonus": 1}, "cards.Banner.might_bonus",
     "equipment: true"),
]


@pytest.mark.parametrize("what,card,field,words", BAD_CARDS, ids=[b[0] for b in BAD_CARDS])
def test_a_malformed_equipment_is_refused_naming_its_place(what: str, card: dict[str, Any], field: str,
                                                           words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        ran(scenario([{"pass": "Ann"}], {"Banner": card}))
    assert field in str(err.value) and words in str(err.value), str(err.value)
