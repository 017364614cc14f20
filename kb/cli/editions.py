"""Commands across editions: diff, history, map.

Editions are named (``1.3``, ``2026-01-16``); a date that is not an edition's name means
the edition in force on that date. Word-level changes are printed inline as ``[-old-]``
and ``{+new+}`` (coloured on a terminal).
"""

from __future__ import annotations

from typing import Any

import click

from kb.cli.app import emit_json, handle_errors, json_option, main, open_kb, ruleset_option
from kb.cli.params import DATE, EDITION_NAME, EDITION_OR_DATE
from kb.errors import QueryError

STATUS_MARK = {"added": "+", "removed": "-", "changed": "~", "moved": ">", "unchanged": "="}


def inline(ops: list[dict[str, str]] | None, fallback: str = "") -> str:
    """Word-level segments as one line: ``[-deleted-]`` and ``{+inserted+}``."""
    if not ops:
        return fallback
    out = []
    for seg in ops:
        if seg["op"] == "equal":
            out.append(seg["new"])
            continue
        old, new = seg["old"].rstrip(), seg["new"].rstrip()
        tail = seg["new"][len(new):] or seg["old"][len(old):]
        if out and out[-1][-1:].isalnum():
            out.append(" ")  # keep a marker off the word before it
        if old:
            out.append(click.style(f"[-{old}-]", fg="red"))
        if new:
            out.append(click.style(f"{{+{new}+}}", fg="green"))
        out.append(tail)
    return "".join(out)


@main.command("diff")
@ruleset_option
@click.option("--from", "from_edition", required=True, type=EDITION_OR_DATE,
              help="The older edition (a name, or a date YYYY-MM-DD: the edition in force then).")
@click.option("--to", "to_edition", required=True, type=EDITION_OR_DATE,
              help="The newer edition (a name, or a date).")
@click.option("--only", type=click.Choice(["added", "removed", "changed", "moved", "unchanged"]),
              multiple=True, help="Show only these statuses (repeatable).")
@click.option("--chapter", default=None, metavar="NUMBER",
              help="Only rules under this chapter or heading (either edition's numbering).")
@click.option("--unchanged", is_flag=True, help="Also list unchanged rules.")
@click.option("--summary", "summary_only", is_flag=True,
              help="Print the counts only (with --json: no entries and no offset).")
@click.option("--limit", type=click.IntRange(min=0), default=None,
              help="Print at most N entries (not with --summary, which prints none).")
@json_option
@click.pass_context
@handle_errors
def diff_cmd(ctx: click.Context, ruleset: str | None, from_edition: str, to_edition: str,
             only: tuple[str, ...], chapter: str | None, unchanged: bool, summary_only: bool,
             limit: int | None, as_json: bool) -> None:
    """Rule-by-rule differences between two editions: added, removed, changed (word by
    word) and moved (renumbered, with or without new wording)."""
    if summary_only and limit is not None:
        # As the API refuses limit with summary=true: paging a summary is a mistake to hear of.
        raise click.UsageError("--limit pages the entries, which --summary leaves out: use one or the other")
    kb = open_kb(ctx)
    data = kb.diff(ruleset or kb.default_ruleset(), from_edition, to_edition, only=list(only) or None,
                   chapter=chapter, unchanged=unchanged, limit=0 if summary_only else limit)
    if summary_only:
        del data["offset"]  # the summary's shape, as the API's summary=true answers it
    if as_json:
        emit_json(data)
        return
    _print_summary(data)
    if summary_only:
        return
    for e in data["entries"]:
        _print_entry(e)
    if data["total"] > len(data["entries"]):
        click.echo(f"… {data['total'] - len(data['entries'])} more (use --limit or --json)")


def _print_summary(data: dict[str, Any]) -> None:
    s, a, b = data["summary"], data["from"], data["to"]
    partial = " (an excerpt: rules it lacks show as removed)" if b["partial"] or a["partial"] else ""
    click.echo(f"{data['ruleset']} {a['edition']} ({a['date']}) → {b['edition']} ({b['date']}){partial}")
    click.echo(f"  {s['added']} added, {s['removed']} removed, {s['changed']} changed, {s['moved']} moved "
               f"({s['renumbered_only']} renumbered only, {s['moved_reworded']} also reworded), "
               f"{s['unchanged']} unchanged")
    click.echo(f"  {'chapter':<10} {'added':>6} {'removed':>8} {'changed':>8} {'moved':>6} {'unchanged':>10}  title")
    for c in data["chapters"]:
        label = c["chapter"] if c["edition"] == b["edition"] else f"{c['chapter']} (old)"
        click.echo(f"  {label:<10} {c['added']:>6} {c['removed']:>8} {c['changed']:>8} {c['moved']:>6} "
                   f"{c['unchanged']:>10}  {c['title']}")
    if data["filter"]["only"] or data["filter"]["chapter"]:
        click.echo(f"  showing {data['total']} entries"
                   + (f" with status {', '.join(data['filter']['only'])}" if data["filter"]["only"] else "")
                   + (f" under {data['filter']['chapter']}" if data["filter"]["chapter"] else ""))


