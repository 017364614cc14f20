"""The Riftbound model's input and observations: keywords in any case, every concept of the
state observable by ``expect``, and the combat's designation record kept through the state's
JSON."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from kb.timing import scenario_files
from kb.timing.engine import FormatError
from kb.timing.models.base import Registry
from kb.timing.models.riftbound import cards, scenario, state_io
from kb.timing.models.riftbound.citations import CITATIONS, registry
from kb.timing.scenario import ScenarioError, load, loads, run

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
        cards.parse_cards({"Gust": {"type": "spell", "keywords": ["Reactoin"]}})
    assert err.value.field == "cards.Gust.keywords[0]"
    assert "Reaction" in err.value.message and "'Reactoin'" in err.value.message


def test_expect_observes_every_concept_of_the_state() -> None:
    model, state = _combat_state()
    seen = {key: scenario.observe(model, state, key) for key in scenario.EXPECT_KEYS
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
        loads(COMBAT + "  - expect: {score: {Ann: 1}}\n")
    assert "'score'" in str(err.value) and "did you mean 'scored'?" in str(err.value)


def test_the_combat_record_of_designations_survives_the_state_json() -> None:
    model, state = _combat_state()
    assert state.combat.designated == (("Raider", "attacker"), ("Guard", "defender"), ("Scout", "attacker"))
    data = state_io.state_json(model, state)
    again_model, again, violations = state_io.state_from_json(data)
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
    data = state_io.state_json(model, state)
    data["combat"]["designated"] = designated
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field


# -- the package: checks and transitions registered by decorator, the state's JSON by one codec --
def _registered() -> list[tuple[str, Any]]:
    found = [(name, spec.holds) for name, spec in registry.checks.items()]
    found += [(name, spec.effect) for name, spec in registry.transitions.items() if spec.effect is not None]
    found += [(name, spec.bindings) for name, spec in registry.transitions.items() if spec.bindings is not None]
    return found


@pytest.mark.parametrize("name,fn", _registered(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_check_and_transition_is_a_function_of_the_package(name: str, fn: Any) -> None:
    module = importlib.import_module(fn.__module__)
    assert module.__name__.startswith("kb.timing.models.riftbound."), name
    # the function itself, or (for bindings made per task) the module-level factory that made it
    assert callable(getattr(module, fn.__qualname__.split(".")[0])), name


@pytest.mark.parametrize("register,message", [
    (lambda r: r.step("no-such-step", "a step nobody cites"), "cites nothing"),
    (lambda r: r.check("no-such-check", "a check nobody cites")(lambda m, s, p: True), "check.no-such-check"),
    (lambda r: r.step("draw", "drawn again"), "registered twice"),
])
def test_a_declaration_without_its_citation_or_twice_is_refused(register: Any, message: str) -> None:
    fresh = Registry(CITATIONS)
    fresh.step("draw", "draw")
    with pytest.raises(ValueError, match=message):
        register(fresh)


def test_every_frame_state_reads_back_as_the_same_state() -> None:
    for path in scenario_files("riftbound"):
        result = run(load(path))
        for frame in result.frames:
            model, state, violations = state_io.state_from_json(frame.state)
            assert not violations and state_io.state_json(model, state) == frame.state, (path.stem, frame.step)


@pytest.mark.parametrize("change,field", [
    (lambda d: d["board"][0].update(location="Nowhere"), "board[0].location"),
    (lambda d: d["board"][0].update(damage=-1), "board[0].damage"),
    (lambda d: d["board"][0].update(designation="leader"), "board[0].designation"),
    (lambda d: d["board"][0].update(card="Dragon"), "board[0].card"),
    (lambda d: d["chain"][0].update(kind="instant"), "chain[0].kind"),
    (lambda d: d["chain"][0].update(controller="Zed"), "chain[0].controller"),
    (lambda d: d["chain"][0].update(effects=[{"summon": 1}]), "chain[0].effects[0]"),
    (lambda d: d.update(tasks=["nap"]), "tasks[0]"),
    (lambda d: d.update(scored=[{"player": "Zed", "at": "Temple"}]), "scored[0].player"),
    (lambda d: d.update(facedown=[{"card": "Spare", "player": "Ann", "at": "Moon"}]), "facedown[0].at"),
    (lambda d: d["hands"].update(Zed=[]), "hands"),
    (lambda d: d["drawn"].update(Ann="two"), "drawn.Ann"),
    (lambda d: d.update(passes=10), "passes"),
    (lambda d: d["chain"][0].pop("name"), "chain[0].name"),
    (lambda d: d["board"][0].pop("controller"), "board[0].controller"),
    (lambda d: d["combat"].pop("attacker"), "combat.attacker"),
    (lambda d: d["chain"][0].update(kind=None, card=None, name="Dragon"), None),
])
def test_a_malformed_state_names_the_place_of_its_fault(change: Any, field: str | None) -> None:
    model, state = _combat_state()
    data = state_io.state_json(model, state)
    change(data)
    if field is None:  # a spell named by the item alone, not in the pool: read as it is given
        assert state_io.state_from_json(data)[1].chain[0].kind == "spell"
        return
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field


# -- scenario input as users write it ---------------------------------------------------------
def test_every_key_of_the_state_json_is_expectable() -> None:
    from kb.timing.models.codec import json_keys
    from kb.timing.models.riftbound.state import State
    assert set(json_keys(State)) <= set(scenario.EXPECT_KEYS)


def test_battlefields_by_name_set_up_as_the_list_does() -> None:
    by_name = COMBAT.replace("""battlefields:
  - {name: Temple, controller: Bo, units: {Ann: [Raider], Bo: [Guard]}}
  - {name: Hill, controller: Ann}""", """battlefields:
  Temple: {controller: Bo, units: {Ann: [Raider], Bo: [Guard]}}
  Hill: {controller: Ann}""")
    assert by_name != COMBAT
    listed, named = run(loads(COMBAT)), run(loads(by_name))
    assert named.ok and named.final == listed.final


@pytest.mark.parametrize("old,new,field,hint", [
    ("{name: Hill, controller: Ann}", "{name: Hill, contoller: Ann}", "battlefields.Hill", "'controller'"),
    ("{name: Bo, hand: [Shield]}", "{name: Bo, hnad: [Shield]}", "players.Bo", "'hand'"),
    ("Raider: {type: unit, might: 3}", "Raider: {type: unit, mihgt: 3}", "cards.Raider", "'might'"),
    ("combat: {at: Temple, attacker: Ann}", "combat: {at: Temple, atacker: Ann}", "start.combat", "'attacker'"),
    ("- play: {player: Ann, card: Reinforce}", "- play: {player: Ann, card: Reinforse}", "play.card",
     "'Reinforce'"),
    ("- play: {player: Ann, card: Reinforce}", "- play: {player: Ann, crad: Reinforce}", "play", "'card'"),
    ("- pass: Bo", "- pas: Bo", "pas", "'pass'"),
    ("steps:", "stpes:", "stpes", "'steps'"),
    ("  - pass: Bo\n", "  - pass: Bo\n  - expect: {hand_size: {Ann: 1}}\n", "expect.hand_size", "'hand_sizes'"),
])
def test_an_unknown_name_is_answered_with_the_nearest_known_one(old: str, new: str, field: str, hint: str) -> None:
    text = COMBAT.replace(old, new, 1)
    assert text != COMBAT
    with pytest.raises(ScenarioError) as err:
        run(loads(text))
    assert err.value.field == field and f"did you mean {hint}?" in str(err.value), str(err.value)


def test_a_scenario_expects_might_battlefields_and_the_cards_played_this_turn() -> None:
    text = COMBAT + """  - expect:
      might: {Raider: 3, Guard: 2, Scout: 1}
      battlefields: [{name: Temple, controller: Bo, contested_by: Ann}, {name: Hill}]
      played_this_turn: [{player: Ann, card: Reinforce}]
      next_id: 3
"""
    result = run(loads(text))
    assert result.ok, [(e.step, e.actual) for e in result.expectations if not e.ok] or result.error
    wrong = run(loads(text.replace("Guard: 2", "Guard: 3")))
    assert wrong.expectations[-1].failed == ["might"]
