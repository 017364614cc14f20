"""Riftbound's decisions: what a player may do (play a card, activate an ability, hide a
card, a Standard Move, pass priority or focus, end the Main Phase, perform or decline an
optional triggered ability), each a registered transition with the checks that may forbid
it, the attempts worth listing (its bindings) and its effect."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import attaching, costs, trash
from kb.timing.models.riftbound.cards import Card
from kb.timing.models.riftbound.chain import after_leaving
from kb.timing.models.riftbound.checks import ability_source, hidden_choices, moved_units
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, State, replace_item, without, without_card
from kb.timing.models.riftbound.triggers import new_item, relocate

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step = registry.transition, registry.step

# The checks each decision must pass, in the order an explanation lists the ones that fail.
PLAY = ("has-priority", "not-mid-procedure", "own-turn-neutral-open", "in-hand", "in-trash", "facedown-ready",
        "closed-state-needs-reaction", "showdown-needs-action", "focus", "location", "targets", "several-targets",
        "hidden-has-targets", "hidden-targets", "move-outcome",
        "accelerate", "repeat", "costs", "deflect-cost", "additional-cost")
ACTIVATE = ("has-priority", "not-mid-procedure", "ability-on-board", "ability-timing", "ability-focus",
            "equip-target", "not-empowered", "level-active", "move-outcome", "exhaust-cost", "costs", "deflect-cost")
MOVE = ("has-priority", "not-mid-procedure", "move-timing", "unit-ready", "move-destination", "ganking",
        "teammate-battlefield")
HIDE = ("has-priority", "not-mid-procedure", "hide-timing", "in-hand", "hide-battlefield", "hide-cost")
PASS = ("has-priority", "not-mid-procedure")
TRIGGER = ("trigger-controller", "trigger-optional")

step("closes-state", "the item starts a chain: the state closes", "{item} starts a chain")
step("joins-chain", "the item joins the existing chain", "{item} joins the chain")
step("starts-chain-in-showdown", "the player with Focus starts a chain", "{player} starts a chain in the showdown")
step("legally-timed", "the item is legally timed", "{item} is legally timed ({why})")
step("play-from-facedown", "played from facedown: it has Reaction", "{item} is played from facedown at {at}")
step("hidden-permanent-there", "a hidden permanent is played to the battlefield where it was hidden",
     "{item} is played to {at}, where it was hidden")
step("hidden-gear-there", "a hidden gear is played to the battlefield where it was hidden, not to base",
     "{item} is played to {at}, where it was hidden (a gear played from hand goes to base)")
step("hidden-targets-there", "a hidden spell's targets are chosen among the units at the battlefield where it "
     "was hidden", "{item} chooses {units} at {at}, where it was hidden")
step("flow-play", "Flow: the spell is played from its owner's trash for its Flow cost, at its usual timing",
     "{item} is played from {player}'s trash for its Flow cost ({cost}), instead of its own")
step("ambush-permission", "Ambush: played to a battlefield with Reaction", "{item} is played with Ambush to {at}")
step("move-contests", "the unit contests the battlefield", "{player} contests {at}")
step("moves-together", "several units' Standard Moves performed simultaneously, as one game action",
     "{player} moves {units} together to {to}: one game action, their exhausting paid at once")
step("ganking-move", "Ganking: the unit's Standard Move goes from a battlefield to another",
     "{unit} has Ganking: its Standard Move takes it from {at} to {to}")
step("pass-step-resolve", "all players passed in sequence: resolve", "all players passed in sequence")
step("pass-step-continue", "priority passes to the next player", "{player} gains priority")
step("focus-passes", "focus passes to the next player", "{player} gains focus and priority")
step("retains-focus", "the player with focus passes priority and keeps focus", "{player} keeps focus")


def unknown_hand(m: Riftbound, s: State) -> list[str]:
    """The cards an unknown hand (``hands: null``) may hold: the pool's, but for the permanents
    the state shows on the board or facedown. A unit or gear there is that card, so no player is
    offered to play it again (nor an opponent to play it as theirs); a spell on the chain or in
    a trash may have another copy in a hand, as cards are replayed."""
    placed = {u.card for u in s.board} | {c for c, _, _, _ in s.facedown}
    return [n for n in m.cards if n not in placed]


def play_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    for player in s.players:
        hand = s.hand(player)
        names = list(dict.fromkeys(hand)) if hand is not None else unknown_hand(m, s)
        attempts = [(n, "hand") for n in names if n in m.cards and m.cards[n].type != "battlefield"]
        attempts += [(c, "facedown") for c, pl, _, _ in s.facedown if pl == player and c in m.cards]
        attempts += [(c, "trash") for c in dict.fromkeys(c for c, pl in s.owners if pl == player)
                     if c in m.cards and m.cards[c].flow is not None]  # Flow: from its owner's trash (829.1.b)
        for name, origin in attempts:
            card = m.cards[name]
            base: dict[str, Any] = {"player": player, "card": name}
            if origin != "hand":
                base["from"] = origin
            for to in destinations(s, player, card, origin):
                params = dict(base)
                if to is not None:
                    params["to"] = to
                if card.targets:  # several targets: every choice of one to N different units (355.13)
                    for chosen in several_choices(s, card.targets):
                        yield from costs.with_cost_choices(m, s, {**params, "targets": chosen})
                    continue
                wanted = m.needs_target(card.effects)
                if wanted is None:
                    yield from costs.with_cost_choices(m, s, params)
                    continue
                found = ([i.name for i in s.chain if i.status == "finalized"] if wanted == "item"
                         else [u.name for u in s.board])
                for t in dict.fromkeys(found) or [None]:
                    yield from costs.with_cost_choices(m, s, {**params, "target": t})


def several_choices(s: State, most: int) -> Iterator[tuple[str, ...]]:
    """The choices of one to ``most`` different units on the board, in board order (none on the
    board: an empty choice, which the several-targets check refuses)."""
    names = list(dict.fromkeys(u.name for u in s.board))
    if not names:
        yield ()
    for n in range(1, min(most, len(names)) + 1):
        yield from itertools.combinations(names, n)


def destinations(s: State, player: str, card: Card, origin: str) -> list[str | None]:
    if card.type != "unit" or origin == "facedown":
        return [None]
    out: list[str | None] = [None]
    for bf in s.battlefields:
        if bf.controller == player or ("Ambush" in card.keywords and s.units_at(bf.name, player)):
            out.append(bf.name)
    return out


def activate_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    seen = set()
    for u in s.board:
        card = m.cards.get(u.card)
        for a in card.abilities if card else ():
            if (u.controller, a.name) not in seen:
                seen.add((u.controller, a.name))
                if not a.attach:
                    yield {"player": u.controller, "ability": a.name}
                    continue
                # Equip chooses a unit its controller controls as its target (818.1.b.1, 818.1.c.2)
                for unit in s.board:
                    if unit.controller == u.controller and not unit.gear:
                        yield {"player": u.controller, "ability": a.name, "target": unit.name}


def hide_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    for player in s.players:
        hand = s.hand(player)
        for name in (hand if hand is not None else tuple(m.cards)):
            card = m.cards.get(name)
            if card is None or "Hidden" not in card.keywords:
                continue
            for bf in s.battlefields:
                if bf.controller == player:
                    yield {"player": player, "card": name, "at": bf.name}


def move_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    for u in s.board:
        card = m.cards.get(u.card)
        if card is None or card.type != "unit":
            continue
        dests = ["base"] if u.location != "base" else [b.name for b in s.battlefields]
        if u.location != "base" and m.ganks(u, s):  # battlefield to battlefield (810.1.b)
            dests += [b.name for b in s.battlefields if b.name != u.location]
        for to in dests:
            yield {"player": u.controller, "unit": u.name, "to": to}


def pass_priority_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if s.chain:
        for p in s.players:
            yield {"player": p}


def pass_focus_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if not s.chain and s.showdown is not None:
        for p in s.players:
            yield {"player": p}


def end_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if not s.chain and not s.in_showdown:
        for p in s.players:
            yield {"player": p}


def trigger_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    item = s.awaiting_choice
    if item is not None:
        for player in s.players:  # others are listed too: it is not their choice (383.3.a)
            yield {"player": player, "item": item.name}


def add_by_action(s: State, t: Trace, item: Item, opener: str) -> State:
    """A player adds an item by playing or activating (the chain may start here)."""
    if not s.chain[:-1]:
        t.note("closes-state", s, {"item": item.name})
        s = replace(s, opened_by=opener)
        if s.in_showdown:
            t.note("starts-chain-in-showdown", s, {"player": item.controller})
    else:
        t.note("joins-chain", s, {"item": item.name})
    showdown = replace(s.showdown, passes=0) if s.showdown else None
    return replace(s, passes=0, showdown=showdown)


def timing_reason(s: State, keywords: frozenset[str]) -> str:
    if s.chain:
        return "Reaction in a Closed State"
    if s.in_showdown:
        return ("Reaction" if "Reaction" in keywords else "Action") + " in a showdown"
    return "the turn player in a Neutral Open State"


@transition("play", "decision", "play a card",
            "{player} plays {card}{accelerate:, paying its Accelerate}{repeat:, paying its Repeat}", pre=PLAY,
            bindings=play_bindings)
def play(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    card = m.cards[p["card"]]
    origin = p.get("from", "hand")
    keywords = card.keywords
    reason = timing_reason(s, keywords | ({"Reaction"} if m.has_reaction(s, p) else set()))
    hidden = hidden_choices(m, s, p)  # read while the card is still facedown
    if origin == "facedown":
        at = next(bf for c, pl, bf, _ in s.facedown if c == card.name and pl == p["player"])
        s = replace(s, facedown=tuple(f for f in s.facedown if not (f[0] == card.name and f[1] == p["player"])))
        keywords = keywords | {"Reaction"}
    elif origin == "trash":  # Flow (829.1.b): its timing and permissions are unchanged (829.1.b.2)
        s = trash.take(s, card.name, p["player"])
    else:
        s = without_card(s, p["player"], card.name)
    ambush = m.ambush(s, p) and "Reaction" not in card.keywords and origin != "facedown"
    if ambush:
        keywords = keywords | {"Reaction"}
    to = p.get("to") or ("base" if card.type == "unit" else None)
    if origin == "facedown":  # hidden gear too (811.1.d.1.a); a spell keeps where it was hidden (811.1.d)
        to = at
    s, item = new_item(s, name=card.name, controller=p["player"], kind=card.type, card=card.name,
                             effects=card.effects, origin=origin, to=to, target=p.get("target"),
                             ambush=ambush, keywords=keywords, kill=p.get("kill"), targets=p.get("targets") or (),
                             accelerate=bool(p.get("accelerate")), repeat=bool(p.get("repeat")))
    if origin == "facedown":
        t.note("play-from-facedown", s, {"item": card.name, "at": at})
        if card.type != "spell":
            t.note("hidden-gear-there" if card.type == "gear" else "hidden-permanent-there", s,
                   {"item": card.name, "at": at})
        elif hidden is not None:
            t.note("hidden-targets-there", s, {"item": card.name, "at": at, "units": ", ".join(hidden[1])})
    if "Quick-Draw" in card.keywords:
        t.note("quick-draw-reaction", s, {"item": card.name})
    if origin == "trash":
        t.note("flow-play", s, {"item": card.name, "player": p["player"], "cost": str(card.flow)})
    if ambush:
        t.note("ambush-permission", s, {"item": card.name, "at": to})
    t.note("legally-timed", s, {"item": card.name, "why": reason})
    return add_by_action(s, t, item, "play")


@transition("activate", "decision", "activate an ability", "{player} activates {ability}{target: choosing %s}",
            pre=ACTIVATE,
            bindings=activate_bindings)
def activate(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    found = ability_source(m, s, p["player"], p["ability"])
    assert found is not None  # ability-on-board holds
    source, ability = found
    reason = timing_reason(s, ability.keywords)
    s, item = new_item(s, name=ability.name, controller=p["player"], kind="ability",
                             source=source.name, effects=ability.effects, add=ability.add,
                             origin="activated", keywords=ability.keywords, target=p.get("target"))
    t.note("legally-timed", s, {"item": ability.name, "why": reason})
    if ability.level is not None:  # granted by its Level, activated at its usual timing (727.1.c.3)
        t.note("level-ability-activated", s, {"item": ability.name, "level": ability.level, "player": p["player"],
                                              "xp": s.xp_of(p["player"])})
    if ability.attach:
        attaching.equip_chooses(t, s, item)
    if ability.empower:
        t.note("empower-activated", s, {"player": p["player"], "item": item.name, "unit": source.name})
    return add_by_action(s, t, item, "add" if ability.add else "play")


@transition("hide", "decision", "hide a card", "{player} hides {card} at {at}", pre=HIDE, bindings=hide_bindings)
def hide(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    s = costs.pay_to_hide(without_card(s, p["player"], p["card"]), t, p["player"], p["card"])
    return replace(s, facedown=s.facedown + ((p["card"], p["player"], p["at"], True),))


@transition("standard-move", "decision", "move a unit (Standard Move)", "{player} moves {unit} to {to}",
            pre=MOVE, bindings=move_bindings)
def standard_move(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """One unit's Standard Move, or several units' as one game action (``unit`` a tuple, 144.3):
    one destination, their origins as they are, each exhausted as the cost, then one cleanup.
    The bindings list single moves only (the sets of units that could move together are many);
    a scenario step names the units of a move together."""
    names = moved_units(p)
    if len(names) > 1:
        t.note("moves-together", s, {"player": p["player"], "units": ", ".join(names), "to": p["to"]})
    for name in names:
        u = s.permanent(name)
        assert u is not None
        if u.location != "base" and p["to"] != "base":  # only with Ganking (the ganking check holds)
            t.note("ganking-move", s, {"unit": u.name, "at": u.location, "to": p["to"]})
        s = relocate(m, s, t, u, p["to"], exhaust=True)
    return replace(s, tasks=s.tasks + ("cleanup",))


@transition("pass-priority", "decision", "pass priority", "{player} passes priority", pre=PASS,
            bindings=pass_priority_bindings)
def pass_priority(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    nxt = s.next_player(p["player"])
    s = replace(s, passes=s.passes + 1, priority=nxt)
    if s.focus == p["player"]:  # only in a showdown does anyone have focus (313.5)
        t.note("retains-focus", s, {"player": p["player"]})
    if s.passes >= len(s.players):
        t.note("pass-step-resolve", s)
    else:
        t.note("pass-step-continue", s, {"player": nxt})
    return s


@transition("pass-focus", "decision", "pass focus", "{player} passes focus", pre=PASS + ("focus",),
            bindings=pass_focus_bindings)
def pass_focus(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.showdown is not None
    passes = s.showdown.passes + 1
    s = replace(s, showdown=replace(s.showdown, passes=passes))
    if passes >= len(s.players):
        return t.step("showdown-closes", s, {"at": s.showdown.battlefield})
    nxt = s.next_player(p["player"])
    return t.step("focus-passes", replace(s, focus=nxt, priority=nxt), {"player": nxt})


@transition("end-main-phase", "decision", "end the Main Phase", "{player} ends the Main Phase",
            pre=PASS + ("own-turn-neutral-open",), bindings=end_bindings)
def end_main_phase(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return replace(s, phase="ending", priority=None)


@transition("perform-trigger", "decision", "perform an optional triggered ability",
            "{player} chooses to perform {item}", pre=TRIGGER, bindings=trigger_bindings)
def perform(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = s.pending[0]
    return replace(s, chain=replace_item(s.chain, replace(item, decided=True)))


@transition("decline-trigger", "decision", "decline an optional triggered ability", "{player} declines {item}",
            pre=TRIGGER, bindings=trigger_bindings)
def decline(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    item = s.pending[0]
    return after_leaving(m, replace(s, chain=without(s.chain, item.id)), t)
