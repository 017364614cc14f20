"""Every decision sequence up to a bounded depth, with 2 and 3 players and a small card pool,
keeps Magic's timing invariants. The engine checks the model's own invariants and state
validity after every step; this test checks the same properties again, independently (from
the trace and the card pool, without the model's helpers), on every node of every trace, and
makes sure the exploration reached the transitions those properties are about."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import InvariantBroken, TraceNode
from kb.timing.models import mtg_io
from kb.timing.models.mtg import Magic, State

CARDS = {
    "Bolt": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 3}}]},
    "Cancel": {"type": "instant", "target": "spell", "effects": [{"counter": "target"}]},
    "Bear": {"type": "creature", "power": 2, "toughness": 2, "cost": 1},
    "Pup": {"type": "creature", "power": 2, "toughness": 1,
            "triggers": [{"on": "dealt-damage", "name": "Pup's ability",
                          "effects": [{"damage": {"to": "you", "amount": "that"}}]}]},
    "Rot": {"type": "sorcery", "effects": [{"discard": "each"}]},
    "Forest": {"type": "land"},
    "Mine": {"type": "artifact", "triggers": [{"on": "beginning", "step": "upkeep", "whose": "each",
                                               "name": "Mine's ability", "effects": [{"draw": 1}]}]},
}

# (players, starting step, depth): from the main phase deep enough to cast, respond, counter,
# resolve, kill with a trigger and pay mana; from the end step through the next untap step,
# upkeep triggers and draw. Small enough to stay well under 30 s together.
CASES = [(2, "main1", 11), (3, "main1", 8), (2, "end", 16)]


def setup(players: int, step: str) -> tuple[Magic, State]:
    seats = [{"name": "Ann", "hand": ["Bolt", "Bear", "Rot", "Forest"], "battlefield": ["Pup", "Mine"]},
             {"name": "Bo", "hand": ["Cancel", "Bolt"], "battlefield": ["Forest"]},
             {"name": "Cy", "hand": ["Bolt"]}]
    return mtg_io.setup({"players": seats[:players], "cards": CARDS, "start": {"step": step}})


def sba_applies(model: Magic, s: State) -> bool:
    """A state-based action applies (704.5a, f, g; the legend rule does not arise here)."""
    for u in s.board:
        card = CARDS[u.card]
        if card["type"] == "creature" and (card["toughness"] + u.boost <= 0
                                           or u.damage >= card["toughness"] + u.boost):
            return True
    return any(life <= 0 for _, life in s.life)


def violations(model: Magic, node: TraceNode) -> Iterator[str]:
    before, after = node.before, node.after
    if after.priority is not None and after.priority not in after.players:
        yield "priority held by someone who is not a single player"
    if after.resolving is not None and after.priority is not None:
        yield "a player has priority while a spell or ability resolves"
    if after.step == "untap" and after.priority is not None:
        yield "a player has priority in the untap step"
    if node.name == "resolve" and (not before.stack or node.params["id"] != before.stack[-1].id):
        yield "something other than the top of the stack resolved"
    if node.name == "cast" and CARDS[node.params["card"]]["type"] != "instant":
        if before.stack or before.step not in ("main1", "main2") or node.params["player"] != before.active:
            yield "a sorcery-speed spell was cast outside its controller's main phase or on a stack"
    if node.name == "play-land" and (before.stack or node.params["player"] != before.active):
        yield "a land was played on a stack or in another player's turn"
    if after.priority is not None and before.priority is None:
        if after.waiting:
            yield "a player received priority with triggered abilities waiting"
        if sba_applies(model, after):
            yield "a player received priority while a state-based action applied"


@pytest.mark.parametrize("players,step,depth", CASES, ids=[f"{p}-players-{s}-depth-{d}" for p, s, d in CASES])
def test_invariants_hold_in_every_decision_sequence(players: int, step: str, depth: int, capsys: Any) -> None:
    model, state = setup(players, step)
    seen: Counter[str] = Counter()
    broken: list[str] = []

    def visit(node: TraceNode) -> None:
        seen[node.name] += 1
        for v in violations(model, node):
            broken.append(f"{v} at {node.label}")

    stats = engine.explore(model, state, depth, visit)
    with capsys.disabled():
        print(f"\n  mtg timing exploration, {players} players from {step}, depth {depth}: {stats.states} states "
              f"visited, {stats.decisions} decisions, {stats.steps} automatic steps, {stats.ends} ends")
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    wanted = ["resolve", "pass", "step-ends", "receive-priority-step", "receive-priority-resolved",
              "receive-priority-action", "cast"]
    if step == "main1":
        wanted += ["in-response", "counter", "state-based-actions", "put-triggers-on-stack", "activate-mana",
                   "pay", "play-land", "receive-priority-special", "choose", "lethal-damage", "damage"]
    else:
        wanted += ["turn-ends", "untap-step-ends", "beginning-triggers", "draw-for-turn", "cleanup-step"]
    for name in wanted:
        assert seen[name], f"the exploration never reached {name}"


class PriorityFirst(Magic):
    """A deliberately wrong model: the player receives priority before waiting triggers go on
    the stack."""

    def priority_ready(self, s: State) -> bool:
        return not self.sba(s)

    def _triggers_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        return iter(())


def test_a_broken_model_is_caught() -> None:
    model, state = setup(2, "main1")
    wrong = PriorityFirst(model.cards, model.edition)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(wrong, state, 8)
    assert "117.5" in err.value.rules
