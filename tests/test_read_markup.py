"""Rules kept in reStructuredText, AsciiDoc or Org mode (:mod:`kb.read.markup`).

Each case is a small document in a markup beside the same rules as the release prints them
(the printed documents of ``tests/test_read_unseen_layouts.py``, each markup's text made of
their blocks, with its own headings, definition lists and extras):
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
from tests.test_read_unseen_layouts import MAGIC, RIFTBOUND

def _between(text: str, after: str, before: str) -> str:
    """The printed text's blocks between the line ``after`` and the line ``before`` (the body
    of a section, as every markup below writes it unchanged)."""
    return text.split(f"\n{after}\n\n", 1)[1].split(f"\n\n{before}\n", 1)[0]


_TITLE, _DATE = MAGIC.split("\n\n")[:2]
_CONTENTS = _between(MAGIC, _DATE, "1. Game Concepts")
_RULES_100 = _between(MAGIC, "100. General", "101. The Magic Golden Rules")
_RULES_101 = _between(MAGIC, "101. The Magic Golden Rules", "Glossary")
_ENTRIES = [tuple(e.split("\n", 1)) for e in _between(MAGIC, "Glossary", "Credits").split("\n\n")]
_CREDITS = MAGIC.split("\nCredits\n\n", 1)[1].strip()
_RB_TITLE = RIFTBOUND.split("\n", 1)[0].removeprefix("# ")
_RB_DATE = RIFTBOUND.split("\n\n")[1]
_RB_103 = _between(RIFTBOUND, "### 103. Deck Construction", "### 104. Setup")
_RB_104 = RIFTBOUND.split("### 104. Setup\n\n", 1)[1].strip()


def _bold_once(text: str) -> str:
    """Riftbound's bold ids as AsciiDoc and Org write bold: ``*103.1.*``."""
    return text.replace("**", "*")


def _lines(*parts: str) -> str:
    return "\n\n".join(parts) + "\n"


MAGIC_RST = _lines(
    ".. contents:: Contents\n   :depth: 2", _TITLE, _DATE, _CONTENTS,
    "================\n1. Game Concepts\n================", "100. General\n------------", _RULES_100,
    "101. The Magic Golden Rules\n---------------------------", _RULES_101, "========\nGlossary\n========",
    *(f"{term}\n   {definition}" for term, definition in _ENTRIES), "=======\nCredits\n=======", _CREDITS)

RIFTBOUND_RST = _lines(
    ".. _top:", f"{'=' * len(_RB_TITLE)}\n{_RB_TITLE}\n{'=' * len(_RB_TITLE)}", _RB_DATE,
    "100. Game Concepts\n==================", "103. Deck Construction\n----------------------",
    _RB_103.replace("[E]", "\\[E\\]").replace("Legend Zone", "``Legend Zone``"), "104. Setup\n----------", _RB_104)

MAGIC_ADOC = _lines(
    ":doctype: book\n:toc: left", _TITLE, _DATE, _CONTENTS, "[[r1]]\n== 1. Game Concepts", "=== 100. General",
    "// a comment, no text\n" + _RULES_100, "=== 101. The Magic Golden Rules", _RULES_101, "== Glossary",
    f"{_ENTRIES[0][0]}:: {_ENTRIES[0][1]}", *(f"{term}::\n{definition}" for term, definition in _ENTRIES[1:]),
    "== Credits", _CREDITS)

RIFTBOUND_ADOC = _lines(
    f"= {_RB_TITLE}\n:revnumber: 9.9", _RB_DATE, "== 100. Game Concepts", "=== 103. Deck Construction",
    _bold_once(_RB_103), "=== 104. Setup", _bold_once(_RB_104))

MAGIC_ORG = _lines(
    "#+OPTIONS: toc:2 num:nil", _TITLE, _DATE, _CONTENTS,
    "* 1. Game Concepts\n:PROPERTIES:\n:CUSTOM_ID: game-concepts\n:END:", "** 100. General", _RULES_100,
    "** 101. The Magic Golden Rules", _RULES_101, "* Glossary",
    *(f"- {term} :: {definition}" for term, definition in _ENTRIES), "* Credits", _CREDITS)

RIFTBOUND_ORG = _lines(
    f"#+TITLE: {_RB_TITLE}\n# an Org comment, no text", _RB_DATE, "** 100. Game Concepts",
    "*** 103. Deck Construction", _bold_once(_RB_103), "*** 104. Setup", _bold_once(_RB_104))

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


def test_asciidoc_blanks_its_own_lines_and_keeps_a_line_of_card_symbols() -> None:
    text = "= Rules\n:toc:\n\n== 100. A\n\n=== 101. B\n\n[source,json]\n----\n[E]\n----\n// note\n[[r1]]\n[NOTE]\n"
    out = from_markup(text, "adoc")
    assert out is not None
    assert [ln for ln in out.text.split("\n") if ln] == ["# Rules", "## 100. A", "### 101. B", "[E]"]
