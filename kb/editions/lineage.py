"""A rule's history read from what the build stored, without loading the editions' graphs.

A build stores every edition's rule texts and the mapping between each pair of neighbouring
editions (:mod:`kb.store`, :mod:`kb.objects`). Following one rule through seventy editions
then needs one indexed lookup per edition and per step, not seventy graphs in memory, so
:func:`stored_history` answers exactly what :func:`kb.editions.queries.history` answers
from the graphs (the same rows, statuses and word-level changes), in milliseconds.
It answers None when the build holds no stored texts (a knowledge base held in memory, or
a build of an older format) or when the rule is not found, so the caller asks the graphs
(and reports the nearest numbers).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from kb.derived import derived
from kb.editions.diff import chapter_counts, display_text, number_translators, select, summarise, wording_change
from kb.editions.mapping import same_wording
from kb.errors import QueryError
from kb.loaded import LoadedEditions
from kb.numbers import try_parse_number
from kb.objects import StoredMapping, StoredRules
from kb.store import stored_changes_path, stored_mapping_path, stored_rules_path


def stored_history(kb: LoadedEditions, ruleset: str, number: str, start: str | None = None,
                   between: Callable[[str, str], Any] | None = None) -> dict[str, Any] | None:
    """The history of ``number`` named in edition ``start`` (default: the newest full edition
    holding it, else the newest excerpt holding it), as :func:`kb.editions.queries.history`
    gives it; None when the build did
    not store what it needs or the number is not a rule there."""
    build = kb.build_dir
    segments = try_parse_number(number)
    if build is None or segments is None:
        return None
    eds = kb.editions(ruleset)
    order = [e["edition"] for e in eds]
    rule_files = [stored_rules_path(build, ruleset, name) for name in order]
    map_files = [stored_mapping_path(build, ruleset, a, b) for a, b in zip(order, order[1:])]
    if not all(p.is_file() for p in (*rule_files, *map_files)):
        return None
    # The stored files stay open for the build's life (one connection each).
    texts = [stored_rules(kb, ruleset, name) for name in order]
    maps = [stored_step(kb, ruleset, a, b) for a, b in zip(order, order[1:])]
    if start is None:  # the newest full edition holding it, else the newest excerpt holding it
        newest_first = sorted(reversed(range(len(order))), key=lambda i: bool(eds[i].get("partial")))
        idx = next((i for i in newest_first if texts[i].find(segments)), None)
    else:
        idx = order.index(start)
    canonical = texts[idx].find(segments) if idx is not None else None
    if idx is None or canonical is None:
        return None

    def rule_of(stored: StoredRules, n: str) -> Any:
        rule = stored.rule(n)
        return SimpleNamespace(**rule) if rule is not None else None

    def kept_at(x: int, y: int, n: str) -> bool:
        return same_wording(rule_of(texts[x], n), rule_of(texts[y], n))

    numbers = follow_numbers(len(order), idx, canonical, maps.__getitem__, kept_at)

    def edition_at(x: int) -> tuple[str, str, bool, StoredRules]:
        e = eds[x]
        return e["edition"], e["date"], e["partial"], texts[x]

    rows = history_rows(len(order), edition_at, numbers, rule_of, maps.__getitem__,
                        (lambda x, y: between(order[x], order[y])) if between else None)
    return {"ruleset": ruleset, "number": canonical, "edition": order[idx], "editions": rows}


def follow_numbers(count: int, idx: int, number: str, step_at: Callable[[int], Any],
                   kept_at: Callable[[int, int, str], bool] | None = None) -> list[str | None]:
    """The number of the rule numbered ``number`` in edition ``idx`` in each of ``count``
    editions (None where it is not), followed back and forth through ``step_at(x)``, the
    mapping from edition ``x`` to the next.

    An edition that lacks the rule (an excerpt, a lossy import, a rule dropped and restored)
    is stepped over when the edition past it holds the rule at the same number with the
    same wording (``kept_at(x, y, number)``), as the diff of the two does
    (:func:`kb.editions.mapping.bridge`); otherwise the rule is gone from there on."""
    numbers: list[str | None] = [None] * count
    numbers[idx] = number
    x = idx
    while x > 0 and (current := numbers[x]) is not None:
        numbers[x - 1] = step_at(x - 1).origin(current)
        if numbers[x - 1] is None and kept_at is not None and x >= 2 and kept_at(x - 2, x, current):
            numbers[x - 2] = current
            x -= 2
        else:
            x -= 1
    x = idx
    while x < count - 1 and (current := numbers[x]) is not None:
        c = step_at(x).get(current)
        numbers[x + 1] = c.target if c else None
        if numbers[x + 1] is None and kept_at is not None and x + 2 < count and kept_at(x, x + 2, current):
            numbers[x + 2] = current
            x += 2
        else:
            x += 1
    return numbers


def history_rows(count: int, edition_at: Callable[[int], tuple[str, str, bool, Any]],
                 numbers: list[str | None], rule_of: Callable[[Any, str], Any],
                 step_at: Callable[[int], Any],
                 between: Callable[[int, int], Any] | None = None) -> list[dict[str, Any]]:
    """The rows of a rule's history, one per edition (both :func:`stored_history` and
    :func:`kb.editions.queries.history` answer with them): ``edition_at(x)`` gives edition
    ``x``'s name, date, partial flag and its rules (a graph or its stored texts),
    ``numbers[x]`` the rule's number there (None: not there), ``rule_of(rules, n)`` the rule
    (kind, title, label, text, examples; None when absent) and ``step_at(x)`` the mapping from
    edition ``x`` to the next. A rule found again past an edition that lacked it
    (:func:`follow_numbers`) is said against its last appearance, through ``between(x, y)``,
    the mapping between those two editions."""
    rows: list[dict[str, Any]] = []
    previous: tuple[int, str, Any, Any] | None = None
    last: tuple[int, str, Any, Any] | None = None  # the rule's last appearance, across a gap
    for x in range(count):
        name, date, partial, rules = edition_at(x)
        n = numbers[x]
        row: dict[str, Any] = {"edition": name, "date": date, "partial": partial, "number": n}
        rule = rule_of(rules, n) if n is not None else None
        if rule is None:
            # an excerpt that lacks the rule says nothing about whether it was removed
            row["status"] = "unknown" if partial else "removed" if previous is not None else "absent"
            previous = None
            rows.append(row)
            continue
        row.update({"kind": rule.kind, "title": rule.label, "text": rule.text, "examples": rule.examples})
        if previous is None and last is not None and between is not None:
            previous = last  # found again past an edition that lacked it
        if previous is None:
            row.update({"status": "added" if rows else "present", "renumbered": False,
                        "reworded": False, "ops": None, "confidence": None})
        else:
            px, pn, prules, prule = previous
            mapping = step_at(px) if x == px + 1 or between is None else between(px, x)
            from_old, from_new = number_translators(prules, rules, mapping)
            ops = wording_change(display_text(prule), display_text(rule), from_old, from_new)
            changed = ops is not None
            c = mapping.get(pn)
            row.update({"status": "moved" if pn != n else "changed" if changed else "unchanged",
                        "renumbered": pn != n, "reworded": changed, "previous_number": pn,
                        "ops": ops, "confidence": c.confidence if c else None})
        previous = last = (x, n, rules, rule)  # type: ignore[assignment]
        rows.append(row)
    return rows


@derived
def stored_rules(kb: LoadedEditions, ruleset: str, edition: str) -> StoredRules:
    """One edition's stored rule texts, opened once per build."""
    assert kb.build_dir is not None
    return StoredRules(stored_rules_path(kb.build_dir, ruleset, edition))


