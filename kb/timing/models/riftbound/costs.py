"""Riftbound's costs and resources in the timing: paying is a step of finalizing (357, 404).

- A card's or ability's total cost is its printed Energy and Power cost (356, 403) plus the
  mandatory additional costs: one Power more for each unit with Deflect an opponent's spell
  or ability chooses (809.1.c, 356.2.a.2), and "kill a friendly unit" (356.2.a.1).
- A player pays from their Rune Pool (166); what it lacks their runes Add during payment
  (357.1.a, 429.3): Reaction Add abilities that finalize and resolve at once (429.3.a), so
  they never join the chain and priority and focus do not move. The model pays in a fixed
  way, said so in the trace: the pool first, then it exhausts ready runes for Energy
  ([E]: Add [1], 164.2.a), then recycles runes for Power (Add [C], 164.2.b), exhausted ones
  first (a ready rune recycled is exhausted first, its Energy left in the pool).
- Other Add abilities (gear, units) are the player's to activate: before playing (429.3's
  first example), or, with the Reaction tag, while a cost the pool and runes do not cover is
  paid (``"await-add"`` below: the item waits for its controller to choose them,
  :mod:`kb.timing.models.riftbound.adding`). A cost counts as payable when the pool, the runes
  and the ready Reaction Add abilities whose own cost only exhausts their permanent cover it
  (one of them a permanent, 414.1.b); an ability's exhaust cost is paid as it is finalized,
  and an exhausted permanent cannot pay it again (414.4).
- A card or activated ability whose cost cannot be paid is not a legal play (358.2, 358.5):
  the checks below refuse it, and ``next`` shows it as a tempting illegal option citing them.
  A card played by an effect whose cost cannot be paid when it is finalized is undone.
- A triggered ability with a cost (one within its instruction, 403.1.b.1, or Deflect's) waits
  for its controller to pay or decline (404.2): declining removes it from the chain; it is
  never finalized, and it is not countered (404.2.a). Those decisions, and undoing an item
  that cannot be paid for, are :mod:`kb.timing.models.riftbound.paying`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Params, Trace
from kb.timing.fields import a_mapping, only_keys, whole_number
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound import effects, replacements
from kb.timing.models.riftbound.cards import SEVERAL_TARGETS, UNIT_CHOICES, Ability, Card, Effect
from kb.timing.models.riftbound.checks import ability_source
from kb.timing.models.riftbound.citations import registry
from kb.timing.models.riftbound.resources import FREE, KILL_A_FRIENDLY_UNIT, Cost, parse_cost
from kb.timing.models.riftbound.state import Item, Permanent, State, with_permanent

if TYPE_CHECKING:
    from kb.timing.models.riftbound.model import Riftbound

check, step = registry.check, registry.step


step("pays-costs", "the item's costs are paid as it is finalized", "{player} pays {cost} for {item}")
step("adds-during-payment", "runes Add what the pool lacks during payment, without using the chain",
     "{player}'s runes Add during payment: {exhausted} exhausted for Energy, {recycled} recycled for Power")
step("deflect-applies", "choosing an opponent's unit with Deflect costs Power more",
     "{unit} has Deflect: {item} costs {power} Power more")
step("accelerate-paid", "Accelerate: its optional additional cost is paid as the unit is played",
     "{player} pays Accelerate's {cost} for {item} as an additional cost: it will enter ready")
step("repeat-paid", "Repeat: its optional additional cost is paid as the spell is played",
     "{player} pays Repeat's {cost} for {item} as an additional cost: its instructions will be executed twice")
step("kill-as-cost", "a friendly unit is killed to pay an additional cost", "{player} chooses to kill {unit} to pay for {item}")
step("plays-ignoring-cost", "a card played from facedown ignores its base cost",
     "{item} is played from facedown ignoring its base cost ({cost})")
step("pays-to-hide", "hiding a card costs one Power of any domain", "{player} pays {cost} to hide {card}")
step("ready", "ready a permanent", "{unit} is readied")
step("exhausts-as-cost", "the ability's permanent is exhausted to pay its cost",
     "{player} exhausts {source} to pay for {item}")

# Hiding costs [A], one Power of any domain (811.1.b, 135.2.e.5.a).
HIDE_COST = Cost(0, 1)
# Accelerate's optional additional cost, [1][C]: one Energy and one Power (805.1.a; the model has no
# domains, so the Power is any, as for a unit with none, 805.1.a.2).
ACCELERATE_COST = Cost(1, 1)


# -- the pool and the runes ----------------------------------------------------------------------
def pool_of(s: State, player: str) -> Cost:
    """What ``player``'s Rune Pool holds (166)."""
    for p, energy, power in s.rune_pools:
        if p == player:
            return Cost(energy, power)
    return FREE


