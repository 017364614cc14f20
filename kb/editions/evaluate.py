"""Measuring a mapping against a hand-labelled sample of rule pairs.

A sample is a YAML file: ``ruleset``, ``from``, ``to`` and ``pairs`` (old number → new
number, or null for a rule the newer edition dropped). Precision is the share of the
mapper's answers for sampled rules that are right (a pair where the label says "removed"
counts against it); recall is the share of labelled pairs the mapper found.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from kb.editions.mapping import ANYWHERE, EditionMapping, normalise, rule_wording, similarity
from kb.graph import RuleGraph


@dataclass
class Sample:
    """Labelled counterparts of rules of one edition in another."""

    ruleset: str
    source: str
    target: str
    pairs: dict[str, str | None]
    path: str = ""


@dataclass
class Score:
    """How a mapping fares on a sample."""

    labelled: int = 0
    true_pairs: int = 0      # labelled with a counterpart
    answered: int = 0        # the mapping gave a counterpart
    correct: int = 0         # ... and it is the labelled one
    removed_right: int = 0   # labelled removed and reported removed
    errors: list[dict[str, Any]] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.correct / self.answered if self.answered else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.true_pairs if self.true_pairs else 1.0

    def as_dict(self) -> dict[str, Any]:
        return {"labelled": self.labelled, "pairs": self.true_pairs, "answered": self.answered,
                "correct": self.correct, "removed_right": self.removed_right,
                "precision": round(self.precision, 4), "recall": round(self.recall, 4),
                "errors": self.errors}


def load_sample(path: Path) -> Sample:
    """Read a labelled sample; numbers are kept as written (quote them in YAML)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    pairs = {str(k): (None if v is None else str(v)) for k, v in data["pairs"].items()}
    return Sample(data["ruleset"], str(data["from"]), str(data["to"]), pairs, str(path))


def score(mapping: EditionMapping, sample: Sample) -> Score:
    """Compare a mapping's answers with the labels of a sample."""
    out = Score()
    for old, expected in sample.pairs.items():
        out.labelled += 1
        found = mapping.get(old)
        got = found.target if found else None
        if expected is not None:
            out.true_pairs += 1
        if got is not None:
            out.answered += 1
        if got is not None and got == expected:
            out.correct += 1
        elif got is None and expected is None:
            out.removed_right += 1
        else:
            out.errors.append({"number": old, "expected": expected, "got": got,
                               "known": found is not None,
                               "method": found.method if found else None,
                               "confidence": found.confidence if found else None})
    return out


@dataclass(frozen=True)
class AlikeUnderAncestor:
    """A rule of the source edition the mapping left without a counterpart, and the rule
    worded most like it below the counterpart of its nearest paired ancestor."""

    number: str
    alike: str
    similarity: float
    alike_origin: str | None  # the source rule paired with ``alike`` (None: nothing maps to it)


def removed_beside_alike(mapping: EditionMapping, source: RuleGraph, target: RuleGraph,
                         floor: float = ANYWHERE) -> list[AlikeUnderAncestor]:
    """Each rule ``mapping`` calls removed that has, below the counterpart of its nearest
    paired ancestor, a rule of ``target`` worded like it (``floor`` or more similar): the
    best such rule, with the source rule it is paired with, if any.

    A rule that moved deeper under a renumbered ancestor (finding A30) shows up here with a
    free ``alike`` (``alike_origin`` None): the mapping missed it. One whose words the target
    holds at a rule already paired is a restatement the target added beside the kept rule,
    not a counterpart (a mapping pairs one rule with one rule)."""
    out = []
    keys: dict[str, str] = {}  # each target rule's folded wording, made once (a rule is searched below many)
    for number, c in mapping.pairs.items():
        if c.target is not None:
            continue
        top = next((t for a in reversed(source.ancestors(number))
                    if (t := getattr(mapping.get(a), "target", None)) is not None), None)
        if top is None:
            continue
        rule = source.rule(number)
        key = normalise(rule_wording(rule.title, rule.text))
        best: tuple[float, str] | None = None
        stack = list(target.rule(top).children)
        while stack:
            n = stack.pop()
            stack.extend(target.rule(n).children)
            wording = keys.get(n)
            if wording is None:
                found = target.rule(n)
                wording = keys[n] = normalise(rule_wording(found.title, found.text))
            sim = similarity(key, wording, floor)
            if sim >= floor and (best is None or sim > best[0]):
                best = (sim, n)
        if best is not None:
            out.append(AlikeUnderAncestor(number, best[1], round(best[0], 3), mapping.origin(best[1])))
    return out
