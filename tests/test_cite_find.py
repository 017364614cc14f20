"""Finding rule citations in article text: every form, with its canonical numbers, and the
near misses that must stay text."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kb import references
from kb.cite import find, find_citations
from kb.numbers import parse_number

# (text, the numbers cited in document order, segments joined by dots)
FORMS: list[tuple[str, list[str]]] = [
    ("Rule 337.1.a", ["337.1.a"]),
    ("rule 349", ["349"]),
    ("as rule 349 says", ["349"]),
    ("RULE 337.1", ["337.1"]),
    ("Rules 337–340", ["337", "338", "339", "340"]),
    ("rules 337-340", ["337", "338", "339", "340"]),
    ("rules 337 – 339", ["337", "338", "339"]),
    ("rules 337.1 and 337.4", ["337.1", "337.4"]),
    ("rules 337.1, 337.2, and 337.4", ["337.1", "337.2", "337.4"]),
    ("rules 337.1 or 338", ["337.1", "338"]),
    ("rule 337.1a", ["337.1.a"]),
    ("(see rule 338.1a.7)", ["338.1.a.7"]),
    ("rule 464.2.c.1.a.", ["464.2.c.1.a"]),
    ("rule 337.10", ["337.10"]),
    ("CR 116.3d", ["116.3.d"]),
    ("priority [CR 116.1].", ["116.1"]),
    ("[CR 116.2] [CR 116.2a]", ["116.2", "116.2.a"]),
    ("Comprehensive Rules 116.1", ["116.1"]),
    ("rules 601.2a–f", ["601.2.a", "601.2.b", "601.2.c", "601.2.d", "601.2.e", "601.2.f"]),
    ("rules 119.7–8", ["119.7", "119.8"]),
    ("rules 337.1–337.4", ["337.1", "337.2", "337.3", "337.4"]),
    ("rules 702.19 through 702.21", ["702.19", "702.20", "702.21"]),
    ("rules 337.1–338.2", ["337.1", "338.2"]),
    ("See rule 349. Playing Cards for more information.", ["349"]),
    ("rule\n337.1", ["337.1"]),
    ("rule\u00a0337.1", ["337.1"]),
    ("rules 337 and 3 players", ["337"]),
    ("Rule 312 and rule 313.", ["312", "313"]),
    ("Core Rules 337.1 says", ["337.1"]),
    # Without a keyword: a rule-shaped number alone in parentheses, or after "See also".
    ("(337.1a)", ["337.1.a"]),
    ("passes priority (337.1a).", ["337.1.a"]),
    ("(337.1.a)", ["337.1.a"]),
    ("( 116.3d )", ["116.3.d"]),
    ("(see 601.2b and 601.2f–h)", ["601.2.b", "601.2.f", "601.2.g", "601.2.h"]),
    ("(See also 116.3d)", ["116.3.d"]),
    ("(338.1a.7)", ["338.1.a.7"]),
    ("(464.2.c.1.a)", ["464.2.c.1.a"]),
    ("(601.2a–f)", ["601.2.a", "601.2.b", "601.2.c", "601.2.d", "601.2.e", "601.2.f"]),
    ("See also 337.1a", ["337.1.a"]),
    ("see also 337.1.a.", ["337.1.a"]),
    ("See also 116.3d and 116.4.", ["116.3.d", "116.4"]),
    ("See also\n337.1a", ["337.1.a"]),
    ("See also 349. Playing Cards", ["349"]),
    ("See also 349", ["349"]),
    ("See also 205 for more information", ["205"]),
    ("See also rule 337.1a", ["337.1.a"]),
    ("(rule 337.1a; see also 338.2)", ["337.1.a", "338.2"]),
    ("rule 312 (337.1a)", ["312", "337.1.a"]),
    # A footnote's marker before the keyword (the seeds' footnotes: "¹Rule 312.").
    ("\u00b9Rule 312.", ["312"]),
    ("\u00b2Rule 333.1.", ["333.1"]),
    ("\u2074Rules 337\u2013340", ["337", "338", "339", "340"]),
    ("\u2075RULE 337.1", ["337.1"]),
    ("\u00b3CR 116.3d", ["116.3.d"]),
    ("\u2081rule 349", ["349"]),
    ("text.\u00b9\u2070Rule 337.4. More.", ["337.4"]),
    ("\u00b9See also 337.1a", ["337.1.a"]),
]

# Text that looks like a number near "rule" or elsewhere, and is not a citation.
NEAR_MISSES: list[str] = [
    "Last Updated: 2026-07-16",
    "the rules 2026-07-16 update",
    "on 16/07/2026",
    "it costs $3.37",
    "it costs 3,37 €",
    "version 1.4",
    "v1.4",
    "rules v1.4",
    "Riftbound Core Rules 1.4 is out",
    "Tournament Rules 2.0",
    "page 337",
    "pages 337–340",
    "at 10:30",
    "the rule 10:30 curfew",
    "the rules 12/05 update",
    "337.1a",
    "ruled 337 times",
    "overrule 337",
    "rules of 3",
    "ACR 116.1",
    "XCR 116.1",
    "127.0.0.1",
    "1.4.2",
    "rule 1.1.1.1.1.1.1.1.1.1",
    "section 337",
    "`rule` 337",
    # Parentheses and "See also" without a rule-shaped number.
    "(2)",
    "(337)",
    "(1.5×)",
    "(1.5)",
    "(10:30)",
    "(v1.4)",
    "(1.4.2)",
    "(2026-07-16)",
    "(16.07.2026)",
    "(2026.07.16)",
    "(127.0.0.1)",
    "(100.2.3)",
    "(100.0)",
    "($337.10)",
    "(337.1 ml of water)",
    "(about 337.1a)",
    "t(234.6)",
    "See also 100 cards",
    "See also 2.5",
    "See also 2026-07-16",
    "See also v1.4",
    "also 337.1a",
    "oversee also 337.1a",
    "2Rule 312",
    "\u00bdRule 312",
    "x\u00b9yRule 312",
]


@pytest.mark.parametrize("text,expected", FORMS, ids=[t for t, _ in FORMS])
def test_forms(text: str, expected: list[str]) -> None:
    found = find_citations(text)
    assert [".".join(n) for c in found for n in c.numbers] == expected
    for c in found:
        assert text[c.start:c.end] == c.text
        assert c.full_start <= c.start < c.end <= c.full_end


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses(text: str) -> None:
    assert find_citations(text) == []


@pytest.mark.parametrize("text,linked,form", [
    ("Rule 337.1.a applies", "Rule 337.1.a", "rule"),
    ("see rules 337.1 and 337.4", "rules 337.1", "rule"),
    ("pass it [CR 116.3d].", "CR 116.3d", "bracket"),
    ("CR 116.3d says", "CR 116.3d", "cr"),
])
def test_first_span_includes_the_keyword(text: str, linked: str, form: str) -> None:
    first = find_citations(text)[0]
    assert (first.text, first.form) == (linked, form)


def test_later_items_of_a_list_link_the_number_alone() -> None:
    text = "rules 337.1 and 337.4"
    assert [c.text for c in find_citations(text)] == ["rules 337.1", "337.4"]


def test_brackets_are_in_the_full_span_only() -> None:
    text = "priority [CR 116.1]."
    c = find_citations(text)[0]
    assert text[c.full_start:c.full_end] == "[CR 116.1]"
    assert text[c.start:c.end] == "CR 116.1"


@pytest.mark.parametrize("text,linked,full", [
    ("priority (337.1a).", "337.1a", "(337.1a)"),
    ("See also 337.1a.", "337.1a", "337.1a"),
    ("(see 337.1a)", "337.1a", "(see 337.1a)"),
])
def test_a_bare_citation_links_the_number_and_its_parentheses_are_its_own(
        text: str, linked: str, full: str) -> None:
    (c,) = find_citations(text)
    assert (c.text, text[c.full_start:c.full_end], c.form) == (linked, full, "bare")


def test_a_quotation_next_to_a_bare_citation_is_kept() -> None:
    (c,) = find_citations('"Pass." (116.3d)')
    assert c.quote is not None and c.quote.text == "Pass."


def test_bare_citations_count_towards_the_limit_in_document_order() -> None:
    text = "(337.1a) rule 312 (337.2) rule 313 (337.3)"
    assert [c.text for c in find_citations(text, limit=3)] == ["337.1a", "rule 312", "337.2"]
    assert [c.text for c in find_citations(text, limit=1)] == ["337.1a"]


def test_a_range_is_one_citation_with_both_ends() -> None:
    (c,) = find_citations("rules 601.2a–f")
    assert (c.number, c.last, c.is_range) == (("601", "2", "a"), ("601", "2", "f"), True)


def test_segments_compare_as_numbers() -> None:
    (a,), (b,) = find_citations("rule 337.1"), find_citations("rule 337.10")
    assert a.number != b.number and b.number == parse_number("337.10")


@pytest.mark.parametrize("text,quote", [
    ('"At any given time, up to one player has Priority." (rule 312)',
     "At any given time, up to one player has Priority."),
    ("Rule 312 says: “At any given time.”", "At any given time."),
    ('rule 312 reads "Priority"', "Priority"),
    ('"Pass." [CR 116.3d]', "Pass."),
    ('See rule 312. "Something else" follows.', None),
    ('"One."\n\n(rule 312)', None),
])
def test_quotations_next_to_a_citation(text: str, quote: str | None) -> None:
    c = find_citations(text)[0]
    assert (c.quote.text if c.quote else None) == quote


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    list("0123456789.-–, abcfz[]()\"“”\n:/") + ["rule ", "Rules ", "CR ", " and ", " through ", "¹",
                                                  "See also ", "(see ", "337.1"]),
    max_size=200).map("".join))
def test_the_finder_never_raises_and_spans_stay_in_the_text(text: str) -> None:
    found = find_citations(text)
    assert len(found) <= len(text) // 4 + 1
    last_end = 0
    for c in found:
        assert 0 <= c.full_start <= c.start < c.end <= c.full_end <= len(text)
        assert text[c.start:c.end] == c.text
        assert c.start >= last_end  # in document order, never overlapping
        last_end = c.end
        assert 1 <= len(c.numbers) <= 61 and all(len(n) <= 8 for n in c.numbers)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=300))
def test_the_finder_never_raises_on_any_text(text: str) -> None:
    for c in find_citations(text):
        assert text[c.start:c.end] == c.text


# (text, the citation's fields that the fast path of a one-number phrase fills, as found)
ONE_NUMBER_PHRASES: list[tuple[str, tuple[int, int, str, str, int, int]]] = [
    ("see rule 337.1a.", (4, 15, "rule 337.1a", "rule", 4, 15)),
    ("CR 116.3d", (0, 9, "CR 116.3d", "cr", 0, 9)),
    ("as [CR 116.1] says", (4, 12, "CR 116.1", "bracket", 3, 13)),
    ("Rules 337–339 then", (0, 13, "Rules 337–339", "rule", 0, 13)),
]


@pytest.mark.parametrize("text,expected", ONE_NUMBER_PHRASES)
def test_a_one_number_phrase_is_found_with_its_spans_and_form(
        text: str, expected: tuple[int, int, str, str, int, int]) -> None:
    [c] = find_citations(text)
    assert (c.start, c.end, c.text, c.form, c.full_start, c.full_end) == expected


def test_a_citation_is_an_immutable_hashable_value() -> None:
    first, again = find_citations("rule 337.1a"), find_citations("rule 337.1a")
    assert first == again and hash(first[0]) == hash(again[0])
    with pytest.raises(AttributeError):
        first[0].start = 3  # type: ignore[misc]
    quoted = find_citations('rule 312 says "At any given time"')[0]
    assert quoted.quote is not None and quoted.quote.text == "At any given time"
    assert quoted._replace(quote=None).quote is None and quoted.quote is not None


def _phrases_by_the_grammar_alone(text: str) -> list[tuple[object, ...]]:
    """What phrase_matches finds, by the slow definition: the keyword-phrase grammar tried
    at every character, left to right, a phrase found skipping past its end."""
    found, pos = [], 0
    while pos < len(text):
        m = references._MENTION.match(text, pos)
        if m is None:
            pos += 1
            continue
        found.append((m.start(), m.end(), *m.groups(), m.start("list")))
        pos = m.end()
    return found


# Pieces that make keywords, near keywords and lists run into each other.
PHRASE_PIECES = ["rule", "Rule", "RULE", "rules ", "Rules", "RULES", "CR", "Section", "section",
                 "sections", "ule", "ULE", "ection", "_", "é", "²", "₃", " ", "\n", "\u00a0", "1", "23", "100",
                 ".", "a", "–", "-", ",", " and ", " or ", " through ", "“T,” ", '"x," ', "(", "R", "s", "x",
                 " says", "and", "or", "through", "\t", "  "]


# A keyword, a space and a list of numbers: phrases that run on, overlap and nest.
PHRASES = st.tuples(st.sampled_from(["rules ", "Rule ", "RULES ", "sections ", "CR ", "rule\n"]),
                    st.lists(st.sampled_from(["1", "23", "100.2a", "7–9"]), min_size=1, max_size=4),
                    st.sampled_from([", ", " and ", " or ", ", “rule 5,” ", " through "])
                    ).map(lambda p: p[0] + p[2].join(p[1]))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PHRASE_PIECES), PHRASES), max_size=30).map("".join))
def test_the_keyword_scan_finds_what_the_grammar_finds_everywhere(text: str) -> None:
    assert list(references.phrase_matches(text)) == _phrases_by_the_grammar_alone(text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PHRASE_PIECES), PHRASES), max_size=30).map("".join),
       st.sampled_from([None, 1, 2, 5]))
def test_the_rule_keyword_path_finds_what_the_whole_grammar_finds(text: str, limit: int | None) -> None:
    """A text whose only keywords are "rule(s)"/"Rule(s)" is read by the keyword and first
    number alone where nothing continues the phrase: the same citations as every phrase
    of phrase_matches read by the whole grammar."""
    if references.other_keywords(text):
        text = text.replace("C", "c").replace("U", "u").replace("ection", "ecti0n")
    assert not references.other_keywords(text)
    found, cut_short = find._rule_citations(text, limit)
    assert found == find._keyword_citations(text, references.phrase_matches(text), limit)
    # Told no number was cut short, find_citations skips _read_whole: it must change nothing.
    assert cut_short or find._read_whole(text, found) == found


@pytest.mark.parametrize("text", [
    "rules 312, 313 and 314", "Rules 1.4 of the tournament", "Core Rules 1.4", "rule 312–315",
    "rule 601.2a–f then rule 602", "rule 312: 10:30", "rules 702.109, “rule 5,” and 702.152",
    "rule 312 through 315", "rule 312 ,313", "rule 312\u00a0and 313", "rule 312.", "rule 312",
    "¹Rule 312. At any given time", "rule 312-", "rules 312 or", "rule 3/4",
    # whitespace after the number that starts no range or list: the keyword and number alone
    "rule 601.2 says", "Rules 1.4 here", "rule 312 andrew", "rule 312 order", "rule 312 \u2013 315",
    "rule 312\n\u2013315", "rule 312  , 313", "rule 312\tand\t313", "rule 312 through", "rule 312 thorough",
    "rule 312 or 313", "rule 312 and\n313", "rule 312 -315", "rule 312 \u00a0 and 313", "rule 5 x",
])
def test_the_rule_keyword_path_on_phrases_that_continue(text: str) -> None:
    assert not references.other_keywords(text)
    found, cut_short = find._rule_citations(text, None)
    assert found == find._keyword_citations(text, references.phrase_matches(text), None)
    assert cut_short or find._read_whole(text, found) == found


def test_what_follows_a_number_is_told_as_the_grammar_tells_it() -> None:
    """_rule_citations reads the character after a number from one table: whitespace there
    is exactly str.isspace's (every code point checked), a range or list starts at a comma
    or a dash, a letter or digit runs on, a colon or slash may be a time or date."""
    spaces = {chr(i) for i in range(sys.maxunicode + 1) if chr(i).isspace()}
    table = find._AFTER_NUMBER
    assert {ch for ch, kind in table.items() if kind == find._MAY_CONTINUE} == (
        spaces | set(references.PHRASE_CONTINUES))
    assert {ch for ch, kind in table.items() if kind == find._RUNS_INTO} == set(find._GOES_ON)
    assert {ch for ch, kind in table.items() if kind == find._TIME_OR_DATE} == {":", "/"}


@pytest.mark.parametrize("limit,expected", [(0, []), (1, ["rule 312"]), (2, ["rule 312", "rule 313"]),
                                            (None, ["rule 312", "rule 313", "rule 314"])])
def test_the_rule_keyword_path_stops_at_its_limit(limit: int | None, expected: list[str]) -> None:
    found, _ = find._rule_citations("rule 312, then rule 313 and rule 314.", limit)
    assert [c.text for c in found] == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PHRASE_PIECES), max_size=20).map("".join))
def test_other_keywords_is_the_test_of_its_needles(text: str) -> None:
    """other_keywords writes out the tests of kb.references._NEEDLES (no generator per
    paragraph): the same answer as trying each needle in turn."""
    expected = any(letter in text and text.find(needle, back) >= 0
                   for needle, back, letter in references._NEEDLES)
    assert references.other_keywords(text) == expected
    assert references.other_keywords_in_source(text) == expected  # the document's, by patterns


# (text, the citations' texts): where a keyword's number ends inside the run of characters
# numbers are made of, which the finder reads first (kb.references._RULE_HEAD_RUN): an
# upper-case letter after it, four digits, a letter segment then four, another keyword in
# the run, a run longer than any number.
NUMBER_RUNS: list[tuple[str, list[str]]] = [
    ("See rule 5.rule 6.", ["rule 5", "rule 6"]),
    ("rule 337.1A applies", []),
    ("rules 1234 and 5", []),
    ("rule 337.a.1234", ["rule 337"]),
    ("rule 337.1.a.5.", ["rule 337.1.a.5"]),
    ("rule " + "1." * 50 + "x", []),
    ("Rule 602.1b3, then rule 337", ["Rule 602.1b3", "rule 337"]),
    ("rule 337.1ab", []),
    ("Core Rules 1.4 say rule 312.", ["rule 312"]),
]


@pytest.mark.parametrize("text,expected", NUMBER_RUNS, ids=[t[:30] for t, _ in NUMBER_RUNS])
def test_a_number_is_read_where_the_grammar_ends_it_in_its_run(text: str, expected: list[str]) -> None:
    assert [c.text for c in find_citations(text)] == expected
    by_runs = find._rule_heads(text, None, False)
    assert by_runs is None or by_runs == find._rule_heads(text, None, True)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(
    ["rule ", "Rules ", "Core Rules ", "ule", "r", "1", "337", "1234", ".", "a", "c", "A", " ", ",",
     "-", "–", ":", "\n", "s", "é", "١", "and ", '"', "rule 5.rule 6"]), max_size=20).map("".join),
    st.sampled_from([None, 0, 1, 2]))
def test_the_number_runs_read_what_the_grammar_reads(text: str, limit: int | None) -> None:
    by_runs = find._rule_heads(text, limit, False)
    assert by_runs is None or by_runs == find._rule_heads(text, limit, True)
