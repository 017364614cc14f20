"""Riftbound scoring (467–472): a player scores a battlefield by conquering it (gaining
control, 469.1) or by holding it in their Beginning Phase (469.2), once per battlefield per
turn (470). Scoring gains the point first (471.1; a conquer for the Final Point draws a card
instead unless every battlefield was scored this turn, 471.1.b.1), then the score abilities
trigger (471.2): the units' "when I conquer/hold" and the battlefield's own "when you
conquer/hold here", pending on the chain. A cleanup in which a player has the Victory Score
and more points than any opponent ends the game (323.1, 472).

The model's turn may start in the Beginning Phase's Scoring Step (``start: {phase:
beginning}``): the turn player holds every battlefield they control, the chain those holds
start resolves, and the Main Phase begins (the Channel and Draw Phases between: the turn
player draws 1, 315.4.b; runes channeled are not part of the timing).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.battlefields import battlefield_card
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.state import State, drawn_plus
from kb.timing.models.riftbound.triggers import Fired, fire

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

transition, step = registry.transition, registry.step

step("gains-point", "scoring gains the player a point", "{player} gains a point ({points} in all)")
step("final-point-draws", "a conquer for the Final Point without every battlefield scored draws a card instead",
     "{player} has not scored every battlefield this turn: draws 1 instead of the Final Point")
step("final-point-held", "the Final Point gained by a hold: the restrictions on a conquer's Final Point do not apply",
     "{player} gains the Final Point by holding {at}: the restrictions on a conquer's do not apply")
step("scored-once", "a battlefield is scored once per turn", "{player} already scored {at} this turn")
step("score-triggers", "score abilities trigger after the point", "{item} triggers as {when}")
step("game-won", "a cleanup finds a player with the Victory Score and more points than any opponent",
     "{player} wins the game with {points} points")
step("team-gains-point", "a point is gained by the scorer's whole team", "{team} have {points} points: points are "
     "shared by a team")
step("team-wins", "teammates win together", "{team} win the game together")
step("teammate-battlefield-disqualified", "a battlefield a teammate controlled in the Scoring Step is not scored "
     "by conquering it", "{player} cannot score {at} by conquering it this turn: a teammate of the turn player "
     "controlled it in the Scoring Step")


def points_of(s: State, player: str) -> int:
    """A player's points."""
    return dict(s.points).get(player, 0)


def with_points(s: State, player: str, n: int) -> State:
    """``player`` has ``n`` points, and so has their team: points are shared (489.8.d.1)."""
    counts = dict(s.points)
    for p in (player, *s.teammates(player)):
        counts[p] = n
    return replace(s, points=tuple((p, counts[p]) for p in s.players if p in counts))


def score(m: Riftbound, s: State, t: Trace, player: str, at: str, how: str, step: str | None = None) -> State:
    """``player`` scores ``at`` by ``how`` ("conquer" or "hold"): the point, then the triggers.
    ``step`` names the step that records the score when it is not ``how`` (``combat-conquer``:
    a conquer after combat, cited by 466.5.d, not by the non-combat showdown's 348.2.a.1)."""
    if (player, at) in s.scored:
        t.note("scored-once", s, {"player": player, "at": at})
        return s
    if how == "conquer" and at in s.disqualified and (player == s.turn_player or player in s.teammates(s.turn_player)):
        t.note("teammate-battlefield-disqualified", s, {"player": player, "at": at})
        return s
    s = replace(s, scored=s.scored + ((player, at),))
    t.note(step or how, s, {"player": player, "at": at})
    have = points_of(s, player)
    every = {b.name for b in s.battlefields} - set(s.disqualified) <= {a for p, a in s.scored if p == player}
    if how == "conquer" and have + 1 >= s.victory_score and not every:
        s = t.step("final-point-draws", replace(s, drawn=drawn_plus(s, player, 1)), {"player": player})
    else:
        s = with_points(s, player, have + 1)
        t.note("gains-point", s, {"player": player, "points": have + 1})
        if how == "hold" and have + 1 >= s.victory_score:
            t.note("final-point-held", s, {"player": player, "at": at})
        if s.teammates(player):
            t.note("team-gains-point", s, {"team": team_name(s, player), "points": have + 1})
    fired: Fired = [(player, tr, u.card) for u in s.units_at(at, player) for tr in m.triggers_of(u.card, how, u, s)]
    units = [u.name for u in s.units_at(at, player) for _ in m.triggers_of(u.card, how, u, s)]
    if battlefield_card(m, s, at) is not None:  # the battlefield's own, when it is a card (none on a token, 652.2.a)
        fired += [(player, tr, at) for tr in m.triggers_of(at, how)]
        units += [at for _ in m.triggers_of(at, how)]
    return fire(s, t, fired, "score-triggers" if how == "hold" else "conquer-triggers", units)


