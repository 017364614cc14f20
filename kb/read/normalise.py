"""The reading stage's normalisation: what any layout may do to the characters and lines of a
rule document, undone before a reader sniffs or reads it.

* **Invisible characters** a word processor or web page leaves (zero-width spaces and joiners,
  a byte-order mark inside the text, soft hyphens) are dropped, so they cannot split a rule
  number (``100.\\u200b1a``); **Unicode spaces** (no-break, narrow no-break, thin, figure,
  ideographic) become plain spaces. The rules' wording is unchanged: :func:`kb.read.text.clean`
  folds the same characters out of the text.
* **Anchors around a rule number** (``<a id="r100.1"></a>100.1.``, ``<a name=…>100.1.</a>``,
  a Markdown link to a place in the page, ``[100.1.](#r100.1)``) keep only what they print.
* **A table of contents with page numbers** (three or more lines in a row, blank lines
  apart, that end with dot leaders or a wide gap and a page number: ``101. Deck Construction
  ........ 5``) is left out, so that its numbers are not read as rules; its lines are blank.
* **A table of contents without page numbers** (three or more lines from the document's
  first numbered line on, each a number and a title, every number of which is printed again
  further on) is left out the same way by the Riftbound readers
  (:func:`without_contents_list`).
* **Pages** (text a PDF was turned into by ``pdftotext``: pages parted by form feeds): the
  lines that repeat at the top or bottom of at least half the pages (the title, ``Page 12``, a
  bare page number; digits do not count as a difference) are running headers and footers and
  go, with the blank lines that set them apart. A paragraph that a page break cuts is one
  paragraph again: the halves are joined where the page ends inside a sentence (``See
  rule`` | ``702.114``), and kept apart where the next page starts a numbered rule or an
  example, where the page ends a sentence on a short line, or where the next page starts
  with a short line that has more lines under it (a glossary term, a heading).

Lines are removed only at page breaks; :attr:`Normalised.origin` maps each line of the
normalised text back to the document's own line, so notes and rules keep their real places.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from kb.model import Diagnostic
from kb.read.text import ZERO_WIDTH

_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_ANCHOR_TAG = re.compile(r"<a\b[^<>]*\b(?:id|name|href)\s*=[^<>]*>|</a>", re.IGNORECASE)
_ANCHOR_LINK = re.compile(r"\[(\d{1,3}(?:\.[0-9a-z]+)*\.?)\]\(#[^()\s]*\)")
_PAGE_NUMBER = re.compile(r"^(?:[-–—]\s*)?(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*[-–—])?$",
                          re.IGNORECASE)
EDGE_LINES = 3  # lines at the top and the bottom of a page where running lines stand
_RUNNING_SHARE = 0.5  # a line on the edge of at least half the pages is a running line
_MIN_PAGES = 3
_STARTS_PARAGRAPH = re.compile(r"^(?:[#>*+-]+\s+)?(?:\*\*|__)?(?:\d{1,3}\.(?:\s|\d)|Examples?:)")
_ENDS_SENTENCE = re.compile(r"[.:;!?][)\]”\"’']*$")
_CONTENTS_LINE = re.compile(r"^\S.*?\S(?:\s*(?:\.\s?){3,}|\s*…+|\s{3,})\s*\d{1,4}\s*$")
_CONTENTS_RUN = 3
_LISTED = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(\d{1,3}(?:\.[0-9a-z]+)*)\.?(?:\*\*|__)?[ \t]+"
                     r"(\S.{0,80})$")
_NUMBER_AT_START = re.compile(r"^[^\w\n]{0,8}(\d{1,3}(?:\.[0-9a-z]+)*)\.?(?=[\s*_]|$)", re.M)
_ENDS_WITH_REFERENCE_WORD = re.compile(r"\b(?:rules?|see|section|and|or|through)\s*$", re.IGNORECASE)
_SENSE = re.compile(r"^(\d{1,2})\. ")
_SHORT_LINE = 0.8  # a page's last line shorter than this share of the text's width ended a paragraph


@dataclass
class Normalised:
    """The normalised text, the document's line of each of its lines, and what was done."""

    text: str
    origin: list[int] | None = None  # 1-based line in the document of each line; None: the same
    notes: list[Diagnostic] = field(default_factory=list)

    def line(self, line: int) -> int:
        """The document's line for line ``line`` of the normalised text (0 stays 0)."""
        if self.origin is None or line <= 0:
            return line
        return self.origin[min(line, len(self.origin)) - 1]


