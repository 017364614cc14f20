"""Card knowledge the user supplies (kb/search/cards.py, ``rulekb cards``): importing a card
list (JSON or CSV; every bad row refused with its place), listing it, and search reading a
card named in a question into its type, keywords and text's terms, said in ``understood``
and ``matched``. The cards are made up (tests/fixtures/cards/README.md).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.search import open_searcher, parse_query
from kb.search.cards import CardList, cards_path, load_cards, read_card_file
from kb.search.searcher import Evidence

CARDS = Path(__file__).parent / "fixtures" / "cards"
JSON_CARDS = CARDS / "made-up-riftbound.json"
CSV_CARDS = CARDS / "made-up-riftbound.csv"
LANTERN = "Lantern Warden (card: Unit; keywords: Ambush)"  # as understood.cards names it


@pytest.fixture(scope="module")
def cards_home(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data home of its own (a copy of the excerpt build), so its card list is no other
    test's."""
    home = tmp_path_factory.mktemp("cards-home")
    build = excerpt_home / os.readlink(excerpt_home / "current")
    shutil.copytree(build, home / "builds" / build.name)
    (home / "current").symlink_to(Path("builds") / build.name)
    return home


@pytest.fixture(scope="module")
def cards() -> CardList:
    return CardList("riftbound", tuple(read_card_file(JSON_CARDS)))


@pytest.fixture(scope="module")
def rift(excerpt_kb: KnowledgeBase):
    return open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)


def ask(searcher, question: str, cards: CardList | None) -> dict:
    return searcher.search(parse_query(question), limit=10, cards=cards)


def without_text(described: str) -> str:
    """A card as described, without the part its text's terms make ("; text: …")."""
    return re.sub(r"; text: [^)]*", "", described)


# -- reading a question with a card list -------------------------------------------------------
# (question, the card read, what it is said to be)
NAMED = [
    ("Can I play Lantern Warden during a showdown?", "Lantern Warden (card: Unit; keywords: Ambush)"),
    ("can I play lantern warden during a showdown", "Lantern Warden (card: Unit; keywords: Ambush)"),
    ("Can I play Lantern Wardne during a showdown?",
     "Lantern Warden (read from 'Lantern Wardne'; card: Unit; keywords: Ambush)"),
    # misspelt in lower case: a word of it is no rule's word ("warten", "lanturn", "wardne")
    ("can lantern warten be played in a showdown",
     "Lantern Warden (read from 'lantern warten'; card: Unit; keywords: Ambush)"),
    ("can lanturn warden be played in a showdown",
     "Lantern Warden (read from 'lanturn warden'; card: Unit; keywords: Ambush)"),
    ("can I play lantern wardne during a showdown",
     "Lantern Warden (read from 'lantern wardne'; card: Unit; keywords: Ambush)"),
    ("what does quiet ledgr do to a spell", "Quiet Ledger (read from 'quiet ledgr'; card: Spell; keywords: Reaction)"),
    # a slip that is the start of the name's last word is still a slip ("grave whisper")
    ("what does quiet ledge do to a spell", "Quiet Ledger (read from 'quiet ledge'; card: Spell; keywords: Reaction)"),
    # an exact name with the word after it is the name, not a slip of a longer one
    ("Mira, Tidecaller has Legion: who acts next when she attacks?",
     "Mira, Tidecaller (card: Unit - Champion; keywords: Legion)"),
    ("Does Mira's ability trigger when she attacks?",
     "Mira, Tidecaller (card: Unit - Champion; keywords: Legion)"),
    ("When Mira, Tidecaller attacks, who acts next?",
     "Mira, Tidecaller (card: Unit - Champion; keywords: Legion)"),
    ("What does Quiet Ledger do to a spell on the chain?",
     "Quiet Ledger (card: Spell; keywords: Reaction)"),
]


