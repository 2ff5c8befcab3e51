"""Every start-up shim behaves like what it stands in for: `record` like a frozen slotted
dataclass, `memo` like functools.lru_cache, `compile_regex` (and its cache file) like
re.compile, and the cache is refused when it is not private or not intact."""

from __future__ import annotations

import collections
import dataclasses
import enum
import functools
import pickle
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from errexplain import _startup
from errexplain._startup import MutableRecord, Record, compile_regex, memo, replace

# ------------------------------------------------------------------------------ records


class Point(Record):
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()

    @property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclasses.dataclass(frozen=True, slots=True)
class DPoint:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


class Box(MutableRecord):
    value: int


ARGS = st.tuples(st.integers(), st.integers(), st.lists(st.text(max_size=3), max_size=3))


@given(ARGS, ARGS)
def test_record_equality_hash_repr_like_dataclass(a, b):
    (x1, y1, t1), (x2, y2, t2) = a, b
    r1, r2 = Point(x1, y1, tuple(t1)), Point(x2, y2, tuple(t2))
    d1, d2 = DPoint(x1, y1, tuple(t1)), DPoint(x2, y2, tuple(t2))
    assert (r1 == r2) == (d1 == d2)
    assert hash(r1) == hash(Point(x1, y1, tuple(t1)))
    assert repr(r1) == repr(d1).replace("DPoint", "Point")


def test_record_construction_like_dataclass():
    for args, kw in [((1,), {}), ((1, 2), {}), ((), {"x": 1, "tags": ("a",)}), ((1,), {"y": 5})]:
        assert dataclasses.astuple(DPoint(*args, **kw)) == _startup.astuple(Point(*args, **kw))
    for args, kw in [((), {}), ((1, 2, (), 4), {}), ((1,), {"x": 2}), ((1,), {"z": 1})]:
        with pytest.raises(TypeError):
            DPoint(*args, **kw)
        with pytest.raises(TypeError):
            Point(*args, **kw)


def test_record_is_frozen_slotted_and_pickles():
    p = Point(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del p.x  # type: ignore[misc]
    assert not hasattr(p, "__dict__")
    assert Point.__match_args__ == DPoint.__match_args__
    assert pickle.loads(pickle.dumps(p)) == p
    assert p.norm1 == 3  # methods and properties survive
    assert Point(1) != DPoint(1)  # like dataclasses: other classes never compare equal


def test_replace_like_dataclasses_replace():
    assert _startup.astuple(replace(Point(1, 2), y=7)) == dataclasses.astuple(
        dataclasses.replace(DPoint(1, 2), y=7)
    )
    with pytest.raises(TypeError):
        replace(Point(1), z=1)  # type: ignore[call-arg]


def test_mutable_record_is_mutable_and_unhashable():
    b = Box(1)
    b.value = 2
    assert b == Box(2)
    with pytest.raises(TypeError):
        hash(b)


# ---------------------------------------------------------------------------------- memo


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), max_size=40))
def test_memo_returns_what_lru_cache_returns(calls):
    calls_seen: list[tuple[int, int]] = []

    def f(a: int, b: int = 0) -> int:
        calls_seen.append((a, b))
        return a * 31 + b

    ours, theirs = memo(maxsize=8)(f), functools.lru_cache(maxsize=8)(f)
    for a, b in calls:
        assert ours(a, b) == theirs(a, b)
        assert ours(a, b=b) == theirs(a, b=b)
    assert ours.__name__ == "f" and ours.__wrapped__ is f  # type: ignore[attr-defined]
    ours.cache_clear()  # type: ignore[attr-defined]


def test_memo_calls_once_per_argument_until_full():
    seen = []

    @memo(maxsize=2)
    def f(a: int) -> int:
        seen.append(a)
        return a

    f(1), f(1), f(2), f(2)
    assert seen == [1, 2]
    f(3)  # full: emptied, then filled again
    f(1)
    assert seen == [1, 2, 3, 1]


# ------------------------------------------------------------------------- regex programs

PATTERNS = [
    r"(?P<type>[A-Za-z_][\w.]*(?:Error|Exception)): ?(?P<msg>.*)",
    r"\s+",
    r'File "(?P<path>[^"\n]{1,1000})", line (?P<line>\d{1,9})',
    r"(?i)traceback",
    r"^\s*\|?\s*\+",
    r"(?m)^[ \t]*File ",
]


@pytest.fixture
def fresh_table(monkeypatch):
    monkeypatch.setattr(_startup, "_codes", {})
    monkeypatch.setattr(_startup, "_seen", {})
    monkeypatch.setattr(_startup, "_state", {"loaded": True})
    return _startup


