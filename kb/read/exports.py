"""Rules another tool exported as data: a JSON document or a CSV (or TSV) table of rules.

Such an export holds the rules as records, not as the release prints them; before a reader
sees it, it is written out as the paragraphs the release prints, and read as any text:

* **JSON**: the records are the objects of the document's list of rules, wherever it stands
  (the document itself, or the first list of objects under a key, ``{"rules": [...]}``), and
  of the lists of objects nested in them (``"children"``, ``"subrules"``: a tree of rules), in
  the document's order. A record's number is its field whose values look like rule numbers
  (``number``, ``id``, ``rule``…: ``100.1a``, ``103.1.b``, ``100``), its text the field that
  holds the most words (``text``, ``body``…), a heading's title a ``title`` or ``name``, its
  examples an ``examples`` list (each an ``Example:`` paragraph). An object keyed by rule
  numbers (a community API's ``{"100.1": "These Magic rules…", …}``, a value a text or a
  record) holds one record per key, the key its number. A record that holds a term
  and its definition (``term``, ``definition``) is a glossary entry, printed under a
  ``Glossary`` heading after the rules. The document's own strings before its rules (a
  title, an effective date) are its first paragraphs.
* **CSV / TSV** with a header row: a column named as a rule number is (``number``, ``rule``,
  ``id``, ``no``…) and one named as its text (``text``, ``rule text``, ``body``…); each row is
  a paragraph, its number (when it has one) then its text; a row without a number is a
  paragraph of its own (a heading, an example, the Glossary). Without a header row (copied
  from a spreadsheet without its head), a table whose first rows all have a second column and
  a rule number or nothing in their first, numbered in at least half of them, is read the
  same way, the number from the first column and the text from the second.

A number is printed with a last dot, as both games print their numbers (``1.``, ``100.``,
``100.1.``, ``103.1.b.``), but for one that ends in a letter attached to a digit (Magic's
``100.1a``); an export's ``478.1.b`` is then no wrapped reference after a text ending in
"or" (the PDF text's reader takes a number without its dot for one). Each paragraph
keeps the line of the export its record starts at, so notes and rules keep their places. A
text that starts as JSON but is not valid JSON, or a JSON without a list of rules, is refused
naming the line.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field

from kb.model import Diagnostic, DocumentError

_ATTACHED_LETTER = re.compile(r"\d[a-z]$")
_RULE_NUMBER = re.compile(r"^\d{1,3}(?:\.[0-9a-z]+)*\.?$")
_NUMBER_NAMES = ("number", "rule number", "rule_number", "rulenumber", "rule", "id", "no", "num", "ref")
_TEXT_NAMES = ("text", "rule text", "rule_text", "ruletext", "body", "content", "description", "wording")
_TITLE_NAMES = ("title", "name", "heading")
_TERM_NAMES = ("term", "word", "keyword")
_DEFINITION_NAMES = ("definition", "meaning", "description", "text")
_EXAMPLE_NAMES = ("examples", "example")
_MIN_RECORDS = 3
# A JSON document's start: an object's first key, or a list of objects, lists or strings (a
# Markdown text may start with "[TOC]" or a link, which is no JSON).
_JSON_START = re.compile(r'^[\ufeff\s]*(?:\{\s*["}]|\[\s*[\[{"\]])')


@dataclass
class Exported:
    """An export written out as paragraphs: the text, the export's line of each of its lines
    (1-based) and the note that says what was done."""

    text: str
    origin: list[int]
    notes: list[Diagnostic] = field(default_factory=list)
    # The reader the records' numbers call for (:func:`reader_for`): an export prints no
    # layout's marks, so a short one, or one without headings, may be no layout a reader sniffs.
    reader: str | None = None


_MAGIC_NUMBER = re.compile(r"^\d{3}\.\d+[a-z]\.?$")  # a letter attached to a digit: 100.1a
_RIFTBOUND_NUMBER = re.compile(r"^\d{3}(?:\.[0-9a-z]+)*\.[a-z]+(?:\.[0-9a-z]+)*\.?$")  # a letter part: 103.1.b


def reader_for(numbers: list[str]) -> str | None:
    """The reader of the rules an export numbers so: Magic's where a letter is attached to a
    digit (``100.1a``), Riftbound's plain-text one where a letter is a part of its own
    (``103.1.b``), none where the numbers say neither (``100.1`` alone) or both."""
    magic = any(_MAGIC_NUMBER.match(n) for n in numbers)
    riftbound = any(_RIFTBOUND_NUMBER.match(n) for n in numbers)
    if magic == riftbound:
        return None
    return "mtg-text" if magic else "riftbound-pdftext"


class _Writer:
    """The paragraphs of an export, each with the export line it comes from."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.origin: list[int] = []

    def paragraph(self, text: str, line: int) -> None:
        parts = [p.rstrip() for p in text.strip("\n").split("\n")]
        if not any(parts):
            return
        if self.lines:
            self.lines.append("")
            self.origin.append(line)
        self.lines.extend(parts)
        self.origin.extend([line] * len(parts))

    def exported(self, note: Diagnostic, numbers: list[str]) -> Exported:
        """The paragraphs written, as the reading stage takes them, with the note and the
        reader the records' ``numbers`` call for."""
        return Exported("\n".join(self.lines) + "\n", self.origin or [1], [note],
                        reader_for([n.strip() for n in numbers]))


