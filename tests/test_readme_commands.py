"""Every `rulekb …` command the README's usage shows works, as written, on the default build.

The README is the source (as with the CLI reference in test_cli_docs.py): the ```sh blocks of
"Using it" are run against the embedded excerpts, in a temporary data home and a temporary
working folder holding the user's files the commands name (a scenario, a state, articles),
each made from real output or real citations. A command exits 0 unless its README comment
says ``exits N when …``: then 0 or N. The import block runs the README's imports of the
official documents, when ../shared has them.
"""

from __future__ import annotations

import glob
import json
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.export import check_site
from tests.conftest import CORPORA, REPO, SKIP_REASON, copy_home, shared_available

README = REPO / "README.md"
_FENCE = re.compile(r"^```sh\n(.*?)^```", re.M | re.S)
_EXPECTED_EXIT = re.compile(r"#.*\bexits (\d+) when\b")
# The official documents the README's import block names, and where ../shared keeps each.
OFFICIAL = {
    "core-rules-2026-07-16.md": "riftbound/core-rules-2026-07-16.md",
    "core-rules-2026-03-30.md": "riftbound/core-rules-2026-03-30.md",
    "MagicCompRules-20260116.txt": "mtg/comprehensive-rules-2026-01-16.txt",
    "MagicCompRules-20101001.txt": "mtg/comprehensive-rules-2010-10-01.txt",
}


@dataclass(frozen=True)
class Command:
    line: str  # as the README writes it
    args: tuple[str, ...]  # after `rulekb`, before glob expansion
    allowed: frozenset[int]  # exit codes the README documents


