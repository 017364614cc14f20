"""Conceding in the Riftbound timing model (649–652) and in Magic (104.3a, 800.4a): from every
state a bounded exploration reaches (2, 3 and 4 players, 2v2), each player still in the game
concedes, and what the rules say of the removal is checked from the states and the trace alone;
deliberately wrong models are caught; bad input is refused with its place. The scenarios written
as sentences are in ``tests/scenarios/*/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.riftbound import Riftbound, State, conceding, scenario, state_io
from kb.timing.scenario import loads, run

CARDS = {
    "Insight": {"type": "spell", "keywords": ["Action"], "effects": [{"draw": 2}]},
    "Strike": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}]},
    "Defy": {"type": "spell", "keywords": ["Reaction"], "effects": [{"counter": "target"}]},
    "Spark": {"type": "spell", "keywords": ["Reaction"], "effects": [{"draw": 1}]},
    "Scout": {"type": "unit"},
    "Yeti": {"type": "unit", "might": 3},
}

SEATS = [{"name": "Ann", "hand": ["Insight", "Strike"], "base": ["Scout"], "team": "red"},
         {"name": "Bo", "hand": ["Defy", "Spark"], "team": "blue"},
         {"name": "Cy", "hand": ["Spark"], "base": ["Yeti"], "team": "red"},
         {"name": "Dee", "hand": ["Spark"], "team": "blue"}]

# (players, teams, depth): every decision sequence to that depth, each player conceding in
# every state reached; small enough to stay near a second of CPU each.
CASES = [(2, False, 8), (3, False, 7), (4, True, 5)]


def setup(players: int, teams: bool) -> tuple[Riftbound, State]:
    seats = [{k: v for k, v in seat.items() if teams or k != "team"} for seat in SEATS[:players]]
    return scenario.setup({"players": seats, "cards": CARDS,  # type: ignore[return-value]
                           "battlefields": [{"name": "Temple"}]})


def decision_states(model: Riftbound, state: State, depth: int) -> Iterator[State]:
    """Every state a decision is due in, up to ``depth`` decisions (each once)."""
    seen: set[State] = set()
    todo = [(state, depth)]
    while todo:
        s, left = todo.pop()
        out = engine.advance(model, s, with_illegal=False)
        if out.state in seen:
            continue
        seen.add(out.state)
        if out.decision is None:
            continue
        yield out.state
        if left:
            todo += [(engine.apply(model, out.state, o.transition.name, o.params).after, left - 1)
                     for o in out.decision.options]


def passed_before(s: State, holder: str | None, passes: int) -> list[str]:
    """Who passed in sequence just before ``holder`` (computed here, not by the model)."""
    if holder is None:
        return []
    i = s.players.index(holder)
    return [s.players[(i - k) % len(s.players)] for k in range(1, passes + 1)]


def violations(model: Riftbound, before: State, who: str, node: TraceNode) -> Iterator[str]:
    """What 651 and 652 say of ``who`` conceding in ``before``, from the states and the trace."""
    after = node.after
    leaving = {who, *before.teammates(who)}
    left = [p for p in before.players if p not in leaving]
    if len(left) == 1 or before.teams:
        if after.winner != left[0] or after.phase != "over":
            yield f"{who} conceded leaving only {', '.join(left)}, who did not win (651.1, 651.4)"
        return
    if who in after.players or who not in after.removed:
        yield f"{who} conceded but is still a player (651)"
    if any(u.controller == who for u in after.board):
        yield f"{who}'s permanents were not banished (652.1)"
    if any(i.controller == who for i in after.chain):
        yield f"{who}'s spells and abilities were not countered (652.4)"
    if after.hand(who) is not None or any(p == who for p, _ in after.hands):
        yield f"{who}'s hand did not leave the game (652.3)"
    if who in (after.priority, after.focus) or any(who in (b.controller, b.contested_by) for b in after.battlefields):
        yield f"{who} still holds priority, focus or a battlefield (651.3)"
    if who == before.turn_player:
        if after.phase != "over" or model.terminal(after) is None:
            yield f"{who}, the turn player, left and the turn went on (652.5.a.1)"
        return
    nxt = next(p for p in before.players[before.players.index(who) + 1:] + before.players if p != who)
    if after.chain:
        passed = [p for p in passed_before(before, before.priority, before.passes) if p != who]
        if before.priority == who and after.priority != nxt:
            yield f"{who} had priority, which went to {after.priority}, not {nxt} (652.5.c.1)"
        if before.priority not in (who, None) and after.priority != before.priority:
            yield f"priority moved from {before.priority} though {who} did not hold it (652.5.c)"
        if after.passes != len(passed):
            yield f"{after.passes} passes counted after {who} left, {len(passed)} players left had passed (652.5.c.2)"
    if before.showdown is not None and not before.chain and before.focus == who:
        passed = [p for p in passed_before(before, who, before.showdown.passes) if p != who]
        if len(passed) >= len(left):
            if after.showdown is not None:
                yield f"every player left had passed focus but the showdown went on (652.5.b.2)"
        elif after.focus != nxt:
            yield f"{who} had focus, which went to {after.focus}, not {nxt} (652.5.b.1)"


def explore_concessions(players: int, teams: bool, depth: int) -> tuple[int, int, list[str], set[str]]:
    """Each player concedes in every decision state reached: (states, concessions, violations, steps seen)."""
    model, start = setup(players, teams)
    states = concessions = 0
    broken: list[str] = []
    seen: set[str] = set()
    for s in decision_states(model, start, depth):
        states += 1
        for who in s.players:
            node = engine.apply(model, s, "concede", {"player": who})
            concessions += 1
            seen |= {n.name for n in node.walk()}
            broken += [f"{v} [{who} in {s.turn_state}]" for v in violations(model, s, who, node)]
            again, read, bad = state_io.state_from_json(state_io.state_json(model, node.after))
            if bad or read != node.after:
                broken.append(f"the state after {who} conceded does not read back: {bad}")
            outcome = engine.advance(model, node.after, with_illegal=False)  # play goes on (or the game ended)
            seen |= {n.name for step in outcome.steps for n in step.walk()}
    return states, concessions, broken, seen


REACHED = {2: ("wins-by-concession",),
           3: ("countered-on-removal", "banished-on-removal", "priority-on-removal", "all-passed-on-removal",
               "focus-on-removal", "focus-passed-on-removal", "turn-passes-on-removal", "resolve"),
           4: ("team-concedes", "wins-by-concession")}


@pytest.mark.parametrize("players,teams,depth", CASES, ids=[f"{p}-players{'-2v2' if t else ''}-depth-{d}"
                                                           for p, t, d in CASES])
def test_every_player_conceding_in_every_state_reached_is_removed_as_the_rules_say(
        players: int, teams: bool, depth: int, capsys: Any) -> None:
    states, concessions, broken, seen = explore_concessions(players, teams, depth)
    with capsys.disabled():
        print(f"\n  conceding, {players} players{' (2v2)' if teams else ''}, depth {depth}: {states} states, "
              f"{concessions} concessions")
    assert not broken, broken[:5]
    assert states > 20
    for name in REACHED[players]:
        assert name in seen, f"no concession reached {name}"


# -- deliberately wrong models ------------------------------------------------------------------
def _caught(rule: str) -> list[str]:
    return [b for b in explore_concessions(3, False, 5)[2] if f"({rule})" in b]


def test_a_model_that_still_counts_the_pass_of_the_player_who_left_is_caught(monkeypatch: Any) -> None:
    """Wrong: every pass in the sequence still counts after its player left, so a spell resolves
    before every player left has passed."""
    monkeypatch.setattr(conceding, "passed_in_sequence", lambda s, holder, passes: ["?"] * passes)
    assert _caught("652.5.c.2")


def test_a_model_that_gives_priority_to_the_newest_items_controller_is_caught(monkeypatch: Any) -> None:
    """Wrong: priority goes to the controller of the newest item left (as after a resolution),
    not to the next player in turn order (652.5.c.1)."""
    right = conceding.remove

    def newest(m: Riftbound, s: State, t: Any, who: str) -> State:
        out = right(m, s, t, who)
        if s.priority == who and out.chain:
            from dataclasses import replace
            out = replace(out, priority=out.chain[-1].controller)
        return out
    monkeypatch.setattr(conceding, "remove", newest)
    assert _caught("652.5.c.1")


# -- bad input: refused with its place -------------------------------------------------------------
COMBAT = """
name: A combat of three players.
ruleset: riftbound
players:
  - {name: Ann}
  - {name: Bo}
  - {name: Cy}
