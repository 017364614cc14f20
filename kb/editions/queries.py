"""The questions about editions that the facade answers: mappings between any two editions
of a ruleset, diffs, where one number went, and a rule's history.

Adjacent editions (by date) are matched directly; a mapping between editions further apart
is composed through the ones in between and compared with the two ends where the chain
loses a rule or the ends say otherwise (:func:`kb.editions.mapping.bridge`: a lossy import
or an excerpt between them broke the chain). A number carried one at a time
(:class:`FollowedMapping`: ``map``, citations) follows the chain and asks the bridged
mapping in just those cases, so a carried citation and the diff always agree. Mappings and diffs are derived data (:mod:`kb.derived`): computed on first use and kept for
the life of the build.
"""

from __future__ import annotations

import re
from typing import Any

from kb.derived import derived

from kb.editions.diff import diff_editions, display_text, number_translators, reworded, select, word_ops
from kb.editions.lineage import follow_numbers, history_rows, stored_history, stored_step
from kb.editions.mapping import (Counterpart, EditionMapping, bridge, compose, map_editions, no_counterpart_status,
                                 same_wording)
from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.inputs import date_problem
from kb.loaded import LoadedEditions
from kb.numbers import try_parse_number
from kb.objects import StoredMapping
from kb.store import stored_mapping, stored_mapping_path

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ONLY = ("added", "removed", "changed", "moved", "unchanged")


def resolve_edition(kb: LoadedEditions, ruleset: str, edition: str | None = None,
                    date: str | None = None) -> RuleGraph:
    """One side of a comparison (``diff``'s and ``map``'s ``from``/``to``, documented as an
    edition name or a date): an edition by name, or the one in force on a date; a value that
    is not an edition's name but reads as a date (YYYY-MM-DD) means the edition in force
    then. An ``edition`` parameter is read by :func:`named_edition` instead."""
    if edition and (ruleset, edition) not in kb.graphs and _DATE.match(edition) and not date:
        return kb.edition(ruleset, date=edition)
    if date is not None and (why := date_problem(date)):
        raise QueryError(400, f"{date[:40]!r} is {why}", {"date": date[:40]})
    return kb.edition(ruleset, edition, date)


def named_edition(kb: LoadedEditions, ruleset: str, edition: str | None = None,
                  date: str | None = None) -> RuleGraph:
    """The edition an ``edition`` and a ``date`` parameter ask for, read the same on every
    route and command: ``edition`` is an edition's name only (a date given there is refused,
    404 naming the edition in force on it and saying to ask by date:
    :meth:`~kb.loaded.LoadedEditions.edition`); ``date`` alone is the edition in force on it
    (400 for a malformed date); both: the named edition must be the one in force on the date
    (404 naming the one that was); neither: the default, the newest full edition."""
    if date is not None and (why := date_problem(date)):
        raise QueryError(400, f"{date[:40]!r} is {why}", {"date": date[:40]})
    rg = kb.edition(ruleset, edition, None if edition else date)
    if edition and date:
        in_force = kb.edition(ruleset, None, date)
        if in_force is not rg:
            raise QueryError(404, f"edition {edition} of {ruleset} was not in force on {date}",
                             {"edition": edition, "date": date, "in_force": in_force.edition.name})
    return rg


def _order(kb: LoadedEditions, ruleset: str) -> list[str]:
    return [e["edition"] for e in kb.editions(ruleset)]


def _walk(order: list[str], source: str, target: str) -> tuple[bool, list[tuple[str, str]]]:
    """The neighbouring editions passed from ``source`` to ``target``, each pair (older,
    newer) in the order walked, and whether the walk goes forward (to newer editions)."""
    i, k = order.index(source), order.index(target)
    if k > i:
        return True, [(order[x], order[x + 1]) for x in range(i, k)]
    return False, [(order[x - 1], order[x]) for x in range(i, k, -1)]


