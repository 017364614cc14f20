"""Riftbound's HOT FEPR on the chain: finalizing pending items (337), resolving the newest
finalized one (340), units, gear and Add abilities resolving at once (337.2), what follows an
item leaving the chain (340.2–340.4), and who receives priority in an open state (335)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import Card
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound import costs, play_attaching, trash, turn_limits
from kb.timing.models.riftbound.combat import cleanup_if_due
from kb.timing.models.riftbound.effects import run_effects
from kb.timing.models.riftbound.state import Item, Permanent, State, replace_item, with_hand, without
from kb.timing.models.riftbound.triggers import Fired, active, fire

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step = registry.transition, registry.step

step("trigger-performed", "a \"once (N times) each turn\" triggered ability is performed and counted this turn",
     "{item} (\"{times} each turn\") is performed: {count} this turn")
step("counts-as-finalized", "the card counts as played for Legion-style checks", "{player} has finalized {item} this turn")
step("lingers", "a finalized spell lingers on the chain", "{item} waits on the chain")
step("ability-lingers", "a finalized ability waits on the chain", "{item} waits on the chain")
step("finalize-next", "more items are pending: finalize the next", "more items are pending")
step("finalize-next-after-ability", "more items are pending after a finalized ability: finalize the next",
     "more items are pending")
step("finalize-next-after-leaving", "an item left the chain and more are pending: finalize the next",
     "more items are pending")
step("spell-executes", "the spell's instructions are executed, top to bottom", "{item}'s instructions are executed")
step("ability-executes", "the ability is executed just like a spell", "{item}'s instructions are executed")
step("priority-to-next-item", "the controller of the next item gains priority", "{player} gains priority (controls {item})")
step("enters-board", "the unit enters the board", "{item} enters the board at {at}")
step("gear-enters-board", "the gear enters the board", "{item} enters the board at {at}")
step("accelerate-enters-ready", "Accelerate was paid: the unit enters ready (a delayed replacement effect)",
     "{item} enters ready, not exhausted: Accelerate was paid")
step("enters-ready", "\"I enter ready\": a replacement effect on how the unit enters",
     "{item} enters ready instead of exhausted (its own replacement effect)")
step("add-resolves", "priority and focus do not pass from an Add ability", "priority stays with {player}")
step("completes-play", "the spell is played", "{player} has played {item}")
step("permanent-completes-play", "the unit or gear is played", "{player} has played {item}")
step("open-state", "the chain is empty: neutral open state", "the chain is empty")
step("showdown-open-state", "the chain is empty during a showdown or combat: showdown open state",
     "the chain is empty: the showdown goes on open")
step("open-state-cleanup", "the turn became open: a cleanup is outstanding", "the turn is open again: a cleanup follows")
step("status-cleanup", "the showdown or combat ended, changing statuses: a cleanup is outstanding",
     "statuses changed: a cleanup follows")
step("focus-passes-after-chain", "the chain closed: focus passes", "focus passes to {player}")
step("focus-stays", "a chain opened by a trigger or Add ability: focus does not pass", "focus stays with {player}")
step("back-to-finalize", "pending items remain: back to Finalize", "pending items remain")
step("priority-to-newest", "the controller of the newest item gains priority", "{player} gains priority (controls {item})")
step("play-contests", "a unit played to a battlefield its controller does not control contests it", "{player} contests {at}")
step("play-effect-triggers", "a play trigger fires when the card completes play", "{item} triggers as {when}")


def finalizing(m: Riftbound, s: State) -> tuple[Item, str] | None:
    """The oldest pending item (334.2) and how finalizing it goes on now: ``finalize``,
    ``trigger-removed``, ``trigger-used-up``, ``play-undone``, ``cost-unpaid``, or a decision its controller owes
    (``await``: pay a triggered ability's cost; ``await-add``: Add while paying, 429.3)."""
    if s.ready_task() is not None:
        return None
    pend = s.pending
    if not pend:
        return None
    item = pend[0]
    limited = turn_limits.trigger_of(m, item)
    if limited is not None and turn_limits.used_up(s, limited):
        return item, "trigger-used-up"
    if item.optional and not item.decided:
        return None
    if m.attaching_on_play and play_attaching.awaits_choice(item):  # its choice is made now (402.2, 402.4)
        return (item, "trigger-removed") if not play_attaching.choices(m, s, item) else None
    if item.kind == "trigger" and not m.targets_ok(s, item.effects, item.target, item.id):
        return item, "trigger-removed"
    if item.ambush and not s.units_at(item.to or "", item.controller):
        return item, "play-undone"
    return item, costs.finalize_outcome(m, s, item) or "finalize"  # paying is a step of finalizing (357, 404)


def finalize_bindings(which: str) -> Callable[[Riftbound, State], Iterator[dict[str, Any]]]:
    """Finalizing the oldest pending item (334.2) ends one of three ways; ``which`` is one."""
    def bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
        found = finalizing(m, s)
        if found is not None and found[1] == which:
            item = found[0]
            yield {"player": item.controller, "item": item.name, "id": item.id}
    return bindings


def limited_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """A limited triggered ability used up as it is finalized (383.3.e.1): only in a pool that has one."""
    return finalize_bindings("trigger-used-up")(m, s) if m.limited_triggers else iter(())


def resolve_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if (s.chain and s.ready_task() is None and not s.pending and s.passes >= len(s.players)):
        top = s.chain[-1]
        yield {"item": top.name, "id": top.id, "player": top.controller}


def receive_bindings(kind: str) -> Callable[[Riftbound, State], Iterator[dict[str, Any]]]:
    """Receiving priority in an open state: the turn player's (neutral) or focus's (showdown)."""
    def bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
        if s.chain or s.tasks or s.priority is not None or s.phase != "main":
            return
        if kind == "neutral" and not s.in_showdown:
            yield {"player": s.turn_player}
        elif kind == "showdown" and s.showdown is not None and s.focus is not None:
            yield {"player": s.focus}
    return bindings


@transition("finalize", "automatic", "finalize the oldest pending item", "{player} finalizes {item}",
            bindings=finalize_bindings("finalize"))
def finalize(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = next(i for i in s.chain if i.id == p["id"])
    s = costs.pay_for(m, s, t, item)
    done = replace(item, status="finalized")
    s = replace(s, chain=replace_item(s.chain, done))
    limited = turn_limits.trigger_of(m, item)
    if limited is not None:  # performed as it is finalized: counted this turn (383.3.e.1)
        s = turn_limits.performed(s, limited)
        t.note("trigger-performed", s, {"item": item.name, "times": turn_limits.times(limited.each_turn),
                                        "count": turn_limits.times(s.times_performed(item.name))})
    if item.card is not None:
        s = replace(s, finalized=s.finalized + ((item.controller, item.card, item.id),))
        t.note("counts-as-finalized", s, {"player": item.controller, "item": item.name})
    if item.kind in ("unit", "gear") or item.add:
        return t.step("resolves-immediately", s, {"item": item.name, "id": item.id,
                                                   "player": item.controller})
    spell = item.kind == "spell"
    t.note("lingers" if spell else "ability-lingers", s, {"item": item.name})
    if s.pending:
        t.note("finalize-next" if spell else "finalize-next-after-ability", s)
        return s
    top = s.chain[-1]
    s = replace(s, priority=top.controller, passes=0)
    t.note("priority-to-next-item", s, {"player": top.controller, "item": top.name})
    return s


@transition("trigger-used-up", "automatic", "a \"once (N times) each turn\" triggered ability already performed "
            "that many times this turn leaves the chain unperformed", "{item} leaves the chain: it has already been "
            "performed as often as it may this turn", bindings=limited_bindings)
def trigger_used_up(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return after_leaving(m, replace(s, chain=without(s.chain, p["id"])), t)


@transition("trigger-removed", "automatic", "a triggered ability without legal choices leaves the chain",
            "{item} leaves the chain (no legal choices; not countered)", bindings=finalize_bindings("trigger-removed"))
def trigger_removed(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return after_leaving(m, replace(s, chain=without(s.chain, p["id"])), t)


@transition("play-undone", "automatic", "an Ambush unit's location became invalid: its play is undone",
            "{item} is not finalized: its play is undone", bindings=finalize_bindings("play-undone"))
def play_undone(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = next(i for i in s.chain if i.id == p["id"])
    s = replace(s, chain=without(s.chain, item.id))
    hand = s.hand(item.controller)
    if hand is not None and item.card:
        s = replace(s, hands=with_hand(s, item.controller, hand + (item.card,)))
    return after_leaving(m, s, t)


def after_leaving(m: Riftbound, s: State, t: Trace) -> State:
    """An item left the chain while being finalized: Finalize goes on (337.3, 337.4), or the
    chain is empty and the state opens (340.2)."""
    return proceed(m, s, t, add=False, finalizing=True)


def enters_ready(card: Card, item: Item) -> bool:
    """Whether the unit enters ready: "I enter ready" (369.3), or Accelerate's cost was paid for it,
    a delayed replacement effect that has it enter ready, never exhausted (805.2.b, 805.6)."""
    return card.enters_ready or item.accelerate


def entering_replaced(m: Riftbound, s: State, t: Trace, item: Item, card: Card | None) -> State:
    """What the permanent's own replacement effects on its entering do (369.3): "I enter ready"
    (it entered ready), and "As I enter, …", whose instructions are part of the entering event
    (370.1.b.1), applied before it occurs (370.1.c): nothing goes on the chain, nothing triggers."""
    if card is None:
        return s
    if card.enters_ready:
        t.note("enters-ready", s, {"item": item.name})
    if item.accelerate:
        t.note("accelerate-enters-ready", s, {"item": item.name})
    if card.as_enters:
        s = t.step("as-enters", s, {"item": item.name, "player": item.controller, "card": card.name,
                                    "id": item.id})
    return s


@transition("as-enters", "step", "\"As I enter, …\": the entering is replaced by the same event plus what it "
            "does, with no chain item and no trigger", "as {item} enters, {player} follows its instructions "
            "(part of its entering: no chain item, nobody responds)")
def as_enters(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The instructions of "As I enter, …", followed as part of the entering (370.1.b.1)."""
    item = Item(id=p["id"], name=p["item"], controller=p["player"], kind="unit", effects=m.cards[p["card"]].as_enters)
    return run_effects(m, s, t, item)


@transition("resolves-immediately", "step", "a unit, gear or Add ability resolves immediately",
            "{item} resolves immediately")
def resolve_immediately(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = next(i for i in s.chain if i.id == p["id"])
    s = replace(s, chain=without(s.chain, item.id))
    if item.add:
        s = run_effects(m, s, t, item)
        t.note("add-resolves", s, {"player": s.priority or item.controller})
        return proceed(m, s, t, add=True)
    card = m.cards[item.card] if item.card else None
    # a gear enters at its base, but a hidden gear where it was hidden (811.1.d.1.a)
    location = item.to if item.kind in ("unit", "gear") and item.to else "base"
    ready = card is not None and enters_ready(card, item)
    perm = Permanent(unique_name(s, item.name), item.card or item.name, item.controller, location,
                     exhausted=item.kind == "unit" and not ready, gear=item.kind == "gear")
    s = replace(s, board=s.board + (perm,))
    t.note("gear-enters-board" if item.kind == "gear" else "enters-board", s, {"item": item.name, "at": location})
    s = entering_replaced(m, s, t, item, card)
    if location != "base":
        bf = s.battlefield(location)
        if bf is not None and item.kind == "unit" and bf.controller != item.controller and bf.contested_by is None:
            s = replace(s, battlefields=tuple(replace(b, contested_by=item.controller) if b.name == location
                                              else b for b in s.battlefields))
            t.note("play-contests", s, {"player": item.controller, "at": location})
        s = replace(s, tasks=s.tasks + ("cleanup",))
    s = completes_play(m, s, t, item, card)
    return proceed(m, s, t, add=False)


def unique_name(s: State, name: str) -> str:
    taken = {u.name for u in s.board}
    if name not in taken:
        return name
    n = 2
    while f"{name} #{n}" in taken:
        n += 1
    return f"{name} #{n}"


def completes_play(m: Riftbound, s: State, t: Trace, item: Item, card: Card | None) -> State:
    """The card completes play (350.1): play triggers fire now (419.4.a)."""
    if card is None:
        return s
    s = replace(s, played=s.played + ((item.controller, card.name),))
    t.note("permanent-completes-play" if card.type in ("unit", "gear") else "completes-play", s,
           {"player": item.controller, "item": item.name})
    fired: Fired = []
    units: list[str] = []  # whose each one is, by name (a second copy is "Yeti #2")
    if card.type in ("unit", "gear"):
        fired += [(item.controller, tr, card.name) for tr in card.triggers  # not Empowered as it enters
                  if tr.on == "play" and tr.what == "self" and not tr.empowered
                  and active(tr, None, s, item.controller)]
        units += [item.name for _ in fired]
    own = {tr.name for _, tr, _ in fired} if item.origin == "facedown" else set()
    for u in s.board:
        if u.controller != item.controller or u.card not in m.cards:
            continue
        for tr in m.cards[u.card].triggers:
            if tr.on == "play" and tr.what in (card.type, "card") and not (tr.what == "self") and active(tr, u, s):
                fired.append((u.controller, tr, u.card))
                units.append(u.name)
    first = s.next_id
    s = fire(s, t, fired, "play-effect-triggers", units)
    # a permanent played from Hidden: its own play effects keep where it was hidden (811.1.d)
    return replace(s, chain=tuple(replace(i, to=item.to) if i.id >= first and i.name in own and i.source == card.name
                                  else i for i in s.chain)) if own else s


@transition("resolve", "automatic", "resolve the newest finalized item", "{item} resolves",
            bindings=resolve_bindings)
def resolve(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = next(i for i in s.chain if i.id == p["id"])
    t.note("spell-executes" if item.kind == "spell" else "ability-executes", s, {"item": item.name})
    s = run_effects(m, s, t, item)
    s = replace(s, chain=without(s.chain, item.id))
    if item.kind == "spell":
        s = trash.leaves_chain(m, s, t, item, item.name)  # its controller's trash (157), or banished
        s = completes_play(m, s, t, item, m.cards.get(item.card or ""))
    return proceed(m, s, t, add=False)


def proceed(m: Riftbound, s: State, t: Trace, add: bool, finalizing: bool = False) -> State:
    """After an item resolves or leaves the chain: 340.2–340.4 (and 429.2.a for Add)."""
    s = replace(s, passes=0)
    if not s.chain:
        opener = s.opened_by
        s = replace(s, opened_by=None)
        open_state(s, t)
        if s.showdown is not None and s.focus is not None:
            if opener == "play":
                nxt = s.next_player(s.focus)
                s = replace(s, focus=nxt, priority=None, showdown=replace(s.showdown, passes=0))
                t.note("focus-passes-after-chain", s, {"player": nxt})
            else:
                s = replace(s, priority=None)
                t.note("focus-stays", s, {"player": s.focus})
        else:
            s = replace(s, priority=None)
        return cleanup_if_due(m, s, t, "open-state-cleanup")
    if s.pending:
        t.note("finalize-next-after-leaving" if finalizing else "back-to-finalize", s)
        return s
    if add:
        return s
    top = s.chain[-1]
    s = replace(s, priority=top.controller)
    t.note("priority-to-next-item" if finalizing else "priority-to-newest", s,
           {"player": top.controller, "item": top.name})
    return s


def open_state(s: State, t: Trace) -> None:
    """Record that the chain is empty: a Neutral Open State (310.1), or Showdown Open while a
    showdown or combat is in progress (310.3)."""
    t.note("showdown-open-state" if s.in_showdown else "open-state", s)


@transition("receive-priority", "automatic", "the turn player receives priority",
            "{player} receives priority", bindings=receive_bindings("neutral"))
def receive_priority(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return replace(s, priority=p["player"])


# The player with focus receives priority the same way (335.1).
transition("focus-holder-priority", "automatic", "the player with focus receives priority",
           "{player} (focus) receives priority", bindings=receive_bindings("showdown"))(receive_priority)
