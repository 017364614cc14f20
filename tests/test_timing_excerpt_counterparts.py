"""A cited rule with no counterpart in the edition a run quotes, said in words that do not
contradict themselves: the mapping's status ``unknown`` is its answer for an edition that is
an excerpt (it cannot tell a rule removed from one the excerpt does not hold), so the words
are "1.3 is an excerpt and lacks it", never "has no counterpart in 1.3: unknown". The JSON's
``no_counterpart`` entries keep their shape (rule, edition, status, nearest); the frame's
explanation, a quote's ``missing`` and the explorer's page say the same words."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import REPO
from kb.query import KnowledgeBase
from kb.timing import load_scenario
from kb.timing.explain import no_counterpart_words
from web import create_app

# (a frame's no_counterpart entry, the edition quoted, the words)
GAPS = [
    ({"rule": "464.2.b", "edition": "1.4", "status": "unknown", "nearest": "459.2"}, "1.3",
     "riftbound 1.4 rule 464.2.b has no counterpart in 1.3: 1.3 is an excerpt and lacks it; nearest: 459.2"),
    ({"rule": "464.2.b", "edition": "1.4", "status": "unknown", "nearest": None}, "1.3",
     "riftbound 1.4 rule 464.2.b has no counterpart in 1.3: 1.3 is an excerpt and lacks it"),
    ({"rule": "461.2", "edition": "1.4", "status": "removed", "nearest": "461"}, "1.2",
     "riftbound 1.4 rule 461.2 has no counterpart in 1.2: removed; nearest: 461"),
    ({"rule": "461.2", "edition": "1.4", "status": "removed", "nearest": None}, "1.2",
     "riftbound 1.4 rule 461.2 has no counterpart in 1.2: removed"),
]


@pytest.mark.parametrize("gap,edition,words", GAPS)
def test_a_gap_in_words(gap: dict[str, Any], edition: str, words: str) -> None:
    assert no_counterpart_words("riftbound", gap, edition) == words


# Worked scenarios run in the embedded 1.3 excerpt, whose frames cite rules 1.3 lacks.
RUNS = ["riftbound/003-the-combat-showdown", "riftbound/000-your-own-spell-starts-the-chain"]


@pytest.mark.parametrize("name", RUNS)
def test_a_run_in_an_excerpt_says_the_excerpt_lacks_the_rule(excerpt_kb: KnowledgeBase, name: str) -> None:
    assert excerpt_kb.edition("riftbound", "1.3").edition.partial  # the embedded 1.3 is an excerpt
    run = excerpt_kb.timing_run({**load_scenario(name), "edition": "1.3"})
    gaps = [(f, g) for f in run["frames"] for g in f.get("no_counterpart", [])]
    assert gaps, "the run cites no rule 1.3 lacks: the test says nothing"
    for frame, gap in gaps:
        assert set(gap) == {"rule", "edition", "status", "nearest"} and gap["status"] == "unknown"
        assert no_counterpart_words("riftbound", gap, "1.3") in frame["why"]
        assert "has no counterpart in 1.3: 1.3 is an excerpt and lacks it" in frame["why"]
    assert not any("counterpart in 1.3: unknown" in f["why"] for f in run["frames"])


def test_the_explorer_says_the_same_words(excerpt_kb: KnowledgeBase) -> None:
    text = (REPO / "kb" / "timing" / "scenarios" / "riftbound" / "003-the-combat-showdown.yaml").read_text(
        encoding="utf-8").replace('edition: "1.4"', 'edition: "1.3"')
    page = create_app(kb=excerpt_kb).test_client().post("/timing", data={"yaml": text, "frame": "5"})
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "riftbound 1.4 rule 464.2.b has no counterpart in 1.3: 1.3 is an excerpt and lacks it" in html
    assert "counterpart in 1.3: unknown" not in html
