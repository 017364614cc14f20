"""Find rule citations in an article's text, with offsets into that text.

The grammar is :mod:`kb.references` (the one used for rule text): ``Rule 337.1.a``,
``rule 349``, ``Rules 337–340``, ``rules 337.1 and 337.4``, ``rule 337.1a``, ``CR 116.3d``,
``[CR 116.1]``, ``rules 601.2a–f``, "See rule 349. Playing Cards". Numbers are parsed by
:mod:`kb.numbers`, so ``337.1a`` and ``337.1.a`` are the same citation and ``337.1`` is
never part of ``337.10``.

Without "rule"/"CR" before it, a number is a citation in two places only, and only when it
is shaped like a rule number (a three-digit head and a dotted part, the rule-text grammar's
bare number): alone in parentheses (``(337.1a)``, ``(see 601.2b and 601.2f–h)``) and after
"See also" (``See also 337.1a``; there a three-digit number alone too, ``See also 349.``).
Everything else stays text: ``(2)``, ``(1.5×)``, ``(10:30)``, ``(v1.4)``, ``(2026-07-16)``,
prices, "page 337", "see 5.2" (a section of the article as often as a rule).

A quotation right before or after a citation (``"…" (rule 312)``, ``rule 312 says "…"``)
is kept with it, so the resolver can compare it with the rule's text.

>>> [c.canonical for c in find_citations("See rules 337.1 and 337.4, then CR 116.3d.")]
['337.1', '337.4', '116.3.d']
"""

from __future__ import annotations

import bisect
import re
import sys
from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any, Literal, NamedTuple

from kb.numbers import Segments
from kb.references import (
    FOOTNOTE_MARKS, HEAD_RUN, PHRASE_CONTINUES, WORD_START, _BARE_LIST, _RULE_HEAD, _RULE_HEAD_RUN, _RULE_PHRASE, _SEP,
    Item, Phrase, _items, _parse_alone, head_number, other_keywords, phrase_matches)

CitationForm = Literal["rule", "cr", "bracket", "bare"]

# "Riftbound Core Rules 1.4", "Tournament Rules 2.0": a document and its version, not a rule.
_TITLE_BEFORE = re.compile(r"(?:Core|Tournament|Comprehensive|Riftbound|Magic|Game|Official)\s+$")
# A number that runs on into a time, a fraction or a date ("rule 10:30", "rules 12/05").
_RUNS_ON = re.compile(r"[:/]\d")
_QUOTE = re.compile(r"\"((?:[^\"\n]|\n(?!\s*\n)){1,1000}?)\"|“((?:[^”\n]|\n(?!\s*\n)){1,1000}?)”")
# Between a quotation and the citation that follows it: `"…" (rule 312)`, `"…", CR 116.1`.
_GAP_BEFORE = re.compile(r"^[ \t,;:.]{0,3}\n?[ \t]?[(\[]?[ \t]?(?:[Ss]ee[ \t\n]+)?$")
# Between a citation and the quotation after it: `rule 312 says: "…"`, `(CR 116.1): "…"`
# (a colon or a verb is needed: a quotation that merely follows belongs to what follows).
_GAP_AFTER = re.compile(r"^[)\]]?\s?(?::\s?|,?\s?(?:says|reads|states|provides)\s?:?\s?)$")
_WINDOW = 24
# Bare citations (see the module docstring), with the rule-text grammar's bare list.
# Each pattern starts with a literal ("(", "also"), which the regex engine scans for at
# memchr speed: the finder is the annotator's hot path.
_PAREN = re.compile(r"\([ \t]?(?:[Ss]ee(?:[ \t\n]+also)?[ \t\n]+)?"
                    rf"(?P<list>{_BARE_LIST}(?:{_SEP}{_BARE_LIST})*)[ \t]?\)")
# After "See also" a three-digit number alone is one too, when nothing but punctuation, a
# title, "for" or another item follows ("See also 349.", "See also 205 for …"; never
# "See also 100 cards").
_SEE_ALSO_ITEM = (rf"(?:{_BARE_LIST}|\d{{3}}(?!\d)"
                  r"(?=[.,;:)!?](?!\d)|[ \t]*(?:\n|$)|[ \t\n]+(?:for|and|or)[ \t\n]))")
