"""The timing explorer: a worked scenario (or one the reader writes) frame by frame.

Each frame shows the state (chain with pending and finalized items, priority, focus, turn
state), the step that produced it with the rules it follows (quoted from the edition), and
the timing model as a state diagram with the frame's place lit. Without JavaScript, frames
are pages (``?frame=N``; a pasted scenario steps by re-posting its text); the script only
adds keyboard stepping.
"""

from __future__ import annotations

from typing import Any

import yaml
from flask import request

from kb.inputs import load_yaml
from kb.limits import TIMING_PASTED
from kb.query import KnowledgeBase, QueryError
from kb.timing import list_scenarios, load_scenario, scenario_files
from web.site import bp, svg
from web.site.links import href, rule_href
from web.site.pages import Redirect, base_context, kb, render


def parse_scenario(text: str) -> dict[str, Any]:
    """A pasted scenario as data, or QueryError 400 saying where the YAML is wrong."""
    TIMING_PASTED.check(len(text), "the pasted scenario")
    try:
        # Without aliases (a few can expand to gigabytes); 422 past input.nesting.
        data = load_yaml(text, "a pasted scenario", aliases=False)
    except yaml.YAMLError as exc:
        raise QueryError(400, f"the scenario is not valid YAML: {exc}", {}) from exc
    if not isinstance(data, dict):
        raise QueryError(400, "a scenario is a YAML mapping with name, ruleset, players and steps", {})
    return data


def known_names(k: KnowledgeBase) -> frozenset[str]:
    """Every name a worked scenario can be asked for (``NAME`` and ``RULESET/NAME``), once per build."""
    return k.cached("site-scenario-names", lambda: frozenset(
        n for s in k.cached("site-scenarios", list_scenarios) for n in (s["name"], f"{s['ruleset']}/{s['name']}")))


def scenario_source(name: str) -> str:
    """The YAML text of a worked scenario (``NAME`` or ``RULESET/NAME``), as shipped."""
    ruleset, _, stem = name.rpartition("/")
    for f in scenario_files(ruleset or None):
        if f.stem == stem:
            return f.read_text(encoding="utf-8")
    raise KeyError(name)


def _rule_text(k: KnowledgeBase, ruleset: str, edition: str, number: str) -> str | None:
    cache: dict[str, str | None] = k.cached(f"site-rule-text:{ruleset}:{edition}", dict)
    if number not in cache:
        try:
            r = k.rule(ruleset, number, edition)
            cache[number] = r["text"] or r["title"]
        except QueryError:
            cache[number] = None
    return cache[number]


def _cited(k: KnowledgeBase, ruleset: str, edition: str | None, numbers: list[str]) -> list[dict[str, Any]]:
    out = []
    for n in numbers:
        text = _rule_text(k, ruleset, edition, n) if edition else None
        out.append({"number": n, "text": text, "url": rule_href(ruleset, edition, n) if text is not None else None})
    return out


def _detail(k: KnowledgeBase, ruleset: str, edition: str | None, nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"summary": n.get("summary", ""), "event": n.get("event", ""),
             "rules": _cited(k, ruleset, edition, list(n.get("rules") or [])),
             "children": _detail(k, ruleset, edition, list(n.get("children") or []))} for n in nodes]


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
            rows.append(("Life", ", ".join(f"{k} {v}" for k, v in state["life"].items())))
        title, items = "Stack", state.get("stack") or []
    pile = [{"name": i.get("name", "?"), "controller": i.get("controller", ""),
             "status": i.get("status", ""), "kind": i.get("kind", ""),
             "target": i.get("target", "")} for i in reversed(items) if isinstance(i, dict)]
    return {"rows": rows, "pile_title": title, "pile": pile}


