"""Scenarios: a YAML file that sets up a moment of a game, takes decisions and checks
what the rules say happens (the OpenFisca test format, applied to timing).

::

    name: Starting a chain with your own spell does not hand priority to the opponent.
    ruleset: riftbound
    edition: "1.4"
    players: [Ann, Bo]            # turn order; the first is the turn player
    cards: {Fireball: {type: spell, keywords: [Action]}}
    battlefields: [...]           # optional (model-specific)
    start: {...}                  # optional: a showdown or a combat (model-specific)
    steps:
      - play: {player: Ann, card: Fireball}
      - expect: {priority: Ann, chain: [{name: Fireball, status: finalized}]}
      - pass: Ann
      - expect_illegal: {play: {player: Ann, card: Fireball}}

Steps are numbered from 1 in every message. The actions a step may take, the ``cards``,
``battlefields`` and ``start`` belong to the ruleset's model (documented in
:mod:`kb.timing.models.riftbound.scenario` and :mod:`kb.timing.models.mtg.scenario`); ``expect`` may also check ``resolved`` (the items that
resolved since the previous ``expect``, in order) and ``decider`` (who must decide now).
``expect_illegal: {ACTION: ..., rule: N}`` passes when the action is illegal now and, if
``rule`` (or ``rules``) is given, when a check citing that rule forbids it.

:func:`run` returns frames (one per transition taken, automatic or decided; ``step`` 0 for
those before the first step) and the outcome of every expectation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.errors import QueryError
from kb.inputs import load_yaml
from kb.limits import TIMING_STEPS, check_deadline
from kb.timing import engine
from kb.timing.budget import AnswerBudget
from kb.timing.engine import FormatError, TimingError, TraceNode
from kb.timing.fields import check_budget, nearest
from kb.timing.models import RulesetModel, get_model

TOP_KEYS = ("name", "description", "ruleset", "edition", "players", "cards", "battlefields", "start", "steps")
CHECK_STEPS = ("expect", "expect_illegal")
GENERIC_EXPECT = ("resolved", "decider", "cited", "not_cited")
# The rules the steps since the previous ``expect`` cite (every node of their trace): ``cited``
# names rules that must be among them, ``not_cited`` rules that must not (a rule whose condition
# does not hold there), both in the scenario edition's numbering; the actual value is the named
# rules that are (are not) cited, so a failure shows which are missing (or cited).
CITING_EXPECT = ("cited", "not_cited")


class ScenarioError(Exception):
    """A malformed scenario: the file, the step (numbered from 1) and the field at fault."""

    def __init__(self, message: str, file: str = "", step: int | None = None, field: str = "",
                 line: int | None = None):
        self.message = message
        self.file = file
        self.step = step
        self.field = field
        self.line = line
        super().__init__(str(self))

    def __str__(self) -> str:
        place = self.file or "<scenario>"
        if self.line is not None:
            place += f":{self.line}"
        if self.step is not None:
            place += f": step {self.step}"
        where = f" ({self.field})" if self.field else ""
        return f"{place}{where}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "step": self.step, "field": self.field, "line": self.line,
                "message": self.message}


@dataclass
class Step:
    index: int  # from 1
    kind: str
    payload: Any


@dataclass
class Scenario:
    name: str
    ruleset: str
    edition: str
    data: dict[str, Any]
    steps: list[Step]
    file: str = ""


def _edition(value: Any) -> str:
    if isinstance(value, float):
        return repr(value)
    return str(value).strip() if value is not None else ""


def check_size(data: Any) -> None:
    """Refuse a scenario over the timing model's input budgets (steps, cards, instructions:
    :class:`kb.limits.LimitExceeded`, 413) before any of it is read; anything else about its
    shape is :func:`parse`'s to say."""
    if isinstance(data, dict) and isinstance(data.get("steps"), list):
        TIMING_STEPS.check(len(data["steps"]), "steps")
    check_budget(data)


