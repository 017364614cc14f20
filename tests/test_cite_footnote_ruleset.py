"""A footnote of a rule of another ruleset or edition than the article's names the rule's
(issue #20 leftover 3: a Magic rule's footnote in a Riftbound-pinned article read "Rule
116.1." as if it were Riftbound's); the article's own rules' footnotes read as before. In
the HTML footnote section and in the Markdown footnote definitions alike. Each row: the
article, and each footnote's heading in order."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kb.query import KnowledgeBase

PINNED = '---\nruleset: riftbound\nedition: "1.4"\n---\n'
ARTICLES: list[tuple[str, dict[str, Any], list[str]]] = [
    (PINNED + "Priority (rule 312) and CR 116.1.\n", {},
     ["Rule 312.", "Rule 116.1 of mtg 2026-01-16."]),
    ("Priority (rule 312) and Magic rule 116.1.\n", {"ruleset": "riftbound", "edition": "1.4"},
     ["Rule 312.", "Rule 116.1 of mtg 2026-01-16."]),
    ("CR 116.1 and CR 116.2.\n", {"ruleset": "mtg"}, ["Rule 116.1.", "Rule 116.2."]),
    (PINNED + "Priority (rule 312), then rule 340.1.\n", {}, ["Rule 312.", "Rule 340.1."]),
    # no edition linked against (unpinned, read where each citation exists): none named
    ("CR 116.1 and Riftbound rule 312.\n", {}, ["Rule 116.1.", "Rule 312."]),
]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


@pytest.mark.parametrize("text,pins,headings", ARTICLES, ids=[t for t, _, _ in ARTICLES])
def test_a_footnote_names_another_rulesets_rule(kb: KnowledgeBase, text: str, pins: dict[str, Any],
                                                headings: list[str]) -> None:
    ruleset, edition = pins.get("ruleset"), pins.get("edition")
    html = kb.citations_annotate(text, ruleset, edition)
    if html["ruleset"] is None:  # the tie case: no single edition
        assert headings == [re.sub(r" of \S+ \S+\.$", ".", h) for h in headings]
    assert re.findall(r'rule-footnote-number">([^<]*)<', str(html["output"])) == headings
    markdown = kb.citations_annotate(text, ruleset, edition, "footnotes", "markdown")
    defined = re.findall(r"^\[\^rule-fn-\d+\]: (Rule \S+(?: of \S+ \S+)?\.) ", str(markdown["output"]), re.M)
    assert defined == headings
