"""The decisions: each effect a module-level function registered by decorator with its checks
and bindings (``registry.build`` binds it to a model), and the helpers every effect uses, the
model's ``Decisions`` part (new objects, triggers, damage, leaving the battlefield)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.mtg import bindings
from kb.timing.models.mtg.citations import registry
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.objects import (EXILING, Card, Exiled, Obj, Payment, Permanent, State, Trigger, add_count,
                                          with_hand, with_pool, without_card)
from kb.timing.models.frozen import replace

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic

transition = registry.transition


class Decisions(Part):
    """The helpers every effect uses (new objects, triggers, damage, leaving the battlefield)."""

    # -- helpers ----------------------------------------------------------------------------------
    def _apnap_order(self, s: State, objs: Iterable[Obj]) -> list[Obj]:
        objs = list(objs)
        return [o for p in s.apnap for o in objs if o.controller == p]

    def trigger_orderer(self, s: State) -> str | None:
        """The player who now puts their waiting triggered abilities on the stack in an order they
        choose (603.3b): the first in APNAP order (101.4) with any waiting, when theirs can go on in
        more than one order; None when nothing waits, something comes first, or there is no choice."""
        if s.due is None or s.busy or not s.waiting or s.over or self.sba(s):
            return None
        first = self._apnap_order(s, s.waiting)[0].controller
        own = [o for o in s.waiting if o.controller == first]
        return first if len({bindings.trigger_key(o) for o in own}) > 1 else None

    def _new_permanent(self, s: State, card: str, controller: str, name: str | None = None,
                       **fields: Any) -> tuple[State, Permanent]:
        """A new object on the battlefield: a fresh id (400.7) and a name no other permanent has."""
        taken = {u.name for u in s.board}
        unique, n = name or card, 2
        while unique in taken:
            unique, n = f"{name or card} #{n}", n + 1
        u = Permanent(unique, card, controller, id=s.next_id, **fields)
        return replace(s, next_id=s.next_id + 1), u

    def _new_obj(self, s: State, **fields: Any) -> tuple[State, Obj]:
        obj = Obj(id=s.next_id, **fields)
        return replace(s, next_id=s.next_id + 1), obj

    def _trigger(self, s: State, t: Trace, step: str, controller: str, tr: Trigger, source: str,
                 amount: int = 0, subject: str | None = None, source_id: int | None = None) -> State:
        s, obj = self._new_obj(s, name=tr.name, controller=controller, kind="trigger", source=source,
                               effects=tr.effects, amount=amount, subject=subject, condition=tr.condition,
                               source_id=source_id)
        s = replace(s, waiting=s.waiting + (obj,))
        t.note(step, s, {"item": tr.name, "player": controller})
        return s

    def _due(self, s: State, player: str, reason: str) -> State:
        return replace(s, priority=None, due=player, due_reason=reason, passes=0)

    def _to_graveyard(self, s: State, t: Trace, names: Iterable[str]) -> State:
        """Permanents leave the battlefield for their owners' graveyards; "dies" triggers fire."""
        names = list(names)
        gone = [u for u in s.board if u.name in names]
        exiled = self._exiled_instead(s, t, gone)
        s = replace(s, board=tuple(u for u in s.board if u.name not in names),
                    graveyard=s.graveyard + tuple((u.controller, u.card) for u in gone if u.name not in exiled))
        for u in gone:
            if u.name in exiled:  # a new object in exile (400.7): it never died (614.6)
                s = replace(s, exile=s.exile + (Exiled(s.next_id, u.controller, u.card, "exiled", 0, s.turn),),
                            next_id=s.next_id + 1)
        for u in gone:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                t.note("static-ends", s, {"source": u.name, "ability": card.static.name,
                                          "effect": card.static.text})
        for u in gone:
            for tr in self.triggers_of(u, "dies") if u.name not in exiled else ():
                s = self._trigger(s, t, "dies-triggers", u.controller, tr, u.card)
        return s

    def _exiled_instead(self, s: State, t: Trace, gone: list[Permanent]) -> set[str]:
        """The permanents about to die that a replacement effect exiles instead (614.1a, 614.6):
        applied as the event would happen, with no stack and no priority; of two that could
        apply, the affected permanent's controller chooses one (616.1), the model the first."""
        out: set[str] = set()
        for u in gone:
            found = self.replacing(s, u)
            if not found:
                continue
            if len(found) > 1:
                t.note("replacement-order", s, {"player": u.controller, "permanent": u.name,
                                                "order": ", ".join(x.name for x in found)})
            t.note("death-replaced", s, {"permanent": u.name, "source": found[0].name})
            for tr in self.triggers_of(u, "dies"):
                t.note("dies-trigger-not-triggered", s, {"permanent": u.name, "item": tr.name})
            out.add(u.name)
        return out

    def replaced_death(self, s: State, name: str) -> bool:
        """Whether a replacement effect exiles the permanent ``name`` instead if it would die
        now (614.1a): the event would then never happen (614.6), so a text says it "would be"
        destroyed or put into the graveyard."""
        u = s.permanent(name)
        return u is not None and bool(self.replacing(s, u))

    def replacing(self, s: State, u: Permanent) -> list[Permanent]:
        """The permanents whose replacement effects would exile ``u`` instead of its dying, in
        board order (the model applies the first, 616.1)."""
        card = self.card_of(u)
        return [x for x in s.board if (c := self.card_of(x)) is not None and c.exile_instead
                and self._exiles(x, u, card)]

    def _exiles(self, source: Permanent, u: Permanent, card: Card | None) -> bool:
        whose = self.cards[source.card].exile_instead
        if whose == "self":
            return source.name == u.name
        creature = card is not None and "creature" in card.types
        return creature and (whose == "creatures" or u.controller != source.controller)

    def _static_applies(self, s: State, t: Trace, u: Permanent | None) -> State:
        """A permanent with a static ability is now on the battlefield: the ability applies at
        once, with nothing put on the stack and nobody receiving priority for it (117.2b, 611.3c)."""
        card = self.card_of(u) if u is not None else None
        if u is not None and card is not None and card.static is not None:
            affected = [x.name for x in s.board if self.affects(u, card.static, x)]
            t.note("static-applies", s, {"source": u.name, "ability": card.static.name, "effect": card.static.text,
                                         "affected": ", ".join(affected) or "nothing yet"})
        return s

    def _shield(self, s: State, t: Trace, to: str, amount: int) -> State:
        """"Prevent the next N damage that would be dealt to it this turn": a shield on a permanent
        or a player, used up by the damage it prevents (615.7)."""
        if s.permanent(to) is not None:
            s = replace(s, board=tuple(replace(x, prevention=x.prevention + amount) if x.name == to else x
                                       for x in s.board))
        elif to in s.players:
            s = replace(s, prevention=add_count(s.prevention, to, amount))
        else:
            return s
        t.note("prevent", s, {"to": to, "amount": amount})
        return s

    def _prevented(self, s: State, t: Trace, source: str, to: str, amount: int) -> tuple[State, int]:
        """Damage about to be dealt to ``to``, less what its shield prevents (615.1, 615.7): the state
        with the shield used, and the damage still dealt. Damage all prevented is never dealt (615.6,
        120.8): no damage event, no ability triggering on it."""
        u = s.permanent(to)
        shield = u.prevention if u is not None else dict(s.prevention).get(to, 0)
        prevented = min(shield, amount)
        if not prevented:
            return s, amount
        if u is not None:
            s = replace(s, board=tuple(replace(x, prevention=x.prevention - prevented) if x.name == to else x
                                       for x in s.board))
        else:
            s = replace(s, prevention=tuple(p for p in add_count(s.prevention, to, -prevented) if p[1]))
        t.note("damage-prevented", s, {"source": source, "to": to, "amount": amount, "prevented": prevented,
                                       "dealt": amount - prevented, "left": shield - prevented})
        return s, amount - prevented

    def _damage(self, s: State, t: Trace, source: str, to: str, amount: int) -> State:
        if amount <= 0:
            return s
        s, amount = self._prevented(s, t, source, to, amount)
        if amount <= 0:
            return s
        card, controller = self.damage_source(s, source)
        deathtouch = card is not None and card.deathtouch
        u = s.permanent(to)
        if u is not None:
            marked = deathtouch and self.is_creature(u)  # 704.5h looks for it when state-based actions are checked
            s = replace(s, board=tuple(replace(x, damage=x.damage + amount,
                                               deathtouch_damage=x.deathtouch_damage or marked)
                                       if x.name == to else x for x in s.board))
            t.note("damage-to-creature", s, {"source": source, "to": to, "amount": amount})
            hit = s.permanent(to)
            own = self.card_of(u)
            if hit is not None and own is not None and own.indestructible and self.is_creature(hit) and (
                    marked or hit.damage >= self.toughness(s, hit)):
                t.note("indestructible", s, {"permanent": to, "source": source,
                                             "why": "deathtouch" if marked else "lethal damage"})
            for tr in self.triggers_of(u, "dealt-damage"):
                s = self._trigger(s, t, "triggers", u.controller, tr, u.name, amount=amount, source_id=u.id)
        elif to in s.players:
            s = replace(s, life=add_count(s.life if s.life else tuple((p, 20) for p in s.players), to, -amount))
            t.note("damage-to-player", s, {"source": source, "to": to, "amount": amount})
        else:
            return s
        if card is not None and card.lifelink and controller in s.remaining:
            # a result of the damage itself, at once with it: no trigger, no stack (702.15a-b, 120.3f)
            s = replace(s, life=add_count(s.life if s.life else tuple((p, 20) for p in s.players), controller, amount))
            t.note("lifelink", s, {"source": source, "player": controller, "amount": amount})
        return s

    # -- decision effects ---------------------------------------------------------------------------
    def _put_on_stack(self, s: State, t: Trace, obj: Obj) -> State:
        if s.stack:
            t.note("in-response", s, {"item": obj.name, "below": s.stack[-1].name})
        return replace(s, stack=s.stack + (obj,), priority=None, passes=0)

    def _cost(self, s: State, t: Trace, player: str, amount: int, purpose: str, what: str,
              item: int | None, exiled: int | None = None) -> State:
        """The cost of an action; ``exiled``: the card in exile being cast, which leaves exile once
        the cost is paid (until then the cast can still be reversed)."""
        if amount > 0:
            s = replace(s, payment=Payment(player, amount, purpose, what, item, exiled))
            t.note("cost-to-pay", s, {"player": player, "amount": amount, "what": what})
            return s
        s = replace(s, exile=tuple(x for x in s.exile if x.id != exiled))
        return self._complete(s, t, player, purpose, what, item)

    def _complete(self, s: State, t: Trace, player: str, purpose: str, what: str, item: int | None) -> State:
        """The spell becomes cast, the ability activated, or the face-down permanent turns face up;
        then the player who acted will receive priority (after 117.5)."""
        s = replace(s, payment=None)
        if purpose == "cast":
            t.note("becomes-cast", s, {"item": what})
            obj = next(o for o in s.stack if o.id == item)
            s = self._cast_triggers(s, t, player, obj.card)
            s = self._ward_triggers(s, t, obj)
        elif purpose in EXILING:
            return self._due(self._exile_card(s, t, player, what, EXILING[purpose]), player, "special")
        elif purpose == "activate":
            t.note("becomes-activated", s, {"item": what})
            s = self._ward_triggers(s, t, next(o for o in s.stack if o.id == item))
        elif purpose == "face-up":
            u = s.permanent(what)
            assert u is not None
            taken = {x.name for x in s.board if x.name != what}
            name, n = u.card, 2
            while name in taken:
                name, n = f"{u.card} #{n}", n + 1
            s = replace(s, board=tuple(replace(x, face_down=False, name=name) if x.name == what else x
                                       for x in s.board))
            t.note("special-action", s, {"what": f"turning {what} face up (it is {name})"})
            s = self._static_applies(s, t, s.permanent(name))
            return self._due(s, player, "special")
        return self._due(s, player, "action")

    def _ward_triggers(self, s: State, t: Trace, obj: Obj) -> State:
        """Each permanent with ward that ``obj`` targets, controlled by an opponent of its
        controller: its ward triggers, "counter that spell or ability unless that player pays
        [cost]" (702.21a), the spell or ability its target."""
        for ident in dict.fromkeys([obj.target_id, *(i for _, i in obj.targets)]):
            u = next((x for x in s.board if x.id == ident), None)
            card = self.card_of(u) if u is not None else None
            if u is None or card is None or card.ward is None or u.controller == obj.controller:
                continue
            tr = Trigger("targeted", f"{u.name}'s ward", (("counter-unless-pay", card.ward),))
            s, ward = self._new_obj(s, name=tr.name, controller=u.controller, kind="trigger", source=u.name,
                                    effects=tr.effects, target=obj.name, target_id=obj.id, source_id=u.id)
            s = replace(s, waiting=s.waiting + (ward,))
            t.note("ward-triggers", s, {"item": tr.name, "player": u.controller, "target": obj.name,
                                        "cost": card.ward})
        return s

    def _cast_triggers(self, s: State, t: Trace, player: str, name: str | None) -> State:
        card = self.cards.get(name or "")
        for tr in card.triggers if card else ():
            if tr.on == "cast":
                s = self._trigger(s, t, "cast-triggers", player, tr, card.name)  # type: ignore[union-attr]
        return s

    def _exile_card(self, s: State, t: Trace, player: str, name: str, how: str) -> State:
        card = self.cards[name]
        counters = card.suspend[0] if how == "suspended" and card.suspend else 0
        s = without_card(s, player, name)
        s = replace(s, exile=s.exile + (Exiled(s.next_id, player, name, how, counters, s.turn),), next_id=s.next_id + 1)
        detail = {"suspended": f"suspended with {counters} time counter{'s' if counters != 1 else ''}",
                  "foretold": "foretold, face down", "plotted": "plotted"}[how]
        t.note("exiled-special", s, {"card": name, "how": detail, "player": player})
        return s


