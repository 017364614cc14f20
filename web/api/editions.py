"""Comparing editions: a rule-by-rule diff, where a number went, and a rule's history."""

from __future__ import annotations

from flask import Response, request

from kb.errors import QueryError
from web.api.base import DATE, EDITION, RULE_LOOKUP, RULESET, answer, bp, current_kb
from web.openapi import (NAME_PATTERN, NUMBER_PATTERN, SCHEMAS, STR, Param, array, endpoint,
                         nullable, obj, ref)

STATUSES = ("added", "removed", "changed", "moved", "unchanged")
_EDITION_OR_DATE = {"type": "string", "pattern": NAME_PATTERN}
FROM = Param("from", _EDITION_OR_DATE, "The older side: an edition name, or a date (YYYY-MM-DD) "
                                       "meaning the edition in force then.",
             required=True, example="1.3", arg="from_edition")
TO = Param("to", _EDITION_OR_DATE, "The newer side: an edition name or a date.", required=True,
           example="1.4", arg="to_edition")
ONLY = Param("only", {"type": "string", "pattern": rf"^({'|'.join(STATUSES)})(,({'|'.join(STATUSES)}))*$"},
             "Only entries with these statuses, comma-separated (default: every status but "
             "unchanged).", example="added,removed")
CHAPTER = Param("chapter", {"type": "string", "maxLength": 64, "pattern": NUMBER_PATTERN},
                "Only entries inside this chapter or heading (of either edition).", example="300")
UNCHANGED = Param("unchanged", {"type": "boolean", "default": False},
                  "Include unchanged rules too.", example=False)
LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
              "Entries per page (not with `summary=true`: 400).", example=100)
HISTORY_LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100},
                      "Editions per page.", example=100)
SUMMARY = Param("summary", {"type": "boolean", "default": False},
                "Counts only (as `rulekb diff --summary`): the summary and the per-chapter "
                "counts, with `total` still counting the entries the filters select, "
                "`entries` empty and no `offset`. It pages nothing, so `limit` or `offset` "
                "sent with it is refused (400), not ignored.", example=False)
OFFSET = Param("offset", {"type": "integer", "minimum": 0, "maximum": 100000, "default": 0},
               "Entries to skip (paging).", example=0)
DIFF_OFFSET = Param("offset", OFFSET.schema, "Entries to skip (paging; not with `summary=true`: 400).",
                    example=0)
#: The parameters that page a diff's entries, which a summary does not list.
PAGING = (LIMIT.name, DIFF_OFFSET.name)

_NUM = nullable(STR)
_COUNTS = {s: {"type": "integer", "minimum": 0} for s in STATUSES}
_OPS = nullable(array(obj({"op": {"enum": ["equal", "delete", "insert", "replace"]},
                           "old": STR, "new": STR}),
                      description="Word-level changes: joining the old parts gives the old "
                                  "text, the new parts the new text."))
SCHEMAS.update({
    "EditionRef": obj({"edition": STR, "date": STR, "title": STR, "partial": {"type": "boolean"}}),
    "DiffEntry": obj({
        "status": {"enum": list(STATUSES)}, "kind": {"enum": ["chapter", "section", "rule"]},
        "old_number": _NUM, "new_number": _NUM, "old_text": _NUM, "new_text": _NUM,
        "old_chapter": _NUM, "new_chapter": _NUM,
        "reworded": {"type": "boolean"}, "renumbered": {"type": "boolean"},
        "confidence": nullable({"type": "number"}), "similarity": nullable({"type": "number"}),
        "method": nullable({"type": "string", "description": "How the rules were matched."}),
        "ops": _OPS}),
    "Diff": obj({
        "ruleset": STR, "from": ref("EditionRef"), "to": ref("EditionRef"),
        "summary": obj({**_COUNTS, "renumbered_only": {"type": "integer"},
                        "moved_reworded": {"type": "integer"}},
                       {"old_total": {"type": "integer"}, "new_total": {"type": "integer"}}),
        "chapters": array(obj({"chapter": STR, "edition": STR, "title": STR, **_COUNTS,
                               "renumbered_only": {"type": "integer"}})),
        "filter": obj({"only": array({"enum": list(STATUSES)}), "chapter": _NUM,
                       "unchanged": {"type": "boolean"}}),
        "total": {"type": "integer", "minimum": 0, "description": "Entries after filtering, all pages."},
        "entries": array(ref("DiffEntry"))},
        {"offset": {"type": "integer", "minimum": 0,
                    "description": "The entries skipped; absent from a summary, which pages nothing."}}),
    "NumberMap": obj({
        "ruleset": STR, "number": STR, "from": STR, "to": STR, "target": _NUM,
        "status": {"enum": ["same", "renumbered", "removed", "added", "unknown"],
                   "description": "Without a counterpart: removed (the target edition is later "
                                  "and dropped it), added (the target edition is earlier: the "
                                  "rule came after it), unknown (the target edition is an excerpt "
                                  "without it)."},
        "confidence": nullable({"type": "number"}), "reworded": nullable({"type": "boolean"}),
        "path": array(obj({"edition": STR, "number": _NUM, "confidence": nullable({"type": "number"})}),
                      description="The number in each edition passed through on the way."),
        "nearest_target": nullable(obj({"number": STR, "target": STR},
                                       description="The nearest ancestor that has a counterpart."))}),
    "History": obj({
        "ruleset": STR, "number": STR, "edition": STR,
        "total": {"type": "integer", "minimum": 0, "description": "Editions in the history, all pages."},
        "offset": {"type": "integer", "minimum": 0},
        "editions": array(obj(
            {"edition": STR, "date": STR, "partial": {"type": "boolean"}, "number": _NUM,
             "status": {"enum": ["absent", "present", "added", "removed", "moved", "changed",
                                 "unchanged", "unknown"],
                        "description": "unknown: the edition is an excerpt without this rule."}},
            {"kind": STR, "title": STR, "text": STR, "examples": array(STR),
             "renumbered": {"type": "boolean"}, "reworded": {"type": "boolean"},
             "previous_number": STR, "ops": _OPS, "confidence": nullable({"type": "number"})}))}),
})


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/diff", tag="editions", response="Diff",
          params=(RULESET, FROM, TO, ONLY, CHAPTER, UNCHANGED, SUMMARY, LIMIT, DIFF_OFFSET), errors=(404,),
          summary="What changed between two editions, rule by rule",
          examples=("/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4",
                    "/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&only=added,removed&chapter=300",
                    "/api/v1/rulesets/riftbound/diff?from=1.3&to=1.4&summary=true"))
