"""Render resolved citations: links to the rules browser, numbered footnotes carrying each
rule's full text (the lessons' style), hover previews, and Markdown output.

Rule text is always escaped. Links point to the browser's canonical URLs,
``{base_url}/{ruleset}/{edition}/{number}``.

>>> rule_url("riftbound", "1.4", "337.1.a")
'/riftbound/1.4/337.1.a'
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple
from urllib.parse import quote, urlsplit

from markdown_it.common.utils import escapeHtml

from kb.cite.resolve import CitedRule, Resolution
from kb.errors import QueryError

Style = Literal["footnotes", "preview"]
STYLES: tuple[str, ...] = ("footnotes", "preview")
OPEN_LABEL = "Open in the rules browser"
PREVIEW_CHARS = 600
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~&!])")


def check_base_url(base_url: str) -> str:
    """``base_url`` if links may start with it: an ``http(s)://host…`` URL, a relative path
    (``/rules``, ``../site``) or nothing; anything else raises ``QueryError`` 400. A link
    written into an article must not run script (``javascript:``, ``data:``) or leave for
    another host by a scheme-relative ``//host``, a backslash (which browsers read as a
    slash) or characters browsers drop from URLs (controls, spaces)."""
    bad = None
    if not isinstance(base_url, str):
        bad = "must be a string"
    elif re.search(r"[\x00-\x20\x7f\\]", base_url):
        bad = "must not hold spaces, control characters or backslashes"
    else:
        try:
            parts = urlsplit(base_url)
        except ValueError:  # "http://[x": a bracketed host that is no IPv6 address
            parts = None
        if parts is None:
            bad = "is not a URL that can be parsed"
        elif parts.scheme:
            if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
                bad = "must be an http(s) URL or a relative path"
        elif base_url.startswith("//"):
            bad = "must name its scheme (http or https) or be a relative path"
        elif ":" in base_url.split("/", 1)[0]:  # "javascript&colon;" and kin, unparsed
            bad = "must be an http(s) URL or a relative path"
    if bad is not None:
        shown = base_url[:100] if isinstance(base_url, str) else type(base_url).__name__
        raise QueryError(400, f"base_url {bad} (got {shown!r})", {"base_url": shown})
    return base_url


@functools.lru_cache(maxsize=8192)
def rule_url(ruleset: str, edition: str, number: str, base_url: str = "") -> str:
    """The rules browser's canonical URL of a rule (``base_url`` checked by
    :func:`check_base_url`: every link the linker writes is made here)."""
    if base_url:
        check_base_url(base_url)
    if _URL_SAFE.fullmatch(ruleset + edition + number):  # what quote leaves as it is: most names
        parts = f"{ruleset}/{edition}/{number}"
    else:
        parts = "/".join(quote(p, safe=".-_") for p in (ruleset, edition, number))
    return f"{base_url.rstrip('/')}/{parts}"


# The characters urllib.parse.quote never escapes (its letters, digits and "_.-~").
_URL_SAFE = re.compile(r"[A-Za-z0-9_.~-]*")


def rule_heading(rule: CitedRule, named: bool = False) -> str:
    """``Rule 337.1.a.``, the words a footnote starts with; ``named``, with its ruleset and
    edition (``Rule 116.1 of mtg 2026-01-16.``: a rule of another edition than the article's)."""
    return f"Rule {rule.number} of {rule.ruleset} {rule.edition}." if named else f"Rule {rule.number}."


def preview_text(rule: CitedRule, limit: int = PREVIEW_CHARS) -> str:
    """Plain text of a hover preview: ``Rule 312. At any given time, …``."""
    text = f"{rule_heading(rule)} {rule.body}"
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _footnote_html(rule: CitedRule) -> tuple[str, str]:
    """The escaped parts of a rule's footnote that depend on the rule alone (its number,
    text and examples), made once per rule rather than once per article: kept by the rule
    object's identity, each value holding its rule (hashing a ``CitedRule`` runs its
    dataclass ``__hash__`` over seven fields; an edition's cited rules are made once, and a
    rebuilt edition's are new objects)."""
    kept = _FOOTNOTE_HTML.get(id(rule))
    if kept is not None and kept[0] is rule:
        return kept[1]
    text_html = _footnote_text_html(rule, False)
    examples_html = "".join([f'<p class="rule-example">Example: {escapeHtml(ex)}</p>'
                             for ex in rule.examples])
    if len(_FOOTNOTE_HTML) >= _MAX_FOOTNOTE_HTML:
        _FOOTNOTE_HTML.clear()  # bounded: a rule comes back at its next footnote
    _FOOTNOTE_HTML[id(rule)] = (rule, (text_html, examples_html))
    return text_html, examples_html


def _footnote_text_html(rule: CitedRule, named: bool) -> str:
    """A footnote's opening tag's rest and its paragraph up to the link to the browser
    (``named``: its heading names the rule's ruleset and edition, :func:`rule_heading`)."""
    return (f' class="rule-footnote" data-rule="{escapeHtml(rule.number)}">'
            f'<p><span class="rule-footnote-number">{escapeHtml(rule_heading(rule, named))}</span> '
            f'<span class="rule-footnote-text">{escapeHtml(rule.body)}</span> ')


_FOOTNOTE_HTML: dict[int, tuple[CitedRule, tuple[str, str]]] = {}
_MAX_FOOTNOTE_HTML = 4096


def _footnote_parts(rule: CitedRule, url: str) -> tuple[CitedRule, str, str, str, dict[str, Any]]:
    """What a footnote of ``rule`` linking to ``url`` shows that its place in an article
    does not change: ``(rule, url, its text and link to the browser, its examples, its
    report entry with the index left 0)``, made once per rule rather than once per
    article's footnote, kept by the rule object's identity as :func:`_footnote_html`'s."""
    kept = _FOOTNOTE_PARTS.get(id(rule))
    if kept is not None and kept[0] is rule and kept[1] == url:
        return kept
    text_html, examples_html = _footnote_html(rule)
    kept = (rule, url, text_html + _open_link(url), examples_html,
            {"index": 0, "ruleset": rule.ruleset, "edition": rule.edition, "number": rule.number,
             "text": rule.body, "url": url})
    if len(_FOOTNOTE_PARTS) >= _MAX_FOOTNOTE_HTML:
        _FOOTNOTE_PARTS.clear()  # bounded: a rule comes back at its next footnote
    _FOOTNOTE_PARTS[id(rule)] = kept
    return kept


_FOOTNOTE_PARTS: dict[int, tuple[CitedRule, str, str, str, dict[str, Any]]] = {}


def _rule_note(rule: CitedRule, base_url: str) -> tuple[CitedRule, str, tuple[str, str, str], str,
                                                        tuple[CitedRule, str, str, str, dict[str, Any]]]:
    """What a rule's first reference in an article needs that no article changes:
    ``(rule, base_url, its key, its URL, its footnote's parts)`` (:func:`_footnote_parts`),
    kept by the rule object's identity as :func:`_footnote_html`'s: one lookup instead of
    the key, the URL's and the parts' caches at each footnote made."""
    kept = _RULE_NOTES.get(id(rule))
    if kept is not None and kept[0] is rule and kept[1] == base_url:
        return kept
    url = rule_url(rule.ruleset, rule.edition, rule.number, base_url)
    kept = (rule, base_url, (rule.ruleset, rule.edition, rule.number), url, _footnote_parts(rule, url))
    if len(_RULE_NOTES) >= _MAX_FOOTNOTE_HTML:
        _RULE_NOTES.clear()  # bounded: a rule comes back at its next footnote
    _RULE_NOTES[id(rule)] = kept
    return kept


_RULE_NOTES: dict[int, tuple[CitedRule, str, tuple[str, str, str], str,
                             tuple[CitedRule, str, str, str, dict[str, Any]]]] = {}
# The end of a footnote's back link to a reference (its start names the reference's id).
_BACK_TAIL = '" class="rule-footnote-backref" aria-label="Back to citation">↩︎</a>'


class Numbered(NamedTuple):
    """The HTML of footnote ``index`` that depends on its number (and the ids' prefix)
    alone, the same in every article: made once per number, not once per article's
    footnote (:func:`numbered`)."""

    ref_head: str  # a reference to it before its ordinal (``ref_id``'s id, "-2" and on)
    ref_tail: str  # … and after it
    first_ref: str  # the first reference (no ordinal): ref_head + ref_tail
    after_link: str  # a citation's closing ``</a>`` and the first reference, joined
    item: str  # the section's opening ``<li id=…``
    back_head: str  # the start of each back link to a reference
    one_back: str  # the back link of a footnote cited once


def numbered(prefix: str, index: int) -> Numbered:
    """:class:`Numbered` of footnote ``index`` with ids starting ``prefix``: a list lookup
    (a footnote's first reference and its item ask, once per cited rule of each article).
    The first :data:`_MAX_NUMBERED` numbers of :data:`_MAX_PREFIXES` prefixes are kept."""
    table = _NUMBERED.get(prefix)
    if table is not None and index < len(table):
        return table[index]
    if index >= _MAX_NUMBERED:
        return _numbered(prefix, index)
    # Under the lock: two renders filling one list at once would each append the same
    # number, and every later number would read the one before's HTML.
    with _NUMBERED_LOCK:
        table = _NUMBERED.get(prefix)
        if table is None:
            if len(_NUMBERED) >= _MAX_PREFIXES:
                _NUMBERED.clear()  # bounded: a prefix comes back at its next footnote
            table = _NUMBERED[prefix] = []
        while len(table) <= index:  # numbers are asked for in order: one made at a time
            table.append(_numbered(prefix, len(table)))
        return table[index]


def _numbered(prefix: str, index: int) -> Numbered:
    head, tail = (f'<sup class="rule-footnote-ref"><a href="#{prefix}-{index}" id="{prefix}ref-{index}',
                  f'">{index}</a></sup>')
    back = f'<a href="#{prefix}ref-{index}'
    return Numbered(head, tail, head + tail, "</a>" + head + tail, f'<li id="{prefix}-{index}"', back,
                    back + _BACK_TAIL)


_NUMBERED: dict[str, list[Numbered]] = {}  # numbered's: a prefix -> each number's, from 0
_NUMBERED_LOCK = threading.Lock()
_MAX_NUMBERED = 4096
_MAX_PREFIXES = 64


@functools.lru_cache(maxsize=4096)
def _back_links(prefix: str, index: int, refs: int) -> str:
    """The back links of footnote ``index`` to its ``refs`` references (more than one),
    the first without an ordinal (``ref_id``'s ids)."""
    known = numbered(prefix, index)
    head = known.back_head
    return f"{known.one_back} {head}-" + f"{_BACK_TAIL} {head}-".join(map(str, range(2, refs + 1))) + _BACK_TAIL


@functools.lru_cache(maxsize=8192)
def _open_link(url: str) -> str:
    """A footnote's link to its rule in the rules browser, escaped once per URL."""
    return f'<a class="rule-open" href="{escapeHtml(url)}">{OPEN_LABEL}</a> '


@dataclass(slots=True)
class Footnote:
    """One cited rule at the foot of the article; cited ``refs`` times. ``numbered`` is the
    HTML of its number (:func:`numbered`: its references, its item, its back links)."""

    index: int
    rule: CitedRule
    url: str
    refs: int = 0
    numbered: Numbered = Numbered("", "", "", "", "", "", "")
    # _footnote_parts(rule, url), found when the footnote is made (the section and the
    # report read it; empty: looked up then).
    parts: tuple[Any, ...] = ()


@dataclass
class Footnotes:
    """Numbers the cited rules in the order they are first cited; a rule cited again
    gets the same number."""

    base_url: str = ""
    prefix: str = "rule-fn"
    # The (ruleset, edition) the article is linked against, when one: a footnote of a rule
    # of another names the rule's (rule_heading); None, no footnote does.
    home: tuple[str, str] | None = None
    entries: list[Footnote] = field(default_factory=list)
    _by_key: dict[tuple[str, str, str], Footnote] = field(default_factory=dict)
    # The footnote of each rule object cited (an edition's cited rules are made once), kept
    # with the object, so that a reused id is never mistaken for it: no key built per reference.
    _by_rule: dict[int, tuple[CitedRule, Footnote]] = field(default_factory=dict)

    def cite(self, rule: CitedRule) -> tuple[Footnote, int]:
        """Record one more reference to ``rule``; returns its footnote and the reference's ordinal."""
        key = rule.key
        note = self._by_key.get(key) or self._add(rule, key)
        note.refs += 1
        return note, note.refs

    def ref(self, rule: CitedRule) -> tuple[Footnote, str]:
        """Record one more reference to ``rule``; returns its footnote and the reference's
        HTML (:meth:`cite` and :meth:`ref_html` in one, as the linker calls them once per
        citation)."""
        known = self._by_rule.get(id(rule))
        if known is not None and known[0] is rule:
            note = known[1]
            note.refs += 1
        else:  # the rule object's first reference in this article
            note = self.first_ref(rule)
            self._by_rule[id(rule)] = (rule, note)
        return note, self.ref_html(note, note.refs)

    def first_ref(self, rule: CitedRule) -> Footnote:
        """:meth:`ref` for a caller that references each rule object once (kb.cite.mdit: the
        later places citing it reuse the footnote it returns), without ``ref``'s lookup by
        object: ``rule``'s footnote, its references counted. The HTML of this reference is
        the footnote number's first (:class:`Numbered`) when ``refs`` is 1, else
        :meth:`ref_html` (another object of the same rule was referenced before)."""
        kept = _RULE_NOTES.get(id(rule))  # _rule_note, its kept case inlined
        if kept is None or kept[0] is not rule or kept[1] != self.base_url:
            kept = _rule_note(rule, self.base_url)
        note = self._by_key.get(kept[2])
        if note is None:  # _add, inlined, the footnote's first reference counted
            index = len(self.entries) + 1
            note = Footnote(index, rule, kept[3], 1, numbered(self.prefix, index), kept[4])
            self._by_key[kept[2]] = note
            self.entries.append(note)
        else:
            note.refs += 1
        return note

    def _add(self, rule: CitedRule, key: tuple[str, str, str], url: str | None = None,
             parts: tuple[Any, ...] = ()) -> Footnote:
        index = len(self.entries) + 1
        if url is None:
            url = rule_url(rule.ruleset, rule.edition, rule.number, self.base_url)
        note = Footnote(index, rule, url, 0, numbered(self.prefix, index), parts)
        self._by_key[key] = note
        self.entries.append(note)
        return note

    def ref_id(self, note: Footnote, ordinal: int) -> str:
        return f"{self.prefix}ref-{note.index}" + (f"-{ordinal}" if ordinal > 1 else "")

    def ref_html(self, note: Footnote, ordinal: int) -> str:
        """The HTML of the ``ordinal``-th reference to ``note``."""
        number = note.numbered
        return f"{number.ref_head}-{ordinal}{number.ref_tail}" if ordinal > 1 else number.first_ref

    def html(self) -> str:
        """The footnote section: each rule's full text and a link to the rules browser."""
        if not self.entries:
            return ""
        prefix = self.prefix
        home = self.home
        out = ['<section class="rule-footnotes">\n<ol class="rule-footnotes-list">\n']
        for note in self.entries:
            kept = note.parts or _footnote_parts(note.rule, note.url)
            # The back links to each reference (ref_id's ids).
            refs = note.refs
            number = note.numbered
            back = number.one_back if refs == 1 else _back_links(prefix, note.index, refs) if refs else ""
            rule = note.rule
            # self._named(rule), inlined
            if home is None or (rule.ruleset == home[0] and rule.edition == home[1]):
                text = kept[2]
            else:
                text = _footnote_text_html(rule, True) + _open_link(note.url)
            # The item's pieces joined once with the section's, not into a string of its own
            # (most are longer than the small-object allocator's 512 bytes).
            out += (number.item, text, back, "</p>", kept[3], "</li>\n")
        out.append("</ol>\n</section>\n")
        return "".join(out)

    def _named(self, rule: CitedRule) -> bool:
        """Whether ``rule``'s footnote names its ruleset and edition: not the article's."""
        home = self.home
        return home is not None and (rule.ruleset != home[0] or rule.edition != home[1])

    def report(self) -> list[dict[str, Any]]:
        """The footnotes as the report lists them (``index``, ``ruleset``, ``edition``,
        ``number``, ``text``, ``url``), each dict the caller's own."""
        out = []
        for note in self.entries:
            entry = (note.parts or _footnote_parts(note.rule, note.url))[4].copy()
            entry["index"] = note.index
            out.append(entry)
        return out

    def markdown(self) -> str:
        """The same footnotes as Markdown footnote definitions (``[^rule-fn-1]: …``)."""
        lines = []
        for note in self.entries:
            rule = note.rule
            body = md_escape(f"{rule_heading(rule, self._named(rule))} {rule.body}")
            lines.append(f"[^{self.prefix}-{note.index}]: {body} [{OPEN_LABEL}]({note.url})")
            lines.extend(f"    Example: {md_escape(ex)}" for ex in rule.examples)
        return "\n".join(lines) + ("\n" if lines else "")


def citation_attrs(res: Resolution, style: Style, base_url: str = "") -> dict[str, str]:
    """Attributes of a citation's element: an ``<a>`` when it points at rules, a ``<span>``
    (marked broken) when it does not."""
    attrs: dict[str, str] = {}
    classes = ["rule-citation"]
    if res.linked:
        first = res.rules[0]
        attrs["href"] = rule_url(first.ruleset, first.edition, first.number, base_url)
        attrs["data-rule"] = first.number
        attrs["data-ruleset"] = first.ruleset
        attrs["data-edition"] = first.edition
        if res.status != "ok":
            classes.append(f"rule-citation-{res.status.replace('_', '-')}")
        if style == "preview":
            attrs["title"] = "\n".join(preview_text(r) for r in res.rules[:3])
            if res.message:
                attrs["title"] += "\n(" + res.message + ")"
        elif res.message:
            attrs["title"] = res.message
    else:
        classes.append("rule-citation-broken")
        attrs["title"] = res.message
    attrs["class"] = " ".join(classes)
    attrs["data-status"] = res.status
    return {"class": attrs.pop("class"), **attrs}


def element_html(res: Resolution, inner_html: str, style: Style, base_url: str = "") -> str:
    attrs = citation_attrs(res, style, base_url)
    tag = "a" if "href" in attrs else "span"
    rendered = "".join(f' {k}="{escapeHtml(v)}"' for k, v in attrs.items())
    return f"<{tag}{rendered}>{inner_html}</{tag}>"


def annotate(text: str, resolutions: Sequence[Resolution], *, style: Style = "footnotes",
             base_url: str = "", prefix: str = "rule-fn", escape: bool = True) -> str:
    """HTML of a plain text with its citations linked (offsets are into ``text``).

    The text between citations is escaped unless ``escape`` is False (the caller vouches
    for it); footnotes follow in the ``footnotes`` style.
    """
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r} (styles: {', '.join(STYLES)})")
    notes = Footnotes(base_url, prefix)
    out, pos = [], 0
    esc = escapeHtml if escape else (lambda s: s)
    for res in sorted(resolutions, key=lambda r: r.citation.start):
        c = res.citation
        if c.start < pos or res.status == "over_limit":
            continue
        out.append(esc(text[pos:c.start]))
        out.append(element_html(res, esc(text[c.start:c.end]), style, base_url))
        if style == "footnotes" and res.linked:
            out.extend(notes.ref(r)[1] for r in res.rules)
        pos = c.end
    out.append(esc(text[pos:]))
    return "".join(out) + ("\n" + notes.html() if notes.entries else "")


