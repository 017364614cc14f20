"""A web page whose rule numbers the page draws, not its text (:mod:`kb.read.web_page`).

A rule viewer lists the rules as nested ``<ol>``/``<li>`` and shows their numbers with its
style: an item's number in an attribute (``data-number``, ``id``) drawn by ``content:
attr(…)``, a subrule's by its list's count (``type``, ``start``, ``value``). The page's
Markdown must carry those numbers, and nothing else may gain one: a list of steps outside any
rule, a bulleted list, a text that starts with a number of its own. The same layout derived
from the excerpts and the full documents runs in ``tests/test_read_variants.py``
(``bench.variants``: "a rule viewer's page"). Text a browser copies from such a page has lost
those numbers: it is refused at its first unnumbered paragraph (``bench.layouts.BROUGHT``:
"copied from a rule viewer's page").
"""

from __future__ import annotations

import pytest

from bench.layouts import fingerprint
from kb.model import DocumentError
from kb.read import read_text
from kb.read.web_page import to_markdown


def _page(body: str) -> str:
    return ("<!DOCTYPE html><html><head><style>ol { list-style: none; } li[data-number]::before "
            "{ content: attr(data-number) '. '; }</style></head><body>" + body + "</body></html>")


def _items(body: str) -> list[str]:
    """The page's list items as Markdown draws them (without the '- ')."""
    return [ln[2:] for ln in to_markdown(_page(body))[0].split("\n") if ln.startswith("- ")]


CASES = [
    ("an attribute's number, a lettered list, a value where the count skips",
     '<ol><li data-number="103.1">One.<ol type="a"><li>Two.</li><li value="3">Three.'
     "<ol><li>Four.</li></ol></li></ol></li></ol>",
     ["103.1. One.", "103.1.a. Two.", "103.1.c. Three.", "103.1.c.1. Four."]),
    ("Magic's letters skip l and o", '<ol><li data-number="704.5">S.<ol type="a" start="11"><li>K.</li>'
     '<li value="13">M.</li><li>N.</li><li value="16">P.</li></ol></li></ol>',
     ["704.5. S.", "704.5.k. K.", "704.5.m. M.", "704.5.n. N.", "704.5.p. P."]),
    ("an id's number after a prefix, roman numerals", '<ol><li id="rule-337.1">R.<ol type="i"><li>I.</li>'
     "<li>II.</li><li>III.</li><li>IV.</li></ol></li></ol>",
     ["337.1. R.", "337.1.i. I.", "337.1.ii. II.", "337.1.iii. III.", "337.1.iv. IV."]),
    ("an inline list-style-type", '<ol><li data-number="100.2">D.<ol style="list-style-type: lower-alpha">'
     "<li>A.</li><li>B.</li></ol></li></ol>", ["100.2. D.", "100.2.a. A.", "100.2.b. B."]),
    ("a rule's text that starts with a number of its own", '<ol><li data-number="315.1">Awaken.<ol type="a">'
     "<li>The following Task becomes Outstanding:</li><li>1. The Turn Player readies.</li></ol></li></ol>",
     ["315.1. Awaken.", "315.1.a. The following Task becomes Outstanding:", "315.1.b. 1. The Turn Player readies."]),
    ("numbers printed, the list's counters hidden", '<ol><li><span class="num">100.1.</span> One.<ol>'
     '<li><span class="num">100.1a</span> Two.</li><li><span class="num">100.1b</span> Three.</li></ol></li></ol>',
     ["100.1. One.", "100.1a Two.", "100.1b Three."]),
    ("a list under an item that prints its number is its text", '<ol><li>103.2. Printed.<ol><li>First step.</li>'
     "<li>Second step.</li></ol></li></ol>", ["103.2. Printed.", "First step.", "Second step."]),
    ("a drawn item's sublist under a drawn one", '<ol><li data-number="103.4">A.<ol type="a"><li>B.<ol><li>C.</li>'
     "</ol></li></ol></li></ol>", ["103.4. A.", "103.4.a. B.", "103.4.a.1. C."]),
    ("a list of steps outside any rule", "<p>How to read:</p><ol><li>Find the rule.</li><li>Read it.</li></ol>",
     ["Find the rule.", "Read it."]),
    ("a bulleted list inside a rule", '<ol><li data-number="103.3">Three kinds:<ul><li>units</li>'
     "<li>gear</li></ul></li></ol>", ["103.3. Three kinds:", "units", "gear"]),
    # review V7: counts no rule part can be are not drawn as numbers
    ("a reversed list counts down from its start", '<ol><li data-number="103.1">R.<ol reversed start="3">'
     "<li>Three.</li><li>Two.</li></ol></li></ol>", ["103.1. R.", "103.1.3. Three.", "103.1.2. Two."]),
    ("a reversed list without a start draws no number", '<ol><li data-number="103.1">R.<ol reversed>'
     "<li>Down.</li></ol></li></ol>", ["103.1. R.", "Down."]),
    ("a count of 0, below it or past any part draws no number", '<ol><li data-number="103.1">R.<ol start="-5">'
     '<li>Minus.</li></ol><ol start="0"><li>Zero.</li></ol><ol start="12345678901234567890123456">'
     "<li>Huge.</li></ol></li></ol>", ["103.1. R.", "Minus.", "Zero.", "Huge."]),
    ("an attribute that is no rule number", '<ol><li id="h.4f3a2c">Intro.</li><li data-n="7">Seven.</li></ol>',
     ["Intro.", "Seven."]),
]