@pytest.mark.parametrize("question, described", NAMED)
def test_a_named_card_is_read_into_what_it_is(rift, cards: CardList, question: str, described: str) -> None:
    read = ask(rift, question, cards)["understood"]
    # The text's terms are those the edition defines, more as the excerpt grows: compared apart
    # (CONCEPTS below).
    assert [without_text(c) for c in read["cards"]] == [described], read["cards"]
    assert read["names"] == []  # the card is knowledge now, not a name left out
    card = described.split(" (")[0]
    assert not any(card.split(",")[0].lower() in c.lower().split(" (")[0] for c in read["concepts"])


# (question with a slip, what "did you mean" offers: the card's name as typed, misspelt or not)
CORRECTED = [
    ("can lantern warten be played in a showdwn", "can lantern warten be played in a showdown"),
    ("can Lanturn Warden be played in a showdwn", "can Lanturn Warden be played in a showdown"),
    ("can I play lantern wardne in a showdwn", "can I play lantern wardne in a showdown"),
]


@pytest.mark.parametrize("question, did_you_mean", CORRECTED)
def test_spelling_never_rewrites_a_recognised_card_name(rift, cards: CardList, question: str,
                                                        did_you_mean: str) -> None:
    data = ask(rift, question, cards)
    assert data["did_you_mean"] == did_you_mean
    assert [c.split(" (")[0] for c in data["understood"]["cards"]] == ["Lantern Warden"]


# (question, a concept the card brings in)
CONCEPTS = [
    ("Can I play Lantern Warden during a showdown?", "Ambush (keyword of Lantern Warden)"),
    ("Can I play Lantern Warden during a showdown?", "Unit (type of Lantern Warden)"),
    ("Does Mira's ability trigger when she attacks?", "Legion (keyword of Mira, Tidecaller)"),
    ("Does Mira's ability trigger when she attacks?", "attacker (in its text of Mira, Tidecaller)"),
    ("What does Quiet Ledger do to a spell?", "chain (in its text of Quiet Ledger)"),
    # "Counter" in its text is the term "countering" (by its stem)
    ("What does Quiet Ledger do to a spell?", "countering (in its text of Quiet Ledger)"),
]


def test_a_cards_other_text_words_count_when_asked_to(excerpt_kb: KnowledgeBase, cards: CardList) -> None:
    from kb.search import Ranking
    question = "What does Quiet Ledger do to a spell?"
    with_words = open_searcher(excerpt_kb.edition("riftbound", "1.4"), None, Ranking(card_text_weight=0.5))
    assert "controller (in its text of Quiet Ledger)" in ask(with_words, question, cards)["understood"]["concepts"]
    # The default (chosen by cross-validation) leaves them out.
    default = open_searcher(excerpt_kb.edition("riftbound", "1.4"), None)
    assert "controller (in its text of Quiet Ledger)" not in ask(default, question, cards)["understood"]["concepts"]


@pytest.mark.parametrize("question, concept", CONCEPTS)
def test_a_cards_keywords_type_and_text_terms_are_concepts(rift, cards: CardList, question: str,
                                                           concept: str) -> None:
    assert concept in ask(rift, question, cards)["understood"]["concepts"]


def test_a_cards_keyword_ranks_its_rules_and_says_why(rift, cards: CardList, excerpt_kb: KnowledgeBase) -> None:
    question = "Can I play Lantern Warden during a showdown?"
    ambush = excerpt_kb.edition("riftbound", "1.4").edition.terms["ambush"].defined_by[0]
    def rank(data: dict) -> int:
        found = [h["number"] for h in data["results"]]
        return found.index(ambush) if ambush in found else 99
    with_cards, without = ask(rift, question, cards), ask(rift, question, None)
    assert rank(with_cards) < rank(without), (rank(with_cards), rank(without))
    hit = next(h for h in with_cards["results"] if h["number"] == ambush)
    assert "Ambush (keyword of Lantern Warden)" in hit["matched"]


