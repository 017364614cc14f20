"""Riftbound's replacement effects on deaths in the timing (367–374).

- A replacement effect is no chain item: nobody gets priority for it and nobody can respond
  to it. It is applied before the event it replaces has occurred (370.1.c) and changes the
  event as it happens: a unit "saved" by one is healed, exhausted and recalled instead of
  dying (369.1, Zhonya's Hourglass), so it was never killed — it goes to no trash and its own
  death triggers (Deathknell) are removed from the chain without resolving (808.1.d.1,
  370.1.a.1). A cost paid by killing it is still paid (357.2.a, 203.2).
- Where a replacement comes from: a card's ``replacement: {would_die: self|friendly,
  kill_this}`` (a passive ability of a permanent on the board, 368.1, 365.1), or the ``save``
  instruction ("the next time it would die this turn…", on the unit until it is used).
- Two replacements that could apply to one death: the controller of the unit chooses the order
  (372); the model takes the unit's own "next time" first, then the board's order, and says so.
  The first one applied replaces the death; "kill this instead" then kills its source, a new
  event the other replacements (not the one applied, 370.2) may replace in turn.
- Simultaneous deaths (a cleanup's lethal damage) are replaced one event at a time, and what a
  replacement does happens before the unmodified deaths (373, 373.1.a); a replacement applies
  to events simultaneous with its source leaving the board (370.4).
- "Once (N times) each turn" (``each_turn: N``, 371): applied to that many deaths a turn, counted
  by source in the state's ``replaced_this_turn``; a later death is not replaced by it, and the
  trace says why (371.1).
- Replacement effects on how a unit enters the board (369.3): "I enter ready", and "As I enter,
  …", whose instructions are part of the entering event (370.1.b.1), are in
  :func:`kb.timing.models.riftbound.chain.entering_replaced`.

- "You may" replacement effects (``may: true``, 371.2): before an automatic step in which a death
  such a replacement could replace would happen, its controller chooses, to apply it or not
  (``apply-replacement``, ``decline-replacement``; 371.2.a), and nothing else happens until they
  do (the model runs the step ahead to see the death; :func:`choice_due`). The choice holds for
  that death alone; one not applied has not been applied this turn (371.2.b), so a "once each
  turn" one may still apply to a later death. The model asks only before automatic steps: a
  death inside a player's own decision that such a replacement could replace breaks the
  invariant ``replacement-asked`` (an error it reports, not a guess).

- Replacement effects active in a trash (366.1, 370.3): a card's in its owner's trash, evaluated
  for a death only if it entered the trash before it (:mod:`kb.timing.models.riftbound.trash`);
  they come after the board's in the model's order, and one banishing its source has it
  banished from the trash once the death is replaced (``banished-from-trash``).

Not modelled: replacements acting on an uncontrolled battlefield (372.2). Of the
game actions that are replacement effects (369.2), preventing damage is in
:mod:`kb.timing.models.riftbound.damage`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kb.timing.engine import Params, Trace, TraceNode, Transition
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import attaching, effects, trash
from kb.timing.models.riftbound.cards import Effect
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import Item, Permanent, State, with_permanent
from kb.timing.models.riftbound.triggers import fire, needs_cleanup

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

step = registry.step
step("next-death-replaced", "a unit's next death this turn will be replaced",
     "the next time {unit} would die this turn, it is healed, exhausted and recalled instead")
step("replacement-order", "two replacement effects could apply to one death: the unit's controller orders them",
     "{player} chooses the order of the replacements for {unit}'s death: the model applies {order}, in that order")
step("simultaneous-deaths-in-order", "simultaneous deaths are replaced one event at a time, in the order "
     "their replacements' controllers choose", "replacements could apply to the deaths of {units}: each is "
     "replaced separately, in the order their controllers choose (the model takes this order)")
step("death-trigger-removed", "a unit whose death was replaced was not killed: its death trigger is removed",
     "{unit} was not sent to the trash: {item} is removed and never resolves")
step("deathknell-checked", "a replacement effect checks whether the dying unit has Deathknell",
     "{unit} has Deathknell, which {source}'s replacement checks for")
step("killed-instead", "\"kill this instead\": the replacement's source is killed in the unit's place",
     "{source} is killed instead of {unit}")
step("would-be-killed-instead", "\"kill this instead\": the replacement's source would be killed in the unit's "
     "place, an event another replacement replaces in turn", "{source} would be killed instead of {unit}")
step("cost-paid-though-replaced", "a cost whose kill was replaced is still paid",
     "{unit}'s death was replaced, yet the cost of {item} is paid")
step("replacement-choice-due", "a \"you may\" replacement effect could apply: its controller chooses first",
     "{player} may apply {source}'s replacement to {unit}'s death")
step("replacement-declined", "a \"you may\" replacement its controller chose not to apply has not been applied",
     "{player} does not apply {source}'s replacement to {unit}'s death: it has not been applied (this turn)")
step("replacement-in-trash", "a replacement effect active in its owner's trash replaces a friendly unit's death",
     "{source} is in {player}'s trash, where its replacement is active, and was there before {unit}'s death")
step("not-yet-in-trash", "a card that enters the trash with a dying unit was not there before its death: its "
     "replacement active in the trash cannot replace it", "{source} dies with {unit} and enters {player}'s trash "
     "only then: its replacement, active in the trash, cannot replace {unit}'s death")
step("killed-together", "one kill of several units: their deaths are simultaneous",
     "{units} are to be killed at the same time, by one game action")
step("replacement-used-up", "a replacement effect applied as often as it may this turn cannot apply again",
     "{source}'s replacement (\"{times} each turn\") has been applied {count} this turn: it cannot replace "
     "{unit}'s death")


def friendly(s: State, player: str, other: str) -> bool:
    """Two players' objects are friendly: the same player, or teammates (489.8.e, 740.1.a)."""
    return player == other or other in s.teammates(player)


