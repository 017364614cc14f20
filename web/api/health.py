"""Readiness: whether the build in service answers at full speed, and the answer every
other page and operation gives until it does.

``GET /api/v1/health`` says ``ready`` only once the build in service is loaded and warmed
(:meth:`kb.live.LiveKnowledgeBase.readiness`): 200 then, 503 with ``Retry-After`` before,
with the build, its editions and the warming steps still to do either way. With
``RULEKB_WAIT_READY`` (``rulekb serve`` sets it), every other page and operation answers 503
with ``Retry-After`` until then: the one error shape under ``/api``, a page that reloads
itself elsewhere (:func:`starting`).
"""

from __future__ import annotations

from flask import Response, current_app, render_template, request

from kb.errors import QueryError
from kb.live import RETRY_AFTER, LiveKnowledgeBase
from web.api.base import PACKAGE_VERSION, _is_api, bp, encode, error_response
from web.openapi import BOOL, SCHEMAS, STR, array, endpoint, nullable, obj, ref

NO_STORE = "no-store"  # a health answer is about this moment: never kept by a cache

SCHEMAS["Health"] = obj({
    "ready": {"type": "boolean", "description": "The build in service is loaded and warmed: "
                                                "it answers at full speed."},
    "status": {"enum": ["loading", "warming", "ready", "failed"],
               "description": "loading: no build is in service yet; warming: it answers, not "
                              "yet at full speed; failed: the build could not be loaded "
                              "(see error)."},
    "build": nullable(ref("BuildInfo")),
    "editions": array(STR, description="The editions of the build in service, as `ruleset edition`."),
    "warming": array(STR, description="Warming steps still to do (a mapping between two "
                                      "editions, a searcher, a timing model), next first."),
    "next_build_loading": {**BOOL, "description": "A newer build is loading and warming; the "
                                                  "one above answers until it is in."},
    "error": nullable(STR),
    "retry_after": nullable({"type": "integer", "minimum": 1,
                             "description": "Seconds to wait before asking again (also the "
                                            "Retry-After header); null when ready."}),
    "version": STR,
}, description="Whether the server answers at full speed, and what it is still doing.")


def _live() -> LiveKnowledgeBase:
    return current_app.extensions["rulekb"]


@endpoint(bp, "GET", "/v1/health", tag="meta", response="Health", cached=False,
          starting_response="Health",
          summary="Whether the server is ready: the build in service, its editions, what is still warming",
          examples=("/api/v1/health",))
def health() -> Response:
    """Ready (200) only when the build in service is loaded and warmed, so its first answer
    is at full speed; until then 503 with `Retry-After`, naming what is still warming. A
    newer build loads and warms beside the one in service, which stays ready meanwhile."""
    state = {**_live().readiness(), "version": PACKAGE_VERSION}
    state["retry_after"] = None if state["ready"] else RETRY_AFTER
    resp = Response(encode(state, separators=(",", ":")), status=200 if state["ready"] else 503,
                    mimetype="application/json")
    resp.headers["Cache-Control"] = NO_STORE
    if state["build"]:  # the request took no knowledge base, so the API's hook cannot say
        resp.headers["X-Rulekb-Build"] = state["build"]["build_id"]
    if not state["ready"]:
        resp.headers["Retry-After"] = str(RETRY_AFTER)
    return resp


# Answered while starting: the health check itself, and the files a starting page uses.
ALWAYS_ANSWERED = frozenset({"api.health", "static", "site.favicon", "site.robots"})


def wait_until_ready() -> Response | None:
    """Before every request (with ``RULEKB_WAIT_READY``): the 503 of :func:`starting`
    until the build in service is ready, nothing once it is."""
    live = _live()
    if (live.ready() and templates_compiled()) or request.endpoint in ALWAYS_ANSWERED:
        return None
    return starting(live)


def templates_compiled() -> bool:
    """Whether the page templates a starting server compiles (web.compile_templates) are."""
    compiling = current_app.extensions.get("rulekb_templates")
    return compiling is None or not compiling.is_alive()


def starting(live: LiveKnowledgeBase) -> Response:
    """503 with ``Retry-After``: the one error shape under /api, a page elsewhere."""
    state = live.readiness()
    failed = state["status"] == "failed"
    if failed:
        message = f"the knowledge base cannot be served: {state['error']}"
    elif state["status"] == "loading":
        message = "the server is starting: the knowledge base is still loading"
    elif state["warming"]:
        left = len(state["warming"])
        message = (f"the server is starting: build {state['build']['build_id']} is still warming "
                   f"({left} step{'' if left == 1 else 's'} left)")
    else:  # the build is ready; what is left is compiling the page templates
        message = (f"the server is starting: build {state['build']['build_id']} is ready, "
                   "its page templates are still being compiled")
    if _is_api():
        resp = error_response(QueryError(503, message, {
            "status": state["status"], "retry_after": RETRY_AFTER, "warming": state["warming"][:20],
            "health": "/api/v1/health"}))
    else:
        resp = Response(render_template("starting.html", message=message, failed=failed,
                                        retry_after=RETRY_AFTER, health=state),
                        status=503, mimetype="text/html")
    resp.headers["Retry-After"] = str(RETRY_AFTER)
    resp.headers["Cache-Control"] = NO_STORE
    return resp
