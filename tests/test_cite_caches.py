"""What the citation linker keeps between articles (per loaded edition, per knowledge
base, per document) never leaks from one edition, article or caller to another."""

from __future__ import annotations

import importlib
import json

import pytest
from markdown_it import MarkdownIt

from kb.cite import find_citations, resolve_citations, rule_citations
from kb.cite.link import _parser
from kb.cite.mdit import OPTIONS_KEY
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase


def edition(name: str, text_312: str, ruleset: str = "game") -> RuleGraph:
    raw = [RawRule(parse_number("312"), "section", "", 1, title="Priority"),
           RawRule(parse_number("312.1"), "rule", text_312, 2),
           RawRule(parse_number("312.2"), "rule", "Pass it on.", 3)]
    return build_edition(ReadResult(raw, number_style="dotted"), ruleset=ruleset, edition=name,  # type: ignore[arg-type]
                         date=f"2026-0{name}-01")


def footnote_texts(html: str) -> list[str]:
    return [part.split("</span>")[0] for part in html.split('class="rule-footnote-text">')[1:]]


def test_the_same_parser_renders_each_edition_with_its_own_text() -> None:
    kb = KnowledgeBase.from_graphs([edition("1", "Old wording."), edition("2", "New wording.")])
    md = MarkdownIt().use(rule_citations, kb=kb, ruleset="game")
    for _ in range(2):  # the second round is served from what the first one kept
        for name, text in [("1", "Old wording."), ("2", "New wording."), ("1", "Old wording.")]:
            html = md.render("See rule 312.1.", {OPTIONS_KEY: {"edition": name}})
            assert footnote_texts(html) == [text]
            assert f'href="/game/{name}/312.1"' in html


def test_two_loads_of_an_edition_of_the_same_name_share_nothing() -> None:
    """Kept per loaded edition (the graph object), not per (ruleset, edition) name."""
    first = KnowledgeBase.from_graphs([edition("1", "As built on Monday.")])
    second = KnowledgeBase.from_graphs([edition("1", "As built on Tuesday.")])
    for kb, text in [(first, "As built on Monday."), (second, "As built on Tuesday."),
                     (first, "As built on Monday.")]:
        result = kb.citations_annotate("rule 312.1", "game", "1")
        assert footnote_texts(result["output"]) == [text]
        assert result["footnotes"][0]["text"] == text


def test_a_caller_changing_its_resolutions_does_not_change_the_next_answer() -> None:
    rg = edition("1", "Text.")
    first = resolve_citations(find_citations("rule 312.1 and rule 312.1"), rg)
    for res in first:
        res.status = "not_found"  # type: ignore[assignment]
        res.rules.clear()
    again = resolve_citations(find_citations("rule 312.1"), rg)
    assert [(r.status, [x.number for x in r.rules]) for r in again] == [("ok", ["312.1"])]


def test_report_entries_share_nothing_a_caller_can_change() -> None:
    """An entry's sequences are tuples (JSON arrays all the same), which its places and
    other articles share since nobody can change them; what can be changed (an ambiguous
    citation's candidates, each place's resolution) is each place's own."""
    kb = KnowledgeBase.from_graphs([edition("1", "Text.")])
    env: dict = {}
    MarkdownIt().use(rule_citations, kb=kb).render("rule 312.1, rule 312.1, rule 312.9, rule 312.9", env)
    entries = env["rule_citations"]["citations"]
    assert [(e["numbers"], e["footnotes"], e.get("nearest")) for e in entries] == [
        (("312.1",), (1,), None), (("312.1",), (1,), None), ((), (), ("312.2", "312.1", "312")),
        ((), (), ("312.2", "312.1", "312"))]
    assert json.loads(json.dumps(entries[0]))["numbers"] == ["312.1"]
    placed = env["rule_citations"]["resolutions"]
    placed[0][2].rules.clear()
    placed[2][2].nearest.append("x")
    assert [r.number for r in placed[1][2].rules] == ["312.1"] and "x" not in placed[3][2].nearest
    again: dict = {}
    MarkdownIt().use(rule_citations, kb=kb).render("rule 312.1", again)
    assert again["rule_citations"]["citations"][0]["numbers"] == ("312.1",)
    assert [r.number for r in again["rule_citations"]["resolutions"][0][2].rules] == ["312.1"]


def test_each_place_of_an_ambiguous_citation_has_its_own_candidates() -> None:
    kb = KnowledgeBase.from_graphs([edition("1", "Text."), edition("1", "Text.", ruleset="other")])
    env: dict = {}
    MarkdownIt().use(rule_citations, kb=kb).render("rule 312.1, rule 312.1", env)
    first, second = env["rule_citations"]["citations"]
    assert first["status"] == "ambiguous" and len(first["candidates"]) == 2
    first["candidates"][0]["number"] = "x"
    first["candidates"].clear()
    assert [c["number"] for c in second["candidates"]] == ["312.1", "312.1"]


