"""The timing engine: states, transitions, traces. It knows no game.

A game is a :class:`Model`: a set of :class:`Transition` objects (FLINT's acts: a name, the
rules they implement, preconditions, an effect) over immutable states the model defines,
plus :class:`Check` objects (legality checks, each citing the rule that forbids what it
refuses) and :class:`Invariant` objects. Running a transition produces a :class:`TraceNode`
(Catala's trace tree: the transition, the rules it cites, the state before and after, and
child nodes for the steps taken inside it).

"What happens next" (:func:`advance`) applies the one enabled automatic transition, again
and again, until a player must decide; then :func:`decision` lists who decides, every legal
option with its rules, and the tempting illegal ones with the checks that forbid them.
Two enabled automatic transitions are a :class:`Conflict`; a state where nothing applies
and nobody decides is a :class:`NoValue` — both first-class errors, never a silent guess.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from kb.limits import TIMING_AUTOMATIC, check_deadline

Rules = tuple[str, ...]
Params = Mapping[str, Any]
State = Any
TransitionKind = Literal["automatic", "decision", "step"]


# -- errors ------------------------------------------------------------------------------
class TimingError(Exception):
    """Base of every error the engine reports; ``rules`` names the rules involved."""

    rules: Rules = ()


@dataclass(frozen=True)
class Violation:
    """Why a state cannot occur: a message, the rules it breaks, the field at fault."""

    message: str
    rules: Rules
    field: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {"message": self.message, "rules": list(self.rules), "field": self.field}


class InvalidState(TimingError):
    """A state the rules cannot produce (two players with priority, focus outside a showdown…)."""

    def __init__(self, violations: list[Violation]):
        self.violations = violations
        self.rules = tuple(r for v in violations for r in v.rules)
        super().__init__("; ".join(f"{v.message} (rule {', '.join(v.rules)})" for v in violations))


class IllegalAction(TimingError):
    """An action the rules forbid now; ``option`` names the checks that fail."""

    def __init__(self, option: Option, message: str = ""):
        self.option = option
        self.rules = tuple(r for c in option.forbidden_by for r in c.rules)
        why = "; ".join(f"{c.summary} (rule {', '.join(c.rules)})" for c in option.forbidden_by)
        super().__init__(message or f"{option.label} is not legal now: {why}")


class Conflict(TimingError):
    """Two automatic transitions apply at once: the model (or the state) is ambiguous."""

    def __init__(self, candidates: list[tuple[Transition, Params]]):
        self.candidates = candidates
        self.rules = tuple(r for t, _ in candidates for r in t.rules)
        super().__init__("more than one step applies: " + ", ".join(t.label(p) for t, p in candidates))


class FormatError(TimingError):
    """Input (a scenario, a state) that is not well formed; ``field`` says where."""

    def __init__(self, message: str, field: str = ""):
        self.message = message
        self.field = field
        super().__init__(f"{field}: {message}" if field else message)


class NoValue(TimingError):
    """No automatic step applies, nobody has a decision, and the state is not terminal."""


class InvariantBroken(TimingError):
    def __init__(self, invariant: Invariant, node: TraceNode):
        self.invariant = invariant
        self.node = node
        self.rules = invariant.rules
        super().__init__(f"invariant broken after {node.label}: {invariant.summary} "
                         f"(rule {', '.join(invariant.rules)})")


# -- the vocabulary of a model ------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Check:
    """A legality check (a FLINT precondition): it holds, or it forbids with its rules."""

    name: str
    rules: Rules
    summary: str
    holds: Callable[[State, Params], bool]
    tempting: bool = True  # list as a tempting illegal option when it is the one that fails

    def __repr__(self) -> str:
        return f"Check({self.name})"


@dataclass(frozen=True, eq=False)
class Transition:
    """A transition of the procedure (a FLINT act).

    ``kind`` is ``automatic`` (the game performs it when it is the only one enabled),
    ``decision`` (a player chooses it; ``params["player"]`` is who) or ``step`` (a part of
    another transition, recorded as a child node). ``bindings`` lists the candidate
    parameters in a state (for decisions: every attempt worth considering, legal or not);
    ``effect`` returns the new state and may record child steps on the :class:`Trace`.
    """

    name: str
    kind: TransitionKind
    rules: Rules
    summary: str
    text: str = ""  # a sentence about one occurrence, formatted with its params
    preconditions: tuple[Check, ...] = ()
    bindings: Callable[[State], Iterable[Params]] | None = None
    effect: Callable[[State, Params, Trace], State] | None = None

    def label(self, params: Params) -> str:
        """The text about one occurrence; a field ``{flag:words}`` says ``words`` when the
        parameter ``flag`` is true and nothing when it is false or absent. Without a parameter
        a text names, the summary."""
        try:
            return (self.text or self.summary).format_map(_Fields(params))
        except (KeyError, IndexError, ValueError):
            return self.summary

    def failing(self, state: State, params: Params) -> tuple[Check, ...]:
        """The preconditions that do not hold, in declaration order."""
        failed = [c for c in self.preconditions if not c.holds(state, params)]
        return tuple(failed) if failed else ()

    def enabled(self, state: State, params: Params) -> bool:
        """Whether every precondition holds: :meth:`failing` is empty. Stops at the first that
        does not (a check has no effect, so the ones after it need not be asked)."""
        for c in self.preconditions:
            if not c.holds(state, params):
                return False
        return True

    def __repr__(self) -> str:
        return f"Transition({self.name})"


class _Fields(dict):  # type: ignore[type-arg]
    """A transition's params as its text reads them: a flag (a boolean, or a parameter left
    out) with a format spec is the spec's words or nothing; a text parameter with a spec
    holding ``%s`` is those words with its value in place of ``%s`` (``{target: choosing %s}``);
    a tuple of texts (several units moved together) reads as the texts joined by commas."""

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if isinstance(value, bool):
            return _Flag(key, value)
        if isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
            return _Words(", ".join(value))
        return _Words(value) if isinstance(value, str) else value

    def __missing__(self, key: str) -> Any:
        return _Flag(key, None)


class _Words(str):
    """A text parameter: ``%s`` in its format spec stands for its value; other specs as ``str``'s."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return spec.replace("%s", str(self)) if "%s" in spec else str.__format__(self, spec)


