"""Magic's timing model: vigilance (CR 702.20b, 508.1f): every decision sequence of a small
combat to a bounded depth, checked from the card pool as written; a model that forgets
vigilance caught; the keyword read in any spelling and written back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from exploring import explore_checked
from kb.timing.engine import TraceNode
from kb.timing.models.mtg import Magic, State
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.mtg.cards_io import card_json, parse_cards

CARDS: dict[str, dict[str, Any]] = {
    "Sentry": {"type": "creature", "power": 2, "toughness": 2, "keywords": ["vigilance"],
               "abilities": [{"name": "Sentry's shot", "tap": True, "target": "any",
                              "effects": [{"damage": {"to": "target", "amount": 1}}]}]},
    "Bear": {"type": "creature", "power": 2, "toughness": 2},
}
VIGILANT = {n for n, c in CARDS.items() if "vigilance" in c.get("keywords", [])}
DEPTH = 8


def setup() -> tuple[Magic, State]:
    seats = [{"name": "Ann", "battlefield": ["Sentry", "Bear"]}, {"name": "Bo", "battlefield": ["Sentry"]}]
    return mtg_scenario.setup({"players": seats, "cards": CARDS, "start": {"step": "declare-attackers", "turn": 3},
                               "edition": "2026-01-16"})  # type: ignore[return-value]


def node_violations(model: Magic, node: TraceNode) -> Iterator[str]:
    """As attackers are declared, each one without vigilance becomes tapped (508.1f) and each
    one with it stays as it was, untapped (702.20b); nothing else changes its tapped state."""
    if node.name != "declare-attackers":
        return
    for u in node.after.board:
        was = next(b for b in node.before.board if b.id == u.id)
        want = was.tapped or (u.attacking and u.card not in VIGILANT)
        if u.tapped != want:
            yield f"{u.name} is {'tapped' if u.tapped else 'untapped'} after attacking (702.20b, 508.1f)"


def _explore(model: Magic, start: State) -> tuple[Any, Any, list[str]]:
    return explore_checked(model, start, DEPTH, node_violations)


def test_every_decision_sequence_keeps_vigilance(capsys: Any) -> None:
    ex, taken, wrong = _explore(*setup())
    with capsys.disabled():
        print(f"\n  vigilance, 2 players, depth {DEPTH}: {ex.states} states; "
              + ", ".join(f"{n} {taken[n]}" for n in ("declare-attackers", "vigilance", "attack-tapped", "activate")))
    assert not wrong, wrong[:5]
    for name in ("vigilance", "attack-tapped", "activate"):
        assert taken[name], f"no decision sequence reached {name}"


def test_a_model_that_forgets_vigilance_is_caught(monkeypatch: Any) -> None:
    """Wrong: the model's pool lost the keyword, so every attacker taps; the check reads the
    pool as the scenario wrote it."""
    model, start = setup()
    monkeypatch.setattr(model, "cards", {n: replace(c, vigilance=False) for n, c in model.cards.items()})
    assert any("is tapped after attacking" in v for v in _explore(model, start)[2])


@pytest.mark.parametrize("written", ["vigilance", "Vigilance", "VIGILANCE"])
def test_vigilance_is_read_in_any_spelling_and_written_back(written: str) -> None:
    card = parse_cards({"Sentry": {**CARDS["Sentry"], "keywords": [written]}})["Sentry"]
    assert card.vigilance
    assert parse_cards({"Sentry": card_json(card)})["Sentry"] == card
