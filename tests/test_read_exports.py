"""Rules another tool exported as data (kb/read/exports.py): a JSON document or a CSV / TSV
table, each case beside the same rules as the release prints them, which must read to the
same rules (number, kind, title, text, examples, parent) and glossary; and the exports that
cannot be read, refused at their line. The whole documents so exported are
:data:`bench.layouts.BROUGHT`'s JSON and CSV layouts (tests/test_read_unseen_layouts.py).
"""

from __future__ import annotations

import json

import pytest

from bench.layouts import fingerprint
from kb.model import DocumentError
from kb.read import read_bytes, read_text
from kb.read.exports import exported

MAGIC = """Magic: The Gathering Comprehensive Rules

1. Game Concepts

100. General

100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck of traditional Magic cards.

Example: A deck of sixty cards is legal.

100.2a In constructed play, each deck has a minimum deck size of 60 cards.

101. The Magic Golden Rules

101.1. Whenever a card’s text directly contradicts these rules, the card takes precedence.

Glossary

Two-Player Game
A game that begins with only two players. See rule 100.1a.
"""

RULES = [("1.", "chapter", "Game Concepts", "", []), ("100.", "section", "General", "", []),
         ("100.1.", "rule", "", "These Magic rules apply to any Magic game with two or more players.", []),
         ("100.1a", "rule", "", "A two-player game is a game that begins with only two players.", []),
         ("100.1b", "rule", "", "A multiplayer game is a game that begins with more than two players.", []),
         ("100.2.", "rule", "", "To play, each player needs their own deck of traditional Magic cards.",
          ["A deck of sixty cards is legal."]),
         ("100.2a", "rule", "", "In constructed play, each deck has a minimum deck size of 60 cards.", []),
         ("101.", "section", "The Magic Golden Rules", "", []),
         ("101.1.", "rule", "", "Whenever a card’s text directly contradicts these rules, the card takes "
          "precedence.", [])]
GLOSSARY = [{"term": "Two-Player Game", "definition": "A game that begins with only two players. See rule 100.1a."}]


def _records(number_key: str = "number") -> list[dict]:
    return [{number_key: n, "kind": k, **({"title": t} if t else {}), **({"text": x} if x else {}),
             **({"examples": e} if e else {})} for n, k, t, x, e in RULES]


def _tree() -> list[dict]:
    """The same rules as a tree: chapters hold sections, sections rules, rules subrules."""
    chapter = {"id": "1", "name": "Game Concepts", "children": []}
    for number, _kind, title, text, examples in RULES[1:]:
        record = {"id": number.rstrip("."), **({"name": title} if title else {}),
                  **({"text": text} if text else {}), **({"examples": examples} if examples else {})}
        if number.count(".") == 1 and number.endswith("."):
            chapter["children"].append({**record, "children": []})
        elif number[-1].isalpha():
            chapter["children"][-1]["children"][-1].setdefault("subrules", []).append(record)
        else:
            chapter["children"][-1]["children"].append(record)
    return [chapter]


def _csv(delimiter: str, header: str) -> str:
    rows = [header, f"{delimiter}Magic: The Gathering Comprehensive Rules"]
    for number, _kind, title, text, examples in RULES:
        said = (title or text).replace('"', '""')
        rows.append(f'{number}{delimiter}"{said}"')
        rows += [f'{delimiter}"Example: {e}"' for e in examples]
    rows += [f"{delimiter}Glossary", f'{delimiter}"Two-Player Game\nA game that begins with only two players. '
             'See rule 100.1a."']
    return "\r\n".join(rows) + "\r\n"


# name | the export | "" or what the comparison leaves out ("glossary": the export has none)
CASES = [
    ("JSON: the title, a list of rules, a glossary beside it",
     json.dumps({"title": "Magic: The Gathering Comprehensive Rules", "rules": _records(),
                 "glossary": GLOSSARY}, ensure_ascii=False, indent=2), ""),
    ("JSON: a bare list of rules, numbers under 'rule', no glossary",
     json.dumps([{"title": "x"}] + _records("rule"), ensure_ascii=False), "glossary"),
    ("JSON: a tree of rules (children, subrules), numbers without their last dot, titles as 'name'",
     json.dumps({"document": {"name": "Magic: The Gathering Comprehensive Rules", "chapters": _tree()},
                 "terms": GLOSSARY}, ensure_ascii=False, indent=1), ""),
    ("JSON: an API's object keyed by number, a text or a record each, a glossary beside it",
     json.dumps({"title": "Magic: The Gathering Comprehensive Rules",
                 "rules": {n.rstrip("."): ({"text": x, "examples": e} if e else t or x) for n, _k, t, x, e in RULES},
                 "glossary": GLOSSARY}, ensure_ascii=False, indent=2), ""),
    ("CSV: a spreadsheet of paragraphs, 'Rule,Text', quoted cells, CRLF", _csv(",", "Rule,Text"), ""),
    ("CSV with semicolons and other column names", _csv(";", "Rule number;Rule text"), ""),
    ("TSV", _csv("\t", "no\ttext"), ""),
    ("TSV copied without its header row", _csv("\t", "no\ttext").split("\r\n", 1)[1], ""),
    ("CSV copied without its header row", _csv(",", "Rule,Text").split("\r\n", 1)[1], ""),
]


