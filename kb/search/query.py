"""Reading what a judge typed into a search: words, phrases, rule numbers, operators, filters.

The language, in the order a query is read:

* ``"quoted words"``: a phrase (straight or curly quotes);
* a rule number in any loose form (``337.1a``, ``rule 337.1.a.``, ``116.3d``, ``CR 704``):
  a jump to that rule;
* ``in:337`` (also ``section:``, ``within:``): only rules inside that section;
  ``ruleset:mtg`` and ``edition:1.4`` choose what to search;
* ``word*``: any word starting so (at least two letters before the ``*``);
* ``-word`` or ``NOT word``: leave out rules with that word; ``+word``: require it;
* ``a AND b``: both required; ``a OR b``: either;
* everything else: words, ranked (rules with more of them, and rarer ones, first).

A query is at most 500 characters and 32 words or phrases (a plain question of more is
searched on its first 32, the rest said in ``cut``; a query with operators is refused); control characters are refused
and invisible format characters (zero-width spaces) dropped. Anything that cannot be read
raises :class:`QuerySyntaxError` with a message that says what is wrong and where (a
character position), never a parser's traceback.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Literal

from kb import limits
from kb.numbers import NumberError, Segments, parse_number
from kb.search.schema import WORD, stem

MAX_QUERY_CHARS = limits.SEARCH_QUERY_CHARS.value
MAX_ATOMS = limits.SEARCH_ATOMS.value

AtomKind = Literal["word", "prefix", "phrase", "number"]
Mode = Literal["should", "must", "not"]

# Words a judge puts around a question that say nothing about the rule wanted.
QUESTION_WORDS = frozenset("""what whats how does do did who whom why i me my we our mean means
    meaning define definition explain happens happen""".split())
# Words that open a question ("when does …", "can I …"): left out at the start of a query.
LEADING_WORDS = frozenset("""when where which whose how why who what whats is are does do did can
    could should would will may must i you we""".split())
_FILTER_KEYS = {"in": "section", "section": "section", "within": "section",
                "ruleset": "ruleset", "edition": "edition"}
_OPERATORS = ("AND", "OR", "NOT")
# Other search engines' syntax this language does not read: left out, its words searched, and
# said (``unread``) so that "0 matching" is never the whole answer. Field names are the index's.
UNREAD_FIELDS = frozenset("title text path examples terms answers players number".split())
UNREAD_SYNTAX = {"boost": "^ (a weight)", "fuzzy": "~ (fuzzy or near)", "field": "{key}: (a field)",
                 "range": "[ TO ] (a range)"}
_QUOTES = {'"': '"', "\u201c": "\u201d", "\u201e": "\u201d", "\u00ab": "\u00bb"}
_CLOSING = set(_QUOTES.values())
_NUMBER_LIKE = re.compile(r"^\d{1,4}(?:\.(?:\d{1,4}|[a-z]{1,2}))*[a-z]?\.?$", re.IGNORECASE)
_RULE_WORDS = frozenset({"rule", "rules", "cr", "r", "§"})
_EDGE_PUNCT = "()[]{},;:!?.…\u2013\u2014"


# What a query that cannot be read, or a search that cannot be answered, is told, by name:
# ``{name}`` placeholders, ``{name!r}`` quoted as Python's repr quotes. The offline search
# shows the same messages (its data is generated from this table: web/search_port.py).
MESSAGES: dict[str, str] = {
    "too_many_atoms": "too many words and phrases ({count}; at most {max_atoms})",
    "only_filters": "nothing to search for: add words or a rule number to the filter",
    "only_common_words": ("nothing to search for: {dropped!r} has only words too common to search; "
                          "add a word from the rules"),
    "empty": "the query is empty: type words, a phrase in quotes or a rule number",
    # a query typed with no word or number in it ("🔥🔥🔥", "((((", spaces only): what was
    # typed and what of it search leaves out (:func:`ignored_kinds`)
    "nothing_searchable": ("nothing to search for in {typed!r} (left out: {ignored}): type words, "
                           "a phrase in quotes or a rule number"),
    "only_left_out": "NOT and '-' only leave rules out: add a word to search for",
    "not_text": "the query must be text",
    "too_long": "the query is too long ({length} characters; at most {max_chars})",
    "control_character": "control character U+{code} at position {position}: queries are plain text",
    "invalid_character": "invalid character at position {position}",
    "quote_never_closed": "unbalanced quote: the {quote} at position {position} is never closed",
    "quote_holds_no_words": "the quotes at position {position} hold no words",
    "quote_closes_nothing": "unbalanced quote: the {quote} at position {position} closes nothing",
    "filter_needs_value": "{key}: needs a value, e.g. {example}",
    "filter_needs_number": "{key}: needs a rule number, e.g. in:337 (got {value!r})",
    "two_rulesets": "the query names two rulesets",
    "two_editions": "the query names two editions",
    "star_inside_word": "'*' at position {position} is only allowed at the end of a word (prio*)",
    "star_needs_letters": ("'*' at position {position} needs at least two letters of one word before it "
                           "(prio*)"),
    "not_needs_word": "NOT at position {position} needs a word after it",
    "operator_needs_words": ("{operator} at position {position} needs a word on each side "
                             "(it has {before} before it)"),
    "or_needs_words": "OR at position {position} needs a word on each side (it has {after} after it)",
    "or_cannot_join": ("OR at position {position} cannot join a left-out or required word; "
                       "use parentheses-free forms like a OR b"),
    "and_needs_words": "AND at position {position} needs a word on each side (it has {after} after it)",
    # asked of a search (kb.search.searcher), not of the reader
    "limit_out_of_range": "limit must be between 1 and {max_limit}",
    "offset_out_of_range": "offset must be between 0 and {max_offset}",
    "section_needs_number": "a section filter needs a rule number, e.g. in:337 (got {value!r})",
    "no_section": "there is no rule {number} to search in ({ruleset} {edition})",
}
# What search leaves out of a query, as "nothing_searchable" names it (:func:`ignored_kinds`),
# by the Unicode category of each character: symbols (S), emoji being the symbols in
# EMOJI_RANGES, punctuation (P), and any other (marks, private use); spaces only when the
# query is nothing else.
IGNORED_KINDS = {"emoji": "emoji", "symbol": "symbols", "punctuation": "punctuation",
                 "other": "other characters", "space": "spaces"}
EMOJI_RANGES = ((0x2600, 0x27BF), (0x2B00, 0x2BFF), (0x1F000, 0x1FAFF))
# How much of such a query the message repeats (in characters, code points).
SHOWN_CHARS = 40
# What a filter without a value is shown as an example of.
FILTER_EXAMPLES = {"section": "in:337", "ruleset": "ruleset:mtg", "edition": "edition:1.4"}


class SearchError(ValueError):
    """A search that cannot be answered: an HTTP-like status, a message and details
    (the facade turns it into its one error type)."""

    status = 400

    def __init__(self, message: str, detail: dict[str, object] | None = None, status: int | None = None):
        super().__init__(message)
        self.message = message
        self.detail = detail or {}
        if status is not None:
            self.status = status


class QuerySyntaxError(SearchError):
    """A query that cannot be read: what is wrong, and the position it went wrong at."""

    def __init__(self, message: str, position: int | None = None):
        super().__init__(message, {"position": position})
        self.position = position


def say(name: str, **values: object) -> str:
    """The message :data:`MESSAGES` ``name``, filled with ``values``."""
    return MESSAGES[name].format(**values)


def syntax_error(name: str, at: int | None = None, **values: object) -> QuerySyntaxError:
    """The :class:`QuerySyntaxError` of :data:`MESSAGES` ``name``, filled with ``values``,
    at character position ``at``."""
    return QuerySyntaxError(say(name, **values), at)


@dataclass(frozen=True)
class Atom:
    """One thing to look for. ``words`` are as typed (lower case); ``start``/``end`` locate
    it in the query so a correction can be written back in place."""

    kind: AtomKind
    text: str
    words: tuple[str, ...] = ()
    segments: Segments = ()
    start: int = 0
    end: int = 0


@dataclass
class Clause:
    """Alternatives joined by OR, and whether they should, must or must not match."""

    atoms: list[Atom]
    mode: Mode = "should"
    # Set by kb.search.understand for a question's concepts: how much the clause counts,
    # where it came from (typed, term, vocabulary, shape), how it is explained, and the
    # weight of the alternatives after the first (the rules' words for a player's word).
    weight: float = 1.0
    origin: str = "typed"
    label: str = ""
    alternative_weight: float = 1.0


@dataclass
class ParsedQuery:
    """A query as read: clauses, then filters."""

    text: str
    clauses: list[Clause] = field(default_factory=list)
    sections: list[tuple[str, Segments]] = field(default_factory=list)
    ruleset: str | None = None
    edition: str | None = None
    dropped: list[str] = field(default_factory=list)  # question words left out
    names: list[str] = field(default_factory=list)  # card and other names left out (understand)
    cards: list[str] = field(default_factory=list)  # cards of the user's list it names (understand)
    shape: str | None = None  # the question's shape ("who acts"), when one was seen
    question: bool = False  # read as a judge's question (understand), not as the query language
    cut: list[str] = field(default_factory=list)  # words and phrases past MAX_ATOMS, not searched
    unread: list[str] = field(default_factory=list)  # other search languages' syntax left out

    @property
    def atoms(self) -> list[Atom]:
        return [a for c in self.clauses for a in c.atoms]

    @property
    def numbers(self) -> list[Atom]:
        return [a for c in self.clauses if c.mode != "not" for a in c.atoms if a.kind == "number"]

    @property
    def only_numbers(self) -> bool:
        """True for a query that is nothing but rule numbers (a jump)."""
        return bool(self.clauses) and all(a.kind == "number" for a in self.atoms)

    @property
    def plain(self) -> bool:
        """True when the query is words (or one phrase) with no operators: a term lookup
        candidate."""
        return bool(self.clauses) and all(
            c.mode == "should" and len(c.atoms) == 1 and c.atoms[0].kind in ("word", "phrase")
            for c in self.clauses)

    def term_candidate(self) -> str:
        """The words of a plain query, question words dropped, as a term to look up."""
        return " ".join(w for a in self.atoms for w in a.words)


@dataclass
class _Token:
    kind: Literal["op", "atom"]
    text: str
    start: int
    end: int
    atom: Atom | None = None
    modifier: str = ""


def parse_query(text: str) -> ParsedQuery:
    """Read a query. Raises :class:`QuerySyntaxError` for anything malformed."""
    text = _check_characters(text)
    query = ParsedQuery(text)
    tokens = _tokens(text, query)
    query.clauses = _clauses(tokens)
    _drop_question_words(query)
    if len(query.atoms) > MAX_ATOMS and query.plain:
        # A pasted question: its first MAX_ATOMS words and phrases are searched (question and
        # stop words already left out), the rest said in ``cut``; the limit bounds the work.
        query.cut = [c.atoms[0].text.strip(_EDGE_PUNCT) for c in query.clauses[MAX_ATOMS:]]
        query.clauses = query.clauses[:MAX_ATOMS]
    if len(query.atoms) > MAX_ATOMS:
        raise syntax_error("too_many_atoms", count=len(query.atoms), max_atoms=MAX_ATOMS)
    if not query.clauses:
        if query.sections or query.ruleset or query.edition:
            raise syntax_error("only_filters")
        if query.dropped:
            raise syntax_error("only_common_words", dropped=" ".join(query.dropped))
        if not text:
            raise syntax_error("empty")
        raise nothing_searchable(text)
    if all(c.mode == "not" for c in query.clauses):
        raise syntax_error("only_left_out", 0)
    return query


def ignored_kinds(text: str) -> str:
    """What a query with no word or number in it held, as search leaves it out, in the words
    of :data:`IGNORED_KINDS` ("emoji", "emoji, punctuation", "spaces")."""
    found: set[str] = set()
    for ch in text:
        category = unicodedata.category(ch)[0]
        if ch == " ":
            found.add("space")
        elif category == "S":
            found.add("emoji" if any(a <= ord(ch) <= b for a, b in EMOJI_RANGES) else "symbol")
        elif category == "P":
            found.add("punctuation")
        else:  # a mark (an emoji's variation selector), a private-use character
            found.add("other")
    kinds = [k for k in ("emoji", "symbol", "punctuation") if k in found]
    kinds = kinds or [k for k in ("other", "space") if k in found][:1]
    return ", ".join(IGNORED_KINDS[k] for k in kinds)


def nothing_searchable(text: str) -> QuerySyntaxError:
    """The error of a query typed with nothing searchable in it (emoji, punctuation or spaces
    only): what was typed (its first :data:`SHOWN_CHARS` characters) and what was left out."""
    shown = text.strip(" ") or text
    if len(shown) > SHOWN_CHARS:
        shown = shown[:SHOWN_CHARS] + "…"
    return syntax_error("nothing_searchable", typed=shown, ignored=ignored_kinds(text))


def _check_characters(text: str) -> str:
    if not isinstance(text, str):
        raise syntax_error("not_text")
    if len(text) > MAX_QUERY_CHARS:
        raise syntax_error("too_long", MAX_QUERY_CHARS, length=len(text), max_chars=MAX_QUERY_CHARS)
    for i, ch in enumerate(text):
        if ch in "\t\n\r":
            continue
        if unicodedata.category(ch) == "Cc":
            raise syntax_error("control_character", i, code=f"{ord(ch):04X}", position=i)
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise syntax_error("invalid_character", i, position=i)
    # Format characters (zero-width spaces, direction marks) come with pasted text: drop them.
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s", " ", text)


def _tokens(text: str, query: ParsedQuery) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        modifier = ""
        # "-word" leaves out, "+word" requires; "+1/+1" and "-1/-1" are counters, not operators.
        if ch in "+-" and i + 1 < n and (text[i + 1] in _QUOTES or text[i + 1].isalpha()):
            modifier, i = ch, i + 1
            ch = text[i]
        if ch in _QUOTES:
            # Pasted text mixes straight and curly quotes: either closes either.
            found = [p for p in (text.find(q, i + 1) for q in {_QUOTES[ch], '"', "\u201d"}) if p >= 0]
            close = min(found, default=-1)
            if close < 0:
                raise syntax_error("quote_never_closed", i, quote=ch, position=i)
            inner = text[i + 1:close]
            words = tuple(w.lower() for w in WORD.findall(inner))
            if not words:
                raise syntax_error("quote_holds_no_words", i, position=i)
            atom = (Atom("phrase", inner, words, start=i, end=close + 1) if len(words) > 1
                    else Atom("word", inner, words, start=i, end=close + 1))
            tokens.append(_Token("atom", text[i:close + 1], i, close + 1, atom, modifier))
            i = close + 1
            continue
        if ch in _CLOSING:
            raise syntax_error("quote_closes_nothing", i, quote=ch, position=i)
        j = i
        while j < n and not text[j].isspace() and text[j] not in _QUOTES and text[j] not in _CLOSING:
            j += 1
        raw = text[i:j]
        token = _read_token(raw, i, query, modifier)
        if token is not None:
            tokens.append(token)
        i = j
    return _join_rule_words(tokens)


def _read_token(raw: str, start: int, query: ParsedQuery, modifier: str) -> _Token | None:
    end = start + len(raw)
    if raw in _OPERATORS and not modifier:
        return _Token("op", raw, start, end)
    key, sep, value = raw.partition(":")
    if sep and key.lower() in _FILTER_KEYS and not modifier:
        _read_filter(_FILTER_KEYS[key.lower()], key, value, start, query)
        return None
    raw = _without_unread(raw, query)
    if "*" in raw:
        return _Token("atom", raw, start, end, _read_prefix(raw, start), modifier)
    bare = raw.strip(_EDGE_PUNCT + "'\"’")
    if _NUMBER_LIKE.match(bare) and ("." in bare.rstrip(".") or len(bare.rstrip(".")) >= 3):
        try:
            segments = parse_number(bare)
        except NumberError:
            segments = ()
        if segments:
            return _Token("atom", raw, start, end,
                          Atom("number", bare.rstrip("."), (), segments, start, end), modifier)
    words = tuple(w.lower() for w in WORD.findall(raw))
    if not words:
        return None  # punctuation on its own says nothing
    if len(words) > 1:  # "state-based", "player's": the words in this order
        return _Token("atom", raw, start, end, Atom("phrase", raw, words, start=start, end=end), modifier)
    return _Token("atom", raw, start, end, Atom("word", raw, words, start=start, end=end), modifier)


def _without_unread(raw: str, query: ParsedQuery) -> str:
    """A token with another search language's syntax taken off (``focus^3``, ``~focus``,
    ``focus~2``, ``title:focus``, ``[a`` and ``z]`` of ``[a TO z]``), each kind said once in
    ``query.unread``."""
    def said(kind: str, **values: str) -> None:
        note = UNREAD_SYNTAX[kind].format(**values)
        if note not in query.unread:
            query.unread.append(note)

    core = raw.rstrip("0123456789.")
    if core.endswith(("^", "~")):
        said("boost" if core.endswith("^") else "fuzzy")
        raw = core[:-1]
    if raw.startswith("~"):
        said("fuzzy")
        raw = raw[1:]
    key, sep, value = raw.partition(":")
    if sep and value and key.lower() in UNREAD_FIELDS:
        said("field", key=key.lower())
        raw = value
    # Only a range's square brackets ("[a TO z]"): braces are mana symbols ({T}, {2}{R}), and
    # "[follow-up to: …]" brackets an earlier question.
    if " TO " in query.text and (raw[:1] == "[" or raw[-1:] == "]"):
        said("range")
        raw = raw.strip("[]")
    return raw


def _read_filter(kind: str, key: str, value: str, start: int, query: ParsedQuery) -> None:
    value = value.strip()
    where = start + len(key) + 1
    if not value:
        raise syntax_error("filter_needs_value", where, key=key, example=FILTER_EXAMPLES[kind])
    if kind == "section":
        try:
            query.sections.append((value.rstrip("."), parse_number(value)))
        except NumberError:
            raise syntax_error("filter_needs_number", where, key=key, value=value[:40]) from None
    elif kind == "ruleset":
        if query.ruleset and query.ruleset != value:
            raise syntax_error("two_rulesets", start)
        query.ruleset = value
    else:
        if query.edition and query.edition != value:
            raise syntax_error("two_editions", start)
        query.edition = value


def _read_prefix(raw: str, start: int) -> Atom:
    body = raw.rstrip("*")
    star = raw.find("*")
    if "*" in body:
        raise syntax_error("star_inside_word", start + star, position=start + star)
    words = WORD.findall(body)
    if len(words) != 1 or len(words[0]) < 2 or words[0] != body.strip(_EDGE_PUNCT):
        raise syntax_error("star_needs_letters", start + star, position=start + star)
    return Atom("prefix", raw, (words[0].lower(),), start=start, end=start + len(raw))


def _join_rule_words(tokens: list[_Token]) -> list[_Token]:
    """"rule 337.1a", "CR 116.3d": the word before a number is part of the number."""
    out: list[_Token] = []
    for tok in tokens:
        prev = out[-1] if out else None
        if (tok.atom and tok.atom.kind == "number" and prev and prev.atom and not prev.modifier
                and prev.atom.kind == "word" and prev.atom.words[0] in _RULE_WORDS):
            out.pop()
            tok.modifier = prev.modifier or tok.modifier
        out.append(tok)
    return out


def _clauses(tokens: list[_Token]) -> list[Clause]:
    clauses: list[Clause] = []
    i, n = 0, len(tokens)
    must_next = False
    while i < n:
        tok = tokens[i]
        negate = False
        if tok.kind == "op" and tok.text == "NOT":
            if i + 1 >= n or tokens[i + 1].kind == "op":
                raise syntax_error("not_needs_word", tok.start, position=tok.start)
            negate, i = True, i + 1
            tok = tokens[i]
        elif tok.kind == "op":
            before = tokens[i - 1].text if i else ""
            raise syntax_error("operator_needs_words", tok.start, operator=tok.text, position=tok.start,
                               before=before or "nothing")
        assert tok.atom is not None
        mode: Mode = "not" if negate or tok.modifier == "-" else "must" if tok.modifier == "+" else "should"
        clause = Clause([tok.atom], mode)
        i += 1
        while i < n and tokens[i].kind == "op" and tokens[i].text == "OR":
            nxt = tokens[i + 1] if i + 1 < n else None
            if nxt is None or nxt.kind == "op":
                raise syntax_error("or_needs_words", tokens[i].start, position=tokens[i].start,
                                   after=nxt.text if nxt else "nothing")
            if nxt.modifier or mode == "not":
                raise syntax_error("or_cannot_join", tokens[i].start, position=tokens[i].start)
            clause.atoms.append(nxt.atom)  # type: ignore[arg-type]
            i += 2
        if must_next and mode == "should":
            clause.mode = "must"
        must_next = False
        if i < n and tokens[i].kind == "op" and tokens[i].text == "AND":
            nxt = tokens[i + 1] if i + 1 < n else None
            if nxt is None or (nxt.kind == "op" and nxt.text != "NOT"):
                raise syntax_error("and_needs_words", tokens[i].start, position=tokens[i].start,
                                   after=nxt.text if nxt else "nothing")
            if clause.mode == "should":
                clause.mode = "must"
            must_next = True
            i += 1
        clauses.append(clause)
    return clauses


def _drop_question_words(query: ParsedQuery) -> None:
    """Leave out question words ("what is a task") and words too common to be indexed,
    unless nothing would be left."""
    def searchable(atom: Atom) -> bool:
        return atom.kind != "word" or bool(stem(atom.words[0]))

    kept: list[Clause] = []
    for clause in query.clauses:
        atoms = [a for a in clause.atoms if searchable(a)]
        query.dropped.extend(a.text for a in clause.atoms if not searchable(a))
        if atoms:
            kept.append(Clause(atoms, clause.mode))
    def plain_word(c: Clause, words: frozenset[str]) -> bool:
        return (c.mode == "should" and len(c.atoms) == 1 and c.atoms[0].kind == "word"
                and c.atoms[0].words[0] in words)

    questions = [c for c in kept if plain_word(c, QUESTION_WORDS)]
    for c in kept:
        if not plain_word(c, LEADING_WORDS):
            break
        if c not in questions:
            questions.append(c)
    if len(questions) < len([c for c in kept if c.mode != "not"]):
        query.dropped.extend(c.atoms[0].text for c in questions)
        kept = [c for c in kept if c not in questions]
    query.clauses = kept
