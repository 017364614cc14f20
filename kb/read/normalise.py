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
  with a short line that has more lines under it (a glossary term, a heading), also after
  a page ending without a sentence's end on a line its first word would have fitted on
  (``… See rule 603.4`` | ``Keyword Ability``).
* **A Markdown writer's backslash escapes** (``100\\. General``, ``\\[E\\]``: pandoc's) are
  undone, in a text that holds three or more (no rules document prints a backslash).
* **A Markdown table of rules** (``| 100.1. | These Magic rules… |``: a spreadsheet's or a
  converter's export) becomes the paragraphs the release prints: a row's number, then its
  text, a ``<br>`` in a cell a line break.
* **Two columns side by side** (``pdftotext -layout`` of a two-column PDF: a second column
  starting at the same place on a third of the lines or more) are read column by column,
  page by page; without the form feeds that end its pages (a viewer's copy) the columns
  cannot be put in order, and the document is refused naming where they start.
* **Page breaks copied into the text** by a PDF viewer, which copies no form feed: a bare
  page number beside a running line (the title) at three page breaks or more, or a line
  that counts the pages by itself (``Page 12 of 80``, three or more never counting down, of
  one total); they go, and the paragraph they cut is one again.
* **OCR's letters for digits in rule numbers** (``l00.1.``, ``1O3.2a``, ``7O2.l9b``: a scan read
  by OCR) at a line's start are read as the digits they stand for, where a letter cannot be
  meant (in a number's first part, or beside a digit inside a later part; Magic's attached
  subrule letter and Riftbound's one-letter parts stay), in a text whose other numbers are
  clean.
* **Hanging indents** (a text formatter's or a word processor's plain text: a paragraph's
  first line at the margin, every line it wraps onto indented, ``100.1a A two-player game…`` |
  ``       that begins…``) are undone, each paragraph's lines joined into one, so that they
  read as the paragraph they are, not as paragraphs of their own (what an indented line
  starts in the 2003 Magic releases, whose wrapped lines are at the margin) nor as a rule
  where a wrapped line starts with a number. A text is so set where it is wrapped (lines
  of 160 characters at most) and the paragraphs that end with their indented lines (at a
  blank line or one starting a paragraph) outnumber by far those whose indented line is
  followed by lines at the margin.
* **A word hyphenated at a line end** (``oppon-`` | ``ents``) is read whole, or with its
  hyphen where the document spells it so or never whole with both halves its words
  (``two-`` | ``player``), the way :mod:`kb.read.containers` reads a PDF's lines; a suspended
  hyphen (``power-`` | ``and toughness-changing``) stays, a soft hyphen never does.

Lines are removed only at page breaks and where a hanging paragraph's lines are joined,
added only where a table's row becomes a paragraph, and moved only where a page's columns
come one after the other; :attr:`Normalised.origin`
maps each line of the normalised text back to the document's own line, so notes and rules
keep their real places.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from kb.model import Diagnostic, DocumentError
from kb.read.text import LIGATURE, LIGATURES, ZERO_WIDTH

_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000]")
_ANCHOR_TAG = re.compile(r"<a\b[^<>]*\b(?:id|name|href)\s*=[^<>]*>|</a>", re.IGNORECASE)
_ANCHOR_LINK = re.compile(r"\[(\d{1,3}(?:\.[0-9a-z]+)*\.?)\]\(#[^()\s]*\)")
_PAGE_NUMBER = re.compile(r"^(?:[-–—]\s*)?(?:page\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*[-–—])?$",
                          re.IGNORECASE)
EDGE_LINES = 3  # lines at the top and the bottom of a page where running lines stand
_RUNNING_SHARE = 0.5  # a line on the edge of at least half the pages is a running line
_TITLED_SHARE = 0.75  # pages starting with a line another page starts with: each has a running title
_MIN_PAGES = 3
_STARTS_PARAGRAPH = re.compile(r"^(?:[#>*+-]+\s+)?(?:\*\*|__)?(?:\d{1,3}\.(?:\s|\d)|Examples?:)")
_ENDS_SENTENCE = re.compile(r"[.:;!?][)\]”\"’']*$")
_CONTENTS_LINE = re.compile(r"^\S.*?\S(?:\s*(?:\.\s?){3,}|\s*…+|\s{3,})\s*\d{1,4}\s*$")
_CONTENTS_RUN = 3
_CONTENTS_UNMATCHED = 50  # of a contents' numbers, one in this many may be printed otherwise after it
_LISTED = re.compile(r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(\d{1,3}(?:\.[0-9a-z]+)*)\.?(?:\*\*|__)?[ \t]+"
                     r"(\S.{0,80})$")
_NUMBER_AT_START = re.compile(r"^[^\w\n]{0,8}(\d{1,3}(?:\.[0-9a-z]+)*)\.?(?=[\s*_]|$)", re.M)
_ENDS_WITH_REFERENCE_WORD = re.compile(r"\b(?:rules?|see|section|and|or|through)\s*$", re.IGNORECASE)
_SENSE = re.compile(r"^(\d{1,2})\. ")
# A Markdown writer's backslash escape of an ASCII punctuation character (CommonMark's rule),
# undone in a text that holds a few: no rules document prints a backslash before punctuation.
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_MIN_ESCAPES = 3
_MIN_TABLE_ROWS = 3
_PAGE_NUMBER_WIDTH = 40
_SOFT_BREAK = re.compile(r"\u00ad\n([^\W\d_]+)[ \t]*(?=\S)")
_SHORT_LINE = 0.8  # a page's last line shorter than this share of the text's width ended a paragraph


@dataclass
class Normalised:
    """The normalised text, the document's line of each of its lines, and what was done."""

    text: str
    origin: list[int] | None = None  # 1-based line in the document of each line; None: the same
    notes: list[Diagnostic] = field(default_factory=list)
    # The reader an export's numbers call for where no reader's sniffer takes its text
    # (:attr:`kb.read.exports.Exported.reader`); None for a text that is no export.
    reader: str | None = None

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
        if "\u00ad\n" in text:  # a word broken at a soft hyphen: read whole, on the first line
            text = _SOFT_BREAK.sub(r"\1\n", text)
        text = _SPACES.sub(" ", ZERO_WIDTH.sub("", text))
        if LIGATURE.search(text):  # a font's ﬁ, ﬂ: the letters
            text = LIGATURE.sub(lambda m: LIGATURES[m.group()], text)
    notes: list[Diagnostic] = []
    if _OCR_SUSPECT.search(text):
        text = _ocr_numbers(text, source, notes)
    if "<a" in text or "<A" in text:
        text = _ANCHOR_TAG.sub("", text)
    if "](#" in text:
        text = _ANCHOR_LINK.sub(r"\1", text)
    lines = text.split("\n")
    if "..." in text or ". . ." in text or "…" in text or "   " in text:
        lines, contents = _without_contents(lines, source)
        notes += contents
        text = "\n".join(lines)
    if "\\" in text and len(_ESCAPED.findall(text, 0, 400_000)) >= _MIN_ESCAPES:
        text, escaped = _ESCAPED.subn(r"\1", text)
        lines = text.split("\n")
        notes.append(Diagnostic(f"{escaped} characters escaped with a backslash, as a Markdown "
                                "writer escapes them ('100\\. General', '\\[E\\]'), read as the "
                                "characters", source, 0, "info"))
    origin: list[int] | None = None  # the document's line of each line, once lines move
    if "|" in text:
        lines, origin = _table_rows(lines, source, notes)
        text = "\n".join(lines)
    if "   " in text:
        lines, origin = _columns(lines, origin, text.count("\f") + 1 >= _MIN_PAGES, source, notes)
        text = "\n".join(lines)
    if text.count("\f") + 1 < _MIN_PAGES:  # a stray form feed is whitespace to the readers
        seams = _page_seams(lines)
        if seams:
            kept = [i for i in range(len(lines)) if i not in seams]
            notes.append(Diagnostic(
                f"{len(seams)} lines of page breaks copied into the text (a running title, page "
                f"numbers; the first at line {_at(origin, min(seams))}) removed, the paragraphs "
                "they cut joined", source, _at(origin, min(seams)), "info"))
            lines, origin = [lines[i] for i in kept], [_at(origin, i) for i in kept] or [1]
        lines, origin = _without_hanging_indents(lines, origin, source, notes)
        return Normalised("\n".join(_dehyphenated(lines, source, notes)), origin, notes)
    paged = _without_pages(lines, source)
    paged.notes[:0] = notes
    lines, paged.origin = _without_hanging_indents(paged.text.split("\n"), paged.origin, source, paged.notes)
    paged.text = "\n".join(_dehyphenated(lines, source, paged.notes))
    if origin is not None and paged.origin is not None:
        paged.origin = [origin[n - 1] for n in paged.origin]
    return paged


# A rule number at a line's start in which OCR read a digit as a letter (``l00.1.``, ``1O3.2a``,
# ``7O2.l9b``): the id's characters, digits and the letters OCR mistakes for them.
_OCR_ID = re.compile(r"(?m)^(?P<lead>[^\w\n]{0,6}(?:\*\*|__)?)(?P<id>[0-9OoIl|]{3}(?:\.[0-9a-zOIl|]+)*\.?|"
                     r"[0-9OoIl|]\.)(?=[ \t]+\S|(?:\*\*|__)[ \t])")
# A line that may start with one: such a letter in the first part, an O, I or | in a later
# part, or an l or o before a digit there.
_OCR_SUSPECT = re.compile(r"(?m)^[^\w\n]{0,6}(?:\*\*|__)?(?:[0-9OoIl|]{0,2}[OoIl|][0-9OoIl|]{0,2}\.|"
                          r"\d{3}\.[0-9a-z.]*(?:[OI|]|[lo]\d))")
_OCR_DIGITS = str.maketrans("OoIl|", "00111")
_CLEAN_ID = re.compile(r"^\d{1,3}(?:\.(?:\d+[a-z]{0,2}|[a-z]{1,2}))*\.?$")  # 100.1a, 103.1.b.1.


def _ocr_digit_part(part: str, first: bool) -> str:
    """One dot-separated part of an id with OCR's letters read as the digits they stand for:
    every character of the first part (digits only, in both games); in a later part, a
    letter beside a digit that does not end the part (``l9b``, ``1O``: Magic's attached
    letter, ``100.1l``, and a part that is one letter, Riftbound's ``103.1.l.``, stay)."""
    if first:
        return part.translate(_OCR_DIGITS)
    chars = list(part)
    for i, ch in enumerate(chars):
        near_digit = (i > 0 and part[i - 1].isdigit()) or (i + 1 < len(part) and part[i + 1].isdigit())
        if ch in "OIl|o" and i < len(part) - 1 and near_digit or ch in "OI|":
            chars[i] = ch.translate(_OCR_DIGITS)
    return "".join(chars)


def _ocr_numbers(text: str, source: str, notes: list[Diagnostic]) -> str:
    """The rule numbers at lines' starts in which OCR read digits as letters (``l00.1.``,
    ``1O3.2a``) written with the digits, in a text whose ids are mostly clean (a rules
    document: at least as many clean ids as such ones); the text is unchanged
    elsewhere, and a note names the first line."""
    fixed: list[tuple[int, str, str]] = []
    clean = 0

    def repaired(m: re.Match[str]) -> str:
        nonlocal clean
        raw = m.group("id")
        if _CLEAN_ID.match(raw):
            clean += 1
            return m.group(0)
        parts = raw.split(".")
        digits = ".".join(_ocr_digit_part(part, n == 0) for n, part in enumerate(parts))
        if (digits == raw or not _CLEAN_ID.match(digits) or not any(c.isdigit() for c in raw)):
            return m.group(0)
        fixed.append((m.start(), raw, digits))
        return m.group("lead") + digits

    out = _OCR_ID.sub(repaired, text)
    if not fixed or clean < len(fixed):
        return text
    first_line = text.count("\n", 0, fixed[0][0]) + 1
    notes.append(Diagnostic(f"{len(fixed)} rule numbers with letters where OCR misread digits "
                            f"('{fixed[0][1]}' at line {first_line}) read as the numbers they print "
                            f"('{fixed[0][2]}')", source, first_line, "info"))
    return out


def _at(origin: list[int] | None, index: int) -> int:
    """The document's line of line ``index`` (0-based) of the lines so far."""
    return origin[index] if origin is not None else index + 1


# A Markdown table's row that holds a rule: its number in the first cell, its text in the next.
_TABLE_RULE = re.compile(r"^\s*\|\s*(?:\*\*|__)?(\d{1,3}(?:\.[0-9a-z]+)*\.?)(?:\*\*|__)?\s*\|(.*?)\|?\s*$")
_TABLE_OTHER = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def _table_rows(lines: list[str], source: str, notes: list[Diagnostic]) -> tuple[list[str], list[int] | None]:
    """A Markdown table of rules (``| 100.1. | These Magic rules… |``) as the release prints
    them: each row a paragraph, its number then its text, a ``<br>`` in a cell a line break;
    the table's head and rules of dashes left out; other lines as they were. Only when three
    rows or more hold rule numbers."""
    rows = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("|") and _TABLE_RULE.match(ln)]
    if len(rows) < _MIN_TABLE_ROWS:
        return lines, None
    out: list[str] = []
    origin: list[int] = []
    for i, ln in enumerate(lines):
        m = _TABLE_RULE.match(ln)
        if m:
            cells = [c.strip() for c in m.group(2).split("|")]
            parts = _TABLE_BREAK.split(" ".join(c for c in cells if c).replace("&#124;", "|"))
            parts[0] = f"{m.group(1)} {parts[0].strip()}"
            out += [p.strip() for p in parts] + [""]
            origin += [i + 1] * (len(parts) + 1)
        elif _TABLE_OTHER.match(ln):
            out.append("")  # the table's head, its rule of dashes, a row without a number
            origin.append(i + 1)
        else:
            out.append(ln)
            origin.append(i + 1)
    notes.append(Diagnostic(f"{len(rows)} rules in a table (a number and a text a row) read as "
                            "paragraphs", source, rows[0] + 1, "info"))
    return out, origin


