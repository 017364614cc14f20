"""The rules as published: a PDF or DOCX of a document imports as its text does.

No PDF or DOCX is kept in the repository: the embedded excerpts are printed at test time
(:mod:`tests.published`) the way publishers print them — running headers and footers,
page numbers, rules split by page breaks, hyphenated line ends, two columns, no gaps
between paragraphs, Word's heading styles and indents — and each import is compared with
the import of the text it prints: the same rules (numbers, kinds, titles, texts, examples),
glossary, title and date. On the full Magic edition (``../shared``), every difference must
be at a page break the reader itself reported as uncertain.
"""

from __future__ import annotations

import hashlib
import io
import re
import tempfile
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from unittest import mock

import pypdf
import pytest
from click.testing import CliRunner

import kb.read
from kb.cli import main
from kb.model import DocumentError, ReadResult
from kb.read import read_bytes, read_document, read_text
from kb.read.containers import MAX_DOCX_EXPANDED_BYTES, MAX_PDF_PAGES, Unpacked, container_of, unpack
from bench.layouts import disagreeing, kinds_and_parents
from tests.conftest import CORPORA, REPO, shared_available
from tests.published import (CHROMIUM, FONT, Block, Layout, browser_pdf_of, docx_of, markdown_blocks,
                             pdf_of, printed_text, read_text_file, txt_blocks)

pytestmark = pytest.mark.skipif(FONT is None, reason="printing the test PDFs needs a Unicode TrueType "
                                                     "font (Debian's fonts-dejavu-core)")

RULES = REPO / "rules"
TITLE = {"mtg": "Magic: The Gathering Comprehensive Rules", "riftbound": "Riftbound Core Rules"}


@dataclass(frozen=True)
class Excerpt:
    """An embedded excerpt and what its printed form is compared with."""

    path: Path
    ruleset: str

    @property
    def blocks(self) -> list[Block]:
        return _blocks(self.path)

    def expected(self) -> ReadResult:
        """The text import: the file itself for a text release; for a Markdown export, the
        text its PDF prints (the markup is not printed)."""
        text = read_text_file(self.path)
        if self.path.suffix == ".md":
            text = printed_text(self.blocks)
        return read_text(text, "text")


@cache
def _blocks(path: Path) -> list[Block]:
    text = read_text_file(path)
    return txt_blocks(text) if path.suffix == ".txt" else markdown_blocks(text)


EXCERPTS = {
    "mtg 2026": Excerpt(RULES / "mtg" / "comprehensive-rules-2026-01-16-excerpt.txt", "mtg"),
    "mtg 2010": Excerpt(RULES / "mtg" / "comprehensive-rules-2010-10-01-excerpt.txt", "mtg"),
    "riftbound 1.4": Excerpt(RULES / "riftbound" / "core-rules-1.4-excerpt.md", "riftbound"),
}


def summary(result: ReadResult) -> dict:
    """What an import must keep: title, date, every rule and every glossary entry."""
    return {"title": result.title, "date": result.date,
            "rules": [(r.number, r.kind, r.title, r.text, r.examples) for r in result.rules],
            "terms": sorted((t.name, t.kind, t.definition, tuple(t.rules)) for t in result.terms)}


def differences(expected: ReadResult, got: ReadResult, rules_only: bool = False) -> list[tuple[int, str]]:
    """Every rule and entry that differs, with the line of the imported text it is read
    from (of the rule before it, where it is missing), and named; empty when the imports agree."""
    a, b = summary(expected), summary(got)
    out = [(0, f"{k}: {a[k]!r} != {b[k]!r}") for k in ("title", "date") if a[k] != b[k]]
    rules_b = {r.number: r for r in got.rules}
    line = 0
    for rule in expected.rules:
        mine = rules_b.get(rule.number)
        line = mine.line if mine is not None else line
        if mine is None or (rule.kind, rule.title, rule.text, rule.examples) != \
                (mine.kind, mine.title, mine.text, mine.examples):
            out.append((line, f"rule {'.'.join(rule.number)}: {rule.text[:60]!r} != "
                              f"{mine.text[:60] if mine else None!r}"))
    known = {r.number for r in expected.rules}
    out += [(r.line, f"rule {'.'.join(r.number)} is not in the text") for r in got.rules if r.number not in known]
    if not rules_only:
        # An entry's place: its line in the glossary read, or that of the entry before it
        # (a keyword's definition is its glossary entry's, so it is placed there too).
        glossary = {t.name: t.line for t in got.terms if t.kind == "glossary"}
        place: dict[str, int] = {}
        line = 0
        for term in expected.terms:
            if term.kind == "glossary":
                line = glossary.get(term.name, line)
                place[term.name] = line
        kept = {(t.name, t.kind, t.definition) for t in expected.terms}
        out += [(place.get(t.name, t.line), f"term {t.name!r}: {t.definition[:60]!r}") for t in got.terms
                if (t.name, t.kind, t.definition) not in kept]
        names = {(t.name, t.kind) for t in got.terms}
        out += [(place.get(t.name, 0), f"term {t.name!r} is missing") for t in expected.terms
                if (t.name, t.kind) not in names]
    return out


