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

``type`` is one type or a list (``[artifact, creature]``); ``keywords``: flash, haste, trample, split-second;
``legendary: true``; ``morph: N`` (its morph cost); ``suspend: {time: N, cost: C}`` ("Suspend N—[C]");
``foretell: C`` (its foretell cost; foretelling costs {2}); ``plot: C`` (its plot cost); ``color``: one colour or a list (white,
blue, black, red, green; omitted: colourless); ``static: {boost: N, type: creature, color: C,
whose: your|each, name}``: a static ability, "[C] creatures you control get +N/+N", in force
exactly while the permanent is on the battlefield (no stack, no priority: 117.2b); ``target``: creature, player, any
(creature or player), spell, permanent. Triggers: ``on`` cast | enters | dies |
dealt-damage | untap (a permanent you control becomes untapped) | beginning (with ``step``
and ``whose``: your | each; ``if: untapped`` for an intervening "if"). Abilities: ``name``,
``cost``, ``tap``, ``mana`` (a mana ability adding N), ``effects``, ``timing`` (any |
sorcery | your-upkeep), ``zone`` (battlefield | graveyard), ``artifacts`` (only if you
control N artifacts), ``target``.

Instructions: ``{damage: {to: target|you|PLAYER, amount: N|that}}``, ``{counter: target}``,
``{counter-unless-pay: N}``, ``{draw: N}`` or ``{draw: {who: you|each|that-player|target, n}}``,
``{lose-life: N}`` (or ``{who, n}``), ``{discard: each|you}``, ``{sacrifice: {who, type}}``,
``{destroy: target}``, ``{tap: target}``, ``{extra-turn: true}``, ``{return: true}`` (this card from the
graveyard to the battlefield), ``{boost: N}`` (the source gets +N/+N until end of turn),
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

Actions (scenario steps): ``cast: {player, card, target}``, ``activate: {player, ability,
source, target}`` (a target is a player, a permanent or a spell by name, or an object by its id
when two spells share a name: such a name is refused as ambiguous), ``mana: {player, source}``
(a mana ability), ``play_land: {player, card}``, ``turn_face_up: {player, permanent}``, ``suspend: {player, card}``,
``foretell: {player, card}``, ``plot: {player, card}`` (the special actions that exile a card from the
hand), ``cast: {player, card, target, from: foretold|plotted}`` (a card in exile), ``choose_defender:
{player, defender}`` (the attacking player of a multiplayer game, at the beginning of combat), ``pass: PLAYER``, ``pay: PLAYER`` (the cost being
paid, or what a resolving spell asks), ``decline: PLAYER`` (not paying what a resolving spell
asks), ``retract: PLAYER`` (reverse a cast or activation that cannot be paid), ``attack:
{player, with: [creatures]}``, ``block: {player, blocks: {blocker: attacker}}``, ``choose:
{player, choice}`` (a card to discard or a permanent to sacrifice while a spell resolves).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from kb.timing.engine import FormatError, Option, Violation
from kb.timing.fields import a_list as _list, a_mapping as _map, flag as _flag, one_of as _choice
from kb.timing.fields import only_keys as _only, optional_text as _opt_str, records as _records
from kb.timing.fields import players as _player_list, text as _str, whole_number as _int
from kb.timing.fields import card_of, player_of, pool_json, turn_order
from kb.timing.models.mtg import (CARD_TYPES, COLORS, EDITIONS, STEP_NAMES, STEPS, TARGETS, TIMINGS, TRIGGER_EVENTS,
                                  Ability, Card, Effect, Exiled, Magic, Obj, Payment, Permanent, Resolving, State,
                                  Static, Trigger)

INSTRUCTIONS = ("damage", "counter", "counter-unless-pay", "draw", "lose-life", "discard", "sacrifice",
                "destroy", "tap", "extra-turn", "return", "boost", "shuffle-graveyard", "time-counter",
                "cast-suspended")
KEYWORDS = ("flash", "haste", "trample", "split-second")
WHO = ("you", "each", "that-player", "target")
EXPECT_KEYS = ("priority", "step", "phase", "active", "turn", "stack", "waiting", "resolving", "payment",
               "life", "graveyard", "battlefield", "tapped", "hand", "pool", "drawn", "lands_played",
               "extra_turns", "lost", "attacking", "blocked", "damage", "static", "power_toughness", "exile",
               "defending")
ACTIONS = ("cast", "activate", "mana", "play_land", "turn_face_up", "suspend", "foretell", "plot", "pass", "pay",
           "decline", "retract", "choose_defender", "attack", "block", "choose")
EXILE_AS = ("suspended", "foretold", "plotted")


