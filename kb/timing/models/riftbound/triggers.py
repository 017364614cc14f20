"""New chain items, triggered abilities put on the chain in turn order (383.3.d), and units
moving (which contests battlefields and fires move triggers): shared by decisions,
resolution, instructions and combat."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Trace
from kb.timing.models.riftbound import turn_limits
from kb.timing.models.riftbound.cards import Trigger
from kb.timing.models.riftbound.state import Item, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

Fired = list[tuple[str, Trigger, str]]  # (controller, trigger, source card)


def new_item(s: State, **fields: Any) -> tuple[State, Item]:
    """A new item on top of the chain, with the next id."""
    item = Item(id=s.next_id, **fields)
    return replace(s, chain=s.chain + (item,), next_id=s.next_id + 1), item


def fire(s: State, t: Trace, fired: Fired, step: str) -> State:
    """Put triggered abilities on the chain as pending items, in turn order (383.3.d); one
    "once (N times) each turn" already performed that many times does not trigger (383.3.e.1)."""
    if any(turn_limits.used_up(s, tr) for _, tr, _ in fired):
        for _, tr, _ in fired:
            if turn_limits.used_up(s, tr):
                t.note("trigger-not-triggered", s, {"item": tr.name, "times": turn_limits.times(tr.each_turn),
                                                    "count": turn_limits.times(s.times_performed(tr.name))})
        fired = [f for f in fired if not turn_limits.used_up(s, f[1])]
    if not fired:
        return s
    order = {p: i for i, p in enumerate(s.players)}
    fired = sorted(fired, key=lambda f: order[f[0]])
    if len(fired) > 1:
        t.note("trigger-order", s, {"order": ", ".join(tr.name for _, tr, _ in fired)})
    opened = not s.chain
    for controller, tr, source in fired:
        s, _ = new_item(s, name=tr.name, controller=controller, kind="trigger", source=source,
                        effects=tr.effects, optional=tr.optional, origin="trigger")
        t.note(step, s, {"item": tr.name, "on": tr.on})
    if opened:
        s = replace(s, opened_by="trigger")
    return s


def relocate(m: Riftbound, s: State, t: Trace, u: Permanent, to: str, exhaust: bool = False) -> State:
    """``u`` moves to ``to``: it contests a battlefield its controller does not control
    (190.3.a) and its move triggers fire."""
    moved = replace(u, location=to, exhausted=u.exhausted or exhaust)
    s = replace(s, board=tuple(moved if x.name == u.name else x for x in s.board))
    bf = s.battlefield(to)
    if bf is not None and bf.controller != u.controller and bf.contested_by is None:
        s = replace(s, battlefields=tuple(replace(b, contested_by=u.controller) if b.name == to else b
                                          for b in s.battlefields))
        t.note("move-contests", s, {"player": u.controller, "at": to})
    return fire(s, t, [(u.controller, tr, u.card) for tr in m.triggers_of(u.card, "move")], "triggers")


def needs_cleanup(s: State) -> State:
    """A cleanup made outstanding (once)."""
    return s if "cleanup" in s.tasks else replace(s, tasks=s.tasks + ("cleanup",))
