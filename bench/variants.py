"""Variants real producers make of the rule documents we have, within the layouts we know.

``python -m bench.variants`` derives every variant of :data:`VARIANTS` from the real documents
of ``../shared/corpora`` (:data:`DOCUMENTS`: Riftbound 1.4, 1.3 and 1.2's second layout, the
PDF's text; Magic 2026-01-16 and 2010-10-01; four archive releases), reads each as
``rulekb import`` reads a file (:func:`kb.read.read_bytes`) and says, per variant and
document, whether it reads **identical** rule for rule to the canonical read (number, kind,
title, text, examples and parent of every rule, every glossary term, and the edition's date),
is **refused naming the place** (a line, and what is wrong there), or is **misread** (the
rules or the date that differ, the first of them shown). ``tests/test_read_variants.py`` runs
the same table as a test.

The variants come in three levels:

* **text**: line ends (CRLF, CR alone), a BOM, no-break and thin spaces, soft hyphens,
  ligatures, smart quotes (curled, or straightened), dashes in numbers and ranges, tabs after
  numbers, trailing spaces, zero-width characters, Windows-1252 and Latin-1 bytes, NFD;
* **wrap**: paragraphs hard-wrapped at 72 or 80 columns with words hyphenated at line ends,
  pages with headers and footers (a page number, a running title, the chapter's running
  title), two blank lines between blocks, a rule split by a page break;
* **structure**: a future edition with a new top-level part, a rule numbered one level deeper
  than any the document has, the date line rewritten in another format, the Glossary before
  the rules, Markdown headings one level deeper, web pages exported by other tools (nested
  ``<ol>``/``<li>``; ``<p class>`` paragraphs with the number in a ``<span>``), a rule viewer's
  page whose numbers its style draws (``data-number``, the lists' ``type``, ``start`` and
  ``value``), and a table of contents that repeats every rule number.

A variant's text may be changed on purpose (quotes curled, Latin-1's missing characters): it
then names the :attr:`Variant.fold` that both reads are compared through, so only what the
variant did not mean to change counts. Nothing is stored: each variant is made at run time.
"""

from __future__ import annotations

import argparse
import codecs
import datetime as dt
import html
import re
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bench.corpora import CORPORA
from bench.layouts import (Canonical, Game, _added_part, _blocks_of, _front_matter, _glossary_first,
                           _ligatures, _mtg_markdown, _paged, canonical, parents)
from kb.model import DocumentError, ReadResult
from kb.numbers import SortKey, format_number, parse_number, sort_key
from kb.read import read_bytes

Level = Literal["text", "wrap", "structure"]
# What the reader must do: read the same rules ("same"); read them and the rules the variant
# adds with their kinds and parents, or refuse naming the added line ("added").
Expect = Literal["same", "added"]

# The documents each variant is derived from (those present in ../shared/corpora).
DOCUMENTS: list[tuple[Game, str]] = [
    ("riftbound", "riftbound/core-rules-2026-07-16.md"),
    ("riftbound", "riftbound/core-rules-2026-03-30.md"),
    ("riftbound", "riftbound/core-rules-2025-12-01.md"),  # 1.2's second layout: the PDF's text
    ("mtg", "mtg/comprehensive-rules-2026-01-16.txt"),
    ("mtg", "mtg/comprehensive-rules-2010-10-01.txt"),
    ("mtg", "mtg/archive/comprehensive-rules-2004-10-01.txt"),
    ("mtg", "mtg/archive/comprehensive-rules-2009-10-01.txt"),
    ("mtg", "mtg/archive/comprehensive-rules-2017-09-25.txt"),
    ("mtg", "mtg/archive/comprehensive-rules-2025-09-19.txt"),
]


@dataclass(frozen=True)
class Made:
    """A variant made from a canonical document: its bytes, the rules it adds (number, kind,
    parent number or None) with the line each is on, and the date it must read with ("" when
    it keeps the canonical one)."""

    data: bytes
    added: tuple[tuple[str, str, str | None, int], ...] = ()
    date: str = ""


@dataclass(frozen=True)
class Variant:
    """One variant a producer makes: its name, level, the canonical readers whose documents it
    applies to, how it is made, what the reader must do, and the fold both reads are compared
    through (what the variant changes on purpose)."""

    name: str
    level: Level
    formats: tuple[str, ...]
    make: Callable[[Canonical], Made | None]  # None: this document cannot have it
    expect: Expect = "same"
    fold: Callable[[str], str] | None = None
    # It changes what only a whole document holds (pages, the Glossary, the contents, the
    # deepest numbers): the tests derive it from full documents too, not only the excerpts.
    whole: bool = False


@dataclass
class Verdict:
    """How one variant of one document read: "identical", "refused" (with the place) or
    "misread" (with what differs)."""

    variant: str
    document: str
    outcome: Literal["identical", "refused", "misread"]
    detail: str = ""
    cpu: float = 0.0


