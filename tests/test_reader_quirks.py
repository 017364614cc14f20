"""Readers that cope and report (issue #19): a publisher's slip is repaired where the repair
is certain, otherwise kept as printed, and reported either way; a rules document is never
refused for one.

Three layers:

* one quirk class per table line, on small synthetic documents (the Magic fixture of
  tests/fixtures/mtg edited on one line, and the documents in tests/fixtures/readers/);
* the same quirks where the real releases print them (../shared, skipped where absent);
* every one of the 70 Magic archive releases read, its rule numbers checked against an
  independent line scan, and both layouts of Riftbound 1.2 giving the same rules and texts.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.layouts import disagreeing
from kb.graph import build_edition
from kb.model import Diagnostic, ReadResult
from kb.numbers import format_number, parse_number, sort_key
from kb.read import decode, detect_format, read_document, read_text
from tests.conftest import CORPORA, REPO, SKIP_REASON, read_real_document, requires_shared

FIXTURES = REPO / "tests" / "fixtures"
MINI = (FIXTURES / "mtg" / "mini-2026.txt").read_text(encoding="utf-8")
WRAPPED = FIXTURES / "readers" / "mtg-2003-wrapped.txt"
LAYOUTS = FIXTURES / "readers" / "layouts"
ARCHIVE = CORPORA / "mtg" / "archive"
RIFTBOUND_12 = (CORPORA / "riftbound" / "core-rules-2025-12-01.md",
                CORPORA / "riftbound" / "core-rules-2025-12-01-markdown.md")


def notes_at(result: ReadResult, line: int, words: str) -> list[Diagnostic]:
    return [d for d in result.diagnostics if d.line == line and words in d.message]


def mtg_text_of(ed, number: str) -> str:
    rule = ed.rules[number]
    return " ".join([rule.text, *rule.examples])


# -- Magic: one quirk class per line ---------------------------------------------------------

# name, printed line, as the slip prints it, line of the note, words of the note, the number
# read, words of the text it holds
MTG_QUIRKS = [
    ("id split by a space", "101.1b. The stray", "101. 1b The stray", 43, "split by a space",
     "101.1b", "The stray"),
    ("id indented by a space", "101.2 This rule", " 101.2 This rule", 45, "indented by a space",
     "101.2", "lost the dot"),
    ("no space after the id", "100.2. Each player", "100.2.Each player", 34,
     "no space between id 100.2", "100.2", "Each player needs"),
    ("digits swapped", "101.1b. The stray", "110.1b The stray", 43,
     "110.1b has no parent 110.1; read as 101.1b", "101.1b", "The stray"),
    ("a subrule's number printed twice", "101.1b. The stray", "100.1b The stray", 43,
     "100.1b is printed twice; read as 101.1b", "101.1b", "The stray"),
    ("a misprinted parent", "101.2 This rule", "101.25 This rule", 45,
     "printed as 101.25 is read as 101.2", "101.2", "lost the dot"),
    ("a number printed twice, no near number free", "702.2a Deathtouch", "100.1a Deathtouch", 74,
     "100.1a is printed twice; this paragraph is kept as part of rule 702.2", "702.2",
     "Deathtouch is a static ability"),
    ("a subrule without its parent", "701.2. Tap and Untap\n\n", "", 64,
     "printed without its parent 701.2; 701.2 is kept as an empty rule", "701.2a", "turn it sideways"),
    ("a misprinted section number", "701. Keyword Actions\n\n", "301. Keyword Actions\n\n", 60,
     "section printed as 301. is read as 701", "701.1", "plain English meaning"),
]


@pytest.mark.parametrize("name,old,new,line,note,number,words", MTG_QUIRKS,
                         ids=[q[0] for q in MTG_QUIRKS])
def test_magic_quirk_is_read_and_reported(name: str, old: str, new: str, line: int, note: str,
                                          number: str, words: str) -> None:
    assert old in MINI
    result = read_text(MINI.replace(old, new, 1), "slip.txt", "mtg-text")
    ed = build_edition(result, ruleset="mtg", edition="x", source="slip.txt").edition
    found = notes_at(result, line, note)
    assert [(d.file, d.severity) for d in found] == [("slip.txt", "warning")], result.diagnostics
    assert words in mtg_text_of(ed, number)


_RULE_LINE = re.compile(r"(?m)^(\d{3})\.(\d+[a-z]?)(\.?) (?=\S)")
# the fixture, and the embedded excerpt of the 2026 release (real text, 260 rules)
SLIP_SOURCES = {"fixture": MINI,
                "excerpt": decode((REPO / "rules" / "mtg" /
                                   "comprehensive-rules-2026-01-16-excerpt.txt").read_bytes())}


def _slip(text: str, lines: list[re.Match], index: int, how: str) -> str:
    """One of the publisher's slips, made on one printed rule line."""
    match = lines[index]
    head, tail, dot = match.groups()
    start, end = match.span()
    if how == "split":
        new = f"{head}. {tail}{dot or ('' if tail[-1].isalpha() else '.')} "
    elif how == "indent":
        new = " " + match.group(0)
    elif how == "glue":
        new = f"{head}.{tail}." if text[end:end + 1].isupper() else match.group(0)
    elif how == "swap":
        digits = head + "." + tail
        new = digits[1] + digits[0] + digits[2:] + dot + " "
    else:  # "repeat": the number of the rule line above
        new = lines[index - 1].group(0) if index else match.group(0)
    return text[:start] + new + text[end:]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(source=st.sampled_from(sorted(SLIP_SOURCES)),
       slips=st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                                st.sampled_from(["split", "indent", "glue", "swap", "repeat"])),
                      min_size=1, max_size=3))
