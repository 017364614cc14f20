"""Magic lifelink (702.15; 702.13 in 2010, a static ability in both): damage dealt by a source
with lifelink also makes its controller gain that much life, as the damage is dealt (120.3f;
119.3f in 2010), with no trigger and no stack; combat or not, to a creature or a player, with
first strike in the first combat damage step."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing.models.mtg import EDITION_2010, EDITION_2026
from kb.timing.scenario import parse, run

BOTH = (EDITION_2010, EDITION_2026)


def _creature(power: int, toughness: int, *keywords: str) -> dict[str, Any]:
    return {"type": "creature", "power": power, "toughness": toughness, "keywords": list(keywords)}


def _combat(edition: str, ann: dict[str, dict[str, Any]], bo: dict[str, dict[str, Any]], blocks: dict[str, str],
            life: int = 10) -> Any:
    """Every one of Ann's creatures attacks, Bo blocks as given, nobody responds; each player at ``life``."""
    data = {"name": "A combat.", "ruleset": "mtg", "edition": edition,
            "players": [{"name": "Ann", "battlefield": list(ann), "life": life},
                        {"name": "Bo", "battlefield": list(bo), "life": life}],
            "cards": {**ann, **bo}, "start": {"step": "declare-attackers", "turn": 3},
            "steps": [{"attack": {"player": "Ann", "with": list(ann)}}, {"pass": "Ann"}, {"pass": "Bo"},
                      {"block": {"player": "Bo", "blocks": blocks}}, {"pass": "Ann"}, {"pass": "Bo"},
                      {"expect": {"step": "combat-damage"}}]}
    result = run(parse(data))
    assert result.error is None, result.error
    return result


# (Ann's attackers, Bo's creatures, his blocks, Ann's life after the first combat damage step, Bo's,
# the life gains, one per source with lifelink that dealt damage)
COMBATS = [
    # unblocked: 3 damage to Bo, 3 life to Ann
    ({"Knight": _creature(3, 3, "lifelink")}, {}, {}, 13, 7, [3]),
    # blocked by a 2/2: the damage it deals, 3, not the 2 the blocker needed
    ({"Knight": _creature(3, 3, "lifelink")}, {"Bear": _creature(2, 2)}, {"Bear": "Knight"}, 13, 10, [3]),
    # a blocker with lifelink gains its controller life for the damage it deals to the attacker
    ({"Ogre": _creature(4, 4)}, {"Vampire": _creature(2, 3, "lifelink")}, {"Vampire": "Ogre"}, 10, 12, [2]),
    # first strike: the life comes in the first step, the 2/2 blocker dies before dealing damage
    ({"Knight": _creature(3, 3, "lifelink", "first strike")}, {"Bear": _creature(2, 2)}, {"Bear": "Knight"}, 13, 10,
     [3]),
    # without lifelink nobody gains life
    ({"Knight": _creature(3, 3)}, {}, {}, 10, 7, []),
    # 0 power: no damage, no life (119.9: no life gain event)
    ({"Wall": _creature(0, 3, "lifelink")}, {}, {}, 10, 10, []),
    # two sources with lifelink: separate life gains, 2 and 3 (702.15e)
    ({"Knight": _creature(3, 3, "lifelink"), "Squire": _creature(2, 2, "lifelink")}, {}, {}, 15, 5, [3, 2]),
]


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("ann,bo,blocks,ann_life,bo_life,gains", COMBATS)
def test_lifelink_in_combat(edition: str, ann: dict[str, Any], bo: dict[str, Any], blocks: dict[str, str],
                            ann_life: int, bo_life: int, gains: list[int]) -> None:
    result = _combat(edition, ann, bo, blocks)
    after = result.frames[-1].node.after
    assert (after.life_of("Ann"), after.life_of("Bo")) == (ann_life, bo_life)
    assert [n.params["amount"] for f in result.frames for n in f.node.walk() if n.name == "lifelink"] == gains


@pytest.mark.parametrize("edition,rules", [(EDITION_2026, {"702.15b", "120.3f", "702.15a"}),
                                           (EDITION_2010, {"702.13b", "119.3f", "702.13a"})])
def test_each_edition_cites_its_own_lifelink_rules(edition: str, rules: set[str]) -> None:
    result = _combat(edition, {"Knight": _creature(3, 3, "lifelink")}, {}, {})
    (gain,) = [n for f in result.frames for n in f.node.walk() if n.name == "lifelink"]
    assert set(gain.rules) == rules
    assert gain.label.startswith("Knight has lifelink: Ann gains 3 life")


def test_damage_a_lifelink_creatures_ability_deals_gains_life_too() -> None:
    """702.15b: any damage the source deals, not only combat damage."""
    data = {"name": "A pinger.", "ruleset": "mtg", "edition": EDITION_2026,
            "players": [{"name": "Ann", "battlefield": ["Pinger"], "life": 10}, {"name": "Bo"}],
            "cards": {"Pinger": {**_creature(1, 1, "lifelink"), "abilities": [
                {"name": "ping", "tap": True, "target": "player",
                 "effects": [{"damage": {"to": "target", "amount": 1}}]}]}},
            "start": {"step": "main1", "turn": 3},
            "steps": [{"activate": {"player": "Ann", "ability": "ping", "source": "Pinger", "target": "Bo"}},
                      {"pass": "Ann"}, {"pass": "Bo"},
                      {"expect": {"resolved": ["ping"], "life": {"Ann": 11, "Bo": 19}, "cited": ["702.15b"]}}]}
    result = run(parse(data))
    assert result.error is None and all(e.ok for e in result.expectations), \
        (result.error, [(e.expected, e.actual) for e in result.expectations])
