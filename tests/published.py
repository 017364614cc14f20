"""PDF and DOCX documents made at test time from text we control, the way publishers print them.

No real PDF or DOCX is kept in the repository: :func:`pdf_of` lays a text document out on
pages (with :mod:`fpdf2`) as a publisher does — paragraphs wrapped at the text width with a
gap between them, a running header and footer with the page number, a rule split by a page
break, words hyphenated at line ends, two columns, or fpdf2's own justified flowing text — and :func:`docx_of` writes it as a Word
document (with :mod:`python-docx`) with heading styles. :func:`txt_blocks` and
:func:`markdown_blocks` turn the embedded excerpts into what is printed: paragraphs, in
blocks separated by gaps.
"""

from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.shared import Pt
from fpdf import FPDF

from kb.read.text import decode

# A Unicode TrueType font (the rules print curly quotes, dashes, ™, −, ∞): Debian's
# fonts-dejavu-core, or Liberation.
FONT_CANDIDATES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)
FONT = next((p for p in FONT_CANDIDATES if p.is_file()), None)

Block = list[str]  # paragraphs printed one after the other, without a gap between them


@dataclass(frozen=True)
class Layout:
    """How a document is printed: what runs on every page, and the publisher's habits."""

    header: str = ""  # printed at the top of every page ("{page}" is its number)
    footer: str = ""  # printed at the bottom ("{page}", "{pages}")
    hyphenate: bool = False  # long words that do not fit are split with a hyphen
    columns: int = 1
    gap: float = 6.0  # points between blocks
    size: float = 9.0
    page_lines: int = 0  # lines per page (0: as many as fit), to force a page break mid-rule
    flow: bool = False  # laid out by fpdf2's own flowing text (US Letter, justified), not line by line


def txt_blocks(text: str) -> list[Block]:
    """A text release as printed: each line a paragraph, blank lines the gaps."""
    blocks: list[Block] = [[]]
    for line in text.split("\n"):
        if line.strip():
            blocks[-1].append(line.rstrip())
        elif blocks[-1]:
            blocks.append([])
    return [b for b in blocks if b]


_MARKUP = re.compile(r"^(?:#{1,6}\s+|>\s*)")
_BOLD_ID = re.compile(r"(\*\*|__)(\d{3}[0-9a-z.]*)\1")


def markdown_blocks(text: str) -> list[Block]:
    """A Riftbound Markdown export as the PDF prints it: each paragraph (its hard-wrapped
    lines joined) one paragraph, heading markers and bold ids plain, a line starting with an
    id (``135.2.e.5.a.      When…``) starting a paragraph of its own, as the PDF prints it."""
    paragraphs: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        line = _BOLD_ID.sub(r"\2", _MARKUP.sub("", line.strip()))
        starts = bool(re.match(r"^\d{3}(?:\.[0-9a-z]+)*\.?\s+\S", line))
        if not line or starts or line.startswith("<"):
            if current:
                paragraphs.append(" ".join(current))
            current = []
        if line and not line.startswith("<"):
            current.append(" ".join(line.split()))
    if current:
        paragraphs.append(" ".join(current))
    return [[p] for p in paragraphs]


def printed_text(blocks: list[Block]) -> str:
    """The text a PDF of these blocks prints, as a text release would hold it."""
    return "\n\n".join("\n".join(b) for b in blocks) + "\n"


def pdf_of(blocks: list[Block], layout: Layout = Layout()) -> bytes:
    """A PDF printing the blocks (A4, one or two columns) with the layout's habits; a
    footer's ``{pages}`` is the number of pages."""
    return bytes((_flowing if layout.flow else _pdf)(blocks, layout).output())


