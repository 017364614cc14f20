"""The loaded editions: the floor every subsystem stands on.

:class:`LoadedEditions` holds one build's graphs (keyed by ruleset and edition), its
manifest, the lookups every question starts with (rulesets, editions, the edition in force
on a date, a loosely written rule number) and the build's store of derived data
(:mod:`kb.derived`). It imports no subsystem, so search, timing, citations and editions can
all take it; the facade (:class:`kb.query.KnowledgeBase`) is built on it and composes them.

It is read-only once loaded, so any number of threads may share it.
"""

from __future__ import annotations

import weakref

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from kb.derived import DerivedStore
from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.inputs import date_problem
from kb.numbers import (NumberError, Segments, format_number, loose_segments, parse_lookup_number,
                        redotted_numbers)


#: How a build's manifest writes when it was built (``built``, UTC); kb.store writes it.
BUILT_FORMAT = "%Y-%m-%dT%H:%M:%SZ"


def elsewhere_sentence(elsewhere: dict[str, Any], edition: str) -> str:
    """:meth:`KnowledgeBase.number_elsewhere`'s answer as a sentence: "2010-10-01's rule
    116.3d (If a player has priority …) is rule 117.3d in 2026-01-16", or "… was removed in …"."""
    now = f"is rule {elsewhere['here']}" if elsewhere["here"] else "was removed"
    return f"{elsewhere['edition']}'s rule {elsewhere['number']} ({elsewhere['title']}) {now} in {edition}"