def runes_of(s: State, player: str) -> tuple[int, int]:
    """``player``'s runes on the board: (ready, exhausted)."""
    for p, ready, exhausted in s.runes:
        if p == player:
            return ready, exhausted
    return 0, 0


def with_pool(s: State, player: str, pool: Cost) -> State:
    rest = tuple(r for r in s.rune_pools if r[0] != player)
    order = {p: i for i, p in enumerate(s.players)}
    pools = tuple(sorted(rest + ((player, pool.energy, pool.power),), key=lambda r: order.get(r[0], 99)))
    return replace(s, rune_pools=pools)


def with_runes(s: State, player: str, ready: int, exhausted: int) -> State:
    rest = tuple(r for r in s.runes if r[0] != player)
    order = {p: i for i, p in enumerate(s.players)}
    return replace(s, runes=tuple(sorted(rest + ((player, ready, exhausted),), key=lambda r: order.get(r[0], 99))))


def can_pay(s: State, player: str, cost: Cost) -> bool:
    """The pool and the runes that can Add during payment cover ``cost`` (357.1, 357.1.a): a
    ready rune gives Energy (exhausting it) and then Power (recycling it); an exhausted one Power."""
    if not cost:
        return True
    return _covers(pool_of(s, player), *runes_of(s, player), cost)


def _covers(pool: Cost, ready: int, exhausted: int, cost: Cost) -> bool:
    energy, power = max(0, cost.energy - pool.energy), max(0, cost.power - pool.power)
    return energy <= ready and power <= ready + exhausted


def payment_adds(m: Riftbound, s: State, player: str) -> list[tuple[Permanent, Ability]]:
    """The Add abilities ``player`` can count on while paying: with the Reaction tag (429.3),
    on a ready permanent, costing only its exhaustion (so each is used once, 414.1.b); the first
    such ability of each permanent."""
    out = []
    for u in s.board:
        if u.controller != player or u.exhausted:
            continue
        card = m.cards.get(u.card)
        for a in card.abilities if card else ():
            if a.add and a.exhaust and not a.cost and "Reaction" in a.keywords and a.adds:
                out.append((u, a))
                break
    return out


def can_pay_while_adding(m: Riftbound, s: State, player: str, cost: Cost) -> bool:
    """The pool, the runes and the Reaction Add abilities ``player`` can activate while paying
    cover ``cost`` (357.1.a, 429.3)."""
    if can_pay(s, player, cost):
        return True
    extra = FREE
    for _, a in payment_adds(m, s, player):
        extra = extra + a.adds
    return bool(extra) and _covers(pool_of(s, player) + extra, *runes_of(s, player), cost)


def pay(s: State, t: Trace, player: str, cost: Cost, item: str) -> State:
    """Pay ``cost`` from ``player``'s pool, the runes Adding what it lacks (429.3)."""
    s, used, recycled = paid(s, player, cost)
    if used or recycled:
        t.note("adds-during-payment", s, {"player": player, "exhausted": used, "recycled": recycled})
    t.note("pays-costs", s, {"player": player, "cost": str(cost), "item": item})
    return s


