"""Riftbound XP (728–733), Hunt (823) and Level (824) in the timing model.

Each player's XP is their own (732), marked in the state (``xp``), gained by ``{gain_xp: N}``
(730.1) and spent by ``{spend_xp: N}`` (730.2). ``Hunt X`` is "When I Conquer or Hold, my
controller gains X XP" (823.1.c.1): triggered abilities on the chain with the conquer's or hold's
other effects (471.2). A Level ability is Active while its controller has its XP (824.1.c) and
Inactive as soon as they have less (824.1.d): a passive one gives Might and Ganking, a triggered
one is evaluated only while Active (727.1.c.1). Each step cites only the rules that apply
there, every decision sequence to a bounded depth keeps what the rules say, and an edition
without Hunt or Level (1.2) refuses a card with it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO, corpus_graph, requires_shared
from exploring import explore_checked
from kb.cli import main
from kb.query import KnowledgeBase, QueryError
from kb.timing import engine
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models.riftbound import Riftbound, effects, scenario as rift_scenario, state_io
from kb.timing.models.riftbound import xp as xp_module
from kb.timing.models.riftbound.cards import card_json, parse_cards
from kb.timing.scenario import RunResult, ScenarioError, loads, run
from test_api import CheckedClient
from web import create_app

SCENARIOS = REPO / "kb" / "timing" / "scenarios" / "riftbound"
PROWLER = {"type": "unit", "might": 2, "keywords": ["Hunt"]}
GUST = {"type": "unit", "might": 2, "keywords": ["Hunt"], "level": [{"xp": 3, "might": 1, "keywords": ["Ganking"]}]}
RALLY = {"on": "conquer", "level": 2, "name": "Prowler's rally", "effects": [{"draw": 1}]}
TO_HILL = {"move": {"player": "Ann", "unit": "Prowler", "to": "Hill"}}
PASSES = [{"pass": "Ann"}, {"pass": "Bo"}]
CONQUER = [TO_HILL, *PASSES]  # the showdown at Hill passes: Ann conquers it
CONQUER_AND_RESOLVE = [*CONQUER, *PASSES]  # and the conquer's abilities resolve


def scenario(steps: list[Any], prowler: dict[str, Any] | None = None, xp: int = 0, edition: str = "1.4",
             cards: dict[str, Any] | None = None, hand: tuple[str, ...] = ()) -> dict[str, Any]:
    """Ann with a Prowler at base, ``xp`` XP and ``hand``; Bo; Hill and Dale, nobody's."""
    return {"name": "Hunt.", "ruleset": "riftbound", "edition": edition,
            "players": [{"name": "Ann", "base": ["Prowler"], "xp": xp, "hand": list(hand)}, {"name": "Bo"}],
            "battlefields": ["Hill", "Dale"],
            "cards": {"Prowler": prowler or PROWLER, **(cards or {})}, "steps": steps}


def ran(data: dict[str, Any]) -> RunResult:
    return run(loads(yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False), "hunt.yaml"))


def cited(result: RunResult) -> set[str]:
    return {r for f in result.frames for n in f.node.walk() for r in n.rules}


def steps_named(result: RunResult) -> list[str]:
    return [n.name for f in result.frames for n in f.node.walk()]


SPELLS = {"Lesson": {"type": "spell", "keywords": ["Action"], "effects": [{"gain_xp": 2}]},
          "Tithe": {"type": "spell", "keywords": ["Action"], "effects": [{"spend_xp": 2}, {"draw": 1}]}}
PLAY_LESSON = [{"play": {"player": "Ann", "card": "Lesson"}}, *PASSES]
PLAY_TITHE = [{"play": {"player": "Ann", "card": "Tithe"}}, *PASSES]

