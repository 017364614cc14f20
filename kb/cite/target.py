"""Which edition an article is linked against, and which it was written for.

The caller's ``ruleset``/``edition`` say what to link against; an article's front matter
(``ruleset: mtg``, ``edition: 2010-10-01``) says what it was written for. Without either,
the newest edition of each ruleset is a candidate; the ruleset whose editions fit more of
the citations than any other's is linked against, saying so, and where two fit equally the
resolver picks per citation, saying that it was a guess (:func:`infer_written_for`).
When the article was written for an older edition than the one it is linked against,
numbers are carried across by the edition mapping (:mod:`kb.editions`).

Front matter keys other than :data:`PIN_KEYS` and common article metadata
(:data:`METADATA_KEYS`) are warned about, naming the keys the linker knows. One such key
whose value names a built ruleset and one of its editions and nothing else
(``rules: mtg 2010-10-01``) is read, with that warning, as the edition the article was
written for (``written_for`` in the pins), when the article has no ``ruleset:``/``edition:``
of its own: the reading is exact, so it cannot pick an edition the author did not name.
Unlike ``edition:``, such a reading does not become the edition linked against (the newest
stays the default, as for an article without pins): it is a guess the author did not
document, so the report shows each citation's number today. An article without a
recognised pin is linked as written for the edition its citations resolve best in
(:func:`infer_written_for`).

A citation's own prefix names the ruleset it means (``CR 116.1`` is Magic's Comprehensive
Rules, ``Core Rules 337.1`` Riftbound's), whichever ruleset the article is read as, named by
the caller, pinned or inferred (that one holds for the citations naming none): such a
citation is looked up in the named ruleset's edition in force on the article's date, else
on the date of the edition the article is read in when that is not its default, else the
named ruleset's default (:func:`named_editions`, :func:`named_day`, :func:`named_reading`,
:func:`resolve_as_named`), with a note saying which and why. :func:`resolve_for_target`
takes citations through the three steps: the target, the edition inferred, the prefixes;
a ``not_found`` one, a range too, is told where its rules are now (:func:`with_elsewhere`).
"""

from __future__ import annotations

import datetime
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from kb.cite.find import Citation
from kb.cite.resolve import Mapper, Resolution, copy_for, count_found, found_numbers
from kb.derived import derived, derived_holding_editions
from kb.editions.lineage import stored_rules
from kb.editions.queries import FollowedMapping
from kb.errors import QueryError
from kb.graph import RuleGraph
from kb.inputs import date_problem, load_yaml
from kb.loaded import LoadedEditions, elsewhere_sentence, in_force_among
from kb.model import Diagnostic
from kb.numbers import format_number
from kb.store import stored_rules_path


@dataclass
class LinkTarget:
    """The editions citations are resolved against, and how to reach them."""

    editions: list[RuleGraph]
    written_for: RuleGraph | None = None
    mapper: Mapper | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # The front matter named the edition the article was written for (nothing to infer).
    pinned: bool = False
    # How written_for was inferred, when it was ("… inferred from 6 of 6 citations").
    inferred: str | None = None

    @property
    def single(self) -> RuleGraph | None:
        return self.editions[0] if len(self.editions) == 1 else None

    def describe(self) -> dict[str, Any]:
        one = self.single
        return {"ruleset": one.edition.ruleset if one else None,
                "edition": one.edition.name if one else None,
                "candidates": [f"{g.edition.ruleset} {g.edition.name}" for g in self.editions],
                "written_for": self.written_for.edition.name if self.written_for else None,
                "mapping": self.mapper is not None, "inferred": self.inferred}


# Front-matter keys the linker reads, and article metadata it knowingly leaves alone.
PIN_KEYS: tuple[str, ...] = ("ruleset", "edition", "date")
METADATA_KEYS: frozenset[str] = frozenset({
    "title", "subtitle", "author", "authors", "date", "updated", "modified", "published",
    "lastmod", "tags", "tag", "categories", "category", "description", "summary", "abstract",
    "slug", "layout", "draft", "lang", "language", "url", "permalink", "id", "series",
    "image", "keywords", "toc", "weight", "aliases", "license", "source"})


