"""A document too short for any reader to tell its layout is refused saying so, and reads
with its format named.

A reader recognises its layout from three rule lines (``kb.read.text.MIN_RULE_LINES``); a
file with one or two numbered lines was refused with the message that lists the accepted
forms, naming as refused the very form it lists (``'## 100. General', which no reader takes
for a rule``). The refusal now says the real reason and names the lines; with ``--format``
the same file reads.
"""

from __future__ import annotations

import pytest

from kb.model import DocumentError
from kb.read import read_text
from kb.read.text import MIN_RULE_LINES

# name | text | the format that reads it | numbers read
SMALL = [
    ("a Markdown heading and one bold rule", "## 100. General\n\n**100.1.** A rule.\n", "riftbound-md",
     ["100", "100.1"]),
    # its unprinted parents kept as empty rules above it, as under any rule printed without them
    ("one bold Riftbound rule", "**103.1.b.** A rule of the game.\n", "riftbound-md", ["103", "103.1", "103.1.b"]),
    ("a Magic section and one rule", "100. General\n\n100.1. A rule of the game.\n", "mtg-text",
     ["100", "100.1"]),
]


@pytest.mark.parametrize("text,fmt,numbers", [c[1:] for c in SMALL], ids=[c[0] for c in SMALL])
def test_a_document_too_short_to_tell_its_layout_is_refused_saying_so(text: str, fmt: str,
                                                                      numbers: list[str]) -> None:
    with pytest.raises(DocumentError) as err:
        read_text(text, "small.md")
    (note,) = err.value.diagnostics
    first = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.strip())
    assert (note.file, note.line) == ("small.md", first)
    assert f"needs {MIN_RULE_LINES} rule lines" in note.message and "--format" in note.message
    assert "which no reader takes" not in note.message
    assert repr(text.split("\n")[first - 1].strip()[:40]) in note.message
    read = read_text(text, "small.md", fmt)
    assert [".".join(r.number) for r in read.rules] == numbers


def test_a_document_with_no_numbered_line_still_says_what_a_rule_line_looks_like() -> None:
    with pytest.raises(DocumentError) as err:
        read_text("Just some words.\nNothing numbered here.\n", "prose.md")
    assert "Expected a rule number at the start of a line" in str(err.value)
