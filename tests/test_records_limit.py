"""How many records a data home holds (kb/records/store.py, MAX_FILES of each kind).

A home read at most 2 × MAX_FILES record files, both kinds together, and dropped the rest
without a word, while an import never refused to go over (the acceptance run stored 6,013
rulings, over the 5,000 the limit names). An import that would make a kind hold more than
MAX_FILES is now refused, saying how many are kept and new (nothing written), and a home
over it by hand reads the first MAX_FILES of the kind by name and warns about the rest.
Here with MAX_FILES lowered to 3.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.records import import_records, store
from kb.store import build

LIMIT = 3


def ruling(folder: Path, ident: str) -> Path:
    path = folder / f"{ident}.yaml"
    path.write_text(f"id: {ident}\nquestion: Who acts next?\nanswer: rule 340.2\nsource: test\n"
                    f"date: 2026-04-01\nruleset: riftbound\nedition: '1.3'\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("records-limit")
    build(home)
    return home


# ids imported in one step, in order against one home; the error's words (None: imported)
STEPS = [
    (["r1", "r2"], None),
    (["r3", "r4"], "the data home would hold 4 rulings (2 kept, 2 new); it holds at most 3"),
    (["r1", "r2", "r3"], None),  # two replaced, one new: 3
    (["r1"], None),  # replacing one at the limit
    (["r5"], "would hold 4 rulings (3 kept, 1 new)"),
]


@pytest.mark.parametrize("step", range(len(STEPS)))
def test_an_import_over_the_limit_is_refused_and_writes_nothing(home: Path, tmp_path: Path, step: int,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_FILES", LIMIT)
    ids, error = STEPS[step]
    before = sorted(p.name for p in (home / "records" / "rulings").glob("*")) if step else []
    paths = [ruling(tmp_path, i) for i in ids]
    if error is None:
        import_records(home, paths, "ruling", KnowledgeBase.open(home))
    else:
        with pytest.raises(DocumentError) as err:
            import_records(home, paths, "ruling", KnowledgeBase.open(home))
        assert error in str(err.value)
        assert sorted(p.name for p in (home / "records" / "rulings").glob("*")) == before, "nothing written"
    assert len(list((home / "records" / "rulings").glob("*.yaml"))) <= LIMIT


def test_a_home_over_the_limit_by_hand_reads_the_first_and_says_so(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_FILES", LIMIT)
    folder = tmp_path / "records"
    (folder / "rulings").mkdir(parents=True)
    for i in range(5):
        ruling(folder / "rulings", f"h{i}")
    found = store.read_folder(folder)
    assert [r.id for r in found.records] == ["h0", "h1", "h2"]
    [warning] = [d for d in found.diagnostics if "only the first" in d.message]
    assert "holds 5 ruling files; only the first 3 by name are read (from h3.yaml on, none is)" in warning.message


def test_the_list_and_the_check_say_what_was_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from kb.cli import main

    monkeypatch.setattr(store, "MAX_FILES", LIMIT)
    home = tmp_path / "home"
    build(home)
    (home / "records" / "rulings").mkdir(parents=True)
    for i in range(5):
        ruling(home / "records" / "rulings", f"h{i}")
    for command in (["rulings", "list"], ["rulings", "check"]):
        out = CliRunner().invoke(main, ["--home", str(home), *command]).output
        assert "holds 5 ruling files; only the first 3 by name are read" in out, out
