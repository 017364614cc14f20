"""Every decision sequence up to a bounded depth, with 2 and 3 players and a small card pool,
keeps Magic's timing invariants. The engine checks the model's own invariants and state
validity after every step; this test checks the same properties again, independently (from
the trace and the card pool, without the model's helpers), on every node of every trace, and
makes sure the exploration reached the transitions those properties are about."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from kb.timing import engine
from kb.timing.engine import InvariantBroken, TraceNode
from exploring import explore_checked
from kb.timing.models.mtg import scenario as mtg_scenario
from kb.timing.models.mtg import Magic, State

CARDS = {
    "Bolt": {"type": "instant", "target": "any", "effects": [{"damage": {"to": "target", "amount": 3}}]},
    "Cancel": {"type": "instant", "target": "spell", "effects": [{"counter": "target"}]},
    "Bear": {"type": "creature", "power": 2, "toughness": 2, "cost": 1},
    "Pup": {"type": "creature", "power": 2, "toughness": 1,
            "triggers": [{"on": "dealt-damage", "name": "Pup's ability",
                          "effects": [{"damage": {"to": "you", "amount": "that"}}]}]},
    "Rot": {"type": "sorcery", "effects": [{"discard": "each"}]},
    "Forest": {"type": "land"},
    "Angel": {"type": "creature", "power": 4, "toughness": 5, "morph": 0},
    "Phoenix": {"type": "creature", "power": 2, "toughness": 1,
                "abilities": [{"name": "Phoenix's return", "zone": "graveyard", "effects": [{"return": True}]}]},
    "Mine": {"type": "artifact", "triggers": [{"on": "beginning", "step": "upkeep", "whose": "each",
                                               "name": "Mine's ability", "effects": [{"draw": 1}]}]},
    # the special actions that exile a card from the hand (116.2f, h, k)
    "Meteor": {"type": "sorcery", "target": "any", "suspend": {"time": 1, "cost": 0},
               "effects": [{"damage": {"to": "target", "amount": 3}}]},
    "Omen": {"type": "instant", "cost": 2, "foretell": 0, "effects": [{"draw": 1}]},
    "Outlaw": {"type": "creature", "keywords": ["flash"], "power": 1, "toughness": 1, "cost": 2, "plot": 0},
    "Shock": {"type": "instant", "keywords": ["split-second"], "target": "any",
              "effects": [{"damage": {"to": "target", "amount": 2}}]},
    # replacement effects: "if this would die, exile it instead", "if a creature an opponent
    # controls would die, exile it instead" (614.1a), and a creature with a dies ability
    "Wanderer": {"type": "creature", "power": 2, "toughness": 2, "replacement": {"would_die": "self", "instead": "exile"},
                 "triggers": [{"on": "dies", "name": "Wanderer's ability", "effects": [{"draw": 1}]}]},
    "Jailer": {"type": "enchantment", "replacement": {"would_die": "opponents-creatures", "instead": "exile"}},
    "Traveler": {"type": "creature", "power": 1, "toughness": 1,
                 "triggers": [{"on": "dies", "name": "Traveler's ability", "effects": [{"draw": 1}]}]},
    "Smite": {"type": "instant", "target": "creature", "effects": [{"destroy": "target"}]},
}

# (players, starting step, depth, low life): from the main phase deep enough to cast, respond,
# counter, resolve, kill with a trigger and pay mana; from the end step through the next untap
# step, upkeep triggers and draw; and a game of three whose active player and Cy are one Bolt
# from losing, so that players leave (800.4) and the game goes on or ends. Small enough to stay
# well under a minute together.
# And objects changing identity: a face-down Angel turned face up (the same object) and a
# Phoenix that dies and returns (a new object, 400.7), with Bolts aimed at both.
# Special actions: from the other player's end step through the next turn, with a card of each kind
# already exiled: suspend, foretell and plot, time counters, casting from exile, a split second spell; and a game of four from
# the beginning of combat, where the attacking player chooses the defending player (507.1).
CASES = [(2, "main1", 11, False), (3, "main1", 8, False), (2, "end", 16, False), (3, "main1", 7, True),
         (2, "main1", 12, "identity"), (2, "end", 14, "special"), (4, "beginning-of-combat", 13, "defender"),
         (3, "main1", 8, "replacement")]
LABELS = {False: "", True: " at low life", "identity": " with objects changing identity",
          "special": " with suspend, foretell and plot", "defender": " choosing the defending player",
          "replacement": " with replacement effects exiling dying creatures"}


def setup(players: int, step: str, low: bool | str = False) -> tuple[Magic, State]:
    seats = [{"name": "Ann", "hand": ["Bolt", "Bear", "Rot", "Forest"], "battlefield": ["Pup", "Mine"]},
             {"name": "Bo", "hand": ["Cancel", "Bolt"], "battlefield": ["Forest"]},
             {"name": "Cy", "hand": ["Bolt"], "battlefield": ["Bear"]}]
    if low == "special":  # Bo's end step; Ann exiled a card of each kind in her last turn
        seats = [{"name": "Bo", "hand": ["Shock", "Omen"]},
                 {"name": "Ann", "hand": ["Meteor", "Omen", "Outlaw"], "battlefield": ["Forest"],
                  "exile": [{"card": "Meteor", "as": "suspended", "time_counters": 1},
                            {"card": "Omen", "as": "foretold"}, {"card": "Outlaw", "as": "plotted"}]}]
    elif low == "defender":
        seats = [{"name": "Ann", "hand": ["Bolt"], "battlefield": ["Bear", "Forest"]}, {"name": "Bo", "hand": []},
                 {"name": "Cy", "hand": [], "battlefield": ["Bear"]}, {"name": "Di", "hand": []}]
    elif low == "replacement":
        seats = [{"name": "Ann", "hand": ["Bolt", "Smite"], "battlefield": ["Traveler"]},
                 {"name": "Bo", "hand": ["Bolt"], "battlefield": ["Wanderer", "Traveler"]},
                 {"name": "Cy", "hand": ["Smite"], "battlefield": ["Jailer", "Traveler"]}]
    elif low == "identity":
        seats = [{"name": "Ann", "hand": ["Bolt"], "battlefield": ["Phoenix"]},
                 {"name": "Bo", "hand": ["Bolt"], "battlefield": [{"card": "Angel", "face_down": True,
                                                                  "name": "Morph"}]}]
    elif low is True:
        seats[0] = {**seats[0], "life": 3}
        seats[2] = {**seats[2], "life": 3}
    return mtg_scenario.setup({"players": seats[:players], "cards": CARDS, "start": {"step": step, "turn": 3}})


def sba_applies(model: Magic, s: State) -> bool:
    """A state-based action applies (704.5a, f, g; the legend rule does not arise here)."""
    for u in s.board:
        card = CARDS[u.card]
        toughness = 2 if u.face_down else card.get("toughness", 0)  # a face-down permanent is a 2/2 (708.2)
        if card["type"] == "creature" and (toughness + u.boost <= 0 or u.damage >= toughness + u.boost):
            return True
    return any(life <= 0 for p, life in s.life if p not in s.lost)


def violations(model: Magic, node: TraceNode) -> Iterator[str]:
    before, after = node.before, node.after
    for c in node.children:
        if c.name == "death-replaced":
            card = next(u.card for u in before.board if u.name == c.params["permanent"])
            if not any(x.card == card and x.how == "exiled" for x in after.exile):
                yield f"{c.params['permanent']} was not exiled instead of dying (614.6)"
            if (c.after.stack, c.after.priority) != (c.before.stack, c.before.priority):
                yield "a replacement effect used the stack or gave priority (614.1)"
    if after.priority is not None and after.priority not in after.players:
        yield "priority held by someone who is not a single player"
    remaining = [p for p in after.players if p not in after.lost]
    if len(remaining) > 1 and node.transition.kind != "step":  # the game goes on without them (800.4a)
        for who in after.lost:
            if after.priority == who:
                yield f"{who} holds priority after leaving the game"
            if any(u.controller == who for u in after.board) or any(o.controller == who for o in after.stack):
                yield f"{who}'s objects stayed in the game after {who} left"
            if any(o.controller == who for o in after.waiting):
                yield f"{who}'s triggered ability waits after {who} left"
    ids = [u.id for u in after.board] + [o.id for o in after.stack] + [o.id for o in after.waiting]
    if len(ids) != len(set(ids)):
        yield "two objects share an id"
    old = {u.id for u in before.board} | {o.id for o in before.stack} | {o.id for o in before.waiting}
    for u in after.board:
        if u.id not in old and u.id < before.next_id:
            yield f"{u.name} entered the battlefield with an id an earlier object had (400.7: a new object)"
    if any(n.name == "special-action" and "face up" in n.params.get("what", "") for n in node.children):
        if sorted(u.id for u in before.board) != sorted(u.id for u in after.board):
            yield "turning a permanent face up changed which objects are on the battlefield"
    if node.name == "resolve":
        top = before.stack[-1]
        gone = top.target_id is not None and all(u.id != top.target_id for u in before.board) and all(
            o.id != top.target_id for o in before.stack)
        if gone and not any(n.name == "target-illegal" for n in node.children):
            yield f"{top.name} resolved although the object it targeted is gone"
    if node.name == "pass" and node.params["player"] in before.lost:
        yield "a player who has left the game passed"
    if node.name == "turn-ends" and node.params["player"] in before.lost:
        yield "a player who has left the game begins a turn"
    if after.resolving is not None and after.priority is not None:
        yield "a player has priority while a spell or ability resolves"
    if after.step == "untap" and after.priority is not None:
        yield "a player has priority in the untap step"
    if node.name == "resolve" and (not before.stack or node.params["id"] != before.stack[-1].id):
        yield "something other than the top of the stack resolved"
    card = CARDS.get(node.params.get("card", ""), {})
    if node.name == "cast" and card["type"] != "instant" and "flash" not in card.get("keywords", ()):
        if before.stack or before.step not in ("main1", "main2") or node.params["player"] != before.active:
            yield "a sorcery-speed spell was cast outside its controller's main phase or on a stack"
    if node.name == "play-land" and (before.stack or node.params["player"] != before.active):
        yield "a land was played on a stack or in another player's turn"
    yield from special_action_violations(node)
    if after.priority is not None and before.priority is None:
        if after.waiting:
            yield "a player received priority with triggered abilities waiting"
        if sba_applies(model, after):
            yield "a player received priority while a state-based action applied"


def special_action_violations(node: TraceNode) -> Iterator[str]:
    """Special actions (116.1, 116.2f/h/k), casting from exile (702.143a, 702.170d) and the choice of
    the defending player (507.1), from the trace alone."""
    before, after, name, p = node.before, node.after, node.name, node.params
    if name in ("suspend", "foretell", "plot"):
        if len(after.stack) != len(before.stack):
            yield f"{name} used the stack"
        instant = CARDS[p["card"]]["type"] == "instant" or "flash" in CARDS[p["card"]].get("keywords", ())
        own_main_empty = p["player"] == before.active and before.step in ("main1", "main2") and not before.stack
        if name == "foretell" and p["player"] != before.active:
            yield "a card was foretold outside its owner's turn"
        if name == "plot" and not own_main_empty:
            yield "a card was plotted outside its owner's main phase with an empty stack"
        if name == "suspend" and (not instant and not own_main_empty or any(
                CARDS[o.card].get("keywords") == ["split-second"] for o in before.stack if o.card)):
            yield "a card was suspended when it could not have been cast"
    if name in ("cast-foretold", "cast-plotted"):
        exiled = next(x for x in before.exile if x.id == p["exile_id"])
        if exiled.turn >= before.turn:
            yield "a card was cast from exile in the turn it was exiled"
        if name == "cast-plotted" and (before.stack or before.step not in ("main1", "main2")
                                       or p["player"] != before.active):
            yield "a plotted card was cast outside its owner's main phase with an empty stack"
    counted = [x.counters for x in after.exile if x.how == "suspended"]
    if any(n < 0 for n in counted):
        yield "a suspended card has fewer than no time counters"
    if name == "choose-defender" and (p["defender"] == before.active or p["defender"] in before.lost):
        yield "the defending player chosen is not an opponent still in the game"
    if name == "declare-blockers" and len(before.players) > 2 and p["player"] != before.defending:
        yield "a player other than the chosen defending player declared blockers"
    if name == "declare-attackers" and len([q for q in before.players if q not in before.lost]) > 2 \
            and before.defending is None:
        yield "attackers were declared in a multiplayer game before a defending player was chosen"


@pytest.mark.parametrize("players,step,depth,low", CASES,
                         ids=[f"{p}-players-{s}-depth-{d}"
                              + {False: "", True: "-players-leave", "identity": "-identity", "special": "-special-actions",
                                 "defender": "-defending-player", "replacement": "-replacement-effects"}[low]
                              for p, s, d, low in CASES])
def test_invariants_hold_in_every_decision_sequence(players: int, step: str, depth: int, low: bool | str,
                                                    capsys: Any) -> None:
    model, state = setup(players, step, low)
    stats, seen, broken = explore_checked(model, state, depth, violations)
    with capsys.disabled():
        print(f"\n  mtg timing exploration, {players} players from {step}{LABELS[low]}, "
              f"depth {depth}: {stats.states} states "
              f"visited, {stats.decisions} decisions, {stats.steps} automatic steps, {stats.ends} ends")
    assert not broken, broken[:5]
    assert stats.states > 1000 and stats.max_depth == depth
    wanted = ["resolve", "pass", "step-ends", "receive-priority-step", "receive-priority-resolved",
              "receive-priority-action", "cast"]
    if low == "special":
        wanted = ["suspend", "foretell", "plot", "exiled-special", "suspend-upkeep", "time-counter",
                  "last-time-counter", "cast-suspended", "cast-foretold", "cast-plotted", "turn-ends"]
    elif low == "defender":
        wanted = ["defender-to-choose", "choose-defender", "declare-attackers", "declare-blockers",
                  "declare-blockers-step"]
    elif low == "identity":
        wanted = ["turn-face-up", "return-to-battlefield", "target-illegal", "activate", "lethal-damage", "resolve"]
    elif low == "replacement":
        wanted = ["death-replaced", "replacement-order", "dies-trigger-not-triggered", "dies-triggers", "resolve"]
    elif low:
        wanted = ["loses-game", "leaves-game", "left-player-skipped", "pass", "resolve", "cast",
                  "receive-priority-resolved"]
    elif step == "main1":
        wanted += ["in-response", "counter", "state-based-actions", "put-triggers-on-stack", "activate-mana",
                   "pay", "play-land", "receive-priority-special", "choose", "lethal-damage", "damage-to-creature",
                   "damage-to-player"]
    else:
        wanted += ["turn-ends", "untap-step-ends", "beginning-triggers", "draw-for-turn", "cleanup-step"]
    for name in wanted:
        assert seen[name], f"the exploration never reached {name}"


class PriorityFirst(Magic):
    """A deliberately wrong model: the player receives priority before waiting triggers go on
    the stack."""

    def __init__(self, cards: Any, edition: str) -> None:
        super().__init__(cards, edition)
        put = self.transitions["put-triggers-on-stack"]
        self.transitions["put-triggers-on-stack"] = replace(put, bindings=lambda s: iter(()))

    def priority_ready(self, s: State) -> bool:
        return not self.sba(s)


def test_a_broken_model_is_caught() -> None:
    model, state = setup(2, "main1")
    wrong = PriorityFirst(model.cards, model.edition)
    with pytest.raises(InvariantBroken) as err:
        engine.explore(wrong, state, 8)
    assert "117.5" in err.value.rules


class NamesNotObjects(Magic):
    """A deliberately wrong model: a target is whatever permanent now has the name it had, so a
    Phoenix that died and returned is still the Bolt's target."""

    def target_ok(self, s: State, kind: Any, target: Any, self_id: Any = None, target_id: Any = None) -> bool:
        u = s.permanent(target)
        if u is not None and kind in ("creature", "any", "permanent"):
            target_id = u.id
        return super().target_ok(s, kind, target, self_id, target_id)


