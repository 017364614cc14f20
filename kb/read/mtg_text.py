"""Magic: The Gathering Comprehensive Rules, the official plain-text release.

Layout: a title line, ``These rules are effective as of <date>.``, an Introduction, the
Contents (chapter and section titles, then ``Glossary`` and ``Credits``), the rules body,
the Glossary, Credits and a trademark/contact block. Every paragraph is one line:

* ``1. Game Concepts`` is a chapter, ``100. General`` a section heading;
* ``100.1. Text`` a rule and ``100.1a Text`` a subrule (the dot after a rule is sometimes
  missing, a stray one after a subrule sometimes present: both are optional here);
* a line starting ``Example:`` belongs to the rule above it;
* an indented line without a number continues the rule above it (a paragraph of its own);
* a Glossary entry is a term line followed by its definition lines, entries separated by
  blank lines (where the blank lines do not part the entries, as in a DOCX without empty
  paragraphs, an entry starts at each term-shaped line: :func:`_entries_by_shape`).

The rules body starts at the chapter heading above the first numbered rule, so the
Contents (which also lists ``Glossary`` and ``Credits``) is skipped without counting
headings. Releases up to 2013 mark italics with underscores (``_Magic_``); the markers are
dropped there and kept as literal text in later releases.

The releases since 2003 hold the publisher's slips, each read and reported as a warning with
its line (a rules document is never refused for one):

* the 2003 releases wrap paragraphs at a line width: lines without a blank line between them
  are one paragraph, and a line starting with a number right after ``See rule`` is the rest of
  that reference, not a rule;
* ids split by a space (``606. 8b``), indented by a space, or glued to their text
  (``901.4.All``) are read as the rule they are;
* a misprinted number (``432.2b`` after ``423.2a``, ``702.30d`` twice, ``505.54.`` heading the
  ``505.5a`` subrules) is read as the one expected number a keystroke or two away; where there
  is none it is kept as printed (see :func:`_repair_numbers`);
* a file that ends before its Glossary or Credits is read up to the cut;
* a ``Glossary`` heading printed at the end of the line above it, after a sentence's end
  (``…the card takes precedence. Glossary``: a PDF's line end the text lost, at a page break
  after a full line) is read as the heading, the line's text before it as the rule's
  (:func:`_glued_heading`), with a note at its line.

Other tools' layouts of the same rules are read as the release prints them, each said in a
note: subrule letters set apart from their rule's number (``100.1.a``, ``100.1 a``), chapter
headings a Markdown list renumbered (every chapter ``1.``: read as the chapter its sections
are in, a warning at each), the Glossary printed before the rules, and in a hard-wrapped
text a heading's title or a glossary term wrapped onto a second line.

The same text converted to Markdown (or from a web page, :mod:`kb.read.web_page`) is read
through its marks: a heading's hashes, a list item's bullet, a quote's ``>`` and the bold
around a rule number or a whole line (a Glossary term) are dropped (see :func:`_unmarked`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

from kb.model import Diagnostic, RawRule, RawTerm, ReadResult, term_key
from kb.numbers import Segments, SortKey, format_number, parse_number, sort_key
from kb.read.dates import edition_date
from kb.read.normalise import without_contents_list
from kb.read.text import MIN_RULE_LINES, clean
from kb.references import find_mentions

FORMAT = "mtg-text"

_LINES = re.compile(r"\r\n|\r|\n")
_CHAPTER = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
_SECTION = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# ``100.1.`` / ``606.5`` (missing dot) and ``100.1a`` / ``119.1d.`` (stray dot).
_RULE = re.compile(r"^(\d{3}\.\d+)\.?\s+(\S.*)$")
_SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])\.?\s+(\S.*)$")
# A part after a subrule's letter (``702.19b.1``, ``702.19b.i``): a level deeper than the
# releases number, which a future edition may add.
_DEEPER = re.compile(r"^(\d{3}\.\d+[a-z]\.(?:\d+|[ivx]+))\.?\s+(\S.*)$")
# The same with the publisher's slips: a space inside the id (``606. 8b``), one or two
# spaces before it, no space after it (``901.4.All``). A split id needs its letter or dot.
_QUIRKY_ID = re.compile(r"^(?P<indent> {0,2})(?P<head>\d{3})\.(?P<gap> ?)(?P<tail>\d+[a-z]?)"
                        r"(?P<dot>\.?)(?P<space>\s*)(?P<text>\S.*)$")
_CAPS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ“\"")
_EXAMPLE = re.compile(r"^Examples?:\s*")
# A wrapped reference: "See rule" at the end of one line, "103.4. If…" at the start of the next.
_ENDS_WITH_REFERENCE_WORD = re.compile(r"(?:\b(?:rules?|see|and|or|through|section)|[,–-])\s*$",
                                       re.IGNORECASE)
# Where every paragraph is one line, only "rule"/"rules" at the end of the line above says so.
_ENDS_WITH_RULE_WORD = re.compile(r"\brules?\s*$", re.IGNORECASE)
_LOOKS_NUMBERED = re.compile(r"^\d+\.\d")
_SENSE = re.compile(r"^\d{1,2}\. ")
_STARTS_DEFINITION = re.compile(r"^[\dA-Z“\"‘'(]")
_ENDS_SENTENCE = re.compile(r"[.:;!?][)\]”\"’']*$")
_ENDS_STATEMENT = re.compile(r"[.:;?][)\]”\"’']*$")  # a sentence, not an exclamation (a term's)
# Italic markers of the older releases: runs of one or two underscores. Runs of three or
# more are printed blanks ("Wolf in ________ Clothing") and stay.
# An underscore inside a word (``x=UTR_Intro`` in a 2003 address) is text.
_ITALICS = re.compile(r"(?<![_\w])_{1,2}(?![_\s])|(?<=[^_\s])_{1,2}(?![_\w])")
_LAST_ITALIC_YEAR = 2013
# "See Typecycling.", "See “Enters the Battlefield.”", "See Intervening “If” Clause."
_SEE_TERM = re.compile(r"\bSee (?:also )?([“\"]?[A-Z][^.]{0,60}?)\.?[”\"]?(?:\.|$)", re.M)
_SEE_TERM_QUOTES = re.compile(r"^[“\"]|[”\"]$")
_KEYWORD_SECTIONS = ("keyword actions", "keyword abilities")
# A Glossary entry written on one line, "Term: definition" (no printed term holds ": ").
_TERM_AND_DEFINITION = re.compile(r"^([A-Z“\"][^:]{0,90}?): (\S.*)$")
# a glossary paragraph that is only a cross-reference ("See rule 406, “Exile.”")
_CROSS_REFERENCE = re.compile(r"^See (?:also )?rules? \d")
_REFERS = re.compile(r"\bSee (?:also )?(?:rules?|section) \d")  # in a definition, never in a term
_MAX_TERM_WORDS = 12  # the longest printed term: "Remove from the Game, Removed, …" (9)
# Markdown marks: a heading, a list item or a quote before a line, bold around its number or
# around the whole line.
_MARKED = re.compile(r"(?m)^(?:#{1,6}[ \t]|[-*+>][ \t]+(?:\*\*|__)?\d|(?:\*\*|__)\S)")
_LINE_MARK = re.compile(r"^(?P<indent>[ \t]*)(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)")
_ITEM_NUMBER = re.compile(r"(?:\*\*|__)?\d{1,3}\.")  # a list item's rule or heading number
_BOLD_NUMBER = re.compile(r"^(\*\*|__)(\d{1,3}(?:\.\d+[a-z]?)?\.?)\1")
_BOLD_LINE = re.compile(r"^(\*\*|__)(\S(?:.*\S)?)\1$")
# A subrule's letter set apart from its rule's number, as another tool writes it: ``100.1.a``,
# ``100.1.a.`` or ``100.1 a`` (a letter and no deeper part: Riftbound's ids go on, ``103.1.b.2``).
_SET_APART = re.compile(r"^(?P<lead>[ \t]{0,2}(?:[#>*+-]+[ \t]+)?(?:\*\*|__)?)(?P<rule>\d{3}\.\d+)"
                        r"(?:\.|[ \t])(?P<letter>[a-z])\.?(?P<close>(?:\*\*|__)?)(?=[ \t\u00a0]+[^\s.a-z])",
                        re.M)
_MAX_KEYWORD_WORDS = 6


def sniff(text: str) -> int:
    """Subrule ids with the letter attached (``116.3d``) mark this format; the title helps."""
    head = text[:300_000].replace("\r", "\n")
    # NBSP: a word processor's; marks: a Markdown conversion's ("- 100.1a", "**100.1a**")
    subrules = len(re.findall(r"(?m)^(?:[#>*+-]+[ \t]+)?(?:\*\*|__)?\d{3}\.\d+[a-z]\.?(?:\*\*|__)?"
                              r"[ \t\u00a0]", head))
    titled = "Comprehensive Rules" in head[:2000]
    if subrules < MIN_RULE_LINES and titled:  # the letters set apart (``100.1.a``, ``100.1 a``)
        subrules = _set_apart_count(head)
    if subrules < MIN_RULE_LINES:
        return 0
    return min(100, 50 + subrules // 10 + (30 if titled else 0))


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    diagnostics: list[Diagnostic] = []
    text = _letters_attached(text.removeprefix("\ufeff"), source, diagnostics)
    lines = _LINES.split(text)
    if _MARKED.search(text):
        lines = _unmarked_lines(lines)
    # a contents that repeats every rule number (an indexing tool's) is no rules
    lines, contents = without_contents_list(lines, source, rules_only=True)
    diagnostics += contents
    title = next((ln.strip() for ln in lines[:20] if ln.strip()), "")
    start = _body_start(lines)
    # The date follows the title; a cover page or contents may come between them.
    date = _effective_date("\n".join(lines[:40])) or _effective_date("\n".join(lines[:start or 0]))
    italics = bool(date) and int(date[:4]) <= _LAST_ITALIC_YEAR

    def tidy(raw: str) -> str:
        return clean(_ITALICS.sub("", raw) if italics and "_" in raw else raw)  # the marks are underscores

    if start is None:
        diagnostics.append(Diagnostic(
            "no numbered rules (such as '100.1. …') found: not a Comprehensive Rules text",
            source, 1))
        return ReadResult([], [], tidy(title), date, "mtg", diagnostics)
    glossary = _heading_after(lines, "Glossary", start)
    glued = _glued_heading(lines, "Glossary", start) if glossary is None else None
    if glued is not None:  # the line's text before the heading is the rule's: the body ends after it
        lines = list(lines)
        lines[glued] = lines[glued].rstrip()[:-len("Glossary")].rstrip()
        diagnostics.append(Diagnostic(
            f"the Glossary heading is printed at the end of line {glued + 1}, after the text of the "
            "paragraph above it (a line end lost, as at a PDF's page break): read as the Glossary's "
            "heading", source, glued + 1, "info"))
    ahead = _glossary_ahead(lines, start) if glossary is None and glued is None else None
    entries: tuple[int, int] | None  # the Glossary's lines below its heading, None without one
    if ahead is not None:  # the Glossary printed before the rules: they run to the Credits
        credits = _heading_after(lines, "Credits", start)
        end = credits if credits is not None else len(lines)
        entries = (ahead + 1, start)
        diagnostics.append(Diagnostic(
            f"the Glossary is printed before the rules (line {ahead + 1}); read as the Glossary",
            source, ahead + 1, "info"))
    elif glossary is not None or glued is not None:
        heading = glossary if glossary is not None else glued
        credits = _heading_after(lines, "Credits", heading + 1)
        end = heading if glossary is not None else glued + 1
        entries = (heading + 1, credits if credits is not None else len(lines))
    else:
        credits, end, entries = None, len(lines), None
    wrapped = _hard_wrapped(lines, start, end)
    lines = _chapters_renumbered(lines, start, end, source, diagnostics)
    rules = _read_body(lines, start, end, tidy, source, diagnostics, wrapped)
    terms: list[RawTerm] = []
    if entries is not None:
        terms = _read_glossary(lines, *entries, tidy, source, diagnostics, wrapped)
        _resolve_citations(terms, rules, source, diagnostics)
    # A cut file is still a rules document: what it holds is read, the cut is reported
    # with the rule or Glossary entry it falls in.
    if entries is None:
        inside = f", inside rule {rules[-1].raw_id.rstrip('.')}" if rules else ""
        diagnostics.append(Diagnostic(
            f"the document ends before its Glossary{inside}: the file looks truncated (the rules "
            "up to the cut are read)", source, len(lines), "warning"))
    elif credits is None and ahead is None:
        inside = f", inside the entry {terms[-1].name!r}" if terms else ""
        diagnostics.append(Diagnostic(
            f"the Glossary runs to the end of the file without the Credits heading{inside}: "
            "the file looks truncated (the entries up to the cut are read)", source, len(lines),
            "warning"))
    keywords = _keywords(rules, {term_key(t.name): t for t in terms})
    title = tidy(title) or "Magic: The Gathering Comprehensive Rules"
    return ReadResult(rules, keywords + terms, title, date, "mtg", diagnostics)


def _set_apart_count(text: str) -> int:
    """How many lines start with a subrule whose letter is set apart (``100.1.a``, ``100.1 a``),
    in a text with no id deeper than a letter (which would be Riftbound's numbering)."""
    if re.search(r"(?m)^\W{0,4}\d{3}\.\d+\.[a-z]\.\d", text):
        return 0
    return sum(1 for _ in _SET_APART.finditer(text))


def _letters_attached(text: str, source: str, diagnostics: list[Diagnostic]) -> str:
    """The text with each subrule's letter attached to its rule's number, as the release
    prints it (``100.1.a`` and ``100.1 a`` → ``100.1a``), when the document sets its letters
    apart (on three lines at least; a note says so). A line's length changes, not its place."""
    if _set_apart_count(text[:300_000]) < MIN_RULE_LINES:
        return text
    text, found = _SET_APART.subn(r"\g<lead>\g<rule>\g<letter>\g<close>", text)
    diagnostics.append(Diagnostic(
        f"{found} subrule numbers are written with their letter set apart ('100.1.a', '100.1 a'): "
        "read as the release prints them ('100.1a')", source, 0, "info"))
    return text


def _unmarked_lines(lines: list[str]) -> list[str]:
    """The lines as the text release prints them (:func:`_unmarked`), but for a line that
    starts with ``-``, ``*`` or ``+`` inside a paragraph of text: a hard-wrapped line going on
    with ``* instead of a number`` or ``- 3), and``, no list item (one follows a blank line or
    another item, or starts with a rule's number)."""
    out = []
    above_blank, above_item = True, False
    for line in lines:
        m = _LINE_MARK.match(line)
        item = bool(m) and m.group(0).strip()[:1] in ("-", "*", "+")
        if item and not (above_blank or above_item or _ITEM_NUMBER.match(line, m.end())):
            out.append(line)
            item = False
        else:
            out.append(_unmarked(line))
        above_blank, above_item = not line.strip(), item
    return out


def _unmarked(line: str) -> str:
    """A Markdown line as the text release prints it: ``## 100. General`` → ``100. General``,
    ``- **100.1.** Text`` → ``100.1. Text``, ``**Abandon**`` → ``Abandon``; an indented line
    keeps its indent (it continues the rule above)."""
    m = _LINE_MARK.match(line)
    if m:
        line = m.group("indent") + line[m.end():]
    body = line.lstrip()
    if body[:1] in ("*", "_"):
        b = _BOLD_NUMBER.match(body) or _BOLD_LINE.match(body)
        if b:
            body = b.group(2) + body[b.end():]
            line = line[: len(line) - len(line.lstrip())] + body
    return line


def _effective_date(head: str) -> str:
    """The date the release says it is effective as of (:func:`kb.read.dates.edition_date`)."""
    return edition_date(head)


def _body_start(lines: list[str]) -> int | None:
    """Index of the first heading of the run of headings (and blank lines) right above the
    first numbered rule: the Contents lists chapters and sections but no numbered rules, and
    ends with ``Glossary``/``Credits``, which stops the walk back."""
    first = next((i for i, ln in enumerate(lines) if _RULE.match(ln) or _SUBRULE.match(ln)), None)
    if first is None:
        return None
    start = first
    for i in range(first - 1, -1, -1):
        if _CHAPTER.match(lines[i]) or _SECTION.match(lines[i]):
            start = i
        elif lines[i].strip():
            break
    return start


def _chapters_renumbered(lines: list[str], start: int, end: int, source: str,
                         diagnostics: list[Diagnostic]) -> list[str]:
    """The lines with each chapter heading numbered as its sections are, when the body's
    chapter numbers repeat (a Markdown tool renumbers a heading list: every chapter ``1.``):
    ``1. Parts of a Card`` over ``200. General`` is chapter 2. Each heading so read is a
    warning at its line; a chapter whose sections say nothing else keeps its number."""
    chapters = [i for i in range(start, end) if _CHAPTER.match(lines[i].strip())
                and (i == start or not lines[i - 1].strip())]
    printed = [_CHAPTER.match(lines[i].strip()).group(1) for i in chapters]
    if len(set(printed)) == len(printed):
        return lines
    out = list(lines)
    for i, number in zip(chapters, printed):
        section = next((m for k in range(i + 1, end) if (m := _SECTION.match(lines[k].strip()))), None)
        if section is None or printed.count(number) == 1 or section.group(1)[0] == number:
            continue  # only a repeated number its sections contradict is repaired
        digit = section.group(1)[0]
        out[i] = lines[i].replace(f"{number}.", f"{digit}.", 1)
        diagnostics.append(Diagnostic(
            f"chapter heading {lines[i].strip()[:40]!r} repeats the number {number} (a renumbered "
            f"list?): read as chapter {digit}, the chapter of its sections ({section.group(1)}…)",
            source, i + 1, "warning", digit))
    return out


def _glossary_ahead(lines: list[str], start: int) -> int | None:
    """The line of a Glossary heading printed before the rules body (which starts at
    ``start``), or None: the last ``Glossary`` line above it whose entries follow it (in the
    Contents, ``Glossary`` is followed by ``Credits`` or by nothing)."""
    for i in range(start - 1, -1, -1):
        if lines[i].strip() != "Glossary":
            continue
        following = next((ln.strip() for ln in lines[i + 1:start] if ln.strip()), "")
        if following and following != "Credits" and not _SECTION.match(following) \
                and not _CHAPTER.match(following):
            return i
        return None
    return None


def _heading_after(lines: list[str], word: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == word), None)


