"""A scenario's expectations ("Checked here") as sentences a reader can follow.

A run reports each ``expect`` as the data the scenario wrote (``{"priority": "Ann"}``) and
each ``expect_illegal`` as the action and the rules that forbid it. This module words them:
"Ann has priority", "the chain holds, bottom to top: Fireball (finalized)", "Bo cannot cast
Cancel now". It only reads the run's answer; what holds is decided by the timing engine.
"""

from __future__ import annotations

from typing import Any

# How an observed key reads when it names a player (None reads as the second form).
_WHO = {
    "priority": ("{} has priority", "nobody has priority"),
    "focus": ("{} has focus", "nobody has focus"),
    "decider": ("{} decides", "nobody has to decide"),
    "active": ("{} is the active player", "there is no active player"),
    "opened_by": ("{} opened it", "nobody opened it"),
    "attacker": ("{} is attacking", "nobody is attacking"),
    "defender": ("{} is defending", "nobody is defending"),
}
# Keys whose value is one word of the game's vocabulary.
_IS = {"state": "the turn state", "step": "the step", "phase": "the phase", "combat_step": "the combat step",
       "resolving": "the item resolving"}
# Keys holding a pile, listed bottom to top as the scenario writes them.
_PILES = {"chain": "the chain", "stack": "the stack"}
# Yes/no keys.
_FLAGS = {"combat": ("a combat is under way", "no combat is under way"),
          "showdown": ("a showdown is under way", "no showdown is under way")}
_LABELS = {"hand_sizes": "hand sizes", "power_toughness": "power and toughness", "lands_played": "lands played",
           "extra_turns": "extra turns", "lost": "players who lost", "facedown": "face-down cards",
           "static": "static effects", "pool": "mana pool", "board": "the board", "trash": "the trash",
           "graveyard": "the graveyard", "battlefield": "the battlefield", "hands": "hands", "hand": "hand"}


def _text(value: Any) -> str:
    """A value of a state as words: names as written, objects by name with their status."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if "name" in value:
            extra = [str(value[k]) for k in ("status", "controller", "target") if value.get(k)]
            return str(value["name"]) + (f" ({', '.join(extra)})" if extra else "")
        if not value:
            return "none"
        return ", ".join(_entry(k, v) for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_text(v) for v in value) if value else "none"
    return str(value)


def _entry(key: Any, value: Any) -> str:
    """One entry of a mapping: a count reads "Ann 20", a flag "Ann: no", a place or a
    status "Raider (Sunken Temple)"."""
    if isinstance(value, bool):
        return f"{key}: {_text(value)}"
    if isinstance(value, (int, float)) or isinstance(value, (list, dict)):
        return f"{key} {_text(value)}"
    return f"{key} ({_text(value)})"


def _label(key: str) -> str:
    return _LABELS.get(key, key.replace("_", " "))


def fact(key: str, value: Any) -> str:
    """One observed fact as a sentence fragment: ``fact("priority", "Ann")`` is "Ann has priority"."""
    if key in _WHO:
        some, none = _WHO[key]
        return some.format(value) if value else none
    if key in _IS:
        return f"{_IS[key]} is {_text(value)}"
    if key in _PILES:
        return f"{_PILES[key]} holds, bottom to top: {_text(value)}" if value else f"{_PILES[key]} is empty"
    if key in _FLAGS:
        return _FLAGS[key][0 if value else 1]
    if key == "resolved":
        if not value:
            return "nothing resolved"
        return f"{_text(value)} resolved" + (", in that order" if isinstance(value, list) and len(value) > 1 else "")
    if key == "drawn" and isinstance(value, dict):
        if not value:
            return "nobody drew a card"
        return "; ".join(f"{who} drew {n} card{'s' if n != 1 else ''}" for who, n in value.items())
    if key == "turn":
        return f"it is turn {value}"
    if key == "passes":
        return f"{value} pass{'es' if value != 1 else ''} in a row"
    if isinstance(value, (list, dict)) and not value:
        return f"{_label(key)}: none"
    return f"{_label(key)}: {_text(value)}"


# How an action's kind and parameters read after the player's name.
_VERBS = {"mana": "activate a mana ability of", "play_land": "play the land", "turn_face_up": "turn face up",
          "attack": "attack", "block": "block", "choose": "choose", "retract": "retract"}
_PARAMS = {"target": "targeting", "targets": "targeting", "to": "to", "at": "at", "with": "with", "blocks": "with"}


def _action(kind: str, action: Any) -> tuple[str, str]:
    """An action the scenario names (``play: {player: Ann, card: Fireball}``) as who and what
    they do: ``("Ann", "play Fireball")``."""
    verb = _VERBS.get(kind, kind.replace("_", " "))
    if isinstance(action, dict):
        who = str(action.get("player") or "")
        rest = [_text(v) if k in ("card", "ability", "item", "source", "object", "attacker", "blocker")
                else f"{_PARAMS.get(k, k.replace('_', ' '))} {_text(v)}"
                for k, v in action.items() if k != "player"]
        return who, " ".join([verb, *rest])
    if kind in ("pass", "pay", "retract"):
        return _text(action), verb
    return "", f"{verb} {_text(action)}"


def _rules(e: dict[str, Any]) -> list[str]:
    return list(dict.fromkeys(r for f in e.get("forbidden_by") or [] for r in f.get("rules") or []))


def sentence(e: dict[str, Any]) -> dict[str, Any]:
    """One expectation of a run as ``{"text", "rules", "actually"}``: the sentence it checks,
    the rules it names (an illegal action's), and what was found instead when it failed."""
    kind, expected, actual = e.get("kind", "expect"), e.get("expected"), e.get("actual")
    if kind in ("expect_illegal", "step") and isinstance(expected, dict):
        (act, payload), = [(k, v) for k, v in expected.items() if k not in ("illegal", "legal", "rules")][:1] or \
            [("act", None)]
        who, does = _action(act, payload)
        if kind == "step":
            text = f"{who or 'the player'} can {does}"
            actually = "it is not: " + "; ".join(f["summary"] for f in e.get("forbidden_by") or []) if not e["ok"] else ""
        else:
            text = f"{who or 'nobody'} cannot {does} now"
            actually = ""
            if not e["ok"]:
                legal = isinstance(actual, dict) and not actual.get("illegal")
                actually = "it is legal" if legal else \
                    f"it is forbidden, but not by rule {', '.join(expected.get('rules') or [])}"
        return {"text": text[0].upper() + text[1:], "rules": _rules(e) or list(expected.get("rules") or []),
                "actually": actually}
    if not isinstance(expected, dict):
        return {"text": _text(expected), "rules": [], "actually": ""}
    text = "; ".join(fact(k, v) for k, v in expected.items())
    actually = ""
    if not e.get("ok", True) and isinstance(actual, dict):
        actually = "; ".join(fact(k, actual.get(k)) for k in e.get("failed") or [])
    return {"text": text[0].upper() + text[1:] if text else text, "rules": [], "actually": actually}
