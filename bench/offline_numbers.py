"""The offline search against the server's on rule numbers typed as judges type them, over
the full editions in ../shared (Riftbound 1.4, Magic 2026-01-16).

For a seeded sample of each edition's rules it types each number the ways a judge does
(as written, ``r``/``CR``/``rule`` before it, a range of it and its next sibling, a list of
two, with ``;``, a section's range, its dots dropped or doubled, a subrule the edition
lacks) and compares the server's answer (``KnowledgeBase.search``, the rules alone, as the
pack searches) with node's (``web/static/offline-search.js`` over the edition's exported
index): the rules listed in order and how, the paging, the jump, did_you_mean and
no_such_rule's number, message and nearest (not ``elsewhere``: the pack holds no other
edition's history). Prints the forms, the mismatches and node's milliseconds per query.

    .venv/bin/python -m bench.offline_numbers [--rules 150] [--seed 5]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.export import EXPORTED, knowledge_base
from bench.search import EDITIONS, load_graph
from kb.export.jsrun import node_path, run_queries
from kb.graph import RuleGraph
from kb.numbers import parse_number
from web.pack import search_index_script


def typed_forms(rg: RuleGraph, count: int, rng: random.Random) -> list[str]:
    """Rule numbers of ``rg`` typed the ways judges type them, for ``count`` sampled rules."""
    rules = list(rg.edition.rules.values())
    out: list[str] = []
    for rule in rng.sample(rules, min(count, len(rules))):
        n = rule.number
        out += [n, f"r{n}", f"CR {n}", f"rule {n}.", n.replace(".", ""), n.replace(".", "..", 1)]
        siblings = rg.edition.rules[rule.parent].children if rule.parent else []
        later = [s for s in siblings if rg.edition.rules[s].order > rule.order]
        if later:
            out += [f"{n}-{later[0]}", f"{n} and {later[0]}", f"{n}; {later[-1]}", f"rules {n} – {later[-1]}"]
        segs = parse_number(n)
        out.append(n + (".z" if rg.edition.number_style == "dotted" or segs[-1].isalpha() else "z"))
    heads = sorted({r.segments[0] for r in rules if len(r.segments) == 1}, key=int)
    out += [f"{heads[i]}-{heads[min(i + 40, len(heads) - 1)]}" for i in range(0, len(heads), 25)]
    return list(dict.fromkeys(out))


def answer(r: dict[str, Any]) -> dict[str, Any]:
    """What the two answers must share (see the module's docstring)."""
    missing = r.get("no_such_rule")
    return {"query": r["query"], "total": r["total"], "offset": r["offset"], "jump": r["jump"],
            "did_you_mean": r["did_you_mean"], "results": [(h["number"], h["match"]) for h in r["results"]],
            "no_such_rule": missing and {k: missing[k] for k in ("number", "message", "nearest")}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", type=int, default=150, help="rules sampled per edition")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    if node_path() is None:
        raise SystemExit("node is not installed")
    graphs = [load_graph(r, e) for r, e in EXPORTED if (r, e) in EDITIONS]
    with tempfile.TemporaryDirectory() as tmp:
        kb = knowledge_base(graphs, Path(tmp) / "build")
        for rg in graphs:
            rs, ed = rg.edition.ruleset, rg.edition.name
            index = Path(tmp) / f"{rs}-{ed}.js"
            index.write_text(search_index_script(kb, rs, ed, lambda n: n), encoding="utf-8")
            forms = typed_forms(rg, args.rules, random.Random(args.seed))
            offline, ms = run_queries([index], [{"query": q, "ruleset": rs, "edition": ed} for q in forms])
            started = time.process_time()
            server = [kb.search(q, rs, ed, rulings=False) for q in forms]
            cpu = time.process_time() - started
            wrong = [(q, answer(s), a) for q, s, a in zip(forms, server, offline)
                     if "error" in a or answer(s) != answer(a)]
            listed = sum(1 for s in server if s["total"] > 1 and s["jump"] is None and s["results"]
                         and s["results"][0]["match"] == "number")
            said = sum(1 for s in server if s["no_such_rule"])
            print(f"{rs} {ed}: {len(forms)} typed forms ({listed} lists or ranges, {said} said missing): "
                  f"{len(wrong)} differ; node {ms / len(forms):.2f} ms per query, "
                  f"server {1000 * cpu / len(forms):.2f} ms CPU per query")
            for q, s, a in wrong[:10]:
                print(f"  {q!r}\n    server:  {s}\n    offline: {a.get('error') or answer(a)}")


if __name__ == "__main__":
    main()
