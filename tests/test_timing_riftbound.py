"""The Riftbound model's input and observations: keywords in any case, every concept of the
state observable by ``expect``, and the combat's designation record kept through the state's
JSON."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing.engine import FormatError
from kb.timing.models import riftbound_io
from kb.timing.scenario import ScenarioError, loads, run

COMBAT = """
name: A combat after one unit arrived.
ruleset: riftbound
edition: "1.4"
players:
  - {name: Ann, base: [Scout], hand: [Reinforce, Spare]}
  - {name: Bo, hand: [Shield]}
battlefields:
  - {name: Temple, controller: Bo, units: {Ann: [Raider], Bo: [Guard]}}
  - {name: Hill, controller: Ann}
start:
  combat: {at: Temple, attacker: Ann}
cards:
  Raider: {type: unit, might: 3}
  Guard: {type: unit, might: 2}
  Scout:
    type: unit
    triggers: [{on: attack, name: Scout's cry, effects: [{draw: 1}]}]
  Reinforce: {type: spell, keywords: [action], effects: [{move: {unit: Scout, to: Temple}}]}
  Spare: {type: spell, keywords: [ACTION]}
  Shield: {type: spell, keywords: [Reaction]}
steps:
  - play: {player: Ann, card: Reinforce}
  - pass: Ann
  - pass: Bo
"""


def _combat_state() -> tuple[Any, Any]:
    result = run(loads(COMBAT))
    assert result.ok, result.error
    return result.model, result.final


def test_keywords_are_read_in_any_case() -> None:
    model, state = _combat_state()
    assert model.cards["Reinforce"].keywords == frozenset({"Action"})
    assert model.cards["Spare"].keywords == frozenset({"Action"})
    # the lower-case Action really is Action: Reinforce was played in the combat showdown
    assert [c for _, c in state.played] == ["Reinforce"]


def test_an_unknown_keyword_names_its_field_and_the_known_ones() -> None:
    with pytest.raises(FormatError) as err:
        riftbound_io.parse_cards({"Gust": {"type": "spell", "keywords": ["Reactoin"]}})
    assert err.value.field == "cards.Gust.keywords[0]"
    assert "Reaction" in err.value.message and "'Reactoin'" in err.value.message


def test_expect_observes_every_concept_of_the_state() -> None:
    model, state = _combat_state()
    seen = {key: riftbound_io.observe(model, state, key) for key in riftbound_io.EXPECT_KEYS
            if key not in ("resolved", "decider")}
    assert seen["designations"] == {"Raider": "attacker", "Guard": "defender", "Scout": "attacker"}
    assert seen["attacker"] == "Ann" and seen["defender"] == "Bo" and seen["combat_step"] == "showdown"
    assert seen["hands"] == {"Ann": ["Spare"], "Bo": ["Shield"]}
    assert seen["hand_sizes"] == {"Ann": 1, "Bo": 1}
    assert seen["contested"] == {"Temple": "Ann", "Hill": None}
    assert seen["damage"] == {"Raider": 0, "Guard": 0, "Scout": 0}
    assert seen["exhausted"] == {"Raider": False, "Guard": False, "Scout": False}
    assert seen["finalized"] == ["Reinforce"] and seen["scored"] == []
    assert seen["opened_by"] == "trigger" and seen["phase"] == "main" and seen["passes"] == 0
    assert seen["chain"] == [{"name": "Scout's cry", "status": "finalized", "controller": "Ann"}]


def test_a_scenario_can_expect_damage_scored_and_hand_sizes() -> None:
    text = COMBAT + """  - pass: Ann
  - pass: Bo
  - expect: {hand_sizes: {Ann: 1}, designations: {Scout: attacker}}
  - pass: Bo
  - pass: Ann
  - expect: {combat: false, trash: [Reinforce, Guard], scored: [{player: Ann, at: Temple}], control: {Temple: Ann}}
"""
    result = run(loads(text))
    assert result.ok, [(e.step, e.actual) for e in result.expectations if not e.ok] or result.error
    # a wrong expectation of a new key fails, naming the key
    wrong = run(loads(text.replace("{player: Ann, at: Temple}", "{player: Bo, at: Temple}")))
    assert not wrong.ok and wrong.expectations[-1].failed == ["scored"]


def test_an_unknown_expect_key_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ScenarioError) as err:
        loads(COMBAT + "  - expect: {points: {Ann: 1}}\n")
    assert "points" in str(err.value) and "scored" in str(err.value)


def test_the_combat_record_of_designations_survives_the_state_json() -> None:
    model, state = _combat_state()
    assert state.combat.designated == (("Raider", "attacker"), ("Guard", "defender"), ("Scout", "attacker"))
    data = riftbound_io.state_json(model, state)
    again_model, again, violations = riftbound_io.state_from_json(data)
    assert not violations and again == state
    assert data["combat"]["designated"][-1] == {"unit": "Scout", "designation": "attacker"}


@pytest.mark.parametrize("designated,field", [
    ([{"unit": "Raider", "designation": "leader"}], "combat.designated[0].designation"),
    ([{"unit": "Raider"}], "combat.designated[0].designation"),
    ([{"unit": "Raider", "designation": "attacker", "when": 1}], "combat.designated[0]"),
    ("Raider", "combat.designated"),
])
def test_a_malformed_designation_record_names_its_field(designated: Any, field: str) -> None:
    model, state = _combat_state()
    data = riftbound_io.state_json(model, state)
    data["combat"]["designated"] = designated
    with pytest.raises(FormatError) as err:
        riftbound_io.state_from_json(data)
    assert err.value.field == field
