"""Magic defender (702.3b in both editions): a creature with defender can't attack, a
restriction the declaration of attackers obeys (508.1c); it blocks as any creature does."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io

BOTH = (EDITION_2010, EDITION_2026)
CARDS = {"Wall": ["defender"], "Bear": [], "Guard": ["Defender", "vigilance"], "Sprite": ["haste"]}


def _state(edition: str, step: str) -> dict[str, Any]:
    attacking = step == "declare-blockers"
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": step, "turn": 3,
            "awaiting": step, **({"defending": "Bo"} if attacking else {}),
            "battlefield": [{"card": "Bear", "controller": "Ann", "attacking": attacking, "tapped": attacking},
                            {"card": "Wall", "controller": "Ann"}, {"card": "Guard", "controller": "Ann"},
                            {"card": "Sprite", "controller": "Ann", "sick": True},
                            {"card": "Wall", "name": "Bo's Wall", "controller": "Bo"}],
            "cards": {c: {"type": "creature", "power": 1, "toughness": 4, "keywords": kw} for c, kw in CARDS.items()}}


# (the attackers declared) → the checks that forbid it
ATTACKS = [
    (["Wall"], ["with-defender"]),
    (["Guard"], ["with-defender"]),
    (["Bear", "Wall"], ["with-defender"]),
    (["Bear"], []),
    (["Bear", "Sprite"], []),
    ([], []),
]


@pytest.mark.parametrize("edition", BOTH)
@pytest.mark.parametrize("attackers,forbidden", ATTACKS)
def test_a_creature_with_defender_cannot_attack(edition: str, attackers: list[str], forbidden: list[str]) -> None:
    model, s, violations = state_io.state_from_json(_state(edition, "declare-attackers"))
    assert not violations
    failing = model.transitions["declare-attackers"].failing(s, {"player": "Ann", "attackers": tuple(attackers),
                                                                 "attackers_text": ""})
    assert [c.name for c in failing] == forbidden
    for c in failing:
        assert set(c.rules) == {"702.3b", "508.1c"}


@pytest.mark.parametrize("edition", BOTH)
def test_a_creature_with_defender_blocks(edition: str) -> None:
    model, s, violations = state_io.state_from_json(_state(edition, "declare-blockers"))
    assert not violations
    assert not model.transitions["declare-blockers"].failing(s, {"player": "Bo", "blocks": (("Bo's Wall", "Bear"),),
                                                                 "blocks_text": ""})
