"""A markdown-it-py plugin that links rule citations::

    md = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4", style="footnotes")
    html = md.render(article, env := {})
    env["rule_citations"]["citations"]   # each citation with its status and place, made when read
    env["rule_citations"]["resolutions"] # each place's (start, end, Resolution), made when read
    env["rule_citations"]["footnotes"]   # each footnote's rule, text and URL, made when read

    # one parser, many articles: options for one render
    md.render(other, {"rule_citations_options": {"edition": "1.3", "style": "preview"}})

A core rule after ``inline`` (modelled on ``rules_core/linkify.py``) finds citations in
text tokens, skipping code spans, code blocks, existing links and HTML ``<a>`` elements,
resolves them all at once (so the article's ruleset can be told from its citations), and
replaces each run of text holding citations by one token that renders its links. In the
``footnotes`` style each cited rule gets a numbered footnote with its full text and a link
"Open in the rules browser"; in the ``preview`` style links carry the rule's text as a
hover preview. Front matter (``ruleset:``, ``edition:``) names the edition the article
was written for; without it, the edition is inferred from the citations
(:func:`kb.cite.target.infer_written_for`).

Linking costs time per citation, so the work is shared: each distinct citation of a
document is resolved and rendered once; what only depends on a loaded edition (its cited
rules, the resolution of an existing number, a footnote's escaped text, a link's tags) is
kept for the next article. A report entry's sequences (``numbers``, ``nearest``,
``footnotes``) are tuples, which its places and other articles share (JSON arrays all the
same; ``candidates`` are each place's own dicts), and each place's own ``Resolution`` is
copied from the shared one only when ``resolutions`` is read (``format=markdown`` does).
Each place's entry in ``citations`` (its span, line and column in the source) is made when
``citations`` is first read too (:class:`PlacedEntries`, a sequence: ``list()`` of it is the
list of dicts JSON needs), so a render that only wants HTML does not place its citations.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import itertools
import operator
import re
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, overload

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml, isLinkClose, isLinkOpen
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.front_matter import front_matter_plugin

from kb.cite.annotate import STYLES, Footnotes, Style, citation_attrs, rule_url
from kb.cite.find import (Citation, count_phrases, find_citations, may_cite, may_cite_bare_in_source,
                          may_cite_loosely_in_source, rule_keyword_citations)
from kb.cite.resolve import CitedRule, Resolution, as_dict, copy_for, resolve_shared
from kb.cite.target import (LinkTarget, link_target, may_name_a_ruleset, named_editions, parse_front_matter,
                            prefix_names, resolve_for_target)
from kb.graph import RuleGraph
from kb.limits import CITE_CITATIONS, CITE_FRONT_MATTER
from kb.loaded import LoadedEditions
from kb.model import Diagnostic
from kb.references import other_keywords_in_source

ENV_KEY = "rule_citations"
# ``env[OPTIONS_KEY]`` overrides the plugin's options for one render (``ruleset``,
# ``edition``, ``style``, ``base_url``, ``limit``, ``prefix``, ``source``): one parser can
# serve many articles, as the facade's does.
OPTIONS_KEY = "rule_citations_options"
MAX_CITATIONS = CITE_CITATIONS.value
# Text that may hold a citation with a keyword (like linkify's pretest; find.may_cite is
# the pretest of citations without one): see may_cite_with_keyword.
_CANDIDATE = re.compile(r"[RrC](?:ule|ULE|R)")
_OPTION_NAMES = ("ruleset", "edition", "style", "base_url", "limit", "prefix", "source")
# ``env[PLACE_NOW_KEY] = True``: the caller reads every entry of ``citations`` (the facade,
# the records), so they are made while the document is linked, not when first read.
PLACE_NOW_KEY = "rule_citations_place_now"


class _Run(NamedTuple):
    """Consecutive text and soft-break tokens of one inline token, outside links (a named
    tuple: one is made per paragraph that cites, and a tuple is made fastest)."""

    inline: Token
    first: int
    last: int  # exclusive
    text: str
    citations: list[Citation]


_new_run = tuple.__new__  # _Run's own __new__ without its argument handling (a paragraph's run)


def rule_citations(md: MarkdownIt, *, kb: LoadedEditions, ruleset: str | None = None,
                   edition: str | None = None, style: Style = "footnotes", base_url: str = "",
                   limit: int = MAX_CITATIONS, prefix: str = "rule-fn", source: str = "") -> None:
    """Link rule citations; see the module docstring.

    :param kb: the knowledge base the citations are resolved in.
    :param ruleset: link against this ruleset (default: the front matter's, else decided
        per citation among the newest edition of each ruleset).
    :param edition: link against this edition (default: the front matter's, else the newest full one).
    :param style: ``footnotes`` (numbered footnotes with each rule's text) or ``preview``.
    :param base_url: prefix of the rules browser's URLs.
    :param limit: citations found, looked up and listed per document; the rest are only
        counted (``env[ENV_KEY]["over_limit"]``, and ``over_limit`` in the summary).
    :param prefix: prefix of footnote element ids.
    :param source: the file name used in diagnostics.

    Any option but ``kb`` can be given for one render in ``env[OPTIONS_KEY]``.
    """
    _check_style(style)
    own_front_matter = "front_matter" not in md.block.ruler.get_all_rules()
    if own_front_matter:
        md.use(front_matter_plugin)
        _front_matter_at_the_start_only(md, keep_line_starts=True)
    # The author's own footnotes ("[^1]" and "[^1]: …") are rendered as markdown-it-py's
    # users expect, by mdit_py_plugins' footnote plugin (ids fn1, fnref1; a section of
    # class "footnotes"); the linker's keep their own ids (``prefix``), their own section
    # (class "rule-footnotes") and come after the author's (this plugin's core rule runs
    # after the footnote plugin's tail).
    if "footnote_def" not in md.block.ruler.get_all_rules():
        md.use(footnote_plugin)
    if not own_front_matter:  # (else the front matter rule keeps them)
        md.block.ruler.before(md.block.ruler.get_all_rules()[0], "rule_citations_lines", _keep_line_starts)
    options = {"kb": kb, "ruleset": ruleset, "edition": edition, "style": style,
               "base_url": base_url, "limit": limit, "prefix": prefix, "source": source}
    core_rules = md.core.ruler.get_all_rules()
    anchor = "text_join" if "text_join" in core_rules else "inline"
    md.core.ruler.after(anchor, "rule_citations", lambda state: _link(state, options))
    md.add_render_rule("rule_citations", _render_run)
    md.add_render_rule("rule_footnotes", _render_footnotes)


def _front_matter_at_the_start_only(md: MarkdownIt, keep_line_starts: bool = False) -> None:
    """``mdit_py_plugins``' front matter rule, tried at block starts only. The plugin also
    registers it as a rule that may end a paragraph, a list, a block quote or a reference,
    so it was tried at every continuation line of a wrapped paragraph; but it matches at the
    document's first line only (it returns at once for any other), and a line that ends
    such a block is never the first: taken out of those chains, the parse is the same.

    ``keep_line_starts``: at the document's first line the rule keeps the block parser's
    line starts too (:func:`_keep_line_starts`), so that no rule of its own is tried at every
    block start for them (the plugin's front matter rule is the chain's first)."""
    ruler = md.block.ruler
    for rule in ruler.__rules__:
        if rule.name == "front_matter":
            front_matter = rule.fn
            if not keep_line_starts:
                ruler.at("front_matter", front_matter)  # the same function, no "alt" chains
                return

            def front_matter_and_line_starts(state: StateBlock, start_line: int, end_line: int,
                                             silent: bool) -> bool:
                if start_line:
                    return False  # front matter is at the document's first line (as the rule says)
                _keep_line_starts(state, start_line, end_line, silent)
                return front_matter(state, start_line, end_line, silent)

            ruler.at("front_matter", front_matter_and_line_starts)
            return


# Where the block parser's line starts wait for the core rule, in ``env`` (which takes
# them out again).
_LINE_STARTS_KEY = "rule_citations_line_starts"


def _keep_line_starts(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A block rule that parses nothing (tried first at each block start, or by the front
    matter rule at the first line, :func:`_front_matter_at_the_start_only`): at the document's
    first line it keeps the block parser's line starts (``StateBlock.bMarks``, made by its
    pass over the text, and restored by every rule that shifts them) for the core rule,
    which places citations by line: finding them again in a text of 100 KB costs about 1.5 %
    of rendering it. Besides each line's start, the list ends with the text's length,
    and misses a last line of spaces without a line end: no citation is placed after
    either."""
    if start_line == 0 and state.parentType == "root" and isinstance(state.env, dict):
        state.env[_LINE_STARTS_KEY] = state.bMarks
    return False


def over_limit_message(limit: int, over: int) -> str:
    """The warning for citations past the limit, which are counted, not listed."""
    return (f"more than {limit} citations; only the first {limit} were looked up and listed "
            f"(about {over} more citations were counted as over_limit)")


def _check_style(style: str) -> None:
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")


# -- the core rule ---------------------------------------------------------------------
@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """CPython's cyclic garbage collector paused for a block that builds many objects that
    stay alive and form no cycles (as Mercurial's ``util.nogc`` does), then resumed when the
    last such block of any thread ends, unless it was already paused before the first.

    The collector runs after every ~700 container objects allocated, whether or not they
    turn out to be garbage, and about every 100th run (when the objects that survived since
    the last exceed a quarter of the long-lived ones) traverses every object alive: linking
    1 MB of the lessons (7 907 citations, each with its report entry, resolution and their
    lists) triggered such a full pass over the knowledge base's objects, costing ~0.7× of
    plain rendering by itself. Objects the block drops are still freed by reference counting; the
    first collection after it takes the young objects in one pass. Process-wide: another
    thread's cyclic garbage waits until the blocks end (a render's time). The switch is
    process-wide too, hence one count of open blocks under a lock: a render of the threaded
    server that ends first must not resume the collector under another still running."""
    global _paused_blocks, _resume_collector
    with _collector_lock:
        if _paused_blocks == 0:
            _resume_collector = gc.isenabled()
            gc.disable()
        _paused_blocks += 1
    try:
        yield
    finally:
        with _collector_lock:
            _paused_blocks -= 1
            if _paused_blocks == 0 and _resume_collector:
                gc.enable()


_collector_lock = threading.Lock()
_paused_blocks = 0  # collector_paused blocks open, in every thread
_resume_collector = False  # whether the collector ran before the first of them


def _link(state: StateCore, options: dict[str, Any]) -> None:
    """The core rule: a document's citations found, resolved and linked, and its report
    written into ``env`` (without collector runs while the objects of a long one are made:
    a document under :data:`_PAUSE_FROM` characters makes too few for a full pass of the
    collector, and pausing and resuming it cost more than its young passes there, ~1 % of
    plain rendering at 10 KB)."""
    if len(state.src) < _PAUSE_FROM:
        _link_document(state, options)
        return
    with collector_paused():
        _link_document(state, options)


_PAUSE_FROM = 65_536


def _link_document(state: StateCore, options: dict[str, Any]) -> None:
    env = state.env
    options = _with_overrides(options, env.get(OPTIONS_KEY) if isinstance(env, dict) else None)
    report: dict[str, Any] = {"citations": [], "footnotes": [], "diagnostics": [],
                              "resolutions": (), "over_limit": 0}
    env[ENV_KEY] = report
    base_url = options["base_url"]
    style = options["style"]
    runs, citations, resolutions, target, diags = _found_and_resolved(state, options, report)
    line_starts = env.pop(_LINE_STARTS_KEY, None) if isinstance(env, dict) else None
    one = target.single
    notes = Footnotes(base_url, options["prefix"], (one.edition.ruleset, one.edition.name) if one else None)
    footnotes = style == "footnotes"
    # What every place citing the same thing (the same shared resolution) shares: its
    # report entry (less the place), its element's tags, and (once the document has cited
    # it) its footnote and the entry's footnote numbers: a list per document,
    # [*_Shared, Footnote | None, footnote numbers].
    shared: dict[int, list[Any]] = {}
    # Each place's footnote numbers (None: its template's), for its report entry.
    numbers: list[tuple[int, ...] | None] = []
    keep = numbers.append
    parts_of: list[list[str]] = []
    ref = notes.ref
    first_ref = notes.first_ref
    results = iter(resolutions)
    # A caller that reads every entry (the facade: env[PLACE_NOW_KEY]) has them made here,
    # in the pass that links each place, rather than in a second pass over the places when
    # read (PlacedEntries): each place's citation, resolution, template and footnote
    # numbers are at hand, and its place comes from the same _Placer.places as there.
    now = isinstance(env, dict) and env.get(PLACE_NOW_KEY) is True
    spots: Iterable[Any] = _NOWHERE
    if now:
        placer = _Placer(state.src, line_starts)
        made: list[dict[str, Any]] = []
    for run in runs:
        # The run's HTML before escaping: its text's pieces at even places, each linked
        # citation's open tag, text and close tag (footnote references included) between.
        parts: list[str] = []
        pos = 0
        run_text = run.text
        if now:
            spots = placer.places(run)
        # zip takes from results only with a citation (spots: one a citation, or _NOWHERE's)
        for spot, c, res in zip(spots, run.citations, results):
            start, c_end, text, _, _, form, _, _, _, quote = c  # find.CITATION_ORDER
            known = shared.get(id(res))
            if known is None:
                known = shared[id(res)] = _known(res, style, base_url)
            open_tag, close_tag, linked = known[1], known[2], known[4]
            if footnotes and linked:
                if len(linked) > 1:
                    refs = [ref(r) for r in linked]
                    numbered = tuple([note.index for note, _ in refs])
                    close_tag += "".join([html for _, html in refs])
                elif known[5] is None:  # the document's first place citing it
                    note = known[5] = first_ref(linked[0])
                    numbered = known[6] = footnote_numbers(note.index)
                    # A linked citation is an <a> (_shared): its close tag and the footnote's
                    # first reference are one string of the footnote's number.
                    close_tag = (note.numbered.after_link if note.refs == 1
                                 else close_tag + notes.ref_html(note, note.refs))
                else:  # Footnotes.ref of a rule cited before, inlined
                    note = known[5]
                    note.refs += 1
                    number = note.numbered
                    numbered = known[6]
                    close_tag += f"{number.ref_head}-{note.refs}{number.ref_tail}"
            else:
                numbered = None
            keep(numbered)
            if start >= pos:  # (the plugin looks up every citation it finds: none is over_limit)
                parts += (run_text[pos:start], open_tag, text, close_tag)
                pos = c_end
            if now:  # its entry (as _entries makes it)
                offset, end, line, col = spot
                entry = known[0].copy()
                entry["start"] = offset
                entry["end"] = end
                entry["text"] = text
                entry["form"] = form
                if known[3]:  # candidates, dicts: each place its own
                    entry["candidates"] = [dict(d) for d in known[0]["candidates"]]
                if quote is not None:  # its offsets would be into the token's text, not the source
                    entry["quote"] = {"text": quote.text, "similarity": res.quote_similarity}
                entry["line"] = line
                entry["column"] = col
                if numbered is not None:
                    entry["footnotes"] = numbered
                made.append(entry)
        parts.append(run_text[pos:])
        parts_of.append(parts)
    # Each run's tokens are replaced by one token, last run first (indices stay valid).
    for run, parts in zip(reversed(runs), reversed(parts_of)):
        _rewrite(run, parts)
    if notes.entries:
        token = Token("rule_footnotes", "", 0)
        token.meta = {"notes": notes}
        token.block = True
        state.tokens.append(token)
    entries = PlacedEntries(state.src, line_starts, runs, resolutions, shared, numbers)
    if now:
        entries.made(made)
    report["citations"] = entries
    report["resolutions"] = PlacedResolutions(entries, citations, resolutions)
    report["footnotes"] = FootnoteEntries(notes)
    report["diagnostics"] = [d.as_dict() for d in diags]
    report["target"] = target.describe()


class _Placed(Sequence[Any]):
    """A sequence made when first read (:meth:`_places`), compared as a list: what the
    report's ``citations`` and ``resolutions`` have in common."""

    _made: list[Any] | None

    def _places(self) -> list[Any]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._places())

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self._places()[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._places())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _Placed):
            other = other._places()
        return isinstance(other, (list, tuple)) and list(self._places()) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._places()!r})"


