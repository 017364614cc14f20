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