def parse_front_matter(text: str, source: str = "",
                       kb: LoadedEditions | None = None) -> tuple[dict[str, str], list[Diagnostic]]:
    """``ruleset``, ``edition`` and ``date`` from YAML front matter (values read as
    strings, so ``edition: 1.10`` stays ``1.10``). Malformed YAML, a date that is none, a
    pin that is a list or a mapping (not a name or a date: it names its key) and a key the
    linker does not know are warnings, never errors; with ``kb``, an unknown key
    that names a ruleset and its edition exactly is read as the pin (module docstring)."""
    try:
        # Every scalar a string; 422 past input.nesting (the caller's refusal, not a warning).
        data = load_yaml(text, f"{source or 'the article'}'s front matter",
                         strings=True) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        return {}, [Diagnostic(f"front matter is not valid YAML: {getattr(exc, 'problem', exc)}",
                               source, line, "warning")]
    if not isinstance(data, dict):
        return {}, [Diagnostic("front matter is not a mapping; ignored", source, 1, "warning")]
    pins = {k: str(data[k]).strip() for k in PIN_KEYS if isinstance(data.get(k), str)}
    pins = {k: v for k, v in pins.items() if v}
    diags: list[Diagnostic] = []
    for key in PIN_KEYS:  # every scalar is read as a string: what is left is a list or a mapping
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            what = "a list" if isinstance(value, list) else "a mapping" if isinstance(value, dict) \
                else f"a {type(value).__name__}"
            needs = "a date" if key == "date" else "a name"
            diags.append(Diagnostic(f"front matter {key}: is {what}, not {needs}; ignored",
                                    source, _key_line(text, key), "warning"))
    if "date" in pins:
        day, problem = front_matter_date(pins["date"])
        if problem is None:
            pins["date"] = day
        else:
            instead = ("the edition: pin says what it was written for" if "edition" in pins else
                       "the edition it was written for is inferred from its citations, without a date")
            diags.append(Diagnostic(f"front matter date {pins['date']!r} is {problem}; ignored ({instead})",
                                    source, _key_line(text, "date"), "warning"))
            del pins["date"]
    unknown = [str(k) for k in data if str(k) not in PIN_KEYS and str(k).lower() not in METADATA_KEYS]
    readings = {k: r for k in unknown if kb is not None and isinstance(data[k], str)
                and (r := _read_pin(kb, data[k])) is not None}
    adopt = (len(readings) == 1 and "ruleset" not in pins and "edition" not in pins
             and len(set(readings.values())) == 1)
    known = ", ".join(PIN_KEYS)
    for key in unknown:
        message = (f"front matter key {key!r} is not one the linker knows (it reads {known}; "
                   "title, author, tags and other article metadata are left alone)")
        if adopt and key in readings:
            ruleset, edition = readings[key]
            pins.update(ruleset=ruleset, written_for=edition)
            message += (f"; read {data[key].strip()!r} as written for {ruleset} {edition} "
                        "(pin it with ruleset: and edition:)")
        else:
            message += "; ignored"
        diags.append(Diagnostic(message, source, _key_line(text, key), "warning"))
    return pins, diags


def front_matter_date(value: str) -> tuple[str, str | None]:
    """The calendar day a front matter ``date:`` names (``YYYY-MM-DD``, or an ISO date and
    time such as ``2011-01-05T10:00:00Z``, whose day is kept), and why it names none (the
    problem, read after the value as :func:`kb.inputs.date_problem`'s), or None."""
    timed = len(value) > 11 and value[10] in "T "
    day = value[:10] if timed else value
    problem = date_problem(day)
    if problem is None and timed:
        try:
            datetime.datetime.fromisoformat(f"{day}T{value[11:]}")
        except ValueError:
            problem = f"not a date and time: {value[11:]!r} after the day is no time of day"
    return day, problem


def _key_line(text: str, key: str) -> int:
    """The article's line on which a top-level front-matter key is written (the front
    matter's text starts on line 2, under its opening ``---``); 1 where it is not found."""
    found = re.search(rf"^['\"]?{re.escape(key)}['\"]?[ \t]*:", text, re.M)
    return text.count("\n", 0, found.start()) + 2 if found else 1


def _read_pin(kb: LoadedEditions, value: str) -> tuple[str, str] | None:
    """``(ruleset, edition)`` when ``value`` is exactly a built ruleset's name and one of its
    editions' names, in either order ("mtg 2010-10-01", "2010-10-01, mtg"), else None."""
    words = [w for w in re.split(r"[\s,;]+", value.strip()) if w]
    if len(words) != 2:
        return None
    rulesets = {r.lower(): r for r, _ in kb.graphs}
    for ruleset, edition in (words, words[::-1]):
        name = rulesets.get(ruleset.lower())
        if name is not None and (name, edition) in kb.graphs:
            return name, edition
    return None


def link_target(kb: LoadedEditions, ruleset: str | None = None, edition: str | None = None,
                pins: dict[str, str] | None = None, source: str = "") -> LinkTarget:
    """Choose the editions to link against.

    The caller's ``ruleset``/``edition`` win (unknown ones raise ``QueryError`` 404); the
    front matter ``pins`` name the edition the article was written for (unknown ones are
    warnings). ``edition`` alone picks the ruleset that has an edition of that name.
    """
    pins = dict(pins or {})
    # The choice depends on these names only; it is kept for the life of the knowledge
    # base when it needs no warning (so only names that exist are kept: a bounded set).
    key = (ruleset, edition, pins.get("ruleset"), pins.get("edition"), pins.get("written_for"))
    chosen = _link_targets(kb)
    known = chosen.get(key)
    if known is not None:
        return LinkTarget(list(known.editions), known.written_for, known.mapper, pinned=known.pinned)
    target = _choose(kb, ruleset, edition, pins, source)
    if not target.diagnostics:
        chosen[key] = LinkTarget(list(target.editions), target.written_for, target.mapper,
                                 pinned=target.pinned)
    return target


@derived_holding_editions  # its link targets hold graphs: dropped when any is unloaded
def _link_targets(kb: LoadedEditions) -> dict[tuple[str | None, ...], LinkTarget]:
    """The link targets chosen without a warning in this build, by the names that chose them."""
    return {}


