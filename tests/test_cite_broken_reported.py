"""How a broken or carried citation is reported: the edition a citation its prefix sent
elsewhere was looked up in (its entry and ``--check``'s per-edition counts, A14), a range
named as a range in ``--check`` lines and messages (A15), front matter pins of the wrong
type warned about (A16), and a range too long or backwards told in the ruleset that has
both its ends (A17). On the embedded default (Riftbound 1.3 and 1.4, Magic 2010-10-01 and
2026-01-16, excerpts).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cite.link import link_article, lookup
from kb.cli import main
from kb.query import KnowledgeBase

RIFTBOUND_ARTICLE = "---\nruleset: riftbound\nedition: \"1.4\"\ndate: 2026-08-01\n---\n"

# A14: (body of a Riftbound 1.4 article, [(citation text, status, ruleset, edition)])
NAMED_ELSEWHERE: list[tuple[str, list[tuple[str, str, str | None, str | None]]]] = [
    ("Like [CR 116.3d] of old, or CR 117.3d today.",
     [("CR 116.3d", "not_found", "mtg", "2026-01-16"), ("CR 117.3d", "ok", "mtg", "2026-01-16")]),
    ("Magic rule 999.9 is none.", [("rule 999.9", "not_found", "mtg", "2026-01-16")]),
    ("CR 116.3d, rule 337.9 and rule 337.1.",
     [("CR 116.3d", "not_found", "mtg", "2026-01-16"), ("rule 337.9", "not_found", None, None),
      ("rule 337.1", "ok", "riftbound", "1.4")]),
]


@pytest.mark.parametrize("body,expected", NAMED_ELSEWHERE, ids=[b for b, _ in NAMED_ELSEWHERE])
@pytest.mark.parametrize("how", ["annotate", "lookup"])
def test_a_broken_citation_named_by_its_prefix_keeps_the_edition_it_was_read_in(
        excerpt_kb: KnowledgeBase, how: str, body: str,
        expected: list[tuple[str, str, str | None, str | None]]) -> None:
    text = RIFTBOUND_ARTICLE + body + "\n"
    answer = (link_article(excerpt_kb, text, fmt="json") if how == "annotate" else lookup(excerpt_kb, text))
    got = [(" ".join(c["text"].split()), c["status"], c["ruleset"], c["edition"]) for c in answer["citations"]]
    assert got == expected


# A14, A15: (article, lines --check prints, in order among its others)
CHECK_LINES: list[tuple[str, list[str]]] = [
    (RIFTBOUND_ARTICLE + "Like [CR 116.3d] of old, or CR 117.3d today; rule 337.9, rule 337.1.\n",
     [": 4 citations: 2 against riftbound 1.4 (1 ok, 1 broken, 0 renumbered), 2 against mtg 2026-01-16, "
      "named by their prefix (1 ok, 1 broken, 0 renumbered)"]),
    (RIFTBOUND_ARTICLE + "The steps (rules 337–340), one of them (rule 340).\n",
     [":6:12: ok: rules 337–340 → 337–340", ":6:41: ok: rule 340 → 340"]),
    ("---\ndate: 2010-12-15\n---\nPriority (CR 116.3c); rules 116.3–116.5 and rule 116.4, rules 601.2a–f.\n",
     [":4:23: renumbered: rules 116.3–116.5 → now rules 117.3–117.5 (rules 116.3–116.5 of 2010-10-01 "
      "are rules 117.3–117.5 in 2026-01-16)",
      ":4:45: renumbered: rule 116.4 → now rule 117.4 (rule 116.4 of 2010-10-01 is rule 117.4 in 2026-01-16)",
      ":4:57: renumbered: rules 601.2a–f → now rules 601.2a–601.2g (rules 601.2a–601.2f of 2010-10-01 "
      "are rules 601.2a–601.2g in 2026-01-16)"]),
]


@pytest.mark.parametrize("text,lines", CHECK_LINES, ids=[str(i) for i in range(len(CHECK_LINES))])
def test_check_lines_name_the_edition_and_the_whole_range(excerpt_home: Path, tmp_path: Path,
                                                          text: str, lines: list[str]) -> None:
    article = tmp_path / "a.md"
    article.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["--home", str(excerpt_home), "link", "--check", str(article)])
    assert run.exit_code in (0, 1), run.output
    printed = run.output.splitlines()
    at = -1
    for line in lines:
        found = [i for i, p in enumerate(printed) if p == f"{article}{line}"]
        assert found and found[0] > at, (line, run.output)
        at = found[0]


# A16: (front matter, the warnings it gives, each (its line, the words it holds))
PIN_TYPES: list[tuple[str, list[tuple[int, str]]]] = [
    ("ruleset: [1, 2]", [(2, "front matter ruleset: is a list, not a name; ignored")]),
    ("edition: {a: 1}", [(2, "front matter edition: is a mapping, not a name; ignored")]),
    ("ruleset: [1, 2]\nedition: {a: 1}", [(2, "front matter ruleset: is a list, not a name"),
                                          (3, "front matter edition: is a mapping, not a name")]),
    ("title: t\nedition:\n  - 1.4", [(3, "front matter edition: is a list, not a name")]),
    ("date: [2010-12-15]", [(2, "front matter date: is a list, not a date; ignored")]),
    ("ruleset: riftbound\nedition: [1.4]", [(3, "front matter edition: is a list, not a name")]),
    ("ruleset: riftbound", []),
    ("ruleset:", []),
]


@pytest.mark.parametrize("front,warned", PIN_TYPES, ids=[f for f, _ in PIN_TYPES])
@pytest.mark.parametrize("how", ["annotate", "lookup"])
def test_a_pin_that_is_not_a_name_is_a_warning_naming_its_key(
        excerpt_kb: KnowledgeBase, how: str, front: str, warned: list[tuple[int, str]]) -> None:
    text = f"---\n{front}\n---\nrule 337.1a\n"
    answer = (link_article(excerpt_kb, text, fmt="json") if how == "annotate" else lookup(excerpt_kb, text))
    got = [(d["line"], d["message"]) for d in answer["diagnostics"]
           if d["severity"] == "warning" and "front matter" in d["message"]]
    assert len(got) == len(warned), got
    for (line, message), (want_line, words) in zip(got, warned):
        assert line == want_line and words in message, got
    assert answer["citations"][0]["status"] == "ok"


# A17: (text, ruleset linked against or None, status, what the message says)
RANGES: list[tuple[str, str | None, str, str]] = [
    ("rules 108.2–829.1", None, "not_found",
     "range 'rules 108.2–829.1' spans 348 rules, over the limit of 200 rules per range, in riftbound 1.4"),
    ("rules 108.2–829.1", "riftbound", "not_found",
     "range 'rules 108.2–829.1' spans 348 rules, over the limit of 200 rules per range, in riftbound 1.4"),
    ("rules 340–337", "riftbound", "not_found", "range 'rules 340–337' runs backwards in riftbound 1.4"),
    ("rules 829.1–108.2", None, "not_found", "range 'rules 829.1–108.2' runs backwards in riftbound 1.4"),
    ("rules 337–340", None, "ok", ""),
    ("rules 999–829", None, "not_found", "rule 999 does not exist in riftbound 1.4"),  # one end: still where it is
]


@pytest.mark.parametrize("text,ruleset,status,said", RANGES, ids=[f"{t} {r}" for t, r, _, _ in RANGES])
def test_a_range_is_told_where_both_its_ends_are(excerpt_kb: KnowledgeBase, text: str, ruleset: str | None,
                                                 status: str, said: str) -> None:
    answer = lookup(excerpt_kb, text, ruleset=ruleset)
    (c,) = answer["citations"]
    assert c["status"] == status
    assert c["message"].startswith(said), c["message"]


# A17: an unpinned range missing its end in the one ruleset holding its start is told there,
# with the numbers nearest that end, as when it is pinned to that ruleset.
@pytest.mark.parametrize("text", ["rules 337.1–337.10", "rules 337.1–338.2"])
def test_an_unpinned_range_is_told_as_the_ruleset_holding_its_start_tells_it(
        excerpt_kb: KnowledgeBase, text: str) -> None:
    (unpinned,) = lookup(excerpt_kb, text)["citations"]
    (pinned,) = lookup(excerpt_kb, text, ruleset="riftbound")["citations"]
    assert unpinned["message"].startswith("range end ") and "riftbound 1.4" in unpinned["message"]
    assert (unpinned["message"], unpinned["nearest"]) == (pinned["message"], pinned["nearest"])
