"""The timing explorer: a worked scenario (or one the reader writes) frame by frame.

Each frame shows the state (chain with pending and finalized items, priority, focus, turn
state), the step that produced it with the rules it follows (quoted from the edition), and
the timing model as a state diagram with the frame's place lit. Without JavaScript, frames
are pages (``?frame=N``; a pasted scenario steps by re-posting its text); the script only
adds keyboard stepping.
"""

from __future__ import annotations

from typing import Any

import json

from flask import current_app, request

from kb.derived import derived
from kb.export.scenarios import exported_scenarios
from kb.inputs import loads_json
from kb.limits import TIMING_PASTED
from kb.numbers import try_parse_number
from kb.query import KnowledgeBase, QueryError
from kb.timing.examples import worked_names, worked_run, worked_scenarios, worked_source
from kb.timing.explain import no_counterpart_words
from kb.timing.scenario import ScenarioError, read_yaml
from web.site import checks, next_steps, svg
from web.site.frame import SENTENCE_ENDS, Redirect, base_context, bp, current_kb, render, whole_number
from web.site.links import href, rule_href


def alert(message: str, detail: Any = None) -> dict[str, Any]:
    """An explorer page's own alert (after its lead, "The scenario cannot run:" or "No answer
    from this state:"): the message as the end of that sentence, with its full stop, as every
    other error the site shows is one (:func:`web.site.frame.as_sentence`). Its first letter
    is kept: it may open with a file's name (``s4.yaml: step 1 …``)."""
    text = message.strip()
    return {"message": text if not text or text.endswith(SENTENCE_ENDS) else text + ".", "detail": detail}


def parse_scenario(text: str) -> dict[str, Any]:
    """A pasted scenario as data, or QueryError 400 saying where the YAML is wrong."""
    TIMING_PASTED.check(len(text), "the pasted scenario")
    try:
        # The CLI's loader: without aliases (a few can expand to gigabytes); 422 past input.nesting.
        data = read_yaml(text, "a pasted scenario")
    except ScenarioError as exc:
        raise QueryError(400, f"the scenario is {exc.message}" + (f" (line {exc.line})" if exc.line else ""),
                         {"line": exc.line}) from exc
    if not isinstance(data, dict):
        raise QueryError(400, "a scenario is a YAML mapping with name, ruleset, players and steps", {})
    return data


def _rule_text(kb: KnowledgeBase, ruleset: str, edition: str, number: str) -> str | None:
    """The text (or a heading's title) a frame quotes for a rule; None for a number the edition
    lacks. Kept per rule, never per spelling or miss: a pasted scenario may cite anything."""
    segments = try_parse_number(number)
    try:
        found = kb.edition(ruleset, edition).find(segments) if segments else None
    except QueryError:
        return None
    return _quoted_text(kb, ruleset, edition, found) if found else None


@derived
def _quoted_text(kb: KnowledgeBase, ruleset: str, edition: str, number: str) -> str:
    """The text (or a heading's title) of the rule ``number`` (canonical) of an edition."""
    r = kb.rule(ruleset, number, edition)
    return str(r["text"] or r["title"])


def _cited(kb: KnowledgeBase, ruleset: str, edition: str | None, numbers: list[str]) -> list[dict[str, Any]]:
    out = []
    for n in numbers:
        text = _rule_text(kb, ruleset, edition, n) if edition else None
        out.append({"number": n, "text": text, "url": rule_href(ruleset, edition, n) if text is not None else None})
    return out


def _detail(kb: KnowledgeBase, ruleset: str, edition: str | None, nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"summary": n.get("summary", ""), "event": n.get("event", ""),
             "rules": _cited(kb, ruleset, edition, list(n.get("rules") or [])),
             "children": _detail(kb, ruleset, edition, list(n.get("children") or []))} for n in nodes]


def _who(value: Any) -> str:
    return str(value) if value else "nobody"