def explorer_page(k: KnowledgeBase, name: str | None = None, text: str | None = None,
                  frame: int = 1) -> tuple[dict[str, Any] | Redirect, int]:
    """The explorer: the list of worked scenarios, and one scenario run at ``frame``
    (1-based). Returns the context and the status (4xx with the message for a pasted
    scenario that cannot run, which stays in the form to be fixed)."""
    scenarios = k.cached("site-scenarios", list_scenarios)  # parsing every file: 0.5 s
    ctx: dict[str, Any] = {**base_context(k), "scenarios": scenarios, "name": name, "source": text or "",
                           "pasted": text is not None, "run": None, "error": None, "frame": frame,
                           "pasted_max": TIMING_PASTED.value}
    if name is None and text is None:
        return ctx, 200
    try:
        if name is not None:
            if name not in known_names(k):  # a miss keeps nothing and reads no file
                raise QueryError(404, f"no worked scenario {name[:200]!r}",
                                 {"scenarios": [s["name"] for s in scenarios]})
            data, source = k.cached(f"site-scenario:{name}",
                                    lambda: (load_scenario(name), scenario_source(name)))
            ctx["source"] = source
            run = k.cached(f"site-timing-run:{name}", lambda: k.timing_run(data, f"{name}.yaml"))
        else:
            run = k.timing_run(parse_scenario(text or ""), "pasted scenario")
    except QueryError as exc:
        if name is not None and exc.status == 404:
            raise
        ctx["error"] = {"message": exc.message, "detail": exc.detail}
        return ctx, exc.status
    frames = run["frames"]
    if not frames:
        ctx["error"] = {"message": run.get("error") or "the scenario produced no frames", "detail": None}
        return ctx, 422
    if not 1 <= frame <= len(frames):
        raise QueryError(404, f"frame {frame} does not exist: the scenario has {len(frames)} frames",
                         {"frames": len(frames)})
    ruleset = run["ruleset"]
    editions = [e["edition"] for e in k.editions(ruleset)] if ruleset in {r["name"] for r in k.rulesets()} else []
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
    here = [e for e in run["expectations"]
            if e["step"] > current["step"] and (after is None or e["step"] <= after["step"])]
    if edition:
        ctx.update(base_context(k, ruleset, edition))     # the header links to its contents
    ctx.update({
        "run": run, "frames": frames, "current": current, "state": state, "step": step,
        "view": state_view(state),
        "count": len(frames), "picture": picture, "edition_used": edition,
        "cited": _cited(k, ruleset, edition, list(current.get("rules") or [])),
        "detail": _detail(k, ruleset, edition, list(current.get("detail") or [])),
        "expectations": run["expectations"], "here": here,
        "failed": [e for e in run["expectations"] if not e["ok"]],
    })
    return ctx, 200


def transition_examples(k: KnowledgeBase) -> dict[str, tuple[str, int, str]]:
    """Where each trace event first happens in the worked scenarios: event name →
    (scenario, 1-based frame, summary). Built once per knowledge base by running them."""
    def make() -> dict[str, tuple[str, int, str]]:
        found: dict[str, tuple[str, int, str]] = {}

        def visit(name: str, i: int, node: dict[str, Any]) -> None:
            found.setdefault(node.get("event", ""), (name, i, node.get("summary", "")))
            for child in node.get("detail") or node.get("children") or []:
                visit(name, i, child)
        for sc in list_scenarios():
            try:
                run = k.cached(f"site-timing-run:{sc['name']}",
                               lambda sc=sc: k.timing_run(load_scenario(sc["name"]), f"{sc['name']}.yaml"))
            except QueryError:
                continue
            for i, frame in enumerate(run["frames"], start=1):
                visit(sc["name"], i, frame)
        return found
    return k.cached("site-timing-examples", make)


def frame_href(name: str | None, n: int) -> str:
    """The page of frame ``n`` of a worked scenario."""
    return href("site.explorer", scenario=name, frame=n)


bp.add_app_template_global(frame_href, "frame_href")


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
    if not frame.isdigit() or len(frame) > 5:
        raise QueryError(400, "frame must be a positive whole number", {"frame": frame[:20]})
    ctx, status = explorer_page(kb(), name, text, int(frame))
    return render("explorer.html", ctx, status)