# -- the transitions this module declares (bound to a model by registry.build) ------------
@transition("cast", "decision", "cast a spell", "{player} casts {card}{on}",
            pre=("has-priority", "not-resolving", "split-second", "in-hand", "not-a-land", "sorcery-timing", "targets"),
            bindings=bindings.cast)
def cast(m: Magic, s: State, p: Params, t: Trace) -> State:
    card = m.cards[p["card"]]
    s = without_card(s, p["player"], card.name)
    tid = m.resolve_target(s, card.target, p.get("target"), p.get("target_id"))
    several = tuple((n, m.resolve_target(s, card.target, n, i))
                    for n, i in zip(p.get("targets") or (), p.get("target_ids") or ()))
    s, obj = m._new_obj(s, name=card.name, controller=p["player"], kind="spell", card=card.name,
                        effects=card.effects, target=p.get("target"), target_id=tid, targets=several)
    s = m._put_on_stack(s, t, obj)
    return m._cost(s, t, p["player"], card.cost, "cast", card.name, obj.id)


def exile_from_hand(m: Magic, s: State, p: Params, t: Trace, action: str) -> State:
    """Suspend, foretell or plot: pay the cost (suspend's own, {2}, the plot cost), then the card
    is exiled; none of it uses the stack (116.1)."""
    card = m.cards[p["card"]]
    cost = {"suspend": card.suspend[1] if card.suspend else 0, "foretell": 2, "plot": card.plot or 0}[action]
    return m._cost(replace(s, priority=None, passes=0), t, p["player"], cost, action, card.name, None)

