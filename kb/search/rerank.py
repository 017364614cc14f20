"""A learned re-ranker: the best rules of a question reordered by a small linear model.

The searcher's ranking (:mod:`kb.search.searcher`) is a hand-built formula: BM25F, a
coordination bonus for the question's rare concepts found together, word pairs, a rule's
evidence shared with its parent. This module reorders its best ``depth`` rules (40) by a
linear model over *features the search already has* (the rule's score and rank, which of the
question's concepts it matched and how rare they are, in which of the rule's fields, whether
a term, a player's word, the question's shape, a card or a ruling brought it in, where the
rule stands in the document's tree, how long it is...). Every feature is independent of the
ruleset (no rule numbers, no words), so a model learned on one game's questions can rank
another's.

The model is learned by ``bench/rerank.py`` (pairwise logistic regression on the
development questions; the real Riftbound questions held out) and shipped as data,
``rerank-weights.json`` beside this module, with its provenance (training sets, commit,
date, held-out figures). Scoring is pure Python: a dot product per rule.

Re-ranking only changes the order of the rules the words found: a hit's ``matched`` and
reasons are the search's own (the model invents no reason), and the scores shown are the
search's scores, given out again in the new order so they still fall down the list.
"""

from __future__ import annotations

import heapq
import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from kb.graph import RuleGraph
from kb.search.phrasing import rule_phrasings
from kb.search.query import Clause, ParsedQuery
from kb.search.schema import analyse, defined_terms, model_answers, stem
from kb.search.scoring import Impacts, Scores, near

WEIGHTS = Path(__file__).with_name("rerank-weights.json")
DEFAULT_DEPTH = 40
FIELDS = ("title", "path", "text", "examples", "terms", "answers", "players")
PAIR_SLOP = 3

# The features, in the order the weights file lists them. Each is a number about one
# (question, rule) pair; none names a rule or a word.
FEATURES: tuple[str, ...] = (
    "score_share",          # the rule's score / the best score
    "log_score_share",      # log of it (floored at 1/1000)
    "reciprocal_rank",      # 1 / the rule's rank in the search's order
    "coverage",             # share of the question's concepts the rule matches
    "coverage_idf",         # … each weighted by its idf
    "own_coverage_idf",     # … found in the rule's own words (not its headings', not its subrules')
    "long_x_coverage_idf",  # coverage_idf × log(1 + the question's concepts) / 3: long questions
    "rarest_matched",       # the question's rarest concept is matched
    "rare_share",           # idf of the rarest concept matched / of the rarest concept
    "two_rarest_matched",   # the two rarest concepts are both matched
    "pairs_near",           # share of consecutive concepts found within 3 words of each other
    "terms_matched",        # share of the defined terms and keywords the question names
    "players_words_matched",  # share of players' words matched by a rules' word standing in
    "shape_matched",        # the words the question's shape brings in are matched
    "cards_matched",        # share of the concepts a named card brought in
    "evidence",             # an evidence source (a ruling) names the rule
    *(f"in_{f}" for f in FIELDS),  # idf-weighted share of the concepts found in that field
    "shape_x_in_answers",   # the question has a shape and the timing model's summary matches
    "shape_x_is_heading",   # the question has a shape and the rule is a heading
    "is_heading",           # a chapter or a section heading
    "has_children",         # the rule has subrules
    "depth",                # how deep the rule stands (ancestors, over 4)
    "log_length",           # log(1 + the rule's analysed words), over 5
    "defines_term",         # the rule defines a term or keyword
    "log_cited_by",         # log(1 + rules referring to it), over 3
    "parent_share",         # the parent's score / the best score
    "best_child_share",     # the best child's score / the best score
    "best_sibling_share",   # the best score among the rules beside it (same parent) / the best score
)


