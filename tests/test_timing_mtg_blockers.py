"""Magic combat damage among several blockers, by the edition's rules: in 2010 the active player
announces each such attacker's damage assignment order as blockers are declared (509.2) and its
damage goes lethal to each in that order (510.1c); in 2026 there is no order, and the attacking
player divides the damage as they choose at the combat damage step (510.1c), with trample only
past lethal damage to every blocker (702.19b). The decisions (``order-blockers``,
``assign-combat-damage``), the divisions they accept, the options they list (the model's default
first), states awaiting them, and a model that forgets the order, caught."""

from __future__ import annotations

from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import FormatError
from kb.timing.models import get_model
from kb.timing.models.mtg import EDITION_2010, EDITION_2026, Magic, state_io
from kb.timing.scenario import load, run

from conftest import REPO

CARDS = {"Wurm": {"type": "creature", "power": 5, "toughness": 9},
         "Trampler": {"type": "creature", "power": 7, "toughness": 7, "keywords": ["trample"]},
         "Giant": {"type": "creature", "power": 3, "toughness": 3},
         "Bear": {"type": "creature", "power": 2, "toughness": 2},
         "Elf": {"type": "creature", "power": 1, "toughness": 1}}


def _state(edition: str, attacker: str = "Wurm", awaiting: str | None = None, **kw: Any) -> dict[str, Any]:
    step = "combat-damage" if edition == EDITION_2026 else "declare-blockers"
    board = [{"card": attacker, "controller": "Ann", "attacking": True, "blocked": True, "tapped": True},
             {"card": "Bear", "controller": "Bo", "blocking": attacker},
             {"card": "Giant", "controller": "Bo", "blocking": attacker},
             {"card": "Elf", "controller": "Bo"}]
    awaited = "assign-combat-damage" if edition == EDITION_2026 else "order-blockers"
    return {"ruleset": "mtg", "edition": edition, "players": ["Ann", "Bo"], "step": step, "turn": 3,
            "awaiting": awaiting or awaited, "battlefield": board, "cards": CARDS, "defending": "Bo", **kw}


def _read(data: dict[str, Any]) -> tuple[Magic, Any]:
    model, s, violations = state_io.state_from_json(data)
    assert not violations and not model.validate(s)
    return model, s


# (why, the attacker, the decision's division or orders, legal in 2026)
DIVISIONS = [
    ("lethal to each as listed", "Wurm", {"assignment": (("Wurm", (("Bear", 2), ("Giant", 3))),)}, True),
    ("all to the one listed second", "Wurm", {"assignment": (("Wurm", (("Bear", 0), ("Giant", 5))),)}, True),
    ("more than lethal to the first", "Wurm", {"assignment": (("Wurm", (("Bear", 4), ("Giant", 1))),)}, True),
    ("an order, lethal in it", "Wurm", {"orders": (("Wurm", ("Giant", "Bear")),)}, True),
    ("nothing said: the listing order", "Wurm", {}, True),
    ("less than its power", "Wurm", {"assignment": (("Wurm", (("Bear", 2), ("Giant", 2))),)}, False),
    ("more than its power", "Wurm", {"assignment": (("Wurm", (("Bear", 3), ("Giant", 3))),)}, False),
    ("to the player, without trample", "Wurm", {"assignment": (("Wurm", (("Bear", 2), ("Bo", 3))),)}, False),
    ("to a creature not blocking it", "Wurm", {"assignment": (("Wurm", (("Bear", 2), ("Elf", 3))),)}, False),
    ("a negative share", "Wurm", {"assignment": (("Wurm", (("Bear", 6), ("Giant", -1))),)}, False),
    ("one blocker twice", "Wurm", {"assignment": (("Wurm", (("Bear", 2), ("Bear", 3))),)}, False),
    ("an order leaving one out", "Wurm", {"orders": (("Wurm", ("Giant",)),)}, False),
    ("a creature that is not attacking", "Wurm", {"assignment": (("Elf", (("Bear", 1),)),)}, False),
    ("trample past lethal to both", "Trampler", {"assignment": (("Trampler", (("Bear", 2), ("Giant", 3), ("Bo", 2))),)},
     True),
    ("trample keeping it on the blockers", "Trampler", {"assignment": (("Trampler", (("Bear", 4), ("Giant", 3))),)},
     True),
    ("trample before lethal to each", "Trampler",
     {"assignment": (("Trampler", (("Bear", 1), ("Giant", 3), ("Bo", 3))),)}, False),
]


