"""The Magic: The Gathering timing model: priority, the stack, state-based actions and
triggered abilities before priority, casting and activating with their timing, special
actions, mana abilities while paying, choices during resolution, and the steps of a turn as
far as priority needs them — as transitions that cite the Comprehensive Rules.

Every transition, step, legality check and invariant takes its rule numbers from
:data:`CITATIONS`, the one table of citations, written against the 2026-01-16 release
(priority is rule 117 there). The October 2010 release (priority is rule 116) gets its
numbers from :data:`NUMBERS_2010`, one entry per cited number, carried by the edition
mapping (``KnowledgeBase.map_number``) and checked by hand; the tests compare the two.
The model behaves by the edition it runs: the 2010 legend rule puts every legendary
permanent sharing a name into the graveyard, the 2026 one works per controller.

Every object has an identity (an id): a permanent turned face up is the same object, one that
changes zones is a new one (400.7), and targets and blocks follow objects, not names. In a game
of three or more, a player who loses leaves it with what they own and the game goes on (800.4),
and the attacking player chooses the defending player at the beginning of combat (507.1). The
special actions of 116.2 that timing rulings need: playing a land, turning a creature face up,
suspending (116.2f), foretelling (116.2h) and plotting (116.2k) a card, each with its own timing,
and casting the foretold or plotted card on a later turn; foretell and plot are not in the 2010
rules (its 115.2 lists six special actions), so that edition refuses them.

Scope: one game of two to four players, turn after turn (extra turns included). Cards are
abstract (a name, types, colours, a generic mana cost, power and toughness, a target, triggered
and activated abilities, a static ability granting +N/+N while its permanent is on the battlefield
(no stack, no priority: 117.2b), and a few instructions: damage, counter, counter unless a
player pays, draw, lose life, discard, sacrifice, destroy, tap, extra turn, return from the
graveyard, +N/+N until end of turn, shuffle the graveyard away). Choices the rules leave to players but that
do not change timing are made by the model in a fixed way and said so in the trace (each player
puts their simultaneous triggered abilities on the stack in the order they choose, 603.3b: a
decision, whose default a scenario without an ``order`` step takes is the order they triggered), combat damage among several blockers is the attacking player's (2010: an order announced as
blockers are declared, 509.2; 2026: a division at the combat damage step, 510.1c), by default the
blockers in listing order, lethal damage to each,
a suspended card is cast at the first legal target (opponents first), the 2026 legend rule keeps the permanent that came first, and a
hand over its maximum size discards its last cards. First strike and double strike give the combat a first
combat damage step of their own (510.4), a double striker dealing damage in both (702.4b);
vigilance keeps an attacker untapped (702.20b); a creature with flying is blocked only by creatures
with flying or reach (702.9b, 702.17b), one with menace by two or more (702.111b, 2026 only), and
one with defender can't attack (702.3b). Deathtouch makes 1 lethal damage as combat damage is
assigned (702.2c; 702.2b in 2010) and destroys a creature it damages (704.5h); lifelink gains its
controller the damage's amount as it is dealt (702.15b; 702.13b in 2010); an indestructible
creature ignores lethal damage, deathtouch and "destroy" (702.12b; 700.4 in 2010, where it is
no keyword ability). Keywords are the card's and never gained or lost
(702.4c-d, 702.7c do not arise). Colours of mana,
layers beyond adding +N/+N, replacement effects, copies, casting face down and shortcuts are
out of scope.

The package: ``citations`` (the one table, carried to 2010; data; and the registry), ``objects``
(cards and the state), ``checks`` (module-level functions registered by decorator), the
decisions and automatic transitions (module-level functions registered by decorator in
``decisions``, ``turn`` and ``resolution``, beside the model's parts their effects use, and
their bindings from ``bindings``), ``transitions`` (the steps inside them, and the
invariants), put together in ``model``, which builds them from the registry in its edition's
numbering; ``cards_io``, ``state_io``
and ``scenario`` read and write card pools, states and scenario steps (a state's JSON through the
shared codec, from the metadata of the fields of ``objects``' dataclasses). :class:`MagicRules` is
the model behind the typed interface of :mod:`kb.timing.models.base`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kb.timing import engine
from kb.timing.engine import Option, TraceNode
from kb.timing.models.base import RulesetModel
from kb.timing.models.mtg import scenario, state_io
from kb.timing.models.mtg.cards_io import ACTIONS, EXPECT_KEYS
from kb.timing.models.mtg.citations import (CITATION_EDITION, CITATIONS, CITATIONS_BY_EDITION, EDITION_2010,
                                            EDITION_2026, EDITIONS, MAPPING_CORRECTIONS, NUMBERS_2010, STATE_CHECKS,
                                            cite_table)
from kb.timing.models.mtg.model import Magic
from kb.timing.models.mtg.objects import (STEPS, Ability, Card, Exiled, Obj, Payment, Permanent, Resolving, State,
                                          Static, Trigger)


class MagicRules(RulesetModel[Magic, State]):
    """Magic's model behind the typed interface."""

    ruleset = "mtg"
    title = "Magic: The Gathering Comprehensive Rules"
    citation_edition = CITATION_EDITION
    citations = CITATIONS
    coverage = (("117", "117"),)
    expect_keys = EXPECT_KEYS
    actions = ACTIONS
    state_checks = STATE_CHECKS
    citations_by_edition = {e: t for e, t in CITATIONS_BY_EDITION.items() if e != CITATION_EDITION}
    coverage_by_edition = {EDITION_2010: (("116", "116"),)}
    state_line = staticmethod(scenario.state_line)

    def make(self) -> Magic:
        return Magic()

    def setup(self, data: Mapping[str, Any]) -> tuple[Magic, State]:
        return scenario.setup(data)

    def state_json(self, model: Magic, state: State) -> dict[str, Any]:
        return state_io.state_json(model, state)

    def state_from_json(self, data: Any, edition: str | None = None) -> Any:
        return state_io.state_from_json(data, edition)

    def action(self, kind: str, payload: Any, state: State) -> list[tuple[str, dict[str, Any]]]:
        return scenario.action(kind, payload, state)

    def check_references(self, model: Magic, state: State, kind: str, params: Mapping[str, Any]) -> None:
        scenario.check_references(model, state, kind, params)

    def option_action(self, option: Option) -> dict[str, Any]:
        return scenario.option_action(option)

    def observe(self, model: Magic, state: State, key: str) -> Any:
        return scenario.observe(model, state, key)

    def default_decision(self, model: Magic, state: State) -> tuple[str, dict[str, Any], str, str] | None:
        """The order of a player's simultaneous triggered abilities a scenario leaves out (no
        ``order`` step): the order they triggered; the blockers' order (2010) or the division of
        combat damage (2026) it leaves out (no ``assign`` step): the blockers in the order they
        were listed, lethal damage to each, the rest to the last."""
        if model.trigger_orderer(state) is not None:
            option = next(o for o in engine.options(model, state) if o.transition.name == "order-triggers" and o.legal)
            return "order-triggers", dict(option.params), (
                f"by default (the scenario gives no order): {option.params['player']}'s triggered abilities in the "
                "order they triggered, the last on top; the player may choose any order"), "order"
        name = {"order-blockers": "order-blockers", "assign-combat-damage": "assign-combat-damage"}.get(
            state.awaiting or "")
        if name is None:
            return None
        options = [o for o in engine.options(model, state) if o.transition.name == name and o.legal]
        if model.damage_order and name == "assign-combat-damage":  # 2010: the announced order's, listed last
            return name, dict(options[-1].params), (
                "by default (the scenario gives no assign): lethal damage to each blocker in its damage assignment "
                "order, the rest to the last; more than lethal may go to an earlier one"), "assign"
        return name, dict(options[0].params), ("by default (the scenario gives no assign): the blockers in the order "
                                               "they were listed, lethal damage to each, the rest to the last"), "assign"

    def resolved(self, node: TraceNode) -> list[str]:
        # Finished resolving: an instant, sorcery or ability left the stack, or a permanent entered.
        return [n.params["spell"] if n.name == "permanent-enters" else n.params["item"] for n in node.walk()
                if n.name == "permanent-enters" or (n.name == "finish-resolution" and n.params.get("resolved"))]


__all__ = ["CITATIONS", "CITATIONS_BY_EDITION", "CITATION_EDITION", "EDITIONS", "EDITION_2010", "EDITION_2026",
           "MAPPING_CORRECTIONS", "NUMBERS_2010", "STATE_CHECKS", "STEPS", "Ability", "Card", "Exiled", "Magic",
           "MagicRules", "Obj", "Payment", "Permanent", "Resolving", "State", "Static", "Trigger", "cite_table"]