def annotate_markdown(source: str, placed: Sequence[tuple[int, int, Resolution]], *,
                      style: Style = "footnotes", base_url: str = "",
                      prefix: str = "rule-fn", home: tuple[str, str] | None = None) -> str:
    """Markdown with citations turned into Markdown links (and footnote references), the
    footnotes appended as definitions. ``placed`` gives each citation's span in ``source``;
    ``home``, the (ruleset, edition) the article is linked against: a footnote of a rule of
    another names the rule's (:class:`Footnotes`)."""
    notes = Footnotes(base_url, prefix, home)
    out, pos = [], 0
    for start, end, res in sorted(placed, key=lambda p: p[0]):
        if start < pos or not res.linked:
            continue
        first = res.rules[0]
        url = rule_url(first.ruleset, first.edition, first.number, base_url)
        title = ""
        if style == "preview":
            title = ' "' + preview_text(first).replace("\\", "\\\\").replace('"', '\\"') + '"'
        label = source[start:end].replace("[", "\\[").replace("]", "\\]")
        out.append(source[pos:start] + f"[{label}](<{url}>{title})")
        if style == "footnotes":
            out.extend(f"[^{prefix}-{notes.cite(r)[0].index}]" for r in res.rules)
        pos = end
    out.append(source[pos:])
    body = "".join(out)
    if notes.entries:
        body = body.rstrip("\n") + "\n\n" + notes.markdown()
    return body


def md_escape(text: str) -> str:
    """Escape text so Markdown shows it literally."""
    return _MD_SPECIAL.sub(r"\\\1", text)
