"""The citation linker: paste an article, see it rendered with its rule citations linked,
footnoted and checked, and the citation report (the same pipeline as ``rulekb link``)."""

from __future__ import annotations

from typing import Any

from flask import request
from markupsafe import Markup

from kb.limits import SITE_ARTICLE, LimitExceeded
from kb.query import KnowledgeBase, QueryError
from web.site.frame import base_context, bp, current_kb, render
from web.site.links import citation_base, rule_href

MAX_ARTICLE = SITE_ARTICLE.value  # characters of a pasted article
STYLES = ("footnotes", "preview")

SAMPLE = """---
ruleset: riftbound
---
# Passing without handing over

Finalizing your spell does not pass priority (rule 337.1.a), so once it is finalized the
controller of the next item gains priority: you (Rule 337.4). The whole loop is
Rules 337–340; see rule 349. Playing Cards for how an item is finalized.

A citation that does not exist is reported, not dropped: rule 999.9.
"""


def linker_page(kb: KnowledgeBase, article: str | None, ruleset: str | None, edition: str | None,
                style: str) -> tuple[dict[str, Any], int]:
    """The form, and for a posted article its rendering and citation report."""
    rulesets = kb.rulesets()
    ctx: dict[str, Any] = {**base_context(kb), "rulesets": rulesets, "article": article if article is not None else SAMPLE,
                           "chosen_ruleset": ruleset or "", "chosen_edition": edition or "", "style": style,
                           "styles": STYLES, "result": None, "error": None,
                           "editions": {r["name"]: [e["edition"] for e in reversed(kb.editions(r["name"]))]
                                        for r in rulesets}}
    if article is None:
        return ctx, 200
    if style not in STYLES:
        raise QueryError(400, f"style must be one of {', '.join(STYLES)}", {"style": style[:20]})
    if len(article) > MAX_ARTICLE:
        ctx["error"] = (f"{LimitExceeded(SITE_ARTICLE, len(article), 'the pasted article').message}; "
                        "use `rulekb link` for longer ones")
        return ctx, 413
    try:
        result = kb.citations_annotate(article, ruleset or None, edition or None, style=style, fmt="html",
                                      base_url=citation_base(), source="pasted article")
    except QueryError as exc:
        if exc.status >= 500:
            raise
        ctx["error"] = exc.message
        return ctx, exc.status
    citations = []
    for c in result["citations"]:
        rs, ed = c.get("ruleset"), c.get("edition")
        citations.append({**c, "link": rule_href(rs, ed, c["number"]) if rs and ed and c.get("number") else None,
                          "nearest_links": [(n, rule_href(result["ruleset"], result["edition"], n))
                                            for n in c.get("nearest") or []]
                          if result.get("ruleset") and result.get("edition") else []})
    # The annotator escapes the article's raw HTML and every rule text (allow_html is off).
    ctx.update({"result": result, "output": Markup(result["output"]), "citations": citations})
    return ctx, 200


@bp.route("/cite", methods=["GET", "POST"])
def linker() -> Any:
    if request.method == "POST":
        f = request.form
        ctx, status = linker_page(current_kb(), f.get("article", ""), f.get("ruleset") or None,
                                  f.get("edition") or None, f.get("style", "footnotes"))
    else:
        ctx, status = linker_page(current_kb(), None, None, None, "footnotes")
    return render("linker.html", ctx, status)
