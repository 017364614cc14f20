"""Reaction Add abilities activated while a cost is paid (429.3, 357.1.a).

When the oldest pending item's cost is more than its controller's Rune Pool and runes cover,
but their Reaction Add abilities would make up the rest, finalizing waits (``"await-add"`` of
:func:`kb.timing.models.riftbound.costs.finalize_outcome`) and the controller chooses which to
activate: the decision ``add: {player, ability}`` of a scenario, listed among ``next``'s
options. Such an ability pays its own cost (exhausting its permanent, 414.5), then finalizes
and resolves at once, even mid-payment (429.3.a): it never joins the chain, and priority and
focus do not move (429.2.a). Once the pool and runes cover the cost, the item is finalized
as usual. An Add ability without the Reaction tag cannot be used then (429.3): ``next`` shows
it as a tempting illegal option; nor can one whose permanent is exhausted (414.1.b), nor one
that would leave the cost unpayable (357.3).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.riftbound import costs
from kb.timing.models.riftbound.cards import Ability
from kb.timing.models.riftbound.chain import finalizing
from kb.timing.models.riftbound.checks import ability_of, ability_source
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.effects import run_effects
from kb.timing.models.riftbound.state import Item, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

check, step, transition = registry.check, registry.step, registry.transition

# The checks an Add ability activated while paying must pass, in the order an explanation lists them.
ADD_WHILE_PAYING = ("paying", "ability-on-board", "add-ability", "add-reaction", "exhaust-cost", "costs", "add-helps")

step("add-resolves-during-payment", "an Add ability activated while paying finalizes and resolves at once",
     "{item} finalizes and resolves at once: it does not use the chain, and priority and focus stay")


def paying(m: Riftbound, s: State) -> Item | None:
    """The pending item whose cost waits for its controller's Reaction Add abilities (429.3)."""
    found = finalizing(m, s)
    return found[0] if found is not None and found[1] == "await-add" else None


def add_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """The Add abilities of the paying player's permanents, with the Reaction tag or not."""
    item = paying(m, s)
    if item is None:
        return
    seen = set()
    for u in s.board:
        card = m.cards.get(u.card) if u.controller == item.controller else None
        for a in card.abilities if card else ():
            if a.add and a.name not in seen:
                seen.add(a.name)
                yield {"player": item.controller, "ability": a.name, "item": item.name}


@check("paying", "no cost of that player is being paid that their Rune Pool and runes do not cover")
def is_paying(m: Riftbound, s: State, p: Params) -> bool:
    item = paying(m, s)
    return item is not None and item.controller == p["player"]


@check("add-ability", "that ability does not Add resources")
def adds_resources(m: Riftbound, s: State, p: Params) -> bool:
    a = ability_of(m, s, p)
    return a is None or a.add


@check("add-reaction", "only an Add ability with the Reaction tag can be activated while a cost is paid")
def add_reaction(m: Riftbound, s: State, p: Params) -> bool:
    a = ability_of(m, s, p)
    return a is None or "Reaction" in a.keywords


@check("add-helps", "after that Add the cost being paid could no longer be paid")
def add_helps(m: Riftbound, s: State, p: Params) -> bool:
    item, found = paying(m, s), ability_source(m, s, p["player"], p["ability"])
    if item is None or found is None:
        return True
    after = _activated(s, *found)
    return costs.can_pay_while_adding(m, after, item.controller, costs.total_cost(m, after, item))


def _activated(s: State, u: Permanent, a: Ability) -> State:
    """``s`` once the ability has paid its own cost and Added (what ``add-helps`` looks ahead to)."""
    if a.cost:
        s = costs.paid(s, u.controller, a.cost)[0]
    if a.exhaust:
        s = costs.with_exhausted(s, u)
    return costs.with_pool(s, u.controller, costs.pool_of(s, u.controller) + a.adds)


@transition("add-while-paying", "decision", "activate a Reaction Add ability while paying a cost",
            "{player} activates {ability} while paying for {item}", pre=ADD_WHILE_PAYING, bindings=add_bindings)
def add_while_paying(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The ability pays its own cost, then finalizes and resolves at once (429.3.a, 429.2.a)."""
    found = ability_source(m, s, p["player"], p["ability"])
    assert found is not None  # ability-on-board holds
    u, a = found
    if a.cost:
        s = costs.pay(s, t, u.controller, a.cost, a.name)
    if a.exhaust:
        s = costs.exhaust(s, t, u, a.name)
    t.note("add-resolves-during-payment", s, {"item": a.name, "player": u.controller})
    ability = Item(id=0, name=a.name, controller=u.controller, kind="ability", status="finalized", source=u.name,
                   effects=a.effects, add=True, origin="activated", keywords=a.keywords)
    return run_effects(m, s, t, ability)
