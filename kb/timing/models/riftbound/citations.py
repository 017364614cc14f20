"""The Riftbound model's citations, as data: every name a transition, a step, a legality
check, an invariant or a state check carries, with the rules it implements (edition 1.4
numbering, :data:`CITATION_EDITION`; other editions map this one table).

Keep entries short: the first rules are the ones an explanation quotes first. Every
function registered with :data:`registry` is cited from here by its name (checks as
``check.NAME``); registering a name the table lacks is an error at import.
"""

from __future__ import annotations

from kb.timing.engine import Rules
from kb.timing.models.base import Registry

CITATION_EDITION = "1.4"

# The one table: every name a trace, a check or an invariant can carry → the rules it
# implements (edition 1.4 numbering). Keep entries short: the first rules are the ones an
# explanation quotes first.
CITATIONS: dict[str, Rules] = {
    # -- decisions: discretionary actions and the choices of playing an item ------------
    "play": ("338.1", "338.1.a", "338.1.a.4", "338.1.a.7", "419.1", "419.2", "354", "354.2"),
    "activate": ("338.1.a", "377.3", "377.3.a", "377.3.a.1", "401", "401.1", "399", "400"),
    "hide": ("421.1", "421.2", "811.1.b", "811.1.c", "811.1.c.1", "811.1.c.2"),
    "standard-move": ("144", "144.2", "144.4.a", "144.4.b", "446.3", "446.3.c", "453", "319.8"),
    "pass-priority": ("338.1.b", "338.1.b.1", "313.3"),
    "pass-focus": ("347", "347.2"),
    "end-main-phase": ("316.9", "316.9.a", "316.9.b", "305"),
    "perform-trigger": ("383.3.a", "383.3.a.1", "402.1", "383.3.e.2.a"),
    "decline-trigger": ("383.3.a.2", "402.1.a", "383.3.e.2.b"),
    # -- steps inside a decision ----------------------------------------------------------
    "closes-state": ("354.1", "309.1", "331.1", "328", "330"),
    "joins-chain": ("330.1", "330.2", "338.1.a.5"),
    "starts-chain-in-showdown": ("347.1", "347.1.a", "342", "342.1"),
    "legally-timed": ("338.1.a.6", "358.4", "338.1.a.3", "358.5"),
    "play-from-facedown": ("811.1.c.3", "811.6", "811.1.d.1", "421.3"),
    "ambush-permission": ("822.1.b", "822.1.c"),
    "move-contests": ("190.3.a", "190.3.a.1", "450"),
    "play-contests": ("190.3.a.1", "190.3.a", "323.8"),
    "pass-step-resolve": ("339.1",),
    "pass-step-continue": ("339.2", "312.2.d"),
    "focus-passes": ("347.2.b", "313.2", "312.2.b"),
    "showdown-closes": ("347.2.a", "348"),
    # -- HOT FEPR ------------------------------------------------------------------------
    "finalize": ("334.2", "336", "337.1", "337.1.a", "337.1.b", "329.3", "352.2"),
    "counts-as-finalized": ("812.1.c", "419.4.b"),
    "lingers": ("359.3", "359.3.a", "359.3.c", "406.4"),
    "resolves-immediately": ("337.2", "359.2", "400.2", "429.2"),
    "finalize-next": ("337.3", "359.3.b", "406.3", "336.1"),
    "priority-to-next-item": ("337.4", "312.2.c", "312.3"),
    "trigger-removed": ("402.4", "402.4.a"),
    "play-undone": ("822.3", "822.3.a", "358.5"),
    "resolve": ("340.1", "359.3.d", "406.5"),
    "enters-board": ("351.1", "359.2.c", "359.2.d", "319.6"),
    "add-resolves": ("429.2.a", "429.2.b"),
    "completes-play": ("350.1", "351.2", "419.4.a"),
    "open-state": ("340.2", "309.2", "331.2", "310.1", "310.3"),
    "open-state-cleanup": ("319.1", "323.6", "190.4.c"),
    "status-cleanup": ("319.7", "323.12", "323.13"),
    "focus-passes-after-chain": ("340.2.a", "346", "347.1.b"),
    "focus-stays": ("346.1",),
    "back-to-finalize": ("340.3", "354.3", "401.2"),
    "priority-to-newest": ("340.4", "312.2.c"),
    "receive-priority": ("335", "312.2.a", "310.1.a"),
    "focus-holder-priority": ("335.1", "313.2", "312.2.b"),
    # -- instructions while an item resolves ---------------------------------------------
    "counter": ("425.1", "425.1.a", "425.1.a.1", "425.1.b", "419.4.a.1"),
    "draw": ("413.1", "413.2.b"),
    "create-reflexive-trigger": ("387", "388", "388.1", "388.2", "387.1.a"),
    "play-from-effect": ("419.3", "419.3.a", "419.3.b", "354.3"),
    "no-eligible-card": ("419.3.c",),
    "kill": ("428.1", "428.2", "321.1"),
    "move-unit": ("420.1", "446.1", "446.3.c", "449", "321.1"),
    "recalled-instead": ("447.2.c", "449.2", "455", "456.1"),
    "played-to-base-instead": ("462.2.a", "462.2", "462.2.b"),
    "add-resources": ("429.1", "429.4", "429.4.a", "429.5", "166.1"),
    "instruction-skipped": ("359.3.e.6", "359.3.e.7", "359.3.e.10"),
    "legion-active": ("812.1.b.1", "812.1.c"),
    "triggers": ("383", "383.3", "383.2.c", "384.2", "334.1"),
    "play-effect-triggers": ("383.4.a", "383.4.a.2", "419.4.a"),
    "death-triggers": ("428.1.a.1.b", "323.4", "808.1", "808.1.a", "808.1.b", "808.1.b.1", "808.1.c", "808.1.c.1",
                       "808.1.d", "808.1.d.2", "808.1.d.3", "808.2", "808.2.a"),
    "discard": ("422.1", "422.1.a", "422.4"),
    "conquer-triggers": ("383.4.c", "383.4.c.2.a", "471.2", "471.2.a"),
    "trigger-order": ("383.3.d", "383.3.d.1", "303.2.a"),
    # -- tasks: cleanups, showdowns and combat ---------------------------------------------
    "cleanup": ("333", "333.1", "319", "320", "323"),
    "control-lost": ("323.6", "190.4.c"),
    "designation-gained": ("323.2", "323.2.a", "323.2.b", "464.2.c.3.a"),
    "designation-lost": ("323.2.c",),
    "designation-triggers": ("383.4.e.2", "383.4.f.2", "383.4.e", "383.4.f"),
    "trigger-checked-once": ("383.4.e.2.a", "383.4.f.2.a"),
    "showdown-begins": ("323.12", "344", "345", "316.8.b"),
    "combat-begins": ("323.13", "460", "316.7.a", "461.1"),
    "becomes-combat-showdown": ("323.14", "460.1", "344.1", "316.8.b.1.a"),
    "combat-opens": ("464", "464.1", "464.2", "464.2.a", "316.8.a"),
    "start-of-combat": ("464.2.b",),
    "establish-attacker-defender": ("464.2.c", "464.2.c.1", "464.2.c.2", "464.2.c.3", "464.2.c.3.a"),
    "attacker-gains-focus": ("464.2.d", "464.2.c.1.a", "313.2"),
    "focus-maintained": ("464.2.c.1.b",),
    "combat-chain": ("464.2.e", "464.2.e.1", "383.4.e.2", "383.4.f.2", "334.1"),
    "combat-state-closes": ("464.2.f", "464.2.g"),
    "combat-state-open": ("464.2.f.1",),
    "settle-control": ("348.2", "348.2.a", "190.4", "190.3.b"),
    "conquer": ("348.2.a.1", "466.5.d", "469", "469.1", "469.1.b", "470"),
    "hold": ("469.2", "470", "315.2.b", "315.2.b.2"),
    "hold-battlefields": ("315.2.b", "315.2.b.1", "315.2.b.2", "469.2"),
    "main-phase-begins": ("316.1", "315.4", "315.4.b"),
    "gains-point": ("471", "471.1", "468", "468.1", "471.1.a.1"),
    "final-point-draws": ("471.1.a", "471.1.b", "471.1.b.1"),
    "scored-once": ("470", "471.2.c"),
    "score-triggers": ("471.2", "471.2.b", "383.4.d", "383.4.d.2.a", "383.4.d.2.b"),
    "game-won": ("323.1", "472", "194.2"),
    "showdown-ends": ("308.2", "313.5"),
    "combat-showdown-closes": ("348.1", "465", "465.1"),
    "combat-damage": ("465.2", "465.2.a", "465.2.b", "465.2.c", "465.2.c.3", "465.2.d"),
    "no-combat-damage": ("465.1",),
    "resolution-step": ("465.3", "466"),
    "combat-cleanup": ("466.1", "466.1.a", "466.1.a.1", "466.1.a.2", "323.5"),
    "combat-result": ("466.2", "466.3", "466.3.a", "466.3.b", "466.3.c", "466.3.d"),
    "establish-control": ("466.4", "466.5", "466.5.a", "466.5.b", "466.5.e"),
    "combat-ends": ("466.6", "466.7", "466.7.a", "466.7.b", "466.7.c"),
    # -- costs and resources (costs.py) --------------------------------------------------
    "pay-cost": ("404.1", "404.2", "403.1.b.1", "809.1.d"),
    "decline-cost": ("404.2", "404.2.a"),
    "pays-costs": ("357", "357.1", "404", "404.1", "356", "356.2.a", "403", "403.1.a"),
    "adds-during-payment": ("357.1.a", "429.3", "429.3.a", "164.2.a", "164.2.b", "166.2"),
    "deflect-applies": ("809.1.c", "809.1.c.1", "809.1.d", "356.2.a.2", "809.2"),
    "kill-as-cost": ("357.2", "356.2.a.1", "356.7", "428.1.a.1", "355.10.c"),
    "plays-ignoring-cost": ("811.1.b", "356.1.b"),
    "pays-to-hide": ("811.1.b", "421.2.a", "135.2.e.5.a"),
    "check.hide-cost": ("811.1.b", "421.2.a", "135.2.e.5.a"),
    "cost-unpaid": ("358.2", "358.5", "404.2"),
    "check.costs": ("357.1", "358.2", "358.5", "357.1.a", "429.3"),
    "check.deflect-cost": ("809.1.c", "356.2.a.2", "358.2", "358.5"),
    "check.additional-cost": ("356.2.a.1", "357.2", "358.2", "428.1.a.1"),
    "check.trigger-cost": ("404.1", "404.2"),
    "check.payment-due": ("404.2", "383.3.a"),
    "ready": ("415.1", "415.1.c", "415.2"),
    "exhausts-as-cost": ("414.5", "135.2.e.2", "414.3.a", "404.1", "377.1"),
    "check.exhaust-cost": ("414.1.b", "414.4", "414.5", "358.2"),
    # -- Reaction Add abilities while a cost is paid (adding.py) ---------------------------
    "add-while-paying": ("429.3", "357.1.a", "378", "166.2"),
    "add-resolves-during-payment": ("429.3.a", "429.2", "429.2.a", "400.2"),
    "check.paying": ("429.3", "357.1.a"),
    "check.add-ability": ("429.3", "429.4.a"),
    "check.add-reaction": ("429.3", "357.1.a", "381"),
    "check.add-helps": ("357.3",),
    # -- Might and damage (damage.py) ---------------------------------------------------
    "deal": ("417.1", "417.1.b", "417.1.e", "142.2", "143.3.a", "321.1"),
    "give-might": ("143.2", "142.4.b", "143.2.b"),
    "lethal-damage": ("323.4", "323.5", "142.4.a", "142.4.b", "143.2.a", "428.1.a.2"),
    # -- legality checks (what forbids a tempting action) ---------------------------------
    "check.has-priority": ("312.1", "312.1.a", "312.1.b"),
    "check.not-mid-procedure": ("334", "334.2", "334.2.a", "336", "337.1"),
    "check.own-turn-neutral-open": ("310.1.a", "316.5.b", "409"),
    "check.closed-state-needs-reaction": ("309.1.a", "331.1.a", "331.1.b", "338.1.a.1", "338.1.a.2",
                                          "813.1.c.1"),
    "check.showdown-needs-action": ("308.1.a", "343.1.a", "343.1.b", "313.1.a", "806.1.b", "813.1.b"),
    "check.focus": ("313.1", "313.4", "347"),
    "check.in-hand": ("419.1.a",),
    "check.facedown-ready": ("811.1.b", "421.3"),
    "check.targets": ("355.8", "355.9"),
    "check.location": ("355.2", "355.2.a", "822.1.b", "806.3", "813.3.a"),
    "check.ability-on-board": ("380", "145.2"),
    "check.ability-timing": ("381", "145.2", "806.1.c.2", "813.1.c.2"),
    "check.move-timing": ("144.1.a", "144.1.b", "144.1.c", "446.3.c"),
    "check.unit-ready": ("144.2",),
    "check.move-destination": ("144.4", "144.4.a.1", "449.2", "447.2.a", "462.1"),
    "check.move-outcome": ("358.3", "358.5", "449.2", "447.2.a", "462.1"),
    "check.hide-timing": ("811.1.b", "421.2.a"),
    "check.hide-battlefield": ("421.1", "811.1.b"),
    "check.trigger-controller": ("383.3.a", "190.6.a"),
    "check.trigger-optional": ("383.3.a.3", "402.4.b"),
    # -- invariants -----------------------------------------------------------------------
    "invariant.one-priority": ("312",),
    "invariant.focus-in-showdown": ("313.5", "313.1"),
    "invariant.finalize-in-order": ("337.1.b",),
    "invariant.newest-resolves": ("340.1",),
    "invariant.no-action-on-chain": ("309.1.a",),
    "invariant.single-pass": ("347.2.a",),
    "invariant.designation-once": ("383.4.e.2.a", "383.4.f.2.a"),
    "invariant.scored-once": ("470",),
    "invariant.points-rise": ("468", "471.1"),
    "invariant.add-off-chain": ("429.3.a", "429.2.a"),
    # -- why a state cannot occur ---------------------------------------------------------
    "state.one-priority": ("312",),
    "state.focus-neutral": ("313.5",),
    "state.focus-priority": ("335.1", "313.2", "313.4"),
    "state.showdown-focus": ("345", "347"),
    "state.finalized-above-pending": ("337.1.b", "329.3"),
    "state.permanent-finalized-on-chain": ("337.2", "359.2"),
    "state.neutral-priority": ("335", "312.2.a", "310.1.a"),
    "state.chain-without-priority": ("337.4", "340.4", "312.2.c"),
    "state.passes": ("339.1",),
    "state.showdown-passes": ("347.2.a",),
    "state.turn-state": ("308", "309", "310"),
    "state.combat-players": ("462", "316.7.d"),
}

# What each state check refuses (the ``state.*`` citations above).
STATE_CHECKS: dict[str, str] = {
    "one-priority": "refuses a state where two players hold priority",
    "focus-neutral": "refuses focus outside a showdown or combat",
    "focus-priority": "refuses priority apart from focus in a Showdown Open State",
    "showdown-focus": "refuses a showdown in an open state where nobody has focus",
    "finalized-above-pending": "refuses a finalized item above a pending one",
    "permanent-finalized-on-chain": "refuses a finalized unit, gear or Add ability still on the chain",
    "neutral-priority": "refuses priority for anyone but the turn player in a Neutral Open State",
    "chain-without-priority": "refuses a chain of finalized items with nobody holding priority",
    "passes": "refuses more passes in sequence than can occur",
    "showdown-passes": "refuses a showdown every player has already passed",
    "turn-state": "refuses a turn state that contradicts the chain or the showdown",
    "combat-players": "refuses a combat without an attacker and a different defender",
}


def cite(name: str) -> Rules:
    """The rules a name of the model cites."""
    return CITATIONS[name]


# The registry of this game's checks and transitions (module-level functions, registered by
# decorator in checks.py, decisions.py, chain.py, effects.py, combat.py…).
registry = Registry(CITATIONS)
