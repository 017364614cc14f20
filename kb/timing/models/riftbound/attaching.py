"""Gear attached to units (Core Rules 1.4, 716-719, 434, 435) by Equip (818).

A gear's ``equip: COST`` is "Equip [Cost]", an activated ability "[Cost]: Attach this gear to a
unit you control" (818.1.c.2), named ``CARD's Equip``: activated at an activated ability's
timing, choosing its unit as its target (818.1.b.1), its cost paid as it is finalized
(818.1.c.3), and attaching as it resolves (818.1.b): the gear goes where the unit is (434.4)
and its Might Bonus modulates the unit's Might while attached (718.4, 137.3.a). A gear attached
to another unit is detached from it (434.1.f); attaching it to the unit it is attached to does
nothing (434.1.g). A target no longer on the board, or no longer its controller's, is skipped
as any target gone (359.3.e.6).

While attached the gear moves with its unit (719.3.a: :func:`kb.timing.models.riftbound.state.
with_permanent` carries it). When the unit leaves the board the gear detaches, staying on the
board at the unit's last location (719.5, 435.4.b); an unattached gear at a battlefield is
recalled in the next cleanup (435.4.a, 149.3, 323.7). Quick-Draw and Weaponmaster, which attach
as a card is played, are :mod:`kb.timing.models.riftbound.play_attaching`.
"""

from __future__ import annotations


from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, Permanent, State, with_permanent

step = registry.step
step("equip-chooses", "an Equip ability is activated choosing the unit it attaches to as its target",
     "{player} activates {item} choosing {unit} (a unit they control) as its target; its cost is paid as it is "
     "finalized")
step("equip-attaches", "Equip resolves: the gear is attached to the unit, at its location",
     "{gear} is attached to {unit} at {at}: {unit} is equipped and has its Might Bonus")
step("equip-reattaches", "the gear is attached to a new unit, detaching from the one it was attached to",
     "{gear} detaches from {previous} as it is attached to {unit}")
step("equip-same-unit", "attaching a gear to the unit it is attached to has no effect",
     "{gear} is already attached to {unit}: nothing happens")
step("gear-detaches", "a unit left the board: the gear attached to it detaches where the unit last was",
     "{unit} left the board: {gear} detaches, staying at {at}")
step("gear-recalled", "an unattached gear at a battlefield is recalled in the cleanup",
     "{gear} is not attached and is at {at}: it is recalled to base")


def equip_chooses(t: Trace, s: State, item: Item) -> None:
    """Record an Equip ability's choice of unit as it is activated (818.1.b.1, 818.1.c.3)."""
    t.note("equip-chooses", s, {"player": item.controller, "item": item.name, "unit": item.target})


def attach_gear(s: State, t: Trace, item: Item, gear: Permanent | None, unit: Permanent | None, attaches: str) -> State:
    """Attach ``gear`` to ``unit`` for ``item`` (434): skipped when either has left the board or
    the unit is no longer its controller's (359.3.e.6); a gear attached elsewhere detaches
    (434.1.f), one attached to that unit already stays (434.1.g). ``attaches`` is the step
    that says so (Equip's, or a play effect's)."""
    if gear is None or unit is None or unit.gear or unit.controller != item.controller:
        t.note("instruction-skipped", s, {"instruction": f"attach {gear.name if gear else item.source} to "
                                                         f"{unit.name if unit else item.target}"})
        return s
    if gear.attached_to == unit.name:
        t.note("equip-same-unit", s, {"gear": gear.name, "unit": unit.name})
        return s
    if gear.attached_to is not None:
        t.note("equip-reattaches", s, {"gear": gear.name, "previous": gear.attached_to, "unit": unit.name})
    s = with_permanent(s, gear.name, attached_to=unit.name, location=unit.location)
    t.note(attaches, s, {"gear": gear.name, "unit": unit.name, "at": unit.location})
    return s


def attached_to(s: State, unit: str) -> list[Permanent]:
    """The gear attached to ``unit``, in board order."""
    return [g for g in s.board if g.attached_to == unit]


def detach_from_gone(s: State, t: Trace) -> State:
    """Gear attached to a unit no longer on the board detaches, staying at its location, which
    is the unit's last one (719.5, 435.4.b); the unit's controller orders them (719.5.a): board
    order, as the model has no effect that tells."""
    on_board = {u.name for u in s.board}
    for g in [g for g in s.board if g.attached_to is not None and g.attached_to not in on_board]:
        s = with_permanent(s, g.name, attached_to=None)
        t.note("gear-detaches", s, {"unit": g.attached_to, "gear": g.name, "at": g.location})
    return s


def recall_unattached(s: State, t: Trace) -> State:
    """Cleanup step 5 (323.7): unattached gear at battlefields is recalled (149.3, 435.4.a)."""
    for g in [g for g in s.board if g.gear and g.attached_to is None and g.location != "base"]:
        s = replace(s, board=tuple(replace(x, location="base") if x.name == g.name else x for x in s.board))
        t.note("gear-recalled", s, {"gear": g.name, "at": g.location})
    return s
