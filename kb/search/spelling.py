"""Typo tolerance: words the rules never use are replaced by the closest word they do use.

A word is unknown when its stem is in no rule. The suggestion is the word of the edition
at the smallest edit distance (transpositions count once), the most frequent one among
equals; words up to six letters allow one edit, longer ones two (then only to a word with
the same first letter).

An ordinary English word is never "corrected", even when no rule uses it: "how does the
showdown work?" keeps "work" (it is not "word"), while "priorty" still reads as "priority".
What counts as ordinary English is pyspellchecker's English frequency dictionary (shipped in
the package, nothing is downloaded), a word seen at least ``ENGLISH_MIN_COUNT`` times in
its sources. Such a word that is a form of a word the rules use, which the stemmer cannot
see ("drew", "chose", "paid", "forgot"), reads as that word (lemminflect's English lemmas,
verbs first). The offline search gets, per edition, both lists (:meth:`Speller.protected`,
:meth:`Speller.inflections`), so it reads the same words the same way.

A word typed closed up ("quickdraw", "doublestrike") is the rules' compound of two words
when the rules write it hyphenated ("Quick-Draw") or as two words of theirs ("double
strike"): :meth:`Speller.splits` gives the readings, the searcher keeps the rules' hyphenated
word or the first that names a term (:meth:`kb.search.searcher.EditionSearcher._split_compounds`);
the offline search gets the hyphenated words by their letters (``closed_up``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein
from spellchecker import SpellChecker

from kb.graph import ORDINARY_ENGLISH_MIN_COUNT
from kb.search.schema import WORD, stem

# A word pyspellchecker's English dictionary has seen this many times is ordinary English
# (its dictionary starts at 50: "copier" 582, "declines" 400, "wether" 374, "sol" 704;
# misspellings such as "priorty", "recieve", "oponent" are not in it at all). Measured on the
# development sets (bench/RESULTS.md, "Words that must not be corrected"); the graph reads a
# glossary entry's one ordinary word by the same threshold, so it is kept there once.
ENGLISH_MIN_COUNT = ORDINARY_ENGLISH_MIN_COUNT
# Words up to this length allow one edit, longer ones two.
ONE_EDIT_LETTERS = 6
# A closed-up compound is split only from this length on, and into parts of at least
# SPLIT_PART letters each ("doublestrike": double + strike).
SPLIT_MIN_LETTERS = 6
SPLIT_PART = 3
# The lemmas a word is read as, the first first: "saw" is a form of "see" before it is a
# tool; only inflections (a verb's forms, a noun's plural), never a comparison ("better" is
# no form of "well" to search for).
LEMMA_ORDER = ("VERB", "NOUN")


# A word typed in capitals, two to five letters (a plural's "s" may be small): an abbreviation
# ("ETB", "SBA", "ETBs"), never a slip of another word ("ETB" is not "ETC").
ABBREVIATION = re.compile(r"[A-Z]{2,5}s?")


def abbreviations(typed: str) -> frozenset[str]:
    """The words of ``typed`` written as abbreviations (:data:`ABBREVIATION`), lower case:
    the speller leaves them as typed."""
    return frozenset(w.lower() for w in WORD.findall(typed) if ABBREVIATION.fullmatch(w))


@lru_cache(maxsize=4)
def english_words(min_count: int = ENGLISH_MIN_COUNT) -> frozenset[str]:
    """Ordinary English words, lower case: those pyspellchecker's English frequency
    dictionary has seen at least ``min_count`` times (read once per process)."""
    counts = SpellChecker(language="en", distance=1).word_frequency.dictionary
    return frozenset(w for w, n in counts.items() if n >= min_count and w.isalpha())


def _allowed(word: str) -> int:
    return 1 if len(word) <= ONE_EDIT_LETTERS else 2


def _deletions(word: str, edits: int) -> set[str]:
    """The word with up to ``edits`` letters taken out (itself included)."""
    out = frontier = {word}
    for _ in range(edits):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out = out | frontier
    return out


# What an English word's deletions are joined with, kept as one string a word: a character
# no word holds (the dictionary's words are letters only).
_JOIN = "\0"


@lru_cache(maxsize=2)
def _english_deletions(english: frozenset[str]) -> tuple[tuple[str, str | frozenset[str]], ...]:
    """Every English word of three letters or more, sorted, with the strings it becomes with
    up to the edits :meth:`Speller.suggest` allows taken out (:func:`_deletions`): joined by
    ``_JOIN`` (a frozenset for a word that holds it). The same for every edition's
    :meth:`Speller.protected`, so made once per process: about 0.4 s of CPU, which each
    edition paid before, and 11 MB, held only where an offline index is made."""
    return tuple((w, frozenset(_deletions(w, _allowed(w))) if _JOIN in w
                  else _JOIN.join(_deletions(w, _allowed(w))))
                 for w in sorted(english) if len(w) >= 3)


@lru_cache(maxsize=None)  # bounded by the English dictionary: only its words are asked
def english_lemmas(word: str) -> tuple[str, ...]:
    """The words an English word is an inflection of, in :data:`LEMMA_ORDER` (lemminflect),
    whatever the edition: kept for the process, since every edition's speller (the export
    reads them all) asks the same words again."""
    # lemminflect (and numpy with it) is imported when an unknown English word is first
    # read, not by every search whose words the rules all use.
    from lemminflect import getAllLemmas
    found = getAllLemmas(word)
    return tuple(lemma for pos in LEMMA_ORDER for lemma in found.get(pos, ())
                 if lemma != word and lemma.isalpha())


class Speller:
    """Known words of one edition and the nearest known word to an unknown one."""

    def __init__(self, vocabulary: dict[str, int], english: frozenset[str] | None = None):
        self.counts = vocabulary
        self.words = [w for w in vocabulary if w.isalpha()]
        self.known_stems = {stem(w) for w in vocabulary} - {""}
        self._english = english  # None: english_words(), read when first needed
        self._lemmas: dict[str, str | None] = {}  # lemma's answers: the export asks each twice
        # The rules' hyphenated words by their letters closed up ("quickdraw" → "quick-draw").
        self.closed_up = {w.replace("-", ""): w for w in sorted(vocabulary)
                          if "-" in w and all(p.isalpha() for p in w.split("-"))}

    @property
    def english(self) -> frozenset[str]:
        """The ordinary English words this speller leaves alone."""
        if self._english is None:
            self._english = english_words()
        return self._english

    def known(self, word: str) -> bool:
        """True when some rule uses a word with this stem (numbers always count as known)."""
        s = stem(word)
        return not s or s in self.known_stems or not word.isalpha()

    def lemma(self, word: str) -> str | None:
        """The word of the rules an unknown ordinary English word is a form of ("drew" →
        "draw" when a rule uses "draw"), or None."""
        if word not in self.english or self.known(word):
            return None
        if word not in self._lemmas:
            self._lemmas[word] = self._lemma_of(word)
        return self._lemmas[word]

    def _lemma_of(self, word: str) -> str | None:
        for lemma in english_lemmas(word):
            if self.known(lemma) and stem(lemma):
                return lemma
        return None

    def suggest(self, word: str) -> str | None:
        """The word of the rules an unknown word stands for: the one it is a form of
        (:meth:`lemma`), else the closest known word; None when nothing is close or the word
        is ordinary English (:func:`english_words`)."""
        if len(word) < 3 or self.known(word):
            return None
        if word in self.english:
            return self.lemma(word)
        allowed = _allowed(word)
        found = process.extract(word, self.words, scorer=DamerauLevenshtein.distance,
                                score_cutoff=allowed, limit=20)
        # Two edits reach too far unless the word at least starts the same way.
        found = [f for f in found if f[1] <= 1 or f[0][0] == word[0]]
        if not found:
            return None
        best = min(found, key=lambda f: (f[1], -self.counts.get(f[0], 0), f[0]))
        return best[0]

    def splits(self, word: str) -> list[tuple[str, ...]]:
        """The readings of a word no rule uses as a closed-up compound of the rules' words, the
        likeliest first: the rules' hyphenated word with its letters ("quickdraw" →
        ("quick", "draw") for "Quick-Draw"), then each cut into two words of the rules
        ("doublestrike" → ("double", "strike")), the one whose rarer word the rules use most
        first (then the earlier cut). None for a known word, a short one or one with other
        characters than letters."""
        if len(word) < SPLIT_MIN_LETTERS or not word.isalpha() or self.known(word):
            return []
        out: list[tuple[str, ...]] = []
        hyphenated = self.closed_up.get(word)
        if hyphenated is not None:
            out.append(tuple(hyphenated.split("-")))
        counts = self.counts
        cuts = [(min(counts[word[:i]], counts[word[i:]]), i) for i in range(SPLIT_PART, len(word) - SPLIT_PART + 1)
                if word[:i] in counts and word[i:] in counts]
        for _n, i in sorted(cuts, key=lambda c: (-c[0], c[1])):
            if (word[:i], word[i:]) not in out:
                out.append((word[:i], word[i:]))
        return out

    def protected(self) -> list[str]:
        """The English words this speller would otherwise correct, sorted: every ordinary
        English word no rule uses within the edits :meth:`suggest` allows of one of the
        edition's words (a superset: two words that far apart share a string each becomes
        with as many letters taken out). The offline search leaves these alone."""
        near: set[str] = set()
        for w in self.words:
            # A word two edits from one of more than ONE_EDIT_LETTERS letters has at least
            # ONE_EDIT_LETTERS - 1 of its own; a shorter one is only ever one edit away.
            near |= _deletions(w, 1 if len(w) < ONE_EDIT_LETTERS - 1 else 2)
        # The English words' own deletions are the same for every edition: made once per
        # process (_english_deletions), in the English words' sorted order.
        return [w for w, deletions in _english_deletions(self.english)
                if not self.known(w) and not near.isdisjoint(deletions.split(_JOIN) if isinstance(deletions, str)
                                                             else deletions)
                and self.lemma(w) is None]

    def inflections(self) -> dict[str, str]:
        """Every ordinary English word no rule uses that reads as a word of the rules it is a
        form of (:meth:`lemma`): "drew" → "draw". The offline search reads them so."""
        out = {}
        for w in sorted(self.english):
            lemma = self.lemma(w) if len(w) >= 3 else None
            if lemma is not None:
                out[w] = lemma
        return out