def _program_patterns() -> list[tuple[str, int]]:
    """Every pattern the wheel ships a program for: a fresh interpreter imports the modules the
    build hook imports, which records each pattern (no module reloading here, which would leave
    other tests with two copies of a module's classes)."""
    import json
    import subprocess

    code = (
        "import json, sys, importlib; sys.path.insert(0, sys.argv[1])\n"
        "import hatch_build, errexplain._startup as s\n"
        "[importlib.import_module(m) for m in hatch_build.REGEX_MODULES]\n"
        "print(json.dumps(sorted(s._seen)))\n"
    )
    root = str(Path(__file__).parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", code, root], capture_output=True, text=True, check=True
    )
    return [(p, f) for p, f in json.loads(out.stdout)]


def test_every_shipped_program_behaves_like_re_on_the_corpus(fresh_table):
    patterns = _program_patterns()
    assert len(patterns) >= 20
    _startup._seen.update(dict.fromkeys(patterns))
    table = _startup.read_programs(_startup.programs_blob())
    assert set(table) == set(patterns)
    _startup._codes.update(table)
    corpus = [
        p.read_text(encoding="utf-8", errors="replace")
        for p in sorted((Path(__file__).parent / "data" / "tracebacks").glob("*.txt"))
    ]
    lines = [line for text in corpus for line in text.splitlines()]
    for pattern, flags in patterns:
        ours, theirs = compile_regex(pattern, flags), re.compile(pattern, flags)
        assert ours is not theirs
        assert (ours.pattern, ours.flags, ours.groupindex, ours.groups) == (
            theirs.pattern,
            theirs.flags,
            theirs.groupindex,
            theirs.groups,
        )
        for line in lines:
            a, b = ours.search(line), theirs.search(line)
            assert (a and (a.span(), a.groups())) == (b and (b.span(), b.groups())), pattern


def _blob() -> bytes:
    for p in PATTERNS:
        compile_regex(p)
    return _startup.programs_blob()


@given(st.text(max_size=200))
def test_shipped_programs_match_like_re(text):
    table = _startup.read_programs(_blob())
    for p in PATTERNS:
        ours = _startup._sre_build(p, table[(p, 0)])
        assert ours is not None
        a, b = ours.search(text), re.compile(p).search(text)
        assert (a and a.groupdict(), a and a.span()) == (b and b.groupdict(), b and b.span())


def test_programs_are_stored_as_bytes_of_opcodes(fresh_table):
    """One bytes object per program (unmarshalled at the speed of a copy), not a list of ints."""
    import marshal

    table = _startup.read_programs(_blob())
    for p in PATTERNS:
        assert isinstance(table[(p, 0)], bytes)  # (each marshalled alone: unmarshalled on use)
        _, code, *_ = marshal.loads(table[(p, 0)])
        assert isinstance(code, bytes)
        assert len(code) % 4 == 0
        assert _startup._sre_build(p, table[(p, 0)]) is not None


