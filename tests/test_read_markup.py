"""Rules kept in reStructuredText, AsciiDoc or Org mode (:mod:`kb.read.markup`).

Each case is a small document in a markup beside the same rules as the release prints them:
both must read to the same rules (number, kind, title, text, examples, parent) and glossary,
and the markup's read says what it was read as. Texts that only look like a markup (Markdown's
setext headings, its ``*`` list items) are left to the readers as they are. The same layouts
derived from the excerpts and the full documents run in ``tests/test_read_unseen_layouts.py``
(``bench.layouts.BROUGHT``).
"""

from __future__ import annotations

import pytest

from bench.layouts import fingerprint
from kb.read import read_text
from kb.read.markup import from_markup

MAGIC = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

Example: A deck of sixty permanently assembled cards is legal.

101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

Glossary

Abandon
To turn a face-up ongoing scheme card face down. See rule 701.31, “Abandon.”

Two-Player Game
A game that begins with only two players. See rule 100.1a.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""

RIFTBOUND = """# Riftbound Core Rules v9.9

Last Updated: 2026-07-16

## 100. Game Concepts

### 103. Deck Construction

**103.1.** Each player needs a Champion Legend, a Main Deck and a Rune Deck.

**103.1.a.** The Champion Legend is placed in the Legend Zone.

**103.1.b.** A Main Deck has at least 40 cards. Exhausting a card is shown as [E].

**103.1.b.1.** Duplicates of a card are limited to three copies.

### 104. Setup

**104.1.** Each player places their Champion Legend and shuffles their Main Deck.
"""

MAGIC_RST = """.. contents:: Contents
   :depth: 2

Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

================
1. Game Concepts
================

100. General
------------

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

Example: A deck of sixty permanently assembled cards is legal.

101. The Magic Golden Rules
---------------------------

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

========
Glossary
========

Abandon
   To turn a face-up ongoing scheme card face down. See rule 701.31, “Abandon.”

Two-Player Game
   A game that begins with only two players. See rule 100.1a.

=======
Credits
=======

Magic: The Gathering Original Game Design: Richard Garfield
"""

RIFTBOUND_RST = """.. _top:

=========================
Riftbound Core Rules v9.9
=========================

Last Updated: 2026-07-16

100. Game Concepts
==================

103. Deck Construction
----------------------

**103.1.** Each player needs a Champion Legend, a Main Deck and a Rune Deck.

**103.1.a.** The Champion Legend is placed in the ``Legend Zone``.

**103.1.b.** A Main Deck has at least 40 cards. Exhausting a card is shown as \\[E\\].

**103.1.b.1.** Duplicates of a card are limited to three copies.

104. Setup
----------

**104.1.** Each player places their Champion Legend and shuffles their Main Deck.
"""

MAGIC_ADOC = """:doctype: book
:toc: left

Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

[[r1]]
== 1. Game Concepts

=== 100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

// a comment, no text
100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

Example: A deck of sixty permanently assembled cards is legal.

=== 101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

== Glossary

Abandon:: To turn a face-up ongoing scheme card face down. See rule 701.31, “Abandon.”

Two-Player Game::
A game that begins with only two players. See rule 100.1a.

== Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""

RIFTBOUND_ADOC = """= Riftbound Core Rules v9.9
:revnumber: 9.9

Last Updated: 2026-07-16

== 100. Game Concepts

=== 103. Deck Construction

*103.1.* Each player needs a Champion Legend, a Main Deck and a Rune Deck.

*103.1.a.* The Champion Legend is placed in the Legend Zone.

*103.1.b.* A Main Deck has at least 40 cards. Exhausting a card is shown as [E].

*103.1.b.1.* Duplicates of a card are limited to three copies.

=== 104. Setup

*104.1.* Each player places their Champion Legend and shuffles their Main Deck.
"""

MAGIC_ORG = """#+OPTIONS: toc:2 num:nil

Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

* 1. Game Concepts
:PROPERTIES:
:CUSTOM_ID: game-concepts
:END:

** 100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

Example: A deck of sixty permanently assembled cards is legal.

** 101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

* Glossary

- Abandon :: To turn a face-up ongoing scheme card face down. See rule 701.31, “Abandon.”