def parse(data: Any, file: str = "") -> Scenario:
    """Check a scenario's structure (the model checks its own parts when it runs)."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a mapping (name, ruleset, edition, players, steps, …)", file)
    extra = sorted(set(map(str, data)) - set(TOP_KEYS))
    if extra:
        raise ScenarioError(f"unknown key {extra[0]!r}{nearest(extra[0], TOP_KEYS)} (expected: {', '.join(TOP_KEYS)})",
                            file, field=extra[0])
    for key in ("name", "ruleset", "players", "steps"):
        if key not in data:
            raise ScenarioError(f"missing {key!r}", file, field=key)
    if not isinstance(data["name"], str) or not data["name"].strip():
        raise ScenarioError("name is a sentence saying what the scenario shows", file, field="name")
    try:
        spec = get_model(str(data["ruleset"]))
    except FormatError as exc:
        raise ScenarioError(exc.message, file, field="ruleset") from exc
    edition = _edition(data.get("edition")) or spec.citation_edition
    if not isinstance(data["steps"], list) or not data["steps"]:
        raise ScenarioError("steps is a non-empty list", file, field="steps")
    check_size(data)
    steps = []
    kinds = spec.actions + CHECK_STEPS
    for i, raw in enumerate(data["steps"], start=1):
        if not isinstance(raw, dict) or len(raw) != 1:
            raise ScenarioError(f"a step is a mapping with one key, one of: {', '.join(kinds)}", file, i)
        (kind, payload), = raw.items()
        if kind not in kinds:
            raise ScenarioError(f"unknown step {kind!r}{nearest(kind, kinds)} (steps: {', '.join(kinds)})", file, i,
                                str(kind))
        if kind == "expect":
            if not isinstance(payload, dict) or not payload:
                raise ScenarioError("expect takes a mapping of what to check", file, i, "expect")
            allowed = tuple(dict.fromkeys(spec.expect_keys + GENERIC_EXPECT))  # a model may list a generic key too
            for key in payload:
                if key not in allowed:
                    raise ScenarioError(f"cannot expect {key!r}{nearest(key, allowed)} (expect: {', '.join(allowed)})",
                                        file, i, f"expect.{key}")
                if key in CITING_EXPECT:
                    _rule_list(payload[key], file, i, f"expect.{key}")
        if kind == "expect_illegal":
            if not isinstance(payload, dict):
                raise ScenarioError("expect_illegal takes {ACTION: ..., rule: N (optional)}", file, i)
            actions = [k for k in payload if k not in ("rule", "rules")]
            if len(actions) != 1 or actions[0] not in spec.actions:
                raise ScenarioError(f"expect_illegal names one action, one of: {', '.join(spec.actions)}",
                                    file, i, "expect_illegal")
        steps.append(Step(i, kind, payload))
    return Scenario(data["name"].strip(), spec.ruleset, edition, data, steps, file)


def _rule_list(value: Any, file: str, step: int, field: str) -> None:
    """Refuse a ``cited``/``not_cited`` that is not a non-empty list of rule numbers."""
    if not isinstance(value, list) or not value or not all(isinstance(r, (str, int, float)) and str(r).strip()
                                                          for r in value):
        raise ScenarioError("a list of rule numbers, e.g. [\"310.1\", \"313.5\"]", file, step, field)


def load(path: str | Path) -> Scenario:
    """Read and check a scenario file (YAML syntax errors name their line)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"cannot read: {exc}", str(path)) from exc
    return loads(text, str(path))


def read_yaml(text: str, file: str = "") -> Any:
    """A scenario's YAML text as data, read as every face reads one (the CLI's file, the
    site's paste): safely, without aliases (a few anchors can expand to gigabytes), nesting
    within ``input.nesting`` and text that can be encoded. A YAML fault (an alias among them)
    is a :class:`ScenarioError` naming the file and line; a limit is the
    :class:`~kb.errors.QueryError` :func:`kb.inputs.load_yaml` raises."""
    try:
        return load_yaml(text, file or "scenario", aliases=False)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ScenarioError(f"not valid YAML: {problem}", file,
                            line=mark.line + 1 if mark is not None else None) from exc


def loads(text: str, file: str = "") -> Scenario:
    """Parse and check a scenario's YAML text (:func:`read_yaml`); every fault is a
    :class:`ScenarioError` naming the file and line."""
    try:
        data = read_yaml(text, file)
    except QueryError as exc:  # over the nesting limit, or a lone surrogate
        raise ScenarioError(exc.message, file) from exc
    return parse(data, file)


# -- running ---------------------------------------------------------------------------------
@dataclass
class Frame:
    """One transition taken while running: ``step`` is the scenario step it followed (0: start)."""

    node: TraceNode
    step: int
    state: dict[str, Any]
    note: str = ""


@dataclass
class Expectation:
    step: int
    ok: bool
    expected: Any
    actual: Any
    kind: str = "expect"
    failed: list[str] = field(default_factory=list)
    forbidden_by: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class RunResult:
    scenario: Scenario
    spec: RulesetModel
    model: Any
    frames: list[Frame]
    expectations: list[Expectation]
    error: dict[str, Any] | None = None
    final: Any = None

    @property
    def ok(self) -> bool:
        return self.error is None and all(e.ok for e in self.expectations)


