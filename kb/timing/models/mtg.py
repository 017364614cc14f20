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
do not change timing are made by the model in a fixed way and said so in the trace: each
player's simultaneous triggered abilities go on the stack in the order they triggered
(603.3b lets the player choose), combat damage is assigned to blockers in listing order,
a suspended card is cast at the first legal target (opponents first), the 2026 legend rule keeps the permanent that came first, and a
hand over its maximum size discards its last cards. Colours of mana, first strike,
layers beyond adding +N/+N, replacement effects, copies, casting face down and shortcuts are
out of scope.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from itertools import combinations, product
from typing import Any

from kb.timing.engine import (Check, Invariant, Model, Option, Params, Rules, Trace, TraceNode,
                              Transition, Violation)

EDITION_2026 = "2026-01-16"
EDITION_2010 = "2010-10-01"
CITATION_EDITION = EDITION_2026
EDITIONS = (EDITION_2010, EDITION_2026)

# The one table: every name a trace, a check or an invariant can carry → the rules it
# implements (2026-01-16 numbering). The first rules are the ones an explanation quotes first.
CITATIONS: dict[str, Rules] = {
    # -- decisions of the player with priority ------------------------------------------------
    "cast": ("117.1a", "601.2", "601.2a", "601.2c", "601.2f", "405.1", "405.2", "701.5a"),
    "activate": ("117.1b", "602.1", "602.2", "602.2a", "602.2b"),
    "activate-mana": ("117.1d", "605.1a", "605.3a", "605.3b", "106.4"),
    "play-land": ("116.2a", "305.1", "305.2", "505.6b", "117.1c"),
    "turn-face-up": ("116.2b", "702.37e", "708.7", "708.8", "117.1c"),
    "suspend": ("116.2f", "702.62a", "702.62b", "116.3"),
    "foretell": ("116.2h", "702.143a", "702.143b", "116.3"),
    "plot": ("116.2k", "702.170a", "702.170b", "116.3"),
    "cast-foretold": ("702.143a", "702.143c", "601.2", "601.2f", "117.1a"),
    "cast-plotted": ("702.170d", "601.2", "601.2f", "117.1a"),
    "pass": ("117.3d",),
    # -- decisions without priority ------------------------------------------------------------
    "pay": ("601.2g", "601.2h", "118.3"),
    "retract": ("732.1", "732.2", "601.2"),
    "declare-attackers": ("508.1", "508.1a", "508.1f", "506.2", "117.2c"),
    "choose-defender": ("507.1", "506.2a", "506.2", "101.4"),
    "declare-blockers": ("509.1", "509.1a", "509.1g", "509.1h", "117.2c"),
    "choose": ("117.2e", "608.2c", "101.4"),
    "pay-unless": ("118.12", "118.12a", "117.2e", "605.3a"),
    "decline-payment": ("118.12", "118.12a", "117.2e"),
    # -- steps inside decisions ----------------------------------------------------------------
    "in-response": ("117.7", "405.2"),
    "cost-to-pay": ("601.2f", "601.2g", "117.1d"),
    "becomes-cast": ("601.2i", "117.3c"),
    "becomes-activated": ("602.2b", "601.2i", "117.3c"),
    "special-action": ("116.1", "116.3", "405.6"),
    "mana-added": ("605.3b", "106.4"),
    "exiled-special": ("116.1", "116.3", "406.3"),
    "next-player-priority": ("117.3d",),
    "all-passed": ("117.4", "405.5"),
    "attack-tapped": ("508.1f",),
    "no-attackers": ("508.8",),
    "apnap-choices": ("101.4",),
    # -- automatic transitions: the turn -----------------------------------------------------
    "begin-step": ("500.1", "703.4", "117.2", "117.2c"),
    "untap": ("502.3", "302.6"),
    "no-priority-in-untap": ("502.4", "117.3a"),
    "untap-step-ends": ("500.3", "502.4"),
    "upkeep": ("503.1", "503.1a", "501.1"),
    "draw-for-turn": ("504.1", "121.1"),
    "draw-step-priority": ("504.2",),
    "skip-first-draw": ("103.8a", "500.11"),
    "main-phase": ("505.1", "505.2", "505.6"),
    "beginning-of-combat": ("507.2", "506.1"),
    "defender-to-choose": ("507.1", "506.2a"),
    "declare-attackers-step": ("508.1", "508.2"),
    "declare-blockers-step": ("509.1", "509.2", "506.2"),
    "combat-damage-step": ("510.1", "510.1a", "510.1b", "510.1c", "510.2", "510.3"),
    "stays-blocked": ("509.1h", "510.1c", "506.4"),
    "blocks-nothing": ("510.1d", "506.4"),
    "trample": ("702.19b", "702.19d"),
    "end-of-combat": ("511.1", "511.3"),
    "end-step": ("513.1",),
    "cleanup-step": ("514.1", "514.2", "514.3", "703.4p"),
    "cleanup-priority": ("514.3a",),
    "beginning-triggers": ("603.2b", "500.6", "603.4"),
    "step-ends": ("117.4", "500.2", "405.5", "500.5"),
    "another-cleanup": ("514.3a",),
    "turn-ends": ("500.1", "500.7", "302.6"),
    # -- automatic transitions: before priority (117.5) ---------------------------------------
    "state-based-actions": ("117.5", "704.3", "117.2", "117.2d"),
    "loses-game": ("704.5a", "104.3b"),
    "leaves-game": ("800.4", "800.4a", "800.4d"),
    "game-over": ("104.2a", "104.4a", "104.3b"),
    "left-player-skipped": ("800.4j", "800.4a"),
    "left-player-turn": ("800.4k", "800.4a"),
    "left-player-damage": ("800.4e",),
    "no-defender": ("800.4a", "509.1h"),
    "zero-toughness": ("704.5f",),
    "lethal-damage": ("704.5g",),
    "legend-rule": ("704.5j",),
    "put-triggers-on-stack": ("117.5", "603.3", "603.3b", "117.2a", "101.4"),
    "receive-priority-step": ("117.3a", "117.5"),
    "receive-priority-resolved": ("117.3b", "117.5"),
    "receive-priority-action": ("117.3c", "117.5"),
    "receive-priority-special": ("116.3", "117.3c", "117.5"),
    # -- resolving -------------------------------------------------------------------------------
    "resolve": ("117.4", "608.1", "405.5", "117.2e"),
    "target-illegal": ("608.2b", "400.7"),
    "follow-instructions": ("608.2c",),
    "condition-false": ("603.4",),
    "permanent-enters": ("608.3", "608.3a", "302.6"),
    "finish-resolution": ("608.2n", "117.3b"),
    "payment-asked": ("118.12a", "605.3a", "117.1d"),
    "nothing-to-choose": ("608.2c",),
    # -- instructions and events ------------------------------------------------------------------
    "triggers": ("603.2", "117.2a", "603.2a"),
    "cast-triggers": ("601.2i", "603.2"),
    "untap-triggers-wait": ("502.4", "603.3"),
    "dies-triggers": ("603.6c", "603.10a"),
    "damage": ("120.3", "120.3a", "120.3e"),
    "counter": ("701.6a",),
    "draw": ("121.1", "121.2"),
    "lose-life": ("119.3",),
    "discard": ("701.9a",),
    "sacrifice": ("701.21a",),
    "destroy": ("701.8a",),
    "tap": ("701.26a",),
    "extra-turn": ("500.7",),
    "return-to-battlefield": ("400.7",),
    "boost": ("514.2", "611.2a"),
    "static-applies": ("117.2b", "604.1", "604.2", "611.3a", "611.3c"),
    "static-ends": ("117.2b", "604.2", "611.3a"),
    "shuffle-graveyard": ("701.24a",),
    "mana-empties": ("500.5", "106.4"),
    "suspend-upkeep": ("702.62a", "702.62b", "503.1a"),
    "time-counter": ("702.62a",),
    "last-time-counter": ("702.62a", "603.2"),
    "cast-suspended": ("702.62a", "702.62d", "601.2i"),
    "stays-exiled": ("702.62a", "115.1"),
    # -- legality checks --------------------------------------------------------------------------
    "check.has-priority": ("117.1", "117.2e", "117.3a"),
    "check.in-hand": ("601.3", "601.2a"),
    "check.not-a-land": ("305.1",),
    "check.sorcery-timing": ("117.1a", "307.1", "302.1", "301.1", "505.6a"),
    "check.targets": ("601.2c", "115.1"),
    "check.land": ("305.1",),
    "check.land-timing": ("116.2a", "305.1", "117.1c"),
    "check.own-turn": ("305.3", "116.2a"),
    "check.one-land": ("305.2", "116.2a"),
    "check.ability-source": ("602.2", "113.6"),
    "check.ability-timing": ("602.5", "602.5d", "117.1b"),
    "check.ability-condition": ("602.5",),
    "check.untapped": ("118.3", "302.6"),
    "check.summoning-sickness": ("302.6",),
    "check.mana-timing": ("117.1d", "605.3a", "117.2e"),
    "check.mana-source": ("605.1a", "118.3"),
    "check.face-down": ("702.37e", "708.7"),
    "check.paying": ("601.2g", "601.2h"),
    "check.can-pay": ("118.3", "601.2h"),
    "check.asked": ("117.2e", "101.4"),
    "check.choice": ("608.2c", "701.9a", "701.21a"),
    "check.attackers": ("508.1a", "302.6"),
    "check.blockers": ("509.1a",),
    "check.declarer": ("508.1", "509.1", "507.1"),
    "check.split-second": ("702.61a", "702.61b"),
    "check.in-this-edition": ("116.2",),
    "check.has-keyword": ("702.62a", "702.143a", "702.170a"),
    "check.could-cast": ("116.2f", "702.62a", "702.62c"),
    "check.during-your-turn": ("116.2h", "702.143a"),
    "check.plot-timing": ("702.170a", "116.2k"),
    "check.exiled-card": ("702.143a", "702.170d", "406.3"),
    "check.later-turn": ("702.143a", "702.170d"),
    "check.plotted-timing": ("702.170d",),
    "check.defender": ("507.1", "506.2a", "800.4a"),
    # -- invariants -------------------------------------------------------------------------------
    "invariant.one-priority": ("117.3",),
    "invariant.no-priority-resolving": ("117.2e",),
    "invariant.no-priority-untap": ("117.3a", "502.4"),
    "invariant.top-resolves-first": ("405.5", "608.1", "117.7"),
    "invariant.sorcery-timing": ("117.1a", "307.1"),
    "invariant.before-priority": ("117.5", "704.3"),
    # -- why a state cannot occur -------------------------------------------------------------
    "state.one-priority": ("117.3",),
    "state.priority-resolving": ("117.2e",),
    "state.priority-untap": ("117.3a", "502.4"),
    "state.priority-waiting": ("117.5", "603.3"),
    "state.priority-sba": ("117.5", "704.3"),
    "state.priority-paying": ("601.2i", "117.3c"),
    "state.stack-in-untap": ("502.4",),
    "state.land-on-stack": ("305.1",),
    "state.nobody-acts": ("117.3", "117.4"),
    "state.passes": ("117.4",),
    "state.first-draw": ("103.8a",),
    "state.blocked-not-attacking": ("509.1h", "506.4"),
    "state.left-game": ("800.4a",),
    "state.defender-opponent": ("507.1", "506.2a"),
}

