"""An author's own Markdown footnotes (acceptance run E, F-D: ``[^1]`` and ``[^1]: …`` were
printed literally, next to the linker's footnote 1): rendered by mdit_py_plugins' footnote
plugin, as markdown-it-py's users expect (ids ``fn1``/``fnref1``, a section of class
``footnotes``), while the linker's keep their own ids (``rule-fn-``), their own section
(``rule-footnotes``), after the author's. In the plugin, the facade, the API and the site's
/cite page. One line per case: what must be in the HTML (True) or not (False)."""

from __future__ import annotations

from typing import Any

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from kb.cite import rule_citations
from kb.query import KnowledgeBase
from web import create_app

ARTICLE = ("Priority passes (rule 337.1.a).[^1] Then see rule 340.2.[^note]\n\n"
           "[^1]: As rule 337.1 says.\n"
           "[^note]: A second note.\n")

# (what, present)
EXPECTED: list[tuple[str, bool]] = [
    ("[^1]", False),
    ("[^note]", False),
    ('<a href="#fn1" id="fnref1">[1]</a>', True),
    ('<a href="#fn2" id="fnref2">[2]</a>', True),
    ('<section class="footnotes">', True),
    ('<li id="fn1" class="footnote-item">', True),
    ('<section class="rule-footnotes">', True),
    ('id="rule-fn-1"', True),
    ('id="rule-fnref-1"', True),
    ('<li id="fn1" class="footnote-item"><p>As <a class="rule-citation"', True),  # linked inside
]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    return excerpt_kb


def _plugin(kb: KnowledgeBase) -> str:
    md = MarkdownIt("commonmark", {"html": False}).use(rule_citations, kb=kb, ruleset="riftbound",
                                                         edition="1.4")
    return md.render(ARTICLE, {})


def _plugin_after_footnotes(kb: KnowledgeBase) -> str:
    """A parser that has the footnote plugin already keeps it as it was (used once)."""
    md = MarkdownIt("commonmark", {"html": False}).use(footnote_plugin).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
    return md.render(ARTICLE, {})


def _facade(kb: KnowledgeBase) -> str:
    return str(kb.citations_annotate(ARTICLE, "riftbound", "1.4")["output"])


def _api(kb: KnowledgeBase) -> str:
    resp = create_app(kb=kb).test_client().post("/api/v1/citations/annotate", json={
        "markdown": ARTICLE, "ruleset": "riftbound", "edition": "1.4"})
    assert resp.status_code == 200, resp.get_json()
    data: Any = resp.get_json()
    return str(data["output"])


def _site(kb: KnowledgeBase) -> str:
    resp = create_app(kb=kb).test_client().post("/cite", data={
        "article": ARTICLE, "ruleset": "riftbound", "edition": "1.4", "style": "footnotes"})
    assert resp.status_code == 200
    page = resp.get_data(as_text=True)
    return page[page.index("</textarea>"):]  # the form echoes the article as written


FACES = {"plugin": _plugin, "plugin after footnotes": _plugin_after_footnotes, "facade": _facade,
         "api": _api, "site": _site}


@pytest.fixture(scope="module")
def rendered(kb: KnowledgeBase) -> dict[str, str]:
    return {name: face(kb) for name, face in FACES.items()}


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("what,present", EXPECTED)
def test_the_authors_footnotes_render_apart_from_the_linkers(rendered: dict[str, str], face: str,
                                                              what: str, present: bool) -> None:
    assert (what in rendered[face]) is present, rendered[face][:3000]


@pytest.mark.parametrize("face", ["plugin", "facade", "api"])
def test_the_linkers_section_comes_after_the_authors(rendered: dict[str, str], face: str) -> None:
    html = rendered[face]
    assert html.index('<section class="footnotes">') < html.index('<section class="rule-footnotes">')
    assert html.count('<section class="footnotes">') == 1


def test_the_footnote_plugin_is_used_once(kb: KnowledgeBase) -> None:
    md = MarkdownIt("commonmark").use(footnote_plugin).use(rule_citations, kb=kb)
    assert [r for r in md.block.ruler.get_all_rules() if r == "footnote_def"] == ["footnote_def"]
