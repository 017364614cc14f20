"""The site's frame: what every page module stands on, and nothing page-specific.

The blueprint (with the ``ruleset`` path converter and the template globals and filters
every template uses), the request's knowledge base (:func:`current_kb`; in every page
function the object is called ``kb``), :class:`Redirect`, :func:`render`, the context the
page frame needs (:func:`base_context`) and the lookups several pages share (titles, terms,
a definition with its references linked). Page modules (:mod:`~web.site.pages`,
:mod:`~web.site.explorer`, :mod:`~web.site.compare`, :mod:`~web.site.linker`, …) import
this module and never each other's internals; this module imports no page module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from werkzeug.routing import BaseConverter
from werkzeug.wrappers import Response

from kb.derived import derived
from kb.errors import QueryError
from kb.inputs import date_problem
from kb.query import KnowledgeBase
from web.serving import current_kb, harden
from web.site import links, markup
from web.site.links import rule_href

__all__ = ["Redirect", "base_context", "bp", "current_kb", "definition_html", "edition_info",
           "page_number", "render", "ruleset_title", "secure", "term_index", "titles"]

bp = Blueprint("site", __name__)


class RulesetConverter(BaseConverter):
    """A ruleset name in a path: the names ``kb.store`` allows, except the app's own
    top-level folders (so ``/api/...`` and ``/static/...`` never reach the site's views)."""

    regex = r"(?!(?:api|static)(?![a-z0-9._-]))[a-z0-9][a-z0-9._-]{0,63}"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("ruleset", RulesetConverter))

# The hardening headers are the app's, on every answer (web.serving.harden); error pages
# made outside a request's normal flow call it directly.
secure = harden
bp.add_app_template_global(links.href, "href")
bp.add_app_template_global(links.rule_href, "rule_href")
bp.add_app_template_global(links.frame_href, "frame_href")


@bp.before_request
def edition_by_date() -> Response | None:
    """A page's address whose edition is a date (``/mtg/2015-06-01/117.3``) redirects (302)
    to the same page of the edition in force on that date, so no address answers another
    edition's page under its own name; a name that is not a date goes on to the page's 404,
    and a date before every edition is a 404 in the API's words ("no edition of riftbound was
    in force on 1999-01-01"), not "unknown edition '1999-01-01'"."""
    args = request.view_args or {}
    ruleset, edition = args.get("ruleset"), args.get("edition")
    if not isinstance(ruleset, str) or not isinstance(edition, str) or request.endpoint is None:
        return None
    kb = current_kb()
    if ruleset not in kb.ruleset_names():
        return None
    if (in_force := kb.dated_in_force(ruleset, edition)) is None:
        if not date_problem(edition) and all(e["edition"] != edition for e in kb.editions(ruleset)):
            kb.in_force(ruleset, edition)  # raises the 404 a date before every edition is
        return None
    return redirect(url_for(request.endpoint, **{**request.args.to_dict(), **args, "edition": in_force}), 302)


# A message that opens with a query filter's name ("in: needs a value, e.g. in:337") keeps
# it as typed: the filter is written in lower case.
FILTER_OPENING = re.compile(r"[a-z]+:")
SENTENCE_ENDS = (".", "!", "?")


@bp.app_template_filter("sentence")
def as_sentence(message: str) -> str:
    """A message of the knowledge base's (which says what is wrong in lower case, with no
    full stop: ``unbalanced quote: the " at position 0 is never closed``) as the one
    sentence a page shows: a capital first letter (unless it opens with a query filter's
    name, ``in:``) and a full stop. The search page says a query's error this way, alone
    (a lead of its own, "That query cannot be read:", before a message that already says
    what is wrong doubled it), and so does every error page (:mod:`web.site.errors`)."""
    text = message.strip()
    if not text:
        return text
    if text[0].islower() and not FILTER_OPENING.match(text):
        text = text[0].upper() + text[1:]
    return text if text.endswith(SENTENCE_ENDS) else text + "."


@bp.app_template_global()
def has_page(endpoint: str) -> bool:
    """Whether the app serves a page (templates link only to pages that exist). A static
    export lists the pages it writes in ``app.config["SITE_PAGES"]``."""
    pages = current_app.config.get("SITE_PAGES")
    return endpoint in current_app.view_functions and (pages is None or endpoint in pages)


@bp.app_template_filter()
def term_id(key: str) -> str:
    """The anchor of a defined term in the glossary."""
    return markup.term_id(key)


