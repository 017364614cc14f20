"""Rulesets, editions, rules, the table of contents, terms and the reference graph."""

from __future__ import annotations

from flask import Response, url_for

from kb.errors import QueryError

from web.api.base import (DATE, EDITION, RULE_LOOKUP, RULESET, answer, bp, current_kb, edition_of,
                          with_next_cited_by)
from web.openapi import Param, endpoint

SUBRULES = Param("subrules", {"type": "boolean", "default": False},
                 "Include the whole subtree, with text, under `subrules`.", example=True)
DEPTH = Param("depth", {"type": "integer", "minimum": 0, "maximum": 3, "default": 1},
              "How many steps of the graph to follow from the rule (0–3).", example=2)
TERM = Param("term", {"type": "string", "minLength": 1, "maxLength": 100},
             "A defined term or keyword, in any case (e.g. chain, Showdown).", where="path",
             example="chain")


def _build() -> dict[str, str]:
    kb = current_kb()
    return {"build_id": kb.build_id, "built": str(kb.manifest.get("built", ""))}


@endpoint(bp, "GET", "/v1/rulesets", tag="rules", response="Rulesets",
          summary="Rulesets and their editions", examples=("/api/v1/rulesets",))
def rulesets() -> Response:
    """Every ruleset in the knowledge base with the names of its editions, oldest first,
    and ``newest``: the default edition, the one answering when no edition is asked for (the
    newest full edition; an excerpt only in a ruleset of excerpts)."""
    kb = current_kb()
    found = [{**r, "newest": kb.default_edition(r["name"])["edition"]} for r in kb.rulesets()]
    return answer({"build": _build(), "rulesets": found})


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/editions", tag="rules", response="Editions",
          summary="Editions of a ruleset, or the one in force on a date", params=(RULESET, DATE),
          errors=(404,), examples=("/api/v1/rulesets/riftbound/editions",
                                   "/api/v1/rulesets/mtg/editions?date=2015-06-01"))
def editions(ruleset: str, date: str | None) -> Response:
    """The editions of a ruleset, oldest first: date, rule and heading counts, resolved and
    unresolved references, terms, and whether the edition is an excerpt (``partial``).
    With ``date``, only the edition in force that day (404 before the first edition).
    ``newest`` is the default edition (the newest full one), which answers when none is named."""
    kb = current_kb()
    found = kb.editions(ruleset)
    newest = kb.default_edition(ruleset)["edition"]
    if date is not None:
        found = [kb.in_force(ruleset, date)]
    return answer({"ruleset": ruleset, "newest": newest, "editions": found},
                  *(f"{ruleset} {e['edition']}" for e in found))


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/rules/<number>", tag="rules", response="RuleDetail",
          summary="A rule, its breadcrumbs, neighbours, references and terms",
          params=(RULESET, RULE_LOOKUP, EDITION, DATE, SUBRULES), errors=(404,),
          examples=("/api/v1/rulesets/riftbound/rules/337.1a",
                    "/api/v1/rulesets/riftbound/rules/337?subrules=true",
                    "/api/v1/rulesets/mtg/rules/117.3d?edition=2026-01-16"))
