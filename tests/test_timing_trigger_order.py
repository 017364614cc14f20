"""Simultaneous triggered abilities of several players in the Riftbound timing model: the
death triggers of units dying together go on the chain in turn order (383.3.d.1), in every
decision sequence; a model that fires them unit by unit in listing order is caught."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import InvariantBroken, Trace
from kb.timing.models.riftbound import Riftbound, State, combat, scenario
from kb.timing.models.riftbound.triggers import Fired, fire

CARDS = {
    "Scout": {"type": "unit", "might": 2, "deathknell": [{"draw": 1}]},
    "Sentry": {"type": "unit", "might": 2, "deathknell": [{"draw": 2}]},
    "Warden": {"type": "unit", "might": 1, "deathknell": [{"draw": 1}]},
    "Blast": {"type": "spell", "keywords": ["Reaction"], "effects": [{"deal": {"unit": "Scout", "amount": 2}},
                                                                     {"deal": {"unit": "Sentry", "amount": 2}}]},
}


def setup(players: int) -> tuple[Riftbound, State]:
    """Bo's and Cy's units listed before Ann's (the turn player's), so listing order is not turn order."""
    seats = [{"name": "Ann", "base": ["Scout"], "hand": ["Blast"]}, {"name": "Bo", "hand": ["Blast"]},
             {"name": "Cy", "base": ["Warden"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Sentry"]}}]})


@pytest.mark.parametrize("players,depth", [(2, 8), (3, 9)], ids=["2-players-depth-8", "3-players-depth-9"])
def test_death_triggers_of_one_cleanup_go_on_the_chain_in_turn_order(players: int, depth: int) -> None:
    seen: set[str] = set()
    stats = engine.explore(*setup(players), depth, lambda n: seen.add(n.name))
    assert stats.max_depth == depth and {"combat-cleanup", "cleanup", "death-triggers", "trigger-order"} <= seen


def one_by_one(s: State, t: Trace, fired: Fired, step: str, units: list[str] | None = None) -> State:
    """A deliberately wrong ``fire``: each trigger goes on the chain on its own, in listing order."""
    for i, f in enumerate(fired):
        s = fire(s, t, [f], step, None if units is None else [units[i]])
    return s


def test_a_model_that_fires_simultaneous_death_triggers_in_listing_order_is_caught(monkeypatch: Any) -> None:
    monkeypatch.setattr(combat, "fire", one_by_one)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(*setup(2), 8)
    assert err.value.invariant.name == "death-triggers-in-turn-order" and "383.3.d.1" in err.value.rules
