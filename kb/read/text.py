"""The one text normaliser shared by every reader: bytes to text, and text to clean words.

Normalisation keeps the official wording: it only folds whitespace, joins ligatures and
drops zero-width characters, so a rule reads exactly as printed.
"""

from __future__ import annotations

import codecs
import html
import re
import unicodedata
from collections.abc import Iterable

from kb.model import Diagnostic, DocumentError

# A reader recognises its layout from this many rule lines in it (``sniff``); a document
# with fewer is read only with the format named (``--format``).
MIN_RULE_LINES = 3

LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl"}
# Characters no reader sees: zero-width spaces and joiners, a BOM inside the text, soft hyphens.
ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
LIGATURE = re.compile("[\ufb00-\ufb04]")
_SPACE_BEFORE_PUNCT = re.compile(r"(?<=\w) +(?=[,.;:!?](?:\s|$))")


def decode(data: bytes, source: str = "") -> str:
    """Decode a rule document: BOMs, UTF-16 and Windows-1252 are detected; line endings
    (CRLF, bare CR) become ``\\n``. Raises :class:`DocumentError` for binary data."""
    if not data.strip():
        raise DocumentError([Diagnostic("the document is empty", source, 0)])
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _strict(data, "utf-16", source)
    elif data.startswith(codecs.BOM_UTF8):
        text = _strict(data[3:], "utf-8", source)
    elif len(data) > 3 and data[1:2] == b"\x00" and data[3:4] == b"\x00":
        text = data.decode("utf-16-le", errors="replace")
    elif len(data) > 3 and data[0:1] == b"\x00" and data[2:3] == b"\x00":
        text = data.decode("utf-16-be", errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    controls = sum(1 for ch in text[:20000] if ord(ch) < 32 and ch not in "\r\n\t\f")
    if "\x00" in text or controls > max(20, len(text[:20000]) // 50):
        first = next((i for i, ch in enumerate(text) if ord(ch) < 32 and ch not in "\r\n\t\f"), 0)
        line = text.count("\n", 0, first) + text.count("\r", 0, first) + 1
        raise DocumentError([Diagnostic("unreadable encoding: the file holds binary data, "
                                        "not rule text", source, line)])
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _strict(data: bytes, encoding: str, source: str) -> str:
    """Decode a file whose BOM names its encoding; bytes that break it are a DocumentError
    with the line they are on (a UTF-16 file cut in the middle of a character is truncated)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode(encoding, errors="replace")
        line = len(re.split(r"\r\n|\r|\n", before))
        reason = ("the file ends in the middle of a character: it looks truncated"
                  if exc.reason == "truncated data"
                  else f"the file starts with a {encoding.upper()} byte-order mark but byte "
                       f"{exc.start} after it is not {encoding.upper()}")
        raise DocumentError([Diagnostic(f"unreadable encoding: {reason}", source, line)]) from exc


def clean(text: str, *, unescape: bool = False, pdf_spacing: bool = False) -> str:
    """Normalise one rule's text: ligatures joined, zero-width characters dropped,
    whitespace (including hard line wraps) folded to single spaces.

    ``unescape`` decodes HTML entities; ``pdf_spacing`` also removes the space that PDF
    extraction puts before punctuation (``Pending ,``).
    """
    if unescape:
        text = html.unescape(text)
    if not text.isascii():  # the common case skips the Unicode work
        text = LIGATURE.sub(lambda m: LIGATURES[m.group()], text)
        text = ZERO_WIDTH.sub("", text)
        text = unicodedata.normalize("NFC", text)
    # str.split() folds every Unicode space (tabs, NBSP, thin and ideographic spaces) too.
    text = " ".join(text.split())
    if pdf_spacing:
        text = _SPACE_BEFORE_PUNCT.sub("", text)
    return text


def fold(text: str) -> str:
    """Whitespace-folded text for comparisons (the way the seeds are compared)."""
    return " ".join(clean(text).split())


def at_least(count: int, items: Iterable[object]) -> bool:
    """Whether ``items`` holds ``count`` items or more, taking no more than ``count`` of them (a
    layout's sniff stops at its third heading)."""
    return sum(1 for _ in zip(range(count), items)) >= count


# Roman numerals' values, largest first, as lists and Word number their items.
_ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"),
          (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))


def roman_numeral(n: int) -> str:
    """``n`` (1 to 3999) in lower-case roman numerals: 4 is ``iv``, 1994 ``mcmxciv``."""
    out = ""
    for value, numeral in _ROMAN:
        count, n = divmod(n, value)
        out += numeral * count
    return out
