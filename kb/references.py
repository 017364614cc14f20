"""Cross-references inside rule text: "See rule 349. Playing Cards", "(see rule 101.4)",
"rules 601.2a–f", "rules 119.7–8", "rules 702.19 and 702.20", "See section 8", lists with
titles ("See rules 702.109, “Dash,” and 702.152, “Blitz.”") and bare numbers that only a
rule number can be ("as specified in 101.4a", "(see 601.2b and 601.2f–h)", "See 718, “Prototype
Cards.”").

Finding mentions is separate from resolving them: :func:`find_mentions` returns the
numbers a text names (with offsets), and the graph builder resolves them in an edition.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from kb.numbers import Segments, expand_range, parse_number

# A rule number as rule text writes it: 349, 101.4, 601.2a, 337.1.a, 464.2.c.1.a. At most
# eight segments, and a number never continues into more digits ("2026-07-16" is no rule
# 202): the bounds keep the grammar linear on hostile text.
# A letter may carry a number attached ("337.1c3", "337.1.c3": an author's 337.1.c.3).
_ATTACHED = r"(?:(?<=[a-z])\d{1,3}(?!\d)[a-z]?)?"
NUMBER = rf"\d{{1,3}}(?!\d)(?:\.(?:\d{{1,3}}(?!\d)[a-z]?|[a-z]){_ATTACHED}(?![A-Za-z]))" r"{0,7}(?!\.\d)"
_DASH = "[\u2013\u2014-]"
_RANGE_TAIL = rf"(?:{_DASH}(?:\d{{1,3}}|[a-z])(?![\w]))?"
# One item of a list: a number, optionally a range "601.2a–f", "337–340", "337.1–337.4",
# "702.19 through 702.21".
_ITEM = re.compile(rf"(?P<n>{NUMBER})(?:(?:\s?[\u2013\u2014]\s?|-|\s+through\s+)"
                   rf"(?:(?P<end>{NUMBER})|(?P<tail>[a-z]))(?![\w]))?")
# A list item may carry its quoted title before the next one: "rules 702.109, “Dash,” 702.152".
_TITLE = r"[“\"][^”\"\n]{1,80},[”\"]"
_SEP = rf"(?:\s*,\s*{_TITLE}\s+(?:and\s+|or\s+)?|\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_RANGE = r"(?:\s?[\u2013\u2014]\s?|-|\s+through\s+)"
_LIST_TAIL = rf"(?:{_RANGE}(?:{NUMBER}|[a-z])(?![\w]))?"
_LIST = rf"{NUMBER}{_LIST_TAIL}"
# A footnote's marker right before a keyword ("¹Rule 312.", "²CR 116.3") is no letter of a
# word: superscript and subscript numerals are \w to ``re`` (str.isalnum), so \b alone
# would take "¹Rule" for one word and miss the citation.
_MARK_CHARS = frozenset("\u00b9\u00b2\u00b3" + "".join(map(chr, range(0x2070, 0x20A0))))
FOOTNOTE_MARKS = "".join(sorted(_MARK_CHARS))  # none is special in a character class
WORD_START = rf"(?:(?<!\w)|(?<=[{FOOTNOTE_MARKS}]))"


# ``first`` is the list's first number: when it is the whole list (most mentions), the
# list needs no second pass.
_MENTION = re.compile(
    rf"(?:{WORD_START}(?P<word>[Rr]ules?|RULES?|[Ss]ections?)"
    rf"|(?:(?<![\w.])|(?<=[{FOOTNOTE_MARKS}]))(?P<cr>CR))\s{{1,8}}"
    rf"(?P<list>(?P<first>{NUMBER}){_LIST_TAIL}(?:{_SEP}{_LIST})*)"
)
# Without a keyword (rule text only; ``keyword`` is ""): a number with a three-digit head
# and a dotted part, which only a rule number can be ("as specified in 101.4a", "(see
# 601.2b and 601.2f–h)"; never 2.5 inches or 100 cards), or a three-digit number after
# "see" with its quoted title ("See 718, “Prototype Cards.”") or followed by "for" (the
# Riftbound Tournament Rules: "See 205 for more information").
_BARE_NUMBER = rf"\d{{3}}(?!\d)(?:\.(?:\d{{1,3}}(?!\d)[a-z]?|[a-z]){_ATTACHED}(?![A-Za-z])){{1,7}}(?!\.\d)"
_BARE_LIST = rf"{_BARE_NUMBER}(?:{_RANGE}(?:{NUMBER}|[a-z])(?![\w]))?"
_BARE = re.compile(
    rf"(?<![\w.$/])(?P<list>{_BARE_LIST}(?:{_SEP}{_BARE_LIST})*)"
    rf"|\b[Ss]ee\s(?P<single>\d{{3}})(?!\d)(?=,\s?[“\"]|\s+for\s)"
)
# phrase_matches reads the groups by position (by name costs a dictionary lookup each).
if tuple(_MENTION.groupindex) != ("word", "cr", "list", "first") or _MENTION.groups != 4:
    raise ImportError("kb.references: phrase_matches reads _MENTION's groups in the order "
                      "word, cr, list, first")
# _MENTION with the keyword "rule", "rules", "Rule" or "Rules" less its first letter (see
# phrase_matches); its groups, by position, are the keyword's rest, the list, the first number.
# It starts with the literal "ule", which ``re`` scans for at memchr speed; the letter before
# it (R or r) and that letter's word start (WORD_START, one character further back: not a
# letter, digit or underscore of a word, unless a footnote mark) are checked by lookbehinds
# once "ule" has matched, so every match is a keyword phrase and finditer can read them.
_RULE_PHRASE = re.compile(rf"ule(?<=[Rr]ule)(?<![^\W{FOOTNOTE_MARKS}][Rr]ule)(s?)\s{{1,8}}"
                          rf"(({NUMBER}){_LIST_TAIL}(?:{_SEP}{_LIST})*)")
# _RULE_PHRASE's keyword and first number alone (its groups: the plural "s", the number):
# where the character after the number starts neither a range nor a list's next item (see
# PHRASE_CONTINUES), the phrase is this match, since the rest of _RULE_PHRASE is optional and
# its number is as greedy; found without the list's repeats, which cost the regex engine a
# backtracking stack per match (most phrases are a keyword and one number).
_RULE_HEAD = re.compile(rf"ule(?<=[Rr]ule)(?<![^\W{FOOTNOTE_MARKS}][Rr]ule)(s?)\s{{1,8}}({NUMBER})")
# _RULE_HEAD with its number read as a run of the characters a number is made of (digits, dots,
# lower-case letters: every character NUMBER reads) and an upper-case letter after it (which
# NUMBER's lookaheads read: "337.1A" is no number, "rule 337" is): the regex engine reads the
# run in one loop, where NUMBER's repeats cost it a backtracking stack per segment. Where
# NUMBER ends in the run, and what it parses to, depends on the run alone (the character after
# it is none of those NUMBER's lookaheads look for): :func:`head_number`. A run is at most
# HEAD_RUN characters (NUMBER is at most 66); one that long may go on, and is read by
# _RULE_HEAD instead.
HEAD_RUN = 80
_RULE_HEAD_RUN = re.compile(rf"ule(?<=[Rr]ule)(?<![^\W{FOOTNOTE_MARKS}][Rr]ule)s?\s{{1,8}}"
                            rf"(\d[\d.a-z]{{0,{HEAD_RUN - 2}}}[A-Z]?)")
# What a range or a list's next item may start with after a number, besides whitespace
# (``str.isspace``, which is ``\s`` of a str pattern): a comma or a dash (_RANGE, _SEP).
PHRASE_CONTINUES = ",-\u2013\u2014"


def other_keywords(text: str) -> bool:
    """Whether ``text`` may hold a keyword phrase that is not "rule(s)"/"Rule(s)" (RULE,
    section, CR): where it holds none, every phrase is a match of :data:`_RULE_PHRASE`."""
    # _NEEDLES' tests written out (no generator: this runs once per paragraph of an article)
    return (("U" in text and text.find("ULE", 1) >= 0) or ("e" in text and text.find("ection", 1) >= 0)
            or ("C" in text and "CR" in text))


# Where _MENTION's other keywords start: each needle is found ``back`` characters after
# one (RULE, RULES, Section, section, sections, CR), and only in a text holding its
# ``letter`` (a one-character test is a memchr, several times faster than a find).
_NEEDLES = (("ULE", 1, "U"), ("ection", 1, "e"), ("CR", 0, "C"))  # other_keywords writes them out
# The needles as compiled literals, for other_keywords_in_source: over a long text the regex
# engine's search for a literal is faster than str.find's (100 KB of an article: "CR" 83 ->
# 52 us, "ection" 95 -> 55 us); over a paragraph the call costs more than the search.
_NEEDLE_PATTERNS = tuple((re.compile(needle), back, letter) for needle, back, letter in _NEEDLES)


def other_keywords_in_source(source: str) -> bool:
    """:func:`other_keywords` of a long text (a whole document's source, asked once for all
    its paragraphs): the same answer, each needle searched for by its compiled literal."""
    return any(letter in source and pattern.search(source, back) is not None
               for pattern, back, letter in _NEEDLE_PATTERNS)
_QUOTED = re.compile(r"[“\"][^”\"\n]*[”\"]")


@dataclass(slots=True)
class MentionItem:
    """One number (or range) of a mention, with its offsets in the text."""

    start: int
    end: int
    first: Segments
    last: Segments | None
    numbers: list[Segments]


@dataclass(slots=True)
class Mention:
    """Numbers named by one reference phrase, in the order written."""

    text: str
    start: int
    end: int
    numbers: list[Segments]
    kind: str  # "rule" or "section"
    items: list[MentionItem] = field(default_factory=list)
    keyword: str = ""


def find_mentions(text: str, *, sections: bool = True, bare: bool = True) -> list[Mention]:
    """Every "rule N" / "rules N–M" / "CR N" / "section N" phrase in a text.

    Items after the first must have a head of the same width ("rules 337 and 3 players"
    names rule 337 only). ``sections=False`` skips "section N" phrases, ``bare=False``
    numbers without a keyword (articles cite with one).

    >>> [m.numbers for m in find_mentions("See rules 601.2a–c and 605.")]
    [[('601', '2', 'a'), ('601', '2', 'b'), ('601', '2', 'c'), ('605',)]]
    >>> [m.text for m in find_mentions("(See rules 702.109, “Dash,” and 702.185, “Warp.”)")]
    ['rules 702.109, “Dash,” and 702.185']
    >>> [m.text for m in find_mentions("(see 601.2b and 601.2f–h), 2.5 inches, 100 cards. See 718, “Prototype.”")]
    ['601.2b and 601.2f–h', '718']
    >>> [m.text for m in find_mentions("See 205 for more information; see 100 cards.")]
    ['205']
    """
    mentions = [_as_mention(text, start, kind, word, items)
                for start, kind, word, items in find_phrases(text, sections=sections)]
    if not bare:
        return mentions
    # Keyword mentions are sorted and disjoint: one bisection finds any overlap.
    starts, ends = [m.start for m in mentions], [m.end for m in mentions]
    for m in _BARE.finditer(text):
        i = bisect.bisect_right(ends, m.start())
        if i < len(starts) and starts[i] < m.end():
            continue
        group = "list" if m.group("list") else "single"
        items = _items(m.group(group), m.start(group))
        if items:
            mentions.append(_as_mention(text, m.start(group), "rule", "", items))
    return sorted(mentions, key=lambda m: m.start)


# One item of a phrase as plain values: (start, end, first, last, numbers), the fields
# of a MentionItem.
Item = tuple[int, int, Segments, "Segments | None", list[Segments]]


# One keyword phrase as plain values: (start, end, word, cr, written, first, list_start):
# the keyword ("rules", "Section") in ``word`` or, for "CR", in ``cr`` (the other None),
# the list as written, its first number as written, and where the list starts.
Phrase = tuple[int, int, "str | None", "str | None", str, str, int]


def phrase_matches(text: str) -> Iterator[Phrase]:
    """Each match of the keyword-phrase grammar in ``text``, in order, non-overlapping
    (what ``_MENTION.finditer(text)`` finds), as plain values (:data:`Phrase`): what
    :func:`find_phrases` reads, and the citation finder, which reads the commonest phrase
    (a keyword and one number, ``written == first``) without building a phrase's values."""
    # Several times faster than _MENTION.finditer. The commonest keywords, "rule(s)" and
    # "Rule(s)", are found with their phrase by _RULE_PHRASE, which starts with the
    # literal "ule" that ``re`` scans for at memchr speed (the letter before it and the
    # word boundary checked by its lookbehinds); the other keywords (RULE, section, CR) by
    # ``str.find`` of their letters, the full grammar tried only there (a search for a
    # character class such as [RrSsC] stops at every r and s of the text). Wherever a
    # keyword is, _MENTION matches exactly what these do.
    find, search, match = text.find, _RULE_PHRASE.search, _MENTION.match
    others = [[i - back, needle, back] for needle, back, letter in _NEEDLES
              if letter in text and (i := find(needle, back)) >= 0]
    if not others:  # most texts
        for m in _RULE_PHRASE.finditer(text):
            plural, written, first = m.groups()
            k, end = m.start() - 1, m.end()
            yield k, end, _RULE_WORDS[text[k], plural], None, written, first, end - len(written)
        return
    pos = 0  # where the last phrase ended
    m = search(text, 1)
    while m is not None or others:
        k = m.start() - 1 if m is not None else len(text)
        entry = min(others) if others else None
        if entry is None or k < entry[0]:  # a "rule" phrase is next
            plural, written, first = m.groups()  # type: ignore[union-attr]
            pos = m.end()  # type: ignore[union-attr]
            yield k, pos, _RULE_WORDS[text[k], plural], None, written, first, pos - len(written)
            m = search(text, pos + 1)
            continue
        at, needle, back = entry  # another keyword is next (no two needles place one alike)
        if at >= pos:
            mm = match(text, at)
            if mm is not None:
                pos = mm.end()  # a match is never empty: past the keyword
                word, cr, written, first = mm.groups()
                yield at, pos, word, cr, written, first, pos - len(written)
                if m is not None and m.start() <= pos:
                    m = search(text, pos + 1)
        i = find(needle, (pos if pos > at else at + 1) + back)
        if i < 0:
            others.remove(entry)
        else:
            entry[0] = i - back


