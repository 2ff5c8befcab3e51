"""Every start-up shim in one place: stand-ins for stdlib pieces whose import costs more than a
whole explain on the piped fast path. Each is tested against what it stands in for
(tests/test_startup.py).

* :class:`Record` / :class:`MutableRecord` (base classes) and :func:`replace` stand in for
  ``dataclasses.dataclass(frozen=True, slots=True)`` and ``dataclasses.replace``: importing
  ``dataclasses`` pulls in ``inspect``, ``ast`` and ``tokenize``, and generates code per class.
  To the type checker ``Record`` *is* a dataclass transform (mypy treats ``TYPE_CHECKING`` as
  true, see pyproject); at run time its metaclass makes each subclass a slotted class with
  ``__init__``, and the base gives ``__eq__``, ``__hash__``, ``__repr__`` and pickling.
* :func:`named_tuple` stands in for ``collections.namedtuple`` (same import cost).
* :func:`memo` stands in for ``functools.lru_cache`` (``functools`` pulls in ``collections``).
* :func:`compile_regex` stands in for ``re.compile``, served from programs shipped in the wheel
  (see the section below), so that the fast path neither imports ``re`` nor compiles patterns.
* :class:`IntEnum` stands in for ``enum.IntEnum`` (``enum`` pulls in ``functools`` and
  ``collections``: a quarter of the piped fast path); to the type checker it *is*
  ``enum.IntEnum``.
* :func:`user_cache_dir` stands in for ``platformdirs.user_cache_dir`` on Linux (platformdirs
  is imported only on other platforms).
* ``TYPE_CHECKING``: a plain ``False`` so that ``typing`` is never imported at run time.

Regex programs
--------------
CPython compiles a pattern in two steps: a Python-level parser/compiler (``re._parser`` and
``re._compiler``, ``sre_parse``/``sre_compile`` on 3.10) produces integer opcodes, and
``_sre.compile`` (C) turns them into a pattern object. ``_sre`` trusts the opcodes: a crafted
program writes past its allocation (issue 14). So programs are never read from a place a
run can write to (the user's cache dir used to hold them): the wheel's build hook compiles every
pattern the package uses and ships the programs as package data, next to the prebuilt index,
exactly as trusted as the package's own code and ``.pyc`` files. The file carries the building
interpreter's cache tag, ``sys.hexversion``, ``_sre.MAGIC``, ``_sre.CODESIZE`` and byte order
(another interpreter compiles instead), each program's opcodes as one bytes object of native
uint32s (unmarshalling them as ints was a tenth of a millisecond of every start), and a
checksum (a damaged file is ignored). An editable install, or any pattern not in the file, is
compiled by ``re.compile``.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # mypy: always_true (pyproject); at run time `typing` is never imported

if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Any, ClassVar, TypeVar

    from typing_extensions import dataclass_transform

    _T = TypeVar("_T")
    _F = TypeVar("_F", bound=Callable[..., Any])


# ---------------------------------------------------------------- records (dataclass stand-in)


def _bind(
    name: str,
    names: tuple[str, ...],
    defaults: dict[str, Any],
    args: tuple[Any, ...],
    kw: dict[str, Any],
) -> tuple[Any, ...]:
    """Every field's value from positional and keyword arguments and the defaults, as a
    dataclass ``__init__`` or a namedtuple ``__new__`` binds them (TypeError like theirs)."""
    if len(args) > len(names):
        raise TypeError(f"{name}() takes {len(names)} arguments")
    values = dict(defaults)
    values.update(zip(names, args, strict=False))  # (the positional ones)
    if kw:
        given = names[: len(args)]
        if not kw.keys() <= set(names) or not kw.keys().isdisjoint(given):
            bad = next(k for k in kw if k not in names or k in given)
            raise TypeError(f"{name}() got an unexpected or repeated {bad!r}")
        values.update(kw)
    try:
        return tuple([values[n] for n in names])
    except KeyError as exc:
        raise TypeError(f"{name}() missing argument {exc.args[0]!r}") from None


def _make_init(
    name: str, names: tuple[str, ...], defaults: dict[str, Any], setters: list[Any]
) -> Callable[..., None]:
    """`setters`: the ``__set__`` of each field's slot, filled in once the class exists (they
    set a frozen record's slots as ``object.__setattr__`` does, at half its cost: an index build
    makes 150,000 records)."""

    def __init__(self: Any, *args: Any, **kw: Any) -> None:
        if kw or len(args) != len(names):  # the common case binds nothing
            args = _bind(name, names, defaults, args, kw)
        for put, v in zip(setters, args, strict=True):
            put(self, v)

    return __init__


def _record_eq(self: Any, other: object) -> bool:
    if other.__class__ is not self.__class__:
        return NotImplemented  # type: ignore[no-any-return]
    return astuple(self) == astuple(other)


def _record_repr(self: Any) -> str:
    inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._fields)
    return f"{type(self).__qualname__}({inner})"


def _record_reduce(self: Any) -> tuple[Any, ...]:  # pickling (the parallel catalog loader)
    return (self.__class__, astuple(self))


def _record_hash(self: Any) -> int:
    return hash(astuple(self))


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    raise AttributeError(f"cannot assign to field {name!r} of a frozen record")


def _frozen_delattr(self: Any, name: str) -> None:
    raise AttributeError(f"cannot delete field {name!r} of a frozen record")


RECORD_INITS = "_record_inits"
"""The module of compiled ``__init__`` factories for the package's record classes: only in a
wheel's code bundle (errexplain._bundle), which builds it from the sources' record classes."""
_inits: dict[str, dict[tuple[str, ...], Callable[..., Callable[..., None]]]] = {}


def _record_inits() -> dict[tuple[str, ...], Callable[..., Callable[..., None]]]:
    """Field names -> a factory that, given each field's slot setter, returns the record's
    ``__init__`` written out for those fields (:func:`errexplain._bundle.record_inits_source`);
    empty without a bundle (an editable install, ``ERREXPLAIN_NO_BUNDLE``)."""
    found = _inits.get("table")
    if found is None:
        try:
            module = __import__(f"{__package__ or 'errexplain'}.{RECORD_INITS}", fromlist=["_"])
            found = dict(module.INITS)
        except Exception:
            found = {}
        _inits["table"] = found
    return found


def _trailing(names: tuple[str, ...], defaults: dict[str, Any]) -> tuple[Any, ...] | None:
    """The defaults as a function's ``__defaults__`` (None when they are not all trailing)."""
    tail = names[len(names) - len(defaults) :] if defaults else ()
    if set(tail) != defaults.keys():
        return None
    return tuple(defaults[n] for n in tail)


