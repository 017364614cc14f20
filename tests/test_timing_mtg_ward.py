"""Magic ward (702.21a): "whenever this permanent becomes the target of a spell or ability an
opponent controls, counter that spell or ability unless that player pays [cost]". Written as a
keyword with its cost (``Ward 2``); it triggers as the spell becomes cast or the ability
activated, goes on the stack before anyone gets priority, and resolving asks the payment (the
pay-unless decision, a scenario's ``pay`` or ``decline``). The 2010 rules have no ward: a pool
with one is refused there, naming the edition."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError
from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io
from kb.timing.models.mtg.cards_io import card_json, parse_cards
from kb.timing.models.mtg.scenario import setup

SENTINEL = {"type": "creature", "power": 2, "toughness": 2, "keywords": ["Ward 2"]}


@pytest.mark.parametrize("written,cost", [("Ward 2", 2), ("ward {3}", 3), ("WARD 1", 1), ("Ward  {12}", 12)])
def test_ward_is_read_with_its_cost_and_reads_back(written: str, cost: int) -> None:
    card = parse_cards({"X": {**SENTINEL, "keywords": ["flying", written]}})["X"]
    assert card.ward == cost and card.flying
    assert parse_cards({"X": card_json(card)})["X"] == card


# (why, the card, the field refused, words of the refusal)
REFUSED = [
    ("no cost", {**SENTINEL, "keywords": ["Ward"]}, "cards.X.keywords[0]", "written with its cost"),
    ("a cost that is not mana", {**SENTINEL, "keywords": ["Ward—Pay 3 life"]}, "cards.X.keywords[0]",
     "written with its cost"),
    ("an instant", {"type": "instant", "keywords": ["Ward 2"]}, "cards.X.keywords", "permanent's ability"),
]


@pytest.mark.parametrize("why,card,field,words", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_ward_the_model_cannot_play_is_refused_with_its_place(why: str, card: dict[str, Any], field: str,
                                                                words: str) -> None:
    with pytest.raises(FormatError) as err:
        parse_cards({"X": card})
    assert err.value.field == field and words in str(err.value), (why, str(err.value))


def _data(edition: str) -> dict[str, Any]:
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "main1", "priority": "Ann",
            "turn": 3, "battlefield": [{"card": "Sentinel", "controller": "Bo"}, {"card": "Elf", "controller": "Ann"},
                                       {"card": "Bear", "controller": "Bo"}],
            "hands": {"Ann": ["Shock"], "Bo": ["Shock"]},
            "cards": {"Sentinel": SENTINEL, "Bear": {"type": "creature", "power": 2, "toughness": 2},
                      "Shock": {"type": "instant", "target": "any",
                                "effects": [{"damage": {"to": "target", "amount": 2}}]},
                      "Elf": {"type": "creature", "power": 1, "toughness": 1,
                              "abilities": [{"name": "Elf's ability", "target": "creature",
                                             "effects": [{"tap": "target"}]}]}}}


@pytest.mark.parametrize("scenario", [True, False], ids=["scenario", "state"])
def test_the_2010_rules_refuse_a_pool_with_ward_naming_the_edition(scenario: bool) -> None:
    data = _data(EDITION_2010)
    with pytest.raises(FormatError) as err:
        if scenario:
            setup({**data, "players": [{"name": "Ann"}, {"name": "Bo"}]})
        else:
            state_io.state_from_json(data)
    assert err.value.field == "cards.Sentinel.keywords"
    assert "ward is not in the mtg 2010-10-01 rules" in str(err.value)


# (why, the player acting, the decision and its parameters, whether the ward triggers)
TARGETING = [
    ("an opponent's spell at it", "Ann", "cast", {"card": "Shock", "target": "Sentinel"}, True),
    ("an opponent's ability at it", "Ann", "activate", {"ability": "Elf's ability", "source": "Elf",
                                                       "target": "Sentinel"}, True),
    ("its controller's own spell", "Bo", "cast", {"card": "Shock", "target": "Sentinel"}, False),
    ("an opponent's spell at another creature", "Ann", "cast", {"card": "Shock", "target": "Bear"}, False),
    ("an opponent's spell at its controller", "Ann", "cast", {"card": "Shock", "target": "Bo"}, False),
]


@pytest.mark.parametrize("why,player,name,params,triggers", TARGETING, ids=[t[0] for t in TARGETING])
def test_ward_triggers_on_becoming_the_target_of_an_opponent(why: str, player: str, name: str,
                                                             params: dict[str, Any], triggers: bool) -> None:
    model, s, violations = state_io.state_from_json({**_data(EDITION_2026), "priority": player})
    assert not violations
    node = engine.apply(model, s, name, {"player": player, "target_id": None, "on": "", **params})
    out = engine.advance(model, node.after)
    wards = [o for o in out.state.stack if o.name == "Sentinel's ward"]
    assert bool(wards) == triggers, why
    if triggers:
        ward, = wards
        assert ward.controller == "Bo" and ward.target_id == out.state.stack[0].id
        assert ward.effects == (("counter-unless-pay", 2),)
        notes = [n for n in node.walk() if n.name == "ward-triggers"]
        assert notes and "702.21a" in notes[0].rules
