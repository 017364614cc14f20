"""``rulekb export``: a static copy of the rules browser that works from ``file://``.

The embedded excerpt plus the two-edition ``testgame`` are exported once per session; the
tests read the folder: every rule has a page, every link is relative and resolves, the
search index is valid and its script answers as the server does (in node), the timing
scenarios are pre-rendered frame by frame. On the real documents (../shared), Magic
2026-01-16 exports with every link resolving.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from browser.testgame import build_testgame
from conftest import requires_shared
from kb.cli import main
from kb.export import Layout, RulePlace, check_site
from kb.export.jsrun import node_path, run_queries, stem_words
from kb.export.search_index import read_index_script
from kb.query import KnowledgeBase, QueryError, searcher
from kb.search.schema import stem
from kb.timing import list_scenarios
from web.export import MARKER, ExportResult, export_site, select_editions

QUERIES = Path(__file__).parent / "fixtures" / "export" / "queries.yaml"
requires_node = pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")


@pytest.fixture(scope="session")
def export_kb(site_kb: KnowledgeBase) -> KnowledgeBase:
    """The knowledge base the session's pack was exported from (tests/conftest.py)."""
    return site_kb


@pytest.fixture(scope="session")
def exported(exported_site: ExportResult) -> ExportResult:
    """The session's pack of the excerpt plus ``testgame`` (tests/conftest.py), which the
    browser tests open too."""
    return exported_site


def html_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.html"))


# -- what is written -----------------------------------------------------------------------
def test_every_rule_of_every_edition_has_a_page_with_its_anchor(exported: ExportResult,
                                                                  export_kb: KnowledgeBase) -> None:
    from web.export import plan_layout
    layout = plan_layout(export_kb, exported.editions)
    for ruleset, edition in exported.editions:
        for number in export_kb.edition(ruleset, edition).edition.rules:
            target = layout.rule_file(ruleset, edition, number)
            file, _, anchor = target.lstrip("/").partition("#")
            path = exported.folder / file
            assert path.is_file(), (ruleset, edition, number, target)
            if anchor:
                assert f'id="{anchor}"' in path.read_text(encoding="utf-8"), (number, target)


def test_links_are_relative_and_resolve(exported: ExportResult) -> None:
    assert exported.problems == []
    assert exported.links_checked > 1000
    checked, problems = check_site(exported.folder)
    assert (checked, problems) == (exported.links_checked, [])


@pytest.mark.parametrize("pattern", [
    r'(?:href|src|action)="/',                 # absolute paths
    r'(?:href|src|action)="(?:https?:)?//',    # other hosts
    r'url\((?:["\']?)(?:https?:)?//',          # CSS from other hosts
    r'method="post"',                          # forms that need a server
])
def test_no_page_needs_a_server_or_another_host(exported: ExportResult, pattern: str) -> None:
    found = [(p.name, m.group()) for p in [*html_files(exported.folder), *exported.folder.glob("static/*.css")]
             for m in re.finditer(pattern, p.read_text(encoding="utf-8"))]
    assert found == []


def test_server_only_pages_are_left_out_and_unlinked(exported: ExportResult) -> None:
    home = (exported.folder / "index.html").read_text(encoding="utf-8")
    assert "Citation linker" not in home and "Timing explorer" in home
    explorer = (exported.folder / "timing" / "index.html").read_text(encoding="utf-8")
    assert 'id="write"' not in explorer
    assert not (exported.folder / "static" / "sw.js").exists()


def test_the_table_of_contents_glossary_and_diffs_are_written(exported: ExportResult) -> None:
    f = exported.folder
    for rel in ["riftbound/1.4/index.html", "riftbound/1.4/glossary.html", "testgame/2/index.html",
                "testgame/compare/1--2.html", "search.html", "index.html", MARKER]:
        assert (f / rel).is_file(), rel
    contents = (f / "riftbound/1.4/index.html").read_text(encoding="utf-8")
    assert 'href="337.html"' in contents  # a section links to its page in the same folder
    diff = (f / "testgame/compare/1--2.html").read_text(encoding="utf-8")
    assert "101.3" in diff and "<script>window" not in diff  # hostile rule text stays inert
    marker = json.loads((f / MARKER).read_text(encoding="utf-8"))
    assert {(e["ruleset"], e["edition"]) for e in marker["editions"]} == set(exported.editions)


def test_hostile_text_is_inert_in_every_page(exported: ExportResult) -> None:
    for p in html_files(exported.folder / "testgame"):
        text = p.read_text(encoding="utf-8")
        assert "<script>window" not in text and "<img src=x" not in text, p


