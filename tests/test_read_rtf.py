"""Rich Text (kb/read/rtf.py): small RTF documents as WordPad and Word write them, the lines
they give, and the ones refused. The whole documents as RTF are :data:`bench.layouts.BROUGHT`'s
RTF layout (tests/test_read_unseen_layouts.py).
"""

from __future__ import annotations

import pytest

from kb.model import DocumentError
from kb.read import read_bytes
from kb.read.containers import container_of, unpack

HEAD = rb"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\fswiss Arial;}}{\*\generator Riched20 10.0;}\viewkind4\uc1 "


@pytest.mark.parametrize("body,lines", [
    (rb"\pard {\b 100.1.} These rules\par\pard\par\pard 100.1a A game\par}", ["100.1. These rules", "", "100.1a A game"]),
    (rb"\pard A card\'92s text\par\pard\par\pard caf\'e9 \u8212? done\par}", ["A card’s text", "", "café — done"]),
    (rb"\pard Abandon\par\pard To turn a scheme\par}", ["Abandon", "", "To turn a scheme", ""]),  # no gaps: each apart
    (rb"{\*\comment left out}\pard x\tab y\par\pard\par\pard\b\fs28 1. Game Concepts\b0\par}",
     ["x\ty", "", "1. Game Concepts"]),
])
def test_an_rtf_document_reads_as_its_paragraphs(body: bytes, lines: list[str]) -> None:
    data = HEAD + body
    assert container_of(data) == "rtf"
    unpacked = unpack(data, "rules.rtf")
    assert unpacked.text.split("\n") == lines
    assert unpacked.notes[0].message.startswith("read from an RTF document")


@pytest.mark.parametrize("name,data,source,says", [
    ("an RTF without text", HEAD + rb"\pard\par\pard\par}", "rules.rtf", "holds no text"),
    ("a file named .rtf that is not RTF", b"100.1. Plain text\n", "rules.rtf", "is named .rtf but is not a RTF file"),
])
def test_an_rtf_that_cannot_be_read_is_refused(name: str, data: bytes, source: str, says: str) -> None:
    with pytest.raises(DocumentError) as refused:
        read_bytes(data, source)
    first = refused.value.diagnostics[0]
    assert says in first.message and first.file == source, (name, first.message)
