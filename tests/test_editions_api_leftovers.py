"""The editions API and feeds over many editions: the acceptance run's leftovers (task M).

- The diff API's ``?summary=true`` answers the counts ``rulekb diff --summary`` prints (the
  embedded default's two editions of each ruleset).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from web import create_app


# ---- 1. the diff API's summary ------------------------------------------------------------

@pytest.fixture(scope="module")
def excerpt_client(excerpt_home: Path) -> FlaskClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


@pytest.mark.parametrize("ruleset, old, new, extra, cli_extra", [
    ("riftbound", "1.3", "1.4", "", []),
    ("riftbound", "1.3", "1.4", "&only=added,removed&chapter=300", ["--only", "added", "--only", "removed",
                                                                     "--chapter", "300"]),
    ("mtg", "2010-10-01", "2026-01-16", "", []),
    ("mtg", "2010-10-01", "2026-01-16", "&unchanged=true", ["--unchanged"]),
])
def test_the_diff_apis_summary_is_the_clis(excerpt_client: FlaskClient, excerpt_home: Path, ruleset: str,
                                           old: str, new: str, extra: str, cli_extra: list[str]) -> None:
    url = f"/api/v1/rulesets/{ruleset}/diff?from={old}&to={new}{extra}"
    whole = excerpt_client.get(url).get_json()
    resp = excerpt_client.get(url + "&summary=true")
    assert resp.status_code == 200, resp.data[:300]
    summary = resp.get_json()
    assert summary["entries"] == [] and whole["entries"]
    for key in ("summary", "chapters", "total", "filter", "from", "to"):
        assert summary[key] == whole[key], key
    # the same numbers as the CLI prints
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "diff", "--ruleset", ruleset,
                                       "--from", old, "--to", new, "--summary", *cli_extra])
    assert result.exit_code == 0, result.output
    s = summary["summary"]
    assert (f"{s['added']} added, {s['removed']} removed, {s['changed']} changed, {s['moved']} moved "
            f"({s['renumbered_only']} renumbered only") in result.output
    for c in summary["chapters"]:
        assert re.search(rf"^  {re.escape(c['chapter'])}(?: \(old\))?\s+{c['added']}\s+{c['removed']}\s+"
                         rf"{c['changed']}\s+{c['moved']}\s+{c['unchanged']}\s", result.output, re.M), c
    if summary["filter"]["only"] or summary["filter"]["chapter"]:
        assert f"showing {summary['total']} entries" in result.output


@pytest.mark.parametrize("query, status, words", [
    ("summary=maybe", 400, "summary"),
    ("summary=false", 200, None),
    ("sumary=true", 400, "sumary"),
])
def test_the_diff_apis_summary_refuses_bad_values(excerpt_client: FlaskClient, query: str, status: int,
                                                  words: str | None) -> None:
    resp = excerpt_client.get(f"/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&{query}")
    assert resp.status_code == status, resp.data[:300]
    if words:
        assert words in resp.get_json()["error"]["message"]
    else:
        assert resp.get_json()["entries"]


@pytest.mark.parametrize("path, name, type_", [
    ("/api/v1/rulesets/{ruleset}/diff", "summary", "boolean"),
])
def test_the_new_parameters_are_in_the_openapi_document(excerpt_client: FlaskClient, path: str, name: str,
                                                        type_: str) -> None:
    doc = excerpt_client.get("/api/openapi.json").get_json()
    [param] = [p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == name]
    assert param["in"] == "query" and param["schema"]["type"] == type_ and param["description"]
