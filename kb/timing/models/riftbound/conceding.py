"""Conceding (649–652): a player leaves the game in progress, at any time (650).

- With one other player left (or, in 2v2, the other team: the conceding player's teammate loses
  and is removed too, 651.4), the remaining player wins (651.1) and the game is over.
- Otherwise the player is removed (651.2, 652): they make no more choices (651.3); the
  permanents, runes and facedown cards they control or own are banished (652.1); the cards they
  own leave the game, from their hand, trash and the chain (652.3); the spells and abilities they
  control are countered (652.4); a battlefield they controlled or contested is no longer theirs.
  Then play proceeds (652.5): if they had priority during a chain, the next player in turn
  order receives it (652.5.c.1), and if every player left has now passed in sequence, the
  newest item resolves (652.5.c.2); if they had focus in a showdown, the next player receives
  it (652.5.b.1), and if every player left has passed focus, the showdown ends (652.5.b.2).
  If they were the turn player, play proceeds in turn order to the next player's turn
  (652.5.a.1): the model follows one turn, so it stops there, saying what was left unplayed.

A concession is a scenario step (``concede: PLAYER``), never one of the options a decision
lists: every player may concede in every state, and listing it would add an option to every
decision. The model does not follow a combat whose attacker or defender concedes while the
game goes on (its sides would name a player who left; refused as the step is read). The
battlefields a player removed contributed (``contributed_by``) are replaced with token
battlefields with no abilities, what is there staying (652.2:
:mod:`kb.timing.models.riftbound.battlefields`); what the state does not know the owner of (a
card in a trash whose abilities do not work there) stays where it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.engine import Params, Trace
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import attaching, chain
from kb.timing.models.riftbound.battlefields import remove_contributed
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.combat import cleanup_if_due
from kb.timing.models.riftbound.state import State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

step = registry.step

step("team-concedes", "a player's teammates lose with them and are removed too", "{team} lose and leave the game")
step("wins-by-concession", "only one player (or team) is left: they win", "{player} is the only one left: "
     "{player} wins")
step("player-removed", "more than one player remains: the player is removed and the game continues",
     "{others} remain: {player} is removed from the game, which continues")
step("banished-on-removal", "the permanents, runes and facedown cards of a player removed are banished",
     "{player}'s {what} are banished")
step("cards-removed-on-removal", "the cards a player removed owns leave the game", "{player}'s {what} leave the game")
step("countered-on-removal", "the spells and abilities a player removed controls are countered",
     "{items} {verb} countered: {player} has left the game")
step("battlefields-on-removal", "a player removed no longer controls or contests a battlefield",
     "{player} no longer controls or contests {at}")
step("priority-on-removal", "the player removed had priority: the next player receives it",
     "{player} had priority: {next} receives it")
step("all-passed-on-removal", "every player left has passed priority in sequence: the newest item resolves",
     "every player left ({players}) has passed in sequence: {item} resolves")
step("focus-on-removal", "the player removed had focus: the next player receives it",
     "{player} had focus: {next} receives focus")
step("focus-passed-on-removal", "every player left has passed focus in sequence: the showdown ends",
     "every player left ({players}) has passed focus: the showdown at {at} ends")
step("turn-passes-on-removal", "the turn player left: play proceeds to the next player's turn",
     "{player} was the turn player: play proceeds in turn order to {next}'s turn{left}")


@registry.check("game-in-progress", "the game is over: nobody is left to concede it")
def game_in_progress(m: Riftbound, s: State, p: Params) -> bool:
    return s.winner is None and s.phase != "over" and p["player"] in s.players


@registry.transition("concede", "decision", "concede the game", "{player} concedes", pre=("game-in-progress",))
def concede(m: Riftbound, s: State, p: Params, t: Trace) -> State:
    """A player concedes (650) and is removed from the game (651): the one player left wins (651.1),
    or more remain and the removal's steps are followed (651.2, 652: cited only then)."""
    who = p["player"]
    leaving = (who, *s.teammates(who))
    if len(leaving) > 1:  # 2v2: the team loses (651.4, 489.6.a.1)
        t.note("team-concedes", s, {"team": " and ".join(leaving)})
    left = tuple(x for x in s.players if x not in leaving)
    if len(left) == 1 or s.teams:  # one player, or one team, is left (651.1, 489.6.a)
        s = replace(s, winner=left[0], phase="over", priority=None, focus=None, passes=0, chain=(), tasks=(),
                    showdown=None, combat=None, opened_by=None, removed=s.removed + leaving)
        t.note("wins-by-concession", s, {"player": " and ".join(left)})
        return s
    return remove(m, s, t, who)


def passed_in_sequence(s: State, holder: str | None, passes: int) -> list[str]:
    """The players who passed in sequence just before ``holder`` received (priority or focus)."""
    if holder is None or holder not in s.players or not passes:
        return []
    i = s.players.index(holder)
    return [s.players[(i - k) % len(s.players)] for k in range(1, passes + 1)]


def next_left(s: State, who: str, left: tuple[str, ...]) -> str:
    """The next player in turn order after ``who`` who is still in the game."""
    i = s.players.index(who)
    return next(p for p in s.players[i + 1:] + s.players[:i] if p in left)


