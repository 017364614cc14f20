"""Card knowledge the user supplies: a card named in a question brings in what the card is.

No card data is shipped. ``rulekb cards import FILE`` reads a JSON or CSV file of cards
(name, type, keywords, text), checks every row and keeps the cards of one ruleset in the
data home, ``<home>/cards/<ruleset>.json`` (written atomically; a bad file changes
nothing and is refused with the row and the field). Search then recognises a card's name
in a question ("Does Abandoned Hall's ability trigger if …", misspelt or not: RapidFuzz;
"lantern warten" too, a word of it being no rule's)
and reads the card into concepts (:func:`card_concepts`): its type, its keywords and the
game terms its text uses, each a weighted clause shown in ``understood`` and ``matched``.

The list is read again when its file changes (a running server sees an import at once).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rapidfuzz import fuzz, process

from kb.files import write_atomically
from kb.model import Diagnostic, DocumentError
from kb.search.schema import WORD, stem

MAX_CARD_FILE_BYTES = 16 * 1024 * 1024   # a whole game's card list is a few MB
MAX_CARDS = 50_000
MAX_NAME_CHARS = 120
MAX_TEXT_CHARS = 4_000
MAX_NAME_WORDS = 6
FIELDS = ("name", "type", "keywords", "text")
REQUIRED_COLUMNS = ("name", "type")   # a CSV header without them is refused
# A name typed with a slip ("Abandonned Hall") still names the card at this similarity (0–100);
# names shorter than FUZZY_MIN_CHARS must be typed exactly (a short name is too often a word).
FUZZY_SCORE = 88.0
FUZZY_MIN_CHARS = 7
# A legendary card's type, and the title after its name ("Kor'vash *the Unbroken*").
# A type naming one unique character: Magic's legendary, Riftbound's champion.
LEGENDARY = re.compile(r"\b(?:legendary|champion)\b", re.IGNORECASE)
TITLE = re.compile(r"\s+the\s+", re.IGNORECASE)
_RULESET = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")


@dataclass(frozen=True)
class Card:
    """One card as the user's file gives it."""

    name: str
    type: str = ""
    keywords: tuple[str, ...] = ()
    text: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The card as stored and as listed."""
        return {"name": self.name, "type": self.type, "keywords": list(self.keywords), "text": self.text}


# The apostrophes a name is typed with: straight, curly (’, and ‘ that some keyboards give for
# it) and the modifier letter ʼ. Inside a name's word one is part of the word ("Vex's",
# "Kor'vash"), where the rules' WORD splits there ("player's" → player, s).
APOSTROPHES = "'\u2019\u2018\u02bc"
# A name's words: WORD's, with an apostrophe between letters kept inside the word.
NAME_WORD = re.compile(rf"\w+(?:[.{APOSTROPHES}]\w+)*")
_APOSTROPHE = re.compile(f"[{APOSTROPHES}]")
# A possessive at a word's end ("Summoner's", "Summoner’s"): how a question names a card
# before what it has ("Tideborn Summoner's ability").
_POSSESSIVE = re.compile(rf"[{APOSTROPHES}]s$", re.IGNORECASE)


def name_word(word: str) -> str:
    """One word of a name as names are compared: lower case, its apostrophes left out
    ("Vex's", "Vex’s" and "Vexs" → "vexs"; "Kor'vash" → "korvash")."""
    return _APOSTROPHE.sub("", word).lower()


def name_key(text: str) -> str:
    """How names are compared: lower case, words only, an apostrophe inside a word left out
    ("Vex, Apathetic" → "vex apathetic"; "Vex’s Lantern" → "vexs lantern")."""
    return " ".join(name_word(w) for w in NAME_WORD.findall(text))


def name_forms(text: str) -> tuple[str, str]:
    """The name key of a piece of a question (:func:`name_key`), and its key when it ends a
    name: without a possessive at its end ("Summoner's" → "summoners", "summoner"). A
    name's inner word keeps its "'s" ("Vex's Lantern"), its last may be the possessive."""
    words = NAME_WORD.findall(text)
    if not words:
        return "", ""
    key = " ".join(name_word(w) for w in words)
    last = _POSSESSIVE.sub("", words[-1])
    end = " ".join([name_word(w) for w in words[:-1]] + [name_word(last)]) if last else key
    return key, end


