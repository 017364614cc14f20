"""Magic's legality checks: each a module-level function ``holds(model, state, params)``
registered under its name, cited from ``check.NAME`` in the table of citations (or the entry
it shares with others), with the summary an explanation gives when it forbids a tempting action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kb.timing.engine import Params
from kb.timing.models.mtg.citations import EDITION_2010, registry
from kb.timing.models.mtg.objects import MAIN, Ability, Card, Permanent, State

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic

check = registry.check


def _card(m: Magic, p: Params) -> Card:
    return m.cards[p["card"]]


def _ability(m: Magic, s: State, p: Params) -> Ability | None:
    found = m.find_ability(s, p)
    return found[1] if found else None


def _own_main_empty(s: State, p: Params) -> bool:
    return p["player"] == s.active and s.step in MAIN and not s.stack


@check("has-priority", "only the player with priority may do this")
def has_priority(m: Magic, s: State, p: Params) -> bool:
    return s.priority == p["player"]


@check("not-resolving", "no player has priority while a spell or ability is resolving")
def not_resolving(m: Magic, s: State, p: Params) -> bool:
    return s.resolving is None


@check("in-this-edition", "not a special action of this edition: its keyword came into the rules later")
def in_this_edition(m: Magic, s: State, p: Params) -> bool:
    return m.edition != EDITION_2010


@check("has-suspend", "the card has no suspend", cites="check.has-keyword")
def has_suspend(m: Magic, s: State, p: Params) -> bool:
    return _card(m, p).suspend is not None


@check("has-foretell", "the card has no foretell", cites="check.has-keyword")
def has_foretell(m: Magic, s: State, p: Params) -> bool:
    return _card(m, p).foretell is not None


@check("has-plot", "the card has no plot", cites="check.has-keyword")
def has_plot(m: Magic, s: State, p: Params) -> bool:
    return _card(m, p).plot is not None


@check("could-cast", "a card can be suspended only when it could be cast now: its own timing, and not "
       "while a spell with split second is on the stack")
def could_cast(m: Magic, s: State, p: Params) -> bool:
    """The timing permissions and what forbids casting (702.62c)."""
    return sorcery_timing(m, s, p) and split_second(m, s, p)


@check("during-your-turn", "a card can be foretold only during your own turn")
def during_your_turn(m: Magic, s: State, p: Params) -> bool:
    return p["player"] == s.active


@check("plot-timing", "a card can be plotted only in your own main phase with an empty stack")
def plot_timing(m: Magic, s: State, p: Params) -> bool:
    return _own_main_empty(s, p)


def _exiled_as(m: Magic, s: State, p: Params, how: str) -> bool:
    x = s.exiled(p.get("exile_id"))
    return x is not None and x.owner == p["player"] and x.how == how and x.card == p["card"]


@check("foretold", "that player has no such foretold card in exile", cites="check.exiled-card")
def foretold(m: Magic, s: State, p: Params) -> bool:
    return _exiled_as(m, s, p, "foretold")


@check("plotted", "that player has no such plotted card in exile", cites="check.exiled-card")
def plotted(m: Magic, s: State, p: Params) -> bool:
    return _exiled_as(m, s, p, "plotted")


@check("later-turn", "a foretold or plotted card can be cast only after the turn it was exiled in has ended")
def later_turn(m: Magic, s: State, p: Params) -> bool:
    x = s.exiled(p.get("exile_id"))
    return x is None or x.turn < s.turn


@check("plotted-timing", "a plotted card is cast only in your own main phase with an empty stack, "
       "whatever its type")
def plotted_timing(m: Magic, s: State, p: Params) -> bool:
    return _own_main_empty(s, p)


@check("defender", "the defending player is one of the attacking player's opponents still in the game")
def defender(m: Magic, s: State, p: Params) -> bool:
    return p["defender"] in s.opponents


@check("split-second", "a spell with split second is on the stack: no spells, no abilities but mana "
       "abilities (special actions are still allowed)")
def split_second(m: Magic, s: State, p: Params) -> bool:
    return not any(o.kind == "spell" and o.card in m.cards and m.cards[o.card].split_second for o in s.stack)


@check("in-hand", "the card is not in that player's hand")
def in_hand(m: Magic, s: State, p: Params) -> bool:
    hand = s.hand(p["player"])
    return hand is None or p["card"] in hand


@check("not-a-land", "a land is played, not cast")
def not_a_land(m: Magic, s: State, p: Params) -> bool:
    return "land" not in _card(m, p).types


@check("sorcery-timing", "a noninstant spell only in your main phase with an empty stack")
def sorcery_timing(m: Magic, s: State, p: Params) -> bool:
    return _card(m, p).instant_speed or _own_main_empty(s, p)


@check("targets", "the spell needs a legal target")
def targets(m: Magic, s: State, p: Params) -> bool:
    card = _card(m, p)
    kind = card.target
    if card.targets:  # 1 to N different objects it can target (601.2c)
        ids = [m.resolve_target(s, kind, n, i) for n, i in zip(p.get("targets") or (), p.get("target_ids") or ())]
        return (1 <= len(ids) <= card.targets and None not in ids and len(set(ids)) == len(ids)
                and all(m.target_ok(s, kind, None, None, i) for i in ids))
    return m.target_ok(s, kind, p.get("target"), None, m.resolve_target(s, kind, p.get("target"), p.get("target_id")))


@check("land", "only a land card can be played as a land")
def land(m: Magic, s: State, p: Params) -> bool:
    return "land" in _card(m, p).types


@check("land-timing", "a land only in a main phase with an empty stack")
def land_timing(m: Magic, s: State, p: Params) -> bool:
    return s.step in MAIN and not s.stack


@check("own-turn", "a land only during your own turn")
def own_turn(m: Magic, s: State, p: Params) -> bool:
    return p["player"] == s.active


@check("one-land", "one land per turn: that player has already played a land this turn")
def one_land(m: Magic, s: State, p: Params) -> bool:
    return p["player"] not in s.lands_played


@check("ability-source", "no permanent (or card in the graveyard) of that player has that ability")
def ability_source(m: Magic, s: State, p: Params) -> bool:
    return m.find_ability(s, p) is not None


@check("ability-timing", "the ability's own timing restriction forbids activating it now")
def ability_timing(m: Magic, s: State, p: Params) -> bool:
    a = _ability(m, s, p)
    if a is None or a.timing == "any":
        return True
    if a.timing == "sorcery":
        return _own_main_empty(s, p)
    return p["player"] == s.active and s.step == "upkeep"


@check("ability-condition", "the ability's condition is not met")
def ability_condition(m: Magic, s: State, p: Params) -> bool:
    a = _ability(m, s, p)
    if a is None or not a.artifacts:
        return True
    return sum(1 for u in s.controls(p["player"]) if m.has_type(u, "artifact")) >= a.artifacts


@check("ability-target", "the ability needs a legal target", cites="check.targets")
def ability_target(m: Magic, s: State, p: Params) -> bool:
    a = _ability(m, s, p)
    return a is None or m.target_ok(s, a.target, p.get("target"), None,
                                    m.resolve_target(s, a.target, p.get("target"), p.get("target_id")))


def _tapped_source(m: Magic, s: State, p: Params) -> tuple[bool, Permanent | None]:
    """Whether the ability has {T} in its cost, and the permanent it is an ability of."""
    found = m.find_ability(s, p)
    if found is None or not found[1].tap:
        return False, None
    return True, s.permanent(found[0])


def _not_sick(m: Magic, u: Permanent | None) -> bool:
    """Not a creature that came under its controller's control since their turn began (302.6)."""
    return u is None or not (u.sick and m.is_creature(u))