def state_view(state: dict[str, Any]) -> dict[str, Any]:
    """A frame's state as rows of (label, value) and its pile of items (Riftbound's chain,
    Magic's stack), newest on top, whatever model produced it."""
    rows: list[tuple[str, str]] = []
    if "turn_state" in state:                                   # Riftbound
        rows += [("Turn state", state["turn_state"]), ("Priority", _who(state.get("priority"))),
                 ("Focus", _who(state.get("focus"))),
                 ("Turn player", f"{state.get('turn_player')}" + (f" ({state['phase']} phase)" if state.get("phase") else ""))]
        sd, combat = state.get("showdown"), state.get("combat")
        if sd:
            rows.append(("Showdown", ("combat at " if sd.get("combat") else "") + str(sd.get("battlefield"))
                         + (f" · {sd['passes']} pass(es) in a row" if sd.get("passes") else "")))
        if combat:
            rows.append(("Combat", f"{combat.get('attacker')} attacks {combat.get('defender')} at "
                                   f"{combat.get('battlefield')} · {combat.get('step')}"
                                   + (f" · {combat['result']}" if combat.get("result") else "")))
        if state.get("tasks"):
            rows.append(("Tasks waiting", ", ".join(map(str, state["tasks"]))))
        if state.get("passes"):
            rows.append(("Passes in a row", str(state["passes"])))
        if isinstance(state.get("xp"), dict):  # each player's XP is public (729.2)
            rows.append(("XP", ", ".join(f"{who} {n}" for who, n in state["xp"].items())))
        title, items = "Chain", state.get("chain") or []
    else:                                                       # Magic, and any stack model
        rows += [("Turn", f"{state.get('turn', '?')}, {state.get('active')}'s"),
                 ("Step", str(state.get("step", "")).replace("-", " ")
                  + (f" ({state['phase']})" if state.get("phase") else "")),
                 ("Priority", _who(state.get("priority")))]
        if state.get("passes"):
            rows.append(("Passes in a row", str(state["passes"])))
        if state.get("resolving"):
            r = state["resolving"]
            if isinstance(r, dict):  # Magic gives {"item": {...}, "index": …}; others the item itself
                r = r.get("item", r)
            rows.append(("Resolving", str(r.get("name") if isinstance(r, dict) else r)))
        if state.get("awaiting"):
            rows.append(("Waiting for", str(state["awaiting"])))
        if state.get("waiting"):
            rows.append(("Triggered, waiting", ", ".join(str(w.get("name", w)) if isinstance(w, dict) else str(w)
                                                         for w in state["waiting"])))
        if isinstance(state.get("life"), dict):
            rows.append(("Life", ", ".join(f"{who} {life}" for who, life in state["life"].items())))
        title, items = "Stack", state.get("stack") or []
    pile = [{"name": i.get("name", "?"), "controller": i.get("controller", ""),
             "status": i.get("status", ""), "kind": i.get("kind", ""),
             "target": i.get("target", "")} for i in reversed(items) if isinstance(i, dict)]
    return {"rows": rows, "pile_title": title, "pile": pile}


def scenario_run(kb: KnowledgeBase, name: str | None, text: str | None) -> tuple[dict[str, Any], str]:
    """The run of a worked scenario (``name``, cached per build) or of a pasted one
    (``text``), with its YAML source. QueryError 404 for an unknown name, 400/413/422 for
    a pasted scenario that cannot run."""
    if name is not None:
        if name not in worked_names(kb):  # a miss keeps nothing and reads no file
            raise QueryError(404, f"no worked scenario {name[:200]!r}",
                             {"scenarios": [s["name"] for s in worked_scenarios(kb)]})
        return worked_run(kb, name), worked_source(kb, name)
    return kb.timing_run(parse_scenario(text or ""), "pasted scenario"), text or ""


