"""``rulekb export``: the rules browser as a folder of static files, for judges without a network.

Every page is rendered by the site's own views through Flask's test client, with the site's
link building told which file each page is written to (``SITE_LINK_MAPPER``, see
:mod:`web.site.links` and :class:`kb.export.Layout`), so every link is relative and the
folder opens from ``file://`` or any static host. What is written:

* the home page, and per exported edition its contents, glossary (a page per letter when
  the site splits it) and rule pages: one file per section, cut into the site's parts, with
  an anchor per rule;
* what changed between consecutive exported editions of a ruleset (every page, and per chapter);
* the timing explorer with every worked scenario, one page per frame;
* ``search.html`` with ``static/offline-search.js`` and an index per edition
  (``search/<ruleset>/<edition>.js``, :mod:`kb.export.search_index`): the server's ranking
  without a server;
* ``rulekb-export.json``: what the folder holds.

Pages that need a server (the citation linker, a pasted scenario) are left out, and the
templates hide their links (``SITE_PAGES``, ``SITE_STATIC_EXPORT``).
"""

from __future__ import annotations

import html
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
from jinja2.utils import htmlsafe_json_dumps

from kb.export import Layout, LinkProblem, RulePlace, build_search_index, check_site, index_script
from kb.query import KnowledgeBase, QueryError
from kb.timing import list_scenarios, load_scenario

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
                "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
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


# -- what goes where ---------------------------------------------------------------------
def plan_layout(k: KnowledgeBase, editions: list[tuple[str, str]]) -> Layout:
    """Where every rule of every exported edition is shown (section page and part)."""
    from web.site.pages import rule_parts

    layout = Layout()
    for ruleset, edition in editions:
        names = [e for r, e in editions if r == ruleset]
        order = [e["edition"] for e in k.editions(ruleset)]
        layout.editions[ruleset] = sorted(names, key=order.index)
        layout.newest[ruleset] = layout.editions[ruleset][-1]
        rules = k.edition(ruleset, edition).edition.rules
        places: dict[str, RulePlace] = {}
        for number, rule in rules.items():
            if number in places:
                continue
            if rule.parent is None and not rule.text and rule.children:
                places[number] = RulePlace(None)  # a chapter heading: its entry in the contents
                continue
            r = k.rule(ruleset, number, edition, subrules=True)
            for i, part in enumerate(rule_parts(k, ruleset, edition, r), start=1):
                for item in part:
                    places[item["number"]] = RulePlace(number, i)
        layout.places[(ruleset, edition)] = places
    return layout


def roots(layout: Layout, ruleset: str, edition: str) -> dict[str, int]:
    """Section pages of an edition and how many parts each has."""
    out: dict[str, int] = {}
    for place in layout.places[(ruleset, edition)].values():
        if place.root is not None:
            out[place.root] = max(out.get(place.root, 0), place.part)
    return out


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


def _export_app(k: KnowledgeBase, layout: Layout) -> Flask:
    from web import create_app
    return create_app(kb=k, config={"SITE_LINK_MAPPER": layout.file_of, "SITE_PAGES": EXPORTED_PAGES,
                                    "SITE_STATIC_EXPORT": True})


def _edition_pages(w: _Writer, k: KnowledgeBase, layout: Layout, ruleset: str, edition: str) -> None:
    from web.site.pages import glossary_page, glossary_split

    w.page(f"/{ruleset}/{edition}/")
    w.page(f"/{ruleset}/{edition}/glossary")
    if glossary_split(k, ruleset, edition):
        with w.client.application.test_request_context(f"/{ruleset}/{edition}/glossary"):
            letters = glossary_page(k, ruleset, edition)["letters"]
        for letter in letters:
            w.page(f"/{ruleset}/{edition}/glossary/{letter}".replace("#", "%23"))
    for root, parts in roots(layout, ruleset, edition).items():
        w.page(f"/{ruleset}/{edition}/{root}")
        for part in range(2, parts + 1):
            w.page(f"/{ruleset}/{edition}/{root}", {"part": part})


