"""Splitting ``Example:`` paragraphs off a rule's text (shared by the readers)."""

from __future__ import annotations

import re

_EXAMPLE = re.compile(r"(?:(?<=^)|(?<=[.!?:)\"”’] ))(Examples?:)\s*")


def split_examples(text: str) -> tuple[str, list[str]]:
    """Return the rule text without its examples, and the examples in order.

    >>> split_examples("Chains resolve. Example: A spell resolves.")
    ('Chains resolve.', ['A spell resolves.'])
    """
    parts = _EXAMPLE.split(text)
    if len(parts) == 1:
        return text, []
    body = parts[0].strip()
    examples = [parts[i + 1].strip() for i in range(1, len(parts), 2)]
    return body, [e for e in examples if e]
