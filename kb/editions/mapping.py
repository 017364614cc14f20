"""The one mapping between two editions: where each rule of edition A went in edition B.

Rule numbers move between editions (Riftbound's chain went from the 530s to the 330s;
Magic's Timing and Priority from 116 to 117), so a citation written against one edition
is carried to another through this mapping, the way version control detects renames:

1. **Exact text.** A rule at the same number with the same wording in both editions is
   kept, when most of its subrules are kept too (Magic's "General" headings changed
   chapters at M10); then rules whose normalised wording is unique in both are paired.
2. **Near-identical text.** Mutual best matches with a very high similarity anywhere in
   the edition (a rule that moved far away, slightly reworded); a near tie is left alone.
3. **Structure**, repeated until nothing changes:
   - a heading (or any rule with subrules) follows the majority of its children;
   - the unpaired children of two paired parents are aligned in order;
   - the unpaired rules between two consecutive paired rules are aligned in order
     (this catches promotions such as 1.3's ``337.1.c`` becoming 1.4's ``337.2``).
4. **Leftovers**, when the structure has nothing more to say: mutual best matches anywhere
   that are still clearly the same rule, and matches inside the counterpart of the rule's
   section (Magic 603.6d became 603.10); then the structural steps run again.
5. **Evidence that is not the words**, when text and structure are done: two free rules
   that what surrounds them says are one rule are paired at a low text bar (0.30). A
   paired rule citing X whose counterpart cites Y, a glossary entry or keyword whose "See
   rule X" became "See rule Y", children of X paired with children of Y: each piece
   weighs as much as it is specific, and together they must weigh as much as one sure
   piece (Magic 2010's chaos abilities 309.7 are 2026's 311.7, the rule the glossary names;
   "Totem Armor" 702.86 became "Umbra Armor" 702.89). Then the structural steps and the
   section matches again, inside the sections the new pairs open.
6. **Rivals**, last: a pair the structure made on weak text (a heading following its
   children, a rule kept at its number under paired parents) gives way to an unpaired rule
   whose text matches clearly better, when the two are each other's best: 1.4 inserted a
   "may" rule (371.2) whose subrules were 1.3's 371.1–371.2, so the heading vote paired it
   with 1.3's 371 ("once each turn") while 1.4's own 371 said the same as 1.3's; the rule
   it leaves is free for the structural steps again.

Similarity is the mean of rapidfuzz's normalised Indel similarity over characters and over
words, on folded text without rule numbers (so a renumbered cross-reference does not count
against a rule). The bar is lowest where the structure vouches for a pair (the only
unpaired rule on each side between the same paired neighbours) and highest for pairs far
apart; short texts ("Units", "Pass Priority") need the structure's support, and a rule
kept at its number under paired parents that only gained or lost sentences (above all a
"See rule 197. Locations for more information.") is the same rule. Among the
children of paired parents, a rule's place is its number, or the place its paired
neighbours moved to: a rule inserted or removed shifts its siblings, and a pair continuing
that shift is vouched for as much as one keeping its number, so the text decides between
them (Magic 2026's legend rule 704.5j is 2010's 704.5k, not 2010's planeswalker uniqueness
rule 704.5j, removed, whose number it took). A rule is left
unpaired ("removed") rather than paired on weak evidence. Every pair carries a confidence
in [0, 1] that combines the similarity with the structural evidence around it.

>>> from kb.editions.mapping import normalise
>>> normalise("See rule 337.1.a. “Finalize”")
'see rule finalize'
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from kb.graph import RuleGraph

# Rule numbers inside rule text ("rule 337.1.a.", "603.7d", "116"): left out of similarity.
_NUMBER_IN_TEXT = re.compile(r"\b\d{3}(?:\.\d+[a-z]?|\.[a-z])*\b")
_NON_WORD = re.compile(r"[\W_]+")
# Examples a reader left inside the text ("… its definition. EXAMPLE: Legion …") are not
# part of the rule's wording.
_INLINE_EXAMPLE = re.compile(r"(?<=\S)\s+EXAMPLES?:|(?<=[.!?\"”])\s*Examples?:\s")
# A sentence that only points elsewhere: "See rule 197. Locations for more information.",
# "See rule 702.19.", "(See rule 613, “Interaction of Continuous Effects.”)".
_REFERENCE_SENTENCE = re.compile(
    r"\(?\b(?:For more information(?: on [^,.]*)?, see|See(?: also)?) (?:rules?|section) \d{3}(?:\.\d+[a-z]?|\.[a-z])*\.?"
    r"(?:,? ?“[^”]*”|,? ?\"[^\"]*\")?(?: ?[^.()]*? for more information)?[.)]*", re.IGNORECASE)

# Similarity thresholds (0–1), tuned on the labelled samples in tests/fixtures/editions.
# Unrelated rules of one ruleset score about 0.3–0.5 (they share the game's vocabulary).
NEAR_IDENTICAL = 0.85    # paired anywhere in the edition, if mutual best
ANYWHERE = 0.75          # paired anywhere among the leftovers, if mutual best
FAR_ANYWHERE = 0.80      # ... between editions that are not neighbours (see bridge)
IN_SECTION = 0.56        # paired anywhere inside the counterpart of a paired ancestor
IN_CONTEXT = 0.55        # paired inside an aligned gap or between paired parents
SAME_SLOT = 0.45         # ... when the two sit at the same place under paired parents
SANDWICH = 0.40          # ... when each is the only unpaired rule between the same anchors
EVIDENCED = 0.30         # paired anywhere when citations, a defined term or children vouch for it
ENOUGH_EVIDENCE = 1.0    # ... weighing this much together (see _Matcher._evidence)
ONLY_CHILD = 0.5         # what one subrule on each side, paired, is worth (never enough alone)
CITING_ALIKE = 0.5       # what citing the counterpart of what the other cites is worth (never enough alone)
MOST_EVIDENCE = 2.0      # evidence ranks a candidate up to this weight; past it, the text decides
SHORT_IN_CONTEXT = 0.70  # any of the above, for short texts
TIE = 0.02               # two candidates closer than this are a tie
SLOT_BONUS = IN_CONTEXT - SAME_SLOT  # what keeping its number among its siblings is worth
SHIFT_BONUS = SLOT_BONUS - TIE       # ... and moving as its neighbours moved (less: a tie keeps the number)
WEAK = 0.75              # a pair the structure made below this is open to a better rival
RIVAL_MARGIN = 0.10      # ... which must beat it by this much
SHORT = 24               # characters of normalised text below which a text is "short"
MAX_ALIGN_CELLS = 200_000
SETTLED = ("exact", "text", "kept", "composed")  # pairs no rival undoes (see bridge for the last two)
MAX_SCOPE = 1500         # rules searched below one paired ancestor


def normalise(text: str) -> str:
    """Folded text for similarity: lower case; rule numbers, punctuation and underscores
    (2010 Magic italics) dropped; spaces collapsed."""
    text = text.lower().replace("’", "'").replace("‘", "'")
    text = _NUMBER_IN_TEXT.sub(" ", text)
    return " ".join(_NON_WORD.sub(" ", text.replace("'", "")).split())


def rule_wording(title: str | None, text: str | None) -> str:
    """The words of a rule the mapping compares: its title and text, without the examples a
    reader left inside the text (:func:`normalise` folds them into a rule's key)."""
    return _INLINE_EXAMPLE.split(" ".join(x for x in (title, text) if x), 1)[0]


def similarity(a: str, b: str, cutoff: float = 0.0) -> float:
    """Similarity in [0, 1] of two normalised texts: the mean of a character-level and a
    word-level Indel similarity (0 when it cannot reach ``cutoff``).

    Characters forgive small rewordings ("he or she" → "they"); words keep two rules that
    merely share the game's vocabulary apart.
    """
    if a == b:
        return 1.0
    chars = fuzz.ratio(a, b, score_cutoff=max(0.0, 2 * cutoff - 1) * 100) / 100.0
    if chars == 0.0 or min(len(a), len(b)) < SHORT:
        return chars  # a title of one or two words: words say nothing characters don't
    words = Indel.normalized_similarity(a.split(), b.split())
    return (chars + words) / 2


@dataclass(frozen=True, slots=True)
class Counterpart:
    """Where one rule went: ``target`` is None when the rule has no counterpart."""

    number: str
    target: str | None
    confidence: float
    similarity: float
    method: str  # exact, text, heading, children, sequence, anywhere, section, evidence, rival, composed, kept, removed


@dataclass
class EditionMapping:
    """Rule numbers of edition ``source`` paired with those of edition ``target``.

    ``pairs`` holds every numbered node of the source edition (a removed rule maps to a
    Counterpart whose target is None); ``added`` lists the target's nodes that nothing maps to.
    """

    ruleset: str
    source: str
    target: str
    pairs: dict[str, Counterpart]
    added: list[str] = field(default_factory=list)
    partial: bool = False
    _back: dict[str, str] = field(default_factory=dict, repr=False)
    _added: frozenset[str] = field(default_factory=frozenset, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self._back:
            self._back = {c.target: n for n, c in self.pairs.items() if c.target is not None}
        self._added = frozenset(self.added)

    def get(self, number: str) -> Counterpart | None:
        """The counterpart of a source number (None when the number is not in the source)."""
        return self.pairs.get(number)

    def origin(self, target_number: str) -> str | None:
        """The source number that maps onto a target number, if any."""
        return self._back.get(target_number)

    def back(self, target_number: str) -> Counterpart | None:
        """What ``self.inverse().get(target_number)`` gives, without building the inverse:
        where a number of the target edition came from (target None when it was added),
        or None when the target edition has no such number. Following one number back
        through seventy editions must not invert seventy mappings."""
        if target_number in self._added:
            return Counterpart(target_number, None, 1.0, 0.0, "removed")
        origin = self._back.get(target_number)
        if origin is None:
            return None
        c = self.pairs[origin]
        return Counterpart(target_number, origin, c.confidence, c.similarity, c.method)

    def inverse(self) -> EditionMapping:
        """The same pairing read from the target edition back to the source edition."""
        pairs = {c.target: Counterpart(c.target, n, c.confidence, c.similarity, c.method)
                 for n, c in self.pairs.items() if c.target is not None}
        for number in self.added:
            pairs[number] = Counterpart(number, None, 1.0, 0.0, "removed")
        removed = [n for n, c in self.pairs.items() if c.target is None]
        return EditionMapping(self.ruleset, self.target, self.source, pairs, removed, self.partial)

    def then(self, other: EditionMapping) -> EditionMapping:
        """Compose with a mapping that starts where this one ends (A→B then B→C gives A→C)."""
        if other.source != self.target:
            raise ValueError(f"cannot compose {self.source}→{self.target} with {other.source}→{other.target}")
        pairs = {number: compose(c, other.pairs.get(c.target) if c.target is not None else None)
                 for number, c in self.pairs.items()}
        reached = {c.target for c in pairs.values() if c.target is not None}
        targets = [c.target for c in other.pairs.values() if c.target is not None] + other.added
        added = [n for n in targets if n not in reached]
        return EditionMapping(self.ruleset, self.source, other.target, pairs, added,
                              self.partial or other.partial)


def no_counterpart_status(partial: bool, earlier: bool) -> str:
    """The status of a rule with no counterpart in the edition asked of: ``unknown`` when
    that edition is an excerpt (it cannot tell a rule removed from one it does not hold),
    ``added`` when it is earlier (the rule came after it), else ``removed``."""
    return "unknown" if partial else "added" if earlier else "removed"


def compose(c: Counterpart, nxt: Counterpart | None) -> Counterpart:
    """Where ``c.number`` goes in two steps: ``c`` (its counterpart one step on) then ``nxt``
    (the counterpart of ``c.target`` one more step on, None when there is none).

    A chain is as sure as its least sure step: multiplying the steps' confidences made a
    rule that kept its number and words through 50 Magic editions (704, State-Based
    Actions, 2009 to 2026: each step 0.88, a short title) look a guess (0.01)."""
    if c.target is None or nxt is None or nxt.target is None:
        return Counterpart(c.number, None, min(c.confidence, nxt.confidence) if nxt else c.confidence, 0.0, "removed")
    return Counterpart(c.number, nxt.target, min(c.confidence, nxt.confidence),
                       round(c.similarity * nxt.similarity, 3), "composed")


# -- the algorithm ---------------------------------------------------------------------

@dataclass(slots=True)
class _Side:
    """One edition, flattened for matching: parallel lists in document order."""

    numbers: list[str]
    keys: list[str]
    wordings: list[str]      # the texts the keys were made from (rule numbers kept)
    parent: list[int]        # -1 for a top-level node
    children: list[list[int]]
    last: list[str]          # the last segment of the number
    index: dict[str, int]
    size: list[int]          # nodes in the subtree, the node included
    cites: list[list[int]]   # the rules each rule refers to ("See rule 117")
    cited: list[list[int]]   # ... and the rules referring to it
    defines: list[list[str]]  # the terms each rule defines or heads (glossary, keywords)
    definers: dict[str, list[int]]  # ... and the rules defining each term

    @classmethod
    def of(cls, rg: RuleGraph) -> _Side:
        rules = list(rg.edition.rules.values())
        index = {r.number: i for i, r in enumerate(rules)}
        wordings = [rule_wording(r.title, r.text) for r in rules]
        keys = [normalise(w) for w in wordings]
        parent = [index[r.parent] if r.parent is not None else -1 for r in rules]
        children = [[index[c] for c in r.children] for r in rules]
        size = [1] * len(rules)
        for k in range(len(rules) - 1, -1, -1):
            if parent[k] >= 0:
                size[parent[k]] += size[k]
        cites: list[list[int]] = [[] for _ in rules]
        cited: list[list[int]] = [[] for _ in rules]
        for source, target, kind in rg.graph.edges(data="kind"):
            if kind == "refers" and source in index and target in index:
                cites[index[source]].append(index[target])
                cited[index[target]].append(index[source])
        defines: list[list[str]] = [[] for _ in rules]
        definers: dict[str, list[int]] = {}
        for key, term in rg.edition.terms.items():
            found = [index[n] for n in term.defined_by if n in index]
            definers[key] = found
            for k in found:
                defines[k].append(key)
        return cls([r.number for r in rules], keys, wordings, parent, children,
                   [r.segments[-1] for r in rules], index, size, cites, cited, defines, definers)

    def __len__(self) -> int:
        return len(self.numbers)

    def descendants(self, k: int, limit: int) -> list[int]:
        """Up to ``limit`` nodes below node k, in document order."""
        out: list[int] = []
        stack = list(reversed(self.children[k]))
        while stack and len(out) < limit:
            c = stack.pop()
            out.append(c)
            stack.extend(reversed(self.children[c]))
        return out


class _Matcher:
    """State of one matching run: the pairs found so far, both ways."""

    def __init__(self, a: _Side, b: _Side):
        self.a, self.b = a, b
        self.fwd: dict[int, int] = {}
        self.back: dict[int, int] = {}
        self.sim: dict[int, float] = {}
        self.method: dict[int, str] = {}
        self._memo: dict[tuple[int, int], float] = {}
        self._bare_keys: dict[tuple[bool, int], str] = {}

    def s(self, i: int, j: int, cutoff: float = 0.0) -> float:
        """Similarity of A's rule i and B's rule j (memoised once computed in full)."""
        key = (i, j)
        found = self._memo.get(key)
        if found is None:
            found = similarity(self.a.keys[i], self.b.keys[j], cutoff)
            if found or not cutoff:
                self._memo[key] = found
        return found

    def pair(self, i: int, j: int, sim: float, method: str) -> None:
        self.fwd[i] = j
        self.back[j] = i
        self.sim[i] = sim
        self.method[i] = method

    def free_a(self, i: int) -> bool:
        return i not in self.fwd

    def free_b(self, j: int) -> bool:
        return j not in self.back

    def short(self, i: int, j: int) -> bool:
        return min(len(self.a.keys[i]), len(self.b.keys[j])) < SHORT

    def extends(self, i: int, j: int) -> bool:
        """Whether one of the two texts is the other with sentences added at its end, or
        with sentences that only point to other rules added anywhere ("Each Base is a
        Location." gaining "See rule 197. Locations for more information."): a short rule
        whose length such a sentence doubles is still the same rule, reworded."""
        x, y = sorted((self.a.keys[i], self.b.keys[j]), key=len)
        if x and (y == x or y.startswith(x + " ")):
            return True
        bare_a, bare_b = self._bare(self.a, i), self._bare(self.b, j)
        return bool(bare_a) and bare_a == bare_b

    def _bare(self, side: _Side, k: int) -> str:
        """A rule's key without its reference sentences (made once per rule)."""
        found = self._bare_keys.get((side is self.a, k))
        if found is None:
            found = self._bare_keys[(side is self.a, k)] = normalise(_REFERENCE_SENTENCE.sub(" ", side.wordings[k]))
        return found

    # 1. the same number with the same wording (unique or not: "Keywords", "Action")
    def kept(self) -> None:
        """Pair the rules both editions hold at one number with one wording, when their
        subrules agree as much: most of them kept at their numbers and wordings too (Magic's
        "General" headings at 300 or 500 held other chapters' rules before and after M10)."""
        for i, number in enumerate(self.a.numbers):
            j = self.b.index.get(number)
            if j is not None and self._kept(i, j) and self.free_a(i) and self.free_b(j):
                self.pair(i, j, 1.0, "kept")

    def _kept(self, i: int, j: int) -> bool:
        a, b = self.a, self.b
        if not a.keys[i] or a.keys[i] != b.keys[j]:
            return False
        kids_a, kids_b = a.children[i], b.children[j]
        if not kids_a and not kids_b:
            return True
        alike = sum(1 for c in kids_a if (d := b.index.get(a.numbers[c])) is not None
                    and b.parent[d] == j and a.keys[c] == b.keys[d])
        return 2 * alike > max(len(kids_a), len(kids_b))

    # 1. exact wording, unique on both sides
    def exact(self) -> None:
        where_a: dict[str, list[int]] = defaultdict(list)
        where_b: dict[str, list[int]] = defaultdict(list)
        for i, k in enumerate(self.a.keys):
            where_a[k].append(i)
        for j, k in enumerate(self.b.keys):
            where_b[k].append(j)
        for k, xs in where_a.items():
            ys = where_b.get(k)
            if k and ys and len(xs) == 1 and len(ys) == 1 and self.free_a(xs[0]) and self.free_b(ys[0]):
                self.pair(xs[0], ys[0], 1.0, "exact")

    # 2. near-identical text anywhere (mutual best among candidates)
    def candidates(self, limit: int = 8) -> dict[int, list[int]]:
        """For each free rule of A, the free rules of B sharing the most informative words."""
        words = _Postings(self.b.keys, [j for j in range(len(self.b)) if self.free_b(j)])
        return {i: words.nearest(self.a.keys[i], limit) for i in range(len(self.a)) if self.free_a(i)}

    def mutual_best(self, floor: float, method: str) -> int:
        proposals = [(self.s(i, j, floor), i, j) for i, js in self.candidates().items() for j in js]
        return self._accept([p for p in proposals if p[0] >= floor], method, allow_short=False)

    def _accept(self, proposals: list[tuple[float, int, int]], method: str,
                allow_short: bool = True) -> int:
        """Pair mutual best proposals, best first; a near tie on either side is left alone
        (two equally good candidates: the structure decides later, or nobody does)."""
        best_a: dict[int, list[float]] = defaultdict(list)
        best_b: dict[int, list[float]] = defaultdict(list)
        for sim, i, j in proposals:
            best_a[i].append(sim)
            best_b[j].append(sim)
        added = 0
        for sim, i, j in sorted(proposals, reverse=True):
            if not (self.free_a(i) and self.free_b(j)):
                continue
            if not allow_short and self.short(i, j) and sim < 1.0:
                continue
            if _runner_up(best_a[i], sim) > sim - TIE or _runner_up(best_b[j], sim) > sim - TIE:
                continue
            self.pair(i, j, sim, method)
            added += 1
        return added

    # 3a. a parent follows the majority of its children
    def headings(self) -> int:
        added = 0
        for i in range(len(self.a)):
            kids = self.a.children[i]
            if not self.free_a(i) or not kids:
                continue
            votes = Counter(self.b.parent[self.fwd[c]] for c in kids if c in self.fwd)
            if not votes:
                continue
            (j, count), = votes.most_common(1)
            if j < 0 or not self.free_b(j):
                continue
            mapped = sum(votes.values())
            sim = self.s(i, j)
            strong = count >= 3 and count >= 0.75 * mapped
            unanimous = count >= 2 and count == mapped and count >= 0.5 * len(kids)
            if count >= 0.5 * mapped and (sim >= self._floor(i, j, IN_CONTEXT) or strong or unanimous):
                self.pair(i, j, sim, "heading")
                added += 1
        return added

    def _floor(self, i: int, j: int, base: float) -> float:
        return max(base, SHORT_IN_CONTEXT) if self.short(i, j) else base

    # 3b. unpaired children of paired parents, aligned in order
    def children(self) -> int:
        added = 0
        for i, j in list(self.fwd.items()):
            xs = [c for c in self.a.children[i] if self.free_a(c)]
            ys = [c for c in self.b.children[j] if self.free_b(c)]
            if xs and ys:
                added += self._align(xs, ys, "children", (self.a.children[i], self.b.children[j]))
        # top-level nodes have no parent to pair: align them as siblings of one root
        xs = [i for i in range(len(self.a)) if self.a.parent[i] < 0 and self.free_a(i)]
        ys = [j for j in range(len(self.b)) if self.b.parent[j] < 0 and self.free_b(j)]
        if xs and ys:
            tops = ([i for i in range(len(self.a)) if self.a.parent[i] < 0],
                    [j for j in range(len(self.b)) if self.b.parent[j] < 0])
            added += self._align(xs, ys, "children", tops)
        return added

    # 3c. unpaired rules between consecutive paired rules, aligned in order
    def sequence(self) -> int:
        added = 0
        anchors = sorted(self.fwd.items())
        bounds = [(-1, -1)] + anchors + [(len(self.a), len(self.b))]
        for (a1, b1), (a2, b2) in zip(bounds, bounds[1:]):
            if a2 - a1 < 2 or b2 - b1 < 2:
                continue
            xs = [i for i in range(a1 + 1, a2) if self.free_a(i)]
            ys = [j for j in range(b1 + 1, b2) if self.free_b(j)]
            if xs and ys:
                added += self._align(xs, ys, "sequence")
        return added

    # 3d. unpaired rules inside the counterpart of their nearest paired ancestor
    def section(self) -> int:
        proposals: list[tuple[float, int, int]] = []
        scopes: dict[int, list[int]] = {}
        for i in range(len(self.a)):
            if not self.free_a(i):
                continue
            top = self._scope(i)
            if top < 0:
                continue
            if top not in scopes:
                scopes[top] = [j for j in self.b.descendants(top, MAX_SCOPE) if self.free_b(j)]
            for j in scopes[top]:
                sim = self.s(i, j, IN_SECTION)
                if sim >= self._floor(i, j, IN_SECTION):
                    proposals.append((sim, i, j))
        return self._accept(proposals, "section")

    def _scope(self, i: int) -> int:
        """The counterpart of the outermost paired ancestor of i below a chapter (a section
        such as Magic's 603 or Riftbound's 337), or of a nearer one when that is too big."""
        return _counterpart_section(self.a, self.fwd, self.b, i)

    def _align(self, xs: list[int], ys: list[int], method: str,
               siblings: tuple[list[int], list[int]] | None = None) -> int:
        """Order-preserving pairing of xs with ys maximising the summed excess similarity.

        The bar is lower where the structure vouches for a pair: the only unpaired rule on
        each side of a gap, or the same place under paired parents (``siblings``: the two
        parents' children), which is the same last number segment or the shift of the
        nearest paired sibling before or after.
        """
        if len(xs) * len(ys) > MAX_ALIGN_CELLS:
            return 0
        m, n = len(xs), len(ys)
        sandwich = m == 1 and n == 1
        shifted = self._shifts(siblings) if siblings is not None else None
        gain = [[0.0] * n for _ in range(m)]
        for r, i in enumerate(xs):
            for c, j in enumerate(ys):
                same_number = shifted is not None and self.a.last[i] == self.b.last[j]
                same_shift = shifted is not None and not same_number and shifted(i, j)
                same_slot = same_number or same_shift
                base = SANDWICH if sandwich else SAME_SLOT if same_slot else IN_CONTEXT
                floor = self._floor(i, j, base)
                sim = self.s(i, j, floor)
                if sim < floor and same_number and self.extends(i, j):
                    sim = max(floor, self._floor(i, j, IN_CONTEXT))  # at its number, a sentence more
                if sim >= floor:
                    # the floor says whether a pair may be made, the excess which is made:
                    # a rule at its place is preferred by SLOT_BONUS, whether its place is
                    # its number or its neighbours' shift, and between the two the text decides
                    bonus = SLOT_BONUS if same_number else SHIFT_BONUS if same_shift else 0.0
                    excess = sim - self._floor(i, j, IN_CONTEXT) + bonus
                    gain[r][c] = max(0.001, excess + 0.01)
        best = [[0.0] * (n + 1) for _ in range(m + 1)]
        for r in range(m - 1, -1, -1):
            row, below = best[r], best[r + 1]
            g = gain[r]
            for c in range(n - 1, -1, -1):
                v = below[c] if below[c] > row[c + 1] else row[c + 1]
                if g[c] > 0.0 and g[c] + below[c + 1] > v:
                    v = g[c] + below[c + 1]
                row[c] = v
        r = c = 0
        added = 0
        while r < m and c < n:
            g = gain[r][c]
            if g > 0.0 and abs(best[r][c] - (g + best[r + 1][c + 1])) < 1e-12:
                i, j = xs[r], ys[c]
                self.pair(i, j, self.s(i, j), method)
                added += 1
                r, c = r + 1, c + 1
            elif abs(best[r][c] - best[r + 1][c]) < 1e-12:
                r += 1
            else:
                c += 1
        return added

    def _shifts(self, siblings: tuple[list[int], list[int]]) -> Callable[[int, int], bool]:
        """Whether pairing A's sibling i with B's sibling j moves i as far along its
        siblings as the nearest paired sibling before or after it moved."""
        sib_a, sib_b = siblings
        pos_b = {j: c for c, j in enumerate(sib_b)}
        pos_a = {i: r for r, i in enumerate(sib_a)}
        paired = [(r, pos_b[self.fwd[i]] - r) for r, i in enumerate(sib_a)
                  if i in self.fwd and self.fwd[i] in pos_b]
        where = [r for r, _ in paired]

        def shifted(i: int, j: int) -> bool:
            r, offset = pos_a[i], pos_b[j] - pos_a[i]
            k = bisect.bisect_left(where, r)
            return ((k > 0 and paired[k - 1][1] == offset)
                    or (k < len(paired) and paired[k][1] == offset))
        return shifted

    # 5. evidence that is not the rules' words: citations, defined terms, children
    def evidence(self) -> int:
        """Pair free rules that what surrounds them says are one rule, at a lower text bar.

        A pair (i, j) of free rules has evidence when a paired rule citing i has a
        counterpart citing j, or a rule i cites is paired with a rule j cites (the
        reference neighbourhood: "See rule X" becoming "See rule Y"); when both define or
        head the same term (a glossary entry, a keyword); or when children of i are paired
        with children of j. The pair is made when its evidence weighs ENOUGH_EVIDENCE, its
        texts match at EVIDENCED or more, and it is the best of each rule's evidenced
        candidates (most evidence, then text) without a tie. Returns the pairs made."""
        votes = self._evidence()
        proposals: list[tuple[float, int, int]] = []
        for (i, j), kinds in votes.items():
            weight = sum(kinds.values())
            if weight < ENOUGH_EVIDENCE - 1e-9:
                continue
            sim = self.s(i, j, EVIDENCED)
            if sim >= EVIDENCED:
                proposals.append((min(weight, MOST_EVIDENCE) + sim, i, j))
        added = 0
        best_a: dict[int, list[float]] = defaultdict(list)
        best_b: dict[int, list[float]] = defaultdict(list)
        for score, i, j in proposals:
            best_a[i].append(score)
            best_b[j].append(score)
        for score, i, j in sorted(proposals, reverse=True):
            if not (self.free_a(i) and self.free_b(j)):
                continue
            if max(best_a[i]) > score or max(best_b[j]) > score:
                continue
            if _runner_up(best_a[i], score) > score - TIE or _runner_up(best_b[j], score) > score - TIE:
                continue
            self.pair(i, j, self.s(i, j), "evidence")
            added += 1
        return added

    def _evidence(self) -> dict[tuple[int, int], dict[str, float]]:
        """The evidence for each pair of free rules, by kind (see :meth:`evidence`).

        Each piece weighs as much as it is specific: being cited by a paired rule weighs 1 /
        the most rules it cites on either side; citing a paired rule weighs half of 1 / the
        most rules citing it on either side, so two rules both citing 509 ("Declare
        Blockers Step", cited by 14) are hardly evidence, and citing alike is never enough
        alone (Magic M10's 200.4, a token "See rule 216", is not 200.3, on objects that are
        not cards, though each is the only rule citing Tokens); a term weighs 1 / the most
        rules defining it on either side; children weigh the share of the larger family
        that pairs across, an only child half (Magic 2010's 513.1, the end step's triggers,
        kept its only subrule under 2026's 513.1, the end step's priority: the number
        stayed, the rule did not)."""
        a, b = self.a, self.b
        votes: dict[tuple[int, int], dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for i in range(len(a)):
            if not self.free_a(i):
                continue
            for s in a.cited[i]:  # paired rules citing i, whose counterparts cite j
                t = self.fwd.get(s)
                if t is not None:
                    for j in b.cites[t]:
                        if self.free_b(j):
                            votes[(i, j)]["cited"] += 1.0 / max(len(a.cites[s]), len(b.cites[t]))
            for s in a.cites[i]:  # paired rules i cites, which j's cite
                t = self.fwd.get(s)
                if t is not None:
                    for j in b.cited[t]:
                        if self.free_b(j):
                            votes[(i, j)]["cites"] += CITING_ALIKE / max(len(a.cited[s]), len(b.cited[t]))
            for key in a.defines[i]:  # the same term defined or headed
                theirs = b.definers.get(key, ())
                for j in theirs:
                    if self.free_b(j):
                        votes[(i, j)]["term"] += 1.0 / max(len(a.definers[key]), len(theirs))
            kids = a.children[i]
            for c in kids:  # children paired with j's children
                t = self.fwd.get(c)
                j = b.parent[t] if t is not None else -1
                if j >= 0 and self.free_b(j):
                    family = max(len(kids), len(b.children[j]))
                    votes[(i, j)]["children"] += (1.0 if family > 1 else ONLY_CHILD) / family
        return votes

    # 6. a weak structural pair gives way to a free rule whose text matches clearly better
    def rivals(self) -> int:
        """Re-pair each weak structural pair whose rule on either side has a free rival that
        matches it clearly better, the two being each other's best; the rule left behind is
        freed for the structural steps. Returns the number of pairs changed."""
        weak = [(i, j) for i, j in self.fwd.items()
                if self.sim[i] < WEAK and self.method[i] not in SETTLED]
        if not weak:
            return 0
        free_a = _Postings(self.a.keys, [i for i in range(len(self.a)) if self.free_a(i)], every_word=True)
        free_b = _Postings(self.b.keys, [j for j in range(len(self.b)) if self.free_b(j)], every_word=True)
        within: dict[tuple[bool, int], frozenset[int]] = {}
        changed = 0
        for i, j in weak:
            if self.fwd.get(i) != j:
                continue
            sim = self.sim[i]
            # a free rule of A that is j's counterpart rather than i ...
            rival = self._rival(j, i, sim, self.b, free_a, free_b, within)
            if rival is not None:
                self._unpair(i)
                self.pair(rival[0], j, rival[1], "rival")
                changed += 1
                continue
            # ... or a free rule of B that is i's counterpart rather than j
            rival = self._rival(i, j, sim, self.a, free_b, free_a, within)
            if rival is not None:
                self._unpair(i)
                self.pair(i, rival[0], rival[1], "rival")
                changed += 1
        return changed

    def _rival(self, k: int, partner: int, sim: float, own: _Side, free_other: _Postings,
               free_own: _Postings, within: dict[tuple[bool, int], frozenset[int]]) -> tuple[int, float] | None:
        """The free rule of the other side that matches ``own``'s rule k (paired with
        ``partner`` at ``sim``) better by RIVAL_MARGIN, with k its best match among the free
        rules of k's side; with its similarity. None when there is none, or a near tie.

        The rival must sit inside the counterpart of k's section (or be near-identical),
        and must not be a subrule of ``partner``: a rule split into a rule and its subrule
        (Magic 602.1 giving 602.1a the activation cost) keeps its pair."""
        forward = own is self.a
        other = self.b if forward else self.a

        def s(x: int, y: int, cutoff: float = 0.0) -> float:  # x of own side, y of the other
            return self.s(x, y, cutoff) if forward else self.s(y, x, cutoff)

        def free(side: _Side, x: int) -> bool:
            return self.free_a(x) if side is self.a else self.free_b(x)

        top = self._scope(k) if forward else self._scope_b(k)
        if (forward, top) not in within:
            within[(forward, top)] = frozenset(other.descendants(top, MAX_SCOPE)) if top >= 0 else frozenset()
        section = within[(forward, top)]
        best: tuple[float, int] | None = None
        sims: list[float] = []
        for y in free_other.nearest(own.keys[k], 8):
            if not free(other, y):
                continue
            short = min(len(own.keys[k]), len(other.keys[y])) < SHORT
            if other.parent[y] == partner:
                continue
            base = IN_SECTION if y in section else NEAR_IDENTICAL
            floor = max(max(base, SHORT_IN_CONTEXT) if short else base, sim + RIVAL_MARGIN)
            got = s(k, y, floor)
            sims.append(got)
            if got >= floor and (best is None or got > best[0]):
                best = (got, y)
        if best is None or _runner_up(sims, best[0]) > best[0] - TIE:
            return None
        got, y = best
        for x in free_own.nearest(other.keys[y], 8):  # is k the rival's best?
            if x != k and free(own, x) and s(x, y, got) > got - TIE:
                return None
        return y, got

    def _scope_b(self, j: int) -> int:
        """The counterpart in A of the outermost paired section above B's rule j (as
        ``_scope`` for A's rules), or -1."""
        return _counterpart_section(self.b, self.back, self.a, j)

    def _unpair(self, i: int) -> None:
        j = self.fwd.pop(i)
        del self.back[j]
        del self.sim[i]
        del self.method[i]

    def run(self) -> None:
        """Every step: the rules kept where they were first, then the rest (:meth:`match`)."""
        self.kept()
        self.match()

    def match(self) -> None:
        """The steps after :meth:`kept`: the same wording anywhere, then the structure, the
        evidence that is not the words and the rivals."""
        self.exact()
        self.mutual_best(NEAR_IDENTICAL, "text")
        steps: list[Callable[[], int]] = [self.headings, self.children, self.sequence]
        for _ in range(8):
            changed = sum(step() for step in steps)
            if not changed:
                changed = self.mutual_best(ANYWHERE, "anywhere") + self.section()
            if not changed:
                break
        # evidence that is not the words, for what the text left; its pairs are new anchors
        for _ in range(4):
            if not self.evidence():
                break
            while sum(step() for step in steps) + self.section():
                pass
        # the rivals once the rest is settled; what they free goes back to the structure
        for _ in range(4):
            if not self.rivals():
                break
            while sum(step() for step in steps):
                pass

    # -- confidence -------------------------------------------------------------------
    def confidence(self, i: int) -> float:
        """Similarity, raised by the structural evidence around the pair."""
        j = self.fwd[i]
        sim = self.sim[i]
        length = min(len(self.a.keys[i]), len(self.b.keys[j]))
        # short texts say less about identity than long ones
        weight = min(1.0, 0.5 + length / (4 * SHORT))
        doubt = 1.0 - sim * weight
        if self._parent_agrees(i, j):
            doubt *= 0.5
        if self._neighbours_agree(i, j):
            doubt *= 0.6
        return round(max(0.0, min(1.0, 1.0 - doubt)), 3)

    def _parent_agrees(self, i: int, j: int) -> bool:
        pa, pb = self.a.parent[i], self.b.parent[j]
        if pa < 0 and pb < 0:
            return True
        if pa >= 0 and self.fwd.get(pa, -2) == pb:
            return True
        # promotion (337.1.c → 337.2) or demotion by one level
        gpa = self.a.parent[pa] if pa >= 0 else -1
        gpb = self.b.parent[pb] if pb >= 0 else -1
        return (gpa >= 0 and self.fwd.get(gpa, -2) == pb) or (pa >= 0 and gpb >= 0 and self.fwd.get(pa, -2) == gpb)

    def _neighbours_agree(self, i: int, j: int) -> bool:
        prev_a = next((k for k in range(i - 1, max(-1, i - 6), -1) if k in self.fwd), None)
        next_a = next((k for k in range(i + 1, min(len(self.a), i + 6)) if k in self.fwd), None)
        return ((prev_a is not None and 0 < j - self.fwd[prev_a] <= 6)
                or (next_a is not None and 0 < self.fwd[next_a] - j <= 6))


def _counterpart_section(own: _Side, pairs: dict[int, int], other: _Side, k: int) -> int:
    """The counterpart on ``other`` of the outermost paired ancestor of ``own``'s rule k
    below a chapter, or of a nearer one when that holds more than MAX_SCOPE rules; -1
    when none is paired."""
    chain = []
    anc = own.parent[k]
    while anc >= 0:
        chain.append(anc)
        anc = own.parent[anc]
    # chain runs from the parent up to the chapter; drop the chapter itself
    for anc in reversed(chain[:-1] if len(chain) > 1 else chain):
        top = pairs.get(anc, -1)
        if top >= 0 and other.size[top] <= MAX_SCOPE:
            return top
    return -1


class _Postings:
    """Which of some rules of one side share the most informative words with a text.

    A word found in every one of the rules weighs nothing, unless ``every_word`` (a few
    free rules left in a section must still be found by the words they share)."""

    def __init__(self, keys: list[str], rules: list[int], every_word: bool = False):
        postings: dict[str, list[int]] = defaultdict(list)
        for k in rules:
            for w in set(keys[k].split()):
                postings[w].append(k)
        n = max(1, len(rules))
        cap = max(20, n // 10)
        self.postings = postings
        least = 1e-3 if every_word else 0.0
        self.idf = {w: max(least, math.log(n / len(p))) for w, p in postings.items() if len(p) <= cap}

    def nearest(self, text: str, limit: int) -> list[int]:
        """Up to ``limit`` rules, most shared informative words first."""
        score: Counter[int] = Counter()
        for w in set(text.split()):
            weight = self.idf.get(w)
            if weight:
                for k in self.postings[w]:
                    score[k] += weight
        return [k for k, _ in score.most_common(limit)]


def _runner_up(sims: list[float], best: float) -> float:
    """The second highest similarity in ``sims`` (which contains ``best``), or -1."""
    seen_best = False
    second = -1.0
    for s in sims:
        if s == best and not seen_best:
            seen_best = True
            continue
        second = max(second, s)
    return second


def map_editions(source: RuleGraph, target: RuleGraph) -> EditionMapping:
    """Pair every numbered node of ``source`` with its counterpart in ``target`` (or none).

    Both editions must belong to the same ruleset.
    """
    m = _matcher(source, target)
    m.run()
    return _mapping(m, source, target)


def _matcher(source: RuleGraph, target: RuleGraph) -> _Matcher:
    if source.edition.ruleset != target.edition.ruleset:
        raise ValueError("editions of different rulesets cannot be mapped")
    return _Matcher(_Side.of(source), _Side.of(target))


def _mapping(m: _Matcher, source: RuleGraph, target: RuleGraph,
             given: dict[int, Counterpart] | None = None) -> EditionMapping:
    """The pairs a matching run made, as a mapping (``given``: pairs of source rules taken
    as they were given, by index)."""
    a, b = m.a, m.b
    pairs: dict[str, Counterpart] = {}
    for i, number in enumerate(a.numbers):
        if given and i in given:
            pairs[number] = given[i]
        elif i in m.fwd:
            pairs[number] = Counterpart(number, b.numbers[m.fwd[i]], m.confidence(i),
                                        round(m.sim[i], 3), m.method[i])
        else:
            pairs[number] = Counterpart(number, None, _removal_confidence(m, i), 0.0, "removed")
    added = [b.numbers[j] for j in range(len(b)) if j not in m.back]
    return EditionMapping(source.edition.ruleset, source.edition.name, target.edition.name, pairs, added,
                          source.edition.partial or target.edition.partial)


def bridge(chain: EditionMapping, source: RuleGraph, target: RuleGraph) -> EditionMapping:
    """The mapping between two editions that are not neighbours: the neighbours' mappings
    composed (``chain``), compared with the two editions themselves.

    A chain breaks wherever an edition between lacks a rule (an excerpt, a lossy import, a
    rule dropped and restored): the two ends' identical rules came out removed and added,
    and a wrong pair in one step made a move neither end shows. So:

    1. a rule at the same number with the same wording in both editions is kept (``kept``);
    2. every other pair of the chain stands (``composed``), when both its rules are free;
    3. what is left on either side is matched directly, as neighbours are matched
       (:func:`map_editions`'s steps, the pairs above as anchors; no rival undoes them).

    A rule's counterpart is then the chain's unless the two ends say otherwise (1), or the
    chain lost it (3): :class:`kb.editions.queries.FollowedMapping` asks this mapping in just
    those cases, so a number carried and a diff agree."""
    m = _matcher(source, target)
    a, b = m.a, m.b
    m.kept()
    composed: dict[int, Counterpart] = {}
    for i, number in enumerate(a.numbers):
        c = chain.get(number)
        j = b.index.get(c.target) if c is not None and c.target is not None else None
        if j is not None and m.free_a(i) and m.free_b(j):
            m.pair(i, j, c.similarity, "composed")  # type: ignore[union-attr]
            composed[i] = c  # type: ignore[assignment]
    m.match()  # kept() ran first: the chain's pairs only take more rules, so it would pair none
    for i in [i for i in m.fwd if m.method[i] not in SETTLED]:
        # Far apart, the game's templates recur ("Phasing is a static ability that modifies
        # the rules of the untap step" / Vigilance's): what the chain lost is paired on
        # clearer text than neighbours need (Magic 2003 -> 2026: 404 "Triggered Abilities"
        # is not 607 "Linked Abilities").
        if m.sim[i] < (NEAR_IDENTICAL if m.short(i, m.fwd[i]) else FAR_ANYWHERE if m.method[i] == "anywhere" else 0.0):
            m._unpair(i)
    return _mapping(m, source, target, composed)


def same_wording(old: Any, new: Any) -> bool:
    """Whether two rules (anything with a ``title`` and a ``text``; None: no rule) have the
    same wording as the mapping compares wordings: a rule both ends of a comparison hold at
    one number so worded is kept by :func:`bridge` whatever the chain between says."""
    if old is None or new is None:
        return False
    key = normalise(rule_wording(old.title, old.text))
    return bool(key) and key == normalise(rule_wording(new.title, new.text))


def _removal_confidence(m: _Matcher, i: int) -> float:
    """How sure we are that a rule really has no counterpart: 1 minus the best similarity
    to any rule of the target that is itself unpaired (or to its old number's holder)."""
    best = 0.0
    for j in _nearby_free(m, i):
        best = max(best, m.s(i, j))
    return round(1.0 - best, 3)


def _nearby_free(m: _Matcher, i: int) -> Iterable[int]:
    same = m.b.index.get(m.a.numbers[i])
    if same is not None:
        yield same
    pa = m.a.parent[i]
    if pa >= 0 and pa in m.fwd:
        yield from (c for c in m.b.children[m.fwd[pa]] if m.free_b(c))
