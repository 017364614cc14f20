"""Riftbound: a hidden spell, or the play effect of a hidden permanent, that plays a unit plays it
at the battlefield where the hidden card was (811.1.d.3), whatever destination its instruction
names; the same card played from hand (811.3) plays the unit where its instruction says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from kb.timing.scenario import loads, run

CARDS = {
    "Guard": {"type": "unit", "might": 2},
    "Sentry": {"type": "unit", "might": 1},
    "Recruit": {"type": "unit", "might": 1},
    "Zap": {"type": "spell", "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Summons": {"type": "spell", "keywords": ["Hidden", "Reaction"], "effects": [{"play": {"card": "Recruit",
                                                                                             "to": "base"}}]},
    "Muster": {"type": "spell", "keywords": ["Hidden", "Reaction"], "effects": [{"play": "Recruit"}]},
    "Study": {"type": "spell", "keywords": ["Hidden", "Reaction"], "effects": [{"draw": 1}]},
    "Herald": {"type": "unit", "might": 1, "keywords": ["Hidden", "Reaction"],
               "triggers": [{"on": "play", "effects": [{"play": "Recruit"}]}]},
}


def played(card: str, hidden: bool) -> Any:
    """Ann's Zap targets Bo's Guard; Bo answers with ``card``, from facedown at Keep or from hand."""
    bo: dict[str, Any] = {"name": "Bo", "base": ["Guard"], "hand": ["Recruit"] + ([] if hidden else [card]),
                          "runes": 0}
    if hidden:
        bo["facedown"] = [{"card": card, "at": "Keep"}]
    data = {"name": "A card that plays a unit.", "ruleset": "riftbound", "edition": "1.4",
            "players": [{"name": "Ann", "hand": ["Zap"]}, bo],
            "battlefields": {"Keep": {"controller": "Bo", "units": {"Bo": ["Sentry"]}}}, "cards": CARDS,
            "steps": [{"play": {"player": "Ann", "card": "Zap", "target": "Guard"}}, {"pass": "Ann"},
                      {"play": {"player": "Bo", "card": card, **({"from": "facedown"} if hidden else {})}},
                      {"pass": "Bo"}, {"pass": "Ann"}]}
    return run(loads(yaml.safe_dump(data, sort_keys=False), "hidden.yaml"))


# (what, the card Bo plays, from facedown, where Recruit is then, 811.1.d.3 cited)
PLAYS = [
    ("a hidden spell playing a unit to base plays it at Keep", "Summons", True, "Keep", True),
    ("a hidden spell playing a unit anywhere plays it at Keep", "Muster", True, "Keep", True),
    ("the same spell from hand plays it to base", "Summons", False, "base", False),
    ("a hidden unit's play effect plays it at Keep", "Herald", True, "Keep", True),
    ("the same unit from hand: its play effect plays it to base", "Herald", False, "base", False),
    ("a hidden spell that plays no unit", "Study", True, None, False),
]


@pytest.mark.parametrize("what,card,hidden,where,cites", PLAYS, ids=[c[0] for c in PLAYS])
def test_a_unit_a_hidden_card_plays_is_played_where_it_was_hidden(what: str, card: str, hidden: bool,
                                                                  where: str | None, cites: bool) -> None:
    result = played(card, hidden)
    assert result.error is None, result.error
    board = {u.name: u.location for u in result.final.board}
    assert board.get("Recruit") == where
    cited = {r for f in result.frames for n in f.node.walk() for r in n.rules}
    assert ("811.1.d.3" in cited) == cites


def test_the_scenario_passes() -> None:
    path = Path(__file__).parent / "scenarios" / "riftbound" / \
        "a-spell-played-from-hidden-that-plays-a-unit-plays-it-at-the-battlefield-where-it-was-hidden.yaml"
    assert run(loads(path.read_text(), str(path))).ok