@pytest.mark.parametrize("name,export,leaves", CASES, ids=[c[0] for c in CASES])
def test_an_export_reads_as_the_release_prints_it(name: str, export: str, leaves: str) -> None:
    got, want = read_bytes(export.encode("utf-8"), "export")[0], read_text(MAGIC, "printed")
    if leaves == "glossary":
        want.terms = []
    assert fingerprint(got) == fingerprint(want), name
    assert [r.number for r in got.rules] == [r.number for r in want.rules], name
    assert any("read as the paragraphs the release prints" in d.message for d in got.diagnostics), name


def test_a_rule_of_a_json_export_keeps_the_line_its_record_starts_at() -> None:
    export = json.dumps({"title": "Magic: The Gathering Comprehensive Rules", "rules": _records(),
                         "glossary": GLOSSARY}, ensure_ascii=False, indent=2)
    result, _ = read_bytes(export.encode("utf-8"), "export.json")
    lines = export.split("\n")
    for rule in result.rules:
        assert f'"number": "{rule.raw_id}' in lines[rule.line - 1], (rule.raw_id, rule.line)


@pytest.mark.parametrize("name,export,line,says", [
    ("JSON cut short", json.dumps({"rules": _records()}, indent=2)[:-40] + "}", 0, "not valid JSON"),
    ("JSON without a list of rules", json.dumps({"title": "Rules", "rules": [{"a": 1}, {"a": 2}]}), 1,
     "without a list of rules"),
    ("a CSV whose columns are not a rule number and its text", "Name,Colour\nA,B\nC,D\nE,F\n", 1,
     "unknown document format"),
])
def test_an_export_that_cannot_be_read_is_refused_at_its_line(name: str, export: str, line: int, says: str) -> None:
    with pytest.raises(DocumentError) as refused:
        read_bytes(export.encode("utf-8"), "export")
    first = refused.value.diagnostics[0]
    assert says in first.message and first.file == "export", (name, first)
    if line:
        assert first.line == line, (name, first)
    else:  # the line the JSON breaks at, named in the message too
        assert first.line > 1 and f"(line {first.line}, column " in first.message, (name, first)


@pytest.mark.parametrize("text", ["[TOC]\n\n", "[Back to the rules](index.md)\n\n"])
def test_a_markdown_text_that_starts_with_a_bracket_is_no_json(text: str) -> None:
    markdown = text + MAGIC + "\n[Back to top]"
    assert len(read_text(markdown, "rules.md").rules) == len(read_text(MAGIC, "rules.md").rules)


def test_a_markdown_table_of_rules_is_no_csv_export() -> None:
    """A document that starts with a Markdown table's head (``| Rule | Text |``) is read as the
    table it is (:mod:`kb.read.normalise`), not as a table with ``|`` between its columns."""
    table = "| Rule | Text |\n| --- | --- |\n" + "".join(f"| 100.{n}a | Rule text {n}. |\n" for n in range(1, 6))
    result = read_text(table, "table.md")
    assert [r.raw_id for r in result.rules if r.text] == [f"100.{n}a" for n in range(1, 6)]
    assert not any("read as the paragraphs the release prints" in d.message for d in result.diagnostics)


@pytest.mark.parametrize("line_end", ["\r", "\r\n"])
def test_a_text_not_decoded_reads_whatever_its_line_ends(line_end: str) -> None:
    """Text that did not go through ``decode`` keeps its line ends: a printed text whose lines
    end in CR alone (with commas in its rules) is no CSV, and a CSV so ended is one."""
    printed = "\ufeff" + MAGIC.replace("\n", line_end)
    assert fingerprint(read_text(printed, "rules.txt")) == fingerprint(read_text(MAGIC, "rules.txt"))
    table = read_text(_csv(",", "Rule,Text").replace("\r\n", line_end), "rules.csv")
    assert fingerprint(table) == fingerprint(read_text(MAGIC, "printed"))


def test_an_object_keyed_by_words_is_no_list_of_rules() -> None:
    with pytest.raises(DocumentError) as caught:
        read_bytes(json.dumps({"100.1": "One.", "name": "x", "id": "y", "kind": "z"}).encode(), "keyed.json")
    assert "without a list of rules" in caught.value.diagnostics[0].message


NO_TABLE_OF_RULES = [
    ("a table whose first column holds words", "Player,Score\nAnn,3\nBo,4\nCy,5\nDee,6\n"),
    ("rules printed with commas in their text", "100.1. These rules apply to any game, including two-player games.\n\n"
     "100.2. To play, each player needs a deck, some counters, and a way to track life.\n\n"
     "100.3. Some, not all, rules apply.\n"),
    ("a headerless table with too few numbered rows", "\tTitle\n\tIntroduction\n100.1.\tOne.\n\tMore.\n\tAnd more.\n"),
]


@pytest.mark.parametrize("name,text", NO_TABLE_OF_RULES, ids=[c[0] for c in NO_TABLE_OF_RULES])
def test_a_text_without_a_header_row_is_no_table_of_rules_unless_its_rows_are_numbered(name: str, text: str) -> None:
    assert exported(text, name) is None