def _glued_heading(lines: list[str], word: str, start: int) -> int | None:
    """The line, from ``start`` on, that ends in the heading ``word`` glued to the end of a
    sentence (``…takes precedence. Glossary``, ``…precedence.Glossary``) with an entry under
    it (a line that is no rule, heading or example, then another line), or None: the last
    such line (the Contents may list the word after a title ending so)."""
    found = None
    for i in range(start, len(lines) - 2):
        line = lines[i].rstrip()
        if not line.endswith(word) or len(line) == len(word):
            continue
        before = line[:-len(word)].rstrip()
        following = [ln for ln in lines[i + 1:i + 6] if ln.strip()]
        if (_ENDS_SENTENCE.search(before) and len(following) >= 2
                and not (_numbered(following[0]) or _SECTION.match(following[0].strip())
                         or _CHAPTER.match(following[0].strip()) or _EXAMPLE.match(following[0].strip()))):
            found = i
    return found


def _read_body(lines: list[str], start: int, end: int, tidy: Callable[[str], str],
               source: str, diagnostics: list[Diagnostic], wrapped: bool) -> list[RawRule]:
    rules: list[RawRule] = []
    paragraphs: list[list[str]] = []  # text paragraphs of each entry, parallel to rules
    examples: list[list[str]] = []
    chapter = ""
    last = ""  # "text" or "example": what an unindented unnumbered line continues
    if wrapped:
        diagnostics.append(Diagnostic(
            "the paragraphs are hard-wrapped: lines without a blank line between them are "
            "joined into one paragraph", source, start + 1, "info"))
    joined_lines = 0
    title_lines: set[int] = set()  # lines that went on with a heading's title
    for i in range(start, end):
        raw = lines[i].rstrip()
        line = raw.strip()
        if not line:
            continue
        lineno = i + 1
        above = lines[i - 1].strip() if i > start else ""  # "" after a blank line
        m = _numbered(raw)
        reference_end = _ENDS_WITH_REFERENCE_WORD if wrapped else _ENDS_WITH_RULE_WORD
        if m and above and reference_end.search(above) and rules and rules[-1].kind == "rule":
            # "See rule" ends one line, "103.4. If …" starts the next: a wrapped reference.
            diagnostics.append(Diagnostic(
                f"line starting {line[:12]!r} continues the reference {above[-20:]!r} of the line "
                f"above; read as text of rule {rules[-1].raw_id}", source, lineno, "warning",
                rules[-1].raw_id))
            m = None
            if wrapped:
                _append(paragraphs, examples, last, line)
                joined_lines += 1
                continue
        if m:
            raw_id, text, quirk = m
            if quirk:
                diagnostics.append(Diagnostic(f"{quirk}; read as rule {raw_id}", source, lineno,
                                              "warning", raw_id))
            rules.append(RawRule(parse_number(raw_id), "rule", "", lineno, raw_id=raw_id))
            paragraphs.append([text])
            examples.append([])
            last = "text"
            continue
        if wrapped and above and rules and rules[-1].kind == "rule" \
                and (_SECTION.match(raw) or _CHAPTER.match(raw)):
            # "…starting life total is\n25. In a multiplayer…": a wrapped line, not a heading
            # (headings stand apart, after a blank line).
            _append(paragraphs, examples, last, line)
            joined_lines += 1
            continue
        if i in title_lines:
            continue
        m = _SECTION.match(raw)
        if m:
            title = m.group(2)
            # wrapped, a heading's title may go on on the next line (a narrow column's)
            if wrapped and i + 1 < end and lines[i + 1].strip() and not _numbered(lines[i + 1]) \
                    and not _EXAMPLE.match(lines[i + 1].strip()) and not _ENDS_SENTENCE.search(title) \
                    and len(lines[i + 1].strip()) < len(raw):
                title = f"{title} {lines[i + 1].strip()}"
                title_lines.add(i + 1)
            if chapter and not m.group(1).startswith(chapter):
                diagnostics.append(Diagnostic(
                    f"section {m.group(1)} '{m.group(2)}' is not in chapter {chapter}",
                    source, lineno, "warning", m.group(1)))
            rules.append(RawRule(parse_number(m.group(1)), "section", "", lineno,
                                 title=tidy(title), raw_id=m.group(1) + "."))
            paragraphs.append([])
            examples.append([])
            last = ""
            continue
        m = _CHAPTER.match(raw)
        if m:
            chapter = m.group(1)
            rules.append(RawRule(parse_number(m.group(1)), "chapter", "", lineno,
                                 title=tidy(m.group(2)), raw_id=m.group(1) + "."))
            paragraphs.append([])
            examples.append([])
            last = ""
            continue
        if not rules or rules[-1].kind != "rule":
            where = f"after heading {rules[-1].raw_id}" if rules else "before the first rule"
            diagnostics.append(Diagnostic(f"unnumbered text {where} ignored: {line[:60]!r}",
                                          source, lineno, "warning"))
            continue
        m = _EXAMPLE.match(line)
        if m:
            examples[-1].append(line[m.end():])
            last = "example"
        elif wrapped and above and not raw[:1].isspace():
            _append(paragraphs, examples, last, line)  # a hard-wrapped line
            joined_lines += 1
        elif raw[:1].isspace() or last == "text":
            # An indented paragraph (or an unindented one right after the rule) continues it.
            if not raw[:1].isspace():
                diagnostics.append(Diagnostic(
                    f"unindented unnumbered paragraph taken as part of rule {rules[-1].raw_id}",
                    source, lineno, "warning", rules[-1].raw_id))
            paragraphs[-1].append(line)
            last = "text"
        else:
            examples[-1][-1] += "\n" + line
        if _LOOKS_NUMBERED.match(line) and not wrapped:
            diagnostics.append(Diagnostic(f"malformed rule number in {line[:30]!r}",
                                          source, lineno, "warning"))
    _repair_numbers(rules, paragraphs, examples, source, diagnostics)
    _report_order(rules, source, diagnostics)
    for rule, paras, exs in zip(rules, paragraphs, examples):
        if rule.kind == "rule":
            rule.text = "\n".join(tidy(p) for p in paras)
            rule.examples = [tidy(e) for e in exs]
    return rules


