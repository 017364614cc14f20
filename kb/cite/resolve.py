"""Resolve found citations against an edition: each gets a status, like CourtListener's
citation lookup (200 ok, 300 ambiguous, 404 not found, 429 over the limit).

* ``ok``: the number exists in the edition the article is linked against.
* ``not_found``: no such rule (the nearest numbers are suggested).
* ``ambiguous``: the article pins no ruleset and the number exists in several.
* ``renumbered``: the article was written for an older edition (front matter) and the
  rule now has another number; ``number`` is the number in the target edition.
* ``quote_mismatch``: the article quotes text that differs from the rule's.
* ``over_limit``: found, but past the per-request limit, so not looked up.

Moving between editions goes through a :data:`Mapper` hook (``kb.editions`` supplies it):
a callable from a number in the article's edition to the number in the target edition,
None when the rule has no counterpart.

>>> # resolve_citations(find_citations("rule 337.1a"), rg)[0].number  →  '337.1.a'
"""

from __future__ import annotations

import re
import weakref
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from kb.cite.find import Citation, Quote
from kb.graph import RuleGraph
from kb.numbers import Segments, format_number

Status = Literal["ok", "not_found", "ambiguous", "renumbered", "quote_mismatch", "over_limit"]
Mapper = Callable[[str], "str | None"]
BROKEN: frozenset[str] = frozenset({"not_found", "ambiguous", "quote_mismatch"})
MAX_RANGE = 200
_SUBTREE_FOR_QUOTES = 60
_ELLIPSIS = re.compile(r"\s*(?:\.\s?\.\s?\.|…|\[\s*(?:\.\.\.|…)\s*\])\s*")
_QUOTE_CHARS = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "\u00a0": " "})


@dataclass(frozen=True, slots=True)
class CitedRule:
    """A rule a citation points to, with what a footnote or preview shows."""

    ruleset: str
    edition: str
    number: str
    kind: str
    title: str
    text: str
    examples: tuple[str, ...] = ()

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.ruleset, self.edition, self.number)

    @property
    def body(self) -> str:
        """The rule's text, or a heading's title."""
        return self.text or self.title


@dataclass(slots=True)
class Resolution:
    """A citation and what it points to in the edition it is linked against."""

    citation: Citation
    status: Status
    rules: list[CitedRule] = field(default_factory=list)
    written: str = ""
    message: str = ""
    nearest: list[str] = field(default_factory=list)
    candidates: list[dict[str, str]] = field(default_factory=list)
    quote_similarity: float | None = None
    # A number the edition lacks and another edition of its ruleset has: where that rule
    # is now (kb.query.KnowledgeBase.number_elsewhere's answer), as the rule lookup says.
    elsewhere: dict[str, Any] | None = None
    # (ruleset, edition) a citation pointing at no rule was looked up in, when that is not
    # the edition its article is linked against: its prefix named another ruleset
    # (kb.cite.target.resolve_as_named). None: the article's own, or no single one.
    read_in: tuple[str, str] | None = None

    @property
    def number(self) -> str | None:
        """The number linked to (the first of a range), in the target edition."""
        return self.rules[0].number if self.rules else None

    @property
    def ruleset(self) -> str | None:
        """The ruleset of the rules pointed at, else the one the citation was read in
        (:attr:`read_in`), else None."""
        if self.rules:
            return self.rules[0].ruleset
        return self.read_in[0] if self.read_in is not None else None

    @property
    def edition(self) -> str | None:
        """The edition of the rules pointed at, else the one read in, else None."""
        if self.rules:
            return self.rules[0].edition
        return self.read_in[1] if self.read_in is not None else None

    @property
    def broken(self) -> bool:
        return self.status in BROKEN

    @property
    def linked(self) -> bool:
        """True when the citation points at rules (links and footnotes are drawn)."""
        return bool(self.rules) and self.status in ("ok", "renumbered", "quote_mismatch")


