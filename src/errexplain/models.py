"""Plain, immutable records that flow through parse -> match -> explain -> render.

Nothing here imports from the package or outside the standard library.

Records are declared like frozen, slotted dataclasses, with :func:`record`. To the type checker
``record`` *is* a dataclass transform (mypy treats ``TYPE_CHECKING`` as true, see pyproject);
at run time it builds the class without ``dataclasses``, whose import (``inspect``, ``ast``,
``tokenize``) and per-class code generation cost more start-up time than the whole match.
"""

from __future__ import annotations

TYPE_CHECKING = False  # mypy: always_true; at run time `typing` is never imported here

if TYPE_CHECKING:
    from typing import Any, Literal, TypeVar

    from typing_extensions import dataclass_transform

    _T = TypeVar("_T")

    @dataclass_transform(frozen_default=True)
    def record(cls: type[_T]) -> type[_T]: ...

    @dataclass_transform()
    def mutable_record(cls: type[_T]) -> type[_T]: ...

    def replace(obj: _T, /, **changes: Any) -> _T: ...

    from functools import lru_cache

    memo = lru_cache

    MatchKind = Literal["exact", "fuzzy"]
else:
    MatchKind = str

    def _make_init(name, names, defaults):
        def __init__(self, *args, **kw):
            if not kw and len(args) == len(names):
                for n, v in zip(names, args, strict=True):
                    object.__setattr__(self, n, v)
                return
            if len(args) > len(names):
                raise TypeError(f"{name}() takes {len(names)} arguments")
            values = dict(zip(names, args, strict=False))
            for k, v in kw.items():
                if k not in names or k in values:
                    raise TypeError(f"{name}() got an unexpected or repeated {k!r}")
                values[k] = v
            for n in names:
                if n not in values and n not in defaults:
                    raise TypeError(f"{name}() missing argument {n!r}")
                object.__setattr__(self, n, values[n] if n in values else defaults[n])

        return __init__

    def _build(cls, frozen):
        # The class's own annotations, in order (inspect.get_annotations would import inspect)
        names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063
        defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
        ns = {k: v for k, v in cls.__dict__.items()
              if k not in names and k not in ("__dict__", "__weakref__")}
        ns["__slots__"] = names
        ns["__match_args__"] = names
        __init__ = _make_init(cls.__name__, names, defaults)

        def _values(self):
            return tuple(getattr(self, n) for n in names)

        def __eq__(self, other):
            if other.__class__ is not self.__class__:
                return NotImplemented
            return _values(self) == _values(other)

        def __repr__(self):
            inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
            return f"{cls.__qualname__}({inner})"

        def __reduce__(self):  # pickling (used by the parallel catalog loader)
            return (new, _values(self))

        ns.update(__init__=__init__, __eq__=__eq__, __repr__=__repr__, _fields=names,
                  __reduce__=__reduce__)
        if frozen:
            def __setattr__(self, name, value):
                raise AttributeError(f"cannot assign to field {name!r} of a frozen record")

            ns.update(__setattr__=__setattr__, __delattr__=__setattr__,
                      __hash__=lambda self: hash(_values(self)))
        else:
            ns["__hash__"] = None
        new = type(cls.__name__, cls.__bases__, ns)
        new.__qualname__ = cls.__qualname__
        return new

    def record(cls):
        return _build(cls, True)

    def mutable_record(cls):
        return _build(cls, False)

    def replace(obj, /, **changes):
        values = {n: getattr(obj, n) for n in obj._fields}
        values.update(changes)
        return obj.__class__(**values)

    def memo(maxsize=128):
        """A dict-backed stand-in for functools.lru_cache (functools pulls in collections):
        positional hashable arguments, emptied when full."""

        def decorate(fn):
            store = {}

            def cached(*args, **kw):
                key = (args, tuple(kw.items())) if kw else args
                try:
                    return store[key]
                except KeyError:
                    if len(store) >= maxsize:
                        store.clear()
                    value = store[key] = fn(*args, **kw)
                    return value

            cached.cache_clear = store.clear
            cached.__wrapped__ = fn
            cached.__doc__ = fn.__doc__
            cached.__name__ = fn.__name__
            return cached

        return decorate

SCHEMA_VERSION = 1


@record
class Frame:
    """One `File "...", line N, in func` frame of a traceback."""

    path: str
    line: int | None
    function: str | None
    code: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "function": self.function}


