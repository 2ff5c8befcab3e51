"""The piped path's modules from one file shipped in the wheel.

A piped explain imports about 35 of the package's modules. Each costs the import system a
directory lookup, a stat of its source, an open and read of its ``.pyc`` and a header check
before the code is unmarshalled: together about 1.7 ms of a run that ``python -c pass``
finishes in 12 (bench/speed.py). The wheel's build hook compiles those modules' sources into
one file (``errexplain/_index/code.bundle``: their code objects, marshalled together) and the
``errexplain`` command reads it once and serves those modules from it (:func:`install`).

The bundle is as trusted as the package's own ``.pyc`` files (package data, never a file of
the user's cache dir, which a run can write to). It is used only by the interpreter that built
it (cache tag and ``sys.hexversion``) and when its checksum holds; any other module, and every
module of an editable install (which has no bundle), is imported as usual. Each module keeps its
real ``__file__``; its code names its file relative to site-packages (``errexplain/cli/x.py``),
which ``linecache`` finds on ``sys.path`` for a ``--debug`` traceback. An installed source file
edited by hand is not seen by the command until the wheel is rebuilt; set
``ERREXPLAIN_NO_BUNDLE=1`` to import every module from its file.
"""

import sys

# (no `from __future__ import annotations`: this module is imported from its file, and that
# import would read the standard library's __future__.py; typing-only names are quoted)

TYPE_CHECKING = False

if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

_PACKAGE = __package__ or "errexplain"
BUNDLE_FILE = "code.bundle"
NO_BUNDLE_ENV = "ERREXPLAIN_NO_BUNDLE"

MODULES = (
    "errexplain._startup",
    "errexplain.app",
    "errexplain.app.context",
    "errexplain.app.explain",
    "errexplain.app.snippets",
    "errexplain.bounds",
    "errexplain.catalog",
    "errexplain.catalog.index",
    "errexplain.catalog.locate",
    "errexplain.catalog.snippets",
    "errexplain.catalog.store",
    "errexplain.cli",
    "errexplain.errors",
    "errexplain.explainer",
    "errexplain.input",
    "errexplain.input.read",
    "errexplain.input.source",
    "errexplain.input.window",
    "errexplain.match",
    "errexplain.match.normalize",
    "errexplain.match.rank",
    "errexplain.match.release",
    "errexplain.match.sites",
    "errexplain.match.template",
    "errexplain.models",
    "errexplain.parse",
    "errexplain.parse.inline",
    "errexplain.parse.lines",
    "errexplain.parse.traceback",
    "errexplain.render",
    "errexplain.render.json",
    "errexplain.render.plain",
    "errexplain.render.view",
)
"""The modules a piped explain imports (tests/test_bundle.py holds the list to what a run
really imports). A module left out is imported from its file, as it would be without a bundle."""


def _tag() -> bytes:
    return f"errexplain-bundle {sys.implementation.cache_tag} {sys.hexversion:x}\n".encode()


def _relative(name: str, package_dir: str) -> tuple[bool, str]:
    """(whether `name` is a package, its source file relative to the package directory)."""
    import os

    parts = name.split(".")[1:]
    base = os.path.join(package_dir, *parts)
    if os.path.isdir(base):
        return True, "/".join([*parts, "__init__.py"])
    return False, "/".join(parts) + ".py"


def bundle_blob(package_dir: str, modules: tuple[str, ...] = MODULES) -> bytes:
    """The bundle of `modules` compiled from the sources under `package_dir` (the package's
    own directory) by this interpreter: a header line naming the interpreter, the CRC-32 of
    the rest, then marshal of {name: (is_package, relative path, code)}."""
    import marshal
    import os
    from zlib import crc32

    table = {}
    for name in modules:
        is_pkg, rel = _relative(name, package_dir)
        with open(os.path.join(package_dir, rel), encoding="utf-8") as fh:
            source = fh.read()
        table[name] = (is_pkg, rel, _compile(source, f"errexplain/{rel}"))
    rel = f"{RECORD_INITS}.py"  # (no such file: the module is made here, from the sources)
    inits = record_inits_source(record_fields(package_dir, modules))
    table[f"{_PACKAGE}.{RECORD_INITS}"] = (False, rel, _compile(inits, f"errexplain/{rel}"))
    body = marshal.dumps(table)
    return _tag() + crc32(body).to_bytes(4, "little") + body


RECORD_INITS = "_record_inits"  # (errexplain._startup.RECORD_INITS: not imported here)
_RECORD_BASES = ("Record", "MutableRecord")