def resolve_citations(citations: Sequence[Citation], editions: RuleGraph | Sequence[RuleGraph], *,
                      written_for: RuleGraph | None = None, mapper: Mapper | None = None,
                      limit: int | None = None) -> list[Resolution]:
    """Resolve every citation, in order.

    ``editions`` is the edition to link against, or several candidates (one per ruleset)
    when the article pins no ruleset: the ruleset where most citations exist is then
    preferred, and a number found in several rulesets without a preference is ambiguous.
    ``written_for`` is the edition the article was written for when it differs from the
    (single) target; ``mapper`` carries its numbers to the target.

    Each resolution is the caller's own (its lists too): :func:`resolve_shared` with each
    place's copy.
    """
    targets = [editions] if isinstance(editions, RuleGraph) else list(editions)
    if not targets:
        return [Resolution(c, "not_found", message="no edition to resolve against") for c in citations]
    limit = len(citations) if limit is None else max(0, limit)
    head, tail = citations[:limit], citations[limit:]
    out = []
    given: set[int] = set()  # a shared resolution is given as it is to its first place only
    for res, c in zip(resolve_shared(head, targets, written_for=written_for, mapper=mapper), head):
        if res.citation is not c or id(res) in given:
            res = copy_for(res, c)
        else:
            given.add(id(res))
        out.append(res)
    message = f"past the limit of {limit} citations per request; not looked up"
    out.extend(Resolution(c, "over_limit", written=_written(c, targets[0]), message=message)
               for c in tail)
    return out


def resolve_shared(citations: Sequence[Citation], editions: RuleGraph | Sequence[RuleGraph], *,
                   written_for: RuleGraph | None = None,
                   mapper: Mapper | None = None) -> list[Resolution]:
    """:func:`resolve_citations` without a copy per place: the places citing the same thing
    (:func:`memo_key`) get the same resolution object, whose ``citation`` is one of them
    (or of an earlier article's: what an edition keeps is shared too). Read-only: the
    linker reads a status and rules per place, and copies one (:func:`copy_for`) only for
    a caller who asks for the places' resolutions."""
    targets = [editions] if isinstance(editions, RuleGraph) else list(editions)
    if not targets:
        return [Resolution(c, "not_found", message="no edition to resolve against") for c in citations]
    # Articles cite the same rules again and again: each distinct citation is resolved
    # once per call.
    memo: dict[tuple[Any, ...], Resolution] = {}
    if len(targets) != 1:
        return _resolve_among(list(citations), targets, memo)
    target = targets[0]
    out = []
    append, known, tid = out.append, memo.get, id(target)
    # The edition's resolutions of single numbers, looked up once per call rather than once
    # per distinct citation (most of a short article's citations are the first of their rule).
    found = _edition_cache(target).found if written_for is None or written_for is target else None
    kept = found.get if found is not None else None
    # Against one edition, a single number's resolution depends on the number alone (not on
    # the citation's form or text: "rule 312", "Rule 312" and "(312.1)" read the same), so
    # most places are looked up by their number, with no key tuple made per place.
    singles: dict[Segments, Resolution] = {}
    single = singles.get
    for c in citations:
        # memo_key(c), inlined: this loop runs once per citation of a long article (the
        # citation unpacked at once, in the order find.CITATION_ORDER keeps).
        _, _, text, number, _, form, last, _, _, quote = c
        if quote is not None:
            append(_resolve_one(c, target, written_for, mapper))
            continue
        if last is None:
            first = single(number)
            if first is None:
                # A single number another article (or this one) resolved: _resolve_memo's
                # first step, inlined.
                first = kept(number) if kept is not None else None
                if first is None:
                    first = _resolve_memo(c, target, written_for, mapper, memo)
                singles[number] = first
            append(first)
            continue
        key = (tid, number, last, form, text)  # a range: its message quotes its text
        first = known(key)
        if first is None:
            first = memo[key] = _resolve_memo(c, target, written_for, mapper, memo)
        append(first)
    return out