def wrong_answers(kind: type[Magic], players: int, step: str, low: str, depth: int) -> list[str]:
    """The violations the independent checks find in every sequence a wrong model plays."""
    model, state = setup(players, step, low)
    _, _, broken = explore_checked(kind(model.cards, model.edition), state, depth, violations)
    return broken


def test_a_model_that_tracks_names_is_caught() -> None:
    broken = wrong_answers(NamesNotObjects, 2, "main1", "identity", 10)
    assert any("resolved although the object it targeted is gone" in b for b in broken), broken[:3]


class ForetellAnyTurn(Magic):
    """A deliberately wrong model: a card can be foretold in any player's turn (702.143a says
    during your own)."""

    def __init__(self, cards: Any, edition: str) -> None:
        super().__init__(cards, edition)
        anyone = replace(self.checks["during-your-turn"], holds=lambda s, p: True)
        self.checks["during-your-turn"] = anyone
        foretell = self.transitions["foretell"]
        self.transitions["foretell"] = replace(foretell, preconditions=tuple(
            anyone if c.name == anyone.name else c for c in foretell.preconditions))


def test_a_model_that_foretells_in_any_turn_is_caught() -> None:
    broken = wrong_answers(ForetellAnyTurn, 2, "end", "special", 3)
    assert any("foretold outside its owner's turn" in b for b in broken), broken[:3]


class DiesAnyway(Magic):
    """A deliberately wrong model: a permanent a replacement effect exiled instead of dying
    still triggers its "dies" abilities."""

    def _to_graveyard(self, s: State, t: Any, names: Any) -> State:
        names = list(names)
        gone = [u for u in s.board if u.name in names]
        s = super()._to_graveyard(s, t, names)
        for u in gone:
            if any(x.card == u.card and x.how == "exiled" for x in s.exile):
                for tr in self.triggers_of(u, "dies"):
                    s = self._trigger(s, t, "dies-triggers", u.controller, tr, u.card)
        return s


def test_a_model_whose_exiled_creature_still_dies_is_caught() -> None:
    model, state = setup(3, "main1", "replacement")
    with pytest.raises(InvariantBroken) as err:
        engine.explore(DiesAnyway(model.cards, model.edition), state, 8)
    assert "614.6" in err.value.rules