_ALSO = re.compile(rf"also[ \t\n]+(?P<list>{_SEE_ALSO_ITEM}(?:{_SEP}{_SEE_ALSO_ITEM})*)")
_SEE_BEFORE = re.compile(rf"{WORD_START}[Ss]ee[ \t\n]+$")
# What may hold a bare citation, for a caller's pretest (see may_cite).
_PAREN_HINT = re.compile(r"\([ \t]?(?:[Ss]ee[ \t\n]+(?:also[ \t\n]+)?)?\d{3}\.")
_ALSO_HINT = re.compile(r"also[ \t\n]+\d{3}")
# The same hints read in a Markdown source whose texts are its own characters (see
# may_cite_bare_in_source): a text's line break may stand for the source's line break and the
# line prefix the block parser takes off (a block quote's ">", a list item's indentation).
_PAREN_HINT_SOURCE = re.compile(r"\([ \t]?(?:[Ss]ee[ \t\n>]+(?:also[ \t\n>]+)?)?\d{3}\.")
_ALSO_HINT_SOURCE = re.compile(r"also[ \t\n>]+\d{3}")
# Loose keywords before a rule-shaped number (the bare grammar's: a three-digit head and a
# dotted part), the forms the search box reads too (kb.numbers' prefix: "§ 702.2b", "r337.2"):
# the section sign ("§ 702.2b", "§702.19b", "§§ 702.19b–d"), "r" or "r." right before the
# number ("r117.3b", "R 117.3b", "r. 117.3b"), and "see" or "see also" ("see 601.2a-f";
# "See", "SEE"; "also", "Also", "ALSO"), one space, tab or line break after each word. Never
# "§ 5", "see 3 cards" or "see 5.2" (no rule-shaped number), nor "for 117.3b" or "oversee
# 337.1a" (the keyword starts a word).
_LOOSE_LIST = rf"(?P<list>{_BARE_LIST}(?:{_SEP}{_BARE_LIST})*)"
_NOT_WORD = rf"[^\W{FOOTNOTE_MARKS}]"
_HEAD = r"\d\d\d\."
# A loose keyword's first number, found by its head's dot: a literal the regex engine scans
# for at memchr speed, the number's head and the keyword before it checked by lookbehinds
# (each of one width), so a text without these forms costs one scan for dots (the finder is
# the annotator's hot path). A superset of where _LOOSE_PATTERNS match.
_LOOSE_HINT = re.compile(
    rf"\.(?<={_HEAD})(?:(?<=[§Rr]{_HEAD})|(?<=[§Rr.][ \t\u00a0.]{_HEAD})"
    rf"|(?<=(?:[Ss]ee|SEE)[ \t\n]{_HEAD})|(?<=(?:[Aa]lso|ALSO)[ \t\n]{_HEAD}))")
# The same in a Markdown source whose texts are its own characters (see
# may_cite_loosely_in_source): "see" or "also" ending a line, one space at most after it (more
# make a hard break, which ends the text), and a rule-shaped head after the line prefix the
# block parser takes off the next line (a block quote's ">", a list item's indentation):
# "> see\n> 601.2a" is the text "see\n601.2a". Found by the line break, a literal the regex
# engine scans for at memchr speed, the keyword's last two letters checked by lookbehinds.
_LOOSE_WRAPPED_SOURCE = re.compile(r"\n(?:(?<=(?:ee|EE|so|SO)\n)|(?<=(?:ee|EE|so|SO) \n))[ \t>]*\d\d\d\.")
_ALSO_WORD = r"[ \t\n](?:(?:also|Also|ALSO)[ \t\n])?"
# Each loose keyword's phrase, the literal a text must hold for it to match, and whether it
# is "see" (the number alone is linked). Each starts with its literal, which the regex
# engine scans for at memchr speed (tried only in a text _LOOSE_HINT let through).
_LOOSE_PATTERNS: tuple[tuple[re.Pattern[str], str, bool], ...] = (
    (re.compile(rf"§§?[ \t\u00a0]?{_LOOSE_LIST}"), "§", False),
    (re.compile(rf"ee(?<=[Ss]ee)(?<!{_NOT_WORD}[Ss]ee){_ALSO_WORD}{_LOOSE_LIST}"), "ee", True),
    (re.compile(rf"EE(?<=[Ss]EE)(?<!{_NOT_WORD}[Ss]EE){_ALSO_WORD}{_LOOSE_LIST}"), "EE", True),
    (re.compile(rf"r(?<![\w.]r)\.?[ \t]?{_LOOSE_LIST}"), "r", False),
    (re.compile(rf"R(?<![\w.]R)\.?[ \t]?{_LOOSE_LIST}"), "R", False),
)


