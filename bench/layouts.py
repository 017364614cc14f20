"""Rule documents in layouts nobody has sent us yet, derived from the ones we have.

``python -m bench.layouts [--all]`` derives every layout of :data:`LAYOUTS` from each
canonical document (the repository's own excerpts in ``rules/``, and with ``--all`` or by
default when ``../shared`` is there, the full documents in ``../shared/corpora``), reads it
as ``rulekb import`` does (:func:`kb.read.read_bytes`) and prints, per layout, the rules
read, how many are identical to the canonical parse (number, kind, title, text, examples
and parent), how many disagree with it on their kind or parent (what a breadcrumb is read
from, which no layout may change, even one that loses the headings' marks) and the reading
time (CPU) against the canonical layout's; then, for each document the corpora hold in two
layouts (:data:`PAIRS`), the same agreement between its two reads.
``tests/test_reader_layouts.py`` runs the same table as a test.

``--brought`` runs only :data:`BROUGHT`, the layouts a user brings from other tools (a page
saved from a browser, text copied from a PDF viewer, pandoc's Markdown, subrule letters set
apart or attached, the Glossary before the rules, an added part, chapters a Markdown list
renumbered, two columns side by side, a Markdown table, plain text with hanging indents, pages
numbered "Page N of M" (with or without form feeds and a title), a DOCX numbered by Word's lists, a JSON
or CSV export, an OCR'd scan, a Google Doc's web page, a wiki's source, an ODT, an EPUB, an RTF,
reStructuredText, AsciiDoc, Org mode),
one row per layout and document;
``tests/test_read_unseen_layouts.py`` runs them as a test.

A layout is a function from the canonical document (its decoded text, and the game its
numbers belong to) to the bytes of the same rules in another layout, and what a reader
must do with it (:class:`Layout`). Nothing is stored: each layout is made at run time.
"""

from __future__ import annotations

import argparse
import codecs
import csv
import html
import io
import json
import posixpath
import re
import statistics
import time
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

import docx
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn

from bench.corpora import CORPORA, REPO
from kb.model import DocumentError, RawRule, ReadResult
from kb.numbers import SortKey, parse_number, sort_key
from kb.read import read_bytes
from kb.read.text import decode

Game = Literal["mtg", "riftbound"]
# What a reader must do: read the same rules ("same"); read them and report the one place
# the layout changed with a warning at its line ("noted"); read the rules before a cut and
# report the cut ("cut"); refuse it naming the file and a line ("refused").
# "added": the canonical rules read as before, and the part the layout adds read with its
# kinds and parents (:attr:`Derived.added`).
Expect = Literal["same", "noted", "cut", "refused", "added"]


@dataclass(frozen=True)
class Canonical:
    """A document in the layout it was published in: its name, game, text and reader."""

    name: str
    game: Game
    path: Path
    text: str
    fmt: str  # the reader the canonical layout is read with
    result: ReadResult  # its parse, which every layout is compared with


@dataclass(frozen=True)
class Derived:
    """A layout made from a canonical document: its bytes, and the line the change is at
    (for a "noted" or "cut" layout, 1-based in the derived document)."""

    data: bytes
    line: int = 0
    # For an "added" layout, the (number, kind, parent number or None) of each rule it adds.
    added: tuple[tuple[str, str, str | None], ...] = ()


@dataclass(frozen=True)
class Layout:
    """One unseen layout: its name, the documents it applies to, how it is made and what a
    reader must do with it."""

    name: str
    formats: tuple[str, ...]  # canonical readers whose documents it is derived from
    derive: Callable[[Canonical], Derived | None]  # None: this document cannot have it
    expect: Expect = "same"
    # What the layout itself loses, and the comparison leaves out: "lines" where a paragraph's
    # lines broke (a hard-wrapped text cannot show it). Which top-level entries are headings is
    # never lost: the text says it, whatever marks the layout drops.
    loses: Literal["", "lines"] = ""
    # The tests derive it from the full documents too, not only from the excerpts: it changes
    # what only a whole document holds (every chapter, the glossary across pages, the contents).
    whole: bool = False


# -- the documents ------------------------------------------------------------------------------

EXCERPTS: list[tuple[Game, str]] = [
    ("mtg", "mtg/comprehensive-rules-2026-01-16-excerpt.txt"),
    ("mtg", "mtg/comprehensive-rules-2010-10-01-excerpt.txt"),
    ("riftbound", "riftbound/core-rules-1.4-excerpt.md"),
    ("riftbound", "riftbound/core-rules-1.3-excerpt.md"),
]
FULL: list[tuple[Game, str]] = [
    ("mtg", "mtg/comprehensive-rules-2026-01-16.txt"),
    ("mtg", "mtg/comprehensive-rules-2010-10-01.txt"),
    ("riftbound", "riftbound/core-rules-2026-07-16.md"),
    ("riftbound", "riftbound/core-rules-2026-03-30.md"),
    ("riftbound", "riftbound/core-rules-2025-12-01-markdown.md"),
    ("riftbound", "riftbound/core-rules-2025-12-01.md"),
    ("riftbound", "riftbound/core-rules-2025-06-02.md"),
]


def canonical(game: Game, path: Path) -> Canonical:
    """A canonical document, read once to learn its reader."""
    data = path.read_bytes()
    text = decode(data, str(path))
    result, fmt = read_bytes(text.encode("utf-8"), path.name)
    return Canonical(path.name, game, path, text, fmt, result)


def excerpts() -> list[Canonical]:
    """The repository's own excerpts (always there)."""
    return [canonical(game, REPO / "rules" / rel) for game, rel in EXCERPTS]


def full_documents() -> list[Canonical]:
    """The full documents of ../shared/corpora (empty when it is absent)."""
    return [canonical(game, CORPORA / rel) for game, rel in FULL if (CORPORA / rel).is_file()]


# -- reading and comparing ----------------------------------------------------------------------

Fingerprint = dict[SortKey, tuple]


def parents(rules: list[RawRule]) -> dict[SortKey, SortKey | None]:
    """Each rule's parent as :mod:`kb.graph` places it, from the rules' order: a deeper number
    is under its number less the last part, a chapter under nothing, a section under the
    chapter above it, a top-level rule under the heading above it."""
    above: dict[str, SortKey | None] = {"chapter": None, "section": None}
    out: dict[SortKey, SortKey | None] = {}
    for r in rules:
        key = sort_key(r.number)
        if len(r.number) > 1:
            out.setdefault(key, sort_key(r.number[:-1]))
            continue
        out.setdefault(key, {"chapter": None, "section": above["chapter"]}.get(
            r.kind, above["section"] or above["chapter"]))
        if r.kind != "rule":
            above.update({r.kind: key} if r.kind == "section" else {"chapter": key, "section": None})
    return out


def kinds_and_parents(result: ReadResult) -> dict[SortKey, tuple[str, SortKey | None]]:
    """Per rule number, its kind and parent: what every layout of one document must agree
    on, whatever else a layout loses (a breadcrumb is read from them)."""
    up = parents(result.rules)
    return {sort_key(r.number): (r.kind, up[sort_key(r.number)]) for r in result.rules}


def disagreeing(one: ReadResult, other: ReadResult) -> list[SortKey]:
    """The numbers both reads hold whose kind or parent differ between them."""
    mine, theirs = kinds_and_parents(one), kinds_and_parents(other)
    return sorted(k for k in mine.keys() & theirs.keys() if mine[k] != theirs[k])


def fingerprint(result: ReadResult, loses: str = "") -> Fingerprint:
    """What must not change with the layout: per rule number, its kind, title, text,
    examples and parent (the glossary's terms under the key ``("term", kind, name)``); less
    what the layout loses (see :class:`Layout`)."""
    def words(text: str) -> str:
        return " ".join(text.split()) if loses else text

    up = parents(result.rules)
    out: Fingerprint = {}
    for r in result.rules:
        key = sort_key(r.number)
        out[key] = (r.kind, r.title, words(r.text), tuple(map(words, r.examples)), up[key])
    for t in result.terms:
        out[("term", t.kind, t.name)] = (words(t.definition), tuple(t.rules))
    return out


@dataclass
class Outcome:
    """How one derived document read against its canonical parse."""

    layout: str
    document: str
    rules: int = 0  # rules read
    identical: int = 0  # rules identical to the canonical parse
    canonical_rules: int = 0
    seconds: float = 0.0
    canonical_seconds: float = 0.0
    error: DocumentError | None = None
    result: ReadResult | None = None
    fmt: str = ""
    differing: list[SortKey] = field(default_factory=list)
    missing: list[SortKey] = field(default_factory=list)
    disagreeing: list[SortKey] = field(default_factory=list)  # kind or parent not the canonical's
    # An "added" layout's rules not read as it adds them (missing, or another kind or parent).
    added_wrong: list[str] = field(default_factory=list)