@dataclass(frozen=True)
class RerankModel:
    """The learned weights (one per feature, in :data:`FEATURES`' order), how many of the
    best rules they reorder, and where they come from."""

    weights: tuple[float, ...]
    depth: int = DEFAULT_DEPTH
    provenance: dict[str, Any] | None = None

    def score(self, row: list[float]) -> float:
        """The model's score of one rule's features."""
        return sum([w * x for w, x in zip(self.weights, row)])

    def to_json(self) -> dict[str, Any]:
        """The weights file's content."""
        return {"features": list(FEATURES), "weights": [round(w, 6) for w in self.weights],
                "depth": self.depth, "provenance": self.provenance or {}}


class WeightsError(ValueError):
    """A weights file that does not fit the features this code computes."""


def model_from_json(data: dict[str, Any], source: str = "weights") -> RerankModel:
    """A model from the weights file's content; refused, saying why, when its features are
    not the ones :data:`FEATURES` lists (a file learned by another version of the code)."""
    if not isinstance(data, dict):
        raise WeightsError(f"{source}: not a weights file (a JSON object with 'features' and 'weights')")
    names = data.get("features")
    weights = data.get("weights")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise WeightsError(f"{source}: 'features' must be a list of the features' names")
    if names != list(FEATURES):
        missing = sorted(set(FEATURES) - set(names))
        extra = sorted(set(names) - set(FEATURES))
        said = (f"missing {missing}, unknown {extra}" if missing or extra
                else "the same ones in another order")
        raise WeightsError(f"{source}: its features are not this code's ({said}); run "
                           f"`python -m bench.rerank` to learn them again")
    if not isinstance(weights, list) or len(weights) != len(FEATURES) or not all(
            isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in weights):
        raise WeightsError(f"{source}: 'weights' must be {len(FEATURES)} finite numbers")
    depth = data.get("depth", DEFAULT_DEPTH)
    if not isinstance(depth, int) or not 2 <= depth <= 200:
        raise WeightsError(f"{source}: 'depth' must be a whole number from 2 to 200, not {depth!r}")
    return RerankModel(tuple(float(w) for w in weights), depth, data.get("provenance") or {})


@lru_cache(maxsize=4)
def load_model(path: Path = WEIGHTS) -> RerankModel:
    """The shipped model (``rerank-weights.json``), read once."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WeightsError(f"{path.name}: cannot be read as JSON ({exc})") from exc
    return model_from_json(data, path.name)


@dataclass
class _Concept:
    """One of the question's concepts, as the re-ranker looks at it."""

    clause: Clause
    docs: Scores | set[int]      # the rules any of its words match
    by_alternative: list[Scores]
    idf: float
    stems: frozenset[str]        # every index word of its alternatives
    first: str                   # the first word's stem, for word pairs ("" for a phrase)


