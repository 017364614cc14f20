"""``rulekb rulings …`` and ``rulekb articles …``: the records that cite rules.

``import``/``add`` copy records into the data home (all or nothing, each error naming the
file and field) and rebuild the knowledge base, so a running server answers from them;
``remove`` takes them out again by id (all or nothing) and rebuilds;
``list`` shows them with what a newer edition changed; ``check`` lists every stale
citation and exits 1 when there is one, 2 when the command could not answer (for CI); ``rulings search`` finds earlier rulings
on a question.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kb.cli.app import EXIT_FINDING, EXIT_OK, counted, emit_json, handle_errors, home_of, json_option, main, open_kb
from kb.cli.params import RULESET_NAME, PathType
from kb.records import import_records, load_records, record_report, records_report
from kb.records.store import remove_records
from kb.records.citing import STALE, attach_records
from kb.records.feed import change_sentence, word_diff_line
from kb.records.model import Kind
from kb.store import build


@main.group("rulings")
def rulings_group() -> None:
    """Rulings (a judge's question and answer, written for an edition): import, list,
    check against the newest full edition, search."""


@main.group("articles")
def articles_group() -> None:
    """Articles citing rules (Markdown): add, list, check against the newest full edition."""


def _import(ctx: click.Context, paths: tuple[Path, ...], kind: Kind, no_build: bool) -> None:
    kb = open_kb(ctx)
    home = home_of(ctx)
    report = import_records(home, paths, kind, kb)
    for d in report.warnings:
        click.echo(str(d), err=True)
    if not no_build:
        done = build(home)
        click.echo(f"built {done.build.name} in {done.seconds:.1f}s", err=True)
    # Report what the records cite with the knowledge base this command opened: for each
    # record imported, the edition it was read as written for and its own diagnostics,
    # placed in the file the user gave (not the copy kept in the data home).
    attach_records(kb, load_records(home))
    checked = records_report(kb, kind)
    items = {item["id"]: item for item in checked["records"]}
    for record, replaced in report.written:
        item = items.get(record.id)
        click.echo(f"{'replaced' if replaced else 'added'} {kind} {record.id} ({_written_for(item)})")
        for d in item["diagnostics"] if item else ():
            line = f":{d['line']}" if d.get("line") else ""
            click.echo(f"{record.file}{line}: {d['severity']}: {d['message']}", err=True)
    click.echo(f"{counted(len(report.written), kind)} imported; {checked['total']} stored, "
               f"{checked['stale']} stale (see `rulekb {kind}s check`)")


def _written_for(item: dict[str, Any] | None) -> str:
    """The edition a record was read as written for, as an import reports it."""
    if item is None or item["unread"]:
        return "edition not known: see its warning"
    inferred = ", inferred" if item["inferred"] else ""
    return f"{item['ruleset']} {item['written_for']}{inferred}"


def _importing(kind: Kind) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """What ``rulings import`` and ``articles add`` take: the files or folders, and
    ``--no-build``."""
    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        command = handle_errors(command)
        command = click.pass_context(command)
        command = click.option("--no-build", is_flag=True, help=(
            f"Only check and store the {kind}s (the API's kept answers follow builds: run "
            "`rulekb build` later)."))(command)
        return click.argument("paths", nargs=-1, required=True,
                              type=PathType(exists=True, path_type=Path))(command)
    return decorate


@rulings_group.command("import")
@_importing("ruling")
def rulings_import(ctx: click.Context, paths: tuple[Path, ...], no_build: bool) -> None:
    """Import rulings from FILE or DIR (YAML: a mapping or a list of them; Markdown: front
    matter and the answer as body), then rebuild the knowledge base.

    Fields: id, question, answer, source, date, ruleset, edition (the one it was written
    for), url (optional). Nothing is imported when a file has an error; each error names
    the file and the field. An id imported again replaces that ruling.
    """
    _import(ctx, paths, "ruling", no_build)


@articles_group.command("add")
@_importing("article")
def articles_add(ctx: click.Context, paths: tuple[Path, ...], no_build: bool) -> None:
    """Add Markdown articles from FILE or DIR, then rebuild the knowledge base.

    The front matter is read as `rulekb link` reads it (ruleset:, edition:; without a pin
    the edition written for is inferred from the citations); the id is its id: or the
    file's name. An id added again replaces that article. Front matter that is not valid
    YAML is an error here, where `rulekb link` only warns: a stored article is checked
    against every later edition from its pin, so a pin lost to a typo would have it read in
    a guessed edition from then on; nothing is added until the file is fixed.
    """
    _import(ctx, paths, "article", no_build)


def _remove(ctx: click.Context, idents: tuple[str, ...], kind: Kind, no_build: bool) -> None:
    home = home_of(ctx)
    removed = remove_records(home, idents, kind)
    for record in removed:
        click.echo(f"removed {kind} {record.id} ({Path(record.file).name})")
    if not no_build:
        done = build(home)
        click.echo(f"built {done.build.name} in {done.seconds:.1f}s", err=True)
    kb = open_kb(ctx)
    attach_records(kb, load_records(home))
    left = records_report(kb, kind)
    click.echo(f"{counted(len(removed), kind)} removed; {left['total']} stored, {left['stale']} stale")


def _removing(kind: Kind) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """What ``rulings remove`` and ``articles remove`` take: the ids, and ``--no-build``."""
    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        command = handle_errors(command)
        command = click.pass_context(command)
        command = click.option("--no-build", is_flag=True, help=(
            f"Only remove the {kind}s' files (run `rulekb build` later)."))(command)
        return click.argument("idents", nargs=-1, required=True, metavar="ID...")(command)
    return decorate


@rulings_group.command("remove")
@_removing("ruling")
def rulings_remove(ctx: click.Context, idents: tuple[str, ...], no_build: bool) -> None:
    """Remove rulings from the data home by id, then rebuild the knowledge base. Nothing is
    removed when an id is not one imported (each such id is named)."""
    _remove(ctx, idents, "ruling", no_build)


@articles_group.command("remove")
@_removing("article")
def articles_remove(ctx: click.Context, idents: tuple[str, ...], no_build: bool) -> None:
    """Remove articles from the data home by id, then rebuild the knowledge base. Nothing is
    removed when an id is not one added (each such id is named)."""
    _remove(ctx, idents, "article", no_build)


def _stored_problems(data: dict[str, Any]) -> None:
    """What was wrong in the data home's record files (a file that no longer reads, files
    beyond what a home holds), one line each on stderr: said, never dropped silently."""
    for d in data["diagnostics"]:
        line = f":{d['line']}" if d.get("line") else ""
        click.echo(f"{d['file']}{line}: {d.get('severity', 'warning')}: {d['message']}", err=True)


def _list(ctx: click.Context, kind: Kind, ruleset: str | None, stale: bool, as_json: bool) -> None:
    data = records_report(open_kb(ctx), kind, ruleset, stale_only=stale)
    if as_json:
        emit_json(data)
        return
    _stored_problems(data)
    for item in data["records"]:
        mark = ("stale" if item["stale"] else "broken" if item["broken"] else
                "unread" if item["unread"] else "ok")
        changed = f" (changed: {', '.join(item['changed'])})" if item["changed"] else ""
        click.echo(f"{item['id']}  {item['ruleset']} {item['written_for']}  {mark}{changed}{_filed(item)}  "
                   f"{item['title']}")
    click.echo(f"{counted(data['total'], kind)}, {data['stale']} stale, {data['broken']} with citations "
               f"that do not exist{_counting(data)}", err=True)


def _check(ctx: click.Context, kind: Kind, ruleset: str | None, as_json: bool) -> None:
    data = records_report(open_kb(ctx), kind, ruleset, stale_only=True)
    if as_json:
        emit_json(data)
    else:
        _stored_problems(data)
        for item in data["records"]:
            if item["unread"]:
                for d in item["diagnostics"]:
                    click.echo(f"{d['file']}:{d['line'] or 1}: unread: {kind} {item['id']}: {d['message']}")
            for c in item["citations"]:
                if c["status"] not in STALE and c["status"] != "not_found":
                    continue
                file = item["imported_from"] or item["file"]  # the user's file, else the copy kept
                where = f"{file}:{c['line']}" if c["line"] else f"{file} ({c['field']})"
                click.echo(f"{where}: {c['status']}: {kind} {item['id']}{_filed(item)}: {c['text']}: "
                           f"{_why(c, bounded=True)}")
        counts = data["citations"]
        unread = f", {data['unread']} whose citations could not be read" if data["unread"] else ""
        click.echo(f"{data['stale']} stale {kind if data['stale'] == 1 else kind + 's'}, "
                   f"{data['broken']} with broken citations{unread}; "
                   f"citations: {counts['ok']} ok, {counts['renumbered']} renumbered, "
                   f"{counts['reworded']} reworded, {counts['removed']} removed, "
                   f"{counts['not_found']} not found{_counting(data)}", err=True)
    sys.exit(EXIT_FINDING if data["stale"] or data["broken"] or data["unread"] else EXIT_OK)


def _filed(item: dict[str, Any]) -> str:
    """" (filed under riftbound)" for a record listed for another ruleset than its own
    (``--ruleset mtg``: a Riftbound ruling whose "CR 116.1" counts for Magic), else ""."""
    counted = item.get("counted_for")
    if counted is None or item["ruleset"] == counted:
        return ""
    return f" (filed under {item['ruleset']})"


def _counting(data: dict[str, Any]) -> str:
    """What ``--ruleset`` selected, said after the counts."""
    if data["ruleset"] is None:
        return ""
    return (f" (citations counting for {data['ruleset']}: a record's own, and those whose prefix "
            f"names {data['ruleset']} in a record of another ruleset)")


def _why(c: dict[str, Any], bounded: bool = False) -> str:
    """What happened to a cited rule, with its word changes: ``bounded``, the changes with a
    little context (a check's line: :func:`~kb.records.feed.word_diff_line`), else whole."""
    if c["status"] == "not_found":
        return c["message"]
    sentence = change_sentence(c)
    if c["ops"] and bounded:
        sentence += ": " + word_diff_line(c["ops"])
    elif c["ops"]:
        sentence += ": " + "".join(op["new"] if op["op"] == "equal" else
                                   (f"[-{op['old']}-]" if op["old"] else "") +
                                   (f"{{+{op['new']}+}}" if op["new"] else "") for op in c["ops"])
    return sentence


ruleset_option = click.option("--ruleset", "-r", default=None, type=RULESET_NAME,
                               help="Only the citations counting for this ruleset: a record's own, and "
                                    "those whose prefix names it in a record of another (default: every one).")
_stale_option = click.option("--stale", is_flag=True, help="Only the stale ones (or with broken citations).")


@rulings_group.command("list")
@ruleset_option
@_stale_option
@json_option
@click.pass_context
@handle_errors
def rulings_list(ctx: click.Context, ruleset: str | None, stale: bool, as_json: bool) -> None:
    """List the rulings: id, ruleset and edition written for, whether a newer edition
    changed a rule it cites (and which), question."""
    _list(ctx, "ruling", ruleset, stale, as_json)


@articles_group.command("list")
@ruleset_option
@_stale_option
@json_option
@click.pass_context
@handle_errors
def articles_list(ctx: click.Context, ruleset: str | None, stale: bool, as_json: bool) -> None:
    """List the articles: id, ruleset and edition written for (inferred where not
    pinned), whether a newer edition changed a rule it cites, title."""
    _list(ctx, "article", ruleset, stale, as_json)


@rulings_group.command("check")
@ruleset_option
@json_option
@click.pass_context
@handle_errors
def rulings_check(ctx: click.Context, ruleset: str | None, as_json: bool) -> None:
    """Every citation of a ruling that the newest full edition renumbered (with the new
    number), reworded (with the word changes) or removed, one line each; exit 1 when there
    is one, a citation of a rule that does not exist, or a ruling whose citations could not
    be read (its edition is not built); exit 2 when the command could not answer (an unknown
    ruleset, an unreadable data directory)."""
    _check(ctx, "ruling", ruleset, as_json)


@articles_group.command("check")
@ruleset_option
@json_option
@click.pass_context
@handle_errors
def articles_check(ctx: click.Context, ruleset: str | None, as_json: bool) -> None:
    """Every citation of an article that the newest full edition renumbered, reworded or
    removed, one line each; exit 1 when there is one, a broken citation, or an article
    whose ruleset cannot be told (pin it with ruleset:); exit 2 when the command could not
    answer (an unknown ruleset, an unreadable data directory)."""
    _check(ctx, "article", ruleset, as_json)


@rulings_group.command("search")
@click.argument("query")
@click.option("--ruleset", "-r", default=None, type=RULESET_NAME,
              help="Only the rulings of this ruleset (default: every one).")
@click.option("--limit", type=click.IntRange(1, 100), default=10, show_default=True,
              help="At most N rulings.")
@json_option
@click.pass_context
@handle_errors
def rulings_search(ctx: click.Context, query: str, ruleset: str | None, limit: int,
                   as_json: bool) -> None:
    """Rulings whose question and answer match QUERY (BM25, stemmed words), best first,
    each with the rules it cites as numbered today."""
    from kb.records.search import search_rulings

    data = search_rulings(open_kb(ctx), query, ruleset, limit)
    if as_json:
        emit_json(data)
        return
    for hit in data["hits"]:
        r, rules = hit["ruling"], hit["rules"]
        cites = f"  → {rules['ruleset']} {rules['edition']}: {', '.join(rules['numbers'])}" if rules["numbers"] else ""
        click.echo(f"{hit['score']:.2f}  {r['id']}  {r['question']}{cites}")
    if not data["hits"]:
        click.echo(f"no ruling matches {query!r}", err=True)


def _show(ctx: click.Context, kind: Kind, ident: str, as_json: bool) -> None:
    data = record_report(open_kb(ctx), kind, ident)
    if as_json:
        emit_json(data)
        return
    click.echo(f"{kind} {data['id']}: {data['title']}")
    click.echo(f"written for {data['ruleset']} {data['written_for']}"
               + (f" ({data['inferred'].split(', ', 1)[-1]})" if data["inferred"] else "")
               + (f"; {data['source']}" if data["source"] else "") + (f", {data['date']}" if data["date"] else ""))
    if kind == "ruling":
        click.echo(f"\n{data['answer']}\n")
    for c in data["citations"]:
        today = f" → {c['now']}" if c["now"] and c["now"] != c["number"] else ""
        why = f": {_why(c)}" if c["status"] != "ok" else ""
        click.echo(f"  {c['text']}: {c['status']}{today}{why}")


@rulings_group.command("show")
@click.argument("ident", metavar="ID")
@json_option
@click.pass_context
@handle_errors
def rulings_show(ctx: click.Context, ident: str, as_json: bool) -> None:
    """One ruling: its question, answer and source, and each rule it cites with its
    status in the newest full edition (the number today, the word changes)."""
    _show(ctx, "ruling", ident, as_json)


@articles_group.command("show")
@click.argument("ident", metavar="ID")
@json_option
@click.pass_context
@handle_errors
def articles_show(ctx: click.Context, ident: str, as_json: bool) -> None:
    """One article: the edition it was written for (pinned or inferred) and each rule it
    cites with its status in the newest full edition."""
    _show(ctx, "article", ident, as_json)
