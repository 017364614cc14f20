"""What the facade (:class:`kb.query.KnowledgeBase`) answers about timing, as plain dicts,
from the loaded editions (:class:`kb.loaded.LoadedEditions`).

Errors raise :class:`kb.errors.QueryError`: 400 for input that is not well formed, 422 for
a scenario or state the rules refuse (with the rules), 404 for an unknown edition. Every
run and next keeps to the timing budgets of :mod:`kb.limits` (413 for an input over them,
422 for work over them, each before the work is done): the deadline
(:data:`kb.limits.TIMING_TIME`) covers the run or the steps worked out, not what a build
derives once for an edition (its graph, the model's citations carried to it), and the
frames and bytes of the answer are counted into one
:class:`~kb.timing.budget.AnswerBudget` as they are made.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any

from kb.derived import derived
from kb.editions.queries import map_number
from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.limits import TIMING_TIME, deadline
from kb.loaded import LoadedEditions
from kb.store import stored_citations_path
from kb.timing import engine
from kb.timing.budget import AnswerBudget
from kb.timing.check import check as check_citations
from kb.timing.engine import FormatError, InvalidState, TimingError
from kb.timing.explain import Explainer, Renumbering
from kb.timing.fields import check_budget
from kb.timing.models import RulesetModel, get_model
from kb.timing.scenario import RunResult, ScenarioError, parse, run
from kb.timing.stored import assemble, read_carried


def spec_for(ruleset: str) -> RulesetModel:
    try:
        return get_model(ruleset)
    except FormatError as exc:
        raise QueryError(404, exc.message, {"field": "ruleset"}) from exc


def graph_for(kb: LoadedEditions, spec: RulesetModel, edition: str | None, required: bool = False) -> RuleGraph | None:
    """The edition to quote from: one whose numbers the model cites, or another built edition
    of its ruleset, to which its citations are carried (:func:`explainer_for`). An unknown
    edition is 404; one the model cannot serve (see :func:`_unserved`) 422, saying why."""
    edition = edition or spec.citation_edition
    if spec.citations_for(edition) is None:
        known = sorted({*spec.editions, *(e for r, e in kb.graphs if r == spec.ruleset)})
        if edition not in known:
            if kb.dated_in_force(spec.ruleset, edition) is not None:
                kb.edition(spec.ruleset, edition)  # a date, refused as every edition parameter refuses it
            raise QueryError(404, f"unknown edition {edition!r} of {spec.ruleset} (editions: {', '.join(known)})",
                             {"field": "edition", "edition": edition, "editions": known})
        _unserved(kb, spec, edition)
    try:
        return kb.edition(spec.ruleset, edition)
    except QueryError:
        if required:
            raise
        return None


def _unserved(kb: LoadedEditions, spec: RulesetModel, edition: str) -> None:
    """Refuse (422) an edition the model has no tables of its own for, when its citations
    cannot be carried there: a model that plays differently by edition (Magic's) plays only
    by the editions it knows, and citations are carried only from a built citation edition."""
    if spec.follows_editions:
        raise QueryError(422, f"the {spec.ruleset} timing model plays by the rules of edition "
                              f"{' or '.join(spec.editions)} (its steps differ between them), so it cannot "
                              f"run by edition {edition}'s; run it by one of those",
                         {"field": "edition", "edition": edition, "editions": list(spec.editions)})
    if (spec.ruleset, spec.citation_edition) not in kb.graphs:
        raise QueryError(422, f"the {spec.ruleset} timing model cites edition {spec.citation_edition}, which is "
                              f"not built, so its citations cannot be carried to edition {edition}",
                         {"field": "edition", "edition": edition, "citation_edition": spec.citation_edition})


def explainer_for(kb: LoadedEditions, spec: RulesetModel, edition: str | None) -> Explainer:
    """The explainer of a run or ``next`` in ``edition`` (the model's own by default): in an
    edition the model does not cite directly, every rule number it gives is carried to that
    edition's numbering first (:class:`kb.timing.explain.Renumbering`), and a cited rule with
    no counterpart there is said in the trace."""
    edition = edition or spec.citation_edition
    rg = graph_for(kb, spec, edition)
    if spec.citations_for(edition) is not None:
        return Explainer(rg, spec.ruleset, edition)
    targets = _targets(kb, spec.ruleset, edition)

    def carry(number: str) -> dict[str, Any]:
        return targets[number] if number in targets else _target(kb, spec.ruleset, edition, number)
    return Explainer(rg, spec.ruleset, edition, Renumbering(spec.citation_edition, carry))


def carried_citations(kb: LoadedEditions, spec: RulesetModel,
                      edition: str) -> tuple[dict[str, tuple[str, ...]], list[dict[str, Any]]] | None:
    """The model's citations in ``edition``'s numbering and the citations with no counterpart.

    The model's own tables come first; otherwise each cited number is carried from the
    edition the model cites through the one mapping between editions (:mod:`kb.editions`).
    None when the knowledge base lacks either edition.
    """
    own = spec.citations_for(edition)
    if own is not None:
        return {name: tuple(rules) for name, rules in own.items()}, []
    if (spec.ruleset, edition) not in kb.graphs or (spec.ruleset, spec.citation_edition) not in kb.graphs:
        return None
    # A build carries them to every edition (kb.timing.stored); computed here for a build
    # that did not store them (an older build, a knowledge base held in memory).
    return _stored_carried(kb, spec.ruleset, edition) or _carried(kb, spec.ruleset, edition)


@derived
def _stored_carried(kb: LoadedEditions, ruleset: str,
                    edition: str) -> tuple[dict[str, tuple[str, ...]], list[dict[str, Any]]] | None:
    """The citations the build carried to ``edition`` (None when it stored none), read once."""
    if kb.build_dir is None:
        return None
    return read_carried(stored_citations_path(kb.build_dir, ruleset, edition))


@derived
def _carried(kb: LoadedEditions, ruleset: str,
             edition: str) -> tuple[dict[str, tuple[str, ...]], list[dict[str, Any]]]:
    """The ruleset model's citations carried to ``edition`` (see :func:`carried_citations`),
    once per build."""
    return assemble(get_model(ruleset).citations, _targets(kb, ruleset, edition))


@derived
def _targets(kb: LoadedEditions, ruleset: str, edition: str) -> dict[str, dict[str, Any]]:
    """Where each rule the ruleset's model cites is in ``edition`` (as
    :func:`kb.editions.queries.map_number` says it), once per build."""
    spec = get_model(ruleset)
    return {number: _target(kb, ruleset, edition, number)
            for number in sorted({n for rules in spec.citations.values() for n in rules}
                                 | set(spec.keyword_rules.values()))}


def refuse_absent_keywords(kb: LoadedEditions, spec: RulesetModel, model: Any, edition: str) -> None:
    """Refuse (FormatError naming the card) a keyword the model plays that ``edition`` does not
    have: its defining rule has no counterpart there and the edition is known whole (``added``:
    it came after; ``removed``). An excerpt lacking the rule cannot tell, and runs."""
    if spec.citations_for(edition) is not None or not spec.keyword_rules:
        return
    targets = _targets(kb, spec.ruleset, edition)
    for keyword, field in spec.keywords_used(model).items():
        rule = spec.keyword_rules[keyword]
        where = targets.get(rule) or _target(kb, spec.ruleset, edition, rule)
        if where["target"] is None and where["status"] in ("added", "removed"):
            when = "it came in a later edition" if where["status"] == "added" else "it was removed before it"
            raise FormatError(f"{spec.ruleset} {edition} has no {keyword}: {when} (the model plays {keyword} by "
                              f"rule {rule} of {spec.citation_edition}), so a card with it cannot be played by "
                              f"{edition}'s rules; run the scenario in {spec.citation_edition}", field)


def _target(kb: LoadedEditions, ruleset: str, edition: str, number: str) -> dict[str, Any]:
    """Where one rule number of the model's citation edition is in ``edition``."""
    try:
        return map_number(kb, ruleset, number, get_model(ruleset).citation_edition, edition)
    except QueryError as exc:  # the source edition is an excerpt without this rule
        return {"target": None, "status": "unknown", "reason": exc.message}


def run_json(result: RunResult, explainer: Explainer, budget: AnswerBudget | None = None) -> dict[str, Any]:
    """A run as the JSON the CLI prints and the API returns (each frame's explanation counted
    into ``budget``, which holds its states already)."""
    sc = result.scenario
    budget = budget if budget is not None else AnswerBudget()
    return {
        "ok": result.ok,
        "name": sc.name, "ruleset": sc.ruleset, "edition": sc.edition, "file": sc.file,
        "frames": [_explained(explainer.frame_json(f.node, f.step, f.state, f.note), budget, f.step)
                   for f in result.frames],
        "expectations": [{"step": e.step, "kind": e.kind, "ok": e.ok, "expected": e.expected,
                          "actual": e.actual, "failed": e.failed,
                          **({"forbidden_by": e.forbidden_by} if e.forbidden_by else {})}
                         for e in result.expectations],
        "error": result.error,
        "state": (budget.add(result.spec.state_json(result.model, result.final), "the final state")
                  if result.final is not None else None),
    }


def _explained(frame: dict[str, Any], budget: AnswerBudget, step: int) -> dict[str, Any]:
    """Count a frame's explanation (its state is counted when the run makes it)."""
    budget.add({k: v for k, v in frame.items() if k != "state"}, f"step {step}")
    return frame


def timing_run(kb: LoadedEditions, scenario: Any, file: str = "", *,
               trusted: bool = False) -> dict[str, Any]:
    """Run a scenario given as a dict (parsed YAML). A ``trusted`` scenario (the repository's
    own worked scenarios, which the explorer and the export run) keeps to the budgets of
    frames and bytes but not to the wall-time deadline, which guards a request against a
    scenario someone sent: on a busy machine a worked scenario must not drop out of a page."""
    budget = AnswerBudget()
    explainer: Explainer | None = None
    try:
        sc = parse(scenario, file)
        spec = get_model(sc.ruleset)
        # What a build derives once for an edition (its graph read from disk, the model's
        # citations carried to it) is not the question's time: the deadline starts with the
        # run, or the first run in an older edition could be refused on a busy machine.
        explainer = explainer_for(kb, spec, sc.edition)
        with nullcontext() if trusted else deadline(TIMING_TIME):
            result = run(sc, budget, renumber=explainer.rules,
                         admit=lambda model: refuse_absent_keywords(kb, spec, model, sc.edition))
            return run_json(result, explainer, budget)
    except ScenarioError as exc:
        exc = _said_in_rules(exc, explainer)
        raise QueryError(422, str(exc), exc.as_dict()) from exc


def _said_in_rules(exc: ScenarioError, explainer: Explainer | None) -> ScenarioError:
    """A model's refusal that can say more with the run's edition (a Magic keyword the model
    does not play, named by its rule 702.N: its ``said_in(graph)``), said with it."""
    said_in = getattr(exc.__cause__, "said_in", None)
    if said_in is None or explainer is None:
        return exc
    return ScenarioError(said_in(explainer.graph), exc.file, exc.step, exc.field, exc.line)


def _take(model: Any, spec: RulesetModel, explainer: Explainer, outcome: engine.Outcome,
          choose: Any) -> tuple[engine.Outcome, dict[str, Any]]:
    """Take the option whose action is ``choose`` at ``outcome``'s decision, then advance."""
    d = outcome.decision
    if d is None:
        raise QueryError(422, "nobody decides in this state: there is no option to choose", {"field": "choose"})
    legal = next((o for o in d.options if spec.option_action(o) == choose), None)
    if legal is None:
        illegal = next((o for o in d.illegal if spec.option_action(o) == choose), None)
        if illegal is not None:
            why = "; ".join(f"{c.summary} ({', '.join(explainer.rules(c.rules))})" for c in illegal.forbidden_by)
            raise QueryError(422, f"not legal now: {illegal.label}: {why}",
                             {"field": "choose", "rules": explainer.rules(r for c in illegal.forbidden_by
                                                                          for r in c.rules)})
        raise QueryError(422, f"not one of {d.decider}'s options now", {
            "field": "choose", "options": [spec.option_action(o) for o in d.options]})
    node = engine.apply(model, outcome.state, legal.transition.name, legal.params)
    chosen = {**explainer.option_json(legal, choose), "detail": [explainer.node_json(c) for c in node.children]}
    return engine.advance(model, node.after), chosen


def timing_next(kb: LoadedEditions, state: Any, ruleset: str | None = None,
                edition: str | None = None, choose: Any = None) -> dict[str, Any]:
    """The automatic steps from ``state`` until a decision, then the decision with every legal
    option and the tempting illegal ones (each with the rules that forbid it).

    ``choose`` (a legal option's ``action``, as a scenario step) takes that option at the
    decision reached; the answer is then what happens after it, with ``chosen``: the option
    taken, with its rules and the steps inside it. An action that is not a legal option there
    is refused with 422 (naming the rules that forbid it, or the options there are)."""
    if isinstance(state, dict) and ruleset is None:
        ruleset = state.get("ruleset")
    if ruleset is not None and not isinstance(ruleset, str):
        raise QueryError(400, "malformed state: ruleset is a name", {"field": "ruleset"})
    spec = spec_for(ruleset or "riftbound")
    check_budget(state)
    if edition is not None:  # an edition asked for is one the model can serve, whatever the state
        graph_for(kb, spec, edition)
    try:
        model, s, violations = spec.state_from_json(state, edition)
    except FormatError as exc:
        if (said_in := getattr(exc, "said_in", None)) is not None:  # with the rules (see _said_in_rules)
            own = state.get("edition") if isinstance(state, dict) else None
            try:
                exc = FormatError(said_in(graph_for(kb, spec, edition or (own if isinstance(own, str) else None))),
                                  exc.field)
            except QueryError:  # an edition the model cannot serve: the refusal as the model says it
                pass
        raise QueryError(400, f"malformed state: {exc}", {"field": exc.field}) from exc
    # A model that follows several editions' rules reads the edition from the state.
    edition = edition or getattr(model, "citation_edition", None) or spec.citation_edition
    explainer = explainer_for(kb, spec, edition)
    try:
        refuse_absent_keywords(kb, spec, model, edition)
    except FormatError as exc:
        raise QueryError(422, str(exc), {"field": exc.field, "edition": edition}) from exc
    # What a build derives once for the edition is not the question's time (as in timing_run).
    with deadline(TIMING_TIME):
        violations = violations + model.validate(s)
        if violations:
            raise QueryError(422, "the rules cannot produce this state: " + "; ".join(
                f"{v.message} (rule {', '.join(explainer.rules(v.rules))})" for v in violations),
                {"violations": [{**v.as_dict(), "rules": explainer.rules(v.rules),
                                 "quotes": [explainer.quote(r) for r in v.rules]} for v in violations]})
        chosen = None
        try:
            outcome = engine.next_steps(model, s)
            if choose is not None:
                outcome, chosen = _take(model, spec, explainer, outcome, choose)
        except InvalidState as exc:  # pragma: no cover - validated above
            raise QueryError(422, str(exc), {"violations": [v.as_dict() for v in exc.violations]}) from exc
        except TimingError as exc:
            raise QueryError(422, str(exc), {"rules": explainer.rules(exc.rules)}) from exc
        budget = AnswerBudget()
        frames = []
        for i, n in enumerate(outcome.steps, start=1):
            budget.frame(f"automatic step {i}")
            frames.append(budget.add(explainer.frame_json(n, 0, spec.state_json(model, n.after)),
                                     f"automatic step {i}"))
        decision = None
        if outcome.decision is not None:
            d = outcome.decision
            decision = {"decider": d.decider,
                        "options": [budget.add(explainer.option_json(o, spec.option_action(o)), "options")
                                    for o in d.options],
                        "illegal": [budget.add(explainer.option_json(o, spec.option_action(o)), "illegal options")
                                    for o in d.illegal]}
        end = None
        if outcome.end is not None:
            end = {"reason": outcome.end[0], "rules": explainer.rules(outcome.end[1]),
                   "quotes": [explainer.quote(r) for r in outcome.end[1]]}
        return {"ok": True, "ruleset": spec.ruleset, "edition": edition, "steps": frames, "decision": decision,
                "end": end, "state": budget.add(spec.state_json(model, outcome.state), "the state reached"),
                **({"chosen": budget.add(chosen, "the option chosen")} if chosen is not None else {})}


def timing_check(kb: LoadedEditions, ruleset: str | None = None, edition: str | None = None) -> dict[str, Any]:
    """Check the model's citations against an edition; in an edition the model does not cite
    directly, its citations are carried through the edition mapping and the transitions
    with no counterpart there are reported."""
    spec = spec_for(ruleset or "riftbound")
    if edition and spec.citations_for(edition) is None:
        rg = kb.edition(spec.ruleset, edition)
        carried = carried_citations(kb, spec, rg.edition.name)
        if carried is None:
            raise QueryError(404, f"edition {spec.citation_edition} of {spec.ruleset}, which the timing model "
                              f"cites, is not built; its citations cannot be carried to {edition}",
                         {"citation_edition": spec.citation_edition})
        citations, gaps = carried
        report = check_citations(spec, rg, citations=citations,
                                 coverage=_carried_coverage(kb, spec, rg.edition.name))
        report["carried_from"] = spec.citation_edition
        report["no_counterpart"] = gaps
        return report
    rg = graph_for(kb, spec, edition, required=True)
    assert rg is not None
    return check_citations(spec, rg)


def _carried_coverage(kb: LoadedEditions, spec: RulesetModel, edition: str) -> tuple[tuple[str, str], ...]:
    """The model's coverage ranges in another edition: each end carried through the mapping
    (a range whose ends have no counterpart there is left out)."""
    out = []
    for first, last in spec.coverage:
        try:
            ends = [map_number(kb, spec.ruleset, n, spec.citation_edition, edition)["target"] for n in (first, last)]
        except QueryError:
            continue
        if all(ends):
            lo, hi = (e.split(".")[0] for e in ends)
            out.append((lo, hi))
    return tuple(out)


def transitions_citing(ruleset: str, edition: str, number: str,
                       kb: LoadedEditions | None = None) -> list[dict[str, Any]]:
    """Transitions, steps, checks and invariants whose citations include ``number`` (in
    ``edition``'s numbering: carried through the edition mapping when ``kb`` is given)."""
    try:
        spec = get_model(ruleset)
    except FormatError:
        return []
    citations: Mapping[str, Any] | None = spec.citations_for(edition)
    if citations is None and kb is not None:
        carried = carried_citations(kb, spec, edition)
        citations = carried[0] if carried else None
    if citations is None:
        return []
    model = _model(spec)
    out = []
    for name, rules in citations.items():
        if number not in rules:
            continue
        kind, description = "transition", name
        if name.startswith("check."):
            check = model.checks.get(name[6:])
            kind, description = "check", check.summary if check else name
        elif name.startswith("invariant."):
            inv = next((i for i in model.invariants if i.name == name[10:]), None)
            kind, description = "invariant", inv.summary if inv else name
        elif name.startswith("state."):
            kind, description = "state-check", spec.state_checks.get(name[6:], name)
        elif name in model.transitions:
            t = model.transitions[name]
            kind, description = t.kind, t.summary
        out.append({"name": name, "model": spec.ruleset, "kind": kind, "description": description,
                    "rules": list(rules)})
    return out


_MODELS: dict[str, Any] = {}


def _model(spec: RulesetModel) -> Any:
    if spec.ruleset not in _MODELS:
        _MODELS[spec.ruleset] = spec.make()
    return _MODELS[spec.ruleset]
