"""The real rule documents in ../shared/corpora: the one table the tests and benchmarks use.

They are test data, never copied into the repository; ``RULEKB_SHARED`` points elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("RULEKB_SHARED", REPO.parent / "shared"))
CORPORA = SHARED / "corpora"

# (ruleset, edition, date, file under ../shared/corpora)
CORPUS_EDITIONS: list[tuple[str, str, str, str]] = [
    ("riftbound", "1.0", "2025-06-02", "riftbound/core-rules-2025-06-02.md"),
    ("riftbound", "1.2", "2025-12-01", "riftbound/core-rules-2025-12-01.md"),
    ("riftbound", "1.3", "2026-03-30", "riftbound/core-rules-2026-03-30.md"),
    ("riftbound", "1.4", "2026-07-16", "riftbound/core-rules-2026-07-16.md"),
    ("mtg", "2010-10-01", "2010-10-01", "mtg/comprehensive-rules-2010-10-01.txt"),
    ("mtg", "2026-01-16", "2026-01-16", "mtg/comprehensive-rules-2026-01-16.txt"),
    ("riftbound-tournament", "2026-05-02", "2026-05-02", "riftbound/tournament-rules-2026-05-02.md"),
]
