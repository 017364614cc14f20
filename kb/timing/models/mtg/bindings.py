"""The bindings of the transitions: every candidate decision and automatic step of a state."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, product
from typing import Any

from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.objects import Card, Resolving, STEP_NAMES, State, on_text


class Bindings(Part):
    """The bindings of the transitions: every candidate decision and automatic step of a state."""

    # -- bindings -------------------------------------------------------------------------------
    def _cast_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        # Also while something is under way: "can I cast it now?" is answered with the rule.
        for player in s.players:
            if player in s.lost:
                continue
            hand = s.hand(player)
            names = list(dict.fromkeys(hand)) if hand is not None else list(self.cards)
            for name in names:
                card = self.cards.get(name)
                if card is None or "land" in card.types:
                    continue
                for target, ident, ambiguous in self.target_choices(s, card.target):
                    yield {"player": player, "card": name, "target": target, "target_id": ident,
                           "on": on_text(target, ident, ambiguous)}

    def _activate_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        seen = set()
        sources: list[tuple[str, str, Card]] = []
        for u in s.board:
            card = self.card_of(u)
            if card:
                sources.append((u.controller, u.name, card))
        for owner, c in s.graveyard:
            card = self.cards.get(c)
            if card and any(a.zone == "graveyard" for a in card.abilities):
                sources.append((owner, c, card))
        for player, source, card in sources:
            for a in card.abilities:
                if a.mana or (player, source, a.name) in seen:
                    continue
                seen.add((player, source, a.name))
                for target, ident, ambiguous in self.target_choices(s, a.target):
                    yield {"player": player, "ability": a.name, "source": source, "target": target,
                           "target_id": ident, "on": on_text(target, ident, ambiguous)}

    def _mana_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        for u in s.board:
            if self.mana_ability(u) is not None:
                yield {"player": u.controller, "source": u.name}

    def _from_hand(self, s: State, wanted: Callable[[Card], bool]) -> Iterator[dict[str, Any]]:
        """Each card of a hand that ``wanted`` keeps, once per player (none while something is
        under way: a special action needs priority); an unknown hand may hold any card of the pool."""
        if s.busy:
            return
        for player in s.remaining:
            hand = s.hand(player)
            for name in dict.fromkeys(hand if hand is not None else tuple(self.cards)):
                card = self.cards.get(name)
                if card is not None and wanted(card):
                    yield {"player": player, "card": name}

    def _land_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        return self._from_hand(s, lambda card: "land" in card.types)

    def _face_up_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.busy:
            return
        for u in s.board:
            if u.face_down:
                yield {"player": u.controller, "permanent": u.name}

    def _exiling_bindings(self, s: State, action: str) -> Iterator[dict[str, Any]]:
        """Each card with the keyword of ``action`` (suspend, foretell, plot) in a hand."""
        return self._from_hand(s, lambda card: getattr(card, action) is not None)

    def _exiled_cast_bindings(self, s: State, how: str) -> Iterator[dict[str, Any]]:
        """Each foretold (or plotted) card in exile, with every target it could have."""
        for x in s.exile:
            card = self.cards.get(x.card)
            if x.how != how or x.owner in s.lost or card is None:
                continue
            for target, ident, ambiguous in self.target_choices(s, card.target):
                yield {"player": x.owner, "card": x.card, "exile_id": x.id, "target": target,
                       "target_id": ident, "on": on_text(target, ident, ambiguous)}

    def _defender_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.awaiting == "choose-defender":
            for player in s.players:
                yield {"player": s.active, "defender": player}

    def _pass_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.priority is not None:
            for p in s.players:
                if p not in s.lost:
                    yield {"player": p}
        elif self.decider(s) is not None:  # a decision without priority: passing is not an option
            yield {"player": self.decider(s)}

    def _payer_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.payment is not None and s.payment.purpose != "unless":
            yield {"player": s.payment.player, "amount": s.payment.amount, "what": s.payment.what}

    def _unless_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.payment is not None and s.payment.purpose == "unless":
            yield {"player": s.payment.player, "amount": s.payment.amount, "what": s.payment.what}

    def _attack_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.awaiting != "declare-attackers":
            return
        creatures = [u.name for u in s.controls(s.active) if self.is_creature(u)][:5]
        for k in range(len(creatures) + 1):
            for group in combinations(creatures, k):
                yield {"player": s.active, "attackers": group,
                       "attackers_text": ", ".join(group) if group else "no creatures"}

    def _block_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.awaiting != "declare-blockers":
            return
        attackers = [u.name for u in s.board if u.attacking]
        blockers = [u.name for u in s.controls(s.defender) if self.is_creature(u)][:4]
        for assignment in product([None] + attackers, repeat=len(blockers)):
            blocks = tuple((b, a) for b, a in zip(blockers, assignment) if a is not None)
            yield {"player": s.defender, "blocks": blocks,
                   "blocks_text": ", ".join(f"{b} blocks {a}" for b, a in blocks) or "no blocks"}

    def _choices(self, s: State, r: Resolving, player: str) -> list[str]:
        e = r.item.effects[r.index]
        if e[0] == "discard":
            return list(dict.fromkeys(s.hand(player) or ()))
        if e[0] == "sacrifice":
            return [u.name for u in s.controls(player) if self.has_type(u, e[2])]
        return []

    def _choose_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        r = s.resolving
        if r is None or not r.asked or s.payment is not None:
            return
        for player in s.apnap:
            for choice in self._choices(s, r, player):
                yield {"player": player, "choice": choice}

    def _begin_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if not s.begun and not s.over:
            yield {"step": s.step, "step_name": STEP_NAMES[s.step], "player": s.active}

    def _untap_end_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.step == "untap" and s.begun and not s.busy and s.due is None and s.priority is None:
            yield {"step": "untap", "step_name": STEP_NAMES["untap"]}

    def _step_end_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if (s.begun and not s.stack and not s.busy and s.priority is None and s.due is None
                and s.passes >= self._in_game(s) and s.step != "untap"):
            yield {"step": s.step, "step_name": STEP_NAMES[s.step]}

    def _turn_end_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if (s.step == "cleanup" and s.begun and s.passes == 0 and not s.stack and not s.busy
                and s.priority is None and s.due is None and not s.over):
            nxt = s.extra_turns[0] if s.extra_turns else s.next_player(s.active)
            yield {"player": nxt, "extra": bool(s.extra_turns)}

    def _in_game(self, s: State) -> int:
        return len([p for p in s.players if p not in s.lost])

    def _sba_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.due is not None and not s.busy and not s.over:
            found = self.sba(s)
            if found:
                yield {"what": "; ".join(self.transitions[n].label(p) for n, p in found)}

    def _triggers_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.due is not None and not s.busy and s.waiting and not s.over and not self.sba(s):
            order = self._apnap_order(s, s.waiting)
            yield {"order": ", ".join(f"{o.name} ({o.controller})" for o in order)}

    def _receive_bindings(self, s: State, reason: str) -> Iterator[dict[str, Any]]:
        """The player who receives priority now, for ``reason`` (step, resolved, action, special)."""
        if s.due is not None and s.due_reason == reason and not s.busy and not s.over and self.priority_ready(s):
            yield {"player": s.next_player(s.due) if s.due in s.lost else s.due}

    def _resolve_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if (s.stack and not s.busy and s.priority is None and s.due is None
                and s.passes >= self._in_game(s) and not s.over):
            top = s.stack[-1]
            yield {"item": top.name, "id": top.id, "player": top.controller}
