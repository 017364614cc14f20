"""The rules as an OpenDocument text (ODT: LibreOffice's, Google Docs' "OpenDocument") or an EPUB
e-book: ZIP packages named by their ``mimetype`` part, turned into the text the readers read.

* **ODT** (:func:`odt_text`): ``content.xml``'s body in order; each heading (``text:h``) and
  paragraph (``text:p``, in lists and table cells too) is a line, its spans and links their
  text, ``text:s`` its spaces, ``text:tab`` a space, ``text:line-break`` a line break; notes
  and annotations are left out. An empty paragraph is a blank line; a document that has none
  gets one between all paragraphs. (A list's automatic numbers, which LibreOffice keeps in the
  list's style and not in the text, are not printed.)
* **EPUB** (:func:`epub_text`): the XHTML documents of the book's spine (``META-INF/container.xml``
  names the package, whose spine gives their order; those marked ``linear="no"`` and the
  navigation document are left out), each turned into Markdown paragraphs as a web page is
  (:func:`kb.read.web_page.to_markdown`), one after the other.

A package that cannot be read (a part missing or not XML) is a :class:`DocumentError` naming
the file and the part.
"""

from __future__ import annotations

import posixpath
import zipfile
from collections.abc import Iterator
from xml.etree import ElementTree

from kb.model import Diagnostic, DocumentError
from kb.read.web_page import to_markdown

ODT_MIMETYPE = "application/vnd.oasis.opendocument.text"
EPUB_MIMETYPE = "application/epub+zip"

_TEXT = "urn:oasis:names:tc:opendocument:xmlns:text:1.0"
_OFFICE = "urn:oasis:names:tc:opendocument:xmlns:office:1.0"
_TABLE = "urn:oasis:names:tc:opendocument:xmlns:table:1.0"
_CONTAINER = "urn:oasis:names:tc:opendocument:xmlns:container"
_OPF = "http://www.idpf.org/2007/opf"
_SKIPPED = {f"{{{_TEXT}}}note", f"{{{_OFFICE}}}annotation", f"{{{_TEXT}}}tracked-changes",
            f"{{{_TEXT}}}sequence-decls", f"{{{_TEXT}}}table-of-content"}
_PARAGRAPHS = {f"{{{_TEXT}}}p", f"{{{_TEXT}}}h"}


def package_of(archive: zipfile.ZipFile) -> str | None:
    """``"odt"`` or ``"epub"`` for a ZIP whose ``mimetype`` part names one, else None."""
    try:
        mimetype = archive.read("mimetype").decode("ascii", "replace").strip()
    except KeyError:
        return None
    return {ODT_MIMETYPE: "odt", EPUB_MIMETYPE: "epub"}.get(mimetype)


def _xml(archive: zipfile.ZipFile, name: str, source: str, what: str) -> ElementTree.Element:
    try:
        return ElementTree.fromstring(archive.read(name))
    except KeyError as exc:
        raise DocumentError([Diagnostic(f"{what} without its part {name!r}", source, 0)]) from exc
    except ElementTree.ParseError as exc:
        raise DocumentError([Diagnostic(f"{what} whose part {name!r} is not XML ({exc})", source, 0)]) from exc


# -- ODT ----------------------------------------------------------------------------------------

def odt_text(archive: zipfile.ZipFile, source: str = "") -> tuple[str, list[Diagnostic]]:
    """The text of an ODT (see the module docstring) and the note on how it was read."""
    content = _xml(archive, "content.xml", source, "an OpenDocument text")
    body = content.find(f"{{{_OFFICE}}}body/{{{_OFFICE}}}text")
    if body is None:
        raise DocumentError([Diagnostic("an OpenDocument text whose content.xml holds no office:text body",
                                        source, 0)])
    paragraphs = [_inline(paragraph).split("\n") for paragraph in _paragraphs(body)]
    filled = sum(1 for p in paragraphs if "".join(p).strip())
    if not filled:
        raise DocumentError([Diagnostic("an OpenDocument text whose body holds no text", source, 0)])
    if filled == len(paragraphs):  # no empty paragraphs: each paragraph stands apart
        paragraphs = [p + [""] for p in paragraphs]
    lines = [ln for p in paragraphs for ln in p]
    return "\n".join(lines), [Diagnostic(f"read from an OpenDocument text (ODT) of {filled} paragraphs",
                                         source, 0, "info")]


def _paragraphs(element: ElementTree.Element) -> Iterator[ElementTree.Element]:
    """The headings and paragraphs under an element, in order (in lists, sections, tables)."""
    for child in element:
        if child.tag in _SKIPPED:
            continue
        if child.tag in _PARAGRAPHS:
            yield child
        elif child.tag == f"{{{_TABLE}}}table-row":
            cells = [" ".join(_inline(p).split()) for cell in child for p in _paragraphs(cell)]
            row = ElementTree.Element(f"{{{_TEXT}}}p")
            row.text = " ".join(c for c in cells if c)
            yield row
        else:
            yield from _paragraphs(child)


def _inline(element: ElementTree.Element) -> str:
    """A paragraph's text: its spans' and links' text, ``text:s`` spaces, tabs as a space,
    line breaks; notes and annotations left out."""
    out = [element.text or ""]
    for child in element:
        tag = child.tag
        if tag == f"{{{_TEXT}}}s":
            out.append(" " * int(child.get(f"{{{_TEXT}}}c", "1") or 1))
        elif tag == f"{{{_TEXT}}}tab":
            out.append(" ")
        elif tag == f"{{{_TEXT}}}line-break":
            out.append("\n")
        elif tag not in _SKIPPED:
            out.append(_inline(child))
        out.append(child.tail or "")
    return "".join(out)


# -- EPUB ---------------------------------------------------------------------------------------

def epub_text(archive: zipfile.ZipFile, source: str = "") -> tuple[str, list[Diagnostic]]:
    """The text of an EPUB (see the module docstring) and the note on how it was read."""
    container = _xml(archive, "META-INF/container.xml", source, "an EPUB")
    rootfile = container.find(f".//{{{_CONTAINER}}}rootfile")
    package_name = rootfile.get("full-path", "") if rootfile is not None else ""
    if not package_name:
        raise DocumentError([Diagnostic("an EPUB whose META-INF/container.xml names no package (rootfile)",
                                        source, 0)])
    package = _xml(archive, package_name, source, "an EPUB")
    folder = posixpath.dirname(package_name)
    items = {item.get("id"): item for item in package.iterfind(f"{{{_OPF}}}manifest/{{{_OPF}}}item")}
    documents = []
    for ref in package.iterfind(f"{{{_OPF}}}spine/{{{_OPF}}}itemref"):
        item = items.get(ref.get("idref"))
        if item is None or ref.get("linear") == "no" or "nav" in (item.get("properties") or "").split():
            continue
        documents.append(posixpath.normpath(posixpath.join(folder, item.get("href", ""))))
    if not documents:
        raise DocumentError([Diagnostic(f"an EPUB whose spine ({package_name}) lists no document", source, 0)])
    parts = []
    for name in documents:
        try:
            page = archive.read(name).decode("utf-8", "replace")
        except KeyError as exc:
            raise DocumentError([Diagnostic(f"an EPUB without its spine's document {name!r}", source, 0)]) from exc
        markdown, _ = to_markdown(page, f"{source}:{name}")
        parts.append(markdown.strip("\n"))
    return "\n\n".join(parts), [Diagnostic(f"read from an EPUB of {len(documents)} documents (its spine, "
                                           "in order), each as a web page", source, 0, "info")]
