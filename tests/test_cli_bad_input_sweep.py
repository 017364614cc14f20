"""Every command, given what a stranger gives it: unknown rule numbers, malformed numbers
("337..1", "abc", ""), unknown or empty rulesets and editions, missing, binary, empty and
oversized files, folders where files are expected, arguments of 10,000 characters, a data
directory never built, one that is a file, and one whose build was killed or damaged.

Each answers with one clear error naming the place (the value, the file, the data
directory), on stderr, exit 2, never a traceback; an argument too long to be anything is
not echoed whole. One case per line: the data directory, the command line (placeholders
filled below; split before filling, so a path stays one argument), words the error has.
"""

from __future__ import annotations

import os
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import copy_home
from kb.cli import main

LONG = "x" * 10_000  # an argument nobody types: a variable expanded wrong, a file pasted

CASES = [
    # -- unknown and malformed rule numbers --------------------------------------------------
    ("good", "rule 9999.9", "error: rule 9999.9 does not exist in riftbound 1.4"),
    ("good", "rule 337..1", "no rule of riftbound 1.4 is numbered '337..1'; did you mean 337.1?"),
    ("good", "rule abc", "not a rule number"),
    ("good", "rule ''", "not a rule number"),
    ("good", "rule {long}", "error: a rule number is at most 64 characters"),
    ("good", "rule 337.1.a.b.c.d.e.f.g", "337.1.a.b.c.d.e.f.g"),
    ("good", "history 9999.9", "9999.9"),
    ("good", "history abc", "not a rule number"),
    ("good", "history ''", "not a rule number"),
    ("good", "history {long}", "error: a rule number is at most 64 characters"),
    ("good", "map 9999.9 --from 1.3 --to 1.4", "9999.9"),
    ("good", "map 337..1 --from 1.3 --to 1.4", "337..1"),
    ("good", "map abc --from 1.3 --to 1.4", "not a rule number"),
    ("good", "map '' --from 1.3 --to 1.4", "not a rule number"),
    ("good", "rulings show no-such-ruling", "no-such-ruling"),
    ("good", "rulings show {long}", "error:"),
    ("good", "articles show no-such-article", "no-such-article"),
    ("good", "rulings remove no-such-ruling --no-build", "no-such-ruling"),
    ("good", "articles remove no-such-article --no-build", "no-such-article"),
    # -- unknown, empty and overlong rulesets and editions -----------------------------------
    ("good", "rule 337.1 -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "rule 337.1 -r ''", "Invalid value for '--ruleset' / '-r': '' is empty: name a ruleset, or leave"),
    ("good", "rule 337.1 -r {long}", "is not a ruleset name: a name has at most 64 characters"),
    ("good", "rule 337.1 -e 9.9", "unknown edition '9.9' of riftbound"),
    ("good", "rule 337.1 -e ''", "'' is empty: name an edition, or leave the option out"),
    ("good", "rule 337.1 -e {long}", "(10,000 characters) is not an edition name"),
    ("good", "rule 337.1 --date {long}", "(10,000 characters) is not a date"),
    ("good", "rule 337.1 -e 1.3 --date 2026-07-20", "error: edition 1.3 of riftbound was not in force on 2026-07-20"),
    ("good", "history 337.1 -e 1.3 --date 2026-07-20", "error: edition 1.3 of riftbound was not in force on"),
    ("good", "rule 337.1 --date 1900-01-01", "error: no edition of riftbound was in force on 1900-01-01"),
    ("good", "structure -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "structure -e 9.9", "unknown edition '9.9' of riftbound"),
    ("good", "structure -e ''", "is empty: name an edition"),
    ("good", "search rule -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "search rule -e 9.9", "unknown edition '9.9' of riftbound"),
    ("good", "search rule -r {long}", "is not a ruleset name"),
    ("good", "editions -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "editions -r ''", "is empty: name a ruleset"),
    ("good", "diff -r nosuch --from 1.3 --to 1.4", "unknown ruleset 'nosuch'"),
    ("good", "diff --from 9.9 --to 1.4", "unknown edition '9.9' of riftbound"),
    ("good", "diff --from '' --to 1.4", "Invalid value for '--from': '' is empty: name an edition"),
    ("good", "diff --from {long} --to 1.4", "is not an edition name"),
    ("good", "history 337.1 -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "history 337.1 -e 9.9", "9.9"),
    ("good", "history 337.1 -e ''", "is empty: name an edition"),
    ("good", "map 337.1 --from 9.9 --to 1.4", "unknown edition '9.9' of riftbound"),
    ("good", "map 337.1 --from '' --to 1.4", "'' is empty: name an edition"),
    ("good", "map 337.1 -r nosuch --from 1.3 --to 1.4", "unknown ruleset 'nosuch'"),
    ("good", "export {out} -r nosuch", "nosuch"),
    ("good", "export {out} -e 9.9", "9.9"),
    ("good", "export {out} -r ''", "is empty: name a ruleset"),
    ("good", "link {article} -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "link {article} -e 9.9", "9.9"),
    ("good", "link {article} -e {long}", "is not an edition name"),
    ("good", "timing check -e 9.9", "unknown edition '9.9' of riftbound"),
    ("good", "timing check -e ''", "is empty: name an edition"),
    ("good", "timing check -r {long}", "is not a ruleset name: a name has at most 64 characters"),
    ("good", "timing check -r nosuch", "nosuch"),
    ("good", "timing list -r nosuch", "no timing model for ruleset 'nosuch' (models: mtg, riftbound)"),
    ("good", "timing list -r {long}", "is not a ruleset name: a name has at most 64 characters"),
    ("good", "timing list -r ''", "'' is empty: name a ruleset"),
    ("good", "timing next --state {{}} -r {long}", "is not a ruleset name: a name has at most 64 characters"),
    ("good", "rule 'CR 117.3d' -r riftbound", "'CR 117.3d' names mtg by its prefix, not riftbound"),
    ("good", "rule 9999", "rule 9999 does not exist in riftbound 1.4: it is beyond the last rule, 829 Flow"),
    ("good", "rulings list -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "rulings check -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "rulings search rule -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "rulings search rule -r ''", "is empty: name a ruleset"),
    ("good", "articles list -r nosuch", "unknown ruleset 'nosuch'"),
    ("good", "articles check -r {long}", "is not a ruleset name"),
    ("good", "cards list -r nosuch", "no ruleset 'nosuch'"),
    ("good", "cards import {empty_json} -r ''", "is empty: name a ruleset"),
    ("good", "import {empty_md} -r riftbound -e '' --no-build", "Invalid value for '--edition' / '-e': '' is empty: "
     "name an edition\n"),
    ("good", "import {empty_md} -r {long} -e 9.9 --no-build", "is not a ruleset name"),
    # -- files: missing, folders, binary, empty, oversized -----------------------------------
    ("good", "import {missing} -r riftbound -e 9.9 --no-build", "does not exist"),
    ("good", "import {folder} -r riftbound -e 9.9 --no-build", "is a directory"),
    ("good", "import {binary_md} -r riftbound -e 9.9 --no-build", "binary.md:1: error: unknown document format"),
    ("good", "import {empty_md} -r riftbound -e 9.9 --no-build", "empty.md: error: the document is empty"),
    ("good", "import {nul} -r riftbound -e 9.9 --no-build", "nul.md:1: error: unreadable encoding"),
    ("good", "import /dev/null -r riftbound -e 9.9 --no-build", "/dev/null: error: is not a regular file"),
    ("good", "link {missing}", "does not exist"),
    ("good", "link {folder}", "is a directory"),
    ("good", "link {binary_md}", "binary.md:1: not UTF-8 text"),
    ("good", "link {empty_md}", "empty.md is empty: nothing to link"),
    ("good", "link --check {empty_md}", "empty.md is empty: nothing to link"),
    ("good", "link {nul}", "nul.md:1: a NUL byte (byte 0)"),
    ("good", "link /dev/null", "/dev/null is empty: nothing to link"),
    ("good", "link {huge}", "over the limit cite.input"),
    ("good", "timing run {missing}", "no such file, and no worked scenario"),
    ("good", "timing run {folder}", "Is a directory"),
    ("good", "timing run {binary_yaml}", "binary.yaml:1: not UTF-8 text"),
    ("good", "timing run {empty_yaml}", "empty.yaml: a scenario is a mapping"),
    ("good", "timing run {nul}", "not valid YAML"),
    ("good", "timing run {huge}", "over the limit timing.file"),
    ("good", "timing next --state {missing}", "no such file"),
    ("good", "timing next --state {folder}", "is a directory; --state takes a JSON file"),
    ("good", "timing next --state {binary_json}", "binary.json: not UTF-8 text"),
    ("good", "timing next --state {empty_json}", "empty.json:1:1: not valid JSON"),
    ("good", "rulings import {missing} --no-build", "does not exist"),
    ("good", "rulings import {folder} --no-build", "holds no rulings"),
    ("good", "rulings import {binary_yaml} --no-build", "binary.yaml:1: error: not UTF-8 text"),
    ("good", "rulings import {empty_yaml} --no-build", "empty.yaml: error: a ruling is a mapping of fields"),
    ("good", "rulings import {empty_md} --no-build", "empty.md:1: error: a Markdown ruling starts with front matter"),
    ("good", "rulings import {nul_yaml} --no-build", "nul.yaml: error: file is not valid YAML"),
    ("good", "rulings import {huge} --no-build", "a ruling or article file is at most"),
    ("good", "articles add {missing} --no-build", "does not exist"),
    ("good", "articles add {folder} --no-build", "holds no articles"),
    ("good", "articles add {binary_md} --no-build", "binary.md:1: error: not UTF-8 text"),
    ("good", "articles add {empty_md} --no-build", "empty.md:1: error: the article is empty: nothing to add"),
    ("good", "articles add {huge} --no-build", "a ruling or article file is at most"),
    ("good", "cards import {missing}", "does not exist"),
    ("good", "cards import {folder}", "is a directory"),
    ("good", "cards import {binary_json}", "binary.json: error: not UTF-8 text"),
    ("good", "cards import {empty_json}", "empty.json: error: the card file is empty"),
    ("good", "import {long} -r riftbound -e 9.9", "(10,000 characters) is not a path: a path has at most 4,096"),
    ("good", "link {long}", "(10,000 characters) is not a path"),
    ("good", "export {long}", "(10,000 characters) is not a path"),
    ("good", "rulings import {long}", "(10,000 characters) is not a path"),
    ("good", "articles add {long}", "(10,000 characters) is not a path"),
    ("good", "cards import {long}", "(10,000 characters) is not a path"),
    ("good", "--home {long} rule 337.1", "Invalid value for '--home': 'xxxx"),
    ("good", "export {article}", "Invalid value for 'FOLDER': Directory '{article}' is a file"),
    # -- a data directory never built -------------------------------------------------------
    *[("never", command, "no knowledge base is built in {home}; run `rulekb build`") for command in (
        "rule 337.1", "history 337.1", "map 337.1 --from 1.3 --to 1.4", "search rule", "structure",
        "stats", "editions", "diff --from 1.3 --to 1.4", "export {out}", "link {article}",
        "rulings list", "rulings check", "rulings show x", "articles list", "articles check")],
    *[("file", command, "the data directory {home} is not a folder") for command in (
        "rule 337.1", "search rule", "stats", "build")],
    # -- a first build killed: a build folder half written, none in service -----------------
    *[("killed", command, "no knowledge base is built in {home}; run `rulekb build`") for command in (
        "rule 337.1", "search rule", "stats", "editions", "link {article}", "rulings list")],
    # -- the build in service damaged: its manifest or its editions cut short ----------------
    *[("cut_manifest", command, "manifest.json: error: the built knowledge base is damaged (unreadable: "
       "JSONDecodeError); run `rulekb build` to build it again") for command in (
        "rule 337.1", "history 337.1", "search rule", "structure", "stats", "editions",
        "diff --from 1.3 --to 1.4", "link {article}", "rulings list", "articles check", "export {out}")],
    *[("cut_editions", command, "error: the built knowledge base is damaged (unreadable: ") for command in (
        "rule 337.1", "structure", "search rule", "link {article}")],
    *[("dangling", command, "no knowledge base is built in {home}; run `rulekb build`") for command in (
        "rule 337.1", "search rule", "stats")],
]


@pytest.fixture(scope="module")
def places(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The data directories and files the cases name, made once."""
    root = tmp_path_factory.mktemp("sweep")
    homes = {"good": copy_home(excerpt_home, root / "good"), "never": root / "never"}
    homes["never"].mkdir()
    homes["file"] = root / "a-file"
    homes["file"].write_text("not a data directory\n", encoding="utf-8")
    killed = root / "killed" / "builds" / "20260101T000000-1-1" / "editions" / "riftbound"
    killed.mkdir(parents=True)
    (killed / "1.4.pickle").write_bytes(b"\x80\x05half")
    homes["killed"] = root / "killed"
    for name in ("cut_manifest", "cut_editions", "dangling"):
        home = homes[name] = copy_home(excerpt_home, root / name)
        built = home / os.readlink(home / "current")
        if name == "cut_manifest":
            manifest = built / "manifest.json"
            manifest.write_bytes(manifest.read_bytes()[:100])
        elif name == "cut_editions":
            for pickle in (built / "editions").rglob("*.pickle"):
                pickle.write_bytes(pickle.read_bytes()[:50])
        else:
            shutil.rmtree(built)
    files = root / "files"
    (files / "folder").mkdir(parents=True)
    (files / "binary.md").write_bytes(bytes(range(128, 256)) * 20)
    for suffix in ("yaml", "json"):
        (files / f"binary.{suffix}").write_bytes((files / "binary.md").read_bytes())
    for suffix in ("md", "yaml", "json"):
        (files / f"empty.{suffix}").write_bytes(b"")
    (files / "nul.md").write_bytes(b"\0\0\0")
    (files / "nul.yaml").write_bytes(b"\0\0\0")
    (files / "huge.md").write_text("x" * 3_000_000, encoding="utf-8")
    (files / "article.md").write_text("See rule 337.1a.\n", encoding="utf-8")
    return {**homes, "files": files, "out": root / "out"}


@pytest.mark.parametrize(("home", "command", "said"), CASES, ids=[f"{c[0]}: {c[1][:60]}" for c in CASES])
def test_bad_input_gets_one_clear_error(places: dict[str, Path], home: str, command: str, said: str) -> None:
    files = places["files"]
    fill = {"long": LONG, "out": places["out"], "missing": files / "missing.md", "folder": files / "folder",
            "home": places[home], "huge": files / "huge.md", "article": files / "article.md",
            "nul": files / "nul.md", "nul_yaml": files / "nul.yaml",
            **{f"{stem}_{suffix}": files / f"{stem}.{suffix}" for stem in ("binary", "empty")
               for suffix in ("md", "yaml", "json")}}
    args = [a.format(**fill) for a in shlex.split(command)]
    if args[0] != "--home":  # else the case is about the data directory's own name
        args = ["--home", str(places[home]), *args]
    result = CliRunner().invoke(main, args)
    err = result.stderr
    assert result.exit_code == 2, (result.stdout, err)
    assert said.format(**fill) in err, err
    assert "Traceback" not in result.stdout + err
    assert LONG not in err  # cut when repeated
    assert err.count("error:") + err.count("Error:") == 1, err  # one error, not one per layer
