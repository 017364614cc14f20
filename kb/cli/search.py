"""``rulekb search``: find the rule a judge means."""

from __future__ import annotations

import re
import shlex

import click

from kb.cli.app import counted, edition_option, emit_json, handle_errors, json_option, main, open_kb, ruleset_option
from kb.query import elsewhere_sentence

_MARK = re.compile(r"<mark>(.*?)</mark>")


def _terminal(excerpt: str) -> str:
    """An excerpt's HTML for a terminal: marked words in bold, entities decoded."""
    import html
    parts = _MARK.split(excerpt)
    return "".join(click.style(html.unescape(p), bold=True, fg="yellow") if i % 2 else html.unescape(p)
                   for i, p in enumerate(parts))


@main.command("search")
@click.argument("query")
@ruleset_option
@edition_option
@click.option("--limit", "-n", default=10, show_default=True, type=int, help="Results per page (1–100).")
@click.option("--offset", default=0, show_default=True, type=int, help="Results to skip (paging).")
@click.option("--section", "-s", default=None,
              help="Only rules inside this section or rule (same as in:NUMBER in the query).")
@json_option
@click.pass_context
@handle_errors
def search_cmd(ctx: click.Context, query: str, ruleset: str | None, edition: str | None, limit: int,
               offset: int, section: str | None, as_json: bool) -> None:
    """Search the rules: words, "quoted phrases", a rule number (337.1a), in:337,
    word*, -word, a AND b, a OR b.

    Without --ruleset, a citation's own prefix picks the ruleset as `rulekb link` reads it
    (CR 702.19b, Comprehensive Rules 702.19b: Magic); with --edition, that ruleset when it
    has the edition, else the only ruleset that has it. An answer with no match, or a number
    the edition lacks, names the other rulesets that match and how to search there."""
    kb = open_kb(ctx)
    data = kb.search(query, ruleset, edition, limit=limit, offset=offset, section=section)
    if as_json:
        emit_json(data)
        return
    head = f"{data['ruleset']} {data['edition']}: {data['total']} matching"
    click.echo(click.style(head, dim=True))
    missing = data.get("no_such_rule")
    if missing:  # a number the edition lacks: where it went (an older article's), the nearest
        if missing["elsewhere"]:
            click.echo(elsewhere_sentence(missing["elsewhere"], data["edition"]))
        if missing["nearest"]:
            click.echo(f"no rule {missing['number']} in {data['ruleset']} {data['edition']}; "
                       f"nearest: {', '.join(missing['nearest'])}")
        else:  # past the last rule, or an edition of no rules: the lookup's own words say which
            click.echo(missing["message"])
    elif data["did_you_mean"]:
        click.echo(f"did you mean: {data['did_you_mean']}")
    for other in data.get("other_rulesets") or []:  # nothing here: where the query does match
        click.echo(f"{counted(other['total'], 'match', 'matches')} in {other['title']} {other['edition']}: "
                   f"rulekb search -r {other['ruleset']} {shlex.quote(query)}")
    if data.get("clamped"):  # a range past the edition's rules, or high to low: what it was read as
        click.echo(data["clamped"]["message"])
    read = data.get("understood") or {}
    for card in read.get("cards") or []:
        click.echo(click.style("card: " + card, dim=True))
    if read.get("names"):
        click.echo(click.style("left out as names (not words of the rules): " + ", ".join(read["names"]),
                               dim=True))
    if read.get("concepts"):
        click.echo(click.style("read as: " + ", ".join(read["concepts"]), dim=True))
    if read.get("unread"):
        click.echo(click.style("not read as search syntax (its words searched): " + ", ".join(read["unread"]),
                               dim=True))
    if read.get("cut"):
        click.echo(click.style("not searched (too many words and phrases): " + " ".join(read["cut"]), dim=True))
    if data["term"]:
        t = data["term"]
        click.echo(click.style(t["term"], bold=True) + f" ({t['kind']}, defined in "
                   f"{', '.join(t['defined_by'])})")
    for r in data["results"]:
        crumbs = " › ".join(c["number"] + " " + c["title"] for c in r["breadcrumbs"])
        click.echo(click.style(r["number"], bold=True) + "  " + click.style(crumbs, dim=True))
        click.echo("    " + _terminal(r["excerpt"]))
        if r.get("matched"):
            click.echo(click.style("    matched: " + ", ".join(r["matched"]), dim=True))
    shown = data["offset"] + len(data["results"])
    if shown < data["total"]:
        click.echo(click.style(f"… {data['total'] - shown} more (--offset {shown})", dim=True))
