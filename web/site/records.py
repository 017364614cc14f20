"""Rulings and articles on the site: the list (with a ruling search), one record's page with
a banner naming every rule a newer edition changed under it, the "Cited by" block of a
rule page, the rulings block of the search page and the stale-rulings feed's link.

Page functions return the template's context (as every page module does); the blocks that
other pages show are template globals (``cited_by_block``, ``rulings_for``), so those pages
only include a template and pass what they already have.
"""

from __future__ import annotations

from typing import Any

from flask import request
from markupsafe import Markup

from kb.errors import QueryError
from kb.query import KnowledgeBase
from kb.records import (CITED_BY_PAGE, STALE, cited_by, current_records, record_report, records_report,
                        search_rulings)
from kb.records.feed import change_sentence
from kb.records.model import Kind
from web.site import markup
from web.site.frame import base_context, bp, current_kb, has_page, page_number, render
from web.site.links import citation_base, href, rule_href

RULINGS_SHOWN = 5  # rulings on the search page (the rulings page has more)
# records listed in a rule page's "Cited by" (the counts are of all): a rule thousands of
# rulings cite made a page of half a megabyte; as many as a page of the API's cited_by
CITED_BY_SHOWN = CITED_BY_PAGE
# records to a page of the rulings and articles lists (3,000 rulings made one page of 530 KB)
RECORDS_PER_PAGE = 200


def record_href(kind: Kind, ident: str) -> str:
    """The page of a ruling or an article."""
    return href(f"site.{kind}", ident=ident)


def record_page(kb: KnowledgeBase, kind: Kind, ident: str) -> dict[str, Any]:
    """One record: its text, source, the edition it was written for and each citation with
    its status today (with its ruleset where its prefix named another than the record's);
    ``banner`` lists the rules a newer edition changed (empty: none)."""
    report = record_report(kb, kind, ident)
    citations = []
    for c in report["citations"]:
        # a citation whose prefix named another ruleset (CR 116.1 in a Riftbound ruling)
        # links to that ruleset's rules, and the page names it (c["named"])
        target = c["now"] or c["number"]
        edition = c["newest"] if c["now"] else c["written_for"]
        citations.append({**c, "diff_html": markup.inline_diff(c["ops"]) if c["ops"] else None,
                          "sentence": change_sentence(c) if c["status"] in STALE else c["message"],
                          "then_url": rule_href(c["ruleset"], c["written_for"], c["number"])
                          if c["number"] else None,
                          "now_url": rule_href(c["ruleset"], edition, target) if target else None})
    banner = [c for c in citations if c["status"] in STALE]
    body = None
    stored = current_records(kb).get(kind, ident) if kind == "article" else None
    if stored is not None:  # the article itself, linked as `rulekb link` links it (text escaped)
        body = Markup(kb.citations_annotate(stored.text, style="footnotes", fmt="html",
                                            base_url=citation_base())["output"])
    return {**base_context(kb, report["ruleset"], report["newest"]), "record": report,
            "kind": kind, "citations": citations, "banner": banner, "body": body,
            "broken": [c for c in citations if c["status"] == "not_found"]}


@bp.get("/rulings/<ident>")
def ruling(ident: str) -> Any:
    return render("record.html", record_page(current_kb(), "ruling", ident))


@bp.get("/articles/<ident>")
def article(ident: str) -> Any:
    return render("record.html", record_page(current_kb(), "article", ident))


def records_page(kb: KnowledgeBase, kind: Kind, q: str = "", ruleset: str | None = None,
                 stale: bool = False, page: int = 1) -> dict[str, Any]:
    """Every record of a kind with its state today, :data:`RECORDS_PER_PAGE` to a page
    (``page``, from 1), or (rulings, with ``q``) the rulings a question finds, best first."""
    if ruleset is not None:
        kb.editions(ruleset)
    listing = records_report(kb, kind, ruleset, stale_only=stale)
    pages = max(1, -(-listing["total"] // RECORDS_PER_PAGE))
    if not 1 <= page <= pages:
        raise QueryError(404, f"this list has {pages} page(s), not {page}", {"pages": pages})
    start = (page - 1) * RECORDS_PER_PAGE
    listing = {**listing, "records": listing["records"][start:start + RECORDS_PER_PAGE]}
    found = search_rulings(kb, q, ruleset, limit=20) if q and kind == "ruling" else None
    rulesets = [r["name"] for r in kb.rulesets()]
    return {**base_context(kb), "kind": kind, "listing": listing, "q": q, "found": found,
            "stale_only": stale, "filter_ruleset": ruleset, "rulesets": rulesets,
            "page": page, "pages": pages, "first": start + 1,
            "feed_url": href("api.stale_rulings_feed", **({"ruleset": ruleset} if ruleset else {}))
            if kind == "ruling" else None}


@bp.get("/rulings/")
def rulings() -> Any:
    q = request.args.get("q", "").strip()  # over search.query: the ruling search says so (400)
    ruleset = request.args.get("ruleset") or None
    return render("records.html", records_page(current_kb(), "ruling", q, ruleset,
                                               request.args.get("stale") == "1", page_number()))


@bp.get("/articles/")
def articles() -> Any:
    ruleset = request.args.get("ruleset") or None
    return render("records.html", records_page(current_kb(), "article", "", ruleset,
                                               request.args.get("stale") == "1", page_number()))


@bp.app_template_global()
def cited_by_block(ruleset: str, edition: str, number: str) -> dict[str, Any]:
    """What a rule page's "Cited by" block shows: the counts, the first
    :data:`CITED_BY_SHOWN` records with their links (at least half of them articles when
    that many cite the rule), how many more there are and where they are all listed (the
    API's cited-by operation, a page at a time, when the API is served)."""
    found = cited_by(current_kb(), ruleset, edition, number)
    rulings = [r for r in found["records"] if r["kind"] == "ruling"]
    articles = [r for r in found["records"] if r["kind"] == "article"]
    # neither kind crowds the other out: 3,000 rulings listed first hid the 2 articles
    articles = articles[:max(CITED_BY_SHOWN - len(rulings), CITED_BY_SHOWN // 2)]
    chosen = {id(r) for r in rulings[:CITED_BY_SHOWN - len(articles)] + articles}
    shown = [r for r in found["records"] if id(r) in chosen]
    more = len(found["records"]) - len(shown)
    return {**found, "records": [{**r, "url": record_href(r["kind"], r["id"])} for r in shown], "more": more,
            "all_url": href("api.cited_by", ruleset=ruleset, number=number, edition=edition)
            if more and has_page("api.cited_by") else None}


@bp.app_template_global()
def rulings_for(q: str, ruleset: str | None) -> list[dict[str, Any]]:
    """The search page's rulings block: the few rulings a question finds (none for a query
    the ruling search cannot read: the rule search says what is wrong with it)."""
    if not q or not q.strip():
        return []
    try:
        found = search_rulings(current_kb(), q, ruleset, limit=RULINGS_SHOWN)
    except QueryError:
        return []
    return [{**h, "url": record_href("ruling", h["ruling"]["id"]),
             "rule_urls": [(n, rule_href(h["rules"]["ruleset"], h["rules"]["edition"], n))
                           for n in h["rules"]["numbers"]]} for h in found["hits"]]
