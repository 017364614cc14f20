"""A markdown-it-py plugin that links rule citations::

    md = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4", style="footnotes")
    html = md.render(article, env := {})
    env["rule_citations"]["citations"]   # each citation with its status and place

A core rule after ``inline`` (modelled on ``rules_core/linkify.py``) finds citations in
text tokens, skipping code spans, code blocks, existing links and HTML ``<a>`` elements,
resolves them all at once (so the article's ruleset can be told from its citations), and
splits the text tokens into link tokens. In the ``footnotes`` style each cited rule gets
a numbered footnote with its full text and a link "Open in the rules browser"; in the
``preview`` style links carry the rule's text as a hover preview. Front matter
(``ruleset:``, ``edition:``) names the edition the article was written for.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, isLinkClose, isLinkOpen
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from kb.cite.annotate import STYLES, Footnotes, Style, citation_attrs
from kb.cite.find import Citation, find_citations
from kb.cite.resolve import Resolution, as_dict, resolve_citations
from kb.cite.target import LinkTarget, link_target, parse_front_matter
from kb.model import Diagnostic

if TYPE_CHECKING:
    from kb.query import KnowledgeBase

ENV_KEY = "rule_citations"
MAX_CITATIONS = 10_000
# Text that may hold a citation: its keywords, case as the grammar accepts them.
_CANDIDATE = re.compile(r"[Rr]ule|RULE|CR")


@dataclass(slots=True)
class _Run:
    """Consecutive text and soft-break tokens of one inline token, outside links."""

    inline: Token
    first: int
    last: int  # exclusive
    text: str
    citations: list[Citation]


def rule_citations(md: MarkdownIt, *, kb: KnowledgeBase, ruleset: str | None = None,
                   edition: str | None = None, style: Style = "footnotes", base_url: str = "",
                   limit: int = MAX_CITATIONS, prefix: str = "rule-fn", source: str = "") -> None:
    """Link rule citations; see the module docstring.

    :param kb: the knowledge base the citations are resolved in.
    :param ruleset: link against this ruleset (default: the front matter's, else decided
        per citation among the newest edition of each ruleset).
    :param edition: link against this edition (default: the front matter's, else the newest).
    :param style: ``footnotes`` (numbered footnotes with each rule's text) or ``preview``.
    :param base_url: prefix of the rules browser's URLs.
    :param limit: citations looked up per document; the rest are reported ``over_limit``.
    :param prefix: prefix of footnote element ids.
    :param source: the file name used in diagnostics.
    """
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
    if "front_matter" not in md.block.ruler.get_all_rules():
        md.use(front_matter_plugin)
    options = {"kb": kb, "ruleset": ruleset, "edition": edition, "style": style,
               "base_url": base_url, "limit": limit, "prefix": prefix, "source": source}
    core_rules = md.core.ruler.get_all_rules()
    anchor = "text_join" if "text_join" in core_rules else "inline"
    md.core.ruler.after(anchor, "rule_citations", lambda state: _link(state, options))
    md.add_render_rule("rule_citations", _render_run)
    md.add_render_rule("rule_footnotes", _render_footnotes)


# -- the core rule ---------------------------------------------------------------------
def _link(state: StateCore, options: dict[str, Any]) -> None:
    env = state.env
    # "resolutions" gives each citation's span in the source (None when it cannot be
    # placed exactly) with its Resolution, for callers that rewrite the source.
    report: dict[str, Any] = {"citations": [], "footnotes": [], "diagnostics": [],
                              "resolutions": []}
    env[ENV_KEY] = report
    source = options["source"]
    pins: dict[str, str] = {}
    diags: list[Diagnostic] = []
    if state.tokens and state.tokens[0].type == "front_matter":
        pins, diags = parse_front_matter(state.tokens[0].content, source)
    report["front_matter"] = pins
    runs = [run for token in state.tokens if token.type == "inline" and token.children
            and _CANDIDATE.search(token.content) for run in _runs(token)]
    citations = [c for run in runs for c in run.citations]
    target: LinkTarget = link_target(options["kb"], options["ruleset"], options["edition"], pins, source)
    diags.extend(target.diagnostics)
    resolutions = resolve_citations(citations, target.editions, written_for=target.written_for,
                                    mapper=target.mapper, limit=options["limit"])
    if len(citations) > options["limit"]:
        diags.append(Diagnostic(f"{len(citations)} citations; only the first {options['limit']} "
                                "were looked up (the rest are over_limit)", source, 0, "warning"))
    places = _Locator(state.src)
    notes = Footnotes(options["base_url"], options["prefix"])
    by_run: list[list[Resolution]] = []
    i = 0
    for run in runs:
        by_run.append(resolutions[i: i + len(run.citations)])
        i += len(run.citations)
    for run, res_list in zip(runs, by_run):
        for res in res_list:
            line, col, offset, end = places.find(run.inline, res.citation.text)
            entry = as_dict(res, _href(res, options["base_url"]))
            # Offsets into the Markdown source (None when escapes or entities hide the text).
            entry.update({"start": offset, "end": end, "line": line, "column": col})
            if "quote" in entry:  # its offsets are into the token's text, not the source
                entry["quote"] = {k: entry["quote"][k] for k in ("text", "similarity")}
            entry["footnotes"] = []
            report["citations"].append(entry)
            report["resolutions"].append((offset, end, res))
    # Rewrite the tokens (each run's tokens are replaced in place, last run first).
    notes_for: list[list[list[tuple[Any, int]]]] = []
    for res_list in by_run:
        per = []
        for res in res_list:
            refs = [notes.cite(r) for r in res.rules] if (res.linked and options["style"] == "footnotes") else []
            per.append(refs)
        notes_for.append(per)
    k = 0
    for run, res_list, per in zip(runs, by_run, notes_for):
        for res, refs in zip(res_list, per):
            report["citations"][k]["footnotes"] = [note.index for note, _ in refs]
            k += 1
    for run, res_list, per in reversed(list(zip(runs, by_run, notes_for))):
        _rewrite(run, res_list, per, notes, options)
    if notes.entries:
        token = Token("rule_footnotes", "", 0)
        token.meta = {"notes": notes}
        token.block = True
        state.tokens.append(token)
    report["footnotes"] = [{"index": n.index, "ruleset": n.rule.ruleset, "edition": n.rule.edition,
                            "number": n.rule.number, "text": n.rule.body, "url": n.url}
                           for n in notes.entries]
    report["diagnostics"] = [d.as_dict() for d in diags]
    report["target"] = target.describe()


def _href(res: Resolution, base_url: str) -> str | None:
    from kb.cite.annotate import rule_url
    r = res.rules[0] if res.linked else None
    return rule_url(r.ruleset, r.edition, r.number, base_url) if r else None


def _runs(inline: Token) -> list[_Run]:
    """Runs of text tokens outside Markdown links and HTML ``<a>`` elements."""
    tokens = inline.children or []
    runs: list[_Run] = []
    link_depth = html_depth = 0
    start: int | None = None

    def close(end: int) -> None:
        nonlocal start
        if start is not None:
            text = "".join("\n" if t.type == "softbreak" else t.content for t in tokens[start:end])
            found = find_citations(text) if _CANDIDATE.search(text) else []
            if found:
                runs.append(_Run(inline, start, end, text, found))
        start = None

    for i, tok in enumerate(tokens):
        if tok.type == "link_open":
            link_depth += 1
        elif tok.type == "link_close":
            link_depth -= 1
        elif tok.type == "html_inline":
            if isLinkOpen(tok.content):
                html_depth += 1
            elif isLinkClose(tok.content) and html_depth:
                html_depth -= 1
        if tok.type in ("text", "softbreak") and not link_depth and not html_depth:
            if start is None:
                start = i
        else:
            close(i)
    close(len(tokens))
    return runs


def _rewrite(run: _Run, resolutions: Sequence[Resolution], refs: Sequence[Sequence[tuple[Any, int]]],
             notes: Footnotes, options: dict[str, Any]) -> None:
    """Replace a run's tokens with one ``rule_citations`` token: the run's text and, for
    each citation, its span, element attributes and footnote references. One token per
    run instead of several per citation keeps the plugin's cost close to plain rendering."""
    tokens = run.inline.children or []
    spans = []
    pos = 0
    for res, note_refs in zip(resolutions, refs):
        c = res.citation
        if c.start < pos or res.status == "over_limit":
            continue
        spans.append((c.start, c.end, citation_attrs(res, options["style"], options["base_url"]),
                      note_refs))
        pos = c.end
    token = Token("rule_citations", "", 0)
    token.content = run.text
    token.markup = "rule_citations"
    token.meta = {"spans": spans, "notes": notes}
    token.level = tokens[run.first].level
    run.inline.children = tokens[: run.first] + [token] + tokens[run.last:]


# -- rendering -----------------------------------------------------------------------
def _render_run(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Text with its citations: ``<a …>`` (or a marked ``<span>``) and footnote references;
    line breaks inside the run render as soft breaks do."""
    token = tokens[idx]
    text = token.content
    notes: Footnotes = token.meta["notes"]
    if options.breaks:
        def esc(part: str) -> str:
            return escapeHtml(part).replace("\n", "<br />\n")
    else:
        esc = escapeHtml
    out = []
    pos = 0
    for start, end, attrs, refs in token.meta["spans"]:
        out.append(esc(text[pos:start]))
        tag = "a" if "href" in attrs else "span"
        rendered = "".join(f' {k}="{escapeHtml(v)}"' for k, v in attrs.items())
        out.append(f"<{tag}{rendered}>{esc(text[start:end])}</{tag}>")
        out.extend(notes.ref_html(note, ordinal) for note, ordinal in refs)
        pos = end
    out.append(esc(text[pos:]))
    return "".join(out)


def _render_footnotes(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    notes: Footnotes = tokens[idx].meta["notes"]
    return notes.html()


# -- places in the source ----------------------------------------------------------------
class _Locator:
    """Finds where a citation found in a token's text is in the Markdown source, so lint
    messages can say file:line:col and Markdown output can link in place."""

    def __init__(self, src: str):
        self.src = src
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", src)]
        self.cursor: dict[int, int] = {}

    def find(self, inline: Token, text: str) -> tuple[int, int, int | None, int | None]:
        """(line, column, start, end) of ``text`` in the block of ``inline``; start and end
        are None when the text cannot be found exactly (escapes, entities), and the line
        is the block's first."""
        first_line, last_line = inline.map if inline.map else (0, len(self.line_starts))
        block_start = self.line_starts[min(first_line, len(self.line_starts) - 1)]
        block_end = (self.line_starts[last_line] if last_line < len(self.line_starts) else len(self.src))
        pos = max(self.cursor.get(id(inline), block_start), block_start)
        at = self.src.find(text, pos, block_end)
        if at >= 0:
            start, end = at, at + len(text)
        else:  # wrapped over lines, perhaps inside a block quote
            pattern = r"\s+(?:>\s*)*".join(re.escape(p) for p in text.split())
            m = re.compile(pattern).search(self.src, pos, block_end) if pattern else None
            if m is None:
                return first_line + 1, 1, None, None
            start, end = m.start(), m.end()
        self.cursor[id(inline)] = end
        line = bisect.bisect_right(self.line_starts, start)
        return line, start - self.line_starts[line - 1] + 1, start, end
