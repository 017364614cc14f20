"""What every answer of the app shares, below the API, the site and the offline pages.

The request's knowledge base (:func:`current_kb`: one build per request, even across a
reload), the hardening headers (:func:`harden`), the check that a query string or form is
UTF-8 text within ``site.form`` (:func:`check_query_and_form`) and where absolute links
start (:func:`public_url`). Every blueprint imports this module; it imports none of them.
And how ``rulekb serve`` stops: :func:`serve_until_stopped` runs the server until SIGTERM
or Ctrl-C, then answers the requests it has before it ends.
"""

from __future__ import annotations

import re
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

from flask import Flask, Response, current_app, g, has_request_context, request
from waitress import wasyncore

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


# -- stopping the server -----------------------------------------------------------------------
#: How long a stop waits for the requests in progress to be answered and sent (seconds).
STOP_GRACE = 30.0
#: The signals that stop the server cleanly: ``kill`` (or a service manager) and Ctrl-C.
STOP_SIGNALS = ("SIGTERM", "SIGINT")
_DRAIN_POLL = 0.05  # seconds the loop waits for I/O while it drains


@dataclass(frozen=True)
class Stopped:
    """How a server run by :func:`serve_until_stopped` ended."""

    signal: str | None  #: the stop signal's name (SIGTERM, SIGINT); None: it ended by itself
    in_progress: int    #: requests received and not yet answered when the stop came
    unfinished: int     #: of them, those still unanswered when the grace ran out (or a second signal)

    def sentence(self, who: str = "rulekb") -> str:
        """One line for the log: what stopped it and what became of the requests it had."""
        why = f" on {self.signal}" if self.signal else ""
        if not self.in_progress:
            return f"{who} stopped{why}: no request was in progress"
        answered = self.in_progress - self.unfinished
        said = f"{who} stopped{why}: {answered} of {self.in_progress} request(s) in progress answered"
        return said + (f", {self.unfinished} cut off" if self.unfinished else "")


def _socket_map(server: Any) -> dict[int, Any]:
    """The waitress server's socket map: its listening sockets, connections and trigger."""
    from waitress.server import MultiSocketServer
    return server.map if isinstance(server, MultiSocketServer) else server._map


def _requests_in_progress(socket_map: dict[int, Any]) -> int:
    """Requests received whole and not yet answered and sent, over every connection."""
    return sum(len(ch.requests) or bool(ch.total_outbufs_len) for ch in list(socket_map.values())
               if hasattr(ch, "requests") and ch.connected)


def serve_until_stopped(server: Any, grace: float = STOP_GRACE) -> Stopped:
    """Run a waitress server (``waitress.server.create_server``'s) until SIGTERM or SIGINT,
    then stop cleanly: the listening sockets close (a new connection is refused), the
    requests received are answered and sent, for at most ``grace`` seconds (a second signal
    cuts that short), and the connections and worker threads close. Returns what it stopped
    on and what became of the requests, for the caller to say; a stop asked for is no error.

    The handlers are installed only in the main thread (Python's signals go there) and are
    put back afterwards; elsewhere a KeyboardInterrupt ends it as waitress's ``run`` would."""
    socket_map = _socket_map(server)
    asked: list[int] = []
    previous: dict[int, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for name in STOP_SIGNALS:
            number = getattr(signal, name, None)
            if number is not None:
                previous[number] = signal.signal(number, lambda signum, _frame: asked.append(signum))
    adj = server.adj
    in_progress = unfinished = 0
    try:
        # A signal lands between two turns of the loop: it is seen within one loop timeout.
        while not asked and socket_map:
            wasyncore.loop(timeout=adj.asyncore_loop_timeout, map=socket_map, use_poll=adj.asyncore_use_poll,
                           count=1)
        in_progress = _requests_in_progress(socket_map)
        for connection in list(socket_map.values()):  # idle ones (keep-alive) close now
            if hasattr(connection, "requests") and not connection.requests and not connection.total_outbufs_len:
                connection.will_close = True
        for listening in [d for d in socket_map.values() if getattr(d, "accepting", False)]:
            wasyncore.dispatcher.close(listening)  # the socket only: the trigger still wakes the loop
        deadline = time.monotonic() + grace
        while len(asked) < 2 and time.monotonic() < deadline and _requests_in_progress(socket_map):
            wasyncore.loop(timeout=_DRAIN_POLL, map=socket_map, use_poll=adj.asyncore_use_poll, count=1)
        unfinished = min(in_progress, _requests_in_progress(socket_map))
    except KeyboardInterrupt:  # outside the main thread: no handler of ours
        asked.append(signal.SIGINT)
    finally:
        server.task_dispatcher.shutdown(timeout=1 if len(asked) > 1 else 5)
        wasyncore.close_all(socket_map, ignore_all=True)
        for number, handler in previous.items():
            signal.signal(number, handler)
    return Stopped(signal.Signals(asked[0]).name if asked else None, in_progress, unfinished)
