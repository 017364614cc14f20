"""A Riftbound rule printed without its parent keeps the number it is printed with
(:class:`kb.read.riftbound_entries.Entries`).

Giving it the parent's number instead (``721.1.`` read as 721, its subrules one level up) would
make a lookup of either number answer with another rule's text: 1.2's 721.1 is printed for
"Card text can occasionally be assigned…", and a layout that joined ``103.2.d.`` to the rule
above (a web page's soft break) left 103.2.d.1 without its parent, whose number would then
answer with 103.2.d.1's text. The parent is kept as an empty rule, with a warning at the
child's line, which says where the parent's number is printed in the text above.
"""

from __future__ import annotations

import pytest

from kb.numbers import format_number
from kb.read import read_text
from kb.read.riftbound_entries import Entries

CASES = [
    ("a number the document skips (1.2's 721)",
     [("720.", "Inactive"), ("721.1.", "Card text can occasionally be ignored."),
      ("721.1.a.", "Text marked this way is not applied."),
      ("721.1.b.", "Inactive abilities do not trigger."),
      ("722.", "Inactive text is still present on cards.")],
     {"721": "", "721.1": "Card text can occasionally be ignored.",
      "721.1.a": "Text marked this way is not applied.", "721.1.b": "Inactive abilities do not trigger."},
     ["rule 721.1. is printed without its parent 721; 721 is kept as an empty rule"]),
    ("a parent joined to the rule above",
     [("103.", "Deck Construction"), ("103.2.", "Deck rules."),
      ("103.2.c.", "Subject to Domain Identity. 103.2.d. Your deck may only contain 3 Signature cards."),
      ("103.2.d.1.", "Regardless of name, a deck may only contain 3 Signature cards."),
      ("103.2.e.", "Battlefields are chosen.")],
     {"103.2.d": "", "103.2.d.1": "Regardless of name, a deck may only contain 3 Signature cards.",
      "103.2.e": "Battlefields are chosen."},
     ["rule 103.2.d.1. is printed without its parent 103.2.d; 103.2.d is kept as an empty rule; its "
      "number is printed in the text of 103.2.c above: the layout may have joined its lines to that "
      "rule's"]),
    ("a deeper number in the text above is not the parent's",
     [("103.", "Deck Construction"), ("103.2.", "Deck rules. See rule 103.2.d.4 and 103.2.da."),
      ("103.2.d.1.", "Regardless of name.")],
     {"103.2.d": "", "103.2.d.1": "Regardless of name."},
     ["rule 103.2.d.1. is printed without its parent 103.2.d; 103.2.d is kept as an empty rule"]),
]


@pytest.mark.parametrize("entries,texts,warnings", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_rule_without_its_parent_keeps_its_printed_number(
        entries: list[tuple[str, str]], texts: dict[str, str], warnings: list[str]) -> None:
    read = Entries("rules.txt")
    for line, (raw_id, text) in enumerate(entries, start=1):
        read.start(raw_id, text, line)
    rules = {format_number(r.number): r for r in read.finish()}
    assert {n: rules[n].text for n in texts} == texts
    assert [d.message for d in read.diagnostics if d.severity == "warning"] == warnings


def test_a_skipped_parent_in_a_whole_document_is_an_empty_rule_at_its_childs_line() -> None:
    text = "\n\n".join(["# Riftbound Core Rules", "Last Updated: 2026-03-30", "## 700. Additional Rules",
                       "### 720. Inactive", "**721.1.** Card text can occasionally be ignored.",
                       "**721.1.a.** Text marked this way is not applied.",
                       "**722.** Inactive text is still present on cards.",
                       "**722.1.** Cards with Inactive text still have keywords."])
    result = read_text(text, "rules.md")
    by_number = {format_number(r.number): r for r in result.rules}
    assert (by_number["721"].text, by_number["721"].line) == ("", 9)
    assert by_number["721.1"].text == "Card text can occasionally be ignored."
    assert [(d.line, d.rule) for d in result.diagnostics if "without its parent" in d.message] == [(9, "721")]
