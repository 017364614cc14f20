"""Triggered abilities that trigger "once each turn" or "N times each turn" (383.3.e).

- Such an ability is performed at most N times a turn: once it has been, its trigger condition
  met again does not trigger it (383.3.e.1; the trace says why, ``trigger-not-triggered``).
- It is performed as it is finalized on the chain (a "you may" one: when its controller chooses to
  perform it during finalization, 383.3.e.2.a), and counted then, by its name, in the state's
  ``performed_this_turn``. One declined is removed from the chain and has not been performed, so
  it may trigger again later that turn (383.3.e.2.b).
- Two that triggered before either was performed (two friendly units dying in one cleanup) are
  both put on the chain; one finalized after the limit was reached by the other leaves the chain
  without being performed (``trigger-used-up``: it has already been performed that many times).

Copies of one card share their ability's name, and so its count (the model names abilities,
not objects).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import Trigger
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

registry.step("trigger-not-triggered", "a \"once (N times) each turn\" triggered ability already performed that many "
              "times this turn does not trigger", "{item} does not trigger: it has been performed {count} this turn "
              "(\"{times} each turn\")")


def trigger_of(m: Riftbound, item: Item) -> Trigger | None:
    """The limited triggered ability of a card that the chain item ``item`` is, if any."""
    if item.kind != "trigger" or not m.limited_triggers:
        return None
    card = m.cards.get(item.source or "")
    return next((tr for tr in card.triggers if tr.name == item.name and tr.each_turn is not None), None) \
        if card is not None else None


def used_up(s: State, tr: Trigger) -> bool:
    """Whether ``tr`` has been performed as many times this turn as it may be (383.3.e.1)."""
    return tr.each_turn is not None and s.times_performed(tr.name) >= tr.each_turn


def performed(s: State, tr: Trigger) -> State:
    """The state with ``tr`` performed once more this turn."""
    counts = dict(s.performed)
    counts[tr.name] = counts.get(tr.name, 0) + 1
    return replace(s, performed=tuple(sorted(counts.items())))


def times(n: int | None) -> str:
    """"once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(n or 0, f"{n} times")
