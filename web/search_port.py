"""The offline search's data, generated from the Python search it ports.

``web/static/offline-search.js`` answers a search in the browser as the server does
(:mod:`kb.search`); what it needs that is data rather than an algorithm (the word pattern,
the stop words, the query language's operators, quotes, filter keys and question words,
the messages of a query or a search that cannot be answered, the rule-number patterns (and
those that read a query of numbers only, as :func:`kb.query.numbers_asked` reads it with the
citation finder's grammar of :mod:`kb.references`), the limits, the spelled-out numbers, the kinds of rules, the search page's paging) is written
from the Python modules that define it into ``web/static/offline-search-data.js``, which
the page loads first and node requires. The script is regenerated with
``.venv/bin/cog -r web/static/offline-search-data.js``, and ``tests/test_offline_port.py``
fails when the committed file differs from what the Python says, as the README's CLI
reference is checked, so a change to the Python search cannot silently fork the offline
pack. The stems an edition's words take ship in that edition's index (``stem_of`` in
:mod:`kb.export.search_index`).
"""

from __future__ import annotations

import json
import re
from string import Formatter
from typing import Any

from kb import limits
from kb import numbers as rule_numbers
from kb import query as kb_query
from kb import references
from kb.records import search as records_search
from kb.export.search_index import KINDS
from kb.search import excerpt, query, schema, scoring, searcher, spelling, understand
from web.site import pages

GLOBAL = "rulekbOfflineSearchData"  # the name a page finds the data under
# Bounds the Python writes inline rather than by name: kb.query.numbers_asked reads a query of
# at most 200 characters as numbers, kb.numbers.expand_range a range of at most 60 steps.
# tests/test_offline_numbers.py checks both against the Python's behaviour.
NUMBERS_ASKED_CHARS = 200
RANGE_MOST = 60

# Python's \w and \d are Unicode classes in a str pattern; JavaScript's need the u flag and
# their Unicode spelling. Any other escape a ported pattern uses must be added here first.
# Each escape: its spelling outside a character class, and inside one (None: not ported there).
_ESCAPES = {r"\w": (r"[\p{L}\p{N}_]", r"\p{L}\p{N}_"), r"\d": (r"\p{Nd}", r"\p{Nd}"),
            r"\s": (r"\s", r"\s"), r"\S": (r"\S", None), r"\.": (r"\.", r"\."), r"\-": (r"\-", r"\-"),
            r"\(": (r"\(", r"\("), r"\)": (r"\)", r"\)"), r"\n": (r"\n", r"\n"), '\\"': ('"', '"'),
            # Python's \b of a str pattern is a Unicode word's edge; JavaScript's, ASCII's.
            r"\b": (r"(?:(?<![\p{L}\p{N}_])(?=[\p{L}\p{N}_])|(?<=[\p{L}\p{N}_])(?![\p{L}\p{N}_]))", None)}
# Under re.ASCII the classes are ASCII's.
_ASCII_ESCAPES = {**_ESCAPES, r"\w": (r"[A-Za-z0-9_]", r"A-Za-z0-9_"), r"\d": (r"[0-9]", r"0-9"),
                  r"\s": (r"[ \t\n\r\f\v]", r" \t\n\r\f\v")}
_HEX4 = re.compile(r"\\u[0-9a-fA-F]{4}")


def js_pattern(pattern: re.Pattern[str]) -> dict[str, str]:
    """A Python regular expression as a JavaScript one (``source`` and ``flags``: ``u``
    but under ASCII, whose classes and case folding are ASCII's; ``i`` for IGNORECASE, ``s``
    for DOTALL).
    Named groups keep their names (``(?P<n>...)`` is ``(?<n>...)``). ValueError for a
    construct this port does not translate."""
    escapes = _ASCII_ESCAPES if pattern.flags & re.ASCII else _ESCAPES
    out, in_class, i, src = [], False, 0, pattern.pattern
    while i < len(src):
        ch = src[i]
        if ch == "\\":
            if _HEX4.match(src, i):  # \u2013: the same in a u-flagged JavaScript pattern
                out.append(src[i:i + 6])
                i += 6
                continue
            escape = src[i:i + 2]
            spelling = escapes.get(escape, (None, None))[in_class]
            if spelling is None:
                raise ValueError(f"{src!r}: no JavaScript spelling for {escape!r} at {i}")
            out.append(spelling)
            i += 2
            continue
        if ch == "[" and not in_class:
            in_class = True
        elif ch == "]" and in_class:
            in_class = False
        elif ch == "(" and not in_class and src.startswith("(?P<", i):
            out.append("(?<")
            i += 4
            continue
        elif ch == "(" and not in_class and src.startswith("(?P", i):
            raise ValueError(f"{src!r}: only named groups are ported, not (?P=...) (at {i})")
        out.append(ch)
        i += 1
    # Under ASCII, no u: JavaScript's u-flagged i folds ſ to s and K to k, which re.ASCII does not.
    flags = ("" if pattern.flags & re.ASCII else "u") + ("i" if pattern.flags & re.IGNORECASE else "") \
        + ("s" if pattern.flags & re.DOTALL else "")
    if pattern.flags & (re.MULTILINE | re.VERBOSE):
        raise ValueError(f"{src!r}: only the IGNORECASE, DOTALL and ASCII flags are ported")
    return {"source": "".join(out), "flags": flags}


def js_template(template: str) -> str:
    """A message template as the port fills it: only ``{name}`` and ``{name!r}`` fields
    (ValueError for a format spec, another conversion or a positional field)."""
    for _, field, spec, conversion in Formatter().parse(template):
        if field is not None and (not field.isidentifier() or spec or conversion not in (None, "r")):
            raise ValueError(f"{template!r}: the port fills only {{name}} and {{name!r}} (got {{{field}}})")
    return template


