"""The timing model: every scenario file, ``next`` on states, refused states, malformed
scenarios, the CLI and the facade."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from kb.cli import main
from kb.graph import RuleGraph, build_edition
from kb.query import KnowledgeBase, QueryError
from kb.read import read_document
from kb.timing import list_scenarios, load_scenario, scenario_files
from kb.timing.models import get_model
from kb.timing.scenario import ScenarioError, load, loads, run

from conftest import REPO, corpus_graph, requires_shared
from test_timing_check import NOT_MODELED

TEST_SCENARIOS = REPO / "tests" / "scenarios"
ALL_SCENARIOS = scenario_files() + sorted(TEST_SCENARIOS.glob("*/*.yaml"))


@pytest.fixture(scope="session")
def excerpt_graph() -> RuleGraph:
    path = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"
    result, fmt = read_document(path)
    return build_edition(result, ruleset="riftbound", edition="1.4", date="2026-07-16", partial=True,
                         source=str(path), source_format=fmt)


@pytest.fixture(scope="session")
def kb(excerpt_graph: RuleGraph) -> KnowledgeBase:
    return KnowledgeBase.from_graphs([excerpt_graph])


# -- every scenario file ----------------------------------------------------------------------
@pytest.mark.parametrize("path", ALL_SCENARIOS, ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_scenario(path: Path) -> None:
    result = run(load(path))
    failures = [f"step {e.step}: expected {e.expected}, got {e.actual}" for e in result.expectations if not e.ok]
    assert result.error is None, result.error
    assert not failures, "\n".join(failures)
    assert result.expectations, "a scenario checks something"
    # every frame's state is a valid input for `next` and reads back to the same state
    for frame in result.frames:
        model, state, violations = get_model(result.scenario.ruleset).state_from_json(frame.state, None)
        assert not violations and not model.validate(state)
        assert state == frame.node.after


def test_lessons_are_packaged_and_listed() -> None:
    listed = list_scenarios("riftbound")
    names = {s["name"] for s in listed}
    for lesson in ("000", "001", "003"):
        assert any(n.startswith(lesson) for n in names), f"no worked scenario for lesson {lesson}"
    assert all(s["title"].endswith(".") for s in listed)
    first = listed[0]["name"]
    assert load_scenario(first)["name"] == listed[0]["title"]
    assert load_scenario(f"riftbound/{first}")["ruleset"] == "riftbound"
    with pytest.raises(KeyError, match="available"):
        load_scenario("no-such-scenario")


def test_frames_explain_with_rule_text(kb: KnowledgeBase) -> None:
    out = kb.timing_run(load_scenario("000-your-own-spell-starts-the-chain"))
    assert out["ok"] is True
    frame = next(f for f in out["frames"] if f["event"] == "finalize")
    assert set(frame) >= {"event", "step", "rules", "why", "state"}
    assert set(frame["state"]) >= {"turn_state", "priority", "focus", "chain"}
    assert frame["state"]["chain"][0].keys() >= {"name", "controller", "status"}
    assert "337.4" in frame["rules"]
    assert "Finalizing an item to the chain does not pass Priority." in frame["why"]
    assert {"ok", "expected", "actual"} <= set(out["expectations"][0])


def test_a_rule_the_loaded_corpus_lacks_is_said_plainly(excerpt_graph: RuleGraph) -> None:
    result, _ = read_document(REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md")
    result.rules = [r for r in result.rules if ".".join(r.number) != "812.1.c"]
    smaller = build_edition(result, ruleset="riftbound", edition="1.4", partial=True)
    out = KnowledgeBase.from_graphs([smaller]).timing_run(load_scenario("000-your-own-spell-starts-the-chain"))
    frame = next(f for f in out["frames"] if f["event"] == "finalize")
    # 812.1.c is missing: the explanation says so instead of paraphrasing
    assert "812.1.c  (not in the loaded corpus" in frame["why"]


@requires_shared
def test_explanations_quote_the_full_document() -> None:
    full = KnowledgeBase.from_graphs([corpus_graph("riftbound", "1.4")])
    out = full.timing_run(load_scenario("001-a-countered-spell-counts-for-legion-but-not-play-triggers"))
    why = "\n".join(f["why"] for f in out["frames"])
    assert "not in the loaded corpus" not in why
    assert "As long as a card different than the one with the Legion ability has been Finalized" in why


# -- next ----------------------------------------------------------------------------------
def _state(**fields: Any) -> dict[str, Any]:
    return {"players": ["Ann", "Bo"], **fields}


CARDS = {"Fireball": {"type": "spell"}, "Spark": {"type": "spell", "keywords": ["Reaction"]},
         "Gust": {"type": "spell", "keywords": ["Action"]},
         "Lurker": {"type": "unit", "keywords": ["Ambush"]}}

# (case, state, automatic steps taken, decider or None, an option label, an illegal label)
NEXT_CASES = [
    ("priority returns after finalizing",
     _state(priority="Ann", chain=[{"name": "Fireball", "controller": "Ann", "status": "pending"}], cards=CARDS),
     ["finalize"], "Ann", "Ann passes priority.", "Bo plays Spark."),
    ("all passed: the newest resolves, then the turn player",
     _state(priority="Ann", passes=2, chain=[{"name": "Fireball", "controller": "Ann"},
                                             {"name": "Spark", "controller": "Bo"}], cards=CARDS),
     ["resolve"], "Ann", "Ann plays Spark.", "Ann plays Fireball."),
    ("the last item resolves: neutral open",
     _state(priority="Ann", passes=2, chain=[{"name": "Fireball", "controller": "Ann"}]),
     ["resolve", "receive-priority"], "Ann", "Ann ends the Main Phase.", None),
    ("showdown open: only the focus holder acts",
     _state(turn_state="showdown-open", focus="Bo", priority="Bo", cards=CARDS),
     [], "Bo", "Bo plays Gust.", "Bo plays Fireball."),
    ("the Ambush unit's battlefield emptied before finalization",
     _state(priority="Bo", battlefields=[{"name": "Temple"}], cards=CARDS,
            chain=[{"name": "Fireball", "controller": "Ann"},
                   {"name": "Lurker", "controller": "Bo", "status": "pending", "kind": "unit", "to": "Temple",
                    "ambush": True}]),
     ["play-undone"], "Ann", "Ann passes priority.", None),
    ("an optional trigger waits for its controller",
     _state(priority="Ann", chain=[{"name": "Yeti's greeting", "controller": "Ann", "status": "pending",
                                    "kind": "trigger", "optional": True, "effects": [{"draw": 1}]}]),
     [], "Ann", "Ann declines Yeti's greeting.", "Bo declines Yeti's greeting."),
]


@pytest.mark.parametrize("case,state,steps,decider,legal,illegal", NEXT_CASES, ids=[c[0] for c in NEXT_CASES])
def test_next(kb: KnowledgeBase, case: str, state: dict, steps: list[str], decider: str | None,
              legal: str, illegal: str | None) -> None:
    out = kb.timing_next(state)
    assert [f["event"] for f in out["steps"]] == steps
    assert all(f["why"] and f["rules"] for f in out["steps"])
    d = out["decision"]
    assert d["decider"] == decider
    labels = [o["label"] for o in d["options"]]
    assert legal in labels
    for o in d["options"]:
        assert o["rules"] and "forbidden_by" not in o
    if illegal:
        found = [o for o in d["illegal"] if o["label"] == illegal]
        assert found, [o["label"] for o in d["illegal"]]
        assert found[0]["forbidden_by"][0]["rules"]
    # the answer's state is itself a valid input
    again = kb.timing_next(out["state"])
    assert again["steps"] == [] and again["decision"]["decider"] == decider


def test_next_reaches_the_end_of_the_main_phase(kb: KnowledgeBase) -> None:
    out = kb.timing_next(_state(phase="ending"))
    assert out["decision"] is None
    assert "316.9" in out["end"]["rules"]


# (case, state, a rule the refusal cites)
INVALID_STATES = [
    ("two players with priority", _state(priority=["Ann", "Bo"]), "312"),
    ("focus outside a showdown", _state(turn_state="neutral-open", focus="Ann", priority="Ann"), "313.5"),
    ("a finalized item above a pending one",
     _state(priority="Ann", chain=[{"name": "A", "status": "pending"}, {"name": "B", "status": "finalized"}]),
     "337.1.b"),
    ("a finalized unit still on the chain",
     _state(priority="Ann", chain=[{"name": "Yeti", "kind": "unit", "status": "finalized"}]), "337.2"),
    ("closed without a chain", _state(turn_state="neutral-closed", priority="Ann"), "309.1"),
    ("open with a chain", _state(turn_state="neutral-open", priority="Ann", chain=["Fireball"]), "309.2"),
    ("priority apart from focus in a showdown",
     _state(turn_state="showdown-open", focus="Ann", priority="Bo"), "335.1"),
    ("the opponent holds priority in the turn player's open state", _state(priority="Bo"), "312.2.a"),
    ("more passes than players", _state(priority="Ann", passes=3, chain=["Fireball"]), "339.1"),
    ("a finalized chain and nobody with priority", _state(chain=["Fireball"]), "340.4"),
    ("a showdown nobody has focus in", _state(turn_state="showdown-open"), "345"),
]


@pytest.mark.parametrize("case,state,rule", INVALID_STATES, ids=[c[0] for c in INVALID_STATES])
def test_invalid_states_are_refused_with_the_rule(kb: KnowledgeBase, case: str, state: dict, rule: str) -> None:
    with pytest.raises(QueryError) as err:
        kb.timing_next(state)
    assert err.value.status == 422
    cited = [r for v in err.value.detail["violations"] for r in v["rules"]]
    assert rule in cited, cited
    quotes = [q for v in err.value.detail["violations"] for q in v["quotes"]]
    assert all(q["text"] or q["missing"] for q in quotes)


@pytest.mark.parametrize("state,field", [
    ([], ""), (_state(players=["Ann"]), "players"), (_state(priority="Cy"), "priority"),
    (_state(chain=[{"name": "X", "status": "done"}]), "chain[0].status"), (_state(tasks=["nap"]), "tasks[0]"),
    (_state(bogus=1), "state"),
])
def test_malformed_states_are_400(kb: KnowledgeBase, state: Any, field: str) -> None:
    with pytest.raises(QueryError) as err:
        kb.timing_next(state)
    assert err.value.status == 400
    assert err.value.detail["field"] == field


# -- malformed scenarios ----------------------------------------------------------------------
GOOD = {"name": "A scenario.", "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
        "cards": {"Fireball": {"type": "spell"}}, "steps": [{"pass": "Ann"}]}

# (case, change to GOOD, step named in the error (None: not a step), text in the message)
MALFORMED = [
    ("missing name", {"name": None}, None, "name"),
    ("unknown top-level key", {"colour": "blue"}, None, "unknown key 'colour'"),
    ("unknown ruleset", {"ruleset": "chess"}, None, "no timing model"),
    ("steps not a list", {"steps": "pass"}, None, "steps is a non-empty list"),
    ("unknown step", {"steps": [{"pass": "Ann"}, {"dance": "Ann"}]}, 2, "unknown step 'dance'"),
    ("two keys in a step", {"steps": [{"pass": "Ann", "play": {}}]}, 1, "one key"),
    ("unknown expectation", {"steps": [{"expect": {"mood": "calm"}}]}, 1, "cannot expect 'mood'"),
    ("cited not a list of rules", {"steps": [{"expect": {"cited": "310.1"}}]}, 1, "expect.cited"),
    ("not_cited empty", {"steps": [{"expect": {"not_cited": []}}]}, 1, "a list of rule numbers"),
    ("expect_illegal without an action", {"steps": [{"expect_illegal": {"rule": "312"}}]}, 1, "names one action"),
    ("unknown card in a step", {"steps": [{"play": {"player": "Ann", "card": "Meteor"}}]}, 1, "unknown card"),
    ("unknown player", {"steps": [{"pass": "Zed"}]}, 1, "'Zed' is not one of the players"),
    ("unknown key in a play", {"steps": [{"play": {"player": "Ann", "card": "Fireball", "x": 1}}]}, 1,
     "unknown key 'x'"),
    ("bad card type", {"cards": {"Fireball": {"type": "instant"}}}, None, "type must be one of"),
    ("unknown keyword", {"cards": {"Fireball": {"type": "spell", "keywords": ["Haste"]}}}, None, "unknown keyword"),
    ("one player", {"players": ["Ann"]}, None, "2 to 4 players"),
    ("unknown battlefield in start", {"start": {"showdown": {"at": "Nowhere"}}}, None, "unknown battlefield"),
]


@pytest.mark.parametrize("case,change,step,text", MALFORMED, ids=[c[0] for c in MALFORMED])
def test_malformed_scenarios(case: str, change: dict, step: int | None, text: str) -> None:
    data = {**GOOD, **change}
    data = {k: v for k, v in data.items() if v is not None}
    with pytest.raises(ScenarioError) as err:
        run(loads(yaml.safe_dump(data), "bad.yaml"))
    assert err.value.file == "bad.yaml"
    assert err.value.step == step
    assert text in str(err.value)
    assert str(err.value).startswith("bad.yaml")


def test_an_unknown_expectation_lists_each_key_that_can_be_expected_once() -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(yaml.safe_dump({**GOOD, "steps": [{"expect": {"mood": "calm"}}]}), "bad.yaml"))
    listed = str(err.value).split("(expect: ", 1)[1].rstrip(")").split(", ")
    assert "resolved" in listed and len(listed) == len(set(listed))


def test_yaml_syntax_errors_name_the_line() -> None:
    with pytest.raises(ScenarioError) as err:
        loads("name: x\nsteps: [\n  - pass: Ann\n", "broken.yaml")
    assert err.value.line is not None and "broken.yaml:" in str(err.value)


def test_an_illegal_step_fails_the_run_with_the_forbidding_rule() -> None:
    data = {**GOOD, "steps": [{"play": {"player": "Bo", "card": "Fireball"}}]}
    result = run(loads(yaml.safe_dump(data)))
    assert not result.ok
    assert result.error["step"] == 1 and "312.1" in result.error["rules"]


def test_facade_reports_malformed_scenarios_as_422(kb: KnowledgeBase) -> None:
    with pytest.raises(QueryError) as err:
        kb.timing_run({**GOOD, "steps": [{"dance": 1}]}, file="x.yaml")
    assert err.value.status == 422 and err.value.detail["step"] == 1


def test_another_built_edition_runs_with_the_citations_carried(excerpt_kb: KnowledgeBase) -> None:
    # 1.3 is built and the model cites 1.4: its citations are carried (tests/test_timing_carried_runs.py)
    run = excerpt_kb.timing_run({**GOOD, "edition": "1.3"})
    assert run["ok"] and run["edition"] == "1.3"


def test_an_edition_nobody_knows_is_unknown(kb: KnowledgeBase) -> None:
    with pytest.raises(QueryError) as err:
        kb.timing_run({**GOOD, "edition": "9.9"})
    assert err.value.status == 404
    assert err.value.message == "unknown edition '9.9' of riftbound (editions: 1.4)"


# -- the rule graph links both ways --------------------------------------------------------
def test_rule_lists_the_transitions_that_implement_it(kb: KnowledgeBase) -> None:
    transitions = kb.rule("riftbound", "337.4")["transitions"]
    names = {t["name"] for t in transitions}
    assert "priority-to-next-item" in names
    assert all({"name", "model", "description"} <= set(t) and t["model"] == "riftbound" for t in transitions)
    checks = kb.rule("riftbound", "309.1.a")["transitions"]
    assert any(t["kind"] == "check" for t in checks)


# -- the CLI ---------------------------------------------------------------------------------
@pytest.fixture()
def cli(tmp_path: Path) -> Any:
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Any:
        return runner.invoke(main, ["--home", str(tmp_path / "home"), "timing", *args], input=input)
    return invoke


def test_cli_run_json(cli: Any) -> None:
    path = scenario_files("riftbound")[0]
    res = cli("run", str(path), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] is True and data["frames"] and data["expectations"]


def test_cli_run_text_and_packaged_names(cli: Any) -> None:
    res = cli("run", "riftbound/003-the-combat-showdown", "--no-quotes")
    assert res.exit_code == 0, res.output
    assert "Combat opens at Sunken Temple." in res.stdout and "expectations: ok" in res.stdout


def test_cli_run_exit_codes(cli: Any, tmp_path: Path) -> None:
    failing = {**GOOD, "steps": [{"expect": {"priority": "Bo"}}]}
    (tmp_path / "fail.yaml").write_text(yaml.safe_dump(failing))
    res = cli("run", str(tmp_path / "fail.yaml"))
    assert res.exit_code == 1 and "expected \"Bo\", got \"Ann\"" in res.stdout
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump({**GOOD, "steps": [{"dance": 1}]}))
    res = cli("run", str(tmp_path / "bad.yaml"))
    assert res.exit_code == 2 and "step 1" in res.output and "Traceback" not in res.output


def test_cli_next(cli: Any, tmp_path: Path) -> None:
    state = _state(priority="Ann", chain=[{"name": "Fireball", "controller": "Ann", "status": "pending"}],
                   cards=CARDS)
    (tmp_path / "s.json").write_text(json.dumps(state))
    res = cli("next", "--state", str(tmp_path / "s.json"))
    assert res.exit_code == 0, res.output
    assert "Ann decides." in res.stdout and "Not legal now:" in res.stdout
    res = cli("next", "--state", "-", "--json", input=json.dumps(_state(priority=["Ann", "Bo"])))
    assert res.exit_code == 2 and "312" in res.output
    res = cli("next", "--state", "-", input="{not json")
    assert res.exit_code == 2 and "not valid JSON" in res.output


def test_cli_check_and_list(cli: Any) -> None:
    res = cli("check", "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] and data["partial"] and data["lacking"] == []
    # uncited: only what the model does not implement (test_timing_check.NOT_MODELED says why, one by one)
    assert [r["rule"] for r in data["coverage"]["uncited"]] == list(NOT_MODELED)
    res = cli("list")
    assert res.exit_code == 0 and "riftbound/000-your-own-spell-starts-the-chain" in res.stdout


# -- bad input is answered, never a crash ---------------------------------------------------
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-1, 5), st.text(max_size=4),
                  st.sampled_from(["Ann", "Bo", "pending", "finalized", "unit", "base", "showdown-open",
                                   "combat-damage", "Fireball", "target", "Reaction"]))
_VALUE = st.recursive(_LEAF, lambda c: st.one_of(
    st.lists(c, max_size=3),
    st.dictionaries(st.sampled_from(["name", "controller", "status", "kind", "card", "player", "at", "id", "to",
                                     "battlefield", "passes", "type", "effects", "on", "draw", "counter"]),
                    c, max_size=3)), max_leaves=6)
_STATE_KEYS = ["turn_state", "priority", "focus", "chain", "phase", "passes", "showdown", "combat", "opened_by",
               "tasks", "board", "battlefields", "hands", "facedown", "drawn", "trash", "scored", "cards"]


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.dictionaries(st.sampled_from(_STATE_KEYS), _VALUE, max_size=4))
def test_any_state_is_answered_or_refused(kb: KnowledgeBase, fields: dict) -> None:
    try:
        out = kb.timing_next({"players": ["Ann", "Bo"], **fields})
    except QueryError as exc:
        assert exc.status in (400, 404, 422)
    else:
        assert out["decision"] is not None or out["end"] is not None


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["players", "cards", "battlefields", "start", "steps", "step"]), _VALUE)
def test_any_scenario_is_run_or_refused(kb: KnowledgeBase, where: str, value: Any) -> None:
    data = load_scenario("003-the-combat-showdown")
    if where == "step":
        data["steps"][0] = {"move": value}
    else:
        data[where] = value
    try:
        kb.timing_run(data)
    except QueryError as exc:
        assert exc.status == 422 and exc.detail["message"]


def test_a_state_with_an_absurdly_long_chain_is_refused_quickly() -> None:
    from kb.query import KnowledgeBase, QueryError
    chain = [{"name": f"Spell {i}", "controller": "Ann", "status": "finalized", "kind": "spell"}
             for i in range(501)]
    with pytest.raises(QueryError) as err:
        KnowledgeBase.from_graphs([]).timing_next({"players": ["Ann", "Bo"], "chain": chain})
    # An input over a budget of kb/limits.py: 413 naming the limit, its value and the field.
    assert err.value.status == 413 and "timing.entries" in err.value.message
    assert err.value.detail == {"limit": "timing.entries", "max": 500, "unit": "entries", "actual": 501,
                                "where": "chain"}
