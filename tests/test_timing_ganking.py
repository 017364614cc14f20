"""Ganking in the Riftbound timing model (810): "I may move to a battlefield from another
battlefield with a standard move" (810.1.b, 144.4.c.1). Every decision sequence to a bounded
depth (2 and 3 players) keeps what the rules say, computed from the card pool and the states
alone; `timing next` lists every Ganking move; deliberately wrong models are caught; bad input is
refused with its place. The worked scenario is in ``kb/timing/scenarios/riftbound/``, a judge's
situation in ``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked, with_options
from kb.timing import engine
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, decisions, scenario
from kb.timing.scenario import ScenarioError, loads, run

CARDS: dict[str, dict[str, Any]] = {
    "Raider": {"type": "unit", "might": 3, "keywords": ["Ganking"]},
    "Squire": {"type": "unit"},
    "Guard": {"type": "unit", "might": 2},
    "Scout": {"type": "unit"},
    "Spark": {"type": "spell", "keywords": ["Reaction"], "effects": [{"draw": 1}]},
}
# Ann's Raider (Ganking) and Squire at Hill; Bo's Guard at Peak (Cy's Scout too, with three
# players: no move may go there then, 144.4.a.1); Vale is empty.
CASES = [(2, 10), (3, 8)]


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": []}, {"name": "Bo", "hand": ["Spark"]}, {"name": "Cy", "hand": []}][:players]
    peak = {"Bo": ["Guard"], **({"Cy": ["Scout"]} if players > 2 else {})}
    return scenario.setup({"players": seats, "cards": CARDS, "battlefields": [  # type: ignore[return-value]
        {"name": "Hill", "controller": "Ann", "units": {"Ann": ["Raider", "Squire"]}},
        {"name": "Peak", "controller": "Bo", "units": peak}, "Vale"]})


def ganking(s: State, unit: str) -> bool:
    u = s.permanent(unit)
    return u is not None and "Ganking" in CARDS[u.card].get("keywords", ())


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: a Standard Move from a battlefield to another is a Ganking unit's
    (144.4.c.1), made with the move's timing and cost (810.1.c.3: its player's Main Phase, a
    Neutral Open State, 144.1; the unit exhausted, 144.2), never to a battlefield where two other
    players' units are (144.4.a.1); a cleanup in an open state leaves no player controlling a
    battlefield where they have no units and no showdown or combat is (323.6)."""
    before, after = node.before, node.after
    if node.name == "standard-move":
        p = node.params
        u = before.permanent(p["unit"])
        assert u is not None
        if u.location != "base" and p["to"] != "base":
            if not ganking(before, u.name):
                yield f"{u.name} moved from {u.location} to {p['to']} without Ganking (144.4.c.1)"
            if before.chain or before.in_showdown or p["player"] != before.turn_player:
                yield f"{u.name} ganked outside its player's Neutral Open State (144.1)"
            if u.exhausted or not after.permanent(u.name).exhausted:  # type: ignore[union-attr]
                yield f"{u.name} ganked without exhausting as the Standard Move's cost (144.2, 810.1.c.3)"
            others = {x.controller for x in before.units_at(p["to"])} - {p["player"]}
            if len(others) >= 2:
                yield f"{u.name} ganked to {p['to']}, where two other players' units are (144.4.a.1)"
    if node.name == "cleanup" and not after.chain:
        for bf in after.battlefields:
            busy = (after.showdown is not None and after.showdown.battlefield == bf.name) or (
                after.combat is not None and after.combat.battlefield == bf.name)
            if bf.controller is not None and not after.units_at(bf.name, bf.controller) and not busy:
                yield f"{bf.controller} still controls {bf.name} with no units there after a cleanup (323.6)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """`timing next` lists, in the turn player's Neutral Open State, a legal move for each of their
    ready Ganking units at a battlefield to each other battlefield where two other players' units
    are not (144.4.a.1), and lists no move from a battlefield to another for a unit without Ganking."""
    d = engine.decision(model, s)
    if d is None or d.decider != s.turn_player:
        return
    legal = {(o.params["unit"], o.params["to"]) for o in d.options if o.transition.name == "standard-move"}
    listed = legal | {(o.params["unit"], o.params["to"]) for o in d.illegal if o.transition.name == "standard-move"}
    for u in s.board:
        if u.location == "base" or u.controller != s.turn_player:
            continue
        for bf in s.battlefields:
            if bf.name == u.location:
                continue
            crowded = len({x.controller for x in s.units_at(bf.name)} - {u.controller}) >= 2
            if (ganking(s, u.name) and not u.exhausted and not s.chain and not s.in_showdown and not crowded
                    and (u.name, bf.name) not in legal):
                yield f"no legal option moves {u.name} from {u.location} to {bf.name}"
            if not ganking(s, u.name) and (u.name, bf.name) in listed:
                yield f"an option moves {u.name}, without Ganking, from {u.location} to {bf.name}"


def _explore(players: int, depth: int) -> tuple[Any, Any, list[str]]:
    model, start = setup(players)
    return explore_checked(model, start, depth, with_options(node_violations, option_violations))


@pytest.mark.parametrize("players,depth", CASES)
def test_every_decision_sequence_keeps_ganking(players: int, depth: int, capsys: Any) -> None:
    ex, taken, wrong = _explore(players, depth)
    with capsys.disabled():
        print(f"\n  Ganking, {players} players, depth {depth}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("ganking-move", "control-lost", "combat-begins",
                                                       "showdown-begins", "conquer")))
    assert not wrong, wrong[:5]
    for name in ("ganking-move", "control-lost", "showdown-begins", "conquer"):
        assert taken[name], f"no decision sequence reached {name}"
    if players == 2:
        assert taken["combat-begins"]


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_where_every_unit_ganks_is_caught(monkeypatch: Any) -> None:
    """Wrong: any unit's Standard Move may go from a battlefield to another."""
    monkeypatch.setattr(Riftbound, "ganks", lambda self, u, s: True)
    assert any("144.4.c.1" in v for v in _explore(*CASES[0])[2])


def test_a_model_whose_ganking_move_costs_nothing_is_caught(monkeypatch: Any) -> None:
    """Wrong: Ganking's move is an extra one that does not exhaust the unit."""
    right = decisions.relocate
    monkeypatch.setattr(decisions, "relocate", lambda m, s, t, u, to, exhaust=False: right(
        m, s, t, u, to, exhaust=exhaust and (u.location == "base" or to == "base")))
    assert any("144.2" in v for v in _explore(*CASES[0])[2])


# -- what a scenario may say -----------------------------------------------------------------------
SCENARIO = """
name: A card with Ganking.
ruleset: riftbound
players: [Ann, Bo]
cards:
  Raider: {type: %s, keywords: [ganking]}
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("ctype,ok", [("unit", True), ("gear", False), ("spell", False)])
def test_ganking_is_on_units(ctype: str, ok: bool) -> None:
    if ok:
        assert run(loads(SCENARIO % ctype, "g.yaml")).error is None
        return
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % ctype, "g.yaml"))
    assert "Ganking is on units (810.1.a)" in str(err.value) and "cards.Raider.keywords" in str(err.value)
