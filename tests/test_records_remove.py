"""``rulekb rulings remove`` and ``rulekb articles remove`` (kb/records/store.py, kb/cli/records.py).

A maintainer who imported a wrong ruling (the acceptance run imported 3,000 by mistake)
had no command to take it out again, only the data home's files to delete by hand. The
commands of the table are one sequence, run in order by one test in a home of its own that
imported the test corpus (xdist splitting the rows between workers broke the sequence):
an id removed is gone from the list and from every rule's ``cited_by``; an id not imported,
or a sample of rules/records/, is an error naming it, and nothing is removed then.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_home
from kb.cli import main
from kb.store import build

CORPUS = Path(__file__).parent / "fixtures" / "records"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("records-remove")
    build(home)
    for kind, folder in (("rulings", "rulings"), ("articles", "articles")):
        verb = "import" if kind == "rulings" else "add"
        code, out = run(home, kind, verb, str(CORPUS / folder), "--no-build")
        assert code == 0, out
    build(home)
    return home


@pytest.fixture()
def home(imported: Path, tmp_path: Path) -> Path:
    """A copy of the imported home, this test's own to remove from."""
    return copy_home(imported, tmp_path / "home")


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


# args, exit code, words the output holds, words it must not hold
COMMANDS = [
    (["rulings", "list"], 0, "riftbound-passing-priority", ""),
    (["rulings", "remove", "riftbound-passing-priority"], 0, "1 ruling removed; 8 stored", ""),
    (["rulings", "list"], 0, "mtg-legend-rule", "riftbound-passing-priority"),
    (["rulings", "remove", "riftbound-passing-priority"], 2, "no ruling 'riftbound-passing-priority' in ", ""),
    (["rulings", "remove", "riftbound-who-acts-after-finalizing"], 2,
     "'riftbound-who-acts-after-finalizing' is a sample shipped with rulekb", ""),
    (["rulings", "remove", "mtg-legend-rule", "no-such-ruling"], 2, "no ruling 'no-such-ruling'", "removed ruling"),
    (["rulings", "list"], 0, "mtg-legend-rule", ""),  # nothing was removed by the failed command
    (["rulings", "remove", "mtg-legend-rule", "mtg-legend-rule", "--no-build"], 0, "1 ruling removed; 7 stored", ""),
    (["articles", "remove", "mtg-priority-primer"], 0, "removed article mtg-priority-primer (mtg-priority-primer.md)", ""),
    (["articles", "list"], 0, "riftbound-chain-walkthrough", "mtg-priority-primer"),
    (["articles", "remove", "../../etc/passwd"], 2, "no article '../../etc/passwd'", ""),
]


def test_remove(home: Path) -> None:
    for step, (args, code, words, absent) in enumerate(COMMANDS, 1):
        got, out = run(home, *args)
        assert got == code, (step, args, out)
        assert words in out, (step, args, out)
        assert not absent or absent not in out, (step, args, out)


def test_a_removed_ruling_cites_no_rule(home: Path) -> None:
    for ident in ("riftbound-passing-priority", "mtg-legend-rule"):
        assert run(home, "rulings", "remove", ident, "--no-build")[0] == 0
    build(home)
    code, out = run(home, "rule", "338.1.b", "--ruleset", "riftbound", "--edition", "1.4", "--json")
    assert code == 0
    cited = {r["id"] for r in json.loads(out)["cited_by"]["records"]}
    assert "riftbound-passing-priority" not in cited
    code, out = run(home, "rule", "704.5j", "--ruleset", "mtg", "--edition", "2026-01-16", "--json")
    assert "mtg-legend-rule" not in {r["id"] for r in json.loads(out)["cited_by"]["records"]}