def read_timed(data: bytes, source: str, repeat: int = 1
               ) -> tuple[ReadResult | None, str, DocumentError | None, float]:
    """Read the bytes as an import does; the result, format, refusal and the least CPU
    seconds one reading took in ``repeat`` readings (CPU time: the machine is shared)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        try:
            result, fmt = read_bytes(data, source)
        except DocumentError as err:
            return None, "", err, time.process_time() - started
        best = min(best, time.process_time() - started)
    return result, fmt, None, best


def compare(layout: Layout, doc: Canonical, derived: Derived, canonical_result: ReadResult,
            reference_seconds: float, repeat: int = 1) -> Outcome:
    """Read a derived document and compare it with the canonical parse."""
    source = f"{doc.name}~{layout.name}"
    result, fmt, error, seconds = read_timed(derived.data, source, repeat)
    out = Outcome(layout.name, doc.name, canonical_rules=len(canonical_result.rules), seconds=seconds, canonical_seconds=reference_seconds, error=error,
                  result=result, fmt=fmt)
    if result is None:
        return out
    reference = fingerprint(canonical_result, layout.loses)
    got = fingerprint(result, layout.loses)
    rule_keys = [k for k in reference if k[:1] != ("term",)]
    out.rules = len(result.rules)
    out.identical = sum(got.get(k) == reference[k] for k in rule_keys)
    out.differing = [k for k in reference if k in got and got[k] != reference[k]]
    out.missing = [k for k in reference if k not in got]
    out.disagreeing = disagreeing(canonical_result, result)
    out.added_wrong = added_wrong(result, derived.added)
    return out


def added_wrong(result: ReadResult, added: tuple[tuple[str, str, str | None], ...]) -> list[str]:
    """The numbers of ``added`` (number, kind, parent) the read does not hold as added: missing,
    or of another kind or under another parent."""
    read = kinds_and_parents(result)
    wrong = []
    for number, kind, parent in added:
        want = (kind, sort_key(parse_number(parent)) if parent else None)
        if read.get(sort_key(parse_number(number))) != want:
            wrong.append(number)
    return wrong


# -- the layouts --------------------------------------------------------------------------------

_MTG_ID = re.compile(r"(?m)^(\d{3}\.\d+[a-z]?\.?)(?= )")
_MTG_SUBRULE_DOT = re.compile(r"(?m)^(\d{3}\.\d+[a-z])(?= )")
_MTG_RULE = re.compile(r"^(\d{3}\.\d+[a-z]?\.?) (.*)$")
_MTG_SECTION = re.compile(r"^(\d{3})\. (.*)$")
_MTG_CHAPTER = re.compile(r"^(\d)\. (.*)$")
_RB_BOLD_ID = re.compile(r"(?m)^\*\*(\d{3}(?:\.[0-9a-z]+)*\.?)\*\*(?= |$)")
_RB_PLAIN_ID = re.compile(r"(?m)^(\d{3}(?:\.[0-9a-z]+)+\.?)(?=\s{2,})")
_RB_HEADING = re.compile(r"^(#{2,6}) (\d{3}(?:\.[0-9a-z]+)*\.?)(?: (.*))?$")
_WORD = re.compile(r"(?<=[a-z])([a-z]{3,})")
_TITLE = {"mtg": "Magic: The Gathering Comprehensive Rules", "riftbound": "Riftbound Core Rules"}


def _utf8(text: str) -> Derived:
    return Derived(text.encode("utf-8"))


def _ids(doc: Canonical) -> re.Pattern[str]:
    """The rule ids at the start of a line, in the canonical layout of this document."""
    return _MTG_ID if doc.game == "mtg" else (_RB_BOLD_ID if doc.fmt == "riftbound-md" else _RB_PLAIN_ID)


def _in_ids(doc: Canonical, change: Callable[[str], str]) -> str:
    """The document with every rule id at a line start changed (its ``**`` kept)."""
    return _ids(doc).sub(lambda m: m.group(0).replace(m.group(1), change(m.group(1))), doc.text)


def _after_ids(doc: Canonical, space: str) -> str:
    """The space after every rule id replaced."""
    pattern = re.compile(_ids(doc).pattern + r"\s+" if doc.game == "mtg" or doc.fmt != "riftbound-md"
                         else _ids(doc).pattern + r" ", re.M)
    return pattern.sub(lambda m: m.group(0).rstrip() + space, doc.text)


def _encoded(doc: Canonical, encoding: str) -> Derived | None:
    try:
        return Derived(doc.text.encode(encoding))
    except UnicodeEncodeError:
        return None


def _cp1252(doc: Canonical) -> Derived | None:
    """Windows-1252 bytes (smart quotes, dashes at 0x91–0x97), when the text fits; the
    zero-width spaces a reader drops anyway are left out."""
    if doc.text.isascii():
        return None
    try:
        return Derived(doc.text.replace("\u200b", "").encode("cp1252"))
    except UnicodeEncodeError:
        return None


def _hard_wrapped(doc: Canonical, width: int = 72) -> Derived | None:
    """Every paragraph wrapped at ``width`` columns, the way a text export does it: the
    rule lines and their text (not headings, not the glossary's one-line terms)."""
    if doc.fmt not in ("mtg-text", "riftbound-md"):
        return None
    out = []
    for line in doc.text.split("\n"):
        if len(line) <= width or line.startswith("#"):
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        current = indent.rstrip(" ") and indent
        for word in line.lstrip(" ").split(" "):
            if current.strip() and len(current) + 1 + len(word) > width:
                out.append(current)
                current = word
            else:
                current = f"{current} {word}" if current.strip() else current + word
        out.append(current)
    return _utf8("\n".join(out))


def _hanging_indents(doc: Canonical, width: int = 72) -> Derived | None:
    """Plain text wrapped at ``width`` columns with hanging indents, as a text formatter sets a
    numbered list (``fmt``, a word processor's "save as text"): a paragraph's first line as it
    starts, every line after it indented to where its first word's text begins (under the
    text after ``100.1a``, ``Example:``, a glossary definition's first word)."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    out = []
    for line in doc.text.split("\n"):
        if len(line) <= width or line.startswith("#"):
            out.append(line)
            continue
        words = line.split(" ")
        hang = " " * min(len(words[0]) + 1, 14)
        current = words[0]
        for word in words[1:]:
            if len(current) + 1 + len(word) > width and current.strip():
                out.append(current)
                current = hang + word
            else:
                current = f"{current} {word}"
        out.append(current)
    return _utf8("\n".join(out))


def _pages_of(doc: Canonical, form_feeds: bool, lines_per_page: int = 50) -> Derived | None:
    """A PDF's text with its pages numbered ``Page N of M``: with ``form_feeds``, pdftotext's
    pages (the title and ``Page N of M`` over each page, ``Page N of M`` under it too); without,
    as a viewer pastes a selection of pages: a ``Page N of M`` line alone where each page ends,
    inside a rule where the page breaks one, no form feed and no running title beside it."""
    wrapped = _hard_wrapped(doc, 80)
    if wrapped is None:
        return None
    lines = wrapped.data.decode("utf-8").split("\n")
    pages = [lines[i:i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    total = len(pages)
    if form_feeds:
        return _utf8("\f".join("\n".join([f"{_TITLE[doc.game]}    Page {n} of {total}", ""] + page
                                         + ["", f"Page {n} of {total}"])
                               for n, page in enumerate(pages, start=1)))
    return _utf8("\n".join("\n".join(page + [f"Page {n} of {total}"]) for n, page in enumerate(pages, start=1)))


def _paged(doc: Canonical, lines_per_page: int = 54) -> Derived | None:
    """pdftotext output: the text wrapped at 80 columns, cut into pages by form feeds, each
    page with the document's title as a running header and ``Page N`` as a footer."""
    wrapped = _hard_wrapped(doc, 80)
    if wrapped is None:
        return None
    lines = wrapped.data.decode("utf-8").split("\n")
    pages = [lines[i:i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    out = []
    for n, page in enumerate(pages, start=1):
        out.append("\n".join([_TITLE[doc.game], ""] + page + ["", f"{n}"]))
    return _utf8("\f".join(out))


def _mtg_body(lines: list[str]) -> tuple[int, int, int]:
    """Where the rules body starts (the chapter heading above the first rule), where the
    Glossary heading is and where Credits is (the end when it is missing), found the plain way."""
    first = next(i for i, ln in enumerate(lines) if _MTG_RULE.match(ln) and "." in ln[:5])
    start = first
    while start > 0 and (not lines[start - 1].strip() or _MTG_SECTION.match(lines[start - 1])
                         or _MTG_CHAPTER.match(lines[start - 1])):
        start -= 1
    while not lines[start].strip():
        start += 1
    glossary = max((i for i, ln in enumerate(lines) if ln.strip() == "Glossary"), default=len(lines))
    credits = next((i for i in range(glossary + 1, len(lines)) if lines[i].strip() == "Credits"),
                   len(lines))
    return start, glossary, credits


def _mtg_blocks(doc: Canonical) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """The Magic text as (the lines before the body, [(kind, line)] of the body and glossary
    paragraphs, the lines from Credits on)."""
    lines = doc.text.split("\n")
    start, glossary, credits = _mtg_body(lines)
    body = []
    for ln in lines[start:glossary]:
        if not ln.strip():
            continue
        kind = ("chapter" if _MTG_CHAPTER.match(ln) else "section" if _MTG_SECTION.match(ln)
                else "rule" if _MTG_RULE.match(ln) else "text")
        body.append((kind, ln))
    body.append(("glossary", "Glossary"))
    entry: list[str] = []
    for ln in lines[glossary + 1:credits] + [""]:
        if ln.strip():
            entry.append(ln)
        elif entry:
            body.append(("term", entry[0]))
            body.extend(("definition", d) for d in entry[1:])
            entry = []
    return lines[:start], body, lines[credits:]


def _mtg_html(doc: Canonical, style: str) -> Derived | None:
    """Magic's rules as a simple web page: a ``<p>`` per paragraph (``style="p"``), or
    ``<h2>`` chapters, ``<h3>`` sections, ``<li>`` rules and a ``<dl>`` glossary
    (``style="lists"``)."""
    if doc.fmt != "mtg-text":
        return None
    front, body, back = _mtg_blocks(doc)
    esc = html.escape
    out = ["<!DOCTYPE html>", "<html><head><meta charset=\"utf-8\">",
           f"<title>{esc(front[0].lstrip(chr(0xfeff)))}</title></head><body>"]
    out += [f"<p>{esc(ln)}</p>" for ln in front if ln.strip()]
    in_list = in_glossary = False
    for kind, ln in body:
        if style == "p":
            if kind == "term":
                out.append(f"<p><b>{esc(ln)}</b><br>")
            elif kind == "definition":
                out[-1] += f"\n{esc(ln)}<br>" if not out[-1].endswith("</p>") else ""
                if out[-1].endswith("</p>"):
                    out.append(f"<p>{esc(ln)}</p>")
            else:
                if out[-1].endswith("<br>"):
                    out[-1] = out[-1][:-4] + "</p>"
                out.append(f"<p>{esc(ln)}</p>")
            continue
        if kind in ("rule", "text") and not in_list:
            out.append("<ul>")
            in_list = True
        if kind not in ("rule", "text") and in_list:
            out.append("</ul>")
            in_list = False
        if kind == "chapter" or kind == "glossary":
            out.append(f"<h2>{esc(ln)}</h2>")
            if kind == "glossary":
                out.append("<dl>")
                in_glossary = True
        elif kind == "section":
            out.append(f"<h3>{esc(ln)}</h3>")
        elif kind == "rule":
            out.append(f"<li>{esc(ln)}</li>")
        elif kind == "text":
            out.append(f"<li class=\"example\">{esc(ln)}</li>" if not ln[:1].isspace()
                       else f"<li class=\"continued\">{esc(ln.strip())}</li>")
        elif kind == "term":
            out.append(f"<dt>{esc(ln)}</dt>")
        else:
            out.append(f"<dd>{esc(ln)}</dd>")
    if style == "p" and out[-1].endswith("<br>"):
        out[-1] = out[-1][:-4] + "</p>"
    if in_glossary:
        out.append("</dl>")
    out += [f"<p>{esc(ln)}</p>" for ln in back if ln.strip()]
    out.append("</body></html>")
    return _utf8("\n".join(out) + "\n")


def _mtg_markdown(doc: Canonical) -> Derived | None:
    """Magic's rules as Markdown: ``# Title``, ``## 1. Game Concepts``, ``### 100. General``,
    ``- 100.1. …`` rules (an example or continued paragraph indented under its rule), the
    glossary's terms in bold."""
    if doc.fmt != "mtg-text":
        return None
    front, body, back = _mtg_blocks(doc)
    out = [f"# {front[0].lstrip(chr(0xfeff))}", ""] + front[1:]
    for kind, ln in body:
        if kind == "chapter" or kind == "glossary":
            out += [f"## {ln}", ""]
        elif kind == "section":
            out += [f"### {ln}", ""]
        elif kind == "rule":
            out += [f"- {ln}", ""]
        elif kind == "text":
            out += [f"  {ln.strip()}", ""]
        elif kind == "term":
            out += ["", f"**{ln}**"]
        else:
            out.append(ln)
    return _utf8("\n".join(out + [""] + back))


def _glossary_on_one_line(doc: Canonical) -> Derived | None:
    """Magic's Glossary with each term on the line of its definition: ``Abandon: To turn…``."""
    if doc.fmt != "mtg-text":
        return None
    lines = doc.text.split("\n")
    _, glossary, credits = _mtg_body(lines)
    out = lines[:glossary + 1]
    i = glossary + 1
    while i < credits:
        term_line = lines[i].strip() and (i == glossary + 1 or not lines[i - 1].strip())
        if term_line and i + 1 < credits and lines[i + 1].strip():
            out.append(f"{lines[i]}: {lines[i + 1]}")
            i += 2
        else:
            out.append(lines[i])
            i += 1
    return _utf8("\n".join(out + lines[credits:]))


def _rb_headings(doc: Canonical, render: Callable[[int, str], list[str]]) -> Derived | None:
    """The Riftbound Markdown with its headings written another way (``render(depth, text)``
    gives the lines of one heading)."""
    if doc.fmt != "riftbound-md":
        return None
    out = []
    for ln in doc.text.split("\n"):
        m = _RB_HEADING.match(ln)
        out.extend(render(len(m.group(1)), f"{m.group(2)} {m.group(3) or ''}".rstrip()) if m else [ln])
    return _utf8("\n".join(out))


def _setext(depth: int, text: str) -> list[str]:
    return [text, ("=" if depth == 2 else "-") * max(3, len(text))]


def _rb_plain(doc: Canonical) -> Derived | None:
    """Riftbound's rules as plain text: no heading marks, no bold ids."""
    if doc.fmt != "riftbound-md":
        return None
    text = re.sub(r"(?m)^#{1,6} ", "", doc.text)
    return _utf8(_RB_BOLD_ID.sub(lambda m: m.group(1), text))


def _front_matter(doc: Canonical, pages: bool = True) -> Derived | None:
    """A cover page and a table of contents before the rules: every chapter and section
    title with dot leaders and a page number (the TOC of a PDF, as text), or without them,
    one title a line (``pages=False``)."""
    lines = doc.text.split("\n")
    if doc.fmt == "mtg-text":
        start, _, _ = _mtg_body(lines)
        titles = [ln for ln in lines[start:] if _MTG_CHAPTER.match(ln) or _MTG_SECTION.match(ln)]
        at = 1
    elif doc.fmt == "riftbound-md":
        titles = [f"{m.group(2)} {m.group(3) or ''}" for ln in lines if (m := _RB_HEADING.match(ln))]
        at = next(i for i, ln in enumerate(lines) if _RB_HEADING.match(ln))
    else:
        return None
    toc = ["", "Table of Contents", ""] + [f"{t} {'.' * max(3, 60 - len(t))} {4 + i // 40}" if pages
                                           else t for i, t in enumerate(titles)] + [""]
    return _utf8("\n".join(lines[:at] + toc + lines[at:]))


def _truncated(doc: Canonical) -> Derived | None:
    """The document cut in the middle of a rule's text, about 60% of the way through, after a
    word that no punctuation ends (the readers take a text ending in ``,`` as a sentence's end)."""
    lines = doc.text.split("\n")
    ids = _ids(doc)
    rule_lines = [i for i, ln in enumerate(lines) if ids.match(ln) and len(ln.split()) > 8]
    if not rule_lines:
        return None
    i = rule_lines[len(rule_lines) * 3 // 5]
    words = lines[i].split(" ")
    half = len(words) // 2
    while half > 1 and words[half - 1][-1:] in ".:;,!?":  # a cut there reads as a sentence's end
        half -= 1
    cut = lines[:i] + [" ".join(words[:half])]
    return Derived("\n".join(cut).encode("utf-8"), i + 1)


def _rule_paragraphs(doc: Canonical) -> list[tuple[int, int]]:
    """(first, end) line indexes of each rule paragraph: a rule line and the lines that
    continue it, up to a blank line or the next numbered line."""
    lines = doc.text.split("\n")
    ids = _ids(doc)
    starts = [i for i, ln in enumerate(lines) if ids.match(ln)]
    out = []
    for i in starts:
        j = i + 1
        while j < len(lines) and lines[j].strip() and not ids.match(lines[j]) \
                and not lines[j].startswith("#"):
            j += 1
        out.append((i, j))
    return out


def _duplicated(doc: Canonical) -> Derived | None:
    """One rule paragraph printed again further on, after the next rule (with other text)."""
    lines = doc.text.split("\n")
    paragraphs = _rule_paragraphs(doc)
    if len(paragraphs) < 10:
        return None
    (i, j), (_, after) = paragraphs[len(paragraphs) // 2], paragraphs[len(paragraphs) // 2 + 1]
    number = _ids(doc).match(lines[i]).group(0)
    copy = f"{number} This paragraph is printed under a number already used."
    return Derived("\n".join(lines[:after] + ["", copy] + lines[after:]).encode("utf-8"), after + 2)


def _out_of_order(doc: Canonical) -> Derived | None:
    """Two sibling rules (without subrules) printed in each other's place."""
    lines = doc.text.split("\n")
    ids = _ids(doc)
    paragraphs = _rule_paragraphs(doc)
    for n in range(len(paragraphs) // 2, len(paragraphs) - 2):
        (a, a_end), (b, b_end), (c, _) = paragraphs[n], paragraphs[n + 1], paragraphs[n + 2]
        ia, ib, ic = (ids.match(lines[k]).group(1).rstrip(".") for k in (a, b, c))
        if (ia[:-1] == ib[:-1] and ia[-1].isalpha() and ib[-1].isalpha() and ia[-2] != "."
                and not ic.startswith(ib) and all(not lines[k].strip() for k in range(a_end, b))):
            out = lines[:a] + lines[b:b_end] + lines[a_end:b] + lines[a:a_end] + lines[b_end:]
            return Derived("\n".join(out).encode("utf-8"), a + 1 + (b - a_end) + (b_end - b))
    for n in range(len(paragraphs) // 2, len(paragraphs) - 2):  # Riftbound: 402.4.a, 402.4.b
        (a, a_end), (b, b_end), (c, _) = paragraphs[n], paragraphs[n + 1], paragraphs[n + 2]
        ia, ib, ic = (ids.match(lines[k]).group(1).rstrip(".") for k in (a, b, c))
        if (ia.rpartition(".")[0] == ib.rpartition(".")[0] and ia[-1].isalpha() and ib[-1].isalpha()
                and not ic.startswith(ib) and all(not lines[k].strip() for k in range(a_end, b))):
            out = lines[:a] + lines[b:b_end] + lines[a_end:b] + lines[a:a_end] + lines[b_end:]
            return Derived("\n".join(out).encode("utf-8"), a + 1 + (b - a_end) + (b_end - b))
    return None


def _unknown_numbering(doc: Canonical) -> Derived | None:
    """Rules numbered ``Rule 100.1:`` — a layout no reader knows, to be refused."""
    ids = _ids(doc)
    text = ids.sub(lambda m: m.group(0).replace(m.group(1), f"Rule {m.group(1).rstrip('.')}:"), doc.text)
    text = re.sub(r"(?m)^(#{1,6} )?(\d{1,3})\. ", r"\1Part \2: ", text)
    return _utf8(text)


def _truncated_utf16(doc: Canonical) -> Derived | None:
    """A UTF-16 file cut in the middle of a character."""
    data = codecs.BOM_UTF16_LE + doc.text.encode("utf-16-le")
    return Derived(data[: len(data) // 2 * 2 - 1 if len(data) % 2 == 0 else len(data) - 1], 0)


TEXT_FORMATS = ("mtg-text", "riftbound-md")
ANY_FORMAT = ("mtg-text", "riftbound-md", "riftbound-html", "riftbound-pdftext", "riftbound-table")

LAYOUTS: list[Layout] = [
    Layout("CRLF line ends", ANY_FORMAT, lambda d: _utf8(d.text.replace("\n", "\r\n"))),
    Layout("CR-only line ends", ANY_FORMAT, lambda d: _utf8(d.text.replace("\n", "\r"))),
    Layout("UTF-8 with a BOM", ANY_FORMAT, lambda d: Derived(codecs.BOM_UTF8 + d.text.encode("utf-8"))),
    Layout("UTF-16 LE with a BOM", ANY_FORMAT, lambda d: Derived(d.text.encode("utf-16"))),
    Layout("UTF-16 BE without a BOM", ANY_FORMAT, lambda d: _encoded(d, "utf-16-be")),
    Layout("Windows-1252 bytes", ANY_FORMAT, _cp1252),
    Layout("NBSP after rule numbers", TEXT_FORMATS, lambda d: _utf8(_after_ids(d, "\u00a0"))),
    Layout("narrow NBSP after numbers and between words", TEXT_FORMATS,
           lambda d: _utf8(_after_ids(d, "\u202f").replace(" the ", " the\u202f"))),
    Layout("zero-width spaces inside rule numbers and text", TEXT_FORMATS,
           lambda d: _utf8(_in_ids(d, lambda i: i.replace(".", ".\u200b", 1)).replace(" rule", " \u200brule"))),
    Layout("soft hyphens inside rule numbers and words", TEXT_FORMATS,
           lambda d: _utf8(_WORD.sub("\u00ad\\1", _in_ids(d, lambda i: i[:2] + "\u00ad" + i[2:]), count=2000))),
    Layout("tabs after rule numbers", TEXT_FORMATS, lambda d: _utf8(_after_ids(d, "\t"))),
    Layout("a period after every rule number", ("mtg-text",),
           lambda d: _utf8(_MTG_SUBRULE_DOT.sub(r"\1.", d.text))),
    Layout("no period after rule numbers", ("mtg-text", "riftbound-md"),
           lambda d: _utf8(_in_ids(d, lambda i: i.rstrip(".") if "." in i.rstrip(".") else i))),
    Layout("rule numbers in bold", ("mtg-text",), lambda d: _utf8(_in_ids(d, lambda i: f"**{i}**"))),
    Layout("rule numbers in HTML anchors", TEXT_FORMATS,
           lambda d: _utf8(_in_ids(d, lambda i: f'<a id="r{i.rstrip(".")}"></a>{i}'))),
    Layout("rule numbers as Markdown links", TEXT_FORMATS,
           lambda d: _utf8(_in_ids(d, lambda i: f"[{i}](#r{i.rstrip('.')})"))),
    Layout("hard-wrapped at 72 columns", TEXT_FORMATS, _hard_wrapped, loses="lines", whole=True),
    Layout("pdftotext pages: form feeds, running header, page numbers", TEXT_FORMATS, _paged,
           loses="lines", whole=True),
    Layout("Magic as HTML, a <p> per paragraph", ("mtg-text",), lambda d: _mtg_html(d, "p")),
    Layout("Magic as HTML, <h2>/<h3> headings, <li> rules, <dl> glossary", ("mtg-text",),
           lambda d: _mtg_html(d, "lists"), whole=True),
    Layout("Magic as Markdown, ## headings and - list rules", ("mtg-text",), _mtg_markdown, whole=True),
    Layout("Magic's Glossary as 'Term: definition' lines", ("mtg-text",), _glossary_on_one_line, whole=True),
    Layout("Riftbound Markdown with setext headings", ("riftbound-md",), lambda d: _rb_headings(d, _setext), whole=True),
    Layout("Riftbound Markdown headings one level deeper", ("riftbound-md",),
           lambda d: _rb_headings(d, lambda n, t: ["#" * (n + 1) + " " + t])),
    Layout("Riftbound Markdown headings one level shallower", ("riftbound-md",),
           lambda d: _rb_headings(d, lambda n, t: ["#" * (n - 1) + " " + t])),
    # No heading marks: each top-level entry is a heading or a rule by its text, as in the Markdown.
    Layout("Riftbound as plain text", ("riftbound-md",), _rb_plain, whole=True),
    Layout("a cover page and a table of contents before the rules", TEXT_FORMATS, _front_matter),
    Layout("a table of contents without page numbers", TEXT_FORMATS, lambda d: _front_matter(d, False),
           whole=True),
    Layout("cut in the middle of a rule", TEXT_FORMATS, _truncated, "cut"),
    Layout("a rule number printed twice", TEXT_FORMATS, _duplicated, "noted"),
    Layout("two rules out of order", TEXT_FORMATS, _out_of_order, "noted"),
    Layout("rules numbered 'Rule 100.1:'", TEXT_FORMATS, _unknown_numbering, "refused"),
    Layout("UTF-16 cut in the middle of a character", TEXT_FORMATS, _truncated_utf16, "refused"),
]


# -- layouts a user brings: saved from a browser, copied from a PDF viewer, re-exported ----------

_CHROME_TOP = ('<header class="site"><div class="logo">Rules Library</div>'
               '<nav><a href="/">Home</a> | <a href="/rules">Rules</a> | <a href="#r100">100. General</a>'
               ' | <a href="#r101">101. Deck Construction</a></nav>'
               '<form class="search"><input name="q" placeholder="Search 100.1a"></form></header>')
_CHROME_BOTTOM = ('<footer><p>&copy; 2026 Rules Library. Not affiliated with the publisher.</p>'
                  '<p><a href="#top">Back to top</a> &middot; Page generated 12/01/2026 22:40</p></footer>')
_LONG_WORD = re.compile(r"\b([A-Za-z]{4})([a-z]{4,})\b")


def _browser_text(text: str) -> str:
    """One paragraph's text as a browser's saved page holds it: escaped, a soft hyphen
    (``&shy;``) inside long words, curly quotes as numeric references, words in ``<span>``s
    and the source broken over lines (white space the browser folds)."""
    out = html.escape(text, quote=False).replace("\u2019", "&#8217;").replace("\u201c", "&#8220;")
    out = _LONG_WORD.sub(r"\1&shy;\2", out)
    words = out.split(" ")
    return "\n    ".join(f'<span class="w">{" ".join(words[i:i + 6])}</span>' for i in range(0, len(words), 6))


def _browser_page(doc: Canonical) -> Derived | None:
    """The rules saved from a browser ("Save page as… HTML only"): a site header with a nav
    and a search box, a footer, the rule number in a ``<span>`` and ``&nbsp;`` after it, the
    words in ``<span>``s broken over the source's lines, soft hyphens, character references,
    and ``<br>`` inside paragraphs: Magic's examples and a glossary entry's definitions in the
    ``<p>`` of their rule or term, Riftbound's hard line breaks inside a rule."""
    esc = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_TITLE[doc.game]} | Rules Library</title>",
           "<style>.num{font-weight:bold}</style><script>var t=1;</script></head>",
           '<body><a id="top"></a>', _CHROME_TOP, '<main class="rules">']
    if doc.fmt == "mtg-text":
        front, body, back = _mtg_blocks(doc)
        out += [f"<h1>{esc(front[0].lstrip(chr(0xfeff)))}</h1>"]
        out += [f"<p>{_browser_text(ln)}</p>" for ln in front[1:] if ln.strip()]
        paragraph: list[str] = []

        def close() -> None:
            if paragraph:
                out.append("<p>" + "<br>\n".join(paragraph) + "</p>")
                paragraph.clear()
        for kind, ln in body:
            if kind in ("chapter", "glossary"):
                close()
                out.append(f"<h2>{esc(ln)}</h2>")
            elif kind == "section":
                close()
                out.append(f"<h3>{esc(ln)}</h3>")
            elif kind in ("rule", "term"):
                close()
                m = _MTG_RULE.match(ln)
                paragraph.append(f'<span class="num">{m.group(1)}</span>&nbsp;{_browser_text(m.group(2))}'
                                 if m and kind == "rule" else f"<b>{esc(ln)}</b>" if kind == "term"
                                 else _browser_text(ln))
            elif kind == "text" and ln[:1].isspace():  # a continued paragraph stands apart
                close()
                out.append(f'<p class="continued">{_browser_text(ln.strip())}</p>')
            else:  # an example, a definition: a line of its rule's or term's paragraph
                paragraph.append(_browser_text(ln))
        close()
        out += [f"<p>{_browser_text(ln)}</p>" for ln in back if ln.strip()]
    elif doc.fmt == "riftbound-md":
        block: list[str] = []

        def flush() -> None:
            if block:
                first = _RB_BOLD_ID.match(block[0])
                head = (f'<span class="num"><strong>{first.group(1)}</strong></span>&nbsp;'
                        + _browser_text(block[0][first.end():].strip()) if first else _browser_text(block[0]))
                out.append("<p>" + "<br>\n".join([head] + [_browser_text(b) for b in block[1:]]) + "</p>")
                block.clear()
        for ln in doc.text.split("\n"):
            heading = re.match(r"^(#{1,6}) (.*)$", ln)
            if heading:
                flush()
                depth = len(heading.group(1))
                out.append(f"<h{depth}>{esc(heading.group(2))}</h{depth}>")
            elif not ln.strip():
                flush()
            elif ln.startswith(">") and not block:  # a quote, not a wrapped line starting '>'
                flush()
                out.append(f"<blockquote><p>{_browser_text(ln.lstrip('> '))}</p></blockquote>")
            else:
                block.append(ln.rstrip())
        flush()
    else:
        return None
    out += ["</main>", _CHROME_BOTTOM, "</body></html>"]
    return _utf8("\n".join(out) + "\n")


def _ligatures(text: str) -> str:
    return text.replace("ffi", "\ufb03").replace("fi", "\ufb01").replace("fl", "\ufb02")


def _pdf_viewer_copy(doc: Canonical, width: int = 88, lines_per_page: int = 46) -> Derived | None:
    """The rules selected in a PDF viewer and pasted into a text file: each paragraph wrapped
    at the page's width, a long word at a line end hyphenated (``perma-`` | ``nent``), the
    running title and the page number pasted where each page ends (no form feed: a viewer
    copies none), in the middle of a rule when a page breaks inside it, and the ﬁ/ﬂ/ﬃ
    ligatures of the font."""
    wrapped = _hard_wrapped(doc, width)
    if wrapped is None:
        return None
    lines = wrapped.data.decode("utf-8").split("\n")
    out: list[str] = []
    for i, ln in enumerate(lines):
        following = lines[i + 1] if i + 1 < len(lines) else ""
        first = following.split(" ", 1)[0]
        if (ln.strip() and not ln.startswith("#") and re.fullmatch(r"[a-z]{9,}", first)
                and len(following.split(" ")) > 2 and out[-1:] != ["HYPHEN"]):
            lines[i + 1] = following[5:]
            ln = f"{ln} {first[:5]}-"
        out.append(_ligatures(ln) if not re.match(r"^\W*\d", ln) else
                   ln[:12] + _ligatures(ln[12:]))
    paged: list[str] = []
    for n in range(0, len(out), lines_per_page):
        paged += out[n:n + lines_per_page] + [f"{n // lines_per_page + 1}", _TITLE[doc.game]]
    return _utf8("\n".join(paged))


_PANDOC_ESCAPES = str.maketrans({"[": r"\[", "]": r"\]", "*": r"\*", "_": r"\_", "<": r"\<",
                                 ">": r"\>", "#": r"\#", "`": r"\`", "|": r"\|", "$": r"\$"})
_LIST_MARKER = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")


def _pandoc_line(line: str) -> str:
    """One line as pandoc's Markdown writer escapes it: Markdown's special characters behind
    a backslash, and a number that would start an ordered list (``100. General``) written
    ``100\\. General``."""
    bold = _RB_BOLD_ID.match(line)
    head, rest = (bold.group(0), line[bold.end():]) if bold else ("", line)
    rest = rest.translate(_PANDOC_ESCAPES)
    if not head:
        rest = _LIST_MARKER.sub(lambda m: f"{m.group(1)}\\{m.group(2)}", rest)
    return head + rest


def _pandoc_markdown(doc: Canonical) -> Derived | None:
    """The rules re-exported by another tool as Markdown (``pandoc -t markdown``): special
    characters escaped with backslashes (``\\[E\\]``, ``100\\. General``, ``1\\. To play``),
    headings as ATX ``#`` of the tool's levels (Riftbound's ``##``/``###`` one level up), and
    every paragraph wrapped at 72 columns."""
    if doc.fmt == "mtg-text":
        out = [_pandoc_line(ln) for ln in doc.text.split("\n")]
    elif doc.fmt == "riftbound-md":
        out = []
        for ln in doc.text.split("\n"):
            heading = _RB_HEADING.match(ln)
            if heading:
                out.append("#" * (len(heading.group(1)) - 1) + f" {heading.group(2)} {heading.group(3) or ''}".rstrip())
            elif ln.startswith("# ") or ln.startswith(">"):
                out.append(ln)
            else:
                out.append(_pandoc_line(ln))
    else:
        return None
    wrapped = _hard_wrapped(replace(doc, text="\n".join(out)), 72)
    return wrapped


def _dotted_subrules(doc: Canonical, join: str) -> Derived | None:
    """Magic's subrule letter written another way: ``100.1.a`` (``join="."``), ``100.1 a``
    (``join=" "``)."""
    if doc.fmt != "mtg-text":
        return None
    return _utf8(_in_ids(doc, lambda i: re.sub(r"(?<=\d)([a-z])(\.?)$", lambda m: join + m.group(1)
                                                  + ("." if join == "." else m.group(2)), i)))


def _attached_letters(doc: Canonical) -> Derived | None:
    """Riftbound's letters attached to the number before them, Magic's way: ``135.2.e.5.a.``
    written ``135.2e.5a.``."""
    if doc.fmt != "riftbound-md":
        return None
    return _utf8(_in_ids(doc, lambda i: re.sub(r"(?<=\d)\.([a-z])(?=\.|$)", r"\1", i)))


def _glossary_first(doc: Canonical) -> Derived | None:
    """Magic's Glossary printed before the rules (after the Contents), not after them."""
    if doc.fmt != "mtg-text":
        return None
    lines = doc.text.split("\n")
    start, glossary, credits = _mtg_body(lines)
    out = lines[:start] + lines[glossary:credits] + [""] + lines[start:glossary] + lines[credits:]
    return _utf8("\n".join(out))


# The chapter or section an edition adds: (number, kind, parent, text) as the reader must read it;
# Magic's takes the number after the document's last section (``{n}``), under that one's chapter.
_ADDED_MTG = [("{n}", "section", "", "{n}. Team Draft Variant"),
              ("{n}.1", "rule", "{n}", "{n}.1. In the Team Draft variant, teams of players draft cards from the same boosters."),
              ("{n}.1a", "rule", "{n}.1", "{n}.1a Each team drafts in turn order, starting with the team of the starting player."),
              ("{n}.2", "rule", "{n}", "{n}.2. Once the draft is over, each team builds one deck of at least forty cards.")]
_ADDED_RB = [("900", "chapter", None, "## 900. Variant Play"),
             ("901", "section", "900", "### 901. Two-Headed Teams"),
             ("901.1", "rule", "901", "**901.1.** In a Two-Headed Teams game, two players share one Base and one score."),
             ("901.1.a", "rule", "901.1", "**901.1.a.** Teammates take their turns at the same time and may look at each other's Hands."),
             ("901.2", "rule", "901", "**901.2.** A team wins when its score reaches the Victory Score.")]


def _added_part(doc: Canonical) -> Derived | None:
    """An edition with a part the canonical one has not: Magic a new section after its last
    one (906 after 905), with rules, before the Glossary; Riftbound a new chapter 900 with a
    section and rules at the end, in the document's own heading marks. The reader must read
    every canonical rule as before and the new ones with their kinds and parents
    (:attr:`Derived.added`)."""
    lines = doc.text.split("\n")
    if doc.fmt == "mtg-text":
        _, glossary, _ = _mtg_body(lines)
        up = parents(doc.result.rules)
        last = [r.number for r in doc.result.rules if r.kind == "section"][-1]
        n = str(int(last[0]) + 1)
        if n.endswith("00"):
            return None
        chapter = up[sort_key(last)]
        added = [(a.format(n=n), kind, (b.format(n=n) if b else ".".join(str(v) for _, v in chapter)
                                        if chapter else None), t.format(n=n))
                 for a, kind, b, t in _ADDED_MTG]
        out = lines[:glossary] + [x for *_, t in added for x in (t, "")] + lines[glossary:]
    elif doc.fmt == "riftbound-md":
        # in the document's own heading marks (1.2's export writes every heading ``####``)
        marks = {kind: next((m.group(1) for ln in lines if (m := re.match(pattern, ln))), default)
                 for kind, pattern, default in (("chapter", r"^(#{1,6}) \d00\. ", "##"),
                                                ("section", r"^(#{1,6}) \d\d[1-9]\. ", "###"))}
        added = [(n, kind, parent, re.sub(r"^#+", marks.get(kind, ""), t) if t.startswith("#") else t)
                 for n, kind, parent, t in _ADDED_RB]
        out = lines + [""] + [x for *_, t in added for x in (t, "")]
    else:
        return None
    return Derived("\n".join(out).encode("utf-8"), 0,
                   tuple((n, kind, parent) for n, kind, parent, _ in added))


def _renumbered_chapters(doc: Canonical) -> Derived | None:
    """Magic's chapter headings as a Markdown tool exports a heading list it renumbers: every
    chapter ``1. …`` (each one a list of its own, which starts at 1)."""
    if doc.fmt != "mtg-text":
        return None
    lines = doc.text.split("\n")
    start, glossary, _ = _mtg_body(lines)
    out = [(_MTG_CHAPTER.sub(r"1. \2", ln) if start <= i < glossary and _MTG_CHAPTER.match(ln)
            and (i == 0 or not lines[i - 1].strip()) else ln) for i, ln in enumerate(lines)]
    return _utf8("\n".join(out)) if out != lines else None


def _two_columns(doc: Canonical, pages: bool, width: int = 44, rows: int = 50) -> Derived | None:
    """A two-column PDF's text read across the page: each line the left column's line and the
    right column's beside it; ``pdftotext -layout`` parts the pages by form feeds
    (``pages``), a viewer's copy does not. (Edition 1.4's padded fifth-level ids keep two
    spaces of their padding, as the column's width leaves them.)"""
    padded = re.sub(r"(?m)^(\d{3}(?:\.[0-9a-z]+)+\.?) {2,}", r"\1  ", doc.text)
    wrapped = _hard_wrapped(replace(doc, text=padded), width)
    if wrapped is None:
        return None
    lines = wrapped.data.decode("utf-8").split("\n")
    out: list[str] = []
    for n in range(0, len(lines), 2 * rows):
        left, right = lines[n:n + rows], lines[n + rows:n + 2 * rows]
        right += [""] * (len(left) - len(right))
        out += [f"{a:<{width}}    {b}".rstrip() for a, b in zip(left, right)] + ["\f" if pages else ""]
    return _utf8("\n".join(out[:-1]))


def _pipe_table(doc: Canonical) -> Derived | None:
    """The rules as a Markdown table (a spreadsheet's or a converter's export): one row a
    paragraph, the rule number in the first column and the text in the second; headings and
    the glossary as they were."""
    if doc.fmt == "mtg-text":
        ids = [_MTG_ID]
    elif doc.fmt == "riftbound-md":  # bold ids, padded ones, a plain one opening a paragraph
        # (whatever its text starts with: 1.2's "322.9 6a. If Units…" is rule 322.9)
        ids = [_RB_BOLD_ID, _RB_PLAIN_ID, re.compile(r"^(\d{3}(?:\.[0-9a-z]+)+\.?)(?= \S)")]
    else:
        return None
    out: list[str] = []
    row = -1  # the index of the table's last row, -1 outside a table
    lines = doc.text.split("\n")
    for k, ln in enumerate(lines):
        m = next((m for n, p in enumerate(ids) if (m := p.match(ln)) and (n < 2 or not lines[k - 1].strip())),
                 None)
        if m:
            if row < 0:
                out += ["", "| Rule | Text |", "| --- | --- |"]
            out.append(f"| {m.group(1)} | {ln[m.end():].strip().replace('|', '&#124;')} |")
            row = len(out) - 1
        elif row < 0:
            out.append(ln)
        elif not ln.strip():
            continue  # the rows of a table stand together
        elif (ln.startswith("#") or _MTG_SECTION.match(ln) or _MTG_CHAPTER.match(ln) or ln == "Glossary"
              or re.fullmatch(r"\s*(?:-{3,}|\*{3,}|_{3,})\s*", ln)):  # a heading, a horizontal rule
            row = -1
            out += ["", ln, ""]
        else:  # an example, a continued line: a line of its rule's cell
            out[row] = out[row][:-2] + "<br>" + ln.strip().replace("|", "&#124;") + " |"
    return _utf8("\n".join(out) + "\n")


_ID_PART = re.compile(r"\d+|[a-z]+")
_RB_HEADING_ANY = re.compile(r"^(#{1,6}) (.*)$")
_BLOCK_GAP = re.compile(r"\n[ \t]*\n")  # the blank line between two blocks
_MD_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _word_levels(number: str) -> tuple[list[int], list[str], str] | None:
    """A rule number as a Word multilevel list prints it: each part's value (a letter counted as
    Word's lowerLetter counts: a..z, aa..), its format, and the level's ``w:lvlText``
    (``100.1a`` -> [100, 1, 1], [decimal, decimal, lowerLetter], ``%1.%2%3``); None when Word
    could not print it (``ab``; ``053.``: Word's decimals have no leading zeros)."""
    values, fmts, text, at = [], [], "", 0
    for n, m in enumerate(_ID_PART.finditer(number), start=1):
        part = m.group()
        if part.isdigit():
            if part != str(int(part)):  # 000., 053.: Word's decimals have no leading zeros
                return None
            values.append(int(part))
            fmts.append("decimal")
        elif len(set(part)) == 1:
            values.append(ord(part[0]) - ord("a") + 1 + 26 * (len(part) - 1))
            fmts.append("lowerLetter")
        else:
            return None
        text += number[at:m.start()] + f"%{n}"
        at = m.end()
    return values, fmts, text + number[at:]


def _docx_numbered(doc: Canonical) -> Derived | None:
    """The rules as a Word document authored with Word's automatic multilevel lists: a numbered
    paragraph's text holds no number (Word prints it from ``word/numbering.xml``). Chapters,
    sections, rules and subrules (Riftbound: its numbered headings, as Heading styles, and its
    bold ids) are paragraphs of one list per kind of top number (a chapter ``1.``; a section
    or rule ``100.``), a level per part of the number with the level's format and text
    (``%1.%2%3``); where the next number is not the one the list would count to (the next
    chapter's sections, a gap, Magic's letters that skip ``l`` and ``o``), the paragraph starts
    a list instance (``w:num``) whose ``w:startOverride``s give its whole number, as an author
    sets "Set numbering value". Everything else (the contents, the Glossary, an example, a
    number written another way) is typed as it is printed, an empty line an empty paragraph."""
    lines = doc.text.split("\n")
    if doc.fmt == "mtg-text":
        start, glossary, _ = _mtg_body(lines)
        body = range(start, glossary)
    elif doc.fmt == "riftbound-md":
        body = range(len(lines))
    else:
        return None
    # (style or None, text, family, levels) per paragraph; levels None: typed as printed
    plan: list[tuple[str | None, str, str, tuple[list[int], list[str], str] | None]] = []
    for k, ln in enumerate(lines):
        style, number, text = None, None, ln
        if k in body and doc.fmt == "mtg-text":
            m = _MTG_CHAPTER.match(ln) or _MTG_SECTION.match(ln) or _MTG_RULE.match(ln)
            if m:
                number, text = m.group(1) + ("." if m.re is not _MTG_RULE else ""), m.group(2)
        elif doc.fmt == "riftbound-md":
            if (h := _RB_HEADING_ANY.match(ln)):
                style, text = f"Heading {min(len(h.group(1)), 9)}", h.group(2)
                if (m := re.match(r"^(\d{3}(?:\.[0-9a-z]+)*\.?) (.*)$", text)):
                    number, text = m.groups()
            elif (m := _RB_BOLD_ID.match(ln)):
                number, text = m.group(1), ln[m.end():].lstrip()
        levels = _word_levels(number) if number else None
        family = "chapter" if levels and len(levels[0]) == 1 and levels[0][0] < 10 else "rules"
        typed = f"{number} {text}".rstrip() if number else text  # as printed, without Markdown marks
        plan.append((style, text if levels else typed, family, levels))
    # each list's levels: what the first number of each depth prints; a number another depth
    # printed otherwise is typed
    shapes: dict[str, dict[int, tuple[str, str]]] = {"chapter": {}, "rules": {}}
    for k, (style, text, family, levels) in enumerate(plan):
        if levels is None:
            continue
        values, fmts, lvl_text = levels
        depth = len(values) - 1
        shape = (fmts[-1], lvl_text)
        if shapes[family].setdefault(depth, shape) != shape or any(
                shapes[family].get(n, (fmts[n], ""))[0] != fmts[n] for n in range(depth)):
            plan[k] = (style, _RB_BOLD_ID.sub(r"\1", lines[k].lstrip("#").strip()), family, None)
    document = docx.Document()
    numbering = document.part.numbering_part.element
    abstract_ids = {"chapter": 90, "rules": 91}
    first_num = next((i for i, el in enumerate(numbering) if el.tag == qn("w:num")), len(numbering))
    for family, depths in shapes.items():
        levels_xml = "".join(
            f'<w:lvl w:ilvl="{n}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/><w:lvlJc w:val="left"/>'
            f'<w:pPr><w:ind w:left="{360 * (n + 1)}" w:hanging="360"/></w:pPr></w:lvl>'
            for n, (fmt, text) in sorted(depths.items()))
        numbering.insert(first_num, parse_xml(
            f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{abstract_ids[family]}">'
            f'<w:multiLevelType w:val="multilevel"/>{levels_xml}</w:abstractNum>'))
    next_id = 100
    current: dict[str, tuple[int, list[int]]] = {}  # per list: its w:num in use, the number last printed
    for style, text, family, levels in plan:
        paragraph = document.add_paragraph(text, style=style) if style else document.add_paragraph(text)
        if levels is None:
            continue
        values = levels[0]
        depth = len(values) - 1
        num, last = current.get(family, (0, []))
        counted = (last[:depth] + [last[depth] + 1] if len(last) > depth else
                   last + [1] if len(last) == depth else None)
        if num == 0 or counted != values:
            num, next_id = next_id, next_id + 1
            overrides = "".join(f'<w:lvlOverride w:ilvl="{n}"><w:startOverride w:val="{v}"/></w:lvlOverride>'
                                for n, v in enumerate(values))
            numbering.append(parse_xml(f'<w:num {nsdecls("w")} w:numId="{num}">'
                                       f'<w:abstractNumId w:val="{abstract_ids[family]}"/>{overrides}</w:num>'))
        current[family] = (num, values)
        num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
        num_pr.get_or_add_ilvl().val = depth
        num_pr.get_or_add_numId().val = num
    out = io.BytesIO()
    document.save(out)
    return Derived(out.getvalue())


def _json_export(doc: Canonical) -> Derived | None:
    """The rules as another tool exports its parse, JSON: the title, then ``"rules"``, a list of
    objects (number as printed, kind, title, text, examples; empty fields left out),
    and ``"glossary"``, a list of ``{"term", "definition"}``; indented, as a tool writes it."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    rules = [{k: v for k, v in (("number", r.raw_id), ("kind", r.kind), ("title", r.title),
                                ("text", r.text), ("examples", r.examples)) if v}
             for r in doc.result.rules]
    export: dict[str, object] = {"title": doc.result.title, "rules": rules}
    if doc.result.terms:
        export["glossary"] = [{"term": t.name, "definition": t.definition} for t in doc.result.terms]
    return _utf8(json.dumps(export, ensure_ascii=False, indent=2) + "\n")


def _keyed_json(doc: Canonical) -> Derived | None:
    """The rules as a community API serves them: an object ``{"title", "rules": {number: …},
    "glossary": […]}`` whose rules are keyed by their numbers, each value the text (a heading's
    title) or, where there is more to say, ``{"title", "text", "examples"}``."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    rules: dict[str, object] = {}
    for r in doc.result.rules:
        fields = {k: v for k, v in (("title", r.title), ("text", r.text), ("examples", r.examples)) if v}
        rules[r.raw_id.rstrip(".")] = next(iter(fields.values())) if len(fields) == 1 and not r.examples else fields
    export: dict[str, object] = {"title": doc.result.title, "rules": rules}
    if doc.result.terms:
        export["glossary"] = [{"term": t.name, "definition": t.definition} for t in doc.result.terms]
    return _utf8(json.dumps(export, ensure_ascii=False, indent=1) + "\n")


def _csv_export(doc: Canonical, header: bool = True, delimiter: str = ",") -> Derived | None:
    """The document as a spreadsheet saved as CSV: a header ``Rule,Text``, then each paragraph a
    row, its rule number (when it starts with one: ``1.``, ``100.1a``, not a bare ``1``) in the first column and the rest in the
    second (Riftbound's heading marks and bold ids dropped, as a spreadsheet holds none); or
    without the header row, or with another delimiter (a TSV, ``\\t``)."""
    if doc.fmt == "mtg-text":
        text = doc.text
    elif doc.fmt == "riftbound-md":
        text = _rb_plain(doc).data.decode("utf-8")
    else:
        return None
    out = io.StringIO()
    table = csv.writer(out, lineterminator="\r\n", delimiter=delimiter)
    if header:
        table.writerow(["Rule", "Text"])
    for block in _BLOCK_GAP.split(text):
        if not block.strip():
            continue
        m = re.match(r"^(\d{1,3}\.(?:[0-9a-z]+\.?)*)[ \t]+(\S[\s\S]*)$", block.strip("\n"))
        table.writerow([m.group(1), m.group(2)] if m else ["", block.strip("\n")])
    return _utf8(out.getvalue())


_LEADING_ID = re.compile(r"(?m)^(?P<lead>[^\w\n]{0,6}(?:\*\*)?)(?P<id>\d{3}(?:\.[0-9a-z]+)*\.?)(?=[ \t]|\*\*)")
_OCR_LETTER = {"0": "O", "1": "l"}


def _ocr_misread(number: str, n: int) -> str:
    """A rule number as OCR misreads it (the ``n``-th so misread): a ``1`` or ``0`` of its first
    part read as ``l``/``I`` or ``O``, or one before another digit inside its second part."""
    parts = number.split(".")
    at = 1 if n % 2 and len(parts) > 1 and len(parts[1].rstrip("abcdefghijkmnpqrstuvwxyz")) > 1 else 0
    part = parts[at]
    for i, ch in enumerate(part):
        if ch in _OCR_LETTER and (at == 0 or i < len(part) - 1 and part[i + 1].isdigit()):
            letter = "I" if ch == "1" and n % 3 == 0 else _OCR_LETTER[ch]
            parts[at] = part[:i] + letter + part[i + 1:]
            break
    return ".".join(parts)


def _ocr_scan(doc: Canonical) -> Derived | None:
    """A scan of the printed rules read by OCR and saved as text: as a PDF viewer's copy (wrapped,
    hyphenated at line ends, the title and page number where pages end, ligatures), and in one
    rule number in three a ``1`` or ``0`` read as a letter (``l00.1.``, ``1O3.2a``, ``702.l9b``;
    in a later part only one before another digit, so ``702.1O`` is not made). Simulated: no OCR
    engine is installed here, and OCR's other slips (curly quotes read straight, ``rn`` for
    ``m`` inside words) change the wording, which no reader can undo."""
    copied = _pdf_viewer_copy(doc)
    if copied is None:
        return None
    count = 0

    def misread(m: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return m.group("lead") + (_ocr_misread(m.group("id"), count // 3) if count % 3 == 0 else m.group("id"))

    return _utf8(_LEADING_ID.sub(misread, copied.data.decode("utf-8")))


_GDOCS_HEAD = ('<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type">'
               '<style type="text/css">ol{margin:0;padding:0}table td,table th{padding:0}.c0{color:#000000;'
               'font-weight:400;font-size:11pt;font-family:"Arial"}.c3{font-weight:700}.c5{font-style:italic}'
               '.c1{padding-top:0pt;padding-bottom:0pt;line-height:1.15;text-align:left}.c4{height:11pt}'
               '.title{padding-top:0pt;font-size:26pt}h1{padding-top:20pt;font-size:20pt}'
               'h2{padding-top:18pt;font-size:16pt}h3{padding-top:16pt;font-size:14pt}</style></head>'
               '<body class="c6 doc-content">')
_GDOCS_ENTITIES = str.maketrans({"’": "&rsquo;", "‘": "&lsquo;", "“": "&ldquo;", "”": "&rdquo;",
                                 "—": "&mdash;", "–": "&ndash;", "…": "&hellip;"})
_MD_EMPHASIS = re.compile(r"(?<![\w*_])(\*\*|__|\*|_)(?=[^\s*_])(.+?)(?<=[^\s*_])\1(?![\w*_])")


def _gdocs_runs(text: str) -> str:
    """A paragraph's text as Google Docs writes its runs: a span per run, a class for its style
    (bold and italic are classes, not tags), its characters escaped and curly quotes as entities."""
    out, at = [], 0
    for m in _MD_EMPHASIS.finditer(text):
        out.append(f'<span class="c0">{html.escape(text[at:m.start()], quote=False)}</span>')
        style = "c3" if len(m.group(1)) == 2 else "c5"
        out.append(f'<span class="c0 {style}">{html.escape(m.group(2), quote=False)}</span>')
        at = m.end()
    out.append(f'<span class="c0">{html.escape(text[at:], quote=False)}</span>')
    return "".join(out).replace('<span class="c0"></span>', "").translate(_GDOCS_ENTITIES)


def _google_docs(doc: Canonical) -> Derived | None:
    """The rules in a Google Doc, downloaded as a web page (File, Download, Web page): the whole
    body on one line, every paragraph a ``<p class="c1">`` of ``<span class="c0">`` runs (bold a
    class, the rule number a bold run followed by ``&nbsp;``), an empty paragraph between blocks,
    headings ``<h1>``–``<h3>`` with Google's ``id="h.…"``, curly quotes as entities. Magic's
    chapters and sections are headings 1 and 2; Riftbound's headings keep their depth."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    body: list[str] = []
    empty = '<p class="c1 c4"><span class="c0"></span></p>'
    heads = 0
    for block in _BLOCK_GAP.split(doc.text.strip("\n")):
        lines = block.strip("\n").split("\n")
        if doc.fmt == "mtg-text" and len(lines) == 1 and (m := _MTG_CHAPTER.match(lines[0]) or _MTG_SECTION.match(lines[0])):
            depth = 1 if m.re is _MTG_CHAPTER else 2
        elif doc.fmt == "riftbound-md" and len(lines) == 1 and (h := _RB_HEADING_ANY.match(lines[0])):
            depth, lines = min(len(h.group(1)), 6), [h.group(2)]
        else:
            depth = 0
        if depth:
            heads += 1
            body.append(f'<h{depth} class="c1" id="h.{heads:06x}">{_gdocs_runs(lines[0])}</h{depth}>')
            continue
        for ln in lines:
            m = _RB_BOLD_ID.match(ln) if doc.fmt == "riftbound-md" else _MTG_ID.match(ln)
            if m:
                rest = ln[m.end():].lstrip()
                ln_html = f'<span class="c0 c3">{m.group(1)}</span><span class="c0">&nbsp;</span>{_gdocs_runs(rest)}'
            else:
                ln_html = _gdocs_runs(ln)
            body.append(f'<p class="c1">{ln_html}</p>')
        body.append(empty)
    return _utf8(_GDOCS_HEAD + "".join(body) + "</body></html>")


def _wiki_source(doc: Canonical) -> Derived | None:
    """The rules pasted from a wiki page's source (MediaWiki): headings in ``=`` marks (Magic's
    chapters ``==``, sections ``===``; Riftbound's at their depth), each rule a list item as deep
    as its number (``* 100.1.``, ``** 100.1a``; Riftbound's ids bold, ``'''103.1.a.'''``), the
    lines that go on with a rule ``:`` lines under it, Magic's Glossary a definition list
    (``; Term`` over ``: definition``), everything else a paragraph as printed."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    out: list[str] = ["__NOTOC__", ""]
    glossary = False
    for block in _BLOCK_GAP.split(doc.text.strip("\n")):
        lines = block.strip("\n").split("\n")
        first = lines[0]
        if doc.fmt == "mtg-text" and len(lines) == 1 and (m := _MTG_CHAPTER.match(first) or _MTG_SECTION.match(first)):
            marks = "==" if m.re is _MTG_CHAPTER else "==="
            out += [f"{marks} {first} {marks}", ""]
            continue
        if doc.fmt == "mtg-text" and first.strip() in ("Glossary", "Credits"):
            glossary = first.strip() == "Glossary"
            out += [f"== {first.strip()} ==", ""]
            continue
        if doc.fmt == "riftbound-md" and len(lines) == 1 and (h := _RB_HEADING_ANY.match(first)):
            marks = "=" * len(h.group(1))
            out += [f"{marks} {h.group(2)} {marks}", ""]
            continue
        rule = _MTG_RULE.match(first) if doc.fmt == "mtg-text" else _RB_BOLD_ID.match(first)
        if rule and doc.fmt == "mtg-text" and not glossary:
            depth = 2 if rule.group(1).rstrip(".")[-1].isalpha() else 1
            out += ["*" * depth + " " + first] + [":" + ln for ln in lines[1:]]
        elif doc.fmt == "riftbound-md":  # each line that starts with a bold id an item, the others go on
            for k, ln in enumerate(lines):
                rule = _RB_BOLD_ID.match(ln)
                ln = _MD_BOLD.sub(r"'''\1'''", ln)  # bold as wikitext writes it
                if rule:
                    number, rest = rule.group(1), ln[rule.end() + 2:].lstrip()
                    depth = max(number.rstrip(".").count("."), 1)
                    out.append("*" * depth + f" '''{number}''' {rest}".rstrip())
                else:
                    out.append(ln if k == 0 else ":" + ln)
            out.append("")
        elif glossary and len(lines) > 1:
            out += [f"; {lines[0]}"] + [f": {ln}" for ln in lines[1:]]
        else:
            out += lines + [""]
    return _utf8("\n".join(out) + "\n")


def _zip_package(mimetype: str, parts: dict[str, str]) -> bytes:
    """A ZIP package as ODF and EPUB want it: ``mimetype`` first and stored, then the parts."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), mimetype, compress_type=zipfile.ZIP_STORED)
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def _blocks_of(doc: Canonical) -> list[tuple[int, list[str]]]:
    """The document's blocks as (heading depth or 0, lines): Magic's chapters 1 and sections 2,
    Riftbound's headings at their depth (its bold ids kept, for the writer to set in bold)."""
    blocks = []
    text = doc.text.strip("\n")
    if doc.fmt == "riftbound-md":  # a heading printed right under a paragraph is a block of its own
        text = re.sub(r"(?m)^(#{1,6} .*)$", r"\n\1\n", text)
    for block in _BLOCK_GAP.split(text):
        lines = block.strip("\n").split("\n")
        if not block.strip():
            continue
        if doc.fmt == "mtg-text" and len(lines) == 1 and (m := _MTG_CHAPTER.match(lines[0]) or _MTG_SECTION.match(lines[0])):
            blocks.append((1 if m.re is _MTG_CHAPTER else 2, lines))
        elif doc.fmt == "riftbound-md" and len(lines) == 1 and (h := _RB_HEADING_ANY.match(lines[0])):
            blocks.append((len(h.group(1)), [h.group(2)]))
        else:
            blocks.append((0, lines))
    return blocks


def _odt_runs(line: str) -> str:
    """A line as an ODT paragraph's content: a bold id a span of the bold style, runs of spaces
    ``text:s``, the rest escaped."""
    m = _RB_BOLD_ID.match(line)
    head = f'<text:span text:style-name="T1">{html.escape(m.group(1))}</text:span>' if m else ""
    rest = line[m.end():] if m else line
    rest = html.escape(_MD_BOLD.sub(r"\1", rest), quote=False)
    return head + re.sub(r"  +", lambda s: f' <text:s text:c="{len(s.group()) - 1}"/>', rest)


def _odt(doc: Canonical) -> Derived | None:
    """The rules saved by LibreOffice Writer as an OpenDocument text (simulated: LibreOffice is
    not installed here; the parts are written as ODF 1.3 prints them): headings ``text:h`` at
    their outline level, every line a ``text:p`` (a glossary term and its definition two), an
    empty paragraph between blocks, bold ids in a bold span, runs of spaces ``text:s``; a
    Markdown rule ``---`` is no paragraph (a border in Writer), a bullet before an id is typed
    after it (``053.1. * Units``, as the PDF prints it), and the Markdown export's page marks
    (``### Page 2``) are page breaks, not headings."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    body = []
    for depth, lines in _blocks_of(doc):
        if depth and re.fullmatch(r"Page \d+", lines[0]):  # the export's page mark: a page break in Writer
            continue
        if depth:
            body.append(f'<text:h text:style-name="Heading_20_{depth}" text:outline-level="{depth}">'
                        f"{_odt_runs(lines[0])}</text:h>")
        else:
            body += [f'<text:p text:style-name="Text_20_body">{_odt_runs(ln)}</text:p>' for ln in _typed_lines(lines)]
        body.append('<text:p text:style-name="Text_20_body"/>')
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
          'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0"')
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.3">'
               '<office:automatic-styles><style:style style:name="T1" style:family="text">'
               '<style:text-properties fo:font-weight="bold"/></style:style></office:automatic-styles>'
               '<office:body><office:text><text:sequence-decls/>' + "\n".join(body)
               + "</office:text></office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest='
                '"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type='
                '"application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path='
                '"content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    return Derived(_zip_package("application/vnd.oasis.opendocument.text",
                                {"content.xml": content, "META-INF/manifest.xml": manifest}))


def _epub(doc: Canonical) -> Derived | None:
    """The rules as an EPUB 3 e-book (simulated: no e-book converter is installed; written as
    EPUB 3.3 lays one out): a navigation document, then one XHTML document per chapter (Magic:
    the front matter, each chapter, the Glossary and Credits; Riftbound: each ``##`` chapter),
    headings ``<h1>``-``<h3>``, a ``<p>`` per paragraph (its lines parted by ``<br/>``, a bold id
    ``<strong>``), the Glossary a ``<dl>``."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    chapters: list[list[str]] = [[]]
    glossary = False
    for depth, lines in _blocks_of(doc):
        starts = (depth == 1 if doc.fmt == "mtg-text" else depth == 2) or (
            doc.fmt == "mtg-text" and lines[0] in ("Glossary", "Credits"))
        if starts and chapters[-1]:
            chapters.append([])
        if doc.fmt == "mtg-text" and lines[0] in ("Glossary", "Credits") and len(lines) == 1:
            glossary = lines[0] == "Glossary"
            chapters[-1].append(f"<h1>{lines[0]}</h1>")
        elif depth:
            chapters[-1].append(f"<h{min(depth, 6)}>{html.escape(lines[0], quote=False)}</h{min(depth, 6)}>")
        elif glossary and len(lines) > 1:
            chapters[-1].append(f"<dl><dt>{html.escape(lines[0], quote=False)}</dt>"
                                + "".join(f"<dd>{html.escape(ln, quote=False)}</dd>" for ln in lines[1:]) + "</dl>")
        else:
            said = "<br/>\n".join(_MD_BOLD.sub(r"<strong>\1</strong>", html.escape(ln, quote=False))
                                  for ln in lines)
            chapters[-1].append(f"<p>{said}</p>")
    names = [f"text/chapter-{n:03d}.xhtml" for n in range(len(chapters))]
    xhtml = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" '
             'xmlns:epub="http://www.idpf.org/2007/ops"><head><title>{title}</title></head><body>\n{body}\n</body></html>')
    parts = {name: xhtml.format(title=html.escape(doc.result.title), body="\n".join(chapter))
             for name, chapter in zip(names, chapters)}
    parts["text/nav.xhtml"] = xhtml.format(title="Contents", body='<nav epub:type="toc"><ol>' + "".join(
        f'<li><a href="{posixpath.basename(n)}">Part {k}</a></li>' for k, n in enumerate(names)) + "</ol></nav>")
    manifest = "".join(f'<item id="c{k}" href="{n}" media-type="application/xhtml+xml"/>' for k, n in enumerate(names))
    spine = "".join(f'<itemref idref="c{k}"/>' for k in range(len(names)))
    parts["content.opf"] = (
        '<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" '
        'unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">'
        f'rulekb-{doc.name}</dc:identifier><dc:title>{html.escape(doc.result.title)}</dc:title>'
        '<dc:language>en</dc:language></metadata><manifest><item id="nav" href="text/nav.xhtml" '
        f'media-type="application/xhtml+xml" properties="nav"/>{manifest}</manifest>'
        f'<spine><itemref idref="nav" linear="no"/>{spine}</spine></package>')
    parts = {("OEBPS/" + name): text for name, text in parts.items()}
    parts["META-INF/container.xml"] = (
        '<?xml version="1.0" encoding="UTF-8"?><container version="1.0" xmlns='
        '"urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" '
        'media-type="application/oebps-package+xml"/></rootfiles></container>')
    return Derived(_zip_package("application/epub+zip", parts))


def _typed_lines(lines: list[str]) -> list[str]:
    """A block's lines as a word processor holds them: a Markdown rule (``---``) is a paragraph's
    border, not text; a bullet a converter moved before an id (``- **053.1.** Units``) is typed
    after it (``053.1. * Units``, as the PDF prints it)."""
    return [re.sub(r"^[-*+] (\*\*[^*]+\*\*) ", r"\1 * ", ln) for ln in lines
            if not re.fullmatch(r"\s*(?:-{3,}|\*{3,}|_{3,})\s*", ln)]


def _rtf_escaped(text: str) -> str:
    """Text as RTF writes it: ``\\``, braces escaped; a character of Windows-1252 as ``\\'hh``,
    any other as ``\\uN?``."""
    out = []
    for ch in text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}"):
        if ord(ch) < 128:
            out.append(ch)
            continue
        try:
            out.append("\\'" + ch.encode("cp1252").hex())
        except UnicodeEncodeError:
            out.append(f"\\u{ord(ch) if ord(ch) < 32768 else ord(ch) - 65536}?")
    return "".join(out)


def _rtf(doc: Canonical) -> Derived | None:
    """The rules saved as Rich Text (RTF), as WordPad or Word writes it (simulated: written by
    hand after the RTF 1.9 specification, no word processor being installed): a font table,
    each paragraph ``\\pard … \\par``, headings bold and larger, a bold id ``{\\b 103.1.}``, an
    empty paragraph between blocks, non-ASCII as ``\\'hh`` or ``\\uN?``; the Markdown export's
    page marks are page breaks (``\\page``) and its rules borders, as in the ODT."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    out = [r"{\rtf1\ansi\ansicpg1252\deff0\nouicompat{\fonttbl{\f0\fswiss\fcharset0 Arial;}}",
           r"{\*\generator Riched20 10.0.19041}\viewkind4\uc1"]
    for depth, lines in _blocks_of(doc):
        if depth and re.fullmatch(r"Page \d+", lines[0]):
            out.append(r"\page")
            continue
        if depth:
            out.append(r"\pard\sa120\b\fs28 " + _rtf_escaped(lines[0]) + r"\b0\fs20\par")
        else:
            for ln in _typed_lines(lines):
                m = _RB_BOLD_ID.match(ln) if doc.fmt == "riftbound-md" else None
                text = _MD_BOLD.sub(r"\1", ln[m.end():] if m else ln)
                head = "{\\b " + m.group(1) + "}" if m else ""
                out.append(r"\pard\fs20 " + head + _rtf_escaped(text) + r"\par")
        out.append(r"\pard\par")
    return _utf8("\r\n".join(out) + "\r\n}\r\n")


def _markup_blocks(doc: Canonical) -> list[tuple[int, list[str], str]]:
    """The document's blocks for a markup writer, as (heading depth or 0, lines, role): a Magic
    chapter or section heading printed right above its first rule is a heading block of its own
    (the body's, not the contents'); role "term" for a Glossary entry, else ""."""
    out: list[tuple[int, list[str], str]] = []
    glossary = False
    for depth, lines in _blocks_of(doc):
        if doc.fmt == "mtg-text" and not depth and any(_MTG_RULE.match(ln) and "." in ln[:5] for ln in lines):
            while len(lines) > 1 and (m := _MTG_CHAPTER.match(lines[0]) or _MTG_SECTION.match(lines[0])):
                out.append((1 if m.re is _MTG_CHAPTER else 2, lines[:1], ""))
                lines = lines[1:]
        if doc.fmt == "mtg-text" and len(lines) == 1 and lines[0].strip() in ("Glossary", "Credits"):
            glossary = lines[0].strip() == "Glossary"
            out.append((1, [lines[0].strip()], ""))
            continue
        out.append((depth, lines, "term" if glossary and not depth and len(lines) > 1 else ""))
    return out


def _lightweight_markup(doc: Canonical, heading: Callable[[int, str], list[str]], bold: str,
                        term: Callable[[str, list[str]], list[str]], head: list[str]) -> Derived | None:
    """The rules in a lightweight markup: ``head`` (the markup's own first lines), each heading as
    ``heading(depth, text)`` writes it, Riftbound's ``**bold**`` ids with ``bold`` around them, a
    Glossary entry as ``term(term, definition lines)`` writes it, every other paragraph as printed."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    out = list(head)
    for depth, lines, role in _markup_blocks(doc):
        if depth:
            out += heading(depth, _MD_BOLD.sub(lambda m: bold + m.group(1) + bold, lines[0])) + [""]
        elif role == "term":
            out += term(lines[0], lines[1:]) + [""]
        else:
            out += [_MD_BOLD.sub(lambda m: bold + m.group(1) + bold, ln) for ln in lines] + [""]
    return _utf8("\n".join(out))


_RST_ADORNMENTS = "=-~^\"'"


def _rst_heading(depth: int, text: str) -> list[str]:
    """A reStructuredText section title: the first level over- and underlined with '=', the
    next ones underlined with '-', '~', '^', '"', "'" (as pandoc writes them)."""
    line = _RST_ADORNMENTS[min(depth, len(_RST_ADORNMENTS)) - 1] * len(text)
    return [line, text, line] if depth == 1 else [text, line]


def _rst(doc: Canonical) -> Derived | None:
    """The rules as reStructuredText (pandoc's or Sphinx's): a ``.. contents::`` directive with
    an option, titles adorned as :func:`_rst_heading` writes them, bold ids ``**103.1.**``, the
    Glossary a definition list (the term, its definition indented three spaces), a ``*`` that
    could open emphasis escaped (``\\*``)."""
    derived = _lightweight_markup(doc, _rst_heading, "**", lambda t, ds: [t] + ["   " + d for d in ds],
                                  [".. contents:: Contents", "   :depth: 2", ""])
    return derived and _utf8(re.sub(r"(?<![*\\])\*(?=[^\s*])", r"\\*", derived.data.decode("utf-8")))


def _asciidoc(doc: Canonical) -> Derived | None:
    """The rules as an AsciiDoc book: ``:toc:`` and ``:doctype: book`` attributes, headings
    ``== 1. Game Concepts`` (one ``=`` more than the depth), an anchor ``[[r103-1]]`` over each
    chapter, bold ids ``*103.1.*``, the Glossary a labelled list (``Term::`` over its definition)."""
    def heading(depth: int, text: str) -> list[str]:
        anchor = re.match(r"\d+", text)
        return ([f"[[r{anchor.group()}]]"] if anchor else []) + ["=" * (depth + 1) + " " + text]

    return _lightweight_markup(doc, heading, "*", lambda t, ds: [t + "::"] + ds,
                               [":doctype: book", ":toc: left", ""])


def _org(doc: Canonical) -> Derived | None:
    """The rules as an Org mode file: ``#+OPTIONS:`` and ``#+STARTUP:`` lines, headings as deep
    stars (``* 1. Game Concepts``, ``** 100. General``) each with a ``:PROPERTIES:`` drawer holding
    its ``CUSTOM_ID``, bold ids ``*103.1.*``, the Glossary a description list (``- Term :: its
    definition``, further paragraphs indented under it)."""
    def heading(depth: int, text: str) -> list[str]:
        custom_id = re.sub(r"\W+", "-", text.lower()).strip("-")[:40]
        return ["*" * depth + " " + text, ":PROPERTIES:", f":CUSTOM_ID: {custom_id}", ":END:"]

    return _lightweight_markup(doc, heading, "*",
                               lambda t, ds: [f"- {t} :: {ds[0]}"] + ["  " + d for d in ds[1:]],
                               ["#+OPTIONS: toc:2 num:nil", "#+STARTUP: overview", ""])


_ROMAN_NUMERALS = ((10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def _roman(n: int) -> str:
    out = ""
    for value, numeral in _ROMAN_NUMERALS:
        count, n = divmod(n, value)
        out += numeral * count
    return out


def _roman_fourth_part(doc: Canonical) -> Derived | None:
    """Riftbound's next edition numbering its fourth part in roman numerals (``103.1.b.ii.``,
    ``135.2.b.v.a.``), as another numbering style may; a reader that cannot read such a part must
    refuse the document rather than lose those rules. The line is the first id so numbered."""
    if doc.fmt != "riftbound-md":
        return None

    def renumber(m: re.Match[str]) -> str:
        parts = m.group(1).rstrip(".").split(".")
        if len(parts) >= 4 and parts[3].isdigit() and int(parts[3]) > 1:
            parts[3] = _roman(int(parts[3]))
        return m.group(0).replace(m.group(1), ".".join(parts) + ".")

    text = _RB_BOLD_ID.sub(renumber, doc.text)
    first = next((n for n, ln in enumerate(text.split("\n"), start=1)
                  if (m := _RB_BOLD_ID.match(ln)) and re.search(r"\.[ivx]{2,}\.", m.group(1))), 0)
    return Derived(text.encode("utf-8"), first) if first else None


def _viewer_copy(doc: Canonical) -> Derived | None:
    """Text copied from a rule viewer's page whose style draws the rule numbers (its lists'
    counters, ``attr(data-number)``): a browser copies the words without them, so every rule
    below a section loses its number; the headings and top-level numbers, in the text, stay."""
    if doc.fmt not in TEXT_FORMATS:
        return None
    if doc.fmt == "mtg-text":
        text = re.sub(r"(?m)^\d{3}\.\d+[a-z]?\.? ", "", doc.text)
    else:
        text = re.sub(r"(?m)^\*\*\d{3}(?:\.[0-9a-z]+)+\.?\*\* ?", "", doc.text)
    return _utf8(text)


# Layouts a user could bring that the ones above do not make (each derived from the same
# documents, read and compared the same way).
BROUGHT: list[Layout] = [
    Layout("saved from a browser: site chrome, <span>s, &nbsp;, &shy;, <br> inside rules", TEXT_FORMATS,
           _browser_page, whole=True),
    Layout("copied from a PDF viewer: wrapped, hyphenated, page title and number mid-rule, ligatures",
           TEXT_FORMATS, _pdf_viewer_copy, loses="lines", whole=True),
    Layout("Markdown re-exported by pandoc: backslash escapes, other heading levels, 72 columns",
           TEXT_FORMATS, _pandoc_markdown, loses="lines", whole=True),
    Layout("Magic subrules dotted (100.1.a.)", ("mtg-text",), lambda d: _dotted_subrules(d, ".")),
    Layout("Magic subrules with a space (100.1 a)", ("mtg-text",), lambda d: _dotted_subrules(d, " ")),
    Layout("Riftbound letters attached (135.2e.5a.)", ("riftbound-md",), _attached_letters),
    Layout("Magic's Glossary before the rules", ("mtg-text",), _glossary_first, whole=True),
    Layout("an edition with an added chapter or section", TEXT_FORMATS, _added_part, "added", whole=True),
    Layout("Magic's chapters renumbered by a Markdown list (every chapter '1.')", ("mtg-text",),
           _renumbered_chapters, whole=True),
    Layout("two columns side by side, pages parted by form feeds (pdftotext -layout)", TEXT_FORMATS,
           lambda d: _two_columns(d, True), loses="lines", whole=True),
    Layout("two columns side by side copied by a viewer (no page ends)", TEXT_FORMATS,
           lambda d: _two_columns(d, False), "refused"),
    Layout("rules as a Markdown table (| number | text |)", TEXT_FORMATS, _pipe_table, whole=True),
    Layout("plain text wrapped at 72 columns with hanging indents (continuation lines indented)", TEXT_FORMATS,
           _hanging_indents, loses="lines", whole=True),
    Layout("pdftotext pages numbered 'Page N of M' (in the running header beside the title, and the footer)",
           TEXT_FORMATS, lambda d: _pages_of(d, True), loses="lines", whole=True),
    Layout("a viewer's copy with a 'Page N of M' line alone where each page ends (no form feed, no title)",
           TEXT_FORMATS, lambda d: _pages_of(d, False), loses="lines", whole=True),
    Layout("a DOCX numbered by Word's automatic lists (numbers in numbering.xml, not the text)",
           TEXT_FORMATS, _docx_numbered, whole=True),
    Layout("rules exported by another tool as JSON (number, kind, title, text, examples; glossary)",
           TEXT_FORMATS, _json_export, whole=True),
    Layout("the document as a spreadsheet's CSV (a row a paragraph: Rule, Text)", TEXT_FORMATS,
           _csv_export, whole=True),
    Layout("an OCR'd scan: a viewer's copy with l, I and O for 1 and 0 in one rule number in three",
           TEXT_FORMATS, _ocr_scan, loses="lines", whole=True),
    Layout("a Google Doc downloaded as a web page (one line, <span class> runs, &nbsp;, h1-h3 ids)",
           TEXT_FORMATS, _google_docs, whole=True),
    Layout("pasted from a wiki's source (== headings ==, * and ** rules, ; term : definition)",
           TEXT_FORMATS, _wiki_source, loses="lines", whole=True),
    Layout("saved as an OpenDocument text (ODT: text:h, text:p, text:s, an empty paragraph between blocks)",
           TEXT_FORMATS, _odt, whole=True),
    Layout("an EPUB e-book (a spine of XHTML chapters, <dl> glossary, a navigation document)",
           TEXT_FORMATS, _epub, whole=True),
    Layout("saved as Rich Text (RTF: \\pard paragraphs, {\\b ids}, \\'hh and \\uN? characters)",
           TEXT_FORMATS, _rtf, whole=True),
    Layout("a community API's JSON: rules keyed by number ({\"100.1\": \"text\"}), a record where there is more",
           TEXT_FORMATS, _keyed_json, whole=True),
    Layout("a spreadsheet's TSV copied without its header row (number, text; a cell's line breaks quoted)",
           TEXT_FORMATS, lambda d: _csv_export(d, header=False, delimiter="\t"), whole=True),
    Layout("Riftbound's next edition numbering a fourth part in roman numerals (103.1.b.ii.)", ("riftbound-md",),
           _roman_fourth_part, "refused"),
    Layout("copied from a rule viewer's page whose style draws the numbers (the rules' numbers lost)",
           TEXT_FORMATS, _viewer_copy, "refused"),
    Layout("reStructuredText (over- and underlined titles, .. contents::, definition-list glossary, \\* escapes)",
           TEXT_FORMATS, _rst, whole=True),
    Layout("AsciiDoc (== headings, [[anchors]], :attributes:, *bold* ids, Term:: glossary)", TEXT_FORMATS,
           _asciidoc, whole=True),
    Layout("Org mode (* headings with :PROPERTIES: drawers, #+OPTIONS:, *bold* ids, - term :: glossary)",
           TEXT_FORMATS, _org, whole=True),
]
ALL_LAYOUTS: list[Layout] = LAYOUTS + BROUGHT


# -- the benchmark ------------------------------------------------------------------------------

def run(documents: list[Canonical], repeat: int = 3, layouts: list[Layout] | None = None) -> list[Outcome]:
    """Every layout of every document, read and compared. Times are the best of ``repeat``
    readings, the canonical layout's measured again beside each layout (a shared machine's
    load then weighs on both alike)."""
    outcomes = []
    for doc in documents:
        for layout in ALL_LAYOUTS if layouts is None else layouts:
            if doc.fmt not in layout.formats:
                continue
            derived = layout.derive(doc)
            if derived is not None:
                _, _, _, seconds = read_timed(doc.text.encode("utf-8"), doc.name, repeat)
                outcomes.append(compare(layout, doc, derived, doc.result, seconds, repeat))
    return outcomes


# The documents ../shared/corpora holds in two layouts: the same edition, exported twice.
PAIRS: list[tuple[str, str]] = [
    ("riftbound/core-rules-2025-12-01.md", "riftbound/core-rules-2025-12-01-markdown.md"),
]


def by_pair(repeat: int = 3) -> list[str]:
    """One Markdown row per document of :data:`PAIRS`: its two layouts read, the numbers only
    one holds, those whose kind or parent the two reads disagree on, and both reading times."""
    rows = []
    for one, other in PAIRS:
        if not ((CORPORA / one).is_file() and (CORPORA / other).is_file()):
            continue
        reads = [read_timed((CORPORA / rel).read_bytes(), rel, repeat) for rel in (one, other)]
        (a, _, err_a, sec_a), (b, _, err_b, sec_b) = reads
        if a is None or b is None:
            rows.append(f"| {one} / {other} | refused: {err_a or err_b} | - | - | - |")
            continue
        only = {sort_key(r.number) for r in a.rules} ^ {sort_key(r.number) for r in b.rules}
        rows.append(f"| {one} / {other} | {len(a.rules)} / {len(b.rules)} | {len(only)} | "
                    f"{len(disagreeing(a, b))} | {sec_a * 1000:.0f} ms / {sec_b * 1000:.0f} ms |")
    return rows


def by_layout(outcomes: list[Outcome], layouts: list[Layout] | None = None) -> list[str]:
    """One Markdown row per layout: the documents it was derived from, rules read and
    identical over all of them (or the refusals), and the median reading-time ratio."""
    rows = []
    for layout in ALL_LAYOUTS if layouts is None else layouts:
        mine = [o for o in outcomes if o.layout == layout.name]
        if not mine:
            continue
        read = [o for o in mine if o.error is None]
        refused = len(mine) - len(read)
        ratio = statistics.median(o.seconds / o.canonical_seconds for o in mine)
        counts = (f"{sum(o.rules for o in read)} | {sum(o.identical for o in read)}/"
                  f"{sum(o.canonical_rules for o in read)} | {sum(len(o.disagreeing) for o in read)}"
                  if read else "- | - | -")
        rows.append(f"| {layout.name} | {layout.expect}{' (' + layout.loses + ' folded)' if layout.loses else ''}"
                    f" | {len(mine)} | {counts} | {refused or '-'} | x{ratio:.2f} |")
    return rows


def brought_table(docs: list[Canonical], repeat: int = 1, layouts: list[Layout] | None = None) -> list[str]:
    """The Markdown table of :data:`BROUGHT`: per layout and document, the rules read, how many
    are identical to the canonical parse, how many disagree on kind or parent, the added rules
    read otherwise, or the refusal and where; and the reading-time ratio."""
    rows = ["| layout | document | expected | rules read | identical | kind or parent disagreeing "
            "| added, read otherwise | time ÷ canonical |", "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for o in run(docs, repeat, BROUGHT if layouts is None else layouts):
        layout = next(lay for lay in BROUGHT if lay.name == o.layout)
        expected = layout.expect + (f" ({layout.loses} folded)" if layout.loses else "")
        if o.error:
            first = o.error.diagnostics[0]
            what = f"refused at line {first.line}: {first.message[:70]} | - | - | -"
        else:
            what = (f"{o.rules} | {o.identical}/{o.canonical_rules} | {len(o.disagreeing)} | "
                    f"{len(o.added_wrong) if layout.expect == 'added' else '-'}")
        rows.append(f"| {o.layout} | {o.document} | {expected} | {what} | x{o.seconds / o.canonical_seconds:.2f} "
                    f"({o.seconds * 1000:.0f} ms) |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--excerpts", action="store_true", help="only the repository's excerpts")
    parser.add_argument("--repeat", type=int, default=3, help="readings timed per document (the best)")
    parser.add_argument("--brought", action="store_true",
                        help="only the layouts a user brings (BROUGHT), one row per layout and document")
    parser.add_argument("--only", action="append",
                        help="with --brought: only the layouts whose name contains this (repeatable)")
    args = parser.parse_args()
    docs = excerpts() if args.excerpts else (full_documents() or excerpts())
    if args.brought:
        chosen = [lay for lay in BROUGHT if not args.only or any(o in lay.name for o in args.only)]
        print("\n".join(brought_table(docs, args.repeat, chosen)))
        return
    print("| layout | document | read as | rules read | identical to the canonical parse | "
          "kind or parent disagreeing | reading time (canonical) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    ratios = []
    outcomes = run(docs, args.repeat)
    for o in outcomes:
        if o.error:
            first = o.error.diagnostics[0]
            what = f"refused | at line {first.line}: {first.message[:60]}… | -"
        else:
            what = f"{o.rules} | {o.identical}/{o.canonical_rules} | {len(o.disagreeing)}"
            ratios.append(o.seconds / o.canonical_seconds)
        print(f"| {o.layout} | {o.document} | {o.fmt or '-'} | {what} | "
              f"{o.seconds * 1000:.0f} ms ({o.canonical_seconds * 1000:.0f} ms) |")
    print(f"\nreading time of a layout read against its canonical layout: median "
          f"x{statistics.median(ratios):.2f}, max x{max(ratios):.2f}\n")
    print("| layout | expected | documents | rules read | identical | kind or parent disagreeing | refused "
          "| time (median ratio) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    print("\n".join(by_layout(outcomes)))
    if not args.excerpts and CORPORA.is_dir():
        print("\n| one document in two layouts | rules read | numbers in one only | kind or parent "
              "disagreeing | reading time |")
        print("| --- | --- | --- | --- | --- |")
        print("\n".join(by_pair(args.repeat)))


if __name__ == "__main__":
    main()
