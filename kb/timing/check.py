"""``rulekb timing check``: are the model's citations real rules of the edition, and which
rules of the procedure does no transition cite?

A citation that does not exist in a complete edition fails the check; a partial edition
(the embedded excerpt) only lists the cited rules it lacks. Coverage lists, for the model's
coverage ranges (Riftbound: 333–340, 347–348, 464; Magic: 117 in 2026, 116 in 2010), every rule
no transition or check cites. A model that carries its citations to several editions is
checked in the numbering of the edition given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kb.graph import RuleGraph
from kb.numbers import NumberError, parse_number, sort_key
from kb.timing.models import RulesetModel


def cited_by(spec: RulesetModel, edition: str | None = None,
             citations: Mapping[str, Sequence[str]] | None = None) -> dict[str, list[str]]:
    """Each cited rule number (in ``edition``'s numbering, or as given in ``citations``) →
    the names (transitions, checks, invariants) that cite it."""
    out: dict[str, list[str]] = {}
    for name, rules in (citations if citations is not None else spec.citations_for(edition) or {}).items():
        for r in rules:
            out.setdefault(r, []).append(name)
    return dict(sorted(out.items(), key=lambda kv: sort_key(parse_number(kv[0]))))


def check(spec: RulesetModel, rg: RuleGraph, citations: Mapping[str, Sequence[str]] | None = None,
          coverage: tuple[tuple[str, str], ...] | None = None) -> dict[str, Any]:
    """The report as a plain dict; ``ok`` is False only when a citation does not exist in a
    complete edition (or is not a rule number at all).

    ``citations`` and ``coverage`` replace the model's own tables (citations carried to
    another edition through the edition mapping).
    """
    names_count = len(citations) if citations is not None else len(
        spec.citations_for(rg.edition.name) or spec.citations)
    citations = cited_by(spec, rg.edition.name if spec.citations_for(rg.edition.name) is not None else None,
                         citations)
    unknown: list[dict[str, Any]] = []
    lacking: list[dict[str, Any]] = []
    cited_canonical: set[str] = set()
    for number, names in citations.items():
        try:
            found = rg.find(parse_number(number))
        except NumberError:
            unknown.append({"rule": number, "cited_by": names, "reason": "not a rule number"})
            continue
        if found is not None:
            cited_canonical.add(found)
        elif rg.edition.partial:
            lacking.append({"rule": number, "cited_by": names})
        else:
            unknown.append({"rule": number, "cited_by": names, "nearest": rg.nearest(parse_number(number))})
    ranges = []
    uncited: list[dict[str, Any]] = []
    total = covered = 0
    for first, last in coverage if coverage is not None else spec.coverage_for(rg.edition.name):
        lo, hi = int(first), int(last)
        in_range = [n for n, r in rg.edition.rules.items()
                    if r.kind == "rule" and r.segments[0].isdigit() and lo <= int(r.segments[0]) <= hi]
        missing = [n for n in in_range if n not in cited_canonical]
        total += len(in_range)
        covered += len(in_range) - len(missing)
        ranges.append({"range": first if first == last else f"{first}–{last}", "rules": len(in_range),
                       "cited": len(in_range) - len(missing), "uncited": missing})
        uncited += [{"rule": n, "text": rg.rule(n).text} for n in missing]
    return {
        "ruleset": spec.ruleset, "edition": rg.edition.name, "partial": rg.edition.partial,
        "citation_edition": spec.citation_edition,
        "ok": not unknown, "citations": len(citations), "names": names_count,
        "unknown": unknown, "lacking": lacking,
        "coverage": {"ranges": ranges, "rules": total, "cited": covered, "uncited": uncited},
    }
