"""A ruling's every bad field is said at once, each on its line; each list's warnings are its own;
an article's warning names the file it was imported from (acceptance A30).

`rulekb rulings import bad.yaml` named only the bad date ('2026-13-01') and not the unknown edition
'7.7' beside it (the edition was checked only for rulings whose fields all read); `rulings check`
printed an article's date warning among the rulings; `articles check` named the data home's copy
(…/records/articles/x.md:1) where `articles add` had named the file imported and the date's line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_home
from kb.cli import main

GOOD = {"id": "ok", "question": "Does finalizing pass priority?", "answer": "No, see rule 337.1.a.",
        "source": "desk", "date": "2026-04-12", "ruleset": "riftbound", "edition": "'1.4'"}


def _yaml(**changed: str) -> str:
    """A ruling's YAML, one field a line in GOOD's order (id on line 1 … edition on line 7)."""
    fields = {**GOOD, **changed}
    return "".join(f"{k}: {v}\n" for k, v in fields.items() if v is not None)


# the ruling's changed fields, each error line expected (file:line: error: …), in order
CASES = [
    ({"date": "'2026-13-01'", "edition": "'7.7'"},
     [":5: error: field 'date' '2026-13-01' is not a calendar date",
      ":7: error: ruling ok: field 'edition' '7.7' is not an edition of riftbound (editions: 1.3, 1.4)"]),
    ({"id": "BAD", "ruleset": "nosuch"},
     [":1: error: field 'id' 'BAD' must be lower-case",
      ":6: error: ruling BAD: field 'ruleset' 'nosuch' is not a built ruleset (rulesets: mtg, riftbound)"]),
    ({"date": "x", "ruleset": "mtg", "edition": "'1.4'"},
     [":5: error: field 'date' 'x' is not a date",
      ":7: error: ruling ok: field 'edition' '1.4' is not an edition of mtg"]),
    ({"source": "''", "edition": "'9.9'"},
     [":4: error: field 'source' is missing",
      ":7: error: ruling ok: field 'edition' '9.9' is not an edition of riftbound"]),
    ({"date": "'2026-13-01'"}, [":5: error: field 'date' '2026-13-01' is not a calendar date"]),  # edition fine: said once
]


@pytest.fixture()
def home(excerpt_home: Path, tmp_path: Path) -> Path:
    return copy_home(excerpt_home, tmp_path / "home")


@pytest.mark.parametrize(("changed", "lines"), CASES)
def test_every_bad_field_is_said_on_its_line(home: Path, tmp_path: Path, changed: dict[str, str],
                                             lines: list[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(_yaml(**changed), encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "rulings", "import", str(bad), "--no-build"])
    assert out.exit_code == 2, out.output
    said = [line.removeprefix(str(bad)) for line in out.stderr.splitlines()]
    assert len(said) == len(lines), out.stderr
    for got, want in zip(said, lines):
        assert got.startswith(want), (got, want)


def test_a_list_names_each_ruling_and_its_lines(home: Path, tmp_path: Path) -> None:
    bad = tmp_path / "two.yaml"
    first = _yaml(date="'2026-13-01'", edition="'7.7'")
    bad.write_text("".join(("- " if i == 0 else "  ") + line + "\n"
                           for text in (first, _yaml(id="two", ruleset="nosuch"))
                           for i, line in enumerate(text.splitlines())), encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "rulings", "import", str(bad), "--no-build"])
    assert out.exit_code == 2
    assert f"{bad}:5: error: ruling 1: field 'date' '2026-13-01'" in out.stderr
    assert f"{bad}:7: error: ruling 1: field 'edition' '7.7' is not an edition of riftbound" in out.stderr
    assert f"error: ruling two: field 'ruleset' 'nosuch' is not a built ruleset" in out.stderr


def test_each_check_says_its_own_records_warnings_named_by_the_file_imported(home: Path, tmp_path: Path) -> None:
    article = tmp_path / "x.md"
    article.write_text('---\ntitle: Passing\nruleset: riftbound\nedition: "1.4"\ndate: 2026-13-01\n---\n\n'
                       "Per rule 337.1a, finalizing keeps priority.\n", encoding="utf-8")
    runner = CliRunner()
    added = runner.invoke(main, ["--home", str(home), "articles", "add", str(article), "--no-build"])
    assert added.exit_code == 0, added.output
    warning = f"{article}:5: warning: field 'date' '2026-13-01' is not a calendar date"
    assert warning in added.stderr
    articles = runner.invoke(main, ["--home", str(home), "articles", "check"])
    assert warning in articles.stderr and "records/articles/x.md" not in articles.stderr
    rulings = runner.invoke(main, ["--home", str(home), "rulings", "check"])
    assert "2026-13-01" not in rulings.output and "x.md" not in rulings.output
