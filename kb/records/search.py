"""Searching rulings: a judge's question often matches an earlier ruling's question.

BM25 (``bm25s``) over each ruling's question (counted twice: it is what a new question
resembles) and answer, words lower-cased, English stop words dropped, Porter-stemmed
(whoosh's stemmer, as the rules' own search stems), so "finalizing" finds "finalize". The
index is derived per build and record set (:func:`kb.derived.derived`). A hit carries the
rules the ruling cites, as numbers of the newest edition, so a caller can bring them in:
:func:`ruling_hits` is the function a rule search merges (see its docstring).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from whoosh.lang.porter import stem

from kb.derived import derived
from kb.errors import QueryError
from kb.limits import SEARCH_LIMIT, SEARCH_QUERY_CHARS
from kb.records.citing import RecordCitations, analyse, cited_by_index, counterpart, current_records, staleness
from kb.records.citing import _read as read_citations
from kb.records.model import Record
from kb.records.store import RecordSet
from kb.search.query import SearchError, parse_query
from kb.search.searcher import Evidence
from kb.search.understand import vocabulary

if TYPE_CHECKING:
    from kb.loaded import LoadedEditions
    from kb.search.query import ParsedQuery

_WORD = re.compile(r"\w\w+")


@lru_cache(maxsize=1)
def _stop_words() -> frozenset[str]:
    """bm25s's English stop words (bm25s, and numpy with it, imported when a ruling is
    first scored: a search of a ruleset without rulings loads neither)."""
    from bm25s.stopwords import STOPWORDS_EN
    return frozenset(STOPWORDS_EN)


def words(text: str) -> list[str]:
    """The terms of a text as the index holds them."""
    stop = _stop_words()
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in stop]


@dataclass(frozen=True)
class RulingIndex:
    """The BM25 index of every ruling of a record set (None when there are none), and each
    ruling's own question's score against it (``own``, by id: what asking that very question
    again scores, the measure of how fully another question asks it)."""

    rulings: tuple[Record, ...]
    retriever: Any
    own: dict[str, float] = field(default_factory=dict)


@derived
def ruling_index(kb: LoadedEditions, records: RecordSet) -> RulingIndex:
    """The ruling index of a record set (module docstring)."""
    rulings = tuple(records.of_kind("ruling"))
    if not rulings:
        return RulingIndex((), None)
    import bm25s
    retriever = bm25s.BM25()
    retriever.index([words(f"{r.question} {r.question} {r.answer}") or ["\0"] for r in rulings],
                    show_progress=False)
    own = {r.id: float(retriever.get_scores(words(as_asked(r.question, r.ruleset)) or ["\0"])[i])
           for i, r in enumerate(rulings)}
    return RulingIndex(rulings, retriever, own)


@derived
def ruling_stems(kb: LoadedEditions, records: RecordSet) -> frozenset[str]:
    """Every stem of the rulings' questions and answers, stop words kept: a query sharing
    none of them scores 0 against every ruling (a BM25 score is above 0 only for a shared
    term), so it is not scored, and bm25s (numpy) is not loaded for it."""
    return frozenset(stem(w) for r in records.of_kind("ruling")
                     for w in _WORD.findall(f"{r.question} {r.answer}".lower()))


def as_asked(question: str, ruleset: str | None) -> str:
    """A ruling's question as the rule search reads a question typed into it: without the
    question words it leaves out ("can", "I", "being": :data:`kb.search.query.QUESTION_WORDS`,
    the leading words and the ruleset's ``question_words``), so that asking a ruling's very
    question again scores what its own question scores, and brings its rules in at full
    strength. A question of nothing but such words is kept as it is."""
    try:
        parsed = parse_query(question)
    except SearchError:
        return question
    common = vocabulary(ruleset or "").question_words
    kept = [w for c in parsed.clauses if c.mode != "not" for a in c.atoms for w in a.words]
    asked = [w for w in kept if w not in common]
    return " ".join(asked or kept) or question


def ruling_hits(kb: LoadedEditions, query: str, ruleset: str | None = None, limit: int = 10,
                records: RecordSet | None = None) -> list[tuple[Record, float, list[str]]]:
    """``(ruling, score, cited rules)`` for a query, best first: the rulings whose question
    and answer share stemmed words with it (score > 0), of ``ruleset`` when given, and the
    rules each cites as numbers of its ruleset's newest edition (a removed rule is left out).

    To merge them into a rule search, add each cited rule with a share of the ruling's
    score (e.g. ``0.5 * score / best_score`` times the best rule hit's score), so a rule an
    earlier ruling on the same question rests on rises without outranking an exact match.
    """
    records = records if records is not None else current_records(kb)
    scored = _scored_rulings(kb, query, ruleset, limit, records)
    if not scored:
        return []
    analysis = analyse(kb, records).records
    checked = staleness(kb, records)
    out: list[tuple[Record, float, list[str]]] = []
    for ruling, score in scored:
        now = [c["now"] for c in checked.get(("ruling", ruling.id), [])
               if c["now"] and c["ruleset"] == ruling.ruleset]  # the hit's rules are its ruleset's
        if ("ruling", ruling.id) in analysis:  # every record of the set is analysed
            out.append((ruling, score, list(dict.fromkeys(now))))
    return out


def _scored_rulings(kb: LoadedEditions, query: str, ruleset: str | None, limit: int,
                    records: RecordSet) -> list[tuple[Record, float]]:
    """The best ``limit`` rulings (of ``ruleset`` when given) scoring above 0 for the query,
    with their BM25 scores (rounded to 4 places): :func:`ruling_hits` without the rules each
    cites today, which a rule search does not read (it carries the rulings' own citations to
    the edition searched), so it does not check every record's staleness."""
    if not isinstance(query, str) or not query.strip():
        raise QueryError(400, "the ruling search needs words", {"query": str(query)[:200]})
    SEARCH_QUERY_CHARS.check(len(query), "the query")
    if not 1 <= limit <= SEARCH_LIMIT.value:
        raise QueryError(400, f"limit must be between 1 and {SEARCH_LIMIT.value}", {"limit": limit})
    if ruleset is not None:
        kb.editions(ruleset)  # 404 for a ruleset that is not built
    if not {stem(w) for w in _WORD.findall(query.lower())} & ruling_stems(kb, records):
        return []  # every ruling scores 0: the BM25 index is not made
    index = ruling_index(kb, records)
    terms = words(query)
    if index.retriever is None or not terms:
        return []
    docs, scores = index.retriever.retrieve([terms], k=len(index.rulings), show_progress=False)
    out: list[tuple[Record, float]] = []
    for i, score in zip(docs[0], scores[0]):
        ruling = index.rulings[int(i)]
        if score <= 0 or (ruleset is not None and ruling.ruleset != ruleset):
            continue
        out.append((ruling, round(float(score), 4)))
        if len(out) >= limit:
            break
    return out


@derived
def ruling_citations(kb: LoadedEditions, records: RecordSet, ruleset: str) -> dict[str, RecordCitations]:
    """The citations of each ruling of ``ruleset`` in ``records``, by id, read as
    :func:`kb.records.citing.analyse` reads them, but of these rulings alone: a rule search
    of one ruleset needs no article's citations nor another ruleset's, whose reading loads
    the editions they cite (a judge's ``rulekb search`` loaded every edition built)."""
    return {r.id: read_citations(kb, r) for r in records.of_kind("ruling") if r.ruleset == ruleset}


# A ruling the ruling search shows is a real match: it scores at least this share of the best
# ruling's score (the acceptance run saw 2.27 / 1.23 / 0.17, the last unrelated). Measured on
# the records test corpus (tests/fixtures/records and ruling-questions: 24 questions, each with
# the ruling that answers it): every answering ruling was the best hit, and the other rulings
# shown on those questions went 61 -> 1 (bench/RESULTS.md). A share of the ruling's own
# question's score as well was tried: it hides the answer to a short query ("holding a
# battlefield").
SHOWN_SHARE_OF_BEST = 0.5


def shown_rulings(hits: list[tuple[Record, float, list[str]]]) -> list[tuple[Record, float, list[str]]]:
    """The ruling hits a ruling search shows (:data:`SHOWN_SHARE_OF_BEST`): a ruling that
    scores far below the best one shares a word or two with the question, no answer to it."""
    best = max((score for _, score, _ in hits), default=0.0)
    return [hit for hit in hits if hit[1] >= SHOWN_SHARE_OF_BEST * best]


def search_rulings(kb: LoadedEditions, query: str, ruleset: str | None = None, limit: int = 10,
                   records: RecordSet | None = None) -> dict[str, Any]:
    """The answer shape of a ruling search: the query and each hit's ruling, score and the
    rules it cites today (``ruleset``, ``edition``: the newest, ``numbers``); only the rulings
    that really match the query (:func:`shown_rulings`)."""
    hits = []
    for ruling, score, numbers in shown_rulings(ruling_hits(kb, query, ruleset, limit, records)):
        edition = kb.edition(ruling.ruleset).edition.name if ruling.ruleset else None
        hits.append({"ruling": ruling.summary(), "score": score,
                     "rules": {"ruleset": ruling.ruleset, "edition": edition, "numbers": numbers}})
    return {"query": query, "ruleset": ruleset, "total": len(hits), "hits": hits}


def ruling_evidence(kb: LoadedEditions, ruleset: str, edition: str, share: float = 1.0,
                    records: RecordSet | None = None) -> Callable[[ParsedQuery], list[Evidence]]:
    """The rulings as an evidence source for a rule search of one edition
    (``EditionSearcher.search(evidence=...)``, :mod:`kb.search.searcher`): for the question
    as read, the rules the matching rulings cite, as numbered in ``edition``, each with the
    ruling as its reason ("cited by ruling r-12: 'Can I respond…?'").

    A cited rule's strength is ``share`` × how fully the question asks the ruling's: the
    ruling's score over what its own question, read as the search reads a question
    (:func:`as_asked`), scores (capped at 1), so asking an earlier
    ruling's question again brings its rules in at ``share`` of the best rule hit's score,
    a ruling that shares a word or two with the question (even the best of them) adds
    little, and a weaker ruling less than a stronger one. A rule several rulings cite keeps
    its strongest. No ruling, or a query with no words: no evidence."""
    def source(parsed: ParsedQuery) -> list[Evidence]:
        current = records if records is not None else current_records(kb)
        if not any(r.ruleset == ruleset for r in current.of_kind("ruling")):
            return []  # no ruling could bring a rule in: the ruling index is not made
        try:
            hits = _scored_rulings(kb, asked_words(parsed), ruleset, SEARCH_LIMIT.value, current)
        except QueryError:
            return []
        if not hits:
            return []
        own = ruling_index(kb, current).own
        rc_of = ruling_citations(kb, current, ruleset)
        found: dict[str, Evidence] = {}
        for ruling, score in hits:
            cited = ruling_cites(kb, rc_of.get(ruling.id), ruleset, edition)
            if not cited:
                continue
            strength = share * min(1.0, score / own[ruling.id]) if own.get(ruling.id) else 0.0
            if strength <= 0:
                continue
            reason = ruling_reason(ruling)
            for here in cited:
                if here not in found or found[here].strength < strength:
                    found[here] = Evidence(here, strength, reason)
        return list(found.values())
    return source


def ruling_cites(kb: LoadedEditions, rc: RecordCitations | None, ruleset: str, edition: str) -> list[str]:
    """The rules of ``edition`` a ruling's citations ``rc`` name, in the order cited, each once:
    each citation of ``ruleset`` carried from the edition it was read in (its prefix naming
    another ruleset names no rule here); none for a ruling written for no edition built.
    What the server's evidence source and the offline pack's (kb.export.rulings) bring in."""
    if rc is None or rc.written_for is None or (ruleset, rc.written_for) not in kb.graphs:
        return []
    out: list[str] = []
    for cited in rc.cited:
        if cited.ruleset != ruleset:
            continue
        here = cited.number and counterpart(kb, ruleset, cited.edition, edition, cited.number)
        if here and here not in out:
            out.append(here)
    return out


def ruling_reason(ruling: Record) -> str:
    """What a hit a ruling brought in says of it ("cited by ruling r-12: 'Can I respond…?'")."""
    return f"cited by ruling {ruling.id}: {_quoted(ruling.question)}"


def asked_words(parsed: ParsedQuery) -> str:
    """What a question asks, as the ruling search reads it: the words typed, the player's
    words the rules have words for and the terms named, not the words excluded (``-chain``)
    nor those a question's shape or a card brought in."""
    return " ".join(w for c in parsed.clauses if c.mode != "not" and c.origin in ("typed", "term", "vocabulary")
                    for a in (c.atoms if c.origin == "typed" else c.atoms[:1]) for w in a.words)


def _quoted(question: str, most: int = 120) -> str:
    """A ruling's question as a hit's reason quotes it: in quotes, cut at a word past ``most``."""
    text = " ".join(question.split())
    if len(text) > most:
        text = text[:most].rsplit(" ", 1)[0] + "…"
    return f"'{text}'"


def warm_records(kb: LoadedEditions) -> None:
    """Derive now what the first rule answer and ruling search would otherwise wait for:
    the records' citations, their staleness, the cited-by index of each ruleset's newest
    edition and the ruling index (a server's warming step)."""
    records = current_records(kb)
    staleness(kb, records)
    cited = {c.ruleset for rc in analyse(kb, records).records.values() for c in rc.cited}
    for ruleset in sorted(({r.ruleset for r in records.records if r.ruleset} | cited)
                          & set(kb.ruleset_names())):
        cited_by_index(kb, records, ruleset, kb.edition(ruleset).edition.name)
    ruling_index(kb, records)
