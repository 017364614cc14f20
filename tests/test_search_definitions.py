"""The definition of a keyword a question names (``Ranking.definition_weight``): the rules
already matching a question gain on the words of the keyword's definition ("Destroy: to move
a permanent from the battlefield to its owner's graveyard"), so a rule about what the keyword
does ranks where the question does not say its words, and the hit says which words; the
offline search ranks and says the same. One case per line."""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, searcher
from kb.search import EditionSearcher, Ranking, parse_query
from kb.search.query import Atom, Clause, ParsedQuery
from kb.search.schema import analyse
from kb.search.searcher import DEFAULT_RANKING, DEFINITION_REASON, DEFINITION_WORDS_SHOWN

# The weight cross-validation chose (bench/RESULTS.md), the definitions alone: without the
# situations ("the blocker dies" is "a blocker gone before damage", whose rules 509.1h and 506.4
# take two of the first 6 places, 702.19d among them either way).
ON = Ranking(definition_weight=0.5, situation_weight=0.0, defining_weight=0.0)
OFF = Ranking(definition_weight=0.0, situation_weight=0.0, defining_weight=0.0)
EDITION = ("mtg", "2026-01-16")

# (question, a rule that rises with the definition, into the first N, the keyword said, a word
# of its definition said), the definitions' words alone: without the prior a question asking
# what a keyword means gives its defining rules (ON and OFF leave it out), which brings 701.8a
# into the first 3 by itself (tests/test_search_definition_questions.py). Here its N is 8: the
# excerpt's three rules of a creature destroyed (702.2b deathtouch, 702.12b indestructible,
# 704.5h), which the timing model's summaries also state with "destroyed" and "creature", rank
# above it on the words alone.
RISES = [
    ("what does it mean to destroy or sacrifice a creature?", "701.8a", 8, "destroy (keyword)", "graveyard"),
    ("does trample damage go through to the player when the blocker dies?", "510.1", 6, "trample (keyword)",
     "assigns"),
]


def _parts(kb: KnowledgeBase) -> tuple:
    shared = searcher(kb, *EDITION)
    return kb.edition(*EDITION), shared.index, shared.speller.counts


def _defined(hit: dict) -> list[str]:
    said = [m.removeprefix(DEFINITION_REASON) for m in hit["matched"] if m.startswith(DEFINITION_REASON)]
    assert len(said) <= 1, hit["matched"]
    return said[0].split("; ") if said else []


@pytest.mark.parametrize("question,rule,within,keyword,word", RISES, ids=[c[0] for c in RISES])
def test_a_rule_holding_a_named_keywords_definition_rises_and_says_so(
        excerpt_kb: KnowledgeBase, question: str, rule: str, within: int, keyword: str, word: str) -> None:
    on = EditionSearcher(*_parts(excerpt_kb), ON).search(parse_query(question), limit=20)["results"]
    off = EditionSearcher(*_parts(excerpt_kb), OFF).search(parse_query(question), limit=20)["results"]
    # It rises: among the first ``within`` with the definitions, and higher than without them (a
    # rule statement elsewhere in the index moves the neighbours' scores a little, not this).
    place = lambda hits: next((i for i, h in enumerate(hits) if h["number"] == rule), len(hits))  # noqa: E731
    assert place(on) < within and place(on) < place(off), ([h["number"] for h in on[:8]], [h["number"] for h in off[:8]])
    hit = on[place(on)]
    said = next((s for s in _defined(hit) if s.startswith(keyword + ": ")), None)
    assert said is not None, hit["matched"]
    words = said.removeprefix(keyword + ": ").split(", ")
    assert word in words and len(words) <= DEFINITION_WORDS_SHOWN
    assert all(not _defined(h) for h in off)


# (query, why no definition's words): only a judge's question, never the query language
NOT_QUESTIONS = [
    ("trample AND damage", "a required word"),
    ("trample damage -blocker", "an excluded word"),
    ("trample", "one word, read as typed"),
]


