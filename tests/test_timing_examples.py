"""Where the worked scenarios show a transition at work (kb.timing.examples).

A rule page links each transition that implements the rule to the first frame of a worked
scenario of the same ruleset where it happens; the runs are made once per build and shared
with the explorer.
"""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.timing import list_scenarios
from kb.timing.examples import example_of, first_steps, worked_names, worked_run, worked_source

# (ruleset, transition, whether a worked scenario of that ruleset shows it). Both games name
# resolve, counter, draw, activate and triggers: each finds its own game's scenario.
CASES = [
    ("riftbound", "resolve", True),
    ("mtg", "resolve", True),
    ("riftbound", "counter", True),
    ("mtg", "counter", True),
    ("riftbound", "activate", True),
    ("mtg", "activate", True),
    ("riftbound", "no-such-transition", False),
    ("no-such-ruleset", "resolve", False),
]


@pytest.mark.parametrize("ruleset,transition,shown", CASES)
def test_a_transition_is_shown_by_a_scenario_of_its_own_ruleset(excerpt_kb: KnowledgeBase, ruleset: str,
                                                                  transition: str, shown: bool) -> None:
    step = example_of(excerpt_kb, ruleset, transition)
    assert (step is not None) == shown
    if step is not None:
        own = {s["name"] for s in list_scenarios(ruleset)}
        assert step.scenario in own
        run = worked_run(excerpt_kb, step.scenario)
        assert 1 <= step.frame <= len(run["frames"])
        assert step.summary and run["ruleset"] == ruleset


def test_the_first_step_is_the_earliest_frame_showing_it(excerpt_kb: KnowledgeBase) -> None:
    for event, step in first_steps(excerpt_kb, "riftbound").items():
        run = worked_run(excerpt_kb, step.scenario)
        earlier = [i for i, f in enumerate(run["frames"][:step.frame - 1], start=1) if f.get("event") == event]
        assert earlier == [], (event, step)


def test_runs_are_made_once_per_build(excerpt_kb: KnowledgeBase) -> None:
    name = list_scenarios("riftbound")[0]["name"]
    assert worked_run(excerpt_kb, name) is worked_run(excerpt_kb, name)
    fresh = KnowledgeBase(excerpt_kb.build_dir, excerpt_kb.manifest, dict(excerpt_kb.graphs))
    assert worked_run(fresh, name) is not worked_run(excerpt_kb, name)


def test_a_worked_scenario_is_named_with_or_without_its_ruleset(excerpt_kb: KnowledgeBase) -> None:
    s = list_scenarios("mtg")[0]
    assert {s["name"], f"mtg/{s['name']}"} <= worked_names(excerpt_kb)
    assert worked_source(excerpt_kb, f"mtg/{s['name']}") == worked_source(excerpt_kb, s["name"])
    with pytest.raises(KeyError):
        worked_source(excerpt_kb, "no-such-scenario")
