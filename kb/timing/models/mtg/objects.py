"""The Magic model's objects and state: the steps of a turn, cards with their abilities,
spells and abilities on the stack, permanents, cards in exile, payments, and one moment of a game."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any



STEPS = ("untap", "upkeep", "draw", "main1", "beginning-of-combat", "declare-attackers",
         "declare-blockers", "combat-damage", "end-of-combat", "main2", "end", "cleanup")
PHASES = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning", "main1": "precombat main",
          "beginning-of-combat": "combat", "declare-attackers": "combat", "declare-blockers": "combat",
          "combat-damage": "combat", "end-of-combat": "combat", "main2": "postcombat main",
          "end": "ending", "cleanup": "ending"}
STEP_NAMES = {"untap": "untap step", "upkeep": "upkeep step", "draw": "draw step",
              "main1": "precombat main phase", "beginning-of-combat": "beginning of combat step",
              "declare-attackers": "declare attackers step", "declare-blockers": "declare blockers step",
              "combat-damage": "combat damage step", "end-of-combat": "end of combat step",
              "main2": "postcombat main phase", "end": "end step", "cleanup": "cleanup step"}
MAIN = frozenset({"main1", "main2"})
CARD_TYPES = ("land", "creature", "artifact", "enchantment", "instant", "sorcery")
PERMANENT_TYPES = frozenset({"land", "creature", "artifact", "enchantment"})
TARGETS = ("creature", "player", "any", "spell", "permanent")
TRIGGER_EVENTS = ("cast", "enters", "dies", "dealt-damage", "untap", "beginning")
TIMINGS = ("any", "sorcery", "your-upkeep")
COLORS = ("white", "blue", "black", "red", "green")
MAX_HAND = 7

Effect = tuple[Any, ...]


# -- cards ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Trigger:
    """A triggered ability: ``on`` an event; ``step`` and ``whose`` for "at the beginning of";
    ``condition`` ``untapped`` for an intervening "if [this] is untapped" (603.4)."""

    on: str
    name: str
    effects: tuple[Effect, ...] = ()
    step: str = ""
    whose: str = "your"  # your | each
    condition: str = ""


@dataclass(frozen=True)
class Ability:
    """An activated ability; ``mana`` > 0 makes it a mana ability (605.1a)."""

    name: str
    cost: int = 0
    tap: bool = False
    mana: int = 0
    effects: tuple[Effect, ...] = ()
    timing: str = "any"  # any | sorcery | your-upkeep
    zone: str = "battlefield"  # battlefield | graveyard
    artifacts: int = 0  # "only if you control N or more artifacts"
    target: str | None = None


@dataclass(frozen=True)
class Static:
    """A static ability of a permanent: ``boost`` +N/+N to each permanent of ``type`` (of
    ``color`` if given) that its controller controls (``whose`` your) or of any player (each).
    It applies while the permanent is on the battlefield, never uses the stack (604.2, 117.2b)."""

    name: str
    boost: int
    type: str = "creature"
    color: str = ""
    whose: str = "your"  # your | each

    @property
    def text(self) -> str:
        what = " ".join(x for x in (self.color, self.type + "s") if x)
        whose = "you control" if self.whose == "your" else "on the battlefield"
        return f"{what} {whose} get +{self.boost}/+{self.boost}"


@dataclass(frozen=True)
class Card:
    name: str
    types: frozenset[str]
    cost: int = 0
    power: int = 0
    toughness: int = 0
    legendary: bool = False
    flash: bool = False
    effects: tuple[Effect, ...] = ()
    target: str | None = None
    triggers: tuple[Trigger, ...] = ()
    abilities: tuple[Ability, ...] = ()
    morph: int | None = None
    haste: bool = False
    colors: frozenset[str] = frozenset()
    static: Static | None = None
    trample: bool = False
    split_second: bool = False
    suspend: tuple[int, int] | None = None  # (time counters, cost): "Suspend N—[cost]" (702.62a)
    foretell: int | None = None  # its foretell cost (702.143a); foretelling itself costs {2}
    plot: int | None = None  # its plot cost (702.170a)

    @property
    def permanent(self) -> bool:
        return bool(self.types & PERMANENT_TYPES)

    @property
    def instant_speed(self) -> bool:
        return "instant" in self.types or self.flash


# -- state ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Obj:
    """A spell or ability on the stack, or a triggered ability waiting to be put there."""

    id: int
    name: str
    controller: str
    kind: str  # spell | ability | trigger
    card: str | None = None
    source: str | None = None
    effects: tuple[Effect, ...] = ()
    target: str | None = None  # a player's name, or the name the targeted object had when targeted
    amount: int = 0  # "that much": the amount of the event that triggered it
    subject: str | None = None  # "that player": whose step triggered it
    condition: str = ""
    target_id: int | None = None  # the targeted object: a permanent or a spell, by identity (400.7)
    source_id: int | None = None  # the permanent whose ability it is (None once the source is a card elsewhere)


@dataclass(frozen=True)
class Permanent:
    name: str
    card: str
    controller: str
    tapped: bool = False
    damage: int = 0
    sick: bool = False  # not controlled continuously since its controller's turn began (302.6)
    face_down: bool = False
    attacking: bool = False
    blocking: int | None = None  # the id of the attacking creature it blocks
    boost: int = 0  # +N/+N until end of turn
    blocked: bool = False  # an attacker that had blockers declared: blocked until combat ends (509.1h)
    id: int = 0  # its identity: a new object each time it enters the battlefield (400.7)


@dataclass(frozen=True)
class Exiled:
    """A card in exile that a special action put there: ``how`` suspended (with ``counters``
    time counters), foretold (face down) or plotted, in turn ``turn``; a new object (400.7)."""

    id: int
    owner: str
    card: str
    how: str  # suspended | foretold | plotted
    counters: int = 0
    turn: int = 0


# What each special action that exiles a card from the hand makes of it, and its cost.
EXILING = {"suspend": "suspended", "foretell": "foretold", "plot": "plotted"}


@dataclass(frozen=True)
class Payment:
    """A cost being paid: casting, activating, turning face up, or a payment an effect asks."""

    player: str
    amount: int
    purpose: str  # cast | activate | face-up | unless | suspend | foretell | plot
    what: str
    item: int | None = None
    exiled: int | None = None  # the card in exile being cast (it leaves exile once paid for)


@dataclass(frozen=True)
class Resolving:
    """The spell or ability resolving; ``asked``: players still to choose (APNAP)."""

    item: Obj
    index: int = 0
    asked: tuple[str, ...] = ()
    chosen: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class State:
    """One moment of a game. ``players`` is the turn order; ``active`` is whose turn it is."""

    players: tuple[str, ...]
    active: str
    step: str = "main1"
    begun: bool = True
    priority: str | None = None
    due: str | None = None  # who would receive priority next (117.5 runs first)
    due_reason: str = ""  # step | resolved | action | special
    passes: int = 0
    awaiting: str | None = None  # declare-attackers | declare-blockers (a turn-based choice)
    no_attackers: bool = False  # none were declared: skip declare blockers and combat damage (508.8)
    stack: tuple[Obj, ...] = ()
    waiting: tuple[Obj, ...] = ()
    board: tuple[Permanent, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    graveyard: tuple[tuple[str, str], ...] = ()  # (owner, card)
    life: tuple[tuple[str, int], ...] = ()
    pool: tuple[tuple[str, int], ...] = ()
    lands_played: tuple[str, ...] = ()
    drawn: tuple[tuple[str, int], ...] = ()
    payment: Payment | None = None
    resolving: Resolving | None = None
    extra_turns: tuple[str, ...] = ()
    lost: tuple[str, ...] = ()  # players who lost: out of the game (a multiplayer game goes on: 800.4)
    defending: str | None = None  # the defending player (chosen at the beginning of combat in multiplayer: 507.1)
    exile: tuple[Exiled, ...] = ()  # suspended, foretold and plotted cards
    turn: int = 1
    next_id: int = 1

    @property
    def phase(self) -> str:
        return PHASES[self.step]

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in the game, in turn order."""
        return tuple(p for p in self.players if p not in self.lost)

    @property
    def over(self) -> bool:
        """The game has ended: at most one player is left in it (104.2a, 104.4a)."""
        return len(self.remaining) <= 1

    @property
    def nonactive(self) -> tuple[str, ...]:
        """The other players still in the game, in turn order from the active player."""
        i = self.players.index(self.active)
        return tuple(p for p in self.players[i + 1:] + self.players[:i] if p not in self.lost)

    @property
    def apnap(self) -> tuple[str, ...]:
        """The active player, then the others in turn order (101.4); a turn whose player left
        the game goes on without an active player (800.4j)."""
        return ((self.active,) if self.active not in self.lost else ()) + self.nonactive

    @property
    def defender(self) -> str:
        return self.defending or (self.nonactive[0] if self.nonactive else self.active)

    def next_player(self, player: str) -> str:
        """The next player in turn order still in the game."""
        i = self.players.index(player)
        for p in self.players[i + 1:] + self.players[:i + 1]:
            if p not in self.lost:
                return p
        return player

    def hand(self, player: str) -> tuple[str, ...] | None:
        return next((h for p, h in self.hands if p == player), None)

    def life_of(self, player: str) -> int:
        return dict(self.life).get(player, 20)

    def mana(self, player: str) -> int:
        return dict(self.pool).get(player, 0)

    def permanent(self, name: str | None) -> Permanent | None:
        return next((u for u in self.board if u.name == name), None)

    def object(self, ident: int | None) -> Permanent | None:
        """The permanent that is the object ``ident`` (None once it has left the battlefield)."""
        return None if ident is None else next((u for u in self.board if u.id == ident), None)

    def exiled(self, ident: int | None) -> Exiled | None:
        """The card in exile that is the object ``ident``."""
        return next((x for x in self.exile if x.id == ident), None)

    def controls(self, player: str) -> list[Permanent]:
        return [u for u in self.board if u.controller == player]

    @property
    def busy(self) -> bool:
        """Something is under way that no automatic step of the turn may interrupt."""
        return self.resolving is not None or self.payment is not None or self.awaiting is not None

    @property
    def opponents(self) -> tuple[str, ...]:
        """The active player's opponents still in the game, in turn order."""
        return tuple(p for p in self.nonactive if p != self.active)


