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
``_…_``, a link its label, and a line that is only a template (``{{…}}``), a magic word
(``__TOC__``) or a category link (``[[Category:Rules]]``, which a wiki shows under the page,
not in it) is left blank. Each line keeps its line of the page.

A page may instead print each rule as a paragraph of its own whose number is bold
(``'''103.1.''' Each player…``): three such paragraphs or more tell it too, as no other layout
writes ``'''``, and they read as the Markdown exports' bold ids (``**103.1.** Each player…``).
"""

from __future__ import annotations

import re

from kb.model import Diagnostic
from kb.read.exports import Exported
from kb.read.text import at_least

_HEADING = re.compile(r"^(={1,6})[ \t]*([^=\n].*?)[ \t]*\1[ \t]*$")
_ITEM = re.compile(r"^([*#;:]+)[ \t]*(.*)$")
_LINK = re.compile(r"\[\[(?:[^\]|]*\|)?([^\]|]*)\]\]")
_EXTERNAL = re.compile(r"\[(?:https?|ftp)://\S+[ \t]+([^\]]+)\]")
_BOLD = re.compile(r"'''(.+?)'''")
# Bold italics (five quotes): read as bold, so that a number in them is a bold id.
_BOLD_ITALIC = re.compile(r"'''''(.+?)'''''")
# What a wiki shows elsewhere than in the line (a category link, under the page; a <ref>, as
# a footnote) or renders from elsewhere (a template, without nesting): not the rule's text.
_NOT_TEXT = re.compile(r"[ \t]*(?:\[\[[ \t]*Category[ \t]*:[^\]]*\]\]|<ref\b[^>]*/>"
                       r"|<ref\b[^>]*>.*?</ref\s*>|\{\{[^{}]*\}\})", re.IGNORECASE)
_ITALIC = re.compile(r"''(.+?)''")
_ALONE = re.compile(r"^[ \t]*(?:\{\{.*\}\}|__[A-Z]+__|\[\[[ \t]*:?[ \t]*Category[ \t]*:[^\]]*\]\])[ \t]*$",
                    re.IGNORECASE)
_MIN_MARKS = 3
# What tells a wiki page's source: a heading in two to six ``=`` marks, a list item at a line's start.
_HEADING_LINE = re.compile(r"(?m)^={2,6}[ \t]*[^=\n].*?={2,6}[ \t]*$")
_ITEM_LINE = re.compile(r"(?m)^[*#;][*#;:]*[ \t]*\S")
# A paragraph that starts with a bold rule number, three digits first as both games' sections
# and rules ("'''103.1.''' …", "'''100.1a''' …").
_BOLD_NUMBER_LINE = re.compile(r"(?m)^(?:'')?'''\d{3}\.[0-9a-z.]*'''")


def _at_least_three(pattern: re.Pattern[str], text: str) -> bool:
    return at_least(_MIN_MARKS, pattern.finditer(text))


def is_wikitext(text: str) -> bool:
    """Three headings or more in ``=`` marks and three list items or more at lines' starts, or
    three paragraphs or more that start with a rule number in wiki bold."""
    head = text[:400_000]
    return (_at_least_three(_HEADING_LINE, head) and _at_least_three(_ITEM_LINE, head)
            or _at_least_three(_BOLD_NUMBER_LINE, head))


def from_wikitext(text: str, source: str = "") -> Exported | None:
    """The page as Markdown paragraphs (see the module docstring), or None when it is no wikitext."""
    if not is_wikitext(text):
        return None
    lines: list[str] = []
    origin: list[int] = []
    items = headings = bold_numbers = 0
    for n, line in enumerate(text.split("\n"), start=1):
        if _ALONE.match(line):
            line = ""
        heading = _HEADING.match(line)
        bold_numbers += bool(_BOLD_NUMBER_LINE.match(line))
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
                      f"list items, {bold_numbers} paragraphs starting with a bold rule number): read "
                      "as Markdown paragraphs, without the list markers", source, 0, "info")
    return Exported("\n".join(lines), origin, [note])


def _inline(line: str) -> str:
    """A line's wiki markup as Markdown: bold, italics, links their labels; a category link, a
    <ref> or a template inside the line (:data:`_NOT_TEXT`) dropped."""
    if "[[" in line or "<ref" in line or "{{" in line:
        line = _NOT_TEXT.sub("", line)
    if "'''''" in line:
        line = _BOLD_ITALIC.sub(r"**\1**", line)
    if "[" in line:
        line = _EXTERNAL.sub(r"\1", _LINK.sub(r"\1", line))
    if "''" in line:
        line = _ITALIC.sub(r"_\1_", _BOLD.sub(r"**\1**", line))
    return line
