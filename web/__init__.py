"""The Flask app: a JSON API blueprint (/api/v1) and the rules browser site.

``create_app`` loads the knowledge base once; every worker thread shares it read-only. When
the app serves a data directory, ``rulekb build``/``rulekb import`` swap in a new build
without a restart (:class:`kb.live.LiveKnowledgeBase`); each request keeps the one it
started with. Run it in development with ``flask --app web run`` (Flask finds
``create_app``); ``rulekb serve`` runs it on waitress.

Every answer, HTML or JSON, carries the same hardening headers (:func:`harden`): a
Content-Security-Policy allowing this site's own scripts and styles only, ``nosniff`` (error
messages echo input) and a same-origin Referrer-Policy. Absolute links (citations without a
``base_url``, the API page's examples) start with the configured public URL
(``RULEKB_PUBLIC_URL``), never with the request's ``Host`` header; without one they are
relative to the site's root.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from urllib.parse import unquote_to_bytes

from flask import Flask, Response, current_app, g, has_request_context, request

from kb.errors import QueryError
from kb.limits import REQUEST_BYTES, SITE_FORM
from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase
from kb.store import default_home


def create_app(home: Path | None = None, kb: KnowledgeBase | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the app for the knowledge base in ``home`` (or an already loaded ``kb``).

    ``config`` may set ``RULEKB_RELOAD_INTERVAL`` (seconds between checks for a new build,
    default 1), ``RULEKB_PUBLIC_URL`` (the ``http(s)://`` address readers reach the site
    at, which absolute links start with; default: the environment variable of the same
    name, else links are relative) and ``RULEKB_API_HELLO`` (a bare ``/api/_hello`` view
    for the bench; also turned on by the environment variable of the same name) and
    ``RULEKB_WAIT_READY`` (``rulekb serve``: load the build in the background and answer
    every page and operation but ``/api/v1/health`` 503 with ``Retry-After`` until it is
    loaded and warmed; without it, the build loads before this returns and warms while
    answering).
    """
    app = Flask(__name__)
    app.config.update(RULEKB_HOME=home or default_home(), MAX_CONTENT_LENGTH=REQUEST_BYTES.value,
                      RULEKB_RELOAD_INTERVAL=1.0,
                      RULEKB_PUBLIC_URL=os.environ.get("RULEKB_PUBLIC_URL", ""),
                      RULEKB_API_HELLO=os.environ.get("RULEKB_API_HELLO", "") not in ("", "0"),
                      RULEKB_WAIT_READY=False)
    if config:
        app.config.update(config)
    app.config["RULEKB_PUBLIC_URL"] = _public_url(app.config["RULEKB_PUBLIC_URL"])
    wait = bool(app.config["RULEKB_WAIT_READY"])
    app.extensions["rulekb"] = (LiveKnowledgeBase(kb=kb, warm=wait) if kb is not None else
                                LiveKnowledgeBase(app.config["RULEKB_HOME"], background=wait,
                                                  interval=app.config["RULEKB_RELOAD_INTERVAL"]))
    from web import api, offline, site
    if wait:  # first: a starting server does no other work for a request
        from web.api.health import wait_until_ready
        app.before_request(wait_until_ready)
    app.before_request(check_query_and_form)
    app.register_blueprint(api.bp)
    app.register_blueprint(site.bp)
    app.register_blueprint(offline.bp)
    api.install(app)  # last: JSON errors under /api whatever handlers the site registered
    # The hardening headers go on right after each view, before the app's own after_request
    # functions (so one registered later, a test's or an extension's, sees them): on every
    # blueprint's answers, and on those no blueprint makes (static files, unknown paths).
    for name in app.blueprints:
        app.after_request_funcs.setdefault(name, []).insert(0, harden)
    app.after_request(_harden_outside_blueprints)
    return app


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


def _harden_outside_blueprints(response: Response) -> Response:
    return response if request.blueprints else harden(response)


def _public_url(value: str) -> str:
    """The configured public URL without its trailing slash; QueryError unless it is empty
    or an ``http(s)://host`` URL."""
    from kb.cite.annotate import check_base_url
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
