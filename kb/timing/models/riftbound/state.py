"""The immutable state of one moment of Riftbound's Main Phase: the chain, priority and focus,
showdown and combat, the board, battlefields, hands and what happened this turn.

Every field says how it reads and writes as JSON (``metadata=js(...)``, see
:mod:`kb.timing.models.codec`): the JSON of a state is derived from these dataclasses, and
so are the keys an ``expect`` step may observe. A new concept is a new field here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from kb.timing.engine import FormatError
from kb.timing.fields import a_list, a_mapping, text, whole_number
from kb.timing.models.codec import OMIT, Context, js
from kb.timing.models.frozen import replace
from kb.timing.models.riftbound.cards import Effect, effects_json, keywords, parse_effects

# Tasks that wait until the chain is empty ("Resolve any items on the chain … before
# performing this step", 466.2, 466.4, 466.6).
# The Scoring Step's holding waits for the Beginning Step's effects on the chain too: Temporary
# kills "at the start of … Beginning Phase, before scoring" (315.2.a.1, 816.1.b).
DEFERRED_TASKS = frozenset({"combat-result", "establish-control", "combat-ends", "hold"})
TASKS = ("cleanup", "hold", "combat-opens", "start-of-combat", "establish-attacker-defender", "attacker-gains-focus",
         "combat-chain", "combat-damage", "combat-cleanup", "combat-result", "establish-control", "combat-ends",
         "beginning-step")
COMBAT_TASKS = frozenset(TASKS) - {"beginning-step", "cleanup", "hold"}
ORIGINS = ("hand", "facedown", "effect", "activated", "trigger", "reflexive", "trash")
ITEM_KINDS = ("spell", "unit", "gear", "ability", "trigger")
TURN_STATES = ("neutral-open", "neutral-closed", "showdown-open", "showdown-closed")


# -- how a chain item reads: what its card says when the JSON leaves it out ----------------------
def _own_card(raw: dict[str, Any], ctx: Context) -> Any:
    """The card an item is (a spell, unit or gear played), if any."""
    name = raw.get("card") or raw.get("name")
    card = ctx.cards.get(name) if isinstance(name, str) else None
    kind = raw.get("kind") or (card.type if card else "spell")
    return card if card is not None and kind in ("spell", "unit", "gear") else None


def _item_kind(raw: dict[str, Any], ctx: Context) -> str:
    name = raw.get("card") or raw.get("name")
    card = ctx.cards.get(name) if isinstance(name, str) else None
    return card.type if card else "spell"


def _item_card(raw: dict[str, Any], ctx: Context) -> str | None:
    own = _own_card(raw, ctx)
    return own.name if own else None


def _item_effects(raw: dict[str, Any], ctx: Context) -> tuple[Effect, ...]:
    own = _own_card(raw, ctx)
    return own.effects if own else ()


def _read_effects(raw: Any, where: str, ctx: Context) -> tuple[Effect, ...]:
    return raw if isinstance(raw, tuple) else parse_effects(raw, where)


def _write_effects(item: Item, effects: tuple[Effect, ...], ctx: Context) -> Any:
    """An item's instructions, unless they are its card's (read back from the card)."""
    if not effects:
        return OMIT
    cards = getattr(ctx, "cards", {})
    own = cards.get(item.card or item.name) if item.kind in ("spell", "unit", "gear") else None
    return OMIT if own is not None and own.effects == effects else effects_json(effects)


@dataclass(frozen=True)
class Item:
    """A chain item: a card being played, an activated ability or a triggered ability."""

    __json_keys__: ClassVar[tuple[str, ...]] = (
        "name", "controller", "status", "kind", "id", "card", "source", "to", "target", "effects", "add",
        "optional", "decided", "ambush", "origin", "keywords", "paid", "kill", "targets", "accelerate", "repeat")

    id: int = field(metadata=js(low=1, high=10_000, missing=lambda raw, ctx: ctx.next_id))
    name: str
    controller: str = field(metadata=js(check="player", missing=lambda raw, ctx: ctx.players[0]))
    kind: str = field(metadata=js(choices=ITEM_KINDS, missing=_item_kind))  # spell | unit | gear | ability | trigger
    status: str = field(default="pending", metadata=js(choices=("pending", "finalized"), missing="finalized"))
    card: str | None = field(default=None, metadata=js(omit=True, check="card", missing=_item_card))
    source: str | None = field(default=None, metadata=js(omit=True))
    effects: tuple[Effect, ...] = field(default=(), metadata=js(write=_write_effects, read=_read_effects,
                                                                missing=_item_effects))
    add: bool = field(default=False, metadata=js(omit=True))
    optional: bool = field(default=False, metadata=js(omit=True))
    decided: bool = field(default=False, metadata=js(omit=True))
    origin: str = field(default="hand", metadata=js(omit=True, choices=ORIGINS, missing="hand"))
    # a unit's or gear's destination; for a spell played from Hidden, or the play effect of a
    # permanent played from Hidden, the battlefield where it was hidden (811.1.d)
    to: str | None = field(default=None, metadata=js(omit=True))
    target: str | None = field(default=None, metadata=js(omit=True))
    ambush: bool = field(default=False, metadata=js(omit=True))
    keywords: frozenset[str] = field(default=frozenset(), metadata=js(
        omit=True, read=lambda raw, where, ctx: keywords(raw, where)))
    paid: bool = field(default=False, metadata=js(omit=True))  # a triggered ability's cost will be paid (404.1)
    kill: str | None = field(default=None, metadata=js(omit=True))  # the friendly unit killed as a cost (357.2)
    # the units chosen as its several targets ("each of up to N units", 355.13), in the order chosen
    targets: tuple[str, ...] = field(default=(), metadata=js(omit=True))
    # Accelerate's optional additional cost is paid for it as it is finalized (805.2), and it enters ready
    accelerate: bool = field(default=False, metadata=js(omit=True))
    # Repeat's optional additional cost is paid for it (820.1.c.1): its instructions are executed
    # one additional time as it resolves (820.1.d)
    repeat: bool = field(default=False, metadata=js(omit=True))


def _is_gear(raw: dict[str, Any], ctx: Context) -> bool:
    """Whether a permanent's card is gear (a permanent names its card, or is named as it)."""
    card = ctx.cards.get(raw.get("card") or raw.get("name") or "") if hasattr(ctx, "cards") else None
    return card is not None and card.type == "gear"


