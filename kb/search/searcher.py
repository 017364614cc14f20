"""Running a parsed query against one edition: pinned answers, ranked words, excerpts.

Ranking, in order:

1. rule numbers typed in the query (``337.1a``): the rule itself; a query that is only one
   number is a jump, and lists the rule and its subrules;
2. when the words of a plain query name a defined term or keyword ("what is a task",
   "state-based actions"), the rules that define it;
3. everything else by BM25F over title, heading path, text, examples, defined terms and what
   answers questions about the rule (the timing model's summaries, the rule in players'
   words), with a bonus for rules that match more of the question's concepts (weighted by
   how rare each is, so rare concepts together outweigh many common words), for a rule one
   of whose statements (in players' words, the timing model's summaries) holds several of
   the question's concepts together, and for words next to each other; a matching rule gains
   on the words of the definition of a keyword the question names, and in a question
   whose shape asks what a term means ("what does it mean to destroy …") a rule defining a
   term it names ranks up (``defining_weight``); a rule then shares
   its evidence with its parent and its children (rules are short: a heading and the rule
   under it often answer together), and a section whose rules between them hold more of the
   question's concepts than any one of them has evidence of its own (``from_section``).

A plain query is first read as a question (:mod:`kb.search.understand`): names left out,
the game's terms weighted up, players' words given the rules' words as alternatives (each
concept counted once: not a rules' word the question names itself), its participants ("my
opponent") weighed down, question words dropped. Every result says which concepts it matched (``matched``).

Words the rules never use are corrected to the nearest word they do use, and the corrected
query is reported as ``did_you_mean``.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from whoosh.index import Index

from kb import limits
from kb.graph import RuleGraph
from kb.loaded import suggested_numbers
from kb.numbers import NumberError, format_number, parse_number
from kb.search.excerpt import count_matches, excerpt, matcher
from kb.search.kinds import kinds_of
from kb.search.cards import CardList, load_cards
from kb.search.phrasing import rule_phrasings
from kb.search.query import Atom, Clause, ParsedQuery, SearchError, say
from kb.search.rerank import LearnedRanking, load_model
from kb.search.schema import WORD, analyse, model_answers, model_permissions, stem, word_stems
from kb.search.scoring import Impacts, Scores, near, union
from kb.search.spelling import Speller, abbreviations
from kb.search.understand import is_referral, understand
from kb.search.understand import vocabulary as ruleset_vocabulary

MAX_LIMIT = limits.SEARCH_LIMIT.value
MAX_OFFSET = limits.SEARCH_OFFSET.value


@dataclass(frozen=True)
class Evidence:
    """A rule another source of knowledge says answers the question (a ruling citing it):
    the rule's number, how strongly (0–1) and the reason shown with the hit."""

    number: str
    strength: float
    reason: str


# A keyword's definition applied to a question: its clause, the (stem, word) pairs it brought
# in, their share, and the scores before (EditionSearcher._with_definitions).
Defined = tuple[Clause, list[tuple[str, str]], float, Scores]

# Where each stem of the rules' statements stands: (document, statement) pairs.
StemPlaces = dict[str, list[tuple[int, int]]]

# What an evidence source is: given the question as read, the rules it brings in.
EvidenceSource = Callable[[ParsedQuery], list[Evidence]]


@dataclass(frozen=True)
class Ranking:
    """The tunable parts of the ranking (chosen by ``bench/search.py``; see RESULTS.md: the
    roll-up, quotation, idf power, card knowledge, context, the timing model's summaries
    (``answers``, 3.0), the long questions' coordination and kinds, a concept counted once
    and the participants' weight by 5-fold cross-validation on the judges' questions, checked
    on the held-out sets)."""

    boosts: dict[str, float] = field(default_factory=lambda: {
        "title": 2.0, "path": 1.0, "text": 1.0, "examples": 0.3, "terms": 2.0, "answers": 3.0,
        "players": 1.0})
    coord: float = 1.0             # score × (share of the words a rule has) ** coord
    coord_long: float = 1.0        # … that exponent for a long question (``long_question``
                                   # concepts or more; CV: 0.5 in 4 folds of 5, but that lowers
                                   # the real questions and the cited rules alone: RESULTS.md)
    long_question: int = 10
    pair_boost: float = 0.5        # score × (1 + pair_boost × share of word pairs found close)
    pair_slop: int = 3
    rerank: int = 40               # how many of the best rules the pair bonus looks at
    pin_terms: bool = True         # defining rules of a named term first
    term_scope: float = 0.0        # score × (1 + term_scope) inside the rules defining a term
                                   # the query mentions ("state-based actions checked")
    echo_share: float = 0.5        # a term's words in a heading that only names it, a term
                                   # defined elsewhere, and in the rules under it (652.5.c
                                   # "Priority" in Removal of a Player): kb.search.scoring.ECHO_SHARE
    bm25_b: float = 0.9
    bm25_k1: float = 1.2
    understand: bool = True        # read plain queries as questions (kb.search.understand)
    term_weight: float = 1.5       # a named term or keyword counts this much more than a word
    synonym_weight: float = 0.8    # the rules' words for a player's word, against the word itself
    shape_weight: float = 0.5      # the words a question's shape brings in ("who acts" → priority)
    idf_coverage: bool = True      # the coordination bonus counts rare concepts more
    idf_power: float = 1.5         # … as idf ** idf_power: above 1, the question's rare concepts
                                   # found together outweigh many of its common words
    quote_weight: float = 0.5      # a quoted card text's words (0: the quotation is a phrase)
    from_parent: float = 0.0       # a rule gains this share of its parent's score (CV: none)
    from_children: float = 0.6     # a rule gains this share of its best child's score
    card_weight: float = 0.3       # each concept a named card brings in (its type, keywords,
                                   # text's terms), against a word of the question (CV: 0.3)
    card_text_weight: float = 0.0  # … and the other words of its text, a share of that (CV: none)
    card_keyword_weight: float = 1.0  # a named card's keyword, as a share of a keyword the
                                   # question names itself (not measured: no development card
                                   # has keywords, the questions do not give them; 0.3 lowered
                                   # every set with cards: RESULTS.md, task A2)
    card_alone: float = 1.0        # in a question, the share a named card's concepts keep in a
                                   # rule that holds none of the question's own concepts (a
                                   # card's knowledge adds to the question's, never outranks it)
    context_weight: float = 0.25   # the words of a bracketed earlier question ("[follow-up to: …]";
                                   # CV: 0.25)
    evidence_weight: float = 1.0   # a rule an evidence source names gains this share of the
                                   # best score, times the source's strength (0–1)
    learned: bool = False          # reorder the best rules by the learned model
                                   # (kb.search.rerank; off: RESULTS.md "Learned re-ranker")
    from_referrers: float = 0.1    # a rule gains this share of the score of a rule that refers
                                   # to it ("See rule 406.5"; CV: in 5 folds of 5)
    kind_weight: float = 0.0       # a question's concept that the rules list as one kind of a
                                   # heading ("Banishments" under "Non-Board Zones") is also
                                   # that heading's words, at this weight (CV: in 3 folds of 5;
                                   # off: the held-out sets, RESULTS.md)
    permission_weight: float = 0.0  # in a question whose shape asks for a permission ("can I
                                   # … when"), a matching rule a legality check of the timing
                                   # model cites scores × (1 + this) (CV: 0.25 in 2 folds of 5;
                                   # off: it lowers the real questions, RESULTS.md)
    defining_weight: float = 2.0   # in a question whose shape asks what a term means ("what does
                                   # it mean to destroy …", "define mighty"), a matching rule that
                                   # defines a term it names (a defining rule, or a rule right
                                   # under one: 701.8 "Destroy" holds 701.8a) scores × (1 + this)
                                   # (2 against 1 on the definition questions of
                                   # tests/test_search_definition_questions.py; the judges' sets
                                   # alike either way: RESULTS.md, task S 2026-12-04)
    statement_weight: float = 1.0  # in a question, a rule one of whose statements (in players'
                                   # words, the timing model's summaries of it) holds a share of
                                   # the question's concepts together scores × (1 + this × that
                                   # share, weighed as in the coordination; CV: 1 in 5 folds of 5)
    from_section: float = 0.3      # in a question, a rule whose children between them (with the
                                   # rule itself) hold more of the question's concepts than any
                                   # one of them scores at least this share of the section's
                                   # evidence: each concept's best score in the section, times
                                   # the coordination over the concepts the section holds (CV:
                                   # 0.3 in 5 folds of 5; 0.45 and 0.6 lower the cited rules alone)
    definition_weight: float = 0.5  # in a question, each rule already matching gains this share
                                   # of its score on the words of the definition of each keyword
                                   # the question names (their mean, times the keyword's weight;
                                   # CV: 0.5 in 5 folds of 5; glossary terms' definitions too
                                   # lowered the players' words: RESULTS.md)
    named_once: bool = True        # in a question, a rules' word a players' word or the shape
                                   # brings in is left out when the question names it itself
                                   # (kb.search.understand.named_once_only; CV: in 4 folds of 5)
    participant_weight: float = 0.5  # in a question, a concept naming its participants ("my
                                   # opponent": the vocabulary's ``participants``) weighs this
                                   # (CV: 0.5 in 5 folds of 5, against 1 / 0.75 / 0.25)
    situation_weight: float = 2.0  # in a question, each situation of the vocabulary it tells
                                   # without naming it ("units of two players at one
                                   # battlefield" → combat) is a concept of this weight (CV: 2
                                   # in 5 folds of 5 against 0 / 1 / 1.5 / 3; RESULTS.md, task J)
    model_words: bool = True       # a question's word matching the timing model's summaries
                                   # (the "answers" field, their statements' boost) counts as
                                   # much as the rules' own words use it (Impacts.rules_share):
                                   # "goes", "stays" are the model's phrasing (RESULTS.md, task S)


