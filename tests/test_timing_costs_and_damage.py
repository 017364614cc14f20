"""Riftbound costs and resources, Might and damage: every decision sequence up to a bounded
depth, with 2 and 3 players, keeps what the rules say about paying (357, 404, 429.3, 809),
about Reaction Add abilities used while paying and their exhaust costs (429.3, 429.3.a,
429.2.a, 414.5) and about damage (321.1, 323.5, 142.4.b), each property computed from the
states alone; and
card pools with costs are read, written back and refused with their place."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing import engine
from kb.timing.engine import FormatError, InvariantBroken, TraceNode
from kb.timing.models import get_model
from kb.timing.models.riftbound import Riftbound, State, adding, costs, damage, effects, scenario
from kb.timing.models.riftbound.cards import card_json, parse_cards

CARDS = {
    "Zap": {"type": "spell", "keywords": ["Reaction"], "cost": 1, "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Brace": {"type": "spell", "keywords": ["Reaction"], "effects": [{"give": {"unit": "target", "might": 2}}]},
    "Rite": {"type": "spell", "additional_cost": ["kill a friendly unit"], "effects": [{"draw": 1}]},
    "Hunter": {"type": "unit", "cost": {"energy": 1},
               "triggers": [{"on": "play", "name": "Strike", "effects": [{"deal": {"unit": "Bird", "amount": 1}}]}]},
    "Bird": {"type": "unit", "keywords": ["Deflect"]},
    "Raider": {"type": "unit", "might": 2},
    "Guard": {"type": "unit", "might": 2},
}
# (players, depth): deep enough to pay with runes, decline Deflect, kill as a cost, save a unit
# with Might and kill one with damage; small enough to stay well under 30 s.
CASES = [(2, 9), (3, 7)]


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "runes": 2, "hand": ["Zap", "Rite", "Hunter"], "base": ["Raider"]},
             {"name": "Bo", "runes": 1, "hand": ["Zap", "Brace"], "base": ["Bird"]},
             {"name": "Cy", "runes": 1, "pool": {"energy": 1}, "hand": ["Brace", "Zap"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard"]}}]})


def resources(s: State, player: str) -> int:
    """What a player can still pay: the pool, plus each ready rune's Energy (exhausting it),
    plus each rune's Power (recycling it)."""
    pool = next(((e, p) for pl, e, p in s.rune_pools if pl == player), (0, 0))
    ready, exhausted = next(((r, x) for pl, r, x in s.runes if pl == player), (0, 0))
    return pool[0] + pool[1] + 2 * ready + exhausted


def cost_of(model: Riftbound, s: State, item: Any) -> int:
    """Energy + Power the item costs: its card's printed cost, one Power for each opponent's
    Deflect unit it names or targets (809.1.c)."""
    card = model.cards.get(item.card or "")
    total = card.cost.energy + card.cost.power if card is not None and item.kind != "trigger" else 0
    named = {e[1] if e[1] != "target" else item.target for e in item.effects if e[0] in ("kill", "deal", "give")}
    for u in s.board:
        if u.name in named and u.controller != item.controller and "Deflect" in model.cards[u.card].keywords:
            total += 1
    return total


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    before, after = node.before, node.after
    for pl, e, p in after.rune_pools:
        if e < 0 or p < 0:
            yield f"{pl}'s Rune Pool went negative (357.1)"
    for pl, r, x in after.runes:
        if r < 0 or x < 0:
            yield f"{pl} used runes they do not have (164.2)"
    if node.name == "finalize":
        item = next(i for i in before.chain if i.id == node.params["id"])
        spent = resources(before, item.controller) - resources(after, item.controller)
        # an Add ability resolves as it is finalized (429.2): what it Adds is in the pool after
        added = sum(e[1].energy + e[1].power for e in item.effects if e[0] == "add") if item.add else 0
        if spent != cost_of(model, before, item) - added:
            yield f"{item.name} was finalized paying {spent + added}, not its cost {cost_of(model, before, item)} (357.1)"
    if node.name == "resolve" and any(c.name == "lethal-damage" for c in node.children):
        yield "a unit was killed by damage while an item resolved, not in the cleanup after it (321.1)"
    if node.name == "cleanup":
        for u in after.board:
            might = model.cards[u.card].might + u.might_bonus
            if u.damage > 0 and u.damage >= might:
                yield f"{u.name} survived a cleanup with lethal damage marked (323.5)"
    if node.name != "combat-cleanup":
        for u in after.board:
            old = before.permanent(u.name)
            if old is not None and u.damage < old.damage:
                yield f"{u.name}'s damage was healed outside a combat cleanup (143.3.b)"
    if node.name == "decline-cost" and (after.trash != before.trash or len(after.chain) != len(before.chain) - 1):
        yield "declining to pay a triggered ability's cost did more than remove it from the chain (404.2.a)"


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_costs_and_damage_keep_their_rules_in_every_decision_sequence(players: int, depth: int,
                                                                      capsys: Any) -> None:
    explore_and_report(f"costs and damage, {players} players, depth {depth}", *setup(players), depth, violations,
                       ("pays-costs", "adds-during-payment", "deflect-applies", "kill-as-cost", "pay-cost",
                        "decline-cost", "deal", "give-might", "lethal-damage"), capsys)