def _report_order(rules: list[RawRule], source: str, diagnostics: list[Diagnostic]) -> None:
    """A rule printed before the one it should follow is kept where it is printed (its
    number and parent are sure), with a warning naming its line."""
    for before, rule in zip(rules, rules[1:]):
        if rule.kind == before.kind == "rule" and sort_key(rule.number) < sort_key(before.number):
            diagnostics.append(Diagnostic(
                f"rule {format_number(rule.number, 'mtg')} is out of order (it follows "
                f"{format_number(before.number, 'mtg')})", source, rule.line, "warning",
                format_number(rule.number, "mtg")))


def _append(paragraphs: list[list[str]], examples: list[list[str]], last: str, line: str) -> None:
    """A hard-wrapped line: the rest of the paragraph (or example) above."""
    if last == "example" and examples[-1]:
        examples[-1][-1] += " " + line
    else:
        paragraphs[-1][-1] += " " + line


def _numbered(raw: str) -> tuple[str, str, str] | None:
    """The id as read, the text after it and the quirk repaired (or "") when the line
    starts a rule or subrule; None otherwise.

    Besides ``100.1. Text`` and ``100.1a Text``, the releases print ``606. 8b Text`` (an id
    split by a space), `` 611.2. Text`` (indented by a space) and ``901.4.All …`` (no space
    after the id): each is one of the rules, at the place it is printed."""
    m = _SUBRULE.match(raw) or _RULE.match(raw)
    if m:
        return m.group(1), m.group(2), ""
    m = _DEEPER.match(raw)
    if m:
        return m.group(1), m.group(2), "numbered one level deeper than the releases' subrules"
    m = _QUIRKY_ID.match(raw)
    if not m:
        return None
    indent, head, gap, tail, dot, space, text = m.group("indent", "head", "gap", "tail", "dot",
                                                        "space", "text")
    if (gap and not (tail[-1].isalpha() or dot)) or (not space and not (dot and text[0] in _CAPS)):
        return None
    raw_id = f"{head}.{tail}"
    quirks = []
    if gap:
        quirks.append(f"id printed split by a space ({head}. {tail})")
    if indent:
        quirks.append("id indented by a space")
    if not space:
        quirks.append(f"no space between id {raw_id} and its text")
    if not quirks:
        return None
    return raw_id, text, ", ".join(quirks)


