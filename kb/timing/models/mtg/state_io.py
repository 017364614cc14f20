"""States as JSON both ways: every frame's ``state``, and a pasted one read back."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kb.timing.engine import FormatError, Violation
from kb.timing.fields import (one_of as _choice, flag as _flag, whole_number as _int, a_list as _list,
                              a_mapping as _map, only_keys as _only, optional_text as _opt_str,
                              records as _records, text as _str, card_of, player_of, pool_json, turn_order)
from kb.timing.models.mtg.citations import EDITIONS
from kb.timing.models.mtg.objects import Exiled, Obj, Payment, Permanent, Resolving, STEPS, STEP_NAMES, State
from kb.timing.models.mtg.model import Magic
from kb.timing.models.mtg.cards_io import (EXILE_AS, card_json, edition_of, effects_json, parse_cards,
                                           parse_effects)


# -- states as JSON ------------------------------------------------------------------------
def obj_json(o: Obj) -> dict[str, Any]:
    out: dict[str, Any] = {"name": o.name, "controller": o.controller, "kind": o.kind, "id": o.id}
    for key in ("card", "source", "target", "subject"):
        if getattr(o, key) is not None:
            out[key] = getattr(o, key)
    if o.effects:
        out["effects"] = effects_json(o.effects)
    if o.amount:
        out["amount"] = o.amount
    if o.condition:
        out["if"] = o.condition
    for key in ("target_id", "source_id"):
        if getattr(o, key) is not None:
            out[key] = getattr(o, key)
    return out


def permanent_json(u: Permanent) -> dict[str, Any]:
    out: dict[str, Any] = {"name": u.name, "card": u.card, "controller": u.controller, "id": u.id}
    for key in ("tapped", "sick", "face_down", "attacking", "blocked"):
        if getattr(u, key):
            out[key] = True
    for key in ("damage", "boost"):
        if getattr(u, key):
            out[key] = getattr(u, key)
    if u.blocking:
        out["blocking"] = u.blocking
    return out


def exiled_json(x: Exiled) -> dict[str, Any]:
    """A card in exile that a special action put there."""
    return {"id": x.id, "owner": x.owner, "card": x.card, "as": x.how,
            **({"time_counters": x.counters} if x.how == "suspended" else {}), "turn": x.turn}


def state_json(model: Magic, s: State) -> dict[str, Any]:
    """A state as plain JSON; :func:`state_from_json` reads it back (every frame's state)."""
    r = s.resolving
    return {
        "ruleset": "mtg", "edition": model.edition,
        "players": list(s.players), "active": s.active, "turn": s.turn,
        "step": s.step, "phase": s.phase, "begun": s.begun,
        "priority": s.priority, "due": s.due, "due_reason": s.due_reason or None, "passes": s.passes,
        "awaiting": s.awaiting, "no_attackers": s.no_attackers,
        "stack": [obj_json(o) for o in s.stack],
        "waiting": [obj_json(o) for o in s.waiting],
        "resolving": None if r is None else {"item": obj_json(r.item), "index": r.index, "asked": list(r.asked),
                                             "chosen": [{"player": p, "choice": c} for p, c in r.chosen]},
        "payment": None if s.payment is None else {
            "player": s.payment.player, "amount": s.payment.amount, "purpose": s.payment.purpose,
            "what": s.payment.what, "item": s.payment.item,
            **({"exiled": s.payment.exiled} if s.payment.exiled is not None else {})},
        "battlefield": [permanent_json(u) for u in s.board],
        "hands": {p: (list(h) if h is not None else None) for p, h in s.hands},
        "graveyard": [{"owner": p, "card": c} for p, c in s.graveyard],
        "exile": [exiled_json(x) for x in s.exile],
        "life": {p: s.life_of(p) for p in s.players},
        "pool": {p: s.mana(p) for p in s.players if s.mana(p)},
        "lands_played": list(s.lands_played),
        "drawn": dict(s.drawn),
        "extra_turns": list(s.extra_turns),
        "lost": list(s.lost),
        "defending": s.defending,
        "next_id": s.next_id,
        "cards": pool_json(model, card_json),
    }


STATE_KEYS = ("ruleset", "edition", "players", "active", "turn", "step", "phase", "begun", "priority", "due",
              "due_reason", "passes", "awaiting", "no_attackers", "stack", "waiting", "resolving", "payment", "battlefield",
              "hands", "graveyard", "exile", "life", "pool", "lands_played", "drawn", "extra_turns", "lost", "defending",
              "next_id", "cards")
OBJ_KEYS = ("name", "controller", "kind", "id", "card", "source", "target", "subject", "effects", "amount", "if",
            "target_id", "source_id")


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
    model = Magic(parse_cards(data.get("cards"), "cards"), own or asked or EDITIONS[-1])
    cards = model.cards
    violations: list[Violation] = []
    players = turn_order(data.get("players"))
    player, card_name = player_of(players), card_of(cards)

    prio = data.get("priority")
    if isinstance(prio, list):
        holders = [player(p, f"priority[{i}]", False) for i, p in enumerate(prio)]
        if len(holders) > 1:
            violations.append(Violation(f"{' and '.join(map(str, holders))} both hold priority",
                                        model.cite("state.one-priority"), "priority"))
        prio = holders[0] if holders else None
    next_id = 1
    ids: set[int] = set()

    def obj(raw: Any, where: str, new: bool = True) -> Obj:
        nonlocal next_id
        if isinstance(raw, str):
            raw = {"name": raw}
        raw = _map(raw, where)
        _only(raw, OBJ_KEYS, where)
        name = _str(raw.get("name"), f"{where}.name")
        given = card_name(raw["card"], f"{where}.card") if raw.get("card") is not None else None
        kind = _choice(raw.get("kind") or ("spell" if (given or name) in cards else "ability"),
                       ("spell", "ability", "trigger"), f"{where}.kind")
        card = cards.get(given or name) if kind == "spell" else None
        if kind == "spell" and card is None:
            raise FormatError(f"a spell is a card of the pool; {name!r} is not (add it to cards)", f"{where}.name")
        effects = (parse_effects(raw["effects"], f"{where}.effects") if "effects" in raw
                   else card.effects if card else ())
        item_id = _int(raw.get("id", next_id), f"{where}.id", 1, 10_000)
        if new and item_id in ids:
            raise FormatError(f"two objects have id {item_id}", f"{where}.id")
        ids.add(item_id)
        next_id = max(next_id, item_id + 1)
        return Obj(item_id, name, player(raw.get("controller", players[0]), f"{where}.controller", False),  # type: ignore[arg-type]
                   kind, card.name if card else None, _opt_str(raw.get("source"), f"{where}.source"), effects,
                   _opt_str(raw.get("target"), f"{where}.target"),
                   _int(raw.get("amount", 0), f"{where}.amount", 0, 99), player(raw.get("subject"), f"{where}.subject"),
                   _choice(raw.get("if", ""), ("", "untapped"), f"{where}.if"),
                   None if raw.get("target_id") is None else _int(raw["target_id"], f"{where}.target_id", 1, 10_000),
                   None if raw.get("source_id") is None else _int(raw["source_id"], f"{where}.source_id", 1, 10_000))

    stack = tuple(obj(o, f"stack[{i}]") for i, o in enumerate(_list(data.get("stack"), "stack")))
    waiting = tuple(obj(o, f"waiting[{i}]") for i, o in enumerate(_list(data.get("waiting"), "waiting")))
    resolving = None
    if data.get("resolving") is not None:
        rv = _map(data["resolving"], "resolving")
        _only(rv, ("item", "index", "asked", "chosen"), "resolving")
        item = obj(rv.get("item"), "resolving.item", new=False)
        if not any(o.id == item.id for o in stack):
            raise FormatError("the resolving item is the top of the stack (give it there too)", "resolving.item")
        index = _int(rv.get("index", 0), "resolving.index", 0, len(item.effects))
        asked = tuple(player(p, f"resolving.asked[{i}]", False) for i, p in enumerate(_list(rv.get("asked"), "resolving.asked")))
        chosen = tuple((player(c.get("player"), f"resolving.chosen[{i}].player", False),
                        _str(c.get("choice"), f"resolving.chosen[{i}].choice"))
                       for i, c in enumerate(_records(rv.get("chosen"), "resolving.chosen", ("player", "choice"))))
        resolving = Resolving(item, index, asked, chosen)  # type: ignore[arg-type]
    payment = None
    if data.get("payment") is not None:
        pm = _map(data["payment"], "payment")
        _only(pm, ("player", "amount", "purpose", "what", "item", "exiled"), "payment")
        payment = Payment(player(pm.get("player"), "payment.player", False),  # type: ignore[arg-type]
                          _int(pm.get("amount"), "payment.amount", 1, 99),
                          _choice(pm.get("purpose"), ("cast", "activate", "face-up", "unless", "suspend", "foretell",
                                                      "plot"), "payment.purpose"),
                          _str(pm.get("what"), "payment.what"),
                          None if pm.get("item") is None else _int(pm["item"], "payment.item", 1, 10_000),
                          None if pm.get("exiled") is None else _int(pm["exiled"], "payment.exiled", 1, 10_000))
        if payment.item is not None and not any(o.id == payment.item for o in stack):
            raise FormatError("the item being paid for is not on the stack", "payment.item")
    board: list[Permanent] = []
    blocking: list[Any] = []
    for i, u in enumerate(_records(data.get("battlefield"), "battlefield",
                                   ("name", "card", "controller", "tapped", "sick", "face_down", "attacking",
                                    "blocking", "damage", "boost", "blocked", "id"))):
        name = _str(u.get("name") or u.get("card"), f"battlefield[{i}].name")
        if any(x.name == name for x in board):
            raise FormatError(f"two permanents are named {name!r}", f"battlefield[{i}].name")
        ident = _int(u.get("id", next_id), f"battlefield[{i}].id", 1, 10_000)
        if ident in ids:
            raise FormatError(f"two objects have id {ident}", f"battlefield[{i}].id")
        ids.add(ident)
        next_id = max(next_id, ident + 1)
        blocks = u.get("blocking")
        if blocks is not None and not isinstance(blocks, int):
            blocks = _str(blocks, f"battlefield[{i}].blocking")
        blocking.append(blocks)
        board.append(Permanent(name, card_name(u.get("card") or name, f"battlefield[{i}].card"),
                               player(u.get("controller", players[0]), f"battlefield[{i}].controller", False),  # type: ignore[arg-type]
                               _flag(u.get("tapped"), f"battlefield[{i}].tapped"),
                               _int(u.get("damage", 0), f"battlefield[{i}].damage", 0, 999),
                               _flag(u.get("sick"), f"battlefield[{i}].sick"),
                               _flag(u.get("face_down"), f"battlefield[{i}].face_down"),
                               _flag(u.get("attacking"), f"battlefield[{i}].attacking"),
                               None, _int(u.get("boost", 0), f"battlefield[{i}].boost", 0, 99),
                               _flag(u.get("blocked"), f"battlefield[{i}].blocked"), ident))
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
    graveyard = tuple((player(g.get("owner"), f"graveyard[{i}].owner", False), card_name(g.get("card"), f"graveyard[{i}].card"))
                      for i, g in enumerate(_records(data.get("graveyard"), "graveyard", ("owner", "card"))))
    exile: list[Exiled] = []
    for i, x in enumerate(_records(data.get("exile"), "exile", ("id", "owner", "card", "as", "time_counters", "turn"))):
        where = f"exile[{i}]"
        ident = _int(x.get("id", next_id), f"{where}.id", 1, 10_000)
        if ident in ids:
            raise FormatError(f"two objects have id {ident}", f"{where}.id")
        ids.add(ident)
        next_id = max(next_id, ident + 1)
        how = _choice(x.get("as"), EXILE_AS, f"{where}.as")
        if how != "suspended" and x.get("time_counters"):
            raise FormatError("only a suspended card has time counters here", f"{where}.time_counters")
        exile.append(Exiled(ident, player(x.get("owner"), f"{where}.owner", False),  # type: ignore[arg-type]
                            card_name(x.get("card"), f"{where}.card"), how,
                            _int(x.get("time_counters", 0), f"{where}.time_counters", 0, 99),
                            _int(x.get("turn", 0), f"{where}.turn", 0, 9999)))
    if payment is not None and payment.exiled is not None and not any(x.id == payment.exiled for x in exile):
        raise FormatError("the card being cast from exile is not in exile", "payment.exiled")

    def counts(key: str, low: int, high: int) -> tuple[tuple[str, int], ...]:
        return tuple(sorted((player(p, key, False), _int(n, f"{key}.{p}", low, high))  # type: ignore[misc]
                            for p, n in _map(data.get(key), key).items()))

    life = dict(counts("life", -999, 999))
    step = _choice(data.get("step", "main1"), STEPS, "step")
    active = player(data.get("active", players[0]), "active", False)
    due_reason = _choice(data.get("due_reason") or "", ("", "step", "resolved", "action", "special"), "due_reason")
    due = player(data.get("due"), "due")
    if due is not None and not due_reason:
        due_reason = "step"
    awaiting = _choice(data.get("awaiting"), (None, "declare-attackers", "declare-blockers", "choose-defender"),
                       "awaiting")
    awaited_in = {"declare-attackers": "declare-attackers", "declare-blockers": "declare-blockers",
                  "choose-defender": "beginning-of-combat"}
    if awaiting is not None and step != awaited_in[awaiting]:
        raise FormatError(f"{awaiting} is awaited only in the {STEP_NAMES[awaited_in[awaiting]]}", "awaiting")
    state = State(
        players=players, active=active, step=step,  # type: ignore[arg-type]
        begun=data.get("begun", True) is not False, priority=player(prio, "priority"), due=due, due_reason=due_reason,
        passes=_int(data.get("passes", 0), "passes", 0, 9), awaiting=awaiting,
        no_attackers=_flag(data.get("no_attackers"), "no_attackers"), stack=stack, waiting=waiting,
        board=tuple(board), hands=hands, graveyard=graveyard, exile=tuple(exile),  # type: ignore[arg-type]
        life=tuple(sorted((p, life.get(p, 20)) for p in players)),
        pool=tuple((p, n) for p, n in counts("pool", 0, 99) if n),
        lands_played=tuple(player(p, f"lands_played[{i}]", False)  # type: ignore[misc]
                           for i, p in enumerate(_list(data.get("lands_played"), "lands_played"))),
        drawn=counts("drawn", 0, 999), payment=payment, resolving=resolving,
        extra_turns=tuple(player(p, f"extra_turns[{i}]", False)  # type: ignore[misc]
                          for i, p in enumerate(_list(data.get("extra_turns"), "extra_turns"))),
        lost=tuple(player(p, f"lost[{i}]", False) for i, p in enumerate(_list(data.get("lost"), "lost"))),  # type: ignore[misc]
        defending=player(data.get("defending"), "defending"),
        turn=_int(data.get("turn", 1), "turn", 1, 9999),
        next_id=max(next_id, _int(data.get("next_id", next_id), "next_id", 1, 10_000)),
    )
    if resolving is not None and stack and stack[-1].id != resolving.item.id:
        violations.append(Violation("the resolving item is not the top of the stack",
                                    model.cite("invariant.top-resolves-first"), "resolving"))
    return model, state, violations
