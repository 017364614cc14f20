"""Search with no ruleset asked for (acceptance F19).

A query whose citation names a ruleset by its own prefix searches that ruleset, as the
linker reads the prefix ("CR 702.19b", "Comprehensive Rules 702.19b": Magic), and with an
edition asked for (``-e``) that ruleset when it has the edition, else the only ruleset that
has it (review V6: ``-e 2026-01-16 "CR 702.19b"`` searched Riftbound); an answer
with no match, or a number the edition lacks, lists the other rulesets that match, with
how many rules, in the facade, the API (with a link), the site and the CLI. On the
embedded excerpts (Riftbound the default, Magic beside it).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.errors import QueryError
from kb.query import KnowledgeBase
from web import create_app

# query, ruleset asked, ruleset searched, total there, the other rulesets listed
CASES = [
    ("CR 702.19b", None, "mtg", 1, []),
    ("Comprehensive Rules 702.19b", None, "mtg", 1, []),
    ("cr 702.19b", None, "riftbound", 0, ["mtg"]),  # the linker reads CR in capitals only
    ("Core Rules 337.1a", None, "riftbound", 1, []),
    ("rule 337.1a", None, "riftbound", 1, []),
    ("deathtouch trample", None, "riftbound", 0, ["mtg"]),
    ("702.19b", None, "riftbound", 0, ["mtg"]),
    ("deathtouch trample", "riftbound", "riftbound", 0, ["mtg"]),
    ("CR 702.19b", "riftbound", "riftbound", 0, ["mtg"]),  # asked for: the prefix does not move it
    ("chain item", None, "riftbound", None, []),           # matches: nothing else said
    ("zzqxw", None, "riftbound", 0, []),                   # nowhere
    ("CR 999.9", None, "mtg", 0, []),
]


@pytest.mark.parametrize(("query", "asked", "searched", "total", "others"), CASES)
def test_facade(excerpt_kb: KnowledgeBase, query: str, asked: str | None, searched: str,
                total: int | None, others: list[str]) -> None:
    data = excerpt_kb.search(query, asked, limit=3)
    assert data["ruleset"] == searched
    if total is not None:
        assert data["total"] == total
    assert [o["ruleset"] for o in data["other_rulesets"]] == others
    for o in data["other_rulesets"]:
        assert o["total"] >= 1 and o["title"] and o["edition"]


# query, edition asked, ruleset searched (None: refused), words of the refusal
EDITION_CASES = [
    ("CR 702.19b", "2026-01-16", "mtg", ""),        # the prefix's ruleset has the edition
    ("702.19b", "2026-01-16", "mtg", ""),           # no prefix: the only ruleset having it
    ("deathtouch", "2010-10-01", "mtg", ""),
    ("CR 702.19b", "1.4", "riftbound", ""),         # the prefix's ruleset lacks it: the one having it
    ("Core Rules 337.1a", "1.3", "riftbound", ""),
    ("337.1a", "1.4", "riftbound", ""),
    ("CR 702.19b", "9.9", None, "unknown edition '9.9' of riftbound"),  # nobody has it: the default says so
]


@pytest.mark.parametrize(("query", "edition", "searched", "refused"), EDITION_CASES)
def test_an_edition_asked_for_picks_the_ruleset_having_it(excerpt_kb: KnowledgeBase, query: str, edition: str,
                                                          searched: str | None, refused: str) -> None:
    if searched is None:
        with pytest.raises(QueryError, match=refused):
            excerpt_kb.search(query, None, edition, limit=3)
        return
    data = excerpt_kb.search(query, None, edition, limit=3)
    assert (data["ruleset"], data["edition"]) == (searched, edition)


def test_cli_edition_with_a_citation_prefix(excerpt_home: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "search", "-e", "2026-01-16", "CR 702.19b"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith("mtg 2026-01-16: 1 matching") and "702.19b" in out.output


def test_the_counts_are_the_other_rulesets_own(excerpt_kb: KnowledgeBase) -> None:
    data = excerpt_kb.search("deathtouch trample")
    (other,) = data["other_rulesets"]
    assert other["total"] == excerpt_kb.search("deathtouch trample", "mtg")["total"]


def test_api_links_the_search_there(excerpt_home: Path) -> None:
    client = create_app(excerpt_home).test_client()
    data = client.get("/api/v1/search?q=deathtouch+trample").get_json()
    (other,) = data["other_rulesets"]
    there = client.get(other["url"]).get_json()
    assert there["ruleset"] == "mtg" and there["total"] == other["total"]
    assert client.get("/api/v1/search?q=CR+702.19b").get_json()["ruleset"] == "mtg"


def test_site_says_and_links_it(excerpt_home: Path) -> None:
    client = create_app(excerpt_home).test_client()
    page = client.get("/search?q=deathtouch+trample").get_data(as_text=True)
    assert 'class="didyoumean other-rulesets"' in page
    assert "ruleset=mtg" in page and "in Magic: The Gathering Comprehensive Rules" in page
    jumped = client.get("/search?q=CR+702.19b")
    assert jumped.status_code == 302 and "/mtg/" in jumped.headers["Location"]


def test_cli_says_the_command(excerpt_home: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "search", "deathtouch trample"])
    assert out.exit_code == 0, out.output
    assert "in Magic: The Gathering Comprehensive Rules" in out.output
    assert "rulekb search -r mtg 'deathtouch trample'" in out.output
