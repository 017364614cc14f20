"""An API client's errors: every operation the OpenAPI document lists with a path parameter
(a ruleset, a rule number, a ruling's or an article's id, a term) answers a bad value of
it, or of its edition, date or section, with the one JSON error shape and a 4xx: never a
500, never the site's HTML page. The cases are made from the document itself, so a new
operation is checked as soon as it is declared, and a new kind of path parameter fails
here until it has bad values of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask.testing import FlaskClient

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.openapi import document

# Bad values of each parameter: unknown, malformed, too long, a Unicode digit (str.isdigit
# says yes, int() fails), a full-width digit, a NUL, a lone surrogate.
BAD_PATH: dict[str, list[str]] = {
    "ruleset": ["nonesuch", "Bad Name!", "x" * 100, "²", "１", "\x00", "a..b"],
    "number": ["999.9", "banana", "x" * 100, "²", "１２３", "-1", "337..1", "337.1.a.b.c.d.e.f.g",
               "\x00", "rule ²", "\ud800", "1000.1"],
    "id": ["no-such", "Not An Id", "x" * 200, "²", "..", "\x00", "a\u00e9", "\ud800"],
    "term": ["nosuchterm", "x" * 200, "a/b/c", "\x00", "²", "..", "\ud800"],
}
BAD_QUERY: dict[str, list[str]] = {
    "edition": ["9.9", "Bad Edition!", "²", "x" * 100, "\x00"],
    "date": ["2026-02-30", "²", "x", "1990-01-01"],
    "section": ["abc", "999", "²", "x" * 100, "\x00", "3.3.3.3.3.3"],
    "from": ["9.9", "²"], "to": ["9.9", "²"], "chapter": ["²", "abc", "999"],
}


def _quoted(name: str, value: str) -> str:
    quoted = [quote(part.encode("utf-8", "surrogatepass"), safe="") for part in
              (value.split("/") if name == "term" else [value])]  # a term's path keeps its slashes
    return "/".join(quoted)


def _url(path: str, params: list[dict[str, Any]], values: dict[str, str]) -> str:
    for p in params:
        if p["in"] == "path":
            path = path.replace("{" + p["name"] + "}", _quoted(p["name"], values[p["name"]]))
    query = "&".join(f"{p['name']}={_quoted(p['name'], values[p['name']])}"
                     for p in params if p["in"] == "query" and p["name"] in values)
    return path + ("?" + query if query else "")


def _operations() -> list[tuple[str, list[dict[str, Any]], dict[str, str]]]:
    """Every GET operation with a path parameter: its path, parameters and good values (each
    parameter's example, for the path and the required query parameters)."""
    out = []
    for path, ops in document()["paths"].items():
        op = ops.get("get")
        params = op.get("parameters", []) if op else []
        if any(p["in"] == "path" for p in params):
            good = {p["name"]: str(p["example"]) for p in params if p["in"] == "path" or p.get("required")}
            out.append((path, params, good))
    return out


OPERATIONS = _operations()
CASES = [(path, p["name"], bad, _url(path, params, {**good, p["name"]: bad}))
         for path, params, good in OPERATIONS for p in params
         for bad in (BAD_PATH.get(p["name"], []) if p["in"] == "path" else BAD_QUERY.get(p["name"], []))]


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    return create_app(excerpt_home).test_client()


def test_the_document_lists_the_operations_and_every_path_parameter_has_bad_values() -> None:
    kinds = {p["name"] for _, params, _ in OPERATIONS for p in params if p["in"] == "path"}
    assert len(OPERATIONS) >= 14 and kinds <= set(BAD_PATH), kinds - set(BAD_PATH)


@pytest.mark.parametrize("path,params,good", OPERATIONS, ids=[o[0] for o in OPERATIONS])
def test_the_good_values_answer(client: FlaskClient, path: str, params: list[dict[str, Any]],
                                good: dict[str, str]) -> None:
    """The cases below change one value of a request that answers: the document's examples."""
    r = client.get(_url(path, params, good))
    assert r.status_code == 200, (path, r.get_data(as_text=True)[:300])


@pytest.mark.parametrize("path,name,bad,url", CASES, ids=[f"{c[0]} {c[1]}={c[2][:12]!r}" for c in CASES])
def test_a_bad_value_is_a_4xx_in_the_one_error_shape(client: FlaskClient, path: str, name: str,
                                                     bad: str, url: str) -> None:
    r = client.get(url)
    assert 400 <= r.status_code < 500, (url, r.status_code, r.get_data(as_text=True)[:300])
    assert r.mimetype == "application/json", (url, r.mimetype)
    body = r.get_json()
    assert set(body) == {"error"} and set(body["error"]) == {"status", "message", "detail"}, body
    assert body["error"]["status"] == r.status_code and body["error"]["message"], body
