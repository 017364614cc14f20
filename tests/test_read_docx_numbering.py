"""A DOCX whose rule numbers are Word's automatic list numbers (``word/numbering.xml``), not
text: each case a small document built with python-docx and the numbering Word writes, and
the lines :func:`kb.read.containers.docx_text` must give (the number Word prints, a space,
the text). The whole documents so numbered are :data:`bench.layouts.BROUGHT`'s "DOCX numbered
by Word's automatic lists", run by tests/test_read_unseen_layouts.py.
"""

from __future__ import annotations

import io

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls, qn

from kb.read import read_bytes
from kb.read.containers import docx_text
from kb.read.docx_numbering import formatted

MC = 'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"'


def lvl(ilvl: int, text: str, fmt: str = "decimal", start: int = 1, extra: str = "") -> str:
    return (f'<w:lvl w:ilvl="{ilvl}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
            f'<w:lvlText w:val="{text}"/>{extra}</w:lvl>')


MAGIC_LEVELS = lvl(0, "%1.") + lvl(1, "%1.%2.") + lvl(2, "%1.%2%3", "lowerLetter")
RIFTBOUND_LEVELS = (
    '<w:lvl w:ilvl="0"><w:start w:val="0"/><mc:AlternateContent {mc}><mc:Choice Requires="w14">'
    '<w:numFmt w:val="custom" w:format="001, 002, 003, ..."/></mc:Choice><mc:Fallback>'
    '<w:numFmt w:val="decimal"/></mc:Fallback></mc:AlternateContent><w:lvlText w:val="%1."/></w:lvl>'
    .format(mc=MC) + lvl(1, "%1.%2.") + lvl(2, "%1.%2.%3.", "lowerLetter"))


def numbered_docx(abstracts: dict[int, str], nums: dict[int, tuple[int, dict[int, int]]],
                  paragraphs: list[tuple[str, int | None, int | None, str | None]],
                  style_numbering: dict[str, tuple[int, int | None]] | None = None) -> bytes:
    """A DOCX with the abstract numberings (id: levels' XML), the lists (numId: abstract id and
    its start overrides per level), the paragraphs (text, numId, ilvl, style) and the styles
    numbered by a list (style name: numId and level)."""
    document = docx.Document()
    numbering = document.part.numbering_part.element
    first_num = next((i for i, el in enumerate(numbering) if el.tag == qn("w:num")), len(numbering))
    for aid, levels in abstracts.items():
        numbering.insert(first_num, parse_xml(f'<w:abstractNum {nsdecls("w")} w:abstractNumId="{aid}">'
                                              f'{levels}</w:abstractNum>'))
    for num_id, (aid, starts) in nums.items():
        overrides = "".join(f'<w:lvlOverride w:ilvl="{n}"><w:startOverride w:val="{v}"/></w:lvlOverride>'
                            for n, v in starts.items())
        numbering.append(parse_xml(f'<w:num {nsdecls("w")} w:numId="{num_id}">'
                                   f'<w:abstractNumId w:val="{aid}"/>{overrides}</w:num>'))
    for name, (num_id, ilvl) in (style_numbering or {}).items():
        num_pr = document.styles[name].element.get_or_add_pPr().get_or_add_numPr()
        num_pr.get_or_add_numId().val = num_id
        if ilvl is not None:
            num_pr.get_or_add_ilvl().val = ilvl
    for text, num_id, ilvl, style in paragraphs:
        paragraph = document.add_paragraph(text, style=style)
        if num_id is not None:
            num_pr = paragraph._p.get_or_add_pPr().get_or_add_numPr()
            num_pr.get_or_add_numId().val = num_id
            if ilvl is not None:
                num_pr.get_or_add_ilvl().val = ilvl
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


