"""The facade: every question the product answers, for the CLI, the API and the site.

A :class:`KnowledgeBase` is loaded once from a build and is read-only afterwards, so any
number of threads may share it. Answers are plain dicts (the response shapes the API
documents); failures raise :class:`QueryError`, which carries the one error shape.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rapidfuzz import process

from kb.derived import derived
from kb.editions import queries as edition_queries
from kb.editions.mapping import EditionMapping
from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.loaded import LoadedEditions, elsewhere_sentence
from kb.model import Diagnostic, DocumentError, Rule, term_key
from kb.numbers import Segments, format_number, loose_number, sort_key, try_parse_lookup_number, try_parse_number
from kb.references import find_mentions
from kb.store import DAMAGED, LazyEditions, current_build, default_home, edition_notes, edition_summary, stored_notes
from kb.timing import api as timing
from kb.timing.examples import first_steps

if TYPE_CHECKING:
    from kb.search import EditionSearcher

# The citation finder (kb.cite, which reads rules documents through kb.read), the search
# index (whoosh) and the rulings' BM25 (bm25s, numpy) are imported by the methods that use
# them: every CLI command imports this facade, and `rulekb rule 337.2` needs none of them
# (bench/cli_startup.py, tests/test_cli_startup.py).

__all__ = ["KnowledgeBase", "QueryError", "searcher", "structure_of", "term_pattern"]


class KnowledgeBase(LoadedEditions):
    """The composition root: the loaded editions (:class:`kb.loaded.LoadedEditions`), and
    every question the product answers, each composed from the subsystems."""

    # -- loading ---------------------------------------------------------------
    @classmethod
    def open(cls, home: Path | None = None) -> KnowledgeBase:
        """Load the build in service. Raises QueryError(503) before the first build."""
        home = home or default_home()
        build = current_build(home)
        if build is None or not (build / "manifest.json").exists():
            raise QueryError(503, f"no knowledge base is built in {home}; run `rulekb build`")
        path = build / "manifest.json"
        try:  # cut short or overwritten (a disk's fault: a build swaps it in whole) is damage, said so
            manifest = json.loads(path.read_text(encoding="utf-8"))
            names = [(e["ruleset"], e["edition"]) for e in manifest["editions"]]
        except (ValueError, KeyError, TypeError) as exc:
            damage = DAMAGED.format(f"unreadable: {type(exc).__name__}")
            raise DocumentError([Diagnostic(damage, str(path), 0)]) from exc
        # Graphs load on first use, at most RULEKB_MAX_EDITIONS at once (kb.store.LazyEditions).
        return cls(build, manifest, LazyEditions(build, names))

    @classmethod
    def from_graphs(cls, graphs: list[RuleGraph]) -> KnowledgeBase:
        """A knowledge base held in memory only (tests, tools)."""
        manifest = {"build_id": "memory", "built": "", "rulesets": {},
                    "editions": [edition_summary(g) for g in graphs]}
        return cls(None, manifest, {(g.edition.ruleset, g.edition.name): g for g in graphs})

    def warm(self) -> None:
        """Build what the first requests would otherwise wait for: the mappings between
        neighbouring editions (rule pages, history, citations), each edition's searcher and
        the timing models."""
        for _, step in self.warm_steps():
            step()

    def warm_steps(self) -> list[tuple[str, Callable[[], Any]]]:
        """What :meth:`warm` does, one named step at a time (a server reports what is left).

        A build stores the mappings between neighbouring editions, and history, map, feeds
        and citations follow numbers through the stored files one at a time, so warming
        reads none of them (with 77 editions, reading all took 0.7 s CPU and 66 MB before
        the first answer); only a mapping a build did not store (a knowledge base held in
        memory) is computed here. Each ruleset's default edition (its newest full one: what a question without an
        edition asks) gets its graph, searcher and timing model. The other editions load on
        first use, their mappings and rule texts already built."""
        steps: list[tuple[str, Callable[[], Any]]] = []
        for ruleset in self.ruleset_names():
            eds = [e["edition"] for e in self.editions(ruleset)]
            for old, new in zip(eds, eds[1:]):
                if not edition_queries.mapping_is_stored(self, ruleset, old, new):
                    steps.append((f"mapping {ruleset} {old} -> {new}",
                                  functools.partial(self.edition_mapping, ruleset, old, new)))
            newest = self.default_edition(ruleset)["edition"]  # the newest full edition
            steps.append((f"searcher {ruleset} {newest}",
                          functools.partial(self.search, "rule", ruleset, newest, limit=1)))
            # The first rule's transitions build the edition's timing model.
            steps.append((f"timing model {ruleset} {newest}", functools.partial(
                self._first_rule_transitions, ruleset, newest)))
            # A rule page links each transition to the first worked step showing it: the
            # ruleset's worked scenarios all run (about 2 s) before the first page answers.
            steps.append((f"worked scenarios {ruleset}", functools.partial(first_steps, self, ruleset)))
        from kb.records.search import warm_records
        steps.append(("rulings and articles", functools.partial(warm_records, self)))
        steps.append(("the speller's English words", warm_speller))
        return steps

    def _first_rule_transitions(self, ruleset: str, edition: str) -> list[dict[str, Any]]:
        """The timing transitions citing an edition's first rule (warming its timing model)."""
        rg = self.edition(ruleset, edition)
        return self.transitions_for(rg, next(iter(rg.edition.rules)))

    # -- rules -------------------------------------------------------------------
    def rule(self, ruleset: str, number: str, edition: str | None = None,
             subrules: bool = False, date: str | None = None,
             cited_by_all: bool = False) -> dict[str, Any]:
        """A rule with breadcrumbs, children, neighbours, references both ways, terms, and
        the rulings and articles citing it (``cited_by``, :mod:`kb.records`): the counts of
        all of them and the first page of them (:data:`kb.records.CITED_BY_PAGE`; every
        one with ``cited_by_all``); :meth:`cited_by` answers the next pages."""
        from kb.records import CITED_BY_PAGE, cited_by, cited_by_page
        rg = self.edition(ruleset, edition, date)
        self.check_prefix(rg.edition.ruleset, number)
        try:
            canonical = self.locate_rule(rg, number)
        except QueryError as exc:
            raise self.with_other_rulesets(exc, rg.edition.ruleset, number) from exc
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
            "cited_by": cited_by_page(cited_by(self, rg.edition.ruleset, rg.edition.name, canonical),
                                      limit=None if cited_by_all else CITED_BY_PAGE),
        })
        if subrules:
            out["subrules"] = [self.rule_summary(rg, n, full=True) for n in rg.subtree(canonical)][1:]
        return out

    def cited_by(self, ruleset: str, number: str, edition: str | None = None, date: str | None = None,
                 offset: int = 0, limit: int | None = None, kind: str | None = None) -> dict[str, Any]:
        """One page of the rulings and articles citing a rule (``limit`` of them from
        ``offset``, :data:`kb.records.CITED_BY_PAGE` when None; of one ``kind``, ruling or
        article, when given), with the counts of all and where the next page starts
        (:func:`kb.records.cited_by_page`); the rule is found as :meth:`rule` finds it."""
        from kb.records import CITED_BY_PAGE, cited_by, cited_by_page
        rg = self.edition(ruleset, edition, date)
        canonical = self.locate_rule(rg, number)
        found = cited_by(self, rg.edition.ruleset, rg.edition.name, canonical)
        page = cited_by_page(found, offset, CITED_BY_PAGE if limit is None else limit, kind)
        return {"ruleset": rg.edition.ruleset, "edition": rg.edition.name, "number": canonical, **page}

    def locate_rule(self, rg: RuleGraph, number: str) -> str:
        """The canonical number of a rule of ``rg``, as :meth:`find_rule` finds it; a number
        the edition lacks that another edition of the ruleset holds (a citation from an older
        article: Magic 2010's 116.3d) is refused saying what that rule is numbered in ``rg``
        (117.3d), or that ``rg`` removed it, and that number comes first among the nearest
        (``detail["elsewhere"]``: ``edition``, ``number``, ``title``, ``here``, ``status``)."""
        try:
            return self.find_rule(rg, number)
        except QueryError as exc:
            if exc.status != 404 or not isinstance(exc.detail, dict):
                raise
            elsewhere = self.number_elsewhere(rg, number)
            if elsewhere is None:
                raise
            here = elsewhere["here"]
            said = elsewhere_sentence(elsewhere, rg.edition.name)
            nearest = [here] + [n for n in exc.detail.get("nearest", []) if n != here] if here else \
                exc.detail.get("nearest", [])
            raise QueryError(404, f"{exc.message}; {said}",
                             {**exc.detail, "nearest": nearest, "elsewhere": elsewhere}) from exc

    def check_prefix(self, ruleset: str, number: str) -> None:
        """QueryError 404 for a number whose own prefix names another ruleset than ``ruleset``
        (``CR 117.3d`` is Magic's, as :meth:`ruleset_named_in` reads it, asked of Riftbound),
        naming that ruleset, its rule when its default edition has one, and how to ask for it
        (``detail["other_rulesets"]``, as :meth:`with_other_rulesets` lists them)."""
        if number[:1].isdigit():
            return  # no prefix: most lookups (every page's own canonical numbers)
        named = self.ruleset_named_in(number)
        if named is None or named == ruleset:
            return
        there = self.edition(named)
        shown = " ".join(number.split())[:64]
        message = f"{shown!r} names {named} by its prefix, not {ruleset}"
        other: dict[str, Any] = {"ruleset": named, "edition": there.edition.name,
                                 "title": next((str(r.get("title") or named) for r in self.rulesets()
                                                if r["name"] == named), named)}
        try:
            found = self.find_rule(there, number)
        except QueryError:
            found = None
        if found is not None:
            other.update({"number": found, "rule_title": self.rule_summary(there, found)["title"]})
            message += f"; {named} {there.edition.name} has {found}: {other['rule_title']}"
        else:
            message += f"; {named} {there.edition.name} has no rule numbered so either"
        raise QueryError(404, message, {"number": shown, "named_ruleset": named,
                                        "other_rulesets": [other] if found is not None else []})

    def with_other_rulesets(self, exc: QueryError, ruleset: str, number: str) -> QueryError:
        """A rule's 404 in ``ruleset`` saying which other rulesets' default editions hold that number
        (``120.3b`` is Magic's, asked of Riftbound), as the search's ``other_rulesets`` finds
        them, each with the rule's number and title there (``detail["other_rulesets"]``);
        ``exc`` unchanged when none does or it is not a 404."""
        if exc.status != 404 or not isinstance(exc.detail, dict) or "number" not in exc.detail:
            return exc
        having = []
        for other in self._other_rulesets_matching(number, ruleset, rulings=False):
            there = self.edition(other["ruleset"], other["edition"])
            try:  # a search also matches words: only the rule numbered so is meant
                found = self.find_rule(there, number)
            except QueryError:
                continue
            having.append({**other, "number": found, "rule_title": self.rule_summary(there, found)["title"]})
        if not having:
            return exc
        said = "; ".join(f"{o['ruleset']} {o['edition']} has {o['number']}: {o['rule_title']}" for o in having)
        return QueryError(404, f"{exc.message}; {said}", {**exc.detail, "other_rulesets": having})

    def number_elsewhere(self, rg: RuleGraph, number: str) -> dict[str, Any] | None:
        """Where the rule another edition numbers ``number`` is in ``rg`` (which lacks the
        number), by the rule's history through the edition mappings: the newest edition
        holding the number, the rule's title there, its number ``here`` (None when removed)
        and the mapping's ``status``; None when no edition has the number, or ``rg`` is an
        excerpt that may simply lack the rule."""
        try:
            history = self.history(rg.edition.ruleset, number)
        except QueryError:
            return None
        if history["edition"] == rg.edition.name:
            return None
        there = next((r for r in history["editions"] if r["edition"] == history["edition"]), None)
        row = next((r for r in history["editions"] if r["edition"] == rg.edition.name), None)
        if there is None or row is None or row["status"] in ("unknown", "absent"):
            return None
        return {"edition": history["edition"], "number": history["number"], "title": there["title"],
                "here": row["number"], "status": row["status"]}

    def rule_summary(self, rg: RuleGraph, number: str, full: bool = False) -> dict[str, Any]:
        """A rule's identity and title; with ``full``, its text, examples, line, parent and depth."""
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
        return timing.transitions_citing(rg.edition.ruleset, rg.edition.name, number, self)

    # -- timing ------------------------------------------------------------------
    def timing_run(self, scenario: dict[str, Any], file: str = "") -> dict[str, Any]:
        """Run a timing scenario (parsed YAML): frames, expectations, ``ok``. QueryError 422
        for a malformed scenario (detail: file, step, field)."""
        return timing.timing_run(self, scenario, file)

    def timing_next(self, state: dict[str, Any], ruleset: str | None = None,
                    edition: str | None = None, choose: Any = None) -> dict[str, Any]:
        """What happens next from a state: automatic steps, then the decision with every legal
        option and the tempting illegal ones; ``choose`` (an option's action) takes that option
        and answers from after it. QueryError 400 (malformed) or 422 (a state the rules cannot
        produce, with the rules it breaks, or a choice that is not a legal option)."""
        return timing.timing_next(self, state, ruleset, edition, choose)

    def timing_check(self, ruleset: str | None = None, edition: str | None = None) -> dict[str, Any]:
        """The timing model's citations checked against an edition, and its coverage."""
        return timing.timing_check(self, ruleset, edition)

    def structure(self, ruleset: str, edition: str | None = None) -> list[dict[str, Any]]:
        """Every numbered node in document order: number, kind, title or first words, depth."""
        rg = self.edition(ruleset, edition)
        return structure_of(self, ruleset, rg.edition.name)

    def stats(self) -> list[dict[str, Any]]:
        """Per edition: rules, headings, references resolved/unresolved (listed), terms."""
        out = []
        for e in self.manifest["editions"]:
            # The build stores them (no graph loaded); computed for one that did not.
            notes = (stored_notes(self.build_dir, e["ruleset"], e["edition"])
                     or edition_notes(self.graphs[(e["ruleset"], e["edition"])]))
            out.append({**e, **notes})
        return out

    # -- search ------------------------------------------------------------------
    def search(self, query: str, ruleset: str | None = None, edition: str | None = None,
               limit: int = 10, offset: int = 0, section: str | None = None,
               rulings: bool = True, others: bool = True) -> dict[str, Any]:
        """Search an edition (the query language is in :mod:`kb.search.query`): numbers jump,
        defined terms come first, words rank by BM25F, and a question an earlier ruling asked
        brings in the rules that ruling cites, as numbered in this edition, each hit saying
        so (:func:`kb.records.search.ruling_evidence`; ``rulings=False``: the rules alone, as
        the offline pack's search answers). QueryError 400 for a malformed query.

        A query that is only rule numbers is read as ``rulekb rule`` and an article's
        citation read them: any number ``rule`` reads jumps (``r337.2``), a range or a list
        lists its rules (``337-340``, ``601.2a–f``, ``337.1a and 337.4``), and a number the
        edition lacks, in any form ``rulekb rule`` reads (:func:`kb.numbers.typed_number`:
        ``9999.9``, ``rule 9999``, ``337.1.z``, ``CR 999.9z``, ``3371a``), is said in
        ``no_such_rule`` as ``rulekb rule`` says it (the message, the nearest numbers and,
        for a number another edition has, ``elsewhere``: where that rule is now); None
        otherwise. One range of numbers written high to low or reaching past the edition's rules
        at that level (``9999-1``, ``1-9999``, ``0-5``) lists the rules that exist in it and says
        so in ``clamped`` (:func:`range_asked`); None otherwise.

        With no ruleset asked for (``ruleset``, ``ruleset:``), a query whose citation names a
        ruleset by its own prefix searches that one (:meth:`ruleset_named_in`: ``CR 702.19b``
        is Magic's), and an edition asked for picks the ruleset having it
        (:meth:`ruleset_asked_by`); an empty answer (or a number the edition lacks) lists in
        ``other_rulesets`` each other ruleset whose default edition matches, with its count
        (``others=False``: not looked for)."""
        from kb.records.search import ruling_evidence
        from kb.search import SearchError, parse_query
        try:
            parsed = parse_query(query)
            asked_edition = parsed.edition or edition
            rg = self.edition(parsed.ruleset or ruleset or self.ruleset_asked_by(query, asked_edition)
                              or self.default_ruleset(), asked_edition)
            name = rg.edition.ruleset, rg.edition.name
            s = searcher(self, *name)
            # One range read once: what numbers_asked lists and what clamped says (it scans a level).
            ranged = None if section else range_asked(rg, query)
            asked = None if section else numbers_asked(rg, query, ranged=ranged)
            # The number is parsed once: in a form the rule lookup reads, else typed loosely
            # (kb.numbers.typed_number's two halves).
            lookup = None if asked or section else try_parse_lookup_number(query)
            typed = lookup if lookup is not None or asked or section else loose_number(query, rg.find)
            # A number only the rule lookup reads (9999.9, rule 9999): the searcher would
            # search its words (the "rule" beside 9999), so it searches the number alone.
            alone = (format_number(lookup, rg.edition.number_style)
                     if lookup and try_parse_number(query) is None else None)
            if asked and len(asked) > 1:
                found = numbers_listed(s, asked, limit, offset)
            else:
                found = s.search(parse_query(asked[0] if asked else alone) if asked or alone else parsed,
                                 limit=limit, offset=offset,
                                 sections=[section] if section else None,
                                 evidence=ruling_evidence(self, *name) if rulings else None)
        except SearchError as exc:
            raise QueryError(exc.status, exc.message,
                             {"query": str(query)[:200], **exc.detail}) from exc
        if asked or alone:
            found["query"] = parsed.text
        found["clamped"] = ranged[1] if ranged else None
        found["no_such_rule"] = None
        if typed:  # a number the edition lacks (a dot dropped or doubled too: 3371a, 337..1a)
            try:
                self.locate_rule(rg, query)
            except QueryError as exc:
                if exc.status != 404 or not isinstance(exc.detail, dict):
                    raise
                nearest = list(exc.detail.get("nearest", []))
                elsewhere = exc.detail.get("elsewhere")
                found["no_such_rule"] = {"number": exc.detail["number"], "message": exc.message,
                                         "nearest": nearest, "elsewhere": elsewhere}
                if elsewhere and elsewhere.get("here"):
                    # An older article's number: suggest where that rule is now (117.3d for
                    # 2010's 116.3d), not the edition's numerically nearest rule (116.3).
                    found["did_you_mean"] = elsewhere["here"]
        found["other_rulesets"] = []
        if others and (found["no_such_rule"] or not found["total"]) and not section and not offset:
            found["other_rulesets"] = self._other_rulesets_matching(query, rg.edition.ruleset, rulings)
        return found

    def ruleset_asked_by(self, query: str, edition: str | None) -> str | None:
        """The ruleset a search naming none searches: the one the query's citation prefix names
        (CR 702.19b is Magic's, as the linker reads it) when it has ``edition`` (if one is
        asked), else the only ruleset having an edition of that name; None: the default."""
        named = self.ruleset_named_in(query)
        if not edition:
            return named
        having = sorted({e["ruleset"] for e in self.manifest["editions"] if e["edition"] == edition})
        if named in having:
            return named
        return having[0] if len(having) == 1 else None

    def ruleset_named_in(self, text: str) -> str | None:
        """The ruleset a text's first citation names by its own prefix, as the linker reads it
        (:func:`kb.cite.target.named_editions`: ``CR 702.19b`` and ``Comprehensive Rules
        702.19b`` are Magic's, ``Core Rules 337.1`` Riftbound's); None when it names none."""
        from kb.cite.link import ruleset_named_in
        return ruleset_named_in(self, text)

    def _other_rulesets_matching(self, query: str, searched: str, rulings: bool) -> list[dict[str, Any]]:
        """For a query one ruleset answers with nothing (or lacks the number it is): each
        other ruleset whose default edition matches it, with how many rules match there."""
        out = []
        titles = {str(r["name"]): str(r.get("title") or r["name"]) for r in self.rulesets()}
        for name in self.ruleset_names():
            if name == searched:
                continue
            try:
                there = self.search(query, name, limit=1, rulings=rulings, others=False)
            except QueryError:
                continue  # a query this ruleset's language refuses: it has nothing to say
            if there["total"] and not there["no_such_rule"]:
                out.append({"ruleset": name, "edition": there["edition"], "title": titles.get(name, name),
                            "total": there["total"]})
        return out

    # -- terms -------------------------------------------------------------------
    def term_summary(self, rg: RuleGraph, key: str) -> dict[str, Any]:
        """A defined term or keyword: name, key, kind, definition and the rules defining it;
        a Glossary entry that only sends the reader to another ("See Landwalk.") has ``see``,
        that entry's key."""
        t = rg.edition.terms[key]
        out = {"term": t.name, "key": key, "kind": t.kind, "definition": t.definition,
               "defined_by": t.defined_by}
        if (see := rg.alias_of(key)) is not None:
            out["see"] = see
        return out

    def terms(self, ruleset: str, edition: str | None = None) -> list[dict[str, Any]]:
        """Every defined term and keyword of an edition, by key."""
        rg = self.edition(ruleset, edition)
        return [self.term_summary(rg, k) for k in sorted(rg.edition.terms)]

    def term(self, ruleset: str, name: str, edition: str | None = None) -> dict[str, Any]:
        """One term with the rules using it; QueryError 404 with the nearest terms. An alias
        that is a plain word ("If": See Intervening “If” Clause.) answers with the entry it
        sends the reader to, naming the alias asked (``alias``)."""
        rg = self.edition(ruleset, edition)
        key = term_key(name)
        if key not in rg.edition.terms:
            close = [m[0] for m in process.extract(key, list(rg.edition.terms), limit=5, score_cutoff=60)]
            raise QueryError(404, f"no term {name!r} in {ruleset} {rg.edition.name}", {"nearest": close})
        alias = rg.edition.terms[key].name if rg.is_plain_alias(key) else None
        if alias is not None:
            key = rg.alias_of(key) or key
        out = self.term_summary(rg, key)
        if alias is not None:
            out["alias"] = alias
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
        pattern = term_pattern(self, ruleset, rg.edition.name)
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
        return edition_queries.diff(self, ruleset, from_edition, to_edition, only=only, chapter=chapter,
                    unchanged=unchanged, limit=limit, offset=offset)

    def history(self, ruleset: str, number: str, edition: str | None = None,
                date: str | None = None, *, limit: int | None = None, offset: int = 0) -> dict[str, Any]:
        """In which editions a rule exists, under which numbers, with what wording (the
        editions oldest first, paged with ``offset``/``limit``; ``total`` counts them all)."""
        return edition_queries.history(self, ruleset, number, edition, date, limit=limit, offset=offset)

    def map_number(self, ruleset: str, number: str, from_edition: str,
                   to_edition: str) -> dict[str, Any]:
        """A number of one edition in another: ``target`` (or None), ``status`` (same,
        renumbered, removed; unknown for an excerpt), ``confidence``, ``reworded``."""
        return edition_queries.map_number(self, ruleset, number, from_edition, to_edition)

    def edition_mapping(self, ruleset: str, from_edition: str, to_edition: str) -> EditionMapping:
        """The whole :class:`kb.editions.mapping.EditionMapping` between two editions."""
        return edition_queries.edition_mapping(self, ruleset, from_edition, to_edition)

    # -- the graph ---------------------------------------------------------------
    def neighbourhood(self, ruleset: str, number: str, depth: int = 1,
                      edition: str | None = None) -> dict[str, Any]:
        """The rules within ``depth`` (0–3) links of one, and the links between them."""
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


