"""Parameter types the commands share: a date, an edition or date, a port, a document's format.

A bad value is a usage error naming the option and the value, before any work is done
(the API answers the same inputs 400).
"""

from __future__ import annotations

import re
from typing import Any

import click

from kb.inputs import date_problem

_DATE_LIKE = re.compile(r"^\d{4}-\d{1,2}-\d{1,2}$")
# The longest ruleset or edition name there can be: kb.store keeps them as folder names of at
# most 64 characters (the API's NAME_PATTERN says the same).
NAME_MOST = 64
# How much of a value too long to be anything a message repeats.
SHOWN = 40


def shown(value: Any) -> str:
    """A value as a message repeats it: quoted, and cut with its length said when long (an
    argument of a megabyte is not echoed whole)."""
    text = str(value)
    if len(text) <= SHOWN:
        return repr(text)
    return f"{text[:SHOWN]!r}… ({len(text):,} characters)"


def name_problem(text: str, what: str, param: click.Parameter | None = None) -> str | None:
    """Why ``text`` cannot be a ruleset's or an edition's name (``what``), read after the value
    (empty, or longer than any name kept), or None: whether one of that name exists is the
    knowledge base's to say, with the names there are. An option ``param`` that may be left out
    says so (its default is then read)."""
    if not text.strip():
        omit = "" if param is not None and param.required else ", or leave the option out for the default"
        return f"empty: name {'a' if what == 'ruleset' else 'an'} {what}{omit}"
    if len(text) > NAME_MOST:
        return f"not {'a' if what == 'ruleset' else 'an'} {what} name: a name has at most {NAME_MOST} characters"
    return None


class NameType(click.ParamType):
    """A ruleset's or an edition's name (:func:`name_problem`)."""

    name = "text"

    def __init__(self, what: str) -> None:
        self.what = what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is None:
            return value
        text = str(value)
        if problem := name_problem(text, self.what, param):
            self.fail(f"{shown(text)} is {problem}", param, ctx)
        return text


class DateType(click.ParamType):
    """A calendar date written YYYY-MM-DD (an empty default stays empty)."""

    name = "date"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "YYYY-MM-DD"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if value is None or value == "":
            return value
        text = str(value).strip()
        problem = date_problem(text)
        if problem:
            self.fail(f"{shown(value)} is {problem}", param, ctx)
        return text


class EditionOrDateType(click.ParamType):
    """An edition's name (``1.4``, ``2026-01-16``) or a date meaning the edition in force then.

    Names are checked against the knowledge base later; a value shaped like a date must be
    a real one, since no edition is named after a day that does not exist.
    """

    name = "edition"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "EDITION"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        text = str(value).strip()
        if _DATE_LIKE.match(text):
            problem = date_problem(text)
            if problem:
                self.fail(f"{value!r} is neither an edition's name nor a date: {problem}", param, ctx)
        elif problem := name_problem(text, "edition", param):
            self.fail(f"{shown(value)} is {problem}", param, ctx)
        return text


class DocumentFormatType(click.Choice):
    """The format of a rules document: one of the readers' names (:data:`kb.read.READERS`).

    The readers (python-docx, pypdf...) are imported when the choices are first needed (the
    option given, or ``--help`` shown), not when the CLI starts: every command would pay for
    them otherwise.
    """

    def __init__(self) -> None:
        super().__init__((), case_sensitive=True)

    @property  # type: ignore[override]
    def choices(self) -> tuple[str, ...]:
        from kb.read import READERS
        return tuple(sorted(READERS))

    @choices.setter
    def choices(self, value: Any) -> None:  # click.Choice.__init__ assigns it; the readers decide
        pass


# No path is longer (Linux's PATH_MAX); one that is was not meant as a path.
PATH_MOST = 4096


class PathType(click.Path):
    """click.Path, refusing a value longer than any path can be (:data:`PATH_MOST`) before
    looking it up, so that the message does not repeat it whole."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if len(str(value)) > PATH_MOST:
            self.fail(f"{shown(value)} is not a path: a path has at most {PATH_MOST:,} characters", param, ctx)
        return super().convert(value, param, ctx)


DATE = DateType()
RULESET_NAME = NameType("ruleset")
EDITION_NAME = NameType("edition")
DOCUMENT_FORMAT = DocumentFormatType()
EDITION_OR_DATE = EditionOrDateType()
PORT = click.IntRange(1, 65535)