def test_slips_anywhere_never_refuse_the_document(source: str, slips: list[tuple[float, str]]) -> None:
    """Up to three slips on any rule lines: the document is read and built, never refused."""
    text = SLIP_SOURCES[source]
    lines = list(_RULE_LINE.finditer(text))
    # from the end of the document, so the offsets of the lines above stay valid
    for index, how in sorted({int(at * len(lines)): how for at, how in slips}.items(), reverse=True):
        text = _slip(text, lines, index, how)
    result = read_text(text, "slips.txt", "mtg-text")
    build_edition(result, ruleset="mtg", edition="x", source="slips.txt")
    assert not [d for d in result.diagnostics if d.severity == "error"]


RIFTBOUND_EXCERPT = (REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md").read_text(encoding="utf-8")
_BOLD_ID = re.compile(r"(?m)^\*\*(\d{3}(?:\.[0-9a-z]+)*\.)\*\*")


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.floats(0, 1, exclude_max=True),
                          st.sampled_from(["repeat", "drop", "swap", "plain", "unreadable"])),
                min_size=1, max_size=3))
def test_riftbound_slips_anywhere_never_refuse_the_document(slips: list[tuple[float, str]]) -> None:
    """The same for the Riftbound Markdown reader: an id repeated from the line above, a rule
    line dropped (its subrules lose their parent), digits swapped, the bold lost, an id
    that is not a number."""
    text = RIFTBOUND_EXCERPT
    ids = list(_BOLD_ID.finditer(text))
    for index, how in sorted({int(at * len(ids)): how for at, how in slips}.items(), reverse=True):
        m = ids[index]
        rid = m.group(1)
        new = {"repeat": f"**{ids[index - 1].group(1) if index else rid}**",
               "drop": "", "swap": f"**{rid[1] + rid[0] + rid[2:]}**", "plain": f"{rid}  ",
               "unreadable": f"**{rid[:3]}.x1.**"}[how]
        end = text.index("\n", m.end()) if how == "drop" else m.end()
        text = text[:m.start()] + new + text[end:]
    result = read_text(text, "slips.md", "riftbound-md")
    build_edition(result, ruleset="riftbound", edition="x", source="slips.md")
    assert not [d for d in result.diagnostics if d.severity == "error"]


def test_the_unedited_fixture_has_no_notes() -> None:
    """The quirk notes above come from the edits, not from the fixture."""
    assert not read_text(MINI, "mini.txt", "mtg-text").diagnostics