def warm_speller() -> None:
    """Read what every edition's speller reads on the first question holding a word no rule
    uses ("does damage on my units go away…"): pyspellchecker's English words and
    lemminflect's lemma dictionary, read once per process (about 1 s of CPU, which the
    first such question after a server said ready used to wait for)."""
    from kb.search.spelling import Speller
    Speller({}).lemma("drew")


# A query of rule numbers only: "337-340", "rules 337–340", "CR 601.2a-f", "337.1a and 337.4"
# (a lower-case "and": AND in capitals is the query language's).
_PREFIX = r"(?:[Rr]ules?|RULES?|[Cc][Rr]|[Rr]\.?|§)"
_NUMBERS_ONLY = re.compile(rf"^\s*(?:{_PREFIX}\s*)?\d[\w.]*(?:\s*(?:[-–—,;&]|and)\s*[\w.]+)*\s*$")
_CITING = re.compile(rf"^\s*{_PREFIX}(?![\w.])|^\s*{_PREFIX}\s*\d")
_EXCLUDING = re.compile(r"\s-\S")  # "337 -338": the query language's "not 338", no range
_SPACED_DASH = re.compile(r"\s*([-–—])\s*")
_BETWEEN = re.compile(rf"^(?:\s|,|;|&|and|{_PREFIX})*$")
# One range of numbers whose last part is digits, read before the citation finder: the finder
# reads a part of at most three digits (no rule has more), so "1-9999" or "1-1000000" was no
# range to it, and a range written high to low ("9999-1", "340-337") named no rule.
_NOT_READ: Any = object()  # numbers_asked's range, when its caller has not read it
_RANGE_ASKED = re.compile(rf"^\s*(?:{_PREFIX}\s*)?([0-9]+(?:\.(?:[0-9]+|[a-z]))*)\s*[-–—]\s*"
                          r"([0-9]+(?:\.(?:[0-9]+|[a-z]))*)\s*$")


