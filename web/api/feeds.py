"""Atom feeds of what changed between editions: per ruleset, per section, per rule.

Feed readers poll: every feed is a GET with the API's ETag and Last-Modified, so an
unchanged build answers 304. Links in a feed start with the configured public URL
(``RULEKB_PUBLIC_URL``), else they are relative to the site's root (RFC 4287 resolves them
against the feed's own address).
"""

from __future__ import annotations

from flask import Response, request, url_for

from kb.feeds import FEED_STEPS, Feed, changes_feed, render_atom, rule_feed
from web.serving import public_url
from web.api.base import RULE_LOOKUP, RULESET, bp, current_kb
from web.openapi import NAME_PATTERN, NUMBER_PATTERN, SCHEMAS, Param, endpoint

ATOM_TYPE = "application/atom+xml"
SCHEMAS["AtomFeed"] = {"type": "string", "contentMediaType": ATOM_TYPE,
                       "description": "An Atom 1.0 feed document (RFC 4287)."}
SECTION = Param("section", {"type": "string", "maxLength": 64, "pattern": NUMBER_PATTERN},
                "Only changes inside this chapter or heading (and the rules under it).",
                example="300")
BEFORE = Param("before", {"type": "string", "pattern": NAME_PATTERN},
               f"An older page of the feed: the {FEED_STEPS} steps to editions before this one "
               "(the feed links its pages, RFC 5005: rel=\"next\" older, rel=\"previous\" "
               "newer, rel=\"first\" the newest).", example="1.3")


class SiteLinks:
    """A feed's links: the site's pages (compare, rule, history), absolute when a public URL
    is configured."""

    def __init__(self) -> None:
        self.root = public_url()

    def rule(self, ruleset: str, edition: str, number: str) -> str:
        return self.root + url_for("site.rule", ruleset=ruleset, edition=edition, number=number)

    def compare(self, ruleset: str, old: str, new: str) -> str:
        return self.root + url_for("site.compare", ruleset=ruleset, old=old, new=new)

    def history(self, ruleset: str, number: str) -> str:
        return self.root + url_for("site.newest_rule", ruleset=ruleset, number=number)


def atom(feed: Feed, page_links: dict[str, str] | None = None) -> Response:
    """A feed as the API's answer (its ``self`` link is the address asked for)."""
    return Response(render_atom(feed, public_url() + request.full_path.rstrip("?"), page_links=page_links),
                    mimetype=ATOM_TYPE)


def page_links(feed: Feed, ruleset: str, section: str | None, before: str | None) -> dict[str, str]:
    """RFC 5005's paging links of a ruleset's or section's feed page: ``first`` (the feed's
    own address), ``next`` (older steps) and ``previous`` (newer ones), where there are such."""
    if not feed.paged:
        return {}

    def page(at: str | None) -> str:
        return public_url() + url_for("api.ruleset_changes", ruleset=ruleset, section=section, before=at)

    out = {"first": page(None)}
    if feed.older is not None:
        out["next"] = page(feed.older)
    if before is not None:
        out["previous"] = page(feed.newer)
    return out


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/changes.atom", tag="editions", response="AtomFeed",
          media_type=ATOM_TYPE, params=(RULESET, SECTION, BEFORE), errors=(404,),
          summary="An Atom feed of what changed from one edition to the next",
          examples=("/api/v1/rulesets/riftbound/changes.atom",
                    "/api/v1/rulesets/mtg/changes.atom?section=1",
                    "/api/v1/rulesets/riftbound/changes.atom?before=1.4"))
def ruleset_changes(ruleset: str, section: str | None, before: str | None) -> Response:
    """One entry per step between consecutive editions (newest first) in which something
    changed: the rules added, removed, reworded and renumbered, with their word-level
    changes, and a link to the whole comparison. With ``section``, only what changed inside
    that chapter or heading. The feed holds the newest ten steps;
    older ones are its next pages (``before``, linked ``rel="next"``: a feed reader keeps what
    it has read). A feed reader polling it answers 304 until a build adds an edition."""
    kb = current_kb()
    feed = changes_feed(kb, ruleset, SiteLinks(), chapter=section, before=before)
    return atom(feed, page_links(feed, ruleset, section, before))


@endpoint(bp, "GET", "/v1/rulesets/<ruleset>/rules/<number>/changes.atom", tag="editions",
          response="AtomFeed", media_type=ATOM_TYPE, params=(RULESET, RULE_LOOKUP), errors=(404,),
          summary="An Atom feed of how one rule changed through the editions",
          examples=("/api/v1/rulesets/riftbound/rules/337.2/changes.atom",))
def rule_changes(ruleset: str, number: str) -> Response:
    """One entry per edition in which the rule was added, reworded, renumbered (under the
    number it had then) or removed, newest first, with the word-level changes. The number is
    read in the newest full edition that has it and followed back through every edition."""
    return atom(rule_feed(current_kb(), ruleset, number, SiteLinks()))
