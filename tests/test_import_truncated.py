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
from kb.store import (GLOSSARY, CutShortError, EditionSections, TopSections, collect_sources, cut_short_notes,
                      import_document, stops_where_others_go_on)
from tests.conftest import CORPORA, REPO, SKIP_REASON, real_document_sections, shared_available

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


# --- A document cut between two chapters: the ruleset's other editions tell -----------------
#
# No reader can see a cut at a chapter boundary (the finding: Riftbound 1.4's first 400 lines,
# ending after chapter 100, imported as the newest full edition and became the default). The
# import compares the document's top-level sections (chapters, then the Glossary) with the
# ruleset's other editions dated on or before it: when every full one, and at least one, goes on
# after the document's last, it is refused like a cut inside a rule.

CHAPTERS = """# Test Core Rules

Last Updated: 2027-01-15

## 100. Game Concepts

### 101. Players

**101.1.** A game is played by two or more players, each with their own deck.

**101.2.** A player who has no cards left to draw loses the game at the next check.

## 200. Turns

### 201. Phases

**201.1.** Each turn has a beginning phase, a main phase and an ending phase.

**201.2.** The turn player acts first in each phase of their turn.

## 300. Winning

### 301. Scoring

**301.1.** A player who scores eight points wins the game.
"""


def chapters_until(chapter: str, text: str = CHAPTERS) -> str:
    """The document up to the chapter heading ``chapter``, which is cut off with all after it."""
    return text[: text.index(f"## {chapter}.")]


def dated(text: str, day: str) -> str:
    return text.replace("Last Updated: 2027-01-15", f"Last Updated: {day}" if day else "")


def last_rule_line(text: str) -> int:
    """The line of the last numbered entry of a document in the CHAPTERS layout."""
    lines = text.split("\n")
    return max(i + 1 for i, ln in enumerate(lines) if re.match(r"^(\*\*|#+ )\d", ln))


# (name, the editions already in the home: (edition, document, --partial), the document
# imported as 9.9, what the refusal says after "error: the document looks cut short: "; None
# when it imports)
BESIDE = [
    ("after chapter 100", [("1.0", CHAPTERS, False)], chapters_until("200"),
     "the document stops after chapter 100 (Game Concepts), at rule 101.2, where test edition 1.0 "
     "(2027-01-15) goes on: chapters 200 (Turns) and 300 (Winning) are missing"),
    ("after chapter 200", [("1.0", CHAPTERS, False)], chapters_until("300"),
     "the document stops after chapter 200 (Turns), at rule 201.2, where test edition 1.0 "
     "(2027-01-15) goes on: chapter 300 (Winning) is missing"),
    ("only an excerpt goes on", [("1.0", CHAPTERS, True)], chapters_until("300"),
     "where test edition 1.0 (2027-01-15, an excerpt) goes on: chapter 300 (Winning) is missing"),
    ("every full edition goes on", [("0.9", dated(CHAPTERS, "2026-06-01"), False), ("1.0", CHAPTERS, False)],
     chapters_until("200"), "where test editions 0.9 (2026-06-01) and 1.0 (2027-01-15) go on"),
    ("undated, so compared with all", [("1.0", CHAPTERS, False)], dated(chapters_until("300"), ""),
     "chapter 300 (Winning) is missing (the document has no date, so editions of every date were "
     "compared: give --date if it is an older edition)"),
    # imports as before
    ("a first edition", [], chapters_until("300"), None),
    ("the whole document", [("1.0", CHAPTERS, False)], dated(CHAPTERS, "2027-06-01"), None),
    ("an older edition may lack a later chapter", [("1.0", CHAPTERS, False)],
     dated(chapters_until("300"), "2026-06-01"), None),
    ("an older full edition stops there too", [("0.9", dated(chapters_until("300"), "2026-06-01"), False),
                                               ("1.0", CHAPTERS, False)],
     dated(chapters_until("300"), "2027-06-01"), None),
    ("an excerpt that stops early tells nothing", [("1.0", chapters_until("200"), True)],
     chapters_until("300"), None),
    ("the edition it replaces is not compared", [("9.9", CHAPTERS, False)], chapters_until("300"), None),
]


