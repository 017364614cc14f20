"""The base of the model's parts (each a mixin of :class:`kb.timing.models.mtg.model.Magic`)."""

from __future__ import annotations


from kb.timing.engine import Check, Rules, Transition
from kb.timing.models.mtg.objects import Card


class Part:
    """What every part of the model reads: its edition, card pool, citations, checks and
    transitions (set by :class:`kb.timing.models.mtg.model.Magic`)."""

    edition: str
    cards: dict[str, Card]
    citations: dict[str, Rules]
    checks: dict[str, Check]
    transitions: dict[str, Transition]

    def cite(self, name: str) -> Rules:
        """The rules a name of the citation table cites in this edition."""
        return self.citations[name]
