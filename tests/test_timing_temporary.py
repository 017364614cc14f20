"""Temporary in the Riftbound timing model (816): "At the start of this permanent's controller's
Beginning Phase, before scoring, kill this" (816.1.b). Every decision sequence from a turn that
starts in the Beginning Phase, to a bounded depth, keeps what the rules say, computed from the
card pool and the states alone (not by the model's helpers); deliberately wrong models are
caught; bad input is refused with its place. The worked scenario is in
``kb/timing/scenarios/riftbound/``, a judge's situation in ``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, beginning, scenario
from kb.timing.models.riftbound import state as state_module
from kb.timing.scenario import ScenarioError, loads, run

CARDS: dict[str, dict[str, Any]] = {
    # Ann's: a Temporary unit alone at Hill, with Deathknell; a Temporary gear at her base
    "Sprite": {"type": "unit", "might": 3, "keywords": ["Temporary"], "deathknell": [{"draw": 1}]},
    "Lantern": {"type": "gear", "keywords": ["Temporary"]},
    # Bo's Temporary unit: not his Beginning Phase, it stays
    "Wisp": {"type": "unit", "keywords": ["Temporary"]},
    "Guard": {"type": "unit"},
    "Spark": {"type": "spell", "keywords": ["Reaction"], "effects": [{"draw": 1}]},
    # "the next time it would die this turn, … recall it instead": Ann may save her Sprite
    "Shelter": {"type": "spell", "keywords": ["Reaction"], "effects": [{"save": "target"}]},
}
SEATS = [{"name": "Ann", "base": ["Lantern"], "hand": ["Shelter"]},
         {"name": "Bo", "base": ["Wisp"], "hand": ["Spark"]}]
BATTLEFIELDS = [{"name": "Hill", "controller": "Ann", "units": {"Ann": ["Sprite"]}},
                {"name": "Peak", "controller": "Ann", "units": {"Ann": ["Guard"]}}]
DEPTH = 10  # every decision sequence to this depth: the Beginning Phase and a little of the Main Phase


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS,  # type: ignore[return-value]
                           "battlefields": BATTLEFIELDS, "start": {"phase": "beginning"}})


def temporary(s: State, player: str | None = None) -> list[str]:
    """The permanents with Temporary on the board (of ``player``), read from the pool here."""
    return [u.name for u in s.board if "Temporary" in CARDS[u.card].get("keywords", ())
            and (player is None or u.controller == player)]


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: the Beginning Step triggers exactly the turn player's Temporary
    permanents, once each (816.1.c, 816.2.a); another player's are never killed in the Beginning
    Phase (816.1.c); the Scoring Step's hold comes after the chain and the cleanups (315.2.a.1,
    321.1) and finds no Temporary permanent of the turn player at a battlefield (816.1.b)."""
    before, after = node.before, node.after
    me = before.turn_player
    if node.name == "beginning-step":
        added = sorted(i.name for i in after.chain if i.id not in {x.id for x in before.chain})
        wanted = sorted(f"{u}'s Temporary" for u in temporary(before, me))
        if added != wanted:
            yield f"the Beginning Step triggered {added}, not {wanted} (816.1.c, 816.2.a)"
    if before.phase == "beginning":
        others = [u for u in temporary(before) if before.permanent(u).controller != me]  # type: ignore[union-attr]
        gone = [u for u in others if after.permanent(u) is None]
        if gone:
            yield f"{gone} killed in {me}'s Beginning Phase: not their controller's (816.1.c)"
    if node.name == "hold-battlefields":
        if before.chain or "cleanup" in before.tasks:
            yield "the turn player held battlefields before the Beginning Step's chain and cleanups (315.2.a.1, 321.1)"
        there = [u for u in temporary(before, me) if before.permanent(u).location != "base"]  # type: ignore[union-attr]
        if there:
            yield f"{there} still at a battlefield when {me} scores: Temporary kills before scoring (816.1.b)"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, node_violations)


def test_every_decision_sequence_keeps_temporary(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Temporary, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("beginning-step", "temporary-triggers", "death-replaced",
                                                       "hold-battlefields", "main-phase-begins")))
    assert not wrong, wrong[:5]
    for name in ("beginning-step", "temporary-triggers", "death-replaced", "death-triggers", "control-lost",
                 "hold-battlefields", "main-phase-begins"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_that_kills_every_players_temporary_permanents_is_caught(monkeypatch: Any) -> None:
    """Wrong: Temporary kills at the start of any Beginning Phase, whoever controls the permanent."""
    right = beginning.temporary_permanents
    monkeypatch.setattr(beginning, "temporary_permanents",
                        lambda m, s, player: [n for p in s.players for n in right(m, s, p)])
    assert any("816.1.c" in v for v in _explore()[2])


def test_a_model_that_scores_before_temporary_kills_is_caught(monkeypatch: Any) -> None:
    """Wrong: the Scoring Step first, then Temporary (the unit scores the battlefield it holds)."""
    monkeypatch.setattr(beginning, "beginning_tasks", lambda m, s: ("hold", "beginning-step"))
    assert any("816.1.b" in v for v in _explore()[2])


def test_a_model_whose_scoring_does_not_wait_for_the_chain_is_caught(monkeypatch: Any) -> None:
    """Wrong: the hold happens while Temporary's triggered abilities are still on the chain."""
    monkeypatch.setattr(state_module, "DEFERRED_TASKS", state_module.DEFERRED_TASKS - {"hold"})
    assert any("315.2.a.1" in v for v in _explore()[2])


# -- what a scenario may say -----------------------------------------------------------------------
SCENARIO = """
name: A card with Temporary.
ruleset: riftbound
players: [Ann, Bo]
cards:
  Sprite: {type: %s, keywords: [Temporary]}
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("ctype,ok", [("unit", True), ("gear", True), ("spell", False)])
def test_temporary_is_on_permanents(ctype: str, ok: bool) -> None:
    if ok:
        assert run(loads(SCENARIO % ctype, "t.yaml")).error is None
        return
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % ctype, "t.yaml"))
    assert "Temporary is on permanents" in str(err.value) and "cards.Sprite.keywords" in str(err.value)


@pytest.mark.parametrize("start,tasks", [
    ({"phase": "beginning"}, ["beginning-step", "hold"]),  # Ann's Temporary unit: the Beginning Step first
    ({}, []),  # a scenario that starts in the Main Phase: Temporary has nothing to do there
])
def test_the_beginning_step_is_outstanding_only_when_temporary_has_something_to_kill(
        start: dict[str, Any], tasks: list[str]) -> None:
    _, s = scenario.setup({"players": [{"name": "Ann", "base": ["Sprite"]}, "Bo"], "cards": CARDS, "start": start})
    assert list(s.tasks) == tasks
    _, s = scenario.setup({"players": ["Ann", {"name": "Bo", "base": ["Wisp"]}], "cards": CARDS, "start": start})
    assert list(s.tasks) == (["hold"] if start else [])  # Bo's Temporary unit: not his Beginning Phase