def test_damaged_programs_file_is_ignored(fresh_table):
    blob = _blob()
    assert len(_startup.read_programs(blob)) == len(PATTERNS)
    for i in (0, len(blob) // 2, len(blob) - 1):
        bad = bytearray(blob)
        bad[i] ^= 0x40
        assert _startup.read_programs(bytes(bad)) == {}
    assert _startup.read_programs(b"") == {}
    assert _startup.read_programs(blob[:-3]) == {}


def test_other_interpreter_programs_are_refused(fresh_table, monkeypatch):
    blob = _blob()
    monkeypatch.setattr(_startup, "_tag", lambda: "cpython-00-0-0-0")
    assert _startup.read_programs(blob) == {}


def test_poisoned_entry_falls_back_to_re(fresh_table):
    _startup._codes[(r"\d+", 0)] = (0, [1, 2, 3], 0, {}, ())
    assert compile_regex(r"\d+").findall("a1b22") == ["1", "22"]


def test_write_atomic_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "sub" / "f.bin"
    _startup.write_atomic(str(target), b"one")
    _startup.write_atomic(str(target), b"two", mode=0o644)
    assert target.read_bytes() == b"two"
    assert [p.name for p in target.parent.iterdir()] == ["f.bin"]
    assert target.stat().st_mode & 0o777 == 0o644


# ------------------------------------------------------------------------------- IntEnum


class Ours(_startup.IntEnum):
    ZERO = 0
    ONE = 1
    """A docstring under a member is not a member."""
    MANY = 130


class Theirs(enum.IntEnum):
    ZERO = 0
    ONE = 1
    MANY = 130


def test_int_enum_behaves_like_enum_int_enum():
    assert [(m.name, m.value) for m in Ours] == [(m.name, m.value) for m in Theirs]
    assert len(Ours) == len(Theirs) == 3
    for ours, theirs in zip(Ours, Theirs, strict=True):
        assert ours == theirs == int(theirs)
        assert hash(ours) == hash(theirs)
        assert isinstance(ours, int)
        assert repr(ours) == repr(theirs).replace("Theirs", "Ours")
        assert str(ours) == str(theirs).replace("Theirs", "Ours")  # 3.10 prints the name
        assert f"{ours}" == f"{theirs}" and f"{ours:>4}" == f"{theirs:>4}"
        assert Ours(int(ours)) is ours and Ours[ours.name] is ours
        assert pickle.loads(pickle.dumps(ours)) is ours
        assert ours + 1 == theirs + 1
    with pytest.raises(ValueError):
        Ours(7)
    with pytest.raises(ValueError):
        Theirs(7)
    with pytest.raises(KeyError):
        Ours["NONE"]
    with pytest.raises(AttributeError):
        Ours.ONE = 2  # type: ignore[misc]


# -------------------------------------------------------------------------- user cache dir


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the stand-in is for Linux")
# (platformdirs releases disagree on a value with leading blanks: 4.12 strips it, later ones
# do not; no case of that here)
@pytest.mark.parametrize("xdg", [None, "", "/tmp/xdg-cache", "relative/cache"])
def test_user_cache_dir_is_platformdirs_on_linux(monkeypatch, xdg):
    import platformdirs

    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert _startup.user_cache_dir("errexplain") == platformdirs.user_cache_dir(
        "errexplain", appauthor=False
    )


# --------------------------------------------------------------------------- named_tuple

Pair = _startup.named_tuple("Pair", ("a", "b", "c"), (None, ""), module=__name__)
OursNT = Pair
TheirsNT = collections.namedtuple("TheirsNT", ("a", "b", "c"), defaults=(None, ""))


@pytest.mark.parametrize(
    ("args", "kw"),
    [
        ((1,), {}),
        ((1, 2), {}),
        ((1, 2, "x"), {}),
        ((), {"a": 1}),
        ((1,), {"c": "z"}),
        ((), {"c": 3, "a": 4, "b": 5}),
    ],
)
def test_named_tuple_like_collections_namedtuple(args, kw):
    ours, theirs = OursNT(*args, **kw), TheirsNT(*args, **kw)
    assert ours == theirs and tuple(ours) == tuple(theirs) and hash(ours) == hash(theirs)
    assert (ours.a, ours.b, ours.c) == (theirs.a, theirs.b, theirs.c)
    assert repr(ours) == repr(theirs).replace("TheirsNT", "Pair")
    assert OursNT._fields == TheirsNT._fields
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert type(ours).__name__ == "Pair"


@pytest.mark.parametrize(
    ("args", "kw"), [((), {}), ((1, 2, 3, 4), {}), ((1,), {"a": 2}), ((1,), {"d": 2})]
)
def test_named_tuple_refuses_what_namedtuple_refuses(args, kw):
    with pytest.raises(TypeError):
        TheirsNT(*args, **kw)
    with pytest.raises(TypeError):
        OursNT(*args, **kw)


# ------------------------------------------------------------------ patterns built on first use


def test_a_pattern_is_built_on_first_use_only(fresh_table, monkeypatch):
    built: list[str] = []
    real = _startup._build_regex
    monkeypatch.setattr(_startup, "_build_regex", lambda p, f: built.append(p) or real(p, f))
    pat = compile_regex(r"(?P<n>\d+) apples")
    assert built == []
    assert pat.pattern == r"(?P<n>\d+) apples"  # (known without building)
    assert built == []
    assert pat.search("I ate 12 apples")["n"] == "12"
    assert built == [r"(?P<n>\d+) apples"]
    # every later use goes straight to the built pattern's methods
    assert pat.sub("N apples", "3 apples") == "N apples"
    assert pat.findall("1 apples, 2 apples") == ["1", "2"]
    assert "match" in vars(pat) and "sub" in vars(pat)
    assert built == [r"(?P<n>\d+) apples"]


def test_a_lazy_pattern_behaves_like_re_compile():
    ours, theirs = compile_regex(r"a(b)?c", re.I), re.compile(r"a(b)?c", re.I)
    assert (ours.flags, ours.groups, ours.groupindex) == (
        theirs.flags,
        theirs.groups,
        theirs.groupindex,
    )
    for text in ("ABC", "xac", "", "abcabc"):
        assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)]
        assert ours.split(text) == theirs.split(text)
        assert ours.subn("-", text) == theirs.subn("-", text)
    with pytest.raises(AttributeError):
        ours.no_such_method  # noqa: B018


def test_a_lazy_pattern_pickles_equals_and_hashes_by_its_text():
    a = compile_regex(r"x+", re.M)
    a.match("xx")  # (built: its instance dict holds bound methods, which do not pickle)
    b = pickle.loads(pickle.dumps(a))
    assert b == a and hash(b) == hash(a)
    assert b.match("xxx").group() == "xxx"
    assert compile_regex(r"x+") != a  # other flags
