"""Resolving citations: one status per citation (ok, not_found, ambiguous, renumbered,
quote_mismatch, over_limit), the edition an article is linked against, and the caps."""

from __future__ import annotations

import pytest

from kb.cite import find_citations, resolve_citations
from kb.cite.resolve import resolve_shared
from kb.cite.link import MAX_INPUT_BYTES
from kb.graph import RuleGraph, build_edition
from kb.model import RawRule, ReadResult
from kb.numbers import parse_number
from kb.query import KnowledgeBase, QueryError


def tiny(ruleset: str, edition: str, rules: dict[str, str], style: str = "dotted",
         date: str = "2026-01-01") -> RuleGraph:
    """An edition from {number: text}; three-digit numbers are section headings."""
    raw = [RawRule(parse_number(n), "section" if "." not in n else "rule",
                   "" if "." not in n else t, i + 1, title=t if "." not in n else "")
           for i, (n, t) in enumerate(rules.items())]
    return build_edition(ReadResult(raw, number_style=style), ruleset=ruleset, edition=edition, date=date)  # type: ignore[arg-type]


GAME = tiny("game", "2", {"337": "Finalize", "337.1": "Finalize the oldest item.",
                          "337.1.a": "Finalizing does not pass Priority.",
                          "337.10": "The tenth rule.", "338": "Execute", "338.1": "Play a card.",
                          "339": "Pass", "340": "Resolve"})
OLD = tiny("game", "1", {"530": "Finalize", "530.1": "Finalize the oldest item.",
                         "531": "Execute"}, date="2025-01-01")
MAGIC = tiny("magic", "2026", {"116": "Special Actions", "116.1": "Special actions are actions.",
                               "337": "Magic 337", "337.1": "A Magic rule."}, style="mtg")


def statuses(text: str, editions, **kw) -> list[tuple[str, str, list[str]]]:
    return [(r.citation.text, r.status, [x.number for x in r.rules])
            for r in resolve_citations(find_citations(text), editions, **kw)]


@pytest.mark.parametrize("text,expected", [
    ("rule 337.1a", [("rule 337.1a", "ok", ["337.1.a"])]),
    ("rule 337.1", [("rule 337.1", "ok", ["337.1"])]),
    ("rule 337.10", [("rule 337.10", "ok", ["337.10"])]),
    ("rule 337.2", [("rule 337.2", "not_found", [])]),
    ("rules 337–340", [("rules 337–340", "ok", ["337", "338", "339", "340"])]),
    ("rules 337–341", [("rules 337–341", "not_found", [])]),
    ("rules 340–337", [("rules 340–337", "not_found", [])]),
    ("rules 337.1–338.1", [("rules 337.1–338.1", "ok", ["337.1", "337.10", "338.1"])]),
    ('"Finalizing does not pass Priority." (rule 337.1.a)',
     [("rule 337.1.a", "ok", ["337.1.a"])]),
    ('"finalizing … pass priority" (rule 337.1)', [("rule 337.1", "ok", ["337.1"])]),
    ('"Finalizing passes Priority." (rule 337.1.a)',
     [("rule 337.1.a", "quote_mismatch", ["337.1.a"])]),
])
def test_statuses_in_one_edition(text: str, expected: list) -> None:
    assert statuses(text, GAME) == expected


def test_a_missing_rule_suggests_its_neighbours() -> None:
    (res,) = resolve_citations(find_citations("rule 337.2"), GAME)
    assert res.nearest == ["337.10", "337.1.a", "337.1", "337", "338"]
    assert res.message == "rule 337.2 does not exist in game 2"


def test_citations_past_the_limit_are_not_looked_up() -> None:
    found = find_citations("rule 337 rule 338 rule 339")
    assert [r.status for r in resolve_citations(found, GAME, limit=2)] == ["ok", "ok", "over_limit"]


def test_renumbered_through_the_mapper() -> None:
    mapping = {"530": "337", "530.1": "337.1", "531": None}
    result = statuses("rule 530.1, rule 531 and rule 532", GAME, written_for=OLD, mapper=mapping.get)
    assert result == [("rule 530.1", "renumbered", ["337.1"]), ("rule 531", "not_found", []),
                      ("rule 532", "not_found", [])]