@pytest.mark.parametrize("name, home_editions, text, says", BESIDE, ids=[c[0] for c in BESIDE])
def test_a_document_stopping_where_the_other_editions_go_on_is_refused(
        runner: CliRunner, tmp_path: Path, name: str, home_editions: list[tuple[str, str, bool]],
        text: str, says: str | None) -> None:
    home = tmp_path / "home"
    for edition, document, partial in home_editions:
        (tmp_path / f"{edition}.md").write_text(document, encoding="utf-8")
        out = runner.invoke(main, ["--home", str(home), "import", str(tmp_path / f"{edition}.md"), "-r", "test",
                                   "-e", edition, "--no-build", *(["--partial"] if partial else [])])
        assert out.exit_code == 0, out.output
    doc = tmp_path / "doc.md"
    doc.write_text(text, encoding="utf-8")
    out = runner.invoke(main, ["--home", str(home), "import", str(doc), "-r", "test", "-e", "9.9", "--no-build"])
    assert "Traceback" not in out.output
    if says is None:
        assert out.exit_code == 0 and "stops after" not in out.output, out.output
        return
    assert out.exit_code == 2, out.output
    assert f"{doc}:{last_rule_line(text)}: error: the document looks cut short: " in out.output
    assert says in out.output and "import it with --partial" in out.output
    kept = home / "imports" / "test" / "9.9" / "edition.toml"
    assert not kept.exists() or "Winning" in kept.read_text()  # nothing of the cut document kept
    out = runner.invoke(main, ["--home", str(home), "import", str(doc), "-r", "test", "-e", "9.9", "--no-build",
                               "--partial"])
    assert out.exit_code == 0 and "(partial)" in out.output, out.output
    assert f"warning at line {last_rule_line(text)}: the document stops after chapter" in out.output


def test_an_import_records_the_sections_the_next_one_compares(runner: CliRunner, tmp_path: Path) -> None:
    """The top-level sections go into edition.toml, so an import reads no other document; one
    imported before they were recorded is read instead."""
    home = tmp_path / "home"
    (tmp_path / "1.0.md").write_text(CHAPTERS, encoding="utf-8")
    assert runner.invoke(main, ["--home", str(home), "import", str(tmp_path / "1.0.md"), "-r", "test",
                                "-e", "1.0", "--no-build"]).exit_code == 0
    meta = home / "imports" / "test" / "1.0" / "edition.toml"
    recorded = 'sections = [["100", "Game Concepts"], ["200", "Turns"], ["300", "Winning"]]'
    assert recorded in meta.read_text()
    meta.write_text(meta.read_text().replace(recorded + "\n", ""))  # as an older import wrote it
    doc = tmp_path / "doc.md"
    doc.write_text(chapters_until("300"), encoding="utf-8")
    out = runner.invoke(main, ["--home", str(home), "import", str(doc), "-r", "test", "-e", "9.9", "--no-build"])
    assert out.exit_code == 2 and "chapter 300 (Winning) is missing" in out.output, out.output


# Sections as data: (name, the document's sections, its date, the other editions, the editions
# said to go on, the sections said missing)
G = (GLOSSARY, GLOSSARY)
MAGIC = (("1", "Game Concepts"), ("5", "Turn Structure"), ("9", "Casual Variants"), G)
SECTIONS = [
    ("a cut before the Glossary", MAGIC[:3], "2026-01-16", [EditionSections("old", "2025-11-14", False, MAGIC)],
     ["old"], [G]),
    ("the Glossary ends every release", MAGIC[:2] + (G,), "2026-01-16",
     [EditionSections("old", "2025-11-14", False, MAGIC)], [], []),
    ("a chapter renumbered away", (("000", ""), ("100", ""), ("700", "")), "2026-01-01",
     [EditionSections("1.0", "2025-06-02", False, (("000", ""), ("500", ""), ("700", "")))], [], []),
    ("nothing to compare", MAGIC[:1], "2026-01-16", [], [], []),
    ("no sections read", (), "2026-01-16", [EditionSections("old", "2025-11-14", False, MAGIC)], [], []),
]


@pytest.mark.parametrize("name, sections, date, others, going, missing", SECTIONS, ids=[c[0] for c in SECTIONS])
def test_which_documents_stop_where_the_others_go_on(name: str, sections: tuple, date: str, others: list,
                                                      going: list[str], missing: list) -> None:
    said_going, said_missing = stops_where_others_go_on(sections, date, others)
    assert [e.name for e in said_going] == going and said_missing == missing


