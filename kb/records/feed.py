"""The stale records as an Atom feed: every ruling (or article) a newer edition broke.

One entry per stale record (the newest :data:`kb.feeds.FEED_ENTRIES`; the subtitle says
how many there are when there are more), updated on the date of the newest edition (when it went
stale), naming each rule that changed: its number then and now, or that it was removed,
with the word-level changes. Rendered by :func:`kb.feeds.render_atom`, the one Atom writer
the edition-change feeds use too; the web layer supplies the links (``record_link``).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from kb.feeds import FEED_ENTRIES, Feed, FeedEntry, edition_time, entries_from, ops_html, render_atom
from kb.records.citing import STALE, records_report
from kb.records.model import Kind
from kb.records.store import RecordSet

if TYPE_CHECKING:
    from kb.loaded import LoadedEditions

RecordLink = Callable[[Kind, str], str]
_PLURAL = {"ruling": "rulings", "article": "articles"}


def _date(kb: LoadedEditions, ruleset: str | None) -> datetime:
    """Midnight UTC of the newest edition's date (the epoch when it has none)."""
    return edition_time(kb.edition(ruleset).edition.date if ruleset else "")


def change_sentence(c: dict[str, object]) -> str:
    """What happened to one cited rule, in words ("338.1.c of 1.3 is 338.1.b in 1.4"; a rule
    of another ruleset than the record's, which its citation's prefix named, with that
    ruleset's name: "mtg rule 116.3c of 2010-10-01 is rule 117.3c in 2026-01-16")."""
    rule = f"{c['ruleset']} rule" if c.get("named") else "rule"
    if c["status"] == "removed":
        return f"{rule} {c['number']} of {c['written_for']} was removed in {c['newest']}"
    if c["status"] == "renumbered":
        tail = " and reworded" if c["reworded"] else ""
        return f"{rule} {c['number']} of {c['written_for']} is rule {c['now']} in {c['newest']}{tail}"
    return f"{rule} {c['number']} was reworded in {c['newest']}"


def word_diff_line(ops: list[dict[str, str]], context: int = 4, changes: int = 6, words: int = 12) -> str:
    """A rule's word changes on one line, bounded: each change (``[-old-]``, ``{+new+}``; a
    change of more than ``words`` words keeps its first and last ones), ``context`` words of
    the unchanged text either side, "…" for the rest; past ``changes`` changes, how many
    more there are (the whole diff is a report's ``ops``: ``--json``).

    >>> word_diff_line([{"op": "equal", "old": "a b c d e f g ", "new": "a b c d e f g "},
    ...                 {"op": "replace", "old": "h", "new": "H"},
    ...                 {"op": "equal", "old": " i j k l m n o p q", "new": " i j k l m n o p q"}], context=2)
    '… f g [-h-]{+H+} i j …'
    """
    out: list[str] = []
    shown = 0
    total = sum(1 for op in ops if op["op"] != "equal")
    for i, op in enumerate(ops):
        if op["op"] == "equal":
            out.append(_context(op["new"], context, i > 0, i < len(ops) - 1))
            continue
        shown += 1
        if shown > changes:
            out.append(f"{'' if out and out[-1].endswith(' ') else ' '}… ({total - changes} more change{'s' if total - changes > 1 else ''}: --json has them all)")
            break
        out.append((f"[-{_clipped(op['old'], words)}-]" if op["old"] else "") +
                   (f"{{+{_clipped(op['new'], words)}+}}" if op["new"] else ""))
    return "".join(out)


def _context(text: str, context: int, after_change: bool, before_change: bool) -> str:
    """Unchanged text between changes: ``context`` words next to each, "…" between."""
    parts = text.split()
    lead = " " if text[:1].isspace() else ""
    trail = " " if text[-1:].isspace() and before_change else ""
    keep = context * (after_change + before_change)
    if len(parts) <= keep:
        return text
    head = " ".join(parts[:context]) + " " if after_change else ""
    tail = " " + " ".join(parts[-context:]) if before_change else ""
    return f"{lead}{head}…{tail}{trail}" if after_change else f"…{tail}{trail}"


