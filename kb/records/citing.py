"""What records cite, which rules they rest on, and what a newer edition broke.

Everything here is derived from the loaded editions and a :class:`RecordSet` (its content
digest is its key), once per build, with the declared-derived-data mechanism
(:func:`kb.derived.derived`):

* :func:`analyse`: each record's citations, found by the citation finder
  (:mod:`kb.cite.find`) and resolved (:mod:`kb.cite.resolve`) in the edition the record
  was written for: a ruling says which; an article is read as the linker reads it
  (:func:`kb.cite.link.read_article`: the same citations as ``rulekb link``, none in a
  code span or block; its pins, ``rules: mtg 2010-10-01``, or the edition inferred
  from its citations).
  A citation whose own prefix names another ruleset (``CR 116.1`` in a Riftbound ruling,
  ``Core Rules 337.1`` in a Magic article: :func:`kb.cite.target.named_editions`) is
  read in that ruleset instead, in its edition in force on the record's date (else on
  the date of the edition the record was written for when that is not its ruleset's
  default; else the named ruleset's default: :func:`kb.cite.target.named_day`),
  and counts against that ruleset everywhere below; every other citation is the record's
  own ruleset's.
* :func:`cited_by_index`: for one edition, which records cite each of its rules, directly
  or through a rule of an earlier edition that maps to it (:mod:`kb.editions`).
* :func:`staleness`: each citation's status against the default edition (the newest full
  edition: an excerpt only in a ruleset of excerpts) of the ruleset it counts against:
  ``ok``, ``renumbered`` (with the number today, and the word diff when reworded too),
  ``reworded`` (same number, with the word diff), ``removed``; ``not_found`` when the
  record cites a rule its own edition does not have.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from kb.cite.find import Citation, find_citations
from kb.cite.link import read_article
from kb.cite.resolve import Resolution, resolve_citations
from kb.cite.target import edition_on, named_day, named_editions, prefix_names, with_elsewhere
from kb.derived import derived
from kb.editions.diff import display_text, number_translators, reworded, word_ops
from kb.editions.queries import FollowedMapping
from kb.errors import QueryError
from kb.files import home_of_build
from kb.model import Diagnostic
from kb.records.model import Kind, Record, split_front_matter
from kb.records.store import FOLDERS, RecordSet, load_records

if TYPE_CHECKING:
    from kb.loaded import LoadedEditions

Status = Literal["ok", "renumbered", "reworded", "removed", "not_found"]
STALE: frozenset[str] = frozenset({"renumbered", "reworded", "removed"})
MAX_CITED = 1_000  # distinct rules one record's citations name (a range counts each member)


@dataclass(frozen=True, slots=True)
class CitedRule:
    """One rule a record cites, in the edition it is read in: the record's own (the one it
    was written for), or, for a citation whose prefix names another ruleset (``named``),
    that ruleset's edition in force when the record was written."""

    text: str           # the citation as written ("rule 337.1.a", "CR 116.3c")
    written: str        # the number as written, formatted
    number: str | None  # the canonical number in ``edition``; None: no such rule
    field: str          # where: question, answer or text
    line: int           # the line of the file imported (Record.lines; 0 where not known)
    ruleset: str        # the ruleset it counts against
    edition: str        # the edition of that ruleset it is read in
    message: str = ""
    named: bool = False  # its own prefix named ``ruleset``, another than the record's


@dataclass(frozen=True)
class RecordCitations:
    """A record, the edition it was written for, and the rules it cites."""

    record: Record
    ruleset: str | None
    written_for: str | None
    inferred: str | None
    cited: tuple[CitedRule, ...]
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def key(self) -> tuple[Kind, str]:
        return (self.record.kind, self.record.id)

    def describe(self) -> dict[str, Any]:
        """The record's summary, with the edition it was written for."""
        return {**self.record.summary(), "ruleset": self.ruleset, "written_for": self.written_for,
                "inferred": self.inferred}


