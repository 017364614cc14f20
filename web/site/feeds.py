"""Which change feeds (``/api/v1/.../changes.atom``) follow the page being rendered.

Every page of a ruleset offers its ruleset's feed; a rule's page offers the rule's own feed
(and, for a section or chapter, the section's); a comparison limited to a chapter offers
that chapter's. ``base.html`` puts them in the head (``rel="alternate"``, which feed
readers discover) and in the footer. A static export, which serves no API, shows none.

A rule's or section's feed is offered only for a number some edition of the ruleset holds
(the feed answers 404 for any other): the page saying there is no rule 9999.9 links no feed
of it, while a rule the newest edition removed keeps its feed, for it has a history.
"""

from __future__ import annotations

from typing import NamedTuple

from flask import request

from kb.errors import QueryError
from web.site import links
from web.site.frame import bp, current_kb, has_page, titles


class FeedLink(NamedTuple):
    title: str
    href: str


@bp.app_template_global()
def feeds_here() -> list[FeedLink]:
    """The change feeds that follow the current page, most specific first."""
    args = request.view_args or {}
    ruleset = args.get("ruleset")
    if not isinstance(ruleset, str) or not has_page("api.ruleset_changes"):
        return []
    out: list[FeedLink] = []
    number = args.get("number")
    if request.endpoint == "site.rule" and isinstance(number, str) \
            and held_somewhere(ruleset, number, args.get("edition")):
        out.append(FeedLink(f"Changes to rule {number}",
                            links.href("api.rule_changes", ruleset=ruleset, number=number)))
        if "." not in number.rstrip("."):  # a chapter or section heads a subtree
            out.append(FeedLink(f"Changes in section {number}",
                                links.href("api.ruleset_changes", ruleset=ruleset, section=number)))
    chapter = request.args.get("chapter")
    if request.endpoint == "site.compare" and chapter and len(chapter) <= 16 \
            and held_somewhere(ruleset, chapter):
        out.append(FeedLink(f"Changes in section {chapter}",
                            links.href("api.ruleset_changes", ruleset=ruleset, section=chapter)))
    out.append(FeedLink("Changes to these rules", links.href("api.ruleset_changes", ruleset=ruleset)))
    return out


def held_somewhere(ruleset: str, number: str, edition: str | None = None) -> bool:
    """Whether some edition of ``ruleset`` holds rule ``number`` (so its feed answers): at
    once when the page's own ``edition`` has it (every rule page that shows its rule), else
    by the rule's history through the editions, which is what the feed itself reads."""
    kb = current_kb()
    if edition is not None:
        try:
            if number in titles(kb, ruleset, edition):
                return True
        except QueryError:  # an edition the ruleset does not have: the other editions may
            pass
    try:
        kb.history(ruleset, number)
    except QueryError:
        return False
    return True