@dataclass(frozen=True, slots=True)
class Quote:
    """A quotation next to a citation: its text and its span (quote marks included)."""

    text: str
    start: int
    end: int


class Citation(NamedTuple):
    """One cited number (or range) as written in the text.

    ``start``/``end`` is the span to link: the keyword with the first number of a phrase
    (``Rule 337.1.a``, ``CR 116.1``), the number alone for later items of a list.
    ``full_start``/``full_end`` also covers enclosing brackets (``[CR 116.1]``).
    ``numbers`` is what the text names, ranges expanded number by number; the resolver
    expands ranges again against an edition's document order.

    A named tuple (immutable and hashable, like a frozen dataclass), because the finder
    makes one per citation of an article and a tuple is built several times faster;
    ``_replace`` makes a changed copy.
    """

    start: int
    end: int
    text: str
    number: Segments
    numbers: tuple[Segments, ...]
    form: CitationForm
    last: Segments | None = None
    full_start: int = 0
    full_end: int = 0
    quote: Quote | None = None

    @property
    def is_range(self) -> bool:
        return self.last is not None

    @property
    def canonical(self) -> str:
        """Segments joined by dots, the style-neutral key (``116.3.d``)."""
        return ".".join(self.number)

    @property
    def span(self) -> tuple[int, int]:
        return (self.start, self.end)


# The linker's per-citation loops (kb.cite.mdit, kb.cite.resolve) unpack a Citation in one
# step, in this order: a field added, removed or moved must change them too.
CITATION_ORDER = ("start", "end", "text", "number", "numbers", "form", "last", "full_start",
                  "full_end", "quote")
if Citation._fields != CITATION_ORDER:
    raise ImportError("kb.cite.find: Citation's fields are no longer in CITATION_ORDER, the order "
                      "kb.cite.mdit and kb.cite.resolve unpack them in")


# Where a citation phrase may start: what count_phrases counts past the limit.
_PHRASE = re.compile(rf"{WORD_START}(?:[Rr][Uu][Ll][Ee][Ss]?|CR)[ \t\n\u00a0]*\[?\d")


def count_phrases(text: str, start: int = 0, loose: bool = True) -> int:
    """How many citation phrases (a keyword and a number) ``text`` holds from ``start``:
    what is left uncounted past a limit, counted at the regex engine's speed (a phrase
    may hold several citations, and a few phrases turn out not to be citations)."""
    phrases = sum(1 for _ in _PHRASE.finditer(text, start))
    if "(" in text:
        phrases += sum(1 for _ in _PAREN.finditer(text, start))
    if "also" in text:
        phrases += sum(1 for m in _ALSO.finditer(text, start) if _see_before(text, m.start()))
    if loose:
        phrases += len(_loose_phrases(text, start, len(text)))
    return phrases


def may_cite(text: str, loose: bool = True, bare: bool = True) -> bool:
    """Whether ``text`` may hold a bare citation (``(337.1a)``, "See also 337.1a"): a cheap
    pretest for callers that skip text without a keyword (a superset of what is found).
    ``loose=False`` and ``bare=False`` say that the text holds no loose keyword and no bare
    citation (a caller asked once for the document it is part of)."""
    return bare and _may_cite_bare(text) or loose and may_cite_loosely(text)


def _may_cite_bare(text: str) -> bool:
    """Whether ``text`` may hold a number in parentheses or after "See also" (:func:`may_cite`'s
    first half)."""
    return ("(" in text and _PAREN_HINT.search(text) is not None
            or "also" in text and _ALSO_HINT.search(text) is not None)


