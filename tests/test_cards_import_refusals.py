"""``rulekb cards import`` refuses a card file that would lose or hide cards, and keeps the list
it had: a quote left open (which the csv module would otherwise read as one field running to the
end of the file, one garbage card replacing the whole list), a header without the name or type
column, a card without a type, a field running over lines. One case a line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

GOOD = "name,type,keywords,text\nLantern Warden,Unit,Ambush,Ready a unit.\nQuiet Ledger,Spell,,Draw 1.\n"

# (file content, what the refusal names: the file's line and the problem)
REFUSED = [
    ('name,type\n"unterminated,Unit\n', "bad.csv:2: error: not CSV: unterminated quote"),
    ('name,type\nA,Unit\nB,Unit\n"C,Spell\nD,Unit\n', "bad.csv:4: error: not CSV: unterminated quote"),
    ('name,type,text\n"A\nB",Unit,x\n', "bad.csv:2: error: field name: runs over lines 2-3"),
    ('name,type\n"A"b,Unit\n', "bad.csv:2: error: not CSV: ',' expected after '\"'"),
    ('"name,type\nA,Unit\n', "bad.csv:1: error: not CSV: unterminated quote"),
    ("name,keywords,text\nA,Ambush,x\n", "bad.csv:1: error: no column type"),
    ("type,text\nUnit,x\n", "bad.csv:1: error: no column name"),
    ("name,kind\nA,Unit\n", "bad.csv:1: error: unknown column kind; no column type"),
    ("name,type,keywords,text\nA,,Ambush,x\n", "bad.csv:2: error: field type: a card needs a type"),
    ("name,type,keywords,text\nA,Unit,,\nB,  ,,\n", "bad.csv:3: error: field type: a card needs a type"),
]


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    """A data home holding two cards imported from a good file."""
    good = tmp_path / "good.csv"
    good.write_text(GOOD, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "cards", "import", str(good)])
    assert out.exit_code == 0, out.output
    return tmp_path / "home"


def listed(home: Path) -> list[str]:
    out = CliRunner().invoke(main, ["--home", str(home), "cards", "list", "--json"])
    assert out.exit_code == 0, out.output
    return [c["name"] for c in json.loads(out.output)["cards"]]


@pytest.mark.parametrize("content, message", REFUSED)
def test_a_bad_card_file_is_refused_and_the_list_is_kept(home: Path, tmp_path: Path, content: str,
                                                         message: str) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text(content, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "cards", "import", str(bad)])
    assert out.exit_code == 2, out.output
    assert message in out.output and "Traceback" not in out.output
    assert listed(home) == ["Lantern Warden", "Quiet Ledger"]


# (file name, content, a line the import prints)
ACCEPTED = [
    ("plain.csv", GOOD, "imported 2 cards of riftbound"),
    ("two.csv", "name,type\nA,Unit\n", "note: the file has no keywords or text columns"),
    ("one.csv", "name,type,text\nA,Unit,x\n", "note: the file has no keywords column"),
    ("multiline.csv", 'name,type,text\nA,Unit,"Line one.\nLine two."\n', "imported 1 card"),
    ("typed.json", json.dumps([{"name": "A", "type": "Gear"}]), "imported 1 card"),
]


@pytest.mark.parametrize("name, content, line", ACCEPTED)
def test_a_good_card_file_is_imported(home: Path, tmp_path: Path, name: str, content: str,
                                      line: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "cards", "import", str(path)])
    assert out.exit_code == 0, out.output
    assert line in out.output


def test_a_json_card_without_a_type_is_refused(home: Path, tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text(json.dumps([{"name": "A", "type": "Unit"}, {"name": "B", "type": ""}]), "utf-8")
    out = CliRunner().invoke(main, ["--home", str(home), "cards", "import", str(path)])
    assert out.exit_code == 2 and "card 2: field type: a card needs a type" in out.output
    assert listed(home) == ["Lantern Warden", "Quiet Ledger"]
