"""The invariant explorations' one loop: every decision sequence, every node checked."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from kb.timing import engine
from kb.timing.engine import Exploration, TraceNode


def explore_checked(model: Any, state: Any, depth: int,
                    violations: Callable[[Any, TraceNode], Iterable[str]]
                    ) -> tuple[Exploration, Counter[str], list[str]]:
    """Explore ``depth`` decisions from ``state``: the exploration's counts, how often each
    transition was taken, and every violation found, with the label of its node."""
    seen: Counter[str] = Counter()
    broken: list[str] = []

    def visit(node: TraceNode) -> None:
        seen[node.name] += 1
        for v in violations(model, node):
            broken.append(f"{v} at {node.label}")

    return engine.explore(model, state, depth, visit), seen, broken


def with_options(node_violations: Callable[[Any, TraceNode], Iterable[str]],
                 option_violations: Callable[[Any, Any], Iterable[str]]
                 ) -> Callable[[Any, TraceNode], Iterator[str]]:
    """A node's violations, and where a decision was taken or priority received, those of the
    options listed in the state after it (the keyword explorations' check)."""
    def checked(model: Any, node: TraceNode) -> Iterator[str]:
        yield from node_violations(model, node)
        if node.transition.kind == "decision" or node.name == "receive-priority":
            yield from option_violations(model, node.after)
    return checked


# A rule a step may cite only where its condition holds: (rule, the condition in words, whether
# it holds for a node given the nodes it is a step of, outermost first).
CitedCondition = tuple[str, str, Callable[[TraceNode, tuple[TraceNode, ...]], bool]]


def cited_where_they_apply(conditions: Iterable[CitedCondition]) -> Callable[[Any, TraceNode], Iterator[str]]:
    """A check for :func:`explore_checked`: every node of a whole transition (and each of its
    steps, which see the nodes they are part of) that cites a rule of ``conditions`` where the
    rule's condition does not hold: a step quoting a rule that does not apply in its state."""
    table = tuple(conditions)

    def check(model: Any, node: TraceNode) -> Iterator[str]:
        if node.transition.kind == "step":  # seen inside the whole transition, with its ancestors
            return

        def walk(n: TraceNode, ancestors: tuple[TraceNode, ...]) -> Iterator[str]:
            for rule, condition, holds in table:
                if rule in n.rules and not holds(n, ancestors):
                    yield f"{n.name} cites {rule} but not {condition}"
            for child in n.children:
                yield from walk(child, ancestors + (n,))
        yield from walk(node, ())
    return check
