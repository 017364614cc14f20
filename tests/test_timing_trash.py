"""Each player's trash and replacement effects active there in the Riftbound timing model
(108.2.a, 366.1, 370.3): every decision sequence up to a bounded depth (2 and 3 players) keeps
what the rules say, computed from the states and the trace alone; deliberately wrong models are
caught; bad input is refused with its place."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from test_timing_costs_and_damage import explore_and_report
from test_timing_replacements import _pool
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.riftbound import Riftbound, State, replacements, scenario, state_io, trash

CARDS = {
    "Execute": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": "target"}]},
    # lethal damage to two of Bo's units at once: they die in one cleanup (370.1.a.2)
    "Firestorm": {"type": "spell", "keywords": ["Action"],
                  "effects": [{"deal": {"unit": "Lantern Ghost", "amount": 1}}, {"deal": {"unit": "Recruit", "amount": 1}}]},
    "Sift": {"type": "spell", "keywords": ["Reaction"], "effects": [{"discard": 1}]},
    # one kill of two units: simultaneous deaths too (370.1.a.2)
    "Double Strike": {"type": "spell", "keywords": ["Action"], "effects": [{"kill": ["Lantern Ghost", "Guard"]}]},
    # "If a unit you control would die, you may banish me from your trash instead. If you do, heal
    # that unit, exhaust it, and recall it."
    "Lantern Ghost": {"type": "unit", "replacement": {"zone": "trash", "would_die": "friendly", "may": True,
                                                      "banish_this": True}},
    # a spell whose "once each turn" replacement works from its owner's trash once it is played
    "Second Wind": {"type": "spell", "keywords": ["Reaction"], "effects": [{"draw": 1}],
                    "replacement": {"zone": "trash", "would_die": "friendly", "each_turn": 1}},
    "Recruit": {"type": "unit"},
    "Guard": {"type": "unit", "might": 2, "deathknell": [{"draw": 1}]},
    "Raider": {"type": "unit", "might": 2},
}

# (players, depth): deep enough to reach a death replaced from a trash, the card dying with the
# unit it would save, a discard and a spell reaching the trash, small enough to stay under 20 s.
CASES = [(2, 9), (3, 7)]
REACHED = ("replacement-in-trash", "not-yet-in-trash", "banished-from-trash", "death-replaced", "kill",
           "apply-replacement", "decline-replacement", "discard", "killed-together")


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Execute", "Firestorm", "Double Strike"], "base": ["Raider"]},
             {"name": "Bo", "hand": ["Sift", "Lantern Ghost", "Second Wind"], "base": ["Guard"]},
             # Cy's own Lantern Ghost, in Cy's trash: never for Bo's units (370.3, "a unit you control")
             {"name": "Cy", "trash": ["Lantern Ghost"], "base": ["Recruit"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Lantern Ghost", "Recruit"]}}]})


def _held(s: State) -> Counter[tuple[str, str]]:
    """Every card a player holds (a permanent they control, an item of theirs, a card in their
    hand), with that player: whose trash it goes to (108.2.a)."""
    held: Counter[tuple[str, str]] = Counter((u.card, u.controller) for u in s.board)
    held.update((i.card, i.controller) for i in s.chain if i.card)
    held.update((c, p) for p, hand in s.hands for c in hand or ())
    return held


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What 108.2.a and 370.3 say, from the states and the trace: a card active in the trash goes
    to the trash of the player who held it and is recorded there; a death is replaced from a trash
    only by a card already in its owner's trash, for a unit that owner controls, and never by one
    that died in the same event; a card banished from a trash leaves it for its owner's banishment."""
    before, after = node.before, node.after
    if node.name == "death-replaced" and "trash" in node.params:
        owner, unit = node.params["trash"], before.permanent(node.params["unit"])
        if (node.params["source"], owner) not in before.owners:
            yield f"{node.params['source']} replaced a death from {owner}'s trash without being there (370.3)"
        if unit is None or not replacements.friendly(before, owner, unit.controller):
            yield f"a card in {owner}'s trash replaced the death of a unit {owner} does not control (370.3)"
    if node.transition.kind == "step":
        return
    new = Counter(after.owners) - Counter(before.owners)
    entered = Counter(after.trash) - Counter(before.trash)
    held = _held(before)
    for (card, owner), n in new.items():
        if held[(card, owner)] < n:
            yield f"{card} went to {owner}'s trash, but {owner} did not hold it (108.2.a)"
    for card, n in entered.items():
        if trash.active_in_trash(model, card) and sum(k for (c, _), k in new.items() if c == card) != n:
            yield f"{card} entered a trash without its owner recorded (108.2.a)"
    # the units of one event: a cleanup's lethal damage, or one kill of several units
    lethal = {c.params["unit"] for c in node.walk() if c.name == "lethal-damage"} | {
        u for c in node.walk() if c.name == "killed-together" for u in c.params["units"].split(", ")}
    cards = {u.name: u.card for u in before.board}
    for c in node.walk():
        if c.name == "death-replaced" and "trash" in c.params and c.params["unit"] in lethal:
            source = (c.params["source"], c.params["trash"])
            if source not in before.owners and any(cards.get(x) == source[0] for x in lethal - {c.params["unit"]}):
                yield f"{source[0]} died with {c.params['unit']} yet replaced its death from the trash (370.3)"
        if c.name == "banished-from-trash":
            card = (c.params["card"], c.params["player"])
            if card in c.after.owners and Counter(c.after.owners)[card] >= Counter(c.before.owners)[card] \
                    or card not in c.after.banished:
                yield f"{card[0]} was not banished from {card[1]}'s trash (108.6.b)"


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_deaths_replaced_from_a_trash_keep_their_rules_in_every_decision_sequence(players: int, depth: int,
                                                                                  capsys: Any) -> None:
    explore_and_report(f"replacement effects in the trash, {players} players, depth {depth}",
                       *setup(players), depth, violations, REACHED, capsys)


