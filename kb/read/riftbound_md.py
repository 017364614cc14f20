"""Riftbound Core Rules as Markdown made from the PDF (edition 1.4, "RUP4" style).

``## NNN.`` is a chapter, ``### NNN. Title`` a section heading, ``**NNN.n.a.**`` a rule
with its bold id. Fifth-level ids are not bold and are padded with spaces; rule text wraps
with hard newlines; ``Example:`` paragraphs belong to the rule above. A ``###`` heading
whose number is also a bold rule is a stale heading: the rule wins.
"""

from __future__ import annotations

import re

from kb.model import Diagnostic, RawRule, ReadResult
from kb.numbers import parse_number
from kb.read.examples import split_examples
from kb.read.text import clean

FORMAT = "riftbound-md"

_ID = r"(\d{3}(?:\.(?:\d+|[a-z]))*\.)"
_CHAPTER = re.compile(r"^##\s+(\d{3})\.\s*(.*)$")
_SECTION = re.compile(r"^###\s+(\d{3})\.\s*(.*)$")
_BOLD = re.compile(r"^\*\*" + _ID + r"\*\*\s*(.*)$")
_PLAIN = re.compile(r"^" + _ID + r"[ \t\u00a0]{2,}(\S.*)$")
_DATE = re.compile(r"Last Updated:?\s*(\d{4}-\d{2}-\d{2})", re.IGNORECASE)


def sniff(text: str) -> int:
    """Bold rule ids (``**103.1.a.**``) mark this format."""
    head = text[:200_000]
    bold = len(re.findall(r"(?m)^\*\*\d{3}(?:\.\w+)*\.\*\*", head))
    return 0 if bold < 3 else min(100, 60 + bold)


def read(text: str, source: str = "") -> ReadResult:
    """Read the document; see the module docstring for the layout."""
    rules: list[RawRule] = []
    lines: list[list[str]] = []  # raw lines of each entry, parallel to rules
    title = ""
    date_match = _DATE.search(text[:5000])
    diagnostics: list[Diagnostic] = []
    for lineno, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not title and stripped.startswith("# "):
            title = clean(stripped[2:])
            continue
        for pattern, kind in ((_CHAPTER, "chapter"), (_SECTION, "section")):
            m = pattern.match(stripped)
            if m:
                rules.append(RawRule(parse_number(m.group(1)), kind, "", lineno,
                                     title=clean(m.group(2)), raw_id=m.group(1) + "."))
                lines.append([])
                break
        else:
            m = _BOLD.match(stripped) or _PLAIN.match(line.rstrip())
            if m:
                rules.append(RawRule(parse_number(m.group(1)), "rule", "", lineno,
                                     raw_id=m.group(1)))
                lines.append([m.group(2)])
            elif stripped and lines:
                if stripped.startswith("#"):
                    continue
                lines[-1].append(stripped)
    for rule, body in zip(rules, lines):
        if rule.kind == "rule":
            rule.text, rule.examples = split_examples(clean("\n".join(body)))
        elif body:
            diagnostics.append(Diagnostic(f"text after heading {rule.raw_id} ignored",
                                          source, rule.line, "warning"))
    rules = _drop_stale_headings(rules, source, diagnostics)
    return ReadResult(rules, [], title or "Riftbound Core Rules",
                      date_match.group(1) if date_match else "", "dotted", diagnostics)


def _drop_stale_headings(rules: list[RawRule], source: str,
                         diagnostics: list[Diagnostic]) -> list[RawRule]:
    """A ``###`` heading that shares its number with a bold rule is stale: keep the rule."""
    rule_numbers = {r.number for r in rules if r.kind == "rule"}
    kept = []
    for r in rules:
        if r.kind == "section" and r.number in rule_numbers:
            diagnostics.append(Diagnostic(
                f"heading '### {r.raw_id} {r.title}' collides with rule {r.raw_id}; the rule wins",
                source, r.line, "info"))
            continue
        kept.append(r)
    return kept
