"""Magic deathtouch (702.2; its rules 702.2b and 702.2c trade letters in 2010): any damage from a
source with deathtouch destroys a creature (704.5h), and 1 is lethal damage as its combat damage
is assigned: to blockers before the player with trample (702.19b; 702.17b in 2010), and in 2010
before the next blocker in its damage assignment order (510.1c). Each case plays a combat, or an
ability, in both editions; the division checks read one lethal damage for the source."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io
from kb.timing.scenario import parse, run

BOTH = (EDITION_2010, EDITION_2026)


def _creature(power: int, toughness: int, *keywords: str) -> dict[str, Any]:
    return {"type": "creature", "power": power, "toughness": toughness, "keywords": list(keywords)}


def _combat(edition: str, attacker: dict[str, Any], blockers: dict[str, dict[str, Any]]) -> Any:
    """Ann attacks with the Attacker, each of Bo's creatures blocks it, nobody responds; the run
    takes the model's default division (lethal damage to each blocker in the order listed)."""
    data = {"name": "A combat.", "ruleset": "mtg", "edition": edition,
            "players": [{"name": "Ann", "battlefield": ["Attacker"]}, {"name": "Bo", "battlefield": list(blockers)}],
            "cards": {"Attacker": attacker, **blockers}, "start": {"step": "declare-attackers", "turn": 3},
            "steps": [{"attack": {"player": "Ann", "with": ["Attacker"]}}, {"pass": "Ann"}, {"pass": "Bo"},
                      {"block": {"player": "Bo", "blocks": {b: "Attacker" for b in blockers}}},
                      {"pass": "Ann"}, {"pass": "Bo"}, {"expect": {"step": "combat-damage"}}]}
    result = run(parse(data))
    assert result.error is None, result.error
    return result


# (the attacker, its blockers, what is in a graveyard after combat damage, Bo's life)
COMBATS = [
    # the judges' classic: 1 to the 4/4 is lethal, 4 trample over; the 4/4 dies of 1 damage
    (_creature(5, 5, "deathtouch", "trample"), {"Ogre": _creature(4, 4)}, {"Ogre"}, 16),
    # without deathtouch the same trampler owes the 4/4 all 4: 1 tramples over
    (_creature(5, 5, "trample"), {"Ogre": _creature(4, 4)}, {"Ogre"}, 19),
    # 1 lethal to each of two 4/4s, the third point to the player; their 8 kill the 3/3
    (_creature(3, 3, "deathtouch", "trample"), {"Ogre": _creature(4, 4), "Giant": _creature(4, 4)},
     {"Ogre", "Giant", "Attacker"}, 19),
    # without trample: 1 to the first and the rest to the last, both die, the attacker too (8 damage)
    (_creature(2, 2, "deathtouch"), {"Ogre": _creature(4, 4), "Giant": _creature(4, 4)},
     {"Ogre", "Giant", "Attacker"}, 20),
    # a blocker with deathtouch destroys the 6/6 it deals 1 damage to, and dies of its 6
    (_creature(6, 6), {"Recluse": _creature(1, 1, "deathtouch")}, {"Recluse", "Attacker"}, 20),
    # deathtouch and indestructible: the 5/5 is not destroyed, the deathtoucher dies
    (_creature(1, 1, "deathtouch"), {"Myr": _creature(5, 5, "indestructible")}, {"Attacker"}, 20),
    # 0 damage is no damage: a 0/2 with deathtouch destroys nothing
    (_creature(2, 2), {"Wall": _creature(0, 2, "deathtouch")}, {"Wall"}, 20),
]


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("attacker,blockers,dead,life", COMBATS)
def test_a_combat_with_deathtouch(edition: str, attacker: dict[str, Any], blockers: dict[str, dict[str, Any]],
                                  dead: set[str], life: int) -> None:
    result = _combat(edition, attacker, blockers)
    after = result.frames[-1].node.after
    assert {card for _, card in after.graveyard} == dead
    assert after.life_of("Bo") == life


@pytest.mark.parametrize("edition,lethal_rule,sba_rule", [(EDITION_2026, "702.2c", "702.2b"),
                                                         (EDITION_2010, "702.2b", "702.2c")])
def test_each_edition_cites_its_own_deathtouch_rules(edition: str, lethal_rule: str, sba_rule: str) -> None:
    result = _combat(edition, _creature(5, 5, "deathtouch", "trample"), {"Ogre": _creature(4, 4)})
    nodes = {n.name: n for f in result.frames for n in f.node.walk()}
    assert lethal_rule in nodes["deathtouch-lethal"].rules
    assert nodes["deathtouch-lethal"].label.startswith("Attacker has deathtouch: 1 damage is lethal damage to Ogre")
    assert {"704.5h", sba_rule} <= set(nodes["deathtouch-damage"].rules)


