"""Commands that build the knowledge base and read rules: import, build, rule, structure,
stats, editions."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

import click

from kb.cli.app import (EXIT_ERROR, counted, echo_query_error, edition_option, emit_json, handle_errors,
                        home_of, json_option, main, open_kb, ruleset_option)
from kb.cli.params import DATE, DOCUMENT_FORMAT, EDITION_NAME, RULESET_NAME, PathType
from kb.editions.queries import named_edition
from kb.errors import QueryError
from kb.numbers import group_numbers
from kb.loaded import oldest_first, passed_over_excerpts, preferring_full
from kb.model import Diagnostic, ReadResult
from kb.store import (build, collect_sources, current_build, cut_short_notes, import_document,
                      stored_notes_path)


@main.command("import")
@click.argument("file", type=PathType(exists=True, dir_okay=False, path_type=Path))
@click.option("--ruleset", "-r", required=True, type=RULESET_NAME, help="Ruleset the document belongs to.")
@click.option("--edition", "-e", required=True, type=EDITION_NAME, help="Edition name, e.g. 1.4 or 2026-01-16.")
@click.option("--date", type=DATE, default="", help="Date the edition took effect; read from the "
                                                    "document when omitted.")
@click.option("--format", "fmt", type=DOCUMENT_FORMAT, default=None,
              help="Document format (default: detected).")
@click.option("--partial", is_flag=True, help="Mark the document as an excerpt (also lets a "
              "document cut short import; an excerpt is never the default edition).")
@click.option("--no-build", is_flag=True, help="Only check and store the document.")
@click.option("--new-ruleset", is_flag=True, help="Confirm that --ruleset names a new ruleset "
              "although it is spelt like a known one (refused otherwise, as a likely typo).")
@click.option("--make-default", is_flag=True, help="Let a document the reader doubted (many "
              "warnings, or fewer rules than the default edition) become the default edition.")
@click.pass_context
@handle_errors
def import_cmd(ctx: click.Context, file: Path, ruleset: str, edition: str, date: str,
               fmt: str | None, partial: bool, no_build: bool, new_ruleset: bool,
               make_default: bool) -> None:
    """Import a rules document as an edition, then rebuild the knowledge base.

    FILE is the document as published or another tool wrote it: text, Markdown, HTML, a wiki
    page's source, PDF, DOCX, ODT, EPUB or RTF, or rules exported as JSON or CSV/TSV (a
    container or an export is turned into text first; --format then names the text's layout).

    A document cut short is refused, naming the line and why, unless --partial imports it as
    an excerpt: one that ends inside a rule or its Glossary, or that stops after a chapter
    where the ruleset's other editions dated on or before it go on. The reader's warnings are
    printed. When the rebuild fails (a full disk, another document's error),
    the import is undone: the data directory is as it was before.

    A ruleset not known yet is said as new; one spelt like a known ruleset (riftbond) is
    refused unless --new-ruleset confirms it. A full document the reader doubted (warnings
    for 1 % or more of its rules, or 2 % fewer rules than the default edition) that would
    become the default over a full edition is refused unless --make-default says so
    (--partial under another edition name keeps it beside the default as an excerpt
    instead). Under a full edition's own name (the default or another), --partial would
    replace that edition: a doubtful document is refused there too, and a clean one says the
    full edition it replaces. --partial and --make-default conflict.
    """
    if partial and make_default:
        raise click.UsageError("--partial and --make-default conflict: an excerpt is never the default "
                               "edition (use one or the other)", ctx)
    home = home_of(ctx)
    said_new = _new_ruleset_line(home, ruleset, new_ruleset)
    notes: list[Diagnostic] = []
    target = import_document(home, file, ruleset=ruleset, edition=edition, date=date, fmt=fmt,
                             partial=partial, rebuild=None if no_build else lambda: _build(home),
                             notes=notes, check=lambda result, day: _doubtful_default(
                                 home, ruleset, edition, day, result, partial, make_default))
    if said_new:
        click.echo(said_new)
    click.echo(f"imported {file.name} as {ruleset} {edition}{' (partial)' if partial else ''} ({target})")
    warnings = [d for d in notes if d.severity == "warning"]
    for d in warnings[:SHOWN_WARNINGS]:
        click.echo(f"    {reader_note_line(d.as_dict())}")
    if len(notes) > min(len(warnings), SHOWN_WARNINGS):
        click.echo(f"    {counted(len(notes), 'reader note')} in all "
                   f"({counted(len(warnings), 'warning')}): see `rulekb stats`")


# A ruleset name this close to a known one (difflib's ratio) is taken for a typo of it.
TYPO_RATIO = 0.75
# A full document is doubted when its reader warns for this share of its rules or more, or
# when it has this share fewer rules than the edition it would replace as the default.
DOUBTFUL_WARNINGS = 0.01
DOUBTFUL_LOSS = 0.02


def _new_ruleset_line(home: Path, ruleset: str, confirmed: bool) -> str:
    """"new ruleset 'x' (known: mtg, riftbound)" for a ruleset the home has no edition of ("" for
    a known one); a QueryError for one spelt like a known ruleset, unless ``confirmed``."""
    known = sorted(collect_sources(home).rulesets)
    if ruleset in known:
        return ""
    said = f"new ruleset {ruleset!r} (known: {', '.join(known) or 'none'})"
    close = difflib.get_close_matches(ruleset, known, n=1, cutoff=TYPO_RATIO)
    if close and not confirmed:
        raise QueryError(400, f"{said}: did you mean {close[0]!r}? Nothing imported; "
                         f"pass --new-ruleset to create {ruleset!r}", {"known": known})
    return said


def _doubtful_default(home: Path, ruleset: str, edition: str, day: str, result: ReadResult,
                      partial: bool, confirmed: bool) -> None:
    """Refuse a full document the reader doubted that would become ``ruleset``'s default over a
    full edition, unless ``confirmed``; say the doubt when it would not become the default."""
    warned = [d for d in result.diagnostics if d.severity == "warning"
              and not d.message.startswith("unresolved reference")]
    rules = sum(1 for r in result.rules if r.kind == "rule")  # counted as the build counts them
    built = current_build(home)
    if built is None:
        return
    try:
        manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return  # no readable build: nothing is the default yet
    existing = [e for e in manifest.get("editions", []) if e.get("ruleset") == ruleset]
    others = [e for e in existing if e.get("edition") != edition]
    if all(e.get("partial") for e in existing):
        return  # only excerpts: a full document is better whatever its warnings
    # the default now (the edition this import replaces, when it is the default, included)
    before = preferring_full(oldest_first(existing))
    after = preferring_full(oldest_first([*others, {"edition": edition, "date": day, "partial": partial}]))
    # the full edition of the same name this import replaces, if any
    replaced = next((e for e in existing if e.get("edition") == edition and not e.get("partial")), None)
    if partial and before["edition"] != edition:
        if replaced is None:
            return  # an excerpt beside the default (or in another excerpt's place): never the default
        _full_edition_kept(ruleset, edition, rules, warned, replaced, before["edition"])
        return
    # A full edition of this name that is not the default and stays so is the one this
    # import replaces: the doubt is counted against it (its rules lost), not the default.
    kept_aside = (not partial and replaced is not None and before["edition"] != edition
                  and after.get("edition") != edition)
    doubts = _doubts(rules, len(warned), replaced if kept_aside and replaced is not None else before)
    if not doubts:
        return
    doubt = f"{ruleset} {edition} read with {' and '.join(doubts)}"
    if not partial and (after.get("edition") != edition or confirmed):
        click.echo(f"note: {doubt}" + (" (made the default by --make-default)" if confirmed
                                       and after.get("edition") == edition else "")
                   + (f" (it replaces the full edition {edition}; the default stays {before['edition']})"
                      if kept_aside else ""))
        return
    for d in warned[:SHOWN_WARNINGS]:
        click.echo(f"    {reader_note_line(d.as_dict())}")
    default = before["edition"]
    if partial:  # the excerpt would take the default full edition's place, the full text lost
        only = "" if any(not e.get("partial") for e in others) else f", the only full edition of {ruleset},"
        over = (f"as an excerpt under the same name it would replace the default edition {default}{only} "
                f"and its rules")
        advice = (f"import it under another edition name with --partial to keep it beside {default}, or "
                  f"without --partial with --make-default to replace {default} as the default")
    else:
        over = (f"it would replace the default edition {edition}" if default == edition
                else f"it would become the default edition over {default}")
        # --partial under a name already taken would replace that edition, not sit beside it
        beside = ("imported under another edition name with --partial, it is kept"
                  if any(e.get("edition") == edition for e in existing)
                  else "`rulekb import ... --partial` keeps it")
        advice = f"{beside} beside {default} as an excerpt; --make-default makes it the default anyway"
    raise QueryError(400, f"{doubt}: {over}. Nothing imported: check the reader's warnings ({advice})",
                     {"warnings": len(warned), "rules": rules, "default": default})


def _full_edition_kept(ruleset: str, edition: str, rules: int, warned: list[Diagnostic],
                       replaced: dict[str, Any], default: str) -> None:
    """Refuse an excerpt (``--partial``) the reader doubted beside ``replaced``, the full edition
    of the same name that is not the default, which it would replace (its full text lost);
    say the replacement when the document is not doubted."""
    doubts = _doubts(rules, len(warned), replaced)
    if not doubts:
        click.echo(f"note: {ruleset} {edition} was a full edition ({counted(int(replaced.get('rules', 0)), 'rule')}); "
                   f"it is now the excerpt imported ({counted(rules, 'rule')})")
        return
    for d in warned[:SHOWN_WARNINGS]:
        click.echo(f"    {reader_note_line(d.as_dict())}")
    raise QueryError(400, f"{ruleset} {edition} read with {' and '.join(doubts)}: as an excerpt under the same "
                     f"name it would replace the full edition {edition} (not the default, {default}) and its "
                     f"rules. Nothing imported: check the reader's warnings (import it under another edition "
                     f"name with --partial to keep it beside {edition}, or without --partial to replace "
                     f"{edition} as a full edition)",
                     {"warnings": len(warned), "rules": rules, "replaced": edition, "default": default})


def _doubts(rules: int, warnings: int, other: dict[str, Any]) -> list[str]:
    """Why an edition of ``rules`` rules read with ``warnings`` reader warnings is doubtful
    beside the full edition ``other`` (a manifest entry): none when it is not."""
    doubts = []
    if warnings >= max(1, DOUBTFUL_WARNINGS * rules):
        doubts.append(counted(warnings, "reader warning"))
    lost = int(other.get("rules", 0)) - rules
    if lost > DOUBTFUL_LOSS * int(other.get("rules", 0)):
        doubts.append(f"{counted(rules, 'rule')}, {lost} fewer than {other['edition']}'s {other['rules']}")
    return doubts


def doubtful_default_lines(editions: list[dict[str, Any]], warnings: dict[tuple[str, str], int]) -> list[str]:
    """A line for each ruleset whose default edition (among the build's ``editions``) is
    doubtful beside one of its other full editions (:func:`_doubts`; ``warnings``: each
    edition's reader warnings): a judge reading it should know."""
    out = []
    for ruleset in sorted({e["ruleset"] for e in editions}):
        eds = oldest_first(e for e in editions if e["ruleset"] == ruleset)
        default = preferring_full(eds)
        others = [e for e in eds if not e.get("partial") and e is not default]
        if default.get("partial") or not others:
            continue
        fullest = max(others, key=lambda e: int(e.get("rules", 0)))
        doubts = _doubts(int(default["rules"]), warnings.get((ruleset, default["edition"]), 0), fullest)
        if doubts:
            out.append(f"note: {ruleset}'s default edition {default['edition']} was read with "
                       f"{' and '.join(doubts)} (see `rulekb stats`); "
                       f"name the edition to read another (-e {fullest['edition']})")
    return out


@main.command("build")
@click.pass_context
@handle_errors
def build_cmd(ctx: click.Context) -> None:
    """Rebuild the knowledge base from rules/ and every imported document."""
    _build(home_of(ctx))


# At most this many of a document's reader warnings are printed by an import.
SHOWN_WARNINGS = 5


def _build(home: Path) -> None:
    report = build(home, progress=lambda msg: click.echo(msg, err=True))
    warnings: dict[tuple[str, str], int] = {}
    for e in report.editions:
        warned = _stored_warnings(report.build, e) if e["warnings"] else []
        warnings[(e["ruleset"], e["edition"])] = len(warned)
        warning = f"{counted(len(warned), 'warning')}; " if warned else ""
        notes = (f", {counted(e['warnings'], 'reader note')} ({warning}see `rulekb stats`)"
                 if e["warnings"] else "")
        click.echo(f"{e['ruleset']} {e['edition']}: {counted(e['rules'], 'rule')}, "
                   f"{counted(e['headings'], 'heading')}, {counted(e['terms'], 'term')}"
                   f"{' (partial)' if e['partial'] else ''}{notes}")
        for d in cut_short_notes(warned):  # the warning a judge must know: it stops early
            click.echo(f"    {reader_note_line(d.as_dict())}")
    for line in [*excerpt_lines(report.editions), *doubtful_default_lines(report.editions, warnings)]:
        click.echo(line)
    click.echo(f"built {report.build.name} in {report.seconds:.1f}s: "
               f"{counted(len(report.built), 'edition')} built, {len(report.reused)} reused unchanged; "
               f"{counted(len(report.mappings_built), 'mapping')} between neighbouring editions built, "
               f"{len(report.mappings_reused)} reused")


@main.command("rule")
@click.argument("number", nargs=-1, required=True)
@ruleset_option
@edition_option
@click.option("--date", type=DATE, default=None, help="Use the edition in force on this date.")
@click.option("--subrules/--no-subrules", default=True, help="Show the whole subtree.")
@click.option("--all-cited-by", "cited_by_all", is_flag=True,
              help="List every ruling and article citing the rule (default: the first page of "
                   "them, as the API's rule answer lists them, and the counts of all).")
@json_option
@click.pass_context
@handle_errors
def rule_cmd(ctx: click.Context, number: tuple[str, ...], ruleset: str | None, edition: str | None,
             date: str | None, subrules: bool, cited_by_all: bool, as_json: bool) -> None:
    """Show one rule or several (numbers may be loose: 337.1a, 337.1.a, "rule 337.1.a.").

    Each number is shown in turn; a number that does not exist is reported with the nearest
    ones (exit 2, as any input that cannot be answered) and the others are still shown; one
    another ruleset's default edition has (Magic's 120.3b asked of Riftbound) is named there,
    with its title and the --ruleset to ask, as `rulekb search` names it. Without --ruleset, a
    number's prefix naming a ruleset picks it ("CR 117.3d" is Magic's); with another
    --ruleset, that is said, with the command to ask it there.
    With --json, several numbers print a list. The rulings and articles citing a rule
    (cited_by) are counted, and the first of them listed, as the API's rule answer lists
    them; --all-cited-by lists them all.
    """
    kb = open_kb(ctx)
    groups = group_numbers(number)
    # Without --ruleset, a number's own prefix names its ruleset (CR 117.3d is Magic's), as search
    # reads it; every edition is found before any rule is shown (an unknown one stops the command).
    rulesets = [ruleset or kb.ruleset_asked_by(typed, edition) or kb.default_ruleset() for typed in groups]
    # -e with --date: the one in force then, as the API reads them
    editions = {rs: named_edition(kb, rs, edition, date).edition.name for rs in dict.fromkeys(rulesets)}
    found, failed = [], False
    for typed, rs in zip(groups, rulesets):
        try:
            found.append(kb.rule(rs, typed, editions[rs], subrules=subrules, cited_by_all=cited_by_all))
        except QueryError as exc:  # this number only; the edition is known to exist
            echo_query_error(exc)
            failed = True
    if as_json:
        if found:
            emit_json(found[0] if len(groups) == 1 else found)
    else:
        for i, data in enumerate(found):
            if i:
                click.echo()
            _print_rule(data, subrules)
    if failed:
        ctx.exit(EXIT_ERROR)


def _print_rule(data: dict[str, Any], subrules: bool) -> None:
    crumbs = " › ".join(f"{a['number']} {a['title']}" for a in data["ancestors"])
    click.echo(click.style(f"{data['ruleset']} {data['edition']}", dim=True) + (f"  {crumbs}" if crumbs else ""))
    head = f"{data['number']}. {data['title']}" if data["kind"] != "rule" else data["number"] + "."
    click.echo(click.style(head, bold=True) + (f" {data['text']}" if data["text"] else ""))
    for ex in data["examples"]:
        click.echo(f"    Example: {ex}")
    for sub in data.get("subrules", []):
        indent = "  " * (sub["depth"] - data["depth"])
        click.echo(f"{indent}{sub['number']}. {sub['text'] or sub['title']}")
        for ex in sub["examples"]:
            click.echo(f"{indent}    Example: {ex}")
    if not subrules and data["children"]:
        click.echo("children: " + ", ".join(c["number"] for c in data["children"]))
    if data["references"]:
        click.echo("references: " + ", ".join(f"{r['number']} {r['title']}" for r in data["references"]))
    if data["referenced_by"]:
        click.echo("referenced by: " + ", ".join(r["number"] for r in data["referenced_by"]))
    if data["transitions"]:
        click.echo("timing model: " + ", ".join(t["name"] for t in data["transitions"]))
    cited = data["cited_by"]
    if cited["total"]:
        click.echo(f"cited by {counted(cited['rulings'], 'ruling')}, {counted(cited['articles'], 'article')}: "
                   + ", ".join(f"{r['id']}" + (f" (as {r['cited_as']} of {r['written_for']})"
                                               if r["cited_as"] != data["number"] else "")
                               for r in cited["records"])
                   + (f", and {cited['more']} more (--all-cited-by lists them)" if cited["more"] else ""))


@main.command("structure")
@ruleset_option
@edition_option
@json_option
@click.pass_context
@handle_errors
def structure_cmd(ctx: click.Context, ruleset: str | None, edition: str | None, as_json: bool) -> None:
    """List every numbered node of an edition in document order."""
    kb = open_kb(ctx)
    data = kb.structure(ruleset or kb.default_ruleset(), edition)
    if as_json:
        emit_json([{k: d[k] for k in ("number", "kind", "title", "depth", "parent")} for d in data])
        return
    for d in data:
        click.echo(f"{'  ' * d['depth']}{d['number']}  {d['title']}")


@main.command("stats")
@json_option
@click.pass_context
@handle_errors
def stats_cmd(ctx: click.Context, as_json: bool) -> None:
    """Per edition: rules, headings, references resolved/unresolved, terms."""
    data = open_kb(ctx).stats()
    if as_json:
        emit_json(data)
        return
    for e in data:
        click.echo(f"{e['ruleset']} {e['edition']} ({e['date']}{', partial' if e['partial'] else ''}): "
                   f"{e['rules']} rules, {e['headings']} headings, references "
                   f"{e['references_resolved']} resolved / {e['references_unresolved']} unresolved, "
                   f"{e['terms']} terms")
        for u in e["unresolved"]:
            click.echo(f"    unresolved in {u['rule']} (line {u['line']}): {u['text']}")
        for d in e["diagnostics"]:
            click.echo(f"    {reader_note_line(d)}")
    for line in excerpt_lines(data):
        click.echo(line)


def excerpt_lines(summaries: list[dict[str, Any]]) -> list[str]:
    """For each ruleset holding excerpts beside full editions, a line naming the excerpts
    (which no default choice reads: :func:`kb.loaded.preferring_full`) and how to replace one."""
    by_ruleset: dict[str, list[dict[str, Any]]] = {}
    for e in sorted(summaries, key=lambda e: (e["ruleset"], e["date"], e["edition"])):
        by_ruleset.setdefault(e["ruleset"], []).append(e)
    lines = []
    for ruleset, eds in by_ruleset.items():
        if names := passed_over_excerpts(eds):
            lines.append(f"{ruleset}: {counted(len(names), 'excerpt')} ({', '.join(names)}) beside full "
                         f"editions, read only when named (the default is the newest full edition, "
                         f"{preferring_full(eds)['edition']}): import the official document under "
                         f"the same name to replace one (rulekb import FILE --ruleset {ruleset} "
                         f"--edition {names[-1]})")
    return lines


def _stored_warnings(build_dir: Path, summary: dict[str, Any]) -> list[Diagnostic]:
    """The reader's warnings the build kept for an edition (``rulekb stats`` lists them all)."""
    try:
        kept = json.loads(stored_notes_path(build_dir, summary["ruleset"], summary["edition"])
                          .read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [Diagnostic(d["message"], d.get("file", ""), d.get("line", 0), d["severity"])
            for d in kept.get("diagnostics", []) if d.get("severity") == "warning"]


def reader_note_line(note: dict[str, Any]) -> str:
    """One reader note as `rulekb stats` prints it: its severity, its line when it has one (a
    note about the whole document, such as a PDF's page count, has none), its message."""
    place = f" at line {note['line']}" if note.get("line") else ""
    return f"{note['severity']}{place}: {note['message']}"


@main.command("editions")
@ruleset_option
@click.option("--date", type=DATE, default=None,
              help="Only the edition in force on this date (of each ruleset that had one).")
@json_option
@click.pass_context
@handle_errors
def editions_cmd(ctx: click.Context, ruleset: str | None, date: str | None, as_json: bool) -> None:
    """List rulesets and their editions, or the edition in force on a date."""
    kb = open_kb(ctx)
    names = [ruleset] if ruleset else [r["name"] for r in kb.rulesets()]
    if date is None:
        data = [e for name in names for e in kb.editions(name)]
    elif ruleset:
        data = [kb.in_force(ruleset, date)]
    else:  # every ruleset that had an edition then; none at all is the one error
        data = [e for e in (_in_force_or_none(kb, name, date) for name in names) if e is not None]
        if not data:
            raise QueryError(404, f"no edition of any ruleset was in force on {date}",
                             {"rulesets": names})
    if as_json:
        emit_json(data)
        return
    for e in data:
        click.echo(f"{e['ruleset']:<22} {e['edition']:<12} {e['date']:<10} {e['rules']:>5} rules"
                   f"{'  partial' if e['partial'] else ''}  {e['title']}")
    if date is not None:  # rulekb knows the editions built, not every one the publisher issued
        click.echo(click.style(f"in force on {date}: of the editions built, the newest dated on or before "
                               "it (an edition published since and not imported is not known)", dim=True))


def _in_force_or_none(kb: Any, ruleset: str, date: str) -> dict[str, Any] | None:
    try:
        return kb.in_force(ruleset, date)  # type: ignore[no-any-return]
    except QueryError:
        return None
