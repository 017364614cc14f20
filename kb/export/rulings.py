"""The earlier rulings as the offline search's evidence source, in an edition's browser index.

The server's search brings in the rules an earlier ruling cites when a question asks that
ruling's question (:func:`kb.records.search.ruling_evidence`): BM25 (``bm25s``) over the
rulings' questions and answers. The offline pack had no rulings, so a question such as
``priority`` matched one rule fewer offline (the sample ruling's 340.2). This module writes
what that evidence needs and nothing it can compute in the browser: each ruling of the
ruleset with the BM25 score every one of its terms adds (the index's own numbers, read from
it term by term, so the browser's sum is the server's), its own question's score, the rules
it cites as numbered in the edition exported, and the reason a hit says.
``web/static/offline-search.js`` (``rulingEvidence``) scores a question against them as
``_scored_rulings`` does and ranks the rules up as ``EditionSearcher._evidence`` does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kb.records.citing import current_records
from kb.records.search import ruling_cites, ruling_citations, ruling_index, ruling_reason

if TYPE_CHECKING:
    from kb.loaded import LoadedEditions

# The placeholder term of a ruling with no words (kb.records.search.ruling_index) and bm25s's
# empty token: no query term is either.
_NO_TERMS = ("\0", "")  # also bm25s's empty token, which no query term is


def ruling_evidence_index(kb: LoadedEditions, ruleset: str, edition: str) -> list[dict[str, Any]] | None:
    """Every ruling of ``ruleset`` in the data home's records, in the ruling index's order,
    each as ``{"terms": {stem: score}, "own": its own question's score, "cited": [numbers of
    edition], "reason": "cited by ruling …"}``; None when the ruleset has no ruling (the
    server's evidence source then brings nothing in, and the index carries nothing).

    A ruling that can bring no rule in (written for no edition built, no own score, no rule
    of ``edition`` cited) is kept with its terms: it still takes a place among the best
    rulings the server scores (``SEARCH_LIMIT``)."""
    records = current_records(kb)
    if not any(r.ruleset == ruleset for r in records.of_kind("ruling")):
        return None
    import numpy as np  # as the ruling index (bm25s) imports it: only where there are rulings
    index = ruling_index(kb, records)
    retriever = index.retriever
    mine = [i for i, r in enumerate(index.rulings) if r.ruleset == ruleset]
    terms: list[dict[str, float]] = [{} for _ in mine]
    for term in retriever.vocab_dict:
        if term in _NO_TERMS:
            continue
        scores = retriever.get_scores([term])[mine]
        for row in np.flatnonzero(scores > 0):  # the rulings holding the term
            terms[row][term] = float(scores[row])  # a float32's exact value
    citations = ruling_citations(kb, records, ruleset)
    out = []
    for row, i in enumerate(mine):
        ruling = index.rulings[i]
        out.append({"terms": terms[row], "own": index.own.get(ruling.id, 0.0),
                    "cited": ruling_cites(kb, citations.get(ruling.id), ruleset, edition),
                    "reason": ruling_reason(ruling)})
    return out
