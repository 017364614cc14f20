"""Riftbound's abstract cards: a name, a type, keywords, instructions, Legion text,
triggered and activated abilities, Might; read from a scenario's (or a state's) ``cards``
and written back.

Card pool, each card one entry::

    Fireball: {type: spell, keywords: [Action], effects: [{draw: 1}]}
    Defy: {type: spell, keywords: [Reaction], effects: [{counter: target}]}
    Yeti:
      type: unit
      might: 3
      triggers: [{on: play, name: Yeti's play effect, optional: true, effects: [{draw: 1}]}]
    Gold: {type: gear, abilities: [{name: Gold's Add, keywords: [Reaction], add: true,
                                    cost: {exhaust: true}, effects: [{add: 1}]}]}

Instructions: ``{draw: N}``, ``{counter: ITEM|target}``, ``{kill: UNIT|target}``, ``{kill: [UNIT, UNIT…]}``
(one kill of several units: their deaths are simultaneous, 370.1.a.2),
``{move: {unit: UNIT|target, to: BATTLEFIELD|base}}``, ``{create: {name, effects, times}}``
(a reflexive trigger), ``{play: CARD}`` or ``{play: {card, to}}`` (play from hand as part of
the effect), ``{add: N}`` (N Energy, or ``{energy, power}``, to the Rune Pool), ``{discard: N}``,
``{deal: {unit: UNIT|target, amount: N}}`` (damage marked; lethal damage kills in the next
cleanup), ``{give: {unit: UNIT|target, might: ±N}}`` (Might this turn), ``{prevent: {unit:
UNIT|target, amount: N}}`` ("prevent the next N damage that would be dealt to it this turn": a
game action that is a replacement effect, 369.2, 437), ``{ready: UNIT|target}``
(a unit or gear readied, 415), ``{save: UNIT|target}`` ("the next time it would die this turn,
heal it, exhaust it and recall it instead": a replacement effect, 369.1), ``{gain_xp: N}`` and
``{spend_xp: N}`` (the item's controller gains or spends N XP, 730: :mod:`kb.timing.models.riftbound.xp`).
A card's ``cost: N`` or
``cost: {energy, power}``, its ``additional_cost: [kill a friendly unit]``, and an ability's or
triggered ability's ``cost`` are read by :mod:`kb.timing.models.riftbound.resources` (an
ability's ``cost: {exhaust: true}`` exhausts its own permanent, 414.5);
``keywords: [Deflect]`` is Deflect 1 (809.1.b.3). The combat keywords: ``Tank`` and ``Backline``
order the combat damage a unit's side is assigned (815.1.b, 826.3), ``Assault N`` and ``Shield N``
(``N`` omitted is 1) give +N Might while the unit is an attacker or a defender (807.1.c, 814.1.c),
and ``Accelerate`` is an optional additional cost of [1][C] after which the unit enters ready
(805.1.a; :mod:`kb.timing.models.riftbound.combat`, :mod:`kb.timing.models.riftbound.costs`).
``Ganking`` lets a unit's Standard Move go from a battlefield to another (810.1.b, 144.4.c.1);
``Temporary`` on a unit or gear is "At the start of this permanent's controller's Beginning Phase,
before scoring, kill this" (816.1.b: :mod:`kb.timing.models.riftbound.beginning`); a spell's
``repeat: COST`` is "Repeat [Cost]", an optional additional cost after which its instructions are
executed once more as it resolves (820.1.d); a spell's ``flow: COST`` is "Flow [Cost]": it may be
played from its owner's trash for that cost (a play's ``from: trash``), and is banished instead of
going anywhere else as it leaves the chain (829.1.b); a gear's ``equip: COST`` is "Equip [Cost]",
the activated ability ``CARD's Equip`` attaching it to a unit its controller controls, whose Might
its ``might_bonus: N`` modulates while attached (818, 718.4: :mod:`kb.timing.models.riftbound.attaching`);
``Quick-Draw`` on such a gear gives it Reaction and the play effect ``{attach: chosen}``, "attach
it to a unit you control" (819), and ``Weaponmaster`` on a unit the play effect
``{attach_equipment: chosen}``, "you may choose an Equipment you control; pay its Equip cost less
[A] to attach it to me" (821: :mod:`kb.timing.models.riftbound.play_attaching`); a gear's
``equipment: true`` is the Equipment tag without Equip (150.1), which Weaponmaster may choose but
cannot pay for (821.1.c.1, 821.1.c.4). ``Hunt N`` on a unit (``N`` omitted is 1) is "When I
Conquer or Hold, my controller gains N XP" (823.1.c.1), a unit's ``level: [{xp: N, might: M,
keywords: [Ganking]}]`` is "[Level N] > I have +M [M] and Ganking" and a trigger's ``level: N``
a "[Level N] >" triggered ability, each active while its controller has N XP (824.1.c,
:mod:`kb.timing.models.riftbound.xp`). A unit's or gear's
``empower: COST`` is "Empower [Cost]", the activated ability ``CARD's Empower``, "[Cost]: Empower
this. Play only if not Empowered." (827.1.c.1), whose instruction ``{empower: self}`` any ability
of a permanent may have (441.3.a); a trigger ``on: empowered`` is "when I become Empowered"
(827.2.a), and one with ``empowered: true`` an "[Empowered] >" Dependent Ability, active while its
permanent is Empowered (828.1.c). Core Rules 1.4's other keywords (:data:`NOT_MODELLED`)
are refused saying why: they do not bear on timing. A unit's ``deathknell: [instructions]`` is its
Deathknell ("When I die, …", 808.1.c): a trigger ``on: leave``. A card of ``type: battlefield``
names a battlefield of the scenario; its triggers (``on: conquer`` or ``on: hold``) are "when you
conquer (hold) here" abilities, controlled by the player who scores it, and its ``here: {might: N}``
is "Units here have +N [M]" (:mod:`kb.timing.models.riftbound.battlefields`). A trigger's ``each_turn: N``
makes it "once (N times) each turn" (383.3.e: :mod:`kb.timing.models.riftbound.turn_limits`). A unit's or gear's
``replacement: {would_die: self|friendly|friendly-deathknell, kill_this: BOOL}`` is a replacement
effect on deaths ("If I would die" / "If a friendly unit [with Deathknell] would die", and with
``kill_this`` "kill this instead"):
the unit is healed, exhausted and recalled instead (369.1, Zhonya's Hourglass; what a
replacement does in the timing is in :mod:`kb.timing.models.riftbound.replacements`); with
``each_turn: N`` it is "once (N times) each turn" (371.1), with ``may: true`` its controller
chooses whether to apply it to each death it could replace (371.2); with ``zone: trash`` it is
active while the card is in its owner's trash, for units its owner controls ("if a unit you
control would die, you may banish me from your trash instead", 366.1, 370.3; ``banish_this``:
the card is banished from the trash as it applies), and only if it was there before the death
(a card dying with the unit cannot replace its death). A unit's ``enters: {ready: true}``
("I enter ready", 369.3) and a unit's or gear's ``enters: {as: [draw|add|discard…]}`` ("As I
enter, …", 370.1.b.1) are replacement effects on how it enters the board.
``target`` means the target chosen when the card is played. A card's ``targets: N`` ("each of up
to N units", 355.13) chooses several units as it is played, and its instructions name them
``targets`` (``{deal: {unit: targets, amount: 6}}``, ``{kill: targets}``): as it resolves, the
instruction acts on those still legal and is not executed when none is (359.3.e.7, 359.3.e.8).
Keywords are read in any case (``reaction`` is Reaction). What each instruction does when
it resolves is in :mod:`kb.timing.models.riftbound.effects`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kb.timing.engine import FormatError
from kb.timing.fields import a_list as _list, a_mapping as _map, only_keys as _only
from kb.timing.fields import nearest, nearest_instruction, text as _str, whole_number as _int
from kb.timing.models.riftbound.resources import (FREE, Cost, ability_cost_json, cost_json, parse_ability_cost,
                                                  parse_additional, parse_cost)

KEYWORDS = frozenset({"Action", "Reaction", "Hidden", "Ambush", "Legion", "Deathknell", "Deflect",
                      "Tank", "Backline", "Assault", "Shield", "Accelerate", "Ganking", "Temporary", "Repeat",
                      "Flow", "Equip", "Quick-Draw", "Weaponmaster", "Empower", "Hunt", "Level"})
# Keywords written with a value, "Assault 2" ("Assault [X]"; X omitted is 1: 807.1.b.3, 814.1.b.3,
# 823.1.c.2).
VALUED = ("Assault", "Shield", "Hunt")
# Core Rules 1.4's other keywords (804–829): refused by name, saying why, rather than as unknown.
NOT_TIMING = "does not bear on the timing model's questions"
NOT_MODELLED: dict[str, tuple[str, str]] = {
    "Vision": (NOT_TIMING, "817: a play effect that predicts; write its effect as triggers: [{on: play, …}]"),
    "Unique": (NOT_TIMING, "825: a deck-building constraint"),
    "Empowered": (NOT_TIMING, "828: \"[Empowered] > [Text]\" is a Dependent Ability active while Empowered; write "
                              "a triggered one as a trigger with empowered: true"),
}
CARD_TYPES = ("spell", "unit", "gear", "battlefield")
TRIGGER_EVENTS = ("play", "attack", "defend", "conquer", "hold", "leave", "move", "empowered")
BATTLEFIELD_EVENTS = ("conquer", "hold")  # a battlefield's own abilities: "when you conquer (hold) here"
INSTRUCTIONS = ("draw", "counter", "kill", "move", "create", "play", "add", "discard", "deal", "give", "ready",
                "save", "prevent", "gain_xp", "spend_xp")
# What a passive Level ability may give its card (824.1.b.1, "this card gains '[Text]'"): Might, and
# the keywords the model reads of a unit in play through its Level abilities.
LEVEL_KEYWORDS = ("Ganking",)
# whose death a card's replacement effect replaces: its own, a friendly unit's, or a friendly
# unit's with Deathknell (whether a permanent has Deathknell is a characteristic, 808.3)
DYING = ("self", "friendly", "friendly-deathknell")
# where a replacement effect on deaths is active: a permanent's on the board (365.1), a card's
# in its owner's trash (366.1, 370.3)
ZONES = ("board", "trash")

Effect = tuple[Any, ...]  # ("draw", 1), ("counter", "target"), ("create", name, effects, times)…
# Instructions whose first argument is a unit the item chooses (355.5, 355.10).
UNIT_CHOICES = ("kill", "move", "deal", "give", "ready", "save", "prevent")
# The instructions that may act on each of an item's several targets, and the word naming them.
SEVERAL = ("kill", "move", "deal", "give", "ready", "save", "prevent")
SEVERAL_TARGETS = "targets"
# A play effect's choice of what it attaches, made as it is finalized (402.2): the unit a gear
# attaches to (Quick-Draw, 819.1.d), or the Equipment attached to a unit (Weaponmaster, 821.1.c).
CHOSEN = "chosen"
ATTACHING = ("attach", "attach_equipment")


@dataclass(frozen=True)
class Trigger:
    """A triggered ability printed on a permanent: ``on`` an event, optional ("you may")."""

    on: str
    name: str
    effects: tuple[Effect, ...] = ()
    optional: bool = False
    what: str = "self"  # for on: play — self (a Play Effect), or spell|unit|gear|card you play
    cost: Cost = FREE  # a cost within its instruction ("pay [1] to draw 2", 403.1.b.1)
    each_turn: int | None = None  # "once (N times) each turn": performed that many times a turn at most (383.3.e.1)
    keyword: str | None = None  # the keyword it is short for (Quick-Draw, Weaponmaster): not written back
    # "[Empowered] > [Text]": a Dependent Ability, active only while its permanent is Empowered (828.1.c)
    empowered: bool = False
    # "[Level N] > [Text]": a Dependent Ability, active only while its controller has N or more XP (824.1.b.1)
    level: int | None = None


@dataclass(frozen=True)
class LevelAbility:
    """A passive "[Level N] > I have +M [M] and [Keywords]": while its controller has N or more
    XP, the card has that Might and those keywords (824.1.b.1, 727.1.c.2)."""

    xp: int
    might: int = 0
    keywords: frozenset[str] = frozenset()

    @property
    def text(self) -> str:
        """What it gives, in the card's words ("+1 [M] and Ganking")."""
        parts = ([f"{self.might:+d} [M]"] if self.might else []) + sorted(self.keywords)
        return " and ".join(parts)


