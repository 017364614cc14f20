"""Riftbound cleanups, showdowns and combat: the tasks that follow moves, arrivals and
empty chains (318–323), the non-combat showdown's end (348.2) and the steps of combat
(463–466), with the triggers they put on the chain.

A cleanup follows every move, arrival and departure, every opening of the turn (319.1) and
every end of a showdown or combat (319.7), and is shown only when it changes something the
timing depends on (designations and the attack or defend triggers they fire, control,
staging a showdown or combat). Combat damage is assigned lethal damage first (465.2.c.3), in
the order the assigning player chose with an ``assign`` step (465.2.c), else in board order,
which the trace says where the choice was real (a real choice of few assignments is the decision
due at the combat damage step, each listed as an option); when several battlefields are staged the first
listed is chosen (461.1).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace, TraceNode
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import attaching, damage, replacements, trash
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.damage import prevented as damage_dealt
from kb.timing.models.riftbound.cards import Card
from kb.timing.models.riftbound.state import Battlefield, Combat, Permanent, Showdown, State, with_permanent
from kb.timing.models.riftbound.scoring import check_victory, score
from kb.timing.models.riftbound.triggers import Fired, condition, fire, new_item

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step = registry.transition, registry.step

step("control-lost", "a player loses control of an empty battlefield", "{player} loses control of {at}")
step("designation-gained", "a unit at the combat's battlefield gains its controller's designation",
     "{unit} gains the {designation} designation")
step("designation-lost", "a unit away from the combat's battlefield loses its designation",
     "{unit} loses the {designation} designation")
step("designation-triggers", "an attack or defend trigger fires as its unit gains the designation",
     "{item} triggers as {when}")
step("trigger-checked-once", "attack and defend triggers are checked once per combat",
     "{unit} already gained the {designation} designation this combat: its triggers do not fire again")
step("showdown-begins", "a showdown begins", "a showdown begins at {at}; {player} gains focus")
step("combat-begins", "combat begins", "combat begins at {at}")
step("becomes-combat-showdown", "the showdown becomes a combat showdown",
     "the showdown at {at} becomes a combat showdown")
step("focus-maintained", "a showdown was already ongoing: focus is maintained", "{player} keeps focus")
step("combat-state-closes", "a combat chain was created: the state closes", "the state closes")
step("combat-state-open", "no combat chain: the showdown continues open", "the state stays open")
step("settle-control", "a non-combat showdown settles control", "control of {at}: {player}")
step("conquer", "establishing control results in a conquer", "{player} conquers {at}")
step("combat-control", "after combat, the player with units remaining establishes control", "control of {at}: {player}")
step("combat-conquer", "establishing control after combat results in a conquer", "{player} conquers {at}")
step("killed-by-cleanup", "a unit with lethal damage is killed by a cleanup", "{unit} is killed")
step("killed-as-cost", "a unit is killed to pay a cost", "{unit} is killed")
step("battlefield-uncontrolled", "after combat no units remain: the battlefield becomes uncontrolled",
     "no units remain at {at}: it becomes uncontrolled")
step("hold", "the turn player holds a battlefield they control", "{player} holds {at}")
step("showdown-ends", "the showdown ends: neutral state", "the showdown at {at} ends")
step("combat-showdown-closes", "the combat showdown closes: combat proceeds",
     "combat at {at} proceeds to the damage step")
step("combat-won", "one player alone has units remaining: they won the combat and the other lost",
     "{player} alone has units at {at}: {player} won the combat, {loser} lost it, and their units share it")
step("combat-no-result", "both or neither player has units remaining, or attackers were recalled: No Result",
     "the combat at {at} has No Result ({why})")
step("no-combat-damage", "not both sides remain: no combat damage", "no combat damage at {at}")
step("resolution-step", "proceed to the resolution step", "proceed to the resolution step")
step("triggers", "an ability triggers", "{item} triggers as {when}")
step("death-triggers", "a trigger on its own death goes on the chain first", "{item} triggers as {when}")
step("conquer-triggers", "a conquer effect triggers", "{item} triggers as {when}")
step("damage-assigned", "a player assigns their combat damage among the other side's units",
     "{player} assigns {amount} damage: {given} ({how})")
step("tank-first", "Tank: the unit must be assigned lethal damage before its controller's units without Tank",
     "{units} {verb} Tank: {others} may be assigned damage only once {units} {have} lethal damage")
step("backline-last", "Backline: the unit is assigned damage only after its controller's units without Backline",
     "{units} {verb} Backline: {units} may be assigned damage only once {others} {have} lethal damage")
step("assault-might", "Assault: +X Might while the unit is an attacker",
     "{unit} has Assault {value}: +{value} Might while an attacker ({might} Might)")
step("shield-might", "Shield: +X Might while the unit is a defender",
     "{unit} has Shield {value}: +{value} Might while a defender ({might} Might)")
step("trigger-order", "simultaneous triggers go on the chain in turn order",
     "triggers are put on the chain in turn order: {order}")


def task_bindings(task: str) -> Callable[[Riftbound, State], Iterator[dict[str, Any]]]:
    """The bindings of a task's transition: one, when ``task`` is the task to handle now."""
    def bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
        if s.ready_task() == task:
            at = (s.combat.battlefield if s.combat else s.showdown.battlefield if s.showdown else "")
            params: dict[str, Any] = {"at": at}
            if task == "establish-attacker-defender" and s.combat:
                params.update(attacker=s.combat.attacker, defender=s.combat.defender)
            if task == "attacker-gains-focus" and s.combat:
                params["player"] = s.combat.attacker
            if task == "combat-result":
                params["result"] = combat_result_of(s)
            yield params
    return bindings