def explore_and_report(title: str, model: Riftbound, state: State, depth: int, check: Any,
                       reached: tuple[str, ...], capsys: Any) -> None:
    """Explore ``depth`` decisions, print the counts, and require no violation, more than 1000
    states, the full depth and every step of ``reached`` taken at least once."""
    stats, seen, broken = explore_checked(model, state, depth, check)
    with capsys.disabled():
        print(f"\n  {title}: {stats.states} states visited, {stats.decisions} decisions, {stats.steps} automatic "
              f"steps, {stats.ends} ended turns; " + ", ".join(f"{n} {seen[n]}" for n in reached))
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    for name in reached:
        assert seen[name], f"the exploration never reached {name}"


# -- Reaction Add abilities while paying, and exhaust costs ------------------------------------------
ADD_CARDS = {
    "Meteor": {"type": "spell", "cost": 2, "effects": [{"draw": 1}]},
    "Parry": {"type": "spell", "keywords": ["Reaction"], "cost": 1, "effects": [{"draw": 1}]},
    # "[E]: [Reaction] — Add [1]" and "[E]: Add [1]" (no Reaction tag)
    "Gold": {"type": "gear", "abilities": [{"name": "Gold's Add", "keywords": ["Reaction"], "add": True,
                                            "cost": {"exhaust": True}, "effects": [{"add": 1}]}]},
    "Mill": {"type": "gear", "abilities": [{"name": "Mill's Add", "add": True, "cost": {"exhaust": True},
                                            "effects": [{"add": 1}]}]},
}
ADD_CASES = [(2, 12), (3, 11)]


def add_setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "runes": 1, "hand": ["Meteor", "Parry", "Parry"], "base": ["Gold", "Mill"]},
             {"name": "Bo", "runes": {"ready": 0, "exhausted": 1}, "hand": ["Parry", "Meteor"], "base": ["Gold"]},
             {"name": "Cy", "runes": 1, "hand": ["Parry"], "base": ["Mill", "Gold"]}]
    return scenario.setup({"players": seats[:players], "cards": ADD_CARDS})  # type: ignore[return-value]


def add_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What Add abilities and exhaust costs keep, on top of the costs' rules (:func:`violations`)."""
    yield from violations(model, node)
    before, after = node.before, node.after
    spent = [u for u in before.board if not u.exhausted and after.permanent(u.name).exhausted]  # type: ignore[union-attr]
    if node.name == "add-while-paying":
        ability = node.params["ability"]
        if len(spent) != 1 or ability not in {a.name for a in model.cards[spent[0].card].abilities}:
            yield f"{ability} was used while paying without exhausting one ready permanent of its own (414.5)"
        elif "Reaction" not in next(a for a in model.cards[spent[0].card].abilities if a.name == ability).keywords:
            yield f"{ability}, without the Reaction tag, was used while a cost was paid (429.3)"
        if after.chain != before.chain:
            yield f"{ability} changed the chain while a cost was paid, instead of resolving at once (429.3.a)"
        if (after.priority, after.focus) != (before.priority, before.focus):
            yield f"{ability} moved priority or focus (429.2.a)"
        if resources(after, node.params["player"]) <= resources(before, node.params["player"]):
            yield f"{ability} added nothing to its controller's Rune Pool (429.1)"
    if node.name == "finalize":
        item = next(i for i in before.chain if i.id == node.params["id"])
        if item.kind == "ability" and item.source and any(
                a.exhaust for a in model.cards[before.permanent(item.source).card].abilities  # type: ignore[union-attr]
                if a.name == item.name) and [u.name for u in spent] != [item.source]:
            yield f"{item.name} was finalized without exhausting {item.source}, whose cost that is (414.5)"


