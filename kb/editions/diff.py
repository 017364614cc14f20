"""Rule-by-rule differences between two editions, with word-level changes.

Every rule of either edition appears once, in the newer edition's order (a removed rule
sits after the nearest older rule that survived):

- ``unchanged``: same number, same wording;
- ``changed``: same number, different wording;
- ``moved``: a different number (``reworded`` tells whether the wording changed too, so
  renumber-only moves can be told apart from moves that also changed the text);
- ``added`` / ``removed``: no counterpart (see :mod:`kb.editions.mapping`).

Wording is compared word by word, case-insensitively, with quotes, dashes and the
underscores of 2010's italics folded, and with cited rule numbers translated through the
mapping: a reference that only followed its rule's renumbering is not a change of wording.

>>> [op["op"] for op in word_ops("Draw a card.", "Draw two cards.")]
['equal', 'replace', 'equal']
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from rapidfuzz.distance import Indel

from kb.editions.mapping import EditionMapping
from kb.graph import RuleGraph
from kb.model import Rule
from kb.numbers import format_number, try_parse_number

STATUSES = ("added", "removed", "changed", "moved", "unchanged")

# A cited rule number, a word, or one punctuation mark; underscores are not tokens.
_CITED = r"(?<![\w.])\d{3}(?!\d)(?:\.(?:\d+[a-z]?|[a-z])(?!\w))*"
_TOKEN = re.compile(_CITED + r"|[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_NUMBER = re.compile(r"\d{3}(?:\.|$)")
_CITED_NUMBER = re.compile(_CITED)  # the tokens of _TOKEN that are rule numbers

Translate = Callable[[str], str | None]


def display_text(rule: Rule) -> str:
    """A rule as a reader sees it: its title or text, then its examples."""
    parts = [p for p in (rule.title, rule.text) if p]
    parts += [f"Example: {e}" for e in rule.examples]
    return " ".join(parts)


def _tokens(text: str) -> list[re.Match[str]]:
    return list(_TOKEN.finditer(text))


def _key(token: str, translate: Translate | None) -> str:
    if _NUMBER.match(token) and translate is not None:
        mapped = translate(token)
        if mapped is not None:
            return "#" + mapped
    return token.lower().translate(_FOLD)


def word_ops(old: str, new: str, translate_old: Translate | None = None,
             translate_new: Translate | None = None) -> list[dict[str, str]]:
    """Word-level differences between two texts as a list of segments.

    Each segment is ``{"op": equal|delete|insert|replace, "old": …, "new": …}``; joining
    the ``old`` parts gives back ``old`` exactly, and the ``new`` parts give ``new``. The
    translate functions give cited rule numbers a comparable form (see the module doc).
    """
    ot, nt = _tokens(old), _tokens(new)
    ok = [_key(m.group(), translate_old) for m in ot]
    nk = [_key(m.group(), translate_new) for m in nt]
    o_cut = _cuts(ot, len(old))
    n_cut = _cuts(nt, len(new))
    out: list[dict[str, str]] = []
    for op in Indel.opcodes(ok, nk):
        seg = {"op": op.tag, "old": old[o_cut[op.src_start]:o_cut[op.src_end]],
               "new": new[n_cut[op.dest_start]:n_cut[op.dest_end]]}
        prev = out[-1] if out else None
        if prev and {prev["op"], seg["op"]} <= {"delete", "insert", "replace"} and prev["op"] != "equal":
            prev["op"] = "replace"
            prev["old"] += seg["old"]
            prev["new"] += seg["new"]
        else:
            out.append(seg)
    for seg in out:
        if seg["op"] == "replace" and not seg["old"]:
            seg["op"] = "insert"
        elif seg["op"] == "replace" and not seg["new"]:
            seg["op"] = "delete"
    if not out and (old or new):
        out.append({"op": "equal", "old": old, "new": new})
    return out


def _cuts(tokens: list[re.Match[str]], length: int) -> list[int]:
    """Segment boundaries: token k's segment runs from cut k to cut k+1 (the text before
    the first token belongs to it, the text after the last one too)."""
    cuts = [m.start() for m in tokens] + [length]
    if cuts:
        cuts[0] = 0
    return cuts


def reworded(ops: Iterable[dict[str, str]]) -> bool:
    """True when the word-level segments contain any change."""
    return any(seg["op"] != "equal" for seg in ops)


def wording_change(old: str, new: str, translate_old: Translate | None = None,
                   translate_new: Translate | None = None) -> list[dict[str, str]] | None:
    """The word-level changes between two texts (:func:`word_ops`), or None when the
    wording is the same. A text kept character for character is the same wording unless a
    rule number it cites now names another rule; it is told so without a word diff, which
    is what most of the rules of two neighbouring editions need (a step between two 2025
    Magic editions: 2,977 of 3,160 pairs)."""
    if old == new and _numbers_agree(old, translate_old, translate_new):
        return None
    ops = word_ops(old, new, translate_old, translate_new)
    return ops if reworded(ops) else None


def _numbers_agree(text: str, translate_old: Translate | None, translate_new: Translate | None) -> bool:
    """Whether every rule number cited in ``text`` compares the same read in either edition."""
    return all(_key(m.group(), translate_old) == _key(m.group(), translate_new)
               for m in _CITED_NUMBER.finditer(text))


def number_translators(old: RuleGraph, new: RuleGraph,
                       mapping: EditionMapping) -> tuple[Translate, Translate]:
    """Functions that give a rule number cited in the old or the new edition one comparable
    form: the new edition's canonical number (old numbers go through the mapping)."""
    style = new.edition.number_style

    def from_old(token: str) -> str | None:
        segs = try_parse_number(token)
        found = old.find(segs) if segs else None
        if found is None:
            # A number neither edition holds (an excerpt's gap) compares as written, as in from_new.
            return format_number(segs, style) if segs else None
        c = mapping.get(found)
        return c.target if c and c.target else f"old:{found}"

    def from_new(token: str) -> str | None:
        segs = try_parse_number(token)
        found = new.find(segs) if segs else None
        return found if found else (format_number(segs, style) if segs else None)

    return from_old, from_new


