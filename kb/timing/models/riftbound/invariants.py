"""What every step of the Riftbound model keeps (invariants, checked on every trace node),
and why a state given from outside cannot occur (:func:`validate`, the ``state.*``
citations): module-level functions, each cited by its name."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from kb.timing.engine import Invariant, TraceNode, Violation
from kb.timing.models.riftbound import teams, turn_limits
from kb.timing.models.riftbound.citations import cite
from kb.timing.models.riftbound.cards import Replacement
from kb.timing.models.riftbound.replacements import replacement_source
from kb.timing.models.riftbound.state import Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

Holds = Callable[["Riftbound", TraceNode], bool]
INVARIANTS: list[tuple[str, str, Holds, frozenset[str] | None]] = []


def invariant(name: str, summary: str, about: Iterable[str] | None = None) -> Callable[[Holds], Holds]:
    """Register ``holds(model, node)`` as the invariant ``name`` (cited as ``invariant.NAME``).
    ``about``: the transitions whose nodes it is about, when it holds of any other node by its
    first test (the engine asks it only of those: :class:`Invariant`)."""
    cite("invariant." + name)  # a name the table lacks is an error at import
    def register(fn: Holds) -> Holds:
        INVARIANTS.append((name, summary, fn, None if about is None else frozenset(about)))
        return fn
    return register


def build(model: Riftbound) -> tuple[Invariant, ...]:
    """The invariants of ``model``, their functions bound to it."""
    return tuple(Invariant(name, cite("invariant." + name), summary, functools.partial(fn, model), about)
                 for name, summary, fn, about in INVARIANTS)


@invariant("one-priority", "at most one player holds priority")
def one_priority(m: Riftbound, n: TraceNode) -> bool:
    p = n.after.priority
    return p is None or isinstance(p, str)


@invariant("focus-in-showdown", "focus exists only in a showdown")
def focus_in_showdown(m: Riftbound, n: TraceNode) -> bool:
    return n.after.focus is None or n.after.in_showdown


FINALIZING = ("finalize", "trigger-removed", "trigger-used-up", "play-undone", "perform-trigger", "decline-trigger",
              "pay-cost", "decline-cost", "cost-unpaid")


@invariant("finalize-in-order", "items finalize in the order they were appended", about=FINALIZING)
def finalize_in_order(m: Riftbound, n: TraceNode) -> bool:
    if n.name not in FINALIZING:
        return True
    pend = n.before.pending
    return bool(pend) and pend[0].name == n.params["item"] and pend[0].id == n.params.get("id", pend[0].id)


@invariant("newest-resolves", "the newest finalized item resolves first", about=("resolve",))
def newest_resolves(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "resolve":
        return True
    fin = [i for i in n.before.chain if i.status == "finalized"]
    return bool(fin) and fin[-1].id == n.params["id"] and n.before.chain[-1].id == n.params["id"]


@invariant("no-action-on-chain", "a card without Reaction is never played while a chain exists",
           about=("play",))
def no_action_on_chain(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "play" or not n.before.chain:
        return True
    return m.has_reaction(n.before, n.params)


@invariant("single-pass", "a single pass never ends a showdown", about=("showdown-closes",))
def single_pass(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "showdown-closes":
        return True
    return n.before.showdown is not None and n.before.showdown.passes >= len(n.before.players) >= 2


@invariant("designation-once", "a unit's attack or defend triggers fire at most once per combat",
           about=("cleanup",))
def designation_once(m: Riftbound, n: TraceNode) -> bool:
    # Only designations new to this combat may fire attack or defend triggers in a cleanup.
    if n.name != "cleanup" or n.before.combat is None or n.after.combat is None:
        return True
    old, new = set(n.before.combat.designated), set(n.after.combat.designated)
    if not old <= new or any(u.designation and (u.name, u.designation) not in new for u in n.after.board):
        return False
    allowed = 0
    for unit, d in new - old:
        u = n.after.permanent(unit)
        allowed += len(m.triggers_of(u.card if u else None, "attack" if d == "attacker" else "defend", u, n.after))
    return sum(1 for c in n.children if c.name == "designation-triggers") <= allowed


@invariant("scored-once", "a player scores a battlefield at most once a turn")
def scored_once(m: Riftbound, n: TraceNode) -> bool:
    return len(set(n.after.scored)) == len(n.after.scored)


@invariant("points-rise", "points are only gained, by scoring or another gain")
def points_rise(m: Riftbound, n: TraceNode) -> bool:
    before = dict(n.before.points)
    kept = set(before) - set(n.after.removed)  # a player who left the game takes no points along (652)
    return all(n_ >= before.get(p, 0) for p, n_ in n.after.points) and kept <= set(dict(n.after.points))


@invariant("xp-gained-or-spent", "a player's XP changes only as they gain or spend it, never below 0")
def xp_gained_or_spent(m: Riftbound, n: TraceNode) -> bool:
    if n.transition.kind == "step" or (not m.uses_xp and n.before.experience == n.after.experience):
        return True  # a whole transition's change is its steps' (each a note, before and after alike)
    said: Counter[str] = Counter()
    for x in n.walk():
        if x.name in ("gains-xp", "spends-xp"):
            said[x.params["player"]] += x.params["n"] if x.name == "gains-xp" else -x.params["n"]
    return all(n.after.xp_of(p) - n.before.xp_of(p) == said[p] and n.after.xp_of(p) >= 0 for p in n.after.players)


def off_chain(step: str) -> Holds:
    """The invariant that a ``step`` node leaves the chain, priority, focus and the next id as
    they were (it is no chain item and nobody gets priority for it)."""
    def holds(m: Riftbound, n: TraceNode) -> bool:
        if n.name != step:  # so it is about ``step`` alone
            return True
        b, a = n.before, n.after
        return (a.chain, a.priority, a.focus, a.next_id) == (b.chain, b.priority, b.focus, b.next_id)
    return holds


add_off_chain = invariant("add-off-chain", "an Add ability activated while paying never joins the chain nor moves "
                          "priority or focus", about=("add-while-paying",))(off_chain("add-while-paying"))


@invariant("replacement-off-chain", "a replaced death adds no chain item and moves neither priority nor focus",
           about=("death-replaced",))
def replacement_off_chain(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "death-replaced":
        return True
    b, a = n.before, n.after
    u = a.permanent(n.params["unit"])
    return ((a.chain, a.priority, a.focus, a.next_id, a.trash) == (b.chain, b.priority, b.focus, b.next_id, b.trash)
            and u is not None and u.location == "base" and u.exhausted and u.damage == 0)


def _replaced_by(m: Riftbound, n: TraceNode) -> tuple[Permanent, Replacement] | None:
    """The source of the replacement effect a ``death-replaced`` node applied, with that
    effect; None for another node, or for a unit's own "next time it would die"."""
    if n.name != "death-replaced" or n.params["next"]:
        return None
    x = replacement_source(m, n.before, n.params)
    r = m.cards[x.card].replacement if x is not None else None
    return (x, r) if x is not None and r is not None else None


