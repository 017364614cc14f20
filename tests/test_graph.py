"""The graph builder: placement, structural errors with their line, references, terms."""

import pytest

from kb.graph import build_edition
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
