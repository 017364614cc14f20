"""Riftbound scenarios: the set-up of a scenario (players, cards, battlefields, start),
scenario actions as decisions, and what an ``expect`` step can observe.

Players are names in turn order, or ``{name, hand: [cards], base: [units or gear],
facedown: [{card, at}], trash: [cards], points: N, xp: N, runes: N | {ready, exhausted}, pool: N | {energy,
power}, team: NAME}`` (``xp``: the XP marked on the player, 729.1; ``trash``: the cards in the player's own trash, 108.2.a; ``team``: a 2v2
game, four players whose turns alternate teams, sharing points, :mod:`kb.timing.models.riftbound.teams`)
(a hand not listed is unknown: any card of the pool may be played from it; runes and the Rune
Pool pay costs, :mod:`kb.timing.models.riftbound.costs`). ``battlefields``: a list of names or ``{name, controller, contested_by,
contributed_by, units: {player: [cards]}}`` (``contributed_by``: the player who brought it to the game, 652.2), or a mapping by name (``{Temple: {controller: Bo}, Hill: null}``).
``start``: ``{showdown: {at, focus}}`` (a showdown in progress), ``{combat: {at, attacker,
defender}}`` (combat opening there), or both (the showdown becomes a combat showdown);
``{phase: beginning}`` starts the turn at the Beginning Phase (its Beginning Step when the turn
player controls a permanent with Temporary, which triggers and is killed before scoring, 816.1.b;
then the Scoring Step: the turn player holds their battlefields; then the Main Phase begins); ``victory_score: N`` (8 by default).
An unknown key, step, card or battlefield is answered with the nearest known one.

Actions (scenario steps): ``play: {player, card, to, from: hand|facedown|trash, target, targets, kill, accelerate, repeat}``
(``kill``: the friendly unit that pays a "kill a friendly unit" cost; ``targets: [UNIT, …]`` the units a
card of several targets chooses, 355.13; ``accelerate: true`` pays a unit's Accelerate, 805.2;
``repeat: true`` pays a spell's Repeat, 820.1.d; ``from: trash`` plays a spell with Flow from the
player's own trash for its Flow cost, 829.1.b),
``activate: {player, ability}`` (``target: UNIT`` for an Equip ability, ``CARD's Equip``), ``pass: PLAYER`` (priority on a chain, focus in a showdown,
otherwise ending the Main Phase), ``move: {player, unit, to}`` (a Standard Move; from a battlefield to another with Ganking, 810.1.b;
``unit: [UNIT, …]`` moves several units together to one destination, from any origins, as one
game action, 144.3),
``decline``/``perform: {player, item}`` (an optional triggered ability being finalized; one
the scenario does not decline is performed; ``decline`` also refuses a triggered ability's cost),
``pay: {player, item}`` (pay a triggered ability's cost, 404.1), ``hide: {player, card, at}``,
``add: {player, ability}`` (a Reaction Add ability activated while a cost the Rune Pool and
runes do not cover is paid, 429.3: :mod:`kb.timing.models.riftbound.adding`),
``choose: {player, item, choice}`` (the unit a Quick-Draw play effect attaches its gear to, or the
Equipment a Weaponmaster play effect attaches, chosen as it is finalized, 402.2:
:mod:`kb.timing.models.riftbound.play_attaching`),
``apply``/``decline: {player, replacement, unit}`` (a "you may" replacement effect's
controller choosing, before the death it could replace, 371.2.a), ``concede: PLAYER`` (650: the
player leaves the game, :mod:`kb.timing.models.riftbound.conceding`), ``assign: {player, order:
[UNIT, …]}`` (the order in which the attacker or the defender assigns lethal combat damage among
the other side's units, 465.2.c, during the combat showdown or as the decision due at the combat
damage step; without it, board order, the runner taking that default).

``expect`` observes (a mapping is compared on the keys given, a list whole) the views of
:data:`OBSERVERS` (``priority``, ``focus``, ``state``, ``chain``: names, or items with some of
name, status, controller; ``showdown``/``combat`` in progress, ``attacker``, ``defender``,
``combat_step``; ``designations``, ``damage``, ``might``, ``exhausted``, ``next_death_replaced`` and ``board`` by unit;
``control``/``contested`` by battlefield; ``scored``; ``hands``, ``hand_sizes``, ``drawn`` and ``xp`` by
player; ``facedown``, ``played``/``finalized`` cards this turn, ``legion``, ``trash``, ``tasks``),
and every other key of the state's JSON as it is written there (``passes``, ``phase``,
``opened_by``, ``battlefields``, ``played_this_turn``…): :data:`EXPECT_KEYS` is derived from
the state's fields, so a new concept of the state is expectable at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kb.timing.engine import FormatError, Option
from kb.timing.fields import a_list as _list, a_mapping as _map, named_entry, only_keys as _only, players as _player_list
from kb.timing.fields import nearest, one_of as _one_of, text as _str, whole_number as _int
from kb.timing.models.codec import Context, field_json, json_keys
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import beginning, costs, teams, trash
from kb.timing.models.riftbound.cards import parse_cards
from kb.timing.models.riftbound.costs import resources_of
from kb.timing.models.riftbound.model import Riftbound, model_for
from kb.timing.models.riftbound.state import Battlefield, Combat, Permanent, Showdown, State

# -- scenario set-up -------------------------------------------------------------------------
def _players(data: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    return _player_list(data, ("hand", "base", "facedown", "points", "runes", "pool", "team", "trash", "xp"),
                        "turn player")


def battlefield_entries(data: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """A scenario's battlefields, each with the place an error about it names and the place of
    its name: a list of names or mappings, or a mapping by name whose values hold the rest
    (``{Temple: {controller: Bo}, Hill: null}``). Either way a battlefield with a name is
    ``battlefields.Temple`` (:func:`kb.timing.fields.named_entry`); a listed one's name that is
    missing or wrong is ``battlefields[0].name``."""
    if isinstance(data, dict):
        out = []
        for name, raw in data.items():
            where = named_entry("battlefields", str(name))
            raw = _map(raw, where)
            if "name" in raw:
                raise FormatError("a battlefield listed by name takes no name key", f"{where}.name")
            out.append((where, where, {"name": name, **raw}))
        return out
    listed = []
    for i, raw in enumerate(_list(data, "battlefields")):
        raw = _map({"name": raw} if isinstance(raw, str) else raw, f"battlefields[{i}]")
        name = raw.get("name")
        named = isinstance(name, str) and bool(name.strip())
        listed.append((named_entry("battlefields", name.strip()) if named else f"battlefields[{i}]",
                       f"battlefields[{i}]" if isinstance(data[i], str) else f"battlefields[{i}].name", raw))
    return listed


def setup(data: Mapping[str, Any]) -> tuple[Riftbound, State]:
    """The model and the first state of a scenario (its players, cards, battlefields, start)."""
    players, extra = _players(data.get("players"))
    cards = parse_cards(data.get("cards"))
    model = model_for(cards)
    board: list[Permanent] = []

    def place(card: Any, controller: str, location: str, field: str) -> None:
        name = _str(card, field)
        if name not in cards:
            raise FormatError(f"unknown card {name!r}{nearest(name, cards)} (add it to cards)", field)
        if cards[name].type in ("spell", "battlefield"):
            raise FormatError(f"{name} is a {cards[name].type}: only units and gear are on the board", field)
        taken = {u.name for u in board}
        unique, n = name, 2
        while unique in taken:
            unique, n = f"{name} #{n}", n + 1
        board.append(Permanent(unique, name, controller, location, gear=cards[name].type == "gear"))

    hands: list[tuple[str, tuple[str, ...] | None]] = []
    trashed: list[tuple[str, str]] = []  # each player's trash at the start (108.2.a)
    facedown: list[tuple[str, str, str, bool]] = []
    battlefields: list[Battlefield] = []
    for where, named_at, raw in battlefield_entries(data.get("battlefields")):
        name = _str(raw.get("name"), named_at)
        if name == "base" or any(b.name == name for b in battlefields):
            raise FormatError(f"battlefield name {name!r} is reserved or repeated", named_at)
        _only(raw, ("name", "controller", "contested_by", "contributed_by", "units"), where)
        for key in ("controller", "contested_by", "contributed_by"):
            if raw.get(key) is not None and raw[key] not in players:
                raise FormatError(f"{raw[key]!r} is not a player", f"{where}.{key}")
        battlefields.append(Battlefield(name, raw.get("controller"), raw.get("contested_by"), raw.get("contributed_by")))
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
            hand = tuple(_str(c, f"players.{player}.hand[{k}]")
                         for k, c in enumerate(_list(hand, f"players.{player}.hand")))
            for k, c in enumerate(hand):
                if c in cards and cards[c].type == "battlefield":
                    raise FormatError(f"{c} is a battlefield: it is not a card of a hand",
                                      f"players.{player}.hand[{k}]")
                if c not in cards:
                    raise FormatError(f"unknown card {c!r} in {player}'s hand{nearest(c, cards)} (add it to cards)",
                                      f"players.{player}.hand[{k}]")
        hands.append((player, hand))
        for k, c in enumerate(_list(p.get("trash"), f"players.{player}.trash")):
            c = _str(c, f"players.{player}.trash[{k}]")
            if c not in cards or cards[c].type == "battlefield":
                raise FormatError(f"unknown card {c!r} in {player}'s trash{nearest(c, cards)} (add it to cards; "
                                  "a battlefield is no card of a trash)", f"players.{player}.trash[{k}]")
            trashed.append((c, player))
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
    points = tuple((p, _int(extra[p]["points"], f"players.{p}.points", 0, 99)) for p in players
                   if extra.get(p, {}).get("points") is not None)
    experience = tuple((p, _int(extra[p]["xp"], f"players.{p}.xp", 0, 999)) for p in players
                       if extra.get(p, {}).get("xp"))  # each player's own (732)
    sides = teams.read_teams(players, extra)
    points = teams.shared_points(players, sides, points)
    state = State(players=players, board=tuple(board), battlefields=tuple(battlefields), hands=tuple(hands),
                  facedown=tuple(facedown), points=points, **resources_of(players, extra), teams=sides,
                  experience=experience)
    state = trash.to_trash(model, state, trashed)
    if sides:  # 2v2's Victory Score (489.3), and what a teammate controls since the Scoring Step (469.1.a)
        allies = state.teammates(players[0])
        state = replace(state, victory_score=teams.TEAM_VICTORY_SCORE,
                        disqualified=tuple(b.name for b in battlefields if b.controller in allies))
    return model, _start(model, state, _map(data.get("start"), "start"))


def _start(model: Riftbound, s: State, start: dict[str, Any]) -> State:
    _only(start, ("showdown", "combat", "phase", "victory_score"), "start")
    if "victory_score" in start:
        s = replace(s, victory_score=_int(start["victory_score"], "start.victory_score", 1, 99))
    if start.get("phase") is not None:
        if _one_of(start["phase"], ("beginning", "main"), "start.phase") == "beginning":
            if "showdown" in start or "combat" in start:
                raise FormatError("a showdown or combat starts in the Main Phase", "start.phase")
            # the Beginning Step when Temporary has something to kill (315.2.a, 816.1.b), then the
            # Scoring Step (315.2.b)
            s = replace(s, phase="beginning", tasks=beginning.beginning_tasks(model, s))
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
ACTIONS = ("play", "activate", "pass", "move", "decline", "perform", "hide", "pay", "add", "apply", "concede",
           "choose", "assign")


def action(kind: str, payload: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
    """The decision(s) a scenario step names, as (transition, params); the first legal one is taken."""
    if kind == "pass":
        who = _str(payload if not isinstance(payload, dict) else payload.get("player"), "pass")
        if state.chain:
            return [("pass-priority", {"player": who})]
        if state.showdown is not None:
            return [("pass-focus", {"player": who})]
        return [("end-main-phase", {"player": who})]
    if kind == "concede":  # a player concedes (650): a step of its own, never a listed option
        who = _str(payload if not isinstance(payload, dict) else payload.get("player"), "concede")
        leaving = {who, *state.teammates(who)}
        goes_on = not state.teams and len(set(state.players) - leaving) >= 2 and who != state.turn_player
        if goes_on and state.combat is not None and who in (state.combat.attacker, state.combat.defender):
            side = "attacker" if who == state.combat.attacker else "defender"
            raise FormatError(f"{who} is the {side} of the combat "
                              f"at {state.combat.battlefield}: the model does not follow a combat one of whose sides "
                              "left the game while it goes on", "concede")
        return [("concede", {"player": who})]
    data = _map(payload, kind)
    if kind == "play":
        _only(data, ("player", "card", "to", "from", "target", "kill", "targets", "accelerate", "repeat"), "play")
        params = {"player": _str(data.get("player"), "play.player"), "card": _str(data.get("card"), "play.card")}
        for key in ("to", "target", "kill"):
            if data.get(key) is not None:
                params[key] = _str(data[key], f"play.{key}")
        if data.get("targets") is not None:  # the units chosen for a card's several targets (355.13)
            chosen = _list(data["targets"], "play.targets")
            if not 1 <= len(chosen) <= 4:
                raise FormatError("targets lists 1 to 4 units", "play.targets")
            params["targets"] = tuple(_str(u, f"play.targets[{i}]") for i, u in enumerate(chosen))
        if data.get("from") not in (None, "hand", "facedown", "trash"):
            raise FormatError("from is hand, facedown or trash (a spell with Flow, 829.1.b)", "play.from")
        if data.get("from") in ("facedown", "trash"):
            params["from"] = data["from"]
        # pay Accelerate's (805.2) or Repeat's (820.1.d) optional additional cost
        for key in ("accelerate", "repeat"):
            if data.get(key) is not None:
                if not isinstance(data[key], bool):
                    raise FormatError(f"{key} is true or false", f"play.{key}")
                if data[key]:
                    params[key] = True
        return [("play", params)]
    if kind == "activate":
        _only(data, ("player", "ability", "target"), "activate")
        params = {"player": _str(data.get("player"), "activate.player"),
                  "ability": _str(data.get("ability"), "activate.ability")}
        if data.get("target") is not None:  # an Equip ability's unit (818.1.b.1)
            params["target"] = _str(data["target"], "activate.target")
        return [("activate", params)]
    if kind == "add":
        _only(data, ("player", "ability"), "add")
        pend = state.pending
        return [("add-while-paying", {"player": _str(data.get("player"), "add.player"),
                                      "ability": _str(data.get("ability"), "add.ability"),
                                      "item": pend[0].name if pend else "nothing"})]
    if kind == "move":
        _only(data, ("player", "unit", "to"), "move")
        player = _str(data.get("player"), "move.player")
        return [("standard-move", {"player": player, "unit": _moved(data.get("unit")),
                                   "to": _str(data.get("to"), "move.to")})]
    if kind == "apply" or kind == "decline" and "replacement" in data:
        # a "you may" replacement effect applied to a unit's death about to happen, or not (371.2.a)
        _only(data, ("player", "replacement", "unit"), kind)
        params = {"player": _str(data.get("player"), f"{kind}.player"),
                  "source": _str(data.get("replacement"), f"{kind}.replacement"),
                  "unit": _str(data.get("unit"), f"{kind}.unit")}
        return [("apply-replacement" if kind == "apply" else "decline-replacement", params)]
    if kind in ("decline", "perform", "pay"):
        _only(data, ("player", "item"), kind)
        params = {k: _str(data.get(k), f"{kind}.{k}") for k in ("player", "item")}
        # declining is an optional ability's "you may" (402.1) or its cost (404.2)
        names = {"decline": ("decline-trigger", "decline-cost"), "perform": ("perform-trigger",),
                 "pay": ("pay-cost",)}[kind]
        return [(name, dict(params)) for name in names]
    if kind == "choose":  # an attaching play effect's choice, as it is finalized (402.2: play_attaching)
        _only(data, ("player", "item", "choice"), "choose")
        return [("choose-attachment", {k: _str(data.get(k), f"choose.{k}") for k in ("player", "item", "choice")})]
    if kind == "assign":  # the order a player's combat damage is assigned in, before the damage step (465.2.c)
        _only(data, ("player", "order"), "assign")
        order = tuple(_str(u, f"assign.order[{i}]") for i, u in enumerate(_list(data.get("order"), "assign.order")))
        if not order:
            raise FormatError("expected a non-empty list of the other side's units", "assign.order")
        for i, name in enumerate(order):
            if name in order[:i]:
                raise FormatError(f"{name} is listed twice", f"assign.order[{i}]")
        return [("assign-damage", {"player": _str(data.get("player"), "assign.player"), "order": order})]
    if kind == "hide":
        _only(data, ("player", "card", "at"), "hide")
        return [("hide", {k: _str(data.get(k), f"hide.{k}") for k in ("player", "card", "at")})]
    raise FormatError(f"unknown action {kind!r}{nearest(kind, ACTIONS)} (actions: {', '.join(ACTIONS)})")


def _moved(unit: Any) -> str | tuple[str, ...]:
    """A move's ``unit``: one unit's name, or a list of the different units whose Standard Moves
    are performed together, as one game action (144.3); a list of one is that unit's move."""
    if not isinstance(unit, list):
        return _str(unit, "move.unit")
    names = [_str(u, f"move.unit[{i}]") for i, u in enumerate(_list(unit, "move.unit"))]
    if not names:
        raise FormatError("expected a unit's name or a non-empty list of units", "move.unit")
    for i, name in enumerate(names):
        if name in names[:i]:
            raise FormatError(f"{name} is listed twice: units moved together are different units (144.3)",
                              f"move.unit[{i}]")
    return names[0] if len(names) == 1 else tuple(names)


