"""What every API route module shares: the blueprint, the parameters several operations
take, the request's knowledge base, answers with their headers, the conditional GET and
the answer cache, and the one error shape (see :mod:`web.api`). Route modules import this
module, never the package, so the package can import them all without a circle."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from flask import Blueprint, Flask, Response, current_app, g, request, url_for
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from kb.derived import derived
from kb.editions.queries import named_edition
from kb.files import home_of_build
from kb.inputs import loads_json
from kb.limits import REQUEST_BYTES
from kb.query import KnowledgeBase, QueryError
from kb.search.cards import cards_stamp
from web.openapi import (DATE_PATTERN, LOOKUP_NUMBER_PATTERN, NAME_PATTERN, Param, body_validator,
                         endpoint_of)
from web.serving import current_kb

log = logging.getLogger(__name__)

bp = Blueprint("api", __name__, url_prefix="/api")

try:
    PACKAGE_VERSION = version("rulekb")
except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    PACKAGE_VERSION = "0"

JSON_TYPE = "application/json"
CACHE_CONTROL = "public, max-age=60"
DEFAULT_CACHE_BYTES = 64 * 1024 * 1024  # of recent GET answers (RULEKB_API_CACHE_BYTES; 0: none)
EXPOSED = "ETag, Last-Modified, X-Rulekb-Edition, X-Rulekb-Build"

# -- parameters shared by several operations ---------------------------------------------
RULESET = Param("ruleset", {"type": "string", "pattern": NAME_PATTERN},
                "Ruleset name, e.g. riftbound or mtg.", where="path", example="riftbound")
# What an edition parameter means, the same on every operation (kb.editions.queries.named_edition).
EDITION_IS_A_NAME = ("An edition's name only: a date that names no edition is refused (404 naming the "
                     "edition in force then); ask by `date` for that.")
EDITION = Param("edition", {"type": "string", "pattern": NAME_PATTERN},
                "Edition name, e.g. 1.4 or 2026-01-16 (default: the newest full edition). " + EDITION_IS_A_NAME,
                example="1.4")
DATE = Param("date", {"type": "string", "format": "date", "pattern": DATE_PATTERN},
             "Answer from the edition in force on this date (YYYY-MM-DD); with `edition` "
             "as well, that edition must be the one in force then.",
             example="2026-01-01")
RULE_LOOKUP = Param("number", {"type": "string", "maxLength": 64, "pattern": LOOKUP_NUMBER_PATTERN},
                    "A rule number, written loosely or not: 337.1.a, 337.1a, 337.1(a), 337.1 a, "
                    "rule 337.1.a., CR 116.3d.", where="path", example="337.1.a")


def edition_of(ruleset: str, edition: str | None, date: str | None = None) -> Any:
    """The edition asked for by name or by date, or the newest (a RuleGraph).

    Given both, the named edition must be the one in force on the date (404 otherwise,
    naming the one that was).
    """
    return named_edition(current_kb(), ruleset, edition, date)


CITED_BY_ROUTE = "api.cited_by"  # the operation paging a rule's cited_by (web.api.records)


def with_next_cited_by(page: dict[str, Any], ruleset: str, edition: str, number: str) -> dict[str, Any]:
    """A page of a rule's ``cited_by`` (:func:`kb.records.cited_by_page`) with ``next``:
    the path of the page after it on the cited-by operation, for the same edition, kind and
    page size (None on the last page)."""
    start = page["next_offset"]
    query = {k: v for k, v in (("edition", edition), ("kind", page["kind"]), ("offset", start),
                               ("limit", page["limit"])) if v is not None}
    return {**page, "next": None if start is None else url_for(CITED_BY_ROUTE, ruleset=ruleset,
                                                               number=number, **query)}


def answer(data: dict[str, Any], *names: str) -> Response:
    """A JSON answer naming the edition(s) it came from (``"riftbound 1.4"``).

    Without ``names``, the body's own ``ruleset`` and ``edition`` name it.
    """
    if not names and isinstance(data.get("ruleset"), str) and isinstance(data.get("edition"), str):
        names = (f"{data['ruleset']} {data['edition']}",)
    resp = Response(encode(data, separators=(",", ":")), mimetype=JSON_TYPE)
    if names:
        resp.headers["X-Rulekb-Edition"] = ", ".join(names)
    return resp


def encode(data: Any, **dumps: Any) -> bytes:
    """JSON as UTF-8 that never fails: a lone surrogate (which only an echoed input could
    carry) becomes ``?`` instead of making the answer, or the error answer, a 500."""
    return json.dumps(data, ensure_ascii=False, **dumps).encode("utf-8", errors="replace")


def read_body(budget: Callable[[Any], None] | None = None) -> Any:
    """The request body as JSON, checked against the schema of the operation answering.

    ``budget`` checks the operation's input budgets (kb/limits.py) on the parsed body before
    the schema is checked: checking 9,000 timing steps against it took 135 ms.

    415 when it is not sent as JSON, 413 when too large, 400 when it does not parse or
    holds a lone surrogate, 422 when nested past ``input.nesting`` or (with every place
    that is wrong, up to 20) when it is not the documented shape.
    """
    ep = endpoint_of(request.endpoint)
    if ep is None or ep.body is None:
        raise RuntimeError(f"{request.endpoint} declares no request body")
    if not (request.mimetype == JSON_TYPE or request.mimetype.endswith("+json")):
        raise QueryError(415, "the request body must be JSON (Content-Type: application/json)",
                         {"content_type": request.content_type or None})
    raw = request.get_data(cache=False)  # 413 past MAX_CONTENT_LENGTH
    try:
        # 422 past the nesting limit, 400 for a lone surrogate, naming the JSON path.
        data = loads_json(raw, "request body")
    except json.JSONDecodeError as exc:
        raise QueryError(400, f"the request body is not valid JSON: {exc.msg}",
                         {"line": exc.lineno, "column": exc.colno}) from None
    except ValueError as exc:  # not UTF-8
        raise QueryError(400, "the request body is not valid JSON",
                         {"reason": type(exc).__name__}) from None
    if budget is not None:
        budget(data)
    validator = body_validator(ep)
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        places = [{"path": "/" + "/".join(str(p) for p in e.absolute_path), "message": e.message[:300]}
                  for e in errors[:20]]
        first = places[0]
        raise QueryError(422, f"the request body is not a {ep.body}: at {first['path']}: "
                              f"{first['message']}"[:400], {"errors": places})
    return data


# -- conditional GET, headers, CORS ------------------------------------------------------------
def _validators(kb: KnowledgeBase) -> tuple[str, datetime]:
    """The (unquoted) ETag and Last-Modified of this request's answer: both follow the build."""
    if "rulekb_etag" not in g:
        key = "\0".join((PACKAGE_VERSION, answers_version(kb), request.path,
                         request.query_string.decode("latin-1")))
        g.rulekb_etag = hashlib.blake2b(key.encode(), digest_size=12).hexdigest()
        g.rulekb_modified = _built(kb)
    return g.rulekb_etag, g.rulekb_modified


