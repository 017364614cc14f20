"""A file cut short is read up to the cut, and a reader note says where it looks truncated.

Riftbound Markdown cut inside a rule, inside a bold id or under a heading, and Magic's text
cut inside a rule or a Glossary entry, each give a warning at the file's last line naming
the rule (or entry) the cut falls in; a whole document gives none. The real case is the
first 50,000 bytes of the Riftbound Core Rules 1.4 (skipped without ``../shared``), which
``rulekb stats`` reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.read import read_bytes, read_text
from tests.conftest import CORPORA, SKIP_REASON, magic_document, shared_available

RIFTBOUND = """# Riftbound Core Rules

## 100. Game Concepts

### 101. Deck Construction

**101.1.** A deck holds forty cards.

**101.2.** A player chooses a Champion Legend before the game.

### 102. Playing the Game

**102.1.** Players take turns in order.
"""

MAGIC = magic_document("""100.1. These Magic rules apply to any Magic game with two or more players.

100.1a A two-player game is a game that begins with only two players.

100.1b A multiplayer game is a game that begins with more than two players.

100.2. To play, each player needs their own deck.

100.2a In constructed play, a deck has a minimum deck size of sixty cards.""", """Active Player
The player whose turn it is.

Tapper
A card that taps.""")

# name | the document | where it is cut (the text it ends with) | words of the note ("" = none)
CUTS = [
    ("a whole Markdown document", RIFTBOUND, "order.\n", ""),
    ("Markdown cut at a lower-case word", RIFTBOUND, "A deck holds", "ends inside rule 101.1"),
    ("Markdown cut inside a capitalised word", RIFTBOUND, "a Champion Leg", "ends inside rule 101.2"),
    ("Markdown cut inside a bold id", RIFTBOUND, "cards.\n\n**101.", "emphasis left open"),
    ("Markdown cut after a heading", RIFTBOUND, "### 102. Playing the Game\n", "ends at heading 102"),
    ("Markdown cut after a whole sentence at a line end", RIFTBOUND, "cards.\n", ""),
    ("a whole Magic text", MAGIC, "Richard Garfield\n", ""),
    ("Magic cut inside a rule", MAGIC, "minimum deck", "before its Glossary, inside rule 100.2a"),
    ("Magic cut inside a Glossary entry", MAGIC, "A card that", "inside the entry 'Tapper'"),
]


@pytest.mark.parametrize("document,ends_with,words", [c[1:] for c in CUTS], ids=[c[0] for c in CUTS])
def test_a_cut_file_is_read_up_to_the_cut_and_says_it_looks_truncated(document: str, ends_with: str,
                                                                      words: str) -> None:
    text = document[:document.index(ends_with) + len(ends_with)]
    result = read_text(text, "cut.txt")
    cuts = [d for d in result.diagnostics if "truncated" in d.message]
    if not words:
        assert not cuts, [str(d) for d in cuts]
        return
    (note,) = cuts
    assert words in note.message and note.severity == "warning"
    assert (note.file, note.line) == ("cut.txt", len(text.rstrip().split("\n")))
    assert result.rules


def test_the_first_50_kb_of_the_core_rules_are_reported_cut_inside_rule_174_1(tmp_path: Path,
                                                                            own_home: Path) -> None:
    """Read, then imported (into a copy of the session's embedded home: the build makes only
    the cut edition) and reported by ``rulekb stats``."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    data = (CORPORA / "riftbound" / "core-rules-2026-07-16.md").read_bytes()[:50_000]
    result, fmt = read_bytes(data, "cut.md")
    assert fmt == "riftbound-md"
    assert [d.line for d in result.diagnostics if "ends inside rule 174.1" in d.message] == \
        [data.decode().count("\n") + 1]
    cut = tmp_path / "cut.md"
    cut.write_bytes(data)
    home = own_home
    runner = CliRunner()
    imported = runner.invoke(main, ["--home", str(home), "import", str(cut), "--ruleset", "riftbound",
                                    "--edition", "9.9", "--date", "2027-01-01", "--partial"])
    assert imported.exit_code == 0, imported.output
    stats = runner.invoke(main, ["--home", str(home), "stats"])
    assert "the document ends inside rule 174.1" in stats.output