def diff(ruleset: str, from_edition: str, to_edition: str, only: str | None,
         chapter: str | None, unchanged: bool, summary: bool, limit: int, offset: int) -> Response:
    """Every rule of two editions matched up (eCFR's compare): each entry is added,
    removed, changed (reworded in place), moved (renumbered, perhaps reworded) or
    unchanged, with both numbers, both texts and the word-level changes; with counts
    overall and per chapter. Rules are matched even when renumbered, so a move is not
    reported as a removal and an addition. With ``summary=true``, the counts alone (those
    ``rulekb diff --summary`` prints): no entries, ``total`` still counting them, and no
    ``offset``. A summary pages nothing, so ``limit`` or ``offset`` sent with it is a 400
    naming the parameter: a client that pages a summary has a bug it should hear of, as a
    misspelt parameter is refused rather than ignored."""
    if summary:
        paging = [name for name in PAGING if name in request.args]
        if paging:
            raise QueryError(400, f"query parameter {paging[0]!r} pages the entries, which summary=true "
                             "leaves out: send one or the other",
                             {"parameter": paging[0], "summary": True})
    data = current_kb().diff(ruleset, from_edition, to_edition, only=only.split(",") if only else None,
                             chapter=chapter, unchanged=unchanged, limit=0 if summary else limit,
                             offset=0 if summary else offset)
    if summary:
        del data["offset"]
    return answer(data, f"{ruleset} {data['from']['edition']}", f"{ruleset} {data['to']['edition']}")


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/rules/<number>/map", tag="editions",
          response="NumberMap", params=(RULESET, RULE_LOOKUP, FROM, TO), errors=(404,),
          summary="Where a rule number of one edition is in another",
          examples=("/api/v1/rulesets/riftbound/rules/337.1.a/map?from=1.4&to=1.3",))
def map_number(ruleset: str, number: str, from_edition: str, to_edition: str) -> Response:
    """Carry a number from one edition to another (the mapping the citation linker uses):
    the ``target`` number, whether it is the same, renumbered or removed, the confidence of
    the match, whether the wording changed, and the number in each edition in between."""
    data = current_kb().map_number(ruleset, number, from_edition, to_edition)
    return answer(data, f"{ruleset} {data['from']}", f"{ruleset} {data['to']}")


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/rules/<number>/history", tag="editions",
          response="History", params=(RULESET, RULE_LOOKUP, EDITION, DATE, HISTORY_LIMIT, OFFSET), errors=(404,),
          summary="A rule through every edition",
          examples=("/api/v1/rulesets/riftbound/rules/337.1.a/history",
                    "/api/v1/rulesets/riftbound/rules/337.1.a/history?limit=2&offset=2"))
def history(ruleset: str, number: str, edition: str | None, date: str | None, limit: int,
            offset: int) -> Response:
    """In which editions a rule exists, under which number and with what wording (eCFR's
    versions): each edition says whether the rule was added, changed, moved, unchanged or
    removed there, with the word-level changes. The number is read in ``edition`` (default:
    the newest full edition that has it) and followed both ways. The editions are listed oldest
    first, ``limit`` at a time from ``offset`` (``total`` counts them all); each one's status
    is said against the rule's previous appearance, whatever the page."""
    data = current_kb().history(ruleset, number, edition, date, limit=limit, offset=offset)
    return answer(data, *(f"{ruleset} {e['edition']}" for e in data["editions"]))
