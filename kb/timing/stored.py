"""The timing models' citations carried into every edition, computed at build time.

A model cites the rules of one edition (``citation_edition``); in any other edition of its
ruleset its citations are carried through the mappings between neighbouring editions
(:func:`kb.timing.api.carried_citations`). Computed on first use, that read the two graphs
and followed every cited number through the editions in between: 0.5–2 s for an old
edition's first rule answer. A build computes it instead, for every edition of a ruleset in
one walk outwards from the cited edition over the stored rule texts and mappings
(:mod:`kb.objects`), and stores one JSON file per edition, which a server reads on the
edition's first use. Two or more steps away, a number whose chain of neighbours does not
stand (it lost the rule, or either end holds it at one number with one wording, which
:func:`kb.editions.mapping.bridge` pairs first) is asked of the bridged mapping, as
:class:`kb.editions.queries.FollowedMapping` asks it: only then are the two graphs read.

What is stored is exactly what :func:`kb.timing.api.carried_citations` computes from the
graphs (``tests/test_incremental_build.py`` compares them): the carried citations of each
name, and the cited rules with no counterpart (their status and the nearest ancestor's
counterpart). The stored files are one content-addressed object per ruleset
(:func:`citations_key`: the timing code and the content keys of the ruleset's editions in
order), so a build in which nothing changed reuses them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from types import SimpleNamespace

from kb.editions.mapping import Counterpart, EditionMapping, bridge, compose, no_counterpart_status, same_wording
from kb.graph import RuleGraph
from kb.numbers import NumberError, format_number, parse_number
from kb.objects import StoredMapping, StoredRules, code_version, read_mapping
from kb.timing.engine import FormatError
from kb.timing.models import get_model

# What the stored citations depend on besides the editions: the models' citation tables,
# this walk, and how mappings are composed.
CITATION_CODE = ("timing", "editions/mapping.py", "objects.py", "numbers.py")

Carried = tuple[dict[str, tuple[str, ...]], list[dict[str, Any]]]


def citations_key(ruleset: str, contents: list[str]) -> str | None:
    """The key of a ruleset's stored citations: the timing code and its editions' content
    keys in order (any edition added, removed or changed changes the chains); None for a
    ruleset without a timing model."""
    try:
        get_model(ruleset)
    except FormatError:
        return None
    text = ":".join([code_version(CITATION_CODE), ruleset, *contents])
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def assemble(citations: Mapping[str, Any], targets: Mapping[str, dict[str, Any]]) -> Carried:
    """The carried citations of each name and the citations with no counterpart, from where
    each cited number went (``target``, ``status``, ``nearest_target``)."""
    carried: dict[str, tuple[str, ...]] = {}
    gaps: list[dict[str, Any]] = []
    for name, rules in citations.items():
        carried[name] = tuple(dict.fromkeys(t for n in rules if (t := targets[n]["target"])))
        gaps += [{"name": name, "rule": n, "status": targets[n]["status"],
                  "nearest": targets[n].get("nearest_target")}
                 for n in rules if not targets[n]["target"]]
    return carried, gaps


def carry_ruleset(ruleset: str, editions: list[tuple[str, bool]], rules_file: Callable[[str], Path],
                  mapping_file: Callable[[str, str], Path],
                  graph: Callable[[str], RuleGraph] | None = None) -> dict[str, Carried]:
    """The model's citations carried to every edition of ``ruleset`` that has no tables of
    its own, keyed by edition, from the stored rule texts and neighbour mappings.

    ``editions`` are (name, partial) oldest first; ``rules_file(edition)`` and
    ``mapping_file(older, newer)`` name the stored files. Empty when the cited edition is
    not among them. Each cited number (and its ancestors, for the nearest counterpart) is
    followed outwards one step at a time, as :class:`kb.editions.queries.FollowedMapping`
    follows it, so every edition costs one lookup per number; ``graph(edition)`` reads a graph
    for the bridge (:func:`_bridged`), where a chain does not stand (without it, the chain's).
    """
    spec = get_model(ruleset)
    order = [name for name, _ in editions]
    partial = dict(editions)
    if spec.citation_edition not in order:
        return {}
    source = spec.citation_edition
    texts = StoredRules(rules_file(source))
    try:
        found: dict[str, tuple[str, list[str]] | str] = {}  # number: (canonical, ancestors) or why not
        for number in {n for rules in spec.citations.values() for n in rules}:
            found[number] = _find(texts, number, ruleset, source)
    finally:
        texts.close()
    followed = sorted({n for f in found.values() if isinstance(f, tuple) for n in (f[0], *f[1])})
    out: dict[str, Carried] = {}
    i = order.index(source)
    graphs: dict[str, RuleGraph] = {}

    def graph_of(edition: str) -> RuleGraph:
        if edition not in graphs:
            graphs[edition] = graph(edition)  # type: ignore[misc]
        return graphs[edition]

    for direction in (1, -1):
        state: dict[str, Counterpart | None] = {}
        chain: tuple[int, EditionMapping] | None = None  # composed from the source as far as index [0]
        for x in range(i, len(order) - 1 if direction == 1 else 0, direction):
            older, newer = (order[x], order[x + 1]) if direction == 1 else (order[x - 1], order[x])
            mapping = StoredMapping(mapping_file(older, newer))
            try:
                step = mapping.get if direction == 1 else mapping.back
                state = {n: step(n) if x == i else _then(state[n], step) for n in followed}
            finally:
                mapping.close()
            edition = order[x + direction]
            if spec.citations_for(edition) is None:
                answer = state
                if x != i and graph is not None:
                    unsettled = _unsettled(state, rules_file(source), rules_file(edition))
                    if unsettled:
                        chain = _extend(chain, order, i, x + direction, mapping_file)
                        bridged = bridge(chain[1], graph_of(source), graph_of(edition))
                        answer = {**state, **{n: bridged.get(n) for n in unsettled}}
                targets = {n: _target(f, answer, partial[edition], direction == -1) for n, f in found.items()}
                out[edition] = assemble(spec.citations, targets)
    return out


def _unsettled(state: Mapping[str, Counterpart | None], source: Path, target: Path) -> list[str]:
    """The numbers whose chain of neighbours is not the bridge's answer, as
    :meth:`kb.editions.queries.FollowedMapping._chain_stands` tells them: it lost the rule, or
    the rule's number or its counterpart's is held by both ends with one wording."""
    old, new = StoredRules(source), StoredRules(target)

    def rule(texts: StoredRules, number: str) -> Any:
        found = texts.rule(number)
        return SimpleNamespace(title=found["title"], text=found["text"]) if found else None
    try:
        return [n for n, c in state.items() if c is not None and (
            c.target is None or (c.target != c.number and any(
                same_wording(rule(old, k), rule(new, k)) for k in (c.number, c.target))))]
    finally:
        old.close()
        new.close()


def _extend(chain: tuple[int, EditionMapping] | None, order: list[str], source: int, to: int,
            mapping_file: Callable[[str, str], Path]) -> tuple[int, EditionMapping]:
    """The neighbours' mappings from ``order[source]`` to ``order[to]`` whole and composed
    (inverted walking back), as :func:`kb.editions.queries._chain_mapping` composes them:
    ``chain`` (composed as far as its index) taken further, so a walk composes each step once."""
    direction = 1 if to > source else -1
    at, result = chain if chain is not None else (source, None)
    for x in range(at, to, direction):
        older, newer = (order[x], order[x + 1]) if direction == 1 else (order[x - 1], order[x])
        m = read_mapping(mapping_file(older, newer))
        m = m if direction == 1 else m.inverse()
        result = m if result is None else result.then(m)
    assert result is not None
    return to, result


def _then(c: Counterpart | None, step: Callable[[str], Counterpart | None]) -> Counterpart | None:
    """One more step of :meth:`kb.editions.queries.FollowedMapping.get`."""
    if c is None:
        return None
    return compose(c, step(c.target) if c.target is not None else None)


def _find(texts: StoredRules, number: str, ruleset: str, edition: str) -> tuple[str, list[str]] | str:
    """A cited number's canonical form and ancestors (nearest first) in the cited edition,
    or the message :meth:`kb.loaded.LoadedEditions.find_rule` gives when it is not there."""
    try:
        segments = parse_number(number)
    except NumberError as exc:
        return str(exc)
    canonical = texts.find(segments)
    if canonical is None:
        wanted = format_number(segments, texts.edition.number_style)
        return f"rule {wanted} does not exist in {ruleset} {edition}"
    ancestors = []
    parent = texts.parent(canonical)
    while parent is not None:
        ancestors.append(parent)
        parent = texts.parent(parent)
    return canonical, ancestors


def _target(found: tuple[str, list[str]] | str, state: Mapping[str, Counterpart | None],
            partial: bool, earlier: bool) -> dict[str, Any]:
    """Where one cited number went, as :func:`kb.editions.queries.map_number` says it
    (``earlier``: the edition carried to is older than the cited one)."""
    if isinstance(found, str):
        return {"target": None, "status": "unknown", "reason": found}
    canonical, ancestors = found
    c = state[canonical]
    if c is not None and c.target is not None:
        return {"target": c.target, "status": "same" if c.target == canonical else "renumbered"}
    nearest = next(({"number": a, "target": t.target} for a in ancestors
                    if (t := state[a]) is not None and t.target is not None), None)
    return {"target": None, "status": no_counterpart_status(partial, earlier), "nearest_target": nearest}


def write_carried(carried: Carried, path: Path) -> None:
    """Store one edition's carried citations as JSON."""
    citations, gaps = carried
    path.write_text(json.dumps({"citations": citations, "gaps": gaps}, ensure_ascii=False), encoding="utf-8")


def read_carried(path: Path) -> Carried | None:
    """One edition's stored carried citations, or None when the build has none (an older
    build) or the file does not read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {k: tuple(v) for k, v in data["citations"].items()}, list(data["gaps"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
