"""Every request does bounded work and fails cleanly (issue #21, the web-input items).

One line per hostile input, with the status it must get and the limit it must name: text
that cannot be encoded (a lone surrogate) is a 400 naming where it is, never a 500; nesting
past ``input.nesting`` is a 422 in every JSON and YAML reader (API bodies, the site's
pasted scenario, article front matter, the CLI's files); the linker's budgets (front
matter, inline markup, citations listed) hold before the work; ``base_url`` is http(s) or
relative; links never follow the ``Host`` header; every answer carries the hardening
headers; the per-build cache keeps nothing for a miss.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from flask import Flask

from kb import limits
from kb.cli import main
from kb.derived import derived
from kb.errors import QueryError
from kb.inputs import check_json, load_yaml, loads_json
from kb.loaded import LoadedEditions
from kb.query import KnowledgeBase
from web import create_app

LOOKUP, ANNOTATE = "/api/v1/citations/lookup", "/api/v1/citations/annotate"
NEXT, RUN = "/api/v1/timing/next", "/api/v1/timing/run"
SURROGATE = "\\ud800"  # as JSON writes it: json.loads gives a lone surrogate
SCENARIO = {"name": "x", "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
            "cards": {"Fireball": {"type": "spell", "effects": [{"draw": 1}]}},
            "steps": [{"play": {"player": "Ann", "card": "Fireball"}}, {"pass": "Ann"}]}


def deep(n: int) -> str:
    return "[" * n + "]" * n


def with_(base: dict[str, Any], **fields: Any) -> str:
    return json.dumps({**base, **fields})


@pytest.fixture(scope="module")
def app(excerpt_kb: KnowledgeBase) -> Flask:
    return create_app(kb=excerpt_kb)


@pytest.fixture(scope="module")
def client(app: Flask) -> Any:
    return app.test_client()


# (what, url, raw JSON body, status, the limit named or the place named)
API_CASES: list[tuple[str, str, str, int, str]] = [
    ("surrogate in an article", ANNOTATE, '{"markdown": "rule 337.1a ' + SURROGATE + '"}', 400,
     "/markdown"),
    ("surrogate in a text", LOOKUP, '{"text": "rule 337.1a ' + SURROGATE + '"}', 400, "/text"),
    ("surrogate in lookup's base_url", LOOKUP,
     '{"text": "rule 337.1a", "base_url": "' + SURROGATE + '"}', 400, "/base_url"),
    ("surrogate in a timing/next card name", NEXT,
     '{"players": ["Ann", "Bo"], "chain": [{"name": "Fire' + SURROGATE + '", "controller": "Ann"}]}',
     400, "/chain/0/name"),
    ("surrogate in a timing/run name", RUN, with_(SCENARIO, name="x").replace('"x"', '"' + SURROGATE + '"', 1),
     400, "/name"),
    ("surrogate in a bad timing/run step", RUN,
     with_(SCENARIO, steps=[{"pass": "Nobody"}]).replace("Nobody", "No" + SURROGATE), 400,
     "/steps/0/pass"),
    ("surrogate in a key", NEXT, '{"players": ["Ann", "Bo"], "x' + SURROGATE + '": 1}', 400, "(a key)"),
    ("UTF-8-encoded surrogate bytes", LOOKUP, '{"text": "\udcED\udcA0\udc80"}', 400, ""),
    ("65 levels of JSON", NEXT, '{"players": ["Ann", "Bo"], "x": ' + deep(64) + "}", 422,
     "input.nesting"),
    ("100,000 [ in JSON", RUN, "[" * 100_000, 422, "input.nesting"),
    ("deep JSON inside a scenario", RUN, with_(SCENARIO, cards={"F": {"effects": [json.loads(deep(70))]}}),
     422, "input.nesting"),
    ("front matter nested 5,000 deep", ANNOTATE,
     json.dumps({"markdown": "---\na: " + "[" * 5000 + "\n---\nrule 337.1a"}), 422, "input.nesting"),
    ("front matter of 100 KB", ANNOTATE,
     json.dumps({"markdown": "---\n" + "a: b\n" * 20_000 + "---\nrule 337.1a"}), 413,
     "cite.front_matter"),
    ("1 MB of [ to annotate", ANNOTATE, json.dumps({"markdown": "[" * 1_000_000}), 422, "cite.markup"),
    ("100,000 table rows to annotate", ANNOTATE,
     json.dumps({"markdown": "a|b\n-|-\n" + "x\n" * 100_000}), 422, "cite.lines"),
    ("a paragraph on every other line", ANNOTATE, json.dumps({"markdown": "ab\n\n" * 200_000}), 422,
     "cite.lines"),
    ("javascript: base_url", LOOKUP, '{"text": "rule 337.1a", "base_url": "javascript:alert(1)//"}',
     400, "base_url"),
    ("javascript: base_url to annotate", ANNOTATE,
     '{"markdown": "rule 337.1a", "base_url": "JavaScript:alert(1)"}', 400, "base_url"),
    ("scheme-relative base_url", LOOKUP, '{"text": "rule 337.1a", "base_url": "//evil.example"}',
     400, "base_url"),
    ("data: base_url", ANNOTATE, '{"markdown": "rule 337.1a", "base_url": "data:text/html,x"}',
     400, "base_url"),
    ("backslash base_url", ANNOTATE, '{"markdown": "rule 337.1a", "base_url": "/\\\\evil.example"}',
     400, "base_url"),
]


def _raw(body: str) -> bytes:
    # \udcXX stands for a raw byte (surrogateescape), so a case can send bytes JSON cannot write.
    return body.encode("utf-8", "surrogateescape")


@pytest.mark.parametrize(("what", "url", "body", "status", "named"), API_CASES,
                         ids=[c[0] for c in API_CASES])
def test_hostile_api_bodies(client: Any, what: str, url: str, body: str, status: int,
                            named: str) -> None:
    started = time.monotonic()
    resp = client.post(url, data=_raw(body), content_type="application/json")
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    error = json.loads(resp.get_data())["error"]  # the one error shape, valid UTF-8 JSON
    assert error["status"] == status
    if named.startswith(("input.", "cite.")):
        assert error["detail"]["limit"] == named and named in error["message"]
        assert error["detail"]["max"] == limits.LIMITS[named].value
    elif named:
        assert named in error["message"]
    assert time.monotonic() - started < 5  # generous: bounded, not fast


@pytest.mark.parametrize(("base_url", "ok"), [
    ("", True), ("/rules", True), ("../site", True), ("https://rules.example.org", True),
    ("http://127.0.0.1:8000/x", True), ("javascript:alert(1)", False), (" javascript:x", False),
    ("java\tscript:x", False), ("vbscript:x", False), ("//evil.example", False),
    ("https://", False), ("http:/x", False), ("x:y", False), ("http://[x", False),
])
def test_base_url_is_http_or_relative(excerpt_kb: KnowledgeBase, base_url: str, ok: bool) -> None:
    for call in (lambda: excerpt_kb.citations_lookup("rule 337.1a", base_url=base_url),
                 lambda: excerpt_kb.citations_annotate("rule 337.1a", base_url=base_url)):
        if ok:
            call()
        else:
            with pytest.raises(QueryError) as info:
                call()
            assert info.value.status == 400 and "base_url" in info.value.message


def test_every_link_the_linker_writes_checks_its_base_url(excerpt_kb: KnowledgeBase) -> None:
    from markdown_it import MarkdownIt

    from kb.cite import rule_citations
    from kb.cite.annotate import rule_url
    md = MarkdownIt().use(rule_citations, kb=excerpt_kb, base_url="javascript:alert(1)//")
    with pytest.raises(QueryError, match="base_url"):
        md.render("See rule 337.1a.")
    with pytest.raises(QueryError, match="base_url"):
        rule_url("riftbound", "1.4", "337.1.a", "data:text/html,")
    assert rule_url("riftbound", "1.4", "337.1.a", "https://r.example.org") == \
        "https://r.example.org/riftbound/1.4/337.1.a"


def test_cli_base_url_is_a_usage_error(excerpt_home: Path, tmp_path: Path) -> None:
    article = tmp_path / "a.md"
    article.write_text("See rule 337.1a.\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "link", "--base-url",
                                       "javascript:alert(1)", str(article)])
    assert result.exit_code == 2 and "--base-url" in result.output and "javascript" in result.output
    assert "Traceback" not in result.output
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "link", "--base-url",
                                       "https://rules.example.org", str(article)])
    assert result.exit_code == 0 and 'href="https://rules.example.org/riftbound/1.4/337.1.a"' in result.output


# -- the site's forms and query strings --------------------------------------------------------
SITE_CASES: list[tuple[str, str, str, dict[str, str] | None, int]] = [
    ("30,000 [ pasted on /timing", "POST", "/timing", {"yaml": "[" * 30_000}, 422),
    ("a scenario nested 70 deep", "POST", "/timing", {"yaml": "name: x\nsteps: " + deep(70)}, 422),
    ("aliases in a pasted scenario", "POST", "/timing", {"yaml": "a: &x [1]\nb: *x\n"}, 400),
    ("30,000 [ pasted as a state on /timing/next", "POST", "/timing/next", {"state": "[" * 30_000}, 422),
    ("a state nested 70 deep", "POST", "/timing/next", {"state": '{"ruleset": ' + "[" * 70 + "]" * 70 + "}"},
     422),
    ("a form over site.form on /timing/next", "POST", "/timing/next", {"raw": "state=" + "%5B" * 200_000}, 413),
    ("front matter nested 5,000 deep on /cite", "POST", "/cite",
     {"article": "---\na: " + "[" * 5000 + "\n---\nrule 337.1a"}, 422),
    ("undecodable bytes in a form", "POST", "/cite", None, 400),
    ("a lone surrogate's bytes in a query", "GET", "/search?q=%ED%A0%80", None, 400),
    ("an undecodable byte in a query", "GET", "/search?q=%FF%FE", None, 400),
    ("UTF-8 in a query", "GET", "/search?q=caf%C3%A9+r%C3%A8gle+%E2%82%AC+%F0%9F%98%80", None, 200),
    ("a UTF-8 sequence split by ASCII", "GET", "/search?q=%C3x%A9", None, 400),
    ("a truncated UTF-8 sequence", "GET", "/search?q=chain%E2%82", None, 400),
    ("undecodable bytes in a path", "GET", "/riftbound/1.4/%FF", None, 400),
    ("undecodable bytes in a scenario name", "GET", "/timing?scenario=%ED%A0%80", None, 400),
    ("undecodable bytes in an API query", "GET", "/api/v1/search?q=%C0%AF", None, 400),
    ("raw UTF-8 bytes in a form", "POST", "/cite", {"raw": "article=caf\xc3\xa9&style=footnotes"}, 200),
    ("raw Latin-1 bytes in a form", "POST", "/cite", {"raw": "article=caf\xe9&style=footnotes"}, 400),
    ("a form over site.form", "POST", "/timing", {"raw": "yaml=" + "%5B" * 200_000}, 413),
    ("an article over site.article", "POST", "/cite", {"article": "x" * 200_001}, 413),
]


@pytest.mark.parametrize(("what", "method", "url", "form", "status"), SITE_CASES,
                         ids=[c[0] for c in SITE_CASES])
def test_hostile_site_input(client: Any, what: str, method: str, url: str,
                            form: dict[str, str] | None, status: int) -> None:
    if method == "POST" and form is None:  # bytes no form encoding can write
        resp = client.post(url, data=b"article=rule%20337.1a%20%ED%A0%80%FF&style=footnotes",
                           content_type="application/x-www-form-urlencoded")
    elif method == "POST" and "raw" in form:
        resp = client.post(url, data=form["raw"].encode("latin-1"),
                           content_type="application/x-www-form-urlencoded")
    else:
        resp = client.open(url, method=method, data=form)
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    html = resp.get_data().decode("utf-8")  # always encodable
    assert "Traceback" not in html
    if status == 422:
        assert "input.nesting" in html
    if status == 400 and "path" not in what and "aliases" not in what:
        assert "not UTF-8 text" in html
    if status == 413:
        assert ("site.form" if "form" in what else "site.article") in html


# -- every YAML and JSON reader ----------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "a: " + "[" * 5000, "- " * 5000, "a: x\n" + "[" * 1_000_000, "a: " + "{x: " * 70,
    "\n".join(" " * i + "k:" for i in range(200)),
])
def test_yaml_nesting_is_refused_before_composing(text: str) -> None:
    started = time.monotonic()
    with pytest.raises(limits.LimitExceeded) as info:
        load_yaml(text, "input.yaml")
    assert info.value.limit is limits.NESTING_DEPTH and info.value.status == 422
    assert "input.yaml line" in info.value.message
    assert time.monotonic() - started < 5


def test_yaml_within_the_limit_reads_as_before() -> None:
    text = "a: " + "[" * 63 + "]" * 63 + "\nb: 1.10\nc: [x, {d: e}]\n"  # 64 levels, the mapping's too
    assert load_yaml(text) == yaml.safe_load(text)
    assert load_yaml("edition: 1.10", strings=True) == {"edition": "1.10"}
    with pytest.raises(yaml.YAMLError, match="aliases"):
        load_yaml("a: &x [1]\nb: *x\n", aliases=False)
    with pytest.raises(QueryError) as info:
        load_yaml("a: b\ufffd\ud800")
    assert info.value.status == 400


def test_json_checks_name_the_place() -> None:
    check_json(json.loads(deep(64)))
    with pytest.raises(limits.LimitExceeded) as info:
        check_json({"a": [json.loads(deep(64))]}, "body")
    assert info.value.detail["where"].startswith("body /a/0")
    with pytest.raises(QueryError) as info:
        loads_json('{"a/b": ["ok", "x\\udfff"]}', "body")
    assert info.value.status == 400 and info.value.detail["where"] == "body /a~1b/1"
    assert loads_json('"\\ud83d\\ude00"') == "\U0001f600"  # a pair is one character
    with pytest.raises(limits.LimitExceeded):
        loads_json("[" * 200_000)


def test_cli_scenario_nested_too_deep(excerpt_home: Path, tmp_path: Path) -> None:
    scenario = tmp_path / "deep.yaml"
    scenario.write_text("name: x\nsteps: " + "[" * 30_000 + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(scenario)])
    assert result.exit_code == 2 and "input.nesting" in result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(("state", "named"), [
    ('{"players": ["Ann", "Bo"], "x": ' + "[" * 65 + "]" * 65 + "}", "input.nesting"),
    ('{"a": ' + "[" * 200_000, "input.nesting"),  # too deep for the parser itself
    ('{"players": ["Ann", "B\\ud800"]}', "lone surrogate"),
])
def test_cli_timing_next_state_checked(excerpt_home: Path, tmp_path: Path, state: str, named: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(state, encoding="utf-8")
    for given in (str(path), state):
        result = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "next", "--state", given])
        assert result.exit_code == 2 and named in result.output, result.output[-300:]
        assert isinstance(result.exception, SystemExit)


def test_cli_article_front_matter_too_deep(excerpt_home: Path, tmp_path: Path) -> None:
    article = tmp_path / "deep.md"
    article.write_text("---\na: " + "[" * 5000 + "\n---\nrule 337.1a\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "link", str(article)])
    assert result.exit_code == 2 and "input.nesting" in result.output and "front matter" in result.output
    assert isinstance(result.exception, SystemExit)


# -- the linker's budgets ------------------------------------------------------------------------
def test_lookup_lists_citations_up_to_the_limit_and_counts_the_rest(excerpt_kb: KnowledgeBase) -> None:
    n = limits.CITE_CITATIONS.value + 2_000
    data = excerpt_kb.citations_lookup("rule 337.1a " * n)
    assert len(data["citations"]) == limits.CITE_CITATIONS.value
    assert data["summary"]["over_limit"] == 2_000 and data["summary"]["total"] == n
    assert all(c["status"] != "over_limit" for c in data["citations"])
    assert any("only the first" in d["message"] for d in data["diagnostics"])


def test_annotate_lists_citations_up_to_the_limit_and_counts_the_rest(excerpt_kb: KnowledgeBase) -> None:
    from kb.cite.link import link_article
    data = link_article(excerpt_kb, "rule 337.1a and rule 337.4\n\n" * 20 + "rule 312 " * 10,
                        fmt="json", limit=25)
    assert len(data["citations"]) == 25
    assert data["summary"]["over_limit"] == 25 and data["summary"]["total"] == 50


def test_front_matter_up_to_its_limit_is_read(excerpt_kb: KnowledgeBase) -> None:
    filler = "# " + "x" * (limits.CITE_FRONT_MATTER.value - 100) + "\n"
    data = excerpt_kb.citations_annotate(f"---\nruleset: riftbound\n{filler}---\nrule 337.1a\n", fmt="json")
    assert data["front_matter"] == {"ruleset": "riftbound"}


def test_the_request_budgets_come_from_the_one_table() -> None:
    from kb.cite import link, mdit
    from kb.search import query, searcher
    assert link.MAX_INPUT_BYTES == limits.LIMITS["cite.input"].value
    assert mdit.MAX_CITATIONS == limits.LIMITS["cite.citations"].value
    assert query.MAX_QUERY_CHARS == limits.LIMITS["search.query"].value == 500
    assert query.MAX_ATOMS == limits.LIMITS["search.atoms"].value == 32
    assert searcher.MAX_LIMIT == limits.LIMITS["search.limit"].value == 100
    assert searcher.MAX_OFFSET == limits.LIMITS["search.offset"].value == 5000
    assert create_app(kb=KnowledgeBase.from_graphs([])).config["MAX_CONTENT_LENGTH"] == \
        limits.REQUEST_BYTES.value


def test_openapi_names_the_budgets_of_every_body(client: Any) -> None:
    spec = client.get("/api/openapi.json").get_json()
    ops = {path: ops["post"] for path, ops in spec["paths"].items() if "requestBody" in ops.get("post", {})}
    assert {LOOKUP, ANNOTATE, NEXT, RUN} <= set(ops)
    for path, op in ops.items():
        names = {row["name"] for row in op["x-rulekb-limits"]}
        assert {"request.bytes", "input.nesting"} <= names, path
    assert {"cite.input", "cite.front_matter", "cite.lines", "cite.markup"} <= \
        {row["name"] for row in ops[ANNOTATE]["x-rulekb-limits"]}
    assert "cite.citations" in {row["name"] for row in spec["info"]["x-rulekb-limits"]}


# -- every error path encodes ------------------------------------------------------------------
def test_the_error_handler_encodes_whatever_the_message_holds(app: Flask) -> None:
    from web.api import error_response
    with app.test_request_context("/api/v1/timing/run", method="POST"):
        resp = error_response(QueryError(422, "step 3: no player 'No\ud800'", {"player": "No\ud800"}))
    body = json.loads(resp.get_data().decode("utf-8"))
    assert resp.status_code == 422 and body["error"]["message"].startswith("step 3: no player")


def test_the_site_error_page_encodes_whatever_the_message_holds(app: Flask) -> None:
    from web.site.errors import error_page
    with app.test_request_context("/riftbound/1.4/x"):
        resp = error_page(400, "no rule 'x\ud800'")
        html = resp.get_data().decode("utf-8")
    assert resp.status_code == 400 and "No rule" in html


# -- links never follow the Host header ------------------------------------------------------
def test_links_are_relative_without_a_public_url(client: Any) -> None:
    resp = client.post(LOOKUP, json={"text": "rule 337.1a"}, headers={"Host": "evil.example"})
    assert resp.get_json()["citations"][0]["url"] == "/riftbound/1.4/337.1.a"
    resp = client.post(ANNOTATE, json={"markdown": "rule 337.1a"}, headers={"Host": "evil.example"})
    assert "evil.example" not in resp.get_data(as_text=True)
    page = client.get("/api", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert "evil.example" not in page


def test_links_start_with_the_configured_public_url(excerpt_kb: KnowledgeBase,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEKB_PUBLIC_URL", "https://rules.example.org/")
    client = create_app(kb=excerpt_kb).test_client()
    resp = client.post(LOOKUP, json={"text": "rule 337.1a"}, headers={"Host": "evil.example"})
    assert resp.get_json()["citations"][0]["url"] == "https://rules.example.org/riftbound/1.4/337.1.a"
    assert "https://rules.example.org/api/" in client.get("/api").get_data(as_text=True)
    client = create_app(kb=excerpt_kb, config={"RULEKB_PUBLIC_URL": "http://127.0.0.1:9"}).test_client()
    assert client.post(LOOKUP, json={"text": "rule 337.1a"}).get_json()["citations"][0]["url"] \
        .startswith("http://127.0.0.1:9/")


@pytest.mark.parametrize("bad", ["javascript:alert(1)", "rules.example.org", "//rules.example.org", "ftp://x"])
def test_a_bad_public_url_is_refused_at_start(excerpt_kb: KnowledgeBase, bad: str) -> None:
    with pytest.raises(QueryError, match="RULEKB_PUBLIC_URL"):
        create_app(kb=excerpt_kb, config={"RULEKB_PUBLIC_URL": bad})


# -- hardening headers on every answer ----------------------------------------------------------
@pytest.mark.parametrize(("method", "url"), [
    ("GET", "/api"), ("GET", "/api/v1/rulesets"), ("GET", "/api/openapi.json"),
    ("GET", "/api/v1/nonesuch"), ("POST", LOOKUP), ("GET", "/"), ("GET", "/riftbound/1.4/999.9"),
    ("GET", "/sw.js"), ("GET", "/static/api.css"),
])
def test_every_answer_carries_the_hardening_headers(client: Any, method: str, url: str) -> None:
    resp = client.open(url, method=method, data=b"{" if method == "POST" else None,
                       content_type="application/json" if method == "POST" else None)
    assert resp.headers["X-Content-Type-Options"] == "nosniff", url
    assert resp.headers["Referrer-Policy"] == "same-origin"
    csp = resp.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp


def test_an_after_request_registered_later_sees_the_headers(excerpt_kb: KnowledgeBase) -> None:
    app = create_app(kb=excerpt_kb)
    seen: list[str | None] = []

    def later(response: Any) -> Any:
        seen.append(response.headers.get("Content-Security-Policy"))
        response.headers.pop("Content-Security-Policy", None)
        return response
    app.after_request(later)
    client = app.test_client()
    for url in ("/", "/api/v1/rulesets", "/api"):
        assert "Content-Security-Policy" not in client.get(url).headers
    assert len(seen) == 3 and all(seen)


def test_the_api_page_has_no_inline_style(client: Any) -> None:
    html = client.get("/api").get_data(as_text=True)
    assert "<style" not in html and "style=" not in html
    assert client.get("/static/api.css").status_code == 200


# -- the per-build cache keeps nothing for a miss ----------------------------------------------
@derived
def _scenario(kb: LoadedEditions, name: str) -> Any:
    """A derived value kept only for the names that exist (here: only "kept")."""
    if name != "kept":
        raise KeyError(f"no such scenario {name!r}")
    return 1


def test_a_failed_make_leaves_no_lock_and_no_entry() -> None:
    kb = KnowledgeBase.from_graphs([])
    _scenario(kb, "kept")
    cache, locks = kb.derived.keys(), kb.derived.pending()
    for i in range(1000):
        with pytest.raises(KeyError):
            _scenario(kb, f"unknown-{i}")
    assert kb.derived.keys() == cache and kb.derived.pending() == locks
    assert _scenario(kb, "kept") == 1
