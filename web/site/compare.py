"""What changed between two editions: counts per chapter, then the rules side by side with
the words that changed marked, renumberings on one line, and unchanged runs collapsed."""

from __future__ import annotations

from typing import Any

from flask import request
from markupsafe import Markup, escape

from kb.editions.lineage import stored_comparison
from kb.query import KnowledgeBase, QueryError
from web.site.frame import base_context, bp, current_kb, page_number, render, ruleset_title
from web.site.links import rule_href

# Estimated bytes of entries per page (the page frame and counts come on top).
PAGE_BUDGET = 110_000


def word_diff(ops: list[dict[str, str]] | None, old: str | None, new: str | None) -> tuple[Markup, Markup]:
    """The old and the new text with deleted words in ``<del>`` and inserted ones in
    ``<ins>`` (from the diff's word-level operations), both escaped."""
    if not ops:
        return Markup(escape(old or "")), Markup(escape(new or ""))
    left, right = [], []
    for op in ops:
        o, n = str(escape(op.get("old", ""))), str(escape(op.get("new", "")))
        if op["op"] == "equal":
            left.append(o)
            right.append(n)
        else:
            if o:
                left.append(f"<del>{o}</del>")
            if n:
                right.append(f"<ins>{n}</ins>")
    return Markup("".join(left)), Markup("".join(right))


def _runs(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Changes one by one; consecutive unchanged rules as one collapsed run."""
    out: list[dict[str, Any]] = []
    for e in entries:
        if e["status"] == "unchanged":
            if out and out[-1]["kind"] == "run":
                out[-1]["entries"].append(e)
            else:
                out.append({"kind": "run", "entries": [e]})
        else:
            out.append({"kind": "change", "entry": e})
    return out


def _cost(block: dict[str, Any]) -> int:
    if block["kind"] == "run":
        return 200
    e = block["entry"]
    return 400 + 2 * (len(e.get("old_text") or "") + len(e.get("new_text") or ""))


def compare_page(kb: KnowledgeBase, ruleset: str, old: str, new: str, chapter: str | None = None,
                 page: int = 1) -> dict[str, Any]:
    """Counts per chapter and one page of the rule-by-rule diff (optionally one chapter)."""
    names = [e["edition"] for e in kb.editions(ruleset)]
    for ed in (old, new):
        if ed not in names:
            raise QueryError(404, f"unknown edition {ed!r} of {ruleset}", {"editions": names})
    if old == new:
        raise QueryError(400, "pick two different editions to compare", {"editions": names})
    # a step between neighbouring editions reads what the build stored for it (no graph
    # loaded, no word diff made); two editions further apart, or a knowledge base held in
    # memory, are diffed
    stored = stored_comparison(kb, ruleset, old, new, chapter) \
        if names.index(new) == names.index(old) + 1 else None
    d = stored if stored is not None else kb.diff(ruleset, old, new, chapter=chapter, unchanged=True)
    overview = d if chapter is None or stored is not None else kb.diff(ruleset, old, new, limit=0)
    blocks = _runs(d["entries"])
    pages: list[list[dict[str, Any]]] = [[]]
    size = 0
    for b in blocks:
        c = _cost(b)
        if pages[-1] and size + c > PAGE_BUDGET:
            pages.append([])
            size = 0
        pages[-1].append(b)
        size += c
    if not 1 <= page <= len(pages):
        raise QueryError(404, f"this comparison has {len(pages)} page(s), not {page}", {"pages": len(pages)})
    shown = []
    for b in pages[page - 1]:
        if b["kind"] == "run":
            first, last = b["entries"][0], b["entries"][-1]
            shown.append({"kind": "run", "count": len(b["entries"]),
                          "first": first["new_number"], "last": last["new_number"],
                          "first_url": rule_href(ruleset, new, first["new_number"]),
                          "last_url": rule_href(ruleset, new, last["new_number"])})
            continue
        e = b["entry"]
        left, right = word_diff(e.get("ops"), e.get("old_text"), e.get("new_text"))
        shown.append({"kind": "change", **e, "left": left, "right": right,
                      "old_url": rule_href(ruleset, old, e["old_number"]) if e.get("old_number") else None,
                      "new_url": rule_href(ruleset, new, e["new_number"]) if e.get("new_number") else None,
                      "renumber_only": e["status"] == "moved" and not e.get("reworded")})
    return {**base_context(kb, ruleset, new), "old": old, "new": new, "names": names,
            "summary": overview["summary"], "chapters": overview["chapters"], "chapter": chapter,
            "from_info": d["from"], "to_info": d["to"], "blocks": shown, "page": page,
            "pages": len(pages), "total": len(d["entries"]), "ruleset_name": ruleset_title(kb, ruleset)}


@bp.get("/<ruleset:ruleset>/compare/<old>/<new>")
def compare(ruleset: str, old: str, new: str) -> Any:
    page = page_number()
    chapter = request.args.get("chapter") or None
    if chapter is not None and (len(chapter) > 16 or not chapter.replace(".", "").isalnum()):
        raise QueryError(400, "chapter must be a chapter number", {"chapter": chapter[:20]})
    return render("compare.html", compare_page(current_kb(), ruleset, old, new, chapter, page))
