"""The steps inside the model's transitions, which only record that their rules applied (the
decisions and automatic transitions are declared beside their effects, in ``decisions``,
``turn`` and ``resolution``), and the invariants every step keeps, each with the registry of
:mod:`kb.timing.models.mtg.citations` under the name its rules are cited by."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from kb.timing.engine import Invariant, TraceNode
from kb.timing.models.mtg.citations import registry
from kb.timing.models.mtg.objects import MAIN

if TYPE_CHECKING:
    from kb.timing.models.mtg.model import Magic


# The steps inside transitions, which only record that their rules applied (name, summary, the
# sentence about one occurrence): a transition's effect notes them on its trace.
INNER_STEPS: tuple[tuple[str, str, str], ...] = (
    # steps inside decisions
    ("in-response", "cast or activated in response", "{item} goes on the stack above {below}"),
    ("cost-to-pay", "a mana payment: mana abilities may be activated now", "{player} has {amount} to pay for {what}"),
    ("becomes-cast", "the spell becomes cast", "{item} becomes cast"),
    ("becomes-activated", "the ability becomes activated", "{item} becomes activated"),
    ("special-action", "a special action does not use the stack", "{what} does not use the stack"),
    ("mana-added", "mana is added at once (no stack)", "{player} adds {n} mana"),
    ("exiled-special", "the card is exiled by a special action: no stack, and priority comes back",
     "{card} is exiled ({how}): it does not use the stack"),
    ("next-player-priority", "the next player in turn order receives priority", "{player} receives priority"),
    ("all-passed", "all players passed in succession", "all players passed in succession"),
    ("attack-tapped", "attacking creatures become tapped", "{permanent} becomes tapped"),
    ("no-attackers", "no attackers: the declare blockers and combat damage steps are skipped", "no creatures attack"),
    ("apnap-choices", "players choose in APNAP order, then act simultaneously",
     "{players} choose in turn order from the active player"),
    # the turn
    ("untap", "the active player untaps their permanents", "{player} untaps {permanents}"),
    ("no-priority-in-untap", "no player receives priority in the untap step", "no player receives priority"),
    ("upkeep", "the upkeep step: the active player will receive priority", "upkeep"),
    ("draw-for-turn", "the active player draws for the turn", "{player} draws for the turn"),
    ("draw-step-priority", "then the active player receives priority", "draw step priority"),
    ("skip-first-draw", "the starting player of a two-player game skips the draw step of the first turn",
     "{player} skips the draw step of the first turn"),
    ("main-phase", "the main phase: the active player will receive priority", "main phase"),
    ("beginning-of-combat", "beginning of combat: the active player will receive priority", "beginning of combat"),
    ("defender-to-choose", "first the attacking player chooses one opponent as the defending player",
     "{player} chooses which opponent is the defending player ({opponents})"),
    ("declare-attackers-step", "the active player declares attackers", "{player} declares attackers"),
    ("declare-blockers-step", "the defending player declares blockers", "{player} declares blockers"),
    ("combat-damage-step", "combat damage is dealt simultaneously", "combat damage"),
    ("first-strike-damage-step", "a creature in combat has first strike or double strike: only those creatures "
     "deal combat damage, and a second combat damage step follows", "first-strike combat damage: only creatures "
     "with first strike or double strike deal it; a second combat damage step follows"),
    ("second-combat-damage-step", "the second combat damage step: the creatures without first strike deal "
     "combat damage, and those with double strike again", "the second combat damage step: the creatures without "
     "first strike that remain, and those with double strike, deal combat damage"),
    ("double-strike-first", "a creature with double strike deals combat damage in the first combat damage step, "
     "and again in the second", "{permanent} has double strike: it deals combat damage in this first step and "
     "again in the second"),
    ("double-strike-second", "a creature with double strike deals combat damage in the second combat damage step "
     "too", "{permanent} has double strike: it deals combat damage again in the second step"),
    ("vigilance", "attacking doesn't cause a creature with vigilance to tap", "{permanent} has vigilance: it "
     "attacks and stays untapped"),
    ("stays-blocked", "a blocked creature whose blockers are gone stays blocked and deals no "
  "combat damage",
     "{permanent} is still blocked, by no creature: it deals no combat damage"),
    ("damage-order-due", "the active player announces the damage assignment order of each creature blocked by two "
     "or more", "{player} announces the damage assignment order of {attackers}"),
    ("assigned-in-order", "a creature blocked by two or more assigns its combat damage in its damage assignment "
     "order: lethal damage to each before the next", "{permanent} assigns its {amount} combat damage in its damage "
     "assignment order ({order}), lethal damage to each before the next: {division}"),
    ("more-than-lethal", "more than lethal damage may be assigned to a creature earlier in the damage assignment "
     "order", "{permanent} assigns more than lethal damage to {blockers}, which its damage assignment order allows"),
    ("assigned-as-divided", "a creature blocked by two or more assigns its combat damage as its controller divided "
     "it among them", "{player} divides {permanent}'s {amount} combat damage: {division}"),
    ("blocks-nothing", "a blocking creature whose attacker is gone deals no combat damage",
     "{permanent} blocks no creature now: it deals no combat damage"),
    ("trample", "trample: damage beyond lethal to the blockers goes to the player",
     "{permanent} has trample: {amount} damage to {player}"),
    ("trample-no-blockers", "trample: a blocked creature with no creatures blocking it assigns its damage to the player",
     "{permanent} has trample and is blocked, but no creatures are blocking it: {amount} damage to {player}"),
    ("deathtouch-lethal", "deathtouch: any nonzero combat damage it assigns to a creature is lethal damage",
     "{permanent} has deathtouch: 1 damage is lethal damage to {blockers}"),
    ("deathtouch-lethal-in-order", "deathtouch: 1 damage is lethal damage to a blocker before the next in the damage "
     "assignment order", "{permanent} has deathtouch: 1 damage is lethal damage to {blockers}, in its damage "
     "assignment order"),
    ("lifelink", "damage dealt by a source with lifelink also makes its controller gain that much life, at once "
     "(no trigger, no stack)", "{source} has lifelink: {player} gains {amount} life"),
    ("indestructible", "an indestructible creature is not destroyed by lethal damage or by damage from a source "
     "with deathtouch", "{permanent} is indestructible: {why} from {source} doesn't destroy it"),
    ("end-of-combat", "end of combat: the active player will receive priority", "end of combat"),
    ("end-step", "the end step: the active player will receive priority", "end step"),
    ("cleanup-step", "cleanup: discard to hand size, remove damage, end \"this turn\" effects", "cleanup"),
    ("cleanup-priority", "something to handle in the cleanup step: players receive priority",
     "the cleanup step gives priority"),
    ("beginning-triggers", "\"at the beginning of\" abilities trigger", "{item} triggers"),
    ("another-cleanup", "another cleanup step follows", "another cleanup step begins"),
    # before priority
    ("loses-game", "a player with 0 or less life loses", "{player} loses the game"),
    ("concedes", "a player concedes: they leave the game at once and lose it", "{player} concedes and loses the game"),
    ("triggers-ordered", "a player's simultaneous triggered abilities go on the stack in the order they chose",
     "{player} puts {items} on the stack in that order, so {top} resolves first"),
    ("wins", "a player still in the game whose opponents have all left it wins the game",
     "{player} wins the game: every opponent has left it"),
    ("draw-game", "all the players remaining lost at once: the game is a draw",
     "{players} lost at once: the game is a draw"),
    ("left-player-priority", "the player who left had priority: the next player in turn order still in the game "
     "receives it", "{player} had priority: {next} receives it"),
    ("leaves-game", "a player who lost leaves the game, with everything they own; the game goes on",
     "{player} leaves the game with {objects}; the game goes on without them"),
    ("left-player-skipped", "the active player has left: the next player receives priority instead",
     "{player} has left the game: {next} receives priority instead"),
    ("left-player-turn", "a player who has left the game takes no turn",
     "{player} has left the game: their turn doesn't begin, {next}'s does"),
    ("no-defender", "the defending player has left the game: no blockers, the attackers are unblocked",
     "{player} has left the game: no creature blocks"),
    ("left-player-damage", "combat damage is not assigned to a player who has left the game",
     "{player} has left the game: {permanent}'s combat damage is not assigned"),
    ("zero-toughness", "a creature with toughness 0 or less is put into the graveyard",
     "{permanent} is put into the graveyard"),
    ("lethal-damage", "a creature with lethal damage is destroyed", "{permanent} is destroyed"),
    ("zero-toughness-replaced", "a creature with toughness 0 or less would be put into the graveyard (a "
     "replacement effect applies)", "{permanent} would be put into the graveyard"),
    ("lethal-damage-replaced", "a creature with lethal damage would be destroyed (a replacement effect applies)",
     "{permanent} would be destroyed"),
    ("deathtouch-damage", "a creature dealt damage by a source with deathtouch is destroyed",
     "{permanent} is destroyed"),
    ("deathtouch-damage-replaced", "a creature dealt damage by a source with deathtouch would be destroyed (a "
     "replacement effect applies)", "{permanent} would be destroyed"),
    ("legend-rule", "the legend rule", "legend rule: {gone} put into the graveyard"),
    ("legend-rule-replaced", "the legend rule would put a permanent into the graveyard (a replacement effect "
     "applies)", "legend rule: {gone} would be put into the graveyard"),
    # resolving
    ("targets-all-illegal", "every one of its targets is illegal: it doesn't resolve",
     "{item}'s targets ({targets}) are all illegal: it doesn't resolve"),
    ("some-targets-illegal", "some of its targets are illegal: it resolves, unable to act on those",
     "{item} resolves: {illegal} is no longer a legal target, it acts on {legal} only"),
    ("target-illegal", "its target is illegal: it doesn't resolve",
     "{item}'s target {target} is illegal: it doesn't resolve"),
    ("follow-instructions", "its instructions are followed in order", "{item}: {instruction}"),
    ("condition-false", "an intervening \"if\" is false on resolution: it does nothing",
     "{item}'s condition is false: it does nothing"),
    ("permanent-enters", "a permanent spell enters the battlefield", "{item} enters the battlefield"),
    ("finish-resolution", "the spell goes to the graveyard (an ability ceases to exist)", "{item} leaves the stack"),
    ("removed-unresolved", "a spell or ability whose targets are all illegal doesn't resolve: it is removed from "
     "the stack (a spell to its owner's graveyard)", "{item} is removed from the stack without resolving"),
    ("removed-condition-false", "an ability whose intervening \"if\" is false is removed from the stack",
     "{item} is removed from the stack without resolving"),
    ("payment-asked", "a payment is asked: its payer may activate mana abilities", "{player} is asked to pay {amount}"),
    ("nothing-to-choose", "nothing to choose: that part does nothing", "{player} has nothing to {what}"),
    # instructions and events
    ("triggers", "an ability triggers (it waits until a player would receive priority)", "{item} triggers"),
    ("cast-triggers", "a \"when you cast\" ability triggers", "{item} triggers"),
    ("ward-triggers", "a permanent with ward becomes the target of a spell or ability an opponent controls: its "
     "ward triggers", "{item} triggers: {target} will be countered unless its controller pays {cost}"),
    ("untap-triggers-wait", "abilities that trigger in the untap step wait for the upkeep",
     "{item} triggers and waits"),
    ("dies-triggers", "a leaves-the-battlefield ability triggers (looking back in time)", "{item} triggers"),
    ("death-replaced", "a replacement effect exiles a permanent instead of its dying: no stack, no priority",
     "{permanent} would die: {source}'s replacement effect exiles it instead (it never dies)"),
    ("replacement-order", "two replacement effects could apply: the affected permanent's controller chooses",
     "{player} chooses which replacement applies to {permanent} (the model takes the first of {order})"),
    ("dies-trigger-not-triggered", "a permanent exiled instead of dying never died: its dies abilities don't "
     "trigger", "{permanent} never died: {item} doesn't trigger"),
    ("damage-to-creature", "damage is dealt to a creature: it is marked on it", "{source} deals {amount} damage to "
     "{to}"),
    ("damage-to-player", "damage is dealt to a player: they lose that much life", "{source} deals {amount} damage "
     "to {to}"),
    ("prevent", "a prevention shield: the next N damage that would be dealt to it this turn is prevented",
     "the next {amount} damage that would be dealt to {to} this turn will be prevented"),
    ("damage-prevented", "a prevention shield prevents damage as it would be dealt: no stack, no priority",
     "{amount} damage from {source} would be dealt to {to}: {prevented} is prevented, {dealt} dealt "
     "(a shield of {left} is left)"),
    ("counter", "a spell or ability is countered", "{item} is countered"),
    ("draw", "draw cards", "{player} draws {n}"),
    ("lose-life", "lose life", "{player} loses {n} life"),
    ("discard", "discard", "{player} discards {card}"),
    ("sacrifice", "sacrifice", "{player} sacrifices {permanent}"),
    ("destroy", "destroy", "{permanent} is destroyed"),
    ("destroy-replaced", "destroy, replaced (a replacement effect applies)", "{permanent} would be destroyed"),
    ("destroy-indestructible", "an indestructible permanent can't be destroyed", "{permanent} is indestructible: "
     "it isn't destroyed"),
    ("tap", "tap a permanent", "{permanent} becomes tapped"),
    ("extra-turn", "an extra turn is added after this one", "{player} will take an extra turn"),
    ("return-to-battlefield", "a card returns to the battlefield", "{card} returns to the battlefield"),
    ("boost", "+N/+N until end of turn", "{permanent} gets +{n}/+{n} until end of turn"),
    ("static-applies", "a static ability applies at once: no stack, no trigger, no priority",
     "{source}'s static ability applies at once, without the stack: {effect}"),
    ("static-ends", "a static ability stops applying when its permanent leaves the battlefield",
     "{source} left the battlefield: \"{effect}\" no longer applies"),
    ("shuffle-graveyard", "a graveyard is shuffled into its library",
     "{player} shuffles their graveyard into their library"),
    ("mana-empties", "unspent mana empties", "unspent mana empties"),
    ("suspend-upkeep", "a suspended card's ability triggers at the beginning of its owner's upkeep", "{item} triggers"),
    ("time-counter", "a time counter is removed from a suspended card",
     "a time counter is removed from {card}: {n} left"),
    ("last-time-counter", "the last time counter is removed: the card's suspend ability triggers", "{item} triggers"),
    ("cast-suspended", "the card is cast from exile without paying its mana cost, while its "
  "ability resolves",
     "{player} casts {card}{on} without paying its mana cost"),
    ("stays-exiled", "the suspended card cannot be cast (no legal target): it remains exiled",
     "{card} cannot be cast: it remains exiled"),
)
for _name, _summary, _text in INNER_STEPS:
    registry.step(_name, _summary, _text)


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


def _exiled_never_dies(m: Magic, n: TraceNode) -> bool:
    """Where a replacement exiled a permanent instead, "dies" abilities trigger only for the
    cards that did go to a graveyard (614.6)."""
    if n.transition.kind == "step" or not any(c.name == "death-replaced" for c in n.walk()):
        return True
    gained = Counter(n.after.graveyard) - Counter(n.before.graveyard)
    allowed: Counter[str] = Counter()
    for (_, card), k in gained.items():
        for tr in m.cards[card].triggers if card in m.cards else ():
            if tr.on == "dies":
                allowed[tr.name] += k
    fired = Counter(c.params["item"] for c in n.walk() if c.name == "dies-triggers")
    return not fired - allowed


INVARIANTS: tuple[tuple[str, str, Callable[..., bool]], ...] = (
    ("one-priority", "at most one player holds priority", _one_priority),
    ("no-priority-resolving", "no player has priority while a spell or ability resolves", _not_resolving),
    ("no-priority-untap", "no player has priority in the untap step", _not_untap),
    ("top-resolves-first", "the top of the stack resolves first", _top_first),
    ("sorcery-timing", "a sorcery-speed spell is cast only in its controller's main phase with an empty stack",
     _sorcery_timing),
    ("before-priority", "state-based actions and waiting triggers are handled before anyone receives priority",
     _before_priority),
    ("exiled-never-dies", "a permanent exiled instead of dying triggers no \"dies\" ability", _exiled_never_dies),
)


def invariants(m: Magic) -> tuple[Invariant, ...]:
    """The invariants of ``m``, citing its edition's numbers."""
    return tuple(Invariant(name, m.cite("invariant." + name), summary, partial(holds, m))
                 for name, summary, holds in INVARIANTS)
