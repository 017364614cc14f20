"""A question's concepts each counted once, and its participants weighed as such
(kb/search/understand.py: ``named_once_only``, ``participant_weight``; issue #18's near misses).

"and if he responds with a reaction, what happens?" names Reaction itself: the players' word
"responds" must not bring Reaction in a second time (a rule holding "Reaction" alone would
score it twice). "who starts with focus?" names Focus: the "who acts" shape brings in priority
only. "when my opponent plays a unit" tells who acts; "opponent" weighs ``participant_weight``
of a concept. One case per line; the offline search reads the questions as the server does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path
from kb.query import KnowledgeBase, searcher
from kb.search import EditionSearcher, Ranking, parse_query
from kb.search.understand import understand

from tests.test_search_questions import assert_offline_answers_as_the_server, searcher_with

# (question, a concept's label, its alternatives read with named_once off, and on)
ONCE = [
    ("and if he responds with a reaction, what happens?", "responds",
     ["responds", "reaction", "priority", "closed state"], ["responds", "priority", "closed state"]),
    ("who starts with focus in a showdown?", "'who acts'", ["priority", "focus"], ["priority"]),
    ("who has priority and focus?", "'who acts'", ["priority", "focus"], None),  # the shape says nothing more
    ("which player gets focus first in combat?", "'who acts'", ["priority", "focus"], ["priority"]),  # "which player" asks who
    ("can I respond when my opponent plays a unit?", "respond",
     ["respond", "reaction", "priority", "closed state"], ["respond", "reaction", "priority", "closed state"]),
    ("can I respond to the stack with a Reaction?", "stack", ["stack", "chain"], ["stack", "chain"]),
    ("can I respond to the stack on the chain?", "stack", ["stack", "chain"], ["stack"]),
]

# (question, ruleset, participant_weight, the weight of each concept named)
PARTICIPANTS = [
    ("Can I respond when my opponent plays a unit?", "riftbound", 0.5,
     {"respond": 1.0, "opponent": 0.5, "plays": 1.0, "unit": 1.0}),
    ("Can I respond when my opponent plays a unit?", "riftbound", 1.0,
     {"respond": 1.0, "opponent": 1.0, "plays": 1.0, "unit": 1.0}),
    ("my opp's unit attacks, can I play it?", "riftbound", 0.25,
     {"opp's": 0.25, "unit": 1.0, "attacks": 1.0, "play": 1.0}),
    ("do my opponents lose when the chain resolves?", "riftbound", 0.5,
     {"opponents": 0.5, "lose": 1.0, "chain (term)": 1.5, "resolves": 1.0}),
]


def _read(excerpt_kb: KnowledgeBase, question: str, ruleset: str = "riftbound", **ranking: object) -> dict:
    edition = "1.4" if ruleset == "riftbound" else "2026-01-16"
    s = searcher(excerpt_kb, ruleset, edition)
    r = Ranking(**ranking)  # type: ignore[arg-type]
    read = understand(parse_query(question), s.vocabulary, lambda w: len(s.impacts.word(w)), s._terms,
                      s._term_kind, term_weight=r.term_weight, context_weight=r.context_weight,
                      named_once=r.named_once, participant_weight=r.participant_weight)
    return {(c.label or c.atoms[0].text.strip(" ,.?!;:")): c for c in read.clauses}


@pytest.mark.parametrize("question, label, twice, once", ONCE)
def test_a_rules_word_the_question_names_is_counted_once(excerpt_kb: KnowledgeBase, question: str,
                                                         label: str, twice: list[str],
                                                         once: list[str] | None) -> None:
    off = _read(excerpt_kb, question, named_once=False)
    on = _read(excerpt_kb, question, named_once=True)
    assert [a.text for a in off[label].atoms] == twice
    if once is None:
        assert label not in on, list(on)
    else:
        assert [a.text for a in on[label].atoms] == once
    assert [k for k in on if k != label] == [k for k in off if k != label]  # the other concepts stay


@pytest.mark.parametrize("question, ruleset, weight, weights", PARTICIPANTS)
def test_a_questions_participants_weigh_their_share(excerpt_kb: KnowledgeBase, question: str, ruleset: str,
                                                   weight: float, weights: dict[str, float]) -> None:
    read = _read(excerpt_kb, question, ruleset, participant_weight=weight)
    assert {k: c.weight for k, c in read.items() if c.origin != "shape"} == pytest.approx(weights)


def test_the_reaction_follow_up_no_longer_ranks_the_keyword_alone_first(excerpt_kb: KnowledgeBase) -> None:
    question = "and if he responds with a reaction, what happens?"
    shared = searcher(excerpt_kb, "riftbound", "1.4")
    def scores(once: bool) -> dict[str, float]:
        s = EditionSearcher(excerpt_kb.edition("riftbound", "1.4"), shared.index, shared.speller.counts,
                            Ranking(named_once=once))
        return {h["number"]: h["score"] for h in s.search(parse_query(question), limit=100)["results"]}
    twice, once = scores(False), scores(True)
    # "Reaction is a Permissive keyword." holds only the one word: it loses its second count.
    keyword = next(n for n, _s in twice.items() if n.startswith("813"))
    assert once[keyword] < twice[keyword]


# (ruleset, edition, question) asked of the offline search and of the server with both on
OFFLINE = [
    ("riftbound", "1.4", "Can I respond when my opponent plays a unit?"),
    ("riftbound", "1.4", '[follow-up to: "how does the showdown work?"] and who starts with focus?'),
    ("riftbound", "1.4", "and if he responds with a reaction, what happens?"),
    ("mtg", "2026-01-16", "can my opponent respond when I play a land?"),
]


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_them_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    assert_offline_answers_as_the_server(excerpt_kb, tmp_path, OFFLINE,
                                         searcher_with(excerpt_kb, Ranking(named_once=True, participant_weight=0.5)))