- Two-Player Game :: A game that begins with only two players. See rule 100.1a.

* Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""

RIFTBOUND_ORG = """#+TITLE: Riftbound Core Rules v9.9
# an Org comment, no text

Last Updated: 2026-07-16

** 100. Game Concepts

*** 103. Deck Construction

*103.1.* Each player needs a Champion Legend, a Main Deck and a Rune Deck.

*103.1.a.* The Champion Legend is placed in the Legend Zone.

*103.1.b.* A Main Deck has at least 40 cards. Exhausting a card is shown as [E].

*103.1.b.1.* Duplicates of a card are limited to three copies.

*** 104. Setup

*104.1.* Each player places their Champion Legend and shuffles their Main Deck.
"""

PAIRS = [
    ("Magic as reStructuredText", MAGIC_RST, MAGIC, "reStructuredText"),
    ("Riftbound as reStructuredText", RIFTBOUND_RST, RIFTBOUND, "reStructuredText"),
    ("Magic as AsciiDoc", MAGIC_ADOC, MAGIC, "AsciiDoc"),
    ("Riftbound as AsciiDoc", RIFTBOUND_ADOC, RIFTBOUND, "AsciiDoc"),
    ("Magic as Org mode", MAGIC_ORG, MAGIC, "Org mode"),
    ("Riftbound as Org mode", RIFTBOUND_ORG, RIFTBOUND, "Org mode"),
]


@pytest.mark.parametrize("name,markup,printed,markup_name", PAIRS, ids=[p[0] for p in PAIRS])
def test_a_markup_reads_as_the_printed_rules(name: str, markup: str, printed: str, markup_name: str) -> None:
    want = read_text(printed, "printed")
    got = read_text(markup, name)
    assert fingerprint(got) == fingerprint(want)
    assert got.date == want.date and got.date
    assert any(markup_name in d.message and d.severity == "info" for d in got.diagnostics)


@pytest.mark.parametrize("name,markup,printed,markup_name", PAIRS, ids=[p[0] for p in PAIRS])
def test_a_rule_keeps_its_line_in_the_markup(name: str, markup: str, printed: str, markup_name: str) -> None:
    lines = markup.split("\n")
    for rule in read_text(markup, name).rules:
        assert rule.raw_id.rstrip(".") in lines[rule.line - 1], (rule.raw_id, rule.line)


NOT_MARKUP = [
    ("Markdown with setext headings", "Rules\n=====\n\n100. General\n------------\n\n101. Golden\n-----------\n\n"
     "102. Players\n------------\n\n100.1. A rule.\n"),
    ("Markdown list items at a line's start", "# Rules\n\n* 100.1. One.\n* 100.2. Two.\n* 100.3. Three.\n"),
    ("Markdown bold ids", "**100.1.** One.\n\n**100.2.** Two.\n\n**100.3.** Three.\n"),
    ("a text with horizontal rules", "Rules\n\n***\n\n100.1. One.\n\n***\n\n100.2. Two.\n\n***\n"),
    ("Magic as released", MAGIC),
    ("Riftbound as released", RIFTBOUND),
]


@pytest.mark.parametrize("name,text", NOT_MARKUP, ids=[c[0] for c in NOT_MARKUP])
def test_a_text_in_no_such_markup_is_left_as_it_is(name: str, text: str) -> None:
    assert from_markup(text, name) is None


RST_DEPTHS = [
    # reStructuredText's depth is the order in which a style first appears, whatever it is
    ("'-' first", "Alpha\n-----\n\nBeta\n====\n\nGamma\n~~~~~\n", ["# Alpha", "## Beta", "### Gamma"]),
    ("overlined '=' apart from underlined '='", "=====\nAlpha\n=====\n\nBeta\n====\n\nGamma\n=====\n",
     ["# Alpha", "## Beta", "## Gamma"]),
]


@pytest.mark.parametrize("name,text,headings", RST_DEPTHS, ids=[c[0] for c in RST_DEPTHS])
def test_rst_titles_take_their_depth_from_the_order_styles_appear(name: str, text: str, headings: list[str]) -> None:
    out = from_markup(text, name)
    assert out is not None
    assert [ln for ln in out.text.split("\n") if ln.startswith("#")] == headings