# Suspend, foretell and plot: (the action, its summary, its sentence, its checks).
EXILING_ACTIONS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("suspend", "suspend a card: exile it with time counters (special action)", "{player} suspends {card}",
     ("has-priority", "not-resolving", "in-hand", "has-suspend", "could-cast")),
    ("foretell", "foretell a card: pay {2} and exile it face down (special action)", "{player} foretells {card}",
     ("has-priority", "not-resolving", "in-this-edition", "in-hand", "has-foretell", "during-your-turn")),
    ("plot", "plot a card: exile it to cast it free on a later turn (special action)", "{player} plots {card}",
     ("has-priority", "not-resolving", "in-this-edition", "in-hand", "has-plot", "plot-timing")),
)
for _action, _summary, _text, _pre in EXILING_ACTIONS:
    transition(_action, "decision", _summary, _text, pre=_pre,
               bindings=partial(bindings.exiling, action=_action))(partial(exile_from_hand, action=_action))


@transition("cast-foretold", "decision", "cast a foretold card for its foretell cost",
            "{player} casts the foretold {card}{on}",
            pre=("has-priority", "not-resolving", "split-second", "foretold", "later-turn", "sorcery-timing",
                 "targets"),
            bindings=partial(bindings.exiled_cast, how="foretold"))
