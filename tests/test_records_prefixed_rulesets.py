"""A record's citation whose own prefix names another ruleset counts against that ruleset
(kb/records/citing.py, issue #20).

A record has one ruleset, and every citation without a prefix is that ruleset's; but
``CR 116.1`` in a Riftbound ruling is Magic's Comprehensive Rules (``Core Rules 340.1`` in
a Magic one Riftbound's), as the linker reads it (:func:`kb.cite.target.named_editions`).
Such a citation is read in the named ruleset's edition in force on the record's date (else
on the date of the edition the record was written for), is checked against that ruleset's
newest edition, counts in the ``cited_by`` of its rule there (carried to any later
edition), and the check command, the API and the record page name its ruleset.

On the embedded default (Riftbound 1.3 of 2026-03-30 and 1.4, Magic 2010-10-01 and
2026-01-16, excerpts); the records are written here, in our own words.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.query import KnowledgeBase
from kb.records import RecordSet, cited_by, import_records, load_folder, record_report, records_report
from kb.store import build
from tests.conftest import copy_home
from tests.test_api import CheckedClient
from web import create_app

# kind, id, file name, content
RECORDS: list[tuple[str, str, str, str]] = [
    ("ruling", "rb-unlike-magic-2010", "rb-unlike-magic-2010.yaml",
     "id: rb-unlike-magic-2010\nquestion: Does finalizing an item pass priority (rule 337.1.a)?\n"
     "answer: No. Magic once handed priority back after a spell was cast (CR 116.3c); here "
     "finalizing keeps it.\nsource: a judge\ndate: 2010-11-01\nruleset: riftbound\nedition: '1.3'\n"),
    ("ruling", "rb-unlike-magic-2026", "rb-unlike-magic-2026.yaml",
     "id: rb-unlike-magic-2026\nquestion: Is a special action like playing a card?\n"
     "answer: Magic calls them special actions (Comprehensive Rules 116.1); Riftbound has none "
     "by that name, and rule 704.5f is no rule of it.\nsource: a judge\ndate: 2026-04-01\n"
     "ruleset: riftbound\nedition: '1.3'\n"),
    ("ruling", "mtg-unlike-riftbound", "mtg-unlike-riftbound.yaml",
     "id: mtg-unlike-riftbound\nquestion: Does Magic have an open state?\n"
     "answer: Not by that name; Riftbound's chain empties into one (Core Rules 340.2), and "
     "Magic's players simply pass priority (rule 116.3d).\nsource: a judge\ndate: 2026-05-01\n"
     "ruleset: mtg\nedition: 2026-01-16\n"),
    ("article", "rb-two-cr-citations", "rb-two-cr-citations.md",
     "---\nruleset: riftbound\nedition: '1.3'\n---\n# Priority, twice over\n\n"
     "The chain resolves its newest item (rule 340.1). Magic's special actions (CR 116.1) are "
     "taken with priority too;\nagain, see CR 116.1.\n"),
    ("article", "rb-dated-2011", "rb-dated-2011.md",
     "---\nruleset: riftbound\nedition: '1.3'\ndate: 2011-01-05\n---\n# An old comparison\n\n"
     "Casting a spell in Magic needed priority (CR 116.1); a Riftbound rule 340.2 names the "
     "open state.\n"),
]

# id, the citation as written, the ruleset it counts against, the edition it is read in,
# its number there, its status against that ruleset's newest edition, its number today
# (None: none), whether its prefix named another ruleset than the record's
CITATIONS: list[tuple[str, str, str, str, str | None, str, str | None, bool]] = [
    ("rb-unlike-magic-2010", "rule 337.1.a", "riftbound", "1.3", "337.1.a", "reworded", "337.1.a", False),
    ("rb-unlike-magic-2010", "CR 116.3c", "mtg", "2010-10-01", "116.3c", "renumbered", "117.3c", True),
    ("rb-unlike-magic-2026", "Rules 116.1", "mtg", "2026-01-16", "116.1", "ok", "116.1", True),
    ("rb-unlike-magic-2026", "rule 704.5f", "riftbound", "1.3", None, "not_found", None, False),
    ("mtg-unlike-riftbound", "Rules 340.2", "riftbound", "1.3", "340.2", "ok", "340.2", True),
    ("mtg-unlike-riftbound", "rule 116.3d", "mtg", "2026-01-16", None, "not_found", None, False),
    ("rb-two-cr-citations", "rule 340.1", "riftbound", "1.3", "340.1", "reworded", "340.1", False),
    ("rb-two-cr-citations", "CR 116.1", "mtg", "2026-01-16", "116.1", "ok", "116.1", True),
    ("rb-dated-2011", "CR 116.1", "mtg", "2010-10-01", "116.1", "renumbered", "117.1", True),
    ("rb-dated-2011", "rule 340.2", "riftbound", "1.3", "340.2", "ok", "340.2", False),
]

# ruleset, edition, number, the records citing it (ids)
CITED_BY: list[tuple[str, str, str, set[str]]] = [
    ("mtg", "2026-01-16", "116.1", {"rb-unlike-magic-2026", "rb-two-cr-citations"}),
    ("mtg", "2026-01-16", "117.1", {"rb-dated-2011"}),            # 2010's 116.1, carried
    ("mtg", "2010-10-01", "116.1", {"rb-dated-2011"}),
    ("mtg", "2026-01-16", "117.3c", {"rb-unlike-magic-2010"}),     # 2010's 116.3c
    ("mtg", "2026-01-16", "704.5f", set()),                        # unprefixed in a Riftbound ruling
    ("riftbound", "1.4", "340.2", {"mtg-unlike-riftbound", "rb-dated-2011"}),
    ("riftbound", "1.4", "340.1", {"rb-two-cr-citations"}),
    ("riftbound", "1.3", "116.1", set()),                          # no such rule; never counted there
]


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> RecordSet:
    return load_folder(_corpus(tmp_path_factory.mktemp("prefixed-records")))


def _corpus(folder: Path) -> Path:
    for kind, _, name, content in RECORDS:
        (folder / f"{kind}s").mkdir(exist_ok=True)
        (folder / f"{kind}s" / name).write_text(content, encoding="utf-8")
    return folder


def _kind(ident: str) -> str:
    return next(kind for kind, i, _, _ in RECORDS if i == ident)


@pytest.mark.parametrize("ident,text,ruleset,edition,number,status,now,named", CITATIONS)
def test_a_citation_counts_against_the_ruleset_its_prefix_names(
        excerpt_kb: KnowledgeBase, records: RecordSet, ident: str, text: str, ruleset: str,
        edition: str, number: str | None, status: str, now: str | None, named: bool) -> None:
    report = record_report(excerpt_kb, _kind(ident), ident, records)  # type: ignore[arg-type]
    found = [c for c in report["citations"] if c["text"] == text]
    assert len(found) == 1, report["citations"]
    c = found[0]
    newest = excerpt_kb.editions(ruleset)[-1]["edition"]
    assert (c["ruleset"], c["written_for"], c["number"], c["status"], c["now"], c["named"], c["newest"]) == (
        ruleset, edition, number, status, now, named, newest)


def test_every_citation_of_the_corpus_is_in_the_table(excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    listed = {(i, text) for i, text, *_ in CITATIONS}
    for _, ident, _, _ in RECORDS:
        report = record_report(excerpt_kb, _kind(ident), ident, records)  # type: ignore[arg-type]
        assert {(ident, c["text"]) for c in report["citations"]} <= listed, report["citations"]


def test_a_record_keeps_its_own_ruleset_and_names_what_changed_elsewhere(
        excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    report = record_report(excerpt_kb, "ruling", "rb-unlike-magic-2010", records)
    assert (report["ruleset"], report["written_for"], report["newest"]) == ("riftbound", "1.3", "1.4")
    assert report["changed"] == ["337.1.a", "mtg 116.3c"]
    c = next(c for c in report["citations"] if c["named"])
    assert c["message"].startswith("mtg rule 116.3c of 2010-10-01 is rule 117.3c in 2026-01-16")


@pytest.mark.parametrize("ruleset,edition,number,ids", CITED_BY)
def test_cited_by_counts_a_citation_in_the_ruleset_its_prefix_names(
        excerpt_kb: KnowledgeBase, records: RecordSet, ruleset: str, edition: str, number: str,
        ids: set[str]) -> None:
    found = cited_by(excerpt_kb, ruleset, edition, number, records)
    assert {r["id"] for r in found["records"]} == ids
    assert found["total"] == len(ids)


@pytest.fixture(scope="module")
def home(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data home of its own with the corpus imported (as the CLI imports: then a build)."""
    home = copy_home(excerpt_home, tmp_path_factory.mktemp("prefixed-home") / "home")
    corpus = _corpus(tmp_path_factory.mktemp("prefixed-files"))
    kb = KnowledgeBase.open(home)
    import_records(home, [corpus / "rulings"], "ruling", kb)
    import_records(home, [corpus / "articles"], "article", kb)
    build(home)
    return home


