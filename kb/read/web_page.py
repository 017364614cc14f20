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
``<b>``/``<strong>`` bold. A source line break before a rule number (``<strong>103.2.d.</strong>``,
``100.1a``) is kept, as the Markdown a converter rendered had it: consecutive rule lines in one
``<p>`` (a soft break) are each their own line, and the reader reads them as it reads that
Markdown. Entities are decoded (the invisible characters they name,
``&shy;`` or ``&#8203;``, dropped as the reading stage drops them from text), runs of white
space folded (not in ``<pre>``), and ``<head>``, ``<script>``, ``<style>``, and a site's
chrome around the rules (``<nav>``, ``<aside>``, ``<footer>``) skipped. The Magic and
Riftbound readers then read the Markdown as they read a Markdown export.

A rule viewer's page may leave the numbers out of its text and draw them with its style: a
list item whose text starts with no number of its own is given the one its page draws, the
rule number its ``id`` or a ``data-`` attribute holds (``data-number="103.1"``, ``id="rule-103.1"``:
three digits first, as both games' sections and rules), else, in an ordered list inside an
item whose number the page draws, that item's number and the item's ordinal (``value``, or the count from the
list's ``start``, as its ``type`` or inline ``list-style-type`` prints it: ``1``, ``a``, ``A``, ``i``,
``I``), joined with a dot (``103.1.b``; Magic's ``100.1.a`` reads as ``100.1a``). A number the
text prints is the item's where it is the drawn one or one part deeper than the item above
(a page that prints its numbers and hides its counters); otherwise it is the text's
(``1. The Turn Player…``). An ordered list outside any numbered item (a list of steps), one
under an item that prints its number (the rule's own list, in a page that prints its numbers)
and a ``<ul>`` draw no numbers.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from kb.model import Diagnostic, DocumentError
from kb.numbers import parse_number
from kb.read.text import ZERO_WIDTH, roman_numeral

_PAGE_START = re.compile(r"^\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|body)\b", re.IGNORECASE | re.DOTALL)
_BLOCKS = frozenset("p div li dt dd h1 h2 h3 h4 h5 h6 tr blockquote pre section article header "
                    "table ul ol dl main body".split())
# Never rules: the page's head and code, and a site's navigation, sidebars and footer.
_SKIPPED = frozenset("head script style nav template aside footer noscript".split())
_BOLD = frozenset(("b", "strong"))
_PARAGRAPHS = frozenset(("p", "div"))
_MIN_GAPS = 3  # empty paragraphs in a page that sets its blocks apart with them
_GAP_SHARE = 0.1  # of its paragraphs
# A rule number an item's attribute holds (``id="rule-103.1.b"``, ``data-number="100.1"``): three
# digits first, as both games' sections and rules (a chapter's number is its heading's text).
_HELD_NUMBER = re.compile(r"^[A-Za-z_-]{0,12}(\d{3}(?:\.[0-9a-z]+)*)\.?$")
# A number the item prints itself: a dot in it or after it ("1 Champion Legend" is a text).
_PRINTED_NUMBER = re.compile(r"^(?:\*\*)?(\d{1,3}(?:\.[0-9a-z]+)+\.?|\d{1,3}\.)(?:\*\*)?(?=\s|$)")
_LIST_STYLES = {"decimal": "1", "lower-alpha": "a", "lower-latin": "a", "upper-alpha": "A",
                "upper-latin": "A", "lower-roman": "i", "upper-roman": "I"}
# A line break in the page's source, kept apart from the text's own until a block is flushed.
_SOURCE_BREAK = "\x00"
# A source line that starts with a rule number in bold ("**103.2.d.** …", "**100.1a** …": three
# digits first, as both games' sections and rules; a chapter is a heading of its own) or padded
# with spaces (edition 1.4's fifth-level ids, which the Markdown reader reads so): a number a
# source wrapped to its line's start ("See rule\n    505.1") is neither.
_SOURCE_RULE_LINE = re.compile(r"^[ \t]*(\*\*\d{3}\.[0-9a-z.]*\*\*\.?(?=\s|$)"
                               r"|\d{3}\.[0-9a-z.]*(?=[ \t\u00a0]{2}))([ \t\u00a0]*)")


def _printed_is_number(printed: str, drawn: str, parent: str) -> bool:
    """Whether the number an item's text starts with is the item's (the page drawing none, or
    the same one, ``100.1a`` for ``100.1.a``, or one part deeper than the item it is listed
    in: a page that prints its numbers and hides its list's counters), not a text's own
    (``1. The Turn Player…`` under 315.1.b)."""
    if not drawn:
        return True
    try:
        number = parse_number(printed.rstrip("."))
        return number == parse_number(drawn) or bool(parent) and number[:-1] == parse_number(parent)
    except ValueError:
        return False


def _integer(attrs: list[tuple[str, str | None]], name: str, default: int) -> int:
    value = dict(attrs).get(name)
    return int(value) if value and value.strip().lstrip("-").isdigit() else default


# The highest ordinal a drawn rule part may have (a part is at most three digits, kb.numbers).
_MAX_ORDINAL = 999


def _counter(attrs: list[tuple[str, str | None]]) -> list[Any]:
    """An ``<ol>``'s counter: [its type, the next item's ordinal, the step]. A ``reversed`` list
    counts down from its ``start``; without one, from its length, which is not known yet (None:
    its items get no drawn number)."""
    given = dict(attrs)
    if "reversed" in given:
        return [_list_type(attrs), _integer(attrs, "start", 0) or None, -1]
    return [_list_type(attrs), _integer(attrs, "start", 1), 1]


def _list_type(attrs: list[tuple[str, str | None]]) -> str:
    """An ``<ol>``'s numbering: its ``type`` attribute, or its inline style's ``list-style-type``."""
    given = dict(attrs)
    style = re.search(r"list-style(?:-type)?\s*:\s*([a-z-]+)", given.get("style") or "")
    if style and style.group(1) in _LIST_STYLES:
        return _LIST_STYLES[style.group(1)]
    return given.get("type") if given.get("type") in ("1", "a", "A", "i", "I") else "1"


def _ordinal(n: int, kind: str) -> str:
    """A list item's ordinal as the list's type prints it."""
    if kind in "aA" and 0 < n:
        letters = ""
        while n:
            n, rest = divmod(n - 1, 26)
            letters = chr(97 + rest) + letters
        return letters if kind == "a" else letters.upper()
    if kind in "iI" and 0 < n < 4000:
        roman = roman_numeral(n)
        return roman if kind == "i" else roman.upper()
    return str(n)


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
        # The page's lists: per open <ol> its type and next ordinal (None for a <ul>), and per
        # open <li> the rule number it draws (see _item_number); the number the next block
        # starts with, when its text has none.
        self._lists: list[list[Any] | None] = []
        self._items: list[str] = []
        self._printed: list[bool] = []  # per open <li>: its number is its text's
        self._drawn: str | None = None  # None: the block is not an item's first

    def finish(self) -> None:
        """Take the text after the last block."""
        self._flush()

    def _flush(self) -> None:
        text = "".join(self._parts)
        lines = text.split("\n") if self._pre else [
            folded for ln in text.split("\n") for folded in _source_lines(ln)]
        lines = [ln for ln in lines if ln.strip()]
        if lines and self._drawn is not None:
            printed = _PRINTED_NUMBER.match(lines[0])
            parent = self._items[-2] if len(self._items) > 1 else ""
            if printed and _printed_is_number(printed.group(1), self._drawn, parent):
                # the item prints its number: its sublists print theirs too
                self._items[-1] = printed.group(1).rstrip(".")
                self._printed[-1] = True
            elif self._drawn:  # a text may start with a number of its own ("1. The Turn Player…")
                lines[0] = f"{self._drawn}. {lines[0]}"
            self._drawn = None
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
        if tag in ("ol", "ul"):
            self._lists.append(_counter(attrs) if tag == "ol" else None)
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
                self._items.append(self._item_number(attrs))
                self._printed.append(False)
                self._drawn = self._items[-1]

    def _item_number(self, attrs: list[tuple[str, str | None]]) -> str:
        """The rule number a list item's page draws where its text has none: one its ``id`` or
        a ``data-`` attribute holds (a style's ``content: attr(data-number)``), else, in an
        ordered list inside an item whose number the page draws too, that item's number and this
        one's ordinal (its ``value``, or the list's count from its ``start``, in the list's
        ``type``: 1, a, A, i, I), as both games number a rule's subrules; "" for none (under an
        item that prints its number, a list that prints none is that rule's text)."""
        for name, value in attrs:
            if value and (name == "id" or name.startswith("data-")):
                held = _HELD_NUMBER.match(value.strip())
                if held:
                    return held.group(1)
        ordered = self._lists[-1] if self._lists else None
        if ordered is None:
            return ""
        kind, count, step = ordered
        ordinal = _integer(attrs, "value", count) if count is not None else None
        if ordinal is None:
            return ""  # a reversed list without its start counts down from its length, unknown here
        ordered[1] = ordinal + step
        parent = self._items[-1] if self._items and not self._printed[-1] else ""
        if not parent or not 0 < ordinal <= _MAX_ORDINAL:
            return ""  # no rule part is numbered 0, below it, or past any rule's count
        return f"{parent}.{_ordinal(ordinal, kind)}"

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self._skipping = max(0, self._skipping - 1)
            return
        if self._skipping:
            return
        if tag in ("ol", "ul") and self._lists:
            self._lists.pop()
        if tag == "li" and self._items:
            self._flush()
            self._items.pop()
            self._printed.pop()
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
        # ``<br>`` (and ``<pre>``) break a line, and one before a rule number (_source_lines).
        if _SOURCE_BREAK in data:
            data = data.replace(_SOURCE_BREAK, "")
        self._parts.append(data if self._pre else data.replace("\n", _SOURCE_BREAK))


def _source_lines(line: str) -> list[str]:
    """A line of a block (up to a ``<br>``) with its white space folded: its source lines are
    one line, but for those that start with a rule number, which start a line of their own (the
    rule line of a Markdown paragraph a converter rendered), two spaces kept after a padded id."""
    lines: list[list[str]] = []  # per line: its start ("" or an id and its gap), then its parts
    for part in line.split(_SOURCE_BREAK):
        rule = _SOURCE_RULE_LINE.match(part) if lines and "".join(lines[-1]).strip() else None
        if rule:
            lines.append([rule.group(1) + ("  " if len(rule.group(2)) > 1 else " "), part[rule.end():]])
        elif lines:
            lines[-1].append(part)
        else:
            lines.append(["", part])
    return [start + " ".join(" ".join(parts).split()) for start, *parts in lines]


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