def offline_search_data() -> dict[str, Any]:
    """Everything ``offline-search.js`` reads instead of writing it down, from the modules
    that define it (each key names its source)."""
    return {
        "schema": {  # kb.search.schema
            "word": js_pattern(schema.WORD),
            "stop_words": sorted(schema.STOP_WORDS),
        },
        "numbers": {  # kb.numbers
            "prefix": js_pattern(rule_numbers._PREFIX),
            "body": js_pattern(rule_numbers._BODY),
            "segment": js_pattern(rule_numbers._SEGMENT),
            "paren_segment": js_pattern(rule_numbers._PAREN_SEGMENT),
            "spaced_letter": js_pattern(rule_numbers._SPACED_LETTER),
            "long_head": js_pattern(rule_numbers._LONG_HEAD),
            "loose_token": js_pattern(rule_numbers._LOOSE_TOKEN),
            "redot_max_characters": rule_numbers.REDOT_MAX_CHARACTERS,
            "range_most": RANGE_MOST,
        },
        "references": {  # kb.references: the citation finder's grammar, as a list of numbers reads
            "mention": js_pattern(references._MENTION),
            "bare": js_pattern(references._BARE),
            "item": js_pattern(references._ITEM),
            "quoted": js_pattern(references._QUOTED),
        },
        "numbers_asked": {  # kb.query.numbers_asked: a query of rule numbers only
            "max_chars": NUMBERS_ASKED_CHARS,
            "numbers_only": js_pattern(kb_query._NUMBERS_ONLY),
            "excluding": js_pattern(kb_query._EXCLUDING),
            "spaced_dash": js_pattern(kb_query._SPACED_DASH),
            "citing": js_pattern(kb_query._CITING),
            "between": js_pattern(kb_query._BETWEEN),
            "range_asked": js_pattern(kb_query._RANGE_ASKED),
        },
        "rulings": {  # kb.records.search: the ruling index's words (the offline evidence)
            "word": js_pattern(records_search._WORD),
            "stop_words": sorted(records_search._stop_words()),
            "limit": limits.SEARCH_LIMIT.value,
        },
        "query": {  # kb.search.query (its limits: kb.limits)
            "max_chars": limits.SEARCH_QUERY_CHARS.value,
            "max_atoms": limits.SEARCH_ATOMS.value,
            "question_words": sorted(query.QUESTION_WORDS),
            "leading_words": sorted(query.LEADING_WORDS),
            "filter_keys": dict(query._FILTER_KEYS),
            "operators": list(query._OPERATORS),
            "unread_fields": sorted(query.UNREAD_FIELDS),
            "unread_syntax": dict(query.UNREAD_SYNTAX),
            "quotes": dict(query._QUOTES),
            "closing": sorted(query._CLOSING),
            "number_like": js_pattern(query._NUMBER_LIKE),
            "rule_words": sorted(query._RULE_WORDS),
            "edge_punct": query._EDGE_PUNCT,
            "filter_examples": dict(query.FILTER_EXAMPLES),
            "messages": {name: js_template(text) for name, text in query.MESSAGES.items()},
            "ignored_kinds": dict(query.IGNORED_KINDS),
            "emoji_ranges": [list(r) for r in query.EMOJI_RANGES],
            "shown_chars": query.SHOWN_CHARS,
        },
        "spelling": {  # kb.search.spelling
            "abbreviation": js_pattern(spelling.ABBREVIATION),
            "split": {"min_letters": spelling.SPLIT_MIN_LETTERS, "part": spelling.SPLIT_PART},
        },
        "understand": {  # kb.search.understand
            "max_term_words": understand.MAX_TERM_WORDS,
            "quote_words": understand.QUOTE_WORDS,
            "name_max_rules": understand.NAME_MAX_RULES,
        },
        "search": {  # kb.search.searcher, kb.search.scoring, kb.search.excerpt, kb.export
            "max_limit": searcher.MAX_LIMIT,
            "max_offset": searcher.MAX_OFFSET,
            "max_prefix_words": scoring.MAX_PREFIX_WORDS,
            "number_words": dict(sorted(searcher.NUMBER_WORDS.items())),
            "excerpt_chars": excerpt.EXCERPT_CHARS,
            "kinds": {short: kind for kind, short in KINDS.items()},
            "reasons": {  # a hit's reasons, as the server's searcher words them
                "timing_model": searcher.TIMING_MODEL_REASON,
                "section": searcher.SECTION_REASON,
                "definition": searcher.DEFINITION_REASON,
                "defining": searcher.DEFINING_REASON,
                "lifted": searcher.LIFTED_REASON,
                "definition_shown": searcher.DEFINITION_SHOWN,
                "definition_words_shown": searcher.DEFINITION_WORDS_SHOWN,
                "summary_joiner": searcher.SUMMARY_JOINER,
            },
        },
        "page": {  # web.site.pages: the search page's paging
            "size": pages.PAGE_SIZE,
            "max_page": pages.MAX_PAGE,
        },
    }


def data_script() -> str:
    """The data module: a script setting ``window.rulekbOfflineSearchData`` in a page and
    ``module.exports`` in node."""
    sections = []
    for name, values in offline_search_data().items():
        rows = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
                           for key, value in values.items())
        sections.append(f" {json.dumps(name)}: {{\n{rows}\n }}")
    body = "{\n" + ",\n".join(sections) + "\n}"
    return ("(function (root, data) {\n"
            '  if (typeof module !== "undefined" && module.exports) module.exports = data;\n'
            f"  else root.{GLOBAL} = data;\n"
            '})(typeof window !== "undefined" ? window : this,\n'
            f"{body});")
