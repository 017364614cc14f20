"""Rulings and articles as records: what they are and how their files read.

A **ruling** is a judge's answer to a question, written for one edition of a ruleset. It is
a YAML file (one mapping, or a list of them) or a Markdown file whose front matter holds
the fields and whose body is the answer::

    id: riftbound-finalizing-keeps-priority
    question: When I finalize my spell, do I give up priority?
    answer: No: rule 337.1.a says the process does not pass Priority.
    source: Judge desk notes
    date: 2026-04-12
    ruleset: riftbound
    edition: "1.3"          # the edition it was written for
    url: https://…          # optional

An **article** is a Markdown file; its front matter is read as the citation linker reads it
(``ruleset:``/``edition:`` pins, ``rules: mtg 2010-10-01``, or nothing: the edition is
inferred from its citations). Its id is the front matter's ``id:`` or the file's name.

Parsing here knows nothing of the knowledge base: a field missing or malformed is a
:class:`~kb.model.Diagnostic` naming the file and the field. Whether the ruleset and
edition exist is checked against the knowledge base when records are imported
(:mod:`kb.records.store`) and analysed (:mod:`kb.records.citing`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

import yaml

from kb.inputs import date_problem, load_yaml
from kb.model import Diagnostic

Kind = Literal["ruling", "article"]
KINDS: tuple[Kind, ...] = ("ruling", "article")
RULING_FIELDS: tuple[str, ...] = ("id", "question", "answer", "source", "date", "ruleset", "edition")
OPTIONAL_FIELDS: tuple[str, ...] = ("url",)
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._-]{0,99}$")
#: Ruling ids that name something else where a ruling's id goes (/api/v1/rulings/search,
#: /api/v1/rulings/stale.atom): a ruling so named could not be read by its address.
RESERVED_RULING_IDS = frozenset({"search", "stale.atom"})
_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?-{3,}[ \t]*\r?\n(.*?)^-{3,}[ \t]*(?:\r?\n|\Z)", re.S | re.M)
MAX_RECORD_BYTES = 2_000_000  # cite.input: an article is linked within the same budget
MAX_PER_FILE = 1_000  # rulings in one YAML file (each is kept as a file of its own)


@dataclass(frozen=True, slots=True)
class Record:
    """One ruling or article as stored: its fields, and the text its citations are read from.

    ``edition`` is the edition it was written for as its file says (a ruling must say; an
    article may not, and the linker infers it). ``body_line`` is the file line the body
    starts on, so a citation's line is a line of the file. ``lines``: for a ruling's
    question and answer, the line of ``file`` each starts on, where its line breaks are the
    file's (a Markdown body, a YAML ``|`` block or one-line value; a field absent: not
    known). ``imported_from``: the file it was imported from, whose lines ``lines`` are
    (the data home keeps a copy: ``file``); empty for a record not imported. ``field_lines``:
    the line of ``file`` each front-matter field's key is on (a field absent: not known), where
    a problem the knowledge base finds with the field (an unknown ruleset or edition) is said.
    """

    kind: Kind
    id: str
    title: str
    text: str
    ruleset: str | None
    edition: str | None
    date: str
    source: str = ""
    url: str | None = None
    question: str = ""
    answer: str = ""
    file: str = ""
    body_line: int = 1
    front_matter: tuple[tuple[str, str], ...] = ()
    lines: tuple[tuple[str, int], ...] = ()
    imported_from: str = ""
    field_lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, name: str, offset: int) -> int:
        """The file line of ``offset`` into the field ``name`` (question, answer), 0 when
        not known (``lines``)."""
        start = dict(self.lines).get(name, 0)
        value = self.question if name == "question" else self.answer
        return start + value.count("\n", 0, max(0, offset)) if start else 0

    def summary(self) -> dict[str, Any]:
        """The fields every listing shows (the API's ``RecordSummary``)."""
        out: dict[str, Any] = {"kind": self.kind, "id": self.id, "title": self.title,
                               "ruleset": self.ruleset, "edition": self.edition,
                               "date": self.date, "source": self.source, "url": self.url}
        if self.kind == "ruling":
            out.update(question=self.question, answer=self.answer)
        return out


@dataclass
class Parsed:
    """The records read from one file, and what was wrong in it."""

    records: list[Record] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: Rulings refused for their own fields whose ruleset and edition are still to be checked
    #: against the knowledge base, so that an import names every bad field of a ruling at once:
    #: (the ruling as its errors name it, ruleset, edition, each field's line; 0: not known).
    refused: list[tuple[str, str | None, str | None, dict[str, int]]] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


def _error(file: str, message: str, line: int = 0) -> Diagnostic:
    return Diagnostic(message, file, line, "error")


def _check_url(value: str) -> str | None:
    return None if re.match(r"^https?://[^\s/]+", value) else "must be an http(s):// URL"


def split_front_matter(text: str) -> tuple[str | None, str, int]:
    """``(front matter, body, line the body starts on)``; ``None`` when there is none."""
    m = _FRONT_MATTER.match(text)
    if m is None:
        return None, text, 1
    return m.group(1), text[m.end():], text.count("\n", 0, m.end()) + 1


def _load(text: str, file: str, what: str) -> tuple[Any, Diagnostic | None]:
    try:
        return load_yaml(text, f"{file} {what}", strings=True, aliases=False), None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc)
        return None, _error(file, f"{what} is not valid YAML: {problem}", line)