# -- comparing --------------------------------------------------------------------------------

def _words(text: str) -> str:
    return " ".join(text.split())


def fingerprint(result: ReadResult, fold: Callable[[str], str] | None) -> dict[SortKey, tuple]:
    """Per rule number its kind, title, text, examples and parent; per glossary term its
    definition and rules (texts white-space folded, then through ``fold``)."""
    def f(text: str) -> str:
        return _words(fold(text)) if fold else _words(text)

    up = parents(result.rules)
    out: dict[SortKey, tuple] = {}
    for r in result.rules:
        key = sort_key(r.number)
        out[key] = (r.kind, f(r.title), f(r.text), tuple(map(f, r.examples)), up[key])
    for t in result.terms:
        out[("term", t.kind, f(t.name))] = (f(t.definition), tuple(t.rules))
    return out


def _name(key: SortKey, game: Game) -> str:
    if key[:1] == ("term",):
        return f"term {key[2]!r}"
    return format_number(tuple(str(v) for _, v in key), game)


def _where(err: DocumentError) -> str:
    first = next((d for d in err.diagnostics if d.line > 0), None)
    if first is None:
        return ""
    return f"line {first.line}: {first.message}"


def judge(variant: Variant, doc: Canonical, made: Made) -> Verdict:
    """Read one variant and judge it against the canonical read of its document."""
    source = f"{doc.name}~{variant.name}"
    started = time.process_time()
    try:
        result, _ = read_bytes(made.data, source)
    except DocumentError as err:
        cpu = time.process_time() - started
        where = _where(err)
        if not where:
            return Verdict(variant.name, doc.name, "misread", f"refused naming no line: {err}", cpu)
        if variant.expect == "added" and made.added and not any(
                d.line in {line for *_, line in made.added} for d in err.diagnostics):
            return Verdict(variant.name, doc.name, "misread", f"refused elsewhere, {where}", cpu)
        return Verdict(variant.name, doc.name, "refused", where, cpu)
    cpu = time.process_time() - started
    problems = []
    reference, got = fingerprint(doc.result, variant.fold), fingerprint(result, variant.fold)
    added = {sort_key(parse_number(n)) for n, *_ in made.added}
    differ = [k for k in reference if got.get(k) != reference[k]]
    extra = [k for k in got if k not in reference and k not in added]
    if differ:
        problems.append(f"{len(differ)} differ (first {_name(differ[0], doc.game)})")
    if extra:
        problems.append(f"{len(extra)} extra (first {_name(extra[0], doc.game)})")
    want_date = made.date or doc.result.date
    if result.date != want_date:
        problems.append(f"date {result.date or 'none'!s} for {want_date}")
    up = parents(result.rules)
    kinds = {sort_key(r.number): r.kind for r in result.rules}
    noted = {d.line for d in result.diagnostics}
    for number, kind, parent, line in made.added:
        key = sort_key(parse_number(number))
        want_parent = sort_key(parse_number(parent)) if parent else None
        if (kinds.get(key), up.get(key)) != (kind, want_parent) and line not in noted:
            problems.append(f"added {number} read as {kinds.get(key, 'nothing')}, silently")
    if problems:
        return Verdict(variant.name, doc.name, "misread", "; ".join(problems), cpu)
    return Verdict(variant.name, doc.name, "identical", "", cpu)


# -- text-level variants -----------------------------------------------------------------------

_ID_AT_START = re.compile(r"(?m)^(\*\*)?(\d{3}(?:\.[0-9a-z]+)*\.?)(\*\*)?([ \t]+)")
_QUOTES = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"'})
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-", "‐": "-", "‑": "-"})
_LATIN1_LIKE = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "--",
                              "−": "-", "…": "...", "™": "(TM)"})


def fold_quotes(text: str) -> str:
    """Curly quotes as straight ones."""
    return text.translate(_QUOTES)


def fold_dashes(text: str) -> str:
    """En, em and minus dashes (and Unicode hyphens) as hyphen-minus; ``--`` as one."""
    return text.translate(_DASHES).replace("--", "-")


def as_latin1(text: str) -> str:
    """The text as a Latin-1 export writes it: ligatures as their letters, typographic
    characters Latin-1 lacks as their ASCII stand-ins, any other as ``?``."""
    text = _unligatured(text).translate(_LATIN1_LIKE)
    return text.encode("latin-1", errors="replace").decode("latin-1")


def as_cp1252(text: str) -> str:
    """The text as a Windows-1252 export writes it: ligatures as their letters, characters
    it lacks as ``?``."""
    return _unligatured(text).encode("cp1252", errors="replace").decode("cp1252")


def _unligatured(text: str) -> str:
    return re.sub("[\ufb00-\ufb04]", lambda m: unicodedata.normalize("NFKC", m.group()), text)


