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
    """What happened to one cited rule, in words ("338.1.c of 1.3 is 338.1.b in 1.4")."""
    if c["status"] == "removed":
        return f"rule {c['number']} of {c['written_for']} was removed in {c['newest']}"
    if c["status"] == "renumbered":
        tail = " and reworded" if c["reworded"] else ""
        return f"rule {c['number']} of {c['written_for']} is rule {c['now']} in {c['newest']}{tail}"
    return f"rule {c['number']} was reworded in {c['newest']}"


def stale_feed(kb: LoadedEditions, record_link: RecordLink, feed_link: str, kind: Kind = "ruling",
               ruleset: str | None = None, records: RecordSet | None = None) -> Feed:
    """The feed of the stale records of a kind (of one ruleset, or all)."""
    report = records_report(kb, kind, ruleset, stale_only=True, records=records)

    def entry(item: dict[str, object]) -> FeedEntry:
        changed = [c for c in item["citations"] if c["status"] in STALE]  # type: ignore[union-attr]
        numbers = list(dict.fromkeys(str(c["number"]) for c in changed))
        rules = f"rule{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}"
        body = [f"<p>{html.escape(str(item['title']))}</p><ul>"]
        for c in changed:
            body.append(f"<li>{html.escape(change_sentence(c))}")
            if c["ops"]:
                body.append(f"<blockquote>{ops_html(c['ops'])}</blockquote>")
            body.append("</li>")
        body.append("</ul>")
        return FeedEntry(
            id=f"urn:rulekb:{kind}:{item['id']}:stale:{item['newest']}",
            title=f"{kind.capitalize()} {item['id']}: {rules} changed in {item['ruleset']} {item['newest']}",
            updated=dates[str(item["ruleset"])], link=record_link(kind, str(item["id"])),
            content_html="".join(body))

    stale = [i for i in report["records"] if i["stale"]]
    # each ruleset's newest date read once, not once per stale record for the order and again per entry
    dates = {name: _date(kb, name) for name in {str(i["ruleset"]) for i in stale}}
    # the newest FEED_ENTRIES, as the edition feeds list: 3,000 stale rulings made a feed of 3 MB
    stale.sort(key=lambda i: dates[str(i["ruleset"])], reverse=True)
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
