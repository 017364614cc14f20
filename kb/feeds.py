"""What changed between editions, as Atom feeds (RFC 4287).

A feed follows one scope of a ruleset: the whole ruleset, one section (a chapter or
heading and everything under it) or one rule (under each number it had). Each entry is one
step between consecutive editions, newest first, carrying what changed in that scope with
the word-level changes the edition diff computes (:mod:`kb.editions.queries`); a step in
which nothing in the scope changed has no entry, so a reader hears only about real change.
A ruleset's or section's feed holds the newest :data:`FEED_STEPS` steps; older steps are
its next pages (RFC 5005 3, a paged feed: ``before`` names the edition the page ends before).

The feeds are built from the same diff and history the site's compare pages and the API
answer from (each step's changes as the build stored them, so a feed of 50 steps loads no
graph); the web layer supplies the links (``Links``), as eyecite's annotate takes a
callable, so this module knows nothing of URLs. :func:`render_atom` turns any list of
:class:`FeedEntry` into a feed document (the stale-rulings feed uses it too).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Protocol

from feedgenerator import Atom1Feed

from kb.editions.lineage import stored_changes, stored_rules
from kb.editions.queries import diff, history
from kb.errors import QueryError
from kb.loaded import LoadedEditions
from kb.numbers import try_parse_number
from kb.store import stored_rules_path

#: Changes listed in one entry; the rest are counted and linked (the compare page has all).
ENTRY_CHANGES = 60
#: Entries in one rule's feed (the editions that changed it), newest first.
FEED_ENTRIES = 50
#: Edition steps in one page of a ruleset's or section's feed, newest first. Ten steps are
#: two to three years of Magic's releases (about four a year) and every Riftbound release so
#: far; a reader polling hourly sees each new step in the first page, and keeps older
#: entries itself (RFC 5005 3: the older pages are linked ``rel="next"``). Fifty steps over
#: the 77-edition archive were a 1.3 MB document fetched every hour.
FEED_STEPS = 10
#: The feeds' atom:author (RFC 4287 requires one on a feed whose entries have none).
FEED_AUTHOR = "rulekb"
_STATUS_WORDS = {"added": "added", "removed": "removed", "changed": "reworded", "moved": "renumbered"}


class Links(Protocol):
    """Where a feed's links point: supplied by the web layer (absolute when it knows the
    public URL, else relative to the site's root)."""

    def rule(self, ruleset: str, edition: str, number: str) -> str: ...
    def compare(self, ruleset: str, old: str, new: str) -> str: ...
    def history(self, ruleset: str, number: str) -> str: ...


@dataclass(frozen=True, slots=True)
class FeedEntry:
    """One entry of a feed: a stable id (a URN), a title, when it happened, a link and an
    HTML summary."""

    id: str
    title: str
    updated: datetime
    link: str
    content_html: str


@dataclass(frozen=True, slots=True)
class Feed:
    """A feed's own fields and its entries (newest first)."""

    id: str
    title: str
    subtitle: str
    link: str
    entries: tuple[FeedEntry, ...]
    #: Paging (RFC 5005 3): the ``before`` of the next, older page (None on the oldest page),
    #: and of the previous, newer page (None when that is the first page, which has no
    #: ``before``); ``paged`` says whether the feed has more than one page at all.
    older: str | None = None
    newer: str | None = None
    paged: bool = False


#: The time of what has none (a feed without entries stays byte-identical).
EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def edition_time(date: str, fallback: datetime = EPOCH) -> datetime:
    """An edition's date as a UTC timestamp (midnight), or ``fallback`` when unknown."""
    try:
        return datetime.strptime(date, "%Y-%m-%d").replace(tzinfo=timezone.utc)
    except (TypeError, ValueError):
        return fallback


def _built(kb: LoadedEditions) -> datetime:
    return kb.built_at or EPOCH


def ops_html(ops: list[dict[str, str]] | None, text: str = "") -> str:
    """Word-level changes as HTML (``<del>`` old words, ``<ins>`` new ones)."""
    if not ops:
        return html.escape(text)
    out = []
    for op in ops:
        if op["op"] == "equal":
            out.append(html.escape(op["new"]))
            continue
        if op["old"]:
            out.append(f"<del>{html.escape(op['old'])}</del>")
        if op["new"]:
            out.append(f"<ins>{html.escape(op['new'])}</ins>")
    return "".join(out)


def _change_html(ruleset: str, old: str, new: str, e: dict[str, Any], links: Links) -> str:
    status = e["status"]
    if status == "removed":
        return (f"<li><strong>{html.escape(e['old_number'])}</strong> removed: "
                f"{html.escape(e['old_text'] or '')}</li>")
    number = e["new_number"]
    head = f'<a href="{html.escape(links.rule(ruleset, new, number))}">{html.escape(number)}</a>'
    if status == "moved":
        head += f" (was {html.escape(e['old_number'])})"
    word = "added" if status == "added" else "renumbered and reworded" if status == "moved" and e.get("reworded") \
        else _STATUS_WORDS[status]
    return f"<li><strong>{head}</strong> {word}: {ops_html(e.get('ops'), e.get('new_text') or '')}</li>"


