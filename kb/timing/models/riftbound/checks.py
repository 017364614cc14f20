"""Riftbound's legality checks: each a module-level function ``holds(model, state, params)``
registered under its name, cited from ``check.NAME`` in the table of citations, with the
summary an explanation gives when it forbids a tempting action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.engine import Params
from kb.timing.models.riftbound.cards import SEVERAL_TARGETS, UNIT_CHOICES, Ability
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

check = registry.check


@check("has-priority", "only the player with Priority may act")
def has_priority(m: Riftbound, s: State, p: Params) -> bool:
    return s.priority == p["player"]


@check("not-mid-procedure", "pending items are finalized (and tasks handled) before anyone acts")
def not_mid_procedure(m: Riftbound, s: State, p: Params) -> bool:
    return s.ready_task() is None and not s.pending and s.phase in ("beginning", "main")


@check("own-turn-neutral-open", "in a Neutral Open State only the turn player plays")
def own_turn_neutral_open(m: Riftbound, s: State, p: Params) -> bool:
    return s.in_showdown or bool(s.chain) or p["player"] == s.turn_player


@check("closed-state-needs-reaction", "a chain exists: only Reaction may be played")
def closed_state_needs_reaction(m: Riftbound, s: State, p: Params) -> bool:
    return not s.chain or m.has_reaction(s, p)


@check("showdown-needs-action", "in a showdown only Action or Reaction may be played")
def showdown_needs_action(m: Riftbound, s: State, p: Params) -> bool:
    if not s.in_showdown or s.chain:
        return True
    card = m.cards[p["card"]]
    return "Action" in card.keywords or m.has_reaction(s, p)


@check("focus", "in a Showdown Open State only the player with Focus acts")
def focus(m: Riftbound, s: State, p: Params) -> bool:
    return not s.in_showdown or bool(s.chain) or s.focus == p["player"]


@check("in-hand", "the card is not in that player's hand (or facedown)")
def in_hand(m: Riftbound, s: State, p: Params) -> bool:
    if p.get("from") == "facedown":
        return any(c == p["card"] and pl == p["player"] for c, pl, _, _ in s.facedown)
    if p.get("from") == "trash":  # the in-trash check's
        return True
    hand = s.hand(p["player"])
    return hand is None or p["card"] in hand


@check("in-trash", "only a spell with Flow is played from a trash, and only from its owner's own")
def in_trash(m: Riftbound, s: State, p: Params) -> bool:
    if p.get("from") != "trash":
        return True
    card = m.cards.get(p["card"])
    return card is not None and card.flow is not None and (p["card"], p["player"]) in s.owners


@check("facedown-ready", "a card hidden this turn can be played from facedown only from the next turn")
def facedown_ready(m: Riftbound, s: State, p: Params) -> bool:
    if p.get("from") != "facedown":
        return True
    return any(c == p["card"] and pl == p["player"] and not fresh for c, pl, _, fresh in s.facedown)


@check("targets", "valid choices must exist for every target")
def targets(m: Riftbound, s: State, p: Params) -> bool:
    return m.targets_ok(s, m.cards[p["card"]].effects, p.get("target"))


def hidden_at(s: State, p: Params) -> str | None:
    """The battlefield where a card played from facedown was hidden; None for another play."""
    if p.get("from") != "facedown":
        return None
    return next((bf for c, pl, bf, _ in s.facedown if c == p["card"] and pl == p["player"]), None)


def hidden_choices(m: Riftbound, s: State, p: Params) -> tuple[str, list[str]] | None:
    """For a spell played from Hidden that chooses units (its target, its several targets, the
    units its instructions name): the battlefield where it was hidden and the units chosen, which
    must be there (811.1.d.2, each target on its own: 811.1.d.2.a). None for any other play,
    and for a spell that chooses only an item on the chain: no item is at a battlefield, a
    restriction that makes Hidden's impossible, so it is chosen as normal (811.1.d.2)."""
    card = m.cards[p["card"]]
    at = hidden_at(s, p)
    if at is None or card.type != "spell":
        return None
    chosen: list[str] = []
    for e in card.effects:
        if e[0] not in UNIT_CHOICES:
            continue
        if e[1] == SEVERAL_TARGETS:
            names = p.get("targets") or ()
        elif e[1] == "target":
            names = (p.get("target"),)
        else:  # a unit the instruction names, or several (kill: [A, B])
            names = tuple(e[1]) if isinstance(e[1], tuple) else (e[1],)
        chosen += [n for n in names if isinstance(n, str) and n not in chosen]
    wants = card.targets or any(e[0] in UNIT_CHOICES for e in card.effects)
    return (at, chosen) if wants else None


