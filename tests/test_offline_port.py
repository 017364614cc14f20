"""The offline search is a declared port: its data comes from the Python search, checked here.

``web/static/offline-search-data.js`` is generated from ``kb/search``, ``kb/numbers``,
``kb/limits`` and the search page (``web/search_port.py``); it must be what the Python says
now, as the README's CLI reference must match the commands. Each ported pattern matches in
node what it matches in Python; ``offline-search.js`` reads every value of the data and
writes none of them itself; an edition's index carries the stems of its words.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from cogapp import Cog

from kb.export.jsrun import node_path
from kb.export.search_index import read_index_script
from kb.query import KnowledgeBase
from kb.search.schema import WORD, stem
from kb.search.query import MESSAGES, QuerySyntaxError, parse_query
from web.search_port import js_pattern, js_template, offline_search_data

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "web" / "static" / "offline-search-data.js"
PORT = ROOT / "web" / "static" / "offline-search.js"
# .ci/run sets it: there, a missing node fails instead of skipping the parity tests.
NODE_REQUIRED = os.environ.get("RULEKB_REQUIRE_NODE", "") not in ("", "0")
requires_node = pytest.mark.skipif(node_path() is None and not NODE_REQUIRED,
                                   reason="needs node to run the offline search script")


def test_the_data_module_is_what_the_python_says() -> None:
    cog = Cog()
    cog.options.verbosity = 0
    text = DATA.read_text(encoding="utf-8")
    assert cog.process_string(text, fname=str(DATA)) == text, (
        "web/static/offline-search-data.js is stale: run `.venv/bin/cog -r web/static/offline-search-data.js`")


def test_every_value_of_the_data_is_read_by_the_port() -> None:
    source = PORT.read_text(encoding="utf-8")
    unread = [f"{section}.{key}" for section, values in offline_search_data().items() for key in values
              if f".{key}" not in source]
    assert unread == []


@pytest.mark.parametrize("written", [
    '"a an and are as at be',          # the stop words
    "such than that the their",
    '"zero one two three',             # the spelled-out numbers
    "what whats how does do did",      # the question words
    "when where which whose",          # the leading words
    "MAX_QUERY_CHARS = 500",
    "EXCERPT_CHARS = 240",
    "PAGE_SIZE = 20",
    '"in": "section"',                 # the filter keys
    "(?:comprehensive",                # the rule-number prefix
    "the query is empty",              # the messages
    "needs a word on each side",
    "to search in (",
    "limit must be between",
])
def test_the_port_writes_no_data_of_its_own(written: str) -> None:
    assert written not in PORT.read_text(encoding="utf-8")


@pytest.mark.parametrize("pattern,source,flags", [
    (r"\w+(?:\.\w+)*", r"[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+)*", "u"),
    (r"[\w-]+", r"[\p{L}\p{N}_-]+", "u"),
    (r"^\d{1,3}\.?\s*$", r"^\p{Nd}{1,3}\.?\s*$", "u"),
    (r"(?<=\d)[a-z]{1,2}", r"(?<=\p{Nd})[a-z]{1,2}", "u"),
])
def test_a_pattern_is_written_for_javascript(pattern: str, source: str, flags: str) -> None:
    assert js_pattern(re.compile(pattern)) == {"source": source, "flags": flags}


def test_ignorecase_is_the_i_flag() -> None:
    assert js_pattern(re.compile("cr", re.IGNORECASE))["flags"] == "ui"


@pytest.mark.parametrize("pattern,flags,source,js_flags", [
    (r"(?P<n>\d)", 0, r"(?<n>\p{Nd})", "u"),                                 # a named group keeps its name
    (r"\bx", 0, r"(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))x", "u"),
    (r"(\d+)|([\s.,]+)|(.)", re.ASCII | re.DOTALL, r"([0-9]+)|([ \t\n\r\f\v.,]+)|(.)", "s"),  # ASCII's classes, no u
    (r"[\u2013\"]\(", 0, r"[\u2013\"]\(".replace('\\"', '"'), "u"),
])
def test_the_constructs_the_number_reading_needs_are_written_for_javascript(pattern: str, flags: int, source: str,
                                                                          js_flags: str) -> None:
    assert js_pattern(re.compile(pattern, flags)) == {"source": source, "flags": js_flags}


@pytest.mark.parametrize("pattern,flags", [
    (r"\Aword\Z", 0),         # an escape the port has no spelling for
    (r"[\b]", 0),             # \b in a class (a backspace): no spelling there
    (r"(?P<n>\d)(?P=n)", 0),  # a named backreference
    (r"^a$", re.MULTILINE),   # a flag other than IGNORECASE, DOTALL and ASCII
])
def test_a_construct_the_port_does_not_translate_is_refused(pattern: str, flags: int) -> None:
    with pytest.raises(ValueError):
        js_pattern(re.compile(pattern, flags))


# Each ported pattern (data path → the Python pattern) and texts to match it against.
SAMPLES = ["337.1.a", "rule 337.1a", "CR 116.3d", "§ 704", "Comprehensive Rules 100.1", "r. 601.2",
           "naïve café", "Ünïcödé_x 2", "state-based", "player's", "٣٣٧.١", "ſtack", "x²", "  12a.  ",
           "116.3dd", "1000.1", "in:337", "", "…",
           # rule numbers as judges type them (kb.query.numbers_asked, kb.numbers.loose_segments)
           "337-340", "rules 337–340", "Rule 337 - 340", "337.1a and 337.4", "337.1a; 337.4", "601.2a–f",
           "337.1(a)", "337.1 a", "9999.9", "3371a", "337..1a", "337,1a", "337 1 a", "337 -338",
           "See rules 702.109, “Dash,” and 702.152", "see 601.2b and 601.2f–h", "See 718, “Prototype.”",
           "¹Rule 312.", "CR 116.3d", "and , ; &", "section 8", "337.1ſ", "3371K"]


def _python_matches(pattern: re.Pattern[str], text: str) -> list[str]:
    return [m.group(0) for m in pattern.finditer(text)]


@requires_node
def test_each_ported_pattern_matches_in_node_what_it_matches_in_python() -> None:
    from kb import numbers
    from kb.search import query
    from kb import query as kb_query
    from kb import references
    patterns = {("schema", "word"): WORD, ("numbers", "prefix"): numbers._PREFIX,
                ("numbers", "body"): numbers._BODY, ("numbers", "segment"): numbers._SEGMENT,
                ("query", "number_like"): query._NUMBER_LIKE,
                ("numbers", "paren_segment"): numbers._PAREN_SEGMENT, ("numbers", "spaced_letter"): numbers._SPACED_LETTER,
                ("numbers", "long_head"): numbers._LONG_HEAD, ("numbers", "loose_token"): numbers._LOOSE_TOKEN,
                ("references", "mention"): references._MENTION, ("references", "bare"): references._BARE,
                ("references", "item"): references._ITEM, ("references", "quoted"): references._QUOTED,
                ("numbers_asked", "numbers_only"): kb_query._NUMBERS_ONLY,
                ("numbers_asked", "excluding"): kb_query._EXCLUDING,
                ("numbers_asked", "spaced_dash"): kb_query._SPACED_DASH,
                ("numbers_asked", "citing"): kb_query._CITING, ("numbers_asked", "between"): kb_query._BETWEEN}
    node = node_path() or "node"
    code = ('const d = require(process.argv[1]); const job = JSON.parse(require("fs").readFileSync(0, "utf8"));'
            'process.stdout.write(JSON.stringify(job.map(([s, k, t]) => '
            'Array.from(t.matchAll(new RegExp(d[s][k].source, d[s][k].flags + "g")), m => m[0]))));')
    jobs = [(s, k, t) for (s, k) in patterns for t in SAMPLES]
    out = subprocess.run([node, "-e", code, str(DATA)], input=json.dumps(jobs), capture_output=True,
                         text=True, timeout=60, check=True).stdout
    mismatches = [(s, k, t, py, js) for (s, k, t), js in zip(jobs, json.loads(out))
                  if (py := _python_matches(patterns[(s, k)], t)) != js]
    assert mismatches == []


@pytest.mark.parametrize("template", [
    "at most {limit:d}",     # a format spec
    "got {value!s}",         # a conversion other than repr
    "position {0}",          # a positional field
])
def test_a_message_the_port_cannot_fill_is_refused(template: str) -> None:
    with pytest.raises(ValueError):
        js_template(template)


# One query per message the query reader can give (and a few more), read in both.
MALFORMED = [
    "x " * 40, "x " * 40 + "-focus", "a" * 501, "focus\x07passes", '"focus passes', 'focus" passes', '""', "in:", "in:focus",
    "in:337 in:338 ruleset:mtg ruleset:riftbound focus", "edition:1.3 edition:1.4 focus", "foc*us*",
    "f*", "focus NOT", "AND focus", "focus OR", "-focus OR passes", "focus AND", "the of", "in:337",
    "NOT focus", "", "   ", "player's turn", "it's \"the\" one's", "OR", "focus OR OR passes",
    "focus \u201d passes", "a\ud800b",
    "\U0001f525\U0001f525\U0001f525", "((((", "\u2764\ufe0f !! \u2192", "\u00a9", "\U0001f525" * 50, " \u0301 ",
]
# Not said by reading a query: one that is not a string (no text can say it), and what a
# search is told (tests/test_export.py compares those: in:999, a section "abc").
UNREACHABLE = {"not_text", "limit_out_of_range", "offset_out_of_range", "section_needs_number", "no_section"}


def _as_pattern(template: str) -> str:
    """A message template as a regular expression its messages match (fields: anything)."""
    return ".*".join(re.escape(piece) for piece in re.split(r"\{\w+(?:!r)?\}", template))


@requires_node
def test_a_query_that_cannot_be_read_is_told_the_same_in_node() -> None:
    def python(q: str) -> object:
        try:
            parse_query(q)
            return None
        except QuerySyntaxError as exc:
            return [exc.message, exc.position]
    node = node_path() or "node"
    code = ('const api = require(process.argv[1]); const qs = JSON.parse(require("fs").readFileSync(0, "utf8"));'
            'process.stdout.write(JSON.stringify(qs.map(q => { try { api.parseQuery(q); return null; }'
            ' catch (e) { return [e.message, e.detail.position]; } })));')
    out = subprocess.run([node, "-e", code, str(PORT)], input=json.dumps(MALFORMED), capture_output=True,
                         text=True, timeout=60, check=True).stdout
    told = json.loads(out)
    assert [(q, python(q), js) for q, js in zip(MALFORMED, told) if python(q) != js] == []
    said = [str(m[0]) for m in map(python, MALFORMED) if isinstance(m, list)]
    unused = [name for name, text in MESSAGES.items() if name not in UNREACHABLE
              and not any(re.fullmatch(_as_pattern(text), message) for message in said)]
    assert unused == [], "add a malformed query for each message"


def test_ci_runs_the_parity_tests() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "nodejs" in script and "RULEKB_REQUIRE_NODE=1" in script
    if NODE_REQUIRED:
        assert node_path() is not None, "RULEKB_REQUIRE_NODE is set but there is no node"


# -- the stems an edition's index carries ------------------------------------------------------
@pytest.fixture(scope="module")
def riftbound_index(excerpt_kb: KnowledgeBase) -> dict[str, Any]:
    from web.pack import search_index_script
    return read_index_script(search_index_script(excerpt_kb, "riftbound", "1.4", lambda n: n))


def test_the_index_carries_the_stem_of_every_word_it_shows(riftbound_index: dict[str, Any]) -> None:
    stem_of = riftbound_index["stem_of"]
    texts = [p for parts in riftbound_index["texts"] for p in parts if p] + riftbound_index["labels"]
    missing = sorted({w.lower() for t in texts for w in WORD.findall(t)} - set(stem_of))
    assert missing == []
    assert [w for w in riftbound_index["words"] if w not in stem_of] == []


def test_the_stems_it_carries_are_the_server_analysers(riftbound_index: dict[str, Any]) -> None:
    assert {w: s for w, s in riftbound_index["stem_of"].items() if s != stem(w)} == {}