_GAP = re.compile(r"(?<=\S) {3,}(?=\S)")
_COLUMN_SHARE = 0.3  # of the lines with text: this share or more beside a second column
_MIN_COLUMN_LINES = 12


def _gutter(lines: list[str]) -> int | None:
    """The column where a second column of text starts, in text printed in two columns side
    by side (``pdftotext -layout``), or None: the place most wide gaps inside lines end, when
    a share of the lines has text there, after a gap (or after nothing but spaces)."""
    filled = [ln for ln in lines if ln.strip()]
    least = max(_MIN_COLUMN_LINES, _COLUMN_SHARE * len(filled))
    gapped = [ln for ln in filled if "   " in ln]
    if len(gapped) < least:  # most texts: no regular expression run over every line
        return None
    ends: Counter[int] = Counter(m.end() for ln in gapped for m in _GAP.finditer(ln))
    if not ends:
        return None
    column, _ = ends.most_common(1)[0]
    beside = sum(1 for ln in filled if _second_column_at(ln, column) is not None)
    return column if beside >= least else None


def _second_column_at(line: str, column: int) -> int | None:
    """Where the second column starts on ``line``: at ``column`` or one either side, text
    after three characters of white space; None when the line has no text there."""
    return next((c for c in (column, column - 1, column + 1)
                 if c < len(line) and line[c - 3:c].isspace() and line[c:c + 1].strip()), None)


