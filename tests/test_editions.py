"""Editions side by side: the mapping on the real corpora (the cases of issue 7 and the
hand-labelled samples), and the facade and CLI (diff, history, map) end to end.

The real-corpus tests skip without ../shared; the end-to-end tests build a data directory
from the small synthetic ruleset in tests/fixtures/editions/rules.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.editions.evaluate import load_sample, score
from kb.editions.mapping import EditionMapping, map_editions
from kb.graph import RuleGraph, build_edition
from kb.read import read_document
from kb.numbers import is_within, parse_number
from kb.query import KnowledgeBase, QueryError
from kb.store import build
from tests.conftest import CORPORA, requires_shared

FIXTURES = Path(__file__).parent / "fixtures" / "editions"
SAMPLES = sorted(FIXTURES.glob("*.yaml"))

# Recall floors per sample. 1.0 → 1.2 rewrote the turn and chain rules wholesale; the five
# rules the mapper leaves unpaired there are semantic rewrites ("Resolve the Chain." →
# "Step 4: Resolve") that text similarity cannot vouch for (see bench/RESULTS.md). The
# rows labelled with the evidence step (the hard cases and their neighbours) lowered the
# Magic and 1.0 → 1.2 figures: 0.933 and 0.850 measured (bench/RESULTS.md, Editions).
RECALL_FLOOR = {"riftbound-1.0-1.2.yaml": 0.84, "mtg-2010-10-01-2026-01-16.yaml": 0.92}


def _within(kb: KnowledgeBase, ruleset: str, edition: str, number: str, heading: str) -> bool:
    return is_within(parse_number(heading), kb.graphs[(ruleset, edition)].rule(number).segments)


# -- famous Magic renumberings across the archive (read by hand in both documents) ---------
# older release, newer release, a rule of the older, its counterpart in the newer (None: removed)
RENUMBERINGS = [
    ("2009-05-01", "2009-09-04", "420.5e", "704.5k"),  # the legend rule, M10
    ("2009-05-01", "2009-09-04", "420", "704"),  # State-Based Effects -> State-Based Actions
    ("2009-05-01", "2009-09-04", "420.3", "704.3"),  # checked whenever a player would get priority
    ("2009-05-01", "2009-09-04", "408.1g", None),  # combat damage no longer uses the stack
    ("2009-05-01", "2009-09-04", "502.63", "702.2"),  # Deathtouch among the 702 keywords
    ("2009-05-01", "2009-09-04", "217.6", "405"),  # the Stack zone
    ("2010-06-18", "2010-10-01", "115.3", "116.3"),  # Timing and Priority 115 -> 116 (M11)
    ("2019-06-12", "2019-10-04", "116.3", "117.3"),  # 116 -> 117: Tokens (111) inserted
    ("2017-07-07", "2017-09-25", "704.5j", None),  # the planeswalker uniqueness rule removed
    ("2017-07-07", "2017-09-25", "704.5k", "704.5j"),  # so the legend rule moves up
    ("2013-04-29", "2013-09-27", "700.6", "700.4"),  # "dies", M14
]


@functools.lru_cache(maxsize=None)
def _release(date: str) -> RuleGraph:
    """One Magic release of ../shared (the archive's, or the two kept beside it)."""
    path = CORPORA / "mtg" / "archive" / f"comprehensive-rules-{date}.txt"
    if not path.is_file():
        path = CORPORA / "mtg" / f"comprehensive-rules-{date}.txt"
    result, fmt = read_document(path)
    return build_edition(result, ruleset="mtg", edition=date, source=str(path), source_format=fmt)


@functools.lru_cache(maxsize=None)
def _step(older: str, newer: str) -> EditionMapping:
    return map_editions(_release(older), _release(newer))


@requires_shared
@pytest.mark.parametrize("older,newer,number,target", RENUMBERINGS)
def test_famous_renumberings_across_the_archive(older: str, newer: str, number: str, target: str | None) -> None:
    found = _step(older, newer).get(number)
    assert found is not None and found.target == target, found


# -- the cases named in issue 7 -----------------------------------------------------------

@requires_shared
@pytest.mark.parametrize("ruleset,number,source,target,expected", [
    ("mtg", "116.3d", "2010-10-01", "2026-01-16", "117.3d"),
    ("mtg", "116.5", "2010-10-01", "2026-01-16", "117.5"),
    ("mtg", "116", "2010-10-01", "2026-01-16", "117"),
    ("riftbound", "337.1.c", "1.3", "1.4", "337.2"),
    ("riftbound", "459", "1.3", "1.4", "464"),
    ("riftbound", "459.2.a", "1.3", "1.4", "464.2.a"),
    ("riftbound", "533", "1.0", "1.4", "328"),        # the chain, 530s in 1.0, 320s since
    ("riftbound", "337.2", "1.4", "1.3", "337.1.c"),  # backwards
])
def test_issue_cases(full_kb: KnowledgeBase, ruleset: str, number: str, source: str, target: str,
                     expected: str) -> None:
    found = full_kb.map_number(ruleset, number, source, target)
    assert found["target"] == expected
    assert found["status"] == "renumbered" and found["confidence"] >= 0.8


# Found checking the timing model's citations carried from 1.4 to 1.3, and over consecutive
# editions (bench/RESULTS.md, Editions): a rule inserted or removed shifts its siblings, and
# the shifted siblings pair by text, not by number (null: no counterpart).
@requires_shared
@pytest.mark.parametrize("ruleset,source,target,number,expected", [
    ("riftbound", "1.4", "1.3", "371", "371"),          # "once each turn", both editions
    ("riftbound", "1.4", "1.3", "371.1", None),         # new in 1.4
    ("riftbound", "1.4", "1.3", "371.2", None),         # new in 1.4: the "may" rule
    ("riftbound", "1.4", "1.3", "371.2.a", "371.1"),    # 1.3's subrules, one level down
    ("riftbound", "1.4", "1.3", "371.2.b", "371.2"),
    ("riftbound", "1.3", "1.4", "371", "371"),
    ("riftbound", "1.2", "1.3", "317.4", "317.3"),      # the next Turn Player, reworded
    ("mtg", "2026-01-16", "2010-10-01", "704.5j", "704.5k"),  # the legend rule
    ("mtg", "2010-10-01", "2026-01-16", "704.5j", None),      # planeswalker uniqueness, gone
    ("mtg", "2010-10-01", "2026-01-16", "704.5v", "704.6e"),  # Archenemy, to the variants
    ("mtg", "2026-01-16", "2010-10-01", "704.5v", None),      # battles are new
    ("mtg", "2010-10-01", "2026-01-16", "703.4b", "703.4c"),  # day/night inserted before it
])
def test_shifted_siblings_pair_by_text(full_kb: KnowledgeBase, ruleset: str, source: str, target: str,
                                       number: str, expected: str | None) -> None:
    assert full_kb.edition_mapping(ruleset, source, target).get(number).target == expected


@requires_shared
def test_every_rule_of_timing_and_priority_lands_in_117_or_is_reported_removed(full_kb: KnowledgeBase) -> None:
    old = full_kb.graphs[("mtg", "2010-10-01")]
    mapping = full_kb.edition_mapping("mtg", "2010-10-01", "2026-01-16")
    numbers = list(old.subtree("116"))
    assert len(numbers) > 20
    for number in numbers:
        c = mapping.get(number)
        assert c is not None
        if c.target is not None:
            assert _within(full_kb, "mtg", "2026-01-16", c.target, "117"), (number, c.target)
            assert c.target.replace("117", "116", 1) == number   # 116.xy became 117.xy
        else:
            assert full_kb.map_number("mtg", number, "2010-10-01", "2026-01-16")["status"] == "removed"


@requires_shared
def test_the_combat_showdown_moved_from_459_to_464(full_kb: KnowledgeBase) -> None:
    old = full_kb.graphs[("riftbound", "1.3")]
    mapping = full_kb.edition_mapping("riftbound", "1.3", "1.4")
    found = [mapping.get(n).target for n in old.subtree("459")]
    assert sum(t is not None for t in found) >= 0.8 * len(found)
    assert all(_within(full_kb, "riftbound", "1.4", t, "464") for t in found if t)


# -- the hand-labelled samples --------------------------------------------------------------

@requires_shared
@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_labelled_sample_is_well_formed(full_kb: KnowledgeBase, path: Path) -> None:
    sample = load_sample(path)
    old = full_kb.graphs[(sample.ruleset, sample.source)].edition.rules
    new = full_kb.graphs[(sample.ruleset, sample.target)].edition.rules
    assert len(sample.pairs) >= 50
    assert sum(v is None for v in sample.pairs.values()) >= 2, "a sample needs removed rules too"
    for number, target in sample.pairs.items():
        assert number in old, number
        assert target is None or target in new, target
    targets = [t for t in sample.pairs.values() if t]
    assert len(targets) == len(set(targets)), "two rules labelled with one counterpart"


@requires_shared
@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_mapping_precision_and_recall_on_labelled_sample(full_kb: KnowledgeBase, path: Path) -> None:
    sample = load_sample(path)
    mapping = full_kb.edition_mapping(sample.ruleset, sample.source, sample.target)
    result = score(mapping, sample)
    assert result.precision >= 0.95, result.errors
    assert result.recall >= RECALL_FLOOR.get(path.name, 0.95), result.errors


@requires_shared
def test_real_diff_counts_add_up(full_kb: KnowledgeBase) -> None:
    data = full_kb.diff("mtg", "2010-10-01", "2026-01-16", unchanged=True)
    s = data["summary"]
    assert s["old_total"] == s["removed"] + s["changed"] + s["moved"] + s["unchanged"]
    assert s["new_total"] == s["added"] + s["changed"] + s["moved"] + s["unchanged"]
    assert data["total"] == len(data["entries"]) == s["old_total"] + s["added"]
    entry = next(e for e in data["entries"] if e["old_number"] == "116.3c")
    assert entry["new_number"] == "117.3c" and entry["reworded"]   # "he or she casts" → "they cast"
    assert {"he or she casts ", "they cast "} <= {seg["old"] for seg in entry["ops"]} | {
        seg["new"] for seg in entry["ops"]}


@requires_shared
def test_real_history_follows_a_rule_through_four_editions(full_kb: KnowledgeBase) -> None:
    data = full_kb.history("riftbound", "464.2.a")
    rows = {r["edition"]: r for r in data["editions"]}
    assert rows["1.3"]["number"] == "459.2.a" and rows["1.4"]["status"] == "moved"
    assert not rows["1.4"]["reworded"]


# -- the facade and the CLI, end to end ------------------------------------------------------

@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("editions-home")
    build(home, rules=FIXTURES / "rules")
    return home


@pytest.fixture(scope="module")
def kb(home: Path) -> KnowledgeBase:
    return KnowledgeBase.open(home)


@pytest.fixture()
def run(home: Path):
    runner = CliRunner()

    def invoke(*args: str) -> tuple[int, str, str]:
        result = runner.invoke(main, ["--home", str(home), *args])
        return result.exit_code, result.stdout, result.stderr
    return invoke


def test_map_number_statuses(kb: KnowledgeBase) -> None:
    assert kb.map_number("synthetic", "101.1", "1.0", "2.0")["status"] == "same"
    moved = kb.map_number("synthetic", "301.1.c", "1.0", "2.0")
    assert (moved["target"], moved["status"], moved["reworded"]) == ("302.2", "renumbered", True)
    gone = kb.map_number("synthetic", "302.2", "1.0", "2.0")
    assert (gone["target"], gone["status"]) == (None, "removed")
    assert gone["nearest_target"] == {"number": "302", "target": "303"}
    # 3.0 is an excerpt: a rule it lacks is not known to be removed
    assert kb.map_number("synthetic", "101.2", "2.0", "3.0")["status"] == "unknown"
    far = kb.map_number("synthetic", "301.1.a", "1.0", "3.0")
    assert far["target"] == "302.1.a" and [p["number"] for p in far["path"]] == ["302.1.a", "302.1.a"]
    assert kb.map_number("synthetic", "302.1", "1.0", "1.0")["status"] == "same"


def test_editions_by_date(kb: KnowledgeBase) -> None:
    assert kb.map_number("synthetic", "301.1.c", "2025-06-30", "2026-02-01")["target"] == "302.2"
    data = kb.diff("synthetic", "2025-01-01", "2.0")
    assert data["from"]["edition"] == "1.0"
    assert kb.history("synthetic", "302.2", date="2026-03-01")["edition"] == "2.0"


def test_history(kb: KnowledgeBase) -> None:
    rows = kb.history("synthetic", "302.2")["editions"]
    assert [(r["edition"], r["number"], r["status"]) for r in rows] == [
        ("1.0", "301.1.c", "present"), ("2.0", "302.2", "moved"), ("3.0", None, "unknown")]
    assert rows[1]["reworded"] and rows[1]["ops"]
    rows = kb.history("synthetic", "303.2")["editions"]
    assert [r["status"] for r in rows[:2]] == ["absent", "added"]


def test_diff_filters_and_pages(kb: KnowledgeBase) -> None:
    moved = kb.diff("synthetic", "1.0", "2.0", only=["moved"])
    assert moved["total"] == moved["summary"]["moved"] and {e["status"] for e in moved["entries"]} == {"moved"}
    page = kb.diff("synthetic", "1.0", "2.0", limit=2, offset=1)
    everything = kb.diff("synthetic", "1.0", "2.0")
    assert page["entries"] == everything["entries"][1:3] and page["total"] == everything["total"]
    backwards = kb.diff("synthetic", "2.0", "1.0")
    assert backwards["summary"]["added"] == everything["summary"]["removed"]


@pytest.mark.parametrize("call,status,message", [
    (lambda kb: kb.diff("synthetic", "1.0", "9.9"), 404, "unknown edition '9.9'"),
    (lambda kb: kb.diff("synthetic", "1.0", "1.0"), 400, "the two editions are the same"),
    (lambda kb: kb.diff("synthetic", "1.0", "2.0", only=["renamed"]), 400, "unknown status"),
    (lambda kb: kb.diff("synthetic", "1.0", "2.0", chapter="999"), 404, "no chapter 999"),
    (lambda kb: kb.diff("synthetic", "1.0", "2.0", chapter="x y"), 400, "not a rule number"),
    (lambda kb: kb.diff("synthetic", "1.0", "2.0", limit=-1), 400, "must not be negative"),
    (lambda kb: kb.diff("synthetic", "2020-01-01", "2.0"), 404, "no edition of synthetic was in force"),
    (lambda kb: kb.history("synthetic", "999.9"), 404, "does not exist"),
    (lambda kb: kb.history("synthetic", "302.2", date="soon"), 400, "not a date"),
    (lambda kb: kb.history("synthetic", "302.2", date="2026-02-30"), 400, "not a calendar date"),
    (lambda kb: kb.rule("synthetic", "302.2", date="2026-02-30"), 400, "not a calendar date"),
    (lambda kb: kb.diff("synthetic", "2026-02-30", "2.0"), 400, "not a calendar date"),
    (lambda kb: kb.map_number("chess", "1", "1.0", "2.0"), 404, "unknown ruleset"),
])
def test_bad_questions_get_query_errors(kb: KnowledgeBase, call, status: int, message: str) -> None:
    with pytest.raises(QueryError) as caught:
        call(kb)
    assert caught.value.status == status and message in caught.value.message


def test_cli_diff(run) -> None:
    code, out, _ = run("diff", "-r", "synthetic", "--from", "1.0", "--to", "2.0")
    assert code == 0
    assert "4 added, 1 removed" in out
    assert "> 301.1.c → 302.2  (moved, reworded" in out and "- 302.2  Mulligans" in out
    assert "{+" in out and "[-" in out
    code, out, _ = run("diff", "-r", "synthetic", "--from", "1.0", "--to", "2.0", "--only", "added",
                       "--chapter", "300", "--json")
    data = json.loads(out)
    assert code == 0 and [e["new_number"] for e in data["entries"]] == ["301", "301.1", "303.2"]
    code, out, _ = run("diff", "-r", "synthetic", "--from", "1.0", "--to", "2.0", "--summary")
    assert code == 0 and "chapter" in out and "Mulligans" not in out


def test_cli_history_and_map(run) -> None:
    code, out, _ = run("history", "302.2", "-r", "synthetic")
    assert code == 0 and "301.1.c" in out and "moved (reworded)" in out
    code, out, _ = run("history", "302.2", "-r", "synthetic", "--json")
    assert json.loads(out)["editions"][0]["number"] == "301.1.c"
    code, out, _ = run("map", "116.5", "-r", "synthetic", "--from", "1.0", "--to", "2.0")
    assert code == 2
    code, out, _ = run("map", "301.1.a", "-r", "synthetic", "--from", "1.0", "--to", "2.0")
    assert code == 0 and "302.1.a (2.0): renumbered" in out
    code, out, _ = run("map", "302.2", "-r", "synthetic", "--from", "1.0", "--to", "2.0")
    assert "removed in 2.0" in out and "its ancestor 302 is 303" in out


# a rule without a counterpart: removed going forward, added after the edition asked going back (A30)
@pytest.mark.parametrize("number,source,target,said", [
    ("302.2", "1.0", "2.0", "302.2 (1.0) → removed in 2.0"),
    ("303.2", "2.0", "1.0", "303.2 (2.0) → not in 1.0, added after it"),
])
def test_cli_map_without_counterpart_says_which_way(run, number: str, source: str, target: str, said: str) -> None:
    code, out, _ = run("map", number, "-r", "synthetic", "--from", source, "--to", target)
    assert code == 0 and said in out


@pytest.mark.parametrize("args,message", [
    (["diff", "-r", "synthetic", "--from", "1.0", "--to", "7"], "unknown edition '7'"),
    (["history", "banana", "-r", "synthetic"], "not a rule number"),
    (["map", "302.2", "-r", "synthetic", "--from", "1.0", "--to", "2020-01-01"], "was in force"),
])
def test_cli_errors_are_one_line(run, args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2 and message in err and "Traceback" not in out + err
