"""``rulekb timing check``: citations against the embedded excerpt and the full 1.4 document."""

from __future__ import annotations

import pytest

from kb.graph import RuleGraph, build_edition
from kb.read import read_document
from kb.timing.check import check
from kb.timing.models import get_model

from conftest import REPO, corpus_graph, requires_shared


@pytest.fixture(scope="module")
def excerpt() -> RuleGraph:
    path = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"
    result, fmt = read_document(path)
    return build_edition(result, ruleset="riftbound", edition="1.4", partial=True, source=str(path))


# The rules of the covered ranges the model does not implement, each with why.
NOT_MODELED = {
    "372.2": "replacement effects on an uncontrolled battlefield",
}


def test_check_passes_on_the_excerpt_which_holds_every_cited_rule(excerpt: RuleGraph) -> None:
    out = check(get_model("riftbound"), excerpt)
    assert out["ok"] and out["partial"] and not out["unknown"]
    assert out["lacking"] == []  # the embedded excerpt quotes everything the model cites
    assert [r["rule"] for r in out["coverage"]["uncited"]] == list(NOT_MODELED)


def test_a_partial_edition_lists_the_cited_rules_it_lacks(excerpt: RuleGraph) -> None:
    result, _ = read_document(REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md")
    dropped = {"354.3", "419.4.a", "812.1.c"}
    result.rules = [r for r in result.rules if ".".join(r.number) not in dropped
                    and ".".join(r.number[:3]) not in dropped]
    smaller = build_edition(result, ruleset="riftbound", edition="1.4", partial=True)
    out = check(get_model("riftbound"), smaller)
    lacking = {x["rule"] for x in out["lacking"]}
    assert out["ok"] and dropped <= lacking
    assert not lacking & {"337.1", "340.2.a", "464.2.d"}
    assert all(x["cited_by"] for x in out["lacking"])
    # the same rules missing from a complete edition fail the check
    complete = build_edition(result, ruleset="riftbound", edition="1.4", partial=False)
    failed = check(get_model("riftbound"), complete)
    assert not failed["ok"] and dropped <= {x["rule"] for x in failed["unknown"]}


@requires_shared
def test_check_passes_on_the_full_document_with_full_coverage() -> None:
    out = check(get_model("riftbound"), corpus_graph("riftbound", "1.4"))
    assert out["ok"] and not out["partial"]
    assert out["lacking"] == [] and out["unknown"] == []
    cov = out["coverage"]
    assert [r["range"] for r in cov["ranges"]] == ["333–340", "347–348", "367–374", "404", "429", "464", "467–472",
                                                  "808"]
    assert [r["rule"] for r in cov["uncited"]] == list(NOT_MODELED), cov["uncited"]
    assert cov["rules"] == cov["cited"] + len(NOT_MODELED) and cov["cited"] > 50


@requires_shared
def test_check_fails_on_a_citation_that_does_not_exist() -> None:
    spec = get_model("riftbound")

    class Wrong(type(spec)):  # type: ignore[misc]
        citations = {**spec.citations, "finalize": ("337.9",)}

    wrong = Wrong()
    out = check(wrong, corpus_graph("riftbound", "1.4"))
    assert not out["ok"]
    assert out["unknown"][0]["rule"] == "337.9" and out["unknown"][0]["cited_by"] == ["finalize"]
    # 337.1.a was cited by finalize alone
    assert [x["rule"] for x in out["coverage"]["uncited"]] == ["337.1.a", *NOT_MODELED]


def test_every_citation_name_is_described() -> None:
    spec = get_model("riftbound")
    model = spec.make()
    for name in spec.citations:
        kind, _, rest = name.partition(".")
        if kind == "check":
            assert rest in model.checks, name
        elif kind == "invariant":
            assert any(i.name == rest for i in model.invariants), name
        elif kind == "state":
            assert spec.state_checks.get(rest), name
        else:
            assert name in model.transitions, name
