"""ODT and EPUB packages (kb/read/zipped.py): how an OpenDocument paragraph's markup reads, and
the packages that cannot be read, refused naming the part. Whole documents in both packages
are :data:`bench.layouts.BROUGHT`'s ODT and EPUB layouts (tests/test_read_unseen_layouts.py).
"""

from __future__ import annotations

import io
import zipfile

import pytest

from kb.model import DocumentError
from kb.read import read_bytes
from kb.read.containers import unpack

ODT = "application/vnd.oasis.opendocument.text"
EPUB = "application/epub+zip"
NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
      'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
      'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"')


def package(mimetype: str | None, parts: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        if mimetype:
            archive.writestr("mimetype", mimetype)
        for name, text in parts.items():
            archive.writestr(name, text)
    return out.getvalue()


def odt(body: str) -> bytes:
    return package(ODT, {"content.xml": f'<office:document-content {NS}><office:body><office:text>{body}'
                                        "</office:text></office:body></office:document-content>"})


@pytest.mark.parametrize("body,lines", [
    ('<text:h text:outline-level="1">1. Game Concepts</text:h><text:p/><text:p>100.1.<text:s/>These rules'
     "</text:p>", ["1. Game Concepts", "", "100.1. These rules"]),
    ("<text:p>100.1a<text:s text:c=\"3\"/>A <text:span>two-player</text:span> game<text:note><text:note-body>"
     "<text:p>a footnote</text:p></text:note-body></text:note>.</text:p><text:p/><text:p>x</text:p>",
     ["100.1a   A two-player game.", "", "x"]),
    ("<text:p>Abandon<text:line-break/>To turn a scheme<text:tab/>face down.</text:p>",
     ["Abandon", "To turn a scheme face down.", ""]),  # no empty paragraph: each stands apart
    ("<text:list><text:list-item><text:p>100.2. To play</text:p></text:list-item></text:list><text:p/>"
     "<table:table><table:table-row><table:table-cell><text:p>100.3.</text:p></table:table-cell>"
     "<table:table-cell><text:p>A cell</text:p></table:table-cell></table:table-row></table:table>",
     ["100.2. To play", "", "100.3. A cell"]),
])
def test_an_odt_paragraph_reads_as_its_text(body: str, lines: list[str]) -> None:
    unpacked = unpack(odt(body), "rules.odt")
    assert unpacked.container == "odt"
    assert unpacked.text.split("\n") == lines


CONTAINER = ('<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
             '<rootfile full-path="OEBPS/book.opf"/></rootfiles></container>')


def opf(spine: str, items: str = '<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/>') -> str:
    return (f'<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>{items}</manifest>'
            f"<spine>{spine}</spine></package>")


@pytest.mark.parametrize("name,data,says", [
    ("an ODT without content.xml", package(ODT, {"styles.xml": "<x/>"}), "without its part 'content.xml'"),
    ("an ODT whose content.xml is not XML", package(ODT, {"content.xml": "<office:document"}),
     "part 'content.xml' is not XML"),
    ("an ODT without text", odt("<text:p/>"), "holds no text"),
    ("an EPUB without META-INF/container.xml", package(EPUB, {"a.opf": "<x/>"}),
     "without its part 'META-INF/container.xml'"),
    ("an EPUB whose spine lists no document", package(EPUB, {"META-INF/container.xml": CONTAINER,
                                                             "OEBPS/book.opf": opf("")}), "lists no document"),
    ("an EPUB without its spine's document", package(EPUB, {"META-INF/container.xml": CONTAINER,
                                                           "OEBPS/book.opf": opf('<itemref idref="c1"/>')}),
     "without its spine's document 'OEBPS/c1.xhtml'"),
    ("a ZIP that is no DOCX, ODT or EPUB", package(None, {"notes.txt": "100.1. x"}),
     "not a Word document (DOCX), nor an OpenDocument text (ODT) or EPUB"),
])
def test_a_package_that_cannot_be_read_is_refused_naming_the_part(name: str, data: bytes, says: str) -> None:
    with pytest.raises(DocumentError) as refused:
        read_bytes(data, "rules.zip")
    first = refused.value.diagnostics[0]
    assert says in first.message and first.file == "rules.zip", (name, first.message)


@pytest.mark.parametrize("suffix", ["odt", "epub"])
def test_a_file_named_as_a_package_that_is_not_one_is_refused(suffix: str) -> None:
    with pytest.raises(DocumentError) as refused:
        read_bytes(b"100.1. Plain text\n", f"rules.{suffix}")
    assert f"is named .{suffix} but is not a {suffix.upper()} file" in refused.value.diagnostics[0].message


def test_an_epub_reads_its_spine_in_order_without_the_navigation_document() -> None:
    page = ('<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><body>{}</body>'
            "</html>")
    items = "".join(f'<item id="{i}" href="{i}.xhtml" media-type="application/xhtml+xml"/>' for i in ("c1", "c2")) + (
        '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>')
    data = package(EPUB, {"META-INF/container.xml": CONTAINER,
                          "OEBPS/book.opf": opf('<itemref idref="nav"/><itemref idref="c2"/><itemref idref="c1"/>', items),
                          "OEBPS/nav.xhtml": page.format("<nav><ol><li>100. General</li></ol></nav>"),
                          "OEBPS/c1.xhtml": page.format("<h2>101. Second</h2>"),
                          "OEBPS/c2.xhtml": page.format("<h2>100. First</h2><p>100.1. A rule</p>")})
    unpacked = unpack(data, "rules.epub")
    assert unpacked.container == "epub"
    assert [ln for ln in unpacked.text.split("\n") if ln] == ["## 100. First", "100.1. A rule", "## 101. Second"]
