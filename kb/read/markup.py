"""Rules written in a lightweight markup other than Markdown (reStructuredText, AsciiDoc, Org
mode), written out as the Markdown the readers read.

A user may keep the rules in the markup of their own tools: Sphinx's or pandoc's
reStructuredText, an AsciiDoc book, an Emacs Org file. Each marks headings, bold and
definition lists its own way; the words and the rule numbers are the release's. Before a
reader sees such a text, its marks become Markdown's, line for line (each line keeps its line
of the file):

* **reStructuredText** (known by three section titles or more underlined with one punctuation
  character, at least one of them a title only reStructuredText writes: overlined too, or
  underlined with a character other than ``=`` and ``-``, or beside an explicit markup line
  ``.. …``): a title becomes a ``#`` heading whose depth is the order in which its underline
  style first appears (as reStructuredText itself decides), its under- and overline a blank
  line; explicit markup (``.. contents::``, ``.. _label:``, comments) and its indented options
  are blank; an indented line (a definition, a block quote) is read without its indent;
  ````literals```` lose their backquotes, ```label <url>`_`` links become their label, and
  backslash escapes (``\\*``) the character.
* **AsciiDoc** (three ``=`` headings or more: ``= Title``, ``== 1. Game Concepts``): a
  heading becomes Markdown's with as many ``#``; constrained bold ``*103.1.*`` becomes
  ``**103.1.**``; ``term:: definition`` a term over its definition; attribute entries
  (``:toc:``), anchors (``[[id]]``), block attributes (``[source]``), comments (``// …``) and
  block delimiters (``----``, ``====``, ``****``, ``____``) are blank; a hard line break's
  ``␣+`` goes.
* **Org mode** (three star headings or more, with a ``#+KEYWORD:`` line, a drawer or a
  heading of two stars or more, which Markdown never writes at a line's start): a heading's
  stars become as many ``#``, ``#+TITLE: …`` the document's ``#`` title and other keyword
  lines, drawers (``:PROPERTIES:`` … ``:END:``) and comments (``# …``) blank; bold ``*…*``
  becomes ``**…**``; a description item ``- term :: definition`` a term over its definition.

A text in none of them is left to the readers as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kb.model import Diagnostic
from kb.read.exports import Exported
from kb.read.text import at_least

_MIN_HEADINGS = 3
_SCAN = 400_000  # the head of a text its markup is told from

# -- reStructuredText ---------------------------------------------------------------------------

# reStructuredText's adornment characters (any printable non-alphanumeric ASCII character).
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
_RST_EXPLICIT = re.compile(r"^\.\.(?:[ \t]|$)")
_RST_LITERAL = re.compile(r"``(.+?)``")
_RST_LINK = re.compile(r"`([^`<]+?)[ \t]*<[^>`]+>`__?")
_RST_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")

# -- AsciiDoc -----------------------------------------------------------------------------------

_ADOC_HEADING = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*$")
# Lines AsciiDoc keeps for itself: attribute entries, anchors, block attributes (``[source,json]``,
# ``[#id]``, ``[NOTE]``; not a line that is a card symbol, ``[E]``), comments, block delimiters.
_ADOC_BLANKED = re.compile(r"^(?::[\w-]+!?:.*|\[\[[^\]]*\]\]|\[(?:[#.%][^\]]*|[a-z][\w-]*(?:,[^\]]*)?"
                           r"|NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]|//.*|(?:-{4,}|={4,}|\*{4,}|_{4,}|\.{4,}))[ \t]*$")
_ADOC_TERM = re.compile(r"^(\S[^:\n]*?)::(?:[ \t]+(\S.*))?$")
_ADOC_BREAK = re.compile(r"[ \t]\+$")
# Constrained bold, ``*word*`` (not Markdown's ``**word**``, nor a ``*`` beside a space).
_SINGLE_BOLD = re.compile(r"(?<![\w*\\])\*(?=\S)([^*\n]*?\S)\*(?![\w*])")

# -- Org mode -----------------------------------------------------------------------------------

_ORG_HEADING = re.compile(r"^(\*+)[ \t]+(\S.*?)[ \t]*$")
_ORG_KEYWORD = re.compile(r"^#\+(\w+):[ \t]*(.*?)[ \t]*$")
_ORG_DRAWER = re.compile(r"^[ \t]*:(?:[A-Z_]+|END):[ \t]*$")
_ORG_COMMENT = re.compile(r"^#(?:[ \t].*)?$")
_ORG_TERM = re.compile(r"^[ \t]*[-+][ \t]+(.+?)[ \t]+::(?:[ \t]+(.*))?$")


def from_markup(text: str, source: str = "") -> Exported | None:
    """The text as Markdown paragraphs (see the module docstring), or None when it is written
    in none of the three markups."""
    head = text[:_SCAN]
    for name, known, convert in _MARKUPS:
        if known(head):
            lines, origin, headings = convert(text.split("\n"))
            note = Diagnostic(f"the text is written in {name} ({headings} headings): its headings, "
                              "bold and definition lists are read as Markdown's", source, 0, "info")
            return Exported("\n".join(lines), origin, [note])
    return None


# -- reStructuredText ---------------------------------------------------------------------------

def _rst_titles(lines: list[str]) -> list[tuple[int, str, bool]]:
    """The section titles: (line index of the title, adornment character, overlined)."""
    titles = []
    for i in range(1, len(lines)):
        m = _ADORNMENT.match(lines[i])
        above = lines[i - 1].strip()
        if not m or not above or _ADORNMENT.match(lines[i - 1]) or lines[i - 1][:1].isspace():
            continue
        if len(lines[i].rstrip()) < len(above):
            continue
        over = i >= 2 and lines[i - 2].rstrip() == lines[i].rstrip()
        titles.append((i - 1, m.group(1), over))
    return titles


def _is_rst(head: str) -> bool:
    lines = head.split("\n")
    titles = _rst_titles(lines)
    if len(titles) < _MIN_HEADINGS:
        return False
    # Markdown's setext headings are underlined with '=' and '-' too: only reStructuredText
    # overlines a title, adorns with other characters or writes explicit markup.
    return any(over or char not in "=-" for _, char, over in titles) or any(
        _RST_EXPLICIT.match(ln) for ln in lines)


def _from_rst(lines: list[str]) -> tuple[list[str], list[int], int]:
    titles = _rst_titles(lines)
    styles: list[tuple[str, bool]] = []
    depth_at: dict[int, int] = {}
    adornments: set[int] = set()
    for at, char, over in titles:
        if (char, over) not in styles:
            styles.append((char, over))
        depth_at[at] = min(styles.index((char, over)) + 1, 6)
        adornments.add(at + 1)
        if over:
            adornments.add(at - 1)
    out: list[str] = []
    explicit = False
    for i, line in enumerate(lines):
        if explicit and (line[:1].isspace() and line.strip()):
            out.append("")
            continue
        explicit = bool(_RST_EXPLICIT.match(line))
        if explicit or i in adornments:
            out.append("")
        elif i in depth_at:
            out.append("#" * depth_at[i] + " " + _rst_inline(line.strip()))
        else:
            out.append(_rst_inline(line.strip()) if line[:1].isspace() else _rst_inline(line))
    return out, list(range(1, len(lines) + 1)), len(titles)


def _rst_inline(line: str) -> str:
    if "`" in line:
        line = _RST_LINK.sub(r"\1", _RST_LITERAL.sub(r"\1", line))
    return _RST_ESCAPE.sub(r"\1", line) if "\\" in line else line


# -- AsciiDoc -----------------------------------------------------------------------------------

def _is_asciidoc(head: str) -> bool:
    found = (m for m in map(_ADOC_HEADING.match, head.split("\n")) if m and not m.group(2).endswith("="))
    return at_least(_MIN_HEADINGS, found)


def _from_asciidoc(lines: list[str]) -> tuple[list[str], list[int], int]:
    out: list[str] = []
    origin: list[int] = []
    headings = 0
    for n, line in enumerate(lines, start=1):
        heading = _ADOC_HEADING.match(line)
        term = _ADOC_TERM.match(line) if heading is None else None
        if heading:
            headings += 1
            converted = ["#" * len(heading.group(1)) + " " + _bold(heading.group(2))]
        elif _ADOC_BLANKED.match(line):
            converted = [""]
        elif term:
            converted = [_bold(term.group(1))] + ([_bold(term.group(2))] if term.group(2) else [])
        else:
            converted = [_bold(_ADOC_BREAK.sub("", line))]
        out += converted
        origin += [n] * len(converted)
    return out, origin, headings


def _bold(line: str) -> str:
    """Constrained ``*bold*`` as Markdown's ``**bold**``."""
    return _SINGLE_BOLD.sub(r"**\1**", line) if "*" in line else line


