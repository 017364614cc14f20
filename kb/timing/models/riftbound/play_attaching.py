"""Attaching as a card is played (Core Rules 1.4, 819, 821, 402, 434, 740.4.a.2): Quick-Draw
and Weaponmaster, and the ``attach`` instruction that Equip (818) shares with them.

Quick-Draw is present on gear with Equip (819.1.a): the gear has Reaction (819.1.b), so it may
be played on a chain or without focus, and the Play Effect "When you play this, attach it to a
Unit you control" (819.1.d, 383.4.a): a triggered ability put on the chain after the gear is
played (383.4.a.2), whose unit is chosen as it is finalized (402.2; a chosen game object is
targeted, 355.7). With no unit to choose it leaves the chain (402.4); it attaches as it resolves,
and a unit gone by then is skipped (359.3.e.6).

Weaponmaster is present on units (821.1.a): "When you play me, you may choose a card you control
with the Equipment tag … Pay the cost of its Equip ability, reduced by [A], to attach it to this
unit" (821.1.c). Its controller performs or declines it (402.1) and chooses the Equipment as it
is finalized (402.2; with none to choose it leaves the chain, 402.4); the cost is within a later
part of its effect, so it is paid as it resolves (740.4.a.2.a): the Equip cost less one Power ([A]
is Power of any domain, 135.2.e.5.a; a cost without Power is not reduced, 821.1.c.3). The Equip
ability is not activated (821.1.c.6). A cost that cannot be paid, a gear or unit no longer on the
board, leaves the gear where it is, attached to what it was (821.1.c.5). The model pays it from
the Rune Pool and the runes (no Reaction Add mid-resolution).

A scenario's ``choose: {player, item, choice}`` is the choice (``timing next`` lists one option
each); the model names the permanent of the ability by its card (the newest copy its controller
has on the board).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import attaching, costs, effects
from kb.timing.models.riftbound.cards import CHOSEN, Effect, attaching_choice
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.resources import Cost
from kb.timing.models.riftbound.state import Item, Permanent, State, replace_item

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step, check = registry.transition, registry.step, registry.check

step("quick-draw-reaction", "Quick-Draw: the gear has Reaction", "{item} has Quick-Draw, so it has Reaction")
step("quick-draw-attaches", "Quick-Draw resolves: the gear is attached to the unit chosen for it",
     "{gear} is attached to {unit} at {at} (not a move): {unit} is equipped and has its Might Bonus")
step("weaponmaster-pays", "Weaponmaster resolves: its controller pays the Equip cost less [A]",
     "{player} pays {cost} for {gear} (its Equip cost {equip}, less one Power)")
step("weaponmaster-attaches", "Weaponmaster: the Equipment is attached to the unit with Weaponmaster",
     "{gear} is attached to {unit} at {at} (not a move; its Equip ability is not activated)")
step("weaponmaster-no-equip-cost", "Weaponmaster chose an Equipment without an Equip cost: it cannot be paid, so "
     "the Equipment stays where it is", "{gear} has no Equip cost, which cannot be paid: it stays where it is, "
     "attached to what it was")
step("weaponmaster-stays", "Weaponmaster: the Equipment cannot be paid for or attached, so it stays where it is",
     "{gear} stays where it is: {why}")


def kind_of(item: Item) -> str | None:
    """``attach`` (Quick-Draw's) or ``attach_equipment`` (Weaponmaster's) for a triggered ability
    that attaches a card chosen as it is finalized; None for any other item."""
    return attaching_choice(item.effects) if item.kind == "trigger" else None


def its_permanent(s: State, item: Item) -> Permanent | None:
    """The permanent whose play effect ``item`` is: the newest copy of its card its controller has."""
    return next((u for u in reversed(s.board) if u.card == item.source and u.controller == item.controller), None)


def choices(m: Riftbound, s: State, item: Item) -> list[str]:
    """What the item's controller may choose for it (402.2): units they control for Quick-Draw's
    gear, their Equipment for Weaponmaster's unit, with an Equip ability or not (821.1.c.1)."""
    kind = kind_of(item)
    if kind == "attach":
        return [u.name for u in s.board if u.controller == item.controller and not u.gear]
    if kind == "attach_equipment":
        return [g.name for g in s.board if g.gear and g.controller == item.controller
                and m.cards.get(g.card) is not None and m.cards[g.card].equipment]
    return []