def chapter_of(rg: RuleGraph, number: str) -> str:
    """The outermost ancestor of a rule (its chapter), or the rule itself at the top."""
    rules = rg.edition.rules
    while rules[number].parent is not None:
        number = rules[number].parent  # type: ignore[assignment]
    return number


def diff_editions(old: RuleGraph, new: RuleGraph, mapping: EditionMapping) -> dict[str, Any]:
    """Every rule of both editions with its status, numbers, texts and word-level changes,
    plus counts overall and per chapter (see the module docstring)."""
    from_old, from_new = number_translators(old, new, mapping)
    old_rules, new_rules = old.edition.rules, new.edition.rules
    entries_by_new: dict[str, dict[str, Any]] = {}
    removed_after: dict[str | None, list[dict[str, Any]]] = {}
    last_kept: str | None = None
    for number, rule in old_rules.items():
        c = mapping.get(number)
        if c is None or c.target is None or c.target not in new_rules:
            entry = _entry("removed", rule, None, old, new)
            entry["confidence"] = c.confidence if c else None
            removed_after.setdefault(last_kept, []).append(entry)
            continue
        target = new_rules[c.target]
        old_text, new_text = display_text(rule), display_text(target)
        ops = wording_change(old_text, new_text, from_old, from_new)
        changed = ops is not None
        renumbered = rule.number != target.number
        status = "moved" if renumbered else "changed" if changed else "unchanged"
        entry = _entry(status, rule, target, old, new)
        entry.update({"reworded": changed, "renumbered": renumbered, "confidence": c.confidence,
                      "similarity": c.similarity, "method": c.method,
                      "ops": ops})
        entries_by_new[target.number] = entry
        last_kept = target.number
    entries: list[dict[str, Any]] = list(removed_after.get(None, []))
    for number, rule in new_rules.items():
        entry = entries_by_new.get(number) or _entry("added", None, rule, old, new)
        entries.append(entry)
        entries.extend(removed_after.get(number, []))
    return {
        "ruleset": new.edition.ruleset,
        "from": _edition_info(old),
        "to": _edition_info(new),
        "summary": summarise(entries, len(old_rules), len(new_rules)),
        "chapters": _chapters(entries, old, new, mapping),
        "entries": entries,
    }


def _edition_info(rg: RuleGraph) -> dict[str, Any]:
    ed = rg.edition
    return {"edition": ed.name, "date": ed.date, "title": ed.title, "partial": ed.partial}


