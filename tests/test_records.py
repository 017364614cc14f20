"""Rulings and articles as records (issue #20): what they cite, cited-by, staleness, search.

The corpus in tests/fixtures/records/ was written for riftbound 1.3 and mtg 2010-10-01;
the default build also holds riftbound 1.4 and mtg 2026-01-16 (excerpts), so every stale
citation below is what a newer edition did to a rule, read from the edition mapping.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.records import (RecordSet, cited_by, import_records, load_folder, load_records,
                        record_report, records_report, ruling_hits, search_rulings)
from kb.records.feed import stale_feed_atom
from kb.records.model import ID_PATTERN

CORPUS = Path(__file__).parent / "fixtures" / "records"
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def records() -> RecordSet:
    return load_folder(CORPUS)


# kind, id, cited number (edition written for), status today, number today
STALENESS = [
    ("ruling", "riftbound-finalizing-keeps-priority", "337.1.a", "reworded", "337.1.a"),
    ("ruling", "riftbound-finalizing-keeps-priority", "337.1.b", "reworded", "337.1.b"),
    ("ruling", "riftbound-finalizing-keeps-priority", "340.2", "ok", "340.2"),
    ("ruling", "riftbound-standard-move-closed-state", "144.1.b", "ok", "144.1.b"),
    ("ruling", "riftbound-standard-move-closed-state", "144.2", "ok", "144.2"),
    ("ruling", "riftbound-passing-priority", "338.1.c", "renumbered", "338.1.b"),
    ("ruling", "riftbound-passing-priority", "339", "ok", "339"),
    ("ruling", "riftbound-activating-abilities", "338.1.b", "removed", None),
    ("ruling", "riftbound-holding-a-battlefield", "187.3", "renumbered", "190.3"),
    ("ruling", "riftbound-holding-a-battlefield", "187.4", "renumbered", "190.4"),
    ("ruling", "mtg-priority-after-casting", "116.3c", "renumbered", "117.3c"),
    ("ruling", "mtg-priority-after-casting", "116.3b", "renumbered", "117.3b"),
    ("ruling", "mtg-legend-rule", "704.5k", "renumbered", "704.5j"),
    ("ruling", "mtg-legend-rule", "704.5f", "ok", "704.5f"),
    ("ruling", "mtg-zero-toughness", "704.5f", "ok", "704.5f"),
    ("ruling", "mtg-zero-toughness", "704.5i", "ok", "704.5i"),
    ("article", "riftbound-chain-walkthrough", "337.1.b", "reworded", "337.1.b"),
    ("article", "riftbound-chain-walkthrough", "340.2", "ok", "340.2"),
    ("article", "riftbound-chain-walkthrough", "187.3", "renumbered", "190.3"),
    ("article", "mtg-priority-primer", "116.1a", "renumbered", "117.1a"),
    ("article", "mtg-priority-primer", "116.4", "renumbered", "117.4"),
    ("article", "mtg-priority-primer", "704.5h", "ok", "704.5h"),
]


@pytest.mark.parametrize("kind,ident,number,status,now", STALENESS)
def test_each_citation_has_its_status_against_the_newest_edition(
        excerpt_kb: KnowledgeBase, records: RecordSet, kind: str, ident: str, number: str,
        status: str, now: str | None) -> None:
    report = record_report(excerpt_kb, kind, ident, records)  # type: ignore[arg-type]
    found = [c for c in report["citations"] if c["number"] == number]
    assert len(found) == 1, report["citations"]
    c = found[0]
    assert (c["status"], c["now"]) == (status, now)
    if status == "reworded" or (status == "renumbered" and c["reworded"]):
        assert c["ops"] and any(op["op"] != "equal" for op in c["ops"])
    else:
        assert c["ops"] is None


def test_every_citation_of_the_corpus_is_in_the_table(excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    listed = {(k, i, n) for k, i, n, _, _ in STALENESS}
    for kind in ("ruling", "article"):
        for item in records_report(excerpt_kb, kind, records=records)["records"]:  # type: ignore[arg-type]
            for c in item["citations"]:
                assert (kind, item["id"], c["number"]) in listed


def test_nothing_is_stale_where_no_cited_rule_changed(excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    report = records_report(excerpt_kb, "ruling", records=records)
    fresh = {i["id"] for i in report["records"] if not i["stale"]}
    assert fresh == {"riftbound-standard-move-closed-state", "mtg-zero-toughness"}
    assert report["stale"] == 6 and report["broken"] == 0


# ruleset, edition, number, rulings citing it, articles citing it
CITED_BY = [
    ("riftbound", "1.4", "337.1.a", 1, 0),
    ("riftbound", "1.4", "337.1.b", 1, 1),
    ("riftbound", "1.4", "340.2", 1, 1),
    ("riftbound", "1.4", "338.1.b", 1, 0),   # 1.3's 338.1.c; 1.3's own 338.1.b was removed
    ("riftbound", "1.4", "190.3", 1, 1),     # 1.3's 187.3
    ("riftbound", "1.4", "190.4", 1, 0),
    ("riftbound", "1.4", "144.1.b", 1, 0),
    ("riftbound", "1.4", "144.1.a", 0, 0),
    ("riftbound", "1.3", "338.1.b", 1, 0),   # the removed one, in its own edition
    ("riftbound", "1.3", "187.3", 1, 1),
    ("mtg", "2026-01-16", "117.3c", 1, 0),
    ("mtg", "2026-01-16", "117.3b", 1, 0),
    ("mtg", "2026-01-16", "704.5f", 2, 0),
    ("mtg", "2026-01-16", "704.5i", 1, 0),
    ("mtg", "2026-01-16", "704.5k", 0, 0),   # 2010's 704.5m
    ("mtg", "2026-01-16", "704.5j", 1, 0),   # the legend rule: 2010's 704.5k
    ("mtg", "2026-01-16", "117.1a", 0, 1),
    ("mtg", "2026-01-16", "117.4", 0, 1),
    ("mtg", "2026-01-16", "704.5h", 0, 1),
    ("mtg", "2010-10-01", "704.5k", 1, 0),
]


@pytest.mark.parametrize("ruleset,edition,number,rulings,articles", CITED_BY)
def test_cited_by_counts_records_citing_the_rule_or_its_earlier_number(
        excerpt_kb: KnowledgeBase, records: RecordSet, ruleset: str, edition: str, number: str,
        rulings: int, articles: int) -> None:
    found = cited_by(excerpt_kb, ruleset, edition, number, records)
    assert (found["rulings"], found["articles"], found["total"]) == (rulings, articles, rulings + articles)
    assert len(found["records"]) == found["total"]


def test_an_article_pinned_with_an_unknown_key_is_read_as_written_for_that_edition(
        excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    report = record_report(excerpt_kb, "article", "mtg-priority-primer", records)
    assert (report["ruleset"], report["written_for"], report["newest"]) == ("mtg", "2010-10-01", "2026-01-16")
    assert any("'rules'" in d["message"] for d in report["diagnostics"])


def test_a_citation_of_a_rule_its_edition_lacks_is_not_found(excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    (tmp_path / "rulings").mkdir()
    (tmp_path / "rulings" / "typo.yaml").write_text(
        "id: typo\nquestion: Q?\nanswer: See rule 999.9.\nsource: s\ndate: 2026-04-01\n"
        "ruleset: riftbound\nedition: '1.3'\n", encoding="utf-8")
    report = record_report(excerpt_kb, "ruling", "typo", load_folder(tmp_path))
    assert [c["status"] for c in report["citations"]] == ["not_found"]
    assert report["broken"] == 1 and not report["stale"]


# file name, content, words the error names
BAD_RULINGS = [
    ("broken.yaml", "id: x\nquestion: [unclosed\n", "not valid YAML"),
    ("missing.yaml", "id: x\nquestion: Q?\nanswer: A.\nsource: s\ndate: 2026-04-01\nruleset: riftbound\n",
     "field 'edition' is missing"),
    ("unknown-edition.yaml", "id: x\nquestion: Q?\nanswer: A.\nsource: s\ndate: 2026-04-01\n"
     "ruleset: riftbound\nedition: '9.9'\n", "field 'edition' '9.9' is not an edition of riftbound"),
    ("unknown-ruleset.yaml", "id: x\nquestion: Q?\nanswer: A.\nsource: s\ndate: 2026-04-01\n"
     "ruleset: chess\nedition: '1'\n", "field 'ruleset' 'chess' is not a built ruleset"),
    ("bad-date.yaml", "id: x\nquestion: Q?\nanswer: A.\nsource: s\ndate: last week\n"
     "ruleset: riftbound\nedition: '1.3'\n", "field 'date' 'last week' is not a date"),
    ("bad-id.yaml", "id: Not An Id\nquestion: Q?\nanswer: A.\nsource: s\ndate: 2026-04-01\n"
     "ruleset: riftbound\nedition: '1.3'\n", "field 'id'"),
    ("reserved-id.yaml", "id: search\nquestion: Q?\nanswer: A.\nsource: s\ndate: 2026-04-01\n"
     "ruleset: riftbound\nedition: '1.3'\n", "field 'id' 'search' is a word the rulings' addresses use"),
    ("list-item.yaml", "- just text\n", "ruling 1: a ruling is a mapping"),
    ("no-front-matter.md", "Just an answer.\n", "starts with front matter"),
    ("too-many.yaml", "- {id: x}\n" * 1001, "holds 1001 rulings; at most 1000"),
    ("answer-twice.md", "---\nid: x\nanswer: A.\n---\nB.\n", "field 'answer'"),
]


@pytest.mark.parametrize("name,content,words", BAD_RULINGS)
def test_a_bad_ruling_is_refused_naming_the_file_and_the_field(
        excerpt_kb: KnowledgeBase, tmp_path: Path, name: str, content: str, words: str) -> None:
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    home = tmp_path / "home"
    with pytest.raises(DocumentError) as caught:
        import_records(home, [source], "ruling", excerpt_kb)
    messages = [str(d) for d in caught.value.diagnostics]
    assert any(words in m and str(source) in m for m in messages), messages
    assert not (home / "records" / "rulings").exists() or not any((home / "records" / "rulings").iterdir())


def test_an_article_pinning_an_edition_that_is_not_built_is_refused(excerpt_kb: KnowledgeBase,
                                                                     tmp_path: Path) -> None:
    source = tmp_path / "a.md"
    source.write_text("---\nruleset: riftbound\nedition: '0.9'\n---\nrule 337.1.a\n", encoding="utf-8")
    with pytest.raises(DocumentError, match="field 'edition' '0.9'"):
        import_records(tmp_path / "home", [source], "article", excerpt_kb)


def test_import_copies_every_record_and_a_second_import_replaces_by_id(
        excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = import_records(home, [CORPUS / "rulings"], "ruling", excerpt_kb)
    assert len(first.written) == 8 and not any(replaced for _, replaced in first.written)
    again = import_records(home, [CORPUS / "rulings" / "mtg-legend-rule.yaml"], "ruling", excerpt_kb)
    assert [(r.id, replaced) for r, replaced in again.written] == [("mtg-legend-rule", True)]
    stored = load_records(home, embedded=False)
    assert len(stored.of_kind("ruling")) == 8 and not stored.diagnostics
    assert stored == load_records(home, embedded=False)  # unchanged files: the same key
    with_samples = load_records(home)  # the samples of rules/records/ besides
    assert {r.id for r in with_samples.records} >= {"riftbound-who-acts-after-finalizing"}
    assert len(with_samples.of_kind("ruling")) == 9
    # no temporary file left; beside the records, where they were imported from
    assert [p.name for p in (home / "records" / "rulings").glob(".*")] == [".imported.json"]


def test_a_list_of_rulings_in_one_file_is_kept_as_one_file_each(excerpt_kb: KnowledgeBase,
                                                                 tmp_path: Path) -> None:
    source = tmp_path / "two.yaml"
    source.write_text("".join(
        f"- id: r{i}\n  question: Q{i}?\n  answer: See rule 337.1.a.\n  source: s\n  date: 2026-04-01\n"
        f"  ruleset: riftbound\n  edition: '1.3'\n" for i in (1, 2)), encoding="utf-8")
    import_records(tmp_path / "home", [source], "ruling", excerpt_kb)
    assert sorted(p.name for p in (tmp_path / "home" / "records" / "rulings").iterdir()
                  if not p.name.startswith(".")) == ["r1.yaml", "r2.yaml"]


# query, the ruling found first
SEARCHES = [
    ("does finalizing my spell pass priority", "riftbound-finalizing-keeps-priority"),
    ("two legendary creatures with the same name", "mtg-legend-rule"),
    ("regenerate a creature with zero toughness", "mtg-zero-toughness"),
    ("who gets priority after casting an instant", "mtg-priority-after-casting"),
    ("standard move during a closed state", "riftbound-standard-move-closed-state"),
]


@pytest.mark.parametrize("query,first", SEARCHES)
def test_a_judges_question_finds_the_earlier_ruling_first(excerpt_kb: KnowledgeBase, records: RecordSet,
                                                          query: str, first: str) -> None:
    hits = ruling_hits(excerpt_kb, query, records=records)
    assert hits and hits[0][0].id == first
    assert all(score > 0 for _, score, _ in hits)


def test_a_ruling_hit_brings_in_the_rules_it_cites_as_numbered_today(excerpt_kb: KnowledgeBase,
                                                                       records: RecordSet) -> None:
    data = search_rulings(excerpt_kb, "holding a battlefield my opponent moved onto", "riftbound",
                          records=records)
    hit = data["hits"][0]
    assert hit["ruling"]["id"] == "riftbound-holding-a-battlefield"
    assert hit["rules"] == {"ruleset": "riftbound", "edition": "1.4", "numbers": ["190.3", "190.4"]}
    assert all(h["ruling"]["ruleset"] == "riftbound" for h in data["hits"])


# (query, the rulings the ruling search shows: only those scoring at least half the best)
SHOWN = [
    ("my opponent moved a unit onto my battlefield, when do I lose it", ["riftbound-holding-a-battlefield"]),
    ("standard move during a closed state", ["riftbound-standard-move-closed-state"]),
    ("If I have priority and do nothing, what happens?", ["riftbound-passing-priority"]),
]


@pytest.mark.parametrize("query,shown", SHOWN)
def test_the_ruling_search_shows_only_the_rulings_that_really_match(
        excerpt_kb: KnowledgeBase, records: RecordSet, query: str, shown: list[str]) -> None:
    assert len(ruling_hits(excerpt_kb, query, "riftbound", records=records)) > len(shown)  # weaker ones exist
    data = search_rulings(excerpt_kb, query, "riftbound", records=records)
    assert [h["ruling"]["id"] for h in data["hits"]] == shown


def test_words_no_ruling_has_find_nothing(excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    assert ruling_hits(excerpt_kb, "xylophone quasar", records=records) == []


def test_the_stale_feed_is_atom_with_one_entry_per_stale_ruling(excerpt_kb: KnowledgeBase,
                                                                 records: RecordSet) -> None:
    doc = stale_feed_atom(excerpt_kb, lambda kind, ident: f"/rulings/{ident}", "/rulings",
                          records=records)
    root = ET.fromstring(doc)
    assert root.tag == f"{ATOM}feed"
    entries = root.findall(f"{ATOM}entry")
    assert len(entries) == 6
    titles = {e.findtext(f"{ATOM}title") for e in entries}
    assert "Ruling riftbound-passing-priority: rule 338.1.c changed in riftbound 1.4" in titles
    for e in entries:
        assert e.findtext(f"{ATOM}id") and e.findtext(f"{ATOM}updated")
        assert e.find(f"{ATOM}link").get("href").startswith("/rulings/")


def test_rulings_as_evidence_rank_up_the_rules_they_cite(excerpt_kb: KnowledgeBase, records: RecordSet) -> None:
    """The seam for the rule search (EditionSearcher.search(evidence=...)): a question an
    earlier ruling answered brings in the rules it cites, as numbered in the searched edition."""
    from kb.query import searcher
    from kb.records.search import ruling_evidence
    from kb.search import parse_query
    source = ruling_evidence(excerpt_kb, "riftbound", "1.4", records=records)
    question = parse_query("my opponent moved onto my battlefield, when do I lose control")
    found = {e.number: e for e in source(question)}
    assert {"190.3", "190.4"} <= set(found)  # 1.3's 187.3 and 187.4
    assert all(0 < e.strength <= 1.0 and "riftbound-holding-a-battlefield" in e.reason
               for n, e in found.items() if n in ("190.3", "190.4"))
    plain = searcher(excerpt_kb, "riftbound", "1.4").search(question, limit=20)
    helped = searcher(excerpt_kb, "riftbound", "1.4").search(question, limit=20, evidence=source)
    rank = {n: i for i, n in enumerate(r["number"] for r in helped["results"])}
    before = {n: i for i, n in enumerate(r["number"] for r in plain["results"])}
    assert "190.4" in rank and rank["190.4"] <= before.get("190.4", 99)


def test_a_record_imported_is_read_at_once_by_the_process_that_imported_it(
        excerpt_kb: KnowledgeBase, tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert load_records(home, embedded=False).records == ()
    import_records(home, [CORPUS / "rulings" / "mtg-legend-rule.yaml"], "ruling", excerpt_kb)
    assert [r.id for r in load_records(home, embedded=False).records] == ["mtg-legend-rule"]


def test_warming_derives_what_the_first_rule_answer_needs(excerpt_home: Path) -> None:
    from kb.records import current_records
    from kb.records.citing import cited_by_index, staleness
    from kb.records.search import ruling_index
    kb = KnowledgeBase.open(excerpt_home)
    assert "rulings and articles" in [name for name, _ in kb.warm_steps()]
    kb.warm()
    records = current_records(kb)
    assert staleness.is_held(kb, records) and ruling_index.is_held(kb, records)
    assert cited_by_index.is_held(kb, records, "riftbound", "1.4")


def test_the_ruling_ids_the_readme_shows_are_ids_an_import_accepts() -> None:
    # The README's example hit named a ruling 'R-12', an id `rulings import` refuses.
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    shown = re.findall(r"cited by ruling (\S+?):", readme)
    assert shown and all(ID_PATTERN.match(ident) for ident in shown), shown
