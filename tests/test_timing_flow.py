"""Flow in the Riftbound timing model (829): "You may play this from your trash for its flow cost.
Then banish it." (829.1.b). Every decision sequence to a bounded depth keeps what the rules say,
computed from the card pool and the states alone; `timing next` lists each play from the trash;
deliberately wrong models are caught; bad input is refused with its place. The worked scenario is
in ``kb/timing/scenarios/riftbound/``, a judge's situation in ``tests/scenarios/riftbound/``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked, with_options
from kb.timing import engine
from kb.timing.engine import FormatError, TraceNode
from kb.timing.models import get_model
from kb.timing.models.riftbound import Riftbound, State, costs, scenario, trash
from kb.timing.models.riftbound.cards import card_json, parse_cards
from kb.timing.scenario import ScenarioError, loads, run

CARDS: dict[str, dict[str, Any]] = {
    "Rekindle": {"type": "spell", "keywords": ["Action"], "cost": 3, "flow": 1, "effects": [{"draw": 1}]},
    "Quick Recall": {"type": "spell", "keywords": ["Reaction"], "cost": 2, "flow": 1, "effects": [{"draw": 1}]},
    "Deny": {"type": "spell", "keywords": ["Reaction"], "effects": [{"counter": "target"}]},
}
# Ann's Flow spells are in her trash; Bo's Quick Recall is in his (never Ann's to play, 108.2.a).
SEATS = [{"name": "Ann", "hand": [], "trash": ["Rekindle", "Quick Recall"], "runes": 2},
         {"name": "Bo", "hand": ["Deny"], "trash": ["Quick Recall"], "runes": 1}]
DEPTH = 9


def setup() -> tuple[Riftbound, State]:
    return scenario.setup({"players": SEATS, "cards": CARDS})  # type: ignore[return-value]


def flow(card: str | None) -> int | None:
    """A card's Flow cost (Energy), read from the pool here; None without Flow."""
    return CARDS.get(card or "", {}).get("flow")


def node_violations(model: Riftbound, node: TraceNode) -> Iterator[str]:
    """What every step keeps: a card played from a trash has Flow and was in its player's own
    trash (829.1.b, 108.2.a), keeps its timing (829.1.b.2: no Action played on a chain), and is paid
    for with its Flow cost instead of its own (829.1.c.1); once it leaves the chain, countered or
    resolved, it is banished and never back in a trash (829.1.b.1)."""
    before, after = node.before, node.after
    if node.name == "play" and node.params.get("from") == "trash":
        card, player = node.params["card"], node.params["player"]
        if flow(card) is None or (card, player) not in before.owners:
            yield f"{player} played {card} from a trash not theirs, or without Flow (829.1.b, 108.2.a)"
        if before.chain and "Reaction" not in CARDS[card].get("keywords", ()):
            yield f"{card} without Reaction was played from the trash on a chain: Flow keeps its timing (829.1.b.2)"
    if node.name == "finalize":
        item = next(i for i in before.chain if i.id == node.params["id"])
        if item.origin == "trash":
            ready = {p: r for p, r, _ in before.runes}, {p: r for p, r, _ in after.runes}
            paid = ready[0].get(item.controller, 0) - ready[1].get(item.controller, 0)
            if paid != flow(item.card):
                yield f"{item.name} from the trash was paid {paid} Energy, not its Flow cost {flow(item.card)} (829.1.c.1)"
    if node.name == "resolve":
        gone = [i for i in before.chain if i.origin == "trash" and not any(x.id == i.id for x in after.chain)]
        banished = Counter(after.banished) - Counter(before.banished)
        for i in gone:
            if banished[(i.card, i.controller)] < 1:
                yield f"{i.name}, played for its Flow cost, left the chain without being banished (829.1.b.1)"
        returned = Counter(after.trash) - Counter(before.trash)
        for i in gone:
            if returned[i.card or ""] and not any(x.card == i.card and x.origin != "trash" for x in before.chain):
                yield f"{i.name}, played for its Flow cost, went back to a trash (829.1.b.1)"


