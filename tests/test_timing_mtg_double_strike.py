"""Magic's timing model: double strike (CR 702.4, 510.4): every decision sequence of a small
combat to a bounded depth, checked from the card pool and the trace alone; deliberately wrong
models caught; the keyword read in any spelling and written back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import TraceNode
from kb.timing.models.mtg import Magic, State
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.mtg.cards_io import card_json, parse_cards

DAMAGE = ("damage-to-creature", "damage-to-player")  # the notes of damage dealt (120.3e, 120.3a)

CARDS: dict[str, dict[str, Any]] = {
    "Paladin": {"type": "creature", "power": 2, "toughness": 2, "keywords": ["double strike"]},
    "Duelist": {"type": "creature", "power": 1, "toughness": 3, "keywords": ["first strike"]},
    "Bear": {"type": "creature", "power": 2, "toughness": 2},
    "Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
}
DOUBLE = {n for n, c in CARDS.items() if "double strike" in c.get("keywords", [])}
FIRST = {n for n, c in CARDS.items() if "first strike" in c.get("keywords", [])}
DEPTH = 10


def setup() -> tuple[Magic, State]:
    seats = [{"name": "Ann", "battlefield": ["Paladin", "Bear"], "hand": ["Shock"]},
             {"name": "Bo", "battlefield": ["Duelist", "Paladin"], "hand": ["Shock"]}]
    return mtg_scenario.setup({"players": seats, "cards": CARDS, "start": {"step": "declare-attackers", "turn": 3},
                               "edition": "2026-01-16"})  # type: ignore[return-value]


def _card(s: State, name: str) -> str:
    u = next((u for u in s.board if u.name == name), None)
    return u.card if u is not None else name


def _has_a_recipient(s: State, name: str) -> bool:
    """A creature in combat that combat damage would be assigned by: unblocked, blocked by a
    creature still there, or blocking an attacker still there (510.1b-c)."""
    u = next(u for u in s.board if u.name == name)
    if u.attacking:
        return not u.blocked or any(b.blocking == u.id for b in s.board)
    return any(a.id == u.blocking for a in s.board if a.attacking)


def node_violations(model: Magic, node: TraceNode) -> Iterator[str]:
    """With a creature with first strike or double strike in combat as the combat damage step
    begins, only those deal combat damage; the second step's dealers are the creatures with
    neither and those with double strike, and every double striker there with someone to deal
    damage to deals it (510.4, 702.4b)."""
    if node.name != "begin-step" or node.before.step != "combat-damage":
        return
    before = node.before
    in_combat = [u for u in before.board if u.attacking or u.blocking is not None]
    dealers = {_card(before, n.params["source"]) for n in node.walk() if n.name in DAMAGE}
    first = before.damage_step == 0 and any(u.card in FIRST | DOUBLE for u in in_combat)
    second = before.damage_step == 1
    if first and dealers - FIRST - DOUBLE:
        yield f"{sorted(dealers - FIRST - DOUBLE)} dealt combat damage in the first step (510.4)"
    if second and dealers & FIRST - DOUBLE:
        yield f"{sorted(dealers & FIRST - DOUBLE)} dealt combat damage again in the second step (702.7b)"
    if second:
        dealt_by = {n.params["source"] for n in node.walk() if n.name in DAMAGE}
        for u in in_combat:
            if u.card in DOUBLE and _has_a_recipient(before, u.name) and u.name not in dealt_by:
                yield f"{u.name} has double strike and dealt no combat damage in the second step (702.4b)"
    if node.after.damage_step != (1 if first else 2 if second else 0):
        yield f"the step after this one is wrong: damage_step {node.after.damage_step} (510.4)"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, node_violations)


def test_every_decision_sequence_keeps_double_strike(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  double strike, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("double-strike-first", "double-strike-second",
                                                      "first-strike-damage-step", "second-combat-damage-step",
                                                      *DAMAGE)))
    assert not wrong, wrong[:5]
    for name in ("double-strike-first", "double-strike-second", "second-combat-damage-step"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_where_double_strike_is_only_first_strike_is_caught(monkeypatch: Any) -> None:
    """Wrong: a double striker deals damage in the first step only."""
    monkeypatch.setattr(Magic, "_double_strikes", lambda self, u: False)
    assert any("dealt no combat damage in the second step" in v for v in _explore()[2])


def test_a_model_where_double_strike_makes_no_first_step_is_caught(monkeypatch: Any) -> None:
    """Wrong: only first strike makes a first combat damage step; a double striker deals its
    damage with everyone."""
    def only_first_strike(self: Magic, u: Any) -> bool:
        card = self.card_of(u)
        return card is not None and card.first_strike
    monkeypatch.setattr(Magic, "_first_strikes", only_first_strike)
    assert any("(510.4)" in v for v in _explore()[2])


@pytest.mark.parametrize("written", ["double strike", "Double Strike", "double-strike"])
def test_double_strike_is_read_in_any_spelling_and_written_back(written: str) -> None:
    card = parse_cards({"Paladin": {**CARDS["Paladin"], "keywords": [written]}})["Paladin"]
    assert card.double_strike and not card.first_strike
    assert parse_cards({"Paladin": card_json(card)})["Paladin"] == card
