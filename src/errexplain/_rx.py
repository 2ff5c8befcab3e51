"""`re.compile` with a persistent cache of compiled patterns, for a fast cold start.

Compiling errexplain's ~45 regular expressions costs about as much as starting Python itself,
on every run, and importing `re` (enum, the parser and compiler) half as much again.
CPython's `re` compiles a pattern in two steps: a Python-level parser/compiler
produces a list of integer opcodes, and `_sre.compile` (C) turns them into a pattern object.
The opcode lists are plain data, so they are cached in a marshal file (one per Python version and
`_sre.MAGIC`) and the next run calls only the C step, without importing `re` at all.

The cache is filled in memory by :func:`compile`, and read/written only by :func:`load` and
:func:`save`, which the command-line edge calls; library code never touches the file. Any
difference in the private `re` internals (other Python versions) makes :func:`compile` fall
back to `re.compile`, which is always correct.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # no stubs: the C half of re
import sys

from .models import TYPE_CHECKING

if TYPE_CHECKING:
    import re
    from typing import Any

_codes: dict[tuple[str, int], tuple[Any, ...]] = {}
_dirty = False


def _args(pattern: str, flags: int) -> tuple[Any, ...] | None:
    """The arguments `_sre.compile` needs after `pattern`, as CPython 3.11-3.13 build them."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        p = _parser.parse(pattern, flags)
        code = _compiler._code(p, flags)
        groupindex = {str(k): int(i) for k, i in p.state.groupdict.items()}
        indexgroup: list[str | None] = [None] * p.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        # plain ints only (opcodes are int subclasses), so that marshal can store them
        return (int(flags | p.state.flags), [int(c) for c in code], int(p.state.groups - 1),
                groupindex, tuple(indexgroup))
    except Exception:
        return None


def _build(pattern: str, args: tuple[Any, ...]) -> re.Pattern[str] | None:
    try:
        flags, code, *rest = args
        if isinstance(code, bytes):  # stored packed (see save): back to the list _sre wants
            code = memoryview(code).cast("I").tolist()
        compiled: re.Pattern[str] = _sre.compile(pattern, flags, code, *rest)
        return compiled
    except Exception:
        return None


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Like `re.compile`, served from the opcode cache when possible."""
    global _dirty
    key = (pattern, int(flags))
    args = _codes.get(key)
    if args is not None:
        cached = _build(pattern, args)
        if cached is not None:
            return cached
    fresh = _args(pattern, int(flags))
    built = _build(pattern, fresh) if fresh is not None else None
    if built is None or fresh is None:
        import re

        return re.compile(pattern, flags)
    _codes[key] = fresh
    _dirty = True
    return built


def _pack(code: list[int] | bytes) -> bytes:
    if isinstance(code, bytes):
        return code
    import array

    packed = array.array("I", code)
    return packed.tobytes()


def _file(directory: str) -> str:
    import os

    tag = f"{sys.implementation.cache_tag}-{_sre.MAGIC}-{_sre.CODESIZE}"
    return os.path.join(directory, f"regex-{tag}.marshal")


def load(directory: str) -> None:
    """Fill the in-memory cache from a previous run's file (missing or bad files are ignored)."""
    import marshal

    try:
        with open(_file(directory), "rb") as fh:
            data = marshal.load(fh)
        if isinstance(data, dict):
            _codes.update(data)
    except Exception:
        return


def save(directory: str) -> None:
    """Write the cache if this run compiled anything new (atomically; errors are ignored)."""
    global _dirty
    if not _dirty:
        return
    import marshal

    from .index import write_atomic

    # opcodes packed as uint32 bytes: one object instead of thousands of ints to unmarshal
    packed = {key: (args[0], _pack(args[1]), *args[2:]) for key, args in _codes.items()}
    try:
        write_atomic(_file(directory), marshal.dumps(packed))
        _dirty = False
    except Exception:
        return