def _choose(kb: LoadedEditions, ruleset: str | None, edition: str | None, pins: dict[str, str],
            source: str) -> LinkTarget:
    diags: list[Diagnostic] = []
    rulesets = [r["name"] for r in kb.rulesets()]
    if not rulesets:
        raise QueryError(503, "the knowledge base holds no editions")
    if pins.get("ruleset") and pins["ruleset"] not in rulesets:
        diags.append(Diagnostic(f"front matter names unknown ruleset {pins['ruleset']!r} "
                                f"(rulesets: {', '.join(rulesets)}); ignored", source, 1, "warning"))
        pins = {}
    if ruleset and pins.get("ruleset") and pins["ruleset"] != ruleset:
        diags.append(Diagnostic(f"front matter pins ruleset {pins['ruleset']!r}; linking against "
                                f"{ruleset!r} as asked, without its edition", source, 1, "warning"))
        pins = {}
    name = ruleset or pins.get("ruleset")
    if name is None and edition:
        having = [r for r in rulesets if (r, edition) in kb.graphs]
        if not having:
            raise QueryError(404, f"no ruleset has an edition {edition!r}", {"rulesets": rulesets})
        name = having[0]
    if name is None and pins.get("edition"):
        having = [r for r in rulesets if (r, pins["edition"]) in kb.graphs]
        name = having[0] if len(having) == 1 else None
    if name is None:
        return LinkTarget([kb.edition(r) for r in rulesets], diagnostics=diags)

    written_for = None
    if pins.get("written_for") and not pins.get("edition") and (name, pins["written_for"]) in kb.graphs:
        written_for = kb.graphs[(name, pins["written_for"])]  # read from an unknown key
    elif pins.get("edition"):
        if (name, pins["edition"]) in kb.graphs:
            written_for = kb.graphs[(name, pins["edition"])]
        else:
            diags.append(Diagnostic(
                f"front matter names unknown edition {pins['edition']!r} of {name} (editions: "
                + ", ".join(e["edition"] for e in kb.editions(name))
                + "); the default (the newest full edition) is used",
                source, 1, "warning"))
    if edition:
        target = kb.edition(name, edition)
    elif written_for is not None and pins.get("edition"):
        target = written_for
    else:
        target = kb.edition(name)
    if written_for is None or written_for is target:
        return LinkTarget([target], diagnostics=diags, pinned=written_for is not None)
    mapper = edition_mapper(kb, written_for, target)
    if mapper is None:
        diags.append(Diagnostic(
            f"the article was written for {name} {written_for.edition.name}; editions cannot be "
            f"compared yet, so its numbers are looked up unchanged in {target.edition.name}",
            source, 1, "warning"))
    return LinkTarget([target], written_for, mapper, diags, pinned=True)


# A resolution's status, read by map over a document's resolutions (a generator expression
# resumed per citation costs several times as much).
_STATUS = operator.attrgetter("status")


