"""Benchmarks: one module per area, each runnable as ``python -m bench.NAME``; results and
the commands that produced them are in ``bench/RESULTS.md``."""
