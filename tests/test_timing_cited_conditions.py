"""A step cites a rule only where the rule's condition holds: in every decision sequence of the
invariant explorations' card pools (bounded depth), no step quotes a rule about showdowns in a
neutral state, a non-combat showdown's rules after a combat, a chain item's resolution where
none resolves, a spell's rules for an ability, a conquer's Final Point rules for a hold, or
Magic's end of resolution for a spell that did not resolve. The conditions are read from the
rules' own words and computed from the states and the trace, not from the model's helpers; each
must be met at least once (not vacuously true), and a model citing a rule where it does not
apply is caught."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from exploring import CitedCondition, cited_where_they_apply, explore_checked
from kb.timing.engine import TraceNode
import test_timing_invariants as rift
import test_timing_mtg_invariants as magic

RESOLVING = ("resolve", "resolves-immediately", "add-resolves-during-payment")


def _item_kind(n: TraceNode, ancestors: tuple[TraceNode, ...]) -> str | None:
    """The kind of the chain item a node is about (by id, else by name, before or after it), or
    when it names none on the chain (a step after the item left it) that of the nearest node it
    is part of."""
    for x in (n, *reversed(ancestors)):
        if "id" not in x.params and "item" not in x.params:
            continue
        for state in (x.before, x.after):
            for item in state.chain:
                if item.id == x.params.get("id") or ("id" not in x.params and item.name == x.params.get("item")):
                    return item.kind
    return None


def _one_side_remains(s: Any) -> bool:
    """In a combat whose result is due: exactly one of its two players has units at its battlefield."""
    c = s.combat
    if c is None or "recalled" in (c.result or ""):
        return False
    return len({u.controller for u in s.units_at(c.battlefield)} & {c.attacker, c.defender}) == 1


def _in_showdown(s: Any) -> bool:
    return s.showdown is not None or s.combat is not None


RIFTBOUND: tuple[CitedCondition, ...] = (
    ("313.3", "a showdown (only there has anyone focus, 313.5)", lambda n, a: _in_showdown(n.before)),
    ("310.1", "a Neutral State (no showdown or combat)", lambda n, a: not _in_showdown(n.after)),
    ("310.3", "a showdown or combat in progress", lambda n, a: _in_showdown(n.after)),
    *((r, "a non-combat showdown", lambda n, a: n.before.combat is None) for r in ("348.2", "348.2.a", "348.2.a.1")),
    *((r, "a combat", lambda n, a: n.before.combat is not None) for r in ("466.5", "466.5.a", "466.5.d")),
    *((r, "a combat one player won: only they have units remaining at its battlefield",
       lambda n, a: _one_side_remains(n.after)) for r in ("466.3.a", "466.3.b")),
    ("466.3.d", "a combat with No Result: both or neither player has units there, or units were recalled",
     lambda n, a: not _one_side_remains(n.after)),
    ("466.5.b", "a combat with no units remaining at its battlefield",
     lambda n, a: n.before.combat is not None and not n.after.units_at(n.before.combat.battlefield)),
    ("321.1", "a chain item resolving", lambda n, a: any(x.name in RESOLVING for x in (*a, n))),
    *((r, "a spell", lambda n, a: _item_kind(n, a) == "spell") for r in ("359.3", "359.3.a", "359.3.c", "359.3.b",
                                                                    "359.3.d", "351.2")),
    *((r, "an ability", lambda n, a: _item_kind(n, a) in ("ability", "trigger")) for r in ("406.3", "406.4", "406.5")),
    ("351.1", "a permanent", lambda n, a: _item_kind(n, a) in ("unit", "gear")),
    ("471.1.a.1", "a point gained by a hold, not a conquer",
     lambda n, a: any(x.name == "hold-battlefields" for x in a)),
)

def _final_point_held() -> Any:
    """The Beginning Phase with Ann one point from the Victory Score, holding a battlefield."""
    return rift.scenario.setup({"players": [{"name": "Ann", "points": 7}, {"name": "Bo"}], "cards": rift.SCORING,
                                "start": {"phase": "beginning"},
                                "battlefields": {"Temple": {"controller": "Ann", "units": {"Ann": ["Warden"]}}}})


# (case, its setup, depth): the three invariant explorations' pools, shallower.
RIFTBOUND_CASES = [("chains, showdowns and combat", lambda: rift.setup(2), 12),
                   ("three players", lambda: rift.setup(3), 9),
                   ("combat arrivals", lambda: rift.setup_arrivals(2), 9),
                   ("scoring and Deathknell", lambda: rift.setup_scoring(2), 10),
                   ("holding in the Beginning Phase", lambda: rift.setup_scoring(2, beginning=True), 8),
                   ("the Final Point held", _final_point_held, 2)]


def _unfinished(n: TraceNode, a: tuple[TraceNode, ...]) -> bool:
    """The resolving item did not resolve: its targets illegal (608.2b) or its "if" false (603.4)."""
    return any(x.name in ("target-illegal", "targets-all-illegal", "condition-false") for x in (a or (n,))[0].walk())


MAGIC: tuple[CitedCondition, ...] = (
    ("608.2n", "a spell or ability that resolved", lambda n, a: not _unfinished(n, a)),
)
MAGIC_CASES = [("main phase, 2 players", lambda: magic.setup(2, "main1"), 8),
               ("end step, 2 players", lambda: magic.setup(2, "end"), 10)]


def _explore(conditions: tuple[CitedCondition, ...], model: Any, state: Any, depth: int
             ) -> tuple[list[str], Counter[str]]:
    """The violations, and how often each condition's rule was cited (where it held)."""
    cited: Counter[str] = Counter()
    check = cited_where_they_apply(conditions)
    rules = {r for r, _, _ in conditions}

    def counting(m: Any, node: TraceNode) -> Any:
        for n in node.walk():
            cited.update(r for r in n.rules if r in rules)
        return check(m, node)
    _, _, broken = explore_checked(model, state, depth, counting)
    return broken, cited


def test_riftbound_steps_cite_only_rules_whose_condition_holds() -> None:
    cited: Counter[str] = Counter()
    for case, setup, depth in RIFTBOUND_CASES:
        model, state = setup()
        broken, seen = _explore(RIFTBOUND, model, state, depth)
        assert not broken, (case, broken[:5])
        cited += seen
    never = sorted({r for r, _, _ in RIFTBOUND} - set(cited))
    assert not never, f"the explorations never cited {never}: their conditions are unchecked"


def test_magic_steps_cite_only_rules_whose_condition_holds() -> None:
    cited: Counter[str] = Counter()
    for case, setup, depth in MAGIC_CASES:
        model, state = setup()
        broken, seen = _explore(MAGIC, model, state, depth)
        assert not broken, (case, broken[:5])
        cited += seen
    assert cited["608.2n"], "the explorations never finished a resolution"


@pytest.mark.parametrize("transition,rule", [("pass-priority", "313.3"), ("establish-control", "348.2"),
                                             ("resolve", "406.4"), ("combat-result", "466.3.d")])
def test_a_riftbound_model_citing_a_rule_where_it_does_not_apply_is_caught(transition: str, rule: str) -> None:
    """The old mistakes put back (313.3 on every pass, 348.2 after a combat…) are found."""
    model, state = rift.setup(2)
    t = model.transitions[transition]
    model.transitions[transition] = dataclasses.replace(t, rules=t.rules + (rule,))
    broken, _ = _explore(RIFTBOUND, model, state, 9)
    assert any(f"{transition} cites {rule} but not" in b for b in broken), broken[:3]
