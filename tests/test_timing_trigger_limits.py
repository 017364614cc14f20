"""Triggered abilities "once (N times) each turn" in the Riftbound timing model (383.3.e):
every decision sequence up to a bounded depth (2 and 3 players) keeps what the rules say,
computed from the states and the trace alone; deliberately wrong models are caught; bad
input is refused with its place."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from test_timing_costs_and_damage import explore_and_report
from kb.timing import engine
from kb.timing.engine import FormatError, InvariantBroken, TraceNode
from kb.timing.models.riftbound import Riftbound, State, decisions, scenario, state_io, turn_limits

CARDS = {
    "Spark": {"type": "spell", "keywords": ["Reaction"], "effects": []},
    "Recruit": {"type": "unit"},
    # "Twice each turn, when you play a spell, you may draw 1."
    "Scholar": {"type": "unit", "triggers": [{"on": "play", "what": "spell", "name": "Scholar's study",
                                              "optional": True, "each_turn": 2, "effects": [{"draw": 1}]}]},
    # "Once each turn, when you play a unit, draw 1." (two copies trigger together and share its count:
    # the model names abilities, not objects)
    "Mentor": {"type": "unit", "triggers": [{"on": "play", "what": "unit", "name": "Mentor's lesson",
                                             "each_turn": 1, "effects": [{"draw": 1}]}]},
}
LIMITS = {"Scholar's study": 2, "Mentor's lesson": 1}
CASES = [(2, 11), (3, 11)]
REACHED = ("trigger-performed", "trigger-not-triggered", "trigger-used-up", "decline-trigger", "perform-trigger")


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Spark", "Spark", "Spark", "Recruit", "Recruit"],
              "base": ["Scholar", "Mentor", "Mentor"]},
             {"name": "Bo", "hand": ["Spark", "Spark", "Spark"], "base": ["Scholar"]},
             {"name": "Cy", "hand": ["Spark", "Recruit"], "base": ["Mentor"]}]
    return scenario.setup({"players": seats[:players], "cards": CARDS})  # type: ignore[return-value]


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What 383.3.e says, from the states and the trace: a limited ability is performed (finalized)
    at most N times a turn, each time counted; it never joins the chain once performed N times;
    one declined is not counted as performed."""
    before, after = node.before, node.after
    if node.name == "decline-trigger" and after.performed != before.performed:
        yield f"{node.params['item']}, declined, was counted as performed (383.3.e.2.b)"
    if node.transition.kind == "step":
        return
    done = Counter(c.params["item"] for c in node.walk() if c.name == "finalize" and c.params["item"] in LIMITS)
    for name, limit in LIMITS.items():
        was, now = before.times_performed(name), after.times_performed(name)
        if now > limit or now != was + done[name]:
            yield f"{name} performed {now} times this turn, counted {now - was} for {done[name]} ({limit} each turn, 383.3.e.1)"
    known = {i.id for i in before.chain}
    for item in after.chain:
        if item.id not in known and item.name in LIMITS and before.times_performed(item.name) >= LIMITS[item.name]:
            yield f"{item.name} triggered after being performed {LIMITS[item.name]} times this turn (383.3.e.1)"


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_limited_triggers_keep_their_count_in_every_decision_sequence(players: int, depth: int, capsys: Any) -> None:
    explore_and_report(f"once-each-turn triggers, {players} players, depth {depth}", *setup(players), depth,
                       violations, REACHED, capsys)


def test_a_model_that_never_counts_a_limited_trigger_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong model: a limited triggered ability is never counted as performed."""
    monkeypatch.setattr(turn_limits, "performed", lambda s, tr: s)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(*setup(2), 6)
    assert err.value.invariant.name == "trigger-each-turn" and "383.3.e.1" in err.value.rules


def test_a_model_that_counts_a_declined_trigger_as_performed_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong model: declining a "you may" limited ability uses it up for the turn."""
    right = decisions.decline

    def counted(m: Riftbound, s: State, p: Any, t: Any) -> State:
        tr = turn_limits.trigger_of(m, s.pending[0])
        return right(m, turn_limits.performed(s, tr) if tr is not None else s, p, t)
    model = Riftbound(setup(2)[0].cards)
    t = model.transitions["decline-trigger"]
    model.transitions["decline-trigger"] = dataclasses.replace(t, effect=lambda s, p, tr: counted(model, s, p, tr))
    _, _, broken = explore_checked(model, setup(2)[1], 6, violations)
    assert any("(383.3.e.2.b)" in b for b in broken)


@pytest.mark.parametrize("each_turn,field", [
    (0, "cards.X.triggers[0].each_turn"),
    ("once", "cards.X.triggers[0].each_turn"),
    (10, "cards.X.triggers[0].each_turn"),
], ids=["zero", "a word", "over 9"])
def test_a_malformed_each_turn_of_a_trigger_names_its_place(each_turn: Any, field: str) -> None:
    card = {"type": "unit", "triggers": [{"on": "play", "name": "X's", "each_turn": each_turn, "effects": []}]}
    with pytest.raises(FormatError) as err:
        scenario.setup({"players": ["Ann", "Bo"], "cards": {"X": card}})
    assert err.value.field == field, err.value


@pytest.mark.parametrize("performed,field", [
    ({"Scholar's study": 0}, "performed_this_turn.Scholar's study"),
    (["Scholar's study"], "performed_this_turn"),
], ids=["a count of zero", "not a mapping"])
def test_a_malformed_performed_this_turn_names_its_place(performed: Any, field: str) -> None:
    model, state = setup(2)
    data = state_io.state_json(model, state)
    data["performed_this_turn"] = performed
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field, err.value