def cleanup_if_due(m: Riftbound, s: State, t: Trace, step: str) -> State:
    """Make a cleanup outstanding (319.1, 319.7) when it would change something."""
    if "cleanup" in s.tasks or not cleanup_changes(m, s):
        return s
    s = replace(s, tasks=s.tasks + ("cleanup",))
    t.note(step, s)
    return s


def cleanup_changes(m: Riftbound, s: State) -> bool:
    """Whether a cleanup now would change anything (319.1 makes one outstanding each time the
    turn opens; one that changes nothing is not shown)."""
    probe = replace(s, tasks=("cleanup",) + s.tasks)
    node = TraceNode(m.transitions["cleanup"], {}, probe, probe)
    return cleanup(m, probe, {}, Trace(m, node)) != s


def staging(s: State, bf: Battlefield) -> str | None:
    """What a contested battlefield stages: "combat" (two players' units) or "showdown"."""
    if bf.contested_by is None:
        return None
    owners = {u.controller for u in s.units_at(bf.name)}
    if len(owners) >= 2 and bf.contested_by in owners:
        return "combat"
    if owners == {bf.contested_by}:
        return "showdown"
    return None


@transition("cleanup", "automatic", "a cleanup", "cleanup", bindings=task_bindings("cleanup"))
def cleanup(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    done = s.tasks.index("cleanup")  # the first task, or after the Scoring Step's hold waiting for it
    s = check_victory(replace(s, tasks=s.tasks[:done] + s.tasks[done + 1:]), t)
    if s.winner is not None:
        return s
    if s.sides_established:
        s = designate(m, s, t)
    s = damage.kill_lethal(m, s, t)
    if m.equipment:
        s = attaching.recall_unattached(s, t)  # step 5 (323.7)
    open_state = not s.chain
    if open_state:
        for bf in s.battlefields:
            if (bf.controller is not None and not s.units_at(bf.name, bf.controller)
                    and (s.showdown is None or s.showdown.battlefield != bf.name)
                    and (s.combat is None or s.combat.battlefield != bf.name)):
                s = replace(s, battlefields=tuple(replace(b, controller=None) if b.name == bf.name else b
                                                  for b in s.battlefields))
                t.note("control-lost", s, {"player": bf.controller, "at": bf.name})
    # 323.11: contested status without the contesting player's units (and no showdown) goes away
    s = replace(s, battlefields=tuple(
        replace(b, contested_by=None) if (b.contested_by is not None
                                          and not s.units_at(b.name, b.contested_by)
                                          and not ongoing_at(s, b.name)) else b
        for b in s.battlefields))
    if not open_state:
        return s
    if not s.in_showdown:
        staged = [(bf, staging(s, bf)) for bf in s.battlefields]
        showdowns = [bf for bf, kind in staged if kind == "showdown"]
        combats = [bf for bf, kind in staged if kind == "combat"]
        if showdowns:
            bf = showdowns[0]
            s = replace(s, showdown=Showdown(bf.name), focus=bf.contested_by, priority=None)
            return t.step("showdown-begins", s, {"at": bf.name, "player": bf.contested_by})
        if combats:
            bf = combats[0]
            s = stage_combat(s, bf, new_showdown=True)
            t.note("combat-begins", s, {"at": bf.name})
            return s
    elif s.showdown is not None and not s.showdown.combat:
        bf = s.battlefield(s.showdown.battlefield)
        if bf is not None and staging(s, bf) == "combat":
            s = stage_combat(s, bf, new_showdown=False)
            t.note("becomes-combat-showdown", s, {"at": bf.name})
    return s


def designate(m: Riftbound, s: State, t: Trace) -> State:
    """Cleanup step 2 (323.2): units present at the combat's battlefield take their controller's
    designation, units elsewhere lose theirs; a unit gaining one for the first time this
    combat puts its attack or defend triggers on the chain (383.4.e.2, 383.4.f.2)."""
    c = s.combat
    assert c is not None
    sides = {c.attacker: "attacker", c.defender: "defender"}
    board, gained, lost = [], [], []
    for u in s.board:
        want = sides.get(u.controller) if u.location == c.battlefield else None
        if want != u.designation:
            if u.designation is not None:
                lost.append((u, u.designation))
            if want is not None:
                gained.append((u, want))
            u = replace(u, designation=want)
        board.append(u)
    if not gained and not lost:
        return s
    s = replace(s, board=tuple(board))
    for u, d in lost:
        t.note("designation-lost", s, {"unit": u.name, "designation": d})
    fired: Fired = []
    units: list[str] = []
    designated = c.designated
    for u, d in gained:
        t.note("designation-gained", s, {"unit": u.name, "designation": d})
        if (u.name, d) in designated:
            t.note("trigger-checked-once", s, {"unit": u.name, "designation": d})
            continue
        designated += ((u.name, d),)
        event = "attack" if d == "attacker" else "defend"
        fired += [(u.controller, tr, u.card) for tr in m.triggers_of(u.card, event, u, s)]
        units += [u.name for _ in m.triggers_of(u.card, event, u, s)]
    s = replace(s, combat=replace(c, designated=designated))
    return fire(s, t, fired, "designation-triggers", units)


def ongoing_at(s: State, at: str) -> bool:
    return (s.showdown is not None and s.showdown.battlefield == at) or (
        s.combat is not None and s.combat.battlefield == at)


def stage_combat(s: State, bf: Battlefield, new_showdown: bool) -> State:
    attacker = bf.contested_by or s.turn_player
    others = [u.controller for u in s.units_at(bf.name) if u.controller != attacker]
    defender = others[0] if others else (bf.controller or s.turn_player)
    combat = Combat(bf.name, attacker, defender, new_showdown=new_showdown)
    return replace(s, combat=combat, priority=None, tasks=("combat-opens",) + s.tasks)


@transition("combat-opens", "automatic", "combat opens (Combat Showdown step)", "combat opens at {at}",
            bindings=task_bindings("combat-opens"))
def combat_opens(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    showdown = Showdown(s.combat.battlefield, combat=True) if s.showdown is None else replace(
        s.showdown, combat=True, passes=0)
    return replace(s, showdown=showdown, tasks=("start-of-combat", "establish-attacker-defender",
                                                "attacker-gains-focus", "combat-chain") + s.tasks[1:])


@transition("start-of-combat", "automatic", "start of combat or showdown effects",
            "start of combat effects at {at}", bindings=task_bindings("start-of-combat"))
def start_of_combat(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return replace(s, tasks=s.tasks[1:])


@transition("establish-attacker-defender", "automatic", "establish Attacker and Defender",
            "{attacker} attacks, {defender} defends", bindings=task_bindings("establish-attacker-defender"))
def establish(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    c = s.combat
    board = tuple(replace(u, designation="attacker" if u.controller == c.attacker else "defender")
                  if u.location == c.battlefield and u.controller in (c.attacker, c.defender) else u
                  for u in s.board)
    designated = tuple((u.name, u.designation) for u in board if u.designation is not None)
    return replace(s, board=board, tasks=s.tasks[1:], combat=replace(c, designated=designated))


@transition("attacker-gains-focus", "automatic", "the Attacker gains focus", "{player} gains focus",
            bindings=task_bindings("attacker-gains-focus"))
def attacker_focus(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    s = replace(s, tasks=s.tasks[1:])
    if not s.combat.new_showdown and s.focus is not None:
        t.note("focus-maintained", s, {"player": s.focus})
        return replace(s, priority=None)
    return replace(s, focus=s.combat.attacker, priority=None)


@transition("combat-chain", "automatic", "attack and defend triggers go on the chain",
            "attack and defend triggers", bindings=task_bindings("combat-chain"))
def combat_chain(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    c = s.combat
    s = replace(s, tasks=s.tasks[1:])
    fired = []
    ordered = [c.attacker] + [pl for pl in s.players if pl not in (c.attacker, c.defender)] + [c.defender]
    for player in ordered:
        for u in s.units_at(c.battlefield, player):
            event = "attack" if u.designation == "attacker" else "defend" if u.designation == "defender" else ""
            fired += [(player, tr, u.card, u.name) for tr in m.triggers_of(u.card, event, u, s)] if event else []
    if fired:
        opened = not s.chain
        for controller, tr, source, unit in fired:
            s, item = new_item(s, name=tr.name, controller=controller, kind="trigger", source=source,
                                     effects=tr.effects, optional=tr.optional, origin="trigger")
            t.note("triggers", s, {"item": tr.name, "on": tr.on, "when": condition(s, controller, tr, unit)})
        if opened:
            s = replace(s, opened_by="trigger")
        t.note("combat-state-closes", s)
    else:
        t.note("combat-state-open", s)
    return s


@transition("showdown-closes", "step", "all players passed focus in sequence: the showdown closes",
            "the showdown at {at} closes")
def close_showdown(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.showdown is not None
    at = s.showdown.battlefield
    if s.showdown.combat and s.combat is not None:
        s = replace(s, showdown=None, focus=None, priority=None,
                    combat=replace(s.combat, step="damage"),
                    tasks=("combat-damage", "combat-cleanup", "combat-result", "establish-control",
                           "combat-ends") + s.tasks)
        t.note("combat-showdown-closes", s, {"at": at})
        return s
    owners = {u.controller for u in s.units_at(at)}
    bf = s.battlefield(at)
    s = replace(s, showdown=None, focus=None, priority=None)
    if len(owners) == 1 and bf is not None:
        (owner,) = owners
        if bf.controller != owner:
            s = take_control(m, s, t, at, owner, "settle-control", "conquer")
    s = replace(s, battlefields=tuple(replace(b, contested_by=None) if b.name == at else b
                                      for b in s.battlefields))
    t.note("showdown-ends", s, {"at": at})
    return cleanup_if_due(m, s, t, "status-cleanup")


def take_control(m: Riftbound, s: State, t: Trace, at: str, owner: str, step: str, conquer: str) -> State:
    """``owner`` establishes control of ``at`` (the ``step`` saying so), which is a conquer
    (recorded as ``conquer``): a non-combat showdown's (348.2.a) or a combat's (466.5)."""
    s = replace(s, battlefields=tuple(replace(b, controller=owner) if b.name == at else b
                                      for b in s.battlefields))
    t.note(step, s, {"at": at, "player": owner})
    return score(m, s, t, owner, at, "conquer", conquer)


def keyword_might(card: Card, u: Permanent) -> int:
    """The Might a unit's keywords give it now: Assault X while it has the Attacker designation
    (807.1.c, 807.1.d.1), Shield X while it has the Defender designation (814.1.c, 814.1.d.1)."""
    if u.designation == "attacker":
        return card.assault
    if u.designation == "defender":
        return card.shield
    return 0


def _has(m: Riftbound, u: Permanent, keyword: str) -> bool:
    card = m.cards.get(u.card)
    return card is not None and keyword in card.keywords


def assignment_groups(m: Riftbound, units: list[Permanent]) -> tuple[list[Permanent], list[Permanent],
                                                                      list[Permanent]]:
    """One side's units as their keywords order their combat damage: those with Tank (assigned
    first, 815.1.b), the others, those with Backline (last, 826.3), each group in the order given."""
    tank = [u for u in units if _has(m, u, "Tank")]
    back = [u for u in units if _has(m, u, "Backline")]
    return tank, [u for u in units if u not in tank and u not in back], back


def assignment_order(m: Riftbound, units: list[Permanent],
                     chosen: tuple[str, ...] = ()) -> tuple[list[Permanent], list[tuple[str, Params]]]:
    """The order one side's units (one controller's) are assigned combat damage, lethal damage to
    each before the next (465.2.c.3): those with Tank first (815.1.b; among them any order,
    815.1.c.2), those with Backline last (826.3, 826.4.b), the others between; within each group
    the order the assigning player chose (``chosen``, an ``assign`` step, 465.2.c), the units
    it does not name after them in board order (the model's default); and the steps that say
    why, where a keyword changed it."""
    rank = {name: i for i, name in enumerate(chosen)}
    units = sorted(units, key=lambda u: rank.get(u.name, len(rank)))  # stable: board order otherwise
    tank, rest, back = assignment_groups(m, units)
    notes: list[tuple[str, Params]] = []
    for step_, group, others in (("tank-first", tank, rest + back), ("backline-last", back, tank + rest)):
        if group and others:
            one = len(group) == 1
            notes.append((step_, {"units": ", ".join(u.name for u in group), "verb": "has" if one else "have",
                                  "others": ", ".join(u.name for u in others),
                                  "have": ("has" if (one if step_ == "tank-first" else len(others) == 1)
                                           else "have")}))
    return tank + rest + back, notes


def _keyword_might_notes(m: Riftbound, s: State, t: Trace, units: list[Permanent]) -> None:
    """Say the Might Assault and Shield give the units dealing combat damage (807.1.c, 814.1.c)."""
    for u in units:
        card = m.cards.get(u.card)
        value = keyword_might(card, u) if card is not None else 0
        if value:
            t.note("assault-might" if u.designation == "attacker" else "shield-might", s,
                   {"unit": u.name, "value": value, "might": m.might(u, s)})


def combat_sides(s: State, c: Combat) -> tuple[list[Permanent], list[Permanent]]:
    """The attackers and the defenders at the combat's battlefield."""
    return ([u for u in s.units_at(c.battlefield, c.attacker) if u.designation == "attacker"],
            [u for u in s.units_at(c.battlefield, c.defender) if u.designation == "defender"])


def assignment_choices(m: Riftbound, s: State, takers: list[Permanent], total: int) -> list[tuple[str, ...]] | None:
    """The orders a player may assign ``total`` combat damage among ``takers`` in, one per
    different assignment, the model's default first; None where the choice is no real one (one
    assignment) or too wide to list (over :data:`MOST_LISTED` assignments, or more units than
    :data:`MOST_ORDERED`), which a scenario's ``assign`` step still makes."""
    if not total or len(takers) > MOST_ORDERED:
        return None
    default = assignment_order(m, takers)[0]
    seen: dict[tuple[tuple[str, int], ...], tuple[str, ...]] = {}
    orders = itertools.product(*(itertools.permutations(g) for g in assignment_groups(m, default)))
    for order in itertools.chain([tuple(default)], ([*a, *b, *c] for a, b, c in orders)):
        key = tuple(sorted(assign(m, s, list(order), total).items()))
        seen.setdefault(key, tuple(u.name for u in order))
        if len(seen) > MOST_LISTED:
            return None
    return list(seen.values()) if len(seen) > 1 else None


def awaited_assignment(m: Riftbound, s: State) -> tuple[str, list[tuple[str, ...]]] | None:
    """At the combat damage step, the player whose assignment of combat damage is a real choice
    not made yet (465.2.c), the attacker's first, with the orders they may choose; None when
    every such choice is made (by an ``assign`` step) or none is due."""
    c = s.combat
    if c is None or c.step != "damage" or s.ready_task() != "combat-damage":
        return None
    attackers, defenders = combat_sides(s, c)
    if not attackers or not defenders:
        return None
    for dealers, takers in ((attackers, defenders), (defenders, attackers)):
        player = dealers[0].controller
        if any(pl == player for pl, _ in c.assigned):
            continue
        total = sum(max(0, m.might(u, s)) for u in dealers)
        found = assignment_choices(m, s, takers, total)
        if found is not None:
            return player, found
    return None


def combat_damage_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """The combat damage step, once no assignment of its damage awaits a player's choice."""
    if awaited_assignment(m, s) is None:
        yield from task_bindings("combat-damage")(m, s)


@transition("combat-damage", "automatic", "combat damage step", "combat damage at {at}",
            bindings=combat_damage_bindings)
def combat_damage(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    c = s.combat
    s = replace(s, tasks=s.tasks[1:], combat=replace(c, step="resolution"))
    attackers, defenders = combat_sides(s, c)
    if not attackers or not defenders:
        t.note("no-combat-damage", s, {"at": c.battlefield})
    else:
        damage = {u.name: 0 for u in attackers + defenders}
        _keyword_might_notes(m, s, t, attackers + defenders)
        for dealers, takers in ((attackers, defenders), (defenders, attackers)):
            player = dealers[0].controller
            chosen = tuple(u for pl, u in c.assigned if pl == player)
            default = [u.name for u in assignment_order(m, takers)[0]]
            takers, why = assignment_order(m, takers, chosen)
            chosen = chosen if [u.name for u in takers] != default else ()  # the default, chosen or taken
            for step_, params in why:
                t.note(step_, s, params)
            total = sum(max(0, m.might(u, s)) for u in dealers)  # a negative Might deals 0 (143.2.b)
            given = assign(m, s, takers, total)
            for name, n in given.items():
                damage[name] += n
            if total and len(assignments(m, s, takers, total)) > 1:  # the player's choice (465.2.c)
                t.note("damage-assigned", s, {
                    "player": player, "amount": total,
                    "given": ", ".join(f"{name} {n}" for name, n in given.items()),
                    "how": ("in the order they chose" if chosen else
                            "the model's default, one legal assignment: lethal damage to each unit in turn, in "
                            "board order where no keyword orders them; an assign step chooses another order")})
        board = []
        for u in s.board:
            u, dealt = damage_dealt(t, s, u, damage.get(u.name, 0))
            board.append(replace(u, damage=u.damage + dealt))
        s = replace(s, board=tuple(board))
        t.note("combat-damage", s, {"at": c.battlefield})
    t.note("resolution-step", s)
    return s


def assign(m: Riftbound, s: State, takers: list[Permanent], total: int) -> dict[str, int]:
    """``total`` combat damage assigned to ``takers`` in that order: lethal damage to each in full
    before the next (465.2.c.3), no more than lethal unless it is the last unit (465.2.c.4)."""
    given, left = {}, total
    for i, u in enumerate(takers):
        need = max(1, m.might(u, s) - u.damage + u.prevent)  # lethal counts the Prevent Value (437.5.a)
        n = left if i == len(takers) - 1 else min(left, need)
        given[u.name] = n
        left -= n
    return given


def assignments(m: Riftbound, s: State, takers: list[Permanent], total: int) -> set[tuple[tuple[str, int], ...]]:
    """The different legal assignments of ``total`` damage among ``takers``: one per order the
    keywords allow (Tank first, Backline last, any order within each). Past
    :data:`MOST_ORDERED` units the orders are not counted: the choice is taken to be real."""
    groups = assignment_groups(m, takers)
    if len(takers) > MOST_ORDERED:
        return {(), ((takers[0].name, total),)}
    found = set()
    for a, b, c in itertools.product(*(itertools.permutations(g) for g in groups)):
        found.add(tuple(sorted(assign(m, s, [*a, *b, *c], total).items())))
    return found


MOST_ORDERED = 6  # 720 orders at most per side
MOST_LISTED = 6  # the most different assignments listed as a player's options


@registry.check("combat-assigner", "only the attacker or the defender assigns combat damage, among the other "
                "side's units at the combat's battlefield, before the combat damage step")
def combat_assigner(m: Riftbound, s: State, p: Params) -> bool:
    c = s.combat
    if c is None or c.step not in ("showdown", "damage") or p["player"] not in (c.attacker, c.defender):
        return False
    other = c.defender if p["player"] == c.attacker else c.attacker
    theirs = {u.name for u in s.units_at(c.battlefield, other)}
    return all(name in theirs for name in p["order"])


@registry.check("assignment-keywords", "units with Tank are assigned lethal damage before the others, units with "
                "Backline after them")
def assignment_keywords(m: Riftbound, s: State, p: Params) -> bool:
    named = [u for name in p["order"] if (u := s.permanent(name)) is not None]
    tank, rest, back = assignment_groups(m, named)
    return named == tank + rest + back


def assign_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    """The orders the player whose assignment is due may choose, one per different assignment."""
    found = awaited_assignment(m, s)
    if found is not None:
        for order in found[1]:
            yield {"player": found[0], "order": order}


@transition("assign-damage", "decision", "choose the order combat damage is assigned",
            "{player} will assign combat damage in the order {order}", pre=("combat-assigner", "assignment-keywords"),
            bindings=assign_bindings)
def assign_damage(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """A player's choice of how to assign their combat damage (465.2.c): the order in which the
    other side's units are assigned lethal damage. A scenario step may declare it during the combat
    showdown; at the combat damage step, where the choice is real and not made, it is the decision
    due (the attacker's first), its options one order per different assignment (at most
    :data:`MOST_LISTED`), and a scenario without an ``assign`` step takes the model's default."""
    assert s.combat is not None
    kept = tuple(a for a in s.combat.assigned if a[0] != p["player"])
    return replace(s, combat=replace(s.combat, assigned=kept + tuple((p["player"], u) for u in p["order"])))


@transition("combat-cleanup", "automatic", "combat cleanup", "combat cleanup at {at}",
            bindings=task_bindings("combat-cleanup"))
def combat_cleanup(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    c = s.combat
    s = replace(s, tasks=s.tasks[1:])
    dead = [u for u in s.board if u.damage and u.damage >= max(1, m.might(u, s))]
    s, dead = replacements.replace_deaths(m, s, t, dead, step="killed-by-cleanup")
    # the deaths are simultaneous: their triggers go on the chain together, in turn order (383.3.d.1)
    s = fire(s, t, [(u.controller, tr, u.card) for u in dead for tr in m.triggers_of(u.card, "leave", u, s)],
             "death-triggers",
             [u.name for u in dead for _ in m.triggers_of(u.card, "leave", u, s)])
    s = trash.to_trash(m, replace(s, board=tuple(replace(u, damage=0) for u in s.board if u not in dead)),
                       [(u.card, u.controller) for u in dead])
    for u in dead:  # killed by the cleanup (lethal damage), not during a chain item's resolution
        t.note("killed-by-cleanup", s, {"unit": u.name})
    s = attaching.detach_from_gone(s, t) if m.equipment else s
    recalled = False
    if s.units_at(c.battlefield, c.defender):
        for u in s.units_at(c.battlefield, c.attacker):
            s = with_permanent(s, u.name, location="base", designation=None)  # its gear with it (719.3.a)
            recalled = True
    if recalled:
        s = replace(s, combat=replace(c, result="recalled"))
    return s


def combat_result_of(s: State) -> str:
    c = s.combat
    if c is None:
        return "none"
    if c.result == "recalled":
        return "no result (attackers recalled)"
    a = bool(s.units_at(c.battlefield, c.attacker))
    d = bool(s.units_at(c.battlefield, c.defender))
    if a and not d:
        return f"{c.attacker} wins"
    if d and not a:
        return f"{c.defender} wins"
    return "no result"


@transition("combat-result", "automatic", "determine the combat result", "combat result at {at}: {result}",
            bindings=task_bindings("combat-result"))
def combat_result(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """Record the combat result; the step that says it cites only the part of 466.3 that
    applies: one player won and the other lost (466.3.a, 466.3.b), or "No Result" (466.3.d)."""
    assert s.combat is not None
    s = replace(s, tasks=s.tasks[1:], combat=replace(s.combat, result=p["result"]))
    if p["result"].endswith(" wins"):
        winner = p["result"].removesuffix(" wins")
        loser = s.combat.defender if winner == s.combat.attacker else s.combat.attacker
        t.note("combat-won", s, {"player": winner, "loser": loser, "at": s.combat.battlefield})
    else:
        c = s.combat
        why = ("units were recalled" if c.result.endswith("(attackers recalled)")
               else "both players have units there" if s.units_at(c.battlefield, c.attacker)
               else "neither player has units there")
        t.note("combat-no-result", s, {"at": c.battlefield, "why": why})
    return s


@transition("establish-control", "automatic", "establish control after combat", "control of {at}",
            bindings=task_bindings("establish-control"))
def establish_control(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    assert s.combat is not None
    at = s.combat.battlefield
    s = replace(s, tasks=s.tasks[1:])
    owners = {u.controller for u in s.units_at(at)}
    s = replace(s, battlefields=tuple(replace(b, contested_by=None) if b.name == at else b
                                      for b in s.battlefields))
    bf = s.battlefield(at)
    if len(owners) == 1 and bf is not None and bf.controller != next(iter(owners)):
        s = take_control(m, s, t, at, next(iter(owners)), "combat-control", "combat-conquer")
    elif not owners:
        s = replace(s, battlefields=tuple(replace(b, controller=None) if b.name == at else b
                                          for b in s.battlefields))
        t.note("battlefield-uncontrolled", s, {"at": at})
    return s


@transition("combat-ends", "automatic", "combat ends", "combat at {at} ends",
            bindings=task_bindings("combat-ends"))
def combat_ends(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    board = tuple(replace(u, designation=None) for u in s.board)
    s = replace(s, tasks=s.tasks[1:], combat=None, board=board, priority=None)
    return cleanup_if_due(m, s, t, "status-cleanup")
