"""A question word that is a term of the edition is read as the term (issue #18, finding 1):
"damage equal to its might" keeps Might, Riftbound's combat statistic, which the question
words of every ruleset (kb/search/vocabulary/common.yaml) would leave out; and a term of
several words is read only as the question uses it, never ending on the verb of a yes/no
question ("does playing a unit to a battlefield count as moving it?" is no "battlefield count").
One case per line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.graph import build_edition
from kb.read import read_text
from kb.search import open_searcher, parse_query
from kb.search.understand import is_referral, question_verb, understand, vocabulary

# An edition whose terms are words the question words hold ("might", "hold", "if").
TERMS = """# Rules
## 140. Units
**140.1.** Units have properties.
**140.1.a.** Might: The combat statistic of a Unit.
**140.2.** A unit with damage equal to its Might is killed.
**140.3.** A unit is dealt damage equal to the damage of the spell.
## 150. Battlefields
**150.1.** Hold: A player maintains Control of a Battlefield during their Beginning Phase.
**150.2.** If: See Intervening Clause.
**150.3.** A player scores a battlefield they hold if they control it.
**150.4.** Battlefield Count: How many battlefields are in play.
**150.5.** Moving a unit to a battlefield is a move.
**150.6.** Showdown Open: A showdown is in progress and no chain exists.
**150.7.** Tap: An obsolete term for exhaust. Cards printed with it have received errata.
"""

# (question, a concept it is read with, a word it leaves out as a question word, or "")
READ = [
    ("damage equal to its might", "might (term)", "its"),
    ("what might a unit's damage be", "might (term)", "what"),
    ("can I hold a battlefield", "hold (term)", "can"),
    ("does a battlefield score if I hold it", "hold (term)", "if"),  # a referral is no term
    ("can I score if I control a battlefield", "battlefield", "if"),
    ("can I tap a battlefield", "tap", "can"),  # an obsolete entry is no term
]


@pytest.fixture(scope="module")
def terms_searcher():
    rg = build_edition(read_text(TERMS, "terms.md", "riftbound-md"), ruleset="riftbound", edition="9")
    return open_searcher(rg, None)


# (question, the word read as its verb, or "" when it has none a term could end on)
VERBS = [
    ("Does playing a unit directly to a battlefield count as moving the unit there?", "count"),
    ("Does a showdown open when a unit moves?", "open"),
    ("does the battlefield count change if a player leaves", "change"),
    ("Do I pay the base costs if I play it?", ""),  # a pronoun subject: its verb comes next
    ("What is the battlefield count of a game?", ""),  # no auxiliary: no yes/no question
    ("Does a unit die?", ""),  # no clause word after the verb
    ("[follow-up to: \"does a showdown open when?\"] and if it does?", ""),  # only the new question
]

# (question, a concept it is read with, a concept it is not read with)
STRADDLING = [
    ("does playing a unit to a battlefield count as moving it", "battlefield", "battlefield count (term)"),
    ("does a showdown open when a unit moves", "showdown", "showdown open (term)"),
    ("does the battlefield count change if a player leaves", "battlefield count (term)", "battlefield"),
    ("do I check the battlefield count when a game starts", "battlefield count (term)", "battlefield"),
    ("what is the battlefield count of a game", "battlefield count (term)", "battlefield"),
]


# (question, a contracted word it leaves out as a question word, or keeps)
CONTRACTED = [
    ("what's the might of a unit", "what's", False),
    ("it's a unit with damage equal to its might", "it's", False),
    ("I'm holding a battlefield", "I'm", False),
    ("they're holding a battlefield", "they're", False),
    ("the unit can't hold a battlefield", "can't", True),  # "t" is the negation
    ("a unit's might", "unit's", True),  # a possessive of a rule's word
]


@pytest.mark.parametrize("question, word, kept", CONTRACTED)
def test_a_contracted_question_word_is_a_question_word(terms_searcher, question: str, word: str,
                                                       kept: bool) -> None:
    s = terms_searcher
    read = understand(parse_query(question), s.vocabulary, lambda x: len(s.impacts.word(x)), s._terms,
                      s._term_kind)
    assert (word not in read.dropped) is kept, read.dropped


@pytest.mark.parametrize("question, verb", VERBS)
def test_the_verb_of_a_yes_no_question(question: str, verb: str) -> None:
    at = question_verb(question, question.index("]") + 1 if question.startswith("[") else 0,
                       vocabulary("riftbound"))
    assert (question[at:].split()[0] if at is not None else "") == verb


@pytest.mark.parametrize("question, read, not_read", STRADDLING)
def test_a_term_never_ends_on_the_question_s_verb(terms_searcher, question: str, read: str,
                                                  not_read: str) -> None:
    concepts = terms_searcher.search(parse_query(question), limit=10)["understood"]["concepts"]
    assert read in concepts and not_read not in concepts, concepts


def test_the_word_tested_is_a_question_word_of_every_ruleset() -> None:
    for word in ("might", "if", "its", "can"):
        assert word in vocabulary("riftbound").question_words and word in vocabulary("mtg").question_words


@pytest.mark.parametrize("question, concept, left_out", READ)
def test_a_term_is_never_left_out_as_a_question_word(terms_searcher, question: str, concept: str,
                                                     left_out: str) -> None:
    data = terms_searcher.search(parse_query(question), limit=10)
    assert concept in data["understood"]["concepts"], data["understood"]
    assert left_out not in " ".join(data["understood"]["concepts"]).split()


def test_the_rule_with_the_term_ranks_first(terms_searcher) -> None:
    data = terms_searcher.search(parse_query("damage equal to its might"), limit=10)
    assert data["results"][0]["number"] == "140.2"
    assert "might (term)" in data["results"][0]["matched"]


# (definition, whether it only points to another entry)
REFERRALS = [
    ("See Intervening “If” Clause.", True),
    ("If: See Intervening Clause.", True),
    ("See rule 702.", True),
    ("Might: The combat statistic of a Unit.", False),
    ("A player may look at it. See rule 401.", False),
    # obsolete entries, worded as the Magic 2026 glossary words them, are no terms either
    ("Some older cards used the phrase “during [phase], [action].” These abilities were called “phase abilities.”", True),
    ("An obsolete term for mana value. Cards printed with this term have received errata in the Oracle card reference.", True),
    ("An obsolete keyword ability that has been renamed. See rule 702.89, “Umbra Armor.”", True),
    ("“Threshold” used to be a keyword ability. It is now an ability word and has no rules meaning.", True),
    ("(Obsolete) Some spells and abilities previously referred to a counter being “placed” on a permanent.", True),
    ("Older versions of the rules stated that unspent mana caused a player to lose life; this was called “mana burn.” That rule no longer exists.", True),
    ("A target that no longer exists or no longer meets the specifications stated by the spell.", False),
    ("A zone. The battlefield is the zone in which permanents exist. It used to be known as the “in-play” zone.", False),
    ("Informal term for the current system of mulligan rules. See rule 103.5.", False),
]


@pytest.mark.parametrize("definition, referral", REFERRALS)
def test_an_entry_that_only_points_to_another_or_is_obsolete_is_a_referral(definition: str, referral: bool) -> None:
    assert is_referral(definition) is referral


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_reads_terms_as_the_server(terms_searcher, tmp_path: Path) -> None:
    script = tmp_path / "9.js"
    script.write_text(index_script(build_search_index(terms_searcher.rg, terms_searcher, lambda n: n)),
                      encoding="utf-8")
    questions = [q for q, _c, _l in READ + STRADDLING + CONTRACTED]
    answers, _ = run_queries([script], [{"query": q, "ruleset": "riftbound", "edition": "9"} for q in questions])
    for question, offline in zip(questions, answers):
        server = terms_searcher.search(parse_query(question), limit=10)
        assert [(h["number"], h["score"], h["matched"]) for h in offline["results"]] == \
            [(h["number"], h["score"], h["matched"]) for h in server["results"]], question


# (a term's label, the weight it is read with: a term the question words hold weighs as a word)
WEIGHTS = [
    ("might (term)", 1.0),
    ("hold (term)", 1.5),
]


@pytest.mark.parametrize("label, weight", WEIGHTS)
def test_a_term_the_question_words_hold_weighs_as_a_word(terms_searcher, label: str, weight: float) -> None:
    s = terms_searcher
    read = understand(parse_query("can I hold a battlefield with more might"), s.vocabulary,
                      lambda x: len(s.impacts.word(x)), s._terms, s._term_kind, term_weight=1.5)
    assert {c.label: c.weight for c in read.clauses}[label] == weight
