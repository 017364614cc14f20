"""The Magic model's one table of citations (2026-01-16 numbering), its numbers in the
2010-10-01 release, and what each state check refuses: data, no code but the carrying; and
the registry the package's checks and transitions are declared with (built per model in its
edition's numbering)."""

from __future__ import annotations

from collections.abc import Mapping

from kb.timing.engine import Rules
from kb.timing.models.base import Registry


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
    "choose-defender": ("507.1", "506.2a", "506.2", "101.4"),
    "declare-attackers": ("508.1", "508.1a", "508.1f", "506.2", "117.2c"),
    "declare-blockers": ("509.1", "509.1a", "509.1g", "509.1h", "117.2c"),
    "choose": ("117.2e", "608.2c", "101.4"),
    # a blocked creature's combat damage among several blockers: in 2026 the attacking player
    # divides it as they choose when it is assigned (510.1c); the 2010 rules had them announce a
    # damage assignment order as blockers were declared (2010's 509.2, see ONLY_2010), none in 2026
    # each player's simultaneous triggered abilities, in APNAP order: the player chooses their order
    "order-triggers": ("603.3b", "101.4", "603.3"),
    "order-blockers": ("510.1c",),
    "assign-combat-damage": ("510.1c", "510.1"),
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
    "triggers-ordered": ("603.3b",),
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
    "first-strike-damage-step": ("510.4", "702.7b", "702.7a", "510.1", "510.2", "510.3"),
    "second-combat-damage-step": ("510.4", "702.7b", "510.1", "510.2", "510.3"),
    "double-strike-first": ("702.4b", "702.4a", "510.4"),
    "double-strike-second": ("702.4b", "510.4"),
    "vigilance": ("702.20b", "702.20a", "508.1f"),
    "stays-blocked": ("509.1h", "510.1c", "506.4"),
    "damage-order-due": ("510.1c",),
    "assigned-in-order": ("510.1c",),
    "assigned-as-divided": ("510.1c", "510.2"),
    "more-than-lethal": ("510.1c",),
    "blocks-nothing": ("510.1d", "506.4"),
    "trample": ("702.19b",),
    "deathtouch-lethal": ("702.2c", "702.19b"),
    "deathtouch-lethal-in-order": ("702.2c", "510.1c"),
    "lifelink": ("702.15b", "120.3f", "702.15a"),
    "indestructible": ("702.12b", "704.5g", "704.5h"),
    "trample-no-blockers": ("702.19d",),
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
    "concede": ("104.3a", "101.1"),
    "concedes": ("104.3a",),
    "left-player-priority": ("800.4a",),
    "leaves-game": ("800.4", "800.4a", "800.4d"),
    "wins": ("104.2a",),
    "draw-game": ("104.4a",),
    "left-player-skipped": ("800.4j", "800.4a"),
    "left-player-turn": ("800.4k", "800.4a"),
    "no-defender": ("800.4a", "509.1h"),
    "left-player-damage": ("800.4e",),
    "zero-toughness": ("704.5f",),
    "lethal-damage": ("704.5g",),
    "legend-rule": ("704.5j",),
    "zero-toughness-replaced": ("704.5f",),
    "lethal-damage-replaced": ("704.5g",),
    "deathtouch-damage": ("704.5h", "702.2b"),
    "deathtouch-damage-replaced": ("704.5h", "702.2b"),
    "legend-rule-replaced": ("704.5j",),
    "put-triggers-on-stack": ("117.5", "603.3", "603.3b", "117.2a", "101.4"),
    "receive-priority-step": ("117.3a", "117.5"),
    "receive-priority-resolved": ("117.3b", "117.5"),
    "receive-priority-action": ("117.3c", "117.5"),
    "receive-priority-special": ("116.3", "117.3c", "117.5"),
    # -- resolving -------------------------------------------------------------------------------
    "resolve": ("117.4", "608.1", "405.5", "117.2e"),
    "target-illegal": ("608.2b", "400.7"),
    "targets-all-illegal": ("608.2b", "400.7"),
    "some-targets-illegal": ("608.2b", "400.7"),
    "follow-instructions": ("608.2c",),
    "condition-false": ("603.4",),
    "permanent-enters": ("608.3", "608.3a", "302.6"),
    "finish-resolution": ("608.2n", "117.3b"),
    "removed-unresolved": ("608.2b", "117.3b"),
    "removed-condition-false": ("603.4", "117.3b"),
    "payment-asked": ("118.12a", "605.3a", "117.1d"),
    "nothing-to-choose": ("608.2c",),
    # -- instructions and events ------------------------------------------------------------------
    "triggers": ("603.2", "117.2a", "603.2a"),
    "cast-triggers": ("601.2i", "603.2"),
    "ward-triggers": ("702.21a", "603.2", "115.1"),
    "untap-triggers-wait": ("502.4", "603.3"),
    "dies-triggers": ("603.6c", "603.10a"),
    "death-replaced": ("614.1", "614.1a", "614.6", "614.5", "400.7"),
    "replacement-order": ("616.1",),
    "dies-trigger-not-triggered": ("614.6", "700.4", "603.6c"),
    # the result of damage by its recipient: marked on a creature, lost as life by a player
    "damage-to-creature": ("120.3e", "120.3"),
    "damage-to-player": ("120.3a", "120.3"),
    "counter": ("701.6a",),
    "draw": ("121.1", "121.2"),
    "lose-life": ("119.3",),
    "discard": ("701.9a",),
    "sacrifice": ("701.21a",),
    "destroy": ("701.8a",),
    "destroy-replaced": ("701.8a",),
    "destroy-indestructible": ("702.12b", "701.8a"),
    "tap": ("701.26a",),
    "extra-turn": ("500.7",),
    "return-to-battlefield": ("400.7",),
    "boost": ("611.2a", "613.4c", "514.2"),
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
    # 117.2e only where it applies: a spell or ability resolving (check.not-resolving)
    "check.has-priority": ("117.1", "117.3a"),
    "check.not-resolving": ("117.2e",),
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
    "check.untapped": ("118.3",),  # a creature's {T} since its turn began is check.summoning-sickness (302.6)
    "check.summoning-sickness": ("302.6",),
    "check.mana-timing": ("117.1d", "605.3a"),
    "check.mana-while-resolving": ("117.2e", "605.3a"),
    "check.mana-source": ("605.1a",),
    "check.mana-untapped": ("118.3",),
    "check.face-down": ("702.37e", "708.7"),
    "check.paying": ("601.2g", "601.2h"),
    "check.can-pay": ("118.3", "601.2h"),
    "check.asked": ("608.2c",),
    "check.asked-in-turn": ("101.4",),
    "check.choice": ("608.2c", "701.9a", "701.21a"),
    "check.attackers": ("508.1a", "302.6"),
    "check.blockers": ("509.1a",),
    "check.flying": ("702.9b", "702.17b", "509.1b"),
    "check.menace": ("702.111b", "509.1b"),
    "check.with-defender": ("702.3b", "508.1c"),
    "check.declarer": ("508.1", "509.1", "507.1"),
    "check.orders-triggers-now": ("603.3b", "101.4"),
    "check.trigger-order": ("603.3b",),
    "check.damage-order": ("510.1c",),
    "check.blocker-order": ("510.1c",),
    "check.damage-assignment": ("510.1c", "510.1a", "702.19b"),
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
    "check.in-the-game": ("104.3a", "800.4a"),
    # -- invariants -------------------------------------------------------------------------------
    "invariant.one-priority": ("117.3",),
    "invariant.no-priority-resolving": ("117.2e",),
    "invariant.no-priority-untap": ("117.3a", "502.4"),
    "invariant.top-resolves-first": ("405.5", "608.1", "117.7"),
    "invariant.sorcery-timing": ("117.1a", "307.1"),
    "invariant.before-priority": ("117.5", "704.3"),
    "invariant.exiled-never-dies": ("614.6",),
    # -- why a state cannot occur -------------------------------------------------------------
    "state.one-priority": ("117.3",),
    "state.priority-resolving": ("117.2e",),
    "state.priority-untap": ("117.3a", "502.4"),
    "state.priority-waiting": ("117.5", "603.3"),
    "state.priority-sba": ("117.5", "704.3"),
    "prevent": ("615.7", "615.1", "615.1a"),
    "damage-prevented": ("615.7", "615.6", "615.1", "120.8"),
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
    "101.4": "101.4", "101.1": "101.1", "104.3a": "104.3a", "103.8a": "103.7a", "104.3b": "104.3b",
    "104.2a": "104.2a", "104.4a": "104.4a",
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
    "508.8": "508.6", "509.1": "509.1", "509.1a": "509.1a", "509.1b": "509.1b", "509.1g": "509.1g", "509.1h": "509.1h",
    "509.2": "509.5", "506.4": "506.4", "510.1d": "510.1d", "702.19b": "702.17b", "702.19d": "702.17c",
    "510.1": "510.1", "510.1a": "510.1a", "510.1b": "510.1b", "510.1c": "510.1c",
    "510.2": "510.2", "510.3": "510.4", "510.4": "510.5", "702.7a": "702.7a", "702.7b": "702.7b",
    "702.4a": "702.4a", "702.4b": "702.4b", "702.20a": "702.18a", "702.20b": "702.18b", "702.9b": "702.9b", "702.17b": "702.15b", "702.21a": None, "511.1": "511.2", "511.3": "511.3", "513.1": "513.2",
    "514.1": "514.1", "514.2": "514.2", "514.3": "514.3", "514.3a": "514.3a",
    "601.2": "601.2", "601.2a": "601.2a", "601.2c": "601.2c", "601.2f": "601.2e", "601.2g": "601.2f",
    "601.2h": "601.2g", "601.2i": "601.2h", "601.3": None, "602.1": "602.1", "602.2": "602.2",
    "602.2a": "602.2a", "602.2b": "602.2b", "602.5": "602.5", "602.5d": "602.5d",
    "603.2": "603.2", "603.2a": "603.2a", "603.2b": "603.2b", "603.3": "603.3", "603.3b": "603.3b",
    "603.4": "603.4", "603.6c": "603.6c", "603.10a": "603.6d",
    "604.1": "604.1", "604.2": "604.2",
    "605.1a": "605.1a", "605.3a": "605.3a", "605.3b": "605.3b", "608.1": "608.1", "608.2b": "608.2b",
    "608.2c": "608.2c", "608.2n": "608.2k", "608.3": "608.3", "608.3a": "608.3",
    "611.2a": "611.2a", "613.4c": "613.3c", "611.3a": "611.3a", "611.3c": "611.3c", "701.5a": "701.4a", "701.6a": "701.5a", "701.8a": "701.6a",
    "701.9a": "701.7a", "701.21a": "701.13a", "701.26a": "701.16a", "701.24a": "701.15a",
    "615.1": "615.1", "615.1a": "615.1a", "615.6": "615.6", "615.7": "615.7", "120.8": "119.8",
    "614.1": "614.1", "614.1a": "614.1a", "614.5": "614.5", "614.6": "614.6", "616.1": "616.1", "700.4": None,
    "702.37e": "702.34d", "702.61a": "702.58a", "702.61b": "702.58b", "703.4": "703.4", "703.4p": "703.4n",
    "704.3": "704.3", "704.5a": "704.5a", "704.5f": "704.5f", "704.5g": "704.5g", "704.5j": "704.5k",
    "708.7": "707.7", "708.8": "707.8", "732.1": "715.1", "732.2": "715.2",
    # the combat keywords: deathtouch's two rules trade letters; lifelink is 702.13 there;
    # indestructible is no keyword ability there, its rule 700.4; menace came later
    "702.2b": "702.2c", "702.2c": "702.2b", "704.5h": "704.5h", "702.12b": "700.4", "702.15a": "702.13a",
    "702.15b": "702.13b", "120.3f": "119.3f", "702.111b": None, "702.3b": "702.3b", "508.1c": "508.1c",
}

