"""Reading a judge's question (kb/search/understand.py): a bracketed earlier question is
context, not the question; a "can I … when" question and the rules that say when a player
may act. One case per line."""

from __future__ import annotations

from pathlib import Path
from collections.abc import Callable
from typing import Any

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.query import KnowledgeBase, searcher
from kb.search import EditionSearcher, Ranking, parse_query
from kb.search.schema import model_permissions

FOLLOW_UP = '[follow-up to: "how does the showdown work?"] and who starts with focus?'

# (question, a concept it is read with, or None, a concept it must not have)
READ = [
    (FOLLOW_UP, "focus (term)", "[follow-up"),
    (FOLLOW_UP, "showdown (term)", "follow"),
    ('[follow-up to: "can I play a unit in a showdown?"] and a spell?', "spell", "up"),
    ("[context] who starts with focus?", "focus (term)", "[context]"),
]


@pytest.mark.parametrize("question, present, absent", READ)
def test_a_bracketed_label_is_left_out(excerpt_kb: KnowledgeBase, question: str, present: str,
                                       absent: str) -> None:
    concepts = excerpt_kb.search(question)["understood"]["concepts"]
    assert present in concepts and absent not in concepts, concepts


def test_the_earlier_question_weighs_less_than_the_question(excerpt_kb: KnowledgeBase) -> None:
    parsed = parse_query(FOLLOW_UP)
    def weights(context_weight: float) -> dict[str, float]:
        from kb.search.understand import understand
        s = searcher_with(excerpt_kb, Ranking(context_weight=context_weight))("riftbound", "1.4")
        read = understand(parsed, s.vocabulary, lambda w: len(s.impacts.word(w)), s._terms, s._term_kind,
                          term_weight=1.5, quote_weight=0.5, context_weight=context_weight)
        return {c.label or c.atoms[0].text: c.weight for c in read.clauses}
    low, high = weights(0.25), weights(1.0)
    assert low["showdown (term)"] == pytest.approx(1.5 * 0.25)
    assert high["showdown (term)"] == pytest.approx(1.5)
    assert low["focus (term)"] == high["focus (term)"] == pytest.approx(1.5)  # the question itself


# (question, read as a long one: ten concepts or more)
LENGTHS = [
    ("who starts with focus in a showdown?", False),
    ("can I play a reaction when the chain is closed?", False),
    ("If I kill the unit after its triggered ability has gone onto the chain, does the ability still "
     "resolve and does its controller keep priority during the showdown?", True),
]


@pytest.mark.parametrize("question, long", LENGTHS)
def test_a_long_questions_coordination_is_softer(excerpt_kb: KnowledgeBase, question: str, long: bool) -> None:
    def scores(coord_long: float) -> list[tuple[str, float]]:
        s = searcher_with(excerpt_kb, Ranking(coord_long=coord_long, long_question=10))("riftbound", "1.4")
        return [(h["number"], h["score"]) for h in s.search(parse_query(question), limit=10)["results"]]
    soft, strict = scores(0.5), scores(1.0)
    assert (soft != strict) == long
    if long:  # a share below 1 raised to 0.5 is larger: no rule loses score
        assert min(s for _, s in soft) >= min(s for _, s in strict)


# (ruleset, edition, question, a rule among its first ten, the rule that refers to it)
REFERRED = [
    ("riftbound", "1.4", "how does deflect change the cost of a spell?", "809", "356.2.a.2"),
    ("riftbound", "1.4", "what happens when a unit with deathknell dies?", "808", "323.4"),
    ("mtg", "2026-01-16", "what happens when a creature with deathtouch deals damage?", "702.2", "120.4a"),
]


@pytest.mark.parametrize("ruleset, edition, question, rule, by", REFERRED)
def test_a_rule_referred_to_by_a_hit_gains_and_says_so(full_kb: KnowledgeBase, ruleset: str, edition: str,
                                                      question: str, rule: str, by: str) -> None:
    rg = full_kb.edition(ruleset, edition)
    assert rule in rg.references(by)
    def hit(referrers: float) -> dict[str, object] | None:
        # the session's index of the edition (made once), searched with each ranking
        s = searcher_with(full_kb, Ranking(from_referrers=referrers))(ruleset, edition)
        results = s.search(parse_query(question), limit=10)["results"]
        return next((h for h in results if h["number"] == rule), None)
    on, off = hit(0.1), hit(0.0)
    assert on is not None and f"referred to by {by}" in on["matched"]
    assert off is None or (off["score"] < on["score"] and not any("referred" in m for m in off["matched"]))