# (what happens, Prowler's card, Ann's XP before, the steps, Ann's XP after, rules cited, rules not cited)
RUNS = [
    ("Hunt's ability on the chain has gained nothing yet", PROWLER, 0, CONQUER, 0,
     {"823.1.b", "823.1.c.1", "471.2"}, {"730.1"}),
    ("Hunt resolving gains its controller 1 XP", PROWLER, 0, CONQUER_AND_RESOLVE, 1, {"730.1", "729"}, {"730.2"}),
    ("Hunt 3 gains its Hunt Value", {**PROWLER, "keywords": ["Hunt 3"]}, 4, CONQUER_AND_RESOLVE, 7,
     {"730.1", "823.1.c.3", "733"}, set()),
    ("a unit without Hunt conquering gains no XP", {"type": "unit", "might": 2}, 0, CONQUER, 0, set(),
     {"730.1", "823.1.c.1"}),
    ("a spell saying gain 2 XP gains them", PROWLER, 1, PLAY_LESSON, 3, {"730.1"}, {"823.1.c.1"}),
    ("a spell saying spend 2 XP spends them", PROWLER, 3, PLAY_TITHE, 1, {"730.2"}, {"359.3.e.6"}),
    ("2 XP cannot be spent with 1: the instruction is ignored", PROWLER, 1, PLAY_TITHE, 1, {"730.2", "359.3.e.6"},
     set()),
    ("a Level ability crossed by a gain turns Active", GUST, 2, CONQUER_AND_RESOLVE, 3,
     {"824.1.c", "824.1.b.1", "727.1.c.2"}, {"824.1.d"}),
    ("a gain that stays below the Level does not turn it Active", GUST, 0, CONQUER_AND_RESOLVE, 1, set(),
     {"824.1.c", "824.1.d"}),
    ("a gain above a Level already Active says nothing of it", GUST, 3, CONQUER_AND_RESOLVE, 4, set(),
     {"824.1.c", "824.1.d"}),
    ("spending below the Level turns it Inactive", GUST, 3, PLAY_TITHE, 1, {"824.1.d", "721.2"}, {"824.1.c"}),
    ("a Level 2 trigger is evaluated when its controller has 2 XP", {**PROWLER, "triggers": [RALLY]}, 2, CONQUER,
     2, {"727.1.c.1", "824.1.c"}, set()),
    ("a Level 2 trigger is not evaluated with 1 XP", {**PROWLER, "triggers": [RALLY]}, 1, CONQUER, 1, set(),
     {"727.1.c.1"}),
]


@pytest.mark.parametrize("what,prowler,before,steps,after,rules,not_rules", RUNS, ids=[r[0] for r in RUNS])
def test_xp_is_gained_and_spent_as_the_rules_say(what: str, prowler: dict[str, Any], before: int,
                                                 steps: list[Any], after: int, rules: set[str],
                                                 not_rules: set[str]) -> None:
    result = ran(scenario(steps, prowler, before, cards=SPELLS, hand=("Lesson", "Tithe")))
    assert result.error is None, result.error
    assert result.final.xp_of("Ann") == after and result.final.xp_of("Bo") == 0
    found = cited(result)
    assert rules <= found and not (not_rules & found), (rules - found, not_rules & found)


# (what a Level unit has, Ann's XP, its Might, whether it may move from Hill to Dale)
LEVEL_STATES = [
    ("below its Level: printed Might, no Ganking", 2, 2, False),
    ("at its Level: +1 Might and Ganking", 3, 3, True),
    ("above its Level: the same", 9, 3, True),
]


@pytest.mark.parametrize("what,xp,might,ganks", LEVEL_STATES, ids=[c[0] for c in LEVEL_STATES])
def test_a_passive_level_ability_gives_might_and_ganking_while_active(what: str, xp: int, might: int,
                                                                      ganks: bool) -> None:
    """The unit at Hill, which Ann controls: its Standard Move to Dale is listed, and legal, only
    with Ganking (810.1.b)."""
    data = scenario([{"expect": {"might": {"Prowler": might}}}], GUST, xp)
    data["players"][0]["base"] = []
    data["battlefields"] = [{"name": "Hill", "controller": "Ann", "units": {"Ann": ["Prowler"]}}, "Dale"]
    result = ran(data)
    assert result.error is None and all(e.ok for e in result.expectations), result.expectations
    to_dale = [o for o in engine.options(result.model, result.final) if o.transition.name == "standard-move"
               and o.params.get("unit") == "Prowler" and o.params.get("to") == "Dale"]
    assert any(o.legal for o in to_dale) is ganks


