"""The house's layers (README, "Layout"): every import of the package, at the top of a module and inside a function,
points down the layer order, no modules import each other in a circle, and an import made inside a function says
why (start-up time, or an optional extra)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "worker"

# The README's order, lowest first. A module may import its own package and any package of a lower rank.
LAYERS: list[set[str]] = [
    {"", "core"},
    {"settings", "logs", "proc", "client"},
    {"db"},
    {"memory"},
    {"daemon", "hooks", "cockpit", "demo_agent"},
    {"cli"},
]
RANK = {package: rank for rank, packages in enumerate(LAYERS) for package in packages}
# What an import inside a function may give as its reason, in a comment on its line or the line above.
REASONS = ("# start-up:", "# extra:")


@dataclass(frozen=True)
class Import:
    source: str  # worker.cli.taak
    target: str  # worker.db.store
    line: int
    inside_function: bool
    reason: str


def _modules() -> dict[str, Path]:
    found = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _module_of(name: str) -> str:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def _type_checking_only(tree: ast.Module) -> set[int]:
    """Nodes under `if TYPE_CHECKING:`: read by mypy, never run, so they make no arrow."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return skipped


def _imports(module: str, path: Path) -> list[Import]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    tree = ast.parse(text)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    skipped = _type_checking_only(tree)
    inside = {
        id(node)
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for node in ast.walk(fn)
    }
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped or not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [f"{base}.{alias.name}" for alias in node.names]
        around = " ".join(lines[max(0, node.lineno - 2) : node.end_lineno or node.lineno])
        for name in names:
            target = _module_of(name)
            if name.startswith("worker") and target and target != module:
                found.append(Import(module, target, node.lineno, id(node) in inside, around))
    return found


@cache  # parsed when a test first asks, not while every worker collects the tests
def imports() -> list[Import]:
    return [found for module, path in sorted(MODULES.items()) for found in _imports(module, path)]


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_package_has_a_layer() -> None:
    assert sorted({_package(m) for m in MODULES} - set(RANK)) == []


def test_arrows_point_down_the_layers() -> None:
    against = [
        f"{i.source}:{i.line} imports {i.target}"
        for i in imports()
        if _package(i.source) != _package(i.target) and RANK[_package(i.target)] >= RANK[_package(i.source)]
    ]
    assert against == []


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's, without recursion limits in practice:
    the package is a few hundred modules)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_modules_import_each_other_in_a_circle() -> None:
    edges: dict[str, set[str]] = {}
    for i in imports():
        edges.setdefault(i.source, set()).add(i.target)
    assert _cycles(edges) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_every_import_inside_a_function_says_why() -> None:
    unexplained = [
        f"{found.source}:{found.line} imports {found.target}"
        for found in imports()
        if found.inside_function and not any(reason in found.reason for reason in REASONS)
    ]
    assert unexplained == [], (
        "an import inside a function needs '# start-up: ...' or '# extra: ...' on its line or the line above; "
        "move each to the top of its module or say why"
    )
