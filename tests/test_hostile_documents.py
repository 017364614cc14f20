"""Property-based tests: every reader, fed broken or hostile documents, either reads them or
refuses them with a DocumentError that names a place — never another exception, never hangs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kb.graph import build_edition
from kb.model import DocumentError
from kb.read import READERS, decode, read_bytes, read_text
from tests.conftest import CORPORA, CORPUS_EDITIONS, REPO, shared_available
from tests.published import FONT, Layout, docx_of, pdf_of, txt_blocks

EXCERPT = (REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md").read_text(encoding="utf-8")
SETTINGS = settings(max_examples=40, deadline=2000, suppress_health_check=[HealthCheck.too_slow],
                    derandomize=True)


def sample_documents() -> list[tuple[str, str]]:
    """The excerpt, plus the first 60,000 characters of every real document where present."""
    docs = [("excerpt", EXCERPT)]
    if shared_available():
        for _, _, _, rel in CORPUS_EDITIONS:
            docs.append((rel, decode((CORPORA / rel).read_bytes())[:60_000]))
    return docs


def read_and_build(text: str, fmt: str | None = None) -> None:
    """What `rulekb import` does with a document: read, then build the graph."""
    try:
        result = read_text(text, "doc", fmt)
        build_edition(result, ruleset="t", edition="1", source="doc")
    except DocumentError as err:
        assert err.diagnostics, "a DocumentError must say what went wrong"
        for d in err.diagnostics:
            assert d.message and d.file == "doc"


@SETTINGS
@given(st.binary(max_size=4000))
def test_random_bytes_are_read_or_refused(data: bytes) -> None:
    try:
        text = decode(data, "doc")
    except DocumentError:
        return
    read_and_build(text)


@SETTINGS
@given(st.text(max_size=3000), st.sampled_from(sorted(READERS)))
def test_random_text_in_every_format(text: str, fmt: str) -> None:
    read_and_build(text, fmt)


@pytest.mark.parametrize("name,text", sample_documents(), ids=lambda v: v if len(v) < 60 else "")
def test_truncated_and_shuffled_documents(name: str, text: str) -> None:
    rng = random.Random(name)
    lines = text.split("\n")
    for cut in sorted(rng.sample(range(1, len(text)), 12)):
        read_and_build(text[:cut])
    for _ in range(6):
        a, b = sorted(rng.sample(range(len(lines)), 2))
        swapped = lines[:]
        swapped[a], swapped[b] = swapped[b], swapped[a]
        read_and_build("\n".join(swapped))
    duplicated = lines + lines[len(lines) // 2:]
    read_and_build("\n".join(duplicated))


# What the excerpt's typography is written as in a single-byte encoding.
_PLAIN = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "—": "-", "–": "-", "…": "...", "\u200b": ""})


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1", "utf-8-sig"])
def test_the_excerpt_reads_the_same_in_every_encoding(encoding: str) -> None:
    # The single-byte encodings hold no curly quotes, dashes or zero-width spaces.
    text = EXCERPT.translate(_PLAIN)
    unheld = sorted({ch for ch in text if ord(ch) > 0xFF})
    assert not unheld, f"the excerpt holds characters latin-1 has not: add them to _PLAIN ({unheld})"
    plain = read_text(text, "doc")
    data = text.encode(encoding)
    again = read_text(decode(data, "doc"), "doc")
    assert [(r.number, r.text) for r in again.rules] == [(r.number, r.text) for r in plain.rules]


def test_hostile_numbers_and_huge_lines_are_bounded(tmp_path: Path) -> None:
    text = "**100.** " + "1." * 200_000 + "\n" + "**100.1.** " + "see rule " * 50_000 + "\n"
    read_and_build(text)


def _refused_with_its_place(data: bytes) -> None:
    """What `rulekb import` does with a container's bytes: read them, or refuse them saying
    where (the file, the page), never another exception."""
    try:
        read_bytes(data, "doc.pdf")
    except DocumentError as err:
        assert err.diagnostics and all(d.message and d.file == "doc.pdf" for d in err.diagnostics)


@SETTINGS
@given(st.binary(max_size=3000), st.sampled_from([b"%PDF-1.4\n", b"PK\x03\x04"]))
def test_random_bytes_behind_a_pdf_or_zip_signature_are_read_or_refused(data: bytes, signature: bytes) -> None:
    _refused_with_its_place(signature + data)


@pytest.fixture(scope="module")
def printed() -> dict[str, bytes]:
    """The Magic 2026 excerpt as a PDF and a DOCX (tests/published.py)."""
    if FONT is None:
        pytest.skip("printing a PDF needs a Unicode TrueType font (Debian's fonts-dejavu-core)")
    text = (REPO / "rules" / "mtg" / "comprehensive-rules-2026-01-16-excerpt.txt").read_bytes()
    blocks = txt_blocks(decode(text))[:120]
    return {"pdf": pdf_of(blocks, Layout(footer="{page}")), "docx": docx_of(blocks)}


@pytest.mark.parametrize("container", ["pdf", "docx"])
@pytest.mark.parametrize("damage", ["cut at a tenth", "cut in half", "cut before its end",
                                    "bytes overwritten", "bytes shuffled"])
def test_a_damaged_pdf_or_docx_is_read_or_refused(printed: dict[str, bytes], container: str, damage: str) -> None:
    data = bytearray(printed[container])
    rng = random.Random(f"{container} {damage}")
    if damage.startswith("cut"):
        data = data[:{"cut at a tenth": len(data) // 10, "cut in half": len(data) // 2,
                      "cut before its end": len(data) - 40}[damage]]
    elif damage == "bytes overwritten":
        for _ in range(60):
            data[rng.randrange(len(data))] = rng.randrange(256)
    else:
        start = rng.randrange(len(data) - 2000)
        chunk = data[start:start + 2000]
        rng.shuffle(chunk)
        data[start:start + 2000] = chunk
    _refused_with_its_place(bytes(data))
