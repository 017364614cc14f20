"""The graph builder: placement, structural errors with their line, references, terms."""

import pytest

from kb.graph import build_edition, date_name_note
from kb.model import DocumentError, RawRule, ReadResult
from kb.numbers import parse_number


def raw(number: str, text: str = "", kind: str = "rule", line: int = 1, title: str = "") -> RawRule:
    return RawRule(parse_number(number), kind, text, line, title=title)  # type: ignore[arg-type]


def small_document() -> ReadResult:
    return ReadResult([
        raw("300", kind="chapter", title="Playing the Game", line=1),
        raw("337", kind="section", title="Step 1: Finalize", line=2),
        raw("337.1", "If there is at least one Chain Item Pending, finalize it. See rule 349. Playing Cards.", line=3),
        raw("337.1.a", "Finalizing an item to the chain does not pass Priority.", line=4),
        raw("337.10", "A tenth rule. See rules 337.1.a and 337.1.", line=5),
        raw("349", kind="section", title="Playing Cards", line=6),
        raw("350", "Priority is the singular exclusive right to act. See rule 999.", line=7),
    ])


def test_hierarchy_order_and_neighbours() -> None:
    rg = build_edition(small_document(), ruleset="t", edition="1")
    assert rg.ancestors("337.1.a") == ["300", "337", "337.1"]
    assert rg.rule("337").children == ["337.1", "337.10"]
    assert rg.rule("350").parent == "349"
    assert rg.previous_next("337.1.a") == ("337.1", "337.10")
    assert list(rg.subtree("337")) == ["337", "337.1", "337.1.a", "337.10"]


def test_references_resolve_both_ways_and_unresolved_ones_are_reported() -> None:
    rg = build_edition(small_document(), ruleset="t", edition="1")
    assert rg.references("337.1") == ["349"]
    assert sorted(rg.references("337.10")) == ["337.1", "337.1.a"]
    assert rg.referenced_by("337.1") == ["337.10"]
    unresolved = [r for r in rg.edition.references if not r.resolved]
    assert [(r.source, r.text) for r in unresolved] == [("350", "rule 999")]
    assert any("rule 999" in d.message and d.line == 7 for d in rg.edition.diagnostics)


def test_terms_are_defined_and_used() -> None:
    rg = build_edition(small_document(), ruleset="t", edition="1")
    assert rg.edition.terms["priority"].defined_by == ["350"]
    assert "priority" in rg.terms_used("337.1.a")


@pytest.mark.parametrize("rules,message,line", [
    ([raw("100", kind="chapter", title="A", line=1), raw("101", "x", line=2), raw("101", "y", line=9)],
     "duplicate rule number 101 (first at line 2)", 9),
    ([raw("100", kind="chapter", title="A", line=1), raw("101.2.a", "orphan", line=4)],
     "rule 101.2.a has no parent rule 101.2", 4),
])
def test_structural_errors_name_the_line(rules: list[RawRule], message: str, line: int) -> None:
    with pytest.raises(DocumentError) as err:
        build_edition(ReadResult(rules), ruleset="t", edition="1", source="doc.md")
    [diag] = err.value.diagnostics
    assert (diag.message, diag.line, diag.file) == (message, line, "doc.md")


def test_nearest_numbers_for_a_missing_rule() -> None:
    rg = build_edition(small_document(), ruleset="t", edition="1")
    assert rg.nearest(parse_number("337.2"))[0] in {"337.1", "337.10"}


# edition name, its date, read from the document?, the note's words (None: no note)
DATE_NAMES = [
    ("2006-06-01", "2004-06-01", True, "the document says it took effect on 2004-06-01, 730 days earlier"),
    ("2021-07-12", "2021-07-23", True, None),
    ("2026-01-16", "2026-01-16", True, None),
    ("2010-10-01", "2011-06-01", False, "it is dated (--date) 2011-06-01, 243 days later"),
    ("1.4", "2026-07-16", True, None),
    ("2026-02-30", "2026-01-16", True, None),
    ("2026-01-16", "", True, None),
]


@pytest.mark.parametrize("edition,date,from_document,words", DATE_NAMES)
def test_an_edition_named_by_a_date_far_from_its_own_is_noted(edition: str, date: str, from_document: bool,
                                                              words: str | None) -> None:
    note = date_name_note(edition, date, from_document, "rules.txt")
    assert (note is None) is (words is None)
    if words is not None:
        assert words in note.message and note.severity == "warning" and note.file == "rules.txt"


def test_the_note_is_among_the_editions_reader_notes() -> None:
    raw = [RawRule(parse_number("100"), "chapter", "", 1, title="General"),
           RawRule(parse_number("100.1"), "rule", "These are the rules.", 2)]
    rg = build_edition(ReadResult(raw, date="2004-06-01"), ruleset="mtg", edition="2006-06-01")
    assert rg.edition.date == "2004-06-01"
    assert [d.message for d in rg.edition.diagnostics if "named by a date" in d.message]
