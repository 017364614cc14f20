"""A citation of a number the pinned edition lacks and another edition of its ruleset has
(acceptance run E, F-F: an article pinned to Magic 2026-01-16 citing 2010's 116.3d) says
where that rule is now, as ``rulekb rule 116.3d --ruleset mtg`` does: the report entry's
``elsewhere``, the sentence in its message (the CLI's ``--check`` line, the link's title),
the new number first among the nearest. On the embedded excerpts (Magic 2010-10-01 and
2026-01-16, Riftbound 1.3 and 1.4). One line per case: the text, the pinned edition, the
citation's status, and the number the hint names (None: no hint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.cite.link import link_article, lookup
from kb.errors import QueryError
from kb.query import KnowledgeBase, elsewhere_sentence
from tests.test_api import CheckedClient
from web import create_app

CASES: list[tuple[str, str, str, str, str | None]] = [
    ("Priority is CR 116.3d.", "mtg", "2026-01-16", "not_found", "117.3d"),
    ("Priority is Rule 116.3.a.", "mtg", "2026-01-16", "not_found", "117.3a"),
    ("See also (116.4).", "mtg", "2026-01-16", "not_found", "117.4"),
    ("Who acts: § 116.3b.", "mtg", "2026-01-16", "not_found", "117.3b"),
    ("Priority is CR 117.3d.", "mtg", "2026-01-16", "ok", None),  # found: nothing to hint
    ("Nowhere: CR 999.9z.", "mtg", "2026-01-16", "not_found", None),  # no edition has it
    ("Priority is CR 116.3d.", "mtg", "2010-10-01", "ok", None),
]


def pinned(text: str, ruleset: str, edition: str) -> str:
    """The text as an article pinned by its front matter (an edition passed as an argument
    alone may be taken for the one the article is linked against, and the edition it was
    written for inferred: then the citation is renumbered, not missing)."""
    return f"---\nruleset: {ruleset}\nedition: {edition}\n---\n{text}\n"


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


@pytest.mark.parametrize("text,ruleset,edition,status,here", CASES)
def test_a_missing_number_says_where_the_rule_is_now(kb: KnowledgeBase, text: str, ruleset: str,
                                                     edition: str, status: str,
                                                     here: str | None) -> None:
    rg = kb.edition(ruleset, edition)
    article = pinned(text, ruleset, edition)
    for answer in (lookup(kb, article), link_article(kb, article, fmt="json")):
        (c,) = answer["citations"]
        assert c["status"] == status
        where = c.get("elsewhere")
        if here is None:
            assert where is None
            continue
        assert where is not None and where["here"] == here
        said = elsewhere_sentence(where, rg.edition.name)
        assert c["message"].endswith(said)
        assert c["nearest"][0] == here
        # the rule lookup's own words for the same number
        with pytest.raises(QueryError) as exc:
            kb.locate_rule(rg, c["written"])
        assert said in str(exc.value)


def test_the_html_title_carries_the_hint(kb: KnowledgeBase) -> None:
    out = link_article(kb, pinned("Priority is CR 116.3d.", "mtg", "2026-01-16"))
    assert "is rule 117.3d in 2026-01-16" in out["output"]


def test_a_hint_leaves_the_shared_resolutions_unchanged(kb: KnowledgeBase) -> None:
    """The same article linked twice says the same thing (the resolver's caches keep their
    own resolutions), and a second place citing the number gets the hint too."""
    text = pinned("CR 116.3d, then CR 116.3d again.", "mtg", "2026-01-16")
    first = link_article(kb, text, fmt="json")
    second = link_article(kb, text, fmt="json")
    assert first["citations"] == second["citations"]
    assert [c["elsewhere"]["here"] for c in first["citations"]] == ["117.3d", "117.3d"]
    assert all(c["message"].count("is rule 117.3d") == 1 for c in first["citations"])


# A range the pinned edition cannot resolve, whose two ends another edition has and maps
# here: (text, the pinned edition, the range it names here, or None: no hint).
RANGES: list[tuple[str, str, str | None]] = [
    ("Priority: rules 116.3–116.5.", "2026-01-16", "117.3–117.5"),     # one end still exists
    ("Who passes: rules 116.3a–116.3d.", "2026-01-16", "117.3a–117.3d"),  # neither does
    ("Back then: rules 117.3a–117.3d.", "2010-10-01", "116.3a–116.3d"),  # a newer edition's numbers
    ("Too far: rules 116.3–116.9.", "2026-01-16", None),  # no edition resolves the whole range
    ("Fine: rules 117.3a–117.3d.", "2026-01-16", None),   # found: nothing to hint
]


@pytest.mark.parametrize("text,edition,here", RANGES)
def test_a_missing_range_says_where_its_rules_are_now(kb: KnowledgeBase, text: str, edition: str,
                                                      here: str | None) -> None:
    article = pinned(text, "mtg", edition)
    for answer in (lookup(kb, article), link_article(kb, article, fmt="json")):
        (c,) = answer["citations"]
        where = c.get("elsewhere")
        if here is None:
            assert where is None, c["message"]
            continue
        assert c["status"] == "not_found"
        assert where is not None and where["here"] == here and where["status"] == "renumbered"
        assert c["message"].endswith(f"are rules {here} in {edition}"), c["message"]
        assert c["nearest"][0] == here.split("–")[0]


@pytest.fixture(scope="module")
def api(excerpt_home: Path) -> CheckedClient:
    app = create_app(excerpt_home)
    assert app.extensions["rulekb"].wait_ready(60)
    return CheckedClient(app)


# the text posted, the operation, the hint's range or number
POSTED: list[tuple[str, str, str]] = [
    ("Priority is CR 116.3d.", "/api/v1/citations/lookup", "117.3d"),
    ("Priority: rules 116.3–116.5.", "/api/v1/citations/lookup", "117.3–117.5"),
    ("Priority: rules 116.3–116.5.", "/api/v1/citations/annotate", "117.3–117.5"),
]


@pytest.mark.parametrize("text,url,here", POSTED)
def test_the_api_describes_the_hint(api: CheckedClient, text: str, url: str, here: str) -> None:
    """The API's answer with a hint is the one its OpenAPI document describes (the client
    checks every answer against it)."""
    field = "text" if url.endswith("lookup") else "markdown"
    resp = api.post(url, json={field: pinned(text, "mtg", "2026-01-16"), **({"format": "json"} if field == "markdown" else {})})
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    (c,) = resp.get_json()["citations"]
    assert c["elsewhere"]["here"] == here
