"""The report's entries are made when first read (kb.cite.mdit.PlacedEntries): a render
that only wants HTML does not place its citations in the source. Read, they are what the
linker listed before: a list of dicts in document order, each with its span, line and
column, the same as the facade's answer (whose entries are made while it links:
mdit.PLACE_NOW_KEY), and each place's offsets in ``resolutions`` are its entry's. Each document is a row: its Markdown and, per citation, (text, line, column)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from markdown_it import MarkdownIt

from kb.cite import rule_citations
from kb.cite.mdit import ENV_KEY, FootnoteEntries, PlacedEntries
from kb.query import KnowledgeBase

DOCUMENTS: list[tuple[str, list[tuple[str, int, int]]]] = [
    ("See rule 337.1 and rule 337.1.\n", [("rule 337.1", 1, 5), ("rule 337.1", 1, 20)]),
    ("# Rule 337.1\n\n> rule 337.2 and\n> rule 999.9\n", [
        ("Rule 337.1", 1, 3), ("rule 337.2", 3, 3), ("rule 999.9", 4, 3)]),
    ("- `rule 337.1` is code, rule 337.2 is not\n", [("rule 337.2", 1, 25)]),
    ("[rule 337.1](x) and rules 337.1–337.3\n", [("rules 337.1–337.3", 1, 21)]),
    ("No citation.\n", []),
    ('Rule 337.1 says: "a quotation" and rule 999.9 is none.\n', [("Rule 337.1", 1, 1), ("rule 999.9", 1, 36)]),
    ("A table:\n\n| a | rule 337.1 |\n|---|---|\n| rules 337.1 and 337.2 | x |\n", [
        ("rule 337.1", 3, 7), ("rules 337.1", 5, 3), ("337.2", 5, 19)]),
]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


def _rendered(kb: KnowledgeBase, text: str) -> dict[str, Any]:
    env: dict[str, Any] = {}
    MarkdownIt("commonmark", {"html": False}).enable("table").use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4").render(text, env)
    return env[ENV_KEY]


@pytest.mark.parametrize("text,expected", DOCUMENTS, ids=[t for t, _ in DOCUMENTS])
def test_entries_made_when_read_are_the_facades(kb: KnowledgeBase, text: str,
                                                expected: list[tuple[str, int, int]]) -> None:
    report = _rendered(kb, text)
    entries = report["citations"]
    assert isinstance(entries, PlacedEntries) and len(entries) == len(expected)
    listed = list(entries)
    assert [(e["text"], e["line"], e["column"]) for e in listed] == expected
    assert entries == listed and list(entries) == listed  # made once, then the same dicts
    assert [entries[i] for i in range(len(listed))] == listed and entries[1:] == listed[1:]
    facade = kb.citations_annotate(text, "riftbound", "1.4")
    assert json.loads(json.dumps(listed)) == json.loads(json.dumps(facade["citations"]))
    spans = [(start, end) for start, end, _ in report["resolutions"]]
    assert spans == [(e["start"], e["end"]) for e in listed]
    assert all(text[e["start"]:e["end"]] == e["text"] for e in listed)


def test_resolutions_read_first_place_the_entries_too(kb: KnowledgeBase) -> None:
    """Either may be read first: the places are found once, for both."""
    text = "rule 337.1, then (rule 337.2)\nand rule 337.1 again.\n"
    first = _rendered(kb, text)
    spans = [(start, end) for start, end, _ in first["resolutions"]]
    second = _rendered(kb, text)
    assert list(second["citations"]) == list(first["citations"])
    assert spans == [(e["start"], e["end"]) for e in first["citations"]]


@pytest.mark.parametrize("text", [t for t, _ in DOCUMENTS])
def test_footnote_entries_made_when_read_are_the_facades(kb: KnowledgeBase, text: str) -> None:
    """``footnotes`` is made when read too (mdit.FootnoteEntries): its length is known
    before, and read it is the facade's list, made once."""
    notes = _rendered(kb, text)["footnotes"]
    assert isinstance(notes, FootnoteEntries)
    count = len(notes)
    listed = list(notes)
    assert len(listed) == count and notes == listed and notes[:] == listed and list(notes)[0:1] == listed[0:1]
    assert listed == kb.citations_annotate(text, "riftbound", "1.4")["footnotes"]
