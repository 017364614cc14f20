"""Regenerate the embedded excerpts in ``rules/`` from the full official documents.

The excerpts are what a fresh clone builds: enough of each edition for every command and
page the README and the API page show. ``rules/excerpts.toml`` lists, per excerpt, the full
document (under ``../shared/corpora``), the whole subtrees and the single rules wanted, and
whether the timing model's citations of that edition are added, and the rules the search
vocabulary states in players' words for it (``kb/search/vocabulary/<ruleset>-rules.yaml``,
whose answers a fresh clone's search should hold). From that list:

1. every wanted rule brings its ancestors (a rule without its parent is a reader error);
2. excerpts of one ruleset are closed under the edition mapping of the *full* documents, so
   that a rule kept in one edition keeps its counterpart in the other and a diff, a history
   or a map between two excerpts says what it says between the full documents;
3. Magic excerpts keep the Glossary entries whose citations all point at kept rules;
4. the excerpt is cut out of the document line by line, bytes as published (encoding, BOM,
   line endings, layout), so the reader reads it as it reads the full file;
5. the excerpt is read back and must give exactly the wanted rules with the full
   document's text, examples, titles and parents, or the script fails naming the rule.

Run from the checkout::

    .venv/bin/python rules/make_excerpts.py            # rewrite every excerpt
    .venv/bin/python rules/make_excerpts.py --check    # exit 1 if a committed excerpt differs

``RULEKB_SHARED`` (or ``--corpora``) names another folder of full documents.
"""

from __future__ import annotations

import argparse
import codecs
import re
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

RULES = Path(__file__).resolve().parent
sys.path.insert(0, str(RULES.parent))

from bench.corpora import CORPORA  # noqa: E402
from kb.editions.mapping import EditionMapping, map_editions  # noqa: E402
from kb.graph import RuleGraph, build_edition  # noqa: E402
from kb.model import DocumentError, ReadResult  # noqa: E402
from kb.numbers import format_number, parse_number  # noqa: E402
from kb.read import read_text  # noqa: E402
from kb.read.text import decode  # noqa: E402
from kb.search.phrasing import rule_phrasings  # noqa: E402
from kb.timing.models import get_model, rulesets as timing_rulesets  # noqa: E402

CONFIG = RULES / "excerpts.toml"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_MD_HEADING = re.compile(r"^#{2,3}\s+(\d{3})\.")


class ExcerptError(Exception):
    """The excerpt cannot be made as asked, or does not read back as the full document."""


@dataclass
class Document:
    """A full document: its raw lines (with their line endings), how it reads, its graph."""

    spec: dict
    encoding: str
    bom: bytes
    lines: list[str]
    result: ReadResult
    graph: RuleGraph
    keep: set[str] = field(default_factory=set)

    @property
    def label(self) -> str:
        return f"{self.spec['ruleset']} {self.spec['edition']}"


def load(spec: dict, corpora: Path) -> Document:
    """Read one full document the way ``rulekb import`` does, keeping its raw lines."""
    path = corpora / spec["document"]
    if not path.is_file():
        raise ExcerptError(f"{path}: the full document is missing (set RULEKB_SHARED or --corpora)")
    data = path.read_bytes()
    bom = codecs.BOM_UTF8 if data.startswith(codecs.BOM_UTF8) else b""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise ExcerptError(f"{path}: UTF-16 documents are not excerpted (re-encoding would change them)")
    try:
        raw = data[len(bom):].decode("utf-8")
        encoding = "utf-8"
    except UnicodeDecodeError:
        raw, encoding = data.decode("cp1252"), "cp1252"
    lines = _LINE.findall(raw)
    text = decode(data, str(path))
    if len(lines) != len(text.split("\n")) - (1 if text.endswith("\n") else 0):
        raise ExcerptError(f"{path}: line count differs from the reader's")
    result = read_text(text, str(path), spec["format"])
    graph = build_edition(result, ruleset=spec["ruleset"], edition=spec["edition"], source=str(path))
    return Document(spec, encoding, bom, lines, result, graph)


