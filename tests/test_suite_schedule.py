"""The suite's own schedule (tests/conftest.py): which files share a worker, in which order.

make test hands each file whole to a worker (``--dist loadfile``), costliest first
(``FILE_CPU``), and the files reading the session's offline pack as one unit
(``SHARE_A_WORKER``). These tests check the ordering on stand-in items, the unit a file is
scheduled in, and that the names the tables hold are real files (a renamed file would
silently fall back to its number of tests).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

import conftest
from conftest import FILE_CPU, REPO, SHARE_A_WORKER, pytest_collection_modifyitems, work_unit


@dataclass
class Item:
    """What the ordering reads of a test item: its node id."""
    nodeid: str


@pytest.mark.parametrize("path", sorted({*FILE_CPU, *(p for g in SHARE_A_WORKER for p in g)}))
def test_the_tables_name_real_test_files(path: str) -> None:
    assert (REPO / path).is_file(), f"{path} is named in tests/conftest.py but does not exist"


@pytest.mark.parametrize(("path", "unit"), [
    ("tests/test_export.py", "tests/test_export.py"),
    ("tests/browser/test_export_offline.py", "tests/test_export.py"),
    ("tests/browser/test_offline_search_reading.py", "tests/test_export.py"),
    ("tests/test_diff.py", "tests/test_diff.py"),
    ("tests/test_reader_quirks.py", "tests/test_reader_quirks.py"),
    ("tests/test_import_truncated.py", "tests/test_reader_quirks.py"),
])
def test_a_file_is_scheduled_in_its_unit(path: str, unit: str) -> None:
    assert work_unit(path) == unit


# The test files that read the session's offline pack (the exported_site fixture, ~40 s to make):
# one worker makes it for all of them only when they are one unit (a file left out of it paid a
# second export on the other worker in CI, 39 s).
_READ_THE_PACK = sorted(str(p.relative_to(REPO)) for p in (REPO / "tests").rglob("test_*.py")
                        if re.search(r"\bexported_site\s*:", p.read_text(encoding="utf-8")))


@pytest.mark.parametrize("path", _READ_THE_PACK)
def test_every_file_reading_the_offline_pack_shares_its_worker(path: str) -> None:
    assert work_unit(path) == "tests/test_export.py", f"add {path} to SHARE_A_WORKER's first group"


def ordered(nodeids: list[str], monkeypatch: pytest.MonkeyPatch, cpu: dict[str, float],
            groups: tuple[tuple[str, ...], ...] = ()) -> list[str]:
    monkeypatch.setattr(conftest, "FILE_CPU", cpu)
    monkeypatch.setattr(conftest, "SHARE_A_WORKER", groups)
    items = [Item(n) for n in nodeids]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    return [i.nodeid for i in items]


CASES = [
    # (collected, FILE_CPU, SHARE_A_WORKER, expected order)
    (["a.py::1", "a.py::2", "b.py::1"], {"b.py": 10.0}, (), ["b.py::1", "a.py::1", "a.py::2"]),
    # unlisted files: by their number of tests at DEFAULT_TEST_CPU each; ties keep their order
    (["a.py::1", "b.py::1", "b.py::2", "c.py::1"], {}, (), ["b.py::1", "b.py::2", "a.py::1", "c.py::1"]),
    # a group's files come together, in the group's order, with the group's whole cost
    (["a.py::1", "g2.py::1", "b.py::1", "g1.py::1", "g1.py::2"], {"a.py": 5.0, "g1.py": 3.0, "g2.py": 3.0},
     (("g1.py", "g2.py"),), ["g1.py::1", "g1.py::2", "g2.py::1", "a.py::1", "b.py::1"]),
]


@pytest.mark.parametrize(("collected", "cpu", "groups", "expected"), CASES)
def test_the_costliest_unit_runs_first_and_each_file_keeps_its_order(
        collected: list[str], cpu: dict[str, float], groups: tuple[tuple[str, ...], ...],
        expected: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    assert ordered(collected, monkeypatch, cpu, groups) == expected


@pytest.mark.skipif(conftest.LoadFileScheduling is None, reason="pytest-xdist is not installed")
@pytest.mark.parametrize(("nodeid", "scope"), [
    ("tests/browser/test_offline_numbers_page.py::test_x[1]", "tests/test_export.py"),
    ("tests/test_export.py::test_y", "tests/test_export.py"),
    ("tests/test_load.py::test_z", "tests/test_load.py"),
])
def test_the_scheduler_gives_a_group_one_scope(nodeid: str, scope: str) -> None:
    scheduler = object.__new__(conftest.CostliestFirstScheduling)  # _split_scope reads no state
    assert scheduler._split_scope(nodeid) == scope
