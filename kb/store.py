"""The built knowledge base on disk, built into a temporary place and swapped in atomically.

Layout of the data directory (``RULEKB_HOME``; see :func:`default_home` for its default)::

    imports/<ruleset>/<edition>/edition.toml + the imported document
    objects/editions/<key>/ and objects/mappings/<key>/      (built once per content: kb.objects)
    builds/<build-id>/manifest.json                          (every edition, their content keys, the log)
    builds/<build-id>/editions/<ruleset>/<edition>.pickle   (a RuleGraph)
    builds/<build-id>/index/<ruleset>/<edition>/             (the search index)
    builds/<build-id>/rules/<ruleset>/<edition>.sqlite       (rule texts, for history)
    builds/<build-id>/notes/<ruleset>/<edition>.json         (reader notes, unresolved references)
    builds/<build-id>/mappings/<ruleset>/<older>/<newer>.sqlite  (neighbouring editions mapped)
    builds/<build-id>/mappings/<ruleset>/<older>/<newer>.changes.json  (and what changed between them)
    builds/<build-id>/timing/<ruleset>/<edition>.json        (the timing model's citations carried there)
    current -> builds/<build-id>                             (a symlink, replaced atomically)

A build's files are hard links to the stored objects, so an unchanged edition is built once
and shared by every build. A build that fails, or is killed halfway, leaves ``current``
pointing at the last good one; objects no build links to any more are removed.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import re
import shutil
import stat
import time
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing.connection import Connection
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.errors import QueryError
from kb.graph import RuleGraph, build_edition
from kb.loaded import BUILT_FORMAT
from kb.model import Diagnostic, DocumentError, ReadResult, RulesetInfo
from kb.numbers import format_number
from kb.objects import (CHANGES_FILE, EDITION_CODE, GRAPH_FILE, INDEX_CODE, MAPPING_FILE, NOTES_FILE, RULES_FILE, check_object,
                        collect_garbage, edition_key, graph_key, link_file, link_tree, mapping_key, put_object,
                        read_mapping, write_mapping, write_rules)

if TYPE_CHECKING:
    from kb.editions.mapping import EditionMapping

# The document readers (python-docx, pypdf, numpy...), the search index's writer, the
# editions' mapper and the timing model are imported by the functions that read or build,
# not here: every command imports this module, and a judge's `rulekb rule 337.2` reads a
# built knowledge base only (bench/cli_startup.py, tests/test_cli_startup.py).

BUILD_FORMAT = 1
MAX_DOCUMENT_BYTES = 32 * 1024 * 1024  # the largest real document is under 1 MB
_NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_PLAIN_FILE = re.compile(r"^(?!\.)[^/\\\0]{1,200}$")  # a file name in its folder: no path, not hidden

# Per-edition artifacts written next to the graph (the search index joins here).
ArtifactBuilder = Callable[[RuleGraph, Path], None]
ARTIFACT_BUILDERS: list[ArtifactBuilder] = []


def build_search_index(rg: RuleGraph, build_dir: Path) -> None:
    """Write an edition's search index (:func:`kb.search.index.build_index`, imported when a
    build runs: whoosh and the search vocabulary are not loaded by commands that only read)."""
    from kb.search.index import build_index
    build_index(rg, build_dir)


ARTIFACT_BUILDERS.append(build_search_index)  # the search index (kb.search)


def checkout_home() -> Path | None:
    """``.rulekb`` in the source checkout this package runs from, or None when installed.

    ``make run`` installs the checkout into its ``.venv`` in place (editable), so the CLI,
    ``rulekb serve`` and ``make run`` of one checkout find the same data wherever they are
    run from; a checkout is the folder holding this package beside ``pyproject.toml`` and
    ``rules/``.
    """
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "rules").is_dir():
        return root / ".rulekb"
    return None


def default_home() -> Path:
    """The data directory: ``$RULEKB_HOME``; else, run from a source checkout, its
    ``.rulekb``; else ``$XDG_DATA_HOME/rulekb`` (``~/.local/share/rulekb``)."""
    env = os.environ.get("RULEKB_HOME")
    if env:
        return Path(env).expanduser()
    checkout = checkout_home()
    if checkout is not None:
        return checkout
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rulekb"


def rules_dir() -> Path:
    """The embedded corpus: ``$RULEKB_RULES`` or the ``rules/`` folder beside the package."""
    env = os.environ.get("RULEKB_RULES")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "rules"


@dataclass
class EditionSource:
    """Where one edition comes from: the embedded corpus or a user's import."""

    ruleset: str
    name: str
    date: str
    path: Path
    format: str
    partial: bool = False
    title: str = ""
    origin: str = "embedded"


@dataclass
class Sources:
    rulesets: dict[str, RulesetInfo] = field(default_factory=dict)
    editions: list[EditionSource] = field(default_factory=list)


def check_name(value: str, what: str) -> str:
    """Ruleset and edition names become folder names: keep them plain."""
    if not _NAME.match(value):
        raise DocumentError([Diagnostic(
            f"invalid {what} name {value!r}: use lower-case letters, digits, '.', '_' or '-'")])
    return value


