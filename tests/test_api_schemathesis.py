"""Property-based API testing: schemathesis against the served OpenAPI document.

The app runs on waitress in a thread on a free loopback port (the production server, not
the test client), and schemathesis generates requests from ``/api/openapi.json``, valid and
invalid ones, checking every answer: no 5xx, a documented status, the documented content
type and headers, and a body that matches its schema. Examples are few so the file runs in
well under a minute.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance
from waitress.server import create_server

from web import create_app

# A search query is a little language, and a timing state or scenario is checked by the
# ruleset's model: no JSON Schema can describe either, so a value the schema allows may
# still be malformed (an unclosed quote, one player), which rightly answers 400 or 422.
MODEL_CHECKED = {"/api/v1/search", "/api/v1/timing/next", "/api/v1/timing/run"}
# A citation's base_url is checked by the linker (an http(s) URL or a relative path, as its
# description says: kb.cite.annotate.check_base_url), with a clearer 400 than a pattern's 422.
MODEL_CHECKED |= {"/api/v1/citations/lookup", "/api/v1/citations/annotate"}
MAX_EXAMPLES = int(os.environ.get("RULEKB_SCHEMATHESIS_EXAMPLES", "12"))
# A diff's summary pages nothing, so limit or offset beside summary=true is refused (400, as
# their descriptions say): OpenAPI describes each parameter alone, so the pair, each value
# valid, is schema-valid. Only such a request is spared the acceptance check.
DIFF = "/api/v1/rulesets/{ruleset}/diff"
TRUE = {"true", "1", "yes", "on"}  # what the API reads as true (web.openapi)


def pages_a_summary(case: schemathesis.Case) -> bool:
    """A diff request asking for its summary and paging it too."""
    query = case.query or {}
    return (case.operation.path == DIFF and str(query.get("summary", "")).lower() in TRUE
            and bool({"limit", "offset"} & set(query)))


@pytest.fixture(scope="module")
def live_server(excerpt_home: Path) -> Iterator[str]:
    """The API on waitress, on a free port of 127.0.0.1, for this module."""
    server = create_server(create_app(excerpt_home), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, name="api-under-test", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def api_schema(live_server: str) -> schemathesis.BaseSchema:
    schema = schemathesis.openapi.from_url(f"{live_server}/api/openapi.json", timeout=10)
    schema.config.generation.update(max_examples=MAX_EXAMPLES)
    return schema


@pytest.fixture(autouse=True)
def _node_id_for_schemathesis(request: pytest.FixtureRequest) -> None:
    # schemathesis 4's lazy loader renames the test node through ``_nodeid``, which
    # pytest 9 no longer has: give it one (it only changes how the test is reported).
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_openapi_document(case: schemathesis.Case) -> None:
    excluded = []
    if case.operation.path in MODEL_CHECKED or pages_a_summary(case):
        excluded.append(positive_data_acceptance)
    case.call_and_validate(timeout=10, excluded_checks=excluded)
