"""The facade: every question the product answers, for the CLI, the API and the site.

A :class:`KnowledgeBase` is loaded once from a build and is read-only afterwards, so any
number of threads may share it. Answers are plain dicts (the response shapes the API
documents); failures raise :class:`QueryError`, which carries the one error shape.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.model import Rule, term_key
from kb.numbers import NumberError, format_number, parse_number
from kb.references import find_mentions
from kb.store import current_build, default_home, load_edition, reader_warnings


@dataclass
class KnowledgeBase:
    """All built editions, keyed by (ruleset, edition)."""

    build_dir: Path | None
    manifest: dict[str, Any]
    graphs: dict[tuple[str, str], RuleGraph] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)
    # Re-entrant: a derived structure may be built from another cached one.
    _lock: threading.RLock = field(default_factory=threading.RLock, repr=False)
    _key_locks: dict[str, threading.RLock] = field(default_factory=dict, repr=False)

    # -- loading ---------------------------------------------------------------
    @classmethod
    def open(cls, home: Path | None = None) -> KnowledgeBase:
        """Load the build in service. Raises QueryError(503) before the first build."""
        home = home or default_home()
        build = current_build(home)
        if build is None or not (build / "manifest.json").exists():
            raise QueryError(503, f"no knowledge base is built in {home}; run `rulekb build`")
        manifest = json.loads((build / "manifest.json").read_text(encoding="utf-8"))
        kb = cls(build, manifest)
        for ed in manifest["editions"]:
            kb.graphs[(ed["ruleset"], ed["edition"])] = load_edition(build, ed["ruleset"], ed["edition"])
        return kb

    @classmethod
    def from_graphs(cls, graphs: list[RuleGraph]) -> KnowledgeBase:
        """A knowledge base held in memory only (tests, tools)."""
        from kb.store import edition_summary
        manifest = {"build_id": "memory", "built": "", "rulesets": {},
                    "editions": [edition_summary(g) for g in graphs]}
        return cls(None, manifest, {(g.edition.ruleset, g.edition.name): g for g in graphs})

    @property
    def build_id(self) -> str:
        return str(self.manifest.get("build_id", ""))

    def cached(self, key: str, make: Any) -> Any:
        """Memoise a derived structure (a searcher, a diff) for the life of this build."""
        try:
            return self._cache[key]
        except KeyError:
            pass
        # One lock per key: a slow build (a diff, a searcher) never blocks other keys, and
        # building one value may ask for another without deadlocking.
        with self._lock:
            key_lock = self._key_locks.setdefault(key, threading.RLock())
        try:
            with key_lock:
                if key not in self._cache:
                    self._cache[key] = make()
                return self._cache[key]
        finally:
            # The lock only serialises the first make of a key; once it is kept (or make
            # failed) it goes, so a miss (an unknown name, a failed lookup) keeps nothing.
            # A thread still waiting on it finds the value, or makes it again itself.
            with self._lock:
                if self._key_locks.get(key) is key_lock:
                    del self._key_locks[key]

    def warm(self) -> None:
        """Build what the first requests would otherwise wait for: the mappings between
        neighbouring editions (rule pages, history, citations), each edition's searcher and
        the timing models."""
        for _, step in self.warm_steps():
            step()

    def warm_steps(self) -> list[tuple[str, Callable[[], Any]]]:
        """What :meth:`warm` does, one named step at a time (a server reports what is left)."""
        steps: list[tuple[str, Callable[[], Any]]] = []
        for ruleset in sorted({r for r, _ in self.graphs}):
            eds = [e["edition"] for e in self.editions(ruleset)]
            for old, new in zip(eds, eds[1:]):
                steps.append((f"mapping {ruleset} {old} -> {new}",
                              functools.partial(self.edition_mapping, ruleset, old, new)))
            for ed in eds:
                steps.append((f"searcher {ruleset} {ed}",
                              functools.partial(self.search, "rule", ruleset, ed, limit=1)))
                rg = self.edition(ruleset, ed)
                # The first rule's transitions build the edition's timing model.
                steps.append((f"timing model {ruleset} {ed}", functools.partial(
                    self.transitions_for, rg, next(iter(rg.edition.rules)))))
        return steps

    # -- rulesets and editions -------------------------------------------------
    def rulesets(self) -> list[dict[str, Any]]:
        names = sorted({r for r, _ in self.graphs})
        titles = self.manifest.get("rulesets", {})
        return [{"name": n, "title": titles.get(n, {}).get("title", n),
                 "editions": [e["edition"] for e in self.editions(n)]} for n in names]

    def editions(self, ruleset: str) -> list[dict[str, Any]]:
        """Editions of a ruleset, oldest first, with date, counts and partial flag."""
        found = [e for e in self.manifest["editions"] if e["ruleset"] == ruleset]
        if not found:
            raise QueryError(404, f"unknown ruleset {ruleset!r}",
                             {"rulesets": sorted({r for r, _ in self.graphs})})
        return sorted(found, key=lambda e: (e["date"], e["edition"]))

    def edition(self, ruleset: str, edition: str | None = None, date: str | None = None) -> RuleGraph:
        """One edition: by name, or the one in force on ``date``, or the newest."""
        eds = self.editions(ruleset)
        if edition:
            if (ruleset, edition) not in self.graphs:
                raise QueryError(404, f"unknown edition {edition!r} of {ruleset}",
                                 {"editions": [e["edition"] for e in eds]})
            return self.graphs[(ruleset, edition)]
        if date:
            in_force = [e for e in eds if e["date"] and e["date"] <= date]
            if not in_force:
                raise QueryError(404, f"no edition of {ruleset} was in force on {date}",
                                 {"editions": [{"edition": e["edition"], "date": e["date"]} for e in eds]})
            return self.graphs[(ruleset, in_force[-1]["edition"])]
        return self.graphs[(ruleset, eds[-1]["edition"])]

    def default_ruleset(self) -> str:
        names = sorted({r for r, _ in self.graphs})
        if not names:
            raise QueryError(503, "the knowledge base holds no editions")
        return "riftbound" if "riftbound" in names else names[0]

    # -- rules -------------------------------------------------------------------
    def find_rule(self, rg: RuleGraph, number: str) -> str:
        """Canonical number of a loosely written one, or QueryError 400/404 with the nearest."""
        try:
            segments = parse_number(number)
        except NumberError as exc:
            raise QueryError(400, str(exc), {"number": number[:64]}) from exc
        found = rg.find(segments)
        if found is None:
            wanted = format_number(segments, rg.edition.number_style)
            raise QueryError(404, f"rule {wanted} does not exist in {rg.edition.ruleset} {rg.edition.name}",
                             {"number": wanted, "nearest": rg.nearest(segments),
                              "edition": rg.edition.name, "partial": rg.edition.partial})
        return found

    def rule(self, ruleset: str, number: str, edition: str | None = None,
             subrules: bool = False, date: str | None = None) -> dict[str, Any]:
        """A rule with breadcrumbs, children, neighbours, references both ways and terms."""
        rg = self.edition(ruleset, edition, date)
        canonical = self.find_rule(rg, number)
        out = self.rule_summary(rg, canonical, full=True)
        prev, nxt = rg.previous_next(canonical)
        out.update({
            "ancestors": [self.rule_summary(rg, n) for n in rg.ancestors(canonical)],
            "children": [self.rule_summary(rg, n) for n in rg.rule(canonical).children],
            "previous": self.rule_summary(rg, prev) if prev else None,
            "next": self.rule_summary(rg, nxt) if nxt else None,
            "references": [self.rule_summary(rg, n) for n in rg.references(canonical)],
            "referenced_by": [self.rule_summary(rg, n) for n in rg.referenced_by(canonical)],
            "terms": [self.term_summary(rg, k) for k in rg.terms_used(canonical)],
            "transitions": self.transitions_for(rg, canonical),
        })
        if subrules:
            out["subrules"] = [self.rule_summary(rg, n, full=True) for n in rg.subtree(canonical)][1:]
        return out

    def rule_summary(self, rg: RuleGraph, number: str, full: bool = False) -> dict[str, Any]:
        r: Rule = rg.rule(number)
        out: dict[str, Any] = {"ruleset": rg.edition.ruleset, "edition": rg.edition.name,
                               "number": number, "kind": r.kind, "title": r.label}
        if full:
            out.update({"text": r.text, "examples": r.examples, "line": r.line,
                        "parent": r.parent, "depth": len(rg.ancestors(number))})
        return out

    def transitions_for(self, rg: RuleGraph, number: str) -> list[dict[str, Any]]:
        """Timing-model transitions, checks and invariants that cite this rule (name, model,
        kind, description, rules)."""
        from kb.timing.api import transitions_citing
        return transitions_citing(rg.edition.ruleset, rg.edition.name, number, self)

    # -- timing ------------------------------------------------------------------
    def timing_run(self, scenario: dict[str, Any], file: str = "") -> dict[str, Any]:
        """Run a timing scenario (parsed YAML): frames, expectations, ``ok``. QueryError 422
        for a malformed scenario (detail: file, step, field)."""
        from kb.timing.api import timing_run
        return timing_run(self, scenario, file)

    def timing_next(self, state: dict[str, Any], ruleset: str | None = None,
                    edition: str | None = None) -> dict[str, Any]:
        """What happens next from a state: automatic steps, then the decision with every legal
        option and the tempting illegal ones. QueryError 400 (malformed) or 422 (a state the
        rules cannot produce, with the rules it breaks)."""
        from kb.timing.api import timing_next
        return timing_next(self, state, ruleset, edition)

    def timing_check(self, ruleset: str | None = None, edition: str | None = None) -> dict[str, Any]:
        """The timing model's citations checked against an edition, and its coverage."""
        from kb.timing.api import timing_check
        return timing_check(self, ruleset, edition)

    def structure(self, ruleset: str, edition: str | None = None) -> list[dict[str, Any]]:
        """Every numbered node in document order: number, kind, title or first words, depth."""
        rg = self.edition(ruleset, edition)
        key = f"structure:{ruleset}:{rg.edition.name}"

        def make() -> list[dict[str, Any]]:
            depth: dict[str, int] = {}
            out = []
            for n, r in rg.edition.rules.items():
                depth[n] = depth[r.parent] + 1 if r.parent else 0
                out.append({"number": n, "kind": r.kind, "title": r.label, "depth": depth[n],
                            "parent": r.parent, "children": len(r.children)})
            return out
        return self.cached(key, make)

    def stats(self) -> list[dict[str, Any]]:
        """Per edition: rules, headings, references resolved/unresolved (listed), terms."""
        out = []
        for e in self.manifest["editions"]:
            rg = self.graphs[(e["ruleset"], e["edition"])]
            unresolved = [{"rule": r.source, "text": r.text, "line": r.line}
                          for r in rg.edition.references if not r.resolved]
            out.append({**e, "unresolved": unresolved, "diagnostics": reader_warnings(rg)})
        return out

    # -- search ------------------------------------------------------------------
    def search(self, query: str, ruleset: str | None = None, edition: str | None = None,
               limit: int = 10, offset: int = 0, section: str | None = None) -> dict[str, Any]:
        """Search an edition (the query language is in :mod:`kb.search.query`): numbers jump,
        defined terms come first, words rank by BM25F. QueryError 400 for a malformed query."""
        from kb.search import SearchError, open_searcher, parse_query
        try:
            parsed = parse_query(query)
            rg = self.edition(parsed.ruleset or ruleset or self.default_ruleset(),
                              parsed.edition or edition)
            searcher = self.cached(f"search:{rg.edition.ruleset}:{rg.edition.name}",
                                   lambda: open_searcher(rg, self.build_dir))
            return searcher.search(parsed, limit=limit, offset=offset,
                                   sections=[section] if section else None)
        except SearchError as exc:
            raise QueryError(exc.status, exc.message,
                             {"query": str(query)[:200], **exc.detail}) from exc

    # -- terms -------------------------------------------------------------------
    def term_summary(self, rg: RuleGraph, key: str) -> dict[str, Any]:
        t = rg.edition.terms[key]
        return {"term": t.name, "key": key, "kind": t.kind, "definition": t.definition,
                "defined_by": t.defined_by}

    def terms(self, ruleset: str, edition: str | None = None) -> list[dict[str, Any]]:
        rg = self.edition(ruleset, edition)
        return [self.term_summary(rg, k) for k in sorted(rg.edition.terms)]

    def term(self, ruleset: str, name: str, edition: str | None = None) -> dict[str, Any]:
        rg = self.edition(ruleset, edition)
        key = term_key(name)
        if key not in rg.edition.terms:
            from rapidfuzz import process
            close = [m[0] for m in process.extract(key, list(rg.edition.terms), limit=5, score_cutoff=60)]
            raise QueryError(404, f"no term {name!r} in {ruleset} {rg.edition.name}", {"nearest": close})
        out = self.term_summary(rg, key)
        out["used_by"] = [self.rule_summary(rg, n) for n in rg.rules_using(key)[:200]]
        return out

    def mentions(self, ruleset: str, text: str, edition: str | None = None,
                 number: str | None = None) -> list[dict[str, Any]]:
        """Spans of ``text`` that point elsewhere in the edition, sorted and non-overlapping.

        Each rule number of a reference ("See rule 349", "rules 601.2a–f") is its own span
        (``kind`` rule/section, ``targets`` the canonical numbers it names, empty when
        unresolved); the first use of each defined term or keyword is a span with
        ``kind`` "term", its ``key`` and ``defines`` (true in the rule ``number`` that defines it).
        Offsets are into ``text``, so callers can mark it up without re-parsing numbers.
        """
        rg = self.edition(ruleset, edition)
        spans: list[dict[str, Any]] = []
        for m in find_mentions(text):
            for item in m.items:
                found = [rg.find(s) for s in item.numbers or [item.first]]
                spans.append({"start": item.start, "end": item.end, "kind": m.kind,
                              "text": text[item.start:item.end], "targets": [f for f in found if f]})
        pattern = self.cached(f"term-pattern:{ruleset}:{rg.edition.name}",
                              lambda: _term_pattern(list(rg.edition.terms)))
        if pattern is None:
            return spans
        taken = [(s["start"], s["end"]) for s in spans]
        seen: set[str] = set()
        for m in pattern.finditer(text):
            key = _term_of(m.group(0), rg.edition.terms)
            if key is None or key in seen or any(a < m.end() and m.start() < b for a, b in taken):
                continue
            seen.add(key)
            spans.append({"start": m.start(), "end": m.end(), "kind": "term", "text": m.group(0),
                          "key": key, "defines": number in rg.edition.terms[key].defined_by})
        return sorted(spans, key=lambda s: s["start"])

    # -- editions (kb.editions) ------------------------------------------------------
    def diff(self, ruleset: str, from_edition: str, to_edition: str, *,
             only: list[str] | None = None, chapter: str | None = None,
             unchanged: bool = False, limit: int | None = None, offset: int = 0) -> dict[str, Any]:
        """Rule-by-rule diff of two editions (names, or dates meaning the edition in force):
        ``summary`` and ``chapters`` counts, and ``entries`` with status (added, removed,
        changed, moved, unchanged), old/new number and text, and word-level ``ops``."""
        from kb.editions.queries import diff
        return diff(self, ruleset, from_edition, to_edition, only=only, chapter=chapter,
                    unchanged=unchanged, limit=limit, offset=offset)

    def history(self, ruleset: str, number: str, edition: str | None = None,
                date: str | None = None) -> dict[str, Any]:
        """In which editions a rule exists, under which numbers, with what wording."""
        from kb.editions.queries import history
        return history(self, ruleset, number, edition, date)

    def map_number(self, ruleset: str, number: str, from_edition: str,
                   to_edition: str) -> dict[str, Any]:
        """A number of one edition in another: ``target`` (or None), ``status`` (same,
        renumbered, removed; unknown for an excerpt), ``confidence``, ``reworded``."""
        from kb.editions.queries import map_number
        return map_number(self, ruleset, number, from_edition, to_edition)

    def edition_mapping(self, ruleset: str, from_edition: str, to_edition: str) -> Any:
        """The whole :class:`kb.editions.mapping.EditionMapping` between two editions."""
        from kb.editions.queries import edition_mapping
        return edition_mapping(self, ruleset, from_edition, to_edition)

    # -- the graph ---------------------------------------------------------------
    def neighbourhood(self, ruleset: str, number: str, depth: int = 1,
                      edition: str | None = None) -> dict[str, Any]:
        if not 0 <= depth <= 3:
            raise QueryError(400, "depth must be between 0 and 3", {"depth": depth})
        rg = self.edition(ruleset, edition)
        canonical = self.find_rule(rg, number)
        nodes, edges = rg.neighbourhood(canonical, depth)
        return {"ruleset": ruleset, "edition": rg.edition.name, "center": canonical,
                "nodes": [self.rule_summary(rg, n) for n in nodes],
                "edges": [{"source": s, "target": t, "kind": k} for s, t, k in edges]}

    # -- citations in articles (kb.cite) -------------------------------------------
    def citations_lookup(self, text: str, ruleset: str | None = None, edition: str | None = None,
                         base_url: str = "") -> dict[str, Any]:
        """Every rule citation in a text: start/end offsets, matched text, canonical number,
        status (ok, not_found, ambiguous, renumbered, quote_mismatch, over_limit), URL."""
        from kb.cite.link import lookup
        return lookup(self, text, ruleset, edition, base_url)

    def citations_annotate(self, markdown: str, ruleset: str | None = None,
                           edition: str | None = None, style: str = "footnotes",
                           fmt: str = "html", allow_html: bool = False,
                           base_url: str = "", source: str = "") -> dict[str, Any]:
        """An article with its citations linked (``fmt`` html, markdown, or json for the
        report only) and its citation report; ``style`` footnotes or preview."""
        from kb.cite.link import link_article
        return link_article(self, markdown, ruleset, edition, style, fmt,  # type: ignore[arg-type]
                            allow_html, base_url, source)