def used_up(m: Riftbound, s: State, x: Permanent) -> bool:
    """Whether ``x``'s "once (N times) each turn" replacement effect has been applied to as
    many events as it may this turn (371.1)."""
    r = m.cards[x.card].replacement
    return r is not None and r.each_turn is not None and s.times_replaced(x.name) >= r.each_turn


def qualifies(m: Riftbound, s: State, x: Permanent, u: Permanent) -> bool:
    """Whether ``u``'s death is an event ``x``'s replacement effect specifies (370.1): its own
    ("If I would die"), or a friendly unit's, with Deathknell where it asks (808.3)."""
    r = m.cards[x.card].replacement
    if r is None:
        return False
    if r.would_die == "self":
        return x.name == u.name
    if r.would_die == "friendly-deathknell" and "Deathknell" not in m.cards[u.card].keywords:
        return False  # the effect checks whether the unit has Deathknell (808.3)
    return friendly(s, x.controller, u.controller)


def applicable(m: Riftbound, s: State, u: Permanent, applied: frozenset[str],
               spent: list[Permanent] | None = None, declined: list[Permanent] | None = None,
               due: list[Permanent] | None = None) -> list[tuple[Permanent, str]]:
    """The replacement effects that could replace ``u``'s death now, each with its source and
    the key that tells it from the others (its source's name, or ``next:UNIT``), leaving out
    those already applied to this event (370.2), those applied as often as they may this turn
    (371.1; added to ``spent`` when it is given) and "you may" ones their controller did not
    choose to apply to it (371.2.a; in ``declined``, or in ``due`` while not chosen yet). The
    model's order: the unit's own "next time", then its own replacement, then the others in
    board order, then those active in a trash in the order their cards went there (370.3)."""
    if m.cards[u.card].type != "unit":
        return []
    out = [(u, f"next:{u.name}")] if u.saved and f"next:{u.name}" not in applied else []
    others = []
    for x, zone, key in [*((x, "board", x.name) for x in s.board),
                         *((x, trash.TRASH, f"trash:{x.name}") for x in trash.sources(m, s))]:
        r = m.cards[x.card].replacement
        if r is None or r.zone != zone or key in applied or not qualifies(m, s, x, u):
            continue
        if used_up(m, s, x):
            if spent is not None:
                spent.append(x)
            continue
        chose = s.chose(x.name, u.name) if m.cards[x.card].replacement.optional else True  # type: ignore[union-attr]
        if not chose:
            listed = due if chose is None else declined
            if listed is not None:
                listed.append(x)
            continue
        (out if key == u.name else others).append((x, key))
    return out + others