def test_a_level_trigger_and_hunt_of_one_conquer_go_on_the_chain_together() -> None:
    result = ran(scenario(CONQUER, {**PROWLER, "triggers": [RALLY]}, 2))
    assert [i.name for i in result.final.chain] == ["Prowler's rally", "Prowler's Hunt"]
    assert "level-ability-triggers" in steps_named(result) and "hunt-triggers" in steps_named(result)


def test_in_2v2_xp_is_not_shared_with_a_teammate() -> None:
    data = scenario(CONQUER_AND_RESOLVE)
    data["players"] = [{"name": "Ann", "base": ["Prowler"], "team": "red"}, {"name": "Bo", "team": "blue"},
                       {"name": "Cy", "team": "red", "base": ["Gust"]}, {"name": "Dee", "team": "blue"}]
    data["cards"]["Gust"] = GUST
    data["steps"] = [TO_HILL, *(({"pass": p} for p in ("Ann", "Bo", "Cy", "Dee"))),
                     *({"pass": p} for p in ("Ann", "Bo", "Cy", "Dee"))]
    result = ran(data)
    assert result.error is None, result.error
    assert dict(result.final.experience) == {"Ann": 1}
    assert "732" in cited(result) and "824.1.c" not in cited(result)


# -- the state's JSON ---------------------------------------------------------------------------------
def test_a_state_with_xp_reads_back_and_its_level_ability_stays_active() -> None:
    frame = ran(scenario(CONQUER_AND_RESOLVE, GUST, 2)).frames[-1]
    assert frame.state["xp"] == {"Ann": 3}
    model, s, violations = state_io.state_from_json(frame.state)
    assert not violations and s.xp_of("Ann") == 3 and model.might(s.permanent("Prowler"), s) == 3
    assert state_io.state_from_json(state_io.state_json(model, s))[1] == s


# (what is wrong, the state's xp, the field named, words in the refusal)
BAD_XP = [
    ("a negative XP", {"Ann": -1}, "xp.Ann", "whole number"),
    ("an unknown player", {"Cy": 2}, "xp", "Cy"),
    ("not a mapping", [2], "xp", "mapping"),
]


@pytest.mark.parametrize("what,xp,field,words", BAD_XP, ids=[b[0] for b in BAD_XP])
def test_a_state_with_bad_xp_is_refused_naming_its_place(what: str, xp: Any, field: str, words: str) -> None:
    with pytest.raises(FormatError) as err:
        state_io.state_from_json({"players": ["Ann", "Bo"], "xp": xp})
    assert err.value.field == field and words in str(err.value), (err.value.field, str(err.value))