def _flowing(blocks: list[Block], layout: Layout) -> FPDF:
    """Another engine's layout: fpdf2 breaks the lines and pages itself, justified, and prints
    the running header and footer from its own hooks (a first-line indent is lost); the
    footer's number of pages is fpdf2's own alias, filled in when the document is written."""
    class Document(FPDF):
        def header(self) -> None:
            if layout.header:
                self.set_y(12)
                self.cell(0, 5, layout.header.replace("{page}", str(self.page_no())), align="R")
                self.set_y(24)

        def footer(self) -> None:
            if layout.footer:
                self.set_y(-14)
                text = layout.footer.replace("{page}", str(self.page_no())).replace("{pages}", "{nb}")
                self.cell(0, 5, text, align="C")

    if FONT is None:
        raise RuntimeError("no Unicode TrueType font found (" + ", ".join(map(str, FONT_CANDIDATES)) + ")")
    pdf = Document(format="letter")
    pdf.add_font("body", fname=str(FONT))
    pdf.set_font("body", size=layout.size + 1)
    pdf.set_auto_page_break(True, margin=22)
    pdf.add_page()
    for block in blocks:
        for paragraph in block:
            pdf.multi_cell(0, 5, paragraph.strip(), align="J", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(layout.gap / 2)
    return pdf


class _StringWidth:
    """``pdf.get_string_width`` for its font and size as set now, the same sum of the glyphs'
    widths without fpdf2's styling of each string on the way (most of a large document's
    printing time went there: every word tried on a line is measured). The glyphs' widths
    are whole units, so a line's width is the sum of its words' and spaces' (:func:`_wrap`
    adds a word's to the line's instead of measuring the line again), then scaled as fpdf2 does."""

    def __init__(self, pdf: FPDF) -> None:
        font = pdf.current_font
        assert font is not None and not getattr(font, "is_symbol", False)
        self.size, self.k, self._widths = pdf.font_size_pt, pdf.k, font.cw
        assert all(isinstance(w, int) for w in self._widths.values())
        self._known: dict[str, int] = {}

    def units(self, text: str) -> int:
        """The text's width in the font's units (a thousandth of the size)."""
        found = self._known.get(text)
        if found is None:
            widths = self._widths
            found = self._known[text] = sum(widths[ord(c)] for c in text)
        return found

    def scaled(self, units: int) -> float:
        return units * self.size * 0.001 / self.k  # fpdf2's own order

    def __call__(self, text: str) -> float:
        return self.scaled(self.units(text))


def _string_width(pdf: FPDF) -> _StringWidth:
    """A line's printed width at the font and size set now (what :func:`_wrap` measures with;
    tests/test_read_glossary_glued.py lays lines out with both)."""
    return _StringWidth(pdf)


Placed = tuple[float, float, str]  # where a line is printed on its page (x, baseline y), and the line


def _pdf(blocks: list[Block], layout: Layout) -> FPDF:
    """The blocks laid out line by line, a page at a time (so the number of pages is known
    before the first footer is printed), then printed."""
    if FONT is None:
        raise RuntimeError("no Unicode TrueType font found (" + ", ".join(map(str, FONT_CANDIDATES)) + ")")
    pdf = FPDF(format="A4", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.add_font("body", fname=str(FONT))
    pdf.set_font("body", size=layout.size)
    width_of = _StringWidth(pdf)
    left = 56.0
    pages = _pages(blocks, layout, width_of, left)
    for number, lines in enumerate(pages, 1):
        pdf.add_page()
        if layout.header:
            pdf.text(left, 40, layout.header.replace("{page}", str(number)))
        if layout.footer:
            footer = layout.footer.replace("{page}", str(number)).replace("{pages}", str(len(pages)))
            pdf.text((595 - width_of(footer)) / 2, 815, footer)
        for x, y, line in lines:
            pdf.text(x, y, line)
    return pdf


def _pages(blocks: list[Block], layout: Layout, width_of: _StringWidth, left: float
           ) -> list[list[Placed]]:
    """Each page's lines: paragraphs wrapped at the column's width, the next column (or page)
    when a column is full (or holds ``page_lines``), a gap after each block."""
    top, bottom, gutter = 70.0, 780.0, 24.0
    width = (595.0 - 2 * left - gutter * (layout.columns - 1)) / layout.columns
    pitch = layout.size * 1.3
    pages: list[list[Placed]] = []
    column, y, lines = layout.columns, bottom, 0

    for block in blocks:
        for paragraph in block:
            indent = width_of(" ") * (len(paragraph) - len(paragraph.lstrip()))
            for line in _wrap(width_of, paragraph.strip(), width, indent, layout.hyphenate):
                if y + pitch > bottom or (layout.page_lines and lines >= layout.page_lines):
                    column += 1
                    if column >= layout.columns:
                        pages.append([])
                        column = 0
                    y, lines = top, 0
                pages[-1].append((left + column * (width + gutter) + indent, y, line))
                y += pitch
                lines += 1
                indent = 0.0
        y += layout.gap
    return pages


def _wrap(width_of: _StringWidth, text: str, width: float, indent: float,
          hyphenate: bool) -> list[str]:
    """The lines a paragraph is printed in: as many words as fit (the first line indented);
    a long word that does not fit is split with a hyphen where its first part fits, when
    the layout hyphenates. (A line's width in units is kept as words are added to it.)"""
    lines: list[str] = []
    line = ""
    units = 0  # the line's
    space, hyphen = width_of.units(" "), width_of.units("-")
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        tried = units + space + width_of.units(word) if line else width_of.units(word)
        limit = width - indent if not lines else width
        if width_of.scaled(tried) <= limit or not line:
            line, units = candidate, tried
            continue
        if hyphenate and re.fullmatch(r"[A-Za-z]{8,}[,.]?", word):
            for cut in range(len(word.rstrip(",.")) - 3, 2, -1):
                head = f"{line} {word[:cut]}-"
                if width_of.scaled(units + space + width_of.units(word[:cut]) + hyphen) <= limit:
                    lines.append(head)
                    line = word[cut:]
                    units = width_of.units(line)
                    break
            else:
                lines.append(line)
                line, units = word, width_of.units(word)
            continue
        lines.append(line)
        line, units = word, width_of.units(word)
    if line:
        lines.append(line)
    return lines


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
_CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                   "--disable-component-update", "--disable-sync", "--no-first-run")


def browser_pdf_of(blocks: list[Block], title: str) -> bytes:
    """The blocks as a web page printed to PDF by headless chromium, with the browser's own
    running header (the date and the page's title) and footer (its address and ``N/M``):
    another engine's text runs, units and ligatures."""
    if CHROMIUM is None:
        raise RuntimeError("chromium is not installed")
    body = "\n".join(
        "<div class=b>" + "".join(f"<p{' class=i' if p[:1].isspace() else ''}>{html.escape(p.strip())}</p>"
                                  for p in block) + "</div>" for block in blocks)
    page = (f"<!doctype html><html><head><meta charset=utf-8><title>{html.escape(title)}</title><style>"
            "body{font-family:'DejaVu Sans',sans-serif;font-size:10pt} p{margin:0} .b{margin-bottom:6pt}"
            f" .i{{text-indent:2em}}</style></head><body>{body}</body></html>")
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "document.html", Path(folder) / "document.pdf"
        source.write_text(page, encoding="utf-8")
        subprocess.run([CHROMIUM, *_CHROMIUM_FLAGS, f"--user-data-dir={folder}/profile",
                        f"--print-to-pdf={target}", source.as_uri()],
                       capture_output=True, timeout=120, check=True)
        return target.read_bytes()


def docx_of(blocks: list[Block], headings: dict[str, int] | None = None, table: bool = False,
            spacing: bool = False) -> bytes:
    """A Word document: each paragraph a paragraph, an empty one between blocks (with
    ``spacing``, a block's last paragraph has space after it instead); a paragraph whose text
    is in ``headings`` gets that heading style (1 = Heading 1). With ``table``, the rules
    stand in a two-column table (the id, then the text), a row each."""
    document = docx.Document()
    document.styles["Normal"].font.size = Pt(9)
    document.styles["Normal"].paragraph_format.space_after = Pt(0)
    headings = headings or {}
    rows = document.add_table(rows=0, cols=2) if table else None
    for i, block in enumerate(blocks):
        if i and spacing and document.paragraphs:
            document.paragraphs[-1].paragraph_format.space_after = Pt(6)
        elif i and rows is None:
            document.add_paragraph("")
        for paragraph in block:
            level = headings.get(paragraph)
            numbered = re.match(r"^(\d{3}\.[0-9a-z.]*)\s+(\S.*)$", paragraph)
            if rows is not None:
                cells = rows.add_row().cells
                cells[0].text, cells[1].text = numbered.groups() if numbered else ("", paragraph.strip())
            elif level is not None:
                document.add_heading(paragraph, level)
            elif paragraph[:1].isspace():  # indented as Word does it, not with spaces
                document.add_paragraph(paragraph.strip()).paragraph_format.first_line_indent = Pt(18)
            else:
                document.add_paragraph(paragraph)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def read_text_file(path: Path) -> str:
    """A document's text as rulekb decodes it."""
    return decode(path.read_bytes(), str(path))
