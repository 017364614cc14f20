"""Variants real producers make within the layouts the readers know, and future editions.

Two tables. :data:`FIXED` holds one small inline document per repair this harness led to (a
word hyphenated before its punctuation, a date in another format, a rule a level deeper, a
web page's list items, a tab after a PDF text's id, a contents of every rule number), each with
what the read must give. :data:`bench.variants.VARIANTS` derives every variant from the
repository's excerpts (always) and the structure and wrap variants from full documents of
``../shared/corpora`` (skipped with the reason where absent), as ``python -m bench.variants``
does, and asks that each reads identical rule for rule to the canonical read, or is refused
naming its line. Each document is read once per module.
"""

from __future__ import annotations

import functools

import pytest

from bench.layouts import Canonical, canonical, excerpts
from bench.variants import DOCUMENTS, VARIANTS, Variant, judge
from kb.model import ReadResult
from kb.numbers import format_number
from kb.read import read_text
from kb.read.dates import edition_date
from kb.read.normalise import dehyphenated
from tests.conftest import CORPORA, SKIP_REASON, shared_available

MAGIC_HEAD = """Magic: The Gathering Comprehensive Rules

{date}

Contents

1. Game Concepts
100. General
Glossary
Credits

"""
MAGIC_BODY = """1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

100.2b In limited play, each deck has a minimum deck size of 40 cards.

Glossary

Two-Player Game
A game that begins with only two players. See rule 100.1a.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""
MAGIC = MAGIC_HEAD.format(date="These rules are effective as of January 16, 2026.") + MAGIC_BODY


def _rules(result: ReadResult, game: str) -> dict[str, tuple[str, str]]:
    name = (lambda n: format_number(n, "mtg")) if game == "mtg" else ".".join
    return {name(r.number): (r.kind, " ".join(r.text.split())) for r in result.rules}


# (what the producer did, lines in, lines out): words hyphenated at a line end
HYPHENATED = [
    ("the second half ends a sentence", ["in that player's side-", "board. Then more"],
     ["in that player's sideboard.", "Then more"]),
    ("the second half ends its line", ["in that player's side-", "board."],
     ["in that player's", "sideboard."]),
    ("the second half has an apostrophe", ["the active play-", "er’s turn begins"],
     ["the active player’s", "turn begins"]),
    ("a plain break, as before", ["each oppo-", "nent loses"], ["each opponent", "loses"]),
]


@pytest.mark.parametrize("what,lines,want", HYPHENATED, ids=[c[0] for c in HYPHENATED])
def test_a_word_hyphenated_at_a_line_end_is_read_whole_with_what_sticks_to_it(
        what: str, lines: list[str], want: list[str]) -> None:
    assert dehyphenated(lines)[0] == want


# (the date as a producer writes it, the ISO date read)
DATES = [
    ("These rules are effective as of January 16, 2026.", "2026-01-16"),  # the releases'
    ("These rules are current as of June 1, 2004.", "2004-06-01"),
    ("Last Updated: 2026-07-16", "2026-07-16"),
    ("Last Updated 4/29/2026", "2026-04-29"),
    ("Effective as of 2027-01-15", "2027-01-15"),
    ("Last Updated: January 15, 2027", "2027-01-15"),
    ("These rules are effective as of 15 January 2027.", "2027-01-15"),
    ("Last updated: Jan. 15th, 2027", "2027-01-15"),
    ("Effective as of 2027/01/15", "2027-01-15"),
    ("Last Updated: 2026–07–16", "2026-07-16"),  # a typesetter's en dashes
    ("Last Updated: February 30, 2027", ""),  # no such day
    ("See rule 100.1, updated in 2026.", ""),  # no date line
]


@pytest.mark.parametrize("line,want", DATES, ids=[c[0] for c in DATES])
def test_an_editions_date_is_read_in_the_formats_producers_write(line: str, want: str) -> None:
    assert edition_date(f"Some Rules\n\n{line}\n\nIntroduction") == want


@pytest.mark.parametrize("line,want", DATES[4:8], ids=[c[0] for c in DATES[4:8]])
def test_the_readers_take_the_date_from_the_new_line(line: str, want: str) -> None:
    magic = read_text(MAGIC_HEAD.format(date=line) + MAGIC_BODY, "mtg.txt")
    riftbound = read_text(RIFTBOUND.replace("Last Updated: 2026-07-16", line), "rb.md")
    assert (magic.date, riftbound.date) == (want, want)


RIFTBOUND = """# Riftbound Core Rules v9.9

Last Updated: 2026-07-16

## 100. Game Concepts

### 103. Deck Construction

**103.1.** Each player needs a Champion Legend, a Main Deck and a Rune Deck.

**103.1.a.** The Champion Legend is placed in the Legend Zone.

**103.1.a.1.** It is revealed at the start of the game.

