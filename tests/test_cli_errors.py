"""What a user sees when a command cannot do what it was asked: one line saying what went
wrong, where, and what to do; a non-zero exit; never a traceback.

Each case is one line of data: the command line (placeholders filled from fixtures), the
exit code, and the fragments the message must hold (and those it must not).
"""

from __future__ import annotations

import errno
import json
import os
import pathlib
import pickle
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import kb.store
from kb.cli import main
from kb.store import current_build

EXCERPT = Path(__file__).resolve().parent.parent / "rules" / "riftbound" / "core-rules-1.4-excerpt.md"


@pytest.fixture(scope="module")
def state_file(excerpt_home: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A state any frame of a worked scenario gives (a valid input to `timing next`)."""
    result = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "run",
                                       "riftbound/003-the-combat-showdown", "--json"])
    state = json.loads(result.stdout)["frames"][1]["state"]
    path = tmp_path_factory.mktemp("state") / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return path


@pytest.fixture()
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.fixture()
def home(excerpt_home: Path, tmp_path: Path) -> Path:
    """A data directory of one's own with a good build in service (a copy of the excerpt's)."""
    copy = tmp_path / "home"
    shutil.copytree(excerpt_home, copy, symlinks=True)
    return copy


@pytest.fixture(autouse=True)
def no_server_runs(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A `serve` that should have refused to start fails the test instead of serving forever."""
    import waitress.server

    import web.serving

    def run(self: object, *args: object) -> None:
        raise AssertionError("the server started")
    monkeypatch.setattr(waitress.server.BaseWSGIServer, "run", run)
    monkeypatch.setattr(waitress.server.MultiSocketServer, "run", run)
    monkeypatch.setattr(web.serving, "serve_until_stopped", run)  # what `serve` runs it with
    interval = sys.getswitchinterval()  # `serve` tunes it for the server's process
    yield
    sys.setswitchinterval(interval)