def answers_version(kb: KnowledgeBase) -> str:
    """What an answer depends on besides its URL: the build, and the user's card lists
    (``rulekb cards import``), which change without a new build."""
    if "rulekb_version" not in g:
        g.rulekb_version = kb.build_id + "\0" + cards_stamp(home_of_build(kb.build_dir))
    return g.rulekb_version


@derived
def _built(kb: KnowledgeBase) -> datetime:
    """When the build was made (Last-Modified of every answer from it), once per build."""
    # a knowledge base held in memory has none: since this app started
    return kb.built_at or current_app.extensions["rulekb.started"]


class AnswerCache:
    """Recent GET answers of one build, by path and query string.

    A build is read-only, so an answer is a function of the build and the URL (which is
    also what the ETag says); recent ones are kept, least recently used dropped first, up
    to ``max_bytes`` of JSON. A new build (or card list: :func:`answers_version`) empties it.
    """

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._items: OrderedDict[tuple[str, bytes], tuple[bytes, str | None]] = OrderedDict()
        self._size = 0
        self._build = ""

    def get(self, build: str, key: tuple[str, bytes]) -> tuple[bytes, str | None] | None:
        with self._lock:
            if build != self._build:
                return None
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, build: str, key: tuple[str, bytes], body: bytes, edition: str | None) -> None:
        if len(body) > self.max_bytes // 16:
            return
        with self._lock:
            if build != self._build:
                self._items.clear()
                self._size, self._build = 0, build
            if key in self._items:
                return
            self._items[key] = (body, edition)
            self._size += len(body)
            while self._size > self.max_bytes:
                _, (old, _) = self._items.popitem(last=False)
                self._size -= len(old)


@bp.before_request
def _revalidate() -> Response | None:
    """304 for a still-fresh ETag or date; else a recent identical answer, if kept."""
    ep = endpoint_of(request.endpoint)
    if ep is None or not ep.cached or request.method not in ("GET", "HEAD"):
        return None
    kb = current_kb()
    etag, modified = _validators(kb)
    fresh = (request.if_none_match.contains_weak(etag) if request.if_none_match
             else request.if_modified_since is not None and modified <= request.if_modified_since)
    if fresh:
        resp = Response(status=304)
        resp.set_etag(etag)
        resp.headers["Cache-Control"] = CACHE_CONTROL
        return resp
    answers: AnswerCache | None = current_app.extensions.get("rulekb.answers")
    if answers is not None:
        kept = answers.get(answers_version(kb), (request.path, request.query_string))
        if kept is not None:
            g.rulekb_kept = True
            resp = Response(kept[0], mimetype=ep.media_type)
            if kept[1]:
                resp.headers["X-Rulekb-Edition"] = kept[1]
            return resp
    return None


