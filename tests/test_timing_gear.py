"""Riftbound's timing model: Gear attached to units (Core Rules 1.4, 716-719, 818), and the
refusals of the cards it cannot read: an unknown instruction is answered with the nearest known
one, as Magic's is (kb.timing.fields.nearest_instruction)."""

from __future__ import annotations

import pytest

from kb.timing.engine import FormatError
from kb.timing.models.riftbound.cards import parse_cards

UNKNOWN_INSTRUCTIONS = [
    ({"drwa": 1}, "unknown instruction 'drwa', did you mean 'draw'? (expected one of: draw, counter, kill, "),
    ({"kil": "target"}, "unknown instruction 'kil', did you mean 'kill'?"),
    ({"deal_damage": {"unit": "target", "amount": 2}}, "unknown instruction 'deal_damage', did you mean 'deal'?"),
    ({"scry": 2}, "unknown instruction 'scry' (expected one of: draw, counter, kill, "),
]


@pytest.mark.parametrize("effect,words", UNKNOWN_INSTRUCTIONS)
def test_an_unknown_instruction_is_refused_with_the_nearest_known_one(effect: dict, words: str) -> None:
    with pytest.raises(FormatError) as refused:
        parse_cards({"Bolt": {"type": "spell", "effects": [effect]}})
    assert words in str(refused.value)
    assert refused.value.field == "cards.Bolt.effects[0]"


# -- Equip (818): every decision sequence to a bounded depth ----------------------------------------
from collections.abc import Iterator  # noqa: E402
from dataclasses import replace  # noqa: E402
from typing import Any  # noqa: E402

from exploring import explore_checked, with_options  # noqa: E402
from kb.timing import engine  # noqa: E402
from kb.timing.engine import TraceNode  # noqa: E402
from kb.timing.models import get_model  # noqa: E402
from kb.timing.models.riftbound import Riftbound, State, attaching, costs, scenario, triggers  # noqa: E402
from kb.timing.models.riftbound.resources import FREE  # noqa: E402
from kb.timing.models.riftbound.cards import card_json, equip_ability  # noqa: E402
from kb.timing.scenario import ScenarioError, loads, run  # noqa: E402

CARDS: dict[str, dict[str, Any]] = {
    "Scout": {"type": "unit", "might": 2},
    "Guard": {"type": "unit", "might": 1},
    "Longsword": {"type": "gear", "equip": 1, "might_bonus": 2},
    "Doom": {"type": "spell", "effects": [{"kill": "target"}]},
    "Snuff": {"type": "spell", "keywords": ["Reaction"], "effects": [{"kill": "target"}]},
}
# Ann may equip either of her units, move them to Temple (hers, Guard there) and kill her own
# unit with Doom; Bo may answer any chain by killing one with Snuff.
SEATS = [{"name": "Ann", "hand": ["Doom"], "runes": 2, "base": ["Scout", "Longsword"]},
         {"name": "Bo", "hand": ["Snuff"]}]
FIELDS = [{"name": "Temple", "controller": "Ann", "units": {"Ann": ["Guard"]}}]
DEPTH = 8
EQUIP = equip_ability("Longsword")


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS, "battlefields": FIELDS})  # type: ignore[return-value]


