"""A date written where a site page's edition goes (``/riftbound/1999-01-01/337.2``): one
before every edition is answered 404 in the API's words ("no edition of riftbound was in
force on 1999-01-01"), never "unknown edition '1999-01-01'"; a date some edition was in
force on still redirects to it, and a name that is neither keeps its 'unknown edition'."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app

# (address, status, words the page says, words it must not say)
CASES = [
    ("/riftbound/1999-01-01/337.2", 404, "No edition of riftbound was in force on 1999-01-01.", "unknown edition"),
    ("/riftbound/1999-01-01/", 404, "No edition of riftbound was in force on 1999-01-01.", "unknown edition"),
    ("/riftbound/1999-01-01/glossary", 404, "No edition of riftbound was in force on 1999-01-01.",
     "unknown edition"),
    ("/mtg/1990-05-05/117.3", 404, "No edition of mtg was in force on 1990-05-05.", "unknown edition"),
    # not a calendar date, nor an edition: the page's own 404, as before
    ("/riftbound/2026-02-30/337.2", 404, "Unknown edition &#39;", "in force on"),
    ("/riftbound/9.9/337.2", 404, "Unknown edition &#39;", "in force on"),
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize("address,status,says,never", CASES)
def test_a_date_in_the_edition_place_is_answered_in_dates_words(client: FlaskClient, address: str, status: int,
                                                                 says: str, never: str) -> None:
    response = client.get(address)
    page = response.get_data(as_text=True)
    assert response.status_code == status
    assert says in page
    assert never.casefold() not in page.casefold()


def test_a_date_some_edition_was_in_force_on_still_redirects(client: FlaskClient, excerpt_kb: KnowledgeBase) -> None:
    newest = excerpt_kb.editions("riftbound")[-1]
    response = client.get(f"/riftbound/{newest['date']}/337.2")
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/riftbound/{excerpt_kb.in_force('riftbound', newest['date'])['edition']}/337.2")
