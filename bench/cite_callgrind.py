"""Citation linking counted by callgrind: instructions and simulated cache misses per phase.

    .venv/bin/python -m bench.cite_callgrind build /tmp/kbhome        # once, outside valgrind
    valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file=/tmp/cg/callgrind.out.%p \\
        .venv/bin/python -m bench.cite_callgrind run /tmp/kbhome --renders 3 --sizes 10 100 [--keep 4]
    .venv/bin/python -m bench.cite_callgrind summary /tmp/cg

``run`` opens the knowledge base ``build`` made (building under valgrind would trace the
build's worker processes too), and per size renders the lessons' article of
:func:`bench.cite.article` once in each way (a warm-up), then, after a garbage collection,
``--renders`` times plain ``MarkdownIt("commonmark").use(footnote_plugin).render`` (``bench.cite.plain_parser``), the ``rule_citations`` plugin
and the facade ``KnowledgeBase.citations_annotate``, each phase dumped by ``callgrind_control
-d``; an empty phase measures what a dump itself costs (a subprocess), which ``summary``
subtracts from each. ``summary`` prints each phase's events (instructions, data reads and
writes, and with ``--cache-sim=yes`` the I1 and D1 misses) and their ratio to plain
rendering's. Wall clock is ``bench.cite``'s; instruction counts do not move with the load
of a shared machine, and the cache simulation shows what the instruction count leaves out.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import subprocess
from pathlib import Path

PHASES = ("noop", "plain", "plugin", "facade")
EVENTS = ("Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw")


def _dump(label: str) -> None:
    subprocess.run(["callgrind_control", "-d", label, str(os.getpid())],
                   stdout=subprocess.DEVNULL, check=True)


def run(home: Path, renders: int, sizes: list[int], keep: int = 1) -> None:
    """The phases (see the module docstring), under callgrind."""
    from markdown_it import MarkdownIt

    from bench.cite import article, plain_parser
    from kb.cite import rule_citations
    from kb.query import KnowledgeBase

    kb = KnowledgeBase.open(home)
    plain = plain_parser()
    linked = MarkdownIt("commonmark", {"html": False}).use(
        rule_citations, kb=kb, ruleset="riftbound", edition="1.4")
    for size in sizes:
        text = article(size, keep)
        ways = {"noop": lambda: None, "plain": lambda: plain.render(text),
                "plugin": lambda: linked.render(text, {}),
                "facade": lambda: kb.citations_annotate(text, "riftbound", "1.4")}
        for fn in ways.values():
            fn()
        for name, fn in ways.items():
            gc.collect()
            _dump(f"setup_s{size}_{name}")  # labels start with a letter: a number reads as a pid
            for _ in range(renders if name != "noop" else 1):
                fn()
            _dump(f"phase_s{size}_{name}")


def summary(folder: Path) -> list[str]:
    """Each phase's events less the empty phase's, and their ratio to plain rendering's."""
    counts: dict[str, list[int]] = {}
    for path in folder.glob("callgrind.out.*"):
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
        label = re.search(r"^desc: Trigger: (?:Client Request: )?dump (\S+)", head, re.M)
        total = re.search(r"^summary: (.*)$", head, re.M)
        if label and total:
            counts[label.group(1)] = [int(x) for x in total.group(1).split()]
    # Without --cache-sim callgrind counts instructions only.
    events = EVENTS[:min((len(c) for c in counts.values()), default=len(EVENTS))]
    rows = ["| size | phase | " + " | ".join(events) + " |", "|---:|---|" + "---:|" * len(events)]
    sizes = sorted({int(m.group(1)) for k in counts if (m := re.match(r"phase_s(\d+)_", k))})
    for size in sizes:
        noop = counts.get(f"phase_s{size}_noop")
        base = counts.get(f"phase_s{size}_plain")
        if noop is None or base is None:
            continue
        plain = [b - n for b, n in zip(base, noop)]
        for phase in PHASES[1:]:
            got = counts.get(f"phase_s{size}_{phase}")
            if got is None:
                continue
            net = [g - n for g, n in zip(got, noop)]
            cells = [f"{v / 1e6:.2f} M ({v / p:.2f}×)" if p else f"{v / 1e6:.2f} M"
                     for v, p in zip(net, plain)]
            rows.append(f"| {size} KB | {phase} | " + " | ".join(cells[:len(events)]) + " |")
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="build the knowledge base into HOME (outside valgrind)")
    b.add_argument("home", type=Path)
    r = sub.add_parser("run", help="the phases, under valgrind --tool=callgrind")
    r.add_argument("home", type=Path)
    r.add_argument("--renders", type=int, default=3)
    r.add_argument("--sizes", type=int, nargs="+", default=[10, 100])
    r.add_argument("--keep", type=int, default=1,
                   help="keep every Nth citation of the lessons only (bench.cite's --keep)")
    s = sub.add_parser("summary", help="the table of a run's dumps")
    s.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.command == "build":
        from kb.store import build

        build(args.home)
    elif args.command == "run":
        if not (args.home / "current").exists():
            parser.error(f"no knowledge base in {args.home}: run 'build {args.home}' first")
        run(args.home, args.renders, args.sizes, args.keep)
    else:
        rows = summary(args.folder)
        if len(rows) == 2:
            parser.error(f"no phases dumped in {args.folder}")
        print("\n".join(rows))


if __name__ == "__main__":
    main()
