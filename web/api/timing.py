"""The timing model: what happens next from a state, and whole scenarios run frame by frame."""

from __future__ import annotations

from flask import Response

from kb import limits
from kb.errors import QueryError
from kb.timing.fields import check_budget
from kb.timing.scenario import check_size
from web.api.base import EDITION, EDITION_IS_A_NAME, answer, bp, current_kb, read_body
from web.openapi import NAME_PATTERN, SCHEMAS, STR, Param, array, endpoint, nullable, obj, ref

RULESET_Q = Param("ruleset", {"type": "string", "pattern": NAME_PATTERN},
                  "Ruleset of the state (default: the state's own `ruleset`, or riftbound).",
                  example="riftbound")
TIMING_EDITION = Param(EDITION.name, EDITION.schema,
                       "Edition to quote the rules from (default: the state's own `edition`, or the "
                       "one the model cites); a model that follows several editions (mtg) also plays by it. "
                       "In another edition of its ruleset (riftbound 1.3) the model's rules are carried to "
                       "that edition's numbers, and a frame lists those with no counterpart there. "
                       + EDITION_IS_A_NAME,
                       example="1.4")

RULES = array(STR, description="Rule numbers, as the model cites them.")
STATE = {"type": "object", "description": "A state of the game as the ruleset's model writes it "
                                          "(any frame's `state` can be sent back to /timing/next)."}
CITED = obj({"rule": STR, "edition": STR}, description="The rule as the model cites it, in the edition it "
                                                         "cites, where the quoted edition numbers it otherwise.")
QUOTE = obj({"rule": nullable(STR), "text": nullable(STR)}, {"missing": STR, "cited": CITED})
NO_COUNTERPART = obj({"rule": STR, "edition": STR, "status": {"enum": ["removed", "added", "unknown"]},
                      "nearest": nullable(STR)},
                     description="A rule the model cites (in the edition it cites) that has no counterpart "
                                 "in the edition quoted, and its nearest ancestor's counterpart.")
FORBIDDEN = obj({"check": STR, "summary": STR, "rules": RULES}, {"quotes": array(QUOTE)})

SCHEMAS.update({
    "TimingNode": obj({"event": STR, "summary": STR, "rules": RULES,
                       "children": array(ref("TimingNode"))},
                      description="One node of a trace tree: a transition and what it set off."),
    "TimingFrame": obj({
        "event": {"type": "string", "description": "The transition taken."},
        "step": {"type": "integer", "minimum": 0, "description": "The scenario step it followed "
                                                                  "(0: automatic)."},
        "summary": STR, "rules": RULES,
        "why": {"type": "string", "description": "The explanation, quoting each rule cited."},
        "detail": array(ref("TimingNode")), "state": STATE},
        {"no_counterpart": array(NO_COUNTERPART, description="In an edition the model does not cite directly: "
                                                             "the cited rules with no counterpart there.")}),
    "TimingOption": obj({"transition": STR, "label": STR, "player": nullable(STR),
                         "action": {"type": "object", "description": "The step that takes it, "
                                                                     "as a scenario writes it."},
                         "rules": RULES},
                        {"forbidden_by": array(FORBIDDEN), "why": STR}),
    "TimingState": {**STATE, "properties": {
        "ruleset": {"type": "string", "pattern": NAME_PATTERN},
        "players": array(STR, description="In turn order, the turn player first."),
        "choose": {"type": "object", "minProperties": 1, "maxProperties": 1,
                   "description": "Not part of the state: a legal option's `action` (as a scenario step, "
                                  "e.g. {\"pass\": \"Ann\"}) to take at the decision the state reaches; "
                                  "the answer is then what happens after it, with `chosen`: the option taken, "
                                  "its rules and the steps inside it. An action that is not a legal option "
                                  "there answers 422 with the rules that forbid it (or the options there are)."}}},
    "TimingNext": obj({
        "ok": {"type": "boolean"}, "ruleset": STR, "edition": STR,
        "steps": array(ref("TimingFrame"), description="The automatic steps, in order."),
        "decision": nullable(obj({"decider": nullable(STR),
                                  "options": array(ref("TimingOption"), description="Every legal option."),
                                  "illegal": array(ref("TimingOption"),
                                                   description="Tempting illegal ones, each with "
                                                               "the rules that forbid it.")})),
        "end": nullable(obj({"reason": STR, "rules": RULES, "quotes": array(QUOTE)})),
        "state": STATE},
        {"chosen": obj({"transition": STR, "label": STR, "player": nullable(STR), "action": {"type": "object"},
                        "rules": RULES, "detail": array(ref("TimingNode"))},
                       description="With `choose`: the option taken, and the steps inside it (`detail`).")}),
    "TimingScenario": {"type": "object", "required": ["name", "ruleset", "players", "steps"],
                       "description": "A scenario, as the YAML files of kb/timing/scenarios "
                                      "write it, in JSON: name, ruleset, edition, players, cards, "
                                      "steps (each a one-key mapping: an action, expect or "
                                      "expect_illegal).",
                       "properties": {"name": STR, "ruleset": STR,
                                      "players": array({"anyOf": [STR, {"type": "object", "required": ["name"]}]},
                                                       description="In turn order: names, or objects with "
                                                                   "a name and the player's cards."),
                                      "steps": array({"type": "object"}, minItems=1)}},
    "TimingRun": obj({
        "ok": {"type": "boolean", "description": "Every expectation held and every step was legal."},
        "name": STR, "ruleset": STR, "edition": STR, "file": STR,
        "frames": array(ref("TimingFrame")),
        "expectations": array(obj({"step": {"type": "integer"}, "kind": STR, "ok": {"type": "boolean"},
                                   "expected": {}, "actual": {}, "failed": {}},
                                  {"forbidden_by": array(FORBIDDEN)})),
        "error": nullable(obj({"type": STR, "message": STR, "rules": RULES}, {"step": {"type": "integer"}})),
        "state": nullable(STATE)}),
})

