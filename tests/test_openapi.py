"""The OpenAPI document: valid OpenAPI 3.1, and in step with the routes Flask serves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from werkzeug.routing import Map, Rule

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.openapi import ENDPOINTS, SCHEMAS, document

# Paths under /api that are not JSON operations: the page for people.
PAGES = {"/api", "/api/"}


@pytest.fixture(scope="module")
def app(excerpt_home: Path) -> Flask:
    return create_app(excerpt_home, config={"RULEKB_API_HELLO": True})


@pytest.fixture(scope="module")
def served(app: Flask) -> dict:
    resp = app.test_client().get("/api/openapi.json")
    assert resp.status_code == 200
    return resp.get_json()


def test_document_is_valid_openapi_3_1(served: dict) -> None:
    validate(served)
    assert served["openapi"] == "3.1.0"


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_schema_is_valid_json_schema(name: str) -> None:
    Draft202012Validator.check_schema(SCHEMAS[name])


def _flask_operations(app: Flask) -> set[tuple[str, str]]:
    out = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api") or rule.rule in PAGES:
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            out.add((method.lower(), path))
    return out


def test_every_route_under_api_is_documented(app: Flask, served: dict) -> None:
    documented = {(m, p) for p, ops in served["paths"].items() for m in ops}
    routes = _flask_operations(app) - {("get", "/api/_hello")}
    assert routes - documented == set(), "routes missing from the OpenAPI document"
    assert documented - routes == set(), "documented operations Flask does not serve"


def test_hidden_hello_is_not_documented(served: dict) -> None:
    assert "/api/_hello" not in served["paths"]


def test_served_document_is_the_generated_one(served: dict) -> None:
    assert served["paths"] == document()["paths"]
    assert served["components"] == document()["components"]


@pytest.mark.parametrize("name", sorted(ENDPOINTS))
def test_operation_is_fully_described(name: str) -> None:
    ep = ENDPOINTS[name]
    assert ep.summary and ep.description, "summary and docstring are the documentation"
    variables = set(re.findall(r"\{(\w+)\}", ep.path))
    assert variables == {p.name for p in ep.params if p.where == "path"}
    assert ep.response in SCHEMAS and (ep.body is None or ep.body in SCHEMAS)
    assert ep.examples, "the API page shows at least one example"
    route = Map([Rule(ep.rule, endpoint=name, methods=[ep.method])]).bind("localhost")
    for example in ep.examples:
        route.match(example.split("?")[0], method=ep.method)  # raises when it does not fit
    names = [p.name for p in ep.params]
    assert len(names) == len(set(names))


def test_every_reference_resolves(served: dict) -> None:
    refs = set(re.findall(r'"\$ref": "#/components/schemas/(\w+)"', __import__("json").dumps(served)))
    assert refs <= set(served["components"]["schemas"])
