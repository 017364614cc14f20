"""Rule citations in articles: find them, resolve them against an edition, link them.

One stage per module, after eyecite: :mod:`kb.cite.find` (citations with offsets),
:mod:`kb.cite.resolve` (a status per citation), :mod:`kb.cite.annotate` (links, footnotes,
previews), :mod:`kb.cite.mdit` (the markdown-it-py plugin); :mod:`kb.cite.target` chooses
the edition, :mod:`kb.cite.link` answers the facade's questions.

>>> [c.text for c in find_citations("As rule 337.1a says, and [CR 116.1].")]
['rule 337.1a', 'CR 116.1']
"""

from kb.cite.annotate import annotate
from kb.cite.find import Citation, find_citations
from kb.cite.mdit import rule_citations
from kb.cite.resolve import Resolution, resolve_citations

__all__ = ["Citation", "Resolution", "annotate", "find_citations", "resolve_citations",
           "rule_citations"]
