"""Cross-references inside rule text: "See rule 349. Playing Cards", "(see rule 101.4)",
"rules 601.2a–f", "rules 119.7–8", "rules 702.19 and 702.20", "See section 8".

Finding mentions is separate from resolving them: :func:`find_mentions` returns the
numbers a text names (with offsets), and the graph builder resolves them in an edition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from kb.numbers import Segments, expand_range, parse_number

# A rule number as rule text writes it: 349, 101.4, 601.2a, 337.1.a, 464.2.c.1.a. At most
# eight segments, and a number never continues into more digits ("2026-07-16" is no rule
# 202): the bounds keep the grammar linear on hostile text.
NUMBER = r"\d{1,3}(?!\d)(?:\.(?:\d{1,3}(?!\d)[a-z]?|[a-z])(?![A-Za-z]))" r"{0,7}(?!\.\d)"
_DASH = "[\u2013\u2014-]"
_RANGE_TAIL = rf"(?:{_DASH}(?:\d{{1,3}}|[a-z])(?![\w]))?"
# One item of a list: a number, optionally a range "601.2a–f", "337–340", "337.1–337.4",
# "702.19 through 702.21".
_ITEM = re.compile(rf"(?P<n>{NUMBER})(?:(?:\s?[\u2013\u2014]\s?|-|\s+through\s+)"
                   rf"(?:(?P<end>{NUMBER})|(?P<tail>[a-z]))(?![\w]))?")
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_LIST = rf"{NUMBER}(?:(?:\s?[\u2013\u2014]\s?|-|\s+through\s+)(?:{NUMBER}|[a-z])(?![\w]))?"
_MENTION = re.compile(
    rf"(?:\b(?P<word>[Rr]ules?|RULES?|[Ss]ections?)|(?<![\w.])(?P<cr>CR))\s{{1,8}}"
    rf"(?P<list>{_LIST}(?:{_SEP}{_LIST})*)"
)


@dataclass(slots=True)
class MentionItem:
    """One number (or range) of a mention, with its offsets in the text."""

    start: int
    end: int
    first: Segments
    last: Segments | None
    numbers: list[Segments]


@dataclass(slots=True)
class Mention:
    """Numbers named by one reference phrase, in the order written."""

    text: str
    start: int
    end: int
    numbers: list[Segments]
    kind: str  # "rule" or "section"
    items: list[MentionItem] = field(default_factory=list)
    keyword: str = ""


def find_mentions(text: str, *, sections: bool = True) -> list[Mention]:
    """Every "rule N" / "rules N–M" / "CR N" / "section N" phrase in a text.

    Items after the first must have a head of the same width ("rules 337 and 3 players"
    names rule 337 only). ``sections=False`` skips "section N" phrases.

    >>> [m.numbers for m in find_mentions("See rules 601.2a–c and 605.")]
    [[('601', '2', 'a'), ('601', '2', 'b'), ('601', '2', 'c'), ('605',)]]
    """
    mentions = []
    for m in _MENTION.finditer(text):
        word = m.group("word") or m.group("cr")
        kind = "section" if word.lower().startswith("section") else "rule"
        if kind == "section" and not sections:
            continue
        items: list[MentionItem] = []
        list_start = m.start("list")
        for item in _ITEM.finditer(m.group("list")):
            first = parse_number(item.group("n"))
            if items and len(first[0]) != len(items[0].first[0]):
                break
            last = _range_end(first, item.group("end") or item.group("tail"))
            if last is None:
                numbers = [first]
            elif first[:-1] == last[:-1]:
                numbers = expand_range(first, last[-1]) or [first, last]
            else:
                numbers = [first, last]
            items.append(MentionItem(list_start + item.start(), list_start + item.end(),
                                     first, last, numbers))
        if not items:
            continue
        end = items[-1].end
        mentions.append(Mention(text[m.start():end], m.start(), end,
                                [n for i in items for n in i.numbers], kind, items, word))
    return mentions


def _range_end(first: Segments, written: str | None) -> Segments | None:
    """The last number of a range: "337.1–4" ends at 337.4, "601.2a–f" at 601.2f,
    "337.1–337.4" at 337.4 (a short end replaces the last segments of the first)."""
    if not written:
        return None
    end = parse_number(written) if written[0].isdigit() else (written,)
    if len(end) >= len(first):
        return end
    return first[: len(first) - len(end)] + end
