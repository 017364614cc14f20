"""The rule graph: one networkx graph per edition, built once from a reader's result.

Nodes are rule numbers (canonical strings) and terms (``term:<key>``). Edges carry a
``kind``: ``contains`` (parent → child), ``refers`` (rule → rule it cites), ``defines``
(rule → term) and ``uses`` (rule → term it mentions). Building checks the document:
duplicate numbers and children without parents are errors with their source line.

A Glossary entry whose whole definition sends the reader to another entry ("Deal: See
Damage.") is an *alias* of that entry: its term node carries ``alias_of`` (the entry's key).
An alias that is one ordinary English word ("If", "Deal", "Independent") is a *plain* alias
(``plain``): its word is no term in the rules' text, so no rule uses or defines it. A coined
word ("Forestwalk", "Plainscycling", "APNAP") or a phrase ("Range of Influence") names only
that concept, and is linked where the rules write it, as any term.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from functools import cache
from typing import TYPE_CHECKING

import networkx as nx

from kb.model import (Diagnostic, DocumentError, Edition, RawRule, RawTerm, ReadResult,
                      Reference, Rule, Term, term_key)
from kb.numbers import Segments, format_number, parse_number, sort_key
from kb.references import find_mentions

if TYPE_CHECKING:
    from spellchecker import SpellChecker

# "Showdown Open: A Showdown or Combat is in progress" defines "Showdown Open".
_COLON_TERM = re.compile(r"^([A-Z][\w’'-]*(?: [A-Z][\w’'-]*){0,3}):\s+\S")
# "A Task is one or more steps…", "Focus is the permission…", "Two Game Objects are friendly if…"
_IS_TERM = re.compile(r"^(?:An? |The )?([A-Z][\w’'-]*(?: [A-Z][\w’'-]*){0,2}) (?:is|are) (?:the|an?|one|a) ")
_SPECIAL_TERM = re.compile(
    r"^(?:An? |Two )[\w ]{2,40}? (?:is|are) ((?:[a-z][\w-]*)(?: [a-z][\w-]*){0,3}) (?:if|when|while) ")
_MAX_TERM_WORDS = 4
# Subjects of "X is …" sentences that are not terms of art.
_NOT_TERMS = frozenset("""this that these those it there each any all some a an the one two
    they he she you we i on riftbound magic game player players card cards""".split())
# A Glossary entry that only sends the reader to another: "See Damage.", "See Intervening “If”
# Clause.", "See “Intervening ‘If’ Clause.”" (older releases), read with its quotes left out.
_SEE_ENTRY = re.compile(r"See (?:also )?([^.]{1,80}?)\.?")
_QUOTES = re.compile(r"[“”‘’\"']")
# A word pyspellchecker's English frequency dictionary has seen this many times is ordinary
# English (the threshold kb.search.spelling keeps its words from being "corrected" by: "if"
# 8.7 million, "deal" 309,516, "independent" 17,328; "forestwalk", "plainscycling", "apnap" 0).
ORDINARY_ENGLISH_MIN_COUNT = 300


class RuleGraph:
    """An edition together with its graph, and the questions the graph answers."""

    def __init__(self, edition: Edition, graph: nx.DiGraph):
        self.edition = edition
        self.graph = graph
        self._order = list(edition.rules)
        self._keys = {sort_key(r.segments): n for n, r in edition.rules.items()}

    # -- lookups -------------------------------------------------------------
    def find(self, segments: Segments) -> str | None:
        """The canonical number of a parsed number in this edition, or None."""
        return self._keys.get(sort_key(segments))

    def rule(self, number: str) -> Rule:
        return self.edition.rules[number]

    def ancestors(self, number: str) -> list[str]:
        """Breadcrumbs from the chapter down to the rule's parent."""
        out = []
        parent = self.edition.rules[number].parent
        while parent is not None:
            out.append(parent)
            parent = self.edition.rules[parent].parent
        return out[::-1]

    def subtree(self, number: str) -> Iterator[str]:
        """The rule and all its descendants, in document order."""
        yield number
        for child in self.edition.rules[number].children:
            yield from self.subtree(child)

    def previous_next(self, number: str) -> tuple[str | None, str | None]:
        i = self.edition.rules[number].order
        return (self._order[i - 1] if i > 0 else None,
                self._order[i + 1] if i + 1 < len(self._order) else None)

    def references(self, number: str) -> list[str]:
        return [t for _, t, k in self.graph.out_edges(number, data="kind") if k == "refers"]

    def referenced_by(self, number: str) -> list[str]:
        found = [s for s, _, k in self.graph.in_edges(number, data="kind") if k == "refers"]
        return sorted(found, key=lambda n: self.edition.rules[n].order)

    def terms_used(self, number: str) -> list[str]:
        return [t[5:] for _, t, k in self.graph.out_edges(number, data="kind") if k in ("uses", "defines")]

    def alias_of(self, key: str) -> str | None:
        """The key of the entry a Glossary alias sends the reader to ("deal" → "damage"), or None."""
        node = self.graph.nodes.get("term:" + key)
        return node.get("alias_of") if node else None

    def is_plain_alias(self, key: str) -> bool:
        """True for an alias that is one ordinary English word ("If", "Deal"): no term of the
        rules' text (see the module's docstring)."""
        node = self.graph.nodes.get("term:" + key)
        return bool(node and node.get("plain"))

    def linked_terms(self) -> list[str]:
        """The keys of the terms found by their words in rules' text: every term and keyword
        of the edition but the plain aliases."""
        return [k for k in self.edition.terms if not self.is_plain_alias(k)]

    def rules_using(self, key: str) -> list[str]:
        node = "term:" + key
        if node not in self.graph:
            return []
        return sorted((s for s, _, k in self.graph.in_edges(node, data="kind") if k == "uses"),
                      key=lambda n: self.edition.rules[n].order)

    def nearest(self, segments: Segments, limit: int = 5) -> list[str]:
        """Existing numbers closest to a missing one: same parent first, then neighbours."""
        key = sort_key(segments)
        keys = getattr(self, "_sorted_keys", None)
        if keys is None:  # sorted once per graph: the citation linker asks this per citation
            keys = self._sorted_keys = sorted(self._keys)
        import bisect
        i = bisect.bisect_left(keys, key)
        window = list(range(max(0, i - limit), min(len(keys), i + limit)))
        window.sort(key=lambda j: (-_common_prefix(keys[j], key), abs(j - i)))
        return [self._keys[keys[j]] for j in window[:limit]]

    def neighbourhood(self, number: str, depth: int = 1) -> tuple[list[str], list[tuple[str, str, str]]]:
        """Rule nodes within ``depth`` edges (either direction, rules only) and the edges among them."""
        seen = {number}
        frontier = {number}
        undirected = self.graph.to_undirected(as_view=True)
        for _ in range(max(0, depth)):
            nxt = set()
            for node in frontier:
                for other in undirected.neighbors(node):
                    if not other.startswith("term:") and other not in seen:
                        nxt.add(other)
            seen |= nxt
            frontier = nxt
            if len(seen) > 400:
                break
        edges = [(s, t, k) for s, t, k in self.graph.subgraph(seen).edges(data="kind")]
        return sorted(seen, key=lambda n: self.edition.rules[n].order), edges


