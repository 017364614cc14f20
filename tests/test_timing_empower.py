"""Riftbound Empower (827) and the Empowered status (441, 828) in the timing model.

A permanent's ``empower: COST`` is "[Cost]: Empower this. Play only if not Empowered."
(827.1.c.1): an activated ability whose source is not its target (827.1.b.1), on the chain like
any activated ability, that Empowers its source as it resolves (827.1.b, 827.2); an Empowered
permanent's Empower is refused (441.1.b), and one Empowered again meanwhile is not Empowered
twice (441.1.c). A trigger ``on: empowered`` is "when I become Empowered" (827.2.a, 441.2.a); one
with ``empowered: true`` is an "[Empowered] >" ability, active only while its permanent is
Empowered (828.1.c, 828.1.d). Each step cites only the rules that apply there, every decision
sequence to a bounded depth keeps what the rules say, and an edition without Empower (1.2, 1.3)
refuses a card with it, saying so, as it refuses any keyword its rules do not have."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from conftest import REPO, corpus_graph, requires_shared
from exploring import explore_checked, with_options
from kb.cli import main
from kb.graph import build_edition
from kb.query import KnowledgeBase, QueryError
from kb.read import read_document
from kb.timing import engine
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, effects, scenario as rift_scenario, state_io
from kb.timing.models.riftbound.cards import KEYWORDS
from kb.timing.models.riftbound.citations import KEYWORD_RULES
from kb.timing.scenario import RunResult, ScenarioError, loads, run
from test_api import CheckedClient
from web import create_app

SCENARIOS = REPO / "tests" / "scenarios" / "riftbound"
ADEPT = {"type": "unit", "might": 2, "empower": 1}
EMPOWER = {"activate": {"player": "Ann", "ability": "Adept's Empower"}}
PASSES = [{"pass": "Ann"}, {"pass": "Bo"}]
DENY = {"type": "spell", "keywords": ["Reaction"], "effects": [{"counter": "target"}]}


def scenario(steps: list[Any], cards: dict[str, Any] | None = None, runes: int = 2, edition: str = "1.4",
             bo_hand: tuple[str, ...] = ()) -> dict[str, Any]:
    """Ann with an Adept at base and ``runes`` runes; Bo with ``bo_hand`` and a rune."""
    return {"name": "Empower.", "ruleset": "riftbound", "edition": edition,
            "players": [{"name": "Ann", "base": ["Adept"], "runes": runes},
                        {"name": "Bo", "hand": list(bo_hand), "runes": 1}],
            "cards": {"Adept": ADEPT, "Deny": DENY, **(cards or {})}, "steps": steps}


def ran(data: dict[str, Any]) -> RunResult:
    return run(loads(yaml.safe_dump(json.loads(json.dumps(data)), sort_keys=False), "empower.yaml"))


def cited(result: RunResult) -> set[str]:
    return {r for f in result.frames for n in f.node.walk() for r in n.rules}


# (what happens, the steps, Adept's card, Adept Empowered at the end, rules cited, rules not cited)
RUNS = [
    ("an Empower ability on the chain has not Empowered its unit yet", [EMPOWER], ADEPT, False,
     {"827.1.c.1", "827.1.b.1"}, {"827.2", "441.1.a"}),
    ("an Empower ability that resolves Empowers its unit", [EMPOWER, *PASSES], ADEPT, True,
     {"827.1.b", "827.2", "441.1.a"}, {"441.1.c", "441.3.a"}),
    ("an Empower ability countered never Empowers its unit",
     [EMPOWER, {"pass": "Ann"}, {"play": {"player": "Bo", "card": "Deny", "target": "Adept's Empower"}},
      {"pass": "Bo"}, {"pass": "Ann"}], ADEPT, False, {"827.1.c.1"}, {"827.2", "441.1.a"}),
    ("an Empower whose cost exhausts its unit exhausts it as it is paid",
     [EMPOWER, *PASSES], {**ADEPT, "empower": {"energy": 1, "exhaust": True}}, True, {"414.5", "827.2"}, set()),
    ("an ability saying Empower me Empowers its unit as an effect, not as the keyword",
     [{"activate": {"player": "Ann", "ability": "Focus"}}, *PASSES],
     {"type": "unit", "abilities": [{"name": "Focus", "cost": 1, "effects": [{"empower": "self"}]}]}, True,
     {"441.1.a", "441.3.a"}, {"827.2", "827.1.c.1"}),
]


@pytest.mark.parametrize("what,steps,adept,empowered,rules,not_rules", RUNS, ids=[r[0] for r in RUNS])
def test_an_empower_ability_empowers_its_source_as_it_resolves(what: str, steps: list[Any], adept: dict[str, Any],
                                                               empowered: bool, rules: set[str],
                                                               not_rules: set[str]) -> None:
    result = ran(scenario(steps, {"Adept": adept}, bo_hand=("Deny",)))
    assert result.error is None, result.error
    assert result.final.permanent("Adept").empowered is empowered
    found = cited(result)
    assert rules <= found and not (not_rules & found), (rules - found, not_rules & found)


# (why the Empower ability is refused, the steps before, Adept's card, Ann's runes, the check, a rule it cites)
REFUSALS = [
    ("its unit is Empowered already", [EMPOWER, *PASSES], ADEPT, 3, "not-empowered", "827.1.c.1"),
    ("its cost cannot be paid", [], {**ADEPT, "empower": 3}, 2, "costs", "357.1"),
    ("its cost exhausts a unit already exhausted", [{"move": {"player": "Ann", "unit": "Adept", "to": "Hill"}}],
     {**ADEPT, "empower": {"energy": 1, "exhaust": True}}, 2, "exhaust-cost", "414.5"),
    ("a chain is open and it has no Reaction", [EMPOWER], ADEPT, 3, "ability-timing", "381"),
]


@pytest.mark.parametrize("why,before,adept,runes,check,rule", REFUSALS, ids=[r[0] for r in REFUSALS])
def test_an_empower_ability_is_refused_when(why: str, before: list[Any], adept: dict[str, Any], runes: int,
                                            check: str, rule: str) -> None:
    data = scenario([*before, {"expect_illegal": {**EMPOWER}}], {"Adept": adept}, runes)
    data["battlefields"] = {"Hill": {"controller": "Ann"}}
    result = ran(data)
    (refused,) = result.expectations
    checks = {f["check"]: f["rules"] for f in refused.forbidden_by}
    assert refused.ok and check in checks and rule in checks[check], checks


def test_a_state_with_an_empowered_unit_reads_back_and_next_refuses_its_empower() -> None:
    frame = ran(scenario([EMPOWER, *PASSES])).frames[-1]
    assert next(u for u in frame.state["board"] if u["name"] == "Adept")["empowered"] is True
    model, s, _ = state_io.state_from_json(frame.state)
    assert s.permanent("Adept").empowered and state_io.state_from_json(state_io.state_json(model, s))[1] == s
    options = [o for o in engine.options(model, s)
               if o.transition.name == "activate" and o.params.get("ability") == "Adept's Empower"]
    assert options and not any(o.legal for o in options)


def test_an_empower_resolving_on_a_unit_empowered_meanwhile_does_nothing_more() -> None:
    """A state pasted with the ability on the chain and its source Empowered already (441.1.c)."""
    data = dict(ran(scenario([EMPOWER])).frames[-1].state)  # finalized, on the chain, Ann holding priority
    data["board"] = [{**u, "empowered": True} if u["name"] == "Adept" else u for u in data["board"]]
    model, s, _ = state_io.state_from_json(data)
    out = engine.next_steps(model, engine.apply(model, s, "pass-priority", {"player": "Ann"}).after)
    out = engine.next_steps(model, engine.apply(model, out.state, "pass-priority", {"player": "Bo"}).after)
    steps = {n.name: n.rules for node in out.steps for n in node.walk()}
    assert steps.get("already-empowered") == ("441.1.c",) and "empowers" not in steps


# -- triggers: "when I become Empowered" and [Empowered] abilities -------------------------------------
SURGE = {"on": "empowered", "name": "Adept's surge", "effects": [{"draw": 1}]}
AWAKEN = {**SURGE, "name": "Adept's awakening", "empowered": True}
STRIDE = {"on": "move", "name": "Adept's stride", "empowered": True, "effects": [{"draw": 1}]}

# (what triggers, Adept's triggers, the steps, the items triggered, rules cited, rules not cited)
TRIGGERS = [
    ("a when-I-become-Empowered ability triggers as its unit becomes Empowered", [SURGE], [EMPOWER, *PASSES],
     ["Adept's surge"], {"827.2.a", "441.2.a"}, {"828.1.d", "828.1.c"}),
    ("an [Empowered] when-I-become-Empowered ability is active and triggers then", [AWAKEN], [EMPOWER, *PASSES],
     ["Adept's awakening"], {"827.2.a", "828.1.d", "828.1.c", "727.1.c.1.a"}, {"727.1.c.1"}),
    ("an [Empowered] move ability of a unit not Empowered does not trigger", [STRIDE],
     [{"move": {"player": "Ann", "unit": "Adept", "to": "Hill"}}], [], set(), {"828.1.c", "727.1.c.1"}),
    ("an [Empowered] move ability of an Empowered unit triggers", [STRIDE],
     [EMPOWER, *PASSES, {"move": {"player": "Ann", "unit": "Adept", "to": "Hill"}}], ["Adept's stride"],
     {"828.1.b.1", "828.1.c", "727.1.c.1"}, {"828.1.d", "727.1.c.1.a"}),
]


@pytest.mark.parametrize("what,triggers,steps,items,rules,not_rules", TRIGGERS, ids=[t[0] for t in TRIGGERS])
def test_empowered_triggers(what: str, triggers: list[Any], steps: list[Any], items: list[str], rules: set[str],
                            not_rules: set[str]) -> None:
    data = scenario(steps, {"Adept": {**ADEPT, "triggers": triggers}})
    data["battlefields"] = {"Hill": {"controller": "Ann"}}
    result = ran(data)
    assert result.error is None, result.error
    triggered = [n.params["item"] for f in result.frames for n in f.node.walk()
                 if n.name in ("triggers", "empowered-triggers")]
    assert triggered == items
    found = cited(result)
    assert rules <= found and not (not_rules & found), (rules - found, not_rules & found)


# -- every decision sequence -------------------------------------------------------------------------
EXPLORED = {"Adept": {**ADEPT, "triggers": [AWAKEN]}, "Deny": DENY}
DEPTH = 7


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """An Empower is activated only while its unit is not Empowered (827.1.c.1); a unit becomes
    Empowered only as its Empower resolves (827.2) and stays so on the board (441.1.a); its
    [Empowered] abilities trigger only while it is Empowered (828.1.c)."""
    before, after = node.before, node.after
    if node.name == "activate" and node.params["ability"] == "Adept's Empower":
        if before.permanent("Adept").empowered:
            yield "an Empowered unit's Empower was activated (827.1.c.1)"
    for u in after.board:
        was = before.permanent(u.name)
        if u.empowered and not (was and was.empowered) and node.name not in ("resolve", "empowers"):
            yield f"{u.name} became Empowered by {node.name}, not as its Empower resolved (827.2)"
        if was and was.empowered and not u.empowered:
            yield f"{u.name} stopped being Empowered on the board (441.1.a)"
    if node.name == "resolve" and any(i.name == "Adept's Empower" and i.id == node.params.get("id")
                                      for i in before.chain):
        if not after.permanent("Adept").empowered:
            yield "an Empower ability resolved without Empowering its source (827.2)"
    if node.name == "empowered-ability-when-empowered" and not after.permanent("Adept").empowered:
        yield "an [Empowered] ability triggered on a unit not Empowered (828.1.c)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """While the Adept is not Empowered and Ann has priority in an open state, its Empower is listed."""
    d = engine.decision(model, s)
    if d is None or d.decider != "Ann" or s.chain or s.pending:
        return
    listed = [o for o in d.options + d.illegal if o.params.get("ability") == "Adept's Empower"]
    if not listed:
        yield "Adept's Empower was not listed to Ann"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = rift_scenario.setup({"players": [{"name": "Ann", "base": ["Adept"], "runes": 2},
                                                    {"name": "Bo", "hand": ["Deny"], "runes": 1}],
                                        "cards": EXPLORED})
    return explore_checked(model, start, DEPTH, with_options(node_violations, option_violations))


def test_every_decision_sequence_keeps_empower(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Empower, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("empower-activated", "empowers",
                                                       "empowered-ability-when-empowered", "counter")))
    assert not wrong, wrong[:5]
    for name in ("empower-activated", "empowers", "empowered-ability-when-empowered", "counter"):
        assert taken[name], f"no decision sequence reached {name}"


def test_a_model_whose_empower_does_not_empower_is_caught(monkeypatch: Any) -> None:
    """Wrong: the Empower ability resolves and its source stays as it was."""
    monkeypatch.setitem(effects.RUNS, "empower", lambda m, s, t, item, e: s)
    assert any("(827.2)" in v for v in _explore()[2])


# -- what a scenario may say ------------------------------------------------------------------------
# (what is wrong, Adept's card, the field the refusal names, words in it)
BAD_CARDS = [
    ("the keyword without its cost", {"type": "unit", "keywords": ["Empower"]}, "cards.Adept.keywords",
     "empower: COST"),
    ("Empower on a spell", {"type": "spell", "empower": 1}, "cards.Adept.empower", "permanents (827.1.a)"),
    ("a cost of another kind", {"type": "unit", "empower": {"energy": 1, "rune": 1}}, "cards.Adept.empower",
     "unknown key 'rune'"),
    ("an empower instruction naming another", {"type": "unit", "abilities": [
        {"name": "Boost", "effects": [{"empower": "Bo"}]}]}, "cards.Adept.abilities[0].effects[0].empower",
     "empower: self"),
    ("an [Empowered] ability that is not true or false", {"type": "unit", "triggers": [{**STRIDE, "empowered": 2}]},
     "cards.Adept.triggers[0].empowered", "empowered is true"),
    ("an [Empowered] ability on a battlefield", {"type": "battlefield", "triggers": [
        {"on": "conquer", "empowered": True, "effects": [{"draw": 1}]}]}, "cards.Adept.triggers[0].empowered",
     "a permanent's"),
    ("the Empowered keyword written alone", {"type": "unit", "keywords": ["Empowered"]}, "cards.Adept.keywords",
     "empowered: true"),
]


@pytest.mark.parametrize("what,card,field,words", BAD_CARDS, ids=[b[0] for b in BAD_CARDS])
def test_a_malformed_empower_is_refused_naming_its_place(what: str, card: dict[str, Any], field: str,
                                                         words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        ran(scenario([{"pass": "Ann"}], {"Adept": card}))
    assert field in str(err.value) and words in str(err.value), str(err.value)


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*empower*.yaml")), ids=lambda p: p.stem)
def test_the_judges_scenario_runs_in_the_cli_quoting_827(excerpt_home: Path, path: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(path)])
    assert out.exit_code == 0, out.output
    assert "Adept becomes Empowered" in out.output and "827.2" in out.output


# -- editions: the keyword's rule carried, or the card refused --------------------------------------
def test_every_keyword_the_model_plays_names_its_rule() -> None:
    assert set(KEYWORD_RULES) == set(KEYWORDS)


@requires_shared
def test_each_keywords_rule_is_its_section_in_1_4() -> None:
    rg = corpus_graph("riftbound", "1.4")
    assert {k: rg.rule(n).title for k, n in KEYWORD_RULES.items()} == {k: k for k in KEYWORD_RULES}


@pytest.fixture(scope="module")
def full_riftbound() -> KnowledgeBase:
    return KnowledgeBase.from_graphs([corpus_graph("riftbound", e) for e in ("1.2", "1.3", "1.4")])


# (edition, Adept's card, what the refusal says; None: it runs)
EDITIONS = [
    ("1.4", ADEPT, None),
    ("1.3", ADEPT, "riftbound 1.3 has no Empower: it came in a later edition (the model plays Empower by rule 827 "
                   "of 1.4)"),
    ("1.2", ADEPT, "riftbound 1.2 has no Empower: it came in a later edition"),
    ("1.2", {"type": "unit", "keywords": ["Backline"]}, "riftbound 1.2 has no Backline"),
    ("1.2", {"type": "unit", "keywords": ["Ambush"]}, "riftbound 1.2 has no Ambush"),
    ("1.2", {"type": "unit", "deathknell": [{"draw": 1}]}, None),
    ("1.3", {"type": "unit", "keywords": ["Backline"]}, None),
]


@requires_shared
@pytest.mark.parametrize("edition,adept,says", EDITIONS, ids=[f"{e} {sorted(a)[0]} {a.get('keywords', '')}"
                                                              for e, a, _ in EDITIONS])
def test_a_card_with_a_keyword_its_edition_lacks_is_refused(full_riftbound: KnowledgeBase, edition: str,
                                                            adept: dict[str, Any], says: str | None) -> None:
    data = scenario([{"pass": "Ann"}], {"Adept": adept}, edition=edition)
    if says is None:
        assert full_riftbound.timing_run(data)["edition"] == edition
        return
    with pytest.raises(QueryError) as err:
        full_riftbound.timing_run(data, "e.yaml")
    assert err.value.status == 422 and says in err.value.message
    assert err.value.detail["field"] == "cards.Adept" and "rules" not in err.value.detail


@requires_shared
def test_the_api_refuses_empower_in_1_2_and_runs_it_in_1_4(full_riftbound: KnowledgeBase) -> None:
    api = CheckedClient(create_app(kb=full_riftbound))  # every answer checked against the OpenAPI description
    refused = api.open("POST", "/api/v1/timing/run", json=scenario([EMPOWER], edition="1.2")).get_json()
    assert refused["error"]["status"] == 422 and "1.2 has no Empower" in refused["error"]["message"]
    state = api.open("POST", "/api/v1/timing/run", json=scenario([EMPOWER])).get_json()["state"]
    assert api.open("POST", "/api/v1/timing/next?edition=1.4", json=state).get_json()["ok"]
    refused = api.open("POST", "/api/v1/timing/next?edition=1.2", json=state).get_json()
    assert refused["error"]["status"] == 422 and "1.2 has no Empower" in refused["error"]["message"]


def test_an_excerpt_without_empower_cannot_tell_and_runs_saying_so() -> None:
    """The 1.3 excerpt lacks 827 as it lacks most rules: the run goes on, each 1.4 rule it cites
    said to have no counterpart there (an excerpt cannot tell a rule removed from one it omits)."""
    graphs = []
    for edition, date, name in (("1.3", "2026-03-30", "core-rules-1.3-excerpt.md"),
                                ("1.4", "2026-07-16", "core-rules-1.4-excerpt.md")):
        result, fmt = read_document(REPO / "rules" / "riftbound" / name)
        graphs.append(build_edition(result, ruleset="riftbound", edition=edition, date=date, partial=True,
                                    source_format=fmt))
    out = KnowledgeBase.from_graphs(graphs).timing_run(scenario([EMPOWER, *PASSES], edition="1.3"))
    assert out["ok"] and "rule 827.2 has no counterpart in 1.3: 1.3 is an excerpt and lacks it" in str(out)
