"""bench.cite's own parts: the interleaved timing's untimed steps and the per-document
documents (the figures themselves are bench.cite's, never a test's)."""

from __future__ import annotations

import importlib

import pytest

from bench.cite import CACHES, fixed_documents, interleaved, paired_ratio, rounds, rounds_for
from kb.cite import find_citations


def test_interleaved_runs_each_untimed_step_around_its_own_timing_only() -> None:
    """The cold timing's set-up runs before it and the re-warming after it, every round, and
    the other timings run between them in their order (the facade is no longer timed
    straight after the cold run's emptied caches)."""
    calls: list[str] = []
    result = interleaved({name: (lambda n=name: calls.append(n)) for name in ("plain", "plugin", "cold")},
                         2, before={"cold": lambda: calls.append("empty")},
                         after={"cold": lambda: calls.append("rewarm")}, collect=lambda: calls.append("gc"))
    assert calls == ["gc", "plain", "gc", "plugin", "empty", "gc", "cold", "rewarm"] * 2
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


def test_alternate_rounds_run_the_timings_in_the_reverse_order_every_other_round() -> None:
    """An untimed step stays around its own timing in either order."""
    calls: list[str] = []
    times = rounds({name: (lambda n=name: calls.append(n)) for name in ("plain", "plugin", "cold")},
                   3, before={"cold": lambda: calls.append("empty")}, alternate=True,
                   collect=lambda: calls.append("gc"))
    assert calls == ["gc", "plain", "gc", "plugin", "empty", "gc", "cold", "empty", "gc", "cold", "gc", "plugin",
                     "gc", "plain", "gc", "plain", "gc", "plugin", "empty", "gc", "cold"]
    assert {name: len(ts) for name, ts in times.items()} == {"plain": 3, "plugin": 3, "cold": 3}


@pytest.mark.parametrize("times,base,expected", [
    ([2.0, 3.0, 1.5, 2.0], [1.0, 2.0, 1.0, 1.0], (1.75, 1.5, 2.0)),  # each round against its own plain
    ([3.0, 6.0, 9.0], [1.0, 2.0, 3.0], (3.0, 3.0, 3.0)),  # a slow spell slowing both: no spread
    ([1.2, 1.8], [1.0, 1.0], (1.5, 1.35, 1.65)),
    ([4.0], [2.0], (2.0, 2.0, 2.0)),  # one round: its ratio, no spread
])
def test_a_ratio_is_the_median_of_the_rounds_ratios_with_their_quartiles(
        times: list[float], base: list[float], expected: tuple[float, float, float]) -> None:
    assert paired_ratio(times, base) == pytest.approx(expected)


@pytest.mark.parametrize("size,runs,expected", [
    (1000, 15, 15), (100, 15, 15), (50, 15, 30), (10, 15, 150), (1, 15, 150), (10, 1, 30),
])
def test_a_smaller_size_gets_more_rounds(size: int, runs: int, expected: int) -> None:
    assert rounds_for(size, runs) == expected


@pytest.mark.parametrize("module", ["kb.cite.annotate", "kb.cite.find", "kb.cite.mdit", "kb.cite.resolve",
                                    "kb.cite.target", "kb.references", "kb.numbers"])
def test_cold_caches_empty_every_memo_the_linker_reads(module: str) -> None:
    """A memo added to the linker's path and left out of CACHES would keep the "cold" timing warm."""
    mod = importlib.import_module(module)
    memos = {name for name, value in vars(mod).items()
             if hasattr(value, "cache_clear") and getattr(value, "__module__", None) == module}
    emptied = {id(getattr(clear, "__self__", None)) for clear in CACHES}  # what each clear empties
    assert {name for name in memos if id(getattr(mod, name)) not in emptied} == set()
