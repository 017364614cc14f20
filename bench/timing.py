"""Timing model: how long one ``next`` step and one scenario run take.

    .venv/bin/python -m bench.timing              # 7 rounds
    .venv/bin/python -m bench.timing --rounds 15

States: every frame of every packaged worked scenario (the states a judge would paste into
``rulekb timing next``). Measured, in the same process, each warmed by one round first:

- ``next`` (engine): validate the state, take the automatic steps, then list the decision
  with every legal option and the tempting illegal ones;
- ``next`` (facade): the same through ``KnowledgeBase.timing_next`` from the state's JSON,
  with the explanations rendered (rule text quoted from the embedded 1.4 excerpt);
- a full scenario run, engine only and through ``KnowledgeBase.timing_run`` (JSON frames);
- baseline: a JSON round trip (``dumps`` + ``loads``) of the same state, so the ratios say how
  many JSON round trips of its input one answer costs, on any machine.

Medians over all states (scenarios) of the per-item median over the rounds.

The same ``next`` measures follow for the Magic model (every frame of its worked scenarios,
against the JSON round trip of those states), quoting from the real 2010 and 2026
Comprehensive Rules when ``../shared`` is present (otherwise the explanations say the rules
are not loaded).
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kb.graph import build_edition
from kb.query import KnowledgeBase
from kb.read import read_document
from kb.timing import engine, load_scenario, scenario_files
from kb.timing.models import get_model
from kb.timing.scenario import load, run

REPO = Path(__file__).resolve().parent.parent


def per_item(items: list[Any], fn: Callable[[Any], Any], rounds: int) -> float:
    """Median over items of each item's median time over ``rounds`` (seconds)."""
    for item in items:  # warm
        fn(item)
    medians = []
    gc.disable()
    try:
        for item in items:
            times = []
            for _ in range(rounds):
                t = time.perf_counter()
                fn(item)
                times.append(time.perf_counter() - t)
            medians.append(statistics.median(times))
    finally:
        gc.enable()
    return statistics.median(medians)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    path = REPO / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"
    result, fmt = read_document(path)
    kb = KnowledgeBase.from_graphs([build_edition(result, ruleset="riftbound", edition="1.4", partial=True)])
    files = scenario_files("riftbound")
    states = [f.state for p in files for f in run(load(p)).frames]
    parsed = [get_model("riftbound").state_from_json(s)[:2] for s in states]
    scenarios = [load(p) for p in files]
    raw = [load_scenario(p.stem) for p in files]

    base = per_item(states, lambda s: json.loads(json.dumps(s)), args.rounds)
    rows = [
        ("next, engine (validate, advance, decision)", per_item(parsed, lambda ms: engine.next_steps(*ms),
                                                                 args.rounds)),
        ("next, facade (JSON in, explained JSON out)", per_item(states, kb.timing_next, args.rounds)),
        ("scenario run, engine", per_item(scenarios, run, args.rounds)),
        ("scenario run, facade (explained JSON frames)", per_item(raw, kb.timing_run, args.rounds)),
    ]
    frames = len(states) / len(files)
    print(f"{len(states)} states from {len(files)} worked scenarios ({frames:.0f} frames each on average), "
          f"{args.rounds} rounds")
    print(f"{'measure':<48} {'median':>10} {'× baseline':>11}")
    print(f"{'baseline: JSON round trip of the state':<48} {base * 1e6:>8.1f}µs {1:>10.1f}×")
    for name, t in rows:
        shown = f"{t * 1e3:>8.2f}ms" if t >= 1e-3 else f"{t * 1e6:>8.1f}µs"
        print(f"{name:<48} {shown} {t / base:>10.1f}×")
    magic(args.rounds)


def magic(rounds: int) -> None:
    """The Magic model's ``next`` step, against its own states' JSON round trip."""
    graphs = []
    shared = REPO.parent / "shared" / "corpora" / "mtg"
    for edition in ("2010-10-01", "2026-01-16"):
        path = shared / f"comprehensive-rules-{edition}.txt"
        if path.exists():
            result, _ = read_document(path)
            graphs.append(build_edition(result, ruleset="mtg", edition=edition, date=edition))
    kb = KnowledgeBase.from_graphs(graphs)
    spec = get_model("mtg")
    files = scenario_files("mtg")
    states = [f.state for p in files for f in run(load(p)).frames]
    parsed = [spec.state_from_json(s, None)[:2] for s in states]
    base = per_item(states, lambda s: json.loads(json.dumps(s)), rounds)
    rows = [
        ("next, engine (validate, advance, decision)", per_item(parsed, lambda ms: engine.next_steps(*ms), rounds)),
        ("next, facade (JSON in, explained JSON out)", per_item(states, kb.timing_next, rounds)),
    ]
    quoted = "rule text quoted from the 2010 and 2026 documents" if graphs else "rules not loaded"
    print(f"\nMagic: {len(states)} states from {len(files)} worked scenarios ({quoted}), {rounds} rounds")
    print(f"{'measure':<48} {'median':>10} {'× baseline':>11}")
    print(f"{'baseline: JSON round trip of the state':<48} {base * 1e6:>8.1f}µs {1:>10.1f}×")
    for name, t in rows:
        shown = f"{t * 1e3:>8.2f}ms" if t >= 1e-3 else f"{t * 1e6:>8.1f}µs"
        print(f"{name:<48} {shown} {t / base:>10.1f}×")


if __name__ == "__main__":
    main()
