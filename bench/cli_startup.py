"""What a judge pays per ``rulekb`` call: CPU seconds of the whole process and the modules
it imported, for the read-only commands run at an event.

    .venv/bin/python -m bench.cli_startup --home DIR [--runs 7] [--baseline TREE] [--tree TREE]

Each command runs ``--runs`` times as its own process (the console script's entry point,
``kb.cli:main``); the figure is the median of the child's user+system CPU seconds (from
``os.wait4``), which a loaded machine disturbs far less than wall-clock time. The heavy
libraries column says which of docx, numpy, pypdf, kb.read it imported.

``--baseline TREE`` (a folder holding another version's ``kb/``, e.g. from
``git archive COMMIT kb | tar -x -C TREE``) runs that version too, its runs interleaved with
this one's so both see the same load, and prints the ratio of the medians. ``--tree TREE``
runs that folder's ``kb/`` as "this" version instead of the checkout's (two clean archives
compared, without the uncommitted edits of a shared checkout).

The children write and read their bytecode under a cache folder of the run's own
(``PYTHONPYCACHEPREFIX``; a shell's ``PYTHONDONTWRITEBYTECODE`` is dropped for them), and
each version runs once unmeasured first: an installed rulekb has its modules compiled, so
compiling every module again on each call is no part of what a judge pays.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

QUESTION = "can I respond to a unit being played"
COMMANDS: list[list[str]] = [
    ["rule", "337.2"],
    ["search", "showdown"],
    ["search", QUESTION],  # a judge's question, as typed at an event
    ["search", "who receives priority after a player passes", "--ruleset", "mtg"],
    ["editions"],
    ["rulings", "list"],
    ["timing", "list"],
    ["link", "{article}"],
]
ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("docx", "numpy", "pypdf", "kb.read")
PROBE = ("import atexit, os, sys; "
         "atexit.register(lambda: open(os.environ['RULEKB_BENCH_MODULES'], 'w').write('\\n'.join(sys.modules)))")
ARTICLE = "Players pass priority as rule 337.2 says; see also 116.3.\n"


def run_once(args: list[str], home: Path, modules_file: Path | None, tree: Path | None = None,
             pycache: Path | None = None) -> float:
    """CPU seconds (user + system) of one ``rulekb ARGS`` process (``kb`` from ``tree`` if
    given; its bytecode kept under ``pycache`` if given)."""
    code = (PROBE + "; " if modules_file else "") + "import sys; from kb.cli import main; sys.argv[0] = 'rulekb'; main()"
    env = dict(os.environ, RULEKB_HOME=str(home), RULEKB_RULES=str(ROOT / "rules"))
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if modules_file:
        env["RULEKB_BENCH_MODULES"] = str(modules_file)
    proc = subprocess.Popen([sys.executable, "-c", code, *args], env=env, cwd=tree or ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"rulekb {' '.join(args)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Print one line per command: median CPU seconds, modules imported, heavy ones among them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", type=Path, required=True, help="a built data directory")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--baseline", type=Path, default=None, help="a folder holding another version's kb/")
    parser.add_argument("--tree", type=Path, default=None,
                        help="a folder holding the kb/ to measure (default: this checkout's)")
    opts = parser.parse_args()
    for tree in (opts.baseline, opts.tree):
        if tree is not None and not (tree / "kb" / "cli").is_dir():
            parser.error(f"{tree} holds no kb/cli/ (make it with: git archive COMMIT kb | tar -x -C {tree})")
    pycache = Path(tempfile.mkdtemp(prefix="cli_startup_pycache_"))
    article = Path("/tmp") / f"cli_startup_{os.getpid()}.md"
    article.write_text(ARTICLE, encoding="utf-8")
    modules_file = Path("/tmp") / f"cli_startup_{os.getpid()}.modules"
    try:
        extra = f" {'baseline':>9} {'ratio':>6}" if opts.baseline else ""
        print(f"{'command':46} {'CPU s (median)':>15} {'min':>6} {'max':>6}{extra} {'modules':>8}  heavy")
        for command in COMMANDS:
            args = [a.replace("{article}", str(article)) for a in command]
            run_once(args, opts.home, modules_file, opts.tree, pycache)  # also compiles its modules
            if opts.baseline:
                run_once(args, opts.home, None, opts.baseline, pycache)
            modules = modules_file.read_text().split("\n")
            heavy = [h for h in HEAVY if h in modules]
            cpu: list[float] = []
            base: list[float] = []
            for _ in range(opts.runs):
                if opts.baseline:
                    base.append(run_once(args, opts.home, None, opts.baseline, pycache))
                cpu.append(run_once(args, opts.home, None, opts.tree, pycache))
            label = " ".join(a if " " not in a else repr(a) for a in command)
            extra = (f" {statistics.median(base):9.3f} {statistics.median(cpu) / statistics.median(base):6.2f}"
                     if base else "")
            print(f"{label:46} {statistics.median(cpu):15.3f} {min(cpu):6.3f} {max(cpu):6.3f}{extra} "
                  f"{len(modules):8}  {', '.join(heavy) or '-'}")
    finally:
        article.unlink(missing_ok=True)
        modules_file.unlink(missing_ok=True)
        shutil.rmtree(pycache, ignore_errors=True)


if __name__ == "__main__":
    main()
