"""``rulekb link``: link the rule citations of an article, or lint them (``--check``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from kb.cli.app import EXIT_FINDING, EXIT_OK, edition_option, emit_json, handle_errors, main, open_kb, ruleset_option
from kb.cli.params import PathType
from kb.cite.annotate import check_base_url
from kb.errors import QueryError


def _base_url(value: str) -> str:
    """``--base-url`` checked as the API checks ``base_url`` (a usage error otherwise)."""
    try:
        return check_base_url(value)
    except QueryError as exc:
        raise click.BadParameter(exc.message.removeprefix("base_url "), param_hint="--base-url") from None


@main.command("link")
@click.argument("articles", nargs=-1, required=True,
                type=PathType(exists=True, dir_okay=False, allow_dash=True, path_type=Path))
@ruleset_option
@edition_option
@click.option("--format", "fmt", type=click.Choice(["html", "markdown", "json"]), default="html",
              show_default=True, help="html: the rendered article; markdown: the article with links "
                                      "and footnote definitions added; json: the citation report.")
@click.option("--style", type=click.Choice(["footnotes", "preview"]), default="footnotes",
              show_default=True, help="Numbered footnotes with each rule's text, or hover previews.")
@click.option("--check", is_flag=True, help="Only report each citation (file:line:col, citation, "
                                            "status, suggestion); exit 1 if any is broken (2: the command could not answer).")
@click.option("--base-url", default="", callback=lambda ctx, param, value: _base_url(value),
              help="Prefix of the rules browser's URLs: an http(s) URL such as "
                   "https://rules.example.org, or a relative path.")
@click.option("--allow-html", is_flag=True, help="Keep raw HTML in the article (escaped otherwise).")
@click.option("--quiet", "-q", is_flag=True, help="With --check, print broken citations only.")
@click.pass_context
@handle_errors
def link_cmd(ctx: click.Context, articles: tuple[Path, ...], ruleset: str | None,
             edition: str | None, fmt: str, style: str, check: bool, base_url: str,
             allow_html: bool, quiet: bool) -> None:
    """Link the rule citations in ARTICLE.md ("rule 337.1a", "Rules 337–340", "[CR 116.1]").

    The article's front matter (ruleset:, edition:) names the edition it was written for;
    --ruleset/--edition name the one to link against (default: the front matter's, else the
    newest full edition). Without a pin, the edition it was written for is inferred from its citations.
    Front matter that is not valid YAML is a warning here: the article is linked as if it had
    none (`rulekb articles add` refuses it, as a stored article keeps its pin).
    Statuses: ok, not_found, ambiguous, renumbered, quote_mismatch, over_limit.
    """
    if len(articles) > 1 and not check:
        raise click.UsageError("several articles can only be linked with --check")
    kb = open_kb(ctx)
    broken = 0
    for path in articles:
        name = "<stdin>" if str(path) == "-" else str(path)
        text = _read(path, name)
        data = kb.citations_annotate(text, ruleset, edition, style=style,
                                     fmt="json" if check else fmt, allow_html=allow_html,
                                     base_url=base_url, source=name)
        if check:
            broken += _print_check(name, data, quiet)
        elif fmt == "json":
            emit_json(data)
        else:
            click.echo(data["output"], nl=False)
            for d in data["diagnostics"]:
                click.echo(f"{name}: {d['severity']}: {d['message']}", err=True)
    if check:
        sys.exit(EXIT_FINDING if broken else EXIT_OK)


def _read(path: Path, name: str) -> str:
    try:
        data = sys.stdin.buffer.read() if name == "<stdin>" else path.read_bytes()
    except OSError as exc:
        raise QueryError(400, f"{name}: cannot read the file: {exc.strerror}") from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise QueryError(400, f"{name}:{line}: not UTF-8 text (byte {exc.start})") from exc
    if (nul := data.find(b"\0")) >= 0:  # valid UTF-8, but binary data: no article holds one
        line = data[:nul].count(b"\n") + 1
        raise QueryError(400, f"{name}:{line}: a NUL byte (byte {nul}): binary data, not an article's text")
    if not text.strip():
        raise QueryError(400, f"{name} is empty: nothing to link")
    return text


def _print_check(name: str, data: dict[str, Any], quiet: bool) -> int:
    """One line per citation; returns how many are broken."""
    for d in data["diagnostics"]:
        click.echo(f"{name}:{d['line'] or 1}: {d['severity']}: {d['message']}")
    for c in data["citations"]:
        if quiet and not c["broken"]:
            continue
        where = f"{name}:{c['line']}:{c['column']}"
        cited = " ".join(c["text"].split())
        click.echo(f"{where}: {c['status']}: {cited}{_suggestion(c, _other_edition(data, c))}")
    s = data["summary"]
    over = f", {s['over_limit']} over the limit" if s["over_limit"] else ""
    per_edition = _counts_per_edition(data)
    if per_edition:  # read in another edition too: each one's counts, not one sum "against" one
        click.echo(f"{name}: {s['total']} citation{'' if s['total'] == 1 else 's'}: "
                   + ", ".join(per_edition) + over, err=True)
    else:
        click.echo(f"{name}: {s['total']} citation{'' if s['total'] == 1 else 's'} against "
                   f"{_linked_against(data)}: {s['ok']} ok, "
                   f"{s['broken']} broken, {s['renumbered']} renumbered{over}", err=True)
    return int(s["broken"])


def _counts_per_edition(data: dict[str, Any]) -> list[str]:
    """"4 against riftbound 1.4 (4 ok, 0 broken, 0 renumbered)" for each edition the
    listed citations were read in, the one linked against first (a citation whose prefix
    named another ruleset, "CR 117.3b" in a Riftbound article, counts in its own), and
    those found in none ("1 found in no edition (1 broken)"); empty when every citation
    was read in the edition linked against (one line says it)."""
    linked = f"{data['ruleset']} {data['edition']}" if data["edition"] else ""
    groups: dict[str, list[dict[str, Any]]] = {linked: []} if linked else {}
    for c in data["citations"]:
        # one not found in the edition linked against has no edition of its own (one its
        # prefix had looked up elsewhere has that one's): the one linked against, if any
        key = f"{c['ruleset']} {c['edition']}" if c["ruleset"] and c["edition"] else linked
        groups.setdefault(key, []).append(c)
    if set(groups) <= {linked} or (not linked and len(groups) == 1):
        return []
    out = []
    for key, cited in groups.items():
        if not cited:
            continue
        where = f"against {key}" if key else "found in no edition"
        if key and data["edition"] and key != f"{data['ruleset']} {data['edition']}":
            where += ", named by their prefix"
        ok = sum(1 for c in cited if c["status"] == "ok")
        broken = sum(1 for c in cited if c["broken"])
        renumbered = sum(1 for c in cited if c["status"] == "renumbered")
        out.append(f"{len(cited)} {where} ({ok} ok, {broken} broken, {renumbered} renumbered)")
    return out


def _linked_against(data: dict[str, Any]) -> str:
    """The edition an article's citations were all read in: the one named or pinned; for an
    article linked against none, the one its citations were found in (a Riftbound article's
    are all Riftbound's, where every candidate edition was named), else any of the
    candidates (several editions: :func:`_counts_per_edition`)."""
    if data["edition"]:
        return f"{data['ruleset']} {data['edition']}"
    found = sorted({f"{c['ruleset']} {c['edition']}" for c in data["citations"]
                    if c["ruleset"] and c["edition"]})
    return ", ".join(found) if found else "any of " + ", ".join(data["candidates"])


def _other_edition(data: dict[str, Any], c: dict[str, Any]) -> str:
    """"mtg 2010-10-01" for a citation read in another edition than the one the article
    was linked against (its prefix named another ruleset: "CR 116.3d" in a Riftbound
    article), else ""."""
    if not data["edition"] or not c["ruleset"]:
        return ""
    if (c["ruleset"], c["edition"]) == (data["ruleset"], data["edition"]):
        return ""
    return f"{c['ruleset']} {c['edition']}"


def _suggestion(c: dict[str, Any], other: str = "") -> str:
    """What follows a citation's status in a ``--check`` line; ``other``, the edition it
    was read in when not the article's (:func:`_other_edition`), goes before its number."""
    where = f"{other} " if other else ""
    if c["status"] == "ok":
        return f" → {where}{_span(c['numbers'])}"
    if c["status"] == "renumbered":
        numbers = c["numbers"]
        return f" → now {where}rule{'s' if len(numbers) > 1 else ''} {_span(numbers)} ({c['message']})"
    if c["status"] == "not_found":
        near = ", ".join(c.get("nearest", [])[:5])
        return f" ({c['message']})" + (f"; nearest: {near}" if near else "")
    if c["status"] == "ambiguous":
        return " (" + c["message"] + ")"
    if c["status"] == "quote_mismatch":
        return f" ({c['message']})"
    return f" ({c['message']})" if c["message"] else ""


def _span(numbers: list[str]) -> str:
    """A citation's rules as a ``--check`` line names them: "117.3", or a range's first and
    last, "117.3–117.5"."""
    return numbers[0] if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"