def _entry(status: str, old_rule: Rule | None, new_rule: Rule | None,
           old: RuleGraph, new: RuleGraph) -> dict[str, Any]:
    rule = new_rule or old_rule
    assert rule is not None
    return {
        "status": status,
        "kind": rule.kind,
        "old_number": old_rule.number if old_rule else None,
        "new_number": new_rule.number if new_rule else None,
        "old_text": display_text(old_rule) if old_rule else None,
        "new_text": display_text(new_rule) if new_rule else None,
        "old_chapter": chapter_of(old, old_rule.number) if old_rule else None,
        "new_chapter": chapter_of(new, new_rule.number) if new_rule else None,
        "reworded": status in ("added", "removed"),
        "renumbered": False,
        "confidence": None,
        "similarity": None,
        "method": None,
        "ops": None,
    }


def summarise(entries: Iterable[dict[str, Any]], old_total: int | None = None,
              new_total: int | None = None) -> dict[str, int]:
    """Counts per status, with moves split into renumber-only and reworded."""
    counts = dict.fromkeys(STATUSES, 0)
    counts.update({"renumbered_only": 0, "moved_reworded": 0})
    for e in entries:
        counts[e["status"]] += 1
        if e["status"] == "moved":
            counts["moved_reworded" if e["reworded"] else "renumbered_only"] += 1
    if old_total is not None:
        counts["old_total"] = old_total
    if new_total is not None:
        counts["new_total"] = new_total
    return counts


def _chapters(entries: list[dict[str, Any]], old: RuleGraph, new: RuleGraph,
              mapping: EditionMapping) -> list[dict[str, Any]]:
    def target_of(chapter: str) -> str | None:
        c = mapping.get(chapter)
        return c.target if c else None

    def title_of(side: str, number: str) -> str:
        return (new if side == "new" else old).edition.rules[number].label

    return chapter_counts(entries, target_of, title_of, {n: r.order for n, r in new.edition.rules.items()},
                          new.edition.name, old.edition.name)


def chapter_counts(entries: list[dict[str, Any]], target_of: Callable[[str], str | None],
                   title_of: Callable[[str, str], str], order: dict[str, int],
                   newer: str, older: str) -> list[dict[str, Any]]:
    """Counts per chapter of the newer edition (``order``: its rules' reading order); a
    removed rule counts under the newer counterpart of its old chapter (``target_of``), or
    under its old chapter when that is gone too. ``title_of(side, number)`` is a chapter's
    title in the "new" or "old" edition: a diff of two graphs and a step the build stored
    (:mod:`kb.editions.lineage`) count the same way."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for e in entries:
        if e["new_chapter"] is not None:
            key = ("new", e["new_chapter"])
        else:
            target = target_of(e["old_chapter"])
            key = ("new", target) if target else ("old", e["old_chapter"])
        row = rows.get(key)
        if row is None:
            row = rows[key] = {"chapter": key[1], "edition": newer if key[0] == "new" else older,
                               "title": title_of(*key), **dict.fromkeys(STATUSES, 0), "renumbered_only": 0}
        row[e["status"]] += 1
        if e["status"] == "moved" and not e["reworded"]:
            row["renumbered_only"] += 1
    return sorted(rows.values(), key=lambda r: (r["edition"] != newer, order.get(r["chapter"], 0)))


def select(diff: dict[str, Any], *, only: Iterable[str] | None = None, chapter: str | None = None,
           old: RuleGraph | None = None, new: RuleGraph | None = None,
           mapping: EditionMapping | None = None, unchanged: bool = False) -> list[dict[str, Any]]:
    """The entries of a diff filtered by status and by chapter (or any heading).

    A heading is read in the newer edition's numbering when it exists there: an entry
    belongs to it when its new rule lies under it, and a removed rule when its old
    parent's counterpart does. A heading only the older edition has selects by the older
    numbering.
    """
    wanted = set(only) if only else set(STATUSES) - ({"unchanged"} if not unchanged else set())
    out = [e for e in diff["entries"] if e["status"] in wanted]
    if chapter is None:
        return out
    if new is None or old is None:
        raise ValueError("selecting a chapter needs both editions")

    def under(rg: RuleGraph, number: str | None) -> bool:
        return number is not None and (number == chapter or chapter in rg.ancestors(number))

    if chapter not in new.edition.rules:
        return [e for e in out if under(old, e["old_number"])]

    def removed_under(number: str | None) -> bool:
        if number is None or mapping is None:
            return False
        for ancestor in reversed(old.ancestors(number)):
            c = mapping.get(ancestor)
            if c is not None and c.target is not None:
                return under(new, c.target)
        return False

    return [e for e in out if under(new, e["new_number"])
            or (e["new_number"] is None and removed_under(e["old_number"]))]