def wanted(doc: Document) -> set[str]:
    """The numbers the list asks for, the timing model's citations, the rules the search
    vocabulary states in players' words, and their ancestors."""
    rg, spec = doc.graph, doc.spec
    out: set[str] = set()
    for number in spec.get("subtrees", []):
        out.update(rg.subtree(_canonical(rg, number, doc.label)))
    for number in spec.get("rules", []):
        out.add(_canonical(rg, number, doc.label))
    if spec.get("timing_model") and spec["ruleset"] in timing_rulesets():
        cited = get_model(spec["ruleset"]).citations_for(spec["edition"])
        if cited is None:
            raise ExcerptError(f"{doc.label}: the timing model does not cite this edition directly; "
                               "its citations reach it through the mapping closure")
        for rules in cited.values():
            out.update(_canonical(rg, n, f"{doc.label} (timing model)") for n in rules)
    if spec.get("vocabulary"):
        where = f"{doc.label} (kb/search/vocabulary/{spec['ruleset']}-rules.yaml)"
        out.update(_canonical(rg, n, where) for n in rule_phrasings(spec["ruleset"], spec["edition"]))
    return with_ancestors(rg, out)


def _canonical(rg: RuleGraph, number: str, where: str) -> str:
    found = rg.find(parse_number(number))
    if found is None:
        raise ExcerptError(f"{where}: rule {number} is not in the full document")
    return found


def with_ancestors(rg: RuleGraph, numbers: Iterable[str]) -> set[str]:
    out = set(numbers)
    for number in list(out):
        out.update(rg.ancestors(number))
    return out


def close_under_mapping(docs: list[Document]) -> dict[tuple[str, str], EditionMapping]:
    """Keep each kept rule's counterpart in every other edition of its ruleset (and that
    counterpart's ancestors), until nothing changes. Returns the full-document mappings."""
    mappings: dict[tuple[str, str], EditionMapping] = {}
    for a in docs:
        for b in docs:
            if a is not b and a.spec["ruleset"] == b.spec["ruleset"]:
                mappings[(a.label, b.label)] = map_editions(a.graph, b.graph)
    changed = True
    while changed:
        changed = False
        for a in docs:
            for b in docs:
                m = mappings.get((a.label, b.label))
                if m is None:
                    continue
                targets = {c.target for n in a.keep if (c := m.get(n)) is not None and c.target}
                grown = with_ancestors(b.graph, targets) - b.keep
                if grown:
                    b.keep |= grown
                    changed = True
    return mappings


def glossary_terms(doc: Document) -> set[int]:
    """Lines of the Glossary entries every citation of which is a kept rule."""
    return {t.line for t in doc.result.terms
            if t.kind == "glossary" and t.rules and set(t.rules) <= doc.keep}


def cut(doc: Document) -> bytes:
    """The excerpt's bytes: the document's own lines, segment by segment.

    A segment runs from a mark to the next one: the preamble, each numbered entry (with its
    continuation lines, examples and the blank lines after it), each Glossary entry, and the
    document's trailing part, which is always kept.
    """
    style = doc.result.number_style
    marks: dict[int, tuple[str, str]] = {0: ("keep", "")}  # 0-based line → what the segment is
    for raw in doc.result.rules:
        marks[raw.line - 1] = ("rule", doc.graph.find(raw.number) or format_number(raw.number, style))
    fmt = doc.spec["format"]
    if fmt == "riftbound-md":
        # A stale ``### 459.`` heading (dropped by the reader for the bold rule 459) stays with that rule.
        for i, line in enumerate(doc.lines):
            m = _MD_HEADING.match(line)
            if m and i not in marks:
                marks[i] = ("rule", m.group(1))
    elif fmt == "riftbound-html":
        last_row = max(i for i, line in enumerate(doc.lines) if "rule-row" in line)
        marks[last_row + 1] = ("keep", "")  # the closing </div> of the rule sheet
    elif fmt == "mtg-text":
        body_end = max(raw.line for raw in doc.result.rules)
        glossary = next(i for i, ln in enumerate(doc.lines) if i >= body_end and ln.strip() == "Glossary")
        credits = next(i for i, ln in enumerate(doc.lines) if i > glossary and ln.strip() == "Credits")
        marks[glossary] = ("keep", "")
        terms = glossary_terms(doc)
        for t in doc.result.terms:
            if t.kind == "glossary":
                marks[t.line - 1] = ("term", "keep" if t.line in terms else "")
        marks[credits] = ("keep", "")
    else:
        raise ExcerptError(f"{doc.label}: no excerpting for format {fmt!r}")
    starts = sorted(marks)
    out: list[str] = []
    for start, end in zip(starts, starts[1:] + [len(doc.lines)]):
        kind, what = marks[start]
        if kind == "keep" or (kind == "rule" and what in doc.keep) or (kind == "term" and what):
            out.extend(doc.lines[start:end])
    return doc.bom + "".join(out).encode(doc.encoding)