def _hard_wrapped(lines: list[str], start: int, end: int) -> bool:
    """True for the releases that wrap paragraphs at a line width (2003): most rules go on
    on the line below, without a blank line between."""
    starts = wraps = 0
    for i in range(start, end - 1):
        if _RULE.match(lines[i]) or _SUBRULE.match(lines[i]):
            starts += 1
            below = lines[i + 1]
            if below.strip() and not below[:1].isspace() and not _EXAMPLE.match(below) \
                    and _numbered(below) is None:
                wraps += 1
    return starts > 0 and wraps * 3 > starts


# -- numbers the publisher misprinted ----------------------------------------------------------

def _repair_numbers(rules: list[RawRule], paragraphs: list[list[str]], examples: list[list[str]],
                    source: str, diagnostics: list[Diagnostic]) -> None:
    """Make every number unique and give every subrule its parent, repairing misprints.

    A number printed twice, or a subrule whose parent is not printed, is usually a typo:
    ``432.2b`` after ``423.2a`` (digits swapped), ``502.35b`` after ``502.36a``, ``702.30d``
    twice in a row, ``505.54.`` where ``505.5a`` follows. Where exactly one number that the
    document expects at that place (the next sibling, the first subrule, the next rule) is
    one or two keystrokes from the printed one and printed nowhere else, the rule is read
    under that number. Otherwise the rule is kept as printed: a repeated number's text
    becomes a paragraph of the rule above, and a missing parent is an empty rule. Each
    repair is a warning naming the line.
    """
    printed = {sort_key(r.number) for r in rules}
    seen: set[SortKey] = set()
    prev: Segments | None = None  # the number of the last rule or section
    i = 0
    while i < len(rules):
        r = rules[i]
        if r.kind != "rule":
            seen.add(sort_key(r.number))
            if r.kind == "section":
                prev = r.number
            i += 1
            continue
        key = sort_key(r.number)
        parent = r.number[:-1]
        problem = ("is printed twice" if key in seen
                   else f"has no parent {format_number(parent, 'mtg')}"
                   if sort_key(parent) not in seen else "")
        if problem and sort_key(parent) not in seen:
            fixed = _misprinted_parent(rules, i, parent, printed)
            if fixed is not None:
                j, was = fixed
                diagnostics.append(Diagnostic(
                    f"{rules[j].kind} printed as {was} is read as {format_number(parent, 'mtg')}: "
                    f"its rules follow and {format_number(parent, 'mtg')} is printed nowhere",
                    source, rules[j].line, "warning", format_number(parent, "mtg")))
                seen.discard(sort_key(rules[j].number))
                rules[j].number = parent
                seen.add(sort_key(parent))
                problem = "is printed twice" if key in seen else ""
        # A subrule whose missing parent is the very rule expected next lost that parent;
        # its own number is right.
        in_sequence = bool(problem) and prev is not None \
            and not problem.startswith("is printed twice") and parent in _expected_after(prev)
        if problem and prev is not None and not in_sequence:
            candidate = _nearest_expected(r.number, prev, seen, printed)
            if candidate is not None:
                diagnostics.append(Diagnostic(
                    f"rule {r.raw_id} {problem}; read as {format_number(candidate, 'mtg')}, "
                    f"the number expected after {format_number(prev, 'mtg')}",
                    source, r.line, "warning", format_number(candidate, "mtg")))
                r.number = candidate
                key = sort_key(candidate)
                problem = ""
        if problem.startswith("is printed twice") and i > 0:
            above = rules[i - 1]
            diagnostics.append(Diagnostic(
                f"rule {r.raw_id} is printed twice; this paragraph is kept as part of "
                f"{'rule ' + above.raw_id if above.kind == 'rule' else 'the rule above'}",
                source, r.line, "warning", format_number(r.number, "mtg")))
            if above.kind == "rule":
                paragraphs[i - 1].extend(paragraphs[i])
                examples[i - 1].extend(examples[i])
            del rules[i], paragraphs[i], examples[i]
            continue
        if problem:
            # Keep the subrule; its missing ancestors become empty rules right above it.
            missing = [r.number[:n] for n in range(1, len(r.number))
                       if sort_key(r.number[:n]) not in seen]
            for number in missing:
                kind = "section" if len(number) == 1 else "rule"
                diagnostics.append(Diagnostic(
                    f"rule {r.raw_id} is printed without its parent {format_number(number, 'mtg')}; "
                    f"{format_number(number, 'mtg')} is kept as an empty {kind}",
                    source, r.line, "warning", format_number(number, "mtg")))
                rules.insert(i, RawRule(number, kind, "", r.line, raw_id=format_number(number, "mtg")))
                paragraphs.insert(i, [])
                examples.insert(i, [])
                seen.add(sort_key(number))
                i += 1
        seen.add(key)
        prev = r.number
        i += 1


