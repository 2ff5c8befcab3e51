"""The piped path's modules served from the wheel's one compiled bundle (errexplain/_bundle.py):
the bundle holds what a piped explain imports, serves each module as its file would, and is
refused whole when it is not this interpreter's or is damaged."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

import errexplain
from errexplain import _bundle

REPO = Path(__file__).parent.parent
PKG = str(Path(errexplain.__file__).parent)
ALWAYS = {"errexplain", "errexplain._bundle", "errexplain._version"}
"""Imported from their files before the bundle is read (the package and the reader itself)."""


def _imported(stdin: Path, *args: str) -> set[str]:
    """The errexplain modules a piped explain of `stdin` imports, in a fresh interpreter."""
    code = (
        "import json, sys\n"
        "from errexplain.cli import main\n"
        f"sys.argv = ['errexplain', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('errexplain'))),"
        " file=sys.stderr)\n"
    )
    with open(stdin, "rb") as fin:
        r = subprocess.run(
            [sys.executable, "-c", code], stdin=fin, capture_output=True, text=True, check=False
        )
    return set(json.loads(r.stderr.strip().splitlines()[-1]))


@pytest.mark.slow
def test_the_bundle_holds_exactly_what_a_piped_explain_imports():
    runs = [
        _imported(REPO / "examples" / "kimi_k3_multirank.log"),
        _imported(REPO / "examples" / "hunyuan_qkv_fenced.md", "--json", "-v"),
        _imported(REPO / "bench" / "data" / "bare_assert.txt"),
    ]
    every = set().union(*runs)
    assert every - ALWAYS <= set(_bundle.MODULES)  # nothing a piped run needs is left on disk
    assert set(_bundle.MODULES) <= every  # and nothing is bundled that no piped run imports


def _load(table: dict, name: str):
    finder = _bundle._Finder(table, PKG)
    spec = finder.find_spec(name)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return spec, module


def test_a_bundled_module_is_the_module_its_file_makes():
    table = _bundle.read_bundle(_bundle.bundle_blob(PKG, ("errexplain.bounds", "errexplain.match")))
    assert set(table) == {"errexplain.bounds", "errexplain.match"}
    spec, module = _load(table, "errexplain.bounds")
    import errexplain.bounds as from_file

    assert module.__file__ == from_file.__file__

    def names(m):  # (pytest's assertion rewriting may add its own '@py' names; the bundled
        # module's future features are compiled in, not bound as `annotations`)
        return {k for k in vars(m) if not k.startswith(("__", "@")) and k != "annotations"}

    assert names(module) == names(from_file)
    assert not spec.submodule_search_locations
    # a package keeps its directory, so that its submodules are found
    spec, _ = _load(table, "errexplain.match")
    assert spec.submodule_search_locations == [str(Path(PKG) / "match")]
    # the code names its file relative to site-packages, which linecache finds on sys.path
    code = _bundle.read_bundle(_bundle.bundle_blob(PKG, ("errexplain.bounds",)))
    assert code["errexplain.bounds"][2].co_filename == "errexplain/bounds.py"
    # a module not bundled is the import system's as usual
    assert _bundle._Finder(table, PKG).find_spec("errexplain.cli") is None


def test_a_module_is_served_once_then_from_its_file():
    """After its first import the bundle forgets a module: importing it again (a test, a reload)
    reads its file."""
    table = _bundle.read_bundle(_bundle.bundle_blob(PKG, ("errexplain.bounds",)))
    finder = _bundle._Finder(table, PKG)
    spec = finder.find_spec("errexplain.bounds")
    spec.loader.exec_module(importlib.util.module_from_spec(spec))
    assert finder.find_spec("errexplain.bounds") is None


def test_a_damaged_or_foreign_bundle_is_refused_whole(monkeypatch):
    blob = _bundle.bundle_blob(PKG, ("errexplain.bounds",))
    assert _bundle.read_bundle(blob)
    for i in (len(blob) // 2, len(blob) - 1):
        bad = bytearray(blob)
        bad[i] ^= 0x40
        assert _bundle.read_bundle(bytes(bad)) == {}
    assert _bundle.read_bundle(blob[:-3]) == {}
    assert _bundle.read_bundle(b"") == {}
    # another interpreter's bundle is refused before any of it is unmarshalled
    monkeypatch.setattr(_bundle, "_tag", lambda: b"errexplain-bundle cpython-99 0\n")
    assert _bundle.read_bundle(blob) == {}


def test_install_serves_the_bundle_unless_told_not_to(monkeypatch, tmp_path):
    (tmp_path / "_index").mkdir()
    (tmp_path / "_index" / _bundle.BUNDLE_FILE).write_bytes(
        _bundle.bundle_blob(PKG, ("errexplain.bounds",))
    )
    monkeypatch.setattr(errexplain, "__path__", [str(tmp_path)])
    before = list(sys.meta_path)
    monkeypatch.setattr(sys, "meta_path", list(before))
    monkeypatch.setenv(_bundle.NO_BUNDLE_ENV, "1")
    assert _bundle.install() is False and sys.meta_path == before
    monkeypatch.delenv(_bundle.NO_BUNDLE_ENV)
    assert _bundle.install() is True
    assert isinstance(sys.meta_path[0], _bundle._Finder)
    # no bundle file (an editable install): nothing is installed, nothing is raised
    monkeypatch.setattr(sys, "meta_path", list(before))
    monkeypatch.setattr(errexplain, "__path__", [str(tmp_path / "none")])
    assert _bundle.install() is False and sys.meta_path == before


def test_future_features_are_compiled_in_not_imported():
    """A bundled module keeps its `from __future__ import annotations` semantics (annotations
    stay strings) without importing `__future__` when it runs."""
    source = (
        '"""Doc."""\n\nfrom __future__ import annotations\n\nimport sys\n\n\n'
        "def f(x: NoSuchName) -> int:\n    return 1\n\n\nANN = f.__annotations__\n"
    )
    code = _bundle._compile(source, "errexplain/demo.py")
    names = {}
    exec(code, names)
    assert names["ANN"] == {"x": "NoSuchName", "return": "int"}
    assert "annotations" not in names  # (the name the import statement would have bound)
    assert "__future__" not in code.co_names
    assert names["__doc__"] == "Doc."
