"""Every edition at once, on a few real Magic releases: what a rules site's maintainer does
with the whole archive (``../shared/corpora/mtg/archive``), on four of its releases.

The maintainer imports the releases one at a time without building (``rulekb import FILE
--no-build``, a bad file among them refused by name and the others kept), builds once, then
adds a release that falls between two others. The home is made once for the module (four
small releases of 2003–2004: about ten seconds of CPU). The properties checked are those that
make 77 editions cost what one does: an edition added builds that edition and its two new
mappings only; a rule's history is right across every edition and paged; a diff between the
two farthest editions loads those two graphs and no other; a bad document named, and nothing
lost when one goes bad later.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kb.errors import QueryError
from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.store import build, current_build, import_document
from tests.conftest import CORPORA, SKIP_REASON, shared_available

#: The releases of the home, oldest first; INSERTED is imported last, between two others.
RELEASES = ["2003-03-15", "2003-12-01", "2004-10-01"]
INSERTED = "2003-10-01"
EVERY = ["2003-03-15", "2003-10-01", "2003-12-01", "2004-10-01"]


def _release(date: str) -> Path:
    return CORPORA / "mtg" / "archive" / f"comprehensive-rules-{date}.txt"


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """A home that imported three releases and a file that is no rules document, built once,
    then had a fourth release imported between two of them; what each step said."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    tmp = tmp_path_factory.mktemp("every")
    home, rules = tmp / "home", tmp / "no-embedded-rules"
    bad = tmp / "comprehensive-rules-2004-01-01.txt"
    bad.write_text("Magic: The Gathering Comprehensive Rules\n\nNothing numbered here at all.\n", encoding="utf-8")
    refused: dict[str, DocumentError] = {}
    for file, edition in [(_release(RELEASES[0]), RELEASES[0]), (bad, "2004-01-01"),
                          *((_release(d), d) for d in RELEASES[1:])]:
        try:  # the maintainer's loop: rulekb import FILE --ruleset mtg --edition E --no-build
            import_document(home, file, ruleset="mtg", edition=edition)
        except DocumentError as exc:
            refused[edition] = exc
    first = build(home, rules=rules)
    messages: list[str] = []
    added: dict = {}
    import_document(home, _release(INSERTED), ruleset="mtg", edition=INSERTED,
                    rebuild=lambda: added.setdefault("report", build(home, rules=rules, progress=messages.append)))
    return {"home": home, "rules": rules, "bad": bad, "refused": refused, "first": first,
            "added": added["report"], "messages": messages}


@pytest.fixture()
def kb(grown: dict) -> KnowledgeBase:
    """A fresh knowledge base on the grown home (no graph loaded, nothing derived)."""
    return KnowledgeBase.open(grown["home"])


def test_a_bad_file_among_many_is_refused_by_name_and_the_others_are_kept(grown: dict) -> None:
    assert list(grown["refused"]) == ["2004-01-01"]
    said = str(grown["refused"]["2004-01-01"])
    assert str(grown["bad"]) in said
    assert grown["first"].built == [f"mtg {d}" for d in RELEASES]
    assert not (grown["home"] / "imports" / "mtg" / "2004-01-01").exists()


def test_an_edition_imported_between_two_others_builds_it_and_its_two_mappings_only(grown: dict) -> None:
    report = grown["added"]
    assert report.built == [f"mtg {INSERTED}"]
    assert sorted(report.reused) == [f"mtg {d}" for d in RELEASES]
    assert sorted(report.mappings_built) == [f"mtg 2003-03-15 -> {INSERTED}", f"mtg {INSERTED} -> 2003-12-01"]
    assert report.mappings_reused == ["mtg 2003-12-01 -> 2004-10-01"]


def test_the_builds_progress_says_how_far_it_is(grown: dict) -> None:
    messages = grown["messages"]
    assert messages[:2] == ["building 1 edition of 4 (3 stored and unchanged)",
                            f"mtg {INSERTED}: read comprehensive-rules-{INSERTED}.txt and built"]
    assert messages[2] == "mapping 2 pairs of neighbouring editions (1 stored and unchanged)"
    assert sorted(m.split("] ", 1)[0] for m in messages[3:]) == ["[1/2", "[2/2"]


@pytest.mark.parametrize("number", ["100.1", "212.1", "420.5e", "502.2"])
def test_a_rules_history_pages_join_to_the_whole_history(kb: KnowledgeBase, number: str) -> None:
    whole = kb.history("mtg", number, "2003-03-15")
    assert whole["total"] == len(EVERY) == len(whole["editions"]) and whole["offset"] == 0
    assert [row["edition"] for row in whole["editions"]] == EVERY
    for size in (1, 3):
        pages = [kb.history("mtg", number, "2003-03-15", limit=size, offset=at) for at in range(0, len(EVERY), size)]
        assert all(p["total"] == len(EVERY) for p in pages)
        assert [row for p in pages for row in p["editions"]] == whole["editions"]
    assert kb.history("mtg", number, "2003-03-15", limit=2, offset=len(EVERY))["editions"] == []


@pytest.mark.parametrize("number", ["100.1", "212.1", "420.5e", "502.2"])
def test_a_rules_history_says_its_number_where_the_mapping_carries_it(kb: KnowledgeBase, number: str) -> None:
    rows = kb.history("mtg", number, "2003-03-15")["editions"]
    for row in rows[1:]:
        carried = kb.map_number("mtg", number, "2003-03-15", row["edition"])["target"]
        assert row["number"] == carried, row["edition"]


