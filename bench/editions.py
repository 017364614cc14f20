"""Editions: how long a diff between two editions takes, and how good the mapping is.

    .venv/bin/python -m bench.editions              # 5 rounds
    .venv/bin/python -m bench.editions --rounds 9

Needs ``../shared/corpora``. For each pair of adjacent editions (Riftbound 1.0→1.2, 1.2→1.3,
1.3→1.4; Magic 2010-10-01→2026-01-16), measured in the same process on graphs already built:

- mapping: :func:`kb.editions.mapping.map_editions` (exact, near-identical, structure);
- diff: the mapping plus :func:`kb.editions.diff.diff_editions` (word-level changes of every
  paired rule, counts per chapter): what a first ``rulekb diff`` computes;
- facade, warm: ``KnowledgeBase.diff`` once the diff is cached (filtering, paging);
- baselines: building both editions' graphs from their read documents (what ``rulekb build``
  spends on the pair), and a naive line diff (``difflib.SequenceMatcher`` over the two lists
  of rule texts, which finds no moves and no word changes).

Medians over the rounds (one warm-up round first). Then precision and recall of the mapping
on each hand-labelled sample in ``tests/fixtures/editions``, and, each pair both ways, the rules
left without a counterpart that a rule below their ancestor's counterpart is worded like
(:func:`kb.editions.evaluate.removed_beside_alike`; A30): free (a missed move) or paired.

    .venv/bin/python -m bench.editions --acceptance HOME

``--acceptance HOME`` reads a data home that imported every edition there is (the 70 Magic
archive releases, Magic 2010-10-01 and 2026-01-16, Riftbound 1.0–1.4; see bench/RESULTS.md,
"Every edition at once") and prints the famous renumberings checked by hand against the
documents (:data:`RENUMBERINGS`, right or wrong, with the confidence), then each change feed
made cold in a fresh process's knowledge base, its time, size and RFC 4287 checks.

    .venv/bin/python -m bench.editions --serve HOME [--rulekb PATH]

``--serve HOME`` starts ``rulekb serve`` on a home holding every edition and times what a
rules site's visitors ask across them (:data:`SERVED`): seconds until health says ready and
the server's RSS then, each address once cold and once again (status, wall time, size), and
the RSS after. ``--rulekb`` names the command to run (e.g. a script running a snapshot).

    .venv/bin/python -m bench.editions --far HOME

``--far HOME`` asks a fresh knowledge base for two diffs between far Magic editions (the
oldest to the newest, then 2010-10-01 to the newest) and a later page of the first: process
CPU time of each and the RSS before and after (what a far diff costs and keeps).

    .venv/bin/python -m bench.editions --compare HOME [--ruleset mtg]

``--compare HOME`` times the compare page (``/RULESET/compare/OLD/NEW``, its context and
template) of every step between neighbouring editions, each cold: a fresh knowledge base
(no graph loaded, nothing derived), as a server that unloaded the step's editions has. Each
step is made from what the build stored (the page as it is) and from the diff of the two
loaded graphs (the page before the stored comparison), interleaved; process CPU time,
median, total and the slowest step of each.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import re
import statistics
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.editions.diff import diff_editions, display_text
from kb.editions.evaluate import load_sample, removed_beside_alike, score
from kb.editions.mapping import map_editions
from kb.feeds import changes_feed, render_atom, rule_feed
from kb.graph import RuleGraph, build_edition
from kb.model import ReadResult
from bench.corpora import CORPORA, CORPUS_EDITIONS
from kb.query import KnowledgeBase
from kb.read import read_document

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "tests" / "fixtures" / "editions"

EDITIONS = {(rs, ed): (date, rel) for rs, ed, date, rel in CORPUS_EDITIONS}
PAIRS = [("riftbound", "1.0", "1.2"), ("riftbound", "1.2", "1.3"), ("riftbound", "1.3", "1.4"),
         ("mtg", "2010-10-01", "2026-01-16")]


def timed(fn: Callable[[], Any], rounds: int) -> float:
    """Median seconds of ``fn`` over ``rounds`` runs, after one warm-up run."""
    fn()
    times = []
    gc.disable()
    try:
        for _ in range(rounds):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
    finally:
        gc.enable()
    return statistics.median(times)


def naive_line_diff(old: RuleGraph, new: RuleGraph) -> int:
    a = [display_text(r) for r in old.edition.rules.values()]
    b = [display_text(r) for r in new.edition.rules.values()]
    return sum(1 for tag, *_ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
               if tag != "equal")


# ruleset, rule, from, to, the counterparts read in both documents (None: removed), what it is
RENUMBERINGS: list[tuple[str, str, str, str, set[str | None], str]] = [
    ("mtg", "420.5e", "2009-05-01", "2009-09-04", {"704.5k"}, "the legend rule, M10"),
    ("mtg", "420", "2009-05-01", "2009-09-04", {"704"}, "State-Based Effects -> Actions"),
    ("mtg", "420.3", "2009-05-01", "2009-09-04", {"704.3"}, "checked when a player would get priority"),
    ("mtg", "408.1c", "2009-05-01", "2009-09-04", {"115.3a"}, "the active player gets priority"),
    ("mtg", "300.3", "2009-05-01", "2009-09-04", {None, "500.4"}, "mana burn (the pool empties: 500.4)"),
    ("mtg", "408.1g", "2009-05-01", "2009-09-04", {None}, "combat damage uses the stack"),
    ("mtg", "502.63", "2009-05-01", "2009-09-04", {"702.2"}, "Deathtouch"),
    ("mtg", "217.6", "2009-05-01", "2009-09-04", {"405"}, "the Stack"),
    ("mtg", "115.3", "2010-06-18", "2010-10-01", {"116.3"}, "Timing and Priority 115 -> 116"),
    ("mtg", "116.3", "2019-06-12", "2019-10-04", {"117.3"}, "116 -> 117 (Tokens inserted)"),
    ("mtg", "115.3a", "2009-09-04", "2026-01-16", {"117.3a"}, "priority over 17 years"),
    ("mtg", "704.5k", "2010-10-01", "2026-01-16", {"704.5j"}, "the legend rule"),
    ("mtg", "704.5j", "2017-07-07", "2017-09-25", {None}, "planeswalker uniqueness removed"),
    ("mtg", "704.5k", "2017-07-07", "2017-09-25", {"704.5j"}, "the legend rule moves up"),
    ("mtg", "700.6", "2013-04-29", "2013-09-27", {"700.4"}, "'dies', M14"),
    ("mtg", "700.4", "2013-04-29", "2013-09-27", {"702.12b"}, "indestructible becomes a keyword"),
    ("mtg", "700.6", "2011-06-17", "2026-01-16", {"700.4"}, "'dies' to today"),
    ("mtg", "420.5e", "2003-03-15", "2026-01-16", {"704.5j"}, "the legend rule 2003 -> 2026"),
    ("mtg", "704", "2009-09-04", "2026-01-16", {"704"}, "State-Based Actions"),
    ("mtg", "405", "2009-09-04", "2026-01-16", {"405"}, "the Stack"),
    ("mtg", "103.4", "2015-07-17", "2026-01-16", {"103.5"}, "the mulligan"),
    ("riftbound", "458", "1.3", "1.4", {"463"}, "The Steps of Combat"),
    ("riftbound", "459", "1.3", "1.4", {"464"}, "the Combat Showdown Step"),
    ("riftbound", "461", "1.3", "1.4", {"466"}, "the Resolution Step"),
    ("riftbound", "337.1.c.3", "1.3", "1.4", {"337.4"}, "the next item's controller gains priority"),
]
FEEDS = [("mtg", None, None), ("mtg", "704", None), ("mtg", None, "704.5j"), ("riftbound", None, None)]
_ATOM = "{http://www.w3.org/2005/Atom}"
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)")


class _Links:
    """Relative links, as a feed served without a public URL has."""

    def rule(self, ruleset: str, edition: str, number: str) -> str:
        return f"/{ruleset}/{edition}/{number}"

    def compare(self, ruleset: str, old: str, new: str) -> str:
        return f"/{ruleset}/compare/{old}/{new}"

    def history(self, ruleset: str, number: str) -> str:
        return f"/{ruleset}/{number}"


def atom_problems(document: bytes) -> list[str]:
    """What a feed lacks by RFC 4287: ids, titles, RFC 3339 times, an author, unique entry ids,
    entries newest first (empty when none)."""
    root = ET.fromstring(document)
    problems = [] if root.tag == f"{_ATOM}feed" else ["not an atom:feed"]
    problems += [f"feed {k}" for k in ("id", "title", "updated") if not (root.findtext(_ATOM + k) or "").strip()]
    authored = root.find(f"{_ATOM}author/{_ATOM}name") is not None
    ids, times = [], []
    for e in root.findall(f"{_ATOM}entry"):
        problems += [f"entry {k}" for k in ("id", "title", "updated") if not (e.findtext(_ATOM + k) or "").strip()]
        if not authored and e.find(f"{_ATOM}author") is None:
            problems.append("author")
        ids.append(e.findtext(f"{_ATOM}id"))
        times.append(e.findtext(f"{_ATOM}updated") or "")
    problems += ["updated is not RFC 3339" for t in times if not _RFC3339.fullmatch(t)]
    problems += ["duplicate entry ids"] if len(ids) != len(set(ids)) else []
    problems += ["entries not newest first"] if times != sorted(times, reverse=True) else []
    return sorted(set(problems))


def acceptance(home: Path) -> int:
    """The famous renumberings and the change feeds of a home holding every edition."""
    kb = KnowledgeBase.open(home)
    right = 0
    print("| ruleset | rule | from → to | rulekb | expected | confidence | |\n|---|---|---|---|---|---:|---|")
    for ruleset, number, a, b, expected, what in RENUMBERINGS:
        found = kb.map_number(ruleset, number, a, b)
        ok = found["target"] in expected
        right += ok
        print(f"| {ruleset} | {number} ({what}) | {a} → {b} | {found['target'] or 'removed'} | "
              f"{' or '.join(sorted(str(e or 'removed') for e in expected))} | {found['confidence']:.2f} | "
              f"{'right' if ok else 'missed (left unpaired)' if found['target'] is None else 'wrong'} |")
    print(f"\n{right} of {len(RENUMBERINGS)} right\n")
    print("| feed | cold (wall) | CPU | entries | size | RFC 4287 |\n|---|---:|---:|---:|---:|---|")
    for ruleset, section, rule in FEEDS:
        fresh = KnowledgeBase.open(home)  # nothing derived yet, no graph loaded
        started, cpu = time.perf_counter(), time.process_time()
        feed = rule_feed(fresh, ruleset, rule, _Links()) if rule else \
            changes_feed(fresh, ruleset, _Links(), chapter=section)
        document = render_atom(feed)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        name = f"{ruleset}" + (f" section {section}" if section else "") + (f" rule {rule}" if rule else "")
        print(f"| {name} | {wall:.2f} s | {cpu:.2f} s | {len(feed.entries)} | {len(document):,} B | "
              f"{', '.join(atom_problems(document)) or 'valid'} |")
    return 0


#: What ``--serve`` asks, in this order (the first is the first request after start).
SERVED = [
    "/mtg/2026-01-16/117.3",
    "/mtg/2003-03-15/420.5e",
    "/mtg/2005-10-01/420.5e",
    "/mtg/2026-01-16/601.2",
    "/mtg/2026-01-16/601.2/history",
    "/mtg/2026-01-16/704.5j/history",
    "/api/v1/rulesets/mtg/rules/117.3/history",
    "/api/v1/rulesets/mtg/rules/601.2/history",
    "/api/v1/rulesets/mtg/rules/420.5e/history?edition=2005-10-01",
    "/api/v1/rulesets/mtg/rules/420.5e/map?from=2005-10-01&to=2026-01-16",
    "/api/v1/rulesets/mtg/diff?from=2003-03-15&to=2026-01-16&limit=5",
    "/api/v1/rulesets/mtg/diff?from=2003-03-15&to=2026-01-16&limit=100&offset=2000",
    "/mtg/compare/2003-03-15/2026-01-16",
    "/riftbound/compare/1.0/1.4",
    "/api/v1/rulesets",
    "/api/v1/rulesets/mtg/editions",
    "/api/v1/stats",
    "/api/v1/rulesets/mtg/changes.atom",
    "/api/v1/rulesets/mtg/changes.atom?section=704",
    "/api/v1/rulesets/mtg/rules/704.5j/changes.atom",
    "/api/v1/rulesets/riftbound/changes.atom",
    "/api/v1/search?q=mana+burn&ruleset=mtg&edition=2005-10-01",
    "/search?q=mana+burn&ruleset=mtg&edition=2005-10-01",
    "/api/v1/rulesets/mtg/rules/100.1?edition=2003-03-15",
]


def serve(home: Path, rulekb: str) -> int:
    """``rulekb serve`` on ``home``: ready after, RSS, each of :data:`SERVED` cold and again."""
    import json
    import os
    import socket
    import subprocess
    import urllib.error
    import urllib.request

    from bench.load import memory_kb

    def get(url: str) -> tuple[int, int, float]:
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(url, timeout=300) as answer:
                status, body = answer.status, answer.read()
        except urllib.error.HTTPError as exc:
            status, body = exc.code, exc.read()
        return status, len(body), time.perf_counter() - started

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    started = time.perf_counter()
    server = subprocess.Popen([rulekb, "serve", "--port", str(port)], env={**os.environ, "RULEKB_HOME": str(home)},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            if server.poll() is not None:
                print(f"rulekb serve exited with {server.returncode}", file=sys.stderr)
                return 1
            try:
                with urllib.request.urlopen(f"{base}/api/v1/health", timeout=5) as answer:
                    if json.loads(answer.read()).get("ready"):
                        break
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        ready = time.perf_counter() - started
        print(f"ready {ready:.1f} s after start, RSS {memory_kb(server.pid)['VmRSS'] / 1024:.0f} MB "
              f"(load average {os.getloadavg()[0]:.1f})\n")
        print("| address | status | cold | again | size |\n|---|---:|---:|---:|---:|")
        for path in SERVED:
            status, size, cold = get(base + path)
            _, _, warm = get(base + path)
            print(f"| `{path}` | {status} | {cold * 1000:.0f} ms | {warm * 1000:.0f} ms | {size / 1024:.0f} KB |",
                  flush=True)
        print(f"\nRSS after: {memory_kb(server.pid)['VmRSS'] / 1024:.0f} MB, peak "
              f"{memory_kb(server.pid)['VmHWM'] / 1024:.0f} MB (load average {os.getloadavg()[0]:.1f})")
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


def far_diffs(home: Path) -> int:
    """Two diffs between far Magic editions in a fresh knowledge base: CPU and RSS."""
    import os

    from bench.load import memory_kb

    kb = KnowledgeBase.open(home)
    names = [e["edition"] for e in kb.editions("mtg")]
    gc.collect()
    before = memory_kb(os.getpid())["VmRSS"] / 1024
    out = []
    for old, new, offset in [(names[0], names[-1], 0), (names[0], names[-1], 2000), ("2010-10-01", names[-1], 0)]:
        started = time.process_time()
        kb.diff("mtg", old, new, limit=100, offset=offset)
        out.append(f"{old} → {new} (offset {offset}) {(time.process_time() - started) * 1000:.0f} ms CPU")
    gc.collect()
    print("; ".join(out) + f"; RSS {before:.0f} → {memory_kb(os.getpid())['VmRSS'] / 1024:.0f} MB")
    return 0


def compare_pages(home: Path, ruleset: str) -> int:
    """The compare page of each step of ``ruleset``, cold, from the stored comparison and
    from the diff (process CPU time; see the module docstring)."""
    from flask import render_template

    from web import create_app
    from web.site import compare as page

    app = create_app(home)  # for the templates only: its knowledge base is never asked
    names = [e["edition"] for e in KnowledgeBase.open(home).editions(ruleset)]
    made = {"stored": page.stored_comparison, "diff": lambda *args, **kwargs: None}
    cpu: dict[str, list[tuple[float, str]]] = {k: [] for k in made}
    sizes: dict[str, set[int]] = {}
    with app.test_request_context(f"/{ruleset}/compare/{names[0]}/{names[1]}"):  # the template compiled
        render_template("compare.html", **page.compare_page(KnowledgeBase.open(home), ruleset, names[0], names[1]))
    for a, b in zip(names, names[1:]):
        for way, stored in made.items():
            kb = KnowledgeBase.open(home)
            page.stored_comparison = stored  # type: ignore[assignment]
            try:
                with app.test_request_context(f"/{ruleset}/compare/{a}/{b}"):
                    started = time.process_time()
                    html = render_template("compare.html", **page.compare_page(kb, ruleset, a, b))
                    cpu[way].append((time.process_time() - started, f"{a} → {b}"))
            finally:
                page.stored_comparison = made["stored"]  # type: ignore[assignment]
            sizes.setdefault(f"{a} → {b}", set()).add(len(html))
    print(f"{ruleset}: {len(names)} editions, {len(names) - 1} steps, each page cold (process CPU time)\n")
    print("| made from | median | total | slowest step |\n|---|---:|---:|---|")
    for way, times in cpu.items():
        worst = max(times)
        print(f"| {way} | {statistics.median(t for t, _ in times) * 1000:.0f} ms | "
              f"{sum(t for t, _ in times):.1f} s | {worst[1]} ({worst[0] * 1000:.0f} ms) |")
    differ = [step for step, seen in sizes.items() if len(seen) != 1]
    print(f"\npages of a different size between the two: {len(differ)} {differ[:5]}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--acceptance", type=Path, metavar="HOME", default=None,
                        help="a data home holding every edition: renumberings and feeds")
    parser.add_argument("--compare", type=Path, metavar="HOME", default=None,
                        help="time every step's compare page of a data home, cold")
    parser.add_argument("--ruleset", default="mtg", help="the ruleset whose steps --compare times")
    parser.add_argument("--serve", type=Path, metavar="HOME", default=None,
                        help="serve a home holding every edition and time what visitors ask")
    parser.add_argument("--rulekb", default=str(Path(sys.executable).with_name("rulekb")),
                        help="the rulekb command --serve runs")
    parser.add_argument("--far", type=Path, metavar="HOME", default=None,
                        help="two diffs between far Magic editions of a home: CPU and RSS")
    args = parser.parse_args(argv)
    if args.far is not None:
        return far_diffs(args.far)
    if args.serve is not None:
        return serve(args.serve, args.rulekb)
    if args.acceptance is not None:
        return acceptance(args.acceptance)
    if args.compare is not None:
        return compare_pages(args.compare, args.ruleset)
    if not CORPORA.is_dir():
        print(f"needs the rule documents in {CORPORA}", file=sys.stderr)
        return 2
    read: dict[tuple[str, str], tuple[ReadResult, str]] = {}
    graphs: dict[tuple[str, str], RuleGraph] = {}
    for key, (date, rel) in EDITIONS.items():
        read[key] = read_document(CORPORA / rel)
        graphs[key] = build_edition(read[key][0], ruleset=key[0], edition=key[1], date=date,
                                    source_format=read[key][1])
    kb = KnowledgeBase.from_graphs(list(graphs.values()))

    print(f"rounds: {args.rounds}\n")
    print("| editions | rules (old → new) | build both (baseline) | naive line diff | mapping | "
          "diff (mapping + words) | × build | facade, warm |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for ruleset, a, b in PAIRS:
        old, new = graphs[(ruleset, a)], graphs[(ruleset, b)]

        def build_both(ruleset: str = ruleset, a: str = a, b: str = b) -> None:
            for ed in (a, b):
                result, _ = read[(ruleset, ed)]
                build_edition(result, ruleset=ruleset, edition=ed)

        t_build = timed(build_both, args.rounds)
        t_naive = timed(lambda: naive_line_diff(old, new), args.rounds)
        t_map = timed(lambda: map_editions(old, new), args.rounds)
        t_diff = timed(lambda: diff_editions(old, new, map_editions(old, new)), args.rounds)
        kb.diff(ruleset, a, b)
        t_facade = timed(lambda: kb.diff(ruleset, a, b, only=["moved"]), args.rounds)
        print(f"| {ruleset} {a} → {b} | {len(old.edition.rules)} → {len(new.edition.rules)} | "
              f"{t_build * 1000:.0f} ms | {t_naive * 1000:.0f} ms | {t_map * 1000:.0f} ms | "
              f"{t_diff * 1000:.0f} ms | {t_diff / t_build:.2f}× | {t_facade * 1000:.1f} ms |")

    print("\n| sample | labelled | with a counterpart | removed | answered | correct | "
          "precision | recall | misses |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for path in sorted(SAMPLES.glob("*.yaml")):
        sample = load_sample(path)
        result = score(kb.edition_mapping(sample.ruleset, sample.source, sample.target), sample)
        misses = ", ".join(f"{e['number']}→{e['expected'] or '∅'} (got {e['got'] or '∅'})"
                           for e in result.errors) or "—"
        print(f"| {sample.ruleset} {sample.source} → {sample.target} | {result.labelled} | "
              f"{result.true_pairs} | {result.labelled - result.true_pairs} | {result.answered} | "
              f"{result.correct} | {result.precision:.3f} | {result.recall:.3f} | {misses} |")

    print("\n| editions | without a counterpart | worded alike (0.75+) under the ancestor's counterpart: "
          "free (missed) | ... paired with another rule (merged or restated) | e.g. |")
    print("|---|---:|---:|---:|---|")
    for ruleset, a, b in PAIRS:
        for x, y in ((a, b), (b, a)):
            old, new = graphs[(ruleset, x)], graphs[(ruleset, y)]
            mapping = map_editions(old, new)
            found = removed_beside_alike(mapping, old, new)
            missed = [f for f in found if f.alike_origin is None]
            shown = ", ".join(f"{f.number}~{f.alike} ({f.similarity:.2f}, {f.alike_origin or 'free'})"
                              for f in (missed or found)[:3]) or "—"
            print(f"| {ruleset} {x} → {y} | {sum(c.target is None for c in mapping.pairs.values())} | "
                  f"{len(missed)} | {len(found) - len(missed)} | {shown} |")

    data = kb.diff("mtg", "2010-10-01", "2026-01-16")["summary"]
    print(f"\nMagic 2010-10-01 → 2026-01-16: {data['added']} added, {data['removed']} removed, "
          f"{data['changed']} changed, {data['moved']} moved ({data['renumbered_only']} renumbered only), "
          f"{data['unchanged']} unchanged")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
