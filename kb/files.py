"""Writing the files a user keeps in the data home (records, card lists) all at once.

A reader never sees half a file: the bytes go to a temporary file beside the target, are
flushed to disk, and then replace the target in one rename; on any failure the temporary
file is removed and the old target stays as it was.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def write_atomically(target: Path, data: bytes) -> None:
    """Replace ``target`` with ``data`` in one rename (the folder must exist)."""
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}-{time.time_ns()}")
    try:
        with tmp.open("wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def home_of_build(build_dir: Path | None) -> Path | None:
    """The data home a build lives in (``<home>/builds/<id>``), or None (a build in memory)."""
    if build_dir is None or build_dir.parent.name != "builds":
        return None
    return build_dir.parent.parent
