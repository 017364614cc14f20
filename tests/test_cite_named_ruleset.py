"""A citation's own prefix names the ruleset it cites: in an article that pins no ruleset
and is read as Riftbound (most of its citations resolve there), ``CR 116.1`` is Magic's
Comprehensive Rules, so it is looked up in Magic's newest edition, not reported
``not_found`` in Riftbound's; "Comprehensive Rules", "Core Rules", "Riftbound rule" and a
ruleset's name name theirs too. A ruleset the caller or the front matter names is never
pinned by the caller or the front matter holds for the citations that name none; one that
names another is still read in the ruleset it names (never a silent wrong link or a false
``not_found``), in that ruleset's edition in force on the article's date, else on the date
of the edition it is pinned to or inferred for, else its default, with a note saying which
and why. On the embedded default (Riftbound 1.3 of 2026-03-30 and 1.4, Magic 2010-10-01 and
2026-01-16).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from kb.cite.find import find_citations
from kb.cite.link import link_article, lookup
from kb.cite.target import may_name_a_ruleset, named_editions, prefix_names
from kb.cli import main
from kb.query import KnowledgeBase

# (text, the ruleset each citation's prefix names, in order)
PREFIXES: list[tuple[str, list[str | None]]] = [
    ("CR 116.1", ["mtg"]),
    ("see [CR 116.1]", ["mtg"]),
    ("CR 116.1 and 116.2", ["mtg", "mtg"]),
    ("Comprehensive Rules 116.1", ["mtg"]),
    ("the Comprehensive Rules 116.1 and 116.2", ["mtg", "mtg"]),
    ("Core Rules 337.1", ["riftbound"]),
    ("Core Rules 337.1 and 337.4", ["riftbound", "riftbound"]),
    ("Riftbound rule 337.1", ["riftbound"]),
    ("riftbound rules 337.1, 338.1", ["riftbound", "riftbound"]),
    ("Magic rule 116.1", ["mtg"]),
    ("MTG rule 116.1", ["mtg"]),
    ("rule 337.1", [None]),
    ("see rule 337.1", [None]),
    ("The rule 337.1", [None]),  # a title's "The" names nothing
    ("(337.1a)", [None]),
    ("See also 337.1a", [None]),
    # each phrase its own prefix; a list's later items their first's
    ("Core Rules 337.1, rule 116.1 and CR 116.2, rules 340.1 and 340.2",
     ["riftbound", None, "mtg", None, None]),
]


@pytest.fixture(scope="module")
def kb(excerpt_kb: KnowledgeBase) -> KnowledgeBase:
    assert {r["name"] for r in excerpt_kb.rulesets()} >= {"riftbound", "mtg"}
    return excerpt_kb


@pytest.mark.parametrize("text,expected", PREFIXES)
def test_the_ruleset_a_prefix_names(kb: KnowledgeBase, text: str, expected: list[str | None]) -> None:
    candidates = [kb.edition(r["name"]) for r in kb.rulesets()]
    citations = find_citations(text)
    named = named_editions(kb, candidates, text, citations)
    assert [g.edition.ruleset if g is not None else None for g in named] == expected


# named_editions' pretest (target.may_name_a_ruleset: the last two letters of the word
# before each citation): true wherever a naming word is right before a citation, in any
# case or after several spaces, and false for the commonest words before a citation.
# (text, whether a name may be right before one of its citations)
MAY_NAME: list[tuple[str, bool]] = [
    ("Riftbound rule 337.1", True), ("MTG rule 116.1", True), ("the Core Rules 337.1", True),
    ("COMPREHENSIVE RULES 116.1", True), ("magic  rule 116.1", True), ("Magic\u00a0rule 116.1", True),
    ("see rule 337.1 and (rule 337.2)", False), ("rule 337.1", False), ("The rule 337.1", False),
    ("Under rule 337.1, then rule 337.2", False), ("x rule 337.1", False),
    ("see rule 337.1, Riftbound rule 337.2", True),
]


@pytest.mark.parametrize("text,expected", MAY_NAME, ids=[t for t, _ in MAY_NAME])
def test_a_word_before_a_citation_may_name_a_ruleset(kb: KnowledgeBase, text: str, expected: bool) -> None:
    names = prefix_names(kb)
    citations = find_citations(text)
    assert may_name_a_ruleset([(text, citations)], names) is expected
    if not expected:  # a superset: where it says no, no citation's prefix names a ruleset
        candidates = [kb.edition(r["name"]) for r in kb.rulesets()]
        assert named_editions(kb, candidates, text, citations) == [None] * len(citations)


def test_the_words_that_name_a_ruleset(kb: KnowledgeBase) -> None:
    names = prefix_names(kb)
    assert {w: names.get(w) for w in ("comprehensive", "core", "riftbound", "magic", "mtg", "the",
                                      "rules")} == {
        "comprehensive": "mtg", "core": "riftbound", "riftbound": "riftbound", "magic": "mtg",
        "mtg": "mtg", "the": None, "rules": None}


RIFTBOUND_WITH_CR = ("Priority passes (rule 312). The chain resolves (rule 340.1), then "
                     "(rule 340.2). Magic says it differently, see CR 116.1.")

# (text, caller's ruleset, each citation's (status, ruleset), words of a diagnostic or "")
ARTICLES: list[tuple[str, str | None, list[tuple[str, str | None]], str]] = [
    # read as Riftbound, its CR citation looked up in Magic
    (RIFTBOUND_WITH_CR, None,
     [("ok", "riftbound"), ("ok", "riftbound"), ("ok", "riftbound"), ("ok", "mtg")],
     "1 citation (CR 116.1) names mtg by its prefix: looked up in mtg 2026-01-16"),
    # read as Magic, its "Riftbound rule" looked up in Riftbound
    ("Priority (CR 116.1), then CR 116.2 and CR 117.1; a chain is Riftbound rule 340.1.", None,
     [("ok", "mtg"), ("ok", "mtg"), ("ok", "mtg"), ("ok", "riftbound")],
     "1 citation (rule 340.1) names riftbound by its prefix: looked up in riftbound 1.4"),
    # the caller names the ruleset: it holds for the citations naming none; CR 116.1 is Magic's
    (RIFTBOUND_WITH_CR, "riftbound",
     [("ok", "riftbound"), ("ok", "riftbound"), ("ok", "riftbound"), ("ok", "mtg")],
     "1 citation (CR 116.1) names mtg by its prefix: looked up in mtg 2026-01-16 (the default "
     "edition: no date or pinned edition to choose another), not in riftbound"),
    # the front matter pins it: the same
    ("---\nruleset: riftbound\n---\n" + RIFTBOUND_WITH_CR, None,
     [("ok", "riftbound"), ("ok", "riftbound"), ("ok", "riftbound"), ("ok", "mtg")],
     "1 citation (CR 116.1) names mtg by its prefix: looked up in mtg 2026-01-16"),
    # a Magic article pinned by the caller: its Riftbound rule is Riftbound's
    ("Priority (CR 116.1); a chain is Riftbound rule 340.1.", "mtg",
     [("ok", "mtg"), ("ok", "riftbound")],
     "1 citation (rule 340.1) names riftbound by its prefix: looked up in riftbound 1.4"),
    # a prefix naming the ruleset read anyway changes nothing and says nothing
    ("Core Rules 340.1 and rule 340.2.", None, [("ok", "riftbound"), ("ok", "riftbound")], ""),
]


def _said(answer: dict[str, Any]) -> str:
    return " ".join(str(d["message"]) for d in answer["diagnostics"])


@pytest.mark.parametrize("text,ruleset,expected,said", ARTICLES)
@pytest.mark.parametrize("how", ["lookup", "plugin"])
def test_a_citation_is_looked_up_in_the_ruleset_its_prefix_names(
        kb: KnowledgeBase, how: str, text: str, ruleset: str | None,
        expected: list[tuple[str, str | None]], said: str) -> None:
    answer = (lookup(kb, text, ruleset=ruleset) if how == "lookup"
              else link_article(kb, text, ruleset=ruleset, fmt="json"))
    assert [(c["status"], c["ruleset"]) for c in answer["citations"]] == expected
    if said:
        assert said in _said(answer), _said(answer)
    else:
        assert "by its prefix" not in _said(answer) and "by their prefix" not in _said(answer)


def test_the_plugin_links_and_footnotes_the_named_rule(kb: KnowledgeBase) -> None:
    html = link_article(kb, RIFTBOUND_WITH_CR, fmt="html")["output"]
    assert 'href="/mtg/2026-01-16/116.1"' in html
    assert "rule-citation-broken" not in html


# A ruleset pinned, and a citation naming another: (front matter, caller's ruleset and
# edition, each citation's (status, ruleset, edition, number), words of the note).
OLD_MAGIC = "Chain (rule 340.1). Magic: CR 116.3d and Magic rule 117.3."
PINNED: list[tuple[str, str | None, str | None, list[tuple[str, str | None, str | None, str | None]], str]] = [
    # dated 2011: Magic as it was then, where 116.3d and 117.1 are what the author read
    ("ruleset: riftbound\nedition: '1.3'\ndate: 2011-01-05", None, None,
     [("ok", "riftbound", "1.3", "340.1"), ("ok", "mtg", "2010-10-01", "116.3d"),
      ("ok", "mtg", "2010-10-01", "117.3")],
     "2 citations (CR 116.3d, rule 117.3) name mtg by their prefix: looked up in mtg 2010-10-01 "
     "(in force on 2011-01-05, the article's date), not in riftbound"),
    # the same, linked against Riftbound 1.4: the Magic citations are carried to 2026 too
    ("ruleset: riftbound\nedition: '1.3'\ndate: 2011-01-05", None, "1.4",
     [("ok", "riftbound", "1.4", "340.1"), ("renumbered", "mtg", "2026-01-16", "117.3d"),
      ("renumbered", "mtg", "2026-01-16", "118.3")],
     "looked up in mtg 2010-10-01 (in force on 2011-01-05, the article's date), carried to "
     "2026-01-16, not in riftbound"),
    # no date: the Magic edition in force on the pinned edition's date, where 116.3d is gone
    # (and the hint says where it is now)
    ("ruleset: riftbound\nedition: '1.3'", None, None,
     [("ok", "riftbound", "1.3", "340.1"), ("not_found", "mtg", "2026-01-16", None),  # read there (A14)
      ("ok", "mtg", "2026-01-16", "117.3")],
     "looked up in mtg 2026-01-16 (in force on 2026-03-30, the date of riftbound 1.3)"),
    # pinned by the caller only, undated: the default editions of both
    ("title: no pins", "riftbound", None,
     [("ok", "riftbound", "1.4", "340.1"), ("not_found", "mtg", "2026-01-16", None),
      ("ok", "mtg", "2026-01-16", "117.3")],
     "looked up in mtg 2026-01-16 (the default edition: no date or pinned edition to choose another)"),
]


@pytest.mark.parametrize("front,ruleset,edition,expected,said", PINNED)
@pytest.mark.parametrize("how", ["lookup", "plugin"])
def test_a_pinned_ruleset_leaves_a_citation_naming_another_to_it(
        kb: KnowledgeBase, how: str, front: str, ruleset: str | None, edition: str | None,
        expected: list[tuple[str, str | None, str | None, str | None]], said: str) -> None:
    text = f"---\n{front}\n---\n{OLD_MAGIC}\n"
    answer = (lookup(kb, text, ruleset=ruleset, edition=edition) if how == "lookup"
              else link_article(kb, text, ruleset=ruleset, edition=edition, fmt="json"))
    assert [(c["status"], c["ruleset"], c["edition"], c["number"]) for c in answer["citations"]] == expected
    assert said in _said(answer), _said(answer)
    for c in answer["citations"]:
        if c["status"] == "not_found":  # never a silent miss: where the rule is now
            assert c["elsewhere"]["here"] == "117.3d" and "is rule 117.3d in 2026-01-16" in c["message"]


def test_link_check_reads_a_named_citation_in_its_ruleset(kb: KnowledgeBase, tmp_path: Path) -> None:
    """``rulekb link --check --ruleset riftbound``: the CR citation is Magic's, said in a note."""
    article = tmp_path / "a.md"
    article.write_text(f"---\ndate: 2011-01-05\n---\n{OLD_MAGIC}\n", encoding="utf-8")
    run = CliRunner().invoke(main, ["--home", str(Path(kb.build_dir).parent.parent), "link", "--check",
                                    "--ruleset", "riftbound", str(article)])
    assert run.exit_code == 0, run.output
    assert f"{article}:4:28: ok: CR 116.3d → mtg 2010-10-01 116.3d" in run.output
    # each edition's own counts (issue #20, 21: not every citation "against riftbound 1.4")
    assert ": 1 against riftbound 1.4 (1 ok, 0 broken, 0 renumbered), 2 against mtg 2010-10-01, " \
        "named by their prefix (" in run.output
    assert "name mtg by their prefix: looked up in mtg 2010-10-01 (in force on 2011-01-05" in run.output


