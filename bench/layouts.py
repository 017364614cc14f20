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

A layout is a function from the canonical document (its decoded text, and the game its
numbers belong to) to the bytes of the same rules in another layout, and what a reader
must do with it (:class:`Layout`). Nothing is stored: each layout is made at run time.
"""

from __future__ import annotations

import argparse
import codecs
import html
import re
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from bench.corpora import CORPORA, REPO
from kb.model import DocumentError, RawRule, ReadResult
from kb.numbers import SortKey, sort_key
from kb.read import read_bytes
from kb.read.text import decode

Game = Literal["mtg", "riftbound"]
# What a reader must do: read the same rules ("same"); read them and report the one place
# the layout changed with a warning at its line ("noted"); read the rules before a cut and
# report the cut ("cut"); refuse it naming the file and a line ("refused").
Expect = Literal["same", "noted", "cut", "refused"]


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
    return out


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


def _paged(doc: Canonical, lines_per_page: int = 54) -> Derived | None:
    """pdftotext output: the text wrapped at 80 columns, cut into pages by form feeds, each
    page with the document's title as a running header and ``Page N`` as a footer."""
    wrapped = _hard_wrapped(doc, 80)
    if wrapped is None:
        return None
    lines = wrapped.data.decode("utf-8").split("\n")
    header = "Magic: The Gathering Comprehensive Rules" if doc.game == "mtg" else "Riftbound Core Rules"
    pages = [lines[i:i + lines_per_page] for i in range(0, len(lines), lines_per_page)]
    out = []
    for n, page in enumerate(pages, start=1):
        out.append("\n".join([header, ""] + page + ["", f"{n}"]))
    return _utf8("\f".join(out))


def _mtg_body(lines: list[str]) -> tuple[int, int]:
    """Where the rules body starts (the chapter heading above the first rule) and where the
    Glossary heading is, found the plain way."""
    first = next(i for i, ln in enumerate(lines) if _MTG_RULE.match(ln) and "." in ln[:5])
    start = first
    while start > 0 and (not lines[start - 1].strip() or _MTG_SECTION.match(lines[start - 1])
                         or _MTG_CHAPTER.match(lines[start - 1])):
        start -= 1
    while not lines[start].strip():
        start += 1
    glossary = max((i for i, ln in enumerate(lines) if ln.strip() == "Glossary"), default=len(lines))
    return start, glossary


def _mtg_blocks(doc: Canonical) -> tuple[list[str], list[tuple[str, str]], list[str]]:
    """The Magic text as (the lines before the body, [(kind, line)] of the body and glossary
    paragraphs, the lines from Credits on)."""
    lines = doc.text.split("\n")
    start, glossary = _mtg_body(lines)
    credits = next((i for i in range(glossary + 1, len(lines)) if lines[i].strip() == "Credits"),
                   len(lines))
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
    _, glossary = _mtg_body(lines)
    credits = next((i for i in range(glossary + 1, len(lines)) if lines[i].strip() == "Credits"),
                   len(lines))
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
        start, _ = _mtg_body(lines)
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
    """The document cut in the middle of a rule's text, about 60% of the way through."""
    lines = doc.text.split("\n")
    ids = _ids(doc)
    rule_lines = [i for i, ln in enumerate(lines) if ids.match(ln) and len(ln.split()) > 8]
    if not rule_lines:
        return None
    i = rule_lines[len(rule_lines) * 3 // 5]
    words = lines[i].split(" ")
    cut = lines[:i] + [" ".join(words[: len(words) // 2])]
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


# -- the benchmark ------------------------------------------------------------------------------

def run(documents: list[Canonical], repeat: int = 3) -> list[Outcome]:
    """Every layout of every document, read and compared. Times are the best of ``repeat``
    readings, the canonical layout's measured again beside each layout (a shared machine's
    load then weighs on both alike)."""
    outcomes = []
    for doc in documents:
        for layout in LAYOUTS:
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


def by_layout(outcomes: list[Outcome]) -> list[str]:
    """One Markdown row per layout: the documents it was derived from, rules read and
    identical over all of them (or the refusals), and the median reading-time ratio."""
    rows = []
    for layout in LAYOUTS:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--excerpts", action="store_true", help="only the repository's excerpts")
    parser.add_argument("--repeat", type=int, default=3, help="readings timed per document (the best)")
    args = parser.parse_args()
    docs = excerpts() if args.excerpts else (full_documents() or excerpts())
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
