"""Resolving the top of the stack: targets checked again, instructions followed in order,
choices and payments asked during resolution, suspend's abilities. ``resolve`` is a
module-level function registered by decorator; the rest is the model's ``Resolution`` part."""

from __future__ import annotations


from typing import TYPE_CHECKING

from kb.timing.engine import Params, Trace
from kb.timing.models.mtg import bindings
from kb.timing.models.mtg.cards_io import instruction_text
from kb.timing.models.mtg.citations import registry
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.objects import (Effect, Exiled, Obj, Payment, Resolving, State, Trigger, add_count, on_text,
                                          without_card)
from kb.timing.models.frozen import replace

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic

transition = registry.transition


class Resolution(Part):
    """Resolving the top of the stack: targets checked again, instructions followed in order,
    choices and payments asked during resolution, suspend's abilities."""

    # -- resolving -------------------------------------------------------------------------------------
    def _target_kind(self, obj: Obj) -> str | None:
        if obj.kind == "spell" and obj.card in self.cards:
            return self.cards[obj.card].target
        if obj.kind == "ability":
            for card in self.cards.values():
                for a in card.abilities:
                    if a.name == obj.name and a.target:
                        return a.target
        return None

    def _finish(self, s: State, t: Trace, obj: Obj, resolved: bool = True, removed: str = "removed-unresolved"
                ) -> State:
        """The item leaves the stack: as the final part of its resolution (608.2n), or, when it
        did not resolve, removed by the step ``removed`` names (its targets illegal, 608.2b; its
        intervening "if" false, 603.4), which 608.2n does not describe."""
        s = replace(s, stack=tuple(o for o in s.stack if o.id != obj.id), resolving=None)
        if obj.kind == "spell" and obj.card:
            s = replace(s, graveyard=s.graveyard + ((obj.controller, obj.card),))
        t.note("finish-resolution" if resolved else removed, s, {"item": obj.name, "resolved": resolved})
        return self._due(s, s.active, "resolved")

    def _counter(self, s: State, t: Trace, target: int | None) -> State:
        obj = next((o for o in s.stack if o.id == target), None)
        if obj is None:
            return s
        s = replace(s, stack=tuple(o for o in s.stack if o.id != obj.id))
        if obj.kind == "spell" and obj.card:
            s = replace(s, graveyard=s.graveyard + ((obj.controller, obj.card),))
        t.note("counter", s, {"item": obj.name})
        return s

    def _continue(self, s: State, t: Trace, act: bool = False) -> State:
        """Follow the resolving item's instructions in order until one asks a player to choose or
        pay, or until it is done (608.2c); ``act``: perform the choices just completed."""
        r = s.resolving
        assert r is not None
        item = r.item
        if act:
            s = self._act_on_choices(s, t, r)
            r = replace(s.resolving, index=r.index + 1, asked=(), chosen=())  # type: ignore[arg-type]
            s = replace(s, resolving=r)
        while r.index < len(item.effects):
            e = item.effects[r.index]
            kind = e[0]
            if kind in ("discard", "sacrifice"):
                who = s.apnap if e[1] == "each" else (item.controller,)
                who = tuple(p for p in who if p not in s.lost)
                if len(who) > 1:
                    t.note("apnap-choices", s, {"players": ", ".join(who)})
                asked = []
                for player in who:
                    if self.choices(s, r, player):
                        asked.append(player)
                    else:
                        t.note("nothing-to-choose", s, {"player": player, "what": kind})
                if asked:
                    return replace(s, resolving=replace(r, asked=tuple(asked), chosen=()))
            elif kind == "counter-unless-pay":
                target = next((o for o in s.stack if o.id == item.target_id and o.id != item.id), None)
                if target is not None:
                    s = replace(s, payment=Payment(target.controller, e[1], "unless", item.name, item.id))
                    t.note("payment-asked", s, {"player": target.controller, "amount": e[1]})
                    return replace(s, resolving=r)
            else:
                s = self._instruction(s, t, item, e)
            r = replace(s.resolving or r, index=r.index + 1, asked=(), chosen=())
            s = replace(s, resolving=r)
        return self._finish(s, t, item)

    def _act_on_choices(self, s: State, t: Trace, r: Resolving) -> State:
        e = r.item.effects[r.index]
        if e[0] == "discard":
            for player, card in r.chosen:
                s = without_card(s, player, card)
                s = replace(s, graveyard=s.graveyard + ((player, card),))
                t.note("discard", s, {"player": player, "card": card})
            return s
        for player, name in r.chosen:
            t.note("sacrifice", s, {"player": player, "permanent": name})
        return self._to_graveyard(s, t, [name for _, name in r.chosen])

    def _who(self, s: State, item: Obj, who: str) -> list[str]:
        if who == "each":
            return [p for p in s.apnap if p not in s.lost]
        if who == "that-player":
            return [item.subject or s.active]
        if who == "target":
            return [item.target] if item.target in s.players else []
        return [item.controller]

    def _instruction(self, s: State, t: Trace, item: Obj, e: Effect) -> State:
        kind = e[0]
        if kind == "damage":
            to, amount = e[1], e[2]
            n = item.amount if amount == "that" else int(amount)
            if to == "targets":  # each legal target, under its name now
                for _, ident in item.targets:
                    u = s.object(ident)
                    if u is not None:
                        s = self._damage(s, t, item.source or item.name, u.name, n)
                return s
            if to == "target":  # the targeted object under its name now (turned face up, it is renamed)
                u = s.object(item.target_id)
                dest = u.name if u is not None else item.target if item.target_id is None else None
            else:
                dest = item.controller if to == "you" else to
            return self._damage(s, t, item.source or item.name, dest, n) if dest else s
        if kind == "prevent":  # a shield on the target (or a player) until the cleanup step (615.7, 514.2)
            to, amount = e[1], e[2]
            if to == "target":
                u = s.object(item.target_id)
                dest = u.name if u is not None else item.target if item.target_id is None else None
            else:
                dest = item.controller if to == "you" else to
            return self._shield(s, t, dest, amount) if dest else s
        if kind == "counter":
            return self._counter(s, t, item.target_id)
        if kind == "draw":
            for player in self._who(s, item, e[1]):
                s = self._draw(s, t, player, e[2])
            return s
        if kind == "lose-life":
            for player in self._who(s, item, e[1]):
                s = replace(s, life=add_count(s.life or tuple((p, 20) for p in s.players), player, -e[2]))
                t.note("lose-life", s, {"player": player, "n": e[2]})
            return s
        if kind == "destroy":  # its target, or its legal targets at once
            gone = [u.name for u in (s.object(i) for i in _targeted(item, e)) if u is not None]
            for name in [n for n in gone if self.indestructible(s, n)]:  # it can't be destroyed (702.12b)
                t.note("destroy-indestructible", s, {"permanent": name})
                gone.remove(name)
            for name in gone:  # one a replacement effect exiles instead is never destroyed (614.6)
                t.note("destroy-replaced" if self.replaced_death(s, name) else "destroy", s, {"permanent": name})
            return self._to_graveyard(s, t, gone) if gone else s
        if kind == "tap":
            for ident in _targeted(item, e):
                u = s.object(ident)
                if u is not None:
                    s = replace(s, board=tuple(replace(x, tapped=True) if x.id == u.id else x for x in s.board))
                    t.note("tap", s, {"permanent": u.name})
            return s
        if kind == "extra-turn":
            t.note("extra-turn", s, {"player": item.controller})
            return replace(s, extra_turns=(item.controller,) + s.extra_turns)
        if kind == "return":
            card = item.source or ""
            if (item.controller, card) in s.graveyard:
                g = list(s.graveyard)
                g.remove((item.controller, card))
                s, u = self._new_permanent(replace(s, graveyard=tuple(g)), card, item.controller, sick=True)
                s = replace(s, board=s.board + (u,))
                t.note("return-to-battlefield", s, {"card": card, "name": u.name})
                s = self._static_applies(s, t, u)
            return s
        if kind == "boost":  # its target(s), or the source itself: not a new object with its name (400.7)
            if e[1] == "self":
                src = s.object(item.source_id) if item.source_id is not None else s.permanent(item.source)
                ids = (src.id,) if src is not None else ()
            else:  # a target gone is illegal, and the spell did not get this far for it (608.2b)
                ids = _targeted(item, e)
            for u in [x for x in s.board if x.id in ids]:
                s = replace(s, board=tuple(replace(x, boost=x.boost + e[2]) if x.id == u.id else x for x in s.board))
                t.note("boost", s, {"permanent": u.name, "n": e[2]})
            return s
        if kind == "time-counter":
            return self._remove_time_counter(s, t, s.exiled(item.source_id))
        if kind == "cast-suspended":
            return self._cast_suspended(s, t, s.exiled(item.source_id))
        if kind == "shuffle-graveyard":
            owner = item.controller
            s = replace(s, graveyard=tuple(g for g in s.graveyard if g[0] != owner))
            t.note("shuffle-graveyard", s, {"player": owner})
            return s
        raise ValueError(f"unknown instruction {kind!r}")  # pragma: no cover - parse_effects refuses it

    def _remove_time_counter(self, s: State, t: Trace, x: Exiled | None) -> State:
        """Suspend's upkeep ability: a time counter comes off the card if it is still suspended; the
        last one makes the card's third ability trigger (702.62a)."""
        if x is None or x.how != "suspended" or x.counters <= 0:
            return s
        left = replace(x, counters=x.counters - 1)
        s = replace(s, exile=tuple(left if e.id == x.id else e for e in s.exile))
        t.note("time-counter", s, {"card": x.card, "n": left.counters})
        if left.counters == 0:
            tr = Trigger("counter", f"{x.card}'s suspend (cast it)", (("cast-suspended",),))
            s = self._trigger(s, t, "last-time-counter", x.owner, tr, x.card, source_id=x.id)
        return s

    def _cast_suspended(self, s: State, t: Trace, x: Exiled | None) -> State:
        """The card is cast while the ability resolves, without paying its mana cost, its target the
        first legal one in listing order, opponents and their objects first (the model's fixed choice:
        702.62a lets the player choose, and even decline to cast it); a creature cast this way gaining
        haste is out of scope. A card that cannot be cast (no
        legal target, or a spell with split second on the stack) remains exiled."""
        if x is None or x.how != "suspended" or x.counters:
            return s
        card = self.cards[x.card]
        choices = sorted((c for c in self.target_choices(s, card.target) if self.target_ok(s, card.target, c[0], None, c[1])),
                         key=lambda c: c[0] == x.owner or any(u.id == c[1] and u.controller == x.owner for u in s.board))
        split = any(o.kind == "spell" and o.card in self.cards and self.cards[o.card].split_second for o in s.stack)
        if not choices or split:
            t.note("stays-exiled", s, {"card": x.card})
            return s
        target, ident, ambiguous = choices[0]
        s = replace(s, exile=tuple(e for e in s.exile if e.id != x.id))
        s, obj = self._new_obj(s, name=card.name, controller=x.owner, kind="spell", card=card.name,
                               effects=card.effects, target=target, target_id=ident)
        s = replace(s, stack=s.stack + (obj,))
        t.note("cast-suspended", s, {"player": x.owner, "card": card.name, "on": on_text(target, ident, ambiguous)})
        return self._cast_triggers(s, t, x.owner, card.name)


