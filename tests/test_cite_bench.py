"""bench.cite's own parts: the interleaved timing's untimed steps and the per-document
documents (the figures themselves are bench.cite's, never a test's)."""

from __future__ import annotations

import pytest

from bench.cite import fixed_documents, interleaved
from kb.cite import find_citations


def test_interleaved_runs_each_untimed_step_around_its_own_timing_only() -> None:
    """The cold timing's set-up runs before it and the re-warming after it, every round, and
    the other timings run between them in their order (the facade is no longer timed
    straight after the cold run's emptied caches)."""
    calls: list[str] = []
    result = interleaved({name: (lambda n=name: calls.append(n)) for name in ("plain", "plugin", "cold")},
                         2, before={"cold": lambda: calls.append("empty")},
                         after={"cold": lambda: calls.append("rewarm")})
    assert calls == ["plain", "plugin", "empty", "cold", "rewarm"] * 2
    assert set(result) == {"plain", "plugin", "cold"}
    assert all(seconds >= 0 for seconds in result.values())


@pytest.mark.parametrize("name,citations,distinct", [
    ("empty", 0, 0),
    ("1 KB, no citation", 0, 0),
    ("one citation", 1, 1),
    ("1 KB of the lessons", 4, 4),
    ("10 KB of the lessons", 74, 49),
    ("10 KB, every citation rule 337.1", 74, 1),
])
def test_the_per_document_table_has_the_documents_it_says(name: str, citations: int, distinct: int) -> None:
    text = fixed_documents()[name]
    found = find_citations(text)
    assert (len(found), len({c.number for c in found})) == (citations, distinct)