def section(text: str, heading: str) -> str:
    """The README text under a ``## heading`` up to the next ``## ``."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end != -1 else len(text)]


def commands(text: str) -> list[Command]:
    """Every ``rulekb`` command line of the ```sh blocks in ``text``."""
    out = []
    for block in _FENCE.findall(text):
        for line in block.splitlines():
            words = shlex.split(line, comments=True)
            if not words or words[0] != "rulekb":
                continue
            marked = _EXPECTED_EXIT.search(line)
            allowed = frozenset({0, int(marked.group(1))} if marked else {0})
            out.append(Command(line.strip(), tuple(words[1:]), allowed))
    return out


_TEXT = README.read_text(encoding="utf-8")
USAGE = commands(section(_TEXT, "Using it"))
IMPORTS = commands(section(_TEXT, "The default corpus and importing full documents"))


def test_the_readme_shows_the_commands_this_test_runs() -> None:
    """The parsing found the usage examples (an empty list would make every test pass)."""
    shown = {c.args[0] for c in USAGE}
    assert {"rule", "structure", "stats", "search", "timing", "link", "diff", "history", "map",
            "export"} <= shown
    assert len(USAGE) >= 20
    assert [c.args[0] for c in IMPORTS] == ["import"] * 4
    assert any(c.allowed == {0, 1} for c in USAGE if c.args[:2] == ("link", "articles/*.md"))


def invoke(args: list[str], home: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, args, env={"RULEKB_HOME": str(home)})
    output = result.output
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, output


ARTICLE_MAGIC = """---
ruleset: mtg
edition: 2010-10-01
---
# Priority

Players receive priority to cast spells and activate abilities [CR 116.1]. A player who passes
lets the next player in turn order receive priority (CR 116.3d); when all pass in succession
with an empty stack, the phase or step ends (see rule 116.4).
"""

# A citation that does not exist: what `link --check` is for.
ARTICLE_STALE = """---
ruleset: riftbound
edition: "1.4"
---
Finalizing an item does not pass Priority (rule 337.1.a), but rule 337.9 does not exist.
"""


@pytest.fixture(scope="module")
def readme_home(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The README user's data directory, a copy of the session's build: the usage commands
    import rulings and articles into it, and the session's home serves this worker's other
    test files (a Riftbound search there once found these rulings)."""
    return copy_home(excerpt_home, tmp_path_factory.mktemp("readme-home") / "home")


@pytest.fixture(scope="module")
def workdir(readme_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user's folder: the files the README's commands name, made from real material."""
    work = tmp_path_factory.mktemp("readme-user")
    scenario = REPO / "kb" / "timing" / "scenarios" / "riftbound" / "000-your-own-spell-starts-the-chain.yaml"
    shutil.copy(scenario, work / "my-scenario.yaml")
    code, out = invoke(["timing", "run", str(scenario), "--json"], readme_home)
    assert code == 0, out
    frames = [f for f in json.loads(out)["frames"] if f.get("state")]
    (work / "state.json").write_text(json.dumps(frames[len(frames) // 2]["state"]), encoding="utf-8")
    lesson = REPO / "tests" / "fixtures" / "cite" / "lesson-passing-and-resolving.md"
    shutil.copy(lesson, work / "article.md")
    (work / "articles").mkdir()
    shutil.copy(REPO / "tests" / "fixtures" / "cite" / "lesson-combat-showdown.md", work / "articles" / "combat.md")
    (work / "articles" / "priority.md").write_text(ARTICLE_MAGIC, encoding="utf-8")
    (work / "articles" / "stale.md").write_text(ARTICLE_STALE, encoding="utf-8")
    shutil.copytree(REPO / "tests" / "fixtures" / "records" / "rulings", work / "rulings")
    return work


def expand(args: tuple[str, ...]) -> list[str]:
    """What a shell makes of the words: ``articles/*.md`` becomes the files (sorted)."""
    out: list[str] = []
    for word in args:
        out.extend(sorted(glob.glob(word)) or [word] if any(ch in word for ch in "*?[") else [word])
    return out


@pytest.mark.parametrize("command", USAGE, ids=[c.line.split("#")[0].strip() for c in USAGE])
def test_readme_usage_command_works_on_the_default_build(command: Command, workdir: Path,
                                                          readme_home: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(workdir)
    code, out = invoke(expand(command.args), readme_home)
    assert code in command.allowed, f"{command.line}\nexit {code}:\n{out[-3000:]}"
    assert "Traceback" not in out and "unknown ruleset" not in out
    assert out.strip(), "every command prints something"


def test_link_check_reports_the_broken_citation(workdir: Path, readme_home: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The articles hold one citation that does not exist: the lint's documented exit 1."""
    monkeypatch.chdir(workdir)
    code, out = invoke(["link", *sorted(glob.glob("articles/*.md")), "--check"], readme_home)
    assert code == 1 and "337.9" in out and "stale.md:5:" in out and "not_found" in out


def test_the_judge_pack_holds_both_rulesets(workdir: Path, readme_home: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs after the usage commands (file order): `export judge-pack/ …` wrote it here,
    unless that command ran on another test worker (pytest-xdist): then it runs here."""
    pack = workdir / "judge-pack"
    if not pack.is_dir():
        monkeypatch.chdir(workdir)
        export = next(c for c in USAGE if c.args[:2] == ("export", "judge-pack/"))
        code, out = invoke(expand(export.args), readme_home)
        assert code in export.allowed, f"{export.line}\nexit {code}:\n{out[-3000:]}"
    for ruleset, edition in (("riftbound", "1.3"), ("riftbound", "1.4"), ("mtg", "2010-10-01"),
                             ("mtg", "2026-01-16")):
        assert (pack / ruleset / edition / "index.html").is_file(), (ruleset, edition)
    # the pack of a fresh data directory's editions, as the command opens them (the CLI's
    # own test exports a small build it is handed): every link resolves
    checked, problems = check_site(pack)
    assert problems == [] and checked > 1000


@pytest.mark.skipif(not shared_available(), reason=SKIP_REASON)
def test_readme_imports_of_the_official_documents(own_home: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The import block, in order, into a home with the embedded build in service (what
    `make run` leaves; a copy of the session's): each replaces its excerpt."""
    monkeypatch.chdir(tmp_path)
    for name, rel in OFFICIAL.items():
        shutil.copyfile(CORPORA / rel, tmp_path / name)  # a symbolic link is refused by import
    home = own_home
    for command in IMPORTS:
        code, out = invoke(expand(command.args), home)
        assert code in command.allowed, f"{command.line}\nexit {code}:\n{out[-3000:]}"
    code, out = invoke(["stats", "--json"], home)
    editions = {(e["ruleset"], e["edition"]): e["partial"] for e in json.loads(out)}
    assert editions == {("riftbound", "1.3"): False, ("riftbound", "1.4"): False,
                        ("mtg", "2010-10-01"): False, ("mtg", "2026-01-16"): False}
