"""Which worked timing scenarios a static copy of the rules browser holds.

A pack holds the worked scenarios of the rulesets it exports, frame by frame, and no others:
a Riftbound pack carries no Magic frame (whose rules it lacks, so its frames could link to
none), and rendering the frames of every packaged scenario whatever the pack holds cost each
export seconds (about 7.5 s of CPU for a pack of one small edition). The export renders the
frames of :func:`exported_scenarios`, and the pack's explorer lists the same scenarios, so
every scenario it links to is written.
"""

from __future__ import annotations

from typing import Any

from kb.loaded import LoadedEditions
from kb.timing.examples import worked_scenarios


def exported_scenarios(editions: LoadedEditions) -> list[dict[str, Any]]:
    """The worked scenarios (:func:`kb.timing.examples.worked_scenarios`, in their order) of
    the rulesets ``editions`` holds: what a pack of those editions shows."""
    held = set(editions.ruleset_names())
    return [s for s in worked_scenarios(editions) if s["ruleset"] in held]

