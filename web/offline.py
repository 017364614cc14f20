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

from kb.derived import derived
from kb.query import KnowledgeBase, QueryError
from web.pack import add_offline_search, plan_layout, roots, search_index_script
from web.serving import current_kb
from web.site.errors import error_page
from web.site.frame import base_context
from web.site.pages import glossary_page, glossary_split, search_page

bp = Blueprint("offline", __name__)  # its answers get the app's hardening headers (web.serving.harden)


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


def edition_choices(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """Every edition a judge can keep offline, newest first per ruleset."""
    out = []
    for r in kb.rulesets():
        for e in reversed(kb.editions(r["name"])):
            out.append({"ruleset": r["name"], "title": r["title"], "edition": e["edition"],
                        "date": e["date"], "rules": e["rules"], "partial": e.get("partial", False)})
    return out


@bp.get("/offline")
def offline_page() -> Any:
    kb = current_kb()
    return render_template("offline.html", **base_context(kb), choices=edition_choices(kb))


@derived
def edition_pages(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, Any]:
    """The pages that make an edition readable offline (paths from the site root), and the
    page (section and part, with the rule's anchor) that shows each rule."""
    kb.edition(ruleset, edition)  # 404 for an unknown edition
    layout = plan_layout(kb, [(ruleset, edition)])
    pages = [url_for("site.contents", ruleset=ruleset, edition=edition),
             url_for("site.glossary", ruleset=ruleset, edition=edition)]
    if glossary_split(kb, ruleset, edition):
        pages += [url_for("site.glossary_letter", ruleset=ruleset, edition=edition, letter=letter)
                  for letter in glossary_page(kb, ruleset, edition)["letters"]]
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
    listed = next((e for e in kb.editions(ruleset) if e["edition"] == edition), {})
    date, partial = listed.get("date"), bool(listed.get("partial"))
    # partial: the service worker's /ruleset/ address passes over a kept excerpt as the site's default does
    return {"ruleset": ruleset, "edition": edition, "date": date, "partial": partial, "build": kb.build_id, "pages": pages,
            "rules": rules, "search_index": url_for("offline.search_index", ruleset=ruleset, edition=edition)}


@bp.get("/offline/editions/<ruleset>/<edition>.json")
def edition_manifest(ruleset: str, edition: str) -> Response:
    data = edition_pages(current_kb(), ruleset, edition)
    return Response(json.dumps(data, ensure_ascii=False), mimetype="application/json")


@derived
def edition_search_script(kb: KnowledgeBase, ruleset: str, edition: str) -> str:
    """An edition's browser search index, its results linking to the live rule pages
    (QueryError 404 for an unknown edition)."""
    return search_index_script(kb, ruleset, edition, lambda n: f"{ruleset}/{edition}/{n}")


@bp.get("/offline/search-index/<ruleset>/<edition>.js")
def search_index(ruleset: str, edition: str) -> Response:
    return Response(edition_search_script(current_kb(), ruleset, edition), mimetype="text/javascript")


@bp.get("/search-offline")
def search_offline() -> Any:
    """The search page answered in the browser (what the worker shows for a search offline)."""
    kb = current_kb()
    ctx, _ = search_page(kb, "", None, None)
    catalog = {"rulesets": [{"name": r["name"], "title": r["title"], "editions": r["editions"]}
                            for r in kb.rulesets()],
               "default_ruleset": kb.default_ruleset(), "search_page": "search",
               "indexes": {f"{c['ruleset']}/{c['edition']}": f"offline/search-index/{c['ruleset']}/{c['edition']}.js"
                           for c in edition_choices(kb)}}
    return add_offline_search(render_template("search.html", **ctx), catalog)


@bp.errorhandler(QueryError)
def query_error(exc: QueryError) -> Any:
    """An offline page that cannot be made: the site's error page."""
    return error_page(exc.status, exc.message, exc.detail)
