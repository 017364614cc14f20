"""Magic menace (702.111b, 2026 only): a creature with menace can't be blocked except by two or
more creatures; the declaration of blockers obeys it (509.1b). The 2010-10-01 rules have no
menace: a card with it is refused there, at the card, naming the rule it came with."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError
from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io

BLOCKERS = ("Bear", "Cub", "Wolf")


def _state(edition: str, attackers: dict[str, list[str]]) -> dict[str, Any]:
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "declare-blockers", "turn": 3,
            "awaiting": "declare-blockers", "defending": "Bo",
            "battlefield": [{"card": a, "controller": "Ann", "attacking": True, "tapped": True} for a in attackers]
            + [{"card": b, "controller": "Bo"} for b in BLOCKERS],
            "cards": {**{a: {"type": "creature", "power": 3, "toughness": 2, "keywords": kw}
                         for a, kw in attackers.items()},
                      **{b: {"type": "creature", "power": 2, "toughness": 2} for b in BLOCKERS}}}


ATTACKERS = {"Heelcutter": ["menace"], "Ogre": [], "Drake": ["menace", "flying"]}
# (the blocks declared, blocker → attacker) → the checks that forbid it
BLOCKS = [
    ({"Bear": "Heelcutter"}, ["menace"]),
    ({"Bear": "Heelcutter", "Cub": "Heelcutter"}, []),
    ({"Bear": "Heelcutter", "Cub": "Heelcutter", "Wolf": "Heelcutter"}, []),
    ({}, []),
    ({"Bear": "Ogre"}, []),
    ({"Bear": "Heelcutter", "Cub": "Ogre"}, ["menace"]),
    ({"Bear": "Ogre", "Cub": "Heelcutter", "Wolf": "Heelcutter"}, []),
    ({"Bear": "Drake", "Cub": "Drake"}, ["flying"]),  # evasion abilities are cumulative (509.1b)
    ({"Bear": "Drake"}, ["flying", "menace"]),
]


@pytest.mark.parametrize("blocks,forbidden", BLOCKS)
def test_who_may_block_a_creature_with_menace(blocks: dict[str, str], forbidden: list[str]) -> None:
    model, s, violations = state_io.state_from_json(_state(EDITION_2026, ATTACKERS))
    assert not violations
    failing = model.transitions["declare-blockers"].failing(s, {"player": "Bo", "blocks": tuple(blocks.items()),
                                                                "blocks_text": ""})
    assert [c.name for c in failing] == forbidden
    for c in failing:
        if c.name == "menace":
            assert set(c.rules) == {"702.111b", "509.1b"}


def test_the_options_never_block_a_menace_attacker_with_one_creature() -> None:
    model, s, _ = state_io.state_from_json(_state(EDITION_2026, {"Heelcutter": ["menace"]}))
    legal = [dict(o.params["blocks"]) for o in engine.options(model, s) if o.transition.name == "declare-blockers" and o.legal]
    assert legal and all(list(b.values()).count("Heelcutter") != 1 for b in legal)
    assert {"Bear": "Heelcutter", "Cub": "Heelcutter"} in legal and {} in legal


def test_menace_is_refused_in_the_2010_rules_at_the_card() -> None:
    with pytest.raises(FormatError) as refused:
        state_io.state_from_json(_state(EDITION_2010, {"Heelcutter": ["Menace"]}))
    assert refused.value.field == "cards.Heelcutter.keywords"
    assert "menace is not in the mtg 2010-10-01 rules (its rule, 702.111 in 2026-01-16, came later)" in \
        str(refused.value)
