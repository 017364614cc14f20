"""A Glossary entry whose whole definition is "See X." is an alias of X (finding A19).

An alias that is one ordinary English word ("If: See Intervening “If” Clause.", "Deal: See
Damage.", "Independent: See Dependency.") is no term of the rules' text: no rule uses or
defines it, it marks no word of a rule, and looking it up answers with X naming the alias.
A coined word ("Forestwalk: See Landwalk.", "APNAP Order") or a phrase ("Range of Influence")
names only that concept and is linked where the rules write it, as before.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from kb.export.jsrun import node_path, run_queries
from kb.export.search_index import build_search_index, index_script
from kb.graph import RuleGraph, build_edition, is_plain_word
from kb.query import KnowledgeBase
from kb.read import read_bytes, read_text
from kb.search import open_searcher, parse_query
from tests.conftest import magic_document
from web import create_app

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "mtg"
MAGIC_2026 = SHARED / "comprehensive-rules-2026-01-16.txt"
MAGIC_2010 = SHARED / "comprehensive-rules-2010-10-01.txt"
MAGIC_2008 = SHARED / "archive" / "comprehensive-rules-2008-05-01.txt"

# A small Magic document of our own: rules writing "if", "deal", "independent", "forestwalk"
# and "range of influence" as the rules do, and a Glossary with four pointers and their targets.
DOCUMENT = magic_document("""100.1. If a source would deal damage to a player, that player loses that much life.

100.1a Damage dealt by a source is dealt all at once, if nothing prevents it.

100.2. A triggered ability with an intervening if clause checks its condition twice.

100.2a An intervening “if” clause follows the trigger condition, as in “When this dies, if it was blocked.”

100.3. Landwalk is an evasion ability.

100.3a A creature with forestwalk can't be blocked while the defending player controls a Forest.

100.4. Some games limit whom a player can affect.

100.4a Each player's range of influence is the players they can affect, if the game limits it.

100.5. An effect that doesn't depend on another is independent of it, if both apply in one layer.""", """Damage
What a source deals to a creature or player. See rule 100.1.

Deal
See Damage.

Dependency
An effect that waits for another to apply first. See rule 100.5.

Forestwalk
See Landwalk.

If
See Intervening “If” Clause.

Independent
See Dependency.

Intervening “If” Clause
A condition a triggered ability checks when it triggers and again as it resolves. See rule 100.2.

Landwalk
An evasion ability tied to a land type. See rule 100.3.

Limited Range of Influence
An option that limits whom each player can affect. See rule 100.4.

Range of Influence
See Limited Range of Influence.