DEFAULT_RANKING = Ranking()

# A hit's reason listing the timing model's summaries of its rule that the question matched
# (no summary holds the joiner; the offline search reads these three through web/search_port).
TIMING_MODEL_REASON = "in the timing model: "
# A section ranked by the concepts its rules hold between them (Ranking.from_section).
SECTION_REASON = "its rules between them hold: "
SUMMARY_JOINER = " · "
# A hit that matched none of the question's concepts itself, ranked by what its children hold
# (the roll-up): what matched in the best of them is said, after this (its number's place).
LIFTED_REASON = "in its rule {number}: "
# Two statements of a rule holding weights this close hold as much: the first is said. The
# browser's Math.pow may round an idf ** 1.5 otherwise than Python in the last bit, and two
# statements holding other concepts of equal weight would then be told apart by it.
STATEMENT_TIE = 1e-9
# A rule holding the words of the definition of a keyword the question names (Ranking.definition_weight).
DEFINITION_REASON = "as the keyword's definition says: "
DEFINITION_SHOWN = 0.1  # … said when a keyword's definition gave the rule this share of its score
DEFINITION_WORDS_SHOWN = 5  # … naming the words of the definition that gave the most
# A rule defining a term a question asking what it means names (Ranking.defining_weight),
# after the shape's name and before the terms' names.
DEFINING_REASON = "the definition of "

# The rules write small numbers both ways ("ten or more poison counters", "0 or less life").
_SPELLED = "zero one two three four five six seven eight nine ten eleven twelve thirteen".split()
NUMBER_WORDS = {**{stem(w): str(i) for i, w in enumerate(_SPELLED)},
                **{str(i): stem(w) for i, w in enumerate(_SPELLED)}}


def best_of(a: Scores, b: Scores) -> Scores:
    """The better of two scores per rule (a word and its other spelling)."""
    out = dict(a)
    for d, s in b.items():
        if s > out.get(d, 0.0):
            out[d] = s
    return out