def may_cite_bare_in_source(source: str) -> bool:
    """Whether a Markdown ``source`` may hold a bare citation in any of its texts, when
    every text of it is made of the source's own characters (no entity or backslash escape
    decoded, no typographer: kb.cite.mdit checks): a superset of :func:`may_cite`'s bare
    half over each text, asked once for a document instead of once per text."""
    # (Each pattern starts with its literal, which the regex engine's scan finds faster
    # than str.find does a word of four letters: 10 KB of the lessons, "also" 6.6 -> 4.4 us.)
    return ("(" in source and _PAREN_HINT_SOURCE.search(source) is not None
            or _ALSO_HINT_SOURCE.search(source) is not None)


def may_cite_loosely(text: str) -> bool:
    """Whether ``text`` may hold a citation with a loose keyword ("§ 702.2b", "r117.3b",
    "see 601.2a"): a superset of where the finder finds one. A caller linking the texts of
    one document (kb.cite.mdit) asks once for the whole document and, when it holds none,
    passes ``loose=False`` to the finder for each text (one scan instead of one per text)."""
    return "." in text and _LOOSE_HINT.search(text) is not None


def may_cite_loosely_in_source(source: str) -> bool:
    """Whether a Markdown ``source`` may hold a citation with a loose keyword in any of its
    texts, when every text of it is made of the source's own characters (kb.cite.mdit
    checks): a superset of :func:`may_cite_loosely` over each text, asked once for a
    document. Besides what :func:`may_cite_loosely` finds in the source itself, a "see" or
    "also" at a line's end followed by a number after the next line's prefix ("> see\n>
    601.2a", a wrapped list item's "see\n  601.2a"), which the text reads as "see\n601.2a"."""
    return may_cite_loosely(source) or "\n" in source and _LOOSE_WRAPPED_SOURCE.search(source) is not None


def _loose_phrases(text: str, start: int, until: int) -> list[tuple[int, bool, re.Match[str]]]:
    """Each phrase of a loose keyword and its list whose keyword starts between ``start``
    and ``until``, in order, non-overlapping: where its keyword starts, whether the
    keyword is "see" (the number alone is linked), and the match (its ``list`` group)."""
    found: list[tuple[int, bool, re.Match[str]]] = []
    if not may_cite_loosely(text):
        return found  # most texts
    for pattern, literal, see in _LOOSE_PATTERNS:
        if literal in text:
            for m in pattern.finditer(text, start, until):
                # "see" and "SEE" are matched from their second letter
                found.append((m.start() - 1 if see else m.start(), see, m))
    if len(found) > 1:
        found.sort(key=lambda f: f[0])
        kept, end = [], -1
        for f in found:
            if f[0] >= end:
                kept.append(f)
                end = f[2].end()
        found = kept
    return found


def _see_before(text: str, at: int) -> bool:
    """Is the "also" at ``at`` preceded by "See"?"""
    return _SEE_BEFORE.search(text, max(0, at - 16), at) is not None


def find_citations(text: str, limit: int | None = None, loose: bool = True, *,
                   others: bool = True, bare: bool = True, quotes: bool = True) -> list[Citation]:
    """Every rule citation in ``text``, in document order (the first ``limit`` only, when
    given: finding stops there). ``loose=False`` says that the text holds no loose keyword
    (:func:`may_cite_loosely` is false for it or for the document it is part of); so do
    ``others=False`` of a keyword other than "rule(s)"/"Rule(s)" (RULE, section, CR:
    :func:`~kb.references.other_keywords`), ``bare=False`` of a bare citation
    (:func:`may_cite_bare_in_source`) and ``quotes=False`` of a quotation mark: what a
    caller linking the texts of one document asks once for all of them (kb.cite.mdit).

    Never raises; time is linear in the length of the text.

    >>> [(c.text, c.numbers) for c in find_citations("Rules 337–339")]
    [('Rules 337–339', (('337',), ('338',), ('339',)))]
    """
    if not isinstance(text, str) or not text:
        return []
    if others and other_keywords(text):  # RULE, section or CR: the whole grammar's phrases
        out = _keyword_citations(text, phrase_matches(text), limit)
        cut_short = True  # may be: _read_whole looks
    else:  # "rule(s)" and "Rule(s)" only: most articles' paragraphs
        out, cut_short = _rule_citations(text, limit)
    loosely = _loose_phrases(text, 0, len(text)) if loose else None
    parenthesised = bare and _may_cite_bare(text)
    if loosely or parenthesised:
        # Past a limit reached by keyword phrases nothing more was looked for.
        until = out[-1].end if limit is not None and len(out) >= limit else len(text)
        bare = _bare_citations(text, out, until, limit) if parenthesised else []
        if loosely:
            bare += _loose_citations(text, out, bare, until, loosely)
        if bare:
            out = sorted(out + bare, key=lambda c: c.start)
            cut_short = True
            if limit is not None:
                del out[limit:]
    if out and cut_short:
        out = _read_whole(text, out)
    if out and quotes and ('"' in text or "“" in text):
        quotes = [(m.start(), m.end(), m.group(1) or m.group(2)) for m in _QUOTE.finditer(text)]
        out = _attach_quotes(text, out, quotes)
    return out


