"""The site's timing explorer diagram (web/site/svg.py TIMING_DIAGRAMS) places every frame's event
in a node of the procedure: a frame is a decision or an automatic step of the model, and one the
diagram does not place lights no node. A table of the events placed last, and every decision and
automatic transition of both models placed in exactly one node."""

from __future__ import annotations

import pytest

from kb.timing.models.mtg import Magic
from kb.timing.models.riftbound import Riftbound
from web.site import svg

MODELS = {"riftbound": Riftbound({}), "mtg": Magic({})}


@pytest.mark.parametrize("ruleset,event,node", [
    # Riftbound: paying is a step of finalizing (357, 404, 429.3)
    ("riftbound", "pay-cost", "finalize"),
    ("riftbound", "decline-cost", "finalize"),
    ("riftbound", "cost-unpaid", "finalize"),
    ("riftbound", "add-while-paying", "finalize"),
    ("riftbound", "trigger-used-up", "finalize"),
    # an attaching play effect's unit or Equipment is chosen as it is finalized (402.2)
    ("riftbound", "choose-attachment", "finalize"),
    # a "you may" replacement is chosen before the death it replaces, as an item resolves (371.2.a)
    ("riftbound", "apply-replacement", "resolve"),
    ("riftbound", "decline-replacement", "resolve"),
    # the Beginning Phase's steps and the Main Phase's start are tasks (315.2.a, 315.2.b.1)
    ("riftbound", "beginning-step", "tasks"),
    ("riftbound", "hold-battlefields", "tasks"),
    ("riftbound", "main-phase-begins", "tasks"),
    ("riftbound", "concede", "execute"),
    # Magic: special actions and casting from exile are done with priority (116, 117)
    ("mtg", "foretell", "priority"),
    ("mtg", "cast-foretold", "priority"),
    ("mtg", "plot", "priority"),
    ("mtg", "cast-plotted", "priority"),
    ("mtg", "suspend", "priority"),
    ("mtg", "receive-priority-special", "priority"),
    ("mtg", "concede", "priority"),
    ("mtg", "choose-defender", "begin"),
    # some placed before, unchanged
    ("riftbound", "standard-move", "execute"),
    ("riftbound", "cleanup", "tasks"),
    ("mtg", "state-based-actions", "sba"),
])
def test_an_event_lights_its_node(ruleset: str, event: str, node: str) -> None:
    assert svg.timing_step_of(ruleset, event) == node


@pytest.mark.parametrize("ruleset", sorted(MODELS))
def test_every_frame_event_of_the_model_has_one_node(ruleset: str) -> None:
    events = svg.TIMING_DIAGRAMS[ruleset]["events"]
    nodes = {n for n, *_ in svg.TIMING_DIAGRAMS[ruleset]["steps"]}
    assert set(events) <= nodes
    frames = [n for n, t in MODELS[ruleset].transitions.items() if t.kind in ("decision", "automatic")]
    for name in frames:
        placed = [node for node, listed in events.items() if name in listed.split()]
        assert len(placed) == 1, f"{ruleset} event {name!r} is placed in {placed or 'no node'}"


@pytest.mark.parametrize("ruleset", sorted(MODELS))
def test_the_diagram_names_only_the_models_events(ruleset: str) -> None:
    known = set(MODELS[ruleset].transitions)
    listed = {e for v in svg.TIMING_DIAGRAMS[ruleset]["events"].values() for e in v.split()}
    assert listed <= known, sorted(listed - known)
