"""Every transition of the model (decisions, automatic steps and the steps inside them) and
its invariants, each citing its rules."""

from __future__ import annotations

from typing import Any

from kb.timing.engine import Invariant, TraceNode, Transition
from kb.timing.models.mtg.parts import Part
from kb.timing.models.mtg.objects import MAIN


class Transitions(Part):
    """Every transition of the model (decisions, automatic steps and the steps inside them) and
    its invariants, each citing its rules."""

    # -- transitions -------------------------------------------------------------------------
    def _transitions(self) -> list[Transition]:
        c = self.checks

        def T(name: str, kind: str, summary: str, text: str = "", pre: tuple[str, ...] = (),
              bindings: Any = None, effect: Any = None) -> Transition:
            return Transition(name, kind, self.cite(name), summary, text,  # type: ignore[arg-type]
                              tuple(c[x] for x in pre), bindings, effect)

        step = "step"
        return [
            # decisions with priority
            T("cast", "decision", "cast a spell", "{player} casts {card}{on}",
              ("has-priority", "split-second", "in-hand", "not-a-land", "sorcery-timing", "targets"),
              self._cast_bindings, self._cast),
            T("activate", "decision", "activate an ability", "{player} activates {ability}{on}",
              ("has-priority", "split-second", "ability-source", "ability-timing", "ability-condition",
               "ability-target", "untapped", "summoning-sickness"), self._activate_bindings, self._activate),
            T("activate-mana", "decision", "activate a mana ability", "{player} activates {source}'s mana ability",
              ("mana-source", "mana-sick", "mana-timing"), self._mana_bindings, self._activate_mana),
            T("play-land", "decision", "play a land (special action)", "{player} plays {card}",
              ("has-priority", "in-hand", "land", "own-turn", "land-timing", "one-land"),
              self._land_bindings, self._play_land),
            T("turn-face-up", "decision", "turn a face-down creature face up (special action)",
              "{player} turns {permanent} face up", ("has-priority", "face-down"),
              self._face_up_bindings, self._turn_face_up),
            T("suspend", "decision", "suspend a card: exile it with time counters (special action)",
              "{player} suspends {card}", ("has-priority", "in-hand", "has-suspend", "could-cast"),
              self._exiling_bindings("suspend"), self._exile_from_hand("suspend")),
            T("foretell", "decision", "foretell a card: pay {2} and exile it face down (special action)",
              "{player} foretells {card}", ("has-priority", "in-this-edition", "in-hand", "has-foretell",
                                            "during-your-turn"),
              self._exiling_bindings("foretell"), self._exile_from_hand("foretell")),
            T("plot", "decision", "plot a card: exile it to cast it free on a later turn (special action)",
              "{player} plots {card}", ("has-priority", "in-this-edition", "in-hand", "has-plot", "plot-timing"),
              self._exiling_bindings("plot"), self._exile_from_hand("plot")),
            T("cast-foretold", "decision", "cast a foretold card for its foretell cost",
              "{player} casts the foretold {card}{on}",
              ("has-priority", "split-second", "foretold", "later-turn", "sorcery-timing", "targets"),
              self._exiled_cast_bindings("foretold"), self._cast_exiled),
            T("cast-plotted", "decision", "cast a plotted card without paying its mana cost",
              "{player} casts the plotted {card}{on}",
              ("has-priority", "split-second", "plotted", "later-turn", "plotted-timing", "targets"),
              self._exiled_cast_bindings("plotted"), self._cast_exiled),
            T("pass", "decision", "pass priority", "{player} passes", ("has-priority",),
              self._pass_bindings, self._pass),
            # decisions without priority
            T("pay", "decision", "pay the cost", "{player} pays {amount} for {what}", ("paying", "can-pay"),
              self._payer_bindings, self._pay),
            T("retract", "decision", "reverse an action that cannot be completed",
              "{player} reverses {what}", ("paying",), self._payer_bindings, self._retract),
            T("choose-defender", "decision", "choose the defending player (a multiplayer game)",
              "{player} chooses {defender} as the defending player", ("declarer", "defender"),
              self._defender_bindings, self._choose_defender),
            T("declare-attackers", "decision", "declare attackers", "{player} attacks with {attackers_text}",
              ("declarer", "attackers"), self._attack_bindings, self._declare_attackers),
            T("declare-blockers", "decision", "declare blockers", "{player} blocks: {blocks_text}",
              ("declarer", "blockers"), self._block_bindings, self._declare_blockers),
            T("choose", "decision", "make a choice while a spell resolves", "{player} chooses {choice}",
              ("asked", "choice"), self._choose_bindings, self._choose),
            T("pay-unless", "decision", "pay what a resolving spell asks", "{player} pays {amount} for {what}",
              ("paying-unless", "can-pay"), self._unless_bindings, self._pay_unless),
            T("decline-payment", "decision", "decline to pay what a resolving spell asks",
              "{player} does not pay for {what}", ("paying-unless",), self._unless_bindings, self._decline),
            # steps inside decisions
            T("in-response", step, "cast or activated in response", "{item} goes on the stack above {below}"),
            T("cost-to-pay", step, "a mana payment: mana abilities may be activated now",
              "{player} has {amount} to pay for {what}"),
            T("becomes-cast", step, "the spell becomes cast", "{item} becomes cast"),
            T("becomes-activated", step, "the ability becomes activated", "{item} becomes activated"),
            T("special-action", step, "a special action does not use the stack", "{what} does not use the stack"),
            T("mana-added", step, "mana is added at once (no stack)", "{player} adds {n} mana"),
            T("exiled-special", step, "the card is exiled by a special action: no stack, and priority comes back",
              "{card} is exiled ({how}): it does not use the stack"),
            T("next-player-priority", step, "the next player in turn order receives priority",
              "{player} receives priority"),
            T("all-passed", step, "all players passed in succession", "all players passed in succession"),
            T("attack-tapped", step, "attacking creatures become tapped", "{permanent} becomes tapped"),
            T("no-attackers", step, "no attackers: the declare blockers and combat damage steps are skipped",
              "no creatures attack"),
            T("apnap-choices", step, "players choose in APNAP order, then act simultaneously",
              "{players} choose in turn order from the active player"),
            # the turn
            T("begin-step", "automatic", "a step begins", "the {step_name} begins", (),
              self._begin_bindings, self._begin_step),
            T("untap", step, "the active player untaps their permanents", "{player} untaps {permanents}"),
            T("no-priority-in-untap", step, "no player receives priority in the untap step",
              "no player receives priority"),
            T("untap-step-ends", "automatic", "the untap step ends (no priority)", "the untap step ends", (),
              self._untap_end_bindings, self._advance_step),
            T("upkeep", step, "the upkeep step: the active player will receive priority", "upkeep"),
            T("draw-for-turn", step, "the active player draws for the turn", "{player} draws for the turn"),
            T("draw-step-priority", step, "then the active player receives priority", "draw step priority"),
            T("skip-first-draw", step, "the starting player of a two-player game skips the draw step of the first turn",
              "{player} skips the draw step of the first turn"),
            T("main-phase", step, "the main phase: the active player will receive priority", "main phase"),
            T("beginning-of-combat", step, "beginning of combat: the active player will receive priority",
              "beginning of combat"),
            T("defender-to-choose", step, "first the attacking player chooses one opponent as the defending player",
              "{player} chooses which opponent is the defending player ({opponents})"),
            T("declare-attackers-step", step, "the active player declares attackers",
              "{player} declares attackers"),
            T("declare-blockers-step", step, "the defending player declares blockers",
              "{player} declares blockers"),
            T("combat-damage-step", step, "combat damage is dealt simultaneously", "combat damage"),
            T("stays-blocked", step, "a blocked creature whose blockers are gone stays blocked and deals no "
              "combat damage", "{permanent} is still blocked, by no creature: it deals no combat damage"),
            T("blocks-nothing", step, "a blocking creature whose attacker is gone deals no combat damage",
              "{permanent} blocks no creature now: it deals no combat damage"),
            T("trample", step, "trample: damage beyond lethal to the blockers goes to the player",
              "{permanent} has trample: {amount} damage to {player}"),
            T("end-of-combat", step, "end of combat: the active player will receive priority", "end of combat"),
            T("end-step", step, "the end step: the active player will receive priority", "end step"),
            T("cleanup-step", step, "cleanup: discard to hand size, remove damage, end \"this turn\" effects",
              "cleanup"),
            T("cleanup-priority", step, "something to handle in the cleanup step: players receive priority",
              "the cleanup step gives priority"),
            T("beginning-triggers", step, "\"at the beginning of\" abilities trigger", "{item} triggers"),
            T("step-ends", "automatic", "all players passed with an empty stack: the step ends",
              "the {step_name} ends", (), self._step_end_bindings, self._step_ends),
            T("another-cleanup", step, "another cleanup step follows", "another cleanup step begins"),
            T("turn-ends", "automatic", "the turn ends; the next turn begins", "{player}'s turn begins", (),
              self._turn_end_bindings, self._turn_ends),
            # before priority
            T("state-based-actions", "automatic", "state-based actions are performed",
              "state-based actions: {what}", (), self._sba_bindings, self._perform_sba),
            T("loses-game", step, "a player with 0 or less life loses", "{player} loses the game"),
            T("leaves-game", step, "a player who lost leaves the game, with everything they own; the game goes on",
              "{player} leaves the game with {objects}; the game goes on without them"),
            T("left-player-skipped", step, "the active player has left: the next player receives priority instead",
              "{player} has left the game: {next} receives priority instead"),
            T("left-player-turn", step, "a player who has left the game takes no turn",
              "{player} has left the game: their turn doesn't begin, {next}'s does"),
            T("no-defender", step, "the defending player has left the game: no blockers, the attackers are unblocked",
              "{player} has left the game: no creature blocks"),
            T("left-player-damage", step, "combat damage is not assigned to a player who has left the game",
              "{player} has left the game: {permanent}'s combat damage is not assigned"),
            T("zero-toughness", step, "a creature with toughness 0 or less is put into the graveyard",
              "{permanent} is put into the graveyard"),
            T("lethal-damage", step, "a creature with lethal damage is destroyed", "{permanent} is destroyed"),
            T("legend-rule", step, "the legend rule", "legend rule: {gone} put into the graveyard"),
            T("put-triggers-on-stack", "automatic", "waiting triggered abilities go on the stack (APNAP)",
              "triggered abilities go on the stack: {order}", (), self._triggers_bindings, self._put_triggers),
            T("receive-priority-step", "automatic", "the active player receives priority in this step",
              "{player} receives priority", (), self._receive_bindings("step"), self._receive),
            T("receive-priority-resolved", "automatic", "the active player receives priority after resolution",
              "{player} receives priority", (), self._receive_bindings("resolved"), self._receive),
            T("receive-priority-action", "automatic", "the player who cast or activated receives priority again",
              "{player} receives priority", (), self._receive_bindings("action"), self._receive),
            T("receive-priority-special", "automatic", "the player who took a special action receives priority",
              "{player} receives priority", (), self._receive_bindings("special"), self._receive),
            # resolving
            T("resolve", "automatic", "the top of the stack resolves", "{item} resolves", (),
              self._resolve_bindings, self._resolve),
            T("target-illegal", step, "its target is illegal: it doesn't resolve",
              "{item}'s target {target} is illegal: it doesn't resolve"),
            T("follow-instructions", step, "its instructions are followed in order", "{item}: {instruction}"),
            T("condition-false", step, "an intervening \"if\" is false on resolution: it does nothing",
              "{item}'s condition is false: it does nothing"),
            T("permanent-enters", step, "a permanent spell enters the battlefield", "{item} enters the battlefield"),
            T("finish-resolution", step, "the spell goes to the graveyard (an ability ceases to exist)",
              "{item} leaves the stack"),
            T("payment-asked", step, "a payment is asked: its payer may activate mana abilities",
              "{player} is asked to pay {amount}"),
            T("nothing-to-choose", step, "nothing to choose: that part does nothing", "{player} has nothing to {what}"),
            # instructions and events
            T("triggers", step, "an ability triggers (it waits until a player would receive priority)",
              "{item} triggers"),
            T("cast-triggers", step, "a \"when you cast\" ability triggers", "{item} triggers"),
            T("untap-triggers-wait", step, "abilities that trigger in the untap step wait for the upkeep",
              "{item} triggers and waits"),
            T("dies-triggers", step, "a leaves-the-battlefield ability triggers (looking back in time)",
              "{item} triggers"),
            T("damage", step, "damage is dealt", "{source} deals {amount} damage to {to}"),
            T("counter", step, "a spell or ability is countered", "{item} is countered"),
            T("draw", step, "draw cards", "{player} draws {n}"),
            T("lose-life", step, "lose life", "{player} loses {n} life"),
            T("discard", step, "discard", "{player} discards {card}"),
            T("sacrifice", step, "sacrifice", "{player} sacrifices {permanent}"),
            T("destroy", step, "destroy", "{permanent} is destroyed"),
            T("tap", step, "tap a permanent", "{permanent} becomes tapped"),
            T("extra-turn", step, "an extra turn is added after this one", "{player} will take an extra turn"),
            T("return-to-battlefield", step, "a card returns to the battlefield", "{card} returns to the battlefield"),
            T("boost", step, "+N/+N until end of turn", "{permanent} gets +{n}/+{n} until end of turn"),
            T("static-applies", step, "a static ability applies at once: no stack, no trigger, no priority",
              "{source}'s static ability applies at once, without the stack: {effect}"),
            T("static-ends", step, "a static ability stops applying when its permanent leaves the battlefield",
              "{source} left the battlefield: \"{effect}\" no longer applies"),
            T("shuffle-graveyard", step, "a graveyard is shuffled into its library",
              "{player} shuffles their graveyard into their library"),
            T("mana-empties", step, "unspent mana empties", "unspent mana empties"),
            T("suspend-upkeep", step, "a suspended card's ability triggers at the beginning of its owner's upkeep",
              "{item} triggers"),
            T("time-counter", step, "a time counter is removed from a suspended card",
              "a time counter is removed from {card}: {n} left"),
            T("last-time-counter", step, "the last time counter is removed: the card's suspend ability triggers",
              "{item} triggers"),
            T("cast-suspended", step, "the card is cast from exile without paying its mana cost, while its "
              "ability resolves", "{player} casts {card}{on} without paying its mana cost"),
            T("stays-exiled", step, "the suspended card cannot be cast (no legal target): it remains exiled",
              "{card} cannot be cast: it remains exiled"),
        ]

    def _invariants(self) -> tuple[Invariant, ...]:
        def one_priority(n: TraceNode) -> bool:
            p = n.after.priority
            return p is None or (isinstance(p, str) and p in n.after.players)

        def not_resolving(n: TraceNode) -> bool:
            return n.after.resolving is None or n.after.priority is None

        def not_untap(n: TraceNode) -> bool:
            return n.after.step != "untap" or n.after.priority is None

        def top_first(n: TraceNode) -> bool:
            if n.name != "resolve":
                return True
            return bool(n.before.stack) and n.before.stack[-1].id == n.params["id"]

        def sorcery_timing(n: TraceNode) -> bool:
            if n.name != "cast":
                return True
            card = self.cards[n.params["card"]]
            b = n.before
            return card.instant_speed or (not b.stack and b.step in MAIN and n.params["player"] == b.active)

        def before_priority(n: TraceNode) -> bool:
            if not n.name.startswith("receive-priority"):
                return True
            return self.priority_ready(n.before) and n.after.priority is not None

        def inv(name: str, summary: str, holds: Any) -> Invariant:
            return Invariant(name, self.cite("invariant." + name), summary, holds)

        return (
            inv("one-priority", "at most one player holds priority", one_priority),
            inv("no-priority-resolving", "no player has priority while a spell or ability resolves",
                not_resolving),
            inv("no-priority-untap", "no player has priority in the untap step", not_untap),
            inv("top-resolves-first", "the top of the stack resolves first", top_first),
            inv("sorcery-timing", "a sorcery-speed spell is cast only in its controller's main phase "
                "with an empty stack", sorcery_timing),
            inv("before-priority", "state-based actions and waiting triggers are handled before anyone "
                "receives priority", before_priority),
        )