def rule_keyword_citations(text: str, limit: int | None = None) -> list[Citation]:
    """:func:`find_citations` of a text that holds no loose keyword, no other keyword than
    "rule(s)"/"Rule(s)", no bare citation and no quotation mark (``loose``, ``others``,
    ``bare`` and ``quotes`` all false there): the linker's commonest paragraph, read
    without the tests that settle nothing for it."""
    out, cut_short = _rule_citations(text, limit)
    return _read_whole(text, out) if out and cut_short else out


# What continues a number the grammar stopped reading ("rule 337.1c3456": a digit group
# of four, "rule 5x"): a letter or a digit right after it.
_GOES_ON = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_RUN_ON = re.compile(r"[0-9A-Za-z]+")
_WRITTEN_LAST = re.compile(r"\d[0-9A-Za-z.]*$")
_SEGMENTS = re.compile(r"\d+|[a-z]+")


def _read_whole(text: str, citations: list[Citation]) -> list[Citation]:
    """``citations`` with each single number the grammar cut short read whole: a letter or
    digit right after it belongs to it ("rule 337.1c3456" names 337.1.c.3456, which no
    edition has, not 337.1.c), so the resolver reports the number as written, never the
    shorter one as ok. A range's end is left as read (its tail is never cut: it ends at a
    word boundary)."""
    size = len(text)
    goes_on = _GOES_ON
    if not any(c.end < size and text[c.end] in goes_on for c in citations):
        return citations
    out = []
    for c in citations:
        if c.end < size and text[c.end] in goes_on and c.last is None:
            written = _WRITTEN_LAST.search(c.text)
            run = _RUN_ON.match(text, c.end)
            if written is not None and run is not None:
                number = tuple(_SEGMENTS.findall((written.group(0) + run.group(0)).lower()))
                end = run.end()
                c = c._replace(end=end, text=text[c.start:end], number=number, numbers=(number,),
                               full_end=end if c.full_end == c.end else c.full_end)
        out.append(c)
    return out


# What the character right after a number read by _RULE_HEAD says (one dictionary lookup
# per citation): a range or a list may follow (a comma, a dash, whitespace: str.isspace's
# characters, all below U+3001), the number may run on into a letter or digit
# (_read_whole's case), or into a time or a date (":", "/"); anything else ends it.
_MAY_CONTINUE, _RUNS_INTO, _TIME_OR_DATE = 1, 2, 3
_AFTER_NUMBER: dict[str, int] = {
    **dict.fromkeys(_GOES_ON, _RUNS_INTO), ":": _TIME_OR_DATE, "/": _TIME_OR_DATE,
    **dict.fromkeys([chr(i) for i in range(0x3001) if chr(i).isspace()], _MAY_CONTINUE),
    **dict.fromkeys(PHRASE_CONTINUES, _MAY_CONTINUE)}


# What a range or a list's next item starts with after a number (_RULE_PHRASE's tail after
# its first number: kb.references' _RANGE and _SEP): a dash, whitespace and a dash, "through",
# a comma, "and" or "or". After whitespace that starts none of them ("rule 601.2 says"), the
# phrase is its keyword and first number, as where no whitespace follows.
_CONTINUES = re.compile(r"\s?[\u2013\u2014]|-|\s+through\s|\s*,|\s+(?:and|or)\s")