def _common_prefix(a: tuple, b: tuple) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


#: An edition named by a date whose own date (``--date``, else the document's) is further from
#: it than this is noted: a few days is a publication date beside an effective date (the
#: archive's 2021-07-12 release is effective 2021-07-23); more is another release under that
#: name (the archive's "2006-06-01" prints "current as of June 1, 2004").
DATE_NAME_SLACK_DAYS = 60


def date_name_note(edition: str, date: str, from_document: bool, source: str = "") -> Diagnostic | None:
    """A reader note when an edition named by a date (``2006-06-01``) is dated far from its
    name: it is ordered, and found by ``--date``, by its date, not its name. None otherwise."""
    try:
        named, dated = datetime.date.fromisoformat(edition), datetime.date.fromisoformat(date)
    except ValueError:
        return None  # a name like 1.4, or no date
    days = (dated - named).days
    if abs(days) <= DATE_NAME_SLACK_DAYS:
        return None
    said = "the document says it took effect on" if from_document else "it is dated (--date)"
    return Diagnostic(f"edition {edition} is named by a date, but {said} {date}, {abs(days)} days "
                      f"{'later' if days > 0 else 'earlier'}: it is ordered among the editions, and "
                      f"chosen by --date, as of {date} (is it the release its name says?)",
                      source, 0, "warning")


