"""The Riftbound readers on the real documents (HTML rows 1.3 and Tournament Rules, PDF text
1.2, table 1.0, markdown 1.4) and on small fixtures, including broken ones.

Counts are checked against an independent count of the ids printed in each file (a plain
regular expression per format), adjusted only by the repairs each reader reports.
"""

from __future__ import annotations

import csv
import doctest
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import references
from kb.cli import main
from kb.graph import build_edition
from kb.model import DocumentError
from kb.numbers import parse_number
from kb.query import KnowledgeBase
from kb.read import decode, detect_format, read_document, read_text, riftbound_entries
from kb.read.text import fold
from tests.conftest import CORPORA, REPO, corpus_graph, requires_shared

FIXTURES = REPO / "tests" / "fixtures" / "readers"
RIFTBOUND = CORPORA / "riftbound"
TOURNAMENT = ("riftbound-tournament", "2026-05-02")

# ---------------------------------------------------------------------------------------
# Auto-detection: every document is read by its own reader, and by no other.

DETECTION = [
    ("riftbound/core-rules-2025-06-02.md", "riftbound-table"),
    ("riftbound/core-rules-2025-12-01.md", "riftbound-pdftext"),
    ("riftbound/core-rules-2025-12-01-markdown.md", "riftbound-md"),
    ("riftbound/core-rules-2026-03-30.md", "riftbound-html"),
    ("riftbound/core-rules-2026-07-16.md", "riftbound-md"),
    ("riftbound/tournament-rules-2026-05-02.md", "riftbound-html"),
    ("mtg/comprehensive-rules-2010-10-01.txt", "mtg-text"),
    ("mtg/comprehensive-rules-2026-01-16.txt", "mtg-text"),
]


@requires_shared
@pytest.mark.parametrize("rel,fmt", DETECTION)
def test_every_corpus_file_is_detected_as_its_format(rel: str, fmt: str) -> None:
    assert detect_format(decode((CORPORA / rel).read_bytes()), rel) == fmt


