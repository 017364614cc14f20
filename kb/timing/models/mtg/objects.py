"""The Magic model's objects and state: the steps of a turn, cards with their abilities,
spells and abilities on the stack, permanents, cards in exile, payments, and one moment of a game.

Every field of the state's dataclasses says how it reads and writes as JSON (``metadata=js(...)``,
see :mod:`kb.timing.models.codec`): the state's JSON is derived from them; ``state_io`` adds what
no single field can say (ids unique across zones, a target named by an object's name)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from kb.timing.models.codec import OMIT, Context, js
from kb.timing.models.frozen import replace

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
IDS = {"low": 1, "high": 10_000}  # the range of an object's id


def _first_player(raw: Any, ctx: Context) -> str:
    """A controller left out: the first player."""
    return ctx.players[0]  # type: ignore[no-any-return]


def _effects(obj: Any, effects: tuple[Effect, ...], ctx: Context) -> Any:
    """An object's instructions as JSON (left out when it has none): the context's writer, told
    whether the object has a target (``{boost: N}`` is then its target's)."""
    return ctx.effects_json(effects, targeted(obj)) if effects else OMIT


def targeted(obj: Any) -> bool:
    """A spell or ability with a target: a name, an object's id or several targets (an object or
    its JSON mapping)."""
    get = obj.get if isinstance(obj, dict) else lambda k: getattr(obj, k, None)
    return any(get(k) not in (None, (), []) for k in ("target", "target_id", "targets"))


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
    # "If [this permanent | a creature | a creature an opponent controls] would die, exile it
    # instead": a replacement effect (614.1a), while this permanent is on the battlefield.
    exile_instead: str | None = None  # self | creatures | opponents-creatures
    # "each of up to N target creatures (permanents)": a spell choosing 1 to N different objects
    # of its target kind, its instructions naming them ``targets`` (0: one target, or none)
    targets: int = 0
    # First strike: it assigns combat damage in a first combat damage step of its own (702.7b, 510.4)
    first_strike: bool = False
    # Double strike: it assigns combat damage in both combat damage steps (702.4b, 510.4)
    double_strike: bool = False
    # Vigilance: attacking doesn't cause it to tap (702.20b)
    vigilance: bool = False
    # Flying: blocked only by creatures with flying or reach (702.9b); reach: it may block those (702.17b)
    flying: bool = False
    reach: bool = False
    # Ward N: "whenever this permanent becomes the target of a spell or ability an opponent
    # controls, counter it unless that player pays {N}" (702.21a); None: no ward
    ward: int | None = None
    # Deathtouch: any damage it deals to a creature destroys it (704.5h), and 1 is lethal damage
    # as it assigns combat damage (702.2c; 702.2b in 2010)
    deathtouch: bool = False
    # Lifelink: the damage it deals also makes its controller gain that much life (702.15b)
    lifelink: bool = False
    # Indestructible: not destroyed, by lethal damage, deathtouch or "destroy" (702.12b; 700.4 in 2010)
    indestructible: bool = False
    # Menace: it can't be blocked except by two or more creatures (702.111b; not in 2010)
    menace: bool = False
    # Defender: it can't attack (702.3b)
    defender: bool = False

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

    __json_keys__: ClassVar[tuple[str, ...]] = ("name", "controller", "kind", "id", "card", "source", "target",
                                                "subject", "effects", "amount", "if", "target_id", "source_id",
                                                "targets")

    id: int = field(metadata=js(**IDS))
    name: str
    controller: str = field(metadata=js(check="player", missing=_first_player))
    kind: str  # spell | ability | trigger
    card: str | None = field(default=None, metadata=js(omit=True))
    source: str | None = field(default=None, metadata=js(omit=True))
    effects: tuple[Effect, ...] = field(default=(), metadata=js(write=_effects))
    # a player's name, or the name the targeted object had when targeted
    target: str | None = field(default=None, metadata=js(omit=True))
    # "that much": the amount of the event that triggered it
    amount: int = field(default=0, metadata=js(omit=True, high=99))
    # "that player": whose step triggered it
    subject: str | None = field(default=None, metadata=js(omit=True, check="player"))
    condition: str = field(default="", metadata=js("if", omit=True, choices=("", "untapped"), missing=""))
    # the targeted object: a permanent or a spell, by identity (400.7)
    target_id: int | None = field(default=None, metadata=js(omit=True, **IDS))
    # the permanent whose ability it is (None once the source is a card elsewhere)
    source_id: int | None = field(default=None, metadata=js(omit=True, **IDS))
    # a spell's several targets ("each of up to N target creatures"): (name when targeted, object id)
    targets: tuple[tuple[str, int], ...] = field(default=(), metadata=js(omit=True, record=(
        js("name")["json"], js("id", **IDS)["json"])))


@dataclass(frozen=True)
class Permanent:
    __json_keys__: ClassVar[tuple[str, ...]] = ("name", "card", "controller", "id", "tapped", "sick", "face_down",
                                                "attacking", "blocked", "damage", "boost", "blocking", "prevention",
                                                "order", "deathtouch_damage")

    name: str
    card: str = field(metadata=js(check="card", missing=lambda raw, ctx: raw.get("name")))
    controller: str = field(metadata=js(check="player", missing=_first_player))
    tapped: bool = field(default=False, metadata=js(omit=True))
    damage: int = field(default=0, metadata=js(omit=True, high=999))
    # not controlled continuously since its controller's turn began (302.6)
    sick: bool = field(default=False, metadata=js(omit=True))
    face_down: bool = field(default=False, metadata=js(omit=True))
    attacking: bool = field(default=False, metadata=js(omit=True))
    # the id of the attacking creature it blocks (read by ``state_io``: an id or a permanent's name)
    blocking: int | None = field(default=None, metadata=js(omit=True))
    boost: int = field(default=0, metadata=js(omit=True))  # +N/+N until end of turn
    # "prevent the next N damage that would be dealt to it this turn": a shield (615.7)
    prevention: int = field(default=0, metadata=js(omit=True, high=99))
    # an attacker that had blockers declared: blocked until combat ends (509.1h)
    blocked: bool = field(default=False, metadata=js(omit=True))
    # its identity: a new object each time it enters the battlefield (400.7)
    id: int = field(default=0, metadata=js(**IDS))
    # a blocker's place (1 first) in the damage assignment order of the creature it blocks, as the
    # active player announced it (2010's 509.2); 0: none announced (2026 has no such order)
    order: int = field(default=0, metadata=js(omit=True, high=4))
    # dealt damage by a source with deathtouch since state-based actions were last checked (704.5h)
    deathtouch_damage: bool = field(default=False, metadata=js(omit=True))


@dataclass(frozen=True)
class Exiled:
    """A card in exile that a special action put there: ``how`` suspended (with ``counters``
    time counters), foretold (face down) or plotted, or a permanent ``exiled`` instead of dying
    (a replacement effect, 614.6), in turn ``turn``; a new object (400.7)."""

    id: int = field(metadata=js(**IDS))
    owner: str = field(metadata=js(check="player"))
    card: str = field(metadata=js(check="card"))
    how: str = field(metadata=js("as", choices=("suspended", "foretold", "plotted", "exiled")))
    counters: int = field(default=0, metadata=js(  # written for a suspended card only
        "time_counters", write=lambda x, n, ctx: n if x.how == "suspended" else OMIT))
    turn: int = field(default=0, metadata=js(high=9999))


# What each special action that exiles a card from the hand makes of it, and its cost.
EXILING = {"suspend": "suspended", "foretell": "foretold", "plot": "plotted"}


@dataclass(frozen=True)
class Payment:
    """A cost being paid: casting, activating, turning face up, or a payment an effect asks."""

    player: str = field(metadata=js(check="player"))
    amount: int = field(metadata=js(low=1))
    purpose: str = field(metadata=js(choices=("cast", "activate", "face-up", "unless", "suspend", "foretell", "plot")))
    what: str
    item: int | None = field(default=None, metadata=js(**IDS))
    # the card in exile being cast (it leaves exile once paid for)
    exiled: int | None = field(default=None, metadata=js(omit=True, **IDS))


@dataclass(frozen=True)
class Resolving:
    """The spell or ability resolving; ``asked``: players still to choose (APNAP)."""

    item: Obj
    index: int = 0
    asked: tuple[str, ...] = field(default=(), metadata=js(check="player"))
    chosen: tuple[tuple[str, str], ...] = field(default=(), metadata=js(record=(js("player", check="player")["json"],
                                                                                 js("choice")["json"])))


@dataclass(frozen=True)
class State:
    """One moment of a game. ``players`` is the turn order; ``active`` is whose turn it is."""

    # Read by ``state_io`` (``given``): what depends on other fields (the players, the step, the
    # ids across zones, the objects a target or a block names); the rest by its metadata.
    players: tuple[str, ...]
    active: str
    step: str = "main1"
    begun: bool = True
    priority: str | None = None
    due: str | None = None  # who would receive priority next (117.5 runs first)
    due_reason: str = field(default="", metadata=js(  # step | resolved | action | special
        write=lambda s, reason, ctx: reason or None))
    passes: int = field(default=0, metadata=js(high=9))
    awaiting: str | None = None  # declare-attackers | declare-blockers (a turn-based choice)
    no_attackers: bool = False  # none were declared: skip declare blockers and combat damage (508.8)
    # Which combat damage step this is when a creature in combat has first strike (510.4): 1, the
    # first (first strikers only), 2, the second (the others); 0, the only one, or none yet.
    damage_step: int = field(default=0, metadata=js(omit=True, high=2))
    stack: tuple[Obj, ...] = ()
    waiting: tuple[Obj, ...] = ()
    board: tuple[Permanent, ...] = field(default=(), metadata=js("battlefield"))
    hands: tuple[tuple[str, tuple[str, ...] | None], ...] = field(default=(), metadata=js(mapping=True))
    graveyard: tuple[tuple[str, str], ...] = field(default=(), metadata=js(  # (owner, card)
        record=(js("owner", check="player")["json"], js("card", check="card")["json"])))
    life: tuple[tuple[str, int], ...] = field(default=(), metadata=js(
        write=lambda s, life, ctx: {p: s.life_of(p) for p in s.players}))
    pool: tuple[tuple[str, int], ...] = field(default=(), metadata=js(
        write=lambda s, pool, ctx: {p: s.mana(p) for p in s.players if s.mana(p)}))
    lands_played: tuple[str, ...] = field(default=(), metadata=js(check="player"))
    drawn: tuple[tuple[str, int], ...] = field(default=(), metadata=js(mapping=True))
    # players' shields: "prevent the next N damage that would be dealt to [a player] this turn" (615.7)
    prevention: tuple[tuple[str, int], ...] = field(default=(), metadata=js(mapping=True, omit=True))
    payment: Payment | None = None
    resolving: Resolving | None = None
    extra_turns: tuple[str, ...] = field(default=(), metadata=js(check="player"))
    # players who lost: out of the game (a multiplayer game goes on: 800.4)
    lost: tuple[str, ...] = field(default=(), metadata=js(check="player"))
    # the defending player (chosen at the beginning of combat in multiplayer: 507.1)
    defending: str | None = field(default=None, metadata=js(check="player"))
    exile: tuple[Exiled, ...] = ()  # suspended, foretold and plotted cards
    turn: int = field(default=1, metadata=js(low=1, high=9999))
    next_id: int = 1

    @property
    def phase(self) -> str:
        return PHASES[self.step]

    @property
    def remaining(self) -> tuple[str, ...]:
        """The players still in the game, in turn order."""
        if not self.lost:
            return self.players
        return tuple(p for p in self.players if p not in self.lost)

    @property
    def over(self) -> bool:
        """The game has ended: at most one player is left in it (104.2a, 104.4a)."""
        return len(self.remaining) <= 1

    @property
    def winner(self) -> str | None:
        """The player left when every opponent has left the game (104.2a); none while the game
        goes on, or when all the players remaining lost at once (a draw, 104.4a)."""
        return self.remaining[0] if self.over and self.remaining else None

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
        for p, h in self.hands:
            if p == player:
                return h
        return None

    def life_of(self, player: str) -> int:
        return dict(self.life).get(player, 20)

    def mana(self, player: str) -> int:
        return dict(self.pool).get(player, 0)

    def permanent(self, name: str | None) -> Permanent | None:
        for u in self.board:
            if u.name == name:
                return u
        return None

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
