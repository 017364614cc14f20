"""Rule ids whose parts the Riftbound Markdown reader does not know (``kb.read.riftbound_md``).

A future edition may number a level another way (``103.1.b.ii.``, roman numerals). The readers
of Riftbound's Markdown and of its PDF text read a part that is a number or one letter; an id with another part is said at its line:
several of them refuse the document, naming the first (its rules would otherwise be lost, read
as text of the rule above), a single one is a warning. The same layout derived from the
excerpt and the full documents runs in ``tests/test_read_unseen_layouts.py``
(``bench.layouts.BROUGHT``: "numbering a fourth part in roman numerals").
"""

from __future__ import annotations

import pytest

from kb.model import DocumentError
from kb.read import read_text

HEAD = "# Riftbound Core Rules v9.9\n\nLast Updated: 2027-07-16\n\n## 100. Game Concepts\n\n### 103. Deck Construction\n\n"


def _document(fourth: list[str]) -> str:
    rules = ["**103.1.** Each player needs a deck.", "**103.1.b.** A Main Deck has at least 40 cards."]
    rules += [f"**103.1.b.{part}.** Rule {part} of the list." for part in fourth]
    return HEAD + "\n\n".join(rules + ["**103.2.** Each player needs runes."]) + "\n"


CASES = [
    # name | fourth parts | refused at line (0: read) | rules read | warnings naming an id
    ("numbers, as the releases print them", ["1", "2", "3", "4"], 0, 9, 0),
    ("one letter, read as a letter", ["a", "b", "c"], 0, 8, 0),
    ("roman numerals: a numbering the reader cannot read", ["i", "ii", "iii", "iv", "v"], 15, 0, 0),
    ("a single slip, the rest numbers", ["1", "2", "ii"], 0, 7, 1),
]


@pytest.mark.parametrize("name,fourth,refused_at,rules,warnings", CASES, ids=[c[0] for c in CASES])
def test_an_id_with_a_part_the_reader_does_not_know_is_said_at_its_line(
        name: str, fourth: list[str], refused_at: int, rules: int, warnings: int) -> None:
    text = _document(fourth)
    if refused_at:
        with pytest.raises(DocumentError) as caught:
            read_text(text, "next.md")
        first = caught.value.diagnostics[0]
        assert (first.file, first.line, first.severity) == ("next.md", refused_at, "error")
        assert "'103.1.b.ii.'" in first.message and "'103.1.b.2.'" in first.message
        return
    result = read_text(text, "next.md")
    assert len(result.rules) == rules
    said = [d for d in result.diagnostics if "does not know" in d.message]
    assert len(said) == warnings and all(d.severity == "warning" and d.line > 0 for d in said)


def _pdf_text(fourth: list[str]) -> str:
    """The same rules as Riftbound's PDF text prints them: plain ids, two spaces between words."""
    rules = ["103.1.  Each  player  needs  a  deck.", "103.1.a.  A  Champion  Legend  is  placed.",
             "103.1.b.  A  Main  Deck  has  40  cards."]
    rules += [f"103.1.b.{part}.  Rule  {part}  of  the  list." for part in fourth]
    return "\n".join(["# Riftbound Core Rules", "Last Updated: 2027-07-16", "100.  Game  Concepts",
                      "103.  Deck  Construction", *rules, "103.2.  Each  player  needs  runes."]) + "\n"


def test_the_pdf_text_reader_refuses_a_numbering_it_cannot_read_too() -> None:
    assert len(read_text(_pdf_text(["1", "2", "3"]), "next.txt").rules) == 9
    with pytest.raises(DocumentError) as caught:
        read_text(_pdf_text(["i", "ii", "iii", "iv"]), "next.txt")
    first = caught.value.diagnostics[0]
    assert (first.line, first.severity) == (9, "error") and "'103.1.b.ii.'" in first.message
