"""``rulekb rulings …`` and ``rulekb articles …`` (issue #20), in a data home of their own.

The commands run against one home into which the test corpus was imported first (by the
fixture: each row holds whatever order, or worker, runs it; the rows importing import the
same corpus again); ``check`` exits 1 while a cited rule changed.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_home
from kb.cli import main

CORPUS = Path(__file__).parent / "fixtures" / "records"


@pytest.fixture(scope="module")
def home(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A home of the module's own with the embedded build in service (a copy of the
    session's, instead of building the corpus again), the test corpus imported."""
    home = copy_home(excerpt_home, tmp_path_factory.mktemp("records-home"))
    for args in (["rulings", "import", str(CORPUS / "rulings"), "--no-build"],
                 ["articles", "add", str(CORPUS / "articles")]):
        code, out = run(home, *args)
        assert code == 0, out
    return home


def run(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


# args (CORPUS/ is the test corpus), exit code, words the output holds
COMMANDS = [
    (["rulings", "import", "CORPUS/rulings"], 0, "8 rulings imported"),
    (["rulings", "import", "CORPUS/rulings/mtg-legend-rule.yaml"], 0, "replaced ruling mtg-legend-rule"),
    (["rulings", "import", "CORPUS/rulings/mtg-legend-rule.yaml"], 0, "\n1 ruling imported; "),
    (["articles", "add", "CORPUS/articles"], 0, "2 articles imported"),
    (["articles", "add", "CORPUS/articles"], 0, "replaced article mtg-priority-primer (mtg 2010-10-01)"),
    (["articles", "add", "CORPUS/articles"], 0, "articles/mtg-priority-primer.md:4: warning: front matter key 'rules'"),
    (["rulings", "list"], 0, "riftbound-passing-priority  riftbound 1.3  stale (changed: 338.1.c)"),
    (["rulings", "list", "--stale", "--ruleset", "mtg"], 0, "mtg-priority-after-casting"),
    (["rulings", "check"], 1, "rule 338.1.c of 1.3 is rule 338.1.b in 1.4"),
    (["rulings", "check"], 1, "renumbered: ruling mtg-legend-rule: CR 704.5k: rule 704.5k of 2010-10-01 is rule 704.5j in 2026-01-16 and reworded"),
    (["rulings", "check"], 1, "reworded: ruling riftbound-finalizing-keeps-priority: rule 337.1.a: rule 337.1.a was reworded in 1.4: "),
    (["rulings", "check", "--ruleset", "nonesuch"], 2, "unknown ruleset 'nonesuch'"),
    (["articles", "check"], 1, "mtg-priority-primer.md:8: renumbered: article mtg-priority-primer: CR 116.1a"),
    (["articles", "list", "--ruleset", "riftbound"], 0, "riftbound-chain-walkthrough  riftbound 1.3  stale"),
    (["articles", "list", "--ruleset", "riftbound"], 0, "\n1 article, 1 stale, "),
    (["rulings", "search", "two legendary creatures with the same name"], 0, "mtg-legend-rule"),
    (["rulings", "search", "   "], 2, "the ruling search needs words"),
    (["search", "my opponent moved a unit onto my battlefield, when do I lose control"], 0,
     "cited by ruling riftbound-holding-a-battlefield: 'My opponent moved a unit onto my battlefield; "
     "when do I lose control of it?'"),
    (["rulings", "show", "riftbound-passing-priority"], 0, "rule 338.1.c: renumbered → 338.1.b"),
    (["rulings", "show", "riftbound-standard-move-closed-state"], 0, "rule 144.1.b: ok"),
    (["rulings", "show", "no-such-ruling"], 2, "no ruling 'no-such-ruling'"),
    (["rule", "190.3"], 0, "cited by 1 ruling, 1 article: riftbound-holding-a-battlefield (as 187.3 of 1.3)"),
    (["articles", "show", "mtg-priority-primer"], 0, "written for mtg 2010-10-01"),
    (["rulings", "import", "CORPUS/articles/mtg-priority-primer.md"], 2, "field 'question' is missing"),
    (["articles", "add", "CORPUS/rulings/mtg-legend-rule.yaml"], 2, "is not an article file"),
]


@pytest.mark.parametrize("args,code,words", COMMANDS, ids=[" ".join(c[0]) for c in COMMANDS])
def test_records_command(home: Path, args: list[str], code: int, words: str) -> None:
    exit_code, out = run(home, *[a.replace("CORPUS", str(CORPUS)) for a in args])
    assert exit_code == code, out
    assert words in out, out
    assert "Traceback" not in out


def test_the_stale_lines_of_check_name_every_changed_citation(home: Path) -> None:
    run(home, "rulings", "import", str(CORPUS / "rulings"))
    _, out = run(home, "rulings", "check", "--json")
    data = json.loads(out)
    stale = sorted((r["id"], c["number"], c["status"]) for r in data["records"] for c in r["citations"]
                   if c["status"] != "ok")
    assert ("riftbound-passing-priority", "338.1.c", "renumbered") in stale
    assert ("mtg-legend-rule", "704.5k", "renumbered") in stale
    assert not any(n in ("144.1.b", "144.2", "704.5f", "704.5i", "340.2", "339") for _, n, _ in stale)


def test_rule_json_carries_cited_by(home: Path) -> None:
    code, out = run(home, "rule", "190.3", "--json")
    cited = json.loads(out)["cited_by"]
    assert (code, cited["rulings"], cited["articles"]) == (0, 1, 1)
    assert {r["cited_as"] for r in cited["records"]} == {"187.3"}


def test_check_exits_0_when_nothing_cited_changed(own_home: Path) -> None:
    home = own_home  # the embedded build in service, a copy of the session's
    code, out = run(home, "rulings", "import", str(CORPUS / "rulings" / "mtg-zero-toughness.md"))
    assert code == 0, out
    code, out = run(home, "rulings", "check", "--ruleset", "mtg")
    assert code == 0 and "0 stale rulings" in out, out


def test_a_bad_file_in_a_folder_imports_nothing(own_home: Path, tmp_path: Path) -> None:
    home = own_home  # the embedded build in service, a copy of the session's
    folder = tmp_path / "rulings"
    shutil.copytree(CORPUS / "rulings", folder)
    (folder / "zz-broken.yaml").write_text("id: zz\nquestion: [\n", encoding="utf-8")
    code, out = run(home, "rulings", "import", str(folder))
    assert code == 2 and "zz-broken.yaml" in out and "not valid YAML" in out
    assert not (home / "records").exists()


def test_check_fails_on_an_article_whose_ruleset_cannot_be_told(own_home: Path, tmp_path: Path) -> None:
    home = own_home  # the embedded build in service, a copy of the session's
    article = tmp_path / "vague.md"
    article.write_text("# Vague\n\nAs rule 999.9 says.\n", encoding="utf-8")
    code, out = run(home, "articles", "add", str(article))
    assert code == 0 and "cannot tell which ruleset" in out, out
    code, out = run(home, "articles", "check")
    assert code == 1 and "unread: article vague" in out and "1 whose citations could not be read" in out, out
