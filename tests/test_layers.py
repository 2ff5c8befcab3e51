"""The architecture holds: data flows one way (input -> parse -> match -> explain -> render,
catalog beside the core, app and cli at the edge), no module imports from a higher layer or
from a sibling package of its own layer, and there is no import cycle.

Every `import` statement of the package counts, also those inside functions (they run too),
except those under `if TYPE_CHECKING:` (they never run)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parent.parent / "src" / "errexplain"

LAYERS = {
    "errexplain._startup": 0,
    "errexplain._bundle": 0,
    "errexplain._version": 0,
    "errexplain.bounds": 0,
    "errexplain.errors": 1,
    "errexplain.models": 2,
    "errexplain.parse": 3,
    "errexplain.match": 3,
    "errexplain.input": 4,
    "errexplain.catalog": 4,
    "errexplain.explainer": 5,
    "errexplain.repeats": 4.5,  # triage's parse of error-dense regions, below triage
    "errexplain.triage": 5,
    "errexplain.extract": 5,
    "errexplain.render": 6,
    "errexplain.app": 7,
    "errexplain.redaction": 3,
    "errexplain.integrations": 6.5,  # below app (which runs commands through it), above render
    "errexplain.cli": 9,
    "errexplain": 10,  # the public API in __init__ and __main__
    "errexplain.__main__": 10,
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _group(module: str) -> str:
    """The layer key of a module: its top-level unit inside the package."""
    parts = module.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else parts[0]


def _runtime_imports(tree: ast.Module, module: str, is_package: bool) -> set[str]:
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for sub in child.orelse:
                    visit(sub)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if a.name.startswith("errexplain"))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    pkg = module.split(".")
                    pkg = pkg if is_package else pkg[:-1]
                    base = ".".join(pkg[: len(pkg) - child.level + 1] + ([base] if base else []))
                if base.startswith("errexplain"):
                    for a in child.names:
                        sub = f"{base}.{a.name}"
                        found.add(
                            sub
                            if (SRC.parent / (sub.replace(".", "/") + ".py")).exists()
                            or (SRC.parent / sub.replace(".", "/")).is_dir()
                            else base
                        )
            visit(child)

    visit(tree)
    return found


def _graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(SRC.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = _runtime_imports(tree, module, path.name == "__init__.py")
    return graph


def test_every_module_has_a_layer():
    missing = sorted(m for m in _graph() if _group(m) not in LAYERS)
    assert not missing


def test_no_import_from_a_higher_layer_or_a_sibling_package():
    wrong = []
    for module, imports in _graph().items():
        mine = _group(module)
        for imp in imports:
            theirs = _group(imp)
            if theirs == mine or imp == "errexplain":
                continue
            if LAYERS[theirs] >= LAYERS[mine]:
                wrong.append(f"{module} -> {imp}")
    assert not wrong, wrong


def test_no_import_cycle():
    graph = _graph()
    state: dict[str, int] = {}
    cycles = []

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt, [*stack, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node, [node])
    assert not cycles, cycles


def test_the_layer_check_sees_imports():
    """Guard against a vacuous pass: the graph holds the imports we know of."""
    graph = _graph()
    assert "errexplain.match.template" in graph["errexplain.match.rank"]
    assert "errexplain.models" in graph["errexplain.explainer"]
    assert "errexplain.cli.typer_app" in graph["errexplain.cli"]  # inside a function
