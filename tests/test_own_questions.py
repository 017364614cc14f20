"""The project's own held-out judge questions (bench/questions/, issue #18): every cited rule
exists in its edition as the reader numbers it (built from the full documents in ../shared, so
these cases skip without it), every shape is one of the list, no question is asked twice, and
the made-up card lists import with ``rulekb cards import``. One case per question or card list.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

from tests.conftest import corpus_graph

QUESTIONS = Path(__file__).resolve().parent.parent / "bench" / "questions"
COLUMNS = ["question", "ruleset", "edition", "cited_rules", "source_ref", "shape"]
SHAPES = {"can-i-when", "does-x-trigger", "what-happens", "who-acts", "definition", "how-many",
          "other"}

# (question file, its ruleset, its edition as rulekb names it, its card list, how many questions)
SETS = [
    ("own-riftbound-1.4.tsv", "riftbound", "1.4", "own-cards-riftbound.yaml", 60),
    ("own-mtg-2026.tsv", "mtg", "2026-01-16", "own-cards-mtg.yaml", 40),
]


def read_set(name: str) -> list[dict[str, str]]:
    """The rows of one question file, as dicts keyed by its header."""
    with open(QUESTIONS / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def card_names(name: str) -> list[str]:
    """The names in one card list (JSON, which is also YAML)."""
    return [card["name"] for card in json.loads((QUESTIONS / name).read_text("utf-8"))["cards"]]


ROWS = [(name, ruleset, edition, row) for name, ruleset, edition, _, _ in SETS
        for row in read_set(name)]
ROW_IDS = [row["source_ref"] for _, _, _, row in ROWS]


@pytest.mark.parametrize("name, ruleset, edition, cards, count", SETS)
def test_a_set_has_the_shared_columns_and_its_size(name: str, ruleset: str, edition: str,
                                                   cards: str, count: int) -> None:
    with open(QUESTIONS / name, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
    rows = read_set(name)
    assert header == COLUMNS
    assert len(rows) == count
    assert all(None not in row and all(row.values()) for row in rows), "a row has a missing field"


@pytest.mark.parametrize("name, ruleset, edition, row", ROWS, ids=ROW_IDS)
def test_a_question_is_well_formed(name: str, ruleset: str, edition: str,
                                   row: dict[str, str]) -> None:
    assert (row["ruleset"], row["edition"]) == (ruleset, edition)
    assert row["shape"] in SHAPES, row["shape"]
    assert re.fullmatch(r"own:(rb|mtg)-\d{3}", row["source_ref"]), row["source_ref"]
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


def test_no_question_is_asked_twice() -> None:
    seen: dict[str, str] = {}
    for _, _, _, row in ROWS:
        key = normalised(row["question"])
        assert key not in seen, f"{row['source_ref']} repeats {seen[key]}"
        seen[key] = row["source_ref"]
    assert len(set(ROW_IDS)) == len(ROW_IDS), "a source_ref is used twice"


@pytest.mark.parametrize("name, ruleset, edition, cards, count", SETS)
def test_the_card_list_imports_with_rulekb_cards_import(name: str, ruleset: str, edition: str,
                                                         cards: str, count: int,
                                                         tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["--home", str(tmp_path), "cards", "import",
                                str(QUESTIONS / cards), "--ruleset", ruleset])
    assert done.exit_code == 0, done.output
    names = card_names(cards)
    assert f"imported {len(names)} cards of {ruleset}" in done.output
    listed = runner.invoke(main, ["--home", str(tmp_path), "cards", "list", "--ruleset", ruleset,
                                  "--json"])
    assert listed.exit_code == 0, listed.output
    assert sorted(c["name"] for c in json.loads(listed.output)["cards"]) == sorted(names)


@pytest.mark.parametrize("name, ruleset, edition, cards, count", SETS)
def test_every_card_is_named_by_a_question(name: str, ruleset: str, edition: str, cards: str,
                                           count: int) -> None:
    asked = " ".join(row["question"].casefold() for row in read_set(name))
    unnamed = [c for c in card_names(cards) if c.split(",")[0].casefold() not in asked]
    assert not unnamed, f"cards no question names: {unnamed}"


def test_the_readme_counts_each_shape_as_the_files_do() -> None:
    table = {}
    for line in (QUESTIONS / "README.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 3 and cells[0] in SHAPES:
            table[cells[0]] = (int(cells[1]), int(cells[2]))
    counted = {shape: tuple(sum(row["shape"] == shape for row in read_set(name))
                            for name, *_ in SETS) for shape in SHAPES}
    assert table == counted
