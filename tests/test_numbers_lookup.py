"""A rule number as a lookup reads it (kb.numbers.parse_lookup_number): ``337.1(a)`` and
``337.1 a`` are 337.1.a; a number-shaped text with a head longer than any rule's
(``9999.9``) is a rule that does not exist, answered with the nearest numbers, the same in
the CLI, the site and the API; the citation finder's and search's grammar is unchanged.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from kb.numbers import NumberError, parse_lookup_number, parse_number, try_parse_lookup_number, try_parse_number
from kb.query import KnowledgeBase
from web import create_app

PARSED = [
    # (typed, segments)
    ("337.1.a", ("337", "1", "a")),
    ("337.1(a)", ("337", "1", "a")),
    ("337.1.(a)", ("337", "1", "a")),
    ("337.1 (a)", ("337", "1", "a")),
    ("337.1 a", ("337", "1", "a")),
    ("337.1  A.", ("337", "1", "a")),
    ("rule 337.1(a)", ("337", "1", "a")),
    ("CR 116.3 d", ("116", "3", "d")),
    ("601.2a(1)", ("601", "2", "a", "1")),
    ("337.1(c)(3)", ("337", "1", "c", "3")),
    ("9999.9", ("9999", "9")),
    ("rule 1000", ("1000",)),
    ("1234.5a", ("1234", "5", "a")),
]
REFUSED = ["banana", "", "337.1a banana", "337.1 and", "337.1 ab c", "337.1(abc)", "9999.9999",
           "12345678901234567890.1", "337..1", "(a)", "337.1(a"]


@pytest.mark.parametrize("typed, segments", PARSED)
def test_a_lookup_reads_loose_and_long_numbers(typed: str, segments: tuple[str, ...]) -> None:
    assert parse_lookup_number(typed) == segments


@pytest.mark.parametrize("typed", REFUSED)
def test_a_lookup_refuses_what_is_no_number(typed: str) -> None:
    with pytest.raises(NumberError, match="not a rule number|at most"):
        parse_lookup_number(typed)
    assert try_parse_lookup_number(typed) is None


@pytest.mark.parametrize("typed, segments", PARSED)
def test_the_lookup_reading_without_raising(typed: str, segments: tuple[str, ...]) -> None:
    """try_parse_lookup_number: the site's search page asks it of a number search leaves unread."""
    assert try_parse_lookup_number(typed) == segments


@pytest.mark.parametrize("typed", ["9999.9", "2026.1", "337.1(a)", "337.1 a", "rule 1000"])
def test_the_citation_grammar_is_unchanged(typed: str) -> None:
    """The finder and search read parse_number: a year is no rule there, nor is 337.1 a."""
    assert try_parse_number(typed) is None
    with pytest.raises(NumberError):
        parse_number(typed)


@pytest.fixture()
def run(excerpt_home: Path):
    def invoke(*args: str) -> tuple[int, str, str]:
        result = CliRunner().invoke(main, ["--home", str(excerpt_home), *args])
        return result.exit_code, result.stdout, result.stderr
    return invoke


CLI = [
    # (arguments, exit code, text in stdout, text in stderr)
    (["rule", "337.1(a)"], 0, "337.1.a. ", ""),
    (["rule", "337.1", "a"], 0, "337.1.a. ", ""),
    (["rule", "337.1 a"], 0, "337.1.a. ", ""),
    (["rule", "9999.9"], 2, "", "error: rule 9999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 "),
    (["rule", "999.9"], 2, "", "error: rule 999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 "),
    (["rule", "337.99"], 2, "", "error: rule 337.99 does not exist in riftbound 1.4\nnearest: "),
    (["rule", "-r", "mtg", "117.3 d"], 0, "117.3d. ", ""),
    (["rule", "banana"], 2, "", "error: not a rule number: 'banana'"),
    (["rule", "337.1(abc)"], 2, "", "error: not a rule number: '337.1(abc)'"),
]


@pytest.mark.parametrize("args, code, out, err", CLI)
def test_the_rule_command(run, args: list[str], code: int, out: str, err: str) -> None:
    got_code, stdout, stderr = run(*args)
    assert (got_code, out in stdout, err in stderr) == (code, True, True), (stdout, stderr)


def test_a_long_head_is_said_as_a_three_digit_one_is(run) -> None:
    """9999.9 is past every rule as 999.9 is: both said so, with no nearest numbers (the
    document's last subrules, unrelated to either: A18)."""
    said = [run("rule", n)[2] for n in ("9999.9", "999.9")]
    assert said[0].replace("9999.9", "N") == said[1].replace("999.9", "N")
    assert not any("nearest" in s for s in said)


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


WEB = [
    # (url, status, text in the answer)
    ("/riftbound/1.4/9999.9", 404, "it is beyond the last rule, 829 Flow"),
    ("/riftbound/1.4/337.99", 404, "Nearest rules in riftbound 1.4"),
    ("/riftbound/1.4/" + quote("337.1(a)"), 200, "Finalizing an item to the chain"),
    ("/riftbound/1.4/" + quote("337.1 a"), 200, "Finalizing an item to the chain"),
    ("/riftbound/1.4/not-a-number", 400, "Not a rule number"),
    ("/api/v1/rulesets/riftbound/rules/9999.9?edition=1.4", 404, "rule 9999.9 does not exist"),
    ("/api/v1/rulesets/riftbound/rules/" + quote("337.1(a)") + "?edition=1.4", 200, '"number":"337.1.a"'),
    ("/api/v1/rulesets/riftbound/rules/" + quote("337.1 a") + "?edition=1.4", 200, '"number":"337.1.a"'),
    ("/api/v1/rulesets/riftbound/rules/banana?edition=1.4", 400, "is not valid here"),
]


@pytest.mark.parametrize("url, status, text", WEB)
def test_the_site_and_the_api(client: FlaskClient, url: str, status: int, text: str) -> None:
    r = client.get(url, follow_redirects=True)
    body = r.get_data(as_text=True).replace(": ", ":")
    assert (r.status_code, text.replace(": ", ":") in body) == (status, True), body[:300]