def _misprinted_parent(rules: list[RawRule], i: int, parent: Segments,
                       printed: set[SortKey]) -> tuple[int, str] | None:
    """``505.54.`` then ``505.5a`` (or the heading ``301. Keyword Actions`` then ``701.1``):
    the last rule or section above at the parent's level, when it is one or two keystrokes
    from the missing parent and that parent follows the entry before it."""
    for j in range(i - 1, -1, -1):
        above = rules[j]
        if len(parent) == 1:
            if above.kind == "chapter":
                return None
            if above.kind != "section":
                continue
        elif above.kind != "rule" or len(above.number) < len(parent):
            break
        elif len(above.number) > len(parent):
            continue
        if sort_key(parent) in printed or (len(parent) > 1 and above.number[0] != parent[0]):
            return None
        before = next((rules[k].number for k in range(j - 1, -1, -1) if rules[k].kind != "chapter"),
                      None)
        if before is None or parent not in _expected_after(before):
            return None
        if _distance(format_number(above.number, "mtg"), format_number(parent, "mtg")) > 2:
            return None
        if any(sort_key(r.number[:len(above.number)]) == sort_key(above.number)
               for r in rules[j + 1:i]):
            return None  # the printed number has subrules of its own
        return j, above.raw_id
    return None


def _nearest_expected(number: Segments, prev: Segments, seen: set[SortKey],
                      printed: set[SortKey]) -> Segments | None:
    """The one number expected after ``prev`` that is nearest the printed ``number``
    (at most two keystrokes away) and printed nowhere; None when there is none or a tie."""
    written = format_number(number, "mtg")
    scored = sorted((_distance(written, format_number(c, "mtg")), c)
                    for c in _expected_after(prev)
                    if len(c) == len(number) and sort_key(c) not in seen
                    and sort_key(c) not in printed and sort_key(c[:-1]) in seen | {()})
    if not scored or scored[0][0] > 2 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _expected_after(prev: Segments) -> list[Segments]:
    """Numbers that may come right after ``prev``: its first subrule, its next sibling, the
    next sibling of each ancestor (letters skip ``l`` and ``o``)."""
    out: list[Segments] = [prev + ("a" if prev[-1].isdigit() and len(prev) == 2 else "1",)]
    for depth in range(len(prev), 0, -1):
        out.append(prev[:depth - 1] + (_successor(prev[depth - 1]),))
    return out


