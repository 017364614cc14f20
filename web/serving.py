"""What every answer of the app shares, below the API, the site and the offline pages.

The request's knowledge base (:func:`current_kb`: one build per request, even across a
reload), the hardening headers (:func:`harden`), the check that a query string or form is
UTF-8 text within ``site.form`` (:func:`check_query_and_form`) and where absolute links
start (:func:`public_url`). Every blueprint imports this module; it imports none of them.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, current_app, g, has_request_context, request

from kb.cite.annotate import check_base_url
from kb.errors import QueryError
from kb.limits import SITE_FORM
from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase


# Scripts and styles from this site only, no inline script, so text that smuggles markup
# past the escaping still cannot run; the same policy for every answer (a JSON answer
# opened as a page, the service worker's script) keeps one rule to reason about.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def harden(response: Response) -> Response:
    """The headers every answer carries, HTML or JSON (a view may set its own first)."""
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


# Runs of bytes at or above 0x80 of a query string or form, escaped or raw: only they can
# make it invalid UTF-8, and runs apart (ASCII between them) are valid or not on their own.
_HIGH_RUN = re.compile(rb"(?:%[89A-Fa-f][0-9A-Fa-f]|[\x80-\xff])+")


def check_query_and_form() -> None:
    """400 for a query string or a form whose bytes are not UTF-8 text (``%FF``, a lone
    surrogate's ``%ED%A0%80``), instead of answering for ``%FF`` as text; 413 for a form
    over ``site.form`` before it is parsed (werkzeug pays about 2.5 µs per escape)."""
    if request.url_rule is None:  # no such page: its 404 says enough
        return
    parts = [("query string", request.query_string)]
    if request.mimetype == "application/x-www-form-urlencoded":
        if request.content_length is not None:
            SITE_FORM.check(request.content_length, "the form")
        raw = request.get_data(cache=True)  # the form is parsed from it afterwards
        SITE_FORM.check(len(raw), "the form")
        parts.append(("form", raw))
    for what, raw in parts:
        runs = _HIGH_RUN.findall(raw)
        if not runs:
            continue
        # One strict decode of every run, a space (20) between runs, as ASCII stood there.
        decoded = b"20".join(run.replace(b"%", b"") if run.isascii() else unquote_to_bytes(run).hex().encode()
                            for run in runs)
        try:
            bytes.fromhex(decoded.decode("ascii")).decode("utf-8")
        except UnicodeDecodeError:
            bad = next(r for r in runs if not _utf8(unquote_to_bytes(r)))
            raise QueryError(400, f"the {what} is not UTF-8 text: {bad[:24].decode('latin-1')!r} "
                                  "decodes to bytes that are not UTF-8", {"where": what}) from None


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def harden_outside_blueprints(response: Response) -> Response:
    """The hardening headers on an answer no blueprint made (static files, unknown paths)."""
    return response if request.blueprints else harden(response)


def checked_public_url(value: str) -> str:
    """The configured public URL without its trailing slash; QueryError unless it is empty
    or an ``http(s)://host`` URL."""
    value = (value or "").strip().rstrip("/")
    try:
        check_base_url(value)
        ok = not value or value.lower().startswith(("http://", "https://"))
    except QueryError:
        ok = False
    if not ok:
        raise QueryError(400, f"RULEKB_PUBLIC_URL must be an http(s) URL such as "
                              f"https://rules.example.org (got {value[:100]!r})", {"public_url": value[:100]})
    return value


def public_url() -> str:
    """Where absolute links start: the configured public URL, or "" (links relative to the
    site's root). Never the request's ``Host`` header, which any client can set."""
    return str(current_app.config.get("RULEKB_PUBLIC_URL") or "")


def get_kb(app: Flask) -> KnowledgeBase:
    """The knowledge base the app serves; within a request, the same one until it ends."""
    live: LiveKnowledgeBase = app.extensions["rulekb"]
    if not has_request_context():
        return live.current()
    if "rulekb" not in g:
        g.rulekb = live.current()
    return g.rulekb


def current_kb() -> KnowledgeBase:
    """The knowledge base of the request being answered (the same one until it ends)."""
    return get_kb(current_app)