def paid(s: State, player: str, cost: Cost) -> tuple[State, int, int]:
    """``s`` once ``player`` has paid ``cost`` (the pool first, then runes Adding), with the
    runes exhausted and recycled for it."""
    pool = pool_of(s, player)
    ready, exhausted = runes_of(s, player)
    energy, power = max(0, cost.energy - pool.energy), max(0, cost.power - pool.power)
    used = 0
    if energy or power:
        # Power from runes already exhausted first; a ready rune recycled for Power is exhausted
        # for its Energy first, which stays in the pool (164.2.a, 164.2.b).
        fresh = max(0, power - (exhausted + energy))
        used = energy + fresh
        ready, exhausted = ready - used, exhausted + used - power
        pool = pool + Cost(used, power)
        s = with_runes(s, player, ready, exhausted)
    return with_pool(s, player, Cost(pool.energy - cost.energy, pool.power - cost.power)), used, power


@effects.instruction("add")
def add(m: Riftbound, s: State, t: Trace, item: Item, e: Effect) -> State:
    """Add resources to the controller's Rune Pool (429.1, 166.1)."""
    added = e[1] if isinstance(e[1], Cost) else Cost(e[1])
    s = with_pool(s, item.controller, pool_of(s, item.controller) + added)
    return t.step("add-resources", s, {"player": item.controller, "added": str(added)})


# Ready a unit or gear (415.1): one already ready stays so (415.1.c).
ready = effects.unit_change("ready", "ready", exhausted=False)


# -- what an item costs ---------------------------------------------------------------------------
def chosen_units(effects_: tuple[Effect, ...], target: str | None, targets: tuple[str, ...] = ()) -> list[str]:
    """The units an item's instructions choose: its target (or its several targets) and the
    units they name."""
    out: list[str] = []
    for e in effects_:
        if e[0] in UNIT_CHOICES:
            names = targets if e[1] == SEVERAL_TARGETS else (target if e[1] == "target" else e[1],)
            for name in names:
                if name and name not in out:
                    out.append(name)
    return out


def deflect(m: Riftbound, s: State, controller: str, effects_: tuple[Effect, ...],
            target: str | None, targets: tuple[str, ...] = ()) -> list[tuple[str, int]]:
    """The opponents' units with Deflect the item chooses, with their Deflect values (809.1.c:
    each unit chosen costs its own)."""
    if not m.deflectors or not effects_:
        return []
    out = []
    for name in chosen_units(effects_, target, targets):
        u = s.permanent(name)
        card = m.cards.get(u.card) if u is not None else None
        if u is not None and card is not None and card.deflect and u.controller != controller:
            out.append((u.name, card.deflect))
    return out


def printed_cost(m: Riftbound, s: State, item: Item) -> Cost:
    """The cost printed on what the item is: its card, its activated ability (403.1.a), or the
    cost within its triggered ability's instruction (403.1.b.1)."""
    if item.kind in ("spell", "unit", "gear"):
        card = m.cards.get(item.card or "")
        printed = card.cost if card and item.origin != "facedown" else FREE  # from facedown: 811.1.b
        if card and item.origin == "trash" and card.flow is not None:
            printed = card.flow  # Flow's cost replaces its base cost (829.1.c.1)
        printed = printed + ACCELERATE_COST if item.accelerate else printed  # an additional cost (805.2)
        return printed + card.repeat if item.repeat and card and card.repeat else printed  # 820.1.c.1
    if item.kind == "ability":
        a = item_ability(m, s, item)
        return a.cost if a else FREE
    if item.kind == "trigger" and item.origin == "trigger":
        card = m.cards.get(item.source or "")
        return next((tr.cost for tr in (card.triggers if card else ()) if tr.name == item.name), FREE)
    return FREE


def item_ability(m: Riftbound, s: State, item: Item) -> Ability | None:
    """The activated ability an item is, read on its source permanent (or the card pool)."""
    u = s.permanent(item.source or "")
    cards = [m.cards[u.card]] if u is not None and u.card in m.cards else list(m.cards.values())
    return next((a for c in cards for a in c.abilities if a.name == item.name), None)


def _deflect_power(m: Riftbound, s: State, controller: str, effects_: tuple[Effect, ...],
                   target: str | None, targets: tuple[str, ...] = ()) -> Cost:
    return Cost(0, sum(n for _, n in deflect(m, s, controller, effects_, target, targets)))


