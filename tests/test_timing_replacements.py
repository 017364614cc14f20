"""Replacement effects on deaths and modes of play with teammates in the Riftbound timing model:
every decision sequence up to a bounded depth (2 and 3 players, and 2v2) keeps what the rules
say of them, computed from the trace alone; deliberately wrong models are caught; and bad input
is refused with its place."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from test_timing_costs_and_damage import explore_and_report
from kb.timing import engine
from kb.timing.engine import FormatError, InvariantBroken, TraceNode
from kb.timing.models.riftbound import Riftbound, State, scenario, state_io
from kb.timing.models.riftbound.cards import Trigger
from kb.timing.models.riftbound.state import with_permanent
from kb.timing.models.riftbound.triggers import fire

CARDS = {
    "Execute": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}]},
    "Stasis": {"type": "spell", "keywords": ["Reaction"], "effects": [{"save": "target"}]},
    "Blast": {"type": "spell", "keywords": ["Action"], "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Blood Rite": {"type": "spell", "keywords": ["Action"], "additional_cost": ["kill a friendly unit"],
                   "effects": [{"draw": 1}]},
    "Raider": {"type": "unit", "might": 2},
    "Agent": {"type": "unit", "deathknell": [{"draw": 1}]},
    "Guard": {"type": "unit"},
    "Warden": {"type": "unit", "deathknell": [{"draw": 1}], "replacement": {"would_die": "friendly", "kill_this": True}},
    "Zhonya's Hourglass": {"type": "gear", "replacement": {"would_die": "friendly", "kill_this": True}},
    "Soul Lantern": {"type": "gear", "replacement": {"would_die": "friendly-deathknell"}},
}

# (seats, depth, what the exploration must reach): two and three players, and four in two teams;
# deep enough to reach every replacement (a kill, lethal damage in a cleanup, combat damage, a
# cost), small enough to stay well under 30 s.
EVERYWHERE = ("death-replaced", "killed-instead", "death-trigger-removed", "death-triggers", "kill")
CASES = [
    (2, 8, EVERYWHERE + ("next-death-replaced", "cost-paid-though-replaced", "replacement-order",
                         "simultaneous-deaths-in-order")),
    (3, 7, EVERYWHERE + ("next-death-replaced", "simultaneous-deaths-in-order", "deathknell-checked")),
    (4, 5, EVERYWHERE + ("cost-paid-though-replaced", "simultaneous-deaths-in-order")),
]


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Execute", "Blast", "Blood Rite"], "base": ["Raider", "Agent"]},
             {"name": "Bo", "hand": ["Stasis"], "base": ["Zhonya's Hourglass"]},
             {"name": "Cy", "hand": ["Stasis"], "base": ["Warden", "Soul Lantern"]},
             {"name": "Dee", "base": ["Agent"]}]
    if players == 4:
        for seat, team in zip(seats, ("red", "blue", "red", "blue")):
            seat["team"] = team
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard", "Agent"]}}, "Hill"]})


def _cards_by_unit(node: TraceNode) -> dict[str, str]:
    return {u.name: u.card for n in node.walk() for u in (*n.before.board, *n.after.board)}


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What the rules say of replaced deaths and of teams, from the states and the trace."""
    before, after = node.before, node.after
    if node.name == "death-replaced":
        u = after.permanent(node.params["unit"])
        if u is None or u.location != "base" or not u.exhausted or u.damage:
            yield f"{node.params['unit']} is not healed, exhausted and recalled instead of dying (369.1)"
        if (after.chain, after.priority, after.focus) != (before.chain, before.priority, before.focus):
            yield "a replacement effect used the chain or moved priority or focus (370.1.c)"
    if node.transition.kind != "step":
        cards = _cards_by_unit(node)
        killed = [cards[c.params["unit"]] for c in node.walk() if c.name in ("kill", "killed-by-cleanup", "killed-as-cost")]
        allowed = [tr.name for card in killed for tr in model.triggers_of(card, "leave")]
        fired = [c.params["item"] for c in node.walk() if c.name == "death-triggers"]
        for item in fired:
            if item not in allowed:
                yield f"{item} triggered for a death that did not happen (808.1.d.1)"
            else:
                allowed.remove(item)
        replaced = [c.params["unit"] for c in node.walk() if c.name == "death-replaced"]
        for unit in replaced:
            killed_instead = [c.params["source"] for c in node.walk()
                              if c.name in ("killed-instead", "would-be-killed-instead")]
            if replaced.count(unit) > 1 and unit not in killed_instead:
                yield f"{unit}'s one death was replaced twice (370.2)"
    points = dict(after.points)
    for team in after.teams:
        if len({points.get(p, 0) for p in team}) > 1:
            yield f"teammates {' and '.join(team)} have different points (489.8.d.1)"
    if after.teams and node.name == "standard-move":
        mover = after.permanent(node.params["unit"])
        allies = after.teammates(node.params["player"])
        if mover is not None and any(u.controller in allies for u in after.units_at(mover.location)):
            yield f"{mover.name} moved where a teammate's units are (447.2.b)"