def _split_page(lines: list[str], column: int) -> tuple[list[int], list[str]]:
    """A page's lines in reading order: its left column, then its right one (a line with no
    gap at the column, a heading across both, stays whole on the left), a blank line between
    them unless a paragraph goes on from the one to the other; with each line's index in
    the page."""
    left: list[tuple[int, str]] = []
    right: list[tuple[int, str]] = []
    for k, ln in enumerate(lines):
        at = _second_column_at(ln, column)
        left.append((k, ln[:at].rstrip() if at is not None else ln.rstrip()))
        right.append((k, ln[at:].rstrip() if at is not None else ""))
    while left and not left[-1][1].strip():
        left.pop()
    while right and not right[0][1].strip():
        right.pop(0)
    if right and left and not _continues(left[-1][1], right[0][1].strip(),
                                         right[1][1] if len(right) > 1 else "", column):
        left.append((right[0][0], ""))
    both = left + right
    return [k for k, _ in both], [t for _, t in both]


def _columns(lines: list[str], origin: list[int] | None, paged: bool, source: str,
             notes: list[Diagnostic]) -> tuple[list[str], list[int] | None]:
    """Text printed in two columns side by side: with its pages (form feeds), each page read
    column by column; without them a page's end cannot be told, and the document is refused
    naming where the columns are."""
    column = _gutter(lines)
    if column is None:
        return lines, origin
    first = next(i for i, ln in enumerate(lines) if _GAP.search(ln))
    if not paged:
        raise DocumentError([Diagnostic(
            f"the text is printed in two columns side by side (from line {_at(origin, first)}, a second "
            f"column starts at column {column + 1}), without the form feeds that end its pages, so "
            "the columns cannot be read in order; convert the PDF again page by page (pdftotext "
            "without -layout, or keeping its form feeds) or import the PDF itself",
            source, _at(origin, first))])
    pages: list[list[tuple[int, str]]] = [[]]  # (index in lines, text) of each page's lines
    for i, ln in enumerate(lines):
        for k, part in enumerate(ln.split("\f")):
            if k:
                pages.append([])
            pages[-1].append((i, part))
    out: list[str] = []
    out_origin: list[int] = []
    for n, page in enumerate(pages):
        if n:
            out.append("\f")
            out_origin.append(_at(origin, page[0][0]))
        order, text = _split_page([t for _, t in page], column)
        out += text
        out_origin += [_at(origin, page[k][0]) for k in order]
    notes.append(Diagnostic(f"the pages are printed in two columns (the second from column "
                            f"{column + 1}): read column by column", source, _at(origin, first), "info"))
    return out, out_origin


