"""XP (728–733) and the abilities it makes active: Hunt (823) and Level (824).

XP is each player's own (732), gained and spent by instructions: ``{gain_xp: N}`` "gain N XP"
(730.1) and ``{spend_xp: N}`` "spend N XP" (730.2), both of the resolving item's controller;
a player who has less than N XP cannot spend N, and the instruction is not followed
(359.3.e.6). Hunt X is "When I Conquer or Hold, my controller gains X XP" (823.1.c.1): two
triggered abilities of the unit, on the chain like every conquer or hold effect (471.2). A
Level ability ("[Level N] > [Text]", 824.1.b.1) is active while its card's controller has N
or more XP (824.1.c) and Inactive as soon as they have less (824.1.d): each change of a
player's XP that crosses a threshold of a permanent they control says so, citing the rule.
A triggered Level ability is evaluated only while active (727.1.c.1,
:func:`kb.timing.models.riftbound.triggers.active`); a passive one gives its Might and
keywords while active (727.1.c.2, :meth:`kb.timing.models.riftbound.model.Riftbound.might`).
"""

from __future__ import annotations

from kb.timing.models.frozen import replace
from typing import TYPE_CHECKING

from kb.timing.engine import Trace
from kb.timing.models.riftbound.cards import Card, Effect
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.effects import instruction
from kb.timing.models.riftbound.state import Item, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

step = registry.step
step("gains-xp", "gain XP: the value of XP marked on the player rises", "{player} gains {n} XP ({xp} in all)")
step("spends-xp", "spend XP: the value of XP marked on the player falls", "{player} spends {n} XP ({xp} left)")
step("xp-not-spent", "a player cannot spend more XP than they have: the instruction is not followed",
     "{player} has {xp} XP: spending {n} cannot be followed, it is ignored")
step("xp-not-shared", "XP is not shared between teammates", "{player}'s XP is their own: {team} gain none")
step("hunt-triggers", "Hunt is a Conquer and a Hold effect: its controller will gain its Hunt Value in XP",
     "{item} is Hunt {n}: \"When I Conquer or Hold, my controller gains {n} XP\"")
step("level-active", "a Level ability becomes Active as its controller reaches its XP",
     "{player} has {xp} XP: {unit}'s Level {level} ability is Active ({text})")
step("level-inactive", "a Level ability becomes Inactive as soon as its controller has less XP",
     "{player} has {xp} XP, less than {level}: {unit}'s Level {level} ability is Inactive ({text})")
step("level-ability-activated", "an activated Level ability is activated while it is Active",
     "{item} is a Level {level} ability, Active as {player} has {xp} XP")
step("level-ability-resolves-inactive", "an activated Level ability on the chain resolves as normal though it has "
     "become Inactive", "{item} resolves as normal: its Level {level} ability became Inactive ({player} has {xp} XP) "
     "after it was added to the chain")
step("level-ability-triggers", "a triggered Level ability is evaluated while it is Active",
     "{item} is a Level {level} ability of {unit}, Active as {player} has {xp} XP")


def with_xp(s: State, player: str, n: int) -> State:
    """``player`` has ``n`` XP marked (729.1); their teammates' stays theirs (732)."""
    counts = dict(s.experience)
    counts[player] = n
    return replace(s, experience=tuple((p, counts[p]) for p in s.players if counts.get(p)))


def level_active(s: State, controller: str, level: int | None) -> bool:
    """Whether a Level ability of ``level`` (None: not a Level ability) is Active for a card
    ``controller`` controls: they have that much XP or more (824.1.c, 824.1.d)."""
    return level is None or s.xp_of(controller) >= level


def _level_texts(card: Card, level: int) -> str:
    """What a card's Level abilities of one threshold are, for the trace."""
    texts = [lv.text for lv in card.levels if lv.xp == level]
    texts += [f"\"{tr.name}\"" for tr in card.triggers if tr.level == level]
    return "; ".join(texts)


def change_xp(m: Riftbound, s: State, t: Trace, player: str, n: int, how: str) -> State:
    """``player`` gains (``n`` > 0) or spends (``n`` < 0) XP, with the step ``how``; then each
    Level ability of a permanent they control whose threshold was crossed turns Active
    (824.1.c) or Inactive (824.1.d), said with its rule."""
    before = s.xp_of(player)
    s = with_xp(s, player, before + n)
    t.note(how, s, {"player": player, "n": abs(n), "xp": before + n})
    if s.teammates(player):
        t.note("xp-not-shared", s, {"player": player, "team": " and ".join(s.teammates(player))})
    for u in s.board:
        card = m.cards.get(u.card)
        if card is None or u.controller != player:
            continue
        for level in card.level_thresholds():
            crossed_up, crossed_down = before < level <= before + n, before + n < level <= before
            if crossed_up or crossed_down:
                t.note("level-active" if crossed_up else "level-inactive", s,
                       {"player": player, "xp": before + n, "unit": u.name, "level": level,
                        "text": _level_texts(card, level)})
    return s


@instruction("gain_xp")
def gain_xp(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """"Gain N XP": the item's controller increases the XP marked on them (730.1); no limit (733)."""
    return change_xp(m, s, t, item.controller, e[1], "gains-xp")


@instruction("spend_xp")
def spend_xp(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """"Spend N XP": the item's controller reduces the XP marked on them (730.2), when they have
    N; otherwise the instruction cannot be followed (359.3.e.6)."""
    have = s.xp_of(item.controller)
    if have < e[1]:
        t.note("xp-not-spent", s, {"player": item.controller, "xp": have, "n": e[1]})
        return s
    return change_xp(m, s, t, item.controller, -e[1], "spends-xp")


def _names_xp(effects: tuple[Effect, ...]) -> bool:
    return any(e[0] in ("gain_xp", "spend_xp") or (e[0] == "create" and _names_xp(e[2])) for e in effects)


def uses_xp(card: Card) -> bool:
    """Whether any instruction of ``card`` (its own, Legion text, triggered or activated abilities,
    their reflexive triggers) gains or spends XP."""
    return any(_names_xp(effects) for effects in (card.effects, card.legion, *(tr.effects for tr in card.triggers),
                                                  *(a.effects for a in card.abilities)))


def granted_keywords(m: Riftbound, s: State, u: Permanent) -> frozenset[str]:
    """The keywords ``u``'s Active Level abilities give it (824.1.b.1)."""
    card = m.cards.get(u.card)
    if card is None or not card.levels:
        return frozenset()
    return frozenset(k for lv in card.levels if level_active(s, u.controller, lv.xp) for k in lv.keywords)


def level_might(m: Riftbound, s: State, u: Permanent) -> int:
    """The Might ``u``'s Active Level abilities give it (824.1.b.1, 727.1.c.2)."""
    card = m.cards.get(u.card)
    if card is None or not card.levels:
        return 0
    return sum(lv.might for lv in card.levels if level_active(s, u.controller, lv.xp))
