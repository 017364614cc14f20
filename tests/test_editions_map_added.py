"""A rule without a counterpart in an earlier edition came after it: ``map`` asked backwards says
``added``, not ``removed`` (which a later edition that dropped the rule says), in the JSON, the
CLI's words, the API and its schema, and in the timing model's citations carried to an older
edition. The synthetic ruleset of tests/fixtures/editions (1.0, 2.0, and 3.0 an excerpt). One
case per line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.editions.mapping import Counterpart
from kb.query import KnowledgeBase
from kb.store import build
from kb.timing.explain import no_counterpart_words
from kb.timing.stored import _target
from web import create_app

FIXTURES = Path(__file__).parent / "fixtures" / "editions"

# (number, from, to, status, target, the CLI's line after the arrow)
CASES = [
    ("303.2", "2.0", "1.0", "added", None, "not in 1.0, added after it"),
    ("301", "2.0", "1.0", "added", None, "not in 1.0, added after it"),
    ("302.2", "1.0", "2.0", "removed", None, "removed in 2.0"),
    ("302.2", "1.0", "3.0", "unknown", None, "unknown in 3.0"),
    ("302.2", "2.0", "1.0", "renumbered", "301.1.c", "301.1.c (1.0): renumbered"),
    ("101.1", "1.0", "2.0", "same", "101.1", "101.1 (2.0): same"),
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("map-added-home")
    build(home, rules=FIXTURES / "rules")
    return home


@pytest.mark.parametrize(("number", "source", "target", "status", "now", "said"), CASES)
def test_the_facade_says_the_status(home: Path, number: str, source: str, target: str, status: str,
                                    now: str | None, said: str) -> None:
    data = KnowledgeBase.open(home).map_number("synthetic", number, source, target)
    assert (data["status"], data["target"]) == (status, now)


@pytest.mark.parametrize(("number", "source", "target", "status", "now", "said"), CASES)
def test_the_cli_says_it(home: Path, number: str, source: str, target: str, status: str,
                         now: str | None, said: str) -> None:
    args = ["--home", str(home), "map", number, "-r", "synthetic", "--from", source, "--to", target]
    out = CliRunner().invoke(main, args)
    assert out.exit_code == 0 and f"→ {said}" in out.stdout, out.output
    out = CliRunner().invoke(main, [*args, "--json"])
    assert json.loads(out.stdout)["status"] == status


@pytest.mark.parametrize(("number", "source", "target", "status", "now", "said"), CASES)
def test_the_api_says_it_within_its_schema(home: Path, number: str, source: str, target: str, status: str,
                                           now: str | None, said: str) -> None:
    app = create_app(home)
    client = app.test_client()
    answer = client.get(f"/api/v1/rulesets/synthetic/rules/{number}/map", query_string={"from": source, "to": target})
    assert answer.status_code == 200 and answer.get_json()["status"] == status
    schema = client.get("/api/openapi.json").get_json()["components"]["schemas"]["NumberMap"]
    assert status in schema["properties"]["status"]["enum"]


# (the counterpart the walk found, the edition carried to is an excerpt, it is older, status)
CARRIED = [
    (None, False, True, "added"),
    (None, False, False, "removed"),
    (None, True, True, "unknown"),
    (None, True, False, "unknown"),
    ("302", False, True, "renumbered"),
]


@pytest.mark.parametrize(("now", "partial", "earlier", "status"), CARRIED)
def test_a_carried_citation_says_the_same(now: str | None, partial: bool, earlier: bool, status: str) -> None:
    state = {"303.2": Counterpart("303.2", now, 1.0, 1.0, "exact")}
    got = _target(("303.2", []), state, partial, earlier)
    assert (got["target"], got["status"]) == (now, status)


# (status, the words of a frame's gap)
WORDS = [
    ("added", "synthetic 2.0 rule 303.2 has no counterpart in 1.0: added after it; nearest: 302"),
    ("removed", "synthetic 2.0 rule 303.2 has no counterpart in 1.0: removed; nearest: 302"),
    ("unknown", "synthetic 2.0 rule 303.2 has no counterpart in 1.0: 1.0 is an excerpt and lacks it; nearest: 302"),
]


@pytest.mark.parametrize(("status", "words"), WORDS)
def test_a_frames_gap_is_said_by_its_status(status: str, words: str) -> None:
    gap = {"edition": "2.0", "rule": "303.2", "status": status, "nearest": "302"}
    assert no_counterpart_words("synthetic", gap, "1.0") == words