# An indented line that is indented for what it is, not for a hanging indent: a list item, a
# quote, a heading, a table's row, a numbered line (a rule, a list's item), an example.
_INDENTED_ON_PURPOSE = re.compile(r"^[ \t]*(?:[-*+][ \t]|>|#{1,6}(?:[ \t]|$)|\||\d{1,3}[.)][ \t]"
                                  r"|(?:\*\*|__)?\d{3}\.\d|Examples?:)")
_MIN_HANGING = 3  # paragraphs ending in their indented lines, at least
_MAX_WRAP_WIDTH = 160  # hanging indents are a wrapped text's (the releases' paragraphs: 390 a line)
_HANGING_SHARE = 4  # ... and this many times as many as the indented lines the margin goes on after


def _hanging_runs(lines: list[str], width: int) -> tuple[list[list[int]], int]:
    """The runs of indented lines that go on with the line above them (at the margin, not
    blank, and full: the run's first word would not have fitted on it at the text's
    ``width``), each with the same indent, and how many of them the margin goes on after (a
    paragraph indented at its first line: the 2003 Magic releases' layout); the runs counted
    as hanging end at a blank line, a line starting a paragraph (a rule, an example) or the
    text's end."""
    runs: list[list[int]] = []
    first_indented = 0
    i, n = 1, len(lines)
    while i < n:
        above, line = lines[i - 1], lines[i]
        if not (line[:1] in (" ", "\t") and line.strip() and above.strip() and above[:1] not in (" ", "\t")
                and not _INDENTED_ON_PURPOSE.match(line)
                and len(above.rstrip()) + 1 + len(line.split()[0]) > width):
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        run = [i]
        while i + len(run) < n and _goes_on(lines[i + len(run) - 1], lines[i + len(run)], indent, width):
            run.append(i + len(run))
        after = lines[i + len(run)] if i + len(run) < n else ""
        if after.strip() and after[:1] not in (" ", "\t") and not _STARTS_PARAGRAPH.match(after):
            first_indented += 1  # the margin goes on after it: an indented first line
        elif not after.strip() or not after[:1].isspace():
            runs.append(run)
        i += len(run)
    return runs, first_indented