_TERM_EDGE = r"[\w\u2019'-]"


def _term_pattern(keys: list[str]) -> re.Pattern[str] | None:
    r"""One regex for every term of an edition: whole words, any case, optional plural.

    The terms are written as a trie (``mana(?:\s+ability)?``...), not as one alternative
    per term: Python's regex engine tries alternatives one by one at every position, which
    made marking up Magic's 740 terms twenty times slower. At any position, the terms that
    can match are prefixes of one another, so trying the longer continuation first finds the
    same match as trying the longest term first.
    """
    if not keys:
        return None
    trie: dict[str, Any] = {}
    for key in keys:
        node = trie
        for i, word in enumerate(key.split()):
            for piece in ([" "] if i else []) + list(word):
                node = node.setdefault(piece, {})
        node[""] = {}
    return re.compile(rf"(?<!{_TERM_EDGE})(?:{_trie_regex(trie)})(?:s|es)?(?!{_TERM_EDGE})",
                      re.IGNORECASE)


def _trie_regex(node: dict[str, Any]) -> str:
    alts = [(r"\s+" if piece == " " else re.escape(piece)) + _trie_regex(node[piece])
            for piece in sorted(p for p in node if p)]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return f"(?:{body})?" if "" in node else body


def _term_of(found: str, terms: dict[str, Any]) -> str | None:
    key = term_key(found)
    for candidate in (key, key[:-1], key[:-2]):
        if candidate in terms:
            return candidate
    return None