@pytest.mark.parametrize("kwargs,status", [({"limit": -1}, 400), ({"offset": -1}, 400)])
def test_a_history_page_out_of_bounds_is_a_clear_error(kb: KnowledgeBase, kwargs: dict, status: int) -> None:
    with pytest.raises(QueryError) as caught:
        kb.history("mtg", "100.1", **kwargs)
    assert caught.value.status == status and "must not be negative" in str(caught.value)


@pytest.mark.parametrize("url,status,total,editions", [
    ("/api/v1/rulesets/mtg/rules/100.1/history", 200, 4, EVERY),
    ("/api/v1/rulesets/mtg/rules/100.1/history?limit=3", 200, 4, EVERY[:3]),
    ("/api/v1/rulesets/mtg/rules/100.1/history?limit=3&offset=3", 200, 4, EVERY[3:]),
    ("/api/v1/rulesets/mtg/rules/100.1/history?offset=9", 200, 4, []),
    ("/api/v1/rulesets/mtg/rules/100.1/history?limit=0", 400, None, None),
    ("/api/v1/rulesets/mtg/rules/100.1/history?offset=-1", 400, None, None),
])
def test_the_history_api_is_paged(grown: dict, url: str, status: int, total: int | None,
                                  editions: list[str] | None) -> None:
    from web import create_app
    answer = create_app(kb=KnowledgeBase.open(grown["home"])).test_client().get(url)
    assert answer.status_code == status, answer.get_data(as_text=True)
    body = answer.get_json()
    if status == 200:
        assert body["total"] == total and [row["edition"] for row in body["editions"]] == editions
    else:
        assert body["error"]["message"]


def test_a_diff_between_the_farthest_editions_loads_those_two_graphs_only(kb: KnowledgeBase) -> None:
    """...and holds no step's whole mapping after composing them (only the composition)."""
    from kb.editions.queries import adjacent_mapping
    assert kb.graphs.loaded() == []
    whole = kb.diff("mtg", EVERY[0], EVERY[-1])
    assert sorted(kb.graphs.loaded()) == [("mtg", EVERY[0]), ("mtg", EVERY[-1])]
    assert not any(adjacent_mapping.is_held(kb, "mtg", a, b) for a, b in zip(EVERY, EVERY[1:]))
    back = kb.edition_mapping("mtg", EVERY[-1], EVERY[0])  # backwards: the steps inverted
    assert {n: c.target for n, c in kb.edition_mapping("mtg", EVERY[0], EVERY[-1]).pairs.items()
            if c.target is not None and back.get(c.target) and back.get(c.target).target == n}
    pages = [kb.diff("mtg", EVERY[0], EVERY[-1], limit=250, offset=at)["entries"]
             for at in range(0, whole["total"], 250)]
    assert [e for page in pages for e in page] == whole["entries"]


def test_a_rules_history_and_the_editions_list_load_no_graph(kb: KnowledgeBase) -> None:
    assert [e["edition"] for e in kb.editions("mtg")] == EVERY
    assert len(kb.history("mtg", "420.5e")["editions"]) == len(EVERY)
    assert kb.graphs.loaded() == []


def test_a_document_gone_bad_later_is_named_and_nothing_is_lost(grown: dict) -> None:
    """A build failing on one document swaps nothing in, and keeps what it built meanwhile:
    once the document is fixed, the next build reuses the edition it had built."""
    home, rules, added = grown["home"], grown["rules"], "2005-02-01"
    before = current_build(home)
    kept = home / "imports" / "mtg" / RELEASES[1] / f"comprehensive-rules-{RELEASES[1]}.txt"
    data = kept.read_bytes()
    import_document(home, _release(added), ruleset="mtg", edition=added)  # --no-build
    kept.write_bytes(b"\x00\x01 not a rules document any more\n" * 50)
    try:
        messages: list[str] = []
        with pytest.raises(DocumentError) as caught:
            build(home, rules=rules, progress=messages.append)
        assert str(kept) in str(caught.value)
        assert any(str(kept) in m and "cannot be built" in m for m in messages), messages
        assert any(f"mtg {added}: read" in m for m in messages), messages
        assert current_build(home) == before  # the last good build still serves every edition
        assert [e["edition"] for e in KnowledgeBase.open(home).editions("mtg")] == EVERY
        kept.write_bytes(data)
        fixed = build(home, rules=rules)
        assert fixed.built == [] and f"mtg {added}" in fixed.reused
        assert fixed.mappings_built == [f"mtg 2004-10-01 -> {added}"]
    finally:
        kept.write_bytes(data)
        shutil.rmtree(home / "imports" / "mtg" / added, ignore_errors=True)
        build(home, rules=rules)  # the module's home as it was: the four releases


def test_warming_reads_no_mapping_and_a_numbers_path_reads_none_whole(kb: KnowledgeBase) -> None:
    """Start-up and a number carried over every edition cost lookups, not every mapping."""
    from kb.editions.queries import adjacent_mapping
    assert not [name for name, _ in kb.warm_steps() if name.startswith("mapping")]
    found = kb.map_number("mtg", "420.5e", EVERY[0], EVERY[-1])
    assert [hop["edition"] for hop in found["path"]] == EVERY[1:]
    assert found["path"][-1]["number"] == found["target"]
    assert not any(adjacent_mapping.is_held(kb, "mtg", a, b) for a, b in zip(EVERY, EVERY[1:]))
    back = kb.map_number("mtg", found["target"], EVERY[-1], EVERY[0])
    assert [hop["edition"] for hop in back["path"]] == EVERY[-2::-1] and back["target"] == "420.5e"
