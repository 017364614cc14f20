"""A Magic Glossary whose heading is printed at the end of the line above it (kb/read/mtg_text.py,
``_glued_heading``): the text a PDF's line end lost (a page break after a full line ending a
sentence, where the page cannot tell that the paragraph ends), as the PDF unpacked by
:mod:`kb.read.containers` and a ``pdftotext`` of it may print it:
``101.1. Where a card says … only. Glossary``. The Glossary reads as under a heading of its
own, the line's text before it as its rule's, and a note names the line; a line that only
mentions the Glossary is no heading.

The fixture ``tests/fixtures/readers/mtg-glossary-glued.txt`` is a small text written for
these tests; its heading is glued, and the same text with the heading on a line of its own
is what it must read as.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fpdf import FPDF

from bench.layouts import fingerprint
from kb.read import read_bytes, read_text
from tests.published import FONT, Layout, _string_width, _wrap, pdf_of, txt_blocks

GLUED = (Path(__file__).parent / "fixtures" / "readers" / "mtg-glossary-glued.txt").read_text(encoding="utf-8")
TAIL = "the card wins, for that situation only."
APART = GLUED.replace(f"{TAIL} Glossary\n", f"{TAIL}\n\nGlossary\n")

# name | the text | the line the note is at
CASES = [
    ("the heading after a space", GLUED, 43),
    ("the heading right after the full stop", GLUED.replace(f"{TAIL} Glossary", f"{TAIL}Glossary"), 43),
    ("the heading after a closing quote", GLUED.replace(f"{TAIL} Glossary", f"{TAIL[:-1]}.” Glossary")
     .replace(f"{TAIL}\n\nGlossary", f"{TAIL[:-1]}.”\n\nGlossary"), 43),
    ("CRLF line ends", GLUED.replace("\n", "\r\n"), 43),
]


@pytest.mark.parametrize("name,text,line", CASES, ids=[c[0] for c in CASES])
def test_a_glossary_heading_glued_to_the_line_above_reads_as_its_heading(name: str, text: str, line: int) -> None:
    got = read_text(text, "glued.txt")
    apart = APART if "closing quote" not in name else APART.replace(f"{TAIL}\n", f"{TAIL[:-1]}.”\n")
    want = read_text(apart, "apart.txt")
    assert [t.name for t in got.terms] == ["Duel", "Group Game"], name
    assert fingerprint(got) == fingerprint(want), name
    notes = [d for d in got.diagnostics if "Glossary heading is printed at the end of line" in d.message]
    assert [d.line for d in notes] == [line], (name, notes)
    assert not [d for d in got.diagnostics if "truncated" in d.message], name


@pytest.mark.parametrize("name,text", [
    ("a rule that mentions the Glossary", APART.replace("Each player brings a deck", "See the Glossary\nEach player brings a deck")),
    ("'Glossary' after words, not a sentence's end", APART.replace(f"{TAIL}\n\nGlossary", f"{TAIL} In the Glossary\n\nGlossary")),
])
def test_a_line_ending_in_the_word_is_no_heading_where_one_is_printed_or_no_sentence_ends(name: str, text: str) -> None:
    result = read_text(text, "apart.txt")
    assert not [d for d in result.diagnostics if "Glossary heading is printed" in d.message], name
    assert [t.name for t in result.terms] == ["Duel", "Group Game"], name


def _glued_at_a_page_break() -> tuple[bytes, str]:
    """A PDF of the fixture (heading apart) whose last rule ends a page on a full line ending a
    sentence, the Glossary heading first on the next page: the page cannot tell the paragraph
    ends there (the heading would not fit on that line), and the unpacked text glues it."""
    assert FONT is not None
    pdf = FPDF(format="A4", unit="pt")
    pdf.add_font("body", fname=str(FONT))
    pdf.set_font("body", size=9.0)
    width_of, width = _string_width(pdf), 595.0 - 2 * 56.0  # as tests.published lays a page out
    rule = f"101.1. Where a card says something these rules deny, {TAIL}"
    more = "It does so for as long as the card says it and in no other game".split()
    for k in range(len(more) + 1):  # a rule long enough that its last line is full
        said = rule + (" " + " ".join(more[:k]) + "." if k else "")
        if width_of(_wrap(width_of, said, width, 0.0, False)[-1] + " Glossary") > width:
            break
    else:
        raise AssertionError("no rule fills its last line")
    # every other paragraph two lines long or more, so the PDF's line pitch is learnt from them
    text = re.sub(r"(?m)^(1\d\d\.\d+[a-z]?\.? .*\.)$",
                  r"\1 A sentence said here so that the rule is printed on more than one line of the page.",
                  APART).replace(rule + " A sentence said here so that the rule is printed on more than one "
                                 "line of the page.", said)
    blocks = txt_blocks(text)
    glossary = next(i for i, b in enumerate(blocks) if b[0] == "Glossary")
    lines = sum(len(_wrap(width_of, p.strip(), width, 0.0, False)) for b in blocks[:glossary] for p in b)
    return pdf_of(blocks, Layout(page_lines=lines, footer="Page {page} of {pages}")), text


@pytest.mark.skipif(FONT is None, reason="no Unicode TrueType font (fonts-dejavu-core) to print a PDF with")
def test_a_pdf_whose_glossary_heading_starts_a_page_after_a_full_line_reads_its_glossary() -> None:
    data, text = _glued_at_a_page_break()
    result, fmt = read_bytes(data, "glued.pdf")
    assert fmt == "mtg-text"
    assert fingerprint(result) == fingerprint(read_text(text, "printed.txt"))
    said = " ".join(d.message for d in result.diagnostics)
    assert "whether the paragraph goes on is read from the words" in said  # the uncertain line end
    assert "Glossary heading is printed at the end of line" in said and "(page 2)" in said
