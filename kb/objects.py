"""Content-addressed stored objects: what a build makes once per document content.

An edition object holds everything built from one document (its graph, its search index,
its rule texts for history); a mapping object holds the mapping between two editions that
follow each other. Each lives in a folder named after its key:

    objects/editions/<key>/graph.pickle, index/…, rules.sqlite, notes.json, object.json
    objects/mappings/<key>/mapping.sqlite, changes.json, object.json
    objects/citations/<key>/<edition>.json, object.json   (kb.timing.stored: per ruleset)

An edition's key is a digest of the document's bytes, everything the build is told about it
(ruleset, edition, date, format, partial, title, the ruleset's external citations) and the
source of the code that reads and builds it (:func:`code_version`), so a change to the
document, its metadata or the reader makes a new object and anything else reuses the old
one. The code counted is what the object's contents depend on: the readers, the graph and
the search index for every edition, the timing models only for the editions whose index
holds the models' answers (those the models cite: a scenario or model edit rebuilt all 77
editions of a full home, 6 minutes). A mapping's key is a digest of its two editions' graph
keys (:func:`graph_key`: the document, its metadata and the code that reads and builds its
graph) and the mapping code, so a change of the search or timing code keeps every mapping. An object
is written into a hidden folder and renamed into place; ``object.json`` lists the size, time
and digest of every file, and an object that does not match it is damaged and built again
(size and time are checked at every build, the digest on demand).

Builds link an object's files into their own folder (hard links where the file system has
them), so a build stays self-contained and an unchanged edition costs no copy.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from kb.editions.mapping import Counterpart, EditionMapping
from kb.graph import RuleGraph
from kb.numbers import Segments, sort_key

OBJECT_FORMAT = 3  # bump when what this module writes (object.json, the SQLite tables) changes
OBJECT_META = "object.json"
GRAPH_FILE = "graph.pickle"
RULES_FILE = "rules.sqlite"
MAPPING_FILE = "mapping.sqlite"
CHANGES_FILE = "changes.json"  # the diff of a mapping's two editions, its unchanged rules left out (kb.feeds)
NOTES_FILE = "notes.json"  # the reader's notes and the unresolved references (rulekb stats)
# The package source whose change changes what is built from a document (kb/ relative).
# The search index holds the timing models' answers, so their code counts too.
GRAPH_CODE = ("read", "graph.py", "model.py", "numbers.py", "references.py")
INDEX_CODE = (*GRAPH_CODE, "search")
EDITION_CODE = (*INDEX_CODE, "timing")  # an edition whose search index holds the models' answers
MAPPING_CODE = ("editions/mapping.py", "editions/diff.py", "graph.py", "model.py", "numbers.py")


@functools.cache
def code_version(parts: tuple[str, ...]) -> str:
    """A digest of the package files under ``parts`` (paths inside ``kb/``): the version of
    the code that builds an object, so editing a reader rebuilds what it reads."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(f"format {OBJECT_FORMAT}".encode())
    for part in parts:
        path = root / part
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for f in files:
            if "__pycache__" in f.parts or f.suffix == ".pyc":
                continue
            digest.update(f.relative_to(root).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def edition_key(document: bytes, meta: dict[str, Any], code: tuple[str, ...] = EDITION_CODE) -> str:
    """The key of the edition built from ``document`` with the build parameters ``meta`` by
    the package code under ``code`` (:data:`EDITION_CODE`, or :data:`INDEX_CODE` for an
    edition no timing model cites)."""
    digest = hashlib.sha256(code_version(code).encode())
    digest.update(json.dumps(meta, sort_keys=True, ensure_ascii=False).encode() + b"\0")
    digest.update(document)
    return digest.hexdigest()[:32]


def graph_key(document: bytes, meta: dict[str, Any]) -> str:
    """The key of the graph read from ``document`` with ``meta``: what a mapping depends on."""
    return edition_key(document, meta, GRAPH_CODE)


def mapping_key(older: str, newer: str) -> str:
    """The key of the mapping between the editions whose graph keys are ``older`` and ``newer``."""
    text = f"{code_version(MAPPING_CODE)}:{older}:{newer}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# -- objects on disk ---------------------------------------------------------------------
def _files(folder: Path) -> Iterator[Path]:
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != OBJECT_META:
            yield path


def _digest(path: Path) -> str:
    with path.open("rb") as fh:
        return hashlib.file_digest(fh, "blake2b").hexdigest()[:32]


def seal(folder: Path, info: dict[str, Any]) -> None:
    """Write ``object.json``: ``info`` and the size, modification time and digest of every
    file in ``folder``."""
    files = {}
    for p in _files(folder):
        st = p.stat()
        files[p.relative_to(folder).as_posix()] = [st.st_size, st.st_mtime_ns, _digest(p)]
    (folder / OBJECT_META).write_text(json.dumps({"format": OBJECT_FORMAT, **info, "files": files}),
                                      encoding="utf-8")


def check_object(folder: Path, deep: bool = False) -> tuple[dict[str, Any] | None, str]:
    """The object's ``object.json`` and ``""`` when every file matches it; else None and
    what is wrong (missing, unreadable, a file of another size, time or content).

    Objects are never written once sealed, so a file whose size or modification time moved
    was damaged; that check costs a ``stat`` per file, which keeps a build's cost for the
    editions it reuses small. ``deep`` compares every file's digest too.
    """
    try:
        info = json.loads((folder / OBJECT_META).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, ValueError) as exc:
        return None, f"{OBJECT_META} unreadable ({exc})"
    if not isinstance(info, dict) or info.get("format") != OBJECT_FORMAT or not isinstance(info.get("files"), dict):
        return None, f"{OBJECT_META} of another format"
    for name, (size, mtime_ns, digest) in info["files"].items():
        path = folder / name
        try:
            st = path.stat()
            if st.st_size != size or st.st_mtime_ns != mtime_ns or deep and _digest(path) != digest:
                return None, f"{name} is damaged (it changed since it was built)"
        except OSError:
            return None, f"{name} is missing"
    return info, ""


def put_object(kind_dir: Path, key: str, fill: Any) -> dict[str, Any]:
    """Build the object ``key`` under ``kind_dir`` with ``fill(folder) -> info`` into a hidden
    folder, seal it and rename it into place (a damaged one there is replaced); its info."""
    kind_dir.mkdir(parents=True, exist_ok=True)
    tmp = kind_dir / f".tmp-{key}-{os.getpid()}-{time.time_ns()}"
    tmp.mkdir()
    try:
        info = fill(tmp)
        seal(tmp, info)
        final = kind_dir / key
        if final.exists():
            if check_object(final)[0] is not None:  # another build made it meanwhile: keep theirs
                shutil.rmtree(tmp, ignore_errors=True)
                return json.loads((final / OBJECT_META).read_text(encoding="utf-8"))  # type: ignore[no-any-return]
            aside = kind_dir / f".damaged-{key}-{time.time_ns()}"  # damaged: set it aside
            final.rename(aside)
            shutil.rmtree(aside, ignore_errors=True)
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return json.loads((final / OBJECT_META).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def link_file(source: Path, target: Path) -> None:
    """Put ``source`` at ``target`` as a hard link (a copy where links are not possible)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def link_tree(source: Path, target: Path) -> None:
    """Link every file under ``source`` to the same place under ``target``."""
    for path in _files(source):
        link_file(path, target / path.relative_to(source))


def collect_garbage(objects: Path, grace_seconds: float = 3600.0) -> list[str]:
    """Remove objects no build links to any more (their files have one link left), once
    that has been so for ``grace_seconds``, and hidden folders older than that; their keys.

    A build links objects within seconds of making them, so a build still running elsewhere
    keeps its objects. On a file system without hard links every object looks unlinked and
    is removed after the grace period (builds hold copies).
    """
    now = time.time()
    removed = []
    for kind_dir in (objects / "editions", objects / "mappings", objects / "citations"):
        if not kind_dir.is_dir():
            continue
        for entry in kind_dir.iterdir():
            try:
                if entry.name.startswith("."):
                    if now - entry.stat().st_mtime > grace_seconds:
                        shutil.rmtree(entry, ignore_errors=True)
                    continue
                files = list(_files(entry))
                if all(f.stat().st_nlink <= 1 and now - f.stat().st_ctime > grace_seconds for f in files):
                    shutil.rmtree(entry, ignore_errors=True)
                    removed.append(entry.name)
            except OSError:
                continue
    return removed


def _open_ro(path: Path) -> sqlite3.Connection:
    """A stored SQLite file opened read-only (it never changes once sealed)."""
    return sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, check_same_thread=False)


# -- rule texts (history reads them without loading a graph) ------------------------------
def _segments_key(segments: Segments) -> str:
    return json.dumps(sort_key(segments))


def write_rules(rg: RuleGraph, path: Path) -> None:
    """Store every numbered node's kind, title, label, text, examples and parent, and the
    lookup key of its number, in an SQLite file."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (ruleset TEXT, edition TEXT, number_style TEXT)")
        db.execute("INSERT INTO meta VALUES (?, ?, ?)",
                   (rg.edition.ruleset, rg.edition.name, rg.edition.number_style))
        db.execute("CREATE TABLE rules (number TEXT PRIMARY KEY, ord INTEGER, key TEXT UNIQUE, kind TEXT,"
                   " title TEXT, label TEXT, text TEXT, examples TEXT, parent TEXT)")
        db.executemany("INSERT INTO rules VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", (
            (n, r.order, _segments_key(r.segments), r.kind, r.title, r.label, r.text,
             json.dumps(r.examples, ensure_ascii=False), r.parent)
            for n, r in rg.edition.rules.items()))
    db.close()


class StoredRules:
    """The rule texts of one stored edition, read one rule at a time (no graph loaded).

    It answers :meth:`find` and ``edition.number_style`` as a :class:`RuleGraph` does, so
    the number translators of :mod:`kb.editions.diff` take it in a graph's place.
    """

    def __init__(self, path: Path):
        self.path = path
        self._db = _open_ro(path)
        ruleset, edition, style = self._db.execute("SELECT * FROM meta").fetchone()
        self.edition = SimpleNamespace(ruleset=ruleset, name=edition, number_style=style)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def find(self, segments: Segments) -> str | None:
        """The canonical number of a parsed number in this edition, or None (as RuleGraph.find)."""
        row = self._db.execute("SELECT number FROM rules WHERE key = ?", (_segments_key(segments),)).fetchone()
        return row[0] if row else None

    def parent(self, number: str) -> str | None:
        """The number of a rule's parent (None for a chapter, or a number not here)."""
        row = self._db.execute("SELECT parent FROM rules WHERE number = ?", (number,)).fetchone()
        return row[0] if row else None

    def outline(self) -> list[tuple[str, str | None, str, str]]:
        """Every numbered node in document order as (number, parent, kind, label): the
        edition's hierarchy in one read, without the texts."""
        return self._db.execute("SELECT number, parent, kind, label FROM rules ORDER BY ord").fetchall()

    def rule(self, number: str) -> dict[str, Any] | None:
        """kind, title, label, text and examples of a rule, or None when it is not here."""
        row = self._db.execute("SELECT kind, title, label, text, examples FROM rules WHERE number = ?",
                               (number,)).fetchone()
        if row is None:
            return None
        return {"kind": row[0], "title": row[1], "label": row[2], "text": row[3], "examples": json.loads(row[4])}


# -- mappings ------------------------------------------------------------------------------
def write_mapping(mapping: EditionMapping, path: Path) -> None:
    """Store a mapping (every pair in order, the added numbers, its editions) in SQLite."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (ruleset TEXT, source TEXT, target TEXT, partial INTEGER)")
        db.execute("CREATE TABLE pairs (number TEXT PRIMARY KEY, ord INTEGER, target TEXT, confidence REAL,"
                   " similarity REAL, method TEXT)")
        db.execute("CREATE INDEX pairs_target ON pairs (target)")
        db.execute("CREATE TABLE added (number TEXT PRIMARY KEY, ord INTEGER)")
        db.execute("INSERT INTO meta VALUES (?, ?, ?, ?)",
                   (mapping.ruleset, mapping.source, mapping.target, int(mapping.partial)))
        db.executemany("INSERT INTO pairs VALUES (?, ?, ?, ?, ?, ?)", (
            (n, i, c.target, c.confidence, c.similarity, c.method) for i, (n, c) in enumerate(mapping.pairs.items())))
        db.executemany("INSERT INTO added VALUES (?, ?)", ((n, i) for i, n in enumerate(mapping.added)))
    db.close()


def read_mapping(path: Path) -> EditionMapping:
    """The whole :class:`EditionMapping` stored by :func:`write_mapping`."""
    db = _open_ro(path)
    try:
        ruleset, source, target, partial = db.execute("SELECT * FROM meta").fetchone()
        pairs = {n: Counterpart(n, t, c, s, m) for n, t, c, s, m in db.execute(
            "SELECT number, target, confidence, similarity, method FROM pairs ORDER BY ord")}
        added = [n for (n,) in db.execute("SELECT number FROM added ORDER BY ord")]
    finally:
        db.close()
    return EditionMapping(ruleset, source, target, pairs, added, bool(partial))


class StoredMapping:
    """One stored mapping read a number at a time: a rule's counterpart, or its origin."""

    def __init__(self, path: Path):
        self._db = _open_ro(path)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def get(self, number: str) -> Counterpart | None:
        """The counterpart of a source number (None when the number is not in the source)."""
        row = self._db.execute("SELECT target, confidence, similarity, method FROM pairs WHERE number = ?",
                               (number,)).fetchone()
        return Counterpart(number, *row) if row else None

    def targets(self) -> list[tuple[str, str | None]]:
        """Every source number with its target number (None: no counterpart), in the
        source edition's order: the whole mapping in one read."""
        return self._db.execute("SELECT number, target FROM pairs ORDER BY ord").fetchall()

    def origin(self, target_number: str) -> str | None:
        """The source number that maps onto a target number, if any."""
        row = self._db.execute("SELECT number FROM pairs WHERE target = ? ORDER BY ord DESC LIMIT 1",
                               (target_number,)).fetchone()
        return row[0] if row else None

    def back(self, target_number: str) -> Counterpart | None:
        """What :meth:`EditionMapping.back` gives: where a target number came from."""
        if self._db.execute("SELECT 1 FROM added WHERE number = ?", (target_number,)).fetchone():
            return Counterpart(target_number, None, 1.0, 0.0, "removed")
        row = self._db.execute("SELECT number, confidence, similarity, method FROM pairs WHERE target = ?"
                               " ORDER BY ord DESC LIMIT 1", (target_number,)).fetchone()
        return Counterpart(target_number, *row) if row else None
