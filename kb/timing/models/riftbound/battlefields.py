"""Battlefields as cards with a contributor: their abilities, and their removal with the player
who contributed them (652.2).

- A battlefield of the game may be a card of the pool (``type: battlefield``): its "when you
  conquer (hold) here" triggers (:mod:`kb.timing.models.riftbound.scoring`), and its static
  ability ``here: {might: N}`` ("Units here have +N [M]"), a continuous effect on the Might of
  every unit at that battlefield while it is there (143.2; a unit moved away no longer has it).
- A battlefield of the scenario may say which player contributed it to the game
  (``contributed_by``). When that player is removed from a game that goes
  on (652), the battlefield is removed and replaced with a token battlefield with no abilities
  (652.2, 652.2.a): the token is treated as the same object (438.1.a), so the units and facedown
  cards there do not move (652.2.b), whoever controlled or contested it still does, and what was
  scored there this turn stays scored; but its triggers no longer trigger and its continuous
  effects cease at once (652.2.c), so a unit that survived its damage only by the battlefield's
  Might has lethal damage and dies in the next cleanup (323.5).

A battlefield replaced with a token is ``token`` in the state (``replaced_by_token`` in its
JSON); a pool without battlefield cards pays nothing for any of this (:attr:`Riftbound.battlefield_cards`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.engine import Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import Card
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

registry.step("battlefield-replaced-on-removal", "the battlefield a player removed contributed is replaced with a "
              "token battlefield with no abilities; what is there stays", "{at}, which {player} contributed, is "
              "replaced with a token battlefield with no abilities{there}")
registry.step("battlefield-effects-cease", "a removed battlefield's continuous effects cease at once",
              "{at}'s \"{effect}\" ceases: {units}")


def battlefield_card(m: Riftbound, s: State, at: str) -> Card | None:
    """The card a battlefield of the game is, with its abilities; None for a battlefield that is
    no card of the pool, and for a token battlefield with no abilities that replaced one (652.2.a)."""
    card = m.cards.get(at)
    if card is None or card.type != "battlefield":
        return None
    bf = s.battlefield(at)
    return None if bf is None or bf.token else card


def might_here(m: Riftbound, s: State, at: str) -> int:
    """What the battlefield ``at`` adds to the Might of each unit there ("Units here have +N
    [M]"): 0 at a base, at a battlefield without such an ability, and once it is replaced."""
    if at == "base" or not m.battlefield_cards:
        return 0
    card = battlefield_card(m, s, at)
    return card.here_might if card is not None else 0


def here_text(card: Card) -> str:
    """A battlefield's static ability in the card's words ("Units here have +1 Might")."""
    return f"Units here have {card.here_might:+d} Might"


def remove_contributed(m: Riftbound, s: State, t: Trace, who: str) -> State:
    """The battlefields ``who`` contributed, removed with them (652.2): each replaced with a token
    battlefield with no abilities (652.2.a), the units there left where they are (652.2.b), its
    continuous effects ceasing at once (652.2.c). A state without such battlefields is returned as
    it was."""
    contributed = [b for b in s.battlefields if b.contributor == who]
    for bf in contributed:
        before = {u.name: m.might(u, s) for u in s.units_at(bf.name)}
        card = battlefield_card(m, s, bf.name)
        s = replace(s, battlefields=tuple(replace(b, contributor=None, token=True) if b.name == bf.name else b
                                          for b in s.battlefields))
        there = [u.name for u in s.units_at(bf.name)] + [f[0] for f in s.facedown if f[2] == bf.name]
        t.note("battlefield-replaced-on-removal", s, {
            "at": bf.name, "player": who,
            "there": f": {', '.join(there)} {'stays' if len(there) == 1 else 'stay'} there" if there else ""})
        changed = [u for u in s.units_at(bf.name) if m.might(u, s) != before[u.name]]
        if card is not None and card.here_might and changed:
            t.note("battlefield-effects-cease", s, {
                "at": bf.name, "effect": here_text(card),
                "units": ", ".join(f"{u.name} now has {m.might(u, s)} Might" for u in changed)})
    return s