def test_hard_wrapped_release_joins_its_lines_and_keeps_wrapped_references() -> None:
    """2003: paragraphs wrapped at a line width; ``See rule`` ends a line and ``101.2. If…``
    starts the next, which is the reference, not a second rule 101.2."""
    result, fmt = read_document(WRAPPED)
    assert fmt == "mtg-text"
    ed = build_edition(result, ruleset="mtg", edition="2003", source=str(WRAPPED)).edition
    assert notes_at(result, 15, "hard-wrapped")[0].severity == "info"
    assert notes_at(result, 30, "continues the reference")[0].rule == "100.2a"
    assert ed.rules["100.2a"].text == ("A constructed deck can have any number of basic land cards. "
                                       "See rule 101.2. If a player mulligans, he or she draws one "
                                       "fewer card.")
    assert ed.rules["100.2a"].examples == ["A player who mulligans once draws a hand of six cards."]
    assert ed.rules["101.1"].text.split("\n") == [
        "At the start of a game, each player shuffles his or her own deck so that the cards are "
        "in a random order.", "Each player may then shuffle his or her opponent's deck."]
    assert ed.rules["101.2"].text == ("A player who is dissatisfied with his or her initial hand "
                                      "may mulligan.")
    assert [r for r in ed.rules if ed.rules[r].kind == "rule"] == [
        "100.1", "100.1a", "100.2", "100.2a", "101.1", "101.2", "101.2a"]
    assert [(t.name, t.definition, t.rules) for t in result.terms] == [
        ("Mulligan", "To shuffle a hand back into a deck and draw one fewer card. See rule 101.2.",
         ["101.2"])]


def test_documents_that_are_not_rules_are_still_refused() -> None:
    from kb.model import DocumentError
    for text in ["Magic: The Gathering Comprehensive Rules\n\nIntroduction\n\nHello.\n", ""]:
        with pytest.raises(DocumentError):
            read_text(text, "doc.txt", "mtg-text")
    with pytest.raises(DocumentError):
        decode(bytes(range(256)) * 8, "doc.txt")


# -- an import keeps the notes ------------------------------------------------------------------

SLIPPED_MD = """# Test Rules

Last Updated: 2026-01-01

## 100. Concepts

### 101. Basics

**102.** A Task is one or more steps.

**103.** Priority is the singular exclusive right to act.

**103.1.** A player who passes gives Priority away.

**102.** Again.

**104.2.a.** Orphan.
"""


def test_a_document_with_slips_imports_and_stats_lists_its_notes(own_home: Path, tmp_path: Path) -> None:
    """What was refused before (a number printed again, a rule without its parent) imports,
    and `rulekb stats` names each slip with its line (imported into a copy of the session's
    embedded home: the build adds the one edition)."""
    from kb.query import KnowledgeBase
    from kb.store import build, import_document
    home, doc = own_home, tmp_path / "slips.md"
    doc.write_text(SLIPPED_MD, encoding="utf-8")
    import_document(home, doc, ruleset="test", edition="1.0")
    build(home)
    kb = KnowledgeBase.open(home)
    [stats] = [e for e in kb.stats() if e["ruleset"] == "test"]
    notes = [(d["line"], d["message"]) for d in stats["diagnostics"]]
    assert notes == [
        (15, "rule 102 is printed again; this paragraph is kept as part of rule 103.1"),
        (17, "rule 104.2.a. is printed without its parent 104; 104 is kept as an empty rule"),
        (17, "rule 104.2.a. is printed without its parent 104.2; 104.2 is kept as an empty rule")]
    assert kb.rule("test", "103.1")["text"] == "A player who passes gives Priority away. Again."
    assert kb.rule("test", "104.2.a")["text"] == "Orphan."


# -- Riftbound: one layout per file, the same rules --------------------------------------------

# file, the reader that reads it, what the layout has
LAYOUT_FILES = [
    ("md-h4-bold.md", "riftbound-md", "#### headings, bold ids, whole rules on one line, bullets, "
     "a rule across a page break"),
    ("md-h2h3-wrapped.md", "riftbound-md", "## and ### headings, hard-wrapped indented lines, "
     "_italics_, **bold** terms, * bullets"),
    ("md-h3-plain.md", "riftbound-md", "### headings only, plain ids without their last dot"),
    ("pdftext-style.md", "riftbound-pdftext", "PDF text: double spaces, no heading markup"),
]