# (ruleset, edition, question, a rule a legality check of the timing model cites, whether
# the question's shape asks for a permission)
PERMISSIONS = [
    ("riftbound", "1.4", "can I play an action spell while the chain is closed?", "309.1.a", True),
    ("riftbound", "1.4", "may a player play a unit during a showdown?", "343.1.a", True),
    ("riftbound", "1.4", "what happens to an action spell while the chain is closed?", "309.1.a", False),
    ("mtg", "2026-01-16", "can I cast a sorcery while a spell is on the stack?", "307.1", True),
    ("mtg", "2026-01-16", "what does a sorcery do while a spell is on the stack?", "307.1", False),
]


@pytest.mark.parametrize("ruleset, edition, question, rule, asks", PERMISSIONS)
def test_a_can_i_question_ranks_up_the_rules_that_say_when_a_player_may_act(
        full_kb: KnowledgeBase, ruleset: str, edition: str, question: str, rule: str, asks: bool) -> None:
    rg = full_kb.edition(ruleset, edition)
    assert rule in model_permissions(rg)
    shared = searcher(full_kb, ruleset, edition)  # the session's index of the edition, made once
    def hit(weight: float) -> dict[str, object]:
        s = EditionSearcher(rg, shared.index, shared.speller.counts, Ranking(permission_weight=weight))
        results = s.search(parse_query(question), limit=100)["results"]
        return next(h for h in results if h["number"] == rule)
    on, off = hit(0.5), hit(0.0)
    said = [m for m in on["matched"] if "says when a player may act" in m]
    if asks:
        assert on["score"] > off["score"] and said
    else:
        assert on["score"] == off["score"] and not said
    assert not any("says when a player may act" in m for m in off["matched"])


def assert_same_answers(offline: dict[str, Any], server: dict[str, Any], query: str) -> None:
    """The browser's answer is the server's: the same rules in the same order, explained the
    same, and the same scores but for the last digit shown (the browser's words' scores are
    stored to 6 digits, and a product of several bonuses may round the other way)."""
    assert [(h["number"], h["matched"]) for h in offline["results"]] == \
        [(h["number"], h["matched"]) for h in server["results"]], query
    assert [h["score"] for h in offline["results"]] == \
        pytest.approx([h["score"] for h in server["results"]], abs=2e-4), query


def assert_offline_answers_as_the_server(kb: KnowledgeBase, tmp_path: Path,
                                         questions: list[tuple[str, str, str]],
                                         searcher_of: Callable[[str, str], EditionSearcher]) -> list[dict[str, Any]]:
    """Each ``(ruleset, edition, question)`` asked of the offline search script (an edition's
    index built with ``searcher_of(ruleset, edition)``'s ranking, run in node) and of that
    searcher: the same answers (:func:`assert_same_answers`). Returns the offline answers,
    in the order of the questions asked edition by edition."""
    scripts, asked, servers = [], [], []
    for ruleset, edition in sorted({(r, e) for r, e, _q in questions}):
        on = searcher_of(ruleset, edition)
        script = tmp_path / f"{ruleset}-{edition}.js"
        script.write_text(index_script(build_search_index(kb.edition(ruleset, edition), on, lambda n: n)),
                          encoding="utf-8")
        scripts.append(script)
        for r, e, question in questions:
            if (r, e) == (ruleset, edition):
                asked.append({"query": question, "ruleset": r, "edition": e})
                servers.append(on.search(parse_query(question), limit=10))
    answers, _ = run_queries(scripts, asked)
    for ask, offline, server in zip(asked, answers, servers):
        assert_same_answers(offline, server, ask["query"])
    return answers


def searcher_with(kb: KnowledgeBase, ranking: Ranking) -> Callable[[str, str], EditionSearcher]:
    """Each edition's searcher over the build's index (made once) with ``ranking``."""
    def make(ruleset: str, edition: str) -> EditionSearcher:
        shared = searcher(kb, ruleset, edition)
        return EditionSearcher(kb.edition(ruleset, edition), shared.index, shared.speller.counts, ranking)
    return make


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_ranks_permissions_as_the_server(full_kb: KnowledgeBase, tmp_path: Path) -> None:
    answers = assert_offline_answers_as_the_server(
        full_kb, tmp_path, [(rs, e, q) for rs, e, q, _r, _a in PERMISSIONS if rs == "riftbound"],
        searcher_with(full_kb, Ranking(permission_weight=0.5)))
    # the first case does go through the prior in both
    assert any("says when a player may act" in m for h in answers[0]["results"] for m in h["matched"])


