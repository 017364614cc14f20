"""The timing model's budgets (kb/limits.py): every run and next does bounded work.

Each budget is enforced where the work happens, before it is done, and an answer over one
is the one error shape naming the limit and its value: 413 for an input too large (steps,
cards, instructions, list entries, a pasted scenario), 422 for too much work (frames,
automatic steps, answer size, wall time). The same holds for the facade, the API, the
site's /timing page and the CLI. No legitimate scenario comes near a limit.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

import kb.limits
from bench import abuse
from kb.cli import main
from kb.limits import (LIMITS, TIMING_ANSWER, TIMING_AUTOMATIC, TIMING_CARDS, TIMING_FRAMES,
                       TIMING_STEPS, TIMING_TIME, Deadline, LimitExceeded, check_deadline, deadline)
from kb.query import KnowledgeBase
from kb.timing import engine, scenario_files
from kb.timing.budget import AnswerBudget, json_size
from kb.timing.models import get_model
from test_api import CheckedClient
from web import create_app
from web.api.timing import EXAMPLE_STATE

REPO = Path(__file__).resolve().parent.parent
TEST_SCENARIOS = sorted((REPO / "tests" / "scenarios").glob("*/*.yaml"))


def over(exc: pytest.ExceptionInfo[LimitExceeded], name: str, status: int) -> dict[str, Any]:
    """The error names the limit and its value, with the status of its kind."""
    err = exc.value
    assert isinstance(err, LimitExceeded) and err.status == status, (err.status, err.message)
    assert err.detail["limit"] == name and err.detail["max"] == LIMITS[name].value
    assert name in err.message and f"{LIMITS[name].value:,}" in err.message
    return err.detail


# -- inputs too large: 413 before anything runs ----------------------------------------------
def test_the_issue_repro_is_refused_by_its_steps(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.rounds(400))
    assert over(exc, "timing.steps", 413) == {"limit": "timing.steps", "max": 200, "unit": "steps",
                                              "actual": 1200, "where": "steps"}


def test_the_most_steps_allowed_still_run(excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    # What is asked is the steps budget, not the wall-time one: a busy machine (CI's two cores
    # shared by the suite's workers) may take longer than timing.time's 2 s for 200 steps.
    monkeypatch.setattr("kb.timing.api.TIMING_TIME", dataclasses.replace(TIMING_TIME, value=600_000))
    out = excerpt_kb.timing_run(abuse.scenario((abuse.PLAY_PASS_PASS * 67)[:TIMING_STEPS.value]))
    assert out["ok"] and len(out["frames"]) > TIMING_STEPS.value


def test_a_card_with_100_play_instructions_is_refused(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.self_playing(100, 1))
    assert over(exc, "timing.effects", 413)["where"] == "cards.Storm"


@pytest.mark.parametrize("card", [
    {"type": "unit", "triggers": [{"on": "play", "name": f"T{i}", "effects": [{"draw": 1}] * 3}
                                  for i in range(7)]},
    {"type": "spell", "effects": [{"create": {"name": "Echo", "effects": [{"draw": 1}] * 20}}]},
    {"type": "spell", "effects": [{"draw": 1}] * 11, "legion": [{"draw": 1}] * 10},
], ids=["triggers", "nested", "legion"])
def test_instructions_are_counted_wherever_they_are_on_the_card(excerpt_kb: KnowledgeBase,
                                                                card: dict[str, Any]) -> None:
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.scenario([{"pass": "Ann"}], {"Big": card}))
    assert over(exc, "timing.effects", 413) == {"limit": "timing.effects", "max": 20, "unit": "instructions",
                                                "actual": 21, "where": "cards.Big"}


def test_a_pool_of_too_many_cards_is_refused(excerpt_kb: KnowledgeBase) -> None:
    cards = {f"C{i}": {"type": "spell"} for i in range(TIMING_CARDS.value + 1)}
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.scenario([{"pass": "Ann"}], cards))
    assert over(exc, "timing.cards", 413)["actual"] == 101


def test_a_state_item_with_too_many_instructions_is_refused(excerpt_kb: KnowledgeBase) -> None:
    state = {"players": ["Ann", "Bo"], "priority": "Ann", "turn_state": "neutral-closed",
             "chain": [{"name": "Odd", "controller": "Ann", "status": "finalized", "kind": "trigger",
                        "effects": [{"draw": 1}] * 21}]}
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_next(state)
    assert over(exc, "timing.effects", 413)["where"] == "chain[0]"


def test_a_state_pool_is_held_to_the_same_budgets(excerpt_kb: KnowledgeBase) -> None:
    state = {"players": ["Ann", "Bo"], "cards": {f"C{i}": {"type": "spell"} for i in range(101)}}
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_next(state)
    over(exc, "timing.cards", 413)


def test_deep_input_is_walked_without_recursion(excerpt_kb: KnowledgeBase) -> None:
    deep: Any = {"effects": [{"draw": 1}] * 21}
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.scenario([{"pass": "Ann"}], {"Odd": {"type": "spell", "x": deep}}))
    over(exc, "timing.effects", 413)


# -- too much work: 422 before the answer is over its budget -----------------------------------
def test_an_answer_is_stopped_before_it_is_over_its_size(excerpt_kb: KnowledgeBase,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    sizes: list[int] = []
    real = AnswerBudget.add

    def spy(self: AnswerBudget, value: Any, where: str | None = None) -> Any:
        out = real(self, value, where)
        sizes.append(self.bytes)
        return out
    monkeypatch.setattr(AnswerBudget, "add", spy)
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.heavy_pool())
    detail = over(exc, "timing.answer", 422)
    assert detail["actual"] > TIMING_ANSWER.value and detail["where"].startswith("step ")
    assert sizes and max(sizes) <= TIMING_ANSWER.value, "nothing past the budget was kept"


def test_a_chain_that_grows_without_end_stops_at_the_answer_size(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.self_playing(20))
    over(exc, "timing.answer", 422)


def test_the_budget_counts_frames_and_bytes() -> None:
    budget = AnswerBudget()
    for _ in range(TIMING_FRAMES.value):
        budget.frame("here")
    with pytest.raises(LimitExceeded) as exc:
        budget.frame("step 7")
    assert over(exc, "timing.frames", 422)["where"] == "step 7" and budget.frames == TIMING_FRAMES.value
    budget.add("x" * (TIMING_ANSWER.value - 10))
    with pytest.raises(LimitExceeded):
        budget.add("y" * 20)
    assert budget.bytes == TIMING_ANSWER.value - 10 + 2
    assert json_size("\ud800") == len('"\\ud800"'), "a lone surrogate is counted, never fails"


def test_a_run_stops_at_its_frame_budget(excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    small = kb.limits.Limit("timing.frames", 5, "frames", TIMING_FRAMES.what)
    monkeypatch.setattr("kb.timing.budget.TIMING_FRAMES", small)
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.rounds(3))
    assert exc.value.status == 422 and exc.value.detail["max"] == 5


def test_next_stops_at_its_answer_budget(excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    small = kb.limits.Limit("timing.answer", 3000, "bytes", TIMING_ANSWER.what)
    monkeypatch.setattr("kb.timing.budget.TIMING_ANSWER", small)
    state = {**EXAMPLE_STATE, "cards": {f"C{i}": {"type": "spell"} for i in range(40)}}
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_next(state)
    assert exc.value.detail["limit"] == "timing.answer" and exc.value.detail["max"] == 3000


TICKS: list[int] = []


class _Loop(engine.Model):
    """A model whose one automatic transition always applies."""

    ruleset = "loop"
    transitions = {"tick": engine.Transition("tick", "automatic", ("1.1",), "tick", bindings=lambda s: [{}],
                                             effect=lambda s, p, t: TICKS.append(s) or s + 1)}


def test_automatic_steps_in_a_row_are_bounded() -> None:
    TICKS.clear()
    with pytest.raises(LimitExceeded) as exc:
        engine.advance(_Loop(), 0)
    assert over(exc, "timing.automatic", 422)["where"].startswith("tick")
    assert len(TICKS) == TIMING_AUTOMATIC.value, "every step allowed is taken, and not one more"


class _Clock:
    """time.monotonic, one second further on each call."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def test_the_deadline_stops_a_run_between_steps(excerpt_kb: KnowledgeBase,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb.limits.time, "monotonic", _Clock())
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_run(abuse.rounds(2))
    assert over(exc, "timing.time", 422)["unit"] == "ms"


