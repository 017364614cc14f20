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
  blank lines.

The rules body starts at the chapter heading above the first numbered rule, so the
Contents (which also lists ``Glossary`` and ``Credits``) is skipped without counting
headings. Releases up to 2013 mark italics with underscores (``_Magic_``); the markers are
dropped there and kept as literal text in later releases.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

from kb.model import Diagnostic, RawRule, RawTerm, ReadResult, term_key
from kb.numbers import format_number, parse_number, sort_key
from kb.read.text import clean
from kb.references import find_mentions

FORMAT = "mtg-text"

_LINES = re.compile(r"\r\n|\r|\n")
_CHAPTER = re.compile(r"^(\d{1,2})\.\s+(\S.*)$")
_SECTION = re.compile(r"^(\d{3})\.\s+(\S.*)$")
# ``100.1.`` / ``606.5`` (missing dot) and ``100.1a`` / ``119.1d.`` (stray dot).
_RULE = re.compile(r"^(\d{3}\.\d+)\.?\s+(\S.*)$")
_SUBRULE = re.compile(r"^(\d{3}\.\d+[a-z])\.?\s+(\S.*)$")
_EXAMPLE = re.compile(r"^Examples?:\s*")
_LOOKS_NUMBERED = re.compile(r"^\d+\.\d")
_EFFECTIVE = re.compile(r"effective as of ([A-Z][a-z]+ \d{1,2}, \d{4})")
# Italic markers of the older releases: runs of one or two underscores. Runs of three or
# more are printed blanks ("Wolf in ________ Clothing") and stay.
_ITALICS = re.compile(r"(?<!_)_{1,2}(?!_)")
_LAST_ITALIC_YEAR = 2013
# "See Typecycling.", "See “Enters the Battlefield.”", "See Intervening “If” Clause."
_SEE_TERM = re.compile(r"\bSee (?:also )?([“\"]?[A-Z][^.]{0,60}?)\.?[”\"]?(?:\.|$)", re.M)
_SEE_TERM_QUOTES = re.compile(r"^[“\"]|[”\"]$")
_KEYWORD_SECTIONS = ("keyword actions", "keyword abilities")
_MAX_KEYWORD_WORDS = 6


def sniff(text: str) -> int:
    """Subrule ids with the letter attached (``116.3d``) mark this format; the title helps."""
    head = text[:300_000].replace("\r", "\n")
    subrules = len(re.findall(r"(?m)^\d{3}\.\d+[a-z]\.? ", head))
    if subrules < 3:
        return 0
    titled = "Comprehensive Rules" in head[:2000]
    return min(100, 50 + subrules // 10 + (30 if titled else 0))


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    lines = _LINES.split(text.removeprefix("\ufeff"))
    diagnostics: list[Diagnostic] = []
    title = next((ln.strip() for ln in lines[:20] if ln.strip()), "")
    date = _effective_date("\n".join(lines[:40]))
    italics = bool(date) and int(date[:4]) <= _LAST_ITALIC_YEAR

    def tidy(raw: str) -> str:
        return clean(_ITALICS.sub("", raw) if italics else raw)

    start = _body_start(lines)
    if start is None:
        diagnostics.append(Diagnostic(
            "no numbered rules (such as '100.1. …') found: not a Comprehensive Rules text",
            source, 1))
        return ReadResult([], [], tidy(title), date, "mtg", diagnostics)
    glossary = _heading_after(lines, "Glossary", start)
    credits = _heading_after(lines, "Credits", glossary + 1) if glossary is not None else None
    if glossary is None:
        diagnostics.append(Diagnostic(
            "the document ends before its Glossary: the file looks truncated", source, len(lines)))
    elif credits is None:
        diagnostics.append(Diagnostic(
            "the Glossary runs to the end of the file without the Credits heading: "
            "the file looks truncated", source, len(lines)))
    end = glossary if glossary is not None else len(lines)
    rules = _read_body(lines, start, end, tidy, source, diagnostics)
    terms: list[RawTerm] = []
    if glossary is not None:
        stop = credits if credits is not None else len(lines)
        terms = _read_glossary(lines, glossary + 1, stop, tidy, source, diagnostics)
        _resolve_citations(terms, rules, source, diagnostics)
    keywords = _keywords(rules, {term_key(t.name): t for t in terms})
    title = tidy(title) or "Magic: The Gathering Comprehensive Rules"
    return ReadResult(rules, keywords + terms, title, date, "mtg", diagnostics)


def _effective_date(head: str) -> str:
    m = _EFFECTIVE.search(head)
    if not m:
        return ""
    try:
        return datetime.strptime(m.group(1), "%B %d, %Y").date().isoformat()
    except ValueError:
        return ""


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


def _heading_after(lines: list[str], word: str, start: int) -> int | None:
    return next((i for i in range(start, len(lines)) if lines[i].strip() == word), None)


def _read_body(lines: list[str], start: int, end: int, tidy: Callable[[str], str],
               source: str, diagnostics: list[Diagnostic]) -> list[RawRule]:
    rules: list[RawRule] = []
    paragraphs: list[list[str]] = []  # text paragraphs of each entry, parallel to rules
    examples: list[list[str]] = []
    chapter = ""
    last = ""  # "text" or "example": what an unindented unnumbered line continues
    for i in range(start, end):
        raw = lines[i].rstrip()
        line = raw.strip()
        if not line:
            continue
        lineno = i + 1
        # Numbers and headings start the line; an indented line is a continuation.
        m = _SUBRULE.match(raw) or _RULE.match(raw)
        if m:
            rules.append(RawRule(parse_number(m.group(1)), "rule", "", lineno, raw_id=m.group(1)))
            paragraphs.append([m.group(2)])
            examples.append([])
            last = "text"
            continue
        m = _SECTION.match(raw)
        if m:
            if chapter and not m.group(1).startswith(chapter):
                diagnostics.append(Diagnostic(
                    f"section {m.group(1)} '{m.group(2)}' is not in chapter {chapter}",
                    source, lineno, rule=m.group(1)))
            rules.append(RawRule(parse_number(m.group(1)), "section", "", lineno,
                                 title=tidy(m.group(2)), raw_id=m.group(1) + "."))
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
        if _LOOKS_NUMBERED.match(line):
            diagnostics.append(Diagnostic(f"malformed rule number in {line[:30]!r}",
                                          source, lineno, "warning"))
    for rule, paras, exs in zip(rules, paragraphs, examples):
        if rule.kind == "rule":
            rule.text = "\n".join(tidy(p) for p in paras)
            rule.examples = [tidy(e) for e in exs]
    return rules


def _read_glossary(lines: list[str], start: int, end: int, tidy: Callable[[str], str],
                   source: str, diagnostics: list[Diagnostic]) -> list[RawTerm]:
    """Entries are blocks of lines between blank lines: the term, then its definition."""
    terms: list[RawTerm] = []
    block: list[tuple[int, str]] = []
    for i in range(start, end + 1):
        line = lines[i].strip() if i < end else ""
        if line:
            block.append((i + 1, line))
            continue
        if not block:
            continue
        (lineno, name), body = block[0], block[1:]
        block = []
        if not body:
            diagnostics.append(Diagnostic(f"glossary entry {name!r} has no definition",
                                          source, lineno, "warning"))
            continue
        definition = "\n".join(tidy(b) for _, b in body)
        terms.append(RawTerm(tidy(name), definition, lineno, "glossary"))
    return terms


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
