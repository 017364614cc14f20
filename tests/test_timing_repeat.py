"""Repeat in the Riftbound timing model (820): "You may pay [Cost] as an additional cost as you
play this. If you do, execute the instructions of this chain item one additional time during
resolution" (820.1.d). Every decision sequence to a bounded depth keeps what the rules say,
computed from the card pool and the states alone; `timing next` lists each Repeat spell's play
with and without paying it; deliberately wrong models are caught; bad input is refused with its
place. The worked scenario is in ``kb/timing/scenarios/riftbound/``, a judge's situation in
``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked, with_options
from kb.timing import engine
from kb.timing.engine import TraceNode
from kb.timing.models.riftbound import Riftbound, State, chain, costs, scenario
from kb.timing.models.riftbound.cards import card_json, parse_cards
from kb.timing.scenario import ScenarioError, loads, run

CARDS: dict[str, dict[str, Any]] = {
    # "Deal 2 to a unit. Draw 1." Repeat [1]
    "Double Strike": {"type": "spell", "keywords": ["Action"], "cost": 1, "repeat": 1,
                      "effects": [{"deal": {"unit": "target", "amount": 2}}, {"draw": 1}]},
    # "Draw 1." Repeat [1][A]: Energy and Power
    "Insight": {"type": "spell", "keywords": ["Reaction"], "repeat": {"energy": 1, "power": 1},
                "effects": [{"draw": 1}]},
    "Guard": {"type": "unit", "might": 3},
}
SEATS = [{"name": "Ann", "hand": ["Double Strike"], "runes": 3},
         {"name": "Bo", "hand": ["Insight"], "base": ["Guard"], "runes": 2}]
DEPTH = 10


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS})  # type: ignore[return-value]


def _energy_power(c: Any) -> tuple[int, int]:
    return (c, 0) if isinstance(c, int) else (c.get("energy", 0), c.get("power", 0))


def _resources(s: State, player: str) -> tuple[int, int]:
    """What a player could still pay: Energy (Rune Pool Energy and ready runes, each exhausted for
    one) and Power (Rune Pool Power and every rune, each recycled for one)."""
    pool = next(((e, p) for pl, e, p in s.rune_pools if pl == player), (0, 0))
    ready, exhausted = next(((r, x) for pl, r, x in s.runes if pl == player), (0, 0))
    return pool[0] + ready, pool[1] + ready + exhausted


def _drawn(s: State, player: str) -> int:
    return dict(s.drawn).get(player, 0)


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: finalizing a spell pays its cost plus its Repeat exactly when the
    Repeat is paid for it (820.1.c.1); resolving it draws its Draws twice when Repeat was paid and
    once otherwise (820.1.d.1); and it is played once either way (820.3.a)."""
    before, after = node.before, node.after
    if node.name in ("finalize", "resolve"):
        item = next(i for i in before.chain if i.id == node.params["id"])
        card = CARDS.get(item.card or "")
        if card is None:
            return
        if node.name == "finalize":
            energy, power = _energy_power(card.get("cost", 0))
            if item.repeat:
                e, p = _energy_power(card["repeat"])
                energy, power = energy + e, power + p
            (e0, p0), (e1, p1) = _resources(before, item.controller), _resources(after, item.controller)
            if e0 - e1 < energy or p0 - p1 < power:
                yield (f"{item.name} was finalized paying {e0 - e1} Energy, {p0 - p1} Power, not its cost "
                       f"{'with' if item.repeat else 'without'} its Repeat (820.1.c.1)")
        else:
            draws = sum(e["draw"] for e in card["effects"] if "draw" in e) * (2 if item.repeat else 1)
            got = _drawn(after, item.controller) - _drawn(before, item.controller)
            if got != draws:
                yield (f"{item.name} drew {got} as it resolved, not {draws}: Repeat "
                       f"{'was' if item.repeat else 'was not'} paid (820.1.d.1)")
            times = [c for _, c in after.played].count(item.card) - [c for _, c in before.played].count(item.card)
            if times != 1:
                yield f"{item.name} was played {times} times as it resolved, not once (820.3.a)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """The decider's every play of a Repeat spell is listed with and without paying it."""
    d = engine.decision(model, s)
    if d is None:
        return
    plays = [o for o in d.options + d.illegal if o.transition.name == "play" and o.params["card"] in CARDS
             and "repeat" in CARDS[o.params["card"]]]
    kinds = {(o.params["card"], o.params.get("target")): set() for o in plays}  # type: dict[Any, set[bool]]
    for o in plays:
        kinds[(o.params["card"], o.params.get("target"))].add(bool(o.params.get("repeat")))
    for (card, target), paid in kinds.items():
        if paid != {True, False}:
            yield f"{card} (target {target}) is listed only {'with' if True in paid else 'without'} its Repeat"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, with_options(node_violations, option_violations))


def test_every_decision_sequence_keeps_repeat(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Repeat, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("repeat-paid", "repeat-executes", "resolve", "lethal-damage")))
    assert not wrong, wrong[:5]
    for name in ("repeat-paid", "repeat-executes", "resolve", "lethal-damage", "adds-during-payment"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_that_executes_a_repeated_spell_once_is_caught(monkeypatch: Any) -> None:
    """Wrong: Repeat is paid for, but the instructions are executed once."""
    right = chain.run_effects
    monkeypatch.setattr(chain, "run_effects", lambda m, s, t, item: right(m, s, t, replace(item, repeat=False)))
    assert any("820.1.d.1" in v for v in _explore()[2])


def test_a_model_whose_repeat_costs_nothing_is_caught(monkeypatch: Any) -> None:
    """Wrong: the instructions are executed twice, but Repeat's cost is not paid."""
    right = costs.printed_cost
    monkeypatch.setattr(costs, "printed_cost", lambda m, s, item: right(m, s, replace(item, repeat=False)))
    assert any("820.1.c.1" in v for v in _explore()[2])


# -- what a scenario may say -----------------------------------------------------------------------
SCENARIO = """
name: A card with Repeat.
ruleset: riftbound
players: [Ann, Bo]
cards:
  Echo: %s
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("card,says", [
    ("{type: spell, keywords: [Repeat], effects: [{draw: 1}]}", "Repeat is written with its cost as repeat: COST"),
    ("{type: unit, repeat: 1}", "Repeat is on spells and abilities (820.1.a)"),
    ("{type: spell, repeat: 0, effects: [{draw: 1}]}", "Repeat's cost is at least one Energy or Power"),
    ("{type: spell, repeat: {energy: 1, rune: 2}, effects: [{draw: 1}]}", "cards.Echo.repeat"),
])
def test_a_malformed_repeat_is_refused_with_its_place(card: str, says: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % card, "r.yaml"))
    assert says in str(err.value) and "cards.Echo" in str(err.value), str(err.value)


def test_a_play_pays_repeat_only_for_a_spell_with_it() -> None:
    text = SCENARIO % "{type: spell, effects: [{draw: 1}]}"
    text = text.replace("  - pass: Ann", "  - expect_illegal: {play: {player: Ann, card: Echo, repeat: true}, "
                                         "rule: \"820.1.a\"}")
    result = run(loads(text, "r.yaml"))
    assert result.error is None and all(e.ok for e in result.expectations)


def test_a_repeat_card_reads_back_as_written() -> None:
    """A state's card pool is written and read again (timing next takes any frame's state)."""
    pool = parse_cards(CARDS)
    again = parse_cards({name: card_json(c) for name, c in pool.items()})
    assert again == pool and again["Insight"].repeat is not None and "Repeat" in again["Insight"].keywords