@dataclass
class CardList:
    """The cards of one ruleset, compiled for finding their names in a question."""

    ruleset: str
    cards: tuple[Card, ...]
    source: str = ""
    imported: str = ""
    by_key: dict[str, Card] = field(default_factory=dict)
    keys_by_first: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_key = {}
        for card in self.cards:
            self.by_key.setdefault(name_key(card.name), card)
        # A champion's name before its comma ("Vex" for "Vex, Apathetic"), and a legendary
        # card's or champion's before its title ("Kor'vash" for "Kor'vash the Unbroken": a card's text may
        # call it by a shortened name, Magic CR 201.5c), names the card when no other card
        # has that short name.
        short: dict[str, list[Card]] = {}
        for card in self.cards:
            if "," in card.name:
                short.setdefault(name_key(card.name.split(",", 1)[0]), []).append(card)
            elif LEGENDARY.search(card.type) and TITLE.search(card.name):
                short.setdefault(name_key(TITLE.split(card.name, 1)[0]), []).append(card)
        for key, found in short.items():
            if key and key not in self.by_key and len(found) == 1:
                self.by_key[key] = found[0]
        # Misspelt names are looked for among the names of the same first letter (a slip of
        # the first letter is rare, and it keeps a long card list fast).
        self.keys_by_first = {}
        for k in self.by_key:
            if len(k) >= FUZZY_MIN_CHARS:
                self.keys_by_first.setdefault(k[0], []).append(k)

    def find(self, words: list[str], capitalised: list[bool],
             unknown: list[bool] | None = None,
             endings: list[str] | None = None) -> list[tuple[int, int, Card, str]]:
        """The cards named in a question's words: (first word, end, card, the words as typed).

        ``words`` are name keys (:func:`name_forms`), one entry a piece of the question;
        ``endings`` the same when the piece ends a name (a possessive left out: "Summoner's"
        names "Tideborn Summoner" as the last piece, "Vex's" begins "Vex's Lantern").
        Names typed exactly first, longest first, in any case; then misspelt ones, the
        closest first: one only when long enough and written as a title ("Lantern Wardne",
        "Guardian of the Gaet"), or, in lower case, when it is two words or more and one of
        them is a word no rule uses (``unknown``, one flag a word: "lantern warten",
        "lanturn warden"), so that a run of the rules' own words is never taken for a card,
        nor an exact name with the word after it ("Thornveil Prowler got") for a slip."""
        unknown = unknown if unknown is not None else [False] * len(words)
        endings = endings if endings is not None else words
        found: list[tuple[int, int, Card, str]] = []
        taken = [False] * len(words)

        def take(i: int, n: int, card: Card) -> None:
            found.append((i, i + n, card, " ".join(words[i:i + n])))
            for k in range(i, i + n):
                taken[k] = True
        spans = [(i, n) for n in range(min(MAX_NAME_WORDS, len(words)), 0, -1) for i in range(len(words) - n + 1)]
        def exact(i: int, n: int) -> Card | None:
            inner = words[i:i + n - 1]
            return (self.by_key.get(" ".join(inner + [words[i + n - 1]]).lower())
                    or self.by_key.get(" ".join(inner + [endings[i + n - 1]]).lower()))

        for i, n in spans:
            card = exact(i, n)
            if card is None or any(taken[i:i + n]) or (
                    n == 1 and not capitalised[i] and card.name[:1].isupper() and words[i] != card.name):
                continue
            take(i, n, card)
        slips: list[tuple[float, int, int, Card]] = []
        for i, n in spans:
            typed = " ".join(words[i:i + n - 1] + [endings[i + n - 1]]).lower()
            if any(taken[i:i + n]) or len(typed) < FUZZY_MIN_CHARS or not (
                    _title_case(words[i:i + n], capitalised[i:i + n]) or (n > 1 and any(unknown[i:i + n]))):
                continue
            best = process.extractOne(typed, self.keys_by_first.get(typed[0], ()),
                                      scorer=fuzz.ratio, score_cutoff=FUZZY_SCORE)
            if best is not None:
                slips.append((best[1], n, i, self.by_key[best[0]]))
        for _score, n, i, card in sorted(slips, key=lambda s: (-s[0], -s[1], s[2])):
            if not any(taken[i:i + n]):
                take(i, n, card)
        return sorted(found, key=lambda f: f[0])