def total_cost(m: Riftbound, s: State, item: Item) -> Cost:
    """Printed cost plus Deflect's Power (356, 403)."""
    return printed_cost(m, s, item) + _deflect_power(m, s, item.controller, item.effects, item.target, item.targets)


def needs_kill(card: Card | None) -> bool:
    return card is not None and KILL_A_FRIENDLY_UNIT in card.additional


def friendly_units(s: State, player: str) -> list[str]:
    return [u.name for u in s.board if u.controller == player]


def awaiting_payment(m: Riftbound, s: State) -> Item | None:
    """The pending triggered ability whose controller must now pay its cost or decline (404.2)."""
    pend = s.pending
    if not pend or s.ready_task() is not None:
        return None
    item = pend[0]
    if item.kind != "trigger" or item.paid or (item.optional and not item.decided):
        return None
    if not m.targets_ok(s, item.effects, item.target, item.id):
        return None  # it leaves the chain for want of legal choices first (402.4)
    return item if total_cost(m, s, item) else None


def finalize_outcome(m: Riftbound, s: State, item: Item) -> str | None:
    """How paying changes finalizing ``item`` (the oldest pending one): ``"await"`` (its
    controller decides to pay or not), ``"await-add"`` (the pool and runes do not cover it: its
    controller activates Reaction Add abilities, 429.3), ``"cost-unpaid"`` (it cannot be
    paid), or None."""
    card = m.cards.get(item.card or "") if item.kind != "ability" else None
    if item.kind == "ability":
        a = item_ability(m, s, item)
        if a is not None and a.exhaust and not _source_ready(s, item):
            return "cost-unpaid"  # its permanent cannot be exhausted again (414.1.b, 414.4)
    if not m.deflectors and not needs_kill(card) and not printed_cost(m, s, item):
        return None  # nothing to pay: the common case
    if item.kind == "trigger" and not item.paid:
        return "await" if awaiting_payment(m, s) is item else None
    if needs_kill(card) and kill_choice(s, item) is None:
        return "cost-unpaid"
    cost = total_cost(m, s, item)
    if can_pay(s, item.controller, cost):
        return None
    return "await-add" if can_pay_while_adding(m, s, item.controller, cost) else "cost-unpaid"


def _source_ready(s: State, item: Item) -> bool:
    u = s.permanent(item.source or "")
    return u is not None and not u.exhausted


def with_exhausted(s: State, u: Permanent) -> State:
    """``s`` with ``u`` exhausted."""
    return with_permanent(s, u.name, exhausted=True)


def exhaust(s: State, t: Trace, u: Permanent, item: str) -> State:
    """Exhaust ``u`` to pay the cost of ``item``, its ability (414.5, 414.3.a)."""
    s = with_exhausted(s, u)
    t.note("exhausts-as-cost", s, {"player": u.controller, "source": u.name, "item": item})
    return s


def kill_choice(s: State, item: Item) -> str | None:
    """The friendly unit that pays a "kill a friendly unit" cost: the one chosen as the card was
    played, or (a card an effect plays) the first listed."""
    if item.kill is not None:
        u = s.permanent(item.kill)
        return u.name if u is not None and u.controller == item.controller else None
    units = friendly_units(s, item.controller)
    return units[0] if units else None


def pay_for(m: Riftbound, s: State, t: Trace, item: Item) -> State:
    """Step 4 of finalizing ``item`` (357, 404): its Energy and Power, then its other costs (357.2)."""
    card = m.cards.get(item.card or "") if item.kind != "ability" else None
    if item.origin == "facedown" and card is not None and card.cost:
        t.note("plays-ignoring-cost", s, {"item": item.name, "cost": str(card.cost)})
    if item.accelerate:
        t.note("accelerate-paid", s, {"player": item.controller, "item": item.name, "cost": str(ACCELERATE_COST)})
    if item.repeat and card is not None and card.repeat is not None:
        t.note("repeat-paid", s, {"player": item.controller, "item": item.name, "cost": str(card.repeat)})
    for unit, n in deflect(m, s, item.controller, item.effects, item.target, item.targets):
        t.note("deflect-applies", s, {"unit": unit, "item": item.name, "power": n})
    cost = total_cost(m, s, item)
    if cost:
        s = pay(s, t, item.controller, cost, item.name)
    if item.kind == "ability":
        a, u = item_ability(m, s, item), s.permanent(item.source or "")
        if a is not None and a.exhaust and u is not None:
            s = exhaust(s, t, u, item.name)
    if needs_kill(card):
        unit = kill_choice(s, item)
        if unit is not None:
            t.note("kill-as-cost", s, {"player": item.controller, "unit": unit, "item": item.name})
            s = replacements.kill(m, s, t, item, ("kill", unit), "killed-as-cost")
            if s.permanent(unit) is not None:  # its death was replaced: the cost is still paid (357.2.a)
                t.note("cost-paid-though-replaced", s, {"unit": unit, "item": item.name})
    return s


