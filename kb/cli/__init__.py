"""The ``rulekb`` command line: one Click group, one module per area of commands.

Every command answers errors the same way: a one-line message naming the place it went
wrong (file:line, the rule, the nearest numbers) on stderr, and a non-zero exit code.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from kb.model import DocumentError
from kb.query import KnowledgeBase, QueryError
from kb.store import default_home

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT_SETTINGS)
@click.option("--home", type=click.Path(path_type=Path), envvar="RULEKB_HOME",
              help="Data directory of the built knowledge base (default: $RULEKB_HOME or "
                   "~/.local/share/rulekb).")
@click.version_option(package_name="rulekb")
@click.pass_context
def main(ctx: click.Context, home: Path | None) -> None:
    """rulekb: comprehensive rules as a cross-referenced, searchable knowledge base."""
    ctx.obj = {"home": home or default_home()}


def home_of(ctx: click.Context) -> Path:
    return ctx.find_root().obj["home"]


def open_kb(ctx: click.Context) -> KnowledgeBase:
    """The knowledge base in service, loaded once per command."""
    obj = ctx.find_root().obj
    if "kb" not in obj:
        obj["kb"] = KnowledgeBase.open(home_of(ctx))
    return obj["kb"]


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn the project's errors into clear messages and exit codes, never tracebacks."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except QueryError as exc:
            click.echo(f"error: {exc.message}", err=True)
            detail = exc.detail if isinstance(exc.detail, dict) else {}
            if detail.get("nearest"):
                click.echo("nearest: " + ", ".join(map(str, detail["nearest"])), err=True)
            sys.exit(1)
        except DocumentError as exc:
            for d in exc.diagnostics:
                click.echo(str(d), err=True)
            sys.exit(1)
    return wrapper


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


ruleset_option = click.option("--ruleset", "-r", default=None,
                              help="Ruleset name (default: riftbound, or the only one built).")
edition_option = click.option("--edition", "-e", default=None,
                              help="Edition name (default: the newest).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")

from kb.cli import rules as _rules  # noqa: E402,F401  (registers commands)
from kb.cli import serve as _serve  # noqa: E402,F401
from kb.cli import search as _search  # noqa: E402,F401
from kb.cli import cite as _cite  # noqa: E402,F401
from kb.cli import timing as _timing  # noqa: E402,F401
from kb.cli import editions as _editions  # noqa: E402,F401
from kb.cli import export as _export  # noqa: E402,F401