def infer_written_for(kb: LoadedEditions, target: LinkTarget, citations: Sequence[Citation],
                      date: str | None = None, source: str = "",
                      resolved: Sequence[Resolution] | None = None) -> LinkTarget:
    """The target, linked as written for the edition its citations resolve best in, when
    the front matter named none (``target.pinned`` false).

    Every edition of the target's rulesets is scored by how many citations name rules it
    has (those in force on ``date``, the article's, only, when there are any); ties go to
    the edition linked against, then to the newest. When the best is another edition of
    one ruleset, citations are carried to the target by the edition mapping (each old
    number ``renumbered`` or not) and an ``info`` diagnostic says what was inferred;
    otherwise the target is returned unchanged (a tie between rulesets decides nothing).

    With several candidates (no ruleset named or pinned), the ruleset is chosen the same
    way, here for the lookup, the plugin and the records layer (:mod:`kb.records.citing`
    reads the lookup's answer; its own choice is left for an answer naming no ruleset):
    the one ruleset an edition of which fits more citations than any edition of
    the others is linked against, and an ``info`` diagnostic says so (:func:`ruleset_read`);
    where two rulesets fit equally the target stays every candidate, each citation looked
    up where it exists, and a diagnostic says the ruleset was a guess.

    ``resolved``, the citations already resolved against a single ``target``: when none is
    ``not_found`` or ``ambiguous`` and there is no date, the target is among the best and
    wins the tie, so nothing is scored (the common case costs one pass over statuses).
    """
    if target.pinned or not citations:
        return target
    if resolved is not None and not date and len(target.editions) == 1 and (
            set(map(_STATUS, resolved)).isdisjoint(("not_found", "ambiguous"))):
        return target
    # Each distinct citation once, with how many places cite it.
    distinct: dict[tuple[Any, ...], list[Any]] = {}
    for c in citations:
        entry = distinct.get((c.number, c.last, c.form))
        if entry is None:
            distinct[(c.number, c.last, c.form)] = [c, 1]
        else:
            entry[1] += 1
    cited = [c for c, _ in distinct.values()]
    times = [n for _, n in distinct.values()]
    scored: list[tuple[int, int, tuple[str, str]]] = []  # (score, preference, edition)
    linked = {(g.edition.ruleset, g.edition.name) for g in target.editions}
    ranges = any(c.last is not None for c in cited)
    for ruleset in dict.fromkeys(g.edition.ruleset for g in target.editions):
        editions = kb.editions(ruleset)  # oldest first
        if date:
            editions = [e for e in editions if e["date"] and e["date"] <= date] or editions
        for order, e in enumerate(editions):
            key = (ruleset, e["edition"])
            preference = len(editions) + 1 if key in linked else order
            scored.append((count_found(cited, _numbers_of(kb, key, ranges), times), preference, key))
    best = max(score for score, _, _ in scored)
    tied = [(preference, key) for score, preference, key in scored if score == best]
    if best == 0:
        return target
    tied_rulesets = {ruleset for _, (ruleset, _) in tied}
    if len(tied_rulesets) > 1:
        if len(target.editions) == 1:
            return target
        fitting = ", ".join(sorted(tied_rulesets))
        return LinkTarget(list(target.editions), diagnostics=[*target.diagnostics, Diagnostic(
            f"no ruleset pinned, and {best} of its {len(citations)} citations resolve in each of "
            f"{fitting}: each citation is looked up where it exists, a guess "
            "(pin it with ruleset: and edition:)", source, 1, "info")])
    ruleset, name = max(tied, key=lambda t: t[0])[1]
    home = next(g for g in target.editions if g.edition.ruleset == ruleset)
    if len(target.editions) > 1 and home.edition.name == name:
        # the ruleset inferred, and with it the edition: said as an edition inferred alone is
        inferred = f"written for {ruleset} {name}, inferred from {best} of {len(citations)} citations"
        said = ruleset_read(ruleset, best, len(citations), _best_of_others(scored, ruleset), inferred)
        return LinkTarget([home], diagnostics=[*target.diagnostics, Diagnostic(
            said, source, 1, "info")], inferred=inferred)
    if home.edition.name == name:
        return target
    written_for = kb.graphs[(ruleset, name)]
    ed = written_for.edition
    inferred = f"written for {ed.ruleset} {ed.name}, inferred from {best} of {len(citations)} citations"
    diags = [*target.diagnostics, Diagnostic(
        f"{inferred} (no ruleset:/edition: in its front matter); linked against "
        f"{home.edition.ruleset} {home.edition.name}", source, 1, "info")]
    mapper = edition_mapper(kb, written_for, home)
    if mapper is None:
        diags.append(Diagnostic(
            f"editions cannot be compared yet, so its numbers are looked up unchanged in "
            f"{home.edition.name}", source, 1, "warning"))
    return LinkTarget([home], written_for, mapper, diags, inferred=inferred)


def ruleset_read(ruleset: str, resolved: int, total: int, others: dict[str, int],
                 inferred: str = "") -> str:
    """The sentence saying an unpinned article was read in ``ruleset``, in which
    ``resolved`` of its ``total`` citations resolve (``others``: how many resolve in each
    other ruleset built), and ``inferred``, the edition it was so read as written for.

    >>> ruleset_read("mtg", 2, 2, {"riftbound": 0}, "written for mtg 2026-01-16, inferred from 2 of 2 citations")
    'no ruleset pinned: read as mtg, in which 2 of its 2 citations resolve (0 in riftbound): they resolve only there; written for mtg 2026-01-16, inferred from 2 of 2 citations; pin it with ruleset: and edition:'
    """
    elsewhere = ", ".join(f"{n} in {name}" for name, n in sorted(others.items())) or "no other ruleset built"
    why = ("they resolve only there" if not any(others.values())
           else "more resolve there than in any other ruleset")
    return (f"no ruleset pinned: read as {ruleset}, in which {resolved} of its {total} citations "
            f"resolve ({elsewhere}): {why}; {inferred + '; ' if inferred else ''}"
            "pin it with ruleset: and edition:")


def _best_of_others(scored: Sequence[tuple[int, int, tuple[str, str]]], ruleset: str) -> dict[str, int]:
    """Each other ruleset's best score among ``scored`` editions."""
    best: dict[str, int] = {}
    for score, _, (name, _) in scored:
        if name != ruleset:
            best[name] = max(score, best.get(name, 0))
    return best


def _numbers_of(kb: LoadedEditions, key: tuple[str, str], ranges: bool) -> Any:
    """What scoring an edition's fit needs (``find`` and the number style): its stored rule
    texts when the build has them and no citation is a range, so scoring seventy editions
    loads no graph (:func:`kb.editions.lineage.stored_rules`); else its graph."""
    if ranges or kb.build_dir is None or not stored_rules_path(kb.build_dir, *key).is_file():
        return kb.graphs[key]
    return stored_rules(kb, *key)


def edition_mapper(kb: LoadedEditions, source: RuleGraph, target: RuleGraph) -> Mapper | None:
    """The hook to :mod:`kb.editions`: a callable from a number of ``source`` to its
    number in ``target`` (None when the rule has no counterpart), or None when the two
    editions are of different rulesets. The mapping is the one every part of the product
    uses (:func:`kb.editions.queries.edition_mapping`, composed through the editions in
    between and derived once per build)."""
    if source.edition.ruleset != target.edition.ruleset:
        return None
    if source.edition.name == target.edition.name:  # one edition (loaded twice, say)
        return lambda number: number
    # Followed a number at a time: an article cites a few rules, and composing the whole
    # mappings of the editions between costs seconds when they are many (kb.editions.queries).
    mapping = FollowedMapping(kb, source.edition.ruleset, source.edition.name, target.edition.name)

    def mapper(number: str) -> str | None:
        pair = mapping.get(number)
        return pair.target if pair is not None else None
    return mapper


