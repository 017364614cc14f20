"""The Beginning Phase's Beginning Step (315.2.a): "At the start of Beginning Phase game effects
take place", before the Scoring Step (315.2.b). The effect the model plays there is Temporary's
(816): "At the start of this permanent's controller's Beginning Phase, before scoring, kill this"
(816.1.b), a triggered ability whose condition is its controller's Beginning Phase starting
(816.1.c), once however many instances the permanent has (816.2.a).

A scenario that starts the turn in the Beginning Phase (``start: {phase: beginning}``) whose turn
player controls a permanent with Temporary has the Beginning Step outstanding before the Scoring
Step: its Temporary triggers go on the chain in board order, the chain resolves (each kill a
death like any other, 428: replacement effects and Deathknell apply), the cleanup that follows the
open state takes control of a battlefield from a player whose units there all died (323.6), and
only then does the turn player hold the battlefields they still control (the hold task waits for
the chain, :data:`kb.timing.models.riftbound.state.DEFERRED_TASKS`). Another player's Temporary
permanents do not trigger: it is not their Beginning Phase.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import Trigger
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import State
from kb.timing.models.riftbound.triggers import Fired, fire

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step = registry.transition, registry.step

step("temporary-triggers", "Temporary triggers as its controller's Beginning Phase starts, before scoring",
     "{item} triggers as {when}")


def temporary_trigger(unit: str) -> Trigger:
    """Temporary's triggered ability on the permanent ``unit`` (its name on the board): kill it (816.1.b)."""
    return Trigger("beginning", f"{unit}'s Temporary", (("kill", unit),))


def temporary_permanents(m: Riftbound, s: State, player: str) -> list[str]:
    """The permanents ``player`` controls with Temporary, in board order."""
    return [u.name for u in s.board if u.controller == player
            and "Temporary" in getattr(m.cards.get(u.card), "keywords", ())]


def beginning_tasks(m: Riftbound, s: State) -> tuple[str, ...]:
    """The tasks the Beginning Phase starts with: the Beginning Step when the turn player controls
    a permanent with Temporary (its only effect the model plays), then the Scoring Step (315.2)."""
    return ("beginning-step", "hold") if temporary_permanents(m, s, s.turn_player) else ("hold",)


def _beginning_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if s.ready_task() == "beginning-step":
        yield {"player": s.turn_player}


@transition("beginning-step", "automatic", "the Beginning Phase starts: its Beginning Step's effects take place",
            "{player}'s Beginning Phase starts", bindings=_beginning_bindings)
def beginning_step(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The Beginning Step (315.2.a.1): the turn player's Temporary permanents trigger (816.1.c),
    pending on the chain in board order, before the Scoring Step."""
    s = replace(s, tasks=s.tasks[1:])
    units = temporary_permanents(m, s, s.turn_player)
    fired: Fired = [(s.turn_player, temporary_trigger(u), s.permanent(u).card) for u in units]  # type: ignore[union-attr]
    return fire(s, t, fired, "temporary-triggers", units)