def collect_sources(home: Path, rules: Path | None = None) -> Sources:
    """Every edition to build: the manifests in ``rules/``, then imports (which replace an
    embedded edition of the same ruleset and name)."""
    rules = rules or rules_dir()
    out = Sources()
    for manifest in sorted(rules.glob("*/ruleset.toml")):
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        info = RulesetInfo(data["name"], data.get("title", data["name"]),
                           data.get("number_style", "dotted"), data.get("default_format", ""),
                           dict(data.get("external_citations", {})))
        out.rulesets[info.name] = info
        for ed in data.get("editions", []):
            out.editions.append(EditionSource(
                info.name, str(ed["name"]), str(ed.get("date", "")), manifest.parent / ed["source"],
                ed.get("format", info.default_format), bool(ed.get("partial", False)),
                ed.get("title", ""), "embedded"))
    for meta in sorted((home / "imports").glob("*/*/edition.toml")):
        if meta.parent.name.startswith("."):  # an import being written, or one killed halfway
            continue
        data = tomllib.loads(meta.read_text(encoding="utf-8"))
        if not _PLAIN_FILE.match(str(data.get("file", ""))) or data["file"] == "edition.toml":
            raise DocumentError([Diagnostic(  # an edited edition.toml must not reach outside
                f"imported file {data.get('file')!r} is not a plain file name in its folder; "
                "import the document again", str(meta), 0)])
        src = EditionSource(data["ruleset"], data["edition"], data.get("date", ""),
                            meta.parent / data["file"], data.get("format", ""),
                            bool(data.get("partial", False)), data.get("title", ""), "imported")
        if src.ruleset not in out.rulesets:
            out.rulesets[src.ruleset] = RulesetInfo(src.ruleset, data.get("ruleset_title", src.ruleset))
        out.editions = [e for e in out.editions if (e.ruleset, e.name) != (src.ruleset, src.name)]
        out.editions.append(src)
    return out


def read_document_file(file: Path, limit: int = MAX_DOCUMENT_BYTES, what: str = "rules document") -> bytes:
    """The bytes of a document to import: a regular file of at most ``limit`` bytes
    (``what`` it is names it in the messages: a rules document, a ruling or article file).

    A symbolic link, a directory, a device (``/dev/zero``), a FIFO or a socket is refused
    at once with a DocumentError naming it, before anything is read from it.
    """
    where = str(file)

    def refuse(message: str) -> DocumentError:
        return DocumentError([Diagnostic(message, where, 0)])
    try:
        st = os.lstat(file)
    except OSError as exc:
        raise refuse(f"cannot read the file: {exc.strerror}") from exc
    if stat.S_ISLNK(st.st_mode):
        raise refuse(f"is a symbolic link (to {os.path.realpath(file)}); import the file itself")
    if stat.S_ISDIR(st.st_mode):
        raise refuse(f"is a directory; import one {what} file")
    if not stat.S_ISREG(st.st_mode):
        raise refuse(f"is not a regular file (a device, FIFO or socket); import a {what} file")
    if st.st_size > limit:
        raise refuse(f"is {st.st_size} bytes; a {what} is at most {limit} bytes")
    try:  # no link, no waiting on a FIFO swapped in since the check; then check again
        fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        raise refuse(f"cannot read the file: {exc.strerror}") from exc
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise refuse(f"is not a regular file; import a {what} file")
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise refuse(f"is over {limit} bytes; a {what} is at most {limit} bytes")
    return data


# A reader's note that the document stops where the file does, mid-rule or mid-Glossary
# ("the document ends inside rule 373.2, whose text stops mid-sentence (is it truncated?)",
# "the Glossary runs to the end of the file ...: the file looks truncated"); a rule with no
# text ("is the document truncated?") is not one: the document goes on after it.
_CUT_SHORT = re.compile(r"^the (document ends|file ends|Glossary runs to the end)\b.*\btruncated\b")


class CutShortError(DocumentError):
    """A document the reader found cut short, refused unless imported as an excerpt."""


