"""Kinds of rules document, known by their title line: a ruleset holds one kind.

Riftbound publishes Core Rules and Tournament Rules, Magic a Comprehensive Rules, Tournament
Rules and an Infraction Procedure Guide, all numbered alike, so a reader takes any of them;
only the title says which one a file is. A document whose title names another kind than
the ruleset it is imported into holds (the Tournament Rules imported as ``riftbound``) is
refused, naming its title line and the ruleset it belongs to. A document with no known
title, or a ruleset of no known kind, is not checked.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from kb.model import Diagnostic, DocumentError

_MAGIC = r"(?:Magic(?::\s*The\s+Gathering)?\s+)?"


@dataclass(frozen=True)
class DocumentKind:
    """One kind of rules document: its name, the ruleset that holds it, its title's form."""

    name: str
    ruleset: str
    title: re.Pattern[str]


KINDS: tuple[DocumentKind, ...] = (
    DocumentKind("Riftbound Core Rules", "riftbound", re.compile(r"^Riftbound\s+Core\s+Rules\b", re.I)),
    DocumentKind("Riftbound Tournament Rules", "riftbound-tournament",
                 re.compile(r"^Riftbound\s+Tournament\s+Rules\b", re.I)),
    DocumentKind("Magic: The Gathering Comprehensive Rules", "mtg",
                 re.compile(rf"^{_MAGIC}Comprehensive\s+Rules\b", re.I)),
    DocumentKind("Magic Tournament Rules", "mtg-tournament",
                 re.compile(rf"^{_MAGIC}Tournament\s+Rules\b", re.I)),
    DocumentKind("Magic Infraction Procedure Guide", "mtg-ipg",
                 re.compile(rf"^{_MAGIC}Infraction\s+Procedure\s+Guide\b", re.I)),
)

_HEAD_LINES = 40  # the title is among a document's first lines
_TITLE_LENGTH = 100  # a longer line is a sentence, not a title
_MARKUP = re.compile(r"<[^>]*>|^[#>\s]+|[*_]+")


def _plain(line: str) -> str:
    """A line's words without markup, entities resolved."""
    return " ".join(html.unescape(_MARKUP.sub(" ", line)).split())


def _kind_named(plain: str) -> DocumentKind | None:
    if len(plain) > _TITLE_LENGTH:
        return None
    return next((k for k in KINDS if k.title.match(plain)), None)


def kind_of_title(title: str) -> DocumentKind | None:
    """The kind a title names (``Riftbound Core Rules RUP4``, ``_Magic: The Gathering_
    Comprehensive Rules``), or None.

    >>> kind_of_title("# Riftbound Tournament Rules (2026-05-02)").name
    'Riftbound Tournament Rules'
    """
    return _kind_named(_plain(title))


def title_line(text: str) -> tuple[int, str, DocumentKind] | None:
    """The document's title line among its first lines: its number (from 1), its text
    without markup, and the kind it names; None when no line there names a kind."""
    for number, line in enumerate(text.split("\n")[:_HEAD_LINES], 1):
        if kind := _kind_named(plain := _plain(line)):
            return number, plain, kind
    return None


def expected_kind(ruleset: str, ruleset_title: str = "") -> DocumentKind | None:
    """The kind of document a ruleset holds: the one its title names, else the one it is
    named for (``riftbound``); None for a ruleset of no known kind."""
    return kind_of_title(ruleset_title) or next((k for k in KINDS if k.ruleset == ruleset), None)


def check_kind(text: str, source: str, ruleset: str, ruleset_title: str = "", read_as: str = "") -> None:
    """Refuse a document whose title names another kind than the ruleset holds; the error
    names the file, the title line, the format it reads as and what the ruleset expected."""
    expected = expected_kind(ruleset, ruleset_title)
    found = title_line(text)
    if expected is None or found is None or found[2] == expected:
        return
    line, shown, kind = found
    raise DocumentError([Diagnostic(
        f"{f'the document reads as {read_as}, but ' if read_as else ''}its title line {shown!r} "
        f"says this is the {kind.name}, not the {expected.name} that "
        f"ruleset {ruleset} holds; import it as its own ruleset with --ruleset {kind.ruleset} "
        "if that is what you want", source, line)])
