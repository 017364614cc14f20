"""The interface every game's timing model offers the runner, ``next``, ``check`` and the API
(:class:`RulesetModel`), and the registry a game's package declares its checks and
transitions with (:class:`Registry`): module-level functions, each registered by decorator
under the name its rules are cited by.

A game is a package (``kb/timing/models/riftbound/``): citations as data, cards, the state
(its JSON from :mod:`kb.timing.models.codec`), checks, transitions, instructions; its
``__init__`` defines the :class:`RulesetModel` subclass that :mod:`kb.timing.models` lists.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from kb.timing.engine import Check, Model, Option, Params, Rules, Trace, TraceNode, Transition, TransitionKind, Violation

M = TypeVar("M", bound=Model)
S = TypeVar("S")


class RulesetModel(ABC, Generic[M, S]):
    """Everything the runner, ``next`` and ``check`` need from one game's model.

    Subclasses set the class attributes and implement the abstract methods; ``M`` is the
    game's :class:`kb.timing.engine.Model`, ``S`` its state."""

    ruleset: ClassVar[str]
    title: ClassVar[str]
    citation_edition: ClassVar[str]
    citations: ClassVar[Mapping[str, Rules]]
    coverage: ClassVar[tuple[tuple[str, str], ...]]  # rule ranges every rule of which should be cited
    expect_keys: ClassVar[tuple[str, ...]]
    actions: ClassVar[tuple[str, ...]]
    state_checks: ClassVar[Mapping[str, str]]  # what each ``state.*`` citation refuses
    citations_by_edition: ClassVar[Mapping[str, Mapping[str, Rules]]] = {}
    coverage_by_edition: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {}
    state_line: ClassVar[Callable[[Mapping[str, Any]], str] | None] = None  # one line per frame (the CLI)
    # Each keyword the model plays → the rule defining it, in the citation edition's numbering: in
    # an edition without that rule's counterpart a card with the keyword is refused (not every
    # edition has every keyword)
    keyword_rules: ClassVar[Mapping[str, str]] = {}

    @abstractmethod
    def make(self) -> M:
        """The model over an empty card pool (for ``check`` and the rules' index)."""

    @abstractmethod
    def setup(self, data: Mapping[str, Any]) -> tuple[M, S]:
        """The model and first state of a scenario (its players, cards, set-up)."""

    @abstractmethod
    def state_json(self, model: M, state: S) -> dict[str, Any]:
        """A state as plain JSON (every frame's ``state``)."""

    @abstractmethod
    def state_from_json(self, data: Any, edition: str | None = None) -> tuple[M, S, list[Violation]]:
        """A state read back: malformed input raises FormatError naming the field; states the
        rules cannot produce come back as violations."""

    @abstractmethod
    def action(self, kind: str, payload: Any, state: S) -> list[tuple[str, dict[str, Any]]]:
        """The decision(s) a scenario step names, as (transition, params); the first legal is taken."""

    @abstractmethod
    def check_references(self, model: M, state: S, kind: str, params: Mapping[str, Any]) -> None:
        """Refuse (FormatError) names in an action that the scenario never introduced."""

    @abstractmethod
    def option_action(self, option: Option) -> dict[str, Any]:
        """A decision written as a scenario step (so a client can replay it)."""

    @abstractmethod
    def observe(self, model: M, state: S, key: str) -> Any:
        """The actual value an ``expect`` key compares against."""

    @abstractmethod
    def resolved(self, node: TraceNode) -> list[str]:
        """The items that finished resolving in a trace node."""

    def keywords_used(self, model: M) -> dict[str, str]:
        """The keywords of :attr:`keyword_rules` the model's cards have, each with the field of
        the first card that has it (where a refusal names it)."""
        return {}

    def awaits_choice(self, state: S) -> str | None:
        """An optional choice due now (the item's name), which a scenario performs by default."""
        return None

    def default_decision(self, model: M, state: S) -> tuple[str, dict[str, Any], str, str] | None:
        """A decision due now that a scenario may leave to the model: its transition, the model's
        option, the note saying so, and the scenario step that makes it instead."""
        return None

    @property
    def editions(self) -> tuple[str, ...]:
        """The editions whose numbers the model cites."""
        return tuple(dict.fromkeys([self.citation_edition, *self.citations_by_edition]))

    @property
    def follows_editions(self) -> bool:
        """Whether the model plays by the edition it runs (its steps differ between the
        editions it cites, as Magic's legend rule does), so it runs by those editions only;
        a model that does not runs by any edition of its ruleset, its citations carried there."""
        return bool(self.citations_by_edition)

    def citations_for(self, edition: str | None) -> Mapping[str, Rules] | None:
        """The citations in an edition's own numbering, or None if the model does not carry them there."""
        edition = edition or self.citation_edition
        if edition == self.citation_edition:
            return self.citations
        return self.citations_by_edition.get(edition)

    def coverage_for(self, edition: str | None) -> tuple[tuple[str, str], ...]:
        """The rule ranges to report coverage of in an edition."""
        return self.coverage_by_edition.get(edition or self.citation_edition, self.coverage)


