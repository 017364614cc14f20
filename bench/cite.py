"""Citation linking: annotating an article against plain markdown-it-py rendering of it.

    .venv/bin/python -m bench.cite                 # 10 KB, 100 KB, 1 MB; hostile inputs
    .venv/bin/python -m bench.cite --runs 7 --sizes 10 100

The article is the two footnoted lessons (tests/fixtures/cite, one citation every ~135
bytes) repeated to each size; ``--keep 8`` keeps every 8th citation only (one per ~1 KB;
the Magic article in the seeds has one per ~480 bytes, about ``--keep 4``). Per size, the
timings run in rounds: each round times plain rendering, the plugin, the facade and the
plugin with cold caches once each, in this order in even rounds and the reverse in odd ones
(so that no timing always follows the same other one), each run after a garbage
collection (untimed; the collector stays on while timing), in CPU time of this process
(``time.process_time``: the code is single-threaded, and other jobs on a shared machine
do not count). A timing's ratio is the median of its per-round ratios to the same round's
plain run (the two run within a few milliseconds of each other, so a slower spell of a
shared machine slows both), shown with the spread of those ratios (``p25–p75``, the middle
half of the rounds); the times shown are medians. A size under 100 KB gets more rounds
(``--runs`` × 100 / size, at most 10×): its runs are short, and their ratios spread more.
Each timed run is one render after the collection (``--repeat N``: N renders in a row
after it, a server's steady state, where the collection's eviction of the processor's
caches is paid once in N). The timings: plain ``MarkdownIt("commonmark").use(footnote_plugin).render`` (the baseline: :func:`plain_parser`), the same parser
with the ``rule_citations`` plugin (find, resolve, link, footnotes, the report in
``env``), the facade ``KnowledgeBase.citations_annotate`` (the plugin plus the response
the API and ``rulekb link`` return; its parser also reads GFM tables), and last the plugin
with every cache emptied before each run ("cold": a knowledge base just loaded, nothing
linked yet; the warm parser renders once after it, untimed, so that the next round's
timings find the caches as warm as before). Ratios are against the
baseline at the same size; µs/KB shows whether growth is linear. The knowledge base is the
embedded 1.4 excerpt, built once into a temporary folder.

A last table is the lessons' article with every citation naming the next rule of the edition
(``distinct_article``): no citation repeats until every rule has been cited, so what a
document shares between the places citing the same rule counts for little there.

The goal is the plugin at most 1.5× plain rendering (``GOAL``): each table says whether it is
met at each size, and the load average of the machine is printed before and after.

``--floor`` adds what no linker of this report can go below, at the lessons' density: per
citation, the values the report keeps (a ``Citation``, the report entry copied from its
template, whose tuples places share, and the place's two offsets; a place's own
``Resolution`` is made only when ``resolutions`` is read), made with no logic at all, and
the grammar's regex matches at the places the finder matches, each against plain rendering
(the collector on, as in the other tables).

``--fixed`` adds what linking costs per document rather than per citation: an empty
document, 1 KB without a citation, a one-line document citing one rule, 1 KB and 10 KB of
the lessons, and 10 KB of the lessons with every citation naming one rule; each the plugin
and the facade against plain rendering, the added time per document and per citation, so
that a per-document cost (set-up, the edition's choice, the footnote section) shows apart
from the cost of a citation and of a rule's first citation in the document.

Hostile inputs (goal: bounded time, no error): 1 MB of digits and dots; a list of 100 000
citations ("rules 100.1, 101.2, …", about 0.7 MB) through the finder, the lookup and the
annotator (10 000 are looked up, the rest reported over the limit); 1 MB of unclosed
quotation marks and keywords.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.footnote import footnote_plugin

from kb.cite import find_citations, rule_citations
from kb.cite.annotate import (_FOOTNOTE_HTML, _FOOTNOTE_PARTS, _NUMBERED, _RULE_NOTES, _back_links, _open_link,
                              rule_url)
from kb.cite.find import Citation
from kb.cite.mdit import _KNOWN_OK, _SHARED_OK, ENV_KEY
from kb.numbers import _parsed, _sort_key
from kb.references import _MENTION, _parse_alone, head_number, phrase_matches
from kb.query import KnowledgeBase
from kb.store import build

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "cite"
LESSONS = ["lesson-passing-and-resolving.md", "lesson-combat-showdown.md"]
# What "cold caches" empties: the process-wide caches of rendering and parsing (an
# edition's own caches go with the knowledge base loaded anew).
CACHES: list[Callable[[], None]] = [
    _FOOTNOTE_HTML.clear, _FOOTNOTE_PARTS.clear, _RULE_NOTES.clear, _NUMBERED.clear,
    _back_links.cache_clear, _open_link.cache_clear, rule_url.cache_clear, _SHARED_OK.clear,
    _KNOWN_OK.clear, _parsed.cache_clear, _sort_key.cache_clear, _parse_alone.cache_clear,
    head_number.cache_clear]
GOAL = 1.5  # the plugin against plain rendering


def article(size_kb: int, keep: int = 1) -> str:
    """The lessons (front matter dropped) repeated to ``size_kb`` kilobytes; with ``keep``
    N only every Nth citation stays one (the others read "item 337.1"), for a sparser article."""
    parts = []
    for name in LESSONS:
        text = (FIXTURES / name).read_text(encoding="utf-8")
        parts.append(text.split("---\n", 2)[2])
    unit = "\n".join(parts) + "\n"
    if keep > 1:
        count = iter(range(10**9))
        unit = re.sub(r"\b[Rr]ule(?= \d)", lambda m: m.group(0) if next(count) % keep == 0 else "item", unit)
    need = size_kb * 1024
    return (unit * (need // len(unit.encode()) + 1))[:need].rsplit("\n", 1)[0] + "\n"


# A rule citation of the lessons and its number ("rule 464.2", "Rule 316.8.c", "[rule 310.3]").
_CITED_NUMBER = re.compile(r"(?<=\b[Rr]ule )\d{3}(?:\.[0-9a-z]+)*")


def distinct_article(size_kb: int, numbers: list[str]) -> str:
    """:func:`article` with each citation naming the next of ``numbers`` (an edition's rules
    in document order) instead of the lessons' rule: no two citations name the same rule
    until every rule has been cited, so the per-document sharing of resolutions, report
    templates and footnotes counts for little (and the footer holds a footnote per rule)."""
    following = iter(numbers * (size_kb * 1024 // 100 // max(1, len(numbers)) + 1))
    return _CITED_NUMBER.sub(lambda m: next(following), article(size_kb))


def interleaved(timings: dict[str, Callable[[], Any]], runs: int,
                before: dict[str, Callable[[], Any]] | None = None,
                after: dict[str, Callable[[], Any]] | None = None,
                collect: Callable[[], Any] = gc.collect) -> dict[str, float]:
    """Median CPU time of each function, the runs interleaved; ``before[name]`` runs
    untimed before each run of ``name``, and so does a garbage collection (``collect``);
    ``after[name]`` runs untimed after it."""
    return {name: statistics.median(ts)
            for name, ts in rounds(timings, runs, before, after, collect=collect).items()}


def rounds(timings: dict[str, Callable[[], Any]], runs: int,
           before: dict[str, Callable[[], Any]] | None = None,
           after: dict[str, Callable[[], Any]] | None = None,
           alternate: bool = False, collect: Callable[[], Any] = gc.collect) -> dict[str, list[float]]:
    """Each function's CPU time in each of ``runs`` rounds (see :func:`interleaved`); with
    ``alternate``, odd rounds run the functions in the reverse order. ``collect`` is the
    garbage collection before each run (the tests count its calls instead: a collection in a
    test process holding many knowledge bases takes most of a second)."""
    times: dict[str, list[float]] = {name: [] for name in timings}
    order = list(timings.items())
    for round_ in range(runs):
        for name, fn in (order[::-1] if alternate and round_ % 2 else order):
            if before and name in before:
                before[name]()
            collect()  # each run starts without the garbage of the last (GC stays on)
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
            if after and name in after:
                after[name]()
    return times


def paired_ratio(times: list[float], base: list[float]) -> tuple[float, float, float]:
    """The median of the per-round ratios ``times[i] / base[i]`` and their first and third
    quartiles (the spread of the middle half of the rounds).

    >>> paired_ratio([2.0, 3.0, 1.5, 2.0], [1.0, 2.0, 1.0, 1.0])
    (1.75, 1.5, 2.0)
    """
    ratios = [t / b for t, b in zip(times, base) if b > 0]
    if len(ratios) < 2:
        return (ratios[0],) * 3 if ratios else (float("nan"),) * 3
    low, _, high = statistics.quantiles(ratios, n=4, method="inclusive")
    return statistics.median(ratios), low, high


def rounds_for(size_kb: int, runs: int) -> int:
    """How many rounds a size gets: ``runs`` from 100 KB up, more for a smaller size (its
    runs are short and their ratios spread more), at most ten times as many."""
    return max(3, runs) * min(10, max(1, 100 // max(1, size_kb)))


def plain_parser() -> MarkdownIt:
    """The baseline: markdown-it-py's commonmark parser with the plugin the linker brings in
    for the author's own text (mdit_py_plugins' footnotes, ``[^1]``), so that both sides
    render an article's footnotes alike and the ratio is the linking's alone. (The
    linker's front matter rule stays counted as its own, as before.)"""
    return MarkdownIt("commonmark", {"html": False}).use(footnote_plugin)


def against(seconds: float, base: float) -> str:
    """Two cells of a table: a time in ms, and its ratio to ``base``."""
    return f"{seconds * 1000:.1f} ms | {seconds / base:.2f}×"


def paired_cells(times: list[float], base: list[float]) -> str:
    """Two cells of a table: the median time in ms, and :func:`paired_ratio` with its spread."""
    ratio, low, high = paired_ratio(times, base)
    return f"{statistics.median(times) * 1000:.1f} ms | {ratio:.2f}× ({low:.2f}–{high:.2f})"


def sizes_table(home: Path, kb: KnowledgeBase, sizes: list[int], runs: int, keep: int = 1,
                distinct: bool = False, repeat: int = 1) -> list[str]:
    plain = plain_parser()
    linked = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
    fresh: dict[str, Any] = {}

    def empty_caches() -> None:
        """A knowledge base just loaded (its editions' caches empty), nothing linked yet."""
        cold_kb = KnowledgeBase.open(home)
        md = fresh["md"] = MarkdownIt("commonmark", {"html": False}).use(
            rule_citations, kb=cold_kb, ruleset="riftbound", edition="1.4")
        for ruler in (md.core.ruler, md.block.ruler, md.inline.ruler, md.inline.ruler2):
            ruler.getRules("")  # the parser's own set-up is not the linker's
        for clear in CACHES:
            clear()

    rows = ["| size | citations | rounds | plain markdown-it | plugin | × plain (p25–p75) | plugin, cold "
            f"caches | × plain (p25–p75) | facade (with report) | × plain (p25–p75) | plugin µs/KB "
            f"| plugin ≤ {GOAL}× | facade ≤ {GOAL}× |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|:---:|"]
    print("\n".join(rows), flush=True)
    numbers = list(kb.edition("riftbound", "1.4").edition.rules) if distinct else []
    for size in sizes:
        text = distinct_article(size, numbers) if distinct else article(size, keep)
        cited = find_citations(text)
        n = len(cited)
        linked.render(text, {})  # warm the edition's caches
        r = rounds_for(size, runs)

        def renders(fn: Callable[[], Any]) -> Callable[[], None]:
            def run() -> None:
                for _ in range(repeat):
                    fn()
            return run

        # The cold run empties the process-wide caches and fills them with another load's
        # rules: a render of the warm parser after it (untimed) fills them again, so that
        # the next timing is as warm as the plugin's (the facade timed straight after the
        # cold run paid a first render's work for every rule of the article).
        t = rounds({"plain": renders(lambda: plain.render(text)),
                    "plugin": renders(lambda: linked.render(text, {})),
                    "facade": renders(lambda: kb.citations_annotate(text, "riftbound", "1.4")),
                    "cold": lambda: fresh["md"].render(text, {})},
                   r, before={"cold": empty_caches}, after={"cold": lambda: linked.render(text, {})},
                   alternate=True)
        # A cold run is one render: its base is one plain render (a round's time / repeat).
        base = t["plain"]
        single = [b / repeat for b in base]
        plugin, facade = paired_ratio(t["plugin"], base)[0], paired_ratio(t["facade"], base)[0]
        shown = f"{n} ({len({c.number for c in cited})} distinct)" if distinct else str(n)
        rows.append(f"| {size} KB | {shown} | {r} | {statistics.median(single) * 1000:.1f} ms | "
                    f"{paired_cells([x / repeat for x in t['plugin']], single)} | "
                    f"{paired_cells(t['cold'], single)} | "
                    f"{paired_cells([x / repeat for x in t['facade']], single)} | "
                    f"{statistics.median(t['plugin']) / repeat / size * 1e6:.0f} | "
                    f"{'yes' if plugin <= GOAL else 'no'} | {'yes' if facade <= GOAL else 'no'} |")
        print(rows[-1], flush=True)
    return rows


def floor_table(kb: KnowledgeBase, sizes: list[int], runs: int) -> list[str]:
    """What the report's values and the grammar's matches cost by themselves (see the
    module docstring), against plain rendering, at the lessons' density."""
    plain = plain_parser()
    linked = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
    rows = ["| size | citations | plain markdown-it | the report's values | × plain | the grammar's "
            "matches | × plain | floor (both) | plugin | × plain |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    print("\n".join(rows), flush=True)
    for size in sizes:
        text = article(size)
        env: dict[str, Any] = {}
        linked.render(text, env)
        report = env[ENV_KEY]
        made = [(entry, res.citation) for entry, (_, _, res) in zip(report["citations"], report["resolutions"])]
        inlines = [t.content for t in plain.parse(text) if t.type == "inline"]
        places = [(content, phrase[0]) for content in inlines for phrase in phrase_matches(content)]
        new, match = tuple.__new__, _MENTION.match

        def values() -> None:
            kept = []
            offsets: list[int] = []
            for entry, c in made:
                again = new(Citation, (c.start, c.end, c.text, c.number, c.numbers, c.form, c.last,
                                       c.full_start, c.full_end, c.quote))
                copy = entry.copy()
                offsets += (copy["start"], copy["end"])
                kept.append((copy, again))

        def matches() -> None:
            for content, at in places:
                match(content, at).groups()

        t = interleaved({"plain": lambda: plain.render(text), "values": values, "matches": matches,
                         "plugin": lambda: linked.render(text, {})}, max(3, runs))
        base = t["plain"]
        rows.append(f"| {size} KB | {len(made)} | {base * 1000:.1f} ms | {against(t['values'], base)} | "
                    f"{against(t['matches'], base)} | {1 + (t['values'] + t['matches']) / base:.2f}× | "
                    f"{against(t['plugin'], base)} |")
        print(rows[-1], flush=True)
    return rows


def fixed_documents() -> dict[str, str]:
    """The documents of :func:`fixed_table`, by the name its rows give them."""
    lessons = article(10)
    return {"empty": "", "1 KB, no citation": "Just some words in a paragraph of text.\n\n" * 25,
            "one citation": "See rule 337.1 here.\n", "1 KB of the lessons": article(1),
            "10 KB of the lessons": lessons,
            "10 KB, every citation rule 337.1": _CITED_NUMBER.sub("337.1", lessons)}


def fixed_table(kb: KnowledgeBase, runs: int) -> list[str]:
    """What the plugin and the facade add per document (see the module docstring), each
    timing the median of ``runs`` rounds, a round timing as many renders as take about
    2 ms of plain rendering (so that a short document's figure is not the clock's grain)."""
    plain = plain_parser()
    linked = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
    rows = ["| document | citations (distinct) | plain markdown-it | plugin | × plain | added per document "
            "| added per citation | facade | × plain | added per document |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    print("\n".join(rows), flush=True)
    for name, text in fixed_documents().items():
        cited = find_citations(text)
        linked.render(text, {})
        kb.citations_annotate(text, "riftbound", "1.4")
        start = time.process_time()
        plain.render(text)
        repeat = max(1, min(2000, int(0.002 / max(time.process_time() - start, 1e-6))))

        def times(fn: Callable[[], Any]) -> Callable[[], None]:
            def many() -> None:
                for _ in range(repeat):
                    fn()
            return many

        t = interleaved({"plain": times(lambda: plain.render(text)),
                         "plugin": times(lambda: linked.render(text, {})),
                         "facade": times(lambda: kb.citations_annotate(text, "riftbound", "1.4"))},
                        max(3, runs))
        base, plugin, facade = (t[k] / repeat for k in ("plain", "plugin", "facade"))
        per_citation = f"{(plugin - base) / len(cited) * 1e6:.1f} µs" if cited else "–"
        rows.append(f"| {name} | {len(cited)} ({len({c.number for c in cited})}) | {base * 1e6:.0f} µs | "
                    f"{plugin * 1e6:.0f} µs | {plugin / base:.2f}× | {(plugin - base) * 1e6:.0f} µs | "
                    f"{per_citation} | {facade * 1e6:.0f} µs | {facade / base:.2f}× | "
                    f"{(facade - base) * 1e6:.0f} µs |")
        print(rows[-1], flush=True)
    return rows


def hostile_table(kb: KnowledgeBase) -> list[str]:
    digits = ("1." * 600_000)[: 1024 * 1024]
    many = "rules " + ", ".join(f"{100 + i % 700}.{1 + i % 9}" for i in range(100_000)) + "\n"
    quotes = ('rule "' * 200_000)[: 1024 * 1024]
    rows = ["| input | size | step | citations | looked up | time |", "|---|---:|---|---:|---:|---:|"]
    print("\n".join(rows), flush=True)
    for name, text in [("digits and dots", digits), ("100 000 citations", many),
                       ("unclosed quotes after 'rule'", quotes)]:
        size = f"{len(text.encode()) / 1024:.0f} KB"
        for step, fn in [("find", lambda t=text: find_citations(t)),
                         ("lookup", lambda t=text: kb.citations_lookup(t, "riftbound", "1.4")),
                         ("annotate", lambda t=text: kb.citations_annotate(t, "riftbound", "1.4"))]:
            start = time.perf_counter()
            out = fn()
            took = time.perf_counter() - start
            if isinstance(out, list):
                found, looked = len(out), "–"
            else:
                found = out["summary"]["total"]
                looked = str(found - out["summary"]["over_limit"])
            rows.append(f"| {name} | {size} | {step} | {found} | {looked} | {took:.2f} s |")
            print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5,
                        help="rounds per size from 100 KB up (more below: see rounds_for)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="renders per timed run (1: one render after a garbage collection)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000], help="sizes in KB")
    parser.add_argument("--keep", type=int, nargs="*", default=[1, 4, 8],
                        help="densities: keep every Nth citation of the lessons (1: all; "
                             "none given: no density table)")
    parser.add_argument("--no-distinct", action="store_true",
                        help="skip the article whose citations each name another rule")
    parser.add_argument("--no-hostile", action="store_true", help="skip the hostile inputs")
    parser.add_argument("--fixed", action="store_true",
                        help="add what linking costs per document (short documents, 10 KB)")
    parser.add_argument("--floor", action="store_true",
                        help="add what the report's values and the grammar's matches cost alone")
    args = parser.parse_args(argv)
    print(load_average("before"))
    with tempfile.TemporaryDirectory() as home:
        build(Path(home))
        kb = KnowledgeBase.open(Path(home))
        for keep in args.keep:
            print(f"\nEvery {'' if keep == 1 else f'{keep}th '}citation of the lessons kept:")
            sizes_table(Path(home), kb, args.sizes, args.runs, keep, repeat=max(1, args.repeat))
        if not args.no_distinct:
            print("\nEvery citation of the lessons kept, each naming the next rule of the edition:")
            sizes_table(Path(home), kb, args.sizes, args.runs, distinct=True, repeat=max(1, args.repeat))
        if args.floor:
            print("\nThe floor at the lessons' density: the report's values and the grammar's matches alone:")
            floor_table(kb, args.sizes, args.runs)
        if args.fixed:
            print("\nWhat linking costs per document:")
            fixed_table(kb, args.runs)
        if not args.no_hostile:
            print()
            hostile_table(kb)
    print(load_average("\nafter"))


def load_average(when: str) -> str:
    """The machine's load average (1, 5, 15 minutes), for the record: on a shared machine
    the ratios, measured in one process with the runs interleaved, move less than the times."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:  # not available on this platform
        return f"{when}: load average unknown"
    return f"{when}: load average {one:.2f}, {five:.2f}, {fifteen:.2f} ({os.cpu_count()} cores)"


if __name__ == "__main__":
    main()
