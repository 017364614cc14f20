"""The timing model's citations (written against Riftbound 1.4) carried to other editions
through the one mapping between editions, with the transitions that have no counterpart."""

from __future__ import annotations

import pytest

from conftest import REPO, corpus_graph, requires_shared
from kb.graph import build_edition
from kb.model import ReadResult
from kb.query import KnowledgeBase
from kb.read import read_document

EXCERPT = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"


def excerpt_edition(name: str, date: str, drop: str | None = None):
    """The excerpt as an edition; ``drop`` removes one rule (and nothing else)."""
    result, _ = read_document(EXCERPT)
    rules = [r for r in result.rules if ".".join(r.number) != drop]
    return build_edition(ReadResult(rules, result.terms, result.title, result.date, result.number_style),
                         ruleset="riftbound", edition=name, date=date)


@pytest.fixture(scope="module")
def two_editions() -> KnowledgeBase:
    return KnowledgeBase.from_graphs([excerpt_edition("1.3", "2026-03-30", drop="337.1.b"),
                                      excerpt_edition("1.4", "2026-07-16")])


def test_citations_are_carried_and_a_rule_with_no_counterpart_is_reported(two_editions: KnowledgeBase) -> None:
    report = two_editions.timing_check("riftbound", "1.3")
    assert report["carried_from"] == "1.4" and report["ok"]
    in_source = two_editions.edition("riftbound", "1.4").edition.rules
    # The excerpt lacks some cited rules on both sides; of those it holds, only 337.1.b is gone.
    missing = {g["rule"] for g in report["no_counterpart"] if g["rule"] in in_source}
    assert missing == {"337.1.b"}
    assert {"name", "rule", "status"} <= set(report["no_counterpart"][0])


def test_rule_pages_of_the_older_edition_list_the_transitions_citing_them(two_editions: KnowledgeBase) -> None:
    older = {t["name"] for t in two_editions.rule("riftbound", "337.4", "1.3")["transitions"]}
    newer = {t["name"] for t in two_editions.rule("riftbound", "337.4", "1.4")["transitions"]}
    assert older == newer and older


@requires_shared
def test_real_1_3_carries_the_immediate_resolution_to_337_1_c() -> None:
    kb = KnowledgeBase.from_graphs([corpus_graph("riftbound", "1.3"), corpus_graph("riftbound", "1.4")])
    names = {t["name"] for t in kb.rule("riftbound", "337.1.c", "1.3")["transitions"]}
    assert "resolves-immediately" in names
    report = kb.timing_check("riftbound", "1.3")
    assert report["ok"] and report["carried_from"] == "1.4"
    assert "459" in [r["range"] for r in report["coverage"]["ranges"]]  # 1.4's 464 was 459
    assert all(g["status"] in ("added", "unknown") for g in report["no_counterpart"])


def test_an_edition_without_the_cited_one_is_refused_clearly() -> None:
    kb = KnowledgeBase.from_graphs([excerpt_edition("1.3", "2026-03-30")])
    from kb.query import QueryError
    with pytest.raises(QueryError) as err:
        kb.timing_check("riftbound", "1.3")
    assert err.value.status == 404 and "1.4" in err.value.message
