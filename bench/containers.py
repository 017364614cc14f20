"""How long the rules as published take to read: an edition from its TXT, and from a PDF and a
DOCX of it (printed by ``tests/published.py``, with a running header and footer).

``.venv/bin/python -m bench.containers [--runs N] [--file mtg/comprehensive-rules-2026-01-16.txt]``
prints, per container, the median time of ``kb.read.read_bytes`` (unpacking, detecting and
reading) and the rules and glossary entries read, against the TXT.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.corpora import CORPORA
from kb.read import read_bytes
from tests.published import Layout, docx_of, pdf_of, read_text_file, txt_blocks


def main() -> None:
    """Print the reading times of one edition as TXT, PDF and DOCX."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--file", default="mtg/comprehensive-rules-2026-01-16.txt")
    args = parser.parse_args()
    source = CORPORA / args.file
    text = read_text_file(source)
    blocks = txt_blocks(text)
    start = time.perf_counter()
    pdf = pdf_of(blocks, Layout(header=text.split("\n", 1)[0].strip("\ufeff "), footer="Page {page} of {pages}"))
    printed = time.perf_counter() - start
    documents = {"txt": source.read_bytes(), "pdf": pdf, "docx": docx_of(blocks)}
    print(f"{args.file}: the PDF ({len(pdf) / 1e6:.2f} MB) printed in {printed:.1f} s")
    baseline = 0.0
    for kind, data in documents.items():
        runs = []
        for _ in range(args.runs):
            start = time.perf_counter()
            result, fmt = read_bytes(data, f"document.{kind}")
            runs.append(time.perf_counter() - start)
        seconds = statistics.median(runs)
        baseline = baseline or seconds
        print(f"{kind:>4}: {seconds:6.2f} s (median of {args.runs}, {seconds / baseline:4.1f}× the TXT), "
              f"read as {fmt}: {len(result.rules)} rules, {len(result.terms)} glossary entries and keywords")


if __name__ == "__main__":
    main()