# The text each PDF read by imported() was unpacked into (by its bytes): where each of its
# lines was printed, for unreported(), which would otherwise unpack the PDF again.
_UNPACKED: dict[bytes, Unpacked | None] = {}


def imported(data: bytes, source: str) -> tuple[ReadResult, str]:
    """``read_bytes(data, source)``, the text it unpacked kept on the way (what it returns is
    read_bytes' own: the unpacking is only watched)."""
    def watched(d: bytes, s: str = "") -> Unpacked | None:
        got = unpack(d, s)
        if d is data:  # this read's, not another thread's
            _UNPACKED[data] = got
        return got

    with mock.patch.object(kb.read, "unpack", watched):
        return read_bytes(data, source)


def unreported(found: list[tuple[int, str]], got: ReadResult, data: bytes) -> list[str]:
    """The differences that are not on a page (or right after one) where the reader said
    it could not tell whether a paragraph ends (an uncertain line end)."""
    if not found:
        return []
    unpacked = _UNPACKED[data] if data in _UNPACKED else unpack(data, "doc.pdf")
    notes = [d.message for d in got.diagnostics if "whether the paragraph goes on" in d.message]
    pages = {page for n in notes for a, b in re.findall(r"(\d+)(?:–(\d+))?", n.split("on page", 1)[1])
             for page in range(int(a), int(b or a) + 1)}  # "on page 3, 31–33"
    out = []
    for line, what in found:
        place = unpacked.place(line) if unpacked is not None and line else ""
        page = int(place.split()[-1]) if place else 0
        if not (page and (page in pages or page - 1 in pages)):
            out.append(f"{what} ({place or 'no place'})")
    return out


def quirky(text: str) -> str:
    """The typesetting a word processor adds: non-breaking spaces after rule numbers and
    before dashes, curly quotes for straight ones."""
    text = re.sub(r"(?m)^(\d{3}\.[0-9a-z.]*) ", "\\1\u00a0", text)
    text = text.replace(" —", "\u00a0—")
    text = re.sub(r"(?<![\w.])'(?=\w)", "\u2018", text).replace("'", "\u2019")
    return re.sub(r'"(?=\w)', "\u201c", text).replace('"', "\u201d")


# -- the table: one line per document × container × quirk ------------------------------------