def build_edition(result: ReadResult, *, ruleset: str, edition: str, date: str = "",
                  partial: bool = False, source: str = "", source_format: str = "",
                  title: str = "", external_citations: dict[str, str] | None = None) -> RuleGraph:
    """Build an edition and its graph from a reader's result.

    ``external_citations`` maps a citation keyword to the ruleset it points into
    (``{"CR": "riftbound"}`` for the Tournament Rules): such mentions are kept as external
    references, not resolved against this document.

    Raises :class:`DocumentError` with every structural error (duplicate numbers,
    children without parents), each with its source line.
    """
    style = result.number_style
    ed = Edition(ruleset=ruleset, name=edition, date=date or result.date,
                 title=title or result.title, number_style=style, partial=partial,
                 source=source, source_format=source_format,
                 diagnostics=list(result.diagnostics))
    if note := date_name_note(edition, ed.date, not date, source):
        ed.diagnostics.append(note)
    errors = _place_rules(ed, result.rules, source)
    if errors:
        raise DocumentError(errors)
    graph = nx.DiGraph()
    for number, rule in ed.rules.items():
        graph.add_node(number, kind=rule.kind)
    for number, rule in ed.rules.items():
        if rule.parent:
            graph.add_edge(rule.parent, number, kind="contains")
    rg = RuleGraph(ed, graph)
    _link_references(rg, source, external_citations or {})
    _link_terms(rg, result.terms)
    return rg


def _place_rules(ed: Edition, raw: list[RawRule], source: str) -> list[Diagnostic]:
    """Give each rule its canonical number, parent and order; report structural errors."""
    errors: list[Diagnostic] = []
    seen: dict[tuple, RawRule] = {}
    chapter: str | None = None
    section: str | None = None
    for r in raw:
        key = sort_key(r.number)
        number = format_number(r.number, ed.number_style)
        if key in seen:
            errors.append(Diagnostic(f"duplicate rule number {number} (first at line {seen[key].line})",
                                     source, r.line, rule=number))
            continue
        seen[key] = r
        if r.kind == "chapter":
            parent, chapter, section = None, number, None
        elif r.kind == "section":
            parent, section = chapter, number
        elif len(r.number) == 1:
            parent = section or chapter
        else:
            parent_raw = seen.get(sort_key(r.number[:-1]))
            parent = format_number(parent_raw.number, ed.number_style) if parent_raw else None
            if parent is None or parent not in ed.rules:
                errors.append(Diagnostic(
                    f"rule {number} has no parent rule {format_number(r.number[:-1], ed.number_style)}",
                    source, r.line, rule=number))
                continue
        rule = Rule(number=number, segments=r.number, kind=r.kind, title=r.title, text=r.text,
                    line=r.line, examples=list(r.examples), parent=parent, order=len(ed.rules))
        ed.rules[number] = rule
        if parent is not None:
            ed.rules[parent].children.append(number)
    return errors


def _link_references(rg: RuleGraph, source: str, external: dict[str, str]) -> None:
    ed = rg.edition
    for number, rule in ed.rules.items():
        for text in [rule.text, *rule.examples]:
            for mention in find_mentions(text):
                if mention.keyword in external:
                    targets_written = [format_number(seg, ed.number_style) for seg in mention.numbers]
                    ed.references.append(Reference(number, mention.text, targets_written, rule.line, True,
                                                   mention.start, mention.end, "external",
                                                   external[mention.keyword]))
                    continue
                targets = [rg.find(seg) for seg in mention.numbers]
                found = [t for t in targets if t is not None]
                resolved = bool(found) and (len(found) == len(targets) or len(mention.numbers) > 2)
                ed.references.append(Reference(number, mention.text, found, rule.line, resolved,
                                               mention.start, mention.end, mention.kind))  # type: ignore[arg-type]
                if not resolved:
                    ed.diagnostics.append(Diagnostic(
                        f"unresolved reference {mention.text!r}", source, rule.line, "warning", number))
                for target in found:
                    if target != number:
                        rg.graph.add_edge(number, target, kind="refers")


def _link_terms(rg: RuleGraph, raw_terms: list[RawTerm]) -> None:
    """Terms from the reader (glossaries) and from the rules themselves (keyword sections,
    "Term: definition" and "X is …" rules); then the rules that mention each term."""
    ed = rg.edition
    for t in raw_terms:
        defined = [n for n in (rg.find(_segs(x)) for x in t.rules) if n]
        _add_term(ed, Term(t.name, t.definition, t.kind, defined, t.line))
    for term in _terms_from_rules(ed):
        _add_term(ed, term)
    aliases = _aliases(ed)
    for term in ed.terms.values():
        node = "term:" + term.key
        rg.graph.add_node(node, kind="term")
        target = aliases.get(term.key)
        if target is not None:
            rg.graph.nodes[node]["alias_of"] = target
            if is_plain_word(term.name):
                rg.graph.nodes[node]["plain"] = True
                continue  # it borrowed its rules from its target: it defines nothing there
        for n in term.defined_by:
            rg.graph.add_edge(n, node, kind="defines")
    _link_uses(rg)


