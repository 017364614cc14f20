"""Timing models, one per ruleset, behind one typed interface
(:class:`kb.timing.models.base.RulesetModel`).

The engine (:mod:`kb.timing.engine`) knows no game; a ruleset's model supplies the
transitions and everything that reads or writes its states: the scenario set-up, states as
JSON, scenario actions as decisions, and what ``expect`` steps observe. A new game is one
more entry in :data:`_FACTORIES` (Riftbound and Magic today), each a package
(:mod:`kb.timing.models.riftbound`, :mod:`kb.timing.models.mtg`) built as
:mod:`kb.timing.models.base` describes.

A model cites the rules of one edition (``citation_edition``); a model that carries its
citations to other editions lists them in ``citations_by_edition`` (and, where the procedure
sits under other numbers there, ``coverage_by_edition``). Its states then say which edition's
rules they follow (``state_from_json(data, edition)``).
"""

from __future__ import annotations

from collections.abc import Callable

from kb.timing.engine import FormatError
from kb.timing.models.base import RulesetModel


def _riftbound() -> RulesetModel:
    from kb.timing.models.riftbound import RiftboundRules
    return RiftboundRules()


def _mtg() -> RulesetModel:
    from kb.timing.models.mtg import MagicRules
    return MagicRules()


__all__ = ["RulesetModel", "get_model", "rulesets"]

_FACTORIES: dict[str, Callable[[], RulesetModel]] = {"riftbound": _riftbound, "mtg": _mtg}
_LOADED: dict[str, RulesetModel] = {}


def rulesets() -> list[str]:
    """Rulesets that have a timing model."""
    return sorted(_FACTORIES)


def get_model(ruleset: str) -> RulesetModel:
    """The timing model of a ruleset; FormatError names the ones that exist."""
    if ruleset not in _FACTORIES:
        raise FormatError(f"no timing model for ruleset {ruleset!r} (models: {', '.join(rulesets())})",
                          "ruleset")
    if ruleset not in _LOADED:
        _LOADED[ruleset] = _FACTORIES[ruleset]()
    return _LOADED[ruleset]
