"""Reading pages: home, table of contents, rule pages, glossary and search.

Each ``*_page`` function takes the knowledge base and the page's parameters and returns the
template context (plain data and :class:`~markupsafe.Markup`); the views only pick the
template. Redirects and errors are decided here too, as :class:`Redirect` and
:class:`~kb.query.QueryError`, so an exporter gets the same answers as the server.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, current_app, redirect, request, send_from_directory, url_for
from markupsafe import Markup, escape

from kb.derived import derived
from kb.numbers import try_parse_lookup_number, try_parse_number
from kb.query import KnowledgeBase, QueryError, numbers_asked
from kb.timing.examples import example_of
from web.site import markup, svg
from web.site.frame import (Redirect, base_context, bp, current_kb, definition_html, edition_info,
                            page_number, render, ruleset_title, term_index, titles)
from web.site.frame import as_sentence as as_sentence  # the search page's errors; kept here by name
from web.site.links import frame_href, href, rule_href

# Estimated bytes of HTML for the rules and terms of one part of a long rule page (a
# chapter, a big section); measured so that the largest page of every edition, frame and
# side panel included, stays under 100 KB.
PART_BUDGET = 40_000
HARD_LIMIT = 1.6
# Characters of a term's definition shown in its tooltip (the glossary has it whole).
DEFINITION_LIMIT = 300
# A table of contents lists rules one level below the sections when there are at most
# this many of them in the edition (otherwise chapters and sections only).
TOC_DEPTH2_LIMIT = 700
TOC_LABEL = 44  # characters of a rule's first words in the contents
# Glossaries longer than this (characters of definitions) are split into a page per letter.
GLOSSARY_BUDGET = 50_000
# A rule's history on its page: consecutive editions with these statuses are one row.
RUN_STATUSES = ("unchanged", "absent")
# Unchanged words kept on each side of a change in a rule's history (the rest elided).
HISTORY_CONTEXT = 12


# -- home ------------------------------------------------------------------------------
def home_page(kb: KnowledgeBase) -> dict[str, Any]:
    rulesets = [{**r, "editions": list(reversed(kb.editions(r["name"]))),
                 "default": kb.default_edition(r["name"])["edition"]} for r in kb.rulesets()]
    return {**base_context(kb), "rulesets": rulesets, "default_ruleset": kb.default_ruleset()}


@bp.get("/")
def home() -> Any:
    return render("home.html", home_page(current_kb()))


# What a crawler may read: every page (they are all public, read-only rules text).
ROBOTS = "User-agent: *\nAllow: /\n"


@bp.get("/favicon.ico")
def favicon() -> Any:
    """The site's icon where browsers and feed readers look for it without a ``<link>``
    (it redirected to ``/favicon.ico/`` and a 404, as a ruleset's name would)."""
    return send_from_directory(current_app.static_folder or "static", "favicon.svg",
                               mimetype="image/svg+xml", max_age=86400)


@bp.get("/robots.txt")
def robots() -> Any:
    """Every page may be crawled."""
    return Response(ROBOTS, mimetype="text/plain", headers={"Cache-Control": "public, max-age=86400"})


# -- table of contents -----------------------------------------------------------------
def contents_page(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, Any]:
    """Chapters, sections and (where the edition is small enough) the rules below them,
    as a tree for ``<details>`` elements."""
    rows = kb.structure(ruleset, edition)
    max_depth = 2 if sum(1 for r in rows if r["depth"] == 2) <= TOC_DEPTH2_LIMIT else 1
    nodes: dict[str, dict[str, Any]] = {}
    roots: list[dict[str, Any]] = []
    for r in rows:
        if r["depth"] > max_depth:
            continue
        title = r["title"]
        if r["kind"] == "rule" and len(title) > TOC_LABEL:
            title = title[:TOC_LABEL].rsplit(" ", 1)[0] + " …"
        node = {**r, "title": title, "items": []}
        nodes[r["number"]] = node
        parent = nodes.get(r["parent"]) if r["parent"] else None
        (parent["items"] if parent else roots).append(node)
    return {**base_context(kb, ruleset, edition), "tree": roots, "max_depth": max_depth}


@bp.get("/<ruleset:ruleset>/")
def ruleset_home(ruleset: str) -> Any:
    kb = current_kb()
    newest = kb.default_edition(ruleset)["edition"]  # the newest full edition
    return redirect(url_for("site.contents", ruleset=ruleset, edition=newest), 302)


@bp.get("/<ruleset:ruleset>/<edition>/")
def contents(ruleset: str, edition: str) -> Any:
    kb = current_kb()
    names = [e["edition"] for e in kb.editions(ruleset)]
    if edition not in names and try_parse_number(edition):
        return redirect(url_for("site.newest_rule", ruleset=ruleset, number=edition), 302)
    return render("contents.html", contents_page(kb, ruleset, edition))


@bp.get("/<ruleset:ruleset>/<number>")
def newest_rule(ruleset: str, number: str) -> Any:
    """``/riftbound/337.1a``: the rule in the default edition (the newest full one);
    ``/riftbound/1.4``: that edition's contents; ``/riftbound/glossary``: the default
    edition's glossary."""
    kb = current_kb()
    names = [e["edition"] for e in kb.editions(ruleset)]
    if number in names:
        return redirect(url_for("site.contents", ruleset=ruleset, edition=number), 308)
    rg = kb.edition(ruleset)
    if number == "glossary":  # typed as the newest rule's address is: not a rule number
        return redirect(url_for("site.glossary", ruleset=ruleset, edition=rg.edition.name), 302)
    if number == "contents":
        return redirect(url_for("site.contents", ruleset=ruleset, edition=rg.edition.name), 302)
    canonical = kb.locate_rule(rg, number)
    return redirect(url_for("site.rule", ruleset=ruleset, edition=rg.edition.name, number=canonical), 302)


# -- rule pages ------------------------------------------------------------------------
def split_parts(items: list[dict[str, Any]], cost: Callable[[dict[str, Any], set[str]], tuple[int, set[str]]],
                budget: int = PART_BUDGET) -> list[list[dict[str, Any]]]:
    """Cut a rule and its subrules into parts of about ``budget`` bytes of HTML, at the
    start of a direct child where possible (inside one child only when that child alone is
    longer than ``HARD_LIMIT`` times the budget). ``cost(item, terms already on the part)`` estimates an
    item's HTML and the terms it adds to the part's term list."""
    parts: list[list[dict[str, Any]]] = [[]]
    size, seen = 0, set()
    top = items[0]["depth"] + 1 if items else 0
    for item in items:
        c, new = cost(item, seen)
        if parts[-1] and ((size + c > budget and item["depth"] <= top) or size + c > HARD_LIMIT * budget):
            parts.append([])
            size, seen = 0, set()
            c, new = cost(item, seen)
        parts[-1].append(item)
        size += c
        seen |= new
    return parts


@derived
def _spans_of_edition(kb: KnowledgeBase, ruleset: str, edition: str) -> dict[str, list[list[dict[str, Any]]]]:
    """Rule number → the spans of its text and examples, filled as pages ask (:func:`rule_spans`)."""
    return {}


def rule_spans(kb: KnowledgeBase, ruleset: str, edition: str, item: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The spans of a rule's text and of each example (kept for the life of the build)."""
    cache = _spans_of_edition(kb, ruleset, edition)
    found = cache.get(item["number"])
    if found is None:
        found = [kb.mentions(ruleset, t, edition, number=item["number"]) if t else []
                 for t in [item["text"], *item["examples"]]]
        cache[item["number"]] = found
    return found


def short_definition(text: str, limit: int = DEFINITION_LIMIT) -> str:
    """A definition cut at a word boundary for the tooltips (the glossary has it whole)."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0] + " …"


def rule_history(kb: KnowledgeBase, ruleset: str, edition: str, number: str) -> list[dict[str, Any]] | None:
    """The rule in every edition (number, status, wording with the words that changed since
    the edition before), newest first; None when the editions cannot be compared."""
    if len(kb.editions(ruleset)) < 2:
        return None
    try:
        found = kb.history(ruleset, number, edition)
    except QueryError:
        return None
    out = []
    for h in found["editions"]:
        text = (markup.inline_diff(h["ops"], HISTORY_CONTEXT) if h.get("ops")
                else escape(h.get("text") or h.get("title") or ""))
        out.append({**h, "text_html": Markup(text), "current": h["edition"] == edition,
                    "url": rule_href(ruleset, h["edition"], h["number"]) if h.get("number") else None})
    return list(reversed(out))


def compact_history(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A rule's history (:func:`rule_history`, newest first) as its page shows it: every
    edition where the rule came, went, moved or changed its wording, and the edition read,
    each as it is; each run of editions between them with the same wording (``unchanged``),
    or not yet in the rules (``absent``), as one row (``{"run": status, "first": oldest,
    "last": newest, "count": n}``). With 71 Magic editions the page printed 601.2's wording
    72 times (127 KB); the history page lists every edition."""
    rows: list[dict[str, Any]] = []
    run: list[dict[str, Any]] = []

    def close_run() -> None:
        if run:
            rows.append({"run": run[0]["status"], "first": run[-1]["edition"], "last": run[0]["edition"],
                         "count": len(run)})
            run.clear()

    for h in history:
        status = h.get("status")
        if status in RUN_STATUSES and not h["current"]:
            if run and run[0]["status"] != status:
                close_run()
            run.append(h)
            continue
        close_run()
        rows.append({**h, "run": None})
    close_run()
    return rows


def rule_parts(kb: KnowledgeBase, ruleset: str, edition: str,
               r: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The parts of a rule's page: ``r`` (``kb.rule(..., subrules=True)``) and its subrules
    cut by :func:`split_parts` (a static exporter maps each rule to the part showing it)."""
    terms = term_index(kb, ruleset, edition)

    def cost(item: dict[str, Any], seen: set[str]) -> tuple[int, set[str]]:
        spans = [s for group in rule_spans(kb, ruleset, edition, item) for s in group]
        new = {s["key"] for s in spans if s["kind"] == "term" and not s["defines"]} - seen
        size = (len(item["text"]) + sum(len(e) for e in item["examples"]) + 160
                + sum(140 if s["kind"] == "term" else 90 for s in spans)
                + sum(min(len(terms[t]["definition"]), DEFINITION_LIMIT) + 260 for t in new if t in terms))
        return size, new

    return split_parts([r, *r["subrules"]], cost)


def rule_page(kb: KnowledgeBase, ruleset: str, edition: str, number: str,
              part: int = 1) -> dict[str, Any] | Redirect:
    """A rule with its subrules (one part of them for long headings), links, terms,
    neighbours, the transitions that implement it and its other editions."""
    rg = kb.edition(ruleset, edition)
    if try_parse_lookup_number(number) is None and numbers_asked(rg, number):
        # A range or list typed as a rule's address (/riftbound/1.4/337-340): its rules, listed.
        return Redirect("site.search", {"q": number, "ruleset": ruleset, "edition": edition}, 302)
    # A prefix naming another ruleset (/riftbound/1.4/CR 117.3d), or a number only another
    # ruleset holds, is said as the API and the CLI say it, with a link to the rule there.
    kb.check_prefix(rg.edition.ruleset, number)
    try:
        canonical = kb.locate_rule(rg, number)
    except QueryError as exc:
        raise kb.with_other_rulesets(exc, rg.edition.ruleset, number) from exc
    if canonical != number:
        values = {"ruleset": ruleset, "edition": edition, "number": canonical}
        if part != 1:
            values["part"] = part
        return Redirect("site.rule", values, 308)
    r = kb.rule(ruleset, canonical, edition, subrules=True)
    terms = term_index(kb, ruleset, edition)
    parts = rule_parts(kb, ruleset, edition, r)
    if not 1 <= part <= len(parts):
        raise QueryError(404, f"rule {canonical} has {len(parts)} part(s), not {part}",
                         {"parts": len(parts)})
    shown = parts[part - 1]
    on_page = {i["number"] for i in shown}
    names = titles(kb, ruleset, edition)

    def link(n: str) -> str:
        return "#" + n if n in on_page else rule_href(ruleset, edition, n)

    used_terms: dict[str, dict[str, Any]] = {}
    blocks = []
    for item in shown:
        pieces = []
        for text, spans in zip([item["text"], *item["examples"]], rule_spans(kb, ruleset, edition, item)):
            for s in spans:
                if s["kind"] == "term" and not s["defines"] and s["key"] in terms:
                    used_terms.setdefault(s["key"], terms[s["key"]])
            pieces.append(markup.rule_text(text, spans, link, lambda n: names.get(n, "")))
        blocks.append({"number": item["number"], "kind": item["kind"], "title": item["title"]
                       if item["kind"] != "rule" else "", "depth": item["depth"] - r["depth"],
                       "text": pieces[0] if item["text"] else None, "examples": pieces[1:],
                       "url": rule_href(ruleset, edition, item["number"])})
    transitions = []
    for t in r["transitions"]:
        seen = example_of(kb, ruleset, t["name"])
        transitions.append({**t, "example": seen.summary if seen else None,
                            "url": frame_href(seen.scenario, seen.frame) if seen else None})
    hood = kb.neighbourhood(ruleset, canonical, 1, edition)
    picture = svg.neighbourhood(hood, lambda n: rule_href(ruleset, edition, n),
                                more_url=href("site.rule", ruleset=ruleset, edition=edition,
                                              number=canonical))
    eds = kb.editions(ruleset)
    history = rule_history(kb, ruleset, edition, canonical)
    mapped = {h["edition"]: h["number"] for h in history} if history else {}
    other = [{"edition": e["edition"], "date": e["date"], "current": e["edition"] == edition,
              "number": mapped.get(e["edition"]) if history
              else (canonical if canonical in titles(kb, ruleset, e["edition"]) else None)}
             for e in reversed(eds)]
    info = edition_info(kb, ruleset, edition)
    # the default edition (the newest full one: kb.loaded.preferring_full), which the page's
    # notice names, linking to the rule's counterpart there
    default = kb.default_edition(ruleset)["edition"]
    there = next((e["number"] for e in other if e["edition"] == default), None)
    rs_title = ruleset_title(kb, ruleset)
    heading = f"{canonical}. {r['title']}" if r["kind"] != "rule" else f"Rule {canonical}"
    return {
        **base_context(kb, ruleset, edition),
        "rule": r, "heading": heading, "blocks": blocks, "part": part, "parts": len(parts),
        "part_starts": [p[0]["number"] for p in parts],
        "terms": [{**t, "definition_html": definition_html(kb, ruleset, edition, short_definition(t["definition"])),
                   "glossary": glossary_href(kb, ruleset, edition, t)}
                  for t in sorted(used_terms.values(), key=lambda t: t["key"])],
        "picture": picture, "other_editions": other, "transitions": transitions,
        "history": compact_history(history) if history else None,
        "history_url": href("site.rule_history_page", ruleset=ruleset, edition=edition, number=canonical)
        if history else None,
        "citation": f"{rs_title} {edition} ({info['date']}), rule {canonical}" if info.get("date")
        else f"{rs_title} {edition}, rule {canonical}",
        "newest": default, "newest_url": rule_href(ruleset, default, there) if there else None,
    }


@bp.get("/<ruleset:ruleset>/<edition>/<number>")
def rule(ruleset: str, edition: str, number: str) -> Any:
    if number == "contents":  # the page's name typed as a rule's address is
        return redirect(url_for("site.contents", ruleset=ruleset, edition=edition), 302)
    return render("rule.html", rule_page(current_kb(), ruleset, edition, number, page_number("part")))


def history_page(kb: KnowledgeBase, ruleset: str, edition: str, number: str) -> dict[str, Any] | Redirect:
    """A rule in every edition of its ruleset, newest first: number, status and, where the
    wording changed, the words that changed (the rule page shows this compacted)."""
    rg = kb.edition(ruleset, edition)
    canonical = kb.locate_rule(rg, number)
    if canonical != number:
        return Redirect("site.rule_history_page", {"ruleset": ruleset, "edition": edition, "number": canonical}, 308)
    history = rule_history(kb, ruleset, edition, canonical)
    if history is None:
        raise QueryError(404, f"rule {canonical} of {ruleset} has no history: one edition is built, or "
                              "its editions cannot be compared", {"number": canonical})
    return {**base_context(kb, ruleset, edition), "number": canonical, "history": history,
            "changed": sum(1 for h in history if h.get("status") != "unchanged"),
            "rule_url": rule_href(ruleset, edition, canonical)}


@bp.get("/<ruleset:ruleset>/<edition>/<number>/history")
def rule_history_page(ruleset: str, edition: str, number: str) -> Any:
    return render("history.html", history_page(current_kb(), ruleset, edition, number))


# -- glossary --------------------------------------------------------------------------
@derived
def glossary_split(kb: KnowledgeBase, ruleset: str, edition: str) -> bool:
    """Whether the edition's glossary is one page per letter."""
    return sum(len(t["definition"]) for t in term_index(kb, ruleset, edition).values()) > GLOSSARY_BUDGET


def glossary_href(kb: KnowledgeBase, ruleset: str, edition: str, term: dict[str, Any]) -> str:
    """Where a term is defined in the glossary pages."""
    anchor = markup.term_id(term["key"])
    if glossary_split(kb, ruleset, edition):
        return href("site.glossary_letter", ruleset=ruleset, edition=edition,
                    letter=_letter(term["term"]), _anchor=anchor)
    return href("site.glossary", ruleset=ruleset, edition=edition, _anchor=anchor)


def _letter(name: str) -> str:
    c = name[:1].upper()
    return c if c.isalpha() else "#"


def _see(kb: KnowledgeBase, ruleset: str, edition: str, term: dict[str, Any],
         terms: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """For an entry that only sends the reader to another ("Deal: See Damage."), that entry's
    name and place in the glossary (``see_term``, ``see_href``); nothing for any other."""
    target = terms.get(term.get("see", ""))
    if target is None:
        return {}
    return {"see_term": target["term"], "see_href": glossary_href(kb, ruleset, edition, target)}


def glossary_page(kb: KnowledgeBase, ruleset: str, edition: str, letter: str | None = None) -> dict[str, Any]:
    """Defined terms and keywords with their definitions and defining rules; one page per
    initial letter when the whole list would be too long for one page."""
    terms = kb.terms(ruleset, edition)
    letters: dict[str, list[dict[str, Any]]] = {}
    for t in sorted(terms, key=lambda t: t["key"]):
        letters.setdefault(_letter(t["term"]), []).append(t)
    split = glossary_split(kb, ruleset, edition)
    if letter is not None:
        letter = letter.upper()
        if letter not in letters:
            raise QueryError(404, f"no term of {ruleset} {edition} starts with {letter!r}",
                             {"letters": list(letters)})
        shown = {letter: letters[letter]}
    else:
        shown = {} if split else letters
    ed_terms = term_index(kb, ruleset, edition)
    rendered = {key: [{**t, "definition_html": definition_html(kb, ruleset, edition, t["definition"]),
                       **_see(kb, ruleset, edition, t, ed_terms)}
                      for t in group] for key, group in shown.items()}
    return {**base_context(kb, ruleset, edition), "letters": list(letters), "shown": rendered,
            "split": split, "letter": letter, "count": len(terms),
            "kinds": sorted({t["kind"] for t in ed_terms.values()})}


@bp.get("/contents")
@bp.get("/glossary")
def default_ruleset_page() -> Any:
    """``/contents`` and ``/glossary``, typed as the pages' names: the default ruleset's
    newest edition's contents or glossary (they were 'unknown ruleset' before)."""
    kb = current_kb()
    ruleset = kb.default_ruleset()
    newest = kb.default_edition(ruleset)["edition"]
    page = "site.glossary" if request.path.endswith("glossary") else "site.contents"
    return redirect(url_for(page, ruleset=ruleset, edition=newest), 302)


@bp.get("/<ruleset:ruleset>/<edition>/glossary")
def glossary(ruleset: str, edition: str) -> Any:
    return render("glossary.html", glossary_page(current_kb(), ruleset, edition))


@bp.get("/<ruleset:ruleset>/<edition>/glossary/<letter>")
def glossary_letter(ruleset: str, edition: str, letter: str) -> Any:
    if len(letter) != 1:
        raise QueryError(404, "a glossary page is named by one letter", {"letter": letter[:20]})
    return render("glossary.html", glossary_page(current_kb(), ruleset, edition, letter))


# -- search ----------------------------------------------------------------------------
PAGE_SIZE = 20
MAX_PAGE = 50  # deep pages are never what a judge wants; the query should be refined
def search_page(kb: KnowledgeBase, q: str, ruleset: str | None, edition: str | None,
                page: int = 1, section: str | None = None) -> tuple[dict[str, Any] | Redirect, int]:
    """Results of a query with their breadcrumbs and highlighted excerpts, "did you mean",
    the defined term it names, and paging. A query that is a rule number jumps to the rule.
    Returns the context and the status (400 with the message for a malformed query)."""
    rulesets = kb.rulesets()
    asked_ruleset, asked_edition = ruleset, edition
    ruleset = ruleset or kb.default_ruleset()
    editions = [e["edition"] for e in kb.editions(ruleset)]
    edition = edition or kb.default_edition(ruleset)["edition"]  # the newest full edition
    if edition not in editions:
        raise QueryError(404, f"unknown edition {edition!r} of {ruleset}", {"editions": editions})
    ctx: dict[str, Any] = {**base_context(kb, ruleset, edition), "q": q, "section": section or "",
                           "rulesets": rulesets, "editions": editions, "page": page,
                           "result": None, "error": None, "results": [], "pages": 0}
    if not q:  # nothing typed: the search form; spaces only are said to hold nothing to search for
        return ctx, 200
    if not 1 <= page <= MAX_PAGE:
        raise QueryError(400, f"page must be between 1 and {MAX_PAGE}", {"page": page})
    try:
        # the ruleset and edition as asked (none: the query's own prefix may name one, CR 702.19b)
        result = kb.search(q, asked_ruleset, asked_edition, limit=PAGE_SIZE, offset=(page - 1) * PAGE_SIZE,
                           section=section or None)
    except QueryError as exc:
        if exc.status != 400:
            raise
        ctx["error"] = exc.message
        return ctx, 400
    if result.get("jump") and page == 1 and try_parse_lookup_number(q):
        return Redirect("site.rule", {"ruleset": result["ruleset"], "edition": result["edition"],
                                      "number": result["jump"]}), 302
    rs, ed = result["ruleset"], result["edition"]
    ctx.update(base_context(kb, rs, ed))
    ctx["editions"] = [e["edition"] for e in kb.editions(rs)]
    # nothing here: the other rulesets that match, each a link to the search there
    ctx["others"] = [{**o, "url": href("site.search", q=q, ruleset=o["ruleset"])}
                     for o in result.get("other_rulesets") or []]
    # A rule number this edition lacks, in any form the rule lookup reads (9999.9, rule 9999,
    # 337.1.z): the nearest numbers and, when another edition has it (an older article's),
    # where that rule went; the facade's answer, as the API and CLI say it.
    ctx["missing"] = result.get("no_such_rule")
    ctx["elsewhere"] = (ctx["missing"] or {}).get("elsewhere")
    results = [{**hit, "excerpt_html": markup.highlight(hit.get("excerpt") or ""),
                "url": rule_href(rs, ed, hit["number"])} for hit in result["results"]]
    term = result.get("term")
    if term:
        term = {**term, "definition_html": definition_html(kb, rs, ed, term["definition"])}
    total = result["total"]
    ctx.update({"result": result, "results": results, "term": term, "total": total,
                "pages": min(MAX_PAGE, (total + PAGE_SIZE - 1) // PAGE_SIZE),
                "first": (page - 1) * PAGE_SIZE + 1 if results else 0,
                "last": (page - 1) * PAGE_SIZE + len(results)})
    return ctx, 200


@bp.get("/search")
def search() -> Any:
    args = request.args
    page = page_number()
    ctx, status = search_page(current_kb(), args.get("q", "")[:5000], args.get("ruleset") or None,
                              args.get("edition") or None, page, args.get("in") or None)
    return render("search.html", ctx, status)
