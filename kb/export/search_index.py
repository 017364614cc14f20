"""An edition's search index for the browser: the server's ranking, precomputed.

The server scores a query by adding up, per word, BM25F impacts that depend only on the word
and the rule (:class:`kb.search.scoring.Impacts`). This module computes those impacts for
every word of the edition with the same code and writes them with what the rest of the
ranking needs, so ``web/static/offline-search.js`` answers as the server does:

* ``numbers``/``parents``/``kinds``/``labels``/``texts``/``pages``: one entry per rule in
  document order (the whoosh document numbers), for number jumps, section filters,
  breadcrumbs, excerpts and the page each result links to;
* ``stems`` (sorted as whoosh's lexicon is), ``fields`` (a bit per field the stem occurs in,
  for prefix expansion) and ``postings`` (per stem: rule ids as gaps, then impacts);
* ``tokens``: each rule's analysed words as stem ids (-1 between parts), for phrases and
  for the bonus of query words found next to each other;
* ``words``/``counts``/``known``: the speller's vocabulary and the stems rules use;
* ``english``/``lemmas``: the ordinary English words the speller leaves alone that it could
  otherwise reach (:meth:`kb.search.spelling.Speller.protected`: "work" is never read as
  "word"), and those it reads as the word of the rules they are a form of ("drew" → "draw");
* ``stem_of``: the stem of every word the edition's texts, terms and vocabulary use, as the
  server's analyser gives it ("" for a stop word), so the browser stems them exactly as the
  server does;
* ``terms``: defined terms and keywords, their defining rules, a short definition and whether
  the entry only points to another (``referral``: it keeps no question word in a question);
* ``ranking``: the ranking's parameters (``kb.search.searcher.Ranking``);
* ``vocabulary``: the ruleset's judges' vocabulary, compiled (``kb.search.understand``);
* ``players``: rule number → what the rule says in players' words (shown as a reason).
* ``answers``: rule number → the timing model's summaries of it (shown as a reason when they match).
* ``refers``: each rule's cross-references, as rule ids (a rule referred to by a hit shares
  its score, ``Ranking.from_referrers``);
* ``kind_lists``: a kind's stems → the headings the rules list it under (``kinds_of``:
  "banish" → "Non-Board Zones");
* ``permissions``: the rules a legality check of the timing model cites, as rule ids (a "can I
  … when" question ranks them up, ``Ranking.permission_weight``).
* ``keyword_definitions``: each keyword → the words of its definition a question naming it
  brings in, as [stem, word] pairs (``EditionSearcher.keyword_definitions``,
  ``Ranking.definition_weight``).

The file is a script (``index_script``) that hands the JSON to the page, because browsers do
not let a page opened from ``file://`` fetch another file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from kb.graph import RuleGraph
from kb.search import EditionSearcher
from kb.search.phrasing import rule_phrasings
from kb.search.schema import WORD, analyse, defined_terms, model_answers, model_permissions, stem
from kb.search.kinds import kinds_of
from kb.search.understand import is_referral, vocabulary_data

INDEX_FORMAT = 13  # 2: the judges' vocabulary; 3: roll-up, quoted card text, idf power; 4: stem_of;
#                  5: refers, kind_lists; 6: permissions; 7: terms' referral flag;
#                  8: english, lemmas; 9: the ranking's statement_weight (players and answers
#                  are each rule's statements); 10: the ranking's from_section (a section
#                  ranked by what its rules hold between them); 11: keyword_definitions
#                  (the ranking's definition_weight); 12: model_shares (model_words);
#                  13: a plain alias's "see" (its term card is its target's)
SCORE_DIGITS = 6
DEFINITION_CHARS = 300
KINDS = {"rule": "r", "section": "s", "chapter": "c"}
SCRIPT_PREFIX = "rulekbSearchIndex("
SCRIPT_SUFFIX = ");\n"


def build_search_index(rg: RuleGraph, searcher: EditionSearcher,
                       page_of: Callable[[str], str]) -> dict[str, Any]:
    """The browser index of one edition. ``page_of(number)`` is the link to the page that
    shows a rule, relative to the root of the exported site."""
    ed = rg.edition
    numbers = list(ed.rules)
    doc_id = {n: i for i, n in enumerate(numbers)}
    impacts = searcher.impacts
    fields = list(impacts.boosts)

    reader = searcher.index.reader()
    try:
        per_field: dict[str, set[str]] = {}
        for field in fields:
            per_field[field] = {t.decode("utf-8") if isinstance(t, bytes) else t
                                for t in reader.lexicon(field)}
    finally:
        reader.close()
    # whoosh orders its lexicon by UTF-8 bytes; prefix expansion walks it in that order.
    stems = sorted(set().union(*per_field.values()), key=lambda s: s.encode("utf-8"))
    stem_id = {s: i for i, s in enumerate(stems)}
    postings: list[list[float]] = []
    for s in stems:
        scores = sorted((doc_id[impacts.number[d]], score) for d, score in impacts.word(s).items())
        gaps, last = [], 0
        for d, _ in scores:
            gaps.append(d - last)
            last = d
        postings.append(gaps + [round(score, SCORE_DIGITS) for _, score in scores])
    bits = [sum(1 << i for i, f in enumerate(fields) if s in per_field[f]) for s in stems]

    defines = defined_terms(rg)
    tokens: list[list[int]] = []
    for n in numbers:
        rule = ed.rules[n]
        row: list[int] = []
        for part in (rule.title, rule.text, *rule.examples, *defines.get(n, ())):
            if part:
                row.extend(stem_id.get(t, -2) for t in analyse(part))
                row.append(-1)
        tokens.append(row)

    speller = searcher.speller
    lemmas = speller.inflections()  # the words they are read as are stemmed in the browser too
    vocabulary = vocabulary_data(ed.ruleset)
    players = {n: list(says) for n, says in rule_phrasings(ed.ruleset, ed.name).items() if n in ed.rules}
    answers = model_answers(rg)
    terms = []
    for key, term in ed.terms.items():
        definition = term.definition
        if len(definition) > DEFINITION_CHARS:
            definition = definition[:DEFINITION_CHARS].rsplit(" ", 1)[0] + " …"
        entry = {"match": " ".join(WORD.findall(key)), "name": term.name, "kind": term.kind,
                 "definition": definition, "defined_by": list(term.defined_by),
                 "referral": is_referral(term.definition)}
        if rg.is_plain_alias(key) and (target := rg.alias_of(key)) is not None:
            entry["see"] = " ".join(WORD.findall(target))  # "if": the card is its target's
        terms.append(entry)
    return {
        "format": INDEX_FORMAT, "ruleset": ed.ruleset, "edition": ed.name, "title": ed.title,
        "style": ed.number_style, "partial": ed.partial,
        "ranking": {k: v for k, v in asdict(searcher.ranking).items() if k not in ("boosts", "bm25_b", "bm25_k1")},
        "fields": fields,
        "numbers": numbers,
        "parents": [doc_id[ed.rules[n].parent] if ed.rules[n].parent is not None else -1 for n in numbers],
        "kinds": "".join(KINDS.get(ed.rules[n].kind, "r") for n in numbers),
        "labels": [ed.rules[n].label for n in numbers],
        "texts": [[p for p in (ed.rules[n].text or ed.rules[n].title, *ed.rules[n].examples)] for n in numbers],
        "pages": [page_of(n) for n in numbers],
        "stems": stems, "stem_fields": bits, "postings": postings, "tokens": tokens,
        "words": speller.words, "counts": [speller.counts.get(w, 0) for w in speller.words],
        "known": sorted(speller.known_stems),
        "english": speller.protected(), "lemmas": lemmas,
        "closed_up": speller.closed_up,  # "quickdraw" → "quick-draw" (Speller.splits)
        "terms": terms,
        "vocabulary": vocabulary,
        "players": players,
        "answers": answers,
        # Each rule's cross-references, as rule ids ("See rule 406.5": kb.graph references).
        "refers": [sorted(doc_id[t] for t in rg.references(n) if t in doc_id) for n in numbers],
        # What the rules list as kinds of what (kb.search.kinds.kinds_of), by the kind's stems.
        "kind_lists": {" ".join(kind): [{"text": a.text, "words": list(a.words)} for a in atoms]
                       for kind, atoms in kinds_of(rg).items()},
        # The rules the timing model's legality checks cite (kb.search.schema.model_permissions).
        "permissions": sorted(doc_id[n] for n in model_permissions(rg) if n in doc_id),
        # The share of each word the timing model's summaries say more than the rules do
        # (Impacts.rules_share, below 1 only), for their statements' boost.
        "model_shares": {s: round(share, SCORE_DIGITS) for s in stems
                         if searcher.ranking.model_words and (share := impacts.rules_share(s)) < 1},
        # The words of each keyword's definition a question naming it brings in.
        "keyword_definitions": {k: [list(p) for p in pairs] for k, pairs in searcher.keyword_definitions().items()},
        "stem_of": stems_of_words(_texts(rg, terms, speller.words + sorted(set(lemmas.values())),
                                         vocabulary, players, answers)),
    }


def _texts(rg: RuleGraph, terms: list[dict[str, Any]], words: list[str], vocabulary: Any,
           players: dict[str, list[str]], answers: dict[str, list[str]]) -> list[str]:
    """Every text of an edition's index whose words the browser stems: rules, examples,
    terms, the speller's words, the judges' vocabulary, the players' statements and the
    timing model's summaries."""
    out: list[str] = []
    for rule in rg.edition.rules.values():
        out.extend(p for p in (rule.title, rule.text, *rule.examples) if p)
    out.extend(f"{t['name']} {t['match']} {t['definition']}" for t in terms)
    out.extend(words)
    out.extend(_strings(vocabulary))
    out.extend(s for says in players.values() for s in says)
    out.extend(a for said in answers.values() for a in said)
    return out


def _strings(value: Any) -> list[str]:
    """Every string inside a structure of dicts and lists (its values, not its keys)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    return [s for v in value for s in _strings(v)] if isinstance(value, (list, tuple)) else []


def stems_of_words(texts: list[str]) -> dict[str, str]:
    """Lower-case word → its stem ("" for a stop word), for every word of ``texts``, sorted."""
    found = {w.lower() for text in texts for w in WORD.findall(text)}
    return {w: stem(w) for w in sorted(found)}


def index_script(index: dict[str, Any]) -> str:
    """The index as a script a page can load from ``file://`` (JSON inside a call)."""
    return SCRIPT_PREFIX + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + SCRIPT_SUFFIX


def read_index_script(text: str) -> dict[str, Any]:
    """The JSON of an index script (tests, tools). Raises ValueError for anything else."""
    if not (text.startswith(SCRIPT_PREFIX) and text.endswith(SCRIPT_SUFFIX)):
        raise ValueError("not a rulekb search index script")
    data = json.loads(text[len(SCRIPT_PREFIX):-len(SCRIPT_SUFFIX)])
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT:
        raise ValueError(f"search index format {data.get('format') if isinstance(data, dict) else '?'} "
                         f"is not {INDEX_FORMAT}")
    return data