def test_the_deadline_stops_next(excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kb.limits.time, "monotonic", _Clock())
    with pytest.raises(LimitExceeded) as exc:
        excerpt_kb.timing_next(EXAMPLE_STATE)
    over(exc, "timing.time", 422)


def test_deadlines_are_context_local_and_the_earlier_one_holds() -> None:
    check_deadline()  # outside any deadline: nothing to check
    with deadline(TIMING_TIME) as outer:
        with deadline(kb.limits.Limit("x.time", 10**9, "ms", "long")) as inner:
            assert kb.limits._DEADLINE.get() is outer and inner.ends > outer.ends
    assert kb.limits._DEADLINE.get() is None
    with pytest.raises(ValueError):
        Deadline(TIMING_STEPS)


# -- the growth itself: frames no longer repeat what the pool already says ---------------------
def test_chain_items_do_not_repeat_their_cards_instructions(excerpt_kb: KnowledgeBase) -> None:
    out = excerpt_kb.timing_run(abuse.self_playing(5, 1))
    items = [i for f in out["frames"] for i in f["state"]["chain"]]
    assert items and all("effects" not in i for i in items if i["name"] == "Storm")
    spec = get_model("riftbound")
    for frame in out["frames"]:
        model, state, problems = spec.state_from_json(frame["state"], None)
        assert not problems and spec.state_json(model, state) == frame["state"], "a state still reads back"
        assert all(i.effects == model.cards["Storm"].effects for i in state.chain if i.name == "Storm")