# Where each cited number of the 2026-01-16 release is in the 2010-10-01 release (the
# Comprehensive Rules of the seed article): found with ``KnowledgeBase.map_number`` and
# checked by hand against both texts. ``None``: the rule has no counterpart in 2010.
NUMBERS_2010: dict[str, str | None] = {
    "101.4": "101.4", "103.8a": "103.7a", "104.3b": "104.3b", "104.2a": "104.2a", "104.4a": "104.4a",
    "116.2": "115.2", "116.2f": "115.2e", "116.2h": None, "116.2k": None, "406.3": "406.3",
    "702.62a": "702.59a", "702.62b": "702.59b", "702.62c": None, "702.62d": "702.59c",
    "702.143a": None, "702.143b": None, "702.143c": None, "702.170a": None, "702.170b": None, "702.170d": None,
    "506.2a": "506.2a", "507.1": "507.1",
    "800.4": "800.4", "800.4a": "800.4a", "800.4d": "800.4c", "800.4e": "800.4d", "800.4j": "800.4g", "800.4k": None,
    "105.2": "105.2", "106.4": "106.4", "113.6": "112.6", "115.1": "114.1",
    "116.1": "115.1", "116.2a": "115.2a", "116.2b": "115.2b", "116.3": "115.3",
    "117.1": "116.1", "117.1a": "116.1a", "117.1b": "116.1b", "117.1c": "116.1c", "117.1d": "116.1d",
    "117.2": "116.2", "117.2a": "116.2a", "117.2b": "116.2b", "117.2c": "116.2c", "117.2d": "116.2d",
    "117.2e": "116.2e", "117.3": "116.3",
    "117.3a": "116.3a", "117.3b": "116.3b", "117.3c": "116.3c", "117.3d": "116.3d", "117.4": "116.4",
    "117.5": "116.5", "117.7": "116.7",
    "118.3": "117.3", "118.12": "117.12", "118.12a": "117.12a", "119.3": "118.3", "120.3": "119.3",
    "120.3a": "119.3a", "120.3e": "119.3e", "121.1": "120.1", "121.2": "120.2",
    "301.1": "301.1", "302.1": "302.1", "302.6": "302.6", "305.1": "305.1", "305.2": "305.2",
    "305.3": "305.3", "307.1": "307.1", "400.7": "400.7", "405.1": "405.1", "405.2": "405.2",
    "405.5": "405.5", "405.6": "405.6",
    "500.1": "500.1", "500.2": "500.2", "500.3": "500.3", "500.5": "500.4", "500.6": "500.6",
    "500.7": "500.7", "500.11": "500.10", "501.1": "501.1", "502.3": "502.2", "502.4": "502.3", "503.1": "503.2",
    "503.1a": "503.1", "504.1": "504.1", "504.2": "504.3", "505.1": "505.1", "505.2": "505.2",
    "505.6": "505.5", "505.6a": "505.5a", "505.6b": "505.5b", "506.1": "506.1", "506.2": "506.2",
    "507.2": "507.3", "508.1": "508.1", "508.1a": "508.1a", "508.1f": "508.1f", "508.2": "508.3",
    "508.8": "508.6", "509.1": "509.1", "509.1a": "509.1a", "509.1g": "509.1g", "509.1h": "509.1h",
    "509.2": "509.5", "506.4": "506.4", "510.1d": "510.1d", "702.19b": "702.17b", "702.19d": "702.17c",
    "510.1": "510.1", "510.1a": "510.1a", "510.1b": "510.1b", "510.1c": "510.1c",
    "510.2": "510.2", "510.3": "510.4", "511.1": "511.2", "511.3": "511.3", "513.1": "513.2",
    "514.1": "514.1", "514.2": "514.2", "514.3": "514.3", "514.3a": "514.3a",
    "601.2": "601.2", "601.2a": "601.2a", "601.2c": "601.2c", "601.2f": "601.2e", "601.2g": "601.2f",
    "601.2h": "601.2g", "601.2i": "601.2h", "601.3": None, "602.1": "602.1", "602.2": "602.2",
    "602.2a": "602.2a", "602.2b": "602.2b", "602.5": "602.5", "602.5d": "602.5d",
    "603.2": "603.2", "603.2a": "603.2a", "603.2b": "603.2b", "603.3": "603.3", "603.3b": "603.3b",
    "603.4": "603.4", "603.6c": "603.6c", "603.10a": "603.6d",
    "604.1": "604.1", "604.2": "604.2",
    "605.1a": "605.1a", "605.3a": "605.3a", "605.3b": "605.3b", "608.1": "608.1", "608.2b": "608.2b",
    "608.2c": "608.2c", "608.2n": "608.2k", "608.3": "608.3", "608.3a": "608.3",
    "611.2a": "611.2a", "611.3a": "611.3a", "611.3c": "611.3c", "701.5a": "701.4a", "701.6a": "701.5a", "701.8a": "701.6a",
    "701.9a": "701.7a", "701.21a": "701.13a", "701.26a": "701.16a", "701.24a": "701.15a",
    "702.37e": "702.34d", "702.61a": "702.58a", "702.61b": "702.58b", "703.4": "703.4", "703.4p": "703.4n",
    "704.3": "704.3", "704.5a": "704.5a", "704.5f": "704.5f", "704.5g": "704.5g", "704.5j": "704.5k",
    "708.7": "707.7", "708.8": "707.8", "732.1": "715.1", "732.2": "715.2",
}

# Where the edition mapping (``KnowledgeBase.map_number``) and :data:`NUMBERS_2010` part, and
# why the table is right: every other number agrees with the mapping (the tests hold it so).
MAPPING_CORRECTIONS: dict[str, str] = {
    "503.1": "2010 splits the upkeep into 503.1 (triggers go on the stack) and 503.2 (the active player "
             "gets priority); 2026 folds both into 503.1/503.1a",
    "509.2": "2010 509.2-509.4 announce damage assignment orders and put triggers on the stack; the "
             "active player gets priority in 509.5",
    "511.1": "2010 511.1 puts \"at end of combat\" triggers on the stack; priority is 511.2",
    "513.1": "2010 513.1 puts end step triggers on the stack; priority is 513.2",
    "603.10a": "2010 has the look-back-in-time rule for leaves-the-battlefield abilities as 603.6d",
    "608.3a": "2010 608.3 is a single step: the permanent spell enters the battlefield",
    "704.5j": "2010 704.5j is the planeswalker uniqueness rule; its legend rule is 704.5k (and puts every "
              "legendary permanent with the name into the graveyard, not one per controller)",
}


def _carry(table: Mapping[str, Rules], numbers: Mapping[str, str | None]) -> dict[str, Rules]:
    out: dict[str, Rules] = {}
    for name, rules in table.items():
        carried = tuple(dict.fromkeys(n for n in (numbers[r] for r in rules) if n is not None))
        out[name] = carried
    return out


CITATIONS_BY_EDITION: dict[str, dict[str, Rules]] = {
    EDITION_2026: CITATIONS,
    EDITION_2010: _carry(CITATIONS, NUMBERS_2010),
}

# What each state check refuses (the ``state.*`` citations above).
STATE_CHECKS: dict[str, str] = {
    "one-priority": "refuses a state where two players hold priority",
    "priority-resolving": "refuses priority while a spell or ability is resolving",
    "priority-untap": "refuses priority during the untap step",
    "priority-waiting": "refuses priority while triggered abilities wait to be put on the stack",
    "priority-sba": "refuses priority while a state-based action applies",
    "priority-paying": "refuses priority while a spell is being cast or an ability activated",
    "stack-in-untap": "refuses spells or abilities on the stack during the untap step",
    "land-on-stack": "refuses a land on the stack (playing a land does not use the stack)",
    "nobody-acts": "refuses a state in which nobody has priority and nothing is under way",
    "passes": "refuses more passes in succession than can occur",
    "left-game": "refuses priority, permanents or spells of a player who has left the game",
    "blocked-not-attacking": "refuses a blocked creature that is not attacking",
    "defender-opponent": "refuses a defending player who is not an opponent of the active player",
    "first-draw": "refuses the draw step of the first turn of a two-player game (the starting player skips it)",
}

STEPS = ("untap", "upkeep", "draw", "main1", "beginning-of-combat", "declare-attackers",
         "declare-blockers", "combat-damage", "end-of-combat", "main2", "end", "cleanup")
PHASES = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning", "main1": "precombat main",
          "beginning-of-combat": "combat", "declare-attackers": "combat", "declare-blockers": "combat",
          "combat-damage": "combat", "end-of-combat": "combat", "main2": "postcombat main",
          "end": "ending", "cleanup": "ending"}
STEP_NAMES = {"untap": "untap step", "upkeep": "upkeep step", "draw": "draw step",
              "main1": "precombat main phase", "beginning-of-combat": "beginning of combat step",
              "declare-attackers": "declare attackers step", "declare-blockers": "declare blockers step",
              "combat-damage": "combat damage step", "end-of-combat": "end of combat step",
              "main2": "postcombat main phase", "end": "end step", "cleanup": "cleanup step"}
MAIN = frozenset({"main1", "main2"})
CARD_TYPES = ("land", "creature", "artifact", "enchantment", "instant", "sorcery")
PERMANENT_TYPES = frozenset({"land", "creature", "artifact", "enchantment"})
TARGETS = ("creature", "player", "any", "spell", "permanent")
TRIGGER_EVENTS = ("cast", "enters", "dies", "dealt-damage", "untap", "beginning")
TIMINGS = ("any", "sorcery", "your-upkeep")
COLORS = ("white", "blue", "black", "red", "green")
MAX_HAND = 7

Effect = tuple[Any, ...]


def cite_table(edition: str) -> dict[str, Rules]:
    """The citations in an edition's own numbering (KeyError for an edition not carried)."""
    return CITATIONS_BY_EDITION[edition]