def parse_ruling_file(text: str, file: str) -> Parsed:
    """The rulings of one file (``.yaml``/``.yml``: a mapping or a list of them; ``.md``:
    front matter and the answer as body). Every problem is a diagnostic naming the file,
    the ruling (its position in a list) and the field."""
    out = Parsed()
    if file.lower().endswith((".md", ".markdown")):
        front, body, line = split_front_matter(text)
        if front is None:
            out.diagnostics.append(_error(file, "a Markdown ruling starts with front matter "
                                                "(---, the fields, ---) and has the answer as its body", 1))
            return out
        data, problem = _load(front, file, "front matter")
        if problem is not None:
            problem.line += 1  # the front matter starts on line 2
            out.diagnostics.append(problem)
            return out
        if not isinstance(data, dict):
            out.diagnostics.append(_error(file, "front matter is not a mapping of fields", 1))
            return out
        if "answer" in data:
            out.diagnostics.append(_error(file, "field 'answer': a Markdown ruling's answer is its "
                                                "body, not a front matter field", 1))
            return out
        data = {**data, "answer": body.strip()}
        lines = _value_lines(front, "question", 1)  # the front matter starts on line 2
        lines["answer"] = line + _leading_breaks(body)
        fields = _mapping_lines(front, RULING_FIELDS + OPTIONAL_FIELDS, 1, keys=True)
        _ruling(data, file, "", line, out, lines, fields[0] if fields else {})
        return out
    data, problem = _load(text, file, "file")
    if problem is not None:
        out.diagnostics.append(problem)
        return out
    items = data if isinstance(data, list) else [data]
    if len(items) > MAX_PER_FILE:
        out.diagnostics.append(_error(file, f"the file holds {len(items)} rulings; at most "
                                            f"{MAX_PER_FILE} a file (split it)"))
        return out
    positions = _mapping_lines(text, ("question", "answer"))
    fields = _mapping_lines(text, RULING_FIELDS + OPTIONAL_FIELDS, keys=True)
    for i, item in enumerate(items):
        where = f"ruling {i + 1}: " if isinstance(data, list) else ""
        if not isinstance(item, dict):
            out.diagnostics.append(_error(file, f"{where}a ruling is a mapping of fields "
                                                f"({', '.join(RULING_FIELDS)})"))
            continue
        _ruling(item, file, where, 1, out, positions[i] if i < len(positions) else {},
                fields[i] if i < len(fields) else {})
    if not items:
        out.diagnostics.append(_error(file, "the file holds no ruling"))
    return out


_COMPOSER = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _mapping_lines(text: str, names: tuple[str, ...], before: int = 0,
                   keys: bool = False) -> list[dict[str, int]]:
    """For each mapping of a YAML text (the document, or each item of a list), the line
    each field of ``names`` starts on where the value's line breaks are the text's (a
    ``|`` block, or a value on one line; other values are left out), plus ``before``
    lines; ``keys``: the line of each field's key instead, whatever its value. The text is
    known to parse (its values were read)."""
    try:
        root = yaml.compose(text, Loader=_COMPOSER)  # noqa: S506 (nodes only, nothing constructed)
    except yaml.YAMLError:
        return []
    items = root.value if isinstance(root, yaml.SequenceNode) else [root]
    out: list[dict[str, int]] = []
    for item in items:
        found: dict[str, int] = {}
        if isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                if not isinstance(key, yaml.ScalarNode) or key.value not in names:
                    continue
                if keys:
                    found[key.value] = key.start_mark.line + 1 + before
                elif not isinstance(value, yaml.ScalarNode):
                    continue
                elif value.style == "|":  # its text starts on the line after the indicator
                    found[key.value] = value.start_mark.line + 2 + before + _leading_breaks(value.value)
                elif value.start_mark.line == value.end_mark.line:
                    found[key.value] = value.start_mark.line + 1 + before
        out.append(found)
    return out


def _value_lines(text: str, name: str, before: int) -> dict[str, int]:
    found = _mapping_lines(text, (name,), before)
    return found[0] if found else {}


def _leading_breaks(value: str) -> int:
    """Line breaks before a value's first character (its text is read stripped)."""
    return value[: len(value) - len(value.lstrip())].count("\n")