@dataclass
class LoadedEditions:
    """All built editions of one build, keyed by (ruleset, edition)."""

    build_dir: Path | None
    manifest: dict[str, Any]
    graphs: dict[tuple[str, str], RuleGraph] = field(default_factory=dict)
    # What the build derives on first use (searchers, mappings...): see kb.derived.
    derived: DerivedStore = field(default_factory=DerivedStore, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Graphs loaded lazily with a bound (kb.store.LazyEditions) say when one is unloaded:
        # what was derived from it goes too, so it is not kept alive (kb.derived).
        hooks = getattr(self.graphs, "on_unload", None)
        if hooks is not None:
            hooks.append(self.derived.forget_edition)

    @property
    def build_id(self) -> str:
        """The build's id (``memory`` for editions held in memory only)."""
        return str(self.manifest.get("build_id", ""))

    @property
    def built_at(self) -> datetime | None:
        """When the build was made (its manifest's ``built``); None when it has none (a
        knowledge base held in memory)."""
        try:
            return datetime.strptime(str(self.manifest.get("built") or ""), BUILT_FORMAT).replace(tzinfo=timezone.utc)
        except ValueError:
            return None

    # -- rulesets and editions -------------------------------------------------
    def ruleset_names(self) -> list[str]:
        """The names of the rulesets built, sorted (nothing is loaded)."""
        return sorted({r for r, _ in self.graphs})

    def rulesets(self) -> list[dict[str, Any]]:
        """Each ruleset: name, title and its editions' names, oldest first."""
        names = self.ruleset_names()
        titles = self.manifest.get("rulesets", {})
        return [{"name": n, "title": titles.get(n, {}).get("title", n),
                 "editions": [e["edition"] for e in self.editions(n)]} for n in names]

    def editions(self, ruleset: str) -> list[dict[str, Any]]:
        """Editions of a ruleset, oldest first, with date, counts and partial flag."""
        found = [e for e in self.manifest["editions"] if e["ruleset"] == ruleset]
        if not found:
            raise QueryError(404, f"unknown ruleset {ruleset!r}",
                             {"rulesets": self.ruleset_names()})
        return oldest_first(found)

    def default_edition(self, ruleset: str) -> dict[str, Any]:
        """The edition a question naming none reads, as the manifest lists it: the newest full
        edition (an excerpt is passed over while the ruleset has a full edition: its missing
        rules would read as removed); the newest excerpt in a ruleset of excerpts only."""
        return preferring_full(self.editions(ruleset))

    def excerpts_passed_over(self, ruleset: str) -> list[str]:
        """The excerpts of a ruleset that no default choice reads: those the ruleset also
        has a full edition beside (reachable by name; importing the official document under
        the same edition name replaces one)."""
        return passed_over_excerpts(self.editions(ruleset))

    def edition(self, ruleset: str, edition: str | None = None, date: str | None = None) -> RuleGraph:
        """One edition: by name, or the one in force on ``date``, or the default (the newest
        full edition: :meth:`default_edition`)."""
        eds = self.editions(ruleset)
        if edition:
            if (ruleset, edition) not in self.graphs:
                if (in_force := self.dated_in_force(ruleset, edition)) is not None:
                    raise QueryError(404, f"{edition} is not an edition of {ruleset} but a date: the edition in "
                                     f"force on it is {in_force} (name it, or ask by date: --date {edition} "
                                     f"on the command line, ?date={edition} in the API)",
                                     {"edition": edition, "in_force": in_force,
                                      "editions": [e["edition"] for e in eds]})
                raise QueryError(404, f"unknown edition {edition!r} of {ruleset}",
                                 {"editions": [e["edition"] for e in eds]})
            return self.graphs[(ruleset, edition)]
        if date:
            return self.graphs[(ruleset, self.in_force(ruleset, date)["edition"])]
        return self.graphs[(ruleset, preferring_full(eds)["edition"])]

    def in_force(self, ruleset: str, date: str) -> dict[str, Any]:
        """The edition of a ruleset in force on ``date`` (the newest full edition dated on or
        before it; an excerpt only when none of those is full), as the manifest lists it:
        nothing is loaded. QueryError 400 when ``date`` is not a calendar date written
        YYYY-MM-DD (``2026-02-30`` sorted between real days and chose an edition), 404 before
        the first one."""
        if why := date_problem(date):
            raise QueryError(400, f"{date[:40]!r} is {why}", {"date": date[:40]})
        eds = self.editions(ruleset)
        found = in_force_among(eds, date)
        if found is None:
            raise QueryError(404, f"no edition of {ruleset} was in force on {date}",
                             {"editions": [{"edition": e["edition"], "date": e["date"]} for e in eds]})
        return found

    def dated_in_force(self, ruleset: str, name: str) -> str | None:
        """When ``name`` is no edition's name but a calendar date (YYYY-MM-DD) on which an
        edition of ``ruleset`` was in force, that edition's name; else None. A date typed
        where an edition's name goes (``--edition 2015-06-01``, ``/mtg/2015-06-01/117.3``)
        is then refused, or redirected, naming the edition it meant."""
        if (ruleset, name) in self.graphs or date_problem(name):
            return None
        try:
            return str(self.in_force(ruleset, name)["edition"])
        except QueryError:
            return None

    def default_ruleset(self) -> str:
        """The ruleset a question without one is about: riftbound when built, else the first."""
        names = self.ruleset_names()
        if not names:
            raise QueryError(503, "the knowledge base holds no editions")
        return "riftbound" if "riftbound" in names else names[0]

    # -- rules -------------------------------------------------------------------
    def find_rule(self, rg: RuleGraph, number: str) -> str:
        """Canonical number of a loosely written one (:func:`kb.numbers.parse_lookup_number`:
        ``337.1(a)`` and ``337.1 a`` are 337.1.a), or QueryError 400 for a text that is no
        number, 404 with the nearest numbers for one the edition lacks (``9999.9`` too).

        A number typed with a dot dropped, doubled or misplaced (``3371a``, ``337..1a``,
        ``337 1 a``: :func:`kb.numbers.loose_segments`) is not looked up as a guess: it is
        a 404 whose message asks whether the rules its digits and letters re-dot into
        (:func:`kb.numbers.redotted_numbers`: 337.1.a) were meant, and they come first among
        the nearest numbers."""
        try:
            segments = parse_lookup_number(number)
            wanted = format_number(segments, rg.edition.number_style)
        except NumberError as exc:
            loose = loose_segments(number)
            if loose is None:
                raise QueryError(400, str(exc), {"number": number[:64]}) from exc
            segments, wanted = loose, number.strip()
            message = f"no rule of {rg.edition.ruleset} {rg.edition.name} is numbered {wanted!r}"
        else:
            found = rg.find(segments)
            if found is not None:
                return found
            message = f"rule {wanted} does not exist in {rg.edition.ruleset} {rg.edition.name}"
        redotted = redotted_numbers(segments, rg.find)
        if redotted:
            message += f"; did you mean {' or '.join(redotted)}?"
        last = None if redotted else last_rule_before(rg, segments)
        if last is not None:  # the nearest numbers would be the document's last ones: no help
            message += f": it is beyond the last rule, {last} {rg.rule(last).label}".rstrip()
        raise QueryError(404, message, {"number": wanted, "nearest": suggested_numbers(rg, segments),
                                        "edition": rg.edition.name, "partial": rg.edition.partial,
                                        **({"last": last} if last else {})})


def in_force_among(editions: list[dict[str, Any]], date: str) -> dict[str, Any] | None:
    """The edition of ``editions`` (one ruleset's, oldest first) in force on ``date``: the
    newest full one dated on or before it (an excerpt only when none of those is full), or
    None. The dates compare as written (:meth:`LoadedEditions.in_force` refuses a date that
    is none first; kb.cite.target.edition_on reads an article's as it is)."""
    dated = [e for e in editions if e["date"] and e["date"] <= date]
    return preferring_full(dated) if dated else None


def oldest_first(editions: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One ruleset's editions (manifest entries) in the order the defaults read them: by date,
    then by name."""
    return sorted(editions, key=lambda e: (e["date"], e["edition"]))


def preferring_full(editions: list[dict[str, Any]]) -> dict[str, Any]:
    """The last of ``editions`` (oldest first) that is not an excerpt; the last of all when
    every one is an excerpt."""
    full = [e for e in editions if not e.get("partial")]
    return (full or editions)[-1]


def passed_over_excerpts(editions: list[dict[str, Any]]) -> list[str]:
    """The names of the excerpts among one ruleset's ``editions`` that a full edition beside
    them keeps from being the default (none when every edition is an excerpt)."""
    if all(e.get("partial") for e in editions):
        return []
    return [str(e["edition"]) for e in editions if e.get("partial")]


def last_rule_before(rg: RuleGraph, segments: Segments) -> str | None:
    """The edition's last top-level rule when ``segments`` number past it (``9999`` in a
    document ending at 829: its first segment is beyond every rule's), else None. Its
    nearest numbers would be the document's last subrules, unrelated to the one asked."""
    if not segments or not segments[0].isdigit():
        return None
    last = _LAST_RULES.get(rg)
    if last is None:  # once per graph: the linker asks this of every citation not found
        tops = [int(r.segments[0]) for r in rg.edition.rules.values() if r.segments and r.segments[0].isdigit()]
        highest = max(tops, default=-1)
        found = (rg.find((str(highest),)) or rg.nearest((str(highest),), 1)[0]) if tops else None
        last = _LAST_RULES[rg] = (highest, found)
    return last[1] if last[1] is not None and int(segments[0]) > last[0] else None


_LAST_RULES: weakref.WeakKeyDictionary[RuleGraph, tuple[int, str | None]] = weakref.WeakKeyDictionary()


def suggested_numbers(rg: RuleGraph, segments: Segments, limit: int = 5) -> list[str]:
    """The numbers of ``rg`` offered for ``segments``, which it lacks: the ones their digits and
    letters re-dot into first (:func:`kb.numbers.redotted_numbers`: ``3371a`` → 337.1.a), then
    the nearest (:meth:`kb.graph.RuleGraph.nearest`), at most ``limit``; none for a number
    beyond the last rule (:func:`last_rule_before`), which says so instead. The rule lookup's
    nearest numbers (:meth:`LoadedEditions.find_rule`) and the search's ``did_you_mean`` (the
    first of one) are these."""
    redotted = redotted_numbers(segments, rg.find, limit)
    if not redotted and last_rule_before(rg, segments) is not None:
        return []  # past the last rule: its nearest would be the document's last subrules
    return (redotted + [n for n in rg.nearest(segments, limit) if n not in redotted])[:limit]
