"""A typed number the edition lacks is said alike everywhere (issue #18/#20 leftovers).

``rulekb search 9999.9`` and ``GET /api/v1/search?q=9999.9`` answered "0 matching" with
``no_such_rule: null`` while ``rulekb rule 9999.9`` named the nearest numbers and the search
page had a path of its own to name them. Now the facade (``KnowledgeBase.search``) says it
for every form the rule lookup reads (:func:`kb.numbers.typed_number`), whatever its shape:
four digits, more parts than the edition uses, a letter where it writes digits, another
ruleset's way of writing numbers; and the API, the CLI and the site say the facade's answer,
with the nearest numbers ``rulekb rule`` names. The offline pack's parity with it is
tests/test_offline_numbers.py's table. Runs on the embedded excerpts.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from kb.errors import QueryError
from kb.query import KnowledgeBase
from web import create_app

EDITIONS = {"riftbound": "1.4", "mtg": "2026-01-16"}

# (ruleset, typed as a judge types it, the number said)
MISSING = [
    ("riftbound", "9999.9", "9999.9"),          # a head longer than any rule's
    ("riftbound", "1000", "1000"),
    ("riftbound", "rule 9999", "9999"),         # a prefix word, and the number alone is searched
    ("riftbound", "2026", "2026"),
    ("riftbound", "337.1.z", "337.1.z"),
    ("riftbound", "337.99", "337.99"),
    ("riftbound", "0.1", "0.1"),
    ("riftbound", "116.3d", "116.3.d"),         # Magic's style, said in the edition's own
    ("riftbound", "337.1.a.b.c.d", "337.1.a.b.c.d"),  # more parts than the edition uses
    ("riftbound", "337.a", "337.a"),            # a letter where the edition writes a digit
    ("riftbound", "337.9(z)", "337.9.z"),       # a form only the lookup reads
    ("mtg", "CR 999.9z", "999.9z"),
    ("mtg", "CR 9999.9z", "9999.9z"),
    ("mtg", "9999.9", "9999.9"),
    ("mtg", "1000", "1000"),
    ("mtg", "0.1", "0.1"),
    ("mtg", "117.3d.1", "117.3d.1"),
    ("mtg", "116.3d", "116.3d"),                # 2010's number: where it is now comes first
]

# Past the excerpts' last rule (Riftbound 829, Magic 800): said so, with no nearest numbers (A18).
BEYOND = {("riftbound", "9999.9"), ("riftbound", "1000"), ("riftbound", "rule 9999"), ("riftbound", "2026"),
          ("mtg", "CR 999.9z"), ("mtg", "CR 9999.9z"), ("mtg", "9999.9"), ("mtg", "1000")}

# (ruleset, typed): no number the edition lacks, so nothing is said
NOT_SAID = [
    ("riftbound", "priority"),
    ("riftbound", "1 2"),            # digits that re-dot into no rule
    ("riftbound", "337 or 338"),
    ("riftbound", "337-340"),        # a range: its rules listed
    ("riftbound", "337.1.a"),        # a rule: the jump
    ("riftbound", "337.1(a)"),
    ("riftbound", "337.1 a"),
    ("mtg", "117.3d"),
]


@pytest.fixture(scope="module")
def client(excerpt_home: Path) -> FlaskClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60)
    return app.test_client()


def _lookup(kb: KnowledgeBase, ruleset: str, typed: str) -> QueryError:
    """What ``rulekb rule`` says of ``typed`` (its 404)."""
    with pytest.raises(QueryError) as caught:
        kb.locate_rule(kb.edition(ruleset, EDITIONS[ruleset]), typed)
    assert caught.value.status == 404
    return caught.value


@pytest.mark.parametrize("ruleset, typed, number", MISSING)
def test_the_facade_says_a_missing_number_as_the_lookup(excerpt_kb: KnowledgeBase, ruleset: str, typed: str,
                                                        number: str) -> None:
    lookup = _lookup(excerpt_kb, ruleset, typed)
    r = excerpt_kb.search(typed, ruleset, rulings=False)
    assert r["no_such_rule"] == {"number": number, "message": lookup.message,
                                 "nearest": lookup.detail["nearest"],
                                 "elsewhere": lookup.detail.get("elsewhere")}
    if (ruleset, typed) in BEYOND:
        last = {"riftbound": "829", "mtg": "800"}[ruleset]
        assert r["no_such_rule"]["nearest"] == [] and f": it is beyond the last rule, {last} " in lookup.message
    else:
        assert len(r["no_such_rule"]["nearest"]) >= 3 and "beyond" not in lookup.message
    assert r["query"] == typed and r["jump"] is None
    assert r["results"] == [] and r["total"] == 0  # not the hits of "rule" beside 9999


@pytest.mark.parametrize("ruleset, typed", NOT_SAID)
def test_what_is_no_missing_number_is_not_said(excerpt_kb: KnowledgeBase, ruleset: str, typed: str) -> None:
    assert excerpt_kb.search(typed, ruleset)["no_such_rule"] is None


@pytest.mark.parametrize("ruleset, typed, number", MISSING)
def test_the_api_cli_and_site_say_the_facades_answer(excerpt_kb: KnowledgeBase, excerpt_home: Path,
                                                     client: FlaskClient, ruleset: str, typed: str,
                                                     number: str) -> None:
    said = excerpt_kb.search(typed, ruleset)["no_such_rule"]
    nearest = ", ".join(said["nearest"])
    api = client.get("/api/v1/search", query_string={"q": typed, "ruleset": ruleset})
    assert api.status_code == 200 and api.json["no_such_rule"] == said

    runner = CliRunner()
    searched = runner.invoke(main, ["--home", str(excerpt_home), "search", typed, "--ruleset", ruleset])
    assert searched.exit_code == 0 and "Traceback" not in searched.output
    looked_up = runner.invoke(main, ["--home", str(excerpt_home), "rule", typed, "--ruleset", ruleset])
    if nearest:
        assert f"no rule {number} in {ruleset} {EDITIONS[ruleset]}; nearest: {nearest}\n" in searched.stdout
        assert looked_up.exit_code != 0 and f"nearest: {nearest}\n" in looked_up.output  # rulekb rule alike
    else:  # past the last rule: the lookup's message, in both
        assert f"{said['message']}\n" in searched.stdout
        assert looked_up.exit_code != 0 and f"error: {said['message']}\n" in looked_up.output
        assert "nearest" not in searched.stdout + looked_up.output

    page = client.get("/search", query_string={"q": typed, "ruleset": ruleset})
    body = page.get_data(as_text=True)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))
    assert page.status_code == 200 and f"No rule {number} in " in text
    links = re.search(r'class="didyoumean no-such-rule">(.*?)</p>', body, re.S).group(1)
    assert re.findall(r'<a href="[^"]*">([^<]+)</a>', links) == said["nearest"]


@pytest.mark.parametrize("typed, number", [("337.1(a)", "337.1.a"), ("337.1 a", "337.1.a"),
                                           ("[337.1a]", "337.1.a"), ("rule 337.2", "337.2")])
def test_a_number_only_the_lookup_reads_jumps_from_the_facade(excerpt_kb: KnowledgeBase, client: FlaskClient,
                                                             typed: str, number: str) -> None:
    assert excerpt_kb.search(typed, "riftbound")["jump"] == number
    page = client.get("/search", query_string={"q": typed, "ruleset": "riftbound"})
    assert page.status_code == 302 and page.headers["Location"].endswith("/riftbound/1.4/" + number)