# The keyword a _RULE_PHRASE match names, by its first letter and its plural "s" (or "").
_RULE_WORDS = {(c, s): f"{c}ule{s}" for c in "Rr" for s in ("", "s")}


def find_phrases(text: str, *, sections: bool = True) -> Iterator[tuple[int, str, str, list[Item]]]:
    """The keyword phrases :func:`find_mentions` finds, as plain values ``(start, kind,
    keyword, items)``: the same findings without building objects, for callers that scan
    long texts.

    >>> [(start, word, [i[2] for i in items]) for start, _, word, items in find_phrases("See rule 349.")]
    [(4, 'rule', [('349',)])]
    """
    parse = _parse
    for start, end, word, cr, written, first_written, list_start in phrase_matches(text):
        word = word or cr or ""
        kind = "section" if word[0] in "Ss" else "rule"
        if kind == "section" and not sections:
            continue
        if len(first_written) == len(written):  # one number, no range: no second pass
            first = parse(first_written)
            yield start, kind, word, [(list_start, end, first, None, [first])]
            continue
        items = _items(written, list_start)
        if items:
            yield start, kind, word, items


# Articles and rule text cite the same numbers again and again.
_parse = parse_number  # memoised there (kb.numbers)


_NUMBER = re.compile(NUMBER)


