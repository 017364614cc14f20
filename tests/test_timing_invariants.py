"""Every decision sequence up to a bounded depth, with 2 and 3 players and a small card
pool, keeps the timing invariants. The engine checks the model's own invariants and state
validity after every step; this test checks the same properties again, independently, on
every node of every trace, and makes sure the exploration reached the transitions those
properties are about (so they are not vacuously true)."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import InvariantBroken, TraceNode
from exploring import explore_checked
from kb.timing.models.riftbound import Riftbound, State, combat, scenario, scoring

CARDS = {
    "Bolt": {"type": "spell", "keywords": ["Action"], "effects": [{"draw": 1}]},
    "Counter": {"type": "spell", "keywords": ["Reaction"], "effects": [{"counter": "target"}]},
    "Spark": {"type": "spell", "keywords": ["Reaction"], "effects": [{"draw": 1}]},
    "Twin": {"type": "spell", "keywords": ["Reaction"],
             "effects": [{"create": {"name": "Echo", "effects": [{"draw": 1}], "times": 2}}]},
    "Yeti": {"type": "unit", "triggers": [{"on": "play", "name": "Greeting", "optional": True,
                                           "effects": [{"draw": 1}]}]},
    "Raider": {"type": "unit", "might": 2, "triggers": [{"on": "attack", "name": "Cry", "effects": [{"draw": 1}]}]},
    "Guard": {"type": "unit", "might": 1},
}

# (players, depth): deep enough to reach combat, counters, reflexive triggers and every
# showdown close, small enough to stay well under 30 s.
CASES = [(2, 20), (3, 15)]


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Bolt", "Counter", "Yeti"], "base": ["Raider"]},
             {"name": "Bo", "hand": ["Counter", "Twin"]},
             {"name": "Cy", "hand": ["Spark"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard"]}}]})


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """The six properties, computed from the trace without the model's own helpers."""
    before, after = node.before, node.after
    if not (after.priority is None or isinstance(after.priority, str)):
        yield "more than one player holds priority"
    if after.focus is not None and after.showdown is None and after.combat is None:
        yield "focus outside a showdown"
    if node.name == "finalize":
        pending = [i.id for i in before.chain if i.status == "pending"]
        if node.params["id"] != min(pending):
            yield "an item finalized out of append order"
    if node.name == "resolve":
        finalized = [i.id for i in before.chain if i.status == "finalized"]
        if node.params["id"] != max(finalized):
            yield "an item other than the newest finalized one resolved"
    if node.name == "play" and before.chain:
        if "Reaction" not in model.cards[node.params["card"]].keywords:
            yield "a card without Reaction was played while a chain existed"
    if node.name == "pass-focus" and any(c.name == "showdown-closes" for c in node.children):
        if before.showdown.passes != len(before.players) - 1 or len(before.players) < 2:
            yield "a showdown ended without every player passing focus in sequence"


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_invariants_hold_in_every_decision_sequence(players: int, depth: int, capsys: Any) -> None:
    model, state = setup(players)
    stats, seen, broken = explore_checked(model, state, depth, violations)
    with capsys.disabled():
        print(f"\n  timing exploration, {players} players, depth {depth}: {stats.states} states visited, "
              f"{stats.decisions} decisions, {stats.steps} automatic steps, {stats.ends} ended turns")
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    for name in ("finalize", "resolve", "play", "pass-priority", "pass-focus", "showdown-closes", "counter",
                 "create-reflexive-trigger", "decline-trigger", "perform-trigger", "combat-opens",
                 "focus-passes", "focus-stays"):
        assert seen[name], f"the exploration never reached {name}"
    if players == 2:
        assert seen["combat-damage"] and seen["focus-passes-after-chain"]