@pytest.mark.parametrize("name,body,items", CASES, ids=[c[0] for c in CASES])
def test_a_list_item_carries_the_number_its_page_draws(name: str, body: str, items: list[str]) -> None:
    assert _items(body) == items


RIFTBOUND = """# Riftbound Core Rules v9.9

Last Updated: 2026-07-16

## 100. Game Concepts

### 103. Deck Construction

**103.1.** Each player needs a Champion Legend, a Main Deck and a Rune Deck.

**103.1.a.** The Champion Legend is placed in the Legend Zone.

**103.1.b.** A Main Deck has at least 40 cards.

**103.1.b.1.** Duplicates of a card are limited to three copies.

**103.1.d.** A Rune Deck has twelve runes.

### 104. Setup

**104.1.** Each player places their Champion Legend and shuffles their Main Deck.
"""

RIFTBOUND_VIEWER = _page(
    "<h1>Riftbound Core Rules v9.9</h1><p>Last Updated: 2026-07-16</p>"
    "<h2>100. Game Concepts</h2><h3>103. Deck Construction</h3>"
    '<ol><li data-number="103.1">Each player needs a Champion Legend, a Main Deck and a Rune Deck.'
    '<ol type="a"><li>The Champion Legend is placed in the Legend Zone.</li>'
    "<li>A Main Deck has at least 40 cards.<ol><li>Duplicates of a card are limited to three copies.</li></ol></li>"
    '<li value="4">A Rune Deck has twelve runes.</li></ol></li></ol>'
    "<h3>104. Setup</h3>"
    '<ol><li data-number="104.1">Each player places their Champion Legend and shuffles their Main Deck.</li></ol>')


def test_a_rule_viewers_page_reads_as_the_printed_rules() -> None:
    want = read_text(RIFTBOUND, "printed")
    got = read_text(RIFTBOUND_VIEWER, "viewer")
    assert fingerprint(got) == fingerprint(want)
    assert [r.number for r in got.rules] == [r.number for r in want.rules]


def _copied(rules: int, numbered: int) -> str:
    """Riftbound text as a browser copies a rule viewer's page: the headings keep their numbers,
    the rules after the first ``numbered`` lost theirs."""
    lines = ["# Riftbound Core Rules v9.9", "Last Updated: 2026-07-16", "## 100. Game Concepts",
             "### 103. Deck Construction"]
    lines += [(f"**103.{n}.** " if n <= numbered else "") + f"A player does the thing numbered {n}."
              for n in range(1, rules + 1)]
    return "\n\n".join(lines) + "\n"


def test_text_copied_without_the_numbers_its_page_drew_is_refused_at_the_first_unnumbered_paragraph() -> None:
    with pytest.raises(DocumentError) as caught:
        read_text(_copied(30, 2), "copied.md")
    first = caught.value.diagnostics[0]
    assert (first.file, first.line) == ("copied.md", 13)  # "A player does the thing numbered 3."
    assert "numbers are missing" in first.message and "saved as HTML" in first.message


@pytest.mark.parametrize("numbered", [30, 12])
def test_text_whose_unnumbered_paragraphs_are_fewer_than_its_rules_reads(numbered: int) -> None:
    assert len(read_text(_copied(30, numbered), "printed.md").rules) == 2 + numbered