# -- the ruleset a citation's own prefix names -------------------------------------------
# The word right before a citation's keyword ("Comprehensive Rules 116.1", "Riftbound rule
# 337.1"), read from the window of text before the citation reversed: one match at its start
# (a search for the word at the window's end would be tried at each of its characters).
_WORD_BEFORE_REVERSED = re.compile(r"[ \t\u00a0]+([A-Za-z]+)")
_SPACES = frozenset(" \t\u00a0")
_BEFORE = 32  # characters looked at before a citation for that word


def may_name_a_ruleset(texts: Iterable[tuple[str, Sequence[Citation]]], names: dict[str, str]) -> bool:
    """Whether a word right before one of the citations of ``texts`` (each text with the
    citations found in it) may be one of ``names`` (:func:`prefix_names`): a superset of
    where :func:`named_editions` reads a ruleset from a word, told by the last two letters
    of the word before each citation ("see rule 337.1": "ee", which no name ends with)
    without reading the word, and without a scan of the whole text for each name (five
    scans of a text of 100 KB cost a tenth of rendering it). A citation of the CR form
    names a ruleset by its keyword: the caller looks for "CR"."""
    ends = {word[-2:] for word in names}
    spaces = _SPACES
    for text, citations in texts:
        for c in citations:
            at = c.start
            if at > 1 and text[at - 1] in spaces and (
                    text[at - 2] in spaces or text[at - 3:at - 1].lower() in ends):
                return True
    return False


def prefix_names(kb: LoadedEditions) -> dict[str, str]:
    """The words before a citation's keyword that name a ruleset, lower case, to its name:
    the ruleset's name (``mtg rule 116.1``, ``Riftbound rule 337.1``), the word before
    "Rules" in its title (``Comprehensive Rules 116.1``, ``Core Rules 337.1``) and its
    title's first word (``Magic rule 116.1``). A word that would name two rulesets names
    neither (a ruleset's own name still names it). Read once per build (every document
    linked asks, a pinned one too): the dict is shared, read only."""
    return _prefix_names(kb)


@derived
def _prefix_names(kb: LoadedEditions) -> dict[str, str]:
    by_word: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for info in kb.rulesets():
        name = str(info["name"])
        names[name.lower()] = name
        words = re.findall(r"[A-Za-z]+", str(info.get("title") or ""))
        said = {w.lower() for w, after in zip(words, words[1:]) if after.lower() == "rules"}
        if words:
            said.add(words[0].lower())
        for word in said - {"rules", "the"}:
            by_word.setdefault(word, set()).add(name)
    out = {word: next(iter(owners)) for word, owners in by_word.items() if len(owners) == 1}
    out.update(names)
    return out


def named_editions(kb: LoadedEditions, candidates: Sequence[RuleGraph], text: str,
                   citations: Sequence[Citation],
                   names: dict[str, str] | None = None) -> list[RuleGraph | None]:
    """For each of ``citations`` (found in ``text``, in order), the edition among
    ``candidates`` (one per ruleset) of the ruleset its own prefix names, or None:

    ========================================  ==========================================
    written                                    names
    ========================================  ==========================================
    ``CR 116.1``, ``[CR 116.1]``               the one ruleset numbered in Magic's style
                                               (the Comprehensive Rules' abbreviation)
    ``Comprehensive Rules 116.1``              the ruleset whose title holds the word
    ``Core Rules 337.1``                       before "Rules" (:func:`prefix_names`)
    ``Riftbound rule 337.1``, ``mtg rule 5``   the ruleset of that name (or title's first word)
    ``rule 337.1``, ``(337.1a)``               none
    ========================================  ==========================================

    The later items of a list take the prefix of its first (``CR 116.1 and 116.2``,
    ``Core Rules 337.1 and 337.4``)."""
    names = prefix_names(kb) if names is None else names
    # Without "CR" (no citation of the CR form) only a word can name a ruleset.
    if "CR" not in text and not may_name_a_ruleset(((text, citations),), names):
        return [None] * len(citations)  # most texts: no naming word before a citation
    by_ruleset = {g.edition.ruleset: g for g in candidates}
    magic = [g for g in candidates if g.edition.number_style == "mtg"]
    out: list[RuleGraph | None] = []
    named: RuleGraph | None = None
    for c in citations:
        if c.form == "cr" or c.form == "bracket":
            named = magic[0] if len(magic) == 1 else None
        elif c.form == "rule":
            if c.text[0].isdigit():
                pass  # a later item of a keyword's list: its first item's prefix
            elif c.start and text[c.start - 1] in _SPACES:
                word = _WORD_BEFORE_REVERSED.match(text[max(0, c.start - _BEFORE):c.start][::-1])
                ruleset = names.get(word.group(1)[::-1].lower()) if word is not None else None
                named = by_ruleset.get(ruleset) if ruleset is not None else None
            else:
                named = None  # "(rule 312)": no word right before it
        else:
            named = None
        out.append(named)
    return out