@dataclass(frozen=True)
class Permanent:
    """A unit or gear on the board: at its controller's base or at a battlefield."""

    name: str
    card: str = field(metadata=js(check="card", missing=lambda raw, ctx: raw.get("name")))
    controller: str = field(metadata=js(check="player"))
    location: str = field(metadata=js(check="place", missing="base"))  # "base" or a battlefield's name
    exhausted: bool = field(default=False, metadata=js(omit=True))
    designation: str | None = field(default=None, metadata=js(omit=True, choices=(None, "attacker", "defender")))
    damage: int = field(default=0, metadata=js(omit=True))
    might_bonus: int = field(default=0, metadata=js(omit=True, low=-99, high=99))  # Might given this turn
    # "The next time it would die this turn, heal it, exhaust it and recall it instead" (369.1)
    saved: bool = field(default=False, metadata=js("next_death_replaced", omit=True))
    # "Prevent the next N damage that would be dealt to it this turn": its Prevent Value (437.1.b.1.a, 437.3)
    prevent: int = field(default=0, metadata=js("prevent_value", omit=True, low=0, high=99))
    # The unit this gear is Attached to (718, 719): at that unit's location, moving with it (719.3.a)
    attached_to: str | None = field(default=None, metadata=js(omit=True))
    # Whether it is gear, not a unit (its card's type): never written, read from the card
    gear: bool = field(default=False, metadata=js(write=lambda u, v, ctx: OMIT, missing=_is_gear))
    # The Empowered status, a binary state of a permanent on the board (441.1.a, 441.2)
    empowered: bool = field(default=False, metadata=js(omit=True))


@dataclass(frozen=True)
class Battlefield:
    name: str
    controller: str | None = field(default=None, metadata=js(check="player"))
    contested_by: str | None = field(default=None, metadata=js(check="player"))
    # The player who contributed it to the game, removed with them (652.2), and whether it is
    # the token battlefield with no abilities that replaced it then (652.2.a, 438.1.a).
    contributor: str | None = field(default=None, metadata=js("contributed_by", omit=True, check="player"))
    token: bool = field(default=False, metadata=js("replaced_by_token", omit=True))


@dataclass(frozen=True)
class Showdown:
    battlefield: str = field(metadata=js(missing="the battlefield"))
    combat: bool = False
    passes: int = field(default=0, metadata=js(high=9))  # players who passed focus in sequence (347.2.a)


