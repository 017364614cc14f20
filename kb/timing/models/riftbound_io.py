"""Riftbound model input and output: card pools, the scenario's set-up, states as JSON,
scenario actions as decisions, and what an ``expect`` step can observe.

Card pool (a scenario's ``cards``), each card one entry::

    Fireball: {type: spell, keywords: [Action], effects: [{draw: 1}]}
    Defy: {type: spell, keywords: [Reaction], effects: [{counter: target}]}
    Yeti:
      type: unit
      might: 3
      triggers: [{on: play, name: Yeti's play effect, optional: true, effects: [{draw: 1}]}]
    Gold: {type: gear, abilities: [{name: Gold's Add, keywords: [Reaction], add: true}]}

Players are names in turn order, or ``{name, hand: [cards], base: [units or gear],
facedown: [{card, at}]}`` (a hand not listed is unknown: any card of the pool may be played
from it). ``battlefields``: names, or ``{name, controller, contested_by, units: {player: [cards]}}``.
``start``: ``{showdown: {at, focus}}`` (a showdown in progress), ``{combat: {at, attacker,
defender}}`` (combat opening there), or both (the showdown becomes a combat showdown).

Actions (scenario steps): ``play: {player, card, to, from: hand|facedown, target}``,
``activate: {player, ability}``, ``pass: PLAYER`` (priority on a chain, focus in a showdown,
otherwise ending the Main Phase), ``move: {player, unit, to}`` (a Standard Move),
``decline``/``perform: {player, item}`` (an optional triggered ability being finalized; one
the scenario does not decline is performed), ``hide: {player, card, at}``.

Instructions: ``{draw: N}``, ``{counter: ITEM|target}``, ``{kill: UNIT|target}``,
``{move: {unit: UNIT|target, to: BATTLEFIELD|base}}``, ``{create: {name, effects, times}}``
(a reflexive trigger), ``{play: CARD}`` or ``{play: {card, to}}`` (play from hand as part of
the effect), ``{add: N}``. ``target`` means the target chosen when the card is played.
Keywords are read in any case (``reaction`` is Reaction).

``expect`` observes (a mapping is compared on the keys given, a list whole): ``priority``,
``focus``, ``state`` (neutral-open, neutral-closed, showdown-open or showdown-closed), ``chain``
(names, or items with some of name, status, controller), ``showdown``/``combat`` (in progress),
``attacker``, ``defender``, ``combat_step``, ``designations`` and ``damage``/``exhausted`` by unit,
``board`` (unit → location), ``control``/``contested`` by battlefield, ``scored`` ([{player, at}]),
``hands`` and ``hand_sizes`` by player, ``drawn``, ``facedown``, ``played``/``finalized`` (cards this
turn), ``legion``, ``trash``, ``tasks``, ``passes``, ``phase``, ``opened_by``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kb.timing.engine import FormatError, Option, Violation
from kb.timing.fields import a_list as _list, a_mapping as _map, flag as _flag, one_of as _choice
from kb.timing.fields import only_keys as _only, optional_text as _opt_str, records as _records
from kb.timing.fields import players as _player_list, text as _str, whole_number as _int
from kb.timing.fields import card_of, player_of, pool_json, turn_order
from kb.timing.models.riftbound import (CARD_TYPES, KEYWORDS, TRIGGER_EVENTS, Ability, Battlefield, Card,
                                        Combat, Effect, Item, Permanent, Riftbound, Showdown, State, Trigger,
                                        cite)

INSTRUCTIONS = ("draw", "counter", "kill", "move", "create", "play", "add")
TURN_STATES = ("neutral-open", "neutral-closed", "showdown-open", "showdown-closed")
EXPECT_KEYS = ("priority", "focus", "state", "chain", "resolved", "showdown", "combat", "decider",
               "legion", "played", "drawn", "control", "trash", "board", "tasks", "designations", "scored",
               "damage", "exhausted", "contested", "hands", "hand_sizes", "facedown", "finalized", "passes",
               "phase", "opened_by", "attacker", "defender", "combat_step")


# -- small validators ----------------------------------------------------------------------
# -- cards ---------------------------------------------------------------------------------
def parse_effects(data: Any, field: str) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for i, raw in enumerate(_list(data, field)):
        where = f"{field}[{i}]"
        if not isinstance(raw, dict) or len(raw) != 1:
            raise FormatError(f"an instruction is a mapping with one key ({', '.join(INSTRUCTIONS)})", where)
        (kind, arg), = raw.items()
        if kind == "draw" or kind == "add":
            out.append((kind, _int(arg, f"{where}.{kind}", 0, 20)))
        elif kind in ("counter", "kill"):
            out.append((kind, _str(arg, f"{where}.{kind}")))
        elif kind == "move":
            m = _map(arg, f"{where}.move")
            _only(m, ("unit", "to"), f"{where}.move")
            out.append(("move", _str(m.get("unit"), f"{where}.move.unit"), _str(m.get("to"), f"{where}.move.to")))
        elif kind == "create":
            m = _map(arg, f"{where}.create")
            _only(m, ("name", "effects", "times"), f"{where}.create")
            out.append(("create", _str(m.get("name"), f"{where}.create.name"),
                        parse_effects(m.get("effects"), f"{where}.create.effects"),
                        _int(m.get("times", 1), f"{where}.create.times", 1, 9)))
        elif kind == "play":
            if isinstance(arg, dict):
                _only(arg, ("card", "to"), f"{where}.play")
                out.append(("play", _str(arg.get("card"), f"{where}.play.card"),
                            _str(arg["to"], f"{where}.play.to") if arg.get("to") is not None else None))
            else:
                out.append(("play", _str(arg, f"{where}.play"), None))
        else:
            raise FormatError(f"unknown instruction {kind!r} (expected one of: {', '.join(INSTRUCTIONS)})", where)
    return tuple(out)


_KEYWORD_NAMES = {k.casefold(): k for k in KEYWORDS}


def _keywords(data: Any, field: str) -> frozenset[str]:
    """Keywords as the rules spell them, whatever case the input uses (``reaction``, ``REACTION``)."""
    out = set()
    for i, k in enumerate(_list(data, field)):
        k = _str(k, f"{field}[{i}]")
        known = _KEYWORD_NAMES.get(k.strip().casefold())
        if known is None:
            raise FormatError(f"unknown keyword {k!r} (the model knows: {', '.join(sorted(KEYWORDS))})",
                              f"{field}[{i}]")
        out.add(known)
    return frozenset(out)


def parse_cards(data: Any, field: str = "cards") -> dict[str, Card]:
    """A card pool from a scenario's ``cards`` (or a state's ``cards``)."""
    cards: dict[str, Card] = {}
    for name, raw in _map(data, field).items():
        name = _str(name, field)
        where = f"{field}.{name}"
        raw = _map(raw, where)
        _only(raw, ("type", "keywords", "effects", "legion", "triggers", "abilities", "might"), where)
        ctype = raw.get("type")
        if ctype not in CARD_TYPES:
            raise FormatError(f"type must be one of: {', '.join(CARD_TYPES)}", f"{where}.type")
        triggers = []
        for i, tr in enumerate(_list(raw.get("triggers"), f"{where}.triggers")):
            tw = f"{where}.triggers[{i}]"
            # YAML 1.1 reads an unquoted ``on:`` key as the boolean true.
            tr = {("on" if k is True else k): v for k, v in _map(tr, tw).items()}
            _only(tr, ("on", "name", "effects", "optional", "what"), tw)
            on = tr.get("on")
            if on not in TRIGGER_EVENTS:
                raise FormatError(f"on must be one of: {', '.join(TRIGGER_EVENTS)}", f"{tw}.on")
            what = tr.get("what", "self")
            if what not in ("self", "spell", "unit", "gear", "card") or (what != "self" and on != "play"):
                raise FormatError("what is self, or (for on: play) spell|unit|gear|card", f"{tw}.what")
            triggers.append(Trigger(on, _str(tr.get("name", f"{name}'s {on} trigger"), f"{tw}.name"),
                                    parse_effects(tr.get("effects"), f"{tw}.effects"),
                                    bool(tr.get("optional", False)), what))
        abilities = []
        for i, ab in enumerate(_list(raw.get("abilities"), f"{where}.abilities")):
            aw = f"{where}.abilities[{i}]"
            ab = _map(ab, aw)
            _only(ab, ("name", "keywords", "effects", "add"), aw)
            abilities.append(Ability(_str(ab.get("name"), f"{aw}.name"), _keywords(ab.get("keywords"), f"{aw}.keywords"),
                                     parse_effects(ab.get("effects"), f"{aw}.effects"), bool(ab.get("add", False))))
        if ctype == "spell" and (triggers or abilities):
            raise FormatError("a spell has no triggers or abilities of its own (put them on a unit or gear)", where)
        cards[name] = Card(name, ctype, _keywords(raw.get("keywords"), f"{where}.keywords"),
                           parse_effects(raw.get("effects"), f"{where}.effects"),
                           parse_effects(raw.get("legion"), f"{where}.legion"), tuple(triggers), tuple(abilities),
                           _int(raw.get("might", 1), f"{where}.might", 0, 99))
    for name, card in cards.items():
        _check_refs(cards, card.effects + card.legion, f"{field}.{name}")
        for tr in card.triggers:
            _check_refs(cards, tr.effects, f"{field}.{name}")
    return cards


def _check_refs(cards: Mapping[str, Card], effects: tuple[Effect, ...], field: str) -> None:
    for e in effects:
        if e[0] == "play" and e[1] not in cards:
            raise FormatError(f"plays {e[1]!r}, which is not in the card pool", field)
        if e[0] == "create":
            _check_refs(cards, e[2], field)


def effects_json(effects: tuple[Effect, ...]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in effects:
        if e[0] == "move":
            out.append({"move": {"unit": e[1], "to": e[2]}})
        elif e[0] == "create":
            out.append({"create": {"name": e[1], "effects": effects_json(e[2]), "times": e[3]}})
        elif e[0] == "play":
            out.append({"play": e[1] if e[2] is None else {"card": e[1], "to": e[2]}})
        else:
            out.append({e[0]: e[1]})
    return out


def card_json(card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {"type": card.type}
    if card.keywords:
        out["keywords"] = sorted(card.keywords)
    if card.effects:
        out["effects"] = effects_json(card.effects)
    if card.legion:
        out["legion"] = effects_json(card.legion)
    if card.triggers:
        out["triggers"] = [{"on": t.on, "name": t.name, "effects": effects_json(t.effects),
                            **({"optional": True} if t.optional else {}),
                            **({"what": t.what} if t.what != "self" else {})} for t in card.triggers]
    if card.abilities:
        out["abilities"] = [{"name": a.name, **({"keywords": sorted(a.keywords)} if a.keywords else {}),
                             **({"effects": effects_json(a.effects)} if a.effects else {}),
                             **({"add": True} if a.add else {})} for a in card.abilities]
    if card.type == "unit" and card.might != 1:
        out["might"] = card.might
    return out


# -- scenario set-up -------------------------------------------------------------------------
def _players(data: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    return _player_list(data, ("hand", "base", "facedown"), "turn player")


def setup(data: Mapping[str, Any]) -> tuple[Riftbound, State]:
    """The model and the first state of a scenario (its players, cards, battlefields, start)."""
    players, extra = _players(data.get("players"))
    cards = parse_cards(data.get("cards"))
    model = Riftbound(cards)
    board: list[Permanent] = []

    def place(card: Any, controller: str, location: str, field: str) -> None:
        name = _str(card, field)
        if name not in cards:
            raise FormatError(f"unknown card {name!r} (add it to cards)", field)
        if cards[name].type == "spell":
            raise FormatError(f"{name} is a spell: only units and gear are on the board", field)
        taken = {u.name for u in board}
        unique, n = name, 2
        while unique in taken:
            unique, n = f"{name} #{n}", n + 1
        board.append(Permanent(unique, name, controller, location))

    hands: list[tuple[str, tuple[str, ...] | None]] = []
    facedown: list[tuple[str, str, str, bool]] = []
    battlefields: list[Battlefield] = []
    for i, raw in enumerate(_list(data.get("battlefields"), "battlefields")):
        where = f"battlefields[{i}]"
        if isinstance(raw, str):
            raw = {"name": raw}
        raw = _map(raw, where)
        _only(raw, ("name", "controller", "contested_by", "units"), where)
        name = _str(raw.get("name"), f"{where}.name")
        if name == "base" or any(b.name == name for b in battlefields):
            raise FormatError(f"battlefield name {name!r} is reserved or repeated", f"{where}.name")
        for key in ("controller", "contested_by"):
            if raw.get(key) is not None and raw[key] not in players:
                raise FormatError(f"{raw[key]!r} is not a player", f"{where}.{key}")
        battlefields.append(Battlefield(name, raw.get("controller"), raw.get("contested_by")))
        for player, units in _map(raw.get("units"), f"{where}.units").items():
            if player not in players:
                raise FormatError(f"{player!r} is not a player", f"{where}.units")
            for j, u in enumerate(_list(units, f"{where}.units.{player}")):
                place(u, player, name, f"{where}.units.{player}[{j}]")
    bf_names = {b.name for b in battlefields}
    for player in players:
        p = extra.get(player, {})
        hand = p.get("hand")
        if hand is not None:
            hand = tuple(_str(c, f"players.{player}.hand") for c in _list(hand, f"players.{player}.hand"))
            for c in hand:
                if c not in cards:
                    raise FormatError(f"unknown card {c!r} in {player}'s hand (add it to cards)",
                                      f"players.{player}.hand")
        hands.append((player, hand))
        for j, u in enumerate(_list(p.get("base"), f"players.{player}.base")):
            place(u, player, "base", f"players.{player}.base[{j}]")
        for j, f in enumerate(_list(p.get("facedown"), f"players.{player}.facedown")):
            fw = f"players.{player}.facedown[{j}]"
            f = _map(f, fw)
            _only(f, ("card", "at"), fw)
            card, at = _str(f.get("card"), f"{fw}.card"), _str(f.get("at"), f"{fw}.at")
            if card not in cards or "Hidden" not in cards[card].keywords:
                raise FormatError(f"{card!r} must be a card of the pool with Hidden", f"{fw}.card")
            if at not in bf_names:
                raise FormatError(f"unknown battlefield {at!r}", f"{fw}.at")
            facedown.append((card, player, at, False))
    state = State(players=players, board=tuple(board), battlefields=tuple(battlefields), hands=tuple(hands),
                  facedown=tuple(facedown))
    return model, _start(state, _map(data.get("start"), "start"))


def _start(s: State, start: dict[str, Any]) -> State:
    _only(start, ("showdown", "combat"), "start")
    if "showdown" in start:
        sd = _map(start["showdown"], "start.showdown")
        _only(sd, ("at", "focus"), "start.showdown")
        at = _battlefield(s, sd.get("at"), "start.showdown.at")
        focus = sd.get("focus") or s.battlefield(at).contested_by or s.turn_player  # type: ignore[union-attr]
        if focus not in s.players:
            raise FormatError(f"{focus!r} is not a player", "start.showdown.focus")
        s = replace(s, showdown=Showdown(at), focus=focus, battlefields=_contest(s, at, focus))
    if "combat" in start:
        cb = _map(start["combat"], "start.combat")
        _only(cb, ("at", "attacker", "defender"), "start.combat")
        at = _battlefield(s, cb.get("at"), "start.combat.at")
        if s.showdown is not None and s.showdown.battlefield != at:
            raise FormatError("a combat starts at the battlefield of the ongoing showdown", "start.combat.at")
        attacker = cb.get("attacker") or s.turn_player
        others = [u.controller for u in s.units_at(at) if u.controller != attacker]
        defender = cb.get("defender") or (others[0] if others else None)
        for key, who in (("attacker", attacker), ("defender", defender)):
            if who not in s.players:
                raise FormatError(f"{who!r} is not a player (a combat needs units of two players there)",
                                  f"start.combat.{key}")
        if attacker == defender:
            raise FormatError("attacker and defender must differ", "start.combat.defender")
        s = replace(s, combat=Combat(at, attacker, defender, new_showdown=s.showdown is None),
                    tasks=("combat-opens",), battlefields=_contest(s, at, attacker))
    return s


def _battlefield(s: State, name: Any, field: str) -> str:
    name = _str(name, field)
    if s.battlefield(name) is None:
        raise FormatError(f"unknown battlefield {name!r} (list it under battlefields)", field)
    return name


def _contest(s: State, at: str, player: str) -> tuple[Battlefield, ...]:
    return tuple(replace(b, contested_by=b.contested_by or player) if b.name == at else b
                 for b in s.battlefields)


# -- states as JSON ------------------------------------------------------------------------
def item_json(item: Item, cards: Mapping[str, Card] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"name": item.name, "controller": item.controller, "status": item.status,
                           "kind": item.kind, "id": item.id}
    optional = {"card": item.card, "source": item.source, "to": item.to, "target": item.target}
    out.update({k: v for k, v in optional.items() if v is not None})
    own = (cards or {}).get(item.card or item.name) if item.kind in ("spell", "unit", "gear") else None
    if item.effects and (own is None or own.effects != item.effects):  # else read back from the card
        out["effects"] = effects_json(item.effects)
    for flag in ("add", "optional", "decided", "ambush"):
        if getattr(item, flag):
            out[flag] = True
    if item.origin != "hand":
        out["origin"] = item.origin
    if item.keywords:
        out["keywords"] = sorted(item.keywords)
    return out


def state_json(model: Riftbound, s: State) -> dict[str, Any]:
    """A state as plain JSON; :func:`state_from_json` reads it back (every frame's state)."""
    return {
        "ruleset": "riftbound",
        "turn_state": s.turn_state,
        "priority": s.priority,
        "focus": s.focus,
        "chain": [item_json(i, model.cards) for i in s.chain],
        "players": list(s.players),
        "turn_player": s.turn_player,
        "phase": s.phase,
        "passes": s.passes,
        "showdown": None if s.showdown is None else {
            "battlefield": s.showdown.battlefield, "combat": s.showdown.combat, "passes": s.showdown.passes},
        "combat": None if s.combat is None else {
            "battlefield": s.combat.battlefield, "attacker": s.combat.attacker, "defender": s.combat.defender,
            "step": s.combat.step, "new_showdown": s.combat.new_showdown, "result": s.combat.result,
            "designated": [{"unit": u, "designation": d} for u, d in s.combat.designated]},
        "opened_by": s.opened_by,
        "tasks": list(s.tasks),
        "board": [{"name": u.name, "card": u.card, "controller": u.controller, "location": u.location,
                   **({"exhausted": True} if u.exhausted else {}),
                   **({"designation": u.designation} if u.designation else {}),
                   **({"damage": u.damage} if u.damage else {})} for u in s.board],
        "battlefields": [{"name": b.name, "controller": b.controller, "contested_by": b.contested_by}
                         for b in s.battlefields],
        "hands": {p: (list(h) if h is not None else None) for p, h in s.hands},
        "facedown": [{"card": c, "player": p, "at": at, **({"hidden_this_turn": True} if fresh else {})}
                     for c, p, at, fresh in s.facedown],
        "finalized_this_turn": [{"player": p, "card": c, "id": i} for p, c, i in s.finalized],
        "played_this_turn": [{"player": p, "card": c} for p, c in s.played],
        "drawn": dict(s.drawn),
        "trash": list(s.trash),
        "scored": [{"player": p, "at": at} for p, at in s.scored],
        "next_id": s.next_id,
        "cards": pool_json(model, card_json),
    }


STATE_KEYS = ("ruleset", "turn_state", "priority", "focus", "chain", "players", "turn_player", "phase", "passes",
              "showdown", "combat", "opened_by", "tasks", "board", "battlefields", "hands", "facedown",
              "finalized_this_turn", "played_this_turn", "drawn", "trash", "scored", "next_id", "cards")
TASKS = ("cleanup", "combat-opens", "start-of-combat", "establish-attacker-defender", "attacker-gains-focus",
         "combat-chain", "combat-damage", "combat-cleanup", "combat-result", "establish-control", "combat-ends")


ITEM_KEYS = ("name", "controller", "status", "kind", "id", "card", "source", "to", "target", "effects", "add",
             "optional", "decided", "ambush", "origin", "keywords")
ORIGINS = ("hand", "facedown", "effect", "activated", "trigger", "reflexive")
COMBAT_TASKS = frozenset(TASKS) - {"cleanup"}


def state_from_json(data: Any) -> tuple[Riftbound, State, list[Violation]]:
    """Read a state (any frame's ``state``, or a hand-written one with at least ``players``).

    Malformed input raises :class:`FormatError` with the field; states the rules cannot
    produce are returned as violations (the caller refuses them with their rules).
    """
    if not isinstance(data, dict):
        raise FormatError("a state is a JSON object")
    _only(data, STATE_KEYS, "state")
    model = Riftbound(parse_cards(data.get("cards"), "cards"))
    violations: list[Violation] = []
    players = turn_order(data.get("players"),
                         "list the players (2 to 4, distinct) in turn order, the turn player first")
    if data.get("turn_player") not in (None, players[0]):
        raise FormatError("the turn player is listed first in players", "turn_player")
    player, card_name = player_of(players), card_of(model.cards)

    prio = data.get("priority")
    if isinstance(prio, list):
        holders = [player(p, f"priority[{i}]", False) for i, p in enumerate(prio)]
        if len(holders) > 1:
            violations.append(Violation(f"{' and '.join(map(str, holders))} both hold priority",
                                        cite("state.one-priority"), "priority"))
        prio = holders[0] if holders else None
    priority = player(prio, "priority")
    focus = player(data.get("focus"), "focus")
    chain: list[Item] = []
    next_id = 1
    for i, raw in enumerate(_list(data.get("chain"), "chain")):
        where = f"chain[{i}]"
        if isinstance(raw, str):
            raw = {"name": raw}
        raw = _map(raw, where)
        _only(raw, ITEM_KEYS, where)
        name = _str(raw.get("name"), f"{where}.name")
        given_card = card_name(raw["card"], f"{where}.card") if raw.get("card") is not None else None
        card = model.cards.get(given_card or name)
        kind = _choice(raw.get("kind") or (card.type if card else "spell"),
                       ("spell", "unit", "gear", "ability", "trigger"), f"{where}.kind")
        status = _choice(raw.get("status", "finalized"), ("pending", "finalized"), f"{where}.status")
        controller = player(raw.get("controller", players[0]), f"{where}.controller", False)
        own_card = card if card is not None and kind in ("spell", "unit", "gear") else None
        effects = (parse_effects(raw["effects"], f"{where}.effects") if "effects" in raw
                   else own_card.effects if own_card else ())
        item_id = _int(raw.get("id", next_id), f"{where}.id", 1, 10_000)
        if item_id < next_id:
            raise FormatError("chain item ids increase from the bottom of the chain to the top", f"{where}.id")
        next_id = item_id + 1
        chain.append(Item(
            item_id, name, controller, kind, status,  # type: ignore[arg-type]
            card=given_card or (own_card.name if own_card else None),
            source=_opt_str(raw.get("source"), f"{where}.source"), effects=effects,
            add=_flag(raw.get("add"), f"{where}.add"), optional=_flag(raw.get("optional"), f"{where}.optional"),
            decided=_flag(raw.get("decided"), f"{where}.decided"),
            origin=_choice(raw.get("origin", "hand"), ORIGINS, f"{where}.origin"),
            to=_opt_str(raw.get("to"), f"{where}.to"), target=_opt_str(raw.get("target"), f"{where}.target"),
            ambush=_flag(raw.get("ambush"), f"{where}.ambush"),
            keywords=_keywords(raw.get("keywords"), f"{where}.keywords")))
    battlefields: list[Battlefield] = []
    for i, b in enumerate(_records(data.get("battlefields"), "battlefields", ("name", "controller", "contested_by"))):
        name = _str(b.get("name"), f"battlefields[{i}].name")
        if name == "base" or any(x.name == name for x in battlefields):
            raise FormatError(f"battlefield name {name!r} is reserved or repeated", f"battlefields[{i}].name")
        battlefields.append(Battlefield(name, player(b.get("controller"), f"battlefields[{i}].controller"),
                                        player(b.get("contested_by"), f"battlefields[{i}].contested_by")))
    turn_state = data.get("turn_state")
    if turn_state is not None:
        _choice(turn_state, TURN_STATES, "turn_state")
    showdown = None
    if data.get("showdown") is not None:
        sd = _map(data["showdown"], "showdown")
        _only(sd, ("battlefield", "combat", "passes"), "showdown")
        showdown = Showdown(_str(sd.get("battlefield", "the battlefield"), "showdown.battlefield"),
                            _flag(sd.get("combat"), "showdown.combat"), _int(sd.get("passes", 0), "showdown.passes", 0, 9))
    combat = None
    if data.get("combat") is not None:
        cb = _map(data["combat"], "combat")
        _only(cb, ("battlefield", "attacker", "defender", "step", "new_showdown", "result", "designated"), "combat")
        combat = Combat(_str(cb.get("battlefield", showdown.battlefield if showdown else "the battlefield"),
                             "combat.battlefield"),
                        player(cb.get("attacker"), "combat.attacker", False),  # type: ignore[arg-type]
                        player(cb.get("defender"), "combat.defender", False),  # type: ignore[arg-type]
                        _choice(cb.get("step", "showdown"), ("showdown", "damage", "resolution"), "combat.step"),
                        _flag(cb.get("new_showdown", True), "combat.new_showdown"),
                        _opt_str(cb.get("result"), "combat.result"),
                        tuple((_str(d.get("unit"), f"combat.designated[{i}].unit"),
                               _choice(d.get("designation"), ("attacker", "defender"),
                                       f"combat.designated[{i}].designation"))
                              for i, d in enumerate(_records(cb.get("designated"), "combat.designated",
                                                             ("unit", "designation")))))
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
    tasks = tuple(_choice(t, TASKS, f"tasks[{i}]") for i, t in enumerate(_list(data.get("tasks"), "tasks")))
    if combat is None and COMBAT_TASKS & set(tasks):
        raise FormatError("combat tasks need a combat in progress (give combat)", "tasks")
    places = ("base",) + tuple(b.name for b in battlefields)
    board = []
    for i, u in enumerate(_records(data.get("board"), "board", ("name", "card", "controller", "location",
                                                                 "exhausted", "designation", "damage"))):
        name = _str(u.get("name"), f"board[{i}].name")
        if any(x.name == name for x in board):
            raise FormatError(f"two permanents are named {name!r}", f"board[{i}].name")
        board.append(Permanent(
            name, card_name(u.get("card") or name, f"board[{i}].card"),
            player(u.get("controller"), f"board[{i}].controller", False),  # type: ignore[arg-type]
            _choice(u.get("location", "base"), places, f"board[{i}].location"),
            _flag(u.get("exhausted"), f"board[{i}].exhausted"),
            _choice(u.get("designation"), (None, "attacker", "defender"), f"board[{i}].designation"),
            _int(u.get("damage", 0), f"board[{i}].damage", 0, 999)))
    hands_raw = _map(data.get("hands"), "hands")
    for p in hands_raw:
        player(p, "hands")
    hands = tuple((p, None if hands_raw.get(p) is None else tuple(
        _str(c, f"hands.{p}") for c in _list(hands_raw[p], f"hands.{p}"))) for p in players)
    drawn_raw = _map(data.get("drawn"), "drawn")
    drawn = tuple(sorted((player(p, "drawn", False), _int(n, f"drawn.{p}", 0, 999))  # type: ignore[misc]
                         for p, n in drawn_raw.items()))
    opened_by = _choice(data.get("opened_by"), (None, "play", "trigger", "add"), "opened_by")
    if opened_by is None and chain:
        opened_by = "trigger" if chain[0].kind == "trigger" else "add" if chain[0].add else "play"
    state = State(
        players=players, priority=priority, focus=focus, chain=tuple(chain),
        passes=_int(data.get("passes", 0), "passes", 0, 9), showdown=showdown, combat=combat,
        opened_by=opened_by, tasks=tasks, phase=_choice(data.get("phase", "main"), ("main", "ending"), "phase"),
        board=tuple(board), battlefields=tuple(battlefields), hands=hands,
        facedown=tuple((card_name(f.get("card"), f"facedown[{i}].card"),
                        player(f.get("player"), f"facedown[{i}].player", False),
                        _choice(f.get("at"), places[1:], f"facedown[{i}].at"),
                        _flag(f.get("hidden_this_turn"), f"facedown[{i}].hidden_this_turn"))
                       for i, f in enumerate(_records(data.get("facedown"), "facedown",
                                                      ("card", "player", "at", "hidden_this_turn")))),
        finalized=tuple((player(f.get("player"), f"finalized_this_turn[{i}].player", False),
                         _str(f.get("card"), f"finalized_this_turn[{i}].card"),
                         _int(f.get("id", 0), f"finalized_this_turn[{i}].id", 0, 10_000))
                        for i, f in enumerate(_records(data.get("finalized_this_turn"), "finalized_this_turn",
                                                       ("player", "card", "id")))),
        played=tuple((player(f.get("player"), f"played_this_turn[{i}].player", False),
                      _str(f.get("card"), f"played_this_turn[{i}].card"))
                     for i, f in enumerate(_records(data.get("played_this_turn"), "played_this_turn",
                                                    ("player", "card")))),
        drawn=drawn,  # type: ignore[arg-type]
        trash=tuple(_str(c, f"trash[{i}]") for i, c in enumerate(_list(data.get("trash"), "trash"))),
        scored=tuple((player(f.get("player"), f"scored[{i}].player", False), _str(f.get("at"), f"scored[{i}].at"))
                     for i, f in enumerate(_records(data.get("scored"), "scored", ("player", "at")))),
        next_id=max(next_id, _int(data.get("next_id", next_id), "next_id", 1, 10_000)),
    )
    return model, state, violations  # type: ignore[return-value]


# -- scenario actions and observations ---------------------------------------------------------
ACTIONS = ("play", "activate", "pass", "move", "decline", "perform", "hide")


def action(kind: str, payload: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
    """The decision(s) a scenario step names, as (transition, params); the first legal one is taken."""
    if kind == "pass":
        who = _str(payload if not isinstance(payload, dict) else payload.get("player"), "pass")
        if state.chain:
            return [("pass-priority", {"player": who})]
        if state.showdown is not None:
            return [("pass-focus", {"player": who})]
        return [("end-main-phase", {"player": who})]
    data = _map(payload, kind)
    if kind == "play":
        _only(data, ("player", "card", "to", "from", "target"), "play")
        params = {"player": _str(data.get("player"), "play.player"), "card": _str(data.get("card"), "play.card")}
        for key in ("to", "target"):
            if data.get(key) is not None:
                params[key] = _str(data[key], f"play.{key}")
        if data.get("from") not in (None, "hand", "facedown"):
            raise FormatError("from is hand or facedown", "play.from")
        if data.get("from") == "facedown":
            params["from"] = "facedown"
        return [("play", params)]
    if kind == "activate":
        _only(data, ("player", "ability"), "activate")
        return [("activate", {"player": _str(data.get("player"), "activate.player"),
                              "ability": _str(data.get("ability"), "activate.ability")})]
    if kind == "move":
        _only(data, ("player", "unit", "to"), "move")
        return [("standard-move", {k: _str(data.get(k), f"move.{k}") for k in ("player", "unit", "to")})]
    if kind in ("decline", "perform"):
        _only(data, ("player", "item"), kind)
        return [(f"{kind}-trigger", {k: _str(data.get(k), f"{kind}.{k}") for k in ("player", "item")})]
    if kind == "hide":
        _only(data, ("player", "card", "at"), "hide")
        return [("hide", {k: _str(data.get(k), f"hide.{k}") for k in ("player", "card", "at")})]
    raise FormatError(f"unknown action {kind!r} (actions: {', '.join(ACTIONS)})")


def check_references(model: Riftbound, state: State, kind: str, params: Mapping[str, Any]) -> None:
    """Names in an action that the scenario never introduced are format errors, not rule errors."""
    if params.get("player") not in state.players:
        raise FormatError(f"{params.get('player')!r} is not one of the players ({', '.join(state.players)})",
                          f"{kind}.player")
    if "card" in params and params["card"] not in model.cards:
        raise FormatError(f"unknown card {params['card']!r} (add it to cards)", f"{kind}.card")
    for key in ("to", "at"):
        where = params.get(key)
        if where is not None and where != "base" and state.battlefield(where) is None:
            raise FormatError(f"unknown battlefield {where!r}", f"{kind}.{key}")


def option_action(option: Option) -> dict[str, Any]:
    """A decision written as a scenario step (so a client can replay it)."""
    p = dict(option.params)
    name = option.transition.name
    if name in ("pass-priority", "pass-focus", "end-main-phase"):
        return {"pass": p["player"]}
    if name == "standard-move":
        return {"move": p}
    if name in ("decline-trigger", "perform-trigger"):
        return {name.split("-")[0]: {"player": p["player"], "item": p["item"]}}
    return {name: p}


def observe(model: Riftbound, s: State, key: str) -> Any:
    """The actual value an ``expect`` key compares against."""
    if key == "priority":
        return s.priority
    if key == "focus":
        return s.focus
    if key == "state":
        return s.turn_state
    if key == "chain":
        return [{"name": i.name, "status": i.status, "controller": i.controller} for i in s.chain]
    if key == "showdown":
        return s.showdown is not None
    if key == "combat":
        return s.combat is not None
    if key == "legion":
        return {p: any(pl == p for pl, _, _ in s.finalized) for p in s.players}
    if key == "played":
        return [c for _, c in s.played]
    if key == "drawn":
        return {p: dict(s.drawn).get(p, 0) for p in s.players}
    if key == "control":
        return {b.name: b.controller for b in s.battlefields}
    if key == "trash":
        return list(s.trash)
    if key == "board":
        return {u.name: u.location for u in s.board}
    if key == "tasks":
        return list(s.tasks)
    if key == "designations":
        return {u.name: u.designation for u in s.board}
    if key == "scored":
        return [{"player": p, "at": at} for p, at in s.scored]
    if key == "damage":
        return {u.name: u.damage for u in s.board}
    if key == "exhausted":
        return {u.name: u.exhausted for u in s.board}
    if key == "contested":
        return {b.name: b.contested_by for b in s.battlefields}
    if key == "hands":
        return {p: (list(h) if h is not None else None) for p, h in s.hands}
    if key == "hand_sizes":
        return {p: (len(h) if h is not None else None) for p, h in s.hands}
    if key == "facedown":
        return [{"card": c, "player": p, "at": at} for c, p, at, _ in s.facedown]
    if key == "finalized":
        return [c for _, c, _ in s.finalized]
    if key in ("passes", "phase", "opened_by"):
        return getattr(s, key)
    if key in ("attacker", "defender"):
        return getattr(s.combat, key) if s.combat is not None else None
    if key == "combat_step":
        return s.combat.step if s.combat is not None else None
    raise KeyError(key)