# -- every decision sequence -------------------------------------------------------------------------
EXPLORED = {"Prowler": {**GUST, "triggers": [RALLY]}, **SPELLS}
DEPTH = 8


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """XP changes only as an instruction gains or spends it, by what the trace says (730.1,
    730.2), never below 0; a Level trigger goes on the chain only while its controller has its
    XP (727.1.c.1); the unit's Might is its Level's while Active (824.1.c) and printed otherwise
    (824.1.d)."""
    before, after = node.before, node.after
    if node.transition.kind != "step":  # a whole transition: its XP changes are its steps'
        said = {p: 0 for p in after.players}
        for n in node.walk():
            if n.name in ("gains-xp", "spends-xp"):
                said[n.params["player"]] += n.params["n"] if n.name == "gains-xp" else -n.params["n"]
        for p in after.players:
            if after.xp_of(p) - before.xp_of(p) != said[p]:
                yield f"{p}'s XP went {before.xp_of(p)} -> {after.xp_of(p)}, the trace saying {said[p]:+d} (730)"
            if after.xp_of(p) < 0:
                yield f"{p} has negative XP"
    if node.name == "conquer-triggers" and node.params["item"] == "Prowler's rally" and after.xp_of("Ann") < 2:
        yield "a Level 2 ability triggered with less than 2 XP (727.1.c.1)"
    u = after.permanent("Prowler")
    if u is not None and model.might(u, after) != 2 + u.might_bonus + (1 if after.xp_of("Ann") >= 3 else 0):
        yield "Prowler's Might is not its Level's while Active and printed otherwise (824.1.c, 824.1.d)"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = rift_scenario.setup({"players": [{"name": "Ann", "base": ["Prowler"], "xp": 2,
                                                     "hand": ["Lesson", "Tithe"]}, {"name": "Bo"}],
                                        "battlefields": ["Hill", "Dale"], "cards": EXPLORED})
    return explore_checked(model, start, DEPTH, node_violations)


def test_every_decision_sequence_keeps_xp_and_level(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Hunt, Level and XP, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("hunt-triggers", "gains-xp", "spends-xp", "level-active",
                                                       "level-inactive", "level-ability-triggers")))
    assert not wrong, wrong[:5]
    for name in ("hunt-triggers", "gains-xp", "spends-xp", "level-active", "level-inactive"):
        assert taken[name], f"no decision sequence reached {name}"


def test_a_model_whose_hunt_gains_nothing_is_caught(monkeypatch: Any) -> None:
    """Wrong: "gain N XP" resolves and the XP stays as it was, the trace saying it rose."""
    def wrong(m: Any, s: Any, t: Any, item: Any, e: Any) -> Any:
        t.note("gains-xp", s, {"player": item.controller, "n": e[1], "xp": s.xp_of(item.controller)})
        return s
    monkeypatch.setitem(effects.RUNS, "gain_xp", wrong)
    with pytest.raises(engine.InvariantBroken, match="730.1"):  # the model's own invariant, before this test's
        _explore()


# -- what a scenario may say ------------------------------------------------------------------------
# (what is wrong, Prowler's card, the field the refusal names, words in it)
BAD_CARDS = [
    ("Hunt on gear", {"type": "gear", "keywords": ["Hunt"]}, "cards.Prowler.keywords", "units (823.1.a)"),
    ("Hunt with a value not a number", {"type": "unit", "keywords": ["Hunt x"]}, "cards.Prowler.keywords[0]",
     "Hunt's value is a whole number"),
    ("the Level keyword written alone", {"type": "unit", "keywords": ["Level"]}, "cards.Prowler.keywords",
     "level: [{xp: N"),
    ("a Level ability without its XP", {"type": "unit", "level": [{"might": 1}]}, "cards.Prowler.level[0].xp",
     "xp: N"),
    ("a Level ability giving nothing", {"type": "unit", "level": [{"xp": 2}]}, "cards.Prowler.level[0]",
     "Might or keywords"),
    ("a Level ability giving a keyword the model does not read from it",
     {"type": "unit", "level": [{"xp": 2, "keywords": ["Tank"]}]}, "cards.Prowler.level[0].keywords", "not Tank"),
    ("a passive Level ability on a spell", {"type": "spell", "level": [{"xp": 2, "might": 1}]},
     "cards.Prowler.level[0]", "a unit's"),
    ("a Level trigger on a battlefield", {"type": "battlefield", "triggers": [{**RALLY, "level": 2}]},
     "cards.Prowler.triggers[0].level", "a permanent's"),
    ("a Level of 0 XP", {"type": "unit", "triggers": [{**RALLY, "level": 0}]}, "cards.Prowler.triggers[0].level",
     "whole number"),
    ("gaining 0 XP", {"type": "unit", "triggers": [{"on": "move", "effects": [{"gain_xp": 0}]}]},
     "cards.Prowler.triggers[0].effects[0].gain_xp", "whole number"),
]


