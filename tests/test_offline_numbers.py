"""The offline pack reads rule numbers as judges type them, as the server's search does.

One line per typed form: the server's answer (``KnowledgeBase.search``, the rules alone as
the pack searches) and the offline search's (``web/static/offline-search.js`` in node, over
the edition's exported index) list the same rules in the same order, jump alike, page a
wide range alike, and say a number the edition lacks with the same nearest numbers. What
still differs is a table of its own: the pack carries no other edition's history, so an
older article's number (Magic 2010's 116.3d) is said with the edition's own nearest
numbers, without ``elsewhere``. Runs on the embedded excerpts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import offline_index_scripts
from kb.errors import QueryError
from kb.export.jsrun import node_path, run_queries
from kb.numbers import expand_range
from kb.query import KnowledgeBase, numbers_asked
from web.search_port import NUMBERS_ASKED_CHARS, RANGE_MOST

requires_node = pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")

EDITIONS = {"riftbound": "1.4", "mtg": "2026-01-16"}

# (ruleset, typed, limit, offset): the server's answer and the offline one must be the same
PARITY = [
    ("riftbound", "337-340", 10, 0),
    ("riftbound", "rules 337–340", 10, 0),
    ("riftbound", "Rule 337 - 340", 10, 0),
    ("riftbound", "337.1a and 337.4", 10, 0),
    ("riftbound", "337.1a, 337.4", 10, 0),
    ("riftbound", "337.1a; 337.4", 10, 0),
    ("riftbound", "337.1a & 337.4", 10, 0),
    ("riftbound", "337.1a-b", 10, 0),
    ("riftbound", "337.1–337.4", 10, 0),
    ("riftbound", "r337.2", 10, 0),
    ("riftbound", "R. 337.2", 10, 0),
    ("riftbound", "§ 337.2", 10, 0),
    ("riftbound", "337.1a", 10, 0),
    ("riftbound", "337-380", 10, 0),             # a range wider than a query holds words
    ("riftbound", "337-380", 20, 20),
    ("riftbound", "337-380", 20, 36),
    ("riftbound", "337-380", 20, 40),
    ("riftbound", "300-399", 100, 0),            # more than the citation finder expands
    ("riftbound", "337.9", 10, 0),               # numbers the edition lacks: the nearest
    ("riftbound", "rule 999.9", 10, 0),
    ("riftbound", "3.3.7.1.a", 10, 0),           # re-dotted first, in did_you_mean too
    ("riftbound", "3371a", 10, 0),               # a dot dropped
    ("riftbound", "337..1a", 10, 0),             # a dot doubled
    ("riftbound", "337,1a", 10, 0),
    ("riftbound", "337 1 a", 10, 0),
    ("riftbound", "9999.9", 10, 0),
    ("riftbound", "337.1.z", 10, 0),             # a number the edition lacks, as judges type them
    ("riftbound", "337.99", 10, 0),
    ("riftbound", "1000", 10, 0),                # more digits than the edition's heads
    ("riftbound", "rule 9999", 10, 0),           # the number alone searched, not the word "rule"
    ("riftbound", "0.1", 10, 0),
    ("riftbound", "116.3d", 10, 0),              # Magic's way of writing a number
    ("riftbound", "337.1.a.b.c.d", 10, 0),       # more parts than the edition uses
    ("riftbound", "337.a", 10, 0),               # a letter where the edition writes digits
    ("riftbound", "2026", 10, 0),
    ("riftbound", "337.1(a)", 10, 0),            # forms only the rule lookup read: they jump
    ("riftbound", "337.1 a", 10, 0),
    ("riftbound", "[337.1a]", 10, 0),
    ("riftbound", "1 2", 10, 0),                 # digits that re-dot into no rule: the words' search
    ("riftbound", "337-340 priority", 10, 0),    # not numbers only: the words' search
    ("riftbound", "337 AND 338", 10, 0),
    ("riftbound", "337 to 340", 10, 0),
    ("riftbound", "337 -338", 10, 0),
    ("riftbound", "337 or 338", 10, 0),
    ("riftbound", "in:337 priority", 10, 0),
    ("mtg", "CR 117.3a-c", 10, 0),
    ("mtg", "117.3a–c", 10, 0),
    ("mtg", "CR 117.3d", 10, 0),
    ("mtg", "117.3a and 117.3c", 10, 0),
    ("mtg", "117.3z", 10, 0),
    ("mtg", "1173d", 10, 0),
    ("mtg", "CR 999.9z", 10, 0),
    ("mtg", "CR 9999.9z", 10, 0),
    ("mtg", "9999.9", 10, 0),
    ("mtg", "1000", 10, 0),
    ("mtg", "0.1", 10, 0),
    ("mtg", "117.3d.1", 10, 0),
    ("mtg", "117.a", 10, 0),
]

# (ruleset, typed): a number only another edition has; the pack says the edition's own nearest
ELSEWHERE = [
    ("mtg", "116.3d"),
    ("mtg", "CR 116.3d"),
]


def _answer(r: dict[str, Any]) -> dict[str, Any]:
    """What the parity compares: the rules listed in order and how, the paging, the jump,
    the suggestion and a missing number's message and nearest."""
    missing = r.get("no_such_rule")
    return {"query": r["query"], "total": r["total"], "offset": r["offset"], "jump": r["jump"],
            "did_you_mean": r["did_you_mean"],
            "results": [(h["number"], h["match"]) for h in r["results"]],
            "no_such_rule": missing and {k: missing[k] for k in ("number", "message", "nearest")}}