def add_count(pairs: tuple[tuple[str, int], ...], player: str, delta: int) -> tuple[tuple[str, int], ...]:
    """A player's count (life, cards drawn) changed by ``delta``."""
    d = dict(pairs)
    d[player] = d.get(player, 0) + delta
    return tuple(sorted(d.items()))


def with_hand(s: State, player: str, cards: tuple[str, ...] | None) -> State:
    """The state with ``player``'s hand replaced."""
    return replace(s, hands=tuple((p, cards if p == player else h) for p, h in s.hands))


def without_card(s: State, player: str, card: str) -> State:
    """The state with one ``card`` gone from ``player``'s hand (an unknown hand stays unknown)."""
    hand = s.hand(player)
    if hand is None:
        return s
    rest = list(hand)
    rest.remove(card)
    return with_hand(s, player, tuple(rest))


def with_pool(s: State, player: str, n: int) -> State:
    """The state with ``player``'s mana pool holding ``n``."""
    d = dict(s.pool)
    d[player] = n
    return replace(s, pool=tuple(sorted((p, v) for p, v in d.items() if v)))


def on_text(target: str | None, ident: int | None, ambiguous: bool) -> str:
    """The " targeting X" of a label; an object whose name another shares is told by its id."""
    if target is None:
        return ""
    return f" targeting {target} (object {ident})" if ambiguous else f" targeting {target}"