HEADER_FOOTER = Layout(header="{title}", footer="Page {page} of {pages}")
ALL, RULES_ONLY = "rules and glossary", "rules"
CASES = [
    # document,        container, quirk,                        layout,                                         compared
    ("mtg 2026",       "pdf",  "running header and footer",    HEADER_FOOTER,                                  ALL),
    ("mtg 2026",       "pdf",  "bare page numbers",            Layout(footer="{page}"),                        ALL),
    ("mtg 2026",       "pdf",  "hyphenated line ends",         Layout(footer="- {page} -", hyphenate=True),    ALL),
    ("mtg 2026",       "pdf",  "a page break inside rules",    Layout(header="{title}", page_lines=23),        ALL),
    # a long glossary term in a narrow column, its definition's first word too long to fit
    # beside it, reads as one paragraph with the definition
    ("mtg 2026",       "pdf",  "two columns",                  Layout(footer="Page {page}", columns=2),        RULES_ONLY),
    # without gaps, nothing on the page says where one glossary entry ends and the next begins
    ("mtg 2026",       "pdf",  "no gaps between paragraphs",   Layout(footer="{page}", gap=0),                 RULES_ONLY),
    ("mtg 2026",       "pdf",  "NBSP and curly quotes",        Layout(footer="{page}"),                        ALL),
    ("mtg 2010",       "pdf",  "running header and footer",    HEADER_FOOTER,                                  ALL),
    ("mtg 2010",       "pdf",  "hyphenated line ends",         Layout(header="{title}", hyphenate=True),       ALL),
    ("mtg 2010",       "pdf",  "NBSP and curly quotes",        HEADER_FOOTER,                                  ALL),
    ("riftbound 1.4",  "pdf",  "running header and footer",    HEADER_FOOTER,                                  ALL),
    ("riftbound 1.4",  "pdf",  "hyphenated line ends",         Layout(footer="{page}", hyphenate=True),        ALL),
    ("riftbound 1.4",  "pdf",  "a page break inside rules",    Layout(footer="{page}", page_lines=17),         ALL),
    ("riftbound 1.4",  "pdf",  "two columns",                  Layout(header="{title}", columns=2),            ALL),
    ("riftbound 1.4",  "pdf",  "no gaps between paragraphs",   Layout(header="{title}", gap=0),                ALL),
    ("mtg 2026",       "pdf",  "another engine, justified",    Layout(header="{title}", footer="{page}", flow=True), ALL),
    ("riftbound 1.4",  "pdf",  "another engine, justified",    Layout(footer="Page {page} of {pages}", flow=True), ALL),
    ("mtg 2026",       "chromium pdf", "a browser's print",    None,                                           ALL),
    ("riftbound 1.4",  "chromium pdf", "a browser's print",    None,                                           ALL),
    ("mtg 2026",       "docx", "heading styles",               None,                                           ALL),
    ("mtg 2026",       "docx", "NBSP and curly quotes",        None,                                           ALL),
    ("mtg 2010",       "docx", "heading styles",               None,                                           ALL),
    ("riftbound 1.4",  "docx", "heading styles",               None,                                           ALL),
    ("riftbound 1.4",  "docx", "rules in a table",             None,                                           ALL),
    ("mtg 2026",       "docx", "spacing, no empty paragraphs", None,                                           ALL),
]


def _printed(name: str, quirk: str) -> tuple[list[Block], ReadResult]:
    excerpt = EXCERPTS[name]
    blocks = excerpt.blocks
    if quirk != "NBSP and curly quotes":
        return blocks, excerpt.expected()
    changed = [[quirky(p) for p in block] for block in blocks]
    return changed, read_text(printed_text(changed), "text")


@cache
def _container(name: str, container: str, quirk: str) -> tuple[bytes, ReadResult]:
    """The printed document (made once per test session) and the text import it must match."""
    layout = next(case[3] for case in CASES if case[:3] == (name, container, quirk))
    blocks, expected = _printed(name, quirk)
    if container == "chromium pdf":
        if CHROMIUM is None:
            pytest.skip("printing a page to PDF needs chromium (Debian's chromium; .ci/run installs it)")
        return browser_pdf_of(blocks, TITLE[EXCERPTS[name].ruleset]), expected
    if container == "pdf":
        assert layout is not None
        title = TITLE[EXCERPTS[name].ruleset]
        layout = Layout(**{**layout.__dict__, "header": layout.header.replace("{title}", title)})
        return pdf_of(blocks, layout), expected
    headings = {p: 1 if re.match(r"^\d{1,2}\. ", p) else 2 for b in blocks for p in b
                if re.match(r"^\d{1,3}\. \S", p) and len(p) < 60}
    return docx_of(blocks, headings, table=quirk == "rules in a table",
                   spacing=quirk == "spacing, no empty paragraphs"), expected


@pytest.mark.parametrize("name,container,quirk,compared", [c[:3] + c[4:] for c in CASES],
                         ids=[" / ".join(c[:3]) for c in CASES])