@pytest.mark.parametrize("players,depth", ADD_CASES, ids=[f"{p}-players-depth-{d}" for p, d in ADD_CASES])
def test_add_abilities_while_paying_keep_their_rules_in_every_decision_sequence(players: int, depth: int,
                                                                                capsys: Any) -> None:
    explore_and_report(f"Add abilities while paying, {players} players, depth {depth}", *add_setup(players), depth,
                       add_violations, ("add-while-paying", "exhausts-as-cost", "add-resolves-during-payment",
                                        "adds-during-payment", "pays-costs"), capsys)


# -- cards with costs, as written and as read back -------------------------------------------------
POOL_CASES = [
    ("a bare number is Energy", {"type": "spell", "cost": 2}, {"type": "spell", "cost": 2}),
    ("Energy and Power", {"type": "spell", "cost": {"energy": 1, "power": 1}},
     {"type": "spell", "cost": {"energy": 1, "power": 1}}),
    ("an additional cost in any case", {"type": "spell", "additional_cost": ["Kill a  friendly unit"]},
     {"type": "spell", "additional_cost": ["kill a friendly unit"]}),
    ("Deflect is a keyword", {"type": "unit", "keywords": ["deflect"]}, {"type": "unit", "keywords": ["Deflect"]}),
    ("a triggered ability's cost", {"type": "unit", "triggers": [{"on": "play", "name": "Study", "cost": 1}]},
     {"type": "unit", "triggers": [{"on": "play", "name": "Study", "effects": [], "cost": 1}]}),
    ("an ability's cost that exhausts its permanent", {"type": "gear", "abilities": [
        {"name": "Tap", "add": True, "cost": {"exhaust": True, "power": 1}, "effects": [{"add": 2}]}]},
     {"type": "gear", "abilities": [{"name": "Tap", "effects": [{"add": 2}], "add": True,
                                     "cost": {"power": 1, "exhaust": True}}]}),
    ("damage and Might", {"type": "spell", "effects": [{"deal": {"unit": "target", "amount": 3}},
                                                       {"give": {"unit": "Yeti", "might": -2}}]},
     {"type": "spell", "effects": [{"deal": {"unit": "target", "amount": 3}}, {"give": {"unit": "Yeti", "might": -2}}]}),
]


@pytest.mark.parametrize("case,raw,written", POOL_CASES, ids=[c[0] for c in POOL_CASES])
def test_costs_are_read_and_written_back(case: str, raw: dict[str, Any], written: dict[str, Any]) -> None:
    card = parse_cards({"X": raw})["X"]
    assert card_json(card) == written
    assert parse_cards({"X": card_json(card)})["X"] == card


BAD_CASES = [
    ("a negative cost", {"type": "spell", "cost": -1}, "cards.X.cost"),
    ("an unknown cost key", {"type": "spell", "cost": {"energy": 1, "mana": 2}}, "cards.X.cost"),
    ("an unknown additional cost", {"type": "spell", "additional_cost": ["discard 2"]}, "cards.X.additional_cost[0]"),
    ("an exhaust cost that is not true or false", {"type": "gear", "abilities": [
        {"name": "Tap", "cost": {"exhaust": "yes"}}]}, "cards.X.abilities[0].cost.exhaust"),
    ("an unknown key beside exhaust", {"type": "gear", "abilities": [
        {"name": "Tap", "cost": {"exhaust": True, "mana": 1}}]}, "cards.X.abilities[0].cost"),
    ("damage without an amount", {"type": "spell", "effects": [{"deal": {"unit": "target"}}]},
     "cards.X.effects[0].deal.amount"),
    ("Might that is not a number", {"type": "spell", "effects": [{"give": {"unit": "target", "might": "lots"}}]},
     "cards.X.effects[0].give.might"),
]


