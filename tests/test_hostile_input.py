"""Hostile and broken input, everywhere it comes in: each answered with a clear error, in
bounded time, never an uncaught exception, a traceback or a 5xx.

- the citation finder (``kb.cite.find_citations``) on text built from its own grammar, on
  any text, and on long adversarial runs;
- the search query parser (``kb.search.parse_query``) and a whole search (``kb.search`` via
  the facade) on queries built from the query language and on any text;
- ``timing next`` on random and adversarial states: real states (every frame of every
  worked scenario, in the JSON shape the engine documents) with fields replaced by any JSON,
  dropped, grown, nested deep, or given hostile player names;
- the API on the production server (waitress): oversized bodies 413, malformed JSON 400,
  not JSON 415, the wrong shape 422, any JSON at all never a 5xx, always the one error shape;
- ``rulekb import``: symbolic links, directories, devices, FIFOs, sockets, oversized files,
  names that climb out of the data directory, a tampered ``edition.toml``.

Hypothesis runs derandomized with bounded examples; ``deadline`` bounds the time of each
example (generously: it proves "bounded", not "fast", on a shared 2-core machine).
"""

from __future__ import annotations

import copy
import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kb.cite import find_citations
from kb.cli import main
from kb.model import DocumentError
from kb.query import KnowledgeBase, QueryError
from kb.search import SearchError, parse_query
from kb.store import build, import_document, read_document_file
from kb.timing import list_scenarios, load_scenario
from tests.conftest import REPO

EXCERPT = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"


def hostile(max_examples: int, deadline_ms: int) -> settings:
    return settings(max_examples=max_examples, deadline=deadline_ms, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                           HealthCheck.data_too_large])


def soup(pieces: list[str], max_size: int = 60) -> st.SearchStrategy[str]:
    """Text made of a grammar's own pieces, in any order, with any separators."""
    sep = st.sampled_from(["", " ", " ", "\n", "\t", "\u00a0", ", "])
    return st.lists(st.tuples(st.sampled_from(pieces) | st.text(max_size=3), sep),
                    max_size=max_size).map(lambda xs: "".join(a + b for a, b in xs))


# -- the citation finder ---------------------------------------------------------------------
CITE_PIECES = ["rule", "Rule", "rules", "Rules", "CR", "[CR", "]", "[", "(", ")", "See", "see",
               "337", "337.1", "337.1a", "337.1.a", "337.1.a.", "116.3d", "601.2a", "0", "9999",
               "12345678901234567890", "1.", ".", "–", "—", "-", "a", "f", "z", "and", "or",
               "through", ",", ";", ":", '"', "“", "”", "says", "reads", "Core", "Tournament",
               "Riftbound Core Rules", "section", "10:30", "12/05", "§", "\u200b", "<script>", "&amp;"]
LONG_RUNS = ["rule " * 4000, "rules 1" + ", 1" * 4000, "rules 1" + "–1" * 4000,
             "[CR " * 4000 + "1]" * 4000, "1." * 10_000, "rule 1." + "1." * 8000 + "a",
             '"' + "x" * 20_000 + ' (rule 312)', "“" * 4000 + "rule 312" + "”" * 4000,
             "rule 337.1a says: " + '"' * 8000, ("rules 601.2a–f and " * 1500),
             "rule" + "\u00a0" * 20_000 + "337", "See rule 337.1.a.\n" * 3000]


def check_citations(text: str) -> None:
    found = find_citations(text)
    last = -1
    for c in found:
        assert 0 <= c.full_start <= c.start < c.end <= c.full_end <= len(text), c
        assert text[c.start:c.end] == c.text
        assert c.start >= last, "citations come in document order"
        assert c.numbers and all(all(seg for seg in n) for n in c.numbers)
        last = c.start
        if c.quote is not None:
            assert 0 <= c.quote.start < c.quote.end <= len(text)


@hostile(300, 3000)
@given(soup(CITE_PIECES))
def test_citation_finder_on_its_own_grammar(text: str) -> None:
    check_citations(text)


@hostile(150, 3000)
@given(st.text(max_size=2000))
@example("")
@example("\ud800".encode("utf-8", "surrogatepass").decode("utf-8", "replace"))
def test_citation_finder_on_any_text(text: str) -> None:
    check_citations(text)


@pytest.mark.parametrize("text", LONG_RUNS, ids=lambda t: repr(t[:24]))
@hostile(1, 5000)
@given(st.just(None))
def test_citation_finder_on_long_adversarial_runs(text: str, _: None) -> None:
    check_citations(text)