@invariant("replacement-in-trash", "a replacement effect active in the trash replaces a death only from a card "
           "already in its owner's trash, and one active on the board only from the board", about=("death-replaced",))
def replacement_in_trash(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "death-replaced" or n.params["next"]:
        return True
    x = replacement_source(m, n.before, n.params)
    r = m.cards[x.card].replacement if x is not None else None
    return r is not None and r.zone == ("trash" if "trash" in n.params else "board")


@invariant("death-triggers-in-turn-order", "the death triggers of units dying together in a cleanup go on the "
           "chain in turn order, the turn player's first", about=("cleanup", "combat-cleanup"))
def death_triggers_in_turn_order(m: Riftbound, n: TraceNode) -> bool:
    if n.name not in ("cleanup", "combat-cleanup"):
        return True
    fired = {c.params["item"] for c in n.walk() if c.name == "death-triggers"}
    known = {i.id for i in n.before.chain}
    seats = [n.after.players.index(i.controller) for i in n.after.chain if i.id not in known and i.name in fired]
    return seats == sorted(seats)


@invariant("trigger-each-turn", "a \"once (N times) each turn\" triggered ability is performed at most that many "
           "times a turn, each performance counted", about=("finalize",))
def trigger_each_turn(m: Riftbound, n: TraceNode) -> bool:
    if n.name != "finalize":
        return True
    item = next((i for i in n.before.chain if i.id == n.params["id"]), None)
    tr = turn_limits.trigger_of(m, item) if item is not None else None
    if tr is None or tr.each_turn is None:
        return True
    before, after = n.before.times_performed(tr.name), n.after.times_performed(tr.name)
    return before < tr.each_turn and after == before + 1


@invariant("replacement-each-turn", "a \"once (N times) each turn\" replacement effect is applied to at most "
           "that many events a turn, each application counted", about=("death-replaced",))
def replacement_each_turn(m: Riftbound, n: TraceNode) -> bool:
    found = _replaced_by(m, n)
    if found is None or found[1].each_turn is None:
        return True
    x, r = found
    before, after = n.before.times_replaced(x.name), n.after.times_replaced(x.name)
    return before < r.each_turn and after == before + 1


@invariant("replacement-chosen", "a \"you may\" replacement effect replaces a death only when its controller "
           "chose to apply it to that death", about=("death-replaced",))
def replacement_chosen(m: Riftbound, n: TraceNode) -> bool:
    found = _replaced_by(m, n)
    return (found is None or not found[1].optional
            or (found[0].name, n.params["unit"], True) in n.before.replacement_choices)


@invariant("replacement-asked", "a \"you may\" replacement's controller is asked before every death it could "
           "replace: a step taken never meets one not yet chosen", about=("replacement-choice-due",))
def replacement_asked(m: Riftbound, n: TraceNode) -> bool:
    # The model asks before automatic steps; a death inside a player's own decision (an Add while
    # paying that completes a kill cost, say) would meet the choice unasked: an error, not a guess.
    return n.name != "replacement-choice-due"


as_enters_off_chain = invariant("as-enters-off-chain", "what \"As I enter\" does adds no chain item and moves "
                               "neither priority nor focus", about=("as-enters",))(off_chain("as-enters"))


@invariant("damage-prevented", "damage gets through to a unit only once its Prevent Value is used up, and "
           "the Prevent Value falls by what it prevents")
def damage_prevented(m: Riftbound, n: TraceNode) -> bool:
    if n.name == "damage-prevented":
        u, p = n.before.permanent(n.params["unit"]), n.params
        return (u is not None and p["prevented"] == min(p["amount"], u.prevent)
                and p["dealt"] == p["amount"] - p["prevented"] and p["value"] == u.prevent - p["prevented"])
    if n.transition.kind == "step" or any(c.name == "prevent-damage" for c in n.walk()):
        return True
    for b in n.before.board:
        a = n.after.permanent(b.name)
        if a is not None and (a.prevent > b.prevent or b.prevent and a.damage > b.damage and a.prevent):
            return False
    return True


@invariant("team-points", "teammates always have the same points")
def team_points(m: Riftbound, n: TraceNode) -> bool:
    if not n.after.teams:
        return True
    points = dict(n.after.points)
    return all(len({points.get(p, 0) for p in team}) == 1 for team in n.after.teams)


def validate(s: State) -> list[Violation]:
    """Every reason ``s`` cannot occur under the rules (empty when it can)."""
    out: list[Violation] = []

    def bad(key: str, message: str, field: str) -> None:
        out.append(Violation(message, cite("state." + key), field))

    n = len(s.players)
    if s.focus is not None and not s.in_showdown:
        bad("focus-neutral", f"{s.focus} has focus but no showdown or combat is in progress", "focus")
    quiet = s.ready_task() is None and not s.tasks and s.phase == "main"
    if s.showdown is not None and not s.chain and quiet:
        if s.focus is None:
            bad("showdown-focus", "a showdown is in an open state but nobody has focus", "focus")
        elif s.priority is not None and s.priority != s.focus:
            bad("focus-priority", f"{s.priority} has priority in a Showdown Open State but {s.focus} has "
                "focus", "priority")
    if not s.in_showdown and not s.chain and quiet and s.priority not in (None, s.turn_player):
        bad("neutral-priority", f"{s.priority} has priority in a Neutral Open State of "
            f"{s.turn_player}'s turn", "priority")
    seen_pending = False
    for i, item in enumerate(s.chain):
        if item.status == "pending":
            seen_pending = True
        elif seen_pending:
            bad("finalized-above-pending", f"{item.name} is finalized above a pending item "
                "(items are finalized in the order they were appended)", f"chain[{i}]")
        if item.status == "finalized" and (item.kind in ("unit", "gear") or item.add):
            bad("permanent-finalized-on-chain", f"{item.name} ({'Add ability' if item.add else item.kind})"
                " is finalized yet still on the chain: it resolves as soon as it is finalized",
                f"chain[{i}]")
    if s.chain and not s.pending and s.priority is None and s.ready_task() is None:
        bad("chain-without-priority", "the chain holds only finalized items but nobody has priority",
            "priority")
    if s.passes < 0 or s.passes > n or (s.passes and (not s.chain or s.pending)):
        bad("passes", f"{s.passes} consecutive passes cannot occur here", "passes")
    if s.showdown is not None and not 0 <= s.showdown.passes < n:
        bad("showdown-passes", f"{s.showdown.passes} players passed focus in sequence: the showdown "
            "would have ended", "showdown.passes")
    out += teams.violations(s)
    if s.owners and Counter(c for c, _ in s.owners) - Counter(s.trash):
        bad("trash-owners", "trash_owners names a card that is not in the trash", "trash_owners")
    if s.combat is not None and (s.combat.attacker == s.combat.defender
                                 or {s.combat.attacker, s.combat.defender} - set(s.players)):
        bad("combat-players", "a combat needs an attacker and a different defender among the players",
            "combat")
    return out