def remove(m: Riftbound, s: State, t: Trace, who: str) -> State:
    """The removal of a player from a game that goes on (652)."""
    left = tuple(x for x in s.players if x != who)
    passed = [x for x in passed_in_sequence(s, s.priority, s.passes) if x != who]
    focus_passed = ([x for x in passed_in_sequence(s, s.focus, s.showdown.passes) if x != who]
                    if s.showdown is not None else [])
    turn_player = s.turn_player
    nxt = next_left(s, who, left)
    t.note("player-removed", s, {"player": who, "others": ", ".join(left)})

    gone = [u.name for u in s.board if u.controller == who]
    runes = [r for r in s.runes if r[0] == who and (r[1] or r[2])]
    facedown = [f for f in s.facedown if f[1] == who]
    what = [", ".join(gone)] if gone else []
    what += ["runes"] if runes else []
    what += [f"facedown {', '.join(f[0] for f in facedown)}"] if facedown else []
    s = replace(s, board=tuple(u for u in s.board if u.controller != who),
                runes=tuple(r for r in s.runes if r[0] != who),
                rune_pools=tuple(r for r in s.rune_pools if r[0] != who),
                facedown=tuple(f for f in s.facedown if f[1] != who),
                replacement_choices=tuple(c for c in s.replacement_choices if c[1] not in gone))
    if what:
        t.note("banished-on-removal", s, {"player": who, "what": " and ".join(what)})
    if m.equipment:  # another player's gear attached to a unit banished with them detaches (719.5)
        s = attaching.detach_from_gone(s, t)

    countered = [i for i in s.chain if i.controller == who]
    if countered:
        s = replace(s, chain=tuple(i for i in s.chain if i.controller != who))
        names = [i.name for i in countered]
        t.note("countered-on-removal", s, {"items": ", ".join(names), "player": who,
                                           "verb": "is" if len(names) == 1 else "are"})

    hand = s.hand(who)
    theirs = {c for c, owner in s.owners if owner == who}
    trash = tuple(c for c in s.trash if c not in theirs)
    cards = []
    cards += [f"hand ({len(hand)} cards)" if hand else "hand (empty)"] if hand is not None else ["hand"]
    cards += [f"trash cards {', '.join(sorted(theirs))}"] if theirs else []
    cards += [f"countered {', '.join(i.card for i in countered if i.card)}"] if any(i.card for i in countered) else []
    s = replace(s, players=left, hands=tuple(h for h in s.hands if h[0] != who), trash=trash,
                owners=tuple(o for o in s.owners if o[1] != who), banished=tuple(b for b in s.banished if b[1] != who),
                drawn=tuple(d for d in s.drawn if d[0] != who), points=tuple(x for x in s.points if x[0] != who),
                scored=tuple(x for x in s.scored if x[0] != who),
                finalized=tuple(x for x in s.finalized if x[0] != who),
                played=tuple(x for x in s.played if x[0] != who), removed=s.removed + (who,))
    t.note("cards-removed-on-removal", s, {"player": who, "what": ", ".join(cards)})

    s = remove_contributed(m, s, t, who)  # the battlefields they contributed (652.2)
    held = [b.name for b in s.battlefields if who in (b.controller, b.contested_by)]
    if held:
        s = replace(s, battlefields=tuple(replace(b, controller=None if b.controller == who else b.controller,
                                                  contested_by=None if b.contested_by == who else b.contested_by)
                                          for b in s.battlefields))
        t.note("battlefields-on-removal", s, {"player": who, "at": ", ".join(held)})

    if who == turn_player:  # 652.5.a.1: the next player's turn; the model follows one turn
        unplayed = [i.name for i in s.chain]
        s = replace(s, phase="over", priority=None, focus=None, passes=0, chain=(), tasks=(), showdown=None,
                    combat=None, opened_by=None)
        t.note("turn-passes-on-removal", s, {"player": who, "next": nxt, "left": (
            f" (the model follows one turn and stops here; not followed: {', '.join(unplayed)} on the chain)"
            if unplayed else " (the model follows one turn and stops here)")})
        return s

    if not s.chain and countered:  # the chain is gone with their items: the state opens (340.2)
        s = replace(s, priority=None, passes=0, opened_by=None)
        chain.open_state(s, t)
    elif s.chain:
        priority = s.priority
        if priority == who:
            priority = nxt
            s = replace(s, priority=nxt)
            t.note("priority-on-removal", s, {"player": who, "next": nxt})
        s = replace(s, passes=len(passed))
        if priority is not None and not s.pending and s.passes >= len(s.players):
            t.note("all-passed-on-removal", s, {"players": ", ".join(s.players), "item": s.chain[-1].name})

    if s.showdown is not None:
        if s.focus == who:
            s = replace(s, focus=nxt, priority=nxt if s.priority in (who, None) and not s.chain else s.priority)
            t.note("focus-on-removal", s, {"player": who, "next": nxt})
        s = replace(s, showdown=replace(s.showdown, passes=len(focus_passed)))
        if not s.chain and s.showdown.passes >= len(s.players):
            t.note("focus-passed-on-removal", s, {"players": ", ".join(s.players), "at": s.showdown.battlefield})
            return t.step("showdown-closes", s, {"at": s.showdown.battlefield})
    elif s.priority == who:
        s = replace(s, priority=None)
    if not s.chain:
        s = cleanup_if_due(m, s, t, "open-state-cleanup")
    return s
