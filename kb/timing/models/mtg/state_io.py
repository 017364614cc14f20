"""Magic states as JSON both ways, through the shared codec (:mod:`kb.timing.models.codec`):
the dataclasses of :mod:`kb.timing.models.mtg.objects` say how each field reads and writes;
this module supplies the checks that need the state's players and card pool, and what no
single field can say (ids unique across the zones, the kind and card of an object on the
stack, a target or a block named by an object's name, the step a turn-based choice is awaited in)."""

from __future__ import annotations

from typing import Any

from kb.timing.engine import FormatError, Violation
from kb.timing.fields import (a_list as _list, a_mapping as _map, card_of, one_of as _choice, only_keys as _only,
                              player_of, pool_json, text as _str, turn_order, whole_number as _int)
from kb.timing.models.codec import Context, decode, encode, json_keys
from kb.timing.models.mtg.cards_io import (card_json, edition_of, effects_json, in_edition, parse_cards,
                                           parse_effects)
from kb.timing.models.mtg.citations import EDITION_2010, EDITIONS
from kb.timing.models.mtg.model import Magic, model_for
from kb.timing.models.mtg.objects import (Exiled, Obj, Payment, Permanent, Resolving, STEPS, STEP_NAMES, State,
                                          targeted)
from kb.timing.models.frozen import replace

# The keys of a state's JSON, in the order they are written: the state's fields, and what is
# derived from them (the phase) or from the model (its ruleset, edition and card pool).
DERIVED_KEYS = ("ruleset", "edition", "phase", "winner", "cards")
STATE_KEYS = ("ruleset", "edition", "players", "active", "turn", "step", "phase", "begun", "priority", "due",
              "due_reason", "passes", "awaiting", "no_attackers", "damage_step", "stack", "waiting", "resolving", "payment",
              "battlefield", "hands", "graveyard", "exile", "life", "prevention", "pool", "lands_played", "drawn",
              "extra_turns", "lost", "winner", "defending", "next_id", "cards")
OBJ_KEYS = json_keys(Obj)
assert set(STATE_KEYS) == set(json_keys(State)) | set(DERIVED_KEYS), "a state field without its place in the JSON"
_WRITING = Context(effects_json=effects_json)


# -- states as JSON ------------------------------------------------------------------------
def state_json(model: Magic, s: State) -> dict[str, Any]:
    """A state as plain JSON; :func:`state_from_json` reads it back (every frame's state)."""
    out = encode(s, _WRITING)
    out.update(ruleset="mtg", edition=model.edition, phase=s.phase, cards=pool_json(model, card_json))
    if s.winner is not None:
        out["winner"] = s.winner
    return {k: out[k] for k in STATE_KEYS if k in out}  # a field left out at its default is not written


def _context(players: tuple[str, ...], cards: dict[str, Any]) -> Context:
    player, card_name = player_of(players), card_of(cards)
    ctx = Context(players=players)
    ctx.checks.update(player=lambda v, where, optional: player(v, where, optional),
                      card=lambda v, where, optional: card_name(v, where))
    return ctx


def _with_target_id(o: Obj, board: list[Permanent], stack: tuple[Obj, ...], where: str) -> Obj:
    """An object of a pasted state that names its target object gets that object's id; a name
    two objects share is refused (which one is meant?)."""
    if o.target is None or o.target_id is not None:
        return o
    found = [u.id for u in board if u.name == o.target] + [x.id for x in stack if x.name == o.target and x.id != o.id]
    if len(found) > 1:
        raise FormatError(f"{len(found)} objects are named {o.target!r} (ids {', '.join(map(str, found))}): "
                          "say which one is targeted with target_id", f"{where}.target")
    return replace(o, target_id=found[0]) if found else o


class _Ids:
    """The ids of the objects read so far: each one once across the zones, and the next free one."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.next = 1

    def take(self, raw: dict[str, Any], where: str, new: bool = True) -> int:
        ident = _int(raw.get("id", self.next), f"{where}.id", 1, 10_000)
        if new and ident in self.seen:
            raise FormatError(f"two objects have id {ident}", f"{where}.id")
        self.seen.add(ident)
        self.next = max(self.next, ident + 1)
        return ident


def _obj(raw: Any, where: str, ctx: Context, ids: _Ids, cards: dict[str, Any], new: bool = True) -> Obj:
    """A spell or ability: its kind and card from the pool when left out, its effects its card's."""
    if isinstance(raw, str):
        raw = {"name": raw}
    raw = _map(raw, where)
    _only(raw, OBJ_KEYS, where)
    name = _str(raw.get("name"), f"{where}.name")
    given = ctx.check("card", raw["card"], f"{where}.card", False) if raw.get("card") is not None else None
    kind = _choice(raw.get("kind") or ("spell" if (given or name) in cards else "ability"),
                   ("spell", "ability", "trigger"), f"{where}.kind")
    card = cards.get(given or name) if kind == "spell" else None
    if kind == "spell" and card is None:
        raise FormatError(f"a spell is a card of the pool; {name!r} is not (add it to cards)", f"{where}.name")
    effects = (parse_effects(raw["effects"], f"{where}.effects", targeted(raw)) if "effects" in raw
               else card.effects if card else ())
    if kind == "spell" and any(e[0] == "boost" and e[1] == "self" for e in effects):
        raise FormatError("a spell is not a permanent, so it has no power and toughness of its own: its boost is "
                          "its target's (give it a target)", f"{where}.effects")
    return decode(Obj, raw, where, ctx, given={"id": ids.take(raw, where, new), "name": name, "kind": kind,
                                                "card": card.name if card else None, "effects": effects})


