"""Excerpts of a rule with the words a query matched in ``<mark>``.

The rule text is HTML-escaped; only the ``<mark>`` tags are markup. Words are matched the
way the index matches them (by stem), so "passes" in a rule is marked for "pass".
"""

from __future__ import annotations

import html
from collections.abc import Callable

from kb.search.schema import WORD, stem

EXCERPT_CHARS = 240


def matcher(stems: set[str], prefixes: tuple[str, ...] = ()) -> Callable[[str], bool]:
    """A test for one word of rule text: does the query match it?"""
    def matches(word: str) -> bool:
        low = word.lower()
        return stem(low) in stems or (bool(prefixes) and low.startswith(prefixes))
    return matches


def count_matches(text: str, matches: Callable[[str], bool]) -> int:
    """How many words of ``text`` the query matches."""
    return sum(1 for m in WORD.finditer(text) if matches(m.group()))


def excerpt(text: str, matches: Callable[[str], bool], width: int = EXCERPT_CHARS) -> str:
    """Up to ``width`` characters of ``text`` around the first match, as HTML."""
    spans = [(m.start(), m.end()) for m in WORD.finditer(text) if matches(m.group())]
    start, end = 0, len(text)
    if len(text) > width:
        first = spans[0][0] if spans else 0
        start = max(0, first - width // 4)
        if start:
            space = text.find(" ", start)
            start = space + 1 if 0 <= space < first else start
        end = min(len(text), start + width)
        if end < len(text):
            space = text.rfind(" ", start, end)
            end = space if space > start else end
    out = ["…" if start else ""]
    pos = start
    for s, e in spans:
        if s < start or e > end:
            continue
        out.append(html.escape(text[pos:s]))
        out.append(f"<mark>{html.escape(text[s:e])}</mark>")
        pos = e
    out.append(html.escape(text[pos:end]))
    out.append("…" if end < len(text) else "")
    return "".join(out)
