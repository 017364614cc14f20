"""``rulekb export``: the rules browser as a folder of static files, for judges without a network.

Every page is rendered by the site's own views through Flask's test client, with the site's
link building told which file each page is written to (``SITE_LINK_MAPPER``, see
:mod:`web.site.links` and :class:`kb.export.Layout`), so every link is relative and the
folder opens from ``file://`` or any static host. What is written:

* the home page, and per exported edition its contents, glossary (a page per letter when
  the site splits it) and rule pages: one file per section, cut into the site's parts, with
  an anchor per rule;
* what changed between consecutive exported editions of a ruleset (every page, and per chapter);
* the timing explorer with the worked scenarios of the exported rulesets, one page per frame;
* ``search.html`` with ``static/offline-search.js`` and an index per edition
  (``search/<ruleset>/<edition>.js``, :mod:`kb.export.search_index`): the server's ranking
  without a server;
* ``rulekb-export.json``: what the folder holds.

Pages that need a server (the citation linker, a pasted scenario) are left out, and the
templates hide their links (``SITE_PAGES``, ``SITE_STATIC_EXPORT``).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask

from kb.export import Layout, LinkProblem, check_site
from kb.export.scenarios import exported_scenarios
from kb.query import KnowledgeBase, QueryError
from kb.timing.examples import worked_run
from web import create_app
from web.pack import add_offline_search, plan_layout, roots, search_index_script
from web.site.compare import compare_page
from web.site.pages import glossary_page, glossary_split

__all__ = ["EXPORTED_PAGES", "MARKER", "ExportResult", "add_offline_search", "export_site", "plan_layout",
           "roots", "select_editions"]

MARKER = "rulekb-export.json"
STATIC = Path(__file__).resolve().parent / "static"
# Static files only the live site uses (the service worker cannot run from file://).
LIVE_ONLY = {"sw.js", "manifest.webmanifest", "offline.js"}
EXPORTED_PAGES = frozenset({"site.home", "site.contents", "site.rule", "site.glossary",
                            "site.glossary_letter", "site.search", "site.explorer", "site.compare",
                            "static"})


@dataclass
class ExportResult:
    """What an export wrote, and how long each stage took (seconds)."""

    folder: Path
    editions: list[tuple[str, str]]
    pages: int = 0
    files: int = 0
    bytes: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    links_checked: int = 0
    problems: list[LinkProblem] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"folder": str(self.folder), "editions": [{"ruleset": r, "edition": e} for r, e in self.editions],
                "pages": self.pages, "files": self.files, "bytes": self.bytes,
                "seconds": {stage: round(took, 3) for stage, took in self.seconds.items()},
                "links_checked": self.links_checked, "problems": [str(p) for p in self.problems]}


def select_editions(kb: KnowledgeBase, rulesets: Iterable[str] = (),
                    editions: Iterable[str] = ()) -> list[tuple[str, str]]:
    """The editions to export: every built one, or those of ``rulesets``, narrowed to the
    edition names given. QueryError 404 for a name that matches nothing."""
    rulesets, editions = list(rulesets), list(editions)
    built = [(e["ruleset"], e["edition"]) for e in kb.manifest["editions"]]
    for r in rulesets:
        kb.editions(r)  # 404 with the known rulesets
    chosen = [(r, e) for r, e in built if not rulesets or r in rulesets]
    if editions:
        for name in editions:
            if not any(e == name for _, e in chosen):
                raise QueryError(404, f"no built edition {name!r}"
                                 + (f" of {', '.join(rulesets)}" if rulesets else ""),
                                 {"editions": sorted({e for _, e in chosen})})
        chosen = [(r, e) for r, e in chosen if e in editions]
    if not chosen:
        raise QueryError(404, "nothing to export: the knowledge base holds no editions")
    return chosen


def export_site(kb: KnowledgeBase, folder: Path, editions: list[tuple[str, str]] | None = None,
                *, check: bool = False, progress: Callable[[str], None] | None = None) -> ExportResult:
    """Write the static site for ``editions`` (default: every built edition) into ``folder``.

    ``folder`` must be missing, empty, or an earlier export (which is replaced only once the
    new one is complete). With ``check``, every link of the result is checked
    (:func:`kb.export.check_site`).
    """
    editions = editions or select_editions(kb)
    folder = Path(folder)
    _check_target(folder)
    started = time.perf_counter()
    sub = _sub_knowledge_base(kb, editions)
    result = ExportResult(folder, editions)
    say = progress or (lambda _msg: None)
    parent = folder.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=parent))
    try:
        tick = time.perf_counter()
        layout = plan_layout(sub, editions)
        result.seconds["layout"] = time.perf_counter() - tick
        app = _export_app(sub, layout)
        writer = _Writer(app, layout, work, result)
        tick = time.perf_counter()
        for ruleset, edition in editions:
            say(f"pages of {ruleset} {edition}")
            _edition_pages(writer, sub, layout, ruleset, edition)
        result.seconds["rule pages"] = time.perf_counter() - tick
        tick = time.perf_counter()
        for ruleset, old, new in _compared(sub, editions):
            say(f"changes {ruleset} {old} → {new}")
            _compare_pages(writer, sub, ruleset, old, new)
        result.seconds["diffs"] = time.perf_counter() - tick
        tick = time.perf_counter()
        say("timing scenarios")
        _timing_pages(writer, sub)
        writer.page("/")
        result.seconds["other pages"] = time.perf_counter() - tick
        tick = time.perf_counter()
        say("search indexes")
        catalog = _search_indexes(sub, layout, editions, work)
        _search_page(writer, catalog)
        result.seconds["search"] = time.perf_counter() - tick
        _copy_static(work)
        (work / MARKER).write_text(json.dumps({
            "rulekb_export": 1, "build_id": kb.build_id,
            "exported": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "editions": [{"ruleset": r, "edition": e} for r, e in editions],
            "start": "index.html"}, indent=2) + "\n", encoding="utf-8")
        if check:
            tick = time.perf_counter()
            say("checking links")
            result.links_checked, result.problems = check_site(work)
            result.seconds["check"] = time.perf_counter() - tick
        files = [p for p in work.rglob("*") if p.is_file()]
        result.files, result.bytes = len(files), sum(p.stat().st_size for p in files)
        _swap_in(work, folder)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    result.seconds["total"] = time.perf_counter() - started
    return result


# -- rendering ---------------------------------------------------------------------------
class _Writer:
    """Renders pages through the app and writes each to its file."""

    def __init__(self, app: Flask, layout: Layout, root: Path, result: ExportResult):
        self.client = app.test_client()
        self.layout = layout
        self.root = root
        self.result = result

    def page(self, path: str, query: dict[str, Any] | None = None) -> str:
        response = self.client.get(path, query_string=query)
        if response.status_code != 200:
            raise QueryError(500, f"the page {path} {query or ''} could not be exported "
                                  f"(HTTP {response.status_code})", {"path": path})
        full = path + ("?" + urlencode(query) if query else "")
        target = self.layout.file_of(full).split("#", 1)[0].split("?", 1)[0]
        text = response.get_data(as_text=True)
        self.write(target, text)
        self.result.pages += 1
        return text

    def write(self, target: str, text: str) -> None:
        out = self.root / target.lstrip("/")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")


def _export_app(kb: KnowledgeBase, layout: Layout) -> Flask:
    app = create_app(kb=kb, config={"SITE_LINK_MAPPER": layout.file_of, "SITE_PAGES": EXPORTED_PAGES,
                                     "SITE_STATIC_EXPORT": True})
    app.url_for = _remembered_url_for(app.url_for)  # type: ignore[method-assign]
    return app


def _remembered_url_for(url_for: Callable[..., str]) -> Callable[..., str]:
    """``url_for`` answering each endpoint and values once. The export's pages hold about a
    hundred links each, most of them the same few thousand (the frame list of a timing
    scenario is on each of its frames): building every one anew through the URL map was a
    third of an export's time. Every page is requested from the same host and root, and the
    app registers no URL defaults, so the same arguments always build the same path."""
    built: dict[tuple[Any, ...], str] = {}

    def remembered(endpoint: str, **values: Any) -> str:
        if endpoint.startswith("."):  # relative to the blueprint of the page being rendered
            return url_for(endpoint, **values)
        try:
            key = (endpoint, *sorted(values.items()))
            hash(key)
        except TypeError:  # a list of query values: not worth remembering
            return url_for(endpoint, **values)
        found = built.get(key)
        if found is None:
            found = built[key] = url_for(endpoint, **values)
        return found

    return remembered


def _edition_pages(w: _Writer, kb: KnowledgeBase, layout: Layout, ruleset: str, edition: str) -> None:
    w.page(f"/{ruleset}/{edition}/")
    w.page(f"/{ruleset}/{edition}/glossary")
    if glossary_split(kb, ruleset, edition):
        with w.client.application.test_request_context(f"/{ruleset}/{edition}/glossary"):
            letters = glossary_page(kb, ruleset, edition)["letters"]
        for letter in letters:
            w.page(f"/{ruleset}/{edition}/glossary/{letter}".replace("#", "%23"))
    for root, parts in roots(layout, ruleset, edition).items():
        w.page(f"/{ruleset}/{edition}/{root}")
        for part in range(2, parts + 1):
            w.page(f"/{ruleset}/{edition}/{root}", {"part": part})


def _compared(kb: KnowledgeBase, editions: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """Consecutive exported editions of each ruleset (what the site links as "changes since")."""
    out = []
    for ruleset in dict.fromkeys(r for r, _ in editions):
        names = [e["edition"] for e in kb.editions(ruleset)]
        out.extend((ruleset, a, b) for a, b in zip(names, names[1:]))
    return out


def _compare_pages(w: _Writer, kb: KnowledgeBase, ruleset: str, old: str, new: str) -> None:
    base = f"/{ruleset}/compare/{old}/{new}"
    app = w.client.application
    with app.test_request_context(base):
        first = compare_page(kb, ruleset, old, new)
    views: list[tuple[str | None, int]] = [(None, first["pages"])]
    for c in first["chapters"]:
        with app.test_request_context(base, query_string={"chapter": c["chapter"]}):
            views.append((c["chapter"], compare_page(kb, ruleset, old, new, c["chapter"])["pages"]))
    for chapter, pages in views:
        for page in range(1, pages + 1):
            query = {**({"chapter": chapter} if chapter else {}), **({"page": page} if page > 1 else {})}
            w.page(base, query or None)


def _timing_pages(w: _Writer, kb: KnowledgeBase) -> None:
    """The explorer and every frame of the worked scenarios of the exported rulesets (the
    list the pack's explorer shows): a Riftbound pack renders no Magic frame."""
    w.page("/timing")
    for s in exported_scenarios(kb):
        name = s["name"]  # the explorer's own run of it (kb.timing.examples): run once
        for frame in range(1, len(worked_run(kb, name)["frames"]) + 1):
            w.page("/timing", {"scenario": name, "frame": frame})


def _search_indexes(kb: KnowledgeBase, layout: Layout, editions: list[tuple[str, str]],
                    root: Path) -> dict[str, Any]:
    """Write the browser search index of every edition; the catalog the search page reads."""
    indexes = {}
    for ruleset, edition in editions:
        rel = f"search/{ruleset}/{edition}.js"
        out = root / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(search_index_script(kb, ruleset, edition, layout.page_of(ruleset, edition)), encoding="utf-8")
        indexes[f"{ruleset}/{edition}"] = rel
    rulesets = []
    for r in kb.rulesets():
        rulesets.append({"name": r["name"], "title": r["title"], "editions": layout.editions[r["name"]],
                         "default": layout.newest[r["name"]]})  # the newest full edition exported
    return {"rulesets": rulesets, "default_ruleset": kb.default_ruleset(), "indexes": indexes,
            "search_page": "search.html"}


def _search_page(w: _Writer, catalog: dict[str, Any]) -> None:
    """The search page: the site's form, answered in the browser by offline-search.js."""
    w.write("/search.html", add_offline_search(w.client.get("/search").get_data(as_text=True), catalog))
    w.result.pages += 1


def _copy_static(root: Path) -> None:
    target = root / "static"
    target.mkdir(parents=True, exist_ok=True)
    for f in sorted(STATIC.iterdir()):
        if f.is_file() and f.name not in LIVE_ONLY:
            shutil.copyfile(f, target / f.name)


# -- the knowledge base and the folder ----------------------------------------------------
def _sub_knowledge_base(kb: KnowledgeBase, editions: list[tuple[str, str]]) -> KnowledgeBase:
    """The exported editions only, so every page links only to pages the export writes.
    An export of every edition is of ``kb`` itself: what it derives (the searchers, the worked
    scenarios' runs, the rule pages' parts) is made once and serves ``kb``'s other callers
    too (the session's pack and browser tests, a server that exports)."""
    wanted = set(editions)
    if wanted == {(e["ruleset"], e["edition"]) for e in kb.manifest["editions"]}:
        return kb
    manifest = {**kb.manifest, "editions": [e for e in kb.manifest["editions"]
                                            if (e["ruleset"], e["edition"]) in wanted]}
    return KnowledgeBase(kb.build_dir, manifest, {key: g for key, g in kb.graphs.items() if key in wanted})


def _check_target(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise QueryError(400, f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise QueryError(400, f"{folder} is not empty and holds no earlier export; pick an empty "
                              "or new folder (an earlier export is replaced)")


def _swap_in(work: Path, folder: Path) -> None:
    """Put the finished export in place; an earlier export is removed only after."""
    work.chmod(0o755)
    old = None
    if folder.exists():
        old = folder.with_name(f".{folder.name}-old-{os.getpid()}")
        folder.rename(old)
    work.rename(folder)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