def _targeted(item: Obj, e: Effect) -> tuple[int | None, ...]:
    """The objects an instruction acts on: the item's several targets when it names ``targets``,
    else its one target (the ids; one that has left the battlefield is found no more)."""
    return tuple(i for _, i in item.targets) if e[1] == "targets" else (item.target_id,)


# -- the transitions this module declares (bound to a model by registry.build) ------------
@transition("resolve", "automatic", "the top of the stack resolves", "{item} resolves", bindings=bindings.resolve)
def resolve(m: Magic, s: State, p: Params, t: Trace) -> State:
    top = s.stack[-1]
    s = replace(s, passes=0)
    kind = m._target_kind(top)
    if top.targets:  # several targets (608.2b): it resolves if any is still legal, acting on those only
        legal = tuple((n, i) for n, i in top.targets if m.target_ok(s, kind, None, top.id, i))
        names = ", ".join(n for n, _ in top.targets)
        if not legal:
            t.note("targets-all-illegal", s, {"item": top.name, "targets": names})
            return m._finish(s, t, top, resolved=False)
        if len(legal) < len(top.targets):
            gone = [n for n, i in top.targets if (n, i) not in legal]
            t.note("some-targets-illegal", s, {"item": top.name, "illegal": ", ".join(gone),
                                               "legal": ", ".join(n for n, _ in legal)})
        s = replace(s, resolving=Resolving(replace(top, targets=legal)))
        t.note("follow-instructions", s, {"item": top.name,
                                          "instruction": ", ".join(map(instruction_text, top.effects)) or "nothing"})
        return m._continue(s, t)
    if kind is not None and not m.target_ok(s, kind, top.target, top.id, top.target_id):
        t.note("target-illegal", s, {"item": top.name, "target": top.target})
        return m._finish(s, t, top, resolved=False)
    card = m.cards.get(top.card) if top.card and top.kind == "spell" else None
    if card is not None and card.permanent:
        s, u = m._new_permanent(s, card.name, top.controller, sick=True)
        s = replace(s, stack=s.stack[:-1], board=s.board + (u,))
        t.note("permanent-enters", s, {"item": u.name, "spell": top.name})
        s = m._static_applies(s, t, u)
        for tr in m.triggers_of(u, "enters"):
            s = m._trigger(s, t, "triggers", u.controller, tr, u.name, source_id=u.id)
        return m._due(s, s.active, "resolved")
    if top.condition == "untapped":
        src = s.object(top.source_id) if top.source_id is not None else s.permanent(top.source)
        if src is None or src.tapped:  # the intervening "if" is checked again (603.4)
            t.note("condition-false", s, {"item": top.name})
            return m._finish(s, t, top, resolved=False, removed="removed-condition-false")
    s = replace(s, resolving=Resolving(top))
    t.note("follow-instructions", s, {"item": top.name,
                                      "instruction": ", ".join(map(instruction_text, top.effects)) or "nothing"})
    return m._continue(s, t)
