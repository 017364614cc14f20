"""The JSON API (``/api/v1``): every question the knowledge base answers, over HTTP.

One module per area (:mod:`web.api.rules`, :mod:`web.api.search`, :mod:`web.api.timing`,
:mod:`web.api.citations`, :mod:`web.api.editions`, :mod:`web.api.docs`, :mod:`web.api.health`,
:mod:`web.api.cards`); each view is
declared once with :func:`web.openapi.endpoint`, which also describes it in the OpenAPI
document. Conventions shared by every operation:

- one error shape for every failure under ``/api`` (``{"error": {status, message,
  detail}}``), whatever raised it: a :class:`~kb.query.QueryError`, an HTTP error from
  routing (404, 405, 413) or a bug (500, logged, no traceback in the answer);
- each answer names the edition(s) it came from (``X-Rulekb-Edition``, and in the body) and
  the build (``X-Rulekb-Build``);
- GET answers carry an ``ETag`` and ``Last-Modified`` derived from the build, and a
  matching ``If-None-Match``/``If-Modified-Since`` answers 304 before any work is done;
  recent GET answers are kept per build (:class:`AnswerCache`) and served again as they are;
- CORS is open for GET (no credentials), so article sites can embed rule text;
- a request takes one knowledge base (:func:`web.serving.current_kb`) and keeps it to the end, so a
  build swapped in meanwhile never mixes into an answer.

The shared conventions live in :mod:`web.api.base`, which every route module imports; this
package only gathers the route modules (a new one is added to the import below).
"""

from __future__ import annotations

from web.api import cards, citations, docs, editions, feeds, health, records, rules, search, timing  # noqa: F401
from web.api.base import PACKAGE_VERSION, bp, error_response, install

__all__ = ["PACKAGE_VERSION", "bp", "cards", "citations", "docs", "editions", "error_response", "feeds",
           "health", "install", "records", "rules", "search", "timing"]
