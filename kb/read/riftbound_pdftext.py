"""Riftbound Core Rules as raw PDF text (edition 1.2): ``# Title``, then ``## Page N`` markers;
also the plain lines a PDF or DOCX of the Core Rules unpacks into (:mod:`kb.read.containers`),
single-spaced and without markers.

Most rules are one line, ``333.1.a.  This  process…``: words separated by two spaces, a
space before punctuation (``Pending ,``), ``ﬁ``/``ﬂ`` ligatures and trailing spaces, all
undone by :func:`kb.read.text.clean`. A line without an id continues the rule above, also
across a ``## Page N`` marker (a rule split by a page break). The last dot of an id is
sometimes lost (``747.4  Weaponmaster…``). There is no heading markup: which top-level
entries are chapters and section headings is decided from their text
(:func:`kb.read.riftbound_entries.looks_like_title`).
"""

from __future__ import annotations

import re

from kb.model import ReadResult
from kb.read.riftbound_entries import (ID, Entries, find_date, looks_like_title, note_cut_without_line_end,
                                       unknown_ids_said)
from kb.read.normalise import without_contents_list
from kb.read.text import MIN_RULE_LINES, clean

FORMAT = "riftbound-pdftext"

_PAGE = re.compile(r"^##\s+Page\s+\d+\s*$")
_TITLE = re.compile(r"^#\s+(\S.*)$")
# An id, then the text; an id without its last dot needs a dotted part (``747.4``) so that a
# wrapped line starting with a count ("100  cards") is not taken for a rule.
_RULE = re.compile(r"^(\d{3}\.(?:(?:\d{1,3}|[a-z])\.)*(?:\d{1,3}|[a-z])?)(?:\s+(\S.*))?$")
# An id with a part the reader does not know (several letters: roman numerals, "103.1.b.ii.").
_UNKNOWN_ID = re.compile(r"^(\d{3}(?:\.[0-9a-z]+)*\.[a-z]{2,}(?:\.[0-9a-z]+)*\.)(?=\s|$)")
_DOUBLE_SPACED = re.compile(r"(?m)^" + ID + r"(?:  |\t)\S+  \S")  # a tab after the id too
# Plain single-spaced lines: ids three levels deep with a letter (``103.1.a. This…``), which
# Magic's numbering never has; any markup a richer format reads wins over them.
_PLAIN_DEEP = re.compile(r"(?m)^\d{3}\.\d{1,3}\.[a-z]\.?[ \t]\S")
# A wrapped reference: "See  rule" at the end of one line, "346.  Playing  Cards…" on the next.
_ENDS_WITH_REFERENCE_WORD = re.compile(r"(?:\b(?:rules?|see|and|or|through)|[,–-])\s*$",
                                       re.IGNORECASE)


def sniff(text: str) -> int:
    """Double-spaced rule lines (``103.1.a.  This  is…``) mark this format; page markers add.
    Plain single-spaced rule lines three levels deep mark it less surely (below 60, where the
    Markdown and HTML readers' markup starts)."""
    head = text[:200_000]
    lines = len(_DOUBLE_SPACED.findall(head))
    if lines < MIN_RULE_LINES:
        plain = len(_PLAIN_DEEP.findall(head))
        return 0 if plain < MIN_RULE_LINES else min(59, 40 + plain // 10)
    pages = bool(re.search(r"(?m)^##\s+Page\s+\d+\s*$", head))
    return min(100, 60 + lines // 10 + (20 if pages else 0))


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    entries = Entries(source)
    lines, contents = without_contents_list(text.split("\n"), source)
    entries.diagnostics.extend(contents)
    title = ""
    header: list[str] = []
    last_text = ""
    heading_line = False
    unread: list[tuple[int, str]] = []  # (line, id) of the ids whose parts the reader does not know
    for lineno, line in enumerate(lines, start=1):
        stripped = line.strip()
        if not stripped or _PAGE.match(stripped):
            continue
        m = _TITLE.match(stripped)
        if m and not entries.started and not title:
            title = clean(m.group(1))
            continue
        m = _RULE.match(stripped)
        # A heading ('700. Additional Rules') ends with no reference to wrap: only running text does.
        if m and not (entries.started and not heading_line
                      and _ENDS_WITH_REFERENCE_WORD.search(last_text)):
            entries.start(m.group(1), m.group(2) or "", lineno)
            heading_line = looks_like_title(clean(m.group(2) or ""))
        elif entries.started:
            if unknown := _UNKNOWN_ID.match(stripped):
                unread.append((lineno, unknown.group(1)))
            entries.extend(stripped, lineno)
            heading_line = False
        else:
            header.append(clean(stripped))
        last_text = stripped
    entries.diagnostics.extend(unknown_ids_said(unread, source))
    rules = entries.finish()
    note_cut_without_line_end(text, rules, entries)
    head = "\n".join(header)
    return ReadResult(rules, [], title or (header[0] if header else "") or "Riftbound Core Rules",
                      find_date(head) or find_date(clean(text[:3000])), "dotted", entries.diagnostics)
