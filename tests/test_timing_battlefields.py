"""Battlefields that are cards with a contributor (652.2): a battlefield's "Units here have +N
Might" counts for the units there only while it is a battlefield of its own, and the player who
contributed it conceding replaces it with a token battlefield with no abilities, the units there
staying. A bounded exploration (three players, each conceding in every state reached) checks it
from the states and the trace alone, computing Might from the card pool itself; deliberately
wrong models are caught; bad input is refused with its place. The scenarios written as sentences
are in ``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.riftbound import Riftbound, State, battlefields, scenario, state_io
from kb.timing.scenario import ScenarioError, loads, run

from exploring import explore_checked

CARDS = {
    "Arena": {"type": "battlefield", "here": {"might": 1},
              "triggers": [{"on": "conquer", "name": "Arena's crowd", "effects": [{"draw": 1}]}]},
    "Zap": {"type": "spell", "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Rally": {"type": "spell", "keywords": ["Reaction"], "effects": [{"give": {"unit": "target", "might": 1}}]},
    "Recall": {"type": "spell", "keywords": ["Reaction"], "effects": [{"move": {"unit": "target", "to": "base"}}]},
    "Scout": {"type": "unit", "might": 2},
    "Guard": {"type": "unit", "might": 2},
}
SEATS = [{"name": "Ann", "hand": ["Zap", "Recall"], "base": ["Scout"]},
         {"name": "Bo", "hand": ["Rally"]},
         {"name": "Cy", "hand": ["Zap"]}]
DEPTH = 8  # every decision sequence to this depth, each player conceding in every state: about a second


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS,  # type: ignore[return-value]
                           "battlefields": {"Arena": {"controller": "Bo", "contributed_by": "Cy",
                                                      "units": {"Bo": ["Guard"]}}, "Hill": None}})


def might(s: State, name: str) -> int:
    """A unit's Might computed here from the pool: printed, given, and +1 at the Arena unless a
    token replaced it (not by the model's code)."""
    u = s.permanent(name)
    assert u is not None
    arena = s.battlefield("Arena")
    here = 1 if u.location == "Arena" and arena is not None and not arena.token else 0
    return CARDS[u.card]["might"] + u.might_bonus + here  # type: ignore[operator]


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step must keep: the model's Might is the pool's, no unit keeps lethal damage
    past a cleanup, and a token battlefield triggers nothing."""
    after = node.after
    for u in after.board:
        if model.might(u, after) != might(after, u.name):
            yield f"{u.name} has {model.might(u, after)} Might, not {might(after, u.name)} (143.2, 652.2.c)"
    if node.name == "cleanup":
        for u in after.board:
            if u.damage and u.damage >= might(after, u.name):
                yield f"{u.name} kept lethal damage through a cleanup (323.5)"
    arena = after.battlefield("Arena")
    if arena is not None and arena.token and any(i.source == "Arena" for i in after.chain):
        yield "the token battlefield's conquer ability triggered (652.2.a)"


def removal_violations(model: Riftbound, before: State, who: str, node: TraceNode) -> Iterator[str]:
    """What 652.2 says of ``who`` conceding in ``before``, from the states and the trace."""
    after = node.after
    was, now = before.battlefield("Arena"), after.battlefield("Arena")
    assert was is not None and now is not None
    if who != "Cy" or was.token:
        if now.token != was.token or now.contributor != was.contributor:
            yield f"the Arena changed though its contributor did not leave ({who} did)"
        return
    if not now.token or now.contributor is not None:
        yield "the Arena was not replaced with a token battlefield when Cy, who contributed it, left (652.2.a)"
    stayed = [u.name for u in before.units_at("Arena") if u.controller != who]
    if [u.name for u in after.units_at("Arena")] != stayed:
        yield f"the units at the Arena moved as it was replaced: {stayed} (652.2.b)"
    steps = {n.name for n in node.walk()}
    if now.controller != (None if was.controller == who else was.controller) and "showdown-closes" not in steps:
        yield "the Arena's control changed as it was replaced (652.2.b)"  # not by a showdown ending (652.5.b.2)
    for name in stayed:
        u = before.permanent(name)
        assert u is not None
        if might(after, name) != might(before, name) - 1:
            yield f"{name}'s Might did not fall by the Arena's +1 (652.2.c)"
    if stayed and "battlefield-replaced-on-removal" not in steps:
        yield "the trace does not say the Arena was replaced (652.2)"


def explore_concessions(model: Riftbound, start: State) -> tuple[int, list[str], set[str]]:
    """Each player concedes in every decision state reached, and play goes on from there."""
    states = 0
    broken: list[str] = []
    seen: set[str] = set()
    done: set[State] = set()
    todo = [(start, DEPTH)]
    while todo:
        s, left = todo.pop()
        out = engine.advance(model, s, with_illegal=False)
        if out.state in done or out.decision is None:
            continue
        done.add(out.state)
        states += 1
        combat = out.state.combat
        for who in out.state.players:
            if combat is not None and who in (combat.attacker, combat.defender):
                continue  # a combat whose side concedes in a game that goes on: not followed (refused as read)
            node = engine.apply(model, out.state, "concede", {"player": who})
            seen |= {n.name for n in node.walk()}
            broken += [f"{v} [{who} in {out.state.turn_state}]"
                       for v in removal_violations(model, out.state, who, node)]
            for step in engine.advance(model, node.after, with_illegal=False).steps:
                for n in step.walk():
                    seen.add(n.name)
                    broken += list(node_violations(model, n))
            try:
                _, read, bad = state_io.state_from_json(state_io.state_json(model, node.after))
            except FormatError as err:
                read, bad = None, [str(err)]
            if bad or read != node.after:
                broken.append(f"the state after {who} conceded does not read back: {bad}")
        if left:
            todo += [(engine.apply(model, out.state, o.transition.name, o.params).after, left - 1)
                     for o in out.decision.options]
    return states, broken, seen


def test_every_concession_in_every_state_reached_replaces_the_contributed_battlefield_as_the_rules_say(
        capsys: Any) -> None:
    model, start = setup()
    states, broken, seen = explore_concessions(model, start)
    ex, taken, wrong = explore_checked(model, start, DEPTH, node_violations)
    with capsys.disabled():
        print(f"\n  battlefields, 3 players, depth {DEPTH}: {states} states each conceded in by every player; "
              f"{ex.states} states explored")
    assert not broken, broken[:5]
    assert not wrong, wrong[:5]
    assert states > 20 and ex.states > 20
    for name in ("battlefield-replaced-on-removal", "battlefield-effects-cease", "lethal-damage"):
        assert name in seen, f"no concession reached {name}"


def test_a_state_with_a_contributor_and_a_token_battlefield_reads_back_from_its_json() -> None:
    model, start = setup()
    for s in (start, replace(start, battlefields=tuple(replace(b, contributor=None, token=b.name == "Arena")
                                                       for b in start.battlefields))):
        written = state_io.state_json(model, s)
        again = state_io.state_from_json(written)
        assert again[1] == s and not again[2], again[2]
    arena = state_io.state_json(model, start)["battlefields"][0]
    assert arena["contributed_by"] == "Cy" and "replaced_by_token" not in arena


# -- deliberately wrong models ------------------------------------------------------------------
def _caught(rule: str) -> list[str]:
    model, start = setup()
    return [b for b in explore_concessions(model, start)[1] if f"{rule})" in b]


def test_a_model_whose_battlefield_keeps_its_might_after_the_contributor_left_is_caught(monkeypatch: Any) -> None:
    """Wrong: the token battlefield still gives its units +1 Might (the effect does not cease)."""
    right = battlefields.battlefield_card
    monkeypatch.setattr(battlefields, "battlefield_card",
                        lambda m, s, at: m.cards.get(at) if m.cards.get(at) and m.cards[at].type == "battlefield"
                        else right(m, s, at))
    assert _caught("652.2.c")


def test_a_model_that_does_not_replace_the_contributed_battlefield_is_caught(monkeypatch: Any) -> None:
    """Wrong: the battlefield a player removed contributed stays as it was."""
    monkeypatch.setattr("kb.timing.models.riftbound.conceding.remove_contributed", lambda m, s, t, who: s)
    assert _caught("652.2.a")


def test_a_model_that_recalls_the_units_of_the_replaced_battlefield_is_caught(monkeypatch: Any) -> None:
    """Wrong: replacing the battlefield sends the units there to their bases."""
    right = battlefields.remove_contributed

    def recall(m: Riftbound, s: State, t: Any, who: str) -> State:
        gone = {b.name for b in s.battlefields if b.contributor == who}
        out = right(m, s, t, who)
        return replace(out, board=tuple(replace(u, location="base") if u.location in gone else u for u in out.board))
    monkeypatch.setattr("kb.timing.models.riftbound.conceding.remove_contributed", recall)
    assert _caught("652.2.b")


# -- bad input: refused with its place -------------------------------------------------------------
SCENARIO = """
name: A battlefield with a contributor.
ruleset: riftbound
players: [Ann, Bo, Cy]
battlefields:
  Arena: {contributed_by: %s}
cards:
  Arena: {type: battlefield, here: %s}
  Scout: {type: unit, here: %s}
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("contributor,here,unit_here,field,words", [
    ("Dan", "{might: 1}", "null", "battlefields.Arena.contributed_by", "not a player"),
    ("Cy", "{might: 0}", "null", "cards.Arena.here.might", "not 0"),
    ("Cy", "{might: 10}", "null", "cards.Arena.here.might", "-9 to 9"),
    ("Cy", "{power: 1}", "null", "cards.Arena.here", "unknown key 'power'"),
    ("Cy", "{might: 1}", "{might: 1}", "cards.Scout.here", "only a battlefield"),
], ids=["an unknown contributor", "no Might", "too much Might", "an unknown key", "a unit's here"])
def test_a_battlefield_ability_or_contributor_the_model_cannot_read_is_refused_with_its_place(
        contributor: str, here: str, unit_here: str, field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % (contributor, here, unit_here)))
    assert err.value.field == field and words in str(err.value), err.value


def test_a_unit_moved_away_from_the_battlefield_loses_its_might_and_dies_of_its_damage() -> None:
    """The Might a battlefield gives is the units' there only (a unit at base has its own)."""
    result = run(loads("""
name: A unit recalled from a battlefield giving Might dies of the damage it survived there.
ruleset: riftbound
players: [{name: Ann, hand: [Zap, Recall]}, Bo]
battlefields:
  Arena: {controller: Bo, units: {Bo: [Guard]}}
cards:
  Arena: {type: battlefield, here: {might: 1}}
  Guard: {type: unit, might: 2}
  Zap: {type: spell, effects: [{deal: {unit: target, amount: 2}}]}
  Recall: {type: spell, effects: [{move: {unit: target, to: base}}]}
steps:
  - play: {player: Ann, card: Zap, target: Guard}
  - pass: Ann
  - pass: Bo
  - expect: {might: {Guard: 3}, damage: {Guard: 2}}
  - play: {player: Ann, card: Recall, target: Guard}
  - pass: Ann
  - pass: Bo
  - expect: {board: {}, trash: [Zap, Recall, Guard]}
"""))
    assert result.ok, result.error