@derived
def stored_step(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> StoredMapping:
    """The stored mapping between two neighbouring editions, opened once per build."""
    assert kb.build_dir is not None
    return StoredMapping(stored_mapping_path(kb.build_dir, ruleset, older, newer))


def stored_changes(kb: LoadedEditions, ruleset: str, older: str, newer: str,
                   chapter: str | None = None) -> list[dict[str, Any]] | None:
    """What changed between two neighbouring editions, as the build stored it: the entries
    of their diff (:func:`kb.editions.queries.diff`) but the unchanged ones, in the same
    order, only those under ``chapter`` (a chapter or heading, read in the newer edition
    where it is there) when given; no graph is loaded. None when the build stored none
    (then ask the diff); QueryError 404 when neither edition has the chapter."""
    build = kb.build_dir
    if build is None or not stored_changes_path(build, ruleset, older, newer).is_file():
        return None
    entries: list[dict[str, Any]] = json.loads(
        stored_changes_path(build, ruleset, older, newer).read_text(encoding="utf-8"))
    if chapter is None:
        return entries
    old, new = _StoredTree(stored_rules(kb, ruleset, older)), _StoredTree(stored_rules(kb, ruleset, newer))
    found = _find_chapter(kb, ruleset, older, newer, chapter)
    return select({"entries": entries}, chapter=found, old=old, new=new,  # type: ignore[arg-type]
                  mapping=stored_step(kb, ruleset, older, newer))  # type: ignore[arg-type]


class _StoredTree:
    """A stored edition's hierarchy read as :func:`kb.editions.diff.select` reads a graph's:
    whether it holds a number (``edition.rules``) and a number's ancestors."""

    def __init__(self, stored: StoredRules):
        self.stored = stored
        self.edition = SimpleNamespace(rules=self)

    def __contains__(self, number: object) -> bool:
        return isinstance(number, str) and self.stored.rule(number) is not None

    def ancestors(self, number: str) -> list[str]:
        """Breadcrumbs from the chapter down to the rule's parent (as RuleGraph.ancestors)."""
        out = []
        parent = self.stored.parent(number)
        while parent is not None:
            out.append(parent)
            parent = self.stored.parent(parent)
        return out[::-1]


@derived
def stored_outline(kb: LoadedEditions, ruleset: str, edition: str) -> dict[str, tuple[str | None, str, str]]:
    """One stored edition's numbered nodes in document order: number -> (parent, kind,
    label), read once per build (no texts, no graph)."""
    return {n: (parent, kind, label) for n, parent, kind, label in stored_rules(kb, ruleset, edition).outline()}


@derived
def stored_targets(kb: LoadedEditions, ruleset: str, older: str, newer: str) -> dict[str, str | None]:
    """The stored mapping between two neighbouring editions read whole: every number of
    the older with its number in the newer (None: no counterpart), in the older's order."""
    return dict(stored_step(kb, ruleset, older, newer).targets())


def stored_comparison(kb: LoadedEditions, ruleset: str, older: str, newer: str,
                      chapter: str | None = None) -> dict[str, Any] | None:
    """The diff between two neighbouring editions with its unchanged rules, as the compare
    page reads it, from what the build stored: the step's changes, both editions' outlines
    and the mapping (no graph loaded, no word diff made).

    ``summary`` and ``chapters`` are the diff's counts (:func:`kb.editions.diff.diff_editions`);
    ``entries`` are its entries in its order, only those under ``chapter`` when given, each
    change as the build stored it and each unchanged rule as its status, kind, numbers and
    chapters only (no texts). None when the build stored none of it (then ask the diff);
    QueryError 404 when neither edition has the chapter."""
    changes = stored_changes(kb, ruleset, older, newer)
    build = kb.build_dir
    if changes is None or build is None or not all(
            stored_rules_path(build, ruleset, e).is_file() for e in (older, newer)):
        return None
    old_rules, new_rules = stored_outline(kb, ruleset, older), stored_outline(kb, ruleset, newer)
    targets = stored_targets(kb, ruleset, older, newer)
    old_tree, new_tree = _OutlineTree(old_rules), _OutlineTree(new_rules)
    changed = {e["new_number"]: e for e in changes if e["new_number"] is not None}
    removed = {e["old_number"]: e for e in changes if e["new_number"] is None}
    # a removed rule follows the newer counterpart of the last older rule kept before it
    # (as diff_editions places it)
    removed_after: dict[str | None, list[dict[str, Any]]] = {}
    last_kept: str | None = None
    for number in old_rules:
        target = targets.get(number)
        if target is None or target not in new_rules:
            removed_after.setdefault(last_kept, []).append(removed[number])
        else:
            last_kept = target
    entries: list[dict[str, Any]] = list(removed_after.get(None, []))
    for number, (_, kind, _) in new_rules.items():
        entry = changed.get(number)
        if entry is None:  # neither added nor moved nor reworded: kept as it was
            entry = {"status": "unchanged", "kind": kind, "old_number": number, "new_number": number,
                     "old_chapter": old_tree.chapter_of(number), "new_chapter": new_tree.chapter_of(number),
                     "reworded": False, "renumbered": False}
        entries.append(entry)
        entries.extend(removed_after.get(number, []))
    eds = {e["edition"]: e for e in kb.editions(ruleset)}
    info = {name: {k: eds[name].get(k) for k in ("edition", "date", "title", "partial")} for name in (older, newer)}
    out = {"ruleset": ruleset, "from": info[older], "to": info[newer],
           "summary": summarise(entries, len(old_rules), len(new_rules)),
           "chapters": _step_chapters(entries, old_rules, new_rules, targets, newer, older),
           "entries": entries}
    if chapter is not None:
        found = _find_chapter(kb, ruleset, older, newer, chapter)
        out["entries"] = select({"entries": entries}, chapter=found, unchanged=True,  # type: ignore[arg-type]
                                old=old_tree, new=new_tree,  # type: ignore[arg-type]
                                mapping=stored_step(kb, ruleset, older, newer))  # type: ignore[arg-type]
    return out


def _find_chapter(kb: LoadedEditions, ruleset: str, older: str, newer: str, chapter: str) -> str:
    """A chapter or heading's number as stored, read in the newer edition where it is there,
    else in the older; QueryError 400 when it is no rule number, 404 when neither has it."""
    segments = try_parse_number(chapter)
    if segments is None:
        raise QueryError(400, f"not a rule number: {chapter[:40]!r}", {"chapter": chapter[:40]})
    found = stored_rules(kb, ruleset, newer).find(segments) or stored_rules(kb, ruleset, older).find(segments)
    if found is None:
        raise QueryError(404, f"no chapter {chapter} in either edition", {"chapter": chapter})
    return found


def _step_chapters(entries: list[dict[str, Any]], old_rules: dict[str, tuple[str | None, str, str]],
                   new_rules: dict[str, tuple[str | None, str, str]], targets: dict[str, str | None],
                   newer: str, older: str) -> list[dict[str, Any]]:
    """Counts per chapter of the newer edition, as :func:`kb.editions.diff.diff_editions`
    counts them, from the two editions' stored outlines."""
    return chapter_counts(entries, targets.get,
                          lambda side, number: (new_rules if side == "new" else old_rules)[number][2],
                          {n: i for i, n in enumerate(new_rules)}, newer, older)


class _OutlineTree:
    """A stored edition's outline read as :func:`kb.editions.diff.select` reads a graph:
    whether it holds a number (``edition.rules``), a number's ancestors and its chapter."""

    def __init__(self, outline: dict[str, tuple[str | None, str, str]]):
        self.outline = outline
        self.edition = SimpleNamespace(rules=outline)

    def ancestors(self, number: str) -> list[str]:
        """Breadcrumbs from the chapter down to the rule's parent (as RuleGraph.ancestors)."""
        out = []
        parent = self.outline[number][0] if number in self.outline else None
        while parent is not None:
            out.append(parent)
            parent = self.outline[parent][0]
        return out[::-1]

    def chapter_of(self, number: str) -> str:
        """The outermost ancestor of a number, or the number itself at the top (as
        :func:`kb.editions.diff.chapter_of`)."""
        ancestors = self.ancestors(number)
        return ancestors[0] if ancestors else number
