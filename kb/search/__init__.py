"""Search of the knowledge base (whoosh): one index per edition, built with the knowledge base.

* :mod:`kb.search.schema`: what is indexed for a rule, and how words are analysed;
* :mod:`kb.search.index`: building an edition's index (registered in ``kb.store``) and opening it;
* :mod:`kb.search.query`: reading what a judge typed, with clear errors;
* :mod:`kb.search.searcher`: running it (pinned numbers and terms, BM25F, corrections);
* :mod:`kb.search.excerpt`, :mod:`kb.search.spelling`: highlighting and "did you mean";
* :mod:`kb.search.understand`, :mod:`kb.search.cards`: reading a judge's question, with the
  user's card list when one is imported.
"""

from __future__ import annotations

from pathlib import Path

from kb.files import home_of_build
from kb.graph import RuleGraph
from kb.search.index import build_index, index_dir, memory_index, open_index
from kb.search.query import ParsedQuery, QuerySyntaxError, SearchError, parse_query
from kb.search.searcher import DEFAULT_RANKING, EditionSearcher, Ranking

__all__ = ["EditionSearcher", "ParsedQuery", "QuerySyntaxError", "Ranking", "SearchError",
           "build_index", "open_searcher", "parse_query"]


def open_searcher(rg: RuleGraph, build_dir: Path | None = None,
                  ranking: Ranking = DEFAULT_RANKING) -> EditionSearcher:
    """A searcher over one edition: the index of the build when there is one, else an index
    built in memory from the graph (a knowledge base made from graphs, or a build made before
    the index existed)."""
    opened = None
    if build_dir is not None:
        opened = open_index(index_dir(build_dir, rg.edition.ruleset, rg.edition.name))
    ix, vocabulary = opened or memory_index(rg)
    # The user's card list lives in the data home the build belongs to (kb.search.cards).
    return EditionSearcher(rg, ix, vocabulary, ranking, cards_home=home_of_build(build_dir))