@pytest.mark.parametrize("path,fmt", [
    (REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md", "riftbound-md"),
    (FIXTURES / "html-rows.md", "riftbound-html"),
    (FIXTURES / "pdftext.md", "riftbound-pdftext"),
    (FIXTURES / "table.md", "riftbound-table"),
])
def test_embedded_excerpt_and_fixtures_are_detected(path: Path, fmt: str) -> None:
    assert detect_format(decode(path.read_bytes()), str(path)) == fmt


# ---------------------------------------------------------------------------------------
# Exact counts, checked against the ids printed in the file.

# (ruleset, edition, file, how ids are printed, adjustment, rules, chapters, sections)
# The adjustment is what the reader's repairs change, each visible as a diagnostic:
#   1.2: 744.5 is printed twice in a row (the second paragraph continues the first): -1;
#        721.1 is printed without its parent 721, which is kept as an empty rule: +1
#   1.3: rule 391 is glued into a continuation row ("Refl391. Delayed…"): +1
#   1.4: four "###" headings repeat the number of a bold rule (the rule wins): -4
ID_PATTERNS = {
    "table": r"<td>\d{3}(?:\.[0-9a-z]+)*\.?</td>",
    "pdftext": r"(?m)^\d{3}\.(?:[0-9a-z]{1,3}\.?)*\s",
    "html": r'<div class="rule-id">\d{3}',
    "md": r"(?m)^(?:\*\*\d{3}(?:\.[0-9a-z]+)*\.\*\*|#{2,3} \d{3}\.|\d{3}(?:\.[0-9a-z]+)+\.\s{2,})",
}
COUNTS = [
    ("riftbound", "1.0", "core-rules-2025-06-02.md", "table", 0, 1364, 4, 108),
    ("riftbound", "1.2", "core-rules-2025-12-01.md", "pdftext", 0, 1795, 4, 130),
    ("riftbound", "1.3", "core-rules-2026-03-30.md", "html", +1, 2089, 5, 151),
    ("riftbound", "1.4", "core-rules-2026-07-16.md", "md", -4, 2381, 5, 164),
    (*TOURNAMENT, "tournament-rules-2026-05-02.md", "html", 0, 885, 8, 41),
]


@requires_shared
@pytest.mark.parametrize("ruleset,edition,name,printed,adjust,rules,chapters,sections", COUNTS)
def test_exact_rule_counts(ruleset: str, edition: str, name: str, printed: str, adjust: int,
                           rules: int, chapters: int, sections: int) -> None:
    ed = corpus_graph(ruleset, edition).edition
    ids_in_file = len(re.findall(ID_PATTERNS[printed], (RIFTBOUND / name).read_text(encoding="utf-8")))
    kinds = [r.kind for r in ed.rules.values()]
    assert (len(ed.rules), kinds.count("chapter"), kinds.count("section")) == (rules, chapters, sections)
    assert ids_in_file + adjust == rules


@requires_shared
def test_edition_1_4_has_exactly_2381_ids() -> None:
    assert len(corpus_graph("riftbound", "1.4").edition.rules) == 2381


# ---------------------------------------------------------------------------------------
# Sampled rules: (edition, number, kind, source line, text or title, examples)

SAMPLES = [
    # 1.3, HTML rows: entities, space before punctuation after a bold term, bullets kept.
    ("1.3", "052", "rule", 21, 'Card, when written in card effects, is shorthand for "Main Deck card." '
     "Runes, legends, and battlefields are not considered cards when executing the abilities and effects "
     "of game objects. They are considered cards for the purposes of these rules.", 0),
    ("1.3", "053.1", "rule", 25, '* Units and legends say "I," "me," etc.', 0),
    # spaces around bold terms inside quotes and brackets ('" Equip [Cost]"', '[ Reaction ]')
    ("1.3", "822.1.b", "rule", 4195, 'It is functionally short for "I may be played to a battlefield where '
     'you control Units" and "I have [Reaction] as long as I\'m being played to a battlefield where you '
     'control Units."', 0),
    ("1.3", "461.1.a.1", "rule", 3065, 'Insert "3c. Heal all Units."', 0),
    ("1.3", "054", "section", 33, "\"Can't beats Can\"", 0),
    # an empty rule-text, then a rule-cont row and eleven one-word rows
    ("1.3", "146.1", "rule", 665, "A Unit's Location is the Base or Battlefield it currently occupies.", 0),
    ("1.3", "439.4", "rule", 2869, "Unless specified otherwise by the Game Effect that Creates a Game Object, "
     "any such Game Object is owned by the player who Created it. Control is established as usual for "
     "Game Objects of the appropriate type.", 0),
    # mis-split ids, repaired from their neighbours
    ("1.3", "461.4", "rule", 3083, "The following Task becomes Outstanding:", 0),
    ("1.3", "461.7.b", "rule", 3103, 'All "this combat" effects expire simultaneously.', 0),
    ("1.3", "359.3.f.3.a.1", "rule", 1827, "In the case of a linked ability that references information "
     "from a linked triggered ability, that information may be referenced from the trigger condition of "
     "the linked triggered ability if specified.", 0),
    # glued into a continuation row after "Refl"
    ("1.3", "391", "rule", 2113, "Delayed Abilities will resolve or be active just like the ability they "
     "augment, but only during the specified time in the effect that created the Delayed Ability.", 2),
    ("1.3", "315.1.b", "rule", 1157, "1. The Turn Player readies all Game Objects they control that are able "
     "to be readied. See rule 415. Ready for more information.", 0),
    # 1.4, Markdown: a bold top-level id is a heading or a rule as its text says, as in its PDF
    ("1.4", "054", "section", 36, "“Can’t beats Can”", 0),
    ("1.4", "188", "section", 1463, "Control", 0),
    ("1.4", "185", "rule", 1378, "Tokens are not cards.", 0),
    # a level-0 "heading" row that is a sentence is a rule
    ("1.3", "371", "rule", 1885, 'Some Replacement Effects will begin with "once each turn."', 0),
    # 1.2, PDF text: double spaces, ligatures, a rule across a page break, ids without a last dot
    ("1.2", "052", "rule", 14, 'Card, when written in card effects, is shorthand for "Main Deck card." '
     "Runes, legends, and battlefields are not considered cards when executing the abilities and effects "
     "of game objects. They are considered cards for the purposes of these rules.", 0),
    ("1.2", "103.1.b.2", "rule", 31, "Your deck’s Domain Identity is dictated by the domains of your "
     "Champion Legend. In the default card frame, these domains appear as symbols in the legend’s upper "
     "left corner.", 0),
    ("1.2", "103.2.a.2", "rule", 41, "Must be a champion unit with a champion tag that matches the tag on "
     "your Champion Legend.", 2),
    ("1.2", "747.4", "rule", 2083, "Weaponmaster, and whether or not a unit has Weaponmaster, is a "
     "characteristic of the Unit and may be checked or referenced by other Game Effects.", 0),
    ("1.2", "744.5", "rule", 2037, "Equip, and whether or not a Gear has Equip, is a characteristic of the "
     "Gear and may be checked or referenced by other Game Effects. Whether or not a Gear has Equip may be "
     "referenced even if the Rules Text of the Gear is Inactive. See rule 716 Attachment for more "
     "information.", 0),
    # 1.2 prints 721.1 / 721.1.a / 721.1.b under "720. Inactive" (1.3: 721 / 721.1 / 721.2): read
    # as printed, so that a citation of 1.2's 721.1 answers with the text 1.2 prints for it
    ("1.2", "721.1", "rule", 1786, "Card text can occasionally be assigned to be ignored, disregarded, or "
     "otherwise rendered as not applicable during the course of play. This state is referred to as "
     "Inactive.", 0),
    ("1.2", "721.1.b", "rule", 1788, "Inactive Abilities do not trigger, do not apply, and cannot be "
     "activated. Inactive instructions are not processed.", 0),
    ("1.2", "400", "section", 1140, "Draw", 0),
    ("1.2", "700", "chapter", 1723, "Additional Rules", 0),
    # 1.0, table: embedded newlines, old symbols, a continuation row, a glued sentence
    ("1.0", "103.2", "rule", 5, "A Main Deck of at least 40 cards 1 Chosen Champion Unit Units Gear Spells", 0),
    ("1.0", "178.1", "rule", 62, "A 1[S] Recruit token is a domainless unit token with 1 Might and the "
     "Recruit tag.", 0),
    ("1.0", "530.1", "rule", 81, "The more-encompassing Relevance is used to determine this.", 1),
    ("1.0", "577", "rule", 147, "Activated Abilities are repeatable effects with a cost. They follow a "
     "process of going onto the chain and resolving, similar to Playing a Card. See rule 554. Playing "
     "Cards for more information.", 0),
    ("1.0", "625.1.e", "rule", 182, "The Attacking Player becomes the Active Player", 0),
    ("1.0", "500", "chapter", 63, "Playing the Game", 0),
    ("1.0", "712", "section", 225, "Keywords", 0),
    # Tournament Rules: the golden rule, "See N" references, a rule that is only "Examples:"
    ("2026-05-02", "001", "rule", 13, "The tournament rules exist to ensure anyone who attends a Riftbound "
     "organized play event has a fun, equitable, fair, safe and consistent experience. They aim to "
     "empower competitors and judges to work together to have mutual expectations and understandings.", 0),
    ("2026-05-02", "703.3.a", "rule", 1561, "Examples:", 0),
    ("2026-05-02", "602.1.a.1.a", "rule", 965, "For some limited competitions, players may be given "
     "additional promotional cards that the head judge will specify are not part of that player's "
     "limited card pool and can't be used for that event.", 0),
]


def _graph(edition: str):
    return corpus_graph(*TOURNAMENT) if edition == TOURNAMENT[1] else corpus_graph("riftbound", edition)


@requires_shared
@pytest.mark.parametrize("edition,number,kind,line,text,examples", SAMPLES,
                         ids=[f"{s[0]}-{s[1]}" for s in SAMPLES])
def test_sampled_rules(edition: str, number: str, kind: str, line: int, text: str, examples: int) -> None:
    rule = _graph(edition).rule(number)
    assert (rule.kind, rule.line, len(rule.examples)) == (kind, line, examples)
    assert (rule.title if kind != "rule" else rule.text) == text


@requires_shared
@pytest.mark.parametrize("edition,text", [("1.2", "ﬁ"), ("1.2", "ﬂ"), ("1.2", "  "), ("1.3", "&quot;"),
                                          ("1.3", "&#x27;"), ("1.3", " ,"), ("1.3", "[ "),
                                          ("1.3", '" Add "'), ("2026-05-02", "&amp;")])
def test_no_artefact_survives_in_any_rule(edition: str, text: str) -> None:
    ed = _graph(edition).edition
    assert not [n for n, r in ed.rules.items() if text in r.text + r.title + " ".join(r.examples)]


# ---------------------------------------------------------------------------------------
# Hierarchy: breadcrumbs of deep rules.

HIERARCHY = [
    ("1.0", "625.1.e", ["500", "625", "625.1"]),
    ("1.0", "106.4.d", ["100", "105", "106", "106.4"]),
    ("1.2", "466.8.e.1.a", ["300", "466", "466.8", "466.8.e", "466.8.e.1"]),
    ("1.2", "721.1.b", ["700", "720", "721", "721.1"]),
    ("1.3", "359.3.f.3.a.1", ["300", "353", "359", "359.3", "359.3.f", "359.3.f.3", "359.3.f.3.a"]),
    ("1.3", "461.4", ["300", "461"]),
    # 464 "Step 1: The Combat Showdown Step" is a section, as 1.3's 459 is (bold in the Markdown)
    ("1.4", "464.2.c.1.a", ["300", "464", "464.2", "464.2.c", "464.2.c.1"]),
    ("1.4", "194", ["100", "193"]),  # 193 "Winning" heads its rules, not 179 "Tokens"
    ("2026-05-02", "602.4.b.4.b.1", ["600", "602", "602.4", "602.4.b", "602.4.b.4", "602.4.b.4.b"]),
]


@requires_shared
@pytest.mark.parametrize("edition,number,ancestors", HIERARCHY)
def test_ancestors_of_deep_rules(edition: str, number: str, ancestors: list[str]) -> None:
    assert _graph(edition).ancestors(number) == ancestors


# ---------------------------------------------------------------------------------------
# Repairs are reported where they happen.

REPAIRS = [
    ("1.0", 182, "625.1.e", "lost a level"),
    ("1.2", 2038, "744.5", "printed twice in a row"),
    ("1.2", 1786, "721", "printed without its parent 721; 721 is kept as an empty rule"),
    ("1.3", 1827, "359.3.f.3.a.1", "mis-split id"),
    ("1.3", 3083, "461.4", "mis-split id"),
    ("1.3", 3103, "461.7.b", "mis-split id"),
    ("1.3", 2113, "391", "stray text 'Refl'"),
]


@requires_shared
@pytest.mark.parametrize("edition,line,rule,message", REPAIRS)
def test_repairs_are_diagnostics_with_their_line(edition: str, line: int, rule: str, message: str) -> None:
    found = [d for d in _graph(edition).edition.diagnostics if d.line == line and d.rule == rule]
    assert found and message in found[0].message and found[0].severity == "warning"


# ---------------------------------------------------------------------------------------
# References: every one resolves, except those no reader of the document could resolve.

CORE_RULES = "cites the Core Rules (CR), a different document"
UNRESOLVABLE = {
    ("riftbound", "1.0"): {},
    ("riftbound", "1.2"): {},
    ("riftbound", "1.3"): {
        ("427.1", "107.5"): "stale number: 'See 107.5. Banishment' is the 1.2 number; 1.3 has no 107.5 "
                            "(Banishments is 108.6)",
    },
    ("riftbound", "1.4"): {},
    TOURNAMENT: {
        # "CR N" citations are external references into the Core Rules (the manifest says
        # so); a bare Core Rules number without "CR" cannot be told from a local one.
        ("502.11", "484.8.e"): CORE_RULES,
        ("602.4.a.8.f", "602.4.8.c-e"): "misprint: the steps are 602.4.a.8.c–e; the printed number "
                                        "has no level 'a' and exists nowhere",
    },
}


@requires_shared
def test_tournament_rules_cite_the_core_rules_as_an_external_ruleset() -> None:
    ed = corpus_graph(*TOURNAMENT).edition
    external = {(r.source, r.text): (r.ruleset, r.targets) for r in ed.references if r.kind == "external"}
    assert external[("406.1", "CR 110")] == ("riftbound", ["110"])
    assert external[("601.1.a", "CR 101")][0] == "riftbound"
    assert len(external) >= 14


@requires_shared
@pytest.mark.parametrize("key", list(UNRESOLVABLE), ids=lambda k: f"{k[0]}-{k[1]}")
def test_only_unresolvable_references_stay_unresolved(key: tuple[str, str]) -> None:
    ed = corpus_graph(*key).edition
    unresolved = {(r.source, r.text) for r in ed.references if not r.resolved}
    assert unresolved == set(UNRESOLVABLE[key])
    assert len(ed.references) > 70


@requires_shared
@pytest.mark.parametrize("edition,rule,target", [
    ("1.2", "414.1", "107.5"),          # "See  107.5.  Banishment" (no "rule")
    ("1.0", "107.2.c", "554"),          # "…Playing a Card.See rule 554." (glued sentence)
    ("2026-05-02", "103.3", "205"),     # "See 205 for more information"
    ("2026-05-02", "602.1.a.2", "602.3.d"),  # continuation row: "See 602.3.d. below"
])
def test_irregular_reference_forms_resolve(edition: str, rule: str, target: str) -> None:
    assert target in _graph(edition).references(rule)


# ---------------------------------------------------------------------------------------
# Fixtures: every repair and layout rule on a few lines of each format (no ../shared needed).

FIXTURE_RULES = [
    ("html-rows.md", {"300": "chapter", "301": "section", "302.2.a": "A Player's units remain here.",
                      "302.3": "The following Task becomes Outstanding:", "303": "rule",
                      "304": "Delayed Abilities resolve later. See 302.2.a. for more.",
                      "302": 'Card, when written in card effects, is shorthand for "Main Deck card."'}),
    ("pdftext.md", {"100": "chapter", "101": "section", "103": "section", "200": "section",
                    "102": "A player brings a deck of fifty cards, and a battlefield.",
                    "102.1.a": "This rule is split across a page break and continues here.",
                    "102.1.b": "The last dot of this id is lost. See rule 101. Deck Construction for more "
                               "information. The same id printed twice: this continues it.",
                    "104": "rule", "104.1": "Card text is sometimes Inactive.",
                    "104.1.b": "Inactive abilities do not trigger."}),
    ("table.md", {"500": "chapter", "501": "section",
                  "502": "Units have [S] and can be exhausted with [T].",
                  "502.1": "A Main Deck of at least 40 cards 1 Chosen Champion Unit Units",
                  "502.1.b": "The Attacking Player becomes the Active Player See rule 501. The Turn for "
                             "more information.",
                  "503": "A play is similar to Playing a Card. See rule 502.1. for more information."}),
]


def _build(path: Path, text: str | None = None, fmt: str | None = None):
    text = decode(path.read_bytes(), str(path)) if text is None else text
    result = read_text(text, str(path), fmt)
    return build_edition(result, ruleset="t", edition="1", source=str(path))


@pytest.mark.parametrize("name,expected", FIXTURE_RULES)
def test_fixture_documents(name: str, expected: dict[str, str]) -> None:
    rg = _build(FIXTURES / name)
    for number, want in expected.items():
        rule = rg.rule(number)
        assert (rule.kind if want in ("chapter", "section", "rule") else rule.text) == want, number
    assert all(r.resolved for r in rg.edition.references) and rg.edition.references


def test_fixture_titles_dates_and_examples() -> None:
    html, pdf, table = (read_document(FIXTURES / n)[0] for n in ("html-rows.md", "pdftext.md", "table.md"))
    assert (html.title, html.date) == ("Example Rules v1.3", "2026-03-30")
    assert (pdf.title, pdf.date) == ("Example Rules v1.2", "2025-12-01")
    assert (table.title, table.date) == ("Example Rules", "2025-06-02")
    assert [r.examples for r in pdf.rules if r.number == ("102", "1")] == [["Two players shuffle their decks."]]
    assert [r.examples for r in table.rules if r.number == ("502", "1", "a")] == [["A unit is played."]]


# ---------------------------------------------------------------------------------------
# Malformed documents. Not a rules document: a DocumentError naming the file, the line and
# the reason. A rules document with a slip (cut, an id printed again, a rule without its
# parent): read, the slip a warning naming the file, the line and the reason (issue #19).

# format: (fixture, where a row goes, how a row is written, a duplicate, an orphan, a cut)
FORMATS = {
    "riftbound-html": ("html-rows.md", "\n</div>",
                       '<div class="rule-row rule-plain level-1"><div class="rule-id">{id}</div>'
                       '<div class="rule-text">{text}</div></div>\n', "302.1.", "304.5.c.",
                       lambda t: t[: t.rindex('<div class="rule-text">') + 30]),
    "riftbound-pdftext": ("pdftext.md", None, "{id}  {text}  \n", "102.1.", "200.5.c.",
                          lambda t: t[: t.rindex("200.1.") + 6]),
    "riftbound-table": ("table.md", "</table>", "<tr><td>{id}</td><td>{text}</td></tr>", "502.1.",
                        "503.5.c.", lambda t: t[: t.rindex("<td>503.1.") + 14]),
}


def _with_row(fmt: str, rid: str) -> tuple[str, int]:
    """The fixture with one more row at its end; returns the text and the row's line."""
    name, anchor, row, *_ = FORMATS[fmt]
    text = (FIXTURES / name).read_text(encoding="utf-8")
    at = text.rindex(anchor) if anchor else len(text)
    new = row.format(id=rid, text="Another rule.")
    return text[:at] + new + text[at:], text.count("\n", 0, at) + 1


def _malformed(fmt: str, case: str) -> tuple[str, int, str]:
    """(document text, line of the error, reason) for one kind of broken document."""
    name, _, _, duplicate, orphan, cut = FORMATS[fmt]
    if case == "duplicate number":
        text, line = _with_row(fmt, duplicate)
        return text, line, f"rule {duplicate.rstrip('.')} is printed again"
    if case == "child without parent":
        text, line = _with_row(fmt, orphan)
        return text, line, f"rule {orphan} is printed without its parent"
    if case == "truncated":
        text = cut((FIXTURES / name).read_text(encoding="utf-8"))
        reason = "has no text" if fmt == "riftbound-pdftext" else "truncated"
        last_line = text.count("\n") + 1
        return text, last_line, reason
    if case == "empty":
        return " \n\n", 1, "no numbered rules found"
    if case == "garbage":
        return "".join(map(chr, range(32, 127))) * 20, 1, "no numbered rules found"
    raise KeyError(case)


CASES = ["empty", "garbage"]
SLIPS = ["truncated", "duplicate number", "child without parent"]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_malformed_documents_name_file_line_and_reason(fmt: str, case: str) -> None:
    text, line, reason = _malformed(fmt, case)
    source = str(FIXTURES / FORMATS[fmt][0])
    with pytest.raises(DocumentError) as info:
        result = read_text(text, source, fmt)
        build_edition(result, ruleset="t", edition="1", source=source)
    [first, *_] = info.value.diagnostics
    assert (first.file, first.line) == (source, line) and reason in first.message, str(info.value)


@pytest.mark.parametrize("case", SLIPS)
@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_documents_with_a_slip_are_read_and_the_slip_named(fmt: str, case: str) -> None:
    text, line, reason = _malformed(fmt, case)
    source = str(FIXTURES / FORMATS[fmt][0])
    result = read_text(text, source, fmt)
    build_edition(result, ruleset="t", edition="1", source=source)
    notes = [d for d in result.diagnostics if reason in d.message]
    assert [(d.file, d.line, d.severity) for d in notes] == [(source, line, "warning")], \
        [str(d) for d in result.diagnostics]


@pytest.mark.parametrize("data,reason", [
    (b"", "the document is empty"),
    (bytes(range(256)) * 8, "binary data"),
])
def test_unreadable_files_are_document_errors(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "rules.md"
    path.write_bytes(data)
    for fmt in sorted(FORMATS):
        with pytest.raises(DocumentError) as info:
            read_document(path, fmt)
        assert info.value.diagnostics[0].file == str(path) and reason in str(info.value)


def test_a_repeated_id_is_a_paragraph_of_the_rule_above() -> None:
    """Adjacent: the second paragraph continues the first; distant: it stays where it is
    printed, as a paragraph of the rule above it, and is reported."""
    rg = _build(FIXTURES / "pdftext.md")
    assert "The same id printed twice" in rg.rule("102.1.b").text
    text, line = _with_row("riftbound-pdftext", "102.1.b.")
    rg = _build(FIXTURES / "pdftext.md", text, "riftbound-pdftext")
    assert rg.rule("200.1").text.endswith("Another rule.")
    assert "The same id printed twice" in rg.rule("102.1.b").text
    assert [d.line for d in rg.edition.diagnostics if "printed again" in d.message] == [line]


# ---------------------------------------------------------------------------------------
# The 49 rule citations of the seeds, for the embedded excerpt and the full 1.4 document.

def _seed_citations() -> list[dict[str, str]]:
    with (RIFTBOUND / "seed-citations.tsv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@requires_shared
def test_seed_citations_match_the_embedded_excerpt(excerpt_kb: KnowledgeBase) -> None:
    citations = _seed_citations()
    assert len(citations) == 49
    for c in citations:
        data = excerpt_kb.rule("riftbound", c["rule"], edition="1.4")
        assert fold(data["text"]) == fold(c["seed_text"]), c["rule"]


@requires_shared
def test_seed_citations_match_the_full_document() -> None:
    kb = KnowledgeBase.from_graphs([corpus_graph("riftbound", "1.4")])
    for c in _seed_citations():
        assert fold(kb.rule("riftbound", c["rule"], edition="1.4")["text"]) == fold(c["seed_text"]), c["rule"]


@requires_shared
def test_seed_citations_through_the_cli_on_an_imported_document(own_home: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The full 1.4 imported over the embedded excerpt's 1.4 (in a copy of the session's
    embedded home: the build makes only the imported edition), then every seed citation
    asked of ``rulekb rule`` at once (--json: a list, one answer per number, in order;
    each call opens the home and loads its editions again, about 0.1 s)."""
    monkeypatch.setenv("RULEKB_HOME", str(own_home))
    runner = CliRunner()
    imported = runner.invoke(main, ["import", str(RIFTBOUND / "core-rules-2026-07-16.md"),
                                    "--ruleset", "riftbound", "--edition", "1.4", "--date", "2026-07-16"])
    assert imported.exit_code == 0, imported.output
    citations = _seed_citations()
    result = runner.invoke(main, ["rule", *(c["rule"] for c in citations), "--edition", "1.4", "--json"])
    assert result.exit_code == 0, result.output
    answers = json.loads(result.stdout)
    assert len(answers) == len(citations)
    for c, data in zip(citations, answers):
        assert data["number"] == ".".join(parse_number(c["rule"]))
        assert fold(data["text"]) == fold(c["seed_text"]), c["rule"]
    result = runner.invoke(main, ["stats", "--json"])
    [full] = [e for e in json.loads(result.stdout) if e["ruleset"] == "riftbound" and e["edition"] == "1.4"]
    assert full["partial"] is False and full["rules"] + full["headings"] == 2381


@pytest.mark.parametrize("module", [riftbound_entries, references], ids=lambda m: m.__name__)
def test_doctests(module) -> None:
    result = doctest.testmod(module)
    assert result.attempted and not result.failed
