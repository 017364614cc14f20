"""The mapping and diff algorithm on small hand-made editions, and word-level changes.

The synthetic ruleset (tests/fixtures/editions/rules/synthetic) has a section inserted
before Priority (everything after it is renumbered), a promoted subrule, a removed rule
whose place an unrelated rule takes, and one sentence twice in each edition.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb.editions.diff import diff_editions, reworded, select, summarise, word_ops, wording_change
from kb.editions.mapping import Counterpart, EditionMapping, compose, map_editions, normalise, similarity
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, ReadResult
from kb.numbers import parse_number
from kb.read import read_document

SYNTHETIC = Path(__file__).parent / "fixtures" / "editions" / "rules" / "synthetic"
SHIFTS = yaml.safe_load((Path(__file__).parent / "fixtures" / "editions" / "shifts" / "cases.yaml")
                        .read_text(encoding="utf-8"))


def edition(name: str) -> RuleGraph:
    files = {"1.0": "edition-1.0.md", "2.0": "edition-2.0.md", "3.0": "edition-3.0-excerpt.md"}
    result, _ = read_document(SYNTHETIC / files[name])
    return build_edition(result, ruleset="synthetic", edition=name, partial=name == "3.0")


@pytest.fixture(scope="module")
def old() -> RuleGraph:
    return edition("1.0")


@pytest.fixture(scope="module")
def new() -> RuleGraph:
    return edition("2.0")


@pytest.fixture(scope="module")
def mapping(old: RuleGraph, new: RuleGraph) -> EditionMapping:
    return map_editions(old, new)


@pytest.mark.parametrize("number,target", [
    ("101.1", "101.1"),        # unchanged
    ("101.2", "101.2"),        # its cited number followed Priority from 301.1 to 302.1
    ("301", "302"),            # a section pushed down by the inserted Turn Order
    ("301.1", "302.1"),        # pushed down and reworded
    ("301.1.a", "302.1.a"),
    ("301.1.c", "302.2"),      # promoted one level and reworded
    ("301.2", "302.3"),
    ("302.2", None),           # removed: "Tokens …" in its place is a different rule
    ("302.3", "303.3"),        # the same sentence is also 303.1 → 304.1: structure decides
    ("303.1", "304.1"),
])
def test_each_rule_finds_its_counterpart(mapping: EditionMapping, number: str, target: str | None) -> None:
    assert mapping.get(number).target == target


def test_new_rules_are_listed_as_added(mapping: EditionMapping) -> None:
    assert mapping.added == ["101.3", "301", "301.1", "303.2"]


def test_confidence_is_high_for_exact_pairs_and_lower_for_rewordings(mapping: EditionMapping) -> None:
    assert mapping.get("301.1.a").confidence == 1.0
    assert 0.5 < mapping.get("301.1.c").confidence < 1.0
    assert all(0.0 <= c.confidence <= 1.0 for c in mapping.pairs.values())


def test_identical_editions_map_every_rule_to_itself(old: RuleGraph) -> None:
    again = edition("1.0")
    m = map_editions(old, again)
    assert all(c.target == n and c.confidence > 0.8 for n, c in m.pairs.items())
    assert m.added == []


def test_inverse_and_composition(old: RuleGraph, new: RuleGraph, mapping: EditionMapping) -> None:
    back = mapping.inverse()
    assert (back.source, back.target) == ("2.0", "1.0")
    assert back.get("302.2").target == "301.1.c" and back.get("303.2").target is None
    assert back.added == ["302.2"]
    excerpt = edition("3.0")
    onward = map_editions(new, excerpt)
    composed = mapping.then(onward)
    assert composed.get("301.1.a").target == "302.1.a"
    assert composed.get("303.1").target is None and composed.partial
    with pytest.raises(ValueError):
        mapping.then(mapping)


# the confidences of the steps walked, the composed pair's confidence (None: no counterpart)
CHAINS = [
    ([0.88] * 50, 0.88),
    ([1.0, 0.6, 1.0], 0.6),
    ([0.9, 0.7], 0.7),
    ([1.0], 1.0),
]


@pytest.mark.parametrize("steps,expect", CHAINS)
def test_a_chain_of_pairs_is_as_sure_as_its_least_sure_step(steps: list[float], expect: float) -> None:
    c = Counterpart("704", "704", steps[0], 1.0, "exact")
    for conf in steps[1:]:
        c = compose(c, Counterpart("704", "704", conf, 1.0, "exact"))
    assert c.target == "704" and c.confidence == expect


def test_editions_of_different_rulesets_cannot_be_mapped(old: RuleGraph) -> None:
    other = build_edition(ReadResult([RawRule(parse_number("100"), "chapter", "", 1, title="X")]),
                          ruleset="other", edition="1")
    with pytest.raises(ValueError):
        map_editions(old, other)


def test_a_wrong_pair_is_worse_than_none() -> None:
    """Two editions whose only rules differ completely: nothing is paired."""
    def single(text: str, name: str) -> RuleGraph:
        raw = [RawRule(parse_number("100"), "chapter", "", 1, title="Rules"),
               RawRule(parse_number("100.1"), "rule", text, 2)]
        return build_edition(ReadResult(raw), ruleset="t", edition=name)
    m = map_editions(single("Mulligans are taken before the first turn.", "a"),
                     single("Tokens are created by effects and are not cards.", "b"))
    assert m.get("100.1").target is None and m.get("100").target == "100"


def shift_edition(rules: dict[str, str], chapters: list[str], name: str) -> RuleGraph:
    """An edition of a shift case: number → text, the numbers in ``chapters`` as chapters."""
    raw = [RawRule(parse_number(n), "chapter", "", k + 1, title=t) if n in chapters
           else RawRule(parse_number(n), "rule", t, k + 1) for k, (n, t) in enumerate(rules.items())]
    return build_edition(ReadResult(raw), ruleset="shifts", edition=name)


@pytest.mark.parametrize("case", SHIFTS, ids=[c["name"] for c in SHIFTS])
def test_siblings_shifted_by_an_inserted_or_removed_rule_pair_by_text(case: dict) -> None:
    chapters = case.get("chapters", [])
    m = map_editions(shift_edition(case["old"], chapters, "old"), shift_edition(case["new"], chapters, "new"))
    assert {n: m.get(n).target for n in case["expected"]} == case["expected"]


@pytest.mark.parametrize("a,b,expect", [
    ("See rule 337.1.a. “Finalize”", "see rule 349.2 \"finalize\"", 1.0),
    ("If a player has priority when he or she casts a spell",
     "If a player has priority when they cast a spell", 0.7),
])
def test_similarity_folds_numbers_quotes_and_case(a: str, b: str, expect: float) -> None:
    assert similarity(normalise(a), normalise(b)) >= expect


def test_unrelated_rules_score_low() -> None:
    a = normalise("Mulligans are taken before the first turn and cost nothing.")
    b = normalise("Tokens are created by effects and are not cards.")
    assert similarity(a, b) < 0.4


# -- word-level differences -------------------------------------------------------------

@pytest.mark.parametrize("old_text,new_text,ops", [
    ("Draw a card.", "Draw two cards.", ["equal", "replace", "equal"]),
    ("Draw a card.", "Draw a card.", ["equal"]),
    ("Draw a card.", "Draw a card. Then discard.", ["equal", "insert"]),
    ("Draw a card, then discard.", "Draw a card.", ["equal", "delete", "equal"]),
    ("Card , when", "Card, when", ["equal"]),                  # PDF spacing is not a change
    ("_Magic_ rules", "Magic rules", ["equal"]),               # 2010's italics
    ("the player’s “turn”", "the player's \"turn\"", ["equal"]),
    ("Units Gear", "units gear", ["equal"]),                   # case is not a change of wording
    ("", "New rule.", ["insert"]),
])
def test_word_ops(old_text: str, new_text: str, ops: list[str]) -> None:
    found = word_ops(old_text, new_text)
    assert [s["op"] for s in found] == ops
    assert "".join(s["old"] for s in found) == old_text
    assert "".join(s["new"] for s in found) == new_text


def test_years_and_counts_are_not_rule_numbers() -> None:
    moved = {"202": "203", "100": "101"}.get
    ops = word_ops("Updated 2025-06-02: 1000 cards.", "Updated 2025-06-02: 1000 cards.", moved, lambda n: n)
    assert [s["op"] for s in ops] == ["equal"]


def test_cited_numbers_are_compared_through_the_mapping() -> None:
    ops = word_ops("See rule 116.3. Timing", "See rule 117.3. Timing",
                   lambda n: {"116.3": "117.3"}.get(n), lambda n: n)
    assert [s["op"] for s in ops] == ["equal"]
    ops = word_ops("See rule 116.3.", "See rule 117.4.", lambda n: {"116.3": "117.3"}.get(n), lambda n: n)
    assert [s["op"] for s in ops] == ["equal", "replace", "equal"]


# old text, new text, what cited numbers become (old edition), whether the wording changed
MOVED = {"116.3": "117.3", "704.5k": "704.5j", "100": "100"}
WORDING = [
    ("Draw a card.", "Draw a card.", MOVED, False),
    ("Draw a card.", "Draw two cards.", MOVED, True),
    ("", "", MOVED, False),
    ("See rule 100, and rule 100.", "See rule 100, and rule 100.", MOVED, False),
    ("See rule 116.3.", "See rule 117.3.", MOVED, False),
    ("See rule 116.3.", "See rule 116.3.", MOVED, True),
    ("See rule 704.5k (the legend rule).", "See rule 704.5k (the legend rule).", MOVED, True),
    ("Updated 2025-06-02: 1000 cards.", "Updated 2025-06-02: 1000 cards.", MOVED, False),
    ("Rule 999 is cited as printed.", "Rule 999 is cited as printed.", MOVED, False),
]


@pytest.mark.parametrize("old_text,new_text,moved,changed", WORDING)
def test_wording_change_agrees_with_the_word_diff(old_text: str, new_text: str, moved: dict[str, str],
                                                  changed: bool) -> None:
    """The same text is the same wording, unless a number it cites now names another rule
    (the old edition's 116.3 is the new 117.3: an unchanged '116.3' points elsewhere)."""
    from_old = lambda n: moved.get(n, n)  # noqa: E731  (a number neither edition holds: as written)
    from_new = lambda n: n  # noqa: E731
    ops = wording_change(old_text, new_text, from_old, from_new)
    assert (ops is not None) is changed
    assert reworded(word_ops(old_text, new_text, from_old, from_new)) is changed
    if ops is not None:
        assert "".join(s["old"] for s in ops) == old_text and "".join(s["new"] for s in ops) == new_text


# -- the diff ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def diff(old: RuleGraph, new: RuleGraph, mapping: EditionMapping) -> dict:
    return diff_editions(old, new, mapping)


@pytest.mark.parametrize("old_number,new_number,status,reworded", [
    ("101.1", "101.1", "unchanged", False),
    ("101.2", "101.2", "unchanged", False),
    ("301.1", "302.1", "moved", True),
    ("301.1.a", "302.1.a", "moved", False),
    ("301.1.c", "302.2", "moved", True),
    ("302.2", None, "removed", True),
    (None, "303.2", "added", True),
])
def test_diff_statuses(diff: dict, old_number: str | None, new_number: str | None, status: str,
                       reworded: bool) -> None:
    found = [e for e in diff["entries"] if (e["old_number"], e["new_number"]) == (old_number, new_number)]
    assert len(found) == 1
    assert (found[0]["status"], found[0]["reworded"]) == (status, reworded)


def test_diff_lists_every_rule_once_in_the_newer_order(diff: dict, old: RuleGraph, new: RuleGraph) -> None:
    olds = [e["old_number"] for e in diff["entries"] if e["old_number"]]
    news = [e["new_number"] for e in diff["entries"] if e["new_number"]]
    assert sorted(olds) == sorted(old.edition.rules) and news == list(new.edition.rules)
    removed = next(i for i, e in enumerate(diff["entries"]) if e["status"] == "removed")
    assert diff["entries"][removed - 1]["old_number"] == "302.1"   # after the rule before it


def test_diff_counts(diff: dict) -> None:
    s = diff["summary"]
    assert (s["added"], s["removed"]) == (4, 1)
    assert s["moved"] == s["renumbered_only"] + s["moved_reworded"]
    assert s["renumbered_only"] >= 5 and s["moved_reworded"] == 2
    assert s == summarise(diff["entries"], s["old_total"], s["new_total"])
    chapters = {c["chapter"]: c for c in diff["chapters"]}
    assert set(chapters) == {"100", "300"}
    assert chapters["300"]["removed"] == 1 and chapters["100"]["added"] == 1
    assert sum(c["moved"] for c in chapters.values()) == s["moved"]


def test_moved_entries_carry_word_ops(diff: dict) -> None:
    entry = next(e for e in diff["entries"] if e["old_number"] == "301.1.c")
    assert entry["renumbered"] and entry["ops"]
    assert "".join(seg["new"] for seg in entry["ops"]) == entry["new_text"]


def test_select_by_status_and_chapter(diff: dict, old: RuleGraph, new: RuleGraph,
                                     mapping: EditionMapping) -> None:
    assert {e["status"] for e in select(diff)} == {"added", "removed", "moved"}
    assert all(e["status"] == "unchanged" for e in select(diff, only=["unchanged"]))
    under = select(diff, chapter="302", old=old, new=new, mapping=mapping)
    assert {e["new_number"] for e in under} == {"302", "302.1", "302.1.a", "302.1.b", "302.2", "302.3"}
    chain = select(diff, chapter="303", old=old, new=new, mapping=mapping)
    assert [e["old_number"] for e in chain if e["status"] == "removed"] == ["302.2"]
    with pytest.raises(ValueError):
        select(diff, chapter="302")


def test_hand_made_counterparts_round_trip() -> None:
    m = EditionMapping("r", "a", "b", {"1": Counterpart("1", "2", 0.9, 0.9, "text"),
                                       "3": Counterpart("3", None, 1.0, 0.0, "removed")}, ["4"])
    assert m.origin("2") == "1" and m.origin("4") is None
    assert m.inverse().inverse().pairs == m.pairs


def test_identical_excerpts_have_no_changes_even_where_they_cite_missing_rules() -> None:
    """An excerpt cites rules it does not hold (410.1); the same text on both sides is unchanged."""
    from kb.query import KnowledgeBase
    excerpt = Path(__file__).resolve().parent.parent / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"
    graphs = []
    for name, date in (("1.3", "2026-01-01"), ("1.4", "2026-07-16")):
        result, _ = read_document(excerpt)
        graphs.append(build_edition(result, ruleset="riftbound", edition=name, date=date, partial=True))
    summary = KnowledgeBase.from_graphs(graphs).diff("riftbound", "1.3", "1.4")["summary"]
    assert summary["changed"] == summary["added"] == summary["removed"] == summary["moved"] == 0