class _RecordMeta(type):
    """Makes each subclass of :class:`Record` / :class:`MutableRecord` a slotted class of its
    own annotations, in one class creation (a decorator built every record class twice: the
    class statement's class, then the slotted one; 27 microseconds a class against 17, with
    31 record classes on the piped path).

    Its ``__init__`` is the bundle's compiled one for its fields when there is one (a call
    binds its arguments as any function's and sets each slot in a line of its own: a fifth of
    the generic one's cost, and a piped explain makes some 600 records); else the generic
    :func:`_make_init`, which compiles nothing (compiling an ``__init__`` per class at start-up
    would cost more than it saves)."""

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if "_fields" in ns:  # (the bases Record and MutableRecord themselves)
            return super().__new__(mcls, name, bases, ns)
        names = tuple(ns.get("__annotations__", {}))  # (the class's own, in order)
        defaults = {n: ns.pop(n) for n in names if n in ns}
        setters: list[Any] = []
        ns.update(
            __slots__=names,
            __match_args__=names,
            _fields=names,
            __init__=_make_init(name, names, defaults, setters),
        )
        cls = super().__new__(mcls, name, bases, ns)
        setters.extend(cls.__dict__[n].__set__ for n in names)
        factory = _record_inits().get(names)
        trailing = _trailing(names, defaults)
        if factory is not None and trailing is not None:
            init = factory(*setters)
            init.__defaults__ = trailing or None
            init.__qualname__ = f"{ns.get('__qualname__', name)}.__init__"
            init.__module__ = str(ns.get("__module__", __name__))
            type.__setattr__(cls, "__init__", init)
        return cls


def _replace(obj: Any, /, **changes: Any) -> Any:
    values = {n: getattr(obj, n) for n in obj._fields}
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return obj.__class__(**values)


def astuple(obj: Any) -> tuple[Any, ...]:
    """The field values of a record, in order (``dataclasses.astuple`` without recursion)."""
    return tuple([getattr(obj, n) for n in obj._fields])