# -- the search query parser and a whole search ------------------------------------------------
QUERY_PIECES = ["priority", "chain", "focus", "item", '"', '"focus passes"', "“", "”", "„", "«", "»",
                "AND", "OR", "NOT", "and", "-", "+", "*", "pri*", "p*", "in:", "in:337", "section:",
                "within:340", "ruleset:", "ruleset:mtg", "ruleset:Nope", "edition:", "edition:1.4",
                "edition:../x", "337.1a", "rule 337.1.a.", "CR 116.3d", "§", "337", "9999.9999",
                "(", ")", "[", "]", "{", ":", "\\", "/", "%", "?", "…", "–", "\x00", "\x1f", "\u202e",
                "ǅ", "ß", "ﬁ", "Ⅻ", "🂡", "<script>alert(1)</script>", "' OR 1=1 --"]


def check_parse(q: str) -> None:
    try:
        parsed = parse_query(q)
    except SearchError as exc:
        assert exc.message and exc.status in (400, 404)
        position = exc.detail.get("position")
        assert position is None or 0 <= position <= len(q)
        return
    for atom in parsed.atoms:
        assert 0 <= atom.start <= atom.end <= len(q)


@hostile(400, 2000)
@given(soup(QUERY_PIECES, max_size=40))
def test_query_parser_on_its_own_language(q: str) -> None:
    check_parse(q)


@hostile(200, 2000)
@given(st.text(max_size=700))
@example("x" * 100_000)
@example('"' * 499)
@example("a OR " * 99 + "b")
@example("NOT " * 120)
@example("-" * 500)
def test_query_parser_on_any_text(q: str) -> None:
    check_parse(q)


@hostile(120, 5000)
@given(soup(QUERY_PIECES, max_size=25))
@example("controller of the next item gains priority")
@example("*")
@example("in:337 in:338 in:339 in:999")
def test_search_answers_or_refuses(excerpt_kb: KnowledgeBase, q: str) -> None:
    try:
        out = excerpt_kb.search(q, limit=5)
    except QueryError as exc:
        assert exc.status in (400, 404) and exc.message
        json.dumps(exc.as_dict())
    else:
        json.dumps(out)
        assert out["total"] >= len(out["results"])


# -- timing next --------------------------------------------------------------------------
SEEDS: list[dict[str, Any]] = []  # filled once by the fixture (kept out of example reprs)


@pytest.fixture(scope="module")
def seed_states(excerpt_kb: KnowledgeBase) -> list[dict[str, Any]]:
    """Every frame's state of every worked scenario (the JSON shape the engine documents)."""
    if not SEEDS:
        for sc in list_scenarios():
            out = excerpt_kb.timing_run(load_scenario(sc["name"]))
            SEEDS.extend(f["state"] for f in out["frames"] if f.get("state"))
            if out.get("state"):
                SEEDS.append(out["state"])
    assert len(SEEDS) > 20
    return SEEDS


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12)
_NAMES = st.sampled_from(["", " ", "\x00", "A" * 5000, "Ann", "ann", "Bo ", "<img src=x onerror=alert(1)>",
                          "{0}", "{players}", "%s", "\u202eoB", "🂡", "None", "null"])
STATE_FIELDS = ["ruleset", "turn_state", "priority", "focus", "chain", "players", "turn_player", "phase",
                "passes", "showdown", "combat", "opened_by", "tasks", "board", "battlefields", "hands",
                "facedown", "finalized_this_turn", "played_this_turn", "drawn", "trash", "scored",
                "next_id", "cards", "unknown_field"]