# (bench.search --ranking changes, the field they set and its value, or the refusal's words)
RANKING_CHANGES = [
    (["permission_weight=0.5"], "permission_weight", 0.5),
    (["long_question=3", "coord_long=0.5"], "long_question", 3),
    (["pin_terms=false"], "pin_terms", False),
    (["nothing=1"], None, "expected FIELD=VALUE"),
    (["permission_weight"], None, "expected FIELD=VALUE"),
    (["permission_weight=much"], None, "permission_weight takes a float"),
    (["learned=maybe"], None, "learned takes a bool"),
    (["statement_weight=1.5"], "statement_weight", 1.5),
    (["boosts.answers=2"], "boosts", {**Ranking().boosts, "answers": 2.0}),
    (["boosts.answers=lots"], None, "boosts.answers takes a float"),
    (["boosts.nowhere=2"], None, "boosts.F for a field F of title"),
]


@pytest.mark.parametrize("changes, field, value", RANKING_CHANGES)
def test_the_bench_measures_a_ranking_with_one_setting_changed(changes: list[str], field: str | None,
                                                             value: object) -> None:
    from bench.search import ranking_with
    if field is None:
        with pytest.raises(ValueError, match=str(value)):
            ranking_with(changes)
    else:
        assert getattr(ranking_with(changes), field) == value


# (ruleset, edition, question, a rule one of whose statements (players' words, the timing
# model's summaries) holds several of its concepts together, whether it comes first with the
# statements weighed). On the embedded excerpts: always run.
STATEMENTS = [
    ("riftbound", "1.4", "who gets focus when a showdown begins?", "345", True),
    ("riftbound", "1.4", "Can I respond when my opponent plays a unit?", "337.4", False),
    ("riftbound", "1.4", "does a unit resolve immediately when it is played?", "337.2", True),
    ("mtg", "2026-01-16", "who receives priority after a spell resolves?", "117.3b", True),
    ("mtg", "2026-01-16", "does mana empty at the end of a step?", "500.5", True),
]


def _statement_searcher(excerpt_kb: KnowledgeBase, ruleset: str, edition: str, weight: float) -> EditionSearcher:
    return searcher_with(excerpt_kb, Ranking(statement_weight=weight))(ruleset, edition)


@pytest.mark.parametrize("ruleset, edition, question, rule, first", STATEMENTS)
def test_a_rule_whose_statement_holds_the_questions_concepts_together_gains(
        excerpt_kb: KnowledgeBase, ruleset: str, edition: str, question: str, rule: str, first: bool) -> None:
    def hits(weight: float) -> dict[str, float]:
        s = _statement_searcher(excerpt_kb, ruleset, edition, weight)
        return {h["number"]: h["score"] for h in s.search(parse_query(question), limit=50)["results"]}
    on, off = hits(1.0), hits(0.0)
    assert on[rule] > off[rule]
    assert (next(iter(on)) == rule) == first
    said = {w: next(h["matched"] for h in _statement_searcher(excerpt_kb, ruleset, edition, w)
                    .search(parse_query(question), limit=50)["results"] if h["number"] == rule)
            for w in (0.0, 1.0)}
    assert any(m.startswith("one statement holds: ") for m in said[1.0]), said[1.0]
    assert not any(m.startswith("one statement holds") for m in said[0.0])


@pytest.mark.parametrize("query", ["showdown AND focus", "showdown OR priority", "focus -chain"])
def test_the_statements_weigh_only_in_a_question(excerpt_kb: KnowledgeBase, query: str) -> None:
    scores = [[(h["number"], h["score"]) for h in _statement_searcher(excerpt_kb, "riftbound", "1.4", w)
               .search(parse_query(query), limit=10)["results"]] for w in (0.0, 1.0)]
    assert scores[0] == scores[1]


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_weighs_the_statements_as_the_server(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    assert_offline_answers_as_the_server(
        excerpt_kb, tmp_path, [(r, e, question) for r, e, question, _rule, _first in STATEMENTS],
        lambda ruleset, edition: _statement_searcher(excerpt_kb, ruleset, edition, 1.0))
