"""A rule's ``cited_by`` a page at a time (kb.records.paging, the API's cited-by operation,
``rulekb rule --json``): a rule 3,000 rulings cite answered ~495 KB of JSON. Every face
lists at most CITED_BY_PAGE records by default, with the counts of all of them and where
the next page starts; the API's pages link the next one, and a bad page is the one JSON
error shape; ``rulekb rule --all-cited-by`` lists every one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask.testing import FlaskClient

from kb.cli import main
from kb.errors import QueryError
from kb.query import KnowledgeBase
from kb.records import CITED_BY_MOST, CITED_BY_PAGE, cited_by_page, import_records
from kb.store import build
from tests.conftest import copy_home
from web import create_app

CORPUS = Path(__file__).parent / "fixtures" / "records"


def found(rulings: int, articles: int) -> dict[str, Any]:
    """A cited_by answer of ``rulings`` rulings then ``articles`` articles."""
    records = ([{"kind": "ruling", "id": f"r{i}"} for i in range(rulings)]
               + [{"kind": "article", "id": f"a{i}"} for i in range(articles)])
    return {"total": len(records), "rulings": rulings, "articles": articles, "records": records}


# (rulings, articles, offset, limit, kind) -> (ids listed, more, next_offset)
PAGES = [
    ((0, 0, 0, CITED_BY_PAGE, None), ([], 0, None)),
    ((3, 0, 0, CITED_BY_PAGE, None), (["r0", "r1", "r2"], 0, None)),
    ((3, 2, 0, 2, None), (["r0", "r1"], 3, 2)),
    ((3, 2, 2, 2, None), (["r2", "a0"], 1, 4)),
    ((3, 2, 4, 2, None), (["a1"], 0, None)),
    ((3, 2, 0, 2, "article"), (["a0", "a1"], 0, None)),
    ((3, 2, 1, 1, "ruling"), (["r1"], 1, 2)),
    ((3, 2, 0, 1, "article"), (["a0"], 1, 1)),
    ((3, 2, 0, None, None), (["r0", "r1", "r2", "a0", "a1"], 0, None)),
    ((3000, 2, 0, CITED_BY_PAGE, None), ([f"r{i}" for i in range(CITED_BY_PAGE)], 3002 - CITED_BY_PAGE,
                                         CITED_BY_PAGE)),
]


@pytest.mark.parametrize("asked,expected", PAGES, ids=[str(a) for a, _ in PAGES])
def test_a_page_lists_its_records_and_counts_all(asked: tuple[Any, ...], expected: tuple[Any, ...]) -> None:
    rulings, articles, offset, limit, kind = asked
    page = cited_by_page(found(rulings, articles), offset, limit, kind)
    assert ([r["id"] for r in page["records"]], page["more"], page["next_offset"]) == expected
    assert (page["total"], page["rulings"], page["articles"]) == (rulings + articles, rulings, articles)
    assert page["matching"] == {None: rulings + articles, "ruling": rulings, "article": articles}[kind]


# (offset, limit, kind) -> status of the refusal
BAD_PAGES = [
    ((5, 2, None), 404), ((2, 2, "article"), 404), ((-1, 2, None), 400), ((0, 0, None), 400),
    ((0, CITED_BY_MOST + 1, None), 400), ((0, 2, "rulings"), 400),
]


@pytest.mark.parametrize("asked,status", BAD_PAGES, ids=[str(a) for a, _ in BAD_PAGES])
def test_a_bad_page_is_refused(asked: tuple[Any, ...], status: int) -> None:
    with pytest.raises(QueryError) as caught:
        cited_by_page(found(3, 2), *asked)
    assert caught.value.status == status


@pytest.fixture(scope="module")
def home(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default build with the test corpus's rulings and articles (190.3 is cited by a
    ruling and an article)."""
    home = copy_home(excerpt_home, tmp_path_factory.mktemp("cited-by") / "home")
    import_records(home, [CORPUS / "rulings"], "ruling", KnowledgeBase.open(home))
    import_records(home, [CORPUS / "articles"], "article", KnowledgeBase.open(home))
    build(home)
    return home


@pytest.fixture(scope="module")
def client(home: Path) -> FlaskClient:
    return create_app(home).test_client()


RULE = "/api/v1/rulesets/riftbound/rules/190.3"


def test_the_rule_answer_and_its_pages_list_every_record_once(client: FlaskClient) -> None:
    first = client.get(RULE).get_json()["cited_by"]
    assert (first["total"], first["limit"], first["next"]) == (2, CITED_BY_PAGE, None)
    ids, link = [], f"{RULE}/cited-by?limit=1"
    while link:
        r = client.get(link)
        assert r.status_code == 200 and r.headers["X-Rulekb-Edition"] == "riftbound 1.4"
        data = r.get_json()
        assert (data["number"], data["total"], len(data["records"])) == ("190.3", 2, 1)
        ids.append(data["records"][0]["id"])
        link = data["next"]
        assert link is None or "edition=1.4" in link and "limit=1" in link and "offset=1" in link
    assert sorted(ids) == sorted(r["id"] for r in first["records"])


def test_a_loose_number_or_an_earlier_edition_pages_the_same_rule(client: FlaskClient) -> None:
    data = client.get("/api/v1/rulesets/riftbound/rules/rule 187.3/cited-by?edition=1.3").get_json()
    assert (data["number"], data["edition"], data["total"]) == ("187.3", "1.3", 2)
    assert client.get(f"{RULE}/cited-by?kind=article").get_json()["records"][0]["kind"] == "article"


# a bad page or rule: (query, status, words of the message)
BAD = [
    ("offset=2", 404, "offset 2 is past the last of the 2 records"),
    ("kind=article&offset=1", 404, "past the last of the 1 articles"),
    ("offset=-1", 400, "offset"), ("offset=x", 400, "must be an integer"), ("limit=0", 400, "limit"),
    (f"limit={CITED_BY_MOST + 1}", 400, "limit"), ("kind=rulings", 400, "kind"),
    ("page=2", 400, "unknown query parameter 'page'"), ("edition=9.9", 404, "unknown edition"),
]


@pytest.mark.parametrize("query,status,words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_page_answers_the_one_error_shape(client: FlaskClient, query: str, status: int, words: str) -> None:
    r = client.get(f"{RULE}/cited-by?{query}")
    assert r.status_code == status and r.mimetype == "application/json"
    body = r.get_json()
    assert set(body) == {"error"} and body["error"]["status"] == status and words in body["error"]["message"]


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout


@pytest.mark.parametrize("options,limit", [((), CITED_BY_PAGE), (("--all-cited-by",), None)])
def test_rule_json_is_bounded_unless_all_are_asked_for(home: Path, options: tuple[str, ...],
                                                       limit: int | None) -> None:
    code, out = run(home, "rule", "190.3", "--json", *options)
    cited = json.loads(out)["cited_by"]
    assert code == 0 and (cited["limit"], cited["total"], len(cited["records"]), cited["more"]) == (limit, 2, 2, 0)


def test_rule_text_says_how_many_more_there_are(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kb.records.CITED_BY_PAGE", 1)  # two records, a page of one
    code, out = run(home, "rule", "190.3", "--no-subrules")
    assert code == 0 and "cited by 1 ruling, 1 article: " in out and ", and 1 more (--all-cited-by lists them)" in out
    code, out = run(home, "rule", "190.3", "--no-subrules", "--all-cited-by")
    assert code == 0 and " more (" not in out