# Where the edition mapping (``KnowledgeBase.map_number``) and :data:`NUMBERS_2010` part, and
# why the table is right: every other number agrees with the mapping (the tests hold it so).
MAPPING_CORRECTIONS: dict[str, str] = {
    "503.1": "2010 splits the upkeep into 503.1 (triggers go on the stack) and 503.2 (the active player "
             "gets priority); 2026 folds both into 503.1/503.1a",
    "511.1": "2010 511.1 puts \"at end of combat\" triggers on the stack; priority is 511.2",
    "513.1": "2010 513.1 puts end step triggers on the stack; priority is 513.2",
    "603.10a": "2010 has the look-back-in-time rule for leaves-the-battlefield abilities as 603.6d",
    "608.3a": "2010 608.3 is a single step: the permanent spell enters the battlefield",
    "702.12b": "2010 has no Indestructible keyword ability: what being indestructible does (not destroyed by "
               "lethal damage, the lethal-damage state-based action ignored) is its 700.4",
}


# What only the 2010 rules have, cited there instead of the carried numbers: the damage
# assignment order the active player announces for each creature blocked by two or more as
# blockers are declared (509.2, 509.2a), which its combat damage then follows, lethal damage to
# each before the next (510.1c). 2026 has no such order (510.1c: divided as its controller
# chooses), so these names cite the rule that replaced it there.
ONLY_2010: dict[str, Rules] = {
    "order-blockers": ("509.2", "509.2a", "510.1c"),
    "damage-order-due": ("509.2",),
    "assigned-in-order": ("510.1c", "509.2"),
    "check.damage-order": ("510.1c", "509.2"),
    "check.blocker-order": ("509.2",),
    "deathtouch-lethal-in-order": ("702.2b", "510.1c", "509.2"),
}


def _carry(table: Mapping[str, Rules], numbers: Mapping[str, str | None]) -> dict[str, Rules]:
    out: dict[str, Rules] = {}
    for name, rules in table.items():
        carried = tuple(dict.fromkeys(n for n in (numbers[r] for r in rules) if n is not None))
        out[name] = carried
    return out


CITATIONS_BY_EDITION: dict[str, dict[str, Rules]] = {
    EDITION_2026: CITATIONS,
    EDITION_2010: {**_carry(CITATIONS, NUMBERS_2010), **ONLY_2010},
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


def cite_table(edition: str) -> dict[str, Rules]:
    """The citations in an edition's own numbering (KeyError for an edition not carried)."""
    return CITATIONS_BY_EDITION[edition]


# Every check and transition, declared by decorator in the package's modules (in the order of
# the table above); ``registry.build(model, model.citations)`` numbers them by its edition.
registry = Registry(CITATIONS)
