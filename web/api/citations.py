"""Citation linking: find every rule citation in a text, or link them in an article."""

from __future__ import annotations

from typing import Any

from flask import Response

from kb import limits
from web.serving import public_url
from web.api.base import answer, bp, current_kb, read_body
from web.openapi import (NAME_PATTERN, SCHEMAS, STR, array, endpoint, nullable, obj)

_NAME = {"type": "string", "pattern": NAME_PATTERN}
_BASE_URL = {"type": "string", "maxLength": 500,
             "description": "Prefix of the rule links: an http(s) URL or a relative path "
                            "(400 otherwise: no javascript:, data: or //host). Default: the "
                            "server's configured public URL (RULEKB_PUBLIC_URL), else \"\", "
                            "links relative to the site's root."}
_TARGET = {
    "ruleset": nullable(STR), "edition": nullable(STR),
    "candidates": array(STR, description="The editions citations were looked up in, as "
                                         "`ruleset edition` (several when no ruleset is named)."),
    "written_for": nullable(STR), "mapping": {"type": "boolean"},
    "inferred": nullable({"type": "string", "description":
                          "When no front matter pinned the edition the text was written for: "
                          "the one inferred from its citations (\"written for mtg 2010-10-01, "
                          "inferred from 6 of 6 citations\"); its citations are then carried "
                          "to the edition linked against (renumbered)."}),
}
_STATUS = {"enum": ["ok", "not_found", "ambiguous", "renumbered", "quote_mismatch", "over_limit"],
           "description": "ok: one rule; not_found: no such rule (see nearest); ambiguous: "
                          "several rulesets have it (see candidates); renumbered: the article's "
                          "edition numbered it differently (target is today's number); "
                          "quote_mismatch: the quoted words are not the rule's; over_limit: past "
                          "the per-request cap (cite.citations), not looked up. Citations past "
                          "the cap are not listed: the summary counts them as over_limit."}
_CITATION = {
    "start": {"type": "integer", "minimum": 0}, "end": {"type": "integer", "minimum": 0},
    "text": STR, "form": {"enum": ["rule", "cr", "bracket", "bare"],
                          "description": "bare: a number alone, in parentheses or after "
                                         "\"See also\" (337.1a)."}, "written": STR,
    "status": _STATUS, "broken": {"type": "boolean"},
    "ruleset": nullable(STR), "edition": nullable(STR), "number": nullable(STR),
    "numbers": array(STR), "url": nullable(STR), "target": nullable(STR), "message": STR,
}
_CITATION_EXTRA = {
    "nearest": array(STR),
    "candidates": array(obj({"ruleset": STR, "edition": STR, "number": STR})),
    "quote": obj({"text": STR, "start": {"type": "integer"}, "end": {"type": "integer"},
                  "similarity": nullable({"type": "number"})}),
    "line": {"type": "integer"}, "column": {"type": "integer"},
    "footnotes": array({"type": "integer"}),
    "elsewhere": obj({"edition": STR, "number": STR, "title": STR, "here": nullable(STR), "status": STR},
                     description="A not_found number (or range, both of whose ends map) that another "
                                 "edition of the ruleset has: that edition, the number or range there "
                                 "and its (first) rule's title, and where it is in the edition linked "
                                 "against (`here`, a range `117.3–117.5`; null: removed)."),
}
_SUMMARY = obj({k: {"type": "integer", "minimum": 0} for k in (
    "total", "broken", "ok", "not_found", "ambiguous", "renumbered", "quote_mismatch", "over_limit")})
_DIAGNOSTIC = obj({"message": STR, "file": STR, "line": {"type": "integer"},
                   "severity": STR, "rule": STR})
_LIMITS = obj({"bytes": {"type": "integer"}, "citations": {"type": "integer"}})