def test_a_rule_that_kept_its_number_is_ok() -> None:
    same = tiny("game", "0", {"337": "Finalize", "337.1": "Finalize the oldest item."})
    assert statuses("rule 337.1", GAME, written_for=same, mapper=lambda n: n) == [
        ("rule 337.1", "ok", ["337.1"])]


def test_without_a_mapper_numbers_are_looked_up_unchanged() -> None:
    """530.1 is not in the target; 337.1 is, but the article's edition has no 337.1."""
    assert statuses("rule 530.1 and rule 337.1", GAME, written_for=OLD) == [
        ("rule 530.1", "not_found", []), ("rule 337.1", "not_found", [])]
    kept = tiny("game", "0", {"337": "Finalize", "337.1": "Finalize the oldest item."})
    assert statuses("rule 337.1", GAME, written_for=kept) == [("rule 337.1", "ok", ["337.1"])]


@pytest.mark.parametrize("text,expected", [
    # Only one ruleset has it.
    ("rule 337.1.a", [("rule 337.1.a", "ok", ["337.1.a"])]),
    # Both have it and nothing prefers one: ambiguous.
    ("rule 337.1", [("rule 337.1", "ambiguous", [])]),
    # "CR" names the Magic-style ruleset.
    ("CR 337.1", [("CR 337.1", "ok", ["337.1"])]),
    ("[CR 116.1]", [("CR 116.1", "ok", ["116.1"])]),
    # A bare number fits any ruleset, as "rule" does.
    ("(337.1.a)", [("337.1.a", "ok", ["337.1.a"])]),
    ("(116.1)", [("116.1", "ok", ["116.1"])]),
    ("See also 337.1", [("337.1", "ambiguous", [])]),
    # The article's other citations tell its ruleset.
    ("rule 337.1 after rule 338.1 and rule 337.10",
     [("rule 337.1", "ok", ["337.1"]), ("rule 338.1", "ok", ["338.1"]),
      ("rule 337.10", "ok", ["337.10"])]),
])
def test_statuses_among_rulesets(text: str, expected: list) -> None:
    result = statuses(text, [GAME, MAGIC])
    assert result == expected
    if expected[0][1] == "ok" and text.startswith("rule 337.1 "):
        resolved = resolve_citations(find_citations(text), [GAME, MAGIC])
        assert {r.ruleset for r in resolved} == {"game"}


def test_ambiguous_lists_its_candidates() -> None:
    (res,) = resolve_citations(find_citations("rule 337.1"), [GAME, MAGIC])
    assert res.candidates == [{"ruleset": "game", "edition": "2", "number": "337.1"},
                              {"ruleset": "magic", "edition": "2026", "number": "337.1"}]


# -- the facade -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.from_graphs([OLD, GAME, MAGIC])


def test_lookup_gives_offsets_status_and_url(kb: KnowledgeBase) -> None:
    text = "See rule 337.1a, then [CR 116.1]."
    data = kb.citations_lookup(text)
    assert [(c["start"], c["end"], c["text"], c["number"], c["status"], c["url"])
            for c in data["citations"]] == [
        (4, 15, "rule 337.1a", "337.1.a", "ok", "/game/2/337.1.a"),
        (23, 31, "CR 116.1", "116.1", "ok", "/magic/2026/116.1")]
    assert data["summary"]["total"] == 2 and data["summary"]["broken"] == 0


def test_front_matter_names_the_edition_written_for(kb: KnowledgeBase) -> None:
    article = "---\nruleset: game\nedition: '1'\n---\nrule 530.1\n"
    data = kb.citations_annotate(article, edition="2", fmt="json")
    assert (data["ruleset"], data["edition"], data["written_for"]) == ("game", "2", "1")
    (c,) = data["citations"]
    assert (c["written"], c["status"], c["target"]) == ("530.1", "renumbered", "337.1")
    assert c["url"] == "/game/2/337.1"


