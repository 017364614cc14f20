"""The live site, installable and readable offline: web app manifest and service worker.

* ``/sw.js``: the service worker (``static/sw.js``), served from the root so its scope is the
  whole site. It keeps the pages a reader visits, and on request every page of the editions
  a judge picks; offline, a rule's own address opens the section page that shows it, and a
  search is answered in the browser (``/search-offline``, the same script as the static copy).
* ``/manifest.webmanifest``: name, icons and start page, so the site installs as an app.
* ``/offline``: pick editions to keep (``static/offline.js`` talks to the worker).
* ``/offline/editions/<ruleset>/<edition>.json``: the pages to keep for an edition (contents,
  glossary, every section page and part) and which page shows each rule.
* ``/offline/search-index/<ruleset>/<edition>.js``: the edition's browser search index
  (:mod:`kb.export.search_index`), its results linking to the live rule pages.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, render_template, url_for

from kb.export import build_search_index, index_script
from kb.query import KnowledgeBase, QueryError
bp = Blueprint("offline", __name__)  # its answers get the app's hardening headers (web.harden)


def _kb() -> KnowledgeBase:
    from web.site.pages import kb
    return kb()


def _static(name: str, mimetype: str) -> Response:
    response = current_app.send_static_file(name)
    response.mimetype = mimetype
    response.headers["Cache-Control"] = "no-cache"  # a new worker or manifest is seen at once
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    response = _static("sw.js", "text/javascript")
    response.headers["Service-Worker-Allowed"] = url_for("site.home")
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    return _static("manifest.webmanifest", "application/manifest+json")


def edition_choices(k: KnowledgeBase) -> list[dict[str, Any]]:
    """Every edition a judge can keep offline, newest first per ruleset."""
    out = []
    for r in k.rulesets():
        for e in reversed(k.editions(r["name"])):
            out.append({"ruleset": r["name"], "title": r["title"], "edition": e["edition"],
                        "date": e["date"], "rules": e["rules"], "partial": e.get("partial", False)})
    return out


@bp.get("/offline")
def offline_page() -> Any:
    from web.site.pages import base_context
    k = _kb()
    return render_template("offline.html", **base_context(k), choices=edition_choices(k))


def edition_pages(k: KnowledgeBase, ruleset: str, edition: str) -> dict[str, Any]:
    """The pages that make an edition readable offline (paths from the site root), and the
    page (section and part, with the rule's anchor) that shows each rule."""
    def make() -> dict[str, Any]:
        from web.export import plan_layout, roots
        from web.site.pages import glossary_page, glossary_split

        k.edition(ruleset, edition)  # 404 for an unknown edition
        layout = plan_layout(k, [(ruleset, edition)])
        pages = [url_for("site.contents", ruleset=ruleset, edition=edition),
                 url_for("site.glossary", ruleset=ruleset, edition=edition)]
        if glossary_split(k, ruleset, edition):
            pages += [url_for("site.glossary_letter", ruleset=ruleset, edition=edition, letter=letter)
                      for letter in glossary_page(k, ruleset, edition)["letters"]]
        for root, parts in roots(layout, ruleset, edition).items():
            pages.append(url_for("site.rule", ruleset=ruleset, edition=edition, number=root))
            pages += [url_for("site.rule", ruleset=ruleset, edition=edition, number=root, part=p)
                      for p in range(2, parts + 1)]
        rules = {}
        for number, place in layout.places[(ruleset, edition)].items():
            if place.root is None:
                target = url_for("site.contents", ruleset=ruleset, edition=edition)
            else:
                target = url_for("site.rule", ruleset=ruleset, edition=edition, number=place.root,
                                 part=place.part if place.part > 1 else None)
            rules[number] = target + ("" if number == place.root and place.part == 1 else "#" + number)
        return {"ruleset": ruleset, "edition": edition, "build": k.build_id, "pages": pages,
                "rules": rules, "search_index": url_for("offline.search_index", ruleset=ruleset, edition=edition)}
    return k.cached(f"offline-pages:{ruleset}:{edition}", make)


@bp.get("/offline/editions/<ruleset>/<edition>.json")
def edition_manifest(ruleset: str, edition: str) -> Response:
    data = edition_pages(_kb(), ruleset, edition)
    return Response(json.dumps(data, ensure_ascii=False), mimetype="application/json")


@bp.get("/offline/search-index/<ruleset>/<edition>.js")
def search_index(ruleset: str, edition: str) -> Response:
    k = _kb()
    rg = k.edition(ruleset, edition)

    def make() -> str:
        from kb.search import open_searcher
        searcher = k.cached(f"search:{ruleset}:{edition}", lambda: open_searcher(rg, k.build_dir))
        return index_script(build_search_index(rg, searcher, lambda n: f"{ruleset}/{edition}/{n}"))
    return Response(k.cached(f"offline-index:{ruleset}:{edition}", make), mimetype="text/javascript")


@bp.get("/search-offline")
def search_offline() -> Any:
    """The search page answered in the browser (what the worker shows for a search offline)."""
    from web.site.pages import search_page
    k = _kb()
    ctx, _ = search_page(k, "", None, None)
    catalog = {"rulesets": [{"name": r["name"], "title": r["title"], "editions": r["editions"]}
                            for r in k.rulesets()],
               "default_ruleset": k.default_ruleset(), "search_page": "search",
               "indexes": {f"{c['ruleset']}/{c['edition']}": f"offline/search-index/{c['ruleset']}/{c['edition']}.js"
                           for c in edition_choices(k)}}
    from web.export import add_offline_search
    return add_offline_search(render_template("search.html", **ctx), catalog)


@bp.errorhandler(QueryError)
def query_error(exc: QueryError) -> Any:
    from web.site.errors import error_page
    return error_page(exc.status, exc.message, exc.detail)