def _summary(result: ReadResult) -> list[tuple]:
    return [(r.number, r.kind, r.title, r.text, tuple(r.examples)) for r in result.rules]


@pytest.mark.parametrize("name,fmt,layout", LAYOUT_FILES, ids=[f[0] for f in LAYOUT_FILES])
def test_every_layout_of_one_document_reads_the_same(name: str, fmt: str, layout: str) -> None:
    reference, _ = read_document(LAYOUTS / "md-h4-bold.md")
    result, detected = read_document(LAYOUTS / name)
    assert detected == fmt
    assert (result.title, result.date) == ("Riftbound Core Rules v9.9", "2025-12-01")
    assert _summary(result) == _summary(reference)
    assert not [d for d in result.diagnostics if d.severity == "error"]


def test_the_layout_document_reads_as_expected() -> None:
    result, _ = read_document(LAYOUTS / "md-h4-bold.md")
    kinds = {format_number(r.number): r.kind for r in result.rules}
    assert kinds == {"100": "chapter", "101": "section", "102": "rule", "103": "rule",
                     "103.1": "rule", "103.1.a": "rule", "103.1.b": "rule", "103.1.b.1": "rule",
                     "103.2": "rule", "104": "section", "104.1": "rule"}
    texts = {format_number(r.number): r.text for r in result.rules}
    assert texts["103"] == "To play Riftbound, a player must have two Decks and a Champion Legend."
    assert texts["103.1.b.1"] == '* Units and legends say "I," "me," etc.'
    assert texts["103.2"] == "A Main Deck of at least 40 cards is placed face down in the Main Deck Zone."


# -- the real releases --------------------------------------------------------------------------

# release, line, words of the note, the number read there
REAL_QUIRKS = [
    ("2005-10-01", 2146, "id printed split by a space (606. 8b)", "606.8b"),
    ("2009-09-04", 1941, "id indented by a space", "611.2"),
    ("2022-10-07", 6022, "no space between id 901.4", "901.4"),
    ("2007-02-01", 1413, "432.2b has no parent 432.2; read as 423.2b", "423.2b"),
    ("2006-06-01", 1618, "502.35b is printed twice; read as 502.36b", "502.36b"),
    ("2009-09-04", 2611, "702.30d is printed twice; read as 702.30e", "702.30e"),
    ("2010-06-18", 1545, "printed as 505.54 is read as 505.5", "505.5"),
    ("2003-10-01", 1912, "continues the reference", "413.2d"),
    ("2003-10-01", 321, "continues the reference", "200.9c"),
    ("2013-02-01", 4609, "Glossary runs to the end of the file", ""),
]


class ArchiveReads:
    """The archive's releases as :func:`kb.read.read_document` reads them, for this module.
    A release several tests read (``kept``: the real quirks' and the formerly refused ones)
    is read once and kept until the module ends; the others are read by one test and not kept
    (the 70 releases read hold about 300 MB). Read the results, never change them."""

    def __init__(self, kept: set[str]) -> None:
        self.kept = kept
        self._read: dict[str, tuple[ReadResult, str]] = {}

    def __call__(self, release: str) -> tuple[ReadResult, str]:
        found = self._read.get(release)
        if found is None:
            found = read_real_document(ARCHIVE / f"comprehensive-rules-{release}.txt")
            if release in self.kept:
                self._read[release] = found
        return found


@pytest.fixture(scope="module")
def archive() -> ArchiveReads:
    return ArchiveReads({r for r, *_ in REAL_QUIRKS} | set(FORMERLY_REFUSED))