@dataclass(frozen=True)
class Analysis:
    """Every record's citations, by (kind, id), in the records' order."""

    records: dict[tuple[Kind, str], RecordCitations] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()


# -- which records the knowledge base has --------------------------------------------------
def current_records(kb: LoadedEditions) -> RecordSet:
    """The records of the data home the knowledge base was built in (none for a knowledge
    base held in memory); a records set attached with :func:`attach_records` wins."""
    attached = getattr(kb, "_attached_records", None)
    if attached is not None:
        return attached  # type: ignore[no-any-return]
    return load_records(home_of_build(kb.build_dir))


def attach_records(kb: LoadedEditions, records: RecordSet) -> None:
    """Have ``kb`` answer from ``records`` (a knowledge base held in memory, in tests)."""
    object.__setattr__(kb, "_attached_records", records)


# -- reading a record's citations --------------------------------------------------------------
@derived
def analyse(kb: LoadedEditions, records: RecordSet) -> Analysis:
    """Each record's citations in the edition it was written for (module docstring)."""
    out: dict[tuple[Kind, str], RecordCitations] = {}
    diagnostics = list(records.diagnostics)
    for record in records.records:
        found = _read(kb, record)
        out[(record.kind, record.id)] = found
        diagnostics.extend(found.diagnostics)
    return Analysis(out, tuple(diagnostics))


def _read(kb: LoadedEditions, record: Record) -> RecordCitations:
    where = record.imported_from or record.file  # the file whose lines the citations' are
    found: list[Citation] = []  # an article's citations, as the linker found them
    if record.kind == "ruling":
        if (record.ruleset, record.edition) not in kb.graphs:
            return RecordCitations(record, record.ruleset, None, None, (), (Diagnostic(
                f"ruling {record.id}: written for {record.ruleset} {record.edition}, which is not "
                "built; its citations are not read", where, 0, "warning"),))
        ruleset, edition, inferred, diags = record.ruleset, record.edition, None, []
        scan = record.text
    else:
        try:
            linked, found = _as_linked(kb, record.text)
        except QueryError as exc:
            return RecordCitations(record, None, None, None, (), (Diagnostic(
                f"article {record.id}: {exc.message}", where, 0, "warning"),))
        # no pin and no ruleset: the one in which its citations resolve best, if there is one
        chosen = _ruleset_by_citations(kb, record, linked) if linked["ruleset"] is None else None
        said = ""
        if chosen is not None:
            linked, found, said = chosen
        diags = [Diagnostic(str(d["message"]), where, int(d.get("line") or 0),
                            d.get("severity", "warning")) for d in linked["diagnostics"]]
        if chosen is not None:
            diags.append(Diagnostic(f"article {record.id}: {said}", where, 1, "info"))
        ruleset = linked["ruleset"]
        edition = linked["written_for"] or linked["edition"]
        inferred = linked.get("inferred") or said or None
        if ruleset is None or edition is None:
            diags.append(Diagnostic(
                f"article {record.id}: cannot tell which ruleset it cites ({', '.join(linked['candidates'])}); "
                "pin it in its front matter (ruleset:, edition:)", where, 1, "warning"))
            return RecordCitations(record, None, None, None, (), tuple(diags))
        body_at = _body_offset(record)
        scan = " " * body_at + record.text[body_at:]  # the same offsets, front matter blank
    assert ruleset is not None and edition is not None
    citations = find_citations(scan) if record.kind == "ruling" else found
    read_in = _editions_read_in(kb, record, ruleset, edition, scan, citations)
    resolutions = _resolved_in(kb, citations, read_in)
    cited: list[CitedRule] = []
    seen: set[tuple[str, str | None, str]] = set()
    for res, (rs, ed) in zip(resolutions, read_in):
        c = res.citation
        place, line = _place(record, c.start)
        numbers: list[str | None] = [r.number for r in res.rules] if res.rules else [None]
        named = rs != ruleset
        for number in numbers:
            if (rs, number, place) in seen and number is not None:
                continue
            seen.add((rs, number, place))
            if len(cited) < MAX_CITED:
                cited.append(CitedRule(" ".join(c.text.split()), res.written, number, place, line,
                                       rs, ed, res.message if number is None else "", named))
        if res.status == "not_found":
            diags.append(Diagnostic(f"{record.kind} {record.id}: {res.message}", where, line, "warning"))
    return RecordCitations(record, ruleset, edition, inferred, tuple(cited), tuple(diags))