def option_violations(model: Riftbound, s: State) -> Iterator[str]:
    """The decider's every Flow spell in their own trash is listed to be played from there."""
    d = engine.decision(model, s)
    if d is None:
        return
    listed = {o.params["card"] for o in d.options + d.illegal
              if o.transition.name == "play" and o.params.get("from") == "trash" and o.player == d.decider}
    mine = {c for c, owner in s.owners if owner == d.decider and flow(c) is not None}
    if s.priority == d.decider and not s.pending and mine - listed:
        yield f"{d.decider}'s {sorted(mine - listed)} in their trash not listed to be played from there"


def _explore() -> tuple[Any, Any, list[str]]:
    model, start = setup()
    return explore_checked(model, start, DEPTH, with_options(node_violations, option_violations))


def test_every_decision_sequence_keeps_flow(capsys: Any) -> None:
    ex, taken, wrong = _explore()
    with capsys.disabled():
        print(f"\n  Flow, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("flow-play", "flow-banished", "counter", "resolve")))
    assert not wrong, wrong[:5]
    for name in ("flow-play", "flow-banished", "counter", "resolve"):
        assert taken[name], f"no decision sequence reached {name}"


# -- deliberately wrong models ---------------------------------------------------------------------
def test_a_model_that_puts_a_flow_spell_back_in_the_trash_is_caught(monkeypatch: Any) -> None:
    """Wrong: a spell played for its Flow cost goes to its owner's trash again as it leaves the chain."""
    right = trash.leaves_chain
    monkeypatch.setattr(trash, "leaves_chain", lambda m, s, t, item, card: right(m, s, t, replace(item, origin="hand"),
                                                                                  card))
    assert any("829.1.b.1" in v for v in _explore()[2])


def test_a_model_that_charges_the_base_cost_from_the_trash_is_caught(monkeypatch: Any) -> None:
    """Wrong: a spell played from the trash costs its own cost, not its Flow cost."""
    right = costs.printed_cost
    monkeypatch.setattr(costs, "printed_cost", lambda m, s, item: right(m, s, replace(item, origin="hand")))
    assert any("829.1.c.1" in v for v in _explore()[2])


# -- what a scenario and a state may say ------------------------------------------------------------
SCENARIO = """
name: A card with Flow.
ruleset: riftbound
players: [{name: Ann, trash: [Echo]}, Bo]
cards:
  Echo: %s
steps:
  - pass: Ann
"""


@pytest.mark.parametrize("card,says", [
    ("{type: spell, keywords: [Flow], effects: [{draw: 1}]}", "Flow is written with its cost as flow: COST"),
    ("{type: unit, flow: 1}", "Flow is on spells (829.1.a)"),
    ("{type: spell, flow: {energy: 1, rune: 2}, effects: [{draw: 1}]}", "cards.Echo.flow"),
])
def test_a_malformed_flow_is_refused_with_its_place(card: str, says: str) -> None:
    with pytest.raises(ScenarioError) as err:
        run(loads(SCENARIO % card, "f.yaml"))
    assert says in str(err.value) and "cards.Echo" in str(err.value), str(err.value)


@pytest.mark.parametrize("card,player", [("{type: spell, effects: [{draw: 1}]}", "Ann"),  # no Flow
                                         ("{type: spell, flow: 1, effects: [{draw: 1}]}", "Bo")])  # not his trash
def test_only_a_flow_spell_is_played_from_its_owners_trash(card: str, player: str) -> None:
    text = (SCENARIO % card).replace("  - pass: Ann", f"  - expect_illegal: {{play: {{player: {player}, "
                                                     "card: Echo, from: trash}, rule: \"829.1.b\"}")
    result = run(loads(text, "f.yaml"))
    assert result.error is None and all(e.ok for e in result.expectations), result.expectations


def test_a_pasted_state_says_whose_trash_holds_a_flow_spell() -> None:
    with pytest.raises(FormatError) as err:
        get_model("riftbound").state_from_json({"players": ["Ann", "Bo"], "cards": CARDS, "trash": ["Rekindle"]}, None)
    assert "Rekindle has Flow" in str(err.value) and "trash_owners" in str(err.value)


def test_a_flow_card_reads_back_as_written() -> None:
    pool = parse_cards(CARDS)
    again = parse_cards({name: card_json(c) for name, c in pool.items()})
    assert again == pool and again["Rekindle"].flow is not None and "Flow" in again["Rekindle"].keywords
