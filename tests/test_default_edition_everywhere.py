"""The default edition is the newest FULL edition everywhere a default is chosen, not only in a
search and a rule answer (tests/test_default_edition_full.py): records' staleness and the
edition a prefixed citation is read in, the API's ``newest`` fields, the site's rule page
notice, search page and home, a rule's history, the offline pack's edition-less address and
the CLI's help. A tmp home holds the official Riftbound 1.3 document (../shared) imported
beside the repository's 1.4 excerpt, so the newest edition by date is the excerpt and the
default is the full 1.3. One call site a line; a list or a history still holds every edition.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner

from kb.cite.target import edition_on
from kb.cli import main
from kb.query import KnowledgeBase
from kb.records import load_folder, record_report
from tests.conftest import CORPORA, REPO, SKIP_REASON, shared_available
from web import create_app
from web.pack import plan_layout

pytestmark = pytest.mark.skipif(not shared_available(), reason=SKIP_REASON)

RECORDS = Path(__file__).parent / "fixtures" / "records"
FULL, EXCERPT = "1.3", "1.4"  # the official 1.3 document imported; the repository's 1.4 excerpt


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A built home: Riftbound 1.3 imported whole beside the 1.4 excerpt (no other ruleset)."""
    base = tmp_path_factory.mktemp("default-everywhere")
    rules = base / "rules"
    shutil.copytree(REPO / "rules" / "riftbound", rules / "riftbound")  # the repository's excerpts
    mp = pytest.MonkeyPatch()
    mp.setenv("RULEKB_RULES", str(rules))
    try:
        out = CliRunner().invoke(main, ["--home", str(base / "home"), "import",
                                        str(CORPORA / "riftbound" / "core-rules-2026-03-30.md"),
                                        "-r", "riftbound", "-e", FULL, "--date", "2026-03-30"])
        assert out.exit_code == 0, out.output
    finally:
        mp.undo()
    return base / "home"


@pytest.fixture(scope="module")
def kb(home: Path) -> KnowledgeBase:
    kb = KnowledgeBase.open(home)
    eds = {e["edition"]: e["partial"] for e in kb.editions("riftbound")}
    assert eds == {FULL: False, EXCERPT: True}, eds  # the premise: the newest by date is the excerpt
    return kb


@pytest.fixture(scope="module")
def client(kb: KnowledgeBase) -> Any:
    return create_app(kb=kb).test_client()


def staleness_of(kb: KnowledgeBase, ident: str) -> tuple[str, list[tuple[str, str]]]:
    """A fixture ruling's report: the edition it is checked against, each citation's status."""
    report = record_report(kb, "ruling", ident, records=load_folder(RECORDS))
    return report["newest"], [(c["number"], c["status"]) for c in report["citations"]]


def rule_page(client: Any, edition: str) -> str:
    return client.get(f"/riftbound/{edition}/339").get_data(as_text=True)


def notice(page: str) -> str:
    found = re.search(r'<p class="note">You are reading edition[^\n]*?</p>', page)
    return found.group(0) if found else ""


def selected_edition(page: str) -> str:
    return re.search(r'<select name="edition">.*?<option value="([^"]+)" selected', page, re.S).group(1)


def default_tags(page: str) -> list[str]:
    return re.findall(r'>Edition ([^<]+)</a>\s*(?:<span class="date">[^<]*</span>)?\s*'
                      r'(?:<span class="tag">newest</span>)?\s*<span class="tag"[^>]*>default</span>', page)


def cli_help(command: str) -> str:
    return CliRunner().invoke(main, [command, "--help"], terminal_width=200).output