@pytest.fixture(scope="module")
def indexes(excerpt_kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return offline_index_scripts(excerpt_kb, tmp_path_factory.mktemp("offline-numbers"), EDITIONS)


def _offline(indexes: list[Path], rows: list[tuple[str, str, int, int]]) -> list[dict[str, Any]]:
    answers, _ = run_queries(indexes, [{"query": typed, "ruleset": ruleset, "edition": EDITIONS[ruleset],
                                        "limit": limit, "offset": offset}
                                       for ruleset, typed, limit, offset in rows])
    return answers


@pytest.fixture(scope="module")
def offline_parity(indexes: list[Path]) -> dict[tuple[str, str, int, int], dict[str, Any]]:
    return dict(zip(PARITY, _offline(indexes, PARITY)))


@requires_node
@pytest.mark.parametrize("ruleset,typed,limit,offset", PARITY)
def test_the_offline_search_reads_a_typed_number_as_the_server(
        excerpt_kb: KnowledgeBase, offline_parity: dict[tuple[str, str, int, int], dict[str, Any]],
        ruleset: str, typed: str, limit: int, offset: int) -> None:
    server = excerpt_kb.search(typed, ruleset, EDITIONS[ruleset], limit=limit, offset=offset, rulings=False)
    offline = offline_parity[(ruleset, typed, limit, offset)]
    assert "error" not in offline, offline
    assert _answer(offline) == _answer(server)
    assert offline["no_such_rule"] is None or offline["no_such_rule"]["elsewhere"] is None


@requires_node
@pytest.mark.parametrize("ruleset,typed", ELSEWHERE)
def test_a_number_of_another_edition_is_said_with_this_editions_nearest(
        excerpt_kb: KnowledgeBase, indexes: list[Path], ruleset: str, typed: str) -> None:
    server = excerpt_kb.search(typed, ruleset, EDITIONS[ruleset], rulings=False)
    [offline] = _offline(indexes, [(ruleset, typed, 10, 0)])
    rg = excerpt_kb.edition(ruleset, EDITIONS[ruleset])
    with pytest.raises(QueryError) as lookup:
        excerpt_kb.find_rule(rg, typed)  # the edition's own answer, without other editions' history
    said, missing = offline["no_such_rule"], server["no_such_rule"]
    assert said["number"] == missing["number"] and said["elsewhere"] is None
    assert missing["elsewhere"] is not None  # the server knows where the rule went; the pack cannot
    assert said["nearest"] == lookup.value.detail["nearest"] and said["message"] == lookup.value.message
    assert offline["did_you_mean"] == said["nearest"][0]
    assert offline["results"] == server["results"] == []


# (ruleset, typed): a number typed with its dots misplaced; the suggestion is the re-dotted rule
REDOTTED = [
    ("riftbound", "3.3.7.1.a", "337.1.a"),
    ("riftbound", "3.3.7.2", "337.2"),
    ("mtg", "1.1.7.3.d", "117.3d"),
]


@pytest.mark.parametrize("ruleset,typed,number", REDOTTED)
def test_did_you_mean_is_the_first_nearest_number(excerpt_kb: KnowledgeBase, ruleset: str, typed: str,
                                                  number: str) -> None:
    r = excerpt_kb.search(typed, ruleset, EDITIONS[ruleset])
    assert r["no_such_rule"]["nearest"][0] == number
    assert r["did_you_mean"] == number


@requires_node
def test_did_you_mean_is_the_first_nearest_number_offline(indexes: list[Path]) -> None:
    answers = _offline(indexes, [(ruleset, typed, 10, 0) for ruleset, typed, _ in REDOTTED])
    assert [(a["did_you_mean"], a["no_such_rule"]["nearest"][0]) for a in answers] == \
        [(number, number) for _, _, number in REDOTTED]


def test_the_bounds_the_port_names_are_the_pythons(excerpt_kb: KnowledgeBase) -> None:
    rg = excerpt_kb.edition("riftbound", "1.4")
    padded = "337-340" + " " * (NUMBERS_ASKED_CHARS - len("337-340"))
    assert numbers_asked(rg, padded) is not None and numbers_asked(rg, padded + " ") is None
    assert len(expand_range(("1",), str(1 + RANGE_MOST))) == RANGE_MOST + 1
    assert expand_range(("1",), str(2 + RANGE_MOST)) == []
