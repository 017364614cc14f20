"""Which change feeds (``/api/v1/.../changes.atom``) follow the page being rendered.

Every page of a ruleset offers its ruleset's feed; a rule's page offers the rule's own feed
(and, for a section or chapter, the section's); a comparison limited to a chapter offers
that chapter's. ``base.html`` puts them in the head (``rel="alternate"``, which feed
readers discover) and in the footer. A static export, which serves no API, shows none.
"""

from __future__ import annotations

from typing import NamedTuple

from flask import request

from web.site import links
from web.site.frame import bp, has_page


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
    if request.endpoint == "site.rule" and isinstance(number, str):
        out.append(FeedLink(f"Changes to rule {number}",
                            links.href("api.rule_changes", ruleset=ruleset, number=number)))
        if "." not in number.rstrip("."):  # a chapter or section heads a subtree
            out.append(FeedLink(f"Changes in section {number}",
                                links.href("api.ruleset_changes", ruleset=ruleset, section=number)))
    chapter = request.args.get("chapter")
    if request.endpoint == "site.compare" and chapter and len(chapter) <= 16:
        out.append(FeedLink(f"Changes in section {chapter}",
                            links.href("api.ruleset_changes", ruleset=ruleset, section=chapter)))
    out.append(FeedLink("Changes to these rules", links.href("api.ruleset_changes", ruleset=ruleset)))
    return out