def _finish(resp: Response) -> Response:
    """Headers every /api answer carries (installed on the app, so routing errors get them)."""
    if not _is_api():
        return resp
    kb = g.get("rulekb")
    if kb is not None:
        resp.headers["X-Rulekb-Build"] = kb.build_id
    ep = endpoint_of(request.endpoint)
    if (ep is not None and ep.cached and request.method in ("GET", "HEAD")
            and resp.status_code == 200 and kb is not None):
        etag, modified = _validators(kb)
        resp.set_etag(etag)
        resp.last_modified = modified
        resp.headers["Cache-Control"] = CACHE_CONTROL
        answers: AnswerCache | None = current_app.extensions.get("rulekb.answers")
        if answers is not None and request.method == "GET" and not g.get("rulekb_kept"):
            answers.put(answers_version(kb), (request.path, request.query_string),
                        resp.get_data(), resp.headers.get("X-Rulekb-Edition"))
    if request.method in ("GET", "HEAD", "OPTIONS"):
        resp.headers["Access-Control-Allow-Origin"] = "*"
        resp.headers["Access-Control-Expose-Headers"] = EXPOSED
        if request.method == "OPTIONS":
            resp.headers["Access-Control-Allow-Methods"] = "GET, HEAD, OPTIONS"
            resp.headers["Access-Control-Allow-Headers"] = "If-None-Match, If-Modified-Since"
            resp.headers["Access-Control-Max-Age"] = "86400"
    return resp


# -- one error shape ---------------------------------------------------------------------------
def _is_api() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def error_response(exc: BaseException) -> Response:
    """The one error shape for anything raised while answering under /api."""
    headers: dict[str, str] = {}
    if isinstance(exc, QueryError):
        err = exc
    elif isinstance(exc, HTTPException):
        status = exc.code or 500
        message = exc.description or exc.name
        detail: dict[str, Any] | None = None
        if status == 404:
            message = f"no API operation at {request.path[:200]}"
            detail = {"path": request.path[:200], "operations": "/api/openapi.json"}
        elif isinstance(exc, MethodNotAllowed):
            allowed = sorted(exc.valid_methods or [])
            detail = {"method": request.method, "allowed": allowed}
            headers["Allow"] = ", ".join(allowed)
        elif status == 413:  # past MAX_CONTENT_LENGTH: the request.bytes budget, named
            most = current_app.config.get("MAX_CONTENT_LENGTH")
            if isinstance(most, int):
                message = (f"over the limit {REQUEST_BYTES.name}: {REQUEST_BYTES.what} "
                           f"(at most {most:,} {REQUEST_BYTES.unit})")
            detail = {"max_bytes": most, "limit": REQUEST_BYTES.name}
        err = QueryError(status, message, detail)
    else:
        log.error("error answering %s %s", request.method, request.path, exc_info=exc)
        err = QueryError(500, "internal error: the knowledge base could not answer this request",
                         {"exception": type(exc).__name__})
    resp = Response(encode(err.as_dict()), status=err.status,
                    mimetype=JSON_TYPE, headers=headers)
    return resp


def install(app: Flask) -> None:
    """JSON errors and shared headers for /api paths, whatever else the app registers.

    Call it after every blueprint is registered: an error handler another blueprint put on
    the app (the site's HTML 404 page) keeps answering outside /api.
    """
    app.extensions["rulekb.started"] = datetime.now(timezone.utc).replace(microsecond=0)
    cache_bytes = int(app.config.get("RULEKB_API_CACHE_BYTES",
                                     os.environ.get("RULEKB_API_CACHE_BYTES", DEFAULT_CACHE_BYTES)))
    if cache_bytes > 0:
        app.extensions["rulekb.answers"] = AnswerCache(cache_bytes)
    app.after_request(_finish)
    app_handlers = app.error_handler_spec.setdefault(None, {})
    for code, by_class in app_handlers.items():
        for cls, handler in list(by_class.items()):
            by_class[cls] = _api_first(handler)
    for cls in (QueryError, HTTPException, Exception):
        if cls not in app_handlers.get(None, {}):
            app.register_error_handler(cls, _api_first(None))
    if app.config.get("RULEKB_API_HELLO"):
        # The bench's ceiling: a bare Flask view on the same server, outside the API's hooks.
        app.add_url_rule("/api/_hello", "api_hello", lambda: "hello")


def _api_first(fallback: Any) -> Any:
    def handle(exc: BaseException) -> Any:
        if _is_api():
            return error_response(exc)
        if fallback is not None:
            return fallback(exc)
        if isinstance(exc, HTTPException):
            return exc
        raise exc
    handle.__name__ = getattr(fallback, "__name__", "api_error")
    return handle
