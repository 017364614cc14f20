"""A rule that moved deeper under a renumbered ancestor (finding A30).

Riftbound 1.2's combat showdown (442.1) became 1.3's 459.2, its tasks numbered one level
deeper. Before calling a rule removed the mapping already looks for a free rule worded like
it anywhere (near-identical), then inside the counterpart of its nearest paired ancestor
(``_Matcher.section``, at a lower bar). A30 read 1.3's 459.2.c "2. The Attacker gains Focus."
as 1.2's 442.1.a.1.a "This player gains Focus as this Showdown begins", but 1.3 kept that
sentence too, as 459.2.b.1.a ("... as the showdown begins"; 0.92), and 459.2.c is a task line
1.3 added (0.40 to the sentence, the level of unrelated rules): pairing it with 442.1.a.1.a
would be a second, false link. Measured on every neighbouring pair both ways
(``bench.editions``, bench/RESULTS.md, Editions, A30): no rule left unpaired has a free rule
worded like it (0.75 or more) under its ancestor's counterpart.

A small hand-made pair first, then the real documents (skipped without ../shared).
"""

from __future__ import annotations

import pytest

from kb.editions.evaluate import removed_beside_alike
from kb.editions.mapping import Counterpart, EditionMapping, map_editions
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase
from tests.conftest import requires_shared


def edition(rules: dict[str, str], name: str) -> RuleGraph:
    """An edition of number → text; a number without a dot is a section headed by its text."""
    raw = [RawRule(parse_number(n), "section" if "." not in n else "rule",
                   text if "." in n else "", k + 1, title="" if "." in n else text)
           for k, (n, text) in enumerate(rules.items())]
    return build_edition(ReadResult(raw, []), ruleset="deeper", edition=name)


OLD = {
    "400": "Combat",
    "400.1": "A Showdown opens at this time.",
    "400.1.a": "Establish who is Attacker and who is Defender.",
    "400.1.a.1": "The Attacker is the player whose units applied the Contested status to the Battlefield.",
    "400.1.a.1.a": "This player gains Focus as this Showdown begins.",
    "400.1.b": "Units that arrive later gain the designation of their controller during the Cleanup.",
    "400.1.c": "Focus does not pass upon closure of the Initial Chain, if any.",
}
# 400 -> 410, 400.1 -> 410.2 (reworded), its rules one level deeper under numbered tasks;
# 410.2.c is a task line added beside the kept focus sentence; 400.1.b moved under 410.2.b.
NEW = {
    "410": "Combat",
    "410.1": "Combat opens when a battlefield is contested.",
    "410.2": "When Combat opens, it either opens with a Combat Showdown, or the Showdown becomes one.",
    "410.2.a": "The following Tasks become Outstanding, in the order described:",
    "410.2.b": "1. Establish who is Attacker and who is Defender.",
    "410.2.b.1": "The Attacker is the player whose units applied the Contested status to the Battlefield.",
    "410.2.b.1.a": "This player gains Focus as the showdown begins.",
    "410.2.b.1.b": "Units that arrive later gain the designation of their controller during the Cleanup phase.",
    "410.2.c": "2. The Attacker gains Focus.",
    "410.2.d": "Focus does not pass upon closure of the Combat Chain, if any.",
}

# from, number, counterpart (None: no counterpart)
SMALL = [
    ("old", "400.1.a.1.a", "410.2.b.1.a"),  # the focus sentence, one level deeper
    ("old", "400.1.b", "410.2.b.1.b"),      # moved under a task, near-identical
    ("old", "400.1.c", "410.2.d"),
    ("new", "410.2.b.1.a", "400.1.a.1.a"),
    ("new", "410.2.c", None),               # added: its words live on in 400.1.a.1.a's counterpart
    ("new", "410.2.a", None),
]


@pytest.mark.parametrize("side,number,expected", SMALL)
def test_a_rule_moved_deeper_is_paired_and_an_added_task_is_not(side: str, number: str,
                                                                 expected: str | None) -> None:
    old, new = edition(OLD, "old"), edition(NEW, "new")
    m = map_editions(old, new) if side == "old" else map_editions(new, old)
    assert m.get(number).target == expected


# ruleset, from, to, number, counterpart (None: no counterpart), each read in both documents
REAL = [
    ("riftbound", "1.3", "1.2", "459.2.c", None),          # A30: "2. The Attacker gains Focus." added in 1.3
    ("riftbound", "1.2", "1.3", "442.1.a.1.a", "459.2.b.1.a"),  # "... as this Showdown begins" kept
    ("riftbound", "1.3", "1.2", "459.2.b.1.a", "442.1.a.1.a"),
    ("riftbound", "1.3", "1.2", "459.2", "442.1"),
    ("riftbound", "1.3", "1.4", "459.2.c", "464.2.d"),
    ("riftbound", "1.4", "1.3", "464.2.d", "459.2.c"),
    ("riftbound", "1.4", "1.2", "464.2.d", None),
    ("riftbound", "1.4", "1.2", "464.2.c.1.a", "442.1.a.1.a"),  # 1.4 added "If a showdown opens as part of combat"
]


@requires_shared
@pytest.mark.parametrize("ruleset,source,target,number,expected", REAL)
def test_the_combat_showdowns_focus_rules(full_kb: KnowledgeBase, ruleset: str, source: str, target: str,
                                          number: str, expected: str | None) -> None:
    assert full_kb.map_number(ruleset, number, source, target)["target"] == expected


NEIGHBOURS = [("riftbound", "1.0", "1.2"), ("riftbound", "1.2", "1.3"), ("riftbound", "1.3", "1.4"),
              ("mtg", "2010-10-01", "2026-01-16")]


@requires_shared
@pytest.mark.parametrize("ruleset,a,b", NEIGHBOURS)
@pytest.mark.parametrize("backwards", [False, True], ids=["forward", "backward"])
def test_no_rule_is_removed_beside_a_free_rule_worded_like_it(full_kb: KnowledgeBase, ruleset: str, a: str,
                                                              b: str, backwards: bool) -> None:
    old, new = full_kb.graphs[(ruleset, a)], full_kb.graphs[(ruleset, b)]
    if backwards:
        old, new = new, old
    found = removed_beside_alike(map_editions(old, new), old, new)
    assert [f for f in found if f.alike_origin is None] == []


def test_a_missed_rule_beside_its_free_twin_is_reported() -> None:
    """What the real-document test asserts none of: a mapping that left the moved rules
    unpaired (their pairs taken out by hand) reports each beside its free twin."""
    old, new = edition(OLD, "old"), edition(NEW, "new")
    m = map_editions(old, new)
    for number in ("400.1.a.1.a", "400.1.b"):
        m.pairs[number] = Counterpart(number, None, 1.0, 0.0, "removed")
    m = EditionMapping(m.ruleset, m.source, m.target, m.pairs,
                       m.added + ["410.2.b.1.a", "410.2.b.1.b"])
    found = {(f.number, f.alike, f.alike_origin) for f in removed_beside_alike(m, old, new)}
    assert found == {("400.1.a.1.a", "410.2.b.1.a", None), ("400.1.b", "410.2.b.1.b", None)}


def test_the_added_task_line_is_not_worded_like_the_focus_sentence() -> None:
    """By the mapping's measure 410.2.c ("2. The Attacker gains Focus.") is no nearer the focus
    sentence than unrelated rules of one game are to each other (0.40): nothing is reported."""
    old, new = edition(OLD, "old"), edition(NEW, "new")
    assert [f.number for f in removed_beside_alike(map_editions(new, old), new, old)] == []
