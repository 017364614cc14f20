"""Rulings and articles: list them, read one with each citation's status today, search
rulings; the ``CitedBy`` shape every rule answer carries."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

from flask import Response, url_for

from kb.records import CITED_BY_MOST, CITED_BY_PAGE, record_report, records_report, search_rulings
from kb.records.feed import stale_feed
from kb.records.model import KINDS
from web.serving import public_url
from web.api.base import DATE, EDITION, RULE_LOOKUP, RULESET, answer, bp, current_kb, edition_of, with_next_cited_by
from web.api.feeds import ATOM_TYPE, atom
from web.openapi import (BOOL, NAME_PATTERN, NAT, SCHEMAS, STR, Param, array, endpoint, nullable,
                         obj, ref)

RULESET_FILTER = Param("ruleset", {"type": "string", "pattern": NAME_PATTERN},
                       "Only the citations counting for this ruleset: a record's own, and those whose "
                       "prefix names it in a record of another (CR 116.1 in a Riftbound ruling counts "
                       "for mtg); the records holding none are left out.", example="riftbound")
STALE = Param("stale", {"type": "boolean", "default": False},
              "Only the records a newer edition broke (or citing a rule that does not exist).",
              example=True)
RECORD_ID = Param("id", {"type": "string", "pattern": r"^[a-z0-9][a-z0-9._-]{0,99}$"},
                  "The ruling's id.", where="path", example="riftbound-who-acts-after-finalizing", arg="ident")
# the same, with an article's id for its example (the document's example must answer)
ARTICLE_ID = Param("id", RECORD_ID.schema, "The article's id.", where="path", example="mtg-passing-priority",
                   arg="ident")
QUERY = Param("q", {"type": "string", "minLength": 1, "maxLength": 500},
              "A question in words, e.g. the one a player asks at the table.", required=True,
              example="does finalizing pass priority")
LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
              "At most this many rulings.", example=5)
PAGE_LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 500, "default": 100},
                   "At most this many records in the answer (the counts cover them all).", example=50)
# The API reads a number of at most 9 digits (web.openapi), and says so in the schema.
OFFSET = Param("offset", {"type": "integer", "minimum": 0, "maximum": 999_999_999, "default": 0},
               "Records skipped before the first one listed.", example=0)

CITED_BY_LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": CITED_BY_MOST,
                                 "default": CITED_BY_PAGE},
                       "At most this many records in the page (the counts cover them all).", example=50)
CITED_BY_OFFSET = Param("offset", {**OFFSET.schema},
                        "Records skipped before the first one listed (a page's `next` says where the "
                        "next one starts); past the last record, 404.", example=50)
CITED_BY_KIND = Param("kind", {"enum": list(KINDS)},
                      "Only the rulings, or only the articles (the counts stay those of both).",
                      example="article")

_STATUS = {"enum": ["ok", "renumbered", "reworded", "removed", "not_found"],
           "description": "Against the newest edition of the record's ruleset: ok (same number, "
                          "same words), renumbered (`now` is the number today; `ops` when reworded "
                          "too), reworded (same number, `ops` the word changes), removed (no "
                          "counterpart), not_found (the record's own edition has no such rule)."}
_OPS = nullable(array(obj({"op": {"enum": ["equal", "insert", "delete", "replace"]},
                           "old": STR, "new": STR}), description="Word-level changes."))
_SUMMARY = {"kind": {"enum": list(KINDS)}, "id": STR, "title": STR,
            "ruleset": nullable(STR), "edition": nullable(STR), "date": STR, "source": STR,
            "url": nullable(STR)}
_RULING_TEXT = {"question": STR, "answer": STR}
_DIAGNOSTIC = obj({"message": STR, "file": STR, "line": {"type": "integer"}, "severity": STR,
                   "rule": STR})

_CITED_BY = {
    "total": NAT, "rulings": NAT, "articles": NAT,
    "kind": nullable({"enum": list(KINDS), "description": "The kind listed (`?kind=`), or null: both."}),
    "matching": {"type": "integer", "minimum": 0,
                 "description": "Records of that kind (all, without one), listed or not."},
    "offset": NAT,
    "limit": {"type": ["integer", "null"], "minimum": 1,
              "description": "The page's size (null: every record is listed)."},
    "records": array(obj({"kind": {"enum": list(KINDS)}, "id": STR, "title": STR,
                          "written_for": STR, "cited_as": {"type": "string", "description":
                                                            "The number it cited, in the edition it was written for."},
                          "status": _STATUS, "stale": BOOL})),
    "more": {"type": "integer", "minimum": 0, "description": "Records after this page."},
    "next_offset": nullable({"type": "integer", "minimum": 0,
                             "description": "Where the next page starts (null: this is the last)."}),
    "next": nullable({"type": "string", "description": "The path of the next page on the cited-by "
                                                       "operation (null: this is the last)."}),
}

SCHEMAS.update({
    "RecordSummary": obj(_SUMMARY, _RULING_TEXT, description="A ruling or an article, as filed."),
    "RecordCitation": obj({
        "text": STR, "written": STR, "number": nullable(STR), "field": STR,
        "line": {"type": "integer", "minimum": 0},
        "ruleset": {"type": "string", "description": "The ruleset it counts against: the record's, "
                                                      "or the one its own prefix names (CR 116.1)."},
        "named": {"type": "boolean", "description": "Its prefix named another ruleset than the record's."},
        "written_for": {"type": "string", "description": "The edition of that ruleset it is read in."},
        "newest": STR,
        "now": nullable(STR), "status": _STATUS, "reworded": BOOL, "ops": _OPS, "message": STR},
        description="One rule a record cites, and what the newest edition made of it."),
    "RecordReport": obj({
        **_SUMMARY, "written_for": nullable(STR),
        "inferred": nullable({"type": "string", "description": "How the edition an unpinned "
                                                               "article was written for was inferred."}),
        "file": STR,
        "imported_from": nullable({"type": "string", "description": "The name of the file it was "
                                   "imported from, whose lines the citations' `line` are (`file` is "
                                   "the copy the data home keeps); null for a record not imported."}),
        "newest": nullable(STR),
        "citations": array(ref("RecordCitation")),
        "stale": {"type": "boolean", "description": "A rule it cites was renumbered, reworded or removed."},
        "broken": {"type": "integer", "minimum": 0, "description": "Citations of rules that do not exist."},
        "changed": array(STR, description="The numbers (in the edition written for) that changed; "
                                           "one of another ruleset, which its prefix named, after that "
                                           "ruleset's name (`mtg 116.3c`)."),
        "unread": {"type": "boolean", "description": "Its citations could not be read: the ruleset or "
                                                     "edition it was written for is not built, or an "
                                                     "unpinned article cites no ruleset clearly."},
        "counted_for": nullable({"type": "string", "description": "The ruleset a listing was asked "
                                                                  "for (`?ruleset=`): only the citations "
                                                                  "counting for it are given, and the "
                                                                  "counts are theirs; null: every citation."}),
        "left_out": {"type": "integer", "minimum": 0, "description": "Its citations counting for another "
                                                                     "ruleset than `counted_for`, left out."},
        "diagnostics": array(_DIAGNOSTIC)}, _RULING_TEXT),
    "RecordList": obj({
        "kind": {"enum": list(KINDS)}, "ruleset": nullable(STR),
        "total": {"type": "integer", "minimum": 0, "description": "Records matching, listed or not."},
        "offset": NAT, "limit": NAT, "stale": NAT, "broken": NAT, "unread": NAT,
        "citations": obj({s: NAT for s in ("ok", "renumbered", "reworded", "removed", "not_found")}),
        "records": array(ref("RecordReport")), "diagnostics": array(_DIAGNOSTIC)}),
    "RulingSearch": obj({
        "query": STR, "ruleset": nullable(STR), "total": NAT,
        "hits": array(obj({"ruling": ref("RecordSummary"), "score": {"type": "number"},
                           "rules": obj({"ruleset": nullable(STR), "edition": nullable(STR),
                                         "numbers": array(STR, description="The rules it cites, "
                                                                           "as numbered in the newest edition.")})}))}),
    "CitedBy": obj(_CITED_BY, description="The rulings and articles citing a rule, directly or through "
                                          "the rule of an earlier edition that maps to it: the counts of all "
                                          f"of them and one page of them (the first {CITED_BY_PAGE} in a rule's answer)."),
    "CitedByPage": obj({"ruleset": STR, "edition": STR, "number": STR, **_CITED_BY},
                       description="A page of the rulings and articles citing a rule (the rule's "
                                   "canonical number in that edition), with the counts of all."),
})


def _page(data: dict[str, Any], offset: int, limit: int) -> dict[str, Any]:
    """One page of a record list: the counts stay those of every record."""
    return _by_name({**data, "offset": offset, "limit": limit,
                     "records": [_by_name(r) for r in data["records"][offset:offset + limit]]})


def _by_name(data: dict[str, Any]) -> dict[str, Any]:
    """A report (or list) as the API answers it: each file by its name, not the server's
    path to it (the data home's place is no client's business)."""
    out = {**data, "diagnostics": [{**d, "file": PurePath(d["file"]).name if d.get("file") else d.get("file")}
                                   for d in data.get("diagnostics", [])]}
    if "file" in data:
        out["file"] = PurePath(data["file"]).name
    if data.get("imported_from"):
        out["imported_from"] = PurePath(data["imported_from"]).name
    return out


def _editions(data: dict[str, Any]) -> list[str]:
    return sorted({f"{r['ruleset']} {r['newest']}" for r in data["records"] if r["newest"]})


@endpoint(bp, "GET", "/v1/rulings", tag="records", response="RecordList",
          params=(RULESET_FILTER, STALE, PAGE_LIMIT, OFFSET), errors=(404,),
          summary="The rulings, each with its citations' status in the newest edition",
          examples=("/api/v1/rulings", "/api/v1/rulings?stale=true&ruleset=mtg"))
def rulings(ruleset: str | None, stale: bool, limit: int, offset: int) -> Response:
    """Every ruling imported (``rulekb rulings import``): its question, answer, source and
    the edition it was written for, and each rule it cites checked against the newest
    edition (ok, renumbered, reworded, removed). ``stale=true`` keeps those a newer edition
    broke. ``limit``/``offset`` page the list; the counts cover every ruling."""
    data = _page(records_report(current_kb(), "ruling", ruleset, stale_only=stale), offset, limit)
    return answer(data, *_editions(data))


@endpoint(bp, "GET", "/v1/rulings/search", tag="records", response="RulingSearch",
          params=(QUERY, RULESET_FILTER, LIMIT), errors=(404,),
          summary="Earlier rulings on a question, with the rules they cite",
          examples=("/api/v1/rulings/search?q=does+finalizing+pass+priority",))
def rulings_search(q: str, ruleset: str | None, limit: int) -> Response:
    """Rulings whose question and answer share (stemmed) words with ``q``, best first
    (BM25), each with the rules it cites as numbered in the newest edition: a judge's
    question often matches an earlier ruling's."""
    data = search_rulings(current_kb(), q, ruleset, limit)
    return answer(data, *sorted({f"{h['rules']['ruleset']} {h['rules']['edition']}"
                                 for h in data["hits"] if h["rules"]["edition"]}))


