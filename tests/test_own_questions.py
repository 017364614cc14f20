"""The project's own held-out judge questions (bench/questions/, issue #18), every set one line
of ``SETS``: the shared columns and the set's size, every shape one of the list, every cited
rule existing in its edition as the reader numbers it (built from the full documents in
../shared, so these cases skip without it), no question asked twice in its round or in an
earlier one, and a set's made-up card list importing with ``rulekb cards import``. One case
per set, question, round or card list.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from kb.cli import main

from tests.conftest import corpus_graph

QUESTIONS = Path(__file__).resolve().parent.parent / "bench" / "questions"
COLUMNS = ["question", "ruleset", "edition", "cited_rules", "source_ref", "shape"]
SHAPES = {"can-i-when", "does-x-trigger", "what-happens", "who-acts", "definition", "how-many",
          "other"}


class QuestionSet(NamedTuple):
    """One held-out question file and what it must hold."""
    file: str
    ruleset: str
    edition: str  # as rulekb names it
    round: str  # its source_ref's prefix: own (the first held-out set), own2 (the second)
    count: int
    cards: str | None  # its card list, None for a set that says each card's text in the question


SETS = [
    QuestionSet("own-riftbound-1.4.tsv", "riftbound", "1.4", "own", 60, "own-cards-riftbound.yaml"),
    QuestionSet("own-mtg-2026.tsv", "mtg", "2026-01-16", "own", 40, "own-cards-mtg.yaml"),
    QuestionSet("own2-riftbound-1.4.tsv", "riftbound", "1.4", "own2", 25, None),
    QuestionSet("own2-mtg-2026.tsv", "mtg", "2026-01-16", "own2", 25, None),
    QuestionSet("own3-riftbound-1.4.tsv", "riftbound", "1.4", "own3", 28, None),
    QuestionSet("own3-mtg-2026.tsv", "mtg", "2026-01-16", "own3", 28, None),
    QuestionSet("own4-tune-riftbound-1.4.tsv", "riftbound", "1.4", "own4t", 20, None),
    QuestionSet("own4-tune-mtg-2026.tsv", "mtg", "2026-01-16", "own4t", 20, None),
    QuestionSet("own4-held-riftbound-1.4.tsv", "riftbound", "1.4", "own4h", 20, None),
    QuestionSet("own4-held-mtg-2026.tsv", "mtg", "2026-01-16", "own4h", 20, None),
    QuestionSet("own5-tune-riftbound-1.4.tsv", "riftbound", "1.4", "own5t", 15, None),
    QuestionSet("own5-tune-mtg-2026.tsv", "mtg", "2026-01-16", "own5t", 15, None),
    QuestionSet("own5-held-riftbound-1.4.tsv", "riftbound", "1.4", "own5h", 15, None),
    QuestionSet("own5-held-mtg-2026.tsv", "mtg", "2026-01-16", "own5h", 15, None),
    QuestionSet("own6-tune-riftbound-1.4.tsv", "riftbound", "1.4", "own6t", 10, None),
    QuestionSet("own6-held-riftbound-1.4.tsv", "riftbound", "1.4", "own6h", 10, None),
]
SET_IDS = [s.file for s in SETS]
WITH_CARDS = [s for s in SETS if s.cards]
ROUNDS = list(dict.fromkeys(s.round for s in SETS))  # in the order they were written


def read_set(name: str) -> list[dict[str, str]]:
    """The rows of one question file, as dicts keyed by its header."""
    with open(QUESTIONS / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def card_names(name: str) -> list[str]:
    """The names in one card list (JSON, which is also YAML)."""
    return [card["name"] for card in json.loads((QUESTIONS / name).read_text("utf-8"))["cards"]]


ROWS = [(s, row) for s in SETS for row in read_set(s.file)]
ROW_IDS = [row["source_ref"] for _, row in ROWS]


@pytest.mark.parametrize("qs", SETS, ids=SET_IDS)
def test_a_set_has_the_shared_columns_and_its_size(qs: QuestionSet) -> None:
    with open(QUESTIONS / qs.file, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
    rows = read_set(qs.file)
    assert header == COLUMNS
    assert len(rows) == qs.count
    assert all(None not in row and all(row.values()) for row in rows), "a row has a missing field"


@pytest.mark.parametrize("qs, row", ROWS, ids=ROW_IDS)
def test_a_question_is_well_formed(qs: QuestionSet, row: dict[str, str]) -> None:
    assert (row["ruleset"], row["edition"]) == (qs.ruleset, qs.edition)
    assert row["shape"] in SHAPES, row["shape"]
    assert re.fullmatch(rf"{qs.round}:(rb|mtg)-\d{{3}}", row["source_ref"]), row["source_ref"]
    cited = row["cited_rules"].split(",")
    assert 1 <= len(cited) <= 3 and len(set(cited)) == len(cited), cited


@pytest.mark.parametrize("qs, row", ROWS, ids=ROW_IDS)
def test_every_cited_rule_exists_in_the_edition(qs: QuestionSet, row: dict[str, str]) -> None:
    rules = corpus_graph(qs.ruleset, qs.edition).edition.rules  # skips without ../shared
    missing = [n for n in row["cited_rules"].split(",") if n not in rules]
    assert not missing, f"{row['source_ref']}: {missing} not in {qs.ruleset} {qs.edition}"


def normalised(question: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", question.casefold()).split())


@pytest.mark.parametrize("round_", ROUNDS)
def test_no_question_is_asked_twice_in_its_round_or_an_earlier_one(round_: str) -> None:
    asked = SETS[:max(i for i, s in enumerate(SETS) if s.round == round_) + 1]
    seen: dict[str, str] = {}
    for qs in asked:
        for row in read_set(qs.file):
            key = normalised(row["question"])
            assert key not in seen, f"{row['source_ref']} repeats {seen[key]}"
            seen[key] = row["source_ref"]
    refs = [row["source_ref"] for qs in asked for row in read_set(qs.file)]
    assert len(set(refs)) == len(refs), "a source_ref is used twice"


@pytest.mark.parametrize("qs", WITH_CARDS, ids=[s.file for s in WITH_CARDS])
def test_the_card_list_imports_with_rulekb_cards_import(qs: QuestionSet, tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["--home", str(tmp_path), "cards", "import",
                                str(QUESTIONS / qs.cards), "--ruleset", qs.ruleset])
    assert done.exit_code == 0, done.output
    names = card_names(qs.cards)
    assert f"imported {len(names)} cards of {qs.ruleset}" in done.output
    listed = runner.invoke(main, ["--home", str(tmp_path), "cards", "list", "--ruleset", qs.ruleset,
                                  "--json"])
    assert listed.exit_code == 0, listed.output
    assert sorted(c["name"] for c in json.loads(listed.output)["cards"]) == sorted(names)


@pytest.mark.parametrize("qs", WITH_CARDS, ids=[s.file for s in WITH_CARDS])
def test_every_card_is_named_by_a_question(qs: QuestionSet) -> None:
    asked = " ".join(row["question"].casefold() for row in read_set(qs.file))
    unnamed = [c for c in card_names(qs.cards) if c.split(",")[0].casefold() not in asked]
    assert not unnamed, f"cards no question names: {unnamed}"


def test_the_readme_counts_each_shape_of_the_first_round_as_the_files_do() -> None:
    table = {}
    for line in (QUESTIONS / "README.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0] in SHAPES:
            table[cells[0]] = (int(cells[1]), int(cells[2]))
    counted = {shape: tuple(sum(row["shape"] == shape for row in read_set(qs.file))
                            for qs in SETS if qs.round == ROUNDS[0]) for shape in SHAPES}
    assert table == counted


def test_cross_validation_chooses_on_the_first_own_set_with_its_cards_never_on_the_second() -> None:
    from bench.search import (HELD_OUT, HELD_OUT_2, HELD_OUT_DIR, OWN_IN_CV, development_for_cv,
                              load_dev_questions, load_held_out_cards)
    first = load_dev_questions(HELD_OUT_DIR, HELD_OUT)
    second = load_dev_questions(HELD_OUT_DIR, HELD_OUT_2)
    chosen_on, cards_of = development_for_cv([], lambda q: None, first + second, load_held_out_cards())
    assert [q.query for q in chosen_on] == [q.query for q in first]
    assert len(first) == sum(s.count for s in SETS if s.round == ROUNDS[0])
    assert {q.kind for q in chosen_on} == {OWN_IN_CV}
    assert not {q.query for q in second} & {q.query for q in chosen_on}
    assert all(cards_of(q) is not None and cards_of(q).ruleset == q.ruleset for q in chosen_on)
