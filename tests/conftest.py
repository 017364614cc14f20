"""Shared fixtures: the embedded knowledge base, and the real corpora in ../shared.

Tests that need ../shared skip with a clear reason where it is absent (a fresh clone).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from kb.graph import RuleGraph, build_edition
from kb.query import KnowledgeBase
from kb.read import read_document
from kb.store import build, collect_sources

from bench.corpora import CORPORA, CORPUS_EDITIONS, REPO, SHARED  # noqa: F401  (re-exported to tests)

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


@pytest.fixture(scope="session")
def excerpt_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory built from the embedded corpus only (what a fresh clone has)."""
    home = tmp_path_factory.mktemp("excerpt-home")
    build(home)
    return home


@pytest.fixture(scope="session")
def excerpt_kb(excerpt_home: Path) -> KnowledgeBase:
    return KnowledgeBase.open(excerpt_home)


@pytest.fixture(scope="session")
def full_kb() -> KnowledgeBase:
    """Every real edition in ../shared, in memory."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    return KnowledgeBase.from_graphs([corpus_graph(rs, ed) for rs, ed, _, _ in CORPUS_EDITIONS])