def numbers_asked(rg: RuleGraph, query: str, *, ranged: Any = _NOT_READ) -> list[str] | None:
    """The rules of ``rg`` a query made only of rule numbers names, in the order written:
    one number as ``rulekb rule`` reads it (``r337.2``, ``CR 117.3d``: its canonical number),
    or a range or list as an article's citation is read (``337-340`` → 337, 338, 339, 340;
    ``601.2a–f``; ``337.1a and 337.4``); one range of numbers ending in digits at any size
    and either way round as :func:`range_asked` reads it (``1-9999``, ``9999-1``). None when
    the query is anything else, names no rule of ``rg`` (the search then says what it can),
    or is one number ``rg`` lacks. ``ranged`` is :func:`range_asked` of the same query when the
    caller has read it already."""
    if len(query) > 200:
        return None
    one = try_parse_lookup_number(query)  # also 337.1(a) and 337.1 a, as rulekb rule reads them
    if one is not None:
        found = rg.find(one)
        return [found] if found else None
    if not _NUMBERS_ONLY.match(query) or _EXCLUDING.search(query):
        return None
    if ranged is _NOT_READ:
        ranged = range_asked(rg, query)
    if ranged is not None:
        return ranged[0] or None
    # "337 - 340" is the range 337-340, as the citation finder reads a range written closed up.
    closed = _SPACED_DASH.sub(r"\1", query.strip())
    probe = closed if _CITING.match(closed) else "rules " + closed
    mentions = [m for m in find_mentions(probe, sections=False) if m.kind == "rule"]
    rest, at = [], 0
    for m in mentions:
        rest.append(probe[at:m.start])
        at = m.end
    rest.append(probe[at:])
    if not mentions or not _BETWEEN.match("".join(rest)):
        return None
    numbers: list[str] = []
    for item in (item for m in mentions for item in m.items):
        if item.last is not None and item.numbers == [item.first, item.last]:
            numbers.extend(_rules_between(rg, item.first, item.last))  # wider than the finder expands
        else:
            numbers.extend(n for n in (rg.find(s) for s in item.numbers) if n)
    return list(dict.fromkeys(numbers)) or None