# Units arriving at a combat after it opened, leaving it and coming back, units played to
# battlefields, and a third player's unit kept out of two others' combat: only Action spells,
# so the tree stays narrow enough to reach every combat to its end.
ARRIVALS = {
    "Raider": {"type": "unit", "might": 2, "triggers": [{"on": "attack", "name": "Cry", "effects": [{"draw": 1}]}]},
    "Scout": {"type": "unit"},
    "Guard": {"type": "unit", "might": 3},
    "Sentry": {"type": "unit", "triggers": [{"on": "defend", "name": "Stand", "effects": [{"draw": 1}]}]},
    "Fall Back": {"type": "spell", "keywords": ["Action"], "effects": [{"move": {"unit": "target", "to": "base"}}]},
    "Charge": {"type": "spell", "keywords": ["Action"], "effects": [{"move": {"unit": "target", "to": "Temple"}}]},
    "Call": {"type": "spell", "keywords": ["Action"], "effects": [{"play": {"card": "Yeti", "to": "Hill"}}]},
    "Yeti": {"type": "unit"},
    "Snipe": {"type": "spell", "keywords": ["Reaction"], "effects": [{"kill": "Yeti"}]},
}
ARRIVAL_CASES = [(2, 12), (3, 10)]


def setup_arrivals(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Fall Back", "Charge", "Call", "Yeti"], "base": ["Raider"]},
             {"name": "Bo", "hand": ["Charge", "Snipe"], "base": ["Sentry"]},
             {"name": "Cy", "hand": ["Charge"], "base": ["Scout"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": ARRIVALS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard"]}}, "Hill"]})


def arrival_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """Designations, control and presence after every step, computed from the states alone."""
    before, after = node.before, node.after
    for bf in after.battlefields:
        if len({u.controller for u in after.board if u.location == bf.name}) > 2:
            yield f"units of three players at {bf.name} (449.2)"
    c = after.combat
    sides_set = c is not None and not {"combat-opens", "establish-attacker-defender"} & set(after.tasks)
    if node.name == "cleanup" and sides_set:
        assert c is not None
        for u in after.board:
            want = ({c.attacker: "attacker", c.defender: "defender"}.get(u.controller)
                    if u.location == c.battlefield else None)
            if u.designation != want:
                yield f"{u.name} has designation {u.designation} after a cleanup, not {want} (323.2)"
        if before.combat is not None:
            old, new = set(before.combat.designated), set(c.designated)
            if not old <= new:
                yield "a combat forgot which units already gained a designation"
            fresh = {u for u, _ in new - old}
            for child in node.children:
                if child.name == "designation-triggers":
                    cards = {model.cards[u.card].name for u in after.board if u.name in fresh}
                    if not any(t.name == child.params["item"] for card in cards
                               for t in model.cards[card].triggers):
                        yield f"{child.params['item']} fired again in the same combat (383.4.e.2.a)"
    quiet = (node.transition.kind != "step" and not after.chain and not after.tasks and not after.in_showdown
             and after.phase == "main")
    if quiet:
        for bf in after.battlefields:
            owners = {u.controller for u in after.board if u.location == bf.name}
            if bf.controller is not None and bf.controller not in owners:
                yield f"{bf.controller} still controls {bf.name} with no units there (323.6)"
            if owners - {bf.controller}:
                yield f"units at {bf.name} of a player who does not control it, and no showdown (190.3.a.1)"


@pytest.mark.parametrize("players,depth", ARRIVAL_CASES, ids=[f"{p}-players-depth-{d}" for p, d in ARRIVAL_CASES])
def test_combat_arrivals_keep_designations_and_control(players: int, depth: int, capsys: Any) -> None:
    model, state = setup_arrivals(players)
    stats, seen, broken = explore_checked(model, state, depth, arrival_violations)
    with capsys.disabled():
        print(f"\n  combat arrivals, {players} players, depth {depth}: {stats.states} states visited, "
              f"{stats.decisions} decisions, {stats.steps} automatic steps, {stats.ends} ended turns; "
              + ", ".join(f"{n} {seen[n]}" for n in ("designation-gained", "designation-lost",
                                                     "designation-triggers", "trigger-checked-once",
                                                     "play-contests", "open-state-cleanup")))
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    for name in ("designation-gained", "designation-lost", "designation-triggers", "play-contests",
                 "control-lost", "showdown-begins", "combat-opens"):
        assert seen[name], f"the exploration never reached {name}"
    if players == 2:
        assert seen["trigger-checked-once"] and seen["open-state-cleanup"]


