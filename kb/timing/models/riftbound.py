"""The Riftbound timing model: the turn's states, priority and focus, HOT FEPR, showdowns
and combat, as transitions that cite the Core Rules.

Every transition, step, legality check and invariant takes its rule numbers from
:data:`CITATIONS`, the one table of citations (written against edition 1.4, see
:data:`CITATION_EDITION`; carrying them to another edition means mapping this table).

Scope: the Main Phase of one turn. Cards are abstract (a name, a type, keywords, triggers,
activated abilities and a few instructions: counter, draw, create reflexive triggers, play a
card from hand, kill or move a unit). Choices the rules leave to players but that do not
change timing are made by the model in a fixed way and said so in the trace: simultaneous
triggers are ordered by turn order then listing order (383.3.d), combat damage is assigned
to units in listing order, lethal damage first (465.2.c.3), and when several battlefields are
staged the first listed is chosen (461.1). A cleanup follows every move, arrival and
departure, every opening of the turn (319.1) and every end of a showdown or combat (319.7),
and is shown only when it changes something the timing depends on (designations and the
attack or defend triggers they fire, control, staging a showdown or combat). Cleanups,
showdowns and combat are in :mod:`kb.timing.models.riftbound_combat`; cards and the state in
:mod:`kb.timing.models.riftbound_state`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from kb.timing.engine import Check, Invariant, Model, Option, Params, Rules, Trace, TraceNode, Transition, Violation
from kb.timing.models.riftbound_combat import CombatSteps
from kb.timing.models.riftbound_state import (DEFERRED_TASKS, Ability, Battlefield, Card, Combat, Effect, Item,
                                              Permanent, Showdown, State, Trigger, _drawn, _replace_item, _set_hand,
                                              _without)

CITATION_EDITION = "1.4"

# The one table: every name a trace, a check or an invariant can carry → the rules it
# implements (edition 1.4 numbering). Keep entries short: the first rules are the ones an
# explanation quotes first.
CITATIONS: dict[str, Rules] = {
    # -- decisions: discretionary actions and the choices of playing an item ------------
    "play": ("338.1", "338.1.a", "338.1.a.4", "338.1.a.7", "419.1", "419.2", "354", "354.2"),
    "activate": ("338.1.a", "377.3", "377.3.a", "377.3.a.1", "401", "401.1", "399", "400"),
    "hide": ("421.1", "421.2", "811.1.b", "811.1.c", "811.1.c.1", "811.1.c.2"),
    "standard-move": ("144", "144.2", "144.4.a", "144.4.b", "446.3", "446.3.c", "453", "319.8"),
    "pass-priority": ("338.1.b", "338.1.b.1", "313.3"),
    "pass-focus": ("347", "347.2"),
    "end-main-phase": ("316.9", "316.9.a", "316.9.b", "305"),
    "perform-trigger": ("383.3.a", "383.3.a.1", "402.1", "383.3.e.2.a"),
    "decline-trigger": ("383.3.a.2", "402.1.a", "383.3.e.2.b"),
    # -- steps inside a decision ----------------------------------------------------------
    "closes-state": ("354.1", "309.1", "331.1", "328", "330"),
    "joins-chain": ("330.1", "330.2", "338.1.a.5"),
    "starts-chain-in-showdown": ("347.1", "347.1.a", "342", "342.1"),
    "legally-timed": ("338.1.a.6", "358.4", "338.1.a.3", "358.5"),
    "play-from-facedown": ("811.1.c.3", "811.6", "811.1.d.1", "421.3"),
    "ambush-permission": ("822.1.b", "822.1.c"),
    "move-contests": ("190.3.a", "190.3.a.1", "450"),
    "play-contests": ("190.3.a.1", "190.3.a", "323.8"),
    "pass-step-resolve": ("339.1",),
    "pass-step-continue": ("339.2", "312.2.d"),
    "focus-passes": ("347.2.b", "313.2", "312.2.b"),
    "showdown-closes": ("347.2.a", "348"),
    # -- HOT FEPR ------------------------------------------------------------------------
    "finalize": ("334.2", "336", "337.1", "337.1.a", "337.1.b", "329.3", "352.2"),
    "counts-as-finalized": ("812.1.c", "419.4.b"),
    "lingers": ("359.3", "359.3.a", "359.3.c", "406.4"),
    "resolves-immediately": ("337.2", "359.2", "400.2", "429.2"),
    "finalize-next": ("337.3", "359.3.b", "406.3", "336.1"),
    "priority-to-next-item": ("337.4", "312.2.c", "312.3"),
    "trigger-removed": ("402.4", "402.4.a"),
    "play-undone": ("822.3", "822.3.a", "358.5"),
    "resolve": ("340.1", "359.3.d", "406.5"),
    "enters-board": ("351.1", "359.2.c", "359.2.d", "319.6"),
    "add-resolves": ("429.2.a", "429.2.b"),
    "completes-play": ("350.1", "351.2", "419.4.a"),
    "open-state": ("340.2", "309.2", "331.2", "310.1", "310.3"),
    "open-state-cleanup": ("319.1", "323.6", "190.4.c"),
    "status-cleanup": ("319.7", "323.12", "323.13"),
    "focus-passes-after-chain": ("340.2.a", "346", "347.1.b"),
    "focus-stays": ("346.1",),
    "back-to-finalize": ("340.3", "354.3", "401.2"),
    "priority-to-newest": ("340.4", "312.2.c"),
    "receive-priority": ("335", "312.2.a", "310.1.a"),
    "focus-holder-priority": ("335.1", "313.2", "312.2.b"),
    # -- instructions while an item resolves ---------------------------------------------
    "counter": ("425.1", "425.1.a", "425.1.a.1", "425.1.b", "419.4.a.1"),
    "draw": ("413.1", "413.2.b"),
    "create-reflexive-trigger": ("387", "388", "388.1", "388.2", "387.1.a"),
    "play-from-effect": ("419.3", "419.3.a", "419.3.b", "354.3"),
    "no-eligible-card": ("419.3.c",),
    "kill": ("428.1", "428.2", "321.1"),
    "move-unit": ("420.1", "446.1", "446.3.c", "449", "321.1"),
    "recalled-instead": ("447.2.c", "449.2", "455", "456.1"),
    "played-to-base-instead": ("462.2.a", "462.2", "462.2.b"),
    "add-resources": ("429.1",),
    "instruction-skipped": ("359.3.e.6", "359.3.e.7", "359.3.e.10"),
    "legion-active": ("812.1.b.1", "812.1.c"),
    "triggers": ("383", "383.3", "383.2.c", "384.2", "334.1"),
    "play-effect-triggers": ("383.4.a", "383.4.a.2", "419.4.a"),
    "death-triggers": ("428.1.a.1.b", "323.4"),
    "conquer-triggers": ("383.4.c", "383.4.c.2.a"),
    "trigger-order": ("383.3.d", "383.3.d.1", "303.2.a"),
    # -- tasks: cleanups, showdowns and combat ---------------------------------------------
    "cleanup": ("333", "333.1", "319", "320", "323"),
    "control-lost": ("323.6", "190.4.c"),
    "designation-gained": ("323.2", "323.2.a", "323.2.b", "464.2.c.3.a"),
    "designation-lost": ("323.2.c",),
    "designation-triggers": ("383.4.e.2", "383.4.f.2", "383.4.e", "383.4.f"),
    "trigger-checked-once": ("383.4.e.2.a", "383.4.f.2.a"),
    "showdown-begins": ("323.12", "344", "345", "316.8.b"),
    "combat-begins": ("323.13", "460", "316.7.a", "461.1"),
    "becomes-combat-showdown": ("323.14", "460.1", "344.1", "316.8.b.1.a"),
    "combat-opens": ("464", "464.1", "464.2", "464.2.a", "316.8.a"),
    "start-of-combat": ("464.2.b",),
    "establish-attacker-defender": ("464.2.c", "464.2.c.1", "464.2.c.2", "464.2.c.3", "464.2.c.3.a"),
    "attacker-gains-focus": ("464.2.d", "464.2.c.1.a", "313.2"),
    "focus-maintained": ("464.2.c.1.b",),
    "combat-chain": ("464.2.e", "464.2.e.1", "383.4.e.2", "383.4.f.2", "334.1"),
    "combat-state-closes": ("464.2.f", "464.2.g"),
    "combat-state-open": ("464.2.f.1",),
    "settle-control": ("348.2", "348.2.a", "190.4", "190.3.b"),
    "conquer": ("348.2.a.1", "466.5.d", "469"),
    "showdown-ends": ("308.2", "313.5"),
    "combat-showdown-closes": ("348.1", "465", "465.1"),
    "combat-damage": ("465.2", "465.2.a", "465.2.b", "465.2.c", "465.2.c.3", "465.2.d"),
    "no-combat-damage": ("465.1",),
    "resolution-step": ("465.3", "466"),
    "combat-cleanup": ("466.1", "466.1.a", "466.1.a.1", "466.1.a.2", "323.5"),
    "combat-result": ("466.2", "466.3", "466.3.a", "466.3.b", "466.3.c", "466.3.d"),
    "establish-control": ("466.4", "466.5", "466.5.a", "466.5.b", "466.5.e"),
    "combat-ends": ("466.6", "466.7", "466.7.a", "466.7.b", "466.7.c"),
    # -- legality checks (what forbids a tempting action) ---------------------------------
    "check.has-priority": ("312.1", "312.1.a", "312.1.b"),
    "check.not-mid-procedure": ("334", "334.2", "334.2.a", "336", "337.1"),
    "check.own-turn-neutral-open": ("310.1.a", "316.5.b", "409"),
    "check.closed-state-needs-reaction": ("309.1.a", "331.1.a", "331.1.b", "338.1.a.1", "338.1.a.2",
                                          "813.1.c.1"),
    "check.showdown-needs-action": ("308.1.a", "343.1.a", "343.1.b", "313.1.a", "806.1.b", "813.1.b"),
    "check.focus": ("313.1", "313.4", "347"),
    "check.in-hand": ("419.1.a",),
    "check.facedown-ready": ("811.1.b", "421.3"),
    "check.targets": ("355.8", "355.9"),
    "check.location": ("355.2", "355.2.a", "822.1.b", "806.3", "813.3.a"),
    "check.ability-on-board": ("380", "145.2"),
    "check.ability-timing": ("381", "145.2", "806.1.c.2", "813.1.c.2"),
    "check.move-timing": ("144.1.a", "144.1.b", "144.1.c", "446.3.c"),
    "check.unit-ready": ("144.2",),
    "check.move-destination": ("144.4", "144.4.a.1", "449.2", "447.2.a", "462.1"),
    "check.move-outcome": ("358.3", "358.5", "449.2", "447.2.a", "462.1"),
    "check.hide-timing": ("811.1.b", "421.2.a"),
    "check.hide-battlefield": ("421.1", "811.1.b"),
    "check.trigger-controller": ("383.3.a", "190.6.a"),
    "check.trigger-optional": ("383.3.a.3", "402.4.b"),
    # -- invariants -----------------------------------------------------------------------
    "invariant.one-priority": ("312",),
    "invariant.focus-in-showdown": ("313.5", "313.1"),
    "invariant.finalize-in-order": ("337.1.b",),
    "invariant.newest-resolves": ("340.1",),
    "invariant.no-action-on-chain": ("309.1.a",),
    "invariant.single-pass": ("347.2.a",),
    "invariant.designation-once": ("383.4.e.2.a", "383.4.f.2.a"),
    # -- why a state cannot occur ---------------------------------------------------------
    "state.one-priority": ("312",),
    "state.focus-neutral": ("313.5",),
    "state.focus-priority": ("335.1", "313.2", "313.4"),
    "state.showdown-focus": ("345", "347"),
    "state.finalized-above-pending": ("337.1.b", "329.3"),
    "state.permanent-finalized-on-chain": ("337.2", "359.2"),
    "state.neutral-priority": ("335", "312.2.a", "310.1.a"),
    "state.chain-without-priority": ("337.4", "340.4", "312.2.c"),
    "state.passes": ("339.1",),
    "state.showdown-passes": ("347.2.a",),
    "state.turn-state": ("308", "309", "310"),
    "state.combat-players": ("462", "316.7.d"),
}

KEYWORDS = frozenset({"Action", "Reaction", "Hidden", "Ambush", "Legion"})
CARD_TYPES = ("spell", "unit", "gear")
TRIGGER_EVENTS = ("play", "attack", "defend", "conquer", "leave", "move")


# What each state check refuses (the ``state.*`` citations above).
STATE_CHECKS: dict[str, str] = {
    "one-priority": "refuses a state where two players hold priority",
    "focus-neutral": "refuses focus outside a showdown or combat",
    "focus-priority": "refuses priority apart from focus in a Showdown Open State",
    "showdown-focus": "refuses a showdown in an open state where nobody has focus",
    "finalized-above-pending": "refuses a finalized item above a pending one",
    "permanent-finalized-on-chain": "refuses a finalized unit, gear or Add ability still on the chain",
    "neutral-priority": "refuses priority for anyone but the turn player in a Neutral Open State",
    "chain-without-priority": "refuses a chain of finalized items with nobody holding priority",
    "passes": "refuses more passes in sequence than can occur",
    "showdown-passes": "refuses a showdown every player has already passed",
    "turn-state": "refuses a turn state that contradicts the chain or the showdown",
    "combat-players": "refuses a combat without an attacker and a different defender",
}


def cite(name: str) -> Rules:
    return CITATIONS[name]


# -- the model -----------------------------------------------------------------------------
class Riftbound(CombatSteps, Model):
    """The Riftbound timing model over a pool of (abstract) cards."""

    ruleset = "riftbound"
    citation_edition = CITATION_EDITION
    citations = CITATIONS

    def __init__(self, cards: Mapping[str, Card] | None = None):
        self.cards: dict[str, Card] = dict(cards or {})
        self.checks = {c.name: c for c in self._checks()}
        self.transitions = {t.name: t for t in self._transitions()}
        self.invariants = self._invariants()
        self.transitions_by_rule: dict[str, list[str]] = {}

    # -- card knowledge --------------------------------------------------------------------
    def card(self, name: str | None) -> Card | None:
        return self.cards.get(name) if name else None

    def has_reaction(self, state: State, params: Params) -> bool:
        """Reaction: printed (813), from facedown (811.6), or Ambush to your units (822.1.b)."""
        card = self.cards[params["card"]]
        if "Reaction" in card.keywords or params.get("from") == "facedown":
            return True
        return self._ambush(state, params)

    def _ambush(self, state: State, params: Params) -> bool:
        card = self.cards[params["card"]]
        to = params.get("to")
        return ("Ambush" in card.keywords and card.type == "unit" and to not in (None, "base")
                and bool(state.units_at(to, params["player"])))

    def _needs_target(self, effects: Iterable[Effect]) -> str | None:
        for e in effects:
            if e[0] in ("counter", "kill", "move") and e[1] == "target":
                return "item" if e[0] == "counter" else "unit"
        return None

    def invalid_destination(self, s: State, player: str, to: str) -> bool:
        """No unit of ``player`` may move to ``to``: units of two other players are there (449.2),
        or, with more than two players, a combat is staged or in progress there between two
        others (447.2.a, 462.1)."""
        if to == "base":
            return False
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

    def _moves_ok(self, s: State, effects: Iterable[Effect], target: str | None) -> bool:
        """Playing this would not move a unit where it cannot be (358.3): checked as it is played."""
        for e in effects:
            if e[0] != "move":
                continue
            u = s.permanent((target if e[1] == "target" else e[1]) or "")
            if u is not None and e[2] != u.location and self.invalid_destination(s, u.controller, e[2]):
                return False
        return True

    def _targets_ok(self, state: State, effects: Iterable[Effect], target: str | None,
                    self_id: int | None = None) -> bool:
        """Valid choices exist for every target (355.8): items on the chain, units on board."""
        for e in effects:
            kind = e[0]
            if kind not in ("counter", "kill", "move"):
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

    # -- legality checks -------------------------------------------------------------------
    def _checks(self) -> list[Check]:
        def mk(name: str, summary: str, holds: Any, tempting: bool = True) -> Check:
            return Check(name, cite("check." + name), summary, holds, tempting)

        def at_execute(s: State, p: Params) -> bool:
            return s.ready_task() is None and not s.pending and s.phase == "main"

        def own_turn(s: State, p: Params) -> bool:
            return s.in_showdown or bool(s.chain) or p["player"] == s.turn_player

        def closed_ok(s: State, p: Params) -> bool:
            return not s.chain or self.has_reaction(s, p)

        def showdown_ok(s: State, p: Params) -> bool:
            if not s.in_showdown or s.chain:
                return True
            card = self.cards[p["card"]]
            return "Action" in card.keywords or self.has_reaction(s, p)

        def focus_ok(s: State, p: Params) -> bool:
            return not s.in_showdown or bool(s.chain) or s.focus == p["player"]

        def in_hand(s: State, p: Params) -> bool:
            if p.get("from") == "facedown":
                return any(c == p["card"] and pl == p["player"] for c, pl, _, _ in s.facedown)
            hand = s.hand(p["player"])
            return hand is None or p["card"] in hand

        def facedown_ready(s: State, p: Params) -> bool:
            if p.get("from") != "facedown":
                return True
            return any(c == p["card"] and pl == p["player"] and not fresh
                       for c, pl, _, fresh in s.facedown)

        def targets(s: State, p: Params) -> bool:
            return self._targets_ok(s, self.cards[p["card"]].effects, p.get("target"))

        def move_outcome(s: State, p: Params) -> bool:
            if "card" in p:
                return self._moves_ok(s, self.cards[p["card"]].effects, p.get("target"))
            a = ability(s, p)
            return a is None or self._moves_ok(s, a.effects, None)

        def location(s: State, p: Params) -> bool:
            card = self.cards[p["card"]]
            to = p.get("to")
            if card.type != "unit":
                return to in (None, "base") or p.get("from") == "facedown"
            if p.get("from") == "facedown":
                here = next((bf for c, pl, bf, _ in s.facedown if c == p["card"] and pl == p["player"]), None)
                return to in (None, here)
            if to in (None, "base"):
                return True
            bf = s.battlefield(to)
            if bf is None:
                return False
            return bf.controller == p["player"] or self._ambush(s, p)

        def ability(s: State, p: Params) -> Ability | None:
            for u in s.board:
                if u.controller != p["player"]:
                    continue
                card = self.cards.get(u.card)
                for a in card.abilities if card else ():
                    if a.name == p["ability"]:
                        return a
            return None

        def ability_on_board(s: State, p: Params) -> bool:
            return ability(s, p) is not None

        def ability_timing(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None:
                return True  # reported by ability-on-board
            if s.chain:
                return "Reaction" in a.keywords
            if s.in_showdown:
                return bool({"Action", "Reaction"} & a.keywords)
            return p["player"] == s.turn_player

        def ability_focus(s: State, p: Params) -> bool:
            return not s.in_showdown or bool(s.chain) or s.focus == p["player"]

        def move_timing(s: State, p: Params) -> bool:
            return not s.chain and not s.in_showdown and p["player"] == s.turn_player

        def unit_ready(s: State, p: Params) -> bool:
            u = s.permanent(p["unit"])
            return u is not None and u.controller == p["player"] and not u.exhausted

        def move_destination(s: State, p: Params) -> bool:
            u = s.permanent(p["unit"])
            if u is None:
                return False
            to = p["to"]
            if to == "base":
                return u.location != "base"
            if u.location != "base" or s.battlefield(to) is None:
                return False
            return not self.invalid_destination(s, p["player"], to)

        def hide_timing(s: State, p: Params) -> bool:
            return not s.chain and p["player"] == s.turn_player

        def hide_battlefield(s: State, p: Params) -> bool:
            bf = s.battlefield(p["at"])
            card = self.cards.get(p["card"])
            return (bf is not None and bf.controller == p["player"] and card is not None
                    and "Hidden" in card.keywords
                    and not any(b == p["at"] for _, _, b, _ in s.facedown))

        def trigger_item(s: State, p: Params) -> Item | None:
            pend = s.pending
            return pend[0] if pend and pend[0].name == p["item"] else None

        def trigger_controller(s: State, p: Params) -> bool:
            item = trigger_item(s, p)
            return item is not None and item.controller == p["player"]

        def trigger_optional(s: State, p: Params) -> bool:
            item = trigger_item(s, p)
            return item is None or (item.kind == "trigger" and item.optional and not item.decided)

        return [
            mk("has-priority", "only the player with Priority may act", lambda s, p: s.priority == p["player"]),
            mk("not-mid-procedure", "pending items are finalized (and tasks handled) before anyone acts",
               at_execute),
            mk("own-turn-neutral-open", "in a Neutral Open State only the turn player plays", own_turn),
            mk("closed-state-needs-reaction", "a chain exists: only Reaction may be played", closed_ok),
            mk("showdown-needs-action", "in a showdown only Action or Reaction may be played", showdown_ok),
            mk("focus", "in a Showdown Open State only the player with Focus acts", focus_ok),
            mk("in-hand", "the card is not in that player's hand (or facedown)", in_hand),
            mk("facedown-ready", "a card hidden this turn can be played from facedown only from the next turn",
               facedown_ready),
            mk("targets", "valid choices must exist for every target", targets),
            mk("move-outcome", "its move would put a unit where it cannot be: a battlefield with two other "
               "players' units, or another two players' combat", move_outcome),
            mk("location", "not a valid location to play that unit", location),
            mk("ability-on-board", "no permanent of that player on the board has that ability",
               ability_on_board),
            mk("ability-timing", "that ability is not legally timed now", ability_timing),
            Check("ability-focus", cite("check.focus"), "in a Showdown Open State only the player with Focus acts",
                  ability_focus),
            mk("move-timing", "a Standard Move only in your Main Phase, in a Neutral Open State", move_timing),
            mk("unit-ready", "the unit must be that player's and ready (exhausting it is the cost)", unit_ready),
            mk("move-destination", "not a valid destination for a Standard Move", move_destination),
            mk("hide-timing", "hiding only on your turn during an Open State", hide_timing),
            mk("hide-battlefield", "hide a Hidden card only at a battlefield you control with no facedown card",
               hide_battlefield),
            mk("trigger-controller", "only the controller of the triggered ability decides", trigger_controller),
            mk("trigger-optional", "only a triggered ability whose effect begins with \"you may\" can be declined",
               trigger_optional),
        ]

    # -- transitions -----------------------------------------------------------------------
    def _transitions(self) -> list[Transition]:
        c = self.checks

        def T(name: str, kind: str, summary: str, text: str = "", pre: tuple[str, ...] = (),
              bindings: Any = None, effect: Any = None) -> Transition:
            return Transition(name, kind, cite(name), summary, text,  # type: ignore[arg-type]
                              tuple(c[x] for x in pre), bindings, effect)

        play_pre = ("has-priority", "not-mid-procedure", "own-turn-neutral-open", "in-hand",
                    "facedown-ready", "closed-state-needs-reaction", "showdown-needs-action", "focus",
                    "location", "targets", "move-outcome")
        act_pre = ("has-priority", "not-mid-procedure", "ability-on-board", "ability-timing", "ability-focus",
                   "move-outcome")
        move_pre = ("has-priority", "not-mid-procedure", "move-timing", "unit-ready", "move-destination")
        hide_pre = ("has-priority", "not-mid-procedure", "hide-timing", "in-hand", "hide-battlefield")
        pass_pre = ("has-priority", "not-mid-procedure")
        step = "step"
        return [
            # decisions
            T("play", "decision", "play a card", "{player} plays {card}", play_pre,
              self._play_bindings, self._play),
            T("activate", "decision", "activate an ability", "{player} activates {ability}", act_pre,
              self._activate_bindings, self._activate),
            T("hide", "decision", "hide a card", "{player} hides {card} at {at}", hide_pre,
              self._hide_bindings, self._hide),
            T("standard-move", "decision", "move a unit (Standard Move)", "{player} moves {unit} to {to}",
              move_pre, self._move_bindings, self._standard_move),
            T("pass-priority", "decision", "pass priority", "{player} passes priority", pass_pre,
              self._pass_priority_bindings, self._pass_priority),
            T("pass-focus", "decision", "pass focus", "{player} passes focus", pass_pre + ("focus",),
              self._pass_focus_bindings, self._pass_focus),
            T("end-main-phase", "decision", "end the Main Phase", "{player} ends the Main Phase",
              pass_pre + ("own-turn-neutral-open",), self._end_bindings, self._end_main_phase),
            T("perform-trigger", "decision", "perform an optional triggered ability",
              "{player} chooses to perform {item}", ("trigger-controller", "trigger-optional"),
              self._trigger_bindings, self._perform),
            T("decline-trigger", "decision", "decline an optional triggered ability",
              "{player} declines {item}", ("trigger-controller", "trigger-optional"),
              self._trigger_bindings, self._decline),
            # steps inside decisions
            T("closes-state", step, "the item starts a chain: the state closes", "{item} starts a chain"),
            T("joins-chain", step, "the item joins the existing chain", "{item} joins the chain"),
            T("starts-chain-in-showdown", step, "the player with Focus starts a chain",
              "{player} starts a chain in the showdown"),
            T("legally-timed", step, "the item is legally timed", "{item} is legally timed ({why})"),
            T("play-from-facedown", step, "played from facedown: it has Reaction",
              "{item} is played from facedown at {at}"),
            T("ambush-permission", step, "Ambush: played to a battlefield with Reaction",
              "{item} is played with Ambush to {at}"),
            T("move-contests", step, "the unit contests the battlefield", "{player} contests {at}"),
            T("play-contests", step, "a unit played to a battlefield its controller does not control contests it",
              "{player} contests {at}"),
            T("pass-step-resolve", step, "all players passed in sequence: resolve",
              "all players passed in sequence"),
            T("pass-step-continue", step, "priority passes to the next player", "{player} gains priority"),
            T("focus-passes", step, "focus passes to the next player", "{player} gains focus and priority"),
            T("showdown-closes", step, "all players passed focus in sequence: the showdown closes",
              "the showdown at {at} closes", (), None, self._close_showdown),
            # HOT FEPR
            T("finalize", "automatic", "finalize the oldest pending item", "{player} finalizes {item}",
              (), self._finalize_bindings("finalize"), self._finalize),
            T("trigger-removed", "automatic", "a triggered ability without legal choices leaves the chain",
              "{item} leaves the chain (no legal choices; not countered)", (),
              self._finalize_bindings("trigger-removed"), self._trigger_removed),
            T("play-undone", "automatic", "an Ambush unit's location became invalid: its play is undone",
              "{item} is not finalized: its play is undone", (), self._finalize_bindings("play-undone"),
              self._play_undone),
            T("counts-as-finalized", step, "the card counts as played for Legion-style checks",
              "{player} has finalized {item} this turn"),
            T("lingers", step, "a finalized spell or ability waits on the chain", "{item} waits on the chain"),
            T("resolves-immediately", step, "a unit, gear or Add ability resolves immediately",
              "{item} resolves immediately", (), None, self._resolve_immediately),
            T("finalize-next", step, "more items are pending: finalize the next", "more items are pending"),
            T("priority-to-next-item", step, "the controller of the next item gains priority",
              "{player} gains priority (controls {item})"),
            T("resolve", "automatic", "resolve the newest finalized item", "{item} resolves", (),
              self._resolve_bindings, self._resolve),
            T("enters-board", step, "the permanent enters the board", "{item} enters the board at {at}"),
            T("add-resolves", step, "priority and focus do not pass from an Add ability",
              "priority stays with {player}"),
            T("completes-play", step, "the card is played", "{player} has played {item}"),
            T("open-state", step, "the chain is empty: open state", "the chain is empty"),
            T("open-state-cleanup", step, "the turn became open: a cleanup is outstanding",
              "the turn is open again: a cleanup follows"),
            T("status-cleanup", step, "the showdown or combat ended, changing statuses: a cleanup is outstanding",
              "statuses changed: a cleanup follows"),
            T("focus-passes-after-chain", step, "the chain closed: focus passes",
              "focus passes to {player}"),
            T("focus-stays", step, "a chain opened by a trigger or Add ability: focus does not pass",
              "focus stays with {player}"),
            T("back-to-finalize", step, "pending items remain: back to Finalize", "pending items remain"),
            T("priority-to-newest", step, "the controller of the newest item gains priority",
              "{player} gains priority (controls {item})"),
            T("receive-priority", "automatic", "the turn player receives priority",
              "{player} receives priority", (), self._receive_bindings("neutral"), self._receive_priority),
            T("focus-holder-priority", "automatic", "the player with focus receives priority",
              "{player} (focus) receives priority", (), self._receive_bindings("showdown"),
              self._receive_priority),
            # instructions
            T("counter", step, "counter an item", "{item} is countered"),
            T("draw", step, "draw", "{player} draws {n}"),
            T("create-reflexive-trigger", step, "a reflexive trigger creates a pending ability",
              "{item} is added pending (it waits while {source} finishes)"),
            T("play-from-effect", step, "play a card as part of an effect",
              "{player} plays {item} from hand as part of {source} (pending until it finishes)"),
            T("no-eligible-card", step, "no eligible card to play: resolution continues",
              "{player} has no {item} to play"),
            T("kill", step, "kill a unit", "{unit} is killed"),
            T("move-unit", step, "move a unit", "{unit} moves to {to}"),
            T("recalled-instead", step, "a unit that cannot move to its destination is recalled instead",
              "{unit} cannot move to {to} (two other players' units, or their combat, are there): "
              "it is recalled to base"),
            T("played-to-base-instead", step, "a unit cannot be played to another two players' combat: "
              "it is played to its controller's base", "{item} cannot be played to {to}: it is played to base"),
            T("add-resources", step, "add resources", "{player} adds resources"),
            T("instruction-skipped", step, "an instruction that cannot be followed is ignored",
              "{instruction} cannot be followed: ignored"),
            T("legion-active", step, "Legion: another card was finalized this turn", "{item}'s Legion text is active"),
            T("triggers", step, "an ability triggers", "{item} triggers ({on})"),
            T("play-effect-triggers", step, "a play trigger fires when the card completes play",
              "{item} triggers ({on})"),
            T("death-triggers", step, "a trigger on its own death goes on the chain first",
              "{item} triggers ({on})"),
            T("conquer-triggers", step, "a conquer effect triggers", "{item} triggers ({on})"),
            T("trigger-order", step, "simultaneous triggers go on the chain in turn order",
              "triggers are put on the chain in turn order: {order}"),
            # tasks
            T("cleanup", "automatic", "a cleanup", "cleanup", (), self._task_bindings("cleanup"), self._cleanup),
            T("control-lost", step, "a player loses control of an empty battlefield",
              "{player} loses control of {at}"),
            T("designation-gained", step, "a unit at the combat's battlefield gains its controller's designation",
              "{unit} gains the {designation} designation"),
            T("designation-lost", step, "a unit away from the combat's battlefield loses its designation",
              "{unit} loses the {designation} designation"),
            T("designation-triggers", step, "an attack or defend trigger fires as its unit gains the designation",
              "{item} triggers ({on})"),
            T("trigger-checked-once", step, "attack and defend triggers are checked once per combat",
              "{unit} already gained the {designation} designation this combat: its triggers do not fire again"),
            T("showdown-begins", step, "a showdown begins", "a showdown begins at {at}; {player} gains focus"),
            T("combat-begins", step, "combat begins", "combat begins at {at}"),
            T("becomes-combat-showdown", step, "the showdown becomes a combat showdown",
              "the showdown at {at} becomes a combat showdown"),
            T("combat-opens", "automatic", "combat opens (Combat Showdown step)", "combat opens at {at}", (),
              self._task_bindings("combat-opens"), self._combat_opens),
            T("start-of-combat", "automatic", "start of combat or showdown effects",
              "start of combat effects at {at}", (), self._task_bindings("start-of-combat"),
              self._start_of_combat),
            T("establish-attacker-defender", "automatic", "establish Attacker and Defender",
              "{attacker} attacks, {defender} defends", (), self._task_bindings("establish-attacker-defender"),
              self._establish),
            T("attacker-gains-focus", "automatic", "the Attacker gains focus", "{player} gains focus", (),
              self._task_bindings("attacker-gains-focus"), self._attacker_focus),
            T("focus-maintained", step, "a showdown was already ongoing: focus is maintained",
              "{player} keeps focus"),
            T("combat-chain", "automatic", "attack and defend triggers go on the chain",
              "attack and defend triggers", (), self._task_bindings("combat-chain"), self._combat_chain),
            T("combat-state-closes", step, "a combat chain was created: the state closes", "the state closes"),
            T("combat-state-open", step, "no combat chain: the showdown continues open", "the state stays open"),
            T("settle-control", step, "a non-combat showdown settles control", "control of {at}: {player}"),
            T("conquer", step, "establishing control results in a conquer", "{player} conquers {at}"),
            T("showdown-ends", step, "the showdown ends: neutral state", "the showdown at {at} ends"),
            T("combat-showdown-closes", step, "the combat showdown closes: combat proceeds",
              "combat at {at} proceeds to the damage step"),
            T("combat-damage", "automatic", "combat damage step", "combat damage at {at}", (),
              self._task_bindings("combat-damage"), self._combat_damage),
            T("no-combat-damage", step, "not both sides remain: no combat damage", "no combat damage at {at}"),
            T("resolution-step", step, "proceed to the resolution step", "proceed to the resolution step"),
            T("combat-cleanup", "automatic", "combat cleanup", "combat cleanup at {at}", (),
              self._task_bindings("combat-cleanup"), self._combat_cleanup),
            T("combat-result", "automatic", "determine the combat result", "combat result at {at}: {result}", (),
              self._task_bindings("combat-result"), self._combat_result),
            T("establish-control", "automatic", "establish control after combat", "control of {at}", (),
              self._task_bindings("establish-control"), self._establish_control),
            T("combat-ends", "automatic", "combat ends", "combat at {at} ends", (),
              self._task_bindings("combat-ends"), self._combat_ends),
        ]

    def _invariants(self) -> tuple[Invariant, ...]:
        def one_priority(n: TraceNode) -> bool:
            p = n.after.priority
            return p is None or isinstance(p, str)

        def focus_in_showdown(n: TraceNode) -> bool:
            return n.after.focus is None or n.after.in_showdown

        def finalize_order(n: TraceNode) -> bool:
            if n.name not in ("finalize", "trigger-removed", "play-undone", "perform-trigger", "decline-trigger"):
                return True
            pend = n.before.pending
            return (bool(pend) and pend[0].name == n.params["item"]
                    and pend[0].id == n.params.get("id", pend[0].id))

        def newest_resolves(n: TraceNode) -> bool:
            if n.name != "resolve":
                return True
            fin = [i for i in n.before.chain if i.status == "finalized"]
            return bool(fin) and fin[-1].id == n.params["id"] and n.before.chain[-1].id == n.params["id"]

        def no_action_on_chain(n: TraceNode) -> bool:
            if n.name != "play" or not n.before.chain:
                return True
            return self.has_reaction(n.before, n.params)

        def single_pass(n: TraceNode) -> bool:
            if n.name != "showdown-closes":
                return True
            return n.before.showdown is not None and n.before.showdown.passes >= len(n.before.players) >= 2

        def designation_once(n: TraceNode) -> bool:
            # Only designations new to this combat may fire attack or defend triggers in a cleanup.
            if n.name != "cleanup" or n.before.combat is None or n.after.combat is None:
                return True
            old, new = set(n.before.combat.designated), set(n.after.combat.designated)
            if not old <= new or any(u.designation and (u.name, u.designation) not in new for u in n.after.board):
                return False
            allowed = 0
            for unit, d in new - old:
                u = n.after.permanent(unit)
                allowed += len(self._triggers_of(u.card if u else None, "attack" if d == "attacker" else "defend"))
            return sum(1 for c in n.children if c.name == "designation-triggers") <= allowed

        def inv(name: str, summary: str, holds: Any) -> Invariant:
            return Invariant(name, cite("invariant." + name), summary, holds)

        return (
            inv("one-priority", "at most one player holds priority", one_priority),
            inv("focus-in-showdown", "focus exists only in a showdown", focus_in_showdown),
            inv("finalize-in-order", "items finalize in the order they were appended", finalize_order),
            inv("newest-resolves", "the newest finalized item resolves first", newest_resolves),
            inv("no-action-on-chain", "a card without Reaction is never played while a chain exists",
                no_action_on_chain),
            inv("single-pass", "a single pass never ends a showdown", single_pass),
            inv("designation-once", "a unit's attack or defend triggers fire at most once per combat",
                designation_once),
        )

    # -- bindings ----------------------------------------------------------------------------
    def _play_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        for player in s.players:
            hand = s.hand(player)
            names = list(dict.fromkeys(hand)) if hand is not None else list(self.cards)
            attempts = [(n, "hand") for n in names if n in self.cards]
            attempts += [(c, "facedown") for c, pl, _, _ in s.facedown if pl == player and c in self.cards]
            for name, origin in attempts:
                card = self.cards[name]
                base: dict[str, Any] = {"player": player, "card": name}
                if origin == "facedown":
                    base["from"] = "facedown"
                for to in self._destinations(s, player, card, origin):
                    params = dict(base)
                    if to is not None:
                        params["to"] = to
                    wanted = self._needs_target(card.effects)
                    if wanted is None:
                        yield params
                        continue
                    found = ([i.name for i in s.chain if i.status == "finalized"] if wanted == "item"
                             else [u.name for u in s.board])
                    for t in dict.fromkeys(found) or [None]:
                        yield {**params, "target": t}

    def _destinations(self, s: State, player: str, card: Card, origin: str) -> list[str | None]:
        if card.type != "unit" or origin == "facedown":
            return [None]
        out: list[str | None] = [None]
        for bf in s.battlefields:
            if bf.controller == player or ("Ambush" in card.keywords and s.units_at(bf.name, player)):
                out.append(bf.name)
        return out

    def _activate_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        seen = set()
        for u in s.board:
            card = self.cards.get(u.card)
            for a in card.abilities if card else ():
                if (u.controller, a.name) not in seen:
                    seen.add((u.controller, a.name))
                    yield {"player": u.controller, "ability": a.name}

    def _hide_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        for player in s.players:
            hand = s.hand(player)
            for name in (hand if hand is not None else tuple(self.cards)):
                card = self.cards.get(name)
                if card is None or "Hidden" not in card.keywords:
                    continue
                for bf in s.battlefields:
                    if bf.controller == player:
                        yield {"player": player, "card": name, "at": bf.name}

    def _move_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        for u in s.board:
            card = self.cards.get(u.card)
            if card is None or card.type != "unit":
                continue
            dests = ["base"] if u.location != "base" else [b.name for b in s.battlefields]
            for to in dests:
                yield {"player": u.controller, "unit": u.name, "to": to}

    def _pass_priority_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.chain:
            for p in s.players:
                yield {"player": p}

    def _pass_focus_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if not s.chain and s.showdown is not None:
            for p in s.players:
                yield {"player": p}

    def _end_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if not s.chain and not s.in_showdown:
            for p in s.players:
                yield {"player": p}

    def _trigger_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        pend = s.pending
        if pend and s.ready_task() is None and pend[0].optional and not pend[0].decided:
            for player in s.players:  # others are listed too: it is not their choice (383.3.a)
                yield {"player": player, "item": pend[0].name}

    def _finalize_bindings(self, which: str) -> Any:
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            if s.ready_task() is not None:
                return
            pend = s.pending
            if not pend:
                return
            item = pend[0]
            if item.optional and not item.decided:
                return
            outcome = "finalize"
            if item.kind == "trigger" and not self._targets_ok(s, item.effects, item.target, item.id):
                outcome = "trigger-removed"
            elif item.ambush and not s.units_at(item.to or "", item.controller):
                outcome = "play-undone"
            if outcome == which:
                yield {"player": item.controller, "item": item.name, "id": item.id}
        return bindings

    def _resolve_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if (s.chain and s.ready_task() is None and not s.pending and s.passes >= len(s.players)):
            top = s.chain[-1]
            yield {"item": top.name, "id": top.id, "player": top.controller}

    def _receive_bindings(self, kind: str) -> Any:
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            if s.chain or s.tasks or s.priority is not None or s.phase != "main":
                return
            if kind == "neutral" and not s.in_showdown:
                yield {"player": s.turn_player}
            elif kind == "showdown" and s.showdown is not None and s.focus is not None:
                yield {"player": s.focus}
        return bindings

    def _task_bindings(self, task: str) -> Any:
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            if s.ready_task() == task:
                at = (s.combat.battlefield if s.combat else s.showdown.battlefield if s.showdown else "")
                params: dict[str, Any] = {"at": at}
                if task == "establish-attacker-defender" and s.combat:
                    params.update(attacker=s.combat.attacker, defender=s.combat.defender)
                if task == "attacker-gains-focus" and s.combat:
                    params["player"] = s.combat.attacker
                if task == "combat-result":
                    params["result"] = self._combat_result_of(s)
                yield params
        return bindings

    # -- decision effects ------------------------------------------------------------------
    def _add_by_action(self, s: State, t: Trace, item: Item, opener: str) -> State:
        """A player adds an item by playing or activating (the chain may start here)."""
        if not s.chain[:-1]:
            t.note("closes-state", s, {"item": item.name})
            s = replace(s, opened_by=opener)
            if s.in_showdown:
                t.note("starts-chain-in-showdown", s, {"player": item.controller})
        else:
            t.note("joins-chain", s, {"item": item.name})
        showdown = replace(s.showdown, passes=0) if s.showdown else None
        return replace(s, passes=0, showdown=showdown)

    def _timing_reason(self, s: State, p: Params, keywords: frozenset[str]) -> str:
        if s.chain:
            return "Reaction in a Closed State"
        if s.in_showdown:
            return ("Reaction" if "Reaction" in keywords else "Action") + " in a showdown"
        return "the turn player in a Neutral Open State"

    def _play(self, s: State, p: Params, t: Trace) -> State:
        card = self.cards[p["card"]]
        origin = p.get("from", "hand")
        keywords = card.keywords
        reason = self._timing_reason(s, p, keywords | ({"Reaction"} if self.has_reaction(s, p) else set()))
        if origin == "facedown":
            at = next(bf for c, pl, bf, _ in s.facedown if c == card.name and pl == p["player"])
            s = replace(s, facedown=tuple(f for f in s.facedown if not (f[0] == card.name and f[1] == p["player"])))
            keywords = keywords | {"Reaction"}
        else:
            hand = s.hand(p["player"])
            if hand is not None:
                rest = list(hand)
                rest.remove(card.name)
                s = replace(s, hands=_set_hand(s, p["player"], tuple(rest)))
        ambush = self._ambush(s, p) and "Reaction" not in card.keywords and origin != "facedown"
        if ambush:
            keywords = keywords | {"Reaction"}
        to = p.get("to") or ("base" if card.type == "unit" else None)
        if origin == "facedown" and card.type == "unit":
            to = at
        s, item = self._new_item(s, name=card.name, controller=p["player"], kind=card.type, card=card.name,
                                 effects=card.effects, origin=origin, to=to, target=p.get("target"),
                                 ambush=ambush, keywords=keywords)
        if origin == "facedown":
            t.note("play-from-facedown", s, {"item": card.name, "at": at})
        if ambush:
            t.note("ambush-permission", s, {"item": card.name, "at": to})
        t.note("legally-timed", s, {"item": card.name, "why": reason})
        return self._add_by_action(s, t, item, "play")

    def _activate(self, s: State, p: Params, t: Trace) -> State:
        source, ability = next((u, a) for u in s.board if u.controller == p["player"]
                               for a in (self.cards[u.card].abilities if u.card in self.cards else ())
                               if a.name == p["ability"])
        reason = self._timing_reason(s, p, ability.keywords)
        s, item = self._new_item(s, name=ability.name, controller=p["player"], kind="ability",
                                 source=source.name, effects=ability.effects, add=ability.add,
                                 origin="activated", keywords=ability.keywords)
        t.note("legally-timed", s, {"item": ability.name, "why": reason})
        return self._add_by_action(s, t, item, "add" if ability.add else "play")

    def _hide(self, s: State, p: Params, t: Trace) -> State:
        hand = s.hand(p["player"])
        if hand is not None:
            rest = list(hand)
            rest.remove(p["card"])
            s = replace(s, hands=_set_hand(s, p["player"], tuple(rest)))
        return replace(s, facedown=s.facedown + ((p["card"], p["player"], p["at"], True),))

    def _standard_move(self, s: State, p: Params, t: Trace) -> State:
        u = s.permanent(p["unit"])
        assert u is not None
        s = self._relocate(s, t, u, p["to"], exhaust=True)
        return replace(s, tasks=s.tasks + ("cleanup",))

    def _relocate(self, s: State, t: Trace, u: Permanent, to: str, exhaust: bool = False) -> State:
        moved = replace(u, location=to, exhausted=u.exhausted or exhaust)
        s = replace(s, board=tuple(moved if x.name == u.name else x for x in s.board))
        bf = s.battlefield(to)
        if bf is not None and bf.controller != u.controller and bf.contested_by is None:
            s = replace(s, battlefields=tuple(replace(b, contested_by=u.controller) if b.name == to else b
                                              for b in s.battlefields))
            t.note("move-contests", s, {"player": u.controller, "at": to})
        return self._fire(s, t, [(u.controller, tr, u.card) for tr in self._triggers_of(u.card, "move")],
                          "triggers")

    def _pass_priority(self, s: State, p: Params, t: Trace) -> State:
        nxt = s.next_player(p["player"])
        s = replace(s, passes=s.passes + 1, priority=nxt)
        if s.passes >= len(s.players):
            t.note("pass-step-resolve", s)
        else:
            t.note("pass-step-continue", s, {"player": nxt})
        return s

    def _pass_focus(self, s: State, p: Params, t: Trace) -> State:
        assert s.showdown is not None
        passes = s.showdown.passes + 1
        s = replace(s, showdown=replace(s.showdown, passes=passes))
        if passes >= len(s.players):
            return t.step("showdown-closes", s, {"at": s.showdown.battlefield})
        nxt = s.next_player(p["player"])
        return t.step("focus-passes", replace(s, focus=nxt, priority=nxt), {"player": nxt})

    def _end_main_phase(self, s: State, p: Params, t: Trace) -> State:
        return replace(s, phase="ending", priority=None)

    def _perform(self, s: State, p: Params, t: Trace) -> State:
        item = s.pending[0]
        return replace(s, chain=_replace_item(s.chain, replace(item, decided=True)))

    def _decline(self, s: State, p: Params, t: Trace) -> State:
        item = s.pending[0]
        return self._after_leaving(replace(s, chain=_without(s.chain, item.id)), t)

    # -- FEPR ------------------------------------------------------------------------------
    def _finalize(self, s: State, p: Params, t: Trace) -> State:
        item = next(i for i in s.chain if i.id == p["id"])
        done = replace(item, status="finalized")
        s = replace(s, chain=_replace_item(s.chain, done))
        if item.card is not None:
            s = replace(s, finalized=s.finalized + ((item.controller, item.card, item.id),))
            t.note("counts-as-finalized", s, {"player": item.controller, "item": item.name})
        if item.kind in ("unit", "gear") or item.add:
            return t.step("resolves-immediately", s, {"item": item.name, "id": item.id,
                                                       "player": item.controller})
        t.note("lingers", s, {"item": item.name})
        if s.pending:
            t.note("finalize-next", s)
            return s
        top = s.chain[-1]
        s = replace(s, priority=top.controller, passes=0)
        t.note("priority-to-next-item", s, {"player": top.controller, "item": top.name})
        return s

    def _trigger_removed(self, s: State, p: Params, t: Trace) -> State:
        return self._after_leaving(replace(s, chain=_without(s.chain, p["id"])), t)

    def _play_undone(self, s: State, p: Params, t: Trace) -> State:
        item = next(i for i in s.chain if i.id == p["id"])
        s = replace(s, chain=_without(s.chain, item.id))
        hand = s.hand(item.controller)
        if hand is not None and item.card:
            s = replace(s, hands=_set_hand(s, item.controller, hand + (item.card,)))
        return self._after_leaving(s, t)

    def _after_leaving(self, s: State, t: Trace) -> State:
        """An item left the chain while being finalized: Finalize goes on (337.3, 337.4), or the
        chain is empty and the state opens (340.2)."""
        return self._continue(s, t, add=False, finalizing=True)

    def _resolve_immediately(self, s: State, p: Params, t: Trace) -> State:
        item = next(i for i in s.chain if i.id == p["id"])
        s = replace(s, chain=_without(s.chain, item.id))
        if item.add:
            s = self._run_effects(s, t, item)
            t.note("add-resolves", s, {"player": s.priority or item.controller})
            return self._continue(s, t, add=True)
        card = self.cards[item.card] if item.card else None
        location = item.to if item.kind == "unit" and item.to else "base"
        perm = Permanent(self._unique_name(s, item.name), item.card or item.name, item.controller, location,
                         exhausted=item.kind == "unit")
        s = replace(s, board=s.board + (perm,))
        t.note("enters-board", s, {"item": item.name, "at": location})
        if location != "base":
            bf = s.battlefield(location)
            if bf is not None and bf.controller != item.controller and bf.contested_by is None:
                s = replace(s, battlefields=tuple(replace(b, contested_by=item.controller) if b.name == location
                                                  else b for b in s.battlefields))
                t.note("play-contests", s, {"player": item.controller, "at": location})
            s = replace(s, tasks=s.tasks + ("cleanup",))
        s = self._completes_play(s, t, item, card)
        return self._continue(s, t, add=False)

    def _unique_name(self, s: State, name: str) -> str:
        taken = {u.name for u in s.board}
        if name not in taken:
            return name
        n = 2
        while f"{name} #{n}" in taken:
            n += 1
        return f"{name} #{n}"

    def _completes_play(self, s: State, t: Trace, item: Item, card: Card | None) -> State:
        """The card completes play (350.1): play triggers fire now (419.4.a)."""
        if card is None:
            return s
        s = replace(s, played=s.played + ((item.controller, card.name),))
        t.note("completes-play", s, {"player": item.controller, "item": item.name})
        fired: list[tuple[str, Trigger, str]] = []
        if card.type in ("unit", "gear"):
            fired += [(item.controller, tr, card.name) for tr in card.triggers
                      if tr.on == "play" and tr.what == "self"]
        for u in s.board:
            if u.controller != item.controller or u.card not in self.cards:
                continue
            for tr in self.cards[u.card].triggers:
                if tr.on == "play" and tr.what in (card.type, "card") and not (tr.what == "self"):
                    fired.append((u.controller, tr, u.card))
        return self._fire(s, t, fired, "play-effect-triggers")

    def _resolve_bindings_item(self, s: State, item_id: int) -> Item:
        return next(i for i in s.chain if i.id == item_id)

    def _resolve(self, s: State, p: Params, t: Trace) -> State:
        item = self._resolve_bindings_item(s, p["id"])
        s = self._run_effects(s, t, item)
        s = replace(s, chain=_without(s.chain, item.id))
        if item.kind == "spell":
            s = replace(s, trash=s.trash + (item.name,))
            s = self._completes_play(s, t, item, self.cards.get(item.card or ""))
        return self._continue(s, t, add=False)

    def _run_effects(self, s: State, t: Trace, item: Item) -> State:
        effects = list(item.effects)
        card = self.cards.get(item.card or "")
        if card is not None and card.legion and any(pl == item.controller and i != item.id
                                                    for pl, _, i in s.finalized):
            t.note("legion-active", s, {"item": item.name})
            effects += card.legion
        for e in effects:
            s = self._instruction(s, t, item, e)
        return s

    def _instruction(self, s: State, t: Trace, item: Item, e: Effect) -> State:
        kind = e[0]
        who = item.controller
        if kind == "draw":
            return t.step("draw", replace(s, drawn=_drawn(s, who, e[1])), {"player": who, "n": e[1]})
        if kind == "add":
            t.note("add-resources", s, {"player": who})
            return s
        if kind == "counter":
            name = item.target if e[1] == "target" else e[1]
            victim = next((i for i in reversed(s.chain) if i.name == name and i.id != item.id
                           and i.status == "finalized"), None)
            if victim is None:
                t.note("instruction-skipped", s, {"instruction": f"counter {name}"})
                return s
            s = replace(s, chain=_without(s.chain, victim.id))
            if victim.card is not None:
                s = replace(s, trash=s.trash + (victim.card,))
            t.note("counter", s, {"item": victim.name})
            return s
        if kind == "create":
            _, name, effects, times = e
            for _ in range(times):
                s, new = self._new_item(s, name=name, controller=who, kind="trigger", source=item.name,
                                        effects=effects, origin="reflexive")
                t.note("create-reflexive-trigger", s, {"item": name, "source": item.name})
            return s
        if kind == "play":
            _, name, to = e
            hand = s.hand(who)
            if hand is not None and name not in hand:
                t.note("no-eligible-card", s, {"player": who, "item": name})
                return s
            card = self.cards[name]
            if hand is not None:
                rest = list(hand)
                rest.remove(name)
                s = replace(s, hands=_set_hand(s, who, tuple(rest)))
            if card.type == "unit" and to not in (None, "base") and self.combat_without(s, who, to):
                t.note("played-to-base-instead", s, {"item": name, "to": to})
                to = "base"
            s, new = self._new_item(s, name=name, controller=who, kind=card.type, card=name,
                                    effects=card.effects, origin="effect",
                                    to=to or ("base" if card.type == "unit" else None))
            t.note("play-from-effect", s, {"player": who, "item": name, "source": item.name})
            return s
        if kind in ("kill", "move"):
            name = item.target if e[1] == "target" else e[1]
            u = s.permanent(name or "")
            if u is None:
                t.note("instruction-skipped", s, {"instruction": f"{kind} {name}"})
                return s
            if kind == "kill":
                s = self._fire(s, t, [(u.controller, tr, u.card) for tr in self._triggers_of(u.card, "leave")],
                               "death-triggers")
                s = replace(s, board=tuple(x for x in s.board if x.name != u.name), trash=s.trash + (u.card,))
                t.note("kill", s, {"unit": u.name})
            else:
                to = e[2]
                if to != "base" and s.battlefield(to) is None or to == u.location:
                    t.note("instruction-skipped", s, {"instruction": f"move {name} to {to}"})
                    return s
                if self.invalid_destination(s, u.controller, to):
                    if u.location == "base":
                        t.note("instruction-skipped", s, {"instruction": f"move {name} to {to}"})
                        return s
                    s = replace(s, board=tuple(replace(x, location="base") if x.name == u.name else x
                                               for x in s.board))
                    t.note("recalled-instead", s, {"unit": u.name, "to": to})
                else:
                    s = self._relocate(s, t, u, to)
                    t.note("move-unit", s, {"unit": u.name, "to": to})
            return replace(s, tasks=s.tasks + ("cleanup",) if "cleanup" not in s.tasks else s.tasks)
        raise ValueError(f"unknown instruction {kind!r}")

    def _continue(self, s: State, t: Trace, add: bool, finalizing: bool = False) -> State:
        """After an item resolves or leaves the chain: 340.2–340.4 (and 429.2.a for Add)."""
        s = replace(s, passes=0)
        if not s.chain:
            opener = s.opened_by
            s = replace(s, opened_by=None)
            t.note("open-state", s)
            if s.showdown is not None and s.focus is not None:
                if opener == "play":
                    nxt = s.next_player(s.focus)
                    s = replace(s, focus=nxt, priority=None, showdown=replace(s.showdown, passes=0))
                    t.note("focus-passes-after-chain", s, {"player": nxt})
                else:
                    s = replace(s, priority=None)
                    t.note("focus-stays", s, {"player": s.focus})
            else:
                s = replace(s, priority=None)
            return self._cleanup_if_due(s, t, "open-state-cleanup")
        if s.pending:
            t.note("finalize-next" if finalizing else "back-to-finalize", s)
            return s
        if add:
            return s
        top = s.chain[-1]
        s = replace(s, priority=top.controller)
        t.note("priority-to-next-item" if finalizing else "priority-to-newest", s,
               {"player": top.controller, "item": top.name})
        return s

    def _receive_priority(self, s: State, p: Params, t: Trace) -> State:
        return replace(s, priority=p["player"])

    # -- validity ----------------------------------------------------------------------------
    def validate(self, s: State) -> list[Violation]:
        out: list[Violation] = []

        def bad(key: str, message: str, field: str) -> None:
            out.append(Violation(message, cite("state." + key), field))

        n = len(s.players)
        if s.focus is not None and not s.in_showdown:
            bad("focus-neutral", f"{s.focus} has focus but no showdown or combat is in progress", "focus")
        quiet = s.ready_task() is None and not s.tasks and s.phase == "main"
        if s.showdown is not None and not s.chain and quiet:
            if s.focus is None:
                bad("showdown-focus", "a showdown is in an open state but nobody has focus", "focus")
            elif s.priority is not None and s.priority != s.focus:
                bad("focus-priority", f"{s.priority} has priority in a Showdown Open State but {s.focus} has "
                    "focus", "priority")
        if not s.in_showdown and not s.chain and quiet and s.priority not in (None, s.turn_player):
            bad("neutral-priority", f"{s.priority} has priority in a Neutral Open State of "
                f"{s.turn_player}'s turn", "priority")
        seen_pending = False
        for i, item in enumerate(s.chain):
            if item.status == "pending":
                seen_pending = True
            elif seen_pending:
                bad("finalized-above-pending", f"{item.name} is finalized above a pending item "
                    "(items are finalized in the order they were appended)", f"chain[{i}]")
            if item.status == "finalized" and (item.kind in ("unit", "gear") or item.add):
                bad("permanent-finalized-on-chain", f"{item.name} ({'Add ability' if item.add else item.kind})"
                    " is finalized yet still on the chain: it resolves as soon as it is finalized",
                    f"chain[{i}]")
        if s.chain and not s.pending and s.priority is None and s.ready_task() is None:
            bad("chain-without-priority", "the chain holds only finalized items but nobody has priority",
                "priority")
        if s.passes < 0 or s.passes > n or (s.passes and (not s.chain or s.pending)):
            bad("passes", f"{s.passes} consecutive passes cannot occur here", "passes")
        if s.showdown is not None and not 0 <= s.showdown.passes < n:
            bad("showdown-passes", f"{s.showdown.passes} players passed focus in sequence: the showdown "
                "would have ended", "showdown.passes")
        if s.combat is not None and (s.combat.attacker == s.combat.defender
                                     or {s.combat.attacker, s.combat.defender} - set(s.players)):
            bad("combat-players", "a combat needs an attacker and a different defender among the players",
                "combat")
        return out

    def terminal(self, s: State) -> tuple[str, Rules] | None:
        if s.phase == "ending":
            return ("The Main Phase has ended; the model stops at the Ending Phase.", cite("end-main-phase"))
        return None

    def tempting(self, s: State, option: Option) -> bool:
        """Illegal options worth showing: the decider's own, and other players' Reactions."""
        if not s.chain and option.transition.name == "pass-priority":
            return False
        if option.player == s.priority or option.transition.name in ("decline-trigger", "perform-trigger"):
            return True
        name = option.params.get("card")
        return bool(name) and "Reaction" in self.cards[name].keywords


__all__ = ["CITATIONS", "CITATION_EDITION", "DEFERRED_TASKS", "Riftbound", "State", "Item", "Card", "Trigger", "Ability", "Effect",
           "Permanent", "Battlefield", "Showdown", "Combat"]
