"""Readers: one module per document format, each turning a document into a ReadResult.

Every reader module defines ``FORMAT`` (its name), ``sniff(text) -> int`` (how sure it is,
0–100, that the text is in its format) and ``read(text, source) -> ReadResult``. Nothing
outside this package knows about formats. A PDF or DOCX file is unpacked into text first
(:mod:`kb.read.containers`), and that text is sniffed and read like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import ModuleType

from kb.model import Diagnostic, DocumentError, ReadResult
from kb.read import mtg_text, riftbound_html, riftbound_md, riftbound_pdftext, riftbound_table
from kb.read.containers import unpack
from kb.read.text import decode

READERS: dict[str, ModuleType] = {
    m.FORMAT: m
    for m in (riftbound_md, riftbound_html, riftbound_pdftext, riftbound_table, mtg_text)
}

__all__ = ["READERS", "detect_format", "read_bytes", "read_document", "read_text"]


def detect_format(text: str, source: str = "") -> str:
    """Name the format of a document, or raise DocumentError when no reader knows it."""
    scores = sorted(((m.sniff(text), name) for name, m in READERS.items()), reverse=True)
    best, name = scores[0]
    if best <= 0:
        raise DocumentError([Diagnostic(
            "unknown document format: no reader recognises it (formats: "
            + ", ".join(sorted(READERS)) + "); choose one with --format", source, 1)])
    return name


def read_text(text: str, source: str = "", fmt: str | None = None) -> ReadResult:
    """Read decoded text with the named reader (auto-detected when ``fmt`` is None)."""
    if fmt is None:
        fmt = detect_format(text, source)
    if fmt not in READERS:
        raise DocumentError([Diagnostic(
            f"unknown format {fmt!r} (formats: {', '.join(sorted(READERS))})", source, 0)])
    reader: Callable[[str, str], ReadResult] = READERS[fmt].read
    result = reader(text, source)
    if not result.rules:
        raise DocumentError([Diagnostic(f"no numbered rules found (read as {fmt})", source, 1)]
                            + [d for d in result.diagnostics if d.severity == "error"])
    errors = [d for d in result.diagnostics if d.severity == "error"]
    if errors:
        raise DocumentError(errors)
    return result


def read_bytes(data: bytes, source: str = "", fmt: str | None = None) -> tuple[ReadResult, str]:
    """Read a document's bytes: a PDF or DOCX is unpacked into text first
    (:mod:`kb.read.containers`), any other file decoded; returns the result and the format
    the text was read as. What the container did comes first among the notes, and a note
    on a line of an unpacked PDF names its page."""
    unpacked = unpack(data, source)
    text = decode(data, source) if unpacked is None else unpacked.text
    try:
        fmt = fmt or detect_format(text, source)
        result = read_text(text, source, fmt)
    except DocumentError as err:
        if unpacked is None:
            raise
        raise DocumentError([_placed(d, unpacked.place(d.line)) for d in err.diagnostics]
                            + [Diagnostic(f"(the text was unpacked from a {unpacked.container.upper()})",
                                          source, 0, "info")]) from err
    if unpacked is not None:
        result.diagnostics = unpacked.notes + [_placed(d, unpacked.place(d.line))
                                               for d in result.diagnostics]
    return result, fmt


def _placed(note: Diagnostic, place: str) -> Diagnostic:
    """The note with the container's place of its line (``page 12``) added to its message."""
    return replace(note, message=f"{note.message} ({place})") if place else note


def read_document(path: Path, fmt: str | None = None) -> tuple[ReadResult, str]:
    """Read a document file (text, PDF or DOCX); returns the result and the format used."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError([Diagnostic(f"cannot read the file: {exc.strerror}", str(path), 0)]) from exc
    return read_bytes(data, str(path), fmt)
