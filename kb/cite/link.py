"""The two questions the facade answers about citations, as plain dicts (the response
shapes of ``POST /api/v1/citations/lookup`` and ``/annotate``, and of ``rulekb link``).

Input is capped (:data:`MAX_INPUT_BYTES`, ``cite.input``), and so is the number of
citations found, looked up and listed (:data:`MAX_CITATIONS`, ``cite.citations``, like
CourtListener's 429 per citation: the rest are only counted, as ``over_limit``), an
article's front matter (``cite.front_matter``), its lines (``cite.lines``) and its inline
markup (``cite.markup``):
time and answer size stay bounded on hostile input. Links start with a checked
``base_url`` (:func:`~kb.cite.annotate.check_base_url`).
"""

from __future__ import annotations

import operator
import re
from collections import Counter
from typing import Any, Literal

from markdown_it import MarkdownIt

from kb.cite.annotate import STYLES, Style, annotate_markdown, check_base_url, rule_url
from kb.cite.find import count_phrases, find_citations
from kb.cite.mdit import ENV_KEY, MAX_CITATIONS, OPTIONS_KEY, PLACE_NOW_KEY, over_limit_message, rule_citations
from kb.cite.resolve import BROKEN, as_dict, resolve_citations
from kb.cite.target import link_target, named_editions, parse_front_matter, resolve_for_target
from kb.derived import derived
from kb.errors import QueryError
from kb.inputs import check_text
from kb.limits import CITE_FRONT_MATTER, CITE_INPUT, CITE_LINES, CITE_MARKUP
from kb.loaded import LoadedEditions

MAX_INPUT_BYTES = CITE_INPUT.value
# What markdown-it-py pays for (see kb.limits.CITE_MARKUP).
_MARKUP = "[]!*_`<&\\|"
_MARKUP_BYTES = _MARKUP.encode("ascii")
# Front matter: a first line of three or more dashes, to the next such line (or the end:
# the plugin closes it there), as mdit_py_plugins.front_matter reads it.
_FRONT_MATTER_OPEN = re.compile(r"-{3,}[ \t]*(?:\n|$)")
_FRONT_MATTER_CLOSE = re.compile(r"^-{3,}[ \t]*$", re.M)
FORMATS: tuple[str, ...] = ("html", "markdown", "json")
_STATUS = operator.itemgetter("status")
Format = Literal["html", "markdown", "json"]


def _check_input(text: Any, what: str) -> bytes:
    """``text`` in UTF-8, once it is known to be a string within ``cite.input`` without a
    lone surrogate (each refused with a QueryError naming ``what``). Encoding is the one
    pass over the text the three need: a surrogate is what the encoder refuses (and
    :func:`~kb.inputs.check_text` then names it with its place)."""
    if not isinstance(text, str):
        raise QueryError(400, f"{what} must be a string", {"type": type(text).__name__})
    try:
        encoded = text.encode("utf-8")
    except UnicodeEncodeError:
        check_text(text, what)  # refuses every surrogate code point, the encoder's only refusal
        raise
    CITE_INPUT.check(len(encoded), what)
    return encoded


def lookup(kb: LoadedEditions, text: str, ruleset: str | None = None, edition: str | None = None,
           base_url: str = "", limit: int = MAX_CITATIONS) -> dict[str, Any]:
    """Every citation in a plain text: offsets, matched text, canonical number, status, URL.

    A text that opens with front matter (an article pasted whole) is read as an article
    is: its pins, its warnings, citations only after it (offsets still into ``text``);
    without a pin, the edition it was written for is inferred from its citations."""
    _check_input(text, "text")
    check_base_url(base_url)
    pins, front_diags, body = _lookup_front_matter(kb, text)
    target = link_target(kb, ruleset, edition, pins)
    scan = text if not body else " " * body + text[body:]  # the same offsets
    citations = find_citations(scan, limit=max(0, limit))
    more = count_phrases(scan, citations[-1].end if citations else 0) if len(citations) >= limit else 0
    target, resolutions, named_diags = resolve_for_target(
        kb, target, citations, pins.get("date"), resolve_citations,
        lambda candidates: named_editions(kb, candidates(), scan, citations))
    out = []
    for res in resolutions:
        first = res.rules[0] if res.linked else None
        url = rule_url(first.ruleset, first.edition, first.number, base_url) if first else None
        out.append(as_dict(res, url))
    diagnostics = [d.as_dict() for d in (*front_diags, *target.diagnostics, *named_diags)]
    if more:
        diagnostics.append({"message": over_limit_message(limit, more), "file": "", "line": 0,
                            "severity": "warning", "rule": ""})
    return {**target.describe(), "citations": out, "summary": summary(out, more),
            "diagnostics": diagnostics, "limits": {"bytes": MAX_INPUT_BYTES, "citations": limit}}


