"""BM25F over an edition's whoosh index, with each word's scores computed once.

A word's BM25F contribution to a rule depends only on the word, the rule and the field
boosts, never on the rest of the query. So the first time a query uses a word, its postings
are read from the whoosh index and turned into ``{document: score}``; every later query adds
up those dicts. On a few thousand rules this answers in well under a millisecond, where
whoosh's own matchers (a tree of union matchers per query, then a second pass to count the
matches) take several (see bench/RESULTS.md). The index, its lexicon and its statistics
stay whoosh's.

BM25F as in Robertson & Zaragoza (2009): per field, term frequency normalised by the field's
length (``b``), weighted by the field's boost and summed, then saturated once (``k1``) and
multiplied by the word's idf over the whole rule.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping

from whoosh.index import Index

from kb.graph import RuleGraph
from kb.search.schema import TEXT_FIELDS, analyse, defined_terms

Scores = dict[int, float]
MAX_PREFIX_WORDS = 64
# The field of the timing model's summaries of a rule, and the fields of the rule's own words.
MODEL_FIELD = "answers"
RULES_OWN_FIELDS = ("title", "text", "examples", "terms")
# A heading whose whole text is one or two words naming a term defined elsewhere ("652.5.c.
# Priority" inside Removal of a Player; Priority is defined in 312.1) is a local case of the
# term, not its rules: in that heading and the rules under it, the term's words score this much
# (the default of Ranking.echo_share).
ECHO_SHARE = 0.5
ECHO_MOST_WORDS = 2


class Impacts:
    """Per-word BM25F scores of one edition's index, filled in as queries use words.

    Safe to share between threads: filling takes a lock, reading a filled entry does not.
    """

    def __init__(self, rg: RuleGraph, index: Index, boosts: Mapping[str, float],
                 b: float = 0.75, k1: float = 1.2, model_words: bool = False,
                 echo_share: float = ECHO_SHARE):
        self.rg = rg
        self.echo_share = echo_share
        self.model_words = model_words
        self.boosts = {f: w for f, w in boosts.items() if w and f in TEXT_FIELDS}
        self.b, self.k1 = b, k1
        self._lock = threading.RLock()  # RLock: a word's scores, filled under it, ask rules_share
        self._reader = index.reader()
        reader = self._reader
        self.number: list[str] = [""] * reader.doc_count_all()
        for docnum, fields in reader.iter_docs():
            self.number[docnum] = fields["number"]
        self.docnum = {n: d for d, n in enumerate(self.number) if n}
        rules = rg.edition.rules
        # The parent rule's document of every document (-1 for a chapter or a stray document).
        self.parent: list[int] = [
            self.docnum.get(rules[n].parent, -1) if n in rules and rules[n].parent is not None else -1
            for n in self.number]
        self.count = max(1, reader.doc_count())
        # Per field: 1 / ((1 - b) + b * length / average length), for every document. The
        # average is over the rules that have the field (as Lucene does): most rules have no
        # title or examples, and averaging over all of them would crush those fields.
        self._norm: dict[str, list[float]] = {}
        for field in self.boosts:
            lengths = [reader.doc_field_length(d, field, 0) or 0 for d in range(len(self.number))]
            having = sum(1 for n in lengths if n)
            avg = (sum(lengths) / having) if having else 1.0
            self._norm[field] = [1.0 / ((1 - b) + b * n / avg) if n else 0.0 for n in lengths]
        self._scores: dict[str, Scores] = {}
        self._shares: dict[str, float] = {}
        self._tokens: dict[int, list[str]] = {}
        self._defines = defined_terms(rg)
        self.echoes = echo_headings(rg, self.docnum) if echo_share != 1.0 else {}

    def close(self) -> None:
        self._reader.close()

    def word(self, stem: str) -> Scores:
        """BM25F score of every rule that has this (analysed) word, by document number."""
        found = self._scores.get(stem)
        if found is None:
            with self._lock:
                found = self._scores.get(stem)
                if found is None:
                    found = self._scores[stem] = self._compute(stem)
        return found

    def _compute(self, stem: str) -> Scores:
        weighted: dict[int, float] = {}
        own: set[int] = set()  # the rules holding it in a field of their own (not the summaries')
        reader = self._reader
        for field, boost in self.boosts.items():
            if (field, stem) not in reader:
                continue
            norm = self._norm[field]
            postings = reader.postings(field, stem)
            for docnum, tf in postings.items_as("weight"):
                weighted[docnum] = weighted.get(docnum, 0.0) + boost * tf * norm[docnum]
                if field != MODEL_FIELD:
                    own.add(docnum)
        if not weighted:
            return {}
        df = len(weighted)
        idf = math.log(1 + (self.count - df + 0.5) / (df + 0.5))
        k1 = self.k1
        # A rule holding the word only in the timing model's summaries of it keeps the share
        # the rules' own words give the word (rules_share).
        share = self.rules_share(stem) if self.model_words else 1.0
        echoes = self.echoes
        return {d: idf * w * (k1 + 1) / (w + k1) * (1.0 if d in own else share)
                * (self.echo_share if stem in echoes.get(d, ()) else 1.0)
                for d, w in weighted.items()}

    def rules_share(self, stem: str) -> float:
        """How much the rules' own words use a word the timing model's summaries use: the
        rules holding it in their own fields (title, text, examples, terms) over the summaries
        holding it, at most 1 (1 for a word no summary holds). A word the summaries say far
        more often than the rules ("goes on the chain", "what is there stays") is the model's
        phrasing, not a concept of the rules; a question's weak word matching it must not
        outrank its content words."""
        found = self._shares.get(stem)
        if found is None:
            with self._lock:  # the reader is shared; only one thread reads it at a time
                found = self._shares.get(stem)
                if found is None:
                    found = self._shares[stem] = self._share(stem)
        return found

    def _share(self, stem: str) -> float:
        """:meth:`rules_share` read from the index (under the lock)."""
        reader = self._reader
        said = reader.doc_frequency(MODEL_FIELD, stem) if (MODEL_FIELD, stem) in reader else 0
        if not said:
            return 1.0
        own: set[int] = set()
        for field in RULES_OWN_FIELDS:
            if (field, stem) in reader:
                own.update(reader.postings(field, stem).all_ids())
        return min(1.0, len(own) / said)

    def prefix(self, prefix: str) -> Scores:
        """The best score per rule of any word starting with ``prefix`` (at most 64 words)."""
        words: set[str] = set()
        with self._lock:  # the reader is shared; only one thread reads it at a time
            for field in self.boosts:
                for term in self._reader.expand_prefix(field, prefix):
                    words.add(term.decode("utf-8") if isinstance(term, bytes) else term)
                    if len(words) >= MAX_PREFIX_WORDS:
                        break
        out: Scores = {}
        for w in words:
            for d, s in self.word(w).items():
                if s > out.get(d, 0.0):
                    out[d] = s
        return out

    def tokens(self, docnum: int) -> list[str]:
        """The analysed words of a rule (title, text, examples, terms it defines) in order,
        for phrases and proximity; a gap separates the parts so a phrase never spans two."""
        found = self._tokens.get(docnum)
        if found is None:
            number = self.number[docnum]
            rule = self.rg.edition.rules[number]
            found = []
            for part in (rule.title, rule.text, *rule.examples, *self._defines.get(number, ())):
                if part:
                    found.extend(analyse(part))
                    found.append("")
            self._tokens[docnum] = found
        return found

    def phrase(self, stems: list[str]) -> Scores:
        """Rules with these words next to each other (stop words aside), scored as the words."""
        parts = [self.word(s) for s in stems]
        if not parts or not all(parts):
            return {}
        smallest = min(parts, key=len)
        out: Scores = {}
        for d in smallest:
            if all(d in p for p in parts) and _contains(self.tokens(d), stems):
                out[d] = sum(p[d] for p in parts)
        return out


def echo_headings(rg: RuleGraph, docnum: Mapping[str, int]) -> dict[int, frozenset[str]]:
    """The documents that are, or stand under, a heading echoing a term defined elsewhere,
    with the term's stems: a heading two or more levels under its chapter whose whole text is
    at most ``ECHO_MOST_WORDS`` words that are a term's name, no defining rule of that term at
    or under it."""
    ed = rg.edition
    names: dict[tuple[str, ...], set[str]] = {}
    for term in ed.terms.values():
        key = tuple(analyse(term.name))
        if key:
            names.setdefault(key, set()).update(term.defined_by)
    own: dict[int, frozenset[str]] = {}
    heads: dict[str, frozenset[str]] = {}
    for number, rule in ed.rules.items():
        words = analyse(" ".join(w for w in (rule.title, rule.text) if w))
        if rule.examples or not 0 < len(words) <= ECHO_MOST_WORDS:
            continue
        defining = names.get(tuple(words))
        if not defining or _depth(ed.rules, number) < 2 or any(
                number in _ancestors(ed.rules, d) for d in defining if d in ed.rules):
            continue
        heads[number] = frozenset(words)
        if number in docnum:
            own[docnum[number]] = frozenset(words)
    if heads:
        for number, rule in ed.rules.items():
            held: set[str] = set()
            parent = rule.parent
            while parent is not None:
                held.update(heads.get(parent, ()))
                parent = ed.rules[parent].parent
            if held and number in docnum:
                own[docnum[number]] = frozenset(held)
    return own


def _ancestors(rules: Mapping, number: str) -> list[str]:
    """The numbers above a rule, its parent first, and the rule itself first of all."""
    out = [number]
    parent = rules[number].parent
    while parent is not None:
        out.append(parent)
        parent = rules[parent].parent
    return out


def _depth(rules: Mapping, number: str) -> int:
    """How many rules stand above this one (0 for a chapter)."""
    return len(_ancestors(rules, number)) - 1


def _contains(tokens: list[str], stems: list[str]) -> bool:
    n = len(stems)
    first = stems[0]
    for i, t in enumerate(tokens):
        if t == first and tokens[i:i + n] == stems:
            return True
    return False


def near(tokens: list[str], a: str, b: str, slop: int) -> bool:
    """True when ``b`` follows ``a`` within ``slop`` words."""
    last_a = -10 ** 6
    for i, t in enumerate(tokens):
        if t == a:
            last_a = i
        elif t == b and 0 < i - last_a <= slop:
            return True
    return False


def union(parts: Iterable[Scores]) -> Scores:
    """Scores of rules matching any part (summed)."""
    out: Scores = {}
    for p in parts:
        for d, s in p.items():
            out[d] = out.get(d, 0.0) + s
    return out