class _Flag:
    """A boolean parameter, or one left out, as a text's field reads it."""

    def __init__(self, key: str, value: bool | None):
        self.key, self.value = key, value

    def __format__(self, spec: str) -> str:
        if not spec:  # a plain {flag}: its value, and a parameter the text needs is missing
            if self.value is None:
                raise KeyError(self.key)
            return str(self.value)
        return spec if self.value else ""


@dataclass(frozen=True, eq=False)
class Invariant:
    """A property every step must keep; ``holds`` sees one trace node (with before/after).

    ``about`` names the transitions whose nodes it is about, when it holds of every other node
    by its own first test (``if n.name != "resolve": return True``): it is asked only of those.
    None (the default): it is asked of every node."""

    name: str
    rules: Rules
    summary: str
    holds: Callable[[TraceNode], bool]
    about: frozenset[str] | None = None


@dataclass
class TraceNode:
    """One node of the trace tree: a transition taken, with its params and child steps."""

    transition: Transition
    params: Params
    before: State
    after: State
    children: list[TraceNode] = field(default_factory=list)

    def __post_init__(self) -> None:
        # the transition's name, read by every invariant of every node: an attribute, not a property
        self.name: str = self.transition.name

    @property
    def rules(self) -> Rules:
        return self.transition.rules

    @property
    def label(self) -> str:
        return self.transition.label(self.params)

    def walk(self) -> Iterator[TraceNode]:
        """This node and its descendants, depth first, in the order they happened."""
        # a stack, not nested generators: every step of an exploration is walked
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


