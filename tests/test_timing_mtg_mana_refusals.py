"""Magic refusals of a mana ability or a choice cite only the rules whose condition holds: 117.2e
(no player has priority while a spell or ability resolves) only while one is resolving, 605.1a
only when there is no such mana ability, 118.3 only when its source is tapped, 101.4 only when
another player is asked to choose first (A27 for every path that cited 117.2e or 605.x)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml

from kb.timing.scenario import loads, run

CARDS = {"Mind Rot": {"type": "sorcery", "effects": [{"discard": "each"}]},
         "Grove": {"type": "land", "abilities": [{"name": "Grove's mana ability", "tap": True, "mana": 1}]},
         "Bear": {"type": "creature", "power": 2, "toughness": 2}}


def refused(before: list[Any], action: dict[str, Any]) -> tuple[bool, list[str], list[str]]:
    """Whether ``action`` is refused after ``before``, the checks refusing it and the rules they cite."""
    data = {"name": "A refusal.", "ruleset": "mtg", "edition": "2026-01-16",
            "players": [{"name": "Ann", "hand": ["Mind Rot", "Bear"], "battlefield": ["Grove"]},
                        {"name": "Bo", "hand": ["Bear"], "battlefield": ["Grove"]}],
            "cards": CARDS, "start": {"step": "main1", "turn": 3}, "steps": [*before, {"expect_illegal": action}]}
    data = json.loads(json.dumps(data))  # the same step twice would be written as a YAML alias, refused
    (found,) = run(loads(yaml.safe_dump(data, sort_keys=False), "s.yaml")).expectations
    return found.ok, [f["check"] for f in found.forbidden_by], list(dict.fromkeys(found.actual["rules"]))


MIND_ROT = [{"cast": {"player": "Ann", "card": "Mind Rot"}}, {"pass": "Ann"}, {"pass": "Bo"}]
BO_TAPS = {"mana": {"player": "Bo", "source": "Grove #2"}}
ANN_TAPS = {"mana": {"player": "Ann", "source": "Grove"}}

# (why, steps before, the refused action, the checks refusing it, the rules cited, rules not cited)
REFUSALS = [
    ("Bo taps his land for mana while Ann holds priority, nothing resolving", [], BO_TAPS,
     ["mana-timing"], ["117.1d", "605.3a"], ["117.2e"]),
    ("Bo taps his land for mana while Mind Rot resolves, no payment asked", MIND_ROT, BO_TAPS,
     ["mana-timing", "mana-while-resolving"], ["117.1d", "605.3a", "117.2e"], []),
    ("Ann taps her land again, already tapped", [ANN_TAPS], ANN_TAPS,
     ["mana-untapped"], ["118.3"], ["605.1a", "117.2e"]),
    ("Ann taps a land of Bo's for mana", [], {"mana": {"player": "Ann", "source": "Grove #2"}},
     ["mana-source"], ["605.1a"], ["118.3", "117.2e"]),
    ("Ann chooses a card with nothing resolving", [], {"choose": {"player": "Ann", "choice": "Bear"}},
     ["asked", "choice"], ["608.2c"], ["117.2e", "101.4"]),
    ("Bo chooses first while Mind Rot asks Ann, then Bo", MIND_ROT, {"choose": {"player": "Bo", "choice": "Bear"}},
     ["asked-in-turn"], ["101.4"], ["117.2e"]),
]


@pytest.mark.parametrize("why,before,action,checks,cited,not_cited", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_a_mana_or_choice_refusal_cites_only_the_rules_that_hold(why: str, before: list[Any], action: dict[str, Any],
                                                                 checks: list[str], cited: list[str],
                                                                 not_cited: list[str]) -> None:
    ok, failing, rules = refused(before, action)
    assert ok and failing == checks
    assert all(r in rules for r in cited) and not any(r in rules for r in not_cited)


# (why, steps before, the action that is legal there)
ALLOWED = [
    ("Ann taps her land with priority", [], ANN_TAPS),
    ("Ann chooses while Mind Rot asks her first", MIND_ROT, {"choose": {"player": "Ann", "choice": "Bear"}}),
]


@pytest.mark.parametrize("why,before,action", ALLOWED, ids=[c[0] for c in ALLOWED])
def test_the_same_actions_are_legal_where_the_rules_allow_them(why: str, before: list[Any],
                                                               action: dict[str, Any]) -> None:
    ok, failing, _ = refused(before, action)
    assert not ok and failing == []