def _step_entry(kb: LoadedEditions, ruleset: str, old: dict[str, Any], new: dict[str, Any],
                chapter: str | None, scope_id: str, links: Links) -> FeedEntry | None:
    """The entry for one step between consecutive editions, or None when nothing in the
    scope changed (or a section is in neither edition)."""
    try:
        # what the build stored for the step, else the diff (a knowledge base held in memory)
        changes = stored_changes(kb, ruleset, old["edition"], new["edition"], chapter)
        if changes is None:
            changes = diff(kb, ruleset, old["edition"], new["edition"], chapter=chapter)["entries"]
    except QueryError as exc:
        if chapter is not None and exc.status == 404:
            return None  # the section is in neither edition of this step
        raise
    if not changes:
        return None
    counts: dict[str, int] = {}
    for e in changes:  # every change is counted; the first ENTRY_CHANGES are listed
        counts[e["status"]] = counts.get(e["status"], 0) + 1
    shown = changes[:ENTRY_CHANGES]
    said = ", ".join(f"{n} {_STATUS_WORDS[s]}" for s, n in counts.items())
    where = f" in {chapter}" if chapter else ""
    # a step to or from an excerpt says so where a reader sees it first (its body explains)
    to_excerpt = " (excerpt)" if new.get("partial") else ""
    from_excerpt = f" (from the excerpt {old['edition']})" if old.get("partial") else ""
    title = f"{_ruleset_title(kb, ruleset)} {new['edition']}{to_excerpt}: {said}{from_excerpt}{where}"
    compare = links.compare(ruleset, old["edition"], new["edition"])
    body = [f"<p>From {html.escape(old['edition'])} ({html.escape(old['date'] or 'undated')}) to "
            f"{html.escape(new['edition'])} ({html.escape(new['date'] or 'undated')}){html.escape(where)}: "
            f"{html.escape(said)}.</p>"]
    if old.get("partial") or new.get("partial"):
        body.append("<p>One of these editions is an excerpt: a rule it lacks may show as added "
                    "or removed.</p>")
    body.append("<ul>" + "".join(_change_html(ruleset, old["edition"], new["edition"], e, links)
                                 for e in shown) + "</ul>")
    if len(changes) > len(shown):
        body.append(f'<p>{len(changes) - len(shown)} more: '
                    f'<a href="{html.escape(compare)}">the whole comparison</a>.</p>')
    return FeedEntry(id=f"{scope_id}:{old['edition']}:{new['edition']}", title=title,
                     updated=edition_time(new["date"], _built(kb)), link=compare, content_html="".join(body))


def changes_feed(kb: LoadedEditions, ruleset: str, links: Links, chapter: str | None = None,
                 before: str | None = None, steps: int | None = None) -> Feed:
    """What changed at each step between consecutive editions of a ruleset (or, with
    ``chapter``, inside one section), the newest ``steps`` steps (default
    :data:`FEED_STEPS`). With ``before`` (an edition
    name), the ``steps`` steps to editions older than it: the feed's older pages, which
    ``Feed.older`` and ``Feed.newer`` name. QueryError 404 for an unknown ruleset, a section
    that no edition has or a ``before`` that is not an edition of the ruleset."""
    eds = kb.editions(ruleset)
    if not eds:
        raise QueryError(404, f"unknown ruleset {ruleset!r}", {"rulesets": [r["name"] for r in kb.rulesets()]})
    steps = FEED_STEPS if steps is None else steps
    if steps < 1:
        raise ValueError(f"a feed page has at least one step, not {steps}")
    names = [e["edition"] for e in eds]
    if before is not None and before not in names:
        raise QueryError(404, f"before: {before[:40]!r} is not an edition of {ruleset}",
                         {"ruleset": ruleset, "editions": names})
    if chapter is not None:
        kb_numbers = [n for e in eds if (n := _holding(kb, ruleset, e["edition"], chapter))]
        if not kb_numbers:
            raise QueryError(404, f"no section {chapter[:40]} in any edition of {ruleset}",
                             {"ruleset": ruleset, "chapter": chapter[:40]})
        chapter = kb_numbers[-1]
    scope = f"urn:rulekb:{ruleset}:changes" + (f":{chapter}" if chapter else "")
    # step i goes from eds[i - 1] to eds[i]; a page holds the steps i in [low, end)
    end = names.index(before) if before is not None else len(eds)
    low = max(1, end - steps)
    page = [(eds[i - 1], eds[i]) for i in range(end - 1, low - 1, -1)]
    entries = tuple(e for old, new in page
                    if (e := _step_entry(kb, ruleset, old, new, chapter, scope, links)) is not None)
    title = _ruleset_title(kb, ruleset)
    return Feed(id=scope, title=f"{title}: changes" + (f" in {chapter}" if chapter else ""),
                subtitle=f"What changed in {'section ' + chapter + ' of ' if chapter else ''}{title} "
                         f"from one edition to the next.",
                link=links.compare(ruleset, eds[-2]["edition"], eds[-1]["edition"]) if len(eds) > 1
                else links.rule(ruleset, eds[-1]["edition"], chapter or ""),
                entries=entries, older=names[low] if low > 1 else None,
                newer=names[end + steps] if end + steps < len(eds) else None,
                paged=len(eds) - 1 > steps)


