"""Riftbound's timing model: attaching as a card is played (Core Rules 1.4, 819 Quick-Draw,
821 Weaponmaster, 402.2, 740.4.a.2.a): every decision sequence of a small pool to a bounded
depth, checked from the pool and the states alone, deliberately wrong models caught, ``timing
next``'s choices, and a card written back as a state writes it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked, with_options
from kb.timing import engine
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, costs, play_attaching, scenario
from kb.timing.models.riftbound.cards import card_json, parse_cards
from kb.timing.models.riftbound.resources import Cost

CARDS: dict[str, dict[str, Any]] = {
    "Scout": {"type": "unit", "might": 2},
    "Armsmaster": {"type": "unit", "might": 1, "cost": 1, "keywords": ["Weaponmaster"]},
    "Rapier": {"type": "gear", "cost": 1, "keywords": ["Quick-Draw"], "equip": 2, "might_bonus": 2},
    "Longsword": {"type": "gear", "equip": {"energy": 1, "power": 1}, "might_bonus": 1},
    "Snuff": {"type": "spell", "keywords": ["Reaction"], "effects": [{"kill": "target"}]},
    "Jab": {"type": "spell", "keywords": ["Reaction"], "effects": [{"deal": {"unit": "target", "amount": 3}}]},
}
# Ann may play her Weaponmaster unit and her Quick-Draw gear (on Bo's chain too); Bo may kill a
# unit or damage it with Reactions, on Ann's chains and his own.
SEATS = [{"name": "Ann", "hand": ["Armsmaster", "Rapier"], "runes": 3, "base": ["Scout", "Longsword"]},
         {"name": "Bo", "hand": ["Jab", "Snuff"], "runes": 0}]
DEPTH = 9
QUICK_DRAW, WEAPONMASTER = "Rapier's Quick-Draw", "Armsmaster's Weaponmaster"


def setup(cards: dict[str, Any] | None = None) -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": cards or CARDS})  # type: ignore[return-value]


def _spent(before: State, after: State, player: str) -> int:
    """Energy and Power a player spent between two states (pool and runes)."""
    def worth(s: State) -> int:
        pool = costs.pool_of(s, player)
        ready, exhausted = costs.runes_of(s, player)
        return pool.energy + pool.power + 2 * ready + exhausted
    return worth(before) - worth(after)


def less_one_power(cost: Cost) -> Cost:
    """An Equip cost reduced by [A], worked out here rather than by the model (821.1.c.3)."""
    return Cost(cost.energy, max(0, cost.power - 1))


def _item(s: State, node: TraceNode) -> Any:
    return next((i for i in s.chain if i.id == node.params.get("id")), None)


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: an attaching play effect is finalized only with its choice made
    (402.2), a unit its controller controls for Quick-Draw (819.1.d) and their Equipment for
    Weaponmaster (821.1.c), or leaves the chain when there is none (402.4); Quick-Draw attaches
    its gear to that unit as it resolves when both are still there (819.1.d) and otherwise leaves
    the gear as it was (359.3.e.6); Weaponmaster pays the Equip cost less one Power as it resolves
    and attaches the Equipment to its unit (821.1.c, 821.1.c.3), or leaves it where it was
    (821.1.c.5)."""
    before, after = node.before, node.after
    if node.transition.kind == "step":
        return
    if node.name == "choose-attachment":
        item = before.pending[0]
        chosen = before.permanent(node.params["choice"])
        if chosen is None or chosen.controller != item.controller:
            yield f"{item.name} chose {node.params['choice']}, which its controller does not control (402.2)"
        elif chosen.gear != (item.name == WEAPONMASTER):
            yield f"{item.name} chose {chosen.name}: Quick-Draw chooses a unit, Weaponmaster an Equipment"
    item = _item(before, node)
    if item is None or item.name not in (QUICK_DRAW, WEAPONMASTER):
        return
    if node.name == "finalize" and item.target is None:
        yield f"{item.name} was finalized without its choice (402.2)"
    if node.name == "trigger-removed" and play_attaching.choices(model, before, item):
        yield f"{item.name} left the chain though it had choices (402.4)"
    if node.name != "resolve":
        return
    gear_name = "Rapier" if item.name == QUICK_DRAW else item.target
    unit_name = item.target if item.name == QUICK_DRAW else "Armsmaster"
    gear, unit = before.permanent(gear_name or ""), before.permanent(unit_name or "")
    gear_after = after.permanent(gear_name or "")
    can = gear is not None and unit is not None and unit.controller == item.controller
    if item.name == WEAPONMASTER and can:
        can = costs.can_pay(before, item.controller, less_one_power(model.cards[gear.card].equip))
    if can and (gear_after is None or gear_after.attached_to != unit_name):
        yield f"{item.name} resolved with {gear_name} and {unit_name} there but did not attach it (819.1.d, 821.1.c)"
    if not can and gear is not None and gear_after is not None and gear_after.attached_to != gear.attached_to:
        yield f"{item.name} could not attach {gear_name} but moved it from {gear.attached_to} (821.1.c.5, 359.3.e.6)"
    if item.name == WEAPONMASTER:
        want = less_one_power(model.cards[gear.card].equip) if can and gear is not None else None
        spent = _spent(before, after, item.controller)
        if want is not None and spent != want.energy + want.power:
            yield f"Weaponmaster spent {spent} for an Equip cost less one Power of {want} (821.1.c.3)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """While an attaching choice is due, it is the only decision (402.2), one option for each
    choice; Quick-Draw's gear may be played on a chain, having Reaction (819.1.b)."""
    d = engine.decision(model, s)
    if d is None:
        return
    due = play_attaching.due(model, s)
    legal = [o for o in d.options if o.transition.name != "concede"]
    if due is not None:
        listed = {o.params["choice"] for o in legal if o.transition.name == "choose-attachment"}
        if listed != set(play_attaching.choices(model, s, due)) or len(listed) != len(legal):
            yield f"{due.name}'s choice is due, but the options are {[o.label for o in legal]} (402.2)"
    hand = s.hand("Ann") or ()
    if (s.chain and s.priority == "Ann" and not s.pending and "Rapier" in hand
            and costs.can_pay(s, "Ann", model.cards["Rapier"].cost)
            and not any(o.transition.name == "play" and o.params.get("card") == "Rapier" for o in legal)):
        yield "Ann may not play Rapier on a chain, though Quick-Draw gives it Reaction (819.1.b)"


