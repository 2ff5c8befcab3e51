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
    # (and the record classes' compiled __init__ factories, made from the sources)
    assert set(table) == {"errexplain.bounds", "errexplain.match", "errexplain._record_inits"}
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
    assert names.get("__doc__") is None  # (docstrings are left out: see the next test)


def test_docstrings_are_left_out_and_the_code_runs_as_before():
    """A bundled module's docstrings are dropped (every run unmarshals the bundle), including a
    body that is only a docstring; everything else runs as the file's code does."""
    source = (
        '"""Module doc."""\n\n\nclass A:\n    """Class doc."""\n\n    x = 1\n\n\n'
        'def only_doc():\n    """Nothing but a docstring."""\n\n\n'
        'def f(a):\n    """Doc."""\n    s = "a string, not a docstring"\n'
        "    return s, a + A.x\n\n\n"
        "ABSENT = (only_doc(), f.__doc__, A.__doc__)\n"
    )
    names: dict[str, object] = {}
    exec(_bundle._compile(source, "errexplain/demo.py"), names)
    assert names.get("__doc__") is None
    assert names["ABSENT"] == (None, None, None)
    assert names["f"](2) == ("a string, not a docstring", 3)  # type: ignore[operator]


def _record_classes(modules: tuple[str, ...]) -> list[type]:
    from errexplain._startup import MutableRecord, Record

    for name in modules:
        importlib.import_module(name)
    out: list[type] = []
    todo = [Record, MutableRecord]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__ in modules:
                out.append(sub)
    return out


def test_every_bundled_record_class_has_a_compiled_init():
    """The bundle's factories cover each record class of the bundled modules, read from their
    sources (a class whose fields the source reading got wrong would get none and be slower,
    not wrong: the lookup is by the class's own field names)."""
    fields = set(_bundle.record_fields(PKG, _bundle.MODULES))
    classes = _record_classes(_bundle.MODULES)
    assert len(classes) >= 25
    assert {cls._fields for cls in classes} <= fields  # type: ignore[attr-defined]


def _init_of(cls: type, source: str) -> object:
    """`cls.__init__` as the bundle's factory for its fields makes it."""
    names: dict[str, object] = {}
    exec(compile(source, "errexplain/_record_inits.py", "exec"), names)
    factory = names["INITS"][cls._fields]  # type: ignore[index, attr-defined]
    setters = [cls.__dict__[n].__set__ for n in cls._fields]  # type: ignore[attr-defined]
    return factory(*setters)  # type: ignore[operator]


def test_a_compiled_init_makes_the_record_the_generic_one_makes(monkeypatch):
    """Built positionally, by keyword and with defaults, a record is the same whichever
    __init__ made it; a frozen one stays frozen; wrong arguments raise TypeError either way."""
    from errexplain import _startup
    from errexplain._startup import Record

    class Point(Record):
        x: int
        label: str
        z: int = 0
        tags: tuple[str, ...] = ()

    source = _bundle.record_inits_source([Point._fields])  # type: ignore[attr-defined]
    generic = Point.__init__
    compiled = _init_of(Point, source)
    compiled.__defaults__ = _startup._trailing(Point._fields, {"z": 0, "tags": ()})  # type: ignore[attr-defined]
    calls = [
        ((1, "a"), {}),
        ((1, "a", 2), {}),
        ((1,), {"label": "b", "tags": ("t",)}),
        ((), {"x": 3, "label": "c", "z": 4, "tags": ()}),
    ]
    for args, kw in calls:
        monkeypatch.setattr(Point, "__init__", generic)
        want = Point(*args, **kw)
        monkeypatch.setattr(Point, "__init__", compiled)
        got = Point(*args, **kw)
        assert got == want and repr(got) == repr(want) and hash(got) == hash(want)
        with pytest.raises(AttributeError):
            got.x = 9  # type: ignore[misc]
    for args, kw in [
        ((), {}),
        ((1, "a", 2, (), 5), {}),
        ((1, "a"), {"nope": 1}),
        ((1,), {"x": 2, "label": "l"}),
    ]:
        for init in (generic, compiled):
            monkeypatch.setattr(Point, "__init__", init)
            with pytest.raises(TypeError):
                Point(*args, **kw)


def test_the_metaclass_takes_a_compiled_init_when_the_bundle_has_one(monkeypatch):
    """A class whose field names the bundle's table holds gets that factory's __init__ (its
    defaults given as the function's); one whose defaults are not all trailing keeps the generic
    one."""
    from errexplain import _startup
    from errexplain._startup import Record

    source = _bundle.record_inits_source([("a", "b"), ("p", "q")])
    names: dict[str, object] = {}
    exec(compile(source, "errexplain/_record_inits.py", "exec"), names)
    monkeypatch.setitem(_startup._inits, "table", names["INITS"])

    class Two(Record):
        a: int
        b: int = 5

    class Odd(Record):
        p: int = 1
        q: int  # (a default before a field without one: bound by the generic __init__)

    assert Two.__init__.__code__.co_filename == "errexplain/_record_inits.py"
    assert Two.__init__.__qualname__.endswith("Two.__init__")
    assert Two(1) == Two(a=1, b=5) and Two(1, 2).b == 2
    assert Odd.__init__.__code__.co_filename != "errexplain/_record_inits.py"
    assert Odd(q=2).p == 1
