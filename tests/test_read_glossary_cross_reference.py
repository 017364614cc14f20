"""A glossary entry's closing cross-reference cut from it by a page break ("See rule 406, “Exile.”"
standing alone after a blank line) ends the entry above: no term is named "See …"."""

from __future__ import annotations

import pytest

from kb.read import read_text
from tests.test_read_unseen_layouts import MAGIC

EXILE = "Exile\n1. A zone. Exile is a holding area for cards.\n2. To put an object into the exile zone."

CASES = [
    # glossary as printed (after Abandon)                         the Exile entry's definition read
    (f"{EXILE}\nSee rule 406, “Exile.”",                          True),
    (f"{EXILE}\n\nSee rule 406, “Exile.”",                        True),
    (f"{EXILE}\n\nSee rules 406.1–406.3.",                        True),
    (f"{EXILE}\n\nSee also rule 406.",                            True),
]


@pytest.mark.parametrize("glossary,ends_with_reference", CASES)
def test_a_cross_reference_alone_ends_the_entry_above(glossary: str, ends_with_reference: bool) -> None:
    text = MAGIC.replace("\nTwo-Player Game\n", f"\n{glossary}\n\nTwo-Player Game\n", 1)
    read = read_text(text, "text")
    terms = {t.name: t for t in read.terms}
    assert set(terms) == {"Abandon", "Exile", "Two-Player Game"}
    reference = glossary.rsplit("\n", 1)[-1]
    assert terms["Exile"].definition.endswith(reference) is ends_with_reference
    assert not [d for d in read.diagnostics if "has no definition" in d.message]


def test_a_term_whose_definition_is_a_cross_reference_stays_a_term() -> None:
    text = MAGIC.replace("\nTwo-Player Game\n", "\nIf\nSee Intervening “If” Clause.\n\nTwo-Player Game\n", 1)
    terms = {t.name: t.definition for t in read_text(text, "text").terms}
    assert terms["If"] == "See Intervening “If” Clause."