def _clipped(text: str, words: int) -> str:
    parts = text.split()
    if len(parts) <= words:
        return text
    return " ".join(parts[: words * 2 // 3]) + " … " + " ".join(parts[-(words // 3):])


def stale_feed(kb: LoadedEditions, record_link: RecordLink, feed_link: str, kind: Kind = "ruling",
               ruleset: str | None = None, records: RecordSet | None = None) -> Feed:
    """The feed of the stale records of a kind (of one ruleset, or all)."""
    report = records_report(kb, kind, ruleset, stale_only=True, records=records)

    def entry(item: dict[str, object]) -> FeedEntry:
        changed = [c for c in item["citations"] if c["status"] in STALE]  # type: ignore[union-attr]
        # each ruleset's changed rules with its newest edition (the record's own first)
        by_ruleset: dict[tuple[str, str], list[str]] = {}
        for c in sorted(changed, key=lambda c: bool(c["named"])):
            numbers = by_ruleset.setdefault((str(c["ruleset"]), str(c["newest"])), [])
            if str(c["number"]) not in numbers:
                numbers.append(str(c["number"]))
        rules = "; ".join(f"rule{'s' if len(numbers) > 1 else ''} {', '.join(numbers)} changed in {name} {newest}"
                          for (name, newest), numbers in by_ruleset.items())
        body = [f"<p>{html.escape(str(item['title']))}</p><ul>"]
        for c in changed:
            body.append(f"<li>{html.escape(change_sentence(c))}")
            if c["ops"]:
                body.append(f"<blockquote>{ops_html(c['ops'])}</blockquote>")
            body.append("</li>")
        body.append("</ul>")
        return FeedEntry(
            id=f"urn:rulekb:{kind}:{item['id']}:stale:{item['newest']}",
            title=f"{kind.capitalize()} {item['id']}: {rules}",
            updated=went_stale(item), link=record_link(kind, str(item["id"])),
            content_html="".join(body))

    stale = [i for i in report["records"] if i["stale"]]
    # each ruleset's newest date read once, not once per stale record for the order and again per entry
    dates = {name: _date(kb, name) for name in {str(c["ruleset"]) for i in stale
                                                for c in i["citations"] if c["status"] in STALE}}

    def went_stale(item: dict[str, object]) -> datetime:
        """The newest date of the editions that changed a rule the record cites."""
        return max(dates[str(c["ruleset"])] for c in item["citations"]  # type: ignore[union-attr]
                   if c["status"] in STALE)

    # the newest FEED_ENTRIES, as the edition feeds list: 3,000 stale rulings made a feed of 3 MB
    stale.sort(key=went_stale, reverse=True)
    shown = stale[:FEED_ENTRIES]
    scope = f" of {ruleset}" if ruleset else ""
    more = (f" {len(stale)} are stale; the {len(shown)} newest are listed here, every one on the "
            f"{_PLURAL[kind]} page.") if len(shown) < len(stale) else ""
    return Feed(id=f"urn:rulekb:{kind}s:stale" + (f":{ruleset}" if ruleset else ""),
                title=f"Stale {_PLURAL[kind]}{scope}",
                subtitle=f"{_PLURAL[kind].capitalize()} citing a rule that a newer edition renumbered, "
                         f"reworded or removed.{more}",
                link=feed_link, entries=entries_from(shown, entry))


def stale_feed_atom(kb: LoadedEditions, record_link: RecordLink, feed_link: str, self_link: str = "",
                    kind: Kind = "ruling", ruleset: str | None = None,
                    records: RecordSet | None = None) -> bytes:
    """:func:`stale_feed` as an Atom 1.0 document (UTF-8)."""
    return render_atom(stale_feed(kb, record_link, feed_link, kind, ruleset, records), self_link)
