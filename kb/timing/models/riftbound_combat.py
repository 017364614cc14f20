"""Riftbound cleanups, showdowns and combat: the tasks that follow moves, arrivals and
empty chains (318–323), the non-combat showdown's end (348.2) and the steps of combat
(463–466), with the triggers they put on the chain.

A mixin of :class:`kb.timing.models.riftbound.Riftbound`: the methods are the effects of its
cleanup, showdown and combat transitions, declared (with their rules) in that model's table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kb.timing.engine import Params, Trace, TraceNode, Transition
from kb.timing.models.riftbound_state import (Battlefield, Card, Combat, Item, Permanent, Showdown, State,
                                              Trigger)


class CombatSteps:
    """Cleanups (with attacker/defender designations), showdowns and the steps of combat."""

    cards: dict[str, Card]
    transitions: dict[str, Transition]

    # -- triggers ------------------------------------------------------------------------------
    def _new_item(self, s: State, **fields: Any) -> tuple[State, Item]:
        item = Item(id=s.next_id, **fields)
        return replace(s, chain=s.chain + (item,), next_id=s.next_id + 1), item

    def _triggers_of(self, card: str | None, on: str) -> list[Trigger]:
        c = self.cards.get(card or "")
        return [tr for tr in c.triggers if tr.on == on] if c else []

    def _fire(self, s: State, t: Trace, fired: list[tuple[str, Trigger, str]], step: str) -> State:
        """Put triggered abilities on the chain as pending items, in turn order (383.3.d)."""
        if not fired:
            return s
        order = {p: i for i, p in enumerate(s.players)}
        fired = sorted(fired, key=lambda f: order[f[0]])
        if len(fired) > 1:
            t.note("trigger-order", s, {"order": ", ".join(tr.name for _, tr, _ in fired)})
        opened = not s.chain
        for controller, tr, source in fired:
            s, item = self._new_item(s, name=tr.name, controller=controller, kind="trigger", source=source,
                                     effects=tr.effects, optional=tr.optional, origin="trigger")
            t.note(step, s, {"item": tr.name, "on": tr.on})
        if opened:
            s = replace(s, opened_by="trigger")
        return s

    # -- cleanups, showdowns and combat ------------------------------------------------------
    def _cleanup_if_due(self, s: State, t: Trace, step: str) -> State:
        """Make a cleanup outstanding (319.1, 319.7) when it would change something."""
        if "cleanup" in s.tasks or not self._cleanup_changes(s):
            return s
        s = replace(s, tasks=s.tasks + ("cleanup",))
        t.note(step, s)
        return s

    def _cleanup_changes(self, s: State) -> bool:
        """Whether a cleanup now would change anything (319.1 makes one outstanding each time the
        turn opens; one that changes nothing is not shown)."""
        probe = replace(s, tasks=("cleanup",) + s.tasks)
        node = TraceNode(self.transitions["cleanup"], {}, probe, probe)
        return self._cleanup(probe, {}, Trace(self, node)) != s

    def _staged(self, s: State) -> bool:
        """A cleanup now would begin a showdown or combat (323.12–323.14)."""
        for bf in s.battlefields:
            kind = self._staging(s, bf)
            if kind and not s.in_showdown:
                return True
            if (kind == "combat" and s.showdown is not None and not s.showdown.combat
                    and s.showdown.battlefield == bf.name):
                return True
        return False

    def _staging(self, s: State, bf: Battlefield) -> str | None:
        """What a contested battlefield stages: "combat" (two players' units) or "showdown"."""
        if bf.contested_by is None:
            return None
        owners = {u.controller for u in s.units_at(bf.name)}
        if len(owners) >= 2 and bf.contested_by in owners:
            return "combat"
        if owners == {bf.contested_by}:
            return "showdown"
        return None

    def _cleanup(self, s: State, p: Params, t: Trace) -> State:
        s = replace(s, tasks=s.tasks[1:])
        if s.sides_established:
            s = self._designate(s, t)
        open_state = not s.chain
        if open_state:
            for bf in s.battlefields:
                if (bf.controller is not None and not s.units_at(bf.name, bf.controller)
                        and (s.showdown is None or s.showdown.battlefield != bf.name)
                        and (s.combat is None or s.combat.battlefield != bf.name)):
                    s = replace(s, battlefields=tuple(replace(b, controller=None) if b.name == bf.name else b
                                                      for b in s.battlefields))
                    t.note("control-lost", s, {"player": bf.controller, "at": bf.name})
        # 323.11: contested status without the contesting player's units (and no showdown) goes away
        s = replace(s, battlefields=tuple(
            replace(b, contested_by=None) if (b.contested_by is not None
                                              and not s.units_at(b.name, b.contested_by)
                                              and not self._ongoing_at(s, b.name)) else b
            for b in s.battlefields))
        if not open_state:
            return s
        if not s.in_showdown:
            staged = [(bf, self._staging(s, bf)) for bf in s.battlefields]
            showdowns = [bf for bf, kind in staged if kind == "showdown"]
            combats = [bf for bf, kind in staged if kind == "combat"]
            if showdowns:
                bf = showdowns[0]
                s = replace(s, showdown=Showdown(bf.name), focus=bf.contested_by, priority=None)
                return t.step("showdown-begins", s, {"at": bf.name, "player": bf.contested_by})
            if combats:
                bf = combats[0]
                s = self._stage_combat(s, bf, new_showdown=True)
                t.note("combat-begins", s, {"at": bf.name})
                return s
        elif s.showdown is not None and not s.showdown.combat:
            bf = s.battlefield(s.showdown.battlefield)
            if bf is not None and self._staging(s, bf) == "combat":
                s = self._stage_combat(s, bf, new_showdown=False)
                t.note("becomes-combat-showdown", s, {"at": bf.name})
        return s

    def _designate(self, s: State, t: Trace) -> State:
        """Cleanup step 2 (323.2): units present at the combat's battlefield take their controller's
        designation, units elsewhere lose theirs; a unit gaining one for the first time this
        combat puts its attack or defend triggers on the chain (383.4.e.2, 383.4.f.2)."""
        c = s.combat
        assert c is not None
        sides = {c.attacker: "attacker", c.defender: "defender"}
        board, gained, lost = [], [], []
        for u in s.board:
            want = sides.get(u.controller) if u.location == c.battlefield else None
            if want != u.designation:
                if u.designation is not None:
                    lost.append((u, u.designation))
                if want is not None:
                    gained.append((u, want))
                u = replace(u, designation=want)
            board.append(u)
        if not gained and not lost:
            return s
        s = replace(s, board=tuple(board))
        for u, d in lost:
            t.note("designation-lost", s, {"unit": u.name, "designation": d})
        fired: list[tuple[str, Trigger, str]] = []
        designated = c.designated
        for u, d in gained:
            t.note("designation-gained", s, {"unit": u.name, "designation": d})
            if (u.name, d) in designated:
                t.note("trigger-checked-once", s, {"unit": u.name, "designation": d})
                continue
            designated += ((u.name, d),)
            event = "attack" if d == "attacker" else "defend"
            fired += [(u.controller, tr, u.card) for tr in self._triggers_of(u.card, event)]
        s = replace(s, combat=replace(c, designated=designated))
        return self._fire(s, t, fired, "designation-triggers")

    def _ongoing_at(self, s: State, at: str) -> bool:
        return (s.showdown is not None and s.showdown.battlefield == at) or (
            s.combat is not None and s.combat.battlefield == at)

    def _stage_combat(self, s: State, bf: Battlefield, new_showdown: bool) -> State:
        attacker = bf.contested_by or s.turn_player
        others = [u.controller for u in s.units_at(bf.name) if u.controller != attacker]
        defender = others[0] if others else (bf.controller or s.turn_player)
        combat = Combat(bf.name, attacker, defender, new_showdown=new_showdown)
        return replace(s, combat=combat, priority=None, tasks=("combat-opens",) + s.tasks)

    def _combat_opens(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        showdown = Showdown(s.combat.battlefield, combat=True) if s.showdown is None else replace(
            s.showdown, combat=True, passes=0)
        return replace(s, showdown=showdown, tasks=("start-of-combat", "establish-attacker-defender",
                                                    "attacker-gains-focus", "combat-chain") + s.tasks[1:])

    def _start_of_combat(self, s: State, p: Params, t: Trace) -> State:
        return replace(s, tasks=s.tasks[1:])

    def _establish(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        c = s.combat
        board = tuple(replace(u, designation="attacker" if u.controller == c.attacker else "defender")
                      if u.location == c.battlefield and u.controller in (c.attacker, c.defender) else u
                      for u in s.board)
        designated = tuple((u.name, u.designation) for u in board if u.designation is not None)
        return replace(s, board=board, tasks=s.tasks[1:], combat=replace(c, designated=designated))

    def _attacker_focus(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        s = replace(s, tasks=s.tasks[1:])
        if not s.combat.new_showdown and s.focus is not None:
            t.note("focus-maintained", s, {"player": s.focus})
            return replace(s, priority=None)
        return replace(s, focus=s.combat.attacker, priority=None)

    def _combat_chain(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        c = s.combat
        s = replace(s, tasks=s.tasks[1:])
        fired = []
        ordered = [c.attacker] + [pl for pl in s.players if pl not in (c.attacker, c.defender)] + [c.defender]
        for player in ordered:
            for u in s.units_at(c.battlefield, player):
                event = "attack" if u.designation == "attacker" else "defend" if u.designation == "defender" else ""
                fired += [(player, tr, u.card) for tr in self._triggers_of(u.card, event)] if event else []
        if fired:
            opened = not s.chain
            for controller, tr, source in fired:
                s, item = self._new_item(s, name=tr.name, controller=controller, kind="trigger", source=source,
                                         effects=tr.effects, optional=tr.optional, origin="trigger")
                t.note("triggers", s, {"item": tr.name, "on": tr.on})
            if opened:
                s = replace(s, opened_by="trigger")
            t.note("combat-state-closes", s)
        else:
            t.note("combat-state-open", s)
        return s

    def _close_showdown(self, s: State, p: Params, t: Trace) -> State:
        assert s.showdown is not None
        at = s.showdown.battlefield
        if s.showdown.combat and s.combat is not None:
            s = replace(s, showdown=None, focus=None, priority=None,
                        combat=replace(s.combat, step="damage"),
                        tasks=("combat-damage", "combat-cleanup", "combat-result", "establish-control",
                               "combat-ends") + s.tasks)
            t.note("combat-showdown-closes", s, {"at": at})
            return s
        owners = {u.controller for u in s.units_at(at)}
        bf = s.battlefield(at)
        s = replace(s, showdown=None, focus=None, priority=None)
        if len(owners) == 1 and bf is not None:
            (owner,) = owners
            if bf.controller != owner:
                s = self._take_control(s, t, at, owner, "settle-control")
        s = replace(s, battlefields=tuple(replace(b, contested_by=None) if b.name == at else b
                                          for b in s.battlefields))
        t.note("showdown-ends", s, {"at": at})
        return self._cleanup_if_due(s, t, "status-cleanup")

    def _take_control(self, s: State, t: Trace, at: str, owner: str, step: str) -> State:
        s = replace(s, battlefields=tuple(replace(b, controller=owner) if b.name == at else b
                                          for b in s.battlefields))
        t.note(step, s, {"at": at, "player": owner})
        if (owner, at) in s.scored:
            return s
        s = replace(s, scored=s.scored + ((owner, at),))
        t.note("conquer", s, {"player": owner, "at": at})
        fired = [(owner, tr, u.card) for u in s.units_at(at, owner) for tr in self._triggers_of(u.card, "conquer")]
        return self._fire(s, t, fired, "conquer-triggers")

    def _combat_damage(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        c = s.combat
        s = replace(s, tasks=s.tasks[1:], combat=replace(c, step="resolution"))
        attackers = [u for u in s.units_at(c.battlefield, c.attacker) if u.designation == "attacker"]
        defenders = [u for u in s.units_at(c.battlefield, c.defender) if u.designation == "defender"]
        if not attackers or not defenders:
            t.note("no-combat-damage", s, {"at": c.battlefield})
        else:
            damage = {u.name: 0 for u in attackers + defenders}
            for dealers, takers in ((attackers, defenders), (defenders, attackers)):
                left = sum(self._might(u) for u in dealers)
                for i, u in enumerate(takers):
                    need = max(1, self._might(u) - u.damage)
                    give = left if i == len(takers) - 1 else min(left, need)
                    damage[u.name] += give
                    left -= give
            s = replace(s, board=tuple(replace(u, damage=u.damage + damage.get(u.name, 0)) for u in s.board))
            t.note("combat-damage", s, {"at": c.battlefield})
        t.note("resolution-step", s)
        return s

    def _might(self, u: Permanent) -> int:
        card = self.cards.get(u.card)
        return card.might if card else 1

    def _combat_cleanup(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        c = s.combat
        s = replace(s, tasks=s.tasks[1:])
        dead = [u for u in s.board if u.damage and u.damage >= max(1, self._might(u))]
        for u in dead:
            s = self._fire(s, t, [(u.controller, tr, u.card) for tr in self._triggers_of(u.card, "leave")],
                           "death-triggers")
        s = replace(s, board=tuple(replace(u, damage=0) for u in s.board if u not in dead),
                    trash=s.trash + tuple(u.card for u in dead))
        for u in dead:
            t.note("kill", s, {"unit": u.name})
        recalled = False
        if s.units_at(c.battlefield, c.defender):
            for u in s.units_at(c.battlefield, c.attacker):
                s = replace(s, board=tuple(replace(x, location="base", designation=None) if x.name == u.name
                                           else x for x in s.board))
                recalled = True
        if recalled:
            s = replace(s, combat=replace(c, result="recalled"))
        return s

    def _combat_result_of(self, s: State) -> str:
        c = s.combat
        if c is None:
            return "none"
        if c.result == "recalled":
            return "no result (attackers recalled)"
        a = bool(s.units_at(c.battlefield, c.attacker))
        d = bool(s.units_at(c.battlefield, c.defender))
        if a and not d:
            return f"{c.attacker} wins"
        if d and not a:
            return f"{c.defender} wins"
        return "no result"

    def _combat_result(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        return replace(s, tasks=s.tasks[1:], combat=replace(s.combat, result=p["result"]))

    def _establish_control(self, s: State, p: Params, t: Trace) -> State:
        assert s.combat is not None
        at = s.combat.battlefield
        s = replace(s, tasks=s.tasks[1:])
        owners = {u.controller for u in s.units_at(at)}
        s = replace(s, battlefields=tuple(replace(b, contested_by=None) if b.name == at else b
                                          for b in s.battlefields))
        bf = s.battlefield(at)
        if len(owners) == 1 and bf is not None and bf.controller != next(iter(owners)):
            s = self._take_control(s, t, at, next(iter(owners)), "settle-control")
        elif not owners:
            s = replace(s, battlefields=tuple(replace(b, controller=None) if b.name == at else b
                                              for b in s.battlefields))
        return s

    def _combat_ends(self, s: State, p: Params, t: Trace) -> State:
        board = tuple(replace(u, designation=None) for u in s.board)
        s = replace(s, tasks=s.tasks[1:], combat=None, board=board, priority=None)
        return self._cleanup_if_due(s, t, "status-cleanup")