# --- No real document is refused --------------------------------------------------------------
#
# Every real document of ../shared/corpora (SOURCES.md): the 70 Magic releases of the archive
# (2003-2025) and the two beside them, every Riftbound edition in every layout there, the
# Tournament Rules; and the embedded excerpts. Read by the readers only: no import builds them.

def _real_documents() -> list[tuple[str, Path]]:
    riftbound = [("riftbound", p) for p in sorted(CORPORA.glob("riftbound/core-rules-*.md"))]
    tournament = [("riftbound-tournament", p) for p in sorted(CORPORA.glob("riftbound/tournament-rules-*.md"))]
    mtg = [("mtg", p) for p in sorted(CORPORA.glob("mtg/comprehensive-rules-*.txt"))
           + sorted(CORPORA.glob("mtg/archive/comprehensive-rules-*.txt"))]
    return riftbound + tournament + mtg


REAL = _real_documents() if shared_available() else []


def _read_sections(path: Path) -> tuple[TopSections, str]:
    """The document's top-level sections and date, read once per session (those of the
    archive releases were noted as tests/test_reader_quirks.py read them)."""
    return real_document_sections(path)


def _excerpts(ruleset: str) -> list[EditionSections]:
    return [EditionSections(src.name, src.date, True, _read_sections(src.path)[0])
            for src in collect_sources(Path("/nonexistent-home"), REPO / "rules").editions
            if src.ruleset == ruleset]


def test_the_real_documents_are_all_there() -> None:
    if not shared_available():
        pytest.skip(SKIP_REASON)
    counts = {rs: sum(1 for r, _ in REAL if r == rs) for rs in ("mtg", "riftbound", "riftbound-tournament")}
    assert counts == {"mtg": 72, "riftbound": 5, "riftbound-tournament": 1}


@pytest.mark.parametrize("ruleset, path", REAL, ids=[p.name for _, p in REAL])
def test_no_real_document_stops_where_another_goes_on(ruleset: str, path: Path) -> None:
    """Beside any of the ruleset's other real documents (each alone, the hardest case: the
    nearest older edition is then all the check has) or beside all of them and the excerpts."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    sections, date = _read_sections(path)
    assert sections and date, "the reader found its chapters and its date"
    others = [EditionSections(p.name, _read_sections(p)[1], False, _read_sections(p)[0])
              for rs, p in REAL if rs == ruleset and p != path]
    for other in [*others, *_excerpts(ruleset)]:
        assert stops_where_others_go_on(sections, date, [other]) == ([], []), other.name
    assert stops_where_others_go_on(sections, date, others + _excerpts(ruleset)) == ([], [])


def test_real_editions_import_beside_each_other_and_a_cut_one_does_not(tmp_path: Path) -> None:
    """Through import_document into one home (the embedded excerpts beside): the Tournament
    Rules as a first edition, Riftbound 1.4 and then the older 1.2 and 1.0, which lack 1.4's
    chapter 800; then the finding's document, 1.4's first 400 lines."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    home = tmp_path / "home"
    for ruleset, edition, name in [("riftbound-tournament", "2026-05-02", "tournament-rules-2026-05-02.md"),
                                   ("riftbound", "1.4", "core-rules-2026-07-16.md"),
                                   ("riftbound", "1.2", "core-rules-2025-12-01-markdown.md"),
                                   ("riftbound", "1.0", "core-rules-2025-06-02.md")]:
        import_document(home, CORPORA / "riftbound" / name, ruleset=ruleset, edition=edition)
    cut = tmp_path / "partial-rb.md"
    cut.write_bytes(b"".join((CORPORA / "riftbound" / "core-rules-2026-07-16.md").read_bytes()
                             .splitlines(keepends=True)[:400]))
    with pytest.raises(CutShortError) as refused:
        import_document(home, cut, ruleset="riftbound", edition="9.9811")
    [note] = refused.value.diagnostics
    assert (note.file, note.line) == (str(cut), 396)
    assert note.message.startswith("the document looks cut short: the document stops after chapter 100 "
                                   "(Game Concepts), at rule 123, where riftbound editions 1.0 (2025-06-02), "
                                   "1.2 (2025-12-01), 1.3 (2026-03-30, an excerpt) and 1.4 (2026-07-16) go on: "
                                   "chapters 300 (Playing the Game), 500 (Playing the Game), "
                                   "700 (Additional Rules) and 800 (Keywords) are missing"), note.message
    assert not (home / "imports" / "riftbound" / "9.9811").exists()
