"""Where ``rulings check`` places a citation (issue #20, finding 20): in the file the user
imported, at its line, as ``articles check`` places an article's. A Markdown ruling was
named by the ``.yaml`` copy the data home keeps, with no line. And a check line's word
diff is bounded (a whole example block diffed ran to 3,000 characters); ``--json`` keeps
the whole diff. On the embedded excerpts: 338.1.c of 1.3 is 338.1.b in 1.4, 337.1.a was
reworded, 339 did not change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.query import KnowledgeBase
from kb.records.feed import word_diff_line
from web import create_app

FIELDS = "source: Floor call\ndate: 2026-05-02\nruleset: riftbound\nedition: \"1.3\"\n"

# (file name, its text, the place each stale citation is named at: file:line or file (field))
RULINGS: list[tuple[str, str, list[str]]] = [
    ("md-ruling.md",
     f"---\nid: md-ruling\nquestion: Who gets priority?\n{FIELDS}---\nDoing nothing passes\n"
     "(rule 338.1.c).\n\nFinalizing does not pass it (rule 337.1.a); then rule 339.\n",
     ["md-ruling.md:10", "md-ruling.md:12"]),
    ("block.yaml",
     f"id: block\nquestion: Who gets priority?\nanswer: |\n  Doing nothing passes.\n"
     f"  See rule 338.1.c and rule 337.1.a.\n{FIELDS}",
     ["block.yaml:5", "block.yaml:5"]),
    ("one-line.yaml",
     f"id: one-line\nquestion: Does rule 338.1.c pass priority?\nanswer: Yes (rule 337.1.a).\n{FIELDS}",
     ["one-line.yaml:2", "one-line.yaml:3"]),
    # a folded value's line breaks are not the file's: the field, not a wrong line
    ("folded.yaml",
     f"id: folded\nquestion: Who gets priority?\nanswer: >-\n  Doing nothing passes\n"
     f"  (rule 338.1.c).\n{FIELDS}",
     ["folded.yaml (answer)"]),
    ("two.yaml",
     "- id: two-a\n  question: Who?\n  answer: Rule 338.1.c.\n"
     "  source: Floor call\n  date: 2026-05-02\n  ruleset: riftbound\n  edition: \"1.3\"\n"
     "- id: two-b\n  question: And then?\n  answer: |\n    Then\n    rule 337.1.a.\n"
     "  source: Floor call\n  date: 2026-05-02\n  ruleset: riftbound\n  edition: \"1.3\"\n",
     ["two.yaml:3", "two.yaml:12"]),
]


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _stale_places(out: str, folder: Path) -> list[str]:
    """The place of each stale line of a check's output naming a file of ``folder``."""
    places = []
    for line in out.splitlines():
        if line.startswith(str(folder)) and (": renumbered: " in line or ": reworded: " in line):
            places.append(line.split(": ", 1)[0].removeprefix(f"{folder}/"))
    return places


@pytest.mark.parametrize("name,text,places", RULINGS, ids=[r[0] for r in RULINGS])
def test_check_names_the_file_imported_and_the_citations_line(
        own_home: Path, tmp_path: Path, name: str, text: str, places: list[str]) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    code, out = run(own_home, "rulings", "import", str(folder / name), "--no-build")
    assert code == 0, out
    code, out = run(own_home, "rulings", "check")
    assert code == 1
    assert _stale_places(out, folder) == places, out
    assert str(own_home) not in out.replace(str(tmp_path / "mine"), "")  # never the copy's path
    code, out = run(own_home, "rulings", "check", "--json")
    mine = [r for r in json.loads(out)["records"] if r["imported_from"] == str(folder / name)]
    assert mine and all(r["file"].startswith(str(own_home)) for r in mine)