if TYPE_CHECKING:

    @dataclass_transform(frozen_default=True)
    class Record:
        """A frozen slotted record (the type checker's view: a frozen dataclass)."""

        _fields: ClassVar[tuple[str, ...]]

    @dataclass_transform()
    class MutableRecord:
        """A slotted record with assignable fields, unhashable."""

        _fields: ClassVar[tuple[str, ...]]

    def replace(obj: _T, /, **changes: Any) -> _T: ...

else:

    class _RecordBase(metaclass=_RecordMeta):
        __slots__ = ()
        _fields = ()
        __eq__ = _record_eq
        __repr__ = _record_repr
        __reduce__ = _record_reduce

    class Record(_RecordBase):
        """Like ``@dataclass(frozen=True, slots=True)``, by subclassing."""

        __slots__ = ()
        _fields = ()
        __hash__ = _record_hash
        __setattr__ = _frozen_setattr
        __delattr__ = _frozen_delattr

    class MutableRecord(_RecordBase):
        """Like ``@dataclass(slots=True)`` (no hash), by subclassing."""

        __slots__ = ()
        _fields = ()
        __hash__ = None

    replace = _replace


# --------------------------------------------------------- named_tuple (namedtuple stand-in)


def _plain_tuple(self: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(self)


def _item(i: int) -> property:
    return property(lambda self: self[i])


def named_tuple(
    name: str, fields: tuple[str, ...], defaults: tuple[Any, ...] = (), module: str = __name__
) -> type[Any]:
    """Like ``collections.namedtuple(name, fields, defaults=defaults, module=module)``: a tuple
    subclass built positionally or by keyword, with a property per field, ``_fields``, its
    repr and pickling."""
    n = len(fields)
    by_name = dict(zip(fields[n - len(defaults) :], defaults, strict=True))

    def __new__(cls: type[Any], *args: Any, **kw: Any) -> Any:
        if kw or len(args) != n:  # the common case binds nothing
            args = _bind(name, fields, by_name, args, kw)
        return tuple.__new__(cls, args)

    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{f}={v!r}" for f, v in zip(fields, self, strict=True))
        return f"{name}({inner})"

    ns: dict[str, Any] = {
        "__slots__": (),
        "_fields": fields,
        "__new__": __new__,
        "__repr__": __repr__,
        "__getnewargs__": _plain_tuple,
        "__module__": module,
    }
    for i, field in enumerate(fields):
        ns[field] = _item(i)
    return type(name, (tuple,), ns)


# ----------------------------------------------------------------- IntEnum (enum stand-in)


class _IntEnumType(type):
    """Members are the class's public int attributes, turned into instances of the class (an
    int subclass) that know their name; the class iterates over them in definition order and
    looks them up by value (``Cls(1)``) or name (``Cls["NAME"]``)."""

    _member_map_: dict[str, Any]

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        values = {k: v for k, v in ns.items() if not k.startswith("_") and type(v) is int}
        cls = super().__new__(mcls, name, bases, {k: v for k, v in ns.items() if k not in values})
        members = {}
        for key, value in values.items():
            member: Any = int.__new__(cls, value)  # type: ignore[arg-type]
            member._name_ = key
            members[key] = member
            type.__setattr__(cls, key, member)
        type.__setattr__(cls, "_member_map_", members)
        return cls

    def __call__(cls, value: Any) -> Any:
        for member in cls._member_map_.values():
            if member == value:
                return member
        raise ValueError(f"{value!r} is not a valid {cls.__qualname__}")

    def __getitem__(cls, name: str) -> Any:
        return cls._member_map_[name]

    def __iter__(cls) -> Any:
        return iter(cls._member_map_.values())

    def __len__(cls) -> int:
        return len(cls._member_map_)

    def __setattr__(cls, name: str, value: Any) -> None:
        raise AttributeError(f"cannot reassign member {name!r}")


class _IntEnumBase(int, metaclass=_IntEnumType):
    _name_: str

    @property
    def name(self) -> str:
        return self._name_

    @property
    def value(self) -> int:
        return int(self)

    def __repr__(self) -> str:
        return f"<{type(self).__qualname__}.{self._name_}: {int(self)}>"

    if sys.version_info >= (3, 11):
        __str__ = int.__repr__
    else:  # pragma: no cover - 3.10's IntEnum prints the member's name

        def __str__(self) -> str:
            return f"{type(self).__qualname__}.{self._name_}"

    def __format__(self, spec: str) -> str:
        return format(int(self), spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (int(self),))


if TYPE_CHECKING:
    from enum import IntEnum as IntEnum
else:
    IntEnum = _IntEnumBase


# --------------------------------------------------------- user cache dir (platformdirs stand-in)


def user_cache_dir(app: str) -> str:
    """``platformdirs.user_cache_dir(app, appauthor=False)``: on Linux the XDG rule
    ($XDG_CACHE_HOME if set to an absolute path, else ~/.cache) without importing
    platformdirs; elsewhere platformdirs itself."""
    import os

    platform = sys.platform  # a plain value: the same code type-checks on every platform
    if platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME", "")
        if not os.path.isabs(base):
            base = os.path.expanduser("~/.cache")
        return os.path.join(base, app)
    from platformdirs import user_cache_dir as platform_dir

    return str(platform_dir(app, appauthor=False))


# ------------------------------------------------------------------ memo (lru_cache stand-in)


def memo(maxsize: int = 128) -> Callable[[_F], _F]:
    """A dict-backed stand-in for ``functools.lru_cache(maxsize)``: positional and keyword
    hashable arguments, the same results; when full it is emptied rather than trimmed."""

    def decorate(fn: _F) -> _F:
        store: dict[Any, Any] = {}

        def cached(*args: Any, **kw: Any) -> Any:
            key = (args, tuple(kw.items())) if kw else args
            try:
                return store[key]
            except KeyError:
                if len(store) >= maxsize:
                    store.clear()
                value = store[key] = fn(*args, **kw)
                return value

        cached.cache_clear = store.clear  # type: ignore[attr-defined]
        cached.__wrapped__ = fn  # type: ignore[attr-defined]
        cached.__doc__ = fn.__doc__
        cached.__name__ = fn.__name__
        return cached  # type: ignore[return-value]

    return decorate


# ------------------------------------------------------------------------------ regex programs

_codes: dict[tuple[str, int], tuple[Any, ...] | bytes] = {}
_seen: dict[tuple[str, int], None] = {}
_state = {"loaded": False}
PROGRAMS_FILE = "regex.programs"
"""The compiled-regex programs shipped in a wheel (``errexplain/_index/``), written by the
build hook (:func:`programs_blob`). Never a file of the user's cache dir."""


def _program(pattern: str, flags: int) -> tuple[Any, ...] | None:
    """The arguments ``_sre.compile`` needs after ``pattern``, as CPython 3.10-3.13 build them
    (None on an interpreter whose private ``re`` internals differ)."""
    try:
        if sys.version_info >= (3, 11):
            from re import _compiler, _parser  # type: ignore[attr-defined]
        else:  # pragma: no cover - exercised on 3.10 by nox
            import sre_compile as _compiler
            import sre_parse as _parser
        p = _parser.parse(pattern, flags)
        code = _compiler._code(p, flags)
        groupindex = {str(k): int(i) for k, i in p.state.groupdict.items()}
        indexgroup: list[str | None] = [None] * p.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        # the opcodes as one bytes object of native uint32s (CODESIZE 4, byte order in the
        # tag): a list of ints costs marshal a tenth of a millisecond at every start
        return (
            int(flags | p.state.flags),
            b"".join(int(c).to_bytes(4, sys.byteorder) for c in code),
            int(p.state.groups - 1),
            groupindex,
            tuple(indexgroup),
        )
    except Exception:
        return None


def _sre_build(pattern: str, args: tuple[Any, ...] | bytes) -> re.Pattern[str] | None:
    """The pattern built from its program (as the programs file stores it: marshalled, each
    unmarshalled when its pattern is first used), or None when that fails."""
    try:
        import _sre  # type: ignore[import-not-found]  # no stubs: the C half of re

        if isinstance(args, bytes):
            import marshal

            program: tuple[Any, ...] = marshal.loads(args)
        else:
            program = args
        flags, code, *rest = program
        ops = memoryview(code).cast("I").tolist()
        compiled: re.Pattern[str] = _sre.compile(pattern, flags, ops, *rest)
        return compiled
    except Exception:
        return None


class _LazyPattern:
    """A pattern compiled on its first use. A piped explain uses about a third of the patterns
    its modules define at import (38 of 103 on a multi-rank log), and building one costs about
    12 microseconds even from a shipped program. The first attribute asked for builds it and
    copies its methods onto the instance, so that later calls find them in the instance dict
    without passing through ``__getattr__``. ``pattern`` is known without building (modules
    compose patterns from others' text at import)."""

    _METHODS = (
        "match",
        "search",
        "fullmatch",
        "finditer",
        "findall",
        "sub",
        "subn",
        "split",
        "scanner",
        "flags",
        "groups",
        "groupindex",
    )

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_flags", "pattern"):
            raise AttributeError(name)
        built = _build_regex(self.pattern, self._flags)
        d = self.__dict__
        for m in self._METHODS:
            d[m] = getattr(built, m)
        return getattr(built, name)

    def __reduce__(self) -> tuple[Any, ...]:
        return (compile_regex, (self.pattern, self._flags))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, _LazyPattern):
            return (self.pattern, self._flags) == (other.pattern, other._flags)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"compile_regex({self.pattern!r}, {self._flags})"


