"""Shared fixtures: the embedded knowledge base, and the real corpora in ../shared.

Tests that need ../shared skip with a clear reason where it is absent (a fresh clone).

Every test ends with the app's background threads (warming a build, loading a newer one,
compiling the templates) finished, so that none of them runs into the next test: a warm-up
left running read the worked scenarios while a later test had patched ``yaml.safe_load``.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import threading
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from kb.graph import RuleGraph, build_edition
from kb.query import KnowledgeBase
from kb.read import read_document
from kb.model import ReadResult
from kb.live import LiveKnowledgeBase
from kb.store import TopSections, build, collect_sources, current_build, top_sections

from bench.corpora import CORPORA, CORPUS_EDITIONS, REPO, SHARED  # noqa: F401  (re-exported to tests)
from browser.testgame import site_knowledge_base
from web.export import ExportResult, export_site

# Test files import this module as ``conftest`` (pytest's own name for it: tests/ is no
# package) or as ``tests.conftest``: two names would be two modules, each with its own
# caches, so that ``corpus_graph`` read and built every real edition twice per worker (about
# 5 s of CPU). One module under both names.
sys.modules.setdefault("tests.conftest" if __name__ == "conftest" else "conftest", sys.modules[__name__])

SEEDS = SHARED / "seeds"

SKIP_REASON = (f"needs the real rule documents in {CORPORA} (CI has ../shared beside the "
               "checkout; a fresh clone does not)")


def shared_available() -> bool:
    return CORPORA.is_dir()


requires_shared = pytest.mark.skipif(not shared_available(), reason=SKIP_REASON)


@functools.lru_cache(maxsize=None)
def corpus_graph(ruleset: str, edition: str) -> RuleGraph:
    """Read and build one real edition (cached for the whole test session)."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    for rs, ed, date, rel in CORPUS_EDITIONS:
        if (rs, ed) == (ruleset, edition):
            result, fmt = read_document(CORPORA / rel)
            info = collect_sources(REPO / ".no-home", REPO / "rules").rulesets.get(rs)
            return build_edition(result, ruleset=rs, edition=ed, date=date,
                                 source=str(CORPORA / rel), source_format=fmt,
                                 external_citations=info.external_citations if info else None)
    raise KeyError((ruleset, edition))


# The top-level sections and date of each real document read so far: what
# tests/test_import_truncated.py compares every real document by, noted as
# tests/test_reader_quirks.py reads the 70 archive releases whole (about 0.4 s of CPU each), so
# that the two files, one unit of work (SHARE_A_WORKER), read them once.
_SECTIONS_READ: dict[Path, tuple[TopSections, str]] = {}


def read_real_document(path: Path) -> tuple[ReadResult, str]:
    """:func:`kb.read.read_document` of ``path``, its top-level sections and date noted for
    :func:`real_document_sections`."""
    result, fmt = read_document(path)
    _SECTIONS_READ.setdefault(path.resolve(), (top_sections(result), result.date))
    return result, fmt


def real_document_sections(path: Path) -> tuple[TopSections, str]:
    """A document's top-level sections and its date, as read by :func:`read_real_document`
    (read now unless this session has read it already)."""
    found = _SECTIONS_READ.get(path.resolve())
    if found is None:
        read_real_document(path)
        found = _SECTIONS_READ[path.resolve()]
    return found


MAGIC_CONTENTS = """Magic: The Gathering Comprehensive Rules

These rules are effective as of January 16, 2026.

Contents

1. Game Concepts
100. General
Glossary
Credits

1. Game Concepts

100. General

"""


def offline_index_scripts(kb: KnowledgeBase, folder: Path, editions: dict[str, str]) -> list[Path]:
    """The offline pack's search index script of each ``ruleset: edition`` of ``kb``, written
    into ``folder`` as ``RULESET.js`` (what the offline search's node runs read), in that order."""
    from web.pack import search_index_script  # the web side, only where a test asks for it

    out = []
    for ruleset, edition in editions.items():
        path = folder / f"{ruleset}.js"
        path.write_text(search_index_script(kb, ruleset, edition, lambda n: n), encoding="utf-8")
        out.append(path)
    return out


def magic_document(rules: str, glossary: str,
                   credits: str = "Magic: The Gathering Original Game Design: Richard Garfield") -> str:
    """A small Magic Comprehensive Rules text of the tests' own, laid out as a release prints
    it: the title, the date the rules are effective, the contents (chapter 1, section 100, the
    Glossary, the Credits), then section 100's ``rules``, the Glossary's entries and the
    Credits, each part after an empty line."""
    return f"{MAGIC_CONTENTS}{rules}\n\nGlossary\n\n{glossary}\n\nCredits\n\n{credits}\n"


