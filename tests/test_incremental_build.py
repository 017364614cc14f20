"""Incremental, content-addressed builds (issue #19): an edition is built once per content
and reused by every later build; mappings between neighbours are stored per pair; graphs
load lazily with a bound; a damaged stored edition is built again or reported clearly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kb.editions.lineage import stored_history
from kb.editions.mapping import map_editions
from kb.errors import QueryError
from kb.model import DocumentError
import kb.objects
from kb.objects import edition_key, read_mapping
from kb.store import (LazyEditions, _index_holds_model_answers, _worker_context, build, current_build,
                      import_document, load_edition)

DOC = """# Test Rules

Last Updated: {date}

## 100. Concepts

### 101. Basics

**102.** A Task is one or more steps. See rule 103.

**103.** Priority is the singular exclusive right to act.

**103.1.** {passing}

**104.** {last}
"""

# (edition, date, text of 103.1, text of 104): 104 is reworded in 1.1, 103.1 in 1.2.
EDITIONS = [
    ("1.0", "2026-01-01", "A player who passes gives Priority away.", "Focus is the right to act in a showdown."),
    ("1.1", "2026-02-01", "A player who passes gives Priority away.", "Focus is the permission to act in a showdown."),
    ("1.2", "2026-03-01", "A player who passes Priority gives it away.", "Focus is the permission to act in a showdown."),
]


def write_edition(tmp: Path, edition: str, date: str, passing: str, last: str) -> Path:
    path = tmp / f"rules-{edition}.md"
    path.write_text(DOC.format(date=date, passing=passing, last=last), encoding="utf-8")
    return path


def home_with(tmp: Path, editions: list[tuple[str, str, str, str]]) -> Path:
    """A data home holding the given test editions (no embedded corpus), built."""
    home = tmp / "home"
    for edition, date, passing, last in editions:
        import_document(home, write_edition(tmp, edition, date, passing, last), ruleset="test", edition=edition)
    build(home, rules=tmp / "no-rules")
    return home


def manifest(home: Path) -> dict:
    build_dir = current_build(home)
    assert build_dir is not None
    return json.loads((build_dir / "manifest.json").read_text(encoding="utf-8"))


def graph_inode(home: Path, edition: str) -> int:
    build_dir = current_build(home)
    assert build_dir is not None
    return os.stat(build_dir / "editions" / "test" / f"{edition}.pickle").st_ino


def test_an_import_builds_only_the_new_edition_and_its_mapping(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS[:2])
    before = {e: graph_inode(home, e) for e in ("1.0", "1.1")}
    keys_before = manifest(home)["contents"]
    report = build(home, rules=tmp_path / "no-rules")  # nothing changed: everything reused
    assert (report.built, report.mappings_built) == ([], [])
    assert sorted(report.reused) == ["test 1.0", "test 1.1"]
    edition, date, passing, last = EDITIONS[2]
    import_document(home, write_edition(tmp_path, edition, date, passing, last), ruleset="test", edition=edition)
    report = build(home, rules=tmp_path / "no-rules")
    assert report.built == ["test 1.2"]
    assert sorted(report.reused) == ["test 1.0", "test 1.1"]
    assert report.mappings_built == ["test 1.1 -> 1.2"]
    assert report.mappings_reused == ["test 1.0 -> 1.1"]
    log = manifest(home)["log"]
    assert log["built"] == ["test 1.2"] and log["mappings_built"] == ["test 1.1 -> 1.2"]
    # the unchanged editions are the very same files (hard links to one stored object)
    assert {e: graph_inode(home, e) for e in ("1.0", "1.1")} == before
    keys_after = manifest(home)["contents"]
    assert {k: v for k, v in keys_after.items() if k != "test 1.2"} == keys_before


@pytest.mark.parametrize("change", [
    {"document": b"other bytes"},
    {"date": "2026-01-02"},
    {"title": "Another title"},
    {"partial": True},
    {"format": "riftbound-md"},
    {"edition": "1.0b"},
])
def test_a_change_of_content_or_metadata_changes_the_edition_key(change: dict) -> None:
    meta = {"ruleset": "test", "edition": "1.0", "date": "2026-01-01", "title": "", "partial": False,
            "format": ""}
    document = change.pop("document", b"the document")
    assert edition_key(b"the document", meta) != edition_key(document, {**meta, **change})
    assert edition_key(b"the document", meta) == edition_key(b"the document", dict(meta))


# the package code that changed, then what the next build makes again: editions, mappings
CODE_CHANGES = [
    ("search", ["test 1.0", "test 1.1"], []),
    ("timing", [], []),
    ("read", ["test 1.0", "test 1.1"], ["test 1.0 -> 1.1"]),
    ("editions/mapping.py", [], ["test 1.0 -> 1.1"]),
]


@pytest.mark.parametrize("changed,editions,mappings", CODE_CHANGES)
def test_a_code_change_rebuilds_only_what_depends_on_that_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               changed: str, editions: list[str],
                                                               mappings: list[str]) -> None:
    """A search index is remade when the search code changes, but the mappings between the
    graphs stay; no timing model cites this ruleset, so a timing edit remakes nothing."""
    home = home_with(tmp_path, EDITIONS[:2])
    real = kb.objects.code_version
    monkeypatch.setattr(kb.objects, "code_version",
                        lambda parts: real(parts) + ("+edited" if changed in parts else ""))
    report = build(home, rules=tmp_path / "no-rules")
    assert (sorted(report.built), report.mappings_built) == (editions, mappings)


# ruleset, edition, whether its search index holds the timing model's answers
MODEL_ANSWERS = [
    ("mtg", "2026-01-16", True),
    ("mtg", "2010-10-01", True),
    ("mtg", "2019-10-04", False),
    ("riftbound", "1.4", True),
    ("riftbound", "1.3", False),
    ("riftbound-tournament", "2026-05-02", False),
]


@pytest.mark.parametrize("ruleset,edition,holds", MODEL_ANSWERS)
def test_only_the_editions_a_timing_model_cites_depend_on_its_code(ruleset: str, edition: str, holds: bool) -> None:
    assert _index_holds_model_answers(ruleset, edition) is holds


def test_the_mappings_between_neighbours_are_stored_with_the_build(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS)
    build_dir = current_build(home)
    assert build_dir is not None
    stored = manifest(home)["mappings"]
    assert [(m["from"], m["to"]) for m in stored] == [("1.0", "1.1"), ("1.1", "1.2")]
    for m in stored:
        kept = read_mapping(build_dir / "mappings" / "test" / m["from"] / f"{m['to']}.sqlite")
        fresh = map_editions(load_edition(build_dir, "test", m["from"]), load_edition(build_dir, "test", m["to"]))
        assert kept.pairs == fresh.pairs and kept.added == fresh.added
    assert (build_dir / "rules" / "test" / "1.2.sqlite").is_file()
    assert (build_dir / "index" / "test" / "1.2").is_dir()


@pytest.mark.parametrize("number", ["100", "101", "102", "103", "103.1", "104"])
def test_history_from_the_stored_mappings_equals_history_from_the_graphs(tmp_path_factory, number: str) -> None:
    from kb.editions.queries import history
    from kb.query import KnowledgeBase
    home = home_with(tmp_path_factory.mktemp("h"), EDITIONS)
    kb = KnowledgeBase.open(home)
    fast = stored_history(kb, "test", number)
    assert fast is not None
    from_graphs = history(kb.from_graphs([kb.graphs[("test", e)] for e, *_ in EDITIONS]), "test", number)
    assert {**fast, "total": len(fast["editions"]), "offset": 0} == from_graphs


def test_lazy_editions_keep_at_most_their_bound_loaded(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS)
    build_dir = current_build(home)
    assert build_dir is not None
    keys = [("test", e) for e, *_ in EDITIONS]
    graphs = LazyEditions(build_dir, keys, limit=2)
    assert len(graphs) == 3 and list(graphs) == keys and graphs.loaded() == []  # nothing loaded yet
    for key in keys + keys[:1]:
        assert graphs[key].edition.name == key[1]
        assert len(graphs.loaded()) <= 2
    assert graphs.loaded() == [("test", "1.2"), ("test", "1.0")]
    assert graphs.loads == 4  # 1.0 was evicted by 1.2, then read again
    graphs[("test", "1.0")]
    assert graphs.loads == 4  # held: not read again
    with pytest.raises(KeyError):
        graphs[("test", "9.9")]


def test_a_damaged_stored_edition_is_built_again(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS[:2])
    key = manifest(home)["contents"]["test 1.0"]
    stored = home / "objects" / "editions" / key / "graph.pickle"
    stored.write_bytes(b"not a pickle")  # the build's hard link shows the same damage
    messages: list[str] = []
    report = build(home, rules=tmp_path / "no-rules", progress=messages.append)
    assert report.built == ["test 1.0"] and report.reused == ["test 1.1"]
    assert messages[0].startswith("test 1.0: the stored copy is damaged (graph.pickle is damaged")
    assert messages[1:] == ["building 1 edition of 2 (1 stored and unchanged)",
                            "test 1.0: read rules-1.0.md and built"]
    assert load_edition(current_build(home), "test", "1.0").edition.name == "1.0"  # type: ignore[arg-type]


def test_a_damaged_graph_in_a_build_is_reported_with_its_file(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS[:1])
    build_dir = current_build(home)
    assert build_dir is not None
    path = build_dir / "editions" / "test" / "1.0.pickle"
    path.write_bytes(path.read_bytes()[:100])  # cut short
    with pytest.raises(DocumentError) as err:
        load_edition(build_dir, "test", "1.0")
    diag = err.value.diagnostics[0]
    assert "damaged" in diag.message and "rulekb build" in diag.message and diag.file == str(path)
    with pytest.raises(QueryError) as answer:  # what a question about it answers
        LazyEditions(build_dir, [("test", "1.0")])[("test", "1.0")]
    assert answer.value.status == 503 and "damaged" in answer.value.message
    assert answer.value.detail == {"file": str(path), "edition": "test 1.0"}


def test_objects_no_build_uses_any_more_are_collected(tmp_path: Path) -> None:
    from kb.objects import collect_garbage
    home = home_with(tmp_path, EDITIONS[:1])
    first = manifest(home)["contents"]["test 1.0"]
    import_document(home, write_edition(tmp_path, "1.0", "2026-01-01", "Changed.", "Changed."),
                    ruleset="test", edition="1.0")
    build(home, rules=tmp_path / "no-rules")
    for old in [p for p in (home / "builds").iterdir() if p != current_build(home)]:
        import shutil
        shutil.rmtree(old)
    assert first in collect_garbage(home / "objects", grace_seconds=0)
    assert manifest(home)["contents"]["test 1.0"] in {p.name for p in (home / "objects" / "editions").iterdir()}


def test_opening_a_build_loads_no_graph_and_history_loads_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kb.query import KnowledgeBase
    monkeypatch.setenv("RULEKB_MAX_EDITIONS", "2")
    home = home_with(tmp_path, EDITIONS)
    kb = KnowledgeBase.open(home)
    assert isinstance(kb.graphs, LazyEditions) and kb.graphs.limit == 2
    assert [e["edition"] for e in kb.editions("test")] == ["1.0", "1.1", "1.2"]  # from the manifest
    assert kb.graphs.loaded() == []
    rows = kb.history("test", "104")["editions"]
    assert [r["status"] for r in rows] == ["present", "changed", "unchanged"]
    assert kb.graphs.loaded() == []  # read from the stored texts and mappings
    for edition, *_ in EDITIONS:
        assert kb.rule("test", "103.1", edition)["edition"] == edition
        assert len(kb.graphs.loaded()) <= 2
    assert kb.diff("test", "1.0", "1.2")["summary"]  # composed from the stored mappings


def test_warming_makes_only_the_newest_editions_and_leaves_the_stored_mappings_on_disk(tmp_path: Path) -> None:
    from kb.query import KnowledgeBase
    home = home_with(tmp_path, EDITIONS)
    kb = KnowledgeBase.open(home)
    names = [name for name, _ in kb.warm_steps()]
    assert names[:2] == ["searcher test 1.2", "timing model test 1.2"]  # numbers are followed in the files
    assert not [n for n in names if n.startswith("mapping")]
    assert not [n for n in names if n.startswith(("searcher", "timing")) and not n.endswith(" 1.2")]
    for name, step in kb.warm_steps():
        if name.startswith(("mapping", "searcher", "timing")):  # the editions' own steps
            step()
    assert kb.graphs.loaded() == [("test", "1.2")]


# (date asked, edition in force, or None when none was yet): the test editions are dated
# 2026-01-01, 2026-02-01 and 2026-03-01.
IN_FORCE = [
    ("2026-01-15", "1.0"),
    ("2026-02-01", "1.1"),
    ("2026-02-28", "1.1"),
    ("2031-01-01", "1.2"),
    ("2025-12-31", None),
]


@pytest.fixture(scope="module")
def three_editions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return home_with(tmp_path_factory.mktemp("in-force"), EDITIONS)


@pytest.mark.parametrize("date,expected", IN_FORCE)
def test_the_edition_in_force_on_a_date_from_the_cli_and_the_api(three_editions: Path, date: str,
                                                                   expected: str | None) -> None:
    from click.testing import CliRunner

    from kb.cli import main
    from web import create_app
    result = CliRunner().invoke(main, ["--home", str(three_editions), "editions", "--ruleset", "test",
                                       "--date", date, "--json"])
    answer = create_app(three_editions).test_client().get(f"/api/v1/rulesets/test/editions?date={date}")
    if expected is None:
        assert result.exit_code == 2 and f"no edition of test was in force on {date}" in result.output
        assert answer.status_code == 404 and answer.get_json()["error"]["message"] == result.output.split("error: ")[-1].strip()
        return
    assert result.exit_code == 0, result.output
    assert [e["edition"] for e in json.loads(result.output)] == [expected]
    assert answer.status_code == 200
    body = answer.get_json()
    assert [e["edition"] for e in body["editions"]] == [expected] and body["newest"] == "1.2"


def test_an_object_another_build_made_meanwhile_is_kept(tmp_path: Path) -> None:
    from kb.objects import check_object, put_object

    def fill(text: str):
        def write(folder: Path) -> dict:
            (folder / "data.txt").write_text(text, encoding="utf-8")
            return {"text": text}
        return write
    first = put_object(tmp_path, "k", fill("first"))
    second = put_object(tmp_path, "k", fill("second"))  # sound already: the first one stays
    assert first["text"] == second["text"] == "first"
    assert check_object(tmp_path / "k")[0] is not None
    assert [p.name for p in tmp_path.iterdir()] == ["k"]  # no hidden folder left behind
    (tmp_path / "k" / "data.txt").write_text("damaged", encoding="utf-8")
    assert check_object(tmp_path / "k")[0] is None
    assert put_object(tmp_path, "k", fill("third"))["text"] == "third"  # damaged: replaced


def test_following_a_number_back_is_what_the_inverse_mapping_says(tmp_path: Path) -> None:
    home = home_with(tmp_path, EDITIONS)
    build_dir = current_build(home)
    assert build_dir is not None
    for older, newer in [("1.0", "1.1"), ("1.1", "1.2")]:
        mapping = read_mapping(build_dir / "mappings" / "test" / older / f"{newer}.sqlite")
        inverse = mapping.inverse()
        for number in [*load_edition(build_dir, "test", newer).edition.rules, "999", "103.9"]:
            assert mapping.back(number) == inverse.get(number)


@pytest.mark.parametrize("source,target", [("1.0", "1.2"), ("1.2", "1.0"), ("1.1", "1.0"), ("1.0", "1.1")])
def test_a_followed_mapping_gives_what_the_composed_mapping_gives(tmp_path_factory, source: str, target: str) -> None:
    from kb.editions.queries import FollowedMapping, edition_mapping
    from kb.query import KnowledgeBase
    kb = KnowledgeBase.open(home_with(tmp_path_factory.mktemp("f"), EDITIONS))
    followed = FollowedMapping(kb, "test", source, target)  # from the stored files: nothing is held yet
    composed = edition_mapping(kb, "test", source, target)
    # an adjacent mapping asked for is kept in memory; a composition keeps only itself, not its steps
    adjacent = (source, target) == ("1.0", "1.1")
    assert (FollowedMapping(kb, "test", source, target)._steps != followed._steps) == adjacent
    for number in [*kb.graphs[("test", source)].edition.rules, "999"]:
        got, want = followed.get(number), composed.get(number)
        if got is None or want is None or got.method == want.method:
            assert got == want
        else:
            # A rule both ends hold at one number with one wording: the bridge says "kept"
            # (with its own confidence), the chain followed "composed"; the counterpart is one.
            assert (got.target, got.method, want.method) == (want.target, "composed", "kept"), number


def test_a_damaged_graph_is_one_line_on_the_cli(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from kb.cli import main
    home = home_with(tmp_path, EDITIONS[:1])
    build_dir = current_build(home)
    assert build_dir is not None
    (build_dir / "editions" / "test" / "1.0.pickle").write_bytes(b"\x80\x05 cut short")
    result = CliRunner().invoke(main, ["--home", str(home), "rule", "103", "--ruleset", "test"])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.startswith("error: the built knowledge base is damaged") and "rulekb build" in result.output


@pytest.mark.parametrize("text", [
    "See rule 103.1 and rule 104.",
    "Rules 102 and 999 say so; CR 103.1 too.",
    "Nothing cited here but rule 9.",
])
def test_an_articles_fit_is_scored_from_the_stored_texts_as_from_the_graph(three_editions: Path, text: str) -> None:
    from kb.cite.find import find_citations
    from kb.cite.resolve import count_found
    from kb.cite.target import _numbers_of
    from kb.objects import StoredRules
    from kb.query import KnowledgeBase
    kb = KnowledgeBase.open(three_editions)
    cited = find_citations(text)
    for edition, *_ in EDITIONS:
        stored = _numbers_of(kb, ("test", edition), ranges=False)
        assert isinstance(stored, StoredRules)
        assert count_found(cited, stored) == count_found(cited, kb.graphs[("test", edition)])
    assert kb.graphs.loaded() == [("test", e) for e, *_ in EDITIONS]  # only the comparison loaded them


def test_a_stored_mapping_followed_back_is_what_the_mapping_says(tmp_path: Path) -> None:
    from kb.objects import StoredMapping
    home = home_with(tmp_path, EDITIONS)
    build_dir = current_build(home)
    assert build_dir is not None
    path = build_dir / "mappings" / "test" / "1.1" / "1.2.sqlite"
    mapping, stored = read_mapping(path), StoredMapping(path)
    for number in [*load_edition(build_dir, "test", "1.2").edition.rules, "999"]:
        assert stored.back(number) == mapping.back(number)
        assert stored.origin(number) == mapping.origin(number)
    for number in [*load_edition(build_dir, "test", "1.1").edition.rules, "999"]:
        assert stored.get(number) == mapping.get(number)


# -- the timing models' citations, carried to every edition at build time ------------------
RIFTBOUND_1_3 = Path(__file__).resolve().parent.parent / "rules" / "riftbound" / "core-rules-1.3-excerpt.md"


@pytest.fixture(scope="module")
def carried_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded corpus and one more Riftbound edition (1.3's text as an older 1.2), so
    the model's citations (1.4's numbers) are carried one and two steps back."""
    home = tmp_path_factory.mktemp("carried") / "home"
    import_document(home, RIFTBOUND_1_3, ruleset="riftbound", edition="1.2", date="2025-10-01", partial=True)
    build(home)
    return home


