"""Which edition an article is linked against, and which it was written for.

The caller's ``ruleset``/``edition`` say what to link against; an article's front matter
(``ruleset: mtg``, ``edition: 2010-10-01``) says what it was written for. Without either,
the newest edition of each ruleset is a candidate and the resolver picks per citation.
When the article was written for an older edition than the one it is linked against,
numbers are carried across by the edition mapping (:mod:`kb.editions`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from kb.cite.resolve import Mapper
from kb.graph import RuleGraph
from kb.inputs import load_yaml
from kb.model import Diagnostic

if TYPE_CHECKING:
    from kb.query import KnowledgeBase


@dataclass
class LinkTarget:
    """The editions citations are resolved against, and how to reach them."""

    editions: list[RuleGraph]
    written_for: RuleGraph | None = None
    mapper: Mapper | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def single(self) -> RuleGraph | None:
        return self.editions[0] if len(self.editions) == 1 else None

    def describe(self) -> dict[str, Any]:
        one = self.single
        return {"ruleset": one.edition.ruleset if one else None,
                "edition": one.edition.name if one else None,
                "candidates": [f"{g.edition.ruleset} {g.edition.name}" for g in self.editions],
                "written_for": self.written_for.edition.name if self.written_for else None,
                "mapping": self.mapper is not None}


def parse_front_matter(text: str, source: str = "") -> tuple[dict[str, str], list[Diagnostic]]:
    """``ruleset`` and ``edition`` from YAML front matter (values read as strings, so
    ``edition: 1.10`` stays ``1.10``). Malformed YAML is a warning, never an error."""
    try:
        # Every scalar a string; 422 past input.nesting (the caller's refusal, not a warning).
        data = load_yaml(text, f"{source or 'the article'}'s front matter",
                         strings=True) if text.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        return {}, [Diagnostic(f"front matter is not valid YAML: {getattr(exc, 'problem', exc)}",
                               source, line, "warning")]
    if not isinstance(data, dict):
        return {}, [Diagnostic("front matter is not a mapping; ignored", source, 1, "warning")]
    pins = {k: str(data[k]).strip() for k in ("ruleset", "edition") if isinstance(data.get(k), str)}
    return {k: v for k, v in pins.items() if v}, []


def link_target(kb: KnowledgeBase, ruleset: str | None = None, edition: str | None = None,
                pins: dict[str, str] | None = None, source: str = "") -> LinkTarget:
    """Choose the editions to link against.

    The caller's ``ruleset``/``edition`` win (unknown ones raise ``QueryError`` 404); the
    front matter ``pins`` name the edition the article was written for (unknown ones are
    warnings). ``edition`` alone picks the ruleset that has an edition of that name.
    """
    pins = dict(pins or {})
    # The choice depends on these names only; it is kept for the life of the knowledge
    # base when it needs no warning (so only names that exist are kept: a bounded set).
    key = (ruleset, edition, pins.get("ruleset"), pins.get("edition"))
    chosen = kb.cached("cite:link-targets", dict)
    known = chosen.get(key)
    if known is not None:
        return LinkTarget(list(known.editions), known.written_for, known.mapper)
    target = _choose(kb, ruleset, edition, pins, source)
    if not target.diagnostics:
        chosen[key] = LinkTarget(list(target.editions), target.written_for, target.mapper)
    return target


def _choose(kb: KnowledgeBase, ruleset: str | None, edition: str | None, pins: dict[str, str],
            source: str) -> LinkTarget:
    from kb.errors import QueryError
    diags: list[Diagnostic] = []
    rulesets = [r["name"] for r in kb.rulesets()]
    if not rulesets:
        raise QueryError(503, "the knowledge base holds no editions")
    if pins.get("ruleset") and pins["ruleset"] not in rulesets:
        diags.append(Diagnostic(f"front matter names unknown ruleset {pins['ruleset']!r} "
                                f"(rulesets: {', '.join(rulesets)}); ignored", source, 1, "warning"))
        pins = {}
    if ruleset and pins.get("ruleset") and pins["ruleset"] != ruleset:
        diags.append(Diagnostic(f"front matter pins ruleset {pins['ruleset']!r}; linking against "
                                f"{ruleset!r} as asked, without its edition", source, 1, "warning"))
        pins = {}
    name = ruleset or pins.get("ruleset")
    if name is None and edition:
        having = [r for r in rulesets if (r, edition) in kb.graphs]
        if not having:
            raise QueryError(404, f"no ruleset has an edition {edition!r}", {"rulesets": rulesets})
        name = having[0]
    if name is None and pins.get("edition"):
        having = [r for r in rulesets if (r, pins["edition"]) in kb.graphs]
        name = having[0] if len(having) == 1 else None
    if name is None:
        return LinkTarget([kb.edition(r) for r in rulesets], diagnostics=diags)

    written_for = None
    if pins.get("edition"):
        if (name, pins["edition"]) in kb.graphs:
            written_for = kb.graphs[(name, pins["edition"])]
        else:
            diags.append(Diagnostic(
                f"front matter names unknown edition {pins['edition']!r} of {name} (editions: "
                + ", ".join(e["edition"] for e in kb.editions(name)) + "); the newest is used",
                source, 1, "warning"))
    if edition:
        target = kb.edition(name, edition)
    elif written_for is not None:
        target = written_for
    else:
        target = kb.edition(name)
    if written_for is None or written_for is target:
        return LinkTarget([target], diagnostics=diags)
    mapper = edition_mapper(kb, written_for, target)
    if mapper is None:
        diags.append(Diagnostic(
            f"the article was written for {name} {written_for.edition.name}; editions cannot be "
            f"compared yet, so its numbers are looked up unchanged in {target.edition.name}",
            source, 1, "warning"))
    return LinkTarget([target], written_for, mapper, diags)


def edition_mapper(kb: KnowledgeBase, source: RuleGraph, target: RuleGraph) -> Mapper | None:
    """The hook to :mod:`kb.editions`: a callable from a number of ``source`` to its
    number in ``target`` (None when the rule has no counterpart), or None when the
    knowledge base cannot compare editions. The mapping is the one every part of the
    product uses (``KnowledgeBase.edition_mapping``, composed through the editions in
    between and cached per build)."""
    mapping_of = getattr(kb, "edition_mapping", None)
    if mapping_of is None or source.edition.ruleset != target.edition.ruleset:
        return None
    mapping = mapping_of(source.edition.ruleset, source.edition.name, target.edition.name)

    def mapper(number: str) -> str | None:
        pair = mapping.get(number)
        return pair.target if pair is not None else None
    return mapper