def _resolving(data: Any, stack: tuple[Obj, ...], ctx: Context, ids: _Ids, cards: dict[str, Any]) -> Resolving | None:
    if data is None:
        return None
    rv = _map(data, "resolving")
    _only(rv, json_keys(Resolving), "resolving")
    item = _obj(rv.get("item"), "resolving.item", ctx, ids, cards, new=False)
    top = next((o for o in stack if o.id == item.id), None)
    if top is None:
        raise FormatError("the resolving item is the top of the stack (give it there too)", "resolving.item")
    index = _int(rv.get("index", 0), "resolving.index", 0, len(item.effects))
    return decode(Resolving, rv, "resolving", ctx, given={"item": top, "index": index})


def _permanent(raw: Any, where: str, board: list[Permanent], ctx: Context, ids: _Ids) -> tuple[Permanent, Any]:
    """A permanent, and what it blocks as given (an attacker's id, or its name: read once all are known)."""
    raw = _map(raw, where)
    _only(raw, json_keys(Permanent), where)
    name = _str(raw.get("name") or raw.get("card"), f"{where}.name")
    if any(x.name == name for x in board):
        raise FormatError(f"two permanents are named {name!r}", f"{where}.name")
    ident = ids.take(raw, where)
    blocks = raw.get("blocking")
    if blocks is not None and not isinstance(blocks, int):
        blocks = _str(blocks, f"{where}.blocking")
    u = decode(Permanent, {**raw, "card": raw.get("card") or name}, where, ctx,
               given={"name": name, "id": ident, "blocking": None})
    return u, blocks


def _exiled(raw: Any, where: str, ctx: Context, ids: _Ids) -> Exiled:
    raw = _map(raw, where)
    _only(raw, json_keys(Exiled), where)
    ident = ids.take(raw, where)
    x = decode(Exiled, raw, where, ctx, given={"id": ident})
    if x.how != "suspended" and x.counters:
        raise FormatError("only a suspended card has time counters here", f"{where}.time_counters")
    return x


def _check_winner(raw: Any, s: State, player: Any) -> None:
    """A written winner (derived from ``lost``) must be the player left in the game."""
    if raw is None:
        return
    named = player(raw, "winner")
    if named == s.winner:
        return
    if s.winner is None:
        still = ", ".join(s.remaining)
        why = f"the game is not over ({still} still in it)" if len(s.remaining) > 1 else "the game is a draw"
        raise FormatError(f"{named} is not the winner: {why}", "winner")
    raise FormatError(f"{named} is not the winner: {s.winner} is, every opponent having left the game", "winner")


