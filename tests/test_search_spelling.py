"""A misspelt word is explained in the word searched for, with the word typed (issue #18,
finding 4): "matched: priority (read from 'priorty')", not "matched: priorty", on the server
and in the offline search alike. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.graph import build_edition
from kb.read import read_text
from kb.search import open_searcher, parse_query

RULES = """# Rules
## 310. Priority and Focus
**310.1.** Priority is the right to take Discretionary Actions.
**310.2.** A player with Priority may pass priority to the next player.
**310.3.** During a Showdown, the player with Focus acts first.
## 320. Showdowns
**320.1.** A showdown opens when a unit moves to a contested battlefield.
**320.2.** When every player passes in a row, the showdown ends.
"""

# (query, the explanation of its first hit's corrected word)
CORRECTED = [
    ("priorty", "priority (read from 'priorty')"),
    ("Priorty passes", "Priority (read from 'Priorty')"),
    ("who acts first in a showdwn", "showdown (read from 'showdwn')"),
    ('"pass priorty"', "pass priority (read from 'pass priorty')"),
    ("priorty OR focus", "priority focus (read from 'priorty focus')"),
]


@pytest.fixture(scope="module")
def rules_searcher():
    rg = build_edition(read_text(RULES, "rules.md", "riftbound-md"), ruleset="riftbound", edition="9")
    return open_searcher(rg, None)


@pytest.mark.parametrize("query, explained", CORRECTED)
def test_a_corrected_word_is_explained_with_the_word_typed(rules_searcher, query: str, explained: str) -> None:
    data = rules_searcher.search(parse_query(query), limit=10)
    assert data["did_you_mean"] is not None
    reasons = [m for h in data["results"] for m in h["matched"]]
    assert explained in reasons, reasons
    typed = explained.split("'")[1]
    assert typed not in reasons  # never the typo alone


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_explains_a_correction_as_the_server(rules_searcher, tmp_path: Path) -> None:
    script = tmp_path / "9.js"
    script.write_text(index_script(build_search_index(rules_searcher.rg, rules_searcher, lambda n: n)),
                      encoding="utf-8")
    queries = [q for q, _e in CORRECTED]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "9"} for q in queries])
    for query, offline in zip(queries, answers):
        server = rules_searcher.search(parse_query(query), limit=10)
        assert [(h["number"], h["score"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["score"], h["matched"]) for h in server["results"]], query
