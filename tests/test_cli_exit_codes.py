"""The CLI's one exit-code contract (kb.cli.app), the same for every command, so that a CI
script tells "your rulings are stale" from "the command was wrong":

0 answered, nothing to report; 1 answered, and what the command checks for was found;
2 the command could not answer (a usage error, an input it cannot read, the machine);
3 a bug in rulekb; 130 interrupted.

One table of commands × (ok, finding, error): a command that checks for nothing has no
finding, and every command has an error.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from kb.cli import EXIT_ERROR, EXIT_FINDING, EXIT_INTERNAL, EXIT_OK, main
from kb.query import KnowledgeBase

GOOD_ARTICLE = "---\nruleset: riftbound\nedition: '1.4'\n---\nSee rule 337.1.a.\n"
BROKEN_ARTICLE = "---\nruleset: riftbound\nedition: '1.4'\n---\nSee rule 337.9.\n"
SCENARIO = {"name": "A scenario.", "ruleset": "riftbound", "edition": "1.4", "players": ["Ann", "Bo"],
            "cards": {"Fireball": {"type": "spell"}}, "steps": [{"pass": "Ann"}]}
FAILING_SCENARIO = {**SCENARIO, "steps": [{"expect": {"priority": "Bo"}}]}

# (command, arguments that answer with nothing to report, that find what it checks for
#  (None: it checks for nothing), that it cannot answer); {files} is a folder of inputs
TABLE: list[tuple[str, str, str | None, str]] = [
    ("rulings check", "rulings check --ruleset mtg", "rulings check", "rulings check --ruleset bogus"),
    ("articles check", "articles check --ruleset riftbound", "articles check --ruleset mtg",
     "articles check --ruleset bogus"),
    ("link --check", "link {files}/good.md --check", "link {files}/broken.md --check",
     "link {files}/good.md --check --ruleset bogus"),
    ("timing run", "timing run {files}/good.yaml", "timing run {files}/failing.yaml",
     "timing run {files}/no-such-scenario.yaml"),
    ("timing check", "timing check --ruleset riftbound", None, "timing check --ruleset bogus"),
    ("rule", "rule 337.1a", None, "rule 999.9"),
    ("rule, an unknown edition", "rule 337.1a --edition 1.4", None, "rule 337.1a --edition 9.9"),
    ("rule, one of several unknown", "rule 337.1a 337.4", None, "rule 337.1a 999.9"),
    ("search", "search priority", None, "search '\"unbalanced'"),
    ("structure", "structure --ruleset mtg", None, "structure --ruleset bogus"),
    ("editions", "editions --ruleset mtg", None, "editions --ruleset mtg --date 1990-01-01"),
    ("diff", "diff --ruleset riftbound --from 1.3 --to 1.4 --summary", None,
     "diff --ruleset riftbound --from 1.3 --to 9.9"),
    ("history", "history 337.2", None, "history 999.9"),
    ("map", "map 116.3d --ruleset mtg --from 2010-10-01 --to 2026-01-16", None,
     "map 116.3d --ruleset mtg --from 2010-10-01 --to 1999"),
    ("rulings list", "rulings list", None, "rulings list --ruleset bogus"),
    ("rulings show", "rulings show riftbound-who-acts-after-finalizing", None, "rulings show no-such-ruling"),
    ("rulings search", "rulings search priority", None, "rulings search {blank}"),
    ("articles show", "articles show mtg-passing-priority", None, "articles show no-such-article"),
    ("timing list", "timing list", None, "timing list --no-such-option"),
    ("a usage error", "stats", None, "rule"),
    ("an unknown command", "stats", None, "no-such-command"),
]
CASES = [(name, outcome, args, code) for name, ok, finding, error in TABLE
         for outcome, args, code in (("ok", ok, EXIT_OK), ("finding", finding, EXIT_FINDING),
                                     ("error", error, EXIT_ERROR)) if args is not None]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("inputs")
    (folder / "good.md").write_text(GOOD_ARTICLE, encoding="utf-8")
    (folder / "broken.md").write_text(BROKEN_ARTICLE, encoding="utf-8")
    (folder / "good.yaml").write_text(yaml.safe_dump(SCENARIO), encoding="utf-8")
    (folder / "failing.yaml").write_text(yaml.safe_dump(FAILING_SCENARIO), encoding="utf-8")
    return folder


def run(home: Path, args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def words(args: str, files: Path) -> list[str]:
    """The arguments as a shell splits them (quotes kept together), inputs filled in."""
    return [w.format(files=files, blank=" ") if "{" in w else w for w in shlex.split(args)]


@pytest.mark.parametrize("name,outcome,args,code", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_exit_code_says_what_the_command_found(excerpt_home: Path, files: Path, name: str,
                                               outcome: str, args: str, code: int) -> None:
    exit_code, out, err = run(excerpt_home, words(args, files))
    assert exit_code == code, (args, out[-2000:], err[-2000:])
    assert "Traceback" not in out + err
    if outcome == "error":  # said on stderr, and nothing said it was a finding
        assert err.strip(), args


def test_json_output_keeps_the_exit_code(excerpt_home: Path) -> None:
    """--json changes what is printed, not what the exit says."""
    code, out, _ = run(excerpt_home, ["rulings", "check", "--json"])
    assert code == EXIT_FINDING and json.loads(out)["stale"] >= 1
    code, out, _ = run(excerpt_home, ["rulings", "check", "--ruleset", "bogus", "--json"])
    assert code == EXIT_ERROR and out == ""


@pytest.mark.parametrize("raised,code,said", [
    (RuntimeError("a bug"), EXIT_INTERNAL, "internal error in rulekb"),
    (KeyboardInterrupt(), 130, "interrupted"),
])
def test_a_bug_or_an_interrupt_is_never_read_as_a_finding(excerpt_home: Path, monkeypatch: pytest.MonkeyPatch,
                                                          raised: BaseException, code: int, said: str) -> None:
    def rule(*args: object, **kwargs: object) -> None:
        raise raised
    monkeypatch.setattr(KnowledgeBase, "rule", rule)
    exit_code, _, err = run(excerpt_home, ["rule", "337.1a"])
    assert exit_code == code and said in err
    if code == EXIT_INTERNAL:  # a bug says where it is
        assert "Traceback" in err and "RuntimeError: a bug" in err
