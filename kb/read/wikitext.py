"""Rules pasted from a wiki's source (MediaWiki's wikitext), written out as the Markdown the
readers read.

A wiki page of the rules is headings ``== 1. Game Concepts ==`` (the number of ``=`` its
depth), each rule a list item ``* 100.1. …``, its subrules deeper ones ``** 100.1a …``, a
glossary a definition list (``; Abandon`` over ``: To turn a face-up…``), bold ``'''…'''``,
italics ``''…''`` and links ``[[Target|label]]``, ``[https://… label]``. It is known by three
headings or more in ``=`` marks and three list items or more; then each heading becomes
Markdown's (``## 1. Game Concepts``), a list item's markers go (the items are the layout's,
not the publisher's bullets) and it stands apart as a paragraph of its own, a ``:`` line goes
on with the item or term above it (as its next line), bold becomes ``**…**``, italics
``_…_``, a link its label, and a line that is only a template (``{{…}}``) or a magic word
(``__TOC__``) is left blank. Each line keeps its line of the page.
"""

from __future__ import annotations

import re

from kb.model import Diagnostic
from kb.read.exports import Exported

_HEADING = re.compile(r"^(={1,6})[ \t]*([^=\n].*?)[ \t]*\1[ \t]*$")
_ITEM = re.compile(r"^([*#;:]+)[ \t]*(.*)$")
_LINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]|]*)\]\]")
_EXTERNAL = re.compile(r"\[(?:https?|ftp)://\S+[ \t]+([^\]]+)\]")
_BOLD = re.compile(r"'''(.+?)'''")
_ITALIC = re.compile(r"''(.+?)''")
_ALONE = re.compile(r"^[ \t]*(?:\{\{.*\}\}|__[A-Z]+__)[ \t]*$")
_MIN_MARKS = 3
# What tells a wiki page's source: a heading in two to six ``=`` marks, a list item at a line's start.
_HEADING_LINE = re.compile(r"(?m)^={2,6}[ \t]*[^=\n].*?={2,6}[ \t]*$")
_ITEM_LINE = re.compile(r"(?m)^[*#;][*#;:]*[ \t]*\S")


def is_wikitext(text: str) -> bool:
    """Three headings or more in ``=`` marks and three list items or more at lines' starts."""
    head = text[:400_000]
    headings = sum(1 for _ in zip(range(_MIN_MARKS), _HEADING_LINE.finditer(head)))
    items = sum(1 for _ in zip(range(_MIN_MARKS), _ITEM_LINE.finditer(head)))
    return headings >= _MIN_MARKS and items >= _MIN_MARKS


def from_wikitext(text: str, source: str = "") -> Exported | None:
    """The page as Markdown paragraphs (see the module docstring), or None when it is no wikitext."""
    if not is_wikitext(text):
        return None
    lines: list[str] = []
    origin: list[int] = []
    items = headings = 0
    for n, line in enumerate(text.split("\n"), start=1):
        if _ALONE.match(line):
            line = ""
        heading = _HEADING.match(line)
        item = _ITEM.match(line) if heading is None else None
        if heading:
            headings += 1
            line = "#" * len(heading.group(1)) + " " + heading.group(2)
        elif item:
            marks, line = item.groups()
            if marks[-1] != ":":
                items += 1
        if (heading or item and item.group(1)[-1] != ":") and lines and lines[-1].strip():
            lines.append("")  # an item or heading is a paragraph of its own
            origin.append(n)
        if heading and line:
            lines.append(_inline(line))
            origin.append(n)
            lines.append("")  # and so is what follows it
            origin.append(n)
            continue
        lines.append(_inline(line))
        origin.append(n)
    note = Diagnostic(f"a wiki page's source (MediaWiki: {headings} headings in '=' marks, {items} "
                      "list items): read as Markdown paragraphs, without the list markers", source, 0, "info")
    return Exported("\n".join(lines), origin, [note])


def _inline(line: str) -> str:
    """A line's wiki markup as Markdown: bold, italics, links their labels."""
    if "[" in line:
        line = _EXTERNAL.sub(r"\1", _LINK.sub(r"\1", line))
    if "''" in line:
        line = _ITALIC.sub(r"_\1_", _BOLD.sub(r"**\1**", line))
    return line
