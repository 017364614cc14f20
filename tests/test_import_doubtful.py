"""``rulekb import``: a ruleset name that looks like a typo, and a doubtful document that
would become the default edition (acceptance F15, F10b).

A new ruleset is said as new, with the known ones; a name spelt like a known ruleset is
refused unless ``--new-ruleset`` confirms it. A full document the reader doubted (reader
warnings for 1 % of its rules or more, or 2 % fewer rules than the default edition) that
would become the default over a full edition is refused, nothing kept, unless
``--make-default`` says so; as an excerpt (``--partial``) or dated before the default it
imports with a note. Under the default full edition's own name ``--partial`` would replace
it: a doubtful document is refused there too, and each refusal's advice is one that keeps
the default (review V1); ``--partial --make-default`` is a usage error (review V9). The
documents are written here, in the Riftbound Markdown layout.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.store import current_build


def document(day: str, skip: frozenset[str] = frozenset(), orphans: int = 0) -> str:
    """Three chapters of two sections of ten rules each (60 rules), less ``skip``; ``orphans``
    sub-rules whose parent is missing (each a reader warning)."""
    out = ["# Test Core Rules", "", "Test Core Rules", f"Last Updated: {day}", ""]
    for chapter, title in ((100, "Game Concepts"), (200, "Turns"), (300, "Winning")):
        out += [f"## {chapter}. {title}", ""]
        for section in (chapter + 1, chapter + 2):
            out += [f"### {section}. Section {section}", ""]
            for n in range(1, 11):
                if f"{section}.{n}" not in skip:
                    out += [f"**{section}.{n}.** Rule {section}.{n} says a player does thing {n}.", ""]
    for i in range(orphans):
        out.insert(-4, f"**302.{i + 1}.c.1.** A sub-rule whose parent is not in the document.")
        out.insert(-4, "")
    return "\n".join(out) + "\n"


FULL = document("2027-01-15")
LOSSY = document("2027-06-01", frozenset({"101.4", "101.5", "101.6"}))  # 57 rules: 5 % fewer
WARNED = document("2027-06-01", orphans=3)


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data home whose builds read only its imports, holding test 1.0 (60 rules), built."""
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    monkeypatch.setenv("RULEKB_BUILD_WORKERS", "1")
    home = tmp_path / "home"
    code, output = run(home, tmp_path, FULL, "-r", "test", "-e", "1.0")
    assert code == 0 and "new ruleset 'test' (known: none)" in output, output
    return home


def run(home: Path, tmp_path: Path, text: str, *args: str) -> tuple[int, str]:
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "import", str(doc), *args])
    assert "Traceback" not in out.output
    return out.exit_code, out.output


# the document, extra options, exit code, words of the output, whether 2.0 is kept
DOUBTFUL = [
    ("clean and newer", document("2027-06-01"), (), 0, "imported doc.md as test 2.0", True),
    ("lossy and newer", LOSSY, (), 2, "test 2.0 read with 57 rules, 3 fewer than 1.0's 60: it would "
     "become the default edition over 1.0. Nothing imported", False),
    ("lossy, confirmed", LOSSY, ("--make-default",), 0, "(made the default by --make-default)", True),
    # and the build says it of the default edition
    ("lossy, built", LOSSY, ("--make-default",), 0, "note: test's default edition 2.0 was read with 57 rules, "
     "3 fewer than 1.0's 60 (see `rulekb stats`); name the edition to read another (-e 1.0)", True),
    ("lossy as an excerpt", LOSSY, ("--partial",), 0, "imported doc.md as test 2.0 (partial)", True),
    ("lossy and older", document("2026-06-01", frozenset({"101.4", "101.5", "101.6"})), (), 0,
     "note: test 2.0 read with 57 rules, 3 fewer than 1.0's 60", True),
    ("warned and newer", WARNED, (), 2, "test 2.0 read with 4 reader warnings: it would become the default", False),
    ("excerpt made the default", LOSSY, ("--partial", "--make-default"), 2,
     "--partial and --make-default conflict: an excerpt is never the default edition", False),
    ("clean made the default as an excerpt", document("2027-06-01"), ("--make-default", "--partial"), 2,
     "--partial and --make-default conflict", False),
]


def test_a_doubtful_document_replacing_the_default_edition_is_refused(home: Path, tmp_path: Path) -> None:
    got, output = run(home, tmp_path, LOSSY, "-r", "test", "-e", "1.0")
    assert got == 2, output
    assert "test 1.0 read with 57 rules, 3 fewer than 1.0's 60: it would replace the default edition 1.0" \
        in " ".join(output.split()), output
    assert "3 fewer" not in run(home, tmp_path, FULL, "-r", "test", "-e", "1.0")[1]  # the same document