def _printed_number(number: str) -> str:
    """A rule number as the release prints it: with a last dot (``100.``, ``100.1.``,
    ``103.1.b.``), but for a letter attached to a digit (Magic's ``100.1a``)."""
    number = number.strip()
    return number if number.endswith(".") or _ATTACHED_LETTER.search(number) else number + "."


def _key(name: str) -> str:
    return " ".join(name.strip().lower().replace("-", " ").split())


def exported(text: str, source: str = "") -> Exported | None:
    """The export written out as paragraphs, or None when the text is no export of rules."""
    if _JSON_START.match(text) and text.rstrip()[-1:] in ("]", "}"):
        return _from_json(text, source)
    return _from_csv(text, source)


# -- JSON ---------------------------------------------------------------------------------------

def _from_json(text: str, source: str) -> Exported:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DocumentError([Diagnostic(
            f"the document starts as JSON but is not valid JSON: {exc.msg} (line {exc.lineno}, "
            f"column {exc.colno})", source, exc.lineno)]) from exc
    records = _rule_list(document)
    if records is None:
        raise DocumentError([Diagnostic(
            "a JSON document without a list of rules: expected a list of objects, each with a rule "
            "number (a field such as 'number' holding '100.1a' or '103.1.b') and its text", source, 1)])
    number_field = _number_field(records)
    writer, cursor = _Writer(), _Cursor(text)
    if isinstance(document, dict):
        # A document keyed by rule numbers itself opens with its other keys' strings only.
        keyed = _keyed_rules(document) is not None
        for key, value in document.items():
            if keyed and _RULE_NUMBER.match(key.strip()):
                continue
            if isinstance(value, str) and value.strip():
                writer.paragraph(value, cursor.line_of(json.dumps(value)))
            elif isinstance(value, list) or isinstance(value, dict) and _keyed_rules(value) is not None:
                break  # the rules: what follows them is not the document's opening
    glossary: list[tuple[str, str, int]] = []
    numbers: list[str] = []
    for record in _flattened(records) + _glossary(document, records):
        term = _field(record, _TERM_NAMES)
        number = record.get(number_field) if number_field else None
        if term is not None and number is None:
            definition = _field(record, _DEFINITION_NAMES) or ""
            glossary.append((str(term), str(definition), cursor.line_of(json.dumps(term))))
            continue
        if number is None:
            continue
        number = str(number)
        line = cursor.line_of(json.dumps(number if isinstance(record.get(number_field), str)
                                         else record.get(number_field)))
        numbers.append(number)
        body = _field(record, _TEXT_NAMES, exclude=(number_field,))
        title = _field(record, _TITLE_NAMES, exclude=(number_field,))
        writer.paragraph(f"{_printed_number(number)} {body if body else title or ''}".rstrip(), line)
        examples = _field(record, _EXAMPLE_NAMES)
        for example in ([examples] if isinstance(examples, str) else examples or []):
            if isinstance(example, str) and example.strip():
                said = example.strip()
                writer.paragraph(said if said.lower().startswith("example") else f"Example: {said}", line)
    if glossary:
        writer.paragraph("Glossary", glossary[0][2])
        for term, definition, line in glossary:
            writer.paragraph(f"{term}\n{definition}", line)
    note = Diagnostic(f"a JSON export of {len(numbers)} rules{f' and {len(glossary)} glossary entries' if glossary else ''}"
                      f" (numbers in its field {number_field!r}): read as the paragraphs the "
                      "release prints", source, 0, "info")
    return writer.exported(note, numbers)


class _Cursor:
    """Where, in order, each value stands in the JSON text (the line of its first character)."""

    def __init__(self, text: str) -> None:
        self.text, self.at, self.line = text, 0, 1

    def line_of(self, literal: str) -> int:
        found = self.text.find(literal, self.at)
        if found < 0:
            return self.line
        self.line += self.text.count("\n", self.at, found)
        self.at = found
        return self.line


def _rule_list(document: object) -> list[dict] | None:
    """The document's list of rules: itself, or the first list of objects among its values
    (depth first) that holds rule numbers."""
    if isinstance(document, list):
        objects = [r for r in document if isinstance(r, dict)]
        if len(_flattened(objects)) >= _MIN_RECORDS and _number_field(objects):
            return objects
        return None
    if isinstance(document, dict):
        keyed = _keyed_rules(document)
        if keyed is not None:
            return keyed
        for value in document.values():
            found = _rule_list(value)
            if found is not None:
                return found
    return None


