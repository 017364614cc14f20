"""The embedded excerpts (rules/): four editions a fresh clone builds, each enough for the
commands and pages the README shows, each cut out of its full document by
rules/make_excerpts.py and reading as that document reads."""

from __future__ import annotations

import codecs
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from kb.query import KnowledgeBase
from tests.conftest import REPO, requires_shared

EMBEDDED = [("riftbound", "1.3"), ("riftbound", "1.4"), ("mtg", "2010-10-01"), ("mtg", "2026-01-16")]
CITE = REPO / "tests" / "fixtures" / "cite"


def test_the_default_build_holds_four_partial_editions(excerpt_kb: KnowledgeBase) -> None:
    built = {(rs, e["edition"]): e["partial"] for rs in ("riftbound", "mtg") for e in excerpt_kb.editions(rs)}
    assert built == {key: True for key in EMBEDDED}


@pytest.mark.parametrize(("ruleset", "edition"), EMBEDDED)
def test_the_excerpt_lacks_no_rule_the_timing_model_cites(excerpt_kb: KnowledgeBase, ruleset: str,
                                                          edition: str) -> None:
    """What `rulekb timing check` lists for a partial edition: it must be nothing (else add
    the rules to rules/excerpts.toml and run rules/make_excerpts.py)."""
    report = excerpt_kb.timing_check(ruleset, edition)
    assert report["partial"] is True and report["ok"] is True
    assert report["lacking"] == []


@pytest.mark.parametrize(("ruleset", "number", "older", "newer", "target"), [
    ("riftbound", "337.1.c", "1.3", "1.4", "337.2"),   # resolving at once moved into its own rule
    ("riftbound", "459.2", "1.3", "1.4", "464.2"),     # combat showdown: 459 in 1.3, 464 in 1.4
    ("riftbound", "459.2.a", "1.3", "1.4", "464.2.a"),
    ("mtg", "116.3d", "2010-10-01", "2026-01-16", "117.3d"),  # Timing and Priority: 116 → 117
    ("mtg", "115.2", "2010-10-01", "2026-01-16", "116.2"),    # special actions: 115 → 116
])
def test_numbers_move_between_the_excerpts_as_between_the_full_documents(
        excerpt_kb: KnowledgeBase, ruleset: str, number: str, older: str, newer: str, target: str) -> None:
    assert excerpt_kb.map_number(ruleset, number, older, newer)["target"] == target
    assert excerpt_kb.map_number(ruleset, target, newer, older)["target"] == number


def test_history_of_a_riftbound_rule_spans_both_editions(excerpt_kb: KnowledgeBase) -> None:
    rows = {row["edition"]: row for row in excerpt_kb.history("riftbound", "337.2")["editions"]}
    assert rows["1.3"]["number"] == "337.1.c" and rows["1.4"]["number"] == "337.2"


@pytest.mark.parametrize(("article", "edition"), [
    ("lesson-passing-and-resolving.md", "1.4"), ("lesson-combat-showdown.md", "1.4")])
def test_every_citation_of_the_lessons_resolves_in_the_excerpt(excerpt_kb: KnowledgeBase, article: str,
                                                               edition: str) -> None:
    result = excerpt_kb.citations_annotate((CITE / article).read_text(encoding="utf-8"), edition=edition)
    assert result["summary"]["broken"] == 0 and result["summary"]["total"] > 20


def test_the_magic_articles_citations_resolve_in_the_2010_excerpt(excerpt_kb: KnowledgeBase) -> None:
    """The seed Magic article cites all of 116 (October 2010 numbering)."""
    numbers = ["116.1", "116.1a", "116.1b", "116.1c", "116.1d", "116.2", "116.2a", "116.2b", "116.2c",
               "116.2d", "116.2e", "116.3a", "116.3b", "116.3c", "116.3d", "116.4", "116.5", "116.7"]
    text = " ".join(f"[CR {n}]" for n in numbers)
    result = excerpt_kb.citations_lookup(text, "mtg", "2010-10-01")
    assert [c["status"] for c in result["citations"]] == ["ok"] * len(numbers)


def test_the_magic_excerpts_keep_their_published_bytes() -> None:
    """Encoding, BOM and line endings as the official releases have them."""
    new = (REPO / "rules" / "mtg" / "comprehensive-rules-2026-01-16-excerpt.txt").read_bytes()
    old = (REPO / "rules" / "mtg" / "comprehensive-rules-2010-10-01-excerpt.txt").read_bytes()
    assert new.startswith(codecs.BOM_UTF8) and new.count(b"\r") > 100 * new.count(b"\r\n") > 0
    assert b"\n" not in new.replace(b"\r\n", b"")
    assert not old.startswith(codecs.BOM_UTF8) and old.isascii()
    assert old.count(b"\r\n") == old.count(b"\n") > 1000


def test_every_embedded_excerpt_is_in_the_list_the_script_reads() -> None:
    listed = tomllib.loads((REPO / "rules" / "excerpts.toml").read_text(encoding="utf-8"))["excerpt"]
    assert {(e["ruleset"], e["edition"]) for e in listed} == set(EMBEDDED)
    for e in listed:
        assert (REPO / "rules" / e["output"]).is_file()
        manifest = tomllib.loads((REPO / "rules" / e["ruleset"] / "ruleset.toml").read_text(encoding="utf-8"))
        [entry] = [m for m in manifest["editions"] if m["name"] == e["edition"]]
        assert entry["partial"] is True and (Path(e["output"]).name == entry["source"])
        assert entry["format"] == e["format"]


@requires_shared
def test_the_committed_excerpts_are_what_the_script_makes() -> None:
    """Regenerated from ../shared, every excerpt is byte for byte the committed one, reads back
    as its full document, and the excerpts map as the full documents do."""
    done = subprocess.run([sys.executable, str(REPO / "rules" / "make_excerpts.py"), "--check"],
                          capture_output=True, text=True, timeout=240, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("kept rules map as between the full documents") == 4