def test_a_date_before_every_edition_of_the_named_ruleset_says_so(kb: KnowledgeBase) -> None:
    """A Magic article of 2011 citing Riftbound's Core Rules: no Riftbound edition was in
    force then, so its oldest full one is read (the oldest at all here: every embedded edition is
    an excerpt), and the note does not claim it was in force."""
    text = "---\nruleset: mtg\nedition: 2010-10-01\ndate: 2011-02-01\n---\nPriority (rule 116.3d); Core Rules 340.1.\n"
    answer = lookup(kb, text)
    assert [(c["status"], c["ruleset"], c["edition"]) for c in answer["citations"]] == [
        ("ok", "mtg", "2010-10-01"), ("ok", "riftbound", "1.3")]
    assert ("1 citation (Rules 340.1) names riftbound by its prefix: looked up in riftbound 1.3 (its oldest "
            "edition: none was in force on 2011-02-01, the article's date), not in mtg") in _said(answer)


# A document's title before "Rules" (issue #20 leftover 2): "Core Rules 340.1" links 340.1,
# its link text the keyword and number ("Rules 340.1": the title word stays before the link,
# where it names the ruleset), in the ruleset it names whatever the article is pinned to;
# "Core Rules 1.4" (a document and its version) is no citation. (text, pins, [(linked text,
# ruleset, number)], the HTML's link text and what precedes it)
TITLED: list[tuple[str, dict[str, str], list[tuple[str, str, str]], str]] = [
    ("See Riftbound Core Rules 340.1 for the chain.", {},
     [("Rules 340.1", "riftbound", "340.1")], "Riftbound Core <a"),
    ("See Riftbound Core Rules 340.1 for the chain.", {"ruleset": "mtg"},
     [("Rules 340.1", "riftbound", "340.1")], "Riftbound Core <a"),
    ("per Core Rules 340.1 and 340.2", {"ruleset": "riftbound", "edition": "1.4"},
     [("Rules 340.1", "riftbound", "340.1"), ("340.2", "riftbound", "340.2")], "per Core <a"),
    ("Comprehensive Rules 116.1", {"ruleset": "riftbound"}, [("Rules 116.1", "mtg", "116.1")],
     "Comprehensive <a"),
    ("the Core Rules 1.4 say so", {}, [], ""),
    ("Riftbound Core Rules 1.4, rule 340.1", {"ruleset": "riftbound"},
     [("rule 340.1", "riftbound", "340.1")], "1.4, <a"),
]


@pytest.mark.parametrize("text,pins,expected,html", TITLED, ids=[f"{t} {p}" for t, p, _, _ in TITLED])
def test_a_documents_title_before_rules(kb: KnowledgeBase, text: str, pins: dict[str, str],
                                        expected: list[tuple[str, str, str]], html: str) -> None:
    answer = kb.citations_annotate(text, pins.get("ruleset"), pins.get("edition"))
    assert [(c["text"], c["ruleset"], c["number"]) for c in answer["citations"]] == expected
    assert all(c["status"] == "ok" for c in answer["citations"])
    assert html in str(answer["output"])
