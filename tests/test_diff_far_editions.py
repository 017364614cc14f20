"""The diff and the mapping between editions that are not neighbours compare the two
editions themselves (acceptance finding F11; kb/editions/mapping.py ``bridge``).

The neighbours' mappings composed break wherever an edition between lacks a rule (a lossy
import, an excerpt, a rule dropped and restored): identical rules came out removed and
added, byte-identical ones changed, and a wrong pair in one step a move neither end shows.
Every case (tests/fixtures/editions/far/cases.yaml) is three editions; the diff of the two
ends, both ways, the carried numbers (``map``, :class:`~kb.editions.queries.FollowedMapping`
as citations carry them) and the rule's history must agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kb.editions.mapping import Counterpart, EditionMapping, bridge, map_editions
from kb.editions.queries import FollowedMapping
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase
from kb.store import build

CASES = yaml.safe_load((Path(__file__).parent / "fixtures" / "editions" / "far" / "cases.yaml")
                       .read_text(encoding="utf-8"))
NAMES = ("1.0", "1.1", "1.2")
DATES = ("2026-01-01", "2026-02-01", "2026-03-01")


def far_edition(rules: dict[str, str], name: str, date: str) -> RuleGraph:
    """An edition of a case: a one-digit number is a chapter, three digits a section."""
    raw = []
    for k, (number, text) in enumerate(rules.items()):
        kind = "chapter" if len(number) == 1 else "section" if "." not in number else "rule"
        raw.append(RawRule(parse_number(number), kind, text if kind == "rule" else "", k + 1,
                           title="" if kind == "rule" else text))
    return build_edition(ReadResult(raw, []), ruleset="far", edition=name, date=date)


def case_kb(case: dict) -> KnowledgeBase:
    return KnowledgeBase.from_graphs([far_edition(rules, name, date)
                                      for rules, name, date in zip(case["editions"], NAMES, DATES)])


def counts(summary: dict) -> dict:
    return {k: summary[k] for k in ("added", "removed", "changed", "moved")}


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_diff_of_two_far_editions_compares_them(case: dict) -> None:
    kb = case_kb(case)
    assert counts(kb.diff("far", NAMES[0], NAMES[2])["summary"]) == case["counts"]
    back = case["counts"] | {"added": case["counts"]["removed"], "removed": case["counts"]["added"]}
    assert counts(kb.diff("far", NAMES[2], NAMES[0])["summary"]) == back


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_a_number_carried_far_lands_where_the_diff_says(case: dict) -> None:
    kb = case_kb(case)
    mapping = kb.edition_mapping("far", NAMES[0], NAMES[2])
    followed = FollowedMapping(kb, "far", NAMES[0], NAMES[2])
    for number, target in case["expected"].items():
        assert mapping.get(number).target == target
        assert kb.map_number("far", number, NAMES[0], NAMES[2])["target"] == target
    for number in case["editions"][0]:  # every rule, as the diff and a carried citation read it
        assert followed.get(number).target == mapping.get(number).target, number
    backwards = FollowedMapping(kb, "far", NAMES[2], NAMES[0])
    for number in case["editions"][2]:
        assert backwards.get(number).target == kb.edition_mapping("far", NAMES[2], NAMES[0]).get(number).target


def test_neighbours_are_still_compared_step_by_step() -> None:
    kb = case_kb(CASES[0])
    step = kb.edition_mapping("far", NAMES[0], NAMES[1])
    assert step.get("101.2").target is None and step.get("101.2").method == "removed"
    assert kb.diff("far", NAMES[1], NAMES[2])["summary"]["added"] == 2


def _rules(pairs: dict[str, str]) -> RuleGraph:
    return far_edition(pairs, "x", "2026-01-01")


def test_the_two_ends_overrule_a_wrong_pair_of_the_chain() -> None:
    """What 1.4 → 1.4-html → 1.4-md did to Riftbound's 806 Action: one step paired it with
    the spell keyword 159.2.a, which both ends hold at 159.2.a, so the chain moved it."""
    rules = {"1": "Concepts", "159": "Spell keywords", "159.2": "These keywords are:", "159.2.a": "Action",
             "159.2.a.1": "This spell may be played during Showdowns.",
             "8": "Keywords", "806": "Action", "806.1": "Action is a Permissive keyword.",
             "806.1.a": "It is present on Cards."}
    a, c = _rules(rules), _rules(rules)
    pairs = {n: Counterpart(n, n, 1.0, 1.0, "composed") for n in rules}
    pairs["806"] = Counterpart("806", "159.2.a", 0.56, 0.5, "composed")
    pairs["159.2.a"] = Counterpart("159.2.a", None, 0.5, 0.0, "removed")
    chain = EditionMapping("far", "x", "x", pairs, ["806"])
    bridged = bridge(chain, a, c)
    assert {n: bridged.get(n).target for n in ("806", "159.2.a")} == {"806": "806", "159.2.a": "159.2.a"}
    assert bridged.get("806").method == "kept" and bridged.added == []


def test_a_heading_kept_in_name_only_is_not_kept() -> None:
    """Magic's "General" sections at 300 or 500 held other chapters' rules before and after
    M10: the same number and title with other subrules is not by itself the same rule."""
    old = _rules({"3": "Turn Structure", "300": "General", "300.1": "A turn has five phases.",
                  "300.2": "Each phase has steps.", "5": "Card Types", "500": "General",
                  "500.1": "A card has one or more card types."})
    new = _rules({"3": "Card Types", "300": "General", "300.1": "A card has one or more card types.",
                  "5": "Turn Structure", "500": "General", "500.1": "A turn has five phases.",
                  "500.2": "Each phase has steps."})
    m = map_editions(old, new)
    assert {n: m.get(n).target for n in ("300", "500", "300.1")} == {"300": "500", "500": "300", "300.1": "500.1"}


# -- a rule's history steps over an edition that lacks it -------------------------------------

@pytest.mark.parametrize("case", CASES[:3], ids=[c["name"] for c in CASES[:3]])
def test_history_steps_over_the_edition_that_lacks_the_rule(case: dict) -> None:
    kb = case_kb(case)
    first, middle, last = case["editions"]
    missing = [n for n, text in first.items() if last.get(n) == text and text not in middle.values()]
    assert missing
    for number in missing:
        for start in (NAMES[2], NAMES[0]):  # named in the newest, then in the oldest edition
            rows = kb.history("far", number, start)["editions"]
            assert [(r["number"], r["status"]) for r in rows] == [
                (number, "present"), (None, "removed"), (number, "unchanged")], (number, start)


def _markdown(rules: dict[str, str], date: str) -> str:
    """A case's edition as Riftbound's Markdown prints one (chapters 100, 300, ...)."""
    lines = ["# Far Rules", "", f"Last Updated: {date}", ""]
    for number, text in rules.items():
        if len(number) == 1:
            continue  # the cases' chapters: the sections' own hundreds stand for them
        if "." not in number:
            chapter = number[0] + "00"
            if f"## {chapter}." not in "\n".join(lines):
                lines += [f"## {chapter}. Chapter {number[0]}", ""]
            lines += [f"### {number}. {text}", ""]
        else:
            lines += [f"**{number}.** {text}", ""]
    return "\n".join(lines)


def test_history_read_from_the_build_steps_over_it_too(tmp_path: Path) -> None:
    """The build stores neighbours' steps and texts: the stored history (kb.editions.lineage)
    answers as the graphs do."""
    case = CASES[1]
    rules = tmp_path / "rules" / "far"
    rules.mkdir(parents=True)
    toml = ['name = "far"', 'title = "Far Rules"', 'number_style = "dotted"', 'default_format = "riftbound-md"']
    for editions, name, date in zip(case["editions"], NAMES, DATES):
        (rules / f"{name}.md").write_text(_markdown(editions, date), encoding="utf-8")
        toml += ["", "[[editions]]", f'name = "{name}"', f'date = "{date}"', f'source = "{name}.md"']
    (rules / "ruleset.toml").write_text("\n".join(toml) + "\n", encoding="utf-8")
    build(tmp_path / "home", rules=tmp_path / "rules")
    kb = KnowledgeBase.open(tmp_path / "home")
    for start in (NAMES[2], NAMES[0]):
        rows = kb.history("far", "301.2", start)["editions"]
        assert [(r["number"], r["status"]) for r in rows] == [
            ("301.2", "present"), (None, "removed"), ("301.2", "unchanged")]
    rows = kb.history("far", "301.3", NAMES[2])["editions"]  # renumbered by the middle, and back
    assert [(r["number"], r["status"]) for r in rows] == [("301.3", "present"), ("301.2", "moved"), ("301.3", "moved")]
    assert counts(kb.diff("far", NAMES[0], NAMES[2])["summary"]) == case["counts"]
