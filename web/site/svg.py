"""Pictures drawn on the server as inline SVG: a rule's neighbourhood in the graph.

Pure functions of data (the facade's answers) returning :class:`~markupsafe.Markup`; every
label is escaped. Colours come from the site's stylesheet (classes), so the pictures follow
the light and dark themes and need no inline style.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

NODE_W, NODE_H, GAP = 100, 28, 8
WIDTH = 3 * NODE_W + 2 * 34 + 2 * 8
MAX_SIDE, MAX_CHILDREN, PER_ROW = 6, 6, 3


def _node(x: float, y: float, number: str, title: str, url: str | None, cls: str) -> str:
    label = number if len(number) <= 12 else number[:11] + "…"
    body = (f'<rect x="{x:.0f}" y="{y:.0f}" width="{NODE_W}" height="{NODE_H}" rx="6"/>'
            f'<text x="{x + NODE_W / 2:.0f}" y="{y + NODE_H / 2 + 5:.0f}" text-anchor="middle">'
            f'{escape(label)}</text>')
    tip = f"<title>{escape(number)}: {escape(title)}</title>"
    if url is None:
        return f'<g class="nb-node {cls}">{tip}{body}</g>'
    return f'<a class="nb-node {cls}" href="{escape(url)}">{tip}{body}</a>'


def _more(x: float, y: float, count: int, url: str) -> str:
    return (f'<a class="nb-node nb-more" href="{escape(url)}"><title>{count} more</title>'
            f'<rect x="{x:.0f}" y="{y:.0f}" width="{NODE_W}" height="{NODE_H}" rx="6"/>'
            f'<text x="{x + NODE_W / 2:.0f}" y="{y + NODE_H / 2 + 5:.0f}" text-anchor="middle">'
            f'+{count} more</text></a>')


def _line(x1: float, y1: float, x2: float, y2: float, cls: str) -> str:
    return (f'<line class="nb-edge {cls}" x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
            f'marker-end="url(#nb-arrow)"/>')


def neighbourhood(hood: dict[str, Any], link: Callable[[str], str], more_url: str = "#") -> Markup:
    """The rule at the centre of ``hood`` (the facade's ``neighbourhood`` answer) with its
    parent above, its children below, the rules that cite it on the left and the rules it
    cites on the right. Each node links to its rule page."""
    center = hood["center"]
    titles = {n["number"]: n["title"] for n in hood["nodes"]}
    parent, children, cites, cited_by = None, [], [], []
    for e in hood["edges"]:
        s, t, kind = e["source"], e["target"], e["kind"]
        if kind == "contains" and t == center:
            parent = s
        elif kind == "contains" and s == center:
            children.append(t)
        elif kind == "refers" and s == center:
            cites.append(t)
        elif kind == "refers" and t == center:
            cited_by.append(s)
    order = {n["number"]: i for i, n in enumerate(hood["nodes"])}
    for group in (children, cites, cited_by):
        group.sort(key=lambda n: order.get(n, 0))

    parts: list[str] = []
    top = 20
    cx = WIDTH / 2 - NODE_W / 2
    if parent:
        parts.append(_node(cx, top, parent, titles.get(parent, ""), link(parent), "nb-parent"))
    band_top = top + NODE_H + 36
    side = max(min(len(cites), MAX_SIDE + 1), min(len(cited_by), MAX_SIDE + 1), 1)
    band_h = side * (NODE_H + GAP) - GAP
    cy = band_top + band_h / 2 - NODE_H / 2
    if parent:
        parts.append(_line(WIDTH / 2, top + NODE_H, WIDTH / 2, cy - 2, "nb-contains"))

    def column(items: list[str], x: float, cls: str, inbound: bool) -> None:
        shown = items[:MAX_SIDE] if len(items) > MAX_SIDE + 1 else items
        y0 = band_top + (band_h - (len(shown) + (len(items) > len(shown))) * (NODE_H + GAP) + GAP) / 2
        for i, n in enumerate(shown):
            y = y0 + i * (NODE_H + GAP)
            if inbound:
                parts.append(_line(x + NODE_W, y + NODE_H / 2, cx - 2, cy + NODE_H / 2, cls))
            else:
                parts.append(_line(cx + NODE_W, cy + NODE_H / 2, x - 2, y + NODE_H / 2, cls))
            parts.append(_node(x, y, n, titles.get(n, ""), link(n), cls))
        if len(items) > len(shown):
            parts.append(_more(x, y0 + len(shown) * (NODE_H + GAP), len(items) - len(shown), more_url))

    column(cited_by, 8, "nb-cited-by", inbound=True)
    column(cites, WIDTH - 8 - NODE_W, "nb-cites", inbound=False)
    parts.append(_node(cx, cy, center, titles.get(center, ""), None, "nb-center"))

    y = band_top + band_h + 36
    shown = children[:MAX_CHILDREN] if len(children) > MAX_CHILDREN + 1 else children
    cells = shown + (["+"] if len(children) > len(shown) else [])
    per_row = PER_ROW
    for i, n in enumerate(cells):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(cells) - row * per_row)
        x = (WIDTH - in_row * NODE_W - (in_row - 1) * GAP) / 2 + col * (NODE_W + GAP)
        ny = y + row * (NODE_H + GAP)
        if row == 0:
            parts.append(_line(WIDTH / 2, cy + NODE_H, x + NODE_W / 2, ny - 2, "nb-contains"))
        if n == "+":
            parts.append(_more(x, ny, len(children) - len(shown), more_url))
        else:
            parts.append(_node(x, ny, n, titles.get(n, ""), link(n), "nb-child"))
    rows = (len(cells) + per_row - 1) // per_row
    height = (y + rows * (NODE_H + GAP) + 10) if cells else band_top + band_h + 20

    legend = (f"{center}: parent {parent or 'none'}, {len(children)} subrules, cites {len(cites)}, "
              f"cited by {len(cited_by)}")
    svg = (f'<svg class="neighbourhood" viewBox="0 0 {WIDTH} {height:.0f}" role="group" '
           f'aria-label="{escape(legend)}" xmlns="http://www.w3.org/2000/svg">'
           '<defs><marker id="nb-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker></defs>'
           + "".join(parts) + "</svg>")
    return Markup(svg)


# -- the timing model as a state diagram ----------------------------------------------------
# Per model: two pictures, each a list of nodes (id, label, rule, x, y) with their box size
# and arrows. ``states`` is where the game is (the state's ``state_key``): Riftbound's four
# states of the turn, Magic's steps of the turn. ``steps`` is the procedure that runs the
# chain or stack, and ``events`` says in which of its nodes each trace event of the model
# happens (the events are the model's own names, kb.timing.models.*: CITATIONS); an event
# not listed lights no node and is still shown by name beside the diagram.
def _grid(nodes: list[tuple[str, str, str]], cols: int, w: float, h: float, dx: float, dy: float,
          x0: float, y0: float) -> list[tuple[str, str, str, float, float]]:
    return [(i, label, rule, x0 + w / 2 + (n % cols) * (w + dx), y0 + h / 2 + (n // cols) * (h + dy))
            for n, (i, label, rule) in enumerate(nodes)]


_MTG_STEPS = [("untap", "Untap", "502"), ("upkeep", "Upkeep", "503"), ("draw", "Draw", "504"),
              ("main1", "Main 1", "505"), ("beginning-of-combat", "Combat", "507"),
              ("declare-attackers", "Attackers", "508"), ("declare-blockers", "Blockers", "509"),
              ("combat-damage", "Damage", "510"), ("end-of-combat", "End combat", "511"),
              ("main2", "Main 2", "505"), ("end", "End step", "513"), ("cleanup", "Cleanup", "514")]

TIMING_DIAGRAMS: dict[str, dict[str, Any]] = {
    "riftbound": {
        "state_key": "turn_state", "states_label": "States of the turn",
        "states": _grid([("neutral-open", "Neutral Open", "310"), ("neutral-closed", "Neutral Closed", "309.1"),
                         ("showdown-open", "Showdown Open", "309.2"),
                         ("showdown-closed", "Showdown Closed", "309.1")], 2, 134, 44, 82, 92, 44, 12),
        "states_box": (134, 44), "states_view": (400, 204), "states_bend": 12,
        "state_edges": [("neutral-open", "neutral-closed", "chain starts"), ("neutral-closed", "neutral-open", "chain empties"),
                        ("showdown-open", "showdown-closed", "chain starts"), ("showdown-closed", "showdown-open", "chain empties"),
                        ("neutral-open", "showdown-open", "showdown begins"), ("showdown-open", "neutral-open", "showdown ends")],
        "steps_label": "Handle outstanding tasks, then Finalize, Execute, Pass, Resolve",
        "steps": [("tasks", "Tasks", "334", 54, 125), ("finalize", "Finalize", "337", 196, 34),
                  ("execute", "Execute", "338", 362, 34), ("pass", "Pass", "339", 362, 216),
                  ("resolve", "Resolve", "340", 196, 216)],
        "steps_box": (96, 40), "steps_view": (416, 250),
        "step_edges": [("tasks", "finalize", ""), ("finalize", "execute", "priority"),
                       ("execute", "finalize", "play"), ("execute", "pass", "pass"),
                       ("pass", "execute", "next player"), ("pass", "resolve", "all passed"),
                       ("resolve", "finalize", "pending"), ("resolve", "execute", "newest"),
                       ("resolve", "tasks", "")],
        "events": {
            "execute": "play activate hide standard-move perform-trigger decline-trigger receive-priority "
                       "focus-holder-priority priority-to-next-item priority-to-newest end-main-phase concede "
                       "assign-damage",
            "finalize": "finalize finalize-next lingers resolves-immediately counts-as-finalized trigger-removed "
                        "play-undone back-to-finalize add-resolves pay-cost decline-cost cost-unpaid "
                        "add-while-paying trigger-used-up choose-attachment",
            "pass": "pass-priority pass-focus pass-step-resolve pass-step-continue focus-passes showdown-closes",
            "resolve": "resolve completes-play counter draw create-reflexive-trigger play-from-effect "
                       "no-eligible-card kill move-unit add-resources instruction-skipped legion-active triggers "
                       "play-effect-triggers death-triggers conquer-triggers enters-board open-state "
                       "focus-passes-after-chain focus-stays apply-replacement decline-replacement",
            "tasks": "cleanup control-lost showdown-begins combat-begins becomes-combat-showdown combat-opens "
                     "start-of-combat establish-attacker-defender attacker-gains-focus focus-maintained combat-chain "
                     "combat-state-closes combat-state-open settle-control conquer showdown-ends "
                     "combat-showdown-closes combat-damage no-combat-damage resolution-step combat-cleanup "
                     "combat-result establish-control combat-ends trigger-order beginning-step hold-battlefields "
                     "main-phase-begins",
        },
    },
    "mtg": {
        "state_key": "step", "states_label": "Steps of the turn",
        "states": _grid(_MTG_STEPS, 4, 88, 38, 12, 26, 8, 8),
        "states_box": (88, 38), "states_view": (400, 176), "states_bend": 0,
        "state_edges": [(a[0], b[0], "") for a, b in zip(_MTG_STEPS, _MTG_STEPS[1:])],
        "steps_label": "Before priority: state-based actions, then triggers; priority; resolve the top of the stack",
        "steps": [("begin", "Step begins", "500", 60, 34), ("sba", "State-based", "704", 208, 34),
                  ("triggers", "Triggers", "603.3", 356, 34), ("priority", "Priority", "117", 356, 216),
                  ("resolve", "Resolve", "608", 208, 216), ("ends", "Step ends", "500.2", 60, 125)],
        "steps_box": (100, 40), "steps_view": (416, 250),
        "step_edges": [("begin", "sba", ""), ("sba", "triggers", ""), ("triggers", "priority", ""),
                       ("priority", "sba", "acts"), ("priority", "resolve", "all pass"),
                       ("resolve", "sba", "then"), ("priority", "ends", "all pass, empty stack"),
                       ("ends", "begin", "next step")],
        "events": {
            "begin": "begin-step untap upkeep draw-for-turn main-phase beginning-of-combat declare-attackers-step "
                     "declare-blockers-step combat-damage-step end-of-combat end-step cleanup-step "
                     "beginning-triggers no-priority-in-untap declare-attackers declare-blockers "
                     "untap-triggers-wait attack-tapped no-attackers choose-defender order-blockers assign-combat-damage",
            "sba": "state-based-actions loses-game zero-toughness lethal-damage legend-rule",
            "triggers": "put-triggers-on-stack order-triggers triggers dies-triggers cast-triggers",
            "priority": "receive-priority-step receive-priority-resolved receive-priority-action cast activate "
                        "activate-mana play-land turn-face-up pass pay retract next-player-priority in-response "
                        "becomes-cast becomes-activated special-action mana-added cost-to-pay "
                        "draw-step-priority cleanup-priority all-passed receive-priority-special foretell "
                        "cast-foretold plot cast-plotted suspend concede",
            "resolve": "resolve target-illegal follow-instructions condition-false permanent-enters "
                       "finish-resolution payment-asked nothing-to-choose choose pay-unless decline-payment "
                       "damage-to-creature damage-to-player counter draw lose-life discard sacrifice destroy tap "
                       "extra-turn "
                       "return-to-battlefield boost shuffle-graveyard apnap-choices",
            "ends": "step-ends untap-step-ends turn-ends mana-empties another-cleanup",
        },
    },
}


def timing_step_of(ruleset: str, event: str) -> str | None:
    """The diagram node (procedure step) a trace event belongs to, if the diagram knows it."""
    diagram = TIMING_DIAGRAMS.get(ruleset)
    if not diagram:
        return None
    for step, events in diagram["events"].items():
        if event in events.split():
            return step
    return None


def timing_place(ruleset: str, state: dict[str, Any]) -> str | None:
    """Where the game is in a state, as a node of the model's ``states`` picture."""
    diagram = TIMING_DIAGRAMS.get(ruleset)
    value = state.get(diagram["state_key"]) if diagram else None
    return value if isinstance(value, str) else None


def _edge(x1: float, y1: float, x2: float, y2: float, label: str, on: bool, prefix: str,
          bend: float = 0) -> str:
    """An arrow from (x1, y1) to (x2, y2), curved ``bend`` units to its left, with its label
    beside the middle of the curve on the outer side."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    dx, dy = x2 - x1, y2 - y1
    length = max((dx * dx + dy * dy) ** 0.5, 1)
    nx, ny = dy / length, -dx / length          # the normal on the arrow's left
    cx, cy = mx + nx * bend * 2, my + ny * bend * 2
    cls = " on" if on else ""
    path = (f'<path class="tm-edge{cls}" d="M{x1:.0f} {y1:.0f} Q{cx:.0f} {cy:.0f} {x2:.0f} {y2:.0f}" '
            f'marker-end="url(#{prefix}-arrow{"-on" if on else ""})"/>')
    if not label:
        return path
    if bend == 0 and abs(dx) > abs(dy):
        nx, ny = 0.0, -1.0                      # a straight, flat arrow: its label above it
    side = 1 if bend >= 0 else -1
    ax, ay = mx + nx * bend + nx * side * 6, my + ny * bend + ny * side * 6
    anchor = "middle"
    if abs(nx) > 0.5:
        anchor = "start" if nx * side > 0 else "end"
    ay += 11 if ny * side > 0.5 else (-3 if ny * side < -0.5 else 4)
    return path + (f'<text class="tm-label{cls}" x="{ax:.0f}" y="{ay:.0f}" text-anchor="{anchor}">'
                   f'{escape(label)}</text>')


def _box_edge_point(cx: float, cy: float, w: float, h: float, tx: float, ty: float) -> tuple[float, float]:
    """Where the line from a box's centre towards (tx, ty) leaves the box."""
    dx, dy = tx - cx, ty - cy
    if dx == 0 and dy == 0:
        return cx, cy
    scale = min((w / 2) / abs(dx) if dx else float("inf"), (h / 2) / abs(dy) if dy else float("inf"))
    return cx + dx * scale, cy + dy * scale


def _defs(prefix: str) -> str:
    marker = ('<marker id="{id}" {cls}viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" '
              'markerWidth="{size}" markerHeight="{size}" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z"/></marker>')
    return ("<defs>" + marker.format(id=f"{prefix}-arrow", cls="", size=9)
            + marker.format(id=f"{prefix}-arrow-on", cls='class="on" ', size=12) + "</defs>")


def _picture(nodes: list[tuple[str, str, str, float, float]], edges: list[tuple[str, str, str]],
             box: tuple[float, float], view: tuple[float, float], current: str | None,
             previous: str | None, bend_pairs: float, prefix: str, label: str,
             link: Callable[[str], str]) -> str:
    w, h = box
    pos = {i: (x, y) for i, _, _, x, y in nodes}
    pairs = {(a, b) for a, b, _ in edges}
    parts = []
    for a, b, text in edges:
        (ax, ay), (bx, by) = pos[a], pos[b]
        on = a == previous and b == current and a != b
        x1, y1 = _box_edge_point(ax, ay, w, h, bx, by)
        x2, y2 = _box_edge_point(bx, by, w, h, ax, ay)
        parts.append(_edge(x1, y1, x2, y2, text, on, prefix, bend=bend_pairs if (b, a) in pairs else 0))
    for i, text, rule, x, y in nodes:
        on = " on" if i == current else ""
        parts.append(f'<a class="tm-state{on}" href="{escape(link(rule))}"><title>{escape(text)} (rule {escape(rule)})</title>'
                     f'<rect x="{x - w / 2:.0f}" y="{y - h / 2:.0f}" width="{w:.0f}" height="{h:.0f}" rx="8"/>'
                     f'<text x="{x:.0f}" y="{y - 1:.0f}" text-anchor="middle">{escape(text)}</text>'
                     f'<text class="sub" x="{x:.0f}" y="{y + 13:.0f}" text-anchor="middle">rule {escape(rule)}</text></a>')
    return (f'<svg class="timing" viewBox="0 0 {view[0]:.0f} {view[1]:.0f}" role="img" '
            f'aria-label="{escape(label)}; now {escape(current or "none")}" xmlns="http://www.w3.org/2000/svg">'
            f'{_defs(prefix)}' + "".join(parts) + "</svg>")


def timing_diagram(ruleset: str, place: str | None, previous_place: str | None,
                   step: str | None, previous_step: str | None,
                   link: Callable[[str], str]) -> Markup | None:
    """Two pictures of a timing model: where the game is (the current place lit, with the
    change that led to it) and the procedure that runs the chain or stack (the node the
    current frame belongs to lit, with the move from the previous frame's). Nodes link to
    their rules. None for a model without a diagram."""
    d = TIMING_DIAGRAMS.get(ruleset)
    if not d:
        return None
    return Markup(
        _picture(d["states"], d["state_edges"], d["states_box"], d["states_view"], place, previous_place,
                 d["states_bend"], "tms", d["states_label"], link)
        + _picture(d["steps"], d["step_edges"], d["steps_box"], d["steps_view"], step, previous_step,
                   12, "tmp", d["steps_label"], link))
