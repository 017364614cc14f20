"""The rules as Rich Text (RTF: WordPad's, TextEdit's, Word's "Rich Text Format"), turned into
the text the readers read.

An RTF file is known by its bytes (``{\\rtf``). Its text is taken out with :mod:`striprtf`
(control words and groups dropped, ``\\'e9`` in the document's code page, ``\\u8217?``
Unicode, ``\\par`` a line end, ``\\line`` a line break, ``\\tab`` a tab); each paragraph is a
line, an empty paragraph a blank line, and in a document without empty paragraphs each
paragraph stands apart (as :mod:`kb.read.containers` reads a DOCX). A file that is not RTF
past its signature is refused.
"""

from __future__ import annotations

import re

from striprtf.striprtf import rtf_to_text

from kb.model import Diagnostic, DocumentError

RTF_SIGNATURE = b"{\\rtf"
_CODE_PAGE = re.compile(rb"\\ansicpg(\d+)")


def is_rtf(data: bytes) -> bool:
    """The bytes start as an RTF document does."""
    return data.lstrip()[:5] == RTF_SIGNATURE


def rtf_text(data: bytes, source: str = "") -> tuple[str, list[Diagnostic]]:
    """The text of an RTF document (see the module docstring) and the note on how it was read."""
    page = _CODE_PAGE.search(data[:2000])
    encoding = f"cp{page.group(1).decode()}" if page else "cp1252"
    try:
        "".encode(encoding)
    except LookupError:
        encoding = "cp1252"
    try:
        text = rtf_to_text(data.decode("latin-1"), encoding=encoding, errors="replace")
    except (ValueError, IndexError, KeyError) as exc:
        raise DocumentError([Diagnostic(f"an RTF document that cannot be read: {exc}", source, 0)]) from exc
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if not any(ln.strip() for ln in lines):
        raise DocumentError([Diagnostic("an RTF document whose body holds no text", source, 0)])
    paragraphs = sum(1 for ln in lines if ln.strip())
    if all(ln.strip() for ln in lines):  # no empty paragraphs: each paragraph stands apart
        lines = [part for ln in lines for part in (ln, "")]
    return "\n".join(lines), [Diagnostic(f"read from an RTF document of {paragraphs} paragraphs",
                                         source, 0, "info")]