@transition("cast-plotted", "decision", "cast a plotted card without paying its mana cost",
            "{player} casts the plotted {card}{on}",
            pre=("has-priority", "not-resolving", "split-second", "plotted", "later-turn", "plotted-timing", "targets"),
            bindings=partial(bindings.exiled_cast, how="plotted"))
def cast_exiled(m: Magic, s: State, p: Params, t: Trace) -> State:
    """Cast a foretold card for its foretell cost, or a plotted one for nothing."""
    x = s.exiled(p["exile_id"])
    assert x is not None
    card = m.cards[x.card]
    tid = m.resolve_target(s, card.target, p.get("target"), p.get("target_id"))
    s, obj = m._new_obj(s, name=card.name, controller=p["player"], kind="spell", card=card.name,
                        effects=card.effects, target=p.get("target"), target_id=tid)
    s = m._put_on_stack(s, t, obj)
    cost = (card.foretell or 0) if x.how == "foretold" else 0
    return m._cost(s, t, p["player"], cost, "cast", card.name, obj.id, x.id)


@transition("choose-defender", "decision", "choose the defending player (a multiplayer game)",
            "{player} chooses {defender} as the defending player", pre=("declarer", "defender"),
            bindings=bindings.defender)
def choose_defender(m: Magic, s: State, p: Params, t: Trace) -> State:
    return m._due(replace(s, awaiting=None, defending=p["defender"]), s.active, "step")