def _compared(k: KnowledgeBase, editions: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """Consecutive exported editions of each ruleset (what the site links as "changes since")."""
    out = []
    for ruleset in dict.fromkeys(r for r, _ in editions):
        names = [e["edition"] for e in k.editions(ruleset)]
        out.extend((ruleset, a, b) for a, b in zip(names, names[1:]))
    return out


def _compare_pages(w: _Writer, k: KnowledgeBase, ruleset: str, old: str, new: str) -> None:
    from web.site.compare import compare_page

    base = f"/{ruleset}/compare/{old}/{new}"
    app = w.client.application
    with app.test_request_context(base):
        first = compare_page(k, ruleset, old, new)
    views: list[tuple[str | None, int]] = [(None, first["pages"])]
    for c in first["chapters"]:
        with app.test_request_context(base, query_string={"chapter": c["chapter"]}):
            views.append((c["chapter"], compare_page(k, ruleset, old, new, c["chapter"])["pages"]))
    for chapter, pages in views:
        for page in range(1, pages + 1):
            query = {**({"chapter": chapter} if chapter else {}), **({"page": page} if page > 1 else {})}
            w.page(base, query or None)


def _timing_pages(w: _Writer, k: KnowledgeBase) -> None:
    w.page("/timing")
    for s in k.cached("site-scenarios", list_scenarios):  # the list the explorer shows
        name = s["name"]  # the run is cached under the explorer's key, so it runs once
        run = k.cached(f"site-timing-run:{name}",
                       lambda: k.timing_run(load_scenario(name), f"{name}.yaml"))
        for frame in range(1, len(run["frames"]) + 1):
            w.page("/timing", {"scenario": name, "frame": frame})


def _search_indexes(k: KnowledgeBase, layout: Layout, editions: list[tuple[str, str]],
                    root: Path) -> dict[str, Any]:
    """Write the browser search index of every edition; the catalog the search page reads."""
    from kb.search import open_searcher

    indexes = {}
    for ruleset, edition in editions:
        rg = k.edition(ruleset, edition)
        searcher = k.cached(f"search:{ruleset}:{edition}", lambda: open_searcher(rg, k.build_dir))
        data = build_search_index(rg, searcher, layout.page_of(ruleset, edition))
        rel = f"search/{ruleset}/{edition}.js"
        out = root / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(index_script(data), encoding="utf-8")
        indexes[f"{ruleset}/{edition}"] = rel
    rulesets = []
    for r in k.rulesets():
        rulesets.append({"name": r["name"], "title": r["title"], "editions": layout.editions[r["name"]]})
    return {"rulesets": rulesets, "default_ruleset": k.default_ruleset(), "indexes": indexes,
            "search_page": "search.html"}


def _search_page(w: _Writer, catalog: dict[str, Any]) -> None:
    """The search page: the site's form, answered in the browser by offline-search.js."""
    w.write("/search.html", add_offline_search(w.client.get("/search").get_data(as_text=True), catalog))
    w.result.pages += 1


def add_offline_search(page: str, catalog: dict[str, Any], script: str = "static/offline-search.js") -> str:
    """The site's (empty) search page answered in the browser: the offline search script and
    the catalog of indexes it reads (``rulesets``, ``default_ruleset``, ``indexes``: edition →
    index script, ``search_page``: the page's own address), both relative to the page."""
    # JSON in a <script> element is raw text (no entities): escape <, > and & as JSON does
    # (\u003c…), so a title can neither close the element nor show up as "&amp;".
    data = htmlsafe_json_dumps(catalog, ensure_ascii=False)
    head = (f'<script src="{html.escape(script)}" defer></script>\n'
            f'<script type="application/json" id="rulekb-offline-catalog">{data}</script>\n')
    note = ('<noscript><p class="note">Searching without a server needs JavaScript; the contents '
            'and the glossary of each edition work without it.</p></noscript>\n')
    if "</head>" not in page or "</main>" not in page:
        raise QueryError(500, "the search page has no </head> or </main> to add the offline search to")
    return page.replace("</head>", head + "</head>", 1).replace("</main>", note + "</main>", 1)


def _copy_static(root: Path) -> None:
    target = root / "static"
    target.mkdir(parents=True, exist_ok=True)
    for f in sorted(STATIC.iterdir()):
        if f.is_file() and f.name not in LIVE_ONLY:
            shutil.copyfile(f, target / f.name)


# -- the knowledge base and the folder ----------------------------------------------------
def _sub_knowledge_base(kb: KnowledgeBase, editions: list[tuple[str, str]]) -> KnowledgeBase:
    """The exported editions only, so every page links only to pages the export writes."""
    wanted = set(editions)
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
