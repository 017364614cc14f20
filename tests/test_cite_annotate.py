"""Rendering citations: the markdown-it-py plugin against fixture files (markdown-it's
triple-dot format: title, input, expected HTML), Markdown output, plain-text annotation."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.utils import read_fixture_file

from kb.cite import annotate, find_citations, resolve_citations, rule_citations
from kb.cite.annotate import _MAX_NUMBERED, _MAX_PREFIXES, _NUMBERED, Footnotes, numbered, rule_url
from kb.cite.resolve import CitedRule
from kb.query import KnowledgeBase

FIXTURES = Path(__file__).parent / "fixtures" / "cite"
# fixture file → (plugin options, raw HTML allowed)
FILES = {
    "annotate-footnotes.md": ({"style": "footnotes"}, False),
    "annotate-preview.md": ({"style": "preview"}, False),
    "annotate-html-allowed.md": ({"style": "footnotes"}, True),
}
CASES = [(name, line, title, src, expected)
         for name in FILES for line, title, src, expected in read_fixture_file(FIXTURES / name)]


@pytest.mark.parametrize("name,line,title,src,expected", CASES,
                         ids=[f"{n}:{line}:{t}" for n, line, t, _, _ in CASES])
def test_fixtures(excerpt_kb: KnowledgeBase, name: str, line: int, title: str, src: str,
                  expected: str) -> None:
    options, allow_html = FILES[name]
    md = MarkdownIt("commonmark", {"html": allow_html}).use(
        rule_citations, kb=excerpt_kb, ruleset="riftbound", edition="1.4", **options)
    assert md.render(src) == expected


def test_the_report_is_left_in_env(excerpt_kb: KnowledgeBase) -> None:
    md = MarkdownIt().use(rule_citations, kb=excerpt_kb)
    env: dict = {}
    md.render("Intro.\n\nSee rule 999 and\nrule 337.1a.\n", env)
    report = env["rule_citations"]
    assert [(c["text"], c["status"], c["line"], c["column"]) for c in report["citations"]] == [
        ("rule 999", "not_found", 3, 5), ("rule 337.1a", "ok", 4, 1)]
    assert [f["number"] for f in report["footnotes"]] == ["337.1.a"]


# (Markdown, each citation's (text, line, column, start in the source))
PLACES: list[tuple[str, list[tuple[str, int, int, int]]]] = [
    ("rule 312 and [a link](/x) and rule 312 again", [("rule 312", 1, 1, 0), ("rule 312", 1, 31, 30)]),
    ("rule 312 [see](/x) rule 312, [a](/y) rule 312", [("rule 312", 1, 1, 0), ("rule 312", 1, 20, 19),
                                                      ("rule 312", 1, 38, 37)]),
    ("> rule 312 and *rule\n> 312* and rule 312", [("rule 312", 1, 3, 2), ("rule\n312", 1, 17, 16),
                                                   ("rule 312", 2, 12, 32)]),
    ("Intro.\n\n- rule 312\n- rule 312", [("rule 312", 3, 3, 10), ("rule 312", 4, 3, 21)]),
    # a label, a code span or an autolink that reads like the next citation is not its place
    ("rule 312, [rule 312](/x), rule 312", [("rule 312", 1, 1, 0), ("rule 312", 1, 27, 26)]),
    ("rule 312, `rule 312`, rule 312", [("rule 312", 1, 1, 0), ("rule 312", 1, 23, 22)]),
    ("rule 312, ![rule 312](i.png \"rule 312\") rule 312", [("rule 312", 1, 1, 0), ("rule 312", 1, 41, 40)]),
    ("rule 312, [rule 312][ref], rule 312\n\n[ref]: /x", [("rule 312", 1, 1, 0), ("rule 312", 1, 28, 27)]),
    # lines as the block parser counts them: after front matter, CRLF line ends, a last line
    # of spaces without a line end, nested blocks
    ("---\ntitle: x\n---\nrule 312\n", [("rule 312", 4, 1, 17)]),
    ("rule 312\r\nsee rule 312  \r\n  ", [("rule 312", 1, 1, 0), ("rule 312", 2, 5, 13)]),
    ("Intro.\n\n    code rule 312\n\n- a\n\n  rule 312 and rule 312\n  \t ",
     [("rule 312", 7, 3, 34), ("rule 312", 7, 16, 47)]),
    ("> rule 312\n>\n> > rule 312", [("rule 312", 1, 3, 2), ("rule 312", 3, 5, 17)]),
]


@pytest.mark.parametrize("src,expected", PLACES)
def test_each_citation_of_a_paragraph_is_placed_after_the_one_before(
        excerpt_kb: KnowledgeBase, src: str, expected: list[tuple[str, int, int, int]]) -> None:
    env: dict = {}
    MarkdownIt().use(rule_citations, kb=excerpt_kb).render(src, env)
    assert [(c["text"], c["line"], c["column"], c["start"])
            for c in env["rule_citations"]["citations"]] == expected


def test_the_line_starts_the_linker_borrows_from_the_block_parser_do_not_stay_in_env(
        excerpt_kb: KnowledgeBase) -> None:
    md = MarkdownIt().use(rule_citations, kb=excerpt_kb)
    env: dict = {"rule_citations_line_starts": [0, 3, 7]}  # left by a render that failed halfway
    md.render("Intro.\n\nrule 312\n", env)
    assert sorted(env) == ["rule_citations"]
    assert [(c["line"], c["column"]) for c in env["rule_citations"]["citations"]] == [(3, 1)]
    env = {"rule_citations_line_starts": [0, 3, 7]}
    md.render("", env)  # nothing parsed: nothing borrowed, and the stale list is dropped
    assert sorted(env) == ["rule_citations"]


def test_the_base_url_prefixes_every_link(excerpt_kb: KnowledgeBase) -> None:
    html = MarkdownIt().use(rule_citations, kb=excerpt_kb, base_url="https://rules.example.org/").render(
        "rule 312")
    assert 'href="https://rules.example.org/riftbound/1.4/312"' in html
    assert 'class="rule-open" href="https://rules.example.org/riftbound/1.4/312"' in html


def test_an_unknown_style_is_refused(excerpt_kb: KnowledgeBase) -> None:
    with pytest.raises(ValueError, match="unknown style"):
        MarkdownIt().use(rule_citations, kb=excerpt_kb, style="sidenotes")


def test_markdown_output_links_in_place(excerpt_kb: KnowledgeBase) -> None:
    src = "---\nruleset: riftbound\n---\n> As rule\n> 337.4 says, and `rule 312`, and rule 999.\n"
    out = excerpt_kb.citations_annotate(src, fmt="markdown")["output"]
    assert out == (
        "---\nruleset: riftbound\n---\n> As [rule\n> 337.4](</riftbound/1.4/337.4>)[^rule-fn-1] says, "
        "and `rule 312`, and rule 999.\n\n"
        "[^rule-fn-1]: Rule 337.4. If, after finalizing the Chain Item, there are no more items on "
        "the chain to be Finalized, the controller of the next item on the chain gains Priority. "
        "Move to step 2: Execute. [Open in the rules browser](/riftbound/1.4/337.4)\n")


@pytest.mark.parametrize("text", ["a *b* _c_ [d](e) <script>x</script> `f` # g", "1. h & i!"])
def test_rule_text_in_markdown_output_reads_literally(text: str) -> None:
    from html import unescape

    from kb.cite.annotate import md_escape
    html = MarkdownIt("commonmark", {"html": True}).renderInline(md_escape(text))
    assert unescape(html) == text


def test_plain_text_annotation_escapes_everything_but_the_links(excerpt_kb: KnowledgeBase) -> None:
    text = "<i>x</i> rule 312 & rule 999"
    rg = excerpt_kb.edition("riftbound", "1.4")
    html = annotate(text, resolve_citations(find_citations(text), rg))
    assert html.startswith(
        '&lt;i&gt;x&lt;/i&gt; <a class="rule-citation" href="/riftbound/1.4/312" data-rule="312"')
    assert '&amp; <span class="rule-citation rule-citation-broken"' in html
    assert '<li id="rule-fn-1"' in html and "rule-fn-2" not in html


def test_json_format_returns_the_report_only(excerpt_kb: KnowledgeBase) -> None:
    data = excerpt_kb.citations_annotate("rule 312", fmt="json")
    assert data["output"] is None
    assert data["summary"]["ok"] == 1 and data["citations"][0]["url"] == "/riftbound/1.4/312"


def test_breaks_option_turns_line_ends_into_br_outside_attributes(excerpt_kb: KnowledgeBase) -> None:
    md = MarkdownIt("commonmark", {"breaks": True}).use(rule_citations, kb=excerpt_kb, style="preview")
    html = md.render("see rules\n339.1–2 now\nthen")
    assert html.count("<br />") == 2
    assert 'title="Rule 339.1. If all players' in html and "Resolve.\nRule 339.2." in html
    assert ">rules<br />\n339.1–2</a> now<br />\nthen</p>" in html


# (references made to rules "a", "b", "a", "a": each one's footnote number and HTML id)
REFERENCES = [("a", 1, "rule-fnref-1"), ("b", 2, "rule-fnref-2"), ("a", 1, "rule-fnref-1-2"),
              ("a", 1, "rule-fnref-1-3")]


def test_each_reference_to_a_footnote_has_its_own_id_and_backlink() -> None:
    notes = Footnotes()
    rules = {n: CitedRule("riftbound", "1.4", n, "rule", "", f"Text of {n}.") for n in "ab"}
    for number, index, ref_id in REFERENCES:
        note, html = notes.ref(rules[number])
        assert note.index == index
        assert html == (f'<sup class="rule-footnote-ref"><a href="#rule-fn-{index}" id="{ref_id}">'
                        f'{index}</a></sup>')
        assert html == notes.ref_html(note, note.refs) and ref_id == notes.ref_id(note, note.refs)
    assert notes.html().count('class="rule-footnote-backref"') == len(REFERENCES)
    assert 'href="#rule-fnref-1-3"' in notes.html()


def test_a_first_reference_by_first_ref_numbers_and_counts_as_ref_does() -> None:
    """first_ref (the linker's, once per rule object) and ref, mixed, as ref alone; a second
    object of a rule already referenced shares its footnote."""
    by_ref, mixed = Footnotes(), Footnotes()
    rules = {n: CitedRule("riftbound", "1.4", n, "rule", "", f"Text of {n}.") for n in "ab"}
    twin = CitedRule("riftbound", "1.4", "a", "rule", "", "Text of a.")
    seen: set[int] = set()
    for number, _, _ in [*REFERENCES, ("twin", 1, "")]:
        rule = twin if number == "twin" else rules[number]
        note, html = by_ref.ref(rule)
        if id(rule) in seen:
            got, got_html = mixed.ref(rule)
        else:
            seen.add(id(rule))
            got = mixed.first_ref(rule)
            got_html = got.numbered.first_ref if got.refs == 1 else mixed.ref_html(got, got.refs)
        assert (got.index, got.refs, got_html) == (note.index, note.refs, html)
    assert mixed.html() == by_ref.html()


# (prefix, the numbers asked for in this order): each is its number's HTML however asked
NUMBERED: list[tuple[str, list[int]]] = [
    ("rule-fn", [1, 2, 3]), ("n", [5, 1, 5]), ("x-y", [0, 4096, 4097, 3]), ("p", [7000, 2]),
]


@pytest.mark.parametrize("prefix,asked", NUMBERED, ids=[p for p, _ in NUMBERED])
def test_a_footnotes_number_html_is_the_same_however_it_is_asked_for(prefix: str, asked: list[int]) -> None:
    for index in asked:
        made = numbered(prefix, index)
        head = f'<sup class="rule-footnote-ref"><a href="#{prefix}-{index}" id="{prefix}ref-{index}'
        assert (made.ref_head, made.ref_tail) == (head, f'">{index}</a></sup>')
        assert made.first_ref == made.ref_head + made.ref_tail and made.after_link == "</a>" + made.first_ref
        assert made.item == f'<li id="{prefix}-{index}"'
        assert made.one_back.startswith(f'<a href="#{prefix}ref-{index}" class="rule-footnote-backref"')
        assert made.back_head == f'<a href="#{prefix}ref-{index}'


def test_renders_asking_for_new_numbers_at_once_each_get_their_own() -> None:
    """The threaded server renders articles at once: numbers first asked for by several
    threads (a prefix's list filled by each) still read their own HTML."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # a thread switch at almost every bytecode
    wrong: list[tuple[str, int]] = []
    try:
        for trial in range(30):
            prefix = f"at-once-{trial}"

            def ask(prefix: str = prefix) -> None:
                for index in range(1, 60):
                    if numbered(prefix, index).item != f'<li id="{prefix}-{index}"':
                        wrong.append((prefix, index))

            threads = [threading.Thread(target=ask) for _ in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not wrong


def test_the_numbers_html_is_kept_for_a_bounded_number_of_prefixes() -> None:
    for i in range(_MAX_PREFIXES + 5):
        numbered(f"prefix-{i}", 2)
    assert len(_NUMBERED) <= _MAX_PREFIXES and all(len(t) <= _MAX_NUMBERED for t in _NUMBERED.values())


def test_markdown_output_never_links_inside_a_link_label(excerpt_kb: KnowledgeBase) -> None:
    """The third citation reads like the link's label: it is linked where it stands."""
    out = excerpt_kb.citations_annotate("rule 312, [rule 312](/x), rule 312\n", "riftbound", "1.4",
                                        fmt="markdown")["output"]
    body = out.split("\n\n", 1)[0]
    assert body.startswith("[rule 312](</riftbound/1.4/312>)")
    assert ", [rule 312](/x), [rule 312](</riftbound/1.4/312>)" in body


# (ruleset, edition, number, base_url, the rules browser's URL): names quote leaves alone
# are joined as they are, others are quoted part by part.
RULE_URLS = [
    ("riftbound", "1.4", "337.1.a", "", "/riftbound/1.4/337.1.a"),
    ("mtg", "2024-11-08", "100.1", "https://rules.example/", "https://rules.example/mtg/2024-11-08/100.1"),
    ("a~b", "x_y", "1", "/site", "/site/a~b/x_y/1"),
    ("r b", "é", "1/2", "", "/r%20b/%C3%A9/1%2F2"),
    ("game", "1.4", "<x>", "", "/game/1.4/%3Cx%3E"),
]


@pytest.mark.parametrize("ruleset,edition,number,base_url,url", RULE_URLS)
def test_a_rules_url_quotes_only_what_needs_it(ruleset: str, edition: str, number: str,
                                                base_url: str, url: str) -> None:
    assert rule_url(ruleset, edition, number, base_url) == url
