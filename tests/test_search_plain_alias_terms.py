"""A glossary entry that is one ordinary English word sending the reader elsewhere (Magic's
"If: See Intervening 'If' Clause", "Deal: See Damage") is no term of its target's defining
rule in the index (kb.search.schema.defined_terms): 603.4 is indexed with Intervening "If"
Clause, not with every "if" of a question. The searcher still reads "what does if mean" as
the entry it points to. Needs the real Magic 2026 document. One case per line."""

from __future__ import annotations

import pytest

from kb.search.schema import defined_terms

from tests.conftest import corpus_graph

# (rule, a term name it is indexed with, or None, a plain alias's name it is not indexed with)
INDEXED = [
    ("603.4", "Intervening “If” Clause", "If"),
    ("120", "Damage", "Deal"),
    ("613.8", "Dependency", "Independent"),
]


@pytest.fixture(scope="module")
def magic_terms() -> dict[str, list[str]]:
    return defined_terms(corpus_graph("mtg", "2026-01-16"))


@pytest.mark.parametrize("rule, indexed, alias", INDEXED)
def test_a_plain_alias_is_no_term_of_its_targets_rule(magic_terms: dict[str, list[str]], rule: str,
                                                      indexed: str | None, alias: str) -> None:
    names = magic_terms.get(rule, [])
    assert alias not in names
    if indexed is not None:
        assert indexed in names
