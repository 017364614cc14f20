"""The Riftbound timing model over a pool of (abstract) cards: the engine's
:class:`kb.timing.engine.Model`, its checks and transitions bound from the registry that the
package's modules fill, and what it knows about cards, targets and destinations."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from kb.timing.engine import Model, Option, Params, Rules, Violation
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import checks, combat, decisions, effects, scoring  # noqa: F401 (they register)
from kb.timing.models.riftbound import adding, costs, damage, paying, replacements  # noqa: F401 (they register)
from kb.timing.models.riftbound import attaching, beginning, conceding, play_attaching  # noqa: F401 (they register)
from kb.timing.models.riftbound import battlefields, invariants, teams, xp
from kb.timing.models.riftbound.cards import SEVERAL_TARGETS, UNIT_CHOICES, Card, Effect, Trigger, attaching_choice
from kb.timing.models.riftbound.citations import CITATION_EDITION, CITATIONS, cite, registry
from kb.timing.models.riftbound.state import Permanent, State
from kb.timing.models.riftbound.triggers import active

# The instructions that name what they act on, which may be a target: an item on the chain
# ("counter") or a unit the item chooses (355.5, 355.8).
TARGETED = ("counter", *UNIT_CHOICES)
_UNKNOWN = object()  # a state whose replacement choice is not worked out yet


class Riftbound(Model):
    """The Riftbound timing model over a pool of (abstract) cards."""

    ruleset = "riftbound"
    citation_edition = CITATION_EDITION
    citations = CITATIONS

    def __init__(self, cards: Mapping[str, Card] | None = None):
        self.cards: dict[str, Card] = dict(cards or {})
        self.deflectors = frozenset(n for n, c in self.cards.items() if c.deflect)  # cards with Deflect (809)
        self.checks, self.transitions = registry.build(self)
        self.invariants = invariants.build(self)
        self.transitions_by_rule: dict[str, list[str]] = {}
        self._automatic = [t for t in self.transitions.values() if t.kind == "automatic"]
        self._choices: dict[State, dict[str, str] | None] = {}
        self._optional = any(c.replacement is not None and c.replacement.optional for c in self.cards.values())
        # whether the pool has "once (N times) each turn" triggered abilities (383.3.e) and cards
        # active in the trash (370.3): without them, their checks return at once
        self.limited_triggers = any(tr.each_turn is not None for c in self.cards.values() for tr in c.triggers)
        # whether battlefields of the game are cards with a static ability on the units there
        self.equipment = any(c.equipment for c in self.cards.values())  # gear that attaches (150, 818)
        # play effects attaching a card chosen as they are finalized (Quick-Draw 819.1.d, Weaponmaster 821.1.c)
        self.attaching_on_play = any(attaching_choice(tr.effects) for c in self.cards.values() for tr in c.triggers)
        self.uses_xp = any(xp.uses_xp(c) for c in self.cards.values())  # cards gaining or spending XP (730)
        self.battlefield_cards = any(c.type == "battlefield" and c.here_might for c in self.cards.values())
        self.active_in_trash = any(c.replacement is not None and c.replacement.zone == "trash"
                                   for c in self.cards.values())
        # whether whose trash holds a card is recorded: cards active there, or with Flow (829.1.b)
        self.owners_kept = self.active_in_trash or any(c.flow is not None for c in self.cards.values())
        if self._optional:
            self._wait_for_replacement_choices()

    def _wait_for_replacement_choices(self) -> None:
        """A pool with "you may" replacement effects: while a choice of one is due (371.2.a),
        the replacement's controller makes it, and every other transition waits (a check each
        decision and automatic step has in such a pool only)."""
        waits = self.checks["no-replacement-choice-due"]
        for name, t in list(self.transitions.items()):
            if t.kind != "step" and name not in ("apply-replacement", "decline-replacement", "concede"):
                self.transitions[name] = replace(t, preconditions=t.preconditions + (waits,))

    def replacement_choice_due(self, s: State) -> dict[str, str] | None:
        """The "you may" replacement choice due before the next automatic step (371.2.a), as
        ``player``, ``source`` and ``unit``; None when there is none (always, in a pool without
        such replacements). Worked out once per state."""
        if not self._optional:
            return None
        found = self._choices.get(s, _UNKNOWN)
        if found is _UNKNOWN:  # a model serves every thread: read once, then keep (a bounded memo)
            found = replacements.choice_due(self, s, self._automatic)
            if len(self._choices) > 4096:
                self._choices.clear()
            self._choices[s] = found
        return found  # type: ignore[return-value]

    # -- card knowledge --------------------------------------------------------------------
    def card(self, name: str | None) -> Card | None:
        return self.cards.get(name) if name else None

    def triggers_of(self, card: str | None, on: str, unit: Permanent | None = None,
                    s: State | None = None) -> list[Trigger]:
        """The triggered abilities of a card that fire ``on`` an event; its "[Empowered] >"
        ones only for ``unit``, its permanent, while that is Empowered (828.1.c), its "[Level
        N] >" ones only while ``unit``'s controller has N XP in ``s`` (824.1.c, 727.1.c.1)."""
        c = self.cards.get(card or "")
        return [tr for tr in c.triggers if tr.on == on and active(tr, unit, s)] if c else []

    def might(self, u: Permanent, s: State) -> int:
        """A unit's current Might in ``s``: printed, plus what it was given this turn, plus
        Assault while it is an attacker and Shield while it is a defender (807.1.c, 814.1.c),
        plus what the battlefield it is at gives the units there (143.2, 652.2.c), plus what its
        Active Level abilities give it (824.1.b.1)."""
        card = self.cards.get(u.card)
        printed = (card.might + combat.keyword_might(card, u) if card else 1) + u.might_bonus
        if card is not None and card.levels:
            printed += xp.level_might(self, s, u)
        if self.equipment:  # the Might Bonus of each gear attached to it (718.4, 434.1.d)
            printed += sum(self.cards[g.card].might_bonus for g in s.board if g.attached_to == u.name)
        return printed + battlefields.might_here(self, s, u.location) if self.battlefield_cards else printed

    def ganks(self, u: Permanent, s: State) -> bool:
        """Whether the unit has Ganking in ``s``: printed, or given by an Active Level ability
        (824.1.b.1); its Standard Move may go from a battlefield to another (810.1.b, 144.4.c.1)."""
        card = self.cards.get(u.card)
        return card is not None and ("Ganking" in card.keywords or "Ganking" in xp.granted_keywords(self, s, u))

    def has_reaction(self, state: State, params: Params) -> bool:
        """Reaction: printed (813), from facedown (811.6), or Ambush to your units (822.1.b)."""
        card = self.cards[params["card"]]
        if "Reaction" in card.keywords or params.get("from") == "facedown":
            return True
        return self.ambush(state, params)

    def ambush(self, state: State, params: Params) -> bool:
        """Played with Ambush: a unit to a battlefield where its player has units (822.1.b)."""
        card = self.cards[params["card"]]
        to = params.get("to")
        return ("Ambush" in card.keywords and card.type == "unit" and to not in (None, "base")
                and bool(state.units_at(to, params["player"])))

    def needs_target(self, effects: Iterable[Effect]) -> str | None:
        """What the instructions target: "item", "unit", or None."""
        for e in effects:
            if e[0] in TARGETED and e[1] == "target":
                return "item" if e[0] == "counter" else "unit"
        return None

    def invalid_destination(self, s: State, player: str, to: str) -> bool:
        """No unit of ``player`` may move to ``to``: units of two other players are there (449.2),
        a teammate's units are there (447.2.b), or, with more than two players, a combat is staged or in progress there between two
        others (447.2.a, 462.1)."""
        if to == "base":
            return False
        if teams.teammates_here(s, player, to):  # a teammate's units are there (447.2.b)
            return True
        others = {u.controller for u in s.units_at(to)} - {player}
        if len(others) >= 2:
            return True
        return len(s.players) > 2 and self.combat_without(s, player, to)

    def combat_without(self, s: State, player: str, at: str) -> bool:
        """A combat is staged or in progress at ``at`` and ``player`` is not one of its two."""
        if s.combat is not None and s.combat.battlefield == at:
            return player not in (s.combat.attacker, s.combat.defender)
        owners = {u.controller for u in s.units_at(at)}
        return len(owners) >= 2 and player not in owners

    def moves_ok(self, s: State, effects: Iterable[Effect], target: str | None,
                 targets: tuple[str, ...] = ()) -> bool:
        """Playing this would not move a unit where it cannot be (358.3): checked as it is played."""
        for e in effects:
            if e[0] != "move":
                continue
            names = targets if e[1] == SEVERAL_TARGETS else ((target if e[1] == "target" else e[1]) or "",)
            for name in names:
                u = s.permanent(name)
                if u is not None and e[2] != u.location and self.invalid_destination(s, u.controller, e[2]):
                    return False
        return True

    def several_targets_ok(self, s: State, card: Card, targets: Any) -> bool:
        """The units chosen for a card's several targets (355.13, 355.8): one to as many as it says
        ("each of up to N units"; none chosen is no play, the instruction having nothing to act
        on), each a different unit on the board. A card of one target chooses no list."""
        if not card.targets:
            return not targets
        if not isinstance(targets, tuple) or not 1 <= len(targets) <= card.targets or len(set(targets)) != len(targets):
            return False
        return all(s.permanent(name) is not None for name in targets)

    def targets_ok(self, state: State, effects: Iterable[Effect], target: str | None,
                   self_id: int | None = None) -> bool:
        """Valid choices exist for every target (355.8): items on the chain, units on board."""
        for e in effects:
            kind = e[0]
            if kind not in TARGETED or e[1] == SEVERAL_TARGETS:  # several targets: the several-targets check
                continue
            name = target if e[1] == "target" else e[1]
            if name is None:
                return False
            if kind == "counter":
                if not any(i.name == name and i.id != self_id and i.status == "finalized" for i in state.chain):
                    return False
            elif state.permanent(name) is None:
                return False
        return True

    # -- the engine's questions -------------------------------------------------------------
    def validate(self, s: State) -> list[Violation]:
        return invariants.validate(s)

    def terminal(self, s: State) -> tuple[str, Rules] | None:
        if s.winner is not None:
            return (f"{s.winner} has won the game.", cite("game-won"))
        if s.phase == "over" and s.removed:  # the turn player conceded: the next player's turn (652.5.a.1)
            return (f"{s.removed[-1]} left the game as the turn player: play proceeds in turn order to "
                    f"{s.turn_player}'s turn; the model follows one turn and stops here.",
                    cite("turn-passes-on-removal"))
        if s.phase == "ending":
            return ("The Main Phase has ended; the model stops at the Ending Phase.", cite("end-main-phase"))
        return None

    def tempting(self, s: State, option: Option) -> bool:
        """Illegal options worth showing: the decider's own, and other players' Reactions."""
        if not s.chain and option.transition.name == "pass-priority":
            return False
        if option.player == s.priority or option.transition.name in ("decline-trigger", "perform-trigger",
                                                                     "pay-cost", "decline-cost", "add-while-paying"):
            return True
        name = option.params.get("card")
        return bool(name) and "Reaction" in self.cards[name].keywords


@functools.lru_cache(maxsize=64)
def _model(pool: tuple[tuple[str, Card], ...]) -> Riftbound:
    return Riftbound(dict(pool))


def model_for(cards: dict[str, Card]) -> Riftbound:
    """The model over a card pool, made once per pool: a pasted state (or the next frame of the
    same scenario) reads its pool again, and building the model was half of reading a state.
    Models are not changed once made, so one serves every state of its pool."""
    return _model(tuple(cards.items()))
