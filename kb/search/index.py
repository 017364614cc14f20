"""Building and opening an edition's search index.

The index of an edition lives in ``<build>/index/<ruleset>/<edition>/`` and is written by
:func:`build_index`, which ``kb.store`` runs for every edition inside the temporary build
folder, so the atomic swap of ``current`` covers it. Beside the whoosh files sits
``vocabulary.json``: the words of the edition as printed, with their counts, from which
"did you mean" suggestions are drawn.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import Counter
from pathlib import Path

from whoosh.filedb.filestore import FileStorage, RamStorage
from whoosh.index import EmptyIndexError, FileIndex

from kb.graph import RuleGraph
from kb.search.schema import documents, make_schema

INDEX_FORMAT = 4  # 3: the timing model's summaries (field "answers"); 4: the rules in players' words
VOCABULARY = "vocabulary.json"
META = "search.json"
_SPELLABLE = re.compile(r"[a-z][a-z’'-]*[a-z]")


def index_dir(build_dir: Path, ruleset: str, edition: str) -> Path:
    """Where the index of one edition lives inside a build."""
    return build_dir / "index" / ruleset / edition


def vocabulary(rg: RuleGraph) -> dict[str, int]:
    """Every word of the edition (lower case, as printed) with how often it occurs."""
    counts: Counter[str] = Counter()
    for rule in rg.edition.rules.values():
        for part in (rule.title, rule.text, *rule.examples):
            counts.update(_SPELLABLE.findall(part.lower()))
    for term in rg.edition.terms.values():
        counts.update(_SPELLABLE.findall(term.name.lower()))
    return dict(counts)


def write_index(rg: RuleGraph, storage: FileStorage | RamStorage) -> FileIndex:
    """Write the edition's documents into an empty storage and return the index."""
    ix = storage.create_index(make_schema())
    writer = ix.writer()
    for doc in documents(rg):
        writer.add_document(**doc)
    writer.commit()
    return ix


def build_index(rg: RuleGraph, build_dir: Path) -> None:
    """Write the index of one edition into a build folder (an ``ARTIFACT_BUILDERS`` entry)."""
    target = index_dir(build_dir, rg.edition.ruleset, rg.edition.name)
    target.mkdir(parents=True, exist_ok=True)
    write_index(rg, FileStorage(str(target)))
    (target / VOCABULARY).write_text(json.dumps(vocabulary(rg), ensure_ascii=False), encoding="utf-8")
    (target / META).write_text(json.dumps({"format": INDEX_FORMAT, "ruleset": rg.edition.ruleset,
                                           "edition": rg.edition.name,
                                           "documents": len(rg.edition.rules)}), encoding="utf-8")


def open_index(path: Path) -> tuple[FileIndex, dict[str, int]] | None:
    """Open a built index and its vocabulary; None when it is missing or of an older format."""
    try:
        meta = json.loads((path / META).read_text(encoding="utf-8"))
        if meta.get("format") != INDEX_FORMAT:
            return None
        words = json.loads((path / VOCABULARY).read_text(encoding="utf-8"))
        return FileStorage(str(path), readonly=True).open_index(), words
    except (OSError, ValueError, EmptyIndexError):
        return None


class _PrivateRamStorage(RamStorage):
    """RamStorage whose scratch files go to a folder of its own.

    whoosh's RamStorage names its scratch folder after the index (``/tmp/MAIN.tmp``), so two
    processes or threads writing memory indexes at once trample each other's files.
    """

    def __init__(self, scratch: str):
        super().__init__()
        self.scratch = scratch

    def temp_storage(self, name: str | None = None) -> FileStorage:
        return FileStorage(tempfile.mkdtemp(dir=self.scratch)).create()


def memory_index(rg: RuleGraph) -> tuple[FileIndex, dict[str, int]]:
    """An index held in memory (a knowledge base made from graphs, or an old build)."""
    with tempfile.TemporaryDirectory(prefix="rulekb-index-") as scratch:
        return write_index(rg, _PrivateRamStorage(scratch)), vocabulary(rg)
