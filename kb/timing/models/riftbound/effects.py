"""What a resolving item's instructions do: each instruction kind is a module-level function
registered with :func:`instruction` (``run(model, state, trace, item, effect) -> state``)
and records the step its rules are cited by. A new instruction (damage, a cost…) is one
more registered function here or in its own module, plus its reading in
:mod:`kb.timing.models.riftbound.cards`.

Choices the rules leave to players but that do not change timing are made in a fixed way
and said so in the trace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import SEVERAL, SEVERAL_TARGETS, Effect, empower_ability
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound import trash
from kb.timing.models.riftbound.state import (Item, Permanent, State, drawn_plus, with_hand, with_permanent, without,
                                              without_card)
from kb.timing.models.riftbound.triggers import fire, needs_cleanup, new_item, relocate

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

Run = Callable[["Riftbound", State, Trace, Item, Effect], State]
RUNS: dict[str, Run] = {}

step = registry.step
step("counter", "counter an item", "{item} is countered")
step("draw", "draw", "{player} draws {n}")
step("create-reflexive-trigger", "a reflexive trigger creates a pending ability",
     "{item} is added pending (it waits while {source} finishes)")
step("play-from-effect", "play a card as part of an effect",
     "{player} plays {item} from hand as part of {source} (pending until it finishes)")
step("no-eligible-card", "no eligible card to play: resolution continues", "{player} has no {item} to play")
step("kill", "kill a unit", "{unit} is killed")
step("move-unit", "move a unit", "{unit} moves to {to}")
step("recalled-instead", "a unit that cannot move to its destination is recalled instead",
     "{unit} cannot move to {to} (two other players' units, or their combat, are there): it is recalled to base")
step("hidden-plays-unit-there", "a hidden spell or a hidden permanent's play effect plays a unit at the "
     "battlefield where it was hidden", "{source} was played from Hidden at {at}: {item} is played there")
step("empower-activated", "an Empower ability is activated: it Empowers its own permanent, which it does not target",
     "{player} activates {item}, \"[Cost]: Empower this. Play only if not Empowered.\": it will Empower {unit}, "
     "its source, not a target")
step("empowers", "the Empower ability resolves: its source becomes Empowered", "{unit} becomes Empowered")
step("empowered-by-effect", "an effect directs a permanent to be Empowered: it becomes Empowered",
     "{item} Empowers {unit}")
step("empowered-triggers", "a permanent's \"when I become Empowered\" ability triggers as it becomes Empowered",
     "{item} triggers as {when}")
step("empowered-ability", "an [Empowered] ability triggered: it is active while its permanent is Empowered",
     "{item} is an [Empowered] ability of {unit}, active as {unit} is Empowered")
step("empowered-ability-when-empowered", "an [Empowered] \"when I become Empowered\" ability is active and "
     "triggers as its permanent becomes Empowered", "{item}, an [Empowered] ability of {unit}, is active and "
     "triggers as {unit} becomes Empowered")
step("already-empowered", "a permanent already Empowered is not Empowered again", "{unit} is already Empowered: "
     "nothing additional happens")
step("played-to-base-instead", "a unit cannot be played to another two players' combat: "
     "it is played to its controller's base", "{item} cannot be played to {to}: it is played to base")
step("add-resources", "add resources", "{player} adds resources")
step("instruction-skipped", "an instruction that cannot be followed is ignored",
     "{instruction} cannot be followed: ignored")
step("discard", "discard cards from hand to the trash", "{player} discards {n} ({cards}, in hand order)")
step("repeat-executes", "Repeat was paid: the item's instructions are executed one additional time",
     "Repeat was paid for {item}: its instructions are executed again, with the same choices")
step("legion-active", "Legion: another card was finalized this turn", "{item}'s Legion text is active")
step("no-target-legal", "every target of an instruction is illegal: it is not executed, and the item still resolves",
     "{instruction}: none of its targets ({targets}) is legal any more, so it is not executed; {item} still "
     "resolves")
step("some-targets-illegal", "an instruction with several targets, some illegal: it acts on the legal ones only",
     "{instruction}: {illegal} {verb} no longer a legal target and {verb} unaffected; it acts on {legal}")


def instruction(kind: str) -> Callable[[Run], Run]:
    """Register what the instruction ``kind`` does when its item resolves."""
    def register(fn: Run) -> Run:
        if kind in RUNS:
            raise ValueError(f"instruction {kind!r} is registered twice")
        RUNS[kind] = fn
        return fn
    return register


def run_effects(m: Riftbound, s: State, t: Trace, item: Item) -> State:
    """Follow an item's instructions in order, its card's Legion text too when it is active; all of
    them once more when its Repeat was paid (820.1.d.1), with the same choices (the model's fixed
    way of making the choices 820.2.a leaves free: a target gone by then is skipped, 820.1.d.2)."""
    if item.origin == "activated":  # a Level ability gone Inactive on the chain resolves all the same (727.1.c.3.a)
        _level_gone(m, s, t, item)
    effects = list(item.effects)
    card = m.cards.get(item.card or "")
    if card is not None and card.legion and any(pl == item.controller and i != item.id
                                                for pl, _, i in s.finalized):
        t.note("legion-active", s, {"item": item.name})
        effects += card.legion
    for e in effects:
        s = _execute(m, s, t, item, e)
    if item.repeat:  # executed one additional time (820.1.d.1); played once all the same (820.3.a)
        t.note("repeat-executes", s, {"item": item.name})
        for e in effects:
            s = _execute(m, s, t, item, e)
    return s


def _level_gone(m: Riftbound, s: State, t: Trace, item: Item) -> None:
    """Say so when the activated Level ability ``item`` resolves after its controller's XP fell
    below its Level: it proceeds as normal (727.1.c.3.a)."""
    u = s.permanent(item.source or "")
    card = m.cards.get(u.card) if u is not None else None
    level = next((a.level for a in card.abilities if a.name == item.name), None) if card else None
    if level is not None and s.xp_of(item.controller) < level:
        t.note("level-ability-resolves-inactive", s, {"item": item.name, "level": level, "player": item.controller,
                                                      "xp": s.xp_of(item.controller)})


def _execute(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Follow one instruction of a resolving item (on each of its several targets, or once)."""
    try:
        run = RUNS[e[0]]
    except KeyError:
        raise ValueError(f"unknown instruction {e[0]!r}") from None
    return each_target(m, s, t, item, e) if e[1:2] == (SEVERAL_TARGETS,) and e[0] in SEVERAL else run(m, s, t, item, e)