class PlacedEntries(_Placed):
    """``report["citations"]``: each place's report entry (its status, rules and message,
    its span, line and column in the source, its footnote numbers), a list of dicts made
    when first read. Rendering HTML needs none of them (its footnote references are made
    as the citations are linked): placing each citation in the source and filling in its
    entry cost about a sixth of rendering the text around it, which a caller that only
    renders no longer pays. ``list(report["citations"])`` is the list of dicts (JSON
    needs it: the facade's answer holds it)."""

    def __init__(self, src: str, line_starts: list[int] | None, runs: list[_Run],
                 resolutions: list[Resolution], shared: dict[int, list[Any]],
                 numbers: list[tuple[int, ...] | None]):
        self._args: tuple[Any, ...] | None = (src, line_starts, runs, resolutions, shared, numbers)
        self._made: list[dict[str, Any]] | None = None
        self._offsets: list[int | None] | None = None
        self._count = len(numbers)

    def __len__(self) -> int:
        return self._count

    def made(self, entries: list[dict[str, Any]]) -> None:
        """The entries, made by the linker already (``PLACE_NOW_KEY``); their offsets are
        read from them when first asked for (``format=markdown`` and the records ask)."""
        self._made, self._offsets, self._args = entries, None, None

    def offsets(self) -> list[int | None]:
        """Each place's start and end in the source (two values per place; None when
        escapes or entities hide its text)."""
        made = self._places()
        if self._offsets is None:
            self._offsets = [v for entry in made for v in (entry["start"], entry["end"])]
        return self._offsets

    def _places(self) -> list[dict[str, Any]]:
        if self._made is None:
            assert self._args is not None
            offsets: list[int | None] = []
            if len(self._args[0]) < _PAUSE_FROM:  # as _link: a long document's entries
                self._made = _entries(*self._args, offsets)
            else:  # are many objects that stay alive: no collector pass while they are made
                with collector_paused():
                    self._made = _entries(*self._args, offsets)
            self._args, self._offsets = None, offsets
        return self._made