def _editions_read_in(kb: LoadedEditions, record: Record, ruleset: str, edition: str, text: str,
                      citations: list[Citation]) -> list[tuple[str, str]]:
    """For each of ``citations`` (found in ``text``), the ``(ruleset, edition)`` it is read
    in: the record's own, or, where its prefix names another built ruleset
    (:func:`kb.cite.target.named_editions`), that ruleset's edition in force on the record's
    date, else on its own edition's date when that is not its ruleset's default, else the
    named ruleset's default (:func:`kb.cite.target.named_day`, as the linker reads it)."""
    own = (ruleset, edition)
    if not citations:
        return []
    names = prefix_names(kb)
    others = {word for word, name in names.items() if name != ruleset}
    low = text.lower()
    if "CR" not in text and not any(word in low for word in others):
        return [own] * len(citations)  # nothing names another ruleset: no other edition loaded
    candidates = [kb.edition(name) for name in kb.ruleset_names()]
    named = named_editions(kb, candidates, text, citations, names)
    day, _ = named_day(kb, record.date, kb.graphs[own])
    out: list[tuple[str, str]] = []
    chosen: dict[str, tuple[str, str]] = {}
    for g in named:
        if g is None or g.edition.ruleset == ruleset:
            out.append(own)
            continue
        other = g.edition.ruleset
        if other not in chosen:
            chosen[other] = (other, edition_on(kb, other, day))
        out.append(chosen[other])
    return out


def _resolved_in(kb: LoadedEditions, citations: list[Citation],
                 read_in: list[tuple[str, str]]) -> list[Resolution]:
    """Each citation resolved in the edition it is read in, in the citations' order (those of
    one edition resolved together, as the linker resolves an article's); a ``not_found``
    one told where its rule is now (:func:`kb.cite.target.with_elsewhere`)."""
    places: dict[tuple[str, str], list[int]] = {}
    for i, key in enumerate(read_in):
        places.setdefault(key, []).append(i)
    out: list[Resolution | None] = [None] * len(citations)
    for key, at in places.items():
        rg = kb.graphs[key]
        # a rule the edition lacks says where it is now, as the linker says it
        for i, res in zip(at, with_elsewhere(kb, rg, resolve_citations([citations[i] for i in at], rg))):
            out[i] = res
    return [res for res in out if res is not None]


def _as_linked(kb: LoadedEditions, text: str, ruleset: str | None = None
               ) -> tuple[dict[str, Any], list[Citation]]:
    """An article as ``rulekb link`` reads it (:func:`kb.cite.link.read_article`: Markdown
    aware, so a number in a code span or block is no citation): its target, citation
    entries and diagnostics, and its citations placed in ``text`` (one the linker cannot
    place exactly, behind an escape or entity, at the start of its line)."""
    _, report = read_article(kb, text, ruleset=ruleset)
    entries = list(report["citations"])
    lines = text.splitlines(keepends=True)
    placed: list[Citation] = []
    for entry, (start, end, res) in zip(entries, report["resolutions"]):
        c = res.citation
        if start is None or end is None:
            line = min(max(int(entry.get("line") or 1), 1), len(lines))
            start = sum(map(len, lines[:line - 1]))
            end = start + len(c.text)
        shift = start - c.start
        placed.append(c._replace(start=start, end=end, full_start=c.full_start + shift,
                                 full_end=c.full_end + shift))
    linked = {**report["target"], "citations": entries, "diagnostics": report["diagnostics"]}
    return linked, placed