# -- cards ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Trigger:
    """A triggered ability: ``on`` an event; ``step`` and ``whose`` for "at the beginning of";
    ``condition`` ``untapped`` for an intervening "if [this] is untapped" (603.4)."""

    on: str
    name: str
    effects: tuple[Effect, ...] = ()
    step: str = ""
    whose: str = "your"  # your | each
    condition: str = ""


@dataclass(frozen=True)
class Ability:
    """An activated ability; ``mana`` > 0 makes it a mana ability (605.1a)."""

    name: str
    cost: int = 0
    tap: bool = False
    mana: int = 0
    effects: tuple[Effect, ...] = ()
    timing: str = "any"  # any | sorcery | your-upkeep
    zone: str = "battlefield"  # battlefield | graveyard
    artifacts: int = 0  # "only if you control N or more artifacts"
    target: str | None = None


@dataclass(frozen=True)
class Static:
    """A static ability of a permanent: ``boost`` +N/+N to each permanent of ``type`` (of
    ``color`` if given) that its controller controls (``whose`` your) or of any player (each).
    It applies while the permanent is on the battlefield, never uses the stack (604.2, 117.2b)."""

    name: str
    boost: int
    type: str = "creature"
    color: str = ""
    whose: str = "your"  # your | each

    @property
    def text(self) -> str:
        what = " ".join(x for x in (self.color, self.type + "s") if x)
        whose = "you control" if self.whose == "your" else "on the battlefield"
        return f"{what} {whose} get +{self.boost}/+{self.boost}"


@dataclass(frozen=True)
class Card:
    name: str
    types: frozenset[str]
    cost: int = 0
    power: int = 0
    toughness: int = 0
    legendary: bool = False
    flash: bool = False
    effects: tuple[Effect, ...] = ()
    target: str | None = None
    triggers: tuple[Trigger, ...] = ()
    abilities: tuple[Ability, ...] = ()
    morph: int | None = None
    haste: bool = False
    colors: frozenset[str] = frozenset()
    static: Static | None = None
    trample: bool = False
    split_second: bool = False
    suspend: tuple[int, int] | None = None  # (time counters, cost): "Suspend N—[cost]" (702.62a)
    foretell: int | None = None  # its foretell cost (702.143a); foretelling itself costs {2}
    plot: int | None = None  # its plot cost (702.170a)

    @property
    def permanent(self) -> bool:
        return bool(self.types & PERMANENT_TYPES)

    @property
    def instant_speed(self) -> bool:
        return "instant" in self.types or self.flash


# -- state ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Obj:
    """A spell or ability on the stack, or a triggered ability waiting to be put there."""

    id: int
    name: str
    controller: str
    kind: str  # spell | ability | trigger
    card: str | None = None
    source: str | None = None
    effects: tuple[Effect, ...] = ()
    target: str | None = None  # a player's name, or the name the targeted object had when targeted
    amount: int = 0  # "that much": the amount of the event that triggered it
    subject: str | None = None  # "that player": whose step triggered it
    condition: str = ""
    target_id: int | None = None  # the targeted object: a permanent or a spell, by identity (400.7)
    source_id: int | None = None  # the permanent whose ability it is (None once the source is a card elsewhere)


@dataclass(frozen=True)
class Permanent:
    name: str
    card: str
    controller: str
    tapped: bool = False
    damage: int = 0
    sick: bool = False  # not controlled continuously since its controller's turn began (302.6)
    face_down: bool = False
    attacking: bool = False
    blocking: int | None = None  # the id of the attacking creature it blocks
    boost: int = 0  # +N/+N until end of turn
    blocked: bool = False  # an attacker that had blockers declared: blocked until combat ends (509.1h)
    id: int = 0  # its identity: a new object each time it enters the battlefield (400.7)


@dataclass(frozen=True)
class Exiled:
    """A card in exile that a special action put there: ``how`` suspended (with ``counters``
    time counters), foretold (face down) or plotted, in turn ``turn``; a new object (400.7)."""

    id: int
    owner: str
    card: str
    how: str  # suspended | foretold | plotted
    counters: int = 0
    turn: int = 0


# What each special action that exiles a card from the hand makes of it, and its cost.
EXILING = {"suspend": "suspended", "foretell": "foretold", "plot": "plotted"}


@dataclass(frozen=True)
class Payment:
    """A cost being paid: casting, activating, turning face up, or a payment an effect asks."""

    player: str
    amount: int
    purpose: str  # cast | activate | face-up | unless | suspend | foretell | plot
    what: str
    item: int | None = None
    exiled: int | None = None  # the card in exile being cast (it leaves exile once paid for)