# -- deliberately wrong models ------------------------------------------------------------------
def _caught(rule: str, players: int = 3, depth: int = 5) -> list[str]:
    _, _, broken = explore_checked(*setup(players), depth, violations)
    return [b for b in broken if f"({rule})" in b]


def test_a_model_that_puts_every_card_in_the_turn_players_trash_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong model: one shared trash, every card recorded as the turn player's."""
    right = trash.to_trash
    monkeypatch.setattr(trash, "to_trash", lambda m, s, cards: right(m, s, [(c, s.turn_player) for c, _ in cards]))
    assert _caught("108.2.a")


def test_a_model_that_lets_a_dying_card_save_a_unit_dying_with_it_is_caught(monkeypatch: Any) -> None:
    """A deliberately wrong model: the cards of a cleanup's deaths reach the trash before the deaths
    are replaced, so the Lantern Ghost saves the Recruit it dies with (370.3's own example)."""
    right = replacements.replace_deaths

    def trash_first(m: Riftbound, s: State, t: Any, dead: list[Any], applied: frozenset[str] = frozenset(),
                    step: str = "kill") -> Any:
        early = [(u.card, u.controller) for u in dead if trash.active_in_trash(m, u.card)]
        if len(dead) > 1 and early:
            s = trash.to_trash(m, s, early)
        return right(m, s, t, dead, applied, step)
    monkeypatch.setattr(replacements, "replace_deaths", trash_first)
    assert _caught("370.3", players=2, depth=7)


# -- bad input: refused with its place (the malformed replacements and states are in test_timing_replacements) --
@pytest.mark.parametrize("trashed,field", [
    (["Nobody"], "players.Bo.trash[0]"),
    ("Unit", "players.Bo.trash"),
    ([3], "players.Bo.trash[0]"),
], ids=["an unknown card", "not a list", "not a name"])
def test_a_malformed_trash_of_a_player_names_its_place(trashed: Any, field: str) -> None:
    with pytest.raises(FormatError) as err:
        scenario.setup({**_pool(), "players": ["Ann", {"name": "Bo", "trash": trashed}]})
    assert err.value.field == field, err.value


def test_an_owner_recorded_for_a_card_not_in_the_trash_is_a_state_the_rules_cannot_produce() -> None:
    model, state = setup(2)
    data = state_io.state_json(model, state)
    data["trash_owners"] = [{"card": "Lantern Ghost", "owner": "Bo"}]
    again, read, _ = state_io.state_from_json(data)
    assert [(v.field, v.rules) for v in again.validate(read)] == [("trash_owners", ("108.2.a",))]


def test_a_card_active_in_the_trash_without_its_owner_is_refused_naming_it() -> None:
    model, state = setup(3)
    data = state_io.state_json(model, state)
    data["trash"] = ["Recruit", "Lantern Ghost", "Lantern Ghost"]
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == "trash[2]" and "108.2.a" in err.value.message


def test_a_state_round_trips_its_trash_owners_and_banished_cards() -> None:
    model, state = setup(3)
    data = state_io.state_json(model, state)
    assert data["trash"] == ["Lantern Ghost"] and data["trash_owners"] == [{"card": "Lantern Ghost", "owner": "Cy"}]
    data["banished"] = [{"card": "Lantern Ghost", "owner": "Bo"}]
    again, read, broken = state_io.state_from_json(data)
    assert not broken and read.owners == (("Lantern Ghost", "Cy"),) and read.banished == (("Lantern Ghost", "Bo"),)
    assert state_io.state_json(again, read) == data