def test_the_card_pool_is_written_once_per_run(excerpt_kb: KnowledgeBase) -> None:
    frames = excerpt_kb.timing_run(abuse.rounds(3))["frames"]
    assert len({id(f["state"]["cards"]) for f in frames}) == 1


# -- no legitimate scenario comes near a limit ------------------------------------------------
@pytest.mark.parametrize("path", [*scenario_files(), *TEST_SCENARIOS], ids=lambda p: p.stem[:50])
def test_legitimate_scenarios_stay_far_below_every_limit(excerpt_kb: KnowledgeBase, path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    budgets: list[AnswerBudget] = []
    real = AnswerBudget.__init__

    def keep(self: AnswerBudget) -> None:
        real(self)
        budgets.append(self)
    monkeypatch.setattr(AnswerBudget, "__init__", keep)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    excerpt_kb.timing_run(data, path.name)
    used = budgets[0]
    assert len(data["steps"]) * 4 <= TIMING_STEPS.value and len(data.get("cards") or {}) * 10 <= TIMING_CARDS.value
    assert used.frames * 10 <= TIMING_FRAMES.value and used.bytes * 10 <= TIMING_ANSWER.value


# -- the same budgets through every face -------------------------------------------------------
@pytest.fixture(scope="module")
def api(excerpt_home: Path) -> CheckedClient:
    """The app, warmed: a warm-up still running beside the first abusive run shared its CPU,
    and a run that keeps within every other budget then met the wall-time one first."""
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(120)
    return CheckedClient(app)


@pytest.mark.parametrize("case", [c for c in abuse.CASES if c.path.startswith("/api/")], ids=lambda c: c.name)
def test_api_answers_an_abusive_request_with_the_limit(api: CheckedClient, case: abuse.Abuse) -> None:
    r = api.open(case.method, case.path, data=case.body, headers=case.headers)
    assert r.status_code == case.status, r.data[:300]
    error = r.get_json()["error"]
    assert error["status"] == case.status
    if case.limit:
        assert error["detail"]["limit"] == case.limit and case.limit in error["message"]


@pytest.mark.parametrize("case", [c for c in abuse.CASES if not c.path.startswith("/api/")], ids=lambda c: c.name)
def test_the_timing_page_answers_an_abusive_request_with_the_limit(api: CheckedClient, case: abuse.Abuse) -> None:
    r = api.open(case.method, case.path, data=case.body, headers=case.headers)
    assert r.status_code == case.status and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    if case.limit:
        assert case.limit in page
    elif case.path.startswith("/timing?scenario="):
        assert "No worked scenario" in page
    assert "Traceback" not in page


def test_openapi_lists_the_timing_limits(api: CheckedClient) -> None:
    doc = api.get("/api/openapi.json").get_json()
    assert doc["info"]["x-rulekb-limits"] == kb.limits.table()
    run = doc["paths"]["/api/v1/timing/run"]["post"]
    listed = {row["name"]: row["max"] for row in run["x-rulekb-limits"]}
    assert listed["timing.steps"] == 200 and listed["timing.answer"] == TIMING_ANSWER.value
    assert "`timing.steps`" in run["description"] and "413" in run["responses"]
    nxt = doc["paths"]["/api/v1/timing/next"]["post"]
    assert "timing.entries" in {row["name"] for row in nxt["x-rulekb-limits"]}
    assert "timing.steps" not in {row["name"] for row in nxt["x-rulekb-limits"]}


def _cli(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stderr


def test_the_cli_keeps_the_same_budgets(excerpt_home: Path, tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    # JSON is YAML without aliases: safe_dump would write the steps' shared objects as
    # aliases, which the scenario reader refuses before any budget is counted.
    big.write_text(json.dumps(abuse.rounds(400)), encoding="utf-8")
    code, err = _cli(excerpt_home, "timing", "run", str(big))
    assert code != 0 and err.count("\n") == 1 and "timing.steps" in err and "200" in err
    state = tmp_path / "state.json"
    state.write_text(json.dumps(abuse.LONG_CHAIN), encoding="utf-8")
    code, err = _cli(excerpt_home, "timing", "next", "--state", str(state))
    assert code != 0 and err.count("\n") == 1 and "timing.entries" in err and "at chain" in err


# -- the site: an unknown scenario name keeps nothing ------------------------------------------
def test_an_unknown_scenario_name_keeps_nothing_and_reads_no_file(excerpt_home: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(excerpt_home)
    client = app.test_client()
    assert client.get("/timing?scenario=first-miss").status_code == 404  # the names, once per build
    # The warm-up runs every worked scenario (reading their files) in the background: done
    # before counting, so that only what the misses read is counted.
    assert app.extensions["rulekb"].wait_ready(120)
    knowledge = app.extensions["rulekb"].current()
    keys, locks = set(knowledge.derived.keys()), set(knowledge.derived.pending())
    parsed: list[Any] = []
    real = yaml.safe_load
    monkeypatch.setattr("kb.timing.yaml.safe_load", lambda text: parsed.append(1) or real(text))
    for i in range(100):
        r = client.get(f"/timing?scenario=no-such-{i}-" + "x" * 500)
        assert r.status_code == 404 and "No worked scenario" in r.get_data(as_text=True)
    # (the build's warm-up may add its own keys meanwhile: only the names asked for matter)
    assert not [k for k in set(knowledge.derived.keys()) - keys if "no-such" in str(k)], "a miss keeps nothing"
    assert not [k for k in set(knowledge.derived.pending()) - locks if "no-such" in str(k)], \
        "nor a lock keyed by the name"
    assert parsed == [], "nor re-reads every scenario file for its message"


def test_a_worked_scenario_is_found_by_its_name_with_or_without_its_ruleset(excerpt_home: Path) -> None:
    client = create_app(excerpt_home).test_client()
    name = scenario_files("mtg")[0].stem
    for asked in (name, f"mtg/{name}"):
        r = client.get(f"/timing?scenario={asked}")
        assert r.status_code == 200, (asked, r.status_code)


def test_load_scenario_names_the_files_without_parsing_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.timing import load_scenario
    monkeypatch.setattr("kb.timing.yaml.safe_load", lambda text: pytest.fail("parsed a file"))
    with pytest.raises(KeyError) as exc:
        load_scenario("riftbound/no-such-scenario")
    assert scenario_files("riftbound")[0].stem in str(exc.value)


@pytest.mark.parametrize("value", [{"cards": {"A": {"type": "spell"}}}, {"a": 1, "cards": {"B": [1, "é"]}, "z": None},
                                   {"cards": {}}, {"cards": [1]}, [1, {"cards": {"A": 1}}], "x"])
def test_a_shared_pool_is_measured_once_and_exactly(value: Any) -> None:
    budget = AnswerBudget()
    assert budget.size(value) == json_size(value) == budget.size(value)


def test_the_timing_form_says_its_limit(api: CheckedClient) -> None:
    page = api.get("/timing").get_data(as_text=True)
    assert f'maxlength="{kb.limits.TIMING_PASTED.value}"' in page


def test_input_budgets_come_before_the_schema(api: CheckedClient) -> None:
    body = {**abuse.rounds(400), "name": 7}  # over timing.steps, and not a TimingScenario either
    r = api.post("/api/v1/timing/run", json=body)
    assert r.status_code == 413 and r.get_json()["error"]["detail"]["limit"] == "timing.steps"
    r = api.post("/api/v1/timing/next", json={**abuse.LONG_CHAIN, "players": "Ann"})
    assert r.status_code == 413 and r.get_json()["error"]["detail"]["limit"] == "timing.entries"


def test_a_runs_pool_is_encoded_once_to_be_counted(excerpt_kb: KnowledgeBase,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import kb.timing.budget as budget_module
    pools: list[Any] = []
    real = budget_module.json_size

    def counting(value: Any) -> int:
        if isinstance(value, dict) and "Fireball" in value:
            pools.append(value)
        return real(value)
    monkeypatch.setattr(budget_module, "json_size", counting)
    out = excerpt_kb.timing_run(abuse.rounds(3))
    assert len(out["frames"]) > 5 and len(pools) == 1


def test_every_part_of_an_answer_is_counted(excerpt_kb: KnowledgeBase, monkeypatch: pytest.MonkeyPatch) -> None:
    places: list[str | None] = []
    real = AnswerBudget.add
    monkeypatch.setattr(AnswerBudget, "add", lambda self, value, where=None: places.append(where)
                        or real(self, value, where))
    excerpt_kb.timing_next(EXAMPLE_STATE)
    assert {"options", "the state reached"} <= set(places)
    places.clear()
    excerpt_kb.timing_run(abuse.rounds(1))
    assert {"before the first step", "step 1", "the final state"} <= set(places)


def test_a_worked_scenario_is_not_cut_by_the_requests_deadline(excerpt_kb: KnowledgeBase,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The explorer and the export run the repository's own scenarios: a busy machine must not
    drop them from a page (the deadline guards requests), while a scenario sent is still cut."""
    from kb.timing.api import timing_run
    from kb.timing.examples import load_scenario, worked_scenarios

    name = next(s["name"] for s in worked_scenarios(excerpt_kb) if s["ruleset"] == "riftbound")
    monkeypatch.setattr(kb.limits.time, "monotonic", _Clock())
    assert timing_run(excerpt_kb, load_scenario(name), trusted=True)["frames"]
    with pytest.raises(LimitExceeded) as exc:
        timing_run(excerpt_kb, load_scenario(name))
    over(exc, "timing.time", 422)