def memo_key(c: Citation) -> tuple[Any, ...] | None:
    """What a citation's resolution depends on (besides the editions), or None when it
    must be resolved on its own (a quotation is compared with the rule's text). The text
    counts for a range only, whose message quotes it."""
    if c.quote is not None:
        return None
    return (c.number, c.last, c.form, c.text if c.last is not None else None)


def _resolve_memo(c: Citation, target: RuleGraph, written_for: RuleGraph | None,
                  mapper: Mapper | None, memo: dict[tuple[Any, ...], Resolution]) -> Resolution:
    """The resolution of ``c`` in ``target``, shared with the document's other places citing
    the same thing (``memo``) and, for a number that exists, with other articles."""
    key = memo_key(c)
    if key is None:
        return _resolve_one(c, target, written_for, mapper)
    key = (id(target), *key)
    first = memo.get(key)
    if first is not None:
        return first
    # A single number found in the edition linked against is the same for every article:
    # kept with the edition (only numbers that exist, so the cache stays bounded).
    plain = c.last is None and (written_for is None or written_for is target)
    if plain:
        first = _edition_cache(target).found.get(c.number)
        if first is not None:
            memo[key] = first
            return first
    first = memo[key] = _resolve_one(c, target, written_for, mapper)
    if plain and first.status == "ok":
        found = _edition_cache(target).found
        if len(found) < _MAX_NUMBERS:  # a copy: the caller may change what it is given
            found[c.number] = copy_for(first, c)
    return first


def copy_for(res: Resolution, c: Citation) -> Resolution:
    """The resolution of another place citing the same thing (nothing mutable shared).

    Its slots are filled in directly, without the dataclass's ``__init__`` (which handles
    defaults and factories, and takes about 1.7 times as long): this runs once per place
    of a long article. :data:`_COPIED` keeps it in step with the fields."""
    out = _new_resolution(Resolution)
    out.citation = c
    out.status = res.status
    out.rules = res.rules[:]
    out.written = res.written
    out.message = res.message
    out.nearest = res.nearest[:]
    out.candidates = [dict(d) for d in res.candidates] if res.candidates else []
    out.quote_similarity = res.quote_similarity
    out.elsewhere = dict(res.elsewhere) if res.elsewhere is not None else None
    out.read_in = res.read_in
    return out


_new_resolution = object.__new__
# The fields copy_for fills in, in Resolution's order.
_COPIED = ("citation", "status", "rules", "written", "message", "nearest", "candidates",
           "quote_similarity", "elsewhere", "read_in")
if tuple(f.name for f in fields(Resolution)) != _COPIED:
    raise ImportError("kb.cite.resolve: copy_for fills in the fields " + ", ".join(_COPIED)
                      + "; Resolution's fields changed")


# -- one edition -----------------------------------------------------------------------
def _resolve_one(c: Citation, target: RuleGraph, written_for: RuleGraph | None,
                 mapper: Mapper | None) -> Resolution:
    source = written_for if written_for is not None and written_for is not target else None
    home = source or target
    written = _written(c, home)
    found = _find(c, home)
    if isinstance(found, str):
        return Resolution(c, "not_found", written=written, message=found,
                          nearest=home.nearest(c.last if found.startswith("range end") and c.last else c.number))
    renumbered = False
    if source is not None:
        if mapper is None:
            # Editions cannot be compared yet: assume the numbers did not move.
            moved = _find(c, target)
            if isinstance(moved, str):
                return Resolution(c, "not_found", written=written,
                                  message=f"{moved}; the article was written for {source.edition.name}",
                                  nearest=target.nearest(c.number))
            numbers = moved
        else:
            mapped = [mapper(n) for n in (found[0], found[-1])]
            if any(m is None or target.find(_segments(target, m)) is None for m in mapped):
                return Resolution(c, "not_found", written=written,
                                  message=f"rule {written} of {source.edition.name} has no counterpart "
                                          f"in {target.edition.name}",
                                  nearest=target.nearest(c.number))
            first, last = (m for m in mapped if m is not None)
            numbers = [first] if not c.is_range else (_members(target, first, last) or [first, last])
            renumbered = numbers != found
    else:
        numbers = found
    rules = [_cited(target, n) for n in numbers]
    res = Resolution(c, "renumbered" if renumbered else "ok", rules, written)
    if renumbered:
        cited = f"rules {written} of {home.edition.name} are" if c.is_range else \
            f"rule {written} of {home.edition.name} is"
        res.message = (f"{cited} rule{'s' if len(numbers) > 1 else ''} {_span_name(numbers)} "
                       f"in {target.edition.name}")
    if c.quote is not None:
        matches, score = _quote_matches(c.quote, home, found)
        res.quote_similarity = score
        if not matches and res.status == "ok":
            res.status = "quote_mismatch"
            res.message = (f"the quotation differs from the text of rule {written} "
                           f"in {home.edition.ruleset} {home.edition.name}; similarity {score:.2f}")
    return res


