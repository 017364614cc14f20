"""Text parted into pages by form feeds (pdftotext): a page break inside a paragraph or an
entry joins it again, and one between paragraphs keeps them apart. Each case: the last line
of a page, the first line of the next, and whether they read as one paragraph."""

from __future__ import annotations

import pytest

from kb.read.normalise import normalise

CASES = [
    # last line of a page                              first line of the next          one paragraph
    ("4. (Obsolete) An ability. See Activate.",        "5. (Obsolete) The battlefield.", True),
    ("2. To play a card is to cast it.",               "3. (Obsolete) Playing a spell.", True),
    ("4. (Obsolete) An ability. See Activate.",        "2. A sense out of order.",      False),
    ("Draft",                                          "1. A Limited format.",          True),
    ("the spell resolves. This is the last",           "sentence of the rule.",         True),
    ("100.1. These rules apply to any game.",          "100.2. To play, each player needs a deck.", False),
]


def _paged(last: str, first: str) -> str:
    """Three pages with a running header and page numbers, the break between ``last`` and ``first``."""
    header = "Magic: The Gathering Comprehensive Rules"
    pages = [["100.0. Opening rule text that fills the page."],
             ["Play", "1. To play a land is a special action.", last],
             [first, "Glossary tail line."]]
    return "\f".join("\n".join([header, ""] + page + ["", str(n)]) for n, page in enumerate(pages, 1))


@pytest.mark.parametrize("last, first, joined", CASES)
def test_a_page_break_joins_what_it_cut(last: str, first: str, joined: bool) -> None:
    lines = normalise(_paged(last, first)).text.split("\n")
    at = lines.index(last)
    assert lines[at + 1] == first if joined else lines[at + 1:at + 3] == ["", first], lines