def _goes_on(above: str, line: str, indent: int, width: int) -> bool:
    """Does ``line`` go on with a hanging paragraph indented by ``indent`` whose line
    ``above`` it is? At that indent; shaped as a line indented on purpose only after a full
    line (a wrap put ``4. If the player…`` there, not a list)."""
    if not line.strip() or len(line) - len(line.lstrip()) != indent:
        return False
    return not _INDENTED_ON_PURPOSE.match(line) or len(above.rstrip()) + 1 + len(line.split()[0]) > width


def _without_hanging_indents(lines: list[str], origin: list[int] | None, source: str,
                             notes: list[Diagnostic]) -> tuple[list[str], list[int] | None]:
    """The lines with a text's hanging indents undone (see the module docstring): each
    paragraph so set is one line again, its wrapped lines joined onto its first (a word
    hyphenated at a line end read as :func:`dehyphenated` reads it), so that none of them is
    read as what its start looks like (``725.2 to trigger…``); and the document's line of
    each line, with a note naming the first paragraph. A text not so set is as it was."""
    if not any(ln[:1] in (" ", "\t") for ln in lines):
        return lines, origin
    width = _width(lines)
    if width > _MAX_WRAP_WIDTH:  # a paragraph a line: an indented line is one of its own
        return lines, origin
    runs, first_indented = _hanging_runs(lines, width)
    if len(runs) < _MIN_HANGING or len(runs) < _HANGING_SHARE * first_indented:
        return lines, origin
    vocabulary = word_counts(lines)
    joined = {k for run in runs for k in run}
    out: list[str] = []
    kept: list[int] = []
    for i, line in enumerate(lines):
        if i in joined:
            out[-1] = _joined(out[-1], line.strip(), vocabulary)
        else:
            out.append(line)
            kept.append(_at(origin, i))
    notes.append(Diagnostic(
        f"the paragraphs are set with hanging indents ({len(runs)} paragraphs' wrapped lines "
        f"indented, the first at line {_at(origin, runs[0][0])}): each read as one paragraph",
        source, _at(origin, runs[0][0]), "info"))
    return out, kept


