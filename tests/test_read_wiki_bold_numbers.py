"""A wiki page's source whose rules are paragraphs with bold numbers (:mod:`kb.read.wikitext`).

Headings in ``=`` marks over paragraphs ``'''103.1.''' Each player…``, an infobox template on
top and a category link at the end: three paragraphs or more that start with a rule number in
wiki bold tell the page (no other layout writes ``'''``), and it reads as the Markdown it was
made from. Two such paragraphs, or ``'''`` elsewhere in a line, do not make a page a wiki's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.layouts import fingerprint
from kb.read import read_text
from kb.read.wikitext import from_wikitext, is_wikitext
from tests.conftest import CORPORA, requires_shared

REPO = Path(__file__).resolve().parent.parent


def _wiki(markdown: str) -> str:
    """The Markdown as a wiki page's source: headings in ``=`` marks, bold in ``'''``, the
    rules as paragraphs, an infobox template over them and a category link under them."""
    text = re.sub(r"(?m)^(#{2,6}) (.*)$", lambda m: f"{'=' * len(m[1])} {m[2]} {'=' * len(m[1])}", markdown)
    text = re.sub(r"\*\*(.+?)\*\*", r"'''\1'''", text)
    return "{{Infobox rules|version=1.4|updated=2026-07-16}}\n" + text + "\n\n[[Category:Rules]]\n"


def _same_read(markdown: str) -> None:
    want = read_text(markdown, "rules.md")
    got = read_text(_wiki(markdown), "rules.wiki")
    assert fingerprint(got) == fingerprint(want)
    # each rule at its line of the page, one below the Markdown's (the infobox's line)
    assert (got.date, [r.line - 1 for r in got.rules]) == (want.date, [r.line for r in want.rules])
    assert any("paragraphs starting with a bold rule number" in d.message for d in got.diagnostics)


def test_the_embedded_excerpt_as_a_wiki_page_of_bold_numbers_reads_as_its_markdown() -> None:
    _same_read((REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md").read_text(encoding="utf-8"))


@requires_shared
def test_riftbound_1_4_as_a_wiki_page_of_bold_numbers_reads_as_its_markdown() -> None:
    _same_read((CORPORA / "riftbound" / "core-rules-2026-07-16.md").read_text(encoding="utf-8"))


TEXTS = [
    ("three bold-number paragraphs",
     "'''101.''' Deck.\n\n'''101.1.''' Forty cards.\n\n'''101.2.''' One legend.", True),
    ("Magic's subrule ids", "'''100.1a''' Two players.\n\n'''100.1b''' More.\n\n'''100.2.''' Decks.", True),
    ("two are too few to tell", "'''101.''' Deck.\n\n'''101.1.''' Forty cards.\n\nText.", False),
    ("bold inside a line is not a paragraph's number",
     "**101.** See '''101.1.''' here.\n**102.** And '''102.1.''' there.\n**103.** Or '''103.1.'''.", False),
    ("a bold word, not a number", "'''Deck''' one.\n\n'''Legend''' two.\n\n'''Runes''' three.", False),
]


@pytest.mark.parametrize("text,taken", [t[1:] for t in TEXTS], ids=[t[0] for t in TEXTS])
def test_bold_number_paragraphs_tell_a_wiki_page(text: str, taken: bool) -> None:
    assert is_wikitext(text) is taken
    assert (from_wikitext(text) is not None) is taken


def test_a_category_link_on_a_line_of_its_own_is_no_text() -> None:
    page = "'''101.''' Deck.\n\n'''101.1.''' Forty cards.\n\n'''101.2.''' One legend.\n\n[[Category:Rules]]"
    exported = from_wikitext(page)
    assert exported is not None and "Category" not in exported.text
    assert exported.text.split("\n")[:3] == ["**101.** Deck.", "", "**101.1.** Forty cards."]


# review V8: what a wiki shows elsewhere, or renders from elsewhere, is not the rule's text
INLINE = [
    ("a category link inside a line", "Third rule. [[Category:Rules]]", "Third rule."),
    ("a footnote reference", "Forty cards.<ref>Errata, 2026.</ref> Exactly.", "Forty cards. Exactly."),
    ("a named reference, self-closed", "Forty cards.<ref name=\"e\" /> Exactly.", "Forty cards. Exactly."),
    ("a template inside a line", "Pay {{Energy|2}} to play it.", "Pay to play it."),
    ("a link to the category page stays", "See [[:Category:Rules|the rules]].", "See the rules."),
    ("bold italics read as bold", "'''''103.1.''''' Each player.", "**103.1.** Each player."),
]


@pytest.mark.parametrize("line,markdown", [t[1:] for t in INLINE], ids=[t[0] for t in INLINE])
def test_a_line_keeps_only_the_rules_text(line: str, markdown: str) -> None:
    page = f"'''101.''' Deck.\n\n'''101.1.''' Forty.\n\n'''101.2.''' One.\n\n{line}"
    exported = from_wikitext(page)
    assert exported is not None and exported.text.split("\n")[-1] == markdown


def test_bold_italic_numbers_tell_a_wiki_page() -> None:
    page = "'''''101.''''' Deck.\n\n'''''101.1.''''' Forty cards.\n\n'''''101.2.''''' One legend."
    assert is_wikitext(page)
    assert [r.number for r in read_text(page, "rules.wiki").rules] == [("101",), ("101", "1"), ("101", "2")]
