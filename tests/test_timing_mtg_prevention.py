"""Prevention effects in the Magic timing model (615): "prevent the next N damage that would be
dealt to any target this turn" is a shield on a creature or a player, used as the damage would
be dealt. Every decision sequence up to a bounded depth keeps what the rules say, computed from
the states and the trace alone; a model that ignores shields is caught; bad input is refused
with its place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.mtg import Magic, State
from kb.timing.models.mtg import scenario as mtg_scenario

DAMAGE = ("damage-to-creature", "damage-to-player")  # the notes of damage dealt (120.3e, 120.3a)

CARDS = {
    "Lightning Bolt": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 3}}]},
    "Healing Salve": {"type": "instant", "target": "any", "effects": [{"prevent": {"to": "target", "amount": 3}}]},
    "Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
    "Jackal Pup": {"type": "creature", "power": 2, "toughness": 1, "triggers": [
        {"on": "dealt-damage", "name": "Jackal Pup's ability", "effects": [{"damage": {"to": "you", "amount": "that"}}]}]},
}


def setup(players: int) -> tuple[Magic, State]:
    """Bo's Jackal Pup starts with a shield of 2 (a Healing Salve of earlier this turn, partly used)."""
    seats = [{"name": "Ann", "hand": ["Lightning Bolt", "Shock", "Healing Salve"]},
             {"name": "Bo", "hand": ["Healing Salve", "Shock"], "battlefield": ["Jackal Pup"]},
             {"name": "Cy", "hand": ["Healing Salve"]}]
    model, state = mtg_scenario.setup({"players": seats[:players], "cards": CARDS, "edition": "2026-01-16",
                                       "start": {"step": "main1", "turn": 3}})
    return model, replace(state, board=tuple(replace(u, prevention=2) for u in state.board))  # type: ignore[return-value]


def _shield(s: State, to: str) -> int:
    u = s.permanent(to)
    return u.prevention if u is not None else dict(s.prevention).get(to, 0)


def violations(model: Magic, node: TraceNode) -> Iterator[str]:
    """What 615 says, from the states and the trace: damage to a creature or player with a shield
    is reduced by it first; the shield falls by exactly what it prevented; damage all prevented
    is no damage event, so nothing triggers on it (615.6, 120.8)."""
    if node.transition.kind == "step":
        return
    walk = list(node.walk())
    shields = Counter({to: _shield(node.before, to) for to in (*node.before.players,
                                                              *(u.name for u in node.before.board))})
    for c in walk:
        if c.name == "prevent":
            shields[c.params["to"]] += c.params["amount"]
        elif c.name == "damage-prevented":
            p = c.params
            if p["prevented"] != min(shields[p["to"]], p["amount"]) or p["prevented"] + p["dealt"] != p["amount"]:
                yield f"{p['to']}'s shield of {shields[p['to']]} prevented {p['prevented']} of {p['amount']} (615.7)"
            shields[p["to"]] -= p["prevented"]
        elif c.name in DAMAGE and shields[c.params["to"]] > 0:
            yield f"{c.params['to']} was dealt damage through a shield of {shields[c.params['to']]} (615.7)"
    damaged = {c.params["to"] for c in walk if c.name in DAMAGE}
    for c in walk:
        if c.name == "triggers" and c.params.get("item") == "Jackal Pup's ability" and "Jackal Pup" not in damaged:
            yield "Jackal Pup's ability triggered though no damage was dealt to it (615.6, 120.8)"
    if any(c.name == "cleanup-step" for c in walk):  # "this turn" ends: every shield goes (514.2)
        shields = Counter()
    for to in (*node.after.players, *(u.name for u in node.after.board)):
        if _shield(node.after, to) != shields[to]:
            yield f"{to}'s shield is {_shield(node.after, to)} where what was set and used leaves {shields[to]} (615.7)"


CASES = [(2, 6), (3, 5)]  # about 20 000 and 12 000 states


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_prevention_shields_keep_their_rules_in_every_decision_sequence(players: int, depth: int, capsys: Any) -> None:
    stats, seen, broken = explore_checked(*setup(players), depth, violations)
    with capsys.disabled():
        print(f"\n  prevention shields, {players} players, depth {depth}: {stats.states} states visited; "
              f"prevent {seen['prevent']}, damage-prevented {seen['damage-prevented']}, "
              + ", ".join(f"{n} {seen[n]}" for n in DAMAGE))
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    assert seen["prevent"] and seen["damage-prevented"] and all(seen[n] for n in DAMAGE)


class IgnoresShields(Magic):
    """A deliberately wrong model: damage is dealt whatever the shield."""

    def _prevented(self, s: State, t: Any, source: str, to: str, amount: int) -> tuple[State, int]:
        return s, amount


def test_a_model_that_deals_damage_through_a_shield_is_caught() -> None:
    model, state = setup(2)
    _, _, broken = explore_checked(IgnoresShields(model.cards, model.edition), state, 3, violations)
    assert any("(615.7)" in b for b in broken)


@pytest.mark.parametrize("effect,field", [
    ({"prevent": {"to": "target"}}, "cards.X.effects[0].prevent.amount"),
    ({"prevent": {"to": "target", "amount": 0}}, "cards.X.effects[0].prevent.amount"),
    ({"prevent": {"to": "target", "amount": 3, "from": "Bo"}}, "cards.X.effects[0].prevent"),
    ({"prevent": 3}, "cards.X.effects[0].prevent"),
], ids=["no amount", "zero", "an unknown key", "not a mapping"])
def test_a_malformed_prevention_instruction_names_its_place(effect: dict[str, Any], field: str) -> None:
    with pytest.raises(FormatError) as err:
        mtg_scenario.setup({"players": ["Ann", "Bo"], "cards": {"X": {"type": "instant", "target": "any",
                                                                       "effects": [effect]}}})
    assert err.value.field == field, err.value