@pytest.mark.parametrize("query,why", NOT_QUESTIONS, ids=[c[1] for c in NOT_QUESTIONS])
def test_the_query_language_gets_no_definition_words(excerpt_kb: KnowledgeBase, query: str, why: str) -> None:
    data = EditionSearcher(*_parts(excerpt_kb), ON).search(parse_query(query), limit=10)
    assert all(not _defined(h) for h in data["results"]), why


def test_a_keywords_definition_words_leave_out_its_own_words_and_question_words(
        excerpt_kb: KnowledgeBase) -> None:
    on = EditionSearcher(*_parts(excerpt_kb), ON)
    terms = excerpt_kb.edition(*EDITION).edition.terms
    definitions = on.keyword_definitions()
    assert definitions and all(terms[on._terms[k]].kind == "keyword" for k in definitions)  # no glossary entry
    assert any(t.kind != "keyword" and t.definition for t in terms.values())
    stems = [s for s, _w in definitions["destroy"]]
    assert stems == sorted(stems) and len(set(stems)) == len(stems)
    assert "destroy" not in stems and {"graveyard", "owner"} <= set(stems)
    common = {s for w in on.vocabulary.question_words for s in analyse(w)}
    assert not common & set(stems)


# (the definition words' scores in a rule, the keyword's weight, the gain): the mean of the
# rule's scores over the words it brings in, times definition_weight (0.5) and the weight.
GAINS = [
    ("trample", 1.5, True),    # a keyword: its definition's words count
    ("trample", 1.0, True),    # … weighed as the question weighs the keyword
    ("graveyard", 1.5, False),  # a word, not a keyword of the edition: nothing
]


@pytest.mark.parametrize("word,weight,gains", GAINS, ids=[f"{w}-{x}" for w, x, _g in GAINS])
def test_the_gain_is_the_mean_of_the_rules_scores_on_the_definitions_words(
        excerpt_kb: KnowledgeBase, word: str, weight: float, gains: bool) -> None:
    on = EditionSearcher(*_parts(excerpt_kb), ON)
    clause = Clause([Atom("word", word, (word,))], "should", weight=weight, origin="term", label=f"{word} (keyword)")
    parsed = ParsedQuery(word, [clause])
    said = on.keyword_definitions().get(word, [])
    docs = {d for s, _w in said for d in on.impacts.word(s)}
    total = {d: 1.0 for d in sorted(docs)[:50]}
    out = on._with_definitions(total, parsed, [])
    assert bool(said) == gains
    for d, before in total.items():
        expected = 0.5 * weight * statistics.fmean(on.impacts.word(s).get(d, 0.0) for s, _w in said)
        assert out[d] - before == pytest.approx(expected)
    assert set(out) == set(total)  # it brings in no rule


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_adds_the_definitions_words_as_the_server(excerpt_kb: KnowledgeBase,
                                                                     tmp_path: Path) -> None:
    shared = EditionSearcher(*_parts(excerpt_kb), ON)
    script = tmp_path / "mtg.js"
    script.write_text(index_script(build_search_index(excerpt_kb.edition(*EDITION), shared, lambda n: n)),
                      encoding="utf-8")
    questions = [q for q, *_ in RISES] + ["can I counter a spell that has split second?"]
    answers, _ = run_queries([script], [{"query": q, "ruleset": EDITION[0], "edition": EDITION[1]}
                                        for q in questions])
    for question, offline in zip(questions, answers):
        server = shared.search(parse_query(question), limit=10)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], question
        assert [h["score"] for h in offline["results"]] == \
            pytest.approx([h["score"] for h in server["results"]], abs=2e-4), question
    assert any(_defined(h) for a in answers for h in a["results"])


def test_the_product_adds_the_definitions_at_the_weight_cross_validation_chose(excerpt_kb: KnowledgeBase) -> None:
    """The facade (CLI, API, site) searches with the default ranking: the chosen weight."""
    assert DEFAULT_RANKING.definition_weight == ON.definition_weight
    question, rule, _within, keyword, _word = RISES[0]
    hit = next(r for r in excerpt_kb.search(question, *EDITION, limit=10)["results"] if r["number"] == rule)
    assert any(s.startswith(keyword) for s in _defined(hit)), hit["matched"]