def _holding(kb: LoadedEditions, ruleset: str, edition: str, number: str) -> str | None:
    """The number as an edition numbers it, None when the edition has no such rule: read from
    the rule texts the build stored (a section feed asks every edition, and loading seventy
    graphs for it took longer than the feed's diffs), else from the edition's graph."""
    segments = try_parse_number(number)
    if kb.build_dir is not None and segments is not None \
            and stored_rules_path(kb.build_dir, ruleset, edition).is_file():
        return stored_rules(kb, ruleset, edition).find(segments)
    try:
        return kb.find_rule(kb.edition(ruleset, edition), number)
    except QueryError:
        return None


def _ruleset_title(kb: LoadedEditions, ruleset: str) -> str:
    for r in kb.rulesets():
        if r["name"] == ruleset:
            return str(r["title"])
    return ruleset


_RULE_WORDS = {"added": "added", "changed": "reworded", "removed": "removed"}


def rule_feed(kb: LoadedEditions, ruleset: str, number: str, links: Links) -> Feed:
    """A rule's changes through every edition (under each number it had): added, reworded,
    renumbered, removed. QueryError 404 when no edition has the number."""
    h = history(kb, ruleset, number)
    canonical = h["number"]
    scope = f"urn:rulekb:{ruleset}:rule:{canonical}"
    entries: list[FeedEntry] = []
    fallback = _built(kb)
    for row in h["editions"]:
        status = row["status"]
        if status == "moved":
            word = f"renumbered from {row['previous_number']}" + (" and reworded" if row["reworded"] else "")
        elif status in _RULE_WORDS:
            word = _RULE_WORDS[status]
        else:
            continue  # present (the oldest), unchanged, absent, unknown (an excerpt lacks it)
        shown = row["number"] or canonical
        link = links.rule(ruleset, row["edition"], row["number"]) if row["number"] else links.history(ruleset, canonical)
        body = (f"<p>In {html.escape(row['edition'])} ({html.escape(row['date'] or 'undated')}), "
                f"rule {html.escape(shown)} was {html.escape(word)}.</p>")
        if row.get("text") is not None:
            body += f"<blockquote>{ops_html(row.get('ops'), row['text'])}</blockquote>"
        entries.append(FeedEntry(id=f"{scope}:{row['edition']}", title=f"{shown} {word} in {row['edition']}",
                                 updated=edition_time(row["date"], fallback), link=link, content_html=body))
    entries.reverse()
    return Feed(id=scope, title=f"{_ruleset_title(kb, ruleset)} rule {canonical}: changes",
                subtitle=f"How rule {canonical} changed from one edition to the next.",
                link=links.history(ruleset, canonical), entries=tuple(entries[:FEED_ENTRIES]))


class _Atom(Atom1Feed):
    """feedgenerator's Atom feed with a given ``<updated>`` (its own uses the clock when
    no entry has a date, which would make an unchanged feed look new) and paging links."""

    def __init__(self, updated: datetime, page_links: Mapping[str, str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._updated = updated
        self._page_links = dict(page_links or {})

    def latest_post_date(self) -> datetime:
        return self._updated

    def add_root_elements(self, handler: Any) -> None:
        super().add_root_elements(handler)
        for rel, href in self._page_links.items():
            handler.addQuickElement("link", "", {"rel": rel, "href": href})


def render_atom(feed: Feed, self_link: str = "", updated: datetime | None = None,
                page_links: Mapping[str, str] | None = None) -> bytes:
    """An Atom 1.0 document (UTF-8) for a feed. ``updated`` defaults to the newest entry's
    time (the epoch for a feed without entries, so an unchanged feed stays byte-identical).
    ``page_links`` are more ``<link>`` elements, relation to address (RFC 5005's paging
    relations ``first``, ``next``, ``previous``)."""
    newest = max((e.updated for e in feed.entries), default=None)
    stamp = updated or newest or EPOCH
    # RFC 4287 4.1.1: a feed whose entries carry no author names one itself; what the
    # entries say is computed by rulekb from the publishers' documents.
    doc = _Atom(stamp, title=feed.title, link=feed.link, description=feed.subtitle,
                    subtitle=feed.subtitle, feed_url=self_link or None, feed_guid=feed.id,
                    language="en", author_name=FEED_AUTHOR, page_links=page_links)
    for e in feed.entries:
        doc.add_item(title=e.title, link=e.link, description=e.content_html, unique_id=e.id,
                     updateddate=e.updated, pubdate=e.updated)
    return doc.writeString("utf-8").encode("utf-8")


def entries_from(items: Iterable[Any], make: Callable[[Any], FeedEntry]) -> tuple[FeedEntry, ...]:
    """Feed entries made from any records (e.g. stale rulings), newest first."""
    return tuple(sorted((make(i) for i in items), key=lambda e: e.updated, reverse=True))
