"""Why: explanations rendered from the trace, quoting the rules from the loaded edition.

The model writes only what happened ("Ann finalizes Fireball"); every reason is the text of
a cited rule, taken from the edition in the knowledge base. When the loaded corpus lacks a
rule (the embedded excerpt is partial) the explanation says so instead of paraphrasing it.
"""

from __future__ import annotations

from typing import Any

from kb.graph import RuleGraph
from kb.numbers import NumberError, parse_number
from kb.timing.engine import Check, Option, TraceNode


class Explainer:
    """Quotes rules from one edition (or says why it cannot)."""

    def __init__(self, graph: RuleGraph | None, ruleset: str, edition: str):
        self.graph = graph
        self.ruleset = ruleset
        self.edition = edition
        self._cache: dict[str, dict[str, Any]] = {}

    def quote(self, number: str) -> dict[str, Any]:
        """``{"rule", "text"}`` with the rule's text, or ``text: None`` and ``missing``: why."""
        if number in self._cache:
            return self._cache[number]
        out: dict[str, Any] = {"rule": number, "text": None}
        rg = self.graph
        found = None
        if rg is not None:
            try:
                found = rg.find(parse_number(number))
            except NumberError:
                found = None
        if found is not None and rg is not None:
            r = rg.rule(found)
            out["rule"] = found
            out["text"] = " ".join((r.text or r.title).split())
        elif rg is None:
            out["missing"] = f"rule text unavailable: {self.ruleset} {self.edition} is not loaded"
        elif rg.edition.partial:
            out["missing"] = f"not in the loaded corpus: the {self.ruleset} {rg.edition.name} excerpt is partial"
        else:
            out["missing"] = f"no rule {number} in {self.ruleset} {rg.edition.name}"
        self._cache[number] = out
        return out

    def _quote_line(self, number: str, indent: str) -> str:
        q = self.quote(number)
        return f"{indent}{q['rule']}  {q['text']}" if q["text"] else f"{indent}{number}  ({q['missing']})"

    def why(self, node: TraceNode, depth: int = 0) -> str:
        """The explanation of one node and its children, as indented plain text."""
        indent = "  " * depth
        lines = [f"{indent}{_sentence(node.label)}"]
        lines += [self._quote_line(r, indent + "    ") for r in node.rules]
        for child in node.children:
            lines.append(self.why(child, depth + 1))
        return "\n".join(lines)

    def forbidden(self, checks: tuple[Check, ...] | list[Check]) -> str:
        lines = []
        for c in checks:
            lines.append(_sentence(c.summary))
            lines += [self._quote_line(r, "    ") for r in c.rules]
        return "\n".join(lines)

    def node_json(self, node: TraceNode) -> dict[str, Any]:
        return {"event": node.name, "summary": _sentence(node.label), "rules": list(node.rules),
                "children": [self.node_json(c) for c in node.children]}

    def frame_json(self, node: TraceNode, step: int, state: dict[str, Any], note: str = "") -> dict[str, Any]:
        """One frame: the transition, the scenario step it followed, every rule its tree cites,
        the explanation, and the state after it."""
        rules: list[str] = []
        for n in node.walk():
            rules += [r for r in n.rules if r not in rules]
        why = self.why(node)
        if note:
            why = f"{why}\n({note})"
        return {"event": node.name, "step": step, "summary": _sentence(node.label), "rules": rules,
                "why": why, "detail": [self.node_json(c) for c in node.children], "state": state}

    def option_json(self, option: Option, action: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"transition": option.transition.name, "label": _sentence(option.label),
                               "player": option.player, "action": action, "rules": list(option.transition.rules)}
        if not option.legal:
            out["forbidden_by"] = [{"check": c.name, "summary": c.summary, "rules": list(c.rules),
                                    "quotes": [self.quote(r) for r in c.rules]} for c in option.forbidden_by]
            out["why"] = self.forbidden(option.forbidden_by)
        return out


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
