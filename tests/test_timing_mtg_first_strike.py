"""Magic's timing model: first strike (CR 702.7, 510.4): every decision sequence of a small combat
to a bounded depth, checked from the card pool and the trace alone; deliberately wrong models
caught; the keyword read in any spelling and written back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import TraceNode
from kb.timing.models.mtg import Magic, State
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.mtg import turn
from kb.timing.models.mtg.cards_io import card_json, parse_cards

DAMAGE = ("damage-to-creature", "damage-to-player")  # the notes of damage dealt (120.3e, 120.3a)

CARDS: dict[str, dict[str, Any]] = {
    "Duelist": {"type": "creature", "power": 2, "toughness": 1, "keywords": ["first strike"]},
    "Bear": {"type": "creature", "power": 2, "toughness": 2},
    "Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
}
FIRST = {n for n, c in CARDS.items() if "first strike" in c.get("keywords", [])}
DEPTH = 10


def setup(attackers: list[str] | None = None) -> tuple[Magic, State]:
    seats = [{"name": "Ann", "battlefield": attackers or ["Duelist", "Bear"], "hand": ["Shock"]},
             {"name": "Bo", "battlefield": ["Bear", "Duelist"], "hand": ["Shock"]}]
    return mtg_scenario.setup({"players": seats, "cards": CARDS, "start": {"step": "declare-attackers", "turn": 3},
                               "edition": "2026-01-16"})  # type: ignore[return-value]


def _card(s: State, name: str) -> str:
    u = next((u for u in s.board if u.name == name), None)
    return u.card if u is not None else name


def node_violations(model: Magic, node: TraceNode) -> Iterator[str]:
    """As a combat damage step begins with a creature with first strike in combat, only creatures
    with first strike deal combat damage, and the next step is a second combat damage step where
    only those without it deal theirs; with none, one step where every creature does (510.4,
    702.7b). Every step gives priority (510.3): the damage is dealt as the step begins."""
    if node.name != "begin-step" or node.before.step != "combat-damage":
        return
    before = node.before
    in_combat = [u for u in before.board if u.attacking or u.blocking is not None]
    dealers = {_card(before, n.params["source"]) for n in node.walk() if n.name in DAMAGE}
    first = before.damage_step == 0 and any(u.card in FIRST for u in in_combat)
    second = before.damage_step == 1
    if first and dealers - FIRST:
        yield f"{sorted(dealers - FIRST)} dealt combat damage in the first-strike step (510.4)"
    if second and dealers & FIRST:
        yield f"{sorted(dealers & FIRST)} dealt combat damage again in the second step (510.4)"
    if node.after.damage_step != (1 if first else 2 if second else 0):
        yield f"the step after this one is wrong: damage_step {node.after.damage_step} (510.4)"


def step_violations(model: Magic, node: TraceNode) -> Iterator[str]:
    yield from node_violations(model, node)
    if node.name == "step-ends" and node.before.step == "combat-damage":
        want = "combat-damage" if node.before.damage_step == 1 else "end-of-combat"
        if node.after.step != want:
            yield f"after combat damage step {node.before.damage_step} came {node.after.step}, not {want} (510.4)"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, step_violations)


def test_every_decision_sequence_keeps_first_strike(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  first strike, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("first-strike-damage-step", "second-combat-damage-step",
                                                      "combat-damage-step", *DAMAGE)))
    assert not wrong, wrong[:5]
    for name in ("first-strike-damage-step", "second-combat-damage-step", "combat-damage-step"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_without_the_second_step_is_caught(monkeypatch: Any) -> None:
    """Wrong: after the first-strike step the combat goes on to its end (no second step)."""
    right = turn.advance_step

    def no_second(m: Magic, s: State, p: Any, t: Any) -> State:
        return right(m, replace(s, damage_step=0) if s.damage_step == 1 else s, p, t)
    monkeypatch.setattr(turn, "advance_step", no_second)
    assert any("not combat-damage (510.4)" in v for v in _explore()[2])


def test_a_model_where_everyone_deals_damage_in_the_first_step_is_caught(monkeypatch: Any) -> None:
    """Wrong: every creature deals combat damage in the first-strike step."""
    right = Magic._combat_damage
    monkeypatch.setattr(Magic, "_combat_damage", lambda self, s, t, step=0, divided=None:
                        right(self, s, t, 0 if step == 1 else step, divided))
    assert any("in the first-strike step" in v for v in _explore()[2])


@pytest.mark.parametrize("written", ["first strike", "First Strike", "first-strike"])
def test_first_strike_is_read_in_any_spelling_and_written_back(written: str) -> None:
    card = parse_cards({"Duelist": {**CARDS["Duelist"], "keywords": [written]}})["Duelist"]
    assert card.first_strike
    assert parse_cards({"Duelist": card_json(card)})["Duelist"] == card