# Builds in the suite read their editions in this process: the suite already runs one pytest
# worker per core (make test: -n auto), so a build's own pool of worker processes only added
# their start-up and the pickling of each edition to and fro (a build of the embedded corpus:
# about 1.7 s of CPU alone against 2.9 s with two workers). The build's pool still runs in every
# session: the session's ``excerpt_home`` is built with it (``POOL_WORKERS``), and
# tests/test_build_killed.py kills a pooled ``rulekb build``. An environment that sets
# RULEKB_BUILD_WORKERS itself keeps its value; subprocesses inherit it.
SUITE_BUILD_WORKERS = "1"
POOL_WORKERS = "2"
os.environ.setdefault("RULEKB_BUILD_WORKERS", SUITE_BUILD_WORKERS)


@contextmanager
def build_workers(workers: str) -> Iterator[None]:
    """Builds in the block use ``workers`` processes (RULEKB_BUILD_WORKERS); the variable is as
    it was again after it."""
    before = os.environ.get("RULEKB_BUILD_WORKERS")
    os.environ["RULEKB_BUILD_WORKERS"] = workers
    try:
        yield
    finally:
        if before is None:
            del os.environ["RULEKB_BUILD_WORKERS"]
        else:
            os.environ["RULEKB_BUILD_WORKERS"] = before


# The apps made over the session's ``excerpt_home`` (``create_app(excerpt_home)``, about 40 in
# a run, most one per module) each loaded its build again and warmed that copy: both
# rulesets' worked scenarios run, their searchers opened, about 2.7 s of CPU an app, which the
# test's teardown waits for. That build never changes (read it, never change it), so the apps
# over it share one loaded knowledge base, warmed once. An app over any other home, or over a
# newer build of this one, loads its own as before; a test that loads a build itself
# (``KnowledgeBase.open``) still gets a fresh one, nothing derived.
_SHARED_HOMES: set[Path] = set()
_SHARED_LOADS: dict[Path, KnowledgeBase] = {}
_OPEN = KnowledgeBase.open  # what LiveKnowledgeBase loads a build with by default


def load_for_app(home: Path) -> KnowledgeBase:
    """The loader of the apps' LiveKnowledgeBase in the suite: the knowledge base of the
    session's embedded home's build, one per build, else ``KnowledgeBase.open(home)``."""
    build_dir = current_build(home) if Path(home).resolve() in _SHARED_HOMES else None
    if build_dir is None:
        return _OPEN(home)
    key = build_dir.resolve()
    if key not in _SHARED_LOADS:
        _SHARED_LOADS.setdefault(key, _OPEN(home))
    return _SHARED_LOADS[key]