def _ruleset_by_citations(kb: LoadedEditions, record: Record, linked: dict[str, Any]
                          ) -> tuple[dict[str, Any], list[Citation], str] | None:
    """An unpinned article the linker could not give a ruleset (its citations are looked
    up in every ruleset's newest edition): the linker's answer for the one ruleset in which
    more of its citations resolve than in any other, and a sentence saying so; None when
    no ruleset is alone in first place (a tie, or no citation resolving anywhere)."""
    scored: list[tuple[int, str, tuple[dict[str, Any], list[Citation]]]] = []
    for candidate in linked.get("candidates") or []:
        ruleset = str(candidate).split(" ", 1)[0]
        try:
            answer = _as_linked(kb, record.text, ruleset=ruleset)
        except QueryError:
            continue
        # resolved there (not those whose prefix named another ruleset, read in it anyway)
        resolved = sum(1 for c in answer[0]["citations"]
                       if c["status"] not in ("not_found", "ambiguous") and c["ruleset"] == ruleset)
        scored.append((resolved, ruleset, answer))
    scored.sort(key=lambda s: -s[0])
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    resolved, ruleset, (answer, found) = scored[0]
    others = ", ".join(f"{n} in {rs}" for n, rs, _ in scored[1:])
    total = len(answer["citations"])
    return answer, found, (f"no ruleset pinned: read as {ruleset}, in which {resolved} of its {total} citations "
                    f"resolve ({others or 'no other ruleset built'}); pin it with ruleset: and edition:")


def _body_offset(record: Record) -> int:
    _, body, _ = split_front_matter(record.text)
    return len(record.text) - len(body)


def _place(record: Record, offset: int) -> tuple[str, int]:
    """Where a citation stands: the field, and the file's line when it is known."""
    if record.kind == "article":
        return "text", record.text.count("\n", 0, offset) + 1
    if offset < len(record.question):
        return "question", record.line_of("question", offset)
    return "answer", record.line_of("answer", offset - len(record.question) - 2)


# -- moving numbers between editions ------------------------------------------------------------
@derived
def followed(kb: LoadedEditions, ruleset: str, source: str, target: str) -> FollowedMapping:
    """The one mapping between two editions (:mod:`kb.editions`), read a number at a time
    through the adjacent mappings in between (no whole mappings composed: a record cites a
    few rules, and a ruleset may have seventy editions)."""
    return FollowedMapping(kb, ruleset, source, target)


def counterpart(kb: LoadedEditions, ruleset: str, source: str, target: str, number: str) -> str | None:
    """The number of ``source``'s rule ``number`` in ``target`` (None: no counterpart)."""
    if source == target:
        return number
    c = followed(kb, ruleset, source, target).get(number)
    return c.target if c is not None else None


@derived
def cited_by_index(kb: LoadedEditions, records: RecordSet, ruleset: str,
                   edition: str) -> dict[str, list[dict[str, Any]]]:
    """For one edition: each rule's number → the records citing it (each record once per
    rule), directly or through the rule of the edition it read the citation in that maps
    to it: a record of another ruleset counts where its citation's prefix names this one
    (``written_for`` is then that edition, not the record's own)."""
    index: dict[str, list[dict[str, Any]]] = {}
    stale = {key: {(c["ruleset"], c["written"], c["number"]): c for c in entries}
             for key, entries in staleness(kb, records).items()}
    for key, rc in analyse(kb, records).records.items():
        if rc.written_for is None:
            continue
        done: set[str] = set()
        for cited in rc.cited:
            if cited.number is None or cited.ruleset != ruleset or (ruleset, cited.edition) not in kb.graphs:
                continue
            here = counterpart(kb, ruleset, cited.edition, edition, cited.number)
            if here is None or here in done:
                continue
            done.add(here)
            status = stale.get(key, {}).get((ruleset, cited.written, cited.number), {}).get("status", "ok")
            index.setdefault(here, []).append({
                "kind": rc.record.kind, "id": rc.record.id, "title": rc.record.title,
                "written_for": cited.edition, "cited_as": cited.number, "status": status,
                "stale": status in STALE})
    return index