def _ready(s: State, player: str) -> int:
    return next((r for p, r, _ in s.runes if p == player), 0)


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps, from the pool and the states alone: gear is attached only to a
    unit on the board, at that unit's location (719.3, 719.5); a unit's Might is its printed
    Might plus what it was given plus each attached gear's Might Bonus (718.4); no unattached
    gear is left at a battlefield by a cleanup (323.7); Equip chooses a unit its controller
    controls, in an open state on its controller's turn (818.1.c.2, 381), costs its Equip cost as
    it is finalized (818.1.c.3) and attaches as it resolves if its unit is still legal (818.1.b)."""
    before, after = node.before, node.after
    if node.transition.kind == "step":  # a note inside a transition: the states are its own
        return
    units = {u.name: u for u in after.board if CARDS[u.card]["type"] == "unit"}
    for g in after.board:
        if g.attached_to is None:
            continue
        if g.attached_to not in units:
            yield f"{g.name} is attached to {g.attached_to}, which is no unit on the board (719.5)"
        elif g.location != units[g.attached_to].location:
            yield f"{g.name} is at {g.location}, not where {g.attached_to} is (719.3.a)"
    for u in units.values():
        bonus = sum(CARDS[g.card].get("might_bonus", 0) for g in after.board if g.attached_to == u.name)
        if model.might(u, after) != CARDS[u.card]["might"] + u.might_bonus + bonus:
            yield f"{u.name}'s Might {model.might(u, after)} leaves out its gear's Might Bonus {bonus} (718.4)"
    if node.name == "cleanup":
        for g in after.board:
            if CARDS[g.card]["type"] == "gear" and g.attached_to is None and g.location != "base":
                yield f"{g.name}, unattached, is still at {g.location} after a cleanup (323.7)"
    if node.name == "activate" and node.params["ability"] == EQUIP:
        target = before.permanent(node.params["target"])
        if target is None or target.controller != node.params["player"] or target.gear:
            yield f"Equip chose {node.params['target']}, not a unit its controller controls (818.1.c.2)"
        if before.chain or before.turn_player != node.params["player"]:
            yield "Equip was activated on a chain or on another player's turn (381)"
    if node.name == "finalize" and node.params["item"] == EQUIP:
        paid = _ready(before, node.params["player"]) - _ready(after, node.params["player"])
        if paid != CARDS["Longsword"]["equip"]:
            yield f"Equip was finalized paying {paid}, not its Equip cost (818.1.c.3)"
    if node.name == "resolve" and node.params["item"] == EQUIP:
        item = next(i for i in before.chain if i.id == node.params["id"])
        target, gear = before.permanent(item.target or ""), after.permanent("Longsword")
        if (target is not None and target.controller == item.controller and before.permanent("Longsword")
                and (gear is None or gear.attached_to != target.name)):
            yield f"Equip resolved with {target.name} still legal but Longsword is not attached to it (818.1.b)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """Each unit its controller controls is listed as an Equip target when the gear is theirs."""
    d = engine.decision(model, s)
    if d is None:
        return
    listed = {o.params.get("target") for o in d.options + d.illegal
              if o.transition.name == "activate" and o.params.get("ability") == EQUIP}
    mine = {u.name for u in s.board if u.controller == d.decider and not u.gear}
    if s.permanent("Longsword") is not None and s.priority == d.decider == "Ann" and not s.pending and mine - listed:
        yield f"{sorted(mine - listed)} not listed as targets of {EQUIP}"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, with_options(node_violations, option_violations))


STEPS = ("equip-attaches", "equip-reattaches", "instruction-skipped", "gear-detaches", "gear-recalled",
         "standard-move")


def test_every_decision_sequence_keeps_equip(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Equip, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in STEPS))
    assert not wrong, wrong[:5]
    for name in ("activate", "resolve", "standard-move"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def _carrying_nothing(s: State, name: str, **changes: Any) -> State:
    return replace(s, board=tuple(replace(x, **changes) if x.name == name else x for x in s.board))


def test_a_model_whose_gear_stays_behind_when_its_unit_moves_is_caught(monkeypatch: Any) -> None:
    """Wrong: a unit's Standard Move leaves its attached gear where it was."""
    monkeypatch.setattr(triggers, "with_permanent", _carrying_nothing)
    assert any("719.3.a" in v for v in _explore()[2])


def test_a_model_whose_gear_stays_attached_to_a_dead_unit_is_caught(monkeypatch: Any) -> None:
    """Wrong: gear attached to a unit that left the board does not detach."""
    monkeypatch.setattr(attaching, "detach_from_gone", lambda s, t: s)
    assert any("719.5" in v for v in _explore()[2])


def test_a_model_that_leaves_unattached_gear_at_a_battlefield_is_caught(monkeypatch: Any) -> None:
    """Wrong: the cleanup does not recall a detached gear left at a battlefield."""
    monkeypatch.setattr(attaching, "recall_unattached", lambda s, t: s)
    assert any("323.7" in v for v in _explore()[2])


def test_a_model_without_the_might_bonus_is_caught(monkeypatch: Any) -> None:
    """Wrong: an equipped unit's Might leaves out its gear's Might Bonus."""
    right = Riftbound.might
    monkeypatch.setattr(Riftbound, "might", lambda self, u, s: right(self, u, s) - sum(
        self.cards[g.card].might_bonus for g in s.board if g.attached_to == u.name))
    assert any("718.4" in v for v in _explore()[2])


def test_a_model_whose_equip_costs_nothing_is_caught(monkeypatch: Any) -> None:
    """Wrong: Equip's cost is not paid as it is finalized."""
    right = costs.printed_cost
    monkeypatch.setattr(costs, "printed_cost", lambda m, s, item: FREE if item.name == EQUIP else right(m, s, item))
    assert any("818.1.c.3" in v for v in _explore()[2])


