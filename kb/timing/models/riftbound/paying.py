"""Riftbound's decisions and steps around a cost that is due (404.2, 358.5): its controller
pays a triggered ability's cost or declines it, and an item whose cost cannot be paid as it
is finalized is undone. What an item costs and how it is paid is
:mod:`kb.timing.models.riftbound.costs` (which finalizing, in ``chain``, asks); these three
leave the chain the way every item does, so they stand above ``chain``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import trash
from kb.timing.models.riftbound.chain import after_leaving, finalize_bindings
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.costs import awaiting_payment
from kb.timing.models.riftbound.state import State, replace_item, with_hand, without

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition = registry.transition


def payment_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """Paying or declining the cost of the triggered ability that awaits it (404.2)."""
    item = awaiting_payment(m, s)
    if item is not None:
        for player in s.players:  # others are listed too: it is not their choice
            yield {"player": player, "item": item.name}


@transition("pay-cost", "decision", "pay a triggered ability's cost", "{player} pays for {item}",
            pre=("payment-due", "trigger-cost"), bindings=payment_bindings)
def pay_cost(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The cost is paid as the ability is finalized next (404.1)."""
    item = s.pending[0]
    return replace(s, chain=replace_item(s.chain, replace(item, paid=True)))


@transition("decline-cost", "decision", "decline to pay a triggered ability's cost",
            "{player} declines to pay for {item}: it leaves the chain (not countered)",
            pre=("payment-due",), bindings=payment_bindings)
def decline_cost(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The ability leaves the chain, never finalized and not countered (404.2, 404.2.a)."""
    return after_leaving(m, replace(s, chain=without(s.chain, s.pending[0].id)), t)


@transition("cost-unpaid", "automatic", "an item whose cost cannot be paid as it is finalized is undone",
            "{item} cannot be paid for: it is not finalized and its play is undone",
            bindings=finalize_bindings("cost-unpaid"))
def cost_unpaid(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The play is undone (358.5): the item leaves the chain and a card goes back to hand."""
    item = next(i for i in s.chain if i.id == p["id"])
    s = replace(s, chain=without(s.chain, item.id))
    hand = s.hand(item.controller)
    if item.origin == "trash" and item.card:  # back to the zone it was played from (358.5): its trash
        s = trash.to_trash(m, s, [(item.card, item.controller)])
    elif hand is not None and item.card and item.kind in ("spell", "unit", "gear"):
        s = replace(s, hands=with_hand(s, item.controller, hand + (item.card,)))
    return after_leaving(m, s, t)