def _find(c: Citation, rg: RuleGraph) -> list[str] | str:
    """Canonical numbers a citation names in an edition, or why it names none."""
    first = _canonical(rg, c.number)
    if first is None:
        return f"rule {format_number(c.number, rg.edition.number_style)} does not exist in {_ed(rg)}"
    if c.last is None:
        return [first]
    last = _canonical(rg, c.last)
    if last is None:
        return f"range end {format_number(c.last, rg.edition.number_style)} does not exist in {_ed(rg)}"
    members = _span(rg, first, last)
    if members is None:
        return f"range {c.text!r} runs backwards in {_ed(rg)}"
    if len(members) > MAX_RANGE:
        return (f"range {c.text!r} spans {len(members)} rules, over the limit of {MAX_RANGE} "
                f"rules per range, in {_ed(rg)}")
    return members


def found_numbers(c: Citation, rg: RuleGraph) -> list[str] | None:
    """The canonical numbers a citation names in an edition (a range's members), or None
    when it names none there."""
    if c.last is None:
        first = _canonical(rg, c.number)
        return None if first is None else [first]
    found = _find(c, rg)
    return None if isinstance(found, str) else found


def _members(rg: RuleGraph, first: str, last: str) -> list[str]:
    """Rules from ``first`` to ``last`` at the depth of ``first``, in document order; empty
    when the range runs backwards or holds more than :data:`MAX_RANGE` rules."""
    out = _span(rg, first, last)
    return out if out is not None and len(out) <= MAX_RANGE else []


def _span(rg: RuleGraph, first: str, last: str) -> list[str] | None:
    """Every rule from ``first`` to ``last`` at the depth of ``first``, in document order,
    however many; None when ``last`` comes before ``first``."""
    rules = rg.edition.rules
    a, b = rules[first], rules[last]
    if b.order < a.order:
        return None
    depth = len(a.segments)
    order = list(rules)
    out = [n for n in order[a.order: b.order + 1] if len(rules[n].segments) == depth]
    if last not in out:
        out.append(last)
    return out


@dataclass(slots=True)
class _EditionCache:
    """What citations of one loaded edition share across articles: its cited rules, and
    the resolution of each single number that exists in it."""

    cited: dict[str, CitedRule] = field(default_factory=dict)
    found: dict[Segments, Resolution] = field(default_factory=dict)
    numbers: dict[Segments, str | None] = field(default_factory=dict)


# Keyed by the graph object (a knowledge base's editions are read-only once loaded), so
# two builds of an edition of the same name never share an entry; dropped with the graph.
_CACHES: weakref.WeakKeyDictionary[RuleGraph, _EditionCache] = weakref.WeakKeyDictionary()
_MAX_NUMBERS = 100_000  # numbers looked up and remembered per edition, found or not
_UNSEEN = object()


def _edition_cache(rg: RuleGraph) -> _EditionCache:
    try:
        return _CACHES[rg]
    except KeyError:
        return _CACHES.setdefault(rg, _EditionCache())


