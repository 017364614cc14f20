"""A card's keyword with a value meets its keyword's rules (kb/search/cards.py
``keyword_name``, ``card_concepts``): "Assault 2", "Shield 1", "Hunt 2", Magic's "Ward {2}" and
"Toxic 1" are the keywords Assault, Shield, Hunt, Ward and Toxic, which the rules name without
the value; read with the value, the keyword was a phrase no rule holds and never matched
(acceptance finding F-G: Assault's 807 at 5th for "how much might does it get?"). The cards
are made up, as in tests/fixtures/cards/README.md. One case a line."""

from __future__ import annotations

import pytest

from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.cards import Card, CardList, card_concepts, keyword_name

TERMS = {"assault": "Assault", "ward": "Ward", "double strike": "Double Strike", "shield": "Shield",
         "hunt": "Hunt", "protection": "Protection", "equip": "Equip"}

# (a keyword as a card list gives it, its words as the rules name it, the name as shown)
KEYWORDS = [
    ("Assault 2", ("assault",), "Assault"),
    ("Shield 1", ("shield",), "Shield"),
    ("Hunt 2", ("hunt",), "Hunt"),
    ("Ward {2}", ("ward",), "Ward"),
    ("Ward—Pay 3 life", ("ward",), "Ward"),
    ("Equip {1}{W}", ("equip",), "Equip"),
    ("Protection from red", ("protection",), "Protection"),
    ("Double Strike", ("double", "strike"), "Double Strike"),
    # not a term of these: the trailing value is cut off all the same
    ("Toxic 1", ("toxic",), "Toxic"),
    ("Annihilator X", ("annihilator",), "Annihilator"),
    ("Deathknell", ("deathknell",), "Deathknell"),
    ("  Assault 2 ", ("assault",), "Assault"),
]


@pytest.mark.parametrize("typed, words, name", KEYWORDS, ids=[k[0] for k in KEYWORDS])
def test_a_keywords_value_is_not_part_of_its_name(typed: str, words: tuple[str, ...], name: str) -> None:
    assert keyword_name(typed, TERMS) == (words, name)


def test_the_card_brings_the_keyword_without_its_value() -> None:
    card = Card("Quillpoint Raider", "Unit", ("Assault 2", "Accelerate"), "")
    concepts = card_concepts(card, TERMS, lambda stem: 5)
    assert [(c.words, c.text, c.kind) for c in concepts if c.kind == "keyword"] == \
        [(("assault",), "Assault", "keyword"), (("accelerate",), "Accelerate", "keyword")]


RAIDER = Card("Quillpoint Raider", "Unit", ("Assault 2", "Accelerate"), "")


# (ruleset, card, question, the keyword's rule family, the reason a hit gives)
ASKED = [
    ("riftbound", RAIDER, "my opponent attacks with Quillpoint Raider, how much might does it get?",
     "807", "Assault (keyword of Quillpoint Raider)"),
]


@pytest.mark.parametrize("ruleset, card, question, family, reason", ASKED, ids=[a[2] for a in ASKED])
def test_a_card_keyword_with_a_value_ranks_its_rules(excerpt_kb: KnowledgeBase, ruleset: str, card: Card,
                                                     question: str, family: str, reason: str) -> None:
    edition = {"riftbound": "1.4", "mtg": "2026-01-16"}[ruleset]
    searcher = open_searcher(excerpt_kb.edition(ruleset, edition), None)
    data = searcher.search(parse_query(question), limit=10, cards=CardList(ruleset, (card,)))
    first = data["results"][0]
    assert first["number"].split(".")[0] == family, [(h["number"], h["matched"]) for h in data["results"][:3]]
    assert reason in first["matched"], first["matched"]