class FootnoteEntries(_Placed):
    """``report["footnotes"]``: each footnote's entry (:meth:`Footnotes.report`: its index,
    rule, text and URL), a list of dicts made when first read: an HTML render needs none of
    them (its footnote section is made from the footnotes themselves)."""

    def __init__(self, notes: Footnotes):
        self._notes: Footnotes | None = notes
        self._made: list[dict[str, Any]] | None = None

    def __len__(self) -> int:
        return len(self._made) if self._made is not None else len(self._notes.entries)  # type: ignore[union-attr]

    def _places(self) -> list[dict[str, Any]]:
        if self._made is None:
            assert self._notes is not None
            self._made, self._notes = self._notes.report(), None
        return self._made


def _entries(src: str, line_starts: list[int] | None, runs: list[_Run], resolutions: list[Resolution],
             shared: dict[int, list[Any]], numbers: list[tuple[int, ...] | None],
             offsets: list[int | None]) -> list[dict[str, Any]]:
    """Each place's report entry (see :class:`PlacedEntries`), its offsets added to
    ``offsets``: the citations placed in the source one after another (:meth:`_Placer.places`)."""
    places = _Placer(src, line_starts).places
    entries: list[dict[str, Any]] = []
    results = iter(resolutions)
    footnotes = iter(numbers)
    for run in runs:
        for (offset, end, line, col), c, res, numbered in zip(places(run), run.citations, results, footnotes):
            _, _, text, _, _, form, _, _, _, quote = c  # find.CITATION_ORDER
            known = shared[id(res)]
            template = known[0]
            # The template has every key of an entry in its place: copied and filled in
            # (its other values are strings, numbers and tuples, which places may share).
            entry = template.copy()
            # Offsets into the Markdown source (None when escapes or entities hide the text).
            entry["start"] = offset
            entry["end"] = end
            entry["text"] = text
            entry["form"] = form
            if known[3]:  # candidates, dicts: each place its own
                entry["candidates"] = [dict(d) for d in template["candidates"]]
            if quote is not None:  # its offsets would be into the token's text, not the source
                entry["quote"] = {"text": quote.text, "similarity": res.quote_similarity}
            entry["line"] = line
            entry["column"] = col
            if numbered is not None:
                entry["footnotes"] = numbered
            entries.append(entry)
            offsets += (offset, end)
    return entries


