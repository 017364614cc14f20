"""``rulekb export``: the rules browser as a folder a judge opens without a network."""

from __future__ import annotations

from pathlib import Path

import click

from kb.cli.app import EXIT_FINDING, CommandError, emit_json, handle_errors, json_option, main, open_kb, os_error_message
from kb.cli.params import EDITION_NAME, RULESET_NAME, PathType


@main.command("export")
@click.argument("folder", type=PathType(path_type=Path, file_okay=False))
@click.option("--ruleset", "-r", "rulesets", multiple=True, type=RULESET_NAME,
              help="Export this ruleset (repeatable; default: every built one).")
@click.option("--edition", "-e", "editions", multiple=True, type=EDITION_NAME,
              help="Export this edition (repeatable; default: every built edition of the rulesets).")
@click.option("--check", is_flag=True, help="Check afterwards that every link resolves to a file.")
@json_option
@click.pass_context
@handle_errors
def export_cmd(ctx: click.Context, folder: Path, rulesets: tuple[str, ...], editions: tuple[str, ...],
               check: bool, as_json: bool) -> None:
    """Write a static copy of the rules browser into FOLDER: rule pages, contents, glossary,
    changes between the exported editions, the timing walkthroughs frame by frame and an
    offline search. Open FOLDER/index.html from the file system or put FOLDER on any static
    host. An earlier export in FOLDER is replaced once the new one is complete."""
    from web.export import export_site, select_editions

    kb = open_kb(ctx)
    chosen = select_editions(kb, rulesets, editions)
    quiet = as_json
    try:
        result = export_site(kb, folder, chosen, check=check,
                             progress=None if quiet else lambda msg: click.echo(f"  {msg}", err=True))
    except OSError as exc:  # the folder, not the data directory: say which and what to do
        raise CommandError(f"cannot export to {folder}: {os_error_message(exc)}; "
                           "choose another folder") from exc
    if as_json:
        emit_json(result.as_dict())
    else:
        names = ", ".join(f"{r} {e}" for r, e in result.editions)
        click.echo(f"exported {names}: {result.pages} pages, {result.files} files, "
                   f"{result.bytes / 1e6:.1f} MB in {result.seconds['total']:.1f} s")
        if check:
            click.echo(f"checked {result.links_checked} links: "
                       + ("all resolve" if not result.problems else f"{len(result.problems)} problems"))
        click.echo(f"open {(folder / 'index.html').resolve().as_uri()}")
    for problem in result.problems:
        click.echo(f"broken link: {problem}", err=True)
    if result.problems:
        ctx.exit(EXIT_FINDING)
