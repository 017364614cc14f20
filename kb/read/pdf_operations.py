"""A page's content stream as pypdf parses it, parsed faster (:func:`operations`).

pypdf's own parser (``ContentStream.operations``) reads the stream a byte at a time; a
browser's PDF of the rules shows each glyph with its own operator (a hundred thousand ``Tj``),
and that parse took half of reading it. :func:`operations` tokenises the stream with one regular
expression into the very objects pypdf makes (``NumberObject``, ``FloatObject``, ``NameObject``,
``ByteStringObject`` — the reader asks for bytes —, ``ArrayObject``, ``DictionaryObject``), for
the plain syntax the PDFs in use write: numbers, names, literal and hexadecimal strings, flat
arrays, flat marked-content dictionaries, operators. Anything else (a comment, an inline image,
a nested array, an escape pypdf would warn of, a malformed token, a stream near pypdf's parsing
limits) is left to pypdf's parser, which then does what it always did (parses, warns or fails).
"""

from __future__ import annotations

import re
from typing import Any

from pypdf.generic import (ArrayObject, ByteStringObject, ContentStream, DictionaryObject, FloatObject,
                           NameObject, NumberObject)

# One token, after the whitespace pypdf skips between tokens (NUL and vertical tab are left to
# pypdf: it skips the one and stops at the other differently in different places). An operator
# or a name runs to pypdf's delimiters (``NameObject.delimiter_pattern``); a number to the
# first byte that is not in pypdf's ``NumberObject.NumberPattern`` set (+ , - . 0-9).
_TOKEN = re.compile(rb"""[ \t\n\r\f]*(?:
    (?P<number>[+,\-.0-9]+)
  | (?P<name>/[^ \t\n\r\f\v()<>\[\]{}/%]*)
  | (?P<string>\((?:[^()\\]|\\[nrtbf()/\\ %<>\[\]\#_&$]|\\[0-7]{1,3})*\))
  | (?P<hex><[0-9A-Fa-f]*>)
  | (?P<operator>[A-Za-z'"][^ \t\n\r\f\v()<>\[\]{}/%]*)
  | (?P<open>\[)
  | (?P<close>\])
  | (?P<dict><<)
  | (?P<enddict>>>)
  | (?P<end>\Z)
)""", re.VERBOSE)
_NUMBER = re.compile(rb"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_ESCAPE = re.compile(rb"\\([0-7]{1,3}|.)", re.DOTALL)
_ESCAPED = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}  # else the byte itself
# What pypdf takes for a stream's data after a dictionary (read where the dictionary ends: a
# slice of the rest of the stream at each of a page's marked-content dictionaries would be
# quadratic in the stream's length).
_STREAM_AFTER = re.compile(rb"[ \t\n\r\f\x00]*s")
_MAX_TOKENS = 400_000  # pypdf's budget is 2,000,000 units, at most 3 a token here
_MAX_ITEMS = 50_000  # pypdf's arrays and dictionaries hold at most 100,000
_MAX_OPERATOR, _MAX_NAME = 100, 4000  # pypdf cuts them at 128 and 4096 bytes, and warns
_MAX_NUMBER = 16  # pypdf reads a number of fewer than 20 bytes at once, a longer one otherwise


class _Unsupported(Exception):
    """Syntax this parser leaves to pypdf's."""


def operations(content: ContentStream) -> list[tuple[Any, bytes]]:
    """``content.operations``, the same operators with the same operands, parsed faster where
    the stream's syntax is the plain one (else by pypdf itself)."""
    data = content.get_data()  # not parsed yet: the stream's bytes
    try:
        return _parse(data)
    except _Unsupported:
        return content.operations


def _unescaped(match: re.Match[bytes]) -> bytes:
    code = match.group(1)
    if code[:1].isdigit():
        value = int(code, 8)
        if value > 255:  # pypdf keeps the backslash and reads the digits again
            raise _Unsupported
        return bytes((value,))
    return _ESCAPED.get(code, code)


def _parse(data: bytes) -> list[tuple[Any, bytes]]:
    ops: list[tuple[Any, bytes]] = []
    operands: list[Any] = []
    stack: list[Any] = []  # the array or dictionary being read, and the operands outside it
    items: list[Any] | None = None  # the open array's (or dictionary's keys and values)
    in_dict = False
    numbers: dict[bytes, Any] = {}
    names: dict[bytes, NameObject] = {}
    match = _TOKEN.match
    at, tokens = 0, 0
    while True:
        m = match(data, at)
        if m is None:
            raise _Unsupported
        kind = m.lastgroup
        at = m.end()
        tokens += 1
        if tokens > _MAX_TOKENS:
            raise _Unsupported
        if kind == "number":
            text = m.group(kind)
            value = numbers.get(text)
            if value is None:
                if len(text) > _MAX_NUMBER or not _NUMBER.fullmatch(text):
                    raise _Unsupported
                value = numbers[text] = FloatObject(text) if b"." in text else NumberObject(text)
            (operands if items is None else items).append(value)
        elif kind == "name":
            text = m.group(kind)
            value = names.get(text)
            if value is None:
                if len(text) > _MAX_NAME or b"#" in text or not text.isascii():
                    raise _Unsupported
                value = names[text] = NameObject(text.decode("ascii"))
            (operands if items is None else items).append(value)
        elif kind == "string":
            raw = m.group(kind)[1:-1]
            if b"\\" in raw:
                raw = _ESCAPE.sub(_unescaped, raw)
            (operands if items is None else items).append(ByteStringObject(raw))
        elif kind == "hex":
            digits = m.group(kind)[1:-1]
            if len(digits) % 2:
                digits += b"0"
            (operands if items is None else items).append(ByteStringObject(bytes.fromhex(digits.decode())))
        elif kind == "operator":
            if items is not None:
                raise _Unsupported  # true, false, null or a stray operator inside an array
            operator = m.group(kind)
            if len(operator) > _MAX_OPERATOR or operator == b"BI" \
                    or (operator[:1] == b"R" and not operator[1:2].isalpha()):
                # an inline image; an R that pypdf may take, with the two numbers before it,
                # for a reference to an object ("1 0 R", "1 0 R2": its IndirectPattern)
                raise _Unsupported
            ops.append((operands, operator))
            operands = []
        elif kind == "open":
            if items is not None:
                raise _Unsupported  # nested
            items, in_dict = [], False
        elif kind == "dict":
            if items is not None:
                raise _Unsupported  # nested
            items, in_dict = [], True
        elif kind == "close" or kind == "enddict":
            if items is None or in_dict != (kind == "enddict") or len(items) > _MAX_ITEMS:
                raise _Unsupported
            if in_dict:
                keys = items[0::2]
                if len(items) % 2 or not all(isinstance(k, NameObject) for k in keys) \
                        or len(set(keys)) != len(keys):
                    raise _Unsupported
                if _STREAM_AFTER.match(data, at) is not None:
                    raise _Unsupported  # what pypdf would check for a stream's data
                value = DictionaryObject()
                value.update(zip(keys, items[1::2]))  # as pypdf fills it
            else:
                value = ArrayObject(items)
            operands.append(value)
            items = None
        else:  # the end
            if items is not None:
                raise _Unsupported
            if operands:
                raise _Unsupported  # operands without an operator: left to pypdf
            return ops