def resolve_for_target(kb: LoadedEditions, target: LinkTarget, citations: Sequence[Citation],
                       date: str | None, resolve: Callable[..., list[Resolution]],
                       named_of: Callable[[Callable[[], Sequence[RuleGraph]]], list[RuleGraph | None]],
                       source: str = "") -> tuple[LinkTarget, list[Resolution], list[Diagnostic]]:
    """The target ``citations`` are linked against, their resolutions there, and the
    diagnostics of those whose own prefix named another ruleset: resolved against
    ``target``, then against the edition they were written for when one is inferred
    (:func:`infer_written_for`), then each citation whose prefix names another ruleset than
    the one the document is read in (or any, when that was left open) in the edition of
    that ruleset the document's date or edition calls for (:func:`resolve_as_named`):
    a ruleset pinned by the caller or the front matter holds for the citations that name
    none. ``date`` is the document's own (front matter), or None.
    ``resolve`` resolves citations against editions
    (:func:`~kb.cite.resolve.resolve_shared` or :func:`~kb.cite.resolve.resolve_citations`);
    ``named_of`` gives, for a function returning the candidate editions (one per ruleset:
    called only when a citation may name one, since looking the editions up costs more than
    most documents' answer, none), each citation's named edition or None
    (:func:`named_editions` over the text or texts the citations were found in)."""
    resolutions = resolve(citations, target.editions, written_for=target.written_for,
                          mapper=target.mapper)
    inferred = infer_written_for(kb, target, citations, date, source, resolutions)
    candidates = target.editions  # several: no ruleset named by the caller or the front matter
    if inferred is not target:
        target = inferred
        resolutions = resolve(citations, target.editions, written_for=target.written_for,
                              mapper=target.mapper)
    home = _home_elsewhere(target)
    if not citations or len(kb.ruleset_names()) < 2:
        return target, with_elsewhere(kb, home, resolutions), []

    def every() -> Sequence[RuleGraph]:
        return candidates if len(candidates) > 1 else [kb.edition(name) for name in kb.ruleset_names()]

    return (target, *resolve_as_named(kb, target, citations, named_of(every), resolutions,
                                      resolve, date, source))


def _home_elsewhere(target: LinkTarget) -> RuleGraph | None:
    """The edition whose ``not_found`` citations are told where their rules are now: the one
    edition linked against, unless the document was written for another (then the mapping
    has said it); None when several are candidates."""
    if len(target.editions) != 1 or (target.written_for is not None
                                     and target.written_for is not target.editions[0]):
        return None
    return target.editions[0]


def named_day(kb: LoadedEditions, date: str | None, read_in: RuleGraph | None) -> tuple[str, str]:
    """The day a citation naming another ruleset than its document's is read on, and what
    that day is: the document's ``date``; else the date of the edition the document is
    read in (``read_in``) when that is not its ruleset's default (an edition pinned, asked
    for or inferred says when it was written); else none ("", ""): the named ruleset's
    default edition is read, as for any question naming no edition. The linker and the
    records (:mod:`kb.records.citing`) choose alike."""
    if date:
        return date, "the article's date"
    if read_in is None or not read_in.edition.date:
        return "", ""
    ed = read_in.edition
    if ed.name == kb.default_edition(ed.ruleset)["edition"]:
        return "", ""
    return str(ed.date), f"the date of {ed.ruleset} {ed.name}"


def edition_on(kb: LoadedEditions, ruleset: str, day: str) -> str:
    """The edition of ``ruleset`` in force on ``day`` (YYYY-MM-DD, or "" for none): the
    newest full edition dated on or before it (an excerpt only when none of those is full,
    as :meth:`~kb.loaded.LoadedEditions.in_force` chooses: an excerpt's missing rules would
    read as removed), the oldest full one when ``day`` is before them all, the default
    (as every question reads it, :meth:`~kb.loaded.LoadedEditions.edition`) when there is
    no day or no edition is dated."""
    editions = kb.editions(ruleset)  # oldest first
    dated = [e for e in editions if e["date"]]
    if not day or not dated:
        return kb.edition(ruleset).edition.name
    # in_force's choice, without its refusal of a day that is no calendar date (compared as written)
    found = in_force_among(dated, day)
    if found is not None:
        return str(found["edition"])
    return str(next((e for e in dated if not e.get("partial")), dated[0])["edition"])


@dataclass(frozen=True)
class NamedReading:
    """Where the citations naming another ruleset are read: the edition of it they were
    written for, the one they are linked against (the same, or a later one when the
    document is carried to a later edition of its own ruleset, with the ``mapper``
    between the two), and why that edition (for the note)."""

    written_for: RuleGraph
    target: RuleGraph
    why: str
    mapper: Mapper | None = None


