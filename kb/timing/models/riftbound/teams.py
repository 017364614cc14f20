"""Riftbound's modes of play with teammates (2v2, 489) as far as the timing needs them.

- Four players in two teams, turn order alternating teams (489.5.c, 489.5.c.1): a scenario's
  players name their ``team``; a state lists ``teams``.
- Points are shared by a team (489.8.d): a point either teammate scores is the team's, and
  teammates win together (489.6.a) when the team has the Victory Score (11 in 2v2, 489.3) and
  more points than the other team.
- Battlefields a teammate of the turn player controlled in the Beginning Phase's Scoring Step
  are disqualified from being scored through conquer by the turn player's team that turn
  (469.1.a, 489.8.b); the Final Point's "every battlefield" leaves them out (489.8.g.1).
  A scenario that starts in the Main Phase takes the control it starts with as the control of
  that Scoring Step.
- "Friendly" includes a teammate's objects (489.8.e): a teammate's "if a friendly unit would die"
  replaces your unit's death (:mod:`kb.timing.models.riftbound.replacements`).
- Battlefields where a teammate has units are invalid destinations for your units' moves of all
  kinds (447.2.b); a Standard Move is issued only to your own units (489.8.c.2, 144.2).

Priority and focus pass among all four players in turn order as in any game (a teammate is
a player like any other there); inviting a teammate to play on your turn with your own
priority (316.5.b.1, 489.8.a) is not modelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from kb.timing.engine import FormatError, Params, Violation
from kb.timing.fields import text
from kb.timing.models.riftbound.checks import moved_units
from kb.timing.models.riftbound.citations import cite, registry
from kb.timing.models.riftbound.state import State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

TEAM_VICTORY_SCORE = 11  # 2v2 (489.3)


def read_teams(players: tuple[str, ...], extra: Mapping[str, Mapping[str, Any]]) -> tuple[tuple[str, ...], ...]:
    """The teams a scenario's players name (``{name: Ann, team: red}``), in turn order: none,
    or two teams of two whose turns alternate (489.2, 489.5.c.1)."""
    named = {p: text(extra[p]["team"], f"players.{p}.team") for p in players if extra.get(p, {}).get("team") is not None}
    if not named:
        return ()
    if len(named) != len(players) or len(players) != 4:
        without = [p for p in players if p not in named]
        raise FormatError("a mode of play with teams is 2v2: four players, each with a team (489.1, 489.2)",
                          f"players.{without[0]}" if without and len(players) == 4 else "players")
    teams: dict[str, list[str]] = {}
    for p in players:
        teams.setdefault(named[p], []).append(p)
    for team, members in teams.items():
        if len(members) != 2:
            raise FormatError(f"2v2 is two teams of two (489.2): team {team!r} has {len(members)} "
                              f"player{'s' if len(members) > 1 else ''} ({', '.join(members)})",
                              f"players.{members[-1]}.team")
    out = tuple(tuple(t) for t in teams.values())
    if team_order_broken(players, out):
        raise FormatError("turn order alternates teams: the first player, an opponent, the first player's "
                          "teammate, then the opponent's teammate (489.5.c.1)", "players")
    return out


def shared_points(players: tuple[str, ...], teams: tuple[tuple[str, ...], ...],
                  points: tuple[tuple[str, int], ...]) -> tuple[tuple[str, int], ...]:
    """Points as given for players, each team's for both teammates (489.8.d.1); teammates
    given different points are refused."""
    given = dict(points)
    for team in teams:
        values = {given[p] for p in team if p in given}
        if len(values) > 1:
            raise FormatError(f"{' and '.join(team)} are teammates: they have the same points (489.8.d.1)",
                              f"players.{team[1]}.points")
        if values:
            shared = values.pop()
            given.update((p, shared) for p in team)
    return tuple((p, given[p]) for p in players if p in given)


def team_order_broken(players: tuple[str, ...], teams: tuple[tuple[str, ...], ...]) -> bool:
    """Whether teams are not two of two, or turn order does not alternate them (489.5.c)."""
    if not teams:
        return False
    if sorted(len(t) for t in teams) != [2, 2] or {p for t in teams for p in t} != set(players):
        return True
    team_of = {p: i for i, t in enumerate(teams) for p in t}
    return any(team_of[players[i]] == team_of[players[(i + 1) % 4]] for i in range(4))


def violations(s: State) -> list[Violation]:
    """Why a state with teams cannot occur: teams not alternating, or teammates' points apart."""
    out: list[Violation] = []
    if not s.teams:
        return out
    if team_order_broken(s.players, s.teams):
        out.append(Violation("teams are two of two whose turns alternate", cite("state.team-turn-order"), "teams"))
    points = dict(s.points)
    for team in s.teams:
        if len({points.get(p, 0) for p in team}) > 1:
            out.append(Violation(f"{' and '.join(team)} are teammates but have different points",
                                 cite("state.team-points"), "points"))
    return out


def teammates_here(s: State, player: str, to: str) -> bool:
    """A teammate of ``player`` has units at ``to`` (an invalid destination for ``player``'s units, 447.2.b)."""
    allies = s.teammates(player)
    return bool(allies) and any(u.controller in allies for u in s.units_at(to))


@registry.check("teammate-battlefield", "a battlefield where a teammate has units is no destination for your units")
def teammate_battlefield(m: Riftbound, s: State, p: Params) -> bool:
    for name in moved_units(p):
        u = s.permanent(name)
        if u is not None and teammates_here(s, u.controller, p.get("to", "")):
            return False
    return True
