"""The executable timing models: "what happens next, and why".

- :mod:`kb.timing.engine`: states, transitions, traces, ``advance``/``decision``/``explore``
  (game-agnostic).
- :mod:`kb.timing.models`: one model per ruleset (Riftbound, and Magic in its 2010 and 2026 editions).
- :mod:`kb.timing.scenario`: the YAML scenario format and its runner.
- :mod:`kb.timing.explain`: explanations rendered from traces, quoting the rules.
- :mod:`kb.timing.check`: citations checked against an edition, and coverage.
- :mod:`kb.timing.api`: what :class:`kb.query.KnowledgeBase` answers, as plain dicts.

Worked scenarios (the lessons' examples) ship with the package; the site lists them with
:func:`list_scenarios` and loads one with :func:`load_scenario`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_files(ruleset: str | None = None) -> list[Path]:
    """The packaged worked scenarios, sorted by file name."""
    folders = [SCENARIOS / ruleset] if ruleset else sorted(p for p in SCENARIOS.iterdir() if p.is_dir())
    return sorted(f for d in folders if d.is_dir() for f in d.glob("*.yaml"))


def list_scenarios(ruleset: str | None = None) -> list[dict[str, Any]]:
    """Worked scenarios: ``name`` (the id to load), ``title`` (its sentence), ``ruleset``,
    ``steps`` (how many)."""
    out = []
    for f in scenario_files(ruleset):
        data = yaml.safe_load(f.read_text(encoding="utf-8"))
        out.append({"name": f.stem, "ruleset": f.parent.name, "title": data.get("name", f.stem),
                    "description": data.get("description", ""), "steps": len(data.get("steps") or [])})
    return out


def load_scenario(name: str, ruleset: str | None = None) -> dict[str, Any]:
    """A packaged scenario by name (``RULESET/NAME``, e.g. ``mtg/NAME``, or ``NAME``), as the parsed YAML.

    Raises KeyError naming the available scenarios when there is no such scenario.
    """
    if "/" in name:
        ruleset, name = name.split("/", 1)
    for f in scenario_files(ruleset):
        if f.stem == name:
            return yaml.safe_load(f.read_text(encoding="utf-8"))
    # The names are the file names: a miss reads no file (each one's YAML took 0.5 s in all).
    raise KeyError(f"no worked scenario {name[:200]!r}; available: "
                   + ", ".join(f.stem for f in scenario_files(ruleset)))


__all__ = ["list_scenarios", "load_scenario", "scenario_files", "SCENARIOS"]
