"""The test corpus of records against the full official documents (../shared/corpora).

Written for riftbound 1.3 and mtg 2010-10-01, read after every edition is loaded (1.4 and
2026-01-16 among them): each citation's status must be what the one edition mapping says of
its rule (``map_number``, the API's /map), every changed one reported with its number today
or its word changes, and nothing reported for a rule that did not change. Skips, saying
why, without ../shared.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.query import KnowledgeBase
from kb.records import STALE, cited_by, load_folder, records_report
from tests.conftest import requires_shared

CORPUS = Path(__file__).parent / "fixtures" / "records"

pytestmark = requires_shared


def expected_status(kb: KnowledgeBase, ruleset: str, number: str, written_for: str) -> tuple[str, str | None]:
    newest = kb.edition(ruleset).edition.name
    m = kb.map_number(ruleset, number, written_for, newest)
    if m["target"] is None:
        return "removed", None
    if m["target"] != number:
        return "renumbered", m["target"]
    return ("reworded" if m["reworded"] else "ok"), m["target"]


@pytest.mark.parametrize("kind", ["ruling", "article"])
def test_each_citation_is_what_the_edition_mapping_says(full_kb: KnowledgeBase, kind: str) -> None:
    records = load_folder(CORPUS)
    report = records_report(full_kb, kind, records=records)  # type: ignore[arg-type]
    assert report["total"] == len(records.of_kind(kind)) and report["broken"] == 0
    for item in report["records"]:
        assert item["written_for"] in ("1.3", "2010-10-01"), item["id"]
        for c in item["citations"]:
            status, now = expected_status(full_kb, item["ruleset"], c["number"], item["written_for"])
            assert (c["status"], c["now"]) == (status, now), (item["id"], c)
            if c["status"] == "reworded" or c["reworded"]:
                assert any(op["op"] != "equal" for op in c["ops"]), (item["id"], c)
            if c["status"] not in STALE:
                assert c["ops"] is None and c["message"] == "", (item["id"], c)
        assert item["stale"] == any(c["status"] in STALE for c in item["citations"])


def test_cited_by_in_the_newest_editions_counts_every_record_through_the_mapping(full_kb: KnowledgeBase) -> None:
    records = load_folder(CORPUS)
    expected: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for kind in ("ruling", "article"):
        for item in records_report(full_kb, kind, records=records)["records"]:
            for c in item["citations"]:
                if c["now"]:
                    expected.setdefault((item["ruleset"], c["now"]), set()).add((kind, item["id"]))
    assert expected
    for (ruleset, number), citing in expected.items():
        edition = full_kb.edition(ruleset).edition.name
        found = cited_by(full_kb, ruleset, edition, number, records)
        assert {(r["kind"], r["id"]) for r in found["records"]} == citing, (ruleset, number)
        assert found["total"] == len(citing)
