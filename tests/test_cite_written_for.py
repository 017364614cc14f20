"""Which edition was an article written for? Front matter keys the linker does not know are
warnings naming those it does; a pin written differently ("rules: mtg 2010-10-01") is read
when exact; without a pin, the edition is inferred from the citations (ties: the edition
linked against, then the newest; the article's date limits the candidates), and every
citation is carried to the edition linked against (issue #20)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cite.target import parse_front_matter
from kb.cli import main
from kb.query import KnowledgeBase
from tests.conftest import SEEDS, requires_shared

MAGIC_SEED = "002_9a7deb60968bf8c2.txt"
# Riftbound 1.3 numbers that 1.4 moved (the embedded excerpts; kb.editions maps them).
OLD_ONLY = "Hold the point (rule 158.2), see also 187.3.a.\n"
# Numbers both Riftbound editions have, unchanged.
BOTH = "Moves (rule 144.1) and (rule 144.2).\n"


def _front(**keys: str) -> str:
    return "---\n" + "".join(f"{k}: {v}\n" for k, v in keys.items()) + "---\n"


def _annotate(kb: KnowledgeBase, text: str, **kw: str) -> dict:
    return kb.citations_annotate(text, fmt="json", **kw)


def _messages(data: dict) -> list[str]:
    return [d["message"] for d in data["diagnostics"]]


# -- front matter ----------------------------------------------------------------------
@pytest.mark.parametrize("front,warned", [
    ("rules: mtg 2010-10-01\n", ["rules"]),
    ("title: Priority\nauthor: A. Judge\ntags: [timing]\ndate: 2011-01-05\n", []),
    ("Title: Priority\nrules_version: 3\ngame: mtg\n", ["rules_version", "game"]),
    ("ruleset: mtg\n", []),
])
def test_unknown_keys_are_warnings_naming_the_known_keys(front: str, warned: list[str]) -> None:
    _, diags = parse_front_matter(front)
    unknown = [d for d in diags if "not one the linker knows" in d.message]
    assert [re.search(r"key '([^']+)'", d.message).group(1) for d in unknown] == warned
    for d in unknown:
        assert d.severity == "warning" and "ruleset, edition, date" in d.message


@pytest.mark.parametrize("front,key,line", [
    ("title: T\nrules: mtg 2010-10-01\n", "rules", 3),   # the article's line 1 is the opening ---
    ("colour: blue\n", "colour", 2),
    ("title: T\ndate: last week\n", "date", 3),
])
def test_a_front_matter_warning_names_the_line_of_its_key(front: str, key: str, line: int) -> None:
    _, diags = parse_front_matter(front)
    assert [(d.line, key in d.message) for d in diags] == [(line, True)]


def test_a_pin_written_differently_is_read_when_exact(excerpt_kb: KnowledgeBase) -> None:
    pins, diags = parse_front_matter("rules: mtg 2010-10-01\n", "a.md", excerpt_kb)
    assert pins == {"ruleset": "mtg", "written_for": "2010-10-01"}
    assert "read 'mtg 2010-10-01' as written for mtg 2010-10-01" in diags[0].message


@pytest.mark.parametrize("front", [
    "rules: mtg\n",                                  # no edition named
    "rules: mtg 1999-01-01\n",                       # no such edition
    "rules: mtg 2010-10-01 errata\n",                # more than a ruleset and an edition
    "rules: mtg 2010-10-01\ncr: mtg 2026-01-16\n",   # two readings
    "rules: mtg 2010-10-01\nruleset: mtg\n",         # the documented key wins
])
def test_a_pin_that_is_not_exact_is_only_a_warning(excerpt_kb: KnowledgeBase, front: str) -> None:
    pins, diags = parse_front_matter(front, "a.md", excerpt_kb)
    assert "written_for" not in pins
    assert diags and all(d.message.endswith("; ignored") for d in diags)


def test_a_date_that_is_none_is_a_warning() -> None:
    pins, diags = parse_front_matter("date: soon\n")
    assert "date" not in pins and "front matter date 'soon' is not a date" in diags[0].message
    assert parse_front_matter("date: 2011-01-05T10:00:00Z\n")[0] == {"date": "2011-01-05"}


# (front matter date, the day kept, or None when it is warned about with the words given)
DATES = [
    ("2010-10-01", "2010-10-01", ""),
    ("2011-01-05T10:00:00Z", "2011-01-05", ""),
    ("2011-01-05 10:00", "2011-01-05", ""),
    ("2010-02-30", None, "not a calendar date"),
    ("2010-13-01", None, "not a calendar date"),
    ("2010-10-01junk", None, "not a date: use YYYY-MM-DD"),
    ("2010-10-1", None, "not a date: use YYYY-MM-DD"),
    ("2011-01-05Tnoon", None, "'noon' after the day is no time of day"),
]


@pytest.mark.parametrize("value,day,problem", DATES, ids=[d[0] for d in DATES])
def test_a_date_pin_is_a_calendar_day_or_a_warning_naming_the_key_and_the_value(
        value: str, day: str | None, problem: str) -> None:
    pins, diags = parse_front_matter(f"title: T\ndate: {value}\n")
    assert pins.get("date") == day
    if day is not None:
        assert diags == []
        return
    [warning] = diags
    assert warning.severity == "warning" and warning.line == 3
    assert f"front matter date {value!r} is" in warning.message and problem in warning.message
    assert "ignored (the edition it was written for is inferred from its citations, without a date)" \
        in warning.message


def test_a_bad_date_beside_an_edition_pin_says_the_pin_decides() -> None:
    pins, diags = parse_front_matter("ruleset: mtg\nedition: 2010-10-01\ndate: 2010-02-30\n")
    assert pins == {"ruleset": "mtg", "edition": "2010-10-01"}
    assert "ignored (the edition: pin says what it was written for)" in diags[0].message


def test_an_impossible_date_does_not_limit_the_inferred_edition(excerpt_kb: KnowledgeBase) -> None:
    """2026-06-31 read as its first ten characters once ruled out 1.4 (2026-07-16)."""
    data = _annotate(excerpt_kb, _front(date="2026-06-31") + BOTH)
    assert data["written_for"] == _annotate(excerpt_kb, BOTH)["written_for"]
    assert any("front matter date '2026-06-31' is not a calendar date" in m for m in _messages(data))


# -- inference ---------------------------------------------------------------------------
@pytest.mark.parametrize("front", ["", _front(ruleset="riftbound"), _front(title="Holding")])
def test_an_unpinned_article_is_linked_as_written_for_the_edition_its_citations_fit(
        excerpt_kb: KnowledgeBase, front: str) -> None:
    data = _annotate(excerpt_kb, front + OLD_ONLY)
    assert (data["written_for"], data["edition"]) == ("1.3", "1.4")
    assert data["inferred"] == "written for riftbound 1.3, inferred from 2 of 2 citations"
    assert [(c["written"], c["status"], c["target"]) for c in data["citations"]] == [
        ("158.2", "renumbered", "159.2"), ("187.3.a", "renumbered", "190.3.a")]
    assert any(m.startswith("written for riftbound 1.3, inferred from 2 of 2 citations")
               for m in _messages(data))


def test_a_tie_goes_to_the_edition_linked_against(excerpt_kb: KnowledgeBase) -> None:
    data = _annotate(excerpt_kb, BOTH)  # no ruleset named: riftbound inferred, and its edition said
    assert (data["written_for"], data["inferred"], data["summary"]["ok"]) == (
        None, "written for riftbound 1.4, inferred from 2 of 2 citations", 2)
    asked = _annotate(excerpt_kb, OLD_ONLY, edition="1.3")
    assert (asked["written_for"], asked["inferred"], asked["summary"]["ok"]) == (None, None, 2)


def test_the_articles_date_rules_out_later_editions(excerpt_kb: KnowledgeBase) -> None:
    data = _annotate(excerpt_kb, _front(date="2026-05-01") + BOTH)
    assert data["written_for"] == "1.3"
    assert data["inferred"] == "written for riftbound 1.3, inferred from 2 of 2 citations"
    assert [c["status"] for c in data["citations"]] == ["ok", "ok"]  # unchanged in 1.4
    # Older than every edition: every edition is a candidate again.
    assert _annotate(excerpt_kb, _front(date="2001-01-01") + BOTH)["written_for"] is None


def test_a_documented_pin_is_not_second_guessed(excerpt_kb: KnowledgeBase) -> None:
    data = _annotate(excerpt_kb, _front(ruleset="riftbound", edition='"1.4"') + OLD_ONLY)
    assert (data["written_for"], data["inferred"]) == (None, None)
    assert [c["status"] for c in data["citations"]] == ["not_found", "not_found"]


def test_plain_text_lookup_infers_too_and_reads_leading_front_matter(
        excerpt_kb: KnowledgeBase) -> None:
    data = excerpt_kb.citations_lookup(OLD_ONLY)
    assert data["inferred"] == "written for riftbound 1.3, inferred from 2 of 2 citations"
    assert [c["target"] for c in data["citations"]] == ["159.2", "190.3.a"]
    text = _front(rules="mtg 2010-10-01") + "Pass it [CR 116.3d]."
    data = excerpt_kb.citations_lookup(text)
    assert any("key 'rules'" in m for m in _messages(data))
    (c,) = data["citations"]
    assert (c["status"], c["target"], text[c["start"]:c["end"]]) == ("renumbered", "117.3d", "CR 116.3d")


# -- the seed Magic article, in every face --------------------------------------------------
def _magic_article() -> str:
    return (SEEDS / MAGIC_SEED).read_text(encoding="utf-8")


@requires_shared
@pytest.mark.parametrize("front", ["", _front(rules="mtg 2010-10-01")], ids=["no front matter", "rules:"])
def test_the_magic_article_is_written_for_2010_and_renumbered_today(
        excerpt_kb: KnowledgeBase, front: str) -> None:
    article = front + _magic_article()
    cited = re.findall(r"\[CR (116\.\d+[a-z]?)\]", article)
    for data in (_annotate(excerpt_kb, article), excerpt_kb.citations_lookup(article)):
        assert (data["ruleset"], data["edition"], data["written_for"]) == ("mtg", "2026-01-16", "2010-10-01")
        assert [(c["written"], c["status"], c["target"]) for c in data["citations"]] == [
            (n, "renumbered", "117" + n[3:]) for n in cited]
        if front:
            assert any("key 'rules'" in m and "ruleset, edition, date" in m for m in _messages(data))
        else:
            n = len(cited)
            assert data["inferred"] == f"written for mtg 2010-10-01, inferred from {n} of {n} citations"


@requires_shared
def test_link_check_says_what_it_read_and_inferred(excerpt_home: Path, tmp_path: Path) -> None:
    pinned, bare = tmp_path / "rules.md", tmp_path / "bare.md"
    pinned.write_text(_front(rules="mtg 2010-10-01") + _magic_article(), encoding="utf-8")
    bare.write_text(_magic_article(), encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "link", "--check",
                                       str(pinned), str(bare)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert f"{pinned}:2: warning: front matter key 'rules' is not one the linker knows" in lines[0]  # its line
    assert any(line.startswith(f"{bare}:1: info: written for mtg 2010-10-01, inferred from 19 of 19")
               for line in lines)
    cited = [line for line in lines if ": CR 116." in line]
    assert len(cited) == 38 and all(": renumbered: CR 116." in line for line in cited)


def test_the_api_answers_say_what_was_read_and_inferred(excerpt_kb: KnowledgeBase) -> None:
    from web import create_app
    client = create_app(kb=excerpt_kb).test_client()
    lookup = client.post("/api/v1/citations/lookup", json={"text": OLD_ONLY})
    assert lookup.status_code == 200, lookup.get_json()
    assert lookup.get_json()["inferred"] == "written for riftbound 1.3, inferred from 2 of 2 citations"
    annotate = client.post("/api/v1/citations/annotate", json={
        "markdown": _front(rules="mtg 2010-10-01") + "Pass it [CR 116.3d].\n", "format": "json"})
    assert annotate.status_code == 200, annotate.get_json()
    data = annotate.get_json()
    assert any("key 'rules'" in m and "ruleset, edition, date" in m for m in _messages(data))
    assert [(c["status"], c["target"]) for c in data["citations"]] == [("renumbered", "117.3d")]
