"""Typo tolerance: words the rules never use are replaced by the closest word they do use.

A word is unknown when its stem is in no rule. The suggestion is the word of the edition
at the smallest edit distance (transpositions count once), the most frequent one among
equals; words up to six letters allow one edit, longer ones two (then only to a word with
the same first letter).
"""

from __future__ import annotations

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from kb.search.schema import stem


class Speller:
    """Known words of one edition and the nearest known word to an unknown one."""

    def __init__(self, vocabulary: dict[str, int]):
        self.counts = vocabulary
        self.words = [w for w in vocabulary if w.isalpha()]
        self.known_stems = {stem(w) for w in vocabulary} - {""}

    def known(self, word: str) -> bool:
        """True when some rule uses a word with this stem (numbers always count as known)."""
        s = stem(word)
        return not s or s in self.known_stems or not word.isalpha()

    def suggest(self, word: str) -> str | None:
        """The closest known word to an unknown one, or None when nothing is close."""
        if len(word) < 3 or self.known(word):
            return None
        allowed = 1 if len(word) <= 6 else 2
        found = process.extract(word, self.words, scorer=DamerauLevenshtein.distance,
                                score_cutoff=allowed, limit=20)
        # Two edits reach too far unless the word at least starts the same way.
        found = [f for f in found if f[1] <= 1 or f[0][0] == word[0]]
        if not found:
            return None
        best = min(found, key=lambda f: (f[1], -self.counts.get(f[0], 0), f[0]))
        return best[0]
