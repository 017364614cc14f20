"""The steps of a turn, and what happens before a player receives priority (117.5): each
automatic transition a module-level function registered by decorator, and their helpers (the
model's ``Turn`` part)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING

from kb.timing.engine import Params, Trace
from kb.timing.models.mtg import bindings
from kb.timing.models.mtg.citations import EDITION_2010, registry
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.objects import MAIN, MAX_HAND, STEPS, Permanent, State, Trigger, add_count, with_hand
from kb.timing.models.frozen import replace

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic

transition = registry.transition


class Turn(Part):
    """The helpers of the turn's transitions: triggers at the beginning of a step, drawing,
    combat damage, cleanup, leaving the game."""

    # -- helpers of the turn's effects ---------------------------------------------------------------
    def _beginning_triggers(self, s: State, t: Trace, step: str) -> State:
        for x in s.exile if step == "upkeep" else ():  # suspend's first triggered ability (702.62a)
            if x.how == "suspended" and x.owner == s.active and x.counters > 0:
                tr = Trigger("beginning", f"{x.card}'s suspend (remove a time counter)", (("time-counter",),),
                             "upkeep")
                s = self._trigger(s, t, "suspend-upkeep", x.owner, tr, x.card, source_id=x.id)
        for u in list(s.board):
            for tr in self.triggers_of(u, "beginning"):
                if tr.step != step or (tr.whose == "your" and u.controller != s.active):
                    continue
                if tr.condition == "untapped" and u.tapped:
                    continue  # an intervening "if" that is false: it doesn't trigger (603.4)
                s = self._trigger(s, t, "beginning-triggers", u.controller, tr, u.name, subject=s.active,
                                  source_id=u.id)
        return s

    def _draw(self, s: State, t: Trace, player: str, n: int, step: str = "draw") -> State:
        hand = s.hand(player)
        if hand is not None:
            s = with_hand(s, player, hand + tuple("a card" for _ in range(n)))
        s = replace(s, drawn=add_count(s.drawn, player, n))
        t.note(step, s, {"player": player, "n": n})
        return s

    def _first_strikes(self, u: Permanent) -> bool:
        """It assigns combat damage in the first of two combat damage steps: it has first strike
        or double strike (510.4)."""
        card = self.card_of(u)
        return card is not None and (card.first_strike or card.double_strike)

    def _double_strikes(self, u: Permanent) -> bool:
        card = self.card_of(u)
        return card is not None and card.double_strike

    def _damage_step(self, s: State) -> int:
        """Which combat damage step begins now (510.4): 1, the first, when a creature in combat
        has first strike or double strike; 2, the second, after it; 0, the only one."""
        if s.damage_step == 1:
            return 2
        in_combat = [u for u in s.board if u.attacking or u.blocking is not None]
        return 1 if any(self._first_strikes(u) for u in in_combat) else 0

    @property
    def damage_order(self) -> bool:
        """Whether the edition's rules have a damage assignment order, announced by the active
        player for each creature blocked by two or more as blockers are declared (2010's 509.2);
        the 2026 rules have the attacking player divide the damage as it is assigned (510.1c)."""
        return self.edition == EDITION_2010

    def _assigns(self, u: Permanent, step: int) -> bool:
        """Whether ``u`` assigns combat damage in combat damage step ``step`` (see :meth:`_combat_damage`)."""
        if step == 0:
            return True
        first = self._first_strikes(u)
        return first == (step == 1) or (step == 2 and self._double_strikes(u))

    def blockers_of(self, s: State, a: Permanent) -> list[Permanent]:
        """The creatures blocking attacker ``a``, in its damage assignment order where one was
        announced (2010's 509.2), else as listed (the model's order, which a scenario may change)."""
        blockers = [u for u in s.board if u.blocking == a.id]
        return sorted(blockers, key=lambda b: b.order or len(blockers) + 1)

    def to_order(self, s: State) -> list[Permanent]:
        """The attackers blocked by two or more creatures whose damage assignment order the active
        player announces now (2010's 509.2); none in an edition without one."""
        if not self.damage_order:
            return []
        return [a for a in s.board if a.attacking and len([u for u in s.board if u.blocking == a.id]) > 1]

    def to_divide(self, s: State) -> list[Permanent]:
        """The attackers whose combat damage their controller divides now among two or more
        blockers (510.1c), in this combat damage step (``s.damage_step``). Where the edition has a
        damage assignment order (2010) the division follows it, lethal damage to each before the
        next, but more than lethal may go to an earlier one (2010's 510.1c): a choice only for an
        attacker with more power than the first blocker's lethal damage."""
        out = [a for a in s.board if a.attacking and self._assigns(a, s.damage_step) and self.power(s, a) > 0
               and len(self.blockers_of(s, a)) > 1]
        if self.damage_order:
            out = [a for a in out if self.power(s, a) > self.lethal_damage(s, a, self.blockers_of(s, a)[0])]
        return out

    def lethal_damage(self, s: State, source: Permanent, b: Permanent) -> int:
        """The lethal damage ``source`` assigns creature ``b`` in combat: its toughness less the
        damage already marked on it (510.1c, 702.19b), and at most 1 from a source with
        deathtouch (702.2c; 702.2b in 2010, "regardless of that creature's toughness"). Every
        division of combat damage (the default, the orders of 2010, trample) asks this."""
        lethal = max(0, self.toughness(s, b) - b.damage)
        card = self.card_of(source)
        return min(lethal, 1) if card is not None and card.deathtouch else lethal

    def in_order(self, s: State, a: Permanent, shares: Mapping[str, int]) -> bool:
        """Whether a division of ``a``'s combat damage keeps its damage assignment order (2010's
        510.1c): a blocker, or the player it attacks with trample, is assigned damage only once
        each blocker before it is assigned lethal damage; more than lethal may go to any."""
        for b in self.blockers_of(s, a):
            if shares.get(b.name, 0) < self.lethal_damage(s, a, b):
                later = [x.name for x in self.blockers_of(s, a)] + [s.defender]
                return not any(shares.get(n, 0) for n in later[later.index(b.name) + 1:])
        return True

    def stop_at(self, s: State, a: Permanent) -> list[tuple[tuple[str, int], ...]]:
        """The divisions of ``a``'s combat damage in its damage assignment order (2010) that put all
        the rest on one blocker: lethal damage to each before it, every point left to it (more than
        lethal); the last is the model's default (and, with trample, lethal to each and the rest to
        the player)."""
        blockers = self.blockers_of(s, a)
        power, out = self.power(s, a), []
        for k in range(len(blockers)):
            left, shares = power, []
            for b in blockers[:k]:
                give = min(left, self.lethal_damage(s, a, b))
                shares.append((b.name, give))
                left -= give
            if left <= 0:
                break
            out.append(tuple(shares + [(blockers[k].name, left)]))
        default = self.lethal_first(s, a, blockers)
        return [d for d in out if d != default] + [default]

    def orders(self, s: State, p: Params) -> dict[str, tuple[str, ...]] | None:
        """The damage assignment orders a decision ``p`` announces (509.2, 2010), every attacker it
        leaves out in the order its blockers were listed; None where it is not an order of exactly
        the creatures blocking each attacker it names."""
        attackers = {a.name: a for a in self.to_order(s)}
        out: dict[str, tuple[str, ...]] = {}
        for name, order in p.get("orders") or ():
            blockers = [b.name for b in self.blockers_of(s, attackers[name])] if name in attackers else None
            if blockers is None or name in out or sorted(order) != sorted(blockers) or len(set(order)) != len(order):
                return None
            out[name] = tuple(order)
        for name, a in attackers.items():
            out.setdefault(name, tuple(b.name for b in self.blockers_of(s, a)))
        return out

    def division(self, s: State, p: Params) -> dict[str, tuple[tuple[str, int], ...]] | None:
        """How a decision ``p`` divides each blocked creature's combat damage (510.1c): as its
        ``assignment`` says, or lethal damage in the ``orders`` it names, every attacker it leaves
        out lethal damage in the order its blockers were listed; None where a division is not
        legal: other than exactly its power, to other than its blockers (and, with trample, the
        player it attacks once each blocker is assigned lethal damage, 702.19b)."""
        attackers = {a.name: a for a in self.to_divide(s)}
        out: dict[str, tuple[tuple[str, int], ...]] = {}
        for name, shares in p.get("assignment") or ():
            if name not in attackers or name in out:
                return None
            out[name] = tuple(shares)
        for name, order in p.get("orders") or ():
            if name not in attackers or name in out:
                return None
            blockers = {b.name: b for b in self.blockers_of(s, attackers[name])}
            if sorted(order) != sorted(blockers) or len(set(order)) != len(order):
                return None
            if self.damage_order and list(order) != list(blockers):  # announced as blockers were declared
                return None
            out[name] = self.lethal_first(s, attackers[name], [blockers[b] for b in order])
        for name, a in attackers.items():
            out.setdefault(name, self.lethal_first(s, a, self.blockers_of(s, a)))
            blockers = self.blockers_of(s, a)
            shares = dict(out[name])
            lethal = all(shares.get(b.name, 0) >= self.lethal_damage(s, a, b) for b in blockers)
            trample = (card := self.card_of(a)) is not None and card.trample
            if len(shares) != len(out[name]) or any(n < 0 for n in shares.values()) or \
                    sum(shares.values()) != self.power(s, a):
                return None
            if self.damage_order and not self.in_order(s, a, shares):
                return None
            for to, n in shares.items():
                if to not in {b.name for b in blockers} and (to != s.defender or not trample or (n and not lethal)):
                    return None
        return out

    def lethal_first(self, s: State, a: Permanent, blockers: list[Permanent]) -> tuple[tuple[str, int], ...]:
        """Attacker ``a``'s combat damage with lethal damage to each blocker in turn, the rest to the
        last (to the player it attacks, with trample: 702.19b): a legal assignment in both
        editions' rules (510.1c), and the model's where nobody says another."""
        trample = (card := self.card_of(a)) is not None and card.trample
        out, left = [], self.power(s, a)
        for i, b in enumerate(blockers):
            lethal = self.lethal_damage(s, a, b)
            give = left if i == len(blockers) - 1 and not trample else min(left, lethal)
            out.append((b.name, give))
            left -= give
        if trample and left > 0:
            out.append((s.defender, left))
        return tuple(out)

    def _combat_damage(self, s: State, t: Trace, step: int = 0,
                       divided: dict[str, tuple[tuple[str, int], ...]] | None = None) -> State:
        """Combat damage assigned and dealt at once (510.1, 510.2); in the first of two combat
        damage steps (``step`` 1) only creatures with first strike or double strike assign it,
        in the second (2) those with neither and those with double strike (510.4, 702.4b,
        702.7b). A card's keywords do not change in the model, so a creature that had neither as
        the first step began is one that has neither now (702.4c-d, 702.7c cannot arise)."""
        def assigns(u: Permanent) -> bool:
            if step == 0:
                return True
            first = self._first_strikes(u)
            if step == 1 or not self._double_strikes(u):
                return first == (step == 1)
            t.note("double-strike-second", s, {"permanent": u.name})
            return True

        attackers = [u for u in s.board if u.attacking]
        dealt: list[tuple[str, str, int]] = []
        for a in attackers:
            blockers = self.blockers_of(s, a)
            if assigns(a):
                dealt += self._assigned_by_attacker(s, t, a, blockers, (divided or {}).get(a.name))
            dealt += [(b.name, a.name, self.power(s, b)) for b in blockers if assigns(b)]
        for b in s.board:
            if b.blocking is not None and not any(a.id == b.blocking for a in attackers):
                t.note("blocks-nothing", s, {"permanent": b.name})
        for source, to, amount in dealt:
            if to in s.lost:
                t.note("left-player-damage", s, {"player": to, "permanent": source})
                continue
            s = self._damage(s, t, source, to, amount)
        return s

    def _assigned_by_attacker(self, s: State, t: Trace, a: Permanent, blockers: list[Permanent],
                              divided: tuple[tuple[str, int], ...] | None = None) -> list[tuple[str, str, int]]:
        """Where attacker ``a`` assigns its combat damage (510.1b, 510.1c; trample 702.19b, 702.19d):
        as its controller ``divided`` it among its blockers (2026), else lethal damage to each in
        turn, in its damage assignment order where the edition has one (2010)."""
        power = self.power(s, a)
        card = self.card_of(a)
        trample = card is not None and card.trample
        if not a.blocked:
            return [(a.name, s.defender, power)]
        if not blockers and not trample:
            t.note("stays-blocked", s, {"permanent": a.name})
            return []
        shares = divided if divided is not None else self.lethal_first(s, a, blockers)
        text = ", ".join(f"{n} to {to}" for to, n in shares)
        lowered = [b.name for b in blockers if self.lethal_damage(s, a, b) < max(0, self.toughness(s, b) - b.damage)]
        # where the division turns on what lethal damage is: before the player with trample (702.19b),
        # before the next blocker in a damage assignment order (2010's 510.1c); 2026 divides freely
        if lowered and (trample or (len(blockers) > 1 and self.damage_order)):
            t.note("deathtouch-lethal" if trample else "deathtouch-lethal-in-order", s,
                   {"permanent": a.name, "blockers": ", ".join(lowered)})
        if len(blockers) > 1 and self.damage_order:
            t.note("assigned-in-order", s, {"permanent": a.name, "amount": power, "division": text,
                                            "order": ", ".join(b.name for b in blockers)})
            given = dict(shares)
            more = [b.name for b in blockers[:-1] if given.get(b.name, 0) > self.lethal_damage(s, a, b)]
            if more:
                t.note("more-than-lethal", s, {"permanent": a.name, "blockers": ", ".join(more)})
        elif divided is not None:
            t.note("assigned-as-divided", s, {"player": a.controller, "permanent": a.name, "amount": power,
                                              "division": text})
        dealt = [(a.name, to, n) for to, n in shares if to != s.defender]
        left = sum(n for to, n in shares if to == s.defender)
        if left > 0:  # 702.19b past lethal to blockers; 702.19d with none left
            t.note("trample" if blockers else "trample-no-blockers", s,
                   {"permanent": a.name, "amount": left, "player": s.defender})
            dealt.append((a.name, s.defender, left))
        return dealt

    def deal_combat_damage(self, s: State, t: Trace,
                           divided: dict[str, tuple[tuple[str, int], ...]] | None = None) -> State:
        """The combat damage of this combat damage step (``s.damage_step``) assigned and dealt, as
        the attacking player ``divided`` it where they did (510.1c)."""
        which = s.damage_step
        s = self._combat_damage(s, t, which, divided)
        t.note(("combat-damage-step", "first-strike-damage-step", "second-combat-damage-step")[which], s)
        return s

    def _cleanup(self, s: State, t: Trace) -> State:
        hand = s.hand(s.active)
        if hand is not None and len(hand) > MAX_HAND:
            extra = hand[MAX_HAND:]
            s = with_hand(s, s.active, hand[:MAX_HAND])
            s = replace(s, graveyard=s.graveyard + tuple((s.active, c) for c in extra if c != "a card"))
        s = replace(s, board=tuple(replace(u, damage=0, boost=0, prevention=0, deathtouch_damage=False)
                                   for u in s.board), prevention=())
        t.note("cleanup-step", s)
        return s

    def _empty_pools(self, s: State, t: Trace) -> State:
        if s.pool:
            s = replace(s, pool=())
            t.note("mana-empties", s)
        return s

    # -- before priority -----------------------------------------------------------------------------
    def _game_ends(self, s: State, t: Trace, losers: list[str]) -> None:
        """Say how the game ended when ``losers`` left it: the player left wins (104.2a), or,
        every player remaining having lost at once, it is a draw (104.4a)."""
        if s.winner is not None:
            t.note("wins", s, {"player": s.winner})
        else:
            t.note("draw-game", s, {"players": ", ".join(losers)})

    def _leave(self, s: State, t: Trace, player: str) -> State:
        """A player leaves the game at once, not as a state-based action (800.4a): the objects they
        own leave it (here a player owns what they control), their spells and abilities on the
        stack cease to exist, their waiting triggered abilities are never put on the stack (800.4d),
        and turns they would take don't begin (800.4k)."""
        gone = [u for u in s.board if u.controller == player]
        s = replace(s, board=tuple(u for u in s.board if u.controller != player),
                    stack=tuple(o for o in s.stack if o.controller != player),
                    waiting=tuple(o for o in s.waiting if o.controller != player),
                    graveyard=tuple(g for g in s.graveyard if g[0] != player),
                    exile=tuple(x for x in s.exile if x.owner != player),
                    pool=tuple(x for x in s.pool if x[0] != player),
                    extra_turns=tuple(p for p in s.extra_turns if p != player))
        s = with_hand(s, player, ())
        t.note("leaves-game", s, {"player": player,
                                  "objects": ", ".join(u.name for u in gone) or "no permanents"})
        for u in gone:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                t.note("static-ends", s, {"source": u.name, "ability": card.static.name, "effect": card.static.text})
        return s


# -- the transitions this module declares (bound to a model by registry.build) ------------
@transition("begin-step", "automatic", "a step begins", "the {step_name} begins", bindings=bindings.begin)
def begin_step(m: Magic, s: State, p: Params, t: Trace) -> State:
    s = replace(s, begun=True, passes=0)
    step, ap = s.step, s.active
    if step == "untap":
        tapped = [u for u in s.controls(ap) if u.tapped]
        s = replace(s, board=tuple(replace(u, tapped=False) if u.controller == ap else u for u in s.board))
        t.note("untap", s, {"player": ap, "permanents": ", ".join(u.name for u in tapped) or "nothing"})
        for u in tapped:
            for w in s.controls(ap):
                for tr in m.triggers_of(w, "untap"):
                    s = m._trigger(s, t, "untap-triggers-wait", ap, tr, w.name, source_id=w.id)
        t.note("no-priority-in-untap", s)
        return s
    if step == "draw":
        s = m._draw(s, t, ap, 1, "draw-for-turn")
    s = m._beginning_triggers(s, t, step)
    if step == "upkeep":
        t.note("upkeep", s)
    elif step == "draw":
        t.note("draw-step-priority", s)
    elif step in MAIN:
        t.note("main-phase", s)
    elif step == "beginning-of-combat":
        t.note("beginning-of-combat", s)
        if ap not in s.lost and len(s.opponents) > 1:  # a multiplayer game: the attacker chooses (507.1)
            t.note("defender-to-choose", s, {"player": ap, "opponents": ", ".join(s.opponents)})
            return replace(s, awaiting="choose-defender")
    elif step == "declare-attackers":
        if ap in s.lost:  # a turn without an active player: nothing can attack (800.4j)
            t.note("no-attackers", s)
            return m._due(replace(s, no_attackers=True), ap, "step")
        t.note("declare-attackers-step", s, {"player": ap})
        return replace(s, awaiting="declare-attackers")
    elif step == "declare-blockers":
        if s.defender in s.lost:  # nobody is left to block: the attackers stay unblocked
            t.note("no-defender", s, {"player": s.defender})
            return m._due(s, ap, "step")
        t.note("declare-blockers-step", s, {"player": s.defender})
        return replace(s, awaiting="declare-blockers")
    elif step == "combat-damage":
        which = m._damage_step(s)
        if which == 1:
            for u in s.board:
                if (u.attacking or u.blocking is not None) and m._double_strikes(u):
                    t.note("double-strike-first", s, {"permanent": u.name})
        s = replace(s, damage_step=which)
        if m.to_divide(s):  # the attacking player first divides it among the blockers (510.1, 510.1c)
            return replace(s, awaiting="assign-combat-damage")
        return m._due(m.deal_combat_damage(s, t), ap, "step")
    elif step == "end-of-combat":
        t.note("end-of-combat", s)
    elif step == "end":
        t.note("end-step", s)
    elif step == "cleanup":
        s = m._cleanup(s, t)
        if s.waiting or m.sba(s):
            t.note("cleanup-priority", s)
            return m._due(s, ap, "step")
        return s
    return m._due(s, ap, "step")


@transition("untap-step-ends", "automatic", "the untap step ends (no priority)", "the untap step ends",
            bindings=bindings.untap_end)
def advance_step(m: Magic, s: State, p: Params, t: Trace) -> State:
    s = m._empty_pools(s, t)
    i = STEPS.index(s.step)
    nxt = STEPS[i + 1] if i + 1 < len(STEPS) else "cleanup"
    if s.step == "declare-attackers" and s.no_attackers:
        nxt = "end-of-combat"  # 508.8
    if s.step == "combat-damage" and s.damage_step == 1:
        nxt = "combat-damage"  # the second combat damage step (510.4)
    if nxt == "draw" and m.first_draw_skipped(s):
        t.note("skip-first-draw", s, {"player": s.active})
        nxt = "main1"  # skipped: it happens as though it didn't exist (500.11)
    board = s.board
    if s.step == "end-of-combat":
        board = tuple(replace(u, attacking=False, blocking=None, blocked=False) for u in board)
    defending = None if s.step == "end-of-combat" else s.defending
    return replace(s, step=nxt, begun=False, passes=0, board=board, defending=defending,
                   no_attackers=s.no_attackers and nxt != "main2", damage_step=s.damage_step if nxt == s.step else 0)


@transition("step-ends", "automatic", "all players passed with an empty stack: the step ends", "the {step_name} ends",
            bindings=bindings.step_end)
def step_ends(m: Magic, s: State, p: Params, t: Trace) -> State:
    if s.step == "cleanup":
        s = m._empty_pools(s, t)
        t.note("another-cleanup", s)
        return replace(s, begun=False, passes=0)
    return advance_step(m, s, p, t)


@transition("turn-ends", "automatic", "the turn ends; the next turn begins", "{player}'s turn begins",
            bindings=bindings.turn_end)
def turn_ends(m: Magic, s: State, p: Params, t: Trace) -> State:
    s = m._empty_pools(s, t)
    nxt = p["player"]
    extra = s.extra_turns[1:] if s.extra_turns else ()
    if not s.extra_turns:
        i = s.players.index(s.active)
        for seat in (s.players[i + 1:] + s.players[:i + 1]):
            if seat == nxt:
                break
            t.note("left-player-turn", s, {"player": seat, "next": nxt})
    board = tuple(replace(u, sick=False) if u.controller == nxt else u for u in s.board)
    return replace(s, active=nxt, step="untap", begun=False, passes=0, lands_played=(), turn=s.turn + 1,
                   extra_turns=extra, board=board)


@transition("state-based-actions", "automatic", "state-based actions are performed", "state-based actions: {what}",
            bindings=bindings.sba)
def perform_sba(m: Magic, s: State, p: Params, t: Trace) -> State:
    found = m.sba(s)
    dying: list[str] = []
    losers: list[str] = []
    for name, params in found:
        if name == "loses-game":
            s = replace(s, lost=s.lost + (params["player"],))
            losers.append(params["player"])
            t.note(name, s, params)
        elif name == "legend-rule":
            dying += [n for n in params["permanents"] if n not in dying]
            replaced = [n for n in params["permanents"] if m.replaced_death(s, n)]
            kept = [n for n in params["permanents"] if n not in replaced]
            if kept:
                t.note(name, s, {**params, "gone": ", ".join(kept)})
            if replaced:  # the event is replaced: it never happens (614.6)
                t.note(f"{name}-replaced", s, {**params, "gone": ", ".join(replaced)})
        else:
            if params["permanent"] not in dying:
                dying.append(params["permanent"])
            replaced = name in ("lethal-damage", "zero-toughness", "deathtouch-damage") and \
                m.replaced_death(s, params["permanent"])
            t.note(f"{name}-replaced" if replaced else name, s, params)
    s = m._to_graveyard(s, t, dying)  # all at once: a single event (704.3)
    s = checked(s)
    if not s.over:  # a multiplayer game goes on without them (800.4)
        for player in losers:
            s = m._leave(s, t, player)
    elif losers:
        m._game_ends(s, t, losers)
    return s


@transition("put-triggers-on-stack", "automatic", "waiting triggered abilities go on the stack (APNAP)",
            "triggered abilities go on the stack: {order}", bindings=bindings.triggers)
def put_triggers(m: Magic, s: State, p: Params, t: Trace) -> State:
    """The waiting triggered abilities of the players before the first with an order to choose
    go on the stack, each player's in APNAP order (603.3b, 101.4)."""
    going = [o for o in m._apnap_order(s, s.waiting) if o.id in p["ids"]]
    return replace(s, stack=s.stack + tuple(going), waiting=tuple(o for o in s.waiting if o.id not in p["ids"]))


@transition("receive-priority-step", "automatic", "the active player receives priority in this step",
            "{player} receives priority", bindings=partial(bindings.receive, reason="step"))
@transition("receive-priority-resolved", "automatic", "the active player receives priority after resolution",
            "{player} receives priority", bindings=partial(bindings.receive, reason="resolved"))
@transition("receive-priority-action", "automatic", "the player who cast or activated receives priority again",
            "{player} receives priority", bindings=partial(bindings.receive, reason="action"))
@transition("receive-priority-special", "automatic", "the player who took a special action receives priority",
            "{player} receives priority", bindings=partial(bindings.receive, reason="special"))
def receive(m: Magic, s: State, p: Params, t: Trace) -> State:
    if s.due in s.lost:  # the active player left: the next player in turn order instead (800.4j)
        t.note("left-player-skipped", s, {"player": s.due, "next": p["player"]})
    # state-based actions were just checked and none applied (117.5)
    return replace(checked(s), priority=p["player"], due=None, due_reason="", passes=0)


def checked(s: State) -> State:
    """The state once state-based actions are checked: no creature has been dealt damage by a
    source with deathtouch since (704.5h looks back only to the last check; one that survived it,
    indestructible, keeps only the damage marked on it)."""
    if not any(u.deathtouch_damage for u in s.board):
        return s
    return replace(s, board=tuple(replace(u, deathtouch_damage=False) for u in s.board))