@pytest.mark.parametrize("players,depth,reached", CASES, ids=[f"{p}-players-depth-{d}" for p, d, _ in CASES])
def test_replaced_deaths_keep_off_the_chain_in_every_decision_sequence(players: int, depth: int,
                                                                       reached: tuple[str, ...], capsys: Any) -> None:
    explore_and_report(f"replacement effects, {players} players{' in two teams' if players == 4 else ''}, depth {depth}",
                       *setup(players), depth, violations, reached, capsys)


# Scoring in 2v2: points shared, a battlefield a teammate controlled in the Scoring Step, the win.
TEAM_CARDS = {
    "Raider": {"type": "unit", "might": 2},
    "Scout": {"type": "unit"},
    "Fall Back": {"type": "spell", "keywords": ["Action"], "effects": [{"move": {"unit": "target", "to": "base"}}]},
}


def setup_teams() -> tuple[Riftbound, State]:
    return scenario.setup({  # type: ignore[return-value]
        "players": [{"name": "Ann", "team": "red", "points": 10, "hand": ["Fall Back"], "base": ["Raider", "Scout"]},
                    {"name": "Bo", "team": "blue", "points": 9, "base": ["Scout"]},
                    {"name": "Cy", "team": "red"}, {"name": "Dee", "team": "blue", "hand": ["Fall Back"]}],
        "cards": TEAM_CARDS,
        "battlefields": {"Temple": {"controller": "Cy"}, "Hill": None}})


def test_teams_share_points_in_every_decision_sequence(capsys: Any) -> None:
    model, state = setup_teams()
    stats, seen, broken = explore_checked(model, state, 11, violations)
    names = ("gains-point", "team-gains-point", "teammate-battlefield-disqualified", "team-wins", "game-won")
    with capsys.disabled():
        print(f"\n  2v2 scoring, depth 11: {stats.states} states visited, {stats.decisions} decisions, "
              f"{stats.steps} automatic steps, {stats.ends} ended turns; " + ", ".join(f"{n} {seen[n]}" for n in names))
    assert not broken, broken[:5]
    assert stats.states > 200
    for name in names:
        assert seen[name], f"the exploration never reached {name}"


