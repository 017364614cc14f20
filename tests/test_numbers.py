"""Rule numbers: loose forms, canonical styles, segment-wise comparison, ranges."""

import pytest

from kb.numbers import (NumberError, expand_range, format_number, is_within, parse_number,
                        sort_key)

PARSE_CASES = [
    # text, segments
    ("337.1.a", ("337", "1", "a")),
    ("337.1a", ("337", "1", "a")),
    ("rule 337.1.a.", ("337", "1", "a")),
    ("Rule 337.1a", ("337", "1", "a")),
    ("CR 116.3d", ("116", "3", "d")),
    ("[CR 116.1]", ("116", "1")),
    ("116.3d.", ("116", "3", "d")),
    ("119.1d.", ("119", "1", "d")),
    ("464.2.c.1.a", ("464", "2", "c", "1", "a")),
    ("  053.1 ", ("053", "1")),
    ("702.189", ("702", "189")),
    ("8", ("8",)),
    ("rules 337", ("337",)),
    ("337.1.A", ("337", "1", "a")),
]

BAD_NUMBERS = ["", "abc", "337..1", "rule", "337.1.a.b.c.d.e!", "x" * 100, "3371.2.3.4.5", "page 337"]


@pytest.mark.parametrize("text,segments", PARSE_CASES)
def test_loose_forms_parse_to_segments(text: str, segments: tuple[str, ...]) -> None:
    assert parse_number(text) == segments


@pytest.mark.parametrize("text", BAD_NUMBERS)
def test_non_numbers_are_refused_with_a_message(text: str) -> None:
    with pytest.raises(NumberError):
        parse_number(text)


@pytest.mark.parametrize("segments,style,written", [
    (("337", "1", "a"), "dotted", "337.1.a"),
    (("116", "3", "d"), "mtg", "116.3d"),
    (("116", "3"), "mtg", "116.3"),
    (("116",), "mtg", "116"),
    (("464", "2", "c", "1", "a"), "dotted", "464.2.c.1.a"),
])
def test_canonical_styles(segments: tuple[str, ...], style: str, written: str) -> None:
    assert format_number(segments, style) == written  # type: ignore[arg-type]


@pytest.mark.parametrize("ancestor,number,within", [
    ("337.1", "337.10", False),
    ("337.1", "337.1.a", True),
    ("337", "337.1", True),
    ("337.1", "337.1", True),
    ("33", "337", False),
    ("053", "53.1", True),
])
def test_numbers_compare_segment_by_segment(ancestor: str, number: str, within: bool) -> None:
    assert is_within(parse_number(ancestor), parse_number(number)) is within


def test_sort_order_is_numeric() -> None:
    numbers = ["337.10", "337.9", "337.1.b", "337.1", "337.1.a", "338"]
    ordered = sorted(numbers, key=lambda n: sort_key(parse_number(n)))
    assert ordered == ["337.1", "337.1.a", "337.1.b", "337.9", "337.10", "338"]


@pytest.mark.parametrize("first,tail,expected", [
    ("601.2a", "c", ["601.2a", "601.2b", "601.2c"]),
    ("119.7", "8", ["119.7", "119.8"]),
    ("601.2c", "a", []),
    ("119.7", "b", []),
])
def test_ranges_expand(first: str, tail: str, expected: list[str]) -> None:
    got = [format_number(s, "mtg") for s in expand_range(parse_number(first), tail)]
    assert got == expected
