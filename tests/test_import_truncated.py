"""A document cut short is refused by ``rulekb import`` unless imported as an excerpt.

A document that ends inside a rule ("the document ends inside rule 373.2 ... (is it
truncated?)") imported whole would become the newest edition, and every rule after the cut
would read as removed ("Deathknell was removed in 9.1"). It is refused (exit 2, the
README's contract for a bad input) naming the line and the reader's note, nothing is kept;
``--partial`` imports it as an excerpt, and the import and the build name the warning.
The documents are written here, in the Riftbound Markdown layout; one case a line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.model import Diagnostic
from kb.store import cut_short_notes
from tests.conftest import CORPORA, SKIP_REASON, shared_available

WHOLE = """# Test Core Rules

Test Core Rules
Last Updated: 2027-01-15


## 100. Game Concepts


### 101. Players


**101.1.** A game is played by two or more players, each with their own deck.

**101.2.** A player who has no cards left to draw loses the game at the next check.

### 102. Turns


**102.1.** Each turn has a beginning phase, a main phase and an ending phase.

**102.2.** The turn player acts first in each phase of their turn.

**102.3.** A player may pass instead of acting, and the phase ends when every player passes in a row.
"""


def cut_after(words: str) -> str:
    """The document up to and including ``words``, the file ending there."""
    return WHOLE[: WHOLE.index(words) + len(words)]


def plain(text: str) -> str:
    """The document as PDF-extracted text: rule numbers without emphasis, no Markdown headings."""
    return re.sub(r"^#+ ", "", re.sub(r"\*\*(\d[\d.]*)\*\*", r"\1", text), flags=re.M)


def last_line(text: str) -> int:
    return text.count("\n") + 1


# (name, the document, what the refusal says after "error: ")
CUT = [
    ("mid-sentence", cut_after("and the phase ends when"), "the document looks cut short: the document ends inside rule 102.3"),
    ("emphasis-open", cut_after("**102.3"), "the document looks cut short: the document ends inside Markdown emphasis"),
    ("heading-alone", cut_after("### 102. Turns\n"), "the document looks cut short: the document ends at heading 102"),
    ("early-sentence", cut_after("A game is played by two"), "the document ends inside rule 101.1"),
    # cut at a capital letter: only the missing line end tells
    ("capital-cut", cut_after("**102.2.** The"), "the document looks cut short: the document ends inside rule 102.2"),
]


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A runner whose builds read only the imported documents (no repository excerpts)."""
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    return CliRunner()


def imported(runner: CliRunner, home: Path, doc: Path, *extra: str) -> tuple[int, str]:
    out = runner.invoke(main, ["--home", str(home), "import", str(doc), "-r", "test", "-e", "1.1",
                               *extra])
    assert "Traceback" not in out.output
    return out.exit_code, out.output


@pytest.mark.parametrize("name, text, says", CUT)
def test_a_document_cut_short_is_refused_naming_its_line(runner: CliRunner, tmp_path: Path, name: str,
                                                         text: str, says: str) -> None:
    doc = tmp_path / f"{name}.md"
    doc.write_text(text, encoding="utf-8")
    home = tmp_path / "home"
    code, output = imported(runner, home, doc, "--no-build")
    assert code == 2, output
    assert f"{doc}:{last_line(text.rstrip())}: error: " in output and says in output
    assert "--partial" in output
    assert not (home / "imports" / "test" / "1.1").exists()  # nothing kept


@pytest.mark.parametrize("name, text, says", CUT)
def test_partial_imports_it_as_an_excerpt_and_names_the_warning(runner: CliRunner, tmp_path: Path,
                                                                name: str, text: str, says: str) -> None:
    doc = tmp_path / f"{name}.md"
    doc.write_text(text, encoding="utf-8")
    code, output = imported(runner, tmp_path / "home", doc, "--no-build", "--partial")
    assert code == 0, output
    assert "imported " + doc.name + " as test 1.1 (partial)" in output
    assert f"warning at line {last_line(text.rstrip())}: " + says.removeprefix("the document looks cut short: ") in output
    assert "partial = true" in (tmp_path / "home/imports/test/1.1/edition.toml").read_text()


def test_the_whole_document_imports_and_the_build_names_a_cut_excerpts_warning(runner: CliRunner,
                                                                                tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole.md", tmp_path / "cut.md"
    whole.write_text(WHOLE, encoding="utf-8")
    cut.write_text(CUT[0][1], encoding="utf-8")
    home = tmp_path / "home"
    out = runner.invoke(main, ["--home", str(home), "import", str(whole), "-r", "test", "-e", "1.0", "--no-build"])
    assert out.exit_code == 0 and "warning" not in out.output, out.output
    code, output = imported(runner, home, cut, "--partial")  # with its build
    assert code == 0, output
    assert "test 1.1: 5 rules, 3 headings, 0 terms (partial), 1 reader note (1 warning; see `rulekb stats`)" in output
    assert f"    warning at line {last_line(CUT[0][1])}: the document ends inside rule 102.3" in output


# (a reader's note, whether it says the document is cut short)
NOTES = [
    ("the document ends inside rule 373.2, whose text stops mid-sentence (is it truncated?); what precedes the cut is read", True),
    ("the Glossary runs to the end of the file without the Credits heading: the file looks truncated (the entries up to the cut are read)", True),
    ("the document ends before its Glossary, inside rule 702.1: the file looks truncated (the rules up to the cut are read)", True),
    ("the document ends inside a <tr> opened here (is it truncated?); what precedes the cut is read", True),
    ("rule 102.3 has no text (is the document truncated?); it is kept empty", False),
    ("id printed split by a space (606. 8b)", False),
]


@pytest.mark.parametrize("message, cut", NOTES)
def test_which_reader_notes_say_the_document_is_cut_short(message: str, cut: bool) -> None:
    assert bool(cut_short_notes([Diagnostic(message, "doc.txt", 9, "warning")])) is cut


def test_the_archives_cut_release_is_refused_and_imports_as_an_excerpt(runner: CliRunner, tmp_path: Path) -> None:
    if not shared_available():
        pytest.skip(SKIP_REASON)
    doc = CORPORA / "mtg" / "archive" / "comprehensive-rules-2013-02-01.txt"
    args = ["--home", str(tmp_path / "home"), "import", str(doc), "-r", "mtg", "-e", "2013-02-01", "--no-build"]
    out = runner.invoke(main, args)
    assert out.exit_code == 2 and ":4609: error: the document looks cut short: the Glossary runs" in out.output
    out = runner.invoke(main, [*args, "--partial"])
    assert out.exit_code == 0 and "warning at line 4609: the Glossary runs to the end" in out.output


def test_the_pdf_text_reader_also_notes_a_cut_at_a_capital_letter() -> None:
    """The PDF-text layout (how ../shared's Riftbound 1.2 Markdown file reads) says a cut the
    Markdown reader says: a document ending at "... on the Chain as P" was refused by neither."""
    from kb.read import riftbound_pdftext
    result = riftbound_pdftext.read(plain(cut_after("**102.2.** The")), "cut.txt")
    assert [n for n in cut_short_notes(result.diagnostics) if "ends inside rule 102.2" in n.message]
    whole = riftbound_pdftext.read(plain(WHOLE), "whole.txt")
    assert not cut_short_notes(whole.diagnostics)
