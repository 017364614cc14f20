"""The floors of ARCHITECTURE.md, checked against the code's imports.

Every module of ``kb/`` and ``web/`` is read with :mod:`ast` (imports at module level, under
``if TYPE_CHECKING:`` and inside functions alike); the floors come from the table in
``ARCHITECTURE.md``, so the document and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kb", "web")
FACADE = "kb.query"

# Imports inside functions that are there on purpose, each with its reason. Anything else
# inside a function is a dependency hidden from the reader (or a cycle dodged): import it
# at the top of the module, or move what both modules need a floor down.
LAZY: dict[tuple[str, str], str] = {
    ("kb.cli.serve", "web"): "Flask and the site load only for `rulekb serve`",
    ("kb.cli.serve", "web.serving"): "waitress's clean stop lives beside the app it serves; it loads only for `rulekb serve`",
    ("kb.cli.export", "web.export"): "Flask and the site load only for `rulekb export`",
    ("kb.timing.models", "kb.timing.models.riftbound"): "a game's model loads when it is first asked for",
    ("kb.timing.models", "kb.timing.models.mtg"): "a game's model loads when it is first asked for",
    # Every CLI command imports kb.store and kb.query: what only reading a document or building
    # needs, or only one command, loads when it is used (bench/cli_startup.py).
    ("kb.store", "kb.read"): "the document readers (python-docx, pypdf, numpy) load only to read a document",
    ("kb.store", "kb.search.index"): "whoosh's writer loads only when a build writes an index",
    ("kb.store", "kb.editions.diff"): "the diff loads only when a build maps two editions",
    ("kb.store", "kb.editions.mapping"): "the mapper loads only when a build maps two editions",
    ("kb.store", "kb.timing.engine"): "the timing model loads only when a build asks what it cites",
    ("kb.store", "kb.timing.models"): "the timing model loads only when a build asks what it cites",
    ("kb.store", "kb.timing.stored"): "the timing model loads only when a build carries its citations",
    ("kb.cli.params", "kb.read"): "the readers load only when `import --format` or its --help needs their names",
    ("kb.cli.timing", "kb.read"): "the readers load only when no build is there and the corpus is read",
    ("kb.query", "kb.cite.link"): "the citation finder loads only when citations are asked for",
    ("kb.query", "kb.records"): "the rulings and articles load only when a rule or search asks for them",
    ("kb.query", "kb.records.search"): "the rulings' BM25 (bm25s) loads only when a search or warm-up asks",
    ("kb.query", "kb.search"): "the search index (whoosh) loads only when a search is asked",
    ("kb.query", "kb.search.spelling"): "the speller's words load only on warm-up",
    ("kb.records", "kb.records.search"): "the rulings' BM25 (bm25s, numpy) loads when a ruling search asks, not for cited-by",
    ("kb.cli.records", "kb.records.search"): "the rulings' BM25 (bm25s, numpy) loads for `rulings search` only",
    ("kb.cite.resolve", "kb.read.text"): "kb.read's package imports every reader: loaded when a quote is compared",
}


@dataclass(frozen=True)
class Import:
    """One import statement's project module, and where it stands."""

    source: str      # the importing module
    target: str      # the project module imported
    line: int
    in_function: bool
    type_only: bool  # under ``if TYPE_CHECKING:`` (no runtime dependency)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of the project's packages, by dotted name."""
    return {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _project_module(name: str) -> str | None:
    """The project module an imported name lives in (``kb.search.parse_query`` → ``kb.search``)."""
    while name and name not in modules():
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


@cache
def imports() -> tuple[Import, ...]:
    """Every import of a project module by a project module."""
    found: list[Import] = []
    for name, path in modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]

        def visit(node: ast.AST, in_function: bool, type_only: bool) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.Import):
                    targets = [a.name for a in child.names]
                elif isinstance(child, ast.ImportFrom):
                    base = child.module or ""
                    if child.level:
                        anchor = package.split(".")[:len(package.split(".")) - child.level + 1]
                        base = ".".join([*anchor, *([base] if base else [])])
                    # ``from kb.cli import rules`` imports the module kb.cli.rules
                    targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in modules() else base
                               for a in child.names]
                else:
                    visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)),
                          type_only or (isinstance(child, ast.If) and _is_type_checking(child)))
                    continue
                for target in dict.fromkeys(filter(None, map(_project_module, targets))):
                    if target != name:
                        found.append(Import(name, target, child.lineno, in_function, type_only))
        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False, False)
    return tuple(found)