def _joined(line: str, following: str, vocabulary: Counter[str]) -> str:
    """A wrapped line and the line it goes on with as one: with a space between them, or a
    word hyphenated at the end (``perma-`` | ``nent``) whole, or with its hyphen where the
    document spells it so (:func:`keeps_hyphen`); a suspended hyphen stays, a space after it."""
    line = line.rstrip()
    m, n = _HYPHENATED_END.search(line), _FIRST_WORD.match(following)
    if not (m and n and following[:1].islower()):
        return f"{line} {following}"
    first, second = m.group(1), n.group(1)
    if second.lower() in _SUSPENDING and vocabulary[(first + second).lower()] == 0:
        return f"{line} {following}"
    keep = keeps_hyphen(first, second, vocabulary, line.endswith("\u00ad"))
    return (line if keep else line[:-1]) + following


def _dehyphenated(lines: list[str], source: str, notes: list[Diagnostic]) -> list[str]:
    """The lines with the words hyphenated at their ends read (:func:`dehyphenated`), and a
    note saying which."""
    if not any(ln.endswith(("-", "\u00ad")) for ln in lines):
        return lines
    lines, joined = dehyphenated(lines)
    if joined:
        notes.append(Diagnostic(
            f"{sum(joined.values())} words hyphenated at a line end read whole or with their "
            f"hyphen as the document spells them: {', '.join(sorted(joined)[:6])}"
            + ("…" if len(joined) > 6 else ""), source, 0, "info"))
    return lines


