"""The site's paged views read ``?page=`` (the rule page ``?part=``) through one helper,
``web.site.frame.page_number``: anything but a whole number of at most four digits is the
same HTML error page with status 400 naming the parameter, on every view; a whole number
past the last page is each page function's to refuse (404; the search's 400 past its last
page).
"""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app

# (view's address without its page, the parameter it pages with, the status past the last)
PAGED = [
    ("/rulings/?", "page", 404),
    ("/articles/?", "page", 404),
    ("/search?q=priority&", "page", 400),
    ("/riftbound/compare/1.3/1.4?", "page", 404),
    ("/riftbound/1.4/300?", "part", 404),
]
BAD = ["two", "-1", "1.5", "", "12345", "%C2%B2", "0x1"]  # "²" is a digit to str.isdigit but not a number


@pytest.fixture(scope="module")
def client(site_kb: KnowledgeBase) -> FlaskClient:
    app: Flask = create_app(kb=site_kb)
    return app.test_client()


@pytest.mark.parametrize("view,name,_past", PAGED, ids=[v for v, _, _ in PAGED])
@pytest.mark.parametrize("value", BAD)
def test_a_bad_page_is_the_same_400_page_on_every_view(client: FlaskClient, view: str, name: str,
                                                       _past: int, value: str) -> None:
    r = client.get(f"{view}{name}={value}")
    assert r.status_code == 400, (view, value)
    assert r.mimetype == "text/html"
    text = r.get_data(as_text=True)
    assert f"{name.capitalize()} must be a positive whole number." in text and "Traceback" not in text


@pytest.mark.parametrize("view,name,past", PAGED, ids=[v for v, _, _ in PAGED])
def test_the_first_page_answers_and_a_page_past_the_last_is_refused(client: FlaskClient, view: str,
                                                                   name: str, past: int) -> None:
    assert client.get(f"{view}{name}=1").status_code == 200
    assert client.get(view.rstrip("?&")).status_code == 200  # no parameter: the first page
    r = client.get(f"{view}{name}=9999")
    assert r.status_code == past and r.mimetype == "text/html"