def _canonical(rg: RuleGraph, number: Segments) -> str | None:
    """``rg.find(number)``, remembered (numbers that do not exist too, up to a bound)."""
    numbers = _edition_cache(rg).numbers
    found = numbers.get(number, _UNSEEN)
    if found is _UNSEEN:
        found = rg.find(number)
        if len(numbers) < _MAX_NUMBERS:
            numbers[number] = found
    return found  # type: ignore[return-value]


def _cited(rg: RuleGraph, number: str) -> CitedRule:
    cited = _edition_cache(rg).cited
    rule = cited.get(number)
    if rule is None:
        r = rg.rule(number)
        rule = cited[number] = CitedRule(rg.edition.ruleset, rg.edition.name, number, r.kind,
                                         r.title, r.text, tuple(r.examples))
    return rule


def _segments(rg: RuleGraph, number: str) -> Segments:
    rule = rg.edition.rules.get(number)
    return rule.segments if rule is not None else tuple(re.findall(r"\d+|[a-z]+", number))


def _written(c: Citation, rg: RuleGraph) -> str:
    name = format_number(c.number, rg.edition.number_style)
    if c.last is not None:
        name += "–" + format_number(c.last, rg.edition.number_style)
    return name


def _span_name(numbers: list[str]) -> str:
    return numbers[0] if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _ed(rg: RuleGraph) -> str:
    partial = " (a partial edition)" if rg.edition.partial else ""
    return f"{rg.edition.ruleset} {rg.edition.name}{partial}"


# -- several rulesets ----------------------------------------------------------------
def _resolve_among(citations: list[Citation], targets: list[RuleGraph],
                   memo: dict[tuple[Any, ...], Resolution]) -> list[Resolution]:
    # Where each distinct citation fits and is found (numbers only: a quotation does not
    # change where a number exists), counted once per place it is cited.
    seen: dict[tuple[Any, ...], tuple[list[RuleGraph], list[tuple[RuleGraph, list[str]]]]] = {}
    keys = []
    for c in citations:
        key = (c.number, c.last, c.form, c.text if c.last is not None else None)
        if key not in seen:
            cands = [rg for rg in targets if _form_fits(c, rg)]
            seen[key] = (cands, [(rg, f) for rg in cands if (f := found_numbers(c, rg)) is not None])
        keys.append(key)
    tally: Counter[str] = Counter()
    for key, times in Counter(keys).items():
        for rg, _ in seen[key][1]:
            tally[rg.edition.ruleset] += times
    ranked = tally.most_common(2)
    preferred = ranked[0][0] if ranked and (len(ranked) == 1 or ranked[0][1] > ranked[1][1]) else None
    # The edition each distinct citation is resolved in (None: ambiguous or not found).
    where: dict[tuple[Any, ...], RuleGraph | None] = {}
    for key, (cands, hits) in seen.items():
        chosen = [rg for rg in cands if rg.edition.ruleset == preferred]
        where[key] = chosen[0] if chosen else (hits[0][0] if len(hits) == 1 else None)
    out = []
    for c, key in zip(citations, keys):
        rg = where[key]
        if rg is not None:
            out.append(_resolve_memo(c, rg, None, None, memo))
            continue
        # Neither is about a rule's text, so a quotation does not matter here.
        first = memo.get(("among", *key))
        if first is None:
            cands, hits = seen[key]
            first = memo[("among", *key)] = _unresolved(c, cands, hits, targets)
        out.append(first)
    return out


def _unresolved(c: Citation, cands: list[RuleGraph], hits: list[tuple[RuleGraph, list[str]]],
                targets: list[RuleGraph]) -> Resolution:
    """A citation found in several rulesets (ambiguous) or in none (not found)."""
    if hits:
        return Resolution(
            c, "ambiguous", written=_written(c, hits[0][0]),
            message="rule exists in " + ", ".join(_ed(rg) for rg, _ in hits)
                    + "; pin the ruleset (front matter `ruleset:`)",
            candidates=[{"ruleset": rg.edition.ruleset, "edition": rg.edition.name, "number": f[0]}
                        for rg, f in hits])
    # Told in the candidate holding most of what it names (a range whose two ends are one
    # ruleset's rules is too long or backwards there, not missing from another's), the
    # first of those on a tie.
    where = max(cands, key=lambda rg: _ends_found(c, rg)) if cands else targets[0]
    why = _find(c, where) if cands else "no ruleset with Magic-style numbers for a CR citation"
    # the nearest of the number it is missing, as against one edition (_resolve_one)
    near = c.last if c.last is not None and str(why).startswith("range end") else c.number
    return Resolution(c, "not_found", written=_written(c, where), message=str(why),
                      nearest=where.nearest(near) if cands else [])


