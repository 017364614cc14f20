"""The citation styles of an article written elsewhere (acceptance run E, F-E): the section
sign ("§ 702.2b", "§702.19b", "§§ 702.19b–d"), "see"/"see also" in any case before a rule
number ("see 601.2a-f"), and "r" before one ("r117.3b"), as the search box reads them
(kb.numbers' prefix). Each case is one line: the text, the citations' linked texts and
their numbers (segments joined by dots). Near misses stay text; rule text's references
(kb.references, which the finder shares) do not change: these forms are the article
finder's alone."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt

from kb.cite import find_citations, rule_citations
from kb.cite.find import count_phrases, may_cite
from kb.cite.mdit import ENV_KEY
from kb.numbers import parse_number

# (text, [(linked text, numbers, form)])
FOUND: list[tuple[str, list[tuple[str, list[str], str]]]] = [
    ("Deathtouch is § 702.2b.", [("§ 702.2b", ["702.2.b"], "rule")]),
    ("trample §702.19b;", [("§702.19b", ["702.19.b"], "rule")]),
    ("§\u00a0702.19b", [("§\u00a0702.19b", ["702.19.b"], "rule")]),
    ("§§ 702.19b–d", [("§§ 702.19b–d", ["702.19.b", "702.19.c", "702.19.d"], "rule")]),
    ("§§ 702.19b and 702.2b", [("§§ 702.19b", ["702.19.b"], "rule"), ("702.2b", ["702.2.b"], "rule")]),
    ("(§ 337.1.a)", [("§ 337.1.a", ["337.1.a"], "rule")]),
    ("Casting: see 601.2a-f.", [("601.2a-f", [f"601.2.{x}" for x in "abcdef"], "bare")]),
    ("SEE 116.3d", [("116.3d", ["116.3.d"], "bare")]),
    ("see also 337.1a", [("337.1a", ["337.1.a"], "bare")]),
    ("SEE ALSO 337.1a", [("337.1a", ["337.1.a"], "bare")]),
    ("see\n601.2b and 601.2f–h", [("601.2b", ["601.2.b"], "bare"),
                                  ("601.2f–h", ["601.2.f", "601.2.g", "601.2.h"], "bare")]),
    ("and r117.3b.", [("r117.3b", ["117.3.b"], "rule")]),
    ("R117.3b", [("R117.3b", ["117.3.b"], "rule")]),
    ("r. 117.3b", [("r. 117.3b", ["117.3.b"], "rule")]),
    ("r 337.1.a", [("r 337.1.a", ["337.1.a"], "rule")]),
    ("Rule 601.2a, § 601.2b (see 601.2c) r601.2d", [
        ("Rule 601.2a", ["601.2.a"], "rule"), ("§ 601.2b", ["601.2.b"], "rule"),
        ("601.2c", ["601.2.c"], "bare"), ("r601.2d", ["601.2.d"], "rule")]),
    # Read whole, as after "rule" (never resolved as the shorter 601.2a).
    ("§ 601.2a1234", [("§ 601.2a1234", ["601.2.a.1234"], "rule")]),
    ("§ 702.2b says \"Any nonzero amount\"", [("§ 702.2b", ["702.2.b"], "rule")]),
]

# A "§", "see" or "r" before no rule-shaped number (a three-digit head and a dotted part),
# or a keyword inside a word: text.
NEAR_MISSES: list[str] = [
    "§ 5", "§ 12.3", "§ 1983", "§ 337", "see 3 cards", "see 5.2", "see 2026.1", "see page 337",
    "oversee 337.1a", "foresee 601.2a", "for 117.3b", "Mr 117.3b", "car117.3b", "r2d2",
    "r 127.0.0.1", "§ 100.2.3", "see 2026-07-16", "see 10:30", "§ 100.0", "x.r117.3b",
    "see 1337.1a",
]


@pytest.mark.parametrize("text,expected", FOUND, ids=[t for t, _ in FOUND])
def test_loose_keywords_are_citations(text: str, expected: list[tuple[str, list[str], str]]) -> None:
    found = find_citations(text)
    assert [(c.text, [".".join(n) for n in c.numbers], c.form) for c in found] == expected
    assert may_cite(text)
    assert count_phrases(text) >= 1


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_stay_text(text: str) -> None:
    assert [c.text for c in find_citations(text)] == []


@pytest.mark.parametrize("written", ["§ 702.2b", "§702.19b", "r117.3b", "r. 117.3b", "R337.2"])
def test_the_search_box_reads_what_the_finder_links(written: str) -> None:
    """The two faces agree: what the linker links, kb.numbers (the search box's and the
    lookup's reading) parses to the same number."""
    (c,) = find_citations(written)
    assert c.number == parse_number(written)


def test_a_limit_counts_loose_citations_in_document_order() -> None:
    text = "§ 702.2b, then rule 601.2a, then see 116.3d."
    assert [c.text for c in find_citations(text, limit=2)] == ["§ 702.2b", "rule 601.2a"]


# Loose keywords in documents: the linker asks once of the source whether any text may hold
# one, and each inline token's content (the source less its line prefixes); a "see" or "see
# also" that ends a line of a block quote or of a list item is "see\n601.2a" in the text, as
# is one before a space and a line break, and an entity or an escape can make a keyword the
# source does not hold. (source, [(linked text, line, column, start in the source or None)])
IN_DOCUMENTS: list[tuple[str, list[tuple[str, int, int, int | None]]]] = [
    ("> Casting: see\n> 337.1a here.\n", [("337.1a", 2, 3, 17)]),
    ("> > Casting: see\n> > 337.1a here.\n", [("337.1a", 2, 5, 21)]),
    ("- an item, see\n  337.1a here\n", [("337.1a", 2, 3, 17)]),
    ("1. an item, SEE\n   337.1a here\n", [("337.1a", 2, 4, 19)]),
    ("> see also\n> 337.1a.\n", [("337.1a", 2, 3, 13)]),
    ("> see \n> 337.1a\n", [("337.1a", 2, 3, 9)]),
    ("see\n337.1a\n", [("337.1a", 2, 1, 4)]),
    ("&sect; 337.1a and\n", [("§ 337.1a", 1, 1, None)]),
    # Near misses: a hard break (two spaces) ends the text; a block quote that interrupts a
    # paragraph is a block of its own; a tab is no space before a line break.
    ("> see  \n> 337.1a\n", []),
    ("Blocked, see also\n> 337.1a.\n", []),
    ("> see\t\n> 337.1a\n", []),
    ("> oversee\n> 337.1a\n", []),
]


@pytest.mark.parametrize("source,expected", IN_DOCUMENTS, ids=[s for s, _ in IN_DOCUMENTS])
def test_loose_keywords_in_documents(excerpt_kb: Any, source: str,
                                     expected: list[tuple[str, int, int, int | None]]) -> None:
    md = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=excerpt_kb, ruleset="riftbound", edition="1.4")
    env: dict[str, Any] = {}
    md.render(source, env)
    found = [(c["text"], c["line"], c["column"], c["start"]) for c in env[ENV_KEY]["citations"]]
    assert found == expected