def check_references(model: Riftbound, state: State, kind: str, params: Mapping[str, Any]) -> None:
    """Names in an action that the scenario never introduced are format errors, not rule errors."""
    if params.get("player") not in state.players:
        raise FormatError(f"{params.get('player')!r} is not one of the players ({', '.join(state.players)})",
                          f"{kind}.player")
    if "card" in params and params["card"] in model.cards and model.cards[params["card"]].type == "battlefield":
        raise FormatError(f"{params['card']} is a battlefield: it is not played", f"{kind}.card")
    if "card" in params and params["card"] not in model.cards:
        raise FormatError(f"unknown card {params['card']!r}{nearest(params['card'], model.cards)} (add it to cards)",
                          f"{kind}.card")
    for key in ("to", "at"):
        where = params.get(key)
        if where is not None and where != "base" and state.battlefield(where) is None:
            raise FormatError(f"unknown battlefield {where!r}{nearest(where, [b.name for b in state.battlefields])}",
                              f"{kind}.{key}")


def option_action(option: Option) -> dict[str, Any]:
    """A decision written as a scenario step (so a client can replay it)."""
    p = dict(option.params)
    name = option.transition.name
    if name in ("pass-priority", "pass-focus", "end-main-phase"):
        return {"pass": p["player"]}
    if name == "concede":
        return {"concede": p["player"]}
    if name == "standard-move":
        return {"move": {**p, "unit": list(p["unit"])} if isinstance(p["unit"], tuple) else p}
    if name == "add-while-paying":
        return {"add": {"player": p["player"], "ability": p["ability"]}}
    if name in ("apply-replacement", "decline-replacement"):
        return {name.split("-")[0]: {"player": p["player"], "replacement": p["source"], "unit": p["unit"]}}
    if name in ("decline-trigger", "perform-trigger", "decline-cost", "pay-cost"):
        return {name.split("-")[0]: {"player": p["player"], "item": p["item"]}}
    if name == "choose-attachment":
        return {"choose": p}
    if name == "assign-damage":
        return {"assign": {"player": p["player"], "order": list(p["order"])}}
    if "targets" in p:
        p["targets"] = list(p["targets"])
    return {name: p}


