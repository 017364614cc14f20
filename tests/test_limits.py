"""The one table of budgets (kb/limits.py) is the documentation: README and OpenAPI list it."""

from __future__ import annotations

import re
from pathlib import Path

from kb.limits import LIMITS, markdown, table

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_readme_lists_every_limit_with_its_value() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Limits\n"):]
    section = section[:section.index("\n## ", 1)]
    assert markdown() in section, "README.md's Limits are stale: run `.venv/bin/cog -r README.md`"
    for limit in LIMITS.values():
        row = re.search(rf"^\| `{re.escape(limit.name)}` \| ([\d,]+) ", section, re.M)
        assert row and int(row.group(1).replace(",", "")) == limit.value, limit.name


def test_every_limit_is_a_client_error_with_a_unit() -> None:
    rows = table()
    assert [r["name"] for r in rows] == sorted(LIMITS) and len(rows) == len(LIMITS)
    for r in rows:
        # cite.citations alone is no refusal: past it citations are counted, in a 200 answer.
        assert r["status"] in ((200,) if r["name"] == "cite.citations" else (400, 413, 422)), r
        assert r["unit"] and r["what"] and r["max"] > 0, r
