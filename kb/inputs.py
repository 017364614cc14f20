"""Reading untrusted JSON and YAML: text that can be encoded, nesting within its budget.

Every reader of a request body, a pasted scenario, an article's front matter or a file the
CLI is given goes through here, so the same two rules hold everywhere:

- text must be encodable as UTF-8: a lone surrogate (``"\\ud800"`` in JSON) is refused with
  400 naming where it is (a JSON path such as ``/steps/3/play/card``), never passed on to
  fail while the answer is encoded;
- nesting is at most :data:`kb.limits.NESTING_DEPTH` levels. YAML is checked on its event
  stream *before* anything is composed (the composers recurse, so deep input would end in
  ``RecursionError``); JSON, which the standard library parses without Python recursion,
  is checked on the parsed value, and input too deep for the parser itself gets the same
  422.

YAML is parsed by libyaml when it is installed (the pure-Python parser costs about 25 µs a
byte, which a large front matter turns into seconds).
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import yaml

from kb.errors import QueryError
from kb.limits import NESTING_DEPTH

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_SURROGATE = re.compile("[\ud800-\udfff]")
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_StringLoader: Any = getattr(yaml, "CBaseLoader", yaml.BaseLoader)
_OPEN = (yaml.SequenceStartEvent, yaml.MappingStartEvent)
_CLOSE = (yaml.SequenceEndEvent, yaml.MappingEndEvent)


class UnencodableText(QueryError):
    """Text holding a lone surrogate, which no UTF-8 answer can carry (400)."""

    def __init__(self, where: str, position: int, char: str):
        super().__init__(400, f"{where} holds a lone surrogate (U+{ord(char):04X}) at character "
                              f"{position}, which is not text that can be encoded",
                         {"where": where, "position": position, "codepoint": f"U+{ord(char):04X}"})


def check_text(text: str, where: str) -> None:
    """Refuse ``text`` (400) when it holds a lone surrogate; ``where`` names the input."""
    m = _SURROGATE.search(text)
    if m is not None:
        raise UnencodableText(where, m.start(), m.group())


def check_json(value: Any, where: str = "") -> None:
    """Refuse a parsed JSON value nested deeper than :data:`NESTING_DEPTH` (422) or holding
    a lone surrogate in any key or string (400). Places are JSON pointers after ``where``
    (``request body /steps/3``); the walk is iterative and stops at the first fault."""
    limit = NESTING_DEPTH.value
    stack: list[tuple[Any, int, str]] = [(value, 0, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                check_text(item, _place(where, path))
            continue
        if isinstance(item, dict):
            children: Any = item.items()
        elif isinstance(item, list):
            children = enumerate(item)
        else:
            continue
        if depth + 1 > limit:
            NESTING_DEPTH.check(depth + 1, _place(where, path))
        for key, child in children:
            if isinstance(key, str) and _SURROGATE.search(key):
                check_text(key, _place(where, f"{path}/{_pointer(key)}") + " (a key)")
            if isinstance(child, (str, dict, list)):
                stack.append((child, depth + 1, f"{path}/{_pointer(key)}"))


def loads_json(text: str | bytes, where: str = "") -> Any:
    """Parse JSON and :func:`check_json` it. Syntax errors stay ``json.JSONDecodeError``
    (callers word them with their own line numbers); input too deep for the parser is the
    nesting 422."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise NESTING_DEPTH.exceeded(where or None) from None
    check_json(value, where)
    return value


def load_yaml(text: str, where: str = "YAML", *, strings: bool = False,
              aliases: bool = True) -> Any:
    """Parse one YAML document safely: no Python objects, nesting within
    :data:`NESTING_DEPTH`, no lone surrogates; ``strings`` reads every scalar as a string
    (as ``yaml.BaseLoader`` does); ``aliases=False`` refuses anchors' aliases (a few can
    expand to gigabytes once the value is walked). YAML syntax errors stay
    ``yaml.YAMLError``."""
    check_text(text, where)
    loader = _StringLoader if strings else _Loader
    depth = 0
    limit = NESTING_DEPTH.value
    try:
        for event in yaml.parse(text, Loader=loader):
            if isinstance(event, _OPEN):
                depth += 1
                if depth > limit:
                    NESTING_DEPTH.check(depth, f"{where} line {event.start_mark.line + 1}")
            elif isinstance(event, _CLOSE):
                depth -= 1
            elif not aliases and isinstance(event, yaml.AliasEvent):
                # Marked, so that a caller names the line as it does for any YAML fault.
                raise yaml.MarkedYAMLError(problem=f"aliases (*{event.anchor}) are not accepted in {where}",
                                           problem_mark=event.start_mark)
    except yaml.MarkedYAMLError as exc:
        # libyaml's scanner looks ahead, so its own cap on flow nesting can trip before
        # the events reach ours: the same fault, reported as ours.
        if "nesting depth" in str(exc.problem or ""):
            mark = exc.problem_mark
            raise NESTING_DEPTH.exceeded(f"{where} line {mark.line + 1 if mark else 1}") from None
        raise
    return yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)


def _pointer(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _place(where: str, path: str) -> str:
    path = path or "/"
    return f"{where} {path}" if where else path


def date_problem(text: str) -> str | None:
    """Why ``text`` is not a calendar date written YYYY-MM-DD, or None when it is one.

    The answer reads after the value: ``f"{text!r} is {problem}"``.
    """
    if not _DATE.match(text):
        return "not a date: use YYYY-MM-DD, e.g. 2026-07-16"
    try:
        datetime.date.fromisoformat(text)
    except ValueError as exc:
        return f"not a calendar date ({exc})"
    return None
