"""What the model knows of cards and objects: characteristics, static abilities, targets,
and the state-based actions that apply."""

from __future__ import annotations

from typing import Any

from kb.timing.engine import Params
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.citations import EDITION_2010
from kb.timing.models.mtg.objects import Ability, Card, Permanent, Resolving, State, Static, Trigger


class CardKnowledge(Part):
    """What the model knows of cards and objects: characteristics, static abilities, targets,
    and the state-based actions that apply."""

    # -- card knowledge ---------------------------------------------------------------------
    def card_of(self, u: Permanent) -> Card | None:
        return None if u.face_down else self.cards.get(u.card)

    def damage_source(self, s: State, source: str) -> tuple[Card | None, str | None]:
        """The card whose keywords a source of damage has, and its controller: the permanent of
        that name on the battlefield, else the spell or ability resolving that deals the damage
        (its card, else the card the name is: the source as it last existed, 702.2e, 702.15c);
        (None, None) for a source the model cannot tell."""
        u = s.permanent(source)
        if u is not None:
            return self.card_of(u), u.controller
        r = s.resolving
        if r is not None and source in (r.item.source, r.item.name):
            return self.cards.get(r.item.card or source), r.item.controller
        return None, None

    def indestructible(self, s: State, name: str) -> bool:
        """Whether the permanent ``name`` is indestructible: rules and effects can't destroy it
        (702.12b; 700.4 in 2010)."""
        u = s.permanent(name)
        card = self.card_of(u) if u is not None else None
        return card is not None and card.indestructible

    def power(self, s: State, u: Permanent) -> int:
        card = self.card_of(u)
        return (2 if u.face_down else card.power if card else 0) + u.boost + self.static_bonus(s, u)

    def toughness(self, s: State, u: Permanent) -> int:
        card = self.card_of(u)
        return (2 if u.face_down else card.toughness if card else 0) + u.boost + self.static_bonus(s, u)

    def statics(self, s: State) -> list[tuple[Permanent, Static]]:
        """The static abilities in force: those of the permanents on the battlefield, whatever
        step it is and whoever has priority (117.2b, 604.2)."""
        return list(self._statics(s))

    def _statics(self, s: State) -> tuple[tuple[Permanent, Static], ...]:
        # Asked for every power and toughness of every permanent of a state (the state-based
        # actions ask each creature's): the last state's are kept (by identity).
        last = self.__dict__.get("_statics_of")
        if last is not None and last[0] is s:
            return last[1]  # type: ignore[no-any-return]
        out = []
        for u in s.board:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                out.append((u, card.static))
        found = tuple(out)
        self.__dict__["_statics_of"] = (s, found)
        return found

    def affects(self, source: Permanent, st: Static, u: Permanent) -> bool:
        """Whether ``source``'s static ability applies to ``u`` now (611.3a: never locked in)."""
        if not self.has_type(u, st.type) or (st.whose == "your" and u.controller != source.controller):
            return False
        card = self.card_of(u)  # a face-down permanent is colourless
        return not st.color or (card is not None and st.color in card.colors)

    def static_bonus(self, s: State, u: Permanent) -> int:
        in_force = self._statics(s)
        return sum(st.boost for x, st in in_force if self.affects(x, st, u)) if in_force else 0

    def is_creature(self, u: Permanent) -> bool:
        card = self.card_of(u)
        return u.face_down or (card is not None and "creature" in card.types)

    def has_type(self, u: Permanent, kind: str) -> bool:
        card = self.card_of(u)
        return (kind == "creature" and u.face_down) or (card is not None and kind in card.types)

    def mana_ability(self, u: Permanent) -> Ability | None:
        card = self.card_of(u)
        if card is None:
            return None
        return next((a for a in card.abilities if a.mana), None)

    def triggers_of(self, u: Permanent, event: str) -> list[Trigger]:
        card = self.card_of(u)
        return [tr for tr in card.triggers if tr.on == event] if card else []

    def find_ability(self, s: State, p: Params) -> tuple[str, Ability] | None:
        """The (source, ability) a player names: a permanent they control, or a card in their
        graveyard for an ability that works there."""
        name, source = p.get("ability"), p.get("source")
        for u in s.controls(p["player"]):
            card = self.card_of(u)
            for a in card.abilities if card else ():
                if not a.mana and a.zone == "battlefield" and a.name == name and source in (None, u.name):
                    return u.name, a
        for owner, c in s.graveyard:
            card = self.cards.get(c)
            if owner != p["player"] or card is None:
                continue
            for a in card.abilities:
                if a.zone == "graveyard" and a.name == name and source in (None, c):
                    return c, a
        return None

    def target_ok(self, s: State, kind: str | None, target: str | None, self_id: int | None = None,
                  target_id: int | None = None) -> bool:
        """Whether the target (a player by name, an object by its id) is a legal choice for a
        target of ``kind`` now (115.1); on resolution, an object that changed zones since is a new
        object, so no longer the target (400.7, 608.2b)."""
        if kind is None:
            return target is None and target_id is None
        player = target_id is None and target in s.remaining
        if kind == "player":
            return player
        if kind == "spell":
            return any(o.id == target_id and o.kind == "spell" and o.id != self_id for o in s.stack)
        u = s.object(target_id)
        if kind == "permanent":
            return u is not None
        return (kind == "any" and player) or (u is not None and self.is_creature(u))

    def target_candidates(self, s: State, kind: str | None, name: str | None) -> list[int]:
        """The ids of the objects called ``name`` that a target of ``kind`` could mean."""
        if kind in ("creature", "any", "permanent"):
            return [u.id for u in s.board if u.name == name]
        if kind == "spell":
            return [o.id for o in s.stack if o.kind == "spell" and o.name == name]
        return []

    def resolve_target(self, s: State, kind: str | None, target: str | None, given: int | None) -> int | None:
        """The id of the object a target names: the one given, else the one object by that name
        (None for a player, and for a name that means no object or more than one)."""
        if given is not None or target is None or (kind in ("player", "any") and target in s.players):
            return given
        found = self.target_candidates(s, kind, target)
        return found[0] if len(found) == 1 else None

    def target_choices(self, s: State, kind: str | None) -> list[tuple[str | None, int | None, bool]]:
        """Every target a player could choose: (name, object id or None for a player, whether the
        name alone is ambiguous)."""
        if kind is None:
            return [(None, None, False)]
        found: list[tuple[str, int | None]] = []
        if kind in ("player", "any"):
            found += [(p, None) for p in s.remaining]
        if kind in ("creature", "any", "permanent"):
            found += [(u.name, u.id) for u in s.board if kind == "permanent" or self.is_creature(u)]
        if kind == "spell":
            found += [(o.name, o.id) for o in s.stack if o.kind == "spell"]
        names = [n for n, _ in found]
        return [(n, i, names.count(n) > 1) for n, i in found] or [(None, None, False)]

    # -- state-based actions ----------------------------------------------------------------
    def sba(self, s: State) -> list[tuple[str, dict[str, Any]]]:
        """Every state-based action that applies now: (citation name, params)."""
        # Asked several times of the same state in a row (its validity, then the automatic steps
        # and priority): the last state's answer is kept, and handed out as a fresh copy.
        last = self.__dict__.get("_sba_of")
        if last is not None and last[0] is s:
            return [(name, dict(params)) for name, params in last[1]]
        out = self._state_based_actions(s)
        self.__dict__["_sba_of"] = (s, tuple((name, dict(params)) for name, params in out))
        return out

    def _state_based_actions(self, s: State) -> list[tuple[str, dict[str, Any]]]:
        out: list[tuple[str, dict[str, Any]]] = []
        for p in s.players:
            if p not in s.lost and s.life_of(p) <= 0:
                out.append(("loses-game", {"player": p, "life": s.life_of(p)}))
        for u in s.board:
            if not self.is_creature(u):
                continue
            toughness = self.toughness(s, u)
            if toughness <= 0:
                out.append(("zero-toughness", {"permanent": u.name}))
            elif self.indestructible(s, u.name):
                continue  # it ignores 704.5g and 704.5h (702.12b; 700.4 in 2010)
            elif u.damage >= toughness:
                out.append(("lethal-damage", {"permanent": u.name, "damage": u.damage}))
            elif u.deathtouch_damage:
                out.append(("deathtouch-damage", {"permanent": u.name, "damage": u.damage}))
        legends: dict[tuple[str, ...], list[Permanent]] = {}
        for u in s.board:
            card = self.card_of(u)
            if card is None or not card.legendary:
                continue
            key = (card.name,) if self.edition == EDITION_2010 else (card.name, u.controller)
            legends.setdefault(key, []).append(u)
        for key, group in legends.items():
            if len(group) < 2:
                continue
            # 2010: all of them go; 2026: their controller keeps one (the model keeps the first).
            gone = group if self.edition == EDITION_2010 else group[1:]
            out.append(("legend-rule", {"name": key[0], "permanents": tuple(u.name for u in gone),
                                        "kept": "" if self.edition == EDITION_2010 else group[0].name}))
        return out

    def first_draw_skipped(self, s: State) -> bool:
        """Whether this turn has no draw step: the first turn of a two-player game (103.8a;
        103.8c: no one skips it in a game of more players)."""
        return s.turn == 1 and len(s.players) == 2

    def priority_ready(self, s: State) -> bool:
        """Nothing remains to do before the due player receives priority (117.5)."""
        return not s.waiting and not self.sba(s)

    def choices(self, s: State, r: Resolving, player: str) -> list[str]:
        """The valid choices of ``player`` for the instruction ``r`` has reached (discard, sacrifice)."""
        e = r.item.effects[r.index]
        if e[0] == "discard":
            return list(dict.fromkeys(s.hand(player) or ()))
        if e[0] == "sacrifice":
            return [u.name for u in s.controls(player) if self.has_type(u, e[2])]
        return []