@endpoint(bp, "GET", "/v1/rulings/stale.atom", tag="records", response="AtomFeed",
          media_type=ATOM_TYPE, params=(RULESET_FILTER,), errors=(404,),
          summary="An Atom feed of the rulings a newer edition broke",
          examples=("/api/v1/rulings/stale.atom", "/api/v1/rulings/stale.atom?ruleset=mtg"))
def stale_rulings_feed(ruleset: str | None) -> Response:
    """One entry per stale ruling (newest edition first, the newest 50; the subtitle counts
    them all when there are more): each rule it cites that the newest
    edition renumbered (with the new number), reworded (with the word changes) or removed,
    and a link to the ruling's page, whose banner says the same. Polling it answers 304
    until a build changes the editions or the rulings."""
    root = public_url()
    return atom(stale_feed(current_kb(), lambda kind, ident: root + url_for(f"site.{kind}", ident=ident),
                           root + url_for("site.rulings"), "ruling", ruleset))


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/rules/<number>/cited-by", tag="records",
          response="CitedByPage", params=(RULESET, RULE_LOOKUP, EDITION, DATE, CITED_BY_KIND,
                                          CITED_BY_OFFSET, CITED_BY_LIMIT), errors=(404,),
          summary="The rulings and articles citing a rule, a page at a time",
          examples=("/api/v1/rulesets/riftbound/rules/337.4/cited-by",
                    "/api/v1/rulesets/mtg/rules/117.3d/cited-by?kind=article&limit=10"))
