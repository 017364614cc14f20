"""A top-level entry is a heading or a rule by what the document says, whatever its layout.

Riftbound's Markdown exports mark their section headings (``### 179. Tokens``) and bold every
other id, the titles the converter did not make headings among them (1.4 prints
``**188.** Control`` over ``**189.** Control is the concept…``, where its PDF prints a heading).
So bold, italics, a list bullet or no mark at all say nothing of an entry's kind: its text
does, as in the PDF's text. Each line below is one such entry in a small Markdown document;
it must get the kind and parent the line says, and the same document printed (its markup
gone, :mod:`tests.published`) must place every rule alike.
"""

from __future__ import annotations

import re

import pytest

from bench.layouts import disagreeing, kinds_and_parents
from kb.numbers import parse_number, sort_key
from kb.read import read_text
from tests.published import markdown_blocks, printed_text

BEFORE = """# Riftbound Core Rules v9.9

Last Updated: 2026-07-16

## 100. Game Concepts

### 179. Tokens

**180.** Tokens are Game Objects created by spells and abilities during play.

**180.1.** Tokens can be represented by anything.

"""
AFTER = """

**199.** A Game Object that comprises a Location is also a Game Object at that location.

**199.1.** It is at that location for as long as it is there.
"""

# what the document prints between the rules above and below | number: kind under parent, ...
CASES = [
    ("**188.** Control\n**189.** Control is the concept of a player having influence.",
     "188: section under 100, 189: rule under 188, 199: rule under 188"),
    ("**190.** Battlefields\n\n**190.1.** A player controls a battlefield they conquered.",
     "190: section under 100, 190.1: rule under 190, 199: rule under 190"),
    ("**365.** Presence on Card outside of the Board\n\n**365.1.** Passive Abilities self-describe.",
     "365: section under 100, 365.1: rule under 365"),
    ("**054.** “Can’t beats Can”\n\n**054.1.** Cards that forbid actions supersede cards that allow them.",
     "054: section under 100, 054.1: rule under 054"),
    ("**185.** Tokens are not cards.", "185: rule under 179, 199: rule under 179"),
    ("**186.** Tokens are Created on the board or the Chain and cannot exist elsewhere",
     "186: rule under 179"),
    ("- **190.** Battlefields\n- **191.** A battlefield is a Game Object.",
     "190: section under 100, 191: rule under 190"),
    ("_190._ Battlefields\n\n_191._ A battlefield is a Game Object.",
     "190: section under 100, 191: rule under 190"),
    ("__190.__ Battlefields\n\n__191.__ A battlefield is a Game Object.",
     "190: section under 100, 191: rule under 190"),
    ("190. Battlefields\n\n191. A battlefield is a Game Object.",
     "190: section under 100, 191: rule under 190"),
    ("### 191. Winning\n\n**191.** Everything Else\n\n**192.** The Controller of an object is its player.",
     "191: section under 100, 192: rule under 191"),
    ("### 193. Winning\n\n**194.** Players win Riftbound games primarily through gaining points.",
     "193: section under 100, 194: rule under 193"),
    ("**300.** Playing the Game\n\n### 301. The Turn\n\n**302.** Each turn has phases.",
     "300: chapter under -, 301: section under 300, 302: rule under 301, 199: rule under 301"),
]


def _printed(text: str) -> str:
    """The text a PDF of the Markdown prints: no list bullets, no emphasis around the ids, no
    heading marks, each paragraph one line."""
    text = re.sub(r"(?m)^[-*+] +", "", text)
    return printed_text(markdown_blocks(re.sub(r"(?m)^(_{1,2})(\d{3}[0-9a-z.]*)\1", r"\2", text)))


def _expected(said: str) -> dict:
    """``"188: section under 100, ..."`` as {sort key: (kind, parent's sort key or None)}."""
    out = {}
    for part in said.split(", "):
        number, rest = part.split(": ")
        kind, parent = rest.split(" under ")
        out[sort_key(parse_number(number))] = (kind, None if parent == "-" else sort_key(parse_number(parent)))
    return out


@pytest.mark.parametrize("printed,said", CASES, ids=[c[1] for c in CASES])
def test_a_top_level_entry_is_placed_by_its_text_in_every_layout(printed: str, said: str) -> None:
    text = BEFORE + printed + AFTER
    markdown = read_text(text, "rules.md", "riftbound-md")
    got = kinds_and_parents(markdown)
    expected = _expected(said)
    assert {k: got.get(k) for k in expected} == expected
    # the text its PDF prints, read as a PDF's text is (too short here to tell its layout)
    as_printed = read_text(_printed(text), "rules.txt", "riftbound-pdftext")
    assert [r.number for r in as_printed.rules] == [r.number for r in markdown.rules]
    assert disagreeing(markdown, as_printed) == []