# Without a card list (or naming no card of it): names are left out and reported, and nothing
# is said about cards. A short card name typed as a plain word is the word, not the card.
UNNAMED = [
    ("Can I play Lantern Warden during a showdown?", None, ["Lantern Warden"]),
    ("Does Abandoned Hall's ability trigger if the spell is countered?", "cards", ["Abandoned Hall's"]),
    ("can I flash in a unit before combat", "cards", []),
    ("can I play a unit in a showdown", "cards", []),  # the rules' own words are no card
    ("can I play lantern during a showdown", "cards", []),  # one word of a name, misspelt or not
]


@pytest.mark.parametrize("question, with_cards, names", UNNAMED)
def test_no_card_is_claimed_that_is_not_named(rift, cards: CardList, question: str,
                                              with_cards: str | None, names: list[str]) -> None:
    read = ask(rift, question, cards if with_cards else None)["understood"]
    assert read["cards"] == [] and read["names"] == names
    assert not any("of " in c and "(" in c for c in read["concepts"])


def test_the_query_language_is_not_read_for_cards(rift, cards: CardList) -> None:
    data = ask(rift, "Lantern AND Warden", cards)
    assert data["understood"] is None


# -- importing a card list ------------------------------------------------------------------------
@pytest.mark.parametrize("file", [JSON_CARDS, CSV_CARDS])
def test_a_card_file_reads(file: Path) -> None:
    cards = {c.name: c for c in read_card_file(file)}
    assert cards["Mira, Tidecaller"].keywords[0] == "Legion"
    assert cards["Lantern Warden"].text.startswith("When I'm played")


# (file name, content, what the error says: its place and the field)
BAD_FILES = [
    ("empty.json", "", "the card file is empty"),
    ("scalar.json", "42", "expected a list of cards"),
    ("broken.json", '[{"name": "A",}]', "broken.json:1: error: not JSON"),
    ("no-name.json", '[{"name": "A"}, {"type": "Unit"}]', "card 2: field name: a card needs a name"),
    ("keywords.json", '[{"name": "A", "keywords": 3}]', "card 1: field keywords: expected a list"),
    ("type.json", '[{"name": "A", "type": ["Unit"]}]', "card 1: field type: expected text, got list"),
    ("unknown.json", '[{"name": "A", "cost": 3}]', "card 1: unknown field cost"),
    ("twice.json", '[{"name": "A b"}, {"name": "a, B"}]', "card 2: field name: 'a, B' is already the card of card 1"),
    ("not-object.json", '["A"]', "card 1: a card must be an object"),
    ("header.csv", "title,type\nA,Unit\n", "header.csv:1: error: no column name"),
    ("column.csv", "name,cost\nA,3\n", "column.csv:1: error: unknown column cost"),
    ("values.csv", "name,type\nA,Unit\nB,Unit,extra\n", "values.csv:3: error: 3 values for 2 columns"),
    ("blank-name.csv", "name,type\nA,Unit\n ,Spell\n", "blank-name.csv:3: error: field name"),
    ("latin1.csv", b"name\nCaf\xe9\n", "not UTF-8 text"),
    ("only-header.csv", "name,type,keywords,text\n", "no cards in the file"),
]


@pytest.mark.parametrize("name, content, message", BAD_FILES)
def test_a_bad_card_file_is_refused_with_its_place(tmp_path: Path, name: str, content: str | bytes,
                                                   message: str) -> None:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    with pytest.raises(DocumentError) as caught:
        read_card_file(path)
    assert message in str(caught.value)


