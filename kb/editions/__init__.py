"""Editions side by side: the one mapping between editions, diffs and rule history.

- :mod:`kb.editions.mapping`: :func:`map_editions` pairs every rule of one edition with its
  counterpart in another (or none), with a confidence; :class:`EditionMapping` can be
  inverted and composed.
- :mod:`kb.editions.diff`: :func:`diff_editions` lists every rule of both editions as added,
  removed, changed, moved or unchanged, with word-level changes and counts per chapter.
- :mod:`kb.editions.queries`: what the facade answers (``KnowledgeBase.diff``, ``history``,
  ``map_number``, ``edition_mapping``); mappings between editions further apart than one
  step are composed through the editions in between and bridged where that chain loses a
  rule (:func:`~kb.editions.mapping.bridge`), and everything is derived once per build (:mod:`kb.derived`).
- :mod:`kb.editions.evaluate`: precision and recall of a mapping on a labelled sample.

Anything that carries rule numbers between editions (the citation linker, the timing
model's citations) should ask :func:`kb.editions.queries.edition_mapping` or
:func:`~kb.editions.queries.map_number` (given the loaded editions), so that every part of
the product agrees on where a rule went.
"""

from kb.editions.diff import diff_editions, word_ops
from kb.editions.mapping import Counterpart, EditionMapping, map_editions

__all__ = ["Counterpart", "EditionMapping", "diff_editions", "map_editions", "word_ops"]
