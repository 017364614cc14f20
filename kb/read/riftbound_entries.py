"""Numbered entries of a Riftbound rules export, turned into RawRules (shared by the
HTML-row, PDF-text and table readers).

A reader feeds :class:`Entries` in document order: a numbered entry (:meth:`Entries.start`)
or text that continues the entry above (:meth:`Entries.extend`). The exports share PDF
artefacts, which are repaired here, each with a warning that names its line:

* a mis-split id: ``461.`` + ``4 The following Task…`` after 461.3.d.1 is rule 461.4;
* an id that lost a level: ``625.e.`` after 625.1.d.1 is rule 625.1.e;
* an id printed twice in a row: the second paragraph continues the first (744.5 in 1.2);
* a rule glued into a continuation: ``Refl391. Delayed Abilities…`` starts rule 391.

What cannot be repaired for certain is kept as printed, with a warning: an id printed again
far from its first place is a paragraph of the entry above, a rule printed without its
parent gets an empty parent, an unreadable id is text of the entry above, a rule without
text (a cut file) stays empty. Only a document with no numbered entry is refused.

Exports without heading markup leave the kind of a top-level entry open; it is decided
from the text (:func:`looks_like_title`): a short title is a section heading, and a title
numbered ``N00.`` that has no subrules of its own is a chapter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from kb.model import Diagnostic, RawRule, RuleKind
from kb.numbers import Segments, format_number, sort_key, try_parse_number
from kb.read.dates import edition_date
from kb.read.examples import split_examples
from kb.read.text import MIN_RULE_LINES, clean

# A Riftbound id as printed: ``103.``, ``103.1.b.``, ``747.4`` (the last dot is sometimes lost).
ID = r"\d{3}(?:\.(?:\d{1,3}|[a-z]))*\.?"
_ID = re.compile(ID)
_SPLIT_TOKEN = re.compile(r"^(\d{1,2}|[a-z])\s+(?=\S)")
_GLUED = re.compile(r"^([A-Za-z]{1,8})?(\d{3}(?:\.(?:\d{1,3}|[a-z]))*\.)\s+(?=\S)")
_SENTENCE_BREAK = re.compile(r"[.!?]\s")
_MAX_TITLE_WORDS = 8
# Bold terms in the PDF leave spaces inside quotes and brackets: " Add ", [ Reaction ], Units ."
_SPACE_BEFORE_CLOSER = re.compile(r"(?<=\w) +(?=[,.;:!?]+[\"”’)\]])")
_SPACED_BRACKET = re.compile(r"\[ +([^\[\]\n]*?) *\]|\[([^\[\]\n]*?) +\]")


def fits_numbering(segments: Segments) -> bool:
    """True for the shape of every Riftbound number: a three-digit head, then numbers and
    letters taking turns (``464.2.c.1.a``)."""
    head, rest = segments[0], segments[1:]
    return (len(head) == 3 and head.isdigit()
            and all(seg.isdigit() == (i % 2 == 0) for i, seg in enumerate(rest)))


def unknown_ids_said(unread: list[tuple[int, str]], source: str) -> list[Diagnostic]:
    """What to say of the ids whose parts the reader does not know (each part after the first
    is a number or one letter): a warning at each, whose paragraph joins the rule above; an
    error naming the first where there are several (a numbering the reader does not know, not
    a slip), so that the import is refused rather than read without those rules."""
    expected = ("each part after the first is a number or one letter, as '103.1.b.2.' or "
                "'103.1.b.'")
    if len(unread) >= MIN_RULE_LINES:
        line, raw = unread[0]
        return [Diagnostic(
            f"{len(unread)} rule ids have a part the reader does not know ({raw!r} at line {line}; "
            f"{expected}): a numbering this reader cannot read, so their rules would be lost",
            source, line)]
    return [Diagnostic(f"rule id {raw!r} has a part the reader does not know ({expected}); its "
                       "paragraph is read as text of the rule above", source, line, "warning")
            for line, raw in unread]


def tidy_bold_spacing(text: str) -> str:
    """Remove the spaces a PDF export leaves around bold terms inside quotes and brackets.

    Straight quotes are paired only when a text has an even number of them.

    >>> tidy_bold_spacing('the action " Add " gives [ Reaction ] to "Units ."')
    'the action "Add" gives [Reaction] to "Units."'
    """
    text = text.replace("“ ", "“").replace(" ”", "”")
    if '"' in text and text.count('"') % 2 == 0:
        parts = text.split('"')
        for i in range(1, len(parts), 2):  # the quoted parts
            parts[i] = parts[i].strip(" ")
        text = '"'.join(parts)
    text = _SPACED_BRACKET.sub(lambda m: "[" + (m.group(1) if m.group(1) is not None else m.group(2)) + "]",
                               text)
    return _SPACE_BEFORE_CLOSER.sub("", text)


def ends_sentence(text: str) -> bool:
    """True when the text ends like a sentence (``.``, ``:``, ``;``, ``,``, before closing quotes)."""
    stripped = text.rstrip().rstrip("\"”’'").rstrip()
    return bool(stripped) and stripped[-1] in ".:;,!?"


def looks_like_title(text: str) -> bool:
    """A heading's text: a few words, no sentence inside and no sentence punctuation at the end.

    >>> looks_like_title("Step 1: Finalize"), looks_like_title("Tokens are not cards.")
    (True, False)
    """
    words = text.split()
    return (0 < len(words) <= _MAX_TITLE_WORDS and not ends_sentence(text)
            and not _SENTENCE_BREAK.search(text))


def find_date(text: str) -> str:
    """The ISO date of a ``Last Updated: 2026-03-30`` or ``Last Updated 4/29/2026`` line, or
    another way of writing it (:func:`kb.read.dates.edition_date`)."""
    return edition_date(text)


def feed_markup(parser: HTMLParser, text: str, entries: Entries) -> None:
    """Run an HTML parser over the whole text; markup it cannot parse (html.parser asserts
    on a malformed ``<![…`` section) is an error at its line, not a crash."""
    try:
        parser.feed(text)
        parser.close()
    except AssertionError as exc:
        entries.error(f"unreadable markup: {exc}", parser.getpos()[0])


@dataclass(slots=True)
class _Entry:
    rule: RawRule
    parts: list[str] = field(default_factory=list)
    kind: RuleKind | None = None  # None: decided from the text at the end
    placeholder: bool = False  # an unprinted parent kept empty


class Entries:
    """Numbered entries in document order, with the repairs described in the module docstring."""

    def __init__(self, source: str):
        self.source = source
        self.diagnostics: list[Diagnostic] = []
        self._entries: list[_Entry] = []
        self._seen: set[tuple] = set()

    @property
    def started(self) -> bool:
        """True once the first numbered entry was seen (text before it is the header)."""
        return bool(self._entries)

    def last_number(self) -> Segments | None:
        return self._entries[-1].rule.number if self._entries else None

    def _warn(self, message: str, line: int, number: Segments) -> None:
        self.diagnostics.append(Diagnostic(message, self.source, line, "warning",
                                           format_number(number)))

    def error(self, message: str, line: int) -> None:
        self.diagnostics.append(Diagnostic(message, self.source, line))

    def note(self, message: str, line: int) -> None:
        """A warning about the document as a whole (a cut file), at a line."""
        self.diagnostics.append(Diagnostic(message, self.source, line, "warning"))

    def start(self, raw_id: str, text: str, line: int, kind: RuleKind | None = None) -> None:
        """A numbered entry: ``raw_id`` as printed, the text after it, and its kind when the
        markup says it (None leaves it to :meth:`finish`)."""
        number = try_parse_number(raw_id)
        if number is None or not _ID.fullmatch(raw_id.strip()):
            if self._entries:
                self._warn(f"unreadable rule number {raw_id.strip()[:20]!r}; the line is kept as "
                           f"text of rule {format_number(self._entries[-1].rule.number)}", line,
                           self._entries[-1].rule.number)
                self._entries[-1].parts.append(f"{raw_id.strip()} {text}")
            else:
                self.note(f"unreadable rule number {raw_id.strip()[:20]!r} before the first rule; "
                          "the line is ignored", line)
            return
        prev = self.last_number()
        if prev is not None and not fits_numbering(number):
            filled = self._fill_level(number, prev)
            if filled:
                self._warn(f"id {raw_id.strip()} lost a level; read as {format_number(filled)} "
                           f"(it follows {format_number(prev)})", line, filled)
                number = filled
        if prev is not None and sort_key(number) <= sort_key(prev):
            split = self._split_token(number, text, prev)
            if split:
                number, text = split
                self._warn(f"mis-split id {raw_id.strip()} + '{number[-1]} …' read as "
                           f"{format_number(number)} (it follows {format_number(prev)})", line, number)
            elif number == prev and self._is_stale_heading(self._entries[-1]):
                stale = self._entries[-1]
                self.diagnostics.append(Diagnostic(
                    f"heading '{stale.rule.raw_id} {clean(stale.parts[0])}' collides with rule "
                    f"{raw_id.strip()}; the rule wins", self.source, stale.rule.line, "info"))
                stale.rule.line, stale.rule.raw_id, stale.parts, stale.kind = line, raw_id.strip(), [text], kind
                return
            elif number == prev:
                self._warn(f"id {format_number(number)} is printed twice in a row; the second "
                           "paragraph is read as part of the first", line, number)
                self._entries[-1].parts.append(text)
                return
            elif sort_key(number) not in self._seen:
                self._warn(f"rule {format_number(number)} is out of order (it follows "
                           f"{format_number(prev)})", line, number)
        if prev is not None and sort_key(number) in self._seen:
            self._warn(f"rule {format_number(number)} is printed again; this paragraph is kept as "
                       f"part of rule {format_number(prev)}", line, prev)
            self._entries[-1].parts.append(text)
            return
        if prev is not None or len(number) > 1:  # the first entry's parents too, above it
            for depth in range(1, len(number)):
                ancestor = number[:depth]
                if sort_key(ancestor) not in self._seen:
                    self._warn(f"rule {raw_id.strip()} is printed without its parent "
                               f"{format_number(ancestor)}; {format_number(ancestor)} is kept as an "
                               f"empty rule{self._joined_into(ancestor)}", line, ancestor)
                    self._seen.add(sort_key(ancestor))
                    self._entries.append(_Entry(RawRule(ancestor, "rule", "", line,
                                                        raw_id=format_number(ancestor) + "."),
                                                [], "rule", placeholder=True))
        self._seen.add(sort_key(number))
        self._entries.append(_Entry(RawRule(number, kind or "rule", "", line, raw_id=raw_id.strip()),
                                    [text], kind))

    def extend(self, text: str, line: int) -> None:
        """Text that continues the entry above; a rule glued to its front starts a new entry."""
        if not self._entries:
            return
        m = _GLUED.match(text)
        if m:
            number = try_parse_number(m.group(2))
            if number is not None and self._next_in_sequence(number):
                if m.group(1):
                    self._warn(f"stray text {m.group(1)!r} glued before rule {m.group(2)} dropped",
                               line, number)
                self.start(m.group(2), text[m.end():], line)
                return
        self._entries[-1].parts.append(text)

    def finish(self) -> list[RawRule]:
        """The RawRules, with text cleaned, examples split and open kinds decided."""
        rules = []
        for i, entry in enumerate(self._entries):
            rule = entry.rule
            text = tidy_bold_spacing(clean("\n".join(entry.parts), pdf_spacing=True))
            kind = entry.kind or self._decide_kind(i, text)
            rule.kind = kind
            if kind == "rule":
                body, examples = split_examples(text)
                # A rule that is only "Examples:" (heading its subrules, Tournament Rules
                # 703.3.a) or only an example (602.4.b.4.b.1) keeps it as its text.
                rule.text, rule.examples = (body, examples) if body and examples else (text, [])
                if not rule.text and not rule.examples and not entry.placeholder:
                    self._warn(f"rule {format_number(rule.number)} has no text (is the document "
                               "truncated?); it is kept empty", rule.line, rule.number)
            else:
                rule.title = text
                if not text:
                    self._warn(f"heading {format_number(rule.number)} has no title", rule.line,
                               rule.number)
            rules.append(rule)
        last = rules[-1] if rules else None
        if last is not None and last.kind == "rule" and last.text and not last.examples \
                and not ends_sentence(last.text) and last.text.split()[-1][:1].islower():
            # A sentence stopping at a lower-case word: a title ("Symbols") would not.
            self.note(f"the document ends inside rule {format_number(last.number)}, whose text "
                      "stops mid-sentence (is it truncated?); what precedes the cut is read", last.line)
        return rules

    # -- repairs ---------------------------------------------------------------
    @staticmethod
    def _is_stale_heading(entry: _Entry) -> bool:
        """A top-level entry holding only a title (``459. Combat Showdown``), which the same
        number printed next as a rule replaces (the Markdown reader's stale heading, in a
        layout without heading marks)."""
        return (len(entry.rule.number) == 1 and entry.kind in (None, "section", "chapter")
                and len(entry.parts) == 1 and looks_like_title(clean(entry.parts[0])))

    def _fill_level(self, number: Segments, prev: Segments) -> Segments | None:
        """``625.e`` after ``625.1.d.1``: the lost level comes from the rule above."""
        parent = number[:-1]
        if prev[:len(parent)] != parent:
            return None
        for depth in range(len(parent) + 1, len(prev) + 1):
            candidate = prev[:depth] + number[-1:]
            if (fits_numbering(candidate) and sort_key(candidate) > sort_key(prev)
                    and sort_key(candidate[:-1]) in self._seen
                    and sort_key(candidate) not in self._seen):
                return candidate
        return None

    def _joined_into(self, number: Segments) -> str:
        """Where the number of a missing parent is printed in the text of the entry above (a
        layout that joined two rules' lines): what to add to the warning, else ""."""
        if not self._entries:
            return ""
        above = self._entries[-1]
        printed = re.compile(r"(?<![\w.])" + re.escape(format_number(number)) + r"\.?(?![\w.])")
        if not printed.search("\n".join(above.parts)):
            return ""
        return (f"; its number is printed in the text of {format_number(above.rule.number)} above: "
                "the layout may have joined its lines to that rule's")

    def _split_token(self, number: Segments, text: str, prev: Segments) -> tuple[Segments, str] | None:
        """``461.`` + ``4 The following…`` after 461.3.d.1: the id's last segment was split off."""
        m = _SPLIT_TOKEN.match(text)
        if not m:
            return None
        candidate = number + (m.group(1),)
        if (fits_numbering(candidate) and sort_key(candidate) > sort_key(prev)
                and sort_key(number) in self._seen and sort_key(candidate) not in self._seen):
            return candidate, text[m.end():]
        return None

    def _next_in_sequence(self, number: Segments) -> bool:
        """Could ``number`` be the next entry? (a new number, after the last one, near it)."""
        prev = self.last_number()
        if prev is None or not fits_numbering(number):
            return False
        key = sort_key(number)
        if key in self._seen or key <= sort_key(prev):
            return False
        if len(number) > 1:
            return sort_key(number[:-1]) in self._seen
        return int(number[0]) - int(prev[0]) <= 3

    def _decide_kind(self, i: int, text: str) -> RuleKind:
        number = self._entries[i].rule.number
        if len(number) > 1 or not looks_like_title(text):
            return "rule"
        following = self._entries[i + 1].rule.number if i + 1 < len(self._entries) else None
        has_subrules = following is not None and len(following) > 1 and following[0] == number[0]
        if number[0].endswith("00") and not has_subrules:
            return "chapter"
        return "section"


def note_cut_without_line_end(text: str, rules: list[RawRule], entries: Entries) -> None:
    """Report a file that ends inside a rule's sentence without a line end (``... on the Chain
    as P``): it was cut there, whatever the case of its last word (:meth:`Entries.finish` can
    only tell a cut at a lower-case word, since a title ends at a capital one)."""
    if not rules or text.endswith("\n") or any("truncated?" in d.message for d in entries.diagnostics):
        return
    rule = rules[-1]
    said = rule.examples[-1] if rule.examples else rule.text
    if rule.kind == "rule" and said and not ends_sentence(said):
        entries.note(f"the document ends inside rule {format_number(rule.number)}, whose text stops "
                     "mid-sentence where the file ends without a line end (is it truncated?); what "
                     "precedes the cut is read", text.rstrip().count("\n") + 1)
