"""The compare page of a step between neighbouring editions, read from what the build stored
(kb.editions.lineage.stored_comparison, web/site/compare.py).

A build stores each step's changes, both editions' rule texts and the mapping; the compare
page of a step reads those instead of diffing two loaded graphs, so a server that unloaded
the step's editions answers it without loading them again. On the embedded default (Riftbound
1.3 → 1.4, Magic 2010-10-01 → 2026-01-16): the stored comparison has the diff's counts and its
entries in its order (unchanged rules as their numbers), for every chapter asked; the page is
the same page, byte for byte, as the one the diff makes; and no graph is loaded for it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kb.editions.lineage import stored_comparison
from kb.errors import QueryError
from kb.query import KnowledgeBase
from web import create_app
from web.site import compare as compare_module

# ruleset, older, newer, chapter (None: the whole step), page
STEPS: list[tuple[str, str, str, str | None, int]] = [
    ("riftbound", "1.3", "1.4", None, 1),
    ("riftbound", "1.3", "1.4", None, 2),
    ("riftbound", "1.3", "1.4", "300", 1),
    ("riftbound", "1.3", "1.4", "337", 1),
    ("riftbound", "1.3", "1.4", "337.1", 1),
    ("mtg", "2010-10-01", "2026-01-16", None, 1),
    ("mtg", "2010-10-01", "2026-01-16", "116", 1),
    ("mtg", "2010-10-01", "2026-01-16", "117", 1),
    ("mtg", "2010-10-01", "2026-01-16", "704", 1),
]

# the fields of an entry the page reads (an unchanged rule is stored as its numbers only)
KEY_FIELDS = ("status", "kind", "old_number", "new_number", "old_chapter", "new_chapter", "reworded", "renumbered")


def keys(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(e[k] for k in KEY_FIELDS) for e in entries]


@pytest.mark.parametrize("ruleset,older,newer,chapter", sorted({s[:4] for s in STEPS}, key=str))
def test_a_stored_comparison_is_the_diff_with_its_unchanged_rules(excerpt_home: Path, ruleset: str, older: str,
                                                                  newer: str, chapter: str | None) -> None:
    kb = KnowledgeBase.open(excerpt_home)
    stored = stored_comparison(kb, ruleset, older, newer, chapter)
    assert stored is not None
    assert kb.graphs.loaded() == [], "no edition's graph is loaded for it"  # type: ignore[attr-defined]
    d = kb.diff(ruleset, older, newer, chapter=chapter, unchanged=True)
    assert stored["summary"] == d["summary"] and stored["chapters"] == d["chapters"]
    assert stored["from"] == d["from"] and stored["to"] == d["to"]
    assert keys(stored["entries"]) == keys(d["entries"]), "the diff's entries, in its order"
    changes = [e for e in d["entries"] if e["status"] != "unchanged"]
    assert [e for e in stored["entries"] if e["status"] != "unchanged"] == changes, "each change as the diff says it"
    if chapter is None:
        assert any(e["status"] == "unchanged" for e in stored["entries"]), "the unchanged rules are there too"


@pytest.mark.parametrize("chapter,status", [("999", 404), ("abc", 400)])
def test_a_chapter_neither_edition_has_is_the_diffs_error(excerpt_home: Path, chapter: str, status: int) -> None:
    kb = KnowledgeBase.open(excerpt_home)
    for compare in (lambda: stored_comparison(kb, "mtg", "2010-10-01", "2026-01-16", chapter),
                    lambda: kb.diff("mtg", "2010-10-01", "2026-01-16", chapter=chapter, unchanged=True)):
        with pytest.raises(QueryError) as err:
            compare()
        assert err.value.status == status


def test_a_knowledge_base_held_in_memory_has_no_stored_comparison(excerpt_kb: KnowledgeBase) -> None:
    memory = KnowledgeBase.from_graphs([excerpt_kb.edition("riftbound", "1.3"), excerpt_kb.edition("riftbound", "1.4")])
    assert stored_comparison(memory, "riftbound", "1.3", "1.4") is None


def _pages(home: Path, stored: bool, monkeypatch: pytest.MonkeyPatch) -> dict[tuple[Any, ...], str]:
    """Each compare page of STEPS (and one comparison the other way round), from a fresh
    app; with ``stored`` False the page is made from the diff as before."""
    with monkeypatch.context() as patch:
        if not stored:
            patch.setattr(compare_module, "stored_comparison", lambda *args, **kwargs: None)
        app = create_app(home)
        assert app.extensions["rulekb"].wait_ready(120)
        client = app.test_client()
        out = {}
        for ruleset, older, newer, chapter, page in [*STEPS, ("riftbound", "1.4", "1.3", None, 1)]:
            url = f"/{ruleset}/compare/{older}/{newer}?page={page}" + (f"&chapter={chapter}" if chapter else "")
            resp = client.get(url)
            assert resp.status_code == 200, (url, resp.data[:300])
            out[(ruleset, older, newer, chapter, page)] = resp.get_data(as_text=True)
        return out


def test_the_page_of_a_step_is_the_page_the_diff_makes(excerpt_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from_stored, from_diff = _pages(excerpt_home, True, monkeypatch), _pages(excerpt_home, False, monkeypatch)
    for key, html in from_diff.items():
        assert from_stored[key] == html, key
    assert "unchanged rule" in from_stored[("riftbound", "1.3", "1.4", None, 1)]


def test_the_page_of_a_step_loads_no_graph(excerpt_home: Path) -> None:
    app = create_app(excerpt_home)
    kb = KnowledgeBase.open(excerpt_home)  # fresh: nothing loaded, nothing derived
    with app.test_request_context("/riftbound/compare/1.3/1.4"):
        ctx = compare_module.compare_page(kb, "riftbound", "1.3", "1.4")
    assert kb.graphs.loaded() == []  # type: ignore[attr-defined]
    assert ctx["summary"]["unchanged"] > 0 and ctx["blocks"]
