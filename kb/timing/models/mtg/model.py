"""The Magic timing model over a pool of (abstract) cards, by the rules of one edition: its
parts put together, its checks and transitions bound from the registry that the package's
modules fill (numbered by the edition), and what says whether a state can occur, who decides,
and when the game ends."""

from __future__ import annotations

import functools
from collections.abc import Mapping

from kb.timing.engine import Model, Option, Rules, Violation
from kb.timing.models.mtg import checks, transitions  # noqa: F401 (they register)
from kb.timing.models.mtg.citations import CITATIONS_BY_EDITION, CITATION_EDITION, EDITIONS, registry
from kb.timing.models.mtg.decisions import Decisions
from kb.timing.models.mtg.knowledge import CardKnowledge
from kb.timing.models.mtg.objects import STEP_NAMES, Card, State
from kb.timing.models.mtg.resolution import Resolution
from kb.timing.models.mtg.turn import Turn

# -- the model -----------------------------------------------------------------------------
class Magic(Resolution, Turn, Decisions, CardKnowledge, Model):
    """The Magic timing model over a pool of (abstract) cards, by the rules of one edition."""

    ruleset = "mtg"

    def __init__(self, cards: Mapping[str, Card] | None = None, edition: str = CITATION_EDITION):
        if edition not in CITATIONS_BY_EDITION:
            raise ValueError(f"the mtg timing model cites editions {', '.join(EDITIONS)}, not {edition!r}")
        self.edition = edition
        self.citation_edition = edition
        self.citations = CITATIONS_BY_EDITION[edition]
        self.cards: dict[str, Card] = dict(cards or {})
        self.checks, self.transitions = registry.build(self, self.citations)
        self.invariants = transitions.invariants(self)


    # -- validity ----------------------------------------------------------------------------------------
    def validate(self, s: State) -> list[Violation]:
        out: list[Violation] = []

        def bad(key: str, message: str, field: str) -> None:
            out.append(Violation(message, self.cite("state." + key), field))

        n = len(s.remaining)
        if s.priority is not None:
            if s.resolving is not None:
                bad("priority-resolving", f"{s.priority} has priority while {s.resolving.item.name} resolves",
                    "priority")
            if s.step == "untap":
                bad("priority-untap", f"{s.priority} has priority in the untap step", "priority")
            if s.payment is not None and s.payment.purpose != "unless":
                bad("priority-paying", f"{s.priority} has priority while {s.payment.what} is still being paid for",
                    "priority")
            if s.waiting:
                bad("priority-waiting", f"{s.priority} has priority while {', '.join(o.name for o in s.waiting)} "
                    "waits to be put on the stack", "priority")
            pending = self.sba(s)
            if pending:
                name, params = pending[0]
                bad("priority-sba", f"{s.priority} has priority while a state-based action applies "
                    f"({self.transitions[name].label(params)})", "priority")
        if s.step == "draw" and self.first_draw_skipped(s):
            bad("first-draw", f"{s.active} is in the draw step of the first turn of a two-player game, "
                "which the starting player skips", "step")
        if not s.over:
            for who in s.lost:
                held = (["priority"] if s.priority == who else []) + [
                    u.name for u in s.board if u.controller == who] + [o.name for o in s.stack if o.controller == who]
                if held:
                    bad("left-game", f"{who} has left the game but still has {', '.join(held)}", "lost")
        if s.defending is not None and s.defending == s.active:
            bad("defender-opponent", f"{s.active} is both the attacking and the defending player", "defending")
        for u in s.board:
            if u.blocked and not u.attacking:
                bad("blocked-not-attacking", f"{u.name} is blocked but not attacking", "battlefield")
        if s.stack and s.step == "untap":
            bad("stack-in-untap", "spells or abilities are on the stack in the untap step", "stack")
        for i, o in enumerate(s.stack):
            card = self.cards.get(o.card or "")
            if o.kind == "spell" and card is not None and "land" in card.types:
                bad("land-on-stack", f"{o.name} is a land on the stack", f"stack[{i}]")
        if not 0 <= s.passes <= n or (s.passes >= n and s.priority is not None):
            bad("passes", f"{s.passes} passes in succession cannot occur here", "passes")
        if (s.begun and s.priority is None and s.due is None and not s.busy and s.passes < n
                and s.step not in ("untap", "cleanup") and not s.over):
            bad("nobody-acts", f"nobody has priority in the {STEP_NAMES[s.step]} and nothing is under way",
                "priority")
        return out

    def terminal(self, s: State) -> tuple[str, Rules] | None:
        if not s.over:
            return None
        left = f"{', '.join(s.lost)} lost the game"
        if s.winner is not None:
            return f"{left}; {s.winner} wins, every opponent having left the game.", self.cite("wins")
        return f"{left} at once: the game is a draw.", self.cite("draw-game")

    def decider(self, s: State) -> str | None:
        if s.priority is not None:
            return s.priority
        if s.payment is not None:
            return s.payment.player
        if s.resolving is not None and s.resolving.asked:
            return s.resolving.asked[0]
        if s.awaiting in ("declare-attackers", "choose-defender", "order-blockers", "assign-combat-damage"):
            return s.active
        if s.awaiting == "declare-blockers":
            return s.defender
        return self.trigger_orderer(s)

    def tempting(self, s: State, option: Option) -> bool:
        """Illegal options worth showing: the decider's own, other players' instants and mana
        abilities (can they respond now?)."""
        name = option.transition.name
        if name == "pass" and s.priority is not None and option.player != s.priority:
            return False
        if option.player == self.decider(s):
            return name not in ("declare-attackers", "declare-blockers") or len(option.forbidden_by) == 1
        if name == "activate-mana":
            return True
        if name == "cast":
            return self.cards[option.params["card"]].instant_speed
        return False


@functools.lru_cache(maxsize=64)
def _model(pool: tuple[tuple[str, Card], ...], edition: str) -> Magic:
    return Magic(dict(pool), edition)


def model_for(cards: Mapping[str, Card], edition: str) -> Magic:
    """The model over a card pool by an edition's rules, made once per pool and edition: a pasted
    state (or the next frame of the same scenario) reads its pool again, and binding the checks
    and transitions was most of reading a state. Models are not changed once made, so one
    serves every state of its pool."""
    return _model(tuple(cards.items()), edition)
