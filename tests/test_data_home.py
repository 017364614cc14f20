"""One data home: `make run`, `rulekb serve` and the CLI of a checkout find the same data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import kb.store
from kb.cli import main
from kb.store import checkout_home, default_home

REPO = Path(__file__).resolve().parent.parent


def test_a_checkout_keeps_its_data_in_its_own_rulekb(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULEKB_HOME", raising=False)
    assert checkout_home() == REPO / ".rulekb"
    assert default_home() == REPO / ".rulekb"


def test_rulekb_home_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RULEKB_HOME", str(tmp_path / "elsewhere"))
    assert default_home() == tmp_path / "elsewhere"


def test_an_installed_rulekb_uses_the_user_data_folder(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.delenv("RULEKB_HOME", raising=False)
    monkeypatch.setattr(kb.store, "checkout_home", lambda: None)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert default_home() == tmp_path / "share" / "rulekb"


def test_the_cli_looks_where_make_run_builds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Run from any folder without RULEKB_HOME, the CLI reads the checkout's .rulekb."""
    monkeypatch.delenv("RULEKB_HOME", raising=False)
    monkeypatch.setattr(kb.store, "checkout_home", lambda: tmp_path / "checkout" / ".rulekb")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["rule", "337.1.a"])
    assert result.exit_code == 2
    assert f"no knowledge base is built in {tmp_path / 'checkout' / '.rulekb'}" in result.stderr


def test_make_run_uses_the_cli_default() -> None:
    """The Makefile sets no home of its own: the one rule is kb.store.default_home."""
    make_db = subprocess.run(["make", "-pn", "run", "PYTHON=" + sys.executable], cwd=REPO,
                             capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    if "rulekb serve" not in make_db.stdout:
        pytest.skip(f"make is not usable here: {make_db.stderr.strip()[:200]}")
    assert not [line for line in make_db.stdout.splitlines() if line.startswith("RULEKB_HOME ")]
