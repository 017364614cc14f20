"""Every module the product imports at run time comes from its own declared dependencies.

`make test` installs the test extras first, so a module the product imports but only a test
extra brings in (``jsonschema`` once was) passes every other test and crashes `make run` on a
fresh clone. This scan reads every module of ``kb/`` and ``web/`` with :mod:`ast`, maps each
top-level import to the distribution that provides it, and checks that distribution is one of
``pyproject.toml``'s ``dependencies`` or something they require (transitively).
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata as md
import re
import sys
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from packaging.requirements import Requirement

REPO = Path(__file__).resolve().parent.parent
PRODUCT = ("kb", "web")


def normalise(name: str) -> str:
    """A distribution name as PEP 503 compares them."""
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_imports(path: Path) -> Iterator[tuple[str, int]]:
    """Top-level module names ``path`` imports when it runs, with their lines.

    Relative imports are the package's own; imports under ``if TYPE_CHECKING:`` never run.
    """
    yield from _runtime_imports(path, path.stat().st_mtime_ns)


@functools.lru_cache(maxsize=None)
def _runtime_imports(path: Path, mtime_ns: int) -> tuple[tuple[str, int], ...]:
    """What :func:`runtime_imports` yields, parsed once per version of the file: three
    tests scan every product module (2 MB of Python)."""
    return tuple(_parse_imports(path))


# The fields of a node that hold statements: an import is a statement, so the scan walks only
# these (a module's expressions are most of its nodes and hold no import).
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _parse_imports(path: Path) -> Iterator[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0], node.lineno
        for name in _STATEMENT_LISTS:
            if name == "body" and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue  # what runs only under a type checker never runs
            found = getattr(node, name, None)
            if isinstance(found, list):
                todo.extend(found)


def declared_requirements(pyproject: Path = REPO / "pyproject.toml") -> list[Requirement]:
    """The run-time ``dependencies`` of the project (not its optional extras)."""
    data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    return [Requirement(r) for r in data["project"]["dependencies"]]


def closure(requirements: Iterable[Requirement]) -> set[str]:
    """The declared distributions and everything they require here, transitively."""
    seen: set[str] = set()
    todo = [(r, "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        name = normalise(req.name)
        key = f"{name}[{','.join(sorted(req.extras))}]"
        if key in seen:
            continue
        seen.add(key)
        try:
            requires = md.requires(req.name) or []
        except md.PackageNotFoundError:
            continue  # not installed: the scan then reports whatever imports it
        for line in requires:
            sub = Requirement(line)
            todo.append((sub, ""))
            todo.extend((sub, e) for e in req.extras)
    return {k.split("[")[0] for k in seen}


@functools.lru_cache(maxsize=None)
def _providers() -> dict[str, list[str]]:
    """Module → the distributions providing it, of this interpreter (read once: a scan of every
    installed distribution's files, and five scans here ask)."""
    return md.packages_distributions()


def undeclared(files: Iterable[Path], allowed: set[str], local: Iterable[str] = PRODUCT) -> list[str]:
    """``module (file:line)`` for every import outside the standard library, the local
    packages and the ``allowed`` distributions."""
    providers = _providers()
    local = set(local)
    found = []
    for path in files:
        for module, line in runtime_imports(path):
            if module in sys.stdlib_module_names or module in local or module == "__future__":
                continue
            dists = {normalise(d) for d in providers.get(module, [])}
            if not dists & allowed:
                where = path.relative_to(REPO) if path.is_relative_to(REPO) else path
                found.append(f"{module} ({where}:{line})")
    return sorted(set(found))


def product_files() -> list[Path]:
    return sorted(p for pkg in PRODUCT for p in (REPO / pkg).rglob("*.py"))


def test_every_product_import_is_a_runtime_dependency() -> None:
    missing = undeclared(product_files(), closure(declared_requirements()))
    assert not missing, ("imported by the product but not among pyproject.toml's run-time "
                         "dependencies (nor required by them): " + ", ".join(missing))


def test_the_scan_sees_every_product_module() -> None:
    files = product_files()
    assert REPO / "web" / "openapi.py" in files and REPO / "kb" / "cli" / "__init__.py" in files
    modules = {m for f in files for m, _ in runtime_imports(f)}
    assert {"flask", "click", "jsonschema", "yaml", "whoosh"} <= modules


def test_a_test_only_import_is_reported(tmp_path: Path) -> None:
    module = tmp_path / "uses_test_extra.py"
    module.write_text("import json\nfrom . import sibling\nimport kb.store\n"
                      "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pytest\n"
                      "def f():\n    from hypothesis import given\n", encoding="utf-8")
    assert undeclared([module], closure(declared_requirements())) == [
        f"hypothesis ({module}:8)"]


def test_a_dependency_of_a_dependency_counts(tmp_path: Path) -> None:
    if not md.packages_distributions().get("werkzeug"):
        pytest.skip("werkzeug is not installed")
    module = tmp_path / "uses_werkzeug.py"
    module.write_text("import werkzeug\n", encoding="utf-8")
    assert undeclared([module], closure([Requirement("flask")])) == []
    assert undeclared([module], closure([Requirement("click")])) == [f"werkzeug ({module}:1)"]


def test_the_old_dependency_list_is_caught(tmp_path: Path) -> None:
    """Without jsonschema among the dependencies (as before), web/openapi.py is reported."""
    old = tmp_path / "pyproject.toml"
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    old.write_text(re.sub(r'\n\s*"(jsonschema|referencing)[^"]*",', "", text), encoding="utf-8")
    missing = undeclared(product_files(), closure(declared_requirements(old)))
    assert any(m.startswith("jsonschema (web/openapi.py:") for m in missing)


IMPORT_EVERY_MODULE = """
import importlib, pkgutil, sys
import kb, web
failed = []
for pkg in (kb, web):
    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        try:
            importlib.import_module(info.name)
        except ImportError as exc:
            failed.append(f"{info.name}: {exc}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


@pytest.mark.timeout(600)
def test_the_package_alone_imports_every_module(tmp_path: Path) -> None:
    """Installed into a fresh venv with its run-time dependencies only (no test extras),
    every module of kb/ and web/ imports. Skips where pip cannot fetch the dependencies."""
    import shutil
    import subprocess
    import venv
    env_dir = tmp_path / "venv"
    # No pip of its own (ensurepip): this venv's pip installs into it (--python), and leaves
    # the dependencies' bytecode to the imports below (--no-compile): a third of the CPU
    # (25.6 s -> 9.1 s for the venv and the install), the same packages installed.
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    # pip builds in the folder it installs from (build/, rulekb.egg-info): a copy, so the
    # checkout the other test workers read is left alone
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".*", "build", "dist", "*.egg-info",
                                                                "__pycache__"))
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                              "--no-compile", str(source)],
                             capture_output=True, text=True, timeout=500)
    if install.returncode != 0:
        pytest.skip("pip could not install the package and its dependencies here (no index or "
                    f"wheels?): {install.stderr.strip()[-300:]}")
    proc = subprocess.run([str(python), "-c", IMPORT_EVERY_MODULE], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)  # not the checkout: the installed copy only
    assert proc.returncode == 0, "modules that do not import with the run-time dependencies only:\n" \
        + proc.stdout + proc.stderr[-2000:]
