"""Readers: one module per document format, each turning a document into a ReadResult.

Every reader module defines ``FORMAT`` (its name), ``sniff(text) -> int`` (how sure it is,
0–100, that the text is in its format) and ``read(text, source) -> ReadResult``. Nothing
outside this package knows about formats. A PDF, DOCX, ODT, EPUB or RTF file is unpacked into
text first (:mod:`kb.read.containers`), and that text is sniffed and read like any other.

An export of the rules as data (a JSON document, a CSV table: :mod:`kb.read.exports`) or a
wiki page's source (:mod:`kb.read.wikitext`) is written out as the paragraphs the release
prints; a text in reStructuredText, AsciiDoc or Org mode has its marks made Markdown's
(:mod:`kb.read.markup`). Before a reader sees the text, the reading stage undoes what any layout may do
(:mod:`kb.read.normalise`: invisible characters, Unicode spaces, anchors around numbers,
pages with running headers), and a whole web page that no reader of markup takes is turned
into Markdown (:mod:`kb.read.web_page`). The lines of rules and notes are the document's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from kb.model import Diagnostic, DocumentError, ReadResult
from kb.read import mtg_text, riftbound_html, riftbound_md, riftbound_pdftext, riftbound_table
from kb.read.containers import unpack
from kb.read.exports import exported
from kb.read.kinds import check_kind
from kb.read.markup import from_markup
from kb.read.normalise import Normalised, normalise
from kb.read.text import MIN_RULE_LINES, decode
from kb.read.web_page import is_web_page, to_markdown
from kb.read.wikitext import from_wikitext

READERS: dict[str, ModuleType] = {
    m.FORMAT: m
    for m in (riftbound_md, riftbound_html, riftbound_pdftext, riftbound_table, mtg_text)
}

# The readers that read HTML markup themselves (a web page they take is not converted).
MARKUP_FORMATS = tuple(name for name, m in READERS.items() if getattr(m, "MARKUP", False))
EXPECTED = ("a rule number at the start of a line: Magic's '100.1.' or '100.1a', Riftbound's "
            "'103.1.b.', bare or in Markdown ('## 100.', '**103.1.**', '- 100.1.') or HTML markup")
_NUMBERED_LINE = re.compile(r"^\W{0,6}(?:[A-Za-z]{1,12}\s+)?\d{1,3}\b")
# A line that looks like a rule line to anyone ("Rule 100.1:", "**103.1.b.**", "- 100.1a"):
# a rule number's shape (three digits, a dot, a digit) among its first words.
_RULE_SHAPED = re.compile(r"^[^\w\n]{0,6}(?:[A-Za-z]{1,12}[ \t]+)?\d{3}\.\d", re.M)
_READ_SHARE = 0.5  # fewer rules than this share of the rule-shaped lines: a partial parse

__all__ = ["EXPECTED", "READERS", "detect_format", "read_bytes", "read_document", "read_text"]


def detect_format(text: str, source: str = "", place: Callable[[int], int] | None = None) -> str:
    """Name the format of a document, or raise DocumentError when no reader knows it: the
    error says what a rule line was expected to look like, at the first line that looks
    numbered (line 1 when none does). ``place`` gives the document's line of a line of
    ``text`` (a normalised text's lines are not the document's) for the lines the message
    names; the error's own line is ``text``'s."""
    place = place or (lambda n: n)
    scores = sorted(((m.sniff(text), name) for name, m in READERS.items()), reverse=True)
    best, name = scores[0]
    if best <= 0:
        lines = text.split("\n")
        numbered = [i for i, ln in enumerate(lines) if _NUMBERED_LINE.match(ln.strip())]
        if 0 < len(numbered) < MIN_RULE_LINES:  # too short to tell its layout, whatever it is
            shown = ", ".join(f"line {place(i + 1)} {lines[i].strip()[:40]!r}" for i in numbered)
            raise DocumentError([Diagnostic(
                f"unknown document format: the document has only {len(numbered)} numbered "
                f"line{'s' if len(numbered) > 1 else ''} ({shown}), and a reader needs "
                f"{MIN_RULE_LINES} rule lines in its layout to recognise it; name its format with "
                f"--format (formats: {', '.join(sorted(READERS))})", source, numbered[0] + 1)])
        # the first line shaped like a rule line ("Rule 100.1: …"), else the first numbered one
        at = next((i for i, ln in enumerate(lines) if _RULE_SHAPED.match(ln.strip())),
                  numbered[0] if numbered else None)
        seen = (f"; line {place(at + 1)} starts {lines[at].strip()[:40]!r}, which no reader takes for a "
                "rule" if at is not None else "; no line starts with a number")
        raise DocumentError([Diagnostic(
            f"unknown document format: no reader recognises its layout. Expected {EXPECTED}{seen} "
            f"(formats: {', '.join(sorted(READERS))}; choose one with --format)", source,
            at + 1 if at is not None else 1)])
    return name


def read_text(text: str, source: str = "", fmt: str | None = None, *, ruleset: str = "",
              ruleset_title: str = "") -> ReadResult:
    """Read decoded text with the named reader (auto-detected when ``fmt`` is None), after
    the reading stage's normalisation; the lines of the rules and notes are the text's.
    Given the ruleset it is read for, a document whose title names another kind (the
    Tournament Rules for the Core Rules' ruleset) is refused (:mod:`kb.read.kinds`)."""
    return _read(text, source, fmt, ruleset, ruleset_title)[0]


def _read(text: str, source: str, fmt: str | None, ruleset: str = "",
          ruleset_title: str = "") -> tuple[ReadResult, str]:
    """Read decoded text (for a ruleset, when named); the result and the format it was read as."""
    if fmt is not None and fmt not in READERS:
        raise DocumentError([Diagnostic(
            f"unknown format {fmt!r} (formats: {', '.join(sorted(READERS))})", source, 0)])
    normal = _normalised(text, source, fmt)
    try:
        if fmt is None:
            try:
                fmt = detect_format(normal.text, source, normal.line)
            except DocumentError:
                _refuse_unnumbered(0, normal.text, source)  # what is missing, where it is so
                if normal.reader is None:
                    raise
                fmt = normal.reader  # an export's records are rules: their numbers tell whose
                normal.notes.append(Diagnostic(
                    f"the export's paragraphs carry no layout's marks a reader knows (too few "
                    f"rules, no headings): read as {fmt}, the reader its rule numbers call for",
                    source, 0, "info"))
        reader: Callable[[str, str], ReadResult] = READERS[fmt].read
        result = reader(normal.text, source)
        _refuse_unnumbered(len(result.rules), normal.text, source)
        # on the reader's own lines, which are the normalised text's: refused at the document's
        _refuse_partial(result, normal, source, fmt)
        if ruleset:
            check_kind(normal.text, source, ruleset, ruleset_title, fmt)
    except DocumentError as err:
        raise DocumentError([_relocated(d, normal) for d in err.diagnostics]) from err
    _relocate(result, normal)
    if not result.rules:
        raise DocumentError([Diagnostic(f"no numbered rules found (read as {fmt}); expected {EXPECTED}",
                                        source, 1)]
                            + [d for d in result.diagnostics if d.severity == "error"])
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors:
        raise DocumentError(errors)
    return result, fmt


def _refuse_partial(result: ReadResult, normal: Normalised, source: str, fmt: str) -> None:
    """Refuse a silent partial parse: a reader that took fewer than half of the lines shaped
    like rule lines for rules read a layout it does not know (``Rule 100.1: …``); the error
    names the first such line no rule starts at. The rules' lines are the normalised text's
    (as the reader read it, before :func:`_relocate`): the error is at its line there, and
    its message names the document's line."""
    text = normal.text
    shaped = [m.start() for m in _RULE_SHAPED.finditer(text)]
    if not result.rules or len(result.rules) >= _READ_SHARE * len(shaped):
        return
    starts = {r.line for r in result.rules}
    line_of = [text.count("\n", 0, at) + 1 for at in shaped]
    first = next((n for n in line_of if n not in starts), line_of[0])
    shown = text.split("\n")[first - 1].strip()[:40]
    raise DocumentError([Diagnostic(
        f"only {len(result.rules)} rules read (as {fmt}) from {len(shaped)} lines shaped like rule "
        f"lines: the layout is not one the reader knows; line {normal.line(first)} starts {shown!r}, which is "
        f"not read as a rule. Expected {EXPECTED}", source, first)])


_GAP = re.compile(r"\n[ \t]*\n")  # the blank line between two paragraphs
_UNNUMBERED_SHARE = 0.6  # of the paragraphs after the first numbered one (the releases: 0.31 at most)
_MIN_UNNUMBERED = 20


def _refuse_unnumbered(rules_read: int, text: str, source: str) -> None:
    """Refuse a text whose rules lost their numbers: text copied from a page that draws them
    (a rule viewer's lists, whose numbers a browser does not copy) keeps its headings' numbers
    and nothing else, and would read as a few rules holding all the others' words, or as no
    layout at all. Where most paragraphs after the first numbered one start with no number,
    and they outnumber the rules read, the error names the first of them (its line in
    ``text``)."""
    blocks = _GAP.split(text)
    numbered = [bool(_NUMBERED_LINE.match(b.lstrip())) for b in blocks]
    first = next((i for i, n in enumerate(numbered) if n), None)
    if first is None:
        return
    unnumbered = [i for i in range(first, len(blocks)) if not numbered[i] and blocks[i].strip()]
    body = len(unnumbered) + sum(numbered)
    if len(unnumbered) < max(_MIN_UNNUMBERED, rules_read, _UNNUMBERED_SHARE * body):
        return
    at = unnumbered[0]  # its line: the lines of the paragraphs above, two per blank line between
    line = 1 + sum(b.count("\n") for b in blocks[:at]) + 2 * at + len(blocks[at]) - len(blocks[at].lstrip("\n"))
    raise DocumentError([Diagnostic(
        f"{len(unnumbered)} of the {body} paragraphs after the first numbered one start with no rule "
        f"number ({rules_read} rules read): the rules' numbers are missing, as in text copied from a "
        "page that draws them (a rule viewer's lists, which a browser copies without their numbers). "
        "Import the page itself (saved as HTML, its lists keep the numbers) or the publisher's PDF; "
        f"expected {EXPECTED}", source, line)])


def _normalised(text: str, source: str, fmt: str | None) -> Normalised:
    """The text as the readers read it: an export of rules as data (JSON, CSV) or a wiki page's
    source written out as paragraphs (:mod:`kb.read.exports`, :mod:`kb.read.wikitext`),
    normalised, and a web page that no reader of markup takes turned into Markdown."""
    export = exported(text, source) or from_wikitext(text, source) or from_markup(text, source)
    if export is not None:
        normal = normalise(export.text, source)
        return Normalised(normal.text, [export.origin[min(normal.line(n), len(export.origin)) - 1]
                                        for n in range(1, normal.text.count("\n") + 2)],
                          export.notes + normal.notes, export.reader)
    normal = normalise(text, source)
    if not is_web_page(normal.text) or (fmt in MARKUP_FORMATS if fmt else
                                        any(READERS[f].sniff(normal.text) > 0 for f in MARKUP_FORMATS)):
        return normal
    markdown, origin = to_markdown(normal.text, source)
    note = Diagnostic("the document is a web page: its headings, paragraphs, list items and "
                      "definitions are read as Markdown paragraphs", source, 0, "info")
    return Normalised(markdown, [normal.line(n) for n in origin], normal.notes + [note])


def _relocated(note: Diagnostic, normal: Normalised) -> Diagnostic:
    return replace(note, line=normal.line(note.line)) if note.line > 0 else note


def _relocate(result: ReadResult, normal: Normalised) -> None:
    """Give the rules, terms and notes the document's lines, and put the normalisation's
    notes first."""
    for rule in result.rules:
        rule.line = normal.line(rule.line)
    for term in result.terms:
        term.line = normal.line(term.line)
    result.diagnostics = normal.notes + [_relocated(d, normal) for d in result.diagnostics]


def read_bytes(data: bytes, source: str = "", fmt: str | None = None, *, ruleset: str = "",
               ruleset_title: str = "") -> tuple[ReadResult, str]:
    """Read a document's bytes: a PDF, DOCX, ODT, EPUB or RTF is unpacked into text first
    (:mod:`kb.read.containers`), any other file decoded; returns the result and the format
    the text was read as. What the container did comes first among the notes, and a note
    on a line of an unpacked PDF names its page. Given the ruleset (and its title), a
    document of another kind is refused, as :func:`read_text` says."""
    unpacked = unpack(data, source)
    text = decode(data, source) if unpacked is None else unpacked.text
    try:
        result, fmt = _read(text, source, fmt, ruleset, ruleset_title)
    except DocumentError as err:
        if unpacked is None:
            raise
        raise DocumentError([_placed(d, unpacked.place(d.line)) for d in err.diagnostics]
                            + [Diagnostic(f"(the text was unpacked from a {unpacked.container.upper()})",
                                          source, 0, "info")]) from err
    if unpacked is not None:
        result.diagnostics = unpacked.notes + [_placed(d, unpacked.place(d.line))
                                               for d in result.diagnostics]
    return result, fmt


def _placed(note: Diagnostic, place: str) -> Diagnostic:
    """The note with the container's place of its line (``page 12``) added to its message."""
    return replace(note, message=f"{note.message} ({place})") if place else note


def read_document(path: Path, fmt: str | None = None) -> tuple[ReadResult, str]:
    """Read a document file (text, PDF, DOCX, ODT, EPUB or RTF); returns the result and the
    format used."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError([Diagnostic(f"cannot read the file: {exc.strerror}", str(path), 0)]) from exc
    return read_bytes(data, str(path), fmt)