@record
class RaisedError:
    """An exception found in pasted text.

    `chain` holds the exceptions printed before this one in the same chain, root cause first;
    `chain_relation` says how the last of them led here ("cause" or "context").
    `members` holds the sub-exceptions of an exception group. `count` is how many times the same
    error was seen (for example once per rank) and `ranks` the rank labels seen with it.
    """

    type: str
    message: str
    frames: tuple[Frame, ...] = ()
    chain: tuple[RaisedError, ...] = ()
    chain_relation: str | None = None
    members: tuple[RaisedError, ...] = ()
    count: int = 1
    ranks: tuple[str, ...] = ()
    truncated: bool = False
    line_no: int = 0

    @property
    def short_type(self) -> str:
        """The class name without its module: `torch.AcceleratorError` -> `AcceleratorError`."""
        return self.type.rsplit(".", 1)[-1]

    @property
    def root_cause(self) -> RaisedError | None:
        return self.chain[0] if self.chain else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "message": self.message,
            "frames": [f.to_dict() for f in self.frames],
            "count": self.count,
            "ranks": list(self.ranks),
            "truncated": self.truncated,
            "chain": [{"type": c.type, "message": c.message} for c in self.chain],
            "members": [{"type": m.type, "message": m.message} for m in self.members],
        }


@record
class Source:
    """Where an error is raised in a released version of a project."""

    project: str
    version: str | None
    path: str | None
    line: int | None
    function: str | None
    url: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "project": self.project,
            "version": self.version,
            "path": self.path,
            "line": self.line,
            "function": self.function,
            "url": self.url,
        }


@record
class ExampleFix:
    before: str
    after: str
    language: str = "python"

    def to_dict(self) -> dict[str, str]:
        return {"before": self.before, "after": self.after, "language": self.language}


@record
class Entry:
    """One catalog entry: a message template at a raise site plus its explanation."""

    id: str
    project: str
    exception: str
    template: str
    source: Source
    base: str | None = None
    kind: str = "raise"
    condition: str | None = None
    doc: str | None = None
    versions: tuple[str, ...] = ()
    derived: bool = False
    meaning: str | None = None
    trigger: str | None = None
    situations: tuple[str, ...] = ()
    solutions: tuple[str, ...] = ()
    example_fix: ExampleFix | None = None
    related: tuple[str, ...] = ()
    examples: tuple[str, ...] = ()
    removed_in: str | None = None
    catalog_file: str | None = None

    @property
    def curated(self) -> bool:
        return not self.derived and bool(self.meaning)


@record
class Related:
    id: str
    template: str
    exception: str

    def to_dict(self) -> dict[str, str]:
        return {"id": self.id, "template": self.template, "exception_type": self.exception}


@record
class Match:
    """A catalog entry that explains an error, with how sure we are and why."""

    entry: Entry
    score: float
    kind: MatchKind
    values: tuple[tuple[str, str], ...] = ()
    reasons: tuple[str, ...] = ()
    related: tuple[Related, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id,
            "score": round(self.score, 4),
            "kind": self.kind,
            "reasons": list(self.reasons),
            "template": e.template,
            "exception_type": e.exception,
            "base": e.base,
            "source": e.source.to_dict(),
            "values": dict(self.values),
            "derived": e.derived,
            "meaning": e.meaning,
            "trigger": e.trigger,
            "condition": e.condition,
            "situations": list(e.situations),
            "solutions": list(e.solutions),
            "example_fix": e.example_fix.to_dict() if e.example_fix else None,
            "related": [r.to_dict() for r in self.related],
        }


@record
class Explanation:
    """The answer for one error: its matches (best first), or none with the nearest ones."""

    error: RaisedError
    matches: tuple[Match, ...]
    nearest: tuple[Match, ...] = ()
    ambiguous: bool = False
    generic: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def explained(self) -> bool:
        return bool(self.matches)

    def to_dict(self) -> dict[str, Any]:
        return {
            "exception": self.error.to_dict(),
            "matches": [m.to_dict() for m in self.matches],
            "nearest": [{"id": m.entry.id, "score": round(m.score, 4),
                         "template": m.entry.template} for m in self.nearest],
            "ambiguous": self.ambiguous,
            "generic": self.generic,
            "notes": list(self.notes),
        }


def make_id(project: str, module: str, function: str, template: str) -> str:
    """The stable 16-hex id of an entry: it changes only if one of these four changes."""
    import hashlib

    key = "\0".join((project, module, function, template)).encode("utf-8")
    return hashlib.sha256(key).hexdigest()[:16]
