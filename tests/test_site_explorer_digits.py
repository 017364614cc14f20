"""The timing explorer's numbers (a frame, the options of a path or a choice) are ASCII
digits: a character str.isdigit takes that int cannot read ('²', '①') is a 400 naming the
field, as a letter is, never a 500."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from test_site import Page, app, client, site_kb  # noqa: F401 (the site's fixtures)

SCENARIO = "000-your-own-spell-starts-the-chain"

# (method, route, the form or query, what the page says)
CASES = [
    ("GET", "/timing", {"scenario": SCENARIO, "frame": "²"}, "Frame must be a positive whole number"),
    ("POST", "/timing", {"yaml": "steps: []", "frame": "²"}, "Frame must be a positive whole number"),
    ("GET", "/timing/next", {"scenario": SCENARIO, "frame": "²"}, "Frame must be a positive whole number"),
    ("POST", "/timing/next", {"yaml": "steps: []", "frame": "①"}, "Frame must be a positive whole number"),
    ("GET", "/timing/next", {"scenario": SCENARIO, "frame": "1", "path": "0.²"},
     "Path is option numbers joined by dots"),
    ("GET", "/timing/next", {"scenario": SCENARIO, "frame": "1", "path": "", "choose": "³"},
     "Choose is option numbers joined by dots"),
    ("GET", "/timing", {"scenario": SCENARIO, "frame": "x"}, "Frame must be a positive whole number"),
]


@pytest.mark.parametrize("method,route,values,message", CASES,
                         ids=[f"{c[0]} {c[1]} {c[3].split()[0]}={c[2].get('choose') or c[2].get('path') or c[2]['frame']}"
                              for c in CASES])
def test_a_number_that_is_no_ascii_digit_is_refused(client: FlaskClient, method: str, route: str,
                                                    values: dict[str, str], message: str) -> None:
    r = client.get(route, query_string=values) if method == "GET" else client.post(route, data=values)
    assert r.status_code == 400, r.get_data(as_text=True)[-500:]
    assert message in Page(r.get_data(as_text=True)).plain
