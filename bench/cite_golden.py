"""A golden check of citation linking: every output of the linker, before and after a change.

    .venv/bin/python -m bench.cite_golden save /tmp/golden.json.gz   # on the tree before
    .venv/bin/python -m bench.cite_golden check /tmp/golden.json.gz  # on the tree after

Run it on another tree (one unpacked with ``git archive``) with that tree first on the
path: ``cd /tmp/before && PYTHONPATH=. /work/main/.venv/bin/python /work/main/bench/cite_golden.py save OUT``
(it imports only ``kb``, so it runs on a tree that does not hold it).

The documents: the cite fixtures, the records (rulings and articles), the seeds of
``../shared/seeds`` when present, the benchmark's articles (the lessons at four densities,
10 and 100 KB, and the article whose citations each name the next rule), and every string
literal holding a digit in the citation, hostile-input and records tests. Each is linked in
every variant (:data:`VARIANTS`): the plugin in both styles, pinned to Riftbound 1.4, to
Magic 2026, unpinned and limited to 3 citations, each with its HTML, its whole report
(``citations``, ``footnotes``, ``diagnostics``, ``target``, ``front_matter``,
``over_limit``) and each place's resolution; the facade in its three formats; the lookup;
the finder. ``check`` names every (document, variant) whose output differs, and exits 1.
"""

from __future__ import annotations

import ast
import gzip
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
# The seeds beside the repository this file is in (``RULEKB_SHARED`` names another place):
# run on an unpacked tree, the harness still reads the same seeds.
SHARED = Path(os.environ.get("RULEKB_SHARED") or ROOT.parent / "shared")
LESSONS = ["lesson-passing-and-resolving.md", "lesson-combat-showdown.md"]
LITERAL_SOURCES = ["test_cite_annotate.py", "test_cite_find.py", "test_cite_resolve.py",
                   "test_cite_caches.py", "test_cite_collector.py", "test_cite_written_for.py",
                   "test_cite_seeds.py", "test_cite_cli.py", "test_hostile_input.py",
                   "test_records.py"]