def test_timing_scenarios_are_prerendered_frame_by_frame(exported: ExportResult,
                                                         export_kb: KnowledgeBase) -> None:
    """Each worked scenario's pages are its frames, counted in the run the export renders (a
    trusted run: frames and bytes budgeted, no wall-clock deadline, which made this test fail
    on a loaded machine; how long runs take is bench/timing.py's, in CPU medians)."""
    from kb.timing.examples import worked_run
    for s in list_scenarios():
        frames = len(worked_run(export_kb, s["name"])["frames"])
        folder = exported.folder / "timing" / s["name"]
        assert sorted(int(p.stem) for p in folder.glob("*.html")) == list(range(1, frames + 1)), s["name"]
        first = (folder / "1.html").read_text(encoding="utf-8")
        assert f"Frame 1 of {frames}" in first
        if frames > 1:
            assert 'href="2.html" data-step="next"' in first


# -- the search index and script ---------------------------------------------------------
def test_search_index_is_valid_json_covering_every_rule(exported: ExportResult,
                                                        export_kb: KnowledgeBase) -> None:
    for ruleset, edition in exported.editions:
        path = exported.folder / "search" / ruleset / f"{edition}.js"
        data = read_index_script(path.read_text(encoding="utf-8"))
        rules = list(export_kb.edition(ruleset, edition).edition.rules)
        assert data["numbers"] == rules
        assert len(data["postings"]) == len(data["stems"]) == len(data["stem_fields"])
        assert all(len(p) % 2 == 0 for p in data["postings"])
        for page in data["pages"]:
            assert (exported.folder / page.partition("#")[0]).is_file(), page
    search = (exported.folder / "search.html").read_text(encoding="utf-8")
    catalog = re.search(r'<script type="application/json" id="rulekb-offline-catalog">(.*?)</script>', search, re.S)
    assert catalog and 'src="static/offline-search.js"' in search
    assert set(json.loads(catalog.group(1))["indexes"]) == {f"{r}/{e}" for r, e in exported.editions}


def test_read_index_script_refuses_anything_else() -> None:
    for text in ["", "{}", "rulekbSearchIndex({\"format\": 99});\n", "alert(1)"]:
        with pytest.raises(ValueError):
            read_index_script(text)


def _server_answer(kb: KnowledgeBase, q: dict[str, str]) -> dict[str, object]:
    """The server's answer from the rules alone: the pack carries no rulings (its page says so)."""
    try:
        r = kb.search(q["query"], "riftbound", "1.4", limit=10, section=q.get("section"), rulings=False)
    except QueryError as exc:
        return {"error": (exc.status, exc.message)}
    return {"numbers": [h["number"] for h in r["results"]], "total": r["total"], "jump": r["jump"],
            "did_you_mean": r["did_you_mean"], "term": (r["term"] or {}).get("term"),
            "excerpts": [h["excerpt"] for h in r["results"]], "how": [h["match"] for h in r["results"]],
            "matched": [h["matched"] for h in r["results"]], "understood": r["understood"]}


def _offline_answer(a: dict[str, object]) -> dict[str, object]:
    if "error" in a:
        err = a["error"]
        return {"error": (err["status"], err["message"])}  # type: ignore[index]
    results = a["results"]  # type: ignore[index]
    return {"numbers": [h["number"] for h in results], "total": a["total"], "jump": a["jump"],
            "did_you_mean": a["did_you_mean"], "term": (a["term"] or {}).get("term"),  # type: ignore[union-attr]
            "excerpts": [h["excerpt"] for h in results], "how": [h["match"] for h in results],
            "matched": [h["matched"] for h in results], "understood": a["understood"]}


@requires_node
def test_offline_search_answers_as_the_server_does(exported: ExportResult, export_kb: KnowledgeBase) -> None:
    queries = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    answers, _ = run_queries([exported.folder / "search" / "riftbound" / "1.4.js"],
                             [{**q, "ruleset": "riftbound", "edition": "1.4"} for q in queries])
    mismatches = [(q["query"], _server_answer(export_kb, q), _offline_answer(a))
                  for q, a in zip(queries, answers) if _server_answer(export_kb, q) != _offline_answer(a)]
    assert mismatches == []