# command, exit code, a line the output holds
CHECKS: list[tuple[list[str], int, str]] = [
    (["rulings", "check"], 1, "renumbered: ruling rb-unlike-magic-2010: CR 116.3c: mtg rule 116.3c of "
                              "2010-10-01 is rule 117.3c in 2026-01-16 and reworded"),
    (["articles", "check"], 1, "rb-dated-2011.md:8: renumbered: article rb-dated-2011: CR 116.1: mtg rule "
                               "116.1 of 2010-10-01 is rule 117.1 in 2026-01-16"),
    (["rulings", "list"], 0, "rb-unlike-magic-2010  riftbound 1.3  stale (changed: 337.1.a, mtg 116.3c)"),
    # --ruleset selects by the ruleset a citation counts for, and the line says where it is filed
    (["rulings", "check", "--ruleset", "mtg"], 1,
     "renumbered: ruling rb-unlike-magic-2010 (filed under riftbound): CR 116.3c: mtg rule 116.3c of "
     "2010-10-01 is rule 117.3c in 2026-01-16"),
    (["rulings", "check", "--ruleset", "mtg"], 1,
     "(citations counting for mtg: a record's own, and those whose prefix names mtg in a record of "
     "another ruleset)"),
    (["articles", "check", "--ruleset", "mtg"], 1,
     "rb-dated-2011.md:8: renumbered: article rb-dated-2011 (filed under riftbound): CR 116.1: mtg rule "
     "116.1 of 2010-10-01 is rule 117.1 in 2026-01-16"),
    (["rulings", "list", "--ruleset", "riftbound"], 0,
     "mtg-unlike-riftbound  mtg 2026-01-16  ok (filed under mtg)"),
    (["rulings", "list", "--ruleset", "mtg"], 0,
     "rb-unlike-magic-2010  riftbound 1.3  stale (changed: mtg 116.3c) (filed under riftbound)"),
]