# -- declaring checks and transitions ------------------------------------------------------------
@dataclass(frozen=True)
class CheckSpec:
    """A legality check as declared: ``holds(model, state, params)``, cited as ``cites``."""

    name: str
    cites: str
    summary: str
    holds: Callable[..., bool]
    tempting: bool = True


@dataclass(frozen=True)
class TransitionSpec:
    """A transition as declared: ``bindings(model, state)`` and ``effect(model, state, params, trace)``
    are module-level functions (None for a step that only records that a rule applied)."""

    name: str
    kind: TransitionKind
    summary: str
    text: str = ""
    pre: tuple[str, ...] = ()
    bindings: Callable[..., Iterable[Params]] | None = None
    effect: Callable[..., Any] | None = None


class Registry:
    """A game's checks and transitions, each a module-level function registered by decorator
    and cited from the game's one table of citations (by its name, or ``check.NAME``).

    ``build(model)`` makes the engine's :class:`Check` and :class:`Transition` objects bound to
    one model (its card pool), in the order of the citation table, so that the order options
    are listed in does not depend on which module was imported first."""

    def __init__(self, citations: Mapping[str, Rules]):
        self.citations = citations
        self.checks: dict[str, CheckSpec] = {}
        self.transitions: dict[str, TransitionSpec] = {}
        self._sorted: tuple[tuple[int, int], list[CheckSpec], list[TransitionSpec]] | None = None

    def check(self, name: str, summary: str, *, cites: str | None = None,
              tempting: bool = True) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
        """Register ``holds(model, state, params) -> bool`` as the check ``name``."""
        def register(fn: Callable[..., bool]) -> Callable[..., bool]:
            self._add(self.checks, name, CheckSpec(name, cites or f"check.{name}", summary, fn, tempting))
            return fn
        return register

    def transition(self, name: str, kind: TransitionKind, summary: str, text: str = "", *,
                   pre: tuple[str, ...] = (), bindings: Callable[..., Iterable[Params]] | None = None
                   ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Register ``effect(model, state, params, trace) -> state`` as the transition ``name``."""
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            self._add(self.transitions, name, TransitionSpec(name, kind, summary, text, pre, bindings, fn))
            return fn
        return register

    def step(self, name: str, summary: str, text: str = "") -> None:
        """Declare a step that only records that its rules applied (``trace.note``)."""
        self._add(self.transitions, name, TransitionSpec(name, "step", summary, text))

    def _add(self, table: dict[str, Any], name: str, spec: Any) -> None:
        if name in table:
            raise ValueError(f"{name!r} is registered twice")
        cites = spec.cites if isinstance(spec, CheckSpec) else name
        if cites not in self.citations:
            raise ValueError(f"{name!r} cites nothing: add {cites!r} to the table of citations")
        table[name] = spec

    def _ordered(self) -> tuple[list[CheckSpec], list[TransitionSpec]]:
        """The declarations in the order of the citation table (computed once per registration)."""
        if self._sorted is None or self._sorted[0] != (len(self.checks), len(self.transitions)):
            index = {n: i for i, n in enumerate(self.citations)}
            self._sorted = ((len(self.checks), len(self.transitions)),
                            sorted(self.checks.values(), key=lambda c: index[c.cites]),
                            sorted(self.transitions.values(), key=lambda t: index[t.name]))
        return self._sorted[1], self._sorted[2]

    def build(self, model: Model, citations: Mapping[str, Rules] | None = None
              ) -> tuple[dict[str, Check], dict[str, Transition]]:
        """The checks and transitions of ``model``, their functions bound to it, citing
        ``citations`` (the same names in an edition's own numbering) or the registry's table."""
        partial = functools.partial
        cited = self.citations if citations is None else citations
        check_specs, transition_specs = self._ordered()
        checks = {c.name: Check(c.name, cited[c.cites], c.summary, partial(c.holds, model), c.tempting)
                  for c in check_specs}
        transitions = {t.name: Transition(t.name, t.kind, cited[t.name], t.summary, t.text,
                                          tuple(checks[x] for x in t.pre),
                                          partial(t.bindings, model) if t.bindings else None,
                                          partial(t.effect, model) if t.effect else None)
                       for t in transition_specs}
        return checks, transitions


__all__ = ["CheckSpec", "Registry", "RulesetModel", "Trace", "TransitionSpec"]
