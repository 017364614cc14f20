"""What a ``rulekb`` call imports: a command that only reads a built knowledge base does not
load the document readers (python-docx, pypdf, numpy) nor the modules of other commands.

Each case runs the command as its own process (as a judge's shell does) with an ``atexit``
hook writing ``sys.modules`` to a file; the assertions are on that list, never on time.
The CPU seconds these imports cost are in bench/RESULTS.md ("CLI start-up").
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from kb.cli import COMMAND_MODULES, main

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("docx", "pypdf", "kb.read")  # the readers and their libraries (numpy below)
PROBE = ("import atexit, os, sys\n"
         "atexit.register(lambda: open(os.environ['MODULES_FILE'], 'w').write('\\n'.join(sys.modules)))\n"
         "from kb.cli import main\n"
         "sys.argv[0] = 'rulekb'\n"
         "main()\n")


def imported_by(args: list[str], home: Path, tmp_path: Path) -> tuple[int, set[str], str, str]:
    """Run ``rulekb ARGS`` in a fresh interpreter: its exit code, the modules it had
    imported when it ended, its stderr and its stdout."""
    modules = tmp_path / "modules.txt"
    env = dict(os.environ, RULEKB_HOME=str(home), MODULES_FILE=str(modules))
    done = subprocess.run([sys.executable, "-c", PROBE, *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    return done.returncode, set(modules.read_text().split("\n")), done.stderr, done.stdout


@pytest.mark.parametrize("args, not_loaded", [
    (["editions"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["stats"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["structure", "--ruleset", "riftbound"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["history", "337.2", "--ruleset", "riftbound"], ("kb.records", "kb.search", "web")),
    (["timing", "list"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["timing", "check", "--ruleset", "riftbound"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["structure", "--help"], ("kb.records", "kb.cite", "kb.search", "web")),
    (["rule", "337.2"], ("web",)),
    (["search", "showdown"], ("web",)),
    (["rulings", "list"], ("web",)),
    (["articles", "list"], ("web",)),
])
def test_a_read_only_command_loads_no_document_reader(excerpt_home: Path, tmp_path: Path,
                                                     args: list[str], not_loaded: tuple[str, ...]) -> None:
    code, modules, err, _ = imported_by(args, excerpt_home, tmp_path)
    assert code == 0, err
    assert [m for m in HEAVY + not_loaded if m in modules] == []


@pytest.mark.parametrize("args", [
    ["search", "showdown"],  # no word of it is in the one sample ruling (a Riftbound one)
    ["search", "who receives priority after a player passes", "--ruleset", "mtg"],  # no Magic ruling
])
def test_a_search_no_ruling_matches_loads_no_numpy(excerpt_home: Path, tmp_path: Path, args: list[str]) -> None:
    """bm25s (numpy) scores the rulings only when one of the ruleset shares a word with the
    question, and lemminflect (numpy) reads only an unknown English word."""
    code, modules, err, out = imported_by(args, excerpt_home, tmp_path)
    assert code == 0, err
    assert "matching" in out
    assert [m for m in ("numpy", "bm25s", "lemminflect") if m in modules] == []


@pytest.mark.parametrize("args", [
    ["editions"], ["stats"], ["timing", "list"],
    ["rule", "337.2"], ["rulings", "list"],
])
def test_a_command_that_searches_nothing_loads_no_numpy(excerpt_home: Path, tmp_path: Path,
                                                       args: list[str]) -> None:
    code, modules, err, _ = imported_by(args, excerpt_home, tmp_path)
    assert code == 0, err
    assert "numpy" not in modules


def test_import_and_its_help_still_know_the_readers(excerpt_home: Path, tmp_path: Path) -> None:
    """The readers load when a command needs their names: ``import --help`` lists the formats."""
    from kb.read import READERS
    code, modules, err, help_text = imported_by(["import", "--help"], excerpt_home, tmp_path)
    assert code == 0, err
    assert "kb.read" in modules
    assert all(fmt in help_text for fmt in READERS)


def test_a_bad_format_is_a_usage_error_naming_the_formats(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kb.read import READERS
    doc = tmp_path / "rules.md"
    doc.write_text("100. Game Concepts\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "import", str(doc),
                                       "--ruleset", "riftbound", "--edition", "9.9", "--format", "nope"])
    assert result.exit_code == 2
    assert "'nope' is not one of" in result.output
    assert all(repr(fmt) in result.output for fmt in READERS)


def test_every_command_is_registered_by_the_module_listed_for_it() -> None:
    """COMMAND_MODULES names, for each command, the module whose import registers it: a
    command missing there would be unknown to ``rulekb NAME`` until --help was shown."""
    ctx = click.Context(main)
    names = main.list_commands(ctx)  # imports every listed module
    assert sorted(names) == sorted(COMMAND_MODULES)
    for name in names:
        command = main.get_command(ctx, name)
        assert command is not None and command.callback is not None
        assert command.callback.__module__ == COMMAND_MODULES[name], name
    modules = {f"kb.cli.{p.stem}" for p in (ROOT / "kb" / "cli").glob("*.py")
               if "@main." in p.read_text(encoding="utf-8")}
    assert modules == set(COMMAND_MODULES.values())


# A rule search reads the rulings of the ruleset searched as evidence, and nothing of the
# other records: the sample article (Magic 2010-10-01) once had a Riftbound search load both
# Magic editions to resolve its citations, and every record's staleness was checked.
@pytest.mark.parametrize("ruleset, question, evidence, other", [
    ("riftbound", "everything on the chain has been finalized, who may act next", True, "mtg"),
    ("riftbound", "can I respond to a unit being played", False, "mtg"),
    ("mtg", "who receives priority after a player passes", False, "riftbound"),
])
def test_a_search_loads_only_the_editions_of_its_ruleset(excerpt_home: Path, ruleset: str, question: str,
                                                        evidence: bool, other: str) -> None:
    from kb.query import KnowledgeBase
    kb = KnowledgeBase.open(excerpt_home)
    found = kb.search(question, ruleset)
    assert found["results"], found
    cited = any("cited by ruling" in m for r in found["results"] for m in r.get("matched") or [])
    assert cited is evidence, [r.get("matched") for r in found["results"]]
    loaded = [key for key in kb.graphs._loaded if key[0] == other]  # what was read from disk
    assert loaded == [], loaded