# -- the floors, as ARCHITECTURE.md lists them ---------------------------------------------
@cache
def floors() -> dict[str, int]:
    """Each name the document's floor table lists, with its floor's number."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    out: dict[str, int] = {}
    for row in re.finditer(r"^\|\s*(\d+)\s[^|]*\|([^|]*)\|", text, re.M):
        for name in re.findall(r"`([\w.]+)`", row.group(2)):
            out[name] = int(row.group(1))
    assert out, "ARCHITECTURE.md has no floor table (| 0 ground | `kb.errors`, ... |)"
    return out


def floor_of(module: str) -> tuple[str, int] | None:
    """The listed name a module falls under (the longest that is it or its package), and its floor."""
    name = module
    while name:
        if name in floors():
            return name, floors()[name]
        name = name.rpartition(".")[0]
    return None


def floor_number(module: str) -> int | None:
    """The number of the floor a module stands on (None when it is on none)."""
    placed = floor_of(module)
    return placed[1] if placed else None


def test_every_name_the_document_lists_is_a_module() -> None:
    assert [n for n in floors() if n not in modules()] == []


@pytest.mark.parametrize("module", sorted(modules()))
def test_each_module_stands_on_a_floor(module: str) -> None:
    assert floor_of(module) is not None, (
        f"{module} is on no floor of ARCHITECTURE.md: add it (or its package) to the floor table")


@pytest.mark.parametrize("module", sorted(modules()))
def test_each_module_imports_only_its_floor_or_below(module: str) -> None:
    own = floor_number(module)
    if own is None:
        pytest.skip(f"{module} is on no floor (the test above fails for it)")
    up = [f"{i.target} (line {i.line}, floor {floor_number(i.target)})" for i in imports()
          if i.source == module and (floor_number(i.target) or 0) > own]
    assert up == [], f"{module} (floor {own}) imports from a floor above: {up}"


def test_no_subsystem_imports_the_facade() -> None:
    facade = floors()[FACADE]
    offenders = [f"{i.source} line {i.line}" for i in imports()
                 if i.target == FACADE and (floor_number(i.source) or facade) < facade]
    assert offenders == [], f"take kb.loaded.LoadedEditions instead of {FACADE}: {offenders}"


def test_kb_never_imports_flask_or_web() -> None:
    offenders = []
    for name, path in modules().items():
        if not name.startswith("kb."):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            roots = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            offenders += [f"{name} line {node.lineno}: {r}" for r in roots
                          if r.split(".")[0] in {"flask", "werkzeug", "web"}
                          and (name, _project_module(r)) not in LAZY]
    assert offenders == [], "kb stands below the web layer (only the commands that start it, lazily)"


# web/ is engineer B's side of issue #15 (the site frame below the page modules); its
# expectation is the same as kb's.
@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_cycle(package: str) -> None:
    graph = nx.DiGraph()
    graph.add_edges_from((i.source, i.target) for i in imports()
                         if not i.type_only and i.source.split(".")[0] == package)
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert circles == [], f"modules of {package} that import each other round a circle: {circles}"


def test_no_import_inside_a_function_but_the_deliberately_lazy() -> None:
    hidden = [f"{i.source} line {i.line}: {i.target}" for i in imports()
              if i.in_function and (i.source, i.target) not in LAZY]
    assert hidden == [], ("import these at the top of the module (a cycle they dodge is a "
                          f"floor to fix), or list them in LAZY with the reason: {hidden}")


def test_every_lazy_import_listed_still_exists() -> None:
    seen = {(i.source, i.target) for i in imports() if i.in_function}
    assert [pair for pair in LAZY if pair not in seen] == []


# -- derived data is declared (kb.derived), never keyed by a string --------------------------
@cache
def _string_keyed_caches() -> tuple[str, ...]:
    found = []
    for path in sorted(p for pkg in (*PACKAGES, "bench") for p in (ROOT / pkg).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in {"cached", "_get"} and node.args
                    and isinstance(node.args[0], (ast.Constant, ast.JoinedStr))
                    and not isinstance(getattr(node.args[0], "value", ""), (int, float))):
                found.append(f"{path.relative_to(ROOT)} line {node.lineno}")
    return tuple(found)


def test_no_cache_is_keyed_by_a_string() -> None:
    # A string key agreed by convention between modules silently builds a second copy when
    # one side renames it: declare the value once with @kb.derived.derived instead.
    assert list(_string_keyed_caches()) == []
