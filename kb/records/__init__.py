"""Rulings and articles as first-class records: stored, cited-by, checked for staleness.

- :mod:`kb.records.model`: what a ruling and an article are, and how their files read
  (every problem a diagnostic naming the file and the field);
- :mod:`kb.records.store`: ``<home>/records/{rulings,articles}/``, imported by copy with
  atomic writes, loaded again only when a file changed;
- :mod:`kb.records.citing`: each record's citations in the edition it was written for,
  the cited-by index of any edition (through the edition mapping) and each citation's
  status against the newest edition (ok, renumbered, reworded, removed);
- :mod:`kb.records.paging`: a rule's ``cited_by`` a page at a time, with the counts of all;
- :mod:`kb.records.search`: rulings searched by their question and answer (BM25);
- :mod:`kb.records.feed`: the stale records as an Atom feed.

Everything derived is computed per build and record set (its content digest is the key),
with :func:`kb.derived.derived`; nothing derived is stored.
"""

from typing import Any

from kb.records.citing import (STALE, attach_records, cited_by, current_records, record_report,
                               records_report)
from kb.records.model import Record
from kb.records.paging import CITED_BY_MOST, CITED_BY_PAGE, cited_by_page
from kb.records.store import RecordSet, import_records, load_folder, load_records

__all__ = ["CITED_BY_MOST", "CITED_BY_PAGE", "STALE", "Record", "RecordSet", "attach_records", "cited_by",
           "cited_by_page", "current_records",
           "import_records", "load_folder", "load_records", "record_report", "records_report",
           "ruling_hits", "search_rulings"]


def __getattr__(name: str) -> Any:
    """The rulings' search (bm25s, and numpy with it) imported when first asked for: a rule
    lookup lists the records citing it and never searches them (`rulekb rule` starts faster)."""
    if name in ("ruling_hits", "search_rulings"):
        from kb.records import search

        return getattr(search, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