class Trace:
    """Collects the child steps of the transition whose effect is running."""

    def __init__(self, model: Model, node: TraceNode):
        self.model = model
        self.node = node

    def step(self, name: str, state: State, params: Params | None = None) -> State:
        """Run a step transition (its effect, if any) and record it as a child node."""
        t = self.model.transitions[name]
        params = dict(params or {})
        child = TraceNode(t, params, state, state)
        self.node.children.append(child)
        if t.effect is not None:
            child.after = t.effect(state, params, Trace(self.model, child))
        return child.after

    def note(self, name: str, state: State, params: Params | None = None) -> None:
        """Record a step that changes nothing itself (a rule that was applied or checked)."""
        self.node.children.append(TraceNode(self.model.transitions[name], dict(params or {}), state, state))


@dataclass(frozen=True)
class Option:
    """A decision a player could take: legal when nothing forbids it."""

    transition: Transition
    params: Params
    forbidden_by: tuple[Check, ...] = ()

    @property
    def legal(self) -> bool:
        return not self.forbidden_by

    @property
    def label(self) -> str:
        return self.transition.label(self.params)

    @property
    def player(self) -> str | None:
        return self.params.get("player")


@dataclass
class Decision:
    """Who must decide now, what they may do, and what they may not (with the rules)."""

    decider: str
    options: list[Option]
    illegal: list[Option] = field(default_factory=list)


@dataclass
class Outcome:
    """The result of :func:`advance`: the automatic steps taken, then a decision or an end."""

    state: State
    steps: list[TraceNode]
    decision: Decision | None
    end: tuple[str, Rules] | None = None


class Model:
    """Base class of a game's timing model. Subclasses fill in the class attributes."""

    ruleset: str = ""
    citation_edition: str = ""
    citations: Mapping[str, Rules] = {}
    transitions: dict[str, Transition] = {}
    checks: dict[str, Check] = {}
    invariants: tuple[Invariant, ...] = ()

    def validate(self, state: State) -> list[Violation]:
        """Every reason ``state`` cannot occur under the rules (empty when it can)."""
        return []

    def terminal(self, state: State) -> tuple[str, Rules] | None:
        """Why the model stops here (a sentence and its rules), or None if play goes on."""
        return None

    def tempting(self, state: State, option: Option) -> bool:
        """Whether an illegal option is worth listing (one a player might try)."""
        return True

    def cited(self) -> dict[str, Rules]:
        """Every transition and check, by name, with the rules it cites."""
        out = {n: t.rules for n, t in self.transitions.items()}
        out.update({n: c.rules for n, c in self.checks.items()})
        out.update({i.name: i.rules for i in self.invariants})
        return out


# -- running -----------------------------------------------------------------------------
def _node(model: Model, t: Transition, state: State, params: Params) -> TraceNode:
    node = TraceNode(t, dict(params), state, state)
    if t.effect is not None:
        node.after = t.effect(state, node.params, Trace(model, node))
    return node


def check_invariants(model: Model, node: TraceNode) -> None:
    """Raise :class:`InvariantBroken` if a step (or any of its children) breaks one."""
    every, by_name = _invariants_of(model)
    for n in node.walk():
        for inv in by_name.get(n.name, every):
            if not inv.holds(n):
                raise InvariantBroken(inv, n)
    broken = model.validate(node.after)
    if broken:
        raise InvariantBroken(Invariant("reachable-state", broken[0].rules,
                                        "the step produced a state the rules cannot produce: "
                                        + broken[0].message, lambda _n: False), node)


