"""The mapping's evidence that is not a rule's own words: citations, defined terms and
children that pair (kb/editions/mapping.py, ``_Matcher.evidence``).

Small hand-made edition pairs (tests/fixtures/editions/evidence/cases.yaml), then the pairs
it found in the real corpora, each read in both documents (bench/RESULTS.md, Editions,
"Evidence that is not the words"); those skip without ../shared.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb.editions.mapping import map_editions
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, RawTerm, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase
from tests.conftest import requires_shared

CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "editions" / "evidence" / "cases.yaml")
                       .read_text(encoding="utf-8"))


def case_edition(rules: dict[str, str], chapters: list[str], terms: dict[str, list[str]], name: str) -> RuleGraph:
    """An edition of a case: number → text (the numbers in ``chapters`` are chapters,
    three-digit numbers sections) and a glossary of term → the rules it names."""
    raw = []
    for k, (number, text) in enumerate(rules.items()):
        kind = "chapter" if number in chapters else "section" if "." not in number else "rule"
        raw.append(RawRule(parse_number(number), kind, "" if kind != "rule" else text, k + 1,
                           title=text if kind != "rule" else ""))
    glossary = [RawTerm(term, f"See rule {', '.join(named)}.", 1000 + k, "glossary", named)
                for k, (term, named) in enumerate(terms.items())]
    return build_edition(ReadResult(raw, glossary), ruleset="evidence", edition=name)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_evidence_pairs_rules_that_kept_their_role(case: dict) -> None:
    chapters = case.get("chapters", [])
    old = case_edition(case["old"], chapters, case.get("old_terms", {}), "old")
    new = case_edition(case["new"], chapters, case.get("new_terms", {}), "new")
    m = map_editions(old, new)
    assert {n: m.get(n).target for n in case["expected"]} == case["expected"]
    for n, target in case["expected"].items():  # the reverse mapping agrees
        if target is not None:
            assert map_editions(new, old).get(target).target == n


def test_evidence_pairs_are_named_by_their_method() -> None:
    case = CASES[0]
    m = map_editions(*(case_edition(case[s], case["chapters"], case[f"{s}_terms"], s) for s in ("old", "new")))
    assert m.get("101.2").method == "evidence"


# Pairs the evidence found in the real corpora, read in both documents (null: no counterpart)
@requires_shared
@pytest.mark.parametrize("ruleset,source,target,number,expected", [
    ("mtg", "2010-10-01", "2026-01-16", "309.7", "311.7"),    # chaos abilities: the glossary's rule
    ("mtg", "2010-10-01", "2026-01-16", "702.86", "702.89"),  # Totem Armor renamed Umbra Armor
    ("mtg", "2010-10-01", "2026-01-16", "712", "723"),        # Ending the Turn -> Ending Turns and Phases
    ("mtg", "2026-01-16", "2010-10-01", "723", "712"),
    ("mtg", "2010-10-01", "2026-01-16", "513.1", None),       # the end step's triggers: its only subrule stayed
    ("mtg", "2010-10-01", "2026-01-16", "700.5", None),       # unblockable is not skulk (both cite 509)
    ("riftbound", "1.2", "1.3", "345.2.b", None),             # the staged combat, dropped in 1.3
])
def test_evidence_on_the_real_editions(full_kb: KnowledgeBase, ruleset: str, source: str, target: str,
                                       number: str, expected: str | None) -> None:
    assert full_kb.edition_mapping(ruleset, source, target).get(number).target == expected
