"""The layers of docs/architecture.md, read from the source: every import of every module,
those inside functions too, since a late import is still a dependency."""

import ast
from pathlib import Path

import matanui

PACKAGE = Path(matanui.__file__).parent

# The interfaces (the command line, the line-based terminal, the full screen) and the studies
# and tools run by hand stand on the library; the library never imports them.
INTERFACES = ("matanui.cli", "matanui.terminal", "matanui.tui")
STUDIES_AND_TOOLS = ("matanui.studies", "matanui.tools")
ABOVE_THE_LIBRARY = INTERFACES + STUDIES_AND_TOOLS

# What each layer may never import (prefixes of module names).
FORBIDDEN = {
    "matanui.engine": ("matanui.games", "matanui.ai", "matanui.arena", "matanui.envs",
                       "matanui.batch", "matanui.server", *ABOVE_THE_LIBRARY),
    "matanui.games": ("matanui.ai", "matanui.arena", "matanui.envs", "matanui.batch",
                      "matanui.server", *ABOVE_THE_LIBRARY),
}

def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def runtime_nodes(tree: ast.AST):
    """Every node, except those under `if TYPE_CHECKING:` (names for the type checker only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            continue
        yield node
        yield from runtime_nodes(node)


def imports_of(path: Path) -> set[str]:
    """The matanui modules that `path` imports, resolved to the module (not the name)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in found if m.startswith("matanui")} & MODULES.keys()


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {name: imports_of(path) - {name} for name, path in MODULES.items()}


def test_the_kernel_and_the_games_import_nothing_above_them():
    broken = [f"{module} imports {target}"
              for module, targets in GRAPH.items()
              for layer, banned in FORBIDDEN.items() if module.startswith(layer)
              for target in targets if target.startswith(banned)]
    assert not broken, broken


def in_package(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def test_the_library_imports_no_interface_study_or_tool():
    broken = [f"{module} imports {target}"
              for module, targets in GRAPH.items() if not in_package(module, ABOVE_THE_LIBRARY)
              for target in targets if in_package(target, ABOVE_THE_LIBRARY)]
    assert not broken, broken


def test_no_two_modules_import_each_other_through_any_path():
    """A cycle of imports (the kernel through the registry back to the kernel; results and
    simulate of the arena) means two modules that cannot be understood apart. A package's
    `__init__` re-exporting its own modules is not a cycle of meaning and is left out."""

    def edges(module: str) -> set[str]:
        return {t for t in GRAPH[module] if not (MODULES[t].name == "__init__.py" and module.startswith(t))}

    cycles = []
    for start in GRAPH:
        stack, seen = [(start, (start,))], set()
        while stack:
            module, path = stack.pop()
            for target in edges(module):
                if target == start:
                    cycles.append(" -> ".join((*path, start)))
                elif target not in seen:
                    seen.add(target)
                    stack.append((target, (*path, target)))
    assert not cycles, cycles[:5]
