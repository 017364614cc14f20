"""Loose rule numbers an author writes for Riftbound's dotted ones, and numbers the grammar
cannot read whole (author's acceptance run: "Also see rule 337.1c3." was read as
``rule 337.1c`` and reported ok against the parent rule, the trailing 3 dropped silently).

``337.1c3``, ``337.1.c3`` and ``337.1c.3`` are all Riftbound's 337.1.c.3; a number that runs
on past what any rule number can be (a digit group of four, a letter after the head) is
read whole and so never resolves as the shorter number. On the embedded default
(Riftbound 1.3/1.4, Magic 2010-10-01/2026-01-16, excerpts).
"""

from __future__ import annotations

import pytest

from kb.cite import find_citations
from kb.cite.link import link_article, lookup
from kb.numbers import NumberError, parse_number
from kb.query import KnowledgeBase
from kb.references import find_mentions

# (written, segments parse_number reads, or None: refused)
NUMBERS: list[tuple[str, tuple[str, ...] | None]] = [
    ("337.1c3", ("337", "1", "c", "3")),
    ("337.1.c3", ("337", "1", "c", "3")),
    ("337.1c.3", ("337", "1", "c", "3")),
    ("337.1.c.3", ("337", "1", "c", "3")),
    ("rule 337.1c3.", ("337", "1", "c", "3")),
    ("464.2c1a", ("464", "2", "c", "1", "a")),
    ("116.3d", ("116", "3", "d")),
    ("337.1.a", ("337", "1", "a")),
    ("337.1c3456", None),  # a digit group of four: no segment is
    ("3371c", None),
]


@pytest.mark.parametrize("written,segments", NUMBERS)
def test_parse_number_reads_a_number_attached_to_a_letter(written: str,
                                                           segments: tuple[str, ...] | None) -> None:
    if segments is None:
        with pytest.raises(NumberError):
            parse_number(written)
    else:
        assert parse_number(written) == segments


# (text, each citation's text and canonical number, as found)
FOUND: list[tuple[str, list[tuple[str, str]]]] = [
    ("Also see rule 337.1c3.", [("rule 337.1c3", "337.1.c.3")]),
    ("Also see rule 337.1.c3.", [("rule 337.1.c3", "337.1.c.3")]),
    ("Also see rule 337.1c.3.", [("rule 337.1c.3", "337.1.c.3")]),
    ("As RULE 337.1c3 says", [("RULE 337.1c3", "337.1.c.3")]),
    ("[CR 116.3d1]", [("CR 116.3d1", "116.3.d.1")]),
    ("(337.1c3)", [("337.1c3", "337.1.c.3")]),
    ("See also 337.1c3.", [("337.1c3", "337.1.c.3")]),
    ("rules 337.1c3 and 337.1c4", [("rules 337.1c3", "337.1.c.3"), ("337.1c4", "337.1.c.4")]),
    # cut short by the grammar: read whole, the rest of the number kept with it
    ("Also see rule 337.1c3456.", [("rule 337.1c3456", "337.1.c.3456")]),
    ("rule 5x applies", [("rule 5x", "5.x")]),
    ("See also 337.1c3456 for it", [("337.1c3456", "337.1.c.3456")]),
    # unchanged
    ("rule 337.1.a's text", [("rule 337.1.a", "337.1.a")]),
    ("rule 337.1, then", [("rule 337.1", "337.1")]),
]


@pytest.mark.parametrize("text,found", FOUND)
def test_the_finder_reads_the_number_as_written(text: str, found: list[tuple[str, str]]) -> None:
    assert [(c.text, c.canonical) for c in find_citations(text)] == found


def test_rule_text_reads_the_attached_number_too() -> None:
    assert [m.numbers for m in find_mentions("See rule 337.1c3.")] == [[("337", "1", "c", "3")]]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


# (text, what each citation resolves to in Riftbound 1.3: status and number)
RESOLVED: list[tuple[str, list[tuple[str, str | None]]]] = [
    ("Also see rule 337.1c3.", [("ok", "337.1.c.3")]),
    ("Also see rule 337.1.c3.", [("ok", "337.1.c.3")]),
    ("Also see rule 337.1c.3.", [("ok", "337.1.c.3")]),
    ("Also see rule 337.1c3456.", [("not_found", None)]),  # never 337.1.c, ok
    ("Also see rule 337.1.c.", [("ok", "337.1.c")]),
]


@pytest.mark.parametrize("text,resolved", RESOLVED)
def test_a_loose_number_resolves_as_written_never_as_its_parent(
        kb: KnowledgeBase, text: str, resolved: list[tuple[str, str | None]]) -> None:
    answer = lookup(kb, text, ruleset="riftbound", edition="1.3")
    assert [(c["status"], c["number"]) for c in answer["citations"]] == resolved
    linked = link_article(kb, text, ruleset="riftbound", edition="1.3", fmt="json")
    assert [(c["status"], c["number"]) for c in linked["citations"]] == resolved


def test_a_cut_short_number_is_reported_as_written(kb: KnowledgeBase) -> None:
    answer = lookup(kb, "Also see rule 337.1c3456.", ruleset="riftbound", edition="1.3")
    (citation,) = answer["citations"]
    assert citation["text"] == "rule 337.1c3456"
    assert "337.1.c.3456" in citation["message"], citation["message"]
    assert answer["summary"]["broken"] == 1