def test_a_published_document_imports_as_its_text(name: str, container: str, quirk: str,
                                                  compared: str) -> None:
    """The same rules (and glossary, where the table says), title and date; a difference
    only where the reader reported the line end as uncertain, and at most two such places."""
    data, expected = _container(name, container, quirk)
    kind = container.split()[-1]
    got, fmt = imported(data, f"{name}.{kind}")
    found = differences(expected, got, rules_only=compared == RULES_ONLY)
    assert unreported(found, got, data) == []
    # at most two places: a glossary entry read on into the next at an uncertain line end is
    # two differences there (its definition, the next entry missing)
    assert len({line for line, _ in found}) <= 2, found
    assert fmt == ("mtg-text" if name.startswith("mtg") else "riftbound-pdftext")
    notes = [d.message for d in got.diagnostics if d.severity == "info"]
    assert notes[0].startswith(f"read from a {kind.upper()}")
    if quirk in ("running header and footer", "a browser's print"):
        assert any("removed from" in n and ("Page # of #" in n or " #/#" in n) for n in notes)
        assert any(TITLE[EXCERPTS[name].ruleset] in n and "removed from" in n for n in notes)
    if quirk == "hyphenated line ends":
        assert any("hyphenated at a line end joined" in n for n in notes)
    if quirk == "two columns":
        assert any("printed in two columns" in n for n in notes)


def test_the_riftbound_pdf_reads_as_the_markdown_does_apart_from_the_markup() -> None:
    """The Markdown export marks its section headings ``###`` and bolds every other id, the
    titles it did not make headings among them (``**190.** Battlefields``); the PDF only prints
    them. Both read to the same numbers, kinds, parents, titles and texts."""
    excerpt = EXCERPTS["riftbound 1.4"]
    data, _ = _container("riftbound 1.4", "pdf", "running header and footer")
    pdf = read_bytes(data, "core-rules.pdf")[0]
    markdown = read_document(excerpt.path)[0]
    assert [r.number for r in pdf.rules] == [r.number for r in markdown.rules]
    assert disagreeing(markdown, pdf) == []
    assert {r.number: (r.title, r.text) for r in pdf.rules} == \
        {r.number: (r.title, r.text) for r in markdown.rules}


def test_a_pdf_line_note_names_its_page() -> None:
    data, _ = _container("riftbound 1.4", "pdf", "running header and footer")
    got = read_bytes(data, "core-rules.pdf")[0]
    placed = [d for d in got.diagnostics if d.line]
    assert placed and all(re.search(r"\(page \d+\)$", d.message) for d in placed)


# -- containers known by their bytes; what cannot be read is refused, saying why -------------

