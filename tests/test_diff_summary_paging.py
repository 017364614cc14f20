"""A diff's summary pages nothing, and says so (issue #20).

``GET /api/v1/rulesets/{ruleset}/diff?summary=true`` is the counts alone: it carries no
``offset``, and ``limit`` or ``offset`` sent with it is a 400 in the API's one error shape
naming the parameter (a client paging a summary has a bug; the API refuses a misspelt
parameter for the same reason). ``rulekb diff --summary`` is the same: ``--limit`` with it is a
usage error, and its JSON is the API's summary. The OpenAPI document says it. Runs on the
embedded excerpts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from web import create_app
from web.openapi import ENDPOINTS, document, response_problems

DIFF = "/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4"


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


# (query added to DIFF, status, the parameter a 400 names, whether the answer pages)
API_CASES = [
    ("&summary=true", 200, None, False),
    ("&summary=true&only=added&chapter=300", 200, None, False),
    ("&summary=true&limit=5", 400, "limit", None),
    ("&summary=true&offset=0", 400, "offset", None),   # even the default value: it was sent
    ("&summary=true&offset=20", 400, "offset", None),
    ("&summary=true&limit=5&offset=10", 400, "limit", None),
    ("&summary=1&limit=100", 400, "limit", None),
    ("&summary=false&limit=5&offset=10", 200, None, True),
    ("&limit=5&offset=10", 200, None, True),
    ("", 200, None, True),
]


@pytest.mark.parametrize("query, status, parameter, pages", API_CASES)
def test_a_summary_answers_no_paging_and_refuses_it(client: FlaskClient, query: str, status: int,
                                                    parameter: str | None, pages: bool | None) -> None:
    resp = client.get(DIFF + query)
    body = resp.get_json()
    assert resp.status_code == status, body
    assert response_problems(client.application, "GET", DIFF.split("?")[0], status, body) == []
    if status == 400:
        assert body["error"]["detail"]["parameter"] == parameter
        assert f"'{parameter}'" in body["error"]["message"] and "summary" in body["error"]["message"]
        return
    assert ("offset" in body) is pages
    if pages:
        assert len(body["entries"]) <= (5 if "limit=5" in query else 100)
    else:
        assert body["entries"] == [] and body["total"] > 0


def test_a_summarys_counts_are_those_of_the_paged_answer(client: FlaskClient) -> None:
    summary = client.get(DIFF + "&summary=true").get_json()
    paged = client.get(DIFF + "&limit=3&offset=2").get_json()
    assert {k: v for k, v in paged.items() if k not in ("entries", "offset")} == \
        {k: v for k, v in summary.items() if k != "entries"}


def test_the_openapi_document_says_a_summary_pages_nothing() -> None:
    spec = document()
    op = spec["paths"]["/api/v1/rulesets/{ruleset}/diff"]["get"]
    params = {p["name"]: p["description"] for p in op["parameters"]}
    assert "400" in params["limit"] and "summary=true" in params["limit"]
    assert "400" in params["offset"] and "summary=true" in params["offset"]
    assert "refused (400)" in params["summary"] and "no `offset`" in params["summary"]
    assert "400" in op["responses"]
    diff = spec["components"]["schemas"]["Diff"]
    assert "offset" in diff["properties"] and "offset" not in diff["required"]
    # the history's offset pages its editions with or without anything else
    history = ENDPOINTS["api.history"]
    assert "summary" not in next(p for p in history.params if p.name == "offset").description


# (CLI options after diff's editions, exit code, words its output holds, JSON keys it lacks)
CLI_CASES = [
    (["--summary", "--limit", "3"], 2, "--limit pages the entries, which --summary leaves out", None),
    (["--summary", "--limit", "0", "--json"], 2, "--limit pages the entries", None),
    (["--summary", "--json"], 0, None, ("offset",)),
    (["--summary"], 0, "added,", None),
    (["--limit", "3", "--json"], 0, None, ()),
]


@pytest.mark.parametrize("options, code, words, lacks", CLI_CASES)
def test_rulekb_diff_summary_refuses_paging_as_the_api(excerpt_home: Path, client: FlaskClient,
                                                       options: list[str], code: int, words: str | None,
                                                       lacks: tuple[str, ...] | None) -> None:
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "diff", "--ruleset", "riftbound",
                                       "--from", "1.3", "--to", "1.4", *options])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if words:
        assert words in result.output
    if lacks is None:
        return
    data = json.loads(result.output)
    assert not set(lacks) & set(data)
    if "--summary" in options:  # the CLI's JSON summary is the API's
        assert data == client.get(DIFF + "&summary=true").get_json()
    else:
        assert len(data["entries"]) == 3 and data["offset"] == 0