def _keyed_rules(document: dict) -> list[dict] | None:
    """An object keyed by rule numbers (a community API's ``{"100.1": "These Magic rules…"}`` or
    ``{"100.1": {"text": …, "examples": […]}}``) as its records, each with its key as its
    ``number``; None unless most of its keys (three or more) are rule numbers."""
    keys = [k for k in document if _RULE_NUMBER.match(k.strip())]
    if len(keys) < _MIN_RECORDS or 2 * len(keys) < len(document):
        return None
    return [{"number": k.strip(), **value} if isinstance(value, dict) else {"number": k.strip(), "text": value}
            for k in keys if isinstance(value := document[k], (str, dict))]


def _glossary(document: object, rules: list[dict]) -> list[dict]:
    """The records of the lists of objects beside the rules (``{"rules": [...], "glossary":
    [...]}``) that hold terms."""
    if not isinstance(document, dict):
        return []
    out: list[dict] = []
    for value in document.values():
        if isinstance(value, list) and value is not rules:
            out.extend(v for v in value if isinstance(v, dict) and _field(v, _TERM_NAMES) is not None)
        elif isinstance(value, dict):
            out.extend(_glossary(value, rules))
    return out


def _flattened(records: list[dict]) -> list[dict]:
    """The records and the records nested in their lists of objects, in document order."""
    out: list[dict] = []
    for record in records:
        out.append(record)
        for value in record.values():
            if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
                out.extend(_flattened(value))
    return out


def _number_field(records: list[dict]) -> str | None:
    """The field whose values look like rule numbers in most records (a named one first)."""
    counts: dict[str, int] = {}
    for record in _flattened(records)[:2000]:
        for name, value in record.items():
            if isinstance(value, (str, int)) and not isinstance(value, bool) and _RULE_NUMBER.match(str(value).strip()):
                counts[name] = counts.get(name, 0) + 1
    if not counts:
        return None
    return max(counts, key=lambda n: (counts[n], _key(n) in _NUMBER_NAMES))


def _field(record: dict, names: tuple[str, ...], exclude: tuple[str | None, ...] = ()) -> object:
    for name, value in record.items():
        if name not in exclude and _key(name) in names:
            return value
    return None


# -- CSV ----------------------------------------------------------------------------------------

def _from_csv(text: str, source: str) -> Exported | None:
    # A text read without kb.read.text.decode may end its lines in CR alone (an old Mac's).
    first = re.split(r"\r\n?|\n", text.lstrip("\ufeff"), maxsplit=1)[0]
    delimiter = max(",;\t", key=first.count)  # not "|": a Markdown table (kb.read.normalise)
    if first.count(delimiter) == 0:
        return None
    header = [_key(c) for c in next(csv.reader([first], delimiter=delimiter))]
    number_at = next((header.index(n) for n in _NUMBER_NAMES if n in header), None)
    text_at = next((header.index(n) for n in _TEXT_NAMES if n in header), None)
    headed = number_at is not None and text_at is not None
    if not headed:
        if not _numbered_rows(text, delimiter):
            return None
        number_at, text_at = 0, 1
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)
    writer, rows, numbers = _Writer(), 0, []
    start = 1
    try:
        if headed:
            next(reader)
            start = reader.line_num + 1
        for row in reader:
            if row and len(row) > max(number_at, text_at):
                number, said = row[number_at].strip(), row[text_at]
                if number:
                    numbers.append(number)
                writer.paragraph(f"{_printed_number(number)} {said.strip()}" if number else said, start)
                rows += 1
            start = reader.line_num + 1
    except csv.Error as exc:
        raise DocumentError([Diagnostic(f"a CSV table of rules that cannot be read past line {start}: {exc}",
                                        source, start)]) from exc
    if len(numbers) < _MIN_RECORDS:
        return None
    column = f"in its column {header[number_at]!r}" if headed else "in its first column, no header row"
    note = Diagnostic(f"a {'TSV' if delimiter == chr(9) else 'CSV'} table of {rows} rows ({len(numbers)} "
                      f"numbered, {column}): read as the paragraphs the release prints", source, 0, "info")
    return writer.exported(note, numbers)


_SAMPLE_ROWS = 60


def _numbered_rows(text: str, delimiter: str) -> bool:
    """Whether a table without a header row is one of rules: its first rows (a spreadsheet's
    export, copied without its head) all have a second column, and their first column is a
    rule number (``100.1a``, ``103.1.b.``) or empty, numbered in at least half of them."""
    head = text.lstrip("\ufeff")[:50_000]
    rows = []
    try:
        for row in csv.reader(io.StringIO(head, newline=""), delimiter=delimiter):
            if any(cell.strip() for cell in row):
                rows.append(row)
            if len(rows) == _SAMPLE_ROWS:
                break
    except csv.Error:
        return False
    if len(head) < len(text.lstrip("\ufeff")):
        rows = rows[:-1]  # the last row sampled may be cut short by the sample
    if any(len(row) < 2 or row[0].strip() and not _RULE_NUMBER.match(row[0].strip()) for row in rows):
        return False
    numbered = sum(bool(row[0].strip()) for row in rows)
    return numbered >= _MIN_RECORDS and 2 * numbered >= len(rows)