@pytest.mark.parametrize("what,card,field,words", BAD_CARDS, ids=[b[0] for b in BAD_CARDS])
def test_a_malformed_hunt_or_level_is_refused_naming_its_place(what: str, card: dict[str, Any], field: str,
                                                               words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        ran(scenario([{"pass": "Ann"}], card))
    assert field in str(err.value) and words in str(err.value), str(err.value)


def test_a_scenario_players_xp_is_a_whole_number() -> None:
    data = scenario([{"pass": "Ann"}])
    data["players"][0]["xp"] = "lots"
    with pytest.raises(ScenarioError) as err:
        ran(data)
    assert "players.Ann.xp" in str(err.value)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*hunt*.yaml")), ids=lambda p: p.stem)
def test_a_worked_hunt_scenario_runs_in_the_cli_quoting_823(excerpt_home: Path, path: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(path)])
    assert out.exit_code == 0, out.output
    assert "823.1.c.1" in out.output and "XP" in out.output


# -- editions: Hunt and Level came in 1.3 -------------------------------------------------------------
@pytest.fixture(scope="module")
def full_riftbound() -> KnowledgeBase:
    return KnowledgeBase.from_graphs([corpus_graph("riftbound", e) for e in ("1.2", "1.3", "1.4")])


LEVELLED = {"type": "unit", "triggers": [RALLY]}
# The sections of XP, Inactive, Dependent Keywords, Hunt and Level: 1.3 has each rule of them the model cites.
XP_SECTIONS = {"721", "727", "729", "730", "731", "732", "733", "823", "824"}
# (edition, Prowler's card, what the refusal says; None: it runs)
EDITIONS = [
    ("1.4", PROWLER, None),
    ("1.3", PROWLER, None),
    ("1.3", LEVELLED, None),
    ("1.3", GUST, None),
    ("1.2", PROWLER, "riftbound 1.2 has no Hunt: it came in a later edition (the model plays Hunt by rule 823 of "
                     "1.4)"),
    ("1.2", LEVELLED, "riftbound 1.2 has no Level: it came in a later edition (the model plays Level by rule 824 "
                      "of 1.4)"),
    ("1.2", {"type": "unit", "triggers": [{"on": "conquer", "effects": [{"gain_xp": 1}]}]},
     "riftbound 1.2 has no XP: it came in a later edition (the model plays XP by rule 729 of 1.4)"),
    ("1.3", {"type": "unit", "triggers": [{"on": "conquer", "effects": [{"gain_xp": 1}]}]}, None),
]


@requires_shared
@pytest.mark.parametrize("edition,prowler,says", EDITIONS, ids=[f"{e} {sorted(p)}" for e, p, _ in EDITIONS])
def test_a_card_with_hunt_or_level_is_refused_where_its_edition_lacks_it(full_riftbound: KnowledgeBase, edition: str,
                                                                        prowler: dict[str, Any],
                                                                        says: str | None) -> None:
    data = scenario(CONQUER_AND_RESOLVE, prowler, 2, edition=edition)
    if says is None:
        out = full_riftbound.timing_run(data)
        assert out["edition"] == edition and out["ok"], out.get("error")
        missing = set(re.findall(r"rule ([0-9.]+) has no counterpart", json.dumps(out)))
        assert not {r for r in missing if r.split(".")[0] in XP_SECTIONS}, missing
        return
    with pytest.raises(QueryError) as err:
        full_riftbound.timing_run(data, "e.yaml")
    assert err.value.status == 422 and says in err.value.message, err.value.message
    assert err.value.detail["field"] == "cards.Prowler" and "rules" not in err.value.detail


