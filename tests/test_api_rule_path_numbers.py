"""Every operation with a rule number in its path reads the number as the rule lookup does.

A well-formed number that names no rule (9999, a dot dropped: 3371a) answers 404 with the
nearest rules on the rule itself and on its history, map, graph, feed and cited-by, never
400 "not valid here"; text that is no rule number at all stays a 400 naming the parameter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.openapi import ENDPOINTS

R = "/api/v1/rulesets/riftbound"
# Each operation taking a rule number in its path, with what else it needs.
OPERATIONS = ["/rules/{n}", "/rules/{n}/history", "/rules/{n}/map?from=1.4&to=1.3", "/graph/{n}",
              "/rules/{n}/changes.atom", "/rules/{n}/cited-by"]
CASES = [
    # number, status, what the error's detail holds (None: an answer)
    ("9999", 404, {"number": "9999", "last": "829"}),     # past the last rule: said, no nearest
    ("9999.9", 404, {"number": "9999.9", "last": "829"}),
    ("337.99", 404, {"number": "337.99", "nearest": True}),
    ("3371a", 404, {"number": "3371.a", "nearest": "337.1.a"}),
    ("337.1(a)", 200, None),
    ("rule 337.1a", 200, None),
    ("abc", 400, {"parameter": "number"}),
]


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    return create_app(excerpt_home).test_client()


def test_operations_listed_are_every_one_with_a_number_in_its_path() -> None:
    with_number = {e.path.removeprefix(f"/api/v1/rulesets/{{ruleset}}").replace("{number}", "{n}")
                   for e in ENDPOINTS.values() if any(p.name == "number" and p.where == "path" for p in e.params)}
    assert with_number == {op.split("?")[0] for op in OPERATIONS}


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize(("number", "status", "detail"), CASES)
def test_number_is_read_as_the_rule_lookup_reads_it(client: FlaskClient, operation: str, number: str,
                                                    status: int, detail: dict | None) -> None:
    resp = client.get(R + operation.format(n=number))
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    if detail is None:
        return
    got = resp.get_json()["error"]["detail"]
    for key, want in detail.items():
        if want is True:
            assert got[key], f"{key} empty in {got}"
        elif key == "nearest":
            assert want in got[key]
        else:
            assert got[key] == want
