"""A rule page for a number the ruleset lacks says where it is, as the API and the CLI do:
a number only Magic holds (/riftbound/1.4/117.3d) and a number whose prefix names Magic
(/riftbound/1.4/CR 117.3d) both answer the site's 404 page naming Magic's rule, with a link
to it; a number no ruleset holds links nowhere else (acceptance A18, F29)."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from kb.query import KnowledgeBase
from web import create_app

# (page, the sentence the 404 page says, the rule pages it links under "In other rulesets")
PAGES = [
    ("/riftbound/1.4/117.3d", "mtg 2026-01-16 has 117.3d", ["/mtg/2026-01-16/117.3d"]),
    ("/riftbound/1.4/CR%20117.3d", "names mtg by its prefix, not riftbound", ["/mtg/2026-01-16/117.3d"]),
    ("/riftbound/1.4/CR%20999.9z", "names mtg by its prefix, not riftbound", []),
    ("/riftbound/1.4/337.99", "does not exist in riftbound 1.4", []),
]


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> FlaskClient:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize(("page", "said", "links"), PAGES)
def test_a_missing_rule_page_names_the_ruleset_that_has_it(client: FlaskClient, page: str, said: str,
                                                           links: list[str]) -> None:
    response = client.get(page)
    html = response.get_data(as_text=True)
    assert response.status_code == 404
    assert said in html
    section = html.split("In other rulesets", 1)[1].split("</ul>", 1)[0] if "In other rulesets" in html else ""
    linked = [re.sub(r"^(\.\./)+", "/", h) for h in re.findall(r'href="([^"]+)"', section)]
    assert [h if h.startswith("/") else "/" + h for h in linked] == links