def oldest_first(model: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """Deliberately wrong bindings for resolve: the oldest finalized item."""
    if s.chain and s.ready_task() is None and not s.pending and s.passes >= len(s.players):
        first = s.chain[0]
        yield {"item": first.name, "id": first.id, "player": first.controller}


class OldestFirst(Riftbound):
    """A deliberately wrong model: it resolves the oldest finalized item."""

    def __init__(self, cards: Any) -> None:
        super().__init__(cards)
        resolve = self.transitions["resolve"]
        self.transitions["resolve"] = dataclasses.replace(resolve, bindings=functools.partial(oldest_first, self))


def test_a_broken_model_is_caught() -> None:
    model, state = setup(2)
    wrong = OldestFirst(model.cards)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(wrong, state, 8)
    assert "340.1" in err.value.rules


def forgetful_cleanup(model: Riftbound, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong cleanup: it forgets which units gained a designation this combat."""
    if s.combat is not None:
        s = dataclasses.replace(s, combat=dataclasses.replace(s.combat, designated=()))
    return combat.cleanup(model, s, p, t)


class ForgetfulCombat(Riftbound):
    """A deliberately wrong model: each cleanup forgets which units already gained a designation
    this combat, so a unit that comes back attacks (and triggers) again."""

    def __init__(self, cards: Any) -> None:
        super().__init__(cards)
        cleanup = self.transitions["cleanup"]
        self.transitions["cleanup"] = dataclasses.replace(cleanup, effect=functools.partial(forgetful_cleanup, self))


def test_a_model_that_fires_attack_triggers_twice_in_a_combat_is_caught() -> None:
    model, state = setup_arrivals(2)
    wrong = ForgetfulCombat(model.cards)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(wrong, state, 12)
    assert "383.4.e.2.a" in err.value.rules


# Scoring and Deathknell: conquering battlefields (one with its own conquer ability, one held
# by a unit the other player defends), the Final Point, the win, Deathknells of units killed
# by spells, in combat and as a spell's additional cost; and holding in the Beginning Phase.
SCORING = {
    "Scout": {"type": "unit", "might": 2, "triggers": [{"on": "conquer", "name": "Cheer", "effects": [{"draw": 1}]}]},
    "Agent": {"type": "unit", "deathknell": [{"discard": 1}, {"draw": 1}]},
    "Warden": {"type": "unit", "triggers": [{"on": "hold", "name": "Watch", "effects": [{"draw": 1}]}]},
    "Execute": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}, {"draw": 1}]},
    "Spare": {"type": "spell"},
    "Rite": {"type": "spell", "keywords": ["Reaction"], "additional_cost": ["kill a friendly unit"],
             "effects": [{"draw": 1}]},
    "Altar": {"type": "battlefield", "triggers": [{"on": "conquer", "name": "Blessing",
                                                  "effects": [{"discard": 1}, {"draw": 1}]}]},
    "Temple": {"type": "battlefield", "triggers": [{"on": "hold", "name": "Tithe", "effects": [{"draw": 1}]}]},
}
SCORING_CASES = [(2, 16), (3, 12)]


def setup_scoring(players: int, beginning: bool = False) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Execute", "Spare"], "base": ["Scout", "Scout"], "points": 3 if beginning else 7},
             {"name": "Bo", "hand": ["Rite"], "base": ["Agent"], "points": 6},
             {"name": "Cy", "base": ["Agent"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": SCORING, "start": {"phase": "beginning"} if beginning else {},
        "battlefields": {"Altar": None, "Temple": {"controller": "Bo" if not beginning else "Ann",
                                                   "units": {"Bo": ["Agent"]} if not beginning else
                                                   {"Ann": ["Warden"]}}}})


def scoring_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """Points, scores and Deathknells after every step, computed from the states and the trace."""
    before, after = node.before, node.after
    old, new = dict(before.points), dict(after.points)
    if any(new.get(p, 0) < n for p, n in old.items()):
        yield "a player lost points"
    if len(set(after.scored)) != len(after.scored):
        yield "a battlefield was scored twice by one player in a turn (470)"
    gained = sum(new.get(p, 0) - old.get(p, 0) for p in after.players)
    if node.transition.kind != "step" and gained != sum(1 for c in node.walk() if c.name == "gains-point"):
        yield "points changed without a gains-point step (471.1)"
    scored_at: set[str] = set()
    for child in node.walk() if node.transition.kind != "step" else ():  # a whole step, in order
        if child.name in ("gains-point", "final-point-draws"):
            scored_at.add(child.params["player"])
        if child.name in ("conquer-triggers", "score-triggers"):
            item = next(i for i in reversed(child.after.chain) if i.name == child.params["item"])
            if item.controller not in scored_at:
                yield f"{item.name} triggered before its player's point (471.1 before 471.2)"
        if child.name == "death-triggers":
            top = child.after.chain[-1]
            if top.name != child.params["item"] or top.status != "pending":
                yield f"{child.params['item']} is not added on top of the chain as a pending item (808.1.d.2)"
    if after.winner is not None:
        points = dict(after.points)
        best = points[after.winner]
        if best < after.victory_score or any(n >= best for p, n in points.items() if p != after.winner):
            yield f"{after.winner} won without the Victory Score and the most points (323.1)"


@pytest.mark.parametrize("players,depth", SCORING_CASES, ids=[f"{p}-players-depth-{d}" for p, d in SCORING_CASES])
def test_scoring_and_deathknells_keep_their_order(players: int, depth: int, capsys: Any) -> None:
    model, state = setup_scoring(players)
    stats, seen, broken = explore_checked(model, state, depth, scoring_violations)
    held_model, held = setup_scoring(players, beginning=True)
    held_stats, held_seen, held_broken = explore_checked(held_model, held, depth, scoring_violations)
    seen += held_seen
    names = ("gains-point", "final-point-draws", "conquer-triggers", "score-triggers", "death-triggers", "discard",
             "game-won", "hold", "main-phase-begins", "kill-as-cost")
    with capsys.disabled():
        print(f"\n  scoring and Deathknell, {players} players, depth {depth}: {stats.states} states visited, "
              f"{stats.decisions} decisions, {stats.steps} automatic steps, {stats.ends} ended turns; from the "
              f"Beginning Phase {held_stats.states} states; " + ", ".join(f"{n} {seen[n]}" for n in names))
    assert not broken and not held_broken, (broken + held_broken)[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    for name in names:
        if name != "game-won" or players == 2:  # with three players the win lies deeper
            assert seen[name], f"the exploration never reached {name}"


def scoring_twice(model: Riftbound, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong Scoring Step: it records each battlefield it holds as scored twice."""
    s = scoring.hold_battlefields(model, s, p, t)
    return dataclasses.replace(s, scored=s.scored + s.scored)


class DoubleHold(Riftbound):
    """A deliberately wrong model: the turn player scores each held battlefield twice."""

    def __init__(self, cards: Any) -> None:
        super().__init__(cards)
        hold = self.transitions["hold-battlefields"]
        self.transitions["hold-battlefields"] = dataclasses.replace(hold, effect=functools.partial(scoring_twice, self))


def test_a_model_that_scores_a_battlefield_twice_in_a_turn_is_caught() -> None:
    model, state = setup_scoring(2, beginning=True)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(DoubleHold(model.cards), state, 2)
    assert "470" in err.value.rules
