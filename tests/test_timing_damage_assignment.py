"""Riftbound combat damage assignment (465.2.c): each player assigns their damage among the
other side's units, lethal damage to each in full before the next (465.2.c.3). Where more than
one assignment is legal the trace says which was taken: the player's own (an ``assign`` step)
or the model's default (board order), so a judge sees a choice was made; a malformed ``assign``
is refused with its place, and a decision written back as a step replays the same."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.timing import engine
from kb.timing.models.riftbound.scenario import option_action
from kb.timing.scenario import ScenarioError, loads, run


def _scenario(ann: list[str], bo: list[str], steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "name": "A combat.", "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
        "battlefields": {"Keep": {"controller": "Bo", "units": {"Ann": ann, "Bo": bo}}},
        "start": {"combat": {"at": "Keep", "attacker": "Ann", "defender": "Bo"}},
        "cards": {"Brute": {"type": "unit", "might": 3}, "Squire": {"type": "unit", "might": 1},
                  "Page": {"type": "unit", "might": 1}, "Archer": {"type": "unit", "might": 1},
                  "Wall": {"type": "unit", "might": 2, "keywords": ["Tank"]},
                  "Giant": {"type": "unit", "might": 6}, "Knight": {"type": "unit", "might": 2},
                  "Ogre": {"type": "unit", "might": 4}},
        "steps": steps,
    }


def _run(ann: list[str], bo: list[str], before: list[dict[str, Any]] | None = None) -> Any:
    steps = [*(before or []), {"pass": "Ann"}, {"pass": "Bo"}]
    return run(loads(yaml.safe_dump(_scenario(ann, bo, steps)), "assign.yaml"))


def _assigned(result: Any) -> list[str]:
    return [n.label for f in result.frames for n in f.node.walk() if n.transition.name == "damage-assigned"]


# (Ann's units, Bo's units, Bo's assign step or None, the damage-assigned notes, who dies)
CASES = [
    # Bo's 3 damage among Brute (3) and Squire (1): a real choice; the default is board order
    (["Brute", "Squire"], ["Archer", "Wall"], None,
     ["Bo assigns 3 damage: Brute 3, Squire 0 (the model's default, one legal assignment: lethal damage to each "
      "unit in turn, in board order where no keyword orders them; an assign step chooses another order)"],
     ["Archer", "Wall", "Brute"]),
    (["Brute", "Squire"], ["Archer", "Wall"], ["Squire", "Brute"],
     ["Bo assigns 3 damage: Squire 1, Brute 2 (in the order they chose)"], ["Squire", "Archer", "Wall"]),
    # an order naming one unit: the others follow in board order
    (["Brute", "Squire"], ["Archer", "Wall"], ["Squire"],
     ["Bo assigns 3 damage: Squire 1, Brute 2 (in the order they chose)"], ["Squire", "Archer", "Wall"]),
    # one unit to take it all, or enough for everyone's lethal with one way to give it: no choice
    (["Brute"], ["Archer", "Wall"], None, [], ["Archer", "Wall", "Brute"]),
    (["Squire", "Page"], ["Giant"], None,
     ["Bo assigns 6 damage: Squire 1, Page 5 (the model's default, one legal assignment: lethal damage to each "
      "unit in turn, in board order where no keyword orders them; an assign step chooses another order)"],
     ["Squire", "Page"]),
    # Ann's 2 damage on Wall (Tank, 2) and Archer: Tank first, all of it: one legal assignment, no
    # note; Bo's 3 on two 1-Might units: where the extra 1 goes is Bo's choice, though both die
    (["Squire", "Page"], ["Wall", "Archer"], None,
     ["Bo assigns 3 damage: Squire 1, Page 2 (the model's default, one legal assignment: lethal damage to each "
      "unit in turn, in board order where no keyword orders them; an assign step chooses another order)"],
     ["Squire", "Page", "Wall"]),
]


@pytest.mark.parametrize("ann,bo,order,notes,dead", CASES)
def test_the_trace_says_whose_assignment_was_taken_where_it_was_a_choice(
        ann: list[str], bo: list[str], order: list[str] | None, notes: list[str], dead: list[str]) -> None:
    result = _run(ann, bo, [{"assign": {"player": "Bo", "order": order}}] if order else None)
    assert result.error is None, result.error
    assert _assigned(result) == notes
    assert sorted(result.final.trash) == sorted(dead)


def test_a_later_assign_replaces_the_players_earlier_one() -> None:
    result = _run(["Brute", "Squire"], ["Archer", "Wall"], [{"assign": {"player": "Bo", "order": ["Brute"]}},
                                                            {"assign": {"player": "Bo", "order": ["Squire"]}}])
    assert _assigned(result)[0].startswith("Bo assigns 3 damage: Squire 1, Brute 2 (in the order they chose)")


# (the assign step's payload, the place named, words of the message)
MALFORMED = [
    ({"player": "Bo", "order": []}, "assign.order", "non-empty list"),
    ({"player": "Bo"}, "assign.order", "non-empty list"),
    ({"player": "Bo", "order": "Squire"}, "assign.order", "expected a list"),
    ({"player": "Bo", "order": ["Squire", 3]}, "assign.order[1]", "expected a non-empty string"),
    ({"player": "Bo", "order": ["Squire", "Squire"]}, "assign.order[1]", "Squire is listed twice"),
    ({"player": "Bo", "order": ["Squire"], "to": "Keep"}, "assign", "unknown key"),
    ({"player": "Zed", "order": ["Squire"]}, "assign.player", "not one of the players"),
]


@pytest.mark.parametrize("payload,field,words", MALFORMED)
def test_a_malformed_assign_is_refused_with_its_place(payload: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        _run(["Brute", "Squire"], ["Archer"], [{"assign": payload}])
    assert err.value.field == field and err.value.step == 1, str(err.value)
    assert words in err.value.message


# (who assigns, the order, the checks that refuse it)
REFUSED = [
    ("Bo", ["Archer"], ["combat-assigner"]),  # Bo's own unit
    ("Ann", ["Archer", "Wall"], ["assignment-keywords"]),  # Wall has Tank: first
    ("Ann", ["Nobody"], ["combat-assigner"]),
]


@pytest.mark.parametrize("player,order,checks", REFUSED)
def test_an_assignment_the_rules_forbid_is_an_illegal_step(player: str, order: list[str], checks: list[str]) -> None:
    result = _run(["Brute", "Squire"], ["Archer", "Wall"], [{"assign": {"player": player, "order": order}}])
    assert result.error is not None and result.error["type"] == "illegal-step"
    assert result.expectations[-1].actual["forbidden_by"] == checks


def test_no_assignment_outside_a_combat_showdown() -> None:
    data = _scenario(["Brute"], ["Archer"], [{"pass": "Ann"}, {"pass": "Bo"},
                                            {"assign": {"player": "Bo", "order": ["Brute"]}}])
    result = run(loads(yaml.safe_dump(data)))
    assert result.error is not None and result.error["type"] == "illegal-step"


def test_an_assignment_written_as_a_step_replays_the_same() -> None:
    result = _run(["Brute", "Squire"], ["Archer"])
    option = engine.Option(result.model.transitions["assign-damage"], {"player": "Bo", "order": ("Squire", "Brute")}, ())
    step = option_action(option)
    assert step == {"assign": {"player": "Bo", "order": ["Squire", "Brute"]}}
    replayed = _run(["Brute", "Squire"], ["Archer", "Wall"], [step])
    assert _assigned(replayed) == ["Bo assigns 3 damage: Squire 1, Brute 2 (in the order they chose)"]


def _awaiting(ann: list[str], bo: list[str]) -> Any:
    """The run stopped after both players passed, before the combat damage step's decision is
    taken (``expect: {decider}`` asks who decides, so the runner takes no default)."""
    steps = [{"pass": "Ann"}, {"pass": "Bo"}, {"expect": {"decider": None}}]
    return run(loads(yaml.safe_dump(_scenario(ann, bo, steps)), "assign.yaml"))


# (Ann's units, Bo's units, who decides at the combat damage step, the orders listed as options)
LISTED = [
    # Bo's 3 among Brute and Squire: two assignments, the default (board order) first
    (["Brute", "Squire"], ["Archer", "Wall"], "Bo", [("Brute", "Squire"), ("Squire", "Brute")]),
    # Ann's 4 among Wall (Tank, first) and Archer: one assignment; so is Bo's 3 on Brute alone
    (["Brute"], ["Archer", "Wall"], None, []),
    # Ann's 3 among Archer and Page (1 each): the extra goes to the last, either way: two choices
    (["Brute"], ["Archer", "Page"], "Ann", [("Archer", "Page"), ("Page", "Archer")]),
    # more different assignments than are listed: no decision, the model's default is said in the trace
    (["Squire", "Knight", "Brute", "Ogre"], ["Giant"], None, []),
]


@pytest.mark.parametrize("ann,bo,decider,orders", LISTED)
def test_a_real_choice_of_assignment_is_the_decision_due_at_the_combat_damage_step(
        ann: list[str], bo: list[str], decider: str | None, orders: list[tuple[str, ...]]) -> None:
    result = _awaiting(ann, bo)
    assert result.error is None, result.error
    d = engine.decision(result.model, result.final, with_illegal=False)
    listed = [o.params["order"] for o in d.options if o.transition.name == "assign-damage"] if d else []
    assert listed == orders
    if decider is None:  # no choice held the damage step: the combat is over
        assert result.final.combat is None
        return
    assert d is not None and d.decider == decider
    assert {o.transition.name for o in d.options} == {"assign-damage"}  # the only options there


def test_each_listed_assignment_replays_as_its_assign_step_and_gives_its_damage() -> None:
    result = _awaiting(["Brute", "Squire"], ["Archer", "Wall"])
    d = engine.decision(result.model, result.final, with_illegal=False)
    assert d is not None
    notes = []
    for option in d.options:
        step = option_action(option)
        assert step == {"assign": {"player": "Bo", "order": list(option.params["order"])}}
        replayed = run(loads(yaml.safe_dump(_scenario(["Brute", "Squire"], ["Archer", "Wall"],
                                                      [{"pass": "Ann"}, {"pass": "Bo"}, step])), "assign.yaml"))
        assert replayed.error is None, replayed.error
        notes += _assigned(replayed)
    assert notes == [
        "Bo assigns 3 damage: Brute 3, Squire 0 (the model's default, one legal assignment: lethal damage to each "
        "unit in turn, in board order where no keyword orders them; an assign step chooses another order)",
        "Bo assigns 3 damage: Squire 1, Brute 2 (in the order they chose)"]


def test_a_scenario_that_leaves_the_assignment_out_takes_the_default_and_says_so() -> None:
    result = _run(["Brute", "Squire"], ["Archer", "Wall"])
    said = [f.note for f in result.frames if f.note]
    assert said == ["by default (the scenario gives no assign): lethal damage to each unit in turn, in board order "
                    "where no keyword orders them"]
    assert sorted(result.final.trash) == ["Archer", "Brute", "Wall"]
