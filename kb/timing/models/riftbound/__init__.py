"""The Riftbound timing model: the turn's states, priority and focus, HOT FEPR, showdowns and
combat, as transitions that cite the Core Rules (edition 1.4).

Scope: the Main Phase of one turn. Cards are abstract (a name, a type, keywords, triggers,
activated abilities and a few instructions: counter, draw, create reflexive triggers, play a
card from hand, kill or move a unit). Choices the rules leave to players but that do not
change timing are made by the model in a fixed way and said so in the trace: simultaneous
triggers are ordered by turn order then listing order (383.3.d).

The package, one concern a module:

- ``citations``: the one table of citations (data) and the registry checks and transitions
  are declared with;
- ``cards``: the abstract cards and their instructions as read from a scenario;
- ``state``: the state's dataclasses, whose field metadata gives the state's JSON (``state_io``
  reads and writes it through the shared codec);
- ``checks``: the legality checks; ``decisions``: what players may do; ``chain``: finalizing and
  resolving (HOT FEPR); ``effects``: what instructions do; ``combat``: cleanups, showdowns and
  combat; ``triggers``: items and triggered abilities put on the chain; ``invariants``: what
  every step keeps and why a state cannot occur;
- ``costs``, ``paying`` and ``adding``: costs and resources, paying or declining a cost, and
  Reaction Add abilities activated while a cost is paid (429.3);
- ``damage``: Might and damage; ``scoring``: conquer, hold and the win; ``replacements``:
  replacement effects on deaths (367–374: no chain item, applied as the death would happen);
  ``teams``: modes of play with teammates (2v2, 489); ``conceding``: a player leaving the game
  (649–652); ``battlefields``: a battlefield's static "Units here have +N Might" and the
  battlefield a player removed contributed, replaced with a token battlefield with no abilities
  (652.2);
- ``xp``: each player's XP (728–733), Hunt (823) gaining it and Level abilities (824) active
  with enough of it;
- ``model``: the engine's model over a card pool; ``scenario``: set-up, actions and ``expect``.

A new game concept (costs and resources, Might and damage, scoring…) is a module of its own
beside these (``costs.py``, ``damage.py``…): its instructions registered with
``effects.instruction``, its checks and transitions with ``citations.registry``, its state as
fields of ``state.State`` (so it is in the JSON and expectable at once), and the module
imported by ``model`` so that it registers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.timing.engine import Option, TraceNode, Violation
from kb.timing.models.base import RulesetModel
from kb.timing.models.riftbound import scenario, state_io, xp
from kb.timing.models.riftbound.cards import Ability, Card, Effect, Trigger
from kb.timing.models.riftbound.citations import CITATION_EDITION, CITATIONS, KEYWORD_RULES, STATE_CHECKS, cite
from kb.timing.models.riftbound.combat import awaited_assignment
from kb.timing.models.riftbound.model import Riftbound
from kb.timing.models.riftbound.state import DEFERRED_TASKS, Battlefield, Combat, Item, Permanent, Showdown, State


class RiftboundRules(RulesetModel[Riftbound, State]):
    """The Riftbound Core Rules' timing model, as the runner, ``next`` and ``check`` see it."""

    ruleset = "riftbound"
    title = "Riftbound Core Rules"
    citation_edition = CITATION_EDITION
    citations = CITATIONS
    coverage = (("333", "340"), ("347", "348"), ("367", "374"), ("404", "404"), ("429", "429"), ("464", "464"),
                ("467", "472"), ("808", "808"))
    expect_keys = scenario.EXPECT_KEYS
    actions = scenario.ACTIONS
    state_checks = STATE_CHECKS
    # the keywords' rules, and XP's (729): a card gaining or spending XP is refused where XP is not a rule
    keyword_rules = {**KEYWORD_RULES, "XP": "729"}

    def make(self) -> Riftbound:
        return Riftbound()

    def setup(self, data: Mapping[str, Any]) -> tuple[Riftbound, State]:
        return scenario.setup(data)

    def state_json(self, model: Riftbound, state: State) -> dict[str, Any]:
        return state_io.state_json(model, state)

    def state_from_json(self, data: Any, edition: str | None = None) -> tuple[Riftbound, State, list[Violation]]:
        return state_io.state_from_json(data)

    def action(self, kind: str, payload: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
        return scenario.action(kind, payload, state)

    def check_references(self, model: Riftbound, state: State, kind: str, params: Mapping[str, Any]) -> None:
        scenario.check_references(model, state, kind, params)

    def option_action(self, option: Option) -> dict[str, Any]:
        return scenario.option_action(option)

    def observe(self, model: Riftbound, state: State, key: str) -> Any:
        return scenario.observe(model, state, key)

    def resolved(self, node: TraceNode) -> list[str]:
        return [n.params["item"] for n in node.walk() if n.name in ("resolve", "resolves-immediately",
                                                                        "add-resolves-during-payment")]

    def keywords_used(self, model: Riftbound) -> dict[str, str]:
        out: dict[str, str] = {}
        for name, card in model.cards.items():
            for keyword in sorted(card.keywords & KEYWORD_RULES.keys()):
                out.setdefault(keyword, f"cards.{name}")
            if xp.uses_xp(card):
                out.setdefault("XP", f"cards.{name}")
        return out

    def awaits_choice(self, state: State) -> str | None:
        item = state.awaiting_choice
        return item.name if item is not None else None

    def default_decision(self, model: Riftbound, state: State) -> tuple[str, dict[str, Any], str, str] | None:
        """A player's assignment of combat damage a scenario leaves out (no ``assign`` step):
        lethal damage to each unit in turn, in board order where no keyword orders them."""
        found = awaited_assignment(model, state)
        if found is None:
            return None
        player, orders = found
        return "assign-damage", {"player": player, "order": orders[0]}, (
            "by default (the scenario gives no assign): lethal damage to each unit in turn, in board order where "
            "no keyword orders them"), "assign"


__all__ = ["CITATIONS", "CITATION_EDITION", "DEFERRED_TASKS", "Ability", "Battlefield", "Card", "Combat", "Effect",
           "Item", "Permanent", "Riftbound", "RiftboundRules", "Showdown", "State", "Trigger", "cite"]