# -- checks ------------------------------------------------------------------------------------
def _cost_of(m: Riftbound, s: State, p: Params) -> tuple[Cost, Cost]:
    """(printed cost, Deflect's Power) of what a decision would put on the chain or pay for."""
    if "card" in p:
        card = m.cards[p["card"]]
        printed = FREE if p.get("from") == "facedown" else card.cost  # ignoring its base cost (811.1.b)
        if p.get("from") == "trash" and card.flow is not None:
            printed = card.flow  # Flow's cost instead of its base cost (829.1.c.1)
        printed = printed + ACCELERATE_COST if p.get("accelerate") else printed  # 805.2
        printed = printed + card.repeat if p.get("repeat") and card.repeat else printed  # 820.1.c.1
        return printed, _deflect_power(m, s, p["player"], card.effects, p.get("target"), p.get("targets") or ())
    if "ability" in p:
        found = ability_source(m, s, p["player"], p["ability"])
        return (found[1].cost, _deflect_power(m, s, p["player"], found[1].effects, None)) if found else (FREE, FREE)
    pend = s.pending
    if pend and pend[0].name == p.get("item"):
        item = pend[0]
        return printed_cost(m, s, item), _deflect_power(m, s, item.controller, item.effects, item.target,
                                                        item.targets)
    return FREE, FREE


@check("costs", "its Energy and Power cost cannot be paid: the Rune Pool and the runes that can Add do not "
       "cover it")
def costs_payable(m: Riftbound, s: State, p: Params) -> bool:
    if "card" in p and not p.get("accelerate") and not p.get("repeat") and p.get("from") != "trash" and (
            not m.cards[p["card"]].cost or p.get("from") == "facedown"):
        return True  # a free card (or one from facedown, 811.1.b) with no optional additional cost paid
    printed, _ = _cost_of(m, s, p)
    return can_pay_while_adding(m, s, p["player"], printed)


@check("accelerate", "Accelerate's cost is paid only for a unit with Accelerate, as it is played")
def accelerate_allowed(m: Riftbound, s: State, p: Params) -> bool:
    if not p.get("accelerate"):
        return True
    card = m.cards.get(p.get("card", ""))
    return card is not None and "Accelerate" in card.keywords


@check("repeat", "Repeat's cost is paid only for a spell with Repeat, as it is played")
def repeat_allowed(m: Riftbound, s: State, p: Params) -> bool:
    if not p.get("repeat"):
        return True
    card = m.cards.get(p.get("card", ""))
    return card is not None and card.repeat is not None


@check("exhaust-cost", "its cost exhausts its permanent, which is already exhausted")
def exhaust_payable(m: Riftbound, s: State, p: Params) -> bool:
    found = ability_source(m, s, p["player"], p["ability"])
    return found is None or not found[1].exhaust or not found[0].exhausted


@check("deflect-cost", "it chooses an opponent's unit with Deflect, and the Power that costs more cannot be paid")
def deflect_payable(m: Riftbound, s: State, p: Params) -> bool:
    if not m.deflectors:
        return True
    printed, extra = _cost_of(m, s, p)
    player = p["player"]
    return (not extra or not can_pay_while_adding(m, s, player, printed)
            or can_pay_while_adding(m, s, player, printed + extra))