def compile_regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Like ``re.compile``, built on first use (:class:`_LazyPattern`) from the programs
    shipped in the wheel when there are."""
    key = (pattern, int(flags))
    _seen[key] = None
    lazy: Any = _LazyPattern(pattern, int(flags))
    return lazy  # type: ignore[no-any-return]


def edge_before(word: str) -> str:
    """A regex lookbehind for where a name starts: after no character of the class `word`
    (`A-Za-z0-9_`: a name's ASCII edges, so prose in Chinese runs into it), or right after a
    string's escaped line break (`...\\nvLLM is using ...` of a logged repr, whose escape
    ends in a letter)."""
    return rf"(?:(?<=\\[nrt])|(?<![{word}]))"


def _build_regex(pattern: str, flags: int) -> re.Pattern[str]:
    """The compiled pattern, from the shipped programs when there are."""
    key = (pattern, int(flags))
    if not _state["loaded"]:
        _state["loaded"] = True
        _load_programs()
    args = _codes.get(key)
    if args is not None:
        built = _sre_build(pattern, args)
        if built is not None:
            return built
    import re

    return re.compile(pattern, flags)


def _tag() -> str:
    import _sre

    return (
        f"{sys.implementation.cache_tag}-{sys.hexversion:x}-{_sre.MAGIC}-{_sre.CODESIZE}"
        f"-{sys.byteorder}-u{memoryview(bytes(4)).cast('I').itemsize}"
    )


def _checksum(data: bytes | memoryview) -> bytes:
    """CRC-32 and Adler-32 side by side (8 bytes): against corruption, not a forger."""
    from zlib import adler32, crc32

    return crc32(data).to_bytes(4, "little") + adler32(data).to_bytes(4, "little")


def programs_blob() -> bytes:
    """The programs of every pattern compiled so far, for this interpreter, as the file the
    build hook ships: marshal of (tag, {(pattern, flags): marshalled program}), then its
    checksum."""
    import marshal

    # each program marshalled on its own: a run unmarshals the few its patterns use (about
    # 40 of 100), not the whole table
    table = {k: marshal.dumps(v) for k in _seen if (v := _program(*k)) is not None}
    data = marshal.dumps((_tag(), table))
    return data + _checksum(data)


def read_programs(data: bytes) -> dict[tuple[str, int], bytes]:
    """The table of a programs file: empty unless its checksum holds and it was built by this
    very interpreter (cache tag, version, ``_sre.MAGIC`` and ``CODESIZE``)."""
    import marshal

    body, tail = memoryview(data)[:-8], data[-8:]  # (no copy of the body)
    if len(data) < 8 or _checksum(body) != tail:
        return {}
    try:
        tag, table = marshal.loads(body)
    except Exception:
        return {}
    return table if tag == _tag() and isinstance(table, dict) else {}


def _load_programs() -> None:
    """Fill the table from the wheel's programs file (package data, as trusted as the
    package's own code and ``.pyc`` files; an editable install has none and compiles)."""
    import os

    pkg = sys.modules.get(__package__ or "errexplain")
    try:
        path = os.path.join(pkg.__path__[0], "_index", PROGRAMS_FILE)  # type: ignore[union-attr]
        with open(path, "rb") as fh:
            _codes.update(read_programs(fh.read()))
    except Exception:
        return


def write_atomic(path: str, data: bytes, mode: int | None = None) -> None:
    """Write a file atomically (readers see the old or the whole new content); its mode is
    0600 unless `mode` is given."""
    import os
    import tempfile

    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        from contextlib import suppress

        with suppress(OSError):
            os.unlink(tmp)
        raise