def documents(tree: Path) -> dict[str, str]:
    """Every document the check links, by name (``tree``'s fixtures and tests)."""
    import re

    docs: dict[str, str] = {}
    for folder in ("tests/fixtures/cite", "tests/fixtures/records"):
        for path in sorted((tree / folder).rglob("*")):
            if path.suffix in (".md", ".yaml", ".txt"):
                docs[str(path.relative_to(tree))] = path.read_text(encoding="utf-8")
    seeds = SHARED / "seeds"
    if seeds.is_dir():
        for path in sorted(seeds.iterdir()):
            docs[f"seeds/{path.name}"] = path.read_text(encoding="utf-8")
    parts = [(tree / "tests/fixtures/cite" / name).read_text(encoding="utf-8").split("---\n", 2)[2]
             for name in LESSONS]
    unit = "\n".join(parts) + "\n"
    for keep in (1, 2, 4, 8):
        count = iter(range(10**9))
        text = re.sub(r"\b[Rr]ule(?= \d)", lambda m: m.group(0) if next(count) % keep == 0 else "item", unit)
        for size in (10, 100):
            need = size * 1024
            docs[f"article/{size}KB/keep{keep}"] = (
                (text * (need // len(text.encode()) + 1))[:need].rsplit("\n", 1)[0] + "\n")
    literals: set[str] = set()
    for name in LITERAL_SOURCES:
        path = tree / "tests" / name
        if not path.exists():
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and any(ch.isdigit() for ch in node.value) and len(node.value) < 200_000:
                literals.add(node.value)
    for i, text in enumerate(sorted(literals)):
        docs[f"literal/{i:04d}"] = text
    return docs


def _report(env: dict[str, Any]) -> dict[str, Any]:
    from kb.cite.mdit import ENV_KEY

    report = env[ENV_KEY]
    out = {key: report[key] for key in ("citations", "footnotes", "diagnostics", "target",
                                        "front_matter", "over_limit") if key in report}
    out["citations"] = list(out["citations"])  # a sequence made when read (mdit.PlacedEntries)
    out["footnotes"] = list(out["footnotes"])  # so is this one (mdit.FootnoteEntries)
    out["resolutions"] = [repr(place) for place in report["resolutions"]]
    return out


def variants(kb: Any) -> dict[str, Callable[[str], Any]]:
    """Each way the check links a document (its name, and what it returns)."""
    from kb.cite import find_citations, rule_citations

    def plugin(**options: Any) -> Callable[[str], Any]:
        md = MarkdownIt("commonmark", {"html": False}).use(rule_citations, kb=kb, **options)

        def run(text: str) -> Any:
            env: dict[str, Any] = {}
            html = md.render(text, env)
            return {"html": html, "report": _report(env)}
        return run

    def breaks(text: str) -> Any:
        md = MarkdownIt("commonmark", {"html": True, "breaks": True}).use(
            rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
        env: dict[str, Any] = {}
        return {"html": md.render(text, env), "report": _report(env)}

    return {
        "footnotes 1.4": plugin(ruleset="riftbound", edition="1.4"),
        "preview 1.4": plugin(ruleset="riftbound", edition="1.4", style="preview", base_url="/r"),
        "unpinned": plugin(),
        "limit 3": plugin(ruleset="riftbound", edition="1.4", limit=3),
        "mtg 2026": plugin(ruleset="mtg", edition="2026-01-16", prefix="n"),
        "html and breaks": breaks,
        "facade html": lambda t: kb.citations_annotate(t, "riftbound", "1.4"),
        "facade markdown": lambda t: kb.citations_annotate(t, None, None, "preview", "markdown"),
        "facade json": lambda t: kb.citations_annotate(t, "mtg", None, "footnotes", "json", True, "/x"),
        "lookup": lambda t: kb.citations_lookup(t, "riftbound", "1.4"),
        "finder": lambda t: [repr(c) for c in find_citations(t)],
    }


def outputs(tree: Path) -> dict[str, str]:
    """Every (document, variant)'s output, as canonical JSON (an error as its type and message)."""
    from kb.query import KnowledgeBase
    from kb.store import build

    with tempfile.TemporaryDirectory() as home:
        build(Path(home))
        kb = KnowledgeBase.open(Path(home))
        ways = variants(kb)
        out: dict[str, str] = {}
        for name, text in documents(tree).items():
            for way, fn in ways.items():
                try:
                    value: Any = fn(text)
                except Exception as exc:  # an error is an output too: it must stay the same
                    value = {"error": type(exc).__name__, "message": str(exc)}
                out[f"{name} | {way}"] = json.dumps(value, sort_keys=True, default=repr,
                                                    ensure_ascii=False)
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in ("save", "check"):
        print("usage: python -m bench.cite_golden save|check FILE", file=sys.stderr)
        return 2
    command, file = args
    tree = Path.cwd() if (Path.cwd() / "kb").is_dir() else ROOT
    made = outputs(tree)
    if command == "save":
        with gzip.open(file, "wt", encoding="utf-8") as f:
            json.dump(made, f)
        docs = len({key.split(" | ")[0] for key in made})
        print(f"saved {len(made)} outputs ({docs} documents × {len(made) // max(1, docs)} variants) to {file}")
        return 0
    with gzip.open(file, "rt", encoding="utf-8") as f:
        golden = json.load(f)
    differ = sorted(k for k in golden.keys() & made.keys() if golden[k] != made[k])
    missing = sorted(golden.keys() ^ made.keys())
    for key in differ[:50]:
        print(f"differs: {key}")
    for key in missing[:50]:
        print(f"{'only in the golden' if key in golden else 'not in the golden'}: {key}")
    docs = len({key.split(" | ")[0] for key in golden})
    print(f"{len(differ)} of {len(golden)} outputs differ, {len(missing)} are on one side only "
          f"({docs} documents × {len(golden) // max(1, docs)} variants)")
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main())