@check("hide-cost", "hiding costs one Power of any domain, and the Rune Pool and the runes cannot pay it")
def hide_payable(m: Riftbound, s: State, p: Params) -> bool:
    return can_pay(s, p["player"], HIDE_COST)


def pay_to_hide(s: State, t: Trace, player: str, card: str) -> State:
    """Hiding's cost, paid as the card is hidden (811.1.b)."""
    s = pay(s, t, player, HIDE_COST, card)
    t.note("pays-to-hide", s, {"player": player, "cost": str(HIDE_COST), "card": card})
    return s


@check("additional-cost", "its additional cost cannot be paid: no friendly unit of that player is chosen to be killed")
def additional_payable(m: Riftbound, s: State, p: Params) -> bool:
    if not needs_kill(m.cards.get(p.get("card") or "")):
        return True
    u = s.permanent(p.get("kill") or "")
    return u is not None and u.controller == p["player"]


@check("trigger-cost", "its controller cannot pay the triggered ability's cost: it can only be declined")
def trigger_payable(m: Riftbound, s: State, p: Params) -> bool:
    item = awaiting_payment(m, s)
    return item is None or can_pay_while_adding(m, s, item.controller, total_cost(m, s, item))


@check("payment-due", "no triggered ability of that player is waiting for its cost to be paid")
def payment_due(m: Riftbound, s: State, p: Params) -> bool:
    item = awaiting_payment(m, s)
    return item is not None and item.name == p["item"] and item.controller == p["player"]


def with_cost_choices(m: Riftbound, s: State, params: dict[str, Any]) -> Sequence[dict[str, Any]]:
    """A play's attempts with the choices its costs need: each friendly unit it could kill."""
    card = m.cards.get(params["card"])
    if card is not None and "Accelerate" in card.keywords:
        # Accelerate: the player may pay its cost as they play the unit, or not (805.2)
        return [*_kill_choices(s, card, params), *_kill_choices(s, card, {**params, "accelerate": True})]
    if card is not None and card.repeat is not None:
        # Repeat: the player may pay its cost as they play the spell, or not (820.1.d)
        return [*_kill_choices(s, card, params), *_kill_choices(s, card, {**params, "repeat": True})]
    return _kill_choices(s, card, params)


def _kill_choices(s: State, card: Card | None, params: dict[str, Any]) -> Sequence[dict[str, Any]]:
    if not needs_kill(card):
        return (params,)
    return [{**params, "kill": unit} for unit in friendly_units(s, params["player"])] or (params,)


# -- a scenario's players: their runes and Rune Pools --------------------------------------------
def resources_of(players: tuple[str, ...], extra: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The ``rune_pools`` and ``runes`` of a scenario's players (``runes: 2`` ready runes, or
    ``{ready, exhausted}``; ``pool: 1`` Energy, or ``{energy, power}``)."""
    pools, runes = [], []
    for player in players:
        p = extra.get(player, {})
        where = f"players.{player}"
        if p.get("pool") is not None:
            pool = parse_cost(p["pool"], f"{where}.pool")
            pools.append((player, pool.energy, pool.power))
        raw = p.get("runes")
        if raw is None:
            continue
        if isinstance(raw, int) and not isinstance(raw, bool):
            runes.append((player, whole_number(raw, f"{where}.runes", 0, 12), 0))
        else:
            r = a_mapping(raw, f"{where}.runes")
            only_keys(r, ("ready", "exhausted"), f"{where}.runes")
            runes.append((player, whole_number(r.get("ready", 0), f"{where}.runes.ready", 0, 12),
                          whole_number(r.get("exhausted", 0), f"{where}.runes.exhausted", 0, 12)))
    return {"rune_pools": tuple(pools), "runes": tuple(runes)}


def observe(s: State, key: str) -> dict[str, dict[str, int]]:
    """What ``expect`` sees of ``pool`` (Energy and Power by player) or ``runes`` (ready and exhausted)."""
    if key == "pool":
        return {p: {"energy": c.energy, "power": c.power} for p in s.players for c in (pool_of(s, p),)}
    return {p: {"ready": r, "exhausted": x} for p in s.players for r, x in (runes_of(s, p),)}
