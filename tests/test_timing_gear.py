"""Riftbound's timing model: Gear attached to units (Core Rules 1.4, 716-719, 818), and the
refusals of the cards it cannot read: an unknown instruction is answered with the nearest known
one, as Magic's is (kb.timing.fields.nearest_instruction)."""

from __future__ import annotations

import pytest

from kb.timing.engine import FormatError
from kb.timing.models.riftbound.cards import parse_cards

UNKNOWN_INSTRUCTIONS = [
    ({"drwa": 1}, "unknown instruction 'drwa', did you mean 'draw'? (expected one of: draw, counter, kill, "),
    ({"kil": "target"}, "unknown instruction 'kil', did you mean 'kill'?"),
    ({"deal_damage": {"unit": "target", "amount": 2}}, "unknown instruction 'deal_damage', did you mean 'deal'?"),
    ({"scry": 2}, "unknown instruction 'scry' (expected one of: draw, counter, kill, "),
]


@pytest.mark.parametrize("effect,words", UNKNOWN_INSTRUCTIONS)
def test_an_unknown_instruction_is_refused_with_the_nearest_known_one(effect: dict, words: str) -> None:
    with pytest.raises(FormatError) as refused:
        parse_cards({"Bolt": {"type": "spell", "effects": [effect]}})
    assert words in str(refused.value)
    assert refused.value.field == "cards.Bolt.effects[0]"
