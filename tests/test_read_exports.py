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


def _keyed(rules: dict[str, str]) -> str:
    """An API's object keyed by rule number, one key a line (its line is the key's index + 2)."""
    return json.dumps(rules, ensure_ascii=False, indent=1)


RIFTBOUND_RULES = {"103.1": "Each player needs a Champion Legend, a Main Deck and a Rune Deck.",
                   "103.1.a": "The Champion Legend is placed in the Legend Zone.",
                   "103.1.b": "A Main Deck has at least 40 cards.",
                   "103.1.b.1": "Duplicates of a card are limited to three copies.",
                   "104.1": "Each player shuffles their Main Deck."}
MAGIC_RULES = {"100.1": "These Magic rules apply to any Magic game with two or more players.",
               "100.2": "To play, each player needs their own deck of traditional Magic cards.",
               "100.2a": "In constructed play, each deck has a minimum deck size of 60 cards.",
               "101.1": "Whenever a card’s text directly contradicts these rules, the card takes precedence."}
_PRINTED = {"riftbound-pdftext": "Riftbound Core Rules\n\n", "mtg-text": "Magic: The Gathering Comprehensive Rules\n\n"}

# name | the rules keyed by number | the reader their numbers call for
HEADINGLESS = [
    ("Riftbound, letter parts (103.1.a), no chapter or section keys", RIFTBOUND_RULES, "riftbound-pdftext"),
    ("Riftbound under a section key", {"103": "Deck Construction", **RIFTBOUND_RULES}, "riftbound-pdftext"),
    ("Magic, an attached letter (100.2a), no chapter or section keys", MAGIC_RULES, "mtg-text"),
    ("Magic under a chapter and a section key", {"1": "Game Concepts", "100": "General", **MAGIC_RULES}, "mtg-text"),
]


@pytest.mark.parametrize("name,rules,fmt", HEADINGLESS, ids=[c[0] for c in HEADINGLESS])
def test_a_keyed_export_too_short_for_a_layout_reads_as_its_numbers_say(name: str, rules: dict[str, str],
                                                                        fmt: str) -> None:
    """An object keyed by rule numbers prints no layout's marks (no headings, no bold ids), and
    a few rules are too few for a reader's sniffer: its numbers tell whose rules they are, and
    each rule reads as the same text printed plain does with that reader, at its key's line."""
    result, read_as = read_bytes(_keyed(rules).encode("utf-8"), "api.json")
    printed = read_text(_PRINTED[fmt] + "\n\n".join(f"{k}. {v}" for k, v in rules.items()) + "\n", "printed", fmt)
    assert read_as == fmt, name
    assert fingerprint(result) == fingerprint(printed), name
    assert any(f"read as {fmt}, the reader its rule numbers call for" in d.message for d in result.diagnostics)
    lines = _keyed(rules).split("\n")
    for rule in result.rules:
        if rule.raw_id.rstrip(".") in rules:
            assert f'"{rule.raw_id.rstrip(".")}":' in lines[rule.line - 1], (name, rule.raw_id, rule.line)


def test_a_keyed_export_whose_numbers_say_no_game_is_refused_at_its_first_rule() -> None:
    """Numbers of two parts alone (``100.1``) are both games': no reader is guessed, and the
    refusal names the key's line, in the message too."""
    rules = {"title": "Rules", **{f"10{n}.1": f"Rule text number {n}." for n in range(3)}}
    with pytest.raises(DocumentError) as refused:
        read_bytes(_keyed(rules).encode("utf-8"), "api.json")
    first = refused.value.diagnostics[0]
    assert "unknown document format" in first.message and first.line == 3, first
    assert "line 3 starts '100.1. Rule text number 0.'" in first.message, first


def test_a_keyed_export_read_only_in_part_is_refused_at_the_key_it_holds_unread_rules_under() -> None:
    """An API that folds each rule's subrules into its text in another shape ("Rule 100.1a: …")
    reads as fewer rules than the lines shaped like rules: refused, at the line of the first
    key whose text holds one (not a line of the paragraphs it was written out as), which the
    message names too."""
    rules = {"1": "Game Concepts", "100": "General"}
    for n in range(1, 5):
        rules[f"100.{n}"] = f"Rule {n} of the general rules.\n" + "\n".join(
            f"Rule 100.{n}{letter}: subrule {letter} of rule {n}." for letter in "abcd")
    rules |= {"100.5a": "One.", "100.5b": "Two.", "100.5c": "Three."}
    with pytest.raises(DocumentError) as refused:
        read_bytes(_keyed({"title": "Magic: The Gathering Comprehensive Rules", "rules": rules}).encode(), "api.json")
    first = refused.value.diagnostics[0]
    lines = _keyed({"title": "Magic: The Gathering Comprehensive Rules", "rules": rules}).split("\n")
    assert "lines shaped like rule lines" in first.message, first
    assert lines[first.line - 1].lstrip().startswith('"100.1": "Rule 1 of'), (first.line, lines[first.line - 1])
    assert f"line {first.line} starts 'Rule 100.1a: subrule a of rule 1.'" in first.message, first


def test_a_document_keyed_by_number_opens_with_its_other_strings_only() -> None:
    """The rules' own texts are no opening paragraphs of a document keyed by their numbers."""
    rules = {"title": "Magic: The Gathering Comprehensive Rules", **MAGIC_RULES}
    written = exported(_keyed(rules), "api.json")
    assert written is not None
    assert written.text.startswith("Magic: The Gathering Comprehensive Rules\n\n100.1. These Magic rules")
    assert written.text.count("These Magic rules apply") == 1


@pytest.mark.parametrize("name,text", [
    ("a keyed export", _keyed(RIFTBOUND_RULES)),
    ("the same rules in Markdown, bold ids, no headings",
     "# Riftbound Core Rules\n\n" + "\n\n".join(f"**{k}.** {v}" for k, v in RIFTBOUND_RULES.items())),
])
def test_riftbound_rules_printed_without_their_section_keep_it_above_them(name: str, text: str) -> None:
    """The first rule read (``103.1.``) printed without its parent (``103.``): the parent is kept
    as an empty rule above it, as for every later rule, not after it (the build refused the
    import: 'rule 103.1 has no parent rule 103', and every rule under it)."""
    result = read_text(text, "rules")
    numbers = [r.raw_id for r in result.rules]
    assert numbers[:2] == ["103.", "103.1."] and numbers.index("104.") < numbers.index("104.1."), (name, numbers)
    assert not [d for d in result.diagnostics if d.severity == "error"], name


def test_a_keyed_export_without_headings_imports(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rulekb import`` of the keyed export (its rules' parents unprinted) imports it."""
    from click.testing import CliRunner

    from kb.cli import main
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    export = tmp_path / "api.json"
    export.write_text(_keyed(RIFTBOUND_RULES), encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "import", str(export), "-r", "test",
                                    "-e", "1.0", "--partial"])
    assert out.exit_code == 0 and "imported api.json as test 1.0" in out.output, out.output