def _rule_citations(text: str, limit: int | None) -> tuple[list[Citation], bool]:
    """The citations of the keyword phrases of a text whose only keywords are "rule(s)" and
    "Rule(s)" (no :func:`~kb.references.other_keywords`): :func:`_keyword_citations` of
    its ``phrase_matches``, found by the keyword and first number alone
    (``kb.references._RULE_HEAD``) where nothing can continue the phrase after its number
    (:data:`_CONTINUES`), which is most phrases; elsewhere by the whole phrase's grammar at
    the same place.

    With them, whether one of them may have a number the grammar cut short (a letter or a
    digit right after it, :func:`_read_whole`'s case): told from the character after each
    number, which this loop reads anyway, so that most texts skip that second pass.

    The keyword and its number's run are found first (``_RULE_HEAD_RUN``: where the number
    ends in its run is looked up, :func:`~kb.references.head_number`); a text where a run
    holds another keyword after its number (``rule 5.rule 6``: _RULE_HEAD's next match starts
    inside the run) or may go on past its longest is read by ``_RULE_HEAD`` itself."""
    found = _rule_heads(text, limit, False)
    return found if found is not None else _rule_heads(text, limit, True)  # type: ignore[return-value]


def _rule_heads(text: str, limit: int | None, exact: bool, follows: Any = _AFTER_NUMBER.get,
                new: Any = tuple.__new__, read: Any = head_number, whole: Any = _RULE_PHRASE.match,
                continues: Any = _CONTINUES.match, heads: Any = _RULE_HEAD_RUN.finditer,
                exact_heads: Any = _RULE_HEAD.finditer) -> tuple[list[Citation], bool] | None:
    """:func:`_rule_citations` by ``_RULE_HEAD`` (``exact``) or its runs; None where the runs
    cannot tell (see there). The arguments after ``exact`` are never given: what the loop
    calls (``new``: Citation's own ``__new__``, without its argument handling), bound once
    as defaults, which are locals from the start (looking each up per call cost a tenth of
    reading a paragraph's one citation)."""
    out: list[Citation] = []
    cut_short = False
    append = out.append
    size = len(text)
    room = sys.maxsize if limit is None else limit
    found = 0  # citations appended by this loop's own path (len(out) after _add_phrase)
    pos = 0  # where the last phrase ended: _RULE_PHRASE.finditer looks for the next from there
    for m in (exact_heads if exact else heads)(text):
        at, end = m.span()  # from the "ule" of the keyword
        if at < pos:
            continue  # inside the list of the phrase before (a quoted title in it)
        if exact:
            first, alone = _parse_alone(m[2])
        else:
            run = m[1]
            number = read(run)
            if number is None or number[0] != len(run):  # the number ends inside its run
                if "ule" in run or len(run) >= HEAD_RUN - 1:
                    return None
                if number is None:
                    continue  # no number: no match of _RULE_HEAD here
                end += number[0] - len(run)
            _, first, alone = number
        after = follows(text[end], 0) if end < size else 0
        if after == _MAY_CONTINUE and continues(text, end) is not None:
            phrase = whole(text, at)  # a range or a list may follow: the whole phrase
            if phrase is not None:
                plural, written, first_written = phrase.groups()
                pos = phrase.end()
                _add_phrase(text, out, at - 1, pos, f"{text[at - 1]}ule{plural}", None,
                            written, first_written, pos - len(written))
                cut_short = True  # its last number's end is not read here
                found = len(out)
                if found >= room:
                    del out[room:]
                    break
                continue
        elif after == _RUNS_INTO:
            cut_short = True
        pos = end
        phrase_start = at - 1
        # "Rules" (the keyword's "s" right after its "ule") with a short number after a title's word
        if text[at + 3] == "s" and text[phrase_start] == "R" and len(first[0]) < 3 and _TITLE_BEFORE.search(
                text, max(0, phrase_start - 16), phrase_start):
            continue  # "Core Rules 1.4": a document and its version
        if after == _TIME_OR_DATE and _RUNS_ON.match(text, end):
            continue
        append(new(Citation, (phrase_start, end, text[phrase_start:end], first, alone, "rule",
                              None, phrase_start, end, None)))
        found += 1
        if found >= room:
            del out[room:]  # a limit of 0 keeps none
            break
    return out, cut_short


