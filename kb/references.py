"""Cross-references inside rule text: "See rule 349. Playing Cards", "(see rule 101.4)",
"rules 601.2a–f", "rules 119.7–8", "rules 702.19 and 702.20", "See section 8".

Finding mentions is separate from resolving them: :func:`find_mentions` returns the
numbers a text names (with offsets), and the graph builder resolves them in an edition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.numbers import Segments, expand_range, parse_number

# A rule number as rule text writes it: 349, 101.4, 601.2a, 337.1.a, 464.2.c.1.a.
NUMBER = r"\d{1,3}(?:\.(?:\d{1,3}[a-z]?|[a-z])(?![A-Za-z]))*"
_DASH = "[\u2013\u2014-]"
_RANGE_TAIL = rf"(?:{_DASH}(?:\d{{1,3}}|[a-z])(?![\w]))?"
_ITEM = re.compile(rf"(?P<n>{NUMBER})(?:{_DASH}(?P<tail>\d{{1,3}}|[a-z])(?![\w]))?")
_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+)"
_MENTION = re.compile(
    rf"\b(?P<word>[Rr]ules?|[Ss]ections?)\s+"
    rf"(?P<list>{NUMBER}{_RANGE_TAIL}(?:{_SEP}{NUMBER}{_RANGE_TAIL})*)"
)


@dataclass(slots=True)
class Mention:
    """Numbers named by one reference phrase, in the order written."""

    text: str
    start: int
    end: int
    numbers: list[Segments]
    kind: str  # "rule" or "section"


def find_mentions(text: str) -> list[Mention]:
    """Every "rule N" / "rules N–M" / "section N" phrase in a rule's text.

    >>> [m.numbers for m in find_mentions("See rules 601.2a–c and 605.")]
    [[('601', '2', 'a'), ('601', '2', 'b'), ('601', '2', 'c'), ('605',)]]
    """
    mentions = []
    for m in _MENTION.finditer(text):
        numbers: list[Segments] = []
        list_start = m.start("list")
        end = m.end("list")
        for item in _ITEM.finditer(m.group("list")):
            first = parse_number(item.group("n"))
            tail = item.group("tail")
            if tail:
                numbers.extend(expand_range(first, tail) or [first])
            else:
                numbers.append(first)
            end = list_start + item.end()
        kind = "section" if m.group("word").lower().startswith("section") else "rule"
        mentions.append(Mention(text[m.start():end], m.start(), end, numbers, kind))
    return mentions
