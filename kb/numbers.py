"""Rule numbers: the one place where loose forms become canonical numbers.

A rule number is a sequence of segments: digits (``337``, ``1``) and letters (``a``).
Riftbound writes every segment with a dot (``337.1.a``, ``464.2.c.1.a``); Magic attaches
the letter to the number before it (``116.3d``). Both styles parse to the same segments,
and numbers compare segment by segment, so ``337.1`` is never a prefix of ``337.10``.

>>> parse_number("rule 337.1a.")
('337', '1', 'a')
>>> parse_number("337.1c3")
('337', '1', 'c', '3')
>>> format_number(("116", "3", "d"), "mtg")
'116.3d'
>>> is_within(("337", "1"), ("337", "10"))
False
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable, Sequence
from typing import Literal

Segments = tuple[str, ...]
NumberStyle = Literal["dotted", "mtg"]
SortKey = tuple[tuple[int, int | str], ...]

# "rule", "rules", "CR", "r." etc. may precede a number; a trailing dot may follow.
_PREFIX = re.compile(r"^\s*(?:(?:comprehensive\s+)?rules?|cr|r\.?|§)?\s*", re.IGNORECASE)
# A letter attaches to the number before it (Magic's "116.3d") and a number to the letter
# before it (an author's "337.1c3" for Riftbound's 337.1.c.3).
_BODY = re.compile(r"^(\d{1,3})((?:\.(?:\d{1,3}|[a-z]{1,2})|(?<=\d)[a-z]{1,2}|(?<=[a-z])\d{1,3})*)\.?\s*$",
                   re.IGNORECASE)
_SEGMENT = re.compile(r"\d+|[a-z]+", re.IGNORECASE)


class NumberError(ValueError):
    """A text that is not a rule number in any accepted form."""


def parse_number(text: str) -> Segments:
    """Parse a rule number written loosely into its segments.

    Accepts ``337.1.a``, ``337.1a``, ``rule 337.1.a.``, ``CR 116.3d``, ``116.3d.``, and
    ``337.1c3``, ``337.1.c3``, ``337.1c.3`` (all ``337.1.c.3``).
    Raises :class:`NumberError` for anything else.
    """
    return _parsed(text)  # a document's numbers are parsed again and again: each once


@functools.lru_cache(maxsize=1 << 16)
def _parsed(text: str) -> Segments:
    if len(text) > 64:
        raise NumberError("a rule number is at most 64 characters")
    body = _PREFIX.sub("", text.strip().strip("[]()"), count=1).strip()
    match = _BODY.match(body)
    if not match:
        raise NumberError(f"not a rule number: {text.strip()[:40]!r}")
    head, rest = match.group(1), match.group(2)
    segments = [head] + _SEGMENT.findall(rest)
    # A number segment may not directly follow another number without a dot; the regex
    # guarantees that, so only lower-case the letters here.
    return tuple(s.lower() for s in segments)


# What a lookup (``rulekb rule``, the site's and the API's rule routes) reads beyond a
# citation's grammar: a parenthesised segment ("337.1(a)", "601.2a(1)"), one letter after a
# space ("337.1 a") and a head longer than any rule's ("9999.9", a rule that does not exist).
_PAREN_SEGMENT = re.compile(r"\s*\.?\s*\(\s*(\d{1,3}|[a-z]{1,2})\s*\)", re.IGNORECASE)
_SPACED_LETTER = re.compile(r"^(.*\d)\s+([a-z])\.?$", re.IGNORECASE)
_LONG_HEAD = re.compile(r"^(\d{4,12})((?:\.(?:\d{1,3}|[a-z]{1,2})|(?<=\d)[a-z]{1,2}|(?<=[a-z])\d{1,3})*)\.?\s*$",
                        re.IGNORECASE)


def parse_lookup_number(text: str) -> Segments:
    """A rule number as someone looking a rule up types it: every form :func:`parse_number`
    reads, and also ``337.1(a)`` and ``337.1 a`` (both ``337.1.a``), and a number whose head
    has more digits than any rule's (``9999.9``: its segments, so the lookup can say that the
    rule does not exist and which numbers are nearest).

    Only a lookup reads these: the citation finder and search keep :func:`parse_number`'s
    grammar, in which ``2026.1`` in an article is a year, not a rule. Raises
    :class:`NumberError` (parse_number's message) for anything else.

    >>> parse_lookup_number("337.1(a)"), parse_lookup_number("337.1 a")
    (('337', '1', 'a'), ('337', '1', 'a'))
    >>> parse_lookup_number("9999.9")
    ('9999', '9')
    """
    try:
        return parse_number(text)
    except NumberError as exc:
        refused = exc
    loose = _PAREN_SEGMENT.sub(r".\1", text.strip())
    spaced = _SPACED_LETTER.match(loose)
    if spaced:
        loose = f"{spaced.group(1)}.{spaced.group(2)}"
    segments = try_parse_number(loose) if loose != text.strip() else None
    if segments is not None:
        return segments
    long_head = _LONG_HEAD.match(_PREFIX.sub("", loose.strip("[]()"), count=1).strip())
    if long_head is None:
        raise refused
    return tuple(s.lower() for s in [long_head.group(1)] + _SEGMENT.findall(long_head.group(2)))


def group_numbers(words: Sequence[str]) -> list[str]:
    """Words typed as separate arguments, grouped into one loosely written number each.

    A word without a digit (``rule``, ``CR``) belongs to the number after it, so
    ``rule 337.1.a.`` stays one number while ``337.1a 999.9`` is two; words after the
    last number join it (and make it fail to parse, saying what was typed).

    >>> group_numbers(["rule", "337.1.a.", "999.9"])
    ['rule 337.1.a.', '999.9']
    """
    groups: list[str] = []
    pending: list[str] = []
    for word in words:
        pending.append(word)
        if any(c.isdigit() for c in word):
            groups.append(" ".join(pending))
            pending = []
    if pending:
        if groups:
            groups[-1] = " ".join([groups[-1], *pending])
        else:
            groups.append(" ".join(pending))
    return groups


def try_parse_number(text: str) -> Segments | None:
    """Like :func:`parse_number` but returns None instead of raising."""
    try:
        return parse_number(text)
    except NumberError:
        return None


def try_parse_lookup_number(text: str) -> Segments | None:
    """Like :func:`parse_lookup_number` but returns None instead of raising: also the shapes
    only a lookup reads, for which :func:`try_parse_number` is None (``9999.9``, ``337.1(a)``).

    >>> try_parse_number("9999.9"), try_parse_lookup_number("9999.9")
    (None, ('9999', '9'))
    """
    try:
        return parse_lookup_number(text)
    except NumberError:
        return None


def sort_key(segments: Segments) -> SortKey:
    """A key that orders numbers the way the documents do (``9`` before ``10``)."""
    try:
        return _sort_key(segments)  # the same few thousand numbers, sorted and compared millions of times
    except TypeError:  # unhashable (a list of segments)
        return _key_of(segments)


def _key_of(segments: Sequence[str]) -> SortKey:
    return tuple((0, int(s)) if s.isdigit() else (1, s) for s in segments)


_sort_key = functools.lru_cache(maxsize=1 << 17)(_key_of)


def format_number(segments: Segments, style: NumberStyle = "dotted") -> str:
    """Write segments in a ruleset's canonical style."""
    if style == "dotted":
        return ".".join(segments)
    out = segments[0]
    for i, seg in enumerate(segments[1:], start=1):
        out += seg if seg.isalpha() and not segments[i - 1].isalpha() else "." + seg
    return out


def is_within(ancestor: Segments, number: Segments) -> bool:
    """True when ``number`` is ``ancestor`` or one of its subrules (segment-wise)."""
    return len(number) >= len(ancestor) and sort_key(number[: len(ancestor)]) == sort_key(ancestor)


def parent_segments(segments: Segments) -> Segments | None:
    """The number one level up (``337.1.a`` → ``337.1``), None for a top-level number."""
    return segments[:-1] if len(segments) > 1 else None


def expand_range(first: Segments, last_tail: str) -> list[Segments]:
    """Expand ``601.2a–f`` or ``119.7–8``: the last segment of ``first`` runs to ``last_tail``.

    Returns an empty list when the range is not well formed (different kinds of segment,
    backwards, or longer than 60 items).
    """
    start = first[-1]
    if start.isdigit() and last_tail.isdigit():
        lo, hi = int(start), int(last_tail)
        if not lo <= hi or hi - lo > 60:
            return []
        width = len(start) if start.startswith("0") else 0
        return [first[:-1] + (str(n).zfill(width),) for n in range(lo, hi + 1)]
    if start.isalpha() and last_tail.isalpha() and len(start) == len(last_tail) == 1:
        lo, hi = ord(start.lower()), ord(last_tail.lower())
        if not lo <= hi:
            return []
        return [first[:-1] + (chr(c),) for c in range(lo, hi + 1)]
    return []


# -- a number typed with its dots dropped, doubled or misplaced ------------------------------
# What a judge typing fast makes of 337.1.a: 3371a, 337..1a, 337,1a, 337 1 a. Only digits,
# letters and separators (dots, commas, spaces); a word of two letters standing alone ("337
# or 338") is a word, not a segment.
_LOOSE_TOKEN = re.compile(r"(\d+)|([a-z]+)|([\s.,]+)|(.)", re.IGNORECASE | re.ASCII | re.DOTALL)
#: The most digits and letters a re-dotted number is read from (the longest rule has 9).
REDOT_MAX_CHARACTERS = 16


def loose_segments(text: str) -> Segments | None:
    """The digits and letters of a text typed as a rule number with stray separators,
    split where a separator stands or digits meet letters: ``337..1a``, ``337,1a`` and
    ``337 1 a`` are ``('337', '1', 'a')``, ``3371a`` is ``('3371', 'a')``. None for any
    other text (``banana``, ``337 or 338``, a range ``337-340``, over 64 characters).

    A lookup answers such a text with the numbers it can be re-dotted into
    (:func:`redotted_numbers`), never with a rule it guesses.

    >>> loose_segments("337..1a"), loose_segments("rule 337 1 a")
    (('337', '1', 'a'), ('337', '1', 'a'))
    >>> loose_segments("337 or 338") is None
    True
    """
    if len(text) > 64:
        return None
    body = _PREFIX.sub("", text.strip().strip("[]()"), count=1).strip()
    tokens = _LOOSE_TOKEN.findall(body)
    if not tokens or not tokens[0][0]:  # it starts with a digit
        return None
    segments: list[str] = []
    spaced = False
    for digits, letters, separators, other in tokens:
        if other:
            return None
        if digits:
            segments.append(digits)
        elif letters:
            if len(letters) > 2 or (len(letters) == 2 and spaced):
                return None
            segments.append(letters.lower())
        spaced = bool(separators) and separators.isspace()
    return tuple(segments)


def _pieces(run: str, head: bool) -> list[str]:
    """The ways one segment may start a run of digits or letters: 1 to 3 digits (no leading
    zero but in a rule's head: Riftbound's 000, 050) or 1 to 2 letters."""
    longest = 3 if run[0].isdigit() else 2
    return [run[:n] for n in range(1, min(longest, len(run)) + 1)
            if n == 1 or head or run[0] != "0"]


def redotted_numbers(segments: Segments, find: Callable[[Segments], str | None],
                     limit: int = 5) -> list[str]:
    """The existing numbers whose digits and letters, in order, are those of ``segments``
    with the dots put elsewhere: ``3371a`` → 337.1.a, Magic's ``7045b`` → 704.5b, ``3.3.7.1.a``
    → 337.1.a; ``segments`` themselves too when they exist. ``find`` names an edition's rule
    (its canonical number) or None, so the edition's own numbering decides where dots go:
    segments are tried left to right and a prefix that is no rule is abandoned, since every
    rule's parent is a rule (:func:`kb.graph.build_edition` refuses an orphan).

    Ordered by how few of the typed breaks moved (a break between a digit and a letter is
    always one), then as the document orders them; at most ``limit``. Empty for more than
    :data:`REDOT_MAX_CHARACTERS` digits and letters.

    >>> known = {("337",): "337", ("337", "1"): "337.1", ("337", "1", "a"): "337.1.a"}
    >>> redotted_numbers(("3371", "a"), known.get)
    ['337.1.a']
    """
    characters = "".join(segments).lower()
    if not characters or len(characters) > REDOT_MAX_CHARACTERS or limit < 1:
        return []
    typed_breaks = set(itertools.accumulate(len(s) for s in segments[:-1]))
    # Where a digit meets a letter: a break there is no dot moved, typed or not.
    natural = {i for i in range(1, len(characters)) if characters[i].isdigit() != characters[i - 1].isdigit()}
    found: dict[str, tuple[int, SortKey]] = {}

    def walk(at: int, prefix: Segments, breaks: frozenset[int]) -> None:
        """Record each existing number that ``prefix`` (a rule, read up to ``at``) grows into."""
        if at == len(characters):
            moved = len((breaks ^ typed_breaks) - natural)
            number = find(prefix)
            if number is not None and (number not in found or moved < found[number][0]):
                found[number] = (moved, sort_key(prefix))
            return
        kind = str.isdigit if characters[at].isdigit() else str.isalpha
        end = at
        while end < len(characters) and kind(characters[end]):
            end += 1
        for piece in _pieces(characters[at:end], head=not prefix):
            longer = prefix + (piece,)
            if find(longer) is not None:
                walk(at + len(piece), longer, breaks | {at + len(piece)} if at + len(piece) < len(characters)
                     else breaks)

    walk(0, (), frozenset())
    return sorted(found, key=lambda n: found[n])[:limit]


def typed_number(text: str, find: Callable[[Segments], str | None]) -> Segments | None:
    """The segments of a text typed as one rule number, for a search to say whether the
    edition has that rule: every form the rule lookup reads (:func:`parse_lookup_number`:
    ``337.1a``, ``rule 9999``, ``9999.9``, ``CR 999.9z``, ``337.1(a)``), and a number typed
    with its dots dropped, doubled or misplaced (:func:`loose_segments`) whose digits and
    letters re-dot into a rule ``find`` names (``3371a``); None for any other text.

    Whether the number is a rule is not decided here by its shape (four digits, more parts
    or a letter where the edition writes digits): ``find``, the edition's own numbering,
    says so, so a ruleset whose heads had four digits would find ``1000``. The loose forms
    need a re-dotted rule, since ``1 2`` alone is no one's way of writing a rule.

    >>> known = {("337",): "337", ("337", "1"): "337.1", ("337", "1", "a"): "337.1.a"}
    >>> typed_number("rule 9999", known.get), typed_number("3371a", known.get)
    (('9999',), ('3371', 'a'))
    >>> typed_number("1 2", known.get) is None, typed_number("priority", known.get) is None
    (True, True)
    """
    segments = try_parse_lookup_number(text)
    return segments if segments is not None else loose_number(text, find)


def loose_number(text: str, find: Callable[[Segments], str | None]) -> Segments | None:
    """The loose half of :func:`typed_number`, for a caller that has already tried the rule
    lookup's forms: a number typed with its dots dropped, doubled or misplaced whose digits
    and letters re-dot into a rule ``find`` names (``3371a``); None for any other text.

    >>> known = {("337",): "337", ("337", "1"): "337.1", ("337", "1", "a"): "337.1.a"}
    >>> loose_number("3371a", known.get), loose_number("rule 9999", known.get)
    (('3371', 'a'), None)
    """
    loose = loose_segments(text)
    return loose if loose and redotted_numbers(loose, find, limit=1) else None
