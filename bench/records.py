"""Rulings and articles (kb.records): what a record set costs a build, a rule answer and a search.

    .venv/bin/python -m bench.records                  # 10, 100, 1000 rulings
    .venv/bin/python -m bench.records --sizes 100 --runs 5

The rulings are the test corpus's eight (tests/fixtures/records/rulings) copied under new
ids to each size, with the two articles; the knowledge base is the embedded excerpts,
built once into a temporary folder. Per size, in CPU time of this process (median of
``--runs``, each on a fresh copy of the knowledge base so nothing derived is kept):
``analyse`` (every record's citations found and resolved in the edition it was written
for), ``staleness`` (each citation against the newest edition, word diffs included),
``cited_by index`` (one edition's index, through the mapping), then, with all of those
made, one ``cited_by`` lookup (µs), what a rule answer pays to find the records in service
(``current_records``: the samples' and the home's folders scanned, read again only when a
file changed; µs), one whole rule answer (``cited_by`` included; ms) and one ruling search
(its BM25 index built in the first, timed apart).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from kb.query import KnowledgeBase
from kb.records import RecordSet, cited_by, load_folder, search_rulings
from kb.records.citing import analyse, cited_by_index, current_records, staleness
from kb.records.search import ruling_index
from kb.store import build

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "records"


def corpus(folder: Path, size: int) -> RecordSet:
    """``size`` rulings (the fixtures under new ids) and the fixture articles, in ``folder``."""
    (folder / "rulings").mkdir(parents=True)
    (folder / "articles").mkdir()
    sources = sorted((CORPUS / "rulings").glob("*.yaml"))
    items = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in sources]
    for i in range(size):
        item = dict(items[i % len(items)], id=f"{items[i % len(items)]['id']}-{i}")
        (folder / "rulings" / f"{item['id']}.yaml").write_text(
            yaml.safe_dump({k: str(v) for k, v in item.items()}), encoding="utf-8")
    for p in (CORPUS / "articles").glob("*.md"):
        (folder / "articles" / p.name).write_bytes(p.read_bytes())
    return load_folder(folder)


def cpu(fn: Callable[[], Any]) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        build(home)
        print("| rulings | analyse ms | staleness ms | cited_by index ms | cited_by µs | records in service µs "
              "| rule answer ms "
              "| ruling search ms (index build ms) |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for size in args.sizes:
            records = corpus(Path(tmp) / f"records-{size}", size)
            rows: dict[str, list[float]] = {k: [] for k in ("analyse", "stale", "index", "lookup",
                                                            "current", "rule", "search", "search_index")}
            for _ in range(args.runs):
                kb = KnowledgeBase.open(home)
                kb.edition_mapping("riftbound", "1.3", "1.4")  # the mappings are not what is measured
                kb.edition_mapping("mtg", "2010-10-01", "2026-01-16")
                rows["analyse"].append(cpu(lambda: analyse(kb, records)))
                rows["stale"].append(cpu(lambda: staleness(kb, records)))
                rows["index"].append(cpu(lambda: cited_by_index(kb, records, "riftbound", "1.4")))
                n = 1000
                rows["lookup"].append(cpu(lambda: [cited_by(kb, "riftbound", "1.4", "190.3", records)
                                                   for _ in range(n)]) / n)
                rows["current"].append(cpu(lambda: [current_records(kb) for _ in range(n)]) / n)
                rows["rule"].append(cpu(lambda: [kb.rule("riftbound", "337.4") for _ in range(50)]) / 50)
                rows["search_index"].append(cpu(lambda: ruling_index(kb, records)))
                rows["search"].append(cpu(lambda: [search_rulings(kb, "who may act after finalizing", records=records)
                                                   for _ in range(20)]) / 20)
            m = {k: statistics.median(v) for k, v in rows.items()}
            print(f"| {size} | {m['analyse'] * 1e3:.1f} | {m['stale'] * 1e3:.1f} | {m['index'] * 1e3:.1f} | "
                  f"{m['lookup'] * 1e6:.1f} | {m['current'] * 1e6:.1f} | {m['rule'] * 1e3:.2f} | "
                  f"{m['search'] * 1e3:.2f} ({m['search_index'] * 1e3:.1f}) |")


if __name__ == "__main__":
    main()
