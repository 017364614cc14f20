"""The rule model: plain dataclasses shared by every stage after the readers.

A rule's identity is (ruleset, edition, number); numbers are canonical strings written in
the ruleset's style (see :mod:`kb.numbers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from kb.numbers import NumberStyle, Segments

RuleKind = Literal["chapter", "section", "rule"]


@dataclass(slots=True)
class Diagnostic:
    """A problem found in a document or a request, with the place it was found."""

    message: str
    file: str = ""
    line: int = 0
    severity: Literal["error", "warning", "info"] = "error"
    rule: str = ""

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        where = f"{place}: " if place else ""
        rule = f" (rule {self.rule})" if self.rule else ""
        return f"{where}{self.severity}: {self.message}{rule}"

    def as_dict(self) -> dict[str, object]:
        return {"message": self.message, "file": self.file, "line": self.line,
                "severity": self.severity, "rule": self.rule}


class DocumentError(Exception):
    """A rule document that cannot be read; carries every error found, each with its place."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in diagnostics))


@dataclass(slots=True)
class RawRule:
    """One numbered entry as a reader found it, before the graph is built.

    ``kind`` is the reader's judgement of what the entry is: a chapter (``## 300.``,
    Magic's ``1. Game Concepts``), a section heading (``### 337. Step 1: Finalize``,
    Magic's ``116. Timing and Priority``) or a rule. Headings carry ``title`` and usually
    no text; rules carry ``text``.
    """

    number: Segments
    kind: RuleKind
    text: str
    line: int
    title: str = ""
    examples: list[str] = field(default_factory=list)
    raw_id: str = ""


@dataclass(slots=True)
class RawTerm:
    """A glossary entry or keyword as a reader found it."""

    name: str
    definition: str
    line: int
    kind: Literal["glossary", "keyword", "term"] = "glossary"
    rules: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ReadResult:
    """Everything a reader gets from one document."""

    rules: list[RawRule]
    terms: list[RawTerm] = field(default_factory=list)
    title: str = ""
    date: str = ""
    number_style: NumberStyle = "dotted"
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class Reference:
    """A cross-reference found in a rule's text ("See rule 349. Playing Cards")."""

    source: str
    text: str
    targets: list[str]
    line: int
    resolved: bool
    start: int = 0
    end: int = 0
    kind: Literal["rule", "section", "external"] = "rule"
    # For kind "external": the ruleset the citation points into ("CR 101" in the
    # Tournament Rules cites the Core Rules, not the Tournament Rules' own 101).
    ruleset: str = ""


@dataclass(slots=True)
class Rule:
    """One numbered node of an edition: a chapter, a section heading or a rule."""

    number: str
    segments: Segments
    kind: RuleKind
    title: str
    text: str
    line: int
    examples: list[str] = field(default_factory=list)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    order: int = 0

    @property
    def label(self) -> str:
        """The title of a heading, or the first words of a rule's text."""
        if self.title:
            return self.title
        words = self.text.split()
        return " ".join(words[:12]) + (" …" if len(words) > 12 else "")


@dataclass(slots=True)
class Term:
    """A defined term or keyword, with the rules that define and use it."""

    name: str
    definition: str
    kind: Literal["glossary", "keyword", "term"]
    defined_by: list[str] = field(default_factory=list)
    line: int = 0

    @property
    def key(self) -> str:
        return term_key(self.name)


def term_key(name: str) -> str:
    """The lookup key of a term: lower case, single spaces, no "(Obsolete)" suffix."""
    return " ".join(name.lower().replace("(obsolete)", "").split())


@dataclass
class Edition:
    """One edition of a ruleset: its rules in document order, terms and references."""

    ruleset: str
    name: str
    date: str
    title: str
    number_style: NumberStyle
    partial: bool
    source: str
    rules: dict[str, Rule] = field(default_factory=dict)
    terms: dict[str, Term] = field(default_factory=dict)
    references: list[Reference] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    source_format: str = ""

    @property
    def key(self) -> tuple[str, str]:
        return (self.ruleset, self.name)


@dataclass
class RulesetInfo:
    """A ruleset as the manifest describes it."""

    name: str
    title: str
    number_style: NumberStyle = "dotted"
    default_format: str = ""
    # Citation keyword → ruleset it points into, e.g. {"CR": "riftbound"}.
    external_citations: dict[str, str] = field(default_factory=dict)