# -- deliberately wrong models ------------------------------------------------------------------
def replaced_but_triggered(model: Riftbound, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong replacement: the unit is saved, yet its death triggers go on the chain."""
    from kb.timing.models.riftbound import replacements
    s = replacements.death_replaced(model, s, p, t)
    u = s.permanent(p["unit"])
    assert u is not None
    return fire(s, t, [(u.controller, tr, u.card) for tr in model.triggers_of(u.card, "leave")], "death-triggers")


class TriggeredAnyway(Riftbound):
    """A deliberately wrong model: a replaced death still puts the unit's Deathknell on the chain."""

    def __init__(self, cards: Any) -> None:
        super().__init__(cards)
        step = self.transitions["death-replaced"]
        self.transitions["death-replaced"] = dataclasses.replace(
            step, effect=functools.partial(replaced_but_triggered, self))


def test_a_model_whose_replaced_death_still_triggers_is_caught() -> None:
    model, state = setup(2)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(TriggeredAnyway(model.cards), state, 6)
    assert "370.1.c" in err.value.rules


def points_kept_apart(effect: Any, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong pass of focus: the conquering player's point is not the team's."""
    after = effect(s, p, t)
    was = dict(s.points)
    rose = [pl for pl, n in after.points if n != was.get(pl, 0)]
    return dataclasses.replace(after, points=tuple((pl, was.get(pl, 0) if pl in rose[1:] else n)
                                                   for pl, n in after.points))


class PointsKeptApart(Riftbound):
    """A deliberately wrong model: a point one teammate scores is theirs alone."""

    def __init__(self, cards: Any) -> None:
        super().__init__(cards)
        passing = self.transitions["pass-focus"]
        self.transitions["pass-focus"] = dataclasses.replace(
            passing, effect=functools.partial(points_kept_apart, passing.effect))


def test_a_model_whose_teammates_do_not_share_points_is_caught() -> None:
    model, state = setup_teams()
    with pytest.raises(InvariantBroken) as err:
        engine.explore(PointsKeptApart(model.cards), state, 11)
    assert "489.8.d.1" in err.value.rules


# -- bad input: refused with its place ----------------------------------------------------------
def _with(change: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"players": [{"name": "Ann", "team": "red"}, {"name": "Bo", "team": "blue"},
                                        {"name": "Cy", "team": "red"}, {"name": "Dee", "team": "blue"}],
                            "cards": {"Gear": {"type": "gear", "replacement": {"would_die": "friendly"}}}}
    change(data)
    return data


@pytest.mark.parametrize("change,field", [
    (lambda d: d["cards"]["Gear"].update(replacement={"would_die": "enemy"}), "cards.Gear.replacement.would_die"),
    (lambda d: d["cards"]["Gear"].update(replacement={"would_die": "self"}), "cards.Gear.replacement.would_die"),
    (lambda d: d["cards"]["Gear"].update(replacement={"would_die": "friendly", "kill_this": "yes"}),
     "cards.Gear.replacement.kill_this"),
    (lambda d: d["cards"]["Gear"].update(replacement={"would_die": "friendly", "instead": "exile"}),
     "cards.Gear.replacement"),
    (lambda d: d["cards"].update(Spell={"type": "spell", "replacement": {"would_die": "friendly"}}),
     "cards.Spell.replacement"),
    (lambda d: d["cards"].update(Spell={"type": "spell", "effects": [{"save": 3}]}), "cards.Spell.effects[0].save"),
    (lambda d: d["players"][3].pop("team"), "players.Dee"),
    (lambda d: d["players"].pop(), "players"),
    (lambda d: d["players"][1].update(team="red") or d["players"][2].update(team="blue"), "players"),
    (lambda d: d["players"][0].update(points=3) or d["players"][2].update(points=4), "players.Cy.points"),
])
def test_bad_replacements_and_teams_are_refused_with_their_place(change: Any, field: str) -> None:
    with pytest.raises(FormatError) as err:
        scenario.setup(_with(change))
    assert err.value.field == field


@pytest.mark.parametrize("change,field,message", [
    (lambda d: d["players"][3].update(team="red"), "players.Dee.team", "team 'red' has 3 players (Ann, Cy, Dee)"),
    (lambda d: d["players"][3].update(team="green"), "players.Bo.team", "team 'blue' has 1 player (Bo)"),
    (lambda d: [p.update(team="red") for p in d["players"]], "players.Dee.team", "team 'red' has 4 players"),
])
def test_a_team_not_of_two_is_refused_naming_the_team_and_its_players(change: Any, field: str, message: str) -> None:
    with pytest.raises(FormatError) as err:
        scenario.setup(_with(change))
    assert err.value.field == field and message in err.value.message and "489.2" in err.value.message


@pytest.mark.parametrize("change,rule", [
    (lambda d: d.update(teams=[["Ann", "Bo"], ["Cy", "Dee"]]), "489.5.c"),
    (lambda d: d.update(points={"Ann": 2, "Bo": 0, "Cy": 1, "Dee": 0}), "489.8.d.1"),
])
def test_a_pasted_state_with_impossible_teams_is_refused(change: Any, rule: str) -> None:
    model, state = setup_teams()
    data = state_io.state_json(model, state)
    change(data)
    pasted, read, broken = state_io.state_from_json(data)
    broken += pasted.validate(read)
    assert any(rule in v.rules for v in broken), broken


@pytest.mark.parametrize("teams,field", [
    ([["Ann", "Cy"], ["Cy", "Dee"]], "teams[1]"),
    ([["Ann", "Zed"]], "teams[0][1]"),
    ("Ann", "teams"),
])
def test_malformed_teams_in_a_state_name_their_place(teams: Any, field: str) -> None:
    model, state = setup_teams()
    data = state_io.state_json(model, state)
    data["teams"] = teams
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field


# -- replacement effects "once (N times) each turn" and on how a unit enters (371, 369.3) -------------
LIMITED_CARDS = {
    "Execute": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}]},
    # two kills one after the other, not simultaneous (370.1.a.2)
    "Purge": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}, {"kill": "Agent"}]},
    "Blast": {"type": "spell", "keywords": ["Action"], "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Swift Blade": {"type": "unit", "might": 2, "enters": {"ready": True}},
    "Deep Titan": {"type": "unit", "might": 3, "enters": {"as": [{"draw": 1}]},
                   "triggers": [{"on": "play", "name": "Deep Titan's play effect", "effects": [{"draw": 1}]}]},
    "Guard": {"type": "unit"},
    "Agent": {"type": "unit", "deathknell": [{"draw": 1}]},
    "Stubborn": {"type": "unit", "replacement": {"would_die": "self", "each_turn": 2}},
    "Ward Totem": {"type": "gear", "replacement": {"would_die": "friendly", "each_turn": 1}},
    "Ward": {"type": "spell", "keywords": ["Reaction"], "effects": [{"prevent": {"unit": "Agent", "amount": 1}}]},
    "Lucky Charm": {"type": "gear", "replacement": {"would_die": "friendly", "each_turn": 1, "may": True}},
}
LIMITED_REACHED = ("death-replaced", "replacement-used-up", "enters-ready", "as-enters", "kill", "death-triggers",
                   "prevent-damage", "damage-prevented", "apply-replacement", "decline-replacement",
                   "replacement-declined")
LIMITED_CASES = [(2, 6), (3, 6)]


def setup_limited(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Execute", "Purge", "Blast", "Swift Blade", "Deep Titan"],
              "base": ["Guard", "Lucky Charm"]},
             {"name": "Bo", "hand": ["Ward"], "base": ["Ward Totem", "Agent", "Stubborn"]},
             {"name": "Cy", "hand": ["Deep Titan"], "base": ["Stubborn"]}]
    model, state = scenario.setup({
        "players": seats[:players], "cards": LIMITED_CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard"]}}]})
    # Agent starts with "prevent the next 1 damage" (an earlier Ward this turn): a Blast reaches it early
    return model, with_permanent(state, "Agent", prevent=1)  # type: ignore[return-value]


def limited_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What 371.1, 369.3 and 370.1.b.1 say, from the states and the trace: a limited replacement
    applied only while its count this turn is under its limit, and counted once per event; a
    unit entering ready only by its own "I enter ready"; what "as I enter" does using no chain;
    a "you may" replacement applied only when its controller chose to apply it to that death;
    damage dealt to a unit less its Prevent Value, which falls by what it prevented (437.2, 437.3)."""
    if node.transition.kind != "step":
        cards = _cards_by_unit(node)
        applied = [c.params["source"] for c in node.walk() if c.name == "death-replaced" and not c.params["next"]]
        for source in set(applied):
            r = model.cards[cards[source]].replacement
            if r is None or r.each_turn is None:
                continue
            was, now = node.before.times_replaced(source), node.after.times_replaced(source)
            if now != was + applied.count(source) or now > r.each_turn:
                yield f"{source}'s replacement applied {now} times this turn ({r.each_turn} each turn, 371.1)"
        for c in node.walk():
            if c.name == "replacement-used-up":
                r = model.cards[cards[c.params["source"]]].replacement
                if r is None or r.each_turn is None or c.before.times_replaced(c.params["source"]) < r.each_turn:
                    yield f"{c.params['source']}'s replacement refused before its limit (371.1)"
    if node.name == "resolves-immediately":
        new = [u for u in node.after.board if node.before.permanent(u.name) is None]
        for u in new:
            card = model.cards[u.card]
            if card.type == "unit" and u.exhausted == card.enters_ready:
                yield f"{u.name} entered {'exhausted' if u.exhausted else 'ready'} (369.3)"
    if node.name == "deal" or node.name == "damage-prevented":
        u = node.before.permanent(node.params["unit"])
        if node.name == "deal" and u is not None and u.prevent:
            yield f"{u.name} was dealt damage past a Prevent Value of {u.prevent} (437.2)"
        if node.name == "damage-prevented" and (u is None or node.params["prevented"] != min(
                u.prevent, node.params["amount"]) or node.params["value"] != u.prevent - node.params["prevented"]):
            yield f"{node.params['unit']}'s damage was not reduced by its Prevent Value (437.2, 437.3)"
    if node.name == "death-replaced" and not node.params["next"]:
        x = node.before.permanent(node.params["source"])
        r = model.cards[x.card].replacement if x is not None else None
        if r is not None and r.optional and (x.name, node.params["unit"], True) not in node.before.replacement_choices:
            yield f"{x.name}'s \"you may\" replacement applied unchosen (371.2.a)"
    if node.name == "as-enters":
        b, a = node.before, node.after
        if (a.chain, a.priority, a.focus) != (b.chain, b.priority, b.focus):
            yield "what a unit does as it enters used the chain or moved priority or focus (370.1.b.1)"
        if sum(n for _, n in a.drawn) != sum(n for _, n in b.drawn) + 1:
            yield "\"as I enter, draw 1\" did not draw exactly one card as the unit entered (370.1.b.1)"


@pytest.mark.parametrize("players,depth", LIMITED_CASES, ids=[f"{p}-players-depth-{d}" for p, d in LIMITED_CASES])
def test_limited_and_entering_replacements_keep_their_rules_in_every_decision_sequence(
        players: int, depth: int, capsys: Any) -> None:
    explore_and_report(f"once-each-turn and entering replacements, {players} players, depth {depth}",
                       *setup_limited(players), depth, limited_violations, LIMITED_REACHED, capsys)


def never_counted(effect: Any, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong replaced death: a "once each turn" replacement is not counted."""
    return dataclasses.replace(effect(s, p, t), replaced=s.replaced)


def as_enters_on_chain(m: Riftbound, effect: Any, s: State, p: Any, t: Any) -> State:
    """A deliberately wrong "as I enter": its instructions go on the chain as a triggered ability."""
    card = m.cards[p["card"]]
    return fire(s, t, [(p["player"], Trigger("play", f"{card.name} as it enters", card.as_enters), card.name)],
                "triggers")


class WrongReplacements(Riftbound):
    """A deliberately wrong model: ``step`` (a transition's name) takes ``wrong`` as its effect."""

    def __init__(self, cards: Any, step: str, wrong: Any) -> None:
        super().__init__(cards)
        t = self.transitions[step]
        self.transitions[step] = dataclasses.replace(t, effect=functools.partial(wrong, t.effect))


def test_a_model_that_applies_a_you_may_replacement_unasked_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong model: a "you may" replacement is applied as if its controller had chosen to."""
    monkeypatch.setattr(State, "chose", lambda self, source, unit: True)
    model, state = setup_limited(2)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(model, state, 4)
    assert "371.2.a" in err.value.rules


class NotWaiting(Riftbound):
    """A deliberately wrong model: nothing waits for a "you may" replacement's controller to choose."""

    def _wait_for_replacement_choices(self) -> None:
        pass


def test_a_model_that_does_not_wait_for_a_you_may_choice_is_caught() -> None:
    model, state = setup_limited(2)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(NotWaiting(model.cards), state, 4)
    assert err.value.invariant.name == "replacement-asked" and "371.2.a" in err.value.rules


def test_a_model_that_deals_damage_past_a_prevent_value_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong ``deal``: it marks the damage whatever the unit's Prevent Value."""
    from kb.timing.models.riftbound import damage, effects

    def ignoring_prevention(m: Riftbound, s: State, t: Any, item: Any, e: Any) -> State:
        u = s.permanent(item.target if e[1] == "target" else e[1])
        return s if u is None else damage._changed(s, dataclasses.replace(u, damage=u.damage + e[2]))
    monkeypatch.setitem(effects.RUNS, "deal", ignoring_prevention)
    model, state = setup_limited(2)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(model, state, 6)
    assert "437.2" in err.value.rules


@pytest.mark.parametrize("step,wrong,rule", [
    ("death-replaced", never_counted, "371.1"),
    ("as-enters", None, "370.1.b.1"),
], ids=["a once-each-turn replacement never counted", "as-I-enter instructions put on the chain"])
def test_a_model_wrong_about_limited_or_entering_replacements_is_caught(step: str, wrong: Any, rule: str) -> None:
    model, state = setup_limited(2)
    bad = WrongReplacements(model.cards, step, wrong or (lambda effect, s, p, t: as_enters_on_chain(bad, effect, s, p, t)))
    with pytest.raises(InvariantBroken) as err:
        engine.explore(bad, state, 5)
    assert rule in err.value.rules


# -- bad input for limited, "you may" and entering replacements and prevention: refused with its place ---
def _pool(**cards: Any) -> dict[str, Any]:
    return {"players": ["Ann", "Bo"], "cards": {"Gear": {"type": "gear"}, "Unit": {"type": "unit"}, **cards}}


@pytest.mark.parametrize("card,field", [
    ({"type": "gear", "replacement": {"would_die": "friendly", "each_turn": 0}}, "cards.X.replacement.each_turn"),
    ({"type": "gear", "replacement": {"would_die": "friendly", "each_turn": "once"}}, "cards.X.replacement.each_turn"),
    ({"type": "gear", "replacement": {"would_die": "friendly", "may": "yes"}}, "cards.X.replacement.may"),
    ({"type": "spell", "enters": {"ready": True}}, "cards.X.enters"),
    ({"type": "gear", "enters": {"ready": True}}, "cards.X.enters.ready"),
    ({"type": "unit", "enters": {"ready": "yes"}}, "cards.X.enters.ready"),
    ({"type": "unit", "enters": {"quickly": True}}, "cards.X.enters"),
    ({"type": "unit", "enters": {"as": [{"kill": "target"}]}}, "cards.X.enters.as[0]"),
    ({"type": "unit", "enters": {"as": {"draw": 1}}}, "cards.X.enters.as"),
    ({"type": "spell", "effects": [{"prevent": {"unit": "target", "amount": 0}}]}, "cards.X.effects[0].prevent.amount"),
    ({"type": "spell", "effects": [{"prevent": {"unit": "target"}}]}, "cards.X.effects[0].prevent.amount"),
    ({"type": "spell", "effects": [{"prevent": {"unit": "target", "amount": 2, "from": "Bo"}}]},
     "cards.X.effects[0].prevent"),
    # one kill of several units (370.1.a.2)
    ({"type": "spell", "effects": [{"kill": ["Unit"]}]}, "cards.X.effects[0].kill"),
    ({"type": "spell", "effects": [{"kill": ["Unit", "Unit"]}]}, "cards.X.effects[0].kill"),
    ({"type": "spell", "effects": [{"kill": ["target", "Unit"]}]}, "cards.X.effects[0].kill"),
    ({"type": "spell", "effects": [{"kill": ["Unit", 3]}]}, "cards.X.effects[0].kill[1]"),
    # replacements active in the trash (370.3)
    ({"type": "unit", "replacement": {"would_die": "friendly", "zone": "hand"}}, "cards.X.replacement.zone"),
    ({"type": "spell", "replacement": {"would_die": "friendly"}}, "cards.X.replacement"),
    ({"type": "unit", "replacement": {"would_die": "self", "zone": "trash"}}, "cards.X.replacement.would_die"),
    ({"type": "unit", "replacement": {"would_die": "friendly", "zone": "trash", "kill_this": True}},
     "cards.X.replacement.kill_this"),
    ({"type": "gear", "replacement": {"would_die": "friendly", "banish_this": True}}, "cards.X.replacement.banish_this"),
    ({"type": "unit", "replacement": {"would_die": "friendly", "zone": "trash", "banish_this": "yes"}},
     "cards.X.replacement.banish_this"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_a_malformed_card_of_the_new_replacements_names_its_place(card: dict[str, Any], field: str) -> None:
    with pytest.raises(FormatError) as err:
        scenario.setup(_pool(X=card))
    assert err.value.field == field, err.value


@pytest.mark.parametrize("step,field", [
    ({"apply": {"player": "Bo", "replacement": "Gear"}}, "apply.unit"),
    ({"apply": {"player": "Bo", "replacement": "Gear", "unit": "Unit", "why": 1}}, "apply"),
    ({"decline": {"player": "Bo", "replacement": 3, "unit": "Unit"}}, "decline.replacement"),
])
def test_a_malformed_replacement_choice_step_names_its_place(step: dict[str, Any], field: str) -> None:
    from kb.timing.scenario import ScenarioError, parse, run
    data = {"name": "A scenario.", "ruleset": "riftbound", "edition": "1.4", **_pool(), "steps": [step]}
    with pytest.raises(ScenarioError) as err:
        run(parse(data, "bad.yaml"))
    assert err.value.field == field and err.value.step == 1, err.value


def test_a_replacement_choice_when_none_is_due_is_illegal_by_371_2_a() -> None:
    from kb.timing.scenario import parse, run
    data = {"name": "A scenario.", "ruleset": "riftbound", "edition": "1.4",
            **_pool(Charm={"type": "gear", "replacement": {"would_die": "friendly", "may": True}}),
            "steps": [{"apply": {"player": "Ann", "replacement": "Charm", "unit": "Unit"}}]}
    result = run(parse(data, "bad.yaml"))
    assert result.error is not None and result.error["type"] == "illegal-step" and "371.2.a" in result.error["rules"]


@pytest.mark.parametrize("change,field", [
    (lambda d: d["board"][0].update(prevent_value=-1), "board[0].prevent_value"),
    (lambda d: d.update(replaced_this_turn={"Warden": 0}), "replaced_this_turn.Warden"),
    (lambda d: d.update(replaced_this_turn=["Warden"]), "replaced_this_turn"),
    (lambda d: d.update(replacement_choices=[{"source": "Warden", "unit": "Agent", "apply": "yes"}]),
     "replacement_choices[0].apply"),
    (lambda d: d.update(replacement_choices=[{"source": "Warden"}]), "replacement_choices[0].unit"),
    # each player's trash (108.2.a)
    (lambda d: d.update(trash_owners=[{"card": "Warden", "owner": "Dee"}]), "trash_owners[0].owner"),
    (lambda d: d.update(trash_owners=[{"card": "Nothing", "owner": "Bo"}]), "trash_owners[0].card"),
    (lambda d: d.update(trash_owners={"Warden": "Bo"}), "trash_owners"),
    (lambda d: d.update(banished=[{"card": "Warden"}]), "banished[0].owner"),
])
def test_a_malformed_state_of_the_new_replacements_names_its_place(change: Any, field: str) -> None:
    model, state = setup(2)
    data = state_io.state_json(model, state)
    change(data)
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field, err.value