@requires_shared
def test_the_api_refuses_hunt_in_1_2_and_runs_it_in_1_3(full_riftbound: KnowledgeBase) -> None:
    api = CheckedClient(create_app(kb=full_riftbound))  # every answer checked against the OpenAPI description
    refused = api.open("POST", "/api/v1/timing/run", json=scenario(CONQUER, edition="1.2")).get_json()
    assert refused["error"]["status"] == 422 and "1.2 has no Hunt" in refused["error"]["message"]
    state = api.open("POST", "/api/v1/timing/run", json=scenario(CONQUER, edition="1.3")).get_json()["state"]
    assert state["chain"][0]["name"] == "Prowler's Hunt"
    assert api.open("POST", "/api/v1/timing/next?edition=1.3", json=state).get_json()["ok"]
    refused = api.open("POST", "/api/v1/timing/next?edition=1.2", json=state).get_json()
    assert refused["error"]["status"] == 422 and "1.2 has no Hunt" in refused["error"]["message"]


# (what is wrong, the gain_xp instruction the model has instead)
WRONG_GAINS = [
    ("the trace says gained, the XP stays", lambda m, s, t, item, e: (t.note("gains-xp", s, {
        "player": item.controller, "n": e[1], "xp": s.xp_of(item.controller)}), s)[1]),
    ("twice the XP the trace says is gained", lambda m, s, t, item, e: (t.note("gains-xp", s, {
        "player": item.controller, "n": e[1], "xp": e[1]}), xp_module.with_xp(s, item.controller,
                                                                               s.xp_of(item.controller) + 2 * e[1]))[1]),
    ("the XP goes to the opponent", lambda m, s, t, item, e: (t.note("gains-xp", s, {
        "player": item.controller, "n": e[1], "xp": e[1]}), xp_module.with_xp(s, "Bo", s.xp_of("Bo") + e[1]))[1]),
]


@pytest.mark.parametrize("what,wrong", WRONG_GAINS, ids=[w[0] for w in WRONG_GAINS])
def test_the_models_own_invariant_catches_xp_not_gained_as_the_trace_says(monkeypatch: Any, what: str,
                                                                         wrong: Any) -> None:
    monkeypatch.setitem(effects.RUNS, "gain_xp", wrong)
    result = ran(scenario(CONQUER_AND_RESOLVE))
    assert result.error is not None and result.error["type"] == "InvariantBroken", result.error
    assert "730.1" in result.error["rules"]


# -- activated Level abilities (727.1.c.3) -----------------------------------------------------------
INSIGHT = {"type": "unit", "abilities": [{"name": "Sage's insight", "level": 2, "cost": 1, "effects": [{"draw": 1}]}]}
ACTIVATE = {"activate": {"player": "Ann", "ability": "Sage's insight"}}

# (Ann's XP, whether the ability may be activated, the check refusing it)
ACTIVATIONS = [(2, True, None), (5, True, None), (1, False, "level-active"), (0, False, "level-active")]


@pytest.mark.parametrize("xp,legal,check", ACTIVATIONS, ids=[f"{a[0]} XP" for a in ACTIVATIONS])
def test_an_activated_level_ability_is_activated_only_while_active(xp: int, legal: bool, check: str | None) -> None:
    data = scenario([ACTIVATE if legal else {"expect_illegal": ACTIVATE}], cards={"Sage": INSIGHT})
    data["players"][0].update(base=["Sage"], xp=xp, runes=2)
    result = ran(data)
    assert result.error is None, result.error
    if legal:
        assert [i.name for i in result.final.chain] == ["Sage's insight"] and "727.1.c.3" in cited(result)
    else:
        (refused,) = result.expectations
        assert refused.ok and [f["check"] for f in refused.forbidden_by] == [check]


def test_a_card_with_an_activated_level_ability_has_level_and_writes_it_back() -> None:
    card = parse_cards({"Sage": INSIGHT})["Sage"]
    assert "Level" in card.keywords and card.level_thresholds() == (2,)
    assert parse_cards({"Sage": card_json(card)})["Sage"] == card