# (the call site, what it gives on the home, what it must be)
CASES: list[tuple[str, Callable[[KnowledgeBase, Any], Any], Any]] = [
    # kb/records/citing.py: a ruling written for 1.3 is checked against the default, 1.3, not the
    # excerpt (where 338.1.b read "removed" and 338.1.c "renumbered")
    ("records: staleness", lambda kb, c: staleness_of(kb, "riftbound-passing-priority"),
     (FULL, [("338.1.c", "ok"), ("339", "ok")])),
    ("records: staleness of a rule the excerpt lacks", lambda kb, c: staleness_of(kb, "riftbound-activating-abilities")[1][:1],
     [("338.1.b", "ok")]),
    # kb/cite/target.py (the records and the linker alike): a citation prefixed with another
    # ruleset's name is read in its edition in force on the day
    ("records: the edition in force on a day", lambda kb, c: edition_on(kb, "riftbound", "2026-08-01"), FULL),
    ("records: a day before every edition", lambda kb, c: edition_on(kb, "riftbound", "2020-01-01"), FULL),
    ("records: no day", lambda kb, c: edition_on(kb, "riftbound", ""), FULL),
    # web/api/rules.py
    ("api: /rulesets newest", lambda kb, c: [r["newest"] for r in c.get("/api/v1/rulesets").get_json()["rulesets"]],
     [FULL]),
    ("api: /editions newest", lambda kb, c: c.get("/api/v1/rulesets/riftbound/editions").get_json()["newest"], FULL),
    ("api: /editions lists every edition", lambda kb, c: [e["edition"] for e in c.get(
        "/api/v1/rulesets/riftbound/editions").get_json()["editions"]], [FULL, EXCERPT]),
    # web/site/pages.py, the rule page's notice: names the default and links to the rule there
    ("site: the excerpt's rule page", lambda kb, c: notice(rule_page(c, EXCERPT)),
     '<p class="note">You are reading edition 1.4; the default edition (read when none is named) is '
     '<a href="../1.3/339">1.3</a>.</p>'),
    ("site: the default's rule page", lambda kb, c: notice(rule_page(c, FULL)), ""),
    ("site: an edition-less rule address", lambda kb, c: c.get("/riftbound/339").headers["Location"],
     "/riftbound/1.3/339"),
    ("site: the search page's edition", lambda kb, c: selected_edition(
        c.get("/search?q=priority&ruleset=riftbound").get_data(as_text=True)), FULL),
    ("site: the home's default tag", lambda kb, c: default_tags(c.get("/").get_data(as_text=True)), [FULL]),
    # kb/editions: a rule's history is read from the newest full edition holding it
    ("history: the edition read in", lambda kb, c: kb.history("riftbound", "339")["edition"], FULL),
    ("history: every edition in order", lambda kb, c: [e["edition"] for e in kb.history("riftbound", "339")["editions"]],
     [FULL, EXCERPT]),
    ("api: history", lambda kb, c: c.get("/api/v1/rulesets/riftbound/rules/339/history").get_json()["edition"], FULL),
    # web/pack.py: the offline pack's /riftbound/ address
    ("pack: the exported default", lambda kb, c: plan_layout(kb, [("riftbound", FULL), ("riftbound", EXCERPT)]).newest,
     {"riftbound": FULL}),
    # kb/cli/app.py and kb/cli/editions.py: the help says so (README's reference is generated from it)
    ("cli: rule --help", lambda kb, c: "Edition name (default: the newest full edition)." in cli_help("rule"), True),
    ("cli: history --help", lambda kb, c: "(default: the newest full edition that has it)" in cli_help("history"), True),
]


@pytest.mark.parametrize("site, given, expected", CASES, ids=[c[0] for c in CASES])
def test_the_default_is_the_newest_full_edition(kb: KnowledgeBase, client: Any, site: str,
                                                given: Callable[[KnowledgeBase, Any], Any], expected: Any) -> None:
    assert given(kb, client) == expected


def test_an_excerpt_is_still_read_when_named(kb: KnowledgeBase, client: Any) -> None:
    assert client.get(f"/api/v1/rulesets/riftbound/rules/339?edition={EXCERPT}").get_json()["edition"] == EXCERPT
    assert kb.history("riftbound", "339", EXCERPT)["edition"] == EXCERPT
    assert selected_edition(client.get(f"/search?q=priority&ruleset=riftbound&edition={EXCERPT}")
                            .get_data(as_text=True)) == EXCERPT


# The service worker's /riftbound/ address offline (web/static/sw.js, newestKept), run by Node
# with the kept editions' manifests as the site serves them (/offline/editions/…json).
SW_HARNESS = r"""
const vm = require("vm"), fs = require("fs");
const [swPath, keptJson] = process.argv.slice(2);
const kept = JSON.parse(keptJson), base = "http://judge.example/";
const meta = {keys: async () => kept.map(k => ({url: base + "offline/editions/" + k.ruleset + "/" + k.edition + ".json"})),
              match: async url => { const k = kept.find(k => url.endsWith("/" + k.ruleset + "/" + k.edition + ".json"));
                                    return k ? {json: async () => k} : undefined; }};
const ctx = {self: {registration: {scope: base}, addEventListener() {}}, caches: {open: async () => meta}, URL, Promise};
vm.createContext(ctx);
vm.runInContext(fs.readFileSync(swPath, "utf8"), ctx);
vm.runInContext("newestKept('riftbound', '')", ctx).then(l => console.log(l ? l.edition : "none"));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the service worker")
@pytest.mark.parametrize("kept, opened", [([FULL, EXCERPT], FULL), ([EXCERPT], EXCERPT), ([FULL], FULL)])
def test_the_offline_ruleset_address_opens_the_newest_kept_full_edition(client: Any, tmp_path: Path,
                                                                       kept: list[str], opened: str) -> None:
    manifests = [client.get(f"/offline/editions/riftbound/{e}.json").get_json() for e in kept]
    assert [m["partial"] for m in manifests] == [e == EXCERPT for e in kept]
    harness = tmp_path / "sw_harness.js"
    harness.write_text(SW_HARNESS, encoding="utf-8")
    out = subprocess.run(["node", str(harness), str(REPO / "web" / "static" / "sw.js"), json.dumps(manifests)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == opened