@requires_shared
@pytest.mark.parametrize("release,line,note,number", REAL_QUIRKS)
def test_real_release_quirk_is_repaired_and_reported(release: str, line: int, note: str,
                                                     number: str, archive: ArchiveReads) -> None:
    result, _ = archive(release)
    found = notes_at(result, line, note)
    assert len(found) == 1 and found[0].severity == "warning", [str(d) for d in result.diagnostics]
    if number:
        assert parse_number(number) in {r.number for r in result.rules}


# What the independent scan counts as a printed rule: a line starting (after at most two
# spaces) with ``NNN.N`` or ``NNN.Na`` (a space may split the id after ``NNN.``), then a space
# or the capital that starts the text; not when the line above, in the same paragraph, ends
# with "rule"/"rules" (the id is the wrapped end of a reference).
_SCAN_RULE = re.compile(r"^ {0,2}(\d{3})\. ?(\d+)([a-z]?)\.?(?: |(?<=\.)[A-Z])")
_SCAN_SECTION = re.compile(r"^\d{3}\. [A-Z\"“[]")
_SCAN_WRAPPED_REFERENCE = re.compile(r"\brules?\s*$")


def _scan(text: str) -> tuple[list[tuple[int, str]], int]:
    """(line, number) of every printed rule and subrule, and the number of section headers,
    between the first rule and the last ``Glossary`` line: a plain line scan."""
    lines = text.split("\n")
    first = next(i for i, ln in enumerate(lines) if re.match(r"^\d{3}\.\d", ln))
    glossary = max((i for i, ln in enumerate(lines) if ln.strip() == "Glossary"), default=len(lines))
    printed, sections = [], 0
    for i in range(first, glossary):
        m = _SCAN_RULE.match(lines[i])
        if m and not _SCAN_WRAPPED_REFERENCE.search(lines[i - 1]):
            printed.append((i + 1, f"{m.group(1)}.{m.group(2)}{m.group(3)}"))
        elif _SCAN_SECTION.match(lines[i]):
            sections += 1
    # the section headers right above the first rule are part of the body too
    for i in range(first - 1, -1, -1):
        if _SCAN_SECTION.match(lines[i]):
            sections += 1
        elif lines[i].strip() and not re.match(r"^\d\. ", lines[i]):
            break
    return printed, sections


def _archive() -> list[Path]:
    return sorted(ARCHIVE.glob("comprehensive-rules-*.txt")) if ARCHIVE.is_dir() else []


@requires_shared
def test_all_70_archive_releases_read_with_every_printed_number(archive: ArchiveReads) -> None:
    """Read only (no graph, no search): each release reads without an error; its rules are
    exactly the printed rule lines of an independent scan, at the same lines, under the
    printed number or, where the reader repaired it, under the number its note names; the
    numbers are unique and every subrule has its parent (what the graph requires)."""
    files = _archive()
    assert len(files) == 70
    started = time.perf_counter()
    for path in files:
        result, fmt = archive(path.stem.removeprefix("comprehensive-rules-"))
        assert fmt == "mtg-text", path.name
        assert not [d for d in result.diagnostics if d.severity == "error"], path.name
        printed, sections = _scan(decode(path.read_bytes()))
        rules = [r for r in result.rules if r.kind == "rule"]
        assert [r.line for r in rules] == [line for line, _ in printed], path.name
        repaired = {(d.line, d.rule) for d in result.diagnostics if d.severity == "warning"}
        for r, (line, number) in zip(rules, printed):
            read_as = format_number(r.number, "mtg")
            assert read_as == number or (line, read_as) in repaired, (path.name, line, number, read_as)
        assert sum(r.kind == "section" for r in result.rules) == sections, path.name
        keys = [sort_key(r.number) for r in result.rules]
        assert len(set(keys)) == len(keys), path.name
        known = set(keys)
        assert all(sort_key(r.number[:-1]) in known for r in rules), path.name
    elapsed = time.perf_counter() - started
    print(f"\nchecked {len(files)} archive releases in {elapsed:.1f}s")


