"""Find rule citations in an article's text, with offsets into that text.

The grammar is :mod:`kb.references` (the one used for rule text): ``Rule 337.1.a``,
``rule 349``, ``Rules 337–340``, ``rules 337.1 and 337.4``, ``rule 337.1a``, ``CR 116.3d``,
``[CR 116.1]``, ``rules 601.2a–f``, "See rule 349. Playing Cards". Numbers are parsed by
:mod:`kb.numbers`, so ``337.1a`` and ``337.1.a`` are the same citation and ``337.1`` is
never part of ``337.10``. A bare number with no "rule"/"CR" before it is not a citation:
dates, prices, version numbers and "page 337" stay text.

A quotation right before or after a citation (``"…" (rule 312)``, ``rule 312 says "…"``)
is kept with it, so the resolver can compare it with the rule's text.

>>> [c.canonical for c in find_citations("See rules 337.1 and 337.4, then CR 116.3d.")]
['337.1', '337.4', '116.3.d']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from kb.numbers import Segments
from kb.references import find_phrases

CitationForm = Literal["rule", "cr", "bracket"]

# "Riftbound Core Rules 1.4", "Tournament Rules 2.0": a document and its version, not a rule.
_TITLE_BEFORE = re.compile(r"(?:Core|Tournament|Comprehensive|Riftbound|Magic|Game|Official)\s+$")
# A number that runs on into a time, a fraction or a date ("rule 10:30", "rules 12/05").
_RUNS_ON = re.compile(r"[:/]\d")
_QUOTE = re.compile(r"\"((?:[^\"\n]|\n(?!\s*\n)){1,1000}?)\"|“((?:[^”\n]|\n(?!\s*\n)){1,1000}?)”")
# Between a quotation and the citation that follows it: `"…" (rule 312)`, `"…", CR 116.1`.
_GAP_BEFORE = re.compile(r"^[ \t,;:.]{0,3}\n?[ \t]?[(\[]?[ \t]?(?:[Ss]ee[ \t\n]+)?$")
# Between a citation and the quotation after it: `rule 312 says: "…"`, `(CR 116.1): "…"`
# (a colon or a verb is needed: a quotation that merely follows belongs to what follows).
_GAP_AFTER = re.compile(r"^[)\]]?\s?(?::\s?|,?\s?(?:says|reads|states|provides)\s?:?\s?)$")
_WINDOW = 24


@dataclass(frozen=True, slots=True)
class Quote:
    """A quotation next to a citation: its text and its span (quote marks included)."""

    text: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Citation:
    """One cited number (or range) as written in the text.

    ``start``/``end`` is the span to link: the keyword with the first number of a phrase
    (``Rule 337.1.a``, ``CR 116.1``), the number alone for later items of a list.
    ``full_start``/``full_end`` also covers enclosing brackets (``[CR 116.1]``).
    ``numbers`` is what the text names, ranges expanded number by number; the resolver
    expands ranges again against an edition's document order.
    """

    start: int
    end: int
    text: str
    number: Segments
    numbers: tuple[Segments, ...]
    form: CitationForm
    last: Segments | None = None
    full_start: int = 0
    full_end: int = 0
    quote: Quote | None = field(default=None, compare=False)

    @property
    def is_range(self) -> bool:
        return self.last is not None

    @property
    def canonical(self) -> str:
        """Segments joined by dots, the style-neutral key (``116.3.d``)."""
        return ".".join(self.number)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


# Where a citation phrase may start: what count_phrases counts past the limit.
_PHRASE = re.compile(r"\b(?:[Rr][Uu][Ll][Ee][Ss]?|CR)[ \t\n\u00a0]*\[?\d")


def count_phrases(text: str, start: int = 0) -> int:
    """How many citation phrases (a keyword and a number) ``text`` holds from ``start``:
    what is left uncounted past a limit, counted at the regex engine's speed (a phrase
    may hold several citations, and a few phrases turn out not to be citations)."""
    return sum(1 for _ in _PHRASE.finditer(text, start))


def find_citations(text: str, limit: int | None = None) -> list[Citation]:
    """Every rule citation in ``text``, in document order (the first ``limit`` only, when
    given: finding stops there).

    Never raises; time is linear in the length of the text.

    >>> [(c.text, c.numbers) for c in find_citations("Rules 337–339")]
    [('Rules 337–339', (('337',), ('338',), ('339',)))]
    """
    if not isinstance(text, str) or not text:
        return []
    out: list[Citation] = []
    size = len(text)
    for phrase_start, _, keyword, items in find_phrases(text, sections=False):
        if keyword != "CR" and keyword.lower() not in ("rule", "rules"):
            continue
        if keyword.startswith("R") and keyword[-1] == "s" and _TITLE_BEFORE.search(
                text, max(0, phrase_start - 16), phrase_start) and len(items[0][2][0]) < 3:
            continue
        bracket = (keyword == "CR" and phrase_start > 0 and text[phrase_start - 1] == "["
                   and text.startswith("]", items[-1][1]))
        form: CitationForm = "bracket" if bracket else ("cr" if keyword == "CR" else "rule")
        enclosed = bracket and len(items) == 1  # the brackets belong to the one citation
        for i, (item_start, end, first, last, numbers) in enumerate(items):
            if end < size and text[end] in ":/" and _RUNS_ON.match(text, end):
                break
            start = phrase_start if i == 0 else item_start
            out.append(Citation(start, end, text[start:end], first, tuple(numbers), form, last,
                                start - 1 if enclosed else start, end + 1 if enclosed else end))
        if limit is not None and len(out) >= limit:
            del out[limit:]
            break
    if out and ('"' in text or "“" in text):
        quotes = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in _QUOTE.finditer(text)]
        out = _attach_quotes(text, out, quotes)
    return out


def _attach_quotes(text: str, citations: list[Citation],
                   quotes: list[tuple[int, int, str]]) -> list[Citation]:
    """Give a citation the quotation that ends just before it or starts just after it."""
    if not quotes:
        return citations
    ends = {end: (start, end, body) for start, end, body in quotes}
    starts = {start: (start, end, body) for start, end, body in quotes}
    out = []
    for c in citations:
        quote = None
        for pos in range(c.full_end, min(len(text), c.full_end + _WINDOW) + 1):
            if pos in starts and _GAP_AFTER.match(text[c.full_end:pos]):
                quote = starts[pos]
                break
        if quote is None:
            for pos in range(c.full_start, max(-1, c.full_start - _WINDOW), -1):
                if pos in ends and _GAP_BEFORE.match(text[pos:c.full_start]):
                    quote = ends[pos]
                    break
        if quote is not None:
            c = replace(c, quote=Quote(quote[2], quote[0], quote[1]))
        out.append(c)
    return out