def named_reading(kb: LoadedEditions, ruleset: str, target: LinkTarget, date: str | None) -> NamedReading:
    """The editions of ``ruleset`` that a document linked against ``target`` reads the
    citations naming it in (:func:`named_day` of the edition the document was written for,
    or read in); when ``target`` carries the document to a later edition of its own
    ruleset, those citations are carried too: to ``ruleset``'s default when the document
    is linked against its own default, else to its edition in force on the target's date."""
    single = target.single
    read_in = target.written_for or single
    day, what = named_day(kb, date, read_in)
    written_for = kb.graphs[(ruleset, edition_on(kb, ruleset, day))]
    if not day:
        why = "the default edition: no date or pinned edition to choose another"
    elif written_for.edition.date and str(written_for.edition.date) > day:
        oldest = "oldest edition" if written_for.edition.partial else "oldest full edition"
        why = f"its {oldest}: none was in force on {day}, {what}"
    else:
        why = f"in force on {day}, {what}"
    if single is None or target.written_for is None or target.written_for is single:
        return NamedReading(written_for, written_for, why)
    to_day, _ = named_day(kb, None, single)
    linked = kb.graphs[(ruleset, edition_on(kb, ruleset, to_day))]
    if linked.edition.name == written_for.edition.name:
        return NamedReading(written_for, written_for, why)
    return NamedReading(written_for, linked, why, edition_mapper(kb, written_for, linked))


def with_elsewhere(kb: LoadedEditions, rg: RuleGraph | None, resolutions: list[Resolution],
                    places: Sequence[int] | None = None) -> list[Resolution]:
    """``resolutions`` (those at ``places``, or all) with each ``not_found`` that another
    edition of ``rg``'s ruleset resolves told where that rule is now, as the rule lookup
    tells it (``rulekb rule 116.3d --ruleset mtg``: "2010-10-01's rule 116.3d (…) is rule
    117.3d in 2026-01-16"; a range whose two ends another edition has and maps here, "…'s
    rules 116.3–116.9 (…) are rules 117.3–117.9 in …"): the sentence after its message (the
    CLI's ``--check`` line, the HTML link's title), the new number first among the nearest,
    and ``elsewhere`` (the report entry's field). ``rg`` is the one edition they were
    linked against (None: no hint, :func:`_home_elsewhere`). A resolution several places
    share is replaced by one new one for them all (the resolver's caches keep theirs
    unchanged)."""
    if rg is None:
        return resolutions
    number_elsewhere = getattr(kb, "number_elsewhere", None)  # the facade's (kb.query)
    if number_elsewhere is None or "not_found" not in map(_STATUS, resolutions):
        return resolutions
    told: dict[int, Resolution] = {}
    out = list(resolutions)
    for i in range(len(out)) if places is None else places:
        res = out[i]
        if res.status != "not_found" or not res.written or res.rules:
            continue
        new = told.get(id(res))
        if new is None:
            new = res
            if res.citation.last is None:
                where = _number_elsewhere(kb, number_elsewhere, rg, res.written)
                said = elsewhere_sentence(where, rg.edition.name) if where is not None else ""
            else:
                where = range_elsewhere(kb, rg, res.citation)
                said = range_elsewhere_sentence(where, rg.edition.name) if where is not None else ""
            if where is not None:
                new = copy_for(res, res.citation)
                new.elsewhere = where
                new.message = f"{res.message}; {said}" if res.message else said
                if where["here"]:
                    first = where["here"].split("–", 1)[0]
                    new.nearest = [first] + [n for n in res.nearest if n != first]
            told[id(res)] = new
        if new is not res and new.citation is not res.citation:
            new = copy_for(new, res.citation)
        out[i] = new
    return out


_ELSEWHERE_KEPT = 10_000  # answers kept per build: numbers a hostile text makes up are not


def _number_elsewhere(kb: LoadedEditions, number_elsewhere: Callable[[RuleGraph, str], Any],
                      rg: RuleGraph, written: str) -> dict[str, Any] | None:
    """``number_elsewhere(rg, written)``, kept for the build (it reads the rule's history
    through the edition mappings; an article citing a number its edition lacks asks again
    each time it is linked). A copy: the caller may change what it is given."""
    kept = _elsewhere_answers(kb)
    key = (rg.edition.ruleset, rg.edition.name, written)
    if key in kept:
        found = kept[key]
    else:
        found = number_elsewhere(rg, written)
        if len(kept) < _ELSEWHERE_KEPT:
            kept[key] = found
    return dict(found) if found is not None else None


@derived
def _elsewhere_answers(kb: LoadedEditions) -> dict[tuple[str, str, str], dict[str, Any] | None]:
    """The answers :func:`_number_elsewhere` keeps, by (ruleset, edition, number)."""
    return {}