def cited_by(kb: LoadedEditions, ruleset: str, edition: str, number: str,
             records: RecordSet | None = None) -> dict[str, Any]:
    """The records citing one rule of an edition, with counts (the ``cited_by`` of a rule
    answer): ``total``, ``rulings``, ``articles`` and ``records`` (kind, id, title, the
    edition it was written for, the number it cited there, its status today)."""
    found = cited_by_index(kb, records if records is not None else current_records(kb),
                           ruleset, edition).get(number, [])
    return {"total": len(found), "rulings": sum(1 for r in found if r["kind"] == "ruling"),
            "articles": sum(1 for r in found if r["kind"] == "article"), "records": found}


# -- staleness ---------------------------------------------------------------------------------
@derived
def staleness(kb: LoadedEditions, records: RecordSet) -> dict[tuple[Kind, str], list[dict[str, Any]]]:
    """Each record's citations, each checked against the default edition of the ruleset it
    counts against (its newest full edition, :meth:`~kb.loaded.LoadedEditions.default_edition`;
    a citation whose prefix named another ruleset: that one's)."""
    out: dict[tuple[Kind, str], list[dict[str, Any]]] = {}
    for key, rc in analyse(kb, records).records.items():
        if rc.ruleset is None or rc.written_for is None or (rc.ruleset, rc.written_for) not in kb.graphs:
            out[key] = []
            continue
        # the default edition (the newest full one) as every question reads it (kb.edition), per ruleset cited
        newest = {name: kb.edition(name).edition.name for name in {c.ruleset for c in rc.cited}}
        out[key] = [_status(kb, c, str(newest[c.ruleset])) for c in rc.cited]
    return out


def _status(kb: LoadedEditions, c: CitedRule, newest: str) -> dict[str, Any]:
    """One citation's status in ``newest``, the default edition of its ruleset (the newest full one)."""
    ruleset, then = c.ruleset, c.edition
    named = f"{ruleset} " if c.named else ""  # a message names the ruleset where it is not the record's
    out: dict[str, Any] = {"text": c.text, "written": c.written, "number": c.number, "field": c.field,
                           "line": c.line, "ruleset": ruleset, "named": c.named, "written_for": then,
                           "newest": newest, "now": None, "status": "ok", "reworded": False, "ops": None,
                           "message": ""}
    if c.number is None:
        out.update(status="not_found", message=c.message)
        return out
    if then == newest:
        out["now"] = c.number
        return out
    old = kb.graphs[(ruleset, then)]
    new = kb.graphs[(ruleset, newest)]
    counterpart = followed(kb, ruleset, then, newest).get(c.number)
    if counterpart is None or counterpart.target is None:
        gap = " (it is an excerpt: the rule may lie outside it)" if new.edition.partial else ""
        out.update(status="removed", message=f"{named}rule {c.number} of {then} has no counterpart "
                                             f"in {newest}{gap}")
        return out
    now = counterpart.target
    from_old, from_new = _translators(kb, ruleset, then, newest)
    ops = word_ops(display_text(old.rule(c.number)), display_text(new.rule(now)), from_old, from_new)
    changed = reworded(ops)
    out.update(now=now, reworded=changed, ops=ops if changed else None)
    if now != c.number:
        out.update(status="renumbered", message=f"{named}rule {c.number} of {then} is rule {now} in "
                                                f"{newest}" + (", reworded" if changed else ""))
    elif changed:
        out.update(status="reworded", message=f"{named}rule {now} was reworded in {newest}")
    return out


@derived
def _translators(kb: LoadedEditions, ruleset: str, old: str, new: str) -> Any:
    return number_translators(kb.graphs[(ruleset, old)], kb.graphs[(ruleset, new)],
                              followed(kb, ruleset, old, new))


def record_report(kb: LoadedEditions, kind: Kind, ident: str,
                  records: RecordSet | None = None) -> dict[str, Any]:
    """One record with each citation's status today (QueryError 404 for an unknown id)."""
    records = records if records is not None else current_records(kb)
    rc = analyse(kb, records).records.get((kind, ident))
    if rc is None:
        known = sorted(r.id for r in records.of_kind(kind))
        raise QueryError(404, f"no {kind} {ident[:100]!r}", {"id": ident[:100], "known": known[:50]})
    return _report(kb, records, rc)


