"""Magic's +N/+N until end of turn (``boost``): a card or ability with a target gives it to its
target (608.2c; a power/toughness change, 613.4c, 613.3c in 2010), one without to the permanent
whose ability it is; a boost with no creature to give it to is refused where the card is read,
never resolved doing nothing. Its JSON reads back as written (a state's stack and card pool)."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError
from kb.timing.models.mtg import EDITION_2010, EDITION_2026, state_io
from kb.timing.models.mtg.cards_io import card_json, parse_cards

BEARS = {"type": "creature", "power": 2, "toughness": 2}


def _card(**kw: Any) -> dict[str, Any]:
    return {"type": "instant", **kw}


# (why, the card, where it is refused, words of the refusal)
REFUSED = [
    ("a spell's own boost", _card(effects=[{"boost": 3}]), "cards.X.effects[0].boost", "not a permanent"),
    ("a spell's boost to a player or creature", _card(target="any", effects=[{"boost": 3}]),
     "cards.X.effects[0].boost", "target: any"),
    ("a spell's boost to a player", _card(target="player", effects=[{"boost": 3}]), "cards.X.effects[0].boost",
     "208.1"),
    ("a spell's boost to a spell", _card(target="spell", effects=[{"boost": {"to": "target", "amount": 2}}]),
     "cards.X.effects[0].boost", "target: spell"),
    ("a spell's boost to itself, said", _card(target="creature", effects=[{"boost": {"to": "self", "amount": 2}}]),
     "cards.X.effects[0].boost", "not a permanent"),
    ("a target without one", _card(effects=[{"boost": {"to": "target", "amount": 2}}]), "cards.X.target",
     "needs a target"),
    ("a trigger's target", {**BEARS, "triggers": [{"on": "enters", "effects": [{"boost": {"to": "target",
                                                                                          "amount": 1}}]}]},
     "cards.X.triggers[0].effects[0].boost", "triggered ability has none"),
    ("a dies trigger's own", {**BEARS, "triggers": [{"on": "dies", "effects": [{"boost": 1}]}]},
     "cards.X.triggers[0].effects[0].boost", "400.7"),
    ("a graveyard ability's own", {**BEARS, "abilities": [{"name": "Grow", "zone": "graveyard",
                                                           "effects": [{"boost": 1}]}]},
     "cards.X.abilities[0].effects[0].boost", "graveyard"),
    ("an ability's boost to a player", {**BEARS, "abilities": [{"name": "Grow", "target": "player",
                                                                "effects": [{"boost": 1}]}]},
     "cards.X.abilities[0].effects[0].boost", "target: player"),
    ("an unknown receiver", _card(target="creature", effects=[{"boost": {"to": "enchanted", "amount": 1}}]),
     "cards.X.effects[0].boost.to", "self, target, targets"),
    ("no amount", _card(target="creature", effects=[{"boost": {"to": "target"}}]),
     "cards.X.effects[0].boost.amount", ""),
    ("a zero boost", _card(target="creature", effects=[{"boost": 0}]), "cards.X.effects[0].boost", ""),
]


@pytest.mark.parametrize("why,card,field,words", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_boost_with_no_creature_to_give_it_to_is_refused(why: str, card: dict[str, Any], field: str,
                                                           words: str) -> None:
    with pytest.raises(FormatError) as err:
        parse_cards({"X": card})
    assert err.value.field == field, (why, str(err.value))
    assert words in str(err.value), (why, str(err.value))


# (why, the card; it reads back as written)
READ_BACK = [
    ("a spell's boost to its target", _card(target="creature", effects=[{"boost": 3}])),
    ("several targets", _card(target="creature", targets=2, effects=[{"boost": {"to": "targets", "amount": 1}}])),
    ("an ability's own", {**BEARS, "abilities": [{"name": "Grow", "cost": 1, "effects": [{"boost": 1}]}]}),
    ("an ability's target's", {**BEARS, "abilities": [{"name": "Grow", "target": "creature",
                                                        "effects": [{"boost": 1}]}]}),
    ("a targeted ability's own", {**BEARS, "abilities": [{"name": "Grow", "target": "creature",
                                                           "effects": [{"tap": "target"},
                                                                       {"boost": {"to": "self", "amount": 1}}]}]}),
    ("a trigger's own", {**BEARS, "triggers": [{"on": "untap", "effects": [{"boost": 1}]}]}),
]


@pytest.mark.parametrize("why,card", READ_BACK, ids=[r[0] for r in READ_BACK])
def test_a_boost_reads_back_as_written(why: str, card: dict[str, Any]) -> None:
    read = parse_cards({"X": card})
    assert parse_cards({"X": card_json(read["X"])}) == read


def _state(stack: list[dict[str, Any]], edition: str) -> dict[str, Any]:
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": "main1", "priority": "Bo",
            "passes": 1, "battlefield": [{"card": "Bear", "controller": "Bo"}, {"card": "Elf", "controller": "Bo"}],
            "stack": stack,
            "cards": {"Bear": BEARS, "Elf": {"type": "creature", "power": 1, "toughness": 1,
                                               "abilities": [{"name": "Elf's ability", "target": "creature",
                                                              "effects": [{"tap": "target"},
                                                                          {"boost": {"to": "self", "amount": 2}}]}]},
                      "Growth": _card(target="creature", effects=[{"boost": 3}])}}


# (why, the stack, the permanent boosted and its power/toughness after, the rules the boost cites)
RESOLVED = [
    ("a spell boosts its target", [{"name": "Growth", "controller": "Bo", "target": "Bear"}], "Bear", (5, 5)),
    ("a targeted ability boosts its own permanent", [{"name": "Elf's ability", "controller": "Bo", "target": "Bear",
                                                      "source": "Elf", "effects": [
                                                          {"tap": "target"}, {"boost": {"to": "self", "amount": 2}}]}],
     "Elf", (3, 3)),
]


@pytest.mark.parametrize("edition,rules", [(EDITION_2026, {"611.2a", "613.4c", "514.2"}),
                                           (EDITION_2010, {"611.2a", "613.3c", "514.2"})])
@pytest.mark.parametrize("why,stack,boosted,pt", RESOLVED, ids=[r[0] for r in RESOLVED])
def test_the_boost_goes_to_the_creature_the_card_names(why: str, stack: list[dict[str, Any]], boosted: str,
                                                       pt: tuple[int, int], edition: str, rules: set[str]) -> None:
    model, s, violations = state_io.state_from_json(_state(stack, edition))
    assert not violations
    assert state_io.state_from_json(state_io.state_json(model, s))[1] == s  # the instructions read back
    passed = engine.apply(model, s, "pass", {"player": "Bo"})
    out = engine.advance(model, passed.after)
    u = out.state.permanent(boosted)
    assert u is not None and (model.power(out.state, u), model.toughness(out.state, u)) == pt
    notes = [n for step in out.steps for n in step.walk() if n.name == "boost"]
    assert [n.params["permanent"] for n in notes] == [boosted]
    assert set(notes[0].rules) == rules


def test_a_spell_on_the_stack_with_its_own_boost_is_refused() -> None:
    stack = [{"name": "Growth", "controller": "Bo", "target": "Bear", "effects": [{"boost": {"to": "self",
                                                                                            "amount": 1}}]}]
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(_state(stack, EDITION_2026))
    assert err.value.field == "stack[0].effects" and "not a permanent" in str(err.value)
