"""``rulekb timing run FILE`` reads the file as ``rulekb link`` does (acceptance F13, F14).

A file that is not UTF-8 is named with its line and byte; a file over ``timing.file``
(512 KiB, the site's form cap) is refused by its size before YAML reads any of it, so a
scenario of 200,000 steps is refused at once instead of after seconds of parsing.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.cli import main
from kb.limits import TIMING_FILE

SMALL = b"name: tiny\nruleset: riftbound\nsteps: []\n"
# name, the file's bytes, exit code, what the error line says (FILE: the file's path)
CASES = [
    ("binary", b"\x9c\x00\x01binary", 2, "error: FILE:1: not UTF-8 text (byte 0)"),
    ("latin-1 on line 3", b"name: x\nruleset: riftbound\nnote: caf\xe9\n", 2, "error: FILE:3: not UTF-8 text (byte 36)"),
    ("over the limit", b"steps:\n" + b"- pass: Ann\n" * (TIMING_FILE.value // 12 + 1), 2,
     "error: over the limit timing.file"),
    # at the limit: read and parsed (then refused by what it holds, not by its size)
    ("at the limit", SMALL + b"#" * (TIMING_FILE.value - len(SMALL) - 1) + b"\n", None, ""),
]


@pytest.mark.parametrize(("name", "data", "code", "says"), CASES, ids=[c[0] for c in CASES])
def test_the_file_is_named_and_sized_first(excerpt_home: Path, tmp_path: Path, name: str, data: bytes,
                                           code: int | None, says: str) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_bytes(data)
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(scenario)])
    assert "Traceback" not in out.output
    if code is None:
        assert "timing.file" not in out.output and "UTF-8" not in out.output, out.output
        return
    assert out.exit_code == code, out.output
    assert says.replace("FILE", str(scenario)) in out.output, out.output
    if "timing.file" in says:
        assert f"{len(data):,} > {TIMING_FILE.value:,} bytes" in out.output
        assert "step" not in out.output  # refused before the steps were read


def test_a_pipe_over_the_limit_is_refused_not_cut(excerpt_home: Path, tmp_path: Path) -> None:
    """A FIFO has no size to stat (0): what was read is over the limit, so it is refused,
    not parsed cut at the limit (review V2: a cut scenario could pass)."""
    fifo = tmp_path / "scenario.fifo"
    os.mkfifo(fifo)
    data = SMALL + b"#" * TIMING_FILE.value + b"\n"

    def write() -> None:
        with fifo.open("wb") as f:
            try:
                f.write(data)
            except BrokenPipeError:  # the reader stops at the limit
                pass

    writer = threading.Thread(target=write)
    writer.start()
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(fifo)])
    writer.join(timeout=30)
    assert "Traceback" not in out.output
    assert out.exit_code == 2, out.output
    assert "over the limit timing.file" in out.output, out.output


def test_a_directory_is_named_without_errno(excerpt_home: Path, tmp_path: Path) -> None:
    out = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run", str(tmp_path)])
    assert out.exit_code == 2, out.output
    assert f"error: {tmp_path}: Is a directory" in out.output, out.output
    assert "Errno" not in out.output