class EditionSearcher:
    """Search over one edition: its index, its rule graph and its vocabulary.

    Safe to share between threads.
    """

    def __init__(self, rg: RuleGraph, index: Index, vocabulary: dict[str, int],
                 ranking: Ranking = DEFAULT_RANKING, cards_home: Path | None = None):
        self.rg = rg
        self.cards_home = cards_home  # where the user's card list is kept (None: no list)
        self.index = index
        self.ranking = ranking
        self.impacts = Impacts(rg, index, ranking.boosts, ranking.bm25_b, ranking.bm25_k1,
                              ranking.model_words, ranking.echo_share)
        self.speller = Speller(vocabulary)
        self._crumbs: dict[str, list[dict[str, str]]] = {}
        self._within: dict[str, set[int]] = {}
        self._terms = {" ".join(WORD.findall(key)): key for key in rg.edition.terms}
        self._term_kind = {key: t.kind for key, t in rg.edition.terms.items()}
        self._referrals = frozenset(key for key, t in rg.edition.terms.items() if is_referral(t.definition))
        self.vocabulary = ruleset_vocabulary(rg.edition.ruleset)
        self._players = rule_phrasings(rg.edition.ruleset, rg.edition.name)
        self._answers = model_answers(rg)  # the timing model's summaries, indexed as "answers"
        self._permissions = model_permissions(rg)  # the rules its legality checks cite
        self._definitions: dict[str, list[tuple[str, str]]] | None = None  # keyword_definitions()
        self._definition_scores: dict[str, Scores] = {}  # _definition_sums, by keyword
        self._defines: dict[str, list[int]] = {}  # _defining_docs, by term
        self._term_stems: dict[str, str] | None = None  # a term's words' stems → its key (_named_terms)
        # Each document's statements and where their stems stand (_statement_index), when first asked.
        self._statements: tuple[dict[int, list[frozenset[str]]], StemPlaces, dict[int, int]] | None = None
        self._permits: set[int] | None = None  # … as documents (_with_permissions), when first asked
        self._kinds: dict[tuple[str, ...], list[Atom]] | None = None  # kinds_of(rg), when first asked
        self._refers: list[list[int]] | None = None  # each document's references (_references)
        self._children: list[list[int]] | None = None  # each document's children (_concepts_held)
        self._orders: list[int] | None = None
        self._referring: list[int] = []  # the documents that refer to any (_references)
        self.learned = LearnedRanking(load_model(), self.impacts) if ranking.learned else None

    def close(self) -> None:
        self.impacts.close()

    # -- the one entry point ------------------------------------------------------
    def search(self, parsed: ParsedQuery, *, limit: int = 10, offset: int = 0,
               sections: list[str] | None = None, cards: CardList | None = None,
               evidence: EvidenceSource | None = None) -> dict[str, Any]:
        """Answer a parsed query; the dict is the API's search response.

        ``cards``: the user's card list of the ruleset (a card named in a question brings in
        its type, keywords and text's terms; default: the list imported into the data home,
        read again when it changes); ``evidence``: a source of rules known to answer the
        question (rulings citing them), each ranked up and explained."""
        if not 1 <= limit <= MAX_LIMIT:
            raise SearchError(say("limit_out_of_range", max_limit=MAX_LIMIT), {"limit": limit})
        if not 0 <= offset <= MAX_OFFSET:
            raise SearchError(say("offset_out_of_range", max_offset=MAX_OFFSET), {"offset": offset})
        ed = self.rg.edition
        within = self._sections(parsed.sections + [(s, ()) for s in sections or []])
        r = self.ranking
        if cards is None:
            cards = load_cards(self.cards_home, ed.ruleset)
        parsed, splits = self._split_compounds(parsed)
        if r.understand:
            parsed = understand(parsed, self.vocabulary, lambda s: len(self.impacts.word(s)), self._terms,
                                self._term_kind, term_weight=r.term_weight,
                                synonym_weight=r.synonym_weight, shape_weight=r.shape_weight,
                                quote_weight=r.quote_weight, cards=cards, card_weight=r.card_weight,
                                card_text_weight=r.card_text_weight, context_weight=r.context_weight,
                                card_keyword_weight=r.card_keyword_weight, referrals=self._referrals,
                                named_once=r.named_once, participant_weight=r.participant_weight,
                                situation_weight=r.situation_weight)
        corrected, did_you_mean = self._correct(parsed, splits)
        if r.kind_weight and corrected.question:
            corrected = self._with_kinds(corrected)
        understood = None
        if any(c.origin != "typed" for c in parsed.clauses) or parsed.names or parsed.shape or parsed.cards \
                or parsed.cut or parsed.unread:
            understood = {"names": parsed.names, "cards": parsed.cards, "shape": parsed.shape,
                          "concepts": [_label(c) for c in corrected.clauses if c.mode != "not"],
                          "cut": parsed.cut, "unread": parsed.unread}
        out: dict[str, Any] = {
            "query": parsed.text, "ruleset": ed.ruleset, "edition": ed.name, "total": 0,
            "offset": offset, "limit": limit, "did_you_mean": did_you_mean, "jump": None,
            "term": None, "understood": understood, "results": []}

        numbers, missing = self._numbers(corrected)
        if corrected.only_numbers:
            if missing and not numbers:
                # The numbers its digits and letters re-dot into first (3.3.7.1.a → 337.1.a), then
                # the nearest: the first of the rule lookup's nearest numbers (kb.loaded.find_rule).
                segments = missing[0].segments
                # None past the last rule (kb.loaded.last_rule_before): no rule is near it.
                out["did_you_mean"] = next(iter(suggested_numbers(self.rg, segments, 1)), None)
                return out
            listing = self._listing(numbers, within)
            out["jump"] = numbers[0] if len(numbers) == 1 else None
            out["total"] = len(listing)
            out["results"] = self.number_hits(listing[offset:offset + limit])
            return out

        term = self._term(corrected) if self.ranking.pin_terms else None
        if term is not None:
            out["term"] = {"term": term.name, "kind": term.kind, "definition": term.definition,
                           "defined_by": term.defined_by}
        referred: dict[int, int] = {}
        together: dict[int, list[str]] = {}
        gathered: dict[int, list[str]] = {}
        defined: list[Defined] = []
        scores, parts = self._scores(corrected, missing, within, referred, together, gathered, defined)
        reasons = self._evidence(evidence(corrected), scores, within, corrected) if evidence else {}
        for d, by in referred.items():
            if d in scores:
                reasons.setdefault(d, []).insert(0, f"referred to by {self.impacts.number[by]}")
        if r.permission_weight and self._permits and self._shape_prior(corrected) == "permission":
            for d in self._permits.intersection(scores):  # the summary is shown when it matched
                reasons.setdefault(d, []).append(f"'{corrected.shape}' → says when a player may act "
                                                 "(a legality check of the timing model cites it)")
        if r.defining_weight and self._shape_prior(corrected) == "definition":
            for d, names in self._defining(corrected).items():
                if d in scores:
                    reasons.setdefault(d, []).append(f"'{corrected.shape}' → {DEFINING_REASON}{', '.join(names)}")
        for d, labels in together.items():  # the statement itself is shown as matched
            if d in scores:
                reasons.setdefault(d, []).append("one statement holds: " + ", ".join(labels))
        for d, labels in gathered.items():  # a section ranked by what its rules hold between them
            if d in scores:
                reasons.setdefault(d, []).append(SECTION_REASON + ", ".join(labels))
        # A lifted hit's best child is chosen by the evidence (_concepts_held), not by the
        # learned order: a re-ranked hit keeps its own reasons, as the offline search says them.
        evidence_scores = scores
        if self.learned is not None:
            scores = self.learned.reorder(corrected, scores, parts, reasons)
        wanted = offset + limit + len(numbers) + (len(term.defined_by) if term else 0)
        best = heapq.nlargest(wanted, scores.items(), key=lambda item: (item[1], -item[0]))
        number_of = self.impacts.number
        hits = [(number_of[d], s) for d, s in best]
        score = dict(hits)
        top = hits[0][1] if hits else 0.0
        pinned_numbers = [n for n in numbers if self._inside(n, within)]
        pinned_terms = [n for n in (term.defined_by if term else []) if self._inside(n, within)]
        # A term's defining rules in document order: a keyword's heading before its rules.
        pinned_terms.sort(key=lambda n: ed.rules[n].order)
        ranked: list[tuple[str, float, str]] = []
        seen: set[str] = set()
        for n, how in [(n, "number") for n in pinned_numbers] + [(n, "term") for n in pinned_terms]:
            if n not in seen:
                ranked.append((n, max(top, score.get(n, 0.0)), how))
                seen.add(n)
        docnum = self.impacts.docnum
        extra = sum(1 for n in seen if docnum.get(n) not in scores)
        for n, s in hits:
            if n not in seen:
                ranked.append((n, s, "words"))
                seen.add(n)
        marks = self._marks(corrected)
        for n, _s, _how in ranked[offset:offset + limit] if defined else ():
            d = docnum.get(n)  # a keyword's definition's words the rule holds, where they gave
            said = self._definition_reason(defined, d) if d in scores else None
            if said:
                reasons.setdefault(d, []).append(said)
        out["total"] = len(scores) + extra
        told: set[str] = set()  # the timing model's summaries a hit above already said
        out["results"] = [self._result(n, s, how, marks,
                                       self._concepts_held(parts, docnum.get(n), evidence_scores)
                                       + reasons.get(docnum.get(n, -1), []),
                                       told)
                          for n, s, how in ranked[offset:offset + limit]]
        return out

    def _concepts_held(self, parts: list[tuple[Clause, list[Scores]]], d: int | None,
                       scores: Scores) -> list[str]:
        """The question's concepts a hit holds (:func:`_matched`); for a hit holding none
        itself, ranked by its children's evidence (the roll-up: 608.2 by 608.2n), those its
        best matching child holds, said with that child's number (:data:`LIFTED_REASON`). The
        best child: the highest score, the first in document order among equals."""
        own = _matched(parts, d)
        if own or d is None or d not in scores:
            return own
        children = self._children
        if children is None:
            children = self._children = [[] for _ in self.impacts.parent]
            for c, p in enumerate(self.impacts.parent):
                if p >= 0:
                    children[p].append(c)
        best: tuple[float, int, list[str]] | None = None
        for c in children[d]:
            if c in scores and (best is None or scores[c] > best[0]):
                held = _matched(parts, c)
                if held:
                    best = (scores[c], c, held)
        if best is None:
            return own
        return [LIFTED_REASON.format(number=self.impacts.number[best[1]]) + ", ".join(best[2])]

    # -- parts ------------------------------------------------------------------------
    def _evidence(self, found: list[Evidence], scores: Scores, within: list[str],
                  parsed: ParsedQuery) -> dict[int, list[str]]:
        """Rank up the rules an evidence source names (in place) and say why, per document.

        A query that requires or excludes words (``AND``, ``-word``, ``NOT``) or quotes a
        phrase keeps its word: evidence then only ranks up rules that already match it,
        never brings one in."""
        top = max(scores.values(), default=1.0) or 1.0
        allowed = self._docs_within(within) if within else None
        strict = any(c.mode in ("must", "not") or any(a.kind == "phrase" for a in c.atoms)
                     for c in parsed.clauses)
        reasons: dict[int, list[str]] = {}
        for e in found:
            d = self.impacts.docnum.get(e.number)
            if d is None or (allowed is not None and d not in allowed) or (strict and d not in scores):
                continue
            strength = min(1.0, max(0.0, e.strength))
            scores[d] = scores.get(d, 0.0) + self.ranking.evidence_weight * strength * top
            reasons.setdefault(d, []).append(e.reason)
        return reasons

    def _sections(self, wanted: list[tuple[str, tuple[str, ...]]]) -> list[str]:
        out = []
        for text, segments in wanted:
            try:
                segments = segments or parse_number(text)
            except NumberError:
                raise SearchError(say("section_needs_number", value=text[:40]), {"section": text[:64]}) from None
            found = self.rg.find(segments)
            if found is None:
                wanted_number = format_number(segments, self.rg.edition.number_style)
                raise SearchError(say("no_section", number=wanted_number, ruleset=self.rg.edition.ruleset,
                                      edition=self.rg.edition.name),
                                  {"section": wanted_number, "nearest": self.rg.nearest(segments)}, status=404)
            out.append(found)
        return out

    def _inside(self, number: str, within: list[str]) -> bool:
        if not within:
            return True
        chain = {number, *self.rg.ancestors(number)}
        return any(w in chain for w in within)

    def _numbers(self, parsed: ParsedQuery) -> tuple[list[str], list[Atom]]:
        found, missing = [], []
        for atom in parsed.numbers:
            n = self.rg.find(atom.segments)
            if n is None:
                missing.append(atom)
            elif n not in found:
                found.append(n)
        return found, missing

    def _listing(self, numbers: list[str], within: list[str]) -> list[str]:
        if len(numbers) == 1:
            listing = list(self.rg.subtree(numbers[0]))
        else:
            listing = numbers
        return [n for n in listing if self._inside(n, within)]

    def _term(self, parsed: ParsedQuery) -> Any:
        # A question's words as typed (names and question words left out), without the
        # words its shape brought in; alternatives do not make a query less plain.
        clauses = [c for c in parsed.clauses if c.origin not in ("shape", "card")]
        if not clauses or not all(c.mode == "should" and c.atoms[0].kind in ("word", "phrase")
                                  and (len(c.atoms) == 1 or c.origin in ("vocabulary", "kind"))
                                  for c in clauses):
            return None
        words = [w for c in clauses for w in c.atoms[0].words]
        candidates = [words]
        if words and words[-1].endswith("s"):
            candidates.append(words[:-1] + [words[-1][:-1]])
        candidates.append(words[:-1] + [words[-1] + "s"] if words else [])
        # A players' phrase alone ("the stack") is the term its rules' words name ("chain").
        if len(clauses) == 1 and clauses[0].origin == "vocabulary":
            candidates.extend(list(a.words) for a in clauses[0].atoms[1:])
        for cand in candidates:
            key = self._terms.get(" ".join(cand))
            if key is not None:
                if self.rg.is_plain_alias(key):  # "if": the entry it sends the reader to
                    key = self.rg.alias_of(key) or key
                term = self.rg.edition.terms[key]
                if term.defined_by:
                    return term
        return None

    def _split_compounds(self, parsed: ParsedQuery) -> tuple[ParsedQuery, list[tuple[int, int, str]]]:
        """Each typed word no rule uses that is a closed-up compound of the rules' words read
        as those words, as a hyphenated word is read: "quickdraw" as the rules' "Quick-Draw",
        "doublestrike" as the keyword "double strike" (:meth:`_compound`). Before the question
        is read, so a split keyword is the keyword. Returns the query and, for the text said as
        ``did_you_mean``, each split word's place and how the rules write it."""
        spans: list[tuple[int, int, str]] = []
        clauses = []
        for clause in parsed.clauses:
            atoms = []
            for atom in clause.atoms:
                if clause.mode != "not" and clause.origin == "typed" and atom.kind == "word" \
                        and len(atom.words) == 1 and atom.words[0] not in abbreviations(atom.text):
                    found = self._compound(atom.words[0])
                    if found is not None:
                        atom = replace(atom, kind="phrase", words=found[0])
                        spans.append((atom.start, atom.end, found[1]))
                atoms.append(atom)
            clauses.append(replace(clause, atoms=atoms) if atoms != clause.atoms else clause)
        if not spans:
            return parsed, spans
        return replace(parsed, clauses=clauses), spans

    def _compound(self, word: str) -> tuple[tuple[str, ...], str] | None:
        """The words a closed-up compound is read as and how the rules write them: the rules'
        hyphenated word with its letters ("quickdraw": quick-draw), else the first cut of it
        (:meth:`Speller.splits`) into two words naming a term or keyword of the edition
        ("doublestrike": double strike); None for any other word."""
        hyphenated = self.speller.closed_up.get(word)
        for words in self.speller.splits(word):
            if hyphenated is not None and words == tuple(hyphenated.split("-")):
                return words, hyphenated
            if " ".join(words) in self._terms:
                return words, " ".join(words)
        return None

    def _correct(self, parsed: ParsedQuery, splits: list[tuple[int, int, str]] | None = None
                 ) -> tuple[ParsedQuery, str | None]:
        """Replace words no rule uses by the nearest word one does; the corrected text, with
        the closed-up compounds split (``splits``: :meth:`_split_compounds`)."""
        fixes: dict[str, str] = {}
        kept: set[int] = set()  # the atoms left as typed: their correction would find nothing
        for clause in parsed.clauses:
            if clause.mode == "not" or clause.origin != "typed":
                continue
            for atom in clause.atoms:
                short = abbreviations(atom.text)  # "ETB" is no slip of "ETC"
                found: dict[str, str] = {}
                for w in atom.words if atom.kind in ("word", "phrase") else ():
                    if w in short:
                        continue
                    suggestion = self.speller.suggest(w)
                    if suggestion and suggestion != w:
                        found[w] = suggestion
                # A correction is offered only when it finds a rule: "Kor'vash" is not read as
                # "Kor'dash", a phrase no rule has either ("kor" is no rule's word).
                if found and not self._atom_scores(replace(atom, words=tuple(found.get(w, w) for w in atom.words))):
                    kept.add(id(atom))
                else:
                    fixes.update(found)
        if not fixes and not splits:
            return parsed, None
        text = parsed.text
        clauses = []
        for clause in parsed.clauses:
            atoms = []
            for atom in clause.atoms:
                if (any(w in fixes for w in atom.words) and atom.kind in ("word", "phrase")
                        and clause.origin == "typed" and id(atom) not in kept):
                    atom = replace(atom, words=tuple(fixes.get(w, w) for w in atom.words))
                atoms.append(atom)
            label = clause.label
            if atoms != clause.atoms and not label:
                # Explained in the word searched for, with the word typed: "priority (read from 'priorty')".
                fixed = " ".join(WORD.sub(lambda m: _same_case(m.group(), fixes.get(m.group().lower())), a.text)
                                 for a in clause.atoms).strip(LABEL_EDGES)
                label = f"{fixed} (read from '{_label(clause)}')"
            clauses.append(replace(clause, atoms=atoms, label=label))
        edits = [(start, end, _same_case(text[start:end], words)) for start, end, words in splits or ()]
        for atom in (a for c in parsed.clauses if c.origin == "typed" for a in c.atoms):
            if atom.kind in ("word", "phrase") and any(w in fixes for w in atom.words) and id(atom) not in kept:
                edits.append((atom.start, atom.end,
                              WORD.sub(lambda m: _same_case(m.group(), fixes.get(m.group().lower())),
                                       text[atom.start:atom.end])))
        for start, end, piece in sorted(edits, key=lambda e: -e[0]):
            text = text[:start] + piece + text[end:]
        return replace(parsed, clauses=clauses), text

    def _scores(self, parsed: ParsedQuery, missing: list[Atom], within: list[str],
                referred: dict[int, int] | None = None, together: dict[int, list[str]] | None = None,
                gathered: dict[int, list[str]] | None = None, defined: list[Defined] | None = None,
                ) -> tuple[Scores, list[tuple[Clause, list[Scores]]]]:
        """BM25F score of every rule the words match, after AND, NOT, the coordination and
        word-pair bonuses and the section filter; and each clause's scores per alternative
        (what a result is explained by). ``referred`` gets, for each rule that gained from a
        rule referring to it, that rule (:meth:`_follow_references`); ``together``, for each
        rule one of whose statements holds several concepts, their labels (:meth:`_with_statements`);
        ``gathered``, for each section scored by what its rules hold between them, the concepts
        they hold (:meth:`_section_evidence`)."""
        should: list[Scores] = []
        must: list[Scores] = []
        nots: list[Scores] = []
        weights: list[float] = []
        should_stems: list[str] = []
        parts: list[tuple[Clause, list[Scores]]] = []
        missing_ids = {id(a) for a in missing}
        concepts: list[list[tuple[str, ...]]] = []  # each should clause's alternatives, as stems
        labels: list[str] = []  # … and how it is named
        origins: list[str] = []  # … and where it came from (Clause.origin)
        for clause in parsed.clauses:
            alternatives = [self._atom_scores(a) for a in clause.atoms
                            if a.kind != "number" or id(a) in missing_ids]
            if not alternatives:
                continue
            if clause.origin == "typed":
                part = alternatives[0] if len(alternatives) == 1 else union(alternatives)
            else:
                # A concept is found once, by its best word: "respond" or "reaction", not both.
                part = dict(alternatives[0])
                for alt in alternatives[1:]:
                    for d, sc in alt.items():
                        sc *= clause.alternative_weight
                        if sc > part.get(d, 0.0):
                            part[d] = sc
            if clause.weight != 1.0:
                part = {d: sc * clause.weight for d, sc in part.items()}
            if clause.mode != "not":
                parts.append((clause, alternatives))
            {"should": should, "must": must, "not": nots}[clause.mode].append(part)
            if clause.mode == "should":
                origins.append(clause.origin)
                weights.append(clause.weight * _power(self._idf(len(part)), self.ranking.idf_power)
                               if self.ranking.idf_coverage else 1.0)
                concepts.append([tuple(s for w in a.words for s in word_stems(w)) for a in clause.atoms
                                 if a.kind in ("word", "phrase")])
                labels.append(_label(clause))
            if clause.mode == "should" and len(clause.atoms) == 1 and clause.atoms[0].kind == "word":
                should_stems.append(stem(clause.atoms[0].words[0]))
        r = self.ranking
        total: Scores = {}
        if must:
            keys = set(min(must, key=len))
            for part in must:
                keys.intersection_update(part)
            total = {d: sum(p[d] for p in must) for d in keys}
            for part in should:
                for d, s in part.items():
                    if d in total:
                        total[d] += s
        elif should:
            hits: dict[int, float] = {}
            # A rule that holds none of the question's own concepts keeps card_alone of what a
            # named card's concepts give it: Trample's rules do not answer "ETB trigger, does
            # it use the stack" about a card with Trample.
            alone = r.card_alone if parsed.question and r.card_alone != 1.0 else 1.0
            own: set[int] = set()
            if alone != 1.0:
                for part, origin in zip(should, origins):
                    if origin not in ("card", "shape"):
                        own.update(part)
            for part, weight, origin in zip(should, weights, origins):
                lowered = alone != 1.0 and origin == "card"
                for d, s in part.items():
                    share = alone if lowered and d not in own else 1.0
                    total[d] = total.get(d, 0.0) + s * share
                    hits[d] = hits.get(d, 0.0) + weight * share
            whole = sum(weights)
            coord = r.coord_long if parsed.question and len(should) >= r.long_question else r.coord
            if len(should) > 1 and coord and whole > 0:
                total = {d: s * (hits[d] / whole) ** coord for d, s in total.items()}
        sections: dict[int, tuple[float, list[int]]] = {}
        if r.from_section and parsed.question and total and len(should) > 1 and not must:
            sections = self._section_evidence(should, weights, hits, coord)
        if r.statement_weight and parsed.question and total and len(concepts) > 1:
            total = self._with_statements(total, concepts, weights, labels,
                                          {} if together is None else together)
        prior = self._shape_prior(parsed)
        if r.permission_weight and total and prior == "permission":
            total = self._with_permissions(total)
        if r.defining_weight and total and prior == "definition":
            gain = 1 + r.defining_weight
            defining = self._defining(parsed)
            total = {d: s * gain if d in defining else s for d, s in total.items()}
        if r.definition_weight and parsed.question and total:
            total = self._with_definitions(total, parsed, [] if defined is None else defined)
        # Only for a question: a phrase or an operator asks for rules that have the words.
        if (r.from_parent or r.from_children) and parsed.question and total:
            total = self._roll_up(total)
        for p, (s, held) in sections.items():
            s *= r.from_section
            if s > total.get(p, 0.0):
                total[p] = s
                if gathered is not None:
                    gathered[p] = [labels[i] for i in held]
        if r.from_referrers and parsed.question and total:
            total = self._follow_references(total, {} if referred is None else referred)
        for part in nots:
            for d in part:
                total.pop(d, None)
        if within:
            allowed = self._docs_within(within)
            total = {d: s for d, s in total.items() if d in allowed}
        if r.term_scope and total:
            scope = self._term_scope(parsed)
            if scope:
                total = {d: s * (1 + r.term_scope) if d in scope else s for d, s in total.items()}
        pairs = [(a, b) for a, b in zip(should_stems, should_stems[1:]) if a and b]
        if r.pair_boost and pairs and total:
            for d in heapq.nlargest(r.rerank, total, key=total.__getitem__):
                tokens = self.impacts.tokens(d)
                close = sum(1 for a, b in pairs if near(tokens, a, b, r.pair_slop))
                if close:
                    total[d] *= 1 + r.pair_boost * close / len(pairs)
        return total, parts

    def _section_evidence(self, should: list[Scores], weights: list[float], own: dict[int, float],
                          coord: float) -> dict[int, tuple[float, list[int]]]:
        """The evidence of each section (a rule and its children) whose rules between them
        hold more of the question's concepts than any one of them holds alone: the sum of each
        concept's best score in the section, times (the weight of the concepts it holds / the
        question's) ** ``coord``, and those concepts (indexes of ``should``). A question's
        concepts are often split over a section's rules (a keyword's heading and the rules
        under it); the roll-up of the best child alone does not see that. ``own``: the weight
        of the concepts each matching rule holds (the coordination's)."""
        parent_of = self.impacts.parent
        members: dict[int, int] = {}
        for d in own:
            p = parent_of[d]
            if p >= 0:
                members[p] = members.get(p, 0) + 1
        for d in members:
            if d in own:
                members[d] += 1
        sections = {p for p, n in members.items() if n >= 2}
        whole = sum(weights)
        if not sections or whole <= 0:
            return {}
        best: dict[int, dict[int, float]] = {p: {} for p in sections}  # section → concept → best score
        for i, part in enumerate(should):
            for d, s in part.items():
                for p in (d, parent_of[d]):
                    row = best.get(p)
                    if row is not None and s > row.get(i, 0.0):
                        row[i] = s
        alone: dict[int, float] = {}  # section → the most any one of its rules holds
        for d, held in own.items():
            for p in (d, parent_of[d]):
                if p in sections and held > alone.get(p, 0.0):
                    alone[p] = held
        out: dict[int, tuple[float, list[int]]] = {}
        for p, row in best.items():
            held = sum(weights[i] for i in row)
            if held > alone.get(p, 0.0) + 1e-9:
                out[p] = (sum(row.values()) * _power(held / whole, coord), list(row))
        return out

    def _with_statements(self, total: Scores, concepts: list[list[tuple[str, ...]]],
                         weights: list[float], labels: list[str], together: dict[int, list[str]]) -> Scores:
        """Each matching rule scored × (1 + ``statement_weight`` × the share of the question's
        concepts (weighed as in the coordination) that one of its statements holds together:
        its statements in players' words and the timing model's summaries of it ("no one can
        respond to a unit or gear being played" holds respond, unit and played). Before the
        roll-up, so its section shares it. ``together`` gets each such rule's concepts held by
        that statement (the first of its best), by their ``labels``."""
        whole = sum(weights)
        if whole <= 0:
            return total
        statements, where, first_summary = self._statement_index()
        gain = self.ranking.statement_weight
        held: dict[tuple[int, int], float] = {}  # (document, statement) → weight of what it holds
        holds: dict[tuple[int, int], list[int]] = {}  # … and which concepts
        for i, (alternatives, w) in enumerate(zip(concepts, weights)):
            found: set[tuple[int, int]] = set()
            for a in alternatives:
                if a:
                    found.update(at for at in where.get(a[0], ()) if at[0] in total
                                 and (len(a) == 1 or statements[at[0]][at[1]].issuperset(a)))
            shares = self._model_shares(alternatives) if found else []
            for at in found:
                d, k = at
                share = 1.0 if k < first_summary[d] else max(
                    (sh for a, sh in zip(alternatives, shares) if a and statements[d][k].issuperset(a)),
                    default=1.0)
                held[at] = held.get(at, 0.0) + w * share
                holds.setdefault(at, []).append(i)
        best: dict[int, tuple[float, int]] = {}  # document → (weight held, its statement)
        for (d, k), h in sorted(held.items()):
            if h > best.get(d, (0.0, -1))[0] + STATEMENT_TIE:
                best[d] = (h, k)
        out = dict(total)
        for d, (h, k) in best.items():
            out[d] = total[d] * (1 + gain * h / whole)
            named = list(dict.fromkeys(labels[i] for i in holds[(d, k)]))
            if len(named) > 1:
                together[d] = named
        return out

    def _model_shares(self, alternatives: list[tuple[str, ...]]) -> list[float]:
        """The share each alternative of a concept keeps in a timing model's summary holding it:
        its words' least :meth:`Impacts.rules_share` (with ``model_words``; else 1). A statement
        in players' words keeps the whole concept; in a summary the concept keeps its best
        alternative's share among those the summary holds (:meth:`_with_statements`)."""
        if not self.ranking.model_words:
            return [1.0] * len(alternatives)
        share = self.impacts.rules_share
        return [min((share(s) for s in a), default=1.0) for a in alternatives]

    def _statement_index(self) -> tuple[dict[int, list[frozenset[str]]], StemPlaces, dict[int, int]]:
        """Each document's statements (players' words, then the timing model's summaries) as
        sets of stems, where each stem stands ((document, statement) pairs), and each document's
        first summary (its statements before it are in players' words). Made once per searcher."""
        if self._statements is None:
            docnum = self.impacts.docnum
            statements: dict[int, list[frozenset[str]]] = {}
            where: StemPlaces = {}
            first_summary: dict[int, int] = {}
            for number in sorted({*self._players, *self._answers}):
                if number in docnum:
                    players = self._players.get(number, ())
                    said = [*players, *self._answers.get(number, ())]
                    d = docnum[number]
                    statements[d] = [frozenset(analyse(x)) for x in said]
                    first_summary[d] = len(players)
                    for k, words in enumerate(statements[d]):
                        for w in words:
                            where.setdefault(w, []).append((d, k))
            self._statements = (statements, where, first_summary)
        return self._statements

    def _shape_prior(self, parsed: ParsedQuery) -> str:
        """The prior of a question's shape: "permission" when it asks whether a player may act
        ("can I … when"), "definition" when it asks what a term means ("what does X mean"),
        "" for any other shape and for a query that is no question."""
        if not parsed.question:
            return ""
        return next((s.prior for s in self.vocabulary.shapes if s.name == parsed.shape), "")

    def _defining(self, parsed: ParsedQuery) -> dict[int, list[str]]:
        """The documents defining a term the question names (:meth:`_named_terms`, not the
        words its shape or a card brought in), each with the names of the terms: a term's
        defining rules and the rules right under them, since a keyword's defining rule is often
        a heading naming it ("701.8 Destroy") whose first rule says what it means."""
        out: dict[int, list[str]] = {}
        for key in self._named_terms([c for c in parsed.clauses if c.origin not in ("shape", "card")]):
            term = self.rg.edition.terms[key]
            if key in self._referrals:
                continue
            for d in self._defining_docs(key):
                names = out.setdefault(d, [])
                if term.name not in names:
                    names.append(term.name)
        return out

    def _defining_docs(self, key: str) -> list[int]:
        """A term's defining rules and the rules right under them, as documents in document
        order, without a defining rule that only names the term (a heading: "701.8 Destroy",
        which the roll-up lifts by the rules under it; made once per term)."""
        found = self._defines.get(key)
        if found is None:
            ed, docnum = self.rg.edition, self.impacts.docnum
            term = ed.terms[key]
            defining = set(term.defined_by)
            numbers = {n for n, rule in ed.rules.items() if rule.parent in defining}
            named = analyse(term.name)
            numbers.update(n for n in defining
                           if n in ed.rules and analyse(ed.rules[n].text or ed.rules[n].title) != named)
            found = self._defines[key] = sorted(docnum[n] for n in numbers if n in docnum)
        return found

    def _with_permissions(self, total: Scores) -> Scores:
        """The matching rules a legality check of the timing model cites (the rules that say
        when a player may act: "a chain exists: only Reaction may be played" cites 309.1.a)
        scored × (1 + ``permission_weight``), before the roll-up, so their sections share it."""
        permits = self._permits
        if permits is None:
            docnum = self.impacts.docnum
            permits = self._permits = {docnum[n] for n in self._permissions if n in docnum}
        gain = 1 + self.ranking.permission_weight
        return {d: s * gain if d in permits else s for d, s in total.items()}

    def _with_definitions(self, total: Scores, parsed: ParsedQuery, defined: list[Defined]) -> Scores:
        """Each matching rule gains ``definition_weight`` × the keyword's weight × the mean,
        over the words of the definition of each keyword the question names (its reminder
        text: "Destroy: to move a permanent from the battlefield to its owner's graveyard";
        not its own words, the question's or question words), of that rule's score on them:
        a rule about what the keyword does holds its definition's words where the question
        does not say them. ``defined`` gets each keyword applied (its clause, the words it
        brought in, their share and the scores before), for :meth:`_definition_reason`."""
        out = dict(total)
        definitions = self.keyword_definitions()
        asked = {st for c in parsed.clauses for a in c.atoms for w in a.words for st in word_stems(w)}
        for c in parsed.clauses:
            if c.origin != "term" or c.mode != "should":
                continue
            match = " ".join(c.atoms[0].words)
            if match not in definitions and match.endswith("s"):
                match = match[:-1]
            found = definitions.get(match, ())
            said = [(st, w) for st, w in found if st not in asked]
            if not said:
                continue
            share = self.ranking.definition_weight * c.weight / len(said)
            sums = self._definition_sums(match)
            # The question's own words in the definition are taken off the definition's sum.
            minus = [self.impacts.word(st) for st, _w in found if st in asked]
            docs = (d for d in total if d in sums) if len(total) < len(sums) else (d for d in sums if d in out)
            for d in docs:
                v = sums[d]
                for m in minus:
                    v -= m.get(d, 0.0)
                out[d] += share * v
            defined.append((c, said, share, total))
        return out

    def _definition_sums(self, match: str) -> Scores:
        """Each rule's summed score on the words of a keyword's definition
        (:meth:`keyword_definitions`, in their order; made once per keyword)."""
        found = self._definition_scores.get(match)
        if found is None:
            found = {}
            for st, _w in self.keyword_definitions().get(match, ()):
                for d, sc in self.impacts.word(st).items():
                    found[d] = found.get(d, 0.0) + sc
            self._definition_scores[match] = found
        return found

    def _definition_reason(self, defined: list[Defined], d: int) -> str | None:
        """Why a hit gained from the definitions of the keywords the question names: each
        keyword that gave it ``DEFINITION_SHOWN`` of its score or more, with the words of its
        definition that gave the most (``DEFINITION_WORDS_SHOWN`` at most)."""
        labels = []
        for c, said, share, before in defined:
            if d not in before:
                continue
            gains = sorted((-share * sc, k, w) for k, (st, w) in enumerate(said)
                           if (sc := self.impacts.word(st).get(d)) is not None)
            if gains and -sum(g for g, _k, _w in gains) >= DEFINITION_SHOWN * before[d]:
                labels.append(f"{_label(c)}: " + ", ".join(w for _g, _k, w in gains[:DEFINITION_WORDS_SHOWN]))
        return DEFINITION_REASON + "; ".join(labels) if labels else None

    def keyword_definitions(self) -> dict[str, list[tuple[str, str]]]:
        """Each keyword of the edition (keyed as :attr:`_terms` keys it) → the words of its
        definition a question naming it brings in: (stem, the word as the definition first
        writes it), in stem order, without the keyword's own words, question words and
        stop words (made once; the offline search's index carries them)."""
        if self._definitions is None:
            common = {st for w in self.vocabulary.question_words for st in word_stems(w)}
            out: dict[str, list[tuple[str, str]]] = {}
            for match, key in self._terms.items():
                term = self.rg.edition.terms[key]
                if term.kind != "keyword" or key in self._referrals or not term.definition:
                    continue
                own = set(analyse(key)) | common
                first: dict[str, str] = {}
                for m in WORD.finditer(term.definition):
                    for st in word_stems(m.group().lower()):
                        if st not in own:
                            first.setdefault(st, m.group())
                if first:
                    out[match] = sorted(first.items())
            self._definitions = out
        return self._definitions

    def _roll_up(self, total: Scores) -> Scores:
        """A rule's evidence shared with its parent and children: rules are short, and a
        question's concepts are often split between a heading and the rule under it."""
        r = self.ranking
        parent_of = self.impacts.parent
        out = dict(total)
        best_child: Scores = {}
        for d, s in total.items():
            p = parent_of[d]
            if p >= 0 and s > best_child.get(p, 0.0):
                best_child[p] = s
        if r.from_children:
            for p, s in best_child.items():
                out[p] = out.get(p, 0.0) + r.from_children * s
        if r.from_parent:
            for d, s in total.items():
                p = parent_of[d]
                if p >= 0 and p in total:
                    out[d] += r.from_parent * total[p]
        return out

    def _follow_references(self, total: Scores, referred: dict[int, int]) -> Scores:
        """A rule gains ``from_referrers`` of the best score among the rules that refer to it
        ("… See rule 406.5"): a matching rule often leaves what the question turns on to the
        rule it names. ``referred`` gets the referring rule (on a tie, the first in document
        order)."""
        share = self.ranking.from_referrers
        refers = self._references()
        order = self._order
        out = dict(total)
        best: Scores = {}
        for d in self._referring:  # the few rules that refer to any, in document order
            s = total.get(d)
            if s is None:
                continue
            gain = share * s
            for t in refers[d]:
                if gain > best.get(t, 0.0) or (t in referred and gain == best[t]
                                               and order[d] < order[referred[t]]):
                    best[t] = gain
                    referred[t] = d
        for t, gain in best.items():
            out[t] = total.get(t, 0.0) + gain
        return out

    def _references(self) -> list[list[int]]:
        """The documents each document's rule refers to, in document order (read once)."""
        found = self._refers
        if found is None:
            docnum = self.impacts.docnum
            rules = self.rg.edition.rules
            found = self._refers = [sorted(docnum[t] for t in self.rg.references(n) if t in docnum)
                                    if n in rules else [] for n in self.impacts.number]
            self._referring = [d for d, targets in enumerate(found) if targets]
        return found

    @property
    def _order(self) -> list[int]:
        """Each document's place in the edition's document order (-1: no rule)."""
        rules = self.rg.edition.rules
        if self._orders is None:
            self._orders = [rules[n].order if n in rules else -1 for n in self.impacts.number]
        return self._orders

    def _with_kinds(self, parsed: ParsedQuery) -> ParsedQuery:
        """Each concept the rules list as one kind of a heading (:func:`kinds_of`) also
        matches the heading's words: "banishes" is also "Non-Board Zones", so a rule about
        every non-board zone answers a question about banishment."""
        kinds = self._kinds
        if kinds is None:
            kinds = self._kinds = kinds_of(self.rg)
        clauses = []
        for c in parsed.clauses:
            found = (kinds.get(tuple(analyse(" ".join(c.atoms[0].words))))
                     if c.mode == "should" and len(c.atoms) == 1 and c.origin in ("typed", "term")
                     and c.atoms[0].kind in ("word", "phrase") else None)
            if found:
                c = replace(c, atoms=[c.atoms[0], *found], origin="kind", label=_label(c),
                            alternative_weight=self.ranking.kind_weight)
            clauses.append(c)
        return replace(parsed, clauses=clauses)

    def _idf(self, df: int) -> float:
        """How rare a concept is: log(1 + N / df) over the edition's rules (0 when unmatched)."""
        return math.log(1 + self.impacts.count / df) if df else 0.0

    def _term_scope(self, parsed: ParsedQuery) -> set[int]:
        """Documents inside the rules that define any term named by consecutive query words."""
        docs: set[int] = set()
        for key in self._named_terms(parsed.clauses):
            docs |= self._docs_within(self.rg.edition.terms[key].defined_by)
        return docs

    def _named_terms(self, clauses: list[Clause]) -> list[str]:
        """The keys of the terms consecutive words of the clauses name (up to four words, the
        longest first; a plural read as its singular, else another form of its words: "kill"
        names Riftbound's "Killing", "destroyed" Magic's "Destroy"), in the order named."""
        words = [w for c in clauses if c.mode != "not" for a in c.atoms
                 if a.kind in ("word", "phrase") for w in a.words]
        if self._term_stems is None:
            self._term_stems = {}
            for match, key in self._terms.items():
                if stems := " ".join(analyse(match)):
                    self._term_stems.setdefault(stems, key)
        keys: list[str] = []
        for i in range(len(words)):
            for j in range(min(len(words), i + 4), i, -1):
                key = self._terms.get(" ".join(words[i:j]))
                if key is None and j - i == 1 and words[i].endswith("s"):
                    key = self._terms.get(words[i][:-1])
                if key is None:
                    key = self._term_stems.get(" ".join(analyse(" ".join(words[i:j]))))
                if key is not None:
                    keys.append(key)
                    break
        return keys

    def _atom_scores(self, atom: Atom) -> Scores:
        if atom.kind == "prefix":
            return self.impacts.prefix(atom.words[0])
        words = ([format_number(atom.segments, self.rg.edition.number_style)]
                 if atom.kind == "number" else list(atom.words))
        stems = [s for w in words for s in analyse(w)]
        if not stems:
            return {}
        if len(stems) == 1:
            other = NUMBER_WORDS.get(stems[0])
            if other is None:
                return self.impacts.word(stems[0])
            return best_of(self.impacts.word(stems[0]), self.impacts.word(other))
        return self.impacts.phrase(stems)

    def _docs_within(self, within: list[str]) -> set[int]:
        docs: set[int] = set()
        for section in within:
            found = self._within.get(section)
            if found is None:
                docnum = self.impacts.docnum
                found = self._within[section] = {docnum[n] for n in self.rg.subtree(section) if n in docnum}
            docs |= found
        return docs

    def _marks(self, parsed: ParsedQuery) -> Any:
        stems: set[str] = set()
        prefixes: list[str] = []
        for clause in parsed.clauses:
            if clause.mode == "not":
                continue
            for atom in clause.atoms:
                if atom.kind == "prefix":
                    prefixes.append(atom.words[0])
                else:
                    stems.update(stem(w) for w in atom.words)
        stems.discard("")
        return matcher(stems, tuple(prefixes))

    def number_hits(self, numbers: list[str]) -> list[dict[str, Any]]:
        """The hits of these rules of the edition, in the order given, each as a typed
        number's (as a search of numbers lists them: no score, no reasons)."""
        return [self._result(n, 0.0, "number", None) for n in numbers]

    def breadcrumbs(self, number: str) -> list[dict[str, str]]:
        """The headings above a rule, chapter first."""
        crumbs = self._crumbs.get(number)
        if crumbs is None:
            rules = self.rg.edition.rules
            crumbs = [{"number": a, "title": rules[a].label} for a in self.rg.ancestors(number)]
            self._crumbs[number] = crumbs
        return crumbs

    def _result(self, number: str, score: float, how: str, marks: Any,
                matched: list[str] | None = None, said: set[str] | None = None) -> dict[str, Any]:
        """One hit: its rule, excerpt and reasons. ``said``: the timing model's summaries the
        hits above it on the page already gave, which it does not repeat (it adds its own)."""
        rule = self.rg.edition.rules[number]
        parts = [p for p in (rule.text or rule.title, *rule.examples) if p]
        text = parts[0] if parts else ""
        if marks is not None and len(parts) > 1 and not count_matches(text, marks):
            text = max(parts, key=lambda p: count_matches(p, marks))
        matched = list(matched or [])
        if marks is not None:
            # The rule's statement in players' words, when the question's words are in it.
            matched.extend(f"in players' words: {p}" for p in self._players.get(number, ())
                           if count_matches(p, marks))
            # The timing model's summaries of the rule (the field weighed most) that matched
            # too, as one reason: a rule that many transitions cite would repeat the prefix.
            # A summary a hit above already said is not said again (sibling rules share them).
            told = [a for a in self._answers.get(number, ()) if count_matches(a, marks)
                    and (said is None or a not in said)]
            if said is not None:
                said.update(told)
            if told:
                matched.append(TIMING_MODEL_REASON + SUMMARY_JOINER.join(told))
        return {"number": number, "title": rule.label,
                "excerpt": excerpt(text, marks or (lambda w: False)),
                "score": round(score, 4), "breadcrumbs": self.breadcrumbs(number),
                "kind": rule.kind, "match": how, "matched": matched}


