"""A server's warm-up reads what the speller needs, so the first question after 'ready' is
not the one that waits for it (acceptance run J: the first question holding an ordinary
English word no rule uses took 1.0 s of CPU more than the next, reading pyspellchecker's
English words and lemminflect's lemma dictionary)."""

from __future__ import annotations

import pytest
from lemminflect.core.Lemmatizer import Lemmatizer

from kb.query import KnowledgeBase, warm_speller
from kb.search.spelling import english_lemmas, english_words

# (what the warm-up must have read, how to forget it, how to tell it was read)
READ = [
    ("English words", english_words.cache_clear, lambda: english_words.cache_info().currsize > 0),
    ("lemma dictionary", lambda: (english_lemmas.cache_clear(), Lemmatizer().__dict__.pop("lemma_dict", None)),
     lambda: "lemma_dict" in Lemmatizer().__dict__),
]


@pytest.mark.parametrize("what,forget,was_read", READ, ids=[r[0] for r in READ])
def test_warming_reads_what_the_speller_reads(excerpt_kb: KnowledgeBase, what: str, forget, was_read) -> None:
    steps = dict(excerpt_kb.warm_steps())
    assert steps.get("the speller's English words") is warm_speller
    forget()
    assert not was_read()
    warm_speller()
    assert was_read(), what


def test_the_speller_answers_as_before_once_warmed(excerpt_kb: KnowledgeBase) -> None:
    warm_speller()
    read = excerpt_kb.search("priorty", "riftbound")
    assert read["did_you_mean"] == "priority"
    read = excerpt_kb.search("what happens when I drew my last card", "riftbound")
    assert "draw (read from 'drew')" in read["understood"]["concepts"]  # the lemma dictionary's answer
