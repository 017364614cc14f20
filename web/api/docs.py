"""The API describing itself: the OpenAPI document and a page for people."""

from __future__ import annotations

from itertools import groupby

from flask import Response, current_app, render_template
from markdown_it import MarkdownIt
from markupsafe import Markup

from web.serving import public_url
from web.api.base import PACKAGE_VERSION, answer, bp
from web.openapi import ENDPOINTS, SCHEMAS, document, endpoint, obj

SCHEMAS["OpenAPI"] = obj({"openapi": {"const": "3.1.0"}, "info": {"type": "object"},
                          "paths": {"type": "object"}}, closed=False,
                         description="An OpenAPI 3.1 document.")

_TAGS = {"rules": "Rules, structure, terms and the graph", "search": "Search",
         "timing": "The timing model", "citations": "Citation linking",
         "editions": "Comparing editions", "meta": "About the API"}


@endpoint(bp, "GET", "/openapi.json", tag="meta", response="OpenAPI",
          summary="This API as an OpenAPI 3.1 document", examples=("/api/openapi.json",))
def openapi() -> Response:
    """Every operation, parameter and response schema of the API; the same schemas check
    the parameters the server accepts."""
    return answer(document(version=PACKAGE_VERSION))


@bp.get("")
@bp.get("/")
def page() -> str:
    """The API page for people: every operation with its parameters and examples."""
    md = MarkdownIt("commonmark")
    ops = sorted((e for e in ENDPOINTS.values() if not e.hidden),
                 key=lambda e: (list(_TAGS).index(e.tag) if e.tag in _TAGS else 99, e.path, e.method))
    groups = [(_TAGS.get(tag, tag),
               [(e, Markup(md.render(e.description)),
                 [(p, Markup(md.renderInline(p.description))) for p in e.params]) for e in items])
              for tag, items in groupby(ops, key=lambda e: e.tag)]
    # The examples' address: the configured public URL, else the address `rulekb serve`
    # listens at, else a placeholder to replace (the Host header, which any client can set,
    # is never written into a page).
    return render_template("api.html", groups=groups, version=PACKAGE_VERSION,
                           base=public_url() or current_app.config.get("RULEKB_LISTENING")
                           or "http://127.0.0.1:8000")