@check("untapped", "a tapped permanent can't be tapped to pay a cost")
def untapped(m: Magic, s: State, p: Params) -> bool:
    taps, u = _tapped_source(m, s, p)
    return not taps or (u is not None and not u.tapped)


@check("summoning-sickness", "a creature's {T} ability needs it under your control since your turn began")
def summoning_sickness(m: Magic, s: State, p: Params) -> bool:
    taps, u = _tapped_source(m, s, p)
    return not taps or _not_sick(m, u)


@check("mana-sick", "a creature's {T} ability needs it under your control since your turn began",
       cites="check.summoning-sickness")
def mana_sick(m: Magic, s: State, p: Params) -> bool:
    return _not_sick(m, s.permanent(p["source"]))


@check("mana-source", "no permanent of that player with a mana ability by that name")
def mana_source(m: Magic, s: State, p: Params) -> bool:
    u = s.permanent(p["source"])
    return u is not None and u.controller == p["player"] and m.mana_ability(u) is not None


# A tapped source's {T} cannot be paid (118.3): said apart from "no such mana ability" (605.1a),
# so each refusal cites only the rule whose condition holds.
@check("mana-untapped", "that permanent is tapped: its {T} mana ability cannot be activated")
def mana_untapped(m: Magic, s: State, p: Params) -> bool:
    u = s.permanent(p["source"])
    return u is None or not u.tapped


@check("mana-timing", "a mana ability only with priority, or while a mana payment is asked of you")
def mana_timing(m: Magic, s: State, p: Params) -> bool:
    return s.priority == p["player"] or (s.payment is not None and s.payment.player == p["player"])


# 117.2e only where its condition holds: a spell or ability resolving (as not-resolving, A27).
@check("mana-while-resolving", "no player has priority while a spell or ability is resolving: a mana ability "
       "then only when the resolving spell or ability asks you for a mana payment")
def mana_while_resolving(m: Magic, s: State, p: Params) -> bool:
    return s.resolving is None or (s.payment is not None and s.payment.player == p["player"])


@check("face-down", "only a face-down permanent of yours with morph can be turned face up")
def face_down(m: Magic, s: State, p: Params) -> bool:
    u = s.permanent(p["permanent"])
    card = m.cards.get(u.card) if u else None
    return u is not None and u.face_down and u.controller == p["player"] and card is not None and card.morph is not None