@pytest.mark.parametrize("why,attacker,given,legal", DIVISIONS, ids=[d[0] for d in DIVISIONS])
def test_a_division_is_legal_as_510_1c_says(why: str, attacker: str, given: dict[str, Any], legal: bool) -> None:
    model, s = _read(_state(EDITION_2026, attacker))
    failing = model.transitions["assign-combat-damage"].failing(s, {"player": "Ann", "assignment_text": "", **given})
    assert (not failing) == legal, (why, [c.name for c in failing])
    if not legal:
        assert [c.name for c in failing] == ["damage-assignment"] and "510.1c" in failing[0].rules


# (edition, the decision, the options' texts, the first being the model's)
OPTIONS = [
    (EDITION_2026, "assign-combat-damage", ["Ann divides combat damage: Wurm: 2 to Bear, 3 to Giant",
                                            "Ann divides combat damage: Wurm: 3 to Giant, 2 to Bear"]),
    (EDITION_2010, "order-blockers", ["Ann orders the blockers: Wurm's damage to Bear, then Giant",
                                      "Ann orders the blockers: Wurm's damage to Giant, then Bear"]),
]


@pytest.mark.parametrize("edition,name,labels", OPTIONS, ids=[o[0] for o in OPTIONS])
def test_the_options_are_every_order_the_listed_one_first(edition: str, name: str, labels: list[str]) -> None:
    model, s = _read(_state(edition))
    out = engine.next_steps(model, s)
    assert out.decision is not None and out.decision.decider == "Ann"
    listed = [o for o in out.decision.options if o.legal]
    assert [o.transition.name for o in listed] == [name] * len(labels)
    assert [o.label for o in listed] == labels
    node = engine.apply(model, s, name, listed[0].params)
    assert node.after.awaiting is None and node.after.due == "Ann"


# (why, the state, the field refused)
REFUSED = [
    ("an order in 2026", _state(EDITION_2026, awaiting="order-blockers", step="declare-blockers"), "awaiting"),
    ("an order out of its step", _state(EDITION_2010, step="combat-damage"), "awaiting"),
    ("a place past four", _state(EDITION_2010, battlefield=[{"card": "Bear", "controller": "Bo", "order": 5}]),
     "battlefield[0].order"),
]


@pytest.mark.parametrize("why,data,field", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_state_awaiting_another_editions_decision_is_refused(why: str, data: dict[str, Any], field: str) -> None:
    with pytest.raises(FormatError) as err:
        state_io.state_from_json(data)
    assert err.value.field == field, (why, str(err.value))


def test_an_announced_order_reads_back_and_is_followed() -> None:
    """2010: the order announced (Giant before Bear) is kept on the blockers and read back; the
    damage then goes lethal to the Giant first (3), the rest (2) to the Bear."""
    model, s = _read(_state(EDITION_2010))
    node = engine.apply(model, s, "order-blockers", {"player": "Ann", "orders": (("Wurm", ("Giant", "Bear")),),
                                                     "orders_text": ""})
    after = node.after
    assert {u.name: u.order for u in after.board if u.blocking} == {"Giant": 1, "Bear": 2}
    assert state_io.state_from_json(state_io.state_json(model, after))[1] == after
    assert [b.name for b in model.blockers_of(after, after.permanent("Wurm"))] == ["Giant", "Bear"]
    assert model.lethal_first(after, after.permanent("Wurm"), model.blockers_of(after, after.permanent("Wurm"))) == \
        (("Giant", 3), ("Bear", 2))


ORDERED = REPO / "tests" / "scenarios" / "mtg" / ("in-the-2010-rules-the-attacking-player-orders-two-blockers-as-they-"
                                                   "are-declared-and-the-first-pumped-afterwards-takes-all-the-damage"
                                                   ".yaml")


def test_a_model_forgetting_the_order_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrong: the blockers taken as listed, whatever order was announced: the 2010 scenario's 2/2
    would die and the pumped 3/3 get 2 damage only."""
    assert run(load(ORDERED)).ok
    monkeypatch.setattr(Magic, "blockers_of", lambda self, s, a: [u for u in s.board if u.blocking == a.id])
    result = run(load(ORDERED))
    assert not result.ok and any("damage" in e.failed for e in result.expectations if not e.ok)


@pytest.mark.parametrize("edition", [EDITION_2026, EDITION_2010])
def test_every_listed_option_is_a_scenario_step_that_takes_it(edition: str) -> None:
    """An option written as a scenario step (``assign``) is that option again (a client replays it)."""
    spec = get_model("mtg")
    model, s = _read(_state(edition))
    for option in (o for o in engine.next_steps(model, s).decision.options if o.legal):  # type: ignore[union-attr]
        (kind, payload), = spec.option_action(option).items()
        taken = [(n, p) for n, p in spec.action(kind, payload, s) if not model.transitions[n].failing(s, p)]
        assert kind == "assign" and taken[0][0] == option.transition.name
        assert engine.apply(model, s, *taken[0]).after == engine.apply(model, s, option.transition.name,
                                                                       option.params).after
