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
