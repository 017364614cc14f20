"""A Magic Glossary whose entries are not set apart by blank lines, read by the shape of its
paragraphs (:mod:`kb.read.mtg_text`).

The releases print each entry as a block: its term, then its definition, a blank line after.
A DOCX built without empty paragraphs (and whose numbered senses are set apart by their style's
spacing), a text that lost its blank lines, or one that sets every paragraph apart has blocks
that are not its entries: there an entry starts at each term-shaped line (a few words ending no
sentence) between a definition's line and a definition below it. The entries must be the
release's, and a release's own Glossary must read as before.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import docx
import pytest

from bench.layouts import fingerprint
from kb.read import read_bytes
from kb.read.mtg_text import _entries_by_shape
from kb.read.text import decode
from tests.conftest import CORPORA, requires_shared

REPO = Path(__file__).resolve().parent.parent
EXCERPTS = [REPO / "rules" / "mtg" / "comprehensive-rules-2010-10-01-excerpt.txt",
            REPO / "rules" / "mtg" / "comprehensive-rules-2026-01-16-excerpt.txt"]
FULL = [CORPORA / "mtg" / "comprehensive-rules-2026-01-16.txt",
        CORPORA / "mtg" / "comprehensive-rules-2010-10-01.txt"]


def _glossary_lines(text: str, layout) -> str:
    """The text with its Glossary's lines (between the last 'Glossary' and 'Credits') laid out anew."""
    lines = text.split("\n")
    start = max(i for i, ln in enumerate(lines) if ln.strip() == "Glossary")
    end = max(i for i, ln in enumerate(lines) if ln.strip() == "Credits")
    body = [ln for ln in lines[start + 1:end] if ln.strip()]
    return "\n".join(lines[:start + 1] + [""] + layout(body) + ["", ""] + lines[end:])


def _docx(text: str) -> bytes:
    """The text as a DOCX without empty paragraphs: chapters and sections (and, as a careless
    style would, the Glossary's numbered senses) in heading styles, bold rule numbers."""
    document = docx.Document()
    for line in text.split("\n"):
        if not line.strip():
            continue
        if re.match(r"^\d\. [A-Z]", line):
            document.add_heading(line, level=1)
        elif re.match(r"^\d{3}\. [A-Z]", line) and len(line) < 60:
            document.add_heading(line, level=2)
        else:
            paragraph = document.add_paragraph()
            number = re.match(r"^(\d{3}\.\d+[a-z]?\.?)( .*)$", line)
            if number:
                paragraph.add_run(number.group(1)).bold = True
                paragraph.add_run(number.group(2))
            else:
                paragraph.add_run(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


LAYOUTS = [
    ("the Glossary without blank lines", lambda t: _glossary_lines(t, lambda body: body).encode()),
    ("every Glossary paragraph set apart",
     lambda t: _glossary_lines(t, lambda body: [x for ln in body for x in (ln, "")]).encode()),
    ("a DOCX without empty paragraphs, senses in a heading style", _docx),
]


def _same_terms(path: Path) -> None:
    text = decode(path.read_bytes())
    want = fingerprint(read_bytes(path.read_bytes(), path.name)[0])
    for name, layout in LAYOUTS:
        got = fingerprint(read_bytes(layout(text), path.name)[0])
        assert {k: v for k, v in got.items() if k[0] == "term"} == {
            k: v for k, v in want.items() if k[0] == "term"}, name
        assert got == want, name


@pytest.mark.parametrize("path", EXCERPTS, ids=[p.name for p in EXCERPTS])
def test_an_excerpts_glossary_in_other_layouts_reads_its_entries(path: Path) -> None:
    _same_terms(path)


@requires_shared
@pytest.mark.parametrize("path", FULL, ids=[p.name for p in FULL])
def test_a_full_glossary_in_other_layouts_reads_its_entries(path: Path) -> None:
    _same_terms(path)


def _blocks(*blocks: str) -> list[list[tuple[int, str]]]:
    n = iter(range(1, 1000))
    return [[(next(n), ln) for ln in block.split("\n")] for block in blocks]


CASES = [
    ("the releases' blocks stay the entries, a short definition line among them",
     _blocks("Deal\nSee Damage.", "Suspend\nA keyword ability.\nA card is suspended\nif it has a counter."),
     [["Deal", "See Damage."],
      ["Suspend", "A keyword ability.", "A card is suspended", "if it has a counter."]]),
    ("blocks of several entries are split at each term",
     _blocks("Abandon\nTo turn a scheme face down.\nAbility Word\nAn italicized word.\nAbsorb\nA keyword.",
             "Start Your Engines!\nA keyword ability that gives a speed.\nStep\nPart of a phase."),
     [["Abandon", "To turn a scheme face down."], ["Ability Word", "An italicized word."],
      ["Absorb", "A keyword."], ["Start Your Engines!", "A keyword ability that gives a speed."],
      ["Step", "Part of a phase."]]),
    ("a term over senses set apart, and a definition's reference without its last dot",
     _blocks("Abandon\nTo turn it face down. See rule 701.33, “Abandon”\nAbility",
             "1. Text on an object.",
             "2. An ability on the stack.\nSee rule 113.\nActivate\nTo put it on the stack.",
             "Adapt\nA keyword action.\nAffinity\nA keyword ability.\nAfflict\nA keyword for blocks."),
     [["Abandon", "To turn it face down. See rule 701.33, “Abandon”"],
      ["Ability", "1. Text on an object.", "2. An ability on the stack.", "See rule 113."],
      ["Activate", "To put it on the stack."],
      ["Adapt", "A keyword action."], ["Affinity", "A keyword ability."],
      ["Afflict", "A keyword for blocks."]]),
    ("every paragraph set apart",
     _blocks("Attack", "To send a creature into combat.", "Block", "To send it into combat defensively."),
     [["Attack", "To send a creature into combat."], ["Block", "To send it into combat defensively."]]),
]


@pytest.mark.parametrize("blocks,entries", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_entries_by_the_shape_of_their_paragraphs(blocks: list[list[tuple[int, str]]],
                                                  entries: list[list[str]]) -> None:
    assert [[text for _, text in entry] for entry in _entries_by_shape(blocks)] == entries
