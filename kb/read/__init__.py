"""Readers: one module per document format, each turning a document into a ReadResult.

Every reader module defines ``FORMAT`` (its name), ``sniff(text) -> int`` (how sure it is,
0–100, that the text is in its format) and ``read(text, source) -> ReadResult``. Nothing
outside this package knows about formats.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from kb.model import Diagnostic, DocumentError, ReadResult
from kb.read import mtg_text, riftbound_html, riftbound_md, riftbound_pdftext, riftbound_table
from kb.read.text import decode

READERS: dict[str, ModuleType] = {
    m.FORMAT: m
    for m in (riftbound_md, riftbound_html, riftbound_pdftext, riftbound_table, mtg_text)
}

__all__ = ["READERS", "detect_format", "read_document", "read_text"]


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


def read_document(path: Path, fmt: str | None = None) -> tuple[ReadResult, str]:
    """Read a document file; returns the result and the format used."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError([Diagnostic(f"cannot read the file: {exc.strerror}", str(path), 0)]) from exc
    text = decode(data, str(path))
    fmt = fmt or detect_format(text, str(path))
    return read_text(text, str(path), fmt), fmt
