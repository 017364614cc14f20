"""A rule's ``cited_by`` a page at a time: a rule 3,000 rulings cite answered half a
megabyte of JSON, so every face (the API's rule answer and its cited-by route, ``rulekb
rule --json``) lists at most :data:`CITED_BY_PAGE` records by default, with the counts of
all of them and where the next page starts.
"""

from __future__ import annotations

from typing import Any

from kb.errors import QueryError
from kb.records.model import KINDS

CITED_BY_PAGE = 50  # records in a page of a rule's cited_by (the site's "Cited by" lists as many)
CITED_BY_MOST = 500  # records a page may ask for


def cited_by_page(found: dict[str, Any], offset: int = 0, limit: int | None = CITED_BY_PAGE,
                  kind: str | None = None) -> dict[str, Any]:
    """One page of a rule's ``cited_by`` (:func:`kb.records.cited_by`'s answer).

    ``total``, ``rulings`` and ``articles`` count every record citing the rule; ``records``
    are those from ``offset`` on, at most ``limit`` (None: all of them), of one ``kind``
    when given (so 3,000 rulings do not hide the two articles). ``matching`` counts the
    records of that kind (all, without one), ``more`` those after this page, and
    ``next_offset`` is where the next page starts (None on the last). A ``limit`` outside
    1..:data:`CITED_BY_MOST`, a negative ``offset`` or an unknown ``kind`` is a 400; an
    ``offset`` past the last record a 404 naming how many there are.
    """
    if kind is not None and kind not in KINDS:
        raise QueryError(400, f"kind must be one of {', '.join(KINDS)}, not {str(kind)[:40]!r}",
                         {"parameter": "kind", "accepted": list(KINDS)})
    if limit is not None and not 1 <= limit <= CITED_BY_MOST:
        raise QueryError(400, f"limit must be between 1 and {CITED_BY_MOST}, not {limit}",
                         {"parameter": "limit", "value": limit})
    if offset < 0:
        raise QueryError(400, f"offset must be 0 or more, not {offset}", {"parameter": "offset", "value": offset})
    records = found["records"] if kind is None else [r for r in found["records"] if r["kind"] == kind]
    if offset and offset >= len(records):
        what = f"{kind}s" if kind else "records"
        raise QueryError(404, f"offset {offset} is past the last of the {len(records)} {what} citing this rule",
                         {"offset": offset, "matching": len(records)})
    page = records[offset:] if limit is None else records[offset:offset + limit]
    end = offset + len(page)
    return {"total": found["total"], "rulings": found["rulings"], "articles": found["articles"],
            "kind": kind, "matching": len(records), "offset": offset, "limit": limit,
            "records": page, "more": len(records) - end,
            "next_offset": end if end < len(records) else None}
