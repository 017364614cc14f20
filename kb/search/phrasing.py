"""What rules say in players' words, and the vocabulary files of :mod:`kb.search.understand`.

``vocabulary/<ruleset>-rules.yaml`` says, for the editions it was written for, what a rule
says in players' words ("no one can respond to a unit or gear being played" for 337.2), each
entry with the reason it is true of that rule; the index carries it (``players``,
:func:`kb.search.schema.documents`) and the ranking reads it (:mod:`kb.search.searcher`).
It stands below both, so the index's documents need nothing from the question reader.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml


def read_vocabulary(name: str) -> dict[str, Any]:
    """The mapping in ``kb/search/vocabulary/<name>.yaml`` (empty when there is no such file)."""
    path = resources.files("kb.search") / "vocabulary" / f"{name}.yaml"
    if not path.is_file():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    if not isinstance(data, dict):
        raise ValueError(f"kb/search/vocabulary/{name}.yaml: expected a mapping")
    return data


@lru_cache(maxsize=16)
def rule_phrasings(ruleset: str, edition: str) -> dict[str, tuple[str, ...]]:
    """Rule number → what the rule says in players' words (``vocabulary/<ruleset>-rules.yaml``),
    for the editions the file was written for; nothing for any other edition, since rule
    numbers move between editions. Every entry must give its reason (``why``)."""
    if not re.fullmatch(r"[a-z0-9-]+", ruleset):
        return {}
    name = f"{ruleset}-rules"
    data = read_vocabulary(name)
    if str(edition) not in [str(e) for e in data.get("editions", [])]:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for i, raw in enumerate(data.get("rules", [])):
        if not isinstance(raw, dict) or not raw.get("rule") or not raw.get("says") or not raw.get("why"):
            raise ValueError(f"kb/search/vocabulary/{name}.yaml: entry {i + 1} needs rule, says and why")
        number = str(raw["rule"])
        out[number] = out.get(number, ()) + tuple(str(p) for p in raw["says"])
    return out