@check("hidden-has-targets", "a spell played from Hidden needs a valid target at the battlefield where it was "
       "hidden")
def hidden_has_targets(m: Riftbound, s: State, p: Params) -> bool:
    found = hidden_choices(m, s, p)
    return found is None or any(u.location == found[0] for u in s.board)


@check("hidden-targets", "a spell played from Hidden chooses its targets among the units at the battlefield "
       "where it was hidden")
def hidden_targets(m: Riftbound, s: State, p: Params) -> bool:
    found = hidden_choices(m, s, p)
    if found is None:
        return True
    at, chosen = found
    # a unit not on the board is the targets check's refusal (355.8)
    return all(u is None or u.location == at for u in map(s.permanent, chosen))


@check("several-targets", "the units chosen as its targets: one to as many as it says, each a different unit on the "
       "board")
def several_targets(m: Riftbound, s: State, p: Params) -> bool:
    card = m.cards[p["card"]]
    return m.several_targets_ok(s, card, p.get("targets")) if card.targets else "targets" not in p


@check("move-outcome", "its move would put a unit where it cannot be: a battlefield with two other "
       "players' units, or another two players' combat")
def move_outcome(m: Riftbound, s: State, p: Params) -> bool:
    if "card" in p:
        return m.moves_ok(s, m.cards[p["card"]].effects, p.get("target"), p.get("targets") or ())
    a = ability_of(m, s, p)
    return a is None or m.moves_ok(s, a.effects, None)


@check("location", "not a valid location to play that unit")
def location(m: Riftbound, s: State, p: Params) -> bool:
    card = m.cards[p["card"]]
    to = p.get("to")
    if card.type != "unit":
        return to in (None, "base") or p.get("from") == "facedown"
    if p.get("from") == "facedown":
        here = next((bf for c, pl, bf, _ in s.facedown if c == p["card"] and pl == p["player"]), None)
        return to in (None, here)
    if to in (None, "base"):
        return True
    bf = s.battlefield(to)
    if bf is None:
        return False
    return bf.controller == p["player"] or m.ambush(s, p)


def ability_source(m: Riftbound, s: State, player: str, name: str) -> tuple[Permanent, Ability] | None:
    """The permanent of ``player`` whose ability ``name`` they would activate, with the ability:
    a ready one first when the ability's cost exhausts its permanent (414.4, 414.5)."""
    found = None
    for u in s.board:
        if u.controller != player:
            continue
        card = m.cards.get(u.card)
        for a in card.abilities if card else ():
            if a.name == name:
                if not (a.exhaust and u.exhausted) and not (a.empower and u.empowered):
                    return u, a
                found = found or (u, a)
    return found


def ability_of(m: Riftbound, s: State, p: Params) -> Ability | None:
    """The ability ``p["ability"]`` on a permanent of ``p["player"]``, if there is one."""
    found = ability_source(m, s, p["player"], p["ability"])
    return found[1] if found else None


@check("ability-on-board", "no permanent of that player on the board has that ability")
def ability_on_board(m: Riftbound, s: State, p: Params) -> bool:
    return ability_of(m, s, p) is not None


@check("equip-target", "Equip attaches its gear to a unit its controller controls, chosen as its target; "
       "another ability chooses no target as it is activated")
def equip_target(m: Riftbound, s: State, p: Params) -> bool:
    ability = ability_of(m, s, p)
    target = p.get("target")
    if ability is None or not ability.attach:
        return target is None
    unit = s.permanent(target) if isinstance(target, str) else None
    return unit is not None and not unit.gear and unit.controller == p["player"]


