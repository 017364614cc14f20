"""A killed build leaves no process behind: its pool's workers and the fork server end with it.

``rulekb build`` reads the editions in worker processes forked from a fork server
(kb/store.py ``_run_jobs``). A worker holds the fork server's liveness pipe open, and
waits for its next job on a queue it holds both ends of: before the workers watched the
building process, a build SIGKILLed halfway (tests/test_load.py's killed build) left the
fork server, two workers and the resource tracker running for good. Here a real
``rulekb build`` is killed once it has read its first edition, and every process that
carries this test's marker in its environment (the build, and whatever it started) must
be gone shortly after.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest

from bench.load import REPO, RULEKB
from conftest import copy_home

# How long the killed build's processes may take to notice and end (they watch a pipe, so
# it takes milliseconds; a loaded machine may be slow to schedule them).
GONE_WITHIN = 30.0


def marked_processes(marker: str) -> dict[int, str]:
    """The processes (pid: command line) whose environment holds ``marker``."""
    found: dict[int, str] = {}
    needle = marker.encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def wait_until_gone(marker: str, timeout: float) -> dict[int, str]:
    """Wait up to ``timeout`` seconds for the marked processes to end: those left."""
    deadline = time.monotonic() + timeout
    left = marked_processes(marker)
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = marked_processes(marker)
    return left


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_a_killed_build_leaves_no_process(how: signal.Signals, excerpt_home: Path, tmp_path: Path) -> None:
    home = copy_home(excerpt_home, tmp_path / "home")
    shutil.rmtree(home / "objects")  # every edition is read again, in the pool
    marker = f"rulekb-test-{uuid.uuid4().hex}"
    env = {**os.environ, "RULEKB_HOME": str(home), "RULEKB_BUILD_WORKERS": "2",
           "RULEKB_TEST_MARKER": marker}
    proc = subprocess.Popen([*RULEKB, "build"], cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            if ": read " in line:  # one edition built, the others still in the workers
                break
        running = marked_processes(marker)
        # the fork server and at least one worker forked from it (same command line): the
        # case where something can be left
        forked = [pid for pid, cmd in running.items() if "multiprocessing.forkserver" in cmd]
        assert len(forked) >= 2, f"the build ended or used no pool before it was killed: {running}"
        proc.send_signal(how)
        proc.wait(timeout=60)
        proc.stderr.close()
        assert proc.returncode == -how, proc.returncode
        left = wait_until_gone(marker, GONE_WITHIN)
        assert not left, f"{how.name} of the build left {len(left)} processes running: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pid in marked_processes(marker):  # what this test's own killed build left
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