def test_a_ruling_imported_again_is_named_by_its_new_file_and_removed_leaves_no_trace(
        own_home: Path, tmp_path: Path) -> None:
    name, text, _ = RULINGS[0]
    for where in ("first", "second"):
        (tmp_path / where).mkdir()
        (tmp_path / where / name).write_text(text, encoding="utf-8")
        assert run(own_home, "rulings", "import", str(tmp_path / where / name), "--no-build")[0] == 0
        _, out = run(own_home, "rulings", "check")
        assert f"{tmp_path / where / name}:10: renumbered: ruling md-ruling" in out, out
    app = create_app(kb=KnowledgeBase.open(own_home)).test_client()
    body: Any = app.get("/api/v1/rulings/md-ruling").get_json()
    assert (body["imported_from"], body["file"]) == (name, "md-ruling.yaml")
    assert [c["line"] for c in body["citations"]] == [10, 12, 12]
    assert run(own_home, "rulings", "remove", "md-ruling", "--no-build")[0] == 0
    origins = own_home / "records" / "rulings" / ".imported.json"
    assert "md-ruling" not in json.loads(origins.read_text(encoding="utf-8"))


def _ops(*parts: tuple[str, str, str]) -> list[dict[str, str]]:
    return [{"op": op, "old": old, "new": new} for op, old, new in parts]


WORDS = " ".join(f"w{i}" for i in range(40)) + " "
# (ops, the check line's diff)
DIFFS: list[tuple[list[dict[str, str]], str]] = [
    # short: whole
    (_ops(("equal", "If a ", "If a "), ("replace", "creature", "unit"), ("equal", " dies.", " dies.")),
     "If a [-creature-]{+unit+} dies."),
    # long unchanged runs: four words either side, "…" for the rest
    (_ops(("equal", WORDS, WORDS), ("insert", "", "new words"), ("equal", WORDS, WORDS)),
     "… w36 w37 w38 w39 {+new words+}w0 w1 w2 w3 …"),
    # a long change keeps its first and last words
    (_ops(("equal", "Example: ", "Example: "), ("delete", WORDS, "")),
     "Example: [-w0 w1 w2 w3 w4 w5 w6 w7 … w36 w37 w38 w39-]"),
    # past six changes: how many more, and where they all are
    (_ops(*[p for i in range(8) for p in (("replace", f"a{i}", f"b{i}"), ("equal", " ", " "))]),
     "[-a0-]{+b0+} [-a1-]{+b1+} [-a2-]{+b2+} [-a3-]{+b3+} [-a4-]{+b4+} [-a5-]{+b5+} "
     "… (2 more changes: --json has them all)"),
]


@pytest.mark.parametrize("ops,line", DIFFS)
def test_a_check_lines_word_diff_is_bounded(ops: list[dict[str, str]], line: str) -> None:
    assert word_diff_line(ops) == line


def test_check_lines_are_bounded_and_the_json_keeps_the_whole_diff(own_home: Path, tmp_path: Path) -> None:
    long_rule = tmp_path / "long.md"
    long_rule.write_text(RULINGS[0][1], encoding="utf-8")
    assert run(own_home, "rulings", "import", str(long_rule), "--no-build")[0] == 0
    _, out = run(own_home, "rulings", "check")
    assert max(len(line) for line in out.splitlines()) < 800, out
    _, out = run(own_home, "rulings", "check", "--json")
    ops = [c["ops"] for r in json.loads(out)["records"] for c in r["citations"] if c["ops"]]
    assert ops and all(o["op"] in ("equal", "insert", "delete", "replace") for each in ops for o in each)


def test_an_article_whose_ruleset_is_inferred_says_its_edition_in_the_api(own_home: Path,
                                                                          tmp_path: Path) -> None:
    """Finding 21: ``inferred`` was null when the ruleset itself was inferred."""
    article = tmp_path / "mixed.md"
    article.write_text("# Two games\n\nPriority (CR 117.3b); the chain (Riftbound rule 340.4, rule 337.4).\n",
                       encoding="utf-8")
    code, out = run(own_home, "articles", "add", str(article), "--no-build")
    assert code == 0 and "written for riftbound 1.4, inferred from 2 of 3 citations" in out, out
    app = create_app(kb=KnowledgeBase.open(own_home)).test_client()
    body: Any = app.get("/api/v1/articles/mixed").get_json()
    assert body["inferred"] == "written for riftbound 1.4, inferred from 2 of 3 citations"
    assert body["imported_from"] == "mixed.md"
