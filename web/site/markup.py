"""Rule text as HTML: references become links, defined terms become tooltips.

The knowledge base says where the spans are (:meth:`kb.query.KnowledgeBase.mentions`);
this module only writes them. Every piece of text is escaped here, so rule text carrying
HTML or script renders as the characters it is, whatever the document said.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

from markupsafe import Markup, escape

# canonical number -> link to it
RuleLinker = Callable[[str], str]


def rule_text(text: str, spans: list[dict[str, Any]], link: RuleLinker,
              title_of: Callable[[str], str]) -> Markup:
    """Mark up ``text`` with its ``spans``.

    Rule references link to the first rule they name (a range's title lists the rest);
    unresolved ones are marked, not dropped. A term's first use is a focusable link to its
    definition (``#term-<key>`` in the page's term list, which the script shows as a
    tooltip); in the rule that defines it, it is a ``<dfn>``.
    """
    out: list[str] = []
    pos = 0
    for span in spans:
        start, end = span["start"], span["end"]
        if start < pos:
            continue
        out.append(str(escape(text[pos:start])))
        piece = escape(text[start:end])
        if span["kind"] == "term":
            key = span["key"]
            if span.get("defines"):
                out.append(f'<dfn class="defined" id="{escape(term_id(key))}-def">{piece}</dfn>')
            else:
                out.append(
                    f'<a class="term" href="#{escape(term_id(key))}" data-term="{escape(key)}" '
                    f'aria-describedby="{escape(term_id(key))}">{piece}</a>')
        elif span["targets"]:
            targets = span["targets"]
            label = ", ".join(targets) if len(targets) > 1 else title_of(targets[0])
            out.append(f'<a class="ref" href="{escape(link(targets[0]))}" '
                       f'title="{escape(label)}">{piece}</a>')
        else:
            out.append(f'<span class="ref unresolved" title="not in this edition">{piece}</span>')
        pos = end
    out.append(str(escape(text[pos:])))
    return Markup("".join(out))


def term_id(key: str) -> str:
    """The element id of a term's definition on a page (stable, no spaces)."""
    return "term-" + "-".join(key.split())


def highlight(excerpt: str) -> Markup:
    """A search excerpt (HTML with ``<mark>`` around matched words) re-escaped so that only
    the ``<mark>`` tags survive, whatever else it holds."""
    out: list[str] = []
    for i, piece in enumerate(_MARK.split(excerpt)):
        text = str(escape(html.unescape(piece)))
        out.append(f"<mark>{text}</mark>" if i % 2 else text)
    return Markup("".join(out))


def _elided(text: str, context: int, before: bool, after: bool) -> str:
    """Unchanged words with only ``context`` of them kept beside the change ``before`` them
    and the one ``after`` them (the text's start and end stand beside none)."""
    words = text.split()
    keep_head, keep_tail = (context if before else 0), (context if after else 0)
    if len(words) <= keep_head + keep_tail + 2:
        return text
    lead, trail = text[:len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    head = " ".join(words[:keep_head]) + " " if keep_head else ""
    tail = " " + " ".join(words[len(words) - keep_tail:]) if keep_tail else ""
    return f"{lead}{head}…{tail}{trail}"


_MARK = re.compile(r"<mark>(.*?)</mark>", re.S)


def inline_diff(ops: list[dict[str, str]], context: int | None = None) -> Markup:
    """Word-level changes in one text: removed words in ``<del>``, added ones in ``<ins>``
    (a rule's history on its page, a cited rule's change on a ruling's page). With
    ``context``, a run of unchanged words longer than twice that keeps only that many words
    on each side of a change, the rest an ellipsis (a long rule, 205.3m's list of creature
    types, changed in most of Magic's 72 editions)."""
    out = []
    last = len(ops) - 1
    for i, op in enumerate(ops):
        o, n = escape(op.get("old", "")), escape(op.get("new", ""))
        if op["op"] == "equal":
            out.append(str(n) if context is None else _elided(str(n), context, i > 0, i < last))
        else:
            out.append((f"<del>{o}</del>" if o else "") + (f"<ins>{n}</ins>" if n else ""))
    return Markup("".join(out))
