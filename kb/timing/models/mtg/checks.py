"""The legality checks: each a precondition of a decision, citing its rules."""

from __future__ import annotations

from typing import Any

from kb.timing.engine import Check, Params
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.citations import EDITION_2010
from kb.timing.models.mtg.objects import Ability, Card, MAIN, State


class LegalityChecks(Part):
    """The legality checks: each a precondition of a decision, citing its rules."""

    # -- legality checks ----------------------------------------------------------------------
    def _checks(self) -> list[Check]:
        def mk(name: str, summary: str, holds: Any, tempting: bool = True) -> Check:
            return Check(name, self.cite("check." + name), summary, holds, tempting)

        def card(p: Params) -> Card:
            return self.cards[p["card"]]

        def in_hand(s: State, p: Params) -> bool:
            hand = s.hand(p["player"])
            return hand is None or p["card"] in hand

        def sorcery_timing(s: State, p: Params) -> bool:
            c = card(p)
            if c.instant_speed:
                return True
            return p["player"] == s.active and s.step in MAIN and not s.stack

        def targets(s: State, p: Params) -> bool:
            kind = card(p).target
            return self.target_ok(s, kind, p.get("target"), None,
                                  self.resolve_target(s, kind, p.get("target"), p.get("target_id")))

        def land_timing(s: State, p: Params) -> bool:
            return s.step in MAIN and not s.stack

        def ability(s: State, p: Params) -> Ability | None:
            found = self.find_ability(s, p)
            return found[1] if found else None

        def ability_timing(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or a.timing == "any":
                return True
            if a.timing == "sorcery":
                return p["player"] == s.active and s.step in MAIN and not s.stack
            return p["player"] == s.active and s.step == "upkeep"

        def ability_condition(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.artifacts:
                return True
            return sum(1 for u in s.controls(p["player"]) if self.has_type(u, "artifact")) >= a.artifacts

        def ability_target(s: State, p: Params) -> bool:
            a = ability(s, p)
            return a is None or self.target_ok(s, a.target, p.get("target"), None,
                                               self.resolve_target(s, a.target, p.get("target"), p.get("target_id")))

        def untapped(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.tap:
                return True
            u = s.permanent(self.find_ability(s, p)[0])  # type: ignore[index]
            return u is not None and not u.tapped

        def not_sick(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.tap:
                return True
            u = s.permanent(self.find_ability(s, p)[0])  # type: ignore[index]
            return u is None or not (u.sick and self.is_creature(u))

        def mana_source(s: State, p: Params) -> bool:
            u = s.permanent(p["source"])
            return (u is not None and u.controller == p["player"] and self.mana_ability(u) is not None
                    and not u.tapped)

        def mana_sick(s: State, p: Params) -> bool:
            u = s.permanent(p["source"])
            return u is None or not (u.sick and self.is_creature(u))

        def mana_timing(s: State, p: Params) -> bool:
            return s.priority == p["player"] or (s.payment is not None and s.payment.player == p["player"])

        def face_down(s: State, p: Params) -> bool:
            u = s.permanent(p["permanent"])
            card = self.cards.get(u.card) if u else None
            return (u is not None and u.face_down and u.controller == p["player"] and card is not None
                    and card.morph is not None)

        def paying(s: State, p: Params) -> bool:
            return (s.payment is not None and s.payment.player == p["player"]
                    and s.payment.purpose != "unless")

        def paying_unless(s: State, p: Params) -> bool:
            return (s.payment is not None and s.payment.player == p["player"]
                    and s.payment.purpose == "unless")

        def can_pay(s: State, p: Params) -> bool:
            return s.payment is None or s.mana(p["player"]) >= s.payment.amount

        def asked(s: State, p: Params) -> bool:
            r = s.resolving
            return r is not None and bool(r.asked) and r.asked[0] == p["player"] and s.payment is None

        def choice_ok(s: State, p: Params) -> bool:
            r = s.resolving
            if r is None or not r.asked:
                return False
            return p["choice"] in self._choices(s, r, p["player"])

        def attackers_ok(s: State, p: Params) -> bool:
            for name in p["attackers"]:
                u = s.permanent(name)
                card = self.card_of(u) if u else None
                if (u is None or u.controller != p["player"] or not self.is_creature(u) or u.tapped
                        or (u.sick and not (card and card.haste))):
                    return False
            return True

        def blockers_ok(s: State, p: Params) -> bool:
            for blocker, attacker in p["blocks"]:
                u, a = s.permanent(blocker), s.permanent(attacker)
                if u is None or u.controller != p["player"] or not self.is_creature(u) or u.tapped:
                    return False
                if a is None or not a.attacking:
                    return False
            return True

        def declarer(s: State, p: Params) -> bool:
            if s.awaiting in ("declare-attackers", "choose-defender"):
                return p["player"] == s.active
            if s.awaiting == "declare-blockers":
                return p["player"] == s.defender
            return False

        def own_turn(s: State, p: Params) -> bool:
            return p["player"] == s.active

        def one_land(s: State, p: Params) -> bool:
            return p["player"] not in s.lands_played

        def no_split_second(s: State, p: Params) -> bool:
            return not any(o.kind == "spell" and o.card in self.cards and self.cards[o.card].split_second
                           for o in s.stack)

        def could_cast(s: State, p: Params) -> bool:  # timing permissions and what forbids casting (702.62c)
            return sorcery_timing(s, p) and no_split_second(s, p)

        def own_main_empty(s: State, p: Params) -> bool:
            return p["player"] == s.active and s.step in MAIN and not s.stack

        def exiled_as(how: str) -> Any:
            def holds(s: State, p: Params) -> bool:
                x = s.exiled(p.get("exile_id"))
                return x is not None and x.owner == p["player"] and x.how == how and x.card == p["card"]
            return holds

        def later_turn(s: State, p: Params) -> bool:
            x = s.exiled(p.get("exile_id"))
            return x is None or x.turn < s.turn

        def keyword(name: str, what: str) -> Check:
            return Check("has-" + name, self.cite("check.has-keyword"), f"the card has no {what}",
                         lambda s, p: getattr(card(p), name) is not None)

        return [
            mk("has-priority", "only the player with priority may do this", lambda s, p: s.priority == p["player"]),
            mk("in-this-edition", "not a special action of this edition: its keyword came into the rules later",
               lambda s, p: self.edition != EDITION_2010),
            keyword("suspend", "suspend"), keyword("foretell", "foretell"), keyword("plot", "plot"),
            mk("could-cast", "a card can be suspended only when it could be cast now: its own timing, and not "
               "while a spell with split second is on the stack", could_cast),
            mk("during-your-turn", "a card can be foretold only during your own turn", own_turn),
            mk("plot-timing", "a card can be plotted only in your own main phase with an empty stack", own_main_empty),
            Check("foretold", self.cite("check.exiled-card"), "that player has no such foretold card in exile",
                  exiled_as("foretold")),
            Check("plotted", self.cite("check.exiled-card"), "that player has no such plotted card in exile",
                  exiled_as("plotted")),
            mk("later-turn", "a foretold or plotted card can be cast only after the turn it was exiled in has ended",
               later_turn),
            mk("plotted-timing", "a plotted card is cast only in your own main phase with an empty stack, "
               "whatever its type", own_main_empty),
            mk("defender", "the defending player is one of the attacking player's opponents still in the game",
               lambda s, p: p["defender"] in s.opponents),
            mk("split-second", "a spell with split second is on the stack: no spells, no abilities but mana "
               "abilities (special actions are still allowed)", no_split_second),
            mk("in-hand", "the card is not in that player's hand", in_hand),
            mk("not-a-land", "a land is played, not cast", lambda s, p: "land" not in card(p).types),
            mk("sorcery-timing", "a noninstant spell only in your main phase with an empty stack", sorcery_timing),
            mk("targets", "the spell needs a legal target", targets),
            mk("land", "only a land card can be played as a land", lambda s, p: "land" in card(p).types),
            mk("land-timing", "a land only in a main phase with an empty stack", land_timing),
            mk("own-turn", "a land only during your own turn", own_turn),
            mk("one-land", "one land per turn: that player has already played a land this turn", one_land),
            mk("ability-source", "no permanent (or card in the graveyard) of that player has that ability",
               lambda s, p: self.find_ability(s, p) is not None),
            mk("ability-timing", "the ability's own timing restriction forbids activating it now", ability_timing),
            mk("ability-condition", "the ability's condition is not met", ability_condition),
            Check("ability-target", self.cite("check.targets"), "the ability needs a legal target", ability_target),
            mk("untapped", "a tapped permanent can't be tapped to pay a cost", untapped),
            mk("summoning-sickness", "a creature's {T} ability needs it under your control since your turn began",
               not_sick),
            Check("mana-sick", self.cite("check.summoning-sickness"),
                  "a creature's {T} ability needs it under your control since your turn began", mana_sick),
            mk("mana-source", "no untapped permanent of that player with a mana ability by that name", mana_source),
            mk("mana-timing", "a mana ability only with priority, or while a mana payment is asked of you",
               mana_timing),
            mk("face-down", "only a face-down permanent of yours with morph can be turned face up", face_down),
            mk("paying", "that player is not paying a cost now", paying),
            Check("paying-unless", self.cite("check.paying"), "no payment is asked of that player now",
                  paying_unless),
            mk("can-pay", "not enough mana in the pool to pay the cost", can_pay),
            mk("asked", "no choice is asked of that player now (no one has priority while a spell resolves)",
               asked),
            mk("choice", "not a valid choice for this instruction", choice_ok),
            mk("attackers", "only your untapped creatures that have been yours since the turn began can attack",
               attackers_ok),
            mk("blockers", "only your untapped creatures can block, and only attacking creatures", blockers_ok),
            mk("declarer", "that player does not declare now", declarer),
        ]
