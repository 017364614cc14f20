"""An ``edition`` parameter means the same on every operation that takes one: an edition's
name only. A date given there (``?edition=2030-01-01``) is refused with a 404 naming the
edition in force on it, as the rule operation always did; the history operation read it as
a date and answered 200. With ``date`` as well, the named edition must be the one in force
then. The operations are read from the OpenAPI document, so a new one is checked as soon as
it is declared, and its description of the parameter must say so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.api.base import EDITION_IS_A_NAME
from web.openapi import document


def _operations() -> list[tuple[str, str, list[dict[str, Any]], Any]]:
    """Every operation with an ``edition`` parameter: method, path, parameters, example body."""
    out = []
    for path, ops in document()["paths"].items():
        for method, op in ops.items():
            params = op.get("parameters", [])
            if any(p["name"] == "edition" for p in params):
                body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("example")
                out.append((method, path, params, body))
    return out


OPERATIONS = _operations()
IDS = [f"{m.upper()} {p}" for m, p, _, _ in OPERATIONS]


def _ask(client: FlaskClient, method: str, path: str, params: list[dict[str, Any]], body: Any,
         **query: str) -> Any:
    """The operation called with its documented examples and ``query`` added."""
    for p in params:
        if p["in"] == "path":
            path = path.replace("{" + p["name"] + "}", quote(str(p["example"]), safe="/"))
    values = {p["name"]: str(p["example"]) for p in params if p["in"] == "query" and p.get("required")}
    values.update(query)
    url = path + "?" + "&".join(f"{k}={quote(v, safe='')}" for k, v in values.items())
    return client.post(url, json=body) if method == "post" else client.get(url)


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    return create_app(excerpt_home).test_client()


def test_the_operations_taking_an_edition_are_found() -> None:
    paths = {p for _, p, _, _ in OPERATIONS}
    assert {"/api/v1/rulesets/{ruleset}/rules/{number}", "/api/v1/rulesets/{ruleset}/rules/{number}/history",
            "/api/v1/search", "/api/v1/timing/next"} <= paths, paths


@pytest.mark.parametrize("method,path,params,body", OPERATIONS, ids=IDS)
def test_the_document_says_the_same_of_every_edition_parameter(method: str, path: str,
                                                               params: list[dict[str, Any]], body: Any) -> None:
    [edition] = [p for p in params if p["name"] == "edition"]
    assert EDITION_IS_A_NAME in edition["description"], (path, edition["description"])


# (query, status, what the answer says): the riftbound excerpts are 1.3 (in force from
# 2026-03-30) and 1.4 (from 2026-07-16).
CASES: list[tuple[dict[str, str], int, str | None]] = [
    ({"edition": "1.4"}, 200, None),
    ({"edition": "1.3"}, 200, None),
    ({"edition": "2030-01-01"}, 404, "1.4"),  # a date, not a name: refused, naming 1.4
    ({"edition": "2026-04-01"}, 404, "1.3"),
    ({"edition": "2026-07-16"}, 404, "1.4"),  # even 1.4's own date is no name of it
    ({"edition": "1990-01-01"}, 404, None),  # no edition was in force then: unknown edition
    ({"edition": "9.9"}, 404, None),
]
DATED_CASES: list[tuple[dict[str, str], int, str | None]] = [
    ({"date": "2026-04-01"}, 200, None),
    ({"edition": "1.3", "date": "2026-04-01"}, 200, None),
    ({"edition": "1.4", "date": "2026-04-01"}, 404, "1.3"),  # 1.4 was not in force then
    ({"edition": "2026-04-01", "date": "2026-04-01"}, 404, "1.3"),
    ({"date": "2026-02-30"}, 400, None),
]


def _table() -> list[tuple[str, str, list[dict[str, Any]], Any, dict[str, str], int, str | None]]:
    rows = []
    for method, path, params, body in OPERATIONS:
        dated = any(p["name"] == "date" for p in params)
        for query, status, in_force in CASES + (DATED_CASES if dated else []):
            rows.append((method, path, params, body, query, status, in_force))
    return rows


TABLE = _table()


@pytest.mark.parametrize("method,path,params,body,query,status,in_force", TABLE,
                         ids=[f"{r[0].upper()} {r[1]} {r[4]}" for r in TABLE])
def test_an_edition_parameter_means_an_edition_name_on_every_operation(
        client: FlaskClient, method: str, path: str, params: list[dict[str, Any]], body: Any,
        query: dict[str, str], status: int, in_force: str | None) -> None:
    r = _ask(client, method, path, params, body, **query)
    assert r.status_code == status, (path, query, r.get_data(as_text=True)[:300])
    data = r.get_json()
    if status != 200:
        assert set(data) == {"error"}, data
        assert data["error"]["detail"].get("in_force") == in_force, (path, query, data)
        if in_force and query["edition"] != "1.4":
            assert in_force in data["error"]["message"], data
        return
    asked = query.get("edition") or ("1.3" if query.get("date") == "2026-04-01" else None)
    if asked and "X-Rulekb-Edition" in r.headers:
        assert f"riftbound {asked}" in r.headers["X-Rulekb-Edition"].split(", "), (path, query, r.headers)


@pytest.mark.parametrize("path", [
    "/api/v1/rulesets/mtg/rules/116.3d?edition=2010-10-01",
    "/api/v1/rulesets/mtg/rules/116.3d/history?edition=2010-10-01",
    "/api/v1/rulesets/mtg/structure?edition=2026-01-16",
])
def test_an_edition_named_by_its_date_is_still_a_name(client: FlaskClient, path: str) -> None:
    """Magic's editions are named by their dates: such a name is an edition's name."""
    r = client.get(path)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
