"""The timing citations a build stores for an edition two or more steps from the cited one are
what carrying them over the graphs gives (:func:`kb.timing.api._carried`, whose far mappings
are bridged, :func:`kb.editions.mapping.bridge`): compared by target, whatever a counterpart's
method says. The case the chain of neighbours alone gets wrong: an excerpt between two
editions that both hold a cited rule at one number with one wording lacks it, so the chain
loses it while the two ends keep it."""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.store import build, import_document

REPO = Path(__file__).resolve().parent.parent
RIFTBOUND_1_4 = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"


@pytest.fixture(scope="module")
def gapped_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The embedded corpus (Riftbound 1.3 and 1.4 excerpts) and an older 1.2 with 1.4's text:
    1.4's rules that 1.3 lacks are carried to 1.2 past a gap."""
    home = tmp_path_factory.mktemp("gapped") / "home"
    import_document(home, RIFTBOUND_1_4, ruleset="riftbound", edition="1.2", date="2025-10-01", partial=True)
    build(home)
    return home


def test_a_rule_the_edition_between_lacks_is_carried_as_the_graphs_carry_it(gapped_home: Path) -> None:
    from kb.query import KnowledgeBase
    from kb.timing.api import _carried, _stored_carried
    kb = KnowledgeBase.open(gapped_home)
    stored = _stored_carried(kb, "riftbound", "1.2")
    graphs = _carried(kb, "riftbound", "1.2")
    assert stored is not None
    lost = {g["rule"] for g in _carried(kb, "riftbound", "1.3")[1]}
    assert lost, "1.3 lacks some rule 1.4 cites (else this case tests nothing)"
    assert not graphs[1], "1.2 has every rule 1.4 cites, at the same numbers"
    assert stored[0] == graphs[0] and stored[1] == graphs[1]
