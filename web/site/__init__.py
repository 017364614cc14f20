"""The rules browser: server-rendered pages over the knowledge base facade.

Every page is a function of data: a ``*_page`` function in the modules below asks the
:class:`~kb.query.KnowledgeBase` its questions and returns the template's context, and the
view renders it. A static exporter can call the same functions inside
``app.test_request_context(path)`` and write the result to files (see :mod:`web.site.links`
for how links stay relative). Pages read fully without JavaScript; ``static/site.js`` only
adds tooltips, copy buttons and keyboard stepping.

Modules: :mod:`~web.site.pages` (home, contents, rule, glossary, search),
:mod:`~web.site.explorer` (timing explorer), :mod:`~web.site.linker` (citation linker),
:mod:`~web.site.compare` (diffs between editions), :mod:`~web.site.errors` (HTML error
pages), :mod:`~web.site.markup` and :mod:`~web.site.svg` (pure renderers).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app
from werkzeug.routing import BaseConverter

from web import CSP, harden  # noqa: F401  (CSP re-exported)
from web.site import links, markup

bp = Blueprint("site", __name__)


class RulesetConverter(BaseConverter):
    """A ruleset name in a path: the names ``kb.store`` allows, except the app's own
    top-level folders (so ``/api/...`` and ``/static/...`` never reach the site's views)."""

    regex = r"(?!(?:api|static)(?![a-z0-9._-]))[a-z0-9][a-z0-9._-]{0,63}"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("ruleset", RulesetConverter))

# The hardening headers are the app's, on every answer (web.harden); error pages made
# outside a request's normal flow call it directly.
secure = harden
bp.add_app_template_global(links.href, "href")
bp.add_app_template_global(links.rule_href, "rule_href")


@bp.app_template_global()
def has_page(endpoint: str) -> bool:
    """Whether the app serves a page (templates link only to pages that exist). A static
    export lists the pages it writes in ``app.config["SITE_PAGES"]``."""
    pages = current_app.config.get("SITE_PAGES")
    return endpoint in current_app.view_functions and (pages is None or endpoint in pages)


@bp.app_template_filter()
def term_id(key: str) -> str:
    return markup.term_id(key)


@bp.app_template_filter()
def crumb(ancestor: dict[str, Any], ruleset: str, edition: str) -> tuple[str, str]:
    """A breadcrumb for an ancestor rule: its number (and a heading's title) and its link."""
    label = ancestor["number"]
    if ancestor["kind"] != "rule":
        title = ancestor["title"]
        label += " " + (title if len(title) <= 32 else title[:30] + "…")
    return label, links.rule_href(ruleset, edition, ancestor["number"])


from web.site import compare, errors, explorer, feeds, linker, pages  # noqa: E402,F401  (routes)

__all__ = ["bp", "compare", "errors", "explorer", "feeds", "linker", "pages"]
