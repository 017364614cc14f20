"""Checks for the JSON and YAML a timing model reads (scenarios, states), shared by every
model: each raises :class:`kb.timing.engine.FormatError` naming the field that is wrong.

**The place an error names** (``FormatError.field``) is a path of keys joined by dots, with
list entries in brackets, written so that a user finds it in the YAML they wrote:

- In a scenario, an entry of a list that has a name of its own, unique in the list (a player,
  a Riftbound battlefield), is named by that name, as the mapping form of the same list would
  be: ``players.Dee.team``, ``battlefields.Temple.units.Bo[0]`` (:func:`named_entry`).
  Searching the file for "Dee" finds it; counting entries does not have to.
- An entry without a name of its own (a card of a hand, a permanent, whose card's name may
  repeat, a step's attacker, a team), or whose name is itself what is wrong (missing, not
  text, given twice), is named by its index from 0: ``players[2].name``,
  ``players.Ann.hand[1]``.
- A whole list that is wrong as a list (too few players, turn order) is named by its key:
  ``players``.
- A pasted state is JSON a frame wrote, read by tools that address JSON by index
  (``chain[1].target``, ``teams[0][1]``): its list entries are named by index.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kb.limits import TIMING_CARDS, TIMING_EFFECTS, TIMING_ENTRIES
from kb.timing.engine import FormatError

# Keys whose lists hold a card's or an item's instructions, in every model.
INSTRUCTION_KEYS = ("effects", "legion")


def text(value: Any, field: str) -> str:
    """A non-empty string, stripped."""
    if not isinstance(value, str) or not value.strip():
        raise FormatError("expected a non-empty string", field)
    return value.strip()


def optional_text(value: Any, field: str) -> str | None:
    return None if value is None else text(value, field)


def a_list(value: Any, field: str) -> list[Any]:
    """A list (missing: empty) of at most :data:`kb.limits.TIMING_ENTRIES` entries (no game
    puts hundreds of items on a chain, a stack or in a hand; a 10,000-item chain took 1.5 s)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise FormatError("expected a list", field)
    TIMING_ENTRIES.check(len(value), field)
    return value


def instructions(data: Any) -> int:
    """How many instructions ``data`` (a card, an item, a trigger) holds: the entries of every
    list under an instruction key (:data:`INSTRUCTION_KEYS`), at any depth (a reflexive
    trigger's own effects count too)."""
    count, todo = 0, [data]
    while todo:  # iterative: the input may nest as deep as the JSON parser allowed
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in INSTRUCTION_KEYS and isinstance(value, list):
                    count += len(value)
                if isinstance(value, (dict, list)):
                    todo.append(value)
        elif isinstance(node, list):
            todo.extend(v for v in node if isinstance(v, (dict, list)))
    return count