def _successor(segment: str) -> str:
    if segment.isdigit():
        return str(int(segment) + 1).zfill(len(segment))
    nxt = chr(ord(segment[-1]) + 1)
    return nxt if nxt not in "lo" else chr(ord(nxt) + 1)


def _distance(a: str, b: str) -> int:
    """Edit distance with transpositions (optimal string alignment)."""
    d = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for x in range(len(a) + 1):
        d[x][0] = x
    for y in range(len(b) + 1):
        d[0][y] = y
    for x in range(1, len(a) + 1):
        for y in range(1, len(b) + 1):
            cost = a[x - 1] != b[y - 1]
            d[x][y] = min(d[x - 1][y] + 1, d[x][y - 1] + 1, d[x - 1][y - 1] + cost)
            if x > 1 and y > 1 and a[x - 1] == b[y - 2] and a[x - 2] == b[y - 1]:
                d[x][y] = min(d[x][y], d[x - 2][y - 2] + 1)
    return d[len(a)][len(b)]


def _read_glossary(lines: list[str], start: int, end: int, tidy: Callable[[str], str],
                   source: str, diagnostics: list[Diagnostic], wrapped: bool) -> list[RawTerm]:
    """Entries are blocks of lines between blank lines: the term, then its definition (in a
    hard-wrapped release its lines are one paragraph, apart from numbered senses); a term
    may share its line with the definition's first (``Abandon: To turn…``). A block that
    starts with a numbered sense (``2. An activated…``) goes on with the entry above, as no
    term is numbered; and where the blocks hold several entries each (a Glossary that does not
    set its entries apart, :func:`_entries_by_shape`), an entry starts at each term's line."""
    terms: list[RawTerm] = []
    blocks: list[list[tuple[int, str]]] = []
    block: list[tuple[int, str]] = []
    for i in range(start, end + 1):
        line = lines[i].strip() if i < end else ""
        if line:
            block.append((i + 1, line))
        elif block:
            blocks.append(block)
            block = []
    entries: list[list[tuple[int, str]]] = []
    for block in _entries_by_shape(blocks) if not wrapped else blocks:
        if entries and _SENSE.match(block[0][1]):
            entries[-1].extend(block)
        else:
            entries.append(block)
    for (lineno, name), *body in entries:
        m = _one_line_entry(name)
        if m:
            # "Abandon: To turn a faceup…": the term and its definition on one line
            name, body = m.group(1), [(lineno, m.group(2))] + body
        if not body and terms and _CROSS_REFERENCE.match(name):
            # "See rule 406, “Exile.”" alone: the end of the entry above, cut from it by a
            # page break (no term is named "See …")
            terms[-1].definition += "\n" + tidy(name)
            continue
        if not body:
            diagnostics.append(Diagnostic(f"glossary entry {name!r} has no definition",
                                          source, lineno, "warning"))
            continue
        if wrapped:
            # a term wrapped over two lines: the first ends with a comma ("Remove from the
            # Game, Removed," | "Removed-from-the-Game Zone (Obsolete)"), or the second starts
            # as no definition does ("Partner with" | "[name]”")
            while len(body) > 1 and not _ENDS_SENTENCE.search(body[0][1]) and (
                    name.endswith(",") or not _STARTS_DEFINITION.match(body[0][1])) \
                    and len(f"{name} {body[0][1]}".split()) <= _MAX_TERM_WORDS:
                name = f"{name} {body[0][1]}"
                body = body[1:]
            body = _unwrap(body)
        definition = "\n".join(tidy(b) for _, b in body)
        terms.append(RawTerm(tidy(name), definition, lineno, "glossary"))
    return terms