def range_asked(rg: RuleGraph, query: str) -> tuple[list[str], dict[str, Any] | None] | None:
    """A query that is one range of rule numbers ending in digits (``1-9999``, ``9999-1``,
    ``rules 0-5``, ``337.1-99``), read at any size and either way round: the rules of ``rg``
    at that level inside it, in document order, and ``clamped``, said when the range was
    written high to low or reaches past the edition's first or last rule at that level (the
    range as written, as read low to high, the first and last rule listed, and a sentence
    saying so; None otherwise). None when the query is no such range."""
    if len(query) > 200 or _EXCLUDING.search(query):
        return None
    m = _RANGE_ASKED.match(query)
    if not m:
        return None
    first, last = tuple(m[1].split(".")), tuple(m[2].split("."))
    if len(last) < len(first):  # 337.1-99: the end's parts replace the start's last ones
        last = first[:len(first) - len(last)] + last
    if len(first) != len(last) or not first[-1].isdigit() or not last[-1].isdigit() \
            or sort_key(first[:-1]) != sort_key(last[:-1]):
        return None
    backwards = sort_key(last) < sort_key(first)
    lo, hi = (last, first) if backwards else (first, last)
    # A range ending in digits reads its level's numbered rules: a lettered one there would
    # stand past every number and move the extent the clamping says.
    level = [r for r in _rules_at_level(rg, first) if r.segments[-1].isdigit()]
    numbers = _numbers_from_to(level, lo, hi)
    keys = [sort_key(r.segments) for r in level]
    beyond = not keys or sort_key(lo) < min(keys) or max(keys) < sort_key(hi)
    if not backwards and not beyond:
        return numbers, None
    asked, read = f"{m[1]}-{m[2]}", f"{'.'.join(lo)}-{'.'.join(hi)}"
    where = f"{rg.edition.ruleset} {rg.edition.name}"
    said = f"Rules {asked}" + (f" read as {read}" if backwards else "")
    if numbers and beyond:
        message = (f"{said}{',' if backwards else ''} clamped to {numbers[0]}-{numbers[-1]}, "
                   f"the rules {where} has in that range ({len(numbers)}).")
    elif numbers:
        message = f"{said} ({len(numbers)} rules of {where})."
    elif level:
        extent = sorted(level, key=lambda r: sort_key(r.segments))
        message = (f"{said}: {where} has no rule in that range (its rules at that level run "
                   f"from {extent[0].number} to {extent[-1].number}).")
    else:
        message = f"{said}: {where} has no rule in that range."
    return numbers, {"asked": asked, "read": read, "first": numbers[0] if numbers else None,
                     "last": numbers[-1] if numbers else None, "message": message}