# Where the linking pass's places come from when it makes no entries (zip stops at the
# run's last citation).
_NOWHERE = itertools.repeat(None)


class _Placer:
    """Places the citations of a document's runs in its source, one run after another,
    each citation found after the one before in its block: the one place-in-the-source
    lookup of the linking pass (``PLACE_NOW_KEY``) and of the entries made when read."""

    def __init__(self, src: str, line_starts: list[int] | None):
        self.src = src
        self.locator = _Locator(src, line_starts)
        self.inline: Token | None = None
        self.block: list[Any] = []
        # The line of the citation placed last: its number, where it starts and where the
        # next starts (citations of a paragraph are most often on one line: no bisection).
        self.line = (0, 0, 0)

    def places(self, run: _Run) -> list[tuple[int | None, int | None, int, int]]:
        """Each of ``run``'s citations' (start, end, line, column) in the source (start and
        end None when escapes or entities hide its text), in order: one call a run (a call
        per citation costs as much as placing it; a generator resumed per citation, 1 %
        of the facade's instructions at 100 KB, twice what the list costs)."""
        if run.inline is not self.inline:  # the runs of one inline token are consecutive
            self.inline = run.inline
            self.block = self.locator.block(run.inline)
        block = self.block
        block_end, skips = block[2], block[3]
        src = self.src
        src_find = src.find
        line_starts = self.locator.line_starts
        lines = len(line_starts)
        line, line_start, next_line = self.line
        out = []
        for c in run.citations:
            text = c[2]
            # _Locator.find, its commonest case (found as written, in a block that skips
            # nothing) inlined.
            at = -1 if skips else src_find(text, block[0], block_end)
            if at >= 0:
                block[0] = end = at + len(text)
                if not line_start <= at < next_line:
                    line = bisect.bisect_right(line_starts, at)
                    line_start = line_starts[line - 1]
                    next_line = line_starts[line] if line < lines else len(src) + 1
                out.append((at, end, line, at - line_start + 1))
            else:
                found = self.locator.find(block, text)
                next_line = 0  # the next citation's line is looked up
                out.append((found[2], found[3], found[0], found[1]))
        self.line = (line, line_start, next_line)
        return out


class PlacedResolutions(_Placed):
    """``report["resolutions"]``: each place's span in the source (None when it cannot be
    placed exactly) with its own :class:`~kb.cite.resolve.Resolution`, for callers that
    rewrite the source (``format=markdown``). The resolutions are copied from the shared
    ones when first asked for: an HTML render needs none of them, and a place's copy with
    its three lists cost as much as a tenth of rendering the text around it."""

    def __init__(self, entries: PlacedEntries, citations: list[Citation],
                 resolutions: list[Resolution]):
        self._entries: PlacedEntries | None = entries
        self._citations = citations
        self._shared = resolutions
        self._made: list[tuple[int | None, int | None, Resolution]] | None = None

    def _places(self) -> list[tuple[int | None, int | None, Resolution]]:
        if self._made is None:
            assert self._entries is not None
            spans = iter(self._entries.offsets())
            self._made = [(start, end, copy_for(res, c)) for start, end, res, c
                          in zip(spans, spans, self._shared, self._citations)]
            self._entries, self._citations, self._shared = None, [], []
        return self._made

    def __len__(self) -> int:
        return len(self._made) if self._made is not None else len(self._citations)