SCHEMAS.update({
    "Citation": obj(_CITATION, _CITATION_EXTRA, description="One citation found in the text."),
    "CitationLookupRequest": obj({"text": {"type": "string", "description": "Plain text (front "
                                                                "matter at its start is read as an "
                                                                "article's)."}},
                                 {"ruleset": _NAME, "edition": _NAME, "base_url": _BASE_URL}),
    "CitationLookup": obj({**_TARGET, "citations": array({"$ref": "#/components/schemas/Citation"}),
                           "summary": _SUMMARY, "diagnostics": array(_DIAGNOSTIC),
                           "limits": _LIMITS}),
    "CitationAnnotateRequest": obj(
        {"markdown": {"type": "string", "description": "The article, in Markdown (front matter "
                                                       "may pin `ruleset` and `edition`)."}},
        {"ruleset": _NAME, "edition": _NAME,
         "style": {"enum": ["footnotes", "preview"], "default": "footnotes"},
         "format": {"enum": ["html", "markdown", "json"], "default": "html",
                    "description": "html: the rendered article; markdown: the article's own "
                                   "Markdown with links added; json: the report only."},
         "allow_html": {"type": "boolean", "default": False,
                        "description": "Keep raw HTML of the article (escaped otherwise)."},
         "base_url": _BASE_URL,
         "source": {"type": "string", "maxLength": 200, "description": "A file name for messages."}}),
    "CitationAnnotation": obj({
        **_TARGET, "format": {"enum": ["html", "markdown", "json"]},
        "style": {"enum": ["footnotes", "preview"]}, "output": nullable(STR),
        "front_matter": {"type": "object", "additionalProperties": STR},
        "citations": array({"$ref": "#/components/schemas/Citation"}),
        "footnotes": array(obj({"index": {"type": "integer"}, "ruleset": STR, "edition": STR,
                                "number": STR, "text": STR, "url": STR})),
        "summary": _SUMMARY, "diagnostics": array(_DIAGNOSTIC), "limits": _LIMITS}),
})


def _base_url(body: dict[str, Any]) -> str:
    """The caller's ``base_url`` (checked where links are made), else the configured public
    URL: never the request's ``Host`` header, which any client can set."""
    return body["base_url"] if "base_url" in body else public_url()


def _answer(data: dict[str, Any]) -> Response:
    return answer(data, *data["candidates"])


# The budgets that refuse a request (cite.citations does not: past it, citations are only
# counted, as the answer's summary and `limits` say).
LOOKUP_LIMITS = (limits.CITE_INPUT,)
ANNOTATE_LIMITS = (*LOOKUP_LIMITS, limits.CITE_FRONT_MATTER, limits.CITE_LINES, limits.CITE_MARKUP)


@endpoint(bp, "POST", "/v1/citations/lookup", tag="citations", response="CitationLookup",
          body="CitationLookupRequest", errors=(404,), limits=LOOKUP_LIMITS,
          summary="Every rule citation in a text, each with its status",
          examples=("/api/v1/citations/lookup",),
          example_body={"text": "Finalizing does not pass priority (rule 337.1a; see also CR 999.9).",
                        "ruleset": "riftbound"})
def citations_lookup() -> Response:
    """Find every citation ("rule 337.1a", "CR 116.3d", "[CR 116.1]", "rules 601.2a–f") in
    a plain text and look each one up, as CourtListener's citation lookup does: offsets
    into the text, the matched text, the canonical number, a per-citation ``status`` and a
    link. A quoted sentence next to a citation is compared with the rule's text. Without a
    ``ruleset``, each citation is looked up in the newest edition of every ruleset."""
    body = read_body()
    return _answer(current_kb().citations_lookup(body["text"], body.get("ruleset"), body.get("edition"),
                                         _base_url(body)))


@endpoint(bp, "POST", "/v1/citations/annotate", tag="citations", response="CitationAnnotation",
          body="CitationAnnotateRequest", errors=(404,), limits=ANNOTATE_LIMITS,
          summary="An article with its rule citations linked",
          examples=("/api/v1/citations/annotate",),
          example_body={"markdown": "---\nruleset: riftbound\nedition: \"1.4\"\n---\n"
                                    "Finalizing does not pass priority (rule 337.1a).\n",
                        "style": "footnotes", "format": "html"})
def citations_annotate() -> Response:
    """Render a Markdown article with every rule citation linked (``footnotes`` quotes each
    cited rule at the end; ``preview`` puts its text in the link's title), plus the same
    per-citation report as the lookup, with lines and columns. Front matter may pin the
    ruleset and the edition the article was written for; citations of renumbered rules
    then link to today's number."""
    body = read_body()
    return _answer(current_kb().citations_annotate(
        body["markdown"], body.get("ruleset"), body.get("edition"),
        style=body.get("style", "footnotes"), fmt=body.get("format", "html"),
        allow_html=body.get("allow_html", False), base_url=_base_url(body),
        source=body.get("source", "")))