def _random_queries(data: dict[str, object], count: int, seed: int = 3) -> list[dict[str, object]]:
    """Queries made of the edition's own words, numbers and the query language's forms."""
    import random
    rng = random.Random(seed)
    words, numbers = list(data["words"]), list(data["numbers"])  # type: ignore[call-overload]
    out: list[dict[str, object]] = []
    for _ in range(count):
        ws = [rng.choice(words) for _ in range(rng.choice([1, 2, 3, 4]))]
        form = rng.randrange(10)
        if form == 0 and len(ws[0]) > 3:
            ws[0] = ws[0][:-1] + "x"  # a typo
        elif form == 1:
            ws = ['"' + " ".join(ws) + '"']
        elif form == 2:
            ws.append(rng.choice(numbers))
        elif form == 3:
            ws = [rng.choice(numbers)]
        elif form == 4:
            ws[0] = ws[0][:3] + "*"
        elif form == 5 and len(ws) > 1:
            ws.insert(1, "-" + rng.choice(words))
        elif form == 6:
            ws.append("in:" + rng.choice(numbers).split(".")[0])
        elif form == 7:
            ws = [" AND ".join(ws)]
        elif form == 8:
            ws = [" OR ".join(ws)]
        out.append({"query": " ".join(ws), "offset": rng.choice([0, 0, 5])})
    return out


@requires_node
def test_offline_search_agrees_on_random_queries(exported: ExportResult, export_kb: KnowledgeBase) -> None:
    path = exported.folder / "search" / "riftbound" / "1.4.js"
    queries = _random_queries(read_index_script(path.read_text(encoding="utf-8")), 300)
    answers, _ = run_queries([path], [{**q, "ruleset": "riftbound", "edition": "1.4", "limit": 20} for q in queries])
    mismatches = []
    for q, a in zip(queries, answers):
        try:
            r = export_kb.search(str(q["query"]), "riftbound", "1.4", limit=20, offset=int(q["offset"]),  # type: ignore[call-overload]
                                 rulings=False)  # the pack carries no rulings
            server: object = [(h["number"], h["excerpt"]) for h in r["results"]] + [r["total"], r["did_you_mean"]]
        except QueryError as exc:
            server = ("error", exc.status, exc.message)
        offline: object = ([(h["number"], h["excerpt"]) for h in a["results"]] + [a["total"], a["did_you_mean"]]
                           if "results" in a else ("error", a["error"]["status"], a["error"]["message"]))
        if server != offline:
            mismatches.append((q, server, offline))
    assert mismatches == []


@requires_node
def test_offline_stemmer_is_the_index_stemmer(exported: ExportResult) -> None:
    data = read_index_script((exported.folder / "search" / "riftbound" / "1.4.js").read_text(encoding="utf-8"))
    words = data["words"] + ["yelling", "fundamentally", "sses", "happy", "generalization", "the",
                             "hopping", "filing", "agreed", "relational", "ys", "Yield", "337.1.a"]
    assert stem_words(words) == [stem(w) for w in words]


# -- the layout ----------------------------------------------------------------------------
@pytest.mark.parametrize("url,file", [
    ("/", "/index.html"),
    ("/static/site.css", "/static/site.css"),
    ("/search?q=focus+passes&ruleset=riftbound", "/search.html?q=focus+passes&ruleset=riftbound"),
    ("/timing", "/timing/index.html"),
    ("/timing?scenario=000-x&frame=3", "/timing/000-x/3.html"),
    ("/riftbound/", "/riftbound/1.4/index.html"),
    ("/riftbound/1.4", "/riftbound/1.4/index.html"),
    ("/riftbound/1.4/", "/riftbound/1.4/index.html"),
    ("/riftbound/1.4/glossary", "/riftbound/1.4/glossary.html"),
    ("/riftbound/1.4/glossary/%23", "/riftbound/1.4/glossary/0-9.html"),
    ("/riftbound/1.4/glossary/q", "/riftbound/1.4/glossary/Q.html"),
    ("/riftbound/1.4/337", "/riftbound/1.4/337.html"),
    ("/riftbound/1.4/337.1.a", "/riftbound/1.4/337.html#337.1.a"),
    ("/riftbound/1.4/337.4", "/riftbound/1.4/337.part2.html#337.4"),
    ("/riftbound/1.4/337?part=2", "/riftbound/1.4/337.part2.html"),
    ("/riftbound/1.4/300", "/riftbound/1.4/index.html#300"),
    ("/riftbound/337.1.a", "/riftbound/1.4/337.html#337.1.a"),
    ("/riftbound/compare/1.3/1.4", "/riftbound/compare/1.3--1.4.html"),
    ("/riftbound/compare/1.3/1.4?chapter=300&page=2", "/riftbound/compare/1.3--1.4.ch300.p2.html"),
])
def test_layout_maps_each_path_to_its_file(url: str, file: str) -> None:
    layout = Layout(places={("riftbound", "1.4"): {
        "300": RulePlace(None), "337": RulePlace("337", 1), "337.1.a": RulePlace("337", 1),
        "337.4": RulePlace("337", 2)}}, newest={"riftbound": "1.4"}, editions={"riftbound": ["1.3", "1.4"]})
    assert layout.file_of(url) == file


