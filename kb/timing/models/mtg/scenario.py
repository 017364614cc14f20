"""Magic model input and output: card pools, the scenario's set-up, states as JSON, scenario
actions as decisions, and what an ``expect`` step can observe.

Card pool (a scenario's ``cards``), each card one entry; a cost is generic mana (``cost: 2``,
omitted: free), a land has its basic mana ability unless ``mana: 0``::

    Mountain: {type: land}
    Lightning Bolt: {type: instant, cost: 1, target: any, effects: [{damage: {to: target, amount: 3}}]}
    Jackal Pup:
      type: creature
      power: 2
      toughness: 1
      triggers: [{on: dealt-damage, name: Jackal Pup's ability, effects: [{damage: {to: you, amount: that}}]}]
    Llanowar Elves: {type: creature, power: 1, toughness: 1, abilities: [{name: "{T}: Add {G}", tap: true, mana: 1}]}

``type`` is one type or a list (``[artifact, creature]``); ``keywords``: flash, haste, trample, split-second,
first-strike, double-strike, vigilance, flying, reach, ward N, deathtouch, lifelink, indestructible,
menace, defender (ward and menace refused in 2010, whose rules lack them);
``legendary: true``; ``morph: N`` (its morph cost); ``suspend: {time: N, cost: C}`` ("Suspend N—[C]");
``foretell: C`` (its foretell cost; foretelling costs {2}); ``plot: C`` (its plot cost);
``replacement: {would_die: self|creatures|opponents-creatures, instead: exile}`` (a permanent's
"if [this / a creature / a creature an opponent controls] would die, exile it instead": applied
as the event would happen, no stack, no priority, and the permanent never dies, 614.1a, 614.6;
of two, the affected permanent's controller chooses, 616.1); ``color``: one colour or a list (white,
blue, black, red, green; omitted: colourless); ``static: {boost: N, type: creature, color: C,
whose: your|each, name}``: a static ability, "[C] creatures you control get +N/+N", in force
exactly while the permanent is on the battlefield (no stack, no priority: 117.2b); ``target``: creature, player, any
(creature or player), spell, permanent. Triggers: ``on`` cast | enters | dies |
dealt-damage | untap (a permanent you control becomes untapped) | beginning (with ``step``
and ``whose``: your | each; ``if: untapped`` for an intervening "if"). Abilities: ``name``,
``cost``, ``tap``, ``mana`` (a mana ability adding N), ``effects``, ``timing`` (any |
sorcery | your-upkeep), ``zone`` (battlefield | graveyard), ``artifacts`` (only if you
control N artifacts), ``target``.

Instructions: ``{damage: {to: target|you|PLAYER, amount: N|that}}``, ``{prevent: {to: target|you|PLAYER,
amount: N}}`` ("prevent the next N damage that would be dealt to … this turn": a shield, used as damage
would be dealt, no stack, ending in the cleanup step; damage all prevented is never dealt, 615.6,
615.7), ``{counter: target}``,
``{counter-unless-pay: N}``, ``{draw: N}`` or ``{draw: {who: you|each|that-player|target, n}}``,
``{lose-life: N}`` (or ``{who, n}``), ``{discard: each|you}``, ``{sacrifice: {who, type}}``,
``{destroy: target}``, ``{tap: target}``, ``{extra-turn: true}``, ``{return: true}`` (this card from the
graveyard to the battlefield), ``{boost: N}`` (+N/+N until end of turn: to the target of a card or ability with one, 613.4c,
else to the permanent whose ability it is; ``{boost: {to: self|target|targets, amount: N}}`` says
which; a boost with no creature to give it to is refused),
``{shuffle-graveyard: true}``; ``{time-counter: true}`` and ``{cast-suspended: true}`` are
suspend's triggered abilities (remove a time counter; cast the card), on the stack with the
exiled card as ``source_id``.

Every object has an id (in a state's JSON: ``id`` of a permanent, a spell, an ability):
targets (``target_id``) and blocks (``blocking``: the attacker's id) follow it, a permanent
turned face up keeps it, and one that enters the battlefield gets a new one.

Players are names in turn order (the first is the active player), or ``{name, hand: [cards],
battlefield: [card or {card, name, tapped, sick, face_down, damage, boost}], graveyard: [cards],
exile: [{card, as: suspended|foretold|plotted, time_counters}] (exiled in an earlier turn),
life: N, pool: N}`` (a hand not listed is unknown: any card of the pool may be cast from it).
A state's ``exile`` lists the suspended, foretold and plotted cards: ``{id, owner, card, as:
suspended|foretold|plotted, time_counters, turn}`` (``turn``: the turn it was exiled in).
``start``: ``{step: STEP, lands_played: [players], turn: N}``; the step begins when the
scenario starts (steps: untap, upkeep, draw, main1, beginning-of-combat, declare-attackers,
declare-blockers, combat-damage, end-of-combat, main2, end, cleanup).

Actions (scenario steps): ``cast: {player, card, target, targets}`` (``targets: [..]``: the
objects a spell of several targets chooses, 601.2c), ``activate: {player, ability,
source, target}`` (a target is a player, a permanent or a spell by name, or an object by its id
when two spells share a name: such a name is refused as ambiguous), ``mana: {player, source}``
(a mana ability), ``play_land: {player, card}``, ``turn_face_up: {player, permanent}``, ``suspend: {player, card}``,
``foretell: {player, card}``, ``plot: {player, card}`` (the special actions that exile a card from the
hand), ``cast: {player, card, target, from: foretold|plotted}`` (a card in exile), ``choose_defender:
{player, defender}`` (the attacking player of a multiplayer game, at the beginning of combat), ``pass: PLAYER``, ``pay: PLAYER`` (the cost being
paid, or what a resolving spell asks), ``decline: PLAYER`` (not paying what a resolving spell
asks), ``retract: PLAYER`` (reverse a cast or activation that cannot be paid), ``attack:
{player, with: [creatures]}``, ``block: {player, blocks: {blocker: attacker}}``, ``assign: {player,
order: {attacker: [blockers]}}`` (2010: the damage assignment order of a creature blocked by two or
more, announced as blockers are declared, 509.2; its damage then goes lethal to each in that order,
the rest to the last, 510.1c; 2026: the division at the combat damage step that gives lethal
damage in that order) or ``assign: {player, damage: {attacker: {blocker: N}}}`` (2026: any
division of its power among its blockers, 510.1c, and the player it attacks with trample once
each blocker has lethal damage, 702.19b); a scenario that gives no ``assign`` gets the model's:
the blockers in the order they were listed, lethal damage to each, the rest to the last, ``order:
[abilities]`` or ``order: {player, triggers: [abilities]}`` (the order a player puts their
simultaneous triggered abilities on the stack in, bottom first, 603.3b, the active player's first,
101.4; a scenario that gives none gets the order they triggered), ``choose:
{player, choice}`` (a card to discard or a permanent to sacrifice while a spell resolves), ``concede:
PLAYER`` (the player leaves the game at once and loses it, 104.3a, 800.4a). ``expect: {winner:
PLAYER}`` is the player left in the game once every opponent has left it (104.2a); ``null`` while
the game goes on or when it ended in a draw (104.4a).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.timing.engine import FormatError, Option
from kb.timing.fields import (one_of as _choice, flag as _flag, whole_number as _int, a_list as _list,
                              a_mapping as _map, only_keys as _only, optional_text as _opt_str,
                              players as _player_list, text as _str)
from kb.timing.models.mtg import bindings
from kb.timing.models.mtg.bindings import several_text
from kb.timing.models.mtg.citations import EDITIONS
from kb.timing.models.mtg.objects import Exiled, Permanent, STEPS, STEP_NAMES, State
from kb.timing.models.mtg.model import Magic
from kb.timing.models.mtg.cards_io import ACTIONS, EXILE_AS, edition_of, in_edition, parse_cards


# -- scenario set-up -------------------------------------------------------------------------
def _players(data: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    return _player_list(data, ("hand", "battlefield", "graveyard", "exile", "life", "pool"), "active player")


def _unique(board: list[Permanent], name: str) -> str:
    taken = {u.name for u in board}
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name} #{n}", n + 1
    return unique


def setup(data: Mapping[str, Any]) -> tuple[Magic, State]:
    """The model and the first state of a scenario (its players, cards, start)."""
    edition = edition_of(data.get("edition")) or EDITIONS[-1]
    players, extra = _players(data.get("players"))
    cards = in_edition(parse_cards(data.get("cards")), edition)
    model = Magic(cards, edition)

    def card_name(value: Any, field: str) -> str:
        name = _str(value, field)
        if name not in cards:
            raise FormatError(f"unknown card {name!r} (add it to cards)", field)
        return name

    board: list[Permanent] = []
    hands, graveyard, life, pool = [], [], [], []
    exiled: list[tuple[str, str, str, int]] = []
    for player in players:
        p = extra.get(player, {})
        where = f"players.{player}"
        hand = p.get("hand")
        hands.append((player, None if hand is None else tuple(
            card_name(c, f"{where}.hand[{i}]") for i, c in enumerate(_list(hand, f"{where}.hand")))))
        for i, raw in enumerate(_list(p.get("battlefield"), f"{where}.battlefield")):
            fw = f"{where}.battlefield[{i}]"
            if not isinstance(raw, dict):
                raw = {"card": raw}
            _only(raw, ("card", "name", "tapped", "sick", "face_down", "damage", "boost"), fw)
            card = cards[card_name(raw.get("card"), f"{fw}.card")]
            if not card.permanent:
                raise FormatError(f"{card.name} is not a permanent card", f"{fw}.card")
            face_down = _flag(raw.get("face_down"), f"{fw}.face_down")
            if face_down and card.morph is None:
                raise FormatError(f"{card.name} has no morph: it cannot be face down here", f"{fw}.face_down")
            name = _unique(board, _str(raw.get("name", card.name), f"{fw}.name"))
            board.append(Permanent(name, card.name, player, _flag(raw.get("tapped"), f"{fw}.tapped"),
                                   _int(raw.get("damage", 0), f"{fw}.damage", 0, 99),
                                   _flag(raw.get("sick"), f"{fw}.sick"), face_down,
                                   boost=_int(raw.get("boost", 0), f"{fw}.boost", 0, 99), id=len(board) + 1))
        graveyard += [(player, card_name(c, f"{where}.graveyard[{i}]"))
                      for i, c in enumerate(_list(p.get("graveyard"), f"{where}.graveyard"))]
        for i, x in enumerate(_list(p.get("exile"), f"{where}.exile")):
            xw = f"{where}.exile[{i}]"
            x = _map(x, xw)
            _only(x, ("card", "as", "time_counters"), xw)
            how = _choice(x.get("as"), EXILE_AS, f"{xw}.as")
            exiled.append((player, card_name(x.get("card"), f"{xw}.card"), how,
                           _int(x.get("time_counters", 0) if how == "suspended" else 0, f"{xw}.time_counters", 0, 20)))
        life.append((player, _int(p.get("life", 20), f"{where}.life", -99, 999)))
        if p.get("pool"):
            pool.append((player, _int(p["pool"], f"{where}.pool", 0, 99)))
    start = _map(data.get("start"), "start")
    _only(start, ("step", "lands_played", "turn"), "start")
    step = _choice(start.get("step", "main1"), STEPS, "start.step")
    lands = tuple(_choice(p, players, f"start.lands_played[{i}]")
                  for i, p in enumerate(_list(start.get("lands_played"), "start.lands_played")))
    turn = _int(start.get("turn", 1), "start.turn", 1, 999)
    first = len(board) + 1  # cards in exile at the start were exiled in an earlier turn
    exile = tuple(Exiled(first + i, owner, card, how, n, max(turn - 1, 0)) for i, (owner, card, how, n) in enumerate(exiled))
    state = State(players=players, active=players[0], step=step, begun=False, board=tuple(board),
                  hands=tuple(hands), graveyard=tuple(graveyard), life=tuple(life), pool=tuple(sorted(pool)),
                  lands_played=lands, turn=turn, exile=exile, next_id=first + len(exile))
    if step == "draw" and model.first_draw_skipped(state):
        raise FormatError("the starting player of a two-player game skips the draw step of the first turn "
                          f"(rule {', '.join(model.cite('skip-first-draw')[:1])}): start at turn 2 or later",
                          "start.step")
    return model, state


# -- scenario actions and observations ---------------------------------------------------------
def _player_of(payload: Any, kind: str) -> str:
    return _str(payload if not isinstance(payload, dict) else payload.get("player"), kind)


def _target(value: Any, state: State, field: str) -> tuple[str | None, int | None, str]:
    """A target as a scenario writes it: a name (a player, a permanent, a spell), or the id of
    an object (a spell on the stack or a permanent) when two share a name."""
    if isinstance(value, int) and not isinstance(value, bool):
        named = [o.name for o in state.stack if o.id == value] + [u.name for u in state.board if u.id == value]
        if not named:
            raise FormatError(f"no spell on the stack or permanent has id {value}", field)
        return named[0], value, f" targeting {named[0]} (object {value})"
    name = _opt_str(value, field)
    return name, None, f" targeting {name}" if name else ""


def action(kind: str, payload: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
    """The decision a scenario step names, as (transition, params)."""
    if kind == "pass":
        return [("pass", {"player": _player_of(payload, "pass")})]
    if kind == "concede":  # a player concedes (104.3a): a step of its own, never a listed option
        who = _player_of(payload, "concede")
        if state.payment is not None and state.payment.player == who:
            raise FormatError(f"{who} is paying {state.payment.what}: the model does not follow a concession in the "
                              "middle of a payment", "concede")
        return [("concede", {"player": who})]
    if kind in ("pay", "decline", "retract"):
        who = _player_of(payload, kind)
        pay = state.payment
        params = {"player": who, "amount": pay.amount if pay else 0, "what": pay.what if pay else "nothing"}
        if kind == "pay":
            return [("pay-unless" if pay is not None and pay.purpose == "unless" else "pay", params)]
        return [("decline-payment" if kind == "decline" else "retract", params)]
    if kind == "order":
        return _order(payload, state)
    data = _map(payload, kind)
    if kind == "cast":
        _only(data, ("player", "card", "target", "from", "targets"), "cast")
        target, ident, on = _target(data.get("target"), state, "cast.target")
        params = {"player": _str(data.get("player"), "cast.player"), "card": _str(data.get("card"), "cast.card"),
                  "target": target, "target_id": ident, "on": on}
        if data.get("targets") is not None:  # a spell's several targets (601.2c)
            chosen = _list(data["targets"], "cast.targets")
            if not 1 <= len(chosen) <= 4:
                raise FormatError("targets lists 1 to 4 objects", "cast.targets")
            found = [_target(x, state, f"cast.targets[{i}]") for i, x in enumerate(chosen)]
            if any(n is None for n, _, _ in found):
                raise FormatError("each of targets names an object", "cast.targets")
            params.update(targets=tuple(n for n, _, _ in found), target_ids=tuple(i for _, i, _ in found),
                          on=several_text((n, i, i is not None) for n, i, _ in found))
        how = _choice(data.get("from", "hand"), ("hand", "foretold", "plotted"), "cast.from")
        if how == "hand":
            return [("cast", params)]
        found = next((x.id for x in state.exile if x.owner == params["player"] and x.card == params["card"]
                      and x.how == how), None)
        return [(f"cast-{how}", {**params, "exile_id": found})]
    if kind in ("suspend", "foretell", "plot"):
        _only(data, ("player", "card"), kind)
        return [(kind, {k: _str(data.get(k), f"{kind}.{k}") for k in ("player", "card")})]
    if kind == "choose_defender":
        _only(data, ("player", "defender"), kind)
        return [("choose-defender", {k: _str(data.get(k), f"{kind}.{k}") for k in ("player", "defender")})]
    if kind == "activate":
        _only(data, ("player", "ability", "source", "target"), "activate")
        target, ident, on = _target(data.get("target"), state, "activate.target")
        return [("activate", {"player": _str(data.get("player"), "activate.player"),
                              "ability": _str(data.get("ability"), "activate.ability"),
                              "source": _opt_str(data.get("source"), "activate.source"), "target": target,
                              "target_id": ident, "on": on})]
    if kind == "mana":
        _only(data, ("player", "source"), "mana")
        return [("activate-mana", {k: _str(data.get(k), f"mana.{k}") for k in ("player", "source")})]
    if kind == "play_land":
        _only(data, ("player", "card"), "play_land")
        return [("play-land", {k: _str(data.get(k), f"play_land.{k}") for k in ("player", "card")})]
    if kind == "turn_face_up":
        _only(data, ("player", "permanent"), "turn_face_up")
        return [("turn-face-up", {k: _str(data.get(k), f"turn_face_up.{k}") for k in ("player", "permanent")})]
    if kind == "attack":
        _only(data, ("player", "with"), "attack")
        group = tuple(_str(c, f"attack.with[{i}]") for i, c in enumerate(_list(data.get("with"), "attack.with")))
        return [("declare-attackers", {"player": _str(data.get("player"), "attack.player"), "attackers": group,
                                       "attackers_text": ", ".join(group) or "no creatures"})]
    if kind == "block":
        _only(data, ("player", "blocks"), "block")
        blocks = tuple((_str(b, "block.blocks"), _str(a, f"block.blocks.{b}"))
                       for b, a in _map(data.get("blocks"), "block.blocks").items())
        return [("declare-blockers", {"player": _str(data.get("player"), "block.player"), "blocks": blocks,
                                      "blocks_text": ", ".join(f"{b} blocks {a}" for b, a in blocks) or "no blocks"})]
    if kind == "assign":
        return _assign(data)
    if kind == "choose":
        _only(data, ("player", "choice"), "choose")
        return [("choose", {k: _str(data.get(k), f"choose.{k}") for k in ("player", "choice")})]
    raise FormatError(f"unknown action {kind!r} (actions: {', '.join(ACTIONS)})")


def _order(data: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
    """``order: [abilities]`` or ``order: {player, triggers: [abilities]}``: the order a player puts
    their simultaneous triggered abilities on the stack in (603.3b), the first at the bottom and the
    last on top, by name (two of one name in the order they triggered); without ``player``, the
    controller of the first one named."""
    if isinstance(data, dict):
        _only(data, ("player", "triggers"), "order")
        names, where = _list(data.get("triggers"), "order.triggers"), "order.triggers"
        player: str | None = _str(data.get("player"), "order.player")
    else:
        names, where, player = _list(data, "order"), "order", None
    if not names:
        raise FormatError("name the triggered abilities in the order they go on the stack, the last on top", where)
    waiting = list(state.waiting)
    chosen = []
    for i, raw in enumerate(names):
        name = _str(raw, f"{where}[{i}]")
        found = next((o for o in waiting if o.name == name and (player is None or o.controller == player)), None)
        if found is None:
            have = ", ".join(f"{o.name} ({o.controller})" for o in state.waiting) or "none"
            raise FormatError(f"no triggered ability named {name!r} waits to go on the stack"
                              f"{'' if player is None else f' for {player}'} (waiting: {have})", f"{where}[{i}]")
        player = player or found.controller
        waiting.remove(found)
        chosen.append(found)
    assert player is not None
    return [("order-triggers", {"player": player, "order": tuple(o.id for o in chosen),
                                "names": tuple(o.name for o in chosen), "order_text": bindings.order_text(chosen)})]


def _assign(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """``assign: {player, order: {attacker: [blockers]}}``: the damage assignment order announced
    as blockers are declared (2010, 509.2), or, in rules without one (2026), the division at the
    combat damage step giving lethal damage to each in that order, the rest to the last (510.1c);
    ``assign: {player, damage: {attacker: {blocker: N, ...}}}``: any division (2026). An attacker
    left out keeps the order its blockers were listed in."""
    _only(data, ("player", "order", "damage"), "assign")
    player = _str(data.get("player"), "assign.player")
    if ("order" in data) == ("damage" in data):
        raise FormatError("say the blockers' order (order: {attacker: [blockers]}) or the division "
                          "(damage: {attacker: {blocker: N}}), one of them", "assign")
    if "order" in data:
        orders = tuple((_str(a, "assign.order"), tuple(_str(b, f"assign.order.{a}[{i}]")
                                                        for i, b in enumerate(_list(bs, f"assign.order.{a}"))))
                       for a, bs in _map(data["order"], "assign.order").items())
        text = bindings.orders_text(orders)
        return [("order-blockers", {"player": player, "orders": orders, "orders_text": text}),
                ("assign-combat-damage", {"player": player, "orders": orders, "assignment_text": text})]
    assignment = tuple((_str(a, "assign.damage"), tuple((_str(to, f"assign.damage.{a}"),
                                                         _int(n, f"assign.damage.{a}.{to}", 0, 99))
                                                        for to, n in _map(shares, f"assign.damage.{a}").items()))
                       for a, shares in _map(data["damage"], "assign.damage").items())
    return [("assign-combat-damage", {"player": player, "assignment": assignment,
                                      "assignment_text": bindings.assignment_text(assignment)})]


def check_references(model: Magic, state: State, kind: str, params: Mapping[str, Any]) -> None:
    """Names in an action that the scenario never introduced are format errors, not rule errors."""
    for key in ("player", "defender"):
        if key in params and params[key] not in state.players:
            raise FormatError(f"{params[key]!r} is not one of the players ({', '.join(state.players)})",
                              f"{kind}.{key}")
    if params.get("player") not in state.players:
        raise FormatError(f"{params.get('player')!r} is not one of the players ({', '.join(state.players)})",
                          f"{kind}.player")
    if "card" in params and params["card"] not in model.cards:
        raise FormatError(f"unknown card {params['card']!r} (add it to cards)", f"{kind}.card")
    names = {u.name for u in state.board} | {c for _, c in state.graveyard}
    for key in ("source", "permanent"):
        if params.get(key) is not None and params[key] not in names:
            raise FormatError(f"no permanent (or card in a graveyard) named {params[key]!r}", f"{kind}.{key}")
    assigned = [x for a, order in params.get("orders") or () for x in (a, *order)] + \
        [x for a, shares in params.get("assignment") or () for x in (a, *(to for to, _ in shares))
         if x not in state.players]
    for name in list(params.get("attackers", ())) + [x for pair in params.get("blocks", ()) for x in pair] + assigned:
        if state.permanent(name) is None:
            raise FormatError(f"no permanent named {name!r}", kind)
    if params.get("target") is not None and params.get("target_id") is None:
        if kind == "cast":
            target_kind = model.cards[params["card"]].target
        else:
            found = model.find_ability(state, params)
            target_kind = found[1].target if found else None
        ids = model.target_candidates(state, target_kind, params["target"])
        if len(ids) > 1:
            what = "spells on the stack" if target_kind == "spell" else "objects"
            raise FormatError(f"{len(ids)} {what} are named {params['target']!r} (ids {', '.join(map(str, ids))}): "
                              "say which one with its id (target: ID)", f"{kind}.target")


def option_action(option: Option) -> dict[str, Any]:
    """A decision written as a scenario step (so a client can replay it)."""
    p = dict(option.params)
    name = option.transition.name
    if name in ("pass", "pay", "pay-unless", "retract", "decline-payment"):
        return {{"pay-unless": "pay", "decline-payment": "decline"}.get(name, name): p["player"]}
    by_id = "(object " in p.get("on", "")  # a name two objects share: the scenario names the id
    if name in ("cast", "cast-foretold", "cast-plotted"):
        out = {k: p[k] for k in ("player", "card", "target") if p.get(k) is not None}
        out = {**out, "target": p["target_id"]} if by_id and p.get("target_id") is not None else out
        if p.get("targets"):
            out["targets"] = [i if "(object " in p["on"] else n for n, i in zip(p["targets"], p["target_ids"])]
        return {"cast": {**out, "from": name[5:]} if name != "cast" else out}
    if name in ("suspend", "foretell", "plot"):
        return {name: {"player": p["player"], "card": p["card"]}}
    if name == "choose-defender":
        return {"choose_defender": {"player": p["player"], "defender": p["defender"]}}
    if name == "activate":
        out = {k: p[k] for k in ("player", "ability", "source", "target") if p.get(k) is not None}
        return {"activate": {**out, "target": p["target_id"]} if by_id else out}
    if name == "activate-mana":
        return {"mana": {"player": p["player"], "source": p["source"]}}
    if name == "play-land":
        return {"play_land": {"player": p["player"], "card": p["card"]}}
    if name == "turn-face-up":
        return {"turn_face_up": {"player": p["player"], "permanent": p["permanent"]}}
    if name == "declare-attackers":
        return {"attack": {"player": p["player"], "with": list(p["attackers"])}}
    if name == "declare-blockers":
        return {"block": {"player": p["player"], "blocks": dict(p["blocks"])}}
    if name == "order-triggers":
        return {"order": {"player": p["player"], "triggers": list(p["names"])}}
    if name == "order-blockers":
        return {"assign": {"player": p["player"], "order": {a: list(order) for a, order in p["orders"]}}}
    if name == "assign-combat-damage":
        return {"assign": {"player": p["player"], "damage": {a: dict(shares) for a, shares in p["assignment"]}}}
    return {"choose": {"player": p["player"], "choice": p["choice"]}}


def observe(model: Magic, s: State, key: str) -> Any:
    """The actual value an ``expect`` key compares against."""
    if key == "priority":
        return s.priority
    if key in ("step", "phase", "active", "turn"):
        return getattr(s, key)
    if key in ("stack", "waiting"):
        return [{"name": o.name, "controller": o.controller, "kind": o.kind} for o in getattr(s, key)]
    if key == "resolving":
        return s.resolving.item.name if s.resolving else None
    if key == "payment":
        return None if s.payment is None else {"player": s.payment.player, "amount": s.payment.amount,
                                               "purpose": s.payment.purpose, "what": s.payment.what}
    if key == "life":
        return {p: s.life_of(p) for p in s.players}
    if key == "graveyard":
        return [c for _, c in s.graveyard]
    if key == "battlefield":
        return [u.name for u in s.board]
    if key == "tapped":
        return [u.name for u in s.board if u.tapped]
    if key == "hand":
        return {p: (list(h) if h is not None else None) for p, h in s.hands}
    if key == "pool":
        return {p: s.mana(p) for p in s.players}
    if key == "drawn":
        return {p: dict(s.drawn).get(p, 0) for p in s.players}
    if key in ("lands_played", "extra_turns", "lost"):
        return list(getattr(s, key))
    if key == "attacking":
        return [u.name for u in s.board if u.attacking]
    if key == "blocked":
        return [u.name for u in s.board if u.blocked]
    if key == "damage":
        return {u.name: u.damage for u in s.board if model.is_creature(u)}
    if key == "static":
        return [{"name": st.name, "source": u.name, "effect": st.text,
                 "affects": [x.name for x in s.board if model.affects(u, st, x)]} for u, st in model.statics(s)]
    if key == "exile":
        return [{"card": x.card, "owner": x.owner, "as": x.how,
                 **({"time_counters": x.counters} if x.how == "suspended" else {})} for x in s.exile]
    if key == "defending":
        return s.defending
    if key == "winner":
        return s.winner
    if key == "power_toughness":
        return {u.name: f"{model.power(s, u)}/{model.toughness(s, u)}" for u in s.board if model.is_creature(u)}
    raise KeyError(key)


def state_line(state: Mapping[str, Any]) -> str:
    """One line for a frame's state (the CLI's walkthrough)."""
    stack = ", ".join(f"{o['name']} ({o['controller']})" for o in state["stack"]) or "—"
    parts = [f"turn {state['turn']} ({state['active']}), {STEP_NAMES.get(state['step'], state['step'])}",
             f"priority {state['priority'] or '—'}", f"stack: {stack}"]
    if state.get("waiting"):
        parts.append("waiting: " + ", ".join(o["name"] for o in state["waiting"]))
    if state.get("resolving"):
        parts.append(f"resolving {state['resolving']['item']['name']}")
    if state.get("payment"):
        pm = state["payment"]
        parts.append(f"{pm['player']} paying {pm['amount']} for {pm['what']}")
    return " · ".join(parts)