@pytest.mark.parametrize("style,marker", [("footnotes", "rule-footnotes"), ("preview", 'title="Rule 312.1. Text."')])
def test_per_render_options_apply_to_that_render_only(style: str, marker: str) -> None:
    kb = KnowledgeBase.from_graphs([edition("1", "Text.")])
    md = MarkdownIt().use(rule_citations, kb=kb, base_url="https://a.example")
    html = md.render("rule 312.1", {OPTIONS_KEY: {"style": style, "base_url": "https://b.example"}})
    assert marker in html and "https://b.example/game/1/312.1" in html
    plain = md.render("rule 312.1")
    assert "rule-footnotes" in plain and "https://a.example/game/1/312.1" in plain


def test_an_unknown_per_render_option_is_refused() -> None:
    md = MarkdownIt().use(rule_citations, kb=KnowledgeBase.from_graphs([edition("1", "Text.")]))
    with pytest.raises(ValueError, match="unknown rule_citations options"):
        md.render("rule 312.1", {OPTIONS_KEY: {"styel": "preview"}})
    with pytest.raises(ValueError, match="unknown style"):
        md.render("rule 312.1", {OPTIONS_KEY: {"style": "sidenotes"}})


def test_the_facade_reuses_one_parser_and_each_call_keeps_its_own_options() -> None:
    kb = KnowledgeBase.from_graphs([edition("1", "Old."), edition("2", "New.")])
    a = kb.citations_annotate("rule 312.1", "game", "1", style="preview", base_url="/x")
    b = kb.citations_annotate("rule 312.1", "game", "2")
    c = kb.citations_annotate("<b>rule 312.1</b>", "game", "1", allow_html=True, source="c.md")
    assert 'title="Rule 312.1. Old."' in a["output"] and 'href="/x/game/1/312.1"' in a["output"]
    assert footnote_texts(b["output"]) == ["New."] and 'href="/game/2/312.1"' in b["output"]
    assert c["output"].startswith("<p><b><a ")
    # None of the three holds a "|": read without the table rule (see the test below)
    assert _parser.is_held(kb, False, False) and _parser.is_held(kb, True, False)
    assert _parser(kb, False, False) is not _parser(kb, True, False)


# Articles with and without a "|": the facade reads each as a parser with GFM tables does
# (one without a "|" by a parser without the table rule, which can match no line of it).
TABLE_CHOICE = [
    ("rule 312.1 and no pipe\n", False),
    ("| a | rule 312.1 |\n|---|---|\n| rule 312.2 | b |\n", True),
    ("a pipe | in prose, rule 312.1\n---|---\n", True),
    ("- item\n  rule 312.1\n  ---\n  next\n", False),
    ("rule 312.1\n---\n", False),
]


@pytest.mark.parametrize("text,pipes", TABLE_CHOICE, ids=[t for t, _ in TABLE_CHOICE])
def test_an_article_without_a_pipe_is_read_as_with_tables(text: str, pipes: bool) -> None:
    kb = KnowledgeBase.from_graphs([edition("1", "Old.")])
    tables = MarkdownIt("commonmark", {"html": False}).enable("table").use(rule_citations, kb=kb)
    env: dict = {OPTIONS_KEY: {"ruleset": "game", "edition": "1"}}
    expected = tables.render(text, env)
    got = kb.citations_annotate(text, "game", "1")
    assert got["output"] == expected.lstrip("\n")
    assert json.loads(json.dumps(got["citations"])) == json.loads(json.dumps(list(env["rule_citations"]["citations"])))
    assert _parser.is_held(kb, False, pipes) and not _parser.is_held(kb, False, not pipes)


def test_a_warning_about_the_front_matter_is_given_every_time() -> None:
    """The choice of edition is remembered only when it needed no warning."""
    kb = KnowledgeBase.from_graphs([edition("1", "Text.")])
    for _ in range(2):
        result = kb.citations_annotate("---\nedition: 9\n---\nrule 312.1\n", "game", source="a.md")
        assert [d["message"][:40] for d in result["diagnostics"]] == [
            "front matter names unknown edition '9' o"]
        assert result["diagnostics"][0]["file"] == "a.md"


