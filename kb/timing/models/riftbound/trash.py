"""Each player's trash (108.2.a) and the replacement effects active there (366.1, 370.3).

- Every card put into a trash goes to its owner's: a spell its controller played (157), a
  card discarded from a hand (422.1), a unit or gear that dies (the model changes no control,
  so a permanent's owner is its controller). The state's ``trash`` keeps every card in any
  trash, in the order they went there; ``trash_owners`` says whose trash holds each card whose
  ability is active there or that may be played from there (Flow, 829.1.b), the only cards whose
  trash a rule of the model asks about.
- A card's ``replacement: {zone: trash, would_die: friendly, …}`` is a replacement effect active
  while it is in its owner's trash ("if a unit you control would die, you may banish me from
  your trash instead. If you do, heal that unit, exhaust it and recall it"). It is evaluated for
  an event only if the card entered the trash before that event (370.3): a card dying
  simultaneously with the unit, in the same cleanup or by the same kill, enters the trash with
  it and cannot replace its death, and the trace says so. With ``banish_this`` its source is
  banished from the trash as it applies (the state's ``banished``).
- What the replacement does, counting "once each turn" and asking "you may", is the board's
  replacements' (:mod:`kb.timing.models.riftbound.replacements`): its source stands there as a
  stand-in permanent at the place ``trash`` controlled by the trash's owner.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

TRASH = "trash"  # where a stand-in source of a replacement active in the trash is

registry.step("flow-banished", "a spell played for its Flow cost is banished as it leaves the chain",
              "{item} is banished instead of going to the trash: it was played for its Flow cost")


def active_in_trash(m: Riftbound, card: str | None) -> bool:
    """Whether ``card`` has a replacement effect active in its owner's trash (366.1)."""
    c = m.cards.get(card or "")
    return c is not None and c.replacement is not None and c.replacement.zone == TRASH


def kept_in_trash(m: Riftbound, card: str | None) -> bool:
    """Whether the model records whose trash holds ``card``: its replacement effect is active
    there (366.1), or it has Flow and may be played from there (829.1.b)."""
    c = m.cards.get(card or "")
    return c is not None and (c.flow is not None or (c.replacement is not None and c.replacement.zone == TRASH))


def to_trash(m: Riftbound, s: State, cards: Iterable[tuple[str, str]]) -> State:
    """``cards`` (each a card and its owner) put into their owners' trashes (108.2.a): added to
    the trash, and the owner of each whose ability is active there, or that has Flow, recorded."""
    cards = list(cards)
    if not cards:
        return s
    owned = tuple((c, owner) for c, owner in cards if kept_in_trash(m, c)) if m.owners_kept else ()
    return replace(s, trash=s.trash + tuple(c for c, _ in cards), owners=s.owners + owned)


def sources(m: Riftbound, s: State) -> list[Permanent]:
    """The cards in a trash whose replacement effect is active there, each as a stand-in source
    (its card's name, controlled by the trash's owner, at the place ``trash``), in the order they
    went there."""
    return [Permanent(card, card, owner, TRASH) for card, owner in s.owners]


def leaves_chain(m: Riftbound, s: State, t: Trace, item: Item, card: str) -> State:
    """A spell card leaving the chain, resolved or countered: to its controller's trash (157), or
    banished instead when it was played for its Flow cost (829.1.b.1)."""
    if item.origin == TRASH:
        s = replace(s, banished=s.banished + ((card, item.controller),))
        t.note("flow-banished", s, {"item": item.name})
        return s
    return to_trash(m, s, [(card, item.controller)])


def take(s: State, card: str, owner: str) -> State:
    """``card`` taken from ``owner``'s trash (one copy of it), as it is played from there (829.1.b)."""
    owners = list(s.owners)
    owners.remove((card, owner))
    trash = list(s.trash)
    trash.remove(card)
    return replace(s, trash=tuple(trash), owners=tuple(owners))


def banish(s: State, card: str, owner: str) -> State:
    """``card`` banished from ``owner``'s trash (one copy of it)."""
    owners = list(s.owners)
    owners.remove((card, owner))
    trash = list(s.trash)
    trash.remove(card)
    return replace(s, trash=tuple(trash), owners=tuple(owners), banished=s.banished + ((card, owner),))