def _term_shaped(line: str) -> bool:
    """A line that can be a Glossary term: a few words, starting as a term does and ending no
    sentence (but for an exclamation, ``Start Your Engines!``), neither a numbered sense nor
    referring to a rule (``Ability Word``, ``Remove from the Game, Removed, Removed-from-the-Game
    Zone (Obsolete)``)."""
    return (len(line.split()) <= _MAX_TERM_WORDS and bool(_STARTS_DEFINITION.match(line))
            and not _ENDS_STATEMENT.search(line) and not _SENSE.match(line)
            and not _REFERS.search(line))


def _one_line_entry(line: str) -> re.Match[str] | None:
    """A line holding a term and its definition (``Abandon: To turn a faceup…``): the match of
    its term (group 1) and definition (group 2), or None."""
    m = _TERM_AND_DEFINITION.match(line)
    return m if m is not None and len(m.group(1).split()) <= _MAX_TERM_WORDS else None


def _entries_by_shape(blocks: list[list[tuple[int, str]]]) -> list[list[tuple[int, str]]]:
    """The Glossary's entries where its blocks are not its entries: a Glossary that does not set
    its entries apart (a DOCX without empty paragraphs: the blocks hold a term's line after a
    definition's, ``…“Abandon.”`` | ``Ability Word``, more often than there are blocks), or
    one that sets every paragraph apart (most blocks a single line). There an entry starts at
    each term-shaped line between a definition's line and a definition (or its first sense)
    below it. Elsewhere the blocks are the entries, as the releases print them."""
    if not blocks:
        return blocks
    lines = [line for block in blocks for line in block]
    firsts = set(itertools.accumulate((len(block) for block in blocks[:-1]), initial=0))
    shaped = [_term_shaped(text) for _, text in lines]
    starts = [i for i in range(len(lines) - 1)
              if shaped[i] and not shaped[i + 1] and (i == 0 or not shaped[i - 1])]
    inside = sum(1 for i in starts if i not in firsts)
    # A block of one line that is a whole entry ("Abandon: To turn…") is no paragraph set
    # apart: a Glossary printing every entry so is read by its blocks.
    single = sum(1 for block in blocks if len(block) == 1 and _one_line_entry(block[0][1]) is None)
    if inside < len(blocks) and 2 * single < len(blocks):
        return blocks
    cuts = sorted({0, *starts})
    return [lines[a:b] for a, b in zip(cuts, cuts[1:] + [len(lines)])]


