"""Building and importing: atomic swaps, nothing lost on failure, clear errors with a place."""

import codecs
from pathlib import Path

import pytest

from conftest import copy_home
from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.store import build, current_build, import_document, rules_dir

GOOD = """# Test Rules

Last Updated: 2026-01-01

## 100. Concepts

### 101. Basics

**102.** A Task is one or more steps. See rule 103.

**103.** Priority is the singular exclusive right to act.

**103.1.** A player who passes gives Priority away.
"""


def write(tmp: Path, name: str, text: str | bytes) -> Path:
    path = tmp / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_import_then_build_makes_the_edition_current(excerpt_home: Path, tmp_path: Path) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")  # its embedded editions' objects reused
    doc = write(tmp_path, "good.md", GOOD)
    import_document(home, doc, ruleset="test", edition="1.0")
    build(home)
    kb = KnowledgeBase.open(home)
    assert kb.rule("test", "103.1")["text"] == "A player who passes gives Priority away."
    assert kb.editions("test")[0]["date"] == "2026-01-01"


@pytest.mark.parametrize("name,content,reason,line", [
    ("empty.md", "", "the document is empty", 0),
    ("binary.md", bytes(range(256)) * 40, "unreadable encoding", 1),
    # A number printed twice or a rule without its parent is read and reported, not refused
    # (issue #19, tests/test_reader_quirks.py); a file that cannot be decoded is refused.
    ("bad-bytes.md", codecs.BOM_UTF8 + GOOD.encode() + b"\n**104.** \xff Broken.\n", "byte-order mark", 15),
    ("cut.md", (codecs.BOM_UTF16_LE + GOOD.encode("utf-16-le"))[:-1], "looks truncated", 13),
    ("prose.md", "Just some words.\nNothing numbered here.\n", "unknown document format", 1),
])
def test_a_bad_document_is_refused_with_its_place_and_nothing_is_lost(
        excerpt_home: Path, tmp_path: Path, name: str, content: str | bytes, reason: str, line: int) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")
    import_document(home, write(tmp_path, "good.md", GOOD), ruleset="test", edition="1.0")
    build(home)
    before = current_build(home)
    bad = write(tmp_path, name, content)
    with pytest.raises(DocumentError) as err:
        import_document(home, bad, ruleset="test", edition="1.0")
    diag = err.value.diagnostics[0]
    assert reason in diag.message
    assert diag.file == str(bad) and diag.line == line
    assert current_build(home) == before
    assert KnowledgeBase.open(home).rule("test", "103")["text"].startswith("Priority")
    assert (home / "imports" / "test" / "1.0" / "good.md").exists()


def test_a_build_that_fails_leaves_the_previous_build_serving(excerpt_home: Path, tmp_path: Path) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")
    import_document(home, write(tmp_path, "good.md", GOOD), ruleset="test", edition="1.0")
    build(home)
    before = current_build(home)
    # Damage the stored copy behind the importer's back: the next build must fail cleanly.
    (home / "imports" / "test" / "1.0" / "good.md").write_text("", encoding="utf-8")
    with pytest.raises(DocumentError):
        build(home)
    assert current_build(home) == before
    assert not [p for p in (home / "builds").iterdir() if p.name.startswith(".tmp-")]


@pytest.mark.parametrize("ruleset,edition", [("../evil", "1"), ("ok", "../../x"), ("Big Name", "1")])
def test_names_that_would_escape_the_data_directory_are_refused(
        tmp_path: Path, ruleset: str, edition: str) -> None:
    with pytest.raises(DocumentError, match="invalid"):
        import_document(tmp_path / "home", write(tmp_path, "good.md", GOOD), ruleset=ruleset, edition=edition)


def test_an_import_replaces_the_embedded_excerpt(excerpt_home: Path, tmp_path: Path) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")  # the embedded build, in a home of its own
    assert KnowledgeBase.open(home).editions("riftbound")[0]["partial"] is True
    import_document(home, write(tmp_path, "full.md", GOOD), ruleset="riftbound", edition="1.4")
    build(home)
    eds = {e["edition"]: (e["partial"], e["origin"]) for e in KnowledgeBase.open(home).editions("riftbound")}
    # The import replaces the 1.4 excerpt only; the embedded 1.3 excerpt stays beside it.
    assert eds == {"1.4": (False, "imported"), "1.3": (True, "embedded")}


def test_recent_builds_survive_pruning_so_servers_can_finish_with_them(tmp_path: Path) -> None:
    home = tmp_path / "home"
    import_document(home, write(tmp_path, "good.md", GOOD), ruleset="test", edition="1.0")
    first = build(home).build
    for _ in range(4):
        build(home)
    builds = sorted(p.name for p in (home / "builds").iterdir())
    assert len(builds) == 5 and first.name in builds  # superseded only seconds ago: kept
    import os
    import time
    old = time.time() - 3600
    for p in (home / "builds").iterdir():
        os.utime(p, (old, old))
    last = build(home).build
    remaining = sorted((home / "builds").iterdir(), key=lambda p: p.stat().st_mtime)
    assert len(remaining) == 3 and remaining[-1] == last and current_build(home) == last


@pytest.mark.parametrize("document,ruleset,read_as", [
    ("riftbound/core-rules-1.4-excerpt.md", "mtg", "riftbound-md"),
    ("riftbound/core-rules-1.3-excerpt.md", "mtg", "riftbound-html"),
    ("mtg/comprehensive-rules-2026-01-16-excerpt.txt", "riftbound", "mtg-text"),
])
def test_a_document_of_another_rulesets_numbering_is_refused_and_nothing_is_lost(
        excerpt_home: Path, tmp_path: Path, document: str, ruleset: str, read_as: str) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")  # the embedded build, in a home of its own
    before = current_build(home)
    source = rules_dir() / document
    with pytest.raises(DocumentError) as err:
        import_document(home, source, ruleset=ruleset, edition="2026-01-16")
    diag = err.value.diagnostics[0]
    assert read_as in diag.message and "--ruleset" in diag.message and diag.file == str(source)
    assert current_build(home) == before and not (home / "imports").exists()