def _with_overrides(options: dict[str, Any], override: dict[str, Any] | None) -> dict[str, Any]:
    """The plugin's options with a document's own (``env[OPTIONS_KEY]``) over them; an
    unknown option or style is a ValueError naming it."""
    if not override:
        return options
    unknown = set(override) - set(_OPTION_NAMES)
    if unknown:
        raise ValueError(f"unknown rule_citations options {sorted(unknown)} "
                         f"(options: {', '.join(_OPTION_NAMES)})")
    options = {**options, **override}
    _check_style(options["style"])
    return options


def _found_and_resolved(state: StateCore, options: dict[str, Any], report: dict[str, Any]
                        ) -> tuple[list[_Run], list[Citation], list[Resolution], LinkTarget,
                                   list[Diagnostic]]:
    """A document's runs of citations, their citations, each citation's (shared) resolution against the editions it
    was written for (its front matter's pins, else inferred), that target, and the notes
    so far; the front matter and the count past the limit go into ``report``."""
    source = options["source"]
    limit = options["limit"]
    pins: dict[str, str] = {}
    diags: list[Diagnostic] = []
    if state.tokens and state.tokens[0].type == "front_matter":
        content = state.tokens[0].content
        CITE_FRONT_MATTER.check(len(content), f"{source or 'the article'}'s front matter")
        pins, diags = parse_front_matter(content, source, options["kb"])
    report["front_matter"] = pins
    # Citations still to find; phrases counted past the limit; whether the document may
    # hold a loose keyword ("§ 702.2b", "see 601.2a", "r117.3b"), and (_document_hints)
    # another keyword than "rule(s)", a bare citation, a quotation mark: asked once, not per text.
    src = state.src
    own_text = _texts_are_source(state)
    # Asked of the source when its texts are its own characters; else an entity or an escape
    # may make one ("&sect; 702.2b"), and each text is asked.
    loose = may_cite_loosely_in_source(src) if own_text else True
    budget = [max(0, limit), 0, loose, *_document_hints(src, own_text)]
    bare = budget[4]
    # An inline token's content is its source (entities and escapes as written, a space
    # before a line break kept, which its text drops): a loose keyword is looked for there
    # as in the source, and in every text of a document whose texts are not its own.
    if own_text and not loose and not any(budget[3:6]):
        runs = _keyword_runs(state.tokens, budget)
    else:
        runs = [run for token in state.tokens if token.type == "inline" and token.children
                and (may_cite_with_keyword(token.content) or may_cite(token.content, False, bare)
                     or loose and (not own_text or may_cite_loosely_in_source(token.content)))
                for run in _runs(token, budget)]
    report["over_limit"] = over = budget[1]
    citations = [c for run in runs for c in run.citations]
    kb = options["kb"]
    target: LinkTarget = link_target(kb, options["ruleset"], options["edition"], pins, source)

    def named_of(candidates: Callable[[], Sequence[RuleGraph]]) -> list[RuleGraph | None]:
        """Each citation's named edition, run by run (a prefix is read in its own run), among
        the ``candidates()`` (see resolve_for_target)."""
        names = prefix_names(kb)
        # named_editions' own pretest, once for the document: without "CR" in any text (none
        # when the source holds no other keyword than "rule(s)": _document_hints) and a
        # naming word before any citation, none of its citations names a ruleset.
        if (not (own_text and not budget[3]) and any("CR" in run.text for run in runs)
                or may_name_a_ruleset([(run.text, run.citations) for run in runs], names)):
            every = candidates()
            return [g for run in runs for g in named_editions(kb, every, run.text, run.citations, names)]
        return [None] * len(citations)

    target, resolutions, said = resolve_for_target(kb, target, citations, pins.get("date"),
                                                   resolve_shared, named_of, source)
    diags.extend(target.diagnostics)
    diags.extend(said)
    if over:
        diags.append(Diagnostic(over_limit_message(limit, over), source, 0, "warning"))
    return runs, citations, resolutions, target, diags


# The rules whose text tokens hold the source's own characters, each text a slice of the
# source (the block parser taking off line prefixes): markdown-it-py's own and those of the
# plugins the linker brings in (front matter, footnotes) or the facade enables (tables),
# entities and backslash escapes aside, which decode to characters the source may not hold.
_SOURCE_TEXT_RULES = frozenset({
    "normalize", "block", "inline", "footnote_tail", "linkify", "replacements", "smartquotes",
    "text_join", "rule_citations",  # core ("replacements", "smartquotes": only with the typographer)
    "rule_citations_lines", "front_matter", "table", "code", "fence", "blockquote", "hr", "list",
    "footnote_def", "reference", "html_block", "heading", "lheading", "paragraph",  # block
    "text", "newline", "escape", "backticks", "strikethrough", "emphasis", "link", "image",
    "footnote_inline", "footnote_ref", "autolink", "html_inline", "entity",  # inline
    "balance_pairs", "fragments_join"})  # inline, after


def _texts_are_source(state: StateCore) -> bool:
    """Whether every text markdown-it makes of ``state``'s source is made of the source's own
    characters, in order, but for line breaks and the line prefixes the block parser takes
    off: no entity (``&``) or backslash escape in the source, no typographer, and only
    the rules of :data:`_SOURCE_TEXT_RULES` (a parser with another plugin may make any text).
    Then what no part of the source holds, no text holds: the pretests of every text
    can be asked once of the source."""
    src = state.src
    md = state.md
    if "&" in src or "\\" in src or md.options.get("typographer"):
        return False
    return _rules_keep_source_text(md)


def _rules_keep_source_text(md: MarkdownIt) -> bool:
    """Whether every rule ``md`` has enabled is one of :data:`_SOURCE_TEXT_RULES`: asked
    once per parser and set of rules. A ruler's chain of enabled rules is one list until
    its rules change (enabling, disabling or adding one makes a new list), so the answer is
    kept with the four lists it was read from (held: their ids are not reused)."""
    rulers = (md.core.ruler, md.block.ruler, md.inline.ruler, md.inline.ruler2)
    chains = [ruler.getRules("") for ruler in rulers]
    kept = _KEPT_SOURCE_TEXT.get(md)
    if kept is not None and all(map(operator.is_, kept[0], chains)):
        return kept[1]
    answer = all(name in _SOURCE_TEXT_RULES for ruler in rulers for name in ruler.get_active_rules())
    _KEPT_SOURCE_TEXT[md] = (chains, answer)
    return answer