def _report(kb: LoadedEditions, records: RecordSet, rc: RecordCitations,
            counted_for: str | None = None) -> dict[str, Any]:
    """One record's report; with ``counted_for``, only its citations that count for that
    ruleset (its own, or those whose prefix names it), the others counted in ``left_out``."""
    checked = staleness(kb, records).get(rc.key, [])
    left_out = 0
    if counted_for is not None:
        kept = [c for c in checked if c["ruleset"] == counted_for]
        left_out, checked = len(checked) - len(kept), kept
    stale = [c for c in checked if c["status"] in STALE]
    newest = kb.edition(rc.ruleset).edition.name if rc.ruleset else None
    return {**rc.describe(), "file": rc.record.file, "imported_from": rc.record.imported_from or None,
            "newest": newest, "citations": checked,
            "stale": bool(stale), "broken": sum(1 for c in checked if c["status"] == "not_found"),
            "changed": sorted({f"{c['ruleset']} {c['number']}" if c["named"] else c["number"]
                               for c in stale if c["number"]}),
            "unread": rc.ruleset is None or rc.written_for is None,
            "counted_for": counted_for, "left_out": left_out,
            "diagnostics": [d.as_dict() for d in rc.diagnostics]}


def counts_for(rc: RecordCitations, ruleset: str) -> bool:
    """Whether a record counts for ``ruleset``: it is filed under it, or one of its
    citations counts against it (its prefix named it: ``CR 116.1`` in a Riftbound
    ruling counts for Magic), as in ``cited_by`` and staleness."""
    return rc.ruleset == ruleset or any(c.ruleset == ruleset for c in rc.cited)


def records_report(kb: LoadedEditions, kind: Kind, ruleset: str | None = None,
                   stale_only: bool = False, records: RecordSet | None = None) -> dict[str, Any]:
    """Every record of a kind, each with its citations' statuses, and the counts:
    ``total``, ``stale`` (records a newer edition broke), ``citations`` per status. With
    ``ruleset``, the records that count for it (:func:`counts_for`), each with only the
    citations counting for it (``counted_for``; the others are ``left_out``)."""
    records = records if records is not None else current_records(kb)
    if ruleset is not None:
        kb.editions(ruleset)  # 404 for an unknown ruleset
    items = []
    counts = {s: 0 for s in ("ok", "renumbered", "reworded", "removed", "not_found")}
    for rc in analyse(kb, records).records.values():
        if rc.record.kind != kind or (ruleset is not None and not counts_for(rc, ruleset)):
            continue
        report = _report(kb, records, rc, ruleset)
        for c in report["citations"]:
            counts[c["status"]] += 1
        if stale_only and not (report["stale"] or report["broken"] or report["unread"]):
            continue
        items.append(report)
    return {"kind": kind, "ruleset": ruleset, "total": len(items),
            "stale": sum(1 for i in items if i["stale"]),
            "broken": sum(1 for i in items if i["broken"]),
            "unread": sum(1 for i in items if i["unread"]), "citations": counts,
            "records": items, "diagnostics": kind_diagnostics(records, kind)}


def kind_diagnostics(records: RecordSet, kind: Kind) -> list[dict[str, Any]]:
    """What was wrong in the record files of ``kind`` (a rulings list says none of an
    article's), each named by the file it was imported from when that is known (the data
    home's copy else): the copy keeps the imported text, so its lines are that file's."""
    origin = {r.file: r.imported_from for r in records.records if r.kind == kind and r.imported_from}
    out = []
    for d in records.diagnostics:
        place = Path(d.file)
        if FOLDERS[kind] not in (place.name, place.parent.name):  # the kind's folder, or a file in it
            continue
        out.append({**d.as_dict(), "file": origin.get(d.file, d.file)})
    return out