def range_elsewhere(kb: LoadedEditions, rg: RuleGraph, c: Citation) -> dict[str, Any] | None:
    """Where the rules of a range ``rg`` cannot resolve are now, as
    :meth:`~kb.query.KnowledgeBase.number_elsewhere` answers it for one number: the newest
    other edition holding either end (by the rule's history) in which the whole range
    resolves, the range and its first rule's title there, and the range ``here`` its two
    ends map to (``status`` ``renumbered``); None when no such edition has it or an end has
    no counterpart here (an excerpt lacking an end is one: its history knows no row there)."""
    number_elsewhere = getattr(kb, "number_elsewhere", None)
    if number_elsewhere is None or c.last is None:
        return None
    style = rg.edition.number_style
    holders = []
    for end in (c.number, c.last):
        where = _number_elsewhere(kb, number_elsewhere, rg, format_number(end, style))
        if where is not None and where["edition"] not in holders:
            holders.append(where["edition"])
    for name in holders:
        if (rg.edition.ruleset, name) not in kb.graphs:
            continue
        there = kb.graphs[(rg.edition.ruleset, name)]
        numbers = found_numbers(c, there)
        mapper = edition_mapper(kb, there, rg)
        if not numbers or mapper is None:
            continue
        first, last = mapper(numbers[0]), mapper(numbers[-1])
        if first is None or last is None or first not in rg.edition.rules or last not in rg.edition.rules:
            continue
        return {"edition": name, "number": f"{numbers[0]}–{numbers[-1]}",
                "title": there.rule(numbers[0]).label, "here": f"{first}–{last}",
                "status": "renumbered"}
    return None


def range_elsewhere_sentence(elsewhere: dict[str, Any], edition: str) -> str:
    """:func:`range_elsewhere`'s answer as a sentence.

    >>> range_elsewhere_sentence({"edition": "2010-10-01", "number": "116.3–116.5",
    ...                           "title": "Which player has priority", "here": "117.3–117.5"}, "2026-01-16")
    "2010-10-01's rules 116.3–116.5 (Which player has priority) are rules 117.3–117.5 in 2026-01-16"
    """
    return (f"{elsewhere['edition']}'s rules {elsewhere['number']} ({elsewhere['title']}) "
            f"are rules {elsewhere['here']} in {edition}")


def resolve_as_named(kb: LoadedEditions, target: LinkTarget, citations: Sequence[Citation],
                     named: Sequence[RuleGraph | None], resolutions: list[Resolution],
                     resolve: Callable[..., list[Resolution]], date: str | None = None,
                     source: str = "") -> tuple[list[Resolution], list[Diagnostic]]:
    """``resolutions`` (against ``target``) with each citation whose prefix names a
    ruleset (``named``: :func:`named_editions` over an edition of each ruleset) other than
    the one ``target`` is read in (any, when that is open: a tie) resolved in that
    ruleset instead, in the editions :func:`named_reading` chooses (renumbered when the
    document is carried to a later edition), where that changes its answer; with an
    ``info`` diagnostic per ruleset saying so and why that edition; the ``not_found`` ones
    told where their rules are now (:func:`with_elsewhere`), the others' too. ``resolve``
    resolves citations against editions (:func:`~kb.cite.resolve.resolve_shared` or
    :func:`~kb.cite.resolve.resolve_citations`)."""
    single = target.single
    home = single.edition.ruleset if single is not None else None
    moved: dict[str, list[int]] = {}  # the named ruleset -> places
    if named.count(None) != len(named):  # (most documents name none: told at C speed)
        for i, g in enumerate(named):
            if g is not None and g.edition.ruleset != home:
                moved.setdefault(g.edition.ruleset, []).append(i)
    out = list(resolutions)
    if not moved:
        return with_elsewhere(kb, _home_elsewhere(target), out), []
    own = [i for i in range(len(out)) if named[i] is None or named[i].edition.ruleset == home]  # type: ignore[union-attr]
    out = with_elsewhere(kb, _home_elsewhere(target), out, own)
    diags = []
    for ruleset, named_at in moved.items():
        reading = named_reading(kb, ruleset, target, date)
        mapper = reading.mapper
        found = resolve([citations[i] for i in named_at], [reading.target],
                        written_for=reading.written_for if mapper is not None else None, mapper=mapper)
        # One found there points at no rule, so says where it was looked up itself (its
        # report entry's ruleset and edition, the edition --check counts it in). Made by
        # this call (only found numbers are kept across articles): its own to change.
        for res in found:
            if not res.rules and res.read_in is None:
                res.read_in = (reading.target.edition.ruleset, reading.target.edition.name)
        # Where the named edition's answer is another (a CR citation among several
        # candidates is already looked up in Magic's numbering alone).
        places = []
        for i, res in zip(named_at, found):
            if _answer(res) != _answer(out[i]):
                out[i] = res
                places.append(i)
        if not places:
            continue
        out = with_elsewhere(kb, reading.target if mapper is None else None, out, places)
        shown = ", ".join(dict.fromkeys(citations[i].text for i in places[:3]))
        several = len(places) > 1
        carried = f", carried to {reading.target.edition.name}" if mapper is not None else ""
        instead = f", not in {home}" if home is not None else ""
        diags.append(Diagnostic(
            f"{len(places)} citation{'s' if several else ''} ({shown}"
            f"{', …' if len(places) > 3 else ''}) name{'' if several else 's'} {ruleset} "
            f"by {'their' if several else 'its'} prefix: looked up in {ruleset} "
            f"{reading.written_for.edition.name} ({reading.why}){carried}{instead}", source, 1, "info"))
    return out, diags


def _answer(res: Resolution) -> tuple[Any, ...]:
    """What a resolution tells the reader: its status, the rules it points at, its message."""
    return (res.status, [r.key for r in res.rules], res.message)