def _rules_between(rg: RuleGraph, first: Segments, last: Segments) -> list[str]:
    """The rules of ``rg`` from ``first`` to ``last`` at their depth, in document order
    (``300-399``: every rule numbered 300 to 399, not only those two)."""
    if len(first) != len(last) or sort_key(first[:-1]) != sort_key(last[:-1]):
        return [n for n in (rg.find(first), rg.find(last)) if n]
    return _numbers_from_to(_rules_at_level(rg, first), first, last)


def _rules_at_level(rg: RuleGraph, segments: Segments) -> list[Rule]:
    """The rules of ``rg`` at the level of ``segments``: as deep, under the same parent (its
    parts compared as numbers, ``0337`` as ``337``), in document order."""
    head = sort_key(segments[:-1])
    return [r for r in rg.edition.rules.values()
            if len(r.segments) == len(segments) and sort_key(r.segments[:-1]) == head]


def _numbers_from_to(rules: list[Rule], first: Segments, last: Segments) -> list[str]:
    """The numbers of ``rules`` from ``first`` to ``last`` in the documents' order of numbers
    (none when ``last`` comes before ``first``)."""
    lo, hi = sort_key(first), sort_key(last)
    return [r.number for r in rules if lo <= sort_key(r.segments) <= hi]


def numbers_listed(s: EditionSearcher, numbers: list[str], limit: int, offset: int) -> dict[str, Any]:
    """The search answer listing several rules (``numbers``, at least two, as
    :func:`numbers_asked` reads a range or list): one page of them, each hit as a typed
    number's, ``total`` all of them. The page's hits come from the numbers themselves, not
    from searching them again: a chapter's one digit (Magic's ``1`` of ``1-207``) is no rule
    number to a query, and was searched as a word."""
    from kb.search import parse_query
    out = s.search(parse_query(" ".join(numbers[:2])), limit=1)  # the answer's shape: no jump
    out.update({"total": len(numbers), "offset": offset, "limit": limit,
                "results": s.number_hits(numbers[offset:offset + limit])})
    return out