def test_front_matter_alone_pins_the_edition(kb: KnowledgeBase) -> None:
    data = kb.citations_annotate("---\nruleset: game\nedition: '1'\n---\nrule 530.1\n", fmt="json")
    assert (data["edition"], data["citations"][0]["status"]) == ("1", "ok")


@pytest.mark.parametrize("front,warning", [
    ("ruleset: chess", "unknown ruleset 'chess'"),
    ("ruleset: game\nedition: '9'", "unknown edition '9' of game"),
    ("ruleset: [unclosed", "front matter is not valid YAML"),
])
def test_bad_front_matter_is_a_warning(kb: KnowledgeBase, front: str, warning: str) -> None:
    data = kb.citations_annotate(f"---\n{front}\n---\nrule 337.1a\n", fmt="json")
    assert any(warning in d["message"] for d in data["diagnostics"])
    assert data["citations"][0]["status"] == "ok"


@pytest.mark.parametrize("call,status", [
    (lambda kb: kb.citations_lookup("x", ruleset="chess"), 404),
    (lambda kb: kb.citations_lookup("x", edition="9"), 404),
    (lambda kb: kb.citations_annotate("x", style="sidenotes"), 400),
    (lambda kb: kb.citations_annotate("x", fmt="pdf"), 400),
    (lambda kb: kb.citations_lookup("x" * (MAX_INPUT_BYTES + 1)), 413),
    (lambda kb: kb.citations_annotate(None), 400),
])
def test_bad_requests_are_query_errors(kb: KnowledgeBase, call, status: int) -> None:
    with pytest.raises(QueryError) as info:
        call(kb)
    assert info.value.status == status


def test_citations_past_the_cap_are_reported(kb: KnowledgeBase) -> None:
    from kb.cite.link import lookup
    data = lookup(kb, "rule 337.1a " * 30, limit=25)
    assert data["summary"]["over_limit"] == 5 and data["summary"]["ok"] == 25
    assert any("only the first 25" in d["message"] for d in data["diagnostics"])


def test_bare_citations_past_the_cap_are_counted(kb: KnowledgeBase) -> None:
    from kb.cite.link import lookup
    data = lookup(kb, "(337.1a) " * 30, limit=25)
    assert data["summary"]["over_limit"] == 5 and data["summary"]["ok"] == 25


@pytest.mark.parametrize("text,status", [
    ("rule 337.1 and again rule 337.1", "ok"),
    ("rule 999.1 and again rule 999.1", "not_found"),
    ("rules 337.1–337.10 and again rules 337.1–337.10", "ok"),
])
def test_a_repeated_citation_gets_its_own_copy_of_the_first_resolution(text: str, status: str) -> None:
    first, again = resolve_citations(find_citations(text), GAME)
    assert first.status == again.status == status
    assert again.citation.start > first.citation.start
    assert (again.rules, again.nearest, again.candidates, again.message) == \
        (first.rules, first.nearest, first.candidates, first.message)
    for name in ("rules", "nearest", "candidates"):  # nothing mutable is shared between places
        assert getattr(again, name) is not getattr(first, name)


@pytest.mark.parametrize("text,status", [
    ("rule 337.1, then Rule 337.1, (337.1) and rules 338.1 and 337.1", "ok"),
    ("rule 999.1, then Rule 999.1, (999.1) and rules 998.1 and 999.1", "not_found"),
])
def test_one_number_in_several_forms_is_resolved_once_each_place_its_own(text: str, status: str) -> None:
    """Against one edition a single number's resolution depends on the number alone:
    resolve_shared gives one object per number whatever the form or text of its places,
    and resolve_citations gives each place its own copy, with its own citation."""
    found = find_citations(text)
    assert len({c.form for c in found}) == 2 and len(found) == 5
    shared = resolve_shared(found, GAME)
    assert len({id(r) for r in shared}) == len({c.number for c in found}) == 2
    own = resolve_citations(found, GAME)
    assert [r.citation for r in own] == found
    assert len({id(r) for r in own}) == len(own)
    assert {r.status for r in own} == {status}
    assert [(r.written, r.message) for r in own] == [(s.written, s.message) for s in shared]
