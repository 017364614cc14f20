"""A web page rendered from rules kept in Markdown, whose consecutive rule lines share one
``<p>`` with soft breaks (:mod:`kb.read.web_page`).

A converter renders ``**103.2.c.** …`` over ``**103.2.d.** …`` (no blank line between) as one
paragraph whose source lines break before ``<strong>103.2.d.</strong>``; a browser shows them
run together, but each is a rule. A line break in the page's source before a bold rule number,
or an id padded with spaces (Riftbound 1.4's fifth-level ids), starts a line of its own, so the
reader reads it as it reads the Markdown; any other source line break is a space, a number a
source wrapped to a line's start ("See rule" over "505.1") included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from bench.layouts import fingerprint
from kb.read import read_text
from kb.read.web_page import to_markdown
from tests.conftest import CORPORA, requires_shared

REPO = Path(__file__).resolve().parent.parent


def _page(body: str) -> str:
    return ("<!DOCTYPE html><html><head><title>Rules</title></head><body><nav><a href='/'>Home</a>"
            f"</nav><article>{body}</article><footer>&copy; 2026 Fan Wiki</footer></body></html>")


def _lines(body: str) -> list[str]:
    return [ln for ln in to_markdown(_page(body))[0].split("\n") if ln]


CASES = [
    ("two bold ids in one paragraph, a soft break between",
     "<p><strong>103.2.c.</strong> Subject to Domain Identity.\n<strong>103.2.d.</strong> Your deck.</p>",
     ["**103.2.c.** Subject to Domain Identity.", "**103.2.d.** Your deck."]),
    ("Magic's bold subrule ids, indented source lines, <b>",
     "<p>\n  <b>100.1a</b> A two-player game.\n  <b>100.1b</b> A multiplayer game.\n</p>",
     ["**100.1a** A two-player game.", "**100.1b** A multiplayer game."]),
    ("a padded fifth-level id keeps two spaces, which the Markdown reader reads",
     "<p>464.2.c.1.a.        If a showdown opens, this player\ngains Focus.\n"
     "464.2.c.1.b.      If one was ongoing, Focus stays.</p>",
     ["464.2.c.1.a. If a showdown opens, this player gains Focus.",
      "464.2.c.1.b.  If one was ongoing, Focus stays."]),
    ("a number wrapped to a source line's start is the text's",
     "<p><strong>101.2.</strong> For more, see rule\n505.1 Main Phase and rule\n    702.19b for trample.</p>",
     ["**101.2.** For more, see rule 505.1 Main Phase and rule 702.19b for trample."]),
    ("a source line break among words is a space",
     "<p><strong>102.</strong> A player\nwins the game\n  when a\tcondition holds.</p>",
     ["**102.** A player wins the game when a condition holds."]),
    ("a bold word (not a number) at a source line's start is the text's",
     "<p><strong>103.</strong> Each player has a\n<strong>Main Deck</strong> and a rune deck.</p>",
     ["**103.** Each player has a **Main Deck** and a rune deck."]),
    ("<br> still breaks a line; a <pre> keeps its lines",
     "<p><strong>104.</strong> First line<br>second line</p><pre>105.  kept\n  as is</pre>",
     ["**104.** First line", "second line", "105.  kept", "  as is"]),
]


@pytest.mark.parametrize("body,lines", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_source_line_break_before_a_rule_number_starts_a_line(body: str, lines: list[str]) -> None:
    assert _lines(body) == lines


def _rendered(markdown: str) -> str:
    """The Markdown as a site serving it shows it: markdown-it's CommonMark inside site chrome."""
    return _page(MarkdownIt("commonmark").render(markdown))


# The rules of Riftbound 1.4 whose source lines markdown-it renders as other blocks: a '1.'
# line starts an <ol> (read as '- ' items), and a line starting '> D >]' a blockquote. The
# excerpt keeps the document's lines word for word, so it has the same two where it holds them.
RENDERED_OTHERWISE = ["479.2", "738"]


def _number(key: tuple) -> str:
    return ".".join(str(part[1]) for part in key)


def _differing(got: dict, want: dict) -> list[str]:
    return sorted(_number(key) for key in want if got[key] != want[key])


def test_the_embedded_excerpt_rendered_reads_as_its_markdown() -> None:
    markdown = (REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md").read_text(encoding="utf-8")
    wanted = read_text(markdown, "excerpt.md")
    read = read_text(_rendered(markdown), "excerpt.html")
    want, got = fingerprint(wanted, "lines"), fingerprint(read, "lines")
    assert got.keys() == want.keys()
    held = {_number(key) for key in want}
    assert _differing(got, want) == [n for n in RENDERED_OTHERWISE if n in held]
    assert not [d for d in read.diagnostics if d.severity == "warning"]


@requires_shared
def test_riftbound_1_4_rendered_reads_as_its_markdown() -> None:
    markdown = (CORPORA / "riftbound" / "core-rules-2026-07-16.md").read_text(encoding="utf-8")
    want = fingerprint(read_text(markdown, "1.4.md"), "lines")
    got = fingerprint(read_text(_rendered(markdown), "1.4.html"), "lines")
    assert got.keys() == want.keys()
    assert _differing(got, want) == RENDERED_OTHERWISE
