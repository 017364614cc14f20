"""The development set of judges' questions in players' words (bench/training/, issue #18), for
training the search's re-ranker and cross-validating it, never for a held-out figure.

Every cited rule exists in its full edition as the reader numbers it (built from ../shared, so
those cases skip without it), every shape is one of the known list, no question is asked twice
nor repeats (by normalised text, or nearly) one of the held-out sets in bench/questions/ or the
shared sets in ../shared/questions/, and the made-up card lists import with
``rulekb cards import``. One case per question, card list or other question file.
"""

from __future__ import annotations

import csv
import difflib
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

from tests.conftest import SHARED, corpus_graph

REPO = Path(__file__).resolve().parent.parent
TRAINING = REPO / "bench" / "training"
HELD_OUT = REPO / "bench" / "questions"
SHARED_QUESTIONS = SHARED / "questions"
COLUMNS = ["question", "ruleset", "edition", "cited_rules", "source_ref", "shape"]
SHAPES = {"can-i-when", "does-x-trigger", "what-happens", "who-acts", "definition", "how-many",
          "other"}
# Two questions this alike (difflib's ratio over the normalised text) are one question reworded.
NEAR = 0.9

# (question file, its ruleset, its edition as rulekb names it, its card list, its source_ref
#  prefix, how many questions)
SETS = [
    ("riftbound-1.4.tsv", "riftbound", "1.4", "cards-riftbound.yaml", "train:rb", 105),
    ("mtg-2026.tsv", "mtg", "2026-01-16", "cards-mtg.yaml", "train:mtg", 85),
]


def read_questions(path: Path) -> list[dict[str, str]]:
    """The rows of one tab-separated question file, as dicts keyed by its header."""
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def card_names(name: str) -> list[str]:
    """The names in one card list (JSON, which is also YAML)."""
    return [card["name"] for card in json.loads((TRAINING / name).read_text("utf-8"))["cards"]]


def normalised(question: str) -> str:
    """A question's words, case-folded, without punctuation or spacing differences."""
    return " ".join(re.sub(r"[^\w\s]", " ", question.casefold()).split())


ROWS = [(name, ruleset, edition, prefix, row) for name, ruleset, edition, _, prefix, _ in SETS
        for row in read_questions(TRAINING / name)]
ROW_IDS = [row["source_ref"] for *_, row in ROWS]
# The held-out sets a training question must not repeat. A set's tuning half (own4-tune-*,
# bench/questions/README.md) is a development set as the training set is, not held out.
OTHER_FILES = sorted(p for p in HELD_OUT.glob("*.tsv") if "-tune-" not in p.name)


