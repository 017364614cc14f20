"""What the search index holds for each rule, and how its words are analysed.

One document per numbered node (chapter, section heading or rule). Only the number is
stored: everything shown in a result (title, breadcrumbs, text) comes from the rule graph,
so the index stays small and can never disagree with the rules it points to.
"""

from __future__ import annotations

import re
from functools import lru_cache

from whoosh.analysis import (Analyzer, LowercaseFilter, RegexTokenizer, StemFilter,
                             StopFilter)
from whoosh.fields import ID, TEXT, Schema

from kb.graph import RuleGraph
from kb.search.phrasing import rule_phrasings
from kb.timing.engine import FormatError
from kb.timing.models import get_model

# Words: letters and digits, with inner dots kept for numbers ("337.1.a", "116.3d").
# Hyphens and apostrophes split words ("state-based" → state, based), in the rules and in
# queries alike, so a phrase written either way matches.
WORD_PATTERN = r"\w+(?:\.\w+)*"
WORD = re.compile(WORD_PATTERN)

# The stop words of the index: articles, auxiliaries and prepositions that carry no meaning
# in a rule. Kept short on purpose: "not", "after", "before", "each", "all" decide rules.
# "s" and "t" are what is left of "player's" and "can't"; digits stay ("0 or less life").
STOP_WORDS = frozenset("""a an and are as at be by for from in into is it its of on or so
    such than that the their them then there these they this those to was were which with
    s t""".split())

# Searchable fields. Boosts are applied at query time (see kb.search.searcher.BOOSTS), so
# they can be measured without rebuilding the index.
TEXT_FIELDS = ("title", "path", "text", "examples", "terms", "answers", "players")


def make_analyzer() -> Analyzer:
    """Tokenise, lower-case, drop stop words, Porter-stem (with a stem cache)."""
    return (RegexTokenizer(WORD_PATTERN) | LowercaseFilter()
            | StopFilter(stoplist=STOP_WORDS, minsize=1) | StemFilter(cachesize=50000))


ANALYZER = make_analyzer()


def make_schema() -> Schema:
    """The whoosh schema of an edition's index. Positions are not indexed: phrases and word
    proximity are checked on the rule's own text (kb.search.scoring), which is faster to
    build and exact."""
    return Schema(
        number=ID(stored=True, unique=True),
        title=TEXT(analyzer=ANALYZER, phrase=False),
        path=TEXT(analyzer=ANALYZER, phrase=False),
        text=TEXT(analyzer=ANALYZER, phrase=False),
        examples=TEXT(analyzer=ANALYZER, phrase=False),
        terms=TEXT(analyzer=ANALYZER, phrase=False),
        answers=TEXT(analyzer=ANALYZER, phrase=False),
        players=TEXT(analyzer=ANALYZER, phrase=False),
    )


@lru_cache(maxsize=100_000)
def stem(word: str) -> str:
    """The index form of one word ("" for a stop word)."""
    tokens = [t.text for t in ANALYZER(word)]
    return tokens[0] if tokens else ""


def analyse(text: str) -> list[str]:
    """The index forms of a text's words, stop words dropped."""
    return [t.text for t in ANALYZER(text)]


@lru_cache(maxsize=100_000)
def word_stems(word: str) -> tuple[str, ...]:
    """The index forms of one word, as :func:`analyse` gives them (none for a stop word,
    several for a word the analyser splits), kept for the next question that uses it."""
    return tuple(analyse(word))


def defined_terms(rg: RuleGraph) -> dict[str, list[str]]:
    """Rule number → names of the terms it defines. A plain alias ("If", which sends the
    reader to Intervening "If" Clause) is left out: its one ordinary word would otherwise
    be indexed as a term of its target's defining rule (603.4 found by every "if")."""
    out: dict[str, list[str]] = {}
    for key, term in rg.edition.terms.items():
        if rg.is_plain_alias(key):
            continue
        for number in term.defined_by:
            out.setdefault(number, []).append(term.name)
    return out


def model_answers(rg: RuleGraph) -> dict[str, list[str]]:
    """Rule number → what the timing model says in plain words about the rule: the summary
    of every transition and legality check that cites it ("a unit, gear or Add ability
    resolves immediately" for 337.2). Empty for a ruleset without a model or an edition its
    citations are not written for."""
    return _model_summaries(rg, checks_only=False)


def model_permissions(rg: RuleGraph) -> dict[str, list[str]]:
    """Rule number → the summaries of the timing model's legality checks that cite it: the
    rules that say when a player may act ("a chain exists: only Reaction may be played" for
    309.1.a, "a noninstant spell only in your main phase with an empty stack" for 307.1),
    which a "can I … when" question turns on (``Ranking.permission_weight``)."""
    return _model_summaries(rg, checks_only=True)


def _model_summaries(rg: RuleGraph, *, checks_only: bool) -> dict[str, list[str]]:
    try:
        spec = get_model(rg.edition.ruleset)
    except FormatError:
        return {}
    citations = spec.citations_for(rg.edition.name)
    if not citations:
        return {}
    model = spec.make()
    summaries = {} if checks_only else {n: t.summary for n, t in model.transitions.items()}
    summaries.update({f"check.{n}": c.summary for n, c in model.checks.items()})
    out: dict[str, list[str]] = {}
    for name, rules in citations.items():
        summary = summaries.get(name)
        if not summary:
            continue
        for number in rules:
            if number in rg.edition.rules and summary not in out.setdefault(number, []):
                out[number].append(summary)
    return out


def documents(rg: RuleGraph) -> list[dict[str, str]]:
    """The index documents of an edition, in document order. Beside the rule's own words:
    "answers", the timing model's summaries of it, and "players", what the rule says in
    players' words (``vocabulary/<ruleset>-rules.yaml``)."""
    ed = rg.edition
    terms = defined_terms(rg)
    answers = model_answers(rg)
    players = rule_phrasings(ed.ruleset, ed.name)
    docs = []
    titles: dict[str, str] = {}
    for number, rule in ed.rules.items():
        titles[number] = rule.title
        chain = []
        parent = rule.parent
        while parent is not None:
            chain.append(parent)
            parent = ed.rules[parent].parent
        docs.append({
            "number": number,
            "title": rule.title,
            "path": " ".join(titles[a] for a in reversed(chain) if titles[a]),
            "text": rule.text,
            "examples": " ".join(rule.examples),
            "terms": " ; ".join(terms.get(number, [])),
            "answers": " ; ".join(answers.get(number, [])),
            "players": " ; ".join(players.get(number, ())),
        })
    return docs