# -- small validators ----------------------------------------------------------------------
def edition_of(value: Any, field: str = "edition") -> str:
    """An edition name (YAML reads an unquoted 2010-10-01 as a date)."""
    if value is None:
        return ""
    if isinstance(value, datetime.date):
        value = value.isoformat()
    if not isinstance(value, str) or value not in EDITIONS:
        raise FormatError(f"the mtg timing model knows editions {', '.join(EDITIONS)}", field)
    return value


# -- cards ---------------------------------------------------------------------------------
def _who(value: Any, field: str) -> str:
    return _choice(value if value is not None else "you", WHO, field)


def parse_effects(data: Any, field: str) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for i, raw in enumerate(_list(data, field)):
        where = f"{field}[{i}]"
        if not isinstance(raw, dict) or len(raw) != 1:
            raise FormatError(f"an instruction is a mapping with one key ({', '.join(INSTRUCTIONS)})", where)
        (kind, arg), = raw.items()
        w = f"{where}.{kind}"
        if kind == "damage":
            m = _map(arg, w)
            _only(m, ("to", "amount"), w)
            amount = m.get("amount")
            if amount != "that":
                amount = _int(amount, f"{w}.amount", 0, 99)
            out.append(("damage", _str(m.get("to", "target"), f"{w}.to"), amount))
        elif kind in ("counter", "destroy", "tap"):
            if arg != "target":
                raise FormatError("expected target", w)
            out.append((kind, "target"))
        elif kind == "counter-unless-pay":
            out.append((kind, _int(arg, w, 1, 20)))
        elif kind in ("draw", "lose-life"):
            if isinstance(arg, dict):
                _only(arg, ("who", "n"), w)
                out.append((kind, _who(arg.get("who"), f"{w}.who"), _int(arg.get("n", 1), f"{w}.n", 1, 20)))
            else:
                out.append((kind, "you", _int(arg, w, 1, 20)))
        elif kind == "discard":
            out.append(("discard", _choice(arg, ("each", "you"), w)))
        elif kind == "sacrifice":
            m = _map(arg, w)
            _only(m, ("who", "type"), w)
            out.append(("sacrifice", _choice(m.get("who", "you"), ("each", "you"), f"{w}.who"),
                        _choice(m.get("type"), ("creature", "land", "artifact", "enchantment"), f"{w}.type")))
        elif kind in ("extra-turn", "return", "shuffle-graveyard", "time-counter", "cast-suspended"):
            if arg is not True:
                raise FormatError("expected true", w)
            out.append((kind,))
        elif kind == "boost":
            out.append(("boost", _int(arg, w, 1, 20)))
        else:
            raise FormatError(f"unknown instruction {kind!r} (expected one of: {', '.join(INSTRUCTIONS)})", where)
    return tuple(out)


def _effect_json(e: Effect) -> dict[str, Any]:
    kind = e[0]
    if kind == "damage":
        return {"damage": {"to": e[1], "amount": e[2]}}
    if kind in ("counter", "destroy", "tap"):
        return {kind: "target"}
    if kind in ("counter-unless-pay", "boost"):
        return {kind: e[1]}
    if kind in ("draw", "lose-life"):
        return {kind: {"who": e[1], "n": e[2]}}
    if kind == "discard":
        return {"discard": e[1]}
    if kind == "sacrifice":
        return {"sacrifice": {"who": e[1], "type": e[2]}}
    return {kind: True}


def effects_json(effects: tuple[Effect, ...]) -> list[dict[str, Any]]:
    return [_effect_json(e) for e in effects]


def _types(value: Any, field: str) -> frozenset[str]:
    names = value if isinstance(value, list) else [value]
    out = set()
    for i, t in enumerate(names):
        out.add(_choice(t, CARD_TYPES, f"{field}[{i}]" if isinstance(value, list) else field))
    if not out:
        raise FormatError(f"type must be one of: {', '.join(CARD_TYPES)}", field)
    return frozenset(out)


