"""Every transition of the model (decisions, automatic steps and the steps inside them) and
its invariants, each declared once with the registry of :mod:`kb.timing.models.mtg.citations`
under the name its rules are cited by. A transition's bindings and effect are functions of the
model's parts (``Bindings``, ``Decisions``, ``Turn``, ``Resolution``) taken unbound:
``registry.build(model, citations)`` binds them to one model and numbers them by its edition."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kb.timing.engine import Invariant, TraceNode, TransitionKind
from kb.timing.models.mtg.bindings import Bindings
from kb.timing.models.mtg.citations import registry
from kb.timing.models.mtg.decisions import Decisions
from kb.timing.models.mtg.objects import MAIN
from kb.timing.models.mtg.resolution import Resolution
from kb.timing.models.mtg.turn import Turn

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic

STEP = "step"


def T(name: str, kind: TransitionKind, summary: str, text: str = "", pre: tuple[str, ...] = (),
      bindings: Callable[..., Any] | None = None, effect: Callable[..., Any] | None = None) -> None:
    """Declare one transition (a step that only records that its rules applied when it has no effect)."""
    if kind == STEP and effect is None:
        registry.step(name, summary, text)
    else:
        registry.transition(name, kind, summary, text, pre=pre, bindings=bindings)(effect)


# decisions with priority
T("cast", "decision", "cast a spell", "{player} casts {card}{on}",
  ("has-priority", "split-second", "in-hand", "not-a-land", "sorcery-timing", "targets"),
  Bindings._cast_bindings, Decisions._cast)
T("activate", "decision", "activate an ability", "{player} activates {ability}{on}",
  ("has-priority", "split-second", "ability-source", "ability-timing", "ability-condition",
   "ability-target", "untapped", "summoning-sickness"), Bindings._activate_bindings, Decisions._activate)
T("activate-mana", "decision", "activate a mana ability", "{player} activates {source}'s mana ability",
  ("mana-source", "mana-sick", "mana-timing"), Bindings._mana_bindings, Decisions._activate_mana)
T("play-land", "decision", "play a land (special action)", "{player} plays {card}",
  ("has-priority", "in-hand", "land", "own-turn", "land-timing", "one-land"),
  Bindings._land_bindings, Decisions._play_land)
T("turn-face-up", "decision", "turn a face-down creature face up (special action)",
  "{player} turns {permanent} face up", ("has-priority", "face-down"),
  Bindings._face_up_bindings, Decisions._turn_face_up)
T("suspend", "decision", "suspend a card: exile it with time counters (special action)",
  "{player} suspends {card}", ("has-priority", "in-hand", "has-suspend", "could-cast"),
  partial(Bindings._exiling_bindings, action="suspend"), partial(Decisions._exile_from_hand, action="suspend"))
T("foretell", "decision", "foretell a card: pay {2} and exile it face down (special action)",
  "{player} foretells {card}", ("has-priority", "in-this-edition", "in-hand", "has-foretell",
                                "during-your-turn"),
  partial(Bindings._exiling_bindings, action="foretell"), partial(Decisions._exile_from_hand, action="foretell"))
T("plot", "decision", "plot a card: exile it to cast it free on a later turn (special action)",
  "{player} plots {card}", ("has-priority", "in-this-edition", "in-hand", "has-plot", "plot-timing"),
  partial(Bindings._exiling_bindings, action="plot"), partial(Decisions._exile_from_hand, action="plot"))
T("cast-foretold", "decision", "cast a foretold card for its foretell cost",
  "{player} casts the foretold {card}{on}",
  ("has-priority", "split-second", "foretold", "later-turn", "sorcery-timing", "targets"),
  partial(Bindings._exiled_cast_bindings, how="foretold"), Decisions._cast_exiled)
T("cast-plotted", "decision", "cast a plotted card without paying its mana cost",
  "{player} casts the plotted {card}{on}",
  ("has-priority", "split-second", "plotted", "later-turn", "plotted-timing", "targets"),
  partial(Bindings._exiled_cast_bindings, how="plotted"), Decisions._cast_exiled)
T("pass", "decision", "pass priority", "{player} passes", ("has-priority",),
  Bindings._pass_bindings, Decisions._pass)

# decisions without priority
T("pay", "decision", "pay the cost", "{player} pays {amount} for {what}", ("paying", "can-pay"),
  Bindings._payer_bindings, Decisions._pay)
T("retract", "decision", "reverse an action that cannot be completed",
  "{player} reverses {what}", ("paying",), Bindings._payer_bindings, Decisions._retract)
T("choose-defender", "decision", "choose the defending player (a multiplayer game)",
  "{player} chooses {defender} as the defending player", ("declarer", "defender"),
  Bindings._defender_bindings, Decisions._choose_defender)
T("declare-attackers", "decision", "declare attackers", "{player} attacks with {attackers_text}",
  ("declarer", "attackers"), Bindings._attack_bindings, Decisions._declare_attackers)
T("declare-blockers", "decision", "declare blockers", "{player} blocks: {blocks_text}",
  ("declarer", "blockers"), Bindings._block_bindings, Decisions._declare_blockers)
T("choose", "decision", "make a choice while a spell resolves", "{player} chooses {choice}",
  ("asked", "choice"), Bindings._choose_bindings, Decisions._choose)
T("pay-unless", "decision", "pay what a resolving spell asks", "{player} pays {amount} for {what}",
  ("paying-unless", "can-pay"), Bindings._unless_bindings, Decisions._pay_unless)
T("decline-payment", "decision", "decline to pay what a resolving spell asks",
  "{player} does not pay for {what}", ("paying-unless",), Bindings._unless_bindings, Decisions._decline)

# steps inside decisions
T("in-response", STEP, "cast or activated in response", "{item} goes on the stack above {below}")
T("cost-to-pay", STEP, "a mana payment: mana abilities may be activated now",
  "{player} has {amount} to pay for {what}")
T("becomes-cast", STEP, "the spell becomes cast", "{item} becomes cast")
T("becomes-activated", STEP, "the ability becomes activated", "{item} becomes activated")
T("special-action", STEP, "a special action does not use the stack", "{what} does not use the stack")
T("mana-added", STEP, "mana is added at once (no stack)", "{player} adds {n} mana")
T("exiled-special", STEP, "the card is exiled by a special action: no stack, and priority comes back",
  "{card} is exiled ({how}): it does not use the stack")
T("next-player-priority", STEP, "the next player in turn order receives priority",
  "{player} receives priority")
T("all-passed", STEP, "all players passed in succession", "all players passed in succession")
T("attack-tapped", STEP, "attacking creatures become tapped", "{permanent} becomes tapped")
T("no-attackers", STEP, "no attackers: the declare blockers and combat damage steps are skipped",
  "no creatures attack")
T("apnap-choices", STEP, "players choose in APNAP order, then act simultaneously",
  "{players} choose in turn order from the active player")

# the turn
T("begin-step", "automatic", "a step begins", "the {step_name} begins", (),
  Bindings._begin_bindings, Turn._begin_step)
T("untap", STEP, "the active player untaps their permanents", "{player} untaps {permanents}")
T("no-priority-in-untap", STEP, "no player receives priority in the untap step",
  "no player receives priority")
T("untap-step-ends", "automatic", "the untap step ends (no priority)", "the untap step ends", (),
  Bindings._untap_end_bindings, Turn._advance_step)
T("upkeep", STEP, "the upkeep step: the active player will receive priority", "upkeep")
T("draw-for-turn", STEP, "the active player draws for the turn", "{player} draws for the turn")
T("draw-step-priority", STEP, "then the active player receives priority", "draw step priority")
T("skip-first-draw", STEP, "the starting player of a two-player game skips the draw step of the first turn",
  "{player} skips the draw step of the first turn")
T("main-phase", STEP, "the main phase: the active player will receive priority", "main phase")
T("beginning-of-combat", STEP, "beginning of combat: the active player will receive priority",
  "beginning of combat")
T("defender-to-choose", STEP, "first the attacking player chooses one opponent as the defending player",
  "{player} chooses which opponent is the defending player ({opponents})")
T("declare-attackers-step", STEP, "the active player declares attackers",
  "{player} declares attackers")
T("declare-blockers-step", STEP, "the defending player declares blockers",
  "{player} declares blockers")
T("combat-damage-step", STEP, "combat damage is dealt simultaneously", "combat damage")
T("stays-blocked", STEP, "a blocked creature whose blockers are gone stays blocked and deals no "
  "combat damage", "{permanent} is still blocked, by no creature: it deals no combat damage")
T("blocks-nothing", STEP, "a blocking creature whose attacker is gone deals no combat damage",
  "{permanent} blocks no creature now: it deals no combat damage")
T("trample", STEP, "trample: damage beyond lethal to the blockers goes to the player",
  "{permanent} has trample: {amount} damage to {player}")
T("end-of-combat", STEP, "end of combat: the active player will receive priority", "end of combat")
T("end-step", STEP, "the end step: the active player will receive priority", "end step")
T("cleanup-step", STEP, "cleanup: discard to hand size, remove damage, end \"this turn\" effects",
  "cleanup")
T("cleanup-priority", STEP, "something to handle in the cleanup step: players receive priority",
  "the cleanup step gives priority")
T("beginning-triggers", STEP, "\"at the beginning of\" abilities trigger", "{item} triggers")
T("step-ends", "automatic", "all players passed with an empty stack: the step ends",
  "the {step_name} ends", (), Bindings._step_end_bindings, Turn._step_ends)
T("another-cleanup", STEP, "another cleanup step follows", "another cleanup step begins")
T("turn-ends", "automatic", "the turn ends; the next turn begins", "{player}'s turn begins", (),
  Bindings._turn_end_bindings, Turn._turn_ends)

# before priority
T("state-based-actions", "automatic", "state-based actions are performed",
  "state-based actions: {what}", (), Bindings._sba_bindings, Turn._perform_sba)
T("loses-game", STEP, "a player with 0 or less life loses", "{player} loses the game")
T("leaves-game", STEP, "a player who lost leaves the game, with everything they own; the game goes on",
  "{player} leaves the game with {objects}; the game goes on without them")
T("left-player-skipped", STEP, "the active player has left: the next player receives priority instead",
  "{player} has left the game: {next} receives priority instead")
T("left-player-turn", STEP, "a player who has left the game takes no turn",
  "{player} has left the game: their turn doesn't begin, {next}'s does")
T("no-defender", STEP, "the defending player has left the game: no blockers, the attackers are unblocked",
  "{player} has left the game: no creature blocks")
T("left-player-damage", STEP, "combat damage is not assigned to a player who has left the game",
  "{player} has left the game: {permanent}'s combat damage is not assigned")
T("zero-toughness", STEP, "a creature with toughness 0 or less is put into the graveyard",
  "{permanent} is put into the graveyard")
T("lethal-damage", STEP, "a creature with lethal damage is destroyed", "{permanent} is destroyed")
T("legend-rule", STEP, "the legend rule", "legend rule: {gone} put into the graveyard")
T("put-triggers-on-stack", "automatic", "waiting triggered abilities go on the stack (APNAP)",
  "triggered abilities go on the stack: {order}", (), Bindings._triggers_bindings, Turn._put_triggers)
T("receive-priority-step", "automatic", "the active player receives priority in this step",
  "{player} receives priority", (), partial(Bindings._receive_bindings, reason="step"), Turn._receive)
T("receive-priority-resolved", "automatic", "the active player receives priority after resolution",
  "{player} receives priority", (), partial(Bindings._receive_bindings, reason="resolved"), Turn._receive)
T("receive-priority-action", "automatic", "the player who cast or activated receives priority again",
  "{player} receives priority", (), partial(Bindings._receive_bindings, reason="action"), Turn._receive)
T("receive-priority-special", "automatic", "the player who took a special action receives priority",
  "{player} receives priority", (), partial(Bindings._receive_bindings, reason="special"), Turn._receive)

# resolving
T("resolve", "automatic", "the top of the stack resolves", "{item} resolves", (),
  Bindings._resolve_bindings, Resolution._resolve)
T("target-illegal", STEP, "its target is illegal: it doesn't resolve",
  "{item}'s target {target} is illegal: it doesn't resolve")
T("follow-instructions", STEP, "its instructions are followed in order", "{item}: {instruction}")
T("condition-false", STEP, "an intervening \"if\" is false on resolution: it does nothing",
  "{item}'s condition is false: it does nothing")
T("permanent-enters", STEP, "a permanent spell enters the battlefield", "{item} enters the battlefield")
T("finish-resolution", STEP, "the spell goes to the graveyard (an ability ceases to exist)",
  "{item} leaves the stack")
T("payment-asked", STEP, "a payment is asked: its payer may activate mana abilities",
  "{player} is asked to pay {amount}")
T("nothing-to-choose", STEP, "nothing to choose: that part does nothing", "{player} has nothing to {what}")

# instructions and events
T("triggers", STEP, "an ability triggers (it waits until a player would receive priority)",
  "{item} triggers")
T("cast-triggers", STEP, "a \"when you cast\" ability triggers", "{item} triggers")
T("untap-triggers-wait", STEP, "abilities that trigger in the untap step wait for the upkeep",
  "{item} triggers and waits")
T("dies-triggers", STEP, "a leaves-the-battlefield ability triggers (looking back in time)",
  "{item} triggers")
T("damage", STEP, "damage is dealt", "{source} deals {amount} damage to {to}")
T("counter", STEP, "a spell or ability is countered", "{item} is countered")
T("draw", STEP, "draw cards", "{player} draws {n}")
T("lose-life", STEP, "lose life", "{player} loses {n} life")
T("discard", STEP, "discard", "{player} discards {card}")
T("sacrifice", STEP, "sacrifice", "{player} sacrifices {permanent}")
T("destroy", STEP, "destroy", "{permanent} is destroyed")
T("tap", STEP, "tap a permanent", "{permanent} becomes tapped")
T("extra-turn", STEP, "an extra turn is added after this one", "{player} will take an extra turn")
T("return-to-battlefield", STEP, "a card returns to the battlefield", "{card} returns to the battlefield")
T("boost", STEP, "+N/+N until end of turn", "{permanent} gets +{n}/+{n} until end of turn")
T("static-applies", STEP, "a static ability applies at once: no stack, no trigger, no priority",
  "{source}'s static ability applies at once, without the stack: {effect}")
T("static-ends", STEP, "a static ability stops applying when its permanent leaves the battlefield",
  "{source} left the battlefield: \"{effect}\" no longer applies")
T("shuffle-graveyard", STEP, "a graveyard is shuffled into its library",
  "{player} shuffles their graveyard into their library")
T("mana-empties", STEP, "unspent mana empties", "unspent mana empties")
T("suspend-upkeep", STEP, "a suspended card's ability triggers at the beginning of its owner's upkeep",
  "{item} triggers")
T("time-counter", STEP, "a time counter is removed from a suspended card",
  "a time counter is removed from {card}: {n} left")
T("last-time-counter", STEP, "the last time counter is removed: the card's suspend ability triggers",
  "{item} triggers")
T("cast-suspended", STEP, "the card is cast from exile without paying its mana cost, while its "
  "ability resolves", "{player} casts {card}{on} without paying its mana cost")
T("stays-exiled", STEP, "the suspended card cannot be cast (no legal target): it remains exiled",
  "{card} cannot be cast: it remains exiled")


# -- invariants: what every step keeps --------------------------------------------------------
def _one_priority(m: Magic, n: TraceNode) -> bool:
    p = n.after.priority
    return p is None or (isinstance(p, str) and p in n.after.players)


def _not_resolving(m: Magic, n: TraceNode) -> bool:
    return n.after.resolving is None or n.after.priority is None


def _not_untap(m: Magic, n: TraceNode) -> bool:
    return n.after.step != "untap" or n.after.priority is None


def _top_first(m: Magic, n: TraceNode) -> bool:
    if n.name != "resolve":
        return True
    return bool(n.before.stack) and n.before.stack[-1].id == n.params["id"]


def _sorcery_timing(m: Magic, n: TraceNode) -> bool:
    if n.name != "cast":
        return True
    card = m.cards[n.params["card"]]
    b = n.before
    return card.instant_speed or (not b.stack and b.step in MAIN and n.params["player"] == b.active)


def _before_priority(m: Magic, n: TraceNode) -> bool:
    if not n.name.startswith("receive-priority"):
        return True
    return m.priority_ready(n.before) and n.after.priority is not None


INVARIANTS: tuple[tuple[str, str, Callable[..., bool]], ...] = (
    ("one-priority", "at most one player holds priority", _one_priority),
    ("no-priority-resolving", "no player has priority while a spell or ability resolves", _not_resolving),
    ("no-priority-untap", "no player has priority in the untap step", _not_untap),
    ("top-resolves-first", "the top of the stack resolves first", _top_first),
    ("sorcery-timing", "a sorcery-speed spell is cast only in its controller's main phase with an empty stack",
     _sorcery_timing),
    ("before-priority", "state-based actions and waiting triggers are handled before anyone receives priority",
     _before_priority),
)


def invariants(m: Magic) -> tuple[Invariant, ...]:
    """The invariants of ``m``, citing its edition's numbers."""
    return tuple(Invariant(name, m.cite("invariant." + name), summary, partial(holds, m))
                 for name, summary, holds in INVARIANTS)
