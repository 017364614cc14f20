"""Riftbound: the choices of a card played from Hidden are restricted to the battlefield where
it was hidden (811.1.d). A spell's targets are chosen among the units there (811.1.d.2), each
target on its own (811.1.d.2.a); a spell with no valid target there cannot be played from
Hidden (811.1.d); an item on the chain is at no battlefield, so a counter chooses as normal
(811.1.d.2's "unless … impossible"). A hidden unit or gear is played to that battlefield
(811.1.d.1, 811.1.d.1.a), and each play cites the rule for its kind."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.timing.scenario import loads, run

CARDS = {
    "Guard": {"type": "unit", "might": 2},
    "Sentry": {"type": "unit", "might": 1},
    "Lookout": {"type": "unit", "might": 1},
    "Zap": {"type": "spell", "effects": [{"deal": {"unit": "target", "amount": 2}}]},
    "Veil": {"type": "spell", "keywords": ["Hidden"], "effects": [{"prevent": {"unit": "target", "amount": 2}}]},
    "Rally": {"type": "spell", "keywords": ["Hidden"], "targets": 2,
              "effects": [{"give": {"unit": "targets", "might": 1}}]},
    "Hush": {"type": "spell", "keywords": ["Hidden"], "effects": [{"counter": "target"}]},
    "Study": {"type": "spell", "keywords": ["Hidden"], "effects": [{"draw": 1}]},
    "Doom": {"type": "spell", "keywords": ["Hidden"], "effects": [{"kill": "Guard"}]},
    "Last Rites": {"type": "spell", "keywords": ["Hidden"], "effects": [{"kill": "Sentry"}]},
    "Lurker": {"type": "unit", "might": 2, "keywords": ["Hidden"]},
    "Charm": {"type": "gear", "keywords": ["Hidden"]},
}


def _run(card: str, choice: dict[str, Any], keep: list[str], extra: list[dict[str, Any]] = ()) -> Any:
    """Ann's Zap targets Bo's Guard (at base); Bo answers with ``card`` from facedown at Keep,
    where his ``keep`` units stand (his Lookout is at Hill)."""
    keep_units = {"units": {"Bo": keep}} if keep else {}
    data = {
        "name": "A card played from Hidden.", "ruleset": "riftbound", "edition": "1.4",
        "players": [{"name": "Ann", "hand": ["Zap"]},
                    {"name": "Bo", "base": ["Guard"], "facedown": [{"card": card, "at": "Keep"}], "runes": 0}],
        "battlefields": {"Keep": {"controller": "Bo", **keep_units},
                         "Hill": {"controller": "Bo", "units": {"Bo": ["Lookout"]}}},
        "cards": CARDS,
        "steps": [{"play": {"player": "Ann", "card": "Zap", "target": "Guard"}}, {"pass": "Ann"},
                  {"play": {"player": "Bo", "card": card, "from": "facedown", **choice}}, *extra],
    }
    return run(loads(yaml.safe_dump(data, sort_keys=False), "hidden.yaml"))


# (the card played from facedown, its choice, Bo's units at Keep, the checks that refuse it: [] legal)
PLAYS = [
    ("Veil", {"target": "Sentry"}, ["Sentry"], []),
    ("Veil", {"target": "Guard"}, ["Sentry"], ["hidden-targets"]),  # at base
    ("Veil", {"target": "Lookout"}, ["Sentry"], ["hidden-targets"]),  # at another battlefield
    ("Veil", {"target": "Nobody"}, ["Sentry"], ["targets"]),  # no such unit: 355.8's refusal alone
    ("Veil", {"target": "Guard"}, [], ["hidden-has-targets", "hidden-targets"]),  # none at Keep (811.1.d)
    ("Rally", {"targets": ["Sentry"]}, ["Sentry"], []),
    ("Rally", {"targets": ["Sentry", "Guard"]}, ["Sentry"], ["hidden-targets"]),  # each target on its own
    ("Rally", {"targets": ["Guard"]}, [], ["hidden-has-targets", "hidden-targets"]),
    ("Hush", {"target": "Zap"}, [], []),  # an item on the chain is at no battlefield
    ("Study", {}, [], []),  # chooses nothing
    ("Last Rites", {}, ["Sentry"], []),  # the unit it names is there
    ("Doom", {}, ["Sentry"], ["hidden-targets"]),  # the unit it names is at base
    ("Lurker", {}, [], []),
    ("Charm", {}, [], []),
]


@pytest.mark.parametrize("card,choice,keep,refused_by", PLAYS)
def test_a_spell_from_hidden_chooses_its_targets_where_it_was_hidden(card: str, choice: dict[str, Any],
                                                                    keep: list[str], refused_by: list[str]) -> None:
    result = _run(card, choice, keep)
    if not refused_by:
        assert result.error is None, result.error
        # a spell waits on the chain; a permanent resolves at once (337.2)
        placed = [i.name for i in result.final.chain] + [u.name for u in result.final.board]
        assert card in placed
        return
    assert result.error is not None and result.error["type"] == "illegal-step"
    assert result.expectations[-1].actual["forbidden_by"] == refused_by


# (the card, its choice, Bo's units at Keep, rules its play cites, rules it does not cite)
CITED = [
    ("Veil", {"target": "Sentry"}, ["Sentry"], ["811.1.c.3", "811.6", "811.1.d.2"], ["811.1.d.1"]),
    ("Rally", {"targets": ["Sentry"]}, ["Sentry"], ["811.1.d.2"], ["811.1.d.1"]),
    ("Study", {}, [], ["811.1.c.3", "811.6"], ["811.1.d.1", "811.1.d.2"]),
    ("Hush", {"target": "Zap"}, [], ["811.1.c.3"], ["811.1.d.1", "811.1.d.2"]),
    ("Lurker", {}, [], ["811.1.c.3", "811.1.d.1"], ["811.1.d.1.a", "811.1.d.2"]),
    ("Charm", {}, [], ["811.1.c.3", "811.1.d.1", "811.1.d.1.a"], ["811.1.d.2"]),
]


@pytest.mark.parametrize("card,choice,keep,cited,not_cited", CITED)
def test_a_play_from_hidden_cites_the_rule_for_its_kind(card: str, choice: dict[str, Any], keep: list[str],
                                                        cited: list[str], not_cited: list[str]) -> None:
    result = _run(card, choice, keep, [{"expect": {"cited": cited, "not_cited": not_cited}}])
    assert result.error is None, result.error
    assert result.expectations[-1].ok, result.expectations[-1]


@pytest.mark.parametrize("card", ["Lurker", "Charm"])
def test_a_hidden_permanent_enters_where_it_was_hidden(card: str) -> None:
    result = _run(card, {}, [])
    assert result.error is None, result.error
    assert {u.name: u.location for u in result.final.board}[card] == "Keep"
