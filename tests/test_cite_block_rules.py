"""The block rules the citation plugin adds leave the parse as it was: the front matter
rule of ``mdit_py_plugins``, taken out of the chains that may end a block (it can only
match at the document's first line), reads every document as before."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from kb.cite import rule_citations
from kb.cite.mdit import _LINE_STARTS_KEY, _front_matter_at_the_start_only
from kb.query import KnowledgeBase

DOCUMENTS = [
    "---\nruleset: riftbound\nedition: '1.4'\n---\nSee rule 337.1.\n",
    "A paragraph wrapped\nover lines, rule 337.1\nand rule 338.1.\n",
    "A paragraph\n---\nmade a heading by the line under it.\n",
    "- an item\n---\n- another\n",
    "> quoted\n---\n> again\n",
    "[ref]: /url\n---\ntext\n",
    "text\n\n---\nnot: front matter\n---\n",
    "---\nunclosed front matter\nrule 337.1\n",
    "   ---\nindented\n---\n",
    "",
]


def _tokens(md: MarkdownIt, text: str) -> list[tuple[str, str, list[int] | None]]:
    return [(t.type, t.content, t.map) for t in md.parse(text)]


@pytest.mark.parametrize("text", DOCUMENTS)
def test_front_matter_tried_at_block_starts_only_parses_the_same(text: str) -> None:
    before = MarkdownIt("commonmark").use(front_matter_plugin)
    after = MarkdownIt("commonmark").use(front_matter_plugin)
    _front_matter_at_the_start_only(after)
    assert _tokens(after, text) == _tokens(before, text)
    assert after.render(text) == before.render(text)


def test_the_front_matter_rule_ends_no_block_but_is_still_tried_first() -> None:
    before = MarkdownIt("commonmark").use(front_matter_plugin)
    md = MarkdownIt("commonmark").use(rule_citations, kb=KnowledgeBase.from_graphs([]))
    for chain in ("paragraph", "list", "blockquote", "reference"):
        assert "front_matter" in [r.name for r in before.block.ruler.__rules__ if chain in r.alt]
        assert "front_matter" not in [r.name for r in md.block.ruler.__rules__ if chain in r.alt]
    # One rule at every block start, which keeps the block parser's line starts too.
    assert md.block.ruler.get_all_rules()[0] == "front_matter"
    assert "rule_citations_lines" not in md.block.ruler.get_all_rules()


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_first_rule_keeps_the_block_parsers_line_starts(text: str) -> None:
    """The line starts the linker places citations by (the block parser's, for the core rule)
    are kept by the first rule tried at the document's start, with or without front matter
    of the parser's own."""
    for md in (MarkdownIt("commonmark").use(rule_citations, kb=KnowledgeBase.from_graphs([])),
               MarkdownIt("commonmark").use(front_matter_plugin).use(rule_citations,
                                                                     kb=KnowledgeBase.from_graphs([]))):
        env: dict[str, object] = {}
        md.block.parse(text, md, env, [])
        if text and not text.startswith("\n"):
            starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
            assert env[_LINE_STARTS_KEY][:len(starts)] == starts


def test_a_parser_that_had_front_matter_already_keeps_its_rule_as_it_was() -> None:
    md = MarkdownIt("commonmark").use(front_matter_plugin)
    md.use(rule_citations, kb=KnowledgeBase.from_graphs([]))
    assert "front_matter" in [r.name for r in md.block.ruler.__rules__ if "paragraph" in r.alt]