# -- Org mode -----------------------------------------------------------------------------------

def _is_org(head: str) -> bool:
    lines = head.split("\n")
    headings = [m for m in map(_ORG_HEADING.match, lines) if m]
    if len(headings) < _MIN_HEADINGS:
        return False
    # Markdown writes '* ' at a line's start for a list item; only Org writes '** ' there, or
    # keyword lines and drawers.
    return any(len(m.group(1)) > 1 for m in headings) or any(
        _ORG_KEYWORD.match(ln) or _ORG_DRAWER.match(ln) for ln in lines)


def _from_org(lines: list[str]) -> tuple[list[str], list[int], int]:
    out: list[str] = []
    origin: list[int] = []
    headings = 0
    drawer = False
    for n, line in enumerate(lines, start=1):
        if drawer or _ORG_DRAWER.match(line):  # a drawer's properties are no text
            drawer = line.strip() != ":END:"
            out.append("")
            origin.append(n)
            continue
        heading = _ORG_HEADING.match(line)
        keyword = _ORG_KEYWORD.match(line) if heading is None else None
        term = _ORG_TERM.match(line) if heading is None and keyword is None else None
        if heading:
            headings += 1
            converted = ["#" * min(len(heading.group(1)), 6) + " " + _bold(heading.group(2))]
        elif keyword:
            converted = ["# " + keyword.group(2) if keyword.group(1).upper() == "TITLE" else ""]
        elif _ORG_COMMENT.match(line):
            converted = [""]
        elif term:
            converted = [_bold(term.group(1))] + ([_bold(term.group(2))] if term.group(2) else [])
        else:
            converted = [_bold(line)]
        out += converted
        origin += [n] * len(converted)
    return out, origin, headings


_Convert = Callable[[list[str]], tuple[list[str], list[int], int]]
_MARKUPS: tuple[tuple[str, Callable[[str], bool], _Convert], ...] = (
    ("reStructuredText", _is_rst, _from_rst),
    ("AsciiDoc", _is_asciidoc, _from_asciidoc),
    ("Org mode", _is_org, _from_org),
)