def _encrypted(data: bytes, password: str) -> bytes:
    writer = pypdf.PdfWriter(clone_from=pypdf.PdfReader(io.BytesIO(data)))
    writer.encrypt(user_password=password, owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _blank_pdf(pages: int) -> bytes:
    writer = pypdf.PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(595, 842)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _zip(parts: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def _small_pdf() -> bytes:
    return _container("mtg 2026", "pdf", "bare page numbers")[0]


def _small_docx() -> bytes:
    return _container("mtg 2026", "docx", "heading styles")[0]


WORD = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
REFUSED = [
    # name,              bytes made by,                                          the error says
    ("locked.pdf",       lambda: _encrypted(_small_pdf(), "secret"),            "encrypted with a password"),
    ("scanned.pdf",      lambda: _blank_pdf(3),                                 "no text layer (3 pages"),
    ("cut.pdf",          lambda: _small_pdf()[:400],                            "unreadable PDF"),
    ("cut.docx",         lambda: _small_docx()[:3000],                          "corrupt ZIP archive"),
    ("archive.docx",     lambda: _zip({"notes.txt": "100.1. Hello"}),           "without word/document.xml"),
    ("bodiless.docx",    lambda: _docx_with(f'<w:document xmlns:w="{WORD}"/>'), "without a body"),
    ("empty.docx",       lambda: _docx_with(f'<w:document xmlns:w="{WORD}"><w:body/></w:document>'),
                                                                                 "holds no text"),
    ("broken.docx",      lambda: _docx_with("<w:document"),                     "a DOCX that cannot be opened"),
    # python-docx fails on a damaged [Content_Types].xml: the error must not blame the body
    ("types.docx",       lambda: _docx_with("<x/>", "[Content_Types].xml"),     "a DOCX with a part that cannot be read"),
    ("named.pdf",        lambda: b"100.1. A rule in a text file named .pdf\n",  "is named .pdf but is not a PDF"),
    ("bomb.docx",        lambda: _zip_bomb(),                                   "a ZIP bomb?"),
    ("endless.pdf",      lambda: _blank_pdf(MAX_PDF_PAGES + 1),                 f"{MAX_PDF_PAGES + 1:,} pages"),
]


def _zip_bomb() -> bytes:
    """A DOCX whose document part expands past the limit: zeros, which compress to little."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        with archive.open("word/document.xml", "w") as part:
            chunk = bytes(1024 * 1024)
            for _ in range(MAX_DOCX_EXPANDED_BYTES // len(chunk) + 1):
                part.write(chunk)
    return out.getvalue()


def _docx_with(xml: str, part: str = "word/document.xml") -> bytes:
    """A real DOCX (python-docx's own parts) whose document part (or another) is replaced."""
    with zipfile.ZipFile(io.BytesIO(_small_docx())) as archive:
        parts = {n: archive.read(n) for n in archive.namelist()}
    parts[part] = xml.encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("name,make,says", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_container_that_cannot_be_read_is_refused_saying_why(name: str, make, says: str) -> None:
    with pytest.raises(DocumentError) as err:
        read_bytes(make(), name)
    assert says in str(err.value)
    assert all(d.file == name for d in err.value.diagnostics)


LAYOUT = "pypdf._text_extraction._layout_mode"
PYPDF_CHANGES = [
    # what a pypdf upgrade changed,            what is patched, and how,                                  the error says
    ("the layout module's functions moved",    lambda mp: mp.delattr(f"{LAYOUT}.text_show_operations"),   "lacks the layout extraction"),
    ("the page's layout fonts went",           lambda mp: mp.delattr("pypdf.PageObject._layout_mode_fonts"), "lacks the layout extraction"),
    ("the runs lost their places",             lambda mp: mp.setattr(f"{LAYOUT}.text_show_operations",
                                                                     lambda ops, fonts: [{"text": "100.1. Hello"}]),
                                                                                                          "no longer gives the runs' places"),
]


@pytest.mark.parametrize("change,patch,says", PYPDF_CHANGES, ids=[c[0] for c in PYPDF_CHANGES])
def test_a_pypdf_whose_layout_internals_changed_is_a_clear_error(monkeypatch, change: str, patch,
                                                                  says: str) -> None:
    """The reader uses pypdf's layout internals (bounded by pyproject.toml): an upgrade that
    changes them is a DocumentError naming pypdf's version and the file, not a traceback."""
    data = _small_pdf()
    patch(monkeypatch)
    with pytest.raises(DocumentError) as err:
        read_bytes(data, "rules.pdf")
    assert says in str(err.value) and f"pypdf {pypdf.__version__}" in str(err.value)
    assert "within pyproject.toml's bounds" in str(err.value)
    assert all(d.file == "rules.pdf" for d in err.value.diagnostics)


def test_a_pdf_with_an_empty_password_opens() -> None:
    """Many PDFs are encrypted only to restrict printing or copying: they open without one."""
    plain = read_bytes(_small_pdf(), "open.pdf")[0]
    assert summary(read_bytes(_encrypted(_small_pdf(), ""), "locked.pdf")[0]) == summary(plain)


@pytest.mark.parametrize("data,kind", [
    (b"%PDF-1.7\n...", "pdf"),
    (b"\n\r%PDF-1.4 after a stray line end", "pdf"),
    (b"PK\x03\x04 any zip", "docx"),
    (b"100.1. Plain text", None),
    (b"100.1. A rule about the %PDF- signature\n", None),
    (b"junk before it\n%PDF-1.4\n...\n%%EOF\n", "pdf"),
    (b"\xef\xbb\xbfMagic: The Gathering Comprehensive Rules", None),
])
def test_a_container_is_known_by_its_bytes(data: bytes, kind: str | None) -> None:
    assert container_of(data) == kind


def test_a_text_document_is_no_container() -> None:
    assert unpack(b"100.1. Plain text\n", "rules.txt") is None


def test_rulekb_import_takes_a_pdf_and_a_docx(own_home: Path, tmp_path: Path) -> None:
    """`rulekb import core-rules.pdf` as a judge runs it: imported, built, and its rules read
    (into a home with the embedded build in service, a copy of the session's: the build adds
    the two imported editions to it)."""
    runner = CliRunner()
    home = own_home
    for container in ("pdf", "docx"):
        data = (_small_pdf() if container == "pdf" else _small_docx())
        path = tmp_path / f"MagicCompRules.{container}"
        path.write_bytes(data)
        result = runner.invoke(main, ["--home", str(home), "import", str(path), "--ruleset", "mtg",
                                      "--edition", f"2026-01-16-{container}", "--no-build"])
        assert result.exit_code == 0, result.output
        assert (home / "imports" / "mtg" / f"2026-01-16-{container}" / path.name).read_bytes() == data
    result = runner.invoke(main, ["--home", str(home), "build"])
    assert result.exit_code == 0, result.output
    expected = next(r.text for r in EXCERPTS["mtg 2026"].expected().rules if r.number == ("117", "3", "a"))
    for container in ("pdf", "docx"):  # the built editions answer as the text's would
        result = runner.invoke(main, ["--home", str(home), "rule", "117.3a", "--ruleset", "mtg",
                                      "--edition", f"2026-01-16-{container}", "--json"])
        assert result.exit_code == 0, result.output
        assert expected in result.output
    locked = tmp_path / "locked.pdf"
    locked.write_bytes(_encrypted(_small_pdf(), "secret"))
    result = runner.invoke(main, ["--home", str(home), "import", str(locked), "--ruleset", "mtg",
                                  "--edition", "x", "--no-build"])
    assert result.exit_code != 0 and "encrypted with a password" in result.output
    assert "Traceback" not in result.output


# -- the full documents: their text, then a PDF of it ---------------------------------------

FULL_DOCUMENTS = [
    # document in ../shared/corpora,            running header
    ("mtg/comprehensive-rules-2026-01-16.txt",  TITLE["mtg"]),
    ("mtg/comprehensive-rules-2010-10-01.txt",  TITLE["mtg"]),
    ("riftbound/core-rules-2026-07-16.md",      TITLE["riftbound"]),
]


def _cached_pdf(blocks: list[Block], layout: Layout) -> bytes:
    """A full document's PDF, kept in the temporary folder between runs (it takes seconds)."""
    key = hashlib.sha256(repr((blocks, layout, FONT, (REPO / "tests" / "published.py").read_bytes()))
                         .encode()).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"rulekb-test-{key}.pdf"
    if not path.is_file():  # written whole, then renamed: another worker or run reads it whole
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=path.stem, suffix=".part",
                                         delete=False) as part:
            part.write(pdf_of(blocks, layout))
        Path(part.name).replace(path)
    return path.read_bytes()


@cache
def _full_document(rel: str, header: str) -> tuple[str, list[Block], bytes, ReadResult]:
    """A full document's text, its blocks, its PDF and the PDF's import, made once per
    session for the two tests below (reading Magic's PDF takes seconds). Read them, never
    change them."""
    text = read_text_file(CORPORA / rel)
    blocks = txt_blocks(text) if rel.endswith(".txt") else markdown_blocks(text)
    data = _cached_pdf(blocks, Layout(header=header, footer="Page {page} of {pages}"))
    return text, blocks, data, imported(data, "document.pdf")[0]


@pytest.mark.corpora
@pytest.mark.skipif(not shared_available(), reason="needs ../shared/corpora (the full documents)")
@pytest.mark.parametrize("rel,header", FULL_DOCUMENTS, ids=[r for r, _ in FULL_DOCUMENTS])
def test_a_full_document_imports_from_its_pdf_as_from_its_text(rel: str, header: str) -> None:
    """Every rule is the same as the text's (a Markdown export: the text its PDF prints);
    any glossary entry that is not was printed where the reader reported the line end as
    uncertain (a full line ending a sentence at the foot of a page)."""
    text, blocks, data, got = _full_document(rel, header)
    expected = read_text(text if rel.endswith(".txt") else printed_text(blocks), "text")
    assert [d for d in differences(expected, got) if d[1].startswith(("rule", "title", "date"))] == []
    found = differences(expected, got)
    assert unreported(found, got, data) == []
    assert len(found) <= 6, found


@pytest.mark.corpora
@pytest.mark.skipif(not shared_available(), reason="needs ../shared/corpora (the full documents)")
@pytest.mark.parametrize("rel,header", FULL_DOCUMENTS, ids=[r for r, _ in FULL_DOCUMENTS])
def test_a_full_documents_pdf_gives_every_rule_the_kind_and_parent_its_text_does(rel: str,
                                                                                  header: str) -> None:
    """The document as published (Magic's text, Riftbound's Markdown with its ``###`` and bold
    ids) and its PDF place every rule alike: the same numbers, each with the same kind and
    parent, so a breadcrumb reads the same (1.4's 193 Winning heads 194, not 179 Tokens)."""
    text, _, _, pdf = _full_document(rel, header)
    published = read_text(text, rel)
    assert [r.number for r in pdf.rules] == [r.number for r in published.rules]
    shown = [(".".join(str(s) for _, s in key), kinds_and_parents(published)[key], kinds_and_parents(pdf)[key])
             for key in disagreeing(published, pdf)]
    assert shown == []


# -- a page's content stream, parsed as pypdf parses it (kb.read.pdf_operations) ---------------

CONTENT_STREAMS = [
    # the plain syntax: numbers, names, literal strings with escapes, hex strings, flat arrays,
    # a marked-content dictionary, operators
    b"q 1 0 0 -1 0 792 cm BT /F1 9.00 Tf 56.00 771.89 Td (a\\(b\\)c\\\\d\\n\\101\\0537) Tj ET Q\n"
    b"/Span <</MCID 0 /Lang (en)>>BDC BT <00160013> Tj [(A) -250 (B) .5 <0041>] TJ 2 Tw T* (x)' ET EMC",
    b"BT 1 2 3 4 5 6 Tm 0 0 Td (unbalanced ( paren) Tj ET",  # a nested parenthesis: pypdf's own
    b"BT (line \\\n continued) Tj ET",  # an escaped line end
    b"% a comment\nBT (x) Tj ET",
    b"BT 1 0 0 1 0 0 Tm [[1] (a)] TJ ET",  # a nested array
    b"1 0 R 2 0 R2 Do",  # what pypdf takes for references
    b"BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q",  # an inline image
    b"/N#20x gs 1,5 w --1 J",  # a name with a #, malformed numbers
]


@pytest.mark.parametrize("stream", CONTENT_STREAMS, ids=range(len(CONTENT_STREAMS)))
def test_a_content_stream_parses_to_the_operations_pypdf_makes(stream: bytes) -> None:
    """The reader's parser of content streams (pypdf's own is slow on a browser's PDF) gives
    pypdf's operators and operands, of pypdf's types, or leaves the stream to pypdf."""
    from pypdf.generic import ContentStream
    from kb.read.pdf_operations import operations

    def parsed(how):
        content = ContentStream(None, None, "bytes")
        content.set_data(stream)
        try:
            ops = how(content)
        except Exception as exc:  # noqa: BLE001 - pypdf refuses some: both must
            return type(exc).__name__
        return [([(type(x), x, [type(y) for y in (x.values() if isinstance(x, dict) else x)]
                   if isinstance(x, (list, dict)) else None) for x in operands], op) for operands, op in ops]

    assert parsed(operations) == parsed(lambda c: c.operations)


def test_the_module_pdfs_content_streams_parse_as_pypdf_parses_them() -> None:
    """Every page of a printed PDF of each engine here (fpdf2 line by line, fpdf2 flowing)."""
    from pypdf.generic import ContentStream
    from kb.read.pdf_operations import _parse

    for quirk in ("running header and footer", "another engine, justified"):
        reader = pypdf.PdfReader(io.BytesIO(_container("riftbound 1.4", "pdf", quirk)[0]))
        for page in reader.pages:
            content = ContentStream(page.get_contents(), reader, "bytes")
            mine = _parse(content.get_data())
            assert [([(type(x), x) for x in o], op) for o, op in mine] == \
                [([(type(x), x) for x in o], op) for o, op in content.operations]
