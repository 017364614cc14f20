"""Magic indestructible (702.12b; in 2010 no keyword ability, its rule 700.4): a permanent that
can't be destroyed, by lethal damage (704.5g), by damage from a source with deathtouch (704.5h)
or by a "destroy" instruction (701.8a); a toughness of 0 still puts it into the graveyard
(704.5f), which is no destruction."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io
from kb.timing.scenario import parse, run

BOTH = (EDITION_2010, EDITION_2026)
RULE = {EDITION_2026: "702.12b", EDITION_2010: "700.4"}


def _state(edition: str, keywords: list[str], damage: int, deathtouch_damage: bool, toughness: int = 2) -> Any:
    """Ann's 2/``toughness`` with the damage marked on it, just after combat damage: state-based
    actions to check."""
    state = {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "main1", "turn": 3,
             "begun": True, "due": "Ann",
             "battlefield": [{"card": "Myr", "controller": "Ann", "damage": damage,
                              **({"deathtouch_damage": True} if deathtouch_damage else {})}],
             "cards": {"Myr": {"type": ["artifact", "creature"], "power": 2, "toughness": toughness,
                                      "keywords": keywords}}}
    model, s, violations = state_io.state_from_json(state)
    assert not violations
    return model, s


# (its keywords, damage marked on it, dealt damage by deathtouch, its toughness) → the state-based actions
SBA = [
    ([], 2, False, 2, ["lethal-damage"]),
    (["indestructible"], 2, False, 2, []),
    (["indestructible"], 5, False, 2, []),
    ([], 1, True, 2, ["deathtouch-damage"]),
    (["indestructible"], 1, True, 2, []),
    (["Indestructible"], 2, True, 2, []),
    (["indestructible"], 0, False, 0, ["zero-toughness"]),  # 704.5f: put into the graveyard, not destroyed
    ([], 1, False, 2, []),
]


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("keywords,damage,deathtouch,toughness,actions", SBA)
def test_which_state_based_action_an_indestructible_creature_ignores(edition: str, keywords: list[str], damage: int,
                                                                    deathtouch: bool, toughness: int,
                                                                    actions: list[str]) -> None:
    model, s = _state(edition, keywords, damage, deathtouch, toughness)
    assert [name for name, _ in model.sba(s)] == actions


@pytest.mark.parametrize("edition", BOTH)
def test_priority_received_forgets_the_deathtouch_damage_an_indestructible_creature_survived(edition: str) -> None:
    """704.5h looks back to the last time state-based actions were checked; the damage stays."""
    model, s = _state(edition, ["indestructible"], 3, True)
    ((t, params),) = engine.automatic(model, s)
    assert t.name.startswith("receive-priority")
    after = engine._node(model, t, s, params).after
    assert after.priority == "Ann"
    assert not after.permanent("Myr").deathtouch_damage and after.permanent("Myr").damage == 3


@pytest.mark.parametrize("edition", BOTH)
def test_a_destroy_spell_does_nothing_to_an_indestructible_creature(edition: str) -> None:
    data = {"name": "Murder.", "ruleset": "mtg", "edition": edition,
            "players": [{"name": "Ann", "battlefield": ["Myr"], "hand": ["Murder"]}, {"name": "Bo"}],
            "cards": {"Myr": {"type": "creature", "power": 2, "toughness": 2, "keywords": ["indestructible"]},
                      "Murder": {"type": "instant", "target": "creature", "effects": [{"destroy": "target"}]}},
            "start": {"step": "main1", "turn": 3},
            "steps": [{"cast": {"player": "Ann", "card": "Murder", "target": "Myr"}}, {"pass": "Ann"}, {"pass": "Bo"},
                      {"expect": {"resolved": ["Murder"], "graveyard": ["Murder"], "cited": [RULE[edition]]}}]}
    result = run(parse(data))
    assert result.error is None and all(e.ok for e in result.expectations), \
        (result.error, [(e.expected, e.actual) for e in result.expectations])
    (said,) = [n for f in result.frames for n in f.node.walk() if n.name == "destroy-indestructible"]
    assert said.label.startswith("Myr is indestructible: it isn't destroyed")
