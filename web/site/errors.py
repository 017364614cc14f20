"""HTML error pages for the site: a clear message and somewhere to go, never a traceback.

A :class:`~kb.query.QueryError` raised while building a page (unknown rule, edition or
ruleset; a malformed number) becomes a page with its status, its message said as a sentence
(a capital letter, a full stop) and, for a missing rule, links to the nearest existing
numbers. Paths no route knows answer 404 as HTML, except under
``/api``, which always answers in the API's JSON error shape; a page's address typed with a
slash at its end (``/timing/``) is sent on to the page (``/timing``); the API's addresses
are exact.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import current_app, jsonify, make_response, redirect, render_template, request
from werkzeug.exceptions import HTTPException

from kb.numbers import try_parse_number
from kb.errors import QueryError
from web.site.frame import as_sentence, bp, secure

log = logging.getLogger(__name__)

TITLES = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 413: "Too large",
          415: "Unsupported content", 422: "Cannot process", 500: "Something went wrong",
          503: "Not available"}


def error_page(status: int, message: str, detail: Any = None) -> Any:
    """The site's error page (or the API's JSON error shape for a path under /api)."""
    if request.path == "/api" or request.path.startswith("/api/"):
        return jsonify(QueryError(status, message, detail).as_dict()), status
    if status == 404 and (without := _without_trailing_slash()) is not None:
        return redirect(without, 308)
    # The page is encoded as UTF-8: a lone surrogate echoed in a message must not make the
    # error page itself fail. The knowledge base's messages are written in lower case without
    # a full stop (the API's JSON keeps them so): the page says each as a sentence.
    message = as_sentence(message.encode("utf-8", errors="replace").decode("utf-8"))
    ruleset = request.view_args.get("ruleset") if request.view_args else None
    edition = request.view_args.get("edition") if request.view_args else None
    detail = detail if isinstance(detail, dict) else {}
    nearest = [n for n in detail.get("nearest", []) if isinstance(n, str)]
    ed = detail.get("edition") or edition
    ctx = {"status": status, "title": TITLES.get(status, "Error"), "message": message,
           "nearest": nearest if ruleset and ed else [], "in_ruleset": ruleset, "in_edition": ed,
           "editions": detail.get("editions") if isinstance(detail.get("editions"), list) else [],
           "rulesets": detail.get("rulesets") if isinstance(detail.get("rulesets"), list) else [],
           "partial": detail.get("partial", False), "query": _guess_query(),
           "scenarios": [n for n in detail.get("scenarios") or [] if isinstance(n, str)],
           "elsewhere": [o for o in detail.get("other_rulesets") or []
                         if isinstance(o, dict) and all(isinstance(o.get(k), str)
                                                        for k in ("ruleset", "edition", "number"))]}
    return secure(make_response(render_template("error.html", **ctx), status))


def _guess_query() -> str:
    """What a search for the missing page would look for: its last path segment."""
    last = request.path.rstrip("/").rsplit("/", 1)[-1]
    return last if try_parse_number(last) else ""


@bp.errorhandler(QueryError)
def query_error(exc: QueryError) -> Any:
    return error_page(exc.status, exc.message, exc.detail)


@bp.errorhandler(HTTPException)
def http_error(exc: HTTPException) -> Any:
    return error_page(exc.code or 500, exc.description or TITLES.get(exc.code or 500, "Error"))


@bp.errorhandler(Exception)
def unexpected(exc: Exception) -> Any:
    log.exception("error while rendering %s", request.path)
    return error_page(500, "The page could not be built. The error has been logged.")


@bp.app_errorhandler(404)
def not_found(exc: HTTPException) -> Any:
    return error_page(404, "There is no page at this address.")


def _without_trailing_slash() -> str | None:
    """The address without its last ``/`` when a route answers there, with the query kept
    (a relative link on the page is right only at the page's own address, so this is a
    redirect, not the page served at both)."""
    path = request.path
    if len(path) < 2 or not path.endswith("/"):
        return None
    adapter = current_app.url_map.bind_to_environ(request.environ)
    try:
        _, args = adapter.match(path[:-1], method=request.method)
    except HTTPException:  # no route there either (or one that redirects elsewhere)
        return None
    if args:  # only a fixed page (/timing, /search): a rule's or edition's route may send it back here
        return None
    query = request.query_string.decode("latin-1")
    return path[:-1] + (f"?{query}" if query else "")


@bp.app_errorhandler(405)
def not_allowed(exc: HTTPException) -> Any:
    return error_page(405, "This page does not accept that kind of request.")
