"""Riftbound: several units' Standard Moves performed together, as one game action (144.3):
``move: {unit: [A, B], to}``. A list that is not a list of different units' names is refused
with its place; a move together is legal only if each unit's move is (ready, the player's, a
valid destination, Ganking for a battlefield origin), and a decision written back as a step
replays as the same move."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.timing import engine
from kb.timing.models.riftbound.scenario import option_action
from kb.timing.scenario import ScenarioError, loads, run

SCENARIO = {
    "name": "Units moving together.", "ruleset": "riftbound", "edition": "1.4",
    "players": [{"name": "Ann", "base": ["Brute", "Squire"]}, "Bo"],
    "battlefields": {"Keep": {"controller": "Bo", "units": {"Bo": ["Archer"]}},
                     "Hill": {"controller": "Ann", "units": {"Ann": ["Sentry", "Raider"]}}},
    "cards": {"Brute": {"type": "unit", "might": 3}, "Squire": {"type": "unit", "might": 1},
              "Archer": {"type": "unit"}, "Sentry": {"type": "unit"},
              "Raider": {"type": "unit", "keywords": ["Ganking"]}},
    "steps": [],
}


def _run(unit: Any, to: str = "Keep", player: str = "Ann") -> Any:
    data = yaml.safe_load(yaml.safe_dump(SCENARIO))
    data["steps"] = [{"move": {"player": player, "unit": unit, "to": to}}]
    return run(loads(yaml.safe_dump(data), "moves.yaml"))


# (the move's unit, the place the error names, words of the message)
MALFORMED = [
    ([], "move.unit", "a non-empty list of units"),
    (["Brute", 7], "move.unit[1]", "expected a non-empty string"),
    (["Brute", ""], "move.unit[1]", "expected a non-empty string"),
    (["Brute", "Squire", "Brute"], "move.unit[2]", "Brute is listed twice"),
    ({"Brute": 1}, "move.unit", "expected a non-empty string"),
]


@pytest.mark.parametrize("unit,field,words", MALFORMED)
def test_a_malformed_list_of_units_is_refused_with_its_place(unit: Any, field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        _run(unit)
    assert err.value.field == field and err.value.step == 1, str(err.value)
    assert words in err.value.message
    assert str(err.value).startswith(f"moves.yaml: step 1 ({field}): ")


# (the units, the destination, the checks that refuse it, or [] when it is legal)
MOVES = [
    (["Brute", "Squire"], "Keep", []),
    (["Brute", "Raider"], "Keep", []),  # origins differ (144.3.b): Raider has Ganking
    (["Brute", "Sentry"], "Keep", ["ganking"]),  # Sentry at Hill has no Ganking
    (["Sentry", "Raider"], "base", []),
    (["Brute", "Sentry"], "base", ["move-destination"]),  # Brute is at base already
    (["Brute", "Archer"], "Keep", ["unit-ready", "move-destination", "ganking"]),  # Archer: Bo's, at Keep
    (["Brute", "Squire"], "Hill", []),
    (["Brute", "Nobody"], "Keep", ["unit-ready", "move-destination"]),
    (["Brute"], "Keep", []),  # a list of one is that unit's own move
]


@pytest.mark.parametrize("units,to,refused_by", MOVES)
def test_a_move_together_is_legal_when_each_units_move_is(units: list[str], to: str, refused_by: list[str]) -> None:
    result = _run(units, to)
    if not refused_by:
        assert result.error is None, result.error
        board = {u.name: u.location for u in result.final.board}
        assert all(board[u] == to for u in units)
        assert all(u.exhausted for u in result.final.board if u.name in units)
        return
    assert result.error is not None and result.error["type"] == "illegal-step"
    assert result.expectations[-1].actual["forbidden_by"] == refused_by


def test_a_move_together_is_one_action_with_one_cleanup_and_cites_144_3() -> None:
    result = _run(["Brute", "Squire"])
    decision = next(f for f in result.frames if f.node.transition.name == "standard-move")
    assert decision.node.label == "Ann moves Brute, Squire to Keep"
    steps = [n.transition.name for n in decision.node.children]
    assert steps.count("moves-together") == 1 and steps.count("move-contests") == 1
    together = next(n for n in decision.node.children if n.transition.name == "moves-together")
    assert together.transition.rules[:4] == ("144.3", "144.3.a", "144.3.b", "144.3.c")
    assert [f.node.transition.name for f in result.frames].count("cleanup") == 1
    assert result.final.combat is not None
    assert {u.name: u.designation for u in result.final.board if u.location == "Keep"} == {
        "Brute": "attacker", "Squire": "attacker", "Archer": "defender"}


def test_a_single_move_cites_no_move_together() -> None:
    result = _run("Brute")
    decision = next(f for f in result.frames if f.node.transition.name == "standard-move")
    assert "moves-together" not in [n.transition.name for n in decision.node.children]


@pytest.mark.parametrize("unit,written", [(("Brute", "Squire"), ["Brute", "Squire"]), ("Brute", "Brute")])
def test_a_move_written_as_a_step_replays_the_same_move(unit: Any, written: Any) -> None:
    result = _run("Squire", "Hill")  # any run: its model reads the option
    option = engine.Option(result.model.transitions["standard-move"], {"player": "Ann", "unit": unit, "to": "Keep"},
                           ())
    step = option_action(option)
    assert step == {"move": {"player": "Ann", "unit": written, "to": "Keep"}}
    assert _run(step["move"]["unit"]).error is None