@bp.app_template_filter()
def crumb(ancestor: dict[str, Any], ruleset: str, edition: str) -> tuple[str, str]:
    """A breadcrumb for an ancestor rule: its number (and a heading's title) and its link."""
    label = ancestor["number"]
    if ancestor["kind"] != "rule":
        title = ancestor["title"]
        label += " " + (title if len(title) <= 32 else title[:30] + "…")
    return label, links.rule_href(ruleset, edition, ancestor["number"])


@dataclass
class Redirect(Exception):
    """A page that lives elsewhere: the view answers with a redirect to ``endpoint``."""

    endpoint: str
    values: dict[str, Any]
    code: int = 302


def whole_number(name: str, value: str, most_digits: int = 4, least: int = 0) -> int:
    """``value`` of the parameter ``name`` as a whole number: QueryError 400 for anything
    but at most ``most_digits`` ASCII digits, or under ``least`` (1: a frame, counted from 1,
    is never 0), naming the parameter (``²`` is a digit to :meth:`str.isdigit`, and ``int``
    of it fails). A page past the last is the view's 404; page 0 is one too."""
    if not (value.isascii() and value.isdigit()) or len(value) > most_digits or int(value) < least:
        raise QueryError(400, f"{name} must be a positive whole number", {name: value[:20]})
    return int(value)


def page_number(name: str = "page") -> int:
    """The page (or part) of a paged view asked for in the query string (``?page=``, from
    1; default 1), a :func:`whole_number` of at most four digits. Whether that page exists
    is the page function's to say."""
    return whole_number(name, request.args.get(name, "1"))


def render(template: str, ctx: dict[str, Any] | Redirect, status: int = 200) -> Response | tuple[str, int]:
    """A page function's answer as the view's: the template rendered with its context, or
    the redirect it decided on."""
    if isinstance(ctx, Redirect):
        return redirect(url_for(ctx.endpoint, **ctx.values), ctx.code)
    return render_template(template, **ctx), status


# -- shared lookups (each @derived: made once per build and arguments, see kb.derived) ------
@derived
def titles(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, str]:
    """Number → title or first words, for every rule of an edition."""
    return {s["number"]: s["title"] for s in kb.structure(ruleset, edition)}


@derived
def term_index(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, dict[str, Any]]:
    """Key → summary of every defined term and keyword of an edition."""
    return {t["key"]: t for t in kb.terms(ruleset, edition)}


def ruleset_title(kb: KnowledgeBase, ruleset: str) -> str:
    """The ruleset's title as its manifest gives it (its name when it gives none)."""
    for r in kb.rulesets():
        if r["name"] == ruleset:
            return str(r["title"])
    return ruleset


def edition_info(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, Any]:
    """The edition's summary (date, counts, partial); QueryError 404 for an unknown one."""
    for e in kb.editions(ruleset):
        if e["edition"] == edition:
            return e
    raise QueryError(404, f"unknown edition {edition!r} of {ruleset}",
                     {"editions": [e["edition"] for e in kb.editions(ruleset)]})


def base_context(kb: KnowledgeBase, ruleset: str | None = None, edition: str | None = None) -> dict[str, Any]:
    """What the page frame needs: the ruleset and edition in view (for the header links)."""
    ctx: dict[str, Any] = {"ruleset": ruleset, "edition": edition}
    if ruleset:
        ctx["ruleset_title"] = ruleset_title(kb, ruleset)
        if edition:
            ctx["edition_info"] = edition_info(kb, ruleset, edition)
    return ctx


@derived
def definition_spans(kb: KnowledgeBase, ruleset: str, edition: str, text: str) -> tuple[dict[str, Any], ...]:
    """The rule references in a term's definition (:meth:`KnowledgeBase.mentions`, its terms
    left out), found once per build: a rule page shows the definition of every term it uses,
    the same few hundred definitions on page after page (an export of Magic: 8,000)."""
    return tuple(s for s in kb.mentions(ruleset, text, edition) if s["kind"] != "term")


def definition_html(kb: KnowledgeBase, ruleset: str, edition: str, text: str) -> Any:
    """A term's definition with its rule references linked (terms inside it are not)."""
    names = titles(kb, ruleset, edition)
    return markup.rule_text(text, list(definition_spans(kb, ruleset, edition, text)),
                            lambda n: rule_href(ruleset, edition, n), lambda n: names.get(n, ""))
