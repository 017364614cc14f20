"""``rulekb import --partial`` under the name of a full edition that is not the default.

The doubt check (tests/test_import_doubtful.py) covered the default full edition's own name
only: an excerpt imported as an older full edition replaced it silently (test 1.0, 60 rules,
became an excerpt of 57, exit 0). A doubtful document (reader warnings, or fewer rules than
the edition it replaces) is now refused there too, nothing imported; a clean one is imported
as the excerpt asked, saying the full edition it replaces. An excerpt's own name, and a new
name, import as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_import_doubtful import FULL, LOSSY, WARNED, document, edition_built, run


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data home reading only its imports: test 1.0 (60 rules, full) and the default, test
    2.0 (60 rules, full, newer), and the excerpt test 0.5, built."""
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    monkeypatch.setenv("RULEKB_BUILD_WORKERS", "1")
    home = tmp_path / "home"
    for text, name, extra in ((FULL, "1.0", ()), (document("2027-06-01"), "2.0", ()),
                              (document("2026-01-15"), "0.5", ("--partial",))):
        code, output = run(home, tmp_path, text, "-r", "test", "-e", name, *extra)
        assert code == 0, output
    return home


# the edition named, the document, exit code, words of the output, that edition's rules and partial flag after
CASES = [
    ("1.0", LOSSY, 2, "test 1.0 read with 57 rules, 3 fewer than 1.0's 60: as an excerpt under the same name it "
     "would replace the full edition 1.0 (not the default, 2.0) and its rules. Nothing imported", (60, False)),
    ("1.0", LOSSY, 2, "import it under another edition name with --partial to keep it beside 1.0", (60, False)),
    ("1.0", WARNED, 2, "test 1.0 read with 4 reader warnings: as an excerpt under the same name", (60, False)),
    ("1.0", FULL, 0, "note: test 1.0 was a full edition (60 rules); it is now the excerpt imported (60 rules)",
     (60, True)),
    ("0.5", LOSSY, 0, "imported doc.md as test 0.5 (partial)", (57, True)),  # an excerpt's place: as before
    ("1.5", LOSSY, 0, "imported doc.md as test 1.5 (partial)", (57, True)),  # a new name: beside the others
]


@pytest.mark.parametrize(("edition", "text", "code", "says", "after"), CASES)
def test_an_excerpt_under_a_full_editions_name(home: Path, tmp_path: Path, edition: str, text: str, code: int,
                                               says: str, after: tuple[int, bool]) -> None:
    got, output = run(home, tmp_path, text, "-r", "test", "-e", edition, "--partial")
    assert got == code, output
    assert says in " ".join(output.split()), output
    assert edition_built(home, "test", edition) == after
    assert edition_built(home, "test", "2.0") == (60, False)  # the default is untouched throughout


def test_the_advice_given_imports(home: Path, tmp_path: Path) -> None:
    got, output = run(home, tmp_path, LOSSY, "-r", "test", "-e", "1.0")  # without --partial, as advised
    assert got == 0, output
    assert edition_built(home, "test", "1.0") == (57, False)


# Without --partial, a document under the name of a full edition that is not the default is
# measured against that edition (the one replaced), not the default. test 1.0 and the default
# test 2.0 differ in size: 1.0's rules, 2.0's, the document's rules, what is said (None: no note).
REPLACED = [
    (60, 55, 57, "note: test 1.0 read with 57 rules, 3 fewer than 1.0's 60 (it replaces the full edition 1.0; "
                 "the default stays 2.0)"),   # 57 is more than 2.0's 55: said only against 1.0
    (57, 60, 57, None),                       # 3 fewer than 2.0, none fewer than the 1.0 it replaces
    (60, 60, 60, None),
]


def _sized(day: str, rules: int) -> str:
    return document(day, frozenset(f"101.{n}" for n in range(10, 10 - (60 - rules), -1)))


@pytest.mark.parametrize(("old", "default", "new", "says"), REPLACED)
def test_a_full_import_over_an_older_full_edition_is_measured_against_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: int, default: int, new: int, says: str | None) -> None:
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    monkeypatch.setenv("RULEKB_BUILD_WORKERS", "1")
    home = tmp_path / "home"
    for text, name, extra in ((_sized("2027-01-15", old), "1.0", ()),
                              (_sized("2027-06-01", default), "2.0", ("--make-default",))):
        code, output = run(home, tmp_path, text, "-r", "test", "-e", name, *extra)
        assert code == 0, output
    code, output = run(home, tmp_path, _sized("2027-01-15", new), "-r", "test", "-e", "1.0")
    assert code == 0, output
    said = " ".join(output.split())
    if says is None:
        assert "note: test 1.0 read with" not in said, output
    else:
        assert says in said, output
    assert edition_built(home, "test", "1.0") == (new, False)
    assert edition_built(home, "test", "2.0") == (default, False)  # the default untouched
