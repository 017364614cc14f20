"""Rule documents in layouts we do not have, derived at test time from the ones we do.

Each line of :data:`bench.layouts.LAYOUTS` is one unseen layout (CR or CRLF line ends,
UTF-16, Windows-1252, invisible characters inside rule numbers, hard wrapping, pdftotext
pages, Magic as HTML or Markdown, Riftbound as setext Markdown or plain text, a table of
contents, a cut file, numbers printed twice or out of order, a numbering no reader knows...).
Each is derived from the repository's own excerpts in ``rules/`` (always) and from the full
documents in ``../shared/corpora`` (skipped with the reason where absent), read as
``rulekb import`` reads a file, and checked against the canonical layout's parse: the same
rules (number, kind, title, text, examples, parent) and glossary, or the one change reported
at its line, or a refusal that names the file and a line.
"""

from __future__ import annotations

import functools

import pytest

from bench.layouts import FULL, LAYOUTS, Canonical, Layout, canonical, compare, excerpts, fingerprint
from kb.model import ReadResult
from kb.numbers import format_number, sort_key
from kb.read import decode
from kb.read.text import clean
from tests.conftest import CORPORA, SKIP_REASON, shared_available

# The full documents of ../shared each layout is also derived from (the excerpts take every
# layout): the current releases of both games, to keep the suite fast.
FULL_DOCUMENTS = ("comprehensive-rules-2026-01-16.txt", "core-rules-2026-07-16.md")


@functools.cache
def documents(full: bool) -> tuple[Canonical, ...]:
    """The canonical documents (read once per module)."""
    if not full:
        return tuple(excerpts())
    return tuple(canonical(game, CORPORA / rel) for game, rel in FULL if rel.rsplit("/", 1)[-1]
                 in FULL_DOCUMENTS)


def _cases() -> list:
    cases = []
    for layout in LAYOUTS:
        cases.append(pytest.param(layout, False, id=f"excerpts: {layout.name}"))
        if layout.whole:
            cases.append(pytest.param(layout, True, id=f"full: {layout.name}"))
    return cases


def _game_formats(doc: Canonical) -> set[str]:
    return {"mtg-text"} if doc.game == "mtg" else {"riftbound-md", "riftbound-pdftext",
                                                  "riftbound-html", "riftbound-table"}


@pytest.mark.parametrize("layout,full", _cases())
def test_an_unseen_layout_reads_to_the_same_rules_or_is_refused(layout: Layout, full: bool) -> None:
    if full and not shared_available():
        pytest.skip(SKIP_REASON)
    checked = 0
    for doc in documents(full):
        if doc.fmt not in layout.formats:
            continue
        derived = layout.derive(doc)
        if derived is None:
            continue
        reference = doc.result
        out = compare(layout, doc, derived, reference, 0.0)
        where = f"{layout.name} of {doc.name}"
        checked += 1
        if layout.expect == "refused":
            assert out.error is not None, f"{where} was read ({out.rules} rules) instead of refused"
            notes = out.error.diagnostics
            assert all(d.file == f"{doc.name}~{layout.name}" for d in notes), notes
            assert any(d.line > 0 for d in notes), [str(d) for d in notes]
            # and says what it expected, or why the bytes are no text
            assert any("Expected" in d.message or "unreadable encoding" in d.message
                       for d in notes), [str(d) for d in notes]
            continue
        assert out.error is None, f"{where} refused: {out.error}"
        assert out.result is not None and out.fmt in _game_formats(doc), (where, out.fmt)
        warnings = [d for d in out.result.diagnostics if d.severity == "warning"]
        _lines_are_the_documents_own(out.result, decode(derived.data), where)
        if layout.expect == "same":
            assert (out.differing, out.missing) == ([], []), (where, out.differing[:3], out.missing[:3])
            assert out.rules == len(reference.rules), where
        elif layout.expect == "noted":
            assert [d.line for d in warnings if d.line == derived.line] != [], (where, derived.line,
                                                                               [str(d) for d in warnings])
            assert out.missing == [] and len(out.differing) <= 1, (where, out.differing)
        else:  # "cut": every rule before the cut is read as before, the cut is reported
            read = [sort_key(r.number) for r in out.result.rules]
            before = [sort_key(r.number) for r in reference.rules[:len(read)]]
            assert read == before, where
            mine, theirs = fingerprint(out.result, layout.loses), fingerprint(reference, layout.loses)
            assert all(mine[k] == theirs[k] for k in read[:-1]), where
            assert any("truncated" in d.message for d in warnings), (where, [str(d) for d in warnings])
    assert checked, f"no document takes the layout {layout.name!r}"


def _lines_are_the_documents_own(result: ReadResult, text: str, where: str) -> None:
    """Every rule's line is the derived document's line that prints its number, whatever the
    reading stage removed (pages' running lines) or rewrote (a web page into Markdown); a
    number the reader repaired (a warning at that line names it) is printed otherwise."""
    lines = text.split("\n")
    repaired = {(d.line, d.rule) for d in result.diagnostics if d.severity == "warning"}
    for r in result.rules:
        printed = clean(lines[r.line - 1]) if 0 < r.line <= len(lines) else ""
        number = format_number(r.number, result.number_style)
        assert number in printed or (r.line, number) in repaired, (where, number, r.line, printed[:60])


def test_every_layout_is_tried_on_the_excerpts() -> None:
    """Some case of every layout runs without ../shared."""
    formats = {d.fmt for d in documents(False)}
    assert all(set(layout.formats) & formats for layout in LAYOUTS)