@transition("activate", "decision", "activate an ability", "{player} activates {ability}{on}",
            pre=("has-priority", "not-resolving", "split-second", "ability-source", "ability-timing",
                 "ability-condition", "ability-target", "untapped", "summoning-sickness"), bindings=bindings.activate)
def activate(m: Magic, s: State, p: Params, t: Trace) -> State:
    source, ability = m.find_ability(s, p)  # type: ignore[misc]
    if ability.tap:
        s = replace(s, board=tuple(replace(u, tapped=True) if u.name == source else u for u in s.board))
    tid = m.resolve_target(s, ability.target, p.get("target"), p.get("target_id"))
    permanent = s.permanent(source) if ability.zone == "battlefield" else None
    s, obj = m._new_obj(s, name=ability.name, controller=p["player"], kind="ability", source=source,
                        effects=ability.effects, target=p.get("target"), target_id=tid,
                        source_id=permanent.id if permanent else None)
    s = m._put_on_stack(s, t, obj)
    return m._cost(s, t, p["player"], ability.cost, "activate", ability.name, obj.id)


@transition("activate-mana", "decision", "activate a mana ability", "{player} activates {source}'s mana ability",
            pre=("mana-source", "mana-untapped", "mana-sick", "mana-timing", "mana-while-resolving"), bindings=bindings.mana)
