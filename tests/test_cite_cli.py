"""`rulekb link`: render an article, or lint its citations in CI with --check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.query import KnowledgeBase

FIXTURES = Path(__file__).parent / "fixtures" / "cite"
BROKEN = """---
ruleset: riftbound
edition: "1.4"
---
# Notes

Priority (rule 312) moves.
See rule 999, and `rule 998` is code.
"Finalizing passes Priority." (rule 337.1.a)
"""


@pytest.fixture()
def run(excerpt_home: Path):
    runner = CliRunner()

    def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        result = runner.invoke(main, ["--home", str(excerpt_home), *args], input=stdin)
        return result.exit_code, result.stdout, result.stderr
    return invoke


@pytest.fixture()
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.md"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def test_check_reports_each_citation_with_its_place_and_fails(run, broken: Path,
                                                              excerpt_home: Path) -> None:
    code, out, err = run("link", "--check", str(broken))
    assert code == 1
    # The numbers nearest 999 are the excerpt's last rules: read from the edition, so that
    # regenerating the excerpt (its last chapter grows) does not change what is checked here.
    nearest = KnowledgeBase.open(excerpt_home).edition("riftbound", "1.4").nearest(("999",))
    assert len(nearest) == 5 and all(n[:1] == "8" for n in nearest)
    assert out.splitlines() == [
        f"{broken}:7:11: ok: rule 312 → 312",
        f"{broken}:8:5: not_found: rule 999 (rule 999 does not exist in riftbound 1.4 "
        f"(a partial edition)); nearest: {', '.join(nearest)}",
        f"{broken}:9:32: quote_mismatch: rule 337.1.a (the quotation differs from the text of "
        "rule 337.1.a in riftbound 1.4; similarity 0.71)",
    ]
    assert "3 citations against riftbound 1.4: 1 ok, 2 broken" in err


def test_check_passes_on_the_lessons(run) -> None:
    code, out, _ = run("link", "--check", "--quiet", str(FIXTURES / "lesson-passing-and-resolving.md"),
                       str(FIXTURES / "lesson-combat-showdown.md"))
    assert code == 0 and out == ""


def test_html_output_is_the_rendered_article(run, broken: Path) -> None:
    code, out, err = run("link", str(broken), "--base-url", "https://rules.example.org")
    assert code == 0
    assert out.startswith("<h1>Notes</h1>")
    assert 'href="https://rules.example.org/riftbound/1.4/312"' in out
    assert "<code>rule 998</code>" in out


def test_markdown_and_json_formats(run, broken: Path) -> None:
    code, out, _ = run("link", str(broken), "--format", "markdown")
    assert code == 0 and "Priority ([rule 312](</riftbound/1.4/312>)[^rule-fn-1]) moves." in out
    code, out, _ = run("link", str(broken), "--format", "json")
    data = json.loads(out)
    assert code == 0 and data["summary"]["broken"] == 2 and data["output"] is None


def test_reads_standard_input(run) -> None:
    code, out, _ = run("link", "-", "--style", "preview", stdin="rule 312\n")
    assert code == 0 and 'title="Rule 312. At any given time' in out


@pytest.mark.parametrize("args,message", [
    (["--edition", "9.9"], "error: unknown edition '9.9' of riftbound"),
    (["--ruleset", "chess"], "error: unknown ruleset 'chess'"),
])
def test_bad_options_are_clear_errors(run, broken: Path, args: list[str], message: str) -> None:
    code, _, err = run("link", str(broken), *args)
    assert code == 2 and err.startswith(message)


def test_bad_files_are_clear_errors(run, tmp_path: Path, broken: Path) -> None:
    bad = tmp_path / "latin1.md"
    bad.write_bytes(b"rule 312\ncaf\xe9\n")
    code, _, err = run("link", str(bad))
    assert code == 2 and err.strip() == f"error: {bad}:2: not UTF-8 text (byte 12)"
    code, _, err = run("link", str(broken), str(broken))
    assert code == 2 and "several articles can only be linked with --check" in err


@pytest.mark.parametrize(("article", "summary"), [
    ("See rule 999.9 and rule 337.1a.\n", "2 citations against riftbound 1.4: 1 ok, 1 broken"),
    ("Priority moves (rule 312).\n", "1 citation against riftbound 1.4: 1 ok, 0 broken"),
    ("As CR 116.3d says.\n", "1 citation against mtg 2026-01-16: 0 ok, 0 broken, 1 renumbered"),
    ("No rule is cited here.\n", "0 citations against any of mtg 2026-01-16, riftbound 1.4: 0 ok"),
    # issue #20, finding 21: a citation read in another ruleset counts there, not "against" this one
    ("Priority (CR 117.3b); the chain (Riftbound rule 340.4, rule 337.4).\n",
     "3 citations: 2 against riftbound 1.4 (2 ok, 0 broken, 0 renumbered), 1 against mtg 2026-01-16, "
     "named by their prefix (1 ok, 0 broken, 0 renumbered)"),
    ("---\nruleset: mtg\nedition: 2026-01-16\n---\nSee Core Rules 337.4 and Riftbound rule 340.4.\n",
     "2 citations: 2 against riftbound 1.4, named by their prefix (2 ok, 0 broken, 0 renumbered)"),
    # a tie between rulesets: linked against none, each edition's own counts
    ("Open again (rule 340.2); toughness 0 dies (CR 704.5f).\n",
     "2 citations: 1 against riftbound 1.4 (1 ok, 0 broken, 0 renumbered), 1 against mtg 2026-01-16 "
     "(1 ok, 0 broken, 0 renumbered)"),
])
def test_an_unpinned_articles_summary_names_the_editions_its_citations_were_found_in(
        run, tmp_path: Path, article: str, summary: str) -> None:
    path = tmp_path / "unpinned.md"
    path.write_text(article, encoding="utf-8")
    _, _, err = run("link", "--check", str(path))
    assert f"{path}: {summary}" in err


@pytest.mark.parametrize(("name", "text", "where"), [
    # issue #20, finding 24: the byte budget names the file, as the line budget does
    ("big.md", "rule 312\n" + "x" * 2_000_000, "big.md"),
    ("lines.md", "rule 312\n" * 10_001, "lines.md"),
])
def test_an_article_over_a_budget_is_refused_naming_its_file(run, tmp_path: Path, name: str,
                                                             text: str, where: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, _, err = run("link", str(path))
    assert code == 2 and err.startswith("error: over the limit cite.")
    assert err.rstrip().endswith(f" at {tmp_path / where}"), err
