"""Riftbound Core Rules as Markdown made from the PDF, in whatever flavour a converter chose.

The grammar of the ids is Riftbound's (``103.``, ``103.1.b.``, ``464.2.c.1.a.``, the last dot
sometimes lost); the layout only decorates them. A line holds a numbered entry when, past
its decorations, it starts with an id:

* a heading marker of any depth (``## 100.``, ``### 337. Step 1: Finalize``,
  ``#### 103.1. 1 Champion Legend``): a top-level id is a chapter or section heading, a
  deeper id is a rule printed as a heading;
* bold or italic ids (``**103.1.a.**``, ``__103.1.__``, ``_103.1._``), after an optional
  bullet (``-``, ``*``, ``+``) or quote marker (``>``);
* a plain id (``130.4 Effects…``) at the start of a paragraph (after a blank line or a
  heading), or followed by two or more spaces (edition 1.4 pads fifth-level ids).

A top-level id that is not a heading, bold or plain, is a heading or a rule as its text says,
as in plain text: converters bold every id they did not make a heading, titles among them
(1.4 prints ``**188.** Control`` over ``**189.** Control is the concept…`` where its PDF
prints a heading), so the emphasis says nothing of the kind.

An export that attaches letters to the number before them, Magic's way (``135.2e.5a.``, on
three ids or more), is read with Riftbound's dots (``135.2.e.5.a.``), and a note says so.

Everything else continues the entry above: hard-wrapped lines, indented continuation
lines, text after a ``Page N`` marker (a rule split by a page break). Which heading level
means what is read from the document: where top-level ids are headings at two levels the
outer is a chapter and the inner a section (edition 1.4); at a single level the text
decides (:func:`kb.read.riftbound_entries.looks_like_title`), as for exports without heading
markup. Setext headings (a line over ``===`` or ``---``) are headings of depth 1 and 2.
A heading whose number is also printed as a rule is a stale heading: the rule wins. The
entries then go through :class:`kb.read.riftbound_entries.Entries`, the repairs every
Riftbound export shares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kb.model import Diagnostic, RawRule, ReadResult, RuleKind
from kb.numbers import format_number, try_parse_number
from kb.read.riftbound_entries import (ID, Entries, find_date, note_cut_without_line_end,
                                       unknown_ids_said)
from kb.read.normalise import without_contents_list
from kb.read.text import MIN_RULE_LINES, clean

FORMAT = "riftbound-md"

_PAGE = re.compile(r"^(?:#{1,6}\s+)?(?:\*\*)?Page\s+\d+(?:\*\*)?\s*$", re.IGNORECASE)
_RULE_LINE = re.compile(r"^(?:-{3,}|\*{3,}|_{3,})\s*$")  # a horizontal rule
_TITLE = re.compile(r"^#\s+(?!\d{3}\.)(\S.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(" + ID + r")(?=\s|$)\s*(.*)$")
# A setext heading's underline: ``===`` under a first-level heading, ``---`` under a second.
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_MARKERS = re.compile(r"^(?:>\s*)?(?:[-*+]\s+)?")
# A numbered line, and one that is a list item: where most are, the list is the layout (a
# web page's <li>s), and its bullets are no rule's text.
_ANY_ID = re.compile(r"^\s*(?:>\s*)?(?:[-*+]\s+)?(?:\*\*|__|_)?\d{3}\.")
_LISTED_ID = re.compile(r"^\s*(?:>\s*)?[-*+]\s+(?:\*\*|__|_)?\d{3}\.")
_EMPHASIS = re.compile(r"^(\*\*|__|\*|_)(" + ID + r")\1(?=\s|$)\s*(.*)$")
# An id in emphasis whose parts the reader does not know: a part of several letters, as a
# future edition numbering a level in roman numerals may print ("**103.1.b.ii.**").
_UNKNOWN_ID = re.compile(r"^(\*\*|__)(\d{3}(?:\.[0-9a-z]+)+\.?)\1(?=\s|$)")
_PLAIN = re.compile(r"^(" + ID + r")([ \t\u00a0]+)(\S.*)$")
_PLAIN_PADDED = re.compile(r"^" + ID + r"[ \t\u00a0]{2,}\S")
# Emphasis a converter added to words (``_Fury_``, ``**Tank**``); a lone ``*`` (``A*``,
# ``“*”``) is the publisher's and stays.
_EMPHASIS_IN_TEXT = re.compile(r"(?<![\w*_])(\*\*|__|\*|_)(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![\w*_])")


def sniff(text: str) -> int:
    """Bold rule ids (``**103.1.a.**``, also after a bullet) and headings holding ids
    (``### 101. Deck Construction``) mark this format; Magic's attached letters (``100.1a``)
    or one-digit chapter headings (``## 1. Game Concepts``) mark Magic's."""
    head = text[:200_000]
    # Magic's subrule ids glue their letter to the number (100.1a); Riftbound's never do.
    magic = len(re.findall(r"(?m)^(?:[#>*+-]+[ \t]+)?(?:\*\*|__)?\d{3}\.\d+[a-z](?![.\w])", head))
    riftbound = len(re.findall(r"(?m)^(?:[#>*+-]+[ \t]+)?(?:\*\*|__)?\d{3}\.\d+\.[a-z]\b", head))
    # Magic numbers its chapters with one digit ("## 1. Game Concepts"), Riftbound with three.
    magic_chapters = len(re.findall(r"(?m)^#{1,6}[ \t]+(?:\*\*|__)?\d\.[ \t]", head))
    if magic > riftbound or magic_chapters >= MIN_RULE_LINES:
        return 0
    bold = len(re.findall(r"(?m)^(?:[-*+>]\s+)?(?:\*\*|__)\d{3}(?:\.\w+)*\.?(?:\*\*|__)", head))
    headings = len(re.findall(r"(?m)^#{2,6}\s+\d{3}(?:\.\w+)*\.?(?:\s|$)", head))
    found = bold + headings
    return 0 if found < MIN_RULE_LINES else min(100, 60 + found)


@dataclass(slots=True)
class _Line:
    """One numbered line: where it is, its id as printed, its text and its heading depth."""

    lineno: int
    raw_id: str
    text: str
    hashes: int  # heading depth, 0 when the id is not a heading
    top: bool  # a top-level id (``103.``)


# An id whose letters are attached to the number before them, Magic's way (``135.2e.5a.``),
# at the start of a line (past a heading's hashes, a bullet, bold): a letter with more after it.
_ATTACHED = re.compile(r"^(?P<lead>(?:#{1,6}[ \t]+|[-*+>][ \t]+)?(?:\*\*|__)?)"
                       r"(?P<id>\d{3}(?:\.\d{1,3}[a-z]?)+(?:\.[0-9a-z]{1,3})*\.)(?=(?:\*\*|__)?[ \t])")
_LETTER_AFTER_DIGIT = re.compile(r"(?<=\d)([a-z])")


def _letters_dotted(lines: list[str]) -> tuple[list[str], int]:
    """The lines with each id that attaches its letters (``135.2e.5a.``) written with
    Riftbound's dots (``135.2.e.5.a.``), when at least three ids do so, and how many."""
    attached = [(i, m) for i, ln in enumerate(lines) if (m := _ATTACHED.match(ln))
                and _LETTER_AFTER_DIGIT.search(m["id"])]
    if len(attached) < MIN_RULE_LINES:
        return lines, 0
    out = list(lines)
    for i, m in attached:
        out[i] = m["lead"] + _LETTER_AFTER_DIGIT.sub(r".\1", m["id"]) + lines[i][m.end():]
    return out, len(attached)


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    title = ""
    items: list[_Line | tuple[int, str]] = []  # numbered lines, and (line, text) between them
    unread: list[tuple[int, str]] = []  # (line, id) of the ids whose parts the reader does not know
    paragraph_start = True
    lines, contents = without_contents_list(text.split("\n"), source)
    lines, dotted = _letters_dotted(lines)
    listed, numbered_lines = _listed(lines)
    keep_bullets = not (listed >= MIN_RULE_LINES and 2 * listed > numbered_lines)
    for lineno, line in enumerate(_atx(lines), start=1):
        stripped = line.strip()
        if not stripped or _PAGE.match(stripped) or _RULE_LINE.match(stripped):
            paragraph_start = paragraph_start or not stripped
            continue
        if not title and not items and (m := _TITLE.match(stripped)):
            title = clean(m.group(1))
            paragraph_start = True
            continue
        numbered = _numbered(stripped, line, lineno, paragraph_start, keep_bullets)
        if numbered is None and (unknown := _UNKNOWN_ID.match(_MARKERS.sub("", stripped, count=1))):
            unread.append((lineno, unknown.group(2)))
        if numbered is not None:
            numbered.text = _plain(numbered.text)
            items.append(numbered)
        elif stripped.startswith("#"):
            items.append((lineno, _plain(stripped.lstrip("#").strip())))
        else:
            items.append((lineno, _plain(stripped)))
        paragraph_start = stripped.startswith("#")
    entries = Entries(source)
    entries.diagnostics.extend(contents)
    if not keep_bullets:
        entries.diagnostics.append(Diagnostic(
            f"{listed} of the {numbered_lines} numbered lines are list items: the list is the "
            "layout, its bullets are not read as the rules' text", source, 0, "info"))
    if dotted:
        entries.diagnostics.append(Diagnostic(
            f"{dotted} rule ids attach their letters to the number before them ('135.2e.5a.'): "
            "read as Riftbound numbers them ('135.2.e.5.a.')", source, 0, "info"))
    entries.diagnostics.extend(unknown_ids_said(unread, source))
    header: list[str] = []
    kinds = _heading_kinds([i for i in items if isinstance(i, _Line)])
    rule_numbers = {try_parse_number(i.raw_id) for i in items if isinstance(i, _Line) and not i.hashes}
    for item in items:
        if isinstance(item, tuple):
            lineno, body = item
            if entries.started:
                entries.extend(body, lineno)
            else:
                header.append(clean(body))
            continue
        kind: RuleKind | None = "rule"
        if item.hashes and item.top:
            if try_parse_number(item.raw_id) in rule_numbers:
                entries.diagnostics.append(Diagnostic(
                    f"heading '{'#' * item.hashes} {item.raw_id} {clean(item.text)}' collides with "
                    f"rule {item.raw_id}; the rule wins", source, item.lineno, "info"))
                continue
            kind = kinds.get(item.hashes)
        elif item.top:
            # Emphasis (or none) marks the id, not its kind: a converter bolds the numbers of
            # rules and of headings it did not make headings alike (1.4's "**188.** Control"
            # over "**189.** Control is the concept…"), so the text decides, as in plain text.
            kind = None
        entries.start(item.raw_id, item.text, item.lineno, kind)
    rules = entries.finish()
    _note_cut(text, rules, entries)
    head = "\n".join(header)
    return ReadResult(rules, [], title or "Riftbound Core Rules",
                      find_date(head) or find_date(clean(text[:5000])), "dotted", entries.diagnostics)


def _note_cut(text: str, rules: list[RawRule], entries: Entries) -> None:
    """Report a file cut short where the entries cannot tell (they report a rule that stops
    mid-sentence at a lower-case word): the last line's emphasis left open (``**174.1.``),
    a heading with no rule under it, or the file ending inside a rule's sentence without a
    line end (``Legends are Gam``)."""
    if not rules or any("truncated?" in d.message for d in entries.diagnostics):
        return
    lines = text.rstrip().split("\n")
    last = lines[-1].strip()
    if _RULE_LINE.match(last):
        return
    if last.count("**") % 2 or last.count("__") % 2:
        entries.note(f"the document ends inside Markdown emphasis left open ({last[-30:]!r}; is it "
                     "truncated?); what precedes the cut is read", len(lines))
        return
    rule = rules[-1]
    if rule.kind != "rule":  # a heading over nothing: the rules under it were cut off
        entries.note(f"the document ends at heading {format_number(rule.number)}, with no rule under "
                     "it (is it truncated?); what precedes the cut is read", len(lines))
        return
    note_cut_without_line_end(text, rules, entries)


def _atx(lines: list[str]) -> list[str]:
    """Setext headings written with hashes (``100. Game Concepts`` over ``===`` is
    ``# 100. Game Concepts``), the underline left blank so that the lines keep their numbers.
    A paragraph's one line over ``---`` is a heading; under a line of text, ``---`` stays a
    horizontal rule only where a blank line precedes it."""
    out = list(lines)
    for i in range(1, len(lines)):
        m = _SETEXT.match(lines[i])
        above = lines[i - 1].strip()
        if (m and len(m.group(1)) >= 3 and above and not above.startswith(("#", ">", "-", "*", "<"))
                and (i == 1 or not lines[i - 2].strip())):
            out[i - 1] = ("#" if m.group(1)[0] == "=" else "##") + " " + above
            out[i] = ""
    return out


def _listed(lines: list[str]) -> tuple[int, int]:
    """How many lines start with a number after a list bullet, and with a number at all."""
    listed = numbered = 0
    for line in lines:
        if line[:1] in "-*+> \t0123456789_" and _ANY_ID.match(line):
            numbered += 1
            listed += bool(_LISTED_ID.match(line))
    return listed, numbered


def _numbered(stripped: str, line: str, lineno: int, paragraph_start: bool,
              keep_bullets: bool = True) -> _Line | None:
    """The numbered entry a line starts, or None for a line of text (a list bullet before its
    id kept as the text's unless ``keep_bullets`` is false)."""
    m = _HEADING.match(stripped)
    if m:
        return _Line(lineno, m.group(2), m.group(3), len(m.group(1)), _is_top(m.group(2)))
    if stripped.startswith("#"):
        return None
    markers = _MARKERS.match(stripped)
    bare = stripped[markers.end():] if markers else stripped
    # The publisher bullets a few rules ("053.1. • Units…"); a converter that makes them a
    # list moves the bullet before the id. It stays the text's, as the PDF text prints it.
    bullet = "* " if keep_bullets and markers and markers.group(0).lstrip(">").strip() else ""
    m = _EMPHASIS.match(bare)
    if m:
        return _Line(lineno, m.group(2), bullet + m.group(3), 0, _is_top(m.group(2)))
    m = _PLAIN.match(bare)
    if m and "." in m.group(1) and (paragraph_start or _PLAIN_PADDED.match(line.rstrip())):
        return _Line(lineno, m.group(1), bullet + m.group(3), 0, _is_top(m.group(1)))
    return None


def _plain(text: str) -> str:
    """Text without the emphasis markup of the conversion."""
    return _EMPHASIS_IN_TEXT.sub(r"\2", text) if ("*" in text or "_" in text) else text


def _is_top(raw_id: str) -> bool:
    return raw_id.rstrip(".").count(".") == 0


def _heading_kinds(lines: list[_Line]) -> dict[int, RuleKind | None]:
    """What each heading depth means for top-level ids: with two depths or more, the
    outermost holds chapters and the others sections; a single depth, whichever it is
    (``##``, ``####``, a setext ``---``), leaves it to the text (None): the entries a
    conversion heads alike are chapters and sections both."""
    depths = sorted({ln.hashes for ln in lines if ln.hashes and ln.top})
    if len(depths) == 1:
        return {depths[0]: None}
    return {d: ("chapter" if d == depths[0] else "section") for d in depths}