# _rules_keep_source_text's answers, by parser (weakly: a parser dropped drops its answer).
_KEPT_SOURCE_TEXT: weakref.WeakKeyDictionary[MarkdownIt, tuple[list[Any], bool]] = weakref.WeakKeyDictionary()


def _document_hints(src: str, own_text: bool) -> tuple[bool, bool, bool]:
    """Whether any text of the document may hold a keyword other than "rule(s)"/"Rule(s)"
    (RULE, section, CR), a bare citation, a quotation mark (find_citations' ``others``,
    ``bare``, ``quotes``): asked of the source when its texts are its own characters
    (:func:`_texts_are_source`), else True (each text is asked)."""
    if not own_text:
        return True, True, True
    return other_keywords_in_source(src), may_cite_bare_in_source(src), '"' in src or "“" in src


# A resolution's report entry with every key in its order, its place's values left None
# (start, end, text, form; the quote when the citation has one, line, column, footnotes),
# its element's open and close tags, whether it has candidates (dicts, copied for each
# place), and the rules it links to (none when it links nowhere). Its other values are
# strings, numbers and tuples: an entry's sequences are tuples, so places (and, for an
# ``ok`` citation of one rule, articles) share them and no caller can change another's.
_Shared = tuple[dict[str, Any], str, str, bool, tuple[CitedRule, ...]]
_PER_PLACE = ("line", "column", "footnotes")


def footnote_numbers(index: int) -> tuple[int]:
    """``(index,)``, the ``footnotes`` of an entry citing one rule: one tuple per number for
    the process, so that the entries of every article share it. Once the collector has seen
    it (it holds a number only), it stops tracking it, and an entry holding nothing else
    but strings, numbers and such tuples is no longer tracked either: the collector's pass
    after a render does not go through the report's entries."""
    try:
        return _FOOTNOTE_NUMBERS[index]
    except IndexError:
        with _collector_lock:
            while len(_FOOTNOTE_NUMBERS) <= index:
                _FOOTNOTE_NUMBERS.append((len(_FOOTNOTE_NUMBERS),))
        return _FOOTNOTE_NUMBERS[index]


_FOOTNOTE_NUMBERS: list[tuple[int]] = []


def _known(res: Resolution, style: Style, base_url: str) -> list[Any]:
    """What the places of one document sharing ``res`` share (see ``_link_document``).

    An ``ok`` citation of one rule is most places, and its resolution is most often the
    one its edition keeps for the number (``resolve._EditionCache.found``), the same object
    in every article: what it shares is kept by that object's identity too (each kept
    value holding it, so an id is never reused while kept), one lookup for a rule's first
    place in a document instead of the checks and the key :func:`_shared_ok` is found by."""
    kept = _KNOWN_OK.get(id(res))
    if kept is not None and kept[0] is res and kept[1] == style and kept[2] == base_url:
        return [*kept[3], None, ()]
    if res.status == "ok" and len(res.rules) == 1 and not res.message and res.citation.quote is None:
        shared = _shared_ok(res.rules[0], res.written, style, base_url)
        if len(_KNOWN_OK) >= _MAX_SHARED_OK:
            _KNOWN_OK.clear()  # bounded, as _SHARED_OK
        _KNOWN_OK[id(res)] = (res, style, base_url, shared)
        return [*shared, None, ()]
    return [*_shared(res, style, base_url), None, ()]


def _shared(res: Resolution, style: Style, base_url: str) -> _Shared:
    """What every place of a resolution shares (see :data:`_Shared`)."""
    entry = as_dict(res, _href(res, base_url))
    quoted = "quote" in entry
    entry.pop("quote", None)
    entry.update(dict.fromkeys(("start", "end", "text", "form")))  # in place: they come first
    entry.update(dict.fromkeys(("quote", *_PER_PLACE) if quoted else _PER_PLACE))
    entry["footnotes"] = ()
    for name, value in entry.items():
        if isinstance(value, list) and name != "candidates":
            entry[name] = tuple(value)
    attrs = citation_attrs(res, style, base_url)
    tag = "a" if "href" in attrs else "span"
    rendered = "".join([f' {k}="{escapeHtml(v)}"' for k, v in attrs.items()])
    entry = {**entry}  # without the popped key's hole: dict.copy takes its fast path
    return (entry, f"<{tag}{rendered}>", f"</{tag}>", "candidates" in entry,
            tuple(res.rules) if res.linked else ())


def _shared_ok(rule: CitedRule, written: str, style: Style, base_url: str) -> _Shared:
    """:func:`_shared` of a citation of one rule that resolved ``ok``, which depends on
    nothing else: the same for every article citing the rule.

    Kept by the rule object's identity (an edition's cited rules are made once, and each
    kept value holds its rule, so an id is never reused while it is kept): hashing a
    ``CitedRule`` runs its dataclass ``__hash__`` over its seven fields, which the first
    place of every distinct citation of an article paid. A rebuilt edition makes new rule
    objects, so it never gets another build's template."""
    key = (id(rule), written, style, base_url)
    kept = _SHARED_OK.get(key)
    if kept is not None and kept[0] is rule:
        return kept[1]
    shared = _shared(Resolution(_NO_CITATION, "ok", [rule], written), style, base_url)
    if len(_SHARED_OK) >= _MAX_SHARED_OK:
        _SHARED_OK.clear()  # bounded: an article's rules come back at the next first place
    _SHARED_OK[key] = (rule, shared)
    return shared


_SHARED_OK: dict[tuple[int, str, str, str], tuple[CitedRule, _Shared]] = {}
# _known's: an ok resolution's id -> (the resolution, style, base URL, its _shared_ok).
_KNOWN_OK: dict[int, tuple[Resolution, str, str, _Shared]] = {}
_MAX_SHARED_OK = 4096


