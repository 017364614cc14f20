"""The rules browser: server-rendered pages over the knowledge base facade.

Every page is a function of data: a ``*_page`` function in the modules below asks the
:class:`~kb.query.KnowledgeBase` its questions and returns the template's context, and the
view renders it. A static exporter can call the same functions inside
``app.test_request_context(path)`` and write the result to files (see :mod:`web.site.links`
for how links stay relative). Pages read fully without JavaScript; ``static/site.js`` only
adds tooltips, copy buttons and keyboard stepping.

One floor below the pages: :mod:`~web.site.frame` (the blueprint, the request's knowledge
base, ``render``, the frame's context and the lookups pages share), with the pure renderers
:mod:`~web.site.links`, :mod:`~web.site.markup`, :mod:`~web.site.svg` and
:mod:`~web.site.checks`. The page modules stand beside each other on it and never import
one another: :mod:`~web.site.pages` (home, contents, rule, glossary, search),
:mod:`~web.site.explorer` (timing explorer), :mod:`~web.site.linker` (citation linker),
:mod:`~web.site.compare` (diffs between editions), :mod:`~web.site.errors` (HTML error
pages), :mod:`~web.site.records` (rulings and articles, the rule page's "Cited by"). A new
page is a new module importing the frame, added to the list below.
"""

from __future__ import annotations

from web.site import compare, errors, explorer, feeds, linker, pages, records  # noqa: F401  (their routes)
from web.site.frame import bp

__all__ = ["bp", "compare", "errors", "explorer", "feeds", "linker", "pages", "records"]
