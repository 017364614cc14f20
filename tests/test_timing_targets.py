"""Several targets for one chain item in the Riftbound timing model ("each of up to N units",
355.13): every decision sequence up to a bounded depth (2 and 3 players) keeps what 359.3.e says
of targets made illegal before the item resolves, computed from the states and the trace alone;
Deflect costs its Power for each unit chosen (809.1.c); deliberately wrong models are caught; bad
input is refused with its place. The scenarios written as sentences are in
``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.riftbound import Riftbound, State, cards, costs, effects, scenario

CARDS = {
    # "Kill each of up to two units." and "Deal 2 to each of up to two units. Draw 1."
    "Rend": {"type": "spell", "keywords": ["Action"], "targets": 2, "effects": [{"kill": "targets"}]},
    "Volley": {"type": "spell", "keywords": ["Action"], "targets": 2,
               "effects": [{"deal": {"unit": "targets", "amount": 2}}, {"draw": 1}]},
    # a unit made an illegal target in response: killed as an additional cost
    "Sacrifice": {"type": "spell", "keywords": ["Reaction"], "additional_cost": ["kill a friendly unit"],
                  "effects": [{"draw": 1}]},
    "Guard": {"type": "unit", "might": 3},
    "Scout": {"type": "unit"},
    "Warder": {"type": "unit", "might": 3, "keywords": ["Deflect"]},
}

CASES = [(2, 11), (3, 9)]
REACHED = ("some-targets-illegal", "no-target-legal", "killed-together", "deal", "deflect-applies", "kill-as-cost")


def setup(players: int) -> tuple[Riftbound, State]:
    seats = [{"name": "Ann", "hand": ["Rend", "Volley"], "pool": {"energy": 0, "power": 1}},
             {"name": "Bo", "hand": ["Sacrifice", "Sacrifice"]},
             {"name": "Cy", "hand": ["Sacrifice"], "base": ["Scout"]}]
    return scenario.setup({  # type: ignore[return-value]
        "players": seats[:players], "cards": CARDS,
        "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Guard", "Warder"]}}]})


def violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What 359.3.e and 809.1.c say of an item with several targets, from the states and the trace."""
    before, after = node.before, node.after
    if node.name == "finalize":
        item = next(i for i in before.chain if i.id == node.params["id"])
        if item.targets:
            owed = sum(1 for n in item.targets if (u := before.permanent(n)) is not None
                       and "Deflect" in model.cards[u.card].keywords and u.controller != item.controller)
            spent = dict((p, w) for p, _, w in before.rune_pools).get(item.controller, 0) - \
                dict((p, w) for p, _, w in after.rune_pools).get(item.controller, 0)
            if spent != owed:
                yield f"{item.name} chose {owed} opponents' Deflect units and paid {spent} Power (809.1.c)"
    if node.name != "resolve":
        return
    item = next(i for i in before.chain if i.id == node.params["id"])
    if not item.targets:
        return
    legal = [n for n in item.targets if before.permanent(n) is not None]
    steps = [n.name for n in node.walk()]
    if "completes-play" not in steps or item.card not in after.trash:
        yield f"{item.name} did not resolve and count as played (359.3.e.1, 359.3.e.10)"
    if not legal and "no-target-legal" not in steps:
        yield f"{item.name}'s targets are all illegal and its instruction was not said not executed (359.3.e.7)"
    if legal and len(legal) < len(item.targets) and "some-targets-illegal" not in steps:
        yield f"{item.name} acted on some targets without saying the others were illegal (359.3.e.8)"
    if item.name == "Rend":
        if any(after.permanent(n) is not None for n in legal):
            yield f"Rend left a legal target on the board (359.3.e.8)"
        if {u.name for u in before.board} - set(legal) - {u.name for u in after.board}:
            yield "Rend killed a unit it did not target (359.3.e.5)"
    if item.name == "Volley":
        for n in legal:
            b, a = before.permanent(n), after.permanent(n)
            if a is None or a.damage != b.damage + 2:  # type: ignore[union-attr]
                yield f"Volley did not deal 2 to its legal target {n} (359.3.e.8)"
        if any(u.damage != (before.permanent(u.name).damage if before.permanent(u.name) else 0)
               for u in after.board if u.name not in legal):
            yield "Volley dealt damage to a unit it did not target (359.3.e.5)"