@dataclass(frozen=True)
class Ability:
    """An activated ability of a permanent; ``add`` marks an ability that Adds resources."""

    name: str
    keywords: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    add: bool = False
    cost: Cost = FREE  # the cost before the ":" (403.1.a)
    exhaust: bool = False  # the cost exhausts the ability's own permanent ([E], 414.5)
    # Equip: "[Cost]: Attach this gear to a unit you control" (818.1.c.2); its choice is a target (818.1.b.1)
    attach: bool = False
    # Empower: "[Cost]: Empower this. Play only if not Empowered." (827.1.c.1); its source is no target (827.1.b.1)
    empower: bool = False
    # "[Level N] > [Cost]: …": activated only while its controller has N or more XP (727.1.c.3, 824.1.c)
    level: int | None = None

    @property
    def adds(self) -> Cost:
        """What its Add instructions put in the Rune Pool (429.1)."""
        total = FREE
        for e in self.effects:
            if e[0] == "add":
                total = total + (e[1] if isinstance(e[1], Cost) else Cost(e[1]))
        return total


@dataclass(frozen=True)
class Replacement:
    """A replacement effect on deaths (367): "If I (a friendly unit) would die, [kill this and]
    heal it, exhaust it and recall it instead"."""

    would_die: str  # self | friendly | friendly-deathknell (489.8.e: a teammate's units are friendly too)
    kill_this: bool = False  # "kill this instead": the source dies in the unit's place
    each_turn: int | None = None  # "once (N times) each turn": applied to that many events a turn (371.1)
    optional: bool = False  # "you may …": its controller chooses, event by event, whether to apply it (371.2)
    # Where it is active (366.1, 370.3): on the board (a permanent's, 365.1), or in its owner's
    # trash ("if a unit you control would die, banish me from your trash instead").
    zone: str = "board"
    banish_this: bool = False  # "banish me from your trash instead": its source is banished as it applies