def _matches(key: str, want: Any, actual: Any) -> bool:
    # A list of objects (Riftbound's chain, Magic's stack): names, or objects with some fields.
    if key == "chain" or (isinstance(actual, list) and actual and all(isinstance(a, dict) for a in actual)):
        if not isinstance(want, list) or len(want) != len(actual):
            return False
        for w, a in zip(want, actual):
            if isinstance(w, str):
                if w != a["name"]:
                    return False
            elif not isinstance(w, dict) or any(a.get(k) != v for k, v in w.items()):
                return False
        return True
    if isinstance(want, dict) and isinstance(actual, dict):
        return all(actual.get(k) == v for k, v in want.items())
    return bool(want == actual)


def run(scenario: Scenario, budget: AnswerBudget | None = None,
        renumber: Callable[[Iterable[str]], list[str]] = list,
        admit: Callable[[Any], None] | None = None) -> RunResult:
    """Run a scenario: set up, take each step, check each expectation. Never raises for rule
    outcomes (an illegal step or a failed expectation is recorded); raises ScenarioError for
    a malformed scenario, and :class:`kb.limits.LimitExceeded` as soon as the frames (each
    counted into ``budget``, a new one by default) or the deadline are over their limits.

    ``renumber`` gives the model's rule numbers in the scenario edition's numbering (the
    rules an ``expect_illegal`` names are compared, and the rules of a failure reported, in
    it); the model's own numbers by default. ``admit`` is given the model over the scenario's
    cards before anything runs, and refuses what the scenario edition's rules lack (a
    :class:`FormatError` naming the field)."""
    budget = budget if budget is not None else AnswerBudget()
    spec = get_model(scenario.ruleset)
    file = scenario.file
    try:
        model, state = spec.setup(scenario.data)
        if admit is not None:
            admit(model)
    except FormatError as exc:
        raise ScenarioError(exc.message, file, field=exc.field) from exc
    result = RunResult(scenario, spec, model, [], [])
    resolved: list[str] = []
    cited: list[str] = []  # the rules the steps since the last expect cite, in the model's numbering

    def record(node: TraceNode, step: int, note: str = "") -> None:
        where = f"step {step}" if step else "before the first step"
        budget.frame(where)
        state = budget.add(spec.state_json(model, node.after), where)
        result.frames.append(Frame(node, step, state, note))
        resolved.extend(spec.resolved(node))
        cited.extend(r for n in node.walk() for r in n.rules)

    def advance(step: int) -> Any:
        outcome = engine.advance(model, state, with_illegal=False)
        for node in outcome.steps:
            record(node, step)
        return outcome

    try:
        outcome = advance(0)
        state = outcome.state
        for step in scenario.steps:
            check_deadline(f"step {step.index}")
            state = _default_decisions(spec, model, state, step, record)
            if step.kind == "expect":
                actual: dict[str, Any] = {}
                failed = []
                said = set(renumber(dict.fromkeys(cited)))
                for key, want in step.payload.items():
                    if key in CITING_EXPECT:  # the wanted rules that are (cited) or are not (not_cited) cited
                        got: Any = [str(r) for r in want if (str(r) in said) == (key == "cited")]
                        actual[key] = got
                        if got != [str(r) for r in want]:
                            failed.append(key)
                        continue
                    if key == "resolved":
                        got = list(resolved)
                    elif key == "decider":
                        d = engine.decision(model, state, with_illegal=False)
                        got = d.decider if d else None
                    else:
                        got = spec.observe(model, state, key)
                    if key == "chain":
                        got = [{k: a[k] for k in ("name", "status", "controller")} for a in got]
                    actual[key] = got
                    if not _matches(key, want, got):
                        failed.append(key)
                resolved.clear()
                cited.clear()
                result.expectations.append(Expectation(step.index, not failed, step.payload, actual,
                                                       failed=failed))
                continue
            if step.kind == "expect_illegal":
                result.expectations.append(_expect_illegal(spec, model, state, step, file, renumber))
                continue
            state = _auto_choices(spec, model, state, step, record)
            try:
                candidates = spec.action(step.kind, step.payload, state)
                for name, params in candidates:
                    spec.check_references(model, state, step.kind, params)
            except FormatError as exc:
                raise ScenarioError(exc.message, file, step.index, exc.field) from exc
            chosen = None
            first_failure: tuple[str, Any, tuple] | None = None
            for name, params in candidates:
                failing = model.transitions[name].failing(state, params)
                if not failing:
                    chosen = (name, params)
                    break
                first_failure = first_failure or (name, params, failing)
            if chosen is None:
                assert first_failure is not None
                name, params, failing = first_failure
                option = engine.Option(model.transitions[name], params, failing)
                result.expectations.append(Expectation(
                    step.index, False, {step.kind: step.payload, "legal": True},
                    {"legal": False, "forbidden_by": [c.name for c in failing]}, kind="step",
                    forbidden_by=[{"check": c.name, "summary": c.summary, "rules": renumber(c.rules)}
                                  for c in failing]))
                result.error = {"type": "illegal-step", "step": step.index,
                                "message": f"step {step.index}: {option.label} is not legal now",
                                "rules": renumber(r for c in failing for r in c.rules)}
                break
            node = engine.apply(model, state, *chosen)
            record(node, step.index)
            state = node.after
            outcome = advance(step.index)
            state = outcome.state
        else:  # the steps are over: a decision they leave to the model is taken, as before a step,
            # unless the last asks who decides (or whether deciding is legal) there
            if scenario.steps:
                last = scenario.steps[-1]
                final = last if last.kind in ("expect", "expect_illegal") else Step(last.index, "end", None)
                state = _default_decisions(spec, model, state, final, record)
    except TimingError as exc:
        result.error = {"type": type(exc).__name__, "message": str(exc), "rules": renumber(exc.rules)}
    result.final = state
    return result