def check_budget(data: Any) -> None:
    """Refuse a scenario or a state over the timing model's input budgets before any of it
    is read: at most :data:`kb.limits.TIMING_CARDS` cards in its pool, at most
    :data:`kb.limits.TIMING_EFFECTS` instructions on any card, or on any other mapping that
    carries instructions (a chain or stack item, a waiting trigger), and at most
    :data:`kb.limits.TIMING_ENTRIES` entries in any list. Raises
    :class:`kb.limits.LimitExceeded` (413) naming the place."""
    if not isinstance(data, dict):
        return
    cards = data.get("cards")
    if isinstance(cards, dict):
        TIMING_CARDS.check(len(cards), "cards")
        for name, card in cards.items():
            TIMING_EFFECTS.check(instructions(card), f"cards.{name}")
    todo: list[tuple[str, Any]] = [(str(k), v) for k, v in data.items() if k != "cards"]
    while todo:
        where, node = todo.pop()
        if isinstance(node, dict):
            if any(k in node for k in INSTRUCTION_KEYS):
                TIMING_EFFECTS.check(instructions(node), where)
                continue  # counted whole, nested ones included
            todo.extend((f"{where}.{k}", v) for k, v in node.items() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            TIMING_ENTRIES.check(len(node), where)
            todo.extend((f"{where}[{i}]", v) for i, v in enumerate(node) if isinstance(v, (dict, list)))


def a_mapping(value: Any, field: str) -> dict[str, Any]:
    """A mapping (missing: empty)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise FormatError("expected a mapping", field)
    return value


def nearest(word: Any, known: Iterable[str]) -> str:
    """", did you mean 'X'?" for the known word nearest a mistyped one (any case), or "".

    A boolean (or ``true``/``false``, as it reads once sent as JSON) is YAML 1.1's reading of
    an unquoted ``on``/``yes`` or ``off``/``no`` (PyYAML's): that is said, and how to keep the word."""
    words = list(known)
    if (read := str(word).casefold()) in _YAML_BOOLEANS:
        meant = [w for w in _YAML_BOOLEANS[read] if w in words]
        wrote = " or ".join(f"`{w}`" for w in (meant or _YAML_BOOLEANS[read]))
        return (f"{f', did you mean {meant[0]!r}?' if meant else ';'} YAML 1.1 reads {wrote} as {read}: "
                f"quote it ('{(meant or _YAML_BOOLEANS[read])[0]}')")
    by_case = {w.casefold(): w for w in words}
    found = difflib.get_close_matches(str(word).casefold(), list(by_case), n=1, cutoff=0.6)
    return f", did you mean {by_case[found[0]]!r}?" if found else ""


# The words YAML 1.1 reads as a boolean unquoted, as a key or a value (PyYAML does), by what it reads.
_YAML_BOOLEANS = {"true": ("on", "yes"), "false": ("off", "no")}


def nearest_instruction(kind: Any, known: Iterable[str]) -> str:
    """", did you mean 'X'?" for the known instruction nearest an unknown one: the nearest
    spelling, read with ``_`` for ``-`` (``lose_life``, ``drwa``), else the nearest of those
    sharing one of its words (``gain_life``: ``lose-life``); or ""."""
    names = list(known)
    written = str(kind).casefold().replace("_", "-")
    if close := nearest(written, names):
        return close
    words = set(written.split("-"))
    sharing = [i for i in names if words & set(i.split("-"))]
    if not sharing:
        return ""
    return f", did you mean {max(sharing, key=lambda i: difflib.SequenceMatcher(None, written, i).ratio())!r}?"


def only_keys(data: Mapping[str, Any], allowed: tuple[str, ...], field: str) -> None:
    """Refuse keys a model does not know (a typo must not be silently ignored), naming the
    nearest known key."""
    extra = sorted(set(map(str, data)) - set(allowed))
    if extra:
        raise FormatError(f"unknown key {extra[0]!r}{nearest(extra[0], allowed)} "
                          f"(expected one of: {', '.join(allowed)})", field)


def whole_number(value: Any, field: str, low: int = 0, high: int = 99) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FormatError(f"expected a whole number from {low} to {high}", field)
    return value


def one_of(value: Any, allowed: tuple[Any, ...], field: str) -> Any:
    if value not in allowed:
        raise FormatError(f"expected one of: {', '.join(map(str, allowed))}", field)
    return value


def flag(value: Any, field: str) -> bool:
    """True or false (missing: false)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise FormatError("expected true or false", field)
    return value


def records(data: Any, field: str, keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """A list of mappings, each with known keys only."""
    out = []
    for i, raw in enumerate(a_list(data, field)):
        raw = a_mapping(raw, f"{field}[{i}]")
        only_keys(raw, keys, f"{field}[{i}]")
        out.append(raw)
    return out


def named_entry(field: str, name: str) -> str:
    """The place of the list entry called ``name`` under ``field`` (``players.Dee``): an entry
    with a name of its own is named by it (the module docstring)."""
    return f"{field}.{name}"


def players(data: Any, keys: tuple[str, ...], first: str) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    """Players in turn order (names, or mappings with ``name`` and the model's ``keys``), and
    the mappings by name; ``first`` names the first player's role in the error message."""
    names: list[str] = []
    extra: dict[str, dict[str, Any]] = {}
    for i, p in enumerate(a_list(data, "players")):
        if isinstance(p, dict):
            if not isinstance(p.get("name"), str) or not p["name"].strip():
                only_keys(p, ("name", *keys), f"players[{i}]")  # a misspelt name key, say
            name = text(p.get("name"), f"players[{i}].name")
        else:
            name = text(p, f"players[{i}]")
        if name in names:
            raise FormatError(f"player {name!r} is listed twice", f"players[{i}]")
        if isinstance(p, dict):
            only_keys(p, ("name", *keys), named_entry("players", name))
            extra[name] = p
        names.append(name)
    if not 2 <= len(names) <= 4:
        raise FormatError(f"list 2 to 4 players in turn order (the first is the {first})", "players")
    return tuple(names), extra


def turn_order(data: Any, message: str = "list the players (2 to 4, distinct) in turn order") -> tuple[str, ...]:
    """A state's players: 2 to 4 distinct names in turn order."""
    names = tuple(text(p, f"players[{i}]") for i, p in enumerate(a_list(data, "players")))
    if not 2 <= len(names) <= 4 or len(set(names)) != len(names):
        raise FormatError(message, "players")
    return names


def player_of(players: tuple[str, ...]) -> Callable[..., str | None]:
    """A check that a field names one of ``players`` (or is absent, where ``none`` allows)."""
    def player(value: Any, field: str, none: bool = True) -> str | None:
        if value is None and none:
            return None
        if not isinstance(value, str) or value not in players:
            raise FormatError(f"{value!r} is not one of the players ({', '.join(players)})", field)
        return value
    return player


def card_of(cards: Mapping[str, Any]) -> Callable[[Any, str], str]:
    """A check that a field names a card of the scenario's pool."""
    def card_name(value: Any, field: str) -> str:
        name = text(value, field)
        if name not in cards:
            raise FormatError(f"unknown card {name!r} (add it to cards)", field)
        return name
    return card_name


def pool_json(model: Any, card_json: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
    """A model's card pool as JSON, made once per model: the pool is the same in every state
    of a run, and writing it again for every frame was a third of a long run's time. Every
    frame's state shares the one mapping (read-only, like the model)."""
    made = getattr(model, "_pool_json", None)
    if made is None:
        made = {name: card_json(c) for name, c in model.cards.items()}
        model._pool_json = made
    return made
