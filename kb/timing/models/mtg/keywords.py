"""Magic keywords as a card's ``keywords`` writes them: the fifteen the model plays (flash,
haste, trample, split-second, first-strike, double-strike, vigilance, flying, reach, ward with
its cost, ``Ward 2``, deathtouch, lifelink, indestructible, menace and defender; read in any
case, ``split second``, ``first strike`` and ``double strike`` too), and every other keyword
ability refused saying which it is. Indestructible is no keyword ability in the 2010-10-01
rules (700.4 says what being indestructible does) and is played there by that rule; ward and
menace, which those rules lack, are refused in that edition (:data:`LATER_THAN_2010`).

A keyword the model does not play is refused naming its rule, 702.N, found by its name among
the edition's own keyword rules (CR 702, "Keyword Abilities": ``Persist`` is Persist, 702.79 in
2026-01-16), never from a list kept here; and, where it can be, how to write its effect with
what the model has (Suspend as the card's ``suspend: {time: N, cost: C}``, Persist's trigger as
``on: dies`` with ``return: true``). A misspelt keyword the model plays is answered
with it; another, with the nearest keyword of the edition.

The model reads cards without the knowledge base (a scenario is parsed before it runs), so
:func:`keyword` raises :class:`KeywordRefused`, which says what it can without the rules;
where the edition's graph is at hand (:mod:`kb.timing.api`, for every face: CLI, API, site)
:meth:`KeywordRefused.said_in` says it with them.
"""

from __future__ import annotations

import difflib
import re

from kb.graph import RuleGraph
from kb.timing.engine import FormatError
from kb.timing.fields import nearest

# The keywords the model plays, as a scenario writes them.
KEYWORDS = ("flash", "haste", "trample", "split-second", "first-strike", "double-strike", "vigilance", "flying",
            "reach", "ward", "deathtouch", "lifelink", "indestructible", "menace", "defender")
# The keywords the model plays that came into the rules after 2010-10-01: each one's rule in
# 2026-01-16, which a card of a 2010 scenario is refused naming.
LATER_THAN_2010 = {"ward": "702.21", "menace": "702.111"}
# The keywords written with a value: ward's cost ("Ward 2", "ward {2}"), read by the card.
VALUED = ("ward",)
KEYWORD_SECTION = "702"  # CR 702, Keyword Abilities
# A keyword rule's text is the keyword's name ("Ward", "Split Second", "Start Your Engines!");
# the section's general rule (702.1) is a paragraph.
_NAME_LONGEST = 45

# How to write a keyword's effect with what the model has, by the keyword's name as the rules
# print it (casefolded): the words, and a card written that way (tests/test_timing_mtg_refusals.py
# reads each one as a card), or None where it cannot be written yet.
WRITE_INSTEAD: dict[str, tuple[str, str | None]] = {
    "morph": ("write it as the card's morph: COST (cast face down for {3}, turned face up for COST)",
              "{type: creature, power: 2, toughness: 2, morph: 3}"),
    "suspend": ("write it as the card's suspend: {time: N, cost: COST}",
                "{type: sorcery, cost: 5, suspend: {time: 3, cost: 1}, effects: [{draw: 2}]}"),
    "foretell": ("write it as the card's foretell: COST", "{type: instant, cost: 3, foretell: 1, effects: [{draw: 2}]}"),
    "plot": ("write it as the card's plot: COST", "{type: sorcery, cost: 4, plot: 2, effects: [{draw: 2}]}"),
    "persist": ("its trigger can be written as triggers: [{on: dies, effects: [{return: true}]}], without the "
                "-1/-1 counter and the condition on it, which the model does not keep",
                "{type: creature, power: 2, toughness: 2, triggers: [{on: dies, effects: [{return: true}]}]}"),
    "undying": ("its trigger can be written as triggers: [{on: dies, effects: [{return: true}]}], without the "
                "+1/+1 counter and the condition on it, which the model does not keep",
                "{type: creature, power: 2, toughness: 2, triggers: [{on: dies, effects: [{return: true}]}]}"),
}


def said(name: str) -> str:
    """A keyword as compared: casefolded, hyphens as spaces, spaces collapsed
    (``Split-Second`` and ``split  second`` are one)."""
    return " ".join(re.sub(r"[-‐–]", " ", name.casefold()).split())


