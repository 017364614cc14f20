"""Why: explanations rendered from the trace, quoting the rules from the loaded edition.

The model writes only what happened ("Ann finalizes Fireball"); every reason is the text of
a cited rule, taken from the edition in the knowledge base. When the loaded corpus lacks a
rule (the embedded excerpt is partial) the explanation says so instead of paraphrasing it.

A run in an edition the model does not cite directly is explained through a
:class:`Renumbering`: every rule number the model gives (in its citation edition's
numbering) is carried to the edition's through the edition mapping before it is listed or
quoted, and a cited rule with no counterpart there is said plainly where it would be quoted
(and listed in the frame's ``no_counterpart``), never quoted under a number that means
another rule there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from kb.graph import RuleGraph
from kb.numbers import NumberError, parse_number
from kb.timing.engine import Check, Option, TraceNode


@dataclass(frozen=True)
class Renumbering:
    """Where each rule number of the model's citation edition (``source``) is in the edition
    a run quotes: ``carry(number)`` answers as :func:`kb.editions.queries.map_number` does
    (``target``, ``status``, ``nearest_target``)."""

    source: str
    carry: Callable[[str], dict[str, Any]]

    def target(self, number: str) -> str | None:
        """The counterpart of ``number``, or None when it has none."""
        return self.carry(number).get("target")

    def gap(self, number: str) -> dict[str, Any]:
        """A cited rule with no counterpart, as a frame lists it."""
        t = self.carry(number)
        nearest = t.get("nearest_target")
        return {"rule": number, "edition": self.source, "status": t.get("status", "unknown"),
                "nearest": nearest.get("target") if isinstance(nearest, dict) else None}


class Explainer:
    """Quotes rules from one edition (or says why it cannot); with a ``renumbering``, the
    model's numbers are first carried to that edition's."""

    def __init__(self, graph: RuleGraph | None, ruleset: str, edition: str,
                 renumbering: Renumbering | None = None):
        self.graph = graph
        self.ruleset = ruleset
        self.edition = edition
        self.renumbering = renumbering
        self._cache: dict[str, dict[str, Any]] = {}

    def rules(self, numbers: Iterable[str]) -> list[str]:
        """The model's rule numbers in this edition's numbering: unchanged without a
        renumbering; otherwise each carried (once), those with no counterpart left out."""
        if self.renumbering is None:
            return list(numbers)
        carried = (self.renumbering.target(n) for n in numbers)
        return list(dict.fromkeys(t for t in carried if t))

    def gaps(self, numbers: Iterable[str]) -> list[dict[str, Any]]:
        """The model's rule numbers that have no counterpart in this edition (none without a
        renumbering), each once."""
        if self.renumbering is None:
            return []
        r = self.renumbering
        return [r.gap(n) for n in dict.fromkeys(numbers) if not r.target(n)]

    def quote(self, number: str) -> dict[str, Any]:
        """``{"rule", "text"}`` with the rule's text, or ``text: None`` and ``missing``: why.

        ``number`` is the model's (carried first under a renumbering; one with no
        counterpart is quoted as ``{"rule": None, "text": None, "missing": why, "cited":
        {"rule", "edition"}}``)."""
        if number in self._cache:
            return self._cache[number]
        if self.renumbering is not None:
            target = self.renumbering.target(number)
            if target is None:
                out = self._no_counterpart(number)
                self._cache[number] = out
                return out
            quoted = dict(self._quote(target))
            if target != number:
                quoted["cited"] = {"rule": number, "edition": self.renumbering.source}
            self._cache[number] = quoted
            return quoted
        self._cache[number] = self._quote(number)
        return self._cache[number]

    def _no_counterpart(self, number: str) -> dict[str, Any]:
        assert self.renumbering is not None
        gap = self.renumbering.gap(number)
        why = no_counterpart_words(self.ruleset, gap, self.edition)
        return {"rule": None, "text": None, "missing": why, "cited": {"rule": number, "edition": gap["edition"]}}

    def _quote(self, number: str) -> dict[str, Any]:
        """The quote of a rule number of this edition."""
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
        return out

    def _quote_line(self, number: str, indent: str) -> str:
        q = self.quote(number)
        if q["text"]:
            return f"{indent}{q['rule']}  {q['text']}"
        return f"{indent}{q['rule'] or '—'}  ({q['missing']})"

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
        """One node of a trace tree and its children, as JSON."""
        return {"event": node.name, "summary": _sentence(node.label), "rules": self.rules(node.rules),
                "children": [self.node_json(c) for c in node.children]}

    def frame_json(self, node: TraceNode, step: int, state: dict[str, Any], note: str = "") -> dict[str, Any]:
        """One frame: the transition, the scenario step it followed, every rule its tree cites,
        the explanation, and the state after it."""
        cited: list[str] = []
        for n in node.walk():
            cited += [r for r in n.rules if r not in cited]
        why = self.why(node)
        if note:
            why = f"{why}\n({note})"
        gaps = self.gaps(cited)
        return {"event": node.name, "step": step, "summary": _sentence(node.label), "rules": self.rules(cited),
                "why": why, "detail": [self.node_json(c) for c in node.children], "state": state,
                **({"no_counterpart": gaps} if gaps else {})}

    def option_json(self, option: Option, action: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"transition": option.transition.name, "label": _sentence(option.label),
                               "player": option.player, "action": action,
                               "rules": self.rules(option.transition.rules)}
        if not option.legal:
            out["forbidden_by"] = [{"check": c.name, "summary": c.summary, "rules": self.rules(c.rules),
                                    "quotes": [self.quote(r) for r in c.rules]} for c in option.forbidden_by]
            out["why"] = self.forbidden(option.forbidden_by)
        return out


def no_counterpart_words(ruleset: str, gap: dict[str, Any], edition: str) -> str:
    """A frame's ``no_counterpart`` entry (:meth:`Renumbering.gap`) in words, as a frame's
    explanation and the explorer say it: ``riftbound 1.4 rule 464.2.b has no counterpart in
    1.3: removed; nearest: 459.2``. The status ``unknown`` is the mapping's for an edition
    that is an excerpt (it cannot tell a rule removed from one it does not hold), and is said
    so: ``…: 1.3 is an excerpt and lacks it``; ``added`` is an earlier edition's: ``…: added after it``."""
    why = (f"{edition} is an excerpt and lacks it" if gap["status"] == "unknown"
           else "added after it" if gap["status"] == "added" else gap["status"])
    return (f"{ruleset} {gap['edition']} rule {gap['rule']} has no counterpart in {edition}: {why}"
            + (f"; nearest: {gap['nearest']}" if gap["nearest"] else ""))


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) else text + "."
