"""The ``rulekb`` group and what every command shares: the data directory, the knowledge base
in service, one-line errors, JSON output and the common options.

The command modules (``kb/cli/rules.py``...) import from here and register their commands on
:data:`main`; :mod:`kb.cli` imports them all, so the package never imports a module that
imports it back.

Every command answers errors the same way (:func:`reported_errors`, applied once to the
whole group): a one-line message naming the place it went wrong (file:line, the rule, the
nearest numbers, the path or port) and what to do, on stderr, and exit code
:data:`EXIT_ERROR`, whichever the command. The exit codes are one contract for every
command, so that a CI script tells "your rulings are stale" from "the command was wrong":

* :data:`EXIT_OK` (0): the command answered and found nothing to report;
* :data:`EXIT_FINDING` (1): it answered, and what it checks for was found (a stale or
  broken citation, a failed expectation, a broken link);
* :data:`EXIT_ERROR` (2): it could not answer: a usage error (Click's own exit 2 too), an
  input it cannot read (an unknown ruleset, edition or rule, a malformed file), or a
  failure of the machine (a full disk, a port in use);
* :data:`EXIT_INTERNAL` (3): a bug in rulekb (its traceback is printed);
* 130: interrupted (Ctrl-C).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from kb.cli.params import EDITION_NAME, RULESET_NAME, PathType
from kb.model import DocumentError
from kb.query import KnowledgeBase, QueryError
from kb.store import default_home

EXIT_OK = 0  # answered: nothing to report
EXIT_FINDING = 1  # answered: what the command checks for was found (stale, broken, failed)
EXIT_ERROR = 2  # could not answer: the command line, an input or the machine was wrong
EXIT_INTERNAL = 3  # could not answer: a bug in rulekb
EXIT_INTERRUPTED = 130  # Ctrl-C, as a shell reports a process that SIGINT ended

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
USE_ANOTHER_HOME = "--home DIR or RULEKB_HOME=DIR"


class CommandError(Exception):
    """A failure a command reports itself: printed as ``error: <message>``, exit
    :data:`EXIT_ERROR`."""


def os_error_message(exc: OSError, home: Path | None = None) -> str:
    """One line for an operating-system failure: what failed, where, and what to do.

    A failure without a file name (a write on a full disk) happened in the data directory,
    the only place rulekb writes to unasked.
    """
    path = exc.filename if exc.filename is not None else home
    in_home = exc.filename is None or (home is not None and (
        Path(path) == Path(home) or Path(home) in Path(path).parents))
    where = f" {path}" if path is not None else ""
    reason = exc.strerror or str(exc) or type(exc).__name__
    elsewhere = (f"use a data directory elsewhere ({USE_ANOTHER_HOME})" if in_home
                 else "choose another place")
    code = exc.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        return f"no space left on the disk of{where} ({reason}): free some space, or {elsewhere}"
    if code == errno.EROFS:
        return f"cannot write to{where}: the file system is read-only; {elsewhere}"
    if code in (errno.EACCES, errno.EPERM):
        if in_home:
            return (f"cannot write to the data directory{where} ({reason}): fix its permissions, "
                    f"or {elsewhere}")
        return f"permission denied:{where}: check its permissions"
    if code == errno.ENOENT:
        return f"no such file or directory:{where}"
    if code in (errno.ENOTDIR, errno.EEXIST) and in_home and home is not None:
        return f"the data directory {home} is not a folder ({path}: {reason}): {elsewhere}"
    return f"{path}: {reason}" if path is not None else reason


def echo_query_error(exc: QueryError) -> None:
    """Print a QueryError as the CLI shows every one: the message, then the nearest numbers."""
    detail = exc.detail if isinstance(exc.detail, dict) else {}
    others = [o["ruleset"] for o in detail.get("other_rulesets") or [] if isinstance(o, dict)]
    # a number another ruleset has (KnowledgeBase.with_other_rulesets): how to ask it there
    hint = f"; try {' or '.join(f'--ruleset {name}' for name in others)}" if others else ""
    if detail.get("named_ruleset") and others:  # a prefix naming another ruleset (KnowledgeBase.check_prefix)
        hint = f"; try rulekb rule {detail['other_rulesets'][0]['number']} --ruleset {detail['named_ruleset']}"
    click.echo(f"error: {exc.message}{hint}", err=True)
    if detail.get("nearest"):
        click.echo("nearest: " + ", ".join(map(str, detail["nearest"])), err=True)
    for known in ("rulesets", "editions"):  # an unknown one: the names there are, as the site's 404 lists them
        names = detail.get(known)
        if (exc.status == 404 and names and isinstance(names, list) and all(isinstance(n, str) for n in names)
                and f"{known}:" not in exc.message):
            click.echo(f"{known}: " + ", ".join(names), err=True)
    if detail.get("partial") and detail.get("edition") and "number" in detail:
        click.echo(f"this edition is an excerpt, so the rule may exist in the full document: import it "
                   f"as this edition (rulekb import FILE --ruleset RULESET --edition {detail['edition']})", err=True)


@contextlib.contextmanager
def reported_errors(ctx: click.Context | None = None) -> Iterator[None]:
    """Turn the project's and the operating system's errors into one-line messages and exit
    :data:`EXIT_ERROR`, never tracebacks (``ctx`` names the data directory an OSError
    happened in); a bug prints its traceback and exits :data:`EXIT_INTERNAL`, Ctrl-C exits
    :data:`EXIT_INTERRUPTED`. Click's own exits and usage errors pass through unchanged."""
    try:
        yield
    except QueryError as exc:
        echo_query_error(exc)
        sys.exit(EXIT_ERROR)
    except DocumentError as exc:
        for d in exc.diagnostics:
            click.echo(str(d), err=True)
        sys.exit(EXIT_ERROR)
    except CommandError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(EXIT_ERROR)
    except BrokenPipeError:  # the reader went away (`rulekb … | head`): nothing to say
        try:  # so that the interpreter's final flush does not fail again
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        sys.exit(EXIT_ERROR)
    except OSError as exc:
        obj = ctx.find_root().obj if ctx is not None else None
        home = obj.get("home") if isinstance(obj, dict) else None
        click.echo(f"error: {os_error_message(exc, home)}", err=True)
        sys.exit(EXIT_ERROR)
    except (click.exceptions.Exit, click.ClickException, click.Abort):
        raise  # Click's exit codes: a command's ctx.exit(N), a usage error's 2
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except Exception:  # a bug: say so, with what a report needs, and keep exit 1 for findings
        click.echo(traceback.format_exc().rstrip(), err=True)
        click.echo("error: internal error in rulekb (a bug: the traceback above says where); "
                   "please report it", err=True)
        sys.exit(EXIT_INTERNAL)


