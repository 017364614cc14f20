"""The default edition is the newest FULL edition: an excerpt is read only when named while its
ruleset has a full edition (a search, a rule answer, the site's home and "in force on a day"
read the full editions; an excerpt is the default only in a ruleset of excerpts only). Feed
entries to or from an excerpt say so in their title; ``rulekb build`` and ``stats`` name the
excerpts left beside full editions and how to replace one. The documents are our own, in the
Riftbound Markdown layout; one case a line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.cli.rules import excerpt_lines
from kb.graph import build_edition
from kb.query import KnowledgeBase
from kb.read import read_text
from web import create_app

DOC = """# Test Core Rules

Test Core Rules
Last Updated: {date}


## 100. Game Concepts


### 101. Players


**101.1.** A game is played by two or more players, each with their own deck.

**101.2.** A player who has no cards left to draw loses the game at the next check.
{more}"""
MORE = """
### 102. Turns


**102.1.** Each turn has a beginning phase, a main phase and an ending phase.

**102.2.** The turn player acts first in each phase of their turn.
"""


def document(date: str, partial: bool) -> str:
    """A whole document, or an excerpt of it (without section 102)."""
    return DOC.format(date=date, more="" if partial else MORE)


def knowledge_base(editions: list[tuple[str, str, bool]]) -> KnowledgeBase:
    """Editions (name, date, partial) of the ruleset ``test``, held in memory."""
    return KnowledgeBase.from_graphs([
        build_edition(read_text(document(date, partial), f"{name}.md"), ruleset="test", edition=name,
                      date=date, partial=partial) for name, date, partial in editions])


F, X = False, True  # a full edition, an excerpt
# (editions: name, date, partial; the default; the edition in force on 2026-06-01; passed over)
CASES = [
    ([("1.0", "2026-01-01", X), ("1.1", "2026-05-01", X)], "1.1", "1.1", []),
    ([("1.0", "2026-01-01", F), ("1.1", "2026-05-01", X)], "1.0", "1.0", ["1.1"]),
    ([("1.0", "2026-01-01", X), ("1.1", "2026-05-01", F)], "1.1", "1.1", ["1.0"]),
    ([("1.0", "2026-01-01", F), ("1.1", "2026-05-01", X), ("1.2", "2026-09-01", F)], "1.2", "1.0", ["1.1"]),
    ([("1.0", "2026-01-01", F), ("1.1", "2026-05-01", F), ("1.2", "2026-09-01", X)], "1.1", "1.1", ["1.2"]),
    ([("1.0", "2026-01-01", X), ("1.1", "2026-09-01", F)], "1.1", "1.0", ["1.0"]),
]


@pytest.mark.parametrize("editions, default, in_force, passed_over", CASES)
def test_the_default_is_the_newest_full_edition(editions: list, default: str, in_force: str,
                                                 passed_over: list[str]) -> None:
    kb = knowledge_base(editions)
    assert kb.default_edition("test")["edition"] == default
    assert kb.edition("test").edition.name == default
    assert kb.in_force("test", "2026-06-01")["edition"] == in_force
    assert kb.edition("test", date="2026-06-01").edition.name == in_force
    assert kb.excerpts_passed_over("test") == passed_over
    for name, _, _ in editions:  # every edition is still reachable by name
        assert kb.edition("test", name).edition.name == name


@pytest.mark.parametrize("editions, default, in_force, passed_over", CASES)
def test_search_and_rule_answers_read_the_default(editions: list, default: str, in_force: str,
                                                  passed_over: list[str]) -> None:
    client = create_app(kb=knowledge_base(editions)).test_client()
    found = client.get("/api/v1/search?q=players&ruleset=test").get_json()
    assert found["edition"] == default
    rule = client.get("/api/v1/rulesets/test/rules/101.1").get_json()
    assert rule["edition"] == default
    assert client.get("/test/").headers["Location"].endswith(f"/test/{default}/")


# (editions, the titles of the feed's entries, newest first)
FEEDS = [
    ([("1.0", "2026-01-01", F), ("1.1", "2026-05-01", X)], ["test 1.1 (excerpt): 3 removed"]),
    ([("1.0", "2026-01-01", X), ("1.1", "2026-05-01", F)], ["test 1.1: 3 added (from the excerpt 1.0)"]),
    ([("1.0", "2026-01-01", F), ("1.1", "2026-05-01", X), ("1.2", "2026-09-01", F)],
     ["test 1.2: 3 added (from the excerpt 1.1)", "test 1.1 (excerpt): 3 removed"]),
]


@pytest.mark.parametrize("editions, titles", FEEDS)
def test_a_feed_entry_to_or_from_an_excerpt_says_so_in_its_title(editions: list, titles: list[str]) -> None:
    client = create_app(kb=knowledge_base(editions)).test_client()
    feed = client.get("/api/v1/rulesets/test/changes.atom").get_data(as_text=True)
    assert re.findall(r"<title>([^<]*)</title>", feed)[1:] == titles


# (summaries of a build's editions, the lines build and stats print about excerpts)
SUMMARIES = [
    ([("a", "1.0", "2026-01-01", X), ("a", "1.1", "2026-02-01", X)], []),
    ([("a", "1.0", "2026-01-01", F), ("a", "1.1", "2026-02-01", X), ("b", "2", "2026-01-01", X)],
     ["a: 1 excerpt (1.1) beside full editions, read only when named (the default is the newest full "
      "edition, 1.0): import the official document under the same name to replace one (rulekb import "
      "FILE --ruleset a --edition 1.1)"]),
    ([("a", "3", "2026-03-01", X), ("a", "1", "2026-01-01", X), ("a", "2", "2026-02-01", F)],
     ["a: 2 excerpts (1, 3) beside full editions, read only when named (the default is the newest full "
      "edition, 2): import the official document under the same name to replace one (rulekb import "
      "FILE --ruleset a --edition 3)"]),
]


@pytest.mark.parametrize("summaries, lines", SUMMARIES)
def test_the_excerpts_left_beside_full_editions_are_named(summaries: list, lines: list[str]) -> None:
    assert excerpt_lines([{"ruleset": r, "edition": e, "date": d, "partial": p}
                          for r, e, d, p in summaries]) == lines


def test_build_and_stats_name_the_excerpt_and_how_to_replace_it(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "no-rules").mkdir()
    monkeypatch.setenv("RULEKB_RULES", str(tmp_path / "no-rules"))
    home = ["--home", str(tmp_path / "home")]
    runner = CliRunner()
    for name, date, partial in [("1.0", "2026-01-01", F), ("1.1", "2026-05-01", X)]:
        doc = tmp_path / f"{name}.md"
        doc.write_text(document(date, partial), encoding="utf-8")
        out = runner.invoke(main, [*home, "import", str(doc), "-r", "test", "-e", name, "--no-build",
                                   *(["--partial"] if partial else [])])
        assert out.exit_code == 0, out.output
    said = "test: 1 excerpt (1.1) beside full editions, read only when named"
    built = runner.invoke(main, [*home, "build"])
    assert built.exit_code == 0 and said in built.output, built.output
    stats = runner.invoke(main, [*home, "stats"])
    assert stats.exit_code == 0 and said in stats.output and "--edition 1.1)" in stats.output
    rule = runner.invoke(main, [*home, "rule", "102.1", "-r", "test"])  # the full 1.0 has it
    assert rule.exit_code == 0 and "phase" in rule.output, rule.output