# -- choosing editions and the folder ------------------------------------------------------
def test_select_editions(export_kb: KnowledgeBase) -> None:
    assert select_editions(export_kb) == [("mtg", "2010-10-01"), ("mtg", "2026-01-16"), ("riftbound", "1.3"),
                                          ("riftbound", "1.4"), ("testgame", "1"), ("testgame", "2")]
    assert select_editions(export_kb, ["testgame"], ["2"]) == [("testgame", "2")]
    with pytest.raises(QueryError, match="unknown ruleset"):
        select_editions(export_kb, ["nope"])
    with pytest.raises(QueryError, match="no built edition '9'"):
        select_editions(export_kb, ["testgame"], ["9"])


def test_an_export_of_every_edition_derives_on_the_knowledge_base_itself(tmp_path: Path) -> None:
    """A pack of every edition is rendered from the knowledge base itself, so what it derives
    (here each edition's searcher) serves the knowledge base's other callers; a pack of some
    editions, from a knowledge base of those only, derives nothing on it."""
    every = KnowledgeBase.from_graphs(build_testgame())
    export_site(every, tmp_path / "every", [("testgame", "1"), ("testgame", "2")])
    assert searcher.is_held(every, "testgame", "1") and searcher.is_held(every, "testgame", "2")
    some = KnowledgeBase.from_graphs(build_testgame())
    export_site(some, tmp_path / "some", [("testgame", "2")])
    assert not searcher.is_held(some, "testgame", "2")


def test_an_earlier_export_is_replaced_and_other_folders_are_refused(export_kb: KnowledgeBase,
                                                                     tmp_path: Path) -> None:
    target = tmp_path / "pack"
    first = export_site(export_kb, target, [("testgame", "1")], check=True)
    # testgame has no worked scenario: its pack renders no frame of another ruleset's, and
    # its explorer links to none (every link resolves)
    assert first.problems == [] and first.links_checked > 0
    assert [p.relative_to(target).as_posix() for p in (target / "timing").rglob("*")] == ["timing/index.html"]
    assert '<ul class="scenarios">' not in (target / "timing" / "index.html").read_text(encoding="utf-8")
    (target / "stale.html").write_text("old", encoding="utf-8")
    result = export_site(export_kb, target, [("testgame", "2")])
    assert not (target / "stale.html").exists() and (target / "testgame" / "2" / "index.html").is_file()
    assert not (target / "testgame" / "1").exists() and result.pages > 5
    assert [p.name for p in tmp_path.iterdir()] == ["pack"]  # no work folders left behind
    other = tmp_path / "notes"
    other.mkdir()
    (other / "mine.txt").write_text("keep", encoding="utf-8")
    with pytest.raises(QueryError, match="not empty"):
        export_site(export_kb, other, [("testgame", "2")])
    assert (other / "mine.txt").read_text(encoding="utf-8") == "keep"


def test_cli_exports_the_built_editions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's flags and output, over an already opened build of ``testgame`` (two
    small editions, no worked scenario: a second or two to render). That the excerpt's four
    editions export with every link resolving is the session's pack's to show (it holds
    them, every page and link checked) and the README's `export judge-pack/` (a fresh data
    directory's four editions, opened by the command, links checked too)."""
    built = KnowledgeBase.from_graphs(build_testgame())
    opened: list[Path] = []

    def open_built(home: Path) -> KnowledgeBase:
        opened.append(Path(home))
        return built

    monkeypatch.setattr(KnowledgeBase, "open", staticmethod(open_built))
    runner = CliRunner()
    out = tmp_path / "pack"
    result = runner.invoke(main, ["--home", str(tmp_path / "home"), "export", str(out), "--check", "--json"])
    assert result.exit_code == 0, result.output
    assert opened == [tmp_path / "home"]
    data = json.loads(result.stdout)
    assert data["editions"] == [{"ruleset": "testgame", "edition": "1"}, {"ruleset": "testgame", "edition": "2"}]
    assert data["problems"] == [] and data["links_checked"] > 0 and data["pages"] > 5
    assert (out / "testgame" / "2" / "101.html").is_file() and (out / "testgame" / "compare" / "1--2.html").is_file()
    assert json.loads((out / MARKER).read_text(encoding="utf-8"))["editions"] == data["editions"]
    one = runner.invoke(main, ["--home", str(tmp_path / "home"), "export", str(out), "-r", "testgame", "-e", "2"])
    assert one.exit_code == 0, one.output
    assert "exported testgame 2: " in one.stdout and not (out / "testgame" / "1").exists()
    bad = runner.invoke(main, ["--home", str(tmp_path / "home"), "export", str(tmp_path / "x"), "-e", "9.9"])
    assert bad.exit_code == 2 and "no built edition '9.9'" in bad.stderr and "Traceback" not in bad.output


