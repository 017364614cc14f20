"""Riftbound scenarios: the set-up of a scenario (players, cards, battlefields, start),
scenario actions as decisions, and what an ``expect`` step can observe.

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

from kb.timing.engine import FormatError, Option
from kb.timing.fields import a_list as _list, a_mapping as _map, only_keys as _only, players as _player_list
from kb.timing.fields import text as _str
from kb.timing.models.riftbound.cards import parse_cards
from kb.timing.models.riftbound.model import Riftbound, model_for
from kb.timing.models.riftbound.state import Battlefield, Combat, Permanent, Showdown, State

EXPECT_KEYS = ("priority", "focus", "state", "chain", "resolved", "showdown", "combat", "decider",
               "legion", "played", "drawn", "control", "trash", "board", "tasks", "designations", "scored",
               "damage", "exhausted", "contested", "hands", "hand_sizes", "facedown", "finalized", "passes",
               "phase", "opened_by", "attacker", "defender", "combat_step")


# -- scenario set-up -------------------------------------------------------------------------
def _players(data: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    return _player_list(data, ("hand", "base", "facedown"), "turn player")


def setup(data: Mapping[str, Any]) -> tuple[Riftbound, State]:
    """The model and the first state of a scenario (its players, cards, battlefields, start)."""
    players, extra = _players(data.get("players"))
    cards = parse_cards(data.get("cards"))
    model = model_for(cards)
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
