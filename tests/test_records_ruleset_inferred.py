"""An article with no pin whose citations resolve in one ruleset only (kb/records/citing.py).

With two rulesets built, the linker looks an unpinned article's citations up in every
ruleset's newest edition and, when none of them is missing from the newest, names no
ruleset: such an article (a Riftbound article citing "rule 356.5", no front matter) was
kept as "edition not known", its citations never checked nor counted in any rule's
``cited_by``. A record is now read in the one ruleset in which more of its citations
resolve than in any other, saying so; a tie or no citation resolving stays unread.
On the embedded default (Riftbound 1.3/1.4, Magic 2010-10-01/2026-01-16, excerpts).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.query import KnowledgeBase
from kb.records import import_records, record_report
from kb.store import build

# id, article text, ruleset, edition written for (None: unread), its citations' statuses
# against the newest edition, words of its diagnostics
ARTICLES = [
    ("riftbound-only", "When the chain empties the turn is open (rule 340.2).\n",
     "riftbound", "1.4", ["ok"], "read as riftbound, in which 1 of its 1 citations resolve (0 in mtg)"),
    ("mtg-only", "A creature with toughness 0 dies (CR 704.5f).\n",
     "mtg", "2026-01-16", ["ok"], "read as mtg, in which 1 of its 1 citations resolve (0 in riftbound)"),
    ("riftbound-old", "The newest item's controller gets priority (rule 337.1.c.3).\n",
     "riftbound", "1.3", ["renumbered"], "written for riftbound 1.3"),
    ("one-of-each", "Open again (rule 340.2); toughness 0 dies (CR 704.5f).\n",
     None, None, [], "cannot tell which ruleset it cites"),
    ("nowhere", "Nothing here resolves (rule 999.9).\n",
     None, None, [], "cannot tell which ruleset it cites"),
    ("pinned", "---\nruleset: riftbound\nedition: '1.3'\n---\nOpen again (rule 340.2).\n",
     "riftbound", "1.3", ["ok"], ""),
]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    home = tmp_path_factory.mktemp("records-ruleset")
    articles = tmp_path_factory.mktemp("unpinned-articles")
    for ident, text, *_ in ARTICLES:
        (articles / f"{ident}.md").write_text(text, encoding="utf-8")
    build(home)
    import_records(home, [articles], "article", KnowledgeBase.open(home))
    build(home)
    return KnowledgeBase.open(home)


@pytest.mark.parametrize("ident,text,ruleset,written_for,statuses,said", ARTICLES)
def test_an_unpinned_article_is_read_in_the_ruleset_its_citations_resolve_in(
        kb: KnowledgeBase, ident: str, text: str, ruleset: str | None, written_for: str | None,
        statuses: list[str], said: str) -> None:
    report = record_report(kb, "article", ident)
    assert (report["ruleset"], report["written_for"]) == (ruleset, written_for)
    words = " ".join(str(d["message"]) for d in report["diagnostics"]) + " " + str(report.get("inferred") or "")
    assert said in words, words
    assert [c["status"] for c in report["citations"]] == statuses


def test_an_article_read_in_its_ruleset_is_cited_by_the_rule(kb: KnowledgeBase) -> None:
    cited = kb.rule("riftbound", "340.2", edition="1.4")["cited_by"]
    assert {r["id"] for r in cited["records"]} >= {"riftbound-only", "pinned"}
    assert "one-of-each" not in {r["id"] for r in cited["records"]}