def parse_cards(data: Any, field: str = "cards") -> dict[str, Card]:
    """A card pool from a scenario's ``cards`` (or a state's ``cards``)."""
    cards: dict[str, Card] = {}
    for name, raw in _map(data, field).items():
        name = _str(name, field)
        where = f"{field}.{name}"
        raw = _map(raw, where)
        _only(raw, ("type", "cost", "power", "toughness", "legendary", "keywords", "effects", "target",
                    "triggers", "abilities", "morph", "mana", "color", "static", "suspend", "foretell", "plot"), where)
        color_raw = raw.get("color")
        colors = frozenset(_choice(c, COLORS, f"{where}.color" if not isinstance(color_raw, list) else
                                   f"{where}.color[{i}]")
                           for i, c in enumerate(color_raw if isinstance(color_raw, list) else
                                                 [] if color_raw is None else [color_raw]))
        static = None
        if raw.get("static") is not None:
            sw = f"{where}.static"
            st = _map(raw["static"], sw)
            _only(st, ("name", "boost", "type", "color", "whose"), sw)
            static = Static(_str(st.get("name", f"{name}'s static ability"), f"{sw}.name"),
                            _int(st.get("boost"), f"{sw}.boost", 1, 20),
                            _choice(st.get("type", "creature"), CARD_TYPES, f"{sw}.type"),
                            _choice(st.get("color", ""), ("",) + COLORS, f"{sw}.color"),
                            _choice(st.get("whose", "your"), ("your", "each"), f"{sw}.whose"))
        types = _types(raw.get("type"), f"{where}.type")
        keywords = frozenset(_choice(k, KEYWORDS, f"{where}.keywords[{i}]")
                             for i, k in enumerate(_list(raw.get("keywords"), f"{where}.keywords")))
        triggers = []
        for i, tr in enumerate(_list(raw.get("triggers"), f"{where}.triggers")):
            tw = f"{where}.triggers[{i}]"
            tr = {("on" if k is True else k): v for k, v in _map(tr, tw).items()}  # YAML 1.1: on → True
            _only(tr, ("on", "name", "effects", "step", "whose", "if"), tw)
            on = _choice(tr.get("on"), TRIGGER_EVENTS, f"{tw}.on")
            step = ""
            if on == "beginning":
                step = _choice(tr.get("step"), STEPS, f"{tw}.step")
            elif tr.get("step") is not None:
                raise FormatError("step is for on: beginning", f"{tw}.step")
            triggers.append(Trigger(on, _str(tr.get("name", f"{name}'s ability"), f"{tw}.name"),
                                    parse_effects(tr.get("effects"), f"{tw}.effects"), step,
                                    _choice(tr.get("whose", "your"), ("your", "each"), f"{tw}.whose"),
                                    _choice(tr.get("if", ""), ("", "untapped"), f"{tw}.if")))
        abilities = []
        for i, ab in enumerate(_list(raw.get("abilities"), f"{where}.abilities")):
            aw = f"{where}.abilities[{i}]"
            ab = _map(ab, aw)
            _only(ab, ("name", "cost", "tap", "mana", "effects", "timing", "zone", "artifacts", "target"), aw)
            mana = _int(ab.get("mana", 0), f"{aw}.mana", 0, 20)
            target = _choice(ab.get("target"), (None,) + TARGETS, f"{aw}.target")
            if mana and (target or ab.get("effects")):
                raise FormatError("a mana ability has no target and no other instructions here", aw)
            abilities.append(Ability(_str(ab.get("name"), f"{aw}.name"), _int(ab.get("cost", 0), f"{aw}.cost", 0, 20),
                                     _flag(ab.get("tap"), f"{aw}.tap"), mana,
                                     parse_effects(ab.get("effects"), f"{aw}.effects"),
                                     _choice(ab.get("timing", "any"), TIMINGS, f"{aw}.timing"),
                                     _choice(ab.get("zone", "battlefield"), ("battlefield", "graveyard"), f"{aw}.zone"),
                                     _int(ab.get("artifacts", 0), f"{aw}.artifacts", 0, 20), target))
        if "land" in types and _int(raw.get("mana", 1), f"{where}.mana", 0, 20) and not any(a.mana for a in abilities):
            abilities.append(Ability(f"{name}'s mana ability", tap=True, mana=raw.get("mana", 1)))
        morph = raw.get("morph")
        suspend = None
        if raw.get("suspend") is not None:
            sp = _map(raw["suspend"], f"{where}.suspend")
            _only(sp, ("time", "cost"), f"{where}.suspend")
            suspend = (_int(sp.get("time"), f"{where}.suspend.time", 1, 20), _int(sp.get("cost", 0), f"{where}.suspend.cost", 0, 20))
        exiling = {k: None if raw.get(k) is None else _int(raw[k], f"{where}.{k}", 0, 20) for k in ("foretell", "plot")}
        cards[name] = Card(
            name, types, _int(raw.get("cost", 0), f"{where}.cost", 0, 20),
            _int(raw.get("power", 0), f"{where}.power", 0, 99), _int(raw.get("toughness", 0), f"{where}.toughness", 0, 99),
            _flag(raw.get("legendary"), f"{where}.legendary"), "flash" in keywords,
            parse_effects(raw.get("effects"), f"{where}.effects"),
            _choice(raw.get("target"), (None,) + TARGETS, f"{where}.target"), tuple(triggers), tuple(abilities),
            None if morph is None else _int(morph, f"{where}.morph", 0, 20), "haste" in keywords, colors, static,
            "trample" in keywords, "split-second" in keywords, suspend, exiling["foretell"], exiling["plot"])
        if static is not None and not cards[name].permanent:
            raise FormatError("only a permanent's static ability is modelled (it applies while on the battlefield)",
                              f"{where}.static")
        needs = any(e[1] == "target" for e in cards[name].effects if len(e) > 1) or any(
            e[0] in ("counter-unless-pay",) for e in cards[name].effects)
        if needs and cards[name].target is None:
            raise FormatError("an instruction says target, so the card needs a target (creature, player, any, "
                              "spell, permanent)", f"{where}.target")
    return cards