@pytest.mark.parametrize("case,raw,field", BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_costs_are_refused_with_their_place(case: str, raw: dict[str, Any], field: str) -> None:
    with pytest.raises(FormatError) as err:
        parse_cards({"X": raw})
    assert err.value.field.startswith(field), err.value.field


# -- deliberately wrong models are caught ------------------------------------------------------------
def _kills_at_once(m: Riftbound, s: State, t: Any, item: Any, e: Any) -> State:
    """A wrong Deal: the unit dies as the damage is dealt, not in the cleanup after."""
    return damage.kill_lethal(m, RIGHT_DEAL(m, s, t, item, e), t)


RIGHT_DEAL = effects.RUNS["deal"]
WRONG = [
    ("damage that kills while the spell resolves", lambda mp: mp.setitem(effects.RUNS, "deal", _kills_at_once),
     "321.1"),
    ("a card finalized without paying", lambda mp: mp.setattr(costs, "pay", lambda s, t, player, cost, item: s),
     "357.1"),
]
# (case, how the model is broken, the rule the exploration of Add abilities catches it by)
WRONG_ADDS = [
    ("an exhaust cost paid without exhausting the gear", lambda mp: mp.setattr(costs, "with_exhausted",
                                                                               lambda s, u: s), "414.5"),
]


@pytest.mark.parametrize("case,breaks,rule", WRONG, ids=[w[0] for w in WRONG])
def test_a_model_that_breaks_a_rule_is_caught(case: str, breaks: Any, rule: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    breaks(monkeypatch)
    model, state = setup(2)
    _, _, broken = explore_checked(model, state, 6, violations)
    assert broken and all(f"({rule})" in b for b in broken), broken[:3]


@pytest.mark.parametrize("case,breaks,rule", WRONG_ADDS, ids=[w[0] for w in WRONG_ADDS])
def test_a_model_that_breaks_an_add_rule_is_caught(case: str, breaks: Any, rule: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    breaks(monkeypatch)
    model, state = add_setup(2)
    _, _, broken = explore_checked(model, state, 5, add_violations)
    assert broken and all(f"({rule})" in b for b in broken), broken[:3]


def _passing_add(model: Riftbound, s: State, p: Any, t: Any) -> State:
    """A wrong Add while paying: priority passes to the next player as it resolves."""
    s = adding.add_while_paying(model, s, p, t)
    return dataclasses.replace(s, priority=s.next_player(s.priority)) if s.priority else s


def wrong_add_model(cards: Any, broken: str) -> Riftbound:
    """A deliberately wrong model whose Add while paying is ``broken``: ``without-reaction``
    (any Add ability may be used, with the Reaction tag or not) or ``passes-priority``."""
    model = Riftbound(cards)
    t = model.transitions["add-while-paying"]
    change: dict[str, Any] = (
        {"preconditions": tuple(c for c in t.preconditions if c.name != "add-reaction")}
        if broken == "without-reaction" else {"effect": functools.partial(_passing_add, model)})
    model.transitions[t.name] = dataclasses.replace(t, **change)
    return model


def test_a_model_that_lets_an_add_without_reaction_pay_is_caught_by_the_exploration() -> None:
    model, state = add_setup(2)
    _, _, broken = explore_checked(wrong_add_model(model.cards, "without-reaction"), state, 8, add_violations)
    assert broken and all("(429.3)" in b for b in broken), broken[:3]


def test_a_model_whose_add_while_paying_passes_priority_breaks_the_engines_invariant() -> None:
    model, state = add_setup(2)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(wrong_add_model(model.cards, "passes-priority"), state, 8)
    assert err.value.invariant.name == "add-off-chain" and "429.2.a" in err.value.rules


# -- states with costs, as JSON both ways, and what next says -------------------------------------------
def _state(**fields: Any) -> dict[str, Any]:
    return {"players": ["Ann", "Bo"], "priority": "Ann", "cards": {
        "Meteor": {"type": "spell", "cost": 2}, "Bird": {"type": "unit", "keywords": ["Deflect"]},
        "Execute": {"type": "spell", "effects": [{"kill": "target"}]}}, **fields}


STATE_CASES = [
    ("a pool, runes and a Might bonus read back",
     _state(rune_pools=[{"player": "Ann", "energy": 1, "power": 0}], runes=[{"player": "Ann", "ready": 1, "exhausted": 1}],
            board=[{"name": "Bird", "controller": "Bo", "might_bonus": -1, "damage": 0}]), None),
    ("a negative rune count is refused", _state(runes=[{"player": "Ann", "ready": -1, "exhausted": 0}]), "runes[0].ready"),
    ("a pool of someone not playing is refused", _state(rune_pools=[{"player": "Cy", "energy": 1, "power": 0}]),
     "rune_pools[0].player"),
]


@pytest.mark.parametrize("case,data,field", STATE_CASES, ids=[c[0] for c in STATE_CASES])
def test_states_with_resources_read_back_or_are_refused_with_their_place(case: str, data: dict[str, Any],
                                                                         field: str | None) -> None:
    spec = get_model("riftbound")
    if field is not None:
        with pytest.raises(FormatError) as err:
            spec.state_from_json(data, None)
        assert err.value.field.startswith(field), err.value.field
        return
    model, state, violations = spec.state_from_json(data, None)
    assert not violations
    written = spec.state_json(model, state)
    again, back = spec.state_from_json(written, None)[:2]
    rewritten = spec.state_json(again, back)
    assert all(rewritten[k] == written[k] for k in ("rune_pools", "runes", "board", "chain"))
    assert written["rune_pools"] == data["rune_pools"] and written["runes"] == data["runes"]
    assert back.permanent("Bird").might_bonus == -1  # type: ignore[union-attr]


def _paying(gold_exhausted: bool = False) -> dict[str, Any]:
    """Ann's Meteor (2 Energy) pending, one rune, Gold's Reaction Add and Mill's Add without Reaction."""
    return {"players": ["Ann", "Bo"], "priority": "Ann", "cards": {**ADD_CARDS, "Lantern": {
        "type": "gear", "abilities": [{**ADD_CARDS["Gold"]["abilities"][0], "name": "Lantern's Add"}]}},
            "chain": [{"name": "Meteor", "controller": "Ann", "status": "pending"}],
            "runes": [{"player": "Ann", "ready": 1, "exhausted": 0}],
            "board": [{"name": "Gold", "controller": "Ann", "location": "base", "exhausted": gold_exhausted},
                      {"name": "Mill", "controller": "Ann", "location": "base"},
                      {"name": "Lantern", "controller": "Ann", "location": "base"}]}


# (case, state, the illegal option next lists, the rule it cites)
NEXT_CASES = [
    ("a card its player cannot pay for", _state(), "Ann plays Meteor", "358.2"),
    ("a spell choosing an opponent's Deflect unit without the Power", _state(
        board=[{"name": "Bird", "controller": "Bo"}]), "Ann plays Execute", "809.1.c"),
    ("an Add ability without Reaction while a cost is paid", _paying(), "Ann activates Mill's Add while paying", "429.3"),
    ("an exhausted gear's Add while a cost is paid", _paying(gold_exhausted=True),
     "Ann activates Gold's Add while paying", "414.1.b"),
]


@pytest.mark.parametrize("case,data,label,rule", NEXT_CASES, ids=[c[0] for c in NEXT_CASES])
def test_next_shows_an_unpayable_play_as_a_tempting_illegal_option_with_its_rule(
        case: str, data: dict[str, Any], label: str, rule: str) -> None:
    model, state, _ = get_model("riftbound").state_from_json(data, None)
    d = engine.decision(model, state)
    assert d is not None
    found = [o for o in d.illegal if o.label.startswith(label)]
    assert found and rule in {r for o in found for c in o.forbidden_by for r in c.rules}, \
        [(o.label, [c.name for c in o.forbidden_by]) for o in d.illegal]
