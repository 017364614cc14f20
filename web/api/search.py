"""Search: the query language of :mod:`kb.search.query`, over one edition."""

from __future__ import annotations

from flask import Response, url_for

from web.api.base import EDITION, answer, bp, current_kb
from web.openapi import (NAME_PATTERN, NUMBER_PATTERN, SCHEMAS, STR, Param, array, endpoint,
                         nullable, obj)

Q = Param("q", {"type": "string", "minLength": 1, "maxLength": 500},
          "The query: words, \"phrases\", rule numbers (a number alone jumps to it), "
          "`in:337` (only inside a section), `ruleset:mtg`, `edition:1.4`, `word*`, `-word`, "
          "`+word`, `AND`, `OR`, `NOT`.", required=True, example="finalize chain item")
RULESET_Q = Param("ruleset", {"type": "string", "pattern": NAME_PATTERN},
                  "Ruleset to search (default: riftbound, or the only one).", example="riftbound")
LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
              "Results per page.", example=10)
OFFSET = Param("offset", {"type": "integer", "minimum": 0, "maximum": 5000, "default": 0},
               "Results to skip (paging).", example=0)
SECTION = Param("section", {"type": "string", "maxLength": 64, "pattern": NUMBER_PATTERN},
                "Only rules inside this section or rule (as `in:` in the query).", example="337")

SCHEMAS["Search"] = obj({
    "query": STR, "ruleset": STR, "edition": STR,
    "total": {"type": "integer", "minimum": 0, "description": "Rules matching, all pages."},
    "offset": {"type": "integer", "minimum": 0}, "limit": {"type": "integer", "minimum": 1},
    "did_you_mean": nullable({"type": "string", "description": "The query with misspelt "
                                                               "words corrected, or the nearest number."}),
    "jump": nullable({"type": "string", "description": "The rule a query of one number names."}),
    "term": nullable(obj({"term": STR, "kind": STR, "definition": STR, "defined_by": array(STR)},
                         description="The defined term the words name (its rules come first).")),
    "understood": nullable(obj({
        "names": array(STR), "cards": array(STR), "shape": nullable(STR), "concepts": array(STR),
        "cut": array(STR, description="A question's words and phrases past the 32nd, not searched."),
        "unread": array(STR, description="Other search languages' syntax left out, its words "
                                         "searched (\"^ (a weight)\", \"title: (a field)\").")},
        description="How a question was read: names left out (not words of the rules), the "
                    "cards of the imported card list it names with what they bring in "
                    "(\"Abandoned Hall (card: unit; keywords: Deathknell)\"), its shape "
                    "(\"who acts\"), and the concepts ranked (terms, players' words with the "
                    "rules' words, the shape's words, the cards' type, keywords and text's "
                    "terms), the words past the 32nd left unsearched (cut) and other search "
                    "languages' syntax left out (unread). Null for a query in the query language.")),
    "clamped": nullable(obj({
        "asked": STR, "read": STR, "first": nullable(STR), "last": nullable(STR), "message": STR},
        description="A query that is one range of rule numbers written high to low (9999-1) or "
                    "reaching past the edition's first or last rule at that level (1-9999, "
                    "0-5): the range as written (asked), low to high (read), the first and last "
                    "rule listed (null when the edition has none there) and a sentence saying "
                    "so. Null otherwise.")),
    "no_such_rule": nullable(obj({
        "number": STR, "message": STR, "nearest": array(STR),
        "elsewhere": nullable(obj({"edition": STR, "number": STR, "title": STR, "here": nullable(STR),
                                   "status": STR}))},
        description="A query that is one rule number the edition lacks, in any form the rule "
                    "lookup reads (9999.9, rule 9999, 337.1.z, CR 999.9z, 3371a), as "
                    "/rulesets/{ruleset}/rules/{number} says it: the message, the nearest "
                    "numbers (where the rule another edition numbered so is now, first) and, "
                    "for a number another edition has, where that rule is in this edition. "
                    "Null otherwise.")),
    "other_rulesets": array(obj({
        "ruleset": STR, "edition": STR, "title": STR,
        "total": {"type": "integer", "minimum": 1, "description": "Rules matching there."},
        "url": {"type": "string", "description": "This search in that ruleset."}}),
        description="When the edition searched has no match (or lacks the number asked "
                    "for): each other ruleset whose default edition matches, with how many "
                    "rules and a link to the search there. Empty otherwise."),
    "results": array(obj({
        "number": STR, "title": STR,
        "excerpt": {"type": "string", "description": "HTML: the text around the first match, "
                                                     "matched words in <mark>."},
        "score": {"type": "number"},
        "breadcrumbs": array(obj({"number": STR, "title": STR})),
        "kind": {"enum": ["chapter", "section", "rule"]},
        "match": {"enum": ["number", "term", "words"],
                  "description": "Why it is here: a number typed, a term's defining rule, or words."},
        "matched": array(STR, description="The concepts of the query this rule has, e.g. "
                                          "'Ambush (keyword)', 'respond → reaction', and the "
                                          "earlier ruling that brought it in: 'cited by ruling "
                                          "R-12: 'Can I respond to a unit being played?''."),
    })),
})


@endpoint(bp, "GET", "/v1/search", tag="search", response="Search",
          params=(Q, RULESET_Q, EDITION, LIMIT, OFFSET, SECTION), errors=(404,),
          summary="Search the rules",
          examples=("/api/v1/search?q=finalize+chain+item",
                    "/api/v1/search?q=what+is+a+task&ruleset=riftbound",
                    "/api/v1/search?q=337.1a",
                    "/api/v1/search?q=9999.9",
                    "/api/v1/search?q=priority+in:337&limit=5"))
def search(q: str, ruleset: str | None, edition: str | None, limit: int, offset: int,
           section: str | None) -> Response:
    """Ranked rules for a query in one edition (the newest unless named): rule numbers
    first (a query of one number lists that rule and its subrules, with ``jump`` set), then
    the rules defining a term the words name, then rules by their words (BM25F), with
    excerpts and breadcrumbs. Misspelt words are corrected and the corrected query is given
    as ``did_you_mean``. Without ``ruleset``, a query whose citation names a ruleset by its
    prefix searches that one (``CR 702.19b``, ``Comprehensive Rules 702.19b``: Magic), and an
    empty answer lists the other rulesets that match (``other_rulesets``). A malformed query answers 400 with the position that is wrong."""
    data = current_kb().search(q, ruleset, edition, limit=limit, offset=offset, section=section)
    data["other_rulesets"] = [{**o, "url": url_for("api.search", q=q, ruleset=o["ruleset"], limit=limit)}
                              for o in data["other_rulesets"]]
    return answer(data)
