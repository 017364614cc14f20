"""Where records live: their own folder of the data home, beside the builds.

Layout (``<home>`` is the data directory, ``RULEKB_HOME``)::

    <home>/records/rulings/<id>.yaml     one ruling per file, as imported (its fields)
    <home>/records/articles/<id>.md      an article, byte for byte as added
    <home>/records/<kind>/.imported.json each record's file as imported, and the lines
                                         its question and answer start on there

Records are imported by copy, so what a check names is the file the user imported (a
Markdown ruling is kept as YAML fields, its lines not the copy's): ``.imported.json``
keeps that file's path and lines, and :func:`read_folder` gives them to its records.

Records are imported by copy: every file is read and checked first (fields, ruleset and
edition against the knowledge base), and only when all of them are good is each written,
to a temporary file renamed into place (an interrupted import leaves no half file). An id
imported again replaces the record of that id. The derived data (citations, cited-by,
staleness, the ruling search index) is computed from the records' content per build
(:mod:`kb.records.citing`), never stored.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from kb.files import write_atomically
from kb.model import Diagnostic, DocumentError
from kb.records.model import (MAX_RECORD_BYTES, Kind, Parsed, Record, parse_article_file,
                              parse_ruling_file)
from kb.store import read_document_file, rules_dir

if TYPE_CHECKING:
    from kb.loaded import LoadedEditions

FOLDERS: dict[Kind, str] = {"ruling": "rulings", "article": "articles"}
SUFFIXES: dict[Kind, tuple[str, ...]] = {"ruling": (".yaml", ".yml", ".md", ".markdown"),
                                          "article": (".md", ".markdown")}
MAX_FILES = 5_000  # files of one import (a folder), and records of one kind in a home
IMPORTED = ".imported.json"  # in each kind's folder: where its records were imported from


@dataclass(frozen=True, eq=False)
class RecordSet:
    """Every stored record, what was wrong in the stored files, and a digest of their
    content: two record sets are equal (and hash alike) exactly when their files are, so a
    record set is the key of what is derived from it."""

    records: tuple[Record, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    digest: str = "empty"
    folder: Path | None = None

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RecordSet) and other.digest == self.digest

    def of_kind(self, kind: Kind) -> list[Record]:
        return [r for r in self.records if r.kind == kind]

    def get(self, kind: Kind, ident: str) -> Record | None:
        for r in self.records:
            if r.kind == kind and r.id == ident:
                return r
        return None


def records_folder(home: Path) -> Path:
    """``<home>/records``."""
    return home / "records"


# -- reading ---------------------------------------------------------------------------
def source_files(path: Path, kind: Kind) -> list[Path]:
    """The files to import from FILE or DIR (a folder: its record files, sorted, hidden
    ones skipped). A path that is neither is a DocumentError naming it."""
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUFFIXES[kind]
                       and not any(part.startswith(".") for part in p.relative_to(path).parts))
        if not found:
            raise DocumentError([Diagnostic(
                f"holds no {FOLDERS[kind]} ({', '.join(SUFFIXES[kind])} files)", str(path), 0)])
        if len(found) > MAX_FILES:
            raise DocumentError([Diagnostic(f"holds {len(found)} files; import at most {MAX_FILES} "
                                            "at once", str(path), 0)])
        return found
    if path.suffix.lower() not in SUFFIXES[kind]:
        raise DocumentError([Diagnostic(
            f"is not {'an' if kind == 'article' else 'a'} {kind} file (expected "
            f"{', '.join(SUFFIXES[kind])})", str(path), 0)])
    return [path]


def read_text_file(path: Path) -> str:
    """A record file as text: a regular file of at most 2 MB of UTF-8 (DocumentError naming
    the file and, for bad bytes, the line)."""
    data = read_document_file(path, MAX_RECORD_BYTES, "ruling or article file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DocumentError([Diagnostic(f"not UTF-8 text (byte {exc.start})", str(path), line)]) from None


def parse_file(path: Path, kind: Kind, text: str | None = None) -> Parsed:
    """The records of one file of ``kind``."""
    text = read_text_file(path) if text is None else text
    if kind == "ruling":
        return parse_ruling_file(text, str(path))
    return parse_article_file(text, str(path), path.stem)


def check_against(kb: LoadedEditions, record: Record) -> list[Diagnostic]:
    """What is wrong with a record given the editions built: a ruling's ruleset and edition
    must exist; an article's pins, when it has them, are the linker's business (warnings)."""
    rulesets = kb.ruleset_names()
    if record.kind == "article":
        return _check_pins(kb, record, rulesets)
    return ruling_edition_problems(kb, f"ruling {record.id}", record.ruleset, record.edition, record.file,
                                   dict(record.field_lines))


def ruling_edition_problems(kb: LoadedEditions, named: str, ruleset: str | None, edition: str | None,
                            file: str, lines: dict[str, int] | None = None) -> list[Diagnostic]:
    """A ruling's ``ruleset`` must be built and ``edition`` one of its editions (None: the
    field was missing or malformed, said already); each problem on its field's line when
    ``lines`` knows it. ``named``: the ruling as the message names it."""
    at = lines or {}
    rulesets = kb.ruleset_names()
    if ruleset is None:
        return []
    if ruleset not in rulesets:
        return [Diagnostic(f"{named}: field 'ruleset' {ruleset[:64]!r} is not a built "
                           f"ruleset (rulesets: {', '.join(rulesets)})", file, at.get("ruleset", 0))]
    if edition is not None and (ruleset, edition) not in kb.graphs:
        names = [e["edition"] for e in kb.editions(ruleset)]
        return [Diagnostic(f"{named}: field 'edition' {edition[:64]!r} is not an edition "
                           f"of {ruleset} (editions: {', '.join(names)})", file, at.get("edition", 0))]
    return []


def _check_pins(kb: LoadedEditions, record: Record, rulesets: list[str]) -> list[Diagnostic]:
    """An article's ``ruleset:``/``edition:``, when it has them, must name built ones (the
    linker would only warn and link against the newest, so the article would be filed
    under an edition it was not written for)."""
    where, at = record.file, dict(record.field_lines)
    if record.ruleset is not None and record.ruleset not in rulesets:
        return [Diagnostic(f"article {record.id}: field 'ruleset' {record.ruleset!r} is not a built "
                           f"ruleset (rulesets: {', '.join(rulesets)})", where, at.get("ruleset", 1))]
    if record.edition is not None:
        having = [r for r in ([record.ruleset] if record.ruleset else rulesets)
                  if (r, record.edition) in kb.graphs]
        if not having:
            names = sorted({e for r, e in kb.graphs if record.ruleset in (None, r)})
            return [Diagnostic(f"article {record.id}: field 'edition' {record.edition!r} is not a built "
                               f"edition (editions: {', '.join(names)})", where, at.get("edition", 1))]
    return []


@dataclass
class ImportReport:
    """What an import wrote: each record and whether it replaced one of the same id."""

    written: list[tuple[Record, bool]] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)


def import_records(home: Path, paths: Iterable[Path], kind: Kind, kb: LoadedEditions) -> ImportReport:
    """Check every file of ``paths`` (files or folders), then copy the records into
    ``<home>/records``. Nothing is written when any file has an error: the DocumentError
    lists them all, each naming its file and field."""
    errors: list[Diagnostic] = []
    report = ImportReport()
    chosen: dict[str, tuple[Record, bytes]] = {}
    for path in paths:
        try:
            files = source_files(path, kind)
        except DocumentError as exc:
            errors.extend(exc.diagnostics)
            continue
        for file in files:
            try:
                text = read_text_file(file)
            except DocumentError as exc:
                errors.extend(exc.diagnostics)
                continue
            parsed = parse_file(file, kind, text)
            errors.extend(parsed.errors)
            for named, ruleset, edition, lines in parsed.refused:  # every bad field, not the first kind
                errors.extend(ruling_edition_problems(kb, named, ruleset, edition, str(file), lines))
            report.warnings.extend(d for d in parsed.diagnostics if d.severity != "error")
            for record in parsed.records:
                problems = check_against(kb, record)
                errors.extend(problems)
                if record.id in chosen:
                    errors.append(Diagnostic(f"{kind} id {record.id!r} is also in "
                                             f"{chosen[record.id][0].file}", str(file), 0))
                elif not problems:
                    chosen[record.id] = (record, _stored_bytes(record, text))
    folder = records_folder(home) / FOLDERS[kind]
    kept = {p.stem for p in folder.glob("*.*") if not p.name.startswith(".")} if folder.is_dir() else set()
    if set(chosen) - kept and len(kept | set(chosen)) > MAX_FILES and not errors:  # read_folder's limit
        errors.append(Diagnostic(
            f"the data home would hold {len(kept | set(chosen))} {FOLDERS[kind]} ({len(kept)} kept, "
            f"{len(set(chosen) - kept)} new); it holds at most {MAX_FILES} (`rulekb {FOLDERS[kind]} remove` "
            "takes some out)", str(folder), 0))
    if errors:
        raise DocumentError(errors)
    folder.mkdir(parents=True, exist_ok=True)
    origins = _read_origins(folder)
    for ident, (record, data) in chosen.items():
        target = folder / (f"{ident}.yaml" if kind == "ruling" else f"{ident}.md")
        existed = target.exists()
        write_atomically(target, data)
        origins[ident] = {"file": str(Path(record.file).absolute()), "lines": dict(record.lines)}
        report.written.append((record, existed))
    _write_origins(folder, origins)
    _forget_loaded(home)  # this process reads what it wrote at once, not a second later
    return report


def _read_origins(folder: Path) -> dict[str, dict[str, Any]]:
    """``folder``'s ``.imported.json``: each id's file as imported and its lines there
    (empty when there is none, or it does not read: the records then name their copies)."""
    try:
        data = json.loads((folder / IMPORTED).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict) and isinstance(v.get("file"), str)}


def _write_origins(folder: Path, origins: dict[str, dict[str, Any]]) -> None:
    write_atomically(folder / IMPORTED, json.dumps(origins, indent=1, sort_keys=True).encode("utf-8"))


def _with_origin(record: Record, origin: dict[str, Any] | None) -> Record:
    """A stored record named by the file it was imported from, with that file's lines."""
    if origin is None:
        return record
    lines = origin.get("lines")
    kept = tuple(sorted((str(k), v) for k, v in lines.items() if isinstance(v, int) and v > 0)) \
        if isinstance(lines, dict) else ()
    return replace(record, imported_from=origin["file"], lines=kept)


