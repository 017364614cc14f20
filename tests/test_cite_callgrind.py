"""bench.cite_callgrind's summary: each phase's counts less the empty phase's, against plain."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.cite_callgrind import summary


def _dump(folder: Path, n: int, label: str, counts: list[int]) -> None:
    (folder / f"callgrind.out.7.{n}").write_text(
        f"# callgrind format\nversion: 1\ndesc: Trigger: Client Request: dump {label}\n"
        f"events: Ir\nsummary: {' '.join(map(str, counts))}\n", encoding="utf-8")


@pytest.mark.parametrize(("dumps", "expected"), [
    # the empty phase (a dump's own cost) is taken from every phase before the ratio
    ({"phase_s10_noop": [1_000_000], "phase_s10_plain": [11_000_000],
      "phase_s10_plugin": [16_000_000], "phase_s10_facade": [17_000_000]},
     ["| 10 KB | plain | 10.00 M (1.00×) |", "| 10 KB | plugin | 15.00 M (1.50×) |",
      "| 10 KB | facade | 16.00 M (1.60×) |"]),
    # with the cache simulation: every event, each against plain's
    ({"phase_s100_noop": [0, 0, 0, 0, 0, 0], "phase_s100_plain": [100, 40, 20, 10, 4, 2],
      "phase_s100_plugin": [150, 60, 30, 25, 8, 5]},
     ["| 100 KB | plain | 0.00 M (1.00×) | 0.00 M (1.00×) | 0.00 M (1.00×) | 0.00 M (1.00×) "
      "| 0.00 M (1.00×) | 0.00 M (1.00×) |",
      "| 100 KB | plugin | 0.00 M (1.50×) | 0.00 M (1.50×) | 0.00 M (1.50×) | 0.00 M (2.50×) "
      "| 0.00 M (2.00×) | 0.00 M (2.50×) |"]),
    # a size without its empty phase or plain rendering is left out; setup dumps are not phases
    ({"setup_s10_plain": [5], "phase_s10_plugin": [9]}, []),
])
def test_summary_of_a_runs_dumps(tmp_path: Path, dumps: dict[str, list[int]], expected: list[str]) -> None:
    for n, (label, counts) in enumerate(dumps.items(), 1):
        _dump(tmp_path, n, label, counts)
    assert summary(tmp_path)[2:] == expected
