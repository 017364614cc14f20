"""Card pools as a scenario writes them (``cards``), and back as JSON."""

from __future__ import annotations

import datetime
from typing import Any

from kb.timing.engine import FormatError
from kb.timing.fields import (one_of as _choice, flag as _flag, whole_number as _int, a_list as _list,
                              a_mapping as _map, nearest, nearest_instruction, only_keys as _only, text as _str)
from kb.timing.models.mtg.citations import EDITION_2010, EDITIONS
from kb.timing.models.mtg.keywords import LATER_THAN_2010, keyword, valued
from kb.timing.models.mtg.objects import (Ability, CARD_TYPES, COLORS, PERMANENT_TYPES, Card, Effect, STEPS, Static,
                                          TARGETS, TIMINGS, TRIGGER_EVENTS, Trigger)


INSTRUCTIONS = ("damage", "counter", "counter-unless-pay", "draw", "lose-life", "discard", "sacrifice",
                "destroy", "tap", "extra-turn", "return", "boost", "shuffle-graveyard", "time-counter",
                "cast-suspended", "prevent")
WHO = ("you", "each", "that-player", "target")
EXPECT_KEYS = ("priority", "step", "phase", "active", "turn", "stack", "waiting", "resolving", "payment",
               "life", "graveyard", "battlefield", "tapped", "hand", "pool", "drawn", "lands_played",
               "extra_turns", "lost", "attacking", "blocked", "damage", "static", "power_toughness", "exile",
               "defending", "winner")
ACTIONS = ("cast", "activate", "mana", "play_land", "turn_face_up", "suspend", "foretell", "plot", "pass", "pay",
           "decline", "retract", "choose_defender", "attack", "block", "assign", "order", "choose", "concede")
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


BOOST_TO = ("self", "target", "targets")


def parse_effects(data: Any, field: str, targeted: bool = False) -> tuple[Effect, ...]:
    """A list of instructions; ``targeted``: they belong to a card, ability or object with a
    target, so ``{boost: N}`` is its target's (else its own permanent's)."""
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
        elif kind == "prevent":  # "prevent the next N damage that would be dealt to … this turn" (615.7)
            m = _map(arg, w)
            _only(m, ("to", "amount"), w)
            out.append(("prevent", _str(m.get("to", "target"), f"{w}.to"), _int(m.get("amount"), f"{w}.amount", 1, 99)))
        elif kind in ("counter", "destroy", "tap"):
            if arg != "target" and (arg != "targets" or kind == "counter"):
                raise FormatError("expected target" + (" (or targets: a card's several targets)" if kind != "counter"
                                                       else ""), w)
            out.append((kind, arg))
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
        elif kind == "boost":  # "[its target | this creature] gets +N/+N until end of turn"
            if isinstance(arg, dict):
                _only(arg, ("to", "amount"), w)
                to = _choice(arg.get("to", "target" if targeted else "self"), BOOST_TO, f"{w}.to")
                out.append(("boost", to, _int(arg.get("amount"), f"{w}.amount", 1, 20)))
            else:
                out.append(("boost", "target" if targeted else "self", _int(arg, w, 1, 20)))
        else:
            raise FormatError(f"unknown instruction {kind!r}{_nearest_instruction(kind)} "
                              f"(expected one of: {', '.join(INSTRUCTIONS)})", where)
    return tuple(out)


def _nearest_instruction(kind: Any) -> str:
    """", did you mean 'X'?" for the known instruction nearest an unknown one (see
    :func:`kb.timing.fields.nearest_instruction`), or ""."""
    return nearest_instruction(kind, INSTRUCTIONS)


def _effect_json(e: Effect, targeted: bool = False) -> dict[str, Any]:
    kind = e[0]
    if kind == "boost":  # the short form where it reads back the same (see parse_effects)
        short = e[1] == ("target" if targeted else "self")
        return {"boost": e[2] if short else {"to": e[1], "amount": e[2]}}
    if kind in ("damage", "prevent"):
        return {kind: {"to": e[1], "amount": e[2]}}
    if kind in ("counter", "destroy", "tap"):
        return {kind: e[1]}
    if kind == "counter-unless-pay":
        return {kind: e[1]}
    if kind in ("draw", "lose-life"):
        return {kind: {"who": e[1], "n": e[2]}}
    if kind == "discard":
        return {"discard": e[1]}
    if kind == "sacrifice":
        return {"sacrifice": {"who": e[1], "type": e[2]}}
    return {kind: True}