def normalise(text: str, source: str = "") -> Normalised:
    """Undo what a layout did to the characters and pages (see the module docstring)."""
    if "\r" in text:  # line ends as decode makes them, for text that did not go through it
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        text = _SPACES.sub(" ", ZERO_WIDTH.sub("", text))
    if "<a" in text or "<A" in text:
        text = _ANCHOR_TAG.sub("", text)
    if "](#" in text:
        text = _ANCHOR_LINK.sub(r"\1", text)
    lines = text.split("\n")
    notes: list[Diagnostic] = []
    if "..." in text or ". . ." in text or "…" in text or "   " in text:
        lines, notes = _without_contents(lines, source)
        text = "\n".join(lines)
    if text.count("\f") + 1 < _MIN_PAGES:  # a stray form feed is whitespace to the readers
        return Normalised(text, None, notes)
    paged = _without_pages(lines, source)
    paged.notes[:0] = notes
    return paged


def without_contents_list(lines: list[str], source: str) -> tuple[list[str], list[Diagnostic]]:
    """The lines with a table of contents without page numbers blanked, and the note saying
    so (for readers whose numbering gives a heading no mark of its own: Riftbound's; the
    Magic reader skips its Contents itself)."""
    listed = _contents_list(lines)
    if not listed:
        return lines, []
    out = list(lines)
    for k in listed:
        out[k] = ""
    return out, [Diagnostic(f"a table of contents ({len(listed)} numbered titles, lines "
                            f"{listed[0] + 1}–{listed[-1] + 1}, each printed again further on) "
                            "is not read as rules", source, listed[0] + 1, "info")]


def _contents_list(lines: list[str]) -> list[int]:
    """The lines of a table of contents without page numbers, or []: the run of short
    numbered lines (blank lines apart) that the document's first numbered line starts, when
    it is three lines or more and every number in it is printed again after it (a
    document's rules are printed once: that is what tells its contents from its body)."""
    run: list[int] = []
    for i, line in enumerate(lines):
        if _LISTED.match(line):
            run.append(i)
        elif run and line.strip():
            break
        elif not run and _NUMBER_AT_START.match(line):
            return []  # the first numbered line is no title of a contents
    if len(run) < _CONTENTS_RUN:
        return []
    later = {m.group(1) for m in _NUMBER_AT_START.finditer("\n".join(lines[run[-1] + 1:]))}
    listed = {_LISTED.match(lines[k]).group(1) for k in run}
    return run if listed <= later else []


def _without_contents(lines: list[str], source: str) -> tuple[list[str], list[Diagnostic]]:
    """The lines with each table of contents blanked (see the module docstring)."""
    out = list(lines)
    notes = []
    i = 0
    while i < len(lines):
        if not _CONTENTS_LINE.match(lines[i].strip()):
            i += 1
            continue
        run, j = [], i
        while j < len(lines) and (not lines[j].strip() or _CONTENTS_LINE.match(lines[j].strip())):
            if lines[j].strip():
                run.append(j)
            j += 1
        if len(run) >= _CONTENTS_RUN:
            for k in run:
                out[k] = ""
            notes.append(Diagnostic(f"a table of contents ({len(run)} lines ending in page numbers, "
                                    f"lines {run[0] + 1}–{run[-1] + 1}) is not read as rules",
                                    source, run[0] + 1, "info"))
        i = j
    return out, notes


def _pages(lines: list[str]) -> list[list[tuple[int, str]]]:
    """The document's (line, text) cut into pages at its form feeds."""
    pages: list[list[tuple[int, str]]] = [[]]
    for number, ln in enumerate(lines, start=1):
        parts = ln.split("\f")
        for k, part in enumerate(parts):
            if k:
                pages.append([])
            if part or k == len(parts) - 1:
                pages[-1].append((number, part))
    return pages


