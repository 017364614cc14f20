"""Players' abbreviations and number words meet the rules' whole phrase
(kb/search/vocabulary/<ruleset>.yaml): "ETB" is "enters the battlefield" (603.6a), not the
word "battlefield" alone, which every zone-change rule holds and which put 603.10 (leaves the
battlefield) first; "EOT" is the end step and cleanup; "twice", "two times" and "more than
once" in a turn are answered by the rules' "once" (Riftbound 470 "once per Battlefield per turn";
acceptance finding F-G). One case a line."""

from __future__ import annotations

import pytest

from conftest import corpus_graph
from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.understand import vocabulary

# (ruleset, a players' word, the rules' words it must bring in, words it must not bring alone)
ENTRIES = [
    ("mtg", "etb", {"enters the battlefield", "enters"}, {"battlefield"}),
    ("mtg", "ltb", {"leaves the battlefield"}, {"battlefield"}),
    ("mtg", "eot", {"end step", "cleanup step"}, {"end", "turn"}),
    ("mtg", "twice in one turn", {"once", "once each turn"}, set()),
    ("mtg", "more than once", {"once"}, set()),
    ("riftbound", "etb", {"enters the board"}, {"board"}),
    ("riftbound", "eot", {"ending phase", "cleanup"}, {"end", "turn"}),
    ("riftbound", "twice in one turn", {"once", "once per"}, set()),
    ("riftbound", "two times in a turn", {"once"}, set()),
    ("mtg", "zero", {"0"}, set()),
    ("riftbound", "zero", {"0"}, set()),
    ("riftbound", "library", {"main deck"}, {"deck"}),
]


@pytest.mark.parametrize("ruleset, players, wanted, never", ENTRIES, ids=[f"{e[0]}-{e[1]}" for e in ENTRIES])
def test_a_players_word_brings_the_rules_phrase(ruleset: str, players: str, wanted: set[str],
                                               never: set[str]) -> None:
    from kb.search.schema import analyse
    entries = [e for e in vocabulary(ruleset).entries if e.players == tuple(analyse(players))]
    assert entries, f"{players!r} is not in {ruleset}'s vocabulary"
    rules = {a.text for a in entries[0].rules}
    assert wanted <= rules and not never & rules, rules


# (question, rules one of which must be in the top 3, a rule that must not be first) on the
# whole edition (the excerpt has no 603.6a)
MTG = [
    ("ETB trigger", ("603.6a",), "603.10"),
    ("ETB trigger, does it use the stack", ("603.6a", "603.3"), "603.10"),
]


@pytest.fixture(scope="module")
def mtg_2026():
    return open_searcher(corpus_graph("mtg", "2026-01-16"), None)


@pytest.mark.parametrize("question, wanted, not_first", MTG, ids=[m[0] for m in MTG])
def test_etb_reads_as_entering_in_the_whole_edition(mtg_2026, question: str, wanted: tuple[str, ...],
                                                    not_first: str) -> None:
    top = [h["number"] for h in mtg_2026.search(parse_query(question), limit=10)["results"]]
    assert set(wanted) & set(top[:3]) and not top[0].startswith(not_first), top


# (question, a rule that must be in the top 3, the reason it gives) in the embedded excerpt
RIFTBOUND = [
    ("can I score the same battlefield twice in one turn", "470", "twice in one turn → once, once per"),
    ("can I score a battlefield two times in a turn", "470", "two times in a turn → once, once per"),
]


@pytest.mark.parametrize("question, wanted, reason", RIFTBOUND, ids=[r[0] for r in RIFTBOUND])
def test_a_number_word_meets_the_rules_once(excerpt_kb: KnowledgeBase, question: str, wanted: str,
                                            reason: str) -> None:
    searcher = open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)
    hits = searcher.search(parse_query(question), limit=10)["results"][:3]
    hit = next((h for h in hits if h["number"] == wanted), None)
    assert hit is not None, [(h["number"], h["matched"]) for h in hits]
    assert reason in hit["matched"], hit["matched"]