def run(home: Path, args: list[str], **fill: object) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *(a.format(**fill) for a in args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


# -- bad input: (command line, exit code, fragments the message holds) ------------------------
BAD_INPUT = [
    ("rule 337.1.a --date notadate", 2, ["Invalid value for '--date'", "'notadate' is not a date", "YYYY-MM-DD"]),
    ("rule 337.1.a --date 2030-13-45", 2, ["'2030-13-45' is not a calendar date", "month must be in 1..12"]),
    ("rule 337.1.a --date 2030-02-30", 2, ["'2030-02-30' is not a calendar date"]),
    ("history 337.2 --date 2026-7-16", 2, ["'2026-7-16' is not a date: use YYYY-MM-DD"]),
    ("diff --from 2030-13-45 --to 1.4", 2, ["Invalid value for '--from'", "'2030-13-45' is neither an edition's name nor a date"]),
    ("map 337.1 --from 1.4 --to 2026-02-31", 2, ["Invalid value for '--to'", "'2026-02-31' is neither"]),
    ("import {state} --ruleset riftbound --edition 9 --date 16/07/2026", 2, ["'16/07/2026' is not a date"]),
    ("rule 337.1a 999.9", 2, ["error: rule 999.9 does not exist in riftbound 1.4: it is beyond the last rule, 829 "]),
    ("rule 337.1a 337.9", 2, ["error: rule 337.9 does not exist in riftbound 1.4", "nearest: "]),
    ("rule 999.9 888.8", 2, ["rule 999.9 does not exist", "rule 888.8 does not exist"]),
    ("rule 101", 2, ["rule 101 does not exist in riftbound 1.4", "this edition is an excerpt, so the rule may "
                     "exist in the full document: import it as this edition (rulekb import FILE --ruleset RULESET "
                     "--edition 1.4)"]),
    ("rule 337.1a banana", 2, ["not a rule number: '337.1a banana'"]),
    ("rule 116.3d --ruleset mtg", 2, ["rule 116.3d does not exist in mtg 2026-01-16; 2010-10-01's rule 116.3d (",
                                      ") is rule 117.3d in 2026-01-16", "nearest: 117.3d, 116.3"]),
    ("timing next --edition 9.9 --state {state}", 2, ["unknown edition '9.9' of riftbound (editions: ", "1.4"]),
    ("timing run my-scenario.yaml", 2, ["error: my-scenario.yaml: no such file, and no worked scenario "
                                        "'my-scenario.yaml' (`rulekb timing list` names all "]),
    ("timing run riftbound/003-the-combat-showdow", 2, ["nearest: riftbound/003-the-combat-showdown"]),
    ("timing run 003-the-combat-showdow", 2, ["nearest: riftbound/003-the-combat-showdown"]),
    ("timing next --state nofile.json", 2, ["error: no such file: nofile.json", "'-' for stdin", "the JSON itself"]),
    ("timing next --state {bad_json}", 2, ["{bad_json}:3:11: not valid JSON: Expecting value"]),
    ('timing next --state {{"ruleset":', 2, ["error: the --state JSON:1:12: not valid JSON"]),
    ("timing next --state {folder}", 2, ["is a directory; --state takes a JSON file"]),
    ("serve --port 70000", 2, ["Invalid value for '--port'", "70000 is not in the range 0<=x<=65535"]),
    ("serve --port -1", 2, ["-1 is not in the range 0<=x<=65535"]),
    ("serve --port 0 --workers 2", 2, ["error: --port 0 (a free port) needs --workers 1", "--port N"]),
    ("serve --threads 0", 2, ["Invalid value for '--threads'", "0 is not in the range 1<=x<=256"]),
    ("serve --port {busy_port}", 2, ["error: port {busy_port} on 127.0.0.1 is in use", "--port N", "PORT=N make run"]),
    ("serve --host no-such-host.invalid", 2, ["cannot listen on address 'no-such-host.invalid'", "--host"]),
    ("import {missing} --ruleset riftbound --edition 9", 2, ["does not exist"]),
    ("export {state}/pack --ruleset riftbound --edition 1.4", 2,
     ["error: cannot export to {state}/pack: {state}: File exists; choose another folder"]),
    ("--home {state} build", 2, ["error: the data directory {state} is not a folder", "--home DIR"]),
]


@pytest.mark.parametrize("command,code,fragments", BAD_INPUT, ids=[c[0] for c in BAD_INPUT])
def test_bad_input_gets_one_clear_line(excerpt_home: Path, state_file: Path, busy_port: int,
                                       tmp_path: Path, command: str, code: int,
                                       fragments: list[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "ruleset": "riftbound",\n  "turn": ,\n}\n', encoding="utf-8")
    fill = {"state": state_file, "bad_json": bad, "busy_port": busy_port, "folder": tmp_path,
            "missing": tmp_path / "missing.md"}
    # split first, fill after: a path or inline JSON stays one argument
    args = command.split()
    if args[0] == "--home":  # the case is about the data directory itself
        exit_code, out, err = run(Path(args[1].format(**fill)), args[2:], **fill)
    else:
        exit_code, out, err = run(excerpt_home, args, **fill)
    assert exit_code == code, (out, err)
    for fragment in fragments:
        assert fragment.format(**fill) in err
    assert "Traceback" not in out + err
    assert "serving rulekb" not in err  # nothing is announced before the port is taken


def test_several_numbers_are_each_shown(excerpt_home: Path) -> None:
    code, out, err = run(excerpt_home, ["rule", "337.1a", "999.9", "337.4", "--no-subrules"])
    assert code == 2
    assert "337.1.a. Finalizing an item" in out and "\n337.4." in out
    assert err.count("error:") == 1 and "999.9" in err and "'337.1a 999.9'" not in err


@pytest.mark.parametrize("words,numbers", [
    (["rule", "337.1.a."], ["337.1.a"]),
    (["Rule", "337.1A"], ["337.1.a"]),
    (["337.1a", "337.4"], ["337.1.a", "337.4"]),
    (["rule", "337.1.a.", "CR", "117.3d"], ["337.1.a", "117.3d"]),  # CR names Magic (A18): each its ruleset
])
def test_loose_forms_with_words_still_work(excerpt_home: Path, words: list[str], numbers: list[str]) -> None:
    code, out, err = run(excerpt_home, ["rule", *words, "--json"])
    data = json.loads(out)
    assert code == 0, err
    assert [d["number"] for d in (data if isinstance(data, list) else [data])] == numbers


def test_state_is_read_inline_from_a_file_or_from_stdin(excerpt_home: Path, state_file: Path) -> None:
    text = state_file.read_text(encoding="utf-8")
    answers = []
    for args, stdin in (([str(state_file)], None), ([text], None), (["-"], text)):
        result = CliRunner().invoke(main, ["--home", str(excerpt_home), "timing", "next", "--json",
                                           "--state", *args], input=stdin)
        assert result.exit_code == 0, result.stderr
        answers.append(json.loads(result.stdout))
    assert answers[0] == answers[1] == answers[2] and answers[0]["decision"] or answers[0]["end"]


# -- operating-system failures ----------------------------------------------------------------
def _read_only(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = pathlib.Path.mkdir

    def mkdir(self: Path, *args: object, **kwargs: object) -> None:
        if self == home or home in self.parents:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        real(self, *args, **kwargs)
    monkeypatch.setattr(pathlib.Path, "mkdir", mkdir)


class _FullDiskPickle:
    """``pickle`` as kb.store uses it, on a disk that fills up during the first graph."""

    HIGHEST_PROTOCOL = pickle.HIGHEST_PROTOCOL
    load = staticmethod(pickle.load)

    @staticmethod
    def dump(obj: object, fh: object, protocol: int | None = None) -> None:
        fh.write(b"\x80" * 4096)  # type: ignore[attr-defined]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _full_disk_while_building(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    monkeypatch.setattr(kb.store, "pickle", _FullDiskPickle)


def _full_disk_while_linking(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    """A rebuild with nothing new to build (every edition reused) still links its files."""
    def link(source: Path, target: Path) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(kb.store, "link_file", link)


def _full_disk_while_copying(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    def write_bytes(self: Path, data: bytes) -> int:
        with self.open("wb") as fh:
            fh.write(data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    monkeypatch.setattr(pathlib.Path, "write_bytes", write_bytes)


def _unreadable_input(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = os.open

    def fake_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if str(path).endswith("core-rules-1.4-excerpt.md") and not flags & (os.O_WRONLY | os.O_RDWR):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, flags, *args, **kwargs)
    monkeypatch.setattr(os, "open", fake_open)


def _full_disk_at_the_swap(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    real = os.replace

    def replace(src: object, dst: object, **kwargs: object) -> None:
        if Path(str(dst)).name == "current":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(src, dst, **kwargs)
    monkeypatch.setattr(os, "replace", replace)


def _port_not_allowed(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    import waitress.server

    def create_server(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    monkeypatch.setattr(waitress.server, "create_server", create_server)


IMPORT = ["import", str(EXCERPT), "--ruleset", "riftbound", "--edition", "1.3"]
# (command, fault, fragments of the message; {home} is the data directory)
OS_FAILURES: list[tuple[str, list[str], Callable[[pytest.MonkeyPatch, Path], None], list[str]]] = [
    ("build, read-only", ["build"], _read_only,
     ["error: cannot write to {home}/builds: the file system is read-only", "--home DIR or RULEKB_HOME=DIR"]),
    ("import, read-only", IMPORT, _read_only,
     ["error: cannot write to {home}/imports/riftbound: the file system is read-only", "--home DIR"]),
    ("build, disk full", ["build"], _full_disk_while_linking,
     ["error: no space left on the disk of {home} (No space left on device): free some space",
      "--home DIR or RULEKB_HOME=DIR"]),
    ("import, disk full copying", IMPORT + ["--no-build"], _full_disk_while_copying,
     ["error: no space left on the disk of {home}"]),
    ("build, disk full at the swap", ["build"], _full_disk_at_the_swap,
     ["error: no space left on the disk of {home}"]),
    ("import, disk full rebuilding", IMPORT, _full_disk_while_building,
     ["error: no space left on the disk of {home}"]),
    ("import, unreadable input", IMPORT, _unreadable_input,
     [f"{EXCERPT}: error: cannot read the file: Permission denied"]),
    ("serve, a port only root may take", ["serve", "--port", "80"], _port_not_allowed,
     ["error: not allowed to listen on port 80 (ports below 1024 need root)", "--port N"]),
]


def _tree(home: Path) -> set[str]:
    return {str(p.relative_to(home)) for p in home.rglob("*")}


@pytest.mark.parametrize("command,fault,fragments", [c[1:] for c in OS_FAILURES],
                         ids=[c[0] for c in OS_FAILURES])
def test_os_failures_get_one_line_and_leave_nothing_behind(
        home: Path, monkeypatch: pytest.MonkeyPatch, command: list[str],
        fault: Callable[[pytest.MonkeyPatch, Path], None], fragments: list[str]) -> None:
    before, serving = _tree(home), current_build(home)
    fault(monkeypatch, home)
    code, out, err = run(home, command)
    monkeypatch.undo()
    assert code == 2, (out, err)
    for fragment in fragments:
        assert fragment.format(home=home) in err
    assert err.strip().splitlines()[-1].startswith(("error:", str(EXCERPT)))
    assert "Traceback" not in out + err
    assert _tree(home) == before  # no half-written import or build folder
    assert current_build(home) == serving
    code, out, _ = run(home, ["rule", "337.1.a", "--no-subrules"])  # the good build still serves
    assert code == 0 and "337.1.a." in out


def test_an_import_whose_rebuild_fails_brings_back_the_edition_it_replaced(
        home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(home, IMPORT)[0] == 0
    kept = home / "imports" / "riftbound" / "1.3"
    document = (kept / EXCERPT.name).read_bytes()
    other = tmp_path / "other.md"
    other.write_bytes(document.replace(b"Finalizing an item", b"Finalising an item"))
    before = _tree(home)
    _full_disk_while_building(monkeypatch, home)
    code, _, err = run(home, ["import", str(other), "--ruleset", "riftbound", "--edition", "1.3"])
    monkeypatch.undo()
    assert code == 2 and "no space left" in err
    assert _tree(home) == before and (kept / EXCERPT.name).read_bytes() == document


# -- the same on real file systems (root only: a small tmpfs, a read-only tmpfs) --------------
def _mount(target: Path, options: str) -> bool:
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    target.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                          capture_output=True).returncode == 0


@pytest.mark.parametrize("options,command,message", [
    ("size=40k", IMPORT + ["--no-build"], "no space left on the disk of"),
    ("size=200k", IMPORT, "no space left on the disk of"),
    ("size=200k", ["build"], "no space left on the disk of"),
    ("ro,size=64k", ["build"], "the file system is read-only"),
    ("ro,size=64k", IMPORT, "the file system is read-only"),
], ids=["import copy, 40 KB disk", "import, 200 KB disk", "build, 200 KB disk", "build, read-only",
        "import, read-only"])
def test_real_file_system_failures(tmp_path: Path, options: str, command: list[str], message: str) -> None:
    disk = tmp_path / "disk"
    if not _mount(disk, options):
        pytest.skip("needs root and tmpfs to make a full or read-only disk")
    try:
        home = disk / "home"
        proc = subprocess.run([sys.executable, "-c", "from kb.cli import main; main()",
                               "--home", str(home), *command], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        assert f"error: " in proc.stderr and message in proc.stderr and str(home) in proc.stderr
        assert "Traceback" not in proc.stderr
        left = [str(p.relative_to(disk)) for p in disk.rglob("*") if p.is_file()]
        assert left == []  # nothing half-written
    finally:
        subprocess.run(["umount", str(disk)], check=False)
