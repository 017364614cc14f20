"""A ruling or article naming a ruleset or edition the knowledge base lacks is refused at the
line of that field's key (FILE:LINE), as every other bad field is, whatever the file's layout
(YAML, a list of rulings, Markdown front matter, the value quoted or on the next line), and
when it is the ruling's only problem. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_home
from kb.cli import main

RULING = ("id: r1\nquestion: Does finalizing pass priority?\nanswer: No, see rule 337.1.a.\n"
          "source: desk\ndate: 2026-04-12\n")
MARKDOWN = "---\nid: r1\nquestion: Does finalizing pass priority?\nsource: desk\ndate: 2026-04-12\n"

# (command, file name, text, the line and the start of the error said there)
CASES = [
    ("rulings", "r.yaml", RULING + "ruleset: riftbnd\nedition: '1.4'\n", 6, "ruling r1: field 'ruleset' 'riftbnd' is not a built ruleset"),
    ("rulings", "r.yaml", RULING + "ruleset: riftbound\nedition: '9.9'\n", 7, "ruling r1: field 'edition' '9.9' is not an edition of riftbound"),
    ("rulings", "r.yaml", RULING + "edition: \"9.9\"\nruleset: riftbound\n", 6, "ruling r1: field 'edition' '9.9' is not an edition"),
    ("rulings", "r.yaml", RULING + "ruleset: mtg\nedition: '1.4'\n", 7, "ruling r1: field 'edition' '1.4' is not an edition of mtg"),
    ("rulings", "r.yaml", RULING + "ruleset:\n  chess\nedition: '1'\n", 6, "ruling r1: field 'ruleset' 'chess' is not a built ruleset"),
    ("rulings", "r.yaml", "# two rulings\n- " + RULING.replace("\n", "\n  ").rstrip() + "\n  ruleset: riftbound\n  edition: '7.7'\n",
     8, "ruling r1: field 'edition' '7.7' is not an edition"),
    ("rulings", "r.md", MARKDOWN + "ruleset: chess\nedition: '1'\n---\nNo, see rule 337.1.a.\n", 6, "ruling r1: field 'ruleset' 'chess' is not a built ruleset"),
    ("rulings", "r.md", MARKDOWN + "ruleset: riftbound\nedition: '9.9'\n---\nNo.\n", 7, "ruling r1: field 'edition' '9.9' is not an edition"),
    ("articles", "a.md", "---\ntitle: Passing\nruleset: chess\n---\n# Passing\nrule 337.1\n", 3, "article a: field 'ruleset' 'chess' is not a built ruleset"),
    ("articles", "a.md", "---\ntitle: Passing\nruleset: riftbound\nedition: '9.9'\n---\nrule 337.1\n", 4, "article a: field 'edition' '9.9' is not a built edition"),
]


@pytest.fixture()
def home(excerpt_home: Path, tmp_path: Path) -> Path:
    return copy_home(excerpt_home, tmp_path / "home")


@pytest.mark.parametrize(("command", "name", "text", "line", "said"), CASES)
def test_an_unknown_ruleset_or_edition_is_said_at_its_key(home: Path, tmp_path: Path, command: str,
                                                          name: str, text: str, line: int, said: str) -> None:
    bad = tmp_path / name
    bad.write_text(text, encoding="utf-8")
    verb = "import" if command == "rulings" else "add"
    out = CliRunner().invoke(main, ["--home", str(home), command, verb, str(bad), "--no-build"])
    assert out.exit_code == 2, out.output
    assert out.stderr.splitlines() and out.stderr.splitlines()[0].startswith(f"{bad}:{line}: error: {said}"), out.stderr
