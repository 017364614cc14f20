"""A document's title says which kind of rules it is; a ruleset takes only its own kind.

The Riftbound Tournament Rules are numbered like the Core Rules, so the readers take them;
imported as ``riftbound`` they would slot in between two Core Rules editions and the
mapping would call every Core rule removed. ``kb.read.kinds`` refuses them there by their
title line, naming the file, that line and the ruleset to import them as instead.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import DocumentError
from kb.read import read_text
from kb.read.kinds import kind_of_title
from kb.store import import_document
from tests.conftest import CORPORA, SKIP_REASON, shared_available

BODY = "\n\n**100.** General\n\n**100.1.** A rule of the game.\n\n**100.2.** Another rule.\n"

# title line | ruleset | the ruleset the error suggests ("" = the document is accepted)
TITLES = [
    ("# Riftbound Core Rules RUP4", "riftbound", ""),
    ("Riftbound Core Rules v1.3", "riftbound", ""),
    ("# Riftbound Tournament Rules (2026-05-02)", "riftbound", "riftbound-tournament"),
    ('<div class="rule-text">Riftbound Tournament Rules</div>', "riftbound", "riftbound-tournament"),
    ("# Riftbound Tournament Rules (2026-05-02)", "riftbound-tournament", ""),
    ("# Riftbound Core Rules RUP4", "riftbound-tournament", "riftbound"),
    ("# Riftbound Tournament Rules (2026-05-02)", "my-tournament", ""),
    ("Magic: The Gathering Comprehensive Rules", "mtg", ""),
    ("_Magic: The Gathering_ Comprehensive Rules", "mtg", ""),
    ("Magic Tournament Rules", "mtg", "mtg-tournament"),
    ("Magic: The Gathering Infraction Procedure Guide", "mtg", "mtg-ipg"),
    ("MAGIC INFRACTION PROCEDURE GUIDE", "mtg", "mtg-ipg"),
    ("Magic: The Gathering Comprehensive Rules", "riftbound", "mtg"),
    ("Rules of the game", "riftbound", ""),
    ("This document sets out the Riftbound Tournament Rules that every judge and player at an "
     "event follows, and how they relate to the Core Rules", "riftbound", ""),
]


@pytest.mark.parametrize("title,ruleset,suggested", TITLES, ids=[f"{t[:40]} as {r}" for t, r, _ in TITLES])
def test_a_title_of_another_kind_than_the_ruleset_holds_is_refused(title: str, ruleset: str,
                                                                   suggested: str) -> None:
    text = title + BODY
    if not suggested:
        assert read_text(text, "doc.md", "riftbound-md", ruleset=ruleset).rules
        return
    with pytest.raises(DocumentError) as err:
        read_text(text, "doc.md", "riftbound-md", ruleset=ruleset)
    (note,) = err.value.diagnostics
    assert (note.file, note.line) == ("doc.md", 1)
    assert (kind := kind_of_title(title)) is not None and f"says this is the {kind.name}," in note.message and "reads as riftbound-md" in note.message
    assert f"--ruleset {suggested}" in note.message and f"ruleset {ruleset} holds" in note.message


def test_without_a_ruleset_any_kind_is_read() -> None:
    assert read_text("# Riftbound Tournament Rules" + BODY, "doc.md").rules


def test_the_title_line_is_named_where_it_is_after_a_cover() -> None:
    text = "\n\nOfficial document\n\nRiftbound Tournament Rules\nLast Updated 4/29/2026" + BODY
    with pytest.raises(DocumentError) as err:
        read_text(text, "doc.md", ruleset="riftbound")
    assert err.value.diagnostics[0].line == 5
    assert "'Riftbound Tournament Rules'" in err.value.diagnostics[0].message


def test_the_tournament_rules_are_refused_as_core_rules_and_imported_as_their_own_ruleset(
        tmp_path: Path) -> None:
    if not shared_available():
        pytest.skip(SKIP_REASON)
    doc = CORPORA / "riftbound" / "tournament-rules-2026-05-02.md"
    home = tmp_path / "home"
    with pytest.raises(DocumentError) as err:
        import_document(home, doc, ruleset="riftbound", edition="tr")
    message = str(err.value)
    assert str(doc) in message and "'Riftbound Tournament Rules (2026-05-02)'" in message
    assert "not the Riftbound Core Rules" in message and "--ruleset riftbound-tournament" in message
    assert not (home / "imports" / "riftbound").exists()
    import_document(home, doc, ruleset="riftbound-tournament", edition="2026-05-02")
    assert (home / "imports" / "riftbound-tournament" / "2026-05-02" / doc.name).is_file()