def _invariants_of(model: Model) -> tuple[tuple[Invariant, ...], dict[str, tuple[Invariant, ...]]]:
    """The model's invariants to ask of a node: those about every node, and by transition name
    the invariants to ask of that transition's nodes (those about every node and those about
    it), each in declaration order, so the first broken is the one it would be asking them all.
    Kept on the model, rebuilt when ``model.invariants`` holds other objects."""
    current = tuple(model.invariants)
    cached = model.__dict__.get("_engine_invariants")
    if cached is None or cached[0] != current:  # Invariant compares by identity (eq=False)
        every = tuple(i for i in current if i.about is None)
        named = {n for i in current if i.about is not None for n in i.about}
        by_name = {n: tuple(i for i in current if i.about is None or n in i.about) for n in sorted(named)}
        cached = (current, every, by_name)
        model.__dict__["_engine_invariants"] = cached
    return cached[1], cached[2]


def _of_kind(model: Model, kind: TransitionKind) -> tuple[Transition, ...]:
    """The model's transitions of ``kind`` that have bindings, in declaration order.

    Asked once per state explored, so kept on the model; a model may replace its transitions,
    so the list is rebuilt whenever ``model.transitions`` no longer holds the same objects."""
    return _by_kind(model)[kind]


def _by_kind(model: Model) -> dict[str, tuple[Transition, ...]]:
    """The automatic and the decision transitions with bindings (:func:`_of_kind`), both."""
    current = tuple(model.transitions.values())
    cached = model.__dict__.get("_engine_by_kind")
    if cached is None or cached[0] != current:  # Transition compares by identity (eq=False)
        cached = (current, {k: tuple(t for t in current if t.kind == k and t.bindings is not None)
                            for k in ("automatic", "decision")})
        model.__dict__["_engine_by_kind"] = cached
    return cached[1]


def automatic(model: Model, state: State) -> list[tuple[Transition, Params]]:
    """Every enabled automatic transition with its params."""
    return _automatic(_of_kind(model, "automatic"), state)


def _automatic(transitions: tuple[Transition, ...], state: State) -> list[tuple[Transition, Params]]:
    out = []
    for t in transitions:
        for params in t.bindings(state):  # type: ignore[misc]  # _of_kind keeps those with bindings
            if t.enabled(state, params):
                out.append((t, params))
    return out


def options(model: Model, state: State) -> list[Option]:
    """Every candidate decision in ``state``, legal or not."""
    out = []
    for t in _of_kind(model, "decision"):
        for params in t.bindings(state):  # type: ignore[misc]  # _of_kind keeps those with bindings
            out.append(Option(t, dict(params), t.failing(state, params)))
    return out


def _legal_options(transitions: tuple[Transition, ...], state: State) -> list[Option]:
    """The legal ones of :func:`options`, the same objects in the same order: an illegal
    candidate is dropped at the first check that fails, the checks after it not asked (the
    enabled candidates, as :func:`_automatic` finds them)."""
    return [Option(t, dict(params)) for t, params in _automatic(transitions, state)]


def decision(model: Model, state: State, *, with_illegal: bool = True) -> Decision | None:
    """The decision due now, or None. Legal options of two players at once are a Conflict."""
    return _decision(model, state, with_illegal, _of_kind(model, "decision"))


def _decision(model: Model, state: State, with_illegal: bool,
              transitions: tuple[Transition, ...]) -> Decision | None:
    if with_illegal:
        found = options(model, state)
        legal = [o for o in found if o.legal]
    else:  # only the legal options are wanted: which checks forbid the others is not
        legal = _legal_options(transitions, state)
    if not legal:
        return None
    deciders = sorted({o.player for o in legal if o.player is not None})
    if len(deciders) != 1:
        raise Conflict([(o.transition, o.params) for o in legal])
    illegal = []
    if with_illegal:
        illegal = [o for o in found if not o.legal and all(c.tempting for c in o.forbidden_by)
                   and model.tempting(state, o)]
    return Decision(deciders[0], legal, illegal)


