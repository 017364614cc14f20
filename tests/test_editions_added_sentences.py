"""A rule that only gained or lost a sentence (a "See rule …" cross-reference above all)
is the same rule, reworded, when it kept its number under paired parents (acceptance
finding F18; kb/editions/mapping.py, ``_Matcher.extends``).

Hand-made edition pairs (tests/fixtures/editions/added_sentences/cases.yaml), then the
rules it paired in the real corpora, each read in both documents (skip without ../shared).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb.editions.diff import diff_editions
from kb.editions.mapping import map_editions
from kb.graph import RuleGraph, build_edition
from kb.read import read_document
from tests.conftest import CORPORA, corpus_graph, requires_shared
from tests.test_editions_evidence import case_edition

CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "editions" / "added_sentences" / "cases.yaml")
                       .read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_rule_that_gained_a_sentence_keeps_its_counterpart(case: dict) -> None:
    old = case_edition(case["old"], [], {}, "old")
    new = case_edition(case["new"], [], {}, "new")
    forward, backward = map_editions(old, new), map_editions(new, old)
    assert {n: forward.get(n).target for n in case["expected"]} == case["expected"]
    for n, target in case["expected"].items():  # read the other way, the same pair
        if target is not None:
            assert backward.get(target).target == n


def test_the_diff_says_changed_with_the_sentence_inserted() -> None:
    case = CASES[0]
    old, new = case_edition(case["old"], [], {}, "old"), case_edition(case["new"], [], {}, "new")
    entry = next(e for e in diff_editions(old, new, map_editions(old, new))["entries"]
                 if e["old_number"] == "101.2")
    assert entry["status"] == "changed"
    assert [(op["op"], op["new"].strip()) for op in entry["ops"] if op["op"] != "equal"] == [
        ("insert", "See rule 197. Locations for more information.")]


def _edition(ruleset: str, edition: str) -> RuleGraph:
    """A real edition: one of the corpus table's, else a release of Magic's archive."""
    if ruleset == "mtg" and edition not in ("2010-10-01", "2026-01-16"):
        path = CORPORA / "mtg" / "archive" / f"comprehensive-rules-{edition}.txt"
        result, _ = read_document(path)
        return build_edition(result, ruleset="mtg", edition=edition)
    return corpus_graph(ruleset, edition)


# Pairs it made in the real corpora (bench/RESULTS.md, Editions: "A rule that only gained a sentence")
@requires_shared
@pytest.mark.parametrize("ruleset,source,target,number,expected", [
    ("riftbound", "1.3", "1.4", "107.1.b", "107.1.b"),  # + See rule 197. Locations for more information.
    ("riftbound", "1.3", "1.4", "461.2", "466.2"),      # + Reminder: Resolve any items on the chain ...
    ("mtg", "2025-09-19", "2025-11-14", "903.4a", "903.4a"),  # + If a rule or effect refers to ...
])
def test_real_rules_that_gained_a_sentence(ruleset: str, source: str, target: str, number: str,
                                           expected: str) -> None:
    m = map_editions(_edition(ruleset, source), _edition(ruleset, target))
    assert m.get(number).target == expected