battlefields:
  - {name: Temple, controller: Bo, units: {Ann: [Raider], Bo: [Guard]}}
start:
  combat: {at: Temple, attacker: Ann}
cards:
  Raider: {type: unit, might: 3}
  Guard: {type: unit, might: 2}
steps:
  - concede: %s
"""


@pytest.mark.parametrize("step,field,words", [
    ("Dan", "concede.player", "not one of the players"),
    ("{player: 3}", "concede", "a non-empty string"),
    ("Bo", "concede", "the defender of the combat at Temple"),
], ids=["an unknown player", "not a name", "the defender of a combat that goes on"])
def test_a_concession_the_model_cannot_follow_is_refused_with_its_place(step: str, field: str, words: str) -> None:
    result = None
    with pytest.raises(Exception) as err:
        result = run(loads(COMBAT % step))
    assert result is None
    assert getattr(err.value, "field", None) == field and words in str(err.value), err.value


def test_a_player_outside_a_combat_of_three_concedes_and_the_combat_goes_on() -> None:
    result = run(loads(COMBAT % "Cy"))
    assert result.ok, result.error
    assert result.final.players == ("Ann", "Bo") and result.final.combat is not None


# -- Magic: conceding is a step too (the scenarios are in tests/scenarios/mtg) --------------------
@pytest.mark.parametrize("kind,payload,field", [
    ("concede", {"player": 3}, "concede"),
], ids=["magic: not a name"])
def test_a_malformed_magic_concession_names_its_place(kind: str, payload: Any, field: str) -> None:
    with pytest.raises(FormatError) as err:
        mtg_scenario.action(kind, payload, None)  # type: ignore[arg-type]
    assert err.value.field == field


MTG_CARDS = {
    "Grizzly Bears": {"type": "creature", "power": 2, "toughness": 2},
    "Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
    "Lightning Bolt": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 3}}]},
}


def mtg_violations(before: Any, who: str, node: TraceNode) -> Iterator[str]:
    """What 104.3a and 800.4a say of ``who`` conceding in ``before``, from the states and the trace."""
    after = node.after
    if who not in after.lost:
        yield f"{who} conceded and did not lose (104.3a)"
    if after.over:
        return
    if any(o.controller == who for o in after.stack) or any(u.controller == who for u in after.board):
        yield f"{who} left the game with objects still in it (800.4a)"
    order = before.remaining
    nxt = next(p for p in order[order.index(who) + 1:] + order if p != who)
    if before.priority == who and after.priority not in (nxt, None):
        yield f"{who} had priority, which went to {after.priority}, not {nxt} (800.4a)"
    if before.priority not in (who, None):
        i = order.index(before.priority)
        passed = [order[(i - k) % len(order)] for k in range(1, before.passes + 1)]
        kept = len([p for p in passed if p != who])
        if after.priority is not None and after.passes != kept:
            yield f"{after.passes} passes counted after {who} left, {kept} players left had passed (117.4)"
        if after.priority is None and kept < len(after.remaining):
            yield f"the players left had not all passed, yet priority ended (117.4)"


@pytest.mark.parametrize("edition", ["2026-01-16", "2010-10-01"])
def test_every_magic_player_conceding_in_every_state_reached_leaves_as_the_rules_say(edition: str, capsys: Any) -> None:
    model, start = mtg_scenario.setup({"ruleset": "mtg", "edition": edition, "cards": MTG_CARDS,
                                       "start": {"step": "main1", "turn": 3},
                                       "players": [{"name": "Ann", "hand": ["Lightning Bolt"]},
                                                   {"name": "Bo", "hand": ["Shock"], "battlefield": ["Grizzly Bears"]},
                                                   {"name": "Cy", "hand": ["Shock"]}]})
    states = 0
    broken: list[str] = []
    for s in decision_states(model, start, 6):  # type: ignore[arg-type]
        states += 1
        for who in s.remaining:
            node = engine.apply(model, s, "concede", {"player": who})
            broken += [f"{v} [{who}]" for v in mtg_violations(s, who, node)]
            engine.advance(model, node.after, with_illegal=False)
    with capsys.disabled():
        print(f"\n  magic conceding, {edition}, depth 6: {states} states, each player conceding in each")
    assert not broken, broken[:5]
    assert states > 50


def test_a_magic_model_that_still_counts_the_pass_of_the_player_who_left_is_caught(monkeypatch: Any) -> None:
    """Wrong: the passes in succession are kept as they were when a player concedes (117.4)."""
    from dataclasses import replace

    from kb.timing.models.mtg import decisions
    right = decisions.concede

    def kept(m: Any, s: Any, p: Any, t: Any) -> Any:
        out = right(m, s, p, t)
        return replace(out, passes=s.passes) if out.priority is not None and not out.over else out
    model, start = mtg_scenario.setup({"ruleset": "mtg", "edition": "2026-01-16", "cards": MTG_CARDS,
                                       "start": {"step": "main1", "turn": 3},
                                       "players": [{"name": "Ann", "hand": ["Lightning Bolt"]}, {"name": "Bo"},
                                                   {"name": "Cy"}]})
    spec = model.transitions["concede"]
    from functools import partial
    model.transitions["concede"] = replace(spec, effect=partial(kept, model))
    try:
        broken = [v for s in decision_states(model, start, 4)  # type: ignore[arg-type]
                  for who in s.remaining
                  for v in mtg_violations(s, who, engine.apply(model, s, "concede", {"player": who}, invariants=False))]
    finally:
        model.transitions["concede"] = spec
    assert any("(117.4)" in b for b in broken)
