"""A rule number the ruleset asked lacks but another ruleset has (acceptance F29).

`rulekb rule 120.3b` on a home with Riftbound the default and Magic beside it answered only
Riftbound's nearest numbers while `rulekb search 120.3b` pointed to Magic. The rule's 404
(facade, CLI's rule, history and map, and the API's rule route, in the one error shape) now names the rulesets whose
default edition has the number, with the rule's title there, as the search's
``other_rulesets`` finds them (KnowledgeBase.with_other_rulesets). On the embedded excerpts.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.errors import QueryError
from kb.query import KnowledgeBase
from web import create_app

# number, ruleset asked (None: the default), the rulesets said to have it, number there
CASES = [
    ("702.19b", None, ["mtg"], "702.19b"),
    ("117.3d", None, ["mtg"], "117.3d"),
    ("CR 702.19b", "riftbound", ["mtg"], "702.19b"),
    ("rule 117.3d", "riftbound", ["mtg"], "117.3d"),
    ("337.1a", "mtg", ["riftbound"], "337.1.a"),
    ("9999.9", None, [], None),           # nobody has it: the nearest numbers alone
    ("9999.9", "mtg", [], None),
    ("337..1", None, [], None),           # a dot doubled: the re-dotting question, nothing else
]


@pytest.mark.parametrize(("number", "asked", "having", "there"), CASES)
def test_facade(excerpt_kb: KnowledgeBase, number: str, asked: str | None, having: list[str],
                there: str | None) -> None:
    ruleset = asked or excerpt_kb.default_ruleset()
    with pytest.raises(QueryError) as caught:
        excerpt_kb.rule(ruleset, number)
    exc = caught.value
    assert exc.status == 404
    others = exc.detail.get("other_rulesets", [])
    assert [o["ruleset"] for o in others] == having
    for o in others:
        assert o["number"] == there and o["rule_title"] and o["edition"]
        assert f"{o['ruleset']} {o['edition']} has {there}: {o['rule_title']}" in exc.message
        assert excerpt_kb.rule(o["ruleset"], there, o["edition"])["number"] == there


def test_the_same_rulesets_as_the_search(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(QueryError) as caught:
        excerpt_kb.rule("riftbound", "702.19b")
    searched = excerpt_kb.search("702.19b")["other_rulesets"]
    assert [(o["ruleset"], o["edition"]) for o in caught.value.detail["other_rulesets"]] == \
        [(o["ruleset"], o["edition"]) for o in searched]


# arguments, words the error line has, exit code
CLI_CASES = [
    (["rule", "702.19b"], "mtg 2026-01-16 has 702.19b: ", 2),
    (["rule", "702.19b"], "; try --ruleset mtg", 2),
    (["rule", "-r", "mtg", "337.1a"], "; try --ruleset riftbound", 2),
    (["rule", "-e", "1.3", "117.3d"], "riftbound 1.3; mtg 2026-01-16 has 117.3d", 2),
    (["rule", "9999.9"], "error: rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow\n", 2),
    (["history", "702.19b"], "mtg 2026-01-16 has 702.19b: ", 2),
    (["history", "-r", "mtg", "337.1a"], "; try --ruleset riftbound", 2),
    (["map", "702.19b", "--from", "1.3", "--to", "1.4"], "riftbound 1.3; mtg 2026-01-16 has 702.19b", 2),
    (["history", "9999.9"], "error: rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow\n", 2),
]


@pytest.mark.parametrize(("args", "said", "code"), CLI_CASES)
def test_cli(excerpt_home: Path, args: list[str], said: str, code: int) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), *args])
    assert out.exit_code == code, out.output
    assert said in out.output
    assert "Traceback" not in out.output


def test_cli_still_shows_the_numbers_found(excerpt_home: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "rule", "702.19b", "337.1a"])
    assert out.exit_code == 2
    assert "337.1.a." in out.output and "try --ruleset mtg" in out.output


def test_api_names_and_links_the_rule_there(excerpt_home: Path) -> None:
    client = create_app(excerpt_home).test_client()
    resp = client.get("/api/v1/rulesets/riftbound/rules/702.19b")
    assert resp.status_code == 404
    error = resp.get_json()["error"]
    assert "mtg 2026-01-16 has 702.19b" in error["message"]
    (other,) = error["detail"]["other_rulesets"]
    assert other["url"] == "/api/v1/rulesets/mtg/rules/702.19b"
    there = client.get(other["url"])
    assert there.status_code == 200 and there.get_json()["number"] == "702.19b"
    plain = client.get("/api/v1/rulesets/riftbound/rules/9999.9").get_json()["error"]
    assert "other_rulesets" not in plain["detail"] and plain["detail"]["last"] == "829"


# A18: a number whose own prefix names a ruleset (CR is Magic's, as search and link read it).
# arguments, exit code, words the output has
PREFIX_CASES = [
    (["rule", "CR 117.3d"], 0, "mtg 2026-01-16"),                      # no --ruleset: the prefix picks it
    (["rule", "CR 117.3d", "337.1a"], 0, "337.1.a. "),                 # each number its own ruleset
    (["rule", "CR 116.3d", "-e", "2010-10-01"], 0, "mtg 2010-10-01"),
    (["rule", "CR 117.3d", "-r", "riftbound"], 2,
     "error: 'CR 117.3d' names mtg by its prefix, not riftbound; mtg 2026-01-16 has 117.3d: "),
    (["rule", "CR 117.3d", "-r", "riftbound"], 2, "; try rulekb rule 117.3d --ruleset mtg\n"),
    (["rule", "CR 117.3d", "-e", "1.4"], 2, "; try rulekb rule 117.3d --ruleset mtg\n"),  # 1.4 is Riftbound's
    (["rule", "CR 117.3z", "-r", "riftbound"], 2, "mtg 2026-01-16 has no rule numbered so either\n"),
    (["rule", "CR 117.3d", "-r", "mtg"], 0, "117.3d. "),
    (["rule", "9999"], 2, "does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow\n"),
    (["rule", "-r", "mtg", "9999"], 2, "does not exist in mtg 2026-01-16: it is beyond the last rule, 800 "),
]


@pytest.mark.parametrize(("args", "code", "said"), PREFIX_CASES)
def test_cli_prefix(excerpt_home: Path, args: list[str], code: int, said: str) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), *args])
    assert out.exit_code == code, out.output
    assert said in out.output and "Traceback" not in out.output
    if "beyond" in said:
        assert "nearest" not in out.output


def test_api_prefix_names_its_ruleset(excerpt_home: Path) -> None:
    client = create_app(excerpt_home).test_client()
    resp = client.get("/api/v1/rulesets/riftbound/rules/CR%20117.3d")
    assert resp.status_code == 404
    error = resp.get_json()["error"]
    assert error["message"].startswith("'CR 117.3d' names mtg by its prefix, not riftbound")
    assert error["detail"]["named_ruleset"] == "mtg"
    (other,) = error["detail"]["other_rulesets"]
    assert other["url"] == "/api/v1/rulesets/mtg/rules/117.3d"
    assert client.get("/api/v1/rulesets/mtg/rules/CR%20117.3d").get_json()["number"] == "117.3d"
