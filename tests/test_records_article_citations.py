"""A stored article cites what ``rulekb link`` finds in it, no more (acceptance F6).

``articles add``/``check`` and the API read an article's citations with the linker's
Markdown-aware finder (kb.cite.link.read_article): a number in a code span, a fenced or
indented code block is no citation there, as it is none for ``rulekb link``; the ruleset
an unpinned article is read in is told from those citations only. On the embedded default.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.cite.link import link_article
from kb.query import KnowledgeBase
from kb.records import import_records, record_report
from kb.store import build

PIN = "---\nruleset: riftbound\nedition: '1.4'\n---\n"
# id, article, the citations (text, line) both must find
ARTICLES = [
    ("code-span", PIN + "The chain (rule 340.2), not `rule 100.1` in my signature.\n",
     [("rule 340.2", 5)]),
    ("fenced", PIN + "See rule 340.2.\n\n```\nrule 100.1 is quoted code\n```\n",
     [("rule 340.2", 5)]),
    ("indented", PIN + "See rule 340.2.\n\n    rule 100.1 in an indented block\n",
     [("rule 340.2", 5)]),
    ("plain", PIN + "Rule 340.2 and rule 100.1.\n", [("Rule 340.2", 5), ("rule 100.1", 5)]),
    ("emphasis", PIN + "*rule 340.2* and **rule 337.1**\n", [("rule 340.2", 5), ("rule 337.1", 5)]),
    # unpinned: the ruleset is told from the linker's citations; the code span's does not count
    ("unpinned", "Open again (rule 340.2); `CR 704.5f` is code.\n", [("rule 340.2", 1)]),
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    home = tmp_path_factory.mktemp("records-article-citations")
    articles = tmp_path_factory.mktemp("articles-with-code")
    for ident, text, _ in ARTICLES:
        (articles / f"{ident}.md").write_text(text, encoding="utf-8")
    build(home)
    import_records(home, [articles], "article", KnowledgeBase.open(home))
    build(home)
    return KnowledgeBase.open(home)


@pytest.mark.parametrize(("ident", "text", "expected"), ARTICLES)
def test_stored_article_cites_what_the_linker_finds(kb: KnowledgeBase, ident: str, text: str,
                                                    expected: list[tuple[str, int]]) -> None:
    linked = link_article(kb, text, fmt="json")
    assert [(c["text"], c["line"]) for c in linked["citations"]] == expected
    stored = record_report(kb, "article", ident)
    assert [(c["text"], c["line"]) for c in stored["citations"]] == expected


def test_unpinned_article_is_read_in_the_ruleset_of_its_citations(kb: KnowledgeBase) -> None:
    stored = record_report(kb, "article", "unpinned")
    assert stored["ruleset"] == "riftbound"
    assert "1 of 1 citations" in str(stored.get("inferred"))
