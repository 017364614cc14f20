"""The worked scenarios as examples: where in them a transition of the timing model happens.

A rule page shows, for each transition that implements the rule, the first frame of a
worked scenario in which that transition (or a step it explains) happens, so a judge can
watch the rule at work. Answering it means running every worked scenario of the ruleset
once per build; the runs are kept (:func:`worked_run`) and shared with whoever shows a
worked scenario (the explorer, the static export).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kb.derived import derived
from kb.errors import QueryError
from kb.loaded import LoadedEditions
from kb.timing import list_scenarios, load_scenario, scenario_files
from kb.timing.api import timing_run


@dataclass(frozen=True)
class WorkedStep:
    """A place in a worked scenario: its name, the 1-based frame and the frame's summary."""

    scenario: str
    frame: int
    summary: str


@derived
def worked_scenarios(editions: LoadedEditions) -> list[dict[str, Any]]:
    """The worked scenarios shipped with the package (:func:`kb.timing.list_scenarios`:
    parsing every file takes about half a second), read once per build."""
    return list_scenarios()


@derived
def worked_names(editions: LoadedEditions) -> frozenset[str]:
    """Every name a worked scenario can be asked for (``NAME`` and ``RULESET/NAME``)."""
    return frozenset(n for s in worked_scenarios(editions) for n in (s["name"], f"{s['ruleset']}/{s['name']}"))


@derived
def worked_source(editions: LoadedEditions, name: str) -> str:
    """The YAML text of a worked scenario (``NAME`` or ``RULESET/NAME``), as shipped.
    KeyError for an unknown name."""
    ruleset, _, stem = name.rpartition("/")
    for f in scenario_files(ruleset or None):
        if f.stem == stem:
            return f.read_text(encoding="utf-8")
    raise KeyError(name)


@derived
def worked_run(editions: LoadedEditions, name: str) -> dict[str, Any]:
    """The run of the worked scenario ``name`` (``NAME`` or ``RULESET/NAME``), as ``rulekb
    timing run`` answers it, once per build. KeyError for an unknown name."""
    return timing_run(editions, load_scenario(name), f"{name}.yaml", trusted=True)


@derived
def first_steps(editions: LoadedEditions, ruleset: str) -> Mapping[str, WorkedStep]:
    """Trace event → where it first happens in the worked scenarios of ``ruleset``, in their
    order, a step's explanation included (each ruleset's scenarios run when its first rule
    page asks). A scenario the knowledge base cannot run (its edition is not built) is left out."""
    found: dict[str, WorkedStep] = {}

    def visit(name: str, frame: int, node: dict[str, Any]) -> None:
        found.setdefault(node.get("event", ""), WorkedStep(name, frame, node.get("summary", "")))
        for child in node.get("detail") or node.get("children") or []:
            visit(name, frame, child)

    for scenario in worked_scenarios(editions):
        if scenario["ruleset"] != ruleset:
            continue
        try:
            run = worked_run(editions, scenario["name"])
        except QueryError:
            continue
        for i, frame in enumerate(run["frames"], start=1):
            visit(scenario["name"], i, frame)
    return found


def example_of(editions: LoadedEditions, ruleset: str, transition: str) -> WorkedStep | None:
    """The first step of a worked scenario of ``ruleset`` where the transition ``transition``
    happens, or None when no worked scenario shows it."""
    return first_steps(editions, ruleset).get(transition)


__all__ = ["WorkedStep", "example_of", "first_steps", "worked_names", "worked_run", "worked_scenarios",
           "worked_source"]