def test_cli_imports_lists_and_keeps_the_last_good_list(cards_home: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    home = ["--home", str(cards_home)]
    out = runner.invoke(main, [*home, "cards", "import", str(JSON_CARDS)])
    assert out.exit_code == 0, out.output
    assert "imported 5 cards of riftbound" in out.output
    assert cards_path(cards_home, "riftbound").is_file()
    listed = runner.invoke(main, [*home, "cards", "list"])
    assert "Lantern Warden" in listed.output and "Ambush" in listed.output
    bad = tmp_path / "bad.csv"
    bad.write_text("name,type\nA,Unit\nB,Unit,extra\n", encoding="utf-8")
    out = runner.invoke(main, [*home, "cards", "import", str(bad)])
    assert out.exit_code == 2 and "bad.csv:3" in out.output and "Traceback" not in out.output
    data = json.loads(runner.invoke(main, [*home, "cards", "list", "--json"]).output)
    assert len(data["cards"]) == 5  # the refused file changed nothing
    out = runner.invoke(main, [*home, "cards", "import", str(CSV_CARDS)])  # says what it replaces
    assert out.exit_code == 0 and f"from {CSV_CARDS.name}, replacing the 5 cards from {JSON_CARDS.name}" in out.output
    runner.invoke(main, [*home, "cards", "import", str(JSON_CARDS)])
    out = runner.invoke(main, [*home, "cards", "import", str(JSON_CARDS), "--ruleset", "chess"])
    assert out.exit_code == 2 and "no ruleset 'chess'" in out.output


def test_search_reads_the_imported_list_through_the_cli(cards_home: Path) -> None:
    runner = CliRunner()
    home = ["--home", str(cards_home)]
    assert runner.invoke(main, [*home, "cards", "import", str(CSV_CARDS)]).exit_code == 0
    out = runner.invoke(main, [*home, "search", "Can I play Lantern Warden during a showdown?"])
    assert out.exit_code == 0, out.output
    assert "card: Lantern Warden (card: Unit; keywords: Ambush" in out.output
    assert "Ambush (keyword of Lantern Warden)" in out.output
    data = json.loads(runner.invoke(main, [*home, "search", "Can I play Lantern Warden during a "
                                           "showdown?", "--json"]).output)
    assert [without_text(c) for c in data["understood"]["cards"]] == [LANTERN]


def test_a_new_import_is_seen_without_reopening(cards_home: Path, tmp_path: Path) -> None:
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"name": "Solitary Beacon", "type": "Gear"}]), encoding="utf-8")
    assert CliRunner().invoke(main, ["--home", str(cards_home), "cards", "import", str(one)]).exit_code == 0
    listed = load_cards(cards_home, "riftbound")
    assert listed is not None and [c.name for c in listed.cards] == ["Solitary Beacon"]


# -- the evidence seam (rulings citing rules, later) ------------------------------------------------
def test_an_evidence_source_ranks_its_rules_and_says_why(rift) -> None:
    def rulings(parsed) -> list[Evidence]:
        return [Evidence("822.1", 1.0, "a ruling cites it: 'Ambush lets a unit be played in a showdown'")]
    plain = rift.search(parse_query("can I play a unit in a showdown"), limit=10)
    ruled = rift.search(parse_query("can I play a unit in a showdown"), limit=10, evidence=rulings)
    assert [h["number"] for h in ruled["results"]][0] == "822.1"
    assert "822.1" not in [h["number"] for h in plain["results"]][:1]
    assert any("a ruling cites it" in m for m in ruled["results"][0]["matched"])


