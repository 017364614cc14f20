"""The CLI reference in README.md, generated from the commands themselves (run by cog).

``cog -r README.md`` rewrites the reference; ``tests/test_cli_docs.py`` fails when the
README and the commands disagree, so the reference cannot go stale.
"""

from __future__ import annotations

import click
from click.testing import CliRunner

from kb.cli import main


def command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path under a group, sorted (``("timing", "run")`` …)."""
    paths: list[tuple[str, ...]] = []
    ctx = click.Context(group)
    for name in sorted(group.list_commands(ctx)):
        cmd = group.get_command(ctx, name)
        if cmd is None or cmd.hidden:
            continue
        paths.append(prefix + (name,))
        if isinstance(cmd, click.Group):
            paths.extend(command_paths(cmd, prefix + (name,)))
    return paths


def reference_markdown() -> str:
    """One ``### rulekb …`` heading and the ``--help`` text per command."""
    runner = CliRunner()
    out = []
    for path in [()] + command_paths(main):
        result = runner.invoke(main, [*path, "--help"], terminal_width=100, prog_name="rulekb")
        out.append(f"### rulekb {' '.join(path)}".rstrip() + "\n\n```\n" + result.output.rstrip() + "\n```\n")
    return "\n".join(out)