@pytest.mark.parametrize("edition", ["1.3", "1.2"])
def test_the_stored_citations_are_what_carrying_them_from_the_graphs_gives(carried_home: Path, edition: str) -> None:
    from kb.query import KnowledgeBase
    from kb.timing.api import _carried, _stored_carried
    kb = KnowledgeBase.open(carried_home)
    stored = _stored_carried(kb, "riftbound", edition)
    assert stored is not None and stored[0]
    assert stored == _carried(kb, "riftbound", edition)


def test_an_old_editions_rule_answer_reads_the_stored_citations(carried_home: Path) -> None:
    from kb.query import KnowledgeBase
    from kb.timing.api import _carried
    from kb.timing.stored import read_carried
    from kb.store import stored_citations_path
    stored = read_carried(stored_citations_path(current_build(carried_home), "riftbound", "1.2"))
    assert stored is not None
    cited = next(rules[0] for rules in stored[0].values() if rules)  # a rule the model cites in 1.2
    kb = KnowledgeBase.open(carried_home)
    # The rule answer's timing part (its rulings and articles read other editions, as
    # warming does before a server serves)
    transitions = kb.transitions_for(kb.edition("riftbound", "1.2"), cited)
    assert transitions and all(cited in t["rules"] for t in transitions)
    assert not _carried.is_held(kb, "riftbound", "1.2")  # nothing computed from the graphs
    assert kb.graphs.loaded() == [("riftbound", "1.2")]  # the cited edition's graph not loaded


