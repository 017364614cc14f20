"""The user's card list, as search reads it (``rulekb cards import``; :mod:`kb.search.cards`).

Read-only: a card list is imported on the command line into the data directory; the API
says which cards a ruleset's search knows, so a judge can tell why a question's card was or
was not recognised.
"""

from __future__ import annotations

from flask import Response

from kb.query import QueryError
from kb.files import home_of_build
from kb.search.cards import load_cards
from web.api.base import answer, bp, current_kb
from web.openapi import NAME_PATTERN, SCHEMAS, STR, Param, array, endpoint, nullable, obj

RULESET_Q = Param("ruleset", {"type": "string", "pattern": NAME_PATTERN},
                  "Ruleset whose cards to list (default: riftbound, or the only one).",
                  example="riftbound")
LIMIT = Param("limit", {"type": "integer", "minimum": 1, "maximum": 500, "default": 100},
              "Cards per page.", example=100)
OFFSET = Param("offset", {"type": "integer", "minimum": 0, "maximum": 50000, "default": 0},
               "Cards to skip (paging).", example=0)

SCHEMAS["Cards"] = obj({
    "ruleset": STR,
    "source": nullable({"type": "string", "description": "The file the list was imported from."}),
    "imported": nullable({"type": "string", "description": "When (UTC), or null: no list."}),
    "total": {"type": "integer", "minimum": 0, "description": "Cards in the list, all pages."},
    "offset": {"type": "integer", "minimum": 0},
    "cards": array(obj({"name": STR, "type": STR, "keywords": array(STR), "text": STR})),
}, description="The imported card list of a ruleset (none is shipped: an empty list until one "
               "is imported with `rulekb cards import`).")


@endpoint(bp, "GET", "/v1/cards", tag="search", response="Cards", params=(RULESET_Q, LIMIT, OFFSET),
          errors=(404,), summary="The imported card list search reads",
          examples=("/api/v1/cards", "/api/v1/cards?ruleset=mtg&limit=10"))
def cards(ruleset: str | None, limit: int, offset: int) -> Response:
    """The cards imported for a ruleset (name, type, keywords, text), in the file's order. A
    card named in a search question brings in its type, keywords and its text's game terms;
    no card data is shipped, so without an import the list is empty. 404 for a ruleset that is
    not built."""
    kb = current_kb()
    built = kb.ruleset_names()
    name = ruleset or kb.default_ruleset()
    if name not in built:
        raise QueryError(404, f"no ruleset {name!r} is built; the rulesets are {', '.join(built)}",
                         {"ruleset": name, "rulesets": built})
    found = load_cards(home_of_build(kb.build_dir), name)
    listed = list(found.cards) if found else []
    return answer({"ruleset": name, "source": found.source if found else None,
                   "imported": found.imported if found else None, "total": len(listed),
                   "offset": offset, "cards": [c.as_dict() for c in listed[offset:offset + limit]]},
                  name)
