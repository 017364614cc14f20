"""With a hand unknown (``hands: null``), the options ``next`` lists may play any card of the pool
but a permanent the state shows on the board or facedown: that card is there, not in a hand
(acceptance run, finding 14: "Bo plays Gritfang Scout" offered for Ann's unit on the board)."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.models import get_model


def _focus_state(**extra: Any) -> dict[str, Any]:
    """A showdown at Ashen Ridge where Ann's Gritfang Scout moved; both hands unknown."""
    return {"ruleset": "riftbound", "players": ["Ann", "Bo"], "turn_player": "Ann", "priority": "Ann",
            "focus": "Ann", "showdown": {"battlefield": "Ashen Ridge", "combat": False, "passes": 0},
            "board": [{"name": "Gritfang Scout", "card": "Gritfang Scout", "controller": "Ann",
                       "location": "Ashen Ridge", "exhausted": True}],
            "battlefields": [{"name": "Ashen Ridge", "controller": None, "contested_by": "Ann"}],
            "hands": {"Ann": None, "Bo": None}, **extra}


CARDS = {"Gritfang Scout": {"type": "unit"}, "Sparkbolt": {"type": "spell", "keywords": ["Action"]},
         "Cinder": {"type": "spell"}}

# (case, state, labels that must be among the options legal or not, labels that must not)
CASES = [
    ("a unit on the board is not offered from an unknown hand",
     _focus_state(cards=CARDS), ["Ann plays Sparkbolt", "Ann plays Cinder"],
     ["Ann plays Gritfang Scout", "Bo plays Gritfang Scout"]),
    ("after a pass, to the other player neither",
     {**_focus_state(cards=CARDS), "priority": "Bo", "focus": "Bo",
      "showdown": {"battlefield": "Ashen Ridge", "combat": False, "passes": 1}},
     ["Bo plays Sparkbolt"], ["Bo plays Gritfang Scout", "Ann plays Gritfang Scout"]),
    ("a known hand holding a copy of a unit on the board still offers it",
     {**_focus_state(cards=CARDS), "hands": {"Ann": ["Gritfang Scout"], "Bo": None}},
     ["Ann plays Gritfang Scout"], ["Bo plays Gritfang Scout"]),
]


@pytest.mark.parametrize("case,state,offered,absent", CASES, ids=[c[0] for c in CASES])
def test_an_unknown_hand_is_not_offered_a_permanent_already_on_the_board(
        case: str, state: dict[str, Any], offered: list[str], absent: list[str]) -> None:
    model, s, violations = get_model("riftbound").state_from_json(state)
    assert not violations
    labels = [o.label for o in engine.options(model, s)]
    for label in offered:
        assert label in labels, (label, labels)
    for label in absent:
        assert label not in labels, (label, labels)