def each_target(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """An instruction on the item's several targets (355.13): a target is illegal once it has left
    the board (359.3.e.2); the instruction acts on the legal ones only (359.3.e.8, 359.3.e.5), and
    is not executed when none is left (359.3.e.7) — the item resolves all the same (359.3.e.1,
    359.3.e.10). A kill of several is one kill: their deaths are simultaneous (370.1.a.2)."""
    legal = [n for n in item.targets if s.permanent(n) is not None]
    gone = [n for n in item.targets if n not in legal]
    verb = {"deal": "deal damage to", "give": "give Might to", "prevent": "prevent damage to"}.get(e[0], e[0])
    what = f"{verb} {', '.join(item.targets)}" + (f" to {e[2]}" if e[0] == "move" else "")
    if not legal:
        t.note("no-target-legal", s, {"instruction": what, "targets": ", ".join(item.targets), "item": item.name})
        return s
    if gone:
        t.note("some-targets-illegal", s, {"instruction": what, "illegal": ", ".join(gone), "legal": ", ".join(legal),
                                           "verb": "is" if len(gone) == 1 else "are"})
    if e[0] == "kill" and len(legal) > 1:
        return RUNS["kill-together"](m, s, t, item, ("kill-together", tuple(legal)))
    for name in legal:
        s = RUNS[e[0]](m, s, t, item, (e[0], name, *e[2:]))
    return s


@instruction("draw")
def draw(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    who = item.controller
    return t.step("draw", replace(s, drawn=drawn_plus(s, who, e[1])), {"player": who, "n": e[1]})


@instruction("discard")
def discard(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Discard N (422): as many as the hand holds (422.4), chosen by the model in hand order."""
    who, hand = item.controller, s.hand(item.controller)
    if hand is None:  # an unknown hand: its cards cannot be named
        return t.step("discard", s, {"player": who, "n": e[1], "cards": "unknown cards"})
    gone = hand[:e[1]]
    if not gone:
        t.note("instruction-skipped", s, {"instruction": f"discard {e[1]} (no cards in hand)"})
        return s
    s = trash.to_trash(m, replace(s, hands=with_hand(s, who, hand[len(gone):])), [(c, who) for c in gone])
    return t.step("discard", s, {"player": who, "n": len(gone), "cards": ", ".join(gone)})


@instruction("counter")
def counter(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    name = item.target if e[1] == "target" else e[1]
    victim = next((i for i in reversed(s.chain) if i.name == name and i.id != item.id
                   and i.status == "finalized"), None)
    if victim is None:
        t.note("instruction-skipped", s, {"instruction": f"counter {name}"})
        return s
    s = replace(s, chain=without(s.chain, victim.id))
    if victim.card is not None:
        s = trash.leaves_chain(m, s, t, victim, victim.card)  # to the trash, or banished (Flow, 829.1.b.1)
    t.note("counter", s, {"item": victim.name})
    return s


@instruction("create")
def create(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    _, name, effects, times = e
    for _ in range(times):
        s, _new = new_item(s, name=name, controller=item.controller, kind="trigger", source=item.name,
                           effects=effects, origin="reflexive")
        t.note("create-reflexive-trigger", s, {"item": name, "source": item.name})
    return s


@instruction("empower")
def empower(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Empower the item's own permanent, its source, not a target (827.1.b.1): by the Empower
    keyword's ability (827.1.b, 827.2) or another effect directing it (441.3.a), it becomes
    Empowered; one already Empowered is not Empowered again (441.1.c), one gone is skipped."""
    u = s.permanent(item.source or "")
    if u is None:
        t.note("instruction-skipped", s, {"instruction": f"empower {item.source}"})
        return s
    if u.empowered:
        t.note("already-empowered", s, {"unit": u.name})
        return s
    s = with_permanent(s, u.name, empowered=True)
    keyword = item.origin == "activated" and item.name == empower_ability(u.card)
    t.note("empowers" if keyword else "empowered-by-effect", s, {"unit": u.name, "item": item.name})
    u = s.permanent(u.name)
    fired = m.triggers_of(u.card, "empowered", u, s) if u is not None else []  # an event abilities see (827.2.a)
    return fire(s, t, [(u.controller, tr, u.card) for tr in fired], "empowered-triggers", [u.name for _ in fired])


@instruction("play")
def play(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    _, name, to = e
    who = item.controller
    hand = s.hand(who)
    if hand is not None and name not in hand:
        t.note("no-eligible-card", s, {"player": who, "item": name})
        return s
    card = m.cards[name]
    s = without_card(s, who, name)
    hidden = item.to if (item.kind, item.origin) in (("spell", "facedown"), ("trigger", "trigger")) else None
    if card.type == "unit" and hidden is not None:  # whatever the instruction's own destination (811.1.d.3)
        to = hidden
        t.note("hidden-plays-unit-there", s, {"source": item.name, "item": name, "at": hidden})
    if card.type == "unit" and to not in (None, "base") and m.combat_without(s, who, to):
        t.note("played-to-base-instead", s, {"item": name, "to": to})
        to = "base"
    s, _new = new_item(s, name=name, controller=who, kind=card.type, card=name, effects=card.effects,
                       origin="effect", to=to or ("base" if card.type == "unit" else None))
    t.note("play-from-effect", s, {"player": who, "item": name, "source": item.name})
    return s


def unit_of(s: State, t: Trace, item: Item, e: Effect) -> Permanent | None:
    """The unit an instruction names (or the item's target); None, recorded as skipped, when
    it is not on the board (any more)."""
    name = item.target if e[1] == "target" else e[1]
    u = s.permanent(name or "")
    if u is None:
        t.note("instruction-skipped", s, {"instruction": f"{e[0]} {name}"})
    return u


def unit_change(kind: str, step: str, **changes: object) -> Run:
    """Register the instruction ``kind``: it changes the unit (or gear) it names as
    ``changes`` say (``exhausted=False``…) and records ``step``; one no longer on the board
    is skipped."""
    def run(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
        u = unit_of(s, t, item, e)
        if u is None:
            return s
        s = with_permanent(s, u.name, **changes)
        t.note(step, s, {"unit": u.name})
        return s
    return instruction(kind)(run)


@instruction("move")
def move(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    u = unit_of(s, t, item, e)
    if u is None:
        return s
    to = e[2]
    if to != "base" and s.battlefield(to) is None or to == u.location:
        t.note("instruction-skipped", s, {"instruction": f"move {u.name} to {to}"})
        return s
    if m.invalid_destination(s, u.controller, to):
        if u.location == "base":
            t.note("instruction-skipped", s, {"instruction": f"move {u.name} to {to}"})
            return s
        s = with_permanent(s, u.name, location="base")
        t.note("recalled-instead", s, {"unit": u.name, "to": to})
    else:
        s = relocate(m, s, t, u, to)
        t.note("move-unit", s, {"unit": u.name, "to": to})
    return needs_cleanup(s)