def test_damage_from_an_ability_of_a_creature_with_deathtouch_destroys_a_five_five() -> None:
    """702.2b: any damage, not only combat damage; the source is the creature whose ability it is."""
    data = {"name": "A pinger.", "ruleset": "mtg", "edition": EDITION_2026,
            "players": [{"name": "Ann", "battlefield": ["Pinger"]}, {"name": "Bo", "battlefield": ["Wurm"]}],
            "cards": {"Pinger": {**_creature(1, 1, "deathtouch"), "abilities": [
                {"name": "ping", "tap": True, "target": "creature",
                 "effects": [{"damage": {"to": "target", "amount": 1}}]}]}, "Wurm": _creature(5, 5)},
            "start": {"step": "main1", "turn": 3},
            "steps": [{"activate": {"player": "Ann", "ability": "ping", "source": "Pinger", "target": "Wurm"}},
                      {"pass": "Ann"}, {"pass": "Bo"},
                      {"expect": {"resolved": ["ping"], "graveyard": ["Wurm"], "cited": ["704.5h"]}}]}
    result = run(parse(data))
    assert result.error is None and all(e.ok for e in result.expectations), \
        (result.error, [(e.expected, e.actual) for e in result.expectations])


def _blocked_state(edition: str, marked: int = 0) -> Any:
    """A 3/3 with deathtouch and trample blocked by two 4/4s (Ogre first), at the combat damage step."""
    state = {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "combat-damage", "turn": 3,
             "defending": "Bo", "begun": True,
             "battlefield": [{"card": "Attacker", "controller": "Ann", "attacking": True, "tapped": True,
                              "blocked": True, "id": 1},
                             {"card": "Ogre", "controller": "Bo", "blocking": 1, "damage": marked,
                              **({"order": 1} if edition == EDITION_2010 else {})},
                             {"card": "Giant", "controller": "Bo", "blocking": 1,
                              **({"order": 2} if edition == EDITION_2010 else {})}],
             "cards": {"Attacker": _creature(3, 3, "deathtouch", "trample"), "Ogre": _creature(4, 4),
                       "Giant": _creature(4, 4)}}
    model, s, violations = state_io.state_from_json(state)
    assert not violations
    return model, s


# (the toughness of the blocker less damage marked on it: its damage, whether the source has
# deathtouch) → the lethal damage it is assigned (510.1c, 702.19b, 702.2c)
LETHAL = [
    (0, False, 4),
    (0, True, 1),
    (3, True, 1),
    (2, False, 2),
]


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("marked,deathtouch,lethal", LETHAL)
def test_lethal_damage_is_1_from_a_source_with_deathtouch(edition: str, marked: int, deathtouch: bool,
                                                          lethal: int) -> None:
    model, s = _blocked_state(edition, marked)
    attacker, ogre = s.permanent("Attacker"), s.permanent("Ogre")
    if not deathtouch:
        model = state_io.state_from_json({**state_io.state_json(model, s), "cards": {
            "Attacker": _creature(3, 3, "trample"), "Ogre": _creature(4, 4), "Giant": _creature(4, 4)}})[0]
    assert model.lethal_damage(s, attacker, ogre) == lethal


# (edition, a division of the 3/3's damage) → whether it is legal
DIVISIONS = [
    (EDITION_2026, {"Ogre": 1, "Giant": 1, "Bo": 1}, True),   # lethal (1) to each, the rest trampling over
    (EDITION_2026, {"Ogre": 1, "Bo": 2}, False),             # the Giant has no lethal damage: nothing to Bo
    (EDITION_2026, {"Giant": 3}, True),                      # 2026 divides as its controller chooses (510.1c)
    (EDITION_2010, {"Ogre": 1, "Giant": 1, "Bo": 1}, True),
    (EDITION_2010, {"Ogre": 1, "Giant": 2}, True),           # 1 is lethal to the Ogre, first in the order
    (EDITION_2010, {"Ogre": 2, "Giant": 1}, True),           # more than lethal to an earlier one
    (EDITION_2010, {"Giant": 3}, False),                     # the Ogre, first, is assigned no lethal damage
    (EDITION_2010, {"Ogre": 1, "Bo": 2}, False),
]


@pytest.mark.parametrize("edition,shares,legal", DIVISIONS)
def test_a_division_of_a_deathtouch_tramplers_damage(edition: str, shares: dict[str, int], legal: bool) -> None:
    model, s = _blocked_state(edition)
    assert [a.name for a in model.to_divide(s)] == ["Attacker"]
    divided = model.division(s, {"assignment": (("Attacker", tuple(shares.items())),)})
    assert (divided is not None) == legal


def test_2010_lists_the_divisions_its_order_allows_with_1_as_lethal() -> None:
    model, s = _blocked_state(EDITION_2010)
    assert model.stop_at(s, s.permanent("Attacker")) == [(("Ogre", 3),), (("Ogre", 1), ("Giant", 2)),
                                                          (("Ogre", 1), ("Giant", 1), ("Bo", 1))]