@derived
def adjacent_mapping(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> EditionMapping:
    """The mapping between two editions that follow each other: read from the build, which
    stores it (:mod:`kb.store`), else computed; once per build either way."""
    stored = stored_mapping(kb.build_dir, ruleset, older, newer)
    if stored is not None:
        return stored
    return map_editions(kb.graphs[(ruleset, older)], kb.graphs[(ruleset, newer)])


def edition_mapping(kb: LoadedEditions, ruleset: str, source: str, target: str) -> EditionMapping:
    """The mapping from any edition of a ruleset to any other: composed through the editions
    in between (backwards when ``target`` is older), bridged where that chain loses a rule or
    the two editions disagree with it (:func:`kb.editions.mapping.bridge`)."""
    order = _order(kb, ruleset)
    for name in (source, target):
        if name not in order:
            raise QueryError(404, f"unknown edition {name!r} of {ruleset}", {"editions": order})
    i, k = order.index(source), order.index(target)
    if i == k:
        raise QueryError(400, "the two editions are the same", {"edition": source})

    if abs(k - i) == 1 and k > i:
        return adjacent_mapping(kb, ruleset, source, target)
    # The steps to compute are made first: a derived value's lock is held while it is made.
    # A step the build stored is read inside the composition and let go after it.
    for older, newer in _walk(order, source, target)[1]:
        if not mapping_is_stored(kb, ruleset, older, newer):
            adjacent_mapping(kb, ruleset, older, newer)
    chain = _chain_mapping(kb, ruleset, source, target)
    if abs(k - i) == 1:
        return chain  # one step read backwards: the two editions' own mapping
    return _bridged_mapping(kb, ruleset, source, target)


@derived
def _bridged_mapping(kb: LoadedEditions, ruleset: str, source: str, target: str) -> EditionMapping:
    """The chain between two editions that are not neighbours, compared with the two
    editions themselves where it loses a rule or they disagree with it (:func:`bridge`)."""
    return bridge(_chain_mapping(kb, ruleset, source, target),
                  kb.graphs[(ruleset, source)], kb.graphs[(ruleset, target)])


@derived
def _chain_mapping(kb: LoadedEditions, ruleset: str, source: str, target: str) -> EditionMapping:
    """The adjacent mappings from ``source`` to ``target`` composed (inverted backwards).

    Only the composition is kept: a step the build stored is read from its file for it and
    not held (a diff from 2003 to 2026 kept 71 whole Magic mappings in memory, 66 MB, for
    the build's life)."""
    forward, pairs = _walk(_order(kb, ruleset), source, target)
    result: EditionMapping | None = None
    for older, newer in pairs:
        m = _whole_step(kb, ruleset, older, newer)
        m = m if forward else m.inverse()
        result = m if result is None else result.then(m)
    assert result is not None
    return result


def _whole_step(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> EditionMapping:
    """One adjacent mapping whole, to compose: the one in memory when it is made, else the
    build's stored file read for this use only, else made (and kept) from the graphs."""
    if not adjacent_mapping.is_held(kb, ruleset, older, newer):
        stored = stored_mapping(kb.build_dir, ruleset, older, newer)
        if stored is not None:
            return stored
    return adjacent_mapping(kb, ruleset, older, newer)


def diff(kb: LoadedEditions, ruleset: str, from_edition: str, to_edition: str, *,
         only: list[str] | None = None, chapter: str | None = None, unchanged: bool = False,
         limit: int | None = None, offset: int = 0) -> dict[str, Any]:
    """The rule-by-rule diff between two editions (see :mod:`kb.editions.diff`), its entries
    filtered by status (``only``) and chapter, and paged with ``offset``/``limit``."""
    old = resolve_edition(kb, ruleset, from_edition)
    new = resolve_edition(kb, ruleset, to_edition)
    for value in only or []:
        if value not in ONLY:
            raise QueryError(400, f"unknown status {value!r}", {"statuses": list(ONLY)})
    if limit is not None and limit < 0 or offset < 0:
        raise QueryError(400, "limit and offset must not be negative", {"limit": limit, "offset": offset})
    if chapter is not None:
        chapter = _heading(kb, old, new, chapter)
    a, b = old.edition.name, new.edition.name
    mapping = edition_mapping(kb, ruleset, a, b)
    full = _full_diff(kb, ruleset, a, b)
    entries = select(full, only=only, chapter=chapter, old=old, new=new, mapping=mapping,
                     unchanged=unchanged)
    total = len(entries)
    entries = entries[offset:offset + limit if limit is not None else None]
    out = {k: v for k, v in full.items() if k != "entries"}
    out.update({"filter": {"only": only or [], "chapter": chapter, "unchanged": unchanged},
                "total": total, "offset": offset, "entries": entries})
    return out


@derived
def _full_diff(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> dict[str, Any]:
    """Every entry of the diff between two editions, unfiltered (once per build)."""
    return diff_editions(kb.graphs[(ruleset, older)], kb.graphs[(ruleset, newer)],
                         edition_mapping(kb, ruleset, older, newer))


def _heading(kb: LoadedEditions, old: RuleGraph, new: RuleGraph, number: str) -> str:
    """The canonical number of a chapter or heading in the newer edition (else the older)."""
    segs = try_parse_number(number)
    if segs is None:
        raise QueryError(400, f"not a rule number: {number[:40]!r}", {"chapter": number[:40]})
    found = new.find(segs) or old.find(segs)
    if found is None:
        raise QueryError(404, f"no chapter {number} in either edition", {"chapter": number})
    return found


def map_number(kb: LoadedEditions, ruleset: str, number: str, from_edition: str,
               to_edition: str) -> dict[str, Any]:
    """Where a rule of one edition is in another: the target number or None, a status
    (``same``, ``renumbered``; without a counterpart, ``removed`` asked of a later edition,
    ``added`` asked of an earlier one, which the rule came after, and ``unknown`` when the
    target edition is an excerpt), a confidence, whether the wording changed, and the nearest
    ancestor's counterpart when the rule itself has none."""
    old = resolve_edition(kb, ruleset, from_edition)
    new = resolve_edition(kb, ruleset, to_edition)
    canonical = kb.find_rule(old, number)
    out: dict[str, Any] = {"ruleset": ruleset, "number": canonical, "from": old.edition.name,
                           "to": new.edition.name}
    if old.edition.name == new.edition.name:
        out.update({"target": canonical, "status": "same", "confidence": 1.0, "reworded": False,
                    "path": [], "nearest_target": None})
        return out
    mapping = FollowedMapping(kb, ruleset, old.edition.name, new.edition.name)
    c = mapping.get(canonical)
    assert c is not None
    out["path"] = _path(kb, ruleset, canonical, old.edition.name, new.edition.name)
    if c.target is None:
        out.update({"target": None, "status": no_counterpart_status(new.edition.partial, _earlier(kb, new, old)),
                    "confidence": c.confidence, "reworded": None,
                    "nearest_target": _nearest_target(old, mapping, canonical)})
        return out
    from_old, from_new = number_translators(old, new, mapping)
    ops = word_ops(display_text(old.rule(canonical)), display_text(new.rule(c.target)), from_old, from_new)
    out.update({"target": c.target, "status": "same" if c.target == canonical else "renumbered",
                "confidence": c.confidence, "reworded": reworded(ops), "nearest_target": None})
    return out


def _earlier(kb: LoadedEditions, one: RuleGraph, other: RuleGraph) -> bool:
    """True when ``one`` comes before ``other`` in its ruleset's editions (oldest first)."""
    order = [e["edition"] for e in kb.editions(one.edition.ruleset)]
    return order.index(one.edition.name) < order.index(other.edition.name)


class FollowedMapping:
    """The mapping from one edition to another read a number at a time: ``get`` gives the
    counterpart :func:`edition_mapping`'s ``get`` gives, by following the adjacent mappings in between
    (where the bridge pairs a rule both ends hold at one number with one wording, ``kept``, the
    chain's pair says ``composed`` with the chain's confidence: the same counterpart),
    without composing whole mappings (carrying a few numbers across seventy editions costs
    lookups, not seventy compositions of thousands of rules); only a number the chain loses,
    or one the two ends hold otherwise, asks the bridged mapping (made once per build)."""

    def __init__(self, kb: LoadedEditions, ruleset: str, source: str, target: str):
        forward, pairs = _walk(_order(kb, ruleset), source, target)
        steps = [_step(kb, ruleset, older, newer) for older, newer in pairs]
        self._steps = [m.get if forward else m.back for m in steps]
        self._kb, self._ruleset, self._source, self._target = kb, ruleset, source, target

    def get(self, number: str) -> Counterpart | None:
        """The counterpart of a source number in the target edition (None when the number is
        not in the source)."""
        first, *rest = self._steps
        c = first(number)
        for step in rest:
            if c is None:
                return None
            c = compose(c, step(c.target) if c.target is not None else None)
        if c is not None and rest and not self._chain_stands(c):
            return edition_mapping(self._kb, self._ruleset, self._source, self._target).get(number)
        return c

    def _chain_stands(self, c: Counterpart) -> bool:
        """Whether the chain's answer is the one :func:`bridge` gives, so that no whole
        mapping is needed: the chain found a counterpart, and neither the rule's own number
        nor its counterpart's is a rule both ends keep with the same wording (the bridge
        pairs those first)."""
        if c.target is None:
            return False
        if c.target == c.number:
            return True
        graphs = self._kb.graphs
        old, new = graphs[(self._ruleset, self._source)], graphs[(self._ruleset, self._target)]
        return not any(same_wording(old.edition.rules.get(n), new.edition.rules.get(n)) for n in (c.number, c.target))


def mapping_is_stored(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> bool:
    """Whether the build stores the mapping between two neighbouring editions, so that
    following numbers through it reads them one at a time (no whole mapping in memory)."""
    return kb.build_dir is not None and stored_mapping_path(kb.build_dir, ruleset, older, newer).is_file()


def _step(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> EditionMapping | StoredMapping:
    """One adjacent mapping to follow numbers through: in memory when it is already made,
    else read a number at a time from the build's stored file (no whole mapping read)."""
    if not adjacent_mapping.is_held(kb, ruleset, older, newer) and mapping_is_stored(kb, ruleset, older, newer):
        return stored_step(kb, ruleset, older, newer)
    return adjacent_mapping(kb, ruleset, older, newer)


def _nearest_target(rg: RuleGraph, mapping: EditionMapping | FollowedMapping, number: str) -> dict[str, str] | None:
    for ancestor in reversed(rg.ancestors(number)):
        c = mapping.get(ancestor)
        if c is not None and c.target is not None:
            return {"number": ancestor, "target": c.target}
    return None


def _path(kb: LoadedEditions, ruleset: str, number: str, source: str, target: str) -> list[dict[str, Any]]:
    """The number in each edition passed through on the way (None once it is gone)."""
    forward, pairs = _walk(_order(kb, ruleset), source, target)
    out: list[dict[str, Any]] = []
    current: str | None = number
    for older, newer in pairs:
        if current is None:
            c = None
        else:  # a number at a time: seventy steps read no whole mapping (FollowedMapping)
            step = _step(kb, ruleset, older, newer)
            c = step.get(current) if forward else step.back(current)
        current = c.target if c else None
        out.append({"edition": newer if forward else older, "number": current, "confidence": c.confidence if c else None})
    return out


def history(kb: LoadedEditions, ruleset: str, number: str, edition: str | None = None,
            date: str | None = None, *, limit: int | None = None, offset: int = 0) -> dict[str, Any]:
    """In which editions a rule exists, under which numbers and with what wording.

    The rule is named in one edition (by default the newest full edition that has the number,
    else the newest excerpt that has it);
    it is followed backwards and forwards through the adjacent mappings. Each edition's
    entry has a ``status`` relative to the rule's previous appearance: ``present`` (the
    oldest edition), ``added``, ``unchanged``, ``changed`` (same number, new wording),
    ``moved`` (new number; ``reworded`` says whether the wording changed too), ``removed``,
    ``absent`` (not yet in the rules) or ``unknown`` (an excerpt that lacks it).

    The entries, oldest first, are paged with ``offset``/``limit`` (``total`` counts them
    all): each entry's status is still said against the rule's previous appearance, on
    this page or an earlier one, so the pages joined are the whole history.
    """
    if limit is not None and limit < 0 or offset < 0:
        raise QueryError(400, "limit and offset must not be negative", {"limit": limit, "offset": offset})
    found = _history(kb, ruleset, number, edition, date)
    rows = found["editions"]
    return {**found, "total": len(rows), "offset": offset,
            "editions": rows[offset:offset + limit if limit is not None else None]}


def _history(kb: LoadedEditions, ruleset: str, number: str, edition: str | None,
             date: str | None) -> dict[str, Any]:
    """Every entry of a rule's history (:func:`history`, unpaged)."""
    order = _order(kb, ruleset)
    named = named_edition(kb, ruleset, edition, date) if edition or date else None
    # A build stores every edition's rule texts and neighbours' mappings: read them there
    # rather than loading every graph (kb.editions.lineage gives the same answer).
    def between(older: str, newer: str) -> FollowedMapping:
        return FollowedMapping(kb, ruleset, older, newer)

    stored = stored_history(kb, ruleset, number, named.edition.name if named else None, between)
    if stored is not None:
        return stored
    start = named or _newest_with(kb, ruleset, number, order)
    canonical = kb.find_rule(start, number)

    def step_at(x: int) -> EditionMapping:
        return adjacent_mapping(kb, ruleset, order[x], order[x + 1])

    def edition_at(x: int) -> tuple[str, str, bool, RuleGraph]:
        rg = kb.graphs[(ruleset, order[x])]
        return order[x], rg.edition.date, rg.edition.partial, rg

    def kept_at(x: int, y: int, n: str) -> bool:
        return same_wording(kb.graphs[(ruleset, order[x])].edition.rules.get(n),
                            kb.graphs[(ruleset, order[y])].edition.rules.get(n))

    numbers = follow_numbers(len(order), order.index(start.edition.name), canonical, step_at, kept_at)
    rows = history_rows(len(order), edition_at, numbers, lambda rg, n: rg.rule(n), step_at,
                        lambda x, y: between(order[x], order[y]))
    return {"ruleset": ruleset, "number": canonical, "edition": start.edition.name, "editions": rows}


def _newest_with(kb: LoadedEditions, ruleset: str, number: str, order: list[str]) -> RuleGraph:
    """The newest full edition holding the number, else the newest excerpt holding it (an
    excerpt is passed over as the default is: :func:`kb.loaded.preferring_full`); the
    default edition when none does, so the error names the nearest numbers there."""
    segs = try_parse_number(number)
    if segs is not None:
        # newest first, the full editions before the excerpts (as the manifest says: none loaded yet)
        for e in sorted(reversed(kb.editions(ruleset)), key=lambda e: bool(e.get("partial"))):
            rg = kb.graphs[(ruleset, e["edition"])]
            if rg.find(segs) is not None:
                return rg
    return kb.edition(ruleset)