# Who an instruction acts for, as its text says it.
_WHO_WORDS = {"you": "", "each": "each player ", "that-player": "that player ", "target": "target player "}


def instruction_text(e: Effect) -> str:
    """One instruction in words, as a trace says it is followed ("deal 3 damage to its target"),
    never its scenario key."""
    kind = e[0]
    its = "its targets" if len(e) > 1 and e[1] == "targets" else "its target"
    if kind == "damage":
        amount = "that much" if e[2] == "that" else str(e[2])
        return f"deal {amount} damage to " + (its if e[1] in ("target", "targets") else e[1])
    if kind == "prevent":
        return f"prevent the next {e[2]} damage that would be dealt to " + (its if e[1] == "target" else e[1])
    if kind in ("counter", "destroy", "tap"):
        return f"{kind} {its}"
    if kind == "counter-unless-pay":
        return f"counter its target unless its controller pays {{{e[1]}}}"
    if kind in ("draw", "lose-life"):
        verb = ("draw" if kind == "draw" else "lose") if e[1] == "you" else ("draws" if kind == "draw" else "loses")
        return f"{_WHO_WORDS[e[1]]}{verb} {e[2]}" + (" life" if kind == "lose-life" else "")
    if kind == "discard":
        return "each player discards a card" if e[1] == "each" else "discard a card"
    if kind == "sacrifice":
        return f"each player sacrifices a {e[2]}" if e[1] == "each" else f"sacrifice a {e[2]}"
    if kind == "boost":
        gets = "" if e[1] == "self" else f"{its} gets " if e[1] == "target" else f"{its} each get "
        return f"{gets}+{e[2]}/+{e[2]} until end of turn"
    return {"extra-turn": "take an extra turn after this one", "return": "return the card to the battlefield",
            "shuffle-graveyard": "shuffle your graveyard into your library",
            "time-counter": "remove a time counter from the suspended card",
            "cast-suspended": "cast the suspended card without paying its mana cost"}.get(kind, kind)


