"""Riftbound's Might and damage in the timing.

- ``{deal: {unit, amount}}`` marks damage on a unit (417.1.b); it does not kill while its item
  resolves (321.1): a cleanup follows, and there a unit with lethal damage (non-zero damage at
  least its Might, 142.4.b) has its death triggers put on the chain (323.4) and is killed
  (323.5), before the next item resolves.
- ``{give: {unit, might}}`` gives a unit +N (or −N) Might this turn: damage already marked can
  become lethal (142.4.b), and combat damage uses the Might units have when it is dealt (465.2).
  A negative Might counts as 0 in the damage it deals (143.2.b).
- Damage stays marked until it is healed: in the combat cleanup (466.1.a.1, 143.3.b.2) or at
  the end of the turn (143.3.b.1, after the Main Phase this model covers).
- ``{prevent: {unit, amount}}`` ("Prevent the next N damage that would be dealt to a unit this
  turn", 437.1.b.1) is a game action that is a replacement effect (369.2, 437.7): the unit's
  Prevent Value rises by N; the next damage dealt to it, by a spell or in combat, is replaced
  by that damage less the Prevent Value, never below 0 (437.2, 437.2.a), and the Prevent Value
  falls by what was prevented (437.3); damage all prevented was not dealt at all (437.4). In
  combat, lethal damage assigned to a unit counts its Prevent Value (437.5.a).
- A showdown or combat goes on when one side's units die: it ends only when every player has
  passed focus (347.2.a); combat damage then needs both sides (465.1) and the result follows
  from who remains (466.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import effects, replacements
from kb.timing.models.riftbound.cards import Effect
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, Permanent, State
from kb.timing.models.riftbound.triggers import needs_cleanup

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

step = registry.step
step("deal", "deal damage to a unit: it is marked on the unit", "{amount} damage is marked on {unit}")
step("give-might", "a unit is given Might this turn", "{unit} gets {change} Might this turn (now {might})")
step("lethal-damage", "a unit with lethal damage marked is killed in the cleanup",
     "{unit} has lethal damage ({damage} damage, {might} Might)")
step("prevent-damage", "the next damage that would be dealt to a unit this turn will be prevented",
     "the next {amount} damage that would be dealt to {unit} this turn will be prevented (Prevent Value {value})")
step("damage-prevented", "preventing damage is a replacement effect: the damage is replaced by less",
     "{amount} damage would be dealt to {unit}: {prevented} of it is prevented, so {dealt} is dealt "
     "(Prevent Value {value} left)")


def lethal(m: Riftbound, s: State, u: Permanent) -> bool:
    """Lethal damage: a non-zero amount at least the unit's Might in ``s`` (142.4.b)."""
    return u.damage > 0 and u.damage >= m.might(u, s)


def _unit(s: State, t: Trace, item: Item, e: Effect) -> Permanent | None:
    name = item.target if e[1] == "target" else e[1]
    u = s.permanent(name or "")
    if u is None:  # an illegal target is unaffected (359.3.e.5)
        t.note("instruction-skipped", s, {"instruction": f"{e[0]} {name}"})
    return u


def _changed(s: State, u: Permanent) -> State:
    return needs_cleanup(replace(s, board=tuple(u if x.name == u.name else x for x in s.board)))


def prevented(t: Trace, s: State, u: Permanent, amount: int) -> tuple[Permanent, int]:
    """``amount`` damage about to be dealt to ``u``, replaced as its Prevent Value says (437.2):
    the unit with its Prevent Value reduced (437.3), and the damage dealt instead."""
    if not u.prevent or amount <= 0:
        return u, amount
    stopped = min(amount, u.prevent)
    u = replace(u, prevent=u.prevent - stopped)
    t.note("damage-prevented", s, {"unit": u.name, "amount": amount, "prevented": stopped,
                                   "dealt": amount - stopped, "value": u.prevent})
    return u, amount - stopped


@effects.instruction("deal")
def deal(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Mark the damage, less what is prevented (437.2); the cleanup after the item resolves
    kills (321.1, 323.5). Damage all prevented is not dealt at all (437.4)."""
    u = _unit(s, t, item, e)
    if u is None or e[2] <= 0:  # only valid damage is dealt (417.1.e)
        return s
    u, amount = prevented(t, s, u, e[2])
    if not amount:
        return replace(s, board=tuple(u if x.name == u.name else x for x in s.board))
    u = replace(u, damage=u.damage + amount)
    s = _changed(s, u)
    t.note("deal", s, {"unit": u.name, "amount": amount})
    return s


@effects.instruction("prevent")
def prevent(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Add to the unit's Prevent Value (437.1.b.1, 437.3.b): no damage is dealt by it now."""
    found = _added(s, t, item, e, "prevent")
    if found is not None:
        s, u = found
        t.note("prevent-damage", s, {"unit": u.name, "amount": e[2], "value": u.prevent})
    return s


def _added(s: State, t: Trace, item: Item, e: Effect, key: str) -> tuple[State, Permanent] | None:
    """The state with ``e[2]`` added to the ``key`` of the unit the instruction names (its
    Might given this turn, its Prevent Value), and that unit; None when it is not on the board."""
    u = _unit(s, t, item, e)
    if u is None:
        return None
    u = replace(u, **{key: getattr(u, key) + e[2]})
    return replace(s, board=tuple(u if x.name == u.name else x for x in s.board)), u


@effects.instruction("give")
def give(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Give the unit Might this turn (a status change: a cleanup follows, 319.7)."""
    found = _added(s, t, item, e, "might_bonus")
    if found is None:
        return s
    s, u = found
    s = needs_cleanup(s)
    t.note("give-might", s, {"unit": u.name, "change": f"{e[2]:+d}", "might": m.might(u, s)})
    return s


def kill_lethal(m: Riftbound, s: State, t: Trace) -> State:
    """Cleanup steps 3a and 3b (323.4, 323.5): units with lethal damage trigger their death
    abilities, noting where they were, then go to the trash — those whose death a replacement
    effect replaces stay (373)."""
    dead = [u for u in s.board if lethal(m, s, u)]
    if not dead:
        return s
    for u in dead:
        t.note("lethal-damage", s, {"unit": u.name, "damage": u.damage, "might": m.might(u, s)})
    s, dead = replacements.replace_deaths(m, s, t, dead, step="killed-by-cleanup")
    return replacements.die(m, s, t, dead, "killed-by-cleanup")