_NO_CITATION = Citation(0, 0, "", (), (), "rule")


def _href(res: Resolution, base_url: str) -> str | None:
    r = res.rules[0] if res.linked else None
    return rule_url(r.ruleset, r.edition, r.number, base_url) if r else None


def _runs(inline: Token, budget: list[int]) -> list[_Run]:
    """Runs of text tokens outside Markdown links and HTML ``<a>`` elements, with their
    citations: ``budget[0]`` more at most, those past it counted into ``budget[1]``;
    ``budget[2]`` is whether the document may hold a loose keyword (find.may_cite_loosely_in_source),
    ``budget[3:6]`` another keyword, a bare citation, a quotation mark (_document_hints).
    ``inline``'s content is one that may cite (:func:`may_cite_with_keyword`, :func:`may_cite`)."""
    tokens = inline.children or []
    if len(tokens) == 1 and tokens[0].type == "text":  # a paragraph of plain text, most often
        found = _run_citations(tokens[0].content, inline, budget)
        return [_new_run(_Run, (inline, 0, 1, tokens[0].content, found))] if found else []
    runs: list[_Run] = []
    link_depth = html_depth = 0
    start: int | None = None

    def close(end: int) -> None:
        nonlocal start
        if start is not None:
            if end - start == 1:
                text = tokens[start].content if tokens[start].type == "text" else "\n"
            else:
                text = "".join(["\n" if t.type == "softbreak" else t.content for t in tokens[start:end]])
            found = _run_citations(text, inline, budget)
            if found:
                runs.append(_Run(inline, start, end, text, found))
        start = None

    for i, tok in enumerate(tokens):
        kind = tok.type
        if kind == "text" or kind == "softbreak":
            if start is None and not link_depth and not html_depth:
                start = i
            continue
        if kind == "link_open":
            link_depth += 1
        elif kind == "link_close":
            link_depth -= 1
        elif kind == "html_inline":
            if isLinkOpen(tok.content):
                html_depth += 1
            elif isLinkClose(tok.content) and html_depth:
                html_depth -= 1
        close(i)
    close(len(tokens))
    return runs


def _run_citations(text: str, inline: Token, budget: list[int]) -> list[Citation]:
    """The citations of one run's ``text`` (see :func:`_runs`)."""
    # The caller tested the token's own text already (a run is often all of it).
    if text == inline.content or may_cite_with_keyword(text) or may_cite(text, budget[2], budget[4]):
        return _within_budget(text, budget, _hinted_citations, budget)
    return []


def _within_budget(text: str, budget: list[int], find: Callable[..., list[Citation]],
                   *hints: Any) -> list[Citation]:
    """``find(text, room, *hints)``: the citations of ``text``, ``room`` (the ``budget[0]``
    the document has left) at most; the phrases past it counted into ``budget[1]`` (see
    :func:`_runs`)."""
    room = budget[0]
    if room <= 0:
        budget[1] += count_phrases(text, 0, budget[2])
        return []
    found = find(text, room, *hints)
    budget[0] = room = room - len(found)
    if room <= 0:
        budget[1] += count_phrases(text, found[-1].end if found else 0, budget[2])
    return found


def _hinted_citations(text: str, room: int, budget: list[int]) -> list[Citation]:
    """:func:`~kb.cite.find.find_citations` told the document's hints (``budget[2:6]``)."""
    return find_citations(text, room, budget[2], others=budget[3], bare=budget[4], quotes=budget[5])


def _keyword_runs(tokens: list[Token], budget: list[int]) -> list[_Run]:
    """The runs of a document whose every text is its source's own characters and whose
    source holds no loose keyword, no other keyword than "rule(s)"/"Rule(s)", no bare
    citation and no quotation mark (``budget[2:6]`` all false: most articles): what
    :func:`_runs` finds in each inline token, found with fewer calls per paragraph. A
    citation there needs "ule", and a paragraph of plain text (one text token, most often)
    is read by :func:`~kb.cite.find.rule_keyword_citations` itself."""
    runs: list[_Run] = []
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        content = token.content
        if "ule" not in content:
            continue  # (no "ULE", "CR" or other pretest's form is in the source)
        children = token.children
        if len(children) != 1 or children[0].type != "text":
            runs += _runs(token, budget)
        elif found := _within_budget(content, budget, rule_keyword_citations):
            runs.append(_new_run(_Run, (token, 0, 1, content, found)))
    return runs


def may_cite_with_keyword(text: str) -> bool:
    """Whether ``text`` may hold a citation with a keyword ("rule", "Rule", "RULE", "CR"): a
    superset of what the finder finds there (of what :data:`_CANDIDATE` finds, too), tested
    with ``str`` searches where they settle it ("ule" or "ULE" in the text, most paragraphs
    of an article citing rules), since a search for a character class such as ``[RrC]``
    stops at every r of the text. A text it lets through and that holds no citation costs
    the finder's look at it and nothing else."""
    return "ule" in text or "ULE" in text or ("R" in text and _CANDIDATE.search(text) is not None)


def _rewrite(run: _Run, parts: list[str]) -> None:
    """Replace a run's tokens with one ``rule_citations`` token: the run's text and its
    HTML's ``parts`` (the text's pieces at even places, unescaped; between them each
    citation's element with its text and footnote references). One token per run instead
    of several per citation keeps the plugin's cost close to plain rendering, and the
    parts are made in the pass that links the citations, so rendering only escapes and
    joins them."""
    tokens = run.inline.children or []
    token = tokens[run.first]  # a text token, made the run's (a new Token costs more)
    token.type = "rule_citations"
    token.content = run.text
    token.markup = "rule_citations"
    token.meta = {"parts": parts}
    if run.last - run.first > 1:
        run.inline.children = tokens[: run.first + 1] + tokens[run.last:]