def team_name(s: State, player: str) -> str:
    """A player's team as it reads in a sentence: "Ann and Cy"."""
    return " and ".join((player, *s.teammates(player)))


def winner(s: State) -> tuple[str, int] | None:
    """The player who wins in a cleanup now (323.1, 194.2): the Victory Score and more points
    than every opponent (a teammate is no opponent: teammates share points, 489.8.d)."""
    if s.winner is not None or not s.points:
        return None
    ranked = sorted(s.points, key=lambda pn: -pn[1])
    best = ranked[0]
    rivals = [n for p, n in ranked[1:] if p not in s.teammates(best[0])]
    if best[1] >= s.victory_score and (not rivals or rivals[0] < best[1]):
        return best
    return None


def check_victory(s: State, t: Trace) -> State:
    """Cleanup step 1 (323.1): a player with the Victory Score and more points than any opponent
    wins, and the game is over (nothing on the chain or outstanding happens any more)."""
    won = winner(s)
    if won is None:
        return s
    s = replace(s, winner=won[0], phase="over", priority=None, focus=None, chain=(), tasks=(), showdown=None,
                combat=None)
    t.note("game-won", s, {"player": won[0], "points": won[1]})
    if s.teammates(won[0]):
        t.note("team-wins", s, {"team": team_name(s, won[0])})
    return s


def _hold_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if s.ready_task() == "hold":
        yield {"player": s.turn_player}


@transition("hold-battlefields", "automatic", "the turn player holds the battlefields they control",
            "{player} holds the battlefields they control", bindings=_hold_bindings)
def hold_battlefields(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """The Scoring Step (315.2.b): each battlefield the turn player controls is held, in listing order."""
    s = replace(s, tasks=s.tasks[1:])
    allies = s.teammates(s.turn_player)
    if allies:  # what the turn player's team cannot conquer this turn (469.1.a, 489.8.b)
        s = replace(s, disqualified=tuple(b.name for b in s.battlefields if b.controller in allies))
    for bf in s.battlefields:
        if bf.controller == s.turn_player:
            s = score(m, s, t, s.turn_player, bf.name, "hold")
    if winner(s) is not None and "cleanup" not in s.tasks:
        s = replace(s, tasks=s.tasks + ("cleanup",))  # the cleanup that finds the winner (323.1)
    return s


def _main_bindings(m: Riftbound, s: State) -> Iterator[dict[str, Any]]:
    if s.phase == "beginning" and not s.chain and not s.tasks:
        yield {"player": s.turn_player}


@transition("main-phase-begins", "automatic", "the Beginning Phase is over: the Main Phase begins",
            "{player}'s Main Phase begins", bindings=_main_bindings)
def main_phase_begins(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """After the Beginning Phase, the Channel and Draw Phases (the turn player draws 1), then the Main Phase."""
    s = replace(s, phase="main", priority=None)
    return t.step("draw", replace(s, drawn=drawn_plus(s, s.turn_player, 1)), {"player": s.turn_player, "n": 1})
