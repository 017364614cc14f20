"""The Riftbound timing model's data: abstract cards and the immutable state of one moment
of the Main Phase (the chain, priority and focus, showdown and combat, the board)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Tasks that wait until the chain is empty ("Resolve any items on the chain … before
# performing this step", 466.2, 466.4, 466.6).
DEFERRED_TASKS = frozenset({"combat-result", "establish-control", "combat-ends"})

# -- cards ---------------------------------------------------------------------------------
Effect = tuple[Any, ...]  # ("draw", 1), ("counter", "target"), ("create", name, effects, times)…


@dataclass(frozen=True)
class Trigger:
    """A triggered ability printed on a permanent: ``on`` an event, optional ("you may")."""

    on: str
    name: str
    effects: tuple[Effect, ...] = ()
    optional: bool = False
    what: str = "self"  # for on: play — self (a Play Effect), or spell|unit|gear|card you play


@dataclass(frozen=True)
class Ability:
    """An activated ability of a permanent; ``add`` marks an ability that Adds resources."""

    name: str
    keywords: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    add: bool = False


@dataclass(frozen=True)
class Card:
    name: str
    type: str
    keywords: frozenset[str] = frozenset()
    effects: tuple[Effect, ...] = ()
    legion: tuple[Effect, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    abilities: tuple[Ability, ...] = ()
    might: int = 1


# -- state ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """A chain item: a card being played, an activated ability or a triggered ability."""

    id: int
    name: str
    controller: str
    kind: str  # spell | unit | gear | ability | trigger
    status: str = "pending"  # pending | finalized
    card: str | None = None
    source: str | None = None
    effects: tuple[Effect, ...] = ()
    add: bool = False
    optional: bool = False
    decided: bool = False
    origin: str = "hand"  # hand | facedown | effect | activated | trigger | reflexive
    to: str | None = None
    target: str | None = None
    ambush: bool = False
    keywords: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Permanent:
    name: str
    card: str
    controller: str
    location: str  # "base" or a battlefield's name
    exhausted: bool = False
    designation: str | None = None  # attacker | defender
    damage: int = 0


@dataclass(frozen=True)
class Battlefield:
    name: str
    controller: str | None = None
    contested_by: str | None = None


@dataclass(frozen=True)
class Showdown:
    battlefield: str
    combat: bool = False
    passes: int = 0  # players who passed focus in sequence (347.2.a)


@dataclass(frozen=True)
class Combat:
    battlefield: str
    attacker: str
    defender: str
    step: str = "showdown"  # showdown | damage | resolution
    new_showdown: bool = True
    result: str | None = None
    # (unit, designation) pairs whose attack or defend trigger condition was checked this
    # combat: such triggers are checked once per combat (383.4.e.2.a, 383.4.f.2.a).
    designated: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class State:
    """One moment of the Main Phase. Players are in turn order; the first is the turn player."""

    players: tuple[str, ...]
    priority: str | None = None
    focus: str | None = None
    chain: tuple[Item, ...] = ()
    passes: int = 0  # players who passed priority in sequence (339.1)
    showdown: Showdown | None = None
    combat: Combat | None = None
    opened_by: str | None = None  # what opened the chain: play | trigger | add (346.1)
    tasks: tuple[str, ...] = ()
    phase: str = "main"  # main | ending
    board: tuple[Permanent, ...] = ()
    battlefields: tuple[Battlefield, ...] = ()
    hands: tuple[tuple[str, tuple[str, ...] | None], ...] = ()
    facedown: tuple[tuple[str, str, str, bool], ...] = ()  # (card, player, battlefield, hidden this turn)
    finalized: tuple[tuple[str, str, int], ...] = ()  # (player, card, item id) this turn (812.1.c)
    played: tuple[tuple[str, str], ...] = ()  # (player, card) whose play completed (419.4.a)
    drawn: tuple[tuple[str, int], ...] = ()
    trash: tuple[str, ...] = ()
    scored: tuple[tuple[str, str], ...] = ()
    next_id: int = 1

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
        return [i for i in self.chain if i.status == "pending"]

    def next_player(self, player: str) -> str:
        return self.players[(self.players.index(player) + 1) % len(self.players)]

    def hand(self, player: str) -> tuple[str, ...] | None:
        for p, cards in self.hands:
            if p == player:
                return cards
        return None

    def units_at(self, location: str, controller: str | None = None) -> list[Permanent]:
        return [u for u in self.board if u.location == location
                and (controller is None or u.controller == controller)]

    def permanent(self, name: str) -> Permanent | None:
        return next((u for u in self.board if u.name == name), None)

    def battlefield(self, name: str) -> Battlefield | None:
        return next((b for b in self.battlefields if b.name == name), None)

    @property
    def sides_established(self) -> bool:
        """A combat is in progress whose Attacker and Defender are established (464.2.c)."""
        return self.combat is not None and not {"combat-opens", "establish-attacker-defender"} & set(self.tasks)

    def ready_task(self) -> str | None:
        """The outstanding task to handle now (tasks go first: HOT FEPR, 334)."""
        if not self.tasks:
            return None
        task = self.tasks[0]
        return None if task in DEFERRED_TASKS and self.chain else task


def _drawn(state: State, player: str, n: int) -> tuple[tuple[str, int], ...]:
    counts = dict(state.drawn)
    counts[player] = counts.get(player, 0) + n
    return tuple(sorted(counts.items()))


def _set_hand(state: State, player: str, cards: tuple[str, ...] | None) -> tuple:
    return tuple((p, cards if p == player else c) for p, c in state.hands)


def _replace_item(chain: tuple[Item, ...], item: Item) -> tuple[Item, ...]:
    return tuple(item if i.id == item.id else i for i in chain)


def _without(chain: tuple[Item, ...], item_id: int) -> tuple[Item, ...]:
    return tuple(i for i in chain if i.id != item_id)