@pytest.fixture(scope="session")
def excerpt_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A data directory built from the embedded corpus only (what a fresh clone has), its
    editions read in the build's pool of worker processes (the suite's other builds read
    theirs in the test's own process). Apps made over it share one loaded build
    (:func:`load_for_app`)."""
    home = tmp_path_factory.mktemp("excerpt-home")
    with build_workers(POOL_WORKERS):
        build(home)
    defaults = LiveKnowledgeBase.__init__.__kwdefaults__
    assert defaults is not None and defaults["loader"] == _OPEN
    _SHARED_HOMES.add(home.resolve())
    defaults["loader"] = load_for_app
    try:
        yield home
    finally:
        defaults["loader"] = _OPEN
        _SHARED_HOMES.discard(home.resolve())
        _SHARED_LOADS.clear()


def copy_home(source: Path, target: Path) -> Path:
    """``target``: a data directory of its own with ``source``'s build in service, a copy
    (its ``current`` symlink is relative, its objects are copied, never linked to the source's
    files, so a rebuild or an import in it leaves ``source`` alone). A test that needs a home
    of its own to rebuild, import into or break copies the session's ``excerpt_home`` in a
    fraction of a second instead of building one (about 4 s of CPU, most of it in the
    build's worker processes)."""
    shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    return target


@pytest.fixture()
def own_home(excerpt_home: Path, tmp_path: Path) -> Path:
    """A data directory of this test's own with the embedded build in service (a copy of
    ``excerpt_home``)."""
    return copy_home(excerpt_home, tmp_path / "home")


@pytest.fixture(scope="session")
def excerpt_kb(excerpt_home: Path) -> KnowledgeBase:
    return KnowledgeBase.open(excerpt_home)


@pytest.fixture(scope="session")
def site_kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    """The embedded excerpt plus the hand-made two-edition ``testgame`` (the export's and the
    browser's knowledge base: one object, so what the export derives serves them too)."""
    return site_knowledge_base(excerpt_kb)


@pytest.fixture(scope="session")
def exported_site(site_kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> ExportResult:
    """The offline pack of ``site_kb``, its links checked: made once per session (about 18 s
    of CPU) for the tests that read its files (tests/test_export.py) and those that open it
    in a browser (tests/browser/test_export_offline.py). Read it, never change it."""
    return export_site(site_kb, tmp_path_factory.mktemp("export") / "pack", check=True)


@pytest.fixture(scope="session")
def full_kb() -> KnowledgeBase:
    """Every real edition in ../shared, in memory."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    return KnowledgeBase.from_graphs([corpus_graph(rs, ed) for rs, ed, _, _ in CORPUS_EDITIONS])


# The threads the app and the knowledge base in service start in the background
# (kb/live.py, web/__init__.py), by name; each ends by itself once its work is done.
BACKGROUND_THREADS = frozenset({"rulekb-warm", "rulekb-reload", "rulekb-templates"})
# How long a test's teardown waits for them: a warm-up of every real edition on a loaded
# machine takes seconds, one still running after this is stuck.
BACKGROUND_WAIT = 120.0


def background_threads() -> list[threading.Thread]:
    """The app's background threads still running, in this process."""
    return [t for t in threading.enumerate() if t.name in BACKGROUND_THREADS and t.is_alive()]


def finish_background_threads(timeout: float) -> list[threading.Thread]:
    """Wait up to ``timeout`` seconds in all for every background thread to end (a thread
    may start another, a warm-up after a reload): those still running after it."""
    deadline = time.monotonic() + timeout
    running = background_threads()
    while running and time.monotonic() < deadline:
        for thread in running:
            thread.join(max(0.0, deadline - time.monotonic()))
        running = background_threads()
    return running


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    """After a test's fixtures are torn down (those of its module and session too, when it
    is their last), wait for the background threads it started, or a fixture did: a thread
    still running after ``BACKGROUND_WAIT`` is an error of this test's teardown."""
    yield
    left = finish_background_threads(BACKGROUND_WAIT)
    if left:
        names = ", ".join(sorted(t.name for t in left))
        raise RuntimeError(f"background threads still running {BACKGROUND_WAIT:.0f} s after "
                           f"{item.nodeid} ended: {names}")


# -- which files share a worker, and in which order the workers take them ------------------
# make test runs the suite as `-n auto --dist loadfile`: each file whole on one worker, the
# files handed out one at a time to whichever worker is free. xdist hands them out by their
# number of tests, most first, so the heaviest files (a few slow tests each: the browser, the
# load, the exports, the full documents' reads) came last, and one worker ran the last of them
# while the other had nothing left. Here they are handed out by their cost, heaviest first
# (the longest-processing-time order), so the run ends with the cheap ones; and the files
# that read the session's offline pack are one unit, made once on one worker.

# Files that read the session's ``exported_site`` (about 14 s of CPU to make, per worker).
# And the two that read the 70 archive releases (``read_real_document``), in this order: the
# first reads them whole, the second only needs what it noted (about 28 s of CPU read again).
SHARE_A_WORKER: tuple[tuple[str, ...], ...] = (
    ("tests/test_export.py", "tests/browser/test_export_offline.py",
     "tests/browser/test_offline_numbers_page.py", "tests/browser/test_offline_search_reading.py",
     "tests/browser/test_offline_range_clamp_page.py"),
    ("tests/test_reader_quirks.py", "tests/test_import_truncated.py"),
)
# About the seconds of the suite's files in a whole run, those of 4 s or more: each file's tests'
# setup, call and teardown summed from `--durations=0` of a fresh-clone `CI=true bash .ci/run`
# on two idle workers (2380a0b, 2026-12-04 evening: 10,107 tests in 428 s; bench/RESULTS.md, "The
# suite's time"). They only order the work: a file missing here is counted at DEFAULT_TEST_CPU a
# test, and a wrong figure costs only balance.
FILE_CPU: dict[str, float] = {
    "tests/test_export.py": 49,
    "tests/test_load.py": 45,
    "tests/test_read_containers.py": 42,
    "tests/test_timing_mtg_invariants.py": 31,
    "tests/test_api_schemathesis.py": 27,
    "tests/browser/test_explorer_next_browser.py": 26,
    "tests/browser/test_no_injection.py": 26,
    "tests/test_read_unseen_layouts.py": 25,
    "tests/test_health.py": 24,
    "tests/test_abuse_live.py": 21,
    "tests/test_readme_commands.py": 20,
    "tests/browser/test_site_browser.py": 17,
    "tests/test_timing_invariants.py": 17,
    "tests/test_reader_quirks.py": 17,
    "tests/test_cli_errors.py": 15,
    "tests/test_api_live.py": 13,
    "tests/test_search_questions.py": 13,
    "tests/test_read_variants.py": 12,
    "tests/browser/test_export_offline.py": 12,
    "tests/test_dependencies.py": 10,
    "tests/test_reader_layouts.py": 10,
    "tests/test_cli_startup.py": 9,
    "tests/test_hostile_input.py": 9,
    "tests/test_timing_costs_and_damage.py": 9,
    "tests/test_timing_mtg.py": 8,
    "tests/test_timing_replacements.py": 8,
    "tests/test_search.py": 7,
    "tests/test_timing.py": 7,
    "tests/test_editions.py": 7,
    "tests/test_every_edition.py": 7,
    "tests/test_search_definition_questions.py": 6,
    "tests/test_incremental_build.py": 6,
    "tests/test_timing_limits.py": 6,
    "tests/test_numbers_redotted.py": 6,
    "tests/test_timing_cited_conditions.py": 6,
    "tests/browser/test_records_browser.py": 6,
    "tests/test_hostile_documents.py": 6,
    "tests/test_serve_stop.py": 6,
    "tests/test_search_missing_numbers.py": 5,
    "tests/test_editions_api_leftovers.py": 5,
    "tests/test_api.py": 5,
    "tests/test_timing_stored_citations.py": 5,
    "tests/test_timing_mtg_first_strike.py": 5,
    "tests/test_timing_mtg_double_strike.py": 5,
    "tests/test_excerpts.py": 4,
    "tests/test_editions_moved_deeper.py": 4,
    "tests/test_search_kinds.py": 4,
    "tests/test_health_rebuild.py": 4,
    "tests/test_read_glossary_shape.py": 4,
}
DEFAULT_TEST_CPU = 0.02


def work_unit(path: str) -> str:
    """The unit of work a test file belongs to: its SHARE_A_WORKER group's first file, or
    itself."""
    for group in SHARE_A_WORKER:
        if path in group:
            return group[0]
    return path


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the tests by their unit of work, the costliest unit first (FILE_CPU, else
    DEFAULT_TEST_CPU a test); a unit's files stay together, each file's tests in their order."""
    tests: dict[str, int] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        path = _file_of(item)
        tests[path] = tests.get(path, 0) + 1
        first.setdefault(work_unit(path), i)
    cost: dict[str, float] = {}
    for path, n in tests.items():
        unit = work_unit(path)
        cost[unit] = cost.get(unit, 0.0) + FILE_CPU.get(path, n * DEFAULT_TEST_CPU)
    group_rank = {path: rank for group in SHARE_A_WORKER for rank, path in enumerate(group)}

    def order(pair: tuple[int, pytest.Item]) -> tuple[float, int, int, int]:
        i, item = pair
        path = _file_of(item)
        unit = work_unit(path)
        return (-cost[unit], first[unit], group_rank.get(path, 0), i)
    items[:] = [item for _, item in sorted(enumerate(items), key=order)]


try:
    from xdist.scheduler import LoadFileScheduling
except ImportError:  # pytest-xdist is a test dependency; without it the suite runs serially
    LoadFileScheduling = None

if LoadFileScheduling is not None:
    class CostliestFirstScheduling(LoadFileScheduling):
        """``--dist loadfile`` with two changes: the files of a SHARE_A_WORKER group are one
        unit of work, and the units are handed out in the collection's order (costliest
        first, pytest_collection_modifyitems) instead of by their number of tests."""

        def __init__(self, config: pytest.Config, log: object = None) -> None:
            super().__init__(config, log)
            config.option.loadscopereorder = False  # the collection's order is the schedule

        def _split_scope(self, nodeid: str) -> str:
            return work_unit(super()._split_scope(nodeid))

    @pytest.hookimpl(tryfirst=True, optionalhook=True)
    def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
        """The scheduler of ``--dist loadfile`` (make test's); xdist's own for the others."""
        if config.getvalue("dist") != "loadfile":
            return None
        return CostliestFirstScheduling(config, log)
