"""The pretests the plugin asks once of a document's source instead of once per text
(kb.cite.mdit._document_hints: another keyword than "rule(s)", a bare citation, a quotation
mark; and named_editions' naming words): only when every text is made of the source's own
characters (_texts_are_source), and then they change nothing. Each document is linked
twice, once with the document's hints and once with every text asked, and both give the
same HTML and the same report; a table says when the source may be asked."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from mdit_py_plugins.deflist import deflist_plugin

import kb.cite.mdit as mdit
from kb.cite import rule_citations
from kb.cite.find import may_cite_bare_in_source
from kb.query import KnowledgeBase

# Documents whose texts differ from their source (entities, escapes, line prefixes taken
# off by the block parser) or that hold each form a hint is about.
DOCUMENTS: list[str] = [
    "See rule 337.1 (rule 337.2) and [rule 337.3].\n",
    "A quote &quot;Units&quot; (rule 337.1).\n",
    "&#67;R 116.1 and rule 337.1, &#40;337.2).\n",
    "\\(337.1a\\) and rule 337.2, 337\\.1.\n",
    "> Blocked (see\n> 337.1a) and rule 337.2.\n",
    "- an item (see\n  337.1a) here, rule 337.2\n",
    "> See also\n> 337.1a. And rule 337.2.\n",
    "See also 337.1a and (337.2).\n",
    'As rule 337.1 says: "Units".\n',
    "RULE 337.1, section 3 and CR 116.1; rule 337.2.\n",
    "Riftbound rule 337.1 and Core Rules 337.2; rule 337.3.\n",
    "mtg rule 116.1 and Magic rule 116.2, rule 337.1.\n",
    "No citation at all here.\n",
    # "rule(s)" alone (mdit._keyword_runs): plain paragraphs, and others with markup
    "See rule 337.1 and Rule 337.2, rules 337.1–337.3.\n\nAnother rule 999 paragraph.\n",
    "A *rule 337.1* and [rule 337.2](/x) and rule 337.3.\nrule\n337.4 wraps.\n",
    "rule 337.1c3456, rule 10:30, Core Rules 1.4 and rule 337.1.\n\n# Rule 337.2\n",
]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


def _linked(kb: KnowledgeBase, text: str, **options: Any) -> tuple[str, dict[str, Any]]:
    md = MarkdownIt("commonmark", {"html": False}).use(rule_citations, kb=kb, **options)
    env: dict[str, Any] = {}
    html = md.render(text, env)
    report = env[mdit.ENV_KEY]
    return html, {**report, "resolutions": list(report["resolutions"])}


@pytest.mark.parametrize("pins", [{"ruleset": "riftbound", "edition": "1.4"}, {}], ids=["pinned", "unpinned"])
@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_documents_hints_change_nothing(kb: KnowledgeBase, text: str, pins: dict[str, str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    hinted = _linked(kb, text, **pins)
    monkeypatch.setattr(mdit, "_texts_are_source", lambda state: False)  # every text asked
    assert _linked(kb, text, **pins) == hinted


@pytest.mark.parametrize("limit", [0, 1, 2, 3, 10])
def test_a_documents_limit_is_spent_alike_either_way(kb: KnowledgeBase, limit: int,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    text = "Rule 337.1 and rule 337.2.\n\n*rule 337.3* and rule 337.4.\n\nrules 337.1 and 337.2, rule 999.\n"
    hinted = _linked(kb, text, ruleset="riftbound", edition="1.4", limit=limit)
    monkeypatch.setattr(mdit, "_texts_are_source", lambda state: False)
    assert _linked(kb, text, ruleset="riftbound", edition="1.4", limit=limit) == hinted


def _commonmark() -> MarkdownIt:
    return MarkdownIt("commonmark")


def _facade_like() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def _typographer() -> MarkdownIt:
    return MarkdownIt("commonmark", {"typographer": True}).enable(["replacements", "smartquotes"])


def _other_plugin() -> MarkdownIt:
    return MarkdownIt("commonmark").use(deflist_plugin)


# (source, parser, whether its texts are its own characters)
SOURCE_TEXT: list[tuple[str, Any, bool]] = [
    ("See rule 337.1.\n", _commonmark, True),
    ("| a |\n|---|\n| rule 337.1 |\n", _facade_like, True),
    ("A &quot;quote&quot; (rule 337.1).\n", _commonmark, False),
    ("\\(337.1a\\)\n", _commonmark, False),
    ('"Units" (rule 337.1)\n', _typographer, False),
    ("Term\n: rule 337.1\n", _other_plugin, False),
]


@pytest.mark.parametrize("source,parser,expected", SOURCE_TEXT, ids=[s for s, _, _ in SOURCE_TEXT])
def test_when_the_source_is_asked(kb: KnowledgeBase, source: str, parser: Any, expected: bool) -> None:
    md = parser().use(rule_citations, kb=kb)
    state = StateCore(source, md, {})
    assert mdit._texts_are_source(state) is expected


def test_the_kept_answer_follows_the_parsers_rules_when_they_change(kb: KnowledgeBase) -> None:
    """The answer is kept per parser and set of rules (_rules_keep_source_text): a rule
    added or disabled after a render is seen at the next."""
    md = MarkdownIt("commonmark").use(rule_citations, kb=kb)
    source = "Term\n: rule 337.1\n"
    assert mdit._texts_are_source(StateCore(source, md, {})) is True
    md.use(deflist_plugin)  # a rule of its own: its texts may be anything
    assert mdit._texts_are_source(StateCore(source, md, {})) is False
    md.disable("deflist")
    assert mdit._texts_are_source(StateCore(source, md, {})) is True


# (source, whether a bare citation may be in one of its texts)
BARE_IN_SOURCE: list[tuple[str, bool]] = [
    ("(337.1a)", True), ("( 337.1a)", True), ("(see 337.1a)", True), ("(See also 337.1a)", True),
    ("> (see\n> 337.1a)", True), ("- (see\n  337.1a)", True), ("See also\n> 337.1a", True),
    ("also 349.", True), ("(rule 337.1)", False), ("(see rule 337.1)", False), ("(2)", False),
    ("also 34 cards", False), ("", False),
]


@pytest.mark.parametrize("source,expected", BARE_IN_SOURCE, ids=[s for s, _ in BARE_IN_SOURCE])
def test_a_bare_citation_in_the_source(source: str, expected: bool) -> None:
    assert may_cite_bare_in_source(source) is expected
