"""The embedded excerpts hold every rule the search vocabulary states in players' words for
their edition (``kb/search/vocabulary/<ruleset>-rules.yaml``), so that a fresh clone's search
answers with those rules as a build of the full document does: rules/make_excerpts.py keeps
them for an excerpt listed with ``vocabulary = true`` in rules/excerpts.toml."""

from __future__ import annotations

import pytest

from kb.numbers import parse_number
from kb.query import KnowledgeBase
from kb.search.phrasing import rule_phrasings

# (ruleset, the excerpt's edition)
EXCERPTS = [
    ("riftbound", "1.4"),
]


@pytest.mark.parametrize("ruleset,edition", EXCERPTS, ids=[f"{r} {e}" for r, e in EXCERPTS])
def test_the_excerpt_holds_every_rule_the_vocabulary_states(excerpt_kb: KnowledgeBase, ruleset: str,
                                                            edition: str) -> None:
    rg = excerpt_kb.edition(ruleset, edition)
    stated = rule_phrasings(ruleset, edition)
    missing = [n for n in stated if rg.find(parse_number(n)) is None]
    assert stated and not missing, (f"{ruleset} {edition}'s excerpt lacks {missing}: run "
                                    f".venv/bin/python rules/make_excerpts.py")