def activate_mana(m: Magic, s: State, p: Params, t: Trace) -> State:
    u = s.permanent(p["source"])
    assert u is not None
    ability = m.mana_ability(u)
    assert ability is not None
    s = replace(s, board=tuple(replace(x, tapped=True) if x.name == u.name else x for x in s.board))
    s = with_pool(s, p["player"], s.mana(p["player"]) + ability.mana)
    t.note("mana-added", s, {"player": p["player"], "n": ability.mana})
    return s


@transition("play-land", "decision", "play a land (special action)", "{player} plays {card}",
            pre=("has-priority", "not-resolving", "in-hand", "land", "own-turn", "land-timing", "one-land"),
            bindings=bindings.land)
def play_land(m: Magic, s: State, p: Params, t: Trace) -> State:
    card = m.cards[p["card"]]
    s = without_card(s, p["player"], card.name)
    s, u = m._new_permanent(s, card.name, p["player"])
    s = replace(s, board=s.board + (u,), lands_played=s.lands_played + (p["player"],))
    t.note("special-action", s, {"what": f"playing {card.name}"})
    s = m._static_applies(s, t, u)
    for tr in m.triggers_of(u, "enters"):
        s = m._trigger(s, t, "triggers", u.controller, tr, u.name, source_id=u.id)
    return m._due(s, p["player"], "special")


@transition("turn-face-up", "decision", "turn a face-down creature face up (special action)",
            "{player} turns {permanent} face up", pre=("has-priority", "not-resolving", "face-down"),
            bindings=bindings.face_up)
def turn_face_up(m: Magic, s: State, p: Params, t: Trace) -> State:
    u = s.permanent(p["permanent"])
    card = m.cards[u.card]  # type: ignore[union-attr]
    s = replace(s, priority=None, passes=0)
    return m._cost(s, t, p["player"], card.morph or 0, "face-up", p["permanent"], None)


@transition("pass", "decision", "pass priority", "{player} passes", pre=("has-priority", "not-resolving"),
            bindings=bindings.pass_priority)
def pass_priority(m: Magic, s: State, p: Params, t: Trace) -> State:
    passes = s.passes + 1
    if passes >= len(s.remaining):
        s = replace(s, passes=passes, priority=None)
        t.note("all-passed", s)
        return s
    nxt = s.next_player(p["player"])
    while nxt in s.lost:
        nxt = s.next_player(nxt)
    s = replace(s, passes=passes, priority=nxt)
    t.note("next-player-priority", s, {"player": nxt})
    return s


@transition("pay", "decision", "pay the cost", "{player} pays {amount} for {what}", pre=("paying", "can-pay"),
            bindings=bindings.payer)
def pay(m: Magic, s: State, p: Params, t: Trace) -> State:
    pay = s.payment
    assert pay is not None
    s = with_pool(s, pay.player, s.mana(pay.player) - pay.amount)
    s = replace(s, exile=tuple(x for x in s.exile if x.id != pay.exiled))
    return m._complete(s, t, pay.player, pay.purpose, pay.what, pay.item)


@transition("retract", "decision", "reverse an action that cannot be completed", "{player} reverses {what}",
            pre=("paying",), bindings=bindings.payer)
def retract(m: Magic, s: State, p: Params, t: Trace) -> State:
    pay = s.payment
    assert pay is not None
    if pay.item is not None:
        obj = next(o for o in s.stack if o.id == pay.item)
        s = replace(s, stack=tuple(o for o in s.stack if o.id != pay.item))
        if obj.kind == "spell" and obj.card:
            hand = None if pay.exiled is not None else s.hand(pay.player)  # cast from exile: it stays there
            if hand is not None:
                s = with_hand(s, pay.player, hand + (obj.card,))
        elif obj.source:
            source, ability = obj.source, m.find_ability(s, {"player": pay.player, "ability": obj.name,
                                                             "source": obj.source})
            if ability and ability[1].tap:
                s = replace(s, board=tuple(replace(u, tapped=False) if u.name == source else u
                                           for u in s.board))
    # The player who had priority keeps it (the mana they made stays in their pool).
    return replace(s, payment=None, priority=pay.player, passes=0)