# command, a line the output must not hold: the citations counting for another ruleset
NOT_LISTED: list[tuple[list[str], str]] = [
    (["rulings", "check", "--ruleset", "mtg"], "rule 337.1.a"),        # rb-unlike-magic-2010's own
    (["rulings", "check", "--ruleset", "riftbound"], "CR 116.3c"),     # its Magic one
    (["rulings", "check", "--ruleset", "riftbound"], "rule 116.3d"),   # mtg-unlike-riftbound's own
    (["articles", "check", "--ruleset", "riftbound"], "CR 116.1"),
]


@pytest.mark.parametrize("args,words", NOT_LISTED)
def test_the_check_for_a_ruleset_leaves_out_the_citations_of_another(home: Path, args: list[str],
                                                                      words: str) -> None:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exit_code in (0, 1), result.output
    assert words not in result.output, result.output


# ruleset asked for, kind, id, (counted_for, left_out, the citations listed) or None: not listed
LISTED: list[tuple[str, str, str, tuple[str, int, set[str]] | None]] = [
    ("mtg", "ruling", "rb-unlike-magic-2010", ("mtg", 1, {"CR 116.3c"})),
    ("riftbound", "ruling", "rb-unlike-magic-2010", ("riftbound", 1, {"rule 337.1.a"})),
    ("riftbound", "ruling", "mtg-unlike-riftbound", ("riftbound", 1, {"Rules 340.2"})),
    ("mtg", "ruling", "mtg-unlike-riftbound", ("mtg", 1, {"rule 116.3d"})),
    ("mtg", "article", "rb-dated-2011", ("mtg", 1, {"CR 116.1"})),
    ("mtg", "article", "rb-two-cr-citations", ("mtg", 1, {"CR 116.1"})),
]