# Small words a card's title may have in lower case ("Guardian of the Gate").
TITLE_SMALL = frozenset("a an and at by for from in into of on or the to with".split())


def _title_case(words: list[str], capitalised: list[bool]) -> bool:
    """True for words written as a title: the first and last capitalised, the others too or
    small words."""
    return capitalised[0] and capitalised[-1] and all(
        c or w in TITLE_SMALL for w, c in zip(words[1:-1], capitalised[1:-1]))


# -- reading a user's file ----------------------------------------------------------
def read_card_file(path: Path, notes: list[str] | None = None) -> list[Card]:
    """The cards of a JSON or CSV file (``.json``, ``.csv``; any other name by its content:
    JSON starts with ``[`` or ``{``). Every card needs a name and a type; a CSV header must
    name the columns ``name`` and ``type`` (``keywords`` and ``text`` may be left out, which
    ``notes``, when given, is told).

    Raises DocumentError naming the file, the row (a CSV line, a JSON entry) and the field
    of every problem found (a quote left open names the line it opens on); OSError when the
    file cannot be read."""
    size = path.stat().st_size
    if size > MAX_CARD_FILE_BYTES:
        raise DocumentError([Diagnostic(f"the card file is {size:,} bytes; at most "
                                        f"{MAX_CARD_FILE_BYTES:,} are read", str(path))])
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError([Diagnostic(f"not UTF-8 text (byte {exc.start}): save the card file "
                                        "as UTF-8", str(path))]) from None
    if not text.strip():
        raise DocumentError([Diagnostic("the card file is empty: give a JSON list of cards or a "
                                        "CSV file with the columns name, type, keywords, text",
                                        str(path))])
    suffix = path.suffix.lower()
    if suffix == ".json" or (suffix != ".csv" and text.lstrip()[:1] in "[{"):
        rows = _json_rows(text, str(path))
    else:
        rows = _csv_rows(text, str(path), notes)
    return cards_from_rows(rows, str(path), type_required=True)


