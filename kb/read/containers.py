"""Containers: a PDF or DOCX file turned into the text the readers read.

The rules are published as PDF (Riftbound's Core Rules; Magic's Comprehensive Rules too) and
as DOCX (Magic's). A container is known by its bytes, not its name: ``%PDF-`` starts a PDF, a
ZIP archive holding ``word/document.xml`` is a DOCX. Each is unpacked into plain lines, the
way the text releases print them (a paragraph a line, a blank line where the document leaves
a gap), and the readers then sniff and read that text as they read any other.

* **PDF** (:func:`pdf_text`, with :mod:`pypdf`'s layout extraction): the lines that repeat
  at the top or bottom of most pages (the document's title, ``Page 12 of 80``, a bare page
  number) are running headers and footers and go; a page printed in two columns is read
  column by column (and said); the lines a paragraph was wrapped into are joined again, a
  line being wrapped when the first word of the next one would not have fitted on it (the
  characters' widths are learnt from the document's own lines), also across a page break (a
  rule split by the break is one rule); a vertical gap is a blank line. Where the widths
  cannot tell (a full line ending a sentence), the words decide: one that opens paragraphs
  in this document (``Example:``, a rule number's shape) starts one, one that never ends a
  paragraph (``…See rule``) goes on, and the uncertain line ends are reported with their
  pages. A word hyphenated at a line end is joined when the document spells it whole
  elsewhere, or its halves are no words (``perma-`` ``nent``), and keeps its hyphen when the
  document spells it so or its halves are words (``two-`` ``player``). Where each run of
  text starts and ends on the page comes from pypdf's layout-mode extraction
  (``pypdf._text_extraction._layout_mode``, read in ``_layout_lines`` only; the code behind ``extract_text(extraction_mode=
  "layout")``; ``pyproject.toml`` bounds pypdf's version for it).
* **DOCX** (:func:`docx_text`, with :mod:`python-docx`): each paragraph of the body, tables'
  rows included, is a line; an empty paragraph, or the space a paragraph's spacing leaves,
  is a blank line; an indented paragraph is indented; heading styles become plain lines, as
  the PDF prints them; a paragraph of one of Word's numbered lists gets the number Word prints
  before it (``100.1a``, from ``word/numbering.xml``: :mod:`kb.read.docx_numbering`), which is
  not in its text.

* **RTF** (:mod:`kb.read.rtf`, with :mod:`striprtf`): a paragraph a line, empty paragraphs the gaps.
* **ODT and EPUB** (:mod:`kb.read.zipped`): a ZIP whose ``mimetype`` part names an OpenDocument
  text or an EPUB is read as one (its paragraphs; its spine's XHTML documents as web pages).

What a container did is told as reader notes (``info``); what it cannot do (an encrypted
PDF, a PDF without a text layer, a corrupt ZIP, a DOCX without a body) is a
:class:`DocumentError` naming the file, and the page for a PDF.
"""

from __future__ import annotations

import io
import logging
import re
import statistics
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import docx
import docx.document
import docx.opc.exceptions
from docx.enum.style import WD_STYLE_TYPE
import numpy as np
import pypdf
import pypdf.errors
from pypdf.generic import ContentStream
from docx.table import Table
from docx.text.paragraph import Paragraph

from kb.model import Diagnostic, DocumentError
from kb.read.docx_numbering import ListNumbers
from kb.read.normalise import EDGE_LINES, keeps_hyphen, running_keys
from kb.read.pdf_operations import operations
from kb.read.rtf import is_rtf, rtf_text
from kb.read.text import clean
from kb.read.zipped import epub_text, odt_text, package_of

PDF_SIGNATURE = b"%PDF-"
ZIP_SIGNATURE = b"PK\x03\x04"
DOCX_BODY = "word/document.xml"
MAX_DOCX_EXPANDED_BYTES = 128 * 1024 * 1024  # Magic's whole DOCX expands to a few MB
MAX_PDF_PAGES = 5_000  # Magic's Comprehensive Rules fill about 300

