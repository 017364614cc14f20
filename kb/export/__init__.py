"""The offline judge pack: what a static copy of the rules browser needs besides its pages.

* :mod:`kb.export.search_index`: an edition's search index for the browser (the server's
  BM25F impacts per word, numbers, terms, the words for "did you mean"), read by
  ``web/static/offline-search.js``;
* :mod:`kb.export.layout`: which file each page of the site is written to (rule pages are
  one file per section, with an anchor per rule), so links stay relative;
* :mod:`kb.export.check`: every link and asset of an exported folder resolves to a file.

The pages themselves are rendered by the site's own views (:mod:`web.export`): ``kb`` never
imports Flask.
"""

from __future__ import annotations

from kb.export.check import LinkProblem, check_site
from kb.export.layout import Layout, RulePlace
from kb.export.search_index import INDEX_FORMAT, build_search_index, index_script

__all__ = ["INDEX_FORMAT", "Layout", "LinkProblem", "RulePlace", "build_search_index",
           "check_site", "index_script"]
