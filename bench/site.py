"""The rules browser: how big its pages get, and how fast a rule page renders in a browser.

    .venv/bin/python -m bench.site                 # sizes of every page, then browser timings
    .venv/bin/python -m bench.site --no-sizes      # browser timings only
    .venv/bin/python -m bench.site --runs 7 --rules 30

**Sizes.** Every page of every edition is rendered through the Flask test client: the
contents, the glossary (each letter page when split), every rule page that holds more than
one rule (each of its parts) and every page of the diffs between consecutive editions. The
table gives the largest page of each kind per edition, against the 100 KB goal (issue 5).
Uses the real documents in ../shared/corpora when they are there, else the embedded excerpt.

**Rendering.** The site is served by waitress in this process (a thread, loopback, a free
port) and Debian's ``/usr/bin/chromium`` (headless, driven by Playwright) loads a sample of
rule pages; each page's time is the browser's own Navigation Timing from the start of the
navigation to the end of the load event (request, server, parse, style, layout, script).
Baseline: a bare HTML page of a few bytes from the same server, measured interleaved in
the same runs. The first rule page of a ruleset after start also builds the per-build
caches (term patterns, the edition mapping for the history panel, the worked scenarios'
runs) and is reported on its own; cold = the first load of every other sampled page,
warm = the median of ``--runs`` later loads of each. Goal: a rule page under 200 ms.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from kb.query import KnowledgeBase

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GOAL_BYTES = 100_000
GOAL_MS = 200.0


def load_kb() -> tuple[KnowledgeBase, str]:
    """Every real edition when ../shared is there, else the embedded excerpt."""
    sys.path.insert(0, str(REPO))
    from tests.conftest import CORPUS_EDITIONS, corpus_graph, shared_available
    if shared_available():
        kb = KnowledgeBase.from_graphs([corpus_graph(rs, ed) for rs, ed, _, _ in CORPUS_EDITIONS])
        return kb, "the real documents in ../shared/corpora (7 editions)"
    from kb.store import build
    home = Path(tempfile.mkdtemp(prefix="rulekb-bench-site-"))
    build(home)
    return KnowledgeBase.open(home), "the embedded excerpt (../shared absent)"


def _parts(html: str) -> int:
    m = re.search(r"Part \d+ of (\d+)", html)
    return int(m.group(1)) if m else 1


def page_sizes(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """The largest page of each kind, per edition."""
    from web import create_app
    client = create_app(kb=kb).test_client()
    rows = []
    for r in kb.rulesets():
        rs = r["name"]
        names = [e["edition"] for e in kb.editions(rs)]
        for ed in names:
            start = time.perf_counter()
            biggest: dict[str, tuple[int, str]] = {}

            def fetch(kind: str, url: str) -> str:
                resp = client.get(url)
                assert resp.status_code == 200, (url, resp.status_code)
                size = len(resp.data)
                if size > biggest.get(kind, (0, ""))[0]:
                    biggest[kind] = (size, url)
                return resp.get_data(as_text=True)

            fetch("contents", f"/{rs}/{ed}/")
            html = fetch("glossary", f"/{rs}/{ed}/glossary")
            for letter in re.findall(r'href="glossary/([^"#/]+)"', html):
                fetch("glossary", f"/{rs}/{ed}/glossary/{letter}")
            pages = 0
            for s in kb.structure(rs, ed):
                if s["children"] == 0:
                    continue
                html = fetch("rule page", f"/{rs}/{ed}/{s['number']}")
                for part in range(2, _parts(html) + 1):
                    fetch("rule page", f"/{rs}/{ed}/{s['number']}?part={part}")
                pages += _parts(html)
            i = names.index(ed)
            if i > 0:
                old = names[i - 1]
                page_no = 1
                while 'rel="next"' in fetch("diff", f"/{rs}/compare/{old}/{ed}?page={page_no}"):
                    page_no += 1
            rows.append({"ruleset": rs, "edition": ed, "rule_pages": pages,
                         "seconds": time.perf_counter() - start,
                         **{k: v for k, v in biggest.items()}})
            print(f"  sizes {rs} {ed}: {pages} rule-page parts, {time.perf_counter() - start:.1f} s",
                  file=sys.stderr)
    return rows


def render_times(kb: KnowledgeBase, runs: int, sample: int, seed: int = 5) -> dict[str, Any]:
    """Navigation Timing of rule pages (cold and warm) and of a bare page, in chromium."""
    from playwright.sync_api import sync_playwright
    sys.path.insert(0, str(REPO / "tests"))
    from browser.conftest import LiveServer

    server = LiveServer(kb)
    server.app.add_url_rule("/_bench/bare", "bench_bare",
                            lambda: "<!doctype html><title>bare</title><p>bare</p>")
    rng = random.Random(seed)
    urls = []
    for rs in ("riftbound", "mtg"):
        if rs not in {r["name"] for r in kb.rulesets()}:
            continue
        ed = kb.editions(rs)[-1]["edition"]
        rules = [s["number"] for s in kb.structure(rs, ed) if s["kind"] == "rule"]
        urls += [f"/{rs}/{ed}/{n}" for n in rng.sample(rules, min(sample, len(rules)))]
    profile = tempfile.mkdtemp(prefix="rulekb-bench-chromium-")

    def timing(page: Any, url: str) -> float:
        page.goto(server.url + url, wait_until="load")
        nav = page.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")
        import json
        entry = json.loads(nav)
        return float(entry["loadEventEnd"] - entry["startTime"])

    cold: list[float] = []
    warm: dict[str, list[float]] = {u: [] for u in urls}
    bare: list[float] = []
    sizes = []
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True,
                                                   args=ARGS, viewport={"width": 1280, "height": 900})
        page = ctx.new_page()
        timing(page, "/_bench/bare")
        timing(page, "/static/site.css")          # the stylesheet and script in the cache,
        timing(page, "/static/site.js")           # as for any visitor after the first page
        first: list[float] = []
        seen_rulesets: set[str] = set()
        for u in urls:
            rs = u.split("/")[1]
            (cold if rs in seen_rulesets else first).append(timing(page, u))
            seen_rulesets.add(rs)
            sizes.append(len(page.content().encode()))
        for _ in range(runs):
            for u in urls:
                bare.append(timing(page, "/_bench/bare"))
                warm[u].append(timing(page, u))
        ctx.close()
    server.close()
    per_page = [statistics.median(v) for v in warm.values()]
    return {"pages": len(urls), "runs": runs, "first_max": max(first), "cold_median": statistics.median(cold),
            "cold_max": max(cold), "warm_median": statistics.median(per_page),
            "warm_p95": sorted(per_page)[int(0.95 * (len(per_page) - 1))], "warm_max": max(per_page),
            "bare_median": statistics.median(bare), "size_median": statistics.median(sizes)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="warm loads of each sampled page")
    ap.add_argument("--rules", type=int, default=20, help="rules sampled per ruleset")
    ap.add_argument("--no-sizes", action="store_true", help="skip the page-size pass")
    ap.add_argument("--no-browser", action="store_true", help="skip the browser timings")
    args = ap.parse_args(argv)
    kb, source = load_kb()
    print(f"Knowledge base: {source}.\n")
    if not args.no_sizes:
        rows = page_sizes(kb)
        kinds = ["contents", "glossary", "rule page", "diff"]
        print("| ruleset | edition | " + " | ".join(f"largest {k} (KB)" for k in kinds) + " | rule-page parts |")
        print("|---|---|" + "---:|" * (len(kinds) + 1))
        worst = 0
        for r in rows:
            cells = []
            for k in kinds:
                if k in r:
                    size, url = r[k]
                    worst = max(worst, size)
                    cells.append(f"{size / 1000:.1f} `{url.split('/', 3)[-1]}`")
                else:
                    cells.append("–")
            print(f"| {r['ruleset']} | {r['edition']} | " + " | ".join(cells) + f" | {r['rule_pages']} |")
        print(f"\nLargest page of all: {worst / 1000:.1f} KB (goal < {GOAL_BYTES / 1000:.0f} KB): "
              + ("met" if worst < GOAL_BYTES else "NOT met") + "\n")
    if not args.no_browser:
        if not Path(CHROMIUM).exists():
            print(f"no chromium at {CHROMIUM}: browser timings skipped")
            return
        t = render_times(kb, args.runs, args.rules)
        print(f"Rule pages in chromium: {t['pages']} pages, {t['runs']} warm loads each "
              f"(median page size {t['size_median'] / 1000:.1f} KB)\n")
        print("| measure | ms |\n|---|---:|")
        for label, key in [("bare page (baseline), median", "bare_median"),
                           ("first rule page of a ruleset after start (builds per-build caches), slowest", "first_max"),
                           ("rule page, cold (first load), median", "cold_median"),
                           ("rule page, cold, slowest", "cold_max"),
                           ("rule page, warm, median of per-page medians", "warm_median"),
                           ("rule page, warm, p95 of per-page medians", "warm_p95"),
                           ("rule page, warm, slowest page", "warm_max")]:
            print(f"| {label} | {t[key]:.1f} |")
        ratio = t["warm_median"] / t["bare_median"] if t["bare_median"] else float("nan")
        print(f"\nWarm rule page / bare page: {ratio:.1f}x. Goal < {GOAL_MS:.0f} ms: "
              + ("met (cold and warm)" if max(t["cold_max"], t["warm_max"]) < GOAL_MS else
                 "met when warm" if t["warm_max"] < GOAL_MS else "NOT met"))


if __name__ == "__main__":
    main()