def cut_short_notes(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The reader's notes saying the document is cut short where the file ends."""
    return [d for d in diagnostics if d.severity != "error" and _CUT_SHORT.search(d.message)]


# A document's top-level sections: its chapters ("## 300.", Magic's "5. Turn Structure") by
# number, then the Glossary, which follows every chapter where a ruleset has one.
GLOSSARY = "Glossary"
TopSections = tuple[tuple[str, str], ...]  # (number or "Glossary", title), in the document's order
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def top_sections(result: ReadResult) -> TopSections:
    """A read document's top-level sections: each chapter's number and title, in order, then
    the Glossary when the document has glossary entries (Magic's; Riftbound's have none)."""
    chapters = tuple((format_number(r.number, result.number_style), r.title)
                     for r in result.rules if r.kind == "chapter" and len(r.number) == 1 and r.number[0].isdigit())
    glossary = ((GLOSSARY, GLOSSARY),) if any(t.kind == "glossary" for t in result.terms) else ()
    return chapters + glossary


def _rank(number: str) -> tuple[int, int]:
    """Where a top-level section comes: chapters by number, the Glossary after them all."""
    return (1, 0) if number == GLOSSARY else (0, int(number))


@dataclass(frozen=True)
class EditionSections:
    """Another edition of the ruleset, as the cut-short check compares a document with it."""

    name: str
    date: str
    partial: bool
    sections: TopSections


def _not_later(other: str, date: str) -> bool:
    """Whether an edition dated ``other`` is dated on or before ``date`` (or either is unknown)."""
    return not (_ISO_DATE.match(other) and _ISO_DATE.match(date)) or other <= date


def stops_where_others_go_on(sections: TopSections, date: str, others: Iterable[EditionSections]
                             ) -> tuple[list[EditionSections], list[tuple[str, str]]]:
    """The editions that go on where a document stops, and the top-level sections they go on
    with: ``([], [])`` unless the document is cut short between two top-level sections.

    The editions compared are those dated on or before the document (a later edition may add
    a chapter: Riftbound 1.3 added 800, Magic's 2009 renumbering 6 to 9; or undated). The
    document is cut short when every full edition among them, and at least one edition, has a
    top-level section after the document's last. An excerpt is only evidence that its edition
    goes on: it may lack any chapter, so one that stops early tells nothing.
    """
    if not sections:
        return [], []
    end = max(_rank(n) for n, _ in sections)
    compared = [e for e in others if _not_later(e.date, date)]
    going = [e for e in compared if any(_rank(n) > end for n, _ in e.sections)]
    if not going or any(not e.partial and e not in going for e in compared):
        return [], []
    missing: dict[str, str] = {}
    for e in sorted(going, key=lambda e: e.date, reverse=True):  # the newest edition's titles
        for n, title in e.sections:
            if _rank(n) > end:
                missing.setdefault(n, title)
    return going, sorted(missing.items(), key=lambda item: _rank(item[0]))


def _sections_named(sections: Iterable[tuple[str, str]]) -> str:
    """``chapters 300 (Playing the Game) and 800 (Keywords)``, ``chapter 9 (…) and the Glossary``."""
    chapters = [f"{n} ({t})" if t else n for n, t in sections if n != GLOSSARY]
    parts = ([f"chapter{'s' if len(chapters) > 1 else ''} {_listed(chapters)}"] if chapters else [])
    parts += ["the Glossary"] if any(n == GLOSSARY for n, _ in sections) else []
    return _listed(parts)


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _stored_sections(src: EditionSource) -> TopSections | None:
    """An edition's top-level sections: as its import recorded them in ``edition.toml``, else
    read from its document (an embedded edition, or one imported before they were recorded);
    None when it cannot be read (the build names that document)."""
    if src.origin == "imported":
        try:
            kept = tomllib.loads((src.path.parent / "edition.toml").read_text(encoding="utf-8")).get("sections")
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            kept = None
        if isinstance(kept, list) and all(isinstance(s, list) and len(s) == 2 and all(isinstance(w, str) for w in s)
                                          and (s[0] == GLOSSARY or s[0].isdigit()) for s in kept):
            return tuple((n, t) for n, t in kept)
    from kb.read import read_bytes
    try:
        result, _ = read_bytes(read_document_file(src.path), str(src.path), src.format or None)
    except (DocumentError, OSError):
        return None
    return top_sections(result)


def _editions_beside(sources: Sources, ruleset: str, edition: str, date: str) -> list[EditionSections]:
    """The ruleset's other editions dated on or before ``date`` (the edition being replaced is
    not one), with their top-level sections."""
    out = []
    for src in sources.editions:
        if src.ruleset == ruleset and src.name != edition and _not_later(src.date, date):
            sections = _stored_sections(src)
            if sections is not None:
                out.append(EditionSections(src.name, src.date, src.partial, sections))
    return out


def _stopped_early_note(file: Path, result: ReadResult, sections: TopSections, ruleset: str, date: str,
                        going: list[EditionSections], missing: list[tuple[str, str]]) -> Diagnostic:
    """What the cut-short check says of a document (``result``, its :func:`top_sections`)
    stopping where the other editions go on, at its last rule's line."""
    last = max(result.rules, key=lambda r: r.line)
    end = max(sections, key=lambda s: _rank(s[0]))
    stopped = _sections_named([end])
    editions = _listed([f"{e.name} ({e.date or 'undated'}{', an excerpt' if e.partial else ''})"
                        for e in sorted(going, key=lambda e: e.date)])
    undated = ("" if _ISO_DATE.match(date) else
               " (the document has no date, so editions of every date were compared: give --date "
               "if it is an older edition)")
    return Diagnostic(
        f"the document stops after {stopped}, at rule {format_number(last.number, result.number_style)}, "
        f"where {ruleset} {'edition' if len(going) == 1 else 'editions'} {editions} "
        f"{'goes' if len(going) == 1 else 'go'} on: {_sections_named(missing)} "
        f"{'is' if len(missing) == 1 else 'are'} missing{undated}", str(file), last.line, "warning")


def _cut_short_refusal(why: str) -> str:
    """The refusal of a document found cut short (``why``: where and how), with what to do."""
    return (f"the document looks cut short: {why}. Import the whole document; or, to keep what it "
            "holds as an excerpt (not the default edition while the ruleset has a whole one), "
            "import it with --partial")


def _toml_value(value: object) -> str:
    """A value written in ``edition.toml``: JSON's strings and lists are TOML's, once every
    character outside the BMP is written as itself (TOML has no surrogate escapes) and DEL,
    which TOML wants escaped, is."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def import_document(home: Path, file: Path, *, ruleset: str, edition: str, date: str = "",
                    fmt: str | None = None, partial: bool = False, title: str = "",
                    rebuild: Callable[[], object] | None = None,
                    notes: list[Diagnostic] | None = None,
                    check: Callable[[ReadResult, str], object] | None = None) -> Path:
    """Check that a document reads and builds, then keep a copy under ``imports/``.

    Only a regular file is imported (:func:`read_document_file`); the bytes checked are
    the bytes kept. Nothing is kept when the document has errors (DocumentError lists them),
    when it is cut short and not imported as an excerpt (``partial``; CutShortError names the
    line and why: the reader's note of a cut inside a rule or the Glossary, or the chapters
    that the ruleset's other editions go on with after the document's last,
    :func:`stops_where_others_go_on`), or when writing the copy fails (a
    full disk, a read-only data directory). ``notes``, when given, receives the reader's
    warnings and notes. ``rebuild``, when given, runs once the copy is in place; if it fails,
    the import is undone (the edition imported before, if any, is back) and its error raised.
    ``check``, when given, sees the document as read and the date it takes effect before
    anything is kept; an error it raises refuses the import (the CLI's doubtful-default check).
    """
    from kb.read import READERS, read_bytes
    check_name(ruleset, "ruleset")
    check_name(edition, "edition")
    if fmt is not None and fmt not in READERS:
        raise DocumentError([Diagnostic(f"unknown format {fmt!r} (formats: {', '.join(sorted(READERS))})")])
    data = read_document_file(file)
    sources = collect_sources(home)
    info = sources.rulesets.get(ruleset)
    # the Tournament Rules imported as the Core Rules' ruleset are refused (kb.read.kinds)
    result, used = read_bytes(data, str(file), fmt, ruleset=ruleset, ruleset_title=info.title if info else "")
    if info is not None and info.default_format and result.number_style != info.number_style:
        # A ruleset its manifest describes numbers its rules one way: Magic's 117.3a, Riftbound's 337.1.a.
        raise DocumentError([Diagnostic(
            f"the document reads as {used}, whose rules are numbered in the {result.number_style} style, "
            f"but {ruleset}'s rules are numbered in the {info.number_style} style: is --ruleset right?",
            str(file), 0)])
    cut = cut_short_notes(result.diagnostics)
    if cut and not partial:
        # Imported whole, a cut document would become the newest edition and every rule
        # after the cut would read as removed.
        raise CutShortError([Diagnostic(_cut_short_refusal(d.message), d.file or str(file), d.line)
                             for d in cut])
    # Cut between two chapters, no reader can tell: the ruleset's other editions can.
    used_date = date or result.date
    sections = top_sections(result)
    going, missing = stops_where_others_go_on(
        sections, used_date, _editions_beside(sources, ruleset, edition, used_date))
    stopped = _stopped_early_note(file, result, sections, ruleset, used_date, going, missing) if going else None
    if stopped is not None and not partial:
        raise CutShortError([replace(stopped, severity="error", message=_cut_short_refusal(stopped.message))])
    if check is not None:
        check(result, used_date)
    if notes is not None:
        notes.extend(d for d in result.diagnostics if d.severity in ("warning", "info")
                     and not d.message.startswith("unresolved reference"))
        notes.extend([stopped] if stopped is not None else [])
    build_edition(result, ruleset=ruleset, edition=edition, date=date, source=str(file),
                  external_citations=info.external_citations if info else None)
    target = home / "imports" / ruleset / edition
    staging = target.with_name(f".{edition}.tmp-{os.getpid()}-{time.time_ns()}")
    name = file.name if _PLAIN_FILE.match(file.name) and file.name != "edition.toml" else "document"
    meta = {"ruleset": ruleset, "edition": edition, "date": date or result.date,
            "file": name, "format": used, "partial": partial, "title": title or result.title,
            "sections": [list(s) for s in sections]}  # what the next import compares
    created = [d for d in (home, home / "imports", target.parent) if not d.exists()]
    try:  # a full disk or a permission error halfway leaves no half-written folder behind
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_stale(target.parent)
        staging.mkdir()
        (staging / name).write_bytes(data)
        (staging / "edition.toml").write_text(
            "".join(f"{k} = {_toml_value(v)}\n" for k, v in meta.items()), encoding="utf-8")
        old = _swap_in(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        _remove_empty(reversed(created))
        raise
    if rebuild is not None:
        try:
            rebuild()
        except BaseException:
            if old is not None:
                _swap_back(target, old)
            else:
                shutil.rmtree(target, ignore_errors=True)
                _remove_empty(reversed(created))
            raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return target


def _remove_empty(folders: Iterable[Path]) -> None:
    """Remove the folders an import created, innermost first, where they are still empty."""
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            pass


def _swap_in(staging: Path, target: Path) -> Path | None:
    """Put ``staging`` in ``target``'s place; the previous folder (moved aside) or None."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}-{time.time_ns()}")
        target.rename(old)
    try:
        staging.rename(target)
    except BaseException:
        if old is not None:
            old.rename(target)
        raise
    return old


def _swap_back(target: Path, old: Path) -> None:
    """Undo :func:`_swap_in`: the previous folder takes its place again."""
    failed = target.with_name(f".{target.name}.failed-{os.getpid()}-{time.time_ns()}")
    target.rename(failed)
    old.rename(target)
    shutil.rmtree(failed, ignore_errors=True)


def _remove_stale(folder: Path, age_seconds: float = 3600.0) -> None:
    """Remove the hidden staging folders of imports killed over an hour ago (a live import
    elsewhere keeps its own)."""
    now = time.time()
    for entry in folder.glob(".*"):
        try:
            if entry.is_dir() and now - entry.stat().st_mtime > age_seconds:
                shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            continue


@dataclass
class BuildReport:
    """What a build did: its folder, each edition's summary, and which stored objects it
    built and which it reused (``ruleset edition`` labels; mappings ``ruleset a -> b``)."""

    build: Path
    editions: list[dict]
    seconds: float
    built: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    mappings_built: list[str] = field(default_factory=list)
    mappings_reused: list[str] = field(default_factory=list)
    citations_built: list[str] = field(default_factory=list)  # rulesets whose timing citations were carried


@dataclass
class _Planned:
    """One edition of a build: where it comes from and the key of its stored object."""

    src: EditionSource
    key: str
    external_citations: dict[str, str] | None
    graph_key: str  # the key of its graph alone (kb.objects.graph_key), which its mappings follow
    summary: dict | None = None  # the stored object's summary, once it exists


def _index_holds_model_answers(ruleset: str, edition: str) -> bool:
    """Whether an edition's search index holds its timing model's answers (the summaries of
    the transitions citing its rules, :func:`kb.search.schema.model_answers`): only the
    editions the model's citations are written for, so only those depend on its code."""
    from kb.timing.engine import FormatError
    from kb.timing.models import get_model
    try:
        return get_model(ruleset).citations_for(edition) is not None
    except FormatError:
        return False


def _edition_meta(src: EditionSource, external_citations: dict[str, str] | None) -> dict:
    return {"ruleset": src.ruleset, "edition": src.name, "date": src.date, "format": src.format,
            "partial": src.partial, "title": src.title, "source": str(src.path),
            "external_citations": external_citations or {}}


def _fill_edition(plan: _Planned, folder: Path) -> dict:
    """Build one edition object in ``folder``: graph, search index, rule texts; its summary."""
    from kb.read import read_document
    src = plan.src
    result, used = read_document(src.path, src.format or None)
    rg = build_edition(result, ruleset=src.ruleset, edition=src.name, date=src.date,
                       external_citations=plan.external_citations, partial=src.partial,
                       source=str(src.path), source_format=used, title=src.title)
    with (folder / GRAPH_FILE).open("wb") as fh:
        pickle.dump(rg, fh, protocol=pickle.HIGHEST_PROTOCOL)
    for artifact in ARTIFACT_BUILDERS:
        artifact(rg, folder)
    write_rules(rg, folder / RULES_FILE)
    (folder / NOTES_FILE).write_text(json.dumps(edition_notes(rg), ensure_ascii=False), encoding="utf-8")
    return {"summary": edition_summary(rg, src.origin), "number_style": rg.edition.number_style}


def _build_edition_object(objects: Path, plan: _Planned) -> tuple[dict | None, list[Diagnostic]]:
    """Make one edition's object (in a worker process): its info, or the document's errors
    (a DocumentError does not survive the trip between processes, its diagnostics do)."""
    try:
        return put_object(objects / "editions", plan.key, lambda folder: _fill_edition(plan, folder)), []
    except DocumentError as exc:
        return None, exc.diagnostics


def _build_mapping_object(objects: Path, key: str, older: str, newer: str) -> dict:
    """Make the mapping object between two stored editions (in a worker process)."""
    from kb.editions.diff import diff_editions
    from kb.editions.mapping import map_editions

    def fill(folder: Path) -> dict:
        graphs = [_read_graph(objects / "editions" / k / GRAPH_FILE) for k in (older, newer)]
        mapping = map_editions(graphs[0], graphs[1])
        write_mapping(mapping, folder / MAPPING_FILE)
        # what changed from one to the other, as the diff says it: a feed reads 50 steps
        changes = [e for e in diff_editions(graphs[0], graphs[1], mapping)["entries"] if e["status"] != "unchanged"]
        (folder / CHANGES_FILE).write_text(json.dumps(changes, ensure_ascii=False), encoding="utf-8")
        return {"ruleset": mapping.ruleset, "from": mapping.source, "to": mapping.target,
                "editions": [older, newer]}
    return put_object(objects / "mappings", key, fill)


def _workers(jobs: int) -> int:
    """Processes to build with: ``RULEKB_BUILD_WORKERS``, else one per core (at most ``jobs``)."""
    env = os.environ.get("RULEKB_BUILD_WORKERS", "")
    wanted = int(env) if env.isdigit() and int(env) > 0 else (os.cpu_count() or 1)
    return max(1, min(wanted, jobs))


def _worker_context() -> multiprocessing.context.BaseContext:
    """How worker processes start: from a fork server where there is one, else spawned.

    Never a plain fork of this process: a build runs beside a server's threads (a rebuild
    while serving, the live tests), and a fork copies a lock another thread holds at that
    moment (SQLite's allocator mutex, taken by a thread reading a mapping) into a child
    that then waits for it forever. The fork server is a fresh process that imports this
    module once (preloaded) and forks each worker from there, with no other threads.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


def _end_with_builder(builder: Connection) -> None:
    """A build worker's initializer: end this worker as soon as the building process does.

    ``builder`` is the reading end of a pipe whose only writing end the building process
    holds, so reading it meets the end of the pipe when that process ends, however it ends
    (SIGKILL included). A worker left behind would wait for its next job forever, and hold
    the fork server's liveness pipe open, so the fork server would stay too; once the
    workers are gone, the fork server sees its parent gone and ends by itself.
    """
    def watch() -> None:
        try:
            while True:
                builder.recv_bytes()  # nothing is ever sent: this returns only at the end
        except (EOFError, OSError):
            os._exit(1)
    threading.Thread(target=watch, name="rulekb-builder-watch", daemon=True).start()


def _run_jobs(jobs: list[tuple[Callable[..., Any], tuple]], on_done: Callable[[int, Any], None]) -> None:
    """Run ``fn(*args)`` for each job, in worker processes when there are several jobs and
    cores; ``on_done(i, result)`` in this process as each finishes (exceptions propagate).
    The workers end with this process, even when it is killed (:func:`_end_with_builder`)."""
    workers = _workers(len(jobs))
    if workers == 1:
        for i, (fn, args) in enumerate(jobs):
            on_done(i, fn(*args))
        return
    watched, alive = multiprocessing.Pipe(duplex=False)
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=_worker_context(),
                                 initializer=_end_with_builder, initargs=(watched,)) as pool:
            futures = {pool.submit(fn, *args): i for i, (fn, args) in enumerate(jobs)}
            try:
                for future in as_completed(futures):
                    on_done(futures[future], future.result())
            except BaseException:
                for future in futures:
                    future.cancel()
                raise
    finally:
        watched.close()
        alive.close()


def build(home: Path | None = None, rules: Path | None = None,
          progress: Callable[[str], None] | None = None) -> BuildReport:
    """Build every edition into a new folder, then point ``current`` at it atomically.

    Each edition is built once per content (:mod:`kb.objects`): an edition whose document,
    metadata and build code are unchanged reuses its stored object, and so does the mapping
    between two neighbouring editions (by date) that are both unchanged. The new build links
    the objects' files into its folder. Raises DocumentError (nothing swapped) when any
    document fails; the editions it built before failing stay stored for the next build.
    """
    home = home or default_home()
    started = time.perf_counter()
    sources = collect_sources(home, rules)
    builds = home / "builds"
    objects = home / "objects"
    builds.mkdir(parents=True, exist_ok=True)
    build_id = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.time_ns() % 10**6:06d}"
    report = BuildReport(builds / build_id, [], 0.0)
    plans = []
    for src in sources.editions:
        info = sources.rulesets.get(src.ruleset)
        external = info.external_citations if info else None
        document = read_document_file(src.path)
        meta = _edition_meta(src, external)
        code = EDITION_CODE if _index_holds_model_answers(src.ruleset, src.name) else INDEX_CODE
        plans.append(_Planned(src, edition_key(document, meta, code), external, graph_key(document, meta)))
    missing = []
    for plan in plans:
        stored, problem = check_object(objects / "editions" / plan.key)
        label = f"{plan.src.ruleset} {plan.src.name}"
        if stored is not None:
            plan.summary = {**stored["summary"], "origin": plan.src.origin}
            report.reused.append(label)
        else:
            if progress and problem != "missing":
                progress(f"{label}: the stored copy is damaged ({problem}); building it again")
            missing.append(plan)
    made: list[Path] = []  # the objects this build made: gone again if it fails
    if progress and missing:
        progress(f"building {_counted(len(missing), 'edition')} of {len(plans)} "
                 f"({len(report.reused)} stored and unchanged)")
    try:
        errors: list[Diagnostic] = []
        finished = [0]  # editions finished (built or refused), for the progress lines

        def edition_done(i: int, result: tuple[dict | None, list[Diagnostic]]) -> None:
            info, diagnostics = result
            errors.extend(diagnostics)
            finished[0] += 1
            step = f"[{finished[0]}/{len(missing)}] " if len(missing) > 1 else ""
            label = f"{missing[i].src.ruleset} {missing[i].src.name}"
            if info is not None:
                missing[i].summary = {**info["summary"], "origin": missing[i].src.origin}
                report.built.append(label)
                made.append(objects / "editions" / missing[i].key)
                if progress:
                    progress(f"{step}{label}: read {missing[i].src.path.name} and built")
            elif progress:
                progress(f"{step}{label}: {missing[i].src.path} cannot be built "
                         f"({_counted(len(diagnostics), 'error')}; nothing is swapped in)")
        _run_jobs([(_build_edition_object, (objects, p)) for p in missing], edition_done)
        if errors:
            # The editions built meanwhile stay stored (not linked: collected after an hour
            # if no build links them), so the next build, the document fixed, reuses them:
            # a document refused among 77 no longer costs the 76 others' building again.
            made.clear()
            raise DocumentError(errors)
        pairs = _neighbours(plans)
        todo = []
        for ruleset, older, newer in pairs:
            key = mapping_key(older.graph_key, newer.graph_key)
            label = f"{ruleset} {older.src.name} -> {newer.src.name}"
            if check_object(objects / "mappings" / key)[0] is not None:
                report.mappings_reused.append(label)
            else:
                todo.append((key, older.key, newer.key, label))

        if progress and todo:
            progress(f"mapping {_counted(len(todo), 'pair')} of neighbouring editions "
                     f"({len(report.mappings_reused)} stored and unchanged)")

        def mapping_done(i: int, _: dict) -> None:
            report.mappings_built.append(todo[i][3])
            made.append(objects / "mappings" / todo[i][0])
            if progress:
                step = f"[{len(report.mappings_built)}/{len(todo)}] " if len(todo) > 1 else ""
                progress(f"{step}mapped {todo[i][3]}")
        _run_jobs([(_build_mapping_object, (objects, k, a, b)) for k, a, b, _ in todo],
                  mapping_done)
        citations = _store_citations(objects, plans, report, made)
        tmp = builds / f".tmp-{build_id}"
        tmp.mkdir()
        try:
            for plan in plans:
                _link_edition(objects / "editions" / plan.key, tmp, plan.src)
            for ruleset, older, newer in pairs:
                stored = objects / "mappings" / mapping_key(older.graph_key, newer.graph_key)
                link_file(stored / MAPPING_FILE, stored_mapping_path(tmp, ruleset, older.src.name, newer.src.name))
                link_file(stored / CHANGES_FILE, stored_changes_path(tmp, ruleset, older.src.name, newer.src.name))
            for ruleset, key in citations.items():
                for file in sorted((objects / "citations" / key).glob("*.json")):
                    if file.name != "object.json":
                        link_file(file, stored_citations_path(tmp, ruleset, file.stem))
            report.editions = [p.summary for p in plans]  # type: ignore[misc]
            manifest = {"format": BUILD_FORMAT, "built": time.strftime(BUILT_FORMAT, time.gmtime()),
                        "build_id": build_id,
                        "rulesets": {k: vars(v) for k, v in sources.rulesets.items()},
                        "editions": report.editions,
                        # the stored object of each edition: its content key
                        "contents": {f"{p.src.ruleset} {p.src.name}": p.key for p in plans},
                        "mappings": [{"ruleset": r, "from": a.src.name, "to": b.src.name,
                                      "content": mapping_key(a.graph_key, b.graph_key)} for r, a, b in pairs],
                        "citations": citations,  # each ruleset's carried timing citations: their key
                        "log": {"built": report.built, "reused": report.reused,
                                "mappings_built": report.mappings_built,
                                "mappings_reused": report.mappings_reused}}
            (tmp / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
            tmp.rename(report.build)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        try:
            _swap_current(home, report.build)
        except BaseException:  # ``current`` still points at the last good build
            shutil.rmtree(report.build, ignore_errors=True)
            raise
    except BaseException:
        _forget_unlinked(made)
        raise
    _prune(builds, keep={report.build.name})
    collect_garbage(objects)
    report.seconds = time.perf_counter() - started
    return report


def _counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless one (for the build's progress lines)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _store_citations(objects: Path, plans: list[_Planned], report: BuildReport,
                     made: list[Path]) -> dict[str, str]:
    """Carry each ruleset's timing citations to its editions (:mod:`kb.timing.stored`), one
    stored object per ruleset and content of its editions; the key of each ruleset's."""
    from kb.timing.stored import carry_ruleset, citations_key, write_carried
    keys = {}
    for ruleset in sorted({p.src.ruleset for p in plans}):
        eds = _in_order(plans, ruleset)
        key = citations_key(ruleset, [p.graph_key for p in eds])  # rule texts and mappings
        if key is None:  # no timing model for this ruleset
            continue
        keys[ruleset] = key
        if check_object(objects / "citations" / key)[0] is not None:
            continue
        by_name = {p.src.name: p for p in eds}

        def fill(folder: Path, ruleset: str = ruleset) -> dict:
            carried = carry_ruleset(
                ruleset, [(p.src.name, bool((p.summary or {}).get("partial"))) for p in eds],
                lambda e: objects / "editions" / by_name[e].key / RULES_FILE,
                lambda a, b: objects / "mappings" / mapping_key(by_name[a].graph_key, by_name[b].graph_key)
                / MAPPING_FILE, lambda e: _read_graph(objects / "editions" / by_name[e].key / GRAPH_FILE))
            for edition, value in carried.items():
                write_carried(value, folder / f"{edition}.json")
            # What was carried where (an edition name never starts with "_"); linked into
            # each build like the rest, it keeps even an object that carried nothing in use.
            (folder / "_editions.json").write_text(json.dumps(sorted(carried)), encoding="utf-8")
            return {"ruleset": ruleset, "editions": sorted(carried)}
        put_object(objects / "citations", key, fill)
        made.append(objects / "citations" / key)
        report.citations_built.append(ruleset)
    return keys


def stored_citations_path(build_dir: Path, ruleset: str, edition: str) -> Path:
    """Where a build keeps the timing citations carried to an edition (:mod:`kb.timing.stored`)."""
    return build_dir / "timing" / ruleset / f"{edition}.json"


def _forget_unlinked(made: list[Path]) -> None:
    """Remove the objects a failed build made that no build links to (a failed build leaves
    the data directory as it was)."""
    for folder in made:
        try:
            if all(f.stat().st_nlink <= 1 for f in folder.rglob("*") if f.is_file()):
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue
    for kind_dir in {folder.parent for folder in made}:
        _remove_empty([kind_dir, kind_dir.parent])


def _neighbours(plans: list[_Planned]) -> list[tuple[str, _Planned, _Planned]]:
    """Each ruleset's editions that follow each other, in the order the facade lists them
    (date, then name)."""
    out = []
    for ruleset in sorted({p.src.ruleset for p in plans}):
        eds = _in_order(plans, ruleset)
        out += [(ruleset, a, b) for a, b in zip(eds, eds[1:])]
    return out


def _in_order(plans: list[_Planned], ruleset: str) -> list[_Planned]:
    """A ruleset's editions oldest first, as the facade lists them (date, then name)."""
    return sorted((p for p in plans if p.src.ruleset == ruleset),
                  key=lambda p: (p.summary["date"] if p.summary else p.src.date, p.src.name))


def _link_edition(obj: Path, build_dir: Path, src: EditionSource) -> None:
    """Link one edition object's files into a build, where the build's readers look."""
    link_file(obj / GRAPH_FILE, build_dir / "editions" / src.ruleset / f"{src.name}.pickle")
    link_file(obj / RULES_FILE, stored_rules_path(build_dir, src.ruleset, src.name))
    link_tree(obj / "index", build_dir / "index")
    link_file(obj / NOTES_FILE, stored_notes_path(build_dir, src.ruleset, src.name))


def stored_notes_path(build_dir: Path, ruleset: str, edition: str) -> Path:
    """Where a build keeps an edition's reader notes and unresolved references."""
    return build_dir / "notes" / ruleset / f"{edition}.json"


def edition_notes(rg: RuleGraph) -> dict[str, list[dict]]:
    """What ``rulekb stats`` lists for an edition beside its counts: the unresolved
    references (rule, text, line) and the reader's notes (:func:`reader_warnings`)."""
    return {"unresolved": [{"rule": r.source, "text": r.text, "line": r.line}
                           for r in rg.edition.references if not r.resolved],
            "diagnostics": reader_warnings(rg)}


def stored_notes(build_dir: Path | None, ruleset: str, edition: str) -> dict[str, list[dict]] | None:
    """An edition's notes as the build stored them, or None (a knowledge base held in
    memory, a build that stored none, a file that does not read)."""
    if build_dir is None:
        return None
    try:
        notes = json.loads(stored_notes_path(build_dir, ruleset, edition).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(notes, dict) and all(isinstance(notes.get(k), list) for k in ("unresolved", "diagnostics"))
    return notes if ok else None


def stored_rules_path(build_dir: Path, ruleset: str, edition: str) -> Path:
    """Where a build keeps an edition's rule texts (:class:`kb.objects.StoredRules`)."""
    return build_dir / "rules" / ruleset / f"{edition}.sqlite"


def stored_mapping(build_dir: Path | None, ruleset: str, older: str, newer: str) -> EditionMapping | None:
    """The mapping between two neighbouring editions as the build stored it, or None (a
    knowledge base held in memory, a build of an older format, editions not neighbours)."""
    if build_dir is None:
        return None
    path = stored_mapping_path(build_dir, ruleset, older, newer)
    if not path.is_file():
        return None
    mapping = read_mapping(path)
    return mapping if (mapping.source, mapping.target) == (older, newer) else None


def stored_mapping_path(build_dir: Path, ruleset: str, older: str, newer: str) -> Path:
    """Where a build keeps the mapping between two neighbouring editions."""
    return build_dir / "mappings" / ruleset / older / f"{newer}.sqlite"


def stored_changes_path(build_dir: Path, ruleset: str, older: str, newer: str) -> Path:
    """Where a build keeps what changed between two neighbouring editions (the diff's
    entries but the unchanged, :func:`kb.editions.lineage.stored_changes`)."""
    return build_dir / "mappings" / ruleset / older / f"{newer}.changes.json"


def edition_summary(rg: RuleGraph, origin: str = "") -> dict:
    """The counts ``rulekb stats`` and the API report for one edition."""
    ed = rg.edition
    refs_unresolved = [r for r in ed.references if not r.resolved]
    return {
        "ruleset": ed.ruleset, "edition": ed.name, "date": ed.date, "title": ed.title,
        "partial": ed.partial, "origin": origin, "format": ed.source_format,
        "rules": sum(1 for r in ed.rules.values() if r.kind == "rule"),
        "headings": sum(1 for r in ed.rules.values() if r.kind != "rule"),
        "references_resolved": len(ed.references) - len(refs_unresolved),
        "references_unresolved": len(refs_unresolved),
        "terms": len(ed.terms),
        "external_references": sum(1 for r in ed.references if r.kind == "external"),
        "warnings": len(reader_warnings(rg)),
    }


def reader_warnings(rg: RuleGraph) -> list[dict]:
    """What the reader repaired or doubted in the document (unresolved references aside,
    which ``stats`` lists on their own), each with its line."""
    return [d.as_dict() for d in rg.edition.diagnostics
            if d.severity in ("warning", "info") and not d.message.startswith("unresolved reference")]


def _swap_current(home: Path, target: Path) -> None:
    link = home / "current"
    tmp_link = home / f".current-{os.getpid()}-{time.time_ns()}"
    os.symlink(Path("builds") / target.name, tmp_link)
    try:
        os.replace(tmp_link, link)
    except BaseException:
        tmp_link.unlink(missing_ok=True)
        raise


def _prune(builds: Path, keep: set[str], grace_seconds: float = 60.0, keep_newest: int = 3) -> None:
    """Remove builds that were superseded more than ``grace_seconds`` ago.

    A server may still answer from the previous build for a moment after the swap (and open
    its search index lazily), so the newest ``keep_newest`` builds always stay, and an older
    one goes only once the build that replaced it has been current for a while. Temporary
    folders of builds still running elsewhere are left alone for an hour.
    """
    now = time.time()
    finished: list[tuple[float, Path]] = []
    for entry in builds.iterdir():
        try:
            mtime = entry.stat().st_mtime
        except FileNotFoundError:
            continue
        if entry.name.startswith(".tmp-"):
            if now - mtime > 3600:
                shutil.rmtree(entry, ignore_errors=True)
        else:
            finished.append((mtime, entry))
    finished.sort()
    for i, (_, entry) in enumerate(finished[:-keep_newest] if keep_newest else finished):
        superseded_at = finished[i + 1][0]
        if entry.name not in keep and now - superseded_at > grace_seconds:
            shutil.rmtree(entry, ignore_errors=True)


def current_build(home: Path | None = None) -> Path | None:
    """The folder of the build in service, or None before the first build."""
    link = (home or default_home()) / "current"
    try:
        return link.parent / os.readlink(link)
    except OSError:
        return None


DAMAGED = "the built knowledge base is damaged ({}); run `rulekb build` to build it again"


def _read_graph(path: Path) -> RuleGraph:
    """Unpickle a stored graph; DocumentError naming the file when it is missing or damaged."""
    try:
        with path.open("rb") as fh:
            rg = pickle.load(fh)
    except FileNotFoundError as exc:
        raise DocumentError([Diagnostic(DAMAGED.format("a file is missing"), str(path), 0)]) from exc
    except Exception as exc:  # a truncated or overwritten pickle raises almost anything
        raise DocumentError([Diagnostic(DAMAGED.format(f"unreadable: {type(exc).__name__}"), str(path), 0)]) from exc
    if not isinstance(rg, RuleGraph):
        raise DocumentError([Diagnostic(DAMAGED.format("not a rule graph"), str(path), 0)])
    return rg


def load_edition(build_dir: Path, ruleset: str, edition: str) -> RuleGraph:
    """One edition's graph from a build (DocumentError when it is missing or damaged)."""
    return _read_graph(build_dir / "editions" / ruleset / f"{edition}.pickle")


def max_editions() -> int:
    """How many editions' graphs a server keeps loaded at once: ``RULEKB_MAX_EDITIONS``
    (default 8; 0 means no bound). A full Magic edition's graph is about 20 MB in memory."""
    value = os.environ.get("RULEKB_MAX_EDITIONS", "8")
    return int(value) if value.isdigit() else 8


class LazyEditions(Mapping[tuple[str, str], RuleGraph]):
    """The graphs of a build keyed by (ruleset, edition), each loaded on first use.

    Every edition of the manifest is a key (so listing, ``in`` and ``len`` load nothing);
    at most ``limit`` graphs stay loaded, the least recently used going first (``limit`` 0:
    all of them). Safe to share between threads; two threads asking for one edition load
    it once. A graph that cannot be read (a damaged build) is QueryError 503 naming its file.
    """

    def __init__(self, build_dir: Path, keys: Iterable[tuple[str, str]], limit: int | None = None):
        self.build_dir = build_dir
        self._keys = list(dict.fromkeys(keys))
        self._known = set(self._keys)
        self.limit = max_editions() if limit is None else limit
        self._loaded: OrderedDict[tuple[str, str], RuleGraph] = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict[tuple[str, str], threading.Lock] = {}
        self.loads = 0  # how many graphs were read from disk (evictions make it grow)
        # Called with (ruleset, edition) after a graph is unloaded (kb.loaded drops what
        # was derived from it there).
        self.on_unload: list[Callable[[str, str], object]] = []

    def __getitem__(self, key: tuple[str, str]) -> RuleGraph:
        with self._lock:
            rg = self._loaded.get(key)
            if rg is not None:
                self._loaded.move_to_end(key)
                return rg
            if key not in self._known:
                raise KeyError(key)
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                rg = self._loaded.get(key)
            if rg is None:
                try:
                    rg = load_edition(self.build_dir, *key)
                except DocumentError as exc:  # a question about it: 503, naming the file
                    diag = exc.diagnostics[0]
                    raise QueryError(503, diag.message, {"file": diag.file, "edition": f"{key[0]} {key[1]}"}) from exc
                with self._lock:
                    self.loads += 1
                    self._loaded[key] = rg
                    unloaded = []
                    while self.limit and len(self._loaded) > self.limit:
                        unloaded.append(self._loaded.popitem(last=False)[0])
                for gone in unloaded:
                    for hook in self.on_unload:
                        hook(*gone)
        return rg

    def __contains__(self, key: object) -> bool:
        return key in self._known

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def loaded(self) -> list[tuple[str, str]]:
        """The editions whose graphs are in memory now, least recently used first."""
        with self._lock:
            return list(self._loaded)
