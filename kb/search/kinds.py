"""Kinds: what the rules list as kinds of what, read from the rules themselves.

A named rule under a plural heading that lists a few of them ("108. Non-Board Zones" ›
"108.6 Banishments") is one kind of the heading, and a sentence that lists what one of the
edition's terms names ("There are normally seven zones: library, hand, …") makes each item a
kind of it. The searcher (``Ranking.kind_weight``) lets a question's concept match its
headings' words too; the offline search gets the same lists in its index
(``kb.export.search_index``).
"""

from __future__ import annotations

import re
from typing import Any

from kb.graph import RuleGraph
from kb.search.query import Atom
from kb.search.schema import WORD, analyse


# A heading lists kinds when it has at least two and at most this many named rules under it
# (the zones of "Non-Board Zones"); a longer list ("Keyword Abilities") is a chapter of its own.
KIND_LIST = (2, 12)
KIND_WORDS = 4  # a kind's or a heading's name is at most this many words


def _name(rule: Any) -> str:
    """A rule's name when it is one: its title, or a text of a few words with no full stop."""
    name = rule.title or rule.text
    if not name or len(WORD.findall(name)) > KIND_WORDS or name.rstrip().endswith((".", ":")):
        return ""
    return name


def _plural(name: str) -> bool:
    """A heading named by a plural ("Non-Board Zones") lists kinds; a singular one ("Main
    Phase") lists parts."""
    last = name.split()[-1].lower()
    return len(last) > 3 and last.endswith("s") and not last.endswith("ss")


def kinds_of(rg: RuleGraph) -> dict[tuple[str, ...], list[Atom]]:
    """What the rules list as kinds of what, read from the rules' own tree: a named rule under
    a named heading, plural, that lists a few of them and whose name's last word one of them
    repeats ("108. Non-Board Zones" › "108.6 Banishments", beside "108.3 Champion Zone") is one
    kind of the heading; the chapters themselves are left out. By the kind's stems, the
    headings' names as atoms."""
    rules = rg.edition.rules
    out: dict[tuple[str, ...], list[Atom]] = {}
    for rule in rules.values():
        name = _name(rule)
        if rule.parent is None or not name:
            continue
        heading = rules[rule.parent]
        category = _name(heading)
        if not category or heading.parent is None or not _plural(category):
            continue
        names = [analyse(_name(rules[c])) for c in heading.children if _name(rules[c])]
        kind, stems = tuple(analyse(name)), tuple(analyse(category))
        if not (KIND_LIST[0] <= len(names) <= KIND_LIST[1]) or not kind or not stems or kind == stems:
            continue
        # The heading names what its rules are when one of them says it ("Champion Zone"
        # under "Non-Board Zones"); a heading over parts ("Tokens" › "Control", "Winning")
        # does not.
        if not any(stems[-1] in other for other in names):
            continue
        _add_kind(out, kind, category)
    # A listing names kinds of one of the edition's terms ("zones", "card types"): a list of
    # anything else ("The parts of a card are …", "The vowels are …") is not a kind of thing.
    terms = {tuple(analyse(key)) for key in rg.edition.terms}
    for rule in rules.values():
        for category, items in _listings(rule.text):
            if tuple(analyse(category)) not in terms:
                continue
            for item in items:
                kind = tuple(analyse(item))
                if kind and kind != tuple(analyse(category)):
                    _add_kind(out, kind, category)
    return out


def _add_kind(out: dict[tuple[str, ...], list[Atom]], kind: tuple[str, ...], category: str) -> None:
    words = tuple(w.lower() for w in WORD.findall(category))
    if all(a.words != words for a in out.get(kind, [])):
        out.setdefault(kind, []).append(Atom("phrase" if len(words) > 1 else "word", category, words))


# A sentence that lists what a plural names: "Non-Board zones corresponding to a player include
# Main Deck, …, and Banishment." / "There are normally seven zones: library, hand, …".
_LISTING = re.compile(r"(?:^|\. )(?:There are (?:\w+ ){0,2}?(?P<there>[\w-]+s):|(?P<subject>[A-Z][\w-]*(?: [\w-]+){0,6}?) "
                      r"(?:include|are):?) (?P<items>[^.;:()]+)\.")
_ITEM_WORDS = 3


def _listings(text: str) -> list[tuple[str, list[str]]]:
    """The (plural, items) a rule's text lists: at least three items of a few words each."""
    found = []
    for m in _LISTING.finditer(text or ""):
        if m.group("there"):
            category = m.group("there")
        else:
            words = m.group("subject").split()
            at = next((i for i, w in enumerate(words) if _plural(w)), None)
            if at is None or at > 2:
                continue
            category = " ".join(words[:at + 1])
        items = [i.strip() for i in re.split(r",\s*(?:and |or )?|\s+(?:and|or)\s+", m.group("items")) if i.strip()]
        if len(items) >= 3 and all(len(WORD.findall(i)) <= _ITEM_WORDS for i in items):
            found.append((category, items))
    return found