@pytest.mark.parametrize("name, ruleset, edition, cards, prefix, count", SETS)
def test_a_set_has_the_shared_columns_and_its_size(name: str, ruleset: str, edition: str,
                                                   cards: str, prefix: str, count: int) -> None:
    with open(TRAINING / name, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
    rows = read_questions(TRAINING / name)
    assert header == COLUMNS
    assert len(rows) == count
    assert all(None not in row and all(row.values()) for row in rows), "a row has a missing field"


@pytest.mark.parametrize("name, ruleset, edition, prefix, row", ROWS, ids=ROW_IDS)
def test_a_question_is_well_formed(name: str, ruleset: str, edition: str, prefix: str,
                                   row: dict[str, str]) -> None:
    assert (row["ruleset"], row["edition"]) == (ruleset, edition)
    assert row["shape"] in SHAPES, row["shape"]
    assert re.fullmatch(re.escape(prefix) + r"-\d{3}", row["source_ref"]), row["source_ref"]
    cited = row["cited_rules"].split(",")
    assert 1 <= len(cited) <= 3 and len(set(cited)) == len(cited), cited


@pytest.mark.parametrize("name, ruleset, edition, prefix, row", ROWS, ids=ROW_IDS)
def test_every_cited_rule_exists_in_the_full_edition(name: str, ruleset: str, edition: str,
                                                     prefix: str, row: dict[str, str]) -> None:
    rules = corpus_graph(ruleset, edition).edition.rules  # skips without ../shared
    missing = [n for n in row["cited_rules"].split(",") if n not in rules]
    assert not missing, f"{row['source_ref']}: {missing} not in {ruleset} {edition}"


def test_no_question_is_asked_twice() -> None:
    seen: dict[str, str] = {}
    for *_, row in ROWS:
        key = normalised(row["question"])
        assert key not in seen, f"{row['source_ref']} repeats {seen[key]}"
        seen[key] = row["source_ref"]
    assert len(set(ROW_IDS)) == len(ROW_IDS), "a source_ref is used twice"


def repeated(questions: list[str]) -> list[tuple[str, str]]:
    """The training questions that repeat, or nearly repeat, one of ``questions``: pairs of
    (source_ref, the other question)."""
    others = [normalised(q) for q in questions]
    exact = set(others)
    found = []
    for *_, row in ROWS:
        mine = normalised(row["question"])
        if mine in exact:
            found.append((row["source_ref"], mine))
            continue
        matcher = difflib.SequenceMatcher(None, "", mine)  # b, the one it indexes once
        for other in others:
            matcher.set_seq1(other)
            if matcher.real_quick_ratio() >= NEAR and matcher.quick_ratio() >= NEAR \
                    and matcher.ratio() >= NEAR:
                found.append((row["source_ref"], other))
                break
    return found


@pytest.mark.parametrize("path", OTHER_FILES, ids=[p.name for p in OTHER_FILES])
def test_no_question_repeats_a_held_out_one(path: Path) -> None:
    found = repeated([row["question"] for row in read_questions(path)])
    assert not found, f"repeat questions of {path.name}: {found}"


def shared_question_files() -> list[Path]:
    """The shared development sets (../shared/questions/*.tsv), skipping without ../shared."""
    if not SHARED_QUESTIONS.is_dir():
        pytest.skip(f"needs the shared question sets in {SHARED_QUESTIONS} (CI has ../shared "
                    "beside the checkout; a fresh clone does not)")
    files = sorted(SHARED_QUESTIONS.glob("*.tsv"))
    assert files, f"no question files in {SHARED_QUESTIONS}"
    return files


def test_no_question_repeats_a_shared_one() -> None:
    for path in shared_question_files():
        found = repeated([row["question"] for row in read_questions(path)])
        assert not found, f"repeat questions of {path.name}: {found}"


def cards_command(home: Path, *words: str) -> tuple[int, str]:
    """Run ``rulekb --home HOME cards WORDS...``: its exit code and output."""
    done = CliRunner().invoke(main, ["--home", str(home), "cards", *words])
    return done.exit_code, done.output


@pytest.mark.parametrize("name, ruleset, edition, cards, prefix, count", SETS)
def test_the_card_list_imports_whole_with_rulekb_cards_import(name: str, ruleset: str,
                                                               edition: str, cards: str,
                                                               prefix: str, count: int,
                                                               tmp_path: Path) -> None:
    written = json.loads((TRAINING / cards).read_text("utf-8"))["cards"]
    code, output = cards_command(tmp_path, "import", str(TRAINING / cards), "--ruleset", ruleset)
    assert (code, f"imported {len(written)} cards of {ruleset}" in output) == (0, True), output
    code, output = cards_command(tmp_path, "list", "--ruleset", ruleset, "--json")
    assert code == 0, output
    assert json.loads(output)["cards"] == written, "a card reads back otherwise than written"


@pytest.mark.parametrize("name, ruleset, edition, cards, prefix, count", SETS)
def test_every_card_is_named_by_a_question(name: str, ruleset: str, edition: str, cards: str,
                                           prefix: str, count: int) -> None:
    asked = " ".join(row["question"].casefold() for row in read_questions(TRAINING / name))
    unnamed = [c for c in card_names(cards) if c.split(",")[0].casefold() not in asked]
    assert not unnamed, f"cards no question names: {unnamed}"


@pytest.mark.parametrize("name, ruleset, edition, cards, prefix, count", SETS)
def test_no_card_shares_a_name_with_a_held_out_card(name: str, ruleset: str, edition: str,
                                                    cards: str, prefix: str,
                                                    count: int) -> None:
    held_out = {card["name"].casefold() for path in HELD_OUT.glob("*.yaml")
                for card in json.loads(path.read_text("utf-8"))["cards"]}
    shared = [c for c in card_names(cards) if c.casefold() in held_out]
    assert not shared, f"cards named as in bench/questions: {shared}"


def test_the_readme_counts_each_shape_as_the_files_do() -> None:
    table = {}
    for line in (TRAINING / "README.md").read_text("utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 1 + len(SETS) and cells[0] in SHAPES:
            table[cells[0]] = tuple(int(c) for c in cells[1:])
    counted = {shape: tuple(sum(row["shape"] == shape for row in read_questions(TRAINING / name))
                            for name, *_ in SETS) for shape in SHAPES}
    assert table == counted