def _utf8(text: str) -> Made:
    return Made(text.encode("utf-8"))


def _after_numbers(text: str, space: str) -> str:
    """The white space after every rule number at a line's start replaced."""
    return _ID_AT_START.sub(lambda m: f"{m.group(1) or ''}{m.group(2)}{m.group(3) or ''}{space}", text)


def _thin_spaces(doc: Canonical) -> Made:
    """NBSP after each rule number, a thin space (U+2009) for every fifth space between words."""
    text = _after_numbers(doc.text, "\u00a0")
    count = iter(range(10 ** 9))
    return _utf8(re.sub(r"(?<=[a-z]) (?=[a-z])", lambda m: "\u2009" if next(count) % 5 == 0 else " ", text))


def _soft_hyphens(doc: Canonical) -> Made:
    """A word processor's optional hyphens inside long words (``oppo\\u00adnent``)."""
    return _utf8(re.sub(r"\b([A-Za-z]{4})([a-z]{4,})\b", "\\1\u00ad\\2", doc.text))


def _zero_width(doc: Canonical) -> Made:
    """Zero-width spaces and joiners a web copy leaves: one inside each rule number, one
    between some words."""
    text = _ID_AT_START.sub(lambda m: m.group(0).replace(".", ".\u200b", 1), doc.text)
    return _utf8(re.sub(r"(?<=[a-z]) (?=the\b)", " \u200d", text))


def _curled(doc: Canonical) -> Made | None:
    """Straight quotes curled as a word processor's smart quotes do (in a page's text, not
    inside its tags)."""
    if "'" not in doc.text and '"' not in doc.text:
        return None
    if doc.fmt == "riftbound-html":
        parts = re.split(r"(<[^<>]*>)", doc.text)
        return _utf8("".join(p if p.startswith("<") else _curl(p) for p in parts))
    return _utf8(_curl(doc.text))


def _curl(text: str) -> str:
    # a quote set apart by spaces on both sides (a PDF's text spacing) opens or closes by
    # the quotes before it on its line
    def apart(line: str) -> str:
        pieces = re.split(r'(?<= )"(?= )', line)
        out = pieces[0]
        for piece in pieces[1:]:
            out += ("“" if (out.count('"') + out.count("“") + out.count("”")) % 2 == 0 else "”") + piece
        return out
    text = "\n".join(apart(ln) if ' " ' in ln else ln for ln in text.split("\n"))
    text = re.sub(r"(?<=\w)'|'(?=\s|$)", "’", text, flags=re.M)
    text = re.sub(r"'", "‘", text)
    # SmartyPants' way: a quote after a space and before a word opens, any other closes
    text = re.sub(r'(?:(?<=^)|(?<=[\s(\[]))"(?=\S)', "“", text, flags=re.M)
    return text.replace('"', "”")


def _straightened(doc: Canonical) -> Made | None:
    """Curly quotes straightened (a plain-text export)."""
    folded = fold_quotes(doc.text)
    return None if folded == doc.text else _utf8(folded)


_RANGE = re.compile(r"(?<=\d)-(?=\d)|(?<=[0-9a-z])-(?=\d{3}\.)")
_NEGATIVE = re.compile(r"(?<![\w-])-(?=\d)")


def _typeset_dashes(doc: Canonical) -> Made | None:
    """A typesetter's dashes: an en dash in number ranges (``1–3``, ``601.2a–601.2i``), a minus
    sign before negative numbers (``−1/−1``), an em dash for ``--``."""
    text = _RANGE.sub("–", doc.text)
    text = _NEGATIVE.sub("−", text).replace(" -- ", " — ")
    return None if text == doc.text else _utf8(text)


def _plain_dashes(doc: Canonical) -> Made | None:
    """Dashes typed as a plain-text export writes them: ``--`` for an em dash, ``-`` for en
    and minus dashes."""
    text = doc.text.replace("—", "--").replace("–", "-").replace("−", "-")
    return None if text == doc.text else _utf8(text)


def _trailing_spaces(doc: Canonical) -> Made:
    """Spaces and a tab at the end of every line, and on the blank lines."""
    return _utf8(re.sub(r"(?m)$", lambda m: " \t ", doc.text))


def _latin1(doc: Canonical) -> Made | None:
    """ISO-8859-1 bytes, as a Latin-1 export writes the text (:func:`as_latin1`)."""
    text = as_latin1(doc.text)
    return None if text.isascii() else Made(text.encode("latin-1"))


def _cp1252(doc: Canonical) -> Made | None:
    """Windows-1252 bytes (smart quotes and dashes at 0x91–0x97); characters it lacks as ``?``."""
    if doc.text.isascii():
        return None
    return Made(as_cp1252(doc.text.replace("\u200b", "")).encode("cp1252"))