@dataclass(frozen=True)
class Combat:
    battlefield: str = field(metadata=js(missing=lambda raw, ctx: ctx.showdown.battlefield if ctx.showdown
                                         else "the battlefield"))
    attacker: str = field(metadata=js(check="player"))
    defender: str = field(metadata=js(check="player"))
    step: str = field(default="showdown", metadata=js(choices=("showdown", "damage", "resolution")))
    new_showdown: bool = field(default=True, metadata=js(missing=True))
    result: str | None = None
    # (unit, designation) pairs whose attack or defend trigger condition was checked this
    # combat: such triggers are checked once per combat (383.4.e.2.a, 383.4.f.2.a).
    designated: tuple[tuple[str, str], ...] = field(default=(), metadata=js(record=(
        js("unit")["json"], js("designation", choices=("attacker", "defender"))["json"])))
    # (player, unit) pairs: the order in which a player chose to assign their combat damage among
    # the other side's units (465.2.c), declared with an ``assign`` step before the damage step.
    assigned: tuple[tuple[str, str], ...] = field(default=(), metadata=js(omit=True, record=(
        js("player", check="player")["json"], js("unit")["json"])))


def _read_hands(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, tuple[str, ...] | None], ...]:
    given = a_mapping(raw, where)
    for p in given:
        ctx.check("player", p, where, False)
    return tuple((p, None if given.get(p) is None else tuple(
        text(c, f"{where}.{p}") for c in a_list(given[p], f"{where}.{p}"))) for p in ctx.players)


def _read_counts(raw: Any, where: str, ctx: Context, high: int) -> tuple[tuple[str, int], ...]:
    """A count by player (``{Ann: 2}``), sorted by name."""
    return tuple(sorted((ctx.check("player", p, where, False), whole_number(n, f"{where}.{p}", 0, high))
                        for p, n in a_mapping(raw, where).items()))


def _read_drawn(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, int], ...]:
    return _read_counts(raw, where, ctx, 999)


def _read_points(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, int], ...]:
    given = dict(_read_counts(raw, where, ctx, 99))
    return tuple((p, given[p]) for p in ctx.players if p in given)


def _read_xp(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, int], ...]:
    """Each player's XP (``{Ann: 3}``), in turn order; 0 is left out. XP has no limit (733): the
    model reads up to 999."""
    given = dict(_read_counts(raw, where, ctx, 999))
    return tuple((p, given[p]) for p in ctx.players if given.get(p))


def _read_replaced(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, int], ...]:
    """How often each limited replacement effect was applied (``{Warden: 1}``, by its source's
    name) or limited triggered ability performed (by its name) this turn, sorted by name."""
    return tuple(sorted((text(k, where), whole_number(n, f"{where}.{k}", 1, 9)) for k, n in a_mapping(raw, where).items()))


def _read_teams(raw: Any, where: str, ctx: Context) -> tuple[tuple[str, ...], ...]:
    """Teams (``[[Ann, Cy], [Bo, Dee]]``): each player in one team at most."""
    teams, seen = [], set()
    for i, team in enumerate(a_list(raw, where)):
        members = tuple(ctx.check("player", p, f"{where}[{i}][{j}]", False)
                        for j, p in enumerate(a_list(team, f"{where}[{i}]")))
        if seen & set(members) or len(set(members)) != len(members):
            raise FormatError("a player is on one team only", f"{where}[{i}]")
        seen |= set(members)
        teams.append(members)
    return tuple(teams)


def _write_teams(s: Any, teams: tuple[tuple[str, ...], ...], ctx: Context) -> Any:
    return [list(t) for t in teams] if teams else OMIT


def _record(*keys: str, **specs: dict[str, Any]) -> tuple[Any, ...]:
    """The keys of a record field's mappings, each with its options."""
    return tuple(js(k, **specs.get(k, {}))["json"] for k in keys)