# -- the reasons on the website and the API --------------------------------------------------------
def test_the_site_and_the_api_show_the_card_and_the_reasons(cards_home: Path) -> None:
    from web import create_app
    assert CliRunner().invoke(main, ["--home", str(cards_home), "cards", "import", str(JSON_CARDS)]).exit_code == 0
    client = create_app(kb=KnowledgeBase.open(cards_home)).test_client()
    question = "Can I play Lantern Warden during a showdown?"
    page = client.get("/search", query_string={"q": question, "ruleset": "riftbound", "edition": "1.4"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Card: Lantern Warden (card: Unit; keywords: Ambush" in html
    assert "Read as:" in html and "matched:" in html and "Ambush (keyword of Lantern Warden)" in html
    api = client.get("/api/v1/search", query_string={"q": question}).get_json()
    assert [without_text(c) for c in api["understood"]["cards"]] == [LANTERN]
    assert any("Ambush (keyword of Lantern Warden)" in h["matched"] for h in api["results"])


def test_the_offline_search_page_says_it_leaves_card_knowledge_out_and_carries_rulings() -> None:
    from web.pack import add_offline_search
    page = add_offline_search("<html><head></head><body><main></main></body></html>",
                              {"rulesets": [], "default_ruleset": "riftbound", "indexes": {}})
    assert "with one thing left out: card knowledge" in page
    assert "rulekb rulings import" in page
    assert page.index("earlier rulings") < page.index("</main>")


def test_the_api_answers_anew_when_the_card_list_changes(cards_home: Path, tmp_path: Path) -> None:
    """API answers are kept and validated per build; a card list changes without a build, so
    it is part of what an answer is as fresh as."""
    from web import create_app
    runner = CliRunner()
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"name": "Solitary Beacon", "type": "Gear"}]), encoding="utf-8")
    assert runner.invoke(main, ["--home", str(cards_home), "cards", "import", str(one)]).exit_code == 0
    client = create_app(kb=KnowledgeBase.open(cards_home)).test_client()
    url = "/api/v1/search?q=Can+I+play+Lantern+Warden+during+a+showdown%3F"
    before = client.get(url)
    assert before.get_json()["understood"]["cards"] == []
    assert client.get(url, headers={"If-None-Match": before.headers["ETag"]}).status_code == 304
    assert runner.invoke(main, ["--home", str(cards_home), "cards", "import", str(JSON_CARDS)]).exit_code == 0
    after = client.get(url, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert [without_text(c) for c in after.get_json()["understood"]["cards"]] == [LANTERN]


# (query string, status, what the answer says)
CARDS_API = [
    ("", 200, {"ruleset": "riftbound", "total": 5}),
    ("?limit=2&offset=1", 200, {"total": 5, "offset": 1, "names": ["Quiet Ledger", "Mira, Tidecaller"]}),
    ("?ruleset=mtg", 200, {"ruleset": "mtg", "total": 0, "source": None}),
    ("?ruleset=chess", 404, {"message": "no ruleset 'chess' is built"}),
    ("?limit=0", 400, {"message": "limit"}),
]


@pytest.mark.parametrize("query, status, says", CARDS_API)
def test_the_api_lists_the_imported_cards(cards_home: Path, query: str, status: int, says: dict) -> None:
    from web import create_app
    assert CliRunner().invoke(main, ["--home", str(cards_home), "cards", "import", str(JSON_CARDS)]).exit_code == 0
    got = create_app(kb=KnowledgeBase.open(cards_home)).test_client().get("/api/v1/cards" + query)
    assert got.status_code == status
    data = got.get_json()
    for key, value in says.items():
        if key == "names":
            assert [c["name"] for c in data["cards"]] == value
        elif key == "message":
            assert value in data["error"]["message"]
        else:
            assert data[key] == value


def test_a_kept_list_that_no_longer_reads_is_said_and_searched_without(cards_home: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["--home", str(cards_home), "cards", "import", str(JSON_CARDS)]).exit_code == 0
    kept = cards_path(cards_home, "riftbound")
    kept.write_text("{not json", encoding="utf-8")
    out = runner.invoke(main, ["--home", str(cards_home), "cards", "list"])
    assert out.exit_code == 2 and "does not read" in out.output and "Traceback" not in out.output
    searched = runner.invoke(main, ["--home", str(cards_home), "search", "Can I play Lantern Warden?", "--json"])
    assert searched.exit_code == 0 and json.loads(searched.output)["understood"]["cards"] == []
    assert runner.invoke(main, ["--home", str(cards_home), "cards", "import", str(JSON_CARDS)]).exit_code == 0