@pytest.mark.parametrize(("name", "text", "extra", "code", "says", "kept"), DOUBTFUL,
                         ids=[c[0] for c in DOUBTFUL])
def test_a_doubtful_document_becomes_the_default_only_when_the_user_says(
        home: Path, tmp_path: Path, name: str, text: str, extra: tuple[str, ...], code: int, says: str,
        kept: bool) -> None:
    got, output = run(home, tmp_path, text, "-r", "test", "-e", "2.0", *extra)
    assert got == code, output
    assert says in " ".join(output.split()), output
    assert (home / "imports" / "test" / "2.0").exists() is kept
    if code == 2:
        assert "--make-default" in output and "--partial" in output


def edition_built(home: Path, ruleset: str, edition: str) -> tuple[int, bool]:
    """The rules and the partial flag of an edition in the build in service."""
    built = current_build(home)
    assert built is not None
    manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [e for e in manifest["editions"] if (e["ruleset"], e["edition"]) == (ruleset, edition)]
    return int(entry["rules"]), bool(entry["partial"])


# re-importing test 1.0 (the default, 60 rules): an older full edition imported first, the
# document, extra options, exit code, words of the output, test 1.0's rules and partial flag after
SAME_NAME = [
    ("lossy", False, LOSSY, (), 2, "it would replace the default edition 1.0. Nothing imported: check the "
     "reader's warnings (imported under another edition name with --partial, it is kept beside 1.0 as an "
     "excerpt; --make-default makes it the default anyway)", (60, False)),
    ("lossy as an excerpt", False, LOSSY, ("--partial",), 2, "test 1.0 read with 57 rules, 3 fewer than 1.0's "
     "60: as an excerpt under the same name it would replace the default edition 1.0, the only full edition "
     "of test, and its rules. Nothing imported: check the reader's warnings (import it under another edition "
     "name with --partial to keep it beside 1.0, or without --partial with --make-default to replace 1.0 as "
     "the default)", (60, False)),
    ("warned as an excerpt", False, WARNED, ("--partial",), 2, "test 1.0 read with 4 reader warnings: as an "
     "excerpt under the same name it would replace the default edition 1.0, the only", (60, False)),
    ("lossy as an excerpt, another full edition", True, LOSSY, ("--partial",), 2,
     "it would replace the default edition 1.0 and its rules. Nothing imported", (60, False)),
    ("clean as an excerpt", False, FULL, ("--partial",), 0, "imported doc.md as test 1.0 (partial)", (60, True)),
    ("lossy, confirmed", False, LOSSY, ("--make-default",), 0, "(made the default by --make-default)",
     (57, False)),
]


@pytest.mark.parametrize(("name", "older", "text", "extra", "code", "says", "after"), SAME_NAME,
                         ids=[c[0] for c in SAME_NAME])
def test_a_doubtful_document_under_the_default_editions_name_keeps_it(
        home: Path, tmp_path: Path, name: str, older: bool, text: str, extra: tuple[str, ...], code: int,
        says: str, after: tuple[int, bool]) -> None:
    if older:
        assert run(home, tmp_path, document("2026-01-15"), "-r", "test", "-e", "0.9")[0] == 0
    got, output = run(home, tmp_path, text, "-r", "test", "-e", "1.0", *extra)
    assert got == code, output
    assert says in " ".join(output.split()), output
    assert edition_built(home, "test", "1.0") == after
    if older:
        assert "the only full edition" not in output


# the ruleset named, extra options, exit code, words of the output
NAMES = [
    ("test", (), 0, "imported doc.md as test 2.0"),
    ("tests", (), 2, "new ruleset 'tests' (known: test): did you mean 'test'? Nothing imported; "
     "pass --new-ruleset to create 'tests'"),
    ("tset", (), 2, "did you mean 'test'?"),
    ("tests", ("--new-ruleset",), 0, "new ruleset 'tests' (known: test)"),
    ("other", (), 0, "new ruleset 'other' (known: test)"),
]


@pytest.mark.parametrize(("ruleset", "extra", "code", "says"), NAMES)
def test_a_new_ruleset_is_said_and_a_typo_refused(home: Path, tmp_path: Path, ruleset: str,
                                                  extra: tuple[str, ...], code: int, says: str) -> None:
    got, output = run(home, tmp_path, document("2027-06-01"), "-r", ruleset, "-e", "2.0", "--no-build", *extra)
    assert got == code, output
    assert says in " ".join(output.split()), output
    assert (home / "imports" / ruleset / "2.0").exists() is (code == 0)
