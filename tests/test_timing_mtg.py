"""The Magic timing model: every mtg scenario file (the seed article's examples and our own
cases), both editions, ``next`` on Magic states, refused states with the rule they break,
malformed input, the citation check on the real 2010 and 2026 documents, the CLI and the API."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.cli import main
from kb.query import KnowledgeBase, QueryError
from kb.timing import engine, list_scenarios, load_scenario, scenario_files
from kb.timing.engine import FormatError
from kb.timing.models import get_model
from kb.timing.models.mtg import scenario as mtg_scenario, state_io
from kb.timing.models.mtg import (CITATIONS, CITATIONS_BY_EDITION, EDITION_2010, EDITION_2026,
                                  MAPPING_CORRECTIONS, NUMBERS_2010, Magic)
from kb.timing.scenario import ScenarioError, load, run

from conftest import REPO, SEEDS, corpus_graph, requires_shared

SCENARIOS = scenario_files("mtg") + sorted((REPO / "tests" / "scenarios" / "mtg").glob("*.yaml"))
# The scenarios whose outcome depends on the edition (the legend rule changed), with the legend
# rule's steps each takes in 2010 and in 2026.
EDITION_SPECIFIC = {
    "002-two-legendary-creatures-go-before-anyone-gets-priority": [{"legend-rule"}, set()],
    "002-under-the-2026-legend-rule-each-player-keeps-their-own-legend": [{"legend-rule"}, set()],
    # 2010: both Emrakuls would go, and both are exiled instead; 2026: the second only
    "the-legendary-permanent-the-legend-rule-would-put-into-the-graveyard-is-exiled-instead-when-a-replacement-"
    "effect-says-so": [{"legend-rule-replaced"}, {"legend-rule-replaced"}],
}
# The scenarios of special actions the 2010 rules do not have (their 115.2 lists six): run as of
# 2010, the step that takes one is refused by that rule.
NOT_IN_2010 = {"foretelling-is-a-special-action-any-time-during-your-own-turn-and-the-foretold-card-is-cast-only-after"
               "-that-turn": "foretells",
               "a-plotted-card-even-one-with-flash-is-cast-free-on-a-later-turn-only-in-its-owners-main-phase-with-an"
               "-empty-stack": "plots"}
# The scenarios of a creature blocked by two, which the editions handle differently: 2010 has the
# active player announce a damage assignment order as blockers are declared (its 509.2), 2026 has
# them divide the damage at the combat damage step (510.1c). Per scenario and edition (2010, 2026):
# the decision that edition takes, or, where the scenario's assign step is the other edition's,
# the rule its refusal cites there.
DAMAGE_DIVISION = {
    "in-the-2010-rules-the-attacking-player-orders-two-blockers-as-they-are-declared-and-the-first-pumped-afterwards-"
    "takes-all-the-damage": ("order-blockers", "510.1c"),
    "in-the-2026-rules-the-attacking-player-divides-combat-damage-among-two-blockers-as-they-choose-and-kills-the-one-"
    "not-pumped": ("510.1c", "assign-combat-damage"),
    "a-creature-blocked-by-two-whose-order-and-division-the-scenario-leaves-out-assigns-lethal-damage-to-each-blocker-"
    "in-the-order-they-were-listed": ("order-blockers", "assign-combat-damage"),
    "in-the-2010-rules-a-creature-blocked-by-two-may-assign-more-than-lethal-damage-to-the-first-in-its-order":
    ("order-blockers", "510.1c"),
    "in-the-2010-rules-a-two-two-with-deathtouch-blocked-by-two-four-fours-assigns-1-to-each-in-its-order-and-"
    "destroys-both": ("order-blockers", "510.1c"),
}
# The scenarios of a keyword the 2010 rules lack: set up as of 2010, the card pool is refused, at
# the card, naming the edition.
REFUSED_IN_2010 = {"targeting-an-opponents-creature-with-ward-triggers-it-and-the-spell-is-countered-unless-its-"
                   "controller-pays": "cards.Sentinel.keywords",
                   "a-creature-with-menace-cannot-be-blocked-by-one-creature-but-can-by-two":
                   "cards.Goblin Heelcutter.keywords"}
# Every example of the seed article, by the cards it names: (card, packaged scenario).
SEED_EXAMPLES = [
    ("Jackal Pup", "002-the-attacker-dies-and-its-trigger-waits-before-priority-returns"),
    ("Cancel", "002-a-counterspell-goes-above-the-spell-it-counters"),
    ("Fireball", "002-a-counterspell-goes-above-the-spell-it-counters"),
    ("Runeclaw Bear", "002-creatures-and-sorceries-wait-for-your-main-phase-and-an-empty-stack"),
    ("Lightning Bolt", "002-an-instant-can-be-cast-whenever-you-have-priority"),
    ("Temple Bell", "002-activated-abilities-any-time-unless-they-say-otherwise"),
    ("Kuldotha Phoenix", "002-activated-abilities-any-time-unless-they-say-otherwise"),
    ("Exalted Angel", "002-turning-a-creature-face-up-any-time-but-one-land-per-turn"),
    ("Mountain", "002-turning-a-creature-face-up-any-time-but-one-land-per-turn"),
    ("Llanowar Elves", "002-mana-abilities-while-paying-a-cost"),
    ("Broken Ambitions", "002-mana-abilities-during-resolution-when-a-payment-is-asked"),
    ("Howling Mine", "002-a-draw-step-trigger-for-each-player-whoever-gets-priority"),
    ("Wake Thrasher", "002-four-untap-triggers-wait-for-the-upkeep"),
    ("Emrakul, the Aeons Torn", "002-two-legendary-creatures-go-before-anyone-gets-priority"),
    ("Smallpox", "002-choices-during-resolution-give-no-one-priority"),
    ("Honor of the Pure", "002-a-static-ability-applies-without-the-stack-or-priority"),
]


def _run(path: Path, edition: str | None = None) -> Any:
    sc = load(path)
    if edition:
        sc.data = {**sc.data, "edition": edition}
        sc.edition = edition
    return run(sc)


# -- every scenario file ----------------------------------------------------------------------
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    result = _run(path)
    failures = [f"step {e.step}: expected {e.expected}, got {e.actual}" for e in result.expectations if not e.ok]
    assert result.error is None, result.error
    assert not failures, "\n".join(failures)
    assert result.expectations, "a scenario checks something"
    assert result.scenario.name.endswith("."), "a scenario's name is a sentence"
    for frame in result.frames:  # every frame's state is valid input for `next` and reads back
        model, state, violations = state_io.state_from_json(frame.state)
        assert not violations and not model.validate(state)
        assert state == frame.node.after
        assert model.edition == result.scenario.edition


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_both_editions_take_the_same_steps(path: Path) -> None:
    """The procedure is the same in 2010 and 2026 (only the numbers differ), except the
    legend rule, which changed: those scenarios must differ."""
    if path.stem in REFUSED_IN_2010:
        with pytest.raises(ScenarioError) as refused:
            _run(path, EDITION_2010)
        assert refused.value.field == REFUSED_IN_2010[path.stem] and "not in the mtg 2010-10-01 rules" in str(refused.value)
        return
    runs = [_run(path, edition) for edition in (EDITION_2010, EDITION_2026)]
    if path.stem in NOT_IN_2010:
        error = runs[0].error
        assert error["type"] == "illegal-step" and error["rules"] == ["115.2"], error
        assert NOT_IN_2010[path.stem] in error["message"] and runs[1].error is None
        return
    events = [[(f.node.name, f.node.label) for f in r.frames] for r in runs]
    if path.stem in DAMAGE_DIVISION:
        for r, want, other in zip(runs, DAMAGE_DIVISION[path.stem], ("assign-combat-damage", "order-blockers")):
            taken = {f.node.name for f in r.frames}
            if want in r.model.transitions:
                # 2010 divides too where more than lethal could go to an earlier blocker (510.1c)
                assert r.error is None and want in taken and (other not in taken or r.model.damage_order), \
                    (r.error, taken)
            else:
                assert r.error is not None and r.error["type"] == "illegal-step" and want in r.error["rules"], r.error
        return
    if path.stem in EDITION_SPECIFIC:
        assert events[0] != events[1]
        legend = [{n.name for f in r.frames for n in f.node.walk() if n.name.startswith("legend-rule")}
                  for r in runs]
        assert legend == EDITION_SPECIFIC[path.stem]
    else:
        assert events[0] == events[1]
        rules = [{r for f in run.frames for n in f.node.walk() for r in n.rules} for run in runs]
        assert rules[0] == {NUMBERS_2010[r] for r in rules[1]} - {None}


def test_every_transition_has_a_case() -> None:
    taken = {n.name for path in SCENARIOS for f in run(load(path)).frames for n in f.node.walk()}
    missing = set(Magic().transitions) - taken
    assert not missing, f"no scenario takes {sorted(missing)}"


def test_seed_examples_are_packaged_and_listed() -> None:
    listed = {s["name"]: s for s in list_scenarios("mtg")}
    for card, name in SEED_EXAMPLES:
        assert name in listed, name
        assert card in load_scenario(name)["cards"], (card, name)
        assert load_scenario(f"mtg/{name}")["ruleset"] == "mtg"
    assert all(s["title"].endswith(".") and s["ruleset"] == "mtg" for s in listed.values())
    seed = SEEDS / "002_9a7deb60968bf8c2.txt"
    if seed.exists():  # the examples are the article's own
        text = seed.read_text(encoding="utf-8")
        assert all(card in text for card, _ in SEED_EXAMPLES)


# -- what happens next ---------------------------------------------------------------------------
CARDS = {
    "Bear": {"type": "creature", "power": 2, "toughness": 2},
    "Bolt": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 3}}]},
    "Pup": {"type": "creature", "power": 2, "toughness": 1,
            "triggers": [{"on": "dealt-damage", "name": "Pup's ability",
                          "effects": [{"damage": {"to": "you", "amount": "that"}}]}]},
    "Forest": {"type": "land"},
    "Pox": {"type": "sorcery", "effects": [{"discard": "each"}]},
}


def _state(**kw: Any) -> dict[str, Any]:
    return {"ruleset": "mtg", "players": ["Ann", "Bo"], "step": "main1", "cards": CARDS, **kw}


def _next(state: dict[str, Any], edition: str | None = None) -> Any:
    model, s, violations = state_io.state_from_json(state, edition)
    assert not violations
    return model, engine.next_steps(model, s)


# (why, state, automatic steps taken, decider, a legal option, an illegal option, a rule forbidding it)
NEXT_CASES = [
    ("a creature waits for an empty stack", _state(priority="Ann", hands={"Ann": ["Bear", "Bolt"]},
                                                   stack=[{"name": "Bolt", "controller": "Bo", "target": "Ann"}]),
     [], "Ann", "Ann casts Bolt targeting Ann", "Ann casts Bear", "117.1a"),
    ("the opponent's land waits for their turn", _state(priority="Bo", hands={"Bo": ["Forest"]}),
     [], "Bo", "Bo passes", "Bo plays Forest", "305.3"),
    ("waiting triggers go on the stack before priority",
     _state(due="Ann", due_reason="resolved", waiting=[{"name": "Pup's ability", "kind": "trigger",
                                                          "controller": "Bo", "amount": 3}]),
     ["put-triggers-on-stack", "receive-priority-resolved"], "Ann", "Ann passes", None, None),
    ("state-based actions first, then the dies trigger, then priority",
     _state(due="Ann", due_reason="resolved", battlefield=[{"card": "Pup", "controller": "Bo", "damage": 3}]),
     ["state-based-actions", "receive-priority-resolved"], "Ann", "Ann passes", None, None),
    ("nobody has priority while a spell asks for choices",
     _state(stack=[{"name": "Pox", "controller": "Ann", "id": 1}], hands={"Ann": ["Bear"], "Bo": ["Bolt"]},
            resolving={"item": {"name": "Pox", "controller": "Ann", "id": 1}, "asked": ["Ann", "Bo"]}),
     [], "Ann", "Ann chooses Bear", "Bo casts Bolt targeting Ann", "117.2e"),
    ("the untap step passes without priority",
     _state(step="untap", begun=False, battlefield=[{"card": "Bear", "tapped": True}]),
     ["begin-step", "untap-step-ends", "begin-step", "receive-priority-step"], "Ann", "Ann passes", None, None),
    ("all passed: the top of the stack resolves",
     _state(passes=2, stack=[{"name": "Bolt", "controller": "Bo", "target": "Ann"}]),
     ["resolve", "receive-priority-resolved"], "Ann", "Ann passes", None, None),
    ("the active player has left the game: the next player receives priority",
     _state(players=["Ann", "Bo", "Cy"], lost=["Ann"], life={"Ann": 0}, due="Ann", due_reason="resolved"),
     ["receive-priority-resolved"], "Bo", "Bo passes", None, None),
    ("attackers are declared without priority", _state(step="declare-attackers", awaiting="declare-attackers",
                                                       battlefield=[{"card": "Bear"}]),
     [], "Ann", "Ann attacks with Bear", "Ann passes", "117.1"),
]


@pytest.mark.parametrize("why,state,steps,decider,legal,illegal,rule", NEXT_CASES, ids=[c[0] for c in NEXT_CASES])
def test_next(why: str, state: dict[str, Any], steps: list[str], decider: str, legal: str,
              illegal: str | None, rule: str | None) -> None:
    model, out = _next(state)
    assert [n.name for n in out.steps] == steps
    assert out.decision is not None and out.decision.decider == decider
    assert legal in [o.label for o in out.decision.options]
    if illegal:
        found = next(o for o in out.decision.illegal if o.label == illegal)
        assert rule in [r for c in found.forbidden_by for r in c.rules]
        assert illegal not in [o.label for o in out.decision.options]


def test_next_in_2010_numbers_and_the_2010_legend_rule() -> None:
    legends = {"Emrakul": {"type": "creature", "legendary": True, "power": 15, "toughness": 15}}
    state = _state(cards=legends, due="Ann", due_reason="resolved", battlefield=[
        {"name": "Emrakul", "controller": "Ann"}, {"name": "Emrakul #2", "card": "Emrakul", "controller": "Bo"}])
    model, out = _next(state, EDITION_2010)
    sba = out.steps[0]
    assert sba.name == "state-based-actions" and "704.5k" in [r for n in sba.walk() for r in n.rules]
    assert not out.state.board and out.decision.decider == "Ann"
    model, out = _next({**state, "edition": EDITION_2026})
    assert [n.name for n in out.steps] == ["receive-priority-resolved"] and len(out.state.board) == 2
    with pytest.raises(FormatError, match="edition"):
        state_io.state_from_json({**state, "edition": EDITION_2026}, EDITION_2010)


# -- states the rules cannot produce ------------------------------------------------------------------
REFUSED = [
    ("two players hold priority", _state(priority=["Ann", "Bo"]), "117.3", "116.3"),
    ("priority while resolving", _state(priority="Ann", stack=[{"name": "Pox", "id": 1}],
                                        resolving={"item": {"name": "Pox", "id": 1}}), "117.2e", "116.2e"),
    ("priority in the untap step", _state(step="untap", priority="Ann"), "502.4", "502.3"),
    ("priority with a trigger waiting", _state(priority="Ann", waiting=[{"name": "Pup's ability"}]),
     "117.5", "116.5"),
    ("priority while a creature has lethal damage", _state(priority="Ann", battlefield=[{"card": "Pup",
                                                                                         "damage": 1}]),
     "704.3", "704.3"),
    ("priority while a spell is paid for", _state(priority="Ann", stack=[{"name": "Bear", "id": 1}],
                                                  payment={"player": "Ann", "amount": 2, "purpose": "cast",
                                                           "what": "Bear", "item": 1}), "601.2i", "601.2h"),
    ("a land on the stack", _state(priority="Ann", stack=[{"name": "Forest"}]), "305.1", "305.1"),
    ("nobody to act", _state(stack=[{"name": "Bolt", "target": "Bo"}]), "117.3", "116.3"),
    ("all passed yet someone has priority", _state(priority="Ann", passes=2), "117.4", "116.4"),
    ("spells in the untap step", _state(step="untap", begun=True, stack=[{"name": "Bolt", "target": "Bo"}]),
     "502.4", "502.3"),
    ("a blocked creature that is not attacking",
     _state(priority="Ann", battlefield=[{"card": "Bear", "blocked": True}]), "509.1h", "509.1h"),
    ("priority held by a player who has left", _state(players=["Ann", "Bo", "Cy"], lost=["Bo"], priority="Bo"),
     "800.4a", "800.4a"),
    ("a permanent of a player who has left", _state(players=["Ann", "Bo", "Cy"], lost=["Cy"], priority="Ann",
                                                     battlefield=[{"card": "Bear", "controller": "Cy"}]),
     "800.4a", "800.4a"),
    ("the draw step of a two-player game's first turn", _state(step="draw", priority="Ann"), "103.8a", "103.7a"),
]


def test_a_scenario_cannot_start_in_the_skipped_first_draw_step() -> None:
    data = {"players": ["Ann", "Bo"], "cards": {}, "start": {"step": "draw"}}
    with pytest.raises(FormatError, match="103.8a") as err:
        mtg_scenario.setup(data)
    assert err.value.field == "start.step"
    mtg_scenario.setup({**data, "start": {"step": "draw", "turn": 2}})
    mtg_scenario.setup({**data, "players": ["Ann", "Bo", "Cy"]})  # 103.8c: no one skips it with three


@pytest.mark.parametrize("why,state,rule,rule_2010", REFUSED, ids=[c[0] for c in REFUSED])
def test_refused_states_name_the_rule(why: str, state: dict[str, Any], rule: str, rule_2010: str) -> None:
    for edition, number in ((EDITION_2026, rule), (EDITION_2010, rule_2010)):
        model, s, violations = state_io.state_from_json(state, edition)
        broken = violations + model.validate(s)
        assert broken, why
        assert number in [r for v in broken for r in v.rules], (edition, [v.as_dict() for v in broken])


MALFORMED = [
    ([], ""), ({"players": ["Ann"]}, "players"), (_state(step="second-main"), "step"),
    (_state(priority="Cy"), "priority"), (_state(stack=[{"name": "Nope", "kind": "spell"}]), "stack[0].name"),
    (_state(cards={"X": {"type": "planeswalker"}}), "cards.X.type"), (_state(edition="2019-01-01"), "edition"),
    (_state(awaiting="declare-attackers"), "awaiting"), (_state(surprise=1), "state"),
    (_state(payment={"player": "Ann", "amount": 1, "purpose": "cast", "what": "Bear", "item": 9}), "payment.item"),
    (_state(cards={"Bolt": {"type": "instant", "effects": [{"counter": "target"}]}}), "cards.Bolt.target"),
    (_state(cards={"Honor": {"type": "enchantment", "static": {"boost": 0}}}), "cards.Honor.static.boost"),
    (_state(cards={"Honor": {"type": "enchantment", "static": {"boost": 1, "color": "pink"}}}),
     "cards.Honor.static.color"),
    (_state(cards={"Honor": {"type": "enchantment", "static": {"boost": 1, "whom": "all"}}}), "cards.Honor.static"),
    (_state(cards={"Rally": {"type": "instant", "static": {"boost": 1}}}), "cards.Rally.static"),
    (_state(cards={"Knight": {"type": "creature", "color": ["white", "grey"]}}), "cards.Knight.color[1]"),
    (_state(exile=[{"owner": "Ann", "card": "Bear", "as": "banished"}]), "exile[0].as"),
    (_state(exile=[{"owner": "Ann", "card": "Bear", "as": "foretold", "time_counters": 2}]), "exile[0].time_counters"),
    (_state(exile=[{"owner": "Cy", "card": "Bear", "as": "plotted"}]), "exile[0].owner"),
    (_state(exile=[{"owner": "Ann", "card": "Nope", "as": "plotted"}]), "exile[0].card"),
    (_state(payment={"player": "Ann", "amount": 1, "purpose": "cast", "what": "Bear", "exiled": 7}), "payment.exiled"),
    (_state(step="main1", awaiting="choose-defender"), "awaiting"),
    (_state(cards={"Bolt": {"type": "instant", "suspend": {"time": 0}}}), "cards.Bolt.suspend.time"),
    (_state(cards={"Bolt": {"type": "instant", "foretell": -1}}), "cards.Bolt.foretell"),
]


@pytest.mark.parametrize("state,field", MALFORMED, ids=[m[1] or "not-an-object" for m in MALFORMED])
def test_malformed_states_name_the_field(state: Any, field: str) -> None:
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(state)
    assert err.value.field == field


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-2, 5), st.text(max_size=4),
                  st.sampled_from(["Ann", "Bo", "Bear", "Bolt", "Pox", "spell", "trigger", "main1", "untap",
                                   "target", "cast", "unless", "resolved", "each", "creature", "suspended",
                                   "foretold", "plotted", "choose-defender", "beginning-of-combat"]))
_VALUE = st.recursive(_LEAF, lambda c: st.one_of(
    st.lists(c, max_size=3),
    st.dictionaries(st.sampled_from(["name", "controller", "kind", "card", "player", "id", "target", "item",
                                     "amount", "purpose", "what", "asked", "index", "type", "effects",
                                     "damage", "tapped", "owner", "as", "time_counters", "exiled"]), c,
                                    max_size=3)), max_leaves=6)
_KEYS = ["step", "priority", "due", "due_reason", "passes", "awaiting", "stack", "waiting", "resolving",
         "payment", "battlefield", "hands", "graveyard", "life", "pool", "lands_played", "extra_turns", "lost",
         "begun", "edition", "turn", "exile", "defending"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(_KEYS), _VALUE, max_size=4))
def test_hostile_states_are_answered_never_crash(extra: dict[str, Any]) -> None:
    kb = KnowledgeBase.from_graphs([])
    try:
        out = kb.timing_next(_state(**extra))
    except QueryError as exc:
        assert exc.status in (400, 404, 422), exc.as_dict()
    else:
        assert out["ok"] and out["ruleset"] == "mtg"


# -- citations ----------------------------------------------------------------------------------------
def test_citations_are_one_table_carried_to_2010() -> None:
    cited = {r for rules in CITATIONS.values() for r in rules}
    assert cited <= set(NUMBERS_2010), sorted(cited - set(NUMBERS_2010))
    assert set(CITATIONS_BY_EDITION[EDITION_2010]) == set(CITATIONS)
    assert CITATIONS_BY_EDITION[EDITION_2010]["pass"] == ("116.3d",)
    spec = get_model("mtg")
    assert spec.editions == (EDITION_2026, EDITION_2010)
    assert spec.citations_for(EDITION_2010)["resolve"][0] == "116.4"
    assert spec.citations_for("1.4") is None


@requires_shared
@pytest.mark.parametrize("edition,prefix", [(EDITION_2010, "116"), (EDITION_2026, "117")])
def test_check_passes_on_the_real_documents(edition: str, prefix: str) -> None:
    kb = KnowledgeBase.from_graphs([corpus_graph("mtg", edition)])
    out = kb.timing_check("mtg", edition)
    assert out["ok"], out["unknown"]
    assert not out["partial"] and not out["lacking"]
    (cov,) = out["coverage"]["ranges"]
    assert cov["range"] == prefix
    # what no transition cites: shared team turns (the model plays no team games)
    assert cov["uncited"] == [f"{prefix}.6"]


@requires_shared
def test_2010_numbers_agree_with_the_edition_mapping() -> None:
    """Every 2010 number is the one ``KnowledgeBase.map_number`` finds, except the listed
    corrections (each with its reason), and each pair says the same thing."""
    kb = KnowledgeBase.from_graphs([corpus_graph("mtg", EDITION_2010), corpus_graph("mtg", EDITION_2026)])
    disagree = {}
    for number, old in NUMBERS_2010.items():
        mapped = kb.map_number("mtg", number, EDITION_2026, EDITION_2010)["target"]
        if mapped != old:
            disagree[number] = (mapped, old)
    assert set(disagree) == set(MAPPING_CORRECTIONS), disagree
    assert kb.rule("mtg", "704.5k", EDITION_2010)["text"].find("legend rule") > 0


@requires_shared
def test_explanations_quote_the_edition_of_the_scenario() -> None:
    kb = KnowledgeBase.from_graphs([corpus_graph("mtg", EDITION_2010), corpus_graph("mtg", EDITION_2026)])
    name = "002-the-attacker-dies-and-its-trigger-waits-before-priority-returns"
    out = kb.timing_run(load_scenario(name))
    assert out["ok"] and out["edition"] == EDITION_2010
    frame = next(f for f in out["frames"] if f["event"] == "state-based-actions")
    assert "116.5" in frame["rules"] and "704.5g" in frame["rules"]
    assert "Each time a player would get priority, the game first performs all applicable" in frame["why"]
    data = {**load_scenario(name), "edition": EDITION_2026}
    out = kb.timing_run(data)
    assert out["ok"] and "117.5" in next(f for f in out["frames"] if f["event"] == "state-based-actions")["rules"]
    rg = kb.edition("mtg", EDITION_2010)
    names = {t["name"] for t in kb.transitions_for(rg, "116.3d")}
    assert "pass" in names
    assert kb.transitions_for(rg, "117.3d") == []  # in 2010, 117.3d is not about priority


# -- the CLI and the API ----------------------------------------------------------------------------
@pytest.fixture()
def cli(tmp_path: Path) -> Any:
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None) -> Any:
        return runner.invoke(main, ["--home", str(tmp_path / "home"), "timing", *args], input=input)
    return invoke


def test_cli_run_next_and_list(cli: Any, tmp_path: Path) -> None:
    res = cli("run", "mtg/002-a-counterspell-goes-above-the-spell-it-counters", "--no-quotes")
    assert res.exit_code == 0, res.output
    assert "Cancel resolves." in res.stdout and "stack: Fireball (Ann)" in res.stdout
    assert "expectations: ok" in res.stdout
    state = _state(priority="Ann", hands={"Ann": ["Bear", "Bolt"]},
                   stack=[{"name": "Bolt", "controller": "Bo", "target": "Ann"}])
    res = cli("next", "--state", "-", input=json.dumps(state))
    assert res.exit_code == 0, res.output
    assert "Ann decides." in res.stdout and "Ann casts Bear" in res.stdout and "117.1a" in res.stdout
    res = cli("next", "--state", "-", "--json", input=json.dumps(_state(priority=["Ann", "Bo"])))
    assert res.exit_code == 2 and "117.3" in res.output
    res = cli("list", "--ruleset", "mtg")
    assert res.exit_code == 0 and "mtg/002-the-attacker-dies" in res.stdout


# (the state's stack, the --choose actions, exit code, text in the output): a path of choices, each
# taken in turn from the state the one before reached.
BOLT_ON_STACK = [{"name": "Bolt", "controller": "Bo", "target": "Ann"}]
CHOOSE_CASES = [
    ([], ['{"pass": "Ann"}'], 0, "Chosen: Ann passes."),
    ([], ['{"pass": "Ann"}', '{"pass": "Bo"}'], 0, "The precombat main phase ends."),
    ([], ['{"pass": "Ann"}', '{"pass": "Bo"}'], 0, "Chosen: Bo passes."),
    ([], ['{"cast": {"player": "Ann", "card": "Bear"}}'], 0, "Chosen: Ann casts Bear."),
    (BOLT_ON_STACK, ['{"pass": "Ann"}', '{"pass": "Bo"}'], 0, "Bolt resolves."),
    ([], ['{"pass": "Bo"}'], 2, "error: --choose 1: not one of Ann's options now"),
    ([], ['{"pass": "Ann"}', '{"pass": "Ann"}'], 2, "error: --choose 2: not one of Bo's options now"),
    (BOLT_ON_STACK, ['{"cast": {"player": "Ann", "card": "Bear"}}'], 2,
     "a noninstant spell only in your main phase with an empty stack"),
    ([], ['{"pass": "Ann"}', "pass"], 2, "error: --choose 2: not valid JSON"),
    ([], ['["pass", "Ann"]'], 2, "error: --choose 1: an action is a JSON object of one key"),
]


@pytest.mark.parametrize(("stack", "choices", "code", "text"), CHOOSE_CASES)
def test_cli_next_choose(cli: Any, stack: list[Any], choices: list[str], code: int, text: str) -> None:
    state = _state(priority="Ann", hands={"Ann": ["Bear"], "Bo": ["Bear"]}, stack=stack)
    res = cli("next", "--state", json.dumps(state), *[a for c in choices for a in ("--choose", c)])
    assert res.exit_code == code, res.output
    assert text in res.output and "Traceback" not in res.output


def test_api_next_and_run(full_or_empty_kb: KnowledgeBase) -> None:
    from web import create_app
    client = create_app(kb=full_or_empty_kb).test_client()
    state = _state(due="Ann", due_reason="resolved", battlefield=[{"card": "Pup", "controller": "Bo", "damage": 3}])
    res = client.post("/api/v1/timing/next", json=state)
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    assert body["ruleset"] == "mtg" and body["edition"] == EDITION_2026
    assert [f["event"] for f in body["steps"]] == ["state-based-actions", "receive-priority-resolved"]
    assert body["decision"]["decider"] == "Ann" and body["state"]["priority"] == "Ann"
    res = client.post("/api/v1/timing/next?edition=2010-10-01", json=body["state"])
    assert res.status_code == 400 and "edition" in res.get_json()["error"]["message"]
    res = client.post("/api/v1/timing/next?edition=2010-10-01", json={**state, "priority": ["Ann", "Bo"]})
    assert res.status_code == 422 and "116.3" in res.get_json()["error"]["message"]
    scenario = yaml.safe_load(Path(scenario_files("mtg")[0]).read_text(encoding="utf-8"))
    res = client.post("/api/v1/timing/run", json=scenario)
    assert res.status_code == 200 and res.get_json()["ok"] is True
    frames = res.get_json()["frames"]
    assert frames and all(f["state"]["ruleset"] == "mtg" for f in frames)
    res = client.post("/api/v1/timing/next", json={**state, "edition": "1.4"})
    assert res.status_code == 400


@pytest.fixture(scope="module")
def full_or_empty_kb() -> KnowledgeBase:
    from conftest import shared_available
    if not shared_available():
        return KnowledgeBase.from_graphs([])
    return KnowledgeBase.from_graphs([corpus_graph("mtg", EDITION_2010), corpus_graph("mtg", EDITION_2026)])


# -- object identity ------------------------------------------------------------------------------------
TWO_SHOCKS = {"name": "Two spells share a name.", "ruleset": "mtg", "players": [
    {"name": "Ann", "hand": ["Shock"]}, {"name": "Bo", "hand": ["Shock", "Cancel"]}],
    "cards": {"Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
              "Cancel": {"type": "instant", "target": "spell", "effects": [{"counter": "target"}]}},
    "start": {"turn": 3},
    "steps": [{"cast": {"player": "Ann", "card": "Shock", "target": "Bo"}}, {"pass": "Ann"},
              {"cast": {"player": "Bo", "card": "Shock", "target": "Ann"}}]}


def test_a_name_two_spells_share_is_refused_as_ambiguous() -> None:
    from kb.timing.scenario import ScenarioError, parse
    data = {**TWO_SHOCKS, "steps": TWO_SHOCKS["steps"] + [{"cast": {"player": "Bo", "card": "Cancel",
                                                                    "target": "Shock"}}]}
    with pytest.raises(ScenarioError, match=r"2 spells on the stack are named 'Shock' \(ids 1, 2\)") as err:
        run(parse(data))
    assert err.value.step == 4 and err.value.field == "cast.target"


def test_next_tells_two_spells_of_one_name_apart_by_their_ids() -> None:
    from kb.timing.scenario import parse
    result = run(parse(TWO_SHOCKS))
    assert result.error is None
    model, _ = mtg_scenario.setup(TWO_SHOCKS)
    model, s, violations = state_io.state_from_json(state_io.state_json(model, result.final))
    assert not violations
    out = engine.next_steps(model, s)
    counters = [o for o in out.decision.options if o.transition.name == "cast" and o.params["card"] == "Cancel"]
    assert sorted(o.label for o in counters) == ["Bo casts Cancel targeting Shock (object 1)",
                                                 "Bo casts Cancel targeting Shock (object 2)"]
    assert sorted(mtg_scenario.option_action(o)["cast"]["target"] for o in counters) == [1, 2]
    # a pasted state whose spell names a target two objects share is refused, naming where
    pasted = state_io.state_json(model, s)
    pasted["stack"].append({"name": "Cancel", "controller": "Bo", "target": "Shock"})
    with pytest.raises(FormatError, match="say which one") as err:
        state_io.state_from_json(pasted)
    assert err.value.field == "stack[2].target"
    pasted["stack"][-1]["target_id"] = 1
    model, s, _ = state_io.state_from_json(pasted)
    assert s.stack[-1].target_id == 1


def test_a_permanent_keeps_its_id_face_up_and_gets_a_new_one_when_it_returns() -> None:
    path = REPO / "tests" / "scenarios" / "mtg" / ("a-creature-that-died-and-returned-is-a-new-object-and-the-spell"
                                                    "-that-targeted-it-does-not-resolve.yaml")
    frames = run(load(path)).frames
    ids = [[u["id"] for u in f.state["battlefield"] if u["name"] == "Phoenix"] for f in frames]
    first, last = ids[0], ids[-1]
    assert first and last and first != last  # the same name, a new object (400.7)
    path = REPO / "tests" / "scenarios" / "mtg" / ("a-face-down-creature-turned-face-up-in-response-is-the-same-object"
                                                    "-and-the-spell-targeting-it-resolves.yaml")
    frames = run(load(path)).frames
    before = next(u["id"] for u in frames[0].state["battlefield"] if u["name"] == "a face-down creature")
    after = next(u["id"] for u in frames[-1].state["battlefield"] if u["name"] == "Exalted Angel")
    assert before == after


@pytest.mark.parametrize("players,life,reason,rule", [
    (["Ann", "Bo"], {"Bo": 0}, "Bo lost the game; Ann wins", "104.2a"),
    (["Ann", "Bo", "Cy", "Dee"], {"Ann": 0, "Bo": -2, "Dee": 0}, "Ann, Bo, Dee lost the game; Cy wins", "104.2a"),
    (["Ann", "Bo", "Cy"], {"Ann": 0, "Bo": 0, "Cy": -1}, "the game is a draw", "104.4a")])
def test_the_game_ends_when_one_player_or_none_is_left(players: list[str], life: dict[str, int], reason: str,
                                                       rule: str) -> None:
    model, out = _next(_state(players=players, life=life, due="Ann", due_reason="resolved"))
    assert [n.name for n in out.steps] == ["state-based-actions"]
    assert out.decision is None and out.end is not None
    assert reason in out.end[0] and rule in out.end[1]
    # no one leaves a game that is over: the winner's and losers' permanents are not moved
    assert not any(n.name == "leaves-game" for n in out.steps[0].walk())


def test_in_a_game_of_four_one_loss_leaves_three_playing() -> None:
    model, out = _next(_state(players=["Ann", "Bo", "Cy", "Dee"], life={"Cy": 0}, due="Ann", due_reason="resolved",
                              battlefield=[{"card": "Bear", "controller": "Cy"}, {"card": "Pup", "controller": "Dee"}]))
    assert [n.name for n in out.steps[0].walk()][1:] == ["loses-game", "leaves-game"]
    assert out.decision.decider == "Ann" and [u.name for u in out.state.board] == ["Pup"]
    assert out.state.nonactive == ("Bo", "Dee") and out.state.next_player("Bo") == "Dee"


# -- the headline of state-based actions says what happened (a replacement exiles instead) ---------
EXILING = {
    "Pup": {"type": "creature", "power": 2, "toughness": 1},
    "Shade": {"type": "creature", "power": 1, "toughness": 0},
    "Legend": {"type": "creature", "legendary": True, "power": 1, "toughness": 1},
    "Grave Warden": {"type": "enchantment", "replacement": {"would_die": "creatures", "instead": "exile"}},
    "Jailer": {"type": "enchantment", "replacement": {"would_die": "opponents-creatures", "instead": "exile"}},
}

# (why, the battlefield, the frame's headline)
HEADLINES = [
    ("lethal damage destroys", [{"card": "Pup", "damage": 1}], "state-based actions: Pup is destroyed"),
    ("lethal damage exiled instead", [{"card": "Pup", "damage": 1}, {"card": "Grave Warden", "controller": "Bo"}],
     "state-based actions: Pup is exiled by Grave Warden's replacement effect instead of being destroyed"),
    ("toughness 0 exiled instead", [{"card": "Shade"}, {"card": "Grave Warden"}],
     "state-based actions: Shade is exiled by Grave Warden's replacement effect instead of being put into the "
     "graveyard"),
    ("a replacement for opponents' creatures leaves its controller's", [{"card": "Pup", "damage": 1},
                                                                        {"card": "Jailer"}],
     "state-based actions: Pup is destroyed"),
    ("of two, the first is named", [{"card": "Pup", "damage": 1}, {"card": "Jailer", "controller": "Bo"},
                                    {"card": "Grave Warden"}],
     "state-based actions: Pup is exiled by Jailer's replacement effect instead of being destroyed"),
    ("the legend rule exiled instead", [{"card": "Legend", "name": "Legend 1"}, {"card": "Legend", "name": "Legend 2"},
                                        {"card": "Grave Warden"}],
     "state-based actions: the legend rule; Legend 2 is exiled by Grave Warden's replacement effect instead of being "
     "put into the graveyard"),
]


@pytest.mark.parametrize("why,battlefield,headline", HEADLINES, ids=[c[0] for c in HEADLINES])
def test_the_state_based_actions_headline_says_a_creature_is_exiled_instead(
        why: str, battlefield: list[dict[str, Any]], headline: str) -> None:
    state = {**_state(due="Ann", due_reason="resolved", battlefield=battlefield), "cards": EXILING}
    _, out = _next(state)
    assert out.steps[0].name == "state-based-actions" and out.steps[0].label == headline
