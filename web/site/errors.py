"""HTML error pages for the site: a clear message and somewhere to go, never a traceback.

A :class:`~kb.query.QueryError` raised while building a page (unknown rule, edition or
ruleset; a malformed number) becomes a page with its status and, for a missing rule, links
to the nearest existing numbers. Paths no route knows answer 404 as HTML, except under
``/api``, which always answers in the API's JSON error shape.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import jsonify, make_response, render_template, request
from werkzeug.exceptions import HTTPException

from kb.numbers import try_parse_number
from kb.errors import QueryError
from web.site.frame import bp, secure

log = logging.getLogger(__name__)

TITLES = {400: "Bad request", 404: "Not found", 405: "Method not allowed", 413: "Too large",
          415: "Unsupported content", 422: "Cannot process", 500: "Something went wrong",
          503: "Not available"}


def error_page(status: int, message: str, detail: Any = None) -> Any:
    """The site's error page (or the API's JSON error shape for a path under /api)."""
    if request.path == "/api" or request.path.startswith("/api/"):
        return jsonify(QueryError(status, message, detail).as_dict()), status
    # The page is encoded as UTF-8: a lone surrogate echoed in a message must not make the
    # error page itself fail.
    message = message.encode("utf-8", errors="replace").decode("utf-8")
    ruleset = request.view_args.get("ruleset") if request.view_args else None
    edition = request.view_args.get("edition") if request.view_args else None
    detail = detail if isinstance(detail, dict) else {}
    nearest = [n for n in detail.get("nearest", []) if isinstance(n, str)]
    ed = detail.get("edition") or edition
    ctx = {"status": status, "title": TITLES.get(status, "Error"), "message": message,
           "nearest": nearest if ruleset and ed else [], "in_ruleset": ruleset, "in_edition": ed,
           "editions": detail.get("editions") if isinstance(detail.get("editions"), list) else [],
           "rulesets": detail.get("rulesets") if isinstance(detail.get("rulesets"), list) else [],
           "partial": detail.get("partial", False), "query": _guess_query()}
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


@bp.app_errorhandler(405)
def not_allowed(exc: HTTPException) -> Any:
    return error_page(405, "This page does not accept that kind of request.")