def verify(doc: Document, data: bytes, output: Path) -> RuleGraph:
    """Read the excerpt back: exactly the kept rules, each as the full document has it."""
    text = decode(data, str(output))
    result = read_text(text, str(output), doc.spec["format"])
    rg = build_edition(result, ruleset=doc.spec["ruleset"], edition=doc.spec["edition"],
                       partial=True, source=str(output))
    got, full = rg.edition.rules, doc.graph.edition.rules
    if set(got) != doc.keep:
        extra, lost = sorted(set(got) - doc.keep), sorted(doc.keep - set(got))
        raise ExcerptError(f"{output}: reads as other rules than wanted (extra {extra[:10]}, "
                           f"missing {lost[:10]})")
    for number, rule in got.items():
        was = full[number]
        if (rule.kind, rule.text, rule.examples, rule.title, rule.parent) != (
                was.kind, was.text, was.examples, was.title, was.parent):
            raise ExcerptError(f"{output}: rule {number} reads differently from the full document")
    if result.date != doc.result.date or result.title != doc.result.title:
        raise ExcerptError(f"{output}: the title or date reads differently from the full document")
    full_terms = {(t.name, t.definition) for t in doc.result.terms if t.kind == "glossary"}
    read_terms = [(t.name, t.definition) for t in result.terms if t.kind == "glossary"]
    if not set(read_terms) <= full_terms or len(read_terms) != len(glossary_terms(doc)):
        raise ExcerptError(f"{output}: the Glossary reads differently from the full document's entries")
    return rg


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) every excerpt listed in rules/excerpts.toml."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", type=Path, default=CORPORA,
                        help=f"folder of the full documents (default: {CORPORA})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a committed excerpt differs from what would be made")
    args = parser.parse_args(argv)
    specs = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["excerpt"]
    try:
        docs = [load(spec, args.corpora) for spec in specs]
        for doc in docs:
            doc.keep = wanted(doc)
        full_maps = close_under_mapping(docs)
        made = {}
        stale = []
        for doc in docs:
            output = RULES / doc.spec["output"]
            data = cut(doc)
            made[doc.label] = verify(doc, data, output)
            terms = len(glossary_terms(doc)) if doc.spec["format"] == "mtg-text" else 0
            print(f"{doc.label}: {len(doc.keep)} of {len(doc.graph.edition.rules)} numbered nodes"
                  + (f", {terms} Glossary entries" if terms else "")
                  + f", {len(data) // 1024} KB → {output.relative_to(RULES.parent)}")
            if args.check:
                if not output.is_file() or output.read_bytes() != data:
                    stale.append(str(output.relative_to(RULES.parent)))
            else:
                output.write_bytes(data)
        for (a, b), full in full_maps.items():
            excerpt = map_editions(made[a], made[b])
            moved = [f"{n} → {full.pairs[n].target} (excerpts: {c.target})"
                     for n, c in excerpt.pairs.items() if c.target != full.pairs[n].target]
            if moved:
                raise ExcerptError(f"between the excerpts, {a} → {b} maps otherwise than between the full "
                                   f"documents: {', '.join(moved[:10])}; keep the sections around them whole")
            print(f"mapping {a} → {b}: all {len(excerpt.pairs)} kept rules map as between the full documents")
    except (ExcerptError, DocumentError) as exc:  # a reader's errors name the file and line
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if stale:
        print("out of date (run rules/make_excerpts.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