def effects_json(effects: tuple[Effect, ...], targeted: bool = False) -> list[dict[str, Any]]:
    """Instructions as a scenario writes them; ``targeted`` as :func:`parse_effects` reads them."""
    return [_effect_json(e, targeted) for e in effects]


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
                    "triggers", "abilities", "morph", "mana", "color", "static", "suspend", "foretell", "plot",
                    "replacement", "targets"), where)
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
        written = [_str(k, f"{where}.keywords[{i}]") for i, k in enumerate(_list(raw.get("keywords"),
                                                                                  f"{where}.keywords"))]
        values = dict(v for k in written if (v := valued(k, where)) is not None)
        keywords = frozenset(keyword(k, f"{where}.keywords[{i}]") for i, k in enumerate(written)
                             if valued(k, where) is None) | frozenset(values)
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
            ab_effects = parse_effects(ab.get("effects"), f"{aw}.effects", target is not None)
            if mana and (target or ab.get("effects")):
                raise FormatError("a mana ability has no target and no other instructions here", aw)
            abilities.append(Ability(_str(ab.get("name"), f"{aw}.name"), _int(ab.get("cost", 0), f"{aw}.cost", 0, 20),
                                     _flag(ab.get("tap"), f"{aw}.tap"), mana,
                                     ab_effects,
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
        own = parse_effects(raw.get("effects"), f"{where}.effects", raw.get("target") is not None)
        _power_toughness_written(raw, types, where)
        cards[name] = Card(
            name, types, _int(raw.get("cost", 0), f"{where}.cost", 0, 20),
            _int(raw.get("power", 0), f"{where}.power", 0, 99), _int(raw.get("toughness", 0), f"{where}.toughness", 0, 99),
            _flag(raw.get("legendary"), f"{where}.legendary"), "flash" in keywords, own,
            _choice(raw.get("target"), (None,) + TARGETS, f"{where}.target"), tuple(triggers), tuple(abilities),
            None if morph is None else _int(morph, f"{where}.morph", 0, 20), "haste" in keywords, colors, static,
            "trample" in keywords, "split-second" in keywords, suspend, exiling["foretell"], exiling["plot"],
            _exile_instead(raw.get("replacement"), types, f"{where}.replacement"),
            _several(raw.get("targets"), raw.get("target"), own, tuple(triggers), tuple(abilities), where),
            first_strike="first-strike" in keywords, double_strike="double-strike" in keywords,
            vigilance="vigilance" in keywords, flying="flying" in keywords, reach="reach" in keywords,
            ward=values.get("ward"), deathtouch="deathtouch" in keywords, lifelink="lifelink" in keywords,
            indestructible="indestructible" in keywords, menace="menace" in keywords,
            defender="defender" in keywords)
        if cards[name].ward is not None and not cards[name].permanent:
            raise FormatError("ward is a permanent's ability (702.21a: whenever this permanent becomes the target)",
                              f"{where}.keywords")
        if static is not None and not cards[name].permanent:
            raise FormatError("only a permanent's static ability is modelled (it applies while on the battlefield)",
                              f"{where}.static")
        needs = any(e[1] == "target" for e in cards[name].effects if len(e) > 1) or any(
            e[0] in ("counter-unless-pay",) for e in cards[name].effects)
        if needs and cards[name].target is None:
            raise FormatError("an instruction says target, so the card needs a target (creature, player, any, "
                              "spell, permanent)", f"{where}.target")
        _boosts_modelled(cards[name], where)
    return cards


def _boosts_modelled(card: Card, where: str) -> None:
    """Every ``boost`` of ``card`` gives +N/+N to a creature the model can find as it resolves
    (608.2c): its target, which must be a creature (only creatures have power and toughness,
    208.1), or the permanent whose ability it is; one with nobody to boost is refused here
    rather than resolving and doing nothing."""
    owners: list[tuple[str, tuple[Effect, ...], str | None, str]] = [(f"{where}.effects", card.effects, card.target,
                                                                        "spell" if not card.permanent else "")]
    owners += [(f"{where}.abilities[{i}].effects", a.effects, a.target, "graveyard" if a.zone == "graveyard" else "")
               for i, a in enumerate(card.abilities)]
    owners += [(f"{where}.triggers[{i}].effects", tr.effects, None, "dies" if tr.on == "dies" else "")
               for i, tr in enumerate(card.triggers)]
    for field, effects, target, gone in owners:
        for i, e in enumerate(effects):
            if e[0] != "boost":
                continue
            w = f"{field}[{i}].boost"
            if e[1] != "self":
                if target is None:
                    raise FormatError("a boost of its target needs a target, and a triggered ability has none here: "
                                      "write it on a spell or an activated ability with target: creature", w)
                if target != "creature":
                    raise FormatError(f"only a creature has power and toughness (208.1), and target: {target} may be "
                                      "another object or a player: say target: creature", w)
                continue
            if not card.permanent or gone:
                why = {"spell": f"{card.name} is a spell, not a permanent, so it has no power and toughness of its "
                                "own: give the card target: creature for \"target creature gets +N/+N\"",
                       "graveyard": "an ability of a card in the graveyard has no creature of its own to boost",
                       "dies": "a dies trigger's creature has left the battlefield (400.7): there is nothing of "
                               "its own to boost"}[gone or "spell"]
                raise FormatError(why, w)


def in_edition(cards: dict[str, Card], edition: str, field: str = "cards") -> dict[str, Card]:
    """The card pool, refused where a card has what the edition's rules lack: ward and menace
    are not in the 2010-10-01 rules (702.21 and 702.111 came with later releases)."""
    if edition == EDITION_2010:
        for name, card in cards.items():
            for kw, rule in LATER_THAN_2010.items():
                if (card.ward is not None) if kw == "ward" else getattr(card, kw):
                    raise FormatError(f"{kw} is not in the mtg {edition} rules (its rule, {rule} in 2026-01-16, "
                                      f"came later): {name} cannot have it in this edition", f"{field}.{name}.keywords")
    return cards


def _power_toughness_written(raw: dict[str, Any], types: frozenset[str], where: str) -> None:
    """A creature card says its power and toughness (208.1): left out, the creature would be a
    0/0 that dies at once (704.5f) without the scenario saying so; 0/0 is written as 0/0."""
    if "creature" not in types:
        return
    missing = [k for k in ("power", "toughness") if raw.get(k) is None]
    if missing:
        raise FormatError(f"a creature card needs its power and toughness (e.g. power: 2, toughness: 2; a 0/0 "
                          f"is written power: 0, toughness: 0): {' and '.join(missing)} missing",
                          f"{where}.{missing[0]}")


def _names_targets(effects: tuple[Effect, ...]) -> bool:
    return any(len(e) > 1 and e[1] == "targets" for e in effects)


def _several(n: Any, kind: Any, effects: tuple[Effect, ...], triggers: tuple[Trigger, ...],
             abilities: tuple[Ability, ...], where: str) -> int:
    """A spell's ``targets: N`` ("each of up to N target creatures", 601.2c), checked against the
    instructions naming ``targets``: a creature or permanent target kind, and only a spell's own
    instructions (its abilities and triggered abilities have one target each)."""
    if n is None and not triggers and not abilities and not _names_targets(effects):
        return 0  # the common case: nothing to check
    if any(_names_targets(x.effects) for x in (*triggers, *abilities)):
        raise FormatError("only a spell's own instructions act on its several targets: its abilities and triggered "
                          "abilities have one target each", where)
    if n is None:
        if _names_targets(effects):
            raise FormatError("an instruction names targets: the card says how many it may choose (targets: N, "
                              "\"each of up to N target creatures\")", f"{where}.targets")
        return 0
    n = _int(n, f"{where}.targets", 1, 4)
    if kind not in ("creature", "permanent"):
        raise FormatError("several targets are creatures or permanents: say target: creature (or permanent)",
                          f"{where}.target")
    if not _names_targets(effects) or any(len(e) > 1 and e[1] == "target" for e in effects):
        raise FormatError("a card of several targets names them targets in its instructions (e.g. {destroy: "
                          "targets}), and not target", f"{where}.effects")
    return n


EXILE_INSTEAD = ("self", "creatures", "opponents-creatures")  # whose death a replacement exiles instead


def _exile_instead(data: Any, types: frozenset[str], field: str) -> str | None:
    """``replacement: {would_die: self|creatures|opponents-creatures, instead: exile}``."""
    if data is None:
        return None
    raw = _map(data, field)
    _only(raw, ("would_die", "instead"), field)
    if not types & PERMANENT_TYPES:
        raise FormatError("only a permanent has this replacement effect (it applies while on the battlefield)", field)
    _choice(raw.get("instead"), ("exile",), f"{field}.instead")
    return _choice(raw.get("would_die"), EXILE_INSTEAD, f"{field}.would_die")


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
                                         ("split-second", card.split_second), ("first-strike", card.first_strike),
                                         ("double-strike", card.double_strike), ("vigilance", card.vigilance),
                                         ("flying", card.flying), ("reach", card.reach),
                                         ("deathtouch", card.deathtouch), ("lifelink", card.lifelink),
                                         ("indestructible", card.indestructible), ("menace", card.menace),
                                         ("defender", card.defender))
                if on]
    if card.ward is not None:
        keywords.append(f"ward {card.ward}")
    if keywords:
        out["keywords"] = keywords
    if card.target:
        out["target"] = card.target
    if card.targets:
        out["targets"] = card.targets
    if card.effects:
        out["effects"] = effects_json(card.effects, card.target is not None)
    if card.morph is not None:
        out["morph"] = card.morph
    if card.suspend is not None:
        out["suspend"] = {"time": card.suspend[0], "cost": card.suspend[1]}
    for key in ("foretell", "plot"):
        if getattr(card, key) is not None:
            out[key] = getattr(card, key)
    if card.exile_instead is not None:
        out["replacement"] = {"would_die": card.exile_instead, "instead": "exile"}
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
                             **({"effects": effects_json(a.effects, a.target is not None)} if a.effects else {}),
                             **({"timing": a.timing} if a.timing != "any" else {}),
                             **({"zone": a.zone} if a.zone != "battlefield" else {}),
                             **({"artifacts": a.artifacts} if a.artifacts else {}),
                             **({"target": a.target} if a.target else {})} for a in abilities]
    return out
