"""New chain items, triggered abilities put on the chain in turn order (383.3.d), and units
moving (which contests battlefields and fires move triggers): shared by decisions,
resolution, instructions and combat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import turn_limits
from kb.timing.models.riftbound.cards import Trigger
from kb.timing.models.riftbound.state import Item, Permanent, State, with_permanent

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

Fired = list[tuple[str, Trigger, str]]  # (controller, trigger, source card)


def active(tr: Trigger, unit: Permanent | None, s: State | None = None, controller: str | None = None) -> bool:
    """Whether ``tr`` is active on ``unit``, its permanent: an "[Empowered] >" Dependent Ability
    only while that permanent is Empowered (828.1.c); a "[Level N] >" one only while its
    controller (``unit``'s, or ``controller`` for a card not on the board yet) has N or more XP
    in ``s`` (824.1.c, 727.1.c.1)."""
    if tr.empowered and not (unit is not None and unit.empowered):
        return False
    if tr.level is None:
        return True
    who = unit.controller if unit is not None else controller
    return s is not None and who is not None and s.xp_of(who) >= tr.level


def condition(s: State, controller: str, tr: Trigger, source: str) -> str:
    """What met ``tr``'s Condition (383.2), in the rules' words, for the text "… triggers as
    …": a unit being killed for a Deathknell ("When I die", 808.1.c, 808.1.d), a card being
    played (Play Effects, 383.4.a), a unit gaining the Attacker or Defender designation
    (383.4.e, 383.4.f), a player conquering or holding a battlefield (383.4.c, 383.4.d)."""
    if tr.on == "leave":
        return f'{source} is killed ("When I die")'
    if tr.on == "empowered":
        return f'{source} becomes Empowered ("When I become Empowered")'
    if tr.on == "play":
        if tr.what == "self":
            return f'{source} is played ("When you play me")'
        return f'{controller} plays a {tr.what} ("When you play a {tr.what}")'
    if tr.on == "beginning":  # Temporary's condition (816.1.c)
        return f"{controller}'s Beginning Phase starts (Temporary: \"before scoring, kill this\")"
    if tr.on in ("attack", "defend"):
        return f"{source} gains the {'Attacker' if tr.on == 'attack' else 'Defender'} designation"
    if tr.on in ("conquer", "hold"):
        verb = "conquers" if tr.on == "conquer" else "holds"
        if s.battlefield(source) is not None:  # the battlefield's own ability: "when you conquer (hold) here"
            return f"{controller} {verb} {source}"
        return f"{controller} {verb} with {source} there"
    return f"{source} moves"


def new_item(s: State, **fields: Any) -> tuple[State, Item]:
    """A new item on top of the chain, with the next id."""
    item = Item(id=s.next_id, **fields)
    return replace(s, chain=s.chain + (item,), next_id=s.next_id + 1), item


def fire(s: State, t: Trace, fired: Fired, step: str, units: list[str] | None = None) -> State:
    """Put triggered abilities on the chain as pending items, in turn order (383.3.d); one
    "once (N times) each turn" already performed that many times does not trigger (383.3.e.1).
    ``units``: the permanent each one is of, by its name on the board (a card's second copy is
    "Warden #2"), where its text names it; the source card's name otherwise."""
    entries = list(zip(fired, units if units is not None else [source for _, _, source in fired]))
    if any(turn_limits.used_up(s, tr) for _, tr, _ in fired):
        for _, tr, _ in fired:
            if turn_limits.used_up(s, tr):
                t.note("trigger-not-triggered", s, {"item": tr.name, "times": turn_limits.times(tr.each_turn),
                                                    "count": turn_limits.times(s.times_performed(tr.name))})
        entries = [e for e in entries if not turn_limits.used_up(s, e[0][1])]
    if not entries:
        return s
    order = {p: i for i, p in enumerate(s.players)}
    entries = sorted(entries, key=lambda e: order[e[0][0]])
    if len(entries) > 1:
        t.note("trigger-order", s, {"order": ", ".join(tr.name for (_, tr, _), _ in entries)})
    opened = not s.chain
    for (controller, tr, source), unit in entries:
        s, _ = new_item(s, name=tr.name, controller=controller, kind="trigger", source=source,
                        effects=tr.effects, optional=tr.optional, origin="trigger")
        t.note(step, s, {"item": tr.name, "on": tr.on, "when": condition(s, controller, tr, unit)})
        if tr.keyword == "Hunt":  # "When I Conquer or Hold, my controller gains X XP" (823.1.c.1)
            t.note("hunt-triggers", s, {"item": tr.name, "n": tr.effects[0][1]})
        if tr.level is not None:  # a "[Level N] >" ability: evaluated as its controller has N XP (727.1.c.1)
            t.note("level-ability-triggers", s, {"item": tr.name, "unit": unit, "level": tr.level,
                                                 "player": controller, "xp": s.xp_of(controller)})
        if tr.empowered:  # an "[Empowered] >" ability: it triggered as its permanent is Empowered
            t.note("empowered-ability-when-empowered" if tr.on == "empowered" else "empowered-ability", s,
                   {"item": tr.name, "unit": unit})
    if opened and s.opened_by is None:  # a chain a play opened stays the play's (340.2.a, 346.1)
        s = replace(s, opened_by="trigger")
    return s


def relocate(m: Riftbound, s: State, t: Trace, u: Permanent, to: str, exhaust: bool = False) -> State:
    """``u`` moves to ``to``: it contests a battlefield its controller does not control
    (190.3.a) and its move triggers fire."""
    s = with_permanent(s, u.name, location=to, exhausted=u.exhausted or exhaust)  # its gear with it (719.3.a)
    bf = s.battlefield(to)
    if bf is not None and bf.controller != u.controller and bf.contested_by is None:
        s = replace(s, battlefields=tuple(replace(b, contested_by=u.controller) if b.name == to else b
                                          for b in s.battlefields))
        t.note("move-contests", s, {"player": u.controller, "at": to})
    moves = m.triggers_of(u.card, "move", u, s)
    return fire(s, t, [(u.controller, tr, u.card) for tr in moves], "triggers", [u.name for _ in moves])


def needs_cleanup(s: State) -> State:
    """A cleanup made outstanding (once)."""
    return s if "cleanup" in s.tasks else replace(s, tasks=s.tasks + ("cleanup",))
