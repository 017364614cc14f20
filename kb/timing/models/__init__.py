"""Timing models, one per ruleset, behind one small interface (:class:`RulesetModel`).

The engine (:mod:`kb.timing.engine`) knows no game; a ruleset's model supplies the
transitions and everything that reads or writes its states: the scenario set-up, states as
JSON, scenario actions as decisions, and what ``expect`` steps observe. A new game is one
more entry in :data:`_FACTORIES` (Riftbound and Magic today).

A model cites the rules of one edition (``citation_edition``); a model that carries its
citations to other editions lists them in ``citations_by_edition`` (and, where the procedure
sits under other numbers there, ``coverage_by_edition``). Its states then say which edition's
rules they follow (``state_from_json(data, edition)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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
    state_from_json: Callable[[Any, str | None], tuple[Model, Any, list[Violation]]]
    action: Callable[[str, Any, Any], list[tuple[str, dict[str, Any]]]]
    check_references: Callable[[Any, Any, str, Mapping[str, Any]], None]
    option_action: Callable[[Option], dict[str, Any]]
    observe: Callable[[Any, Any, str], Any]
    expect_keys: tuple[str, ...]
    actions: tuple[str, ...]
    resolved: Callable[[TraceNode], list[str]]
    awaits_choice: Callable[[Any], str | None]  # an optional choice due now: the item's name
    state_checks: Mapping[str, str]  # what each ``state.*`` citation refuses
    citations_by_edition: Mapping[str, Mapping[str, Rules]] = field(default_factory=dict)
    coverage_by_edition: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    state_line: Callable[[Mapping[str, Any]], str] | None = None  # one line per frame (the CLI)

    @property
    def editions(self) -> tuple[str, ...]:
        """The editions whose numbers the model cites."""
        return tuple(dict.fromkeys([self.citation_edition, *self.citations_by_edition]))

    def citations_for(self, edition: str | None) -> Mapping[str, Rules] | None:
        """The citations in an edition's own numbering, or None if the model does not carry them there."""
        edition = edition or self.citation_edition
        if edition == self.citation_edition:
            return self.citations
        return self.citations_by_edition.get(edition)

    def coverage_for(self, edition: str | None) -> tuple[tuple[str, str], ...]:
        return self.coverage_by_edition.get(edition or self.citation_edition, self.coverage)


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
        state_from_json=lambda data, edition=None: io.state_from_json(data), action=io.action,  # type: ignore[arg-type]
        check_references=io.check_references, option_action=io.option_action,  # type: ignore[arg-type]
        observe=io.observe, expect_keys=io.EXPECT_KEYS, actions=io.ACTIONS,  # type: ignore[arg-type]
        resolved=resolved, awaits_choice=awaits_choice, state_checks=rb.STATE_CHECKS)


def _mtg() -> RulesetModel:
    from kb.timing.models import mtg
    from kb.timing.models import mtg_io as io

    def resolved(node: TraceNode) -> list[str]:
        # Finished resolving: an instant, sorcery or ability left the stack, or a permanent entered.
        return [n.params["spell"] if n.name == "permanent-enters" else n.params["item"] for n in node.walk()
                if n.name == "permanent-enters" or (n.name == "finish-resolution" and n.params.get("resolved"))]

    return RulesetModel(
        ruleset="mtg", title="Magic: The Gathering Comprehensive Rules", citation_edition=mtg.CITATION_EDITION,
        citations=mtg.CITATIONS, coverage=(("117", "117"),),
        make=mtg.Magic, setup=io.setup, state_json=io.state_json,  # type: ignore[arg-type]
        state_from_json=io.state_from_json, action=io.action,  # type: ignore[arg-type]
        check_references=io.check_references, option_action=io.option_action,  # type: ignore[arg-type]
        observe=io.observe, expect_keys=io.EXPECT_KEYS, actions=io.ACTIONS,  # type: ignore[arg-type]
        resolved=resolved, awaits_choice=lambda state: None, state_checks=mtg.STATE_CHECKS,
        citations_by_edition={e: t for e, t in mtg.CITATIONS_BY_EDITION.items() if e != mtg.CITATION_EDITION},
        coverage_by_edition={mtg.EDITION_2010: (("116", "116"),)}, state_line=io.state_line)


_FACTORIES: dict[str, Callable[[], RulesetModel]] = {"riftbound": _riftbound, "mtg": _mtg}
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
