"""The offline pack counts and lists what the server does, earlier rulings included.

``priority`` matched 41 rules on the server and 40 offline (the embedded excerpts): the
server's search brings in the rules an earlier ruling cites when a question asks that
ruling's question (:func:`kb.records.search.ruling_evidence`; the sample ruling on who acts
after finalizing cites 340.2, which holds no "priority"), and the pack carried no ruling.
Now each edition's index carries the ruleset's rulings (:mod:`kb.export.rulings`) and the
offline search scores them as the server does. One line per query: the server's answer
(``KnowledgeBase.search`` as the CLI, API and site ask it) and the offline one (node, as the
pack's page asks it) give the same total and the same rules, matched alike; and the rules
alone still agree with the rules alone. Runs on the embedded excerpts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import offline_index_scripts
from kb.export.jsrun import node_path, run_queries
from kb.export.rulings import ruling_evidence_index
from kb.export.search_index import read_index_script
from kb.query import KnowledgeBase
from kb.records.citing import current_records
from kb.records.search import ruling_index, words

requires_node = pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")

EDITIONS = {"riftbound": "1.4", "mtg": "2026-01-16"}
RULED = "cited by ruling "  # how a hit an earlier ruling brought in says so

# (ruleset, query, whether a hit says an earlier ruling cites it)
COUNTS = [
    ("riftbound", "priority", True),  # the acceptance run's 41 against 40
    ("riftbound", "Who may act next once everything on the chain is finalized?", True),
    ("riftbound", "who acts after the chain empties", True),
    ("riftbound", "pending chain items", True),
    ("riftbound", "priority -chain", False),           # excludes a word: ranks up, never brings in
    ("riftbound", '"open state" priority', True),      # a phrase: likewise
    ("riftbound", "in:340 priority", True),            # only inside 340: its 340.2
    ("riftbound", "showdown focus", False),
    ("riftbound", "hidden cards", False),
    ("riftbound", "can I play a spell during combat", True),  # "play": the ruling's answer says it
    ("riftbound", "prioirty", True),                   # misspelt: corrected, then asked
    ("mtg", "priority", False),                        # no ruling of Magic is shipped
    ("mtg", "who gets priority after combat damage", False),
    ("mtg", "mana ability", False),
]


@pytest.fixture(scope="module")
def indexes(excerpt_kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return offline_index_scripts(excerpt_kb, tmp_path_factory.mktemp("offline-counts"), EDITIONS)


@pytest.fixture(scope="module")
def offline(indexes: list[Path]) -> dict[tuple[str, str, bool], dict[str, Any]]:
    """Every query of the table offline, with the rulings (as the page) and without (one node run)."""
    rows = [(ruleset, query, rulings) for ruleset, query, _ in COUNTS for rulings in (True, False)]
    answers, _ = run_queries(indexes, [{"query": query, "ruleset": ruleset, "edition": EDITIONS[ruleset],
                                        "limit": 100, "rulings": rulings} for ruleset, query, rulings in rows])
    return dict(zip(rows, answers))


def _listed(answer: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    return [(h["number"], h["match"], h["matched"]) for h in answer["results"]]


@requires_node
@pytest.mark.parametrize("ruleset, query, ruled", COUNTS)
def test_the_offline_search_counts_as_the_server(excerpt_kb: KnowledgeBase,
                                                 offline: dict[tuple[str, str, bool], dict[str, Any]],
                                                 ruleset: str, query: str, ruled: bool) -> None:
    server = excerpt_kb.search(query, ruleset, EDITIONS[ruleset], limit=100)
    answer = offline[(ruleset, query, True)]
    assert "error" not in answer, answer
    assert answer["total"] == server["total"]
    assert _listed(answer) == _listed(server)
    brought = [h["number"] for h in server["results"] if any(m.startswith(RULED) for m in h["matched"])]
    assert bool(brought) == ruled, brought


@requires_node
@pytest.mark.parametrize("ruleset, query, ruled", COUNTS)
def test_the_rules_alone_count_alike_too(excerpt_kb: KnowledgeBase,
                                         offline: dict[tuple[str, str, bool], dict[str, Any]],
                                         ruleset: str, query: str, ruled: bool) -> None:
    server = excerpt_kb.search(query, ruleset, EDITIONS[ruleset], limit=100, rulings=False)
    answer = offline[(ruleset, query, False)]
    assert answer["total"] == server["total"]
    assert _listed(answer) == _listed(server)
    assert not any(m.startswith(RULED) for h in answer["results"] for m in h["matched"])


@pytest.mark.parametrize("ruleset", sorted(EDITIONS))
def test_the_index_carries_each_rulings_bm25_terms(excerpt_kb: KnowledgeBase, indexes: list[Path],
                                                   ruleset: str) -> None:
    """A ruling's terms, summed in float32 as the browser sums them, give the ruling index's
    own score for its question; a ruleset without rulings carries none."""
    data = read_index_script(next(p for p in indexes if p.stem == ruleset).read_text(encoding="utf-8"))
    records = current_records(excerpt_kb)
    mine = [r for r in records.of_kind("ruling") if r.ruleset == ruleset]
    assert ("rulings" in data) == bool(mine)
    assert data.get("rulings") == ruling_evidence_index(excerpt_kb, ruleset, EDITIONS[ruleset])
    index = ruling_index(excerpt_kb, records)
    for ruling, shipped in zip(mine, data.get("rulings", [])):
        asked = words(ruling.question)
        total = np.float32(0)
        for term in asked:
            total = np.float32(total + np.float32(shipped["terms"].get(term, 0.0)))
        scores = index.retriever.get_scores(asked)
        assert float(total) == float(scores[index.rulings.index(ruling)])
        assert shipped["reason"].startswith(f"{RULED}{ruling.id}: ")
