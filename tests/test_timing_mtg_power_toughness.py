"""Magic's timing model: a creature card says its power and toughness (CR 208.1). Left out, the
model would make it a 0/0 that dies at once (704.5f) without the scenario saying so (acceptance
finding F5): it is refused naming the card's field; 0/0 written out is played as written."""

from __future__ import annotations

from typing import Any

import pytest

from kb.query import KnowledgeBase, QueryError
from kb.timing.engine import FormatError
from kb.timing.models.mtg.cards_io import parse_cards

# (the card as written, the field the refusal names, or None: it is read)
CARDS = [
    ({"type": "creature"}, "cards.Bear.power"),
    ({"type": "creature", "power": 2}, "cards.Bear.toughness"),
    ({"type": "creature", "toughness": 2}, "cards.Bear.power"),
    ({"type": ["artifact", "creature"], "toughness": 2}, "cards.Bear.power"),
    ({"type": "creature", "power": None, "toughness": 2}, "cards.Bear.power"),
    ({"type": "creature", "keywords": ["double strike"]}, "cards.Bear.power"),
    ({"type": "creature", "power": 0, "toughness": 0}, None),
    ({"type": "creature", "power": 2, "toughness": 2}, None),
    ({"type": "artifact"}, None),
    ({"type": "instant"}, None),
]


@pytest.mark.parametrize("raw,field", CARDS, ids=[f"{c[0]}" for c in CARDS])
def test_a_creature_without_power_or_toughness_is_refused_naming_the_field(raw: dict[str, Any],
                                                                            field: str | None) -> None:
    if field is None:
        parse_cards({"Bear": raw})
        return
    with pytest.raises(FormatError) as err:
        parse_cards({"Bear": raw})
    assert err.value.field == field
    assert "power and toughness" in err.value.message and "power: 0, toughness: 0" in err.value.message


def _scenario(bear: dict[str, Any]) -> dict[str, Any]:
    return {"name": "A creature in play as main phase begins.", "ruleset": "mtg", "edition": "2026-01-16",
            "players": [{"name": "Ann", "battlefield": ["Bear"]}, "Bo"], "cards": {"Bear": bear},
            "start": {"step": "main1", "turn": 3}, "steps": [{"expect": {"battlefield": ["Bear"]}}]}


def test_a_scenario_with_such_a_creature_is_refused_naming_the_card(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(QueryError) as caught:
        excerpt_kb.timing_run(_scenario({"type": "creature"}))
    assert caught.value.status == 422
    assert "cards.Bear.power" in caught.value.message


@pytest.mark.parametrize("bear,lives", [({"type": "creature", "power": 0, "toughness": 0}, False),
                                        ({"type": "creature", "power": 0, "toughness": 1}, True)])
def test_a_zero_zero_written_out_is_played_as_written(excerpt_kb: KnowledgeBase, bear: dict[str, Any],
                                                      lives: bool) -> None:
    run = excerpt_kb.timing_run(_scenario(bear))
    assert run["error"] is None
    assert run["ok"] is lives  # the 0/0 is put into the graveyard before anyone gets priority (704.5f)