@derived
def scenario_groups(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The worked scenarios grouped by ruleset (in the order of the knowledge base's rulesets,
    then any ruleset it lacks), each group with the ruleset's title."""
    titles = {r["name"]: r["title"] for r in kb.rulesets()}
    by: dict[str, list[dict[str, Any]]] = {}
    for s in worked_scenarios(kb):
        by.setdefault(s["ruleset"], []).append(s)
    order = [r for r in titles if r in by] + sorted(r for r in by if r not in titles)
    return [{"ruleset": r, "title": titles.get(r, r), "scenarios": by[r]} for r in order]


def listed_groups(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The groups of worked scenarios the explorer lists: every one on the live site; in a
    static copy (``SITE_STATIC_EXPORT``) only those whose frames it holds, the scenarios of
    its own rulesets (:func:`kb.export.scenarios.exported_scenarios`)."""
    groups = scenario_groups(kb)
    if not current_app.config.get("SITE_STATIC_EXPORT"):
        return groups
    held = {(s["ruleset"], s["name"]) for s in exported_scenarios(kb)}
    kept = [{**g, "scenarios": [s for s in g["scenarios"] if (s["ruleset"], s["name"]) in held]} for g in groups]
    return [g for g in kept if g["scenarios"]]


def explorer_page(kb: KnowledgeBase, name: str | None = None, text: str | None = None,
                  frame: int = 1) -> tuple[dict[str, Any] | Redirect, int]:
    """The explorer: the list of worked scenarios, and one scenario run at ``frame``
    (1-based). Returns the context and the status (4xx with the message for a pasted
    scenario that cannot run, which stays in the form to be fixed)."""
    scenarios = worked_scenarios(kb)
    ctx: dict[str, Any] = {**base_context(kb), "scenarios": scenarios, "groups": listed_groups(kb),
                           "name": name, "source": text or "",
                           "pasted": text is not None, "run": None, "error": None, "frame": frame,
                           "pasted_max": TIMING_PASTED.value}
    if name is None and text is None:
        return ctx, 200
    try:
        run, source = scenario_run(kb, name, text)
        ctx["source"] = source
    except QueryError as exc:
        if name is not None and exc.status == 404:
            raise
        ctx["error"] = alert(exc.message, exc.detail)
        return ctx, exc.status
    frames = run["frames"]
    if not frames:
        error = run.get("error")
        ctx["error"] = alert(error.get("message", "") if isinstance(error, dict) else error
                             or "the scenario produced no frames")
        return ctx, 422
    if not 1 <= frame <= len(frames):
        raise QueryError(404, f"frame {frame} does not exist: the scenario has {len(frames)} frames",
                         {"frames": len(frames)})
    ruleset = run["ruleset"]
    editions = [e["edition"] for e in kb.editions(ruleset)] if ruleset in {r["name"] for r in kb.rulesets()} else []
    edition = run.get("edition") if run.get("edition") in editions else None
    current = frames[frame - 1]
    before = frames[frame - 2] if frame > 1 else None
    state = current["state"]
    step = svg.timing_step_of(ruleset, current["event"])
    picture = svg.timing_diagram(
        ruleset, svg.timing_place(ruleset, state), svg.timing_place(ruleset, before["state"]) if before else None,
        step, svg.timing_step_of(ruleset, before["event"]) if before else None,
        (lambda n: rule_href(ruleset, edition, n)) if edition else (lambda n: "#"))
    after = frames[frame] if frame < len(frames) else None
    # An expectation at step s checks the state once every step before s has run: after the
    # last frame of a step below s, which is this frame when the next one is at s or later.
    here = [{**e, "sentence": (said := checks.sentence(e)), "cited": _cited(kb, ruleset, edition, said["rules"])}
            for e in run["expectations"]
            if e["step"] > current["step"] and (after is None or e["step"] <= after["step"])]
    if edition:
        ctx.update(base_context(kb, ruleset, edition))     # the header links to its contents
    ctx.update({
        "run": run, "frames": frames, "current": current, "state": state, "step": step,
        "view": state_view(state),
        "count": len(frames), "picture": picture, "edition_used": edition,
        "cited": _cited(kb, ruleset, edition, list(current.get("rules") or [])),
        "detail": _detail(kb, ruleset, edition, list(current.get("detail") or [])),
        "expectations": run["expectations"], "here": here,
        "failed": [{**e, "frame": checked_at(frames, e["step"])} for e in run["expectations"] if not e["ok"]],
    })
    return ctx, 200


def checked_at(frames: list[dict[str, Any]], step: int) -> int:
    """The frame (1-based) whose "Checked here" shows an expectation at scenario step
    ``step``: the last frame of a step before it (the first frame when none is)."""
    return max((i for i, f in enumerate(frames, 1) if f["step"] < step), default=1)


@bp.route("/timing", methods=["GET", "POST"])
def explorer() -> Any:
    if request.method == "POST":
        frame = request.form.get("frame", "1")
        text: str | None = request.form.get("yaml", "")
        name = None
    else:
        frame = request.args.get("frame", "1")
        text = None
        name = request.args.get("scenario") or None
    ctx, status = explorer_page(current_kb(), name, text, whole_number("frame", frame, most_digits=5, least=1))
    return render("explorer.html", ctx, status)


@bp.route("/timing/<path:name>")
def explorer_path(name: str) -> Any:
    """A worked scenario asked for by its path (``/timing/NAME``, ``/timing/RULESET/NAME``):
    sent on to its page, ``/timing?scenario=NAME`` (its frame kept); an unknown name is a 404
    page listing the worked scenarios."""
    kb = current_kb()
    if name not in worked_names(kb):
        raise QueryError(404, f"no worked scenario {name[:200]!r}; the worked scenarios are listed below",
                         {"scenarios": [s["name"] for s in worked_scenarios(kb)]})
    values = {"scenario": name}
    if "frame" in request.args:
        values["frame"] = request.args["frame"]
    return render("explorer.html", Redirect("site.explorer", values, 302))


# -- what happens next ----------------------------------------------------------------------
def parse_state(text: str) -> dict[str, Any]:
    """A pasted state (JSON, as ``rulekb timing next --state`` takes) as data, or QueryError
    400 saying where the JSON is wrong (413 past :data:`kb.limits.TIMING_PASTED`)."""
    TIMING_PASTED.check(len(text), "the pasted state")
    if not text.strip():
        raise QueryError(400, "paste a state: a JSON object such as any frame's state from "
                              "`rulekb timing run --json`", {"field": "state"})
    try:
        data = loads_json(text, "the pasted state")
    except json.JSONDecodeError as exc:
        raise QueryError(400, f"the state is not valid JSON: line {exc.lineno}, column {exc.colno}: {exc.msg}",
                         {"line": exc.lineno, "column": exc.colno}) from exc
    if not isinstance(data, dict):
        raise QueryError(400, "a state is a JSON object (with ruleset, players and the rest of a frame's state), "
                              f"not {type(data).__name__ if data is not None else 'null'}", {"field": "state"})
    return data


def _option_view(kb: KnowledgeBase, ruleset: str, edition: str | None, o: dict[str, Any]) -> dict[str, Any]:
    """One option of a decision: its label and rules (quoted), and for an illegal one each
    check that forbids it with its rules."""
    return {"label": o["label"], "player": o.get("player"), "rules": _cited(kb, ruleset, edition, list(o["rules"])),
            "forbidden_by": [{"summary": f["summary"], "rules": _cited(kb, ruleset, edition, list(f["rules"]))}
                             for f in o.get("forbidden_by") or []]}


def next_page(kb: KnowledgeBase, *, state_text: str | None = None, name: str | None = None,
              yaml_text: str | None = None, frame: int = 1, path: list[int] | None = None) -> tuple[dict[str, Any], int]:
    """What happens next, from a pasted state (``state_text``) or from frame ``frame`` of a
    worked (``name``) or pasted (``yaml_text``) scenario, after the options chosen since
    (``path``, see :mod:`web.site.next_steps`): the automatic steps, who decides,
    every legal option and the tempting illegal ones, each with its rules. The answer is the
    facade's :meth:`~kb.query.KnowledgeBase.timing_next`; returns the context and the status
    (4xx with the message for input that cannot be answered, kept in the form)."""
    ctx: dict[str, Any] = {**base_context(kb), "groups": listed_groups(kb), "state_text": state_text or "",
                           "origin": None, "answer": None, "error": None, "pasted_max": TIMING_PASTED.value,
                           "path": next_steps.path_text(path or []), "trail": []}
    try:
        edition = None
        if state_text is not None:
            state = parse_state(state_text)
            ruleset = None
        else:
            run, source = scenario_run(kb, name, yaml_text)
            frames = run["frames"]
            if not frames:
                raise QueryError(422, run.get("error", {}).get("message") if isinstance(run.get("error"), dict)
                                 else "the scenario produced no frames", {})
            if not 1 <= frame <= len(frames):
                raise QueryError(404, f"frame {frame} does not exist: the scenario has {len(frames)} frames",
                                 {"frames": len(frames)})
            state, ruleset = frames[frame - 1]["state"], run["ruleset"]
            if "edition" not in state:  # a state that does not say its edition is the scenario's
                edition = run["edition"]
            ctx["origin"] = {"name": name, "title": run["name"], "frame": frame, "count": len(frames),
                             "summary": frames[frame - 1]["summary"], "yaml": source if name is None else None}
            ctx["state_text"] = json.dumps(state, indent=1, ensure_ascii=False)
        answer, ctx["trail"] = next_steps.follow(kb, state, ruleset, path or [], edition)
    except QueryError as exc:
        if name is not None and exc.status == 404:
            raise
        ctx["error"] = alert(exc.message, exc.detail)
        return ctx, exc.status
    ruleset, edition = answer["ruleset"], answer["edition"]
    loaded = {(r["name"], e) for r in kb.rulesets() for e in r["editions"]}
    quoted = edition if (ruleset, edition) in loaded else None
    if quoted:
        ctx.update(base_context(kb, ruleset, quoted))
    d = answer["decision"]
    ctx.update({
        "answer": answer, "edition_used": quoted, "chosen": answer.get("chosen") and {
            **_option_view(kb, ruleset, quoted, answer["chosen"]),
            "detail": _detail(kb, ruleset, quoted, answer["chosen"]["detail"])},
        "steps": [{"summary": f["summary"], "rules": _cited(kb, ruleset, quoted, list(f["rules"])),
                   "detail": _detail(kb, ruleset, quoted, list(f.get("detail") or []))} for f in answer["steps"]],
        "decision": None if d is None else {
            "decider": d["decider"],
            "options": [_option_view(kb, ruleset, quoted, o) for o in d["options"]],
            "illegal": [_option_view(kb, ruleset, quoted, o) for o in d["illegal"]]},
        "end": None if answer["end"] is None else {**answer["end"],
                                                   "rules": _cited(kb, ruleset, quoted, answer["end"]["rules"])},
        "view": state_view(answer["state"]),
        "reached": json.dumps(answer["state"], indent=1, ensure_ascii=False),
    })
    return ctx, 200


def next_href(name: str | None, n: int) -> str:
    """The "what happens next" page of frame ``n`` of a worked scenario."""
    return href("site.explorer_next", scenario=name, frame=n)


bp.add_app_template_global(next_href, "next_href")
bp.add_app_template_global(no_counterpart_words, "no_counterpart_words")  # a frame's gaps, as its "why" says them


@bp.route("/timing/next", methods=["GET", "POST"])
def explorer_next() -> Any:
    """What happens next: ``POST state=JSON``, ``POST yaml=…&frame=N`` (a pasted scenario's
    frame) or ``GET ?scenario=NAME&frame=N``, each with ``path`` (the options chosen since) and
    ``choose`` (one more); without either, the form to paste a state."""
    if request.method == "POST":
        frame = request.form.get("frame", "1")
        state_text = request.form.get("state")
        yaml_text = None if state_text is not None else request.form.get("yaml", "")
        name = None
        path = next_steps.parse_path(request.form.get("path"), request.form.get("choose"))
    else:
        frame = request.args.get("frame", "1")
        name = request.args.get("scenario") or None
        state_text = yaml_text = None
        path = next_steps.parse_path(request.args.get("path"), request.args.get("choose"))
        if request.args.get("choose") is not None and name is not None:  # a choice is a page of its own
            return render("explorer_next.html", Redirect("site.explorer_next", {
                "scenario": name, "frame": frame, "path": next_steps.path_text(path)}))
    frame_number = whole_number("frame", frame, most_digits=5, least=1)
    kb = current_kb()
    if state_text is None and yaml_text is None and name is None:
        ctx: dict[str, Any] = {**base_context(kb), "groups": listed_groups(kb), "state_text": "", "origin": None,
                               "answer": None, "error": None, "pasted_max": TIMING_PASTED.value}
        return render("explorer_next.html", ctx)
    ctx, status = next_page(kb, state_text=state_text, name=name, yaml_text=yaml_text, frame=frame_number, path=path)
    return render("explorer_next.html", ctx, status)
