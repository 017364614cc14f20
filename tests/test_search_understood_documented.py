"""The search answer's ``understood`` object is documented field by field where the README
describes it, and what ``unread`` says reaches the search page as it reaches the CLI. One case
per line."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import web.api  # noqa: F401  (declares every operation)
from web import create_app
from web.openapi import SCHEMAS

README = Path(__file__).resolve().parent.parent / "README.md"


def _understood_fields() -> list[str]:
    shape = SCHEMAS["Search"]["properties"]["understood"]["oneOf"][0]
    return sorted(shape["properties"])


def _readme_paragraph() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("How a question was read is the API's `understood` object")
    return text[start:text.index("**Card knowledge", start)]


@pytest.mark.parametrize("field", _understood_fields())
def test_every_field_of_understood_is_in_the_readme(field: str) -> None:
    assert f"`{field}`" in _readme_paragraph(), f"README does not document understood.{field}"


# (query, the syntax the page says it left out)
PAGE = [
    ("focus^3", "^ (a weight)"),
    ("title:focus", "title: (a field)"),
    ("~focus^2", "^ (a weight), ~ (fuzzy or near)"),
]


@pytest.mark.parametrize("query, said", PAGE)
def test_the_search_page_says_what_it_left_out(excerpt_home: Path, query: str, said: str) -> None:
    page = create_app(excerpt_home).test_client().get("/search", query_string={"q": query})
    assert page.status_code == 200
    lines = re.findall(r'class="meta understood unread">([^<]*)<', page.get_data(as_text=True))
    assert [html.unescape(line) for line in lines] == [f"Not read as search syntax (its words searched): {said}"]


def test_a_question_without_such_syntax_says_nothing_of_it(excerpt_home: Path) -> None:
    page = create_app(excerpt_home).test_client().get("/search", query_string={"q": "focus"})
    assert "understood unread" not in page.get_data(as_text=True)
