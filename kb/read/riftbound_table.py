"""Riftbound Core Rules as a PDF-to-table export (MinerU; edition 1.0).

A ``# Riftbound Core Rules`` / ``Last Updated: 2025-06-02`` header, then one or more
``<table>`` elements (one per converted page range) of ``<tr><td>103.1.b.</td><td>text</td></tr>``
rows. A row with an empty id cell continues the rule above. Cell text keeps the PDF's line
breaks before ``Example:`` and ``See rule`` lines, and loses some of them between sentences
(``…Playing a Card.See rule 554…``), where a space is put back. Old symbols (``[S]`` for
Might, ``[T]`` for exhaust) are kept as written. There is no heading markup: chapters and
section headings are decided from their text
(:func:`kb.read.riftbound_entries.looks_like_title`).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from kb.model import Diagnostic, ReadResult
from kb.read.riftbound_entries import ID, Entries, feed_markup, find_date
from kb.read.text import MIN_RULE_LINES, clean

FORMAT = "riftbound-table"
MARKUP = True  # reads HTML markup itself (kb.read: a web page it takes is not converted)

_ROW_MARK = re.compile(r"<tr>\s*<t[dh][^>]*>\s*\d{3}\.", re.IGNORECASE)
_TITLE = re.compile(r"(?m)^#\s+(\S.*)$")
_ID_CELL = re.compile(ID)
# "…Playing a Card.See rule 554…": a sentence end glued to the next sentence.
_GLUED_SENTENCE = re.compile(r"(?<=[a-z]{2}[.!?])(?=[A-Z][a-z])")


def sniff(text: str) -> int:
    """Table rows whose first cell is a rule id (``<tr><td>103.1.``) mark this format."""
    rows = len(_ROW_MARK.findall(text[:200_000]))
    return 0 if rows < MIN_RULE_LINES else min(100, 70 + rows // 10)


class _TableParser(HTMLParser):
    """Collects ``(line, cells)`` per row; remembers open elements to report truncation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[tuple[int, list[str]]] = []
        self.open: list[tuple[str, int]] = []
        self.first_table_line = 0
        self._cells: list[list[str]] | None = None
        self._row_line = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag == "table":
            self.first_table_line = self.first_table_line or line
            self.open.append((tag, line))
        elif tag == "tr":
            self._cells, self._row_line = [], line
            self.open.append((tag, line))
        elif tag in ("td", "th") and self._cells is not None:
            self._cells.append([])
            self.open.append(("td", line))
        elif tag == "br" and self._in_cell():
            self.handle_data("\n")

    def handle_endtag(self, tag: str) -> None:
        tag = "td" if tag == "th" else tag
        if tag not in ("table", "tr", "td"):
            return
        # Close up to the matching element (MinerU sometimes omits an inner end tag).
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i][0] == tag:
                if self._cells is not None and any(role == "tr" for role, _ in self.open[i:]):
                    self.rows.append((self._row_line, ["".join(c) for c in self._cells]))
                    self._cells = None
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        if self._in_cell() and self._cells:
            self._cells[-1].append(data)

    def _in_cell(self) -> bool:
        return bool(self.open) and self.open[-1][0] == "td"


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    parser = _TableParser()
    entries = Entries(source)
    feed_markup(parser, text, entries)
    for line, cells in parser.rows:
        if not cells:
            continue
        rid = clean(cells[0])
        body = _GLUED_SENTENCE.sub(" ", "\n".join(cells[1:]))
        if not rid:
            if entries.started:
                entries.extend(body, line)
            continue
        if _ID_CELL.fullmatch(rid):
            entries.start(rid, body, line)
        elif entries.started:
            entries.diagnostics.append(Diagnostic(
                f"first cell {rid[:20]!r} is not a rule number; the row is read as text of the rule above",
                source, line, "warning"))
            entries.extend(rid + "\n" + body, line)
    if parser.open:
        role, line = parser.open[-1]
        entries.note(f"the document ends inside a <{role}> opened here (is it truncated?); what "
                     "precedes the cut is read", line)
    header = text[: text.find("<table")] if "<table" in text else text[:3000]
    title_match = _TITLE.search(header)
    return ReadResult(entries.finish(), [], clean(title_match.group(1)) if title_match else
                      "Riftbound Core Rules", find_date(header), "dotted", entries.diagnostics)