# -- rendering -----------------------------------------------------------------------
def _render_run(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """Text with its citations: ``<a …>`` (or a marked ``<span>``) and footnote references;
    line breaks inside the run render as soft breaks do. The token's parts are left as
    they are (the tokens may be rendered again)."""
    token = tokens[idx]
    parts: list[str] = token.meta["parts"]
    if options.breaks:
        out = parts[:]
        out[::2] = [escapeHtml(part).replace("\n", "<br />\n") for part in parts[::2]]
        return "".join(out)
    text = token.content
    if "&" in text or "<" in text or ">" in text or '"' in text:
        out = parts[:]
        out[::2] = [escapeHtml(part) for part in parts[::2]]
        return "".join(out)
    return "".join(parts)  # nothing to escape (most runs): escapeHtml would return each piece as it is


def _render_footnotes(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    notes: Footnotes = tokens[idx].meta["notes"]
    return notes.html()


# -- places in the source ----------------------------------------------------------------
class _Locator:
    """Finds where a citation found in a token's text is in the Markdown source, so lint
    messages can say file:line:col and Markdown output can link in place."""

    def __init__(self, src: str, line_starts: list[int] | None = None):
        """``line_starts``: where each line of ``src`` starts, when the block parser's
        (:func:`_keep_line_starts`) are at hand; found here otherwise."""
        self.src = src
        if not line_starts or line_starts[-1] != len(src):  # not this text's (a stale env)
            line_starts = [0] + [m.end() for m in re.finditer("\n", src)]
        self.line_starts = line_starts
        # Most articles hold no code span, link or HTML: then no block has spans to skip.
        self.skips = _may_skip(src, 0, len(src))

    def block(self, inline: Token) -> list[Any]:
        """Where the citations of ``inline`` are looked for: [where the next one is looked
        for, the block's first line, the block's end, the block's skipped spans]; one list
        per inline token, which :meth:`find` moves on (its runs share it)."""
        first_line, last_line = inline.map if inline.map else (0, len(self.line_starts))
        block_start = self.line_starts[min(first_line, len(self.line_starts) - 1)]
        block_end = (self.line_starts[last_line] if last_line < len(self.line_starts)
                     else len(self.src))
        spans = _skipped_spans(self.src, block_start, block_end) if self.skips else []
        return [block_start, first_line, block_end, spans]

    def find(self, block: list[Any], text: str) -> tuple[int, int, int | None, int | None]:
        """(line, column, start, end) of ``text`` in ``block`` (see :meth:`block`), after
        the citation found before and outside what the linker skips (a link's label, a code
        span, an HTML link: text there can read like the next citation); start and end are
        None when the text cannot be found exactly (escapes, entities), and the line is the
        block's first."""
        pos, _, block_end, spans = block
        src = self.src
        at = src.find(text, pos, block_end)
        while at >= 0 and spans:  # most blocks skip nothing
            skip = _skipped(spans, at)
            if skip is None:
                break
            at = src.find(text, skip, block_end)
        if at >= 0:
            start, end = at, at + len(text)
        else:  # wrapped over lines, perhaps inside a block quote
            pattern = r"\s+(?:>\s*)*".join(re.escape(p) for p in text.split())
            regex = re.compile(pattern) if pattern else None
            m = regex.search(src, pos, block_end) if regex else None
            while m is not None and (skip := _skipped(spans, m.start())) is not None:
                m = regex.search(src, skip, block_end) if regex else None
            if m is None:
                return block[1] + 1, 1, None, None
            start, end = m.start(), m.end()
        block[0] = end
        line = bisect.bisect_right(self.line_starts, start)
        return line, start - self.line_starts[line - 1] + 1, start, end


def _skipped(spans: list[tuple[int, int]], at: int) -> int | None:
    """Where the skipped span holding ``at`` ends, or None when ``at`` is in none of
    ``spans`` (sorted, disjoint)."""
    i = bisect.bisect_right(spans, (at, sys.maxsize))
    if i and at < spans[i - 1][1]:  # spans[i - 1] starts at or before ``at``
        return spans[i - 1][1]
    return None


# What the linker never links, in the source: code spans, the labels of inline links and
# images and of full or collapsed reference links (a lone ``[…]`` may be a bracketed
# citation, ``[CR 116.1]``, so it is not skipped), autolinks and HTML ``<a>`` elements.
# An approximation of CommonMark's grammar: a place it misses is reported without offsets.
_SKIPPED = re.compile(
    r"(?P<ticks>`+)[\s\S]*?(?<!`)(?P=ticks)(?!`)"
    r"|!?\[(?:\\.|[^\\\[\]])*\](?:\((?:\\.|[^\\()])*\)|\[[^\]\n]*\])"
    r"|<[A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*>"
    r"|<a\b[^>]*>[\s\S]*?</a\s*>", re.IGNORECASE)
# Where a skipped span may start: the regex engine scans for a character class at memchr
# speed, and _SKIPPED is tried only there (tried at every character, its alternatives cost
# as much as rendering the text).
_SKIP_START = re.compile(r"[`!\[<]")
# What a link's or a reference link's span holds ("](", "]["): a pattern that starts with
# a literal is searched for at memchr speed, several times faster than ``str.find`` of
# each two-character needle.
_LINK_HINT = re.compile(r"\][(\[]")


def _may_skip(src: str, start: int, end: int) -> bool:
    """Whether ``src[start:end]`` may hold a span the linker skips: each holds a backtick, a
    ``<``, a ``](`` or a ``][``."""
    find = src.find
    return (find("`", start, end) >= 0 or find("<", start, end) >= 0
            or _LINK_HINT.search(src, start, end) is not None)


def _skipped_spans(src: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of ``src[start:end]`` that the linker skips (what ``_SKIPPED.finditer``
    finds there, tried only where one may start)."""
    if not _may_skip(src, start, end):
        return []  # most paragraphs hold none
    spans = []
    search, match = _SKIP_START.search, _SKIPPED.match
    hint = search(src, start, end)
    while hint is not None:
        at = hint.start()
        m = match(src, at, end)
        if m is None:
            hint = search(src, at + 1, end)
        else:
            spans.append((at, m.end()))
            hint = search(src, m.end(), end)
    return spans