@transition("declare-attackers", "decision", "declare attackers", "{player} attacks with {attackers_text}",
            pre=("declarer", "attackers", "with-defender"), bindings=bindings.attack)
def declare_attackers(m: Magic, s: State, p: Params, t: Trace) -> State:
    attackers = set(p["attackers"])
    vigilant = {u.name for u in s.board if u.name in attackers and (c := m.card_of(u)) is not None and c.vigilance}
    s = replace(s, awaiting=None, board=tuple(replace(u, attacking=True, tapped=u.name not in vigilant or u.tapped)
                                              if u.name in attackers else u for u in s.board))
    for name in p["attackers"]:
        t.note("vigilance" if name in vigilant else "attack-tapped", s, {"permanent": name})
    if not attackers:
        t.note("no-attackers", s)
        s = replace(s, no_attackers=True)
    else:
        s = replace(s, defending=s.defender)
    return m._due(s, s.active, "step")


@transition("declare-blockers", "decision", "declare blockers", "{player} blocks: {blocks_text}",
            pre=("declarer", "blockers", "flying", "menace"), bindings=bindings.block)
def declare_blockers(m: Magic, s: State, p: Params, t: Trace) -> State:
    ids = {u.name: u.id for u in s.board}
    blocks = {b: ids[a] for b, a in p["blocks"]}
    blocked = set(blocks.values())
    s = replace(s, awaiting=None, board=tuple(
        replace(u, blocking=blocks[u.name]) if u.name in blocks else
        replace(u, blocked=True) if u.id in blocked else u for u in s.board))
    ordered = m.to_order(s)
    if ordered:  # 2010: the active player announces their damage assignment orders first (509.2)
        t.note("damage-order-due", s, {"player": s.active, "attackers": ", ".join(a.name for a in ordered)})
        return replace(s, awaiting="order-blockers")
    return m._due(s, s.active, "step")


@transition("order-blockers", "decision", "announce the damage assignment order of each creature blocked by two "
            "or more (2010)", "{player} orders the blockers: {orders_text}",
            pre=("declarer", "damage-order", "blocker-order"), bindings=bindings.order_blockers)
def order_blockers(m: Magic, s: State, p: Params, t: Trace) -> State:
    """Each blocker's place in the order of the attacker it blocks, as announced; no stack (509.2)."""
    orders = m.orders(s, p)
    assert orders is not None
    place = {b: i + 1 for order in orders.values() for i, b in enumerate(order)}
    s = replace(s, awaiting=None, board=tuple(replace(u, order=place[u.name]) if u.name in place else u
                                              for u in s.board))
    return m._due(s, s.active, "step")


@transition("assign-combat-damage", "decision", "divide a blocked creature's combat damage among its blockers",
            "{player} divides combat damage: {assignment_text}", pre=("declarer", "damage-assignment"),
            bindings=bindings.assign_damage)
def assign_combat_damage(m: Magic, s: State, p: Params, t: Trace) -> State:
    """The attacking player's division (510.1c), then every creature's combat damage dealt at once
    (510.2)."""
    divided = m.division(s, p)
    assert divided is not None
    s = m.deal_combat_damage(replace(s, awaiting=None), t, divided)
    return m._due(s, s.active, "step")


@transition("order-triggers", "decision", "put your simultaneous triggered abilities on the stack in the order you "
            "choose", "{player} puts their triggered abilities on the stack: {order_text}",
            pre=("orders-triggers-now", "trigger-order"), bindings=bindings.order_triggers)
