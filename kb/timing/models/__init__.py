"""Timing models, one per ruleset, behind one small interface (:class:`RulesetModel`).

The engine (:mod:`kb.timing.engine`) knows no game; a ruleset's model supplies the
transitions and everything that reads or writes its states: the scenario set-up, states as
JSON, scenario actions as decisions, and what ``expect`` steps observe. A new game is one
more entry in :data:`MODELS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from kb.timing.engine import FormatError, Model, Option, Rules, TraceNode, Violation


@dataclass(frozen=True)
class RulesetModel:
    """Everything the runner, ``next`` and ``check`` need from one game's model."""

    ruleset: str
    title: str
    citation_edition: str
    citations: Mapping[str, Rules]
    coverage: tuple[tuple[str, str], ...]  # top-level rule ranges every rule of which should be cited
    make: Callable[[], Model]
    setup: Callable[[Mapping[str, Any]], tuple[Model, Any]]
    state_json: Callable[[Any, Any], dict[str, Any]]
    state_from_json: Callable[[Any], tuple[Model, Any, list[Violation]]]
    action: Callable[[str, Any, Any], list[tuple[str, dict[str, Any]]]]
    check_references: Callable[[Any, Any, str, Mapping[str, Any]], None]
    option_action: Callable[[Option], dict[str, Any]]
    observe: Callable[[Any, Any, str], Any]
    expect_keys: tuple[str, ...]
    actions: tuple[str, ...]
    resolved: Callable[[TraceNode], list[str]]
    awaits_choice: Callable[[Any], str | None]  # an optional choice due now: the item's name
    state_checks: Mapping[str, str]  # what each ``state.*`` citation refuses


def _riftbound() -> RulesetModel:
    from kb.timing.models import riftbound as rb
    from kb.timing.models import riftbound_io as io

    def resolved(node: TraceNode) -> list[str]:
        return [n.params["item"] for n in node.walk() if n.name in ("resolve", "resolves-immediately")]

    def awaits_choice(state: Any) -> str | None:
        pend = state.pending
        if pend and state.ready_task() is None and pend[0].optional and not pend[0].decided:
            return pend[0].name
        return None

    return RulesetModel(
        ruleset="riftbound", title="Riftbound Core Rules", citation_edition=rb.CITATION_EDITION,
        citations=rb.CITATIONS, coverage=(("333", "340"), ("347", "348"), ("464", "464")),
        make=rb.Riftbound, setup=io.setup, state_json=io.state_json,  # type: ignore[arg-type]
        state_from_json=io.state_from_json, action=io.action,  # type: ignore[arg-type]
        check_references=io.check_references, option_action=io.option_action,  # type: ignore[arg-type]
        observe=io.observe, expect_keys=io.EXPECT_KEYS, actions=io.ACTIONS,  # type: ignore[arg-type]
        resolved=resolved, awaits_choice=awaits_choice, state_checks=rb.STATE_CHECKS)


_FACTORIES: dict[str, Callable[[], RulesetModel]] = {"riftbound": _riftbound}
_LOADED: dict[str, RulesetModel] = {}


def rulesets() -> list[str]:
    """Rulesets that have a timing model."""
    return sorted(_FACTORIES)


def get_model(ruleset: str) -> RulesetModel:
    """The timing model of a ruleset; FormatError names the ones that exist."""
    if ruleset not in _FACTORIES:
        raise FormatError(f"no timing model for ruleset {ruleset!r} (models: {', '.join(rulesets())})",
                          "ruleset")
    if ruleset not in _LOADED:
        _LOADED[ruleset] = _FACTORIES[ruleset]()
    return _LOADED[ruleset]
