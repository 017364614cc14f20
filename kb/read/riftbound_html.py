"""Riftbound rules as HTML rows (the riftboundoc converter: Core Rules 1.3, Tournament Rules).

Each entry is ``<div class="rule-row rule-KIND level-N"><div class="rule-id">103.1.b.</div>
<div class="rule-text">…</div></div>`` inside a ``rule-sheet`` div; KIND is ``chapter``,
``heading`` (a section heading at level 0, a short rule below), ``plain`` or ``cont``. A row
with an empty id continues the rule above (``rule-cont`` rows, and rows holding single
words of a broken line); the empty-id rows before the first number are the title and the
``Last Updated`` line. Text is HTML-escaped and keeps PDF artefacts: a space before
punctuation after bold terms (``Card , when``), which :func:`kb.read.text.clean` removes,
and mis-split ids, which :class:`kb.read.riftbound_entries.Entries` repairs.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from kb.model import Diagnostic, RawRule, ReadResult, RuleKind
from kb.read.riftbound_entries import Entries, ends_sentence, feed_markup, find_date
from kb.read.text import MIN_RULE_LINES, clean

FORMAT = "riftbound-html"
MARKUP = True  # reads HTML markup itself (kb.read: a web page it takes is not converted)

_ROW_MARK = re.compile(r"<div\s+class=\"rule-row\b")
_TITLE = re.compile(r"(?m)^#\s+(\S.*)$")
_FIELDS = {"rule-id": "id", "rule-text": "text"}


def sniff(text: str) -> int:
    """``rule-row`` divs mark this format."""
    rows = len(_ROW_MARK.findall(text[:200_000]))
    return 0 if rows < MIN_RULE_LINES else min(100, 70 + rows // 10)


class _Row:
    __slots__ = ("line", "classes", "id", "text")

    def __init__(self, line: int, classes: list[str]):
        self.line = line
        self.classes = classes
        self.id: list[str] = []
        self.text: list[str] = []


class _RowParser(HTMLParser):
    """Collects the rows; remembers where each open div started, to report truncation."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: list[_Row] = []
        self.open: list[tuple[str, int]] = []  # (role, line) of the divs not yet closed
        self.stray_close: int = 0
        self._row: _Row | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and self._field():
            self.handle_data("\n")
        if tag != "div":
            return
        classes = (dict(attrs).get("class") or "").split()
        line = self.getpos()[0]
        if "rule-row" in classes:
            role = "row"
            self._row = _Row(line, classes)
        elif self._row is not None and (field := next((_FIELDS[c] for c in classes if c in _FIELDS), None)):
            role = field
        else:
            role = "sheet" if "rule-sheet" in classes else "div"
        self.open.append((role, line))

    def handle_endtag(self, tag: str) -> None:
        if tag != "div":
            return
        if not self.open:
            self.stray_close = self.stray_close or self.getpos()[0]
            return
        role, _ = self.open.pop()
        if role == "row" and self._row is not None:
            self.rows.append(self._row)
            self._row = None

    def handle_data(self, data: str) -> None:
        field = self._field()
        if field and self._row is not None:
            getattr(self._row, field).append(data)

    def _field(self) -> str | None:
        role = self.open[-1][0] if self.open else None
        return role if role in ("id", "text") else None


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    parser = _RowParser()
    entries = Entries(source)
    feed_markup(parser, text, entries)
    header: list[str] = []
    for row in parser.rows:
        rid = clean("".join(row.id))
        body = "".join(row.text)
        if not rid:
            if entries.started:
                entries.extend(body, row.line)
            else:
                header.append(clean(body))
            continue
        entries.start(rid, body, row.line, _kind(row, rid, body, entries))
    unclosed = [(role, line) for role, line in parser.open if role in ("sheet", "row")]
    if unclosed:
        role, line = unclosed[-1]
        entries.note(f"the document ends inside the {'rule-sheet' if role == 'sheet' else 'rule-row'}"
                     " opened here (is it truncated?); what precedes the cut is read", line)
    if parser.stray_close:
        entries.diagnostics.append(Diagnostic("a closing </div> without its opening div", source,
                                              parser.stray_close, "warning"))
    rules: list[RawRule] = entries.finish()
    title_match = _TITLE.search(text[:2000])
    title = clean(title_match.group(1)) if title_match else (header[0] if header else "")
    return ReadResult(rules, [], title or "Riftbound Rules",
                      find_date("\n".join(header)) or find_date(text[:3000]), "dotted",
                      entries.diagnostics)


def _kind(row: _Row, rid: str, body: str, entries: Entries) -> RuleKind:
    """The kind the row's markup gives; a level-0 "heading" that is a sentence is a rule."""
    top_level = rid.rstrip(".").count(".") == 0
    if "rule-chapter" in row.classes and top_level:
        return "chapter"
    if "rule-heading" in row.classes and top_level:
        if ends_sentence(clean(body)):
            entries.diagnostics.append(Diagnostic(
                f"heading row {rid} is a sentence; read as a rule", entries.source, row.line, "info",
                rid.rstrip(".")))
            return "rule"
        return "section"
    return "rule"