@st.composite
def hostile_states(draw: st.DrawFn) -> Any:
    """A real state with one to four hostile changes (the seeds must be loaded)."""
    state = copy.deepcopy(SEEDS[draw(st.integers(0, len(SEEDS) - 1))])
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["set", "drop", "grow", "name", "nest", "item"]))
        key = draw(st.sampled_from(STATE_FIELDS))
        if op == "set":
            state[key] = draw(_JSON)
        elif op == "drop":
            state.pop(key, None)
        elif op == "grow":
            value = state.get(key)
            n = draw(st.sampled_from([2, 30, 300]))
            state[key] = (value * n if isinstance(value, list) and value else
                          [draw(_JSON)] * n if not isinstance(value, dict) else
                          {**value, **{f"k{i}": v for i, v in enumerate([draw(_JSON)] * n)}})
        elif op == "name":
            players = state.get("players")
            if isinstance(players, list) and players:
                players[draw(st.integers(0, len(players) - 1))] = draw(_NAMES)
            state[draw(st.sampled_from(["priority", "focus", "turn_player", "opened_by"]))] = draw(_NAMES)
        elif op == "nest":
            deep: Any = draw(_JSON)
            for _ in range(draw(st.sampled_from([10, 200]))):
                deep = [deep] if draw(st.booleans()) else {"name": deep}
            state[key] = deep
        elif op == "item":
            chain = state.get("chain")
            if isinstance(chain, list) and chain and isinstance(chain[0], dict):
                field = draw(st.sampled_from(["id", "status", "controller", "kind", "card", "effects",
                                              "origin", "keywords", "name", "bogus"]))
                chain[draw(st.integers(0, len(chain) - 1))][field] = draw(
                    _JSON | _NAMES | st.sampled_from([0, -1, 10_001, 2**64, 1.5, True]))
    if draw(st.integers(0, 9)) == 0:  # not an object at all
        state = draw(st.sampled_from([[], "state", None, 1, [state]]))
    return state


def check_timing_next(kb: KnowledgeBase, state: Any) -> None:
    try:
        out = kb.timing_next(state)
    except QueryError as exc:
        # 413/422 too: a state over a timing budget of kb/limits.py (a 10,000-item chain)
        assert exc.status in (400, 404, 413, 422) and exc.message
        json.dumps(exc.as_dict())
    else:
        json.dumps(out)
        assert out["decision"] is not None or out["end"] is not None


@hostile(250, 5000)
@given(data=st.data())
def test_timing_next_on_adversarial_states(excerpt_kb: KnowledgeBase, seed_states: list[dict[str, Any]],
                                           data: st.DataObject) -> None:
    check_timing_next(excerpt_kb, data.draw(hostile_states()))


@hostile(150, 5000)
@given(st.dictionaries(st.sampled_from(STATE_FIELDS), _JSON, max_size=8))
def test_timing_next_on_random_states(excerpt_kb: KnowledgeBase, fields: dict[str, Any]) -> None:
    check_timing_next(excerpt_kb, fields)
    check_timing_next(excerpt_kb, {"players": ["Ann", "Bo"], **fields})


@pytest.mark.parametrize("items", [1000, 10_000])
def test_timing_next_on_a_long_chain(excerpt_kb: KnowledgeBase, items: int) -> None:
    """The longest chain a state may hold (ids stop at 10,000): answered or refused."""
    check_timing_next(excerpt_kb, {
        "players": ["Ann", "Bo"], "turn_state": "neutral-closed", "priority": "Ann",
        "chain": [{"name": f"S{i}", "controller": "Ann", "status": "pending"} for i in range(items)]})


# -- the API on the production server -------------------------------------------------------------
@pytest.fixture(scope="module")
def api_port(excerpt_home: Path) -> Iterator[int]:
    from waitress.server import create_server

    from web import create_app
    server = create_server(create_app(excerpt_home), host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, name="hostile-api", daemon=True)
    thread.start()
    try:
        yield server.effective_port
    finally:
        server.close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def post_paths(api_port: int) -> list[str]:
    """Every operation of the served OpenAPI document that takes a body."""
    spec = json.loads(call(api_port, "GET", "/api/openapi.json")[2])
    found = [p for p, ops in spec["paths"].items() if "requestBody" in ops.get("post", {})]
    assert "/api/v1/citations/annotate" in found and "/api/v1/timing/next" in found
    return found


