"""A range of rule numbers past the edition's rules, or written high to low, is clamped and said.

``rulekb search 1-9999`` answered "0 matching": the citation finder reads a number part of at
most three digits, so ``1-9999`` and ``1-1000000`` were no range to it, and ``9999-1`` named
no rule. Now :func:`kb.query.range_asked` reads one range of numbers at any size and either
way round, lists the rules of that level that exist in it, and the answer's ``clamped``
object says what was read and what it was clamped to; the CLI (text and ``--json``), the API,
the search page and the offline pack (``web/static/offline-search.js`` in node) say the same
sentence and list the same rules. Runs on the small synthetic ruleset of the edition tests,
whose numbers no other task's excerpt changes.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from kb.export.jsrun import node_path, run_queries
from kb.query import KnowledgeBase
from kb.store import build
from web import create_app
from web.pack import search_index_script

requires_node = pytest.mark.skipif(node_path() is None, reason="needs node to run the offline search script")

RULESET, EDITION = "synthetic", "2.0"  # tests/fixtures/editions/rules: 100, 101, 300-304 at the top
FIXTURES = Path(__file__).parent / "fixtures" / "editions" / "rules"
HUGE = "1" + "0" * 30

# (typed, rules listed, asked, read, first, last, the sentence said)
CLAMPED = [
    ("1-9999", 7, "1-9999", "1-9999", "100", "304",
     "Rules 1-9999 clamped to 100-304, the rules synthetic 2.0 has in that range (7)."),
    ("9999-1", 7, "9999-1", "1-9999", "100", "304",
     "Rules 9999-1 read as 1-9999, clamped to 100-304, the rules synthetic 2.0 has in that range (7)."),
    ("1-1000000", 7, "1-1000000", "1-1000000", "100", "304",
     "Rules 1-1000000 clamped to 100-304, the rules synthetic 2.0 has in that range (7)."),
    (f"1-{HUGE}", 7, f"1-{HUGE}", f"1-{HUGE}", "100", "304",
     f"Rules 1-{HUGE} clamped to 100-304, the rules synthetic 2.0 has in that range (7)."),
    ("rules 300 - 9999", 5, "300-9999", "300-9999", "300", "304",
     "Rules 300-9999 clamped to 300-304, the rules synthetic 2.0 has in that range (5)."),
    ("1-150", 2, "1-150", "1-150", "100", "101",
     "Rules 1-150 clamped to 100-101, the rules synthetic 2.0 has in that range (2)."),
    ("303-301", 3, "303-301", "301-303", "301", "303", "Rules 303-301 read as 301-303 (3 rules of synthetic 2.0)."),
    ("302.1-99", 3, "302.1-99", "302.1-302.99", "302.1", "302.3",
     "Rules 302.1-99 clamped to 302.1-302.3, the rules synthetic 2.0 has in that range (3)."),
    ("r302.3–302.9999", 1, "302.3-302.9999", "302.3-302.9999", "302.3", "302.3",
     "Rules 302.3-302.9999 clamped to 302.3-302.3, the rules synthetic 2.0 has in that range (1)."),
    ("0-5", 0, "0-5", "0-5", None, None,
     "Rules 0-5: synthetic 2.0 has no rule in that range (its rules at that level run from 100 to 304)."),
    ("10000-9999", 0, "10000-9999", "9999-10000", None, None,
     "Rules 10000-9999 read as 9999-10000: synthetic 2.0 has no rule in that range "
     "(its rules at that level run from 100 to 304)."),
    ("999.1-999.5", 0, "999.1-999.5", "999.1-999.5", None, None,
     "Rules 999.1-999.5: synthetic 2.0 has no rule in that range."),
]

# typed: no range past the edition's rules nor high to low: nothing is said
NOT_CLAMPED = [
    "301-303",
    "100-300",          # inside the edition's rules: listed as before
    "302.1.a-b",        # letters: the citation finder's range
    "301 -303",         # the query language's "not 303"
    "1-9999 priority",  # not numbers only: the words' search
    "1-2-3",
    "9999",             # one number: no_such_rule says it
    "priority",
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("range-clamp") / "home"
    build(home, rules=FIXTURES)
    return home


@pytest.fixture(scope="module")
def kb(home: Path) -> KnowledgeBase:
    return KnowledgeBase.open(home)


@pytest.fixture(scope="module")
def client(home: Path) -> FlaskClient:
    app = create_app(home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


@pytest.fixture(scope="module")
def offline(kb: KnowledgeBase, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The offline search's answer to every row of both tables (one node run)."""
    index = tmp_path_factory.mktemp("range-clamp-pack") / "synthetic.js"
    index.write_text(search_index_script(kb, RULESET, EDITION, lambda n: n), encoding="utf-8")
    rows = [row[0] for row in CLAMPED] + NOT_CLAMPED
    answers, _ = run_queries([index], [{"query": typed, "ruleset": RULESET, "edition": EDITION, "limit": 100}
                                       for typed in rows])
    return dict(zip(rows, answers))