def _ruling(data: dict[str, Any], file: str, where: str, body_line: int, out: Parsed,
            lines: dict[str, int] | None = None, fields: dict[str, int] | None = None) -> None:
    """Read one ruling's fields into ``out``: a record, or every problem of its fields, each
    on its field's line where ``fields`` knows it (a value on one line)."""
    at = fields or {}
    problems: list[Diagnostic] = []
    values: dict[str, str] = {}
    for name in RULING_FIELDS:
        value = data.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            problems.append(_error(file, f"{where}field {name!r} is missing (a ruling has "
                                         f"{', '.join(RULING_FIELDS)}; url is optional)", at.get(name, 0)))
        elif not isinstance(value, str):
            problems.append(_error(file, f"{where}field {name!r} must be text, not a "
                                         f"{'list' if isinstance(value, list) else 'mapping'}", at.get(name, 0)))
        else:
            values[name] = value.strip()
    url = data.get("url")
    if url is not None and (not isinstance(url, str) or _check_url(url.strip())):
        problems.append(_error(file, f"{where}field 'url' must be an http(s):// URL", at.get("url", 0)))
    if "id" in values and not ID_PATTERN.match(values["id"]):
        problems.append(_error(file, f"{where}field 'id' {values['id'][:60]!r} must be lower-case "
                                     "letters, digits, '.', '_' or '-' (at most 100)", at.get("id", 0)))
    elif values.get("id") in RESERVED_RULING_IDS:
        problems.append(_error(file, f"{where}field 'id' {values['id']!r} is a word the rulings' "
                                     f"addresses use ({', '.join(sorted(RESERVED_RULING_IDS))}): "
                                     "choose another id", at.get("id", 0)))
    if "date" in values and (why := date_problem(values["date"])):
        problems.append(_error(file, f"{where}field 'date' {values['date'][:40]!r} is {why}", at.get("date", 0)))
    for key in data:
        if str(key) not in RULING_FIELDS and str(key) not in OPTIONAL_FIELDS:
            out.diagnostics.append(Diagnostic(
                f"{where}field {str(key)[:40]!r} is not one a ruling has ({', '.join(RULING_FIELDS)}, "
                "url); ignored", file, 0, "warning"))
    if problems:
        out.diagnostics.extend(problems)
        # Its ruleset and edition are checked too (kb.records.store.import_records).
        named = where.rstrip(": ") or (f"ruling {values['id']}" if "id" in values else "ruling")
        out.refused.append((named, values.get("ruleset"), values.get("edition"), dict(at)))
        return
    question, answer = values["question"], values["answer"]
    out.records.append(Record(
        kind="ruling", id=values["id"], title=question, text=f"{question}\n\n{answer}",
        ruleset=values["ruleset"], edition=values["edition"], date=values["date"],
        source=values["source"], url=url.strip() if isinstance(url, str) else None,
        question=question, answer=answer, file=file, body_line=body_line,
        front_matter=tuple((k, values[k]) for k in RULING_FIELDS),
        lines=tuple(sorted((lines or {}).items())), field_lines=tuple(sorted(at.items()))))


def article_id(stem: str) -> str:
    """An id from a file name: lower case, other characters as '-'."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", stem.lower()).strip("-._")
    return slug[:100] or "article"


def parse_article_file(text: str, file: str, stem: str) -> Parsed:
    """One article: its id (``id:`` or the file's name), title (``title:``, else its first
    heading, else its id), pins, date and url. Citations are read from the whole text, as
    the linker reads it (front matter first)."""
    out = Parsed()
    if not text.strip():  # a file saved empty: kept, it would be an article citing nothing
        out.diagnostics.append(_error(file, "the article is empty: nothing to add", 1))
        return out
    front, body, line = split_front_matter(text)
    data: dict[str, Any] = {}
    if front is not None:
        loaded, problem = _load(front, file, "front matter")
        if problem is not None:
            problem.line += 1
            out.diagnostics.append(problem)
            return out
        if loaded is not None and not isinstance(loaded, dict):
            out.diagnostics.append(_error(file, "front matter is not a mapping", 1))
            return out
        data = loaded or {}
    strings = {str(k): v.strip() for k, v in data.items() if isinstance(v, str)}
    ident = strings.get("id") or article_id(stem)
    if not ID_PATTERN.match(ident):
        out.diagnostics.append(_error(file, f"field 'id' {ident[:60]!r} must be lower-case letters, "
                                            "digits, '.', '_' or '-'", 1))
        return out
    date = strings.get("date", "")[:10]
    if date and (why := date_problem(date)):
        # the date's own line (the front matter starts on line 2), as the linker's warning names it
        at = _value_lines(front, "date", 1).get("date", 1) if front is not None else 1
        out.diagnostics.append(Diagnostic(f"field 'date' {date!r} is {why}; ignored", file, at, "warning"))
        date = ""
    url = strings.get("url")
    if url and _check_url(url):
        out.diagnostics.append(_error(file, "field 'url' must be an http(s):// URL", 1))
        return out
    keyed = _mapping_lines(front, ("ruleset", "edition"), 1, keys=True) if front is not None else []
    heading = re.search(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", body, re.M)
    title = strings.get("title") or (heading.group(1) if heading else ident)
    out.records.append(Record(
        kind="article", id=ident, title=title, text=text, ruleset=strings.get("ruleset"),
        edition=strings.get("edition"), date=date, source=strings.get("author", ""), url=url,
        file=file, body_line=line, front_matter=tuple(sorted(strings.items())),
        field_lines=tuple(sorted(keyed[0].items())) if keyed else ()))
    return out