def rule(ruleset: str, number: str, edition: str | None, date: str | None,
         subrules: bool) -> Response:
    """A rule by number. Loose numbers are accepted (``337.1a``, ``rule 337.1.a.``,
    ``CR 116.3d``) and the canonical one is returned. The answer has the rule's text and
    examples, ``ancestors`` (breadcrumbs), ``children``, ``previous``/``next``,
    ``references`` (rules it cites), ``referenced_by``, the ``terms`` it defines or uses,
    and the timing-model ``transitions`` that cite it, and ``cited_by``: the counts of the
    rulings and articles citing it and the first 50 of them, ``next`` the path of the page
    after (the cited-by operation). An unknown number answers 404 with the nearest numbers
    in ``detail.nearest``; a number another ruleset's default edition has (Magic's 120.3b asked
    of Riftbound) is named in the message and in ``detail.other_rulesets`` (ruleset, edition,
    number, rule_title, url)."""
    rg = edition_of(ruleset, edition, date)
    try:
        data = current_kb().rule(ruleset, number, rg.edition.name, subrules=subrules)
    except QueryError as exc:  # a number another ruleset has: where to ask for it, as search links it
        others = exc.detail.get("other_rulesets") if isinstance(exc.detail, dict) else None
        if not others:
            raise
        linked = [{**o, "url": url_for("api.rule", ruleset=o["ruleset"], number=o["number"])} for o in others]
        raise QueryError(exc.status, exc.message, {**exc.detail, "other_rulesets": linked}) from exc
    data["cited_by"] = with_next_cited_by(data["cited_by"], ruleset, rg.edition.name, data["number"])
    return answer(data)


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/structure", tag="rules", response="Structure",
          summary="The table of contents (no rule text)", params=(RULESET, EDITION, DATE),
          errors=(404,), examples=("/api/v1/rulesets/riftbound/structure",))
def structure(ruleset: str, edition: str | None, date: str | None) -> Response:
    """Every numbered node of an edition in document order: number, kind (chapter, section,
    rule), title or first words, depth, parent and how many children it has."""
    ed = edition_of(ruleset, edition, date).edition
    return answer({"ruleset": ruleset, "edition": ed.name, "date": ed.date, "partial": ed.partial,
                   "nodes": current_kb().structure(ruleset, ed.name)})


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/graph/<number>", tag="rules", response="Graph",
          summary="The neighbourhood of a rule in the reference graph",
          params=(RULESET, RULE_LOOKUP, EDITION, DATE, DEPTH), errors=(404,),
          examples=("/api/v1/rulesets/riftbound/graph/337?depth=1",))
def graph(ruleset: str, number: str, edition: str | None, date: str | None, depth: int) -> Response:
    """The rules within ``depth`` steps of a rule, as nodes and edges; an edge's kind is
    ``contains`` (parent to child) or ``refers`` (a rule citing another)."""
    rg = edition_of(ruleset, edition, date)
    return answer(current_kb().neighbourhood(ruleset, number, depth, rg.edition.name))


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/terms", tag="rules", response="Terms",
          summary="Defined terms and keywords", params=(RULESET, EDITION, DATE), errors=(404,),
          examples=("/api/v1/rulesets/riftbound/terms",))
def terms(ruleset: str, edition: str | None, date: str | None) -> Response:
    """The glossary of an edition: each term or keyword, its definition and the rules
    that define it."""
    name = edition_of(ruleset, edition, date).edition.name
    return answer({"ruleset": ruleset, "edition": name, "terms": current_kb().terms(ruleset, name)})


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/terms/<path:term>", tag="rules", response="TermDetail",
          summary="A term, its definition and the rules that use it",
          params=(RULESET, TERM, EDITION, DATE), errors=(404,),
          examples=("/api/v1/rulesets/riftbound/terms/chain",))
def term(ruleset: str, term: str, edition: str | None, date: str | None) -> Response:
    """One term or keyword (any case): its definition, the rules that define it and the
    rules that use it (``used_by``, at most 200). An unknown term answers 404 with the
    closest terms in ``detail.nearest``."""
    name = edition_of(ruleset, edition, date).edition.name
    return answer({**current_kb().term(ruleset, term, name), "ruleset": ruleset, "edition": name})


@endpoint(bp, "GET", "/v1/stats", tag="rules", response="Stats",
          summary="Counts per edition, with every unresolved reference",
          examples=("/api/v1/stats",))
def stats() -> Response:
    """Per edition: rules, headings, references resolved and unresolved (each unresolved
    one listed with the rule and line it is in), terms."""
    found = current_kb().stats()
    return answer({"build": _build(), "editions": found},
                  *(f"{e['ruleset']} {e['edition']}" for e in found))
