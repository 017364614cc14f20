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
            self.fail(f"{value!r} is {problem}", param, ctx)
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


DATE = DateType()
DOCUMENT_FORMAT = DocumentFormatType()
EDITION_OR_DATE = EditionOrDateType()
PORT = click.IntRange(1, 65535)
