"""kb.cite.target.edition_on, the edition of a ruleset in force on an article's day, chooses
as LoadedEditions.in_force does (kb.loaded.in_force_among, one filter for both) but never
refuses: a day that is no calendar date is compared as written, a day before every edition
reads the oldest full one, no day the default. Each row: ruleset, day, edition."""

from __future__ import annotations

import pytest

from kb.cite.target import edition_on
from kb.errors import QueryError
from kb.query import KnowledgeBase

ROWS: list[tuple[str, str, str]] = [
    ("mtg", "2011-01-05", "2010-10-01"),
    ("mtg", "2026-01-16", "2026-01-16"),
    ("mtg", "2030-01-01", "2026-01-16"),
    ("mtg", "1999-01-01", "2010-10-01"),  # before them all: the oldest full one
    ("mtg", "", "2026-01-16"),  # no day: the default
    ("mtg", "2026-02-30", "2026-01-16"),  # no calendar date, compared as written
    ("mtg", "2011", "2010-10-01"),
]


@pytest.mark.parametrize("ruleset,day,expected", ROWS, ids=[f"{r} {d!r}" for r, d, _ in ROWS])
def test_the_edition_in_force_on_an_articles_day(excerpt_kb: KnowledgeBase, ruleset: str, day: str,
                                                 expected: str) -> None:
    assert edition_on(excerpt_kb, ruleset, day) == expected
    if day and day >= "2010-10-01" and len(day) == 10 and day != "2026-02-30":
        assert excerpt_kb.in_force(ruleset, day)["edition"] == expected  # the same choice


def test_in_force_still_refuses_what_edition_on_reads(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(QueryError) as refused:
        excerpt_kb.in_force("mtg", "2026-02-30")
    assert refused.value.status == 400
    with pytest.raises(QueryError) as before:
        excerpt_kb.in_force("mtg", "1999-01-01")
    assert before.value.status == 404