Observer = Callable[[Riftbound, State], Any]


def _combat(key: str) -> Observer:
    return lambda m, s: getattr(s.combat, key) if s.combat is not None else None


# What an ``expect`` key observes, where it is not the state's JSON as written: views by unit,
# battlefield or player, and what is derived (the turn state, Legion, Might).
OBSERVERS: dict[str, Observer] = {
    "priority": lambda m, s: s.priority,
    "focus": lambda m, s: s.focus,
    "state": lambda m, s: s.turn_state,
    "chain": lambda m, s: [{"name": i.name, "status": i.status, "controller": i.controller} for i in s.chain],
    "showdown": lambda m, s: s.showdown is not None,
    "combat": lambda m, s: s.combat is not None,
    "legion": lambda m, s: {p: any(pl == p for pl, _, _ in s.finalized) for p in s.players},
    "played": lambda m, s: [c for _, c in s.played],
    "drawn": lambda m, s: {p: dict(s.drawn).get(p, 0) for p in s.players},
    "xp": lambda m, s: {p: s.xp_of(p) for p in s.players},
    "control": lambda m, s: {b.name: b.controller for b in s.battlefields},
    "trash": lambda m, s: list(s.trash),
    "board": lambda m, s: {u.name: u.location for u in s.board},
    "empowered": lambda m, s: [u.name for u in s.board if u.empowered],
    "attached": lambda m, s: {g.name: g.attached_to for g in s.board if g.gear},
    "tasks": lambda m, s: list(s.tasks),
    "designations": lambda m, s: {u.name: u.designation for u in s.board},
    "scored": lambda m, s: [{"player": p, "at": at} for p, at in s.scored],
    "damage": lambda m, s: {u.name: u.damage for u in s.board},
    "might": lambda m, s: {u.name: m.might(u, s) for u in s.board},
    "pool": lambda m, s: costs.observe(s, "pool"),
    "runes": lambda m, s: costs.observe(s, "runes"),
    "exhausted": lambda m, s: {u.name: u.exhausted for u in s.board},
    "next_death_replaced": lambda m, s: {u.name: u.saved for u in s.board},
    "prevent_value": lambda m, s: {u.name: u.prevent for u in s.board},
    "contested": lambda m, s: {b.name: b.contested_by for b in s.battlefields},
    "hands": lambda m, s: {p: (list(h) if h is not None else None) for p, h in s.hands},
    "hand_sizes": lambda m, s: {p: (len(h) if h is not None else None) for p, h in s.hands},
    "facedown": lambda m, s: [{"card": c, "player": p, "at": at} for c, p, at, _ in s.facedown],
    "finalized": lambda m, s: [c for _, c, _ in s.finalized],
    "attacker": _combat("attacker"),
    "defender": _combat("defender"),
    "combat_step": _combat("step"),
}
# Every other key of the state's JSON is expectable as it is written there (``passes``,
# ``phase``, ``opened_by``, ``battlefields``, ``played_this_turn``…): a concept added to the
# state is expectable as soon as it is a field (resolved and decider are the runner's).
EXPECT_KEYS = (*OBSERVERS, "resolved", "decider",
               *(k for k in json_keys(State) if k not in OBSERVERS))


def observe(model: Riftbound, s: State, key: str) -> Any:
    """The actual value an ``expect`` key compares against."""
    found = OBSERVERS.get(key)
    if found is not None:
        return found(model, s)
    if key in EXPECT_KEYS:
        return field_json(s, key, Context(cards=model.cards))
    raise KeyError(key)