def _power(x: float, p: float) -> float:
    """x ** p, written out for the small whole powers so the browser's search (which mirrors
    this) computes the very same floats."""
    if p == 1.0:
        return x
    if p == 2.0:
        return x * x
    if p == 3.0:
        return x * x * x
    return x ** p


# What a concept's label leaves off its ends.
LABEL_EDGES = " ,.?!;:"


def _label(clause: Clause) -> str:
    """How a concept is named in an explanation."""
    if clause.label:
        return clause.label
    return " ".join(a.text for a in clause.atoms).strip(LABEL_EDGES)


def _matched(parts: list[tuple[Clause, list[Scores]]], docnum: int | None) -> list[str]:
    """Why a rule matched: each concept it has, and for a player's word the rules' words
    that stood in for it ("respond → reaction")."""
    if docnum is None:
        return []
    out = []
    for clause, alternatives in parts:
        if clause.origin == "typed":
            if any(docnum in sc for sc in alternatives):
                out.append(_label(clause))
            continue
        found = [a for a, sc in zip(clause.atoms, alternatives) if docnum in sc]
        if not found:
            continue
        if clause.origin == "vocabulary" and found[0] is not clause.atoms[0]:
            out.append(f"{_label(clause)} → " + ", ".join(a.text for a in found))
        elif clause.origin == "shape" or (clause.origin == "kind" and found[0] is not clause.atoms[0]):
            out.append(f"{clause.label} → " + ", ".join(a.text for a in found))
        else:
            out.append(_label(clause))
    return out


def _same_case(original: str, fixed: str | None) -> str:
    if fixed is None:
        return original
    if original.isupper() and len(original) > 1:
        return fixed.upper()
    if original[:1].isupper():
        return fixed[:1].upper() + fixed[1:]
    return fixed
