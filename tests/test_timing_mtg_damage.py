"""Magic damage cites the rule for its recipient: damage dealt to a creature is marked on it
(120.3e; 119.3e in 2010), damage dealt to a player is lost as life (120.3a; 119.3a), combat
damage or not. Each cited number is checked against the rule's text in the edition's own
document (the embedded excerpt), so a renumbering cannot make it cite another rule."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from kb.graph import RuleGraph, build_edition
from kb.read import read_document
from kb.timing.models.mtg import EDITION_2010, EDITION_2026
from kb.timing.scenario import load, run

from conftest import REPO

SCENARIO = (REPO / "tests" / "scenarios" / "mtg" /
            "combat-damage-dealt-to-a-creature-is-marked-on-it-and-combat-damage-dealt-to-a-player-is-lost-as-life.yaml")
EXCERPTS = {EDITION_2010: "comprehensive-rules-2010-10-01-excerpt.txt",
            EDITION_2026: "comprehensive-rules-2026-01-16-excerpt.txt"}
PLAYERS = {"Ann", "Bo"}


@functools.lru_cache(maxsize=None)
def _graph(edition: str) -> RuleGraph:
    path: Path = REPO / "rules" / "mtg" / EXCERPTS[edition]
    result, fmt = read_document(path)
    return build_edition(result, ruleset="mtg", edition=edition, date=edition, source=str(path), source_format=fmt)


def _damage_notes(edition: str) -> list[tuple[str, str, tuple[str, ...]]]:
    sc = load(SCENARIO)
    sc.data = {**sc.data, "edition": edition}
    sc.edition = edition
    result = run(sc)
    assert result.error is None and all(e.ok for e in result.expectations), result.error
    return [(n.params["source"], n.params["to"], tuple(n.rules)) for f in result.frames for n in f.node.walk()
            if n.params.get("to") is not None and n.params.get("source") is not None and "amount" in n.params
            and n.name not in ("damage-prevented", "prevent")]


# (edition, the words of the rule for damage to a creature, and to a player)
WORDS = [(EDITION_2026, "Damage dealt to a creature by a source with neither wither nor infect",
          "Damage dealt to a player by a source without infect"),
         (EDITION_2010, "Damage dealt to a creature by a source with neither wither nor infect",
          "Damage dealt to a player by a source without infect")]


@pytest.mark.parametrize("edition,to_creature,to_player", WORDS)
def test_damage_cites_the_rule_for_its_recipient(edition: str, to_creature: str, to_player: str) -> None:
    rules = _graph(edition).edition.rules
    notes = _damage_notes(edition)
    assert {(source, to) for source, to, _ in notes} == {("Hill Giant", "Wall of Wood"), ("Wall of Wood", "Hill Giant"),
                                                         ("Grizzly Bears", "Bo"), ("Shock", "Wall of Wood")}
    for source, to, cited in notes:
        texts = [rules[n].text or "" for n in cited]
        wanted, other = (to_player, to_creature) if to in PLAYERS else (to_creature, to_player)
        assert any(t.startswith(wanted) for t in texts), (edition, source, to, cited)
        assert not any(t.startswith(other) for t in texts), (edition, source, to, cited)