# Which module registers each command on :data:`main`. A command's module is imported when
# the command is run (or every one, for the group's --help and the README's reference): a
# judge's `rulekb rule 337.2` does not load the rulings' BM25, the citation finder or the
# site's exporter (bench/cli_startup.py). A new command module is listed here.
COMMAND_MODULES: dict[str, str] = {
    "import": "kb.cli.rules", "build": "kb.cli.rules", "rule": "kb.cli.rules",
    "structure": "kb.cli.rules", "stats": "kb.cli.rules", "editions": "kb.cli.rules",
    "serve": "kb.cli.serve", "search": "kb.cli.search", "link": "kb.cli.cite",
    "timing": "kb.cli.timing", "diff": "kb.cli.editions", "history": "kb.cli.editions",
    "map": "kb.cli.editions", "export": "kb.cli.export", "rulings": "kb.cli.records",
    "articles": "kb.cli.records", "cards": "kb.cli.cards",
}


class RulekbGroup(click.Group):
    """The root group: every command's errors go through :func:`reported_errors`; each
    command's module is imported when the command is first asked for (:data:`COMMAND_MODULES`)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named, importing the module that registers it the first time."""
        if cmd_name not in self.commands and cmd_name in COMMAND_MODULES:
            importlib.import_module(COMMAND_MODULES[cmd_name])
        return super().get_command(ctx, cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name (importing every command module: the group's --help lists them)."""
        for module in dict.fromkeys(COMMAND_MODULES.values()):
            importlib.import_module(module)
        return super().list_commands(ctx)

    def invoke(self, ctx: click.Context) -> Any:
        with reported_errors(ctx):
            return super().invoke(ctx)


@click.group(cls=RulekbGroup, context_settings=CONTEXT_SETTINGS)
@click.option("--home", type=PathType(path_type=Path), envvar="RULEKB_HOME",
              help="Data directory of the built knowledge base. Default: $RULEKB_HOME; else, "
                   "when rulekb runs from a source checkout (as `make run` installs it), that "
                   "checkout's .rulekb/; else ~/.local/share/rulekb.")
@click.version_option(package_name="rulekb")
@click.pass_context
def main(ctx: click.Context, home: Path | None) -> None:
    """rulekb: comprehensive rules as a cross-referenced, searchable knowledge base.

    \b
    Exit codes, the same for every command:
      0  answered, nothing to report
      1  answered, and found what it checks for (a stale or broken citation, a failed
         expectation, a broken link)
      2  could not answer: a usage error, an input it cannot read (unknown ruleset,
         edition, rule or id, a malformed file) or a failure of the machine (disk, port)
      3  a bug in rulekb (its traceback is printed)
    """
    ctx.obj = {"home": home or default_home()}


def home_of(ctx: click.Context) -> Path:
    return ctx.find_root().obj["home"]


def open_kb(ctx: click.Context) -> KnowledgeBase:
    """The knowledge base in service, loaded once per command."""
    obj = ctx.find_root().obj
    if "kb" not in obj:
        home = home_of(ctx)
        if home.exists() and not home.is_dir():  # else "no knowledge base is built in" a file
            raise CommandError(f"the data directory {home} is not a folder: use a data directory elsewhere "
                               f"({USE_ANOTHER_HOME})")
        obj["kb"] = KnowledgeBase.open(home)
    return obj["kb"]


def handle_errors(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Report a command's errors as one line (:func:`reported_errors`), also when the command
    is called outside the ``rulekb`` group."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with reported_errors(click.get_current_context(silent=True)):
            return fn(*args, **kwargs)
    return wrapper


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and the noun agreeing with it: "1 edition", "2 editions", "0 reader notes"."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"


def emit_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


ruleset_option = click.option("--ruleset", "-r", default=None, type=RULESET_NAME,
                              help="Ruleset name (default: riftbound, or the only one built).")
edition_option = click.option("--edition", "-e", default=None, type=EDITION_NAME,
                              help="Edition name (default: the newest full edition).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON.")
