"""The Flask app: a JSON API blueprint (/api/v1) and the rules browser site.

``create_app`` loads the knowledge base once; every worker thread shares it read-only.
Run it in development with ``flask --app web run``; ``rulekb serve`` runs it on waitress.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask

from kb.query import KnowledgeBase
from kb.store import default_home


def create_app(home: Path | None = None, kb: KnowledgeBase | None = None,
               config: dict[str, Any] | None = None) -> Flask:
    """Build the app for the knowledge base in ``home`` (or an already loaded ``kb``)."""
    app = Flask(__name__)
    app.config.update(RULEKB_HOME=home or default_home(), MAX_CONTENT_LENGTH=2 * 1024 * 1024)
    if config:
        app.config.update(config)
    app.extensions["rulekb"] = kb or KnowledgeBase.open(app.config["RULEKB_HOME"])
    from web import api, site
    app.register_blueprint(api.bp)
    app.register_blueprint(site.bp)
    return app


def get_kb(app: Flask) -> KnowledgeBase:
    """The knowledge base the app serves."""
    return app.extensions["rulekb"]
