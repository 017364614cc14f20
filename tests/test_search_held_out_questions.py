"""The second held-out set of judges' questions (bench/questions/own2-*.tsv, issue #18): the
shared columns, every cited rule in its edition as the reader numbers it (built from the full
documents in ../shared, so those cases skip without it), every shape one of the list, no
question asked twice here or in the first held-out set. One case per question.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from tests.conftest import corpus_graph

QUESTIONS = Path(__file__).resolve().parent.parent / "bench" / "questions"
COLUMNS = ["question", "ruleset", "edition", "cited_rules", "source_ref", "shape"]
SHAPES = {"can-i-when", "does-x-trigger", "what-happens", "who-acts", "definition", "how-many",
          "other"}
# (question file, its ruleset, its edition as rulekb names it, how many questions)
SETS = [
    ("own2-riftbound-1.4.tsv", "riftbound", "1.4", 25),
    ("own2-mtg-2026.tsv", "mtg", "2026-01-16", 25),
]
EARLIER = ["own-riftbound-1.4.tsv", "own-mtg-2026.tsv"]


def read_set(name: str) -> list[dict[str, str]]:
    """The rows of one question file, as dicts keyed by its header."""
    with open(QUESTIONS / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


ROWS = [(name, ruleset, edition, row) for name, ruleset, edition, _ in SETS for row in read_set(name)]
ROW_IDS = [row["source_ref"] for *_, row in ROWS]


@pytest.mark.parametrize("name, ruleset, edition, count", SETS)
def test_a_set_has_the_shared_columns_and_its_size(name: str, ruleset: str, edition: str,
                                                   count: int) -> None:
    with open(QUESTIONS / name, encoding="utf-8") as f:
        assert f.readline().rstrip("\n").split("\t") == COLUMNS
    rows = read_set(name)
    assert len(rows) == count
    assert all(None not in row and all(row.values()) for row in rows), "a row has a missing field"


@pytest.mark.parametrize("name, ruleset, edition, row", ROWS, ids=ROW_IDS)
def test_a_question_is_well_formed(name: str, ruleset: str, edition: str, row: dict[str, str]) -> None:
    assert (row["ruleset"], row["edition"]) == (ruleset, edition)
    assert row["shape"] in SHAPES, row["shape"]
    assert re.fullmatch(r"own2:(rb|mtg)-\d{3}", row["source_ref"]), row["source_ref"]
    cited = row["cited_rules"].split(",")
    assert 1 <= len(cited) <= 3 and len(set(cited)) == len(cited), cited


@pytest.mark.parametrize("name, ruleset, edition, row", ROWS, ids=ROW_IDS)
def test_every_cited_rule_exists_in_the_edition(name: str, ruleset: str, edition: str,
                                                row: dict[str, str]) -> None:
    rules = corpus_graph(ruleset, edition).edition.rules  # skips without ../shared
    missing = [n for n in row["cited_rules"].split(",") if n not in rules]
    assert not missing, f"{row['source_ref']}: {missing} not in {ruleset} {edition}"


def normalised(question: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", question.casefold()).split())


def test_no_question_is_asked_twice_here_or_in_the_first_held_out_set() -> None:
    seen: dict[str, str] = {}
    for name in [*EARLIER, *(s[0] for s in SETS)]:
        for row in read_set(name):
            key = normalised(row["question"])
            assert key not in seen, f"{row['source_ref']} repeats {seen[key]}"
            seen[key] = row["source_ref"]


def test_cross_validation_chooses_on_the_first_own_set_with_its_cards_never_on_this_one() -> None:
    from bench.search import (HELD_OUT, HELD_OUT_2, HELD_OUT_DIR, OWN_IN_CV, development_for_cv,
                              load_dev_questions, load_held_out_cards)
    first = load_dev_questions(HELD_OUT_DIR, HELD_OUT)
    second = load_dev_questions(HELD_OUT_DIR, HELD_OUT_2)
    chosen_on, cards_of = development_for_cv([], lambda q: None, first + second, load_held_out_cards())
    assert [q.query for q in chosen_on] == [q.query for q in first] and len(first) == 100
    assert {q.kind for q in chosen_on} == {OWN_IN_CV}
    assert not {q.query for q in second} & {q.query for q in chosen_on}
    assert all(cards_of(q) is not None and cards_of(q).ruleset == q.ruleset for q in chosen_on)