def call(port: int, method: str, path: str, body: Any = None, ctype: str | None = "application/json",
         chunked: bool = False) -> tuple[int, str, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Content-Type": ctype} if ctype else {}
    if chunked:
        headers["Transfer-Encoding"] = "chunked"
    try:
        conn.request(method, path, body=body, headers=headers, encode_chunked=chunked)
        resp = conn.getresponse()
        return resp.status, resp.getheader("Content-Type") or "", resp.read()
    finally:
        conn.close()


def assert_error(answer: tuple[int, str, bytes], status: int) -> dict[str, Any]:
    got, ctype, raw = answer
    assert got == status, raw[:300]
    assert ctype.startswith("application/json")
    err = json.loads(raw)["error"]
    assert set(err) == {"status", "message", "detail"} and err["status"] == status and err["message"]
    assert b"Traceback" not in raw
    return err


LIMIT = 2 * 1024 * 1024


def _big(n: int) -> bytes:
    return b'{"markdown": "' + b"rule 337.1a " * (n // 12) + b'"}'


@pytest.mark.parametrize("case", ["length", "chunked"])
def test_oversized_bodies_are_413(api_port: int, post_paths: list[str], case: str) -> None:
    body = _big(LIMIT + 1000)
    for path in post_paths:
        payload: Any = body if case == "length" else (body[i:i + 65536] for i in range(0, len(body), 65536))
        err = assert_error(call(api_port, "POST", path, payload, chunked=case == "chunked"), 413)
        assert err["detail"]["max_bytes"] == LIMIT


# (body, content type, status)
BAD_BODIES: list[tuple[bytes, str | None, int]] = [
    (b'{"markdown": ', "application/json", 400),
    (b"\xff\xfe\x00", "application/json", 400),
    (b"[" * 50_000, "application/json", 422),  # input.nesting
    (b'{"a": ' + b"[" * 65 + b"]" * 65 + b"}", "application/json", 422),
    (b'{"markdown": "rule 337.1a \\ud800"}', "application/json", 400),  # a lone surrogate
    (b'{"text": "\xed\xa0\x80"}', "application/json", 400),  # one as UTF-8 bytes
    (b'{"a": ' + b"1" * 5000 + b"}", "application/json", 400),  # past int's digit limit
    (b"NaN", "application/json", 422),
    (b"", "application/json", 400),
    (b"{}", "text/plain", 415),
    (b"{}", None, 415),
    (b"markdown=x", "application/x-www-form-urlencoded", 415),
    (b"[]", "application/json", 422),
    (b"null", "application/json", 422),
    (b'"a string"', "application/json", 422),
]


@pytest.mark.parametrize("body,ctype,status", BAD_BODIES, ids=[f"{s}-{b[:12]!r}" for b, _, s in BAD_BODIES])
def test_malformed_bodies(api_port: int, post_paths: list[str], body: bytes, ctype: str | None,
                          status: int) -> None:
    for path in post_paths:
        assert_error(call(api_port, "POST", path, body, ctype), status)


@hostile(60, 10_000)
@given(data=st.data(), body=_JSON)
def test_any_json_body_is_answered_or_refused(api_port: int, post_paths: list[str], data: st.DataObject,
                                              body: Any) -> None:
    path = data.draw(st.sampled_from(post_paths))
    raw = json.dumps(body, allow_nan=True).encode()
    status, ctype, answer = call(api_port, "POST", path, raw)
    assert status in (200, 400, 404, 422), answer[:300]
    if status != 200:
        assert_error((status, ctype, answer), status)


_SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)


@hostile(40, 10_000)
@given(data=st.data(), text=st.text(alphabet=_SURROGATES | st.sampled_from("rule 337.1a\"\\"),
                                    min_size=1, max_size=40))
def test_text_that_cannot_be_encoded_is_refused(api_port: int, post_paths: list[str],
                                                data: st.DataObject, text: str) -> None:
    """Lone surrogates anywhere in a body (a field every operation reads, or any other):
    400 in the one error shape, never a 500 from encoding an answer that echoes them."""
    path = data.draw(st.sampled_from(post_paths))
    body = {"markdown": text, "text": text, "name": text, "ruleset": "riftbound",
            "players": ["Ann", text], "steps": [{"pass": text}], "base_url": text}
    raw = json.dumps(body).encode()  # ensure_ascii: \udXXX escapes
    status, ctype, answer = call(api_port, "POST", path, raw)
    lone = re.search("[\ud800-\udfff]", json.loads(raw)["text"]) is not None
    assert status == 400 if lone else status in (200, 400, 404, 422), answer[:300]
    if status != 200:
        assert_error((status, ctype, answer), status)


@hostile(40, 10_000)
@given(data=st.data())
def test_adversarial_states_over_http(api_port: int, seed_states: list[dict[str, Any]],
                                      data: st.DataObject) -> None:
    state = data.draw(hostile_states())
    status, ctype, answer = call(api_port, "POST", "/api/v1/timing/next",
                                 json.dumps(state, allow_nan=True).encode())
    assert status in (200, 400, 404, 422), answer[:300]
    if status != 200:
        assert_error((status, ctype, answer), status)


# -- rulekb import --------------------------------------------------------------------------------
def _rulekb(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import sys; from kb.cli import main; sys.exit(main())",
                           *args], cwd=REPO, env={**os.environ, "RULEKB_HOME": str(home)},
                          capture_output=True, text=True, timeout=timeout)