@check("not-empowered", "Empower is played only if its permanent is not Empowered")
def not_empowered(m: Riftbound, s: State, p: Params) -> bool:
    found = ability_source(m, s, p["player"], p["ability"])
    return found is None or not found[1].empower or not found[0].empowered


@check("level-active", "a Level ability is activated only while its controller has its XP")
def level_active(m: Riftbound, s: State, p: Params) -> bool:
    a = ability_of(m, s, p)
    return a is None or a.level is None or s.xp_of(p["player"]) >= a.level


@check("ability-timing", "that ability is not legally timed now")
def ability_timing(m: Riftbound, s: State, p: Params) -> bool:
    a = ability_of(m, s, p)
    if a is None:
        return True  # reported by ability-on-board
    if s.chain:
        return "Reaction" in a.keywords
    if s.in_showdown:
        return bool({"Action", "Reaction"} & a.keywords)
    return p["player"] == s.turn_player


@check("ability-focus", "in a Showdown Open State only the player with Focus acts", cites="check.focus")
def ability_focus(m: Riftbound, s: State, p: Params) -> bool:
    return not s.in_showdown or bool(s.chain) or s.focus == p["player"]


@check("move-timing", "a Standard Move only in your Main Phase, in a Neutral Open State")
def move_timing(m: Riftbound, s: State, p: Params) -> bool:
    return not s.chain and not s.in_showdown and p["player"] == s.turn_player


def moved_units(p: Params) -> tuple[str, ...]:
    """The units a Standard Move moves: one (``unit`` a name), or several moved together as one
    game action (``unit`` a tuple of names, 144.3)."""
    unit = p.get("unit", "")
    return tuple(unit) if isinstance(unit, tuple) else (unit,)


@check("unit-ready", "the unit must be that player's and ready (exhausting it is the cost)")
def unit_ready(m: Riftbound, s: State, p: Params) -> bool:
    for name in moved_units(p):
        u = s.permanent(name)
        if u is None or u.controller != p["player"] or u.exhausted:
            return False
    return True


@check("move-destination", "not a valid destination for a Standard Move")
def move_destination(m: Riftbound, s: State, p: Params) -> bool:
    to = p["to"]
    for name in moved_units(p):  # units moved together have one destination (144.3.a)
        u = s.permanent(name)
        if u is None:
            return False
        if to == "base":
            if u.location == "base":
                return False
            continue
        if u.location == to or s.battlefield(to) is None:
            return False
    return to == "base" or not m.invalid_destination(s, p["player"], to)


@check("ganking", "a Standard Move goes from a battlefield to another only for a unit with Ganking")
def ganking(m: Riftbound, s: State, p: Params) -> bool:
    for name in moved_units(p):  # the origins of units moved together may differ (144.3.b)
        u = s.permanent(name)
        if not (u is None or u.location == "base" or p["to"] == "base" or m.ganks(u, s)):
            return False
    return True


@check("hide-timing", "hiding only on your turn during an Open State")
def hide_timing(m: Riftbound, s: State, p: Params) -> bool:
    return not s.chain and p["player"] == s.turn_player


@check("hide-battlefield", "hide a Hidden card only at a battlefield you control with no facedown card")
def hide_battlefield(m: Riftbound, s: State, p: Params) -> bool:
    bf = s.battlefield(p["at"])
    card = m.cards.get(p["card"])
    return (bf is not None and bf.controller == p["player"] and card is not None
            and "Hidden" in card.keywords and not any(b == p["at"] for _, _, b, _ in s.facedown))


def trigger_item(s: State, p: Params) -> Item | None:
    """The pending triggered ability ``p["item"]`` a choice is about, if it is the one due."""
    pend = s.pending
    return pend[0] if pend and pend[0].name == p["item"] else None


@check("trigger-controller", "only the controller of the triggered ability decides")
def trigger_controller(m: Riftbound, s: State, p: Params) -> bool:
    item = trigger_item(s, p)
    return item is not None and item.controller == p["player"]


@check("trigger-optional", "only a triggered ability whose effect begins with \"you may\" can be declined")
def trigger_optional(m: Riftbound, s: State, p: Params) -> bool:
    item = trigger_item(s, p)
    return item is None or (item.kind == "trigger" and item.optional and not item.decided)