def remove_records(home: Path, idents: Iterable[str], kind: Kind) -> list[Record]:
    """Remove the records of ``idents`` (of one kind) from ``<home>/records``, the records
    removed in their order. Every id must be one stored there, else nothing is removed and
    the DocumentError names each id that is not (a sample of ``rules/records/`` is not in
    the home: it says so, and that a record of its id imported replaces it)."""
    folder = records_folder(home) / FOLDERS[kind]
    _forget_loaded(home)  # what is on disk now, not what was read less than a second ago
    stored = {r.id: r for r in read_folder(records_folder(home)).of_kind(kind)}
    samples = {r.id for r in read_folder(embedded_folder()).of_kind(kind)}
    by_file: dict[str, list[str]] = {}
    for r in stored.values():
        by_file.setdefault(r.file, []).append(r.id)
    errors: list[Diagnostic] = []
    chosen: list[Record] = []
    asked = list(dict.fromkeys(idents))
    for ident in asked:
        record = stored.get(ident)
        if record is None:
            why = (f"{kind} {ident[:100]!r} is a sample shipped with rulekb ({embedded_folder()}), not kept "
                   f"in the data home; a {kind} of that id imported replaces it") if ident in samples else \
                f"no {kind} {ident[:100]!r} in {folder}" + (
                    f" (it holds {', '.join(sorted(stored)[:10])}{', …' if len(stored) > 10 else ''})"
                    if stored else " (it holds none)")
            errors.append(Diagnostic(why, str(folder), 0))
            continue
        others = [i for i in by_file[record.file] if i not in asked]
        if others:  # a file put there by hand holding several records
            errors.append(Diagnostic(f"{kind} {ident!r} shares its file with {', '.join(others)}: "
                                     "remove those too, or edit the file", record.file, 0))
            continue
        chosen.append(record)
    if errors:
        raise DocumentError(errors)
    for path in dict.fromkeys(r.file for r in chosen):
        Path(path).unlink(missing_ok=True)
    origins = _read_origins(folder)
    if any(r.id in origins for r in chosen):
        _write_origins(folder, {k: v for k, v in origins.items() if k not in {r.id for r in chosen}})
    _forget_loaded(home)
    return chosen


