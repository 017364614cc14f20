"""Riftbound's resources as values: Energy and Power (163), the costs printed on cards and
abilities, and what a Rune Pool holds (166). Plain data, read from a scenario and written
back; paying is :mod:`kb.timing.models.riftbound.costs`.

A cost is written ``cost: 2`` (2 Energy, 429.5's ``[2]``) or ``cost: {energy: 1, power: 1}``;
an activated ability's cost may also exhaust its own permanent (``cost: {exhaust: true}``, the
exhaust symbol [E] of ``[E]: Add [1]``, 135.2.e.2, 414.5), alone or with Energy and Power.
Power's domain does not change timing, so the model counts Power without one (a Deflect cost
may be paid with Power of any domain anyway, 809.1.c.1). Additional costs are written in the
card's words: ``additional_cost: [kill a friendly unit]`` (356.2.a.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kb.timing.engine import FormatError
from kb.timing.fields import a_list, a_mapping, only_keys, text, whole_number

# The additional costs the model knows, in the cards' words (356.2.a.1, 356.7).
KILL_A_FRIENDLY_UNIT = "kill a friendly unit"
ADDITIONAL_COSTS = (KILL_A_FRIENDLY_UNIT,)


@dataclass(frozen=True)
class Cost:
    """An amount of Energy and Power: a cost, or what a Rune Pool holds (163.1, 163.2, 166)."""

    energy: int = 0
    power: int = 0

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.energy + other.energy, self.power + other.power)

    def __bool__(self) -> bool:
        return bool(self.energy or self.power)

    def __str__(self) -> str:
        parts = [f"{self.energy} Energy" if self.energy else "", f"{self.power} Power" if self.power else ""]
        return " and ".join(p for p in parts if p) or "nothing"


FREE = Cost()


def parse_cost(data: Any, field: str) -> Cost:
    """``2`` (Energy) or ``{energy: N, power: N}``; missing: no cost."""
    if data is None:
        return FREE
    if isinstance(data, int) and not isinstance(data, bool):
        return Cost(whole_number(data, field, 0, 20))
    raw = a_mapping(data, field)
    only_keys(raw, ("energy", "power"), field)
    return Cost(whole_number(raw.get("energy", 0), f"{field}.energy", 0, 20),
                whole_number(raw.get("power", 0), f"{field}.power", 0, 20))


def parse_ability_cost(data: Any, field: str) -> tuple[Cost, bool]:
    """An activated ability's cost (403.1.a): its Energy and Power, and whether it exhausts the
    ability's own permanent (``{exhaust: true}``, 414.5)."""
    if not isinstance(data, dict) or "exhaust" not in data:
        return parse_cost(data, field), False
    only_keys(data, ("energy", "power", "exhaust"), field)
    exhaust = data["exhaust"]
    if not isinstance(exhaust, bool):
        raise FormatError("exhaust is true (the ability exhausts its permanent) or false", f"{field}.exhaust")
    return parse_cost({k: v for k, v in data.items() if k != "exhaust"}, field), exhaust


def ability_cost_json(cost: Cost, exhaust: bool) -> Any:
    """An activated ability's cost as a scenario writes it."""
    if not exhaust:
        return cost_json(cost)
    return {**({"energy": cost.energy} if cost.energy else {}), **({"power": cost.power} if cost.power else {}),
            "exhaust": True}


def cost_json(cost: Cost) -> Any:
    """A cost as a scenario writes it (the short form when it is Energy alone)."""
    return cost.energy if not cost.power else {"energy": cost.energy, "power": cost.power}


def parse_additional(data: Any, field: str) -> tuple[str, ...]:
    """Additional costs in the card's words, read in any case (``Kill a friendly unit``)."""
    out = []
    for i, raw in enumerate(a_list(data, field)):
        phrase = " ".join(text(raw, f"{field}[{i}]").casefold().split())
        if phrase not in ADDITIONAL_COSTS:
            raise FormatError(f"unknown additional cost {raw!r} (the model knows: {', '.join(ADDITIONAL_COSTS)})",
                              f"{field}[{i}]")
        out.append(phrase)
    return tuple(out)