def _unwrap(body: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Join hard-wrapped definition lines; a numbered sense (``2. …``) starts a new one."""
    joined: list[tuple[int, str]] = []
    for lineno, text in body:
        if joined and not _SENSE.match(text):
            joined[-1] = (joined[-1][0], joined[-1][1] + " " + text)
        else:
            joined.append((lineno, text))
    return joined


def _resolve_citations(terms: list[RawTerm], rules: list[RawRule], source: str,
                       diagnostics: list[Diagnostic]) -> None:
    """Give each Glossary entry the rules its definition cites ("See rule 702.2", "section 4",
    "rules 111.10j–r"), the way the graph resolves references in rule text: a range may
    name letters the document skips (l, o); a citation naming no rule is reported."""
    known = {sort_key(r.number): format_number(r.number, "mtg") for r in rules}
    for term in terms:
        for mention in find_mentions(term.definition):
            found = [known[k] for k in map(sort_key, mention.numbers) if k in known]
            if not found or (len(found) < len(mention.numbers) and len(mention.numbers) <= 2):
                diagnostics.append(Diagnostic(
                    f"unresolved reference {mention.text!r} in the Glossary entry {term.name!r}",
                    source, term.line, "warning"))
            term.rules.extend(n for n in found if n not in term.rules)
    # "Forestwalk: See Landwalk." An entry citing no rule takes the rules of the entry it
    # sends the reader to (following a chain of such entries).
    by_key = {term_key(t.name): t for t in terms}
    for term in terms:
        seen = {term_key(term.name)}
        target: RawTerm | None = term
        while target is not None and not term.rules:
            names = [_SEE_TERM_QUOTES.sub("", m.group(1))
                     for m in _SEE_TERM.finditer(target.definition)]
            nxt = next((by_key[term_key(n)] for n in names if term_key(n) in by_key), None)
            if nxt is None or term_key(nxt.name) in seen:
                break
            seen.add(term_key(nxt.name))
            term.rules.extend(nxt.rules)
            target = nxt


def _keywords(rules: list[RawRule], glossary: dict[str, RawTerm]) -> list[RawTerm]:
    """Keyword actions (701.x) and abilities (702.x): a rule whose whole text is the
    keyword's name, in a section titled "Keyword Actions" or "Keyword Abilities". The
    definition is the Glossary's when it has one, else the keyword's first subrule."""
    keywords: list[RawTerm] = []
    in_keywords = False
    for i, rule in enumerate(rules):
        if rule.kind != "rule":
            in_keywords = rule.kind == "section" and rule.title.lower() in _KEYWORD_SECTIONS
            continue
        name = rule.text
        if (not in_keywords or len(rule.number) != 2 or name.endswith(".") or "\n" in name
                or len(name.split()) > _MAX_KEYWORD_WORDS):
            continue
        entry = glossary.get(term_key(name))
        if entry is not None:
            definition = entry.definition
        else:
            following = rules[i + 1] if i + 1 < len(rules) else None
            has_sub = following is not None and following.number[:2] == rule.number
            definition = following.text if has_sub else name
        keywords.append(RawTerm(name, definition, rule.line, "keyword",
                                [format_number(rule.number, "mtg")]))
    return keywords
