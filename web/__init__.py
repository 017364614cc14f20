"""The Flask app: a JSON API blueprint (/api/v1) and the rules browser site.

``create_app`` loads the knowledge base once; every worker thread shares it read-only. When
the app serves a data directory, ``rulekb build``/``rulekb import`` swap in a new build
without a restart (:class:`kb.live.LiveKnowledgeBase`); each request keeps the one it
started with. Run it in development with ``flask --app web run`` (Flask finds
``create_app``); ``rulekb serve`` runs it on waitress.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, g, has_request_context

from kb.limits import REQUEST_BYTES
from kb.live import LiveKnowledgeBase
from kb.query import KnowledgeBase
from kb.store import default_home


def create_app(home: Path | None = None, kb: KnowledgeBase | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the app for the knowledge base in ``home`` (or an already loaded ``kb``).

    ``config`` may set ``RULEKB_RELOAD_INTERVAL`` (seconds between checks for a new build,
    default 1) and ``RULEKB_API_HELLO`` (a bare ``/api/_hello`` view for the bench; also
    turned on by the environment variable of the same name).
    """
    app = Flask(__name__)
    app.config.update(RULEKB_HOME=home or default_home(), MAX_CONTENT_LENGTH=REQUEST_BYTES.value,
                      RULEKB_RELOAD_INTERVAL=1.0,
                      RULEKB_API_HELLO=os.environ.get("RULEKB_API_HELLO", "") not in ("", "0"))
    if config:
        app.config.update(config)
    app.extensions["rulekb"] = (LiveKnowledgeBase(kb=kb) if kb is not None else
                                LiveKnowledgeBase(app.config["RULEKB_HOME"],
                                                  interval=app.config["RULEKB_RELOAD_INTERVAL"]))
    from web import api, offline, site
    app.register_blueprint(api.bp)
    app.register_blueprint(site.bp)
    app.register_blueprint(offline.bp)
    api.install(app)  # last: JSON errors under /api whatever handlers the site registered
    return app


def get_kb(app: Flask) -> KnowledgeBase:
    """The knowledge base the app serves; within a request, the same one until it ends."""
    live: LiveKnowledgeBase = app.extensions["rulekb"]
    if not has_request_context():
        return live.current()
    if "rulekb" not in g:
        g.rulekb = live.current()
    return g.rulekb