**103.2.** The Main Deck has at least 40 cards.
"""


def test_a_magic_rule_numbered_a_level_deeper_is_read_under_its_subrule_at_its_line() -> None:
    text = MAGIC.replace("100.1b A multiplayer", "100.1a.1 A future edition's deeper rule.\n\n100.1b A multiplayer")
    result = read_text(text, "mtg.txt")
    rules = _rules(result, "mtg")
    assert rules["100.1a.1"] == ("rule", "A future edition's deeper rule.")
    assert rules["100.1a"] == ("rule", "A two-player game is a game that begins with only two players.")
    line = text.split("\n").index("100.1a.1 A future edition's deeper rule.") + 1
    assert any(d.line == line and "one level deeper" in d.message for d in result.diagnostics)


def test_a_riftbound_web_page_of_list_items_reads_no_bullet_into_the_rules() -> None:
    page = ("<!DOCTYPE html><html><body><h1>Riftbound Core Rules</h1><p>Last Updated: 2026-07-16</p>"
            "<h2>100. Game Concepts</h2><h3>103. Deck Construction</h3><ol>"
            "<li><span>103.1.</span> Each player needs a Champion Legend."
            "<ol><li><span>103.1.a.</span> The Champion Legend is placed in the Legend Zone.</li>"
            "<li><span>103.1.b.</span> It is revealed at the start of the game.</li>"
            "<li><span>103.1.c.</span> It is no card of the Main Deck.</li></ol></li>"
            "<li><span>103.2.</span> The Main Deck has at least 40 cards.</li>"
            "<li><span>103.3.</span> * A bulleted rule keeps its own bullet.</li></ol>"
            "<h3>104. Setup</h3><ol><li><span>104.1.</span> Each player shuffles their Main Deck.</li></ol>"
            "</body></html>")
    rules = _rules(read_text(page, "rb.html"), "riftbound")
    assert rules["103.1.a"] == ("rule", "The Champion Legend is placed in the Legend Zone.")
    assert rules["103.2"] == ("rule", "The Main Deck has at least 40 cards.")
    assert rules["103.3"] == ("rule", "* A bulleted rule keeps its own bullet.")
    assert rules["104.1"] == ("rule", "Each player shuffles their Main Deck.")


def test_a_pdf_texts_tab_after_the_id_reads_as_its_double_space() -> None:
    lines = ["Riftbound  Core  Rules", "Last  Updated:  2025-12-01", "100.  Game  Concepts",
             "103.  Deck  Construction", "103.1.\tEach  player  needs  a  Champion  Legend.",
             "103.1.a.\tThe  Champion  Legend  is  placed  in  the  Legend  Zone.",
             "103.1.b.\tIt  is  revealed  at  the  start  of  the  game.",
             "103.2.\tThe  Main  Deck  has  at  least  40  cards."]
    result = read_text("\n".join(lines), "rb.txt")
    assert _rules(result, "riftbound")["103.1.b"] == ("rule", "It is revealed at the start of the game.")
    assert result.date == "2025-12-01"


def test_a_magic_contents_that_repeats_every_rule_number_is_not_read_as_rules() -> None:
    listed = ["1. Game Concepts", "100. General", "100.1. These Magic rules apply",
              "100.1a A two-player game", "100.1b A multiplayer game", "100.2. To play"]
    text = MAGIC.replace("1. Game Concepts\n100. General\nGlossary", "\n".join(listed) + "\nGlossary", 1)
    result = read_text(text, "mtg.txt")
    assert _rules(result, "mtg") == _rules(read_text(MAGIC, "mtg.txt"), "mtg")
    assert any("table of contents" in d.message and d.line == 7 for d in result.diagnostics)


# -- the variants of bench.variants ------------------------------------------------------------

# The full documents each variant that changes what only a whole document holds is also derived
# from (the excerpts take every variant): the current release of each game, to keep the module
# within its CPU.
FULL_DOCUMENTS = ("comprehensive-rules-2026-01-16.txt", "core-rules-2026-07-16.md")


@functools.cache
def documents(full: bool) -> tuple[Canonical, ...]:
    """The canonical documents (read once per module)."""
    if not full:
        return tuple(excerpts())
    return tuple(canonical(game, CORPORA / rel) for game, rel in DOCUMENTS
                 if rel.rsplit("/", 1)[-1] in FULL_DOCUMENTS)


def _cases() -> list:
    cases = []
    for variant in VARIANTS:
        cases.append(pytest.param(variant, False, id=f"excerpts: {variant.name}"))
        if variant.whole:
            cases.append(pytest.param(variant, True, id=f"full: {variant.name}"))
    return cases


@pytest.mark.parametrize("variant,full", _cases())
def test_a_variant_reads_identical_rule_for_rule_or_is_refused_at_its_line(variant: Variant, full: bool) -> None:
    if full and not shared_available():
        pytest.skip(SKIP_REASON)
    verdicts = []
    for doc in documents(full):
        if doc.fmt not in variant.formats:
            continue
        made = variant.make(doc)
        if made is not None:
            verdicts.append(judge(variant, doc, made))
    misread = [f"{v.document}: {v.detail}" for v in verdicts if v.outcome == "misread"]
    assert not misread, misread
    for v in verdicts:
        if v.outcome == "refused":
            assert v.detail.startswith("line "), v.detail
