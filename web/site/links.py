"""Links between pages, written relative to the page that holds them.

Every link in the site's templates goes through :func:`href`, so the same templates serve
the live site and a static copy of it: a relative link works from ``http://host/``, from a
sub-path behind a proxy and from ``file://``. A static exporter maps each page's path to the
file it writes by setting ``app.config["SITE_LINK_MAPPER"]`` to a function
``(path_with_query) -> file path`` (for instance ``/riftbound/1.4/337.4`` →
``/riftbound/1.4/337.4.html``); links are then made relative between mapped paths.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import current_app, request, url_for

LinkMapper = Callable[[str], str]


def _mapped(path: str) -> str:
    mapper: LinkMapper | None = current_app.config.get("SITE_LINK_MAPPER")
    return mapper(path) if mapper else path


def relative(target: str, current: str | None = None) -> str:
    """``target`` (an absolute path, maybe with ``?query`` and ``#fragment``) written
    relative to the page at ``current`` (default: the page being rendered).

    >>> relative("/riftbound/1.4/337.4", "/riftbound/1.4/337.1.a")
    '337.4'
    >>> relative("/", "/riftbound/1.4/337.1.a")
    '../../'
    """
    current = _current_page() if current is None else _page_path(current)
    fragment = ""
    if "#" in target:
        target, fragment = target.split("#", 1)
        fragment = "#" + fragment
    query = ""
    if "?" in target:
        target, query = target.split("?", 1)
        query = "?" + query
    return _path_from(target, current[: current.rfind("/") + 1] or "/") + query + fragment


# Where the page being rendered is kept in its request's WSGI environment: its every link
# asks (an exported frame page holds its scenario's whole frame list), and the request's path
# and the site's link mapper answer the same for the whole request.
_PAGE_KEY = "rulekb.links.page"


def _current_page() -> str:
    """The (mapped) path of the page being rendered, without its query and fragment."""
    environ = request.environ
    page = environ.get(_PAGE_KEY)
    if page is None:
        page = environ[_PAGE_KEY] = _page_path(_mapped(request.full_path.rstrip("?")))
    return page


def _page_path(path: str) -> str:
    """A page's path without its query and fragment (what its links are relative to)."""
    return path.split("#", 1)[0].split("?", 1)[0]


@lru_cache(maxsize=1 << 16)  # a page's links go to the same few thousand paths (an export: 100,000s)
def _path_from(target: str, base: str) -> str:
    """The path ``target`` relative to the folder ``base``."""
    rel = posixpath.relpath(target, base)
    if target.endswith("/") and not rel.endswith("/"):
        rel += "/"
    elif rel == "." and not target.endswith("/"):  # /timing seen from /timing/next: not "."
        rel = "../" + posixpath.basename(target)
    if rel.startswith(("?", "#")) or ":" in rel.split("/", 1)[0]:
        rel = "./" + rel
    return rel


def citation_base() -> str:
    """The site's root relative to the page being rendered, as a citation link's
    ``base_url`` takes it (``..``, ``.``): rule links in a linked article then work under
    any prefix the site is served at, as every other link of the site does."""
    return relative("/").rstrip("/") or "."


def href(endpoint: str, _anchor: str | None = None, **values: Any) -> str:
    """A link to an endpoint of the app, relative to the current page."""
    target = url_for(endpoint, **values)
    target = _mapped(target)
    if _anchor:  # an explicit anchor wins over one the mapper chose (a rule inside a page)
        target = target.split("#", 1)[0] + "#" + _anchor
    return relative(target)


def rule_href(ruleset: str, edition: str, number: str, _anchor: str | None = None) -> str:
    """The canonical page of a rule, relative to the current page."""
    return href("site.rule", ruleset=ruleset, edition=edition, number=number, _anchor=_anchor)


def frame_href(name: str | None, n: int) -> str:
    """The explorer's page of frame ``n`` of a worked scenario."""
    return href("site.explorer", scenario=name, frame=n)