def _json_rows(text: str, file: str) -> list[tuple[str, int, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError([Diagnostic(f"not JSON: {exc.msg} (column {exc.colno})", file,
                                        exc.lineno)]) from None
    if isinstance(data, dict):
        data = data.get("cards")
    if not isinstance(data, list):
        raise DocumentError([Diagnostic('expected a list of cards, or {"cards": [...]}', file)])
    # A JSON entry's place is "card N" (its line is not kept by the parser).
    return [(f"card {i + 1}", 0, entry) for i, entry in enumerate(data)]


def _csv_rows(text: str, file: str, notes: list[str] | None = None) -> list[tuple[str, int, Any]]:
    # strict: a quote left open is an error at the end of the file, not a field swallowing
    # every line after it (which would replace a card list with one garbage card).
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader)
    except StopIteration as exc:
        raise DocumentError([Diagnostic(f"not CSV: {exc}", file, 1)]) from None
    except csv.Error as exc:
        raise DocumentError([Diagnostic(f"not CSV: {_csv_problem(exc)} in the header", file, 1)]) from None
    columns = [h.strip().lower() for h in header]
    missing = [f for f in REQUIRED_COLUMNS if f not in columns]
    unknown = [h for h in columns if h and h not in FIELDS]
    if missing or unknown:
        # name first, then the columns it does not know (a misspelt "type"?), then type.
        parts = (["no column name"] if "name" in missing else []) + (
            [f"unknown column {', '.join(unknown)}"] if unknown else []) + (
            ["no column type"] if "type" in missing else [])
        what = "; ".join(parts)
        raise DocumentError([Diagnostic(f"{what}: the header must name the columns "
                                        f"{', '.join(FIELDS)} ({' and '.join(REQUIRED_COLUMNS)} "
                                        "are required)", file, 1)])
    absent = [f for f in FIELDS if f not in columns]
    if absent and notes is not None:
        notes.append(f"the file has no {' or '.join(absent)} column"
                     f"{'s' if len(absent) > 1 else ''}: its cards have none")
    rows: list[tuple[str, int, Any]] = []
    start = reader.line_num + 1
    try:
        for values in reader:
            line, last = start, reader.line_num
            start = last + 1
            if not any(v.strip() for v in values):
                continue
            if len(values) > len(columns):
                rows.append((f"line {line}", line,
                             RowProblem(f"{len(values)} values for {len(columns)} columns")))
                continue
            row = dict(zip(columns, values))
            if last > line and any("\n" in row.get(f, "") for f in ("name", "type", "keywords")):
                field_name = next(f for f in ("name", "type", "keywords") if "\n" in row.get(f, ""))
                rows.append((f"line {line}", line, RowProblem(
                    f"field {field_name}: runs over lines {line}-{last} (a quote left open?)")))
                continue
            rows.append((f"line {line}", line, row))
    except csv.Error as exc:
        raise DocumentError([Diagnostic(f"not CSV: {_csv_problem(exc)}", file, start)]) from None
    return rows


def _csv_problem(exc: csv.Error) -> str:
    """The csv module's complaint in the file's words."""
    message = str(exc)
    if "unexpected end of data" in message:
        return "unterminated quote: the quoted field opened on this line is never closed"
    return message


class RowProblem(str):
    """A row the file's reader already found wrong (a CSV row with too many values)."""


def cards_from_rows(rows: Iterable[tuple[str, int, Any]], file: str, *,
                    type_required: bool = False) -> list[Card]:
    """Check every row (a mapping of the four fields) and make the cards; every problem is
    reported at once, each with its row and field. ``type_required`` refuses a card without
    a type (a user's import; bench's question-derived lists may leave it out)."""
    problems: list[Diagnostic] = []
    cards: list[Card] = []
    seen: dict[str, str] = {}

    def bad(where: str, line: int, message: str) -> None:
        problems.append(Diagnostic(message if line else f"{where}: {message}", file, line))

    for where, line, row in rows:
        if len(cards) >= MAX_CARDS:
            bad(where, line, f"more than {MAX_CARDS:,} cards: split the file by ruleset")
            break
        if isinstance(row, RowProblem):
            bad(where, line, str(row))
            continue
        if not isinstance(row, dict):
            bad(where, line, "a card must be an object with name, type, keywords and text")
            continue
        unknown = sorted(str(k) for k in row if k not in FIELDS)
        if unknown:
            bad(where, line, f"unknown field {', '.join(unknown)} (the fields are {', '.join(FIELDS)})")
            continue
        values: dict[str, str] = {}
        ok = True
        for name in ("name", "type", "text"):
            value = row.get(name, "")
            if value is None:
                value = ""
            if not isinstance(value, str):
                bad(where, line, f"field {name}: expected text, got {type(value).__name__}")
                ok = False
            values[name] = str(value).strip()
        keywords = row.get("keywords", [])
        if isinstance(keywords, str):
            keywords = [k for k in re.split(r"[;,|]", keywords)]
        if not isinstance(keywords, list) or not all(isinstance(k, str) for k in keywords):
            bad(where, line, "field keywords: expected a list of words, or words separated by ';'")
            ok = False
            keywords = []
        if not ok:
            continue
        name = values["name"]
        if not name or not WORD.search(name):
            bad(where, line, "field name: a card needs a name")
            continue
        if len(name) > MAX_NAME_CHARS or len(NAME_WORD.findall(name)) > MAX_NAME_WORDS:
            bad(where, line, f"field name: longer than {MAX_NAME_CHARS} characters or "
                             f"{MAX_NAME_WORDS} words")
            continue
        if len(values["text"]) > MAX_TEXT_CHARS:
            bad(where, line, f"field text: longer than {MAX_TEXT_CHARS:,} characters")
            continue
        key = name_key(name)
        if key in seen:
            bad(where, line, f"field name: {name!r} is already the card of {seen[key]}")
            continue
        seen[key] = where
        if type_required and not values["type"]:
            bad(where, line, "field type: a card needs a type (Unit, Spell, Creature, …)")
            continue
        cards.append(Card(name, values["type"], tuple(k.strip() for k in keywords if k.strip()),
                          values["text"]))
    if problems:
        raise DocumentError(problems)
    if not cards:
        raise DocumentError([Diagnostic("no cards in the file", file)])
    return cards


# -- the data home ---------------------------------------------------------------------
def cards_path(home: Path, ruleset: str) -> Path:
    """Where a ruleset's imported cards are kept."""
    if not _RULESET.match(ruleset):
        raise ValueError(f"not a ruleset name: {ruleset!r}")
    return home / "cards" / f"{ruleset}.json"


def save_cards(home: Path, ruleset: str, cards: list[Card], source: str) -> Path:
    """Keep a ruleset's cards (replacing the ones imported before), written atomically."""
    target = cards_path(home, ruleset)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = {"ruleset": ruleset, "source": source,
            "imported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "cards": [c.as_dict() for c in cards]}
    write_atomically(target, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
    return target


_loaded: dict[Path, tuple[tuple[int, int], CardList]] = {}
_lock = threading.Lock()


def load_cards(home: Path | None, ruleset: str) -> CardList | None:
    """A ruleset's imported cards, or None when there are none; read again when the file
    changes. A kept file that no longer reads (edited by hand) counts as none."""
    if home is None or not _RULESET.match(ruleset):
        return None
    path = cards_path(home, ruleset)
    try:
        st = path.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    found = _loaded.get(path)
    if found is not None and found[0] == stamp:
        return found[1]
    with _lock:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            cards = cards_from_rows([(f"card {i + 1}", 0, c) for i, c in enumerate(data["cards"])],
                                    str(path))
        except (OSError, ValueError, KeyError, TypeError, DocumentError):
            return None
        listed = CardList(ruleset, tuple(cards), str(data.get("source", "")), str(data.get("imported", "")))
        _loaded[path] = (stamp, listed)
        return listed


def cards_stamp(home: Path | None) -> str:
    """What the imported card lists of a data home are now (names, times and sizes of their
    files; "" when there are none): an answer that may use them is as fresh as this and its
    build (the API's ETags and kept answers)."""
    if home is None:
        return ""
    try:
        entries = sorted((e.name, e.stat().st_mtime_ns, e.stat().st_size)
                         for e in os.scandir(home / "cards") if e.name.endswith(".json"))
    except OSError:
        return ""
    return ";".join(f"{n}:{m}:{z}" for n, m, z in entries)


# -- a card as concepts ------------------------------------------------------------------
@dataclass(frozen=True)
class CardConcept:
    """One thing a card brings into a question: its words and how it is explained."""

    words: tuple[str, ...]
    text: str
    kind: str  # "type", "keyword", "term" (a defined term its text uses) or "word" (another)


def card_concepts(card: Card, terms: dict[str, str], rules_with: Callable[[str], int],
                  ignore: frozenset[str] = frozenset()) -> list[CardConcept]:
    """What a card says in the rules' words: its type, its keywords, the defined terms its
    text uses (by their words or their stem: "stuns" is the term "stunning"), then the text's
    other words (``ignore``: question words left out), each once. A word no rule uses is
    left out, so a card never brings in words the rules cannot match."""
    out: list[CardConcept] = []
    seen: set[str] = set()

    def add(words: tuple[str, ...], text: str, kind: str) -> None:
        stems = " ".join(s for s in (stem(w) for w in words) if s)
        if stems and stems not in seen and all(rules_with(stem(w)) for w in words if stem(w)):
            seen.add(stems)
            out.append(CardConcept(words, text, kind))

    for t in re.split(r"[-—–/,;]| - ", card.type):
        words = tuple(w.lower() for w in WORD.findall(t))
        if words:
            add(words, t.strip(), "type")
    for k in card.keywords:
        words, name = keyword_name(k, terms)
        add(words, name, "keyword")
    by_stem = _term_stems(tuple(terms))
    words = [w.lower() for w in WORD.findall(card.text)]
    plain: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + 4), i, -1):
            key = terms.get(" ".join(words[i:j]))
            if key is None and j - i == 1:
                key = terms.get(words[i][:-1]) if words[i].endswith("s") else None
                key = key or by_stem.get(stem(words[i]))
            if key is not None:
                add(tuple(WORD.findall(key)) if j - i == 1 else tuple(words[i:j]),
                    key if j - i == 1 else " ".join(words[i:j]), "term")
                i = j
                break
        else:
            if words[i].isalpha() and len(words[i]) > 2 and words[i] not in ignore:
                plain.append(words[i])
            i += 1
    for w in plain:
        add((w,), w, "word")
    return out


# What follows a keyword's name on a card is its value: a number or X ("Assault 2", "Toxic 1",
# "Annihilator X"), a cost ("Ward {2}", "Equip {1}{W}") or a cost after a dash or colon
# ("Ward—Pay 3 life"). The rules name the keyword without it (807 "Assault", 702.21 "Ward").
KEYWORD_VALUE = re.compile(r"\s*(?:[\u2014\u2013:]|\s-\s|\{|(?<!\w)(?:\d+|X)(?!\w)).*$")


def keyword_name(keyword: str, terms: dict[str, str]) -> tuple[tuple[str, ...], str]:
    """A card's keyword as the rules name it, without its value: the words (lower case) and
    the name as written. The longest run of its first words that is a term of the edition
    ("assault" of "Assault 2", "ward" of "Ward {2}"); else the keyword with a trailing value
    (:data:`KEYWORD_VALUE`) cut off; a keyword with no value is itself ("Deathknell")."""
    typed = keyword.strip()
    found = list(WORD.finditer(typed))
    words = tuple(m.group().lower() for m in found)
    for j in range(len(words), 0, -1):
        if " ".join(words[:j]) in terms:
            return words[:j], typed[:found[j - 1].end()]
    name = KEYWORD_VALUE.sub("", typed).strip() or typed
    return tuple(w.lower() for w in WORD.findall(name)), name


@lru_cache(maxsize=16)
def _term_stems(keys: tuple[str, ...]) -> dict[str, str]:
    """The stem of every one-word term → the term ("stun" → "stunning")."""
    out: dict[str, str] = {}
    for key in keys:
        words = WORD.findall(key)
        if len(words) == 1 and stem(words[0]):
            out.setdefault(stem(words[0]), key)
    return out


def describe(card: Card, concepts: list[CardConcept], read_from: str = "") -> str:
    """How a recognised card is named in an explanation: "Abandoned Hall (card: unit;
    keywords: Deathknell; text: exhaust, chain)"; with ``read_from``, the name as the question
    misspelt it: "Lantern Warden (read from 'lantern warten'; card: Unit; …)"."""
    parts = [f"read from {read_from!r}"] if read_from else []
    if card.type:
        parts.append(f"card: {card.type}")
    else:
        parts.append("card")
    if card.keywords:
        parts.append("keywords: " + ", ".join(card.keywords))
    text_terms = [c.text for c in concepts if c.kind == "term"]
    if text_terms:
        parts.append("text: " + ", ".join(text_terms))
    return f"{card.name} ({'; '.join(parts)})"
