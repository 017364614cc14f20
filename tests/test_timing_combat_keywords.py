"""Riftbound's combat keywords in the timing model (acceptance finding 7): Tank (815) and
Backline (826) order combat damage assignment, Assault (807) and Shield (814) give Might while
the unit is an attacker or a defender, Accelerate (805) is an optional additional cost after
which the unit enters ready. A bounded exploration checks them from the states and the trace
alone, computing Might and the order of assignment from the card pool itself; one deliberately
wrong model per keyword is caught; a keyword that does not bear on timing, or is not modelled,
is refused saying so. The scenarios written as sentences are in ``tests/scenarios/riftbound/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, cards, combat, scenario
from kb.timing.models.riftbound.cards import KEYWORDS, NOT_MODELLED
from kb.timing.scenario import ScenarioError, loads, run

from conftest import REPO
from exploring import explore_checked

CARDS: dict[str, dict[str, Any]] = {
    "Brute": {"type": "unit", "might": 3, "keywords": ["Assault 2"]},
    "Squire": {"type": "unit", "might": 1},
    "Wall": {"type": "unit", "might": 2, "keywords": ["Tank", "Shield"]},
    "Archer": {"type": "unit", "might": 1, "keywords": ["Backline"]},
    "Guard": {"type": "unit", "might": 2},
    "Courier": {"type": "unit", "might": 2, "cost": 1, "keywords": ["Accelerate"]},
    "Rally": {"type": "spell", "keywords": ["Reaction"], "effects": [{"give": {"unit": "target", "might": 1}}]},
}
# Bo's defenders are listed Archer, Guard, Wall: board order is the opposite of what Tank and
# Backline ask, so a model that assigns in board order is caught.
SEATS = [{"name": "Ann", "base": ["Brute", "Squire"], "hand": ["Courier"], "runes": 4},
         {"name": "Bo", "hand": ["Rally"], "runes": 2}]
BATTLEFIELDS = {"Peak": {"controller": "Bo", "units": {"Bo": ["Archer", "Guard", "Wall"]}}, "Hill": None}
DEPTH = 7  # every decision sequence to this depth: a few seconds


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS,  # type: ignore[return-value]
                           "battlefields": BATTLEFIELDS})


def _kw(card: str) -> dict[str, int]:
    """The card's keywords and their values, read here from the pool (not by the model's code)."""
    out = {}
    for k in CARDS[card].get("keywords", ()):
        name, _, n = k.partition(" ")
        out[name] = int(n) if n else 1
    return out


def might(s: State, name: str) -> int:
    """A unit's Might from the pool: printed, given this turn, Assault while an attacker (807.1.c),
    Shield while a defender (814.1.c)."""
    u = s.permanent(name)
    assert u is not None
    kw = _kw(u.card)
    bonus = kw.get("Assault", 0) if u.designation == "attacker" else kw.get("Shield", 0) if (
        u.designation == "defender") else 0
    return CARDS[u.card]["might"] + u.might_bonus + bonus


def assigned(before: State, after: State, name: str) -> int:
    """The combat damage assigned to a unit: what was marked, plus what its Prevent Value stopped."""
    b, a = before.permanent(name), after.permanent(name)
    assert b is not None and a is not None
    return (a.damage - b.damage) + (b.prevent - a.prevent)


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: Might is the pool's; in combat damage no unit without Tank is
    assigned damage while a Tank unit of its controller lacks lethal damage (815.1.c.2), and no
    unit with Backline while another unit of its controller lacks it (826.4.b); a unit that
    entered this step is ready exactly when Accelerate was paid for it (805.1.a)."""
    after = node.after
    for u in after.board:
        if model.might(u, after) != might(after, u.name):
            why = {"attacker": "Assault, 807.1.c", "defender": "Shield, 814.1.c"}.get(u.designation or "", "143.2")
            yield f"{u.name} has {model.might(u, after)} Might, not {might(after, u.name)} ({why})"
    if node.name == "combat-damage":
        before = node.before
        for player in before.players:
            takers = [u for u in before.units_at(before.combat.battlefield, player)  # type: ignore[union-attr]
                      if u.designation is not None and after.permanent(u.name) is not None]
            need = {u.name: max(1, might(before, u.name) - u.damage + u.prevent) for u in takers}
            got = {u.name: assigned(before, after, u.name) for u in takers}
            tank = [u.name for u in takers if "Tank" in _kw(u.card)]
            back = [u.name for u in takers if "Backline" in _kw(u.card)]
            for u in takers:
                if u.name not in tank and got[u.name] and any(got[x] < need[x] for x in tank):
                    yield f"{u.name} was assigned damage before {tank} had lethal damage (815.1.c.2)"
                if u.name in back and got[u.name] and any(got[x.name] < need[x.name] for x in takers
                                                            if x.name not in back):
                    yield f"{u.name} was assigned damage before the units without Backline had lethal (826.4.b)"
    if node.name == "resolves-immediately":  # a unit enters: ready exactly when Accelerate was paid for it
        item = next(i for i in node.before.chain if i.id == node.params["id"])
        new = [u for u in after.board if node.before.permanent(u.name) is None]
        for u in new:
            if u.card == "Courier" and (not u.exhausted) != item.accelerate:
                yield (f"{u.name} entered {'ready' if not u.exhausted else 'exhausted'} though Accelerate was "
                       f"{'' if item.accelerate else 'not '}paid (805.1.a)")


