"""Magic refusals and the end of a game cite only rules whose condition holds: a spell cast
without priority cites 117.2e (no player has priority while a spell or ability resolves) only
while one is resolving (A27); a two-player game one player left is won by the other, whose
winner the state says and a scenario may expect, citing 104.2a, and a draw cites 104.4a
(A11)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.timing.engine import FormatError
from kb.timing.models.mtg import state_io
from kb.timing.scenario import ScenarioError, loads, run

CARDS = {"Shock": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 2}}]},
         "Mind Rot": {"type": "sorcery", "effects": [{"discard": "each"}]},
         "Bear": {"type": "creature", "power": 2, "toughness": 2}}


def scenario(steps: list[Any], edition: str = "2026-01-16", bo: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": "A refusal or a game's end.", "ruleset": "mtg", "edition": edition,
            "players": [{"name": "Ann", "hand": ["Mind Rot", "Shock"], "battlefield": ["Bear"]},
                        {"name": "Bo", "hand": ["Shock", "Bear"], **(bo or {})}],
            "cards": CARDS, "start": {"step": "main1", "turn": 3}, "steps": steps}


def ran(data: dict[str, Any]) -> Any:
    return run(loads(yaml.safe_dump(data, sort_keys=False), "s.yaml"))


BO_SHOCKS = {"cast": {"player": "Bo", "card": "Shock", "target": "Ann"}}
MIND_ROT = [{"cast": {"player": "Ann", "card": "Mind Rot"}}, {"pass": "Ann"}, {"pass": "Bo"}]

# (why, steps before, the refused action, the rules its refusal cites, in order)
REFUSALS = [
    ("Ann holds priority in her main phase, nothing resolving", [], BO_SHOCKS, ["117.1", "117.3a"]),
    ("Ann holds priority with her sorcery on the stack", MIND_ROT[:1], BO_SHOCKS, ["117.1", "117.3a"]),
    ("Mind Rot resolving asks Ann to discard", MIND_ROT, BO_SHOCKS, ["117.1", "117.3a", "117.2e"]),
    ("Ann passes while Mind Rot resolves", MIND_ROT, {"pass": "Ann"}, ["117.1", "117.3a", "117.2e"]),
    ("Bo passes while Ann holds priority", [], {"pass": "Bo"}, ["117.1", "117.3a"]),
]


@pytest.mark.parametrize("why,before,action,rules", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_a_refusal_cites_117_2e_only_while_a_spell_resolves(why: str, before: list[Any], action: dict[str, Any],
                                                            rules: list[str]) -> None:
    result = ran(scenario([*before, {"expect_illegal": action}]))
    (found,) = result.expectations
    assert found.ok and found.actual["rules"] == rules


def test_a_refusal_while_resolving_says_why_in_2010_numbers() -> None:
    result = ran(scenario([*MIND_ROT, {"expect_illegal": {**BO_SHOCKS, "rule": "116.2e"}}], "2010-10-01"))
    assert result.expectations[0].ok
    assert "while a spell or ability is resolving" in " ".join(f["summary"] for f in
                                                               result.expectations[0].forbidden_by)


# -- the end of a two-player game -----------------------------------------------------------
CONCEDE_BO = [{"concede": "Bo"}]

# (why, edition, steps, Bo's seat, the winner expected)
ENDS = [
    ("Bo concedes in Ann's main phase", "2026-01-16", CONCEDE_BO, {}, "Ann"),
    ("Bo concedes in the 2010 rules", "2010-10-01", CONCEDE_BO, {}, "Ann"),
    ("Ann concedes with her spell on the stack", "2026-01-16",
     [{"cast": {"player": "Ann", "card": "Shock", "target": "Bo"}}, {"concede": "Ann"}], {}, "Bo"),
    ("Bo at 2 life is shocked to 0", "2026-01-16",
     [{"cast": {"player": "Ann", "card": "Shock", "target": "Bo"}}, {"pass": "Ann"}, {"pass": "Bo"}],
     {"life": 2}, "Ann"),
]


@pytest.mark.parametrize("why,edition,steps,bo,winner", ENDS, ids=[c[0] for c in ENDS])
def test_the_player_left_wins_citing_104_2a(why: str, edition: str, steps: list[Any], bo: dict[str, Any],
                                             winner: str) -> None:
    result = ran(scenario([*steps, {"expect": {"winner": winner}}], edition, bo))
    assert result.ok, result.expectations
    last = result.frames[-1]
    assert last.state["winner"] == winner
    won = [n for n in last.node.walk() if n.name == "wins"]
    assert len(won) == 1 and won[0].rules[0] == "104.2a"
    assert f"{winner} wins the game" in won[0].label


def test_no_winner_while_the_game_goes_on() -> None:
    result = ran(scenario([{"expect": {"winner": None}}]))
    assert result.ok and "winner" not in result.frames[-1].state


def test_a_wrong_winner_fails_the_expectation() -> None:
    result = ran(scenario([*CONCEDE_BO, {"expect": {"winner": "Bo"}}]))
    assert not result.ok and result.expectations[0].actual == {"winner": "Ann"}


def test_a_draw_has_no_winner_and_cites_104_4a() -> None:
    state = {"players": ["Ann", "Bo"], "life": {"Ann": 0, "Bo": 0}, "due": "Ann", "due_reason": "resolved",
             "edition": "2026-01-16"}
    model, s, violations = state_io.state_from_json(state)
    from kb.timing import engine
    out = engine.advance(model, s)
    assert out.decision is None and out.state.winner is None
    drawn = [n for step in out.steps for n in step.walk() if n.name == "draw-game"]
    assert len(drawn) == 1 and drawn[0].rules == ("104.4a",)
    assert out.end is not None and out.end[1] == ("104.4a",)


# (why, the state's winner, the words of the refusal)
PASTED_WINNERS = [
    ("a winner while both are in the game", {"winner": "Ann"}, "Ann is not the winner: the game is not over"),
    ("the player who lost as winner", {"lost": ["Bo"], "winner": "Bo"}, "Bo is not the winner: Ann is"),
]


@pytest.mark.parametrize("why,fields,words", PASTED_WINNERS, ids=[c[0] for c in PASTED_WINNERS])
def test_a_pasted_winner_must_be_the_player_left(why: str, fields: dict[str, Any], words: str) -> None:
    with pytest.raises(FormatError) as caught:
        state_io.state_from_json({"players": ["Ann", "Bo"], **fields})
    assert caught.value.field == "winner" and words in caught.value.message


def test_a_written_state_with_its_winner_reads_back() -> None:
    model, s, _ = state_io.state_from_json({"players": ["Ann", "Bo"], "lost": ["Bo"], "winner": "Ann"})
    written = state_io.state_json(model, s)
    assert written["winner"] == "Ann"
    assert state_io.state_from_json(written)[1] == s


def test_expecting_winner_is_no_longer_refused() -> None:
    with pytest.raises(ScenarioError, match="cannot expect 'winer'"):
        ran(scenario([{"expect": {"winer": "Ann"}}]))


# -- simultaneous triggers of one controller (A12, 603.3b) ------------------------------------
MARTYRS = "tests/scenarios/mtg/two-creatures-of-one-player-dying-together-put-their-triggers-on-the-stack-in-the-" \
          "order-listed-the-models-default.yaml"
APNAP = "tests/scenarios/mtg/triggers-of-both-players-go-on-the-stack-in-apnap-order.yaml"

# (scenario, the order notes its run takes)
ORDERED = [
    (MARTYRS, ["Ann puts Martyr A's ability, Martyr B's ability on the stack in that order, so Martyr B's "
               "ability resolves first"]),  # the default order (its frame says so: test_timing_mtg_trigger_order)
    (APNAP, []),  # one trigger each: nothing to order, APNAP alone (101.4)
]


@pytest.mark.parametrize("path,notes", ORDERED, ids=["two of one player", "one of each player"])
def test_two_triggers_of_one_controller_say_the_order_taken(path: str, notes: list[str]) -> None:
    from pathlib import Path
    result = run(loads((Path(__file__).parent.parent / path).read_text(), path))
    assert result.ok
    found = [n for f in result.frames for n in f.node.walk() if n.name == "triggers-ordered"]
    assert [n.label for n in found] == notes and all(n.rules == ("603.3b",) for n in found)
