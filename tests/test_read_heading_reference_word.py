"""A heading whose title ends with a word a wrapped reference ends with ("700. Additional
Rules") does not swallow the number on the next line: only running text wraps a reference
("... see rule" | "346. Playing Cards ..."). Riftbound's PDF text, with and without gaps."""

from __future__ import annotations

import pytest

from kb.read import riftbound_pdftext

HEAD = "103.1.a.  A first rule of the document, so that the entries have started.\n"

# (the lines after HEAD, numbers that must be read, numbers that must not)
CASES = [
    ("700.  Additional  Rules\n716.  Attachment\n718.  Attached is linked.\n", {"700", "716", "718"}, set()),
    ("700.  Additional  Rules\n\n716.  Attachment\n", {"700", "716"}, set()),
    ("103.2.  A long sentence of running text that is wrapped at its end, as see rule\n"
     "346.  Playing  Cards for more.\n", {"103.2"}, {"346"}),
]


@pytest.mark.parametrize("lines, read, not_read", CASES)
def test_a_heading_ending_with_a_reference_word_is_followed_by_a_rule(lines: str, read: set[str],
                                                                      not_read: set[str]) -> None:
    numbers = {".".join(r.number) for r in riftbound_pdftext.read(HEAD + lines, "doc.txt").rules}
    assert read <= numbers and not (not_read & numbers), numbers
