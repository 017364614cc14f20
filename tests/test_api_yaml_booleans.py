"""A scenario written in YAML and read by PyYAML (YAML 1.1) before it is posted: an unquoted
``on:`` key reads as ``true`` (``off:``/``no:`` as ``false``), which JSON sends as the key
"true". The 422 naming that unknown key says why it is there and how to keep the word
(kb.timing.fields.nearest), on the API and on the command line (whose YAML reader gives a
bool key, ``True``). On the embedded excerpts.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kb.cli import main
from web import create_app

YETI = "{type: unit, cost: 1, triggers: [{%s: play, name: Yeti draws, effects: [{draw: 1}]}]}"
BEAR = "{type: creature, cost: 2, power: 2, toughness: 2, triggers: [{%s: dies, effects: [{draw: 1}]}]}"


def scenario(ruleset: str, card: str, top: str = "") -> str:
    """A scenario's YAML with one card and one pass, ``top`` a line more at its top level."""
    return (f"name: a scenario written by hand\nruleset: {ruleset}\nplayers: [Ann, Bo]\n{top}"
            f"cards:\n  It: {card}\nsteps:\n  - pass: Ann\n")


# the scenario's YAML, the place named, the words of the hint (None: no hint, not refused for it)
CASES = [
    (scenario("riftbound", YETI % "on"), "cards.It.triggers[0]", "did you mean 'on'? YAML 1.1 reads `on` as true"),
    (scenario("mtg", BEAR % "on"), "cards.It.triggers[0]", "did you mean 'on'? YAML 1.1 reads `on` as true"),
    (scenario("riftbound", YETI % "yes"), "cards.It.triggers[0]", "YAML 1.1 reads `on` as true: quote it ('on')"),
    (scenario("riftbound", YETI % "'on'"), None, None),
    (scenario("riftbound", YETI % "onn"), "cards.It.triggers[0]", None),  # a plain typo: no YAML hint
    (scenario("riftbound", YETI % "on", top="on: x\n"), "true", "YAML 1.1 reads `on` or `yes` as true"),
    (scenario("riftbound", YETI % "on", top="off: x\n"), "false", "YAML 1.1 reads `off` or `no` as false"),
    (scenario("riftbound", "{type: unit, cost: 1, on: play}"), "cards.It", "`on` or `yes` as true: quote it"),
]


@pytest.mark.parametrize(("text", "field", "hint"), CASES)
def test_api(excerpt_home: Path, text: str, field: str | None, hint: str | None) -> None:
    client = create_app(excerpt_home).test_client()
    body = json.dumps(yaml.safe_load(text))
    resp = client.post("/api/v1/timing/run", data=body, content_type="application/json")
    if field is None:
        assert resp.status_code == 200, resp.get_data(as_text=True)
        return
    assert resp.status_code == 422
    error = resp.get_json()["error"]
    assert error["detail"]["field"] == field
    assert "unknown key" in error["message"]
    if hint is None:
        assert "YAML 1.1" not in error["message"]
    else:
        assert hint in error["message"]


# the scenario's YAML, the words of the CLI's error line
CLI_CASES = [
    (scenario("riftbound", YETI % "on", top="on: x\n"), "unknown key 'True'; YAML 1.1 reads `on` or `yes` as true"),
    (scenario("mtg", "{type: creature, cost: 2, power: 2, toughness: 2, no: 1}"),
     "unknown key 'False'; YAML 1.1 reads `off` or `no` as false"),
]


@pytest.mark.parametrize(("text", "said"), CLI_CASES)
def test_cli(excerpt_home: Path, tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(path)])
    assert out.exit_code == 2, out.output
    assert said in out.output and "Traceback" not in out.output