@dataclass(frozen=True)
class State:
    """One moment of the Main Phase. Players are in turn order; the first is the turn player."""

    players: tuple[str, ...]
    priority: str | None = field(default=None, metadata=js(check="player"))
    focus: str | None = field(default=None, metadata=js(check="player"))
    chain: tuple[Item, ...] = ()
    passes: int = field(default=0, metadata=js(high=9))  # players who passed priority in sequence (339.1)
    showdown: Showdown | None = None
    combat: Combat | None = None
    opened_by: str | None = field(default=None, metadata=js(choices=(None, "play", "trigger", "add")))  # 346.1
    tasks: tuple[str, ...] = field(default=(), metadata=js(choices=TASKS))
    phase: str = field(default="main", metadata=js(choices=("beginning", "main", "ending", "over")))
    board: tuple[Permanent, ...] = ()
    battlefields: tuple[Battlefield, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...] | None], ...] = field(default=(), metadata=js(
        mapping=True, read=_read_hands))
    facedown: tuple[tuple[str, str, str, bool], ...] = field(default=(), metadata=js(record=_record(
        "card", "player", "at", "hidden_this_turn", card={"check": "card"}, player={"check": "player"},
        at={"check": "battlefield"}, hidden_this_turn={"omit": True, "default": False})))  # hidden this turn
    finalized: tuple[tuple[str, str, int], ...] = field(default=(), metadata=js(
        "finalized_this_turn", record=_record("player", "card", "id", player={"check": "player"},
                                              id={"default": 0, "high": 10_000})))  # this turn (812.1.c)
    played: tuple[tuple[str, str], ...] = field(default=(), metadata=js(  # whose play completed (419.4.a)
        "played_this_turn", record=_record("player", "card", player={"check": "player"})))
    drawn: tuple[tuple[str, int], ...] = field(default=(), metadata=js(mapping=True, read=_read_drawn))
    trash: tuple[str, ...] = ()  # the cards of every player's trash, in the order they went there
    # Whose trash holds each card of the trash whose ability is active there (each player has
    # their own, 108.2.a; 366.1, 370.3), and the cards banished from a trash, with their owners.
    owners: tuple[tuple[str, str], ...] = field(default=(), metadata=js(
        "trash_owners", omit=True, record=_record("card", "owner", card={"check": "card"}, owner={"check": "player"})))
    banished: tuple[tuple[str, str], ...] = field(default=(), metadata=js(
        omit=True, record=_record("card", "owner", card={"check": "card"}, owner={"check": "player"})))
    scored: tuple[tuple[str, str], ...] = field(default=(), metadata=js(record=_record(
        "player", "at", player={"check": "player"})))  # battlefields scored this turn (470)
    points: tuple[tuple[str, int], ...] = field(default=(), metadata=js(mapping=True, read=_read_points))  # 468
    victory_score: int = field(default=8, metadata=js(omit=True, low=1, high=99))  # 194.3
    winner: str | None = field(default=None, metadata=js(omit=True, check="player"))  # 194.2, 472
    # Players who conceded and left the game, in the order they left (651, 652; 651.4: with their teammates).
    removed: tuple[str, ...] = field(default=(), metadata=js("removed_players", omit=True))
    next_id: int = field(default=1, metadata=js(low=1, high=10_000))
    # Each player's Rune Pool (166) and runes on the board (ready, exhausted: 164.2).
    rune_pools: tuple[tuple[str, int, int], ...] = field(default=(), metadata=js(record=_record(
        "player", "energy", "power", player={"check": "player"})))
    runes: tuple[tuple[str, int, int], ...] = field(default=(), metadata=js(record=_record(
        "player", "ready", "exhausted", player={"check": "player"})))
    # Modes of play with teams (2v2, 489): teammates share points and win together (489.6.a, 489.8.d).
    teams: tuple[tuple[str, ...], ...] = field(default=(), metadata=js(read=_read_teams, write=_write_teams))
    # Battlefields a teammate of the turn player controlled in the Scoring Step: not scored by
    # the turn player's team through conquer this turn (469.1.a, 489.8.b).
    disqualified: tuple[str, ...] = field(default=(), metadata=js("disqualified_this_turn", omit=True,
                                                                  check="battlefield"))
    # "Once (N times) each turn" replacement effects applied this turn, by source (371.1).
    replaced: tuple[tuple[str, int], ...] = field(default=(), metadata=js(
        "replaced_this_turn", mapping=True, omit=True, read=_read_replaced))
    # What the controllers of "you may" replacement effects chose for the deaths about to happen
    # (source, unit, apply), until those deaths are handled (371.2.a).
    replacement_choices: tuple[tuple[str, str, bool], ...] = field(default=(), metadata=js(
        omit=True, record=_record("source", "unit", "apply")))
    # "Once (N times) each turn" triggered abilities performed this turn, by name (383.3.e.1).
    performed: tuple[tuple[str, int], ...] = field(default=(), metadata=js(
        "performed_this_turn", mapping=True, omit=True, read=_read_replaced))
    # Each player's XP (729: public, 729.2; not shared by teammates, 732), in turn order; a player
    # without any is left out.
    experience: tuple[tuple[str, int], ...] = field(default=(), metadata=js(
        "xp", mapping=True, omit=True, read=_read_xp))

    # -- derived --------------------------------------------------------------------------
    @property
    def turn_player(self) -> str:
        return self.players[0]

    @property
    def in_showdown(self) -> bool:
        """A showdown or a combat is in progress (308.1)."""
        return self.showdown is not None or self.combat is not None

    @property
    def turn_state(self) -> str:
        return f"{'showdown' if self.in_showdown else 'neutral'}-{'closed' if self.chain else 'open'}"

    @property
    def pending(self) -> list[Item]:
        if not self.chain:  # mostly: asked of every state, most of which have no chain
            return []
        return [i for i in self.chain if i.status == "pending"]

    @property
    def due_item(self) -> Item | None:
        """The chain's pending item due now: its first, when no task is ready before it."""
        pend = self.pending
        return pend[0] if pend and self.ready_task() is None else None

    @property
    def awaiting_choice(self) -> Item | None:
        """The optional triggered ability due now whose controller has not yet decided to
        perform or decline it."""
        item = self.due_item
        return item if item is not None and item.optional and not item.decided else None

    def chose(self, source: str, unit: str) -> bool | None:
        """Whether the controller of ``source``'s "you may" replacement chose to apply it to
        ``unit``'s death about to happen (None: not chosen yet, 371.2.a)."""
        return next((apply for x, u, apply in self.replacement_choices if (x, u) == (source, unit)), None)

    def xp_of(self, player: str) -> int:
        """The XP ``player`` has marked (729.1; 0 without any)."""
        return dict(self.experience).get(player, 0)

    def times_performed(self, trigger: str) -> int:
        """How often the limited triggered ability ``trigger`` was performed this turn (383.3.e.1)."""
        return dict(self.performed).get(trigger, 0)

    def times_replaced(self, source: str) -> int:
        """How often ``source``'s limited replacement effect was applied this turn (371.1)."""
        return dict(self.replaced).get(source, 0)

    def teammates(self, player: str) -> tuple[str, ...]:
        """The other players of ``player``'s team (none outside modes of play with teams)."""
        for team in self.teams:
            if player in team:
                return tuple(p for p in team if p != player)
        return ()

    def next_player(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def hand(self, player: str) -> tuple[str, ...] | None:
        for p, cards in self.hands:
            if p == player:
                return cards
        return None

    def units_at(self, location: str, controller: str | None = None) -> list[Permanent]:
        """The units (not gear, 149) at ``location``, of ``controller`` if given."""
        return [u for u in self.board if u.location == location and not u.gear
                and (controller is None or u.controller == controller)]

    def permanent(self, name: str) -> Permanent | None:
        for u in self.board:  # a loop, not a generator: asked of every unit of every step
            if u.name == name:
                return u
        return None

    def battlefield(self, name: str) -> Battlefield | None:
        return next((b for b in self.battlefields if b.name == name), None)

    @property
    def sides_established(self) -> bool:
        """A combat is in progress whose Attacker and Defender are established (464.2.c)."""
        return self.combat is not None and not {"combat-opens", "establish-attacker-defender"} & set(self.tasks)

    def ready_task(self) -> str | None:
        """The outstanding task to handle now (tasks go first: HOT FEPR, 334). The Scoring Step's
        holding waits for the chain and the cleanups of the Beginning Step before it."""
        if not self.tasks:
            return None
        task = self.tasks[0]
        if task == "hold" and "cleanup" in self.tasks:  # the Beginning Step's cleanups come first (321.1, 315.2)
            return "cleanup"
        return None if task in DEFERRED_TASKS and self.chain else task


def drawn_plus(state: State, player: str, n: int) -> tuple[tuple[str, int], ...]:
    """The draw counts with ``n`` more for ``player``."""
    counts = dict(state.drawn)
    counts[player] = counts.get(player, 0) + n
    return tuple(sorted(counts.items()))


def with_hand(state: State, player: str, cards: tuple[str, ...] | None) -> tuple[Any, ...]:
    """The hands with ``player``'s replaced."""
    return tuple((p, cards if p == player else c) for p, c in state.hands)


def without_card(state: State, player: str, card: str) -> State:
    """``card`` taken from ``player``'s hand (an unknown hand stays unknown)."""
    hand = state.hand(player)
    if hand is None:
        return state
    rest = list(hand)
    rest.remove(card)
    return replace(state, hands=with_hand(state, player, tuple(rest)))


def with_permanent(state: State, name: str, **changes: Any) -> State:
    """The state with the permanent ``name`` changed (``exhausted=True``, ``location="base"``…)."""
    board = tuple(replace(x, **changes) if x.name == name else x for x in state.board)
    if "location" in changes:  # the cards attached to it change locations with it (719.3.a)
        board = tuple(replace(x, location=changes["location"]) if x.attached_to == name else x for x in board)
    return replace(state, board=board)


def replace_item(chain: tuple[Item, ...], item: Item) -> tuple[Item, ...]:
    return tuple(item if i.id == item.id else i for i in chain)


def without(chain: tuple[Item, ...], item_id: int) -> tuple[Item, ...]:
    return tuple(i for i in chain if i.id != item_id)