def card_json(card: Card) -> dict[str, Any]:
    types = sorted(card.types)
    out: dict[str, Any] = {"type": types[0] if len(types) == 1 else types}
    if card.cost:
        out["cost"] = card.cost
    if "creature" in card.types:
        out.update(power=card.power, toughness=card.toughness)
    if card.colors:
        colors = [c for c in COLORS if c in card.colors]
        out["color"] = colors[0] if len(colors) == 1 else colors
    if card.legendary:
        out["legendary"] = True
    keywords = [k for k, on in (("flash", card.flash), ("haste", card.haste), ("trample", card.trample),
                                         ("split-second", card.split_second)) if on]
    if keywords:
        out["keywords"] = keywords
    if card.target:
        out["target"] = card.target
    if card.effects:
        out["effects"] = effects_json(card.effects)
    if card.morph is not None:
        out["morph"] = card.morph
    if card.suspend is not None:
        out["suspend"] = {"time": card.suspend[0], "cost": card.suspend[1]}
    for key in ("foretell", "plot"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.static is not None:
        st = card.static
        out["static"] = {"name": st.name, "boost": st.boost, "type": st.type, **({"color": st.color} if st.color else {}),
                         "whose": st.whose}
    if card.triggers:
        out["triggers"] = [{"on": t.on, "name": t.name, "effects": effects_json(t.effects),
                            **({"step": t.step, "whose": t.whose} if t.on == "beginning" else {}),
                            **({"if": t.condition} if t.condition else {})} for t in card.triggers]
    land_default = f"{card.name}'s mana ability"
    abilities = [a for a in card.abilities if not ("land" in card.types and a.name == land_default)]
    if "land" in card.types and not any(a.name == land_default for a in card.abilities):
        out["mana"] = 0
    if abilities:
        out["abilities"] = [{"name": a.name, **({"cost": a.cost} if a.cost else {}), **({"tap": True} if a.tap else {}),
                             **({"mana": a.mana} if a.mana else {}),
                             **({"effects": effects_json(a.effects)} if a.effects else {}),
                             **({"timing": a.timing} if a.timing != "any" else {}),
                             **({"zone": a.zone} if a.zone != "battlefield" else {}),
                             **({"artifacts": a.artifacts} if a.artifacts else {}),
                             **({"target": a.target} if a.target else {})} for a in abilities]
    return out


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
    cards = parse_cards(data.get("cards"))
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
    if kind in ("pay", "decline", "retract"):
        who = _player_of(payload, kind)
        pay = state.payment
        params = {"player": who, "amount": pay.amount if pay else 0, "what": pay.what if pay else "nothing"}
        if kind == "pay":
            return [("pay-unless" if pay is not None and pay.purpose == "unless" else "pay", params)]
        return [("decline-payment" if kind == "decline" else "retract", params)]
    data = _map(payload, kind)
    if kind == "cast":
        _only(data, ("player", "card", "target", "from"), "cast")
        target, ident, on = _target(data.get("target"), state, "cast.target")
        params = {"player": _str(data.get("player"), "cast.player"), "card": _str(data.get("card"), "cast.card"),
                  "target": target, "target_id": ident, "on": on}
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
    if kind == "choose":
        _only(data, ("player", "choice"), "choose")
        return [("choose", {k: _str(data.get(k), f"choose.{k}") for k in ("player", "choice")})]
    raise FormatError(f"unknown action {kind!r} (actions: {', '.join(ACTIONS)})")


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
    for name in list(params.get("attackers", ())) + [x for pair in params.get("blocks", ()) for x in pair]:
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
        out = {**out, "target": p["target_id"]} if by_id else out
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


__all__ = ["setup", "state_json", "state_from_json", "action", "check_references", "option_action", "observe",
           "state_line", "parse_cards", "EXPECT_KEYS", "ACTIONS", "Card"]