def _keyword_citations(text: str, phrases: Iterable[Phrase], limit: int | None) -> list[Citation]:
    """The citations of the keyword ``phrases`` of ``text`` (:func:`~kb.references.phrase_matches`
    of it), the first ``limit`` only when given."""
    out: list[Citation] = []
    append = out.append
    new = tuple.__new__  # Citation's own __new__, without its argument handling
    parse = _parse_alone
    size = len(text)
    # The rule-text grammar's keyword phrases (kb.references.find_phrases, sections left
    # out), read from its plain values: most phrases are a keyword and one number.
    for phrase_start, end, word, cr, written, first_written, list_start in phrases:
        if cr is None and word[0] in "Ss":  # type: ignore[index]
            continue  # "section 5": a section, not a rule
        if (len(first_written) == len(written) and cr is None
                and not (word[-1] == "s" and word[0] == "R")):  # type: ignore[index]
            # One number after "rule(s)"/"Rule": _add_phrase's commonest case, inlined.
            if end < size and text[end] in ":/" and _RUNS_ON.match(text, end):
                continue
            first, alone = parse(first_written)
            append(new(Citation, (phrase_start, end, text[phrase_start:end], first, alone, "rule",
                                  None, phrase_start, end, None)))
        else:
            _add_phrase(text, out, phrase_start, end, word, cr, written, first_written, list_start)
        if limit is not None and len(out) >= limit:
            del out[limit:]
            break
    return out


def _add_phrase(text: str, out: list[Citation], phrase_start: int, end: int, word: str | None,
                cr: str | None, written: str, first_written: str, list_start: int) -> None:
    """The citations of one keyword phrase (not a section's), appended to ``out``."""
    keyword: str = word or cr  # type: ignore[assignment]
    size = len(text)
    if len(first_written) == len(written):  # one number, no range: no second pass
        first, alone = _parse_alone(first_written)
        items = None
    else:
        items = _items(written, list_start)
        if not items:
            return
        first, end = items[0][2], items[-1][1]
    if keyword[-1] == "s" and keyword[0] == "R" and len(first[0]) < 3 and _TITLE_BEFORE.search(
            text, max(0, phrase_start - 16), phrase_start):
        return
    bracket = (cr is not None and phrase_start > 0 and text[phrase_start - 1] == "["
               and text.startswith("]", end))
    if items is None and not bracket:
        if end < size and text[end] in ":/" and _RUNS_ON.match(text, end):
            return
        out.append(tuple.__new__(Citation, (phrase_start, end, text[phrase_start:end], first, alone,
                                            "rule" if cr is None else "cr", None, phrase_start, end,
                                            None)))
        return
    form: CitationForm = "bracket" if bracket else ("cr" if cr is not None else "rule")
    if items is None:
        items = [(list_start, end, first, None, [first])]
    enclosed = bracket and len(items) == 1  # the brackets belong to the one citation
    for i, (item_start, end, first, last, numbers) in enumerate(items):
        if end < size and text[end] in ":/" and _RUNS_ON.match(text, end):
            break
        start = phrase_start if i == 0 else item_start
        out.append(tuple.__new__(Citation, (start, end, text[start:end], first, tuple(numbers), form,
                                            last, start - 1 if enclosed else start,
                                            end + 1 if enclosed else end, None)))


def _bare_citations(text: str, keyworded: list[Citation], until: int,
                    limit: int | None) -> list[Citation]:
    """Citations without a keyword (in parentheses, after "See also") that start before
    ``until`` and overlap none of the ``keyworded`` ones (sorted and disjoint)."""
    # (full start, full end, list start, items); a limit counts matches, some of which may
    # be dropped below: what is past it is only counted (count_phrases), as for keywords.
    found: list[tuple[int, int, int, list[Item]]] = []
    if "(" in text:
        for m in _PAREN.finditer(text, 0, until):
            if m.start() and text[m.start() - 1].isalnum():
                continue  # a call, f(123.4), or a word's parenthesis, not a citation
            found.append((m.start(), m.end(), m.start("list"), _items(m.group("list"), m.start("list"))))
            if limit is not None and len(found) >= limit:
                break
    if "also" in text:
        for m in _ALSO.finditer(text, 0, until):
            if _see_before(text, m.start()):
                items = _items(m.group("list"), m.start("list"))
                found.append((m.start("list"), m.start("list"), m.start("list"), items))
                if limit is not None and len(found) >= 2 * limit:
                    break
    if not found:
        return []
    starts = [c.full_start for c in keyworded]
    ends = [c.full_end for c in keyworded]
    out: list[Citation] = []
    for full_start, full_end, _, items in sorted(found, key=lambda f: f[0]):
        if not items:
            continue
        first_start, last_end = items[0][0], items[-1][1]
        i = bisect.bisect_right(ends, first_start)
        if i < len(starts) and starts[i] < last_end:
            continue  # part of a phrase with a keyword
        if out and first_start < out[-1].end:
            continue
        if not all(_rule_shaped(item[2]) and (item[3] is None or _rule_shaped(item[3])) for item in items):
            continue
        # Parentheses around one number belong to it, as brackets do ([CR 116.1]).
        enclosed = len(items) == 1 and full_end > full_start
        for start, end, first, last, numbers in items:
            out.append(Citation(start, end, text[start:end], first, tuple(numbers), "bare", last,
                                full_start if enclosed else start, full_end if enclosed else end))
    return out