@functools.lru_cache(maxsize=4096)
def head_number(run: str) -> tuple[int, Segments, tuple[Segments]] | None:
    """Where NUMBER ends in a number's ``run`` (a group of :data:`_RULE_HEAD_RUN`), the number
    parsed and the tuple of it alone (:func:`_parse_alone`); None when NUMBER reads no number
    there (a run of four digits). Kept per run: an article cites the same numbers again."""
    m = _NUMBER.match(run)
    if m is None:
        return None
    return (m.end(), *_parse_alone(m.group()))


@functools.lru_cache(maxsize=4096)
def _parse_alone(written: str) -> tuple[Segments, tuple[Segments]]:
    """A number as written, parsed, and the tuple of it alone: the numbers of a citation of
    one rule, made once per number (a tuple is immutable, so citations may share it)."""
    number = _parse(written)
    return number, (number,)


def _has_quote(text: str) -> bool:
    return '"' in text or "“" in text


def _items(written: str, list_start: int) -> list[Item]:
    """The items of one phrase's list; quoted titles between items are skipped."""
    items: list[Item] = []
    masked = _QUOTED.sub(lambda q: " " * len(q.group(0)), written) if _has_quote(written) else written
    for item in _ITEM.finditer(masked):
        first = _parse(item.group("n"))
        if items and len(first[0]) != len(items[0][2][0]):
            break
        last = _range_end(first, item.group("end") or item.group("tail"))
        if last is None:
            numbers = [first]
        elif first[:-1] == last[:-1]:
            numbers = expand_range(first, last[-1]) or [first, last]
        else:
            numbers = [first, last]
        items.append((list_start + item.start(), list_start + item.end(), first, last, numbers))
    return items


def _as_mention(text: str, start: int, kind: str, word: str, items: list[Item]) -> Mention:
    end = items[-1][1]
    return Mention(text[start:end], start, end, [n for i in items for n in i[4]], kind,
                   [MentionItem(*i) for i in items], word)


def _range_end(first: Segments, written: str | None) -> Segments | None:
    """The last number of a range: "337.1–4" ends at 337.4, "601.2a–f" at 601.2f,
    "337.1–337.4" at 337.4 (a short end replaces the last segments of the first)."""
    if not written:
        return None
    end = parse_number(written) if written[0].isdigit() else (written,)
    if len(end) >= len(first):
        return end
    return first[: len(first) - len(end)] + end
