"""One style for the place a malformed timing scenario's error names (kb.timing.fields): a list
entry with a name of its own (a player, a Riftbound battlefield) by its name, everything else
by its index from 0; both models, one case a line."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from kb.timing.scenario import ScenarioError, loads, run

RIFTBOUND = {
    "name": "A scenario.", "ruleset": "riftbound", "edition": "1.4",
    "players": [{"name": "Ann", "hand": ["Fireball"], "base": ["Raider"]}, {"name": "Bo"}, "Cy", {"name": "Dee"}],
    "battlefields": [{"name": "Temple", "controller": "Bo", "units": {"Bo": ["Raider"]}}, "Hill"],
    "cards": {"Fireball": {"type": "spell"}, "Raider": {"type": "unit"}}, "steps": [{"pass": "Ann"}]}
MTG = {
    "name": "A scenario.", "ruleset": "mtg", "edition": "2026-01-16",
    "players": [{"name": "Ann", "hand": ["Bolt"], "battlefield": ["Bear"]}, "Bo"],
    "cards": {"Bolt": {"type": "instant"}, "Bear": {"type": "creature", "power": 2, "toughness": 2}},
    "steps": [{"pass": "Ann"}]}


def _set(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    if value is KeyError:
        del data[path[-1]]
    else:
        data[path[-1]] = value


# (ruleset, where the change goes, the value put there (KeyError: the key taken out), the place named)
PLACES = [
    # a player with a name: by it
    ("riftbound", ("players", 1, "hnad"), [], "players.Bo"),
    ("riftbound", ("players", 0, "hand", 0), "Meteor", "players.Ann.hand[0]"),
    ("riftbound", ("players", 0, "base", 0), "Fireball", "players.Ann.base[0]"),
    ("riftbound", ("players", 1, "points"), 200, "players.Bo.points"),
    ("riftbound", ("players", 1, "runes"), {"ready": 40}, "players.Bo.runes.ready"),
    ("riftbound", ("players", 3, "team"), "", "players.Dee.team"),
    ("mtg", ("players", 0, "hand", 0), "Meteor", "players.Ann.hand[0]"),
    ("mtg", ("players", 0, "battlefield", 0), "Bolt", "players.Ann.battlefield[0].card"),
    ("mtg", ("players", 0, "lfe"), 3, "players.Ann"),
    ("mtg", ("players", 0, "life"), "many", "players.Ann.life"),
    # a player whose name is the fault: by index
    ("riftbound", ("players", 1, "name"), KeyError, "players[1].name"),
    ("riftbound", ("players", 1), {"nmae": "Bo"}, "players[1]"),
    ("riftbound", ("players", 2), "Ann", "players[2]"),
    ("riftbound", ("players", 2), 7, "players[2]"),
    ("mtg", ("players", 1), {"name": "Ann"}, "players[1]"),
    ("mtg", ("players", 1), {"name": ""}, "players[1].name"),
    # a battlefield, listed or by name: by its name
    ("riftbound", ("battlefields", 0, "contoller"), "Bo", "battlefields.Temple"),
    ("riftbound", ("battlefields", 0, "controller"), "Zed", "battlefields.Temple.controller"),
    ("riftbound", ("battlefields", 0, "units", "Bo", 0), "Meteor", "battlefields.Temple.units.Bo[0]"),
    ("riftbound", ("battlefields",), {"Temple": {"controller": "Zed"}}, "battlefields.Temple.controller"),
    ("riftbound", ("battlefields",), {"base": None}, "battlefields.base"),
    # a battlefield whose name is the fault: by index
    ("riftbound", ("battlefields", 1), "base", "battlefields[1]"),
    ("riftbound", ("battlefields", 1), {"name": "Temple"}, "battlefields[1].name"),
    ("riftbound", ("battlefields", 1), {"controller": "Bo"}, "battlefields[1].name"),
    # a list wrong as a list: its key
    ("riftbound", ("players",), ["Ann"], "players"),
    ("mtg", ("players",), ["Ann", "Bo", "Cy", "Dee", "Eve"], "players"),
]


@pytest.mark.parametrize("ruleset,path,value,field", PLACES,
                         ids=[f"{r}-{'.'.join(map(str, p))}-{f}" for r, p, _, f in PLACES])
def test_a_malformed_scenario_names_its_place_as_the_user_finds_it(ruleset: str, path: tuple[Any, ...], value: Any,
                                                                   field: str) -> None:
    data = yaml.safe_load(yaml.safe_dump(RIFTBOUND if ruleset == "riftbound" else MTG))
    _set(data, path, value)
    with pytest.raises(ScenarioError) as err:
        run(loads(yaml.safe_dump(data), "bad.yaml"))
    assert err.value.field == field, str(err.value)
    assert str(err.value).startswith(f"bad.yaml ({field}): ")


@pytest.mark.parametrize("ruleset", ["riftbound", "mtg"])
def test_the_scenarios_the_cases_change_run(ruleset: str) -> None:
    """Each case above fails by its change alone."""
    assert run(loads(yaml.safe_dump(RIFTBOUND if ruleset == "riftbound" else MTG))).error is None