# -- what the facade derives once per build (kb.derived) ------------------------------
@derived
def searcher(kb: LoadedEditions, ruleset: str, edition: str) -> EditionSearcher:
    """The search index of one edition, opened once per build (every caller's searcher:
    the facade's search, the exporter, the offline pack, the benchmarks)."""
    from kb.search import open_searcher
    return open_searcher(kb.graphs[(ruleset, edition)], kb.build_dir)


@derived
def structure_of(kb: LoadedEditions, ruleset: str, edition: str) -> list[dict[str, Any]]:
    """Every numbered node of an edition in document order (see :meth:`KnowledgeBase.structure`)."""
    rg = kb.graphs[(ruleset, edition)]
    depth: dict[str, int] = {}
    out = []
    for n, r in rg.edition.rules.items():
        depth[n] = depth[r.parent] + 1 if r.parent else 0
        out.append({"number": n, "kind": r.kind, "title": r.label, "depth": depth[n],
                    "parent": r.parent, "children": len(r.children)})
    return out


@derived
def term_pattern(kb: LoadedEditions, ruleset: str, edition: str) -> re.Pattern[str] | None:
    """The regex of an edition's defined terms but its plain aliases (:meth:`RuleGraph.linked_terms`,
    :func:`_term_pattern`), compiled once per build."""
    return _term_pattern(kb.graphs[(ruleset, edition)].linked_terms())


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