def _page_seams(lines: list[str]) -> set[int]:
    """The lines a page break left in text copied from a PDF viewer, which copies no form
    feed: a bare page number (``12``, ``Page 12 of 80``) beside a running line (the same
    text, digits aside, at three page breaks or more), and that line; and a line that counts
    the pages by itself (``Page 12 of 80``: :func:`_counted_pages`), with or without one
    beside it. They go wherever they fall, between two paragraphs or inside one."""
    numbers = [i for i, ln in enumerate(lines)  # a page number's line is short
               if len(ln) <= _PAGE_NUMBER_WIDTH and ln.strip() and _PAGE_NUMBER.match(ln.strip())]
    if len(numbers) < _MIN_PAGES:
        return set()
    counted = _counted_pages(lines, numbers)  # they go without a running line beside them too
    beside: Counter[str] = Counter()
    for i in numbers:
        for j in (i - 1, i + 1):
            if 0 <= j < len(lines) and lines[j].strip() and not _PAGE_NUMBER.match(lines[j].strip()):
                beside[_edge_key(lines[j])] += 1
    running = {key for key, n in beside.items() if n >= _MIN_PAGES and n >= len(numbers) // 2}
    if not running:
        return counted
    seams: set[int] = set()
    for i in numbers:
        near = [j for j in (i - 1, i + 1) if 0 <= j < len(lines) and _edge_key(lines[j]) in running]
        if near:
            seams.update([i, *near])
    return (seams if len(seams) >= 2 * _MIN_PAGES else set()) | counted


# A page's own number said as one ("Page 12", "Page 12 of 80", "12 of 80", "12 / 80").
_COUNTED_PAGE = re.compile(r"^(?:page\s+(\d{1,4})(?:\s*(?:of|/)\s*(\d{1,4}))?|(\d{1,4})\s*(?:of|/)\s*(\d{1,4}))$",
                           re.IGNORECASE)


def _counted_pages(lines: list[str], numbers: list[int]) -> set[int]:
    """The lines among ``numbers`` that count the pages by themselves (``Page 12 of 80``, a
    viewer's copy without a running title beside them): three or more, their pages never
    counting down (a page numbered over and under it), all of one total where they say it."""
    said = [(i, _COUNTED_PAGE.match(lines[i].strip())) for i in numbers]
    counted = [(i, m) for i, m in said if m]
    if len(counted) < _MIN_PAGES:
        return set()
    pages = [int(m.group(1) or m.group(3)) for _, m in counted]
    totals = {m.group(2) or m.group(4) for _, m in counted}
    if any(b < a for a, b in zip(pages, pages[1:])) or len(totals) != 1 or (
            None not in totals and max(pages) > int(next(iter(totals)))):
        return set()
    return {i for i, _ in counted}


_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_HYPHENATED_END = re.compile(r"(?<![-\w])([^\W\d_]+)[-\u00ad]$")
_SUSPENDING = frozenset(("and", "or", "nor", "to"))  # "power- and toughness-changing"
_FIRST_WORD = re.compile(r"^([^\W\d_]+(?:-[^\W\d_]+)*)")  # a compound whole: "and-green"
_STUCK = re.compile(r"\S*")  # what a word's second half is printed with up to a space: "board." "er’s"


def word_counts(texts: list[str]) -> Counter[str]:
    """How often the document spells each word (lower-cased), leaving out the halves of words
    hyphenated at a line end (``discard-`` / ``ing``), which are no words of it."""
    words: Counter[str] = Counter()
    split = False
    for text in texts:
        found = _WORD.findall(text)
        hyphenated = bool(_HYPHENATED_END.search(text.rstrip()))
        words.update(w.lower() for w in found[1 if split else 0:len(found) - (1 if hyphenated else 0)])
        split = hyphenated
    return words


def keeps_hyphen(first: str, second: str, vocabulary: Counter[str], soft: bool = False) -> bool:
    """Is ``first-`` at a line end and ``second`` on the next one a hyphenated word
    (``two-`` ``player``) rather than one word broken at the line end (``perma-`` ``nent``)?
    Kept when the document spells it with the hyphen, or never whole and both halves are
    its words; a soft hyphen never stays."""
    if "-" in second:  # a compound broken at one of its hyphens ("black-" | "and-green")
        return not soft
    whole, hyphenated = (first + second).lower(), f"{first}-{second}".lower()
    return not soft and (vocabulary[hyphenated] > 0 or (
        vocabulary[whole] == 0 and vocabulary[first.lower()] > 1 and vocabulary[second.lower()] > 1))


def dehyphenated(lines: list[str]) -> tuple[list[str], Counter[str]]:
    """The lines with each word hyphenated at a line end (``oppon-`` | ``ents within``) put
    together on the first line (``opponents`` | ``within``), or with its hyphen where the
    document spells it so (:func:`keeps_hyphen`); every line stays where it is. Returns the
    lines and the words so read. A suspended hyphen (``power-`` | ``and toughness-changing``)
    stays as printed."""
    ends = [i for i in range(len(lines) - 1) if _HYPHENATED_END.search(lines[i].rstrip())
            and _FIRST_WORD.match(lines[i + 1].lstrip()) and lines[i + 1].lstrip()[:1].islower()]
    if not ends:
        return lines, Counter()
    vocabulary = word_counts(lines)
    out = list(lines)
    joined: Counter[str] = Counter()
    for i in ends:
        current, following = out[i].rstrip(), out[i + 1].lstrip()
        m, n = _HYPHENATED_END.search(current), _FIRST_WORD.match(following)
        if not (m and n):
            continue
        first, second = m.group(1), n.group(1)
        if second.lower() in _SUSPENDING and vocabulary[(first + second).lower()] == 0:
            continue  # a suspended hyphen ("power-" | "and toughness-changing"): as printed
        keep = keeps_hyphen(first, second, vocabulary, current.endswith("\u00ad"))
        word = (current[m.start():] if keep else current[m.start():-1]) + second
        # what sticks to the second half ("board." | "er’s") goes with it
        tail = _STUCK.match(following, n.end()).group()
        rest = following[n.end() + len(tail):].lstrip()
        before = current[:m.start()].rstrip()
        if rest:
            out[i], out[i + 1] = current[:m.start()] + word + tail, rest
        elif before:  # the second half ends its line: the word goes down, no line left empty
            out[i], out[i + 1] = before, word + tail
        else:
            continue  # the word alone on both lines: left as printed
        joined[f"{first}-{second}" if keep else first + second] += 1
    return out, joined


def without_contents_list(lines: list[str], source: str, *, rules_only: bool = False
                          ) -> tuple[list[str], list[Diagnostic]]:
    """The lines with a table of contents without page numbers blanked, and the note saying
    so (for readers whose numbering gives a heading no mark of its own: Riftbound's). With
    ``rules_only``, only a contents that lists rule numbers too (``100.1``), not only
    headings: the Magic reader skips a Contents of chapters and sections itself."""
    listed = _contents_list(lines)
    if rules_only and not any("." in _LISTED.match(lines[k]).group(1) for k in listed):
        return lines, []
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
    it is three lines or more and every number in it is printed again after it, but one in
    fifty the body may print otherwise (a document's rules are printed once: that is what
    tells its contents from its body)."""
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
    # a number or two the body prints otherwise ("606. 8b") leaves it a contents
    return run if len(listed - later) <= len(listed) // _CONTENTS_UNMATCHED else []


def _contents_line(line: str) -> bool:
    """The line is one of a table of contents (a title, dots or a gap, a page number). Only
    a line ending in a digit can be: the pattern, slow on a long line (a rule's), is tried on
    those alone."""
    text = line.strip()
    return text[-1:].isdigit() and _CONTENTS_LINE.match(text) is not None


def _without_contents(lines: list[str], source: str) -> tuple[list[str], list[Diagnostic]]:
    """The lines with each table of contents blanked (see the module docstring)."""
    out = list(lines)
    notes = []
    i = 0
    while i < len(lines):
        if not _contents_line(lines[i]):
            i += 1
            continue
        run, j = [], i
        while j < len(lines) and (not lines[j].strip() or _contents_line(lines[j])):
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
    titled = _running_titles(pages)
    width = _width(lines)
    out: list[tuple[int, str]] = []
    removed = 0
    for page in pages:
        drop = {i for i in _edges(page)
                if _edge_key(page[i][1]) in running or _PAGE_NUMBER.match(page[i][1].strip())}
        top = next((i for i, (_, t) in enumerate(page) if t.strip()), None)
        if titled and top is not None:
            drop.add(top)
        removed += len(drop)
        kept = [pl for i, pl in enumerate(page) if i not in drop]
        while kept and not kept[0][1].strip():
            kept.pop(0)
        while kept and not kept[-1][1].strip():
            kept.pop()
        if not kept:
            continue
        if out and not (_continues(out[-1][1], kept[0][1], kept[1][1] if len(kept) > 1 else "", width,
                                   out[-2][1] if len(out) > 1 else "")
                        or _next_sense(out, kept[0][1])):
            out.append((kept[0][0], ""))
        out.extend(kept)
    notes = [Diagnostic(f"{len(pages)} pages parted by form feeds: {removed} running header, footer "
                        "and page-number lines removed, paragraphs cut by a page break joined",
                        source, 0, "info")]
    return Normalised("\n".join(t for _, t in out), [n for n, _ in out] or [1], notes)


def _running_titles(pages: list[list[tuple[int, str]]]) -> bool:
    """Does every page start with a running title that changes through the document (the
    chapter a page is in, over it)? So it is where at least three pages in four start with a
    line another page starts with too, which no text repeats; a chapter of one page then has
    its title dropped too."""
    tops = [next((_edge_key(t) for _, t in page if t.strip()), "") for page in pages]
    repeated = {key for key, n in Counter(tops).items() if key and n >= 2}
    return len(pages) >= _MIN_PAGES and sum(t in repeated for t in tops) >= _TITLED_SHARE * len(tops)


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


def _continues(last: str, first: str, second: str, width: int, above: str = "") -> bool:
    """Does the first line of a page (``second`` is the line after it) go on with the
    paragraph the page before ends with (``above`` is the line over its ``last``)?"""
    if not last.strip():
        return False
    if _ENDS_WITH_REFERENCE_WORD.search(last):  # "See rule" | "702.114, “Devoid.”"
        return True
    if _SENSE.match(first.lstrip()) and not _ENDS_SENTENCE.search(last.rstrip()):
        return True  # "Draft" | "1. A Limited format…": a term and its numbered senses
    if _STARTS_PARAGRAPH.match(first.lstrip()):
        return False
    below = second.split()
    if not _ENDS_SENTENCE.search(last.rstrip()):
        # A page ending, without a sentence's end ("… See rule 603.4"), on a paragraph's line
        # after its first (a term's is short) that the next page's first word would have
        # fitted on with room to spare, before a short capitalised line the next one's first
        # word would have fitted on: a paragraph ended (a wrapped one fills its lines), and a
        # glossary term or a heading starts.
        return not (above.strip() and len(last.rstrip()) + 1 + len(first.split()[0]) <= _SHORT_LINE * width
                    and first[:1].isupper() and below
                    and len(first.strip()) < _SHORT_LINE * width and not _ENDS_SENTENCE.search(first.rstrip())
                    and len(first.rstrip()) + 1 + len(below[0]) <= width)
    # After a sentence's end: a short last line ended its paragraph; a short first line with
    # more lines under it stands alone (a glossary term, a heading).
    # So does a first line the next line's first word would have fitted on: a line the writer
    # ended, not the wrapping ("Remove from the Game, … (Obsolete)" over its definition).
    return not (len(last.rstrip()) < _SHORT_LINE * width
                or (len(first.strip()) < _SHORT_LINE * width and bool(second.strip()))
                or (below and not _ENDS_SENTENCE.search(first.rstrip())
                    and len(first.rstrip()) + 1 + len(below[0]) <= width))