@dataclass(frozen=True)
class Resolving:
    """The spell or ability resolving; ``asked``: players still to choose (APNAP)."""

    item: Obj
    index: int = 0
    asked: tuple[str, ...] = ()
    chosen: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class State:
    """One moment of a game. ``players`` is the turn order; ``active`` is whose turn it is."""

    players: tuple[str, ...]
    active: str
    step: str = "main1"
    begun: bool = True
    priority: str | None = None
    due: str | None = None  # who would receive priority next (117.5 runs first)
    due_reason: str = ""  # step | resolved | action | special
    passes: int = 0
    awaiting: str | None = None  # declare-attackers | declare-blockers (a turn-based choice)
    no_attackers: bool = False  # none were declared: skip declare blockers and combat damage (508.8)
    stack: tuple[Obj, ...] = ()
    waiting: tuple[Obj, ...] = ()
    board: tuple[Permanent, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    graveyard: tuple[tuple[str, str], ...] = ()  # (owner, card)
    life: tuple[tuple[str, int], ...] = ()
    pool: tuple[tuple[str, int], ...] = ()
    lands_played: tuple[str, ...] = ()
    drawn: tuple[tuple[str, int], ...] = ()
    payment: Payment | None = None
    resolving: Resolving | None = None
    extra_turns: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()  # players who lost: out of the game (a multiplayer game goes on: 800.4)
    defending: str | None = None  # the defending player (chosen at the beginning of combat in multiplayer: 507.1)
    exile: tuple[Exiled, ...] = ()  # suspended, foretold and plotted cards
    turn: int = 1
    next_id: int = 1

    @property
    def phase(self) -> str:
        return PHASES[self.step]

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in the game, in turn order."""
        return tuple(p for p in self.players if p not in self.lost)

    @property
    def over(self) -> bool:
        """The game has ended: at most one player is left in it (104.2a, 104.4a)."""
        return len(self.remaining) <= 1

    @property
    def nonactive(self) -> tuple[str, ...]:
        """The other players still in the game, in turn order from the active player."""
        i = self.players.index(self.active)
        return tuple(p for p in self.players[i + 1:] + self.players[:i] if p not in self.lost)

    @property
    def apnap(self) -> tuple[str, ...]:
        """The active player, then the others in turn order (101.4); a turn whose player left
        the game goes on without an active player (800.4j)."""
        return ((self.active,) if self.active not in self.lost else ()) + self.nonactive

    @property
    def defender(self) -> str:
        return self.defending or (self.nonactive[0] if self.nonactive else self.active)

    def next_player(self, player: str) -> str:
        """The next player in turn order still in the game."""
        i = self.players.index(player)
        for p in self.players[i + 1:] + self.players[:i + 1]:
            if p not in self.lost:
                return p
        return player

    def hand(self, player: str) -> tuple[str, ...] | None:
        return next((h for p, h in self.hands if p == player), None)

    def life_of(self, player: str) -> int:
        return dict(self.life).get(player, 20)

    def mana(self, player: str) -> int:
        return dict(self.pool).get(player, 0)

    def permanent(self, name: str | None) -> Permanent | None:
        return next((u for u in self.board if u.name == name), None)

    def object(self, ident: int | None) -> Permanent | None:
        """The permanent that is the object ``ident`` (None once it has left the battlefield)."""
        return None if ident is None else next((u for u in self.board if u.id == ident), None)

    def exiled(self, ident: int | None) -> Exiled | None:
        """The card in exile that is the object ``ident``."""
        return next((x for x in self.exile if x.id == ident), None)

    def controls(self, player: str) -> list[Permanent]:
        return [u for u in self.board if u.controller == player]

    @property
    def busy(self) -> bool:
        """Something is under way that no automatic step of the turn may interrupt."""
        return self.resolving is not None or self.payment is not None or self.awaiting is not None

    @property
    def opponents(self) -> tuple[str, ...]:
        """The active player's opponents still in the game, in turn order."""
        return tuple(p for p in self.nonactive if p != self.active)


def _counts(pairs: tuple[tuple[str, int], ...], player: str, delta: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[player] = d.get(player, 0) + delta
    return tuple(sorted(d.items()))


def _set_hand(s: State, player: str, cards: tuple[str, ...] | None) -> State:
    return replace(s, hands=tuple((p, cards if p == player else h) for p, h in s.hands))


def _without_card(s: State, player: str, card: str) -> State:
    hand = s.hand(player)
    if hand is None:
        return s
    rest = list(hand)
    rest.remove(card)
    return _set_hand(s, player, tuple(rest))


def _set_pool(s: State, player: str, n: int) -> State:
    d = dict(s.pool)
    d[player] = n
    return replace(s, pool=tuple(sorted((p, v) for p, v in d.items() if v)))


def _on(target: str | None, ident: int | None, ambiguous: bool) -> str:
    """The " targeting X" of a label; an object whose name another shares is told by its id."""
    if target is None:
        return ""
    return f" targeting {target} (object {ident})" if ambiguous else f" targeting {target}"


# -- the model -----------------------------------------------------------------------------
class Magic(Model):
    """The Magic timing model over a pool of (abstract) cards, by the rules of one edition."""

    ruleset = "mtg"

    def __init__(self, cards: Mapping[str, Card] | None = None, edition: str = CITATION_EDITION):
        if edition not in CITATIONS_BY_EDITION:
            raise ValueError(f"the mtg timing model cites editions {', '.join(EDITIONS)}, not {edition!r}")
        self.edition = edition
        self.citation_edition = edition
        self.citations = CITATIONS_BY_EDITION[edition]
        self.cards: dict[str, Card] = dict(cards or {})
        self.checks = {c.name: c for c in self._checks()}
        self.transitions = {t.name: t for t in self._transitions()}
        self.invariants = self._invariants()

    def cite(self, name: str) -> Rules:
        return self.citations[name]

    # -- card knowledge ---------------------------------------------------------------------
    def card_of(self, u: Permanent) -> Card | None:
        return None if u.face_down else self.cards.get(u.card)

    def power(self, s: State, u: Permanent) -> int:
        card = self.card_of(u)
        return (2 if u.face_down else card.power if card else 0) + u.boost + self.static_bonus(s, u)

    def toughness(self, s: State, u: Permanent) -> int:
        card = self.card_of(u)
        return (2 if u.face_down else card.toughness if card else 0) + u.boost + self.static_bonus(s, u)

    def statics(self, s: State) -> list[tuple[Permanent, Static]]:
        """The static abilities in force: those of the permanents on the battlefield, whatever
        step it is and whoever has priority (117.2b, 604.2)."""
        out = []
        for u in s.board:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                out.append((u, card.static))
        return out

    def affects(self, source: Permanent, st: Static, u: Permanent) -> bool:
        """Whether ``source``'s static ability applies to ``u`` now (611.3a: never locked in)."""
        if not self.has_type(u, st.type) or (st.whose == "your" and u.controller != source.controller):
            return False
        card = self.card_of(u)  # a face-down permanent is colourless
        return not st.color or (card is not None and st.color in card.colors)

    def static_bonus(self, s: State, u: Permanent) -> int:
        return sum(st.boost for x, st in self.statics(s) if self.affects(x, st, u))

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
        out: list[tuple[str, dict[str, Any]]] = []
        for p in s.players:
            if p not in s.lost and s.life_of(p) <= 0:
                out.append(("loses-game", {"player": p, "life": s.life_of(p)}))
        for u in s.board:
            if not self.is_creature(u):
                continue
            if self.toughness(s, u) <= 0:
                out.append(("zero-toughness", {"permanent": u.name}))
            elif u.damage >= self.toughness(s, u):
                out.append(("lethal-damage", {"permanent": u.name, "damage": u.damage}))
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

    # -- legality checks ----------------------------------------------------------------------
    def _checks(self) -> list[Check]:
        def mk(name: str, summary: str, holds: Any, tempting: bool = True) -> Check:
            return Check(name, self.cite("check." + name), summary, holds, tempting)

        def card(p: Params) -> Card:
            return self.cards[p["card"]]

        def in_hand(s: State, p: Params) -> bool:
            hand = s.hand(p["player"])
            return hand is None or p["card"] in hand

        def sorcery_timing(s: State, p: Params) -> bool:
            c = card(p)
            if c.instant_speed:
                return True
            return p["player"] == s.active and s.step in MAIN and not s.stack

        def targets(s: State, p: Params) -> bool:
            kind = card(p).target
            return self.target_ok(s, kind, p.get("target"), None,
                                  self.resolve_target(s, kind, p.get("target"), p.get("target_id")))

        def land_timing(s: State, p: Params) -> bool:
            return s.step in MAIN and not s.stack

        def ability(s: State, p: Params) -> Ability | None:
            found = self.find_ability(s, p)
            return found[1] if found else None

        def ability_timing(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or a.timing == "any":
                return True
            if a.timing == "sorcery":
                return p["player"] == s.active and s.step in MAIN and not s.stack
            return p["player"] == s.active and s.step == "upkeep"

        def ability_condition(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.artifacts:
                return True
            return sum(1 for u in s.controls(p["player"]) if self.has_type(u, "artifact")) >= a.artifacts

        def ability_target(s: State, p: Params) -> bool:
            a = ability(s, p)
            return a is None or self.target_ok(s, a.target, p.get("target"), None,
                                               self.resolve_target(s, a.target, p.get("target"), p.get("target_id")))

        def untapped(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.tap:
                return True
            u = s.permanent(self.find_ability(s, p)[0])  # type: ignore[index]
            return u is not None and not u.tapped

        def not_sick(s: State, p: Params) -> bool:
            a = ability(s, p)
            if a is None or not a.tap:
                return True
            u = s.permanent(self.find_ability(s, p)[0])  # type: ignore[index]
            return u is None or not (u.sick and self.is_creature(u))

        def mana_source(s: State, p: Params) -> bool:
            u = s.permanent(p["source"])
            return (u is not None and u.controller == p["player"] and self.mana_ability(u) is not None
                    and not u.tapped)

        def mana_sick(s: State, p: Params) -> bool:
            u = s.permanent(p["source"])
            return u is None or not (u.sick and self.is_creature(u))

        def mana_timing(s: State, p: Params) -> bool:
            return s.priority == p["player"] or (s.payment is not None and s.payment.player == p["player"])

        def face_down(s: State, p: Params) -> bool:
            u = s.permanent(p["permanent"])
            card = self.cards.get(u.card) if u else None
            return (u is not None and u.face_down and u.controller == p["player"] and card is not None
                    and card.morph is not None)

        def paying(s: State, p: Params) -> bool:
            return (s.payment is not None and s.payment.player == p["player"]
                    and s.payment.purpose != "unless")

        def paying_unless(s: State, p: Params) -> bool:
            return (s.payment is not None and s.payment.player == p["player"]
                    and s.payment.purpose == "unless")

        def can_pay(s: State, p: Params) -> bool:
            return s.payment is None or s.mana(p["player"]) >= s.payment.amount

        def asked(s: State, p: Params) -> bool:
            r = s.resolving
            return r is not None and bool(r.asked) and r.asked[0] == p["player"] and s.payment is None

        def choice_ok(s: State, p: Params) -> bool:
            r = s.resolving
            if r is None or not r.asked:
                return False
            return p["choice"] in self._choices(s, r, p["player"])

        def attackers_ok(s: State, p: Params) -> bool:
            for name in p["attackers"]:
                u = s.permanent(name)
                card = self.card_of(u) if u else None
                if (u is None or u.controller != p["player"] or not self.is_creature(u) or u.tapped
                        or (u.sick and not (card and card.haste))):
                    return False
            return True

        def blockers_ok(s: State, p: Params) -> bool:
            for blocker, attacker in p["blocks"]:
                u, a = s.permanent(blocker), s.permanent(attacker)
                if u is None or u.controller != p["player"] or not self.is_creature(u) or u.tapped:
                    return False
                if a is None or not a.attacking:
                    return False
            return True

        def declarer(s: State, p: Params) -> bool:
            if s.awaiting in ("declare-attackers", "choose-defender"):
                return p["player"] == s.active
            if s.awaiting == "declare-blockers":
                return p["player"] == s.defender
            return False

        def own_turn(s: State, p: Params) -> bool:
            return p["player"] == s.active

        def one_land(s: State, p: Params) -> bool:
            return p["player"] not in s.lands_played

        def no_split_second(s: State, p: Params) -> bool:
            return not any(o.kind == "spell" and o.card in self.cards and self.cards[o.card].split_second
                           for o in s.stack)

        def could_cast(s: State, p: Params) -> bool:  # timing permissions and what forbids casting (702.62c)
            return sorcery_timing(s, p) and no_split_second(s, p)

        def own_main_empty(s: State, p: Params) -> bool:
            return p["player"] == s.active and s.step in MAIN and not s.stack

        def exiled_as(how: str) -> Any:
            def holds(s: State, p: Params) -> bool:
                x = s.exiled(p.get("exile_id"))
                return x is not None and x.owner == p["player"] and x.how == how and x.card == p["card"]
            return holds

        def later_turn(s: State, p: Params) -> bool:
            x = s.exiled(p.get("exile_id"))
            return x is None or x.turn < s.turn

        def keyword(name: str, what: str) -> Check:
            return Check("has-" + name, self.cite("check.has-keyword"), f"the card has no {what}",
                         lambda s, p: getattr(card(p), name) is not None)

        return [
            mk("has-priority", "only the player with priority may do this", lambda s, p: s.priority == p["player"]),
            mk("in-this-edition", "not a special action of this edition: its keyword came into the rules later",
               lambda s, p: self.edition != EDITION_2010),
            keyword("suspend", "suspend"), keyword("foretell", "foretell"), keyword("plot", "plot"),
            mk("could-cast", "a card can be suspended only when it could be cast now: its own timing, and not "
               "while a spell with split second is on the stack", could_cast),
            mk("during-your-turn", "a card can be foretold only during your own turn", own_turn),
            mk("plot-timing", "a card can be plotted only in your own main phase with an empty stack", own_main_empty),
            Check("foretold", self.cite("check.exiled-card"), "that player has no such foretold card in exile",
                  exiled_as("foretold")),
            Check("plotted", self.cite("check.exiled-card"), "that player has no such plotted card in exile",
                  exiled_as("plotted")),
            mk("later-turn", "a foretold or plotted card can be cast only after the turn it was exiled in has ended",
               later_turn),
            mk("plotted-timing", "a plotted card is cast only in your own main phase with an empty stack, "
               "whatever its type", own_main_empty),
            mk("defender", "the defending player is one of the attacking player's opponents still in the game",
               lambda s, p: p["defender"] in s.opponents),
            mk("split-second", "a spell with split second is on the stack: no spells, no abilities but mana "
               "abilities (special actions are still allowed)", no_split_second),
            mk("in-hand", "the card is not in that player's hand", in_hand),
            mk("not-a-land", "a land is played, not cast", lambda s, p: "land" not in card(p).types),
            mk("sorcery-timing", "a noninstant spell only in your main phase with an empty stack", sorcery_timing),
            mk("targets", "the spell needs a legal target", targets),
            mk("land", "only a land card can be played as a land", lambda s, p: "land" in card(p).types),
            mk("land-timing", "a land only in a main phase with an empty stack", land_timing),
            mk("own-turn", "a land only during your own turn", own_turn),
            mk("one-land", "one land per turn: that player has already played a land this turn", one_land),
            mk("ability-source", "no permanent (or card in the graveyard) of that player has that ability",
               lambda s, p: self.find_ability(s, p) is not None),
            mk("ability-timing", "the ability's own timing restriction forbids activating it now", ability_timing),
            mk("ability-condition", "the ability's condition is not met", ability_condition),
            Check("ability-target", self.cite("check.targets"), "the ability needs a legal target", ability_target),
            mk("untapped", "a tapped permanent can't be tapped to pay a cost", untapped),
            mk("summoning-sickness", "a creature's {T} ability needs it under your control since your turn began",
               not_sick),
            Check("mana-sick", self.cite("check.summoning-sickness"),
                  "a creature's {T} ability needs it under your control since your turn began", mana_sick),
            mk("mana-source", "no untapped permanent of that player with a mana ability by that name", mana_source),
            mk("mana-timing", "a mana ability only with priority, or while a mana payment is asked of you",
               mana_timing),
            mk("face-down", "only a face-down permanent of yours with morph can be turned face up", face_down),
            mk("paying", "that player is not paying a cost now", paying),
            Check("paying-unless", self.cite("check.paying"), "no payment is asked of that player now",
                  paying_unless),
            mk("can-pay", "not enough mana in the pool to pay the cost", can_pay),
            mk("asked", "no choice is asked of that player now (no one has priority while a spell resolves)",
               asked),
            mk("choice", "not a valid choice for this instruction", choice_ok),
            mk("attackers", "only your untapped creatures that have been yours since the turn began can attack",
               attackers_ok),
            mk("blockers", "only your untapped creatures can block, and only attacking creatures", blockers_ok),
            mk("declarer", "that player does not declare now", declarer),
        ]

    # -- transitions -------------------------------------------------------------------------
    def _transitions(self) -> list[Transition]:
        c = self.checks

        def T(name: str, kind: str, summary: str, text: str = "", pre: tuple[str, ...] = (),
              bindings: Any = None, effect: Any = None) -> Transition:
            return Transition(name, kind, self.cite(name), summary, text,  # type: ignore[arg-type]
                              tuple(c[x] for x in pre), bindings, effect)

        step = "step"
        return [
            # decisions with priority
            T("cast", "decision", "cast a spell", "{player} casts {card}{on}",
              ("has-priority", "split-second", "in-hand", "not-a-land", "sorcery-timing", "targets"),
              self._cast_bindings, self._cast),
            T("activate", "decision", "activate an ability", "{player} activates {ability}{on}",
              ("has-priority", "split-second", "ability-source", "ability-timing", "ability-condition",
               "ability-target", "untapped", "summoning-sickness"), self._activate_bindings, self._activate),
            T("activate-mana", "decision", "activate a mana ability", "{player} activates {source}'s mana ability",
              ("mana-source", "mana-sick", "mana-timing"), self._mana_bindings, self._activate_mana),
            T("play-land", "decision", "play a land (special action)", "{player} plays {card}",
              ("has-priority", "in-hand", "land", "own-turn", "land-timing", "one-land"),
              self._land_bindings, self._play_land),
            T("turn-face-up", "decision", "turn a face-down creature face up (special action)",
              "{player} turns {permanent} face up", ("has-priority", "face-down"),
              self._face_up_bindings, self._turn_face_up),
            T("suspend", "decision", "suspend a card: exile it with time counters (special action)",
              "{player} suspends {card}", ("has-priority", "in-hand", "has-suspend", "could-cast"),
              self._exiling_bindings("suspend"), self._exile_from_hand("suspend")),
            T("foretell", "decision", "foretell a card: pay {2} and exile it face down (special action)",
              "{player} foretells {card}", ("has-priority", "in-this-edition", "in-hand", "has-foretell",
                                            "during-your-turn"),
              self._exiling_bindings("foretell"), self._exile_from_hand("foretell")),
            T("plot", "decision", "plot a card: exile it to cast it free on a later turn (special action)",
              "{player} plots {card}", ("has-priority", "in-this-edition", "in-hand", "has-plot", "plot-timing"),
              self._exiling_bindings("plot"), self._exile_from_hand("plot")),
            T("cast-foretold", "decision", "cast a foretold card for its foretell cost",
              "{player} casts the foretold {card}{on}",
              ("has-priority", "split-second", "foretold", "later-turn", "sorcery-timing", "targets"),
              self._exiled_cast_bindings("foretold"), self._cast_exiled),
            T("cast-plotted", "decision", "cast a plotted card without paying its mana cost",
              "{player} casts the plotted {card}{on}",
              ("has-priority", "split-second", "plotted", "later-turn", "plotted-timing", "targets"),
              self._exiled_cast_bindings("plotted"), self._cast_exiled),
            T("pass", "decision", "pass priority", "{player} passes", ("has-priority",),
              self._pass_bindings, self._pass),
            # decisions without priority
            T("pay", "decision", "pay the cost", "{player} pays {amount} for {what}", ("paying", "can-pay"),
              self._payer_bindings, self._pay),
            T("retract", "decision", "reverse an action that cannot be completed",
              "{player} reverses {what}", ("paying",), self._payer_bindings, self._retract),
            T("choose-defender", "decision", "choose the defending player (a multiplayer game)",
              "{player} chooses {defender} as the defending player", ("declarer", "defender"),
              self._defender_bindings, self._choose_defender),
            T("declare-attackers", "decision", "declare attackers", "{player} attacks with {attackers_text}",
              ("declarer", "attackers"), self._attack_bindings, self._declare_attackers),
            T("declare-blockers", "decision", "declare blockers", "{player} blocks: {blocks_text}",
              ("declarer", "blockers"), self._block_bindings, self._declare_blockers),
            T("choose", "decision", "make a choice while a spell resolves", "{player} chooses {choice}",
              ("asked", "choice"), self._choose_bindings, self._choose),
            T("pay-unless", "decision", "pay what a resolving spell asks", "{player} pays {amount} for {what}",
              ("paying-unless", "can-pay"), self._unless_bindings, self._pay_unless),
            T("decline-payment", "decision", "decline to pay what a resolving spell asks",
              "{player} does not pay for {what}", ("paying-unless",), self._unless_bindings, self._decline),
            # steps inside decisions
            T("in-response", step, "cast or activated in response", "{item} goes on the stack above {below}"),
            T("cost-to-pay", step, "a mana payment: mana abilities may be activated now",
              "{player} has {amount} to pay for {what}"),
            T("becomes-cast", step, "the spell becomes cast", "{item} becomes cast"),
            T("becomes-activated", step, "the ability becomes activated", "{item} becomes activated"),
            T("special-action", step, "a special action does not use the stack", "{what} does not use the stack"),
            T("mana-added", step, "mana is added at once (no stack)", "{player} adds {n} mana"),
            T("exiled-special", step, "the card is exiled by a special action: no stack, and priority comes back",
              "{card} is exiled ({how}): it does not use the stack"),
            T("next-player-priority", step, "the next player in turn order receives priority",
              "{player} receives priority"),
            T("all-passed", step, "all players passed in succession", "all players passed in succession"),
            T("attack-tapped", step, "attacking creatures become tapped", "{permanent} becomes tapped"),
            T("no-attackers", step, "no attackers: the declare blockers and combat damage steps are skipped",
              "no creatures attack"),
            T("apnap-choices", step, "players choose in APNAP order, then act simultaneously",
              "{players} choose in turn order from the active player"),
            # the turn
            T("begin-step", "automatic", "a step begins", "the {step_name} begins", (),
              self._begin_bindings, self._begin_step),
            T("untap", step, "the active player untaps their permanents", "{player} untaps {permanents}"),
            T("no-priority-in-untap", step, "no player receives priority in the untap step",
              "no player receives priority"),
            T("untap-step-ends", "automatic", "the untap step ends (no priority)", "the untap step ends", (),
              self._untap_end_bindings, self._advance_step),
            T("upkeep", step, "the upkeep step: the active player will receive priority", "upkeep"),
            T("draw-for-turn", step, "the active player draws for the turn", "{player} draws for the turn"),
            T("draw-step-priority", step, "then the active player receives priority", "draw step priority"),
            T("skip-first-draw", step, "the starting player of a two-player game skips the draw step of the first turn",
              "{player} skips the draw step of the first turn"),
            T("main-phase", step, "the main phase: the active player will receive priority", "main phase"),
            T("beginning-of-combat", step, "beginning of combat: the active player will receive priority",
              "beginning of combat"),
            T("defender-to-choose", step, "first the attacking player chooses one opponent as the defending player",
              "{player} chooses which opponent is the defending player ({opponents})"),
            T("declare-attackers-step", step, "the active player declares attackers",
              "{player} declares attackers"),
            T("declare-blockers-step", step, "the defending player declares blockers",
              "{player} declares blockers"),
            T("combat-damage-step", step, "combat damage is dealt simultaneously", "combat damage"),
            T("stays-blocked", step, "a blocked creature whose blockers are gone stays blocked and deals no "
              "combat damage", "{permanent} is still blocked, by no creature: it deals no combat damage"),
            T("blocks-nothing", step, "a blocking creature whose attacker is gone deals no combat damage",
              "{permanent} blocks no creature now: it deals no combat damage"),
            T("trample", step, "trample: damage beyond lethal to the blockers goes to the player",
              "{permanent} has trample: {amount} damage to {player}"),
            T("end-of-combat", step, "end of combat: the active player will receive priority", "end of combat"),
            T("end-step", step, "the end step: the active player will receive priority", "end step"),
            T("cleanup-step", step, "cleanup: discard to hand size, remove damage, end \"this turn\" effects",
              "cleanup"),
            T("cleanup-priority", step, "something to handle in the cleanup step: players receive priority",
              "the cleanup step gives priority"),
            T("beginning-triggers", step, "\"at the beginning of\" abilities trigger", "{item} triggers"),
            T("step-ends", "automatic", "all players passed with an empty stack: the step ends",
              "the {step_name} ends", (), self._step_end_bindings, self._step_ends),
            T("another-cleanup", step, "another cleanup step follows", "another cleanup step begins"),
            T("turn-ends", "automatic", "the turn ends; the next turn begins", "{player}'s turn begins", (),
              self._turn_end_bindings, self._turn_ends),
            # before priority
            T("state-based-actions", "automatic", "state-based actions are performed",
              "state-based actions: {what}", (), self._sba_bindings, self._perform_sba),
            T("loses-game", step, "a player with 0 or less life loses", "{player} loses the game"),
            T("leaves-game", step, "a player who lost leaves the game, with everything they own; the game goes on",
              "{player} leaves the game with {objects}; the game goes on without them"),
            T("left-player-skipped", step, "the active player has left: the next player receives priority instead",
              "{player} has left the game: {next} receives priority instead"),
            T("left-player-turn", step, "a player who has left the game takes no turn",
              "{player} has left the game: their turn doesn't begin, {next}'s does"),
            T("no-defender", step, "the defending player has left the game: no blockers, the attackers are unblocked",
              "{player} has left the game: no creature blocks"),
            T("left-player-damage", step, "combat damage is not assigned to a player who has left the game",
              "{player} has left the game: {permanent}'s combat damage is not assigned"),
            T("zero-toughness", step, "a creature with toughness 0 or less is put into the graveyard",
              "{permanent} is put into the graveyard"),
            T("lethal-damage", step, "a creature with lethal damage is destroyed", "{permanent} is destroyed"),
            T("legend-rule", step, "the legend rule", "legend rule: {gone} put into the graveyard"),
            T("put-triggers-on-stack", "automatic", "waiting triggered abilities go on the stack (APNAP)",
              "triggered abilities go on the stack: {order}", (), self._triggers_bindings, self._put_triggers),
            T("receive-priority-step", "automatic", "the active player receives priority in this step",
              "{player} receives priority", (), self._receive_bindings("step"), self._receive),
            T("receive-priority-resolved", "automatic", "the active player receives priority after resolution",
              "{player} receives priority", (), self._receive_bindings("resolved"), self._receive),
            T("receive-priority-action", "automatic", "the player who cast or activated receives priority again",
              "{player} receives priority", (), self._receive_bindings("action"), self._receive),
            T("receive-priority-special", "automatic", "the player who took a special action receives priority",
              "{player} receives priority", (), self._receive_bindings("special"), self._receive),
            # resolving
            T("resolve", "automatic", "the top of the stack resolves", "{item} resolves", (),
              self._resolve_bindings, self._resolve),
            T("target-illegal", step, "its target is illegal: it doesn't resolve",
              "{item}'s target {target} is illegal: it doesn't resolve"),
            T("follow-instructions", step, "its instructions are followed in order", "{item}: {instruction}"),
            T("condition-false", step, "an intervening \"if\" is false on resolution: it does nothing",
              "{item}'s condition is false: it does nothing"),
            T("permanent-enters", step, "a permanent spell enters the battlefield", "{item} enters the battlefield"),
            T("finish-resolution", step, "the spell goes to the graveyard (an ability ceases to exist)",
              "{item} leaves the stack"),
            T("payment-asked", step, "a payment is asked: its payer may activate mana abilities",
              "{player} is asked to pay {amount}"),
            T("nothing-to-choose", step, "nothing to choose: that part does nothing", "{player} has nothing to {what}"),
            # instructions and events
            T("triggers", step, "an ability triggers (it waits until a player would receive priority)",
              "{item} triggers"),
            T("cast-triggers", step, "a \"when you cast\" ability triggers", "{item} triggers"),
            T("untap-triggers-wait", step, "abilities that trigger in the untap step wait for the upkeep",
              "{item} triggers and waits"),
            T("dies-triggers", step, "a leaves-the-battlefield ability triggers (looking back in time)",
              "{item} triggers"),
            T("damage", step, "damage is dealt", "{source} deals {amount} damage to {to}"),
            T("counter", step, "a spell or ability is countered", "{item} is countered"),
            T("draw", step, "draw cards", "{player} draws {n}"),
            T("lose-life", step, "lose life", "{player} loses {n} life"),
            T("discard", step, "discard", "{player} discards {card}"),
            T("sacrifice", step, "sacrifice", "{player} sacrifices {permanent}"),
            T("destroy", step, "destroy", "{permanent} is destroyed"),
            T("tap", step, "tap a permanent", "{permanent} becomes tapped"),
            T("extra-turn", step, "an extra turn is added after this one", "{player} will take an extra turn"),
            T("return-to-battlefield", step, "a card returns to the battlefield", "{card} returns to the battlefield"),
            T("boost", step, "+N/+N until end of turn", "{permanent} gets +{n}/+{n} until end of turn"),
            T("static-applies", step, "a static ability applies at once: no stack, no trigger, no priority",
              "{source}'s static ability applies at once, without the stack: {effect}"),
            T("static-ends", step, "a static ability stops applying when its permanent leaves the battlefield",
              "{source} left the battlefield: \"{effect}\" no longer applies"),
            T("shuffle-graveyard", step, "a graveyard is shuffled into its library",
              "{player} shuffles their graveyard into their library"),
            T("mana-empties", step, "unspent mana empties", "unspent mana empties"),
            T("suspend-upkeep", step, "a suspended card's ability triggers at the beginning of its owner's upkeep",
              "{item} triggers"),
            T("time-counter", step, "a time counter is removed from a suspended card",
              "a time counter is removed from {card}: {n} left"),
            T("last-time-counter", step, "the last time counter is removed: the card's suspend ability triggers",
              "{item} triggers"),
            T("cast-suspended", step, "the card is cast from exile without paying its mana cost, while its "
              "ability resolves", "{player} casts {card}{on} without paying its mana cost"),
            T("stays-exiled", step, "the suspended card cannot be cast (no legal target): it remains exiled",
              "{card} cannot be cast: it remains exiled"),
        ]

    def _invariants(self) -> tuple[Invariant, ...]:
        def one_priority(n: TraceNode) -> bool:
            p = n.after.priority
            return p is None or (isinstance(p, str) and p in n.after.players)

        def not_resolving(n: TraceNode) -> bool:
            return n.after.resolving is None or n.after.priority is None

        def not_untap(n: TraceNode) -> bool:
            return n.after.step != "untap" or n.after.priority is None

        def top_first(n: TraceNode) -> bool:
            if n.name != "resolve":
                return True
            return bool(n.before.stack) and n.before.stack[-1].id == n.params["id"]

        def sorcery_timing(n: TraceNode) -> bool:
            if n.name != "cast":
                return True
            card = self.cards[n.params["card"]]
            b = n.before
            return card.instant_speed or (not b.stack and b.step in MAIN and n.params["player"] == b.active)

        def before_priority(n: TraceNode) -> bool:
            if not n.name.startswith("receive-priority"):
                return True
            return self.priority_ready(n.before) and n.after.priority is not None

        def inv(name: str, summary: str, holds: Any) -> Invariant:
            return Invariant(name, self.cite("invariant." + name), summary, holds)

        return (
            inv("one-priority", "at most one player holds priority", one_priority),
            inv("no-priority-resolving", "no player has priority while a spell or ability resolves",
                not_resolving),
            inv("no-priority-untap", "no player has priority in the untap step", not_untap),
            inv("top-resolves-first", "the top of the stack resolves first", top_first),
            inv("sorcery-timing", "a sorcery-speed spell is cast only in its controller's main phase "
                "with an empty stack", sorcery_timing),
            inv("before-priority", "state-based actions and waiting triggers are handled before anyone "
                "receives priority", before_priority),
        )

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
                           "on": _on(target, ident, ambiguous)}

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
                           "target_id": ident, "on": _on(target, ident, ambiguous)}

    def _mana_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        for u in s.board:
            if self.mana_ability(u) is not None:
                yield {"player": u.controller, "source": u.name}

    def _land_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.busy:
            return
        for player in s.remaining:
            hand = s.hand(player)
            for name in dict.fromkeys(hand if hand is not None else tuple(self.cards)):
                card = self.cards.get(name)
                if card is not None and "land" in card.types:
                    yield {"player": player, "card": name}

    def _face_up_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if s.busy:
            return
        for u in s.board:
            if u.face_down:
                yield {"player": u.controller, "permanent": u.name}

    def _exiling_bindings(self, action: str) -> Any:
        """Each card with the keyword of ``action`` (suspend, foretell, plot) in a hand."""
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            if s.busy:
                return
            for player in s.remaining:
                hand = s.hand(player)
                for name in dict.fromkeys(hand if hand is not None else tuple(self.cards)):
                    card = self.cards.get(name)
                    if card is not None and getattr(card, action) is not None:
                        yield {"player": player, "card": name}
        return bindings

    def _exiled_cast_bindings(self, how: str) -> Any:
        """Each foretold (or plotted) card in exile, with every target it could have."""
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            for x in s.exile:
                card = self.cards.get(x.card)
                if x.how != how or x.owner in s.lost or card is None:
                    continue
                for target, ident, ambiguous in self.target_choices(s, card.target):
                    yield {"player": x.owner, "card": x.card, "exile_id": x.id, "target": target,
                           "target_id": ident, "on": _on(target, ident, ambiguous)}
        return bindings

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

    def _receive_bindings(self, reason: str) -> Any:
        def bindings(s: State) -> Iterator[dict[str, Any]]:
            if (s.due is not None and s.due_reason == reason and not s.busy and not s.over
                    and self.priority_ready(s)):
                yield {"player": s.next_player(s.due) if s.due in s.lost else s.due}
        return bindings

    def _resolve_bindings(self, s: State) -> Iterator[dict[str, Any]]:
        if (s.stack and not s.busy and s.priority is None and s.due is None
                and s.passes >= self._in_game(s) and not s.over):
            top = s.stack[-1]
            yield {"item": top.name, "id": top.id, "player": top.controller}

    # -- helpers ----------------------------------------------------------------------------------
    def _apnap_order(self, s: State, objs: Iterable[Obj]) -> list[Obj]:
        objs = list(objs)
        return [o for p in s.apnap for o in objs if o.controller == p]

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
        s = replace(s, board=tuple(u for u in s.board if u.name not in names),
                    graveyard=s.graveyard + tuple((u.controller, u.card) for u in gone))
        for u in gone:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                t.note("static-ends", s, {"source": u.name, "ability": card.static.name,
                                          "effect": card.static.text})
        for u in gone:
            for tr in self.triggers_of(u, "dies"):
                s = self._trigger(s, t, "dies-triggers", u.controller, tr, u.card)
        return s

    def _static_applies(self, s: State, t: Trace, u: Permanent | None) -> State:
        """A permanent with a static ability is now on the battlefield: the ability applies at
        once, with nothing put on the stack and nobody receiving priority for it (117.2b, 611.3c)."""
        card = self.card_of(u) if u is not None else None
        if u is not None and card is not None and card.static is not None:
            affected = [x.name for x in s.board if self.affects(u, card.static, x)]
            t.note("static-applies", s, {"source": u.name, "ability": card.static.name, "effect": card.static.text,
                                         "affected": ", ".join(affected) or "nothing yet"})
        return s

    def _damage(self, s: State, t: Trace, source: str, to: str, amount: int) -> State:
        if amount <= 0:
            return s
        u = s.permanent(to)
        if u is not None:
            s = replace(s, board=tuple(replace(x, damage=x.damage + amount) if x.name == to else x
                                       for x in s.board))
            t.note("damage", s, {"source": source, "to": to, "amount": amount})
            for tr in self.triggers_of(u, "dealt-damage"):
                s = self._trigger(s, t, "triggers", u.controller, tr, u.name, amount=amount, source_id=u.id)
            return s
        if to in s.players:
            s = replace(s, life=_counts(s.life if s.life else tuple((p, 20) for p in s.players), to, -amount))
            t.note("damage", s, {"source": source, "to": to, "amount": amount})
        return s

    # -- decision effects ---------------------------------------------------------------------------
    def _put_on_stack(self, s: State, t: Trace, obj: Obj) -> State:
        if s.stack:
            t.note("in-response", s, {"item": obj.name, "below": s.stack[-1].name})
        return replace(s, stack=s.stack + (obj,), priority=None, passes=0)

    def _cast(self, s: State, p: Params, t: Trace) -> State:
        card = self.cards[p["card"]]
        s = _without_card(s, p["player"], card.name)
        tid = self.resolve_target(s, card.target, p.get("target"), p.get("target_id"))
        s, obj = self._new_obj(s, name=card.name, controller=p["player"], kind="spell", card=card.name,
                               effects=card.effects, target=p.get("target"), target_id=tid)
        s = self._put_on_stack(s, t, obj)
        return self._cost(s, t, p["player"], card.cost, "cast", card.name, obj.id)

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
        elif purpose in EXILING:
            return self._due(self._exile_card(s, t, player, what, EXILING[purpose]), player, "special")
        elif purpose == "activate":
            t.note("becomes-activated", s, {"item": what})
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

    def _cast_triggers(self, s: State, t: Trace, player: str, name: str | None) -> State:
        card = self.cards.get(name or "")
        for tr in card.triggers if card else ():
            if tr.on == "cast":
                s = self._trigger(s, t, "cast-triggers", player, tr, card.name)  # type: ignore[union-attr]
        return s

    def _exile_from_hand(self, action: str) -> Any:
        """Suspend, foretell or plot: pay the cost (suspend's own, {2}, the plot cost), then the card
        is exiled; none of it uses the stack (116.1)."""
        def effect(s: State, p: Params, t: Trace) -> State:
            card = self.cards[p["card"]]
            cost = {"suspend": card.suspend[1] if card.suspend else 0, "foretell": 2, "plot": card.plot or 0}[action]
            return self._cost(replace(s, priority=None, passes=0), t, p["player"], cost, action, card.name, None)
        return effect

    def _exile_card(self, s: State, t: Trace, player: str, name: str, how: str) -> State:
        card = self.cards[name]
        counters = card.suspend[0] if how == "suspended" and card.suspend else 0
        s = _without_card(s, player, name)
        s = replace(s, exile=s.exile + (Exiled(s.next_id, player, name, how, counters, s.turn),), next_id=s.next_id + 1)
        detail = {"suspended": f"suspended with {counters} time counter{'s' if counters != 1 else ''}",
                  "foretold": "foretold, face down", "plotted": "plotted"}[how]
        t.note("exiled-special", s, {"card": name, "how": detail, "player": player})
        return s

    def _cast_exiled(self, s: State, p: Params, t: Trace) -> State:
        """Cast a foretold card for its foretell cost, or a plotted one for nothing."""
        x = s.exiled(p["exile_id"])
        assert x is not None
        card = self.cards[x.card]
        tid = self.resolve_target(s, card.target, p.get("target"), p.get("target_id"))
        s, obj = self._new_obj(s, name=card.name, controller=p["player"], kind="spell", card=card.name,
                               effects=card.effects, target=p.get("target"), target_id=tid)
        s = self._put_on_stack(s, t, obj)
        cost = (card.foretell or 0) if x.how == "foretold" else 0
        return self._cost(s, t, p["player"], cost, "cast", card.name, obj.id, x.id)

    def _choose_defender(self, s: State, p: Params, t: Trace) -> State:
        return self._due(replace(s, awaiting=None, defending=p["defender"]), s.active, "step")

    def _activate(self, s: State, p: Params, t: Trace) -> State:
        source, ability = self.find_ability(s, p)  # type: ignore[misc]
        if ability.tap:
            s = replace(s, board=tuple(replace(u, tapped=True) if u.name == source else u for u in s.board))
        tid = self.resolve_target(s, ability.target, p.get("target"), p.get("target_id"))
        permanent = s.permanent(source) if ability.zone == "battlefield" else None
        s, obj = self._new_obj(s, name=ability.name, controller=p["player"], kind="ability", source=source,
                               effects=ability.effects, target=p.get("target"), target_id=tid,
                               source_id=permanent.id if permanent else None)
        s = self._put_on_stack(s, t, obj)
        return self._cost(s, t, p["player"], ability.cost, "activate", ability.name, obj.id)

    def _activate_mana(self, s: State, p: Params, t: Trace) -> State:
        u = s.permanent(p["source"])
        assert u is not None
        ability = self.mana_ability(u)
        assert ability is not None
        s = replace(s, board=tuple(replace(x, tapped=True) if x.name == u.name else x for x in s.board))
        s = _set_pool(s, p["player"], s.mana(p["player"]) + ability.mana)
        t.note("mana-added", s, {"player": p["player"], "n": ability.mana})
        return s

    def _play_land(self, s: State, p: Params, t: Trace) -> State:
        card = self.cards[p["card"]]
        s = _without_card(s, p["player"], card.name)
        s, u = self._new_permanent(s, card.name, p["player"])
        s = replace(s, board=s.board + (u,), lands_played=s.lands_played + (p["player"],))
        t.note("special-action", s, {"what": f"playing {card.name}"})
        s = self._static_applies(s, t, u)
        for tr in self.triggers_of(u, "enters"):
            s = self._trigger(s, t, "triggers", u.controller, tr, u.name, source_id=u.id)
        return self._due(s, p["player"], "special")

    def _turn_face_up(self, s: State, p: Params, t: Trace) -> State:
        u = s.permanent(p["permanent"])
        card = self.cards[u.card]  # type: ignore[union-attr]
        s = replace(s, priority=None, passes=0)
        return self._cost(s, t, p["player"], card.morph or 0, "face-up", p["permanent"], None)

    def _pass(self, s: State, p: Params, t: Trace) -> State:
        passes = s.passes + 1
        if passes >= self._in_game(s):
            s = replace(s, passes=passes, priority=None)
            t.note("all-passed", s)
            return s
        nxt = s.next_player(p["player"])
        while nxt in s.lost:
            nxt = s.next_player(nxt)
        s = replace(s, passes=passes, priority=nxt)
        t.note("next-player-priority", s, {"player": nxt})
        return s

    def _pay(self, s: State, p: Params, t: Trace) -> State:
        pay = s.payment
        assert pay is not None
        s = _set_pool(s, pay.player, s.mana(pay.player) - pay.amount)
        s = replace(s, exile=tuple(x for x in s.exile if x.id != pay.exiled))
        return self._complete(s, t, pay.player, pay.purpose, pay.what, pay.item)

    def _retract(self, s: State, p: Params, t: Trace) -> State:
        pay = s.payment
        assert pay is not None
        if pay.item is not None:
            obj = next(o for o in s.stack if o.id == pay.item)
            s = replace(s, stack=tuple(o for o in s.stack if o.id != pay.item))
            if obj.kind == "spell" and obj.card:
                hand = None if pay.exiled is not None else s.hand(pay.player)  # cast from exile: it stays there
                if hand is not None:
                    s = _set_hand(s, pay.player, hand + (obj.card,))
            elif obj.source:
                source, ability = obj.source, self.find_ability(s, {"player": pay.player, "ability": obj.name,
                                                                    "source": obj.source})
                if ability and ability[1].tap:
                    s = replace(s, board=tuple(replace(u, tapped=False) if u.name == source else u
                                               for u in s.board))
        # The player who had priority keeps it (the mana they made stays in their pool).
        return replace(s, payment=None, priority=pay.player, passes=0)

    def _declare_attackers(self, s: State, p: Params, t: Trace) -> State:
        attackers = set(p["attackers"])
        s = replace(s, awaiting=None, board=tuple(replace(u, attacking=True, tapped=True) if u.name in attackers
                                                  else u for u in s.board))
        for name in p["attackers"]:
            t.note("attack-tapped", s, {"permanent": name})
        if not attackers:
            t.note("no-attackers", s)
            s = replace(s, no_attackers=True)
        else:
            s = replace(s, defending=s.defender)
        return self._due(s, s.active, "step")

    def _declare_blockers(self, s: State, p: Params, t: Trace) -> State:
        ids = {u.name: u.id for u in s.board}
        blocks = {b: ids[a] for b, a in p["blocks"]}
        blocked = set(blocks.values())
        s = replace(s, awaiting=None, board=tuple(
            replace(u, blocking=blocks[u.name]) if u.name in blocks else
            replace(u, blocked=True) if u.id in blocked else u for u in s.board))
        return self._due(s, s.active, "step")

    def _choose(self, s: State, p: Params, t: Trace) -> State:
        r = s.resolving
        assert r is not None
        r = replace(r, asked=r.asked[1:], chosen=r.chosen + ((p["player"], p["choice"]),))
        s = replace(s, resolving=r)
        if r.asked:
            return s
        return self._continue(s, t, act=True)

    def _pay_unless(self, s: State, p: Params, t: Trace) -> State:
        pay = s.payment
        assert pay is not None and s.resolving is not None
        s = _set_pool(s, pay.player, s.mana(pay.player) - pay.amount)
        r = s.resolving
        s = replace(s, payment=None, resolving=replace(r, index=r.index + 1, asked=(), chosen=()))
        return self._continue(s, t)

    def _decline(self, s: State, p: Params, t: Trace) -> State:
        assert s.resolving is not None and s.payment is not None
        r = s.resolving
        s = replace(s, payment=None)
        s = self._counter(s, t, r.item.target_id)
        s = replace(s, resolving=replace(s.resolving, index=r.index + 1, asked=(), chosen=()))  # type: ignore[arg-type]
        return self._continue(s, t)

    # -- the turn ---------------------------------------------------------------------------------
    def _begin_step(self, s: State, p: Params, t: Trace) -> State:
        s = replace(s, begun=True, passes=0)
        step, ap = s.step, s.active
        if step == "untap":
            tapped = [u for u in s.controls(ap) if u.tapped]
            s = replace(s, board=tuple(replace(u, tapped=False) if u.controller == ap else u for u in s.board))
            t.note("untap", s, {"player": ap, "permanents": ", ".join(u.name for u in tapped) or "nothing"})
            for u in tapped:
                for w in s.controls(ap):
                    for tr in self.triggers_of(w, "untap"):
                        s = self._trigger(s, t, "untap-triggers-wait", ap, tr, w.name, source_id=w.id)
            t.note("no-priority-in-untap", s)
            return s
        if step == "draw":
            s = self._draw(s, t, ap, 1, "draw-for-turn")
        s = self._beginning_triggers(s, t, step)
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
                return self._due(replace(s, no_attackers=True), ap, "step")
            t.note("declare-attackers-step", s, {"player": ap})
            return replace(s, awaiting="declare-attackers")
        elif step == "declare-blockers":
            if s.defender in s.lost:  # nobody is left to block: the attackers stay unblocked
                t.note("no-defender", s, {"player": s.defender})
                return self._due(s, ap, "step")
            t.note("declare-blockers-step", s, {"player": s.defender})
            return replace(s, awaiting="declare-blockers")
        elif step == "combat-damage":
            s = self._combat_damage(s, t)
            t.note("combat-damage-step", s)
        elif step == "end-of-combat":
            t.note("end-of-combat", s)
        elif step == "end":
            t.note("end-step", s)
        elif step == "cleanup":
            s = self._cleanup(s, t)
            if s.waiting or self.sba(s):
                t.note("cleanup-priority", s)
                return self._due(s, ap, "step")
            return s
        return self._due(s, ap, "step")

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
            s = _set_hand(s, player, hand + tuple("a card" for _ in range(n)))
        s = replace(s, drawn=_counts(s.drawn, player, n))
        t.note(step, s, {"player": player, "n": n})
        return s

    def _combat_damage(self, s: State, t: Trace) -> State:
        attackers = [u for u in s.board if u.attacking]
        dealt: list[tuple[str, str, int]] = []
        for a in attackers:
            blockers = [u for u in s.board if u.blocking == a.id]
            power = self.power(s, a)
            card = self.card_of(a)
            trample = card is not None and card.trample
            if not a.blocked:
                dealt.append((a.name, s.defender, power))
            elif not blockers and not trample:
                t.note("stays-blocked", s, {"permanent": a.name})
            else:
                left = power
                for i, b in enumerate(blockers):
                    lethal = max(0, self.toughness(s, b) - b.damage)
                    give = left if i == len(blockers) - 1 and not trample else min(left, lethal)
                    dealt.append((a.name, b.name, give))
                    left -= give
                if trample and left > 0:
                    t.note("trample", s, {"permanent": a.name, "amount": left, "player": s.defender})
                    dealt.append((a.name, s.defender, left))
            for b in blockers:
                dealt.append((b.name, a.name, self.power(s, b)))
        for b in s.board:
            if b.blocking is not None and not any(a.id == b.blocking for a in attackers):
                t.note("blocks-nothing", s, {"permanent": b.name})
        for source, to, amount in dealt:
            if to in s.lost:
                t.note("left-player-damage", s, {"player": to, "permanent": source})
                continue
            s = self._damage(s, t, source, to, amount)
        return s

    def _cleanup(self, s: State, t: Trace) -> State:
        hand = s.hand(s.active)
        if hand is not None and len(hand) > MAX_HAND:
            extra = hand[MAX_HAND:]
            s = _set_hand(s, s.active, hand[:MAX_HAND])
            s = replace(s, graveyard=s.graveyard + tuple((s.active, c) for c in extra if c != "a card"))
        s = replace(s, board=tuple(replace(u, damage=0, boost=0) for u in s.board))
        t.note("cleanup-step", s)
        return s

    def _advance_step(self, s: State, p: Params, t: Trace) -> State:
        s = self._empty_pools(s, t)
        i = STEPS.index(s.step)
        nxt = STEPS[i + 1] if i + 1 < len(STEPS) else "cleanup"
        if s.step == "declare-attackers" and s.no_attackers:
            nxt = "end-of-combat"  # 508.8
        if nxt == "draw" and self.first_draw_skipped(s):
            t.note("skip-first-draw", s, {"player": s.active})
            nxt = "main1"  # skipped: it happens as though it didn't exist (500.11)
        board = s.board
        if s.step == "end-of-combat":
            board = tuple(replace(u, attacking=False, blocking=None, blocked=False) for u in board)
        defending = None if s.step == "end-of-combat" else s.defending
        return replace(s, step=nxt, begun=False, passes=0, board=board, defending=defending,
                       no_attackers=s.no_attackers and nxt != "main2")

    def _empty_pools(self, s: State, t: Trace) -> State:
        if s.pool:
            s = replace(s, pool=())
            t.note("mana-empties", s)
        return s

    def _step_ends(self, s: State, p: Params, t: Trace) -> State:
        if s.step == "cleanup":
            s = self._empty_pools(s, t)
            t.note("another-cleanup", s)
            return replace(s, begun=False, passes=0)
        return self._advance_step(s, p, t)

    def _turn_ends(self, s: State, p: Params, t: Trace) -> State:
        s = self._empty_pools(s, t)
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

    # -- before priority -----------------------------------------------------------------------------
    def _perform_sba(self, s: State, p: Params, t: Trace) -> State:
        found = self.sba(s)
        dying: list[str] = []
        losers: list[str] = []
        for name, params in found:
            if name == "loses-game":
                s = replace(s, lost=s.lost + (params["player"],))
                losers.append(params["player"])
                t.note(name, s, params)
            elif name == "legend-rule":
                dying += [n for n in params["permanents"] if n not in dying]
                t.note(name, s, {**params, "gone": ", ".join(params["permanents"])})
            else:
                if params["permanent"] not in dying:
                    dying.append(params["permanent"])
                t.note(name, s, params)
        s = self._to_graveyard(s, t, dying)  # all at once: a single event (704.3)
        if not s.over:  # a multiplayer game goes on without them (800.4)
            for player in losers:
                s = self._leave(s, t, player)
        return s

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
        s = _set_hand(s, player, ())
        t.note("leaves-game", s, {"player": player,
                                  "objects": ", ".join(u.name for u in gone) or "no permanents"})
        for u in gone:
            card = self.card_of(u)
            if card is not None and card.static is not None:
                t.note("static-ends", s, {"source": u.name, "ability": card.static.name, "effect": card.static.text})
        return s

    def _put_triggers(self, s: State, p: Params, t: Trace) -> State:
        order = self._apnap_order(s, s.waiting)
        return replace(s, stack=s.stack + tuple(order), waiting=())

    def _receive(self, s: State, p: Params, t: Trace) -> State:
        if s.due in s.lost:  # the active player left: the next player in turn order instead (800.4j)
            t.note("left-player-skipped", s, {"player": s.due, "next": p["player"]})
        return replace(s, priority=p["player"], due=None, due_reason="", passes=0)

    # -- resolving -------------------------------------------------------------------------------------
    def _resolve(self, s: State, p: Params, t: Trace) -> State:
        top = s.stack[-1]
        s = replace(s, passes=0)
        kind = self._target_kind(top)
        if kind is not None and not self.target_ok(s, kind, top.target, top.id, top.target_id):
            t.note("target-illegal", s, {"item": top.name, "target": top.target})
            return self._finish(s, t, top, resolved=False)
        card = self.cards.get(top.card) if top.card and top.kind == "spell" else None
        if card is not None and card.permanent:
            s, u = self._new_permanent(s, card.name, top.controller, sick=True)
            s = replace(s, stack=s.stack[:-1], board=s.board + (u,))
            t.note("permanent-enters", s, {"item": u.name, "spell": top.name})
            s = self._static_applies(s, t, u)
            for tr in self.triggers_of(u, "enters"):
                s = self._trigger(s, t, "triggers", u.controller, tr, u.name, source_id=u.id)
            return self._due(s, s.active, "resolved")
        if top.condition == "untapped":
            src = s.object(top.source_id) if top.source_id is not None else s.permanent(top.source)
            if src is None or src.tapped:  # the intervening "if" is checked again (603.4)
                t.note("condition-false", s, {"item": top.name})
                return self._finish(s, t, top, resolved=False)
        s = replace(s, resolving=Resolving(top))
        t.note("follow-instructions", s, {"item": top.name,
                                          "instruction": ", ".join(e[0] for e in top.effects) or "nothing"})
        return self._continue(s, t)

    def _target_kind(self, obj: Obj) -> str | None:
        if obj.kind == "spell" and obj.card in self.cards:
            return self.cards[obj.card].target
        if obj.kind == "ability":
            for card in self.cards.values():
                for a in card.abilities:
                    if a.name == obj.name and a.target:
                        return a.target
        return None

    def _finish(self, s: State, t: Trace, obj: Obj, resolved: bool = True) -> State:
        s = replace(s, stack=tuple(o for o in s.stack if o.id != obj.id), resolving=None)
        if obj.kind == "spell" and obj.card:
            s = replace(s, graveyard=s.graveyard + ((obj.controller, obj.card),))
        t.note("finish-resolution", s, {"item": obj.name, "resolved": resolved})
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
                    if self._choices(s, r, player):
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
                s = _without_card(s, player, card)
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
            if to == "target":  # the targeted object under its name now (turned face up, it is renamed)
                u = s.object(item.target_id)
                dest = u.name if u is not None else item.target if item.target_id is None else None
            else:
                dest = item.controller if to == "you" else to
            return self._damage(s, t, item.source or item.name, dest, n) if dest else s
        if kind == "counter":
            return self._counter(s, t, item.target_id)
        if kind == "draw":
            for player in self._who(s, item, e[1]):
                s = self._draw(s, t, player, e[2])
            return s
        if kind == "lose-life":
            for player in self._who(s, item, e[1]):
                s = replace(s, life=_counts(s.life or tuple((p, 20) for p in s.players), player, -e[2]))
                t.note("lose-life", s, {"player": player, "n": e[2]})
            return s
        if kind == "destroy":
            u = s.object(item.target_id)
            if u is not None:
                t.note("destroy", s, {"permanent": u.name})
                return self._to_graveyard(s, t, [u.name])
            return s
        if kind == "tap":
            u = s.object(item.target_id)
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
        if kind == "boost":  # the source itself: not a new object with its name (400.7)
            src = s.object(item.source_id) if item.source_id is not None else s.permanent(item.source)
            if src is not None:
                s = replace(s, board=tuple(replace(u, boost=u.boost + e[1]) if u.id == src.id else u
                                           for u in s.board))
                t.note("boost", s, {"permanent": src.name, "n": e[1]})
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
        t.note("cast-suspended", s, {"player": x.owner, "card": card.name, "on": _on(target, ident, ambiguous)})
        return self._cast_triggers(s, t, x.owner, card.name)

    # -- validity ----------------------------------------------------------------------------------------
    def validate(self, s: State) -> list[Violation]:
        out: list[Violation] = []

        def bad(key: str, message: str, field: str) -> None:
            out.append(Violation(message, self.cite("state." + key), field))

        n = self._in_game(s)
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
        if s.remaining:
            return (f"{left}; {s.remaining[0]} wins, every opponent having left the game.",
                    self.cite("game-over"))
        return f"{left} at once: the game is a draw.", self.cite("game-over")

    def decider(self, s: State) -> str | None:
        if s.priority is not None:
            return s.priority
        if s.payment is not None:
            return s.payment.player
        if s.resolving is not None and s.resolving.asked:
            return s.resolving.asked[0]
        if s.awaiting in ("declare-attackers", "choose-defender"):
            return s.active
        if s.awaiting == "declare-blockers":
            return s.defender
        return None

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


__all__ = ["CITATIONS", "CITATIONS_BY_EDITION", "CITATION_EDITION", "EDITIONS", "NUMBERS_2010", "Magic",
           "State", "Obj", "Card", "Static", "Trigger", "Ability", "Permanent", "Payment", "Resolving", "STEPS"]