def cited_by(ruleset: str, number: str, edition: str | None, date: str | None, kind: str | None,
             offset: int, limit: int) -> Response:
    """The records citing a rule (as a rule's ``cited_by``: directly or through the rule of
    an earlier edition that maps to it), ``limit`` of them from ``offset``, only the rulings
    or the articles with ``kind``. The counts (``total``, ``rulings``, ``articles``) cover
    every one; ``next`` is the path of the next page (null on the last), as a rule answer's
    ``cited_by.next`` leads here. An offset past the last record answers 404 naming how
    many there are; a bad offset, limit or kind 400."""
    rg = edition_of(ruleset, edition, date)
    data = current_kb().cited_by(ruleset, number, rg.edition.name, offset=offset, limit=limit, kind=kind)
    head = {k: data.pop(k) for k in ("ruleset", "edition", "number")}
    return answer({**head, **with_next_cited_by(data, ruleset, head["edition"], head["number"])})


@endpoint(bp, "GET", "/v1/rulings/<id>", tag="records", response="RecordReport",
          params=(RECORD_ID,), errors=(404,), summary="One ruling and its citations' status",
          examples=("/api/v1/rulings/riftbound-who-acts-after-finalizing",))
def ruling(ident: str) -> Response:
    """One ruling with each rule it cites: its number in the edition written for, its
    number today, and whether it was renumbered, reworded (with the word changes) or
    removed. An unknown id answers 404 with the known ids."""
    data = _by_name(record_report(current_kb(), "ruling", ident))
    return answer(data, *([f"{data['ruleset']} {data['newest']}"] if data["newest"] else []))


@endpoint(bp, "GET", "/v1/articles", tag="records", response="RecordList",
          params=(RULESET_FILTER, STALE, PAGE_LIMIT, OFFSET), errors=(404,),
          summary="The articles, each with its citations' status in the newest edition",
          examples=("/api/v1/articles",))
def articles(ruleset: str | None, stale: bool, limit: int, offset: int) -> Response:
    """Every article added (``rulekb articles add``), the edition it was written for
    (pinned, or inferred from its citations) and each rule it cites checked against the
    newest edition, a page of them (``limit``/``offset``)."""
    data = _page(records_report(current_kb(), "article", ruleset, stale_only=stale), offset, limit)
    return answer(data, *_editions(data))


@endpoint(bp, "GET", "/v1/articles/<id>", tag="records", response="RecordReport",
          params=(ARTICLE_ID,), errors=(404,), summary="One article and its citations' status",
          examples=("/api/v1/articles/mtg-passing-priority",))
def article(ident: str) -> Response:
    """One article with each rule it cites and what the newest edition made of it."""
    data = _by_name(record_report(current_kb(), "article", ident))
    return answer(data, *([f"{data['ruleset']} {data['newest']}"] if data["newest"] else []))

