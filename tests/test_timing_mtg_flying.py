"""Magic flying and reach (702.9b, 702.17b; 702.15b in 2010): a creature with flying can be
blocked only by creatures with flying or reach; reach lets a creature without flying block it,
and neither keyword stops a creature blocking one without flying."""

from __future__ import annotations

import pytest

from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io


def _state(edition: str, attacker: list[str], blocker: list[str]) -> dict:
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "declare-blockers", "turn": 3,
            "awaiting": "declare-blockers", "defending": "Bo",
            "battlefield": [{"card": "A", "controller": "Ann", "attacking": True, "tapped": True},
                            {"card": "B", "controller": "Bo"}],
            "cards": {"A": {"type": "creature", "power": 2, "toughness": 2, "keywords": attacker},
                      "B": {"type": "creature", "power": 2, "toughness": 2, "keywords": blocker}}}


# (the attacker's keywords, the blocker's, whether it may block)
BLOCKS = [
    (["flying"], [], False),
    (["flying"], ["reach"], True),
    (["flying"], ["flying"], True),
    (["Flying"], ["Reach", "vigilance"], True),
    ([], [], True),
    ([], ["reach"], True),
    ([], ["flying"], True),
    (["reach"], [], True),
    (["flying", "trample"], ["first strike"], False),
]


@pytest.mark.parametrize("edition,reach", [(EDITION_2026, "702.17b"), (EDITION_2010, "702.15b")])
@pytest.mark.parametrize("attacker,blocker,legal", BLOCKS)
def test_who_may_block_a_creature_with_flying(edition: str, reach: str, attacker: list[str], blocker: list[str],
                                              legal: bool) -> None:
    model, s, violations = state_io.state_from_json(_state(edition, attacker, blocker))
    assert not violations
    failing = model.transitions["declare-blockers"].failing(s, {"player": "Bo", "blocks": (("B", "A"),),
                                                                "blocks_text": ""})
    assert (not failing) == legal, [c.name for c in failing]
    if not legal:
        assert [c.name for c in failing] == ["flying"] and {"702.9b", reach} <= set(failing[0].rules)