def _stored_bytes(record: Record, text: str) -> bytes:
    """What is kept of a record: a ruling's fields as one YAML mapping (a file may hold
    several rulings, each kept apart); an article as it was written."""
    if record.kind == "article":
        return text.encode("utf-8")
    fields = dict(record.front_matter)
    fields["question"], fields["answer"] = record.question, record.answer
    if record.url:
        fields["url"] = record.url
    return yaml.safe_dump(fields, allow_unicode=True, sort_keys=False, width=100).encode("utf-8")


# -- loading the stored records ------------------------------------------------------------
# A folder is looked at again at most once a second (a rule answer asks every time; records
# change by an import, which rebuilds anyway).
RESCAN_SECONDS = 1.0
_LOADED: dict[Path, tuple[tuple[object, ...], RecordSet, float]] = {}
_LOADED_LOCK = threading.Lock()


def _forget_loaded(home: Path) -> None:
    """Have the next :func:`read_folder` of ``home``'s records read the disk again (after
    this process wrote or removed files there, or before it checks what is stored)."""
    with _LOADED_LOCK:
        _LOADED.pop(records_folder(home), None)


def _signature(folder: Path) -> tuple[object, ...]:
    out: list[object] = []
    for kind, name in FOLDERS.items():
        try:
            entries = sorted(os.scandir(folder / name), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        for e in entries:
            if e.name == IMPORTED and e.is_file(follow_symlinks=False):
                st = e.stat(follow_symlinks=False)
                out.append((f"{kind}-origins", e.name, st.st_mtime_ns, st.st_size))
                continue
            if e.name.startswith(".") or not e.is_file(follow_symlinks=False):
                continue
            st = e.stat(follow_symlinks=False)
            out.append((kind, e.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def read_folder(folder: Path) -> RecordSet:
    """The records of a folder holding ``rulings/`` and ``articles/``, read again only when
    one of its files changed (name, size or time; looked at once a second at most). A file
    that does not read is a diagnostic of the set, never an exception."""
    now = time.monotonic()
    with _LOADED_LOCK:
        kept = _LOADED.get(folder)
    if kept is not None and now - kept[2] < RESCAN_SECONDS:
        return kept[1]
    signature = _signature(folder)
    if kept is not None and kept[0] == signature:
        with _LOADED_LOCK:
            _LOADED[folder] = (signature, kept[1], now)
        return kept[1]
    records: list[Record] = []
    diagnostics: list[Diagnostic] = []
    digest = hashlib.blake2b(digest_size=16)
    per_kind: dict[object, int] = {}
    origins: dict[object, dict[str, dict[str, Any]]] = {}
    for kind, name in FOLDERS.items():
        if (f"{kind}-origins", IMPORTED) in {(k, n) for k, n, *_ in signature}:  # type: ignore[misc]
            origins[kind] = _read_origins(folder / name)
            digest.update(json.dumps(origins[kind], sort_keys=True).encode("utf-8"))
    for kind, name, _, _ in signature:  # type: ignore[misc]
        if kind not in FOLDERS:
            continue
        per_kind[kind] = per_kind.get(kind, 0) + 1
        if per_kind[kind] > MAX_FILES:  # an import refuses to go over; files put there by hand
            if per_kind[kind] == MAX_FILES + 1:
                total = sum(1 for k, *_ in signature if k == kind)  # type: ignore[misc]
                diagnostics.append(Diagnostic(
                    f"holds {total} {kind} files; only the first {MAX_FILES} by name are read "
                    f"(from {name} on, none is)", str(folder / FOLDERS[kind]), 0, "warning"))  # type: ignore[index]
            continue
        path = folder / FOLDERS[kind] / name  # type: ignore[index]
        try:
            text = read_text_file(path)
        except DocumentError as exc:
            diagnostics.extend(exc.diagnostics)
            continue
        digest.update(f"{kind}\0{name}\0".encode() + text.encode("utf-8") + b"\0")
        parsed = parse_file(path, kind, text)  # type: ignore[arg-type]
        diagnostics.extend(parsed.diagnostics)
        records.extend(_with_origin(r, origins.get(kind, {}).get(r.id)) for r in parsed.records)
    found = RecordSet(tuple(records), tuple(diagnostics), digest.hexdigest() if signature else "empty",
                      folder)
    with _LOADED_LOCK:
        _LOADED[folder] = (signature, found, now)
    return found


#: Tests and tools read a corpus of records without importing it.
load_folder = read_folder


def embedded_folder() -> Path:
    """The sample records that come with the repository: ``rules/records/`` (beside the
    embedded editions, ``$RULEKB_RULES/records``)."""
    env = os.environ.get("RULEKB_RULES")
    return Path(env) / "records" if env else _default_embedded()


@functools.cache
def _default_embedded() -> Path:
    return rules_dir() / "records"  # without $RULEKB_RULES: the repository's (resolved once)

_MERGED: dict[tuple[str, str], RecordSet] = {}


def merge(base: RecordSet, over: RecordSet) -> RecordSet:
    """``base``'s records with ``over``'s, a record of ``over`` replacing one of the same
    kind and id (an imported ruling replaces the sample of that id)."""
    if not base.records and not base.diagnostics:
        return over
    if not over.records and not over.diagnostics:
        return base
    kept = _MERGED.get((base.digest, over.digest))
    if kept is not None:
        return kept
    taken = {(r.kind, r.id) for r in over.records}
    records = tuple(r for r in base.records if (r.kind, r.id) not in taken) + over.records
    merged = RecordSet(records, base.diagnostics + over.diagnostics,
                       hashlib.blake2b(f"{base.digest}+{over.digest}".encode(), digest_size=16).hexdigest(),
                       over.folder)
    if len(_MERGED) > 64:  # the sets of a long-running server's past imports
        _MERGED.clear()
    _MERGED[(base.digest, over.digest)] = merged
    return merged


def load_records(home: Path | None, embedded: bool = True) -> RecordSet:
    """The records a knowledge base answers from: the samples of ``rules/records/`` (unless
    ``embedded`` is false) and those imported into ``home`` (none for None), which replace
    a sample of the same id."""
    base = read_folder(embedded_folder()) if embedded else RecordSet()
    return merge(base, read_folder(records_folder(home)) if home is not None else RecordSet())
