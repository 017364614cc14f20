"""The offline search names the other rulesets that match when the one searched has nothing, as
the server's does (KnowledgeBase.search's ``other_rulesets``, F19): each other ruleset whose
default edition, carried by the pack, matches the query, with how many rules match there; none
when the ruleset searched answers, a section or a later page is asked. One case per line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.export import build_search_index, index_script
from kb.export.jsrun import node_path, run_queries
from kb.query import KnowledgeBase, searcher

pytestmark = pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")

EDITIONS = [("riftbound", "1.4"), ("mtg", "2026-01-16")]  # the default editions of the real documents

# (ruleset searched, query, offset, section, the other rulesets named)
CASES = [
    ("riftbound", "planeswalker", 0, "", ["mtg"]),        # a Magic word only
    ("mtg", "showdown", 0, "", ["riftbound"]),             # a Riftbound word only
    ("mtg", "planeswalker", 0, "", []),                     # the ruleset searched answers
    ("riftbound", "loyalty counters", 0, "", []),
    ("riftbound", "qqqzzzx", 0, "", []),                    # nobody matches
    ("riftbound", "planeswalker", 10, "", []),              # a later page: not looked for
    ("riftbound", "planeswalker", 0, "337", []),            # inside a section: not looked for
]


@pytest.fixture(scope="module")
def scripts(full_kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("offline-others")
    out = []
    for ruleset, edition in EDITIONS:
        path = folder / f"{ruleset}-{edition}.js"
        path.write_text(index_script(build_search_index(full_kb.edition(ruleset, edition),
                                                        searcher(full_kb, ruleset, edition), lambda n: n)),
                        encoding="utf-8")
        out.append(path)
    return out


def _named(answer: dict[str, Any]) -> list[tuple[str, str, int]]:
    return [(o["ruleset"], o["edition"], o["total"]) for o in answer.get("other_rulesets") or []]


@pytest.mark.parametrize("ruleset, query, offset, section, others", CASES)
def test_the_offline_search_names_the_other_rulesets_as_the_server(
        full_kb: KnowledgeBase, scripts: list[Path], ruleset: str, query: str, offset: int, section: str,
        others: list[str]) -> None:
    edition = dict(EDITIONS)[ruleset]
    (offline,), _ = run_queries(scripts, [{"query": query, "ruleset": ruleset, "edition": edition,
                                           "offset": offset, "section": section}])
    server = full_kb.search(query, ruleset, edition, offset=offset, section=section or None)
    assert [r for r, _e, _n in _named(offline)] == others
    assert _named(offline) == _named(server)