# -- the real documents ------------------------------------------------------------------
@requires_shared
def test_magic_2026_exports_with_every_link_resolving(full_kb: KnowledgeBase, tmp_path: Path) -> None:
    result = export_site(full_kb, tmp_path / "mtg", [("mtg", "2026-01-16")], check=True)
    assert result.problems == []
    rules = full_kb.edition("mtg", "2026-01-16").edition.rules
    data = read_index_script((tmp_path / "mtg" / "search" / "mtg" / "2026-01-16.js").read_text(encoding="utf-8"))
    assert data["numbers"] == list(rules) and len(rules) > 3000
    page = (tmp_path / "mtg" / "mtg" / "2026-01-16" / "702.html").read_text(encoding="utf-8")
    assert 'id="702.2"' in page and "Part 1 of" in page
    # a Magic pack holds the frames of Magic's worked scenarios, every one, and no other's
    timing = tmp_path / "mtg" / "timing"
    assert {p.name for p in timing.iterdir() if p.is_dir()} == {s["name"] for s in list_scenarios("mtg")}
    explorer = (timing / "index.html").read_text(encoding="utf-8")
    assert all(f"{s['name']}/1.html" in explorer for s in list_scenarios("mtg"))
    assert not any(f"{s['name']}/1.html" in explorer for s in list_scenarios("riftbound"))


# -- the live site offline (web/offline.py) ------------------------------------------------
@pytest.fixture(scope="module")
def live_client(export_kb: KnowledgeBase) -> Any:
    from web import create_app
    return create_app(kb=export_kb).test_client()


@pytest.mark.parametrize("url,status,mimetype", [
    ("/sw.js", 200, "text/javascript"),
    ("/manifest.webmanifest", 200, "application/manifest+json"),
    ("/offline", 200, "text/html"),
    ("/search-offline", 200, "text/html"),
    ("/offline/editions/riftbound/1.4.json", 200, "application/json"),
    ("/offline/search-index/testgame/2.js", 200, "text/javascript"),
    ("/offline/editions/riftbound/9.9.json", 404, "text/html"),
    ("/offline/search-index/nope/1.js", 404, "text/html"),
])
def test_offline_routes(live_client: Any, url: str, status: int, mimetype: str) -> None:
    r = live_client.get(url)
    assert (r.status_code, r.mimetype) == (status, mimetype)


def test_worker_scope_and_manifest_are_the_site_root(live_client: Any) -> None:
    assert live_client.get("/sw.js").headers["Service-Worker-Allowed"] == "/"
    manifest = live_client.get("/manifest.webmanifest").get_json(force=True)
    assert manifest["start_url"] == "./" and manifest["display"] == "standalone"
    home = live_client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="manifest.webmanifest">' in home and 'content="sw.js"' in home


def test_kept_edition_lists_a_page_for_every_rule(live_client: Any, export_kb: KnowledgeBase) -> None:
    data = live_client.get("/offline/editions/riftbound/1.4.json").get_json()
    rules = export_kb.edition("riftbound", "1.4").edition.rules
    assert set(data["rules"]) == set(rules)
    pages = set(data["pages"])
    for number, target in data["rules"].items():
        page, _, anchor = target.partition("#")
        assert page in pages, (number, target)
        assert anchor in ("", number)
    for page in data["pages"]:
        assert live_client.get(page).status_code == 200, page
    index = read_index_script(live_client.get(data["search_index"]).get_data(as_text=True))
    assert index["pages"][index["numbers"].index("337.1.a")] == "riftbound/1.4/337.1.a"


def test_live_offline_search_page_carries_the_catalog(live_client: Any) -> None:
    text = live_client.get("/search-offline").get_data(as_text=True)
    assert 'src="static/offline-search.js"' in text
    assert '"search_page": "search"' in text and "offline/search-index/riftbound/1.4.js" in text