def ruleset_named_in(kb: LoadedEditions, text: str) -> str | None:
    """The ruleset ``text``'s first citation names by its own prefix, as the linker reads it
    (:func:`kb.cite.target.named_editions`: ``CR 702.19b`` is Magic's); None when it names none
    or only one ruleset is loaded."""
    names = kb.ruleset_names()
    if len(names) < 2:
        return None
    citations = find_citations(text, limit=1)
    if not citations:
        return None
    named = named_editions(kb, [kb.edition(n) for n in names], text, citations)[0]
    return named.edition.ruleset if named is not None else None


def _lookup_front_matter(kb: LoadedEditions, text: str) -> tuple[dict[str, str], list[Any], int]:
    """The pins and warnings of a plain text's front matter, and where its body starts (0:
    no front matter, which needs a closing line here, as a pasted article has)."""
    opening = _FRONT_MATTER_OPEN.match(text)
    if opening is None:
        return {}, [], 0
    closing = _FRONT_MATTER_CLOSE.search(text, opening.end())
    if closing is None:
        return {}, [], 0
    _check_front_matter(text, "")
    pins, diags = parse_front_matter(text[opening.end():closing.start()], "", kb)
    return pins, diags, closing.end()


def link_article(kb: LoadedEditions, markdown: str, ruleset: str | None = None,
                 edition: str | None = None, style: Style = "footnotes", fmt: Format = "html",
                 allow_html: bool = False, base_url: str = "", source: str = "",
                 limit: int = MAX_CITATIONS) -> dict[str, Any]:
    """An article rendered with its citations linked, and its citation report.

    ``fmt`` html renders the article (raw HTML in it escaped unless ``allow_html``);
    markdown returns the article's own Markdown with links and footnote definitions added;
    json returns the report only.
    """
    if fmt not in FORMATS:
        raise QueryError(400, f"unknown format {fmt!r}", {"formats": list(FORMATS)})
    html, report = read_article(kb, markdown, ruleset, edition, style, allow_html, base_url, source, limit)
    citations = list(report["citations"])  # the entries, made when read (mdit.PlacedEntries)
    output: str | None = None
    if fmt == "html":
        output = html.lstrip("\n")  # markdown-it starts a line after hidden front matter
    elif fmt == "markdown":
        output = _markdown_output(markdown, report, style, base_url)
    return {**report["target"], "format": fmt, "style": style, "output": output,
            "front_matter": report["front_matter"], "citations": citations,
            "footnotes": list(report["footnotes"]),  # made when read (mdit.FootnoteEntries)
            "summary": summary(citations, report["over_limit"]),
            "diagnostics": report["diagnostics"],
            "limits": {"bytes": MAX_INPUT_BYTES, "citations": limit}}