# The releases that were refused before these repairs (13), built into a graph as an import does.
# The file the archive dates 2006-06-01 prints "These rules are current as of June 1, 2004."
# (and holds 772 rules where 2006-02-01 holds 1,004): the date read is the one printed.
PRINTED_DATES = {"2006-06-01": "2004-06-01"}
FORMERLY_REFUSED = ["2003-10-01", "2003-12-01", "2005-10-01", "2006-02-01", "2006-06-01",
                    "2006-07-15", "2007-02-01", "2007-05-01", "2007-09-07", "2009-09-04",
                    "2009-10-01", "2010-06-18", "2013-02-01"]


@requires_shared
@pytest.mark.parametrize("release", FORMERLY_REFUSED)
def test_formerly_refused_release_builds(release: str, archive: ArchiveReads) -> None:
    path = ARCHIVE / f"comprehensive-rules-{release}.txt"
    result, _ = archive(release)
    ed = build_edition(result, ruleset="mtg", edition=release, source=str(path)).edition
    assert ed.date == PRINTED_DATES.get(release, release)
    assert len(ed.rules) == len(result.rules)


# -- Riftbound 1.2 in two layouts ---------------------------------------------------------------

def _fold_quotes(text: str) -> str:
    """The PDF text prints curly quotes where the Markdown conversion has straight ones: the
    publisher's characters against the converter's, not a reading difference (117 of the
    1,794 rules differ by them alone: 347 curly quotes in the PDF text, none in the Markdown).
    The other residual difference, a bullet the conversion moved before the id (``- **053.1.**``
    where the PDF prints ``053.1. • Units…``), the Markdown reader puts back."""
    return " ".join(text.translate(str.maketrans("‘’“”", "''\"\"")).split())


@requires_shared
def test_both_layouts_of_riftbound_1_2_give_the_same_rules_and_texts() -> None:
    (pdf, pdf_fmt), (md, md_fmt) = (read_document(p) for p in RIFTBOUND_12)
    assert (pdf_fmt, md_fmt) == ("riftbound-pdftext", "riftbound-md")
    assert (pdf.date, md.date) == ("2025-12-01", "2025-12-01")

    def rules(result: ReadResult) -> dict:
        return {r.number: (r.kind, _fold_quotes(r.title), _fold_quotes(r.text),
                           [_fold_quotes(e) for e in r.examples]) for r in result.rules}

    a, b = rules(pdf), rules(md)
    assert len(a) == len(b) == 1795
    unfolded = {r.number: (r.title, r.text, r.examples) for r in md.rules}
    assert sum((r.title, r.text, r.examples) != unfolded[r.number] for r in pdf.rules) == 117
    assert set(a) == set(b)
    assert [n for n in a if a[n] != b[n]] == []
    assert disagreeing(pdf, md) == []  # every rule under the same parent: the same breadcrumbs
    # the same repairs, reported by both
    assert ([(d.rule, d.message.split(";")[0]) for d in pdf.diagnostics]
            == [(d.rule, d.message.split(";")[0]) for d in md.diagnostics])
    for path, result in zip(RIFTBOUND_12, (pdf, md)):
        build_edition(result, ruleset="riftbound", edition="1.2", source=str(path))


@requires_shared
def test_riftbound_1_2_markdown_counts_agree_with_its_printed_ids() -> None:
    """An independent count of the ids the Markdown conversion prints (headings, bold ids
    after an optional bullet, plain ids starting a paragraph), adjusted by the repairs: 744.5
    is printed twice in a row (-1), 721.1 without its parent, 721, which is kept empty (+1)."""
    text = RIFTBOUND_12[1].read_text(encoding="utf-8")
    heading = r"#{2,6} \d{3}(?:\.[0-9a-z]+)*\.?\s"
    bold = r"(?:- )?\*\*\d{3}(?:\.[0-9a-z]+)*\.?\*\*"
    plain = r"(?<=\n\n)\d{3}(?:\.[0-9a-z]+)+\.? "
    printed = len(re.findall(rf"(?m)^(?:{heading}|{bold})", text)) + len(re.findall(plain, text))
    result, _ = read_document(RIFTBOUND_12[1])
    assert printed - 1 + 1 == len(result.rules) == 1795
    assert detect_format(text) == "riftbound-md"


def test_skip_reason_names_the_corpora() -> None:
    assert str(CORPORA) in SKIP_REASON