def advance(model: Model, state: State, *, limit: int | None = None, invariants: bool = True,
            with_illegal: bool = True) -> Outcome:
    """Take automatic steps until a decision is due or the model reaches an end.

    More than ``limit`` steps in a row (default :data:`kb.limits.TIMING_AUTOMATIC`) raise
    :class:`kb.limits.LimitExceeded`, as does the deadline of the work running
    (:func:`kb.limits.check_deadline`, checked before each step)."""
    steps: list[TraceNode] = []
    limit = TIMING_AUTOMATIC.value if limit is None else limit
    kinds = _by_kind(model)  # the transitions do not change while it runs
    for _ in range(limit + 1):
        check_deadline("an automatic step")
        enabled = _automatic(kinds["automatic"], state)
        if len(enabled) > 1:
            raise Conflict(enabled)
        if enabled:
            t, params = enabled[0]
            if len(steps) == limit:
                raise TIMING_AUTOMATIC.exceeded(f"{t.label(params)} (a loop in the model?)")
            node = _node(model, t, state, params)
            if invariants:
                check_invariants(model, node)
            steps.append(node)
            state = node.after
            continue
        d = _decision(model, state, with_illegal, kinds["decision"])
        if d is not None:
            return Outcome(state, steps, d)
        end = model.terminal(state)
        if end is not None:
            return Outcome(state, steps, None, end)
        raise NoValue("no rule of the model says what happens next in this state")
    raise AssertionError("unreachable: the loop returns or raises")  # pragma: no cover


def apply(model: Model, state: State, name: str, params: Params, *, invariants: bool = True) -> TraceNode:
    """Take a decision. Raises :class:`IllegalAction` (with the forbidding checks) if illegal."""
    t = model.transitions[name]
    failing = t.failing(state, params)
    if failing:
        raise IllegalAction(Option(t, dict(params), failing))
    node = _node(model, t, state, params)
    if invariants:
        check_invariants(model, node)
    return node


def _take(model: Model, state: State, option: Option) -> TraceNode:
    """:func:`apply` of a legal option of ``state``'s decision: its checks, which all held a
    moment ago on the same state and params, are not asked again."""
    t = model.transitions[option.transition.name]
    if t is not option.transition:  # pragma: no cover  # the model's transitions changed since
        return apply(model, state, option.transition.name, option.params)
    node = _node(model, t, state, option.params)
    check_invariants(model, node)
    return node


def next_steps(model: Model, state: State, **kwargs: Any) -> Outcome:
    """Validate a state given from outside, then :func:`advance` from it."""
    broken = model.validate(state)
    if broken:
        raise InvalidState(broken)
    return advance(model, state, **kwargs)


@dataclass
class Exploration:
    """What :func:`explore` saw: states visited, decisions taken, ends reached."""

    states: int = 0
    decisions: int = 0
    ends: int = 0
    steps: int = 0
    max_depth: int = 0


def explore(model: Model, state: State, depth: int,
            visit: Callable[[TraceNode], None] | None = None) -> Exploration:
    """Try every decision sequence up to ``depth`` decisions (states deduplicated).

    Every step is checked against the model's invariants; ``visit`` sees every node.
    """
    stats = Exploration()
    seen: dict[Any, int] = {}

    def walk(state: State, left: int) -> None:
        outcome = advance(model, state, with_illegal=False)
        for node in outcome.steps:
            stats.steps += 1
            if visit:
                for n in node.walk():
                    visit(n)
        key = outcome.state
        known = len(seen)
        before = seen.setdefault(key, left)  # one look-up (a state's hash is costly) for a new state
        if len(seen) == known:  # seen already
            if before >= left:
                return
            seen[key] = left
        stats.states = len(seen)
        if outcome.decision is None:
            stats.ends += 1
            return
        if left == 0:
            return
        stats.max_depth = max(stats.max_depth, depth - left + 1)
        for option in outcome.decision.options:
            stats.decisions += 1
            node = _take(model, outcome.state, option)
            if visit:
                for n in node.walk():
                    visit(n)
            walk(node.after, left - 1)

    walk(state, depth)
    return stats
