"""The bindings of the transitions: every candidate decision and automatic step of a state, each a
module-level function ``(model, state)`` that a transition is registered with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations, islice, permutations, product
from math import factorial
from typing import TYPE_CHECKING, Any

from kb.timing.models.mtg.objects import Card, Obj, STEP_NAMES, State, on_text

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic


def cast(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    # Also while something is under way: "can I cast it now?" is answered with the rule.
    chosen: dict[str | None, list[tuple[str | None, int | None, str]]] = {}  # the targets of a kind, once
    for player, name, card in hand_cards(m, s):
        if card is None or "land" in card.types:
            continue
        if card.targets:  # several targets: every choice of 1 to N different objects (601.2c)
            yield from several_targets(m, s, player, card)
            continue
        choices = chosen.get(card.target)
        if choices is None:
            choices = chosen[card.target] = [(target, ident, on_text(target, ident, ambiguous))
                                             for target, ident, ambiguous in m.target_choices(s, card.target)]
        for target, ident, on in choices:
            yield {"player": player, "card": name, "target": target, "target_id": ident, "on": on}


def several_targets(m: Magic, s: State, player: str, card: Card) -> Iterator[dict[str, Any]]:
    """A spell of several targets cast on every choice of 1 to N different objects it could target."""
    found = [(n, i, amb) for n, i, amb in m.target_choices(s, card.target) if i is not None]
    for k in range(1, min(card.targets, len(found)) + 1):
        for chosen in combinations(found, k):
            yield {"player": player, "card": card.name, "targets": tuple(n for n, _, _ in chosen),
                   "target_ids": tuple(i for _, i, _ in chosen), "on": several_text(chosen)}


def several_text(chosen: Iterable[tuple[str, int | None, bool]]) -> str:
    """The " targeting A and B" of a label."""
    return " targeting " + " and ".join(on_text(n, i, amb)[len(" targeting "):] for n, i, amb in chosen)


def activate(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    seen = set()
    sources: list[tuple[str, str, Card]] = []
    for u in s.board:
        card = m.card_of(u)
        if card:
            sources.append((u.controller, u.name, card))
    for owner, c in s.graveyard:
        card = m.cards.get(c)
        if card and any(a.zone == "graveyard" for a in card.abilities):
            sources.append((owner, c, card))
    for player, source, card in sources:
        for a in card.abilities:
            if a.mana or (player, source, a.name) in seen:
                continue
            seen.add((player, source, a.name))
            for target, ident, ambiguous in m.target_choices(s, a.target):
                yield {"player": player, "ability": a.name, "source": source, "target": target,
                       "target_id": ident, "on": on_text(target, ident, ambiguous)}


def mana(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    for u in s.board:
        if m.mana_ability(u) is not None:
            yield {"player": u.controller, "source": u.name}


def _from_hand(m: Magic, s: State, wanted: Callable[[Card], bool]) -> Iterator[dict[str, Any]]:
    """Each card of a hand that ``wanted`` keeps, once per player (none while something is
    under way: a special action needs priority); an unknown hand may hold any card of the pool."""
    if s.busy:
        return
    for player, name, card in hand_cards(m, s):
        if card is not None and wanted(card):
            yield {"player": player, "card": name}


def hand_cards(m: Magic, s: State) -> tuple[tuple[str, str, Card | None], ...]:
    """Each different card of each hand of a player still in the game, in turn order, with the
    pool's card of that name (None for a name the pool lacks); an unknown hand may hold any card
    of the pool. Asked by several transitions' bindings of a state in a row: the last state's
    are kept (by identity)."""
    last = m.__dict__.get("_hand_cards_of")
    if last is not None and last[0] is s:
        return last[1]  # type: ignore[no-any-return]
    cards = m.cards
    found = []
    for player in s.remaining:
        hand = s.hand(player)
        for name in dict.fromkeys(hand if hand is not None else tuple(cards)):
            found.append((player, name, cards.get(name)))
    out = tuple(found)
    m.__dict__["_hand_cards_of"] = (s, out)
    return out


def land(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    return _from_hand(m, s, lambda card: "land" in card.types)


def face_up(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.busy:
        return
    for u in s.board:
        if u.face_down:
            yield {"player": u.controller, "permanent": u.name}


def exiling(m: Magic, s: State, action: str) -> Iterator[dict[str, Any]]:
    """Each card with the keyword of ``action`` (suspend, foretell, plot) in a hand."""
    return _from_hand(m, s, lambda card: getattr(card, action) is not None)


def exiled_cast(m: Magic, s: State, how: str) -> Iterator[dict[str, Any]]:
    """Each foretold (or plotted) card in exile, with every target it could have."""
    for x in s.exile:
        card = m.cards.get(x.card)
        if x.how != how or x.owner in s.lost or card is None:
            continue
        for target, ident, ambiguous in m.target_choices(s, card.target):
            yield {"player": x.owner, "card": x.card, "exile_id": x.id, "target": target,
                   "target_id": ident, "on": on_text(target, ident, ambiguous)}


def defender(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.awaiting == "choose-defender":
        for player in s.players:
            yield {"player": s.active, "defender": player}


def pass_priority(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.priority is not None:
        for p in s.players:
            if p not in s.lost:
                yield {"player": p}
    elif m.decider(s) is not None:  # a decision without priority: passing is not an option
        yield {"player": m.decider(s)}


def payer(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.payment is not None and s.payment.purpose != "unless":
        yield {"player": s.payment.player, "amount": s.payment.amount, "what": s.payment.what}


def unless(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.payment is not None and s.payment.purpose == "unless":
        yield {"player": s.payment.player, "amount": s.payment.amount, "what": s.payment.what}


def attack(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.awaiting != "declare-attackers":
        return
    creatures = [u.name for u in s.controls(s.active) if m.is_creature(u)][:5]
    for k in range(len(creatures) + 1):
        for group in combinations(creatures, k):
            yield {"player": s.active, "attackers": group,
                   "attackers_text": ", ".join(group) if group else "no creatures"}


def block(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.awaiting != "declare-blockers":
        return
    attackers = [u.name for u in s.board if u.attacking]
    blockers = [u.name for u in s.controls(s.defender) if m.is_creature(u)][:4]
    for assignment in product([None] + attackers, repeat=len(blockers)):
        blocks = tuple((b, a) for b, a in zip(blockers, assignment) if a is not None)
        yield {"player": s.defender, "blocks": blocks,
               "blocks_text": ", ".join(f"{b} blocks {a}" for b, a in blocks) or "no blocks"}


def orders_text(orders: Iterable[tuple[str, Iterable[str]]]) -> str:
    return "; ".join(f"{a}'s damage to {', then '.join(order)}" for a, order in orders)


def order_blockers(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    """Every damage assignment order of each creature blocked by two or more (509.2, 2010), the
    order they were listed in first."""
    if s.awaiting != "order-blockers":
        return
    attackers = m.to_order(s)
    for orders in product(*(permutations([b.name for b in m.blockers_of(s, a)]) for a in attackers)):
        chosen = tuple(zip((a.name for a in attackers), orders))
        yield {"player": s.active, "orders": chosen, "orders_text": orders_text(chosen)}


def assignment_text(assignment: Iterable[tuple[str, Iterable[tuple[str, int]]]]) -> str:
    return "; ".join(f"{a}: " + ", ".join(f"{n} to {to}" for to, n in shares) for a, shares in assignment)


def assign_damage(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    """For each creature blocked by two or more, lethal damage to each blocker in turn and the rest
    to the last (510.1c), in every order of its blockers, the order they were listed in first;
    any other division is legal too (a scenario's ``assign: {damage: ...}``). Under the 2010
    rules, in its damage assignment order: lethal damage to each before one blocker and all the
    rest to that one (more than lethal, 510.1c), for each blocker in turn, the default last."""
    if s.awaiting != "assign-combat-damage":
        return
    attackers = m.to_divide(s)
    if m.damage_order:  # 2010: in the announced order, all the rest to one blocker (510.1c), the default last
        for chosen in product(*(m.stop_at(s, a) for a in attackers)):
            divided = tuple(zip((a.name for a in attackers), chosen))
            yield {"player": s.active, "assignment": divided, "assignment_text": assignment_text(divided)}
        return
    seen = set()
    for orders in product(*(permutations(m.blockers_of(s, a)) for a in attackers)):
        chosen = tuple((a.name, m.lethal_first(s, a, list(order))) for a, order in zip(attackers, orders))
        if chosen not in seen:
            seen.add(chosen)
            yield {"player": s.active, "assignment": chosen, "assignment_text": assignment_text(chosen)}


def choose(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    r = s.resolving
    if r is None or not r.asked or s.payment is not None:
        return
    for player in s.apnap:
        for choice in m.choices(s, r, player):
            yield {"player": player, "choice": choice}


def begin(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if not s.begun and not s.over:
        yield {"step": s.step, "step_name": STEP_NAMES[s.step], "player": s.active}


def untap_end(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.step == "untap" and s.begun and not s.busy and s.due is None and s.priority is None:
        yield {"step": "untap", "step_name": STEP_NAMES["untap"]}


def step_end(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if (s.begun and not s.stack and not s.busy and s.priority is None and s.due is None
        and s.passes >= len(s.remaining) and s.step != "untap"):
        yield {"step": s.step, "step_name": STEP_NAMES[s.step]}


def turn_end(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if (s.step == "cleanup" and s.begun and s.passes == 0 and not s.stack and not s.busy
        and s.priority is None and s.due is None and not s.over):
        nxt = s.extra_turns[0] if s.extra_turns else s.next_player(s.active)
        yield {"player": nxt, "extra": bool(s.extra_turns)}


def sba(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if s.due is not None and not s.busy and not s.over:
        found = m.sba(s)
        if found:
            yield {"what": "; ".join(sba_headline(m, s, n, p) for n, p in found)}


# What a state-based action does to a permanent, said of one a replacement effect exiles instead.
INSTEAD_OF = {"lethal-damage": "being destroyed", "deathtouch-damage": "being destroyed",
              "zero-toughness": "being put into the graveyard",
              "legend-rule": "being put into the graveyard"}


def sba_headline(m: Magic, s: State, name: str, params: dict[str, Any]) -> str:
    """One state-based action as the headline says it: what happens, so a creature that a
    replacement effect exiles instead of its dying (614.1a) "is exiled … instead of being
    destroyed", not "is destroyed" (the model's replacement is the first, 616.1)."""
    gone = [params["permanent"]] if "permanent" in params else list(params.get("permanents", ()))
    exiled = {u.name: found[0].name for u in s.board
              if u.name in gone and name in INSTEAD_OF and (found := m.replacing(s, u))}
    instead = [f"{u} is exiled by {source}'s replacement effect instead of {INSTEAD_OF[name]}"
               for u, source in exiled.items()]
    rest = [u for u in gone if u not in exiled]  # the legend rule's others do go to the graveyard
    if "permanent" in params and instead:
        return "; ".join(instead)
    # what goes to the graveyard, by name; when nothing does, the action's name ("the legend rule")
    t = m.transitions[name]
    label = t.label({"gone": ", ".join(rest), **params}) if rest or not gone else t.summary
    return "; ".join([label, *instead])


def triggers(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    """The waiting triggered abilities that go on the stack without a choice, in APNAP order
    (603.3b, 101.4): each player's in turn, up to the first player whose own can go on in more
    than one order (that player's decision, :func:`order_triggers`)."""
    if s.due is not None and not s.busy and s.waiting and not s.over and not m.sba(s):
        order = m._apnap_order(s, s.waiting)
        going: list[Obj] = []
        for player in dict.fromkeys(o.controller for o in order):
            own = [o for o in order if o.controller == player]
            if len({trigger_key(o) for o in own}) > 1:
                break
            going += own
        if going:
            yield {"order": ", ".join(f"{o.name} ({o.controller})" for o in going),
                   "ids": tuple(o.id for o in going)}


def order_text(items: Iterable[Obj]) -> str:
    names = [o.name for o in items]
    return f"{', then '.join(names)} ({names[-1]} on top: it resolves first)"


def order_triggers(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    """The orders in which the player due to put their triggered abilities on the stack may put
    them (603.3b), the order they triggered first: every different one up to LISTED_ORDERS, and
    with more, the first LISTED_ORDERS, each saying how many there are (a scenario's ``order``
    may take any of them)."""
    player = m.trigger_orderer(s)
    if player is None:
        return
    own = [o for o in s.waiting if o.controller == player]
    total = count_orders(own)
    more = f" — one of {total} orders, the first {LISTED_ORDERS} listed" if total > LISTED_ORDERS else ""
    for order in islice(distinct_orders(own), LISTED_ORDERS):
        yield {"player": player, "order": tuple(o.id for o in order), "names": tuple(o.name for o in order),
               "order_text": order_text(order) + more}


# Orders of a player's simultaneous triggered abilities a decision lists (603.3b): a player
# with more than this many different orders is offered the first ones and told how many there are.
LISTED_ORDERS = 6


def trigger_key(o: Obj) -> tuple[Any, ...]:
    """What tells two waiting triggered abilities apart: two the same (one card's ability, of two
    permanents or twice, with the same target and amount) give the same stack in either order,
    the model's abilities saying nothing of their source."""
    return (o.name, o.target, o.target_id, o.amount, o.subject, o.condition, o.effects)


def distinct_orders(items: list[Obj]) -> Iterator[tuple[Obj, ...]]:
    """Every different order of ``items`` (bottom of the stack first), the order they triggered
    first; two that :func:`trigger_key` cannot tell apart give one order, not two."""
    if not items:
        yield ()
        return
    seen: set[tuple[Any, ...]] = set()
    for i, o in enumerate(items):
        if trigger_key(o) in seen:
            continue
        seen.add(trigger_key(o))
        for rest in distinct_orders(items[:i] + items[i + 1:]):
            yield (o, *rest)


def count_orders(items: list[Obj]) -> int:
    """How many different orders :func:`distinct_orders` has: n! over the repeats' factorials."""
    out = factorial(len(items))
    for k in Counter(trigger_key(o) for o in items).values():
        out //= factorial(k)
    return out


def receive(m: Magic, s: State, reason: str) -> Iterator[dict[str, Any]]:
    """The player who receives priority now, for ``reason`` (step, resolved, action, special)."""
    if s.due is not None and s.due_reason == reason and not s.busy and not s.over and m.priority_ready(s):
        yield {"player": s.next_player(s.due) if s.due in s.lost else s.due}


def resolve(m: Magic, s: State) -> Iterator[dict[str, Any]]:
    if (s.stack and not s.busy and s.priority is None and s.due is None
        and s.passes >= len(s.remaining) and not s.over):
        top = s.stack[-1]
        yield {"item": top.name, "id": top.id, "player": top.controller}