# A line's text, with the digits of page numbers folded, names a running header or footer.
_DIGITS = re.compile(r"\d+")
# Lines that are a page number whatever the document: "12", "- 12 -", "Page 12", "12 of 80".
_PAGE_NUMBER = re.compile(r"^(?:[-–—]\s*)?(?:page\s+)?#(?:\s*(?:of|/)\s*#)?(?:\s*[-–—])?$",
                          re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_HYPHENATED_END = re.compile(r"([^\W\d_]+)[-\u00ad]$")
_FIRST_WORD = re.compile(r"^([^\W\d_]+)")
_ENDS_PARAGRAPH = re.compile(r"[.:;!?][)\]”\"’']*$")  # a sentence's end, closing marks after it
_NEVER_CLOSES = 5  # a word seen this often inside lines, never at a paragraph's end, goes on
_COLUMN_LINES = 3  # lines starting at one place past a page's first third make a column there


@dataclass
class Unpacked:
    """The text of a container, the notes on how it was unpacked, and where each line was."""

    text: str
    container: str
    notes: list[Diagnostic] = field(default_factory=list)
    pages: list[int] = field(default_factory=list)  # the PDF page of each line (1-based)

    def place(self, line: int) -> str:
        """Where line ``line`` of the text was in the container (``page 12``), or ""."""
        if 0 < line <= len(self.pages) and self.pages[line - 1]:
            return f"page {self.pages[line - 1]}"
        return ""


def container_of(data: bytes) -> str | None:
    """``"pdf"``, ``"docx"`` (any ZIP: an ODT or EPUB is told from a DOCX when it is opened) or
    ``"rtf"`` when the bytes are one of those containers, else None."""
    # A PDF may have bytes before its signature (within its first 1024), then ends with %%EOF.
    if data.lstrip()[:5] == PDF_SIGNATURE or (PDF_SIGNATURE in data[:1024] and b"%%EOF" in data[-2048:]):
        return "pdf"
    if data.startswith(ZIP_SIGNATURE):
        return "docx"
    if is_rtf(data):
        return "rtf"
    return None


def unpack(data: bytes, source: str = "") -> Unpacked | None:
    """The text of a PDF, DOCX, ODT, EPUB or RTF file, or None when the bytes are no container
    (plain text).

    A file named ``.pdf``, ``.docx``, ``.odt``, ``.epub`` or ``.rtf`` whose bytes are not that
    container is refused: it would otherwise be read as text and misread."""
    kind = container_of(data)
    suffix = source.lower().rsplit(".", 1)[-1] if "." in source else ""
    if kind is None:
        if suffix in CONTAINERS or suffix in ("odt", "epub"):
            raise _refuse(source, f"is named .{suffix} but is not a {suffix.upper()} file "
                                  f"(its bytes do not start as one); is it damaged, or mis-named?")
        return None
    return CONTAINERS[kind](data, source)


def _said(exc: BaseException) -> str:
    """What a library's error says, in one short line (a damaged file's bytes cut off)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 120 else text[:119] + "…"


def _refuse(source: str, message: str, line: int = 0) -> DocumentError:
    return DocumentError([Diagnostic(message, source, line)])


# -- PDF ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Run:
    """A run of text shown on a page, where it starts and ends (the page's units, y upwards)."""

    text: str
    x0: float
    x1: float
    y: float
    size: float


@dataclass
class _Line:
    """A printed line of a page: its text and where it stands (the page's units, y upwards)."""

    text: str
    page: int
    x0: float
    x1: float
    y: float
    size: float
    column: int = 0
    gap_before: bool = False  # a paragraph gap above it in its column
    indented: bool = False  # set in from its column's left margin

    @property
    def char_width(self) -> float:
        """The line's mean character width (its words' widths are estimated with it)."""
        return (self.x1 - self.x0) / max(1, len(self.text)) or self.size / 2


def pdf_text(data: bytes, source: str = "") -> Unpacked:
    """The text of a PDF: every page's lines without running headers and footers, the
    paragraphs joined again (see the module docstring)."""
    with _pypdf_warnings() as warned:
        pages = _pdf_pages(data, source)
    notes = [Diagnostic(f"pypdf: {message}", source, 0, "warning") for message in dict.fromkeys(warned)]
    if not any(pages):
        raise _refuse(source, f"the PDF has no text layer ({len(pages)} page"
                              f"{'s' if len(pages) != 1 else ''} of images only: a scanned "
                              f"document?); import a PDF with text, or the text release")
    empty = [i + 1 for i, page in enumerate(pages) if not page]
    if empty:
        notes.append(Diagnostic(f"page{'s' if len(empty) > 1 else ''} {_ranges(empty)} of the "
                                f"PDF hold{'' if len(empty) > 1 else 's'} no text (images only?); "
                                f"what they show is not read", source, 0, "warning"))
    pages = _without_running_lines(pages, source, notes)
    lines = [line for i, page in enumerate(pages)
             for line in _in_reading_order(page, i + 1, source, notes)]
    text, where = _paragraphs(lines, source, notes)
    notes.insert(0, Diagnostic(f"read from a PDF of {len(pages)} pages", source, 0, "info"))
    return Unpacked(text, "pdf", notes, where)


@contextmanager
def _pypdf_warnings() -> Iterator[list[str]]:
    """What pypdf warns of while it reads (a damaged cross-reference table, text it cannot
    place), collected to become reader notes instead of lines on standard error."""
    messages: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            messages.append(record.getMessage())

    logger = logging.getLogger("pypdf")
    handler, propagate = Collect(logging.WARNING), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield messages
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagate


def _pdf_pages(data: bytes, source: str) -> list[list[list[_Run]]]:
    """Each page's printed lines, top to bottom, each the runs of text on it left to right;
    a PDF pypdf cannot open, an encrypted one, or a page it cannot read is a DocumentError
    saying so."""
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            try:
                opened = reader.decrypt("")  # many PDFs only restrict printing or copying
            except (pypdf.errors.DependencyError, NotImplementedError) as exc:
                raise _refuse(source, f"the PDF is encrypted in a way that cannot be opened here "
                                      f"({_said(exc)}); save an unencrypted copy and import that") from exc
            if not opened:
                raise _refuse(source, "the PDF is encrypted with a password; save an "
                                      "unencrypted copy and import that")
        count = len(reader.pages)
    except DocumentError:
        raise
    except Exception as exc:  # pypdf raises many kinds on a damaged file
        raise _refuse(source, f"unreadable PDF (damaged, or not a PDF?): {_said(exc)}") from exc
    if count == 0:
        raise _refuse(source, "the PDF has no pages")
    if count > MAX_PDF_PAGES:  # before any page is read
        raise _refuse(source, f"the PDF has {count:,} pages; a rules document has at most {MAX_PDF_PAGES:,}")
    pages = []
    for number in range(count):
        try:
            pages.append(_page_runs(reader, number))
        except _LayoutUnavailable as exc:
            raise _refuse(source, f"{exc}; install a pypdf version within pyproject.toml's bounds, "
                                  "or import the text release") from exc
        except Exception as exc:
            raise _refuse(source, f"page {number + 1} of the PDF cannot be read (damaged?): "
                                  f"{_said(exc)}") from exc
    return pages


def _page_runs(reader: pypdf.PdfReader, number: int) -> list[list[_Run]]:
    """The runs of text of one page, grouped into lines, top to bottom."""
    page = reader.pages[number]
    contents = page.get_contents()
    if contents is None:
        return []
    return _layout_lines(page, ContentStream(contents, reader, "bytes"))


class _LayoutUnavailable(Exception):
    """pypdf's layout extraction is not what :func:`_layout_lines` was written for."""


def _layout_lines(page: pypdf.PageObject, content: ContentStream) -> list[list[_Run]]:
    """The runs of a page's content, grouped into lines by pypdf's layout extraction, which
    knows where each run starts and ends. Its public face (``extract_text(extraction_mode=
    "layout")``) only gives the text, so this reads pypdf's internals, here only;
    ``pyproject.toml`` bounds pypdf's version for them, and if they change anyway it is
    :class:`_LayoutUnavailable`, not an error deep in the reading."""
    try:
        from pypdf._text_extraction import _layout_mode
        show_operations = _layout_mode.text_show_operations
        line_groups = _layout_mode.y_coordinate_groups
        fonts = page._layout_mode_fonts
    except (ImportError, AttributeError) as exc:
        raise _LayoutUnavailable(f"pypdf {pypdf.__version__} lacks the layout extraction this "
                                 f"reader uses ({_said(exc)})") from exc
    shown = show_operations(iter(operations(content)), fonts())
    try:
        runs = [r for r in shown if r["text"].strip()]
        return [[_Run(r["text"], r["tx"], r["displaced_tx"], r["ty"] * r["flip_sort"], r["font_size"])
                 for r in line] for line in line_groups(runs).values() if line] if runs else []
    except (KeyError, TypeError) as exc:
        raise _LayoutUnavailable(f"pypdf {pypdf.__version__}'s layout extraction no longer "
                                 f"gives the runs' places this reader uses ({_said(exc)})") from exc


def _line_text(runs: list[_Run]) -> str:
    """The runs of a line joined, a space where they stand apart."""
    text = ""
    end = None
    for run in runs:
        if end is not None and run.x0 - end > run.size * 0.15 and not text.endswith(" "):
            text += " "
        text += run.text
        end = run.x1
    return clean(text)  # ligatures (a browser's "ﬁ") joined, spaces folded, as every reader does


def _edge_key(runs: list[_Run]) -> str:
    return _DIGITS.sub("#", _line_text(runs))


def _edges(page: list[list[_Run]]) -> list[int]:
    """The indexes of the first and last few lines of a page."""
    return sorted(set(range(min(EDGE_LINES, len(page))))
                  | set(range(max(0, len(page) - EDGE_LINES), len(page))))


def _without_running_lines(pages: list[list[list[_Run]]], source: str,
                           notes: list[Diagnostic]) -> list[list[list[_Run]]]:
    """Drop running headers and footers: a line (its digits aside) on the top or bottom
    edge of at least half the pages, and a bare page number on an edge. A running header
    without digits (the document's title) is kept at the top of the first page, where it is
    the title, unless a line below it there holds it again (the title under the header)."""
    running = running_keys([{_edge_key(page[i]) for i in _edges(page)} for page in pages])
    removed: Counter[str] = Counter()
    out = []
    for number, page in enumerate(pages):
        drop = set()
        edges = _edges(page)
        for i in edges:
            key = _edge_key(page[i])
            # On the first page, a title printed as the running header too stays once: where
            # no line below it at the top holds it again.
            title = number == 0 and "#" not in key and i < EDGE_LINES and not any(
                key in _edge_key(page[j]) for j in edges if i < j < EDGE_LINES)
            if _PAGE_NUMBER.match(key) or (key in running and not title):
                drop.add(i)
                removed[key] += 1
        out.append([line for i, line in enumerate(page) if i not in drop])
    for key, n in removed.most_common():
        notes.append(Diagnostic(f"running header or footer {key!r} removed from {n} page"
                                f"{'s' if n != 1 else ''}", source, 0, "info"))
    return out


def _in_reading_order(page: list[list[_Run]], number: int, source: str,
                      notes: list[Diagnostic]) -> list[_Line]:
    """A page's lines in reading order: a page printed in two columns is read left column,
    then right (and said); one that looks so only in part is said, as its order may be wrong."""
    if not page:
        return []
    right = max(r.x1 for line in page for r in line)
    starts: Counter[int] = Counter()
    for line in page:
        for before, run in zip([None, *line], line):
            far = before is None or run.x0 - before.x1 > 2 * run.size
            if far and run.x0 > right * 0.3:
                starts[round(run.x0 / 4)] += 1
    split = None
    if starts:
        column, _ = starts.most_common(1)[0]
        at = sum(starts[c] for c in (column - 1, column, column + 1))
        edge = column * 4 - 6
        # A column's left edge: lines start there, and (nearly) no line runs across it.
        across = sum(1 for line in page for r in line if r.x0 < edge - 4 and r.x1 > edge + 6)
        if at >= _COLUMN_LINES and across <= len(page) * 0.05:
            split = edge
        elif at >= _COLUMN_LINES and at >= len(page) * 0.3:
            notes.append(_page_note(number, f"may be printed in two columns ({at} of its lines have "
                                          f"text from {column * 4} points on, {across} run across); "
                                          "read as one: check its rules' order", source, "warning"))
    if split is not None:
        notes.append(_page_note(number, "is printed in two columns: read the left column, then "
                                      "the right", source, "info"))
    columns: list[list[_Line]] = [[], []]
    for line in page:
        parts = ([r for r in line if r.x0 < split], [r for r in line if r.x0 >= split]) \
            if split is not None else (line, [])
        for c, runs in enumerate(parts):
            if runs:
                columns[c].append(_Line(_line_text(runs), number, runs[0].x0,
                                        max(r.x1 for r in runs), runs[0].y,
                                        max(r.size for r in runs), c))
    out = []
    for column in columns:
        if not column:
            continue
        # The line pitch: the closest two lines follow each other (past a superscript's or a
        # split line's small step; in the page's own units, which a browser's PDF scales).
        steps = [a.y - b.y for a, b in zip(column, column[1:]) if a.y > b.y]
        usual = statistics.median(steps) if steps else 0.0
        pitch = min((step for step in steps if step >= 0.6 * usual), default=0.0)
        left = min(ln.x0 for ln in column)
        for above, line in zip([None, *column], column):
            line.gap_before = above is not None and above.y - line.y > pitch * 1.3 + 0.5
            line.indented = line.x0 - left > 1.5 * line.char_width
        out.extend(column)
    return out


def _page_note(number: int, message: str, source: str,
               severity: Literal["warning", "info"]) -> Diagnostic:
    return Diagnostic(f"page {number} of the PDF {message}", source, 0, severity)


def _paragraphs(lines: list[_Line], source: str,
                notes: list[Diagnostic]) -> tuple[str, list[int]]:
    """Join the lines of each paragraph; a gap is a blank line. Returns the text and the
    page of each of its lines."""
    if not lines:
        return "", []
    layout = _Layout(lines)
    vocabulary = _vocabulary(lines)
    out: list[str] = []
    where: list[int] = []
    hyphens: Counter[str] = Counter()
    current, first = lines[0].text, lines[0]
    uncertain: list[int] = []
    for above, below in zip(lines, lines[1:]):
        if layout.uncertain(above, below):
            uncertain.append(above.page)
        if layout.continues(above, below):
            current = _join(current, below.text, vocabulary, hyphens)
            continue
        out.append(("     " if first.indented else "") + current)
        where.append(above.page)
        if layout.gap_between(above, below, first.text):
            out.append("")
            where.append(above.page)
        current, first = below.text, below
    out.append(("     " if first.indented else "") + current)
    where.append(lines[-1].page)
    if uncertain:
        notes.append(Diagnostic(
            f"at {len(uncertain)} line ends (a page break after a full line ending a sentence, "
            "or a full line before a word that opens paragraphs and stands inside them too), "
            "whether the paragraph goes on is read from the words that open and end paragraphs "
            f"and may be wrong: on page {_ranges(sorted(set(uncertain)))}",
            source, 0, "info"))
    if hyphens:
        kept = sum(n for w, n in hyphens.items() if "-" in w)
        notes.append(Diagnostic(
            f"{sum(hyphens.values()) - kept} words hyphenated at a line end joined, {kept} "
            f"hyphens kept (a word the document spells with one): "
            + ", ".join(sorted(hyphens)[:8]) + ("…" if len(hyphens) > 8 else ""),
            source, 0, "info"))
    return "\n".join(out), where


class _Layout:
    """What a document's pages say about its paragraphs: each column's right margin, how
    wide its characters print, where its pages' text stops, which words open paragraphs."""

    def __init__(self, lines: list[_Line]):
        self._fitted: dict[tuple[int, int], bool] = {}  # _fits by the two lines' ids
        self.margins: dict[tuple[int, int], float] = {}
        for ln in lines:
            key = (ln.page, ln.column)
            self.margins[key] = max(self.margins.get(key, 0.0), ln.x1)
        # A page of a few short lines, or one with a line running past the margin (a long
        # word), takes the document's usual margin for that column.
        typical = {c: statistics.median(x for (_, col), x in self.margins.items() if col == c)
                   for c in {col for _, col in self.margins}}
        self.margins = {k: typical[k[1]] if x < typical[k[1]] * 0.9 or x > typical[k[1]] * 1.01 else x
                        for k, x in self.margins.items()}
        self.widths = _character_widths(lines)
        self.mean_width = statistics.fmean(self.widths.values()) if self.widths else 0.5
        # The words that open paragraphs after a line ending as a sentence does, where the
        # break is certain, against how often they follow a sentence's end inside a line:
        # "Example:" opens paragraphs, "A" starts sentences.
        self.openers: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}  # no gap shows
        self.openers_after_gap: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        self.inside: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
        words = 0
        for above, below in zip(lines, lines[1:]):
            tokens = below.text.split()
            words += len(tokens)
            for before, token in zip(tokens, tokens[1:]):
                self.inside[bool(_ENDS_PARAGRAPH.search(before))].update(_opener_keys(token))
            if tokens and self._same_column(above, below) and (
                    below.gap_before or below.indented or self._fits(above, below)):
                ends = bool(_ENDS_PARAGRAPH.search(above.text))
                (self.openers_after_gap if below.gap_before else self.openers)[ends].update(
                    _opener_keys(tokens[0]))
        self.words_per_line = words / max(1, len(lines) - 1)
        # The words that end paragraphs where the break is certain, against how often they
        # stand inside a line: "…See rule" never ends one.
        self.closers: Counter[str] = Counter()
        self.within: Counter[str] = Counter()
        for above, below in zip(lines, lines[1:]):
            tokens = above.text.split()
            self.within.update(_opener_keys(t)[-1] for t in tokens[:-1])
            if tokens and self._same_column(above, below) and (
                    below.gap_before or below.indented or self._fits(above, below)):
                self.closers[_opener_keys(tokens[-1])[-1]] += 1
        # Whether a gap comes between paragraphs opening with these words, one after the
        # other: none between the senses ``1.`` and ``2.`` of a glossary entry, one between
        # ``104.3i`` and ``104.3j``.
        self.pairs: dict[tuple[str, str], Counter[bool]] = {}
        opener = ""
        for above, below in zip(lines, lines[1:]):
            if self._same_column(above, below) and (below.gap_before or below.indented
                                                     or self._fits(above, below)):
                key = _opener_keys(below.text.split(" ", 1)[0])[-1]
                self.pairs.setdefault((opener, key), Counter())[below.gap_before] += 1
                opener = key
        # Whether a paragraph ending a page is followed by a gap, as on the pages.
        self.after: dict[bool, Counter[bool]] = {True: Counter(), False: Counter()}
        for above, below in zip(lines, lines[1:]):
            if self._same_column(above, below) and (below.gap_before or self._fits(above, below)):
                self.after[bool(_ENDS_PARAGRAPH.search(above.text))][below.gap_before] += 1

    @staticmethod
    def _same_column(above: _Line, below: _Line) -> bool:
        return (above.page, above.column) == (below.page, below.column)

    def width(self, text: str, size: float) -> float:
        """How wide the text prints at this size, by the widths the document's own lines show."""
        return size * sum(self.widths.get(ch, self.mean_width) for ch in text)

    def _fits(self, above: _Line, below: _Line) -> bool:
        """The first word of ``below`` would have fitted at the end of ``above`` (with room to
        spare for the widths' error): the line was broken on purpose, not wrapped. Asked of
        each pair of lines several times, so worked out once (the widths and margins it goes by
        are set before it is first asked)."""
        key = (id(above), id(below))
        fits = self._fitted.get(key)
        if fits is None:
            need = self.width(" " + below.text.split(" ", 1)[0], below.size)
            room = self.margins[(above.page, above.column)] - above.x1
            fits = self._fitted[key] = room > need * 1.1 + below.size * 0.3
        return fits

    def _key(self, token: str, ends: bool) -> str:
        """The finest of the token's keys seen often enough to go by (``###.###a``, else ``#.#a``)."""
        keys = _opener_keys(token)
        return next((k for k in keys if self.openers[ends][k] + self.openers_after_gap[ends][k]
                     + self.inside[ends][k] >= 3), keys[-1])

    def _opens(self, token: str, ends: bool, gap_hidden: bool) -> bool:
        """After a line ending so (as a sentence, or not), the word opens paragraphs without a
        gap above them (or, where a page break hides the gap, with or without one) far more
        often than a wrap would put it first on a line."""
        key = self._key(token, ends)
        seen = self.openers[ends][key] + (self.openers_after_gap[ends][key] if gap_hidden else 0)
        return seen >= 3 and seen > 2 * self.inside[ends][key] / self.words_per_line

    def continues(self, above: _Line, below: _Line) -> bool:
        """True when ``below`` goes on with the paragraph of ``above``: ``above`` ends in a
        hyphenated word, or the first word of ``below`` would not have fitted on it and is
        not a word that opens paragraphs (``Example:``, a rule number) after a line ending as
        this one does; a line ending in a word that never ends a paragraph (``…See rule``)
        goes on."""
        if below.indented or (below.gap_before and self._same_column(above, below)):
            return False
        if _HYPHENATED_END.search(above.text) and _FIRST_WORD.match(below.text):
            return True
        if self._fits(above, below):
            return False
        if self._never_closes(above):
            return True  # "…See rule" / "100.6." is a wrap
        ends = bool(_ENDS_PARAGRAPH.search(above.text))
        return not self._opens(below.text.split(" ", 1)[0], ends, not self._same_column(above, below))

    def _never_closes(self, line: _Line) -> bool:
        """The line ends in a word without punctuation that stands inside lines often and
        never at a paragraph's end (``…See rule``)."""
        if _ENDS_PARAGRAPH.search(line.text):
            return False
        last = _opener_keys(line.text.rsplit(" ", 1)[-1])[-1]
        return self.closers[last] == 0 and self.within[last] >= _NEVER_CLOSES

    def uncertain(self, above: _Line, below: _Line) -> bool:
        """Where the lines' widths cannot tell whether a paragraph ends: a page or column
        break after a full line that ends a sentence; a full line ending in a word that never
        ends a paragraph before a word that opens them; a full line before a word that opens
        paragraphs but also stands after a sentence's end inside lines (``2.``)."""
        if below.indented or (below.gap_before and self._same_column(above, below)) \
                or self._fits(above, below):
            return False
        ends = bool(_ENDS_PARAGRAPH.search(above.text))
        if not self._same_column(above, below) and ends:
            return True
        token = below.text.split(" ", 1)[0]
        if self._never_closes(above):
            return self._opens(token, ends, False)
        # A word that opens paragraphs but also follows a sentence's end inside lines ("2.")
        return self._opens(token, ends, False) and self.inside[ends][self._key(token, ends)] > 0

    def gap_between(self, above: _Line, below: _Line, opener: str) -> bool:
        """A blank line between two paragraphs: a gap on the page; at a page or column break
        (where no gap shows), what the document does between paragraphs opening as ``opener``
        (the paragraph above) and ``below`` do, else between a sentence's end and a paragraph
        opening with the same word (``2.`` of a sense follows its first without a gap,
        ``101.`` of a section after one), else after a paragraph ending the same way:
        a rule ends in a gap, a glossary term is followed by its text."""
        if self._same_column(above, below):
            return below.gap_before
        ends = bool(_ENDS_PARAGRAPH.search(above.text))
        pair = self.pairs.get((_opener_keys(opener.split(" ", 1)[0])[-1],
                               _opener_keys(below.text.split(" ", 1)[0])[-1]), Counter())
        if _clearly(pair[True], pair[False]) is not None:
            return bool(_clearly(pair[True], pair[False]))
        key = self._key(below.text.split(" ", 1)[0], ends)
        told = _clearly(self.openers_after_gap[ends][key], self.openers[ends][key])
        if told is not None:  # "2." opens a sense, "101." a section
            return told
        counts = self.after[ends]
        return counts[True] >= counts[False]


def _clearly(yes: int, no: int) -> bool | None:
    """What the counts say when they say it clearly (three cases at least, two to one), else None."""
    if max(yes, no) >= 3 and (yes >= 2 * no or no >= 2 * yes):
        return yes > no
    return None


@lru_cache(maxsize=1 << 16)  # a document's words, asked of a few million times in all
def _opener_keys(token: str) -> tuple[str, ...]:
    """A word as paragraphs open with it; a number by its shape, finer then coarser
    (``104.2b`` is ``###.#a``, then ``#.#a``: ``2.`` opening a sense is not ``101.``)."""
    if not any(ch.isdigit() for ch in token):
        return (token,)
    fine = _LETTER.sub("a", _DIGIT.sub("#", token))
    coarse = _HASHES.sub("#", fine)
    return (fine, coarse) if coarse != fine else (fine,)


_DIGIT, _LETTER, _HASHES = (re.compile(p) for p in (r"\d", r"[^\W\d_]", r"#+"))


_SAMPLE_LINES = 800
_RIDGE = 0.05


def _character_widths(lines: list[_Line]) -> dict[str, float]:
    """Each character's width (per point of font size), as the document's lines show it:
    a line's printed width is the sum of its characters' widths, solved for them by least
    squares over a sample of lines (pulled towards the mean width, so that a character
    seen rarely gets a sensible one)."""
    step = max(1, len(lines) // _SAMPLE_LINES)
    sample = [ln for ln in lines[::step] if ln.size > 0 and len(ln.text) > 1]
    if not sample:
        return {}
    chars = sorted({ch for ln in sample for ch in ln.text})
    index = {ch: i for i, ch in enumerate(chars)}
    n = len(chars)
    mean = sum((ln.x1 - ln.x0) / ln.size for ln in sample) / sum(len(ln.text) for ln in sample)
    counts = np.zeros((len(sample), n))  # how often each character is on each line
    for row, ln in enumerate(sample):
        for ch, k in Counter(ln.text).items():
            counts[row, index[ch]] = k
    widths = np.array([(ln.x1 - ln.x0) / ln.size for ln in sample])
    normal = counts.T @ counts
    ridge = _RIDGE * normal.diagonal().max() / max(1, n)
    solved = np.linalg.solve(normal + ridge * np.eye(n), counts.T @ widths + ridge * mean)
    return {ch: float(w) if w > 0 else mean for ch, w in zip(chars, solved)}


def _vocabulary(lines: list[_Line]) -> Counter[str]:
    """How often the document spells each word, leaving out the halves of words hyphenated
    at a line end (``discard-`` / ``ing``), which are no words of it."""
    words: Counter[str] = Counter()
    split = False
    for ln in lines:
        found = _WORD.findall(ln.text)
        hyphenated = bool(_HYPHENATED_END.search(ln.text))
        words.update(w.lower() for w in found[1 if split else 0:len(found) - (1 if hyphenated else 0)])
        split = hyphenated
    return words


def _join(current: str, following: str, vocabulary: Counter[str], hyphens: Counter[str]) -> str:
    """Join a wrapped line to the paragraph so far; a hyphenated word end is joined whole or
    kept hyphenated (see the module docstring)."""
    m = _HYPHENATED_END.search(current)
    n = _FIRST_WORD.match(following)
    if not (m and n):
        return current + " " + following
    first, second = m.group(1), n.group(1)
    keep = current.endswith("-") and keeps_hyphen(first, second, vocabulary)
    hyphens[f"{first}-{second}" if keep else first + second] += 1
    return (current if keep else current[:-1]) + following


def _ranges(numbers: list[int]) -> str:
    """``1–3, 7`` for [1, 2, 3, 7]."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [0]:
        if n != prev + 1:
            parts.append(str(start) if start == prev else f"{start}–{prev}")
            start = n
        prev = n
    return ", ".join(parts)


# -- DOCX --------------------------------------------------------------------------------------

def docx_text(data: bytes, source: str = "") -> Unpacked:
    """The text of a DOCX: each body paragraph (and table row) a line, empty paragraphs
    blank lines; in a document without empty paragraphs, a blank line where a paragraph's
    spacing sets it apart (before or after), or between all paragraphs where none does
    (or all do)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
            expands = sum(info.file_size for info in archive.infolist())
            if expands > MAX_DOCX_EXPANDED_BYTES:  # before anything is decompressed
                raise _refuse(source, f"a DOCX whose parts expand to {expands:,} bytes (a ZIP bomb?); "
                                      f"a rules document's are at most {MAX_DOCX_EXPANDED_BYTES:,}")
            bad = archive.testzip()
            package = package_of(archive) if DOCX_BODY not in names and bad is None else None
            if package is not None:  # an ODT or an EPUB: another ZIP package of text
                text, notes = (odt_text if package == "odt" else epub_text)(archive, source)
                return Unpacked(text, package, notes)
    except DocumentError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, ValueError) as exc:
        raise _refuse(source, f"a corrupt ZIP archive, not a readable DOCX: {_said(exc)}") from exc
    if bad is not None:
        raise _refuse(source, f"a corrupt DOCX: its part {bad!r} is damaged")
    if DOCX_BODY not in names:
        raise _refuse(source, f"a ZIP archive without {DOCX_BODY}: not a Word document (DOCX), nor an "
                              "OpenDocument text (ODT) or EPUB (its mimetype part names neither)")
    try:
        document = docx.Document(io.BytesIO(data))
        body = document.element.body
    except (docx.opc.exceptions.PackageNotFoundError, KeyError, ValueError, SyntaxError) as exc:
        raise _refuse(source, f"a DOCX that cannot be opened: {_said(exc)}") from exc
    except Exception as exc:  # lxml's XMLSyntaxError and the like: a damaged part, not always the body
        raise _refuse(source, f"a DOCX with a part that cannot be read (damaged?): {_said(exc)}") from exc
    if body is None:
        raise _refuse(source, f"a DOCX without a body: {DOCX_BODY} holds no w:body")
    lines: list[str] = []
    owners: list[Paragraph | None] = []  # the paragraph each line ends (None inside one, or a table's)
    numbers = ListNumbers(document)
    for block in document.iter_inner_content():
        if isinstance(block, Paragraph):
            label = numbers.label(block)
            text = f"{label} {block.text.lstrip()}" if label else block.text
            indent = "     " if text.strip() and _indented(block) else ""
            parts = text.split("\n")
            lines.extend(indent + part for part in parts)
            owners.extend([None] * (len(parts) - 1) + [block])
        elif isinstance(block, Table):
            rows = list(_table_rows(block))
            lines.extend(rows)
            owners.extend([None] * len(rows))
    if not any(ln.strip() for ln in lines):
        raise _refuse(source, "a DOCX whose body holds no text")
    notes = [Diagnostic(f"read from a DOCX of {sum(1 for ln in lines if ln.strip())} paragraphs",
                        source, 0, "info")]
    if numbers.numbered:
        notes.append(Diagnostic(f"{numbers.numbered} paragraphs are numbered by Word's lists: the "
                                "numbers Word prints before them (not in their text) are rendered "
                                "from the document's numbering", source, 0, "info"))
    if numbers.unresolved:
        notes.append(Diagnostic(f"{numbers.unresolved} paragraphs are in Word lists that the document's "
                                "numbering does not define: the numbers Word would print before them "
                                "cannot be told, and they are read without", source, 0, "warning"))
    if numbers.unnumbered:
        notes.append(Diagnostic(f"{numbers.unnumbered} paragraphs are in Word's bulleted (or "
                                "unnumbered) lists: read without their bullets", source, 0, "info"))
    if not any(not ln.strip() for ln in lines):  # gaps made by spacing, not empty paragraphs
        spacing = _Spacing(document)
        spaced = [p is not None and spacing.after(p) > 0 for p in owners]
        for i, p in enumerate(owners[1:], start=1):
            if p is not None and owners[i - 1] is not None and spacing.before(p) > 0:
                spaced[i - 1] = True
        gaps = spaced if any(spaced) and not all(spaced[:-1]) else [True] * len(lines)
        lines = [part for ln, gap in zip(lines, gaps) for part in ((ln, "") if gap else (ln,))]
    return Unpacked("\n".join(lines), "docx", notes)


class _Spacing:
    """The space before and after paragraphs (EMU): a paragraph's own, else its style's
    (and its base styles'), each style looked up once."""

    def __init__(self, document: docx.document.Document):
        self.styles = {s.style_id: s for s in document.styles if s.type == WD_STYLE_TYPE.PARAGRAPH}
        self.default = document.styles.default(WD_STYLE_TYPE.PARAGRAPH)
        self.known: dict[tuple[str, str], int] = {}

    def before(self, paragraph: Paragraph) -> int:
        return self._side(paragraph, "space_before")

    def after(self, paragraph: Paragraph) -> int:
        return self._side(paragraph, "space_after")

    def _side(self, paragraph: Paragraph, side: str) -> int:
        own = getattr(paragraph.paragraph_format, side)
        if own is not None:
            return int(own)
        style_id = paragraph._p.style or ""
        if (style_id, side) not in self.known:
            style = self.styles.get(style_id, self.default)
            value = None
            while value is None and style is not None:
                value = getattr(style.paragraph_format, side)
                style = style.base_style
            self.known[(style_id, side)] = int(value or 0)
        return self.known[(style_id, side)]


def _indented(paragraph: Paragraph) -> bool:
    """The paragraph is set in from the margin (its own first-line or left indent), as the
    text releases indent a paragraph that goes on with the rule above."""
    fmt = paragraph.paragraph_format
    return any(value is not None and value > 0 for value in (fmt.first_line_indent, fmt.left_indent))


def _table_rows(table: Table) -> Iterator[str]:
    """A table's rows, each a line of its cells side by side as a PDF prints them (a rule's
    id cell, then its text; a merged cell, which repeats across the row, once)."""
    for row in table.rows:
        cells: list[str] = []
        for cell in row.cells:
            text = " ".join(cell.text.split())
            if not cells or cells[-1] != text:
                cells.append(text)
        yield " ".join(c for c in cells if c)


def _rtf(data: bytes, source: str = "") -> Unpacked:
    """The text of an RTF document (:mod:`kb.read.rtf`)."""
    text, notes = rtf_text(data, source)
    return Unpacked(text, "rtf", notes)


CONTAINERS: dict[str, Callable[[bytes, str], Unpacked]] = {"pdf": pdf_text, "docx": docx_text, "rtf": _rtf}
