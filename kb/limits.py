"""Every budget a request or command may spend, declared once.

Each :class:`Limit` names what it bounds, its value and the status an answer over it gets
(413 when the input itself is too large, 422 when an input of acceptable size asks for too
much work). The code that does the work calls :meth:`Limit.check` *before* doing it, so an
over-budget request is refused with a :class:`LimitExceeded` (a :class:`~kb.errors.QueryError`
in the one error shape, naming the limit and its value) instead of being half-done.

The table is also the documentation: the OpenAPI document and the README list
:data:`LIMITS` as they are here.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from kb.errors import QueryError


class LimitExceeded(QueryError):
    """An input or a piece of work over one of the declared :data:`LIMITS`."""

    def __init__(self, limit: Limit, actual: int | None = None, where: str | None = None):
        what = f"{limit.what} ({actual:,} > {limit.value:,} {limit.unit})" if actual is not None \
            else f"{limit.what} (at most {limit.value:,} {limit.unit})"
        message = f"over the limit {limit.name}: {what}"
        if where:
            message += f" at {where}"
        detail: dict[str, Any] = {"limit": limit.name, "max": limit.value, "unit": limit.unit}
        if actual is not None:
            detail["actual"] = actual
        if where:
            detail["where"] = where
        super().__init__(limit.status, message, detail)
        self.limit = limit


@dataclass(frozen=True)
class Limit:
    """One budget: a dotted name, its value, the unit counted and what it bounds."""

    name: str
    value: int
    unit: str
    what: str
    status: int = 422

    def check(self, actual: int, where: str | None = None) -> None:
        """Raise :class:`LimitExceeded` when ``actual`` is over this limit."""
        if actual > self.value:
            raise LimitExceeded(self, actual, where)

    def exceeded(self, where: str | None = None) -> LimitExceeded:
        """The error for work found over this limit while doing it (count unknown)."""
        return LimitExceeded(self, None, where)


LIMITS: dict[str, Limit] = {}


def declare(name: str, value: int, unit: str, what: str, status: int = 422) -> Limit:
    """Declare a limit (once per name) and return it."""
    if name in LIMITS:
        raise ValueError(f"limit {name} is declared twice")
    limit = LIMITS[name] = Limit(name, value, unit, what, status)
    return limit


# -- inputs of every kind ----------------------------------------------------------------------
REQUEST_BYTES = declare("request.bytes", 2 * 1024 * 1024, "bytes",
                        "size of a request body", status=413)
NESTING_DEPTH = declare("input.nesting", 64, "levels",
                        "nesting depth of a JSON or YAML input", status=422)

# -- citations (kb/cite: rulekb link, /api/v1/citations/*, the site's /cite) ------------------
CITE_INPUT = declare("cite.input", 2_000_000, "bytes",
                     "an article or text to link (UTF-8)", status=413)
# Not a refusal: past it, citations are only counted (as over_limit) and the answer is a 200.
CITE_CITATIONS = declare("cite.citations", 10_000, "citations",
                         "citations found, looked up and listed per article or text; the rest "
                         "are only counted (over_limit)", status=200)
CITE_FRONT_MATTER = declare("cite.front_matter", 64 * 1024, "characters",
                            "an article's YAML front matter", status=413)
# markdown-it-py pays 10-20 µs for each of these characters ([ and ![ open link labels it
# scans for), so 2 MB of them cost up to 36 s; prose costs almost nothing. 30,000 keeps the
# worst article near half a second and is several times what a long article with a link
# in every sentence uses.
CITE_MARKUP = declare("cite.markup", 30_000, "characters",
                      "Markdown punctuation that opens inline markup ([ ] ! * _ ` < & \\ |) in "
                      "one article")
# And 10-65 µs for each line (block rules are tried line by line: tables and nested quotes
# cost most): 10,000 lines keep the worst article near 0.65 s; a long article has 1,000.
CITE_LINES = declare("cite.lines", 10_000, "lines", "lines of one article")

# -- the site's forms (web: /cite, /timing) ------------------------------------------------------
# Parsing an urlencoded form costs about 2.5 µs per %XX escape: 512 KB keep it under half a
# second and hold a 200,000-character article (/cite's limit) of mostly ASCII text.
SITE_FORM = declare("site.form", 512 * 1024, "bytes", "an urlencoded form sent to the site",
                    status=413)
SITE_ARTICLE = declare("site.article", 200_000, "characters", "an article pasted on /cite",
                       status=413)

# -- search (kb/search) ------------------------------------------------------------------------
SEARCH_QUERY_CHARS = declare("search.query", 500, "characters", "a search query", status=400)
SEARCH_ATOMS = declare("search.atoms", 32, "words and phrases", "words and phrases of a search "
                       "query (a plain question of more is searched on its first 32, the rest said "
                       "in understood.cut; a query with operators is refused)", status=400)
SEARCH_LIMIT = declare("search.limit", 100, "hits", "hits asked for in one search page",
                       status=400)
SEARCH_OFFSET = declare("search.offset", 5000, "hits", "hits skipped before a search page",
                        status=400)

# -- the timing model (kb/timing: run, next; the CLI, the API and the site's /timing) ----------
# The worked and test scenarios use at most 31 steps, 6 cards, 4 instructions on a card,
# 52 frames and 81 KB of answer in 55 ms: every value here leaves a wide margin above them.
TIMING_STEPS = declare("timing.steps", 200, "steps", "steps in a timing scenario", status=413)
TIMING_CARDS = declare("timing.cards", 100, "cards", "cards in a scenario's or a state's card pool",
                       status=413)
TIMING_EFFECTS = declare("timing.effects", 20, "instructions",
                         "instructions on one card or item (its effects, legion, triggers and "
                         "abilities, nested ones included)", status=413)
TIMING_ENTRIES = declare("timing.entries", 500, "entries",
                         "entries in any list of a scenario or a state (a chain, a stack, a hand)",
                         status=413)
TIMING_PASTED = declare("timing.pasted", 32 * 1024, "characters",
                        "a scenario or a state pasted on the site's /timing pages", status=413)
# A scenario file is refused by its size before YAML reads it (200,000 steps took 12 s to
# parse before timing.steps refused them); the site's form cap, as the scenarios pasted there.
TIMING_FILE = declare("timing.file", 512 * 1024, "bytes", "a scenario file run by `rulekb timing run`",
                      status=413)
TIMING_FRAMES = declare("timing.frames", 1000, "frames",
                        "frames (transitions taken) in one timing run or next")
TIMING_AUTOMATIC = declare("timing.automatic", 500, "steps",
                           "automatic steps in a row without a decision")
TIMING_ANSWER = declare("timing.answer", 2 * 1024 * 1024, "bytes",
                        "size of one timing answer (its frames, states and options as JSON)")
TIMING_TIME = declare("timing.time", 2000, "ms", "wall time of one timing run or next")


class Deadline:
    """The wall-time budget of one piece of work: :meth:`check` between its steps raises
    :class:`LimitExceeded` once ``limit`` (in ms) has passed since it was made."""

    def __init__(self, limit: Limit):
        if limit.unit != "ms":
            raise ValueError(f"limit {limit.name} is not a time in ms")
        self.limit = limit
        self.ends = time.monotonic() + limit.value / 1000

    def check(self, where: str | None = None) -> None:
        """Raise :class:`LimitExceeded` if the time is up."""
        if time.monotonic() > self.ends:
            raise self.limit.exceeded(where)


_DEADLINE: ContextVar[Deadline | None] = ContextVar("rulekb_deadline", default=None)


@contextmanager
def deadline(limit: Limit) -> Iterator[Deadline]:
    """Run the body under a deadline of ``limit`` ms, seen by :func:`check_deadline` in every
    layer below (context-local: each request thread has its own). A deadline already running
    keeps its end when it is the earlier one."""
    mine = Deadline(limit)
    outer = _DEADLINE.get()
    token = _DEADLINE.set(outer if outer is not None and outer.ends <= mine.ends else mine)
    try:
        yield mine
    finally:
        _DEADLINE.reset(token)


def check_deadline(where: str | None = None) -> None:
    """Raise :class:`LimitExceeded` if the deadline of the work running here has passed
    (nothing happens outside :func:`deadline`)."""
    current = _DEADLINE.get()
    if current is not None:
        current.check(where)


def table() -> list[dict[str, Any]]:
    """Every declared limit, as the API and the docs list them."""
    return [{"name": l.name, "max": l.value, "unit": l.unit, "what": l.what, "status": l.status}
            for l in sorted(LIMITS.values(), key=lambda l: l.name)]


def markdown() -> str:
    """Every declared limit as a Markdown table (the README's "Limits" section, made by cog)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    rows = ["| limit | at most | over it | what it bounds |", "|---|---:|---|---|"]
    rows += [f"| `{r['name']}` | {r['max']:,} {cell(r['unit'])} | {r['status']} | {cell(r['what'])} |"
             for r in table()]
    return "\n".join(rows) + "\n"