def order_triggers(m: Magic, s: State, p: Params, t: Trace) -> State:
    """The player puts their own waiting triggered abilities on the stack in the order chosen, the
    last on top (603.3b); those of the players after them in APNAP order wait their turn (101.4)."""
    by_id = {o.id: o for o in s.waiting}
    order = tuple(by_id[i] for i in p["order"])
    s = replace(s, stack=s.stack + order, waiting=tuple(o for o in s.waiting if o.id not in p["order"]))
    t.note("triggers-ordered", s, {"player": p["player"], "items": ", ".join(o.name for o in order),
                                   "top": order[-1].name})
    return s


@transition("choose", "decision", "make a choice while a spell resolves", "{player} chooses {choice}",
            pre=("asked", "asked-in-turn", "choice"), bindings=bindings.choose)
def choose(m: Magic, s: State, p: Params, t: Trace) -> State:
    r = s.resolving
    assert r is not None
    r = replace(r, asked=r.asked[1:], chosen=r.chosen + ((p["player"], p["choice"]),))
    s = replace(s, resolving=r)
    if r.asked:
        return s
    return m._continue(s, t, act=True)


@transition("pay-unless", "decision", "pay what a resolving spell asks", "{player} pays {amount} for {what}",
            pre=("paying-unless", "can-pay"), bindings=bindings.unless)
def pay_unless(m: Magic, s: State, p: Params, t: Trace) -> State:
    pay = s.payment
    assert pay is not None and s.resolving is not None
    s = with_pool(s, pay.player, s.mana(pay.player) - pay.amount)
    r = s.resolving
    s = replace(s, payment=None, resolving=replace(r, index=r.index + 1, asked=(), chosen=()))
    return m._continue(s, t)


@transition("decline-payment", "decision", "decline to pay what a resolving spell asks",
            "{player} does not pay for {what}", pre=("paying-unless",), bindings=bindings.unless)
def decline(m: Magic, s: State, p: Params, t: Trace) -> State:
    assert s.resolving is not None and s.payment is not None
    r = s.resolving
    s = replace(s, payment=None)
    s = m._counter(s, t, r.item.target_id)
    s = replace(s, resolving=replace(s.resolving, index=r.index + 1, asked=(), chosen=()))  # type: ignore[arg-type]
    return m._continue(s, t)


@registry.check("in-the-game", "the player has already left the game, or the game is over")
def in_the_game(m: Magic, s: State, p: Params) -> bool:
    return p["player"] not in s.lost and not s.over


@transition("concede", "decision", "concede the game", "{player} concedes", pre=("in-the-game",))
def concede(m: Magic, s: State, p: Params, t: Trace) -> State:
    """A player concedes at any time (104.3a): they leave the game at once and lose it. In a game
    that goes on (800.4) they leave with what they own (800.4a, as a player who lost does), and
    if they had priority, the next player in turn order still in the game receives it (800.4a);
    a pass of theirs in the succession no longer counts, and if every player left has now
    passed in succession, the top of the stack resolves (or the step ends) as after any pass
    (117.4). A concession is a scenario step (``concede: PLAYER``), never a listed option."""
    who = p["player"]
    holder = s.priority
    order = s.remaining
    passed: list[str] = []
    if holder is not None and holder in order:
        i = order.index(holder)
        passed = [order[(i - k) % len(order)] for k in range(1, s.passes + 1)]
    s = replace(s, lost=s.lost + (who,))
    t.note("concedes", s, {"player": who})
    if s.over:
        s = replace(s, priority=None, passes=0)
        m._game_ends(s, t, [who])
        return s
    s = m._leave(s, t, who)
    passes = len([x for x in passed if x != who])
    if holder == who:
        nxt = s.next_player(who)
        s = replace(s, priority=nxt)
        t.note("left-player-priority", s, {"player": who, "next": nxt})
    s = replace(s, passes=passes)
    if s.priority is not None and passes >= len(s.remaining):
        s = replace(s, priority=None)
        t.note("all-passed", s)
    return s