def alias_target(term: Term, terms: dict[str, Term]) -> str | None:
    """The key of the entry a Glossary entry whose whole definition is "See X." sends the
    reader to, when the edition has that entry; None for any other term."""
    if term.kind != "glossary":
        return None
    m = _SEE_ENTRY.fullmatch(_QUOTES.sub("", term.definition).strip())
    if m is None:
        return None
    wanted = _unquoted_key(m.group(1))
    found = next((k for k in terms if _unquoted_key(k) == wanted), None)
    return found if found is not None and found != term.key else None


def _aliases(ed: Edition) -> dict[str, str]:
    """Each alias's key → the key of the entry it sends the reader to."""
    out = {}
    for key, term in ed.terms.items():
        target = alias_target(term, ed.terms)
        if target is not None:
            out[key] = target
    return out


def _unquoted_key(name: str) -> str:
    return term_key(_QUOTES.sub("", name))


def is_plain_word(name: str) -> bool:
    """True for a name that is one ordinary English word ("If", "Deal"), not a coined one
    ("Forestwalk", "APNAP") nor a phrase ("Range of Influence"): see
    :data:`ORDINARY_ENGLISH_MIN_COUNT`."""
    words = _WORD.findall(name.lower())
    return len(words) == 1 and _english().word_frequency[words[0]] >= ORDINARY_ENGLISH_MIN_COUNT


@cache
def _english() -> SpellChecker:
    """pyspellchecker's English dictionary (shipped in the package), loaded once, when an
    edition first has a one-word alias (imported here: every command imports this module,
    few build an edition)."""
    from spellchecker import SpellChecker
    return SpellChecker(distance=1)


def _segs(text: str) -> Segments:
    return parse_number(text)


def _add_term(ed: Edition, term: Term) -> None:
    key = term.key
    if len(key) < 2 or len(key) > 60 or (term.kind == "term" and key.split()[0] in _NOT_TERMS):
        return
    existing = ed.terms.get(key)
    if existing is None:
        ed.terms[key] = term
    else:
        existing.defined_by.extend(n for n in term.defined_by if n not in existing.defined_by)
        if existing.kind == "term" and term.kind != "term":
            existing.kind = term.kind


def _terms_from_rules(ed: Edition) -> Iterable[Term]:
    keyword_chapter: str | None = None
    for number, rule in ed.rules.items():
        if rule.kind == "section" and "keyword glossary" in rule.title.lower():
            keyword_chapter = rule.parent
            continue
        if (rule.kind == "section" and keyword_chapter and rule.parent == keyword_chapter
                and len(rule.title.split()) <= _MAX_TERM_WORDS):
            first = ed.rules[rule.children[0]] if rule.children else None
            definition = first.text if first else rule.title
            yield Term(rule.title, definition, "keyword", [number], rule.line)
            continue
        if rule.kind != "rule":
            continue
        for pattern in (_COLON_TERM, _IS_TERM, _SPECIAL_TERM):
            m = pattern.match(rule.text)
            if m and len(m.group(1).split()) <= _MAX_TERM_WORDS:
                yield Term(m.group(1), rule.text, "term", [number], rule.line)
                break


_WORD = re.compile(r"[a-z0-9’'-]+")


def _link_uses(rg: RuleGraph) -> None:
    ed = rg.edition
    index: dict[str, str] = {}
    linked = rg.linked_terms()
    for key in linked:
        index[key] = key
        if not key.endswith("s"):
            index[key + "s"] = key
    for key in linked:
        # and by its words as a rule's text is read ("intervening “if” clause", "team vs. team
        # variant"), unless they are another term's own ("∞ (infinity)" is no "infinity")
        words = " ".join(_WORD.findall(key))
        index.setdefault(words, key)
        if not words.endswith("s"):
            index.setdefault(words + "s", key)
    max_len = max((len(k.split()) for k in index), default=0)
    for number, rule in ed.rules.items():
        words = _WORD.findall((rule.title + " " + rule.text).lower())
        found: set[str] = set()
        for i in range(len(words)):
            for n in range(1, max_len + 1):
                if i + n > len(words):
                    break
                key = index.get(" ".join(words[i:i + n]))
                if key:
                    found.add(key)
        for key in found:
            if number not in ed.terms[key].defined_by:
                rg.graph.add_edge(number, "term:" + key, kind="uses")
