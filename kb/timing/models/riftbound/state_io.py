"""Riftbound states as JSON both ways, through the shared codec
(:mod:`kb.timing.models.codec`): the dataclasses of :mod:`kb.timing.models.riftbound.state`
say how each field reads and writes; this module supplies the checks that need the state's
players, card pool and battlefields, and what no single field can say (priority given to
two players, the turn state against the chain, ids increasing up the chain)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from kb.timing.engine import FormatError, Violation
from kb.timing.fields import a_list, card_of, one_of, only_keys, player_of, pool_json, turn_order
from kb.timing.models.codec import Context, Json, decode, encode, json_keys, read_value
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import card_json, parse_cards
from kb.timing.models.riftbound.citations import cite
from kb.timing.models.riftbound.model import Riftbound, model_for
from kb.timing.models.riftbound.trash import active_in_trash, kept_in_trash
from kb.timing.models.riftbound.state import COMBAT_TASKS, TURN_STATES, Battlefield, Combat, Item, Showdown, State

# The keys of a state's JSON, in the order they are written: the state's fields, and what is
# derived from them (the turn state, the turn player) or from the model (the card pool).
DERIVED_KEYS = ("ruleset", "turn_state", "turn_player", "cards")
STATE_KEYS = ("ruleset", "turn_state", "priority", "focus", "chain", "players", "turn_player", "phase", "passes",
              "showdown", "combat", "opened_by", "tasks", "board", "battlefields", "hands", "facedown",
              "finalized_this_turn", "played_this_turn", "drawn", "trash", "trash_owners", "banished", "scored",
              "points", "victory_score", "winner", "removed_players", "next_id", "rune_pools", "runes", "teams", "disqualified_this_turn",
              "replaced_this_turn", "replacement_choices", "performed_this_turn", "xp", "cards")
_plain, _ids = Json(), Json(low=1, high=10_000)
assert set(STATE_KEYS) == set(json_keys(State)) | set(DERIVED_KEYS), "a state field without its place in the JSON"


def state_json(model: Riftbound, s: State) -> dict[str, Any]:
    """A state as plain JSON; :func:`state_from_json` reads it back (every frame's state)."""
    out = encode(s, Context(cards=model.cards))
    out.update(ruleset="riftbound", turn_state=s.turn_state, turn_player=s.turn_player,
               cards=pool_json(model, card_json))
    return {k: out[k] for k in STATE_KEYS if k in out}


def _context(players: tuple[str, ...], model: Riftbound) -> Context:
    player, card_name = player_of(players), card_of(model.cards)

    def card(value: Any, where: str, optional: bool) -> str | None:
        return None if value is None and optional else card_name(value, where)

    ctx = Context(players=players, cards=model.cards, next_id=1, showdown=None, places=("base",))
    ctx.checks.update(player=lambda v, where, optional: player(v, where, optional), card=card,
                      place=lambda v, where, optional: one_of(v, ctx.places, where),
                      battlefield=lambda v, where, optional: one_of(v, ctx.places[1:], where))
    return ctx


def _chain(raw: Any, where: str, ctx: Context) -> tuple[Item, ...]:
    chain = []
    for i, item in enumerate(a_list(raw, where)):
        at = f"{where}[{i}]"
        if isinstance(item, str):
            item = {"name": item}
        got = decode(Item, item, at, ctx)
        if got.id < ctx.next_id:
            raise FormatError("chain item ids increase from the bottom of the chain to the top", f"{at}.id")
        ctx.next_id = got.id + 1
        chain.append(got)
    return tuple(chain)


def state_from_json(data: Any) -> tuple[Riftbound, State, list[Violation]]:
    """Read a state (any frame's ``state``, or a hand-written one with at least ``players``).

    Malformed input raises :class:`FormatError` with the field; states the rules cannot
    produce are returned as violations (the caller refuses them with their rules).
    """
    if not isinstance(data, dict):
        raise FormatError("a state is a JSON object")
    only_keys(data, STATE_KEYS, "state")
    model = model_for(parse_cards(data.get("cards"), "cards"))
    violations: list[Violation] = []
    players = turn_order(data.get("players"),
                         "list the players (2 to 4, distinct) in turn order, the turn player first")
    if data.get("turn_player") not in (None, players[0]):
        raise FormatError("the turn player is listed first in players", "turn_player")
    ctx = _context(players, model)
    prio = data.get("priority")
    if isinstance(prio, list):
        holders = [ctx.check("player", p, f"priority[{i}]", False) for i, p in enumerate(prio)]
        if len(holders) > 1:
            violations.append(Violation(f"{' and '.join(map(str, holders))} both hold priority",
                                        cite("state.one-priority"), "priority"))
        prio = holders[0] if holders else None
    given: dict[str, Any] = {"players": players, "priority": ctx.check("player", prio, "priority", True)}
    given["focus"] = ctx.check("player", data.get("focus"), "focus", True)
    given["chain"] = _chain(data.get("chain"), "chain", ctx)
    battlefields = []
    for i, b in enumerate(a_list(data.get("battlefields"), "battlefields")):
        got = decode(Battlefield, b, f"battlefields[{i}]", ctx)
        if got.name == "base" or any(x.name == got.name for x in battlefields):
            raise FormatError(f"battlefield name {got.name!r} is reserved or repeated", f"battlefields[{i}].name")
        battlefields.append(got)
    turn_state = data.get("turn_state")
    if turn_state is not None:
        one_of(turn_state, TURN_STATES, "turn_state")
    showdown = ctx.showdown = read_value(data.get("showdown"), Showdown | None, _plain, "showdown", ctx)
    combat = read_value(data.get("combat"), Combat | None, _plain, "combat", ctx)
    chain = given["chain"]
    if turn_state is not None:
        showdown_state = turn_state.startswith("showdown")
        if showdown_state and showdown is None and combat is None:
            showdown = Showdown(battlefields[0].name if battlefields else "the battlefield")
        if not showdown_state and (showdown is not None or combat is not None):
            violations.append(Violation("turn_state says neutral, but a showdown or combat is in progress",
                                        ("308.1", "308.2"), "turn_state"))
        closed = turn_state.endswith("closed")
        if closed and not chain:
            violations.append(Violation("turn_state says closed, but no chain exists", ("309.1", "309.2"),
                                        "turn_state"))
        if not closed and chain:
            violations.append(Violation("turn_state says open, but a chain exists", ("309.1", "309.2"),
                                        "turn_state"))
    for name in {x.battlefield for x in (showdown, combat) if x is not None}:
        if not any(b.name == name for b in battlefields):
            battlefields.append(Battlefield(name))
    ctx.places = ("base",) + tuple(b.name for b in battlefields)
    given.update(battlefields=tuple(battlefields), showdown=showdown, combat=combat, next_id=1)
    state = decode(State, {k: v for k, v in data.items() if k not in DERIVED_KEYS}, "", ctx, given=given,
                   unknown_at="state")
    if state.combat is None and COMBAT_TASKS & set(state.tasks):
        raise FormatError("combat tasks need a combat in progress (give combat)", "tasks")
    names = [u.name for u in state.board]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise FormatError(f"two permanents are named {name!r}", f"board[{i}].name")
    for i, u in enumerate(state.board):
        if u.attached_to is None:
            continue
        unit = state.permanent(u.attached_to)
        if not u.gear or unit is None or unit.gear:
            raise FormatError("only gear is attached, to a unit on the board (818.1.c.2, 718.5.d)",
                              f"board[{i}].attached_to")
        if u.location != unit.location:
            raise FormatError(f"an attached gear is where its unit is: {unit.location} (719.3)",
                              f"board[{i}].location")
    owned = Counter(c for c, _ in state.owners)
    for i, card in enumerate(state.trash if model.owners_kept else ()):
        if kept_in_trash(model, card) and state.trash[:i + 1].count(card) > owned[card]:
            why = ("has a replacement effect active in its owner's trash" if active_in_trash(model, card)
                   else "has Flow: it may be played from its owner's trash")
            raise FormatError(f"{card} {why}: say whose trash holds "
                              "it in trash_owners (each player has their own trash, 108.2.a)", f"trash[{i}]")
    next_id = read_value(data.get("next_id", ctx.next_id), int, _ids, "next_id", ctx)
    opened_by = state.opened_by
    if opened_by is None and chain:
        opened_by = "trigger" if chain[0].kind == "trigger" else "add" if chain[0].add else "play"
    return model, replace(state, opened_by=opened_by, next_id=max(ctx.next_id, next_id)), violations