# -- what a scenario and a state may say ------------------------------------------------------------
SCENARIO = """
name: A gear with Equip.
ruleset: riftbound
players: [{name: Ann, runes: 1, base: [Scout, Sword]}, {name: Bo, base: [Brute]}]
cards:
  Scout: {type: unit, might: 2}
  Brute: {type: unit, might: 3}
  Sword: %s
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("card,says", [
    ("{type: gear, keywords: [Equip]}", "Equip is written with its cost: equip: COST"),
    ("{type: unit, equip: 1}", "Equip is present on gear (818.1.a)"),
    ("{type: gear, might_bonus: 2}", "only gear with equip: COST has one"),
    ("{type: gear, equip: {energy: 1, rune: 2}}", "cards.Sword.equip"),
    ("{type: gear, equip: 1, might_bonus: -1}", "cards.Sword.might_bonus"),
    ("{type: gear, keywords: [Quick-Draw]}", "Quick-Draw is present on gear with Equip (819.1.a)"),
    ("{type: unit, keywords: [Weaponmaster], equip: 1}", "Equip is present on gear (818.1.a)"),
    ("{type: gear, keywords: [Weaponmaster], equip: 1}", "Weaponmaster is present on units (821.1.a)"),
    ("{type: gear, equip: 1, triggers: [{on: play, effects: [{attach: chosen}, {draw: 1}]}]}",
     "attach: chosen is the only instruction of a gear's triggered ability"),
    ("{type: gear, equip: 1, triggers: [{on: play, effects: [{attach_equipment: target}]}]}", "attach_equipment: chosen"),
])
def test_a_malformed_equip_is_refused_with_its_place(card: str, says: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % card, "f.yaml"))
    assert says in str(err.value) and "cards.Sword" in str(err.value), str(err.value)


@pytest.mark.parametrize("target,rule", [("Brute", "818.1.c.2"), (None, "818.1.b.1"), ("Sword", "818.1.c.2")])
def test_equip_chooses_a_unit_its_controller_controls(target: str | None, rule: str) -> None:
    action = "{player: Ann, ability: Sword's Equip" + (f", target: {target}" if target else "") + "}"
    text = (SCENARIO % "{type: gear, equip: 1}").replace(
        "  - pass: Ann", f"  - expect_illegal: {{activate: {action}, rule: \"{rule}\"}}")
    result = run(loads(text, "f.yaml"))
    assert result.error is None and all(e.ok for e in result.expectations), result.expectations


def test_an_equipment_card_and_an_attached_gear_read_back_as_written() -> None:
    pool = parse_cards(CARDS)
    again = parse_cards({name: card_json(c) for name, c in pool.items()})
    assert again == pool and again["Longsword"].equip is not None and "Equip" in again["Longsword"].keywords
    model = get_model("riftbound")
    state = {"players": ["Ann", "Bo"], "cards": CARDS,
             "board": [{"name": "Scout", "controller": "Ann", "location": "Temple"},
                       {"name": "Longsword", "controller": "Ann", "location": "Temple", "attached_to": "Scout"}],
             "battlefields": [{"name": "Temple", "controller": "Ann"}]}
    rift, s, _ = model.state_from_json(state, None)
    assert s.permanent("Longsword").attached_to == "Scout" and s.permanent("Longsword").gear
    assert model.state_json(rift, s)["board"][1] == {**state["board"][1], "card": "Longsword"}


@pytest.mark.parametrize("gear,says,where", [
    ({"attached_to": "Nobody"}, "only gear is attached, to a unit on the board", "board[1].attached_to"),
    ({"attached_to": "Longsword"}, "only gear is attached, to a unit on the board", "board[1].attached_to"),
    ({"attached_to": "Scout", "location": "base"}, "an attached gear is where its unit is: Temple", "board[1].location"),
])
def test_a_pasted_state_with_an_impossible_attachment_is_refused(gear: dict[str, Any], says: str, where: str) -> None:
    state = {"players": ["Ann", "Bo"], "cards": CARDS,
             "board": [{"name": "Scout", "controller": "Ann", "location": "Temple"},
                       {"name": "Longsword", "controller": "Ann", "location": "Temple", **gear}],
             "battlefields": [{"name": "Temple", "controller": "Ann"}]}
    with pytest.raises(FormatError) as err:
        get_model("riftbound").state_from_json(state, None)
    assert says in str(err.value) and err.value.field == where, (str(err.value), err.value.field)


def test_timing_next_lists_an_equip_for_each_unit_its_player_controls_saying_which() -> None:
    model, s = setup()
    d = engine.advance(model, s).decision
    assert d is not None
    equips = sorted(o.transition.label(o.params) for o in d.options
                    if o.transition.name == "activate" and o.params.get("ability") == EQUIP)
    assert equips == ["Ann activates Longsword's Equip choosing Guard", "Ann activates Longsword's Equip choosing Scout"]