def test_a_build_reuses_the_stored_citations_when_nothing_changed(carried_home: Path) -> None:
    assert build(carried_home).citations_built == []


def test_what_is_derived_from_an_edition_goes_with_its_graph(tmp_path: Path) -> None:
    """Every edition searched and linked against once with room for one graph: the searchers
    and link targets made from unloaded graphs do not keep them alive."""
    import gc

    from kb.graph import RuleGraph
    from kb.query import KnowledgeBase, searcher
    home = home_with(tmp_path, EDITIONS)
    kb = KnowledgeBase.open(home)
    kb.graphs.limit = 1
    for edition, *_ in EDITIONS:
        assert kb.search("priority", "test", edition)["results"]
        kb.citations_lookup("See rule 103.1.", "test", edition)
    gc.collect()
    alive = [o.edition.name for o in gc.get_objects()
             if isinstance(o, RuleGraph) and o.edition.source.startswith(str(tmp_path))]
    assert alive == [name for _, name in kb.graphs.loaded()]  # the one loaded graph, once
    assert [searcher.is_held(kb, "test", e) for e, *_ in EDITIONS] == \
        [("test", e) in kb.graphs.loaded() for e, *_ in EDITIONS]



def test_stats_reads_the_stored_notes_without_loading_a_graph(carried_home: Path) -> None:
    from kb.query import KnowledgeBase
    kb = KnowledgeBase.open(carried_home)
    stats = kb.stats()
    assert kb.graphs.loaded() == []
    from_graphs = KnowledgeBase.from_graphs([kb.graphs[(e["ruleset"], e["edition"])] for e in stats]).stats()
    assert [(s["unresolved"], s["diagnostics"]) for s in stats] == \
        [(s["unresolved"], s["diagnostics"]) for s in from_graphs]
    assert any(s["unresolved"] or s["diagnostics"] for s in stats)  # something to compare


def test_build_workers_never_start_as_a_plain_fork_of_a_threaded_process() -> None:
    # A fork copies a lock another thread holds (SQLite's allocator mutex while a server
    # thread reads a mapping) into a worker that then waits forever: a CI run hung so.
    assert _worker_context().get_start_method() in ("forkserver", "spawn")

