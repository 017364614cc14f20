"""Magic 2010 (510.1c of that edition): a creature blocked by two or more assigns its combat damage
in its damage assignment order, lethal damage to each blocker before the next gets any, but it may
assign more than lethal damage to an earlier one. Where that is a real choice (its power is more
than the first blocker's lethal damage), the attacking player divides it at the combat damage step
(``assign-combat-damage``, a scenario's ``assign: {player, damage}``): the divisions it accepts, the
options listed (all the rest to each blocker in turn, the default last), and the default said."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.models.mtg import EDITION_2010, Magic, state_io

CARDS = {"Wurm": {"type": "creature", "power": 6, "toughness": 9},
         "Trampler": {"type": "creature", "power": 7, "toughness": 7, "keywords": ["trample"]},
         "Giant": {"type": "creature", "power": 3, "toughness": 3},
         "Bear": {"type": "creature", "power": 2, "toughness": 2},
         "Elf": {"type": "creature", "power": 1, "toughness": 1}}


def awaiting_division(attacker: str = "Wurm", first_damage: int = 0) -> tuple[Magic, Any]:
    """A 2010 combat damage step: ``attacker`` blocked by Bear (first in its order) and Giant."""
    board = [{"card": attacker, "controller": "Ann", "attacking": True, "blocked": True, "tapped": True},
             {"card": "Bear", "controller": "Bo", "blocking": attacker, "order": 1, "damage": first_damage},
             {"card": "Giant", "controller": "Bo", "blocking": attacker, "order": 2},
             {"card": "Elf", "controller": "Bo"}]
    model, s, violations = state_io.state_from_json({
        "ruleset": "mtg", "edition": EDITION_2010, "players": ["Ann", "Bo"], "step": "combat-damage", "turn": 3,
        "awaiting": "assign-combat-damage", "battlefield": board, "cards": CARDS, "defending": "Bo"})
    assert not violations and not model.validate(s)
    return model, s


def shares(attacker: str, *given: tuple[str, int]) -> dict[str, Any]:
    return {"player": "Ann", "assignment_text": "", "assignment": ((attacker, given),)}


# (why, the attacker, the division, legal under the 2010 rules)
DIVISIONS = [
    ("lethal to the first, the rest to the second", "Wurm", shares("Wurm", ("Bear", 2), ("Giant", 4)), True),
    ("more than lethal to the first", "Wurm", shares("Wurm", ("Bear", 4), ("Giant", 2)), True),
    ("all to the first", "Wurm", shares("Wurm", ("Bear", 6), ("Giant", 0)), True),
    ("less than lethal to the first, some to the second", "Wurm", shares("Wurm", ("Bear", 1), ("Giant", 5)), False),
    ("all to the second", "Wurm", shares("Wurm", ("Bear", 0), ("Giant", 6)), False),
    ("an order other than the one announced", "Wurm",
     {"player": "Ann", "assignment_text": "", "orders": (("Wurm", ("Giant", "Bear")),)}, False),
    ("the announced order", "Wurm",
     {"player": "Ann", "assignment_text": "", "orders": (("Wurm", ("Bear", "Giant")),)}, True),
    ("trample past lethal to both", "Trampler", shares("Trampler", ("Bear", 2), ("Giant", 3), ("Bo", 2)), True),
    ("trample, more than lethal to the first, none to the player", "Trampler",
     shares("Trampler", ("Bear", 4), ("Giant", 3)), True),
    ("trample past the first but not the second", "Trampler",
     shares("Trampler", ("Bear", 2), ("Giant", 1), ("Bo", 4)), False),
]


@pytest.mark.parametrize("why,attacker,given,legal", DIVISIONS, ids=[d[0] for d in DIVISIONS])
def test_a_2010_division_keeps_lethal_before_the_next_and_allows_more_than_lethal(why: str, attacker: str,
                                                                                 given: dict[str, Any],
                                                                                 legal: bool) -> None:
    model, s = awaiting_division(attacker)
    failing = model.transitions["assign-combat-damage"].failing(s, given)
    assert (not failing) == legal, (why, [c.name for c in failing])
    if not legal:
        assert [c.name for c in failing] == ["damage-assignment"] and "510.1c" in failing[0].rules


# (why, the attacker, damage already on the first blocker, the options' texts: the default last)
OPTIONS = [
    ("all to the first, or lethal then the rest", "Wurm", 0,
     ["Ann divides combat damage: Wurm: 6 to Bear", "Ann divides combat damage: Wurm: 2 to Bear, 4 to Giant"]),
    ("damage marked lowers the first's lethal damage", "Wurm", 1,
     ["Ann divides combat damage: Wurm: 6 to Bear", "Ann divides combat damage: Wurm: 1 to Bear, 5 to Giant"]),
    ("trample: the rest to each blocker, or past both to the player", "Trampler", 0,
     ["Ann divides combat damage: Trampler: 7 to Bear", "Ann divides combat damage: Trampler: 2 to Bear, 5 to Giant",
      "Ann divides combat damage: Trampler: 2 to Bear, 3 to Giant, 2 to Bo"]),
]


@pytest.mark.parametrize("why,attacker,marked,labels", OPTIONS, ids=[o[0] for o in OPTIONS])
def test_the_2010_options_put_the_rest_on_each_blocker_in_turn(why: str, attacker: str, marked: int,
                                                              labels: list[str]) -> None:
    model, s = awaiting_division(attacker, marked)
    decision = engine.decision(model, s, with_illegal=False)
    assert decision is not None and decision.decider == "Ann"
    assert [o.label for o in decision.options if o.transition.name == "assign-combat-damage"] == labels


def test_more_than_lethal_to_an_earlier_blocker_is_said_and_cites_510_1c() -> None:
    model, s = awaiting_division()
    node = engine.apply(model, s, "assign-combat-damage", shares("Wurm", ("Bear", 6), ("Giant", 0)))
    said = [n for n in node.walk() if n.name == "more-than-lethal"]
    assert [n.label for n in said] == ["Wurm assigns more than lethal damage to Bear, which its damage assignment "
                                       "order allows"] and said[0].rules == ("510.1c",)
    assert {u.name: u.damage for u in node.after.board if u.name in ("Bear", "Giant")} == {"Bear": 6, "Giant": 0}