Nowhere
See Elsewhere.""", credits="Written for the tests of rulekb.")

# alias key              its target's key               plain   rules using it          lookup answers
FIXTURE = [
    ("if",                 "intervening “if” clause",     True,   [],                     "intervening “if” clause"),
    ("deal",               "damage",                      True,   [],                     "damage"),
    ("independent",        "dependency",                  True,   [],                     "dependency"),
    ("forestwalk",         "landwalk",                    False,  ["100.3a"],             "forestwalk"),
    ("range of influence", "limited range of influence",  False,  ["100.4a"],             "range of influence"),
    ("nowhere",            None,                          False,  [],                     "nowhere"),  # points to no entry
]


@cache
def fixture() -> RuleGraph:
    return build_edition(read_text(DOCUMENT, "own.txt", "mtg-text"), ruleset="mtg", edition="own")


@cache
def release(path: Path) -> RuleGraph:
    if not path.exists():
        pytest.skip(f"{path} is absent (the shared corpora are not checked out beside the repo)")
    result, _ = read_bytes(path.read_bytes(), str(path), ruleset="mtg")
    return build_edition(result, ruleset="mtg", edition=path.stem)


@pytest.mark.parametrize("key,target,plain,using,answers", FIXTURE, ids=[c[0] for c in FIXTURE])
def test_a_pointer_entry_is_an_alias_of_its_target(key: str, target: str | None, plain: bool,
                                                   using: list[str], answers: str) -> None:
    rg = fixture()
    assert key in rg.edition.terms  # the Glossary as printed keeps every entry
    assert rg.alias_of(key) == target
    assert rg.is_plain_alias(key) is plain
    assert rg.rules_using(key) == using
    assert (key in rg.linked_terms()) is not plain
    on_pages = [n for n in rg.edition.rules if key in rg.terms_used(n)]  # used or defined there
    assert on_pages == [] if plain else set(using) <= set(on_pages)


# term                        rules using it: found by its words, as a rule's text is read
WRITTEN = [
    ("intervening “if” clause",   ["100.2a"]),
    ("limited range of influence", []),
    ("damage",                    ["100.1a"]),
]


@pytest.mark.parametrize("key,using", WRITTEN, ids=[w[0] for w in WRITTEN])
def test_a_term_is_found_by_its_words(key: str, using: list[str]) -> None:
    assert fixture().rules_using(key) == using


def test_a_plain_alias_leaves_its_target_and_the_rules_words_alone() -> None:
    rg = fixture()
    assert rg.rules_using("damage") == ["100.1a"]  # "damage dealt": the target keeps its own uses
    assert "100.1" in rg.edition.terms["damage"].defined_by
    assert "if" not in rg.terms_used("100.1") and "deal" not in rg.terms_used("100.1")


@pytest.mark.parametrize("key,target,plain,using,answers", FIXTURE, ids=[c[0] for c in FIXTURE])
def test_looking_up_an_alias(key: str, target: str | None, plain: bool, using: list[str], answers: str) -> None:
    kb = KnowledgeBase.from_graphs([fixture()])
    found = kb.term("mtg", key.title(), "own")
    assert found["key"] == answers
    assert found.get("alias") == (fixture().edition.terms[key].name if plain else None)
    assert found.get("see") == (None if plain else target)
    listed = {t["key"]: t for t in kb.terms("mtg", "own")}
    assert listed[key].get("see") == target


@pytest.mark.parametrize("text,marked", [
    ("If a source would deal damage, it deals it.",   ["damage"]),
    ("A creature with forestwalk.",                    ["forestwalk"]),
    ("Within a player's range of influence.",          ["range of influence"]),
    ("It is independent if it doesn't depend on it.", []),
])
def test_a_plain_alias_marks_no_word_of_a_text(text: str, marked: list[str]) -> None:
    kb = KnowledgeBase.from_graphs([fixture()])
    spans = kb.mentions("mtg", text, "own")
    assert [s["key"] for s in spans if s["kind"] == "term"] == marked


# word              plain: an ordinary English word
WORDS = [
    ("If",            True),
    ("Deal",          True),
    ("Independent",   True),
    ("Forestwalk",    False),
    ("Plainscycling", False),
    ("APNAP",         False),
    ("Range of Influence", False),  # a phrase names its concept
]


@pytest.mark.parametrize("name,plain", WORDS, ids=[w for w, _ in WORDS])
def test_a_plain_word_is_one_ordinary_english_word(name: str, plain: bool) -> None:
    assert is_plain_word(name) is plain


# The releases: every entry "See X." of the Glossary, and which are plain words.
# edition     aliases  plain aliases
RELEASES = [
    (MAGIC_2026, 19, ["deal", "if", "independent"]),
    (MAGIC_2010, 19, ["deal", "if", "independent"]),
    (MAGIC_2008, 16, ["if"]),
]


@pytest.mark.parametrize("path,aliases,plain", RELEASES, ids=[p.stem for p, _, _ in RELEASES])
def test_the_releases_aliases(path: Path, aliases: int, plain: list[str]) -> None:
    rg = release(path)
    found = [k for k in rg.edition.terms if rg.alias_of(k)]
    assert len(found) == aliases
    assert sorted(k for k in found if rg.is_plain_alias(k)) == plain
    for key in plain:
        assert rg.rules_using(key) == []
        assert rg.alias_of(key) in rg.edition.terms


# edition     coined alias        its target         rules writing it (at least)
COINED = [
    (MAGIC_2026, "islandwalk",      "landwalk",                               1),
    (MAGIC_2026, "mountaincycling", "typecycling",                            1),
    (MAGIC_2026, "apnap order",     "active player, nonactive player order",  10),
    (MAGIC_2026, "range of influence", "limited range of influence",          40),
    (MAGIC_2010, "swampwalk",       "landwalk",                               1),
    (MAGIC_2010, "apnap order",     "active player, nonactive player order",  5),
]


@pytest.mark.parametrize("path,key,target,using", COINED, ids=[f"{p.stem}-{k}" for p, k, _, _ in COINED])
def test_a_coined_alias_is_still_linked_where_the_rules_write_it(path: Path, key: str, target: str,
                                                                 using: int) -> None:
    rg = release(path)
    assert rg.alias_of(key) == target
    assert not rg.is_plain_alias(key)
    assert len(rg.rules_using(key)) >= using


def test_117_3d_names_no_if_term_in_magic_2026() -> None:
    rg = release(MAGIC_2026)
    assert "if" not in rg.terms_used("117.3d")
    kb = KnowledgeBase.from_graphs([rg])
    spans = kb.mentions("mtg", rg.rule("117.3d").text, rg.edition.name, "117.3d")
    assert "if" not in [s.get("key") for s in spans]
    found = kb.term("mtg", "If", rg.edition.name)
    assert (found["key"], found["alias"]) == ("intervening “if” clause", "If")
    assert found["defined_by"] == ["603.4"]


# query typed    the term card's entry
CARDS = [
    ("if",           "Intervening “If” Clause"),
    ("deal",         "Damage"),
    ("Independent",  "Dependency"),
    ("forestwalk",   "Forestwalk"),
    ("damage",       "Damage"),
]


@pytest.mark.parametrize("query,card", CARDS, ids=[q for q, _ in CARDS])
def test_the_search_term_card_of_an_alias(query: str, card: str) -> None:
    found = open_searcher(fixture(), None).search(parse_query(query))
    assert found["term"]["term"] == card


@pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")
def test_the_offline_search_shows_the_same_term_cards(tmp_path: Path) -> None:
    searcher = open_searcher(fixture(), None)
    script = tmp_path / "own.js"
    script.write_text(index_script(build_search_index(fixture(), searcher, lambda n: n)), encoding="utf-8")
    answers, _ = run_queries([script], [{"query": q, "ruleset": "mtg", "edition": "own"} for q, _ in CARDS])
    assert [a["term"]["term"] for a in answers] == [card for _, card in CARDS]


@cache
def client():
    return create_app(kb=KnowledgeBase.from_graphs([fixture()])).test_client()


# API term route    status  the entry answering   alias named
API = [
    ("If",              200,   "intervening “if” clause",  "If"),
    ("deal",            200,   "damage",                    "Deal"),
    ("Forestwalk",      200,   "forestwalk",                None),
    ("Damage",          200,   "damage",                    None),
]


@pytest.mark.parametrize("term,status,key,alias", API, ids=[a[0] for a in API])
def test_the_api_term_route_answers_an_alias_with_its_target(term: str, status: int, key: str,
                                                              alias: str | None) -> None:
    response = client().get(f"/api/v1/rulesets/mtg/terms/{term}?edition=own")
    assert response.status_code == status
    body = response.get_json()
    assert (body["key"], body.get("alias")) == (key, alias)


# glossary entry          the link its "See …" is
GLOSSARY = [
    ("deal",               '<a href="glossary#term-damage">Damage</a>'),
    ("forestwalk",         '<a href="glossary#term-landwalk">Landwalk</a>'),
    ("range-of-influence", '<a href="glossary#term-limited-range-of-influence">Limited Range of Influence</a>'),
]


@pytest.mark.parametrize("entry,link", GLOSSARY, ids=[g[0] for g in GLOSSARY])
def test_the_glossary_links_an_alias_to_its_target(entry: str, link: str) -> None:
    html = client().get("/mtg/own/glossary").get_data(as_text=True)
    start = html.index(f'id="term-{entry}"')
    assert link in html[start:html.index("</div>", start)]


def test_a_rule_page_lists_no_plain_alias_among_its_terms() -> None:
    html = client().get("/mtg/own/100.1").get_data(as_text=True)
    assert "See Damage" not in html and "Intervening “If” Clause" not in html