def _print_entry(e: dict[str, Any]) -> None:
    mark = STATUS_MARK[e["status"]]
    if e["status"] == "added":
        click.echo(click.style(f"{mark} {e['new_number']}", fg="green", bold=True) + f"  {e['new_text']}")
    elif e["status"] == "removed":
        click.echo(click.style(f"{mark} {e['old_number']}", fg="red", bold=True) + f"  {e['old_text']}")
    else:
        numbers = e["new_number"] if not e["renumbered"] else f"{e['old_number']} → {e['new_number']}"
        notes = [e["status"]] + (["reworded"] if e["status"] == "moved" and e["reworded"] else [])
        conf = f", confidence {e['confidence']:.2f}" if e["confidence"] is not None and e["confidence"] < 0.95 else ""
        click.echo(click.style(f"{mark} {numbers}", bold=True) + f"  ({', '.join(notes)}{conf})  "
                   + inline(e["ops"], e["new_text"] or ""))


@main.command("history")
@click.argument("number")
@ruleset_option
@click.option("--edition", "-e", default=None, type=EDITION_NAME,
              help="The edition the number belongs to (default: the newest full edition that has it).")
@click.option("--date", type=DATE, default=None, help="Use the edition in force on this date.")
@json_option
@click.pass_context
@handle_errors
def history_cmd(ctx: click.Context, number: str, ruleset: str | None, edition: str | None,
                date: str | None, as_json: bool) -> None:
    """In which editions a rule exists, under which numbers, with what wording."""
    kb = open_kb(ctx)
    ruleset = ruleset or kb.default_ruleset()
    try:
        data = kb.history(ruleset, number, edition, date)
    except QueryError as exc:  # a number another ruleset has: said as `rulekb rule` says it
        raise kb.with_other_rulesets(exc, ruleset, number) from exc
    if as_json:
        emit_json(data)
        return
    click.echo(click.style(f"{data['ruleset']} {data['number']} ({data['edition']})", bold=True))
    for row in data["editions"]:
        head = f"  {row['edition']:<11} {row['date'] or '':<10}  {row['number'] or '—':<12} {row['status']}"
        if row["number"] is None:
            click.echo(head)
            continue
        extra = " (reworded)" if row["status"] == "moved" and row["reworded"] else ""
        conf = row.get("confidence")
        extra += f" (confidence {conf:.2f})" if conf is not None and conf < 0.95 else ""
        click.echo(head + extra)
        click.echo("      " + inline(row["ops"], row["text"] or row["title"]))


@main.command("map")
@click.argument("number")
@ruleset_option
@click.option("--from", "from_edition", required=True, type=EDITION_OR_DATE,
              help="The edition the number belongs to (a name, or a date).")
@click.option("--to", "to_edition", required=True, type=EDITION_OR_DATE,
              help="The edition to find it in (a name, or a date).")
@json_option
@click.pass_context
@handle_errors
def map_cmd(ctx: click.Context, number: str, ruleset: str | None, from_edition: str,
            to_edition: str, as_json: bool) -> None:
    """Where a rule of one edition is in another (same, renumbered, removed, or added after it)."""
    kb = open_kb(ctx)
    ruleset = ruleset or kb.default_ruleset()
    try:
        data = kb.map_number(ruleset, number, from_edition, to_edition)
    except QueryError as exc:
        raise kb.with_other_rulesets(exc, ruleset, number) from exc
    if as_json:
        emit_json(data)
        return
    head = f"{data['ruleset']} {data['number']} ({data['from']}) → "
    if data["target"] is None:
        near = data.get("nearest_target")
        hint = f"; its ancestor {near['number']} is {near['target']}" if near else ""
        said = (f"not in {data['to']}, added after it" if data["status"] == "added"
                else f"{data['status']} in {data['to']}")
        click.echo(head + f"{said} (confidence {data['confidence']:.2f}){hint}")
        return
    reworded = ", reworded" if data["reworded"] else ""
    click.echo(head + f"{data['target']} ({data['to']}): {data['status']}{reworded}, "
               f"confidence {data['confidence']:.2f}")