def awaits_choice(item: Item) -> bool:
    """Whether ``item``, being finalized, still needs its attaching choice made."""
    return item.target is None and kind_of(item) is not None


def due(m: Riftbound, s: State) -> Item | None:
    """The pending item whose controller is to make its attaching choice now."""
    if not m.attaching_on_play:
        return None
    item = s.due_item
    if item is None or (item.optional and not item.decided) or not awaits_choice(item):
        return None
    return item if choices(m, s, item) else None


def choice_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    item = due(m, s)
    if item is not None:
        for choice in choices(m, s, item):
            yield {"player": item.controller, "item": item.name, "choice": choice}


@check("attachment-choice", "no attaching ability of that player is being finalized with that choice to make")
def attachment_choice(m: Riftbound, s: State, p: Params) -> bool:
    item = due(m, s)
    return (item is not None and item.controller == p["player"] and item.name == p["item"]
            and p["choice"] in choices(m, s, item))


@transition("choose-attachment", "decision", "choose what an attaching play effect attaches, as it is finalized",
            "{player} chooses {choice} for {item}", pre=("attachment-choice",), bindings=choice_bindings)
def choose_attachment(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = s.pending[0]
    return replace(s, chain=replace_item(s.chain, replace(item, target=p["choice"])))


def reduced(cost: Cost) -> Cost:
    """An Equip cost reduced by [A]: one Power less (821.1.c.3: not reduced without Power)."""
    return Cost(cost.energy, max(0, cost.power - 1))


@effects.instruction("attach")
def attach(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Attach the Equip ability's gear (its source) to its target (818.1.b, 434), or Quick-Draw's
    gear to the unit chosen for it (819.1.d)."""
    if e[1] == CHOSEN:
        return attaching.attach_gear(s, t, item, its_permanent(s, item), s.permanent(item.target or ""),
                                     "quick-draw-attaches")
    return attaching.attach_gear(s, t, item, s.permanent(item.source or ""), s.permanent(item.target or ""),
                                 "equip-attaches")


@effects.instruction("attach_equipment")
def attach_equipment(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Weaponmaster: pay the chosen Equipment's Equip cost less [A] to attach it to this unit
    (821.1.c, 740.4.a.2.a); it stays where it is when that cannot be done (821.1.c.5)."""
    gear, unit = s.permanent(item.target or ""), its_permanent(s, item)
    why = ("it is no longer on the board" if gear is None or gear.controller != item.controller
           else "the unit with Weaponmaster is no longer on the board" if unit is None else None)
    if gear is not None and why is None:
        equip = m.cards[gear.card].equip
        if equip is None:  # an Equipment without Equip may be chosen (821.1.c.1), not paid for (821.1.c.4)
            t.note("weaponmaster-no-equip-cost", s, {"gear": gear.name})
            return s
        cost = reduced(equip)
        if not costs.can_pay(s, item.controller, cost):
            why = f"{item.controller} cannot pay {cost}"
        else:
            s, used, recycled = costs.paid(s, item.controller, cost)
            if used or recycled:
                t.note("adds-during-payment", s, {"player": item.controller, "exhausted": used, "recycled": recycled})
            t.note("weaponmaster-pays", s, {"player": item.controller, "cost": str(cost), "gear": gear.name,
                                            "equip": str(equip)})
            return attaching.attach_gear(s, t, item, gear, unit, "weaponmaster-attaches")
    t.note("weaponmaster-stays", s, {"gear": gear.name if gear else item.target, "why": why})
    return s