def read_article(kb: LoadedEditions, markdown: str, ruleset: str | None = None,
                 edition: str | None = None, style: Style = "footnotes", allow_html: bool = False,
                 base_url: str = "", source: str = "", limit: int = MAX_CITATIONS
                 ) -> tuple[str, dict[str, Any]]:
    """An article read as the linker reads it (its budgets checked first): the HTML and the
    plugin's report (``kb.cite.mdit``: citations, resolutions placed in the source, target,
    front matter, diagnostics). What :func:`link_article` and the stored records share."""
    encoded = _check_input(markdown, source or "markdown")  # the file, else the field
    check_base_url(base_url)
    _check_front_matter(markdown, source)
    # An article of fewer bytes than a limit allows lines or markup characters is within it:
    # counting them is a pass over its bytes each (2 % of rendering 100 KB), paid only above.
    if len(encoded) >= CITE_LINES.value:
        CITE_LINES.check(encoded.count(b"\n") + 1, f"{source or 'article'}")
    if len(encoded) > CITE_MARKUP.value:
        CITE_MARKUP.check(_markup_count(encoded), f"{source or 'article'}")
    if style not in STYLES:
        raise QueryError(400, f"unknown style {style!r}", {"styles": list(STYLES)})
    env: dict[str, Any] = {OPTIONS_KEY: {"ruleset": ruleset, "edition": edition, "style": style,
                                         "base_url": base_url, "limit": limit, "source": source},
                           PLACE_NOW_KEY: True}  # both callers read every entry
    html = _parser(kb, bool(allow_html), "|" in markdown).render(markdown, env)
    return html, env[ENV_KEY]


def _markup_count(encoded: bytes) -> int:
    """How many characters of :data:`_MARKUP` an article holds, from its UTF-8 ``encoded``
    (all ASCII: the bytes one ``bytes.translate`` drops, a pass over the text instead of a
    ``str.count`` for each).

    >>> _markup_count("*rule* [337](x) – `a`".encode())
    6
    """
    return len(encoded) - len(encoded.translate(None, _MARKUP_BYTES))


def _check_front_matter(markdown: str, source: str) -> None:
    """Refuse front matter over ``cite.front_matter`` before Markdown reads it line by line
    (the plugin checks the exact block again; this is the same rule at regex speed)."""
    opening = _FRONT_MATTER_OPEN.match(markdown)
    if opening is None:
        return
    closing = _FRONT_MATTER_CLOSE.search(markdown, opening.end())
    size = (closing.start() if closing else len(markdown)) - opening.end()
    if size > CITE_FRONT_MATTER.value:
        CITE_FRONT_MATTER.check(size, f"{source or 'the article'}'s front matter")


@derived
def _parser(kb: LoadedEditions, allow_html: bool, tables: bool = True) -> MarkdownIt:
    """The article parser, built once per build (building one costs as much as rendering a
    few kilobytes); what differs per article comes in ``env[OPTIONS_KEY]``. Rendering keeps
    its state in ``env``, so threads may share it.

    ``tables``: with GFM tables. An article without a ``|`` is read without them, the same
    parse: a table's header row holds one, so the table rule, tried at every line of every
    paragraph, returns False for each line of such an article (1.3 % of rendering it)."""
    md = MarkdownIt("commonmark", {"html": allow_html})
    if tables:
        md.enable("table")
    md.use(rule_citations, kb=kb)
    # Compile the rule chains now: a ruler fills its cache in place on first use,
    # which another thread must not see half done.
    for ruler in (md.core.ruler, md.block.ruler, md.inline.ruler, md.inline.ruler2):
        ruler.getRules("")
    return md


def _markdown_output(markdown: str, report: dict[str, Any], style: Style, base_url: str) -> str:
    """Link the report's citations in place in the article's own Markdown."""
    placed = [(start, end, res) for start, end, res in report["resolutions"]
              if start is not None and end is not None and res.linked]
    target = report["target"]
    home = (target["ruleset"], target["edition"]) if target["ruleset"] is not None else None
    return annotate_markdown(markdown, placed, style=style, base_url=base_url, home=home)


def summary(citations: list[dict[str, Any]], over_limit: int = 0) -> dict[str, Any]:
    """Counts per status, and how many citations are broken; ``over_limit`` citations past
    the limit were only counted (they are not listed)."""
    counts = Counter(map(_STATUS, citations))  # no generator step per citation
    counts["over_limit"] += over_limit
    return {"total": len(citations) + over_limit, "broken": sum(counts[s] for s in BROKEN),
            **{s: counts.get(s, 0) for s in ("ok", "not_found", "ambiguous", "renumbered",
                                              "quote_mismatch", "over_limit")}}