@pytest.mark.parametrize("ruleset,kind,ident,expected", LISTED)
def test_the_listing_for_a_ruleset_holds_the_citations_counting_for_it(
        excerpt_kb: KnowledgeBase, records: RecordSet, ruleset: str, kind: str, ident: str,
        expected: tuple[str, int, set[str]] | None) -> None:
    listing = records_report(excerpt_kb, kind, ruleset, records=records)  # type: ignore[arg-type]
    found = [r for r in listing["records"] if r["id"] == ident]
    if expected is None:
        assert not found
        return
    (item,) = found
    assert (item["counted_for"], item["left_out"], {c["text"] for c in item["citations"]}) == expected
    assert all(c["ruleset"] == ruleset for c in item["citations"])
    # the counts are those of the citations listed
    assert sum(listing["citations"].values()) == sum(len(r["citations"]) for r in listing["records"])


@pytest.mark.parametrize("ruleset", ["mtg", "riftbound"])
def test_the_listing_for_a_ruleset_holds_every_record_citing_it_and_no_other(
        excerpt_kb: KnowledgeBase, records: RecordSet, ruleset: str) -> None:
    citing = {ident for ident, _, counts_for, *_ in CITATIONS if counts_for == ruleset}
    listed = {r["id"] for kind in ("ruling", "article")
              for r in records_report(excerpt_kb, kind, ruleset, records=records)["records"]}  # type: ignore[arg-type]
    assert listed == citing



@pytest.mark.parametrize("args,code,line", CHECKS)
def test_the_check_names_the_ruleset_a_prefix_named(home: Path, args: list[str], code: int, line: str) -> None:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exit_code == code, result.output
    assert line in result.output, result.output


def test_the_two_cr_citations_are_no_longer_broken(home: Path) -> None:
    result = CliRunner().invoke(main, ["--home", str(home), "articles", "check"])
    assert "rb-two-cr-citations: CR 116.1" not in result.output, result.output
    assert "0 with broken citations" in result.output, result.output


@pytest.fixture(scope="module")
def client(home: Path) -> CheckedClient:
    app = create_app(home)
    assert app.extensions["rulekb"].wait_ready(60)
    return CheckedClient(app)


def _citation(answer: dict[str, Any], text: str) -> dict[str, Any]:
    return next(c for c in answer["citations"] if c["text"] == text)


# url, citation text, field, expected value
API: list[tuple[str, str, str, Any]] = [
    ("/api/v1/rulings/rb-unlike-magic-2010", "CR 116.3c", "ruleset", "mtg"),
    ("/api/v1/rulings/rb-unlike-magic-2010", "CR 116.3c", "named", True),
    ("/api/v1/rulings/rb-unlike-magic-2010", "CR 116.3c", "now", "117.3c"),
    ("/api/v1/rulings/rb-unlike-magic-2010", "rule 337.1.a", "named", False),
    ("/api/v1/articles/rb-two-cr-citations", "CR 116.1", "status", "ok"),
    ("/api/v1/articles/rb-two-cr-citations", "CR 116.1", "written_for", "2026-01-16"),
]


@pytest.mark.parametrize("url,text,key,value", API)
def test_the_api_gives_each_citation_its_ruleset(client: CheckedClient, url: str, text: str, key: str,
                                                  value: Any) -> None:
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    answer = resp.get_json()
    assert _citation(answer, text)[key] == value


# page, what it holds
PAGES: list[tuple[str, str]] = [
    ("/rulings/rb-unlike-magic-2010", 'href="../mtg/2026-01-16/117.3c">117.3c</a> (mtg 2026-01-16)'),
    ("/rulings/rb-unlike-magic-2010", 'href="../mtg/2010-10-01/116.3c">mtg rule 116.3c</a> (of 2010-10-01; in 2026-01-16)'),
    ("/rulings/rb-unlike-magic-2010", 'CR 116.3c <span class="tag">mtg</span>'),
    ("/rulings/rb-unlike-magic-2010", 'href="../riftbound/1.4/337.1.a">337.1.a</a></td>'),  # its own: unnamed
    ("/articles/rb-two-cr-citations", 'href="../mtg/2026-01-16/116.1">116.1</a> (mtg 2026-01-16)'),
    ("/mtg/2026-01-16/117.3c", '/rulings/rb-unlike-magic-2010"'),
    ("/mtg/2026-01-16/116.1", '/articles/rb-two-cr-citations"'),
]


