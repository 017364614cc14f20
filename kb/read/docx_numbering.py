"""Word's automatic list numbers: the number Word prints before a paragraph of a numbered list.

An official document is often authored with Word's multilevel lists: the paragraph's text is
``These Magic rules apply…`` and Word prints ``100.1.`` before it, from ``word/numbering.xml``.
python-docx gives the text only, so without this the rules of such a document have no numbers.

What is rendered (ECMA-376 Part 1, 17.9): a paragraph's list is its own ``w:numPr`` (``w:numId``,
``w:ilvl``) or its style's (through the styles it is based on; the level is then the one
whose ``w:pStyle`` is that style); ``w:numId`` 0 ends a list. Each ``w:num`` names an
``w:abstractNum``, and as Word does, the lists of one abstract numbering count on together;
a ``w:num``'s ``w:lvlOverride`` sets a level's ``w:startOverride`` (applied at the first
paragraph of that list) or replaces the level. A level counts from its ``w:start``; a
paragraph at a level restarts the deeper levels (or those whose ``w:lvlRestart`` says so);
``w:lvlText`` (``%1.%2%3``) prints each level's current value in its ``w:numFmt`` (decimal,
decimalZero, lower/upper letter, lower/upper roman, ordinal, cardinal text as decimal),
``w:isLgl`` prints all of them as decimals; Word 2010's custom ``001, 002, 003, ...`` (in
``mc:AlternateContent``) prints decimals with leading zeros (Riftbound's ``000.``); a bullet level or ``none`` prints no number, and
the paragraph keeps its text. The number is followed by one space (Word's tab, space, or
nothing, ``w:suff``, is set apart by a space as the text releases print it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docx.oxml.ns import qn

from kb.read.text import roman_numeral

if TYPE_CHECKING:
    from docx.document import Document
    from docx.text.paragraph import Paragraph

_LEVEL_FIELD = re.compile(r"%([1-9])")
_MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
_ZERO_PADDED = re.compile(r"zero(\d)")
# The formats printed as numbers; any other (a bullet, none, a picture) prints nothing.
_NUMBERED = {"decimal", "decimalZero", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman",
             "ordinal", "cardinalText", "ordinalText", "decimalEnclosedParen", "decimalFullWidth",
             "decimalHalfWidth"}


@dataclass
class _Level:
    """One level of a list: what it prints and where it counts from."""

    start: int = 1
    fmt: str = "decimal"
    text: str = ""
    restart: int | None = None  # the level (0-based) whose paragraph restarts this one; None: any above
    legal: bool = False
    style: str = ""  # the paragraph style that is at this level


@dataclass
class _Abstract:
    levels: dict[int, _Level] = field(default_factory=dict)
    counters: dict[int, int] = field(default_factory=dict)  # the current value of each level


@dataclass
class _Num:
    abstract: str
    starts: dict[int, int] = field(default_factory=dict)  # w:startOverride per level
    levels: dict[int, _Level] = field(default_factory=dict)  # w:lvl replaced by an override
    started: bool = False


def _val(element, tag: str) -> str | None:
    child = element.find(qn(tag)) if element is not None else None
    return None if child is None else child.get(qn("w:val"))


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def _format(element) -> str:
    """A level's number format: its ``w:numFmt``, or the one Word 2010 writes in markup
    compatibility (``mc:Choice``) for a custom format; the custom ``001, 002, 003, ...`` is
    read as decimals of that many digits (``zero3``), another custom one as decimals."""
    fmt = element.find(qn("w:numFmt"))
    if fmt is None:
        fmt = next(iter(element.iterfind(f"{{{_MC}}}AlternateContent/{{{_MC}}}Choice/{qn('w:numFmt')}")), None)
    value = fmt.get(qn("w:val"), "decimal") if fmt is not None else "decimal"
    if value == "custom":
        sample = (fmt.get(qn("w:format")) or "").split(",")[0].strip()
        return f"zero{len(sample)}" if sample.isdigit() and sample.startswith("0") else "decimal"
    return value


def _level(element) -> _Level:
    restart = element.find(qn("w:lvlRestart"))
    legal = element.find(qn("w:isLgl"))
    return _Level(start=_int(_val(element, "w:start"), 1), fmt=_format(element),
                  text=_val(element, "w:lvlText") or "",
                  restart=None if restart is None else _int(restart.get(qn("w:val")), 0) - 1,
                  legal=legal is not None and legal.get(qn("w:val"), "1") not in ("0", "false", "off"),
                  style=_val(element, "w:pStyle") or "")


def formatted(value: int, fmt: str) -> str:
    """A level's value as a list prints it in the format ``fmt`` (``3``, ``03``, ``c``, ``iii``)."""
    if fmt in ("lowerLetter", "upperLetter"):
        # Word's letters go a..z, then aa..zz, then aaa..: the letter repeated
        letter = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1) if value > 0 else ""
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt in ("lowerRoman", "upperRoman") and 0 < value < 4000:
        roman = roman_numeral(value)
        return roman.upper() if fmt == "upperRoman" else roman
    if fmt == "decimalZero":
        return f"{value:02d}"
    if (padded := _ZERO_PADDED.fullmatch(fmt)):
        return str(value).zfill(int(padded.group(1)))
    return str(value)


