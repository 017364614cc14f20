"""The Magic: The Gathering Comprehensive Rules reader (format "mtg-text").

Two layers: the real releases in ../shared (exact counts, sampled texts, hierarchy,
references, Glossary, keywords), and small synthetic documents in tests/fixtures/mtg/
(every encoding and line ending the releases have used, and malformed input).

The counts were checked independently of the reader with line regexes over the decoded
files (see ``test_counts_agree_with_a_plain_line_count``). SOURCES.md gives 292/240 "rule
headers": those count each header twice, once in Contents and once in the body; the body
holds 146 and 120.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb.graph import RuleGraph, build_edition
from kb.model import DocumentError
from kb.read import READERS, decode, detect_format, read_document, read_text
from kb.read import mtg_text
from tests.conftest import CORPORA, corpus_graph, requires_shared

FIXTURES = Path(__file__).parent / "fixtures" / "mtg"
MINI = (FIXTURES / "mini-2026.txt").read_text(encoding="utf-8")
MINI_2010 = (FIXTURES / "mini-2010.txt").read_text(encoding="utf-8")
FILES = {"2010-10-01": CORPORA / "mtg" / "comprehensive-rules-2010-10-01.txt",
         "2026-01-16": CORPORA / "mtg" / "comprehensive-rules-2026-01-16.txt"}


def mtg(edition: str) -> RuleGraph:
    return corpus_graph("mtg", edition)


def read_result(edition: str):
    result, fmt = read_document(FILES[edition])
    assert fmt == "mtg-text"
    return result


_RESULTS: dict[str, object] = {}


def cached_result(edition: str):
    if edition not in _RESULTS:
        mtg(edition)  # skips when ../shared is absent
        _RESULTS[edition] = read_result(edition)
    return _RESULTS[edition]


# -- the real releases: counts ------------------------------------------------------------

# edition, chapters, sections, rules (100.1.), subrules (100.1a), examples, glossary, keywords
COUNTS = [
    ("2010-10-01", 9, 120, 782, 988, 204, 444, 108),
    ("2026-01-16", 9, 146, 1157, 1957, 276, 725, 255),
]


@requires_shared
@pytest.mark.parametrize("edition,chapters,sections,rules,subrules,examples,glossary,keywords", COUNTS)
def test_exact_counts(edition: str, chapters: int, sections: int, rules: int, subrules: int,
                      examples: int, glossary: int, keywords: int) -> None:
    ed = mtg(edition).edition
    kinds = [(r.kind, len(r.segments)) for r in ed.rules.values()]
    assert kinds.count(("chapter", 1)) == chapters
    assert kinds.count(("section", 1)) == sections
    assert kinds.count(("rule", 2)) == rules
    assert kinds.count(("rule", 3)) == subrules
    assert len(ed.rules) == chapters + sections + rules + subrules
    assert sum(len(r.examples) for r in ed.rules.values()) == examples
    terms = cached_result(edition).terms
    assert sum(t.kind == "glossary" for t in terms) == glossary
    assert sum(t.kind == "keyword" for t in terms) == keywords


@requires_shared
@pytest.mark.parametrize("edition,chapters,sections,rules,subrules,examples,glossary,keywords", COUNTS)
def test_counts_agree_with_a_plain_line_count(edition: str, chapters: int, sections: int,
                                              rules: int, subrules: int, examples: int,
                                              glossary: int, keywords: int) -> None:
    """Independent of the reader: Contents lists headers but no numbered rules, so
    section headers occur twice in the file and rules once."""
    text = decode(FILES[edition].read_bytes())
    assert len(re.findall(r"(?m)^\d{3}\. \S", text)) == 2 * sections
    assert len(re.findall(r"(?m)^\d{3}\.\d+\.? ", text)) == rules
    assert len(re.findall(r"(?m)^\d{3}\.\d+[a-z]\.? ", text)) == subrules
    assert len(re.findall(r"(?m)^Example: ", text)) == examples


@requires_shared
@pytest.mark.parametrize("edition,title,date,lines", [
    ("2010-10-01", "Magic: The Gathering Comprehensive Rules", "2010-10-01", 5609),
    ("2026-01-16", "Magic: The Gathering Comprehensive Rules", "2026-01-16", 9258),
])
def test_title_date_and_logical_lines(edition: str, title: str, date: str, lines: int) -> None:
    result = cached_result(edition)
    assert (result.title, result.date, result.number_style) == (title, date, "mtg")
    assert decode(FILES[edition].read_bytes()).count("\n") + 1 == lines


# -- the real releases: sampled rules --------------------------------------------------------

# edition, number, line, the exact text
TEXTS = [
    ("2010-10-01", "116.3d", 742,
     "If a player has priority and chooses not to take any actions, that player passes. If any "
     "mana is in that player's mana pool, he or she announces what mana is there. Then the next "
     "player in turn order receives priority."),
    ("2026-01-16", "117.3d", 951,
     "If a player has priority and chooses not to take any actions, that player passes. If any "
     "mana is in that player’s mana pool, they announce what mana is there. Then the next player "
     "in turn order receives priority."),
    # stray dot after the subrule number
    ("2026-01-16", "119.1d", 1054,
     "In a two-player Brawl game, each player’s starting life total is 25. In a multiplayer Brawl "
     "game, each player’s starting life total is 30. See rule 903.12, “Brawl Option.”"),
    ("2010-10-01", "121.1c", 928,
     "If a player has ten or more poison counters, he or she loses the game as a state-based "
     "action. See rule 704."),
    # rules whose dot after the number is missing
    ("2010-10-01", "808.1", 3876,
     "Team vs. Team games are played with two or more teams. Each team may have any number of "
     "players on it."),
    ("2026-01-16", "606.5", 2708,
     "If the total cost to activate a loyalty ability contains multiple costs to add or remove "
     "loyalty counters, those costs are combined into a single cost to add or remove loyalty "
     "counters, as appropriate."),
    # underscores: italics markup in 2010 (dropped), literal blanks in 2026 (kept)
    ("2010-10-01", "100.1", 168,
     "These Magic rules apply to any Magic game with two or more players, including two-player "
     "games and multiplayer games."),
    ("2026-01-16", "702.2", 3870, "Deathtouch"),
]


@requires_shared
@pytest.mark.parametrize("edition,number,line,text", TEXTS)
def test_sampled_rule_text(edition: str, number: str, line: int, text: str) -> None:
    rule = mtg(edition).rule(number)
    assert (rule.kind, rule.text, rule.line) == ("rule", text, line)


@requires_shared
@pytest.mark.parametrize("edition,number,kind,title", [
    ("2010-10-01", "1", "chapter", "Game Concepts"),
    ("2010-10-01", "116", "section", "Timing and Priority"),
    ("2010-10-01", "101", "section", "The Magic Golden Rules"),
    ("2026-01-16", "117", "section", "Timing and Priority"),
    ("2026-01-16", "8", "chapter", "Multiplayer Rules"),
    ("2026-01-16", "905", "section", "Conspiracy Draft"),
])
def test_headings(edition: str, number: str, kind: str, title: str) -> None:
    rule = mtg(edition).rule(number)
    assert (rule.kind, rule.title, rule.text) == (kind, title, "")


@requires_shared
@pytest.mark.parametrize("edition,number,ancestors", [
    ("2026-01-16", "117.3d", ["1", "117", "117.3"]),
    ("2010-10-01", "116.3d", ["1", "116", "116.3"]),
    ("2026-01-16", "702.189a", ["7", "702", "702.189"]),
    ("2026-01-16", "117", ["1"]),
])
def test_hierarchy(edition: str, number: str, ancestors: list[str]) -> None:
    g = mtg(edition)
    assert g.ancestors(number) == ancestors
    assert number in g.rule(ancestors[-1]).children


@requires_shared
@pytest.mark.parametrize("edition,number,count,first", [
    ("2010-10-01", "204.4b", 1, "An ability reads, \"All lands are 1/1 creatures"),
    ("2026-01-16", "509.1b", 1, "An attacking creature with flying and shadow"),
    ("2026-01-16", "606.5", 1, "A player controls Carth the Lion"),
])
def test_examples_belong_to_the_rule_above(edition: str, number: str, count: int, first: str) -> None:
    rule = mtg(edition).rule(number)
    assert len(rule.examples) == count
    assert rule.examples[0].startswith(first)
    assert "Example" not in rule.text


# edition, number, paragraphs, start of the continuation paragraph
CONTINUATIONS = [
    ("2026-01-16", "205.4c", 2, "Cards printed in sets prior to the Eighth Edition"),
    ("2026-01-16", "509.1b", 2, "A restriction may be created by an evasion ability"),
    ("2010-10-01", "204.3h", 2, "Of that list, Forest, Island, Mountain, Plains, and Swamp"),
    ("2010-10-01", "204.3i", 2, "If two or more planeswalkers that share a planeswalker type"),
    ("2010-10-01", "204.4c", 2, "Cards printed in sets prior to the Eighth Edition"),
    ("2010-10-01", "509.1b", 2, "A restriction may be created by an evasion ability"),
    ("2010-10-01", "810.7b", 3, "Any characteristic-defining ability that refers"),
]


@requires_shared
@pytest.mark.parametrize("edition,number,paragraphs,start", CONTINUATIONS)
def test_indented_paragraphs_continue_the_rule(edition: str, number: str, paragraphs: int,
                                               start: str) -> None:
    text = mtg(edition).rule(number).text
    assert len(text.split("\n")) == paragraphs
    assert text.split("\n")[1].startswith(start)


@requires_shared
@pytest.mark.parametrize("edition", ["2010-10-01", "2026-01-16"])
def test_contents_credits_and_trademarks_are_not_rules(edition: str) -> None:
    ed = mtg(edition).edition
    numbers = list(ed.rules)
    assert numbers[0] == "1" and numbers[1] == "100"
    assert ed.rules[numbers[-1]].segments[0] in ("904", "905")
    for rule in ed.rules.values():
        assert "Richard Garfield" not in rule.text and "Wizards of the Coast LLC" not in rule.text
    last_text = ed.rules[numbers[-1]].text + "".join(ed.rules[numbers[-1]].examples)
    assert "Glossary" not in last_text and "Credits" not in last_text


@requires_shared
def test_italics_are_markup_only_before_2014() -> None:
    assert not any("_" in r.text + r.title + "".join(r.examples)
                   for r in mtg("2010-10-01").edition.rules.values())
    assert not any("_" in t.name + t.definition for t in cached_result("2010-10-01").terms)
    assert "“Wolf in ________ Clothing,”" in mtg("2026-01-16").rule("123.6a").text


# -- the real releases: references -------------------------------------------------------------

@requires_shared
@pytest.mark.parametrize("edition,total", [("2010-10-01", 586), ("2026-01-16", 1051)])
def test_every_reference_resolves(edition: str, total: int) -> None:
    refs = mtg(edition).edition.references
    assert len(refs) == total
    assert [(r.source, r.text) for r in refs if not r.resolved] == []


# edition, citing rule, the phrase as found, its targets
REFERENCE_FORMS = [
    ("2026-01-16", "100.2c", "rule 903", ["903"]),                       # See rule 903, “Commander,”
    ("2026-01-16", "100.4a", "rule 100.2a", ["100.2a"]),                 # (see rule 100.2a)
    ("2026-01-16", "100.1b", "section 8", ["8"]),                        # section N is a chapter
    ("2026-01-16", "109.4b", "rules 603.7d–f", ["603.7d", "603.7e", "603.7f"]),
    ("2026-01-16", "613.10", "rules 613.7 and 613.8", ["613.7", "613.8"]),
    ("2026-01-16", "701.12c", "rules 119.7–8", ["119.7", "119.8"]),   # a number range
    ("2026-01-16", "701.28a", "rules 701.27a–f, 712.9–10, and 712.18",
     ["701.27a", "701.27b", "701.27c", "701.27d", "701.27e", "701.27f", "712.9", "712.10", "712.18"]),
    ("2026-01-16", "608.3g", "rules 702.109, “Dash,” 702.152, “Blitz,” and 702.185",
     ["702.109", "702.152", "702.185"]),                                 # a list with titles
    ("2026-01-16", "702.103a", "601.2b and 601.2f–h", ["601.2b", "601.2f", "601.2g", "601.2h"]),
    ("2026-01-16", "101.4b", "101.4a", ["101.4a"]),                      # "as specified in 101.4a"
    ("2026-01-16", "702.160a", "718", ["718"]),                          # See 718, “Prototype Cards.”
    ("2026-01-16", "608.2", "rules 608.2c–m",                            # letters skip l
     ["608.2c", "608.2d", "608.2e", "608.2f", "608.2g", "608.2h", "608.2i", "608.2j", "608.2k",
      "608.2m"]),
    ("2010-10-01", "601.2h", "601.2a-g",
     ["601.2a", "601.2b", "601.2c", "601.2d", "601.2e", "601.2f", "601.2g"]),
    ("2010-10-01", "100.1b", "section 8", ["8"]),
]


@requires_shared
@pytest.mark.parametrize("edition,number,text,targets", REFERENCE_FORMS)
def test_reference_forms(edition: str, number: str, text: str, targets: list[str]) -> None:
    g = mtg(edition)
    found = [r for r in g.edition.references if r.source == number and r.text == text]
    assert found, [r.text for r in g.edition.references if r.source == number]
    assert found[0].targets == targets and found[0].resolved
    assert set(targets) - {number} <= set(g.references(number))


# -- the real releases: Glossary and keywords ------------------------------------------------

# edition, term key, kind, name as printed, first cited rule(s)
TERMS = [
    ("2026-01-16", "ability", "glossary", "Ability", ["113", "6"]),
    ("2010-10-01", "ability", "glossary", "Ability", ["112", "6"]),
    ("2026-01-16", "casting cost", "glossary", "Casting Cost (Obsolete)", []),
    ("2026-01-16", "deathtouch", "keyword", "Deathtouch", ["702.2"]),
    ("2026-01-16", "tap and untap", "keyword", "Tap and Untap", ["701.26"]),
    ("2026-01-16", "start your engines!", "keyword", "Start Your Engines!", ["702.179"]),
    ("2010-10-01", "infect", "keyword", "Infect", ["702.87"]),
    ("2026-01-16", "casualty", "keyword", "Casualty", ["702.153"]),     # "See 702.153, …"
    ("2026-01-16", "forestwalk", "glossary", "Forestwalk", ["702.14"]),  # "See Landwalk."
    ("2026-01-16", "zone", "glossary", "Zone", ["4"]),                  # See section 4
]


@requires_shared
@pytest.mark.parametrize("edition,key,kind,name,rules", TERMS)
def test_terms_link_to_their_rules(edition: str, key: str, kind: str, name: str,
                                   rules: list[str]) -> None:
    term = mtg(edition).edition.terms[key]
    assert (term.kind, term.name) == (kind, name)
    assert term.defined_by[: len(rules)] == rules
    for number in rules:
        assert ("term:" + key) in mtg(edition).graph.successors(number)


@requires_shared
def test_glossary_entries_keep_their_senses() -> None:
    entry = next(t for t in cached_result("2026-01-16").terms if t.name == "Ability")
    assert entry.definition.split("\n")[0] == "1. Text on an object that explains what that object does or can do."
    assert entry.definition.split("\n")[-1].startswith("See rule 113, “Abilities,” and section 6")
    assert entry.line == 7007


@requires_shared
@pytest.mark.parametrize("edition,warnings", [
    ("2010-10-01", []),
    # The Glossary's "Map" entry cites 110.10 for predefined tokens; the 2026 document has
    # them at 111.10 (110 is Permanents): a stale citation the document itself gets wrong.
    ("2026-01-16", ["unresolved reference 'rule 110.10' in the Glossary entry 'Map'"]),
])
def test_glossary_citations_resolve_except_known_document_errors(edition: str, warnings: list[str]) -> None:
    result = cached_result(edition)
    assert [d.message for d in result.diagnostics] == warnings
    numbers = set(mtg(edition).edition.rules)
    for term in result.terms:
        assert set(term.rules) <= numbers, term.name


# -- detection --------------------------------------------------------------------------------

@requires_shared
@pytest.mark.parametrize("edition", ["2010-10-01", "2026-01-16"])
def test_detects_the_releases(edition: str) -> None:
    assert detect_format(decode(FILES[edition].read_bytes())) == "mtg-text"


@requires_shared
@pytest.mark.parametrize("path", sorted((CORPORA / "riftbound").glob("*.md")), ids=lambda p: p.name)
def test_riftbound_documents_are_not_mtg(path: Path) -> None:
    text = decode(path.read_bytes())
    assert mtg_text.sniff(text) == 0
    try:
        assert detect_format(text) != "mtg-text"
    except DocumentError:
        pass  # no reader claims it yet: still not mtg-text


def test_detects_the_fixtures() -> None:
    assert detect_format(MINI) == detect_format(MINI_2010) == "mtg-text"
    assert READERS["mtg-text"] is mtg_text


# -- synthetic documents: structure ----------------------------------------------------------

def build(text: str, source: str = "doc.txt") -> RuleGraph:
    return build_edition(read_text(text, source), ruleset="mtg", edition="x", source=source)


def summary(g: RuleGraph, terms) -> tuple:
    """Everything a reader decides, in a comparable form."""
    rules = [(n, r.kind, r.title, r.text, tuple(r.examples), r.line, r.parent)
             for n, r in g.edition.rules.items()]
    return (g.edition.title, g.edition.date, tuple(rules),
            tuple((t.name, t.kind, t.definition, tuple(t.rules), t.line) for t in terms),
            tuple((r.source, r.text, tuple(r.targets), r.resolved) for r in g.edition.references))


def test_fixture_structure() -> None:
    result = read_text(MINI, "mini")
    g = build(MINI)
    ed = g.edition
    assert (ed.title, ed.date, result.number_style) == (
        "Magic: The Gathering Comprehensive Rules", "2026-01-16", "mtg")
    assert [n for n, r in ed.rules.items() if r.kind != "rule"] == ["1", "100", "101", "7", "700", "701", "702"]
    assert len(ed.rules) == 25
    assert ed.rules["101.1b"].text == "The stray dot after this subrule number is ignored."
    assert ed.rules["101.2"].text == "This rule has lost the dot after its number."
    assert ed.rules["101.2a"].text.split("\n") == [
        "Card names may hold blanks, such as “Wolf in ________ Clothing”; those underscores are text.",
        "An indented paragraph without a number continues the rule above it."]
    assert ed.rules["101.2a"].examples == ["The example follows the continuation paragraph.",
                                           "A second example belongs to the same subrule."]
    assert ed.rules["100.2"].examples == ["A player uses a sixty-card deck."]
    assert g.ancestors("101.1b") == ["1", "101", "101.1"]
    refs = [(r.source, r.text, r.targets) for r in ed.references]
    assert refs == [("100.1", "section 7", ["7"]), ("101.1", "rule 100.2", ["100.2"]),
                    ("101.1a", "rules 100.1a–b", ["100.1a", "100.1b"]),
                    ("700.1", "rules 701.2 and 702.2", ["701.2", "702.2"]),
                    ("700.1", "701.2a", ["701.2a"])]
    terms = [(t.name, t.kind, t.rules) for t in result.terms]
    assert terms == [("Tap and Untap", "keyword", ["701.2"]), ("Deathtouch", "keyword", ["702.2"]),
                     ("For Glory!", "keyword", ["702.3"]), ("Deathtouch", "glossary", ["702.2"]),
                     ("Priority", "glossary", ["101.1", "101"]), ("Tap", "glossary", ["701.2"]),
                     ("Tapper", "glossary", ["701.2"]), ("Casting Cost (Obsolete)", "glossary", [])]
    assert ed.terms["casting cost"].name == "Casting Cost (Obsolete)"
    assert ed.terms["deathtouch"].kind == "keyword"
    assert ed.terms["deathtouch"].definition.startswith("A keyword ability that makes any damage lethal.")
    assert not result.diagnostics


def test_body_without_chapter_headings_starts_at_its_first_section() -> None:
    """Contents lists chapters too: the body starts at the headings right above the first
    rule, never back in the Contents."""
    text = MINI.replace("Credits\n\n1. Game Concepts\n\n", "Credits\n\n", 1)
    text = text.replace("7. Additional Rules\n\n700.", "700.", 1)
    g = build(text)
    assert list(g.edition.rules)[:2] == ["100", "100.1"]
    assert g.ancestors("101.1b") == ["101", "101.1"]


def test_fixture_2010_italics_and_hyphen_ranges() -> None:
    g = build(MINI_2010)
    ed = g.edition
    assert (ed.title, ed.date) == ("Magic: The Gathering Comprehensive Rules", "2010-10-01")
    assert ed.rules["100.1"].text == ("These Magic rules apply to any Magic game. "
                                      "See the Magic: The Gathering Tournament Rules.")
    assert ed.rules["100.2"].text.split("\n")[1] == ("Of that list, only basic lands are affected. "
                                                     "See rule 100.1.")
    assert [(r.text, r.targets) for r in ed.references if r.source == "100.1b"] == [
        ("rules 100.1a-b", ["100.1a", "100.1b"]), ("section 1", ["1"])]
    assert ed.terms["magic"].definition == 'The Magic: The Gathering game. See rule 100, "General."'
    assert "1-425-204-8069" not in "".join(r.text for r in ed.rules.values())


# -- synthetic documents: encodings and line endings -------------------------------------------

def _endings(text: str, eol: str) -> str:
    return text.replace("\n", eol)


ENCODINGS = [
    ("utf-8 LF", lambda t: t.encode("utf-8")),
    ("utf-8 CRLF", lambda t: _endings(t, "\r\n").encode("utf-8")),
    ("utf-8 CR", lambda t: _endings(t, "\r").encode("utf-8")),
    ("utf-8 BOM CR (2019 on)", lambda t: codecs.BOM_UTF8 + _endings(t, "\r").encode("utf-8")),
    ("utf-8 BOM CR, a few CRLF", lambda t: codecs.BOM_UTF8 + _endings(t, "\r").replace(
        "\r\r", "\r\n\r", 3).encode("utf-8")),
    ("utf-16 LE BOM CRLF", lambda t: codecs.BOM_UTF16_LE + _endings(t, "\r\n").encode("utf-16-le")),
    ("utf-16 BE BOM CRLF", lambda t: codecs.BOM_UTF16_BE + _endings(t, "\r\n").encode("utf-16-be")),
    ("utf-16 LE no BOM", lambda t: _endings(t, "\r\n").encode("utf-16-le")),
    ("utf-16 BE no BOM", lambda t: t.encode("utf-16-be")),
    ("cp1252 CRLF (2014-2018)", lambda t: _endings(t, "\r\n").encode("cp1252")),
    ("cp1252 CR", lambda t: _endings(t, "\r").encode("cp1252")),
]


@pytest.mark.parametrize("name,encode", ENCODINGS, ids=[e[0] for e in ENCODINGS])
@pytest.mark.parametrize("fixture", ["mini-2026.txt", "mini-2010.txt"])
def test_every_encoding_reads_identically(tmp_path: Path, fixture: str, name: str, encode) -> None:
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    expected_result = read_text(text, "doc.txt")
    expected = summary(build(text), expected_result.terms)
    path = tmp_path / "doc.txt"
    path.write_bytes(encode(text))
    result, fmt = read_document(path)
    assert fmt == "mtg-text"
    got = summary(build_edition(result, ruleset="mtg", edition="x"), result.terms)
    assert got == expected


def test_reader_accepts_undecoded_line_endings_and_bom() -> None:
    """``read`` also copes with text that did not go through ``decode``."""
    raw = "\ufeff" + MINI.replace("\n", "\r")
    assert summary(build(raw), read_text(raw).terms) == summary(build(MINI), read_text(MINI).terms)


# -- malformed input ------------------------------------------------------------------------------

def _replace_line(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


# name, bytes of the file, line of the first error, words of its reason
MALFORMED = [
    ("empty file", b"", 0, "empty"),
    ("blank file", b"\r\n\r\n  \r\n", 0, "empty"),
    ("binary garbage", bytes(range(256)) * 8, 1, "binary"),
    # 1,001 bytes: the BOM and 499½ characters, the last one on line 28
    ("truncated UTF-16", (codecs.BOM_UTF16_LE + MINI.encode("utf-16-le"))[:1001], 28, "truncated"),
    ("bad bytes after a UTF-8 BOM", codecs.BOM_UTF8 + MINI[:200].encode() + b"\xff\xfe" + MINI[200:].encode(),
     7, "byte-order mark"),
    ("no rules at all", b"Magic: The Gathering Comprehensive Rules\n\nIntroduction\n\nHello.\n", 1,
     "no numbered rules"),
]


@pytest.mark.parametrize("name,data,line,reason", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_documents_are_refused_with_a_place(tmp_path: Path, name: str, data: bytes,
                                                      line: int, reason: str) -> None:
    path = tmp_path / "broken.txt"
    path.write_bytes(data)
    with pytest.raises(DocumentError) as caught:
        result, _ = read_document(path, "mtg-text")
        build_edition(result, ruleset="mtg", edition="x", source=str(path))
    first = caught.value.diagnostics[0]
    assert first.file == str(path)
    assert first.line == line
    assert reason in first.message


# A rules document with a publisher's slip is read, the slip reported where it is (issue #19;
# these four were refused before): name, text, line of the note, words of the note, the
# numbers read around the slip.
COPED = [
    ("truncated in the rules", MINI[: MINI.index("101.2 This")], 45, "ends before its Glossary",
     ["101.1b"]),
    ("truncated in the Glossary", MINI[: MINI.index("Tapper")], 93, "Glossary runs to the end",
     ["101.1b"]),
    ("number printed twice", _replace_line(MINI, "101.1b. The", "101.1a The"), 43,
     "101.1a is printed twice; read as 101.1b", ["101.1", "101.1a", "101.1b"]),
    ("subrule without its rule", _replace_line(MINI, "101.1. A player", "Example: A player"), 41,
     "printed without its parent 101.1; 101.1 is kept as an empty rule", ["101.1", "101.1a"]),
    ("section in the wrong chapter", _replace_line(MINI, "701. Keyword Actions\n\n", "301. Keyword Actions\n\n"),
     60, "section printed as 301. is read as 701", ["701", "701.1", "701.2a"]),
]


@pytest.mark.parametrize("name,text,line,note,numbers", COPED, ids=[c[0] for c in COPED])
def test_documents_with_a_slip_are_read_and_the_slip_reported(name: str, text: str, line: int,
                                                                note: str, numbers: list[str]) -> None:
    result = read_text(text, "slip.txt")
    ed = build_edition(result, ruleset="mtg", edition="x", source="slip.txt").edition
    notes = [d for d in result.diagnostics if note in d.message]
    assert [(d.file, d.line, d.severity) for d in notes] == [("slip.txt", line, "warning")]
    assert all(n in ed.rules for n in numbers)


@settings(max_examples=60, deadline=2000, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["drop", "repeat", "indent", "cut"]),
                          st.integers(min_value=0, max_value=200)), min_size=1, max_size=6))
def test_edited_documents_are_read_or_refused_with_a_place(edits: list[tuple[str, int]]) -> None:
    """Lines dropped, repeated, indented or the file cut anywhere: the document reads, or
    is refused with a DocumentError naming the file and a line, never another exception."""
    lines = MINI.split("\n")
    for op, at in edits:
        i = at % len(lines)
        if op == "drop":
            del lines[i]
        elif op == "repeat":
            lines.insert(i, lines[i])
        elif op == "indent":
            lines[i] = "     " + lines[i]
        else:
            lines = lines[:i]
        if not lines:
            lines = [""]
    text = "\n".join(lines)
    try:
        build(text, "edited.txt")
    except DocumentError as err:
        assert err.diagnostics
        assert all(d.file == "edited.txt" and d.message for d in err.diagnostics)
        assert all(d.line > 0 for d in err.diagnostics), err
