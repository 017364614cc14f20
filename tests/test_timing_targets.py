"""Several targets for one chain item in the Riftbound timing model ("each of up to N units",
355.13) and in Magic ("each of up to N target creatures", 608.2b): every decision sequence up
to a bounded depth (2 and 3 players) keeps what 359.3.e says
of targets made illegal before the item resolves, computed from the states and the trace alone;
Deflect costs its Power for each unit chosen (809.1.c); deliberately wrong models are caught; bad
input is refused with its place. The scenarios written as sentences are in
``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from conftest import REPO
from exploring import explore_checked
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.mtg import scenario as mtg_scenario
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


# -- Magic: several targets (608.2b) ---------------------------------------------------------------
MTG_CARDS = {
    "Grizzly Bears": {"type": "creature", "power": 2, "toughness": 2},
    "Llanowar Elves": {"type": "creature", "power": 1, "toughness": 1},
    # "deals 2 damage to each of up to two target creatures", and a destroy spell to make one illegal
    "Twin Bolt": {"type": "instant", "target": "creature", "targets": 2,
                  "effects": [{"damage": {"to": "targets", "amount": 2}}, {"draw": 1}]},
    "Unsummon": {"type": "instant", "target": "creature", "effects": [{"destroy": "target"}]},
}
MTG_CASES = [("2026-01-16", 10), ("2010-10-01", 10)]


def mtg_setup(edition: str) -> tuple[Any, Any]:
    return mtg_scenario.setup({"ruleset": "mtg", "edition": edition, "cards": MTG_CARDS,
                               "start": {"step": "main1", "turn": 3},
                               "players": [{"name": "Ann", "hand": ["Twin Bolt"]},
                                           {"name": "Bo", "hand": ["Unsummon", "Unsummon"],
                                            "battlefield": ["Grizzly Bears", "Llanowar Elves"]}]})


def mtg_violations(model: Any, node: TraceNode) -> Iterator[str]:
    """What 608.2b says of a spell of several targets, from the states and the trace."""
    if node.name != "resolve" or not node.before.stack or not node.before.stack[-1].targets:
        return
    top, before, after = node.before.stack[-1], node.before, node.after
    legal = [i for _, i in top.targets if before.object(i) is not None]
    steps = [n.name for n in node.walk()]
    drew = dict(after.drawn).get(top.controller, 0) - dict(before.drawn).get(top.controller, 0)
    if not legal and ("targets-all-illegal" not in steps or drew):
        yield f"{top.name}'s targets were all illegal and it resolved (608.2b)"
    if legal and ("targets-all-illegal" in steps or drew != 1):
        yield f"{top.name} had a legal target and did not resolve (608.2b)"
    for u in before.board:
        now = after.object(u.id)
        hit = u.id in legal
        if now is not None and now.damage != u.damage + (2 if hit else 0):
            which = "a legal" if hit else "no"
            yield f"{top.name} dealt {now.damage - u.damage} damage to {u.name}, {which} target (608.2b)"


@pytest.mark.parametrize("edition,depth", MTG_CASES, ids=[e for e, _ in MTG_CASES])
def test_a_magic_spell_of_several_targets_keeps_608_2b_in_every_decision_sequence(edition: str, depth: int,
                                                                                    capsys: Any) -> None:
    stats, seen, broken = explore_checked(*mtg_setup(edition), depth, mtg_violations)
    with capsys.disabled():
        print(f"\n  magic several targets, {edition}, depth {depth}: {stats.states} states; "
              + ", ".join(f"{n} {seen[n]}" for n in ("some-targets-illegal", "targets-all-illegal", "destroy")))
    assert not broken, broken[:5]
    assert stats.states > 100
    for name in ("some-targets-illegal", "targets-all-illegal"):
        assert seen[name], f"the exploration never reached {name}"


def test_a_magic_model_whose_spell_with_one_illegal_target_does_not_resolve_is_caught(monkeypatch: Any) -> None:
    """Wrong: a spell of several targets treated as one target, not resolving once any is illegal."""
    from kb.timing.models.mtg import resolution
    right = resolution.resolve

    def any_illegal(m: Any, s: Any, p: Any, t: Any) -> Any:
        top = s.stack[-1]
        if top.targets and any(s.object(i) is None for _, i in top.targets):
            t.note("targets-all-illegal", s, {"item": top.name, "targets": ""})
            return m._finish(s, t, top, resolved=False)
        return right(m, s, p, t)
    model, state = mtg_setup("2026-01-16")
    spec = model.transitions["resolve"]
    from dataclasses import replace as dc_replace
    from functools import partial
    model.transitions["resolve"] = dc_replace(spec, effect=partial(any_illegal, model))
    try:
        _, _, broken = explore_checked(model, state, 8, mtg_violations)
    finally:
        model.transitions["resolve"] = spec
    assert any("(608.2b)" in b for b in broken)


@pytest.mark.parametrize("card,field,words", [
    ({"type": "instant", "targets": 2, "effects": [{"destroy": "targets"}]}, "cards.X.target",
     "creatures or permanents"),
    ({"type": "instant", "target": "creature", "effects": [{"destroy": "targets"}]}, "cards.X.targets", "how many"),
    ({"type": "instant", "target": "creature", "targets": 2, "effects": [{"destroy": "target"}]}, "cards.X.effects",
     "names them targets"),
    ({"type": "instant", "target": "spell", "effects": [{"counter": "targets"}]}, "cards.X.effects[0].counter",
     "expected target"),
], ids=["no target kind", "no number", "target, not targets", "counter several"])
def test_a_malformed_magic_card_of_several_targets_names_its_place(card: dict[str, Any], field: str,
                                                                  words: str) -> None:
    from kb.timing.models.mtg.cards_io import parse_cards
    with pytest.raises(FormatError) as err:
        parse_cards({"X": card})
    assert err.value.field == field and words in err.value.message, err.value


@pytest.mark.parametrize("targets,field", [
    ("Grizzly Bears", "cast.targets"),
    ([], "cast.targets"),
    ([999], "cast.targets[0]"),
], ids=["not a list", "none", "an id no object has"])
def test_a_malformed_magic_choice_of_targets_names_its_place(targets: Any, field: str) -> None:
    _, state = mtg_setup("2026-01-16")
    with pytest.raises(FormatError) as err:
        mtg_scenario.action("cast", {"player": "Ann", "card": "Twin Bolt", "targets": targets}, state)
    assert err.value.field == field, err.value


def test_a_magic_state_with_a_spell_of_several_targets_round_trips() -> None:
    from kb.timing.models import get_model
    from kb.timing.scenario import loads, run
    text = (REPO / "tests" / "scenarios" / "mtg" /
            "a-spell-with-two-targets-one-of-which-has-left-the-battlefield-resolves-and-acts-on-the-other-only.yaml")
    result = run(loads(text.read_text(encoding="utf-8")))
    frame = next(f for f in result.frames if f.state["stack"] and "targets" in f.state["stack"][0])
    assert [t["name"] for t in frame.state["stack"][0]["targets"]] == ["Grizzly Bears", "Llanowar Elves"]
    spec = get_model("mtg")
    model, state, broken = spec.state_from_json(frame.state, None)
    assert not broken and spec.state_json(model, state) == frame.state