def test_rules_of_the_same_number_from_two_builds_keep_their_own_footnotes_and_links(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The process-wide caches of a rule's footnote text and ``ok`` template are kept by the
    rule object (a build's cited rules are made once), never by its number: equal numbers
    of two builds, or two rules that compare equal, never share a kept value wrongly, and
    a full cache starts again."""
    annotate = importlib.import_module("kb.cite.annotate")  # kb.cite.annotate is also a function
    from kb.cite import mdit
    from kb.cite.resolve import CitedRule

    rules = [CitedRule("game", "1", "312.1", "rule", "", f"Wording {i}.") for i in range(3)]
    for _ in range(2):
        for i, rule in enumerate(rules):
            assert f"Wording {i}." in annotate._footnote_html(rule)[0]
            assert mdit._shared_ok(rule, "312.1", "preview", "")[1].endswith(f'title="Rule 312.1. Wording {i}." data-status="ok">')
    twin = CitedRule("game", "1", "312.1", "rule", "", "Wording 0.")
    assert annotate._footnote_html(twin) == annotate._footnote_html(rules[0])
    monkeypatch.setattr(annotate, "_FOOTNOTE_HTML", {})
    monkeypatch.setattr(annotate, "_MAX_FOOTNOTE_HTML", 2)
    for i, rule in enumerate(rules):
        assert f"Wording {i}." in annotate._footnote_html(rule)[0]
    assert [kept[0] for kept in annotate._FOOTNOTE_HTML.values()] == [rules[2]]


def test_a_rules_kept_footnote_parts_follow_its_object_and_its_url(monkeypatch: pytest.MonkeyPatch) -> None:
    """A footnote's kept parts (its text and link, its examples, its report entry) are the
    rule object's for one URL: another base URL, a twin rule of another build (same number,
    other text) and a full cache each get their own, and the report's footnotes are each
    render's own dicts."""
    annotate = importlib.import_module("kb.cite.annotate")  # kb.cite.annotate is also a function
    old, new = edition("1", "Old wording."), edition("1", "New wording.")
    monkeypatch.setattr(annotate, "_FOOTNOTE_PARTS", {})
    for base_url, graph, text in [("", old, "Old wording."), ("https://rules.example", old, "Old wording."),
                                  ("", new, "New wording."), ("", old, "Old wording.")]:
        kb = KnowledgeBase.from_graphs([graph])
        md = MarkdownIt().use(rule_citations, kb=kb, ruleset="game", base_url=base_url)
        for _ in range(2):
            env: dict = {}
            html = md.render("See rule 312.1, rule 312.1.", env)
            assert footnote_texts(html) == [text]
            assert f'<a class="rule-open" href="{base_url}/game/1/312.1">' in html
            assert html.count('class="rule-footnote-backref"') == 2
            notes = env["rule_citations"]["footnotes"]
            assert notes == [{"index": 1, "ruleset": "game", "edition": "1", "number": "312.1",
                              "text": text, "url": f"{base_url}/game/1/312.1"}]
            notes[0]["index"] = 99  # the caller's own: the next render is not changed
    monkeypatch.setattr(annotate, "_MAX_FOOTNOTE_HTML", 1)
    kb = KnowledgeBase.from_graphs([old])
    html = MarkdownIt().use(rule_citations, kb=kb, ruleset="game").render("rule 312.1 and rule 312.2")
    assert footnote_texts(html) == ["Old wording.", "Pass it on."]
    assert len(annotate._FOOTNOTE_PARTS) == 1


def test_a_rules_first_reference_and_an_ok_template_are_kept_by_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a rule's first reference in an article reads (its key, URL and footnote parts,
    ``annotate._rule_note``) and what an ``ok`` resolution's places share (``mdit._known``)
    are kept by the object's identity, for one base URL and style: a twin rule or
    resolution, another base URL or style each get their own, and a full cache starts again."""
    annotate = importlib.import_module("kb.cite.annotate")  # kb.cite.annotate is also a function
    from kb.cite import mdit
    from kb.cite.resolve import CitedRule, Resolution

    monkeypatch.setattr(annotate, "_RULE_NOTES", {})
    rule = CitedRule("game", "1", "312.1", "rule", "", "Old wording.")
    twin = CitedRule("game", "1", "312.1", "rule", "", "New wording.")
    for base_url in ("", "https://rules.example", ""):
        for r, text in [(rule, "Old wording."), (twin, "New wording.")]:
            kept = annotate._rule_note(r, base_url)
            assert kept[0] is r and kept[2] == ("game", "1", "312.1")
            assert kept[3] == f"{base_url}/game/1/312.1" and kept[4][1] == kept[3]
            assert text in kept[4][2] and kept[4][4]["text"] == text
    monkeypatch.setattr(annotate, "_RULE_NOTES", {})
    monkeypatch.setattr(annotate, "_MAX_FOOTNOTE_HTML", 1)
    annotate._rule_note(rule, "")
    assert annotate._rule_note(twin, "")[0] is twin and len(annotate._RULE_NOTES) == 1

    monkeypatch.setattr(mdit, "_KNOWN_OK", {})
    citation = find_citations("rule 312.1")[0]
    old, new = Resolution(citation, "ok", [rule], "312.1"), Resolution(citation, "ok", [twin], "312.1")
    for style in ("footnotes", "preview", "footnotes"):
        for res, text in [(old, "Old wording."), (new, "New wording.")]:
            known = mdit._known(res, style, "")
            assert known[4] == (res.rules[0],) and known[5:] == [None, ()]
            assert (text in known[1]) is (style == "preview")  # the preview's title holds the text
    monkeypatch.setattr(mdit, "_KNOWN_OK", {})
    monkeypatch.setattr(mdit, "_MAX_SHARED_OK", 1)
    mdit._known(old, "footnotes", "")
    assert mdit._known(new, "footnotes", "")[4] == (twin,) and len(mdit._KNOWN_OK) == 1