@pytest.mark.parametrize("url,words", PAGES)
def test_the_record_page_links_a_citation_to_its_own_ruleset(client: CheckedClient, url: str, words: str) -> None:
    page = client.get(url)
    assert page.status_code == 200
    assert words in page.get_data(as_text=True)


# url, id, counted_for, left_out: a listing for a ruleset, in the API and the feed
LISTINGS: list[tuple[str, str, str | None, int]] = [
    ("/api/v1/rulings?ruleset=mtg", "rb-unlike-magic-2010", "mtg", 1),
    ("/api/v1/rulings?ruleset=riftbound", "mtg-unlike-riftbound", "riftbound", 1),
    ("/api/v1/articles?ruleset=mtg", "rb-dated-2011", "mtg", 1),
    ("/api/v1/rulings", "rb-unlike-magic-2010", None, 0),
]


@pytest.mark.parametrize("url,ident,counted_for,left_out", LISTINGS)
def test_the_api_lists_a_record_for_the_ruleset_its_citations_count_for(
        client: CheckedClient, url: str, ident: str, counted_for: str | None, left_out: int) -> None:
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    item = next(r for r in resp.get_json()["records"] if r["id"] == ident)
    assert (item["counted_for"], item["left_out"]) == (counted_for, left_out)


def test_the_stale_feed_and_the_site_list_it_for_that_ruleset(client: CheckedClient) -> None:
    feed = client.get("/api/v1/rulings/stale.atom?ruleset=mtg").get_data(as_text=True)
    assert "rb-unlike-magic-2010" in feed
    page = client.get("/rulings/?ruleset=mtg").get_data(as_text=True)
    assert "riftbound 1.3 · listed for its mtg citations" in page


# id, citation, the end of its message: a rule its edition lacks says where it is now, as the
# linker says it ("" for a citation no edition of its ruleset resolves)
ELSEWHERE: list[tuple[str, str, str]] = [
    ("mtg-unlike-riftbound", "rule 116.3d", "2010-10-01's rule 116.3d (If a player has priority and "
                                            "chooses not to take any actions, …) is rule 117.3d in 2026-01-16"),
    ("rb-unlike-magic-2026", "rule 704.5f", "rule 704.5.f does not exist in riftbound 1.3 (a partial edition)"),
]


@pytest.mark.parametrize("ident,text,ending", ELSEWHERE)
def test_a_missing_rule_says_where_it_is_now(excerpt_kb: KnowledgeBase, records: RecordSet, ident: str,
                                            text: str, ending: str) -> None:
    report = record_report(excerpt_kb, _kind(ident), ident, records)  # type: ignore[arg-type]
    c = next(c for c in report["citations"] if c["text"] == text)
    assert c["status"] == "not_found"
    assert c["message"].endswith(ending), c["message"]


@pytest.mark.parametrize("ident", [i for kind, i, _, _ in RECORDS if kind == "article"])
def test_the_linker_reads_a_pinned_articles_citations_where_the_record_does(
        excerpt_kb: KnowledgeBase, records: RecordSet, ident: str) -> None:
    """The same article through ``rulekb link`` (its front matter pins the edition, so it
    is linked in the edition it was written for) and as a record: each citation in the same
    ruleset and edition, the named ones too."""
    from kb.cite.link import lookup

    text = next(content for _, i, _, content in RECORDS if i == ident)
    linked = [(c["text"], c["ruleset"], c["edition"]) for c in lookup(excerpt_kb, text)["citations"]
              if c["status"] == "ok"]
    report = record_report(excerpt_kb, "article", ident, records)
    read = {(c["text"], c["ruleset"], c["written_for"]) for c in report["citations"] if c["number"]}
    assert linked and set(linked) == read
