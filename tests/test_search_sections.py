"""A section ranked by what its rules hold between them (``Ranking.from_section``): a
question's concepts split over a section's rules ("destroy" in one keyword action,
"sacrifice" in another) rank the section, and the hit says so; the offline search ranks and
says the same. One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, searcher
from kb.search import EditionSearcher, Ranking, parse_query
from kb.search.searcher import DEFAULT_RANKING, SECTION_REASON

ON = Ranking(from_section=0.3)  # the weight cross-validation chose (bench/RESULTS.md)

# (ruleset, edition, question, the section, the concepts its rules hold between them)
SECTIONS = [
    ("mtg", "2026-01-16", "what's the difference between destroy and sacrifice?", "701",
     ["destroy (keyword)", "sacrifice (keyword)"]),
    ("mtg", "2026-01-16", "In a Two-Headed Giant game, what is each team's starting life total?", "704.5",
     ["Two-Headed", "Giant", "starting", "life"]),
]


def _gathered(hit: dict) -> list[str] | None:
    said = [m.removeprefix(SECTION_REASON) for m in hit["matched"] if m.startswith(SECTION_REASON)]
    assert len(said) <= 1, hit["matched"]
    return said[0].split(", ") if said else None


@pytest.mark.parametrize("ruleset,edition,question,section,held", SECTIONS, ids=[c[2] for c in SECTIONS])
def test_a_section_whose_rules_hold_the_concepts_between_them_ranks_and_says_so(
        excerpt_kb: KnowledgeBase, ruleset: str, edition: str, question: str, section: str, held: list[str]) -> None:
    on = EditionSearcher(*_parts(excerpt_kb, ruleset, edition), ON)
    data = on.search(parse_query(question), limit=10)
    hit = next((r for r in data["results"] if r["number"] == section), None)
    assert hit is not None, [r["number"] for r in data["results"]]
    assert set(held) <= set(_gathered(hit) or []), hit["matched"]
    off = EditionSearcher(*_parts(excerpt_kb, ruleset, edition), Ranking(from_section=0.0))
    before = off.search(parse_query(question), limit=10)
    assert all(_gathered(r) is None for r in before["results"])
    rank = [r["number"] for r in data["results"]].index(section)
    assert section not in [r["number"] for r in before["results"][:rank + 1]]  # it rose


def _parts(kb: KnowledgeBase, ruleset: str, edition: str) -> tuple:
    shared = searcher(kb, ruleset, edition)
    return kb.edition(ruleset, edition), shared.index, shared.speller.counts


# (query, why no section evidence): only a judge's question, never the query language
NOT_QUESTIONS = [
    ("destroy AND sacrifice", "a required word"),
    ("destroy sacrifice -token", "an excluded word"),
]


@pytest.mark.parametrize("query,why", NOT_QUESTIONS, ids=[c[1] for c in NOT_QUESTIONS])
def test_the_query_language_gets_no_section_evidence(excerpt_kb: KnowledgeBase, query: str, why: str) -> None:
    on = EditionSearcher(*_parts(excerpt_kb, "mtg", "2026-01-16"), ON)
    data = on.search(parse_query(query), limit=10)
    assert all(_gathered(r) is None for r in data["results"]), why


# (the concepts' scores by rule, what the section scores, which concepts it holds): a section
# of 701 (the parent) and its rules 701.8 and 701.21, two concepts weighing 1 each.
EVIDENCE = [
    ([{"701.8": 2.0}, {"701.21": 3.0}], 5.0, [0, 1]),                       # split: the section holds both
    ([{"701.8": 2.0, "701.21": 1.0}, {"701.8": 3.0}], None, None),          # one rule holds both alone
    ([{"701.8": 2.0}, {"701": 1.0, "701.21": 4.0}], 6.0, [0, 1]),            # best score of each concept
    ([{"701.8": 2.0}, {"999.9": 3.0}], None, None),                          # one member only
]


@pytest.mark.parametrize("parts,score,held", EVIDENCE, ids=[str(i) for i in range(len(EVIDENCE))])
def test_the_section_evidence_is_each_concepts_best_score_in_it_times_its_coverage(
        excerpt_kb: KnowledgeBase, parts: list[dict[str, float]], score: float | None, held: list[int] | None) -> None:
    s = EditionSearcher(*_parts(excerpt_kb, "mtg", "2026-01-16"), Ranking(from_section=1.0))
    doc = s.impacts.docnum
    assert {"701", "701.8", "701.21"} <= set(doc)
    should = [{doc[n]: v for n, v in p.items() if n in doc} for p in parts]
    holds: dict[int, float] = {}  # the weight of the concepts each rule holds (each weighs 1)
    for p in should:
        for d in p:
            holds[d] = holds.get(d, 0.0) + 1.0
    out = s._section_evidence(should, [1.0] * len(should), holds, 1.0)
    if score is None:
        assert doc["701"] not in out
    else:
        assert out[doc["701"]] == (pytest.approx(score), held)


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_ranks_sections_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    shared = EditionSearcher(*_parts(excerpt_kb, "mtg", "2026-01-16"), ON)
    script = tmp_path / "mtg.js"
    script.write_text(index_script(build_search_index(excerpt_kb.edition("mtg", "2026-01-16"), shared,
                                                      lambda n: n)), encoding="utf-8")
    questions = [q for _r, _e, q, _s, _h in SECTIONS]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "mtg", "edition": "2026-01-16"} for q in questions])
    for (_r, _e, question, section, held), offline in zip(SECTIONS, answers):
        server = shared.search(parse_query(question), limit=10)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], question
        assert [h["score"] for h in offline["results"]] == \
            pytest.approx([h["score"] for h in server["results"]], abs=2e-4), question
        hit = next(h for h in offline["results"] if h["number"] == section)
        assert set(held) <= set(_gathered(hit) or []), hit["matched"]


def test_the_product_ranks_sections_at_the_weight_cross_validation_chose(excerpt_kb: KnowledgeBase) -> None:
    """The facade (CLI, API, site) searches with the default ranking: the chosen weight."""
    assert DEFAULT_RANKING.from_section == ON.from_section
    ruleset, edition, question, section, held = SECTIONS[0]
    hit = next(r for r in excerpt_kb.search(question, ruleset, edition, limit=10)["results"] if r["number"] == section)
    assert set(held) <= set(_gathered(hit) or []), hit["matched"]
