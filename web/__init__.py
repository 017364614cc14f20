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
import threading
from pathlib import Path
from typing import Any

from flask import Flask

from kb.limits import REQUEST_BYTES
from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase
from kb.store import default_home
from web import api, offline, site
from web.api.health import wait_until_ready
# ``web`` is the composition root, above every blueprint: a blueprint module imports these
# from web.serving, never from ``web`` (re-exported for the callers outside web).
from web.serving import (CSP, check_query_and_form, checked_public_url, current_kb, get_kb, harden,
                         harden_outside_blueprints, public_url)

__all__ = ["CSP", "create_app", "current_kb", "get_kb", "harden", "public_url"]


def create_app(home: str | os.PathLike[str] | None = None, kb: KnowledgeBase | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the app for the knowledge base in ``home`` (a path, as text or a Path; or an
    already loaded ``kb``).

    ``config`` may set ``RULEKB_RELOAD_INTERVAL`` (seconds between checks for a new build,
    default 1), ``RULEKB_PUBLIC_URL`` (the ``http(s)://`` address readers reach the site
    at, which absolute links start with; default: the environment variable of the same
    name, else links are relative) and ``RULEKB_API_HELLO`` (a bare ``/api/_hello`` view
    for the bench; also turned on by the environment variable of the same name) and
    ``RULEKB_WAIT_READY`` (``rulekb serve``: load the build in the background and answer
    every page and operation but ``/api/v1/health`` 503 with ``Retry-After`` until it is
    loaded and warmed; without it, the build loads before this returns and warms while
    answering) and ``RULEKB_LISTENING`` (``rulekb serve``: the ``http://host:port`` it
    listens at, which the /api page's curl examples start with when no public URL is set).
    """
    app = Flask(__name__)
    app.config.update(RULEKB_HOME=Path(home) if home else default_home(), MAX_CONTENT_LENGTH=REQUEST_BYTES.value,
                      RULEKB_RELOAD_INTERVAL=1.0,
                      RULEKB_PUBLIC_URL=os.environ.get("RULEKB_PUBLIC_URL", ""),
                      RULEKB_API_HELLO=os.environ.get("RULEKB_API_HELLO", "") not in ("", "0"),
                      RULEKB_WAIT_READY=False)
    if config:
        app.config.update(config)
    app.config["RULEKB_PUBLIC_URL"] = checked_public_url(app.config["RULEKB_PUBLIC_URL"])
    wait = bool(app.config["RULEKB_WAIT_READY"])
    app.extensions["rulekb"] = (LiveKnowledgeBase(kb=kb, warm=wait) if kb is not None else
                                LiveKnowledgeBase(app.config["RULEKB_HOME"], background=wait,
                                                  interval=app.config["RULEKB_RELOAD_INTERVAL"]))
    if wait:  # first: a starting server does no other work for a request
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
    app.after_request(harden_outside_blueprints)
    if wait:  # once the blueprints have registered their template filters, which pages use
        compiling = threading.Thread(target=compile_templates, args=(app,), name="rulekb-templates", daemon=True)
        app.extensions["rulekb_templates"] = compiling
        compiling.start()
    return app


def compile_templates(app: Flask) -> None:
    """Compile every page template once, into the app's template cache. Jinja compiles a
    template on its first render: the first rule page after a start waited about 0.3 s for
    its four (``rulekb serve`` does this while the build loads and warms)."""
    for name in app.jinja_env.list_templates():
        app.jinja_env.get_template(name)
