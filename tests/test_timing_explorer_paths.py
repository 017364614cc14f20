"""The timing explorer's worked scenarios asked for by path: ``/timing/NAME`` (and
``/timing/RULESET/NAME``) is sent on to ``/timing?scenario=NAME``, the frame kept; an unknown
name is a 404 page that lists the worked scenarios, each a link; ``/timing/next`` is still its
own page."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from kb.query import KnowledgeBase
from kb.timing import list_scenarios
from web import create_app


@pytest.fixture(scope="module")
def client(excerpt_kb: KnowledgeBase) -> Any:
    return create_app(kb=excerpt_kb).test_client()


@pytest.mark.parametrize("path,scenario,frame", [
    ("/timing/003-the-combat-showdown", "003-the-combat-showdown", None),
    ("/timing/riftbound/003-the-combat-showdown", "riftbound/003-the-combat-showdown", None),
    ("/timing/003-the-combat-showdown?frame=4", "003-the-combat-showdown", "4"),
])
def test_a_worked_scenario_by_path_is_sent_to_its_page(client: Any, path: str, scenario: str,
                                                      frame: str | None) -> None:
    r = client.get(path)
    assert r.status_code == 302
    target = urlsplit(r.headers["Location"])
    assert target.path == "/timing"
    assert parse_qs(target.query) == {"scenario": [scenario], **({"frame": [frame]} if frame else {})}
    page = client.get(r.headers["Location"])
    assert page.status_code == 200 and f"Frame {frame or 1} of" in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/timing/no-such-scenario", "/timing/riftbound/003-the-combat-showdow",
                                  "/timing/<script>"])
def test_an_unknown_scenario_by_path_is_a_404_naming_the_known_ones(client: Any, path: str) -> None:
    r = client.get(path)
    text = r.get_data(as_text=True)
    assert r.status_code == 404 and r.mimetype == "text/html"
    assert "No worked scenario" in text and "<script>" not in text
    for s in list_scenarios():
        assert f">{s['name']}</a>" in text, s["name"]


def test_the_next_page_keeps_its_own_address(client: Any) -> None:
    assert client.get("/timing/next").status_code == 200
