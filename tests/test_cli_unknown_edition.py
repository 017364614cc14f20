"""An unknown edition or ruleset on the command line lists what there is.

`rulekb rule 337.1a --edition 7.7` said "unknown edition '7.7' of riftbound" and no more,
while the site's 404 lists the editions. Every CLI command prints a QueryError in one place
(kb.cli.app.echo_query_error), which now adds the editions or rulesets the error's detail names,
as it adds the nearest rule numbers; one case a line, on the embedded build."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main

RIFTBOUND = "editions: 1.3, 1.4"
RULESETS = "rulesets: mtg, riftbound"

# (the command's words, the error's first line, the line listing what there is)
CASES = [
    (["rule", "337.1a", "--edition", "7.7"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["rule", "337.1a", "--ruleset", "chess"], "error: unknown ruleset 'chess'", RULESETS),
    (["rule", "337.1a", "--edition", "7.7", "--json"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["rule", "117.3", "-r", "mtg", "--edition", "2001-06-01"], "error: unknown edition '2001-06-01' of mtg",
     "editions: 2010-10-01, 2026-01-16"),
    (["structure", "--edition", "7.7"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["search", "priority", "--edition", "7.7"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["diff", "--from", "1.3", "--to", "7.7"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["map", "337.1a", "--from", "7.7", "--to", "1.4"], "error: unknown edition '7.7' of riftbound", RIFTBOUND),
    (["history", "337.1a", "--ruleset", "chess"], "error: unknown ruleset 'chess'", RULESETS),
    (["editions", "--ruleset", "chess"], "error: unknown ruleset 'chess'", RULESETS),
    (["rulings", "check", "--ruleset", "chess"], "error: unknown ruleset 'chess'", RULESETS),
]


@pytest.mark.parametrize("args, error, listed", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_an_unknown_edition_or_ruleset_lists_what_there_is(excerpt_home: Path, args: list[str], error: str,
                                                           listed: str) -> None:
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), *args])
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines[0] == error and listed in lines[1:], result.stderr
    assert "Traceback" not in result.output


def test_a_message_that_lists_the_editions_itself_is_not_followed_by_them_again(excerpt_home: Path,
                                                                                 tmp_path: Path) -> None:
    """The timing model's own message says "(editions: 1.4)": no second list."""
    state = tmp_path / "state.json"
    state.write_text("{}", encoding="utf-8")
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "next", "--edition", "9.9",
                                       "--state", str(state)])
    assert result.exit_code == 2 and "unknown edition '9.9' of riftbound (editions: " in result.stderr
    assert result.stderr.count("editions:") == 1, result.stderr