@check("paying", "that player is not paying a cost now")
def paying(m: Magic, s: State, p: Params) -> bool:
    return s.payment is not None and s.payment.player == p["player"] and s.payment.purpose != "unless"


@check("paying-unless", "no payment is asked of that player now", cites="check.paying")
def paying_unless(m: Magic, s: State, p: Params) -> bool:
    return s.payment is not None and s.payment.player == p["player"] and s.payment.purpose == "unless"


@check("can-pay", "not enough mana in the pool to pay the cost")
def can_pay(m: Magic, s: State, p: Params) -> bool:
    return s.payment is None or s.mana(p["player"]) >= s.payment.amount


@check("asked", "no choice is asked of that player now: a resolving spell's instructions ask for choices")
def asked(m: Magic, s: State, p: Params) -> bool:
    r = s.resolving
    return r is not None and p["player"] in r.asked and s.payment is None


# 101.4 only where several players are asked and another comes first.
@check("asked-in-turn", "players make their choices in APNAP order: another player chooses first")
def asked_in_turn(m: Magic, s: State, p: Params) -> bool:
    r = s.resolving
    return r is None or p["player"] not in r.asked or r.asked[0] == p["player"]


@check("choice", "not a valid choice for this instruction")
def choice(m: Magic, s: State, p: Params) -> bool:
    r = s.resolving
    if r is None or not r.asked:
        return False
    return p["choice"] in m.choices(s, r, p["player"])


@check("attackers", "only your untapped creatures that have been yours since the turn began can attack")
def attackers(m: Magic, s: State, p: Params) -> bool:
    for name in p["attackers"]:
        u = s.permanent(name)
        card = m.card_of(u) if u else None
        if (u is None or u.controller != p["player"] or not m.is_creature(u) or u.tapped
                or (u.sick and not (card and card.haste))):
            return False
    return True


@check("blockers", "only your untapped creatures can block, and only attacking creatures")
def blockers(m: Magic, s: State, p: Params) -> bool:
    for blocker, attacker in p["blocks"]:
        u, a = s.permanent(blocker), s.permanent(attacker)
        if u is None or u.controller != p["player"] or not m.is_creature(u) or u.tapped:
            return False
        if a is None or not a.attacking:
            return False
    return True


@check("flying", "a creature with flying can be blocked only by creatures with flying or reach")
def flying(m: Magic, s: State, p: Params) -> bool:
    for blocker, attacker in p["blocks"]:
        u, a = s.permanent(blocker), s.permanent(attacker)
        flies, stops = (m.card_of(a) if a else None), (m.card_of(u) if u else None)
        if flies is not None and flies.flying and not (stops is not None and (stops.flying or stops.reach)):
            return False
    return True


@check("menace", "a creature with menace can't be blocked except by two or more creatures")
def menace(m: Magic, s: State, p: Params) -> bool:
    for attacker in {a for _, a in p["blocks"]}:
        a = s.permanent(attacker)
        card = m.card_of(a) if a else None
        if card is not None and card.menace and sum(1 for _, x in p["blocks"] if x == attacker) < 2:
            return False
    return True


@check("with-defender", "a creature with defender can't attack")
def with_defender(m: Magic, s: State, p: Params) -> bool:
    for name in p["attackers"]:
        u = s.permanent(name)
        card = m.card_of(u) if u else None
        if card is not None and card.defender:
            return False
    return True


@check("declarer", "that player does not declare now")
def declarer(m: Magic, s: State, p: Params) -> bool:
    if s.awaiting in ("declare-attackers", "choose-defender", "order-blockers", "assign-combat-damage"):
        return p["player"] == s.active
    if s.awaiting == "declare-blockers":
        return p["player"] == s.defender
    return False


@check("damage-order", "these rules have no damage assignment order: the attacking player divides a creature's "
       "combat damage among its blockers as it is assigned")
def damage_order(m: Magic, s: State, p: Params) -> bool:
    return m.damage_order


@check("blocker-order", "each creature blocked by two or more is given an order of exactly the creatures blocking it")
def blocker_order(m: Magic, s: State, p: Params) -> bool:
    return s.awaiting == "order-blockers" and m.orders(s, p) is not None


@check("damage-assignment", "each creature blocked by two or more assigns exactly its power, to the creatures "
       "blocking it (to the player it attacks, with trample, only once each blocker is assigned lethal damage; "
       "with a damage assignment order, to a blocker only once each before it is assigned lethal damage)")
def damage_assignment(m: Magic, s: State, p: Params) -> bool:
    return s.awaiting == "assign-combat-damage" and m.division(s, p) is not None


@check("orders-triggers-now", "that player does not put triggered abilities on the stack now: with several "
       "waiting, the active player puts theirs on first, then each other player in turn order")
def orders_triggers_now(m: Magic, s: State, p: Params) -> bool:
    return m.trigger_orderer(s) == p["player"]


@check("trigger-order", "the order names each of that player's waiting triggered abilities exactly once")
def trigger_order(m: Magic, s: State, p: Params) -> bool:
    own = sorted(o.id for o in s.waiting if o.controller == p["player"])
    return sorted(p["order"]) == own