def _edge_key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.split()).lower())


def _edges(page: list[tuple[int, str]]) -> list[int]:
    """Indexes of the page's first and last few non-blank lines."""
    filled = [i for i, (_, t) in enumerate(page) if t.strip()]
    return sorted(set(filled[:EDGE_LINES] + filled[-EDGE_LINES:]))


def running_keys(edge_keys: list[set[str]]) -> set[str]:
    """The running headers and footers among each page's edge lines (``edge_keys``, one set
    of line keys a page): a key on the edges of at least half the pages, and of two at
    least. Shared by text parted by form feeds and a PDF's pages (:mod:`kb.read.containers`)."""
    on_pages = Counter(key for keys in edge_keys for key in keys)
    least = max(2, _RUNNING_SHARE * len(edge_keys))
    return {key for key, n in on_pages.items() if n >= least}


def _without_pages(lines: list[str], source: str) -> Normalised:
    pages = _pages(lines)
    running = running_keys([{_edge_key(page[i][1]) for i in _edges(page)} for page in pages])
    width = _width(lines)
    out: list[tuple[int, str]] = []
    removed = 0
    for page in pages:
        drop = {i for i in _edges(page)
                if _edge_key(page[i][1]) in running or _PAGE_NUMBER.match(page[i][1].strip())}
        removed += len(drop)
        kept = [pl for i, pl in enumerate(page) if i not in drop]
        while kept and not kept[0][1].strip():
            kept.pop(0)
        while kept and not kept[-1][1].strip():
            kept.pop()
        if not kept:
            continue
        if out and not (_continues(out[-1][1], kept[0][1], kept[1][1] if len(kept) > 1 else "", width)
                        or _next_sense(out, kept[0][1])):
            out.append((kept[0][0], ""))
        out.extend(kept)
    notes = [Diagnostic(f"{len(pages)} pages parted by form feeds: {removed} running header, footer "
                        "and page-number lines removed, paragraphs cut by a page break joined",
                        source, 0, "info")]
    return Normalised("\n".join(t for _, t in out), [n for n, _ in out] or [1], notes)


def _next_sense(before: list[tuple[int, str]], first: str) -> bool:
    """Does a page's first line number the next sense of the entry the page before ends in
    ("4. …" there, "5. …" here)? A sense after a sentence's end would otherwise start a
    paragraph of its own and cut the entry in two."""
    sense = _SENSE.match(first.lstrip())
    if not sense:
        return False
    for _, text in reversed(before):
        if not text.strip():
            return False
        previous = _SENSE.match(text.lstrip())
        if previous:
            return int(previous.group(1)) + 1 == int(sense.group(1))
    return False


def _width(lines: list[str]) -> int:
    """The width the text is wrapped at: the length most long lines come close to."""
    lengths = sorted(len(ln.rstrip()) for ln in lines if ln.strip())
    return lengths[int(len(lengths) * 0.9)] if lengths else 0


def _continues(last: str, first: str, second: str, width: int) -> bool:
    """Does the first line of a page (``second`` is the line after it) go on with the
    paragraph the page before ends with?"""
    if not last.strip():
        return False
    if _ENDS_WITH_REFERENCE_WORD.search(last):  # "See rule" | "702.114, “Devoid.”"
        return True
    if _SENSE.match(first.lstrip()) and not _ENDS_SENTENCE.search(last.rstrip()):
        return True  # "Draft" | "1. A Limited format…": a term and its numbered senses
    if _STARTS_PARAGRAPH.match(first.lstrip()):
        return False
    if not _ENDS_SENTENCE.search(last.rstrip()):
        return True
    # After a sentence's end: a short last line ended its paragraph; a short first line with
    # more lines under it stands alone (a glossary term, a heading).
    return not (len(last.rstrip()) < _SHORT_LINE * width
                or (len(first.strip()) < _SHORT_LINE * width and bool(second.strip())))