def _numbered(fmt: str) -> bool:
    return fmt in _NUMBERED or _ZERO_PADDED.fullmatch(fmt) is not None


class ListNumbers:
    """The numbers Word prints before the paragraphs of a document's lists, given in the
    document's order (:meth:`label`). Built from the document's numbering part and styles;
    a document without numbering numbers nothing."""

    def __init__(self, document: Document) -> None:
        self.abstracts: dict[str, _Abstract] = {}
        self.nums: dict[str, _Num] = {}
        self.style_numbering: dict[str, tuple[str | None, int | None]] = {}
        self.numbered = 0  # paragraphs given a number
        self.unnumbered = 0  # paragraphs of a list whose level prints no number (a bullet)
        self.unresolved = 0  # paragraphs in a list the numbering part does not define
        try:
            numbering = document.part.numbering_part.element
        except (KeyError, NotImplementedError, AttributeError):
            numbering = None
        if numbering is not None:
            for element in numbering.iterfind(qn("w:abstractNum")):
                abstract = _Abstract()
                for lvl in element.iterfind(qn("w:lvl")):
                    abstract.levels[_int(lvl.get(qn("w:ilvl")), 0)] = _level(lvl)
                self.abstracts[element.get(qn("w:abstractNumId"), "")] = abstract
            for element in numbering.iterfind(qn("w:num")):
                num = _Num(_val(element, "w:abstractNumId") or "")
                for override in element.iterfind(qn("w:lvlOverride")):
                    ilvl = _int(override.get(qn("w:ilvl")), 0)
                    start = _val(override, "w:startOverride")
                    if start is not None:
                        num.starts[ilvl] = _int(start, 1)
                    replaced = override.find(qn("w:lvl"))
                    if replaced is not None:
                        num.levels[ilvl] = _level(replaced)
                self.nums[element.get(qn("w:numId"), "")] = num
        self._styles = {s.style_id: s for s in document.styles} if self.nums else {}

    def _style_list(self, style_id: str) -> tuple[str | None, int | None]:
        """The list (numId) and level a paragraph style puts its paragraphs in, through the
        styles it is based on; (None, None) when it puts them in none."""
        if style_id not in self.style_numbering:
            found: tuple[str | None, int | None] = (None, None)
            style, seen = self._styles.get(style_id), set()
            while style is not None and style.style_id not in seen:
                seen.add(style.style_id)
                ppr = style.element.find(qn("w:pPr"))
                num_pr = ppr.find(qn("w:numPr")) if ppr is not None else None
                if num_pr is not None:
                    ilvl = _val(num_pr, "w:ilvl")
                    found = (_val(num_pr, "w:numId"), None if ilvl is None else _int(ilvl, 0))
                    break
                style = style.base_style
            self.style_numbering[style_id] = found
        return self.style_numbering[style_id]

    def label(self, paragraph: Paragraph) -> str:
        """The number Word prints before this paragraph (``100.1a``), or "" when it prints
        none. Call it for every paragraph in the document's order: a list counts as it goes."""
        ppr = paragraph._p.pPr
        num_pr = ppr.numPr if ppr is not None else None
        if not self.nums:
            self.unresolved += num_pr is not None and _val(num_pr, "w:numId") not in (None, "0")
            return ""
        style_id = paragraph._p.style or ""
        num_id = ilvl = None
        if num_pr is not None:
            num_id = _val(num_pr, "w:numId")
            own_level = _val(num_pr, "w:ilvl")
            ilvl = None if own_level is None else _int(own_level, 0)
        if num_id is None:
            num_id, style_level = self._style_list(style_id)
            ilvl = style_level if ilvl is None else ilvl
        num = self.nums.get(num_id or "")
        abstract = self.abstracts.get(num.abstract) if num is not None else None
        if num is None or abstract is None:  # numId 0, or a list the numbering does not hold
            self.unresolved += num_id not in (None, "0")
            return ""
        if ilvl is None:
            ilvl = next((n for n, lvl in sorted(abstract.levels.items()) if lvl.style == style_id), 0)
        levels = {**abstract.levels, **num.levels}
        level = levels.get(ilvl, _Level())
        counters = abstract.counters
        if not num.started and num.starts:
            for n, start in num.starts.items():
                if n < ilvl:
                    counters[n] = start
                elif n == ilvl:
                    counters[n] = start - 1
            for n in [n for n in counters if n > ilvl]:
                del counters[n]
        num.started = True
        counters[ilvl] = counters[ilvl] + 1 if ilvl in counters else level.start
        for n in [n for n in counters if n > ilvl]:
            deeper = levels.get(n, _Level())
            if deeper.restart is None or deeper.restart >= ilvl:
                del counters[n]
        if not _numbered(level.fmt) or not level.text:
            self.unnumbered += 1
            return ""
        self.numbered += 1

        def field_value(match: re.Match[str]) -> str:
            n = int(match.group(1)) - 1
            shown = levels.get(n, _Level())
            value = counters.get(n, shown.start)
            return formatted(value, "decimal" if level.legal and _numbered(shown.fmt) else shown.fmt)

        return _LEVEL_FIELD.sub(field_value, level.text).strip()
