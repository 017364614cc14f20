"""A file that is no ruling or article file is refused naming it as one (kb/records/store.py).

The acceptance run's 20 MB article was refused as "is 20000033 bytes; a rules document is at
most 2000000 bytes": the right limit, the wrong thing. Each kind of file a rulings import or
an articles add refuses, with what the message says; nothing is imported.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from kb.model import DocumentError
from kb.query import KnowledgeBase
from kb.records import import_records
from kb.records.model import MAX_RECORD_BYTES
from kb.store import build


def _oversized(folder: Path) -> Path:
    path = folder / "big.md"
    with path.open("wb") as fh:  # sparse: no 2 MB written
        fh.truncate(MAX_RECORD_BYTES + 1)
    return path


def _binary(folder: Path) -> Path:
    path = folder / "binary.md"
    path.write_bytes(b"---\nid: x\n---\n\xff\xfe\x00 not text")
    return path


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.md"
    os.mkfifo(path)
    return path


def _link(folder: Path) -> Path:
    target = folder / "real.md"
    target.write_text("rule 340.2\n", encoding="utf-8")
    path = folder / "link.md"
    path.symlink_to(target)
    return path


# how the file is made, the kind imported, words of the error
FILES: list[tuple[Callable[[Path], Path], str, str]] = [
    (_oversized, "article", f"is {MAX_RECORD_BYTES + 1} bytes; a ruling or article file is at most {MAX_RECORD_BYTES} bytes"),
    (_oversized, "ruling", "a ruling or article file is at most"),
    (_binary, "article", "not UTF-8 text"),
    (_fifo, "article", "is not a regular file (a device, FIFO or socket); import a ruling or article file"),
    (_link, "ruling", "is a symbolic link"),
]


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("records-files")
    build(home)
    return home


@pytest.mark.parametrize("make,kind,words", FILES)
def test_a_file_that_is_no_record_file_is_refused_as_one(home: Path, tmp_path: Path, make: Callable[[Path], Path],
                                                         kind: str, words: str) -> None:
    path = make(tmp_path)
    with pytest.raises(DocumentError) as err:
        import_records(home, [path], kind, KnowledgeBase.open(home))  # type: ignore[arg-type]
    message = str(err.value)
    assert words in message and str(path) in message, message
    assert "rules document" not in message
    assert not (home / "records").exists() or not any((home / "records").rglob("*.*")), "nothing imported"