def _explore(model: Riftbound | None = None) -> tuple[Any, Any, list[str]]:
    m, start = setup()
    return explore_checked(model or m, start, DEPTH, with_options(node_violations, option_violations))


STEPS = ("choose-attachment", "quick-draw-attaches", "weaponmaster-pays", "weaponmaster-attaches",
         "weaponmaster-stays", "equip-reattaches", "instruction-skipped", "trigger-removed", "decline-trigger")


def test_every_decision_sequence_keeps_attaching_as_played(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Quick-Draw and Weaponmaster, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in STEPS))
    assert not wrong, wrong[:5]
    for name in ("choose-attachment", "quick-draw-attaches", "weaponmaster-attaches", "weaponmaster-stays",
                 "instruction-skipped"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_whose_quick_draw_gear_has_no_reaction_is_caught() -> None:
    """Wrong: Quick-Draw's gear is played at its own timing only (819.1.b)."""
    model, _ = setup()
    cards = dict(model.cards)
    cards["Rapier"] = replace(cards["Rapier"], keywords=cards["Rapier"].keywords - {"Reaction"})
    assert any("819.1.b" in v for v in _explore(Riftbound(cards))[2])


def test_a_model_whose_weaponmaster_pays_the_whole_equip_cost_is_caught(monkeypatch: Any) -> None:
    """Wrong: the Equip cost is not reduced by [A] (821.1.c, 821.1.c.3)."""
    monkeypatch.setattr(play_attaching, "reduced", lambda cost: cost)
    assert any("821.1.c.3" in v for v in _explore()[2])


def test_a_model_that_finalizes_the_play_effect_without_its_choice_is_caught(monkeypatch: Any) -> None:
    """Wrong: the unit or Equipment is not chosen as the play effect is finalized (402.2)."""
    monkeypatch.setattr(play_attaching, "awaits_choice", lambda item: False)
    assert any("402.2" in v for v in _explore()[2])


# -- timing next, and a card written back ---------------------------------------------------------
def test_next_lists_one_choice_for_each_unit_and_nothing_else() -> None:
    model, s = setup()
    s = engine.advance(model, s, with_illegal=False).state
    s = engine.apply(model, s, "play", {"player": "Ann", "card": "Rapier"}).after
    s = engine.advance(model, s, with_illegal=False).state
    d = engine.decision(model, s)
    assert d is not None and d.decider == "Ann"
    legal = sorted((o.transition.name, o.params.get("choice")) for o in d.options if o.transition.name != "concede")
    assert legal == [("choose-attachment", "Scout")]
    chosen = next(o for o in d.options if o.transition.name == "choose-attachment")
    assert scenario.option_action(chosen) == {"choose": {"player": "Ann", "item": QUICK_DRAW, "choice": "Scout"}}


@pytest.mark.parametrize("name", ["Rapier", "Armsmaster"])
def test_a_card_with_quick_draw_or_weaponmaster_is_written_back_as_it_was_read(name: str) -> None:
    card = parse_cards({name: CARDS[name]})[name]
    assert parse_cards({name: card_json(card)})[name] == card
    assert "triggers" not in card_json(card)  # the keyword's play effect is its keyword