def _fifo(d: Path) -> Path:
    os.mkfifo(d / "fifo.md")
    return d / "fifo.md"


def _symlink(d: Path) -> Path:
    (d / "link.md").symlink_to(EXCERPT)
    return d / "link.md"


def _socket(d: Path) -> Path:
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(d / "sock.md"))
    d.joinpath(".keep").write_text("")  # the socket file stays after close
    s.close()
    return d / "sock.md"


def _sparse(d: Path) -> Path:
    with (d / "huge.md").open("wb") as fh:
        fh.truncate(40 * 1024 * 1024)
    return d / "huge.md"


# (name, how to make the path, exit code, what stderr says). The device and the FIFO run in
# a process of their own with a timeout: reading either would never end.
IMPORTS = [
    ("device", lambda d: Path("/dev/zero"), 2, "not a regular file"),
    ("fifo", _fifo, 2, "not a regular file"),
    ("socket", _socket, 2, "not a regular file"),
    ("symlink", _symlink, 2, "is a symbolic link"),
    ("oversized", _sparse, 2, "a rules document is at most"),
    ("directory", lambda d: d, 2, "is a directory"),
    ("missing", lambda d: d / "nope.md", 2, "does not exist"),
]


@pytest.mark.parametrize("name,make,code,says", IMPORTS, ids=[i[0] for i in IMPORTS])
def test_import_refuses_what_is_not_a_document(tmp_path: Path, name: str, make: Any, code: int,
                                               says: str) -> None:
    src = tmp_path / "src"
    src.mkdir()
    home = tmp_path / "home"
    args = ["import", "-r", "riftbound", "-e", "9.9", str(make(src))]
    if name in ("device", "fifo"):
        proc = _rulekb(home, *args, timeout=30)
        exit_code, stderr = proc.returncode, proc.stderr
    else:
        res = CliRunner().invoke(main, ["--home", str(home), *args])
        exit_code, stderr = res.exit_code, res.stderr
        assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert exit_code == code, stderr
    assert says in stderr and "Traceback" not in stderr
    assert not (home / "imports").exists() or not any((home / "imports").rglob("*.md"))


@pytest.mark.parametrize("make,says", [
    (lambda d: d, "is a directory"),
    (_symlink, "is a symbolic link"),
    (_fifo, "not a regular file"),
    (lambda d: d / "nope.md", "cannot read the file"),
])
def test_import_document_refuses_before_reading(tmp_path: Path, make: Any, says: str) -> None:
    with pytest.raises(DocumentError) as err:
        import_document(tmp_path / "home", make(tmp_path), ruleset="riftbound", edition="9.9")
    assert says in str(err.value.diagnostics[0])


def test_a_document_over_the_limit_is_refused(tmp_path: Path) -> None:
    doc = tmp_path / "doc.md"
    doc.write_bytes(EXCERPT.read_bytes())
    assert read_document_file(doc) == EXCERPT.read_bytes()
    with pytest.raises(DocumentError, match="at most 1000 bytes"):
        read_document_file(doc, limit=1000)


@pytest.mark.parametrize("ruleset,edition", [
    ("../evil", "1"), ("riftbound", "../../evil"), ("riftbound", "/tmp/evil"), (".hidden", "1"),
    ("Riftbound", "1"), ("", "1"), ("riftbound", "1\n2"), ("a" * 65, "1"), ("riftbound", "1/2"),
])
def test_import_names_stay_inside_the_data_directory(tmp_path: Path, ruleset: str, edition: str) -> None:
    home = tmp_path / "home"
    with pytest.raises(DocumentError, match="invalid (ruleset|edition) name"):
        import_document(home, EXCERPT, ruleset=ruleset, edition=edition)
    assert not any(tmp_path.rglob("*.md")) and not (tmp_path / "evil").exists()


@pytest.mark.parametrize("file", ["../../../outside.md", "/etc/hostname", ".hidden.md", "edition.toml", ""])
def test_a_tampered_import_cannot_point_outside(tmp_path: Path, file: str) -> None:
    home = tmp_path / "home"
    target = import_document(home, EXCERPT, ruleset="riftbound", edition="9.9")
    meta = target / "edition.toml"
    meta.write_text(meta.read_text(encoding="utf-8").replace(
        f'file = "{EXCERPT.name}"', f"file = {json.dumps(file)}"), encoding="utf-8")
    with pytest.raises(DocumentError, match="not a plain file name"):
        build(home)
    assert not (home / "current").exists()
