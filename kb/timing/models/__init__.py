"""Timing models, one per ruleset, behind one typed interface
(:class:`kb.timing.models.base.RulesetModel`).

The engine (:mod:`kb.timing.engine`) knows no game; a ruleset's model supplies the
transitions and everything that reads or writes its states: the scenario set-up, states as
JSON, scenario actions as decisions, and what ``expect`` steps observe. A new game is one
more entry in :data:`_FACTORIES` (Riftbound and Magic today); Riftbound is a package
(:mod:`kb.timing.models.riftbound`) built as :mod:`kb.timing.models.base` describes.

A model cites the rules of one edition (``citation_edition``); a model that carries its
citations to other editions lists them in ``citations_by_edition`` (and, where the procedure
sits under other numbers there, ``coverage_by_edition``). Its states then say which edition's
rules they follow (``state_from_json(data, edition)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kb.timing.engine import FormatError, Option, TraceNode
from kb.timing.models.base import RulesetModel


def _riftbound() -> RulesetModel:
    from kb.timing.models.riftbound import RiftboundRules
    return RiftboundRules()


def _mtg() -> RulesetModel:
    from kb.timing.models import mtg
    from kb.timing.models import mtg_io as io

    class MagicRules(RulesetModel):  # type: ignore[type-arg]
        """Magic's model behind the typed interface (until it is a package of its own)."""

        ruleset = "mtg"
        title = "Magic: The Gathering Comprehensive Rules"
        citation_edition = mtg.CITATION_EDITION
        citations = mtg.CITATIONS
        coverage = (("117", "117"),)
        expect_keys = io.EXPECT_KEYS
        actions = io.ACTIONS
        state_checks = mtg.STATE_CHECKS
        citations_by_edition = {e: t for e, t in mtg.CITATIONS_BY_EDITION.items() if e != mtg.CITATION_EDITION}
        coverage_by_edition = {mtg.EDITION_2010: (("116", "116"),)}
        state_line = staticmethod(io.state_line)

        def make(self) -> Any:
            return mtg.Magic()

        def setup(self, data: Mapping[str, Any]) -> Any:
            return io.setup(data)

        def state_json(self, model: Any, state: Any) -> dict[str, Any]:
            return io.state_json(model, state)

        def state_from_json(self, data: Any, edition: str | None = None) -> Any:
            return io.state_from_json(data, edition)

        def action(self, kind: str, payload: Any, state: Any) -> list[tuple[str, dict[str, Any]]]:
            return io.action(kind, payload, state)

        def check_references(self, model: Any, state: Any, kind: str, params: Mapping[str, Any]) -> None:
            io.check_references(model, state, kind, params)

        def option_action(self, option: Option) -> dict[str, Any]:
            return io.option_action(option)

        def observe(self, model: Any, state: Any, key: str) -> Any:
            return io.observe(model, state, key)

        def resolved(self, node: TraceNode) -> list[str]:
            # Finished resolving: an instant, sorcery or ability left the stack, or a permanent entered.
            return [n.params["spell"] if n.name == "permanent-enters" else n.params["item"] for n in node.walk()
                    if n.name == "permanent-enters" or (n.name == "finish-resolution" and n.params.get("resolved"))]

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