def keyword_rules(graph: RuleGraph | None) -> dict[str, tuple[str, str]]:
    """The edition's keyword abilities: each one's name as compared (:func:`said`) → its rule
    number and its name as printed (``"ward": ("702.21", "Ward")``); none without the graph."""
    if graph is None:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for number, rule in graph.edition.rules.items():
        if rule.kind != "rule" or len(rule.segments) != 2 or rule.segments[0] != KEYWORD_SECTION:
            continue
        name = " ".join((rule.text or rule.title or "").split())
        if name and len(name) <= _NAME_LONGEST and not name.endswith("."):
            out.setdefault(said(name), (number, name))
    return out


def _named(written: str, names: dict[str, tuple[str, str]]) -> str | None:
    """The longest name that ``written`` is, or opens followed by its value (``ward 2``,
    ``protection from red``)."""
    w = said(written)
    found = [n for n in names if w == n or w.startswith(n + " ")]
    return max(found, key=len) if found else None


def _instead(name: str) -> str:
    return WRITE_INSTEAD[name][0] if name in WRITE_INSTEAD else "it is not modelled"


def refusal(written: str, graph: RuleGraph | None) -> str:
    """Why the keyword ``written`` is refused, in the words of ``graph``'s rules when given."""
    knows = f"(the model knows: {', '.join(KEYWORDS)})"
    rules = keyword_rules(graph)
    name = _named(written, rules)
    if name is not None:
        number, printed = rules[name]
        return f"keyword {written!r} is {printed} ({number}), which the model does not play: {_instead(name)} {knows}"
    hinted = _named(written, {n: ("", "") for n in WRITE_INSTEAD})
    if hinted is not None:  # a keyword it can say how to write, whose rule the rules at hand lack
        if graph is None:
            where = "its rule is not loaded"
        elif graph.edition.partial:
            where = f"the mtg {graph.edition.name} excerpt lacks its rule"
        else:
            where = f"mtg {graph.edition.name} has no rule of it"
        return f"keyword {written!r} is not modelled ({where}): {_instead(hinted)} {knows}"
    close = nearest(written, KEYWORDS) or nearest(said(written).split(" ")[0], KEYWORDS)
    if not close and rules:
        by_said = difflib.get_close_matches(said(written), list(rules), n=1, cutoff=0.6) or \
            difflib.get_close_matches(said(written).split(" ")[0], list(rules), n=1, cutoff=0.6)
        if by_said:
            number, printed = rules[by_said[0]]
            close = f", did you mean {printed!r} ({number}), which the model does not play?"
    return f"unknown keyword {written!r}{close} {knows}"


class KeywordRefused(FormatError):
    """A keyword the model does not play (or does not know): its message says what it can
    without the rules; :meth:`said_in` says it with an edition's."""

    def __init__(self, written: str, field: str):
        self.written = written
        super().__init__(refusal(written, None), field)

    def said_in(self, graph: RuleGraph | None) -> str:
        """The refusal in the words of ``graph``'s rules (its keyword's rule 702.N)."""
        return refusal(self.written, graph)


def valued(written: str, field: str) -> tuple[str, int] | None:
    """A keyword written with its value, as ``(name, value)``: ``Ward 2`` or ``ward {2}`` is
    ``("ward", 2)``; None for any other (read by :func:`keyword`)."""
    m = re.fullmatch(r"(ward) \{?(\d{1,2})\}?", said(written))
    return (m.group(1), int(m.group(2))) if m else None


def keyword(written: str, field: str) -> str:
    """One keyword of a card as the model names it (``Trample``, ``split second`` →
    ``trample``, ``split-second``); any other is :class:`KeywordRefused`, and one the model
    plays written with a value (``haste 1``) a :class:`FormatError`."""
    mine = {said(k): k for k in KEYWORDS}
    if said(written) in mine and mine[said(written)] not in VALUED:
        return mine[said(written)]
    played = _named(written, {n: ("", "") for n in mine})
    opens = next((k for k in VALUED if re.match(rf"{k}(?![a-z])", said(written))), None)
    if opens is not None:  # "Ward", "Ward {X}", "Ward—Pay 3 life": only a mana cost is modelled
        raise FormatError(f"{opens} is written with its cost, a number of generic mana (e.g. Ward 2); another "
                          f"cost is not modelled: {written!r}", field)
    if played is not None:
        raise FormatError(f"{mine[played]} takes no value ({written!r})", field)
    raise KeywordRefused(written, field)
