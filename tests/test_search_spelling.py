"""A misspelt word is explained in the word searched for, with the word typed (issue #18,
finding 4): "matched: priority (read from 'priorty')", not "matched: priorty", on the server
and in the offline search alike; an ordinary English word the rules never use is left as
typed ("how does the showdown work?" is not about a "word"). One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.graph import build_edition
from kb.read import read_text
from kb.search import open_searcher, parse_query
from kb.search.spelling import Speller, abbreviations, english_words

RULES = """# Rules
## 310. Priority and Focus
**310.1.** Priority is the right to take Discretionary Actions.
**310.2.** A player with Priority may pass priority to the next player.
**310.3.** During a Showdown, the player with Focus acts first.
**310.4.** Priority goes round the table in turn order, and a player's word is final.
## 320. Showdowns
**320.1.** A showdown opens when a unit moves to a contested battlefield.
**320.2.** When every player passes in a row, the showdown ends.
**320.3.** Units, gear, tokens etc. stay where they are.
"""

# (query, the explanation of its first hit's corrected word)
CORRECTED = [
    ("priorty", "priority (read from 'priorty')"),
    ("Priorty passes", "Priority (read from 'Priorty')"),
    ("who acts first in a showdwn", "showdown (read from 'showdwn')"),
    ('"pass priorty"', "pass priority (read from 'pass priorty')"),
    ("priorty OR focus", "priority focus (read from 'priorty focus')"),
    # an English form of a rule's word that the stemmer cannot see (Speller.lemma)
    ("who took Discretionary Actions", "take (read from 'took')"),
]


# (query, an English word in it that no rule uses, one edit from a word the rules use)
LEFT_ALONE = [
    ("how does the showdown work?", "work"),
    ("does priority go around the table", "around"),
    ("who came first in a showdown", "came"),
    ("the player with focus went first", "went"),
]

# (word typed, words of the edition, what the speller reads it as: None = left as typed)
SPELLER = [
    ("priorty", "priority focus", "priority"),
    ("showdwn", "showdown shadow", "showdown"),
    ("work", "word priority", None),
    ("around", "round priority", None),
    ("declines", "declares", None),
    ("recieve", "receive", "receive"),
    ("oponent", "opponent", "opponent"),
    ("batlefield", "battlefield", "battlefield"),
    # an English form of a word the rules use, that the stemmer cannot see: that word
    ("drew", "draw draws", "draw"),
    ("chose", "choose", "choose"),
    ("paid", "pay cost", "pay"),
    ("forgot", "forget", "forget"),
    ("drew", "focus", None),
    ("better", "good well", None),  # a comparison is no form to read as its word
]


# (query, did the search say "Did you mean": an all-capitals word of two to five letters is an
# abbreviation, never a slip of another word; a longer one, or one in lower case, may be)
ABBREVIATED = [
    ("ETB", False),          # not "ETC" (320.3 says "etc.")
    ("SBA priority", False),
    ("ETBs showdown", False),
    ("PRIORTY", True),       # seven letters: a word typed in capitals, read as "PRIORITY"
    ("priorty", True),
]

# (text, the words in it that are abbreviations)
ABBREVIATIONS = [
    ("ETB", {"etb"}),
    ("ETBs and SBA.", {"etbs", "sba"}),
    ("Priority, PRIORITY, A, I", set()),
    ("etb", set()),
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


@pytest.mark.parametrize("query, word", LEFT_ALONE)
def test_an_ordinary_english_word_is_never_corrected(rules_searcher, query: str, word: str) -> None:
    assert word in english_words()
    assert rules_searcher.speller.suggest(word) is None
    data = rules_searcher.search(parse_query(query), limit=10)
    assert data["did_you_mean"] is None
    assert not [m for h in data["results"] for m in h["matched"] if "read from" in m]


@pytest.mark.parametrize("query, corrected", ABBREVIATED)
def test_an_abbreviation_in_capitals_is_never_corrected(rules_searcher, query: str, corrected: bool) -> None:
    data = rules_searcher.search(parse_query(query), limit=10)
    assert (data["did_you_mean"] is not None) == corrected, data["did_you_mean"]
    if not corrected:
        assert not [m for h in data["results"] for m in h["matched"] if "read from" in m]


@pytest.mark.parametrize("text, found", ABBREVIATIONS)
def test_the_words_typed_as_abbreviations(text: str, found: set[str]) -> None:
    assert abbreviations(text) == found


@pytest.mark.parametrize("typed, words, read_as", SPELLER)
def test_the_speller_reads_a_typo_and_leaves_english_alone(typed: str, words: str, read_as: str | None) -> None:
    assert Speller({w: 1 for w in words.split()}).suggest(typed) == read_as


# Words of a small alphabet, so that many are a few edits apart.
_WORDS = st.text(alphabet="abcde", min_size=3, max_size=9)


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=15), st.lists(_WORDS, min_size=1, max_size=30))
def test_the_protected_words_hold_every_english_word_the_speller_would_correct(
        edition: list[str], english: list[str]) -> None:
    """What the offline search is given (Speller.protected) is every English word the
    speller would otherwise correct: no English word is corrected offline either."""
    vocabulary = {w: 1 for w in edition}
    protected = set(Speller(vocabulary, frozenset(english)).protected())
    unprotected = Speller(vocabulary, frozenset())
    assert {w for w in english if unprotected.suggest(w)} <= protected


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_explains_a_correction_as_the_server(rules_searcher, tmp_path: Path) -> None:
    script = tmp_path / "9.js"
    script.write_text(index_script(build_search_index(rules_searcher.rg, rules_searcher, lambda n: n)),
                      encoding="utf-8")
    queries = [q for q, _e in CORRECTED + LEFT_ALONE + ABBREVIATED]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "9"} for q in queries])
    for query, offline in zip(queries, answers):
        server = rules_searcher.search(parse_query(query), limit=10)
        # the scores but for the last digit shown (the browser's scores are stored to 6 digits)
        assert [(h["number"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["matched"]) for h in server["results"]], query
        assert [h["score"] for h in offline["results"]] == \
            pytest.approx([h["score"] for h in server["results"]], abs=2e-4), query
        assert offline["did_you_mean"] == server["did_you_mean"], query
