"""The timing model run in an edition it does not cite directly (Riftbound 1.3 and 1.2, the
model citing 1.4): it runs, every rule it gives is carried to that edition's numbering, and
a cited rule with no counterpart there is said in the trace instead of refusing the run.
Magic plays by the editions it cites (2010-10-01, 2026-01-16) and refuses another one,
saying why. The CLI and the site read a scenario through one safe loader, which refuses
YAML aliases with the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import REPO, corpus_graph, requires_shared
from kb.cli import main
from kb.editions.queries import map_number
from kb.graph import build_edition
from kb.query import KnowledgeBase, QueryError
from kb.read import read_document
from kb.timing import load_scenario
from kb.timing.scenario import ScenarioError, loads
from test_api import CheckedClient
from web import create_app
from web.site.explorer import parse_scenario

# (worked scenario, edition it is run in): each runs as in 1.4, its rules carried.
CARRIED_RUNS = [
    ("riftbound/003-the-combat-showdown", "1.3"),
    ("riftbound/000-your-own-spell-starts-the-chain", "1.3"),
    ("riftbound/001-a-reaction-add-ability-pays-mid-payment-off-the-chain", "1.3"),
    ("riftbound/a-death-replaced-by-zhonyas-hourglass-is-no-death-and-its-deathknell-never-resolves", "1.3"),
]


def carried(kb: KnowledgeBase, number: str, edition: str) -> str | None:
    """Where the mapping puts a rule of 1.4 in ``edition`` (None: no counterpart)."""
    try:
        return map_number(kb, "riftbound", number, "1.4", edition)["target"]
    except QueryError:  # an excerpt without the rule
        return None


def assert_carried(kb: KnowledgeBase, name: str, edition: str) -> dict[str, Any]:
    """Run ``name`` in 1.4 and in ``edition``: the same frames, each listing the 1.4 frame's
    rules as the mapping carries them, and each rule with no counterpart said."""
    data = load_scenario(name)
    own = kb.timing_run({**data, "edition": "1.4"})
    run = kb.timing_run({**data, "edition": edition})
    assert run["edition"] == edition
    assert [f["event"] for f in run["frames"]] == [f["event"] for f in own["frames"]]
    for old, new in zip(own["frames"], run["frames"]):
        targets = {n: carried(kb, n, edition) for n in old["rules"]}
        assert new["rules"] == list(dict.fromkeys(t for t in targets.values() if t)), old["event"]
        gaps = [n for n, t in targets.items() if t is None]
        assert [g["rule"] for g in new.get("no_counterpart", [])] == gaps, old["event"]
        for gap in gaps:
            assert f"riftbound 1.4 rule {gap} has no counterpart in {edition}" in new["why"]
    return run


@pytest.mark.parametrize(("name", "edition"), CARRIED_RUNS)
def test_a_worked_scenario_runs_in_an_older_edition_with_its_rules_carried(
        excerpt_kb: KnowledgeBase, name: str, edition: str) -> None:
    assert_carried(excerpt_kb, name, edition)


def test_next_in_an_older_edition_lists_its_options_in_that_editions_numbers(excerpt_kb: KnowledgeBase) -> None:
    run = excerpt_kb.timing_run({**load_scenario("riftbound/003-the-combat-showdown"), "edition": "1.3"})
    state = run["frames"][0]["state"]
    own = excerpt_kb.timing_next(state, edition="1.4")
    older = excerpt_kb.timing_next(state, edition="1.3")
    assert older["edition"] == "1.3"
    for a, b in zip(own["decision"]["options"] + own["decision"]["illegal"],
                    older["decision"]["options"] + older["decision"]["illegal"]):
        want = [t for n in a["rules"] if (t := carried(excerpt_kb, n, "1.3"))]
        assert b["rules"] == list(dict.fromkeys(want)), a["label"]


def riftbound_1_3_alone() -> KnowledgeBase:
    result, _ = read_document(REPO / "rules" / "riftbound" / "core-rules-1.3-excerpt.md")
    return KnowledgeBase.from_graphs([build_edition(result, ruleset="riftbound", edition="1.3", partial=True)])


def magic_with_a_third_edition(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    result, _ = read_document(REPO / "rules" / "mtg" / "comprehensive-rules-2026-01-16-excerpt.txt")
    third = build_edition(result, ruleset="mtg", edition="2027-02-01", partial=True)
    return KnowledgeBase.from_graphs([excerpt_kb.edition("mtg", "2026-01-16"), third])


MAGIC = {"name": "Magic in another edition.", "ruleset": "mtg", "players": ["Ann", "Bo"],
         "steps": [{"expect": {"priority": "Ann"}}]}
RIFTBOUND = {"name": "Riftbound in another edition.", "ruleset": "riftbound", "players": ["Ann", "Bo"],
             "steps": [{"expect": {"priority": "Ann"}}]}

# (knowledge base, scenario, edition, status, what the message says)
REFUSALS = [
    ("excerpt", RIFTBOUND, "9.9", 404, "unknown edition '9.9' of riftbound"),
    ("riftbound 1.3 alone", RIFTBOUND, "1.3", 422, "cites edition 1.4, which is not built, so its citations "
                                                   "cannot be carried to edition 1.3"),
    ("magic with a third edition", MAGIC, "2027-02-01", 422, "plays by the rules of edition 2026-01-16 or "
                                                             "2010-10-01 (its steps differ between them)"),
]


def knowledge_base(which: str, excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return {"excerpt": lambda: excerpt_kb, "riftbound 1.3 alone": riftbound_1_3_alone,
            "magic with a third edition": lambda: magic_with_a_third_edition(excerpt_kb)}[which]()


@pytest.mark.parametrize(("which", "scenario", "edition", "status", "says"), REFUSALS)
def test_an_edition_the_model_cannot_serve_is_refused_saying_why(
        excerpt_kb: KnowledgeBase, which: str, scenario: dict[str, Any], edition: str, status: int,
        says: str) -> None:
    kb = knowledge_base(which, excerpt_kb)
    with pytest.raises(QueryError) as err:
        kb.timing_run({**scenario, "edition": edition})
    assert err.value.status == status and says in err.value.message
    with pytest.raises(QueryError) as err:
        kb.timing_next({"ruleset": scenario["ruleset"], "players": ["Ann", "Bo"]}, edition=edition)
    assert err.value.status == status and says in err.value.message


# (method, url, body, a dotted path into the answer, its value)
API_CASES = [
    ("POST", "/api/v1/timing/run", {**load_scenario("riftbound/003-the-combat-showdown"), "edition": "1.3"},
     "edition", "1.3"),
    ("POST", "/api/v1/timing/next?edition=1.3", {"ruleset": "riftbound", "players": ["Ann", "Bo"]},
     "edition", "1.3"),
    ("POST", "/api/v1/timing/next?edition=1.2", {"ruleset": "riftbound", "players": ["Ann", "Bo"]},
     "error.status", 404),
]


@pytest.fixture(scope="module")
def api(excerpt_kb: KnowledgeBase) -> CheckedClient:
    return CheckedClient(create_app(kb=excerpt_kb))


@pytest.mark.parametrize(("method", "url", "body", "path", "value"), API_CASES)
def test_the_api_runs_the_model_in_an_older_edition(api: CheckedClient, method: str, url: str,
                                                    body: dict[str, Any], path: str, value: Any) -> None:
    resp = api.open(method, url, json=body)  # every answer is checked against the OpenAPI description
    got: Any = resp.get_json()
    for key in path.split("."):
        got = got[key]
    assert got == value


def test_the_site_explores_a_scenario_pasted_for_an_older_edition(api: CheckedClient) -> None:
    text = (REPO / "kb" / "timing" / "scenarios" / "riftbound" / "003-the-combat-showdown.yaml").read_text(
        encoding="utf-8").replace('edition: "1.4"', 'edition: "1.3"')
    combat_opens = api.client.post("/timing", data={"yaml": text, "frame": "4"})
    assert combat_opens.status_code == 200
    assert b'riftbound/1.3/459.2.a"' in combat_opens.data  # 1.4's 464.2.a is 1.3's 459.2.a
    start_of_combat = api.client.post("/timing", data={"yaml": text, "frame": "5"}).get_data(as_text=True)
    assert "riftbound 1.4 rule 464.2.b has no counterpart in 1.3" in start_of_combat


# -- the full documents ------------------------------------------------------------------
@pytest.fixture(scope="module")
def full_riftbound() -> KnowledgeBase:
    return KnowledgeBase.from_graphs([corpus_graph("riftbound", e) for e in ("1.2", "1.3", "1.4")])


@requires_shared
@pytest.mark.parametrize(("name", "edition"), [
    ("riftbound/003-the-combat-showdown", "1.3"),
    ("riftbound/003-the-combat-showdown", "1.2"),
    ("riftbound/001-a-reaction-add-ability-pays-mid-payment-off-the-chain", "1.2"),
])
def test_the_full_documents_quote_every_carried_rule(full_riftbound: KnowledgeBase, name: str,
                                                     edition: str) -> None:
    run = assert_carried(full_riftbound, name, edition)
    rg = full_riftbound.edition("riftbound", edition)
    assert all(n in rg.edition.rules for f in run["frames"] for n in f["rules"])  # a complete edition


@requires_shared
@pytest.mark.parametrize("name", ["mtg/002-two-legendary-creatures-go-before-anyone-gets-priority",
                                  "mtg/002-under-the-2026-legend-rule-each-player-keeps-their-own-legend"])
def test_magic_runs_by_each_full_edition_it_cites_quoting_every_rule(name: str) -> None:
    kb = KnowledgeBase.from_graphs([corpus_graph("mtg", "2010-10-01"), corpus_graph("mtg", "2026-01-16")])
    run = kb.timing_run(load_scenario(name))
    assert run["ok"] and "no_counterpart" not in str(run)
    assert "not in the loaded corpus" not in str(run) and "has no counterpart" not in str(run)


# -- YAML aliases ------------------------------------------------------------------------
BOMB = """name: An alias expands.
ruleset: riftbound
players: [Ann, Bo]
cards: &pool {Fireball: {type: spell}}
battlefields: *pool
steps: [{pass: Ann}]
"""


def test_a_scenario_with_an_alias_is_refused_with_its_file_and_line() -> None:
    with pytest.raises(ScenarioError) as err:
        loads(BOMB, "bomb.yaml")
    assert err.value.line == 5 and err.value.file == "bomb.yaml"
    assert "aliases (*pool) are not accepted" in str(err.value)
    with pytest.raises(QueryError) as site:  # the site's paste reads it the same way
        parse_scenario(BOMB)
    assert site.value.status == 400 and "line 5" in site.value.message
    assert "aliases (*pool) are not accepted" in site.value.message


def test_the_cli_refuses_a_scenario_file_with_an_alias(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB, encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(tmp_path / "home"), "timing", "run", str(path)])
    assert result.exit_code == 2
    assert f"{path}:5: not valid YAML: aliases (*pool) are not accepted" in result.output


def test_what_happens_next_from_a_frame_of_a_scenario_pasted_for_an_older_edition_is_answered_in_it(
        api: CheckedClient) -> None:
    text = (REPO / "kb" / "timing" / "scenarios" / "riftbound" / "003-the-combat-showdown.yaml").read_text(
        encoding="utf-8").replace('edition: "1.4"', 'edition: "1.3"')
    page = api.client.post("/timing/next", data={"yaml": text, "frame": "4"}).get_data(as_text=True)
    assert 'riftbound/1.3/459.2.b"' in page and 'riftbound/1.4/' not in page  # 1.4's 464.2.b.. is 1.3's 459.2.b..