def _default_decisions(spec: RulesetModel, model: Any, state: Any, step: Step, record: Any) -> Any:
    """A decision due now that the scenario leaves to the model (:meth:`RulesetModel.default_decision`)
    is taken, its frame saying so, unless this step makes it, asks who decides (``expect:
    {decider}``) or whether it is legal (``expect_illegal``)."""
    for _ in range(50):
        found = spec.default_decision(model, state)
        if found is None:
            return state
        name, params, note, kind = found
        payload = step.payload if isinstance(step.payload, dict) else {}
        if step.kind == kind or (step.kind == "expect" and "decider" in payload) or \
                (step.kind == "expect_illegal" and kind in payload):
            return state
        node = engine.apply(model, state, name, params)
        record(node, step.index, note)
        outcome = engine.advance(model, node.after, with_illegal=False)
        for n in outcome.steps:
            record(n, step.index)
        state = outcome.state
    return state


def _auto_choices(spec: RulesetModel, model: Any, state: Any, step: Step, record: Any) -> Any:
    """An optional triggered ability awaiting its controller's choice is performed unless this
    step declines (or performs) it: a scenario need not spell out every "yes"."""
    for _ in range(50):
        item = spec.awaits_choice(state)
        if item is None:
            return state
        if step.kind in ("decline", "perform") and isinstance(step.payload, dict) and \
                step.payload.get("item") == item:
            return state
        d = engine.decision(model, state, with_illegal=False)
        assert d is not None
        option = next(o for o in d.options if o.transition.name == "perform-trigger")
        node = engine.apply(model, state, option.transition.name, option.params)
        record(node, step.index, "performed by default: the scenario does not decline it")
        outcome = engine.advance(model, node.after, with_illegal=False)
        for n in outcome.steps:
            record(n, step.index)
        state = outcome.state
    return state


def _expect_illegal(spec: RulesetModel, model: Any, state: Any, step: Step, file: str,
                    renumber: Callable[[Iterable[str]], list[str]] = list) -> Expectation:
    payload = dict(step.payload)
    want_rules = payload.pop("rules", None) or ([payload.pop("rule")] if "rule" in payload else [])
    payload.pop("rule", None)
    (kind, action), = payload.items()
    try:
        candidates = spec.action(kind, action, state)
        for _, params in candidates:
            spec.check_references(model, state, kind, params)
    except FormatError as exc:
        raise ScenarioError(exc.message, file, step.index, f"expect_illegal.{exc.field}") from exc
    failures = []
    legal = False
    for name, params in candidates:
        failing = model.transitions[name].failing(state, params)
        if not failing:
            legal = True
            break
        failures.extend(failing)
    cited = renumber(r for c in failures for r in c.rules)
    rules_ok = all(str(r) in cited for r in want_rules)
    expected: dict[str, Any] = {kind: action, "illegal": True}
    if want_rules:
        expected["rules"] = [str(r) for r in want_rules]
    forbidden = [{"check": c.name, "summary": c.summary, "rules": renumber(c.rules)} for c in failures]
    return Expectation(step.index, not legal and rules_ok, expected,
                       {"illegal": not legal, "rules": cited}, kind="expect_illegal",
                       failed=[] if not legal and rules_ok else ["illegal" if legal else "rules"],
                       forbidden_by=forbidden)