# name | abstract numberings | lists | paragraphs | styles numbered | the lines docx_text gives
CASES = [
    ("Magic's levels: a section's start override, rules, subrule letters, the next section",
     {1: MAGIC_LEVELS}, {5: (1, {0: 100})},
     [("General", 5, 0, None), ("These rules apply.", 5, 1, None), ("A two-player game.", 5, 2, None),
      ("A multiplayer game.", 5, 2, None), ("To play, each player needs a deck.", 5, 1, None),
      ("The Golden Rules", 5, 0, None), ("Card text takes precedence.", 5, 1, None)],
     None,
     ["100. General", "100.1. These rules apply.", "100.1a A two-player game.", "100.1b A multiplayer game.",
      "100.2. To play, each player needs a deck.", "101. The Golden Rules", "101.1. Card text takes precedence."]),
    ("two lists of one abstract numbering count on together; a new one's override restarts a level",
     {1: MAGIC_LEVELS}, {5: (1, {0: 100}), 6: (1, {}), 7: (1, {0: 100, 1: 1, 2: 13})},
     [("General", 5, 0, None), ("Rule.", 6, 1, None), ("Letter k is next.", 6, 2, None),
      ("After k, Magic skips l.", 7, 2, None), ("And goes on.", 7, 2, None)],
     None,
     ["100. General", "100.1. Rule.", "100.1a Letter k is next.", "100.1m After k, Magic skips l.",
      "100.1n And goes on."]),
    ("Riftbound's dotted levels with Word 2010's custom 001, 002, 003 format",
     {1: RIFTBOUND_LEVELS}, {3: (1, {})},
     [("Golden and Silver Rules", 3, 0, None), ("Card text supersedes rules text.", 3, 1, None),
      ("Unless it says otherwise.", 3, 2, None), ("Golden Rule", 3, 0, None)],
     None,
     ["000. Golden and Silver Rules", "000.1. Card text supersedes rules text.",
      "000.1.a. Unless it says otherwise.", "001. Golden Rule"]),
    ("chapters numbered by their heading style (the style's numPr, no level: level 0)",
     {2: lvl(0, "%1.")}, {9: (2, {})},
     [("Game Concepts", None, None, "Heading 1"), ("Text under it.", None, None, None),
      ("Parts of a Card", None, None, "Heading 1")],
     {"Heading 1": (9, None)},
     ["1. Game Concepts", "Text under it.", "2. Parts of a Card"]),
    ("a level that never restarts (w:lvlRestart 0) and legal numbering (w:isLgl)",
     {1: lvl(0, "Part %1", "upperRoman") + lvl(1, "%1.%2", extra='<w:lvlRestart w:val="0"/><w:isLgl/>')},
     {4: (1, {})},
     [("One", 4, 0, None), ("first", 4, 1, None), ("Two", 4, 0, None), ("second", 4, 1, None)],
     None,
     ["Part I One", "1.1 first", "Part II Two", "2.2 second"]),
    ("a bulleted level prints no number; numId 0 ends the list; an unknown list numbers nothing",
     {1: lvl(0, "%1.") + lvl(1, "\u2022", "bullet")}, {4: (1, {})},
     [("Steps", 4, 0, None), ("a bullet", 4, 1, None), ("not in a list", 0, 0, None),
      ("a list nobody defined", 77, 0, None), ("More steps", 4, 0, None)],
     None,
     ["1. Steps", "a bullet", "not in a list", "a list nobody defined", "2. More steps"]),
]


@pytest.mark.parametrize("name,abstracts,nums,paragraphs,styles,lines", CASES, ids=[c[0] for c in CASES])
def test_word_list_numbers_are_printed_before_their_paragraphs(name, abstracts, nums, paragraphs, styles,
                                                               lines) -> None:
    unpacked = docx_text(numbered_docx(abstracts, nums, paragraphs, styles), "numbered.docx")
    assert [ln for ln in unpacked.text.split("\n") if ln.strip()] == lines, name
    numbered = sum(ln != text for ln, (text, *_rest) in zip(lines, paragraphs))
    told = [d.message for d in unpacked.notes if "numbered by Word's lists" in d.message]
    unresolved = sum(1 for _, num_id, _, _ in paragraphs if num_id not in (None, 0) and num_id not in nums)
    warned = [d.message for d in unpacked.notes if d.severity == "warning"]
    assert warned == ([f"{unresolved} paragraphs are in Word lists that the document's numbering does not "
                       "define: the numbers Word would print before them cannot be told, and they are read "
                       "without"] if unresolved else []), name
    assert told == ([f"{numbered} paragraphs are numbered by Word's lists: the numbers Word prints "
                     "before them (not in their text) are rendered from the document's numbering"]
                    if numbered else []), name


@pytest.mark.parametrize("value,fmt,printed", [
    (1, "lowerLetter", "a"), (26, "lowerLetter", "z"), (27, "lowerLetter", "aa"), (53, "upperLetter", "AAA"),
    (4, "lowerRoman", "iv"), (1994, "upperRoman", "MCMXCIV"), (7, "decimalZero", "07"), (7, "zero3", "007"),
    (12, "decimal", "12"), (3, "ordinal", "3"),
])
def test_a_level_value_is_printed_in_its_format(value: int, fmt: str, printed: str) -> None:
    assert formatted(value, fmt) == printed


def test_a_numbered_docx_of_magic_reads_its_rules_with_their_numbers() -> None:
    """End to end (read_bytes): the numbers come back as rule numbers, and the note says how."""
    data = numbered_docx({1: MAGIC_LEVELS}, {5: (1, {0: 100})},
                         [("General", 5, 0, None), ("", None, None, None),
                          ("These Magic rules apply to any Magic game.", 5, 1, None), ("", None, None, None),
                          ("A two-player game is a game that begins with only two players.", 5, 2, None),
                          ("", None, None, None), ("A multiplayer game begins with more players.", 5, 2, None),
                          ("", None, None, None), ("To play, each player needs their own deck.", 5, 1, None),
                          ("", None, None, None), ("In constructed play, a deck has 60 cards.", 5, 2, None)])
    result, fmt = read_bytes(data, "numbered.docx")
    assert fmt == "mtg-text"
    assert [".".join(map(str, r.number)) for r in result.rules] == [
        "100", "100.1", "100.1.a", "100.1.b", "100.2", "100.2.a"]
    assert any("numbered by Word's lists" in d.message for d in result.diagnostics)