def test_every_decision_sequence_keeps_the_combat_keywords(capsys: Any) -> None:
    model, start = setup()
    ex, taken, wrong = explore_checked(model, start, DEPTH, node_violations)
    with capsys.disabled():
        print(f"\n  combat keywords, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("combat-damage", "tank-first", "backline-last",
                                                       "assault-might", "shield-might", "accelerate-paid")))
    assert not wrong, wrong[:5]
    for name in ("combat-damage", "tank-first", "backline-last", "assault-might", "shield-might", "accelerate-paid"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models: one per keyword ------------------------------------------------------
def _caught(rule: str) -> list[str]:
    model, start = setup()
    return [b for b in explore_checked(model, start, DEPTH, node_violations)[2] if rule in b]


def test_a_model_that_ignores_tank_is_caught(monkeypatch: Any) -> None:
    """Wrong: damage is assigned in board order, Tank or not."""
    monkeypatch.setattr(combat, "assignment_order", lambda m, units, chosen=(): (list(units), []))
    assert _caught("815.1.c.2")


def test_a_model_that_ignores_backline_is_caught(monkeypatch: Any) -> None:
    """Wrong: Tank units first, then the others in board order, Backline or not."""
    right = combat.assignment_order
    monkeypatch.setattr(combat, "assignment_order",
                        lambda m, units, chosen=(): (sorted(units, key=lambda u: "Tank" not in m.cards[u.card].keywords),
                                                     right(m, units, chosen)[1]))
    assert _caught("826.4.b")


@pytest.mark.parametrize("keyword,rule", [("Assault", "807.1.c"), ("Shield", "814.1.c")])
def test_a_model_that_ignores_a_might_keyword_is_caught(monkeypatch: Any, keyword: str, rule: str) -> None:
    """Wrong: the keyword gives no Might."""
    right = combat.keyword_might
    monkeypatch.setattr(combat, "keyword_might", lambda card, u: 0 if keyword in card.keywords
                        and (keyword == "Assault") == (u.designation == "attacker") else right(card, u))
    assert _caught(rule)


def test_a_model_whose_accelerated_unit_enters_exhausted_is_caught(monkeypatch: Any) -> None:
    """Wrong: Accelerate is paid for, but the unit enters exhausted as usual."""
    monkeypatch.setattr("kb.timing.models.riftbound.chain.enters_ready", lambda card, item: card.enters_ready)
    assert _caught("805.1.a")


# -- keywords the model does not know --------------------------------------------------------------
SCENARIO = """
name: A card with a keyword.
ruleset: riftbound
players: [Ann, Bo]
cards:
  Sentinel: {type: unit, keywords: [%s]}
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("keyword,says", [
    ("Vision", "does not bear on the timing model"),
    ("Unique", "does not bear on the timing model"),
    ("Hunt x", "Hunt's value is a whole number"),
    ("Tankk", "unknown keyword 'Tankk', did you mean 'Tank'?"),
    ("Assault x", "Assault's value is a whole number"),
    ("Tank 2", "Tank takes no value"),
])
def test_a_keyword_the_model_does_not_know_is_refused_saying_why(keyword: str, says: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % keyword, "k.yaml"))
    assert says in str(err.value), str(err.value)
    assert "cards.Sentinel.keywords[0]" in str(err.value)


def test_a_unit_with_both_tank_and_backline_is_refused() -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % "Tank, Backline", "k.yaml"))
    assert "both Tank and Backline" in str(err.value)


def test_the_readme_lists_the_keywords_the_model_knows_and_refuses() -> None:
    """One source: the README's timing section names exactly the keywords of the code."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text[text.index("### The timing model"):text.index("### Citations in articles")]
    known = re.search(r"The\s+Riftbound\s+model\s+knows\s+the\s+keywords\s+([^.]+)\.", section)
    assert known, "the README's timing section lists the keywords the model knows"
    assert {k.strip() for k in re.split(r",| and ", known.group(1)) if k.strip()} == set(KEYWORDS)
    refused = re.search(r"it\s+refuses\s+([^.]+),\s+saying\s+why", section)
    assert refused
    assert {k.strip() for k in re.split(r",| and ", refused.group(1)) if k.strip()} == set(NOT_MODELLED)
