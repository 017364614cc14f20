"""A rules document saved as a web page (``<!DOCTYPE html>``, ``<html>``), turned into the
Markdown the text readers read.

Riftbound's rule-row sheets and MinerU tables are HTML too, and have readers of their own;
this is for any other page: the rules as ``<p>`` paragraphs, ``<h2>``/``<h3>`` headings,
``<li>`` items, a ``<dl>`` glossary. Each block becomes a paragraph, the way the text
releases print them: a heading ``<hN>`` becomes ``N`` hashes, a list item ``- ``, a ``<dt>``
term the line above its ``<dd>`` definitions (one entry, then a blank line); in a page that
sets its blocks apart with empty paragraphs (a Google Doc's, a word processor's), only those
are blank lines, the paragraphs between two being one block's lines; ``<br>`` a line
break (a line break in the page's source is a space, as a browser shows it),
``<b>``/``<strong>`` bold. Entities are decoded (the invisible characters they name,
``&shy;`` or ``&#8203;``, dropped as the reading stage drops them from text), runs of white
space folded (not in ``<pre>``), and ``<head>``, ``<script>``, ``<style>``, and a site's
chrome around the rules (``<nav>``, ``<aside>``, ``<footer>``) skipped. The Magic and
Riftbound readers then read the Markdown as they read a Markdown export.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from kb.model import Diagnostic, DocumentError
from kb.read.text import ZERO_WIDTH

_PAGE_START = re.compile(r"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|body)\b", re.IGNORECASE | re.DOTALL)
_BLOCKS = frozenset("p div li dt dd h1 h2 h3 h4 h5 h6 tr blockquote pre section article header "
                    "table ul ol dl main body".split())
# Never rules: the page's head and code, and a site's navigation, sidebars and footer.
_SKIPPED = frozenset("head script style nav template aside footer noscript".split())
_BOLD = frozenset(("b", "strong"))
_PARAGRAPHS = frozenset(("p", "div"))
_MIN_GAPS = 3  # empty paragraphs in a page that sets its blocks apart with them
_GAP_SHARE = 0.1  # of its paragraphs


def is_web_page(text: str) -> bool:
    """True when the text is a whole HTML page (it starts with a doctype, ``<html>`` or ``<body>``)."""
    return bool(_PAGE_START.match(text[:4000]))


class _PageParser(HTMLParser):
    """Collects the page's paragraphs as (source line, lines, tag) in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[tuple[int, list[str], str]] = []
        self._parts: list[str] = []
        self._line = 0
        self._prefix = ""
        self._skipping = 0
        self._pre = 0
        self._tag = ""  # the block the text is in

    def finish(self) -> None:
        """Take the text after the last block."""
        self._flush()

    def _flush(self) -> None:
        text = "".join(self._parts)
        lines = [ln if self._pre else " ".join(ln.split()) for ln in text.split("\n")]
        lines = [ln for ln in lines if ln.strip()]
        if lines:
            lines[0] = self._prefix + lines[0]
            self.blocks.append((self._line, lines, self._tag))
        self._parts, self._prefix, self._line, self._tag = [], "", 0, ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED:
            self._skipping += 1
            return
        if self._skipping:
            return
        if tag == "br":
            self._parts.append("\n")
        elif tag in _BOLD:
            self._parts.append("**")
        elif tag in _BLOCKS:
            self._flush()
            self._line = self.getpos()[0]
            self._pre += tag == "pre"
            self._tag = tag
            if tag[0] == "h" and tag[1:].isdigit():
                self._prefix = "#" * int(tag[1:]) + " "
            elif tag == "li":
                self._prefix = "- "

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
            return
        if self._skipping:
            return
        if tag in _BOLD:
            self._parts.append("**")
        elif tag in _BLOCKS:
            if tag in _PARAGRAPHS and self._tag == tag and not "".join(self._parts).strip():
                self.blocks.append((self._line or self.getpos()[0], [], tag))  # an empty paragraph
            self._flush()
            self._pre -= tag == "pre" and self._pre > 0

    def handle_data(self, data: str) -> None:
        if self._skipping:
            return
        # The characters a reference names (``&shy;``, ``&#8203;``) are decoded only now,
        # after the reading stage dropped the invisible ones from the page's own text.
        if not data.isascii():
            data = ZERO_WIDTH.sub("", data)
        if not self._parts and not self._line:
            self._line = self.getpos()[0]
        # A line break in the page's source is white space, as a browser shows it; only
        # ``<br>`` (and ``<pre>``) break a line.
        self._parts.append(data if self._pre else data.replace("\n", " "))


def to_markdown(text: str, source: str = "") -> tuple[str, list[int]]:
    """The page as Markdown paragraphs, and the page's line of each line of it; markup the
    parser cannot take is a :class:`DocumentError` at its line."""
    parser = _PageParser()
    try:
        parser.feed(text)
        parser.close()
    except AssertionError as exc:  # html.parser asserts on some malformed declarations
        raise DocumentError([Diagnostic(f"unreadable markup in the web page: {exc}", source,
                                        parser.getpos()[0])]) from exc
    parser.finish()
    lines: list[str] = []
    origin: list[int] = []
    # A page whose gaps are empty paragraphs (a Google Doc's or a word processor's HTML: ``<p
    # class="c1 c4"></p>``, ``<p>&nbsp;</p>``) sets its blocks apart with them: paragraphs
    # between two gaps are the lines of one block (a glossary term over its definition), as
    # the text releases print them; headings stand apart whatever.
    paragraphs = sum(1 for _, _, tag in parser.blocks if tag in _PARAGRAPHS)
    empty = sum(1 for _, block, _ in parser.blocks if not block)
    gapped = empty >= _MIN_GAPS and empty >= _GAP_SHARE * paragraphs
    blocks = [b for b in parser.blocks if b[1]]
    gap_before: set[int] = set()  # the indexes in blocks of those an empty paragraph precedes
    seen = 0
    for _, block, _ in parser.blocks:
        if not block:
            gap_before.add(seen)
        else:
            seen += 1
    for i, (line, block, tag) in enumerate(blocks):
        lines.extend(block)
        origin.extend([line] * len(block))
        following = blocks[i + 1][2] if i + 1 < len(blocks) else ""
        # A term's definitions follow it, and each other, on the next lines: one entry.
        if tag == "dt" or (tag == "dd" and following == "dd"):
            continue
        if gapped and tag in _PARAGRAPHS and following in _PARAGRAPHS and i + 1 not in gap_before:
            continue
        lines.append("")
        origin.append(line)
    return "\n".join(lines), origin