def _nfd(doc: Canonical) -> Made | None:
    """Every accented letter decomposed (NFD: a macOS file name's, some exports' form)."""
    text = unicodedata.normalize("NFD", doc.text)
    return None if text == doc.text else _utf8(text)


def _cp1252_fold(text: str) -> str:
    return as_cp1252(text)


# -- wrap-level variants -------------------------------------------------------------------------

_HEADING_LINE = re.compile(r"^(?:#{1,6} |\d\. \S|\d{3}\. [A-Z][^.]*$)")


def wrapped(text: str, width: int, hyphenate: bool) -> list[str]:
    """Every paragraph line longer than ``width`` wrapped, as a text export does (headings
    kept whole); with ``hyphenate``, a long word that would pass the line's end is split with
    a hyphen where at least four letters are left on each side."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or _HEADING_LINE.match(line):
            out.append(line)
            continue
        current = ""
        for word in line.split(" "):
            room = width - len(current) - 1
            if current and len(current) + 1 + len(word) > width:
                if hyphenate and re.fullmatch(r"[a-z]{8,}[,.;:]?", word) and room >= 5:
                    cut = min(room - 1, len(word.rstrip(",.;:")) - 4)
                    if cut >= 4:
                        out.append(f"{current} {word[:cut]}-")
                        current = word[cut:]
                        continue
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current else word
        out.append(current)
    return out


def _wrapped(doc: Canonical, width: int) -> Made | None:
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    return _utf8("\n".join(wrapped(doc.text, width, hyphenate=True)))


def _running_chapters(doc: Canonical, lines_per_page: int = 50) -> Made | None:
    """Pages parted by form feeds, each with the chapter it is in as its running title over
    it and ``Page N of M`` under it (a PDF's text, wrapped at 80 columns)."""
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    lines = wrapped(doc.text, 80, hyphenate=False)
    chapter_of = _chapter_titles(doc, lines)
    pages = [range(i, min(i + lines_per_page, len(lines))) for i in range(0, len(lines), lines_per_page)]
    out = []
    for n, page in enumerate(pages, start=1):
        running = chapter_of[page.start] or _title(doc)
        out.append("\n".join([running, ""] + [lines[i] for i in page] + ["", f"Page {n} of {len(pages)}"]))
    return _utf8("\f".join(out))


def _title(doc: Canonical) -> str:
    return doc.result.title or "Rules"


def _chapter_titles(doc: Canonical, lines: list[str]) -> list[str]:
    """Per wrapped line, the title of the chapter it is in ("" before the first): a chapter's
    heading is never wrapped, so its line is found whole among them."""
    original = doc.text.split("\n")
    headings = {original[r.line - 1] for r in doc.result.rules if r.kind == "chapter" and 0 < r.line <= len(original)}
    out, current = [], ""
    for ln in lines:
        if ln in headings:
            current = ln.lstrip("# ").strip()
        out.append(current)
    return out


def _two_blank_lines(doc: Canonical) -> Made:
    """Two blank lines wherever the document has one."""
    return _utf8(re.sub(r"\n[ \t]*\n(?=[^\n])", "\n\n\n", doc.text))


def _split_by_page_breaks(doc: Canonical, every: int = 25) -> Made | None:
    """A page break (form feed, the running title and ``– N –`` page number) in the middle of
    every ``every``-th rule of three lines or more, and at the page ends between."""
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    lines = wrapped(doc.text, 76, hyphenate=False)
    out, since, page = [], 0, 1
    for i, ln in enumerate(lines):
        out.append(ln)
        since += 1
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        mid_rule = (ln.strip() and nxt.strip() and not _ID_AT_START.match(nxt) and not nxt.startswith("#")
                    and not ln.rstrip().endswith((".", ":", "”", '"')))
        if since >= every and mid_rule:
            out += ["", f"– {page} –", "\f" + _title(doc), ""]
            page += 1
            since = 0
    return _utf8("\n".join(out))


# -- structure-level variants --------------------------------------------------------------------

_RB_ID = re.compile(r"^(?:\*\*)?(\d{3}(?:\.[0-9a-z]+)+)\.(?:\*\*)?(\s.*)$")
_RB_PLAIN = re.compile(r"^(\d{3}(?:\.[0-9a-z]+)+)\.( .*)$")
_MTG_SUB = re.compile(r"^(\d{3}\.\d+[a-z])( .*)$")


def _deeper(doc: Canonical) -> Made | None:
    """A future edition that numbers a rule one level deeper than any the document has:
    Riftbound ``103.1.b.1.a.`` under its deepest ``103.1.b.1.``, Magic ``702.19b.1`` under a
    subrule, each with a rule after it, as the publisher would print them."""
    deepest = max(len(r.number) for r in doc.result.rules)
    lines = doc.text.split("\n")
    pattern = _MTG_SUB if doc.game == "mtg" else (_RB_ID if doc.fmt == "riftbound-md" else _RB_PLAIN)
    candidates = [i for i, ln in enumerate(lines) if (m := pattern.match(ln))
                  and len(parse_number(m.group(1))) == deepest]
    if not candidates:
        return None
    added = []
    for i in reversed(candidates[len(candidates) // 3: len(candidates) // 3 + 1]
                      + candidates[2 * len(candidates) // 3: 2 * len(candidates) // 3 + 1]):
        end = i + 1
        while end < len(lines) and lines[end].strip() and not pattern.match(lines[end]) \
                and not _ID_AT_START.match(lines[end]):
            end += 1
        parent = pattern.match(lines[i]).group(1)
        last = parse_number(parent)[-1]
        child = f"{parent}.{'a' if last.isdigit() else '1'}"
        text = "This rule is numbered one level deeper than any rule of the edition."
        new = (f"**{child}.** {text}" if doc.fmt == "riftbound-md" else
               f"{child} {text}" if doc.game == "mtg" else f"{child}. {text}")
        lines[end:end] = ["", new]
        added.append((child, "rule", parent))
    # the lines after an insertion move: find each added rule's line afterwards
    placed = []
    for child, kind, parent in added:
        line = next(n for n, ln in enumerate(lines, start=1) if ln.lstrip("*").startswith(child + ("." if doc.game != "mtg" else " ")))
        placed.append((child, kind, parent, line))
    return Made("\n".join(lines).encode("utf-8"), tuple(placed))


_MTG_EFFECTIVE = re.compile(r"(?:These rules are )?(?:effective|current) as of [A-Z][a-z]+ \d{1,2}, \d{4}\.?")
_RB_UPDATED = re.compile(r"Last\s+Updated:?\s+\S+")


def _dated(doc: Canonical, magic: str, riftbound: str, date: str = "") -> Made | None:
    """The date line rewritten: Magic's ``These rules are effective as of …`` sentence as
    ``magic``, Riftbound's ``Last Updated: …`` as ``riftbound``, each a template of the date
    (``{iso}``, ``{long}`` January 16, 2026, ``{day_first}`` 16 January 2026); the date is the
    document's own unless ``date`` (ISO) names another, which the read must then give."""
    when = dt.date.fromisoformat(date or doc.result.date) if (date or doc.result.date) else None
    if when is None:
        return None
    forms = {"iso": when.isoformat(), "long": f"{when:%B} {when.day}, {when.year}",
             "day_first": f"{when.day} {when:%B} {when.year}"}
    if doc.game == "mtg":
        text, n = _MTG_EFFECTIVE.subn(magic.format(**forms), doc.text, count=1)
    else:
        text, n = _RB_UPDATED.subn(riftbound.format(**forms), doc.text, count=1)
    return Made(text.encode("utf-8"), date=date) if n else None


def _effective_as_of(doc: Canonical) -> Made | None:
    return _dated(doc, "Effective as of {iso}", "Effective as of {iso}")


def _long_date(doc: Canonical) -> Made | None:
    return _dated(doc, "Last Updated: {long}", "Last Updated: {long}")


def _day_first(doc: Canonical) -> Made | None:
    return _dated(doc, "These rules are effective as of {day_first}.", "Last Updated: {day_first}")


def _next_edition_date(doc: Canonical) -> Made | None:
    """The next edition's date, a year and a day after the document's, in its own line."""
    if not doc.result.date:
        return None
    own = dt.date.fromisoformat(doc.result.date)
    later = (own.replace(day=28) if own.month == 2 and own.day == 29 else own).replace(year=own.year + 1)
    later += dt.timedelta(days=1)
    return _dated(doc, "These rules are effective as of {long}.", "Last Updated: {iso}", later.isoformat())


def _new_title(doc: Canonical) -> Made | None:
    """The title line of a future edition: a version string beside the name."""
    lines = doc.text.split("\n")
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None or doc.fmt == "riftbound-pdftext":
        return None
    lines[first] = lines[first].rstrip() + " (Version 2027.1)"
    return _utf8("\n".join(lines))


def _mtg_markdown_deeper(doc: Canonical) -> Made | None:
    """Magic as Markdown with every heading one level deeper (``###`` chapters, ``####``
    sections)."""
    made = _mtg_markdown(doc)
    if made is None:
        return None
    text = re.sub(r"(?m)^(#{1,5}) ", r"#\1 ", made.data.decode("utf-8"))
    text = re.sub(r"(?m)^\*\*(.*?)\s+\*\*$", r"**\1**", text)  # a term with a space after it
    return _utf8(text)


_LEAD = re.compile(r"^(?:\*\*)?(\d{3}(?:\.[0-9a-z]+)*\.?)(?:\*\*)?[ \t]+(.*)$", re.S)


def _paragraphs(doc: Canonical) -> list[tuple[int, list[str]]]:
    """The document's blocks (:func:`bench.layouts._blocks_of`) with a block of several rules
    (Riftbound prints some without a blank line between) cut before each rule's line."""
    out: list[tuple[int, list[str]]] = []
    for depth, lines in _blocks_of(doc):
        if depth:
            out.append((depth, lines))
            continue
        current: list[str] = []
        for ln in lines:
            m = _LEAD.match(ln.strip())
            if current and m and _is_rule_number(m.group(1)):
                out.append((0, current))
                current = []
            current.append(ln)
        out.append((0, current))
    return out


def _html_paragraphs(doc: Canonical) -> Made | None:
    """A web page as another tool exports it: ``<h2>``/``<h3>`` headings, each paragraph a
    ``<p class="…">`` whose number is a ``<span class="rule-number">`` before a ``<span>`` of
    its text, its lines one."""
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    esc = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{esc(_title(doc))}</title></head><body>", '<div class="document">']
    for depth, lines in _paragraphs(doc):
        text = "<br>\n".join(html.escape(ln.strip()) for ln in lines)
        if depth:
            out.append(f"<h{depth + 1} class=\"heading\">{text}</h{depth + 1}>")
            continue
        m = _LEAD.match(text)
        if m and _is_rule_number(m.group(1)):
            out.append(f'<p class="c4 rule"><span class="rule-number">{m.group(1)}</span> '
                       f'<span class="c2">{m.group(2)}</span></p>')
        else:
            out.append(f'<p class="c4"><span class="c2">{text}</span></p>')
    out += ["</div>", "</body></html>"]
    return _utf8("\n".join(out) + "\n")


def _is_rule_number(number: str) -> bool:
    try:
        parse_number(number.rstrip("."))
    except ValueError:
        return False
    return "." in number.rstrip(".")


def _list_item(printed: str, text: str, number: tuple, open_items: list[tuple[str, ...]], drawn: bool,
               sibling: tuple | None) -> str:
    """One rule's ``<li>`` (opening its ``<ol>`` when it is the list's first, ``sibling`` None):
    its number in a span, or, ``drawn``, in ``data-number`` when it is an outermost item and
    else by the list's count (a ``type``, a ``start``, a ``value`` where the count skips)."""
    opens = "<ol>" if sibling is None else ""
    if not drawn:
        return f'{opens}<li><span class="num">{printed}</span> {text}'
    if not open_items:
        return f'{opens}<li data-number="{printed.rstrip(".")}">{text}'
    part = str(number[-1])
    ordinal = ord(part) - 96 if part.isalpha() else int(part)
    expected = 1 if sibling is None else (ord(str(sibling[-1])) - 96 if str(sibling[-1]).isalpha()
                                         else int(sibling[-1])) + 1
    if sibling is None:
        kind = ' type="a"' if part.isalpha() else ""
        start = f' start="{ordinal}"' if ordinal != 1 else ""
        opens = f"<ol{kind}{start}>"
        return f"{opens}<li>{text}"
    return f'<li value="{ordinal}">{text}' if ordinal != expected else f"<li>{text}"


def _html_nested_lists(doc: Canonical, drawn: bool = False) -> Made | None:
    """A web page whose rules are nested ordered lists (``<ol>``/``<li>``, a subrule's list
    inside its parent's item), each item's number in a ``<span class="num">`` (the list's own
    counters hidden by the page's style), headings ``<h2>``/``<h3>``, other paragraphs
    ``<p>``. ``drawn``: as a rule viewer's page, no number in an item's text: an outermost
    item's number in its ``data-number`` (the style draws it with ``attr()``), a subrule's by
    its list (``<ol type="a">`` for letters, ``start`` and ``value`` where the count skips, as
    Magic's letters skip ``l`` and ``o``)."""
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    esc = html.escape
    style = ("ol { list-style: none; } li[data-number]::before { content: attr(data-number) \". \"; }"
             if drawn else "ol { list-style: none; }")
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">',
           f"<style>{style}</style>", f"<title>{esc(_title(doc))}</title></head><body>"]
    stack: list[tuple[str, ...]] = []  # the numbers of the open items, outermost first

    def close_to(depth: int) -> None:
        out.append("</li></ol>" * (len(stack) - depth))
        del stack[depth:]

    for depth, paragraph in _paragraphs(doc):
        text = "<br>\n".join(esc(ln.strip()) for ln in paragraph)
        m = _LEAD.match(text) if not depth else None
        if m and _is_rule_number(m.group(1)):
            number = tuple(parse_number(m.group(1).rstrip(".")))
            popped = 0
            while stack and not (len(stack[-1]) < len(number) and number[:len(stack[-1])] == stack[-1]):
                previous = stack.pop()
                popped += 1
            item = _list_item(m.group(1), m.group(2), number, stack, drawn,
                              previous if popped else None)
            out.append("</li></ol>" * (popped - 1) + "</li>" + item if popped else item)
            stack.append(number)
            continue
        titled = len(paragraph) == 1 and len(text.split()) <= 6 and not re.search(r"[.:;!?”\"]$", text)
        if stack and not depth and not titled:
            out.append(f"<p>{text}</p>")  # an example or a paragraph inside the item
            continue
        close_to(0)
        out.append(f"<h{depth + 1}>{text}</h{depth + 1}>" if depth else f"<p>{text}</p>")
    close_to(0)
    out.append("</body></html>")
    return _utf8("\n".join(out) + "\n")


def _every_number_contents(doc: Canonical, pages: bool = True) -> Made | None:
    """A table of contents before the rules that lists every rule number with its first words
    (and, with ``pages``, dot leaders and a page number), as an indexing tool writes one."""
    lines = doc.text.split("\n")
    if doc.fmt == "mtg-text":
        at = 1
    elif doc.fmt == "riftbound-md":
        at = next(i for i, ln in enumerate(lines) if ln.startswith("#") and i > 0)
    else:
        return None
    entries = []
    for r in doc.result.rules:
        words = (r.title or r.text).split()[:6]
        number = format_number(r.number, "mtg") if doc.game == "mtg" else ".".join(r.number)
        label = f"{number}{'.' if doc.game != 'mtg' or len(r.number) == 1 else ''} {' '.join(words)}"
        label = label.rstrip(".,;:")
        entries.append(f"{label} {'.' * max(3, 70 - len(label))} {3 + len(entries) // 45}" if pages else label)
    toc = ["", "Contents", ""] + entries + [""]
    return _utf8("\n".join(lines[:at] + toc + lines[at:]))


def _from_layout(make: Callable[[Canonical], object]) -> Callable[[Canonical], Made | None]:
    """A :mod:`bench.layouts` derivation as a variant's (its bytes; the rules it adds)."""
    def made(doc: Canonical) -> Made | None:
        derived = make(doc)
        if derived is None:
            return None
        added = tuple((n, k, p, 0) for n, k, p in derived.added)
        return Made(derived.data, added)
    return made


ANY = ("mtg-text", "riftbound-md", "riftbound-pdftext", "riftbound-html")
TEXTS = ("mtg-text", "riftbound-md")

VARIANTS: list[Variant] = [
    Variant("CRLF line ends", "text", ANY, lambda d: _utf8(d.text.replace("\n", "\r\n"))),
    Variant("CR-only line ends", "text", ANY, lambda d: _utf8(d.text.replace("\n", "\r"))),
    Variant("UTF-8 BOM", "text", ANY, lambda d: Made(codecs.BOM_UTF8 + d.text.encode("utf-8"))),
    Variant("NBSP after numbers, thin spaces between words", "text", ANY, _thin_spaces),
    Variant("soft hyphens inside words", "text", ANY, _soft_hyphens),
    Variant("ligatures (ﬁ ﬂ ﬃ)", "text", ANY, lambda d: _utf8(_ligatures(d.text))),
    Variant("smart quotes curled", "text", ANY, _curled, fold=fold_quotes),
    Variant("smart quotes straightened", "text", ANY, _straightened, fold=fold_quotes),
    Variant("en/em/minus dashes in numbers and ranges", "text", ANY, _typeset_dashes, fold=fold_dashes),
    Variant("dashes typed as - and --", "text", ANY, _plain_dashes, fold=fold_dashes),
    Variant("tabs after numbers", "text", ANY, lambda d: _utf8(_after_numbers(d.text, "\t"))),
    Variant("trailing spaces and tabs", "text", ANY, _trailing_spaces),
    Variant("zero-width characters inside numbers and text", "text", ANY, _zero_width),
    Variant("Windows-1252 bytes", "text", ANY, _cp1252, fold=_cp1252_fold),
    Variant("Latin-1 bytes", "text", ANY, _latin1, fold=as_latin1),
    Variant("NFD (decomposed accents)", "text", ANY, _nfd),
    Variant("hard-wrapped at 72 columns, hyphenated", "wrap", TEXTS, lambda d: _wrapped(d, 72), whole=True),
    Variant("hard-wrapped at 80 columns, hyphenated", "wrap", TEXTS, lambda d: _wrapped(d, 80)),
    Variant("pages: running title, page number (pdftotext)", "wrap", TEXTS, _from_layout(_paged), whole=True),
    Variant("pages: the chapter as running title, 'Page N of M'", "wrap", TEXTS, _running_chapters, whole=True),
    Variant("two blank lines for one", "wrap", ANY, _two_blank_lines),
    Variant("a rule split across a page break", "wrap", TEXTS, _split_by_page_breaks, whole=True),
    Variant("a new top-level part (future edition)", "structure", TEXTS, _from_layout(_added_part), "added", whole=True),
    Variant("a rule one level deeper than any", "structure", ANY, _deeper, "added", whole=True),
    Variant("the next edition's date (a year and a day on), the line as printed", "structure", ANY,
            _next_edition_date),
    Variant("date line 'Effective as of 2026-01-16'", "structure", ANY, _effective_as_of),
    Variant("date line 'Last Updated: January 16, 2026'", "structure", ANY, _long_date),
    Variant("date as '16 January 2026'", "structure", ANY, _day_first),
    Variant("a version string in the title line", "structure", TEXTS, _new_title),
    Variant("the Glossary before the rules", "structure", ("mtg-text",), _from_layout(_glossary_first), whole=True),
    Variant("Markdown headings one level deeper (### for ##)", "structure", ("mtg-text",),
            _mtg_markdown_deeper),
    Variant("HTML from another tool: <p class>, number in <span>", "structure", TEXTS, _html_paragraphs),
    Variant("HTML from another tool: nested <ol>/<li>", "structure", TEXTS, _html_nested_lists, whole=True),
    Variant("a rule viewer's page: nested <ol>, numbers drawn (data-number, <ol type=a>, value)", "structure",
            TEXTS, lambda d: _html_nested_lists(d, drawn=True), whole=True),
    Variant("a table of contents of every number, page numbers", "structure", TEXTS, _every_number_contents),
    Variant("a table of contents of every number, no pages", "structure", TEXTS,
            lambda d: _every_number_contents(d, pages=False), whole=True),
    Variant("a table of contents of the headings (bench.layouts)", "structure", TEXTS,
            _from_layout(_front_matter)),
]


# -- the benchmark -------------------------------------------------------------------------------

def documents(names: tuple[str, ...] | None = None) -> list[Canonical]:
    """The canonical documents of :data:`DOCUMENTS` that ../shared holds (or those named)."""
    out = []
    for game, rel in DOCUMENTS:
        path = CORPORA / rel
        if path.is_file() and (names is None or path.name in names):
            out.append(canonical(game, path))
    return out


def run(docs: list[Canonical], variants: list[Variant] | None = None) -> list[Verdict]:
    """Every variant of every document it applies to, read and judged."""
    verdicts = []
    for variant in VARIANTS if variants is None else variants:
        for doc in docs:
            if doc.fmt not in variant.formats:
                continue
            made = variant.make(doc)
            if made is not None:
                verdicts.append(judge(variant, doc, made))
    return verdicts


_SHORT = {"core-rules-2026-07-16.md": "RB 1.4", "core-rules-2026-03-30.md": "RB 1.3",
          "core-rules-2025-12-01.md": "RB 1.2 pdf", "comprehensive-rules-2026-01-16.txt": "MTG 2026",
          "comprehensive-rules-2010-10-01.txt": "MTG 2010"}


def short(name: str) -> str:
    """A document's name in a table column."""
    return _SHORT.get(name) or name.replace("comprehensive-rules-", "MTG ").removesuffix(".txt")


def table(verdicts: list[Verdict], docs: list[Canonical]) -> list[str]:
    """A Markdown matrix: a row per variant, a column per document; ``=`` identical, ``R``
    refused naming the place, ``✗`` misread, ``·`` not applicable."""
    names = [d.name for d in docs]
    rows = ["| level | variant | " + " | ".join(short(n) for n in names) + " |",
            "| --- | --- | " + " | ".join("---" for _ in names) + " |"]
    by = {(v.variant, v.document): v for v in verdicts}
    for variant in VARIANTS:
        cells = []
        for n in names:
            v = by.get((variant.name, n))
            cells.append("·" if v is None else {"identical": "=", "refused": "R", "misread": "✗"}[v.outcome])
        if any(c != "·" for c in cells):
            rows.append(f"| {variant.level} | {variant.name} | " + " | ".join(cells) + " |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", help="a variant whose name contains this (repeatable)")
    parser.add_argument("--document", action="append", help="only this document (its file name; repeatable)")
    args = parser.parse_args()
    if not CORPORA.is_dir():
        raise SystemExit(f"bench.variants needs the corpora in {CORPORA}")
    docs = documents(tuple(args.document) if args.document else None)
    variants = [v for v in VARIANTS if not args.only or any(o in v.name for o in args.only)]
    started = time.process_time()
    verdicts = run(docs, variants)
    print("\n".join(table(verdicts, docs)))
    print()
    counts = {k: sum(v.outcome == k for v in verdicts) for k in ("identical", "refused", "misread")}
    print(f"{len(verdicts)} reads: {counts['identical']} identical, {counts['refused']} refused naming "
          f"the place, {counts['misread']} misread ({time.process_time() - started:.1f} s CPU)")
    for v in verdicts:
        if v.outcome != "identical":
            print(f"- {v.outcome}: {v.variant} / {short(v.document)}: {v.detail[:200]}")


if __name__ == "__main__":
    main()