@pytest.mark.parametrize("typed, total, asked, read, first, last, message", CLAMPED)
def test_a_range_past_the_rules_is_clamped_and_said(kb: KnowledgeBase, typed: str, total: int, asked: str,
                                                    read: str, first: str | None, last: str | None,
                                                    message: str) -> None:
    r = kb.search(typed, RULESET, EDITION, limit=100)
    assert r["clamped"] == {"asked": asked, "read": read, "first": first, "last": last, "message": message}
    assert r["total"] == total
    listed = [h["number"] for h in r["results"]]
    if total:
        assert listed[0] == first and listed[-1] == last and len(listed) == total
        assert total == 1 or all(h["match"] == "number" for h in r["results"])
    else:
        assert listed == []


@pytest.mark.parametrize("typed", NOT_CLAMPED)
def test_what_is_no_clamped_range_says_nothing(kb: KnowledgeBase, typed: str) -> None:
    assert kb.search(typed, RULESET, EDITION)["clamped"] is None


@requires_node
@pytest.mark.parametrize("typed", [row[0] for row in CLAMPED] + NOT_CLAMPED)
def test_the_offline_search_clamps_as_the_server(kb: KnowledgeBase, offline: dict[str, Any], typed: str) -> None:
    server = kb.search(typed, RULESET, EDITION, limit=100, rulings=False)
    answer = offline[typed]
    assert "error" not in answer, answer
    assert answer["clamped"] == server["clamped"]
    assert answer["total"] == server["total"]
    assert [h["number"] for h in answer["results"]] == [h["number"] for h in server["results"]]


@pytest.mark.parametrize("typed, total, asked, read, first, last, message", CLAMPED)
def test_the_cli_api_and_site_say_the_clamp(kb: KnowledgeBase, home: Path, client: FlaskClient, typed: str,
                                            total: int, asked: str, read: str, first: str | None,
                                            last: str | None, message: str) -> None:
    said = kb.search(typed, RULESET, EDITION)["clamped"]
    asking = {"q": typed, "ruleset": RULESET, "edition": EDITION}
    api = client.get("/api/v1/search", query_string=asking)
    assert api.status_code == 200 and api.json["clamped"] == said and api.json["total"] == total

    runner = CliRunner()
    args = ["--home", str(home), "search", typed, "--ruleset", RULESET, "--edition", EDITION]
    text = runner.invoke(main, args)
    assert text.exit_code == 0 and "Traceback" not in text.output
    assert f"\n{message}\n" in text.stdout
    as_json = runner.invoke(main, [*args, "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.stdout)["clamped"] == said

    page = client.get("/search", query_string=asking)
    shown = re.search(r'<p class="meta clamped">(.*?)</p>', page.get_data(as_text=True), re.S)
    assert page.status_code == 200 and shown is not None and html.unescape(shown.group(1)) == message


def test_the_openapi_document_names_the_field(client: FlaskClient) -> None:
    schema = client.get("/api/openapi.json").json["components"]["schemas"]["Search"]
    assert "clamped" in schema["required"]
    said, none = schema["properties"]["clamped"]["oneOf"]
    assert none == {"type": "null"} and set(said["properties"]) == {"asked", "read", "first", "last", "message"}


def test_the_readmes_example_is_what_the_default_build_says(excerpt_kb: KnowledgeBase) -> None:
    """README quotes the clamp's sentence for ``1-9999`` on the default corpus: it is that
    build's own (an excerpt gaining rules changes it, and the README with it)."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    quoted = re.search(r"\(`(Rules 1-9999 clamped to [^`]+)`, on the default corpus\)", readme)
    assert quoted is not None, "README no longer quotes the clamp's sentence for 1-9999"
    assert excerpt_kb.search("1-9999", "riftbound")["clamped"]["message"] == quoted.group(1)