@registry.transition("death-replaced", "step", "a replacement effect replaces a unit's death as it happens",
                     "{unit} would die: {replacement} replaces it, and {unit} is healed, exhausted and recalled "
                     "instead (no chain item, nobody responds)")
def death_replaced(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """Heal, exhaust and recall the unit (369.1): it stays on the board, and its own death
    triggers are removed (808.1.d.1)."""
    u = s.permanent(p["unit"])
    assert u is not None
    s = with_permanent(s, u.name, damage=0, exhausted=True, location="base", designation=None,
                       saved=u.saved and not p["next"])
    source = replacement_source(m, s, p)
    r = m.cards[source.card].replacement if source is not None and not p["next"] else None
    if source is not None and r is not None and r.each_turn is not None:  # counted this turn (371.1)
        counts = dict(s.replaced)
        counts[source.name] = counts.get(source.name, 0) + 1
        s = replace(s, replaced=tuple(sorted(counts.items())))
    for tr in m.triggers_of(u.card, "leave", u, s):
        t.note("death-trigger-removed", s, {"unit": u.name, "item": tr.name})
    return s


def replacement_source(m: Riftbound, s: State, p: Params) -> Permanent | None:
    """The source of the replacement a ``death-replaced`` step applies: a permanent on the board,
    or (``trash``: its owner) a card in that player's trash, as its stand-in."""
    if "trash" in p:
        return next((x for x in trash.sources(m, s) if (x.name, x.controller) == (p["source"], p["trash"])), None)
    return s.permanent(p.get("source", ""))


def replace_deaths(m: Riftbound, s: State, t: Trace, dead: list[Permanent],
                   applied: frozenset[str] = frozenset(), step: str = "kill") -> tuple[State, list[Permanent]]:
    """Apply replacement effects to deaths about to happen (370.1.c), one event at a time
    (373): the state after them, and the units that still die. A replacement that kills its
    own source instead kills it the way of the death it replaced (``step``, as :func:`die`)."""
    still: list[Permanent] = []
    replaceable = [u.name for u in dead if applicable(m, s, u, applied)]
    if len(replaceable) > 1:
        t.note("simultaneous-deaths-in-order", s, {"units": ", ".join(replaceable)})
    for u in dead:
        if s.permanent(u.name) is None:  # already killed in another's place
            continue
        spent: list[Permanent] = []
        declined: list[Permanent] = []
        due: list[Permanent] = []
        for x in dead:  # 370.3: a card entering the trash with the unit was not there before its death
            r = m.cards[x.card].replacement
            if x.name != u.name and r is not None and r.zone == trash.TRASH and qualifies(m, s, x, u):
                t.note("not-yet-in-trash", s, {"source": x.card, "unit": u.name, "player": x.controller})
        found = applicable(m, s, u, applied, spent, declined, due)
        for x in spent:
            limit = m.cards[x.card].replacement.each_turn  # type: ignore[union-attr]
            t.note("replacement-used-up", s, {"source": x.name, "unit": u.name, "times": _times(limit),
                                              "count": _times(s.times_replaced(x.name))})
        for step_, chosen in (("replacement-declined", declined), ("replacement-choice-due", due)):
            for x in chosen:
                t.note(step_, s, {"player": x.controller, "source": x.name, "unit": u.name})
        if not found:
            still.append(u)
            s = _choices_used(s, u)
            continue
        if len(found) > 1:
            t.note("replacement-order", s, {"player": u.controller, "unit": u.name,
                                            "order": ", ".join(_label(u, x, k) for x, k in found)})
        source, key = found[0]
        next_time = key.startswith("next:")
        card = m.cards[source.card]
        in_trash = key.startswith("trash:")
        if not next_time and card.replacement is not None and card.replacement.would_die == "friendly-deathknell":
            t.note("deathknell-checked", s, {"unit": u.name, "source": source.name})
        where = {"trash": source.controller} if in_trash else {}
        if in_trash:
            t.note("replacement-in-trash", s, {"source": source.name, "player": source.controller, "unit": u.name})
        s = t.step("death-replaced", s, {"unit": u.name, "replacement": _label(u, source, key), "next": next_time,
                                         "source": source.name, **where})
        if in_trash and card.replacement is not None and card.replacement.banish_this:
            s = t.step("banished-from-trash", s, {"card": source.name, "player": source.controller, "unit": u.name})
        if not next_time and card.replacement is not None and card.replacement.kill_this:
            victim = s.permanent(source.name)
            if victim is not None:
                # a kill another replacement replaces in turn never happens (370.2): "would be"
                replaced = bool(applicable(m, s, victim, applied | {key}))
                t.note("would-be-killed-instead" if replaced else "killed-instead", s,
                       {"source": source.name, "unit": u.name})
                s, gone = replace_deaths(m, s, t, [victim], applied | {key}, step)
                s = die(m, s, t, gone, step)
        s = _choices_used(s, u)
    return s, still


def _choices_used(s: State, u: Permanent) -> State:
    """The state without the choices made for ``u``'s death, now handled: a choice is for one
    event (371.2.a)."""
    if not s.replacement_choices:
        return s
    return replace(s, replacement_choices=tuple(c for c in s.replacement_choices if c[1] != u.name))


def choice_due(m: Riftbound, s: State, taken: list[Transition]) -> dict[str, str] | None:
    """The "you may" replacement choice a death about to happen needs (371.2.a): taking the
    automatic transitions ``taken`` (those enabled now) as they would go, the first death a
    "you may" replacement effect could replace before its controller chose, as the
    ``player``, ``source`` and ``unit`` of the choice; None when no choice is due."""
    for t in taken:
        if t.bindings is None or t.effect is None:
            continue
        for params in t.bindings(s):
            if t.failing(s, params):
                continue
            node = TraceNode(t, dict(params), s, s)
            node.after = t.effect(s, node.params, Trace(m, node))
            found = next((n for n in node.walk() if n.name == "replacement-choice-due"), None)
            if found is not None:
                return {k: found.params[k] for k in ("player", "source", "unit")}
    return None


@registry.check("no-replacement-choice-due", "nothing else happens while a \"you may\" replacement's controller "
                "chooses whether to apply it to a death about to happen", tempting=False)
def no_choice_due(m: Riftbound, s: State, p: Params) -> bool:
    return m.replacement_choice_due(s) is None


def choice_bindings(m: Riftbound, s: State) -> Iterator[dict[str, str]]:
    """The choice of a "you may" replacement's controller, when one is due (371.2.a)."""
    due = m.replacement_choice_due(s)
    if due is not None:
        yield due


@registry.check("replacement-choice-due", "a \"you may\" replacement's controller chooses when a death it could "
                "replace is about to happen", tempting=False)
def choice_is_due(m: Riftbound, s: State, p: Params) -> bool:
    due = m.replacement_choice_due(s)
    return due is not None and all(p.get(k) == v for k, v in due.items())


@registry.transition("apply-replacement", "decision", "apply a \"you may\" replacement effect to a death about "
                     "to happen", "{player} applies {source}'s replacement to {unit}'s death",
                     pre=("replacement-choice-due",), bindings=choice_bindings)
def apply_replacement(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return replace(s, replacement_choices=s.replacement_choices + ((p["source"], p["unit"], True),))


@registry.transition("decline-replacement", "decision", "do not apply a \"you may\" replacement effect to a "
                     "death about to happen", "{player} does not apply {source}'s replacement to {unit}'s death",
                     pre=("replacement-choice-due",), bindings=choice_bindings)
def decline_replacement(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    return replace(s, replacement_choices=s.replacement_choices + ((p["source"], p["unit"], False),))


def _times(n: int | None) -> str:
    """"once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(n or 0, f"{n} times")


def _label(u: Permanent, source: Permanent, key: str) -> str:
    if key.startswith("next:"):
        return f"{u.name}'s next death"
    return f"{source.name}'s replacement" + (f" (in {source.controller}'s trash)" if key.startswith("trash:")
                                             else "")


@registry.transition("banished-from-trash", "step", "\"banish me from your trash instead\": the replacement's "
                     "source is banished from its owner's trash", "{card} is banished from {player}'s trash in "
                     "place of {unit}'s death")
def banished_from_trash(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The source of a replacement active in the trash leaves it for banishment (370.3)."""
    return trash.banish(s, p["card"], p["player"])


def die(m: Riftbound, s: State, t: Trace, dead: list[Permanent], step: str = "kill") -> State:
    """Units (or gear) die: their death triggers go on the chain, noting where they were
    (808.1.d.2, 323.4), then they go to the trash. ``step`` records each death: ``kill`` while a
    chain item resolves (its cleanup outstanding, 321.1), ``killed-by-cleanup`` for lethal damage
    in a cleanup, ``killed-as-cost`` for a cost paid as an item is finalized."""
    if not dead:
        return s
    s = fire(s, t, [(u.controller, tr, u.card) for u in dead for tr in m.triggers_of(u.card, "leave", u, s)],
             "death-triggers",
             [u.name for u in dead for _ in m.triggers_of(u.card, "leave", u, s)])
    names = {u.name for u in dead}
    s = trash.to_trash(m, replace(s, board=tuple(x for x in s.board if x.name not in names)),
                       [(u.card, u.controller) for u in dead])
    for u in dead:
        t.note(step, s, {"unit": u.name})
    return attaching.detach_from_gone(s, t) if m.equipment else s


@effects.instruction("kill")
def kill(m: Riftbound, s: State, t: Trace, item: Item, e: Effect, step: str = "kill") -> State:
    """Kill a unit (428.1): unless a replacement effect replaces its death, its death triggers
    go on the chain and it goes to the trash; a cleanup follows (321.1 while the item resolves;
    ``step`` is ``killed-as-cost`` for a unit killed to pay a cost, see :func:`die`)."""
    u = effects.unit_of(s, t, item, e)
    if u is None:
        return s
    s, dead = replace_deaths(m, s, t, [u], step=step)
    return needs_cleanup(die(m, s, t, dead, step))


@effects.instruction("kill-together")
def kill_together(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Kill several units with one game action (``kill: [A, B]``, "kill up to two units"): their
    deaths are simultaneous events (370.1.a.2), replaced one at a time (373), their death triggers
    put on the chain together in turn order (383.3.d.1); one no longer on the board is skipped."""
    units = [u for u in (effects.unit_of(s, t, item, ("kill", name)) for name in e[1]) if u is not None]
    if not units:
        return s
    if len(units) > 1:
        t.note("killed-together", s, {"units": ", ".join(u.name for u in units)})
    s, dead = replace_deaths(m, s, t, units)
    return needs_cleanup(die(m, s, t, dead))


# "The next time it would die this turn, heal it, exhaust it and recall it instead".
save = effects.unit_change("save", "next-death-replaced", saved=True)
