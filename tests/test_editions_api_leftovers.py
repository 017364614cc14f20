"""The editions API and feeds over many editions: the acceptance run's leftovers (task M).

- The diff API's ``?summary=true`` answers the counts ``rulekb diff --summary`` prints (the
  embedded default's two editions of each ruleset).
- A ruleset's or section's change feed holds the newest ``FEED_STEPS`` steps and links its
  older pages (RFC 5005 paging, ``?before=EDITION``): four Magic archive releases of
  ../shared (three steps), read and built once for the module.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

import kb.feeds
from kb.cli import main
from kb.errors import QueryError
from kb.feeds import changes_feed
from kb.query import KnowledgeBase
from kb.store import build, import_document
from tests.conftest import CORPORA, SKIP_REASON, shared_available
from web import create_app

A = "{http://www.w3.org/2005/Atom}"
RELEASES = ["2003-03-15", "2003-10-01", "2003-12-01", "2004-10-01"]


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
    ("/api/v1/rulesets/{ruleset}/changes.atom", "before", "string"),
])
def test_the_new_parameters_are_in_the_openapi_document(excerpt_client: FlaskClient, path: str, name: str,
                                                        type_: str) -> None:
    doc = excerpt_client.get("/api/openapi.json").get_json()
    [param] = [p for p in doc["paths"][path]["get"]["parameters"] if p["name"] == name]
    assert param["in"] == "query" and param["schema"]["type"] == type_ and param["description"]


# ---- 2. the change feeds, paged ------------------------------------------------------------

@pytest.fixture(scope="module")
def archive_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four Magic archive releases (three steps), built once, without the embedded corpus."""
    if not shared_available():
        pytest.skip(SKIP_REASON)
    tmp = tmp_path_factory.mktemp("leftovers")
    home = tmp / "home"
    for date in RELEASES:
        import_document(home, CORPORA / "mtg" / "archive" / f"comprehensive-rules-{date}.txt",
                        ruleset="mtg", edition=date)
    build(home, rules=tmp / "no-embedded-rules")
    return home


class _Links:
    def rule(self, ruleset: str, edition: str, number: str) -> str:
        return f"/{ruleset}/{edition}/{number}"

    def compare(self, ruleset: str, old: str, new: str) -> str:
        return f"/{ruleset}/compare/{old}/{new}"

    def history(self, ruleset: str, number: str) -> str:
        return f"/{ruleset}/{number}"


@pytest.mark.parametrize("steps, pages", [
    (1, [["2003-12-01:2004-10-01"], ["2003-10-01:2003-12-01"], ["2003-03-15:2003-10-01"]]),
    (2, [["2003-12-01:2004-10-01", "2003-10-01:2003-12-01"], ["2003-03-15:2003-10-01"]]),
    (3, [["2003-12-01:2004-10-01", "2003-10-01:2003-12-01", "2003-03-15:2003-10-01"]]),
    (10, [["2003-12-01:2004-10-01", "2003-10-01:2003-12-01", "2003-03-15:2003-10-01"]]),
])
@pytest.mark.parametrize("chapter", [None, "2"])
def test_a_feeds_pages_join_to_every_step_newest_first(archive_home: Path, steps: int, pages: list[list[str]],
                                                       chapter: str | None) -> None:
    kb_ = KnowledgeBase.open(archive_home)
    whole = changes_feed(kb_, "mtg", _Links(), chapter=chapter, steps=100)
    got, befores, newer = [], [None], []
    while True:
        page = changes_feed(kb_, "mtg", _Links(), chapter=chapter, before=befores[-1], steps=steps)
        assert page.paged == (len(pages) > 1) and page.id == whole.id
        newer.append(page.newer)
        got.append([_step(e.id) for e in page.entries])
        if page.older is None:
            break
        befores.append(page.older)
    # every step of these releases changed both the ruleset and chapter 2
    assert got == pages
    assert sum(got, []) == [_step(e.id) for e in whole.entries]
    # each page's newer page is the page before it (None: the first, which has no before)
    assert newer == [None, *befores[:-1]][:len(newer)] and newer[0] is None


def _step(entry_id: str) -> str:
    """An entry's step, 'OLD:NEW', from its id."""
    return ":".join(entry_id.rsplit(":", 2)[-2:])


@pytest.mark.parametrize("before, steps, status", [
    ("2099-01-01", 1, 404),
    ("1.4", 1, 404),
])
def test_a_feed_page_before_an_unknown_edition_is_404(archive_home: Path, before: str, steps: int,
                                                      status: int) -> None:
    with pytest.raises(QueryError) as err:
        changes_feed(KnowledgeBase.open(archive_home), "mtg", _Links(), before=before, steps=steps)
    assert err.value.status == status and "not an edition of mtg" in err.value.message


@pytest.fixture(scope="module")
def archive_client(archive_home: Path) -> Iterator[FlaskClient]:
    """The API on the four releases, a feed page holding two steps (so it has two pages)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(kb.feeds, "FEED_STEPS", 2)
        app = create_app(archive_home)
        assert app.extensions["rulekb"].wait_ready(60)
        yield app.test_client()


def _feed(client: FlaskClient, url: str) -> ET.Element:
    resp = client.get(url)
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml", resp.data[:300]
    root = ET.fromstring(resp.data)
    for required in ("id", "title", "updated", "author/" + A + "name"):
        assert (root.findtext(A + required) or "").strip(), required
    return root


def _rels(root: ET.Element) -> dict[str, str]:
    return {link.get("rel"): link.get("href") for link in root.findall(f"{A}link")
            if link.get("rel") in ("first", "next", "previous")}


F = "/api/v1/rulesets/mtg/changes.atom"


@pytest.mark.parametrize("url, entries, rels", [
    (F, ["2004-10-01", "2003-12-01"], {"first": F, "next": F + "?before=2003-12-01"}),
    (F + "?before=2003-12-01", ["2003-10-01"], {"first": F, "previous": F}),
    (F + "?before=2003-10-01", [], {"first": F, "previous": F + "?before=2004-10-01"}),
    (F + "?section=2", ["2004-10-01", "2003-12-01"],
     {"first": F + "?section=2", "next": F + "?section=2&before=2003-12-01"}),
    (F + "?section=2&before=2003-12-01", ["2003-10-01"], {"first": F + "?section=2", "previous": F + "?section=2"}),
    ("/api/v1/rulesets/mtg/rules/103.1/changes.atom", None, {}),  # a rule's feed is not paged
])
def test_the_feed_api_links_its_pages(archive_client: FlaskClient, url: str, entries: list[str] | None,
                                      rels: dict[str, str]) -> None:
    root = _feed(archive_client, url)
    assert _rels(root) == rels
    if entries is not None:
        assert [e.findtext(f"{A}id").rsplit(":", 1)[-1] for e in root.findall(f"{A}entry")] == entries
    assert root.findtext(f"{A}id").startswith("urn:rulekb:mtg:")  # every page is the same feed


@pytest.mark.parametrize("query, status", [
    ("?before=nope", 404),
    ("?before=%3Cx%3E", 400),
    ("?befor=2003-12-01", 400),
])
def test_a_bad_feed_page_is_a_clear_error(archive_client: FlaskClient, query: str, status: int) -> None:
    resp = archive_client.get(F + query)
    assert resp.status_code == status and resp.get_json()["error"]["message"], resp.data[:300]
