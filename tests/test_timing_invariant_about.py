"""An invariant that names the transitions it is about (``Invariant.about``) is asked only of
their nodes (kb.timing.engine): the explorations skip it elsewhere. That is sound only if it
holds of every other node by its own first test, without reading the node's states: checked
here for every such invariant of every model and every other transition of the model, on a node
whose params and states fail the test if anything reads them."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing.engine import Invariant, TraceNode
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.riftbound import scenario as riftbound_scenario

MODELS = {
    "riftbound": lambda: riftbound_scenario.setup({"players": [{"name": "Ann"}, {"name": "Bo"}]})[0],
    "mtg": lambda: mtg_scenario.setup({"players": [{"name": "Ann"}, {"name": "Bo"}]})[0],
}


class Unread:
    """A node's params or state that no invariant may read off its own transitions."""

    def __init__(self, what: str):
        self._what = what

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"read {self._what}.{name}")

    def __getitem__(self, key: Any) -> Any:
        raise AssertionError(f"read {self._what}[{key!r}]")

    def get(self, key: Any, default: Any = None) -> Any:
        raise AssertionError(f"read {self._what}.get({key!r})")


def _about(name: str) -> list[tuple[Any, Invariant]]:
    model = MODELS[name]()
    return [(model, i) for i in model.invariants if i.about is not None]


@pytest.mark.parametrize("ruleset", sorted(MODELS))
def test_every_invariant_about_some_transitions_holds_of_every_other_by_its_first_test(ruleset: str) -> None:
    cases = _about(ruleset)
    for model, inv in cases:
        assert inv.about <= set(model.transitions), f"{inv.name} names no transition of the model"
        for name, transition in model.transitions.items():
            if name in inv.about:
                continue
            node = TraceNode(transition, Unread("params"), Unread("before"), Unread("after"))  # type: ignore[arg-type]
            assert inv.holds(node) is True, f"{inv.name} on a {name} node"


def test_the_riftbound_model_names_what_most_of_its_invariants_are_about() -> None:
    # The check above is not vacuous: most of Riftbound's invariants say what they are about.
    assert len(_about("riftbound")) >= 10