def _loose_citations(text: str, keyworded: list[Citation], bare: list[Citation], until: int,
                     phrases: list[tuple[int, bool, re.Match[str]]]) -> list[Citation]:
    """Citations of the loose keyword ``phrases`` (:func:`_loose_phrases`) whose keyword starts
    before ``until`` and that overlap none of the ``keyworded`` or ``bare`` citations. After "§" or "r"
    the citation's first span holds the keyword, as after "Rule" (form ``rule``: a word
    before it may name the ruleset, "Magic § 702.2b"); after "see" the number alone, as
    after "See also" (form ``bare``)."""
    taken = sorted((c.full_start, c.full_end) for c in (*keyworded, *bare))
    starts = [s for s, _ in taken]
    ends = [e for _, e in taken]
    out: list[Citation] = []
    for keyword_start, see, phrase in phrases:
        if keyword_start >= until:
            break
        items = _items(phrase.group("list"), phrase.start("list"))
        if not items:
            continue
        first_start, last_end = keyword_start, items[-1][1]
        i = bisect.bisect_right(ends, first_start)
        if i < len(starts) and starts[i] < last_end:
            continue  # part of a citation found otherwise ("(see 601.2b)", "See also 337.1a")
        if not all(_rule_shaped(item[2]) and (item[3] is None or _rule_shaped(item[3])) for item in items):
            continue
        form: CitationForm = "bare" if see else "rule"
        for k, (start, end, first, last, numbers) in enumerate(items):
            if end < len(text) and text[end] in ":/" and _RUNS_ON.match(text, end):
                break
            if k == 0 and not see:
                start = keyword_start
            out.append(Citation(start, end, text[start:end], first, tuple(numbers), form, last,
                                start, end))
    return out


def _rule_shaped(number: Segments) -> bool:
    """No rule of any edition numbers a part 0 or has two numeric parts in a row after its
    head (``337.1.a``, ``338.1a.7``, ``702.19b``): ``127.0.0.1`` or ``100.2.3`` are no rule."""
    tail = number[1:]
    if any(part.isdigit() and int(part) == 0 for part in tail):
        return False
    return not any(a.isdigit() and b.isdigit() for a, b in zip(tail, tail[1:]))


def _attach_quotes(text: str, citations: list[Citation],
                   quotes: list[tuple[int, int, str]]) -> list[Citation]:
    """Give a citation the quotation that ends just before it or starts just after it."""
    if not quotes:
        return citations
    ends = {end: (start, end, body) for start, end, body in quotes}
    starts = {start: (start, end, body) for start, end, body in quotes}
    out = []
    for c in citations:
        quote = None
        for pos in range(c.full_end, min(len(text), c.full_end + _WINDOW) + 1):
            if pos in starts and _GAP_AFTER.match(text[c.full_end:pos]):
                quote = starts[pos]
                break
        if quote is None:
            for pos in range(c.full_start, max(-1, c.full_start - _WINDOW), -1):
                if pos in ends and _GAP_BEFORE.match(text[pos:c.full_start]):
                    quote = ends[pos]
                    break
        if quote is not None:
            c = c._replace(quote=Quote(quote[2], quote[0], quote[1]))
        out.append(c)
    return out