def _ends_found(c: Citation, rg: RuleGraph) -> int:
    """How many of a citation's numbers (one, or a range's two ends) exist in ``rg``."""
    return sum(_canonical(rg, n) is not None for n in (c.number, c.last) if n is not None)


def count_found(citations: Sequence[Citation], rg: RuleGraph,
                times: Sequence[int] | None = None) -> int:
    """How many ``citations`` name rules that exist in ``rg`` in a form that fits its
    numbering (``times[i]`` places for ``citations[i]`` when given, one each otherwise):
    how well an article's citations fit an edition."""
    found = 0
    for i, c in enumerate(citations):
        if _form_fits(c, rg) and found_numbers(c, rg) is not None:
            found += times[i] if times is not None else 1
    return found


def _form_fits(c: Citation, rg: RuleGraph) -> bool:
    """``CR 116.1`` names a Magic-style ruleset; other forms fit any."""
    return c.form == "rule" or c.form == "bare" or rg.edition.number_style == "mtg"


# -- quotations ------------------------------------------------------------------------
def _quote_matches(quote: Quote, rg: RuleGraph, numbers: list[str]) -> tuple[bool, float]:
    """Does the quoted text appear in the cited rules (their subrules included)?

    Case, whitespace and the shape of quote marks are ignored; an ellipsis stands for an
    omission, so each fragment must appear, in order.
    """
    texts: list[str] = []
    for number in numbers:
        for i, n in enumerate(rg.subtree(number)):
            if i >= _SUBTREE_FOR_QUOTES:
                break
            r = rg.rule(n)
            texts.extend([r.title, r.text, *r.examples])
    haystack = _norm(" ".join(t for t in texts if t))
    pieces = [p for p in (_norm(x).strip(" .,;:!?\"'") for x in _ELLIPSIS.split(quote.text)) if p]
    if not pieces:
        return True, 1.0
    pos = 0
    for piece in pieces:
        at = haystack.find(piece, pos)
        if at < 0:
            from rapidfuzz import fuzz
            return False, round(fuzz.partial_ratio(_norm(quote.text), haystack) / 100.0, 2)
        pos = at + len(piece)
    return True, 1.0


def _norm(text: str) -> str:
    # kb.read.text's package imports every reader (python-docx, pypdf, numpy): loaded when a
    # quote is compared, not whenever a rule's rulings are listed (bench/cli_startup.py)
    from kb.read.text import fold
    return fold(text.translate(_QUOTE_CHARS)).casefold()


def as_dict(res: Resolution, url: str | None = None) -> dict[str, Any]:
    """The response shape of one citation (the API's, the CLI's JSON)."""
    c = res.citation
    out: dict[str, Any] = {
        "start": c.start, "end": c.end, "text": c.text, "form": c.form,
        "written": res.written, "status": res.status, "broken": res.broken,
        "ruleset": res.ruleset, "edition": res.edition, "number": res.number,
        "numbers": [r.number for r in res.rules], "url": url,
        "target": res.number if res.status == "renumbered" else None,
        "message": res.message,
    }
    if res.nearest:
        out["nearest"] = res.nearest
    if res.candidates:
        out["candidates"] = res.candidates
    if res.elsewhere is not None:
        out["elsewhere"] = res.elsewhere
    if c.quote is not None:
        out["quote"] = {"text": c.quote.text, "start": c.quote.start, "end": c.quote.end,
                        "similarity": res.quote_similarity}
    return out