@pytest.mark.parametrize("players,depth", CASES, ids=[f"{p}-players-depth-{d}" for p, d in CASES])
def test_items_with_several_targets_keep_their_rules_in_every_decision_sequence(players: int, depth: int,
                                                                                capsys: Any) -> None:
    stats, seen, broken = explore_checked(*setup(players), depth, violations)
    with capsys.disabled():
        print(f"\n  several targets, {players} players, depth {depth}: {stats.states} states, {stats.decisions} "
              "decisions; " + ", ".join(f"{n} {seen[n]}" for n in REACHED))
    assert not broken, broken[:5]
    assert stats.states > 300 and stats.max_depth == depth
    for name in REACHED:
        assert seen[name], f"the exploration never reached {name}"


# -- deliberately wrong models ------------------------------------------------------------------
def _caught(rule: str) -> list[str]:
    _, _, broken = explore_checked(*setup(2), 11, violations)
    return [b for b in broken if f"({rule})" in b or f", {rule})" in b or f"({rule}," in b]


def test_a_model_where_some_illegal_targets_stop_the_whole_instruction_is_caught(monkeypatch: Any) -> None:
    """Wrong: one illegal target and the instruction acts on none (as if every target were)."""
    right = effects.each_target

    def all_or_nothing(m: Riftbound, s: State, t: Any, item: Any, e: Any) -> State:
        if any(s.permanent(n) is None for n in item.targets):
            t.note("no-target-legal", s, {"instruction": e[0], "targets": "", "item": item.name})
            return s
        return right(m, s, t, item, e)
    monkeypatch.setattr(effects, "each_target", all_or_nothing)
    assert _caught("359.3.e.8")


def test_a_model_where_deflect_is_paid_once_for_several_targets_is_caught(monkeypatch: Any) -> None:
    """Wrong: Deflect's Power paid once for the item, whatever the number of units it chooses."""
    right = costs.chosen_units
    monkeypatch.setattr(costs, "chosen_units",
                        lambda effects_, target, targets=(): right(effects_, target, targets[:1]))
    assert _caught("809.1.c")


# -- bad input: refused with its place ----------------------------------------------------------
@pytest.mark.parametrize("card,field,words", [
    ({"type": "spell", "targets": 2, "effects": [{"draw": 1}]}, "cards.X.targets", "one of its effects names them"),
    ({"type": "spell", "effects": [{"kill": "targets"}]}, "cards.X.targets", "how many units"),
    ({"type": "spell", "targets": 5, "effects": [{"kill": "targets"}]}, "cards.X.targets", ""),
    ({"type": "spell", "targets": 2, "effects": [{"kill": "targets"}, {"counter": "target"}]}, "cards.X.effects",
     "not both"),
    ({"type": "unit", "triggers": [{"on": "play", "effects": [{"kill": "targets"}]}]}, "cards.X",
     "choose one target each"),
], ids=["targets without an instruction naming them", "an instruction naming targets without targets: N",
        "more than 4", "one target and several", "a triggered ability with several targets"])
def test_a_malformed_card_of_several_targets_names_its_place(card: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(FormatError) as err:
        cards.parse_cards({"X": card})
    assert err.value.field == field and words in err.value.message, err.value


@pytest.mark.parametrize("targets,field", [
    ("Guard", "play.targets"),
    ([], "play.targets"),
    (["Guard", 3], "play.targets[1]"),
], ids=["not a list", "none", "not a name"])
def test_a_malformed_choice_of_targets_names_its_place(targets: Any, field: str) -> None:
    _, state = setup(2)
    with pytest.raises(FormatError) as err:
        scenario.action("play", {"player": "Ann", "card": "Rend", "targets": targets}, state)
    assert err.value.field == field, err.value


@pytest.mark.parametrize("targets,legal", [
    (("Guard", "Warder"), True),
    (("Guard",), True),
    (("Guard", "Guard"), False),
    (("Guard", "Nobody"), False),
    (("Guard", "Warder", "Scout"), False),
    ((), False),
], ids=["two units", "one unit", "the same unit twice", "a unit not on the board", "more than it says", "none"])
def test_the_units_chosen_as_several_targets_are_one_to_n_different_units_on_the_board(
        targets: tuple[str, ...], legal: bool) -> None:
    model, state = setup(3)
    assert model.several_targets_ok(state, model.cards["Rend"], targets) is legal
