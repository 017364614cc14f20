"""The rules of one level between two numbers, as a range typed in a search lists them: the
citation finder's ranges (``300-399``, ``337.1.a-c``: ``kb.query._rules_between``) and a range
read at any size (``1-9999``, ``9999-1``: ``kb.query.range_asked``) take the level from one
helper (``kb.query._rules_at_level``): as deep as the range's numbers, under the same parent
(its parts compared as numbers), in document order. One case per line, on two small documents
written here (letters as last parts, Magic's ``116.3a``, mixed levels, reversed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.graph import RuleGraph, build_edition
from kb.query import _rules_at_level, _rules_between, range_asked
from kb.read import read_document

RIFTBOUND = """# Riftbound Core Rules

Last Updated: 2026-07-16

## 300. Playing the Game

### 337. Resolving

**337.1.** A unit resolves immediately.

**337.1.a.** It is put onto the board.

**337.1.b.** It does not wait on the chain.

**337.1.c.** Its controller chooses where.

**337.2.** A spell resolves from the chain.

**337.2.a.** Its effects happen in order.

**337.3.** Gear resolves immediately.

### 338. Passing

**338.1.** A player may pass.
"""

MAGIC = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

1. Game Concepts

116. Special Actions

116.1. Special actions are actions a player may take when they have priority.

116.2. There are several special actions.

116.3. A player who has priority may take these.

116.3a Playing a land is a special action.

116.3b Turning a face-down creature face up is a special action.

116.3c Ending a continuous effect is a special action.

116.3d Exiling a card is a special action.

116.4. Taking a special action doesn't use the stack.

Glossary

Special Action
An action a player may take when they have priority that doesn't use the stack. See rule 116.

Credits
"""

DOCUMENTS = {"riftbound": ("riftbound.md", RIFTBOUND), "mtg": ("mtg.txt", MAGIC)}


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, RuleGraph]:
    folder = tmp_path_factory.mktemp("levels")
    out = {}
    for ruleset, (name, text) in DOCUMENTS.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        result, fmt = read_document(path)
        out[ruleset] = build_edition(result, ruleset=ruleset, edition="t", date="2026-01-16",
                                     source=str(path), source_format=fmt)
    return out


def _segments(number: str) -> tuple[str, ...]:
    return tuple(number.split("."))


# (ruleset, a number of the level, the level's rules in document order)
LEVELS = [
    ("riftbound", "337.1.a", ["337.1.a", "337.1.b", "337.1.c"]),
    ("riftbound", "337.2.z", ["337.2.a"]),                       # a number the level lacks
    ("riftbound", "0337.1.a", ["337.1.a", "337.1.b", "337.1.c"]),  # its parent's parts as numbers
    ("riftbound", "337.1", ["337.1", "337.2", "337.3"]),
    ("riftbound", "338.9", ["338.1"]),
    ("mtg", "116.3.a", ["116.3a", "116.3b", "116.3c", "116.3d"]),
    ("mtg", "116.1", ["116.1", "116.2", "116.3", "116.4"]),
]


@pytest.mark.parametrize("ruleset,number,rules", LEVELS, ids=[f"{c[0]}-{c[1]}" for c in LEVELS])
def test_a_level_is_the_rules_as_deep_under_the_same_parent(graphs: dict[str, RuleGraph], ruleset: str,
                                                            number: str, rules: list[str]) -> None:
    assert [r.number for r in _rules_at_level(graphs[ruleset], _segments(number))] == rules


# (ruleset, first, last, the rules the citation finder's range lists)
BETWEEN = [
    ("riftbound", "337.1.a", "337.1.c", ["337.1.a", "337.1.b", "337.1.c"]),
    ("riftbound", "337.1.b", "337.1.z", ["337.1.b", "337.1.c"]),
    ("riftbound", "337.1.c", "337.1.a", []),                       # reversed: none
    ("riftbound", "337.1", "337.3", ["337.1", "337.2", "337.3"]),   # not the rules under them
    ("riftbound", "337.1", "337.2.a", ["337.1", "337.2.a"]),        # mixed levels: the two rules
    ("riftbound", "337.1.a", "337.2.a", ["337.1.a", "337.2.a"]),    # other parents: the two rules
    ("riftbound", "0337.1.a", "337.1.b", ["337.1.a", "337.1.b"]),   # parents compared as numbers
    ("mtg", "116.3.a", "116.3.d", ["116.3a", "116.3b", "116.3c", "116.3d"]),
    ("mtg", "116.3.b", "116.3.c", ["116.3b", "116.3c"]),
    ("mtg", "116.2", "116.4", ["116.2", "116.3", "116.4"]),
]


@pytest.mark.parametrize("ruleset,first,last,rules", BETWEEN, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in BETWEEN])
def test_the_citation_finders_range_lists_its_level(graphs: dict[str, RuleGraph], ruleset: str, first: str,
                                                    last: str, rules: list[str]) -> None:
    assert _rules_between(graphs[ruleset], _segments(first), _segments(last)) == rules


# (ruleset, the query, the rules listed or None when it is no range read at any size, clamped)
ASKED = [
    ("riftbound", "337.1-3", ["337.1", "337.2", "337.3"], False),
    ("riftbound", "337.3-1", ["337.1", "337.2", "337.3"], True),    # reversed: read low to high
    ("riftbound", "337.1-99", ["337.1", "337.2", "337.3"], True),
    ("riftbound", "337.1.a-c", None, False),                         # letters: the finder's range
    ("riftbound", "337.1-337.2.a", None, False),                     # mixed levels
    ("mtg", "116.1-4", ["116.1", "116.2", "116.3", "116.4"], False),
    ("mtg", "116.4-2", ["116.2", "116.3", "116.4"], True),
    ("mtg", "116.3a-d", None, False),
]


@pytest.mark.parametrize("ruleset,query,rules,clamped", ASKED, ids=[f"{c[0]}-{c[1]}" for c in ASKED])
def test_a_range_read_at_any_size_lists_its_level(graphs: dict[str, RuleGraph], ruleset: str, query: str,
                                                  rules: list[str] | None, clamped: bool) -> None:
    read = range_asked(graphs[ruleset], query)
    if rules is None:
        assert read is None
    else:
        assert read is not None and read[0] == rules and (read[1] is not None) == clamped
