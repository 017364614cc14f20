"""A rule number typed with a dot dropped, doubled or misplaced (acceptance run, finding 4).

``3371a``, ``337..1a``, ``337,1a`` and ``337 1 a`` are what a judge typing fast makes of
337.1.a. When the number as typed does not exist, the lookup suggests the existing numbers
its digits and letters re-dot into, in the edition's own numbering (Riftbound 337.1.a,
Magic 704.5b), first among the nearest: in ``rulekb rule``, the API's rule lookup, the
site's rule address and search's ``no_such_rule``. It never jumps to a guess. Runs on the
embedded excerpts (Riftbound 1.4, Magic 2010-10-01), and on the full Magic 2026-01-16 from
../shared when it is there.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from kb.errors import QueryError
from kb.loaded import suggested_numbers
from kb.numbers import loose_segments, redotted_numbers
from kb.query import KnowledgeBase
from web import create_app

# (ruleset, edition, typed, the number suggested first); one line per typed form
TYPED = [
    ("riftbound", "1.4", "3371a", "337.1.a"),          # both dots dropped
    ("riftbound", "1.4", "337.1a", None),               # as written: it exists, so it is answered
    ("riftbound", "1.4", "3371.a", "337.1.a"),          # a dot in the wrong place
    ("riftbound", "1.4", "337..1a", "337.1.a"),         # a dot doubled
    ("riftbound", "1.4", "337,1a", "337.1.a"),          # a comma for a dot
    ("riftbound", "1.4", "337 1 a", "337.1.a"),         # spaces for dots
    ("riftbound", "1.4", "3.3.7.1.a", "337.1.a"),       # dots too many
    ("riftbound", "1.4", "rule 3371a", "337.1.a"),      # with the word before it
    ("riftbound", "1.4", "3371", "337.1"),
    ("mtg", "2010-10-01", "7045b", "704.5b"),           # Magic's letter stays on its number
    ("mtg", "2010-10-01", "1163d", "116.3d"),
    ("mtg", "2010-10-01", "704 5 b", "704.5b"),
    ("mtg", "2010-10-01", "704..5b", "704.5b"),
    ("mtg", "2010-10-01", "CR 7045.b", "704.5b"),
]

# (typed, its segments as the lookup reads them loosely, or None: no number at all)
LOOSE = [
    ("3371a", ("3371", "a")),
    ("337..1a", ("337", "1", "a")),
    ("337,1a", ("337", "1", "a")),
    ("337 1 a", ("337", "1", "a")),
    ("rule 337 1 a", ("337", "1", "a")),
    ("337.1ab", ("337", "1", "ab")),
    ("banana", None),
    ("337 or 338", None),       # a word of two letters is a word
    ("337 1 abc", None),
    ("337-340", None),          # a range is no loose number
    ("a337", None),
    ("٣٣٧", None),              # digits of another script
    ("1" * 65, None),
    ("", None),
]


@pytest.mark.parametrize("typed,segments", LOOSE)
def test_loose_segments(typed: str, segments: tuple[str, ...] | None) -> None:
    assert loose_segments(typed) == segments


# A made-up edition: 337, 337.1, 337.1.a, 33, 33.7 (so 3371a could also be 33.7.1.a were it there)
KNOWN = {("337",): "337", ("337", "1"): "337.1", ("337", "1", "a"): "337.1.a", ("33",): "33",
         ("33", "7"): "33.7", ("33", "7", "1"): "33.7.1", ("33", "7", "1", "a"): "33.7.1.a",
         ("050",): "050", ("050", "1"): "050.1"}

REDOTTED = [
    # (segments typed, the existing numbers in the order suggested)
    (("3371", "a"), ["337.1.a", "33.7.1.a"]),        # one break moved beats two added
    (("33", "7", "1", "a"), ["33.7.1.a", "337.1.a"]),  # as typed, when it exists, first
    (("3", "3", "7", "1", "a"), ["33.7.1.a", "337.1.a"]),  # one dot dropped beats two
    (("0501",), ["050.1"]),                          # a head may start with 0 (Riftbound's 050)
    (("3370", "1"), []),                             # no segment but a head starts with 0
    (("9999", "9"), []),
    (("1" * 17,), []),                               # past REDOT_MAX_CHARACTERS
    ((), []),
]


@pytest.mark.parametrize("segments,numbers", REDOTTED)
def test_redotted_numbers(segments: tuple[str, ...], numbers: list[str]) -> None:
    assert redotted_numbers(segments, KNOWN.get) == numbers
    assert redotted_numbers(segments, KNOWN.get, limit=1) == numbers[:1]


def _check_lookup(kb: KnowledgeBase, ruleset: str, edition: str, typed: str, first: str | None) -> None:
    if first is None:
        assert kb.rule(ruleset, typed, edition)["number"] == "337.1.a"
        assert kb.search(typed, ruleset, edition)["no_such_rule"] is None
        return
    with pytest.raises(QueryError) as caught:
        kb.rule(ruleset, typed, edition)
    exc = caught.value
    assert exc.status == 404 and f"did you mean {first}" in exc.message
    assert exc.detail["nearest"][0] == first and len(exc.detail["nearest"]) == len(set(exc.detail["nearest"]))
    missing = kb.search(typed, ruleset, edition)["no_such_rule"]
    assert missing is not None and missing["nearest"][0] == first and f"did you mean {first}" in missing["message"]


@pytest.mark.parametrize("ruleset,edition,typed,first", TYPED)
def test_a_number_typed_without_its_dots_is_offered_re_dotted(excerpt_kb: KnowledgeBase, ruleset: str,
                                                              edition: str, typed: str, first: str | None) -> None:
    _check_lookup(excerpt_kb, ruleset, edition, typed, first)


def test_the_full_magic_document_re_dots_by_its_own_numbering(full_kb: KnowledgeBase) -> None:
    _check_lookup(full_kb, "mtg", "2026-01-16", "7045b", "704.5b")
    _check_lookup(full_kb, "mtg", "2026-01-16", "70219b", "702.19b")
    _check_lookup(full_kb, "riftbound", "1.4", "3371a", "337.1.a")


# (9999.9 is a number the edition lacks, which search says: tests/test_search_missing_numbers.py)
@pytest.mark.parametrize("typed", ["banana", "337 or 338", "1 2", "priority"])
def test_what_re_dots_into_no_rule_answers_as_before(excerpt_kb: KnowledgeBase, typed: str) -> None:
    with pytest.raises(QueryError) as caught:
        excerpt_kb.rule("riftbound", typed)
    assert "did you mean" not in caught.value.message
    assert excerpt_kb.search(typed, "riftbound")["no_such_rule"] is None


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize("ruleset,edition,typed,first", [t for t in TYPED if t[3]])
def test_api_and_site_offer_it(client: FlaskClient, ruleset: str, edition: str, typed: str, first: str) -> None:
    api = client.get(f"/api/v1/rulesets/{ruleset}/rules/{quote(typed)}", query_string={"edition": edition})
    assert api.status_code == 404 and api.json["error"]["detail"]["nearest"][0] == first
    found = client.get("/api/v1/search", query_string={"q": typed, "ruleset": ruleset, "edition": edition})
    assert found.status_code == 200 and found.json["no_such_rule"]["nearest"][0] == first
    page = client.get(f"/{ruleset}/{edition}/{quote(typed)}")
    assert page.status_code == 404 and f"did you mean {first}?" in page.get_data(as_text=True)


@pytest.mark.parametrize("ruleset,edition,typed,first", [t for t in TYPED if t[3]])
def test_cli_offers_it(excerpt_home: Path, ruleset: str, edition: str, typed: str, first: str) -> None:
    where = ["--home", str(excerpt_home)]
    looked_up = CliRunner().invoke(main, [*where, "rule", typed, "-r", ruleset, "--edition", edition])
    assert looked_up.exit_code != 0 and "Traceback" not in looked_up.output
    assert f"did you mean {first}?" in looked_up.stderr and f"nearest: {first}" in looked_up.stderr
    searched = CliRunner().invoke(main, [*where, "search", typed, "-r", ruleset, "--edition", edition])
    assert searched.exit_code == 0 and f"nearest: {first}" in searched.stdout
    as_json = CliRunner().invoke(main, [*where, "search", typed, "-r", ruleset, "--edition", edition, "--json"])
    assert json.loads(as_json.stdout)["no_such_rule"]["nearest"][0] == first


# (ruleset, edition, a number the edition lacks, as search reads it): re-dotted or only near
SUGGESTED = [
    ("riftbound", "1.4", "3.3.7.1.a"),  # re-dots into 337.1.a
    ("riftbound", "1.4", "337.9"),      # re-dots into nothing: the nearest
    ("riftbound", "1.4", "829.9"),      # (999.9, past the last rule, has none: A18)
    ("mtg", "2010-10-01", "1.1.6.3.d"),
]


@pytest.mark.parametrize("ruleset,edition,typed", SUGGESTED)
def test_search_suggests_the_first_of_the_lookups_nearest(excerpt_kb: KnowledgeBase, ruleset: str,
                                                          edition: str, typed: str) -> None:
    """kb.loaded.suggested_numbers is the one "re-dotted first, then nearest": the lookup's
    nearest numbers are its five, the search's did_you_mean its first."""
    rg = excerpt_kb.edition(ruleset, edition)
    with pytest.raises(QueryError) as caught:
        excerpt_kb.find_rule(rg, typed)
    nearest = caught.value.detail["nearest"]
    assert nearest == suggested_numbers(rg, loose_segments(typed) or (), 5)
    assert excerpt_kb.search(typed, ruleset, edition, rulings=False)["did_you_mean"] == nearest[0]