# The budgets of kb/limits.py every timing answer keeps to (a state is read like a scenario's set-up).
NEXT_LIMITS = (limits.TIMING_CARDS, limits.TIMING_EFFECTS, limits.TIMING_ENTRIES, limits.TIMING_FRAMES,
               limits.TIMING_AUTOMATIC, limits.TIMING_ANSWER, limits.TIMING_TIME)
RUN_LIMITS = (limits.TIMING_STEPS, *NEXT_LIMITS)

EXAMPLE_STATE = {"ruleset": "riftbound", "players": ["Ann", "Bo"], "turn_state": "neutral-closed",
                 "priority": "Ann", "chain": [{"name": "Fireball", "controller": "Ann",
                                               "status": "pending"}]}
EXAMPLE_SCENARIO = {
    "name": "Finalizing your own spell keeps priority with you.",
    "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
    "cards": {"Fireball": {"type": "spell", "effects": [{"draw": 1}]}},
    "steps": [{"play": {"player": "Ann", "card": "Fireball"}},
              {"expect": {"priority": "Ann", "chain": ["Fireball"]}},
              {"pass": "Ann"},
              {"expect": {"priority": "Bo"}}]}


@endpoint(bp, "POST", "/v1/timing/next", tag="timing", response="TimingNext", body="TimingState",
          params=(RULESET_Q, TIMING_EDITION), errors=(404,), limits=NEXT_LIMITS,
          summary="What happens next from a state",
          examples=("/api/v1/timing/next",), example_body=EXAMPLE_STATE)
def timing_next(ruleset: str | None, edition: str | None) -> Response:
    """The automatic steps from a state until someone must decide, each with the rules it
    follows and their text, then the decision: who decides, every legal option and the
    tempting illegal ones, each with the rules that forbid it (as ``rulekb timing next
    --json``). A malformed state answers 400 with the field; a state the rules cannot
    produce (two players holding priority) answers 422 with the rules it breaks. With
    ``choose`` (a legal option's ``action``) beside the state's fields, that option is taken
    at the decision reached and the answer is what happens after it (``chosen``: the option)."""
    body = read_body(check_budget)
    state, choose = body, None
    if isinstance(body, dict) and isinstance(body.get("state"), dict):
        # {"state": {...}} as the CLI's --state suggests: the body is the state itself
        raise QueryError(400, "the body is the state itself, not {\"state\": …}: send the state "
                              "itself as the body (choose beside it: {\"ruleset\": …, \"players\": …, "
                              "\"choose\": …})", {"field": "state", "keys": sorted(body)[:10]})
    if isinstance(body, dict) and "choose" in body:
        state = {k: v for k, v in body.items() if k != "choose"}
        choose = body["choose"]
    return answer(current_kb().timing_next(state, ruleset=ruleset, edition=edition, choose=choose))


@endpoint(bp, "POST", "/v1/timing/run", tag="timing", response="TimingRun", body="TimingScenario",
          errors=(404,), limits=RUN_LIMITS, summary="Run a timing scenario frame by frame",
          examples=("/api/v1/timing/run",), example_body=EXAMPLE_SCENARIO)
def timing_run() -> Response:
    """Run a scenario (the YAML of ``rulekb timing run``, as JSON): every frame with the
    transition taken, the rules it cites and why, the state after it, and each expectation
    checked. A scenario whose expectations fail answers 200 with ``ok`` false and the
    failures; a malformed one answers 422 naming the step and field. A scenario over a
    budget answers 413 (too large: steps, cards, instructions) or 422 (too much work:
    frames, answer size, time) before the work is done."""
    scenario = read_body(check_size)
    return answer(current_kb().timing_run(scenario, file="request"))