def state_from_json(data: Any, edition: str | None = None) -> tuple[Magic, State, list[Violation]]:
    """Read a state (any frame's ``state``, or a hand-written one with at least ``players``).

    Malformed input raises :class:`FormatError` with the field; states the rules cannot
    produce are returned as violations (the caller refuses them with their rules). ``edition``
    (asked for by the caller) must agree with the state's own ``edition`` when it has one.
    """
    if not isinstance(data, dict):
        raise FormatError("a state is a JSON object")
    _only(data, STATE_KEYS, "state")
    own = edition_of(data.get("edition"))
    asked = edition_of(edition) if edition else ""
    if own and asked and own != asked:
        raise FormatError(f"the state is of edition {own}, not {asked} (the rules differ: ask with {own})",
                          "edition")
    edition = own or asked or EDITIONS[-1]
    model = model_for(in_edition(parse_cards(data.get("cards"), "cards"), edition), edition)
    cards = model.cards
    violations: list[Violation] = []
    players = turn_order(data.get("players"))
    ctx = _context(players, cards)
    player = player_of(players)

    prio = data.get("priority")
    if isinstance(prio, list):
        holders = [player(p, f"priority[{i}]", False) for i, p in enumerate(prio)]
        if len(holders) > 1:
            violations.append(Violation(f"{' and '.join(map(str, holders))} both hold priority",
                                        model.cite("state.one-priority"), "priority"))
        prio = holders[0] if holders else None
    ids = _Ids()
    stack = tuple(_obj(o, f"stack[{i}]", ctx, ids, cards) for i, o in enumerate(_list(data.get("stack"), "stack")))
    waiting = tuple(_obj(o, f"waiting[{i}]", ctx, ids, cards)
                    for i, o in enumerate(_list(data.get("waiting"), "waiting")))
    resolving = _resolving(data.get("resolving"), stack, ctx, ids, cards)
    payment = None
    if data.get("payment") is not None:
        payment = decode(Payment, data["payment"], "payment", ctx)
        if payment.item is not None and not any(o.id == payment.item for o in stack):
            raise FormatError("the item being paid for is not on the stack", "payment.item")
    board: list[Permanent] = []
    blocking: list[Any] = []
    for i, raw in enumerate(_list(data.get("battlefield"), "battlefield")):
        u, blocks = _permanent(raw, f"battlefield[{i}]", board, ctx, ids)
        board.append(u)
        blocking.append(blocks)
    by_name = {u.name: u.id for u in board}
    for i, blocks in enumerate(blocking):  # the attacker it blocks: by id (it may have left since), or by its name
        if blocks is None:
            continue
        attacker = blocks if isinstance(blocks, int) else by_name.get(blocks)
        if attacker is None:
            raise FormatError(f"it blocks {blocks!r}, which is not a permanent here", f"battlefield[{i}].blocking")
        board[i] = replace(board[i], blocking=attacker)
    stack = tuple(_with_target_id(o, board, stack, f"stack[{i}]") for i, o in enumerate(stack))
    waiting = tuple(_with_target_id(o, board, stack, f"waiting[{i}]") for i, o in enumerate(waiting))
    if resolving is not None:
        resolving = replace(resolving, item=next(o for o in stack if o.id == resolving.item.id))
    hands_raw = _map(data.get("hands"), "hands")
    for p in hands_raw:
        player(p, "hands")
    hands = tuple((p, None if hands_raw.get(p) is None else tuple(
        _str(c, f"hands.{p}[{i}]") for i, c in enumerate(_list(hands_raw[p], f"hands.{p}")))) for p in players)
    exile = tuple(_exiled(x, f"exile[{i}]", ctx, ids) for i, x in enumerate(_list(data.get("exile"), "exile")))
    if payment is not None and payment.exiled is not None and not any(x.id == payment.exiled for x in exile):
        raise FormatError("the card being cast from exile is not in exile", "payment.exiled")

    def counts(key: str, low: int, high: int) -> tuple[tuple[str, int], ...]:
        return tuple(sorted((player(p, key, False), _int(n, f"{key}.{p}", low, high))  # type: ignore[misc]
                            for p, n in _map(data.get(key), key).items()))

    life = dict(counts("life", -999, 999))
    step = _choice(data.get("step", "main1"), STEPS, "step")
    due_reason = _choice(data.get("due_reason") or "", ("", "step", "resolved", "action", "special"), "due_reason")
    due = player(data.get("due"), "due")
    if due is not None and not due_reason:
        due_reason = "step"
    awaited_in = {"declare-attackers": "declare-attackers", "declare-blockers": "declare-blockers",
                  "choose-defender": "beginning-of-combat", "order-blockers": "declare-blockers",
                  "assign-combat-damage": "combat-damage"}
    awaiting = _choice(data.get("awaiting"), (None, *awaited_in), "awaiting")
    if awaiting is not None and step != awaited_in[awaiting]:
        raise FormatError(f"{awaiting} is awaited only in the {STEP_NAMES[awaited_in[awaiting]]}", "awaiting")
    ordered = model.edition == EDITION_2010  # only the 2010 rules have a damage assignment order (509.2)
    if awaiting == "order-blockers" and not ordered:  # the division (assign-combat-damage) is in both
        rules = "with a damage assignment order (2010-10-01)"
        raise FormatError(f"{awaiting} is awaited only under rules {rules}, not mtg {model.edition}", "awaiting")
    given = dict(players=players, active=player(data.get("active", players[0]), "active", False), step=step,
                 begun=data.get("begun", True) is not False, priority=player(prio, "priority"), due=due,
                 due_reason=due_reason, awaiting=awaiting, stack=stack, waiting=waiting, board=tuple(board),
                 hands=hands, exile=exile, life=tuple(sorted((p, life.get(p, 20)) for p in players)),
                 pool=tuple((p, n) for p, n in counts("pool", 0, 99) if n), drawn=counts("drawn", 0, 999),
                 payment=payment, resolving=resolving, next_id=1)
    state = decode(State, {k: v for k, v in data.items() if k not in DERIVED_KEYS}, "", ctx, given=given,
                   unknown_at="state")
    next_id = max(ids.next, _int(data.get("next_id", ids.next), "next_id", 1, 10_000))
    state = replace(state, next_id=next_id)
    _check_winner(data.get("winner"), state, player)
    if resolving is not None and stack and stack[-1].id != resolving.item.id:
        violations.append(Violation("the resolving item is not the top of the stack",
                                    model.cite("invariant.top-resolves-first"), "resolving"))
    return model, state, violations
