"""Reading a judge's question: names, the game's terms, players' words and question shapes.

A judge types "Can I respond when my opponent plays a unit?" or "Does Abandoned Hall's
ability trigger if the spell is countered?", not the rules' words. Before ranking, a plain
query (words and phrases only, no operators: the query language is left as typed) is read
into *concepts*, each one clause of the ranking:

* **names**: a run of capitalised words inside the sentence with a word no rule uses
  ("Abandoned Hall", "Vex, Apathetic") is a card or person's name. It is left out of the
  ranking (it would otherwise be "corrected" into a rule word and dominate), and reported;
* **terms**: consecutive words naming a defined term or keyword of the edition ("Ambush",
  "showdown", "state-based actions") make one concept, weighted up;
* **players' words**: the judges' vocabulary of the ruleset (``vocabulary/<ruleset>.yaml``,
  each entry with its source) adds the rules' words as alternatives: "respond" is also
  "reaction" and "priority", "the stack" is "chain" in Riftbound;
* **question words** (``vocabulary/common.yaml``): "can", "if", "my", "still" … say nothing
  about which rule answers, and are left out, unless the edition defines the word as a term
  ("might" is Might, Riftbound's combat statistic): a term is never a question word. A
  glossary entry that only points to another ("If: See Intervening 'If' Clause.") or says
  it is obsolete ("During (Obsolete)") is no term of its own (:func:`is_referral`);
* **shapes**: "who acts next" brings in priority and focus;
* **situations**: a situation the question tells without naming it ("my two units walk onto
  the battlefield where his unit is": units of two players at one battlefield) brings in the
  rules' words for it (combat), each situation of the vocabulary that matches, beside the shape;
* **each concept once**: a rules' word that a players' word or the shape brings in and that
  the question names itself ("responds" → reaction in "… responds with a reaction") is left
  out of them (:func:`named_once_only`);
* **participants**: the words naming who acts in the question's situation ("my opponent
  plays a unit": ``participants`` of ``vocabulary/common.yaml``) weigh less than a concept;
* **quoted card text**: a quotation of four words or more inside a question ("Destroy target
  creature.") is a card's text, not a phrase to find word for word: its words are read like
  the question's own (names, terms, players' words) and weigh ``quote_weight``.

Beside the question, the index carries what rules say in players' words
(``vocabulary/<ruleset>-rules.yaml``, :func:`kb.search.phrasing.rule_phrasings`: "no one can respond to a unit
or gear being played" for 337.2), each with the reason it is true of that rule.

The ranking (:mod:`kb.search.searcher`) scores a concept's alternatives as the best of
them and rewards rules that match the question's rarest concepts together (coverage weighted
by idf), so a rule with "reaction" and "unit" and "play" outranks one with many common words.
``web/static/offline-search.js`` mirrors this module (``understand``); the compiled
vocabulary goes into the offline index (:func:`vocabulary_data`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from kb.search.cards import TITLE_SMALL, CardList, card_concepts, describe, name_forms, name_key
from kb.search.phrasing import read_vocabulary
from kb.search.query import Atom, Clause, ParsedQuery
from kb.search.schema import WORD, analyse, stem

MAX_TERM_WORDS = 4
# A quotation this long inside a question is a card's text ("Destroy target creature."), not a
# phrase to find word for word: its words are read as the question's own, weighted down.
QUOTE_WORDS = 4
# A word in at most this many rules is not the rules' vocabulary: card names turn up in an
# example or two (Riftbound's examples name cards), game words in many rules.
NAME_MAX_RULES = 2
# A question's context given before it in brackets: "[follow-up to: "…"] and then?" (group 1:
# the label before the colon).
CONTEXT = re.compile(r"^\s*(\[[^\]:]*:?)[^\]]*\]")
# A definition that only sends the reader to another entry ("See Intervening “If” Clause.",
# or "If: See …" where the definition keeps the term's name before it).
REFERRAL = re.compile(r"(?:[^:.]{1,60}:\s*)?See [^.]*\.?")


# A definition that says its entry is no game term any more: Magic's glossary keeps 33 entries
# named "(Obsolete)" ("During (Obsolete)": "'During' still appears in current card text, but
# only in its normal English sense and not as game terminology"), ability words that "used to
# be a keyword ability" and former mulligan systems. Read from the definition (the name's
# "(Obsolete)" is not in it); each alternative is how the Magic 2026 glossary words it.
OBSOLETE = re.compile(
    r"^\(Obsolete\)|\bobsolete (?:term|keyword|card type|creature type)\b|^An older name for\b"
    r"|^Older (?:versions of the rules|creature cards)\b|^Some older cards\b|^Previously,"
    r"|^A term that (?:meant|was printed on some older cards)\b|\bused to be a keyword ability\b"
    r"|\bThat rule no longer exists\b|^Informal term for a previous\b"
    r"|\bCards that were printed with that text have received errata\b", re.IGNORECASE)


def is_obsolete(definition: str) -> bool:
    """True for a glossary entry that says it is no game term any more ("During
    (Obsolete)", "Converted Mana Cost (Obsolete): An obsolete term for mana value.")."""
    return OBSOLETE.search(definition.strip()) is not None


def is_referral(definition: str) -> bool:
    """True for a glossary entry that is no term of the edition's own: one that only points
    to another ("If: See Intervening 'If' Clause.") or an obsolete one (:func:`is_obsolete`).
    Its words are read as the question's plain words, never as a term."""
    return REFERRAL.fullmatch(definition.strip()) is not None or is_obsolete(definition)


@dataclass(frozen=True)
class Entry:
    """One line of a judges' vocabulary: the players' phrase (as stems) and the rules' words."""

    players: tuple[str, ...]
    rules: tuple[Atom, ...]
    source: str
    # The word's sense: when given, the players' word means the rules' concept only in a
    # question holding one of these stems (its companions in that sense: Magic's "lands" are
    # Riftbound's runes beside "tap", "mana", "play"; "my unit lands there" is no rune).
    only_with: frozenset[str] = frozenset()
    # A word right before the phrase that makes it another thing: its stems ("deck out" is the
    # Main Deck's; "my rune deck is out" is the Rune Deck's, no Burn Out).
    not_after: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Shape:
    """A question shape: its name, the pattern that spots it and the rules' words it adds."""

    name: str
    pattern: str
    rules: tuple[Atom, ...]
    source: str
    prior: str = ""  # "permission": the question asks whether a player may act


@dataclass(frozen=True)
class Vocabulary:
    """The judges' vocabulary of one ruleset, compiled for matching on stems."""

    ruleset: str
    question_words: frozenset[str]
    entries: tuple[Entry, ...] = ()
    shapes: tuple[Shape, ...] = ()
    # Situations told without their name (vocabulary ``situations``): every one that
    # matches adds its concept, as a shape does.
    situations: tuple[Shape, ...] = ()
    by_first: dict[str, tuple[Entry, ...]] = field(default_factory=dict)
    # The frame of a yes/no question (common.yaml): its auxiliaries, the pronouns that are a
    # whole subject, and the words that open what follows its verb (:func:`question_verb`).
    auxiliaries: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    clause_words: frozenset[str] = frozenset()
    # The endings a question word is contracted with ("what's", "I'm": common.yaml).
    contractions: frozenset[str] = frozenset()
    # The stems of the words naming a question's participants ("opponent": common.yaml).
    participants: frozenset[str] = frozenset()
    # A term that is also a plain word ("Hold" scores a battlefield; "the card holds a
    # counter" does not): its key's stems → the stems one of which a question must hold to
    # read it as the term (vocabulary ``senses``); otherwise it is a plain word.
    senses: dict[tuple[str, ...], frozenset[str]] = field(default_factory=dict)
    # English idioms (common.yaml ``idioms``), longest first: each the words as typed (lower
    # case) and the rules' words for what it means (none: left out). :func:`_idioms`.
    idioms: tuple[tuple[tuple[str, ...], tuple[Atom, ...]], ...] = ()

    def is_question_word(self, atom: Atom) -> bool:
        """A question word as typed: alone, or contracted ("what's", "it's", "I'm")."""
        return atom.words[0] in self.question_words and (
            atom.kind == "word" or (atom.kind == "phrase" and len(atom.words) == 2
                                    and atom.words[1] in self.contractions))


def _atom(text: str) -> Atom:
    words = tuple(w.lower() for w in WORD.findall(text))
    return Atom("phrase" if len(words) > 1 else "word", text, words)


@lru_cache(maxsize=16)
def vocabulary(ruleset: str) -> Vocabulary:
    """The compiled vocabulary of a ruleset (only the common question words when it has none)."""
    common = read_vocabulary("common")
    question_words = frozenset(str(common.get("question_words", "")).split())
    data = read_vocabulary(ruleset) if re.fullmatch(r"[a-z0-9-]+", ruleset) else {}
    entries = []
    for i, raw in enumerate(data.get("entries", [])):
        rules = tuple(_atom(str(r)) for r in raw.get("rules", []) if analyse(str(r)))
        if not raw.get("source"):
            raise ValueError(f"kb/search/vocabulary/{ruleset}.yaml: entry {i + 1} has no source")
        for phrase in raw.get("players", []):
            stems = tuple(analyse(str(phrase)))
            if stems and rules:
                entries.append(Entry(stems, rules, str(raw["source"]),
                                     frozenset(st for w in raw.get("only_with", []) for st in analyse(str(w))),
                                     frozenset(st for w in raw.get("not_after", []) for st in analyse(str(w)))))
    def shapes_of(key: str) -> tuple[Shape, ...]:
        out = []
        for i, s in enumerate(data.get(key, [])):
            if key == "situations" and not (s.get("source") and s.get("rules")):
                raise ValueError(f"kb/search/vocabulary/{ruleset}.yaml: situation {i + 1} needs rules and a source")
            out.append(Shape(str(s["name"]), str(s["pattern"]),
                             tuple(_atom(str(r)) for r in s.get("rules", []) if analyse(str(r))),
                             str(s.get("source", "")), str(s.get("prior", ""))))
        return tuple(out)
    shapes = shapes_of("shapes")
    by_first: dict[str, list[Entry]] = {}
    # Longest phrase first, so "instant speed" wins over "instant".
    for e in sorted(entries, key=lambda e: -len(e.players)):
        by_first.setdefault(e.players[0], []).append(e)
    def words(key: str) -> frozenset[str]:
        return frozenset(str(common.get(key, "")).split())
    idioms = sorted(((tuple(w.lower() for w in WORD.findall(str(phrase))),
                      tuple(_atom(str(r)) for r in raw.get("rules", []) if analyse(str(r))))
                     for raw in common.get("idioms", []) for phrase in raw.get("players", [])),
                    key=lambda idiom: (-len(idiom[0]), idiom[0]))
    return Vocabulary(ruleset, question_words, tuple(entries), shapes, shapes_of("situations"),
                      {k: tuple(v) for k, v in by_first.items()},
                      words("auxiliaries"), words("subjects"), words("clause_words"),
                      words("contractions"),
                      frozenset(st for w in words("participants") for st in analyse(w)),
                      {tuple(analyse(str(t["term"]))): frozenset(st for w in t.get("with", []) for st in analyse(str(w)))
                       for t in data.get("senses", []) if analyse(str(t["term"]))},
                      tuple(i for i in idioms if len(i[0]) > 1))


def vocabulary_data(ruleset: str) -> dict[str, Any]:
    """The compiled vocabulary as JSON for the offline search (stems already computed)."""
    v = vocabulary(ruleset)
    def atoms(rules: tuple[Atom, ...]) -> list[dict[str, Any]]:
        return [{"text": a.text, "words": list(a.words)} for a in rules]
    return {"question_words": sorted(v.question_words),
            "auxiliaries": sorted(v.auxiliaries), "subjects": sorted(v.subjects),
            "clause_words": sorted(v.clause_words), "contractions": sorted(v.contractions),
            "entries": [{"players": list(e.players), "rules": atoms(e.rules), "only_with": sorted(e.only_with),
                         "not_after": sorted(e.not_after)}
                        for e in sorted(v.entries, key=lambda e: -len(e.players))],
            "senses": [{"term": list(k), "with": sorted(w)} for k, w in v.senses.items()],
            "shapes": [{"name": s.name, "pattern": s.pattern, "rules": atoms(s.rules), "prior": s.prior}
                       for s in v.shapes],
            "situations": [{"name": s.name, "pattern": s.pattern, "rules": atoms(s.rules)}
                           for s in v.situations],
            "participants": sorted(v.participants),
            "idioms": [{"words": list(words), "rules": atoms(rules)} for words, rules in v.idioms]}


def question_verb(text: str, start: int, vocab: Vocabulary) -> int | None:
    """Where the verb of a yes/no question starts (the text from ``start`` on), or None: in
    a question opened by an auxiliary whose subject is not a pronoun, the word right before
    the first clause word after the subject ("Does playing a unit to a battlefield *count*
    as moving it?"). A term of the edition never ends on it (:func:`_term_at`)."""
    words = list(WORD.finditer(text, start))
    if len(words) < 4 or words[0].group().lower() not in vocab.auxiliaries \
            or words[1].group().lower() in vocab.subjects:
        return None
    for k in range(3, len(words)):
        if words[k].group().lower() in vocab.clause_words:
            return words[k - 1].start()
    return None


def _is_name_word(atom: Atom, rules_with: Callable[[str], int]) -> bool:
    return any(w.isalpha() and stem(w) and rules_with(stem(w)) <= NAME_MAX_RULES for w in atom.words)


def _capitalised(atom: Atom) -> bool:
    first = atom.text.lstrip("\"'“‘(")[:1]
    return first.isupper() and atom.text not in ("I", "I'm", "I’m")


def _sentence_start(text: str, start: int) -> bool:
    before = text[:start].rstrip(" \"'“‘(")
    return not before or before[-1] in ".?!:]"


def understand(parsed: ParsedQuery, vocab: Vocabulary, rules_with: Callable[[str], int],
               terms: dict[str, str], term_kind: dict[str, str], *, term_weight: float = 1.0,
               synonym_weight: float = 1.0, shape_weight: float = 1.0,
               quote_weight: float = 0.0, cards: CardList | None = None,
               card_weight: float = 1.0, card_text_weight: float = 0.5,
               context_weight: float = 0.5, card_keyword_weight: float = 1.0,
               referrals: frozenset[str] = frozenset(), named_once: bool = False,
               participant_weight: float = 1.0, situation_weight: float = 0.0) -> ParsedQuery:
    """The concepts of a plain query (see the module's docstring); any other query as it is.

    ``rules_with(stem)`` is how many rules use a word, ``terms`` maps a term's words (as
    :class:`~kb.search.searcher.EditionSearcher` keys them) to its key and ``term_kind``
    that key to "term" or "keyword". With ``cards`` (the user's card list), a card named in
    the question is read into its type, keywords and text's terms, each a clause weighing
    ``card_weight`` (its text's other words ``card_text_weight`` of that, its keywords
    ``card_keyword_weight`` of a keyword the question names; :mod:`kb.search.cards`).
    ``referrals``: the keys of terms that are no term of the edition's own (an entry that only
    points to another or an obsolete one: :func:`is_referral`); their words are plain words.
    ``named_once``: the rules' words a players' word or the shape brings in that the question
    names itself are left out of them (:func:`named_once_only`). A concept naming one of
    the question's participants ("my opponent": the vocabulary's ``participants``) weighs
    ``participant_weight``. Each situation of the vocabulary the question tells brings in its
    rules' words as one concept weighing ``situation_weight`` (0: none).
    """
    # One word or phrase alone is read as typed, unless it is a players' phrase of the
    # vocabulary and no term of the edition ("the stack", "ETB"): it reads as in a question.
    if not parsed.plain or (len(parsed.clauses) < 2 and not (
            is_players_phrase(parsed.clauses[0].atoms[0], vocab)
            and " ".join(parsed.clauses[0].atoms[0].words) not in terms)):
        return parsed
    text = parsed.text
    # Context before the question in brackets ("[follow-up to: "how does a showdown work?"]
    # and who starts?"): its label ("follow-up to") is left out, its words weigh less.
    context = CONTEXT.match(text)
    label_end, context_end = (context.end(1), context.end()) if context else (0, 0)
    atoms: list[Atom] = []
    quotes: list[tuple[int, int]] = []  # where the quotations read as words are
    for c in parsed.clauses:
        a = c.atoms[0]
        if quote_weight and a.kind == "phrase" and len(a.words) >= QUOTE_WORDS:
            at = text.find(a.text, a.start)  # the atom starts at its opening quote
            at = a.start if at < 0 else at
            quotes.append((at, at + len(a.text)))
            for m in WORD.finditer(a.text):
                if stem(m.group().lower()):
                    atoms.append(Atom("word", m.group(), (m.group().lower(),),
                                      start=at + m.start(), end=at + m.end()))
        elif not (context and a.start < label_end):
            atoms.append(a)
    names: list[str] = []
    keep = [True] * len(atoms)
    # Cards the user's list names: the card's words leave the question, its knowledge joins.
    named_cards = _cards_named(atoms, text, cards, rules_with) if cards is not None else []
    for i, j, _card, _typed in named_cards:
        for k in range(i, j):
            keep[k] = False
    # Names: runs of capitalised words inside a sentence, one of them unknown to the rules.
    # A players' word of the vocabulary ("ETBs") is no name.
    players = [is_players_phrase(a, vocab) for a in atoms]
    i = 0
    while i < len(atoms):
        if not keep[i] or players[i] or not (_capitalised(atoms[i]) and not _sentence_start(text, atoms[i].start)):
            i += 1
            continue
        j = i
        while j + 1 < len(atoms) and keep[j + 1] and not players[j + 1] and _capitalised(atoms[j + 1]) and \
                not text[atoms[j].end:atoms[j + 1].start].strip(" ,'’"):
            j += 1
        if any(_is_name_word(a, rules_with) for a in atoms[i:j + 1]):
            names.append(text[atoms[i].start:atoms[j].end].strip(" ,.?!:;'’\"“”"))
            for k in range(i, j + 1):
                keep[k] = False
        i = j + 1
    # English idioms ("right away"): one unit each, read before the terms and question words.
    idioms, dropped = _idioms(atoms, keep, text, vocab, synonym_weight, label_end)
    # A term of several words never ends on the verb of a yes/no question ("does playing a
    # unit to a battlefield count as …": not "battlefield count").
    verb = question_verb(text, context_end, vocab)
    # A question word inside one of the edition's terms ("its might") is the term.
    own = {w: key for w, key in terms.items() if key not in referrals}
    in_terms = _inside_terms(atoms, keep, own, verb)
    for k, a in enumerate(atoms):
        if keep[k] and k not in in_terms and vocab.is_question_word(a):
            keep[k] = False
            dropped.append(a.text)
    kept = [a for k, a in enumerate(atoms) if keep[k]]
    if not kept and not named_cards and not idioms:  # nothing but names and question words: as typed
        return parsed
    stems = [tuple(analyse(" ".join(a.words))) for a in kept]
    asked = frozenset(st for row in stems for st in row)  # every stem the question holds
    clauses: list[Clause] = []
    i = 0
    while i < len(kept):
        found = _term_at(kept, i, own, verb)
        if found is not None and not in_sense(tuple(st for row in stems[i:found[0]] for st in row),
                                              vocab.senses, asked):
            found = None  # a plain word here, not the term ("the card holds a counter")
        if found is not None:
            j, key = found
            words = tuple(w for a in kept[i:j] for w in a.words)
            atom = Atom("phrase" if len(words) > 1 else "word", text[kept[i].start:kept[j - 1].end],
                        words, start=kept[i].start, end=kept[j - 1].end)
            # A term the question words hold ("might") may be the plain word ("it might
            # die"): read as the term, it weighs as a word does.
            common = all(w in vocab.question_words for w in words)
            clauses.append(Clause([atom], "should", weight=1.0 if common else term_weight, origin="term",
                                  label=f"{atom.text.strip(' ,.?!;:')} ({term_kind.get(key, 'term')})"))
            i = j
            continue
        entry, j = _entry_at(stems, i, vocab)
        if entry is not None and entry.only_with and not entry.only_with & asked:
            entry, j = None, i  # the players' word in another sense ("my unit lands there")
        if entry is not None and i > 0 and entry.not_after & set(stems[i - 1]):
            entry, j = None, i  # another thing's word before it ("my rune deck is out")
        if entry is not None:
            typed = kept[i:j]
            words = tuple(w for a in typed for w in a.words)
            atom = Atom("phrase" if len(words) > 1 else "word", text[typed[0].start:typed[-1].end],
                        words, start=typed[0].start, end=typed[-1].end)
            clauses.append(Clause([atom, *entry.rules], "should", origin="vocabulary",
                                  label=atom.text.strip(" ,.?!;:"),
                                  alternative_weight=synonym_weight))
            i = j
            continue
        clauses.append(Clause([kept[i]], "should"))
        i += 1
    if idioms:  # in the question's order
        clauses = sorted(clauses + idioms, key=lambda c: c.atoms[0].start)
    for c in clauses:
        if context_end and c.atoms[0].start < context_end:
            c.weight *= context_weight  # the earlier question, not this one
        elif c.origin != "shape" and any(a <= c.atoms[0].start < b for a, b in quotes):
            c.weight *= quote_weight
        if participant_weight != 1.0 and is_participant(c.atoms[0], vocab):
            c.weight *= participant_weight
    card_labels: list[str] = []
    for _i, _j, card, typed in named_cards:
        concepts = card_concepts(card, terms, rules_with, vocab.question_words)
        if not card_text_weight:
            concepts = [c for c in concepts if c.kind != "word"]
        misspelt = is_slip(typed, card.name)
        described = describe(card, concepts, typed if misspelt else "")
        card_labels.append(described)
        have = {" ".join(a.words) for c in clauses for a in c.atoms[:1]}
        for concept in concepts:
            if " ".join(concept.words) in have:  # the question names it already
                continue
            have.add(" ".join(concept.words))
            atom = Atom("phrase" if len(concept.words) > 1 else "word", concept.text, concept.words)
            what = {"type": "type", "keyword": "keyword"}.get(concept.kind, "in its text")
            # A card's keyword weighs card_keyword_weight of a keyword the question names; its
            # type card_weight of a word, its text's terms that of a term, and its text's other
            # words card_text_weight of that.
            weight = {"keyword": card_keyword_weight * term_weight, "type": card_weight,
                      "term": card_weight * term_weight}.get(concept.kind, card_weight * card_text_weight)
            clauses.append(Clause([atom], "should", weight=weight, origin="card",
                                  label=f"{concept.text} ({what} of {card.name})"))
    if not clauses:
        return parsed
    body = re.sub(r"^\s*\[[^\]]*\]\s*", "", text)
    shape = next((s for s in vocab.shapes if re.search(s.pattern, body, re.IGNORECASE)), None)
    if shape is not None and shape.rules:
        clauses.append(Clause(list(shape.rules), "should", weight=shape_weight, origin="shape",
                              label=f"'{shape.name}'"))
    for situation in vocab.situations if situation_weight else ():
        if re.search(situation.pattern, body, re.IGNORECASE):
            clauses.append(Clause(list(situation.rules), "should", weight=situation_weight,
                                  origin="shape", label=f"'{situation.name}'"))
    if named_once:
        clauses = named_once_only(clauses)
    out = ParsedQuery(text, clauses, parsed.sections, parsed.ruleset, parsed.edition,
                      parsed.dropped + dropped)
    out.names = names
    out.cards = card_labels
    out.shape = shape.name if shape else None
    out.question = True
    out.cut = parsed.cut
    out.unread = parsed.unread
    return out


def _idioms(atoms: list[Atom], keep: list[bool], text: str, vocab: Vocabulary, synonym_weight: float,
            after: int = 0) -> tuple[list[Clause], list[str]]:
    """The English idioms of the question (``vocab.idioms``, longest first, then left to right):
    its words as typed, next to each other (stop words too, which the parser has left out),
    from ``after`` on, over kept atoms only (one at least, none part of a name, a card or a
    quotation). Each idiom's atoms leave ``keep``, and it becomes one concept of the rules'
    words for what it means (its own words as a phrase beside them) or, meaning nothing for
    the rules, is left out. Returns those concepts and the idioms left out, in the question's
    order."""
    tokens = [(m.start(), m.end(), m.group().lower()) for m in WORD.finditer(text, after)]
    found: list[tuple[int, int, tuple[str, ...], tuple[Atom, ...], list[int]]] = []
    for words, rules in vocab.idioms:
        n = len(words)
        for i in range(len(tokens) - n + 1):
            run = tokens[i:i + n]
            if tuple(t[2] for t in run) != words or any(text[a[1]:b[0]].strip() for a, b in zip(run, run[1:])):
                continue
            begin, end = run[0][0], run[-1][1]
            if any(begin < f[1] and f[0] < end for f in found):
                continue
            inside = [k for k, a in enumerate(atoms) if a.start < end and begin < a.end]
            # An atom may end on punctuation after the idiom ("right away, can I …").
            if inside and all(keep[k] and atoms[k].kind == "word" and begin <= atoms[k].start
                              and not WORD.search(text, end, max(end, atoms[k].end)) for k in inside):
                found.append((begin, end, words, rules, inside))
    clauses: list[Clause] = []
    dropped: list[str] = []
    for begin, end, words, rules, inside in sorted(found, key=lambda f: f[0]):
        for k in inside:
            keep[k] = False
        typed = text[begin:end]
        if rules:
            atom = Atom("phrase", typed, words, start=begin, end=end)
            clauses.append(Clause([atom, *rules], "should", origin="vocabulary", label=typed.strip(" ,.?!;:"),
                                  alternative_weight=synonym_weight))
        else:
            dropped.append(typed)
    return clauses, dropped


def in_sense(term: tuple[str, ...], senses: dict[tuple[str, ...], frozenset[str]],
             asked: frozenset[str]) -> bool:
    """Whether a term the question names (its stems) is read as the term: always, unless the
    vocabulary gives it a sense (``senses``: "hold" → battlefield, control, score …), and then
    only in a question holding one of that sense's stems (``asked``) beside the term itself."""
    need = senses.get(term)
    if need is None and term and term[-1].endswith("s"):
        need = senses.get((*term[:-1], term[-1][:-1]))
    return need is None or bool(need & (asked - set(term)))


def is_participant(atom: Atom, vocab: Vocabulary) -> bool:
    """True when an atom names one of a question's participants, whole ("opponent",
    "opponent's": the vocabulary's ``participants``)."""
    stems = analyse(" ".join(atom.words))
    return bool(stems) and all(st in vocab.participants for st in stems)


def is_players_phrase(atom: Atom, vocab: Vocabulary) -> bool:
    """True when an atom's words are, whole, the players' phrase of a vocabulary entry
    ("ETBs", "stack", "state-based")."""
    stems = tuple(analyse(" ".join(atom.words)))
    return bool(stems) and any(e.players == stems for e in vocab.by_first.get(stems[0], ()))


def is_slip(typed: str, name: str) -> bool:
    """True when the words a question named a card with are not the card's own: a slip
    ("grave whisper" for Grave Whisperer, "lantern warten"), not the name or a run of its
    whole words ("Vex" for "Vex, Apathetic")."""
    return f" {name_key(typed)} " not in f" {name_key(name)} "


def _cards_named(atoms: list[Atom], text: str, cards: CardList,
                 rules_with: Callable[[str], int]) -> list[tuple[int, int, Any, str]]:
    """The cards named in a question: (first atom, end, card, the name as typed). A name is
    a run of atoms with nothing but spaces, commas or apostrophes between them; a possessive
    ("Hall's") names the card ("Abandoned Hall"). A word no rule uses (``rules_with``) lets a
    misspelt name in lower case be read (:meth:`CardList.find`)."""
    out: list[tuple[int, int, Any, str]] = []
    start = 0
    # The small words between two atoms ("Shatter *the* Line"): the reader dropped them as too
    # common to search, but a card's title holds them.
    # A sentence's end inside the previous atom ("Shatter. The Line") ends the name too.
    between = [_title_words(text[atoms[k - 1].end:atoms[k].start])
               if k and not atoms[k - 1].text.rstrip("'’\"”)").endswith((".", "?", "!", ":", ";")) else
               (None if k else []) for k in range(len(atoms))]
    for k in range(1, len(atoms) + 1):
        if k < len(atoms) and atoms[k].kind in ("word", "phrase") and _in_name(atoms[k - 1], text) \
                and between[k] is not None:
            continue
        run = atoms[start:k]
        # One entry a word: each atom's words, and the small words between atoms on their own
        # (owner None), so "a Veiled Ambusher" still finds "Veiled Ambusher".
        words: list[str] = []
        capital: list[bool] = []
        unknown: list[bool] = []
        endings: list[str] = []
        owner: list[int | None] = []
        for n, a in enumerate(run):
            for w in between[start + n] if n else []:
                words.append(w)
                endings.append(w)
                capital.append(False)
                unknown.append(False)
                owner.append(None)
            ws = list(a.words)
            if len(ws) > 1 and ws[-1] == "s" and re.search(r"['’]s\W*$", a.text):
                ws = ws[:-1]
            key, end = name_forms(a.text)
            words.append(key)
            endings.append(end)
            capital.append(_capitalised(a))
            unknown.append(any(w.isalpha() and stem(w) and not rules_with(stem(w)) for w in ws))
            owner.append(n)
        for i, j, card, _ in cards.find(words, capital, unknown, endings):
            first, last = owner[i], owner[j - 1]
            if first is None or last is None:  # a name never starts or ends on a small word
                continue
            out.append((start + first, start + last + 1, card,
                        re.sub(r"['’‘ʼ]s$", "", text[run[first].start:run[last].end].strip(" ,.?!:;\"“”"))))
        start = k
    return out


def _in_name(atom: Atom, text: str) -> bool:
    """Whether a name may go on after this atom: a word, or words joined by an apostrophe or
    a hyphen as typed ("Vex's Lantern", "Kor'vash the Unbroken"), not a quoted phrase."""
    return atom.kind == "word" or (atom.kind == "phrase" and text[atom.start:atom.start + 1] not in "\"“„«")


def _title_words(gap: str) -> list[str] | None:
    """The words between two atoms of one name, lower case: none for spaces, commas or
    apostrophes, the small words a card's title holds ("of the": :data:`TITLE_SMALL`), or
    None when the gap ends the name (other punctuation, any other word)."""
    rest = gap.strip(" ,'’")
    if not rest:
        return []
    found = [w.lower() for w in WORD.findall(rest)]
    if WORD.sub("", rest).strip(" ") or not all(w in TITLE_SMALL for w in found):
        return None
    return found


def _inside_terms(atoms: list[Atom], keep: list[bool], terms: dict[str, str],
                  verb: int | None = None) -> set[int]:
    """The positions of the kept atoms that make up one of the edition's terms, read as the
    concepts are (longest term first, left to right; ``verb``: see :func:`_term_at`)."""
    at = [k for k, kept in enumerate(keep) if kept]
    run = [atoms[k] for k in at]
    out: set[int] = set()
    i = 0
    while i < len(run):
        found = _term_at(run, i, terms, verb)
        if found is None:
            i += 1
            continue
        out.update(at[i:found[0]])
        i = found[0]
    return out


def _term_at(atoms: list[Atom], i: int, terms: dict[str, str],
             verb: int | None = None) -> tuple[int, str] | None:
    """The longest defined term starting at atom ``i``: (end, key). A term of several atoms
    never ends on the atom starting at ``verb``, the question's verb (:func:`question_verb`)."""
    for j in range(min(len(atoms), i + MAX_TERM_WORDS), i, -1):
        if verb is not None and j - i > 1 and atoms[j - 1].start == verb:
            continue
        words = [w for a in atoms[i:j] for w in a.words]
        key = terms.get(" ".join(words))
        if key is None and j - i == 1 and words[-1].endswith("s"):
            key = terms.get(" ".join(words)[:-1])
        if key is not None:
            return j, key
    return None


def _entry_at(stems: list[tuple[str, ...]], i: int, vocab: Vocabulary) -> tuple[Entry | None, int]:
    """The longest vocabulary entry whose players' phrase starts at atom ``i``: (entry, end)."""
    if not stems[i]:
        return None, i
    for entry in vocab.by_first.get(stems[i][0], ()):
        flat: list[str] = []
        j = i
        while j < len(stems) and len(flat) < len(entry.players):
            flat.extend(stems[j])
            j += 1
        if tuple(flat) == entry.players:
            return entry, j
    return None, i


def named_once_only(clauses: list[Clause]) -> list[Clause]:
    """The concepts with each counted once: a rules' word that a players' word ("responds" →
    reaction) or the question's shape ("who acts" → focus) brings in, and that the question
    names itself ("… with a reaction", "… with focus"), is left out of the alternatives
    (the players' word keeps its other alternatives and itself; a shape left with none is
    dropped). Otherwise a rule holding that one word scores it twice, and it outranks the
    rules holding the rest of the question."""
    own = {tuple(analyse(" ".join(c.atoms[0].words))) for c in clauses
           if c.origin in ("typed", "term") and c.mode != "not"}
    out = []
    for c in clauses:
        if c.origin in ("vocabulary", "shape"):
            first = c.atoms[:1] if c.origin == "vocabulary" else []
            rest = [a for a in c.atoms[len(first):] if tuple(analyse(" ".join(a.words))) not in own]
            if len(first) + len(rest) < len(c.atoms):
                if not first and not rest:
                    continue
                c = replace(c, atoms=[*first, *rest])
        out.append(c)
    return out