@dataclass(frozen=True)
class Card:
    name: str
    type: str
    keywords: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    legion: tuple[Effect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    abilities: tuple[Ability, ...] = ()
    might: int = 1
    cost: Cost = FREE  # Energy and Power (356)
    additional: tuple[str, ...] = ()  # additional costs in the card's words (356.2.a.1)
    replacement: Replacement | None = None  # a replacement effect on deaths (367)
    # Replacement effects on how it enters the board (369.3): "I enter ready", and "As I enter, …"
    # (the event replaced by the same event plus those instructions, 370.1.b.1).
    enters_ready: bool = False
    as_enters: tuple[Effect, ...] = ()
    targets: int = 0  # "each of up to N units": how many units it may choose as targets (355.13), 0 for one target
    here_might: int = 0  # a battlefield's "Units here have +N [M]": Might of each unit there (652.2.c's example)
    assault: int = 0  # Assault X: +X Might while an attacker (807.1.c)
    shield: int = 0  # Shield X: +X Might while a defender (814.1.c)
    # Repeat [Cost]: an optional additional cost; paid, the spell's instructions are executed once
    # more as it resolves (820.1.d); None without the keyword
    repeat: Cost | None = None
    # Flow [Cost]: "You may play this from your trash for its flow cost. Then banish it." (829.1.b);
    # None without the keyword
    flow: Cost | None = None
    # Equip [Cost]: an activated ability attaching this gear to a unit its controller controls
    # (818.1.c.2); None without the keyword. Its Might Bonus modulates that unit's Might while
    # attached (718.4, 137.3.a).
    equip: Cost | None = None
    might_bonus: int = 0
    # Empower [Cost]: the resources of an activated ability Empowering this permanent (827.1.b,
    # 827.1.c.1; the ability itself is among ``abilities``); None without the keyword
    empower: Cost | None = None
    hunt: int = 0  # Hunt X: "When I Conquer or Hold, my controller gains X XP" (823.1.c.1); 0 without it
    levels: tuple[LevelAbility, ...] = ()  # its passive "[Level N] > …" abilities (824.1)
    # The Equipment tag (150.1): gear with Equip has it (818.1.a); one without may be chosen by
    # Weaponmaster all the same (821.1.c.1)
    equipment: bool = False

    def level_thresholds(self) -> tuple[int, ...]:
        """The XP each of its Level abilities needs, passive and triggered, each once, lowest first."""
        return tuple(sorted({lv.xp for lv in self.levels} | {tr.level for tr in self.triggers if tr.level is not None}
                            | {a.level for a in self.abilities if a.level is not None}))

    @property
    def deflect(self) -> int:
        """The Deflect value (809.1.b.3: 1 when the keyword is printed without one)."""
        return 1 if "Deflect" in self.keywords else 0


def parse_effects(data: Any, field: str) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for i, raw in enumerate(_list(data, field)):
        where = f"{field}[{i}]"
        if not isinstance(raw, dict) or len(raw) != 1:
            raise FormatError(f"an instruction is a mapping with one key ({', '.join(INSTRUCTIONS)})", where)
        (kind, arg), = raw.items()
        if kind in ("draw", "discard"):
            out.append((kind, _int(arg, f"{where}.{kind}", 0, 20)))
        elif kind in ("gain_xp", "spend_xp"):  # "gain N XP" (730.1), "spend N XP" (730.2): its controller's
            out.append((kind, _int(arg, f"{where}.{kind}", 1, 99)))
        elif kind == "add":  # "Add [2]" is 2 Energy (429.5)
            out.append((kind, parse_cost(arg, f"{where}.add")))
        elif kind in ("deal", "give", "prevent"):
            m = _map(arg, f"{where}.{kind}")
            amount = "might" if kind == "give" else "amount"
            _only(m, ("unit", amount), f"{where}.{kind}")
            n = m.get(amount)
            if isinstance(n, bool) or not isinstance(n, int) or not -20 <= n <= 20 or (kind != "give" and n < 1):
                raise FormatError(f"{amount} is a whole number ({'-20 to 20' if kind == 'give' else '1 to 20'})",
                                  f"{where}.{kind}.{amount}")
            out.append((kind, _str(m.get("unit"), f"{where}.{kind}.unit"), n))
        elif kind == "kill" and isinstance(arg, list):  # "kill A and B": one kill, simultaneous deaths (370.1.a.2)
            names = tuple(_str(u, f"{where}.kill[{j}]") for j, u in enumerate(arg))
            if not 2 <= len(names) <= 4 or len(set(names)) != len(names) or "target" in names:
                raise FormatError("kill: [units] names 2 to 4 different units (an item has one target: kill: target "
                                  "kills it alone)", f"{where}.kill")
            out.append(("kill-together", names))
        elif kind in ("counter", "kill", "ready", "save"):
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
        elif kind == "empower":  # an Empower ability's own instruction: Empower this (827.1.c.1)
            if arg != "self":
                raise FormatError("empower is an Empower ability's instruction, empowering its source: "
                                  "empower: self (827.1.b.1); write a card's empower: COST", f"{where}.empower")
            out.append(("empower", arg))
        elif kind == "attach":  # an Equip ability's own instruction: attach this gear to its target (818.1.c.2)
            if arg not in ("target", CHOSEN):  # chosen: "When you play this, attach it to a unit you control" (819.1.d)
                raise FormatError("attach is an Equip ability's instruction (attach: target, 818.1.b.1) or a gear's "
                                  "play effect choosing a unit it controls (attach: chosen, 819.1.d)",
                                  f"{where}.attach")
            out.append(("attach", arg))
        elif kind == "attach_equipment":  # Weaponmaster's: an Equipment chosen, attached to this unit (821.1.c)
            if arg != CHOSEN:
                raise FormatError("attach_equipment is a unit's play effect choosing an Equipment its controller "
                                  "controls: attach_equipment: chosen (821.1.c)", f"{where}.attach_equipment")
            out.append(("attach_equipment", arg))
        elif kind == "play":
            if isinstance(arg, dict):
                _only(arg, ("card", "to"), f"{where}.play")
                out.append(("play", _str(arg.get("card"), f"{where}.play.card"),
                            _str(arg["to"], f"{where}.play.to") if arg.get("to") is not None else None))
            else:
                out.append(("play", _str(arg, f"{where}.play"), None))
        else:
            raise FormatError(f"unknown instruction {kind!r}{nearest_instruction(kind, INSTRUCTIONS)} "
                              f"(expected one of: {', '.join(INSTRUCTIONS)})", where)
    return tuple(out)


_KEYWORD_NAMES = {k.casefold(): k for k in KEYWORDS}
_REFUSED_NAMES = {k.casefold(): k for k in NOT_MODELLED}


def known_keywords() -> str:
    """The keywords the model knows, as its refusals and the README list them."""
    return ", ".join(sorted(KEYWORDS))


def keyword_value(k: str, where: str) -> tuple[str, int]:
    """One keyword as the rules spell it, whatever the case (``reaction``, ``REACTION``), with its
    value (``Assault 2``; 1 when omitted, and for a keyword without one). A keyword of Core Rules
    1.4 the model does not play is refused saying why; an unknown one with the nearest known."""
    name, _, value = k.strip().partition(" ")
    known = _KEYWORD_NAMES.get(name.casefold())
    if known is None:
        refused = _REFUSED_NAMES.get(k.strip().casefold()) or _REFUSED_NAMES.get(name.casefold())
        if refused is not None:
            why, rule = NOT_MODELLED[refused]
            raise FormatError(f"keyword {refused!r} {why} ({rule}) (the model knows: {known_keywords()})", where)
        raise FormatError(f"unknown keyword {k!r}{nearest(k, KEYWORDS)} (the model knows: {known_keywords()})",
                          where)
    value = value.strip()
    if not value:
        return known, 1
    if known not in VALUED:
        raise FormatError(f"{known} takes no value ({k!r}); only {' and '.join(VALUED)} do (\"Assault 2\")", where)
    if not value.isdigit() or not 1 <= int(value) <= 20:
        raise FormatError(f"{known}'s value is a whole number from 1 to 20 ({k!r})", where)
    return known, int(value)


def keyword_values(data: Any, field: str) -> dict[str, int]:
    """Keywords and their values (``[Assault 2, tank]`` → Assault 2, Tank 1)."""
    return dict(keyword_value(_str(k, f"{field}[{i}]"), f"{field}[{i}]") for i, k in enumerate(_list(data, field)))


def keywords(data: Any, field: str) -> frozenset[str]:
    """Keywords as the rules spell them, whatever case the input uses (``reaction``, ``REACTION``)."""
    return frozenset(keyword_values(data, field))


def parse_cards(data: Any, field: str = "cards") -> dict[str, Card]:
    """A card pool from a scenario's ``cards`` (or a state's ``cards``)."""
    cards: dict[str, Card] = {}
    for name, raw in _map(data, field).items():
        name = _str(name, field)
        where = f"{field}.{name}"
        raw = _map(raw, where)
        _only(raw, ("type", "keywords", "effects", "legion", "triggers", "abilities", "might", "deathknell", "cost",
                    "additional_cost", "replacement", "enters", "targets", "here", "repeat", "flow", "equip", "empower",
                    "might_bonus", "level", "equipment"), where)
        ctype = raw.get("type")
        if ctype not in CARD_TYPES:
            raise FormatError(f"type must be one of: {', '.join(CARD_TYPES)}", f"{where}.type")
        triggers = []
        for i, tr in enumerate(_list(raw.get("triggers"), f"{where}.triggers")):
            tw = f"{where}.triggers[{i}]"
            # YAML 1.1 reads an unquoted ``on:`` key as the boolean true.
            tr = {("on" if k is True else k): v for k, v in _map(tr, tw).items()}
            _only(tr, ("on", "name", "effects", "optional", "what", "cost", "each_turn", "empowered", "level"), tw)
            on = tr.get("on")
            if on not in TRIGGER_EVENTS:
                raise FormatError(f"on must be one of: {', '.join(TRIGGER_EVENTS)}", f"{tw}.on")
            what = tr.get("what", "self")
            if what not in ("self", "spell", "unit", "gear", "card") or (what != "self" and on != "play"):
                raise FormatError("what is self, or (for on: play) spell|unit|gear|card", f"{tw}.what")
            triggers.append(Trigger(on, _str(tr.get("name", f"{name}'s {on} trigger"), f"{tw}.name"),
                                    parse_effects(tr.get("effects"), f"{tw}.effects"),
                                    bool(tr.get("optional", False)), what, parse_cost(tr.get("cost"), f"{tw}.cost"),
                                    None if tr.get("each_turn") is None else _int(tr["each_turn"], f"{tw}.each_turn",
                                                                                  1, 9),
                                    empowered=_empowered_dependent(tr.get("empowered", False), ctype, f"{tw}.empowered"),
                                    level=_level_threshold(tr.get("level"), ctype, f"{tw}.level")))
        valued = keyword_values(raw.get("keywords"), f"{where}.keywords")
        card_keywords = frozenset(valued)
        if {"Tank", "Backline"} <= card_keywords:  # 815.1.b and 826.3 would put it both first and last
            raise FormatError("a unit with both Tank and Backline: the rules do not say where it is assigned "
                              "damage (815.1.b, 826.3), so the model does not take it", f"{where}.keywords")
        if card_keywords & {"Tank", "Backline", "Assault", "Shield", "Accelerate"} and ctype != "unit":
            raise FormatError("Tank, Backline, Assault, Shield and Accelerate are on units (815.1.a, 826.2, 807.1.a, "
                              "814.1.a, 805.1)", f"{where}.keywords")
        if "Ganking" in card_keywords and ctype != "unit":
            raise FormatError("Ganking is on units (810.1.a)", f"{where}.keywords")
        if "Temporary" in card_keywords and ctype not in ("unit", "gear"):
            raise FormatError("Temporary is on permanents, units and gear (816.1.a)", f"{where}.keywords")
        repeat = _repeat(raw, ctype, card_keywords, where)
        if repeat is not None:
            card_keywords |= {"Repeat"}
        flow = _flow(raw, ctype, card_keywords, where)
        if flow is not None:
            card_keywords |= {"Flow"}
        hunt = valued.get("Hunt", 0)
        if hunt:  # "When I Conquer or Hold, my controller gains X XP" (823.1.c.1): a Conquer and a Hold effect
            if ctype != "unit":
                raise FormatError("Hunt is present on units (823.1.a)", f"{where}.keywords")
            triggers += [Trigger(on, f"{name}'s Hunt", (("gain_xp", hunt),), keyword="Hunt") for on in ("conquer", "hold")]
        levels = _levels(raw.get("level"), ctype, f"{where}.level")
        if "Level" in card_keywords:
            raise FormatError("Level is written with its XP and text: level: [{xp: N, might: M, keywords: [...]}], "
                              "or a trigger's level: N (\"[Level N] > [Text]\", 824.1.a)", f"{where}.keywords")
        if levels or any(tr.level is not None for tr in triggers):
            card_keywords |= {"Level"}
        if raw.get("deathknell") is not None:  # "[Deathknell][>] Effect": "When I die, Effect" (808.1.c)
            triggers.append(Trigger("leave", f"{name}'s Deathknell",
                                    parse_effects(raw["deathknell"], f"{where}.deathknell")))
            card_keywords |= {"Deathknell"}
        if ctype == "battlefield" and any(tr.on not in BATTLEFIELD_EVENTS for tr in triggers):
            raise FormatError(f"a battlefield's abilities trigger on: {', '.join(BATTLEFIELD_EVENTS)} "
                              "(when you conquer or hold here)", f"{where}.triggers")
        abilities = []
        for i, ab in enumerate(_list(raw.get("abilities"), f"{where}.abilities")):
            aw = f"{where}.abilities[{i}]"
            ab = _map(ab, aw)
            _only(ab, ("name", "keywords", "effects", "add", "cost", "level"), aw)
            cost, exhaust = parse_ability_cost(ab.get("cost"), f"{aw}.cost")
            abilities.append(Ability(_str(ab.get("name"), f"{aw}.name"), keywords(ab.get("keywords"), f"{aw}.keywords"),
                                     parse_effects(ab.get("effects"), f"{aw}.effects"), bool(ab.get("add", False)),
                                     cost, exhaust, level=_level_threshold(ab.get("level"), ctype, f"{aw}.level")))
        if any(a.level is not None for a in abilities):
            card_keywords |= {"Level"}
        equip, bonus = _equip(raw, ctype, card_keywords, where)
        if equip is not None:
            card_keywords |= {"Equip"}
            abilities.append(Ability(equip_ability(name), effects=(("attach", "target"),), cost=equip, attach=True))
        empower = _empower(name, raw, ctype, card_keywords, where)
        if empower is not None:
            card_keywords |= {"Empower"}
            abilities.append(empower)
        card_keywords, added = _attaching_keywords(name, ctype, card_keywords, equip, where)
        triggers += added
        _attaching_on_play(ctype, triggers, where)
        if ctype == "spell" and (triggers or abilities):
            raise FormatError("a spell has no triggers or abilities of its own (put them on a unit or gear)", where)
        own = parse_effects(raw.get("effects"), f"{where}.effects")
        legion = parse_effects(raw.get("legion"), f"{where}.legion")
        cards[name] = Card(name, ctype, card_keywords, own, legion, tuple(triggers), tuple(abilities),
                           _int(raw.get("might", 1), f"{where}.might", 0, 99),
                           parse_cost(raw.get("cost"), f"{where}.cost"),
                           parse_additional(raw.get("additional_cost"), f"{where}.additional_cost"),
                           _replacement(raw.get("replacement"), ctype, f"{where}.replacement"),
                           *_enters(raw.get("enters"), ctype, f"{where}.enters"),
                           _several(raw.get("targets"), ctype, own, (legion, *(tr.effects for tr in triggers),
                                                                     *(a.effects for a in abilities)), where),
                           _here(raw.get("here"), ctype, f"{where}.here"),
                           valued.get("Assault", 0), valued.get("Shield", 0), repeat, flow, equip, bonus,
                           empower.cost if empower is not None else None, hunt, levels,
                           _equipment(raw, ctype, where))
    for name, card in cards.items():
        _check_refs(cards, card.effects + card.legion, f"{field}.{name}")
        for tr in card.triggers:
            _check_refs(cards, tr.effects, f"{field}.{name}")
    return cards


def _repeat(raw: dict[str, Any], ctype: str, card_keywords: frozenset[str], where: str) -> Cost | None:
    """A card's ``repeat: COST`` ("Repeat [Cost]", 820.1.c): the optional additional cost that
    executes its instructions once more (820.1.d). The keyword is written with its cost, so
    ``keywords: [Repeat]`` alone says which cost is missing; the model has it on spells (820.1.a
    also puts it on abilities, which it does not take yet)."""
    cost = _keyword_cost(raw, "Repeat", "820.1.c", "Repeat is on spells and abilities (820.1.a); the model "
                         "takes it on spells", ctype, card_keywords, where)
    if cost is not None and not cost:
        raise FormatError("Repeat's cost is at least one Energy or Power (a free repeat is no cost)",
                          f"{where}.repeat")
    return cost


def _flow(raw: dict[str, Any], ctype: str, card_keywords: frozenset[str], where: str) -> Cost | None:
    """A spell's ``flow: COST`` ("Flow [Cost]", 829.1.c): it may be played from its owner's trash
    for that cost instead of its own (829.1.c.1), and is banished as it leaves the chain (829.1.b.1)."""
    return _keyword_cost(raw, "Flow", "829.1.c", "Flow is on spells (829.1.a)", ctype, card_keywords, where)


def _keyword_cost(raw: dict[str, Any], keyword: str, rule: str, on_spells: str, ctype: str,
                  card_keywords: frozenset[str], where: str) -> Cost | None:
    """A spell keyword written with its cost (``repeat: COST``, "Repeat [Cost]" at ``rule``):
    the cost, or None without it; the keyword listed alone, or on a card not a spell, is
    refused (``on_spells`` says where the keyword goes)."""
    key = keyword.lower()
    if raw.get(key) is None:
        if keyword in card_keywords:
            raise FormatError(f"{keyword} is written with its cost as {key}: COST (\"{keyword} [Cost]\", {rule}), "
                              f"e.g. {key}: 2 or {key}: {{energy: 1, power: 1}}", f"{where}.keywords")
        return None
    if ctype != "spell":
        raise FormatError(on_spells, f"{where}.{key}")
    return parse_cost(raw[key], f"{where}.{key}")


def equip_ability(card: str) -> str:
    """The name of a card's Equip ability, as ``timing next`` and a scenario's ``activate`` say it."""
    return f"{card}'s Equip"


def empower_ability(card: str) -> str:
    """The name of a card's Empower ability, as ``timing next`` and a scenario's ``activate`` say it."""
    return f"{card}'s Empower"


def _empowered_dependent(value: Any, ctype: str, field: str) -> bool:
    """A trigger's ``empowered: true``: "[Empowered] > [Text]", a Dependent Ability of a
    permanent, active only while that permanent is Empowered (828.1.b.1, 828.1.c)."""
    if not isinstance(value, bool):
        raise FormatError("empowered is true (an [Empowered] > ability, active while its permanent is Empowered) "
                          "or false", field)
    if value and ctype not in ("unit", "gear"):
        raise FormatError("an [Empowered] ability is a permanent's: the Empowered status is for Game Objects on "
                          "the board (441.2, 828.1.c)", field)
    return value


def _empower(name: str, raw: dict[str, Any], ctype: str, card_keywords: frozenset[str],
             where: str) -> Ability | None:
    """A permanent's ``empower: COST`` ("Empower [Cost]", 827.1.c) as its activated ability
    "[Cost]: Empower this. Play only if not Empowered." (827.1.c.1). The cost may be ``0``, and
    may exhaust the permanent besides its resources (``{energy: 1, exhaust: true}``: resource and
    non-resource costs, 827.1.c.2). The keyword without the cost, or the cost on a spell or a
    battlefield, is refused."""
    if raw.get("empower") is None:
        if "Empower" in card_keywords:
            raise FormatError("Empower is written with its cost: empower: COST (\"Empower [Cost]\", 827.1.c)",
                              f"{where}.keywords")
        return None
    if ctype not in ("unit", "gear"):
        raise FormatError("Empower is present on permanents (827.1.a): a unit or a gear", f"{where}.empower")
    cost, exhaust = parse_ability_cost(raw["empower"], f"{where}.empower")
    return Ability(empower_ability(name), effects=(("empower", "self"),), cost=cost,
                   exhaust=exhaust, empower=True)


def _level_threshold(raw: Any, ctype: str, field: str) -> int | None:
    """A triggered ability's ``level: N``: "[Level N] > When …", active only while its controller
    has N or more XP (824.1.b.1, 727.1.c.1); on a unit's or gear's abilities (the card's controller)."""
    if raw is None:
        return None
    if ctype not in ("unit", "gear"):
        raise FormatError("a Level ability is a permanent's: its controller's XP makes it active (824.1.c)", field)
    return _int(raw, field, 1, 99)


def _levels(raw: Any, ctype: str, field: str) -> tuple[LevelAbility, ...]:
    """A unit's passive Level abilities, ``level: [{xp: N, might: M, keywords: [Ganking]}]``:
    "[Level N] > I have +M [M] and Ganking" (824.1.b.1)."""
    out = []
    for i, item in enumerate(_list(raw, field)):
        at = f"{field}[{i}]"
        lv = _map(item, at)
        _only(lv, ("xp", "might", "keywords"), at)
        if ctype != "unit":
            raise FormatError("a passive Level ability giving Might or keywords is a unit's (824.1.b.1); write a "
                              "gear's triggered one with a trigger's level: N", at)
        if lv.get("xp") is None:
            raise FormatError("a Level ability says how much XP makes it active: xp: N (\"[Level N]\", 824.1.a)",
                              f"{at}.xp")
        might = lv.get("might", 0)
        if isinstance(might, bool) or not isinstance(might, int) or not -20 <= might <= 20:
            raise FormatError("might is a whole number from -20 to 20 (\"I have +M [M]\")", f"{at}.might")
        granted = keywords(lv.get("keywords"), f"{at}.keywords")
        other = sorted(granted - set(LEVEL_KEYWORDS))
        if other:
            raise FormatError(f"a Level ability gives the model's units {', '.join(LEVEL_KEYWORDS)} (and Might); "
                              f"not {', '.join(other)}", f"{at}.keywords")
        if not might and not granted:
            raise FormatError("a passive Level ability gives Might or keywords (a triggered one is a trigger's "
                              "level: N)", at)
        out.append(LevelAbility(_int(lv["xp"], f"{at}.xp", 1, 99), might, granted))
    return tuple(out)


def _equipment(raw: dict[str, Any], ctype: str, where: str) -> bool:
    """A gear's ``equipment: true``: the Equipment tag (150.1) on a gear without Equip, which a
    Weaponmaster may choose all the same (821.1.c.1). Gear with ``equip: COST`` has the tag
    anyway (818.1.a)."""
    tag = raw.get("equipment", False)
    if not isinstance(tag, bool):
        raise FormatError("equipment is true (the gear has the Equipment tag, 150.1) or false", f"{where}.equipment")
    if tag and ctype != "gear":
        raise FormatError("gear can have the Equipment tag (150): not a card of another type", f"{where}.equipment")
    return tag or raw.get("equip") is not None


def _equip(raw: dict[str, Any], ctype: str, card_keywords: frozenset[str], where: str) -> tuple[Cost | None, int]:
    """A gear's ``equip: COST`` ("Equip [Cost]", 818.1.c; the cost may be ``0``) and its
    ``might_bonus: N`` (the Might Bonus of an Equipment, 150.2, 718.4; an Equipment without
    Equip may have one too). The keyword without the cost, or the cost on anything but gear, is
    refused."""
    if raw.get("equip") is None:
        if "Equip" in card_keywords:
            raise FormatError("Equip is written with its cost: equip: COST (\"Equip [Cost]\", 818.1.c)",
                              f"{where}.keywords")
        if raw.get("might_bonus") is not None and raw.get("equipment") is not True:
            raise FormatError("a Might Bonus is an Equipment's (150.2), applying while attached (718.4): only gear "
                              "with equip: COST has one, or an Equipment without Equip (equipment: true)",
                              f"{where}.might_bonus")
        return None, _int(raw.get("might_bonus", 0), f"{where}.might_bonus", 0, 99)
    if ctype != "gear":
        raise FormatError("Equip is present on gear (818.1.a)", f"{where}.equip")
    return (parse_cost(raw["equip"], f"{where}.equip"),
            _int(raw.get("might_bonus", 0), f"{where}.might_bonus", 0, 99))


def _attaching_keywords(name: str, ctype: str, card_keywords: frozenset[str], equip: Cost | None,
                        where: str) -> tuple[frozenset[str], list[Trigger]]:
    """Quick-Draw on a gear with Equip: Reaction, and "When you play this, attach it to a Unit you
    control" (819.1.a, 819.1.b, 819.1.d); Weaponmaster on a unit: "When you play me, you may choose
    a card you control with the Equipment tag … Pay the cost of its Equip ability, reduced by [A],
    to attach it to this unit" (821.1.a, 821.1.c). Each is its card's play effect (383.4.a)."""
    added: list[Trigger] = []
    if "Quick-Draw" in card_keywords:
        if ctype != "gear" or equip is None:
            raise FormatError("Quick-Draw is present on gear with Equip (819.1.a): write the gear's equip: COST",
                              f"{where}.keywords")
        card_keywords |= {"Reaction"}  # 819.1.b
        added.append(Trigger("play", f"{name}'s Quick-Draw", (("attach", CHOSEN),), keyword="Quick-Draw"))
    if "Weaponmaster" in card_keywords:
        if ctype != "unit":
            raise FormatError("Weaponmaster is present on units (821.1.a)", f"{where}.keywords")
        added.append(Trigger("play", f"{name}'s Weaponmaster", (("attach_equipment", CHOSEN),), optional=True,
                             keyword="Weaponmaster"))
    return card_keywords, added


def attaching_choice(effects: tuple[Effect, ...]) -> str | None:
    """``attach`` (a gear attaching itself to a unit chosen) or ``attach_equipment`` (an
    Equipment chosen, attached to the unit) when ``effects`` attach a card chosen as their
    triggered ability is finalized (819.1.d, 821.1.c); None otherwise."""
    return next((e[0] for e in effects if e[0] in ATTACHING and e[1] == CHOSEN), None)


def _attaching_on_play(ctype: str, triggers: list[Trigger], where: str) -> None:
    """An attaching choice (``attach: chosen``, ``attach_equipment: chosen``) is a triggered
    ability's, made as it is finalized (402.2): on a gear's triggers (it attaches itself) or a
    unit's (it is attached to), and as the ability's only instruction."""
    for i, tr in enumerate(triggers):
        kind = attaching_choice(tr.effects)
        if kind is None:
            continue
        wants = "gear" if kind == "attach" else "unit"
        if ctype != wants or len(tr.effects) != 1:
            raise FormatError(f"{kind}: chosen is the only instruction of a {wants}'s triggered ability "
                              f"({'819.1.d' if wants == 'gear' else '821.1.c'})", f"{where}.triggers[{i}]")


def _names(effects: tuple[Effect, ...], word: str) -> bool:
    """Whether an instruction among ``effects`` (a reflexive trigger's too) names ``word`` as its unit."""
    return any((e[0] in SEVERAL and e[1] == word) or (e[0] == "create" and _names(e[2], word)) for e in effects)


def _several(n: Any, ctype: str, effects: tuple[Effect, ...], elsewhere: tuple[tuple[Effect, ...], ...],
             where: str) -> int:
    """A card's ``targets: N`` ("each of up to N units", 355.13), checked against the instructions
    that name ``targets``: only a card played chooses them, as it is played (355.8); ``elsewhere``
    are its Legion text's and abilities' instructions, which may not."""
    if n is None and not any(e[1:2] == (SEVERAL_TARGETS,) or e[0] == "create" for e in effects) and not any(
            e[1:2] == (SEVERAL_TARGETS,) or e[0] == "create" for x in elsewhere for e in x):
        return 0  # the common case: nothing to check
    if any(_names(e, SEVERAL_TARGETS) for e in elsewhere) or any(e[0] == "create" and _names(e[2], SEVERAL_TARGETS)
                                                                  for e in effects):
        raise FormatError("only a card's own instructions act on its targets (targets: N): its triggered and "
                          "activated abilities, Legion text and reflexive triggers choose one target each", where)
    if n is None:
        if _names(effects, SEVERAL_TARGETS):
            raise FormatError("an instruction names targets: the card says how many units it may choose "
                              "(targets: N, \"each of up to N units\")", f"{where}.targets")
        return 0
    if ctype == "battlefield":
        raise FormatError("a battlefield is not played: it chooses no targets", f"{where}.targets")
    n = _int(n, f"{where}.targets", 1, 4)
    if not _names(effects, SEVERAL_TARGETS):
        raise FormatError("targets: N is how many units the card's instructions act on: one of its effects names "
                          "them (e.g. {kill: targets})", f"{where}.targets")
    if any(e[0] in ("counter", *SEVERAL) and e[1] == "target" for e in effects):
        raise FormatError("a card chooses one target (target) or several (targets: N), not both", f"{where}.effects")
    return n


def _here(data: Any, ctype: str, field: str) -> int:
    """A battlefield's static ability on the units there, ``here: {might: N}`` ("Units here have
    +N [M]", N from -9 to 9, not 0): what it adds to their Might; 0 without one."""
    if data is None:
        return 0
    if ctype != "battlefield":
        raise FormatError("only a battlefield gives the units here Might (here: {might: N})", field)
    m = _map(data, field)
    _only(m, ("might",), field)
    n = m.get("might")
    if isinstance(n, bool) or not isinstance(n, int) or not -9 <= n <= 9 or n == 0:
        raise FormatError("might is a whole number from -9 to 9, not 0 (Units here have +N Might)", f"{field}.might")
    return n


def _replacement(data: Any, ctype: str, field: str) -> Replacement | None:
    """A card's replacement effect on deaths, or None: active on the board (a unit's or gear's,
    365.1) or, with ``zone: trash``, in its owner's trash (366.1, 370.3)."""
    if data is None:
        return None
    raw = _map(data, field)
    _only(raw, ("would_die", "kill_this", "each_turn", "may", "zone", "banish_this"), field)
    zone = raw.get("zone", "board")
    if zone not in ZONES:
        raise FormatError(f"zone is one of: {', '.join(ZONES)} (where the replacement is active)", f"{field}.zone")
    if ctype not in ("unit", "gear") and zone == "board":
        raise FormatError("only a unit or gear has a replacement effect on the board (365.1); a card's in the trash "
                          "says zone: trash", field)
    if ctype == "battlefield":
        raise FormatError("a battlefield is never in a trash: it has no replacement effect on deaths", field)
    whose = raw.get("would_die")
    if whose not in DYING:
        raise FormatError(f"would_die is one of: {', '.join(DYING)}", f"{field}.would_die")
    if whose == "self" and (ctype != "unit" or zone == "trash"):
        raise FormatError("only a unit on the board dies: a gear's or a trash card's replacement is for a friendly "
                          "unit", f"{field}.would_die")
    kill_this = raw.get("kill_this", False)
    if not isinstance(kill_this, bool):
        raise FormatError("kill_this is true or false", f"{field}.kill_this")
    banish_this = raw.get("banish_this", False)
    if not isinstance(banish_this, bool):
        raise FormatError("banish_this is true or false", f"{field}.banish_this")
    if kill_this and zone == "trash":
        raise FormatError("a card in the trash is not killed: it says banish_this (\"banish me from your trash\")",
                          f"{field}.kill_this")
    if banish_this and zone != "trash":
        raise FormatError("banish_this is \"banish me from your trash instead\": it needs zone: trash",
                          f"{field}.banish_this")
    each_turn = raw.get("each_turn")
    if each_turn is not None:
        each_turn = _int(each_turn, f"{field}.each_turn", 1, 9)
    may = raw.get("may", False)
    if not isinstance(may, bool):
        raise FormatError("may is true (\"you may …\": its controller chooses) or false", f"{field}.may")
    return Replacement(whose, kill_this, each_turn, may, zone, banish_this)


# What "As I enter, …" may do (370.1.b.1): instructions that need no target.
AS_ENTERS = ("draw", "add", "discard")


def _enters(data: Any, ctype: str, field: str) -> tuple[bool, tuple[Effect, ...]]:
    """A card's replacement effects on how it enters the board (369.3): ``{ready: true}`` ("I
    enter ready", a unit) and ``{as: [instructions]}`` ("As I enter, …", 370.1.b.1)."""
    if data is None:
        return False, ()
    if ctype not in ("unit", "gear"):
        raise FormatError("only a unit or gear enters the board (369.3)", field)
    raw = _map(data, field)
    _only(raw, ("ready", "as"), field)
    ready = raw.get("ready", False)
    if not isinstance(ready, bool):
        raise FormatError("ready is true (\"I enter ready\") or false", f"{field}.ready")
    if ready and ctype != "unit":
        raise FormatError("gear enters ready anyway: only a unit's \"I enter ready\" replaces how it enters",
                          f"{field}.ready")
    effects = parse_effects(raw.get("as"), f"{field}.as")
    for i, e in enumerate(effects):
        if e[0] not in AS_ENTERS:
            raise FormatError(f"\"as I enter\" instructions are {', '.join(AS_ENTERS)} (no target)",
                              f"{field}.as[{i}]")
    return ready, effects


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
        elif e[0] in ("deal", "give", "prevent"):
            out.append({e[0]: {"unit": e[1], ("might" if e[0] == "give" else "amount"): e[2]}})
        elif e[0] == "add":
            out.append({"add": cost_json(e[1])})
        elif e[0] == "kill-together":
            out.append({"kill": list(e[1])})
        else:
            out.append({e[0]: e[1]})
    return out


def card_json(card: Card) -> dict[str, Any]:
    out: dict[str, Any] = {"type": card.type}
    # written with their costs (repeat: COST…), Level with its abilities (level: […])
    shown = card.keywords - {"Repeat", "Flow", "Equip", "Empower", "Level"}
    if shown:
        values = {"Assault": card.assault, "Shield": card.shield, "Hunt": card.hunt}
        out["keywords"] = sorted(k if values.get(k, 1) == 1 else f"{k} {values[k]}" for k in shown)
    if card.effects:
        out["effects"] = effects_json(card.effects)
    if card.legion:
        out["legion"] = effects_json(card.legion)
    if card.triggers:
        out["triggers"] = [{"on": t.on, "name": t.name, "effects": effects_json(t.effects),
                            **({"optional": True} if t.optional else {}),
                            **({"what": t.what} if t.what != "self" else {}),
                            **({"cost": cost_json(t.cost)} if t.cost else {}),
                            **({"each_turn": t.each_turn} if t.each_turn else {}),
                            **({"empowered": True} if t.empowered else {}),
                            **({"level": t.level} if t.level is not None else {})}
                           for t in card.triggers if t.keyword is None]  # a keyword's own is its keyword
        if not out["triggers"]:
            del out["triggers"]
    if card.abilities:
        out["abilities"] = [{"name": a.name, **({"keywords": sorted(a.keywords)} if a.keywords else {}),
                             **({"effects": effects_json(a.effects)} if a.effects else {}),
                             **({"add": True} if a.add else {}),
                             **({"cost": ability_cost_json(a.cost, a.exhaust)} if a.cost or a.exhaust else {}),
                             **({"level": a.level} if a.level is not None else {})}
                            for a in card.abilities if not a.attach and not a.empower]
        if not out["abilities"]:
            del out["abilities"]
    if card.type == "unit" and card.might != 1:
        out["might"] = card.might
    if card.cost:
        out["cost"] = cost_json(card.cost)
    if card.additional:
        out["additional_cost"] = list(card.additional)
    if card.replacement is not None:
        out["replacement"] = {"would_die": card.replacement.would_die,
                              **({"kill_this": True} if card.replacement.kill_this else {}),
                              **({"each_turn": card.replacement.each_turn} if card.replacement.each_turn else {}),
                              **({"may": True} if card.replacement.optional else {}),
                              **({"zone": card.replacement.zone} if card.replacement.zone != "board" else {}),
                              **({"banish_this": True} if card.replacement.banish_this else {})}
    if card.targets:
        out["targets"] = card.targets
    if card.repeat is not None:
        out["repeat"] = cost_json(card.repeat)
    if card.flow is not None:
        out["flow"] = cost_json(card.flow)
    if card.equip is not None:
        out["equip"] = cost_json(card.equip)
    elif card.equipment:
        out["equipment"] = True
    if card.might_bonus:
        out["might_bonus"] = card.might_bonus
    empower = next((a for a in card.abilities if a.empower), None)
    if empower is not None:
        out["empower"] = ability_cost_json(empower.cost, empower.exhaust)
    if card.levels:
        out["level"] = [{"xp": lv.xp, **({"might": lv.might} if lv.might else {}),
                         **({"keywords": sorted(lv.keywords)} if lv.keywords else {})} for lv in card.levels]
    if card.here_might:
        out["here"] = {"might": card.here_might}
    if card.enters_ready or card.as_enters:
        out["enters"] = {**({"ready": True} if card.enters_ready else {}),
                         **({"as": effects_json(card.as_enters)} if card.as_enters else {})}
    return out