def record_fields(package_dir: str, modules: "tuple[str, ...]") -> "list[tuple[str, ...]]":
    """The field names, in order, of every record class in the sources of `modules` (a class
    whose bases name Record or MutableRecord; its fields are its body's annotated names, as
    errexplain._startup's metaclass takes them), read from the source without importing it.
    (The bundled modules' only: a factory costs its unmarshalling at every start, and the
    records of the other modules are made by commands that run long.)"""
    import ast
    import os

    found: dict[tuple[str, ...], None] = {}
    for name in modules:
        with open(
            os.path.join(package_dir, _relative(name, package_dir)[1]), encoding="utf-8"
        ) as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and any(
                (b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")) in _RECORD_BASES
                for b in node.bases
            ):
                names = tuple(
                    a.target.id
                    for a in node.body
                    if isinstance(a, ast.AnnAssign) and isinstance(a.target, ast.Name)
                )
                found[names] = None
    return list(found)


def record_inits_source(fields: "list[tuple[str, ...]]") -> str:
    """A module whose ``INITS`` maps each field-name tuple to a factory: given the fields' slot
    setters, it returns an ``__init__`` taking the fields as parameters and setting each."""
    out = ['"""Made by errexplain._bundle.record_inits_source (see _startup._RecordMeta)."""', ""]
    entries = []
    for k, names in enumerate(fields):
        if any(not n.isidentifier() or n == "self" or n.startswith("_s") for n in names):
            continue  # (cannot be a parameter of its own: the generic __init__ serves it)
        setters = ", ".join(f"_s{i}" for i in range(len(names)))
        out.append(f"def _f{k}({setters}):")
        out.append(
            f"    def __init__(self, {', '.join(names)}):" if names else "    def __init__(self):"
        )
        out.extend(f"        _s{i}(self, {n})" for i, n in enumerate(names))
        if not names:
            out.append("        pass")
        out.append("    return __init__")
        out.append("")
        entries.append(f"    {names!r}: _f{k},")
    out.append("INITS = {")
    out.extend(entries)
    out.append("}")
    return "\n".join(out) + "\n"


def _compile(source: str, filename: str) -> "Any":
    """A module's code as its ``.pyc`` holds it, but for its ``from __future__ import ...``
    statements: their features are given to the compiler instead, so that running the code
    does not import ``__future__`` (a file of the standard library, a fifth of a millisecond)
    only to bind a name no module uses."""
    import __future__

    import ast

    tree = ast.parse(source, filename)
    _drop_docstrings(tree)
    flags = 0
    kept = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                flags |= getattr(__future__, alias.name).compiler_flag
            continue
        kept.append(node)
    tree.body = kept
    return compile(tree, filename, "exec", flags=flags, dont_inherit=True)


def _drop_docstrings(tree: "Any") -> None:
    """Take the docstrings out of a module's tree: a seventh of the bundle's bytes, which
    every run unmarshals, and nothing reads them (the commands' help texts are the typer app's,
    errexplain.cli.typer_app, which is not bundled)."""
    import ast

    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    for node in ast.walk(tree):
        if not isinstance(node, kinds) or not node.body:
            continue
        first = node.body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
        ):
            node.body[0] = ast.copy_location(ast.Pass(), first)


def read_bundle(data: bytes) -> "dict[str, tuple[bool, str, Any]]":
    """The table of a bundle file: empty unless this very interpreter built it (checked before
    anything is unmarshalled: another version's code objects do not unmarshal here) and its
    checksum holds (against a damaged file, as a ``.pyc``'s header is)."""
    import marshal
    from zlib import crc32

    tag = _tag()
    head = len(tag) + 4
    if len(data) < head or not data.startswith(tag):
        return {}
    body = memoryview(data)[head:]  # (no copy of the body)
    if crc32(body) != int.from_bytes(data[len(tag) : head], "little"):
        return {}
    try:
        table = marshal.loads(body)
    except Exception:
        return {}
    return table if isinstance(table, dict) else {}


class _Finder:
    """Finds and loads the bundled modules (a meta path finder and its loader)."""

    def __init__(self, table: "dict[str, tuple[bool, str, Any]]", package_dir: str) -> None:
        self._table = table
        self._dir = package_dir
        # the class of the package's own spec: importlib.machinery.ModuleSpec, without importing
        # importlib (a third of a millisecond)
        self._spec_class: Any = type(sys.modules[_PACKAGE].__spec__)

    def find_spec(self, name: str, path: "Any" = None, target: "Any" = None) -> "Any":
        found = self._table.get(name)
        if found is None:
            return None
        is_pkg, rel, _ = found
        origin = f"{self._dir}/{rel}"
        spec = self._spec_class(name, self, origin=origin, is_package=is_pkg)
        if is_pkg:
            spec.submodule_search_locations = [origin.rpartition("/")[0]]
        spec.has_location = True  # (sets __file__)
        return spec

    def create_module(self, spec: "Any") -> None:
        return None

    def exec_module(self, module: "ModuleType") -> None:
        found = self._table.pop(module.__spec__.name)  # type: ignore[union-attr]
        exec(found[2], module.__dict__)


def install() -> bool:
    """Serve the bundled modules from the wheel's bundle file, when there is one this
    interpreter built (whether it did). Never raises: without it, modules import as usual."""
    try:
        import os

        if os.environ.get(NO_BUNDLE_ENV):
            return False
        package_dir = sys.modules[_PACKAGE].__path__[0]  # (imported before this module)
        with open(os.path.join(package_dir, "_index", BUNDLE_FILE), "rb") as fh:
            table = read_bundle(fh.read())
        if not table:
            return False
        sys.meta_path.insert(0, _Finder(table, package_dir))
        return True
    except Exception:
        return False