class LearnedRanking:
    """The re-ranker of one edition's searcher: the model and what it reads of the rules
    (each rule's words per field, made the first time a rule is a candidate)."""

    def __init__(self, model: RerankModel, impacts: Impacts):
        self.model = model
        self.impacts = impacts
        self.rg: RuleGraph = impacts.rg
        self._fields: dict[int, dict[str, frozenset[str]]] = {}
        self._static: dict[int, tuple[float, ...]] = {}
        self._kids: dict[int, list[int]] = {}
        self._extra: tuple[dict[str, list[str]], dict[str, list[str]],
                           dict[str, tuple[str, ...]]] | None = None

    # -- the one seam the searcher calls ----------------------------------------------------
    def reorder(self, parsed: ParsedQuery, scores: Scores,
                parts: list[tuple[Clause, list[Scores]]], reasons: dict[int, list[str]]) -> Scores:
        """The scores with the best ``depth`` rules reordered by the model: the same scores,
        given out again in the model's order (ties keep the search's order)."""
        docs, tied = self.candidates(scores)
        rows = self.features(parsed, scores, parts, reasons, docs)
        if len(rows) < 2:
            return scores
        learned = sorted(range(len(rows)), key=lambda i: (-self.model.score(rows[i][1]), i))
        given = [scores[d] for d in docs]  # already best first
        out = dict(scores)
        last = math.inf
        for place, i in enumerate(learned):
            # strictly falling, so the searcher's tie-break (document order) cannot undo it
            last = min(given[place], math.nextafter(last, -math.inf))
            out[rows[i][0]] = last
        for d in tied:  # a rule tied with the last candidate stays below it
            out[d] = math.nextafter(last, -math.inf)
        return out

    def candidates(self, scores: Scores) -> tuple[list[int], list[int]]:
        """The best ``depth`` rules in the search's order (as the searcher orders hits: by
        score, then document order), and the other rules tied with the last of them."""
        best = heapq.nlargest(self.model.depth, scores.values())
        if not best:
            return [], []
        floor = best[-1]
        above = sorted((d for d, s in scores.items() if s >= floor), key=lambda d: (-scores[d], d))
        return above[:self.model.depth], above[self.model.depth:]

    def features(self, parsed: ParsedQuery, scores: Scores,
                 parts: list[tuple[Clause, list[Scores]]],
                 reasons: dict[int, list[str]], docs: list[int] | None = None) -> list[tuple[int, list[float]]]:
        """Each candidate rule's document number and features (:data:`FEATURES`' order);
        ``docs``: the candidates, when :meth:`candidates` has been asked already."""
        if docs is None:
            docs = self.candidates(scores)[0]
        if not docs:
            return []
        concepts = self._concepts(parts)
        top = scores[docs[0]] or 1.0
        rules = self.rg.edition.rules
        number_of = self.impacts.number
        parent_of = self.impacts.parent
        get = scores.get
        whole_idf = sum(c.idf for c in concepts) or 1.0
        rarest = sorted(concepts, key=lambda c: -c.idf)[:2]
        pairs = [(a.first, b.first) for a, b in zip(concepts, concepts[1:]) if a.first and b.first]
        by_origin: dict[str, list[_Concept]] = {}
        for c in concepts:
            by_origin.setdefault(c.clause.origin, []).append(c)
        out = []
        for rank, d in enumerate(docs):
            rule = rules[number_of[d]]
            s = scores[d]
            matched = [c for c in concepts if d in c.docs]
            fields = self._rule_fields(d)
            in_field = [sum(c.idf for c in matched if c.stems & fields[f]) / whole_idf for f in FIELDS]
            own = sum(c.idf for c in matched if any(c.stems & fields[f] for f in FIELDS if f != "path"))
            coverage_idf = sum(c.idf for c in matched) / whole_idf
            p = parent_of[d]
            best_child = max((get(c, 0.0) for c in self._children(d)), default=0.0)
            sibling = max((get(c, 0.0) for c in self._children(p) if c != d), default=0.0) if p >= 0 else 0.0
            tokens = self.impacts.tokens(d) if pairs else []
            row = [
                s / top,
                math.log(max(s / top, 1e-3)),
                1.0 / (rank + 1),
                len(matched) / len(concepts) if concepts else 0.0,
                coverage_idf,
                own / whole_idf,
                coverage_idf * math.log1p(len(concepts)) / 3,
                float(bool(rarest) and d in rarest[0].docs),
                max((c.idf for c in matched), default=0.0) / (rarest[0].idf if rarest and rarest[0].idf else 1.0),
                float(len(rarest) == 2 and all(d in c.docs for c in rarest)),
                sum(1 for a, b in pairs if near(tokens, a, b, PAIR_SLOP)) / len(pairs) if pairs else 0.0,
                _share(by_origin.get("term", []), d),
                _share([c for c in by_origin.get("vocabulary", [])], d, alternatives_only=True),
                _share(by_origin.get("shape", []), d),
                _share(by_origin.get("card", []), d),
                float(d in reasons),
                *in_field,
                float(bool(parsed.shape)) * in_field[FIELDS.index("answers")],
                float(bool(parsed.shape) and rule.kind != "rule"),
                *self._rule_features(d),
                scores.get(parent_of[d], 0.0) / top if parent_of[d] >= 0 else 0.0,
                best_child / top,
                sibling / top,
            ]
            out.append((d, row))
        return out

    # -- parts ---------------------------------------------------------------------------
    def _concepts(self, parts: list[tuple[Clause, list[Scores]]]) -> list[_Concept]:
        count = self.impacts.count
        out = []
        for clause, alternatives in parts:  # the clauses that are not excluded
            docs: Scores | set[int] = (alternatives[0] if len(alternatives) == 1
                                       else set().union(*alternatives))
            # an atom's words are single words already: stem() is analyse() of one, cached
            stems = frozenset(filter(None, (stem(w) for a in clause.atoms for w in a.words)))
            first = ""
            if len(clause.atoms) == 1 and clause.atoms[0].kind == "word" and clause.atoms[0].words:
                first = stem(clause.atoms[0].words[0])
            idf = math.log(1 + count / len(docs)) if docs else 0.0
            out.append(_Concept(clause, docs, alternatives, idf, stems, first))
        return out

    def _children(self, docnum: int) -> list[int]:
        """The documents of a rule's subrules (made once per rule)."""
        found = self._kids.get(docnum)
        if found is None:
            docnum_of = self.impacts.docnum
            rule = self.rg.edition.rules[self.impacts.number[docnum]]
            found = self._kids[docnum] = [docnum_of[c] for c in rule.children if c in docnum_of]
        return found

    def _rule_features(self, docnum: int) -> tuple[float, ...]:
        """What a rule is, whatever the question: heading, subrules, depth, length, whether it
        defines a term, how many rules refer to it (made once per rule)."""
        found = self._static.get(docnum)
        if found is None:
            number = self.impacts.number[docnum]
            rule = self.rg.edition.rules[number]
            found = self._static[docnum] = (
                float(rule.kind != "rule"), float(bool(rule.children)),
                len(self.rg.ancestors(number)) / 4,
                math.log1p(len(self.impacts.tokens(docnum))) / 5,
                float(number in self._extras()[0]),
                math.log1p(len(self.rg.referenced_by(number))) / 3)
        return found

    def _extras(self) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, tuple[str, ...]]]:
        if self._extra is None:
            ed = self.rg.edition
            self._extra = (defined_terms(self.rg), model_answers(self.rg),
                           rule_phrasings(ed.ruleset, ed.name))
        return self._extra

    def _rule_fields(self, docnum: int) -> dict[str, frozenset[str]]:
        """A rule's index words per field, as :func:`kb.search.schema.documents` fills them."""
        found = self._fields.get(docnum)
        if found is None:
            defines, answers, players = self._extras()
            rules = self.rg.edition.rules
            number = self.impacts.number[docnum]
            rule = rules[number]
            texts = {
                "title": rule.title,
                "path": " ".join(rules[a].title for a in self.rg.ancestors(number)),
                "text": rule.text,
                "examples": " ".join(rule.examples),
                "terms": " ; ".join(defines.get(number, [])),
                "answers": " ; ".join(answers.get(number, [])),
                "players": " ; ".join(players.get(number, ())),
            }
            found = {f: frozenset(analyse(t)) if t else frozenset() for f, t in texts.items()}
            self._fields[docnum] = found
        return found


def _share(concepts: list[_Concept], docnum: int, alternatives_only: bool = False) -> float:
    """Share of these concepts the rule matches (by a rules' word standing in for a
    player's, with ``alternatives_only``); 0 when the question has none."""
    if not concepts:
        return 0.0
    if alternatives_only:
        hit = sum(1 for c in concepts if any(docnum in sc for sc in c.by_alternative[1:]))
    else:
        hit = sum(1 for c in concepts if docnum in c.docs)
    return hit / len(concepts)
